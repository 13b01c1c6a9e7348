"""QEMU's Cortex-M0 machine: functionally real, timing not cycle-accurate."""
from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

from ..errors import RtoslabError
from .base import Outcome, last_line, stream


def command(image: Path) -> list[str]:
    return ["qemu-system-arm", "-M", "microbit", "-nographic", "-monitor", "none",
            "-semihosting-config", "enable=on,target=native", "-kernel", str(image)]


def run(image: Path, on_line, *, timeout: float | None = 600) -> Outcome:
    if not shutil.which("qemu-system-arm"):
        raise RtoslabError("qemu-system-arm not found: apt-get install qemu-system-arm", status=4)
    # QEMU writes the semihosting console to stderr: read both as the console
    lines: deque[str] = deque(maxlen=20)

    def tee(line: str):
        lines.append(line)
        on_line(line)
    status, err, timed_out, secs = stream(command(image), tee, timeout, merge_stderr=True)
    err = "\n".join(lines)
    if timed_out:
        return Outcome(None, "timeout", "QEMU did not finish in time", err, None, secs)
    if status is None or status < 0:
        return Outcome(status, "crash", f"QEMU died ({status})", err, None, secs)
    return Outcome(status, "exit", last_line(err) if status else "", err, None, secs)

