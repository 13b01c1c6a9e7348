"""The simulator runner: rtoslab-vp run IMAGE --core C ... [--trace FILE] [--vcd FILE], the board
given by what the registry says of it (board_args), so that a board the simulator was not
built with runs too."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .. import boards
from ..contract import EXIT_STATUS
from ..errors import RtoslabError
from .base import Outcome, last_line, stream

# docs/board.md, 'Simulator exit statuses' (spec/contracts.toml): status -> kind of outcome
STATUS_KIND = {status: kind for status, (kind, _meaning) in EXIT_STATUS.items()}


def find_vp(root: Path, build: bool = False, note=None) -> str:
    env = os.environ.get("RTOSLAB_VP")
    if env:
        if not (Path(env).is_file() and os.access(env, os.X_OK)):
            raise RtoslabError(f"RTOSLAB_VP={env}: not an executable file", status=2)
        return env
    cand = root / "vp" / "target" / "release" / "rtoslab-vp"
    if build and (root / "vp" / "Cargo.toml").exists() and shutil.which("cargo") and _stale(root, cand):
        if note:
            note("building the simulator (cargo build --release in vp/)")
        p = subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                            str(root / "vp" / "Cargo.toml")], capture_output=True, text=True)
        if p.returncode != 0:
            raise RtoslabError(f"building the simulator failed: {last_line(p.stderr)}", status=4)
    if cand.is_file():
        return str(cand)
    found = shutil.which("rtoslab-vp")
    if found:
        return found
    raise RtoslabError("rtoslab-vp not found: build it (cargo build --release in vp/) or set RTOSLAB_VP",
                       status=4)


_OPTIONS: dict[str, str] = {}


def has_option(vp: str, option: str) -> bool:
    """Does this simulator's `run` know `option` (e.g. --masked, newer than some builds)?"""
    if vp not in _OPTIONS:
        try:
            p = subprocess.run([vp, "run", "--help"], capture_output=True, text=True, timeout=20)
            _OPTIONS[vp] = p.stdout + p.stderr
        except (OSError, subprocess.SubprocessError):
            _OPTIONS[vp] = ""
    return option in _OPTIONS[vp].split() or f"{option} " in _OPTIONS[vp]


def _stale(root: Path, binary: Path) -> bool:
    """Missing, or older than a source file of the crate: then it needs building."""
    if not binary.is_file():
        return True
    t = binary.stat().st_mtime
    for p in [root / "vp" / "Cargo.toml", root / "vp" / "Cargo.lock", *(root / "vp" / "src").rglob("*.rs")]:
        try:
            if p.stat().st_mtime > t:
                return True
        except OSError:
            continue
    return False


def classify(status: int | None, timed_out: bool, stderr: str) -> tuple[str, str]:
    if timed_out:
        return "timeout", "the simulator did not finish in time"
    if status is None:
        return "crash", "the simulator was killed"
    if status < 0:
        return "crash", f"the simulator died of signal {-status}"
    kind = STATUS_KIND.get(status, "exit")
    msg = last_line(stderr) if kind != "exit" or status != 0 else ""
    return kind, msg


def board_args(board: str | None, extra=()) -> list[str]:
    """The simulator's options for a board of the registry (None: the default board); a
    `--ram` in `extra` (the caller's own) wins over the board's."""
    args = boards.get(board or boards.default_id()).simulator_args()
    if "--ram" in extra:
        i = args.index("--ram")
        del args[i:i + 2]
    return args


def run(vp: str, image: Path, board: str, on_line, *, trace: Path | None = None,
        trace_events: str | None = None, vcd: Path | None = None, max_cycles: int | None = None,
        timeout: float | None = None, extra: list[str] | None = None,
        fault_stop: bool = False) -> Outcome:
    cmd = [vp, "run", str(image), *board_args(board, extra or ())]
    if fault_stop:
        cmd.append("--fault-stop")
    if max_cycles:
        cmd += ["--max-cycles", str(max_cycles)]
    if trace:
        cmd += ["--trace", str(trace)]
        if trace_events:
            cmd += ["--trace-events", trace_events]
    if vcd:
        cmd += ["--vcd", str(vcd)]
    cmd += extra or []
    status, err, timed_out, secs = stream(cmd, on_line, timeout)
    kind, msg = classify(status, timed_out, err)
    return Outcome(status, kind, msg, err, trace if trace and trace.exists() else None, secs)


def execute(job) -> tuple[Outcome, dict]:
    """One image of `rtoslab run`/`check` on a simulator board: the console, and what only the
    simulator records (the probe's edges, the interrupts-masked sections, the latency model).
    Returns (outcome, probe samples by metric index)."""
    from .. import glue as glue_mod
    from .. import latency
    from .. import masked as masked_mod
    from .. import ports
    opts, rtos, board = job.opts, job.rtos, job.opts.board.id
    vp = find_vp(job.root, build=opts.build, note=job.stage)
    trace = job.tmp / f"{rtos}.trace.jsonl" if opts.probe or opts.latency_model or opts.glue else None
    # the interrupts-masked sections (irq.masked*), if this simulator records them
    masked_file = job.tmp / f"{rtos}.masked.json" if has_option(vp, "--masked") else None
    out = run(vp, job.image, board, job.on_line, trace=trace, trace_events="probe,mark,stim",
              max_cycles=opts.max_cycles, timeout=opts.timeout, fault_stop=True,
              extra=["--masked", str(masked_file)] if masked_file else None)
    out.extra["masked"] = masked_mod.read(masked_file) if masked_file else None
    probe = {}
    if out.trace is not None and opts.probe:
        origins = {m.index: m.probe_from for m in job.parser.t.metrics.values() if m.probe_from}
        probe = read_probe(out.trace, origins)
    if opts.latency_model and out.ok:
        job.stage(f"{job.label}: the latency model (instruction trace of irq.to_thread)")
        out.extra["latency_model"] = latency.from_run(vp, job.image, board, out.trace, job.parser.t)
    if opts.glue and out.ok:
        job.stage(f"{job.label}: the glue's cycles (instruction trace of the hot paths)")
        port = ports.registry().get(rtos)
        out.extra["glue"] = glue_mod.from_run(vp, job.image, board, out.trace, job.parser.t, rtos,
                                              glue_is_kernel=bool(port and port.glue_is_kernel),
                                              glue_paths=port.glue_paths if port else ())
    return out, probe


def read_probe(trace: Path, origins: dict | None = None) -> dict:
    """The probe's samples by metric index, from the event trace's probe, mark and stimulus
    events (stats.pair_probe_edges)."""
    import json

    from ..stats import pair_probe_edges
    events = []
    try:
        with open(trace, encoding="utf-8", errors="replace") as f:
            for line in f:
                if '"probe"' in line or '"mark"' in line or '"stim"' in line:
                    try:
                        events.append(json.loads(line))
                    except ValueError:
                        continue
    except OSError:
        return {}
    return pair_probe_edges(events, origins)
