#!/usr/bin/env python3
"""What each of the rtoslab kernel's documented checks costs, per hot path, from runs.

    .venv/bin/python scripts/check_costs.py RUN.json [RUN.json ...]
    .venv/bin/python scripts/check_costs.py --not-met RUN.json [RUN.json ...]

Each file holds runs of `rtoslab` (every check on, the suite's configuration) and of the ports
shown for information that turn one check off (`rtoslab-nochecks`: K_CONFIG_CHECKS=0,
`rtoslab-nostackcheck`: K_CONFIG_STACK_CHECK=0); one Markdown table per board and profile:
the p50 of every hot path (and its `.live` variant) and Thread-Metric throughput with every
check on, and with each check off (the difference in brackets: what the check costs; a
throughput's is in operations per 10^7 cycles, higher with the check off). docs/kernel-costs.md,
"What the checks cost", is this output.

With --not-met: one table over all the files, a row for each goal row another RTOS wins
(scripts/results_table.py --not-met): rtoslab's figure, the leader's, and with each check
off the figure and whether the row would then be met; what the checks explain of each gap.
Exits 0, or 2 on bad input (one line).
"""
import json
import sys

from results_table import gap, goal_rows
from results_table import load as load_table
from rtoslab.contract import HOT_PATHS, HOT_PATHS_LIVE
from rtoslab.ids import metric_order
from rtoslab.ports import registry

# The variants, each one check off (bench/ports/<id>/port.toml), and the option it sets.
VARIANTS = (("rtoslab-nochecks", "K_CONFIG_CHECKS=0"), ("rtoslab-nostackcheck", "K_CONFIG_STACK_CHECK=0"))


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["runs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"check_costs: {path}: not a result file ({e})", file=sys.stderr)
        sys.exit(2)


def cell(base, v):
    if v is None:
        return "—"
    return f"{v} ({v - base:+d})" if base is not None else str(v)


def table(board, profile, by):
    mine = by["rtoslab"]
    have = [(rid, opt) for rid, opt in VARIANTS if rid in by]
    print(f"`{board}`, profile `{profile}` (p50; cycles, `tm.*` operations per 10^7 cycles):\n")
    print("| metric | every check on | " + " | ".join(f"`{opt}`" for _, opt in have) + " |")
    print("|---|---|" + "---|" * len(have))
    tm = sorted((i for i in mine if i.startswith("tm.")), key=metric_order)
    for i in HOT_PATHS + HOT_PATHS_LIVE + tuple(tm):
        base = mine.get(i)
        if base is None:
            continue
        print(f"| `{i}` | {base} | " + " | ".join(cell(base, by[rid].get(i)) for rid, _ in have) + " |")
    print()


def not_met(paths):
    """The goal rows another RTOS wins, with each check's variant beside rtoslab's figure."""
    reg = registry()
    print("| board, profile | metric | rtoslab | leader | gap | "
          + " | ".join(f"`{opt}`: figure, gap" for _, opt in VARIANTS) + " |")
    print("|---|---|---|---|---|" + "---|" * len(VARIANTS))
    rows = explained = 0
    for path in paths:
        load(path)  # bad input: one line, status 2
        runs, names, by = load_table(path)
        some = next(iter(runs.values()))
        where = f"`{some.get('board', '?')}` {some.get('profile', 'size')}"
        for i, mine, best, lead, _ in goal_rows(names, by):
            if lead:
                continue
            rows += 1
            cells = []
            for rid, _ in VARIANTS:
                v = by.get(rid, {}).get(i, {}).get("p50")
                cells.append("—" if v is None else f"{v}, {gap(i, v, best[0])}")
                if v is not None and gap(i, v, best[0]) == "met":
                    explained += 1
            name = reg[best[1]].name if best[1] in reg else best[1]
            print(f"| {where} | `{i}` | {mine} | {name} {best[0]} | {gap(i, mine, best[0])} | "
                  + " | ".join(cells) + " |")
    print(f"\n{rows} rows not met; with one check off, {explained} of them would be.")
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "--not-met":
        if len(argv) < 2:
            print("check_costs: --not-met needs result files", file=sys.stderr)
            return 2
        return not_met(argv[1:])
    groups = {}
    for path in argv:
        for run in load(path):
            key = (run.get("board", "?"), run.get("profile", "size"))
            groups.setdefault(key, {})[run["rtos"]] = {
                e["id"]: e["p50"] for e in run.get("results", []) if e.get("p50") is not None}
    shown = 0
    for (board, profile), by in groups.items():
        if "rtoslab" in by and any(rid in by for rid, _ in VARIANTS):
            table(board, profile, by)
            shown += 1
    if not shown:
        print("check_costs: no file holds runs of rtoslab and of a variant with a check off "
              "(rtoslab run --rtos rtoslab,rtoslab-nochecks,rtoslab-nostackcheck)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
