"""The side-by-side table: one row per metric, the RTOSes' columns next to each other."""
from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from . import contract, standing
from .contract import METRICS
from .ids import direction, metric_order
from .stats import fmt_time

COLS = ("min", "p50", "mean", "p99", "max", "stdev")


def _num(v, key) -> str:
    if v is None:
        return "-"
    if key in ("mean", "stdev"):
        return f"{v:.1f}"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.1f}"
    return str(int(v))


def time_of(entry: dict, clock_hz, key: str = "p50") -> str:
    """The statistic as a time: cycles at the board clock, or a unit of time as it is."""
    unit = entry.get("unit", "cycles")
    v = entry.get(key)
    if v is None:
        return ""
    if unit == "cycles":
        return fmt_time(v / clock_hz) if clock_hz else ""
    scale = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}.get(unit)
    return fmt_time(v * scale) if scale else ""


def matrix(runs: list[dict]) -> tuple[list[str], list[str], dict]:
    """(metric ids in order, run labels, cells[(metric, label)] = entry or ('absent', reason))."""
    labels = []
    cells = {}
    ids = set()
    boards = {r["board"] for r in runs}
    for r in runs:
        label = r["rtos"] if len(boards) == 1 else f"{r['rtos']}@{r['board']}"
        base, k = label, 2
        while label in labels:
            label = f"{base}#{k}"
            k += 1
        labels.append(label)
        for e in r.get("results", []):
            cells[(e["id"], label)] = e
            ids.add(e["id"])
        for a in r.get("absent", []):
            if a["id"].startswith("check."):
                continue            # an absent check is the checks' table's, not a metric
            cells[(a["id"], label)] = ("absent", a.get("reason", ""))
            ids.add(a["id"])
        for a in r.get("incomplete", []):
            cells[(a["id"], label)] = ("incomplete", a.get("reason", ""))
            ids.add(a["id"])
    return sorted(ids, key=metric_order), labels, cells


def shown(runs: list[dict]) -> list[dict]:
    """The runs that have something to show (a run whose image did not build has nothing)."""
    return [r for r in runs if r.get("results") or r.get("absent") or r.get("incomplete")] or runs[:1]


def rich_tables(runs: list[dict], title: str | None = None) -> list[Table]:
    """Every statistic of every metric (--wide): the common metrics, then each RTOS's own
    metrics in a section with only its columns (specific_sections)."""
    runs = shown(runs)
    ids, labels, cells = matrix(runs)
    clocks = {lab: r.get("clock_hz") for lab, r in zip(labels, runs)}
    units = sorted({e.get("unit", "cycles") for r in runs for e in r.get("results", [])
                    if not e.get("unit", "cycles").startswith("ops")}) or ["cycles"]
    common, sections = specific_sections(ids, labels, cells)
    tables = [_stats_table(common, labels, cells, clocks, title, f"metric ({', '.join(units)})")]
    for owners, mids in sections:
        head = f"{', '.join(owners)}: {'its' if len(owners) == 1 else 'their'} own metrics"
        tables.append(_stats_table(mids, list(owners), cells, clocks, head, "metric"))
    return tables


def _stats_table(ids: list[str], labels: list[str], cells: dict, clocks: dict, title: str | None,
                 first: str) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, show_lines=False, pad_edge=False,
              header_style="bold", title_justify="left")
    t.add_column(first, no_wrap=True)
    for lab in labels:
        for i, col in enumerate(COLS):
            t.add_column(f"{lab}\n{col}" if i == 0 else f"\n{col}", justify="right", no_wrap=True)
        t.add_column("\np50 time", justify="right", no_wrap=True, style="cyan")
    for mid in ids:
        row = [mid]
        for lab in labels:
            c = cells.get((mid, lab))
            if c is None:
                row += [""] * (len(COLS) + 1)
            elif isinstance(c, tuple):
                row += [f"[yellow]{c[0]}[/]"] + [""] * len(COLS)
            else:
                row += [_num(c.get(k), k) for k in COLS]
                row.append(time_of(c, clocks.get(lab)))
        t.add_row(*row)
    return t


ARROWS = {"lower": "↓ lower", "higher": "↑ higher", "zero": "→ 0 (|error|)", "none": "not ranked"}


def better(metric_id: str, unit: str = "cycles") -> str:
    """Which way is better, as a table shows it (the contract's direction, ids.direction)."""
    return ARROWS[direction(metric_id, unit)]


def _baseline_of(mid: str, labels: list[str], cells: dict, baseline: str | None) -> float | None:
    """The p50 the ratios of a row are taken against: the named baseline's, or the best RTOS's
    (standing.best: by the metric's direction, the floor never the best)."""
    vals = {lab: c.get("p50") for lab in labels
            if isinstance(c := cells.get((mid, lab)), dict) and c.get("p50") is not None}
    if baseline is not None:
        return vals.get(baseline)
    unit = next((cells[(mid, lab)].get("unit", "cycles") for lab in vals), "cycles")
    return standing.best(mid, vals, unit)


def ratio_text(mid: str, v, base, unit: str = "cycles") -> str:
    """×r against the baseline, r > 1 always meaning worse (standing.ratio); none for 0 or absent."""
    r = standing.ratio(mid, v, base, unit)
    if r is None:
        return ""
    return f"×{r:.2f}" if r < 10 else f"×{r:.0f}"


def key_ids(ids: list[str]) -> list[str]:
    """The metrics the default table shows: the hot paths (spec/contracts.toml [hot_paths]) and
    Thread-Metric's throughputs, the two answers to "what will it cost me"."""
    hot = set(contract.HOT_PATHS)
    return [m for m in ids if m in hot or m.startswith("tm.")]


def specific_sections(ids: list[str], labels: list[str], cells: dict) -> tuple[list[str], list]:
    """(the metrics every RTOS is measured on or absent from, [(labels, ids)]): a metric the
    contract does not define (`contiki.*`, an RTOS's own) goes to a section of its own with only
    the columns of the runs that report it, once, instead of an empty row under every other RTOS."""
    common, sections = [], {}
    for mid in ids:
        if mid in contract.METRICS:
            common.append(mid)
            continue
        owners = tuple(lab for lab in labels if (mid, lab) in cells)
        sections.setdefault(owners, []).append(mid)
    return common, list(sections.items())


def compact_tables(runs: list[dict], width: int, baseline: str | None = None,
                   title: str | None = None, focus: bool = False) -> list:
    """The decision table: metric, unit, better direction, then per RTOS its p50 and its ratio
    to the baseline (default: the best p50 of the row, ×1.00; a ratio above 1 is worse). RTOS
    columns that do not fit `width` go on to a second table with the metric column again.
    focus: only the key metrics (key_ids), the count of the others in the caption. RTOS-specific
    metrics follow in their own sections (specific_sections), unless focus leaves them out.
    Returns the tables, then the notes (rich Text) to print below them."""
    runs = shown(runs)
    ids, labels, cells = matrix(runs)
    if baseline is not None and baseline not in labels:
        baseline = None
    common, sections = specific_sections(ids, labels, cells)
    against = (f"the baseline ({baseline}); ×1.00 is the baseline" if baseline else
               "the best RTOS of the row (the floor, baremetal, is not ranked); ×1.00 is the best")
    caption = f"p50 and ×ratio to {against}"
    notes = []
    if focus:
        # the key metrics, and any a run could not finish (a failure is never out of sight)
        cut = {m for (m, _lab), c in cells.items() if isinstance(c, tuple) and c[0] == "incomplete"}
        key = [m for m in common if m in set(key_ids(common)) | cut]
        rest = len(ids) - len(key)
        if key and rest:
            notes.append(f"the hot paths and Thread-Metric; {rest} more metrics with --wide (every "
                         "metric, every statistic), --tests PATTERN, or in `rtoslab report`")
            common, sections = key, []
            none = [lab for lab in labels if not any(isinstance(cells.get((m, lab)), dict) for m in key)]
            if none and len(none) < len(labels):
                notes.append(f"{', '.join(none)}: none of these measured (--wide shows what is)")
                labels = [lab for lab in labels if lab not in none]
    tables: list = _compact(common, labels, cells, width, baseline, title, caption)
    for owners, mids in sections:
        head = f"{', '.join(owners)}: {'its' if len(owners) == 1 else 'their'} own metrics"
        tables += _compact(mids, list(owners), cells, width, None, head, None)
    return tables + [Text(n) for n in notes]


def _compact(ids: list[str], labels: list[str], cells: dict, width: int, baseline: str | None,
             title: str | None, caption: str | None) -> list[Table]:
    units = {}
    for (mid, _lab), c in cells.items():
        if isinstance(c, dict):
            units.setdefault(mid, c.get("unit", "cycles"))
    text = {}                       # (metric, label): (markup, printed width)
    for mid in ids:
        unit = units.get(mid, "cycles")
        base = _baseline_of(mid, labels, cells, baseline)
        for lab in labels:
            c = cells.get((mid, lab))
            if c is None:
                text[(mid, lab)] = ("", 0)
            elif isinstance(c, tuple):
                text[(mid, lab)] = (f"[yellow]{c[0]}[/]", len(c[0]))
            else:
                v = _num(c.get("p50"), "p50")
                r = ratio_text(mid, c.get("p50"), base, unit) if len(labels) > 1 else ""
                text[(mid, lab)] = (f"{v} [dim]{r}[/]", len(v) + 1 + len(r)) if r else (v, len(v))
    # columns as wide as their widest cell; those that do not fit `width` go on to the next table
    fixed = max([len("metric")] + [len(m) for m in ids]) + len("ops/1e7 cyc") + len("→ 0 (|error|)") + 6
    need = {lab: max([len(lab)] + [text[(m, lab)][1] for m in ids]) + 2 for lab in labels}
    groups, room = [[]], max(width, 60) - fixed
    for lab in labels:
        if groups[-1] and sum(need[g] for g in groups[-1]) + need[lab] > room:
            groups.append([])
        groups[-1].append(lab)
    tables = []
    for gi, group in enumerate(groups):
        t = Table(title=title if gi == 0 else None, box=box.SIMPLE_HEAD, pad_edge=False,
                  header_style="bold", title_justify="left",
                  caption=caption if gi == len(groups) - 1 else None, caption_justify="left")
        t.add_column("metric", no_wrap=True)
        t.add_column("unit", no_wrap=True)
        t.add_column("better", no_wrap=True)
        for lab in group:
            t.add_column(lab, justify="right", no_wrap=True)
        for mid in ids:
            unit = units.get(mid) or METRICS.get(mid, ("cycles",))[0]  # a row absent everywhere: the contract's
            unit_txt = "ops/1e7 cyc" if unit.startswith("ops") else unit
            t.add_row(mid, unit_txt, better(mid, unit), *(text[(mid, lab)][0] for lab in group))
        tables.append(t)
    return tables


def table_width(runs: list[dict]) -> int:
    """The width the table needs to show every cell whole."""
    from rich.console import Console
    import io
    c = Console(file=io.StringIO(), width=1000)
    return max(c.measure(t).maximum for t in rich_tables(runs)) + 2 if runs else 80


def markdown_table(runs: list[dict], keys=COLS, with_time=True) -> str:
    ids, labels, cells = matrix(runs)
    clocks = {lab: r.get("clock_hz") for lab, r in zip(labels, runs)}
    head = ["metric"]
    for lab in labels:
        head += [f"{lab} {k}" for k in keys] + ([f"{lab} p50 time"] if with_time else [])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for mid in ids:
        row = [f"`{mid}`"]
        for lab in labels:
            c = cells.get((mid, lab))
            if c is None:
                row += [""] * (len(keys) + with_time)
            elif isinstance(c, tuple):
                row += [f"*{c[0]}*"] + [""] * (len(keys) - 1 + with_time)
            else:
                row += [_num(c.get(k), k) for k in keys]
                if with_time:
                    hz = clocks.get(lab)
                    row.append(time_of(c, hz))
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)
