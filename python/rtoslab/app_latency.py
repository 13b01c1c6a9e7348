"""An application's latency per RTOS from measured costs: seed 003's model (§2.7.2).

    t_det    = t_app + sum_i x_os^i * t_os^i + sum_i x_isr^i * t_isr^i
    t_jitter = t_tick + t_int + t_cache + t_daem

`rtoslab latency --app FILE --results RESULT.json` reads an application file (TOML: what one
activation of the application does, docs/latency-app-seed003.toml is seed 003's scenario) and a
result file of `rtoslab run --json`, and gives per RTOS of that file:

- typical: t_app + every service and interrupt at its median (p50);
- worst: t_app + every service and interrupt at its maximum, plus the jitter by source:
  - `tick`: one time-keeping interrupt of the RTOS's periodic tick, its mean cost measured by
    the simulator (time.tick_fraction.load's handler cycles over the ticks of its window, at the
    RTOS's tick_hz); 0 on a tick-less RTOS (no periodic interrupt: its timer interrupts come at
    the deadlines the application asks for, which are its own services);
  - `interrupts`: the other interrupts the file says may arrive during an activation, each
    its handler's own cycles plus the RTOS's measured path (a metric's max);
  - `masked`: the longest interrupts-off section of the whole run (irq.masked_max: seed 003
    §2.3 and §2.4.2), by which the activation's own interrupt may be held off;
  - `cache`: 0 on a board with no cache and no flash wait states (every fetch costs the same);
    elsewhere not estimated apart: the maxima of the services hold the flash system's misses;
  - `daemons`: not modelled (null): no RTOS of the suite runs a background thread of its own
    in the suite's configuration unless the application uses its software timers.
Where an RTOS lacks a service the application uses, its row gives the reason instead.

The figures are cycles of the run's board clock (the result file's) and microseconds.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

from .errors import BadInput

JITTER_SOURCES = ("tick", "interrupts", "masked", "cache", "daemons")


def load_app(path: Path) -> dict:
    """The application file, checked: one clear BadInput for anything wrong."""
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise BadInput(f"{path}: cannot read the application file ({e.strerror or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"{path}: not TOML ({e})") from None
    app = doc.get("app_cycles", 0)
    if not isinstance(app, int) or app < 0:
        raise BadInput(f"{path}: app_cycles must be a whole number of cycles >= 0")
    for sect in ("services", "interrupts"):
        table = doc.get(sect, {})
        if not isinstance(table, dict) or not all(isinstance(v, int) and v >= 0 for v in table.values()):
            raise BadInput(f"{path}: [{sect}] maps metric ids to counts per activation (whole numbers >= 0)")
    jit = doc.get("jitter", {})
    if not isinstance(jit, dict):
        raise BadInput(f"{path}: [jitter] must be a table")
    for k, v in enumerate(jit.get("interrupt", [])):
        if not (isinstance(v, dict) and isinstance(v.get("count", 1), int) and isinstance(v.get("isr_cycles", 0), int)
                and isinstance(v.get("path", ""), str)):
            raise BadInput(f"{path}: [[jitter.interrupt]] number {k + 1}: count, isr_cycles (whole numbers) "
                           "and path (a metric id)")
    return doc


def _metrics(run: dict) -> tuple[dict, dict]:
    res = {m["id"]: m for m in run.get("results", [])}
    absent = {a["id"]: a.get("reason", "absent") for a in run.get("absent", [])}
    return res, absent


def _cost(res: dict, absent: dict, mid: str, stat: str) -> int:
    m = res.get(mid)
    if m is None:
        raise LookupError(absent.get(mid) or f"{mid} is not in the result file")
    if m.get("unit", "cycles") != "cycles":
        raise LookupError(f"{mid} is not a cost in cycles (unit {m.get('unit')})")
    return int(m[stat])


def _tick(run: dict, res: dict) -> tuple[int | None, str]:
    cfg = run.get("config", {})
    tickless = str(cfg.get("tickless", "")).lower().startswith("yes")
    hz = str(cfg.get("tick_hz", "")).strip()
    if not hz.isdigit() and not tickless and str(cfg.get("time_hz", "")).strip().isdigit():
        hz = str(cfg["time_hz"]).strip()  # a ticking kernel counts its time in ticks (ThreadX)
    if not hz.isdigit():
        if tickless or hz.startswith("none"):
            return 0, "tick-less: no periodic tick"
        return None, "not known: the port reports no tick rate"
    frac = res.get("time.tick_fraction.load")
    if not frac or not frac.get("window_cycles"):
        return None, "not measured (time.tick_fraction.load is a simulator record)"
    clock = run.get("clock_hz") or 0
    ticks = frac["window_cycles"] * int(hz) / clock if clock else 0
    if ticks < 1:
        return None, "no tick in the measured window"
    return round(frac["handler_cycles"] / ticks), f"mean of {ticks:.0f} ticks at {hz} Hz (time.tick_fraction.load)"


def model_run(app: dict, run: dict, board_quiet_memory: bool) -> dict:
    """One RTOS's row: the parts, the typical and the worst latency, or the reason it has none."""
    res, absent = _metrics(run)
    out = {"rtos": run.get("rtos"), "board": run.get("board"), "clock_hz": run.get("clock_hz")}
    try:
        app_c = int(app.get("app_cycles", 0))
        os_parts = {mid: {"count": x, "p50": _cost(res, absent, mid, "p50"), "max": _cost(res, absent, mid, "max")}
                    for mid, x in app.get("services", {}).items()}
        isr_parts = {mid: {"count": x, "p50": _cost(res, absent, mid, "p50"), "max": _cost(res, absent, mid, "max")}
                     for mid, x in app.get("interrupts", {}).items()}
        jit = app.get("jitter", {})
        jitter, why = {}, {}
        if jit.get("tick", False):
            jitter["tick"], why["tick"] = _tick(run, res)
        else:
            jitter["tick"], why["tick"] = 0, "not asked (the application file's jitter.tick)"
        others = 0
        for irq in jit.get("interrupt", []):
            path = irq.get("path", "")
            others += int(irq.get("count", 1)) * (int(irq.get("isr_cycles", 0)) +
                                                  (_cost(res, absent, path, "max") if path else 0))
        jitter["interrupts"], why["interrupts"] = others, "the file's other interrupts: handler + the RTOS's path (max)"
        if jit.get("masked", False):
            m = res.get("irq.masked_max")
            jitter["masked"] = int(m["max"]) if m else 0
            why["masked"] = ("the longest interrupts-off section of the run (irq.masked_max)" if m
                             else "not measured (irq.masked_max is a simulator record)")
        else:
            jitter["masked"], why["masked"] = 0, "not asked (the application file's jitter.masked)"
        jitter["cache"] = 0
        why["cache"] = ("no cache and no flash wait states on this board" if board_quiet_memory
                        else "not apart: each service's max holds the flash system's misses")
        jitter["daemons"], why["daemons"] = None, "not modelled"
    except LookupError as e:
        out["missing"] = str(e.args[0])
        return out
    t_os_typ = sum(p["count"] * p["p50"] for p in os_parts.values())
    t_os_max = sum(p["count"] * p["max"] for p in os_parts.values())
    t_isr_typ = sum(p["count"] * p["p50"] for p in isr_parts.values())
    t_isr_max = sum(p["count"] * p["max"] for p in isr_parts.values())
    t_jitter = sum(v for v in jitter.values() if v is not None)
    out.update({
        "app": app_c, "services": os_parts, "interrupts": isr_parts,
        "t_os": {"typical": t_os_typ, "worst": t_os_max},
        "t_isr": {"typical": t_isr_typ, "worst": t_isr_max},
        "jitter": jitter, "jitter_basis": why, "t_jitter": t_jitter,
        "typical": app_c + t_os_typ + t_isr_typ,
        "worst": app_c + t_os_max + t_isr_max + t_jitter,
    })
    return out


def load_results(path: Path) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            runs = json.load(f)["runs"]
    except OSError as e:
        raise BadInput(f"{path}: cannot read the result file ({e.strerror or e})") from None
    except (ValueError, KeyError, TypeError):
        raise BadInput(f"{path}: not a result file of `rtoslab run --json`") from None
    if not isinstance(runs, list) or not runs:
        raise BadInput(f"{path}: the result file has no runs")
    return runs


def _quiet_memory(board: str | None) -> bool:
    """No cache and no flash wait states: every fetch of the board costs the same."""
    from . import boards
    b = boards.registry().get(board or "")
    return b is not None and b.wait_states == 0 and b.accelerator == "none"


def model(app: dict, runs: list[dict]) -> list[dict]:
    return [model_run(app, r, _quiet_memory(r.get("board"))) for r in runs]


def _us(c: int | None, hz: int | None) -> str:
    return "" if c is None or not hz else f" ({c * 1e6 / hz:.2f} µs)"


def table(app: dict, rows: list[dict]) -> str:
    name = app.get("name", "the application")
    lines = [f"{name}: one activation, seed 003's model (t_det + t_jitter), cycles",
             f"{'rtos':<12} {'typical':>24} {'worst':>24}   jitter by source (worst)"]
    for r in rows:
        if "missing" in r:
            lines.append(f"{r['rtos']:<12} {'—':>24} {'—':>24}   lacks a service: {r['missing']}")
            continue
        hz = r.get("clock_hz")
        src = ", ".join(f"{k} {r['jitter'][k]}" if r["jitter"][k] is not None else f"{k} n/a"
                        for k in JITTER_SOURCES)
        lines.append(f"{r['rtos']:<12} {str(r['typical']) + _us(r['typical'], hz):>24} "
                     f"{str(r['worst']) + _us(r['worst'], hz):>24}   {src}")
    return "\n".join(lines)
