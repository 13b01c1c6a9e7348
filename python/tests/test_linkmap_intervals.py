"""The shared pieces of the size report and the trace: the map-file reader, the interval
index and the classification rules."""
import pytest

from rtoslab import components, linkmap
from rtoslab.intervals import LOOK_BACK, Intervals

MAP = """\
Archive member included to satisfy reference by file (symbol)

Linker script and memory map

LOAD build/app.o
.text           0x00000000      0x130
 *(.text*)
 .text.main     0x00000000       0x24 build/app.o
 .text.a_very_long_input_section_name
                0x00000024       0x10 lib/libk.a(sched.o)
 .text.empty    0x00000034        0x0 build/app.o

.bss            0x20000000       0x40
 COMMON         0x20000000        0x8 build/app.o
"""


def test_map_reader_one_and_two_line_entries():
    secs = linkmap.parse(MAP.splitlines())
    assert [(s.output, s.name, s.addr, s.size, s.origin) for s in secs] == [
        (".text", ".text.main", 0x0, 0x24, "build/app.o"),
        (".text", ".text.a_very_long_input_section_name", 0x24, 0x10, "lib/libk.a(sched.o)"),
        (".text", ".text.empty", 0x34, 0x0, "build/app.o"),
        (".bss", "COMMON", 0x20000000, 0x8, "build/app.o"),
    ]
    assert secs[1].end == 0x34


def test_map_beside_the_image(tmp_path):
    elf = tmp_path / "fw.elf"
    assert linkmap.find_map(elf) is None
    (tmp_path / "fw.elf.map").write_text(MAP)
    assert linkmap.find_map(elf) == tmp_path / "fw.elf.map"
    assert len(linkmap.input_sections(linkmap.find_map(elf))) == 4


def test_intervals_find_nearest_start_and_look_back():
    iv = Intervals()
    iv.add(0, 100, "outer")
    iv.add(10, 20, "inner")
    iv.add(30, 30, "empty")        # ignored
    iv.freeze()
    assert iv.find(15) == "inner" and iv.find(25) == "outer" and iv.find(100) is None
    far = Intervals()
    far.add(0, 10_000, "big")
    for k in range(LOOK_BACK):
        far.add(100 + k, 101 + k, k)
    far.freeze()
    assert far.find(50) == "big"                   # within the look-back
    assert far.find(5000) is None                  # LOOK_BACK small intervals in between


@pytest.mark.parametrize("path,component", [
    ("/usr/lib/gcc/arm-none-eabi/12/thumb/libgcc.a(_udivsi3.o)", "libc"),
    ("bench/boards/common/armv6m_startup.c", "startup"),
    ("bench/ports/baremetal/switch.S", "kernel"),
    ("bench/suite/t_prim.c", "application"),
    ("build/peers/FreeRTOS-Kernel/portable/GCC/ARM_CM0/port.c", "port"),
    ("kernel/examples/minimal.c", "application"),
    ("kernel/src/sched.c", "kernel"),
])
def test_path_rules(path, component):
    assert components.classify_path(path) == component


def test_every_rule_test_is_known():
    for component, test, values in components.PATH_RULES:
        assert component in components.COMPONENTS
        components._matches(test, values, "/x", "x", "")  # raises on an unknown test
