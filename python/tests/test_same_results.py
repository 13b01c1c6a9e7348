"""scripts/same_results.py: two result files measured the same thing (samples, absent metrics,
checks with their details) or not; --rtos limits the comparison; bad input is one line."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "same_results.py"


def result_file(path: Path, samples=(10, 11), check=(True, "cycles: 100"), rtos="rtoslab") -> str:
    run = {"rtos": rtos, "board": "vp-m0", "created": str(path),
           "results": [{"id": "sem.signal_wake", "samples": list(samples), "probe": None, "cold": 0}],
           "absent": [{"id": "tm.memory", "reason": "no pool"}],
           "checks": [{"id": "check.timeout", "passed": check[0], "detail": check[1]}]}
    path.write_text(json.dumps({"runs": [run]}))
    return str(path)


def same(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_identical_samples_agree_and_what_was_measured_differs(tmp_path):
    a = result_file(tmp_path / "a.json")
    done = same(a, result_file(tmp_path / "b.json"))
    assert done.returncode == 0 and "identical samples" in done.stdout
    done = same(a, result_file(tmp_path / "c.json", samples=(10, 12)))
    assert done.returncode == 1 and "rtoslab@vp-m0: sem.signal_wake: samples differ" in done.stdout


def test_a_check_that_changed_verdict_or_figure_is_a_difference(tmp_path):
    a = result_file(tmp_path / "a.json")
    for i, check in enumerate([(False, "cycles: 100"), (True, "cycles: 101")]):
        done = same(a, result_file(tmp_path / f"n{i}.json", check=check))
        assert done.returncode == 1 and "checks differ" in done.stdout, check


def test_rtos_filter_both_spellings(tmp_path):
    a = result_file(tmp_path / "a.json")
    b = result_file(tmp_path / "b.json", samples=(1, 2))
    for flags in (["--rtos", "chibios"], ["--rtos=chibios"]):
        done = same(a, b, *flags)
        assert done.returncode == 0 and "identical samples" in done.stdout, flags
    assert same(a, b, "--rtos", "rtoslab").returncode == 1


def test_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    done = same(str(bad), result_file(tmp_path / "a.json"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a result file" in done.stderr
    done = same(str(bad))
    assert done.returncode == 2 and "Traceback" not in done.stderr
