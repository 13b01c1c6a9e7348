"""Reading a result file in bounded memory, for the report.

A result file can hold millions of samples per metric; the report needs of them only what it
draws (at most `stats.PLOT_POINTS` per series) and takes every statistic from the stored
fields. So the file is parsed as a stream of JSON events (ijson, its C backend): everything
but the sample arrays is built as `json.load` would build it, and each sample array is
thinned as it streams past, to its cold samples and the order statistics `plot_points`
would pick from a systematic subsample. Every streamed value is still checked by the rule
the schema states (schema.sample_problem), so a bad number deep in a long array is refused as
it would be by `results.load`; the thinned document then goes through the same schema.

Memory is bounded by the number of series (each at most 2 × THIN_LIMIT values while it
streams), not by the file's size; progress goes to `progress(fraction)` as bytes are read.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from .errors import BadInput
from .stats import PLOT_POINTS, plot_points

THIN_LIMIT = 4 * PLOT_POINTS      # a thinned series keeps this many evenly spaced warm samples at least
SAMPLE_PATHS = ("runs.item.results.item.samples", "runs.item.results.item.probe.samples")
PROGRESS_STEP = 1 << 24           # bytes between two progress reports
CHUNK = 1 << 16                   # sample values handed to the thinner at once


class _Thinner:
    """One sample array as it streams: the first `cold` values verbatim, then every
    `stride`-th warm value, the stride doubling whenever the kept values reach 2 × THIN_LIMIT
    (so between THIN_LIMIT and 2 × THIN_LIMIT warm values are kept, evenly spaced). Also the
    smallest and largest values, for the schema's rules. Values arrive in chunks, so that the
    work per value is done by builtins (min, max, slicing), not by Python code."""

    def __init__(self, cold: int):
        self.cold = cold
        self.head: list = []
        self.kept: list = []
        self.stride = 1
        self.count = 0                      # warm values seen
        self.low = math.inf
        self.high = -math.inf

    def add_chunk(self, chunk: list) -> None:
        if not chunk:
            return
        self.low = min(self.low, min(chunk))
        self.high = max(self.high, max(chunk))
        if len(self.head) < self.cold:
            take = self.cold - len(self.head)
            self.head.extend(chunk[:take])
            chunk = chunk[take:]
        first = -self.count % self.stride   # the next kept value's index in this chunk
        self.kept.extend(chunk[first::self.stride])
        self.count += len(chunk)
        while len(self.kept) >= 2 * THIN_LIMIT:
            self.kept = self.kept[::2]
            self.stride *= 2

    def values(self) -> list:
        if self.stride == 1 and len(self.kept) <= PLOT_POINTS:
            return self.head + self.kept    # a short array stays exactly as stored
        return self.head + plot_points(self.kept, PLOT_POINTS)


def _stream_samples(events, thinner: _Thinner, where: str) -> None:
    """Feed the sample array's values (up to its end_array) to `thinner`, in chunks."""
    chunk: list = []
    append = chunk.append
    for _prefix, event, value in events:
        if event == "number":
            append(value)
            if len(chunk) >= CHUNK:
                thinner.add_chunk(chunk)
                chunk.clear()
            continue
        thinner.add_chunk(chunk)
        if event == "end_array":
            return
        raise BadInput(f"'{where}'[{len(thinner.head) + thinner.count}] is not a number")


def _check_streamed(thinner: _Thinner, entry: dict, where: str) -> None:
    """The schema's sample rule over every streamed value: the thinned array alone would
    miss a bad value that thinning dropped."""
    from .schema import sample_low, sample_problem
    if not thinner.head and not thinner.count:
        return                              # empty: the schema says so
    for extreme in (thinner.low, thinner.high):
        problem = sample_problem(extreme, sample_low(entry))
        if problem:
            raise BadInput(f"'{where}' holds a value that is {problem}")


class _Builder:
    """The document from the parser's events (as ijson's ObjectBuilder, keeping the open
    containers themselves, so that a sample array can see the entry that holds it)."""

    def __init__(self):
        self.stack: list[list | dict] = []
        self.key: str | None = None
        self.value = None
        self.done = False

    def _put(self, value) -> None:
        if not self.stack:
            self.value, self.done = value, True
        elif isinstance(self.stack[-1], list):
            self.stack[-1].append(value)
        else:
            self.stack[-1][self.key] = value

    def event(self, event: str, value) -> None:
        if event == "map_key":
            self.key = value
        elif event in ("start_map", "start_array"):
            container = {} if event == "start_map" else []
            self._put(container)
            self.stack.append(container)
        elif event in ("end_map", "end_array"):
            self.stack.pop()
        else:
            self._put(value)

    def enclosing(self, up: int) -> dict:
        """The open container `up` levels above the innermost one."""
        return self.stack[-1 - up]


def load_thinned(path, progress: Callable[[float], None] | None = None) -> dict:
    """The result file at `path`, its sample arrays thinned for plotting, validated
    (results.validate). BadInput, one line, for anything a result file may not be."""
    import ijson

    from . import results as res
    p = Path(path)
    if p.is_dir():
        raise BadInput(f"{path}: is a folder, not a result file")
    if not p.exists():
        raise BadInput(f"{path}: no such file")
    if not p.is_file():
        raise BadInput(f"{path}: not a regular file")
    try:
        total = p.stat().st_size or 1
        with p.open("rb") as f:
            builder = _Builder()
            next_report = PROGRESS_STEP
            events = ijson.parse(f, use_float=True)
            for prefix, event, value in events:
                builder.event(event, value)
                if event == "start_array" and prefix in SAMPLE_PATHS:
                    probe = prefix == SAMPLE_PATHS[1]
                    entry = builder.enclosing(2 if probe else 1)        # the result entry
                    cold = entry.get("cold", 0) if not probe else 0
                    thinner = _Thinner(cold if type(cold) is int and 0 <= cold <= THIN_LIMIT else 0)
                    where = "probe.samples" if probe else "samples"
                    try:
                        _stream_samples(events, thinner, where)
                        _check_streamed(thinner, entry, where)
                    except BadInput as e:
                        raise BadInput(f"{path}: not a valid rtoslab result file: {e}") from None
                    for v in thinner.values():
                        builder.event("number", v)
                    builder.event("end_array", None)
                if progress is not None and f.tell() >= next_report:
                    progress(min(1.0, f.tell() / total))
                    next_report = f.tell() + PROGRESS_STEP
    except ijson.JSONError as e:
        if "integer overflow" in str(e):         # the C parser's refusal of an integer beyond 64 bits
            raise BadInput(f"{path}: not a valid rtoslab result file: a number is out of range (64 bits)") from None
        raise BadInput(f"{path}: not JSON ({str(e).strip().splitlines()[0][:120]})") from None
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror or e}") from None
    except RecursionError:
        raise BadInput(f"{path}: not a valid rtoslab result file: nested too deep") from None
    if not builder.done:
        raise BadInput(f"{path}: not JSON (empty)")
    doc = builder.value
    try:
        _refuse_non_finite(doc, path)
        return res.validate(doc, path)
    except RecursionError:
        raise BadInput(f"{path}: not a valid rtoslab result file: nested too deep") from None


def _refuse_non_finite(doc, path) -> None:
    """json.loads with results.parse refuses numbers beyond a float's range; the stream
    parser turns them into inf: the same refusal here (floats only; sample arrays were
    checked as they streamed)."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) is float and not math.isfinite(node):
            raise BadInput(f"{path}: not a valid rtoslab result file: {node} is out of range for a number")
