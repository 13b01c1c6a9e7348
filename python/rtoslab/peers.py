"""The peer RTOSes' sources: obtained at set-up from pinned upstream commits, never committed.

Where an archive comes from, first match wins:
1. `$RTOSLAB_PEERS_DIR/<archive>` (pinned `git archive` files: CI and development machines
   use the read-only `../shared/peers` beside the checkout this way);
2. `<repo>/../shared/peers/<archive>` when that folder exists;
3. a shallow clone of `upstream` at `commit` into `~/.cache/rtoslab/peers/<dir>` (where the
   network allows), checked by its commit id.
An archive is verified against the manifest's sha256 and extracted into
`build/peers/<dir>`, where the ports' CMakeLists.txt find it (RTOSLAB_PEERS_SRC). A source
that cannot be had is a skipped port with one line saying how to get it, never a failed
set-up.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from .errors import RtoslabError
from .manifest import repo_root
from .ports import Port, Source, registry

SOURCES_MISSING = 4  # the exit status of a run that names a port whose sources are missing
HOW = ("set RTOSLAB_PEERS_DIR to a folder with the pinned archives (docs/porting.md, "
       "\"Peer sources\") and run `make setup`")


class SourcesMissing(RtoslabError):
    status = SOURCES_MISSING


def extracted_root(root: Path | None = None) -> Path:
    return (root or repo_root()) / "build" / "peers"


def _stamp(dest: Path, src: Source) -> Path:
    return dest / f".{src.dir}.pin"


def is_ready(src: Source, root: Path | None = None) -> bool:
    dest = extracted_root(root)
    try:
        return _stamp(dest, src).read_text().strip() == f"{src.commit} {src.sha256}"
    except OSError:
        return False


def missing_sources(port: Port, root: Path | None = None) -> list[Source]:
    return [s for s in port.sources if not is_ready(s, root)]


def require(port: Port, root: Path | None = None) -> None:
    """Raise SourcesMissing (one line) unless every source of `port` is extracted."""
    lack = missing_sources(port, root)
    if lack:
        names = ", ".join(s.archive for s in lack)
        raise SourcesMissing(f"{port.id}: sources not available ({names}): {HOW}")


def archive_dirs(root: Path | None = None) -> list[Path]:
    root = root or repo_root()
    out = []
    env = os.environ.get("RTOSLAB_PEERS_DIR")
    if env:
        out.append(Path(env))
    shared = root.parent / "shared" / "peers"
    if shared.is_dir():
        out.append(shared)
    return out


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass
class Fetched:
    source: Source
    how: str      # "archive PATH", "clone", "ready"; or why it failed
    ok: bool


def _extract(archive: Path, src: Source, dest: Path) -> None:
    tmp = dest / f".{src.dir}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(archive, "r:*") as tar:
        tar.extractall(tmp, filter="data")
    top = tmp / src.dir
    if not top.is_dir():
        shutil.rmtree(tmp, ignore_errors=True)
        raise RtoslabError(f"{archive.name}: no top directory {src.dir}/")
    shutil.rmtree(dest / src.dir, ignore_errors=True)
    top.rename(dest / src.dir)
    shutil.rmtree(tmp, ignore_errors=True)


def _clone(src: Source, dest: Path) -> str | None:
    """A shallow clone of the pinned commit into the user's cache, copied to dest/<dir>.
    Returns None, or why it failed."""
    if not shutil.which("git"):
        return "git not found"
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rtoslab" / "peers" / src.dir
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(cache), *args], capture_output=True, text=True,
                              env=env, timeout=600)
    try:
        have = git("rev-parse", "HEAD").stdout.strip() if (cache / ".git").exists() else ""
        if have != src.commit:
            shutil.rmtree(cache, ignore_errors=True)
            cache.mkdir(parents=True)
            for args in (("init", "-q"), ("fetch", "-q", "--depth", "1", src.upstream, src.commit),
                         ("checkout", "-q", "FETCH_HEAD")):
                p = git(*args)
                if p.returncode != 0:
                    return f"git {args[0]} failed: {(p.stderr.strip().splitlines() or ['?'])[-1]}"
            have = git("rev-parse", "HEAD").stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"git failed: {e}"
    if have != src.commit:
        return f"the clone is at {have or 'nothing'}, not {src.commit}"
    shutil.rmtree(dest / src.dir, ignore_errors=True)
    shutil.copytree(cache, dest / src.dir, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    return None


def fetch_one(src: Source, root: Path | None = None, clone: bool = True) -> Fetched:
    root = root or repo_root()
    dest = extracted_root(root)
    if is_ready(src, root):
        return Fetched(src, "ready", True)
    dest.mkdir(parents=True, exist_ok=True)
    problems = []
    for d in archive_dirs(root):
        cand = d / src.archive
        if not cand.is_file():
            continue
        digest = sha256_of(cand)
        if digest != src.sha256:
            problems.append(f"{cand}: sha256 {digest[:12]}… is not the pinned {src.sha256[:12]}…")
            continue
        try:
            _extract(cand, src, dest)
        except (OSError, tarfile.TarError, RtoslabError) as e:
            problems.append(f"{cand}: cannot extract: {e}")
            continue
        _stamp(dest, src).write_text(f"{src.commit} {src.sha256}\n")
        return Fetched(src, f"archive {cand}", True)
    if clone:
        why = _clone(src, dest)
        if why is None:
            _stamp(dest, src).write_text(f"{src.commit} {src.sha256}\n")
            return Fetched(src, f"clone of {src.upstream}", True)
        problems.append(f"clone of {src.upstream}: {why}")
    if not archive_dirs(root):
        problems.insert(0, "no archive folder (RTOSLAB_PEERS_DIR unset, no ../shared/peers)")
    return Fetched(src, "; ".join(problems) or f"{src.archive} not found", False)


def fetch_all(root: Path | None = None, only: list[str] | None = None,
              clone: bool = True) -> dict[str, list[Fetched]]:
    """Obtain the sources of every port (or of `only`); each archive once."""
    done: dict[str, Fetched] = {}
    out: dict[str, list[Fetched]] = {}
    for port in registry(root).values():
        if only and port.id not in only:
            continue
        for src in port.sources:
            if src.archive not in done:
                done[src.archive] = fetch_one(src, root, clone)
        out[port.id] = [done[s.archive] for s in port.sources]
    return out


def fetch_validation(root: Path | None = None, only: list[str] | None = None,
                     clone: bool = True) -> dict[str, list[Fetched]]:
    """Obtain the sources `rtoslab validate` needs for each CMSIS-RTOS2 implementation (or those
    of `only`; python/rtoslab/cmsis_os2.py); each archive once."""
    from . import cmsis_os2
    done: dict[str, Fetched] = {}
    out: dict[str, list[Fetched]] = {}
    for impl in cmsis_os2.registry(root).values():
        if only and impl.id not in only:
            continue
        for src in impl.sources:
            if src.archive not in done:
                done[src.archive] = fetch_one(src, root, clone)
        out[impl.id] = [done[s.archive] for s in impl.sources]
    return out
