"""Energy figures of a run (docs/methodology.md, "Energy"): the board's energy model
(board.toml [energy], `boards.Energy`) applied to the simulator's record of the core's state.

The simulator's profile (`rtoslab-vp --masked`, masked.profile) gives each metric's window in
cycles by context: `sleep` (WFI/WFE), `deep_sleep` (SLEEPDEEP: Stop), `wakeup` (the wake-up
from Stop, at run current), the rest ran. From it:

- `energy.idle_uA`: the average current of `energy.idle_window` (every thread waits 1 s);
- `energy.duty_uA`: that of `energy.duty_window` (wake, work, sleep: the battery view);
- `energy.per_switch_nC`: the charge of one `rhealstone.task_switch` (its mean cycles at the
  run current), with every hot path's in `hot_paths_nC`.

A board without a model gives none of them.
"""
from __future__ import annotations

import sys

from . import contract
from .errors import BadInput

WINDOWS = {"energy.idle_uA": "energy.idle_window", "energy.duty_uA": "energy.duty_window"}
# the battery of the battery-life view: a CR2032 coin cell's nominal capacity
BATTERY_MAH = 225.0
SLEEP_STATES = ("sleep", "deep_sleep", "wakeup")


def charge_nC(segment: dict, model, clock_hz: int) -> dict:
    """The charge of one profile segment by state, in nC (cycles x nA / Hz)."""
    cycles = segment["cycles"]
    sleep, deep, wake = (int(segment.get(k, 0)) for k in SLEEP_STATES)
    run = cycles - sleep - deep - wake
    na = model.nA()
    return {"run": run * na["run_flash_ua"] / clock_hz, "sleep": sleep * na["sleep_ua"] / clock_hz,
            "deep": deep * na["deep_ua"] / clock_hz, "wakeup": wake * na["run_flash_ua"] / clock_hz}


def _single(mid: str, unit: str, v: float, extra: dict) -> dict:
    return {"id": mid, "unit": unit, "n": 1, "min": v, "p50": v, "mean": v, "p99": v, "max": v,
            "stdev": 0.0, "cold": 0, "cold_stats": None, "source": "simulator", "samples": [v], **extra}


def results(segments: dict, measured: list[dict], model, clock_hz: int) -> list[dict]:
    """The energy.* entries of a run: `segments` is masked.profile's (metric id -> its cycles by
    context), `measured` the run's result entries."""
    if model is None or not clock_hz:
        return []
    out = []
    for mid, window in WINDOWS.items():
        seg = segments.get(window)
        if not seg or not seg.get("cycles"):
            continue
        q = charge_nC(seg, model, clock_hz)
        seconds = seg["cycles"] / clock_hz
        ua = round(sum(q.values()) / seconds / 1000.0, 4)
        extra = {"window": window, "window_cycles": seg["cycles"],
                 "state_cycles": {k: int(seg.get(k, 0)) for k in SLEEP_STATES},
                 "charge_nC": {k: round(v, 3) for k, v in q.items()}}
        if mid == "energy.duty_uA":
            extra["battery"] = {"capacity_mAh": BATTERY_MAH, "days": round(BATTERY_MAH / (ua / 1000.0) / 24, 1)}
        out.append(_single(mid, "uA", ua, extra))
    means = {e["id"]: e.get("mean") for e in measured if e.get("unit") == "cycles"}
    run_na = model.nA()["run_flash_ua"]
    per_op = {hp: round(means[hp] * run_na / clock_hz, 4) for hp in contract.HOT_PATHS if means.get(hp) is not None}
    if "rhealstone.task_switch" in per_op:
        out.append(_single("energy.per_switch_nC", "nC", per_op["rhealstone.task_switch"],
                           {"run_nA": run_na, "hot_paths_nC": per_op}))
    return out


def _entry(run: dict, mid: str) -> dict | None:
    return next((e for e in run.get("results", []) if e.get("id") == mid), None)


def battery_rows(runs: list[dict], label) -> list[dict]:
    """The battery-life view (report.py): per run with energy figures, its idle current, the
    duty-cycle application's current and its life on the BATTERY_MAH cell, the charge of one
    switch, and how its idle sleeps (the port's manifest, `[idle]`)."""
    from . import ports
    rows = []
    for r in runs:
        idle, duty, sw = (_entry(r, m) for m in ("energy.idle_uA", "energy.duty_uA", "energy.per_switch_nC"))
        if not (idle or duty):
            continue
        try:
            how = dict(ports.get(r.get("rtos", "")).idle)
        except Exception:  # a result of a port this checkout does not have
            how = {}
        rows.append({"label": label(r), "idle_uA": idle and idle["mean"], "duty_uA": duty and duty["mean"],
                     "days": duty and duty.get("battery", {}).get("days"), "switch_nC": sw and sw["mean"],
                     "tickless": how.get("tickless"), "deep_sleep": how.get("deep_sleep")})
    return rows


def battery_md(runs: list[dict], label) -> list[str]:
    rows = battery_rows(runs, label)
    if not rows:
        return []
    cfg = next((r.get("config", {}) for r in runs if r.get("config", {}).get("energy.duty_work_cycles")), {})
    app = (f"sleeps {cfg.get('energy.duty_sleep_us', '?')} us after each {cfg.get('energy.duty_work_cycles', '?')} "
           "cycles of work")
    yn = {True: "yes", False: "no", None: "?"}
    out = ["", "## Energy and battery life", "",
           "The board's energy model (board.toml [energy]: the part's datasheet currents) over the "
           "simulator's record of the core's state: `energy.idle_uA`, every thread waiting 1 s; "
           f"`energy.duty_uA`, an application that {app}; its life on a {BATTERY_MAH:g} mAh cell "
           "(the MCU alone); the charge of one task switch.", "",
           "| run | tick-less | deep sleep | idle uA | duty-cycle uA | days | switch nC |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [(r["idle_uA"], ".1f"), (r["duty_uA"], ".1f"), (r["days"], ".1f"), (r["switch_nC"], ".2f")]
        out.append(f"| {r['label']} | {yn[r['tickless']]} | {yn[r['deep_sleep']]} | "
                   + " | ".join("" if v is None else format(v, f) for v, f in cells) + " |")
    return out


def main(argv: list[str]) -> int:
    """`python -m rtoslab.energy RESULTS.json...`: the battery-life table of result files
    (docs/results.md, "Energy"), one row per run with energy figures, labelled RTOS@board."""
    from . import results as res
    if not argv:
        print("usage: python -m rtoslab.energy RESULTS.json...", file=sys.stderr)
        return 2
    runs = []
    for p in argv:
        try:
            runs += res.load(p)["runs"]
        except (OSError, ValueError, KeyError, BadInput) as e:
            print(f"rtoslab.energy: {p}: {e}", file=sys.stderr)
            return 2
    print("\n".join(battery_md(runs, lambda r: f"{r.get('rtos')}@{r.get('board')}")[5:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
