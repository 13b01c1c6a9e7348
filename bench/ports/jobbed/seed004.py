#!/usr/bin/env python3
"""Seed 004's core-functionality table beside this suite's figures (Jobbed and Linux): the
jobbed port's report section (port.toml `report`; python/rtoslab/port_sections.py loads it).

Seed 004 timed Jobbed and Raspbian on a Raspberry Pi 2B (900 MHz Cortex-A7): per row the mean,
sigma and maximum over 4096 samples in ns, Jobbed read from the 1 MHz system timer (1 us
resolution), Raspbian from clock_gettime. This module is the one copy of those published
figures and the row -> suite metric mapping; `section(runs)` sets them beside the runs of
`jobbed` and `posix` in a result file (the report's "Seed 004" section), `markdown()` prints
the table (bench/ports/jobbed/README.md, docs/results.md):

    python3 bench/ports/jobbed/seed004.py JOBBED.json POSIX.json

JOBBED.json: `rtoslab run --rtos jobbed --board qemu-raspi2b --samples 4096 --json ...`;
POSIX.json: `rtoslab run --rtos posix --board host --samples 4096 --json ...`. Standard
library only: the report loads it by path.
"""
from __future__ import annotations

import json
import sys

# (row, Linux on the Pi: mean, sigma, max; Jobbed on the Pi: mean, sigma, max; suite metric or
# None when the suite has none with the same definition)
SEED = [
    ("Tracing", (238, 160, 2920), (287, 452, 1000), "overhead.probe"),
    ("Thread Creation (L)", (96600, 26100, 825000), (1880, 967, 5000), "thread.create_low"),
    ("Thread Creation (H)", (221000, 56500, 1470000), (2660, 887, 7000), "thread.create_high"),
    ("Thread Switch", (15400, 625000, 40000000), (1420, 742, 4000), "rhealstone.task_switch"),
    ("Mutex Create", (317, 1040, 41400), (561, 595, 3000), "mutex.create"),
    ("Mutex Destroy", (321, 1300, 45100), (576, 585, 3000), "mutex.destroy"),
    ("Mutex Lock (C)", (23700, 6950, 206000), (4910, 1020, 9000), "mutex.lock_contended"),
    ("Mutex Lock (NC)", (365, 309, 8440), (798, 597, 3000), "mutex.lock_uncontended"),
    ("Mutex Unlock", (400, 782, 50100), (1370, 572, 4000), "mutex.unlock"),
    ("Semaphore P", (391, 1550, 95800), (427, 495, 1000), "sem.wait_available"),
    ("Semaphore V", (2550, 125000, 7860000), (768, 421, 1000), "sem.signal_no_waiter"),
    ("Semaphore V (NZ)", (313, 223, 11700), (439, 496, 1000), "sem.signal_nonzero"),
]

SEED_TIMING = {
    "linux": "Raspbian on a Raspberry Pi 2B (900 MHz Cortex-A7), clock_gettime",
    "jobbed": "Jobbed on a Raspberry Pi 2B (900 MHz Cortex-A7), 1 MHz system timer (1 us steps)",
}
NOT_COMPARABLE = (
    "QEMU counts instructions (1 ns of virtual time each), not Cortex-A7 cycles: compare the "
    "ratios between rows, not the times with the Pi's; its samples do not vary, so the seed's "
    "sigma and maxima (1 us timer steps, caches, the bus) have no counterpart. Linux here runs on "
    "this project's host, not on a Pi: compare the shape (which call costs what, how far the "
    "maxima reach), not the level. Jobbed against Linux only within one platform, which the seed "
    "had and this suite does not.")


def fmt(v: float) -> str:
    if v >= 100:
        return f"{v:,.0f}".replace(",", " ")
    return f"{v:.1f}" if v % 1 else f"{v:.0f}"


def _ns(run: dict) -> dict:
    """The run's warm statistics in ns, by metric id."""
    scale = 1e9 / run["clock_hz"]
    return {m["id"]: {k: m[k] * scale for k in ("mean", "stdev", "max", "p50", "p99", "min") if k in m}
            for m in run.get("results", [])}


def _timing(run: dict) -> str:
    prof = run.get("manifest", {}).get("board_profile", {}) or {}
    rt = ", ".join(f"{k[3:]}: {v}" for k, v in run.get("config", {}).items() if k.startswith("rt."))
    return f"{run['rtos']} on {run['board']}: " + (prof.get("timing") or "the board's counter") + \
        (f" ({rt})" if rt else "")


def _cell(res: dict, absent: dict, mid: str | None) -> str:
    if mid is None:
        return "no suite metric"
    if mid not in res:
        return "absent: " + absent[mid] if mid in absent else "not in this run"
    r = res[mid]
    return (f"{fmt(r['mean'])} / {fmt(r['stdev'])} / {fmt(r['max'])} "
            f"(min {fmt(r['min'])}, p50 {fmt(r['p50'])}, p99 {fmt(r['p99'])})")


def section(runs: list[dict]) -> dict | None:
    """The seed-004 table for the first `jobbed` and the first `posix` run of `runs` (None when
    neither is there): headers, rows of cells (the seed's mean / sigma / max, the suite's
    mean / sigma / max and min, p50, p99, all in ns), how each column was timed."""
    pick = {k: next((r for r in runs if r.get("rtos") == k), None) for k in ("jobbed", "posix")}
    if not any(pick.values()):
        return None
    cols = [("Linux, RPi 2B (seed)", SEED_TIMING["linux"], None)]
    if pick["posix"]:
        cols.append((f"Linux, {pick['posix']['board']} (posix)", _timing(pick["posix"]), pick["posix"]))
    cols.append(("Jobbed, RPi 2B (seed)", SEED_TIMING["jobbed"], None))
    if pick["jobbed"]:
        cols.append((f"Jobbed, {pick['jobbed']['board']} (this suite)", _timing(pick["jobbed"]), pick["jobbed"]))
    data = {id(r): (_ns(r), {a["id"]: a.get("reason", "") for a in r.get("absent", [])})
            for _, _, r in cols if r is not None}
    rows = []
    for row, lin, job, mid in SEED:
        cells = []
        for head, _, run in cols:
            if run is None:
                cells.append(" / ".join(fmt(x) for x in (lin if head.startswith("Linux") else job)))
            else:
                cells.append(_cell(*data[id(run)], mid))
        rows.append({"row": row, "metric": mid, "cells": cells})
    return {"id": "seed004", "title": "Seed 004: Jobbed and Linux beside the published figures",
            "note": "ns; the seed's cells: mean / σ / max over 4096 samples; this suite's: mean / σ / max "
                    "of the warm samples (min, p50, p99).",
            "first_headers": ["seed 004 row", "suite metric"],
            "headers": [h for h, _, _ in cols], "timing": [(h, t) for h, t, _ in cols], "rows": rows,
            "caveat": NOT_COMPARABLE}


def markdown(sec: dict) -> str:
    out = ["| seed 004 row | suite metric | " + " | ".join(sec["headers"]) + " |",
           "|---|---|" + "---|" * len(sec["headers"])]
    for r in sec["rows"]:
        out.append(f"| {r['row']} | " + (f"`{r['metric']}`" if r["metric"] else "—") + " | "
                   + " | ".join(r["cells"]) + " |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """`seed004.py RESULT.json...`: the table for the jobbed and posix runs."""
    if len(argv) < 2:
        print("usage: seed004.py JOBBED.json [POSIX.json]", file=sys.stderr)
        return 2
    runs = []
    for p in argv[1:]:
        try:
            runs += json.load(open(p))["runs"]
        except (OSError, ValueError, KeyError) as e:
            print(f"seed004: {p}: not a result file ({e})", file=sys.stderr)
            return 2
    sec = section(runs)
    if sec is None:
        print("seed004: no jobbed or posix run in these files", file=sys.stderr)
        return 1
    print(markdown(sec))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
