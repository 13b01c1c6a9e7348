"""The `rtoslab` command (interfaces.md): run, check, merge, report, compare, size, trace,
history, latency, peers, boards, validate.

Every failure is one line on stderr and a non-zero status, never a traceback (set
RTOSLAB_DEBUG=1 to see one): 1 a regression or a failed check, 2 bad input, 3 the firmware
failed (fault, lock-up, cycle limit, non-zero exit), 4 a build or tool failure, 70 an internal
error (a defect of this command), 130 interrupted. Results measured before a failure are kept.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import traceback
from pathlib import Path

import click
from rich.console import Console

from . import __version__, ascii_fallback
from .errors import BadInput, Interrupted, RtoslabError
from .ids import BOARDS, DEFAULT_BOARD

INTERNAL = 70


def _consoles():
    wide = {} if sys.stdout.isatty() else {"width": 160}
    out = Console(highlight=False, soft_wrap=False, **wide)
    # soft_wrap: a message on stderr stays one line, however narrow the terminal
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    return out, err


def _path(p):
    return Path(p) if p else None


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rtoslab")
def cli():
    """rtoslab: build, run, compare and report RTOS benchmarks on a cycle-exact Cortex-M0
    simulator, QEMU, the host or a real board."""


def _note(err: Console, quiet: bool):
    """One `rtoslab: ...` line on stderr (a skipped RTOS), unless quiet."""
    return None if quiet else (lambda text: err.print(f"rtoslab: {text}", highlight=False))


def _common_run_options(f):
    f = click.option("--rtos", "rtos", metavar="ID,...|all",
                     help="RTOSes of the port registry (`rtoslab peers` lists them), or all; "
                          "default: the registry's defaults that build for the board")(f)
    f = click.option("--board", default=None, metavar="ID",
                     help=f"board: {', '.join(BOARDS)} (`rtoslab boards`); default {DEFAULT_BOARD}, and "
                          "for `run` an RTOS that does not build for it on the first board it does")(f)
    f = click.option("--elf", "elf", multiple=True, metavar="RTOS=PATH",
                     help="use this image instead of building one (repeatable)")(f)
    f = click.option("--no-build", is_flag=True, help="use the images already built")(f)
    f = click.option("--timeout", type=float, default=1800, show_default=True,
                     help="seconds one image may run")(f)
    f = click.option("--max-cycles", type=int, default=None, help="simulator cycle limit per image")(f)
    f = click.option("--port", default=None, help="serial port of a real board")(f)
    f = click.option("--flash-cmd", default=None, help="command that flashes a real board ({elf})")(f)
    f = click.option("-q", "--quiet", is_flag=True, help="no progress on stderr")(f)
    f = _profile_option(f)
    return f


def _jobs_option(f):
    return click.option("-j", "--jobs", type=int, default=None, metavar="N",
                        help="cells (RTOS, board, profile) built and run at a time, each in a process of its "
                             "own; the results and their order are those of --jobs 1 "
                             "[default: the cores this process may use]")(f)


def _jobs(jobs: int | None) -> int:
    from .parallel import default_jobs
    return default_jobs() if jobs is None else jobs


def _profile_option(f):
    return click.option("--profile", type=click.Choice(["size", "speed"]), default="size", show_default=True,
                        help="build profile: size (-Os) or speed (-O2, LTO, -fomit-frame-pointer "
                             "-falign-functions=16), the same for every RTOS (docs/methodology.md)")(f)


@cli.command()
@_common_run_options
@click.option("--tests", metavar="PATTERN", help="metric ids to keep: comma-separated, shell patterns ('rhealstone.*')")
@click.option("--samples", type=int, default=None, metavar="N",
              help="samples per metric (rebuilds with RTOSLAB_SAMPLES=N)")
@click.option("--preset", type=click.Choice(["seed004"]), default=None,
              help="a seed's experiments as it defined them: seed004 = seed 004's pulse widths (20, 40, 160 µs, "
                   "1, 2 ms) and nine callback delays, 4096 samples (a build of its own)")
@click.option("--json", "json_path", metavar="FILE", help="result file (default results/run-<time>.json)")
@click.option("--csv", "csv_path", metavar="FILE", help="also write the statistics as CSV")
@click.option("--no-probe", is_flag=True, help="do not record the probe (second clock) on the simulator")
@click.option("--no-history", is_flag=True, help="do not record the run in the history database")
@click.option("--history-db", metavar="FILE", help="history database (default results/history.sqlite)")
@click.option("--wide", is_flag=True, help="every statistic of every RTOS (min p50 mean p99 max stdev time)")
@click.option("--baseline", metavar="ID", default=None,
              help="the RTOS the table's ratios are taken against (default: the best of each row)")
@click.option("--latency-model", is_flag=True,
              help="also decompose irq.to_thread from the instruction trace (simulator boards)")
@click.option("--glue", is_flag=True,
              help="also measure each port's glue cycles per hot path from the instruction trace "
                   "(simulator boards; docs/methodology.md, 'Glue at parity')")
@_jobs_option
@click.option("--shard", metavar="I/N",
              help="run only share I of N of the cells (round-robin over the sorted cells, docs/cli.md "
                   "'Shards'); `rtoslab merge` joins the shares' result files")
@click.option("--dask", metavar="tcp://HOST:PORT",
              help="run the cells on this Dask scheduler's workers (simulator boards; images built here "
                   "and shipped; docs/cli.md 'A Dask cluster')")
def run(rtos, board, elf, no_build, timeout, max_cycles, port, flash_cmd, quiet, profile, tests, samples, preset,
        json_path, csv_path, no_probe, no_history, history_db, wide, baseline, latency_model, glue, jobs,
        shard, dask):
    """Build and run the benchmarks; print one table with the RTOSes side by side."""
    from . import run as runmod
    from . import shard as shardmod
    from .history import default_db
    out, err = _consoles()
    where = shardmod.parse(shard)
    opts = runmod.make_options(rtos, board, note=_note(err, quiet), tests=tests, samples=samples, preset=preset,
                               json_path=_path(json_path),
                               csv_path=_path(csv_path), images=runmod.parse_images(elf),
                               build=not no_build, timeout=timeout, max_cycles=max_cycles,
                               probe=not no_probe, port=port, flash_cmd=flash_cmd, wide=wide,
                               baseline=baseline, latency_model=latency_model, glue=glue, profile=profile,
                               jobs=_jobs(jobs), dask=dask, shard_of=where)
    db = None if no_history else (Path(history_db) if history_db else default_db())
    runmod.execute(opts, out, err, quiet=quiet, history_db=db).raise_for_failures()


@cli.command()
@click.option("--rtos", "rtos", metavar="ID,...|all", help="RTOSes, or all (default rtoslab,freertos)")
@click.option("--board", default=DEFAULT_BOARD, show_default=True, metavar="ID",
              help="a simulator board (`rtoslab boards --runner vp`)")
@click.option("--elf", "elf", multiple=True, metavar="RTOS=PATH", help="use this image (repeatable)")
@click.option("--no-build", is_flag=True, help="use the images already built")
@click.option("--timeout", type=float, default=1800, show_default=True, help="seconds one image may run")
@click.option("--json", "json_path", metavar="FILE",
              help="result file with each run's latency_model (default results/latency-<time>.json)")
@click.option("-q", "--quiet", is_flag=True, help="no progress on stderr")
@click.option("--app", "app_path", metavar="FILE",
              help="an application (TOML: its services and interrupts per activation, docs/latency-app-seed003.toml): "
                   "its typical and worst latency per RTOS of --results, and the jitter by source; runs nothing")
@click.option("--results", "results_path", metavar="FILE", help="with --app: a result file of `rtoslab run --json`")
@_profile_option
@_jobs_option
def latency(rtos, board, elf, no_build, timeout, json_path, quiet, app_path, results_path, profile, jobs):
    """The interrupt-to-thread latency taken apart (seed 003's model): one table, every RTOS.
    With --app: an application's latency composed from the measured costs of a result file."""
    from . import latency as lat
    from . import run as runmod
    from .manifest import repo_root
    out, err = _consoles()
    if app_path or results_path:
        from . import app_latency
        if not (app_path and results_path):
            raise BadInput("--app and --results go together: an application file and a result file "
                           "of `rtoslab run --json`")
        app = app_latency.load_app(Path(app_path))
        rows = app_latency.model(app, app_latency.load_results(Path(results_path)))
        click.echo(app_latency.table(app, rows))
        if json_path:
            Path(json_path).write_text(json.dumps({"app": app, "rows": rows}, indent=1) + "\n", encoding="utf-8")
        return
    path = _path(json_path) or runmod.default_json_path(repo_root(), "latency")
    opts = runmod.make_options(rtos, board, note=_note(err, quiet), tests="irq.to_thread", json_path=path,
                               images=runmod.parse_images(elf), build=not no_build, timeout=timeout,
                               latency_model=True, profile=profile, jobs=_jobs(jobs))
    report = runmod.execute(opts, out, err, quiet=quiet, history_db=None, show_table=False)
    click.echo(lat.run_table(report.doc["runs"]))
    if not quiet:
        err.print(f"results: {report.path}", highlight=False)
    report.raise_for_failures()


@cli.command()
@_common_run_options
@click.option("--junit", "junit_path", metavar="FILE", help="write JUnit XML for CI")
@click.option("--json", "json_path", metavar="FILE", help="also write the result file")
@_jobs_option
def check(rtos, board, elf, no_build, timeout, max_cycles, port, flash_cmd, quiet, profile, junit_path,
          json_path, jobs):
    """Run the behaviour (conformance) tests; exit status 0 only if all pass."""
    from . import run as runmod
    from .check import execute_check
    import tempfile
    tmp_json = None
    if not json_path:
        fd, tmp_json = tempfile.mkstemp(prefix="rtoslab-check-", suffix=".json")
        os.close(fd)
    out, err = _consoles()
    opts = runmod.make_options(rtos, board or DEFAULT_BOARD, note=_note(err, quiet),
                               json_path=Path(json_path or tmp_json),
                               images=runmod.parse_images(elf), build=not no_build, timeout=timeout,
                               max_cycles=max_cycles, probe=False, port=port, flash_cmd=flash_cmd,
                               profile=profile, jobs=_jobs(jobs))
    try:
        execute_check(opts, _path(junit_path), out, err, quiet=quiet)
    finally:
        if tmp_json:
            try:
                os.unlink(tmp_json)
            except OSError:
                pass


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="SHARD.json...")
@click.option("-o", "--output", required=True, metavar="OUT.json", help="the joined result file")
def merge(files, output):
    """Join the result files of a run's shards (--shard I/N) into one; refuse a cell given
    twice or missing (status 2, nothing written)."""
    from .merge import execute
    out, _ = _consoles()
    out.print(f"wrote {execute(list(files), output)}", highlight=False)


@cli.command()
@click.argument("results", nargs=-1, required=True, metavar="RESULTS.json...")
@click.option("--html", "html_path", metavar="FILE", help="self-contained HTML page (default report.html)")
@click.option("--md", "md_path", metavar="FILE", help="Markdown report (plots beside it as SVG)")
@click.option("--weights", metavar="FILE",
              help="application Rhealstone weights: JSON or TOML {metric: weight}")
@click.option("--title", default=None)
@click.option("--baseline", metavar="RUN", default=None,
              help="the run (an RTOS id, or RTOS@board) the ratios are taken against (default: the best of each row)")
def report(results, html_path, md_path, weights, title, baseline):
    """Tables, histograms, cumulative distributions, the Rhealstone figure and footprints."""
    from .report import execute
    out, _ = _consoles()
    for p in execute(list(results), html_path, md_path, weights, title, baseline):
        out.print(f"wrote {p}")


@cli.command()
@click.argument("base", metavar="BASE.json")
@click.argument("new", metavar="NEW.json")
@click.option("--threshold", type=float, default=5.0, show_default=True, metavar="PCT",
              help="a change worse than this many percent is a regression (exit status 1)")
@click.option("--stat", type=click.Choice(["min", "p50", "mean", "p99", "max"]), default="p50", show_default=True)
@click.option("--all", "show_all", is_flag=True, help="list unchanged metrics too")
def compare(base, new, threshold, stat, show_all):
    """Per-metric change between two result files."""
    from .compare import execute
    out, _ = _consoles()
    execute(base, new, threshold, stat, out, show_all)


@cli.command()
@click.argument("firmware", metavar="FIRMWARE.elf")
@click.option("--json", "json_path", metavar="FILE", help="write the breakdown as JSON")
@click.option("--top", type=int, default=4, show_default=True, help="largest symbols listed per component")
def size(firmware, json_path, top):
    """Flash and RAM by component (vectors/start-up, kernel, port, application, C library)."""
    from .size import analyze
    from .sizeview import render
    rep = analyze(firmware)
    if rep.machine != "EM_ARM":
        raise BadInput(f"{firmware}: not an Arm image (ELF machine {rep.machine}): "
                       "size attributes Cortex-M firmware")
    out, _ = _consoles()
    render(rep, out, top)
    if json_path:
        from .results import atomic_write
        atomic_write(json_path, json.dumps(rep.to_dict(), indent=1) + "\n")


@cli.command()
@click.argument("firmware", metavar="FIRMWARE.elf")
@click.option("--board", default=None, metavar="ID",
              help=f"a simulator board (default: the one the image was built for, else {DEFAULT_BOARD})")
@click.option("--vcd", metavar="FILE", help="probe and stimulus pins as VCD (GTKWave, PulseView)")
@click.option("--perfetto", metavar="FILE", help="timeline as Chrome trace-event JSON (ui.perfetto.dev)")
@click.option("--json", "json_path", metavar="FILE", help="the analysis as JSON")
@click.option("--events", metavar="FILE", help="keep the simulator's raw event trace (JSONL) here")
@click.option("--from-events", metavar="FILE", help="analyse this event trace instead of running")
@click.option("--max-cycles", type=int, default=100_000_000, show_default=True)
@click.option("--stimulus", metavar="SPEC", help="arm the stimulus, e.g. at=5000,period=997,width=40")
@click.option("--ram", metavar="SIZE", help="SRAM size for the simulator (e.g. 4K)")
@click.option("--timeout", type=float, default=900, show_default=True)
def trace(firmware, board, vcd, perfetto, json_path, events, from_events, max_cycles, stimulus, ram, timeout):
    """Run any firmware on the simulator, unmodified; report context switches, interrupt
    latencies, CPU load and stack high-water marks."""
    from .traceview import execute
    out, err = _consoles()
    execute(firmware, board, _path(vcd), _path(perfetto), _path(json_path), _path(events),
            _path(from_events), max_cycles, stimulus, ram, timeout, out, err)


@cli.command(context_settings={"ignore_unknown_options": True})
@click.option("--rtos", "rtos", default="rtoslab", show_default=True, metavar="ID",
              help="the RTOS whose suite image runs")
@click.option("--board", default=None, metavar="ID", help=f"a simulator board (default {DEFAULT_BOARD})")
@click.option("--metric", default=None, metavar="ID", help="break where the suite begins this metric")
@click.option("--elf", default=None, metavar="PATH", help="debug this image instead of building one")
@click.option("--no-build", is_flag=True, help="use the image already built")
@_profile_option
@click.argument("gdb_args", nargs=-1, type=click.UNPROCESSED, metavar="[-- GDB_ARGS...]")
def debug(rtos, board, metric, elf, no_build, profile, gdb_args):
    """The suite image on the simulator under GDB: builds it, starts rtoslab-vp with --gdb on a
    free port and gdb-multiarch on the ELF, connected (docs/application.md, "Debugging")."""
    from . import debug as debugmod
    from .manifest import repo_root
    _, err = _consoles()
    return debugmod.debug(repo_root(), rtos, board, metric, elf, not no_build, profile, gdb_args,
                          note=_note(err, False))


@cli.command()
@click.argument("metric", required=False)
@click.option("--db", metavar="FILE", help="history database (default results/history.sqlite or $RTOSLAB_HISTORY)")
@click.option("--add", multiple=True, metavar="RESULTS.json", help="import a result file (repeatable)")
@click.option("--rtos", default=None)
@click.option("--board", default=None)
@click.option("--stat", default="p50", show_default=True)
@click.option("--limit", type=int, default=50, show_default=True)
def history(metric, db, add, rtos, board, stat, limit):
    """The history of runs (SQLite): list runs, or follow METRIC over commits."""
    from .history import default_db, execute
    if rtos:
        from .ports import get
        get(rtos)  # one line for an unknown id
    if board and board not in BOARDS:
        raise BadInput(f"unknown board id '{board}' (known: {', '.join(BOARDS)})")
    out, _ = _consoles()
    execute(Path(db) if db else default_db(), metric, add, rtos, board, stat, limit, out)


@cli.command()
@click.option("--fetch", is_flag=True, help="obtain, verify and extract the missing sources")
@click.option("--no-clone", is_flag=True, help="with --fetch: archives only, no git clone")
@click.option("--ready", "ready_kind", type=click.Choice(["firmware", "host"]), default=None,
              help="print only the ids of the ports of this kind whose sources are here (for scripts)")
@click.option("--arch", "ready_arch", default="armv6-m", show_default=True,
              help="with --ready firmware: only ports that build for boards of this architecture "
                   "(armv6-m, armv7-a), or any")
@click.option("--board", "ready_board", default=None,
              help="with --ready firmware: only ports that build for this board and fit its RAM (instead of --arch)")
@click.argument("rtos", nargs=-1)
def peers(fetch, no_clone, ready_kind, ready_arch, ready_board, rtos):
    """The port registry: every RTOS, its version, pinned sources and whether they are here."""
    from .peers import fetch_all, fetch_validation, missing_sources
    from .ports import broken, get, registry
    from . import boards as board_registry
    from . import cmsis_os2
    for r in rtos:
        if r not in cmsis_os2.registry():  # (an RTOS with only a CMSIS-RTOS2 declaration)
            get(r)
    out, err = _consoles()
    for pid, why in broken().items():
        err.print(f"rtoslab: port {pid} disabled: {why}", highlight=False)
    if fetch:
        for rid, got in fetch_all(only=list(rtos) or None, clone=not no_clone).items():
            for f in got:
                if f.ok:
                    out.print(f"{rid}: {f.source.archive}: {f.how}")
                else:
                    err.print(f"rtoslab: {rid}: {f.source.archive} not available ({f.how}); "
                              f"the port is skipped", highlight=False)
        for rid, got in fetch_validation(only=list(rtos) or None, clone=not no_clone).items():
            for f in got:
                if f.ok:
                    out.print(f"{rid} (CMSIS-RTOS2 validation): {f.source.archive}: {f.how}")
                else:
                    err.print(f"rtoslab: {rid}: {f.source.archive} not available ({f.how}); "
                              f"`rtoslab validate --rtos {rid}` is skipped", highlight=False)
        return 0
    board = board_registry.get(ready_board) if ready_board else None
    for p in registry().values():
        if rtos and p.id not in rtos:
            continue
        if ready_kind:
            if board:
                fits = ready_kind != "firmware" or (p.runs_on(board.arch) and not p.too_big_for(board.ram_kib))
            else:
                fits = (ready_kind != "firmware" or ready_arch == "any"
                        or p.runs_on(ready_arch))
            if p.kind == ready_kind and fits and not missing_sources(p):
                out.print(p.id)
            continue
        lack = missing_sources(p)
        state = "sources missing: " + ", ".join(s.archive for s in lack) if lack else "ready"
        out.print(f"{p.id:12s} {p.name} {p.version} ({p.kind}, {p.licence}): {p.summary}; "
                  f"{p.pin()}; {state}")
    return 0


@cli.command()
@click.option("--rtos", "rtos", metavar="ID,...|all",
              help="the CMSIS-RTOS2 implementations to validate (rtoslab, rtx5, freertos; "
                   "docs/cmsis-rtos2.md), or all (default)")
@click.option("--board", default=DEFAULT_BOARD, show_default=True, metavar="ID",
              help="a simulator board (`rtoslab boards --runner vp`)")
@click.option("--no-build", is_flag=True, help="use the images already built")
@click.option("--timeout", type=float, default=1800, show_default=True, help="seconds one image may run")
@click.option("-q", "--quiet", is_flag=True, help="no progress on stderr")
@_profile_option
def validate(rtos, board, no_build, timeout, quiet, profile):
    """Arm's CMSIS-RTOS2 validation suite on each RTOS's CMSIS-RTOS2 implementation: its report,
    the cases left out and why, and "N passed, M failed"; exit status 0 only if none failed."""
    from . import boards as board_registry
    from . import validate as val
    out, err = _consoles()
    arch = board_registry.get(board).arch
    ids = val.implementations_for(rtos, arch)
    if not ids:
        raise BadInput(f"no CMSIS-RTOS2 implementation builds for {board} ({arch})")
    note = _note(err, quiet) or (lambda text: None)
    finals, failed = [], False
    for rid in ids:
        verdict = val.execute(rid, board, build=not no_build, timeout=timeout, echo=click.echo, note=note,
                              profile=profile)
        val.print_disabled(verdict, click.echo)
        finals.append(verdict.line(rid, board, profile))
        failed |= verdict.failed > 0
        out.print(finals[-1], highlight=False)
    if len(finals) > 1:  # the verdicts side by side at the end
        for line in finals:
            out.print(line, highlight=False)
    if failed:
        return val.FAILED_STATUS
    return 0


@cli.command()
@click.option("--runner", default=None, type=click.Choice(["vp", "qemu", "host", "serial"]),
              help="only the boards of this runner")
@click.option("--has", "caps", multiple=True, metavar="CAPABILITY",
              help="only the boards with this capability (probe, stimulus, fpu, dsp, dwt; repeatable)")
@click.option("--ids", "ids_only", is_flag=True, help="print the ids alone, one a line (for scripts)")
@click.argument("board", nargs=-1)
def boards(runner, caps, ids_only, board):
    """The board registry (bench/boards/<id>/board.toml): every board, its core, clock, memory,
    flash system, timing class and runner."""
    from . import boards as registry
    for b in board:
        registry.get(b)
    out, err = _consoles()
    for bid, why in registry.broken().items():
        err.print(f"rtoslab: board {bid} disabled: {why}", highlight=False)
    from rich.table import Table
    table = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("board", "core", "clock", "memory", "runner", "timing", "capabilities"):
        table.add_column(col, overflow="fold")
    for b in registry.registry().values():
        if (board and b.id not in board) or (runner and b.runner != runner) or not all(b.has(c) for c in caps):
            continue
        if ids_only:
            out.print(b.id)
            continue
        mem = "host's"
        if b.runner != "host":
            flash = f"{_kib(b.flash_kib)} flash, " if b.flash_kib else ""
            ws = f"{b.wait_states} wait state{'' if b.wait_states == 1 else 's'}"
            accel = f" + {b.accelerator}" if b.accelerator != "none" else ""
            mem = f"{flash}{_kib(b.ram_kib)} RAM, {ws}{accel}"
        table.add_row(b.id, f"{b.core.name} ({b.arch})", f"{b.clock_hz / 1e6:g} MHz", mem, b.runner,
                      ("cycle-exact: " if b.cycle_exact else "") + b.timing,
                      ", ".join(sorted(b.capabilities)) or "-")
    if not ids_only:
        out.print(table)
    return 0


def _kib(n: int) -> str:
    for unit, size in (("GiB", 1 << 20), ("MiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} KiB"


def _err(msg: str) -> None:
    msg = " ".join(str(msg).split())
    try:
        sys.stderr.write(f"rtoslab: {msg}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _sigterm(signum, frame):
    raise KeyboardInterrupt


def main(argv=None) -> int:
    try:
        signal.signal(signal.SIGTERM, _sigterm)
    except (ValueError, OSError):
        pass
    ascii_fallback.install()
    debug = os.environ.get("RTOSLAB_DEBUG")
    status = 0
    try:
        rv = cli.main(args=argv, prog_name="rtoslab", standalone_mode=False)
        status = rv if isinstance(rv, int) else 0
    except click.UsageError as e:
        cmd = e.ctx.command_path if e.ctx else "rtoslab"
        sub = cmd[len("rtoslab"):].strip()
        _err(f"{sub + ': ' if sub else ''}{e.format_message()} (see {cmd} --help)")
        status = 2
    except click.Abort:
        _err("interrupted")
        status = 130
    except click.ClickException as e:
        _err(e.format_message())
        status = e.exit_code
    except Interrupted as e:
        _err(str(e))
        status = e.status
    except RtoslabError as e:
        if debug:
            traceback.print_exc()
        _err(str(e))
        status = e.status
    except KeyboardInterrupt:
        _err("interrupted")
        status = 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        status = 141
    except Exception as e:  # the last line of defence: still one line, never a traceback
        if debug:
            traceback.print_exc()
        _err(f"internal error: {type(e).__name__}: {e} (RTOSLAB_DEBUG=1 shows where)")
        status = INTERNAL
    return status


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
