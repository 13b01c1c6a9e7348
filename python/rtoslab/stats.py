"""Statistics of a metric's samples: min, p50, mean, p99, max, stdev.

Definitions (docs/cli.md): the first `cold` samples (first iterations: cold pipeline, first
call paths) are kept apart; the statistics are over the remaining (warm) samples. Percentiles
are nearest-rank (p-th percentile = the smallest sample with at least p% of the samples at or
below it), so every percentile is a sample that was really measured. stdev is the sample
standard deviation (n - 1); 0 for one sample.
"""
from __future__ import annotations

import math

from .contract import MARK_METRIC, MARK_METRIC_MASK

STAT_KEYS = ("min", "p50", "mean", "p99", "max", "stdev")


def percentile(sorted_vals: list[float], p: float) -> float:
    if not sorted_vals:
        raise ValueError("no samples")
    k = max(1, math.ceil(p / 100.0 * len(sorted_vals)))
    return sorted_vals[min(k, len(sorted_vals)) - 1]


def summarize(samples: list[float]) -> dict:
    if not samples:
        raise ValueError("no samples")
    s = sorted(samples)
    n = len(s)
    mean = math.fsum(s) / n
    var = math.fsum((x - mean) ** 2 for x in s) / (n - 1) if n > 1 else 0.0
    return {
        "n": n, "min": s[0], "p50": percentile(s, 50), "mean": round(mean, 3),
        "p99": percentile(s, 99), "max": s[-1], "stdev": round(math.sqrt(var), 3),
    }


def split_cold(samples: list[float], cold: int) -> tuple[list[float], list[float]]:
    cold = max(0, min(cold, len(samples)))
    if cold == len(samples):      # nothing warm: use everything rather than nothing
        return [], list(samples)
    return list(samples[:cold]), list(samples[cold:])


PLOT_POINTS = 4096


def plot_points(samples: list[float], limit: int = PLOT_POINTS) -> list[float]:
    """At most `limit` samples that draw the same histogram and cumulative distribution: evenly
    spaced order statistics (the minimum and maximum included). A plot of a million samples
    costs then what one of a few thousand does; the statistics stay those of every sample."""
    if len(samples) <= limit:
        return list(samples)
    s = sorted(samples)
    last = len(s) - 1
    return [s[round(i * last / (limit - 1))] for i in range(limit)]


def metric_stats(samples: list[float], cold: int) -> dict:
    """Warm statistics plus the cold samples' own summary ('cold': {...} or None)."""
    cold_s, warm = split_cold(samples, cold)
    out = summarize(warm)
    out["cold"] = summarize(cold_s) if cold_s else None
    return out


def pair_probe_edges(events: list[dict], origins: dict[int, str] | None = None) -> dict[int, list[int]]:
    """Probe samples from the simulator's trace events (docs/protocol.md, 'the second clock').

    After a PROBE_MARK of MARK_METRIC (0x52540000) | index, each rising edge of pin 0 followed by its falling
    edge is one sample (the pulse width in cycles) of metric `index`. Where the firmware said
    `@probe ID from=stim`, an interval runs from the last stimulus rising edge to the falling
    edge of pin 0; with `from=reset`, from reset (cycle 0) to the rising edge."""
    origins = origins or {}
    out: dict[int, list[int]] = {}
    current = None
    rise = None
    stim = None
    for ev in events:
        e = ev.get("e")
        if e == "mark":
            v = int(ev.get("value", 0))
            if (v & MARK_METRIC_MASK) == MARK_METRIC:
                current = v & ~MARK_METRIC_MASK & 0xFFFFFFFF
                out.setdefault(current, [])
                rise = None
                stim = None
        elif e == "stim":
            if int(ev.get("level", 0)):
                stim = int(ev["c"])
        elif e == "probe" and current is not None:
            changed = int(ev.get("changed", 0))
            if not changed & 1:
                continue
            pins = int(ev.get("pins", 0))
            origin = origins.get(current, "")
            c = int(ev["c"])
            if pins & 1:
                if origin == "reset":
                    out[current].append(c)
                rise = c
            elif origin == "stim":
                if stim is not None and stim <= c:      # the last stimulus rising edge before it
                    out[current].append(c - stim)
            elif origin == "reset":
                pass
            elif rise is not None:
                out[current].append(c - rise)
                rise = None
    return out


def cycles_to_seconds(cycles: float, clock_hz: int | None) -> float | None:
    if not clock_hz:
        return None
    return cycles / clock_hz


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    a = abs(seconds)
    if a == 0:
        return "0"
    if a < 1e-6:
        return f"{seconds * 1e9:.1f} ns"
    if a < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if a < 1:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"
