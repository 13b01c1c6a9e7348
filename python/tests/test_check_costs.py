"""scripts/check_costs.py: what each check costs per hot path (rtoslab against its variants with
one check off), and --not-met: the goal rows another RTOS wins, with what the checks explain."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_costs.py"


def result_file(path: Path, figures: dict) -> str:
    """A result file of `rtoslab run --json`'s shape: one run per RTOS, rhealstone.task_switch."""
    runs = [{"rtos": rtos, "board": "vp-m3", "profile": "speed", "absent": [],
             "results": [{"id": "rhealstone.task_switch", "unit": "cycles", "p50": v}]}
            for rtos, v in figures.items()]
    path.write_text(json.dumps({"runs": runs}))
    return str(path)


def costs(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_each_check_off_is_a_column_with_its_cost(tmp_path):
    f = result_file(tmp_path / "a.json", {"rtoslab": 50, "rtoslab-nochecks": 46, "rtoslab-nostackcheck": 49})
    done = costs(f)
    assert done.returncode == 0, done.stderr
    assert "| `rhealstone.task_switch` | 50 | 46 (-4) | 49 (-1) |" in done.stdout


def test_not_met_rows_show_the_leader_and_whether_a_check_explains_the_gap(tmp_path):
    lost = result_file(tmp_path / "lost.json", {"rtoslab": 50, "chibios": 47, "rtoslab-nochecks": 46,
                                                "rtoslab-nostackcheck": 49})
    met = result_file(tmp_path / "met.json", {"rtoslab": 40, "chibios": 47, "rtoslab-nochecks": 39})
    done = costs("--not-met", lost, met)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| `vp-m3`")]
    assert rows == ["| `vp-m3` speed | `rhealstone.task_switch` | 50 | ChibiOS/RT 47 | +3 cycles | "
                    "46, met | 49, +2 cycles |"]
    assert "1 rows not met; with one check off, 1 of them would be." in done.stdout


def test_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[")
    for args in (["--not-met"], [str(bad)], ["--not-met", str(bad)]):
        done = costs(*args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, args
