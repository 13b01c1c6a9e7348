"""Against silicon: an RTOS's own benchmark suite on the simulator, every score beside the one
its authors published for a real chip. The registry: one folder per kernel version in
`bench/silicon/<name>/`, its `reference.toml` (one reference, plus its [variants]: the same
sources built another way against another report) and the harness files standing for the
demo's HAL (main.c, hal.h, ...).

A reference names a pinned archive (extracted into build/peers like the ports' sources,
peers.py), the published report inside it, the board that stands for the chip, and how the
report's demo builds the suite. This module builds the suite with the project's
arm-none-eabi-gcc (`-O2` as the report, plus the flags that bring GCC 12 back to the report's
older GCC's inlining: `compat_cflags`), runs it on the board, and prints each benchmark's score,
the report's and the deviation. The reference's goal is printed, met or not; the check fails
(status 1) above its limit: the median |deviation| above `limit_median_pct`, or a deviation above
the goal's worst with no cause written in the reference's [causes]; missing sources or compiler: status 4 (skipped).

Another compiler (`--gcc PATH`, e.g. the older GCC `scripts/fetch_gcc8.sh` unpacks) shows how
far the scores move with the code generator alone: the columns are named by the compiler's version.

    python -m rtoslab.silicon [NAME ...] [--make-test] [--vp PATH] [--gcc PATH] [--no-compat] [--json FILE]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import peers
from .errors import BadInput, RtoslabError
from .manifest import repo_root
from .ports import Source

SKIPPED = peers.SOURCES_MISSING
GCC = "arm-none-eabi-gcc"
# "--- Test Case 11.4 (Benchmark, context switch)" then "--- Score : 356792 ctxswc/S"
CASE = re.compile(r"^--- Test Case (\S+) \((Benchmark, [^)]*)\)")
SCORE = re.compile(r"^--- Score : (\d+) ([^\s,]+)")


@dataclass(frozen=True)
class Reference:
    name: str
    folder: Path  # the harness files (main.c, hal.h, ...)
    spec: dict    # reference.toml, with a variant's keys applied

    @property
    def source(self) -> Source:
        s = self.spec["source"]
        return Source(s["archive"], s["dir"], s["upstream"], s["ref"], s["commit"], s["sha256"])


@dataclass(frozen=True)
class Score:
    case: str       # "11.4"
    title: str      # "Benchmark, context switch"
    unit: str       # "ctxswc/S"
    reference: int  # the report's
    measured: int   # the simulator's

    @property
    def deviation_pct(self) -> float:
        return 100.0 * (self.measured - self.reference) / self.reference


def references(root: Path | None = None) -> dict[str, Reference]:
    """Every reference of the registry by name: a folder's, then its variants' (`<folder>-<variant>`)."""
    base = (root or repo_root()) / "bench" / "silicon"
    out = {}
    for f in sorted(base.glob("*/reference.toml")):
        spec = tomllib.loads(f.read_text())
        variants = spec.pop("variants", {})
        out[f.parent.name] = Reference(f.parent.name, f.parent, spec)
        for suffix, changes in variants.items():
            name = f"{f.parent.name}-{suffix}"
            out[name] = Reference(name, f.parent, _with(spec, changes))
    return out


def _with(spec: dict, changes: dict) -> dict:
    """spec with a variant's keys: a table's keys one by one, any other value whole."""
    out = dict(spec)
    for k, v in changes.items():
        out[k] = {**spec[k], **v} if isinstance(v, dict) and isinstance(spec.get(k), dict) else v
    return out


def scores(text: str) -> dict[str, tuple[str, int, str]]:
    """The benchmark scores of a ChibiOS test-suite output: case -> (title, first figure, unit)."""
    out, case = {}, None
    for line in text.splitlines():
        m = CASE.match(line.strip())
        if m:
            case = (m.group(1), m.group(2))
            continue
        m = SCORE.match(line.strip())
        if m and case:
            out[case[0]] = (case[1], int(m.group(1)), m.group(2))
            case = None
    return out


def build(ref: Reference, src_root: Path, out: Path, compat: bool, gcc: str = GCC) -> Path:
    """The suite's image, built as the reference's demo builds it; raises BadInput with the
    compiler's first error line."""
    b = ref.spec["build"]
    cflags = list(b["cflags"]) + (list(b["compat_cflags"]) if compat else [])
    inc = [f"-I{ref.folder}", f"-I{repo_root() / 'bench' / 'boards' / 'common'}"]
    inc += [f"-I{src_root / d}" for d in b["includes"]]
    srcs = [str(ref.folder / "main.c")] + _found(ref, src_root, b["sources"])
    startup = _found(ref, src_root, b["startup"])
    out.mkdir(parents=True, exist_ok=True)
    objs = out / ("obj-compat" if compat else "obj")
    shutil.rmtree(objs, ignore_errors=True)
    objs.mkdir()
    ld = out / "flash0.ld"
    script = (src_root / b["ldscript"]).read_text()
    for old, new in b["ldscript_edits"]:
        if old not in script:
            raise BadInput(f"{ref.name}: {b['ldscript']} has no '{old}' to replace")
        script = script.replace(old, new)
    ld.write_text(script)
    elf = out / ("suite-compat.elf" if compat else "suite.elf")
    for files, extra in ((startup, b["startup_cflags"]), (srcs, [])):
        c = [f for f in files if f.endswith(".c")]
        asm = [f for f in files if f.endswith(".s")]
        if c:
            _gcc([gcc, *cflags, *extra, "-w", *inc, "-c", *c], objs)
        if asm:  # the ports' .s files go through the preprocessor (rules.mk: -x assembler-with-cpp)
            _gcc([gcc, *cflags, *inc, "-x", "assembler-with-cpp", "-c", *asm], objs)
    ldflags = [f.replace("{src}", str(src_root)) for f in b["ldflags"]]
    _gcc([gcc, *cflags, *sorted(str(p) for p in objs.glob("*.o")), *ldflags, f"-T{ld}",
          "-o", str(elf)], objs)
    return elf


def _found(ref: Reference, src_root: Path, patterns: list[str]) -> list[str]:
    out = []
    for pattern in patterns:
        found = sorted(glob.glob(str(src_root / pattern)))
        if not found:
            raise BadInput(f"{ref.name}: no source matches {pattern} in {src_root}")
        out += found
    return out


def gcc_version(gcc: str) -> str:
    """The compiler's name and version ("GCC 12.2.1", from `-dumpfullversion`); BadInput if it does
    not run."""
    try:
        r = subprocess.run([gcc, "-dumpfullversion"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise BadInput(f"--gcc {gcc}: cannot run it ({e.strerror})") from None
    if r.returncode != 0 or not r.stdout.strip():
        raise BadInput(f"--gcc {gcc}: not a GCC (-dumpfullversion gave status {r.returncode})")
    return f"GCC {r.stdout.strip()}"


def _gcc(cmd: list[str], cwd: Path) -> None:
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except OSError as e:
        raise BadInput(f"build failed: cannot run {cmd[0]} ({e.strerror})") from None
    if r.returncode != 0:
        first = next((ln for ln in r.stderr.splitlines() if "error" in ln), r.stderr.strip()[:200])
        raise BadInput(f"build failed: {first}")


def run(ref: Reference, elf: Path, vp: str) -> str:
    r = subprocess.run([vp, "run", str(elf), "--board", ref.spec["board"], "--max-cycles",
                        str(ref.spec.get("max_cycles", 2_000_000_000))],
                       capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise RtoslabError(f"{ref.name}: the suite exited with status {r.returncode}: {last}")
    return r.stdout


def compare(ref: Reference, src_root: Path, output: str) -> list[Score]:
    published = scores((src_root / ref.spec["report"]).read_text())
    measured = scores(output)
    missing = sorted(set(published) - set(measured))
    if missing:
        raise RtoslabError(f"{ref.name}: no score for test case(s) {', '.join(missing)}")
    return [Score(c, t, u, r, measured[c][1]) for c, (t, r, u) in published.items()]


def spread(columns: dict[str, list[Score]], names: list[str]) -> str:
    """How far the compilers move each score: per test case the largest minus the smallest
    deviation over the named columns (percentage points), then their median and maximum."""
    per_case = [(rows[0].case, max(r.deviation_pct for r in rows) - min(r.deviation_pct for r in rows))
                for rows in zip(*(columns[n] for n in names))]
    worst = max(per_case, key=lambda c: c[1])
    return (f"between {' and '.join(names)}: scores move by a median of "
            f"{statistics.median(d for _, d in per_case):.1f} points, at most {worst[1]:.1f} ({worst[0]})")


def summary(rows: list[Score]) -> tuple[float, float]:
    devs = [abs(s.deviation_pct) for s in rows]
    return statistics.median(devs), max(devs)


def table(columns: dict[str, list[Score]]) -> str:
    """One line per benchmark: the report's score, then each build's score and deviation."""
    names = list(columns)
    first = columns[names[0]]
    head = "| test case | unit | silicon | " + " | ".join(f"{n} | dev." for n in names) + " |"
    lines = [head, "|" + "---|" * (3 + 2 * len(names))]
    for i, s in enumerate(first):
        cells = [f"{columns[n][i].measured} | {columns[n][i].deviation_pct:+.1f} %" for n in names]
        lines.append(f"| {s.case} {s.title.removeprefix('Benchmark, ')} | {s.unit} | "
                     f"{s.reference} | " + " | ".join(cells) + " |")
    stats = [summary(columns[n]) for n in names]
    lines.append("| median / worst of \\|deviation\\| | | | " +
                 " | ".join(f"| {m:.1f} % / {w:.1f} %" for m, w in stats) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rtoslab.silicon", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="references (default: all in bench/silicon)")
    ap.add_argument("--make-test", action="store_true",
                    help="only the references make test runs (their make_test = true)")
    ap.add_argument("--vp", default=os.environ.get("RTOSLAB_VP",
                                                   str(repo_root() / "vp/target/release/rtoslab-vp")))
    ap.add_argument("--gcc", action="append", metavar="PATH",
                    help="an arm-none-eabi-gcc to build with (default: the one on PATH); repeat it to "
                         "compare compilers in one run (the first is the one checked); the columns are "
                         "named by each compiler's version")
    ap.add_argument("--no-compat", action="store_true",
                    help="check the plain -O2 build (without the flags for the report compiler's inlining)")
    ap.add_argument("--fetch", action="store_true", help="only extract the references' sources")
    ap.add_argument("--json", help="write the scores to this file")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep the built images in DIR/<reference>/ (suite-compat.elf, suite.elf), e.g. "
                         "for an instruction trace of a benchmark loop (docs/results.md)")
    a = ap.parse_args(argv)
    try:
        return _main(a)
    except RtoslabError as e:
        print(f"silicon: {e}", file=sys.stderr)
        return getattr(e, "status", 1)


def _main(a: argparse.Namespace) -> int:
    refs = references()
    unknown = [n for n in a.names if n not in refs]
    if unknown:
        raise BadInput(f"unknown reference {', '.join(unknown)} (known: {', '.join(refs)})")
    chosen = [refs[n] for n in (a.names or refs)]
    keep = _keep_dir(a.keep) if a.keep else None
    # a path is made absolute: the builds run in their object folders
    compilers = [str(Path(g).resolve()) if os.sep in g else g for g in a.gcc or [GCC]]
    for gcc in compilers:
        if gcc != GCC and shutil.which(gcc) is None:
            raise BadInput(f"--gcc {gcc}: no such program")
    if a.make_test:
        chosen = [r for r in chosen if r.spec.get("make_test", False)]
    status, dump = 0, {}
    for ref in chosen:
        got = peers.fetch_one(ref.source, clone=False)
        if not got.ok:
            print(f"skip {ref.name}: {got.how}")
            status = status or SKIPPED
            continue
        if a.fetch:
            continue
        if shutil.which(compilers[0]) is None:
            print(f"skip {ref.name}: {GCC} not installed")
            status = status or SKIPPED
            continue
        src_root = peers.extracted_root() / ref.source.dir
        cols, compat_names = {}, []
        with tempfile.TemporaryDirectory(prefix="silicon-") as tmp:
            for gcc in compilers:
                version = gcc_version(gcc)
                names = (f"{version} + {ref.spec['compiler'].rsplit('.', 1)[0]} inlining", f"{version} -O2")
                compat_names.append(names[0])
                # one folder per compiler when several build the same reference
                sub = version.replace(" ", "-") if len(compilers) > 1 else ""
                out = (keep / ref.name if keep else Path(tmp)) / sub
                out.mkdir(parents=True, exist_ok=True)
                for compat, name in zip((True, False), names):
                    elf = build(ref, src_root, out, compat, gcc)
                    cols[name] = compare(ref, src_root, run(ref, elf, a.vp))
        checked_name = list(cols)[1 if a.no_compat else 0]
        print(f"{ref.spec['summary']}, on {ref.spec['board']}, against {ref.spec['report']}")
        print(table(cols))
        if len(compat_names) > 1:
            print(spread(cols, compat_names))
        checked = cols[checked_name]
        med, worst = summary(checked)
        goal_m, goal_w = ref.spec["goal_median_pct"], ref.spec["goal_worst_pct"]
        causes = ref.spec.get("causes", {})
        for s in checked:
            if s.case in causes:
                print(f"  {s.case} {s.deviation_pct:+.1f} %: {causes[s.case]}")
        unexplained = [s for s in checked if s.case not in causes]
        worst_unexplained = max((abs(s.deviation_pct) for s in unexplained), default=0.0)
        goal_met = med <= goal_m and worst <= goal_w
        within = med <= ref.spec["limit_median_pct"] and worst_unexplained <= goal_w
        print(f"{ref.name}: median |deviation| {med:.1f} %, worst {worst:.1f} % "
              f"({worst_unexplained:.1f} % without a written cause); the goal (median <= {goal_m} %, "
              f"worst <= {goal_w} %) {'is met' if goal_met else 'is NOT met'}; the limit (median <= "
              f"{ref.spec['limit_median_pct']} %, no deviation over {goal_w} % without its cause): "
              f"{'ok' if within else 'EXCEEDED'}")
        if not within:
            status = 1
        dump[ref.name] = {n: [s.__dict__ for s in rows] for n, rows in cols.items()}
    if a.json:
        Path(a.json).write_text(json.dumps(dump, indent=1) + "\n")
    return status


def _keep_dir(path: str) -> Path:
    """The folder `--keep` names, created if missing; BadInput if it cannot be."""
    d = Path(path)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadInput(f"--keep {path}: cannot create the folder ({e.strerror})") from None
    return d


if __name__ == "__main__":
    sys.exit(main())
