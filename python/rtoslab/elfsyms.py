"""Symbols of an ELF image by address: for naming threads by the stack their PSP is in."""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput


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
        self.objects = sorted(objects, key=lambda o: (o.addr, -o.size))
        self.starts = [o.addr for o in self.objects]
        self.initial_sp = initial_sp
        self.machine = machine
        self.entry = entry

    def containing(self, addr: int) -> Obj | None:
        """The data object whose [addr, addr+size] holds addr (the top, one past the end, too:
        a fresh stack's pointer is its end)."""
        i = bisect.bisect_right(self.starts, addr) - 1
        best = None
        steps = 0
        while i >= 0 and steps < 64:
            o = self.objects[i]
            if o.addr <= addr <= o.end and (best is None or o.size < best.size):
                if addr < o.end or best is None:
                    best = o
            i -= 1
            steps += 1
        return best


def load(path: str | Path) -> SymbolMap:
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    path = Path(path)
    if not path.exists():
        raise BadInput(f"{path}: no such file")
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not an ELF file")
    with open(path, "rb") as f:
        if f.read(4) != b"\x7fELF":
            raise BadInput(f"{path}: not an ELF file")
        f.seek(0)
        try:
            elf = ELFFile(f)
            objs = []
            for sec in elf.iter_sections():
                if not isinstance(sec, SymbolTableSection):
                    continue
                for s in sec.iter_symbols():
                    if s["st_info"]["type"] == "STT_OBJECT" and s["st_size"] and \
                            isinstance(s["st_shndx"], int):
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
        except (ELFError, ValueError, KeyError, IndexError, OSError, AssertionError) as e:
            raise BadInput(f"{path}: malformed ELF file ({e})") from None
        except Exception as e:
            raise BadInput(f"{path}: malformed ELF file ({type(e).__name__}: {e})") from None
