"""The seed-004 section (the jobbed port's report section, bench/ports/jobbed/seed004.py): the
seed's published figures beside the jobbed and posix runs."""
import json

from rtoslab import port_sections, results

_mod = port_sections.module("jobbed")
SEED, main, markdown, section = _mod.SEED, _mod.main, _mod.markdown, _mod.section


def run(rtos, board, clock_hz, per_metric, absent=None, config=None):
    """A result-file run whose metrics have the given mean (cycles), same min/p50/p99/max."""
    return {"rtos": rtos, "rtos_version": "1", "board": board, "clock_hz": clock_hz,
            "toolchain": "gcc", "config": config or {}, "status": "complete", "incomplete": [],
            "checks": [], "size": {},
            "manifest": {"board_profile": {"timing": f"timing of {board}"}},
            "results": [{"id": m, "unit": "cycles", "n": 4, "min": v, "p50": v, "mean": v, "p99": v,
                         "max": v + 4, "stdev": 2.0, "cold": 0, "samples": [v, v, v, v + 4]}
                        for m, v in per_metric.items()],
            "absent": [{"id": k, "reason": r} for k, r in (absent or {}).items()]}


def jobbed():
    return run("jobbed", "qemu-raspi2b", 1_000_000_000,
               {"thread.create_low": 195, "mutex.create": 44},
               absent={"mutex.unlock": "the reason it is absent"})


def posix():
    # 2 GHz: cycles are halves of ns
    return run("posix", "host", 2_000_000_000, {"thread.create_low": 20000},
               config={"rt.sched_fifo": "granted", "rt.mlockall": "denied"})


def test_section_sets_runs_beside_published_figures():
    sec = section([jobbed(), posix()])
    assert sec["headers"] == ["Linux, RPi 2B (seed)", "Linux, host (posix)", "Jobbed, RPi 2B (seed)",
                              "Jobbed, qemu-raspi2b (this suite)"]
    row = {r["metric"]: r for r in sec["rows"]}
    create = row["thread.create_low"]["cells"]
    assert create[0] == "96 600 / 26 100 / 825 000" and create[2] == "1 880 / 967 / 5 000"
    assert create[1].startswith("10 000 / 1 / 10 002")          # ns at the run's clock
    assert create[3].startswith("195 / 2 / 199 (min 195, p50 195, p99 195)")
    assert row["mutex.unlock"]["cells"][3] == "absent: the reason it is absent"
    assert row["mutex.create"]["cells"][1] == "not in this run"
    timing = dict(sec["timing"])
    assert "1 MHz system timer" in timing["Jobbed, RPi 2B (seed)"]
    assert "timing of qemu-raspi2b" in timing["Jobbed, qemu-raspi2b (this suite)"]
    linux = timing["Linux, host (posix)"]
    assert "sched_fifo: granted" in linux and "mlockall: denied" in linux
    assert len(sec["rows"]) == len(SEED)


def test_no_section_without_jobbed_or_posix():
    assert section([run("freertos", "vp-m0", 48_000_000, {"mutex.create": 600})]) is None
    only = section([jobbed()])
    assert only["headers"] == ["Linux, RPi 2B (seed)", "Jobbed, RPi 2B (seed)", "Jobbed, qemu-raspi2b (this suite)"]


def test_report_has_the_section(cli, tmp_path):
    doc = results.new_document("abc123")
    doc["runs"] = [jobbed(), posix()]
    path = tmp_path / "s.json"
    results.write(doc, path)
    r = cli("report", path, "--html", tmp_path / "r.html", "--md", tmp_path / "r.md")
    assert r.status == 0, r
    html = (tmp_path / "r.html").read_text()
    md = (tmp_path / "r.md").read_text()
    assert 'id="seed004"' in html and "96 600 / 26 100 / 825 000" in html and "195 / 2 / 199" in html
    assert "## Seed 004" in md and markdown(section(doc["runs"])) in md


def test_report_without_jobbed_has_no_section(cli, tmp_path):
    doc = results.new_document("abc123")
    doc["runs"] = [run("freertos", "vp-m0", 48_000_000, {"mutex.create": 600})]
    path = tmp_path / "f.json"
    results.write(doc, path)
    assert cli("report", path, "--html", tmp_path / "r.html").status == 0
    assert 'id="seed004"' not in (tmp_path / "r.html").read_text()


def test_cli_table_and_bad_input(tmp_path, capsys):
    doc = results.new_document("abc123")
    doc["runs"] = [jobbed()]
    path = tmp_path / "j.json"
    path.write_text(json.dumps(doc))
    assert main(["seed004", str(path)]) == 0
    assert "| Thread Creation (L) | `thread.create_low` |" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["seed004", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_one_command_runs_each_rtos_on_its_board():
    """`rtoslab run --rtos jobbed,posix,rtoslab` without --board: Jobbed on qemu-raspi2b, Linux
    threads on the host, rtoslab on the default board; a --board given keeps every RTOS on it."""
    from rtoslab.ids import BOARDS, DEFAULT_BOARD
    from rtoslab.run import Options
    from rtoslab.selection import resolve
    default = BOARDS[DEFAULT_BOARD]
    homes = resolve("jobbed,posix,rtoslab", None, images={"jobbed": 1, "posix": 1, "rtoslab": 1}).homes()
    assert {r: b.id for r, b in homes.items()} == {"jobbed": "qemu-raspi2b", "posix": "host"}
    opts = Options(rtos=["jobbed", "posix", "rtoslab"], board=default, boards=homes)
    assert [opts.for_rtos(r).board.id for r in opts.rtos] == ["qemu-raspi2b", "host", DEFAULT_BOARD]
