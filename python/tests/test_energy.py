"""The energy model and figures (python/rtoslab/energy.py, boards.Energy; docs/methodology.md,
"Energy"): the charge of a profile segment by state, the metrics of a run, the registry's
derived constants and the battery-life view."""
import math

import pytest

from rtoslab import boards, energy
from rtoslab.errors import BadInput

M0 = boards.Energy(part="p", source="s", run_flash_ua=11_400, run_ram_ua=10_300, sleep_ua=2_900,
                   deep_ua=15, deep_wakeup_us=3.2)
HZ = 48_000_000


def test_wakeup_and_break_even_cycles():
    assert M0.wakeup_cycles(HZ) == 154            # 3.2 us x 48 MHz = 153.6, rounded up
    # the shortest idle for which Stop (the wake-up at run current, the rest at 15 uA) costs no
    # more than Sleep (2.9 mA throughout)
    t = M0.break_even_cycles(HZ)
    w = 154
    assert w * 11_400 + (t - w) * 15 <= t * 2_900
    assert w * 11_400 + (t - 1 - w) * 15 > (t - 1) * 2_900


def test_the_registry_boards_with_a_model():
    reg = boards.registry()
    for bid in ("vp-m0", "vp-m4", "vp-stm32f0", "vp-stm32f407", "vp-m3", "vp-stm32f103"):
        e = reg[bid].energy
        assert e is not None and e.deep_ua < e.sleep_ua < e.run_flash_ua, bid
    assert reg["qemu-microbit"].energy is None


def test_a_bad_energy_table_is_one_line(tmp_path):
    src = (boards.ROOT / "bench" / "boards" / "vp-m0" / "board.toml").read_text()
    d = tmp_path / "bench" / "boards" / "bad"
    d.mkdir(parents=True)
    (d / "board.toml").write_text(src.replace("deep_uA = 15.0", "deep_uA = 5000.0"))
    with pytest.raises(BadInput, match=r"deep_uA < sleep_uA < run_flash_uA"):
        boards.load(d / "board.toml", boards.ROOT)


def test_charge_of_a_segment_by_state():
    seg = {"cycles": 48_000_000, "sleep": 1_000_000, "deep_sleep": 46_000_000, "wakeup": 154}
    q = energy.charge_nC(seg, M0, HZ)
    run = 48_000_000 - 1_000_000 - 46_000_000 - 154
    assert q["run"] == pytest.approx(run * 11_400_000 / HZ)
    assert q["sleep"] == pytest.approx(1_000_000 * 2_900_000 / HZ)
    assert q["deep"] == pytest.approx(46_000_000 * 15_000 / HZ)
    assert q["wakeup"] == pytest.approx(154 * 11_400_000 / HZ)


def test_results_of_a_run():
    # a 1 kHz tick: 1000 wake-ups of 200 cycles in one second of sleep, against a tick-less
    # run that sleeps deep; computed here from the model's constants
    tick = {"cycles": HZ, "sleep": HZ - 1000 * 200}
    tickless = {"cycles": HZ, "deep_sleep": HZ - 500 - 154, "wakeup": 154}
    sw = {"id": "rhealstone.task_switch", "unit": "cycles", "mean": 96.0}
    a = {e["id"]: e for e in energy.results({"energy.idle_window": tick}, [sw], M0, HZ)}
    b = {e["id"]: e for e in energy.results({"energy.idle_window": tickless}, [], M0, HZ)}
    want_tick = (1000 * 200 * 11_400 + (HZ - 200_000) * 2_900) / HZ
    assert a["energy.idle_uA"]["mean"] == pytest.approx(want_tick, abs=1e-3)
    want_tickless = ((500 + 154) * 11_400 + (HZ - 654) * 15) / HZ
    assert b["energy.idle_uA"]["mean"] == pytest.approx(want_tickless, abs=1e-3)
    # the tick's cost over a plain sleep: 1000 wake-ups a second of 200 cycles at run - sleep
    assert a["energy.idle_uA"]["mean"] - 2_900 == pytest.approx(1000 * 200 * (11_400 - 2_900) / HZ, abs=1e-3)
    assert a["energy.per_switch_nC"]["mean"] == pytest.approx(96 * 11_400_000 / HZ, abs=1e-3)
    assert a["energy.per_switch_nC"]["hot_paths_nC"] == {"rhealstone.task_switch": a["energy.per_switch_nC"]["mean"]}
    assert "energy.per_switch_nC" not in b
    assert energy.results({"energy.idle_window": tick}, [sw], None, HZ) == []


def test_battery_view():
    seg = {"cycles": HZ, "sleep": HZ - 1_000_000}
    res = energy.results({"energy.duty_window": seg}, [], M0, HZ)
    ua = res[0]["mean"]
    assert res[0]["battery"]["days"] == pytest.approx(225 / (ua / 1000) / 24, abs=0.05)
    run = {"rtos": "rtoslab", "results": res, "config": {"energy.duty_work_cycles": "10000",
                                                         "energy.duty_sleep_us": "10000"}}
    md = "\n".join(energy.battery_md([run], lambda r: r["rtos"]))
    assert "| rtoslab | yes | yes |" in md and f"{ua:.1f}" in md
    assert not math.isnan(ua)
