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
def test_rhealstone_figure_over_the_shared_operations(cli, tmp_path):
    """An RTOS without preemption has no objective figure, with the port's reason; the figure over
    the operations every run has ranks it anyway, and equals Kar's formula over those terms."""
    a = make_results(tmp_path / "r.json", rtoses=("rtoslab", "freertos", "chibios"))
    doc = json.loads(a.read_text())
    chib = doc["runs"][2]
    chib["results"] = [r for r in chib["results"] if r["id"] != "rhealstone.preemption"]
    chib["absent"].append({"id": "rhealstone.preemption", "reason": "no call to set another thread's priority"})
    a.write_text(json.dumps(doc))
    md = tmp_path / "r.md"
    r = cli("report", a, "--md", md, "--html", tmp_path / "r.html")
    assert r.status == 0, r
    text = md.read_text()
    rows = {ln.split("|")[1].strip(): ln.split("|")[2:4] for ln in text.splitlines()
            if ln.startswith("| ") and "Rhealstones" not in ln and ln.count("|") == 4}
    assert "n/a (no preemption)" in rows["chibios"][0]
    assert "chibios, no preemption: no call to set another thread's priority" in text
    run = doc["runs"][2]
    shared = [m for m in rhealstone_ids() if m != "rhealstone.preemption"]
    total = sum(next(x["mean"] for x in run["results"] if x["id"] == m) / run["clock_hz"] for m in shared)
    assert rows["chibios"][1].strip() == f"{1 / total:,.0f}"
    assert "The shared operations" in (tmp_path / "r.html").read_text()


def rhealstone_ids():
    from rtoslab.ids import RHEALSTONE
    return list(RHEALSTONE)


def test_board_by_board_and_profile_views(cli, tmp_path):
    """Views in board order (M0 before M3) whatever the files' order, size before speed; the
    board-by-board table; the speed profile against the size one, computed here again."""
    import math

    from rtoslab import answer
    docs = []
    for board, profile, shift in (("vp-m3", "size", 0), ("vp-m0", "speed", -5), ("vp-m0", "size", 0)):
        p = make_results(tmp_path / f"{board}-{profile}.json", board=board, shift=shift)
        doc = json.loads(p.read_text())
        for run in doc["runs"]:
            run["profile"] = profile
        p.write_text(json.dumps(doc))
        docs.append(doc)
    runs = [r for d in docs for r in d["runs"]]
    vs = answer.views(runs)
    assert [(v["board"], v["profile"]) for v in vs] == [("vp-m0", "size"), ("vp-m0", "speed"), ("vp-m3", "size")]
    acr = answer.across(vs)
    assert [c["board"] for c in acr["columns"]] == ["vp-m0", "vp-m0", "vp-m3"]
    assert {r["rtos"] for r in acr["rows"]} == {"rtoslab", "freertos"}
    # speed against size on vp-m0: every sample 5 cycles less; throughputs (higher) the other way
    size = {e["id"]: e for e in docs[2]["runs"][0]["results"]}
    want = []
    for e in docs[1]["runs"][0]["results"]:
        b = size[e["id"]]["p50"]
        if e["p50"] and b:
            want.append(b / e["p50"] if e["id"].startswith("tm.") else e["p50"] / b)
    (m0,) = answer.profiles(runs)
    got = next(r for r in m0["rtoses"] if r["rtos"] == "rtoslab")
    assert m0["board"] == "vp-m0" and got["ratio"] == pytest.approx(math.exp(sum(map(math.log, want)) / len(want)))
    assert got["ratio"] < 1
    md = tmp_path / "r.md"
    r = cli("report", *[tmp_path / f"{b}-{p}.json" for b, p in (("vp-m3", "size"), ("vp-m0", "speed"),
                                                                ("vp-m0", "size"))], "--md", md,
            "--html", tmp_path / "r.html")
    assert r.status == 0, r
    text = md.read_text()
    assert text.index("### vp-m0, profile size") < text.index("### vp-m0, profile speed") < \
        text.index("### vp-m3, profile size") < text.index("### Board by board")
    assert "| RTOS | vp-m0 size | vp-m0 speed | vp-m3 size |" in text and "vp-m0: " in text


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
    # no label of a figure drawn over another (the page measures every visible <text> box)
    overlaps = js_dom.split('data-label-overlaps="')[1].split('"')[0]
    assert overlaps == "0", js_dom.split('data-label-overlap-list="')[1].split('"')[0]
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


# ---- the answer: direction from the contract, the floor never ranked (issue 26) ----

def test_standing_ranks_by_the_contracts_direction_and_never_the_floor():
    from rtoslab import standing
    from rtoslab.ids import direction
    assert direction("stimulus.pulse.20us") == "zero" and direction("timer.delay_error.1ms") == "zero"
    assert direction("time.idle_window") == "none" and direction("tm.memory") == "higher"
    err = {"rtoslab": 6, "freertos": 40, "chibios": -5, "chibios-nil": -31, "baremetal": 1}
    assert standing.best("stimulus.pulse.20us", err) == -5              # smallest |error|, not the floor's 1
    assert standing.ranks("stimulus.pulse.20us", err) == {"chibios": 1, "rtoslab": 2, "chibios-nil": 3,
                                                          "freertos": 4}
    assert standing.ratio("stimulus.pulse.20us", -31, -5) == pytest.approx(6.2)
    assert standing.ratio("stimulus.pulse.20us", 0, -5) is None         # 0 has no ratio
    assert standing.ratio("stimulus.pulse.20us", 6, 0) is None
    cost = {"rtoslab": 100, "freertos": 150, "baremetal": 80}
    assert standing.best("rhealstone.task_switch", cost) == 100
    assert standing.ratio("rhealstone.task_switch", 80, 100) == pytest.approx(0.8)   # the floor: a reference
    assert standing.best("tm.memory", {"rtoslab": 5, "freertos": 9, "baremetal@vp-m0": 20}) == 9
    assert standing.ratio("tm.memory", 5, 9) == pytest.approx(1.8)
    assert standing.best("time.idle_window", {"rtoslab": 9_600_031}) is None   # not a cost: never ranked
    assert standing.ratio("time.idle_window", 9_600_031, 9_600_031) is None


def test_ports_shown_for_information_are_never_ranked():
    """rtoslab with a check off (manifest `ranked = false`) is shown beside the RTOSes, as the
    floor is, and never best nor ranked: what a check costs is no standing against a peer."""
    from rtoslab import ports, standing
    reg = ports.registry()
    assert not reg["rtoslab-nochecks"].ranked and not reg["rtoslab-nostackcheck"].ranked
    assert reg["rtoslab"].ranked and reg["chibios"].ranked
    cost = {"rtoslab": 47, "chibios": 28, "rtoslab-nochecks@vp-m0": 20, "rtoslab-nostackcheck#2": 10}
    assert standing.best("sem.signal_no_waiter", cost) == 28
    assert standing.ranks("sem.signal_no_waiter", cost) == {"chibios": 1, "rtoslab": 2}
    assert standing.is_ranked("rtoslab") and not standing.is_ranked("rtoslab-nochecks@vp-m3")
    assert not standing.is_ranked("baremetal") and standing.is_ranked("an-unknown-port")


def _entry(mid: str, samples: list[int], clock=48_000_000) -> dict:
    return results.result_entry(protocol.Metric(id=mid, n=len(samples), cold=0, samples=samples,
                                                complete=True, signed=min(samples) < 0), clock)


def ten_rtos_results(path: Path, n=400) -> Path:
    """Ten RTOSes (the floor among them) with every firmware metric of the contract, n spread
    samples each, signed errors of both signs: the size of a real all-RTOS run's report."""
    import random

    from rtoslab import contract
    make_results(path, rtoses=TEN)
    doc = json.loads(path.read_text())
    for k, run in enumerate(doc["runs"]):
        rnd = random.Random(k)
        run["profile"] = "size"
        entries = []
        for i, mid in enumerate(contract.FIRMWARE_METRICS):
            if contract.METRICS[mid][1] == "zero":
                centre = SIGNED_P50.get(mid, {}).get(run["rtos"], (k - 4) * 7)
                samples = [centre + rnd.randrange(-3, 4) * (j % 2) for j in range(n)]
            else:
                base = 100 + 20 * i + 15 * k + (-40 if run["rtos"] == "baremetal" else 0)
                samples = [base + rnd.randrange(base // 4 + 1) for _ in range(n)]
                if mid == "sem.signal_no_waiter":     # constant; the middle row's at the axis' end,
                    samples = [base + (900 if k == 4 else 0)] * n   # level with the CDF's 0.5
            entries.append(_entry(mid, samples))
        run["results"] = entries
        run["absent"] = []
    path.write_text(json.dumps(doc))
    return path


# a signed error whose most negative p50 (coos) is not the best: the smallest |error| (riot) is
SIGNED_P50 = {"stimulus.pulse.20us": {"rtoslab": 6, "freertos": 40, "chibios": -5, "coos": -60, "riot": 2,
                                      "baremetal": 1, "threadx": -9, "chibios-nil": 11, "contiki-ng": 20,
                                      "zephyr": -14}}


def test_cli_table_ranks_signed_errors_by_magnitude_and_skips_the_floor(tmp_path):
    import io

    from rich.console import Console

    from rtoslab.table import compact_tables
    doc = json.loads(ten_rtos_results(tmp_path / "ten.json", n=16).read_text())
    buf = io.StringIO()
    con = Console(file=buf, width=400, color_system=None)
    for t in compact_tables(doc["runs"], 400):
        con.print(t)
    text = buf.getvalue()
    row = next(line.strip() for line in text.splitlines() if line.strip().startswith("stimulus.pulse.20us"))
    assert "→ 0" in row and "×-" not in text                  # no negative ratio anywhere
    cells = dict(zip(TEN, re.findall(r"(-?\d+)(?: ×([\d.]+))?", row.split("|error|)")[1])))
    assert cells["riot"] == ("2", "1.00") and cells["coos"] == ("-60", "30")
    assert cells["baremetal"] == ("1", "0.50")                 # the floor: beside, better, not the best
    idle = next(line for line in text.splitlines() if line.strip().startswith("time.idle_window"))
    assert "×" not in idle and "not ranked" in idle
    assert "the floor, baremetal, is not ranked" in text


@pytest.mark.skipif(_chromium() is None, reason="chromium not installed (apt-get install chromium)")
def test_report_opens_with_the_answer_in_the_first_screen(cli, tmp_path):
    """Ten RTOSes with every metric: the answer (a ranked heat-map per board and profile) is in
    the first 1400x900 screen, the floor is a column beside the ranking, signed errors are
    ranked by |error|, configuration cards come last, the page stays under 3 MB."""
    import time

    from PIL import Image
    src = ten_rtos_results(tmp_path / "ten.json")
    html = tmp_path / "ten.html"
    t0 = time.monotonic()
    r = cli("report", src, "--html", html)
    assert r.status == 0, r
    print(f"report of ten RTOSes x {len(json.loads(src.read_text())['runs'][0]['results'])} metrics: "
          f"{time.monotonic() - t0:.1f} s, {html.stat().st_size / 1e6:.2f} MB")
    assert r.status == 0, r
    text = html.read_text()
    assert html.stat().st_size <= 3_000_000
    assert text.index('id="answer"') < text.index('id="summary"') < text.index('id="configurations"')
    assert text.index('id="distributions"') < text.index('id="configurations"')
    assert re.search(r'<details class="dist"><summary>', text)
    url = html.resolve().as_uri()
    common = [_chromium(), *CHROME_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,900"]
    dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    assert 'data-ready="yes"' in dom
    top, bottom = (float(x) for x in dom.split('data-answer-box="')[1].split('"')[0].split())
    assert top < 300 and bottom < 900, (top, bottom)            # the whole first answer table on screen
    head = dom.split('<table class="answer"')[1].split("</thead>")[0]
    ranked = re.findall(r'<th class="run" data-rtos="([^"]+)"', head)
    assert "baremetal" not in ranked and len(ranked) == 9
    assert re.search(r'<th class="run floor" data-rtos="baremetal"', head)
    assert "floor, not ranked" in head
    # no label of a figure over another, constant distributions at the axis' end included
    assert 'data-label-overlaps="0"' in dom, dom.split('data-label-overlap-list="')[1].split('"')[0]
    # the detail row of a signed error: ranks follow |p50|, the best (bold) is riot's 2, not coos's -60
    row = dom.split('<td class="id">stimulus.pulse.20us</td>')[1].split("</tr>")[0]
    tds = re.findall(r'<td class="first( floor)?"(?: data-rank="(\d+)")?>(?:<strong>)?(-?\d+)', row)
    by = {rtos: (floor, rank, int(v)) for rtos, (floor, rank, v) in zip(TEN, tds)}
    assert by["riot"][1] == "1" and "<strong>2</strong>" in row and "<strong>-60</strong>" not in row
    order = sorted((int(rank), abs(v)) for floor, rank, v in by.values() if rank)
    assert [v for _, v in order] == sorted(v for _, v in order)    # rank by magnitude
    assert by["baremetal"][0] == " floor" and by["baremetal"][1] == ""
    # the first screen: the heat-map's colours are on it
    shot = tmp_path / "first.png"
    subprocess.run(common + [f"--screenshot={shot}", "--hide-scrollbars", url], capture_output=True, timeout=120)
    img = Image.open(shot).convert("RGB")
    assert img.size == (1400, 900)
    seen = img.getcolors(maxcolors=1 << 22)

    def count(ref, tol=6):
        return sum(n for n, rgb in seen if all(abs(x - y) <= tol for x, y in zip(rgb, ref)))
    assert count((0x1a, 0x98, 0x50)) > 500                      # ×1.00 cells (green)
    assert count((0xfc, 0x8d, 0x59)) + count((0xd7, 0x30, 0x27)) > 500   # worse cells (orange, red)


def test_markdown_report_opens_with_the_answer(cli, tmp_path):
    src = ten_rtos_results(tmp_path / "ten.json", n=16)
    md = tmp_path / "r.md"
    assert cli("report", src, "--md", md).status == 0
    text = md.read_text()
    assert text.index("## Standing against the best RTOS") < text.index("## Results") < text.index("## Configurations")
    head = next(line for line in text.splitlines() if line.startswith("| group | unit |"))
    assert head.endswith("| baremetal (floor) |") and ". baremetal" not in head     # the floor: not ranked
    timer = next(line for line in text.splitlines() if line.startswith("| interrupts and time: timer.*"))
    assert "\\|→0\\|" in timer and timer.count("|") - timer.count("\\|") == 13   # 11 columns, pipes escaped


def test_distribution_svg_is_well_formed_small_and_reaches_the_top():
    import xml.etree.ElementTree as ET

    from rtoslab.distribution_svg import TOP, figure
    series = [("rtoslab", [5] * 100, "#1f77b4"), ("freertos", list(range(-40, 60)), "#d62728"),
              ("wide", [10, 20, 5000] * 40, "#2ca02c")]
    for s in (series[:2], series[1:], series[:1]):
        svg = figure("stimulus.pulse.20us", s, "cycles")
        root = ET.fromstring(svg)                                    # well-formed XML
        assert root.tag.endswith("svg") and len(svg) < 1500 * len(s) + 2500
        curves = [p.get("d") for p in root.iter("{http://www.w3.org/2000/svg}path") if p.find(
            "{http://www.w3.org/2000/svg}title") is not None]
        assert len(curves) == len(s)
        for d in curves:                                             # every cumulative curve ends at 1
            assert d.endswith(f"V{TOP}")
    assert "constant: every sample = 5" in figure("m", series[:1], "cycles")
    assert "(log x)" in figure("m", series[2:], "cycles") and "(log x)" not in figure("m", series[1:2], "cycles")


def test_every_port_of_the_registry_has_a_colour_of_its_own():
    # a new port must not take another's colour (the palette grows with the registry)
    from rtoslab.plots import colors_for
    from rtoslab.ports import registry
    ids = list(registry())
    assert len(set(colors_for(ids).values())) == len(ids)


def test_report_draws_hartstone_breakdown_points(cli, tmp_path):
    """The Hartstone chart: each series' utilisation at the breakdown point, per RTOS; a series
    an RTOS cannot run (absent) has no bar."""
    path = make_results(tmp_path / "h.json")
    doc = json.loads(path.read_text())
    for run, util in zip(doc["runs"], (960, 905)):
        for series in ("ph1", "ph3", "sh"):
            if run["rtos"] == "freertos" and series == "sh":
                run["absent"].append({"id": "hartstone.sh.utilisation", "reason": "no mutex"})
                continue
            m = protocol.Metric(id=f"hartstone.{series}.utilisation", unit="permille", n=1, samples=[util],
                                complete=True)
            run["results"].append(results.result_entry(m, 48_000_000))
    path.write_text(json.dumps(doc))
    r = cli("report", path, "--html", tmp_path / "h.html")
    assert r.status == 0, r
    html = (tmp_path / "h.html").read_text()
    part = html.split('id="hartstone-plot"', 1)[1].split("</figure>", 1)[0]
    assert "Hartstone: utilisation at the breakdown point" in part and "<svg" in part
    assert part.count("<svg") == 1
