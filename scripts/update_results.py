#!/usr/bin/env python3
"""Regenerate the generated parts of README.md and docs/results.md from result files.

    .venv/bin/python scripts/update_results.py DIR             rewrite every generated block from DIR
    .venv/bin/python scripts/update_results.py DIR --check     exit 1 if a block is not what DIR gives
    .venv/bin/python scripts/update_results.py DIR --run [--jobs N]
                      first make the runs the blocks name that DIR lacks, then rewrite

A generated block is a line `<!-- results_table: ARGS -->`, the text, and a line
`<!-- /results_table -->`; ARGS are scripts/results_table.py's arguments, each result file named
by its name in DIR (the comment says which command prints the block: a reader can run it). A file
named BOARD.json is `rtoslab run --rtos all --board BOARD`, BOARD-speed.json the same with
`--profile speed`: --run makes those; any other name must be in DIR. Prose lines of the output
(not table rows) are wrapped at 95 columns, as the documents are. A result file of a run stopped
before its end (`"interrupted": true`) is refused. Status: 0 done (or, with --check, up to
date), 1 a block differs (--check), 2 bad input (one line).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = (ROOT / "README.md", ROOT / "docs" / "results.md")
TABLE = ROOT / "scripts" / "results_table.py"
BEGIN = re.compile(r"^<!-- results_table: (.+?) -->$")
END = "<!-- /results_table -->"
WIDTH = 95
RUN_NAME = re.compile(r"^(?P<board>[a-z0-9-]+?)(?P<speed>-speed)?\.json$")


def blocks(text: str, doc: Path):
    """(first line, last line, args) of each generated block; a block left open is bad input."""
    lines = text.split("\n")
    found, i = [], 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            j = next((k for k in range(i + 1, len(lines)) if lines[k] == END), None)
            if j is None:
                raise SystemExit(f"update_results: {doc.name}:{i + 1}: a block without its {END} line")
            found.append((i, j, m.group(1).split()))
            i = j
        i += 1
    return found


def files_of(args: list[str]) -> list[str]:
    return [a for a in args if a.endswith(".json")]


def wrap(text: str) -> str:
    """Table rows as they are; each prose paragraph wrapped (digit groups kept together)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("|") or not line.strip():
            out.append(line)
            continue
        kept = re.sub(r"(\d) (\d)", "\\1\u00a0\\2", line)
        out += [w.replace("\u00a0", " ") for w in
                textwrap.wrap(kept, WIDTH, break_on_hyphens=False, break_long_words=False)]
    return "\n".join(out)


def generate(args: list[str], runs: Path) -> str:
    argv = [str(runs / a) if a.endswith(".json") else a for a in args]
    done = subprocess.run([sys.executable, str(TABLE), *argv], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"update_results: results_table.py {' '.join(args)}: "
                         f"{(done.stderr.strip().splitlines() or ['failed'])[-1]}")
    return wrap(done.stdout.strip("\n"))


def make_runs(names: set[str], runs: Path, jobs: int) -> None:
    """The runs the blocks name that the folder lacks (BOARD.json, BOARD-speed.json)."""
    rtoslab = ROOT / ".venv" / "bin" / "rtoslab"
    for name in sorted(names):
        if (runs / name).exists():
            continue
        m = RUN_NAME.match(name)
        if not m:
            raise SystemExit(f"update_results: {runs / name}: missing, and not a name --run can make "
                             f"(BOARD.json or BOARD-speed.json)")
        cmd = [str(rtoslab), "run", "--rtos", "all", "--board", m["board"], "--jobs", str(jobs),
               "-q", "--no-history", "--json", str(runs / name)]
        if m["speed"]:
            cmd[6:6] = ["--profile", "speed"]
        print("update_results:", " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
            raise SystemExit(f"update_results: the run for {name} failed (its result file keeps what was measured)")


def refuse_partial(names: set[str], runs: Path) -> None:
    """A run stopped before its end (`"interrupted": true`: rtoslab keeps what it measured) is
    not a table's source: say so rather than print a table short of RTOSes."""
    for name in sorted(names):
        try:
            interrupted = json.loads((runs / name).read_text()).get("interrupted")
        except (ValueError, AttributeError):
            continue  # results_table.py says what is wrong with it
        if interrupted:
            raise SystemExit(f"update_results: {runs / name}: an interrupted run, not a whole one "
                             f"(remove it; --run makes it again)")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="update_results.py", description=__doc__.split("\n")[0])
    ap.add_argument("runs", type=Path, help="the folder of the result files")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a block differs")
    ap.add_argument("--run", action="store_true", help="first make the runs the blocks name that are missing")
    ap.add_argument("--jobs", type=int, default=2, help="--jobs of those runs (default 2)")
    ap.add_argument("--docs", type=Path, nargs="+", default=list(DOCS),
                    help="the documents whose blocks to regenerate (default: README.md, docs/results.md)")
    a = ap.parse_args(argv)
    if not a.runs.is_dir():
        print(f"update_results: {a.runs}: not a folder", file=sys.stderr)
        return 2
    try:
        docs = [d.resolve() for d in a.docs]
        texts = {doc: doc.read_text() for doc in docs}
        found = {doc: blocks(texts[doc], doc) for doc in docs}
        names = {f for doc in docs for _, _, args in found[doc] for f in files_of(args)}
        if a.run:
            make_runs(names, a.runs, a.jobs)
            # the runs take many minutes: read the documents again, so that what was committed
            # to them meanwhile (a merge) is kept, not overwritten by the text read before
            texts = {doc: doc.read_text() for doc in docs}
            found = {doc: blocks(texts[doc], doc) for doc in docs}
            names = {f for doc in docs for _, _, args in found[doc] for f in files_of(args)}
        missing = sorted(n for n in names if not (a.runs / n).exists())
        if missing:
            raise SystemExit(f"update_results: {a.runs}: missing {', '.join(missing)} (--run makes the runs)")
        refuse_partial(names, a.runs)
        stale = []
        for doc in docs:
            lines = texts[doc].split("\n")
            for first, last, args in reversed(found[doc]):
                new = generate(args, a.runs).split("\n")
                if lines[first + 1:last] != new:
                    where = doc.relative_to(ROOT) if doc.is_relative_to(ROOT) else doc
                    stale.append((str(where), first + 1, " ".join(args)))
                    lines[first + 1:last] = new
            if not a.check:
                doc.write_text("\n".join(lines))
    except OSError as e:
        print(f"update_results: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    for doc, line, args in sorted(stale):
        print(("differs: " if a.check else "rewritten: ") + f"{doc}:{line}: results_table.py {args}")
    print(f"{len(stale)} of {sum(len(v) for v in found.values())} blocks "
          + ("differ" if a.check else "rewritten"))
    return 1 if a.check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
