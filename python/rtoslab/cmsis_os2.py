"""The CMSIS-RTOS2 implementations `rtoslab validate` knows (docs/cmsis-rtos2.md).

Each is declared once: the [cmsis_os2] table of a port's manifest (bench/ports/<id>/port.toml),
or, for an RTOS whose port is not in the tree, bench/validation/<id>/cmsis_os2.toml (its `id`,
`name`, `arch` and the same table). Beside the declaration, cmsis_os2.cmake defines the library
cmsis_os2_<id> that the validation image rv2-<id> links (bench/validation/CMakeLists.txt).

The table: `implementation` (one line: what implements the API), `config` (the validation
suite's configuration folder in its archive: its RV2_Config.h says which cases run),
`disabled` ({case: why}: the cases that do not run, each with its reason) and `source` (the
pinned archives the validation needs, extracted at set-up like the ports' own).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import BadInput
from .manifest import repo_root
from .ports import _SOURCE_FIELDS, Source, registry as port_registry


@dataclass(frozen=True)
class Implementation:
    id: str               # the RTOS id (a port's, or the declaration's)
    name: str             # display name
    arch: str             # the board architectures it builds for: "armv6m armv7m"
    implementation: str   # one line: what implements CMSIS-RTOS2
    config: str           # the suite's configuration folder, relative to its archive's top
    disabled: tuple[tuple[str, str], ...]  # (case, reason): the cases that do not run
    sources: tuple[Source, ...]
    folder: Path          # where the declaration and cmsis_os2.cmake are

    def runs_on(self, board_arch: str) -> bool:
        return board_arch.replace("-", "") in self.arch.replace("-", "").split()

    def reason(self, case: str) -> str | None:
        return dict(self.disabled).get(case)


def _make(rtos: str, name: str, arch: str, table: dict, folder: Path) -> Implementation:
    sources = tuple(Source(**{k: s[k] for k in _SOURCE_FIELDS}) for s in table.get("source", []))
    return Implementation(rtos, name, arch, table["implementation"], table["config"],
                          tuple(table.get("disabled", {}).items()), sources, folder)


def _load_declaration(path: Path) -> Implementation:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"{path}: not a valid CMSIS-RTOS2 declaration: {e}") from None
    from . import schema
    schema.check(data, "cmsis_os2", f"{path}: not a valid CMSIS-RTOS2 declaration")
    if data["id"] != path.parent.name:
        raise BadInput(f"{path}: id '{data['id']}' is not its directory's name")
    return _make(data["id"], data["name"], data["arch"], data["cmsis_os2"], path.parent)


@lru_cache(maxsize=4)
def registry(root: Path | None = None) -> dict[str, Implementation]:
    """Every CMSIS-RTOS2 implementation, in the ports' table order, then the declarations of
    bench/validation (an RTOS a port declares is taken from its port)."""
    root = root or repo_root()
    out: dict[str, Implementation] = {}
    for port in port_registry(root).values():
        try:
            data = tomllib.loads((port.directory / "port.toml").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # (the port registry has loaded it: it is readable)
        if "cmsis_os2" in data:
            out[port.id] = _make(port.id, port.name, port.arch, data["cmsis_os2"], port.directory)
    for path in sorted((root / "bench" / "validation").glob("*/cmsis_os2.toml")):
        impl = _load_declaration(path)
        out.setdefault(impl.id, impl)
    return out


def get(rtos: str, root: Path | None = None) -> Implementation:
    impls = registry(root)
    if rtos in impls:
        return impls[rtos]
    from .boards import did_you_mean
    raise BadInput(f"'{rtos}' has no CMSIS-RTOS2 implementation declared (those that do: "
                   f"{', '.join(impls)}){did_you_mean(rtos, impls)}")


def all_sources(root: Path | None = None) -> list[Source]:
    """The archives the validation needs, each once (for `rtoslab peers --fetch`)."""
    seen: dict[str, Source] = {}
    for impl in registry(root).values():
        for s in impl.sources:
            seen.setdefault(s.archive, s)
    return list(seen.values())
