"""`--jobs N`: the cells of a run (an RTOS on a board, one profile) built and run N at a time,
in a pool of worker processes (concurrent.futures), each cell whole in one worker: build ->
run -> parse -> assemble (run.run_one). The simulator is deterministic, so the runs are those
of `--jobs 1`; the parent takes them in the command's order (a cell finished early waits for
the ones before it), so the result file and the lines on stderr come in that order too.

Builds do not race: a build folder is locked while cmake or ninja work in it (build.locked),
so two cells of one board and profile take turns, and each ninja runs its own -j.

Ctrl-C (or SIGTERM): the workers ignore SIGINT; the parent tells each busy one, by SIGTERM,
to stop its cell, which it hands back as an interrupted run (what it parsed is kept); runs
already finished are kept as they are.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor, wait
from pathlib import Path

from rich.console import Console

from .errors import BadInput, RtoslabError

# Runners whose figures do not depend on what else the machine does: the simulator, QEMU under
# -icount. The host's port measures the host's own time and a real board is one board: their
# cells never run beside others (serial_reason).
UNDISTURBED_RUNNERS = ("vp", "qemu")
INTERRUPT_WAIT_S = 60      # how long a stopped worker may take to hand back its partial run
_busy = False              # in a worker: running a cell (SIGTERM stops it then, else is ignored)


def default_jobs() -> int:
    """--jobs when not given: $RTOSLAB_JOBS, else the cores this process may use."""
    env = os.environ.get("RTOSLAB_JOBS", "").strip()
    if env:
        if not env.isdigit() or int(env) < 1:
            raise BadInput(f"RTOSLAB_JOBS={env}: a whole number of cells at a time, at least 1")
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def serial_reason(opts) -> str:
    """Why this run's cells must run one at a time whatever --jobs says ("" if they need not)."""
    for r in opts.rtos:
        b = opts.board_for(r)
        if b.runner not in UNDISTURBED_RUNNERS:
            what = "measures the host's own time" if b.runner == "host" else "runs on the one board attached"
            return f"{r}@{b.id} {what}, which cells beside it would disturb: one cell at a time"
    return ""


def _stop_cell(signum, frame):
    global _busy
    if _busy:
        _busy = False          # once per cell: a second signal must not cut the partial run short
        raise KeyboardInterrupt


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the parent decides (above)
    signal.signal(signal.SIGTERM, _stop_cell)


def _cell(root: Path, opts, rtos: str, tmp: Path):
    """One cell in a worker: ("done", run, failure, in_build), ("interrupted", [run]) or
    ("error", message, status) (an exception's status does not survive pickling)."""
    global _busy
    from .run import Display, RunInterrupted, run_one
    _busy = True
    try:
        disp = Display(Console(stderr=True), quiet=True)
        return ("done", *run_one(root, opts, rtos, disp, tmp))
    except RunInterrupted as stop:
        return ("interrupted", stop.runs)
    except RtoslabError as e:
        return ("error", str(e), e.status)
    finally:
        _busy = False


def results(root: Path, opts, disp, tmp: Path):
    """(rtos, run, failure, in_build) of every cell of opts, in opts.rtos's order."""
    from .run import RunInterrupted
    from .runners import vp
    cells = list(opts.rtos)
    if any(opts.board_for(r).runner == "vp" for r in cells):
        vp.find_vp(root, build=opts.build, note=disp.stage)     # build the simulator once, here
    workers = min(opts.jobs, len(cells))
    disp.stage(f"{len(cells)} cells, {workers} at a time (--jobs {opts.jobs})")
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init)
    futures = [pool.submit(_cell, root, opts.for_rtos(r), r, tmp) for r in cells]
    stopped = False
    try:
        for i, (rtos, fut) in enumerate(zip(cells, futures)):
            try:
                got = fut.result()
            except KeyboardInterrupt:
                stopped = True
                raise RunInterrupted(_stop(futures[i:])) from None
            if got[0] == "error":
                raise RtoslabError(got[1], status=got[2])
            if got[0] == "interrupted":           # a worker stopped from outside (SIGTERM)
                stopped = True
                raise RunInterrupted(got[1] + _stop(futures[i + 1:]))
            yield (rtos, *got[1:])
        stopped = True
    finally:
        if not stopped:                           # an error, or the consumer gave up
            _stop(futures)
        pool.shutdown(wait=True, cancel_futures=True)


def _stop(futures) -> list[dict]:
    """Stop the cells still running; their runs (interrupted, or finished meanwhile) in order."""
    for f in futures:
        f.cancel()
    live = [f for f in futures if not f.cancelled()]
    deadline = time.monotonic() + INTERRUPT_WAIT_S
    while time.monotonic() < deadline and not all(f.done() for f in live):
        # again each second: a worker may have taken a queued cell after the first signal
        for p in multiprocessing.active_children():
            try:
                os.kill(p.pid, signal.SIGTERM)
            except OSError:
                pass
        wait(live, timeout=1)
    runs = []
    for f in live:
        if not f.done():
            continue
        try:
            got = f.result()
        except BaseException:             # noqa: B036 (a worker that died: nothing of it to keep)
            continue
        if got[0] == "done":
            runs.append(got[1])
        elif got[0] == "interrupted":
            runs += got[1]
    return runs
