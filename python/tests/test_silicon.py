"""The silicon check's parts that need no compiler or simulator (python/rtoslab/silicon.py)."""
import pytest

from rtoslab import silicon

REPORT = """\
----------------------------------------------------------------------------
--- Test Case 10.2 (Queues, output queues)
--- Result: SUCCESS
----------------------------------------------------------------------------
--- Test Case 11.1 (Benchmark, messages #1)
--- Score : 106034 msgs/S, 212068 ctxswc/S
--- Result: SUCCESS
----------------------------------------------------------------------------
--- Test Case 11.4 (Benchmark, context switch)
--- Score : 356792 ctxswc/S
--- Result: SUCCESS
"""


def test_scores_take_the_first_figure_of_each_benchmark():
    got = silicon.scores(REPORT)
    assert got == {"11.1": ("Benchmark, messages #1", 106034, "msgs/S"),
                   "11.4": ("Benchmark, context switch", 356792, "ctxswc/S")}


def test_deviation_and_summary():
    rows = [silicon.Score("11.1", "Benchmark, a", "x/S", 100, 103),
            silicon.Score("11.2", "Benchmark, b", "x/S", 200, 180),
            silicon.Score("11.3", "Benchmark, c", "x/S", 50, 50)]
    assert [round(r.deviation_pct, 1) for r in rows] == [3.0, -10.0, 0.0]
    assert silicon.summary(rows) == (3.0, 10.0)
    assert "| 11.2 b | x/S | 200 | 180 | -10.0 % |" in silicon.table({"build": rows})


def test_the_pinned_reference_is_complete():
    ref = silicon.references()["chibios-2.6.0"]
    assert ref.spec["board"] == "vp-stm32f100"
    assert ref.source.archive == "chibios-2.6.0-f6fc44a.tar.xz"
    assert (ref.folder / "main.c").is_file() and (ref.folder / "hal.h").is_file()
    assert ref.spec["goal_median_pct"] == 3.0 and ref.spec["goal_worst_pct"] == 8.0


def test_an_unknown_reference_is_one_line_and_status_2(capsys):
    assert silicon.main(["no-such-reference"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown reference" in err[0]


def test_the_registry_holds_the_three_parts_and_the_fpu_variant():
    refs = silicon.references()
    boards = {n: r.spec["board"] for n, r in refs.items()}
    assert boards == {"chibios-2.5.0": "vp-stm32f103", "chibios-2.6.0": "vp-stm32f100",
                      "chibios-3.0.0p3": "vp-stm32f407", "chibios-3.0.0p3-fpu": "vp-stm32f407"}
    fpu, plain = refs["chibios-3.0.0p3-fpu"], refs["chibios-3.0.0p3"]
    # a variant replaces a table's keys one by one: its own cflags and report, the rest shared
    assert "-mfpu=fpv4-sp-d16" in fpu.spec["build"]["cflags"]
    assert "-mfpu=fpv4-sp-d16" not in plain.spec["build"]["cflags"]
    assert fpu.spec["build"]["sources"] == plain.spec["build"]["sources"]
    assert fpu.spec["report"].endswith("-FPU.txt") and fpu.folder == plain.folder
    for r in refs.values():
        assert (r.folder / "main.c").is_file() and r.spec["compiler"].startswith("GCC 4.")


def test_with_merges_tables_key_by_key():
    spec = {"a": 1, "build": {"x": 1, "y": 2}}
    assert silicon._with(spec, {"a": 2, "build": {"y": 3}}) == {"a": 2, "build": {"x": 1, "y": 3}}
    assert spec == {"a": 1, "build": {"x": 1, "y": 2}}


def test_keep_refuses_a_folder_it_cannot_create(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert silicon.main(["chibios-2.6.0", "--keep", str(blocker / "images")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--keep" in err[0] and "cannot create" in err[0]


def test_keep_creates_its_folder(tmp_path):
    d = silicon._keep_dir(str(tmp_path / "a" / "b"))
    assert d.is_dir()


def test_gcc_that_is_not_there_is_one_line_and_status_2(tmp_path, capsys):
    assert silicon.main(["chibios-2.6.0", "--gcc", str(tmp_path / "no-gcc")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--gcc" in err[0] and "no such program" in err[0]


def test_gcc_version_names_the_columns(tmp_path, capsys):
    assert silicon.gcc_version("arm-none-eabi-gcc").startswith("GCC 1")
    not_gcc = tmp_path / "false-gcc"
    not_gcc.write_text("#!/bin/sh\nexit 3\n")
    not_gcc.chmod(0o755)
    with pytest.raises(silicon.BadInput, match="not a GCC"):
        silicon.gcc_version(str(not_gcc))


def test_spread_is_the_widest_gap_between_compilers_per_case():
    def col(*measured):
        return [silicon.Score(f"11.{i}", "t", "u", 100, m) for i, m in enumerate(measured, 1)]
    cols = {"GCC 12": col(103, 90, 100), "GCC 12 -O2": col(150, 150, 150), "GCC 8": col(97, 92, 100)}
    line = silicon.spread(cols, ["GCC 12", "GCC 8"])
    # per case 6, 2 and 0 points: median 2, the widest 11.1's 6 (the -O2 column is not compared)
    assert "median of 2.0 points" in line and "at most 6.0 (11.1)" in line
