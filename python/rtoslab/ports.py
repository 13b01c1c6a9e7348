"""The port registry: one directory per RTOS, `bench/ports/<id>/port.toml`.

Everything that lists RTOS ids (the `--rtos` choices, `--rtos all`, the build, the report's
order and names, the docs) reads this registry; adding an RTOS is adding one directory.
The manifest's fields are documented in docs/porting.md ("The manifest").
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import BadInput
from .manifest import repo_root

KINDS = ("firmware", "host")
_SOURCE_FIELDS = ("archive", "dir", "upstream", "ref", "commit", "sha256")


@dataclass(frozen=True)
class Source:
    """One pinned upstream tree: a `git archive` of `commit` named `archive` (sha256), whose
    single top directory is `dir`."""
    archive: str
    dir: str
    upstream: str
    ref: str
    commit: str
    sha256: str


@dataclass(frozen=True)
class Port:
    id: str
    name: str             # display name: "ChibiOS/RT"
    version: str
    kind: str             # firmware: bench-<id>.elf per board; host: its own CMake project
    licence: str
    summary: str          # one line: what it is
    configuration: str    # one line: how it is configured for the suite
    directory: Path
    order: int = 100      # position in tables and reports
    default: bool = False  # in the default `rtoslab run` set
    origin: str = ""      # where sources not in `sources` come from (FreeRTOS: its crate)
    sources: tuple[Source, ...] = ()
    arch: str = "armv6m"  # the boards it builds for, space-separated (manifest `arch`;
    #                       bench/CMakeLists.txt): "armv6m armv7m"
    werror: bool = False  # its glue builds without a warning: -Werror (bench/CMakeLists.txt)
    thread_structs: tuple[str, ...] = ()  # its per-thread RAM structure (size.py), first found
    report: str = ""      # a Python file of the folder adding a report section (report.py)
    glue_is_kernel: bool = False  # its folder holds the kernel itself (`rtoslab size`'s components)
    # its glue outside its folder (manifest `glue_paths`: folders ending in / or files, from the
    # checkout's root), attributed as glue by `run --glue` (glue.py)
    glue_paths: tuple[str, ...] = ()
    ranked: bool = True   # false: a configuration shown for information, never ranked (standing.py)
    # files built with other flags than the rest, and why: {path suffix: reason} (manifest
    # `flag_exceptions`; the result file records each one's flags, manifest.flag_exceptions)
    flag_exceptions: tuple[tuple[str, str], ...] = ()
    # its idle's energy saving (manifest `[idle]`): sleep ("wfi" or "none"), tickless, deep_sleep, note
    idle: tuple[tuple[str, object], ...] = ()
    # the least RAM of a board it fits (manifest `ram_kib_min`; 0: any) and the measured reason
    # (`ram_why`): on a smaller board it is not built, and `--rtos all` skips it with that line
    ram_kib_min: int = 0
    ram_why: str = ""

    def runs_on(self, board_arch: str) -> bool:
        """Whether the port builds for a board of this architecture ("armv6-m", "armv7-m",
        "armv7-a", "host"): a host port on the host, a firmware port on boards of one of its
        `arch`."""
        if self.kind == "host" or board_arch == "host":
            return self.kind == "host" and board_arch == "host"
        return board_arch.replace("-", "") in self.arch.replace("-", "").split()

    def too_big_for(self, board_ram_kib: int) -> str:
        """Why the port does not fit a board with this much RAM (KiB), or "" when it does."""
        if self.kind != "firmware" or board_ram_kib >= self.ram_kib_min:
            return ""
        return f"needs {self.ram_kib_min} KiB of RAM, the board has {board_ram_kib}: {self.ram_why}"

    def pin(self) -> str:
        """What a result file records of the sources: upstream@commit for each pin."""
        if self.sources:
            return ", ".join(f"{s.upstream}@{s.commit}" for s in self.sources)
        return self.origin or "this repository"


def _load(path: Path) -> Port:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"{path}: not a valid port manifest: {e}") from None
    from . import schema
    schema.check(data, "port", f"{path}: not a valid port manifest")
    if data["id"] != path.parent.name:
        raise BadInput(f"{path}: id '{data['id']}' is not its directory's name")
    sources = [Source(**{k: s[k] for k in _SOURCE_FIELDS}) for s in data.get("source", [])]
    if data.get("ram_kib_min") and not data.get("ram_why"):
        raise BadInput(f"{path}: ram_kib_min without ram_why (the measured reason)")
    report = data.get("report", "")
    if report and not (path.parent / report).is_file():
        raise BadInput(f"{path}: report file {report} is not in the port's folder")
    return Port(id=data["id"], name=data["name"], version=data["version"], kind=data["kind"],
                licence=data["licence"], summary=data["summary"],
                configuration=data["configuration"], directory=path.parent,
                order=data.get("order", 100), default=data.get("default", False),
                origin=data.get("origin", ""), sources=tuple(sources),
                arch=data.get("arch", "armv6m"), werror=data.get("werror", False),
                thread_structs=tuple(data.get("thread_structs", [])), report=report,
                glue_is_kernel=data.get("glue_is_kernel", False),
                glue_paths=tuple(data.get("glue_paths", [])), ranked=data.get("ranked", True),
                flag_exceptions=tuple(data.get("flag_exceptions", {}).items()),
                idle=tuple(data.get("idle", {}).items()),
                ram_kib_min=data.get("ram_kib_min", 0), ram_why=data.get("ram_why", ""))


@lru_cache(maxsize=4)
def _scan(root: Path | None = None) -> tuple[dict[str, Port], dict[str, str]]:
    """Every port of bench/ports/ that loads, in table order, and the reason for each that
    does not (a broken manifest disables its port, not every command)."""
    base = (root or repo_root()) / "bench" / "ports"
    good, bad = [], {}
    for p in sorted(base.glob("*/port.toml")):
        try:
            good.append(_load(p))
        except BadInput as e:
            bad[p.parent.name] = str(e)
    return {p.id: p for p in sorted(good, key=lambda p: (p.order, p.id))}, bad


def registry(root: Path | None = None) -> dict[str, Port]:
    """Every port of bench/ports/ that loads, in table order."""
    return _scan(root)[0]


def broken(root: Path | None = None) -> dict[str, str]:
    """Port id -> why its manifest does not load."""
    return _scan(root)[1]


def ids() -> tuple[str, ...]:
    return tuple(registry())


def get(rtos: str) -> Port:
    try:
        return registry()[rtos]
    except KeyError:
        pass
    if rtos in broken():
        raise BadInput(f"RTOS '{rtos}' is disabled: {broken()[rtos]}") from None
    from .boards import did_you_mean
    raise BadInput(f"unknown RTOS id '{rtos}' (known: {', '.join(ids())}){did_you_mean(rtos, ids())}") from None
def display_name(rtos: str) -> str:
    port = registry().get(rtos)
    return port.name if port else rtos
