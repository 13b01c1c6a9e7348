"""The interrupt-to-thread latency taken apart (seed 003's latency model, docs/methodology.md,
"Latency decomposition"). `rtoslab latency --rtos all` (or `rtoslab run --latency-model`)
records it in each run of the result file (`latency_model`), from that run's own event trace;
`python -m rtoslab.latency IMAGE.elf [--samples N] [--json FILE]` does one image on its own.
Only the windows around the samples are traced, and each traced run stops at its window's end
(`--itrace-window A:B --max-cycles B`): the model costs a fraction of the image's run.

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

The model (seed 003): the deterministic part is the decomposition of the fastest warm sample;
the jitter part is the slowest warm sample's total minus the fastest's, over every warm sample
of the run (both are traced and cut, so the jitter is split by part too).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from .contract import EXIT_STATUS
from .contract import MARK_METRIC as MARK
from .contract import MARK_METRIC_MASK as MARK_MASK
from .runners import vp as vp_runner

PHASES = ("pending", "core_entry", "prologue", "isr_signal", "epilogue_exit", "switch")
EXTRA = ("masked", "scheduler", "handler_other")
# Functions that choose the next thread (FreeRTOS, ChibiOS/RT and NIL, CoOS `Schedule`, RIOT
# `sched_run`). rtoslab, baremetal and ThreadX (`__tx_ts_handler`, its PendSV) choose inline, in
# their PendSV handler and in the signal call: nothing to attribute by name there.
SCHEDULER_FUNCS = re.compile(
    r"(?i)(switchcontext|chSchDoPreemption|chSchIsPreemptionRequired|chSchDoReschedule|"
    r"chSchDoYieldS|_schedule|sched_run|^Schedule$)")
STIM_IRQ_EXC = 17      # IRQ 1 (the stimulus rising edge), ARM exception number 16 + 1
ISR = "it_isr"
CYCLE_LIMIT = next(s for s, (kind, _) in EXIT_STATUS.items() if kind == "cycle-limit")
WINDOW_LEAD = 2000     # instruction trace kept before a sample's edge (PRIMASK replayed from there)


def _vp_run(vp: str, elf: Path, board: str, args: list[str], stop_at: int | None = None) -> str:
    """Run the simulator; with stop_at, only up to that cycle (the cycle limit is then the
    expected end, status 124, not a failure)."""
    cmd = [vp, "run", str(elf), *vp_runner.board_args(board, args), *args]
    if stop_at is not None:
        cmd += ["--max-cycles", str(stop_at)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 and not (stop_at is not None and p.returncode == CYCLE_LIMIT):
        raise RuntimeError(f"rtoslab-vp failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    return p.stdout


def sample_pairs(events, index: int) -> list[tuple[int, int]]:
    """(stimulus rise, probe pin 0 fall) of every sample of metric number `index` (the order of
    the @metric lines), cold ones first, from the simulator's mark/stim/probe trace events:
    the same pairing as the probe's `from=stim` samples (stats.pair_probe_edges)."""
    inside, pairs, rise = False, [], None
    for ev in events:
        e = ev["e"]
        if e == "mark" and (ev["value"] & MARK_MASK) == MARK:
            inside = (ev["value"] & 0xFFFF) == index
            rise = None
        elif not inside:
            continue
        elif e == "stim" and ev["level"]:
            rise = ev["c"]
        elif e == "probe" and ev["changed"] & 1 and not ev["pins"] & 1 and rise is not None:
            pairs.append((rise, ev["c"]))
            rise = None
    return pairs


def read_events(trace: Path):
    """The mark, stim and probe events of a simulator trace file, one at a time."""
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            if '"mark"' in line or '"stim"' in line or '"probe"' in line:
                try:
                    yield json.loads(line)
                except ValueError:
                    continue


def find_samples(vp: str, elf: Path, board: str, metric: str, tmp: Path) -> tuple[list[tuple[int, int]], str]:
    """Every sample (rise, end) of `metric` from a whole run of the image, and its console."""
    trace = tmp / "marks.jsonl"
    out = _vp_run(vp, elf, board, ["--trace", str(trace), "--trace-events", "mark,stim,probe"])
    names = [ln.split()[1] for ln in out.splitlines() if ln.startswith("@metric ")]
    if metric not in names:
        raise RuntimeError(f"{metric} not measured by this image")
    return sample_pairs(read_events(trace), names.index(metric)), out


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


def _masked_before(lines, rise: int) -> bool:
    """PRIMASK at `rise`, replayed from the CPSID/CPSIE of the window before it (set before the
    window: unknown, taken as clear; each window starts WINDOW_LEAD cycles early)."""
    masked = False
    for x in lines:
        if x[0] >= rise:
            break
        if x[1] == "i":
            ch = _primask_change(x[3])
            if ch is not None:
                masked = ch
    return masked


def traced(vp: str, elf: Path, board: str, pairs: list[tuple[int, int]], tmp: Path) -> list[dict]:
    """Decompose the samples `pairs` (consecutive ones share one window) from one instruction
    trace of the window around them; the run stops at the window's end."""
    a, b = pairs[0][0] - WINDOW_LEAD, pairs[-1][1] + 10
    it = tmp / f"it-{a}.txt"
    _vp_run(vp, elf, board, ["--itrace", str(it), "--itrace-window", f"{a}:{b}"], stop_at=b)
    lines = parse_itrace(it)
    it.unlink()
    return [dict(decompose_one(lines, rise, end, _masked_before(lines, rise)), rise=rise)
            for rise, end in pairs]


def model(vp: str, elf: Path, board: str, pairs: list[tuple[int, int]], n: int = 16, cold: int = 8,
          metric: str = "irq.to_thread") -> dict:
    """The latency model of one image from every sample (rise, end) of `metric`: the first n
    warm samples decomposed (their median per part), and the fastest and the slowest warm
    sample decomposed too: the deterministic part is the fastest sample's parts, the jitter the
    slowest total minus the fastest, split by part."""
    warm = pairs[cold:]
    if len(warm) < 1:
        raise RuntimeError(f"only {len(pairs)} samples of {metric} found")
    totals = [e - r for r, e in warm]
    fast = min(range(len(warm)), key=totals.__getitem__)
    slow = max(range(len(warm)), key=totals.__getitem__)
    first = warm[:n]
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        samples = traced(vp, elf, board, first, tmp)
        for k in (fast, slow):
            if k >= len(first):
                samples += traced(vp, elf, board, [warm[k]], tmp)
    by_rise = {s["rise"]: s for s in samples}
    fastest, slowest = by_rise[warm[fast][0]], by_rise[warm[slow][0]]
    head = samples[:len(first)]
    keys = PHASES + EXTRA + ("total",)
    return {"metric": metric, "traced": len(head), "warm": len(warm),
            "median": {k: sorted(s[k] for s in head)[len(head) // 2] for k in keys},
            "deterministic": {k: fastest[k] for k in PHASES},
            "jitter": slowest["total"] - fastest["total"],
            "jitter_by_part": {k: slowest[k] - fastest[k] for k in PHASES},
            "total_min": fastest["total"], "total_max": slowest["total"],
            "fastest": fastest, "slowest": slowest, "samples": head}


def decompose(vp: str, elf: Path, n: int = 16, metric: str = "irq.to_thread", board: str | None = None) -> dict:
    """The model of one image on its own: a whole run finds the samples, then the windows."""
    with tempfile.TemporaryDirectory() as td:
        pairs, console = find_samples(vp, elf, board, metric, Path(td))
    rtos = next((ln.split("rtos=")[1].split()[0] for ln in console.splitlines() if ln.startswith("@run ")), "?")
    return dict(model(vp, elf, board, pairs, n, metric=metric), rtos=rtos)


def from_run(vp: str, elf: Path, board: str, trace: Path | None, transcript, n: int = 16,
             metric: str = "irq.to_thread") -> dict:
    """The model of an image `rtoslab run` has just run, from that run's event trace (no second
    whole run): what goes into the run's `latency_model`. A metric the image did not measure,
    or a trace the model cannot cut, is said so (`absent`, `error`), never a number."""
    m = next((m for m in transcript.metrics.values() if m.id == metric), None)
    if m is None or not m.complete:
        why = transcript.absent.get(metric) or f"{metric} was not measured"
        return {"metric": metric, "absent": why}
    if trace is None:
        return {"metric": metric, "error": "no event trace (the run had --no-probe)"}
    try:
        return model(vp, elf, board, sample_pairs(read_events(trace), m.index), n, m.cold, metric)
    except (RuntimeError, OSError, ValueError, StopIteration) as e:
        return {"metric": metric, "error": f"cannot decompose: {e or type(e).__name__}"}


def table(results: list[dict]) -> str:
    """Markdown: the median of each part over the traced samples, the overlapping measures in
    brackets, and the model: the fastest and slowest warm sample and the jitter between them."""
    head = ["RTOS", *PHASES, "total", "(masked)", "(scheduler)", "(other handlers)",
            "fastest", "slowest", "jitter"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        m = r["median"]
        cells = [r["rtos"], *[m[k] for k in PHASES], m["total"], m["masked"], m["scheduler"],
                 m["handler_other"], r["total_min"], r["total_max"], r["jitter"]]
        rows.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(rows)


LEGEND = (
    "pending: stimulus edge -> exception entry; core_entry: stacking and vector fetch; prologue: "
    "the handler's start -> the ISR; isr_signal: the RTOS's signal-from-ISR call; epilogue_exit: "
    "the ISR's return -> the handler's exception return; switch: -> the woken thread's probe store; "
    "total: their sum. In brackets, overlapping measures of the same interval: masked (PRIMASK "
    "set), scheduler (functions choosing the next thread), other handlers (PendSV, SVC). fastest "
    "and slowest: the warm samples' extremes, jitter = slowest - fastest (seed 003's model; "
    "docs/methodology.md, 'Latency decomposition')")


def run_table(runs: list[dict]) -> str:
    """The table of the runs of a result file that have a latency model, and one line for
    each that has none (absent, or why it could not be cut); its unit and columns said first."""
    have = [dict(r["latency_model"], rtos=r["rtos"]) for r in runs if "median" in r.get("latency_model", {})]
    boards = sorted({f"{r['board']} at {r['clock_hz'] / 1e6:g} MHz" for r in runs
                     if "median" in r.get("latency_model", {}) and r.get("clock_hz")})
    lines = [f"irq.to_thread taken apart, in cycles ({'; '.join(boards) or 'the board clock'}), "
             "the median of each part over the traced warm samples", table(have), "", LEGEND] if have else []
    for r in runs:
        lm = r.get("latency_model", {"error": "no latency model in this run"})
        if "median" not in lm:
            lines.append(f"{r['rtos']}: {'absent: ' + lm['absent'] if 'absent' in lm else lm.get('error')}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rtoslab.latency", description=__doc__.split("\n\n")[0])
    ap.add_argument("images", nargs="+", type=Path)
    ap.add_argument("--vp", default="vp/target/release/rtoslab-vp")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    try:
        res = [decompose(a.vp, img, a.samples) for img in a.images]
    except (RuntimeError, OSError, ValueError, StopIteration) as e:   # one line, never a traceback
        print(f"rtoslab.latency: {e}", file=sys.stderr)
        return 4
    print(table(res))
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
