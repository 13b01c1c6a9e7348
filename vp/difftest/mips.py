#!/usr/bin/env python3
"""Speed benchmark (not a test): rtoslab-vp against QEMU on one CPU-bound image.

    python3 vp/difftest/mips.py [--iters 7000] [--repeat 3] [--vp PATH] [--qemu PATH]

Builds harness/mips_bench.c (sort + CRC-32 + matrix product, about 2e8 instructions at the
default --iters), runs it on `rtoslab-vp run --stats` and on
`qemu-system-arm -M microbit -icount shift=0` (and, for reference, QEMU without icount),
checks that every run prints the same checksum, and prints the MIPS of each and the ratio.

Instruction count: the simulator's --stats line (the program is deterministic, so that count
holds for QEMU too). QEMU's own estimate is printed beside it: an image variant reads the
nRF51 TIMER0 (16 MHz) of the microbit machine, and under -icount shift=0 one instruction is
1 ns of virtual time. Wall-clock times are the best of --repeat runs, minus the best time of
an image that does no iterations (process start-up and image loading), on both platforms.

Last, the goal matrix of issue 29 (`--matrix-only` runs it alone): M0 on `-M microbit`, M3 on
`-M mps2-an385`, each with the mixed workload and the tight loop (`-DTIGHT`), simulator / QEMU
`-icount shift=0` MIPS on the same image, their geometric mean, and host instructions per
simulated instruction (valgrind's callgrind on a --callgrind-iters image minus the empty one;
a count, steady under load), each for the interpreter (`--interpreter`) and the native engine
(`--native`) in the same run. `--vp-flags` adds flags to both.
Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_VP = HERE.parent / "target" / "release" / "rtoslab-vp"
CFLAGS = ["-mcpu=cortex-m0", "-mthumb", "-nostdlib", "-ffreestanding", "-O2", "-Wall"]


def build(cc: str, out: Path, iters: int, qemu_timer: bool = False, cpu: str = "cortex-m0",
          defines: tuple[str, ...] = ()) -> Path:
    flags = [f if not f.startswith("-mcpu=") else f"-mcpu={cpu}" for f in CFLAGS]
    cmd = [cc, *flags, *defines, f"-DITERS={iters}", "-T", str(HERE / "harness" / "link.ld"),
           str(HERE / "harness" / "mips_bench.c"), "-o", str(out)]
    if qemu_timer:
        cmd.insert(-3, "-DQEMU_TIMER")
    subprocess.run(cmd, check=True)
    return out


def timed(cmd: list[str], repeat: int) -> tuple[float, str]:
    # the benchmark takes half a minute: each step said on stderr (stdout is the table)
    what = Path(cmd[0]).name + " " + next((Path(c).name for c in cmd if c.endswith(".elf")), "")
    print(f"mips: running {what} ({repeat}x)", file=sys.stderr, flush=True)
    best, out = None, ""
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
        dt = time.perf_counter() - t
        out = p.stdout.decode("latin-1") + p.stderr.decode("latin-1")
        if p.returncode != 0:
            raise SystemExit(f"mips: {' '.join(cmd)} exited with {p.returncode}:\n{out[-2000:]}")
        best = dt if best is None else min(best, dt)
    return best, out


def checksum(out: str) -> str:
    m = re.search(r"MIPS-BENCH checksum=([0-9a-f]{8})", out)
    if not m:
        raise SystemExit(f"mips: no checksum in output:\n{out[-2000:]}")
    return m.group(1)


def vp_stats(out: str) -> tuple[int | None, float | None]:
    """Instructions and MIPS from the simulator's --stats output (tolerant of its format)."""
    instr = mips = None
    for ln in out.splitlines():
        low = ln.lower()
        if "instr" not in low and "mips" not in low:
            continue
        m = re.search(r"instructions?\D{0,4}?([\d_,]+)", low) or re.search(r"([\d_,]+)\s*instructions?", low)
        if m and instr is None:
            digits = re.sub(r"[_,]", "", m.group(1))
            if digits:
                instr = int(digits)
        m = re.search(r"([\d.]+)\s*mips", low) or re.search(r"mips\D{0,4}?([\d.]+)", low)
        if m and mips is None:
            try:
                mips = float(m.group(1))
            except ValueError:
                pass
    return instr, mips


# The goal matrix (issue 29): each core on its QEMU machine, each workload of mips_bench.c.
CORES = (("M0", "cortex-m0", "vp-m0", "microbit"), ("M3", "cortex-m3", "vp-m3", "mps2-an385"))
WORKLOADS = (("mixed", ()), ("tight loop", ("-DTIGHT",)))


def callgrind_ir(vp: list[str], elf: Path) -> int | None:
    """Host instructions of one simulator run (valgrind's callgrind: a count, steady under load)."""
    with tempfile.TemporaryDirectory(prefix="rtoslab-cg-") as d:
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.out", *vp, str(elf)],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None


ENGINES = (("interpreter", ["--interpreter"]), ("native", ["--native"]))


def matrix(args, d: Path, qemu_base: list[str]) -> int:
    """Simulator / QEMU -icount shift=0 MIPS on the same images, {M0, M3} x {mixed, tight
    loop}, for each engine (the interpreter, the native engine; --vp-flags adds to both),
    their geometric means, and host instructions per simulated instruction."""
    vp_flags = args.vp_flags.split()
    have_cg = args.callgrind_iters > 0 and shutil.which("valgrind") is not None
    rows, sums_ok = [], True
    for core, cpu, board, machine in CORES:
        q = [args.qemu, "-M", machine] + qemu_base[3:] + ["-icount", "shift=0", "-kernel"]
        for wl, defs in WORKLOADS:
            tag = f"{core}-{wl.split()[0]}"
            bench = build(args.cc, d / f"g-{tag}.elf", args.iters, cpu=cpu, defines=defs)
            empty = build(args.cc, d / f"g-{tag}-0.elf", 0, cpu=cpu, defines=defs)
            small = build(args.cc, d / f"g-{tag}-s.elf", args.callgrind_iters, cpu=cpu, defines=defs) \
                if have_cg else None
            tq, outq = timed(q + [str(bench)], args.repeat)
            tq0, _ = timed(q + [str(empty)], args.repeat)
            mq = None
            for engine, eflags in ENGINES:
                vp = [args.vp, "run", "--stats", "--board", board, *eflags, *vp_flags]
                t, out = timed(vp + [str(bench)], args.repeat)
                n, _ = vp_stats(out)
                t0, _ = timed(vp + [str(empty)], args.repeat)
                sums_ok &= checksum(out) == checksum(outq)
                host = None
                if small is not None:
                    _, out_s = timed(vp + [str(small)], 1)
                    n_s, _ = vp_stats(out_s)
                    ir, ir0 = callgrind_ir(vp[:2] + vp[3:], small), callgrind_ir(vp[:2] + vp[3:], empty)
                    if ir and ir0 and n_s:
                        host = (ir - ir0) / n_s
                mq = n / max(tq - tq0, 1e-6) / 1e6
                mv = n / max(t - t0, 1e-6) / 1e6
                rows.append((engine, core, wl, n, mv, mq, mv / mq, host))
    print()
    print(f"goal matrix (issue 29): rtoslab-vp {' '.join(vp_flags)} against qemu -icount shift=0 on the same "
          f"image, {args.iters} iterations, best of {args.repeat}; host instructions per instruction on "
          f"{args.callgrind_iters} iterations (compiling included) minus the empty image")
    print(f"| {'engine':11s} | {'core':4s} | {'workload':10s} | {'instructions':>12s} | {'vp MIPS':>8s} "
          f"| {'QEMU MIPS':>9s} | {'ratio':>6s} | {'host insns/insn':>15s} |")
    print(f"|{'-' * 13}|{'-' * 6}|{'-' * 12}|{'-' * 14}|{'-' * 10}|{'-' * 11}|{'-' * 8}|{'-' * 17}|")
    for engine, core, wl, n, mv, mq, r, host in rows:
        hs = f"{host:15.1f}" if host is not None else f"{'-':>15s}"
        print(f"| {engine:11s} | {core:4s} | {wl:10s} | {n:12,d} | {mv:8.1f} | {mq:9.1f} | {r:6.3f} | {hs} |")
    for engine, _ in ENGINES:
        rs = [r[6] for r in rows if r[0] == engine]
        geo = math.prod(rs) ** (1 / len(rs))
        print(f"geometric mean of the ratios, {engine}: {geo:.3f} (goal >= 1.0)")
    if not have_cg:
        print("(host instructions per instruction: valgrind not found or --callgrind-iters 0)")
    if not sums_ok:
        print("CHECKSUMS DIFFER between rtoslab-vp and QEMU in the goal matrix")
    return 0 if sums_ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description="rtoslab-vp vs QEMU speed (MIPS)")
    ap.add_argument("--iters", type=int, default=7000, help="benchmark iterations (~28,600 instructions each)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per platform; the best time counts")
    ap.add_argument("--vp", default=str(DEFAULT_VP))
    ap.add_argument("--qemu", default="qemu-system-arm")
    ap.add_argument("--cc", default="arm-none-eabi-gcc")
    ap.add_argument("--vp-flags", default="", help="extra rtoslab-vp run flags (e.g. --interpreter)")
    ap.add_argument("--callgrind-iters", type=int, default=300,
                    help="iterations of the image callgrind counts host instructions on (0: skip)")
    ap.add_argument("--matrix-only", action="store_true", help="only the goal matrix (issue 29)")
    ap.add_argument("--qemu-long", type=int, default=10,
                    help="also time QEMU on an image this many times longer (count from QEMU's TIMER0)")
    args = ap.parse_args()

    qemu_base = [args.qemu, "-M", "microbit", "-nographic", "-monitor", "none", "-serial", "none",
                 "-semihosting-config", "enable=on,target=native"]
    have_vp = os.path.isfile(args.vp) and os.access(args.vp, os.X_OK)

    with tempfile.TemporaryDirectory(prefix="rtoslab-mips-") as d:
        d = Path(d)
        if args.matrix_only:
            if not have_vp:
                raise SystemExit(f"mips: {args.vp} not found")
            return matrix(args, d, qemu_base)
        bench = build(args.cc, d / "bench.elf", args.iters)
        empty = build(args.cc, d / "empty.elf", 0)
        timer = build(args.cc, d / "bench_timer.elf", args.iters, qemu_timer=True)
        long_iters = args.iters * args.qemu_long
        long_timer = build(args.cc, d / "long_timer.elf", long_iters, qemu_timer=True)
        long_bench = build(args.cc, d / "long.elf", long_iters)

        rows = []  # (platform, instructions, seconds, MIPS, note)
        sums = {}

        # QEMU's own instruction estimate (TIMER0 under -icount shift=0)
        _, out = timed(qemu_base + ["-icount", "shift=0", "-kernel", str(timer)], 1)
        sums["qemu (timer variant)"] = checksum(out)
        ticks = int(re.search(r"qemu_timer_ticks=([0-9a-f]+)", out).group(1), 16)
        qemu_est = ticks * 1000 // 16  # 16 MHz ticks -> ns -> instructions

        vp_instr = vp_self_mips = None
        if have_vp:
            t_vp, out = timed([args.vp, "run", "--stats", str(bench)], args.repeat)
            sums["rtoslab-vp"] = checksum(out)
            vp_instr, vp_self_mips = vp_stats(out)
            t_vp0, _ = timed([args.vp, "run", "--stats", str(empty)], args.repeat)
        instr = vp_instr or qemu_est
        src = "rtoslab-vp --stats" if vp_instr else "QEMU TIMER0 estimate (no simulator count)"

        t_q, out = timed(qemu_base + ["-icount", "shift=0", "-kernel", str(bench)], args.repeat)
        sums["qemu -icount shift=0"] = checksum(out)
        t_q0, _ = timed(qemu_base + ["-icount", "shift=0", "-kernel", str(empty)], args.repeat)
        t_qf, out = timed(qemu_base + ["-kernel", str(bench)], args.repeat)
        sums["qemu (no icount)"] = checksum(out)
        t_qf0, _ = timed(qemu_base + ["-kernel", str(empty)], args.repeat)

        # QEMU is fast enough that the default image runs in a tenth of a second; a longer
        # image (count from its TIMER0 estimate) gives a steadier figure.
        _, out = timed(qemu_base + ["-icount", "shift=0", "-kernel", str(long_timer)], 1)
        long_est = int(re.search(r"qemu_timer_ticks=([0-9a-f]+)", out).group(1), 16) * 1000 // 16
        t_ql, out = timed(qemu_base + ["-icount", "shift=0", "-kernel", str(long_bench)], args.repeat)
        long_sum = checksum(out)

        def mips(t, t0, n=None):
            return (n or instr) / max(t - t0, 1e-6) / 1e6

        # ARMv7-M: the same C built for the Cortex-M3, on vp-m3 and QEMU's mps2-an385
        m3_rows = []
        if have_vp:
            b3 = build(args.cc, d / "bench_m3.elf", args.iters, cpu="cortex-m3")
            e3 = build(args.cc, d / "empty_m3.elf", 0, cpu="cortex-m3")
            t3, out = timed([args.vp, "run", "--stats", "--board", "vp-m3", str(b3)], args.repeat)
            sums["rtoslab-vp vp-m3"] = checksum(out)
            n3, _ = vp_stats(out)
            t30, _ = timed([args.vp, "run", "--stats", "--board", "vp-m3", str(e3)], args.repeat)
            q3 = [args.qemu, "-M", "mps2-an385"] + qemu_base[3:] + ["-icount", "shift=0", "-kernel"]
            tq3, out = timed(q3 + [str(b3)], args.repeat)
            sums["qemu mps2-an385"] = checksum(out)
            tq30, _ = timed(q3 + [str(e3)], args.repeat)
            m3_rows = [("rtoslab-vp vp-m3", t3, t30, mips(t3, t30, n3)),
                       ("qemu an385 -icount 0", tq3, tq30, mips(tq3, tq30, n3))]

        if have_vp:
            rows.append(("rtoslab-vp", t_vp, t_vp0, mips(t_vp, t_vp0)))
        rows.append(("qemu -icount shift=0", t_q, t_q0, mips(t_q, t_q0)))
        rows.append(("qemu (no icount)", t_qf, t_qf0, mips(t_qf, t_qf0)))
        rows.append((f"qemu -icount, {args.qemu_long}x long", t_ql, t_q0, mips(t_ql, t_q0, long_est)))
        rows += m3_rows

    print(f"benchmark: {args.iters} iterations, {instr:,} instructions (count from {src})")
    if vp_instr:
        print(f"QEMU's own estimate (TIMER0, -icount shift=0): {qemu_est:,} instructions "
              f"({100.0 * (qemu_est - vp_instr) / vp_instr:+.4f} % from the simulator's count)")
    print(f"long QEMU image: {long_iters} iterations, about {long_est:,} instructions (TIMER0 estimate), "
          f"checksum {long_sum}")
    print("checksums: " + ", ".join(f"{k}={v}" for k, v in sums.items()))
    agree = len(set(sums.values())) == 1
    print()
    print(f"| {'platform':22s} | {'wall s':>8s} | {'start-up s':>10s} | {'MIPS':>9s} |")
    print(f"|{'-' * 24}|{'-' * 10}|{'-' * 12}|{'-' * 11}|")
    for name, t, t0, m in rows:
        print(f"| {name:22s} | {t:8.3f} | {t0:10.3f} | {m:9.1f} |")
    print()
    if have_vp:
        ratio = rows[0][3] / rows[1][3]
        print(f"rtoslab-vp / qemu -icount shift=0 = {ratio:.3f} (same image)")
        print(f"rtoslab-vp / qemu -icount shift=0, long image = {rows[0][3] / rows[-1][3]:.3f}")
        if m3_rows:
            print(f"rtoslab-vp vp-m3 / vp-m0 = {m3_rows[0][3] / rows[0][3]:.3f} "
                  f"(the same C built for each core; Thumb-2 does more per instruction)")
        if vp_self_mips is not None:
            print(f"(the simulator's own --stats figure: {vp_self_mips:.1f} MIPS)")
    else:
        print(f"rtoslab-vp: not run ({args.vp} not found)")
    if not agree:
        print("CHECKSUMS DIFFER: the platforms did not compute the same result")
        return 1
    if have_vp:
        with tempfile.TemporaryDirectory(prefix="rtoslab-mips-") as d:
            return matrix(args, Path(d), qemu_base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
