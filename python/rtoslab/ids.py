"""The ids of interfaces.md: boards, metrics and behaviour checks; RTOS ids are the port
registry's (ports.py)."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

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
    "qemu-microbit": Board("qemu-microbit", "qemu", 16_000_000, False,
                           "functional only: QEMU is not cycle-accurate", arch="armv6-m",
                           notes="timing not cycle-accurate"),
    "host": Board("host", "host", 1_000_000_000, False,
                  "host clock (Linux, SCHED_FIFO); not comparable cycle for cycle", arch="host"),
    "stm32f0-discovery": Board("stm32f0-discovery", "serial", 48_000_000, True,
                               "real silicon (STM32F051, 1 wait state)", wait_states=1),
}
DEFAULT_BOARD = "vp-m0"

# Metric ids (interfaces.md). Each is in cycles of the board clock unless the firmware says
# otherwise (tm.* are operations per 10^7 cycles: higher is better).
RHEALSTONE = (
    "rhealstone.task_switch", "rhealstone.preemption", "rhealstone.interrupt_latency",
    "rhealstone.semaphore_shuffle", "rhealstone.deadlock_break", "rhealstone.message_passing",
)
_DELAYS = ("10us", "20us", "50us", "100us", "200us", "500us", "1ms", "5ms", "10ms")
_SCALE_N = ("n2", "n4", "n8", "n16", "n32")
METRIC_IDS = (
    RHEALSTONE
    + ("sem.signal_wake", "sem.wait_block")
    + ("thread.create_low", "thread.create_high", "mutex.create", "mutex.destroy",
       "mutex.lock_uncontended", "mutex.lock_contended", "mutex.unlock",
       "sem.wait_available", "sem.signal_no_waiter", "sem.signal_waiter")
    + ("irq.to_thread", "irq.dispatch", "irq.latency_worst")
    + tuple(f"timer.delay_error.{d}" for d in _DELAYS)
    + ("timer.periodic_jitter", "stimulus.pulse_error", "boot.first_thread", "overhead.probe")
    + tuple(f"scale.task_switch.{n}" for n in _SCALE_N)
    + tuple(f"scale.sem_signal_wake.{n}" for n in _SCALE_N)
    + ("tm.cooperative", "tm.preemptive", "tm.interrupt", "tm.interrupt_preemption",
       "tm.message", "tm.synchronization", "tm.memory")
)
# ---- issue 15 ("Measure what the seeds measured"): new metric ids, one block, to be moved
# into spec/contracts.toml at merge. SIMULATOR_IDS are measured by the simulator itself (not
# reported by the firmware): present for a run on vp-* only.
SIMULATOR_IDS = ("irq.masked", "irq.masked_max", "time.tick_fraction.idle", "time.tick_fraction.load",
                 "cpu.idle_fraction.idle", "cpu.idle_fraction.load")
SEED_VARIANT_IDS = ("rhealstone.preemption.seed003", "rhealstone.semaphore_shuffle.seed001",
                    "rhealstone.semaphore_shuffle.seed003", "rhealstone.message_passing.seed001")
SCALE_IDS = tuple(f"scale.prio_wake.n{n}" for n in (2, 4, 8)) + \
    tuple(f"scale.timeout_wake.n{n}" for n in (0, 2, 8, 30))
ONESHOT_IDS = tuple(f"timer.oneshot_error.{d}" for d in ("10us", "100us", "1ms", "10ms"))
PULSE_IDS = tuple(f"stimulus.{k}.{w}" for w in ("20us", "200us", "2ms") for k in ("pulse", "train", "missed"))
ISSUE15_IDS = SIMULATOR_IDS + ("sem.signal_nonzero", "time.idle_window") + SEED_VARIANT_IDS + SCALE_IDS + \
    ONESHOT_IDS + PULSE_IDS
METRIC_IDS = METRIC_IDS + ISSUE15_IDS
# ---- end of the issue 15 block

CHECK_IDS = (
    "check.priority_order", "check.fifo_equal_priority", "check.preempt_immediate",
    "check.sem_counting", "check.priority_inversion", "check.deadlock", "check.xpsr_preserved",
    "check.timeout", "check.isr_signal",
)


def higher_is_better(metric_id: str) -> bool:
    return metric_id.startswith("tm.")


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
        return list(default if default is not None else
                    [p.id for p in ports.registry().values() if p.default])
    out = []
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        if item == "all":
            kind = "host" if board is not None and board.id == "host" else "firmware"
            out += [p.id for p in ports.registry().values() if p.kind == kind and p.id not in out]
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
    if (rtos == "posix") != (board.id == "host"):
        if rtos == "posix":
            raise BadInput("RTOS 'posix' runs only on board 'host'")
        raise BadInput(f"board 'host' runs only RTOS 'posix', not '{rtos}'")


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
