"""The cross-checks of each RTOS's own benchmark against the suite (rtoslab.crosscheck, issue 22),
on real captured output: fixtures/crosscheck/*.out are the own tests' console output on vp-m0,
suite-vp-m0.json the p50s of the suite's run of the same tree (2026-11-29)."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtoslab import crosscheck as xc
from rtoslab.errors import BadInput

HERE = Path(__file__).resolve().parent
FIX = HERE / "fixtures" / "crosscheck"
SUITE = FIX / "suite-vp-m0.json"


def entry(rtos, name):
    return next(e for e in xc.load_entries([rtos]) if e.name == name)


def out(test):
    return (FIX / f"{test}.out").read_text()


def test_chibios_score_is_read_after_its_test_case_and_turned_into_cycles():
    e = entry("chibios", "12.10 Semaphores wait/signal performance")
    score = xc.parse_score(e, out(e.test))
    assert score == 690648  # not 12.11's or 12.4's score, printed in the same output
    assert xc.convert(e, score, 48_000_000) == pytest.approx(48e6 / 690648)  # 69.5 cycles a wait + signal
    row = xc.judge(e, score, 48_000_000, {"sem.wait_available": 44, "sem.signal_no_waiter": 28})
    assert row.suite == 72 and row.deviation == pytest.approx(69.5 / 72 - 1, abs=1e-3) and row.verdict == "ok"


def test_thread_metric_count_becomes_the_suites_per_1e7_cycles():
    e = entry("threadx", "Thread-Metric Message Processing")
    score = xc.parse_score(e, out(e.test))
    assert score == 166295
    assert xc.convert(e, score, 48_000_000) == pytest.approx(166295 * 1e7 / 48e6)  # 34 645
    # the suite's figure since the inline queue hook (issue 22): within 10 %
    row = xc.judge(e, score, 48_000_000, {"tm.message": 38130})
    assert row.deviation == pytest.approx(-0.091, abs=1e-3)
    assert row.verdict == "ok"
    # before it (the port's glue: 28 487), +21.6 %: with no cause written any more, a failure
    row = xc.judge(e, score, 48_000_000, {"tm.message": 28487})
    assert row.deviation == pytest.approx(0.216, abs=1e-3)
    assert row.verdict == "FAIL"


def test_riot_round_of_two_switches_is_halved():
    e = entry("riot", "thread_yield_pingpong")
    score = xc.parse_score(e, out(e.test))
    assert score == 102346 and e.ops == 2
    assert xc.convert(e, score, 48_000_000) == pytest.approx(234.5, abs=0.05)  # the suite: 234


def test_riot_core_api_rate_is_found_on_its_own_line():
    e = entry("riot", "runtime_coreapis: mutex lock/unlock")
    assert xc.parse_score(e, out(e.test)) == 479998  # not the nop loop's calls per second above it


def test_the_whole_table_from_the_captured_outputs_passes(capsys):
    status = xc.main(["--board", "vp-m0", "--outputs", str(FIX), "--results", str(SUITE)])
    text = capsys.readouterr().out
    assert status == 0, text
    assert "13 of 13 cross-checks agree" in text
    assert "FAIL" not in text


def test_over_ten_percent_without_a_cause_fails(tmp_path, capsys):
    doc = json.loads(SUITE.read_text())
    for run in doc["runs"]:
        for r in run["results"]:
            if run["rtos"] == "chibios" and r["id"] == "sem.wait_available":
                r["p50"] = 60  # 69.5 cycles against 88: -21 %, and 12.10 has no cause
    bad = tmp_path / "suite.json"
    bad.write_text(json.dumps(doc))
    status = xc.main(["--board", "vp-m0", "--outputs", str(FIX), "--results", str(bad)])
    text = capsys.readouterr().out
    assert status == 1
    assert "FAIL: over 10 %, no cause" in text and "12 of 13" in text


def test_a_cause_lets_a_deviation_over_ten_percent_pass():
    e = entry("chibios", "12.10 Semaphores wait/signal performance")
    from dataclasses import replace
    row = xc.judge(replace(e, cause="a written cause"), 690648, 48_000_000,
                   {"sem.wait_available": 60, "sem.signal_no_waiter": 28})
    assert row.verdict == "cause"
    assert xc.judge(e, 690648, 48_000_000, {"sem.wait_available": 60, "sem.signal_no_waiter": 28}).verdict == "FAIL"


def test_a_missing_score_is_bad_input():
    e = entry("threadx", "Thread-Metric Message Processing")
    with pytest.raises(BadInput, match="no score"):
        xc.parse_score(e, "**** Thread-Metric Message Processing Test ****\nERROR: queue\n")


@pytest.mark.parametrize("field, value, message", [
    ("test", "owntest-not-listed", "not one of the port's own_tests"),
    ("score", "no group", "exactly one group"),
    ("score", "(", "not a regular expression"),
    ("metrics", ["no.such.metric"], "not a metric id"),
    ("metrics", ["tm.message", "sem.wait_available"], "cycles summed"),
    ("unit", "furlongs", "not one of"),
    ("ops", 0, "positive"),
    ("colour", "red", "unknown field"),
])
def test_a_malformed_entry_is_one_clear_error(field, value, message):
    good = {"test": "owntest-x", "name": "x", "score": r"(\d+)", "metrics": ["sem.wait_available"]}
    with pytest.raises(BadInput, match=message):
        xc.entries_of("chibios", {"own_tests": ["owntest-x"], "crosscheck": [{**good, field: value}]})


def test_bad_input_on_the_command_line_is_one_line_and_status_2(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "rtoslab.crosscheck", *args], capture_output=True, text=True)
    for args in (["--outputs", str(tmp_path / "nowhere")], ["--results", str(tmp_path / "none.json")],
                 ["--rtos", "nosuchrtos"], ["--board", "nosuchboard"], ["--frobnicate"], ["--results"]):
        r = run(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) <= 2 and "Traceback" not in r.stderr, (args, r.stderr)
    # a result file without the RTOS's run on the board
    empty = tmp_path / "empty.json"
    empty.write_text('{"schema": 1, "runs": []}')
    r = run("--board", "vp-m0", "--outputs", str(FIX), "--results", str(empty))
    assert r.returncode == 2 and "no run of" in r.stderr and "Traceback" not in r.stderr


def test_outputs_without_any_crosschecked_test_are_skipped_not_failed(tmp_path):
    shutil.copy(FIX / "owntest-riot-sched_nop.out", tmp_path / "owntest-coos.out")
    r = subprocess.run([sys.executable, "-m", "rtoslab.crosscheck", "--board", "vp-m0", "--outputs", str(tmp_path),
                        "--results", str(SUITE)], capture_output=True, text=True)
    assert r.returncode == 0 and "nothing to cross-check" in r.stderr


def test_the_suite_stages_transcripts_give_the_p50s_and_only_when_fresh(tmp_path):
    import os

    from helpers import transcript
    bdir = tmp_path / "build" / "fw" / "vp-m0"
    (bdir / "transcripts").mkdir(parents=True)
    elf, t = bdir / "bench-riot.elf", bdir / "transcripts" / "bench-riot.txt"
    elf.write_bytes(b"")
    t.write_text(transcript(rtos="riot", metrics={"rhealstone.task_switch": [300] * 8 + [234] * 40}, cold=8))
    os.utime(elf, (1000, 1000))
    os.utime(t, (2000, 2000))
    assert xc.fresh_transcripts(["riot", "chibios"], "vp-m0", tmp_path) == {"riot": t}
    run = xc.transcript_run(t)
    assert run["clock_hz"] == 48_000_000
    assert {r["id"]: r["p50"] for r in run["results"]}["rhealstone.task_switch"] == 234  # cold samples out
    os.utime(elf, (3000, 3000))  # the image was rebuilt after the transcript: stale
    assert xc.fresh_transcripts(["riot"], "vp-m0", tmp_path) == {}


@pytest.mark.parametrize("p50, clock", [(None, 48_000_000), ("72", 48_000_000), (0, 48_000_000), (72, 0)])
def test_a_result_file_with_nonsense_figures_is_bad_input(p50, clock):
    e = entry("chibios", "12.11 Mutexes lock/unlock performance")
    with pytest.raises(BadInput):
        xc.judge(e, 513372, clock, {"mutex.lock_uncontended": p50, "mutex.unlock": 0 if p50 == 0 else 41})
