#!/usr/bin/env python3
"""Flash and RAM of the kernel inside a linked firmware, from its linker map: the sum of the
input sections that come from a kernel library (librtoslab_kernel*.a). Usage: size.py FW.map
The map is read by the project's one map-file reader (python/rtoslab/linkmap.py)."""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from rtoslab.linkmap import input_sections  # noqa: E402


def main(path):
    per = {}
    for s in input_sections(path):
        if "librtoslab_kernel" not in s.origin or not s.size:
            continue
        if not re.match(r"^(\.text|\.rodata|\.data|\.bss|COMMON)", s.name):
            continue
        kind = "ram" if s.addr >= 0x20000000 else "flash"
        name = re.sub(r".*\((.*)\)", r"\1", s.origin)
        per[(name, kind)] = per.get((name, kind), 0) + s.size
    for (obj, kind), n in sorted(per.items()):
        print(f"{kind:5} {n:6}  {obj}")
    flash = sum(n for (_o, k), n in per.items() if k == "flash")
    ram = sum(n for (_o, k), n in per.items() if k == "ram")
    print(f"kernel flash {flash} bytes, kernel static RAM {ram} bytes")


main(sys.argv[1])
