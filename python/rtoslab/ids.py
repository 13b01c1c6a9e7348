"""The ids of docs/interfaces.md: metrics and behaviour checks; board ids are the board
registry's (boards.py), RTOS ids the port registry's (ports.py)."""
from __future__ import annotations

import fnmatch

from . import boards, contract
from .boards import Board
from .errors import BadInput


# The boards are the board registry's (boards.py: bench/boards/<id>/board.toml); a board.toml
# that does not load disables its board with one line (boards.broken()), not every command.
BOARDS = boards.registry()
DEFAULT_BOARD = boards.default_id()

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


def direction(metric_id: str, unit: str = "cycles") -> str:
    """Which way is better (spec/contracts.toml): lower, higher, zero (a signed error, closer to
    zero) or none (a measurement, not a cost: never ranked)."""
    known = contract.METRICS.get(metric_id)
    if known:
        return known[1]
    return "higher" if higher_is_better(metric_id) or unit.startswith("ops") else "lower"


def metric_did_you_mean(word: str) -> str:
    """'; did you mean 'rhealstone.task_switch'?' for a mistyped metric or check id (or group:
    'rhealstone'), '' when nothing is close."""
    groups = {i.rsplit(".", 1)[0] for i in METRIC_IDS + CHECK_IDS if "." in i}
    plain = word.rstrip("*?").rstrip(".")
    return boards.did_you_mean(plain, sorted(set(METRIC_IDS + CHECK_IDS) | groups))


def metric_order(metric_id: str) -> tuple:
    """Sort key: the order of interfaces.md, unknown ids after, alphabetically."""
    try:
        return (0, METRIC_IDS.index(metric_id), "")
    except ValueError:
        return (1, 0, metric_id)


def get_board(board_id: str) -> Board:
    return boards.get(board_id)


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
