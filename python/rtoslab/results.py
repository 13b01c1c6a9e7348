"""The result file (interfaces.md, 'Result file'): building, validating, writing atomically.

Every file is written whole: to a temporary file in the same folder, flushed, then renamed
over the target, so a reader never sees half a file and an interrupted run never destroys the
results of an earlier one.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from pathlib import Path

from . import __version__
from .errors import BadInput, RtoslabError
from .stats import STAT_KEYS, metric_stats, summarize

SCHEMA = 1


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def atomic_write(path: str | os.PathLike, data: str | bytes) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = "wb" if isinstance(data, bytes) else "w"
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o666 & ~_umask())     # mkstemp makes 0600: give the usual mode
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        # an output that cannot be written is the environment's problem: status 2 (docs/cli.md)
        raise RtoslabError(f"cannot write {path}: {e.strerror or e}", status=2) from None
    return path


def new_document(git: str | None) -> dict:
    return {"schema": SCHEMA, "tool": {"version": __version__, "git": git or "unknown"}, "runs": []}


def early_late(samples) -> dict:
    """A signed error's warm samples split by sign (timer.*_error: early and late reported
    apart, so that a few early wakes are not averaged into lateness): count and extreme."""
    early = [v for v in samples if v < 0]
    late = [v for v in samples if v > 0]
    return {"early": {"n": len(early), "max": -min(early) if early else 0},
            "late": {"n": len(late), "max": max(late) if late else 0},
            "on_time": len(samples) - len(early) - len(late)}


def result_entry(metric, clock_hz: int | None, probe_samples: list[int] | None = None) -> dict:
    """One entry of run['results'] from a protocol.Metric (complete)."""
    st = metric_stats(metric.samples, metric.cold)
    entry = {"id": metric.id, "unit": metric.unit}
    entry.update({"n": st["n"]})
    entry.update({k: st[k] for k in STAT_KEYS})
    entry["cold"] = metric.cold
    if getattr(metric, "signed", False):
        entry["signed"] = True       # an error: closer to 0 is better
        entry.update(early_late(metric.samples[metric.cold:] if len(metric.samples) > metric.cold
                                else metric.samples))
    entry["cold_stats"] = st["cold"]
    if clock_hz and metric.unit == "cycles":
        entry["time_ns"] = {k: round(st[k] * 1e9 / clock_hz, 3) for k in STAT_KEYS}
    entry["samples"] = list(metric.samples)
    if probe_samples:
        _, warm = (probe_samples[:metric.cold], probe_samples[metric.cold:]) \
            if len(probe_samples) > metric.cold else ([], probe_samples)
        pst = summarize(warm)
        entry["probe"] = {k: pst[k] for k in ("n",) + STAT_KEYS}
        entry["probe"]["samples"] = list(probe_samples)
        # what the firmware's own counter reads adds to the pulse on the probe
        entry["probe"]["overhead_p50"] = st["p50"] - pst["p50"]
    return entry


def to_json(doc: dict) -> str:
    return json.dumps(doc, indent=1, sort_keys=False) + "\n"


def write(doc: dict, path) -> Path:
    return atomic_write(path, to_json(doc))


def write_csv(doc: dict, path) -> Path:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rtos", "board", "clock_hz", "id", "unit", "n", *STAT_KEYS, "status", "reason"])
    for run in doc["runs"]:
        base = [run["rtos"], run["board"], run.get("clock_hz", "")]
        for r in run.get("results", []):
            w.writerow(base + [r["id"], r.get("unit", ""), r["n"], *[r[k] for k in STAT_KEYS], "ok", ""])
        for a in run.get("absent", []):
            w.writerow(base + [a["id"], "", "", *[""] * len(STAT_KEYS), "absent", a.get("reason", "")])
        for a in run.get("incomplete", []):
            w.writerow(base + [a["id"], "", "", *[""] * len(STAT_KEYS), "incomplete", a.get("reason", "")])
    return atomic_write(path, buf.getvalue())


def validate(doc, path="<doc>") -> dict:
    """The result file's schema (schema.py: types and ranges), then the optional lists and
    objects filled in, so that every reader meets the same shape."""
    from . import schema
    schema.check(doc, "result", f"{path}: not a valid rtoslab result file")
    for run in doc["runs"]:
        for key in ("results", "checks", "absent", "incomplete"):
            run.setdefault(key, [])
        run.setdefault("size", {})
        run.setdefault("config", {})
    return doc


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a result file may hold")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range for a number")
    return value


def parse(text: str, path) -> dict:
    """Strict JSON: NaN, Infinity and numbers beyond a float's range refused, and nesting too
    deep for the parser (a hostile file) one line like any other malformed file."""
    try:
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: not JSON (line {e.lineno}: {e.msg})") from None
    except ValueError as e:
        raise BadInput(f"{path}: not a valid rtoslab result file: {e}") from None
    except RecursionError:
        raise BadInput(f"{path}: not a valid rtoslab result file: nested too deep") from None
    return validate(doc, path)


def load(path) -> dict:
    p = Path(path)
    try:
        if p.is_dir():
            raise BadInput(f"{path}: is a folder, not a result file")
        if not p.exists():
            raise BadInput(f"{path}: no such file")
        if not p.is_file():
            raise BadInput(f"{path}: not a regular file")
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    return parse(text, path)


def run_key(run: dict) -> str:
    return f"{run['rtos']}@{run['board']}"
