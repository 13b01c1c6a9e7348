"""rtoslab.glue: the port glue's cycles of a timed region, attributed by each instruction's
address; glue must never be counted as the RTOS's (or the suite's) cycles."""
from pathlib import Path

import pytest
from conftest import real_vp

from rtoslab import glue

# A fake image: addresses 0x100.. suite, 0x200.. the port's glue (an inline wrapper),
# 0x300.. the RTOS, 0x400.. newlib's memcpy (no line table).
OWNERS = glue.LineOwners([0x100, 0x200, 0x300, 0x400, 0x500], ["suite", "glue", "rtos", None, None])


def sample():
    # cycle, kind, pc-or-exception (as glue.parse_itrace gives them)
    return [
        (90, "i", 0x100),      # suite: t_start's counter read ... 90..100
        (100, "i", 0x110),     # suite 100..103
        (103, "i", 0x200),     # glue: the wrapper's lookup and call 103..110
        (110, "i", 0x300),     # rtos 110..150
        (150, "entry", 14),    # PendSV taken: core 150..162
        (162, "i", 0x320),     # rtos (the handler) 162..170
        (170, "return", 14),   # core 170..180
        (180, "i", 0x210),     # glue again: the copy's set-up 180..184
        (184, "i", 0x400),     # memcpy called from the glue: glue 184..200
        (200, "i", 0x220),     # glue: the result mapping 200..205
        (205, "i", 0x120),     # suite: t_stop 205..
    ]


def test_glue_cycles_are_the_ports_not_the_rtoss():
    d = glue.attribute(sample(), OWNERS.owner, 100, 210)
    assert d["glue"] == 7 + 4 + 16 + 5          # the wrapper, the copy (memcpy: its caller's), the mapping
    assert d["rtos"] == 40 + 8                  # only the RTOS's own code
    assert d["core"] == 12 + 10                 # the exception entry and return
    assert d["suite"] == 3 + 5
    assert sum(d[k] for k in glue.OWNERS) == d["total"] == 110


def test_a_library_call_from_the_rtos_stays_the_rtoss():
    lines = [(0, "i", 0x300), (10, "i", 0x400), (30, "i", 0x310), (35, "i", 0x100)]
    d = glue.attribute(lines, OWNERS.owner, 0, 40)
    assert (d["rtos"], d["glue"], d["suite"]) == (35, 0, 5)


def test_owner_of_a_path():
    port = "freertos"
    assert glue.owner_of_path("/w/bench/ports/freertos/rtb_port_inline.h", port) == "glue"
    assert glue.owner_of_path("/w/bench/ports/freertos/port.c", port) == "glue"
    assert glue.owner_of_path("/w/bench/suite/t_prim.c", port) == "suite"
    assert glue.owner_of_path("/w/bench/include/bench.h", port) == "suite"
    assert glue.owner_of_path("/w/bench/include/rtb_copy.h", "chibios") == "glue"   # the ports' copy
    assert glue.owner_of_path("/w/build/peers/freertos/queue.c", port) == "rtos"
    assert glue.owner_of_path("/w/kernel/src/sem.c", "rtoslab") == "rtos"
    assert glue.owner_of_path("/build/newlib/libc/string/memcpy.c", port) is None
    # glue outside the port's folder, named by its manifest (`glue_paths`): a folder, a file
    cmsis = ("bench/cmsis_os2_glue/", "bench/ports/freertos/app_hooks.c")
    assert glue.owner_of_path("/w/bench/cmsis_os2_glue/port.c", "freertos-cmsis") == "suite"
    assert glue.owner_of_path("/w/bench/cmsis_os2_glue/port.c", "freertos-cmsis", glue_paths=cmsis) == "glue"
    assert glue.owner_of_path("/w/bench/ports/freertos/app_hooks.c", "freertos-cmsis", glue_paths=cmsis) == "glue"
    assert glue.owner_of_path("/w/bench/ports/freertos/port.c", "freertos-cmsis", glue_paths=cmsis) == "suite"
    assert glue.owner_of_path("/w/bench/cmsis_os2_glue_old/x.c", "freertos-cmsis", glue_paths=cmsis) == "suite"
    # the floor's folder is its kernel: no glue
    assert glue.owner_of_path("/w/bench/ports/baremetal/port.c", "baremetal", glue_is_kernel=True) == "rtos"


def test_pin_pairs_are_the_pin_windows_of_one_metric():
    mark = 0x52540000
    ev = [{"e": "mark", "value": mark | 0, "c": 0},
          {"e": "probe", "changed": 1, "pins": 1, "c": 5}, {"e": "probe", "changed": 1, "pins": 0, "c": 9},
          {"e": "mark", "value": mark | 1, "c": 100},
          {"e": "probe", "changed": 1, "pins": 1, "c": 105},
          {"e": "probe", "changed": 2, "pins": 3, "c": 120},          # another pin: ignored
          {"e": "probe", "changed": 1, "pins": 2, "c": 140},
          {"e": "probe", "changed": 1, "pins": 1, "c": 200}, {"e": "probe", "changed": 1, "pins": 0, "c": 230},
          {"e": "mark", "value": mark | 2, "c": 900}]
    assert glue.pin_pairs(ev, 1) == [(105, 140), (200, 230)]


def test_table_shows_glue_and_rtos_and_absent_rows_as_dashes():
    runs = [{"rtos": "a", "glue": {"sem.wait_available": {"suite": 9, "glue": 4, "rtos": 30, "core": 0,
                                                          "total": 43, "traced": 8},
                                   "mutex.unlock": {"absent": "no mutexes"}}},
            {"rtos": "b", "glue": {"error": "no event trace"}}]
    t = glue.table(runs, ("sem.wait_available", "mutex.unlock")).splitlines()
    assert t[0] == "| metric (glue / rtos cycles) | a |"
    assert t[2] == "| sem.wait_available | 4 / 30 |"
    assert len(t) == 3                           # a row with nothing measured is left out


def test_report_shows_the_glue_of_a_result_file(cli, tmp_path):
    import json

    from test_report import make_results
    path = make_results(tmp_path / "a.json")
    doc = json.loads(path.read_text())
    doc["runs"][1]["glue"] = {"sem.wait_available": {"suite": 9, "glue": 10, "rtos": 85, "core": 0,
                                                     "total": 104, "traced": 8}}
    path.write_text(json.dumps(doc))
    r = cli("report", path, "--md", tmp_path / "r.md", "--html", tmp_path / "r.html")
    assert r.status == 0, r
    md = (tmp_path / "r.md").read_text()
    assert "## The port glue's cycles" in md and "| sem.wait_available | 10 / 85 |" in md
    html = (tmp_path / "r.html").read_text()
    assert '<section id="glue"' in html and '<td class="id">sem.wait_available</td><td>10 / 85</td>' in html


def test_from_run_without_an_event_trace_says_so():
    assert glue.from_run("vp", Path("x.elf"), "vp-m0", None, None, "rtoslab") == \
        {"error": "no event trace (the run had --no-probe)"}


def test_glue_needs_a_simulator_board(cli):
    from helpers import assert_one_line_error
    r = cli("run", "--glue", "--board", "qemu-microbit", "--rtos", "rtoslab", "--no-build")
    assert_one_line_error(r, 2)
    assert "simulator board" in r.err


ROOT = Path(__file__).resolve().parents[2]
THREADX = ROOT / "build" / "fw" / "vp-m0" / "bench-threadx.elf"
FREERTOS = ROOT / "build" / "fw" / "vp-m0" / "bench-freertos.elf"
VP = real_vp()


def _symbol(elf: Path, name: str) -> int:
    from elftools.elf.elffile import ELFFile
    with open(elf, "rb") as f:
        (s,) = ELFFile(f).get_section_by_name(".symtab").get_symbol_by_name(name)
        return s["st_value"] & ~1


@pytest.mark.skipif(not THREADX.is_file(), reason="bench-threadx.elf not built")
def test_line_table_of_a_real_image_tells_glue_from_rtos():
    owners = glue.LineOwners.from_elf(THREADX, "threadx")
    assert owners.owner(_symbol(THREADX, "rtb_thread_create")) == "glue"     # port.c
    assert owners.owner(_symbol(THREADX, "_tx_thread_create")) == "rtos"     # ThreadX's own
    assert owners.owner(_symbol(THREADX, "bench_sample")) == "suite"
    assert owners.owner(_symbol(THREADX, "__udivsi3")) is None               # libgcc: its caller's


@pytest.mark.e2e
@pytest.mark.skipif(VP is None or not FREERTOS.is_file(), reason="rtoslab-vp or bench-freertos.elf not built")
def test_glue_of_a_real_image_adds_up_and_the_inline_hook_leaves_only_the_call():
    import tempfile
    from rtoslab import latency, protocol
    with tempfile.TemporaryDirectory() as td:
        trace = Path(td) / "marks.jsonl"
        console = latency._vp_run(str(VP), FREERTOS, "vp-m0", ["--trace", str(trace),
                                                               "--trace-events", "mark,stim,probe"])
        res = glue.from_run(str(VP), FREERTOS, "vp-m0", trace, protocol.parse(console), "freertos",
                            metrics=("sem.wait_available", "mutex.unlock"))
    for g in res.values():
        assert sum(g[k] for k in glue.OWNERS) == g["total"] and g["traced"] == glue.TRACED
        assert g["rtos"] > 50
        # inline (rtb_port_inline.h): the handle's load, the arguments, the call and the result;
        # out of line (before issue 22) these were 41 and 21 cycles
        assert g["glue"] <= 15
