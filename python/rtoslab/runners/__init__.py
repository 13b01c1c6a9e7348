"""The runners: one module per `[runner] kind` of the board registry (vp: the simulator, qemu,
host: a Linux program, serial: a real board). Each has `run(...)`, which starts an image and
streams its console, and `execute(job)`, what `rtoslab run` and `check` call for one image:
the command picks the module by the board's runner kind (get) and knows none of them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import BadInput


@dataclass
class Job:
    """One image to run for the run command: where, with which options, and what to tell."""
    root: Path
    opts: Any                       # run.Options
    rtos: str
    image: Path
    parser: Any                     # protocol.Parser fed with every console line
    on_line: Callable[[str], None]  # the console's lines (feeds the parser, shows progress)
    stage: Callable[[str], None]    # a progress line
    tmp: Path                       # the run's scratch folder

    @property
    def label(self) -> str:
        return f"{self.rtos}@{self.opts.board.id}"


def get(kind: str):
    """The runner module of a board's runner kind."""
    from . import host, qemu, serial, vp
    modules = {"vp": vp, "qemu": qemu, "host": host, "serial": serial}
    try:
        return modules[kind]
    except KeyError:
        raise BadInput(f"no runner '{kind}' (known: {', '.join(modules)})") from None
