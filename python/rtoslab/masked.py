"""Interrupts-masked sections, measured by the simulator (`rtoslab-vp run --masked FILE`).

The simulator records every interval during which PRIMASK is set, over the whole run, from
the cycle the masking instruction (CPSID i / MSR PRIMASK) completes to the cycle the unmasking
one completes (docs/methodology.md, "Interrupts-masked sections"). Its summary gives the
histogram of every length, the longest interval with its code location and every site (a
pair masking pc / unmasking pc). This module turns it into two metrics of the run:

- `irq.masked`: every masked interval of the run as the population (n = their number;
  statistics from the exact histogram; `hist` is the histogram, `samples` is not given);
- `irq.masked_max`: the longest one, one sample, with its `location`;

and the run's `masked` section: the count, total, fraction of the run and the sites with the
longest sections first (the top `TOP_SITES`).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

TOP_SITES = 12


def read(path: Path | str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("version") == 1 else None


def hist_stats(hist: list) -> dict:
    """min, p50, mean, p99, max, stdev (nearest-rank percentiles, sample stdev) of a
    histogram [[value, count], ...] sorted by value: the same definitions as stats.summarize."""
    pairs = sorted((int(v), int(c)) for v, c in hist if int(c) > 0)
    n = sum(c for _, c in pairs)
    if n == 0:
        raise ValueError("empty histogram")

    def pct(p):
        k = max(1, math.ceil(p / 100.0 * n))
        acc = 0
        for v, c in pairs:
            acc += c
            if acc >= k:
                return v
        return pairs[-1][0]

    mean = math.fsum(v * c for v, c in pairs) / n
    var = math.fsum(c * (v - mean) ** 2 for v, c in pairs) / (n - 1) if n > 1 else 0.0
    return {"n": n, "min": pairs[0][0], "p50": pct(50), "mean": round(mean, 3), "p99": pct(99),
            "max": pairs[-1][0], "stdev": round(math.sqrt(var), 3)}


def location(iv: dict) -> dict:
    keys = ("start", "set_pc", "set_at", "set_func", "clear_pc", "clear_at", "clear_func")
    loc = {k: iv[k] for k in keys if k in iv}
    for k in ("set_pc", "clear_pc"):
        if isinstance(loc.get(k), int):
            loc[k] = f"0x{loc[k]:08x}"
    return loc


def _ns(st: dict, clock_hz: int | None) -> dict | None:
    if not clock_hz:
        return None
    return {k: round(st[k] * 1e9 / clock_hz, 3) for k in ("min", "p50", "mean", "p99", "max", "stdev")}


# The time-keeping interrupts: SysTick (exception 15: FreeRTOS, CoOS) and the board's compare
# timer, IRQ 0 (exception 16: the alarm of the tick-less kernels, rtoslab, ChibiOS, baremetal).
# The suite's own lines are IRQ 1, 2 and the software IRQ: never these.
TIMEKEEPING = ("exc15", "exc16")
PROFILE_WINDOWS = {"idle": "time.idle_window", "load": "timer.periodic_jitter"}


def _single(mid: str, unit: str, v: float, extra: dict) -> dict:
    return {"id": mid, "unit": unit, "n": 1, "min": v, "p50": v, "mean": v, "p99": v, "max": v,
            "stdev": 0.0, "cold": 0, "cold_stats": None, "source": "simulator", "samples": [v], **extra}


def profile(summary: dict, index_to_id: dict) -> tuple[list[dict], dict]:
    """time.tick_fraction.{idle,load} and cpu.idle_fraction.{idle,load} (percent of the
    window's cycles in the time-keeping handlers / asleep), and the run's `profile` section:
    per metric, its cycles by context (thread, sleep, excN)."""
    segs = {}
    for s in summary.get("segments", []):
        mid = index_to_id.get(s.get("mark")) if s.get("mark") is not None else "(boot)"
        if mid:
            segs[mid] = {"cycles": s["cycles"], **s["ctx"]}
    out = []
    for name, mid in PROFILE_WINDOWS.items():
        s = segs.get(mid)
        if not s or not s["cycles"]:
            continue
        tk = sum(s.get(k, 0) for k in TIMEKEEPING)
        out.append(_single(f"time.tick_fraction.{name}", "%", round(100.0 * tk / s["cycles"], 4),
                           {"window": mid, "window_cycles": s["cycles"], "handler_cycles": tk}))
        # not running: asleep, in deep sleep (SLEEPDEEP) or waking from it (energy.py)
        asleep = sum(s.get(k, 0) for k in ("sleep", "deep_sleep", "wakeup"))
        out.append(_single(f"cpu.idle_fraction.{name}", "%", round(100.0 * asleep / s["cycles"], 4),
                           {"window": mid, "window_cycles": s["cycles"], "sleep_cycles": asleep}))
    return out, segs


def results(summary: dict, clock_hz: int | None) -> tuple[list[dict], dict]:
    """(result entries, the run's `masked` section) from the simulator's summary."""
    section = {
        "source": "simulator (PRIMASK, every cycle of the run)",
        "cycles": summary.get("cycles"),
        "count": summary.get("count", 0),
        "total": summary.get("total", 0),
        "fraction": round(summary.get("total", 0) / summary["cycles"], 6) if summary.get("cycles") else None,
        "open": summary.get("open"),
        "sites": [dict(location(s), count=s["count"], total=s["total"], max=s["max"],
                       max_start=s["max_start"]) for s in summary.get("sites", [])[:TOP_SITES]],
        "sites_total": len(summary.get("sites", [])),
    }
    out = []
    hist = summary.get("hist") or []
    longest = summary.get("longest")
    if hist and longest:
        st = hist_stats(hist)
        e = {"id": "irq.masked", "unit": "cycles", "n": st["n"], **{k: st[k] for k in
             ("min", "p50", "mean", "p99", "max", "stdev")}, "cold": 0, "cold_stats": None,
             "source": "simulator", "hist": [[int(v), int(c)] for v, c in hist],
             "location": location(longest)}
        ns = _ns(st, clock_hz)
        if ns:
            e["time_ns"] = ns
        out.append(e)
        v = int(longest["cycles"])
        m = {"id": "irq.masked_max", "unit": "cycles", "n": 1, "min": v, "p50": v, "mean": v,
             "p99": v, "max": v, "stdev": 0.0, "cold": 0, "cold_stats": None, "source": "simulator",
             "samples": [v], "location": location(longest)}
        ns = _ns({k: m[k] for k in ("min", "p50", "mean", "p99", "max", "stdev")}, clock_hz)
        if ns:
            m["time_ns"] = ns
        out.append(m)
    return out, section


def describe(loc: dict) -> str:
    """`set_at .. clear_at` for tables and logs."""
    a, b = loc.get("set_at", "?"), loc.get("clear_at", "?")
    return f"{a} .. {b}"
