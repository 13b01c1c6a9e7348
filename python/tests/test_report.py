import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import all_checks, assert_one_line_error, default_metrics, transcript

from rtoslab import protocol, results
from rtoslab.report import rhealstone


def make_results(path: Path, rtoses=("rtoslab", "freertos"), shift=0, size=None, board="vp-m0") -> Path:
    doc = results.new_document("abc123")
    for rtos in rtoses:
        m = default_metrics(rtos)
        if shift:
            m = {k: [x + shift for x in v] for k, v in m.items()}
        absent = {"thread.create_low": "no separate create"} if rtos == "freertos" else None
        t = protocol.parse(transcript(rtos, m, checks=all_checks(), absent=absent))
        run = {"rtos": rtos, "rtos_version": "1.0", "board": board, "clock_hz": 48_000_000,
               "toolchain": "arm-none-eabi-gcc 12.2.1 -Os", "config": dict(t.config), "status": "complete",
               "results": [results.result_entry(x, 48_000_000) for x in t.metrics.values()],
               "absent": [{"id": k, "reason": v} for k, v in t.absent.items()], "incomplete": [],
               "checks": [{"id": c.id, "passed": c.passed, "detail": c.detail} for c in t.checks.values()],
               "size": size or {"flash.startup": 300, "flash.kernel": 1800 + shift, "flash.port": 200,
                                "flash.application": 4000, "flash.libc": 500, "flash.total": 6800 + shift,
                                "ram.kernel": 120, "ram.application": 3000, "ram.total": 3120}}
        doc["runs"].append(run)
    results.write(doc, path)
    return path


LATENCY = {"rtoslab": ({"pending": 2, "core_entry": 15, "prologue": 22, "isr_signal": 75, "epilogue_exit": 6,
                        "switch": 120}, 0),
           "freertos": ({"pending": 2, "core_entry": 15, "prologue": 22, "isr_signal": 241, "epilogue_exit": 21,
                         "switch": 257}, 300)}


def add_latency_models(path: Path) -> Path:
    """A latency model per run, as `rtoslab latency` records it; FreeRTOS with a jitter."""
    doc = json.loads(path.read_text())
    for run in doc["runs"]:
        parts, jitter = LATENCY[run["rtos"]]
        total = sum(parts.values())
        run["latency_model"] = {"metric": "irq.to_thread", "traced": 16, "warm": 1016,
                                "median": dict(parts, total=total, masked=1, scheduler=0, handler_other=0),
                                "deterministic": parts, "jitter": jitter, "total_min": total,
                                "total_max": total + jitter}
    path.write_text(json.dumps(doc))
    return path


def segment_widths(dom: str, y: int) -> dict[str, float]:
    """The width of every segment of bar y of the latency figure, from its SVG path."""
    out = {}
    for part, d in re.findall(rf'<g id="latency-{y}-([a-z_]+)">\s*<path d="([^"]+)"', dom):
        xs = [float(v) for v in re.findall(r"[ML] ([-\d.]+) [-\d.]+", d)]
        out[part] = max(xs) - min(xs)
    return out


def test_rhealstone_objective_and_application():
    run = {"clock_hz": 1_000_000, "results": [
        {"id": m, "mean": 10.0, "p50": 10, "min": 1, "max": 1, "p99": 1, "stdev": 0} for m in
        ("rhealstone.task_switch", "rhealstone.preemption", "rhealstone.interrupt_latency",
         "rhealstone.semaphore_shuffle", "rhealstone.deadlock_break", "rhealstone.message_passing")]}
    obj = rhealstone(run, None)
    assert obj["value"] == pytest.approx(1 / 60e-6)           # 6 metrics of 10 µs each
    app = rhealstone(run, {"rhealstone.task_switch": 3.0})     # other weights 0
    assert app["value"] == pytest.approx(1 / 30e-6)
    run["results"].pop()
    assert rhealstone(run, None)["value"] is None and rhealstone(run, None)["missing"]


def test_report_md_and_html(cli, tmp_path):
    r1 = make_results(tmp_path / "a.json")
    w = tmp_path / "w.toml"
    w.write_text("[weights]\ntask_switch = 2\ninterrupt_latency = 5\n")
    r = cli("report", r1, "--html", tmp_path / "r.html", "--md", tmp_path / "r.md", "--weights", w)
    assert r.status == 0, r
    html = (tmp_path / "r.html").read_text()
    md = (tmp_path / "r.md").read_text()
    for text in (html, md):
        assert "rhealstone.task_switch" in text and "freertos" in text and "rtoslab" in text
        assert "Rhealstone" in text and "application" in text
    assert html.count("<svg") >= 8 + 1 + 2      # a figure per metric, the Rhealstone bars, flash and RAM
    assert "<table" in html and "no separate create" in html
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert "<script src" not in html and "<link" not in html
    assert "tick_hz" in html                     # configuration beside the numbers
    assert (tmp_path / "r_plots" / "rhealstone.task_switch.svg").exists()
    assert "FLASH kernel" in md


@pytest.mark.parametrize("content,needle", [
    (None, "no such file"),
    ("{not json", "not JSON"),
    ('{"schema": 99, "runs": []}', "schema"),
    ('{"schema": 1, "runs": [{"rtos": "x", "board": "y", "results": [{"id": "a", "min": "fast"}]}]}', "not a number"),
    ('[1, 2]', "top level"),
])
def test_report_bad_input(cli, tmp_path, content, needle):
    p = tmp_path / "bad.json"
    if content is not None:
        p.write_text(content)
    r = cli("report", p, "--html", tmp_path / "o.html")
    assert_one_line_error(r, 2)
    assert needle in r.err
    assert not (tmp_path / "o.html").exists()


def test_report_bad_weights(cli, tmp_path):
    r1 = make_results(tmp_path / "a.json")
    w = tmp_path / "w.json"
    w.write_text(json.dumps({"warp_drive": 1}))
    r = cli("report", r1, "--weights", w, "--html", tmp_path / "o.html")
    assert_one_line_error(r, 2)
    assert "warp_drive" in r.err


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (apt-get install chromium)")
def test_html_report_in_headless_chromium(cli, tmp_path):
    from PIL import Image

    r1 = add_latency_models(make_results(tmp_path / "a.json"))
    html = tmp_path / "report.html"
    assert cli("report", r1, "--html", html).status == 0
    url = html.resolve().as_uri()
    common = [_chromium(), *CHROME_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    # 1. the DOM after the page's script ran: tables, the plots, the table of contents it builds
    dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    assert 'data-ready="yes"' in dom
    n_plots = int(dom.split('data-plots="')[1].split('"')[0])
    n_tables = int(dom.split('data-tables="')[1].split('"')[0])
    assert n_plots >= 11 and n_tables >= 5
    assert 'class="sub" href="#group-1"' in dom or 'href="#group-1" class="sub"' in dom
    # the latency model's stacked bar: every part of each run, widths in the parts' proportions
    for y, rtos in enumerate(("rtoslab", "freertos")):
        parts, jitter = LATENCY[rtos]
        widths = segment_widths(dom, y)
        assert set(widths) == set(parts) | {"jitter"}, widths
        scale = widths["switch"] / parts["switch"]
        for part, v in dict(parts, jitter=jitter).items():
            assert widths[part] == pytest.approx(v * scale, abs=0.02), (rtos, part)
    assert segment_widths(dom, 0)["switch"] / segment_widths(dom, 1)["switch"] == pytest.approx(120 / 257, rel=1e-3)
    # 2. a screenshot: not blank, with the tables' text and the plots' colours
    shot = tmp_path / "shot.png"
    subprocess.run(common + [f"--screenshot={shot}", "--window-size=1400,9000", "--hide-scrollbars", url],
                   capture_output=True, timeout=120)
    assert shot.exists() and shot.stat().st_size > 10_000
    img = Image.open(shot).convert("RGB")
    w, h = img.size
    px = img.load()
    colours = img.getcolors(maxcolors=1 << 20)
    assert len(colours) > 50                                     # not blank
    dark = sum(1 for x in range(0, w, 3) for y in range(0, h // 2, 3) if sum(px[x, y]) < 200)
    assert dark > 500                                            # text of the tables
    def near(rgb, ref, tol=40):
        return all(abs(a - b) <= tol for a, b in zip(rgb, ref))
    blue = sum(c for c, rgb in colours if near(rgb, (0x1f, 0x77, 0xb4)))
    red = sum(c for c, rgb in colours if near(rgb, (0xd6, 0x27, 0x28)))
    assert blue > 2000 and red > 2000                            # the bars of both RTOSes
    # the latency bar on screen: its epilogue colour is no other plot's on this page (0 without it)
    olive = sum(c for c, rgb in colours if near(rgb, (0xbc, 0xbd, 0x22), 8))
    assert olive > 200


def test_report_merges_files_and_boards(cli, tmp_path):
    a = make_results(tmp_path / "a.json")
    b = make_results(tmp_path / "b.json", rtoses=("freertos",), board="vp-stm32f0", shift=5)
    doc = json.loads(b.read_text())
    r0 = doc["runs"][0]["results"][0]
    r0["probe"] = {"n": r0["n"], "min": 1, "p50": r0["p50"] - 6, "mean": 1.0, "p99": 1, "max": 1,
                   "stdev": 0.0, "overhead_p50": 6, "samples": []}
    b.write_text(json.dumps(doc))
    md = tmp_path / "m.md"
    r = cli("report", a, b, "--md", md, "--html", tmp_path / "m.html")
    assert r.status == 0, r
    text = md.read_text()
    for label in ("rtoslab@vp-m0", "freertos@vp-m0", "freertos@vp-stm32f0"):
        assert label in text
    assert "second clock" in text and "| 6 |" in text
    html = (tmp_path / "m.html").read_text()
    assert "freertos@vp-stm32f0" in html and 'id="probe"' in html


TEN = ("rtoslab", "freertos", "chibios", "chibios-nil", "threadx", "coos", "riot", "contiki-ng",
       "baremetal", "zephyr")


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (apt-get install chromium)")
def test_report_of_ten_rtoses_fits_the_page_with_one_colour_each(cli, tmp_path):
    """Ten RTOSes: the summary chart, one distinct colour per RTOS everywhere, compact tables
    that fit a 1400-pixel page, full absence reasons."""
    from PIL import Image

    from rtoslab.plots import colors_for
    a = make_results(tmp_path / "ten.json", rtoses=TEN)
    doc = json.loads(a.read_text())
    long_reason = "Contiki-NG processes are stackless cooperative protothreads: " + "x" * 120 + " END"
    doc["runs"][7]["absent"].append({"id": "rhealstone.preemption", "reason": long_reason})
    doc["runs"][7]["results"] = [r for r in doc["runs"][7]["results"] if r["id"] != "rhealstone.preemption"]
    a.write_text(json.dumps(doc))
    html = tmp_path / "ten.html"
    r = cli("report", a, "--html", html, "--baseline", "freertos")
    assert r.status == 0, r
    text = html.read_text()
    colors = colors_for(list(TEN))
    assert len(set(colors.values())) == 10
    for c in colors.values():               # the card, the table header and the plots: one colour
        assert f"--c: {c}" in text and f"border-top: 3px solid {c}" in text
    assert text.count('class="plot summary-plot"') >= 1 and long_reason in text
    assert "Ratios are to the baseline, freertos" in text
    url = html.resolve().as_uri()
    common = [_chromium(), *CHROME_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    # the compact comparison tables are no wider than the page's content column
    js_dom = subprocess.run(common + ["--window-size=1400,1000", "--dump-dom", url],
                            capture_output=True, text=True, timeout=120).stdout
    assert 'data-ready="yes"' in js_dom
    widths = js_dom.split('data-cmp-overflow="')[1].split('"')[0]
    assert widths == "0", f"{widths} compact table(s) wider than the page"
    shot = tmp_path / "ten.png"
    subprocess.run(common + [f"--screenshot={shot}", "--window-size=1400,2400", "--hide-scrollbars", url],
                   capture_output=True, timeout=120)
    img = Image.open(shot).convert("RGB")
    seen = img.getcolors(maxcolors=1 << 22)

    def count(ref, tol=12):
        ref = tuple(int(ref[i:i + 2], 16) for i in (1, 3, 5))
        return sum(n for n, rgb in seen if all(abs(x - y) <= tol for x, y in zip(rgb, ref)))
    shown = [rtos for rtos, c in colors.items() if count(c) > 30]
    assert len(shown) == 10, f"colours on screen: {shown}"
