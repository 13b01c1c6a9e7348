"""A run's temporary folder (event traces, instruction traces): one per process, locked while
the process lives, so that the next run can tell a folder whose run was killed (SIGKILL, a
power cut: nothing of it could clean up) from one whose run is still going, and remove it."""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from pathlib import Path

PREFIX = "rtoslab-run-"
LOCK = ".owner.lock"
_held: dict[Path, int] = {}      # folder -> the open, locked file descriptor of its lock


def sweep(base: Path | None = None, prefix: str = PREFIX) -> None:
    """Remove the folders of runs that are gone: their lock is free. A folder without a lock
    (being created, or of an older rtoslab) is left alone unless a day old."""
    base = Path(base or tempfile.gettempdir())
    try:
        folders = [d for d in base.iterdir() if d.name.startswith(prefix) and d.is_dir() and d not in _held]
    except OSError:
        return
    for d in folders:
        try:
            fd = os.open(d / LOCK, os.O_RDONLY)
        except FileNotFoundError:
            try:
                if time.time() - d.stat().st_mtime > 86400:
                    shutil.rmtree(d, ignore_errors=True)
            except OSError:
                pass
            continue
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue                      # its run is alive
        finally:
            os.close(fd)                  # (closing releases a lock we took)
        shutil.rmtree(d, ignore_errors=True)


def make(prefix: str = PREFIX) -> Path:
    """A new temporary folder of this process, locked; stale ones of killed runs removed first."""
    sweep(prefix=prefix)
    d = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        # locked under another name, then renamed: a sweeper never sees an unlocked LOCK
        fd = os.open(d / (LOCK + ".new"), os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(d / (LOCK + ".new"), d / LOCK)
        _held[d] = fd
    except OSError:
        pass                              # a full disk: the folder works, unlocked
    return d


def remove(d: Path) -> None:
    shutil.rmtree(d, ignore_errors=True)
    fd = _held.pop(d, None)
    if fd is not None:
        os.close(fd)
