#!/usr/bin/env python3
"""Flash and RAM of the kernel inside a linked firmware, from its linker map: the sum of the
input sections that come from a kernel library (librtoslab_kernel*.a). Usage: size.py FW.map"""
import re
import sys

def main(path):
    flash = ram = 0
    per = {}
    cur = None
    lines = open(path).read().split("\n")
    in_memmap = False
    for i, line in enumerate(lines):
        if line.startswith("Linker script and memory map"):
            in_memmap = True
        if not in_memmap:
            continue
        m = re.match(r"^ (\.[\w.]+|[\w.]+)\s*$", line)
        if m:
            cur = m.group(1)
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            m2 = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", nxt)
            if m2:
                add(per, cur, int(m2.group(1), 16), int(m2.group(2), 16), m2.group(3))
            continue
        m = re.match(r"^ (\.[\w.]+|[\w.]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", line)
        if m:
            add(per, m.group(1), int(m.group(2), 16), int(m.group(3), 16), m.group(4))
    for (obj, kind), n in sorted(per.items()):
        print(f"{kind:5} {n:6}  {obj}")
    flash = sum(n for (o, k), n in per.items() if k == "flash")
    ram = sum(n for (o, k), n in per.items() if k == "ram")
    print(f"kernel flash {flash} bytes, kernel static RAM {ram} bytes")

def add(per, sec, addr, size, obj):
    if "librtoslab_kernel" not in obj or size == 0:
        return
    if not re.match(r"^(\.text|\.rodata|\.data|\.bss|COMMON)", sec):
        return
    kind = "ram" if addr >= 0x20000000 else "flash"
    name = re.sub(r".*\((.*)\)", r"\1", obj)
    per[(name, kind)] = per.get((name, kind), 0) + size

main(sys.argv[1])
