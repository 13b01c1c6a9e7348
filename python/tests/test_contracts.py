"""spec/contracts.toml is the one source: the committed generated files are what
spec/generate.py writes, and the docs and the `rtoslab` ids agree with it."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtoslab import contract, ids

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "spec"))
import generate  # noqa: E402  (spec/ is not a package)


@pytest.fixture(scope="module")
def spec():
    return generate.load()


def test_generated_files_are_up_to_date(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "spec" / "generate.py"), "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert written == sorted(generate.outputs(generate.load()))
    stale = [rel for rel in written if (tmp_path / rel).read_text() != (ROOT / rel).read_text()]
    assert not stale, f"run python3 spec/generate.py: out of date: {stale}"


def test_generated_files_say_so():
    for rel in generate.outputs(generate.load()):
        head = (ROOT / rel).read_text().splitlines()[0]
        assert generate.NOTICE in head, rel


def test_check_mode_finds_a_stale_file(tmp_path):
    gen = [sys.executable, str(ROOT / "spec" / "generate.py"), "--out", str(tmp_path)]
    subprocess.run(gen, check=True)
    assert subprocess.run(gen + ["--check"]).returncode == 0
    (tmp_path / generate.PYTHON_MODULE).write_text("# edited by hand\n")
    r = subprocess.run(gen + ["--check"], capture_output=True, text=True)
    assert r.returncode == 1 and generate.PYTHON_MODULE in r.stderr


def test_duplicate_ids_are_refused(spec):
    bad = dict(spec, checks={"ids": ["check.deadlock", "check.deadlock"]})
    with pytest.raises(SystemExit, match="duplicate check id"):
        generate.validate(bad)


def test_ids_module_uses_the_contract():
    assert ids.METRIC_IDS == tuple(contract.METRICS)
    assert ids.CHECK_IDS == contract.CHECK_IDS
    assert len(ids.METRIC_IDS) == len(set(ids.METRIC_IDS))
    assert set(contract.FIRMWARE_METRICS) < set(ids.METRIC_IDS)       # the rest: the simulator's
    assert "irq.masked_max" in ids.METRIC_IDS and "irq.masked_max" not in contract.FIRMWARE_METRICS
    assert ids.RHEALSTONE[0] == "rhealstone.task_switch" and len(ids.RHEALSTONE) == 6
    i = ids.METRIC_IDS.index("irq.dispatch")
    assert ids.METRIC_IDS[i - 1:i + 2] == ("irq.to_thread", "irq.dispatch", "irq.latency_worst")
    assert ids.higher_is_better("tm.memory") and not ids.higher_is_better("sem.signal_wake")
    assert ids.metric_unit("tm.message") == "ops/1e7cycles"
    assert ids.metric_unit("rhealstone.preemption") == "cycles"
    assert ids.metric_order("rhealstone.task_switch") < ids.metric_order("tm.memory")
    assert ids.metric_order("zz.unknown") > ids.metric_order("tm.memory")


def test_shell_lists_come_from_the_contract():
    def listed(what):
        out = subprocess.run([sys.executable, str(ROOT / "python" / "rtoslab" / "contract.py"), what],
                             capture_output=True, text=True, check=True).stdout
        return tuple(out.split())
    assert listed("metrics") == contract.FIRMWARE_METRICS    # what every image reports
    assert listed("all-metrics") == ids.METRIC_IDS
    assert listed("checks") == ids.CHECK_IDS
    run_sh = (ROOT / "bench" / "tests" / "run.sh").read_text()
    assert "contract.py metrics" in run_sh and "rhealstone.task_switch" not in run_sh


def test_interfaces_doc_names_every_id():
    doc = (ROOT / "docs" / "interfaces.md").read_text()
    known = set(ids.METRIC_IDS) | set(ids.CHECK_IDS)
    families = {k.split(".")[0] for k in known}
    named = {n for n in re.findall(r"`([a-z]+\.[a-z0-9_.]+)`", doc) if n.split(".")[0] in families}
    assert named - known == set(), "docs/interfaces.md names ids the contract does not know"
    for mid in known - named:
        # ranges are written `first` … `last`: the family must be named
        family = mid.rsplit(".", 1)[0] + "."
        assert any(n.startswith(family) for n in named), mid


def test_board_doc_lists_every_register_and_status(spec):
    doc = (ROOT / "docs" / "board.md").read_text()
    base = spec["memory"]["lab_base"]
    for r in spec["lab_register"]:
        row = re.search(rf"`0x{base + r['offset']:08X}` *\| *{r['name']} *\| *{r['access']} *\|", doc)
        assert row, f"docs/board.md: no table row for {r['name']}"
    for s in spec["exit_status"]:
        assert re.search(rf"^\| {s['status']} \|", doc, re.M), s["name"]


def test_c_header_matches_the_addresses(spec):
    h = (ROOT / generate.C_HEADER).read_text()
    for r in spec["lab_register"]:
        assert re.search(rf"#define LAB_{r['name']} +LAB_REG\(0x{r['offset']:04X}\)", h), r["name"]
    assert "#define LAB_BASE 0x4F000000u" in h
