"""The host runner: the posix benchmark as a Linux program (SCHED_FIFO where allowed)."""
from __future__ import annotations

import os
from pathlib import Path

from ..errors import RtoslabError
from .base import Outcome, last_line, stream


def run(image: Path, on_line, *, timeout: float | None = 600) -> Outcome:
    if not (image.is_file() and os.access(image, os.X_OK)):
        raise RtoslabError(f"{image}: not an executable", status=2)
    status, err, timed_out, secs = stream([str(image)], on_line, timeout)
    if timed_out:
        return Outcome(None, "timeout", "the host benchmark did not finish in time", err, None, secs)
    if status is not None and status < 0:
        return Outcome(status, "fault", f"killed by signal {-status}", err, None, secs)
    return Outcome(status, "exit", last_line(err) if status else "", err, None, secs)


def execute(job) -> tuple[Outcome, dict]:
    """One image of `rtoslab run`/`check` (runners/__init__.py): the host program."""
    return run(job.image, job.on_line, timeout=job.opts.timeout), {}
