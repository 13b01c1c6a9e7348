"""rtoslab.latency: the phases of one interrupt-to-thread sample from an instruction trace."""
from conftest import real_vp
import pytest

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


VP = real_vp()


@pytest.mark.skipif(VP is None, reason="rtoslab-vp not built")
def test_table_format():
    r = {"rtos": "x", "median": dict.fromkeys(latency.PHASES + latency.EXTRA + ("total",), 1)}
    t = latency.table([r])
    assert t.splitlines()[0].startswith("| RTOS | pending | core_entry")
    assert t.splitlines()[2].startswith("| x | 1 |")
