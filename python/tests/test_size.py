import json

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
    assert classify_path("/work/main/bench/tests/t_rhealstone.c") == "application"
    assert classify_path("/work/main/bench/ports/freertos/port.c") == "application"
    assert classify_path("/work/main/bench/ports/baremetal/port.c") == "kernel"
    assert classify_path("/x/FreeRTOS-Kernel/portable/MemMang/heap_4.c") == "kernel"
    assert classify_path("bench/ports/freertos/CMakeFiles/bench-freertos.dir/__/__/tests/t_checks.c.obj") == "application"
    assert classify_path("/usr/lib/arm-none-eabi/newlib/thumb/v6-m/nofp/libc_nano.a(libc_a-memcpy-stub.o)") == "libc"
    assert classify_path("/usr/lib/gcc/arm-none-eabi/12.2.1/thumb/v6-m/nofp/libgcc.a(_udivsi3.o)") == "libc"


def test_size_bad_input(cli, tmp_path):
    assert_one_line_error(cli("size", tmp_path / "none.elf"), 2)
    (tmp_path / "text.elf").write_text("hello")
    assert_one_line_error(cli("size", tmp_path / "text.elf"), 2)
    (tmp_path / "trunc.elf").write_bytes(b"\x7fELF\x01\x01\x01" + b"\x00" * 40)
    r = cli("size", tmp_path / "trunc.elf")
    assert_one_line_error(r, 2)
    assert "malformed" in r.err
    assert_one_line_error(cli("size", tmp_path), 2)
