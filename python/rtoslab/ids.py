"""The ids of docs/interfaces.md: boards, metrics and behaviour checks; RTOS ids are the port
registry's (ports.py)."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from . import contract
from .errors import BadInput


@dataclass(frozen=True)
class Board:
    id: str
    runner: str            # vp, qemu, host, serial
    clock_hz: int          # nominal; the firmware's @run line wins
    cycle_exact: bool
    timing: str            # how far the numbers can be trusted
    wait_states: int = 0
    arch: str = "armv6-m"
    notes: str = ""
    extra: dict = field(default_factory=dict)

    def profile(self) -> dict:
        return {
            "id": self.id, "runner": self.runner, "clock_hz": self.clock_hz,
            "cycle_exact": self.cycle_exact, "timing": self.timing,
            "flash_wait_states": self.wait_states, "arch": self.arch, "notes": self.notes,
        }


BOARDS = {
    "vp-m0": Board("vp-m0", "vp", 48_000_000, True, "cycle-exact (simulator, zero wait states)"),
    "vp-stm32f0": Board("vp-stm32f0", "vp", 48_000_000, True,
                        "cycle-exact (simulator, 1 flash wait state + prefetch)", wait_states=1),
    # ARMv7-M on the simulator: deterministic, timed from the Cortex-M3/M4 TRMs (pipelined
    # loads and stores, no-forwarding stall, IT folding), but not every rule of them
    # (docs/board.md, "Boards vp-m3 and vp-m4": the literal load's "might add a cycle", STR
    # with an immediate offset "always one cycle" through the write buffer, P fixed at 2),
    # so not called cycle-exact
    "vp-m3": Board("vp-m3", "vp", 48_000_000, False,
                   "deterministic simulator, Cortex-M3 TRM timing without its unconditioned rules (docs/board.md)",
                   arch="armv7-m", notes="the lab board with a Cortex-M3"),
    "vp-m4": Board("vp-m4", "vp", 48_000_000, False,
                   "deterministic simulator, Cortex-M4 TRM timing without its unconditioned rules (docs/board.md)",
                   arch="armv7-m", notes="the lab board with a Cortex-M4F (FPU with lazy stacking; 64 KiB RAM)"),
    "qemu-microbit": Board("qemu-microbit", "qemu", 16_000_000, False,
                           "functional only: QEMU is not cycle-accurate", arch="armv6-m",
                           notes="timing not cycle-accurate"),
    "qemu-raspi2b": Board("qemu-raspi2b", "qemu", 1_000_000_000, False,
                          "functional only: QEMU is not cycle-accurate (-icount shift=0: 1 ns per "
                          "instruction; counter = PMCCNTR at 1 GHz of virtual time)", arch="armv7-a",
                          notes="Raspberry Pi 2B (BCM2836, Cortex-A7) of seed 004; timing not cycle-accurate"),
    "qemu-mps2-an385": Board("qemu-mps2-an385", "qemu", 25_000_000, False,
                             "functional only: QEMU is not cycle-accurate (counter = CMSDK timer "
                             "at 25 MHz of virtual time)", arch="armv7-m",
                             notes="MPS2 AN385 (Cortex-M3); timing not cycle-accurate"),
    "qemu-mps2-an386": Board("qemu-mps2-an386", "qemu", 25_000_000, False,
                             "functional only: QEMU is not cycle-accurate (counter = CMSDK timer "
                             "at 25 MHz of virtual time)", arch="armv7-m",
                             notes="MPS2 AN386 (Cortex-M4F); timing not cycle-accurate"),
    "host": Board("host", "host", 1_000_000_000, False,
                  "host clock (Linux, SCHED_FIFO); not comparable cycle for cycle", arch="host"),
    "stm32f0-discovery": Board("stm32f0-discovery", "serial", 48_000_000, True,
                               "real silicon (STM32F051, 1 wait state)", wait_states=1),
}
DEFAULT_BOARD = "vp-m0"

# Metric and check ids (docs/interfaces.md), with unit and better direction: generated from
# spec/contracts.toml into contract.py. Each is in cycles of the board clock unless the
# firmware says otherwise (tm.* are operations per 10^7 cycles: higher is better).
RHEALSTONE = contract.METRIC_GROUPS["rhealstone"]
METRIC_IDS = tuple(contract.METRICS)
CHECK_IDS = contract.CHECK_IDS


def metric_unit(metric_id: str) -> str | None:
    """The unit of a known metric id (None for an id the contract does not know)."""
    known = contract.METRICS.get(metric_id)
    return known[0] if known else None


def higher_is_better(metric_id: str) -> bool:
    known = contract.METRICS.get(metric_id)
    if known:
        return known[1] == "higher"
    return metric_id.startswith("tm.")  # an id newer than this tool: throughput by its name


def metric_order(metric_id: str) -> tuple:
    """Sort key: the order of interfaces.md, unknown ids after, alphabetically."""
    try:
        return (0, METRIC_IDS.index(metric_id), "")
    except ValueError:
        return (1, 0, metric_id)


def parse_rtos_list(value: str | None, default=None, board: Board | None = None) -> list[str]:
    """--rtos: comma-separated registry ids, or `all` (every port that runs on `board`)."""
    from . import ports
    if value is None or value.strip() == "":
        if default is not None:
            return list(default)
        # the registry's defaults that build for the board (else every port that does:
        # qemu-raspi2b, whose only port is jobbed)
        fits = [p for p in ports.registry().values() if board is None or p.runs_on(board.arch)]
        return [p.id for p in fits if p.default] or [p.id for p in fits]
    out = []
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        if item == "all":
            kind = "host" if board is not None and board.id == "host" else "firmware"
            out += [p.id for p in ports.registry().values() if p.kind == kind and p.id not in out
                    and (board is None or p.runs_on(board.arch))]
            continue
        ports.get(item)  # one line for an unknown id
        if item not in out:
            out.append(item)
    if not out:
        raise BadInput("no RTOS given")
    return out


def get_board(board_id: str) -> Board:
    try:
        return BOARDS[board_id]
    except KeyError:
        raise BadInput(f"unknown board id '{board_id}' (known: {', '.join(BOARDS)})") from None


def check_pair(rtos: str, board: Board) -> None:
    """One line, status 2, for an RTOS asked for on a board it does not build for."""
    from . import ports
    port = ports.get(rtos)
    if port.runs_on(board.arch):
        return
    fits = [b.id for b in BOARDS.values() if port.runs_on(b.arch)]
    raise BadInput(f"RTOS '{rtos}' runs on {', '.join(fits) or 'no board'}, not on '{board.id}'")


def test_filter(pattern: str | None):
    """--tests PATTERN: comma-separated shell patterns on metric/check ids ('rhealstone.*').

    A pattern with no wildcard matches the id itself and every id below it
    ('sem' matches 'sem.signal_wake')."""
    if not pattern:
        return lambda _id: True
    pats = [p.strip() for p in pattern.split(",") if p.strip()]
    if not pats:
        raise BadInput("--tests: empty pattern")

    def match(metric_id: str) -> bool:
        for p in pats:
            if any(ch in p for ch in "*?["):
                if fnmatch.fnmatchcase(metric_id, p):
                    return True
            elif metric_id == p or metric_id.startswith(p + "."):
                return True
        return False

    return match
