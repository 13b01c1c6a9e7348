"""Each RTOS's own benchmark beside the suite's figures for the same operation (issue 22).

    python -m rtoslab.crosscheck [--board B] [--rtos ID,...] [--outputs DIR] [--results FILE]
                                 [--markdown]

The mapping is the ports' manifests' `[[crosscheck]]` entries (bench/ports/<id>/port.toml,
next to the `own_tests` whose output they read; docs/porting.md, "Cross-checks"): which own
test prints the score, where (`after`, `score`: a regular expression with one number), its unit,
how many of the suite's operations one counted unit holds (`ops`), the suite metrics whose
p50s add up to the same operation, and, for a known disagreement, its cause.

- `--outputs DIR`: the own tests' console output as DIR/<target>.out (bench/tests/own_tests.sh
  leaves them there); without it, each own test is built (ninja) and run on the board's runner.
- `--results FILE`: the suite's result file. Without it, the suite stage's transcripts
  (build/fw/B/transcripts/bench-<id>.txt, bench/tests/run.sh leaves them) when they are newer
  than their image, else `rtoslab run --rtos <the ports> --board B` makes one (the images the
  suite stage built are reused: ninja rebuilds nothing).

Prints one row per entry: own score, converted to the suite metric's unit, the suite's p50,
the deviation (converted / suite - 1) and the verdict. Exit status: 0 when every deviation is
within 10 % or has its cause written; 1 otherwise; 2 on bad input (one line).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import boards, ports
from .errors import BadInput, RtoslabError
from .ids import METRIC_IDS, metric_unit
from .manifest import repo_root

LIMIT = 0.10  # a deviation beyond this fails unless its cause is written (issue 22)
UNITS = ("per_second", "cycles")  # the own score: operations per second, or cycles per operation
CYCLES, RATE = "cycles", "ops/1e7cycles"  # the suite metric units a cross-check converts to
USAGE = ("usage: python -m rtoslab.crosscheck [--board B] [--rtos ID,...] [--outputs DIR] "
         "[--results FILE] [--markdown]")


@dataclass(frozen=True)
class Entry:
    """One own-benchmark score and the suite metrics of the same operation."""
    rtos: str
    test: str            # the own-test target whose output holds the score
    name: str            # what the row is called: the upstream test's own name
    score: str           # regular expression, one group: the number
    after: str = ""      # the score is the first match after this text (the test case's title)
    unit: str = "per_second"
    ops: float = 1.0     # the suite's operations in one counted unit (2: a ping-pong round's switches)
    metrics: tuple[str, ...] = ()  # summed p50s; empty: no suite metric of the same operation
    cause: str = ""      # why a known disagreement is not a fault
    note: str = ""       # what the row compares (or, without metrics, why nothing)


def _fail(where: str, what: str):
    raise BadInput(f"{where}: {what}")


def entries_of(rtos: str, manifest: dict) -> list[Entry]:
    """The `[[crosscheck]]` entries of one port's manifest, validated."""
    out = []
    own = set(manifest.get("own_tests", []))
    for i, e in enumerate(manifest.get("crosscheck", [])):
        where = f"bench/ports/{rtos}/port.toml crosscheck[{i}]"
        if not isinstance(e, dict):
            _fail(where, "not a table")
        unknown = set(e) - (set(Entry.__dataclass_fields__) - {"rtos"})
        if unknown:
            _fail(where, f"unknown field(s) {', '.join(sorted(unknown))}")
        for key in ("test", "name", "score"):
            if not isinstance(e.get(key), str) or not e[key]:
                _fail(where, f"'{key}' must be a non-empty string")
        if e["test"] not in own:
            _fail(where, f"test '{e['test']}' is not one of the port's own_tests")
        try:
            if re.compile(e["score"]).groups != 1:
                _fail(where, "'score' must have exactly one group (the number)")
        except re.error as err:
            _fail(where, f"'score' is not a regular expression: {err}")
        if e.get("unit", "per_second") not in UNITS:
            _fail(where, f"unit '{e.get('unit')}' is not one of {', '.join(UNITS)}")
        ops = e.get("ops", 1)
        if isinstance(ops, bool) or not isinstance(ops, (int, float)) or ops <= 0:
            _fail(where, "'ops' must be a positive number")
        metrics = e.get("metrics", [])
        if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
            _fail(where, "'metrics' must be a list of metric ids")
        for m in metrics:
            if m not in METRIC_IDS:
                _fail(where, f"'{m}' is not a metric id (docs/methodology.md lists them)")
        units = {metric_unit(m) for m in metrics}
        if metrics and (len(units) != 1 or units - {CYCLES, RATE} or (RATE in units and len(metrics) > 1)):
            _fail(where, f"metrics {', '.join(metrics)}: cycles summed, or one {RATE} metric")
        for key in ("after", "cause", "note"):
            if not isinstance(e.get(key, ""), str):
                _fail(where, f"'{key}' must be a string")
        out.append(Entry(rtos=rtos, test=e["test"], name=e["name"], score=e["score"], after=e.get("after", ""),
                         unit=e.get("unit", "per_second"), ops=float(ops), metrics=tuple(metrics),
                         cause=e.get("cause", ""), note=e.get("note", "")))
    return out


def load_entries(rtos_ids: list[str] | None = None, root: Path | None = None) -> list[Entry]:
    """Every port's entries (or those of `rtos_ids`), in the registry's order."""
    reg = ports.registry(root)
    if rtos_ids:
        for r in rtos_ids:
            if r not in reg:
                raise BadInput(f"--rtos: unknown RTOS '{r}' (`rtoslab peers` lists them)")
    out = []
    for rid, port in reg.items():
        if rtos_ids and rid not in rtos_ids:
            continue
        with open(port.directory / "port.toml", "rb") as f:
            out += entries_of(rid, tomllib.load(f))
    return out


def parse_score(entry: Entry, output: str) -> float:
    """The entry's number in an own test's console output."""
    start = 0
    if entry.after:
        start = output.find(entry.after)
        if start < 0:
            raise BadInput(f"{entry.test}: '{entry.after}' not in its output")
    m = re.compile(entry.score).search(output, start)
    if not m:
        raise BadInput(f"{entry.test}: no score /{entry.score}/ in its output"
                       + (f" after '{entry.after}'" if entry.after else ""))
    try:
        return float(m.group(1))
    except ValueError:
        raise BadInput(f"{entry.test}: score '{m.group(1)}' is not a number") from None


def convert(entry: Entry, score: float, clock_hz: int) -> float:
    """The own score in the suite metrics' unit: cycles per operation, or operations per 10^7
    cycles (Thread-Metric's counts, the suite's tm.*)."""
    if score <= 0:
        raise BadInput(f"{entry.test}: score {score:g} is not positive")
    cycles_per_op = clock_hz / (score * entry.ops) if entry.unit == "per_second" else score / entry.ops
    return 1e7 / cycles_per_op if metric_unit(entry.metrics[0]) == RATE else cycles_per_op


@dataclass(frozen=True)
class Row:
    entry: Entry
    score: float
    converted: float | None
    suite: float | None
    deviation: float | None
    verdict: str         # "ok", "cause" (beyond the limit, cause written), "FAIL", "info"


def judge(entry: Entry, score: float, clock_hz: int, p50: dict[str, float]) -> Row:
    if not entry.metrics:
        return Row(entry, score, None, None, None, "info")
    missing = [m for m in entry.metrics if m not in p50]
    if missing:
        raise BadInput(f"{entry.rtos}: the result file has no {', '.join(missing)}")
    values = [p50[m] for m in entry.metrics]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) or sum(values) <= 0:
        raise BadInput(f"{entry.rtos}: the result file's p50 of {' + '.join(entry.metrics)} is not a positive number")
    if not clock_hz or clock_hz <= 0:
        raise BadInput(f"{entry.rtos}: the result file's clock_hz is not a positive number")
    converted = convert(entry, score, clock_hz)
    suite = float(sum(values))
    dev = converted / suite - 1
    verdict = "ok" if abs(dev) <= LIMIT else "cause" if entry.cause else "FAIL"
    return Row(entry, score, converted, suite, dev, verdict)


def suite_p50(results: dict, rtos: str, board: str) -> tuple[int, dict[str, float]]:
    """(clock_hz, {metric: p50}) of one RTOS's run on the board in a result file."""
    try:
        for run in results["runs"]:
            if run["rtos"] == rtos and run["board"] == board:
                return int(run["clock_hz"]), {r["id"]: r["p50"] for r in run.get("results", [])}
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput(f"the result file is not one of `rtoslab run` ({e})") from None
    raise BadInput(f"the result file has no run of {rtos} on {board}")


def read_results(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise BadInput(f"{path}: not a result file ({e})") from None


def _run_own_test(root: Path, board: str, target: str) -> str:
    bdir = root / "build" / "fw" / board
    if not (bdir / "build.ninja").exists():
        subprocess.run(["cmake", "-G", "Ninja", "-S", str(root), "-B", str(bdir),
                        "-DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake", f"-DRTOSLAB_BOARD={board}"],
                       cwd=root, capture_output=True, check=False)
    b = subprocess.run(["ninja", "-C", str(bdir), target], capture_output=True, text=True)
    if b.returncode != 0:
        last = (b.stdout.strip().splitlines() or ["no output"])[-1]
        raise RtoslabError(f"{target}: does not build ({last})", status=4)
    elf = next(iter(sorted(bdir.glob(f"**/{target}.elf"))), None)
    if elf is None:
        raise RtoslabError(f"{target}: built, but no {target}.elf under {bdir}", status=4)
    r = subprocess.run([sys.executable, "-m", "rtoslab.runners", "--board", board, str(elf),
                        "--max-cycles", "4000000000"], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RtoslabError(f"{target}: exit status {r.returncode} on {board}", status=3)
    return r.stdout


def own_outputs(entries: list[Entry], outputs: Path | None, board: str, note) -> dict[str, str]:
    """{target: console output} of every own test the entries read."""
    out: dict[str, str] = {}
    missing = []
    for t in dict.fromkeys(e.test for e in entries):
        if outputs is not None:
            try:
                out[t] = (outputs / f"{t}.out").read_text(encoding="utf-8", errors="replace")
            except OSError:
                missing.append(t)
            continue
        out[t] = _run_own_test(repo_root(), board, t)
    if missing:
        note(f"skipped, no output in {outputs}: {', '.join(missing)}")
    return out


def transcript_run(path: Path) -> dict:
    """A run of a result file (the fields the cross-check reads) from a suite image's raw
    output, with the statistics `rtoslab run` computes (results.result_entry)."""
    from .protocol import parse
    from .results import result_entry
    try:
        t = parse(path.read_text(encoding="utf-8", errors="replace"))
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}") from None
    if not t.rtos or not t.board or not t.clock_hz:
        raise BadInput(f"{path}: not a suite transcript (no @run line)")
    return {"rtos": t.rtos, "board": t.board, "clock_hz": t.clock_hz,
            "results": [result_entry(m, t.clock_hz) for m in t.complete_metrics()]}


def fresh_transcripts(rtos_ids: list[str], board: str, root: Path) -> dict[str, Path]:
    """The suite stage's transcripts that are newer than their image."""
    bdir = root / "build" / "fw" / board
    out = {}
    for rid in rtos_ids:
        t, elf = bdir / "transcripts" / f"bench-{rid}.txt", bdir / f"bench-{rid}.elf"
        if t.is_file() and elf.is_file() and t.stat().st_mtime >= elf.stat().st_mtime:
            out[rid] = t
    return out


def make_results(rtos_ids: list[str], board: str) -> dict:
    """The suite's figures: the suite stage's fresh transcripts, `rtoslab run` for the rest."""
    runs = {rid: transcript_run(p) for rid, p in fresh_transcripts(rtos_ids, board, repo_root()).items()}
    rest = [r for r in rtos_ids if r not in runs]
    if rest:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "suite.json"
            r = subprocess.run([sys.executable, "-m", "rtoslab", "run", "--rtos", ",".join(rest), "--board", board,
                                "--no-history", "-q", "--json", str(path)], capture_output=True, text=True)
            if r.returncode != 0 or not path.exists():
                raise RtoslabError(f"rtoslab run failed (status {r.returncode}): {r.stderr.strip()[-300:]}",
                                   status=4)
            runs.update({run["rtos"]: run for run in read_results(path)["runs"]})
    return {"schema": 1, "runs": list(runs.values())}


def _fmt(v: float | None, dev: bool = False) -> str:
    if v is None:
        return "—"
    if dev:
        return f"{v * 100:+.1f} %"
    return f"{v:,.1f}".replace(",", " ") if v < 1000 else f"{v:,.0f}".replace(",", " ")


def table(rows: list[Row], markdown: bool = False) -> str:
    head = ["RTOS", "own benchmark (test)", "own score", "converted", "suite metric(s)", "suite p50",
            "deviation", "verdict"]
    lines = []
    for r in rows:
        e = r.entry
        unit = "/s" if e.unit == "per_second" else " cycles"
        metric = " + ".join(e.metrics) or "—"
        conv_unit = "" if r.converted is None else \
            (" per 10^7 cycles" if metric_unit(e.metrics[0]) == RATE else " cycles")
        verdict = {"ok": "ok", "info": "not checked", "FAIL": "FAIL: over 10 %, no cause",
                   "cause": "over 10 %: " + e.cause}[r.verdict]
        if r.verdict in ("info", "ok") and e.note:
            verdict += ": " + e.note
        if r.verdict == "ok" and e.cause:       # the disagreement is gone: its written cause is stale
            verdict += " (a cause is written for a disagreement that no longer exists: remove it from port.toml)"
        lines.append([ports.display_name(e.rtos), f"{e.name} ({e.test})", f"{_fmt(r.score)}{unit}"
                      + (f" ÷ {e.ops:g}" if e.ops != 1 else ""), _fmt(r.converted) + conv_unit,
                      metric if markdown is False else " + ".join(f"`{m}`" for m in e.metrics) or "—",
                      _fmt(r.suite), _fmt(r.deviation, dev=True), verdict])
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                         + ["| " + " | ".join(c.replace("|", "\\|") for c in ln) + " |" for ln in lines])
    widths = [max(len(h), *(len(ln[i]) for ln in lines)) if lines else len(h) for i, h in enumerate(head)]
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(head), fmt(["-" * w for w in widths]), *(fmt(ln) for ln in lines)])


def crosscheck(board: str, rtos_ids: list[str] | None, outputs: Path | None, results: dict | None,
               note=lambda text: print(f"crosscheck: {text}", file=sys.stderr)) -> list[Row]:
    entries = load_entries(rtos_ids)
    if not entries:
        raise BadInput("no port has [[crosscheck]] entries" + (f" among {', '.join(rtos_ids)}" if rtos_ids else ""))
    texts = own_outputs(entries, outputs, board, note)
    entries = [e for e in entries if e.test in texts]
    rtos_set = list(dict.fromkeys(e.rtos for e in entries))
    if not rtos_set:
        note("nothing to cross-check: no output of an own test that a [[crosscheck]] entry reads")
        return []
    if results is None and any(e.metrics for e in entries):
        results = make_results(rtos_set, board)
    rows = []
    for rid in rtos_set:
        clock, p50 = suite_p50(results, rid, board) if results is not None else (boards.get(board).clock_hz, {})
        rows += [judge(e, parse_score(e, texts[e.test]), clock, p50) for e in entries if e.rtos == rid]
    return rows


def main(argv: list[str]) -> int:
    args = {"--board": None, "--rtos": None, "--outputs": None, "--results": None}
    markdown = False
    it = iter(argv)
    try:
        for a in it:
            if a == "--markdown":
                markdown = True
            elif a in args:
                args[a] = next(it)
            else:
                print(f"crosscheck: unknown option '{a}'\n{USAGE}", file=sys.stderr)
                return 2
    except StopIteration:
        print(f"crosscheck: {a} needs a value\n{USAGE}", file=sys.stderr)
        return 2
    try:
        board = args["--board"] or boards.default_id()
        boards.get(board)
        outputs = Path(args["--outputs"]) if args["--outputs"] else None
        if outputs is not None and not outputs.is_dir():
            raise BadInput(f"--outputs {outputs}: not a directory")
        results = read_results(Path(args["--results"])) if args["--results"] else None
        rtos_ids = [r for r in args["--rtos"].split(",") if r] if args["--rtos"] else None
        rows = crosscheck(board, rtos_ids, outputs, results)
    except RtoslabError as e:
        print(f"crosscheck: {' '.join(str(e).split())}", file=sys.stderr)
        return e.status
    except (OSError, subprocess.SubprocessError) as e:  # a tool missing or hanging (cmake, ninja, the runner)
        print(f"crosscheck: {' '.join(str(e).split())}", file=sys.stderr)
        return 4
    print(table(rows, markdown))
    failed = [r for r in rows if r.verdict == "FAIL"]
    checked = [r for r in rows if r.verdict != "info"]
    print(f"\n{len(checked) - len(failed)} of {len(checked)} cross-checks agree within {LIMIT:.0%} or have "
          f"their cause written; {len(rows) - len(checked)} shown, not checked")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
