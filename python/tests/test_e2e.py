"""End to end, against the real tools: the simulator (vp/target/release/rtoslab-vp, never built
here), the Arm toolchain, CMake + Ninja, QEMU. Each test skips only when its tool is absent."""
import json
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import REPO, real_vp
from helpers import assert_one_line_error

from rtoslab import results

pytestmark = pytest.mark.e2e

VP = real_vp()
need_vp = pytest.mark.skipif(VP is None, reason="rtoslab-vp not built (cargo build --release in vp/)")
have_fw_tools = all(shutil.which(t) for t in ("arm-none-eabi-gcc", "cmake", "ninja"))
need_fw = pytest.mark.skipif(not have_fw_tools, reason="arm-none-eabi-gcc, cmake or ninja not installed")


@pytest.fixture
def vp_env(monkeypatch):
    monkeypatch.setenv("RTOSLAB_VP", str(VP))


@need_vp
def test_trace_real_simulator(cli, fixture_elfs, vp_env, tmp_path):
    pf, vcd, js = tmp_path / "t.perfetto.json", tmp_path / "t.vcd", tmp_path / "t.json"
    r = cli("trace", fixture_elfs["plain"], "--perfetto", pf, "--vcd", vcd, "--json", js)
    assert r.status == 0, r
    d = json.loads(js.read_text())
    th = {t["name"]: t for t in d["threads"]}
    assert d["context_switches"] >= 80
    assert th["stack_a"]["runs"] >= 40 and th["stack_b"]["runs"] >= 40
    # thread b puts a 400-byte array on its stack, thread a nothing much
    assert th["stack_b"]["stack_high_water"] > 400 > th["stack_a"]["stack_high_water"] > 0
    assert 0.3 < d["cpu_load"] < 1.0                  # the WFIs of thread a
    names = {h["name"] for h in d["handlers"]}
    assert {"PendSV", "SysTick"} <= names
    assert "$var" in vcd.read_text()
    p = json.loads(pf.read_text())
    assert {e["name"] for e in p["traceEvents"] if e["ph"] == "X" and e["tid"] == 1} >= {"stack_a", "stack_b"}


@need_vp
def test_trace_real_simulator_stimulus_latency(cli, fixture_elfs, vp_env, tmp_path):
    js = tmp_path / "t.json"
    r = cli("trace", fixture_elfs["plain"], "--stimulus", "at=3000,period=997,width=40", "--json", js)
    assert r.status == 0, r
    d = json.loads(js.read_text())
    # the fixture does not enable IRQ1: no latency, and trace says so rather than inventing one
    assert d["interrupt_latency"] == {} or all(v["min"] >= 16 for v in d["interrupt_latency"].values())


@need_vp
def test_trace_real_fault(cli, fixture_elfs, vp_env, tmp_path):
    r = cli("trace", fixture_elfs["fault"], "--max-cycles", "200000")
    assert_one_line_error(r, 3)
    assert "0x60000000" in r.err or "unmapped" in r.err


@need_vp
def test_run_real_simulator_with_probe(cli, fixture_elfs, vp_env, tmp_path):
    out = tmp_path / "r.json"
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={fixture_elfs['protocol']}", "--json", out,
            "-q", "--no-history")
    assert r.status == 0, r
    run = results.load(out)["runs"][0]
    ts = run["results"][0]
    assert ts["id"] == "rhealstone.task_switch" and ts["n"] == 39
    assert ts["probe"]["n"] == 39                       # the second clock saw every sample
    assert abs(ts["probe"]["p50"] - ts["p50"]) < 20
    assert run["size"]["flash.port"] > 0 and run["size"]["flash.libc"] > 0
    assert "-mcpu=cortex-m0" in run["toolchain"]


@need_vp
def test_run_finds_the_longest_masked_section_exactly(cli, fixture_elfs, vp_env, tmp_path):
    """fixture_masked_long (app/main.c) masks interrupts for exactly 251 cycles: CPSID, 250
    NOPs, CPSIE. irq.masked_max is that section, with its location."""
    out = tmp_path / "r.json"
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={fixture_elfs['protocol']}", "--json", out,
            "-q", "--no-history")
    assert r.status == 0, r
    run = results.load(out)["runs"][0]
    by = {x["id"]: x for x in run["results"]}
    mx = by["irq.masked_max"]
    assert mx["max"] == 251 and mx["n"] == 1
    loc = mx["location"]
    assert loc["set_func"] == "fixture_masked_long" and loc["clear_func"] == "fixture_masked_long"
    assert int(loc["clear_pc"], 16) - int(loc["set_pc"], 16) == 2 + 250 * 2
    assert loc["set_at"].startswith("fixture_masked_long")
    assert by["irq.masked"]["max"] == 251 and by["irq.masked"]["n"] >= 1
    assert run["masked"]["sites"][0]["set_func"] == "fixture_masked_long"
    assert run["masked"]["sites"][0]["count"] == 1


@need_vp
def test_run_real_fault_keeps_results(cli, fixture_elfs, vp_env, tmp_path):
    out = tmp_path / "r.json"
    r = cli("run", "--rtos", "rtoslab,freertos", "--elf", f"rtoslab={fixture_elfs['protocol']}",
            "--elf", f"freertos={fixture_elfs['fault']}", "--json", out, "-q", "--no-history",
            "--max-cycles", "1000000")
    assert_one_line_error(r, 3)
    doc = results.load(out)
    assert doc["runs"][0]["status"] == "complete" and doc["runs"][0]["results"]
    assert doc["runs"][1]["status"] == "failed" and "HardFault" in doc["runs"][1]["error"]


def _bench_ports():
    return (any((REPO / "bench" / "ports").glob("*/port.toml"))
            and (REPO / "bench" / "CMakeLists.txt").exists())


@need_vp
@need_fw
@pytest.mark.skipif(not _bench_ports(), reason="the benchmark suite is not in this tree")
def test_make_bench_default_run(cli, vp_env, tmp_path):
    """The default run: no options, every benchmark for rtoslab and freertos on vp-m0."""
    out = tmp_path / "bench.json"
    r = cli("run", "--json", out, "-q", "--no-history")
    assert r.status == 0, r
    header = r.out.split("rhealstone.task_switch")[0]
    assert "freertos" in header and "better" in header and "×1.00" in r.out
    doc = results.load(out)
    fr = next(x for x in doc["runs"] if x["rtos"] == "freertos")
    assert fr["status"] == "complete" and len(fr["results"]) >= 40
    assert fr["size"]["flash.kernel"] > 1000 and fr["rtos_version"].startswith("11")
    if r.status == 0:
        assert "rtoslab" in header
    # the report of a real run, with its footprints
    html = tmp_path / "r.html"
    assert cli("report", out, "--html", html).status == 0
    assert "FLASH kernel" in html.read_text()


@need_vp
@need_fw
@pytest.mark.skipif(not _bench_ports(), reason="the benchmark suite is not in this tree")
def test_check_real_junit(cli, vp_env, tmp_path):
    junit = tmp_path / "j.xml"
    r = cli("check", "--rtos", "freertos", "--junit", junit, "-q")
    assert r.status in (0, 1), r
    root = ET.parse(junit).getroot()
    assert int(root.get("tests")) >= 9


@need_fw
def test_size_real_bench_image():
    img = REPO / "build" / "fw" / "vp-m0" / "bench-freertos.elf"
    if not img.exists():
        pytest.skip("bench-freertos.elf not built")
    from rtoslab.size import analyze
    rep = analyze(img)
    by = {s.name: s.component for s in rep.symbols}
    assert by.get("xTaskIncrementTick") == "kernel"
    assert by.get("PendSV_Handler") == "port" or by.get("xPortPendSVHandler") == "port"
    assert by.get("Reset_Handler") == "startup"
    assert by.get("__udivsi3") == "libc"


@pytest.mark.skipif(not shutil.which("qemu-system-arm"), reason="qemu-system-arm not installed")
@need_fw
@pytest.mark.skipif(not _bench_ports(), reason="the benchmark suite is not in this tree")
def test_qemu_microbit_run(cli, tmp_path):
    out = tmp_path / "q.json"
    r = cli("run", "--board", "qemu-microbit", "--rtos", "freertos", "--json", out, "-q", "--no-history",
            "--timeout", "600")
    assert r.status in (0, 3), r
    run = results.load(out)["runs"][0]
    assert run["board"] == "qemu-microbit" and run["results"]
    assert run["manifest"]["board_profile"]["cycle_exact"] is False
    assert "not cycle-accurate" in r.out


@pytest.mark.skipif(not all(shutil.which(t) for t in ("cc", "cmake", "ninja")),
                    reason="cc, cmake or ninja not installed")
@pytest.mark.skipif(not (REPO / "bench" / "ports" / "posix" / "CMakeLists.txt").exists(), reason="no posix port")
def test_host_posix_run(cli, tmp_path):
    out = tmp_path / "h.json"
    r = cli("run", "--board", "host", "--json", out, "-q", "--no-history", "--tests", "rhealstone")
    assert r.status in (0, 3), r
    run = results.load(out)["runs"][0]
    assert run["rtos"] == "posix" and run["board"] == "host" and run["results"]
    assert run["manifest"]["board_profile"]["cycle_exact"] is False


@need_fw
def test_build_failure_is_one_line(cli, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "cmake").mkdir(parents=True)
    (root / "cmake" / "arm-none-eabi.cmake").write_text((REPO / "cmake" / "arm-none-eabi.cmake").read_text())
    (root / "CMakeLists.txt").write_text('cmake_minimum_required(VERSION 3.20)\nproject(x C)\n'
                                         'message(FATAL_ERROR "this tree does not configure")\n')
    monkeypatch.setenv("RTOSLAB_ROOT", str(root))
    monkeypatch.setenv("RTOSLAB_VP", "/bin/true")
    r = cli("run", "--rtos", "freertos", "--json", tmp_path / "b.json", "-q", "--no-history")
    assert_one_line_error(r, 4)
    assert "configure" in r.err and "rtoslab-build.log" in r.err
