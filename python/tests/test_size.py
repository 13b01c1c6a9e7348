import json
from pathlib import Path

from helpers import assert_one_line_error

from rtoslab.size import analyze, classify_path


def test_components_of_a_real_cortex_m0_image(cli, fixture_elfs, tmp_path):
    rep = analyze(fixture_elfs["plain"])
    by = {s.name: s.component for s in rep.symbols}
    assert by["g_pfnVectors"] == "startup" and by["Reset_Handler"] == "startup"
    assert by["k_schedule"] == "kernel" and by["boot_frame"] == "kernel"
    assert by["PendSV_Handler"] == "port"
    assert by["thread_a"] == "application" and by["stack_b"] == "application"
    assert by["__udivsi3"] == "libc" and by["memset"] == "libc"
    # every byte is counted once
    assert sum(rep.flash.values()) == rep.flash_total
    assert sum(rep.ram.values()) == rep.ram_total
    assert rep.ram["stacks"] >= 1024
    r = cli("size", fixture_elfs["plain"], "--json", tmp_path / "s.json")
    assert r.status == 0, r
    for label in ("vectors/start-up", "kernel", "port", "application", "C library", "total"):
        assert label in r.out
    assert "g_pfnVectors" in r.out
    d = json.loads((tmp_path / "s.json").read_text())
    assert d["flash_total"] == rep.flash_total


def test_without_dwarf_the_map_and_names_still_attribute(fixture_elfs, tmp_path):
    import shutil
    import subprocess
    stripped = tmp_path / "fixture.elf"
    subprocess.run(["arm-none-eabi-objcopy", "--strip-debug", str(fixture_elfs["plain"]), str(stripped)], check=True)
    shutil.copy(fixture_elfs["plain"].with_suffix(".map"), tmp_path / "fixture.map")
    rep = analyze(stripped)
    by = {s.name: s.component for s in rep.symbols}
    assert by["__udivsi3"] == "libc" and by["memset"] == "libc"
    assert by["g_pfnVectors"] == "startup"
    assert by["PendSV_Handler"] == "port"
    (tmp_path / "fixture.map").unlink()
    rep = analyze(stripped)
    by = {s.name: s.component for s in rep.symbols}
    assert by["__udivsi3"] == "libc" and by["g_pfnVectors"] == "startup"


def test_classify_paths():
    assert classify_path("/src/third_party/freertos/FreeRTOS-Kernel/tasks.c") == "kernel"
    assert classify_path("/src/third_party/freertos/FreeRTOS-Kernel/portable/GCC/ARM_CM0/port.c") == "port"
    assert classify_path("/work/main/kernel/src/sched.c") == "kernel"
    assert classify_path("/work/main/kernel/arch/armv6m/switch.S") == "port"
    assert classify_path("/work/main/bench/boards/common/armv6m_startup.c") == "startup"
    assert classify_path("/work/main/bench/suite/t_rhealstone.c") == "application"
    assert classify_path("/work/main/bench/ports/freertos/port.c") == "application"
    assert classify_path("/work/main/bench/ports/baremetal/port.c") == "kernel"
    assert classify_path("/x/FreeRTOS-Kernel/portable/MemMang/heap_4.c") == "kernel"
    obj = "bench/ports/freertos/CMakeFiles/bench-freertos.dir/__/__/suite/t_checks.c.obj"
    assert classify_path(obj) == "application"
    assert classify_path("/usr/lib/arm-none-eabi/newlib/thumb/v6-m/nofp/libc_nano.a(libc_a-memcpy-stub.o)") == "libc"
    assert classify_path("/usr/lib/gcc/arm-none-eabi/12.2.1/thumb/v6-m/nofp/libgcc.a(_udivsi3.o)") == "libc"
    # the kernel's examples and tests use the kernel: application code, even inside its tree
    assert classify_path("/work/main/kernel/examples/minimal.c") == "application"
    assert classify_path("/work/main/kernel/tests/test_kernel.c") == "application"
    assert classify_path("kernel/examples/CMakeFiles/example_minimal.dir/minimal.c.obj") == "application"
    assert classify_path("/x/FreeRTOS/Demo/CORTEX_M0_STM32F0518_IAR/main.c") == "application"
    # ... but a kernel kept below a tests folder is still the kernel
    assert classify_path("/work/main/python/tests/fixtures/fw/kernel/sched.c") == "kernel"
    assert classify_path("/home/u/tests/rtoslab/kernel/src/sched.c") == "kernel"
    # a peer RTOS from build/peers: its kernel and its architecture port
    assert classify_path("/w/main/build/peers/chibios/os/rt/src/chsem.c") == "kernel"
    assert classify_path("/w/main/build/peers/chibios/os/common/ports/ARMv6-M/chcore.c") == "port"
    assert classify_path("/w/main/build/peers/riot/cpu/cortexm_common/thread_arch.c") == "port"
    assert classify_path("/w/main/build/peers/riot/core/sched.c") == "kernel"
    assert classify_path("/w/main/build/peers/coos/CoOS/portable/arch.c") == "port"
    assert classify_path("/w/main/bench/ports/chibios/port.c") == "application"   # the suite's adapter


def test_size_bad_input(cli, tmp_path):
    assert_one_line_error(cli("size", tmp_path / "none.elf"), 2)
    (tmp_path / "text.elf").write_text("hello")
    assert_one_line_error(cli("size", tmp_path / "text.elf"), 2)
    (tmp_path / "trunc.elf").write_bytes(b"\x7fELF\x01\x01\x01" + b"\x00" * 40)
    r = cli("size", tmp_path / "trunc.elf")
    assert_one_line_error(r, 2)
    assert "malformed" in r.err
    assert_one_line_error(cli("size", tmp_path), 2)
    import sys
    r = cli("size", Path(sys.executable).resolve())          # an ELF, but not an Arm one
    assert_one_line_error(r, 2)
    assert "not an Arm image" in r.err


KERNEL_H = """#include <stdint.h>
struct k_thread { uint32_t *sp; uint8_t prio; };
struct z_def { struct k_thread *t; void *stack; uint32_t bytes; };
#define K_THREAD_DEFINE(name, bytes) \\
    static uint64_t name##_stack[(bytes) / 8]; struct k_thread name; \\
    static const struct z_def z_def_##name __attribute__((used, section(".rodata.kdefs"))) = \\
        {&name, name##_stack, bytes}
void k_add(const struct z_def *d);
void k_start(void);
"""
KERNEL_C = """#include "kernel.h"
struct { const struct z_def *last; uint32_t ticks; } z_kernel;
void k_add(const struct z_def *d) { z_kernel.last = d; d->t->sp = (uint32_t *)d->stack + d->bytes / 4; }
void k_start(void) { for (;;) z_kernel.ticks++; }
int main(void);
void Reset_Handler(void) { main(); }
__attribute__((section(".isr_vector"), used)) void (*const g_pfnVectors[2])(void) =
    {(void (*)(void))0x20001000, Reset_Handler};
"""
EXAMPLE_C = """#include "kernel.h"
K_THREAD_DEFINE(consumer_thread, 256);
K_THREAD_DEFINE(producer_thread, 128);
int rounds;
int main(void) { k_add(&z_def_consumer_thread); k_add(&z_def_producer_thread); rounds++; k_start(); return 0; }
"""


def test_memory_an_example_defines_through_kernel_macros_is_the_applications(tmp_path):
    """kernel/examples/x.c defines its threads with the kernel's K_THREAD_DEFINE: the stacks
    and the control blocks are the application's; kernel RAM is the kernel's own state
    (z_kernel). The linker map beside NAME.elf is found."""
    import shutil
    import subprocess
    if not shutil.which("arm-none-eabi-gcc"):
        import pytest
        pytest.skip("arm-none-eabi-gcc not installed")
    src = tmp_path / "kernel"
    (src / "src").mkdir(parents=True)
    (src / "examples").mkdir()
    (src / "include").mkdir()
    (src / "include" / "kernel.h").write_text(KERNEL_H)
    (src / "src" / "kernel.c").write_text(KERNEL_C)
    (src / "examples" / "ex.c").write_text(EXAMPLE_C)
    ld = tmp_path / "link.ld"
    ld.write_text((Path(__file__).parent / "fixtures" / "fw" / "link.ld").read_text())
    out = tmp_path / "build"
    out.mkdir()
    flags = ["-mcpu=cortex-m0", "-mthumb", "-Os", "-g", "-ffunction-sections", "-fdata-sections",
             "-I", str(src / "include")]
    objs = []
    for c in (src / "src" / "kernel.c", src / "examples" / "ex.c"):
        o = out / (c.stem + ".o")
        subprocess.run(["arm-none-eabi-gcc", *flags, "-c", str(c), "-o", str(o)], check=True)
        objs.append(str(o))
    elf = out / "ex.elf"
    subprocess.run(["arm-none-eabi-gcc", *flags, "-nostartfiles", "--specs=nano.specs", "-T", str(ld),
                    "-Wl,--gc-sections", f"-Wl,-Map={out / 'ex.map'}", *objs, "-o", str(elf)], check=True)
    rep = analyze(elf)
    assert "no linker map beside the image" not in rep.notes
    by = {s.name: s.component for s in rep.symbols}
    for name in ("consumer_thread_stack", "producer_thread_stack", "consumer_thread", "producer_thread",
                 "rounds", "main"):
        assert by[name] == "application", (name, by[name])
    assert by["z_kernel"] == "kernel" and by["k_start"] == "kernel"
    assert rep.ram["kernel"] == 8                       # z_kernel: the kernel's own state
    assert rep.ram["application"] >= 256 + 128 + 2 * 8 + 4


def test_a_peers_port_assembly_without_size_is_port(tmp_path):
    """An assembly routine without a .size (ThreadX's ports/cortex_m0, ChibiOS's chcoreasm.S)
    has no symbol size: its bytes are a gap, which its compilation unit (build/peers/<rtos>/
    .../ports/...) names, not the map (the archive it came from lies under bench/)."""
    import shutil
    import subprocess
    if not shutil.which("arm-none-eabi-gcc"):
        import pytest
        pytest.skip("arm-none-eabi-gcc not installed")
    peer = tmp_path / "build" / "peers" / "rt"
    (peer / "ports" / "m0").mkdir(parents=True)
    (peer / "common").mkdir()
    asm = peer / "ports" / "m0" / "switch.S"
    asm.write_text(".syntax unified\n.thumb\n.section .text.rt_switch,\"ax\"\n.global rt_switch\n"
                   ".thumb_func\nrt_switch:\n" + "    nop\n" * 30 + "    bx lr\n")
    (peer / "common" / "k.c").write_text("void rt_switch(void);\nint rt_n;\n"
                                        "void rt_run(void) { rt_n++; rt_switch(); }\n")
    app = tmp_path / "bench" / "ports" / "rt"
    app.mkdir(parents=True)
    (app / "main.c").write_text("void rt_run(void);\nint main(void) { rt_run(); return 0; }\n")
    ld = tmp_path / "link.ld"
    ld.write_text((Path(__file__).parent / "fixtures" / "fw" / "link.ld").read_text())
    flags = ["-mcpu=cortex-m0", "-mthumb", "-Os", "-g", "-ffunction-sections", "-fdata-sections"]
    objs = []
    for c in (asm, peer / "common" / "k.c"):
        o = app / (c.name + ".obj")
        subprocess.run(["arm-none-eabi-gcc", *flags, "-c", str(c), "-o", str(o)], check=True)
        objs.append(str(o))
    lib = app / "librt.a"
    subprocess.run(["arm-none-eabi-ar", "rcs", str(lib), *objs], check=True)
    elf = app / "rt.elf"
    subprocess.run(["arm-none-eabi-gcc", *flags, "-nostartfiles", "--specs=nano.specs", "-T", str(ld),
                    "-Wl,--gc-sections", "-Wl,-e,main", f"-Wl,-Map={app / 'rt.map'}", str(app / "main.c"), str(lib),
                    "-o", str(elf)], check=True)
    rep = analyze(elf)
    assert "no linker map beside the image" not in rep.notes
    by = {s.name: s.component for s in rep.symbols}
    assert "rt_switch" not in by                         # no size: not a symbol of its own
    assert by["rt_run"] == "kernel" and by["main"] == "application"
    assert rep.flash.get("port", 0) == 62               # 30 nops and bx lr, all of it port
