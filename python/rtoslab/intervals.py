"""Address intervals, looked up by address: the one index behind the size report (which
compilation unit or input section holds an address) and the trace (which data object holds a
stack pointer)."""
from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")

# How many intervals starting at or below an address are examined: overlaps are shallow
# (nested compilation units, an object inside an arena), so a bounded look-back is enough.
LOOK_BACK = 64


class Intervals(Generic[T]):
    """[lo, hi) intervals with a value each. Add, freeze once, then look up."""

    def __init__(self, sort_key: Callable[[tuple[int, int, T]], object] | None = None):
        self.items: list[tuple[int, int, T]] = []
        self._sort_key = sort_key
        self._starts: list[int] = []

    def add(self, lo: int, hi: int, value: T) -> None:
        if hi > lo:
            self.items.append((lo, hi, value))

    def freeze(self) -> Intervals[T]:
        self.items.sort(key=self._sort_key)
        self._starts = [i[0] for i in self.items]
        return self

    def starting_at_or_below(self, addr: int) -> Iterator[tuple[int, int, T]]:
        """The intervals that start at or below addr, nearest start first (at most LOOK_BACK)."""
        i = bisect.bisect_right(self._starts, addr) - 1
        stop = max(i - LOOK_BACK, -1)
        while i > stop:
            yield self.items[i]
            i -= 1

    def find(self, addr: int) -> T | None:
        """The value of the nearest-starting interval that holds addr."""
        for lo, hi, value in self.starting_at_or_below(addr):
            if lo <= addr < hi:
                return value
        return None
