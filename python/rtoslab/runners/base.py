"""What every runner returns, and the streaming subprocess helper they share."""
from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import RtoslabError

LineSink = Callable[[str], None]


@dataclass
class Outcome:
    status: int | None            # process exit status (None: killed by us)
    kind: str                     # "exit", "fault", "lockup", "cycle-limit", "timeout", "crash", "bad-input"
    message: str = ""             # one line: what went wrong, if anything
    stderr: str = ""
    trace: Path | None = None
    elapsed_s: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.kind == "exit" and self.status == 0


def stream(cmd: list[str], on_line: LineSink, timeout: float | None, cwd=None, env=None,
           merge_stderr: bool = False) -> tuple[int | None, str, bool, float]:
    """Run cmd, give every stdout line to on_line as it arrives.

    Returns (status, stderr text, timed_out, seconds). Ctrl-C kills the child, hands on the
    lines it had already written (nothing measured is lost), and propagates."""
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE, cwd=cwd, env=env, text=True,
                             errors="replace", bufsize=1)
    except OSError as e:
        raise RtoslabError(f"cannot run {cmd[0]}: {e.strerror or e}") from None
    err_chunks: list[str] = []
    timed_out = threading.Event()

    def read_err():
        for chunk in p.stderr:
            if sum(len(c) for c in err_chunks) < 1_000_000:
                err_chunks.append(chunk)

    te = threading.Thread(target=read_err, daemon=True)
    if not merge_stderr:
        te.start()
    timer = None
    if timeout:
        def kill():
            timed_out.set()
            try:
                p.kill()
            except OSError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.daemon = True
        timer.start()
    try:
        for line in p.stdout:
            on_line(line.rstrip("\n"))
        status = p.wait()
    except BaseException:
        try:
            p.kill()
        except OSError:
            pass
        p.wait()
        for line in p.stdout:                # what the child wrote before it was killed
            on_line(line.rstrip("\n"))
        raise
    finally:
        if timer:
            timer.cancel()
    if not merge_stderr:
        te.join(timeout=2)
    return (None if timed_out.is_set() else status), "".join(err_chunks), timed_out.is_set(), time.monotonic() - t0


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""
