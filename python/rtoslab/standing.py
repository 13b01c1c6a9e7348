"""An RTOS's standing against the best RTOS: the one ranking rule of the CLI tables and the report.

Each metric's direction is the contract's (spec/contracts.toml, ids.direction): lower, higher,
zero (a signed error: ranked by |value|) or none (a measurement, not a cost: never ranked).
The floor, `baremetal`, is no RTOS: it is shown beside the ranking as a reference, never ranked
and never the best; nor is a configuration shown for information (manifest `ranked = false`:
rtoslab with its checks off). A ratio is always "r > 1 is worse"; a value of 0 (on either side) and an
absent value never get one (0 has no ratio; the rank still says who is best).
"""
from __future__ import annotations

import math

from .ids import direction

FLOOR = ("baremetal",)      # no RTOS: the hand-written switch doing the same job (bench/ports/baremetal)


def is_floor(label: str) -> bool:
    """A run label (`rtos`, `rtos@board`, `rtos#2`) of the floor."""
    return label.split("@")[0].split("#")[0] in FLOOR


def is_ranked(label: str) -> bool:
    """A run label of an RTOS that competes: not the floor, not a port shown for information."""
    if is_floor(label):
        return False
    from . import ports
    port = ports.registry().get(label.split("@")[0].split("#")[0])
    return port is None or port.ranked


def badness(mid: str, v, unit: str = "cycles") -> float | None:
    """The key a metric is ranked by, smaller is better; None: not ranked (no value, not a cost)."""
    d = direction(mid, unit)
    if v is None or d == "none":
        return None
    return -v if d == "higher" else abs(v) if d == "zero" else v


def best(mid: str, vals: dict, unit: str = "cycles"):
    """The best value of {label: value} among the RTOSes (the floor left out); None if none ranks."""
    ranked = [v for lab, v in vals.items() if is_ranked(lab) and badness(mid, v, unit) is not None]
    return min(ranked, key=lambda v: badness(mid, v, unit)) if ranked else None


def ratio(mid: str, v, base, unit: str = "cycles") -> float | None:
    """v against base, above 1 worse (lower: v/base; higher: base/v; zero: |v|/|base|)."""
    d = direction(mid, unit)
    if d == "none" or v is None or base is None or v == 0 or base == 0:
        return None
    r = base / v if d == "higher" else abs(v) / abs(base) if d == "zero" else v / base
    return r if r > 0 else None


def ranks(mid: str, vals: dict, unit: str = "cycles") -> dict:
    """{label: 1-based rank} of the RTOSes (ties share a rank; the floor and the ports shown for
    information have none)."""
    keys = {lab: badness(mid, v, unit) for lab, v in vals.items() if is_ranked(lab)}
    keys = {lab: k for lab, k in keys.items() if k is not None}
    return {lab: 1 + sum(1 for o in keys.values() if o < k) for lab, k in keys.items()}


def geomean(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None
