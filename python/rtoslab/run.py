"""`rtoslab run`: build the RTOS x board matrix, run it, print the table, write the results."""
from __future__ import annotations

import os
import stat
import sys
import tempfile
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console

from . import build as buildmod
from . import manifest as mf
from . import ports
from . import energy as energy_mod
from . import masked as masked_mod
from . import scratch
from . import results as res
from .errors import BadInput, FirmwareFailed, Interrupted, RtoslabError
from . import selection
from .ids import BOARDS, CHECK_IDS, METRIC_IDS, Board, metric_did_you_mean, test_filter
from .protocol import Parser, Transcript
from . import runners
from .runners.base import Outcome


@dataclass
class Options:
    rtos: list[str]
    board: Board
    tests: str | None = None
    samples: int | None = None
    json_path: Path | None = None
    csv_path: Path | None = None
    images: dict = field(default_factory=dict)
    build: bool = True
    timeout: float | None = 1800
    max_cycles: int | None = None
    probe: bool = True
    kind: str = "bench"          # image kind: bench-<rtos> or check-<rtos>
    port: str | None = None
    flash_cmd: str | None = None
    wide: bool = False             # the table with every statistic instead of the compact one
    baseline: str | None = None    # the RTOS the compact table's ratios are taken against
    latency_model: bool = False    # vp boards: decompose irq.to_thread from the instruction trace
    glue: bool = False             # vp boards: the port glue's cycles per hot path (rtoslab.glue)
    boards: dict = field(default_factory=dict)  # rtos -> Board when not `board` (selection.resolve)
    profile: str = buildmod.DEFAULT_PROFILE      # the build profile: size (-Os) or speed (-O2, LTO)
    jobs: int = 1                  # cells built and run at a time (parallel.py)
    dask: str | None = None        # a Dask scheduler's address: the cells run there (dask_cells.py)
    shard: dict | None = None      # --shard's record (shard.py): this command's share of the matrix
    preset: str | None = None      # a seed's experiments as it defined them (build.PRESETS)

    def board_for(self, rtos: str) -> Board:
        return self.boards.get(rtos, self.board)

    def for_rtos(self, rtos: str) -> "Options":
        """These options with the board `rtos` runs on as the board."""
        return replace(self, board=self.board_for(rtos))


def parse_images(values: tuple[str, ...]) -> dict:
    out = {}
    for v in values:
        if "=" not in v:
            raise BadInput(f"--elf {v}: expected RTOS=PATH")
        rtos, path = v.split("=", 1)
        if rtos == "all":
            raise BadInput("--elf all=PATH: name one RTOS")
        ports.get(rtos)  # one line for an unknown id
        out[rtos] = readable_file(Path(path), f"--elf {rtos}")
    return out


def readable_file(p: Path, what: str) -> Path:
    """A regular file, or one line saying what the path is instead (status 2): a folder, a
    device such as /dev/zero, a symlink loop are not "no such file"."""
    try:
        st = p.stat()
    except FileNotFoundError:
        raise BadInput(f"{what}: {p}: no such file") from None
    except OSError as e:
        raise BadInput(f"{what}: {p}: cannot read: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise BadInput(f"{what}: {p}: is a folder, not an image")
    if not stat.S_ISREG(st.st_mode):
        raise BadInput(f"{what}: {p}: not a regular file (a device or a pipe)")
    return p


def check_image_machine(path: Path, board: Board, what: str) -> None:
    """An image for a firmware board must be a 32-bit Arm ELF (e_machine 40); one for the
    host, an ELF of the host. One line, status 2, otherwise."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError as e:
        raise BadInput(f"{what}: {path}: cannot read: {e.strerror}") from None
    if len(head) < 20 or head[:4] != b"\x7fELF":
        raise BadInput(f"{what}: {path}: not an ELF file")
    machine = int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")
    if board.runner != "host" and (machine != 40 or head[4] != 1):
        raise BadInput(f"{what}: {path}: not an Arm image (ELF machine {machine}); "
                       f"board {board.id} runs 32-bit Arm ELF files")


def make_options(rtos: str | None, board: str | None, note=None, **kw) -> Options:
    """The run's options: the cells of `--rtos` and `--board` (selection.resolve), checked
    against the other options. RTOSes named one by one must have their sources (one line and
    status 4 otherwise); `--rtos all` skips those that do not, with one line each on `note`."""
    images = kw.get("images") or {}
    sel = selection.resolve(rtos, board, images=images, note=note)
    b = sel.board
    for rtos_id, path in images.items():
        check_image_machine(path, b, f"--elf {rtos_id}")
    rlist = sel.rtos
    if kw.get("baseline") and kw["baseline"] not in rlist:
        raise BadInput(f"--baseline {kw['baseline']}: not one of the RTOSes run ({', '.join(rlist)})")
    tests = kw.get("tests")
    keep = test_filter(tests)  # validates
    if tests and not any(keep(i) for i in METRIC_IDS + CHECK_IDS):
        raise BadInput(f"--tests {tests}: matches no metric or check id (docs/methodology.md lists them)"
                       f"{metric_did_you_mean(tests.split(',')[0].strip())}")
    if kw.get("latency_model") and b.runner != "vp":
        raise BadInput(f"the latency model needs a simulator board (rtoslab boards --runner vp), not {b.id}: "
                       "it reads the instruction trace")
    if kw.get("glue") and b.runner != "vp":
        raise BadInput(f"--glue needs a simulator board (rtoslab boards --runner vp), not {b.id}: "
                       "it reads the instruction trace")
    if kw.get("profile", buildmod.DEFAULT_PROFILE) not in buildmod.PROFILES:
        raise BadInput(f"--profile {kw['profile']}: one of {', '.join(buildmod.PROFILES)}")
    preset = kw.get("preset")
    if preset is not None and preset not in buildmod.PRESETS:
        raise BadInput(f"--preset {preset}: one of {', '.join(buildmod.PRESETS)}")
    if preset and kw.get("samples") is None:
        kw["samples"] = buildmod.PRESETS[preset]
    samples = kw.get("samples")
    if samples is not None and samples <= 0:
        raise BadInput("--samples must be a positive number")
    jobs = kw.get("jobs", 1)
    if jobs is not None and jobs < 1:
        raise BadInput(f"--jobs {jobs}: at least 1")
    if kw.get("dask"):
        from . import dask_cells
        dask_cells.check_address(kw["dask"])
        off = [f"{c.rtos}@{c.board.id}" for c in sel.cells if c.board.runner != "vp"]
        if off:
            raise BadInput(f"--dask runs simulator boards only (rtoslab boards --runner vp), not {off[0]}")
    where = kw.pop("shard_of", None)
    if where is not None:
        from . import shard
        profile = kw.get("profile", buildmod.DEFAULT_PROFILE)
        keys = {shard.cell_key(c.rtos, c.board.id, profile): c.rtos for c in sel.cells}
        kw["shard"] = shard.record(list(keys), *where)
        rlist = [keys[k] for k in shard.select(list(keys), *where)]
    return Options(rtos=rlist, board=b, boards=sel.homes(), **kw)


class Display:
    """Progress on stderr: a live line on a terminal, plain lines otherwise."""

    def __init__(self, err: Console, quiet: bool = False):
        self.err = err
        self.quiet = quiet
        self.live = err.is_terminal and not quiet
        self.progress = None
        self.task = None

    def __enter__(self):
        if self.live:
            from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
            self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                     TextColumn("{task.completed} metrics"), TimeElapsedColumn(),
                                     console=self.err, transient=True)
            self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        if self.progress:
            self.progress.__exit__(*exc)

    def stage(self, text: str):
        if self.progress:
            if self.task is None:
                self.task = self.progress.add_task(text, total=None)
            else:
                self.progress.update(self.task, description=text, completed=0)
        elif not self.quiet:
            self.err.print(f"rtoslab: {text}", highlight=False)

    def metric(self, label: str, mid: str, count: int):
        if self.progress and self.task is not None:
            self.progress.update(self.task, description=f"{label}: {mid}", completed=count)

    def note(self, text: str):
        if not self.quiet:
            self.err.print(f"rtoslab: {text}", highlight=False)


def build_image(root: Path, opts: Options, rtos: str, disp: Display) -> Path:
    if rtos in opts.images:
        return opts.images[rtos]
    target = buildmod.target_name(opts.kind, rtos)
    bdir = buildmod.build_dir(root, opts.board.id, opts.samples, opts.profile, opts.preset)
    if not opts.build:
        img = buildmod.find_image(bdir, target) if bdir.exists() else None
        if img is None:
            raise BadInput(f"no image {target} for {opts.board.id} in {bdir} (run without --no-build)")
        return img
    disp.stage(f"{rtos}: building {target} for {opts.board.id}")
    return buildmod.build(root, opts.board.id, target, opts.samples, opts.profile, opts.preset)


def execute_image(root: Path, opts: Options, rtos: str, image: Path, parser: Parser,
                  disp: Display, tmp: Path) -> tuple[Outcome, dict]:
    """Run one image; stream its console into parser. Returns (outcome, probe samples by index)."""
    label = f"{rtos}@{opts.board.id}"
    count = [0]

    def on_line(line: str):
        ev = parser.feed(line)
        if ev and ev[0] == "end":
            count[0] += 1
        if ev and ev[0] in ("metric", "end"):
            disp.metric(label, ev[1], count[0])

    disp.stage(f"{label}: running {image.name}")
    job = runners.Job(root, opts, rtos, image, parser, on_line, disp.stage, tmp)
    return runners.get(opts.board.runner).execute(job)


@dataclass
class ImageFacts:
    """What the host reads about a run outside the firmware's console: the image's size and
    compiler flags, the toolchain, the tree's revision. Gathered once (image_facts), so that
    assemble() is a pure function of the transcript and these facts."""
    flags: list = field(default_factory=list)
    flag_exceptions: list = field(default_factory=list)   # files built otherwise (manifest.flag_exceptions)
    toolchain: str = ""
    size: dict = field(default_factory=dict)
    thread_bytes: int = 0          # the thread control block in the image (the stack is extra)
    git: str = "unknown"
    host: dict = field(default_factory=dict)


def image_facts(root: Path, opts: Options, rtos: str, image: Path | None) -> ImageFacts:
    bdir = buildmod.build_dir(root, opts.board.id, opts.samples, opts.profile, opts.preset)
    host = opts.board.runner == "host"
    flags = mf.producer_flags(image) if image is not None and not host else []
    if not flags and image is not None and image not in opts.images.values():
        flags = mf.compile_flags(bdir)
    cc = (mf.cmake_compiler(bdir) or "cc") if host else "arm-none-eabi-gcc"
    facts = ImageFacts(flags=flags, toolchain=mf.toolchain_string(cc, flags),
                       git=mf.git_revision(root), host=mf.host_info())
    if image is not None and not host and flags:
        reasons = ports.get(rtos).flag_exceptions if rtos in ports.registry() else ()
        facts.flag_exceptions = mf.flag_exceptions(image, flags, reasons)
    if image is not None and not host:
        from .size import analyze, struct_size
        try:
            facts.size = analyze(image).as_size_keys()
        except RtoslabError:
            facts.size = {}
        if facts.size:
            facts.thread_bytes = struct_size(image, ports.get(rtos).thread_structs) or 0
    return facts


def assemble(t: Transcript, outcome: Outcome | None, rtos: str, opts: Options, image: Path | None,
             facts: ImageFacts, probe: dict, status: str, error: str) -> dict:
    """The result file's entry for one RTOS, from what the firmware said and what the host
    read (no I/O)."""
    keep = test_filter(opts.tests)
    clock = t.clock_hz or opts.board.clock_hz
    results, incomplete = [], []
    stopped = "" if t.done else (error or "the firmware stopped before @done")
    for m in t.metrics.values():
        if not keep(m.id):
            continue
        if m.complete:
            results.append(res.result_entry(m, clock, probe.get(m.index) if m.probe else None))
        else:
            incomplete.append({"id": m.id, "reason": m.problem or f"cut short: {stopped}",
                               "samples_received": len(m.samples)})
    masked_summary = outcome.extra.get("masked") if outcome is not None else None
    masked_section = None
    if masked_summary and t.done:
        extra, masked_section = masked_mod.results(masked_summary, clock)
        results += [e for e in extra if keep(e["id"])]
        prof, segments = masked_mod.profile(masked_summary, {m.index: m.id for m in t.metrics.values()})
        results += [e for e in prof if keep(e["id"])]
        masked_section["profile"] = segments
        results += [e for e in energy_mod.results(segments, results, opts.board.energy, clock) if keep(e["id"])]
    run = {
        "rtos": rtos,
        "rtos_version": t.rtos_version or "unknown",
        "rtos_name": ports.display_name(rtos),
        "rtos_source": ports.get(rtos).pin() if rtos in ports.registry() else "unknown",
        "board": opts.board.id,
        "profile": opts.profile,
        "clock_hz": clock,
        "toolchain": facts.toolchain,
        "config": dict(t.config),
        "status": status,
        "results": results,
        "absent": [{"id": k, "reason": v} for k, v in t.absent.items() if keep(k)],
        "incomplete": incomplete,
        "checks": [{"id": c.id, "passed": c.passed, "detail": c.detail} for c in t.checks.values()],
        "size": dict(facts.size),
        "manifest": {
            "board_profile": opts.board.profile(),
            "git": facts.git,
            "image": str(image) if image else None,
            "reported_board": t.board, "reported_rtos": t.rtos,
            "protocol": t.version,
            "accurate": t.run_fields.get("accurate"),     # 0: the firmware's counter is not the core clock
            "flags": facts.flags,
            "flag_exceptions": facts.flag_exceptions,
            "profile": opts.profile,
            "samples_requested": opts.samples,
            "preset": opts.preset,
            "tests": opts.tests,
            "exit_status": outcome.status if outcome else None,
            "stop": outcome.kind if outcome else None,
            "elapsed_s": round(outcome.elapsed_s, 3) if outcome else None,
            "host": facts.host,
        },
        "log": t.logs[:200],
        "warnings": t.warnings[:50],
    }
    per_thread = t.config.get("ram.per_thread") or t.config.get("per_thread_ram")
    if per_thread and str(per_thread).isdigit():
        run["size"]["ram.per_thread"] = int(per_thread)
    elif facts.thread_bytes:
        run["size"]["ram.per_thread"] = facts.thread_bytes
    if masked_section is not None:
        run["masked"] = masked_section
    if outcome is not None and "latency_model" in outcome.extra:
        run["latency_model"] = outcome.extra["latency_model"]
    if outcome is not None and "glue" in outcome.extra:
        run["glue"] = outcome.extra["glue"]
    if error:
        run["error"] = error
    if t.rtos and t.rtos != rtos:
        run["warnings"].append(f"the firmware says rtos={t.rtos}, expected {rtos}")
    return run


def outcome_error(out: Outcome, t: Transcript) -> str:
    if out.kind == "exit" and out.status == 0:
        return "" if t.done else "the firmware exited before @done"
    what = {"fault": "the firmware faulted", "lockup": "the firmware locked up",
            "cycle-limit": "the cycle limit was reached", "timeout": "timed out",
            "crash": "the runner crashed", "bad-input": "the simulator refused the image"}.get(
        out.kind, f"the firmware exited with status {out.status}")
    return f"{what}{': ' + out.message if out.message else ''}"


def results_dir(root: Path) -> Path:
    """Where default result files go: $RTOSLAB_RESULTS, else results/ of the repository."""
    env = os.environ.get("RTOSLAB_RESULTS")
    return Path(env) if env else root / "results"


def default_json_path(root: Path, what: str = "run") -> Path:
    """A name no other run takes: UTC time to the microsecond and the process id (runs started
    in the same second, even on the same machine at once, each keep their own file)."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S.%f")
    return results_dir(root) / f"{what}-{stamp}-{os.getpid()}.json"


def check_writable(path: Path) -> None:
    """Refuse, before anything runs, an output path that cannot be written (status 2)."""
    d = path.parent
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadInput(f"cannot create the folder {d} for {path.name}: {e.strerror}") from None
    if path.is_dir():
        raise BadInput(f"{path} is a folder, not a file")
    if not os.access(d, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise BadInput(f"cannot write {path}: permission denied (choose another --json/--csv path)")


class OutputNotWritten(RtoslabError):
    """The results could not be written where asked: they are in a fallback file (status 2:
    an environment problem, never the regression status)."""
    status = 2


@dataclass
class Report:
    """What `execute` hands back: the result document, where it was written, and what failed."""
    doc: dict
    path: Path
    failures: list[str] = field(default_factory=list)       # one line per failed RTOS
    build_failures: int = 0                                  # how many of them did not build
    write_problem: str = ""                                  # why `path` is a fallback

    def raise_for_failures(self) -> None:
        """The run's status as docs/cli.md defines it, most specific first."""
        if self.write_problem:
            raise OutputNotWritten(self.write_problem)
        if not self.failures:
            return
        kept = f"; results kept in {self.path}"
        if self.build_failures == len(self.failures):
            raise buildmod.BuildError(self.failures[0] + kept)
        more = f" (and {len(self.failures) - 1} more)" if len(self.failures) > 1 else ""
        raise FirmwareFailed(self.failures[0] + more + kept)


class Saver:
    """Writes the result document after every RTOS (whole, atomically), and the CSV beside it.
    Each output fails on its own: a CSV that cannot be written does not move the result file.
    A result file that cannot be written goes to a fallback file in the temporary folder (the
    stale one, a subset, removed); if that fails too, the document is still printed as the
    table. `problems` says what was not written, for the one line at the end (status 2)."""

    def __init__(self, path: Path, csv_path: Path | None):
        self.path, self.csv_path = path, csv_path
        self.requested = path
        self.json_problem = ""           # why `requested` is not the file
        self.fallback_problem = ""       # why the fallback is not written either
        self.csv_problem = ""
        self.written: set[Path] = set()  # outputs this run wrote (removed if they go stale)

    def _write(self, path: Path, writer, doc: dict) -> str:
        try:
            writer(doc, path)
            self.written.add(path)
            return ""
        except RtoslabError as e:
            return str(e)

    def save(self, doc: dict) -> None:
        if self.csv_path and not self.csv_problem:
            self.csv_problem = self._write(self.csv_path, res.write_csv, doc)
            if self.csv_problem:
                self._remove_stale(self.csv_path)
        if not self.json_problem:
            self.json_problem = self._write(self.path, res.write, doc)
            if not self.json_problem:
                return
            self.path = Path(tempfile.gettempdir()) / f"rtoslab-{self.requested.stem}-{os.getpid()}.json"
        self.fallback_problem = self._write(self.path, res.write, doc)
        if not self.fallback_problem:
            self._remove_stale(self.requested)

    def _remove_stale(self, path: Path) -> None:
        """An output written earlier in this run that now lags behind: removed, not left partial."""
        if path in self.written:
            try:
                path.unlink()
            except OSError:
                pass
            self.written.discard(path)

    @property
    def lost(self) -> bool:
        """Nothing of the document is on disk."""
        return bool(self.json_problem and self.fallback_problem)

    def problems(self) -> list[str]:
        out = []
        if self.csv_problem:
            out.append(f"{self.csv_path} not written ({_why(self.csv_problem)})")
        if self.json_problem:
            where = (f"nor the fallback {self.path} ({_why(self.fallback_problem)}): the results are only in "
                     "the table above" if self.fallback_problem else f"the results are in {self.path}")
            out.append(f"{self.requested} not written ({_why(self.json_problem)}); {where}")
        return out


def _why(message: str) -> str:
    """"cannot write PATH: reason" -> "reason" (the path is named once already)."""
    return message.split(": ", 1)[1] if message.startswith("cannot write ") and ": " in message else message


def run_one(root: Path, opts: Options, rtos: str, disp: Display, tmp: Path) -> tuple[dict, str, bool]:
    """Build, run, parse and assemble one RTOS: (its run entry, its failure or "", whether the
    failure is the build's). Ctrl-C keeps what was parsed, as an interrupted run."""
    parser = Parser()
    image = None
    try:
        image = build_image(root, opts, rtos, disp)
        outcome, probe = execute_image(root, opts, rtos, image, parser, disp, tmp)
    except KeyboardInterrupt:
        raise RunInterrupted([interrupted_run(root, opts, rtos, image, parser)]
                             if parser.t.lines or image else []) from None
    except buildmod.BuildError as e:
        if len(opts.rtos) == 1:
            raise
        return build_failed(root, opts, rtos, e)
    return finished_run(root, opts, rtos, image, parser, outcome, probe)


def interrupted_run(root: Path, opts: Options, rtos: str, image: Path | None, parser: Parser) -> dict:
    return assemble(parser.t, None, rtos, opts, image, image_facts(root, opts, rtos, image), {},
                    "interrupted", "interrupted by the user")


def build_failed(root: Path, opts: Options, rtos: str, e: buildmod.BuildError) -> tuple[dict, str, bool]:
    """run_one's answer for an image that did not build (the others go on)."""
    return assemble(Parser().t, None, rtos, opts, None, image_facts(root, opts, rtos, None), {},
                    "build failed", str(e)), f"{rtos}@{opts.board.id}: {e}", True


def finished_run(root: Path, opts: Options, rtos: str, image: Path, parser: Parser, outcome: Outcome,
                 probe: dict) -> tuple[dict, str, bool]:
    """run_one's answer for an image that ran (to its end, a fault, a limit)."""
    error = outcome_error(outcome, parser.t)
    run = assemble(parser.t, outcome, rtos, opts, image, image_facts(root, opts, rtos, image), probe,
                   "failed" if error else "complete", error)
    return run, (f"{rtos}@{opts.board.id}: {error}" if error else ""), False


def _serial(opts: Options, disp: Display) -> bool:
    from .parallel import serial_reason
    why = serial_reason(opts)
    if why:
        disp.note(f"--jobs {opts.jobs}: {why}")
    return bool(why)


class RunInterrupted(Exception):
    """Ctrl-C: the runs to keep (finished, or cut short with what was parsed), in order."""

    def __init__(self, runs: list[dict]):
        super().__init__("interrupted")
        self.runs = runs


def cell_results(root: Path, opts: Options, disp: Display, tmp: Path):
    """(rtos, run, failure, in_build) of every cell, in the command's order: here one at a
    time, in a local pool of processes (--jobs N), or on a Dask cluster (--dask)."""
    if opts.dask:
        from . import dask_cells
        yield from dask_cells.results(root, opts, disp, tmp)
    elif opts.jobs > 1 and len(opts.rtos) > 1 and not _serial(opts, disp):
        from . import parallel
        yield from parallel.results(root, opts, disp, tmp)
    else:
        for rtos in opts.rtos:
            yield (rtos, *run_one(root, opts.for_rtos(rtos), rtos, disp, tmp))


def execute(opts: Options, out: Console, err: Console, quiet: bool = False,
            history_db: Path | None = None, show_table: bool = True) -> Report:
    """The pipeline: for each RTOS build -> run -> parse -> assemble (cell_results: one at a
    time, --jobs at a time, or on a Dask cluster), then write (after every RTOS, in the
    command's order), record the history, print the table. Raises only for Ctrl-C and a single RTOS
    that does not build; every other failure is in the Report (raise_for_failures)."""
    root = mf.repo_root()
    json_path = opts.json_path or default_json_path(root)
    check_writable(json_path)
    if opts.csv_path:
        check_writable(opts.csv_path)
    doc = res.new_document(mf.git_revision(root))
    doc["run_id"] = uuid.uuid4().hex      # the history's key for this run's rows (history.py)
    doc["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    doc["command"] = " ".join(["rtoslab", *sys.argv[1:]])
    if opts.shard is not None:
        doc["shard"] = opts.shard
    saver = Saver(json_path, opts.csv_path)
    report = Report(doc, json_path)
    tmp = scratch.make()
    try:
        with Display(err, quiet) as disp:
            try:
                for rtos, run, failure, in_build in cell_results(root, opts, disp, tmp):
                    doc["runs"].append(run)
                    saver.save(doc)   # after every run: what was measured is never lost
                    if failure:
                        report.failures.append(failure)
                        report.build_failures += in_build
                    if in_build:
                        disp.note(f"{rtos}@{opts.board_for(rtos).id}: build failed, going on with the others")
                    else:
                        disp.note(f"{rtos}@{opts.board_for(rtos).id}: {len(run['results'])} metrics, "
                                  f"{len(run['absent'])} absent, {len(run['incomplete'])} incomplete, "
                                  f"{len(run['checks'])} checks" + (f" -- {run['error']}" if failure else ""))
            except RunInterrupted as stop:
                doc["runs"] += stop.runs
                doc["interrupted"] = True
                saver.save(doc)
                record_history(history_db, doc, saver.path)
                raise Interrupted(f"interrupted: results so far kept in {saver.path}") from None
            except RtoslabError:
                if doc["runs"]:
                    saver.save(doc)
                raise
    finally:
        scratch.remove(tmp)
    problems = saver.problems()
    if opts.json_path is None and opts.kind == "bench" and not problems:
        try:
            res.atomic_write(json_path.parent / "latest.json", res.to_json(doc))
        except RtoslabError:
            pass
    if not saver.lost:
        problems += record_history(history_db, doc, saver.path)
    elif history_db is not None:
        problems.append(f"history {history_db} not written (no result file to name)")
    report.path = saver.path
    report.write_problem = "; ".join(problems)
    if show_table:
        print_table(doc, opts, out)
        if not report.failures and not report.write_problem:
            err.print(f"results: {saver.path}", highlight=False)
    return report


def record_history(db: Path | None, doc: dict, path: Path) -> list[str]:
    """Every complete RTOS run goes into the history, also when the run was interrupted.
    Returns what was not written (the run's status is then 2), nothing when all went well."""
    if db is None:
        return []
    from . import history
    try:
        history.record(db, doc, str(path))
    except RtoslabError as e:
        return [f"history {db} not written ({e})"]
    return []


def print_table(doc: dict, opts: Options, out: Console) -> None:
    """The compact decision table fitted to the terminal (or every statistic with --wide)."""
    from .table import compact_tables, rich_tables, table_width
    boards = [BOARDS[i] for i in dict.fromkeys(opts.board_for(r).id for r in opts.rtos)] or [opts.board]
    title = "rtoslab run on " + "; ".join(f"{b.id} ({b.timing})" for b in boards) + \
        f", profile {opts.profile}"
    notes = []
    for run in doc["runs"]:
        if run.get("status") == "build failed":
            notes.append(f"{run['rtos']}: build failed")
        elif run["checks"]:
            passed = sum(c["passed"] for c in run["checks"])
            notes.append(f"{run['rtos']}: checks {passed}/{len(run['checks'])} passed")
    if not doc["runs"]:
        return
    if opts.wide:
        tables = rich_tables(doc["runs"], title)
        tables[-1].caption = "; ".join(notes) or None
        tables[-1].caption_justify = "left"
        width = max(out.width if out.is_terminal else 0, table_width(doc["runs"]))
        wide = Console(file=out.file, width=width, no_color=out.no_color, force_terminal=out.is_terminal)
        for t in tables:
            wide.print(t)
        return
    width = out.width if out.is_terminal else 100
    out.print(title, highlight=False)
    # the key metrics unless the user chose which (--tests)
    for t in compact_tables(doc["runs"], width, opts.baseline, focus=not opts.tests):
        out.print(t)
    if notes:
        out.print("; ".join(notes), highlight=False)
    if opts.glue:
        from .glue import table as glue_table
        out.print("the port glue's cycles / the RTOS's, median of the traced warm samples "
                  "(docs/methodology.md, 'Glue at parity')", highlight=False)
        out.print(glue_table(doc["runs"]) or "no glue measured", highlight=False, markup=False)
