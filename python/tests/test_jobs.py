"""--jobs, --shard, merge and --dask (issue 27): the same runs, in the same order, however the
cells are spread; shards partition the matrix; merge refuses overlap and missing cells."""
import copy
import json
import os

import pytest
from conftest import real_vp
from helpers import all_checks, assert_one_line_error, default_metrics, probe_events, spec, transcript

from rtoslab import results, shard

RTOSES = ("rtoslab", "freertos", "chibios")


def fake_images(tmp_path, delay=0.0):
    """A fake simulator image per RTOS (its transcript, its probe's edges), --elf arguments."""
    args = ["--rtos", ",".join(RTOSES)]
    for i, rtos in enumerate(RTOSES):
        m = {k: [v + 7 * i for v in s] for k, s in default_metrics(rtos).items()}
        p = spec(tmp_path / f"bench-{rtos}.elf", transcript(rtos, m, probe=True, checks=all_checks()),
                 events=probe_events(m), delay=delay)
        args += ["--elf", f"{rtos}={p}"]
    return args


def comparable(doc: dict) -> dict:
    """A result document without what differs from one run to the next by nature: the run's id,
    time and command line, the wall time of each image."""
    doc = copy.deepcopy(doc)
    for k in ("run_id", "created", "command", "shard", "merged_from"):
        doc.pop(k, None)
    for run in doc["runs"]:
        run["manifest"].pop("elapsed_s", None)
        run["manifest"].pop("host", None)
    return doc


def notes(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if " metrics, " in ln]


def test_jobs_gives_the_runs_and_the_order_of_jobs_1(cli, fake_vp, tmp_path):
    args = fake_images(tmp_path, delay=0.001)
    r1 = cli("run", *args, "--jobs", "1", "--json", tmp_path / "j1.json", "--no-history")
    r3 = cli("run", *args, "--jobs", "3", "--json", tmp_path / "j3.json", "--no-history")
    assert r1.status == 0 and r3.status == 0, (r1, r3)
    d1, d3 = results.load(tmp_path / "j1.json"), results.load(tmp_path / "j3.json")
    assert [r["rtos"] for r in d3["runs"]] == list(RTOSES)
    assert comparable(d1) == comparable(d3)
    assert d3["runs"][0]["results"][0]["probe"]["n"] > 0          # the probe read in the worker
    assert notes(r1.err) == notes(r3.err) and len(notes(r3.err)) == 3
    assert r1.out == r3.out                                        # the table


def test_jobs_on_the_real_simulator_gives_identical_samples(cli, fixture_elfs, tmp_path, monkeypatch):
    vp = real_vp()
    if vp is None:
        pytest.skip("the simulator is not built")
    monkeypatch.setenv("RTOSLAB_VP", str(vp))
    args = ["--rtos", ",".join(RTOSES)] + [a for r in RTOSES for a in ("--elf", f"{r}={fixture_elfs['protocol']}")]
    for jobs in ("1", "3"):
        r = cli("run", *args, "--jobs", jobs, "--json", tmp_path / f"j{jobs}.json", "-q", "--no-history")
        assert r.status == 0, r
    d1, d3 = results.load(tmp_path / "j1.json"), results.load(tmp_path / "j3.json")
    assert d1["runs"][0]["results"], "the fixture measured nothing"
    assert comparable(d1) == comparable(d3)


def test_bad_jobs_and_shard_are_one_line_and_status_2(cli, fake_vp, tmp_path):
    args = fake_images(tmp_path)
    for bad in (["--jobs", "0"], ["--shard", "0/2"], ["--shard", "3/2"], ["--shard", "1-2"],
                ["--shard", "1/0"], ["--dask", "localhost:8786"]):
        r = cli("run", *args, *bad, "--json", tmp_path / "x.json", "--no-history")
        assert_one_line_error(r, 2)
    assert not (tmp_path / "x.json").exists()


def test_rtoslab_jobs_sets_the_default(cli, fake_vp, tmp_path, monkeypatch):
    monkeypatch.setenv("RTOSLAB_JOBS", "two")
    r = cli("run", *fake_images(tmp_path), "--json", tmp_path / "x.json", "--no-history")
    assert_one_line_error(r, 2)
    assert "RTOSLAB_JOBS=two" in r.err
    from rtoslab.parallel import default_jobs
    monkeypatch.setenv("RTOSLAB_JOBS", "3")
    assert default_jobs() == 3
    monkeypatch.delenv("RTOSLAB_JOBS")
    assert default_jobs() == len(os.sched_getaffinity(0))


def test_the_split_is_round_robin_over_the_sorted_cells():
    keys = ["rtoslab@vp-m0/size", "freertos@vp-m0/size", "chibios@vp-m0/size", "threadx@vp-m0/size"]
    # sorted: chibios freertos rtoslab threadx -> 1 2 1 2; the command's order kept in a shard
    assert shard.select(keys, 1, 2) == ["rtoslab@vp-m0/size", "chibios@vp-m0/size"]
    assert shard.select(keys, 2, 2) == ["freertos@vp-m0/size", "threadx@vp-m0/size"]
    assert shard.select(keys, 5, 5) == []
    for n in range(1, 6):
        shares = [shard.select(keys, i, n) for i in range(1, n + 1)]
        assert sorted(sum(shares, [])) == sorted(keys)                 # a partition
        assert max(map(len, shares)) - min(map(len, shares)) <= 1      # balanced


def test_shards_partition_the_run_and_merge_joins_them(cli, fake_vp, tmp_path):
    args = fake_images(tmp_path)
    whole = cli("run", *args, "--json", tmp_path / "whole.json", "-q", "--no-history")
    assert whole.status == 0, whole
    for i in (1, 2):
        r = cli("run", *args, "--shard", f"{i}/2", "--json", tmp_path / f"s{i}.json", "-q", "--no-history")
        assert r.status == 0, r
    s1, s2 = results.load(tmp_path / "s1.json"), results.load(tmp_path / "s2.json")
    got1, got2 = [r["rtos"] for r in s1["runs"]], [r["rtos"] for r in s2["runs"]]
    assert got1 == ["rtoslab", "chibios"] and got2 == ["freertos"]     # sorted: chibios freertos rtoslab
    assert s1["shard"] == {"index": 1, "count": 2,
                           "matrix": [f"{r}@vp-m0/size" for r in RTOSES]}
    r = cli("merge", tmp_path / "s2.json", tmp_path / "s1.json", "-o", tmp_path / "m.json")
    assert r.status == 0, r
    merged = results.load(tmp_path / "m.json")
    assert comparable(merged) == comparable(results.load(tmp_path / "whole.json"))
    assert merged["merged_from"] == [str(tmp_path / "s2.json"), str(tmp_path / "s1.json")]


def test_merge_refuses_overlap_and_missing_cells(cli, fake_vp, tmp_path):
    args = fake_images(tmp_path)
    for i in (1, 2):
        r = cli("run", *args, "--shard", f"{i}/2", "--json", tmp_path / f"s{i}.json", "-q", "--no-history")
        assert r.status == 0, r
    out = tmp_path / "m.json"
    r = cli("merge", tmp_path / "s1.json", "-o", out)                 # shard 2 missing
    assert_one_line_error(r, 2)
    assert "freertos@vp-m0/size is missing (shard 2/2 has no file)" in r.err
    r = cli("merge", tmp_path / "s1.json", tmp_path / "s2.json", tmp_path / "s1.json", "-o", out)
    assert_one_line_error(r, 2)
    assert "overlapping" in r.err
    # a shard file cut short (a cell of its share gone) is a missing cell too
    doc = json.loads((tmp_path / "s1.json").read_text())
    doc["runs"] = doc["runs"][:1]
    (tmp_path / "cut.json").write_text(json.dumps(doc))
    r = cli("merge", tmp_path / "cut.json", tmp_path / "s2.json", "-o", out)
    assert_one_line_error(r, 2)
    assert "chibios@vp-m0/size is missing (not in" in r.err
    assert not out.exists()
    # a plain run beside a shard holding the same cell: overlap
    r = cli("run", *args, "--json", tmp_path / "whole.json", "-q", "--no-history")
    r = cli("merge", tmp_path / "s1.json", tmp_path / "s2.json", tmp_path / "whole.json", "-o", out)
    assert_one_line_error(r, 2)
    assert not out.exists()


def test_dask_cluster_gives_the_runs_of_a_local_run(cli, fake_vp, tmp_path):
    """A scheduler and two worker processes on 127.0.0.1 (distributed's LocalCluster); the
    images are shipped as bytes, the (fake) simulator runs in the workers."""
    distributed = pytest.importorskip("distributed")
    args = fake_images(tmp_path)
    local = cli("run", *args, "--jobs", "1", "--json", tmp_path / "local.json", "--no-history")
    assert local.status == 0, local
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, local_directory=str(tmp_path / "dask")) as cluster:
        r = cli("run", *args, "--dask", cluster.scheduler_address, "--json", tmp_path / "dask.json",
                "--no-history")
        assert r.status == 0, r
        with distributed.Client(cluster) as client:
            workers = client.scheduler_info()["workers"]
        assert len(workers) == 2
    assert comparable(results.load(tmp_path / "dask.json")) == comparable(results.load(tmp_path / "local.json"))
    assert notes(r.err) == notes(local.err)


def test_dask_cluster_runs_the_real_simulator_on_its_workers(cli, fixture_elfs, tmp_path, monkeypatch):
    """The same with the real simulator (the workers find the checkout's, as a worker machine
    after make setup does) and real images: identical samples, probe and sizes."""
    distributed = pytest.importorskip("distributed")
    vp = real_vp()
    if vp is None:
        pytest.skip("the simulator is not built")
    monkeypatch.setenv("RTOSLAB_VP", str(vp))
    args = ["--rtos", "rtoslab,freertos"] + [a for r in ("rtoslab", "freertos")
                                             for a in ("--elf", f"{r}={fixture_elfs['protocol']}")]
    local = cli("run", *args, "--json", tmp_path / "local.json", "-q", "--no-history")
    assert local.status == 0, local
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, local_directory=str(tmp_path / "dask")) as cluster:
        r = cli("run", *args, "--dask", cluster.scheduler_address, "--json", tmp_path / "dask.json", "-q",
                "--no-history")
        assert r.status == 0, r
    local_doc = results.load(tmp_path / "local.json")
    assert local_doc["runs"][0]["results"], "the fixture measured nothing"
    assert comparable(results.load(tmp_path / "dask.json")) == comparable(local_doc)


def test_dask_scheduler_not_reachable_is_one_line(cli, fake_vp, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from rtoslab import dask_cells
    monkeypatch.setattr(dask_cells, "CONNECT_TIMEOUT_S", 2)
    r = cli("run", *fake_images(tmp_path), "--dask", "tcp://127.0.0.1:9", "--json", tmp_path / "x.json",
            "--no-history")
    assert_one_line_error(r, 4)
    assert "cannot reach the scheduler" in r.err


def test_interrupted_parallel_run_keeps_finished_and_partial_runs(fake_vp, tmp_path):
    """SIGINT to the command while the second cell runs in its worker: the first cell's run is
    kept, the second's metrics that reached @end too (the worker stops its simulator and hands
    back what it parsed); status 130, one line."""
    import signal
    import subprocess
    import sys
    import time
    a = spec(tmp_path / "a.elf", transcript("rtoslab"))
    b_lines = transcript("freertos").splitlines()
    held = tmp_path / "held"
    second_end = [i for i, ln in enumerate(b_lines, 1) if ln.startswith("@end")][1]
    b = spec(tmp_path / "b.elf", "\n".join(b_lines), hold={"after": second_end, "file": str(held)})
    out = tmp_path / "int.json"
    p = subprocess.Popen([sys.executable, "-m", "rtoslab", "run", "--elf", f"rtoslab={a}", "--elf",
                          f"freertos={b}", "--jobs", "2", "--json", str(out), "-q", "--no-history"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, RTOSLAB_VP=str(fake_vp)),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out.exists() and held.exists()):
        time.sleep(0.05)
    assert out.exists() and held.exists()
    p.send_signal(signal.SIGINT)
    so, se = p.communicate(timeout=90)
    assert p.returncode == 130, (so, se)
    lines = [ln for ln in se.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("rtoslab: interrupted"), se
    doc = results.load(out)
    assert doc.get("interrupted") is True
    assert [r["status"] for r in doc["runs"]] == ["complete", "interrupted"]
    assert len(doc["runs"][1]["results"]) == 2


def test_a_cell_on_the_host_keeps_the_run_to_one_cell_at_a_time():
    """posix measures the host's own time: nothing may run beside it, whatever --jobs says."""
    from rtoslab import run as runmod
    from rtoslab.parallel import serial_reason
    opts = runmod.make_options("rtoslab,posix", None, jobs=2)
    assert "posix@host measures the host's own time" in serial_reason(opts)
    assert serial_reason(runmod.make_options("rtoslab,freertos", "vp-m0", jobs=2)) == ""
