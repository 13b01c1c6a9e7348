"""QEMU's machines of the suite: functionally real, timing not cycle-accurate.

This module is the one place QEMU command lines are made, one per QEMU board of the board
registry (runner kind "qemu": its [runner] table names the machine, -icount and the
semihosting settings). The shell scripts and the differential test run it through the
`rtoslab-qemu` command (main() below).

The guest's clock is deterministic: `-icount shift=N,align=off,sleep=off` makes every guest
instruction advance virtual time by 2^N ns, and an idle guest (WFI) jumps straight to its
next timer event. The guest's timers then follow its instructions, not the host's clock, so
a run gives the same output on an idle and on a busy machine (and an idle wait costs no
host time).

The board of an image is the one named (run(board=...), `rtoslab-qemu --board`), else the
build folder's name (build/fw/<board>[-<samples>]/), else the image's entry point: an
ARMv7-A image starts in ARM state (even entry address: the first ARMv7-A QEMU board), a
Thumb image (odd) runs on the first ARMv6-M QEMU board; an ARMv7-M image is not told apart
from an ARMv6-M one this way: name its board.
"""
from __future__ import annotations

import os
import shutil
import stat
import sys
from collections import deque
from pathlib import Path

from .. import boards
from ..errors import RtoslabError
from .base import Outcome, last_line, stream

def machines() -> dict[str, dict]:
    """Board id -> its QEMU settings (machine, icount, semihosting, uart_console): the
    board registry's QEMU boards (bench/boards/<id>/board.toml, [runner])."""
    return {b.id: b.qemu for b in boards.registry().values() if b.runner == "qemu"}


def binary() -> str:
    return os.environ.get("RTOSLAB_QEMU", "qemu-system-arm")


def board_of(image: Path) -> str:
    """The QEMU board an image was built for: its build folder's name, else its entry
    point's instruction set (ARM: raspi2b, Thumb: microbit)."""
    name = Path(image).resolve().parent.name
    for b in machines():
        if name == b or name.startswith(b + "-"):
            return b
    try:
        with open(image, "rb") as f:
            head = f.read(0x1C)
        if head[:4] == b"\x7fELF" and head[4] == 1:
            order = "little" if head[5] == 1 else "big"
            entry = int.from_bytes(head[0x18:0x1C], order)
            return _first_qemu("armv6-m" if entry % 2 else "armv7-a")
    except (OSError, IndexError):
        pass
    return _first_qemu("armv6-m")


def _first_qemu(arch: str) -> str:
    fits = [b.id for b in boards.registry().values() if b.runner == "qemu" and b.arch == arch]
    return fits[0] if fits else next(iter(machines()), "")


def command(image: Path, *, serial: bool = True, board: str | None = None) -> list[str]:
    """The QEMU command that runs `image` on its board's machine, exit through semihosting.
    microbit: console on semihosting (and the UART on stdio unless `serial` is False);
    raspi2b, mps2: console on the UART (stdio), so `serial` does not apply."""
    q = machines()[board or board_of(image)]
    cmd = [binary(), "-M", q["machine"], "-nographic", "-monitor", "none",
           "-icount", q["icount"], "-semihosting-config", q["semihosting"]]
    if not serial and not q["uart_console"]:
        cmd += ["-serial", "none"]
    return cmd + ["-kernel", str(image)]


def run(image: Path, on_line, *, timeout: float | None = 600, board: str | None = None) -> Outcome:
    if not shutil.which(binary()):
        raise RtoslabError(f"{binary()} not found: apt-get install qemu-system-arm", status=4)
    # QEMU writes the semihosting console to stderr: read both as the console
    lines: deque[str] = deque(maxlen=20)

    def tee(line: str):
        lines.append(line)
        on_line(line)
    status, err, timed_out, secs = stream(command(image, board=board), tee, timeout, merge_stderr=True)
    err = "\n".join(lines)
    if timed_out:
        return Outcome(None, "timeout", "QEMU did not finish in time", err, None, secs)
    if status is None or status < 0:
        return Outcome(status, "crash", f"QEMU died ({status})", err, None, secs)
    return Outcome(status, "exit", last_line(err) if status else "", err, None, secs)


def execute(job) -> tuple[Outcome, dict]:
    """One image of `rtoslab run`/`check` (runners/__init__.py); QEMU records no probe."""
    return run(job.image, job.on_line, timeout=job.opts.timeout, board=job.opts.board.id), {}


def not_an_image(path: Path) -> str:
    """Why `path` cannot be handed to QEMU (a folder, a device, a symlink loop, not an ELF
    file), or "": QEMU would abort on it with a register dump."""
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            return "is a folder, not an image" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        with open(path, "rb") as f:
            head = f.read(20)
    except FileNotFoundError:
        return "no such file"
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if len(head) < 20 or head[:4] != b"\x7fELF" or head[4] != 1:
        return "not a 32-bit ELF image"
    return ""


def usage() -> str:
    return "usage: rtoslab-qemu [--no-serial] [--print] [--board " + "|".join(machines()) + "] IMAGE.elf"


def main(argv: list[str] | None = None) -> int:
    """`rtoslab-qemu [--no-serial] [--print] [--board B] IMAGE`: run IMAGE under QEMU with the
    project's command line for its board (exec: QEMU's status is the command's), or print
    that command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    board = None
    if "--board" in args:
        i = args.index("--board")
        if i + 1 >= len(args) or args[i + 1] not in machines():
            print(usage(), file=sys.stderr)
            return 2
        board = args[i + 1]
        del args[i:i + 2]
    serial = "--no-serial" not in args
    show = "--print" in args
    rest = [a for a in args if a not in ("--no-serial", "--print")]
    if len(rest) != 1 or rest[0].startswith("-"):
        print(usage(), file=sys.stderr)
        return 2
    # --print of an image yet to be built shows the command; anything else there must be an ELF
    problem = "" if show and not os.path.lexists(rest[0]) else not_an_image(Path(rest[0]))
    if problem:
        print(f"rtoslab-qemu: {rest[0]}: {problem}", file=sys.stderr)
        return 2
    if board is None and os.path.lexists(rest[0]):
        # the board recorded in the image (.note.rtoslab); a simulator board's image does not
        # run under QEMU (another memory map and console): one line, not QEMU's abort
        from ..boardnote import board_note
        from ..errors import BadInput
        try:
            recorded = board_note(rest[0])
        except BadInput as e:
            print(f"rtoslab-qemu: {e}", file=sys.stderr)
            return 2
        if recorded in machines():
            board = recorded
        elif recorded is not None:
            print(f"rtoslab-qemu: {rest[0]}: built for board '{recorded}', not a QEMU board "
                  f"({', '.join(machines())}): rebuild it for one, or run it with rtoslab-vp run",
                  file=sys.stderr)
            return 2
    cmd = command(Path(rest[0]), serial=serial, board=board)
    if show:
        print(" ".join(cmd))
        return 0
    if not shutil.which(cmd[0]):
        print(f"rtoslab-qemu: {cmd[0]} not found: apt-get install qemu-system-arm", file=sys.stderr)
        return 4
    os.execvp(cmd[0], cmd)
    return 0  # not reached
