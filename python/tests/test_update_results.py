"""scripts/update_results.py: the generated blocks of the documents, rewritten from result files
(the command each block's comment names), checked (--check), and bad input in one line."""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "update_results.py"
TABLE_OPTIONS = {"--configs", "--energy", "--goals", "--readme", "--hartstone", "--seeds", "--profiles", "--moves",
                 "--cores", "--ranking", "--live-profiles", "--live-summary", "--not-met", "--leader-changes",
                 "--api-cost"}


def result_file(path: Path, p50: int) -> Path:
    """A result file of two runs with one metric each (the shape `rtoslab run --json` writes)."""
    def run(rtos, v):
        return {"rtos": rtos, "board": "vp-m0", "profile": "size", "absent": [],
                "results": [{"id": "rhealstone.task_switch", "unit": "cycles", "p50": v, "max": v + 4}]}
    path.write_text(json.dumps({"runs": [run("rtoslab", p50), run("freertos", 188)]}))
    return path


def update(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_a_block_is_rewritten_from_its_file_and_the_rest_left_alone(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    result_file(runs / "vp-m0.json", 66)
    doc = tmp_path / "doc.md"
    doc.write_text("# Results\n\nbefore\n\n<!-- results_table: vp-m0.json -->\n| old |\n"
                   "<!-- /results_table -->\n\nafter\n")
    done = update(runs, "--docs", doc)
    assert done.returncode == 0, done.stderr
    text = doc.read_text()
    assert "| old |" not in text
    assert "| `rhealstone.task_switch` | 66 / 70 | 188 / 192 |" in text
    assert text.startswith("# Results\n\nbefore\n\n<!-- results_table: vp-m0.json -->\n| metric (p50 / max) |")
    assert text.endswith("<!-- /results_table -->\n\nafter\n")
    # up to date now; a new measurement makes --check fail without writing
    assert update(runs, "--docs", doc, "--check").returncode == 0
    result_file(runs / "vp-m0.json", 61)
    check = update(runs, "--docs", doc, "--check")
    assert check.returncode == 1
    assert "differs: " in check.stdout and "results_table.py vp-m0.json" in check.stdout
    assert "66 / 70" in doc.read_text()


def test_bad_input_is_one_line_and_status_2(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- results_table: vp-m0.json -->\n| old |\n")
    for args, says in (((tmp_path / "nowhere",), "not a folder"),
                       ((tmp_path, "--docs", doc), "without its <!-- /results_table --> line")):
        done = update(*args)
        assert done.returncode == 2
        assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    doc.write_text("<!-- results_table: vp-m9.json --goals -->\n<!-- /results_table -->\n")
    done = update(tmp_path, "--docs", doc)
    assert done.returncode == 2 and "missing vp-m9.json" in done.stderr
    (tmp_path / "vp-m9.json").write_text(json.dumps({"runs": [], "interrupted": True}))
    done = update(tmp_path, "--docs", doc)
    assert done.returncode == 2 and "an interrupted run" in done.stderr
    (tmp_path / "vp-m9.json").write_text("{not json")
    done = update(tmp_path, "--docs", doc)
    assert done.returncode == 2 and "not a result file" in done.stderr
    assert "Traceback" not in done.stderr


def test_every_block_of_the_documents_names_result_files_and_a_known_table():
    """README.md and docs/results.md: each generated block closed, its arguments result files
    (BOARD.json, BOARD-speed.json: what --run makes) and options of results_table.py."""
    begin = re.compile(r"^<!-- results_table: (.+?) -->$")
    count = 0
    for doc in (ROOT / "README.md", ROOT / "docs" / "results.md"):
        lines = doc.read_text().split("\n")
        for i, line in enumerate(lines):
            m = begin.match(line)
            if not m:
                continue
            count += 1
            assert "<!-- /results_table -->" in lines[i + 1:], f"{doc.name}:{i + 1}: not closed"
            args = m.group(1).split()
            assert args[0].endswith(".json"), f"{doc.name}:{i + 1}: {args}"
            for a in args:
                assert a.endswith(".json") or a in TABLE_OPTIONS, f"{doc.name}:{i + 1}: {a}"
                if a.endswith(".json"):
                    assert re.match(r"^[a-z0-9-]+?(-speed)?\.json$", a), f"{doc.name}:{i + 1}: {a}"
    assert count >= 20


def test_not_met_lists_each_row_another_rtos_wins_per_file(tmp_path):
    """results_table.py --not-met: per file, the goal rows another ranked RTOS wins (lower
    cycles, or more tm.* operations), the leader and the gap, and the count per file."""
    def runs_file(name, profile, switch, sync):
        def run(rtos, cyc, ops):
            return {"rtos": rtos, "board": "vp-m0", "profile": profile, "absent": [],
                    "results": [{"id": "rhealstone.task_switch", "unit": "cycles", "p50": cyc, "max": cyc},
                                {"id": "tm.synchronization", "unit": "ops", "p50": ops, "max": ops}]}
        path = tmp_path / name
        path.write_text(json.dumps({"runs": [run("rtoslab", switch, sync), run("chibios", 70, 1000)]}))
        return path
    a, b = runs_file("a.json", "size", 66, 900), runs_file("b.json", "speed", 75, 1100)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "results_table.py"), a, "--not-met", b],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| `vp-m0`")]
    assert rows == ["| `vp-m0` size | `tm.synchronization` | 900 | ChibiOS/RT 1000 | 1.11× fewer ops |",
                    "| `vp-m0` speed | `rhealstone.task_switch` | 75 | ChibiOS/RT 70 | +5 cycles |"]
    assert "Rows not met: `vp-m0` size 1; `vp-m0` speed 1." in done.stdout
