"""Parser of the console protocol (docs/protocol.md): lines starting with '@'.

The parser is fed line by line (so a run can show progress while it works) and never raises on
what the firmware prints: a malformed protocol line becomes a warning, a metric cut short by a
crash stays 'incomplete' and is never reported as a number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Metric:
    id: str
    unit: str = "cycles"
    n: int = 0                  # announced
    cold: int = 0
    samples: list[int] = field(default_factory=list)
    complete: bool = False
    probe: bool = False
    index: int = 0              # counts @metric lines from 0 (the PROBE_MARK index)
    problem: str = ""
    flagged: bool = False       # @metric ... incomplete=1
    signed: bool = False        # @metric ... signed=1: samples are 32-bit two's complement
    probe_from: str = ""        # @probe ID from=stim|reset: where the probe interval starts

    @property
    def status(self) -> str:
        return "complete" if self.complete else "incomplete"


@dataclass
class Check:
    id: str
    passed: bool
    detail: str = ""


@dataclass
class Transcript:
    version: int | None = None
    rtos: str | None = None
    rtos_version: str | None = None
    board: str | None = None
    clock_hz: int | None = None
    run_fields: dict = field(default_factory=dict)
    config: dict = field(default_factory=dict)
    metrics: dict[str, Metric] = field(default_factory=dict)
    absent: dict[str, str] = field(default_factory=dict)
    checks: dict[str, Check] = field(default_factory=dict)
    done: bool = False
    logs: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    lines: int = 0

    def complete_metrics(self) -> list[Metric]:
        return [m for m in self.metrics.values() if m.complete]

    def incomplete_metrics(self) -> list[Metric]:
        return [m for m in self.metrics.values() if not m.complete]


_INCOMPLETE = re.compile(r"^#?\s*([\w.]+) incomplete:\s*(.*)$")


def _kv(tokens: list[str]) -> dict[str, str]:
    out = {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            out[k] = v
    return out


class Parser:
    """Feed lines; read .transcript. feed() returns a short event tag for progress display."""

    def __init__(self):
        self.t = Transcript()
        self._current: Metric | None = None
        self._index = 0
        self._probe_pending: dict[str, str] = {}
        self._reasons: dict[str, str] = {}

    @property
    def transcript(self) -> Transcript:
        return self.t

    def _warn(self, msg: str) -> None:
        if len(self.t.warnings) < 100:
            self.t.warnings.append(f"line {self.t.lines}: {msg}")

    def feed_text(self, text: str) -> Transcript:
        for line in text.splitlines():
            self.feed(line)
        return self.t

    def feed(self, line: str) -> tuple[str, str] | None:
        self.t.lines += 1
        line = line.rstrip("\r\n")
        if not line.startswith("@"):
            if line.strip():
                if len(self.t.logs) < 5000:
                    self.t.logs.append(line)
                m = _INCOMPLETE.match(line)
                if m:
                    self._reasons[m.group(1)] = m.group(2).strip()
            return None
        try:
            return self._protocol(line)
        except (ValueError, IndexError) as e:
            self._warn(f"malformed protocol line {line[:60]!r} ({e})")
            return None

    def _protocol(self, line: str):
        t = self.t
        head, _, rest = line.partition(" ")
        tokens = rest.split()
        if head == "@rtoslab":
            t.version = int(tokens[0])
            return ("version", str(t.version))
        if head == "@run":
            kv = _kv(tokens)
            t.run_fields = kv
            t.rtos = kv.get("rtos", t.rtos)
            t.rtos_version = kv.get("version", t.rtos_version)
            t.board = kv.get("board", t.board)
            if "clock" in kv:
                t.clock_hz = int(kv["clock"])
            return ("run", t.rtos or "")
        if head == "@config":
            if "=" not in rest:
                raise ValueError("expected KEY=VALUE")
            k, v = rest.split("=", 1)
            t.config[k.strip()] = v.strip()
            return None
        if head == "@metric":
            mid = tokens[0]
            kv = _kv(tokens[1:])
            if self._current is not None and not self._current.complete:
                self._current.problem = "cut short by the next @metric"
            m = Metric(id=mid, unit=kv.get("unit", "cycles"), n=int(kv.get("n", "0")),
                       cold=int(kv.get("cold", "0")), index=self._index,
                       signed=kv.get("signed", "0") not in ("0", ""))
            self._index += 1
            if mid in t.metrics and t.metrics[mid].complete:
                self._warn(f"metric {mid} reported twice; the last one is kept")
            if kv.get("incomplete", "0") not in ("0", ""):
                m.problem = self._reasons.get(mid) or "the firmware marked it incomplete"
                m.flagged = True
            if mid in self._probe_pending:
                m.probe = True
                m.probe_from = self._probe_pending.pop(mid)
            t.metrics[mid] = m
            self._current = m
            return ("metric", mid)
        if head == "@s":
            m = self._current
            if m is None or m.complete:
                raise ValueError("samples outside a metric")
            vals = [int(x, 16) for x in tokens]
            if m.signed:
                vals = [v - (1 << 32) if v & 0x80000000 else v for v in vals]
            if len(vals) > 32:
                self._warn("more than 32 samples on one @s line")
            m.samples.extend(vals)
            return None
        if head == "@end":
            mid = tokens[0]
            m = t.metrics.get(mid)
            if m is None or m is not self._current:
                raise ValueError(f"@end {mid} without its @metric")
            if m.flagged:
                pass
            elif m.n and len(m.samples) != m.n:
                m.problem = f"announced n={m.n}, received {len(m.samples)} samples"
                self._warn(f"{mid}: {m.problem}")
            elif not m.samples:
                m.problem = "no samples"
            else:
                m.complete = True
            self._current = None
            return ("end", mid)
        if head == "@absent":
            mid = tokens[0]
            reason = rest[len(mid):].strip() or "not expressible"
            t.absent[mid] = reason
            return ("absent", mid)
        if head == "@check":
            cid, verdict = tokens[0], tokens[1]
            if verdict not in ("pass", "fail"):
                raise ValueError(f"check verdict {verdict!r}")
            detail = rest.split(None, 2)[2] if len(tokens) > 2 else ""
            t.checks[cid] = Check(cid, verdict == "pass", detail)
            return ("check", cid)
        if head == "@probe":
            mid = tokens[0]
            origin = _kv(tokens[1:]).get("from", "")
            if mid in t.metrics:
                t.metrics[mid].probe = True
                t.metrics[mid].probe_from = origin
            else:
                self._probe_pending[mid] = origin
            return None
        if head == "@done":
            t.done = True
            return ("done", "")
        self._warn(f"unknown protocol line {head}")
        return None


def parse(text: str) -> Transcript:
    return Parser().feed_text(text)
