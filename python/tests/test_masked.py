"""irq.masked / irq.masked_max from the simulator's --masked summary (rtoslab/masked.py)."""
import json
import random

from helpers import transcript
from test_run import images

from rtoslab import masked, results, stats

SUMMARY = {
    "version": 1, "cycles": 100000, "count": 6, "total": 3 * 6 + 301 + 15 + 6, "asleep": 0,
    "longest": {"start": 500, "cycles": 301, "set_pc": 0x102, "set_at": "long_mask+0x2",
                "set_func": "long_mask", "clear_pc": 0x2dc, "clear_at": "long_mask+0x25c",
                "clear_func": "long_mask"},
    "open": None,
    "sites": [{"set_pc": 0x102, "set_at": "long_mask+0x2", "set_func": "long_mask", "clear_pc": 0x2dc,
               "clear_at": "long_mask+0x25c", "clear_func": "long_mask", "count": 1, "total": 301,
               "max": 301, "max_start": 500}],
    "hist": [[6, 4], [15, 1], [301, 1]],
}


def test_hist_stats_equal_the_sample_statistics():
    rng = random.Random(7)
    vals = [rng.choice([3, 5, 5, 9, 40, 41, 300]) for _ in range(997)]
    hist = {}
    for v in vals:
        hist[v] = hist.get(v, 0) + 1
    got = masked.hist_stats([[k, c] for k, c in hist.items()])
    want = stats.summarize(vals)
    assert got == want


def test_results_give_the_longest_with_its_location():
    entries, section = masked.results(SUMMARY, 48_000_000)
    by = {e["id"]: e for e in entries}
    mx = by["irq.masked_max"]
    assert mx["max"] == mx["p50"] == 301 and mx["n"] == 1 and mx["samples"] == [301]
    assert mx["location"]["set_at"] == "long_mask+0x2" and mx["location"]["set_pc"] == "0x00000102"
    assert by["irq.masked"]["n"] == 6 and by["irq.masked"]["p50"] == 6 and by["irq.masked"]["max"] == 301
    assert section["count"] == 6 and section["fraction"] == round(SUMMARY["total"] / 100000, 6)
    assert section["sites"][0]["clear_func"] == "long_mask"
    doc = {"schema": 1, "runs": [{"rtos": "x", "board": "vp-m0", "results": entries}]}
    results.validate(doc)


def test_run_adds_the_masked_metrics_from_the_simulator(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab"), "masked": SUMMARY})
    out = tmp_path / "r.json"
    r = cli("run", "--rtos", "rtoslab", *args, "--json", out, "-q", "--no-history")
    assert r.status == 0, r
    run = json.loads(out.read_text())["runs"][0]
    by = {e["id"]: e for e in run["results"]}
    assert by["irq.masked_max"]["max"] == 301
    assert run["masked"]["sites"][0]["set_func"] == "long_mask"


def test_signed_errors_report_early_and_late_apart():
    r = results.early_late([-3, 0, 5, 7, -1, 0])
    assert r == {"early": {"n": 2, "max": 3}, "late": {"n": 2, "max": 7}, "on_time": 2}
