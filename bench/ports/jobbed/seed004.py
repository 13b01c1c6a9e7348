#!/usr/bin/env python3
"""Seed 004's core-functionality table beside this project's figures.

    .venv/bin/python bench/ports/jobbed/seed004.py JOBBED.json POSIX.json

JOBBED.json: `rtoslab run --rtos jobbed --board qemu-raspi2b --samples 4096 --json ...`;
POSIX.json: `rtoslab run --rtos posix --board host --samples 4096 --json ...`. Prints the
markdown table of bench/ports/jobbed/README.md ("Seed 004 beside this suite"): per row the
seed's published Linux and Jobbed figures (Raspberry Pi 2B, ns, mean / sigma / max over
4096 samples) and the suite's in ns (warm samples: mean / sigma / max, then min, p50, p99).
"""
from __future__ import annotations

import json
import sys

# seed 004, "RTOS Core Functionality Benchmarking Results" (ns): Linux avg, sigma, max;
# Jobbed avg, sigma, max. Row -> the suite metric with the same definition (None: none).
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
    ("Semaphore V (NZ)", (313, 223, 11700), (439, 496, 1000), None),
]


def load(path: str) -> tuple[dict, dict]:
    run = json.load(open(path))["runs"][0]
    scale = 1e9 / run["clock_hz"]
    out = {}
    for m in run["results"]:
        out[m["id"]] = {k: m[k] * scale for k in ("mean", "stdev", "max", "p50", "p99", "min")}
    return out, run


def fmt(v: float) -> str:
    if v >= 100:
        return f"{v:,.0f}".replace(",", " ")
    return f"{v:.1f}" if v % 1 else f"{v:.0f}"


def cell(res: dict, mid: str | None, absent: dict) -> str:
    if mid is None:
        return "no suite metric"
    if mid not in res:
        return "absent" + (f" ({absent[mid][:40]}…)" if mid in absent else "")
    r = res[mid]
    return (f"{fmt(r['mean'])} / {fmt(r['stdev'])} / {fmt(r['max'])} "
            f"(min {fmt(r['min'])}, p50 {fmt(r['p50'])}, p99 {fmt(r['p99'])})")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    jres, jrun = load(argv[1])
    pres, prun = load(argv[2])
    jabs = {a["id"]: a.get("reason", "") for a in jrun.get("absent", [])}
    pabs = {a["id"]: a.get("reason", "") for a in prun.get("absent", [])}
    print("| seed 004 row | suite metric | Linux, RPi 2B (seed) | Linux, this host (posix) "
          "| Jobbed, RPi 2B (seed) | Jobbed, QEMU raspi2b (this suite) |")
    print("|---|---|---|---|---|---|")
    for row, lin, job, mid in SEED:
        s = lambda t: " / ".join(fmt(x) for x in t)
        print(f"| {row} | {('`' + mid + '`') if mid else '—'} | {s(lin)} | {cell(pres, mid, pabs)} "
              f"| {s(job)} | {cell(jres, mid, jabs)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
