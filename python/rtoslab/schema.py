"""The one validation layer for what rtoslab reads: result files and port manifests.

Types and ranges are stated as JSON Schemas (checked by `jsonschema`), so that every command
meets a document whose shape is known: a malformed input is one line and status 2 (BadInput),
never an exception deep inside a report. The sample arrays, which can hold millions of numbers,
are checked by one keyword of our own (`rtoslab_samples`) in a plain loop rather than item by
item through the schema machinery.
"""
from __future__ import annotations

import math
from functools import lru_cache

from jsonschema import Draft202012Validator, ValidationError, validators

from .errors import BadInput

I64 = 2 ** 63                 # counters and statistics: 64-bit signed at most
NUMBER = {"type": "number", "minimum": -I64, "maximum": I64 - 1}
COUNT = {"type": "integer", "minimum": 0, "maximum": I64 - 1}
STAT_KEYS = ("min", "p50", "mean", "p99", "max", "stdev")
STATS = {k: NUMBER for k in STAT_KEYS}
TEXT = {"type": "string"}
TEXT_OR_NULL = {"type": ["string", "null"]}
ID_REASON = {"type": "object", "required": ["id"], "properties": {"id": TEXT, "reason": TEXT}}
LATENCY_PHASES = ("pending", "core_entry", "prologue", "isr_signal", "epilogue_exit", "switch")

RESULT = {
    "type": "object",
    "required": ["id", *STAT_KEYS],
    "properties": {
        "id": TEXT, "unit": TEXT, "n": COUNT, "cold": COUNT, "signed": {"type": "boolean"}, **STATS,
        "cold_stats": {"type": ["object", "null"], "properties": {"n": COUNT, **STATS}},
        "time_ns": {"type": "object", "additionalProperties": NUMBER},
        "probe": {"type": "object", "required": ["p50"],
                  "properties": {"n": COUNT, **STATS, "overhead_p50": NUMBER}},
    },
    "rtoslab_samples": True,
}

LATENCY_MODEL = {
    "type": "object",
    "properties": {"absent": TEXT, "error": TEXT, "median": {"type": "object", "additionalProperties": NUMBER},
                   "deterministic": {"type": "object", "required": list(LATENCY_PHASES),
                                     "additionalProperties": NUMBER},
                   "jitter": NUMBER, "total_min": NUMBER, "total_max": NUMBER},
    "dependentRequired": {"deterministic": ["median", "jitter", "total_min", "total_max"]},
}

# The port glue's cycles of each hot path (rtoslab run --glue, python/rtoslab/glue.py): per
# metric the median over its traced warm samples of each owner's cycles, or why there is none.
GLUE_METRIC = {
    "type": "object",
    "properties": {"absent": TEXT, "error": TEXT, "suite": COUNT, "glue": COUNT, "rtos": COUNT, "core": COUNT,
                   "total": COUNT, "traced": COUNT},
    "dependentRequired": {"glue": ["suite", "rtos", "core", "total", "traced"]},
}
GLUE = {"type": "object", "properties": {"error": TEXT}, "additionalProperties": GLUE_METRIC}

RUN = {
    "type": "object",
    "required": ["rtos", "board"],
    "properties": {
        "rtos": TEXT, "board": TEXT, "rtos_version": TEXT_OR_NULL, "toolchain": TEXT_OR_NULL,
        "status": TEXT, "error": TEXT,
        "clock_hz": {"type": ["integer", "null"], "minimum": 1, "maximum": I64 - 1},
        "config": {"type": "object"}, "manifest": {"type": "object"},
        "results": {"type": "array", "items": RESULT},
        "absent": {"type": "array", "items": ID_REASON},
        "incomplete": {"type": "array", "items": ID_REASON},
        "checks": {"type": "array", "items": {"type": "object", "required": ["id", "passed"],
                                              "properties": {"id": TEXT, "passed": {"type": "boolean"},
                                                             "detail": TEXT}}},
        "size": {"type": "object", "additionalProperties": COUNT},
        "latency_model": LATENCY_MODEL,
        "glue": GLUE,
    },
}

RESULT_FILE = {
    "type": "object",
    "required": ["schema", "runs"],
    "properties": {
        "schema": {"const": 1},
        "tool": {"type": "object", "properties": {"version": TEXT, "git": TEXT}},
        "run_id": TEXT, "created": TEXT, "command": TEXT, "interrupted": {"type": "boolean"},
        # a share of the command's cells (shard.py), and the files a merge joined (merge.py)
        "shard": {"type": "object", "required": ["index", "count", "matrix"],
                  "properties": {"index": COUNT, "count": COUNT, "matrix": {"type": "array", "items": TEXT}}},
        "merged_from": {"type": "array", "items": TEXT},
        "runs": {"type": "array", "items": RUN},
    },
}

NAME = {"type": "string", "minLength": 1}
SOURCES = {"type": "array", "items": {
    "type": "object", "required": ["archive", "dir", "upstream", "ref", "commit", "sha256"],
    "properties": {k: NAME for k in ("archive", "dir", "upstream", "ref", "commit", "sha256")}}}
# A CMSIS-RTOS2 implementation (python/rtoslab/cmsis_os2.py, docs/cmsis-rtos2.md): the
# [cmsis_os2] table of a port manifest or of bench/validation/<id>/cmsis_os2.toml.
CMSIS_OS2 = {
    "type": "object",
    "required": ["implementation", "config"],
    "properties": {
        "implementation": NAME, "config": NAME,
        "disabled": {"type": "object", "propertyNames": {"pattern": "^TC_[A-Za-z0-9_]+$"},
                     "additionalProperties": NAME},
        "source": SOURCES,
    },
    "additionalProperties": False,
}
CMSIS_OS2_DECLARATION = {
    "type": "object",
    "required": ["id", "name", "arch", "cmsis_os2"],
    "properties": {"id": NAME, "name": NAME, "arch": NAME, "cmsis_os2": CMSIS_OS2},
    "additionalProperties": False,
}
PORT_MANIFEST = {
    "type": "object",
    "required": ["id", "name", "version", "kind", "licence", "summary", "configuration"],
    "properties": {
        "id": NAME, "name": NAME, "version": NAME, "kind": {"enum": ["firmware", "host"]}, "licence": NAME,
        "summary": NAME, "configuration": NAME,
        "order": {"type": "integer", "minimum": -(2 ** 31), "maximum": 2 ** 31 - 1},
        "default": {"type": "boolean"}, "werror": {"type": "boolean"}, "glue_is_kernel": {"type": "boolean"},
        "ranked": {"type": "boolean"},
        "origin": TEXT, "arch": TEXT, "report": TEXT,
        "thread_structs": {"type": "array", "items": NAME},
        "glue_paths": {"type": "array", "items": NAME},
        "ram_kib_min": {"type": "integer", "minimum": 0, "maximum": 2 ** 31 - 1}, "ram_why": NAME,
        # how its idle saves energy (docs/methodology.md, "Energy"): the sleep it enters, whether
        # it keeps a periodic tick, whether it uses the board's deep sleep (SLEEPDEEP: Stop)
        "idle": {"type": "object", "required": ["sleep", "tickless", "deep_sleep"], "additionalProperties": False,
                 "properties": {"sleep": {"enum": ["wfi", "none"]}, "tickless": {"type": "boolean"},
                                "deep_sleep": {"type": "boolean"}, "note": TEXT}},
        "flag_exceptions": {"type": "object", "additionalProperties": NAME},
        "source": SOURCES,
        "cmsis_os2": CMSIS_OS2,
    },
}


def sample_low(entry: dict) -> int:
    """The smallest sample a result may hold: a counter that is not signed (cycles, unless the
    result says it is signed) is never negative."""
    return -I64 if entry.get("signed") is True or entry.get("unit") not in (None, "cycles") else 0


def sample_problem(v, low: int) -> str | None:
    """What is wrong with one sample value (None: nothing): a number within 64 bits, at least `low`."""
    if type(v) is int:
        if low <= v < I64:
            return None
    elif type(v) is float and math.isfinite(v) and low <= v < I64:
        return None
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return "not a number"
    return "negative (the counter is not signed)" if v < low and low == 0 else "out of range (64 bits)"


def _samples(validator, enabled, entry, schema):
    """A result's samples (and its probe's): a non-empty list of numbers within 64 bits; a
    counter that is not signed (an error) is never negative. Empty: its statistics could not
    be checked against anything."""
    if not enabled or not isinstance(entry, dict):
        return
    low = sample_low(entry)
    for where, holder in (("samples", entry), ("probe.samples", entry.get("probe"))):
        if not isinstance(holder, dict) or "samples" not in holder:
            continue
        samples = holder["samples"]
        if not isinstance(samples, list):
            yield ValidationError(f"'{where}' must be a list of numbers")
            continue
        if not samples and where == "samples":
            yield ValidationError(f"'{where}' is empty: the statistics cannot be checked against it")
            continue
        for i, v in enumerate(samples):
            problem = sample_problem(v, low)
            if problem:
                yield ValidationError(f"'{where}'[{i}] is {problem}")
                break


_Validator = validators.extend(Draft202012Validator, {"rtoslab_samples": _samples})


@lru_cache(maxsize=None)
def _validator(name: str):
    return _Validator({"result": RESULT_FILE, "port": PORT_MANIFEST,
                       "cmsis_os2": CMSIS_OS2_DECLARATION}[name])


def _where(e: ValidationError) -> str:
    parts = []
    for p in e.absolute_path:
        parts.append(f"[{p}]" if isinstance(p, int) else (f".{p}" if parts else str(p)))
    return "".join(parts) or "top level"


def _short(e: ValidationError) -> str:
    """The error in a few words, never the (possibly huge) value itself."""
    v = e.validator
    if v == "type":
        want = e.validator_value if isinstance(e.validator_value, str) else " or ".join(e.validator_value)
        return f"is not {'an' if want[0] in 'aeiou' else 'a'} {want}"
    if v in ("minimum", "maximum"):
        return f"is out of range ({'at least' if v == 'minimum' else 'at most'} {e.validator_value})"
    if v == "const":
        return f"must be {e.validator_value!r}"
    if v == "enum":
        return "must be one of " + ", ".join(map(str, e.validator_value))
    if v == "minLength":
        return "must not be empty"
    return e.message[:160]


def check(doc, name: str, what: str) -> None:
    """Raise BadInput, one line naming `what` and the first problem, unless `doc` fits the
    schema `name` ("result": a result file, "port": a port manifest)."""
    # a wrong value before a missing one: it is the more specific of the two
    err = next(iter(sorted(_validator(name).iter_errors(doc),
                           key=lambda e: (e.validator == "required", list(map(str, e.path))))), None)
    if err is not None:
        raise BadInput(f"{what}: {_where(err)} {_short(err)}")
