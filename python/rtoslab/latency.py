"""The interrupt-to-thread latency taken apart (seed 003's latency model, docs/methodology.md,
"Latency decomposition"): `python -m rtoslab.latency IMAGE.elf [--samples N] [--json FILE]`.

From the simulator's instruction trace of a few warm samples of `irq.to_thread` (the stimulus
raises IRQ 1, whose ISR signals a semaphore a higher thread waits on; the interval ends where
that thread drops probe pin 0, right after its counter read), every sample is cut, in time
order, into:

- `pending`: stimulus edge -> exception entry: the core finishing its instruction, or the
  interrupt held off (interrupts masked, a handler of the same or higher priority running);
- `core_entry`: exception entry -> the handler's first instruction (stacking, vector fetch:
  15 cycles on vp-m0);
- `prologue`: the handler's first instruction -> the ISR's first instruction: the RTOS's
  interrupt prologue, the suite's counter read and its one-load-one-call dispatch (`irq.dispatch`);
- `isr_signal`: the ISR (`rtb_sem_signal_isr`, i.e. the RTOS's signal-from-ISR call, which
  readies the thread and asks for a switch);
- `epilogue_exit`: back in the handler -> the handler's exception return (or tail-chain):
  the RTOS's epilogue;
- `switch`: the handler's exit -> the woken thread's probe store: the context switch (PendSV
  or the kernel's own path), the scheduler's choice, the thread's return from its wait.

Two overlapping measures of the whole interval are given beside them: `masked`, cycles with
PRIMASK set (from the CPSID/CPSIE/MSR PRIMASK instructions in the trace; a section already
open at the edge counts from the edge), and `scheduler`, cycles spent in functions whose name
says they choose the next thread (SCHEDULER_FUNCS), and `handler_other`, cycles in other
exception handlers (PendSV, SVC) inside the interval.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PHASES = ("pending", "core_entry", "prologue", "isr_signal", "epilogue_exit", "switch")
EXTRA = ("masked", "scheduler", "handler_other")
# Functions that choose the next thread (FreeRTOS, ChibiOS/RT). rtoslab and baremetal choose
# inline, in PendSV_Handler and in the signal call: nothing to attribute by name there.
SCHEDULER_FUNCS = re.compile(
    r"(?i)(switchcontext|chSchDoPreemption|chSchIsPreemptionRequired|chSchDoReschedule|"
    r"chSchDoYieldS|_schedule|sched_run)")
STIM_IRQ_EXC = 17      # IRQ 1 (the stimulus rising edge), ARM exception number 16 + 1
ISR = "it_isr"
MARK = 0x52540000


def _vp_run(vp: str, elf: Path, args: list[str]) -> str:
    p = subprocess.run([vp, "run", str(elf), "--board", "vp-m0", *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"rtoslab-vp failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout


def find_samples(vp: str, elf: Path, metric: str, n: int, tmp: Path) -> tuple[list[tuple[int, int]], str]:
    """(stim rise, probe fall) of n warm samples of `metric`, and the firmware's console."""
    trace = tmp / "marks.jsonl"
    out = _vp_run(vp, elf, ["--trace", str(trace), "--trace-events", "mark,stim,probe"])
    names = [ln.split()[1] for ln in out.splitlines() if ln.startswith("@metric ")]
    if metric not in names:
        raise RuntimeError(f"{metric} not measured by this image")
    index = names.index(metric)
    inside, pairs, rise = False, [], None
    with open(trace) as f:
        for line in f:
            ev = json.loads(line)
            e = ev["e"]
            if e == "mark" and (ev["value"] & 0xFFFF0000) == MARK:
                inside = (ev["value"] & 0xFFFF) == index
                rise = None
            elif not inside:
                continue
            elif e == "stim" and ev["level"]:
                rise = ev["c"]
            elif e == "probe" and ev["changed"] & 1 and not ev["pins"] & 1 and rise is not None:
                pairs.append((rise, ev["c"]))
                rise = None
    warm = pairs[8:8 + n]
    if len(warm) < n:
        raise RuntimeError(f"only {len(pairs)} samples of {metric} found")
    return warm, out


def parse_itrace(path: Path):
    """Lines as (cycle, kind, a, b): kind 'i' (pc, symbol), 'entry' (exc), 'return' (exc),
    'tail' (from, exc)."""
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            c = int(p[0])
            if p[1] == "exc_entry":
                out.append((c, "entry", int(p[2]), None))
            elif p[1] == "exc_return":
                out.append((c, "return", int(p[2]), None))
            elif p[1] == "tail_chain":
                out.append((c, "tail", int(p[2]), int(p[3])))
            else:
                sym = p[2].split("+")[0]
                hw = p[3:]
                out.append((c, "i", sym, hw))
    return out


def _primask_change(hw: list[str]) -> bool | None:
    """True/False if the instruction sets/clears PRIMASK by CPSID/CPSIE, None otherwise (MSR
    PRIMASK's value is not in the trace: not counted)."""
    if hw and hw[0] == "b672":
        return True
    if hw and hw[0] == "b662":
        return False
    return None


def decompose_one(lines, rise: int, end: int, masked_at_rise: bool) -> dict:
    """Cut [rise, end) of the trace into the phases."""
    seg = [x for x in lines if rise <= x[0] < end]
    d = dict.fromkeys(PHASES + EXTRA, 0)
    entry = next(x for x in seg if x[1] == "entry" and x[2] == STIM_IRQ_EXC)
    i_entry = seg.index(entry)
    handler_start = next(x for x in seg[i_entry + 1:] if x[1] == "i")
    handler_sym = handler_start[2]
    i_h = seg.index(handler_start)
    isr_start = next(x for x in seg[i_h:] if x[1] == "i" and x[2] == ISR)
    i_isr = seg.index(isr_start)
    back = next(x for x in seg[i_isr:] if x[1] == "i" and x[2] == handler_sym)
    i_back = seg.index(back)
    exit_ = next(x for x in seg[i_back:] if (x[1] == "return" and x[2] == STIM_IRQ_EXC) or
                 (x[1] == "tail" and x[2] == STIM_IRQ_EXC))
    # exc_return/tail_chain lines are stamped at the end of the returning instruction
    d["pending"] = entry[0] - rise
    d["core_entry"] = handler_start[0] - entry[0]
    d["prologue"] = isr_start[0] - handler_start[0]
    d["isr_signal"] = back[0] - isr_start[0]
    d["epilogue_exit"] = exit_[0] - back[0]
    d["switch"] = end - exit_[0]
    # overlapping measures: each line lasts until the next one. Masked: from the completion
    # of CPSID (its own cycle is not masked) to the completion of CPSIE (its cycle is).
    masked = masked_at_rise
    if masked and seg:
        d["masked"] += seg[0][0] - rise
    depth = []  # exceptions entered inside the segment
    for k, x in enumerate(seg):
        dur = (seg[k + 1][0] if k + 1 < len(seg) else end) - x[0]
        if masked:
            d["masked"] += dur
        if x[1] == "entry":
            depth.append(x[2])
        elif x[1] == "return" and depth:
            depth.pop()
        elif x[1] == "tail" and depth:
            depth[-1] = x[3]
        elif x[1] == "i":
            if SCHEDULER_FUNCS.search(x[2]):
                d["scheduler"] += dur
            if depth and depth[-1] != STIM_IRQ_EXC:
                d["handler_other"] += dur
            ch = _primask_change(x[3])
            if ch is not None:
                masked = ch
    d["total"] = end - rise
    return d


def decompose(vp: str, elf: Path, n: int = 16, metric: str = "irq.to_thread") -> dict:
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        pairs, console = find_samples(vp, elf, metric, n, tmp)
        it = tmp / "it.txt"
        a, b = pairs[0][0] - 2000, pairs[-1][1] + 10
        _vp_run(vp, elf, ["--itrace", str(it), "--itrace-window", f"{a}:{b}"])
        lines = parse_itrace(it)
    # PRIMASK at each rise: replay CPSID/CPSIE from the window start (set before it: unknown,
    # taken as clear; the window starts 2000 cycles before the first sample, in thread code)
    samples = []
    for rise, end in pairs:
        masked = False
        for x in lines:
            if x[0] >= rise:
                break
            if x[1] == "i":
                ch = _primask_change(x[3])
                if ch is not None:
                    masked = ch
        samples.append(decompose_one(lines, rise, end, masked))
    keys = PHASES + EXTRA + ("total",)
    med = {k: sorted(s[k] for s in samples)[len(samples) // 2] for k in keys}
    rtos = next((ln.split("rtos=")[1].split()[0] for ln in console.splitlines() if ln.startswith("@run ")), "?")
    return {"rtos": rtos, "metric": metric, "n": len(samples), "median": med, "samples": samples}


def table(results: list[dict]) -> str:
    head = ["RTOS", *PHASES, "total", "(masked)", "(scheduler)", "(other handlers)"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        m = r["median"]
        rows.append("| " + " | ".join([r["rtos"], *[str(m[k]) for k in PHASES], str(m["total"]),
                                        str(m["masked"]), str(m["scheduler"]), str(m["handler_other"])]) + " |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rtoslab.latency", description=__doc__.split("\n\n")[0])
    ap.add_argument("images", nargs="+", type=Path)
    ap.add_argument("--vp", default="vp/target/release/rtoslab-vp")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    try:
        res = [decompose(a.vp, img, a.samples) for img in a.images]
    except (RuntimeError, OSError, ValueError) as e:   # one line, never a traceback
        print(f"rtoslab.latency: {e}", file=sys.stderr)
        return 4
    print(table(res))
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
