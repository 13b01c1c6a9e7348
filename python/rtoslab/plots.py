"""Plots as inline SVG (matplotlib, Agg): histogram and cumulative distribution per metric,
the Rhealstone figure, the footprints. Text stays text in the SVG, so the page is searchable."""
from __future__ import annotations

import io
import re

_counter = [0]
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


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


def _downsample(xs: list, k: int = 400) -> list[int]:
    n = len(xs)
    if n <= k:
        return list(range(n))
    step = (n - 1) / (k - 1)
    return sorted({round(i * step) for i in range(k)})


def _bins(values: list[float]):
    lo, hi = min(values), max(values)
    if hi - lo <= 60 and all(float(v).is_integer() for v in values):
        return [x - 0.5 for x in range(int(lo), int(hi) + 2)]
    return 40


def metric_figure(metric_id: str, series: list[tuple[str, list[float], str]], unit: str) -> str:
    """series: [(label, warm samples, color)] -> SVG: a histogram per series (one row each, so
    that distributions far apart stay readable) and their cumulative distributions together."""
    plt = _plt()
    n = len(series)
    mosaic = [[f"h{i}", "cdf"] for i in range(n)]
    fig, axes = plt.subplot_mosaic(mosaic, figsize=(8.6, 0.6 + 1.25 * max(2, n)), layout="constrained",
                                   gridspec_kw={"width_ratios": [1, 1]})
    for i, (label, s, color) in enumerate(series):
        ax = axes[f"h{i}"]
        ax.hist(s, bins=_bins(s), color=color, edgecolor=color, linewidth=0.4, alpha=0.8)
        ax.set_ylabel(label, fontsize=8)
        ax.tick_params(labelsize=7)
        if i == 0:
            ax.set_title(f"{metric_id}: histogram", fontsize=9)
        if i == n - 1:
            ax.set_xlabel(unit)
    ax2 = axes["cdf"]
    for label, s, color in series:
        xs = sorted(s)
        m = len(xs)
        idx = _downsample(xs)
        ax2.step([xs[i] for i in idx], [(i + 1) / m for i in idx], where="post", color=color, label=label)
    ax2.set_title(f"{metric_id}: cumulative distribution", fontsize=9)
    ax2.set_xlabel(unit)
    ax2.set_ylabel("fraction ≤ x")
    ax2.set_ylim(0, 1.02)
    ax2.grid(alpha=0.3)
    ax2.legend(fontsize=8, frameon=False, loc="lower right")
    return to_svg(fig)


def bar_figure(title: str, labels: list[str], groups: dict[str, list[float | None]], ylabel: str) -> str:
    """groups: {series name: value per label} -> grouped bars."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 2.8), layout="constrained")
    k = max(1, len(groups))
    width = 0.8 / k
    for gi, (name, vals) in enumerate(groups.items()):
        xs = [i + (gi - (k - 1) / 2) * width for i in range(len(labels))]
        ys = [v if v is not None else 0 for v in vals]
        bars = ax.bar(xs, ys, width=width, label=name, color=COLORS[gi % len(COLORS)])
        for b, v in zip(bars, vals):
            ax.annotate("n/a" if v is None else f"{v:,.0f}", (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if k > 1:
        ax.legend(fontsize=8, frameon=False)
    return to_svg(fig)


COMPONENT_COLORS = {"vectors/start-up": "#7f7f7f", "kernel": "#1f77b4", "port": "#17becf",
                    "application": "#2ca02c", "C library": "#ff7f0e", "stacks/heap": "#9467bd",
                    "other": "#c7c7c7"}


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
