#!/usr/bin/env python3
"""What each of the rtoslab kernel's documented checks costs, per hot path, from runs.

    .venv/bin/python scripts/check_costs.py RUN.json [RUN.json ...]

Each file holds runs of `rtoslab` (every check on, the suite's configuration) and of the ports
shown for information that turn one check off (`rtoslab-nochecks`: K_CONFIG_CHECKS=0,
`rtoslab-nostackcheck`: K_CONFIG_STACK_CHECK=0); one Markdown table per board and profile:
the p50 of every hot path (and its `.live` variant) and Thread-Metric throughput with every
check on, and with each check off (the difference in brackets: what the check costs; a
throughput's is in operations per 10^7 cycles, higher with the check off). docs/kernel-costs.md,
"What the checks cost", is this output.
"""
import json
import sys

from rtoslab.contract import HOT_PATHS, HOT_PATHS_LIVE
from rtoslab.ids import metric_order

# The variants, each one check off (bench/ports/<id>/port.toml), and the option it sets.
VARIANTS = (("rtoslab-nochecks", "K_CONFIG_CHECKS=0"), ("rtoslab-nostackcheck", "K_CONFIG_STACK_CHECK=0"))


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["runs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"check_costs: {path}: not a result file ({e})")


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


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
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
