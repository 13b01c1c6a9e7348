"""Flash and RAM by component from an ELF file (pyelftools), like Tables 10 and 11 of seed 000.

Components: vectors/start-up, kernel, port, application, C library (plus 'stacks/heap' for
sections the linker reserves for them, and 'other' for what cannot be attributed: fill and
alignment). Each symbol is attributed to the file it came from, found in this order:
  1. DWARF: the compilation unit whose address ranges (.debug_aranges, DW_AT_low_pc/high_pc,
     DW_AT_ranges) contain a function, or that defines a variable at that address;
  2. the linker map beside the image (NAME.map or NAME.elf.map): object and archive path;
  3. the STT_FILE symbol that precedes a local symbol in the symbol table;
  4. the symbol's name (vector tables, reset handler, the compiler's helper functions).
The file path decides the component (components.py: the rules, as data).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import linkmap
from .components import COMPONENTS, LABELS, STARTUP_NAMES, classify_name, classify_path
from .elfimage import with_elf
from .intervals import Intervals

__all__ = ["COMPONENTS", "LABELS", "SizeReport", "Sym", "analyze", "classify_name", "classify_path",
           "struct_size"]


@dataclass
class Sym:
    name: str
    addr: int
    size: int
    section: str
    kind: str            # func / object
    source: str = ""     # where the attribution came from
    how: str = ""
    component: str = "other"


@dataclass
class SizeReport:
    path: str
    machine: str
    sections: list[dict]
    flash: dict = field(default_factory=dict)     # component -> bytes
    ram: dict = field(default_factory=dict)
    flash_total: int = 0
    ram_total: int = 0
    symbols: list[Sym] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    breakdown: dict = field(default_factory=dict)  # component -> {"text": .., "rodata": .., "data": .., "bss": ..}

    def as_size_keys(self) -> dict:
        """The run['size'] dict of the result file: flash.<component>, ram.<component>."""
        out = {}
        for c in COMPONENTS:
            if self.flash.get(c):
                out[f"flash.{c}"] = self.flash[c]
            if self.ram.get(c):
                out[f"ram.{c}"] = self.ram[c]
        out["flash.total"] = self.flash_total
        out["ram.total"] = self.ram_total
        return out

    def to_dict(self) -> dict:
        return {
            "path": self.path, "machine": self.machine, "flash_total": self.flash_total,
            "ram_total": self.ram_total, "flash": self.flash, "ram": self.ram,
            "breakdown": self.breakdown, "sections": self.sections, "notes": self.notes,
            "top": {c: [(s.name, s.size) for s in self.top(c, 8)] for c in COMPONENTS},
        }

    def top(self, component: str, k: int = 5) -> list[Sym]:
        return sorted((s for s in self.symbols if s.component == component),
                      key=lambda s: -s.size)[:k]


def _die_name(die) -> str:
    try:
        at = die.attributes
        if "DW_AT_name" in at:
            v = at["DW_AT_name"].value
        elif "DW_AT_specification" in at:
            v = die.get_DIE_from_attribute("DW_AT_specification").attributes["DW_AT_name"].value
        elif "DW_AT_abstract_origin" in at:
            v = die.get_DIE_from_attribute("DW_AT_abstract_origin").attributes["DW_AT_name"].value
        else:
            return ""
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    except Exception:
        return ""


def _dwarf_maps(elf) -> tuple[Intervals[str], dict[int, list], list[str]]:
    """(CU address ranges, {address: [(object or function name, CU path)]}, notes)."""
    code: Intervals[str] = Intervals()
    data: dict[int, list] = {}
    notes: list[str] = []
    if not elf.has_dwarf_info():
        notes.append("no DWARF: attribution from the map file, file symbols and names")
        code.freeze()
        return code, data, notes
    try:
        dw = elf.get_dwarf_info()
        cu_names: dict[int, str] = {}
        range_lists = None
        for cu in dw.iter_CUs():
            top = cu.get_top_DIE()
            try:
                name = top.get_full_path()
            except Exception:
                name = str(top.attributes.get("DW_AT_name").value if "DW_AT_name" in top.attributes else "")
            if isinstance(name, bytes):
                name = name.decode("utf-8", "replace")
            cu_names[cu.cu_offset] = name
            at = top.attributes
            if "DW_AT_low_pc" in at and "DW_AT_high_pc" in at:
                lo = at["DW_AT_low_pc"].value
                hi = at["DW_AT_high_pc"].value
                if at["DW_AT_high_pc"].form != "DW_FORM_addr":
                    hi = lo + hi
                if lo:            # 0: everything the linker dropped (--gc-sections)
                    code.add(lo & ~1, hi, name)
            elif "DW_AT_ranges" in at:
                try:
                    range_lists = range_lists or dw.range_lists()
                    if range_lists is not None:
                        for r in range_lists.get_range_list_at_offset(at["DW_AT_ranges"].value, cu=cu):
                            if hasattr(r, "begin_offset") and r.begin_offset:
                                code.add(r.begin_offset & ~1, r.end_offset, name)
                except Exception:
                    pass
            for die in cu.iter_DIEs():
                if die.tag == "DW_TAG_variable":
                    loc = die.attributes.get("DW_AT_location")
                    if loc is None or not isinstance(loc.value, list) or len(loc.value) != 5 \
                            or loc.value[0] != 0x03:
                        continue
                    addr = int.from_bytes(bytes(loc.value[1:5]), "little")
                elif die.tag == "DW_TAG_subprogram":
                    lo = die.attributes.get("DW_AT_low_pc")
                    if lo is None:
                        continue
                    addr = lo.value & ~1
                else:
                    continue
                vname = _die_name(die)
                data.setdefault(addr, []).append((vname, name))
        try:
            ar = dw.get_aranges()
            if ar is not None:
                for e in ar.entries:
                    if e.info_offset in cu_names and e.length and e.begin_addr:
                        code.add(e.begin_addr & ~1, e.begin_addr + e.length, cu_names[e.info_offset])
        except Exception:
            pass
    except Exception as e:  # damaged DWARF: fall back to the rest
        notes.append(f"DWARF unreadable ({type(e).__name__}); attribution from symbols")
    code.freeze()
    return code, data, notes


def _map_intervals(elf_path: Path, alloc: set[str]) -> Intervals[str] | None:
    """Input sections of the linker map beside the image, in the allocated output sections:
    address range -> the object or archive member; None without a readable map."""
    mp = linkmap.find_map(elf_path)
    if mp is None:
        return None
    try:
        sections = linkmap.input_sections(mp)
    except OSError:
        return None
    iv: Intervals[str] = Intervals()
    for s in sections:
        if s.output in alloc:
            iv.add(s.addr, s.end, s.origin)
    return iv.freeze()


def analyze(path: str | Path) -> SizeReport:
    path = Path(path)
    return with_elf(path, lambda elf: _analyze(elf, path))


def _section_class(sec) -> tuple[bool, bool, str]:
    """(in flash, in RAM, kind) of an allocated section."""
    flags = sec["sh_flags"]
    write = bool(flags & 0x1)
    execute = bool(flags & 0x4)
    nobits = sec["sh_type"] == "SHT_NOBITS"
    if nobits:
        return False, True, "bss"
    if write:
        return True, True, "data"
    return True, False, "text" if execute else "rodata"


def _cover_gaps(gaps: list[tuple[int, int]], sources: Intervals[str], covered: dict[str, int]) -> list:
    """Count the parts of gaps that an interval of sources (a path each) classifies into
    covered; return the parts left."""
    left = []
    for g_lo, g_hi in gaps:
        at = g_lo
        for m_lo, m_hi, what in sources.items:
            if m_hi <= at or m_lo >= g_hi:
                continue
            o_lo, o_hi = max(at, m_lo), min(g_hi, m_hi)
            comp = classify_path(what) if o_hi > o_lo else None
            if comp:
                if o_lo > at:
                    left.append((at, o_lo))
                covered[comp] += o_hi - o_lo
                at = o_hi
        if at < g_hi:
            left.append((at, g_hi))
    return left


def _analyze(elf, path: Path) -> SizeReport:
    from elftools.elf.sections import SymbolTableSection

    machine = elf["e_machine"]
    rep = SizeReport(str(path), str(machine), [])
    if machine != "EM_ARM":
        rep.notes.append(f"not an Arm image ({machine}); components are guessed the same way")
    secs = []
    for idx, sec in enumerate(elf.iter_sections()):
        if not (sec["sh_flags"] & 0x2) or sec["sh_size"] == 0:     # SHF_ALLOC
            continue
        in_flash, in_ram, kind = _section_class(sec)
        secs.append((idx, sec, in_flash, in_ram, kind))
        rep.sections.append({"name": sec.name, "addr": sec["sh_addr"], "size": sec["sh_size"],
                             "kind": kind, "flash": in_flash, "ram": in_ram})
    code, data_vars, notes = _dwarf_maps(elf)
    rep.notes += notes
    mapiv = _map_intervals(path, {sec.name for _, sec, _, _, _ in secs})
    if mapiv is None:
        rep.notes.append("no linker map beside the image")
    symtab = elf.get_section_by_name(".symtab")
    if not isinstance(symtab, SymbolTableSection):
        symtab = next((s for s in elf.iter_sections() if isinstance(s, SymbolTableSection)), None)
    syms: dict[tuple[int, int], Sym] = {}
    sec_index = {idx: (sec, fl, ra, kind) for idx, sec, fl, ra, kind in secs}
    if symtab is None:
        rep.notes.append("no symbol table: only section totals")
    else:
        cur_file = ""
        for s in symtab.iter_symbols():
            typ = s["st_info"]["type"]
            if typ == "STT_FILE":
                cur_file = s.name
                continue
            if typ not in ("STT_FUNC", "STT_OBJECT") or not s["st_size"]:
                continue
            shndx = s["st_shndx"]
            if not isinstance(shndx, int) or shndx not in sec_index:
                continue
            sec = sec_index[shndx][0]
            addr = s["st_value"] & ~1 if typ == "STT_FUNC" else s["st_value"]
            key = (shndx, addr)
            if key in syms and syms[key].size >= s["st_size"]:
                continue
            local_file = cur_file if s["st_info"]["bind"] == "STB_LOCAL" else ""
            syms[key] = Sym(s.name, addr, s["st_size"], sec.name,
                            "func" if typ == "STT_FUNC" else "object", local_file)
    for sym in syms.values():
        src, how = None, "dwarf"
        cands = data_vars.get(sym.addr, [])
        named = [cu for n, cu in cands if n == sym.name]
        if named:
            src = named[0]
        elif len({cu for _, cu in cands}) == 1 and sym.addr:
            src = cands[0][1]
        if src is None:
            src = code.find(sym.addr)   # functions and constants inside a CU's ranges
        comp = classify_path(src) if src else None
        if comp is None and mapiv is not None:
            msrc = mapiv.find(sym.addr)
            if msrc:
                src, how, comp = msrc, "map", classify_path(msrc)
        if comp is None and sym.source:
            src, how, comp = sym.source, "file-symbol", classify_path(sym.source)
        if comp is None or comp == "application":
            by_name = classify_name(sym.name)
            if by_name and (comp is None or src is None):
                comp, how = by_name, "name"
        if comp == "application" and STARTUP_NAMES.search(sym.name) and how != "dwarf":
            comp = "startup"
        sym.source, sym.how, sym.component = src or "", how if src or comp else "", comp or "other"
    rep.symbols = sorted(syms.values(), key=lambda s: s.addr)
    # Totals: every section byte counted once; the part no symbol covers (string literals,
    # literal pools, fill) goes by the linker map's input sections, else to 'other'.
    for _idx, sec, in_flash, in_ram, kind in secs:
        lo, size = sec["sh_addr"], sec["sh_size"]
        hi = lo + size
        covered = {c: 0 for c in COMPONENTS}
        gaps = []
        ends = lo
        for sym in rep.symbols:
            if sym.section != sec.name:
                continue
            s_lo, s_hi = max(sym.addr, ends), min(sym.addr + sym.size, hi)
            if sym.addr > ends:
                gaps.append((ends, min(sym.addr, hi)))
            if s_hi > s_lo:
                covered[sym.component] += s_hi - s_lo
                ends = s_hi
        if ends < hi:
            gaps.append((ends, hi))
        # the same order as for symbols: the compilation unit's source first (an assembly
        # routine without a .size, e.g. ThreadX's ports/cortex_m0, is named by its CU only:
        # the map names the archive it was linked from), then the map
        gaps = _cover_gaps(gaps, code, covered)
        if mapiv is not None:
            _cover_gaps(gaps, mapiv, covered)
        rest = size - sum(covered.values())
        name = sec.name.lower()
        if re.search(r"stack|heap", name):
            covered = {c: 0 for c in COMPONENTS}
            covered["stacks"] = size
            rest = 0
        if rest > 0:
            covered["other"] += rest
        for c, n in covered.items():
            if not n:
                continue
            b = rep.breakdown.setdefault(c, {"text": 0, "rodata": 0, "data": 0, "bss": 0})
            b[kind] += n
            if in_flash:
                rep.flash[c] = rep.flash.get(c, 0) + n
            if in_ram:
                rep.ram[c] = rep.ram.get(c, 0) + n
        if in_flash:
            rep.flash_total += size
        if in_ram:
            rep.ram_total += size
    return rep


# The thread control block of each RTOS: its size is the RAM one more thread costs besides
# its stack (result key ram.per_thread).
def struct_size(path, names) -> int | None:
    """DW_AT_byte_size of the first structure named in names (DWARF), or None."""
    try:
        return with_elf(path, lambda elf: _struct_size(elf, names))
    except Exception:
        return None


def _struct_size(elf, names) -> int | None:
    if not elf.has_dwarf_info():
        return None
    for cu in elf.get_dwarf_info().iter_CUs():
        for die in cu.iter_DIEs():
            if die.tag != "DW_TAG_structure_type":
                continue
            at = die.attributes
            if "DW_AT_byte_size" not in at or "DW_AT_name" not in at:
                continue
            n = at["DW_AT_name"].value
            n = n.decode("utf-8", "replace") if isinstance(n, bytes) else str(n)
            if n in names:
                return int(at["DW_AT_byte_size"].value)
    return None
