"""Output that survives any terminal encoding.

The tables use arrows and symbols (↓ lower, ↑ higher, → 0, ×1.00, µs, box lines). On a
terminal whose encoding cannot show them (PYTHONIOENCODING=latin-1, LANG=C), each one the
encoding lacks is written as its ASCII look-alike instead of ending the command with an
encoding error after the measurements.
"""
from __future__ import annotations

import codecs
import sys

HANDLER = "rtoslab-ascii"
LOOK_ALIKES = {"↓": "v", "↑": "^", "→": "->", "←": "<-", "×": "x", "µ": "u", "…": "...", "–": "-", "—": "-",
               "−": "-", "≥": ">=", "≤": "<=", "±": "+/-", "°": "deg", "·": ".", "✓": "ok", "✗": "x",
               "━": "-", "─": "-", "│": "|", "┃": "|", "╸": "-", "╺": "-", "•": "*", "▏": "|", "█": "#"}


def _replace(err: UnicodeEncodeError):
    text = err.object[err.start:err.end]
    out = []
    for ch in text:
        alike = LOOK_ALIKES.get(ch)
        if alike is None:
            alike = "?"
        try:
            alike.encode(err.encoding)
        except UnicodeEncodeError:
            alike = "?"
        out.append(alike)
    return "".join(out), err.end


def install() -> None:
    """Make stdout and stderr write ASCII look-alikes for what their encoding cannot hold."""
    try:
        codecs.lookup_error(HANDLER)
    except LookupError:
        codecs.register_error(HANDLER, _replace)
    for stream in (sys.stdout, sys.stderr):
        enc = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if enc in ("utf-8", "utf8") or not hasattr(stream, "reconfigure"):
            continue
        try:
            stream.reconfigure(errors=HANDLER)
        except (ValueError, OSError, AttributeError):
            pass
