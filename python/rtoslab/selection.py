"""What a command runs: `--rtos` and `--board` resolved, once, into cells (an RTOS on a board),
from the port registry (ports.py) and the board registry (boards.py).

    resolve("rtoslab,jobbed", None)  ->  rtoslab on the default board, jobbed on the first
                                         board it builds for (its "home")
    resolve("all", "vp-m3")          ->  every firmware port that builds for vp-m3

Every error is one line (BadInput, status 2): an unknown id, an RTOS named for a board it does
not build for or does not fit (manifest `ram_kib_min`). A port whose sources are missing, or
that does not fit the board's RAM, is an error when named, skipped with one line (`note`) when
it comes from `all` or the defaults.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import boards, peers, ports
from .boards import Board
from .errors import BadInput


@dataclass(frozen=True)
class Cell:
    """One RTOS on one board (the image is built by build.py, run by the board's runner)."""
    rtos: str
    board: Board


@dataclass
class Selection:
    board: Board                                # the board given (else the default board)
    cells: list[Cell] = field(default_factory=list)
    named: tuple[str, ...] = ()                 # the RTOSes named one by one

    @property
    def rtos(self) -> list[str]:
        return [c.rtos for c in self.cells]

    def homes(self) -> dict[str, Board]:
        """rtos -> its board, where that is not `board`."""
        return {c.rtos: c.board for c in self.cells if c.board.id != self.board.id}


def parse_rtos(value: str | None, board: Board) -> tuple[list[str], tuple[str, ...]]:
    """--rtos: comma-separated registry ids, or `all` (every port of the board's kind that
    builds for it); empty: the registry's defaults that build for the board (the host: its
    ports). Returns (ids in order, the ids named one by one)."""
    registry = ports.registry()
    kind = "host" if board.runner == "host" else "firmware"
    fits = [p for p in registry.values() if p.kind == kind and p.runs_on(board.arch)]
    if value is None or not value.strip():
        if kind == "host":
            return [p.id for p in fits], ()
        return [p.id for p in fits if p.default] or [p.id for p in fits], ()
    out, named = [], []
    for item in (i.strip() for i in value.split(",")):
        if not item:
            continue
        if item == "all":
            out += [p.id for p in fits if p.id not in out]
            continue
        ports.get(item)  # one line for an unknown id
        named.append(item)
        if item not in out:
            out.append(item)
    if not out:
        raise BadInput("no RTOS given")
    return out, tuple(named)


def home_board(rtos: str) -> Board | None:
    """The first board of the registry an RTOS builds for."""
    port = ports.get(rtos)
    return next((b for b in boards.registry().values() if port.runs_on(b.arch)), None)


def check_pair(rtos: str, board: Board) -> None:
    """One line, status 2, for an RTOS asked for on a board it does not build for."""
    port = ports.get(rtos)
    if port.runs_on(board.arch):
        if why := port.too_big_for(board.ram_kib):
            raise BadInput(f"RTOS '{rtos}' does not fit '{board.id}': {why}")
        return
    fits = [b.id for b in boards.registry().values() if port.runs_on(b.arch)]
    raise BadInput(f"RTOS '{rtos}' runs on {', '.join(fits) or 'no board'}, not on '{board.id}'")


def resolve(rtos: str | None, board: str | None, *, images: dict | None = None, note=None) -> Selection:
    """The cells of `--rtos RTOS --board BOARD`. Without --board, each RTOS that does not
    build for the default board runs on its home board (so that one command sets seed 004's
    Cortex-A7 port and the host's Linux threads beside the default board's RTOSes)."""
    given = board is not None
    b = boards.get(board if given else boards.default_id())
    ids, named = parse_rtos(rtos, b)
    sel = Selection(board=b, named=named)
    for r in ids:
        where = b
        if not given and not ports.get(r).runs_on(b.arch):
            where = home_board(r) or b
        if r not in named and (why := ports.get(r).too_big_for(where.ram_kib)):
            if note:
                note(f"skipped {r}: {why}")
            continue
        check_pair(r, where)
        if r not in (images or {}):
            try:
                peers.require(ports.get(r))
            except peers.SourcesMissing as e:
                if r in named:
                    raise
                if note:
                    note(f"skipped {e}")
                continue
        sel.cells.append(Cell(r, where))
    if not sel.cells:
        raise BadInput("no RTOS to run: the sources of every RTOS asked for are missing")
    return sel
