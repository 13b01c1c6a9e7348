"""`rtoslab compare BASE.json NEW.json`: what got slower or bigger (exit status 1 past the threshold)."""
from __future__ import annotations

import math

from rich import box
from rich.console import Console
from rich.table import Table

from . import results as res
from .errors import BadInput, RtoslabError
from .ids import direction, metric_order
from .stats import STAT_KEYS, metric_stats

STATS = ("min", "p50", "mean", "p99", "max")


class Regression(RtoslabError):
    status = 1


def check_samples(doc: dict, path) -> None:
    """A comparison stands on the samples: every statistic is computed again from them, and a
    file whose stored statistics disagree (edited, or written by a broken tool) is refused."""
    for run in doc["runs"]:
        for r in run["results"]:
            samples = r.get("samples")
            if not samples:
                continue
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in samples):
                raise BadInput(f"{path}: {res.run_key(run)} {r['id']}: a sample is not a number")
            got = metric_stats(samples, int(r.get("cold", 0)))
            for k in STAT_KEYS:
                if not math.isclose(got[k], r[k], rel_tol=1e-9, abs_tol=1e-3):
                    raise BadInput(f"{path}: {res.run_key(run)} {r['id']}: the stored {k} {r[k]} is not "
                                   f"the samples' {got[k]}: refused (the file was altered)")


def _runs(doc) -> dict:
    return {res.run_key(r): r for r in doc["runs"]}


def change_pct(base: float, new: float) -> float:
    if base == 0:
        return 0.0 if new == 0 else math.copysign(math.inf, new)
    return (new - base) / abs(base) * 100.0


def diff(base: dict, new: dict, threshold: float, stat: str = "p50") -> dict:
    b_runs, n_runs = _runs(base), _runs(new)
    common = [k for k in b_runs if k in n_runs]
    if not common:
        raise BadInput("the two result files have no RTOS@board run in common "
                       f"(base: {', '.join(b_runs) or 'none'}; new: {', '.join(n_runs) or 'none'})")
    rows, notes = [], []
    for key in common:
        b, n = b_runs[key], n_runs[key]
        bm = {r["id"]: r for r in b["results"]}
        nm = {r["id"]: r for r in n["results"]}
        for mid in sorted(set(bm) | set(nm), key=metric_order):
            if mid not in nm:
                notes.append(f"{key}: {mid} is in BASE only")
                continue
            if mid not in bm:
                notes.append(f"{key}: {mid} is new")
                continue
            bv, nv = bm[mid][stat], nm[mid][stat]
            # the contract's direction (ids.direction): a signed error by its size, a
            # measurement that is not a cost (direction none) shown but never a regression
            d = direction(mid, nm[mid].get("unit", "cycles"))
            if d == "zero" or bm[mid].get("signed") or nm[mid].get("signed"):
                ch = change_pct(abs(bv), abs(nv))
            else:
                ch = change_pct(bv, nv)
            worse = 0.0 if d == "none" else -ch if d == "higher" else ch
            rows.append({"run": key, "id": mid, "base": bv, "new": nv, "change_pct": ch,
                         "regression": worse > threshold, "improvement": worse < -threshold})
        bs, ns = b.get("size", {}), n.get("size", {})
        for k in sorted(set(bs) & set(ns)):
            ch = change_pct(bs[k], ns[k])
            rows.append({"run": key, "id": f"size.{k}", "base": bs[k], "new": ns[k], "change_pct": ch,
                         "regression": ch > threshold, "improvement": ch < -threshold})
        bc = {c["id"]: c["passed"] for c in b.get("checks", [])}
        nc = {c["id"]: c["passed"] for c in n.get("checks", [])}
        for cid in sorted(set(bc) & set(nc)):
            if bc[cid] != nc[cid]:
                rows.append({"run": key, "id": cid, "base": "pass" if bc[cid] else "fail",
                             "new": "pass" if nc[cid] else "fail", "change_pct": None,
                             "regression": not nc[cid], "improvement": nc[cid]})
    for key in b_runs:
        if key not in n_runs:
            notes.append(f"{key}: only in BASE")
    for key in n_runs:
        if key not in b_runs:
            notes.append(f"{key}: only in NEW")
    return {"stat": stat, "threshold": threshold, "rows": rows, "notes": notes,
            "regressions": [r for r in rows if r["regression"]]}


def _fmt(v) -> str:
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.1f}"
    return str(int(v)) if isinstance(v, (int, float)) else str(v)


def verdict(d: dict) -> str:
    """The answer first: regressions or none, and how much changed."""
    rows = d["rows"]
    same = sum(1 for r in rows if r["change_pct"] == 0.0)
    better = sum(1 for r in rows if r["improvement"])
    counts = f"{len(rows)} compared, {same} unchanged, {better} better, {len(d['regressions'])} worse"
    if d["regressions"]:
        return f"REGRESSION past {d['threshold']:g}% ({d['stat']}): {counts}"
    return f"no regression past {d['threshold']:g}% ({d['stat']}): {counts}"


def _changed(r: dict) -> bool:
    return r["regression"] or r["improvement"] or r["change_pct"] not in (None, 0.0)


def _grouped_notes(notes: list[str]) -> list[str]:
    """One line per run and kind ('rtoslab@vp-m0: 19 metrics are new: a, b, c, ...'), not one per metric."""
    groups: dict[tuple[str, str], list[str]] = {}
    loose = []
    for n in notes:
        run, _, what = n.partition(": ")
        for suffix, kind in ((" is new", "new"), (" is in BASE only", "in BASE only")):
            if what.endswith(suffix):
                groups.setdefault((run, kind), []).append(what[: -len(suffix)])
                break
        else:
            loose.append(n)
    out = []
    for (run, kind), ids in groups.items():
        shown = ", ".join(ids[:4]) + (", ..." if len(ids) > 4 else "")
        out.append(f"{run}: {len(ids)} metric(s) {kind}: {shown}")
    return out + loose


def render(d: dict, out: Console, show_all: bool = False) -> None:
    out.print(verdict(d), highlight=False, markup=False)
    shown = [r for r in d["rows"] if show_all or _changed(r)]
    if shown:
        t = Table(box=box.SIMPLE_HEAD, title=f"change of {d['stat']} (threshold {d['threshold']:g}%)",
                  title_justify="left")
        for col in ("run", "metric", "base", "new", "change", ""):
            t.add_column(col, justify="right" if col in ("base", "new", "change") else "left", no_wrap=True)
        for r in shown:
            ch = "" if r["change_pct"] is None else f"{r['change_pct']:+.2f}%"
            mark = "[red]REGRESSION[/]" if r["regression"] else ("[green]better[/]" if r["improvement"] else "")
            t.add_row(r["run"], r["id"], _fmt(r["base"]), _fmt(r["new"]), ch, mark)
        out.print(t)
    for n in _grouped_notes(d["notes"]):
        out.print(f"note: {n}", highlight=False, markup=False)


def execute(base_path, new_path, threshold: float, stat: str, out: Console, show_all=False) -> dict:
    if threshold < 0 or math.isnan(threshold):
        raise BadInput("--threshold must be a percentage >= 0")
    base, new = res.load(base_path), res.load(new_path)
    for path, doc in ((base_path, base), (new_path, new)):
        check_samples(doc, path)
    d = diff(base, new, threshold, stat)
    render(d, out, show_all)
    if d["regressions"]:
        r = d["regressions"][0]
        ch = "" if r["change_pct"] is None else f" ({r['change_pct']:+.1f}%)"
        raise Regression(f"{len(d['regressions'])} regression(s) past {threshold:g}%: "
                         f"{r['run']} {r['id']} {r['base']} -> {r['new']}{ch}")
    return d
