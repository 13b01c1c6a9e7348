#!/usr/bin/env python3
"""Checks of the live-register variants (`<id>.live`, docs/methodology.md) on transcripts the
suite stage has already made (no simulation of its own; milliseconds):

    live_variants.py RTOS=TRANSCRIPT ...

1. Each RTOS reports every hot path and its `.live` variant alike: both measured, or both
   absent with the same reason.
2. The eight values really are live in registers across the call: rtoslab's yield and
   semaphore wait are light calls that preserve only r7 of r4-r11 (kernel/arch/cortexm:
   "bl z_yield_l" clobbers r0-r6, r8-r12; "bl z_sem_wait_l" r0-r6, r8-r12 with its operands in
   r0, r1), so a caller that keeps eight values in registers must store and reload at least
   seven of them around the call. The cheapest possible way is one STM and one LDM of seven
   registers, 1 + 7 cycles each on ARMv6-M (Cortex-M0 TRM, r0p0, 3.3 "Instruction set
   summary"; GCC uses a STR and an LDR per value, 2 cycles each). On an ARMv6-M board the
   `.live` p50 must exceed the plain one by at least 16 cycles on those two hot paths; if the
   values stopped being live (the suite's LIVE_HOLD dropped), the two would be equal and this
   fails.
Prints one line per check ("ok ..."/"FAIL ..."); exit 1 on a failure, 2 on bad input.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rtoslab import protocol, stats
from rtoslab.contract import HOT_PATHS, HOT_PATHS_LIVE

# hot paths whose rtoslab call is a light call that keeps one of r4-r11 (see above)
LIGHT = ("rhealstone.task_switch", "sem.wait_available")
MIN_SPILL_CYCLES = 2 * (1 + 7)  # seven values: one STM and one LDM, 1 + 7 cycles each


def p50(metric: protocol.Metric) -> float:
    return stats.metric_stats(metric.samples, metric.cold)["p50"]


def main(argv: list[str]) -> int:
    if not argv or any("=" not in a for a in argv):
        print("usage: live_variants.py RTOS=TRANSCRIPT ...", file=sys.stderr)
        return 2
    failed = 0

    def report(ok: bool, what: str) -> None:
        nonlocal failed
        failed += not ok
        print(("ok   " if ok else "FAIL ") + what)

    for arg in argv:
        rtos, path = arg.split("=", 1)
        try:
            t = protocol.parse(Path(path).read_text(errors="replace"))
        except OSError as e:
            print(f"live_variants.py: {path}: {e.strerror}", file=sys.stderr)
            return 2
        odd = []
        for plain, live in zip(HOT_PATHS, HOT_PATHS_LIVE):
            measured = [i in t.metrics and t.metrics[i].complete for i in (plain, live)]
            reasons = [t.absent.get(i) for i in (plain, live)]
            if measured != [True, True] and not (reasons[0] is not None and reasons[0] == reasons[1]):
                odd.append(live)
        report(not odd, f"{rtos}: every hot path and its .live variant both measured or both absent "
               f"for the same reason{': not so for ' + ', '.join(odd) if odd else ''}")
        if rtos == "rtoslab" and (t.board or "").startswith("vp-m0"):
            for plain in LIGHT:
                live = plain + ".live"
                if plain not in t.metrics or live not in t.metrics:
                    report(False, f"{rtos}: {live}: not measured")
                    continue
                d = p50(t.metrics[live]) - p50(t.metrics[plain])
                report(d >= MIN_SPILL_CYCLES, f"{rtos}: {live} p50 - {plain} p50 = {d:g} cycles "
                       f"(the eight values' spills around a light call: at least {MIN_SPILL_CYCLES})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
