"""Report sections that belong to one port (port.toml `report`: a Python file of the port's
folder), such as the jobbed port's seed-004 table: the report calls each with the runs of a
result file and shows what it returns, so no RTOS-specific analysis lives in the command.

A section module defines `section(runs) -> dict | None` (None: nothing to show for these
runs) returning id, title, note, first_headers, headers, rows (each: row, metric, cells),
timing (pairs of column and how it was timed) and caveat, and `markdown(section) -> str`.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from types import ModuleType

from . import ports
from .errors import BadInput


@lru_cache(maxsize=None)
def module(rtos: str) -> ModuleType:
    port = ports.get(rtos)
    path = port.directory / port.report
    spec = importlib.util.spec_from_file_location(f"rtoslab_port_section_{rtos.replace('-', '_')}", path)
    if spec is None or spec.loader is None:
        raise BadInput(f"{path}: not a Python file")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # a broken section disables that section, with its reason
        raise BadInput(f"{path}: {type(e).__name__}: {e}") from None
    if not callable(getattr(mod, "section", None)) or not callable(getattr(mod, "markdown", None)):
        raise BadInput(f"{path}: defines no section(runs) and markdown(section)")
    return mod


def sections(runs: list[dict], note=None) -> list[dict]:
    """Every port section that has something to show for `runs`, in registry order; each
    dict gains `markdown` (its table as Markdown)."""
    out = []
    for port in ports.registry().values():
        if not port.report:
            continue
        try:
            mod = module(port.id)
            sec = mod.section(runs)
            if sec:
                out.append({**sec, "markdown": mod.markdown(sec)})
        except BadInput as e:
            if note:
                note(str(e))
    return out
