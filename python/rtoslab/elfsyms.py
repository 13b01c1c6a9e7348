"""Symbols of an ELF image by address: for naming threads by the stack their PSP is in."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .elfimage import with_elf
from .intervals import Intervals


@dataclass(frozen=True)
class Obj:
    name: str
    addr: int
    size: int

    @property
    def end(self) -> int:
        return self.addr + self.size


class SymbolMap:
    def __init__(self, objects: list[Obj], initial_sp: int | None, machine: str, entry: int):
        # by start, the larger first at one start (the nearest start is examined first)
        self._index: Intervals[Obj] = Intervals(sort_key=lambda i: (i[0], -i[2].size))
        for o in objects:
            self._index.add(o.addr, o.end + 1, o)   # the end itself counts (below)
        self._index.freeze()
        self.objects = [o for _, _, o in self._index.items]
        self.initial_sp = initial_sp
        self.machine = machine
        self.entry = entry

    def containing(self, addr: int) -> Obj | None:
        """The smallest data object whose [addr, addr+size] holds addr (the top, one past the
        end, too: a fresh stack's pointer is its end; an object that holds addr strictly is
        preferred to one that ends there)."""
        best = None
        for _, _, o in self._index.starting_at_or_below(addr):
            if o.addr <= addr <= o.end and (best is None or o.size < best.size):
                if addr < o.end or best is None:
                    best = o
        return best


def load(path: str | Path) -> SymbolMap:
    return with_elf(path, _load)


def _load(elf) -> SymbolMap:
    from elftools.elf.sections import SymbolTableSection

    objs = []
    for sec in elf.iter_sections():
        if not isinstance(sec, SymbolTableSection):
            continue
        for s in sec.iter_symbols():
            if s["st_info"]["type"] == "STT_OBJECT" and s["st_size"] and isinstance(s["st_shndx"], int):
                objs.append(Obj(s.name, s["st_value"], s["st_size"]))
    initial_sp = None
    for seg in elf.iter_segments():
        if seg["p_type"] == "PT_LOAD" and seg["p_paddr"] <= 0 < seg["p_paddr"] + seg["p_filesz"] \
                and seg["p_filesz"] >= 4:
            data = seg.data()
            off = 0 - seg["p_paddr"]
            initial_sp = int.from_bytes(data[off:off + 4], "little")
            break
    return SymbolMap(objs, initial_sp, elf["e_machine"], elf["e_entry"])
