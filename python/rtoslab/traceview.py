"""`rtoslab trace`: run on the simulator with --trace, analyse, print, write VCD and Perfetto."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from . import elfsyms
from . import manifest as mf
from .errors import BadInput, FirmwareFailed
from .ids import get_board
from .results import atomic_write
from .runners import vp as vp_runner
from .stats import fmt_time
from .trace import Analysis, analyze_file, exc_name, perfetto


def render(a: Analysis, out: Console, title: str) -> None:
    hz = a.clock_hz or 0
    def t(c):
        return fmt_time(c / hz) if hz else f"{c} cycles"
    out.print(f"[bold]{title}[/]: {a.total_cycles} cycles ({t(a.total_cycles)})"
              + (f", {a.instructions} instructions" if a.instructions else "")
              + (f", exit status {a.status}" if a.status is not None else ", trace cut short"))
    load = a.cpu_load
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(a.switch_kinds.items()))
    out.print(f"context switches: {a.switches}" + (f" ({kinds})" if kinds else "")
              + (f", {a.switches / (a.total_cycles / hz):.0f}/s at the board clock" if hz and a.total_cycles else "")
              + (f"; CPU load: {load * 100:.1f}% (asleep {a.sleep_cycles} cycles)" if load is not None else ""))
    tt = Table(box=box.SIMPLE_HEAD, title="threads (named by the symbol holding their stack)", title_justify="left")
    for c in ("thread", "runs", "cycles", "share", "stack", "high-water", "used"):
        tt.add_column(c, justify="left" if c == "thread" else "right", no_wrap=True)
    total = a.total_cycles or 1
    for th in sorted(a.threads.values(), key=lambda x: -x.cycles):
        if not th.cycles and not th.runs and th.high_water is None:
            continue
        size, hw = th.stack_size, th.high_water
        hw_text = str(hw) if hw is not None else (
            f"≥{th.high_water_at_least}" if th.high_water_at_least and th.name != "main (MSP)" else "")
        if th.overflowed:
            used = "[red]OVERFLOW[/]"
        else:
            used = f"{hw / size * 100:.0f}%" if size and hw is not None else ""
        tt.add_row(th.name, str(th.runs), str(th.cycles), f"{th.cycles / total * 100:.1f}%",
                   "" if size is None else str(size), hw_text, used)
    out.print(tt)
    if a.handler_counts:
        ht = Table(box=box.SIMPLE_HEAD, title="exception handlers", title_justify="left")
        for c in ("handler", "count", "cycles", "share", "min", "mean", "max"):
            ht.add_column(c, justify="left" if c == "handler" else "right", no_wrap=True)
        for exc in sorted(a.handler_counts):
            d = a.handler_durations.get(exc) or [0]
            cyc = a.handler_cycles.get(exc, 0)
            ht.add_row(exc_name(exc), str(a.handler_counts[exc]), str(cyc), f"{cyc / total * 100:.1f}%",
                       str(min(d)), f"{sum(d) / len(d):.1f}", str(max(d)))
        out.print(ht)
    if a.latencies:
        lt = Table(box=box.SIMPLE_HEAD, title="interrupt latency (edge to first handler instruction, cycles)",
                   title_justify="left")
        for c in ("source", "n", "min", "mean", "max", "max time"):
            lt.add_column(c, justify="left" if c == "source" else "right", no_wrap=True)
        for k, v in a.latencies.items():
            lt.add_row(k, str(len(v)), str(min(v)), f"{sum(v) / len(v):.1f}", str(max(v)), t(max(v)))
        out.print(lt)
    else:
        out.print("interrupt latency: no stimulus edge was taken by an interrupt "
                  "(arm one with --stimulus at=...,period=...)")
    for f in a.faults:
        pc = f["pc"]
        pc = f"0x{pc:08x}" if isinstance(pc, int) else str(pc)
        out.print(f"[red]fault[/] at cycle {f['cycle']}: pc={pc} {f['reason']}")
    for w in a.warnings[:5]:
        out.print(f"warning: {w}")


def execute(firmware, board_id, vcd: Path | None, perfetto_path: Path | None, json_path: Path | None,
            events: Path | None, from_events: Path | None, max_cycles: int | None, stimulus, ram,
            timeout, out: Console, err: Console) -> Analysis:
    if board_id is None:
        # the board the image was built for (its .note.rtoslab), as `rtoslab-vp run` picks it
        from .boardnote import board_note
        from .ids import BOARDS, DEFAULT_BOARD
        note = board_note(firmware) if Path(firmware).is_file() else None
        board_id = note if note in BOARDS else DEFAULT_BOARD
    board = get_board(board_id)
    if board.runner != "vp":
        raise BadInput(f"trace runs on the simulator only (rtoslab boards --runner vp), not '{board_id}'")
    fw = Path(firmware)
    syms = elfsyms.load(fw)
    if syms.machine != "EM_ARM":
        raise BadInput(f"{fw}: not an Arm firmware image ({syms.machine})")
    outcome = None
    tmp = None
    try:
        if from_events:
            if not from_events.is_file():
                raise BadInput(f"{from_events}: no such event trace")
            trace_file = from_events
        else:
            vp = vp_runner.find_vp(mf.repo_root())
            tmp = Path(tempfile.mkdtemp(prefix="rtoslab-trace-"))
            trace_file = events or tmp / "events.jsonl"
            extra = []
            if stimulus:
                extra += ["--stimulus", stimulus]
            if ram:
                extra += ["--ram", ram]
            console_lines: list[str] = []

            def on_line(line):
                if len(console_lines) < 10000:
                    console_lines.append(line)
            outcome = vp_runner.run(vp, fw, board.id, on_line, trace=trace_file,
                                    max_cycles=max_cycles, timeout=timeout, extra=extra)
            if outcome.kind == "bad-input":
                raise BadInput(f"the simulator refused {fw}: {outcome.message}")
            if not trace_file.exists():
                raise FirmwareFailed(f"the simulator wrote no event trace ({outcome.kind}: {outcome.message})")
        a = analyze_file(trace_file, syms)
        if not a.clock_hz:
            a.clock_hz = board.clock_hz
        title = f"{fw.name} on {a.board or board.id}"
        render(a, out, title)
        if outcome is not None and outcome.kind == "cycle-limit":
            out.print(f"stopped at the cycle limit ({max_cycles} cycles)")
        if perfetto_path:
            atomic_write(perfetto_path, json.dumps(perfetto(a, title)) + "\n")
            out.print(f"perfetto: {perfetto_path} (open in ui.perfetto.dev)")
        if vcd:
            from .vcd import write as write_vcd
            write_vcd(a, vcd, title)
            out.print(f"vcd: {vcd} (signals thread, handler, stim, probe0..7; open in GTKWave)")
        if json_path:
            d = a.to_dict()
            d["firmware"] = str(fw)
            d["stop"] = outcome.kind if outcome else None
            atomic_write(json_path, json.dumps(d, indent=1) + "\n")
        if outcome is not None and outcome.kind in ("fault", "lockup", "timeout", "crash"):
            raise FirmwareFailed(f"{fw.name}: {outcome.kind}" + (f": {outcome.message}" if outcome.message else "")
                                 + " (the trace up to that point is reported above)")
        if a.faults and (outcome is None or outcome.kind != "exit"):
            f = a.faults[0]
            raise FirmwareFailed(f"{fw.name}: fault at cycle {f['cycle']}: {f['reason']}")
        return a
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
