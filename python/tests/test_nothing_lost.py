"""Issue 25, "nothing lost": runs that overlap, disks that fill, runs that are killed. Each
test names the defect of the issue it covers (items 1, 2, 4, 8, 9, 12)."""
import errno
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import assert_one_line_error, spec, transcript

from rtoslab import results

REPO = Path(__file__).resolve().parents[2]


def _env(tmp_path, fake_vp, **extra):
    env = dict(os.environ, RTOSLAB_VP=str(fake_vp), RTOSLAB_RESULTS=str(tmp_path / "results"),
               RTOSLAB_HISTORY=str(tmp_path / "history.sqlite"))
    env.update(extra)
    return env


def _start_runs(n, tmp_path, fake_vp):
    """n `rtoslab run` at once, default result paths, the same image (a run of about a second)."""
    img = spec(tmp_path / "bench-rtoslab.elf", transcript("rtoslab"), delay=0.005)
    cmd = [sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={img}", "-q"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_env(tmp_path, fake_vp)) for _ in range(n)]
    return [(p.returncode, *p.communicate(timeout=120)) for p in procs for _ in [p.wait(timeout=120)]]


@pytest.mark.parametrize("n", [2, 4])
def test_1_concurrent_runs_each_keep_their_file_and_history_row(n, tmp_path, fake_vp):
    done = _start_runs(n, tmp_path, fake_vp)
    for rc, out, err in done:
        assert rc == 0, err
        assert "rhealstone.task_switch" in out
    files = sorted(p for p in (tmp_path / "results").glob("run-*.json"))
    assert len(files) == n, [f.name for f in files]
    run_ids = {results.load(f)["run_id"] for f in files}
    assert len(run_ids) == n
    db = sqlite3.connect(tmp_path / "history.sqlite")
    rows = db.execute("SELECT run_id, source FROM runs").fetchall()
    assert len(rows) == n and {r[0] for r in rows} == run_ids
    assert {Path(r[1]) for r in rows} == {f.resolve() for f in files}


def _fake_build_tools(tmp_path):
    """cmake and ninja stand-ins: ninja takes half a second and fails if another ninja works in
    the same folder at the same time (what two real builds sharing a folder do, at random)."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "cmake").write_text(
        "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -B ] && d=$2; shift; done\n"
        "mkdir -p \"$d\"; touch \"$d/build.ninja\" \"$d/CMakeCache.txt\"\n")
    (bin_ / "ninja").write_text(
        "#!/bin/sh\nd=$2; t=$3\n"
        "if ! mkdir \"$d/busy\" 2>/dev/null; then echo 'error: Bus error (another build here)'; exit 1; fi\n"
        "sleep 0.5; printf x > \"$d/$t.elf\"; rmdir \"$d/busy\"\n")
    for f in bin_.iterdir():
        f.chmod(0o755)
    return bin_


def test_2_builds_in_one_folder_take_its_lock(tmp_path, monkeypatch):
    from rtoslab import build
    root = tmp_path / "repo"
    (root / "cmake").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text("")
    monkeypatch.setenv("PATH", f"{_fake_build_tools(tmp_path)}{os.pathsep}{os.environ['PATH']}")
    errors, images = [], []

    def one():
        try:
            images.append(build.build(root, "vp-m0", "bench-rtoslab"))
        except Exception as e:  # noqa: BLE001 - the test reports whatever the build raised
            errors.append(e)
    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert len(images) == 3
    assert (root / "build" / "fw" / "vp-m0" / build.LOCK_NAME).exists()


# ---- 4: every disk full ----

@pytest.fixture
def full_disk(tmp_path):
    """A full tmpfs (mounted where the tests run as root and may), else None (the caller
    simulates ENOSPC)."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        yield None
        return
    try:
        fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as e:
            assert e.errno == errno.ENOSPC
        finally:
            os.close(fd)
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_4_a_full_disk_with_tmpdir_still_prints_the_table_status_2(tmp_path, fake_vp, full_disk):
    if full_disk is None:
        pytest.skip("no tmpfs here (not root): test_4_enospc_simulated covers it")
    img = spec(tmp_path / "bench-rtoslab.elf", transcript("rtoslab"))
    env = _env(tmp_path, fake_vp, TMPDIR=str(full_disk), RTOSLAB_HISTORY=str(full_disk / "h.sqlite"))
    p = subprocess.run([sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={img}",
                        "--json", str(full_disk / "r.json"), "--csv", str(full_disk / "r.csv"), "-q"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2, p.stderr
    assert "rhealstone.task_switch" in p.stdout                       # the table, all the same
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "not written" in lines[0], p.stderr
    for what in ("r.json", "r.csv", "h.sqlite"):
        assert what in lines[0]
    left = sorted(f.name for f in full_disk.iterdir())
    assert left == ["filler"], left                                     # no partial file, no empty database


def test_4_enospc_simulated(cli, fake_vp, tmp_path, monkeypatch):
    """The same without a tmpfs: every write fails with ENOSPC (result file, fallback, CSV)."""
    real = results.atomic_write

    def full(path, data):
        raise results.RtoslabError(f"cannot write {path}: No space left on device", status=2)
    monkeypatch.setattr(results, "atomic_write", full)
    args = ["--elf", f"rtoslab={spec(tmp_path / 'a.elf', transcript('rtoslab'))}"]
    r = cli("run", "--rtos", "rtoslab", *args, "--json", tmp_path / "r.json", "--csv", tmp_path / "r.csv",
            "-q", "--no-history")
    monkeypatch.setattr(results, "atomic_write", real)
    assert_one_line_error(r, 2)
    assert "rhealstone.task_switch" in r.out and "not written" in r.err


def test_4_a_failed_csv_leaves_the_json_whole(cli, fake_vp, tmp_path, monkeypatch):
    def no_csv(doc, path):
        raise results.RtoslabError(f"cannot write {path}: No space left on device", status=2)
    monkeypatch.setattr(results, "write_csv", no_csv)
    a = spec(tmp_path / "a.elf", transcript("rtoslab"))
    b = spec(tmp_path / "b.elf", transcript("freertos"))
    r = cli("run", "--elf", f"rtoslab={a}", "--elf", f"freertos={b}", "--json", tmp_path / "r.json",
            "--csv", tmp_path / "r.csv", "-q", "--no-history")
    assert_one_line_error(r, 2)
    assert "r.csv" in r.err and "not written" in r.err
    doc = results.load(tmp_path / "r.json")
    assert [x["rtos"] for x in doc["runs"]] == ["rtoslab", "freertos"]


def test_4_report_to_a_full_disk_leaves_no_half_plots(cli, tmp_path, full_disk, monkeypatch):
    doc = results.new_document("x")
    from helpers import result_doc_run
    doc["runs"].append(result_doc_run("rtoslab"))
    src = tmp_path / "r.json"
    results.write(doc, src)
    out = full_disk if full_disk is not None else tmp_path / "out"
    if full_disk is None:
        out.mkdir()
        real = results.atomic_write
        calls = []

        def fills(path, data):       # the disk fills after the first plot
            calls.append(path)
            if len(calls) > 1:
                raise results.RtoslabError(f"cannot write {path}: No space left on device", status=2)
            return real(path, data)
        monkeypatch.setattr(results, "atomic_write", fills)
    r = cli("report", src, "--md", out / "r.md")
    assert_one_line_error(r, 2)
    assert not (out / "r_plots").exists() and not (out / "r.md").exists()


# ---- 8, 9: the history ----

def test_8_run_then_history_add_of_the_same_file_is_one_row(cli, fake_vp, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    img = spec(tmp_path / "a.elf", transcript("rtoslab"))
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={img}", "--json", "rel.json", "-q")
    assert r.status == 0, r
    r = cli("history", "--add", tmp_path / "rel.json")
    assert r.status == 0, r
    db = sqlite3.connect(os.environ["RTOSLAB_HISTORY"])
    assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1


def test_9_history_add_into_a_corrupted_database_is_status_2(cli, tmp_path):
    doc = results.new_document("x")
    from helpers import result_doc_run
    doc["runs"].append(result_doc_run("rtoslab"))
    src = tmp_path / "r.json"
    results.write(doc, src)
    db = tmp_path / "h.sqlite"
    assert cli("history", "--db", db, "--add", src).status == 0
    data = bytearray(db.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)          # the pages after the first: garbage
    db.write_bytes(bytes(data))
    doc["created"] = "another"
    results.write(doc, src)
    r = cli("history", "--db", db, "--add", src)
    assert_one_line_error(r, 2)


def test_9_run_whose_history_cannot_be_written_is_status_2_in_one_line(cli, fake_vp, tmp_path):
    img = spec(tmp_path / "a.elf", transcript("rtoslab"))
    bad = tmp_path / ("a-folder-with-a-long-name-" * 4)
    bad.mkdir()
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={img}", "--json", tmp_path / "r.json", "-q",
            "--history-db", bad)
    assert_one_line_error(r, 2)
    assert "history" in r.err and "rhealstone.task_switch" in r.out
    assert results.load(tmp_path / "r.json")["runs"]


# ---- 12: a killed run, odd --elf paths ----

def test_12_a_killed_runs_temporary_folder_is_removed_by_the_next_run(tmp_path, fake_vp):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    held = tmp_path / "held"
    a = spec(tmp_path / "a.elf", transcript("rtoslab"), hold={"after": 5, "file": str(held)})
    env = _env(tmp_path, fake_vp, TMPDIR=str(tmp))
    p = subprocess.Popen([sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={a}",
                          "--json", str(tmp_path / "k.json"), "-q"], env=env, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not held.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert held.exists()
    os.killpg(p.pid, signal.SIGKILL)
    p.wait(timeout=30)
    assert list(tmp.glob("rtoslab-run-*")), "the killed run had no temporary folder"
    b = spec(tmp_path / "b.elf", transcript("rtoslab"))
    q = subprocess.run([sys.executable, "-m", "rtoslab", "run", "--rtos", "rtoslab", "--elf", f"rtoslab={b}",
                        "--json", str(tmp_path / "k2.json"), "-q"], env=env, capture_output=True, text=True,
                       timeout=120)
    assert q.returncode == 0, q.stderr
    assert not list(tmp.glob("rtoslab-run-*"))


@pytest.mark.parametrize("make, needle", [
    (lambda d: d, "is a folder"),
    (lambda d: Path("/dev/zero"), "not a regular file"),
    (lambda d: _loop(d), "symbolic links"),
    (lambda d: d / "none.elf", "no such file"),
])
def test_12_elf_paths_say_what_they_are(cli, tmp_path, make, needle):
    r = cli("run", "--rtos", "rtoslab", "--elf", f"rtoslab={make(tmp_path)}", "--json", tmp_path / "o.json")
    assert_one_line_error(r, 2)
    assert needle in r.err


def _loop(d: Path) -> Path:
    (d / "loop").symlink_to(d / "loop")
    return d / "loop"


def test_history_rows_are_keyed_by_the_run_id(tmp_path):
    """Two documents alike in everything but their run id are two rows (the old key, created +
    source + RTOS + board, merged them)."""
    from helpers import result_doc_run
    from rtoslab import history
    db = tmp_path / "h.sqlite"
    for rid in ("a", "b", "a"):
        doc = results.new_document("x")
        doc.update(created="2026-01-01T00:00:00+00:00", run_id=rid)
        doc["runs"].append(result_doc_run("rtoslab"))
        history.record(db, doc, "same.json")
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
