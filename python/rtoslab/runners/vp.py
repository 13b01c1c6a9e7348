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
