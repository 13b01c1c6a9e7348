"""`rtoslab trace`: what can be seen of any firmware from outside, on the simulator.

Runs `rtoslab-vp run FW.elf --trace EVENTS.jsonl [--vcd FILE]` and reads the event trace
(docs/board.md, 'Observation from outside'): context switches (`switch`), exceptions
(`exc_entry`, `exc_return`, `tail_chain`), sleep, stimulus edges and faults. Threads are named
by the ELF data symbol whose address range contains their PSP (their stack). Reports context
switches, interrupt latencies (stimulus edge to the first handler instruction), CPU load, the
time per thread and per handler, and stack high-water marks; writes a Perfetto trace (Chrome
trace-event JSON, opened by ui.perfetto.dev) whose timeline shows which thread ran when.
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from .elfsyms import SymbolMap
from .errors import BadInput
from .stats import summarize

EXC_NAMES = {1: "Reset", 2: "NMI", 3: "HardFault", 11: "SVCall", 14: "PendSV", 15: "SysTick"}
STIM_RISE_EXC = 16 + 1
STIM_FALL_EXC = 16 + 2
MAIN = "main (MSP)"
SHARED = 4096
MAX_EDGES = 2_000_000   # probe and stimulus edges kept for the VCD


def exc_name(exc: int) -> str:
    if exc in EXC_NAMES:
        return EXC_NAMES[exc]
    if exc >= 16:
        return f"IRQ{exc - 16}"
    return f"exception {exc}"


@dataclass
class ThreadInfo:
    name: str
    stack_lo: int | None = None
    stack_hi: int | None = None
    lowest_sp: int | None = None
    highest_sp: int | None = None
    cycles: int = 0
    runs: int = 0

    @property
    def stack_size(self) -> int | None:
        if self.stack_lo is None:
            return None
        return self.stack_hi - self.stack_lo

    @property
    def high_water(self) -> int | None:
        """Bytes of its stack the thread used at most (above the stack's size only when the
        stack pointer really went below the stack: see `overflowed`)."""
        if self.lowest_sp is None or self.stack_hi is None:
            return None
        return self.stack_hi - self.lowest_sp

    @property
    def overflowed(self) -> bool:
        return self.lowest_sp is not None and self.stack_lo is not None and self.lowest_sp < self.stack_lo

    def see_sp(self, sp: int | None, trusted: bool = False):
        """A stack pointer this thread had. Values outside its own stack are ignored, except
        a `trusted` one (the lowest SP of a run the simulator saw this thread go through,
        from inside its stack): below the stack's bottom, that is an overflow."""
        if sp is None:
            return
        if self.stack_lo is not None:
            if sp > self.stack_hi or (sp < self.stack_lo and not trusted):
                return
        elif self.stack_hi is not None and not (self.stack_hi - 0x10000 <= sp <= self.stack_hi):
            return
        if self.lowest_sp is None or sp < self.lowest_sp:
            self.lowest_sp = sp
        if self.highest_sp is None or sp > self.highest_sp:
            self.highest_sp = sp

    @property
    def high_water_at_least(self) -> int | None:
        """Without a stack symbol of its own (a thread in an arena or heap): the span of the
        stack pointers seen, a lower bound of the stack it needs."""
        if self.lowest_sp is None:
            return None
        return self.highest_sp - self.lowest_sp


@dataclass
class Analysis:
    board: str = ""
    clock_hz: int = 0
    first_cycle: int = 0
    last_cycle: int = 0
    status: int | None = None
    instructions: int | None = None
    switches: int = 0
    switch_kinds: dict = field(default_factory=dict)     # how ("exception", "thread") -> count
    sleep_cycles: int = 0
    handler_cycles: dict = field(default_factory=dict)   # exc -> cycles
    handler_durations: dict = field(default_factory=dict)  # exc -> [cycles]
    handler_counts: dict = field(default_factory=dict)
    latencies: dict = field(default_factory=dict)         # "stimulus rise -> IRQ1" -> [cycles]
    threads: dict = field(default_factory=dict)           # name -> ThreadInfo
    faults: list = field(default_factory=list)
    events: int = 0
    slices: list = field(default_factory=list)            # (track, name, start, end)
    instants: list = field(default_factory=list)          # (name, cycle, args)
    stim_edges: list = field(default_factory=list)        # (cycle, level), for the VCD
    probe_edges: list = field(default_factory=list)       # (cycle, pins, changed), for the VCD
    warnings: list = field(default_factory=list)
    truncated: bool = False

    @property
    def total_cycles(self) -> int:
        return max(0, self.last_cycle - self.first_cycle)

    @property
    def cpu_load(self) -> float | None:
        if not self.total_cycles:
            return None
        return 1.0 - self.sleep_cycles / self.total_cycles

    def us(self, cycles: float) -> float:
        return cycles * 1e6 / self.clock_hz if self.clock_hz else float(cycles)

    def to_dict(self) -> dict:
        def st(v):
            return summarize(v) if v else None
        return {
            "board": self.board, "clock_hz": self.clock_hz, "cycles": self.total_cycles,
            "status": self.status, "instructions": self.instructions,
            "context_switches": self.switches, "context_switches_by_kind": self.switch_kinds,
            "cpu_load": self.cpu_load,
            "sleep_cycles": self.sleep_cycles,
            "threads": [{"name": t.name, "cycles": t.cycles, "runs": t.runs,
                         "stack_size": t.stack_size, "stack_high_water": t.high_water,
                         "stack_overflow": t.overflowed,
                         "stack_high_water_at_least": None if t.high_water is not None else t.high_water_at_least,
                         "stack_top": t.stack_hi} for t in self.threads.values()],
            "handlers": [{"exc": e, "name": exc_name(e), "count": self.handler_counts.get(e, 0),
                          "cycles": self.handler_cycles.get(e, 0),
                          "duration": st(self.handler_durations.get(e, []))}
                         for e in sorted(self.handler_counts)],
            "interrupt_latency": {k: st(v) for k, v in self.latencies.items()},
            "faults": self.faults, "warnings": self.warnings,
        }


class Analyzer:
    def __init__(self, syms: SymbolMap | None):
        self.syms = syms
        self.a = Analysis()
        self.cur = MAIN                 # thread running in thread mode
        self.stack: list[tuple[int, int]] = []   # (exc, entry cycle) of active handlers
        self.t_last = None
        self.sleeping_since = None
        self.slice_start = None
        self.pending_stim = {STIM_RISE_EXC: deque(maxlen=4096), STIM_FALL_EXC: deque(maxlen=4096)}
        self.a.threads[MAIN] = ThreadInfo(MAIN)
        if syms and syms.initial_sp:
            self.a.threads[MAIN].stack_hi = syms.initial_sp
        self.saved: dict[int, str] = {}     # PSP a thread left with -> thread
        self.slice_cycles = 0

    # --- naming -------------------------------------------------------------------------
    def in_main_stack(self, sp: int) -> bool:
        init = self.syms.initial_sp if self.syms else None
        if not init or not (init - 0x10000 <= sp <= init):
            return False
        return self.syms.containing(sp) is None

    def stack_owner(self, sp: int) -> str | None:
        """The thread whose own stack (a data symbol of at most SHARED bytes, or the main
        stack) holds sp; None when that cannot be told from the address alone."""
        if self.syms and self.syms.initial_sp and sp == self.syms.initial_sp:
            return MAIN                 # the empty main stack (not the object starting there)
        obj = self.syms.containing(sp) if self.syms else None
        if obj is None:
            return MAIN if self.in_main_stack(sp) else None
        if obj.size <= SHARED:
            self.a.threads.setdefault(obj.name, ThreadInfo(obj.name, obj.addr, obj.end))
            return obj.name
        return None

    def new_thread(self, sp: int) -> str:
        """A thread seen for the first time, named by the data symbol that holds its stack
        pointer. A symbol bigger than SHARED bytes (an arena, a heap) holds several stacks:
        its threads are told apart by the offset of their first stack pointer."""
        owner = self.stack_owner(sp)
        if owner is not None:
            return owner
        obj = self.syms.containing(sp) if self.syms else None
        if obj is None:
            name = f"psp@0x{sp:08x}"
        else:
            name = f"{obj.name}+0x{sp - obj.addr:x}"
        self.a.threads.setdefault(name, ThreadInfo(name))
        return name

    # --- time accounting ----------------------------------------------------------------
    def _account(self, c: int):
        if self.t_last is None:
            self.t_last = c
            self.a.first_cycle = c
            self.slice_start = c
            return
        dt = c - self.t_last
        if dt < 0:
            if len(self.a.warnings) < 20:
                self.a.warnings.append(f"event out of order at cycle {c}")
            return
        if self.sleeping_since is not None:
            self.a.sleep_cycles += dt
        elif self.stack:
            exc = self.stack[-1][0]
            self.a.handler_cycles[exc] = self.a.handler_cycles.get(exc, 0) + dt
        else:
            self.slice_cycles += dt
        self.t_last = c
        self.a.last_cycle = c

    def _close_thread_slice(self, c: int, name: str | None = None):
        name = name or self.cur
        info = self.a.threads.setdefault(name, ThreadInfo(name))
        info.cycles += self.slice_cycles
        self.slice_cycles = 0
        if self.slice_start is not None and c > self.slice_start:
            self.a.slices.append(("thread", name, self.slice_start, c))
        self.slice_start = c

    def _latency(self, exc: int, c: int):
        """The stimulus line's entry is paired with the last edge before it: edges that no
        entry followed (the line was disabled, or its pending state was cleared) are dropped,
        never paired with a later entry."""
        if exc in self.pending_stim and self.pending_stim[exc]:
            rise = self.pending_stim[exc][-1]
            self.pending_stim[exc].clear()
            key = f"stimulus {'rise' if exc == STIM_RISE_EXC else 'fall'} -> {exc_name(exc)}"
            self.a.latencies.setdefault(key, []).append(c - rise)

    # --- events -------------------------------------------------------------------------
    def feed(self, ev: dict):
        a = self.a
        a.events += 1
        e = ev.get("e")
        if e == "start":
            a.board = str(ev.get("board", ""))
            a.clock_hz = int(ev.get("clock_hz") or 0)
            if "c" in ev:
                self._account(int(ev["c"]))
            return
        if "c" not in ev:
            return
        c = int(ev["c"])
        self._account(c)
        if e == "exc_entry":
            exc = int(ev["exc"])
            sp = ev.get("sp")
            if not self.stack:
                if self.sleeping_since is not None:
                    self._end_sleep(c)
                who = self.cur
                if sp is not None:
                    owner = self.stack_owner(int(sp))
                    if owner is not None and owner != who:
                        # the frame is on another thread's stack: that thread runs (it
                        # started without a switch event, e.g. an old trace)
                        who = owner
                    elif owner is None and who == MAIN:
                        who = self.new_thread(int(sp))
                self._close_thread_slice(c, who)
                self.cur = who
                if sp is not None:
                    a.threads[who].see_sp(int(sp))
            elif sp is not None:
                a.threads[MAIN].see_sp(int(sp))
            self.stack.append((exc, c))
            a.handler_counts[exc] = a.handler_counts.get(exc, 0) + 1
            self._latency(exc, c)
        elif e == "tail_chain":
            exc = int(ev["exc"])
            self._pop_handler(int(ev.get("from", self.stack[-1][0] if self.stack else 0)), c)
            self.stack.append((exc, c))
            a.handler_counts[exc] = a.handler_counts.get(exc, 0) + 1
            self._latency(exc, c)
        elif e == "exc_return":
            self._pop_handler(int(ev.get("exc", 0)), c)
            if not self.stack:
                self.slice_start = c          # back in thread mode
                self.slice_cycles = 0
        elif e == "switch":
            a.switches += 1
            how = ev.get("how")
            if how:
                a.switch_kinds[str(how)] = a.switch_kinds.get(str(how), 0) + 1
            from_psp, to_psp, low = ev.get("from_psp"), ev.get("to_psp"), ev.get("low")
            out = self.cur
            if from_psp is not None:
                owner = self.stack_owner(int(from_psp))
                if owner is not None:
                    out = owner
                # the thread that leaves will come back with this stack pointer
                if len(self.saved) < 100000:
                    self.saved[int(from_psp)] = out
                info = a.threads.setdefault(out, ThreadInfo(out))
                info.see_sp(int(from_psp))
                if low is not None:
                    # the lowest SP of the run that ends here: below the stack, an overflow
                    info.see_sp(int(low), trusted=owner is not None and int(low) <= int(from_psp))
            if not self.stack:               # a switch outside a handler: close the slice here
                self._close_thread_slice(c, out)
            if to_psp is not None:
                to = int(to_psp)
                name = self.stack_owner(to)
                if name is None:
                    name = self.saved.pop(to, None) or self.new_thread(to)
                else:
                    self.saved.pop(to, None)
                self.cur = name
                a.threads[name].runs += 1
                a.threads[name].see_sp(to)
        elif e == "sleep":
            if self.sleeping_since is None:
                if not self.stack:
                    self._close_thread_slice(c)
                self.sleeping_since = c
        elif e == "wake":
            self._end_sleep(c)
        elif e == "probe":
            if len(a.probe_edges) < MAX_EDGES:
                a.probe_edges.append((c, int(ev.get("pins", 0)), int(ev.get("changed", 0))))
        elif e == "stim":
            level = int(ev.get("level", 0))
            if len(a.stim_edges) < MAX_EDGES:
                a.stim_edges.append((c, level))
            self.pending_stim[STIM_RISE_EXC if level else STIM_FALL_EXC].append(c)
            if len(a.instants) < 100000:
                a.instants.append(("stimulus " + ("rise" if level else "fall"), c, {}))
        elif e == "fault":
            f = {"cycle": c, "pc": ev.get("pc"), "reason": ev.get("reason", "")}
            a.faults.append(f)
            a.instants.append(("fault: " + str(f["reason"]), c, {"pc": f["pc"]}))
        elif e == "end":
            a.status = ev.get("status")
            a.instructions = ev.get("instructions")
            self._finish(c)

    def _end_sleep(self, c: int):
        if self.sleeping_since is not None:
            if c > self.sleeping_since:
                self.a.slices.append(("thread", "sleep", self.sleeping_since, c))
            self.sleeping_since = None
            if not self.stack:
                self.slice_start = c

    def _pop_handler(self, exc: int, c: int):
        if not self.stack:
            self.a.warnings.append(f"return from {exc_name(exc)} with no handler active (cycle {c})")
            return
        e, start = self.stack.pop()
        self.a.handler_durations.setdefault(e, []).append(c - start)
        self.a.slices.append(("handler", exc_name(e), start, c))

    def _finish(self, c: int):
        self._end_sleep(c)
        if self.stack:
            while self.stack:
                e, start = self.stack.pop()
                self.a.handler_durations.setdefault(e, []).append(c - start)
                self.a.slices.append(("handler", exc_name(e), start, c))
        else:
            self._close_thread_slice(c)
        self.a.last_cycle = c

    def result(self) -> Analysis:
        if self.a.events and self.a.status is None and self.t_last is not None:
            self.a.truncated = True
            self._finish(self.t_last)
        return self.a


def analyze_file(trace_path: Path, syms: SymbolMap | None) -> Analysis:
    an = Analyzer(syms)
    try:
        f = open(trace_path, encoding="utf-8", errors="replace")
    except OSError as e:
        raise BadInput(f"{trace_path}: cannot read: {e.strerror}") from None
    bad = 0
    with f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
                if not isinstance(ev, dict):
                    raise ValueError("not an object")
                an.feed(ev)
            except (ValueError, KeyError, TypeError) as e:
                bad += 1
                if bad == 1:
                    an.a.warnings.append(f"{trace_path.name}:{lineno}: bad event ({e})")
                if bad > 100 and bad > lineno // 2:
                    raise BadInput(f"{trace_path}: not an rtoslab-vp event trace (line {lineno})") from None
    if an.a.events == 0:
        raise BadInput(f"{trace_path}: empty event trace")
    return an.result()


def perfetto(a: Analysis, title: str) -> dict:
    """Chrome trace-event JSON: one track for the CPU (which thread ran when, and sleep), one
    for handlers, and one per thread."""
    pid = 1
    ev = [{"ph": "M", "name": "process_name", "pid": pid, "args": {"name": title}},
          {"ph": "M", "name": "thread_name", "pid": pid, "tid": 1, "args": {"name": "CPU: thread mode"}},
          {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": 1, "args": {"sort_index": 0}},
          {"ph": "M", "name": "thread_name", "pid": pid, "tid": 2, "args": {"name": "CPU: handlers"}},
          {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": 2, "args": {"sort_index": 1}}]
    tids = {}
    for i, name in enumerate(a.threads, start=10):
        tids[name] = i
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": i, "args": {"name": f"thread {name}"}})
        ev.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": i, "args": {"sort_index": i}})
    base = a.first_cycle
    for track, name, s, e in a.slices:
        common = {"ph": "X", "pid": pid, "ts": round(a.us(s - base), 4), "dur": round(a.us(e - s), 4),
                  "args": {"start_cycle": s, "cycles": e - s}}
        if track == "thread":
            ev.append({**common, "name": name, "tid": 1, "cat": "thread"})
            if name in tids:
                ev.append({**common, "name": "running", "tid": tids[name], "cat": "thread"})
        else:
            ev.append({**common, "name": name, "tid": 2, "cat": "handler"})
    for name, c, args in a.instants:
        ev.append({"ph": "i", "s": "p", "pid": pid, "tid": 2, "name": name,
                   "ts": round(a.us(c - base), 4), "args": {"cycle": c, **args}})
    return {"traceEvents": ev, "displayTimeUnit": "ns",
            "otherData": {"board": a.board, "clock_hz": a.clock_hz, "cycles": a.total_cycles,
                          "tool": "rtoslab trace"}}
