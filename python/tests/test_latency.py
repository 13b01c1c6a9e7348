"""rtoslab.latency: the phases of one interrupt-to-thread sample from an instruction trace."""
from pathlib import Path

import pytest
from conftest import real_vp

from rtoslab import latency


def synthetic():
    # cycle, kind, a, b  (as parse_itrace gives them)
    return [
        (100, "i", "low_loop", ["e7fe"]),
        (103, "entry", 17, None),             # stimulus rose at 101
        (118, "i", "IRQ1_Handler", ["b510"]),
        (140, "i", "it_isr", ["b510"]),
        (145, "i", "k_signal", ["b672"]),     # CPSID
        (146, "i", "k_signal", ["bf00"]),
        (150, "i", "k_signal", ["b662"]),     # CPSIE
        (151, "i", "it_isr", ["bd10"]),
        (160, "i", "IRQ1_Handler", ["bd10"]),
        (166, "tail", 17, 14),
        (178, "i", "PendSV_Handler", ["b672"]),
        (190, "i", "vTaskSwitchContext", ["bf00"]),
        (200, "i", "PendSV_Handler", ["b662"]),
        (201, "return", 14, None),
        (214, "i", "high", ["4770"]),
    ]


def test_phases_add_up_and_overlaps_are_counted():
    d = latency.decompose_one(synthetic(), 101, 220, False)
    assert d["pending"] == 2 and d["core_entry"] == 15 and d["prologue"] == 22
    assert d["isr_signal"] == 20 and d["epilogue_exit"] == 6 and d["switch"] == 54
    assert sum(d[k] for k in latency.PHASES) == d["total"] == 119
    # masked: CPSID at 145 completes at 146, CPSIE at 150 completes at 151: 5; in PendSV the
    # CPSID line lasts to 190 (not masked), then 190..201: 11
    assert d["masked"] == 5 + 11
    assert d["scheduler"] == 10                     # vTaskSwitchContext 190..200
    assert d["handler_other"] == 12 + 10 + 1       # PendSV (exception 14), 178..201


def test_sample_pairs_keep_only_the_metric_and_pair_edge_to_fall():
    mark = 0x52540000
    ev = [{"e": "mark", "value": mark | 0, "c": 0},
          {"e": "stim", "level": 1, "c": 10}, {"e": "probe", "changed": 1, "pins": 0, "c": 50},
          {"e": "mark", "value": mark | 1, "c": 100},
          {"e": "probe", "changed": 1, "pins": 1, "c": 105},          # the thread raises pin 0
          {"e": "stim", "level": 1, "c": 110}, {"e": "stim", "level": 0, "c": 112},
          {"e": "probe", "changed": 2, "pins": 2, "c": 150},          # another pin: ignored
          {"e": "probe", "changed": 1, "pins": 0, "c": 340},
          {"e": "probe", "changed": 1, "pins": 0, "c": 400},          # no edge before it: no sample
          {"e": "stim", "level": 1, "c": 500}, {"e": "probe", "changed": 1, "pins": 0, "c": 777},
          {"e": "mark", "value": mark | 2, "c": 900},
          {"e": "stim", "level": 1, "c": 910}, {"e": "probe", "changed": 1, "pins": 0, "c": 950}]
    assert latency.sample_pairs(ev, 1) == [(110, 340), (500, 777)]


def model_of(rtos, total=240):
    d = dict.fromkeys(latency.PHASES + latency.EXTRA, 1)
    d["total"] = total
    return {"rtos": rtos, "latency_model": {"median": d, "total_min": total - 1, "total_max": total + 1,
                                            "jitter": 2}}


def test_run_table_lists_models_and_says_why_one_is_missing():
    runs = [model_of("a"), {"rtos": "b", "latency_model": {"metric": "irq.to_thread", "absent": "no threads"}},
            {"rtos": "c", "latency_model": {"metric": "irq.to_thread", "error": "cannot decompose: x"}},
            {"rtos": "d"}]
    runs[0].update(board="vp-m0", clock_hz=48_000_000)
    t = latency.run_table(runs).splitlines()
    # the unit first, then the table, the columns explained, then the runs without a model
    assert t[0].startswith("irq.to_thread taken apart, in cycles (vp-m0 at 48 MHz)")
    assert t[1].startswith("| RTOS | pending | core_entry") and t[1].endswith("| fastest | slowest | jitter |")
    assert t[3] == "| a | 1 | 1 | 1 | 1 | 1 | 1 | 240 | 1 | 1 | 1 | 239 | 241 | 2 |"
    assert t[5].startswith("pending: stimulus edge -> exception entry") and "jitter = slowest - fastest" in t[5]
    assert t[6:] == ["b: absent: no threads", "c: cannot decompose: x", "d: no latency model in this run"]


def test_from_run_of_an_image_without_the_metric_is_absent_with_the_reason():
    from rtoslab.protocol import Transcript
    t = Transcript()
    t.absent["irq.to_thread"] = "no preemption"
    assert latency.from_run("vp", "x.elf", "vp-m0", None, t) == {"metric": "irq.to_thread", "absent": "no preemption"}


def test_latency_command_refuses_a_board_without_the_instruction_trace(cli):
    from helpers import assert_one_line_error
    r = cli("latency", "--board", "qemu-microbit", "--rtos", "rtoslab", "--no-build")
    assert_one_line_error(r, 2)
    assert "simulator board" in r.err


VP = real_vp()
IMAGE = Path(__file__).resolve().parents[2] / "build" / "fw" / "vp-m0" / "bench-rtoslab.elf"


@pytest.mark.e2e
@pytest.mark.skipif(VP is None or not IMAGE.is_file(), reason="rtoslab-vp or bench-rtoslab.elf not built")
def test_model_of_the_real_image_adds_up_to_the_probe_samples():
    m = latency.decompose(str(VP), IMAGE, n=4)
    assert m["rtos"] == "rtoslab" and m["traced"] == 4
    for s in m["samples"] + [m["fastest"], m["slowest"]]:
        assert sum(s[k] for k in latency.PHASES) == s["total"]
        assert s["core_entry"] == 15                      # the core's exception entry on vp-m0
    assert m["jitter"] == m["total_max"] - m["total_min"] >= 0
    assert sum(m["deterministic"].values()) == m["total_min"]


@pytest.mark.e2e
@pytest.mark.skipif(VP is None or not IMAGE.is_file(), reason="rtoslab-vp or bench-rtoslab.elf not built")
def test_latency_command_records_the_model_in_the_result_file(cli, tmp_path, monkeypatch):
    import json
    monkeypatch.setenv("RTOSLAB_VP", str(VP))
    out = tmp_path / "lat.json"
    r = cli("latency", "--rtos", "rtoslab", "--elf", f"rtoslab={IMAGE}", "--json", out, "-q")
    assert r.status == 0, r
    assert r.out.splitlines()[3].startswith("| rtoslab | ")
    run = json.loads(out.read_text())["runs"][0]
    (entry,) = [x for x in run["results"] if x["id"] == "irq.to_thread"]
    warm = entry["probe"]["samples"][entry["cold"]:]
    lm = run["latency_model"]
    # the fastest and slowest decomposed samples are those of the probe's every warm sample
    assert (lm["total_min"], lm["total_max"]) == (min(warm), max(warm)) and lm["warm"] == len(warm)
