"""Symbols of an ELF image by address: for naming threads by the stack their PSP is in.

A thread of the rtoslab kernel defined with K_THREAD_DEFINE is in the kernel's own thread table
(the `k_thread_defs` section: struct z_thread_def, kernel/include/rtoslab/kernel.h): its stack
is named after the thread (its `struct k_thread` symbol) rather than after the stack array,
whatever the application calls it."""
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
            # an array defined by a macro can come out of LTO untyped (STT_NOTYPE) but sized
            if s["st_info"]["type"] in ("STT_OBJECT", "STT_NOTYPE") and s["st_size"] and s.name \
                    and isinstance(s["st_shndx"], int) and _is_data(elf, s["st_shndx"]):
                objs.append(Obj(s.name, s["st_value"], s["st_size"]))
    named, tcbs = _thread_table(elf, objs)
    # a thread's stack carries its name; its control block (named the same) is no stack
    objs = [o for o in objs if (o.addr, o.size) not in named and o.addr not in tcbs] + \
        [Obj(name, addr, size) for (addr, size), name in named.items()]
    initial_sp = None
    for seg in elf.iter_segments():
        if seg["p_type"] == "PT_LOAD" and seg["p_paddr"] <= 0 < seg["p_paddr"] + seg["p_filesz"] \
                and seg["p_filesz"] >= 4:
            data = seg.data()
            off = 0 - seg["p_paddr"]
            initial_sp = int.from_bytes(data[off:off + 4], "little")
            break
    return SymbolMap(objs, initial_sp, elf["e_machine"], elf["e_entry"])


def _is_data(elf, shndx: int) -> bool:
    """A section that is in RAM or flash at run time and not code (SHF_ALLOC without SHF_EXECINSTR)."""
    try:
        flags = elf.get_section(shndx)["sh_flags"]
    except (IndexError, KeyError):
        return False
    return bool(flags & 0x2) and not flags & 0x4


THREAD_DEF = 24     # struct z_thread_def: thread, stack, stack_bytes, entry, arg, prio (6 words)


def _thread_table(elf, objs: list[Obj]) -> tuple[dict[tuple[int, int], str], set[int]]:
    """({(stack address, bytes): thread name}, {control block addresses}) from the kernel's
    thread table; the name is the `struct k_thread` object's symbol, else the entry function's,
    else the control block's address."""
    sec = elf.get_section_by_name("k_thread_defs")
    if sec is None or sec["sh_type"] == "SHT_NOBITS":
        return {}, set()
    data = sec.data()
    at = {o.addr: o.name for o in objs}
    funcs = {}
    for symsec in elf.iter_sections():
        if symsec["sh_type"] == "SHT_SYMTAB":
            funcs.update({s["st_value"] & ~1: s.name for s in symsec.iter_symbols()
                          if s["st_info"]["type"] == "STT_FUNC" and s.name})
    out, tcbs = {}, set()
    for off in range(0, len(data) - THREAD_DEF + 1, THREAD_DEF):
        tcb, stack, size, entry = (int.from_bytes(data[off + i:off + i + 4], "little") for i in (0, 4, 8, 12))
        if size:
            out[(stack, size)] = at.get(tcb) or funcs.get(entry & ~1) or f"thread@0x{tcb:08x}"
            tcbs.add(tcb)
    return out, tcbs
