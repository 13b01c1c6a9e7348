#!/usr/bin/env python3
"""What an idle second costs on the 1 kHz tick, tick-less and with the deep idle, against the
board's energy model (kernel/tests/run.sh; docs/methodology.md, "Energy").

    idle_energy.py VP BOARD_DIR TICK1K.elf LIGHT.elf DEEP.elf

Runs the three builds of idle_second.c with `rtoslab-vp --energy` and the sleep/wake trace,
and checks, with figures computed here from the board.toml's [energy] currents and the
cycles read from the trace (not the simulator's meter, nor python/rtoslab/energy.py):
  1. the 1 kHz tick wakes the core about 1000 times in the second, and its average current
     exceeds the tick-less one's (both only sleep) by the cost of those wake-ups: their
     measured awake cycles at run current less sleep current;
  2. the deep idle's average is the tick-less one's less what Stop saves over Sleep, plus
     its wake-up at run current;
  3. the simulator's --energy average of each run is the model over the trace's states.
Exit status 0 if every check holds (within 2 %, 1 % and 0.01 %), 1 otherwise.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path


def run(vp: str, board: str, elf: str, tmp: Path, name: str) -> tuple[dict, list[dict]]:
    energy, trace = tmp / f"{name}.energy.json", tmp / f"{name}.trace.jsonl"
    p = subprocess.run([vp, "run", elf, "--board", board, "--energy", str(energy), "--trace", str(trace),
                        "--trace-events", "sleep,wake"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{name}: {elf} ended with status {p.returncode}: {p.stdout[-300:]}{p.stderr[-300:]}")
    events = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    return json.loads(energy.read_text()), events


def states(events: list[dict], total: int) -> dict:
    """Cycles asleep (light), in deep sleep, waking, and the number of wake-ups, from the trace."""
    out = {"sleep": 0, "deep": 0, "wakeup": 0, "wakes": 0}
    start, deep = None, False
    for e in events:
        if e["e"] == "sleep":
            start, deep = e["c"], bool(e.get("deep"))
        elif e["e"] == "wake" and start is not None:
            w = int(e.get("wakeup", 0))
            out["deep" if deep else "sleep"] += e["c"] - w - start
            out["wakeup"] += w
            out["wakes"] += 1
            start = None
    out["run"] = total - out["sleep"] - out["deep"] - out["wakeup"]
    return out


def median_awake(events: list[dict]) -> int:
    """The median of the cycles from a wake-up to the next sleep: one tick's cost."""
    spans, woke = [], None
    for e in events:
        if e["e"] == "wake":
            woke = e["c"]
        elif e["e"] == "sleep" and woke is not None:
            spans.append(e["c"] - woke)
            woke = None
    spans.sort()
    return spans[len(spans) // 2] if spans else 0


def main(argv: list[str]) -> int:
    if len(argv) != 6:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    vp, board_dir, elfs = argv[1], Path(argv[2]), argv[3:]
    with open(board_dir / "board.toml", "rb") as f:
        b = tomllib.load(f)
    e, hz = b["energy"], b["clock_hz"]
    i_run, i_sleep, i_deep = float(e["run_flash_uA"]), float(e["sleep_uA"]), float(e["deep_uA"])
    board = board_dir.name
    ok = True

    def check(what: str, got: float, want: float, tol: float) -> None:
        nonlocal ok
        good = abs(got - want) <= tol * abs(want)
        ok &= good
        print(f"{'PASS' if good else 'FAIL'}  {what}: {got:.4f} (model {want:.4f}, within {tol:.2%})")

    with tempfile.TemporaryDirectory() as d:
        res = {n: run(vp, board, elf, Path(d), n) for n, elf in zip(("tick1k", "light", "deep"), elfs)}
    avg, st, secs = {}, {}, {}
    for n, (rep, ev) in res.items():
        st[n] = states(ev, rep["cycles"])
        secs[n] = rep["cycles"] / hz
        model = (st[n]["run"] * i_run + st[n]["sleep"] * i_sleep + st[n]["deep"] * i_deep
                 + st[n]["wakeup"] * i_run) / rep["cycles"]
        avg[n] = rep["average_uA"]
        check(f"{n}: the simulator's average current, uA", avg[n], model, 1e-4)
    # 1. the tick's wake-ups: 1000 a second, each its measured awake cycles at run current
    wakes_per_s = st["tick1k"]["wakes"] / secs["tick1k"]
    ok &= 990 <= wakes_per_s <= 1010
    print(f"{'PASS' if 990 <= wakes_per_s <= 1010 else 'FAIL'}  tick1k: {wakes_per_s:.1f} wake-ups a second")
    per_tick = median_awake(res["tick1k"][1])
    cost = wakes_per_s * per_tick * (i_run - i_sleep) / hz
    print(f"      tick1k: {per_tick} cycles awake per tick (the median, wake to sleep, from the trace)")
    check("tick1k - tick-less, uA (the cost of the wake-ups)", avg["tick1k"] - avg["light"], cost, 0.02)
    # 2. deep sleep instead of sleep, and the one wake-up from it
    saved = st["deep"]["deep"] / secs["deep"] * (i_sleep - i_deep) / hz
    wake = st["deep"]["wakeup"] / secs["deep"] * (i_run - i_sleep) / hz
    check("tick-less - deep idle, uA (Stop's saving less its wake-up)", avg["light"] - avg["deep"], saved - wake, 0.01)
    print(f"idle_energy {board}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
