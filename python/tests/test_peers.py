"""The port registry (bench/ports/*/port.toml) and the peers' sources (rtoslab peers)."""
import hashlib
import io
import subprocess
import tarfile
from pathlib import Path

import pytest

from rtoslab import peers, ports

REPO = Path(__file__).resolve().parents[2]


def test_registry_lists_the_ports_of_the_tree_in_order():
    reg = ports.registry(REPO)
    assert list(reg)[:2] == ["rtoslab", "freertos"]
    for rid in ("rtoslab", "freertos", "baremetal", "posix"):
        assert reg[rid].directory == REPO / "bench" / "ports" / rid
    assert reg["posix"].kind == "host" and reg["rtoslab"].kind == "firmware"
    assert [p.id for p in reg.values() if p.default] == ["rtoslab", "freertos"]
    # every manifest of the tree is the directory of a port
    dirs = {p.parent.name for p in (REPO / "bench" / "ports").glob("*/port.toml")}
    assert dirs == set(reg)


def make_root(tmp_path: Path, manifest: str, rid: str = "demo") -> Path:
    root = tmp_path / "repo"
    d = root / "bench" / "ports" / rid
    d.mkdir(parents=True)
    (d / "port.toml").write_text(manifest)
    return root


def demo_archive(tmp_path: Path) -> tuple[Path, str]:
    """A pinned archive with one top directory, demo/, as `git archive` makes them."""
    folder = tmp_path / "archives"
    folder.mkdir(exist_ok=True)
    path = folder / "demo-1.tar.xz"
    with tarfile.open(path, "w:xz") as tar:
        data = b"int demo;\n"
        info = tarfile.TarInfo("demo/src/demo.c")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(sha: str, upstream: str = "https://example.invalid/demo.git", commit: str = "a" * 40) -> str:
    return f'''id = "demo"
name = "Demo RTOS"
version = "1.0"
kind = "firmware"
licence = "MIT"
summary = "a test port"
configuration = "defaults"
[[source]]
archive = "demo-1.tar.xz"
dir = "demo"
upstream = "{upstream}"
ref = "v1"
commit = "{commit}"
sha256 = "{sha}"
'''


def test_bad_manifests_disable_their_port_with_one_line(tmp_path):
    """A broken manifest takes its own port out of the registry, with the reason; it does not
    break the registry (every other port and command keeps working)."""
    cases = [('id = "other"\nname = "x"\n', "'version' is a required property"),
             (manifest("0" * 64).replace('id = "demo"', 'id = "nope"'), "not its directory's name"),
             ("id = [", "not a valid port manifest"),
             (manifest("0" * 64).replace('version = ', 'order = "twenty"\nversion = '), "order is not an integer"),
             (manifest("0" * 64).replace('version = ', 'order = [1]\nversion = '), "order is not an integer")]
    for n, (text, why) in enumerate(cases):
        root = make_root(tmp_path / str(n), text)
        assert ports.registry(root) == {}
        assert why in ports.broken(root)["demo"]


def test_archive_is_verified_extracted_and_recorded(tmp_path, monkeypatch):
    archive, sha = demo_archive(tmp_path)
    root = make_root(tmp_path, manifest(sha))
    monkeypatch.setenv("RTOSLAB_PEERS_DIR", str(archive.parent))
    port = ports.registry(root)["demo"]
    with pytest.raises(peers.SourcesMissing, match="demo: sources not available"):
        peers.require(port, root)
    got = peers.fetch_one(port.sources[0], root, clone=False)
    assert got.ok and got.how == f"archive {archive}"
    assert (root / "build" / "peers" / "demo" / "src" / "demo.c").read_text() == "int demo;\n"
    peers.require(port, root)  # no error now
    assert peers.fetch_one(port.sources[0], root, clone=False).how == "ready"
    assert port.pin() == "https://example.invalid/demo.git@" + "a" * 40


def test_a_tampered_archive_is_refused(tmp_path, monkeypatch):
    archive, sha = demo_archive(tmp_path)
    root = make_root(tmp_path, manifest("f" * 64))
    monkeypatch.setenv("RTOSLAB_PEERS_DIR", str(archive.parent))
    got = peers.fetch_one(ports.registry(root)["demo"].sources[0], root, clone=False)
    assert not got.ok and "is not the pinned" in got.how
    assert not (root / "build" / "peers" / "demo").exists()


def test_without_an_archive_the_pinned_commit_is_cloned_and_checked(tmp_path, monkeypatch):
    up = tmp_path / "upstream"
    up.mkdir()
    git = ["git", "-C", str(up), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(up)], check=True)
    (up / "demo.c").write_text("int v1;\n")
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "v1"], check=True)
    pinned = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    (up / "demo.c").write_text("int v2;\n")
    subprocess.run(git + ["commit", "-qam", "v2"], check=True)
    subprocess.run(git + ["config", "uploadpack.allowReachableSHA1InWant", "true"], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("RTOSLAB_PEERS_DIR", str(tmp_path / "empty"))
    root = make_root(tmp_path, manifest("0" * 64, upstream=f"file://{up}", commit=pinned))
    got = peers.fetch_one(ports.registry(root)["demo"].sources[0], root)
    assert got.ok, got.how
    assert (root / "build" / "peers" / "demo" / "demo.c").read_text() == "int v1;\n"
    # a pin that is not a commit of the upstream fails with the reason, nothing extracted
    root2 = make_root(tmp_path / "b", manifest("0" * 64, upstream=f"file://{up}", commit="b" * 40))
    got2 = peers.fetch_one(ports.registry(root2)["demo"].sources[0], root2)
    assert not got2.ok and "git fetch failed" in got2.how


def test_run_names_a_port_without_sources_one_line_status_4(tmp_path, monkeypatch, cli):
    _, sha = demo_archive(tmp_path)
    root = make_root(tmp_path, manifest(sha))
    monkeypatch.setenv("RTOSLAB_ROOT", str(root))
    monkeypatch.setenv("RTOSLAB_PEERS_DIR", str(tmp_path / "empty"))
    ports._scan.cache_clear()
    try:
        r = cli("run", "--rtos", "demo", "--no-history")
        assert r.status == 4 and r.err.count("\n") == 1
        assert "demo: sources not available (demo-1.tar.xz)" in r.err and "RTOSLAB_PEERS_DIR" in r.err
        # --rtos all skips it with one line; nothing else is left to run here: status 2
        r = cli("run", "--rtos", "all", "--no-history")
        assert r.status == 2
        assert "rtoslab: skipped demo: sources not available" in r.err
        assert "no RTOS to run" in r.err
    finally:
        ports._scan.cache_clear()
