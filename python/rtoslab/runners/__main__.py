"""`python -m rtoslab.runners --board B IMAGE [OPTION...]`: run a firmware image on a board of
the registry with the board's own runner, for the shell scripts (kernel/tests/run.sh,
bench/suite/*.sh), so that none of them names a board or knows how it runs:

- a simulator board: `rtoslab-vp run IMAGE` with the board's core and memory system
  (runners/vp.py, board_args), and the OPTIONs (the simulator's: --max-cycles, --ram, ...);
- a QEMU board: `rtoslab-qemu --no-serial --board B IMAGE` (runners/qemu.py); simulator
  OPTIONs do not apply there and are left out.

The command's status is the runner's (exec). Bad input: one line, status 2.
"""
from __future__ import annotations

import os
import sys

from .. import boards
from ..errors import RtoslabError
from ..manifest import repo_root
from . import qemu, vp

USAGE = "usage: python -m rtoslab.runners --board BOARD IMAGE [SIMULATOR-OPTION...]"


def command(board_id: str, image: str, options: list[str]) -> list[str]:
    board = boards.get(board_id)
    if board.runner == "vp":
        return [vp.find_vp(repo_root()), "run", image, *vp.board_args(board.id, options), *options]
    if board.runner == "qemu":
        return qemu.command(image, serial=False, board=board.id)
    raise RtoslabError(f"board '{board.id}' runs through its {board.runner} runner, not from a script", status=2)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "--board":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        cmd = command(argv[1], argv[2], argv[3:])
    except RtoslabError as e:
        print(f"rtoslab.runners: {e}", file=sys.stderr)
        return e.status
    try:
        os.execvp(cmd[0], cmd)
    except OSError as e:
        print(f"rtoslab.runners: cannot run {cmd[0]}: {e.strerror}", file=sys.stderr)
        return 4
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
