"""`--dask tcp://HOST:PORT`: the cells of a run on a Dask distributed cluster (the `distributed`
package, the optional extra `cluster`; make setup installs it). Dask schedules; rtoslab only
submits one task per cell and takes the answers back in the command's order.

Here (the machine that runs `rtoslab run`): each image is built as always (build.py), its
bytes sent with its task (so the workers need no build tree and no compiler), and the run
entry assembled from what comes back (run.finished_run: the same parser, the same facts read
from the local image), so the result file is the one `--jobs` or a plain run writes.

On a worker (run_on_worker): the image written to a scratch folder, run by the simulator
runner (runners/vp.py: the console, the probe's edges, the masked sections, the latency model
or the glue when asked), the console's lines, the outcome and the probe's samples returned.
A worker needs this rtoslab (the same checkout or package, for the runner and the board
registry) and its simulator: `rtoslab-vp` of its checkout (make setup builds it), else
$RTOSLAB_VP, else `rtoslab-vp` on its PATH (runners.vp.find_vp). It never builds one.
Simulator boards only (the runner `vp`): QEMU, the host and real boards stay local.
"""
from __future__ import annotations

import re
import socket
import uuid
from dataclasses import replace
from pathlib import Path

from .errors import BadInput, RtoslabError

CONNECT_TIMEOUT_S = 20
ADDRESS = re.compile(r"^(tcp|tls|ucx|inproc|ws|wss)://\S+$")
NOT_INSTALLED = ("--dask needs the `distributed` package: make setup installs it "
                 "(or .venv/bin/pip install -e 'python[cluster]')")


def check_address(address: str) -> None:
    if not ADDRESS.match(address):
        raise BadInput(f"--dask {address}: expected a scheduler address such as tcp://HOST:8786")


def connect(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise RtoslabError(NOT_INSTALLED, status=4) from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise RtoslabError(f"--dask {address}: cannot reach the scheduler ({e or type(e).__name__})",
                           status=4) from None


def run_on_worker(data: bytes, name: str, rtos: str, opts) -> dict:
    """One cell's simulator run, on a Dask worker: {"lines", "outcome", "probe", "worker"}, or
    {"error", "status"} for what the runner refuses (no simulator, a bad image)."""
    from . import runners, scratch
    from .manifest import repo_root
    from .protocol import Parser
    tmp = scratch.make()
    try:
        image = tmp / name
        image.write_bytes(data)
        parser, lines = Parser(), []

        def on_line(line: str) -> None:
            lines.append(line)
            parser.feed(line)

        job = runners.Job(repo_root(), replace(opts, build=False, images={}), rtos, image, parser, on_line,
                          lambda _text: None, tmp)
        try:
            outcome, probe = runners.get("vp").execute(job)
        except RtoslabError as e:
            return {"error": f"on the Dask worker {socket.gethostname()}: {e}", "status": e.status}
        outcome.trace = None            # a path of the worker's, gone with its scratch folder
        return {"lines": lines, "outcome": outcome, "probe": probe, "worker": socket.gethostname()}
    finally:
        scratch.remove(tmp)


def results(root: Path, opts, disp, tmp: Path):
    """(rtos, run, failure, in_build) of every cell of opts, in opts.rtos's order."""
    from . import build as buildmod
    from .protocol import Parser
    from .run import RunInterrupted, build_failed, build_image, finished_run
    client = connect(opts.dask)
    disp.stage(f"{len(opts.rtos)} cells on the Dask cluster at {opts.dask}")
    tasks: dict[str, tuple] = {}        # rtos -> (its options, image, future) or (options, BuildError)
    try:
        for rtos in opts.rtos:          # each task submitted as soon as its image is built
            o = opts.for_rtos(rtos)
            try:
                image = build_image(root, o, rtos, disp)
            except buildmod.BuildError as e:
                if len(opts.rtos) == 1:
                    raise
                tasks[rtos] = (o, e)
                continue
            fut = client.submit(run_on_worker, image.read_bytes(), image.name, rtos, o,
                                key=f"rtoslab-{rtos}@{o.board.id}-{uuid.uuid4().hex[:8]}", pure=False)
            tasks[rtos] = (o, image, fut)
        for rtos in opts.rtos:
            o, *rest = tasks[rtos]
            if isinstance(rest[0], buildmod.BuildError):
                yield (rtos, *build_failed(root, o, rtos, rest[0]))
                continue
            image, fut = rest
            try:
                got = fut.result()
            except KeyboardInterrupt:
                raise RunInterrupted([]) from None
            if "error" in got:
                raise RtoslabError(got["error"], status=got["status"])
            parser = Parser()
            for line in got["lines"]:
                parser.feed(line)
            yield (rtos, *finished_run(root, o, rtos, image, parser, got["outcome"], got["probe"]))
    finally:
        for entry in tasks.values():
            if len(entry) == 3:
                entry[2].cancel()
        client.close()
