"""`rtoslab report RESULTS.json...`: Markdown and a self-contained HTML page.

Comparison tables (one row per metric, the RTOSes side by side), a histogram and a cumulative
distribution per metric, the Rhealstone figure (objective: every weight 1; application: the
weights of a file, as Kar proposed), the footprints and the behaviour checks, with the
configuration of every RTOS shown beside its numbers. The HTML page has its CSS, its script
and its plots (inline SVG) inside: it opens without a network.
"""
from __future__ import annotations

import json
import shutil
import sys
import tomllib
from datetime import datetime, timezone
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from . import __version__
from . import answer, contract, distribution_svg, energy, port_sections, standing
from . import results as res
from .errors import BadInput, RtoslabError
from .glue import rows as glue_rows
from .glue import table as glue_table
from .ids import CHECK_IDS, RHEALSTONE, direction
from .latency import PHASES
from .plots import (bar_figure, colors_for, footprint_figure, latency_figure, scaling_figure,
                    stacked_figure, summary_figure)
from .size import COMPONENTS, LABELS
from .result_stream import load_thinned
from .stats import fmt_time, plot_points, split_cold
from .table import COLS, _baseline_of, _num, better, markdown_table, matrix, ratio_text, time_of

def _group_title(name: str) -> str:
    """A contract group's heading: its name, and its unit where that is not cycles."""
    unit, better = contract.METRICS[contract.METRIC_GROUPS[name][0]]
    title = name[0].upper() + name[1:]
    return title if unit == "cycles" else f"{title} ({unit}, {better} is better)"


# The report's groups are the contract's (spec/contracts.toml [[metric_group]]), in its order.
GROUPS = [(_group_title(name), ids) for name, ids in contract.METRIC_GROUPS.items()]
_GROUP_OF = {mid: title for title, ids in GROUPS for mid in ids}


def group_of(mid: str) -> str:
    return _GROUP_OF.get(mid, "Other")


def load_weights(path: str | None) -> dict | None:
    if not path:
        return None
    p = Path(path)
    if not p.is_file():
        raise BadInput(f"{path}: no such weights file")
    try:
        text = p.read_text(encoding="utf-8")
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: malformed weights file ({e})") from None
    if isinstance(data, dict) and "weights" in data and isinstance(data["weights"], dict):
        data = data["weights"]
    if not isinstance(data, dict):
        raise BadInput(f"{path}: weights must be an object of metric id to number")
    out = {}
    for k, v in data.items():
        key = k if k.startswith("rhealstone.") else f"rhealstone.{k}"
        if key not in RHEALSTONE:
            raise BadInput(f"{path}: unknown Rhealstone metric '{k}' (known: {', '.join(RHEALSTONE)})")
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
            raise BadInput(f"{path}: weight of {k} must be a number >= 0")
        out[key] = float(v)
    return out


def rhealstone(run: dict, weights: dict | None, stat: str = "mean") -> dict:
    """Kar's Rhealstone figure: 1 / sum(w_i * t_i), t_i the time of metric i in seconds at the
    board clock -> Rhealstones per second. Objective: every w_i = 1."""
    by_id = {r["id"]: r for r in run.get("results", [])}
    w = {m: 1.0 for m in RHEALSTONE} if weights is None else {m: weights.get(m, 0.0) for m in RHEALSTONE}
    clock = run.get("clock_hz")
    terms, missing = {}, []
    for m in RHEALSTONE:
        if w[m] == 0:
            continue
        r = by_id.get(m)
        secs = _seconds(r, stat, clock) if r is not None else None
        if secs is None:
            missing.append(m)
            continue
        terms[m] = w[m] * secs
    total = sum(terms.values())
    value = None if missing or total <= 0 else 1.0 / total
    return {"value": value, "missing": missing, "terms": terms, "weights": w, "stat": stat}


def _seconds(entry: dict, stat: str, clock) -> float | None:
    unit = entry.get("unit", "cycles")
    if unit == "cycles":
        return entry[stat] / clock if clock else None
    scale = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}.get(unit)
    return entry[stat] * scale if scale else None


def collect(paths: list[str]) -> tuple[list[dict], list[dict]]:
    if not paths:
        raise BadInput("no result file given")
    runs, sources = [], []
    for p in paths:
        doc = load_thinned(p, progress=lambda f, p=p: _progress(f"reading {p}: {f:.0%}"))
        sources.append({"path": str(p), "git": doc.get("tool", {}).get("git"), "created": doc.get("created"),
                        "runs": len(doc["runs"])})
        for r in doc["runs"]:
            r = dict(r)
            r["_source"] = str(p)
            runs.append(r)
    if not runs:
        raise BadInput(f"{paths[0]}: no runs in the result file(s)")
    return runs, sources


def _labels(runs):
    _, labels, _ = matrix(runs)
    return labels


def build_context(runs, sources, weights, title, plots=True, baseline: str | None = None) -> dict:
    ids, labels, cells = matrix(runs)
    by_rtos = colors_for([run["rtos"] for run in runs])
    color = {lab: by_rtos[run["rtos"]] for lab, run in zip(labels, runs)}
    clocks = {lab: r.get("clock_hz") for lab, r in zip(labels, runs)}
    if baseline is not None and baseline not in labels:
        raise BadInput(f"--baseline {baseline}: not a run of these files ({', '.join(labels)})")
    groups: dict[str, list] = {}
    footnotes: dict[str, int] = {}          # absence reason -> its number under the tables
    for mid in ids:
        unit = next((c.get("unit", "cycles") for lab in labels
                     if isinstance(c := cells.get((mid, lab)), dict)), "cycles")
        base = _baseline_of(mid, labels, cells, baseline)
        rank = standing.ranks(mid, {lab: c["p50"] for lab in labels if isinstance(c := cells.get((mid, lab)), dict)
                                    and c.get("p50") is not None}, unit)
        row = {"id": mid, "unit": "ops/1e7 cyc" if unit.startswith("ops") else unit,
               "better": better(mid, unit), "cells": []}
        for lab in labels:
            c = cells.get((mid, lab))
            if c is None:
                row["cells"].append({"kind": "none"})
            elif isinstance(c, tuple):
                note = footnotes.setdefault(f"{lab}: {c[1]}", len(footnotes) + 1)
                row["cells"].append({"kind": c[0], "reason": c[1], "note": note})
            else:
                hz = clocks.get(lab)
                r = ratio_text(mid, c.get("p50"), base, unit)
                row["cells"].append({"kind": "value", "vals": [_num(c.get(k), k) for k in COLS],
                                     "time": time_of(c, hz), "p50": _num(c.get("p50"), "p50"),
                                     "ratio": r, "best": r == "×1.00" if baseline else rank.get(lab) == 1,
                                     "rank": rank.get(lab), "floor": standing.is_floor(lab),
                                     "n": c.get("n"), "cold": c.get("cold", 0)})
        groups.setdefault(group_of(mid), []).append(row)
    group_list = [(name, groups[name]) for name, _ in GROUPS if name in groups]
    if "Other" in groups:
        group_list.append(("Other", groups["Other"]))
    figures = []
    if plots:
        for mid in ids:
            series, unit = [], "cycles"
            for lab in labels:
                c = cells.get((mid, lab))
                if isinstance(c, dict) and c.get("samples"):
                    _, warm = split_cold(c["samples"], c.get("cold", 0))
                    series.append((lab, plot_points(warm), color[lab]))
                    unit = c.get("unit", unit)
            if series:
                figures.append({"id": mid, "svg": distribution_svg.figure(mid, series, unit)})
    # Rhealstone
    # an RTOS without one of the operations (no preemption in a cooperative kernel) has no
    # objective figure; the figure over the operations every run measured ranks them all
    # (runs measuring fewer than four of the six are left out of it: too few to compare on)
    have = [{r["id"] for r in run.get("results", [])} & set(RHEALSTONE) for run in runs]
    have = [h for h in have if len(h) >= 4] or have
    shared = [m for m in RHEALSTONE if all(m in h for h in have)]
    shared_w = {m: 1.0 for m in shared} if 0 < len(shared) < len(RHEALSTONE) else None
    rh_rows = []
    for lab, run in zip(labels, runs):
        obj = rhealstone(run, None)
        app = rhealstone(run, weights) if weights is not None else None
        why = {a["id"]: a.get("reason", "") for a in run.get("absent", [])}
        obj["why"] = {m: why.get(m, "not measured") for m in obj["missing"]}
        rh_rows.append({"label": lab, "objective": obj, "application": app,
                        "shared": rhealstone(run, shared_w) if shared_w else None,
                        "times": {m: _seconds(run_res, "mean", run.get("clock_hz"))
                                  for m in RHEALSTONE
                                  for run_res in [next((r for r in run["results"] if r["id"] == m), None)]
                                  if run_res is not None}})
    rh_svg = ""
    if plots and any(r["objective"]["value"] for r in rh_rows):
        g = {"objective": [r["objective"]["value"] for r in rh_rows]}
        if shared_w:
            g[f"the {len(shared)} shared"] = [r["shared"]["value"] for r in rh_rows]
        if weights is not None:
            g["application"] = [r["application"]["value"] for r in rh_rows]
        rh_svg = bar_figure("Rhealstones per second (higher is better)", labels, g, "Rhealstones/s",
                            label_colors=[color[lab] for lab in labels])
    # Footprints
    size_keys = []
    for run in runs:
        for k in run.get("size", {}):
            if k not in size_keys:
                size_keys.append(k)
    order = {f"{kind}.{c}": (i, j) for i, kind in enumerate(("flash", "ram")) for j, c in enumerate(COMPONENTS)}
    size_keys.sort(key=lambda k: order.get(k, (0 if k.startswith("flash") else 1, 50 if k.endswith("total") else 40)))
    sizes = [{"key": k, "label": _size_label(k), "vals": [run.get("size", {}).get(k) for run in runs]}
             for k in size_keys]
    size_svgs = []
    if plots:
        for kind in ("flash", "ram"):
            parts = {}
            for c in COMPONENTS:
                vals = [run.get("size", {}).get(f"{kind}.{c}", 0) for run in runs]
                if any(vals):
                    parts[LABELS[c]] = vals
            if parts:
                size_svgs.append(stacked_figure(f"{kind.upper()} by component (bytes)", labels, parts, "bytes"))
    # Checks
    check_ids = []
    for run in runs:
        for c in run.get("checks", []):
            if c["id"] not in check_ids:
                check_ids.append(c["id"])
    check_ids.sort(key=lambda c: (CHECK_IDS.index(c) if c in CHECK_IDS else 99, c))
    checks = []
    for cid in check_ids:
        row = {"id": cid, "cells": []}
        for run in runs:
            c = next((x for x in run.get("checks", []) if x["id"] == cid), None)
            row["cells"].append(None if c is None else {"passed": c["passed"], "detail": c.get("detail", "")})
        checks.append(row)
    # The second clock: the probe's view of every metric beside the firmware's own counter
    probe_rows = []
    for mid in ids:
        row, any_probe = {"id": mid, "cells": []}, False
        for lab in labels:
            c = cells.get((mid, lab))
            if isinstance(c, dict) and c.get("probe"):
                any_probe = True
                row["cells"].append({"counter": _num(c["p50"], "p50"), "probe": _num(c["probe"]["p50"], "p50"),
                                     "diff": _num(c["probe"].get("overhead_p50", c["p50"] - c["probe"]["p50"]), "p50")})
            else:
                row["cells"].append(None)
        if any_probe:
            probe_rows.append(row)
    absent = [{"label": lab, "id": a["id"], "reason": a.get("reason", "")}
              for lab, run in zip(labels, runs) for a in run.get("absent", [])]
    incomplete = [{"label": lab, "id": a["id"], "reason": a.get("reason", "")}
                  for lab, run in zip(labels, runs) for a in run.get("incomplete", [])]
    configs = [{"label": lab, "color": color[lab], "rtos": run["rtos"], "version": run.get("rtos_version"),
                "board": run["board"], "clock_hz": run.get("clock_hz"), "toolchain": run.get("toolchain"),
                "status": run.get("status", "complete"), "error": run.get("error"),
                "config": run.get("config", {}), "source": run.get("_source"),
                "timing": (run.get("manifest", {}).get("board_profile", {}) or {}).get("timing", "")}
               for lab, run in zip(labels, runs)]
    summary_svgs, scaling_svgs, kernel_svg, hartstone_svg = [], [], "", ""
    if plots:
        summary_svgs = _summary_svgs(ids, labels, cells, color)
        scaling_svgs = _scaling_svgs(ids, labels, cells, color)
        hartstone_svg = _hartstone_svg(labels, cells)
        flash = [_kernel_bytes(run, "flash") for run in runs]
        ram = [_kernel_bytes(run, "ram") for run in runs]
        if any(v is not None for v in flash + ram):
            kernel_svg = footprint_figure(labels, flash, ram, [color[lab] for lab in labels])
    latency = _latency_context(labels, runs, color, plots)
    views = answer.views(runs)
    return {"title": title, "labels": labels, "latency": latency, "answer": views,
            "across": answer.across(views), "profiles": answer.profiles(runs),
            "bands": answer.BANDS, "floor_ids": standing.FLOOR, "rtos_colors": by_rtos, "glue": glue_table(runs),
            "glue_rows": glue_rows(runs),
            "colors": color, "cols": COLS, "groups": group_list,
            "summary_svgs": summary_svgs, "scaling_svgs": scaling_svgs, "kernel_svg": kernel_svg,
            "hartstone_svg": hartstone_svg,
            "baseline": baseline, "footnotes": [{"n": n, "text": t} for t, n in footnotes.items()],
            "figures": figures, "rh_rows": rh_rows, "rh_svg": rh_svg, "rhealstone_ids": RHEALSTONE,
            "rh_shared": shared if shared_w else [],
            "weights": weights, "sizes": sizes, "size_svgs": size_svgs, "checks": checks,
            "absent": absent, "incomplete": incomplete, "configs": configs, "sources": sources,
            "probe_rows": probe_rows, "port_sections": port_sections.sections(runs),
            "version": __version__,
            "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def _latency_context(labels, runs, color, plots) -> dict:
    """The runs' latency models (rtoslab latency / run --latency-model): table rows, the
    stacked bar, and a note for each run whose model is absent or failed."""
    rows, notes = [], []
    for lab, run in zip(labels, runs):
        lm = run.get("latency_model")
        if lm is None:
            continue
        if "deterministic" in lm:
            rows.append({"label": lab, "model": lm,
                         "parts": [lm["deterministic"][k] for k in PHASES], "median": lm["median"]})
        else:
            notes.append({"label": lab, "text": ("absent: " + lm["absent"]) if "absent" in lm else lm.get("error", "")})
    svg = ""
    if plots and rows:
        svg = latency_figure([r["label"] for r in rows], [r["model"] for r in rows], [color[r["label"]] for r in rows])
    return {"rows": rows, "notes": notes, "svg": svg, "phases": PHASES}


def _kernel_bytes(run: dict, kind: str) -> int | None:
    """The RTOS's own bytes: kernel and port (not the benchmark, not the C library)."""
    size = run.get("size", {})
    vals = [size.get(f"{kind}.{c}") for c in ("kernel", "port")]
    return None if all(v is None for v in vals) else sum(v or 0 for v in vals)


def _summary_svgs(ids, labels, cells, color) -> list[str]:
    """p50 of every metric per RTOS: the cost metrics (lower is better) and the throughputs."""
    out = []
    for title, keep, xlabel in (
            ("p50 of every cost metric (lower is better; log scale)",
             lambda m, u: u == "cycles" and direction(m, u) == "lower"
             and not m.startswith(("tm.", "scale.", "timer.", "stimulus.", "boot.")),
             "cycles (log)"),
            ("Thread-Metric throughput (higher is better; log scale)",
             lambda m, u: m.startswith("tm."), "operations per 10^7 cycles (log)")):
        rows = []
        for mid in ids:
            vals = {lab: c["p50"] for lab in labels if isinstance(c := cells.get((mid, lab)), dict)}
            unit = next((cells[(mid, lab)].get("unit", "cycles") for lab in vals), "cycles")
            if vals and keep(mid, unit):
                rows.append((mid, vals))
        if rows:
            out.append(summary_figure(title, rows, color, xlabel))
    return out


def _scaling_svgs(ids, labels, cells, color) -> list[str]:
    """Each scaling family (scale.<name>.n<N>) as lines of p50 against n."""
    fams: dict[str, list[tuple[int, str]]] = {}
    for mid in ids:
        head, _, n = mid.rpartition(".n")
        if mid.startswith("scale.") and n.isdigit():
            fams.setdefault(head, []).append((int(n), mid))
    out = []
    for fam, members in fams.items():
        lines = {}
        for lab in labels:
            pts = [(n, cells[(mid, lab)]["p50"]) for n, mid in sorted(members)
                   if isinstance(cells.get((mid, lab)), dict)]
            if pts:
                lines[lab] = ([p[0] for p in pts], [p[1] for p in pts])
        if lines:
            out.append(scaling_figure(f"{fam}: p50 against n", lines, color, "cycles"))
    return out


HARTSTONE_SERIES = ("ph1", "ph2", "ph3", "ph4", "pn", "ah", "sh")


def _hartstone_svg(labels, cells) -> str:
    """Hartstone's breakdown points (hartstone.<series>.utilisation): per series, each RTOS's
    share of the CPU its application work had at the last load that met every deadline."""
    groups = {}
    for lab in labels:
        vals = [c["p50"] / 10 if isinstance(c := cells.get((f"hartstone.{s}.utilisation", lab)), dict) else None
                for s in HARTSTONE_SERIES]
        if any(v is not None for v in vals):
            groups[lab] = vals
    if not groups:
        return ""
    return bar_figure("Hartstone: utilisation at the breakdown point (higher is better)",
                      [s.upper() for s in HARTSTONE_SERIES], groups, "% of the CPU (work)")


def _size_label(k: str) -> str:
    kind, _, comp = k.partition(".")
    return f"{kind.upper()} {LABELS.get(comp, comp.replace('_', ' '))}"


def _fmt_rh(v):
    return "n/a" if v is None else f"{v:,.0f}"


def render_html(ctx: dict) -> str:
    env = Environment(loader=PackageLoader("rtoslab", "templates"), autoescape=select_autoescape(["html", "j2"]))
    env.filters["rh"] = _fmt_rh
    env.filters["us"] = lambda s: "-" if s is None else fmt_time(s)
    return env.get_template("report.html.j2").render(**ctx)


def render_md(ctx: dict, runs: list[dict], plot_dir: Path | None, md_path: Path) -> str:
    out = [f"# {ctx['title']}", "", f"Generated {ctx['generated']} by rtoslab {ctx['version']} from "
           + ", ".join(f"`{s['path']}` (git {str(s['git'])[:12]})" for s in ctx["sources"]) + ".", ""]
    out += _answer_md(ctx["answer"]) + _across_md(ctx["across"], ctx["profiles"])
    out += ["## Results (cycles of the board clock)", ""]
    for name, rows in ctx["groups"]:
        ids = {r["id"] for r in rows}
        sub = [dict(r, results=[x for x in r.get("results", []) if x["id"] in ids],
                    absent=[x for x in r.get("absent", []) if x["id"] in ids],
                    incomplete=[x for x in r.get("incomplete", []) if x["id"] in ids]) for r in runs]
        out += [f"### {name}", "", markdown_table(sub), ""]
    out += ["## Rhealstone", "",
            "Kar's figure: 1 / Σ wᵢ·tᵢ, tᵢ the mean time of each Rhealstone metric in seconds at the "
            "board clock. Objective: every weight 1"
            + ("; application: the weights given." if ctx["weights"] else ".")
            + (f" The shared operations: the figure over the {len(ctx['rh_shared'])} operations measured by every run "
               "that has four or more of the six "
               "measured (" + ", ".join(m[11:] for m in ctx["rh_shared"]) + "), so every RTOS has one."
               if ctx["rh_shared"] else ""), "",
            "| run | objective Rhealstones/s |" + (" the shared operations |" if ctx["rh_shared"] else "")
            + (" application Rhealstones/s |" if ctx["weights"] else ""),
            "|---|---|" + ("---|" if ctx["rh_shared"] else "") + ("---|" if ctx["weights"] else "")]
    for r in ctx["rh_rows"]:
        line = f"| {r['label']} | {_fmt_rh(r['objective']['value'])}"
        if r["objective"]["missing"]:
            line += " (no " + ", ".join(m[11:] for m in r["objective"]["missing"]) + ")"
        if ctx["rh_shared"]:
            line += f" | {_fmt_rh(r['shared']['value'])}"
        if ctx["weights"]:
            line += f" | {_fmt_rh(r['application']['value'])}"
        out.append(line + " |")
    if ctx["weights"]:
        out += ["", "Weights: " + ", ".join(f"`{k}`={v:g}" for k, v in ctx["weights"].items())]
    why = [f"- {r['label']}, no {m[11:]}: {text}" for r in ctx["rh_rows"]
           for m, text in r["objective"]["why"].items()]
    if why:
        out += ["", "Why a figure is missing (the port's reason):", ""] + why
    out += energy.battery_md(runs, lambda r: ctx["labels"][runs.index(r)])
    out += ["", "## Footprints (bytes)", "", "| | " + " | ".join(ctx["labels"]) + " |",
            "|---|" + "---|" * len(ctx["labels"])]
    for s in ctx["sizes"]:
        out.append(f"| {s['label']} | " + " | ".join("" if v is None else str(v) for v in s["vals"]) + " |")
    if ctx["checks"]:
        out += ["", "## Behaviour checks", "", "| check | " + " | ".join(ctx["labels"]) + " |",
                "|---|" + "---|" * len(ctx["labels"])]
        for c in ctx["checks"]:
            out.append(f"| `{c['id']}` | " + " | ".join(
                "" if x is None else ("pass" if x["passed"] else f"**FAIL** {x['detail']}") for x in c["cells"]) + " |")
    lat = ctx["latency"]
    if lat["rows"] or lat["notes"]:
        out += ["", "## Interrupt-to-thread latency by part (seed 003's model)", "",
                "Cycles of `irq.to_thread`: the fastest warm sample cut into its parts (deterministic), "
                "and the jitter up to the slowest.", "",
                "| run | " + " | ".join(lat["phases"]) + " | fastest | jitter | slowest |",
                "|---|" + "---|" * (len(lat["phases"]) + 3)]
        for r in lat["rows"]:
            m = r["model"]
            out.append(f"| {r['label']} | " + " | ".join(str(v) for v in r["parts"])
                       + f" | {m['total_min']} | {m['jitter']} | {m['total_max']} |")
        out += [f"- {n['label']}: {n['text']}" for n in lat["notes"]]
    if ctx["glue"]:
        out += ["", "## The port glue's cycles (rtoslab run --glue)", "",
                "Per hot path, the cycles of the port's own code (`bench/ports/<id>/`, the ports' copy) "
                "and the RTOS's, median of 8 traced warm samples (docs/methodology.md, 'Glue at parity').",
                "", ctx["glue"]]
    if ctx["probe_rows"]:
        out += ["", "## The second clock (probe)", "",
                "p50 of the firmware's cycle counter, of the probe pulses the simulator recorded, "
                "and their difference.", "",
                "| metric | " + " | ".join(f"{lab} counter | {lab} probe | {lab} diff" for lab in ctx["labels"]) + " |",
                "|---|" + "---|---|---|" * len(ctx["labels"])]
        for row in ctx["probe_rows"]:
            out.append(f"| `{row['id']}` | " + " | ".join(
                "| |" if c is None else f"{c['counter']} | {c['probe']} | {c['diff']}" for c in row["cells"]) + " |")
    for sec in ctx["port_sections"]:
        out += ["", f"## {sec['title']}", "", sec["markdown"], ""]
        out += [f"- {head}: {how}" for head, how in sec["timing"]]
        out += ["", sec["caveat"]]
    if ctx["absent"] or ctx["incomplete"]:
        out += ["", "## Absent and incomplete metrics", ""]
        for a in ctx["absent"]:
            out.append(f"- {a['label']}: `{a['id']}` absent: {a['reason']}")
        for a in ctx["incomplete"]:
            out.append(f"- {a['label']}: `{a['id']}` incomplete: {a['reason']}")
    out += ["", "## Configurations", "", "| run | RTOS | version | board | clock | toolchain | configuration |",
            "|---|---|---|---|---|---|---|"]
    for c in ctx["configs"]:
        cfg = ", ".join(f"{k}={v}" for k, v in c["config"].items()) or "-"
        out.append(f"| {c['label']} | {c['rtos']} | {c['version']} | {c['board']} | "
                   f"{(c['clock_hz'] or 0) / 1e6:g} MHz | {c['toolchain']} | {cfg} |")
    for c in ctx["configs"]:
        if c["status"] != "complete":
            out.append(f"\n**{c['label']}: {c['status']}** — {c.get('error') or ''}")
    if plot_dir is not None and ctx["figures"]:
        from .results import atomic_write
        out += ["", "## Distributions", ""]
        for f in ctx["figures"]:
            name = f"{f['id']}.svg"
            atomic_write(plot_dir / name, f["svg"])
            rel = plot_dir / name
            if plot_dir.is_relative_to(md_path.parent):
                rel = rel.relative_to(md_path.parent)
            out.append(f"![{f['id']}]({rel.as_posix()})")
    return "\n".join(out) + "\n"


def _answer_md(views: list[dict]) -> list[str]:
    """The answer first: per board and profile, each RTOS against the best RTOS by group."""
    out = ["## Standing against the best RTOS", "",
           "p50 against the best RTOS's p50, geometric mean over each group (×1.00 is the best, above 1 "
           "worse; ↓ lower, ↑ higher, \\|→0\\| the error's magnitude closer to 0 is better; #k: the rank "
           f"where a 0 has no ratio). {', '.join(standing.FLOOR)}, the floor (no RTOS), is a reference, "
           "never ranked; so are the configurations shown for information (rtoslab with a check off).", ""]
    for v in views:
        out += [f"### {v['board']}" + (f", profile {v['profile']}" if v["profile"] else ""), "",
                "| " + " | ".join(["group", "unit"] + [f"{i}. {n}" for i, n in enumerate(v["ranked"], 1)]
                                  + [f"{n} ({'floor' if standing.is_floor(n) else 'for information'})"
                                     for n in v["floor"]]) + " |",
                "|---|---|" + "---|" * (len(v["ranked"]) + len(v["floor"]))]
        total = v["overall"]
        out.append("| **all groups** | ratio | " + " | ".join(
            f"**{total[n]['text'] or '-'}**" + (f" ({total[n]['lacks']})" if total[n]["lacks"] else "")
            for n in v["ranked"] + v["floor"]) + " |")
        for row in v["rows"]:
            cells = []
            for n in v["ranked"] + v["floor"]:
                c = row["cells"][n]
                rank = f"#{c['rank']}" if c["rank"] is not None and n not in v["floor"] else "-"
                cells.append(c["text"] or (rank if c["measured"] else "absent"))
            arrow = row["arrow"].replace("|", "\\|")          # a Markdown table's cell
            out.append(f"| {row['title']} | {row['unit']} {arrow} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def _across_md(across: dict | None, profiles: list[dict]) -> list[str]:
    """Board by board (M0 -> M3 -> M4 -> parts) and speed against size, after the views."""
    out = []
    if across:
        cols = [c["board"] + (f" {c['profile']}" if c["profile"] else "") for c in across["columns"]]
        out += ["### Board by board", "",
                "Each RTOS's overall standing (all groups) on each board and profile; #k its rank there.", "",
                "| RTOS | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
        for row in across["rows"]:
            out.append(f"| {row['rtos']} | " + " | ".join(
                (f"{c['text']} #{c['rank']}" if c["rank"] else "-") + (f" ({c['lacks']})" if c["lacks"] else "")
                for c in row["cells"]) + " |")
        out.append("")
    if profiles:
        out += ["### The speed profile against the size profile", "",
                "Per RTOS, the geometric mean over the metrics both builds measured of its speed p50 "
                "against its own size p50 (below ×1, the speed build is better).", ""]
        for b in profiles:
            out += [f"{b['board']}: " + ", ".join(f"{r['rtos']} {r['text']}" for r in b["rtoses"]), ""]
    return out


PROGRESS_BYTES = 5_000_000   # inputs this large take seconds: say each step on stderr


def _progress(text: str) -> None:
    """One line on stderr: a large file takes seconds, and the user sees which step it is in."""
    if not _verbose:
        return
    try:
        sys.stderr.write(f"rtoslab: report: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


_verbose = False


def _size(path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0                                  # collect() says what is wrong with it


def execute(paths: list[str], html_path: str | None, md_path: str | None, weights_path: str | None,
            title: str | None, baseline: str | None = None) -> list[Path]:
    global _verbose
    weights = load_weights(weights_path)
    sizes = {p: _size(p) for p in paths}
    _verbose = sys.stderr.isatty() or sum(sizes.values()) >= PROGRESS_BYTES
    for p in paths:
        _progress(f"reading {p} ({sizes[p] / 1e6:.1f} MB)")
    runs, sources = collect(paths)
    if not html_path and not md_path:
        html_path = "report.html"
    title = title or "rtoslab report: " + ", ".join(dict.fromkeys(r["rtos"] for r in runs)) + \
        " on " + ", ".join(dict.fromkeys(r["board"] for r in runs))
    _progress(f"drawing the plots of {len(runs)} run(s)")
    ctx = build_context(runs, sources, weights, title, plots=True, baseline=baseline)
    written: list[Path] = []
    plot_dir = None
    try:
        if html_path:
            _progress(f"writing {html_path}")
            written.append(res.atomic_write(html_path, render_html(ctx)))
        if md_path:
            mp = Path(md_path)
            plot_dir = mp.with_name(mp.stem + "_plots")
            plot_dir = None if plot_dir.exists() else plot_dir      # only a folder this report made is removed
            _progress(f"writing {md_path}")
            written.append(res.atomic_write(mp, render_md(ctx, runs, mp.with_name(mp.stem + "_plots"), mp)))
    except RtoslabError as e:
        # nothing half-written left: a plots folder this report created goes with the failure
        if plot_dir is not None:
            shutil.rmtree(plot_dir, ignore_errors=True)
        done = f" ({', '.join(map(str, written))} written)" if written else ""
        raise BadInput(f"report not written: {e}{done}") from None
    return written
