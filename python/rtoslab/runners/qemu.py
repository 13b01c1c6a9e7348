"""QEMU's Cortex-M0 machine: functionally real, timing not cycle-accurate.

This module is the one definition of the QEMU command line. The shell scripts and the
differential test run it through the `rtoslab-qemu` command (main() below).

The guest's clock is deterministic: `-icount shift=6,align=off,sleep=off` makes every guest
instruction advance virtual time by 2^6 ns (about 15.6 MIPS, close to the nRF51's 16 MHz),
and an idle guest (WFI) jumps straight to its next timer event. The guest's timers then
follow its instructions, not the host's clock, so a run gives the same output on an idle
and on a busy machine (and an idle wait costs no host time).
"""
from __future__ import annotations

import os
import shutil
import sys
from collections import deque
from pathlib import Path

from ..errors import RtoslabError
from .base import Outcome, last_line, stream

ICOUNT = "shift=6,align=off,sleep=off"


def binary() -> str:
    return os.environ.get("RTOSLAB_QEMU", "qemu-system-arm")


def command(image: Path, *, serial: bool = True) -> list[str]:
    """The QEMU command that runs `image` on the microbit machine: console on semihosting
    (and the UART on stdio unless `serial` is False), exit through semihosting."""
    cmd = [binary(), "-M", "microbit", "-nographic", "-monitor", "none",
           "-icount", ICOUNT, "-semihosting-config", "enable=on,target=native"]
    if not serial:
        cmd += ["-serial", "none"]
    return cmd + ["-kernel", str(image)]


def run(image: Path, on_line, *, timeout: float | None = 600) -> Outcome:
    if not shutil.which(binary()):
        raise RtoslabError(f"{binary()} not found: apt-get install qemu-system-arm", status=4)
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


USAGE = "usage: rtoslab-qemu [--no-serial] [--print] IMAGE.elf"


def main(argv: list[str] | None = None) -> int:
    """`rtoslab-qemu [--no-serial] [--print] IMAGE`: run IMAGE under QEMU with the project's
    command line (exec: QEMU's status is the command's), or print that command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    serial = "--no-serial" not in args
    show = "--print" in args
    rest = [a for a in args if a not in ("--no-serial", "--print")]
    if len(rest) != 1 or rest[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    cmd = command(Path(rest[0]), serial=serial)
    if show:
        print(" ".join(cmd))
        return 0
    if not shutil.which(cmd[0]):
        print(f"rtoslab-qemu: {cmd[0]} not found: apt-get install qemu-system-arm", file=sys.stderr)
        return 4
    os.execvp(cmd[0], cmd)
    return 0  # not reached
