"""rtoslab.app_latency (`rtoslab latency --app`): seed 003's model composed from measured costs;
the totals are the sum of their parts, recomputed here independently from the result file."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtoslab import app_latency

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "latency-app-seed003.toml"


def entry(mid, p50, mx, **extra):
    return {"id": mid, "unit": "cycles", "n": 8, "min": p50, "p50": p50, "mean": p50, "p99": mx, "max": mx, **extra}


def runs():
    ticking = {
        "rtos": "ticking", "board": "vp-m0", "clock_hz": 48_000_000, "config": {"tick_hz": "1000", "tickless": "no"},
        "results": [entry("mutex.lock_uncontended", 30, 40), entry("mutex.unlock", 25, 33),
                    entry("sem.signal_waiter", 60, 71), entry("rhealstone.message_passing", 300, 350),
                    entry("irq.to_thread", 230, 260), entry("rhealstone.interrupt_latency", 22, 24),
                    entry("irq.masked_max", 90, 90),
                    {"id": "time.tick_fraction.load", "unit": "%", "n": 1, "p50": 1.0, "max": 1.0,
                     "window_cycles": 4_800_000, "handler_cycles": 48_000}],
    }
    tickless = json.loads(json.dumps(ticking))
    tickless.update(rtos="tickless", config={"tickless": "yes (compare timer)"})
    lacking = json.loads(json.dumps(ticking))
    lacking["rtos"] = "nomutex"
    lacking["results"] = [e for e in lacking["results"] if not e["id"].startswith("mutex.")]
    lacking["absent"] = [{"id": "mutex.unlock", "reason": "no mutexes"},
                         {"id": "mutex.lock_uncontended", "reason": "no mutexes"}]
    threadx_like = json.loads(json.dumps(ticking))  # a ticking kernel that gives only its time_hz
    threadx_like.update(rtos="time_hz", config={"tickless": "no: SysTick", "time_hz": "1000"})
    return [ticking, tickless, lacking, threadx_like]


def test_sum_equals_parts():
    app = app_latency.load_app(EXAMPLE)
    rows = {r["rtos"]: r for r in app_latency.model(app, runs())}
    t = rows["ticking"]
    by_id = {e["id"]: e for e in runs()[0]["results"]}
    typical = app["app_cycles"] + sum(x * by_id[m]["p50"] for m, x in {**app["services"], **app["interrupts"]}.items())
    used = {**app["services"], **app["interrupts"]}
    worst_det = app["app_cycles"] + sum(x * by_id[m]["max"] for m, x in used.items())
    tick = 48_000 // (4_800_000 * 1000 // 48_000_000)          # handler cycles over the window's ticks
    uart = 150 + by_id["rhealstone.interrupt_latency"]["max"]   # the example's other interrupt
    assert t["typical"] == typical
    assert t["jitter"] == {"tick": tick, "interrupts": uart, "masked": 90, "cache": 0, "daemons": None}
    assert t["worst"] == worst_det + tick + uart + 90
    assert t["worst"] == t["app"] + t["t_os"]["worst"] + t["t_isr"]["worst"] + t["t_jitter"]
    # a tick-less RTOS has no tick term; one lacking a service has no figure, but its reason
    assert rows["tickless"]["jitter"]["tick"] == 0 and rows["tickless"]["worst"] == t["worst"] - tick
    assert rows["time_hz"]["jitter"]["tick"] == tick
    assert rows["nomutex"] == {"rtos": "nomutex", "board": "vp-m0", "clock_hz": 48_000_000, "missing": "no mutexes"}


def test_cli_on_the_example(tmp_path):
    res = tmp_path / "r.json"
    res.write_text(json.dumps({"runs": runs()}))
    out = tmp_path / "o.json"
    p = subprocess.run([sys.executable, "-m", "rtoslab", "latency", "--app", str(EXAMPLE), "--results", str(res),
                        "--json", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "ticking" in p.stdout and "lacks a service: no mutexes" in p.stdout
    rows = json.loads(out.read_text())["rows"]
    assert rows[0]["worst"] == app_latency.model(app_latency.load_app(EXAMPLE), runs())[0]["worst"]


@pytest.mark.parametrize("text, needle", [
    ("app_cycles = -1", "app_cycles"),
    ("[services]\n'mutex.unlock' = 'x'", "[services]"),
    ("not toml [", "not TOML"),
])
def test_bad_app_file(tmp_path, text, needle):
    f = tmp_path / "a.toml"
    f.write_text(text)
    res = tmp_path / "r.json"
    res.write_text(json.dumps({"runs": runs()}))
    p = subprocess.run([sys.executable, "-m", "rtoslab", "latency", "--app", str(f), "--results", str(res)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and needle in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
