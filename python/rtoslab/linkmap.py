"""The GNU ld map file (-Wl,-Map=FILE): which object or archive member each input section
of the image came from, and where it was placed. Used by the size report; kernel/tests/size.py
can use it too (`python3 -c` with PYTHONPATH=python: standard library only).

    for s in input_sections(find_map("fw.elf")): s.output, s.name, s.addr, s.size, s.origin
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# ` .text.main     0x00000100     0x24 build/app.o` (one line), or the name alone when it is
# too long, and the address, size and origin on the next line.
_SECTION = re.compile(r"^ (\.[\w.$-]+|COMMON)(?:\s+(0x[0-9a-fA-F]+)\s+(0x[0-9a-fA-F]+)\s+(\S.*))?$")
_CONTINUATION = re.compile(r"^\s+(0x[0-9a-fA-F]+)\s+(0x[0-9a-fA-F]+)\s+(\S.*)$")
_MEMORY_MAP = "Linker script and memory map"


@dataclass(frozen=True)
class InputSection:
    output: str    # the output section it was placed in (.text, .bss, ...)
    name: str      # the input section (.text.main, COMMON, ...)
    addr: int
    size: int
    origin: str    # the object file or `archive.a(member.o)` it came from

    @property
    def end(self) -> int:
        return self.addr + self.size


def find_map(elf_path: str | Path) -> Path | None:
    """The map beside an image: NAME.map or NAME.elf.map."""
    elf_path = Path(elf_path)
    cands = [elf_path.with_suffix(".map"), Path(str(elf_path) + ".map")]
    return next((c for c in cands if c.is_file()), None)


def parse(lines: list[str]) -> list[InputSection]:
    """The input sections of the memory map part of a map file, in file order."""
    out: list[InputSection] = []
    started = False
    output = ""
    pending = ""     # an input section whose address is on the next line
    for line in lines:
        if line.startswith(_MEMORY_MAP):
            started = True
            continue
        if not started:
            continue
        if line[:1] not in (" ", ""):          # an output section
            output = line.split()[0]
            pending = ""
            continue
        m = _SECTION.match(line)
        if m:
            if m.group(2):
                out.append(InputSection(output, m.group(1), int(m.group(2), 16), int(m.group(3), 16),
                                        m.group(4).strip()))
                pending = ""
            else:
                pending = m.group(1)
            continue
        if pending:
            m = _CONTINUATION.match(line)
            if m:
                out.append(InputSection(output, pending, int(m.group(1), 16), int(m.group(2), 16),
                                        m.group(3).strip()))
            pending = ""
    return out


def input_sections(map_path: str | Path) -> list[InputSection]:
    """parse() of a map file; OSError if it cannot be read."""
    return parse(Path(map_path).read_text(encoding="utf-8", errors="replace").splitlines())
