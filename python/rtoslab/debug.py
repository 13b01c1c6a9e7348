"""`rtoslab debug`: the suite image of one RTOS on a simulator board under GDB.

Builds `bench-<rtos>` for the board (as `run` does), starts `rtoslab-vp run IMAGE --gdb
127.0.0.1:0` (the simulator takes a free port and prints it), then `gdb-multiarch` on the ELF,
connected (`target remote`). `--metric ID` adds a breakpoint where the suite begins that
metric (`bench_begin` with that id). Arguments after `--` go to GDB (e.g. `-batch -x FILE`).

The simulator runs in its own process group, so the terminal's Ctrl-C reaches GDB alone,
which halts the core through the protocol. The simulator's own lines (the stop message, the
fault of a HardFault) come on stderr beside GDB's. The exit status is the simulator's (its
statuses, docs/board.md), or 2/4 for bad input / a missing tool.
"""
from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

from . import boards, build, ports, selection
from .errors import BadInput, RtoslabError
from .ids import METRIC_IDS, metric_did_you_mean
from .runners.vp import board_args, find_vp

GDB = "gdb-multiarch"
# the simulator's line once it listens (vp/src/debug/serve.rs)
LISTENING = re.compile(r"waiting for GDB on (\S+:\d+)")


def gdb_commands(addr: str, metric: str | None) -> list[str]:
    """GDB's -ex commands: connect; with a metric, break where the suite begins it."""
    cmds = [f"target remote {addr}"]
    if metric:
        cmds.append(f'break bench_begin if $_streq(id, "{metric}")')
    return cmds


def _image(root: Path, rtos: str, board: boards.Board, elf: str | None, do_build: bool, profile: str) -> Path:
    if elf:
        p = Path(elf)
        if not p.is_file():
            raise BadInput(f"--elf {elf}: no such file")
        return p
    target = build.target_name("bench", rtos)
    if not do_build:
        img = build.find_image(build.build_dir(root, board.id, None, profile), target)
        if img is None:
            raise BadInput(f"--no-build: no {target} image built for {board.id} (run without --no-build)")
        return img
    return build.build(root, board.id, target, profile=profile)


def _relay(stream, first: list[str]) -> None:
    for line in first:
        sys.stderr.write(line)
    for line in stream:
        sys.stderr.write(line)
    sys.stderr.flush()


def debug(root: Path, rtos: str, board_id: str | None, metric: str | None, elf: str | None,
          do_build: bool, profile: str, gdb_args: tuple[str, ...], note=None) -> int:
    if metric and metric not in METRIC_IDS:
        raise BadInput(f"--metric {metric}: not a metric id (docs/methodology.md lists them)"
                       f"{metric_did_you_mean(metric)}")
    if "," in rtos or rtos == "all":
        raise BadInput(f"--rtos {rtos}: debug takes one RTOS")
    board = boards.get(board_id or boards.default_id())
    if board.runner != "vp":
        raise BadInput(f"--board {board.id}: debug needs a simulator board (rtoslab boards --runner vp)")
    ports.get(rtos)  # an unknown id: one line, status 2
    selection.check_pair(rtos, board)
    gdb = shutil.which(GDB)
    if not gdb:
        raise RtoslabError(f"{GDB} not found: install Debian's gdb-multiarch (make setup does)", status=4)
    image = _image(root, rtos, board, elf, do_build, profile)
    vp = find_vp(root, build=True, note=note)
    sim = subprocess.Popen([vp, "run", str(image), *board_args(board.id), "--gdb", "127.0.0.1:0"],
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen: list[str] = []
    addr = None
    assert sim.stderr is not None
    for line in sim.stderr:
        seen.append(line)
        m = LISTENING.search(line)
        if m:
            addr = m.group(1)
            break
    if addr is None:
        sim.wait()
        sys.stderr.write("".join(seen))
        raise RtoslabError(f"rtoslab-vp did not start its GDB server (status {sim.returncode})", status=4)
    relay = threading.Thread(target=_relay, args=(sim.stderr, seen), daemon=True)
    relay.start()
    cmd = [gdb, "-q", str(image)]
    for c in gdb_commands(addr, metric):
        cmd += ["-ex", c]
    cmd += list(gdb_args)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is GDB's
    try:
        subprocess.run(cmd)
        status = sim.wait()
    finally:
        signal.signal(signal.SIGINT, old)
        if sim.poll() is None:
            sim.kill()
            sim.wait()
    relay.join(timeout=5)
    return status
