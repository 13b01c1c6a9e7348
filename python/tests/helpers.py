"""Synthetic protocol transcripts and simulator specs for the tests."""
import json
import random

from rtoslab.contract import CHECK_IDS as CHECKS
from rtoslab.contract import MARK_METRIC


def samples_for(base, n=64, cold=2, spread=6, seed=1):
    rnd = random.Random(seed * 7919 + base)
    out = [base + 40 + rnd.randrange(10) for _ in range(cold)]
    out += [base + rnd.randrange(spread) for _ in range(n - cold)]
    return out


def transcript(rtos="rtoslab", metrics=None, absent=None, checks=None, done=True, cut_after=None,
               board="vp-m0", clock=48_000_000, version="0.1.0", config=None, cold=2, probe=False):
    """metrics: {id: samples}; cut_after: stop in the middle of that metric's samples."""
    if metrics is None:
        metrics = default_metrics(rtos)
    lines = ["boot: log line before the protocol", "@rtoslab 1",
             f"@run rtos={rtos} version={version} board={board} clock={clock}"]
    for k, v in (config or {"tick_hz": "1000", "max_threads": "8"}).items():
        lines.append(f"@config {k}={v}")
    for mid, s in metrics.items():
        if probe:
            lines.append(f"@probe {mid}")
        lines.append(f"@metric {mid} unit=cycles n={len(s)} cold={cold}")
        chunks = [s[i:i + 32] for i in range(0, len(s), 32)]
        for ci, ch in enumerate(chunks):
            if cut_after == mid and ci == 1:
                return "\n".join(lines) + "\n"
            lines.append("@s " + " ".join(f"{x:x}" for x in ch))
        lines.append(f"@end {mid}")
    for mid, reason in (absent or {}).items():
        lines.append(f"@absent {mid} {reason}")
    for cid, (ok, detail) in (checks or {}).items():
        lines.append(f"@check {cid} {'pass' if ok else 'fail'} {detail}")
    if done:
        lines.append("@done")
    return "\n".join(lines) + "\n"


def default_metrics(rtos, n=64):
    base = {"rtoslab": 0, "freertos": 30, "baremetal": -20, "posix": 1000}.get(rtos, 0)
    return {
        "rhealstone.task_switch": samples_for(60 + base, n),
        "rhealstone.preemption": samples_for(80 + base, n),
        "rhealstone.interrupt_latency": samples_for(40 + base, n),
        "rhealstone.semaphore_shuffle": samples_for(150 + base, n),
        "rhealstone.deadlock_break": samples_for(200 + base, n),
        "rhealstone.message_passing": samples_for(120 + base, n),
        "sem.signal_wake": samples_for(90 + base, n),
        "mutex.lock_uncontended": samples_for(30 + base, n),
    }


def probe_events(metrics, overhead=4):
    """Trace events: a PROBE_MARK per metric index and a pulse per sample (width = sample - overhead)."""
    ev = [{"e": "start", "board": "vp-m0", "clock_hz": 48000000, "ram": 16384}]
    c = 1000
    for idx, s in enumerate(metrics.values()):
        ev.append({"e": "mark", "c": c, "value": MARK_METRIC | idx})
        for x in s:
            c += 50
            ev.append({"e": "probe", "c": c, "pins": 1, "changed": 1})
            c += x - overhead
            ev.append({"e": "probe", "c": c, "pins": 0, "changed": 1})
    ev.append({"e": "end", "c": c + 10, "status": 0, "instructions": c // 2})
    return ev


def spec(path, stdout, status=0, stderr="", events=None, delay=0, args_log=None, masked=None, hold=None):
    d = {"stdout": stdout, "status": status, "stderr": stderr, "events": events or [], "delay": delay}
    if hold is not None:
        d["hold"] = hold
    if masked is not None:
        d["masked"] = masked
    if args_log:
        d["args_log"] = str(args_log)
    path.write_bytes(ARM_ELF_HEADER + FAKE_SPEC_MARK + json.dumps(d).encode())
    return path


# The 20 bytes of an ELF32 little-endian header up to e_machine = 40 (EM_ARM), so that the
# command takes a spec for an Arm image; fake_vp.py reads the JSON after the mark.
ARM_ELF_HEADER = b"\x7fELF\x01\x01\x01" + b"\x00" * 9 + (2).to_bytes(2, "little") + (40).to_bytes(2, "little")
FAKE_SPEC_MARK = b"\nFAKE-VP-SPEC\n"


def all_checks(fail=()):
    return {c: (c not in fail, "ok" if c not in fail else "wrong order: 2 before 1") for c in CHECKS}


def assert_one_line_error(r, status=None):
    assert r.status != 0, r
    if status is not None:
        assert r.status == status, r
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1, r.err
    assert lines[0].startswith("rtoslab: "), r.err
    assert "Traceback" not in r.err


def result_doc_run(rtos="rtoslab", metrics=None, board="vp-m0", clock=48_000_000):
    """One valid run entry of a result file, its statistics computed from its samples."""
    from rtoslab.protocol import Parser
    from rtoslab.results import result_entry
    p = Parser()
    for line in transcript(rtos, metrics or default_metrics(rtos), board=board, clock=clock).splitlines():
        p.feed(line)
    return {"rtos": rtos, "board": board, "clock_hz": clock, "rtos_version": "1", "status": "complete",
            "results": [result_entry(m, clock) for m in p.t.metrics.values()],
            "checks": [{"id": "check.timeout", "passed": True, "detail": "ok"}], "absent": [], "incomplete": [],
            "size": {"flash.kernel": 1000, "ram.kernel": 100}, "config": {}}
