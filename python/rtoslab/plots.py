"""Plots as inline SVG (matplotlib, Agg): the summary, the Rhealstone figure, the scaling
families, the footprints, the latency by part (each metric's distributions are drawn by
distribution_svg.py, without matplotlib). Text stays text in the SVG, so the page is searchable."""
from __future__ import annotations

import io
import re

_counter = [0]
# Twelve colours that stay apart from each other (the first ten are matplotlib's tab10).
# as many distinct colours as the port registry has entries (14 today), so that an RTOS keeps
# its colour in every report whatever the others in it
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
          "#bcbd22", "#7f7f7f", "#393b79", "#e7969c", "#637939", "#843c39", "#3182bd", "#7b4173",
          "#31a354", "#e6550d"]


def colors_for(rtoses: list[str]) -> dict[str, str]:
    """One colour per RTOS, the same in every table, plot and report: its place in the port
    registry (rtoslab first, then FreeRTOS, ...); an id outside the registry (a result file
    from elsewhere) takes the next colour no RTOS of the list has."""
    from .errors import RtoslabError
    from .ports import registry
    try:
        order = list(registry())
    except RtoslabError:                   # a report must render without the tree's registry
        order = []
    out = {r: COLORS[order.index(r) % len(COLORS)] for r in rtoses if r in order}
    free = [c for c in COLORS if c not in out.values()] or COLORS
    for i, r in enumerate(dict.fromkeys(r for r in rtoses if r not in out)):
        out[r] = free[i % len(free)]
    return out


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.fonttype": "none", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "figure.dpi": 96})
    return plt


def to_svg(fig) -> str:
    plt = _plt()
    _counter[0] += 1
    plt.rcParams["svg.hashsalt"] = f"rtoslab-{_counter[0]}"
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    svg = re.sub(r"^.*?(<svg\b)", r"\1", svg, flags=re.S)      # drop XML prolog and doctype
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return svg


def bar_figure(title: str, labels: list[str], groups: dict[str, list[float | None]], xlabel: str,
               label_colors: list[str] | None = None) -> str:
    """groups: {series name: value per label} -> grouped horizontal bars, one row per label
    (names never crowd each other, whatever the number of RTOSes), each value written at its
    bar's end; one group: each bar in its label's colour when label_colors is given."""
    plt = _plt()
    k = max(1, len(groups))
    fig, ax = plt.subplots(figsize=(6.4, 1.0 + 0.22 * k * max(1, len(labels)) + (0.3 if k > 1 else 0)),
                           layout="constrained")
    height = 0.8 / k
    top = max([v for vals in groups.values() for v in vals if v is not None] or [1])
    for gi, (name, vals) in enumerate(groups.items()):
        ys = [i + (gi - (k - 1) / 2) * height for i in range(len(labels))]
        xs = [v if v is not None else 0 for v in vals]
        color = label_colors if label_colors and k == 1 else COLORS[gi % len(COLORS)]
        bars = ax.barh(ys, xs, height=height, label=name, color=color)
        for b, v in zip(bars, vals):
            ax.annotate("n/a" if v is None else f"{v:,.0f}", (b.get_width(), b.get_y() + b.get_height() / 2),
                        xytext=(3, 0), textcoords="offset points", ha="left", va="center", fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, top * 1.18)              # room for the value at the longest bar's end
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    if k > 1:
        ax.legend(fontsize=8, frameon=False, ncol=k, loc="upper center",
                  bbox_to_anchor=(0.5, -0.12 - 0.5 / len(labels)))
    return to_svg(fig)


def summary_figure(title: str, rows: list[tuple[str, dict[str, float]]], colors: dict[str, str],
                   xlabel: str) -> str:
    """The decision picture: one row per metric, one dot per RTOS at its p50 (its colour), on a
    log axis shared by every row, so that ten RTOSes and a 100× spread stay readable."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.6, 0.9 + 0.28 * max(3, len(rows))), layout="constrained")
    seen = set()
    for y, (_mid, vals) in enumerate(rows):
        for lab, v in vals.items():
            if v is None or v <= 0:
                continue
            ax.plot([v], [y], "o", color=colors.get(lab, "#000"), markersize=5, alpha=0.9,
                    label=None if lab in seen else lab)
            seen.add(lab)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([m for m, _ in rows], fontsize=7.5)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3, which="both")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return to_svg(fig)


def scaling_figure(title: str, lines: dict[str, tuple[list[int], list[float]]], colors: dict[str, str],
                   ylabel: str) -> str:
    """A scaling family: one line per RTOS of the p50 against n."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 2.8), layout="constrained")
    for lab, (ns, vs) in lines.items():
        ax.plot(ns, vs, "o-", color=colors.get(lab, "#000"), label=lab, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, frameon=False, ncol=2)
    return to_svg(fig)


def footprint_figure(labels: list[str], flash: list[int | None], ram: list[int | None],
                     colors: list[str]) -> str:
    """The RTOS's own footprint, kernel and port only (the benchmark's buffers and the
    application apart): flash and static RAM, one bar per RTOS in its colour."""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(8.6, 0.9 + 0.3 * max(3, len(labels))), layout="constrained")
    for ax, vals, what in ((axes[0], flash, "flash"), (axes[1], ram, "static RAM")):
        ys = list(range(len(labels)))
        ax.barh(ys, [v or 0 for v in vals], color=colors)
        for y, v in zip(ys, vals):
            ax.annotate("n/a" if v is None else f"{v:,}", (v or 0, y), xytext=(3, 0), textcoords="offset points",
                        va="center", fontsize=7)
        ax.set_yticks(ys)
        ax.set_yticklabels(labels if ax is axes[0] else [""] * len(labels), fontsize=8)
        ax.invert_yaxis()
        ax.set_title(f"kernel + port {what} (bytes)", fontsize=9)
        ax.margins(x=0.18)
    return to_svg(fig)


# the components' own colours, none of them an RTOS's (COLORS): a bar's part is not an RTOS
COMPONENT_COLORS = {"vectors/start-up": "#636363", "kernel": "#54278f", "port": "#9e9ac8",
                    "application": "#a1d99b", "C library": "#fdd0a2", "stacks/heap": "#d9d9d9",
                    "other": "#f0f0f0"}


def stacked_figure(title: str, labels: list[str], parts: dict[str, list[int]], xlabel: str) -> str:
    """Horizontal stacked bars: one bar per label, one segment per component (fixed colours)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 1.4 + 0.45 * max(1, len(labels))), layout="constrained")
    left = [0] * len(labels)
    for ci, (comp, vals) in enumerate(parts.items()):
        ax.barh(labels, vals, left=left, label=comp,
                color=COMPONENT_COLORS.get(comp, COLORS[ci % len(COLORS)]))
        left = [a + b for a, b in zip(left, vals)]
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, frameon=False, ncol=min(4, len(parts)), loc="upper center",
              bbox_to_anchor=(0.5, -0.35 if len(labels) < 3 else -0.2))
    ax.invert_yaxis()
    return to_svg(fig)


# The latency model's parts, in time order (rtoslab.latency.PHASES), and the jitter: one colour each.
LATENCY_PARTS = {"pending": ("pending (held off)", "#c7c7c7"), "core_entry": ("core entry", "#7f7f7f"),
                 "prologue": ("RTOS prologue + dispatch", "#17becf"), "isr_signal": ("ISR + signal", "#2ca02c"),
                 "epilogue_exit": ("epilogue + exit", "#bcbd22"), "switch": ("scheduler + switch", "#1f77b4"),
                 "jitter": ("jitter (slowest − fastest)", "#ffffff")}   # hatched in black: no RTOS's colour


def latency_figure(labels: list[str], models: list[dict], label_colors: list[str]) -> str:
    """Seed 003's latency model: one horizontal bar per run, the fastest warm sample's parts
    stacked (the deterministic part) and then the jitter up to the slowest (hatched). Each
    segment's SVG group is `latency-<run index>-<part>` so that a test can measure it."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.6, 1.2 + 0.34 * max(4, len(labels))), layout="constrained")
    for y, m in enumerate(models):
        left = 0
        parts = [(k, m["deterministic"][k]) for k in LATENCY_PARTS if k != "jitter"] + [("jitter", m["jitter"])]
        for part, width in parts:
            name, color = LATENCY_PARTS[part]
            jit = part == "jitter"
            (bar,) = ax.barh([y], [width], left=left, color=color, edgecolor="#333333" if jit else "white",
                             linewidth=0.6, hatch="///" if jit else None, label=name if y == 0 else None)
            bar.set_gid(f"latency-{y}-{part}")
            left += width
        ax.annotate(f"{m['total_min']}–{m['total_max']}", (left, y), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    for tick, color in zip(ax.get_yticklabels(), label_colors):
        tick.set_color(color)
    ax.invert_yaxis()
    ax.margins(x=0.08)
    ax.set_xlabel("cycles from the stimulus edge to the woken thread (irq.to_thread)")
    ax.set_title("Interrupt-to-thread latency by part: deterministic (fastest sample) + jitter", fontsize=10)
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return to_svg(fig)
