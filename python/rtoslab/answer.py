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
    rtoses = [n for n in names if standing.is_ranked(n)]
    overall = {n: standing.geomean([row["cells"][n]["ratio"] for row in rows]) for n in names}
    have = {n: sum(1 for row in rows if row["cells"][n]["measured"]) for n in names}
    # an RTOS that lacks a service (no ratio in a group) ranks after every RTOS that has them
    # all: a mean over fewer groups is no standing against the others
    ranked = sorted(rtoses, key=lambda n: (len(rows) - have[n], overall[n] is None, overall[n] or 0, n))
    floor = [n for n in names if not standing.is_ranked(n)]  # beside the ranking: the floor, ports for information
    total = {n: {"ratio": overall[n], "band": band(overall[n]), "rows": have[n],
                 "text": "" if overall[n] is None else f"×{overall[n]:.2f}",
                 "lacks": "" if have[n] == len(rows) else f"{have[n]}/{len(rows)} groups"} for n in names}
    return {"ranked": ranked, "floor": floor, "rows": rows, "overall": total}


PROFILE_ORDER = ("size", "speed")


def _board_order(board: str) -> tuple:
    """M0 -> M3 -> M4 -> the part boards: the board registry's `order` (unknown boards last)."""
    from .boards import registry
    b = registry().get(board)
    return (b.order if b is not None else 1_000, board)


def _view_key(key: tuple) -> tuple:
    board, profile = key
    return (_board_order(board), PROFILE_ORDER.index(profile) if profile in PROFILE_ORDER else 9, profile)


def views(runs: list[dict]) -> list[dict]:
    """Every board and profile of the runs, each its own view: board by board (M0, M3, M4, then
    the part boards: the registry's order), the size profile before the speed one."""
    by: dict[tuple, list[dict]] = {}
    for run in runs:
        if run.get("results"):
            by.setdefault((run.get("board", "?"), run.get("profile") or ""), []).append(run)
    out = []
    for i, ((board, profile), rs) in enumerate(sorted(by.items(), key=lambda kv: _view_key(kv[0]))):
        v = view(rs)
        v.update(board=board, profile=profile, index=i + 1,
                 clock_hz=next((r.get("clock_hz") for r in rs if r.get("clock_hz")), None))
        out.append(v)
    return out


def across(vs: list[dict]) -> dict | None:
    """Board by board and profile by profile: each RTOS's overall standing (the "all groups"
    row of each view) side by side, the RTOSes in their order on the first view; None for
    one view."""
    if len(vs) < 2:
        return None
    names: list[str] = []
    for v in vs:
        names += [n for n in v["ranked"] if n not in names]
    cols = [{"board": v["board"], "profile": v["profile"]} for v in vs]
    rows = []
    for n in names:
        cells = []
        for v in vs:
            c = v["overall"].get(n)
            rank = v["ranked"].index(n) + 1 if n in v["ranked"] else None
            cells.append({"text": (c or {}).get("text", ""), "band": (c or {}).get("band", "hn"),
                          "rank": rank, "lacks": (c or {}).get("lacks", "")})
        rows.append({"rtos": n, "cells": cells})
    return {"columns": cols, "rows": rows}


def profiles(runs: list[dict]) -> list[dict]:
    """The speed profile against the size profile, per board and RTOS: the geometric mean over
    the metrics both runs measured (costs only) of the RTOS's speed p50 against its own size
    p50, by the metric's direction (standing.ratio: below 1, the speed build is better)."""
    by: dict[tuple, dict] = {}
    for run in runs:
        if run.get("profile") in PROFILE_ORDER and run.get("results"):
            by.setdefault((run.get("board", "?"), run["rtos"]), {})[run["profile"]] = run
    out: dict[str, dict] = {}
    for (board, rtos), pair in sorted(by.items(), key=lambda kv: (_board_order(kv[0][0]), kv[0][1])):
        if len(pair) < 2:
            continue
        size = {e["id"]: e for e in pair["size"]["results"] if e.get("p50") is not None}
        ratios = []
        for e in pair["speed"]["results"]:
            base = size.get(e["id"])
            if base is None or e.get("p50") is None or e["id"] not in contract.METRICS:
                continue
            r = standing.ratio(e["id"], e["p50"], base["p50"], e.get("unit", "cycles"))
            if r is not None:
                ratios.append(r)
        g = standing.geomean(ratios)
        if g is not None:
            out.setdefault(board, {"board": board, "rtoses": []})["rtoses"].append(
                {"rtos": rtos, "ratio": g, "text": f"×{g:.3f}", "n": len(ratios)})
    return list(out.values())
