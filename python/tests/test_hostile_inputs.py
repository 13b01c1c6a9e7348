"""Issue 25, hostile inputs: the simulator's bounded reads, malformed result files and
manifests, a terminal that is not UTF-8, rtoslab-qemu on odd paths, compare's and report's
validation, a large result file (items 3, 5, 6, 7, 10, 11)."""
import copy
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import real_vp
from helpers import assert_one_line_error, result_doc_run, spec, transcript

from rtoslab import ports, results

# ---- 3: rtoslab-vp reads no more than an image can be ----


def _elf_with_segment(path: Path, filesz: int, file_size: int) -> Path:
    """An ELF32 Arm header with one PT_LOAD of `filesz` bytes at offset 0x1000, the file
    extended (sparse) to `file_size`."""
    hdr = b"\x7fELF\x01\x01\x01" + b"\0" * 9 + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0x101, 52, 0, 0x05000000,
                                                          52, 32, 1, 40, 0, 0)
    ph = struct.pack("<IIIIIIII", 1, 0x1000, 0, 0, filesz, filesz, 5, 4)
    with open(path, "wb") as f:
        f.write(hdr + ph)
        f.truncate(file_size)
    return path


def _vp_bounded(args, seconds=1.0):
    vp = real_vp()
    if vp is None:
        pytest.skip("the simulator is not built (make setup)")
    # run it under a small Python parent that reports the child's peak memory and CPU time
    # (CPU time, not the wall clock: "at once" must hold on a busy machine too)
    code = ("import resource, subprocess, sys, json; p = subprocess.run(sys.argv[1:], capture_output=True, "
            "text=True, timeout=60); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print(json.dumps([p.returncode, p.stderr, u.ru_maxrss, u.ru_utime + u.ru_stime]))")
    out = subprocess.run([sys.executable, "-c", code, str(vp), "run", *map(str, args)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr       # not the timeout of the inner run
    status, err, rss_kib, cpu_s = json.loads(out.stdout)
    assert cpu_s < seconds, cpu_s
    return status, err, rss_kib


@pytest.mark.parametrize("what", ["dev-zero", "folder", "symlink-loop", "sparse-1g", "segment-1g"])
def test_3_the_simulator_refuses_what_no_image_can_be_at_once(what, tmp_path):
    path = {"dev-zero": lambda: Path("/dev/zero"), "folder": lambda: tmp_path,
            "symlink-loop": lambda: (tmp_path / "l").symlink_to(tmp_path / "l") or tmp_path / "l",
            "sparse-1g": lambda: _elf_with_segment(tmp_path / "s.elf", 1 << 30, 0x1000 + (1 << 30)),
            "segment-1g": lambda: _elf_with_segment(tmp_path / "h.elf", 1 << 30, 0x2000)}[what]()
    status, err, rss_kib = _vp_bounded([path])
    assert status == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert rss_kib < 64 * 1024, rss_kib                                  # no 1 GB read into memory


# ---- 5, 10: malformed result files: one line, status 2, never 70 ----

def _doc():
    doc = results.new_document("x")
    doc["created"] = "2026-01-01T00:00:00+00:00"
    doc["runs"].append(result_doc_run("rtoslab"))
    return doc


def _set(path, value):
    def mutate(doc):
        node = doc
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        return doc
    return mutate


R0 = ("runs", 0)
M0 = ("runs", 0, "results", 0)
MALFORMED = {
    "check-without-passed": _set(R0 + ("checks",), [{"id": "check.x"}]),
    "check-passed-a-string": _set(R0 + ("checks",), [{"id": "check.x", "passed": "yes"}]),
    "absent-not-objects": _set(R0 + ("absent",), [1]),
    "incomplete-not-objects": _set(R0 + ("incomplete",), ["x"]),
    "cold-a-string": _set(M0 + ("cold",), "2"),
    "cold-negative": _set(M0 + ("cold",), -3),
    "sample-a-string": _set(M0 + ("samples",), ["a", 1]),
    "sample-10e400": _set(M0 + ("samples",), [10 ** 400, 1]),
    "sample-negative-cycles": _set(M0 + ("samples",), [-5, 1]),
    "sample-2-to-64": _set(M0 + ("samples",), [2 ** 64, 1]),
    "samples-empty": _set(M0 + ("samples",), []),
    "size-a-string": _set(R0 + ("size",), {"flash.kernel": "big"}),
    "clock-a-string": _set(R0 + ("clock_hz",), "fast"),
    "tool-a-string": _set(("tool",), "x"),
    "probe-a-number": _set(M0 + ("probe",), 5),
    "latency-model-odd": _set(R0 + ("latency_model",), {"deterministic": 1}),
    "n-a-string": _set(M0 + ("n",), "many"),
    "unit-a-number": _set(M0 + ("unit",), 5),
}
RAW = {  # shapes json.dumps cannot write: edited by hand
    "nan-sample": lambda t: t.replace('"samples": [\n', '"samples": [\n  NaN,\n', 1),
    "inf-p50": lambda t: t.replace('"p50": ', '"p50": Infinity, "x": ', 1),
    "nan-stat": lambda t: t.replace('"mean": ', '"mean": NaN, "y": ', 1),
    "1e400-sample": lambda t: t.replace('"samples": [\n', '"samples": [\n  1e400,\n', 1),
    "deep-nesting": lambda t: t.replace('"config": {}', '"config": ' + "[" * 50_000 + "]" * 50_000, 1),
}


def _malformed_files(tmp_path):
    out = {}
    for name, mutate in MALFORMED.items():
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(mutate(copy.deepcopy(_doc())), indent=1))
        out[name] = p
    for name, edit in RAW.items():
        p = tmp_path / f"{name}.json"
        text = edit(json.dumps(_doc(), indent=1))
        assert text != json.dumps(_doc(), indent=1), name
        p.write_text(text)
        out[name] = p
    return out


@pytest.mark.parametrize("name", list(MALFORMED) + list(RAW))
def test_5_malformed_result_files_are_one_line_status_2(name, cli, tmp_path):
    f = _malformed_files(tmp_path)[name]
    good = tmp_path / "good.json"
    results.write(_doc(), good)
    for argv in (["report", f, "--html", tmp_path / "r.html"], ["compare", good, f], ["compare", f, good],
                 ["history", "--db", tmp_path / "h.sqlite", "--add", f]):
        r = cli(*argv)
        assert_one_line_error(r, 2)
        assert str(f.name) in r.err, r.err


def test_10_a_good_file_still_compares_and_reports(cli, tmp_path):
    """The validation refuses the shapes above, not the files rtoslab writes."""
    good = tmp_path / "good.json"
    results.write(_doc(), good)
    assert cli("compare", good, good).status == 0
    assert cli("history", "--db", tmp_path / "h.sqlite", "--add", good).status == 0


BAD_MANIFESTS = {
    "source-a-string": 'source = "oops"\n',
    "source-numbers": "source = [1, 2]\n",
    "order-a-word": 'order = "twenty"\n',
    "order-a-list": "order = [1]\n",
    "arch-a-number": "arch = 5\n",
    "default-a-string": 'default = "yes"\n',
    "structs-numbers": "thread_structs = [1]\n",
    "report-a-table": "report = {a = 1}\n",
    "order-huge": "order = 99999999999999999999\n",
}


@pytest.mark.parametrize("name", BAD_MANIFESTS)
def test_5_a_bad_manifest_disables_its_port_and_peers_still_works(name, tmp_path, monkeypatch, cli):
    from test_peers import make_root, manifest
    text = manifest("0" * 64)
    head, sep, tail = text.partition("[[source]]")
    bad = BAD_MANIFESTS[name]
    if bad.startswith("source"):
        head, sep, tail = head, "", ""
    root = make_root(tmp_path, bad + head + sep + tail)
    good = root / "bench" / "ports" / "good"
    good.mkdir()
    (good / "port.toml").write_text(text.replace('id = "demo"', 'id = "good"'))
    assert list(ports.registry(root)) == ["good"]
    assert "demo" in ports.broken(root)
    monkeypatch.setenv("RTOSLAB_ROOT", str(root))
    monkeypatch.setenv("RTOSLAB_PEERS_DIR", str(tmp_path / "none"))
    ports._scan.cache_clear()
    try:
        r = cli("peers")
    finally:
        ports._scan.cache_clear()
    assert r.status == 0, r
    assert "good" in r.out
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("rtoslab: port demo disabled: "), r.err


# ---- 6: a terminal that is not UTF-8 ----

def test_6_a_latin1_terminal_gets_the_table_in_ascii(tmp_path, fake_vp):
    img = spec(tmp_path / "a.elf", transcript("rtoslab"))
    env = dict(os.environ, RTOSLAB_VP=str(fake_vp), PYTHONIOENCODING="latin-1")
    p = subprocess.run([sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={img}",
                        "--json", str(tmp_path / "r.json"), "--no-history"], capture_output=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("latin-1")
    assert "rhealstone.task_switch" in out and "v lower" in out, out


# ---- 7: rtoslab-qemu on odd paths ----

@pytest.mark.parametrize("what", ["loop", "text", "folder", "missing"])
def test_7_rtoslab_qemu_refuses_what_is_not_an_elf(what, tmp_path, monkeypatch):
    marker = tmp_path / "qemu-ran"
    fake = tmp_path / "qemu"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\nexit 134\n")
    fake.chmod(0o755)
    path = {"loop": lambda: (tmp_path / "l").symlink_to(tmp_path / "l") or tmp_path / "l",
            "text": lambda: (tmp_path / "t.elf").write_text("not an elf") and tmp_path / "t.elf",
            "folder": lambda: tmp_path, "missing": lambda: tmp_path / "none.elf"}[what]()
    env = dict(os.environ, RTOSLAB_QEMU=str(fake))
    for extra in ([] if what == "missing" else ["--print"], []):   # --print of a missing image: its command
        p = subprocess.run([sys.executable, "-c", "from rtoslab.runners.qemu import main; raise SystemExit(main())",
                            *extra, str(path)], capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 2, p.stderr
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("rtoslab-qemu: ") and "Traceback" not in p.stderr
        assert not marker.exists()


# ---- 11: a large result file ----

METRICS_11 = ("rhealstone.task_switch", "rhealstone.preemption", "rhealstone.interrupt_latency",
              "rhealstone.semaphore_shuffle", "rhealstone.deadlock_break", "rhealstone.message_passing",
              "sem.signal_wake", "mutex.lock_uncontended")


def _report_peak(tmp_path: Path, per_metric: int, name: str):
    """A report of two runs of eight metrics with `per_metric` samples each (values above 256:
    Python shares no int object among them): its status, the report's peak memory (KiB),
    stderr, and the HTML."""
    doc = results.new_document("x")
    for rtos, base in (("rtoslab", 10_000), ("freertos", 13_000)):
        doc["runs"].append(result_doc_run(rtos, {mid: [base + (i * 7919) % 997 for i in range(per_metric)]
                                                 for mid in METRICS_11}))
    src = tmp_path / f"{name}.json"
    results.write(doc, src)
    del doc
    code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
            "sys.stderr.write(p.stderr); print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "rtoslab", "report", str(src), "--html",
                        str(tmp_path / f"{name}.html"), "--md", str(tmp_path / f"{name}.md")],
                       capture_output=True, text=True, timeout=600)
    status, rss_kib = map(int, p.stdout.split())
    return status, rss_kib, p.stderr, (tmp_path / f"{name}.html").read_text() if status == 0 else ""


def test_11_report_memory_is_bounded_by_its_plots_not_the_file(tmp_path):
    """4 million samples (~36 MB of JSON; held as Python ints they alone take ~150 MB): the
    report streams the file (result_stream.py), keeping a few thousand samples per series,
    so its peak memory is within 64 MB of the same report of 200 samples per series."""
    status, small_kib, err, _ = _report_peak(tmp_path, 200, "small")
    assert status == 0, err
    status, big_kib, err, html = _report_peak(tmp_path, 250_000, "big")
    assert status == 0, err
    assert big_kib - small_kib < 64 * 1024, (small_kib, big_kib)
    assert "rtoslab: report: reading" in err and "rtoslab: report: drawing" in err
    assert len(html) < 20_000_000 and "rhealstone.task_switch" in html
