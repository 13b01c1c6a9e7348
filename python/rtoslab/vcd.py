"""The VCD of `rtoslab trace`: what a person looks for in a logic-analyser view of a run.

Signals: `thread` (which thread runs in thread mode, or `sleep`; a string signal, with its
index in `thread_id` for viewers without strings), `handler` (the innermost active exception,
or `-` in thread mode; index in `exception`), the probe pins and the stimulus pin. Time is
real time at the board clock in picoseconds, so every cycle has its own timestamp and a
viewer's time axis is right; a $comment states the clock and the cycles-to-time rule. The
file ends with the timestamp of the run's last cycle.
"""
from __future__ import annotations

from pathlib import Path

from .results import atomic_write
from .trace import Analysis

PROBE_PINS = 8


def _ident(i: int) -> str:
    """The VCD identifier of signal i: printable ASCII from '!'."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 94)
        out = chr(33 + r) + out
    return out


def _text(name: str) -> str:
    """A string value: VCD values end at white space."""
    return "_".join(name.split()) or "-"


def _bits(v: int, width: int) -> str:
    return format(v & ((1 << width) - 1), f"0{width}b")


def _handler_changes(a: Analysis) -> list[tuple[int, str]]:
    """(cycle, name of the innermost active handler or '-') from the nested handler slices."""
    bounds = []
    for track, name, s, e in a.slices:
        if track == "handler":
            bounds.append((s, 1, -(e - s), name))   # at equal cycles: the enclosing one first
            bounds.append((e, 0, 0, name))          # and a return before a tail-chained entry
    bounds.sort()
    stack: list[str] = []
    out = []
    for c, kind, _neg, name in bounds:
        if kind == 1:
            stack.append(name)
        elif name in stack:
            stack.reverse()
            stack.remove(name)
            stack.reverse()
        now = stack[-1] if stack else "-"
        if out and out[-1][0] == c:
            out[-1] = (c, now)          # a tail-chain: one change, to the next handler
        else:
            out.append((c, now))
    return out


def write(a: Analysis, path: Path, title: str) -> Path:
    clock = a.clock_hz or 1
    ps = 1e12 / clock

    def t(c: int) -> int:
        return round((c - a.first_cycle) * ps)

    threads = ["-"] + sorted({name for track, name, _s, _e in a.slices if track == "thread"})
    handlers = ["-"] + sorted({name for track, name, _s, _e in a.slices if track == "handler"})
    tid = {n: i for i, n in enumerate(threads)}
    hid = {n: i for i, n in enumerate(handlers)}
    tw = max(1, (len(threads) - 1).bit_length())
    hw = max(1, (len(handlers) - 1).bit_length())
    sig = {"thread": _ident(0), "thread_id": _ident(1), "handler": _ident(2),
           "exception": _ident(3), "stim": _ident(4)}
    probe_ids = [_ident(5 + i) for i in range(PROBE_PINS)]

    changes: list[tuple[int, int, str]] = []    # (cycle, order, VCD value line)
    for track, name, s, _e in a.slices:
        if track == "thread":
            changes.append((s, 0, f"s{_text(name)} {sig['thread']}"))
            changes.append((s, 1, f"b{_bits(tid[name], tw)} {sig['thread_id']}"))
    # thread mode stops while a handler runs: the thread signal stays (the interrupted thread)
    for c, name in _handler_changes(a):
        changes.append((c, 2, f"s{_text(name)} {sig['handler']}"))
        changes.append((c, 3, f"b{_bits(hid[name], hw)} {sig['exception']}"))
    for c, level in a.stim_edges:
        changes.append((c, 4, f"{level}{sig['stim']}"))
    for c, pins, changed in a.probe_edges:
        for i in range(PROBE_PINS):
            if changed >> i & 1:
                changes.append((c, 5, f"{pins >> i & 1}{probe_ids[i]}"))
    changes.sort(key=lambda x: (x[0], x[1]))

    lines = [f"$comment {title}: board {a.board or '?'} at {clock} Hz; time is real time, one cycle = "
             f"{ps:.3f} ps; cycle = time * {clock} / 1e12 + {a.first_cycle} $end",
             "$timescale 1 ps $end", "$scope module rtoslab $end",
             f"$var string 1 {sig['thread']} thread $end",
             f"$var wire {tw} {sig['thread_id']} thread_id $end",
             f"$var string 1 {sig['handler']} handler $end",
             f"$var wire {hw} {sig['exception']} exception $end",
             f"$var wire 1 {sig['stim']} stim $end"]
    lines += [f"$var wire 1 {probe_ids[i]} probe{i} $end" for i in range(PROBE_PINS)]
    lines += ["$upscope $end",
              "$comment thread_id: " + ", ".join(f"{i}={_text(n)}" for n, i in tid.items())
              + "; exception: " + ", ".join(f"{i}={_text(n)}" for n, i in hid.items()) + " $end",
              "$enddefinitions $end", "#0", "$dumpvars",
              f"s- {sig['thread']}", f"b{_bits(0, tw)} {sig['thread_id']}",
              f"s- {sig['handler']}", f"b{_bits(0, hw)} {sig['exception']}", f"0{sig['stim']}"]
    lines += [f"0{p}" for p in probe_ids] + ["$end"]
    last = None
    for c, _o, text in changes:
        if c < a.first_cycle:
            continue
        stamp = t(c)
        if stamp != last:
            lines.append(f"#{stamp}")
            last = stamp
        lines.append(text)
    end = t(max(a.last_cycle, a.first_cycle))
    if last is None or end > last:
        lines.append(f"#{end}")
    return atomic_write(path, "\n".join(lines) + "\n")
