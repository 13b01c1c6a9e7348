"""`--shard i/N`: one share of a command's cell matrix, for a CI matrix, a Slurm array or a
Kubernetes indexed Job (each runs `rtoslab run ... --shard i/N`, then `rtoslab merge` joins
the files).

The split is fixed (docs/cli.md, "Shards"): the cells (RTOS, board, profile) are sorted by
their key `rtos@board/profile`, and the k-th of them (0-based) goes to shard k mod N + 1
(round-robin, as Zephyr's twister deals its test suites): the shares differ by one cell at
most, and the same command with the same N always gives every cell the same shard, whatever
machine runs it. A shard keeps the command's own order among its cells. A shard may be empty
(N larger than the matrix): its file then holds no run, and merge still counts it.

Each shard's result file records the split (`shard`: index, count and the whole matrix's
keys in the command's order), which is what lets merge refuse a missing cell.
"""
from __future__ import annotations

from .errors import BadInput


def parse(text: str | None) -> tuple[int, int] | None:
    """"i/N" -> (i, N), 1 <= i <= N; None for no shard. One line, status 2, otherwise."""
    if text is None:
        return None
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"--shard {text}: expected I/N, e.g. 1/4 (the first of four shares)")
    index, count = (int(p) for p in parts)
    if count < 1 or not 1 <= index <= count:
        raise BadInput(f"--shard {text}: I must be between 1 and N (N at least 1)")
    return index, count


def cell_key(rtos: str, board: str, profile: str) -> str:
    """The cell's name in shard records and merge's messages."""
    return f"{rtos}@{board}/{profile}"


def assign(keys: list[str], count: int) -> dict[str, int]:
    """Every key's shard (1-based): round-robin over the sorted keys."""
    return {k: i % count + 1 for i, k in enumerate(sorted(set(keys)))}


def select(keys: list[str], index: int, count: int) -> list[str]:
    """The keys of shard `index` of `count`, in the order given."""
    where = assign(keys, count)
    return [k for k in keys if where[k] == index]


def record(keys: list[str], index: int, count: int) -> dict:
    """What a shard's result file says of the split (results `shard`)."""
    return {"index": index, "count": count, "matrix": list(keys)}
