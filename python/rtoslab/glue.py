"""The port glue's own cost per metric (docs/methodology.md, "Glue at parity"): the cycles
between the suite's call and the RTOS's API entry and back, measured, so that glue can never
hide in an RTOS's figure.

From the simulator's instruction trace of a few warm samples of each hot path (the probe pin 0
window of a sample, or for `irq.to_thread` the stimulus edge to the pin's fall), every retired
instruction's cycles (the next instruction's start minus its own) go to the owner of its
address, from the image's DWARF line table (the innermost source line, so code of
`rtb_port_inline.h` inlined into a test function is still the port's):

- `glue`: code from the port's folder, bench/ports/<id>/ (port.c, rtb_port_inline.h,
  rtb_port_isr.h), and the suite's one copy the ports make (bench/include/rtb_copy.h): the
  call's argument set-up, the index-to-handle lookup, the timeout conversion, the result
  mapping, the copy; the branch into the RTOS too (an application pays that one as well);
- `rtos`: the RTOS's code (its sources, its headers' inline functions, its exception handlers);
- `suite`: the suite's code (bench/suite, bench/include, the board's support), the instrument's
  two counter reads and pin stores included (the pin window is wider than the counter interval);
- `core`: exception entry and return (stacking, vector fetch) and an interrupt's pending time;
- C library and compiler helpers (memcpy, __aeabi_uidiv) have no line table here: their cycles
  go to the owner of the code that called them (the last owner before at the same exception
  depth), so newlib's memcpy in a port's queue copy is glue.

A port whose manifest says `glue_is_kernel` (the floor: its folder is its kernel) has no glue:
its folder's code counts as rtos.

`python -m rtoslab.glue IMAGE.elf --rtos ID` does one image; `rtoslab run --glue` records each
run's `glue` in the result file (from that run's own event trace: only the windows are traced).
"""
from __future__ import annotations

import argparse
import bisect
import json
import sys
import tempfile
from pathlib import Path

from . import latency
from .components import classify_path
from .contract import HOT_PATHS

OWNERS = ("suite", "glue", "rtos", "core")
# The suite's helpers that are the ports' glue, wherever they are inlined: the one message copy
# of the ports whose RTOS passes pointers only.
GLUE_HELPERS = ("/bench/include/rtb_copy.h",)
TRACED = 8   # warm samples traced per metric (consecutive: one window, one partial run)


class LineOwners:
    """The owner of each code address, from an ELF's DWARF line table (None: no line, i.e.
    the C library and the compiler's helpers, built without -g)."""

    def __init__(self, starts: list[int], owners: list[str | None]):
        self.starts, self.owners = starts, owners

    @classmethod
    def from_elf(cls, elf: Path, port_dir: str, glue_is_kernel: bool = False,
                 glue_paths: tuple[str, ...] = ()) -> LineOwners:
        from elftools.elf.elffile import ELFFile
        rows: list[tuple[int, str | None]] = []
        with open(elf, "rb") as f:
            dwarf = ELFFile(f).get_dwarf_info()
            for cu in dwarf.iter_CUs():
                lp = dwarf.line_program_for_CU(cu)
                if lp is None:
                    continue
                comp_dir = cu.get_top_DIE().attributes.get("DW_AT_comp_dir")
                comp_dir = comp_dir.value.decode(errors="replace") if comp_dir else ""
                files = _file_names(lp, comp_dir)
                for e in lp.get_entries():
                    s = e.state
                    if s is None:
                        continue
                    if s.end_sequence:
                        rows.append((s.address, None))
                    else:
                        rows.append((s.address, owner_of_path(files(s.file), port_dir, glue_is_kernel, glue_paths)))
        rows.sort(key=lambda r: r[0])
        return cls([a for a, _ in rows], [o for _, o in rows])

    def owner(self, addr: int) -> str | None:
        i = bisect.bisect_right(self.starts, addr) - 1
        return self.owners[i] if i >= 0 else None


def _file_names(lp, comp_dir: str):
    """file index -> path, for DWARF 4 (1-based) and 5 (0-based) line programs."""
    hdr = lp.header
    dirs = [d.decode(errors="replace") if isinstance(d, bytes) else str(d)
            for d in hdr.get("include_directory", [])]
    entries = hdr.get("file_entry", [])
    v5 = hdr.get("version", 4) >= 5

    def name(i: int) -> str:
        k = i if v5 else i - 1
        if not 0 <= k < len(entries):
            return ""
        fe = entries[k]
        n = fe.name.decode(errors="replace") if isinstance(fe.name, bytes) else str(fe.name)
        di = fe.dir_index
        d = (dirs[di] if di < len(dirs) else "") if v5 else (dirs[di - 1] if 0 < di <= len(dirs) else comp_dir)
        if n.startswith("/"):
            return n
        if d and not d.startswith("/"):
            d = f"{comp_dir}/{d}"
        return f"{d}/{n}" if d else n
    return name


def owner_of_path(path: str, port_dir: str, glue_is_kernel: bool = False,
                  glue_paths: tuple[str, ...] = ()) -> str | None:
    """Owner of a source file: glue (the port's folder, its manifest's `glue_paths`), suite
    (the rest of bench/ and the board's generated support), rtos (anything else with source);
    None for the C library."""
    p = "/" + path.replace("\\", "/").lstrip("/")
    if not path or classify_path(p) == "libc":
        return None
    if (f"/bench/ports/{port_dir}/" in p or p.endswith(GLUE_HELPERS)
            or any(_is_under(p, g) for g in glue_paths)):
        return "rtos" if glue_is_kernel else "glue"
    if "/bench/" in p or "/board/" in p:
        return "suite"
    return "rtos"


def _is_under(path: str, glue_path: str) -> bool:
    """`path` (absolute) is the file `glue_path` or in the folder `glue_path` (ending in /)."""
    g = "/" + glue_path.lstrip("/")
    return g in path if g.endswith("/") else path.endswith(g)


def parse_itrace(path: Path) -> list[tuple[int, str, int]]:
    """Lines as (cycle, kind, value): kind 'i' (value: pc), 'entry', 'return' (exception
    number), 'tail' (the exception chained into)."""
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3:
                continue
            c = int(p[0])
            if p[1] == "exc_entry":
                out.append((c, "entry", int(p[2])))
            elif p[1] == "exc_return":
                out.append((c, "return", int(p[2])))
            elif p[1] == "tail_chain":
                out.append((c, "tail", int(p[3])))
            elif p[1].startswith("0x"):
                out.append((c, "i", int(p[1], 16)))
    return out


def attribute(lines: list[tuple[int, str, int]], owner_of, start: int, end: int) -> dict:
    """Cycles of [start, end) by owner. Each line lasts until the next line starts; an
    instruction's cycles go to its address's owner (owner_of(pc); None: the caller's, the last
    owner seen at the same exception depth); exception entry, return and tail-chaining to
    `core`, as does the time before the first line."""
    d = dict.fromkeys(OWNERS, 0)
    caller = ["suite"]          # per exception depth: the last owner of a line with source
    cur = "core"
    for k, (c, kind, v) in enumerate(lines):
        if kind == "entry":
            caller.append("rtos")
            cur = "core"
        elif kind == "return":
            if len(caller) > 1:
                caller.pop()
            cur = "core"
        elif kind == "tail":
            cur = "core"
        else:
            o = owner_of(v)
            if o is None:
                cur = caller[-1]
            else:
                cur = caller[-1] = o
        nxt = lines[k + 1][0] if k + 1 < len(lines) else end
        a, b = max(c, start), min(nxt, end)
        if b > a:
            d[cur] += b - a
    first = next((c for c, _, _ in lines if c >= start), end)
    if lines and lines[0][0] > start:   # nothing traced before the window: its head is unknown
        d["core"] += min(first, end) - start
    d["total"] = end - start
    return d


def pin_pairs(events, index: int) -> list[tuple[int, int]]:
    """(probe pin 0 rise, fall) of every sample of metric number `index`, cold ones first:
    the pin window of the suite's t_start()/t_stop()."""
    inside, pairs, rise = False, [], None
    for ev in events:
        e = ev["e"]
        if e == "mark" and (ev["value"] & latency.MARK_MASK) == latency.MARK:
            inside = (ev["value"] & 0xFFFF) == index
            rise = None
        elif inside and e == "probe" and ev["changed"] & 1:
            if ev["pins"] & 1:
                rise = ev["c"]
            elif rise is not None:
                pairs.append((rise, ev["c"]))
                rise = None
    return pairs


def traced(vp: str, elf: Path, board: str, pairs: list[tuple[int, int]], owners: LineOwners,
           tmp: Path) -> list[dict]:
    """Attribute the samples `pairs` (consecutive) from one instruction trace around them."""
    a, b = max(0, pairs[0][0] - latency.WINDOW_LEAD), pairs[-1][1] + 10
    it = tmp / f"glue-{a}.txt"
    latency._vp_run(vp, elf, board, ["--itrace", str(it), "--itrace-window", f"{a}:{b}"], stop_at=b)
    lines = parse_itrace(it)
    it.unlink()
    return [attribute(lines, owners.owner, r, e) for r, e in pairs]


def metric_glue(samples: list[dict]) -> dict:
    """The median of each owner over the traced samples, and the sample count."""
    n = len(samples)
    return {**{k: sorted(s[k] for s in samples)[n // 2] for k in (*OWNERS, "total")}, "traced": n}


def from_run(vp: str, elf: Path, board: str, trace: Path | None, transcript, rtos: str,
             port_dir: str | None = None, glue_is_kernel: bool = False,
             glue_paths: tuple[str, ...] = (), metrics: tuple[str, ...] = HOT_PATHS) -> dict:
    """The glue of each of `metrics` an image has just measured, from that run's event trace:
    {metric: {suite, glue, rtos, core, total, traced} | {absent} | {error}}."""
    if trace is None:
        return {"error": "no event trace (the run had --no-probe)"}
    try:
        owners = LineOwners.from_elf(elf, port_dir or rtos, glue_is_kernel, glue_paths)
    except (OSError, ValueError) as e:
        return {"error": f"no line table: {e}"}
    by_id = {m.id: m for m in transcript.metrics.values()}
    events = list(latency.read_events(trace))
    out: dict = {}
    with tempfile.TemporaryDirectory() as td:
        for mid in metrics:
            m = by_id.get(mid)
            if m is None or not m.complete:
                out[mid] = {"absent": transcript.absent.get(mid) or f"{mid} was not measured"}
                continue
            pairs = (latency.sample_pairs(events, m.index) if m.probe_from == "stim"
                     else pin_pairs(events, m.index))
            warm = pairs[m.cold:][:TRACED]
            if not warm:
                out[mid] = {"error": "no probe window found for its samples"}
                continue
            try:
                out[mid] = metric_glue(traced(vp, elf, board, warm, owners, Path(td)))
            except (RuntimeError, OSError, ValueError) as e:
                out[mid] = {"error": f"cannot attribute: {e or type(e).__name__}"}
    return out


def rows(runs: list[dict], metrics: tuple[str, ...] = HOT_PATHS) -> tuple[list[str], list[list[str]]]:
    """(header, rows): the glue cycles (median of the traced warm samples) of each metric and
    RTOS, with the RTOS's own cycles after the slash; '-' where the metric is absent. No rows
    when no run was traced (`rtoslab run --glue`)."""
    have = [r for r in runs if isinstance(r.get("glue"), dict) and "error" not in r["glue"]]
    if not have:
        return [], []
    head = ["metric (glue / rtos cycles)", *[r["rtos"] for r in have]]
    out = []
    for mid in metrics:
        cells = []
        for r in have:
            g = r["glue"].get(mid, {})
            cells.append(f"{g['glue']} / {g['rtos']}" if "glue" in g else "-")
        if any(c != "-" for c in cells):
            out.append([mid, *cells])
    return head, out


def table(runs: list[dict], metrics: tuple[str, ...] = HOT_PATHS) -> str:
    """The same as Markdown ('' when no run was traced)."""
    head, body = rows(runs, metrics)
    if not head:
        return ""
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                     + ["| " + " | ".join(r) + " |" for r in body])


def main(argv: list[str] | None = None) -> int:
    from .runners.vp import find_vp
    from . import protocol
    from .manifest import repo_root
    ap = argparse.ArgumentParser(prog="python -m rtoslab.glue", description=__doc__.split("\n\n")[0])
    ap.add_argument("elf", type=Path)
    ap.add_argument("--rtos", required=True, help="the port's id (its folder bench/ports/<id>/)")
    ap.add_argument("--board", default="vp-m0")
    ap.add_argument("--json", type=Path, help="write the result here too")
    a = ap.parse_args(argv)
    if not a.elf.is_file():
        print(f"glue: no such image: {a.elf}", file=sys.stderr)
        return 2
    from . import ports
    port = ports.registry().get(a.rtos)
    vp = find_vp(repo_root())
    with tempfile.TemporaryDirectory() as td:
        trace = Path(td) / "marks.jsonl"
        console = latency._vp_run(vp, a.elf, a.board, ["--trace", str(trace),
                                                       "--trace-events", "mark,stim,probe"])
        res = from_run(vp, a.elf, a.board, trace, protocol.parse(console), a.rtos,
                       glue_is_kernel=bool(port and port.glue_is_kernel))
    print(table([{"rtos": a.rtos, "glue": res}]) or json.dumps(res))
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
