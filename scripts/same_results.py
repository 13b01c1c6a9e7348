#!/usr/bin/env python3
"""Whether two result files measured the same thing: for every (RTOS, board), the same
metrics with the same raw samples (and probe samples), the same absent metrics and the same
checks. What may differ is what the files say about when and how they were made (time, git
revision, flags, paths, sizes). The check a merge of simulator, kernel or suite changes must
pass where they claim to change no cycle.

    python3 scripts/same_results.py BASE.json NEW.json [--rtos ID,...]

Prints one line per difference (the first few of each run) and a closing line; exits 0 when
the files agree, 1 when they differ, 2 on bad input.
"""
from __future__ import annotations

import argparse
import json
import sys


def load(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        return {(r["rtos"], r["board"]): r for r in doc["runs"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"same_results: {path}: not a result file ({e})", file=sys.stderr)
        sys.exit(2)


def measured(run: dict) -> dict:
    return {m["id"]: (m.get("samples"), m.get("probe"), m.get("cold")) for m in run.get("results", [])}


def compare(base: dict, new: dict, only: set | None) -> list[str]:
    out = []
    for key in sorted(set(base) | set(new)):
        if only and key[0] not in only:
            continue
        name = f"{key[0]}@{key[1]}"
        if key not in base or key not in new:
            out.append(f"{name}: only in {'the new' if key in new else 'the base'} file")
            continue
        b, n = base[key], new[key]
        mb, mn = measured(b), measured(n)
        diffs = [f"{name}: {mid}: {'missing' if mid not in mn else 'added' if mid not in mb else 'samples differ'}"
                 for mid in sorted(set(mb) | set(mn)) if mb.get(mid) != mn.get(mid)]
        ab = {a["id"]: a.get("reason") for a in b.get("absent", [])}
        an = {a["id"]: a.get("reason") for a in n.get("absent", [])}
        if ab != an:
            diffs.append(f"{name}: absent metrics differ")
        # a check's verdict and its detail (which carries measured figures: a timeout's cycles)
        cb = {c["id"]: (c.get("passed"), c.get("detail")) for c in b.get("checks", [])}
        cn = {c["id"]: (c.get("passed"), c.get("detail")) for c in n.get("checks", [])}
        if cb != cn:
            diffs.append(f"{name}: checks differ")
        out += diffs[:5] + ([f"{name}: ... {len(diffs) - 5} more"] if len(diffs) > 5 else [])
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="same_results.py", description=__doc__.strip().splitlines()[0])
    ap.add_argument("base", metavar="BASE.json")
    ap.add_argument("new", metavar="NEW.json")
    ap.add_argument("--rtos", metavar="ID,...", help="compare only these RTOSes")
    args = ap.parse_args(argv)  # bad arguments: usage and one line, status 2
    only = set(args.rtos.split(",")) if args.rtos else None
    base, new = load(args.base), load(args.new)
    diffs = compare(base, new, only)
    for d in diffs:
        print(d)
    runs = len(set(base) | set(new))
    metrics = sum(len(measured(r)) for r in new.values())
    print(f"{runs} runs, {metrics} metrics: {'identical samples' if not diffs else f'{len(diffs)} differences'}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
