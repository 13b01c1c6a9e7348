"""The report's answer: per board and profile, each RTOS's standing against the best RTOS in
every metric group, as a ranked heat-map table (the first thing the report shows).

A row is a contract group (spec/contracts.toml [[metric_group]]), split by the ids' first part
where a group holds several (`primitive costs` -> thread, mutex, sem). A cell is the geometric
mean, over the row's metrics, of the RTOS's p50 against the best RTOS's (standing.ratio: above
1 is worse, whatever the metric's direction); its rank is the median of its ranks in those
metrics. Metrics that are not a cost (direction none) are left out; the floor is a column of
its own, beside the ranking, never ranked.
"""
from __future__ import annotations

from statistics import median

from . import contract, standing
from .ids import direction

# cell colours: the upper bound of each ratio band (the last band is everything above)
BANDS = (1.05, 1.25, 1.5, 2.0, 4.0)
DIRECTION_TEXT = {"lower": "lower is better", "higher": "higher is better", "zero": "|error| closer to 0"}
ARROW = {"lower": "↓", "higher": "↑", "zero": "|→0|"}


def band(r: float | None) -> str:
    """The CSS class of a ratio's colour: h0 (best) .. h5 (over ×4); hn: no ratio."""
    if r is None:
        return "hn"
    return f"h{next((i for i, b in enumerate(BANDS) if r <= b), len(BANDS))}"


def _label(rtos: str, seen: list[str]) -> str:
    label, k = rtos, 2
    while label in seen:
        label = f"{rtos}#{k}"
        k += 1
    return label


# Application-level results with a view of their own, not rows of the first table (which must
# fit one screen): Hartstone's breakdown points (the report's "Hartstone breakdown points" chart)
# and seed 001's throughput (one value beside its round trip, rhealstone.message_passing.seed001).
NOT_ROWS = {g for g in contract.METRIC_GROUPS if g.startswith("Hartstone")} | \
    {"message throughput as seed 001 computed it"}


def _rows(names: list[str], values: dict, units: dict) -> list[dict]:
    rows = []
    for group, ids in contract.METRIC_GROUPS.items():
        if group in NOT_ROWS:
            continue
        families: dict[str, list[str]] = {}
        for mid in ids:
            if direction(mid) != "none" and mid in values:
                families.setdefault(mid.split(".")[0], []).append(mid)
        for fam, mids in families.items():
            ratios = {n: [] for n in names}
            ranks = {n: [] for n in names}
            for mid in mids:
                vals = values[mid]
                unit = units[mid]
                base = standing.best(mid, vals, unit)
                for n, rk in standing.ranks(mid, vals, unit).items():
                    ranks[n].append(rk)
                for n, v in vals.items():
                    r = standing.ratio(mid, v, base, unit)
                    if r is not None:
                        ratios[n].append(r)
            dirs = sorted({direction(m) for m in mids}, key=list(DIRECTION_TEXT).index)
            unit = units[mids[0]]
            cells = {}
            for n in names:
                g = standing.geomean(ratios[n])
                rk = median(ranks[n]) if ranks[n] else None
                rk = int(rk) if rk is not None and float(rk).is_integer() else rk
                cells[n] = {"ratio": g, "rank": rk, "n": len(ratios[n]), "band": band(g),
                            "text": "" if g is None else (f"×{g:.2f}" if g < 10 else f"×{g:.0f}"),
                            "measured": any(n in values[m] for m in mids)}
            short = group.split(" (")[0]           # "(the simulator's record)": said in the details
            title = short if len(families) == 1 else f"{short}: {fam}.*"
            rows.append({"title": title, "metrics": len(mids), "ids": mids,
                         "unit": "ops/1e7 cycles" if unit.startswith("ops") else unit,
                         "direction": "; ".join(DIRECTION_TEXT[d] for d in dirs),
                         "arrow": " ".join(ARROW[d] for d in dirs), "cells": cells})
    return rows


def view(runs: list[dict]) -> dict:
    """One board and profile: the ranked RTOSes, the floor, the rows and the overall row."""
    names: list[str] = []
    values: dict[str, dict] = {}
    units: dict[str, str] = {}
    for run in runs:
        name = _label(run["rtos"], names)
        names.append(name)
        for e in run.get("results", []):
            if e.get("p50") is not None and e["id"] in contract.METRICS:
                values.setdefault(e["id"], {})[name] = e["p50"]
                units.setdefault(e["id"], e.get("unit", "cycles"))
    rows = _rows(names, values, units)
    rtoses = [n for n in names if not standing.is_floor(n)]
    overall = {n: standing.geomean([row["cells"][n]["ratio"] for row in rows]) for n in names}
    have = {n: sum(1 for row in rows if row["cells"][n]["measured"]) for n in names}
    # an RTOS that lacks a service (no ratio in a group) ranks after every RTOS that has them
    # all: a mean over fewer groups is no standing against the others
    ranked = sorted(rtoses, key=lambda n: (len(rows) - have[n], overall[n] is None, overall[n] or 0, n))
    floor = [n for n in names if standing.is_floor(n)]
    total = {n: {"ratio": overall[n], "band": band(overall[n]), "rows": have[n],
                 "text": "" if overall[n] is None else f"×{overall[n]:.2f}",
                 "lacks": "" if have[n] == len(rows) else f"{have[n]}/{len(rows)} groups"} for n in names}
    return {"ranked": ranked, "floor": floor, "rows": rows, "overall": total}


def views(runs: list[dict]) -> list[dict]:
    """Every board and profile of the runs (in the order they come), each its own view."""
    by: dict[tuple, list[dict]] = {}
    for run in runs:
        if run.get("results"):
            by.setdefault((run.get("board", "?"), run.get("profile") or ""), []).append(run)
    out = []
    for i, ((board, profile), rs) in enumerate(by.items()):
        v = view(rs)
        v.update(board=board, profile=profile, index=i + 1,
                 clock_hz=next((r.get("clock_hz") for r in rs if r.get("clock_hz")), None))
        out.append(v)
    return out
