"""One metric's distributions as hand-written SVG: a histogram row per RTOS (each scaled to its
row, on one x axis, logarithmic where the values span more than 30x) and the cumulative
distributions together.

Written by hand, not by matplotlib: a report draws one per metric (a hundred metrics, ten
RTOSes, several boards), and matplotlib's figure costs about half a second and 75 kB each;
this one costs milliseconds and a few kB (integer pixel coordinates, relative path steps,
the cumulative curve at most CDF_POINTS order statistics: what the eye can tell apart).
"""
from __future__ import annotations

import math
from html import escape

CDF_POINTS = 32          # steps of each cumulative curve (evenly spaced order statistics)
ROW = 18                 # pixels per histogram row
LEFT, MID, RIGHT = 130, 470, 540      # histogram from LEFT to MID, cumulative from RIGHT to WIDTH - 16
WIDTH, TOP, BOTTOM = 860, 26, 34


def needs_log(values: list[float]) -> bool:
    """A log axis where the spread is wide (tails, or RTOSes an order of magnitude apart)."""
    pos = [v for v in values if v > 0]
    return len(pos) == len(values) and bool(pos) and max(pos) / min(pos) > 30


def _edges(s: list[float], log: bool) -> list[float]:
    """One bin per integer where the samples span 60 values or fewer, else 40 bins."""
    lo, hi = min(s), max(s)
    if log:
        a, b = math.log10(lo), math.log10(hi)
        return [10 ** (a + k * (b - a) / 40) for k in range(41)]
    if hi - lo <= 60 and all(float(v).is_integer() for v in s):
        return [x - 0.5 for x in range(int(lo), int(hi) + 2)]
    return [lo + k * (hi - lo) / 40 for k in range(41)]


def _ticks(lo: float, hi: float, log: bool) -> list[float]:
    if log:
        return [10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
                if lo <= 10.0 ** e <= hi]
    span = hi - lo or 1.0
    step = 10 ** math.floor(math.log10(span / 4))
    step *= next(m for m in (1, 2, 5, 10) if span / (step * m) <= 5)
    first = math.ceil(lo / step) * step
    return [first + k * step for k in range(int((hi - first) / step) + 1)]


def _fmt(v: float) -> str:
    return f"{v:.3g}" if abs(v) < 1e4 else f"{v:.0e}".replace("e+0", "e")


def figure(metric_id: str, series: list[tuple[str, list[float], str]], unit: str) -> str:
    """series: [(label, warm samples, colour)] -> one <svg> (about 1 kB per series)."""
    n = len(series)
    every = [v for _, s, _ in series for v in s]
    log = needs_log(every)
    lo, hi = min(every), max(every)
    if log:
        lo, hi = lo / 1.2, hi * 1.2
    else:
        pad = (hi - lo) * 0.05 or max(1.0, abs(hi) * 0.05)
        lo, hi = lo - pad, hi + pad
    plot_h = ROW * max(3, n)
    height = TOP + plot_h + BOTTOM

    def x_hist(v: float) -> float:
        f = (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) if log else (v - lo) / (hi - lo)
        return LEFT + f * (MID - LEFT)

    right_end = WIDTH - 16

    def x_cdf(v: float) -> float:
        return RIGHT + (x_hist(v) - LEFT) / (MID - LEFT) * (right_end - RIGHT)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
           f'height="{height}" font-family="sans-serif" font-size="10" role="img" '
           f'aria-label="{escape(metric_id)}: distributions">',
           f'<text x="{LEFT}" y="14" font-size="11">{escape(metric_id)}: histogram per RTOS'
           f'{" (log x)" if log else ""}</text>',
           f'<text x="{RIGHT}" y="14" font-size="11">cumulative distribution (fraction ≤ x)</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{MID - LEFT}" height="{plot_h}" fill="none" stroke="#999"/>',
           f'<rect x="{RIGHT}" y="{TOP}" width="{right_end - RIGHT}" height="{plot_h}" fill="none" stroke="#999"/>']
    bottom = TOP + plot_h
    for t in _ticks(lo, hi, log):
        for x in (x_hist(t), x_cdf(t)):
            out.append(f'<path d="M{x:.0f} {bottom}v4" stroke="#666"/><text x="{x:.0f}" y="{bottom + 14}" '
                       f'text-anchor="middle">{_fmt(t)}</text>')
    out.append(f'<text x="{(LEFT + MID) // 2}" y="{height - 4}" text-anchor="middle">{escape(unit)}</text>'
               f'<text x="{(RIGHT + right_end) // 2}" y="{height - 4}" text-anchor="middle">{escape(unit)}</text>')
    for frac in (0.5, 1.0):
        y = bottom - frac * plot_h
        out.append(f'<path d="M{RIGHT} {y:.0f}H{right_end}" stroke="#ddd"/>'
                   f'<text x="{RIGHT - 4}" y="{y + 3:.0f}" text-anchor="end">{frac:g}</text>')
    for i, (label, s, color) in enumerate(series):
        base = TOP + (i + 1) * ROW                     # the first series on top
        out.append(f'<text x="{LEFT - 6}" y="{base - 5}" text-anchor="end">{escape(label)}</text>')
        if min(s) == max(s):
            x = x_hist(s[0])
            # the note on the side with room, so it never runs into the other panel
            left = x > (LEFT + MID) / 2
            anchor = ' text-anchor="end"' if left else ""
            out.append(f'<path d="M{x:.0f} {base}v-{ROW - 3}" stroke="{color}" stroke-width="2.5"/>'
                       f'<text x="{x - 5 if left else x + 5:.0f}" y="{base - 5}"{anchor}>'
                       f'constant: every sample = {s[0]:g}</text>')
        else:
            edges = _edges(s, log)
            counts = [0] * (len(edges) - 1)
            j = 0
            for v in sorted(s):
                while j < len(counts) - 1 and v >= edges[j + 1]:
                    j += 1
                counts[j] += 1
            top = max(counts)
            d = [f"M{x_hist(edges[0]):.0f} {base}"]
            last_h = 0
            for k, c in enumerate(counts):
                h = round((ROW - 3) * c / top)
                if h != last_h or k == len(counts) - 1:      # equal neighbours: one step, not two
                    d.append(f"H{x_hist(edges[k]):.0f}V{base - h}")
                    last_h = h
            d.append(f"H{x_hist(edges[-1]):.0f}V{base}Z")
            out.append(f'<path d="{"".join(d)}" fill="{color}" fill-opacity="0.6" stroke="{color}"/>')
        xs = sorted(s)
        m = len(xs)
        idx = sorted({round(k * (m - 1) / (CDF_POINTS - 1)) for k in range(CDF_POINTS)}) if m > CDF_POINTS \
            else list(range(m))
        x_at = round(x_cdf(xs[idx[0]]))
        pts, y_at, y_drawn = [f"M{x_at} {bottom}"], bottom, bottom
        for k in idx:                 # a run of steps on one pixel column is one vertical line
            x, y = round(x_cdf(xs[k])), round(bottom - (k + 1) / m * plot_h)
            if x != x_at:
                pts.append(("" if y_at == y_drawn else f"V{y_at}") + f"H{x}")
                x_at, y_drawn = x, y_at
            y_at = y
        pts.append("" if y_at == y_drawn else f"V{y_at}")
        out.append(f'<path d="{"".join(pts)}" fill="none" stroke="{color}" stroke-width="1.3">'
                   f'<title>{escape(label)}</title></path>')
    out.append("</svg>")
    return "".join(out)
