import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import all_checks, assert_one_line_error, default_metrics, probe_events, spec, transcript

from rtoslab import results
from rtoslab.errors import RtoslabError


def images(tmp_path, **specs):
    out = []
    for rtos, kw in specs.items():
        p = spec(tmp_path / f"bench-{rtos}.elf", **kw)
        out += ["--elf", f"{rtos}={p}"]
    return out


def test_run_two_rtoses_side_by_side(cli, fake_vp, tmp_path):
    m = default_metrics("rtoslab")
    args = images(tmp_path,
                  rtoslab={"stdout": transcript("rtoslab", m, probe=True, checks=all_checks()),
                           "events": probe_events(m)},
                  freertos={"stdout": transcript("freertos", absent={
                      "thread.create_low": "FreeRTOS has no separate create and start"})})
    out = tmp_path / "r.json"
    r = cli("run", *args, "--json", out, "--csv", tmp_path / "r.csv", "-q")
    assert r.status == 0, r
    # one compact table, the RTOSes side by side: unit, better direction, p50 and ratio
    header = r.out.split("rhealstone.task_switch")[0]
    for col in ("rtoslab", "freertos", "unit", "better"):
        assert col in header
    row = next(line for line in r.out.splitlines() if "rhealstone.task_switch" in line)
    assert "cycles" in row and "↓ lower" in row and "×1.00" in row
    assert "×1.00 is the best" in r.out
    # by default only the hot paths and Thread-Metric, the count of the others said once
    assert "thread.create_low" not in r.out and "more metrics with --wide" in r.out
    # --tests: the metrics the user chose, absent ones included
    r = cli("run", *args, "--json", out, "-q", "--tests", "thread")
    assert r.status == 0, r
    row = next(line for line in r.out.splitlines() if "thread.create_low" in line)
    assert "absent" in row and "more metrics" not in r.out
    # --wide: every statistic and the time at the board clock
    r = cli("run", *args, "--json", out, "-q", "--wide")
    assert r.status == 0, r
    header = r.out.split("rhealstone.task_switch")[0]
    for col in ("min", "p50", "mean", "p99", "max", "stdev", "p50 time"):
        assert col in header
    assert "µs" in r.out or "ns" in r.out
    doc = results.load(out)
    assert [x["rtos"] for x in doc["runs"]] == ["rtoslab", "freertos"]
    run = doc["runs"][0]
    ts = next(x for x in run["results"] if x["id"] == "rhealstone.task_switch")
    assert ts["samples"] == m["rhealstone.task_switch"] and ts["cold"] == 2 and ts["n"] == 62
    assert ts["probe"]["n"] == 62 and ts["probe"]["overhead_p50"] == 4
    assert run["clock_hz"] == 48_000_000 and run["rtos_version"] == "0.1.0"
    assert run["config"]["tick_hz"] == "1000"
    assert run["manifest"]["board_profile"]["id"] == "vp-m0"
    assert "arm-none-eabi-gcc" in run["toolchain"]
    assert doc["tool"]["git"]
    assert len(run["checks"]) == 9
    assert doc["runs"][1]["absent"][0]["id"] == "thread.create_low"
    csv = (tmp_path / "r.csv").read_text()
    assert "freertos,vp-m0,48000000,thread.create_low" in csv and ",absent," in csv


def test_run_passes_board_and_fault_stop_to_the_simulator(cli, fake_vp, tmp_path):
    log = tmp_path / "args.log"
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", board="vp-stm32f0"), "args_log": log})
    r = cli("run", "--rtos", "rtoslab", "--board", "vp-stm32f0", *args, "--json", tmp_path / "o.json",
            "--max-cycles", "1000000", "-q")
    assert r.status == 0, r
    argv = json.loads(log.read_text().splitlines()[0])
    # the board as the registry describes it: its core and flash system
    assert argv[argv.index("--core") + 1] == "cortex-m0" and argv[argv.index("--flash-wait-states") + 1] == "1"
    assert "--fault-stop" in argv and argv[argv.index("--max-cycles") + 1] == "1000000"


def test_tests_filter(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab")})
    out = tmp_path / "f.json"
    r = cli("run", "--rtos", "rtoslab", *args, "--tests", "rhealstone.*", "--json", out, "-q")
    assert r.status == 0, r
    ids = {x["id"] for x in results.load(out)["runs"][0]["results"]}
    assert ids and all(i.startswith("rhealstone.") for i in ids)


@pytest.mark.parametrize("argv,needle", [
    (["--rtos", "zephyr"], "unknown RTOS id 'zephyr'"),
    (["--board", "pdp11"], "unknown board id 'pdp11'"),
    (["--rtos", "posix", "--board", "vp-m0"], "posix"),   # without --board: posix on host
    (["--rtos", "rtoslab", "--board", "host"], "host"),
    (["--samples", "0"], "--samples"),
    (["--elf", "rtoslab=/no/such.elf"], "no such file"),
    (["--elf", "nonsense"], "RTOS=PATH"),
    (["--bogus"], "No such option"),
])
def test_bad_input_is_one_line_and_status_2(cli, argv, needle, tmp_path):
    r = cli("run", *argv, "--json", tmp_path / "x.json")
    assert_one_line_error(r, 2)
    assert needle in r.err
    assert not (tmp_path / "x.json").exists()


def test_firmware_fault_keeps_the_metrics_measured_before_it(cli, fake_vp, tmp_path):
    args = images(tmp_path,
                  rtoslab={"stdout": transcript("rtoslab")},
                  freertos={"stdout": transcript("freertos", cut_after="rhealstone.interrupt_latency", done=False),
                            "status": 125, "stderr": "HardFault at pc=0x00000412 (vPortSVCHandler): bus error"})
    out = tmp_path / "fault.json"
    r = cli("run", *args, "--json", out, "-q")
    assert_one_line_error(r, 3)
    assert "freertos" in r.err and "fault" in r.err and str(out) in r.err
    doc = results.load(out)
    rt, fr = doc["runs"]
    assert rt["status"] == "complete" and len(rt["results"]) == 8
    assert fr["status"] == "failed" and "HardFault" in fr["error"]
    assert {x["id"] for x in fr["results"]} == {"rhealstone.task_switch", "rhealstone.preemption"}
    assert [x["id"] for x in fr["incomplete"]] == ["rhealstone.interrupt_latency"]
    assert "incomplete" in r.out           # the table still shows what was measured


def test_cycle_limit_and_missing_done(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", done=False), "status": 124,
                                     "stderr": "cycle limit reached at pc=0x100"})
    r = cli("run", "--rtos", "rtoslab", *args, "--json", tmp_path / "c.json", "-q")
    assert_one_line_error(r, 3)
    assert "cycle limit" in r.err


def test_simulator_missing_is_one_line(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("RTOSLAB_VP", str(tmp_path / "nope"))
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab")})
    r = cli("run", "--rtos", "rtoslab", *args, "--json", tmp_path / "c.json", "-q")
    assert_one_line_error(r)
    assert "RTOSLAB_VP" in r.err


def test_garbage_console_output(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": "\x00\x01 garbage\n@metric\n@s zz\n@@@\n", "status": 0})
    r = cli("run", "--rtos", "rtoslab", *args, "--json", tmp_path / "g.json", "-q")
    assert_one_line_error(r, 3)
    assert "before @done" in r.err
    assert results.load(tmp_path / "g.json")["runs"][0]["status"] == "failed"


def test_interrupted_run_keeps_finished_results(fake_vp, tmp_path):
    """SIGINT in the middle of the second RTOS: exit 130, one line, the first RTOS's results kept."""
    a = spec(tmp_path / "a.elf", transcript("rtoslab"))
    b_lines = transcript("freertos").splitlines()
    held = tmp_path / "held"           # the second run stops after its second metric's @end
    second_end = [i for i, ln in enumerate(b_lines, 1) if ln.startswith("@end")][1]
    b = spec(tmp_path / "b.elf", "\n".join(b_lines), hold={"after": second_end, "file": str(held)})
    out = tmp_path / "int.json"
    env = dict(os.environ, RTOSLAB_VP=str(fake_vp))
    p = subprocess.Popen([sys.executable, "-m", "rtoslab", "run", "--elf", f"rtoslab={a}", "--elf",
                          f"freertos={b}", "--json", str(out), "-q"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env,
                         # Ctrl-C as at a terminal, also when the tests run as a background job
                         # (which starts with SIGINT ignored)
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out.exists() and held.exists()):
        time.sleep(0.05)
    assert out.exists(), "the first run's results were not written"
    assert held.exists(), "the second run did not reach its second metric"
    p.send_signal(signal.SIGINT)
    so, se = p.communicate(timeout=30)
    assert p.returncode == 130, (so, se)
    lines = [ln for ln in se.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("rtoslab: interrupted"), se
    doc = results.load(out)
    assert doc.get("interrupted") is True
    assert doc["runs"][0]["status"] == "complete" and len(doc["runs"][0]["results"]) == 8
    assert doc["runs"][1]["status"] == "interrupted"
    assert len(doc["runs"][1]["results"]) == 2       # the metrics that reached @end are kept
    # the history has the complete RTOS too (the test's history database, conftest)
    import sqlite3
    db = sqlite3.connect(os.environ["RTOSLAB_HISTORY"])
    rows = db.execute("SELECT rtos, status FROM runs ORDER BY id").fetchall()
    assert ("rtoslab", "complete") in rows, rows
    n = db.execute("SELECT COUNT(*) FROM metrics m JOIN runs r ON m.run_id = r.id"
                   " WHERE r.rtos = 'rtoslab'").fetchone()[0]
    assert n == 8


def test_atomic_write_leaves_old_file_on_failure(tmp_path, monkeypatch):
    p = tmp_path / "x.json"
    results.atomic_write(p, "old")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(RtoslabError, match="cannot write"):
        results.atomic_write(p, "new")
    assert p.read_text() == "old"
    assert [f.name for f in tmp_path.iterdir()] == ["x.json"]


def test_history_is_recorded_by_run(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab")})
    db = tmp_path / "h.sqlite"
    r = cli("run", "--rtos", "rtoslab", *args, "--json", tmp_path / "h.json", "-q", "--history-db", db)
    assert r.status == 0, r
    r = cli("history", "rhealstone.task_switch", "--db", db)
    assert r.status == 0, r
    assert "rtoslab" in r.out and "vp-m0" in r.out


def test_progress_on_a_terminal(fake_vp, tmp_path):
    """On a terminal, run shows a live progress line while the firmware runs."""
    import pty
    a = spec(tmp_path / "a.elf", transcript("rtoslab"), delay=0.02)
    master, slave = pty.openpty()
    env = dict(os.environ, RTOSLAB_VP=str(fake_vp), COLUMNS="120", TERM="xterm")
    p = subprocess.Popen([sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={a}",
                          "--json", str(tmp_path / "p.json"), "--no-history"],
                         stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert p.returncode == 0, text
    assert "rtoslab@vp-m0: rhealstone" in text        # the live line names the metric being measured
    assert "metrics" in text
    assert "rhealstone.task_switch" in text.split("rtoslab run on vp-m0")[-1]


def test_tests_pattern_matching_no_metric_is_refused_before_running(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", default_metrics("rtoslab"))})
    r = cli("run", *args, "--tests", "rhealstone.nothing*", "--json", tmp_path / "o.json", "-q")
    assert_one_line_error(r, 2)
    assert "matches no metric" in r.err and not (tmp_path / "o.json").exists()


def test_an_output_path_that_cannot_be_written_is_refused_before_running(cli, fake_vp, tmp_path):
    (tmp_path / "afile").write_text("x")
    log = tmp_path / "args.log"
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", default_metrics("rtoslab")),
                                     "args_log": log})
    r = cli("run", *args, "--json", tmp_path / "afile" / "r.json", "-q")
    assert_one_line_error(r, 2)
    assert "cannot create the folder" in r.err and not log.exists()     # nothing ran


def test_a_write_failure_mid_run_keeps_the_results_in_a_fallback_file(cli, fake_vp, tmp_path, monkeypatch):
    from rtoslab import results as res_mod
    m = default_metrics("rtoslab")
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", m, checks=all_checks())})
    target = tmp_path / "out" / "r.json"
    real_write = res_mod.write

    def failing_write(doc, path):          # the disk fills up after the check, before the write
        if Path(path) == target:
            raise res_mod.RtoslabError(f"cannot write {path}: No space left on device")
        return real_write(doc, path)
    monkeypatch.setattr(res_mod, "write", failing_write)
    r = cli("run", *args, "--json", target, "-q", "--no-history")
    assert r.status == 2, r                                 # environment, not regression (1)
    assert "rhealstone.task_switch" in r.out                # the table is printed all the same
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "No space left" in lines[0] and "the results are in" in lines[0]
    fallback = Path(lines[0].split("the results are in ")[1].strip())
    doc = results.load(fallback)
    assert doc["runs"][0]["rtos"] == "rtoslab" and doc["runs"][0]["results"]
    fallback.unlink()


def test_elf_that_is_not_an_arm_image_is_refused(cli, tmp_path):
    import sys as _sys
    host_elf = Path(_sys.executable).resolve()
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={host_elf}", "--json", tmp_path / "o.json", "-q")
    assert_one_line_error(r, 2)
    assert "not an Arm" in r.err
    (tmp_path / "t.elf").write_text("text")
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={tmp_path / 't.elf'}", "-q")
    assert_one_line_error(r, 2)
    assert "not an ELF" in r.err
