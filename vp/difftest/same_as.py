#!/usr/bin/env python3
"""Do two simulator binaries behave the same? Runs both on the same images and compares
everything they write: exit status, console (stdout), stderr, the JSONL event trace and, on
request, an instruction trace over a window of cycles. Reports the first difference of each
image; exit status 0 only if every image ran identically on both.

    python3 vp/difftest/same_as.py OLD_BIN NEW_BIN vp-m0=build/fw/vp-m0 vp-m3=fw.elf ...
        [--a-flags '--board {board}'] [--b-flags '--core cortex-m3'] [--itrace-window A:B]
        [--glob 'bench-*.elf'] [--max-cycles N] [-j 2]

Each job is BOARD=PATH: PATH is one ELF or a folder (its files matching --glob). Each side
runs `BIN run ELF FLAGS --trace T` where FLAGS is --a-flags / --b-flags with {board}
replaced (default `--board {board}` for both); so `--b-flags '--core cortex-m3'` checks that
a board given by its core runs as the built-in profile does. Used before merging any change
that must not move a cycle (a refactor of vp/). Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import filecmp
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def run(binary: str, elf: Path, flags: list[str], out: Path, window: str | None,
        max_cycles: str | None) -> dict:
    """Run one image; return the status and the paths of what it wrote."""
    trace, itrace = out / "trace.jsonl", out / "itrace.txt"
    cmd = [binary, "run", str(elf), *flags, "--trace", str(trace)]
    if window:
        cmd += ["--itrace", str(itrace), "--itrace-window", window]
    if max_cycles:
        cmd += ["--max-cycles", max_cycles]
    with open(out / "stdout", "wb") as so, open(out / "stderr", "wb") as se:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=so, stderr=se, timeout=3600)
    files = {"stdout": out / "stdout", "stderr": out / "stderr", "trace": trace}
    if window:
        files["itrace"] = itrace
    return {"status": p.returncode, "files": files, "cmd": " ".join(map(shlex.quote, cmd))}


def first_difference(a: Path, b: Path) -> str | None:
    """None if the files are identical, else the first differing line of each."""
    if not a.exists() or not b.exists():
        return None if a.exists() == b.exists() else f"only one side wrote {a.name}"
    if filecmp.cmp(a, b, shallow=False):  # the common case, fast; lines only to show a difference
        return None
    with open(a, "rb") as fa, open(b, "rb") as fb:
        n = 0
        while True:
            la, lb = fa.readline(), fb.readline()
            n += 1
            if la != lb:
                def show(s):
                    return s[:300].decode(errors="replace").rstrip("\n") or "<end of file>"
                return f"line {n}:\n      A: {show(la)}\n      B: {show(lb)}"
            if not la:
                return None


def compare(job: tuple[str, Path], args: argparse.Namespace) -> tuple[str, str | None, int, int]:
    """(label, the first difference or None, trace size, exit status)."""
    board, elf = job
    with tempfile.TemporaryDirectory(prefix="same_as-") as tmp:
        sides = []
        for name, binary, flags in (("a", args.a, args.a_flags), ("b", args.b, args.b_flags)):
            d = Path(tmp) / name
            d.mkdir()
            fl = shlex.split(flags.format(board=board))
            sides.append(run(binary, elf, fl, d, args.itrace_window, args.max_cycles))
        a, b = sides
        label = f"{board} {elf}"
        if a["status"] != b["status"]:
            return label, f"exit status {a['status']} vs {b['status']}\n    A: {a['cmd']}\n    B: {b['cmd']}", 0, 0
        for what in a["files"]:
            d = first_difference(a["files"][what], b["files"][what])
            if d:
                return label, f"{what} differs at {d}\n    A: {a['cmd']}\n    B: {b['cmd']}", 0, 0
        size = a["files"]["trace"].stat().st_size if a["files"]["trace"].exists() else 0
        return label, None if a["status"] >= 0 else "killed by a signal", size, a["status"]


def jobs_of(specs: list[str], pattern: str) -> list[tuple[str, Path]]:
    jobs = []
    for spec in specs:
        board, sep, path = spec.partition("=")
        if not sep:
            raise SystemExit(f"same_as: job '{spec}' is not BOARD=PATH")
        p = Path(path)
        if p.is_dir():
            found = sorted(p.glob(pattern))
            if not found:
                raise SystemExit(f"same_as: no {pattern} in {p}")
            jobs += [(board, f) for f in found]
        elif p.is_file():
            jobs.append((board, p))
        else:
            raise SystemExit(f"same_as: {p} does not exist")
    return jobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the reference simulator binary (A)")
    ap.add_argument("b", help="the simulator binary under test (B)")
    ap.add_argument("jobs", nargs="+", metavar="BOARD=PATH")
    ap.add_argument("--a-flags", default="--board {board}")
    ap.add_argument("--b-flags", default="--board {board}")
    ap.add_argument("--glob", default="bench-*.elf", help="files of a folder to run (default bench-*.elf)")
    ap.add_argument("--itrace-window", metavar="A:B", help="also compare --itrace over this window")
    ap.add_argument("--max-cycles", metavar="N")
    ap.add_argument("-j", type=int, default=1, help="images run at once (default 1)")
    args = ap.parse_args(argv)
    jobs = jobs_of(args.jobs, args.glob)
    bad = 0
    with cf.ThreadPoolExecutor(max_workers=args.j) as ex:
        for res in ex.map(lambda j: compare(j, args), jobs):
            if res[1] is not None:
                bad += 1
                print(f"DIFFERENT {res[0]}: {res[1]}", flush=True)
            else:
                print(f"same      {res[0]} (status {res[3]}, trace {res[2]} bytes)", flush=True)
    print(f"same_as: {len(jobs) - bad} of {len(jobs)} images identical"
          f" ({', '.join(sorted({b for b, _ in jobs}))})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
