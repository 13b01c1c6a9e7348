#!/usr/bin/env python3
"""Print the suite table of docs/results.md (p50 / max per RTOS, and rtoslab's ratio to
FreeRTOS) from a result file of `rtoslab run --json FILE`, in the order of interfaces.md.
Usage: .venv/bin/python scripts/results_table.py FILE"""
import json
import sys

from rtoslab.ids import metric_order

ORDER = ["rtoslab", "freertos", "baremetal"]


def cell(m):
    if m is None:
        return ""
    if m.get("absent"):
        return "absent"
    return f"{m['p50']} / {m['max']}"


def main(path):
    runs = {r["rtos"]: r for r in json.load(open(path))["runs"]}
    names = [n for n in ORDER if n in runs] + sorted(set(runs) - set(ORDER))
    by = {n: {m["id"]: m for m in runs[n]["results"]} for n in names}
    for n in names:
        for a in runs[n].get("absent", []):
            by[n].setdefault(a["id"], {"absent": True})
    ids = sorted(dict.fromkeys(i for n in names for i in by[n]), key=metric_order)
    print("| metric (p50 / max) | " + " | ".join(names) + " | rtoslab ÷ freertos |")
    print("|---|" + "---|" * len(names) + "---|")
    for i in ids:
        row = [cell(by[n].get(i)) for n in names]
        a, b = by.get("rtoslab", {}).get(i), by.get("freertos", {}).get(i)
        ratio = ""
        if a and b and not a.get("absent") and not b.get("absent") and b["p50"] > 0 and a["p50"] >= 0:
            ratio = f"{a['p50'] / b['p50']:.2f}"
        print(f"| `{i}` | " + " | ".join(row) + f" | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: results_table.py RESULT.json")
    main(sys.argv[1])
