#!/usr/bin/env python3
"""Differential test of rtoslab-vp against QEMU (`qemu-system-arm -M microbit`).

    python3 vp/difftest/difftest.py --programs 3000 --seed 1
    python3 vp/difftest/difftest.py --seed 1 --only 1234        # one program, same image

Random ARMv6-M programs (gen.py) are batched into images (harness/), each image runs on
QEMU and on the simulator, and the final state of every program (r0-r12, APSR, SP delta,
PRIMASK, CONTROL, every changed word of the 4 KiB test area) is compared. A mismatch is
reported with the seed, the program index, the program's disassembly and the differences.
The last line is `N passed, M failed`; the exit status is 0 only if every program agreed
and at least one ran. Python 3.11, standard library only; QEMU runs through `rtoslab-qemu` (.venv).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen  # noqa: E402

DEFAULT_VP = HERE.parent / "target" / "release" / "rtoslab-vp"
CFLAGS = ["-mcpu=cortex-m0", "-mthumb", "-nostdlib", "-ffreestanding"]
FIELDS = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
          "apsr", "sp", "primask", "control"]


# --arch: the QEMU machine and the simulator board of each architecture profile
ARCH_BOARDS = {"v6m": ("microbit", "vp-m0"), "v7m": ("mps2-an385", "vp-m3"), "v7em": ("mps2-an386", "vp-m4")}
# v7em: the Cortex-M4F; the runtime enables CP10/CP11 (harness/runtime.c, __ARM_FP)
ARCH_CFLAGS = {"v7em": ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mfloat-abi=hard"]}


def qemu_cmd(elf: Path, arch: str = "v6m") -> list[str]:
    # v6m: the project's one QEMU command line (python/rtoslab/runners/qemu.py, installed in
    # .venv); it runs the binary named by --qemu (RTOSLAB_QEMU, set in main). v7m: the same
    # options on mps2-an385 (Cortex-M3), whose SSRAM at 0x0 and 0x20000000 holds the image
    # as the simulator's flash and RAM do (rtoslab-qemu gets that board with the ARMv7-M ports).
    if arch == "v6m":
        return ["rtoslab-qemu", "--no-serial", str(elf)]
    return [os.environ["RTOSLAB_QEMU"], "-M", ARCH_BOARDS[arch][0], "-nographic", "-monitor", "none",
            "-icount", "shift=6,align=off,sleep=off", "-semihosting-config", "enable=on,target=native",
            "-serial", "none", "-kernel", str(elf)]


def vp_cmd(vp: str, elf: Path, extra: list[str]) -> list[str]:
    return [vp, "run", str(elf)] + extra


class Tools:
    def __init__(self, args):
        self.cc = args.cc
        self.objdump = args.objdump
        self.vp = args.vp
        self.vp_args = (args.vp_arg or []) + (
            [f"--max-cycles={args.max_cycles}"] if args.max_cycles else [])
        self.timeout = args.timeout
        self.arch = args.arch
        if args.arch != "v6m":
            self.vp_args += ["--board", ARCH_BOARDS[args.arch][1]]
        self.work = Path(args.workdir)
        self.runtime_o = self.work / "runtime.o"
        self.cflags = CFLAGS + ARCH_CFLAGS.get(args.arch, [])

    def build_runtime(self):
        ge = ["-DDT_CLOBBER_GE"] if self.arch == "v7em" else []  # the handler clears APSR.GE
        subprocess.run([self.cc, *self.cflags, *ge, "-O2", "-Wall", "-c", str(HERE / "harness" / "runtime.c"),
                        "-o", str(self.runtime_o)], check=True)

    def build(self, name: str, asm: str) -> Path:
        src = self.work / f"{name}.S"
        elf = self.work / f"{name}.elf"
        src.write_text(asm)
        subprocess.run([self.cc, *self.cflags, "-T", str(HERE / "harness" / "link.ld"),
                        str(self.runtime_o), str(src), "-o", str(elf)], check=True)
        return elf


def run(cmd: list[str], timeout: float) -> tuple[int, str]:
    """Run a platform; its console (stdout and stderr together) and exit status."""
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("latin-1")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("latin-1")
        return -1, out + f"\n[difftest: timed out after {timeout:.0f} s]\n"


def parse(console: str) -> dict[int, str]:
    """Program index -> its result line (`P idx r0=... mem ...`)."""
    res = {}
    for ln in console.splitlines():
        ln = ln.strip()
        if ln.startswith("P "):
            parts = ln.split()
            try:
                res[int(parts[1], 16)] = ln
            except (IndexError, ValueError):
                pass
    return res


def fields(line: str) -> tuple[dict[str, str], dict[int, str]]:
    regs, mem = {}, {}
    head, _, memtxt = line.partition(" mem")
    for tok in head.split()[2:]:
        k, _, v = tok.partition("=")
        regs[k] = v
    for tok in memtxt.split():
        a, _, v = tok.partition(":")
        mem[int(a, 16)] = v
    return regs, mem


def diff_text(q: str, v: str) -> str:
    qr, qm = fields(q)
    vr, vm = fields(v)
    out = []
    for k in FIELDS:
        if qr.get(k) != vr.get(k):
            note = " (delta from the initial SP)" if k == "sp" else ""
            out.append(f"  {k:8s} qemu={qr.get(k)}  vp={vr.get(k)}{note}")
    for a in sorted(set(qm) | set(vm)):
        if qm.get(a) != vm.get(a):
            out.append(f"  mem[{a:08x}] qemu={qm.get(a, 'unchanged'):9s} vp={vm.get(a, 'unchanged')}")
    return "\n".join(out) if out else "  (lines differ in format)\n  qemu: " + q + "\n  vp:   " + v


def listing(tools: Tools, elf: Path, idx: int) -> str:
    try:
        syms = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True).stdout
        addr = {}
        for ln in syms.splitlines():
            p = ln.split()
            if len(p) == 3:
                addr[p[2]] = int(p[0], 16)
        start, stop = addr[f"dt_prog_{idx}"], addr[f"dt_prog_{idx}_end"]
        out = subprocess.run([tools.objdump, "-d", f"--start-address=0x{start:x}",
                              f"--stop-address=0x{stop:x}", str(elf)],
                             capture_output=True, text=True).stdout
        keep = out.split("\n\n", 2)[-1] if "Disassembly" in out else out
        return keep.strip()
    except Exception as e:  # noqa: BLE001
        return f"(no listing: {e})"


class Batch:
    def __init__(self, seed: int, indices: list[int], run_only: list[int] | None = None):
        self.seed = seed
        self.indices = indices  # the programs assembled into the image
        self.run_only = run_only or indices  # the programs the runtime executes


def run_batch(tools: Tools, b: Batch, qemu_only: bool, exclude: frozenset):
    """Build and run one image; returns (per-program outcomes, elf, consoles)."""
    progs = [gen.generate(b.seed, i, exclude, tools.arch) for i in b.indices]
    name = f"s{b.seed}_p{b.indices[0]}_{b.run_only[0]}"
    elf = tools.build(name, gen.batch_asm(progs, run=set(b.run_only), arch=tools.arch))
    qrc, qout = run(qemu_cmd(elf, tools.arch), tools.timeout)
    if qemu_only:
        vrc, vout = 0, qout
    else:
        vrc, vout = run(vp_cmd(tools.vp, elf, tools.vp_args), tools.timeout)
    kinds: dict[str, int] = {}
    for p in progs:
        if p.idx in b.run_only:
            for k, n in p.kinds.items():
                kinds[k] = kinds.get(k, 0) + n
    return dict(elf=elf, q=(qrc, qout), v=(vrc, vout), qres=parse(qout), vres=parse(vout),
                kinds=kinds)


def failed_here(r, b: Batch, qemu_only: bool) -> bool:
    return any(r["qres"].get(i) is None or r["qres"].get(i) != r["vres"].get(i) for i in b.run_only)


def tail(text: str, n: int = 8) -> str:
    lines = [ln for ln in text.splitlines() if not ln.startswith("P ")]
    return "\n".join("    " + ln[:300] for ln in lines[-n:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=3000, help="number of programs (default 3000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arch", choices=gen.ARCHS, default="v6m",
                    help="v6m: Cortex-M0 programs, QEMU microbit vs vp-m0 (default); v7m: Thumb-2 "
                         "programs, QEMU mps2-an385 vs vp-m3; v7em: v7m plus the DSP extension (gen_dsp.py) "
                         "and the FPU (gen_fp.py), QEMU mps2-an386 (Cortex-M4F) vs vp-m4")
    ap.add_argument("--first", type=int, default=0, help="index of the first program (default 0)")
    ap.add_argument("--only", type=int, action="append",
                    help="run only this program index (repeatable); its image is the same as in a full run")
    ap.add_argument("--batch", type=int, default=200, help="programs per image (default 200)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--vp", default=str(DEFAULT_VP), help="rtoslab-vp binary")
    ap.add_argument("--vp-arg", action="append", help="extra argument for `rtoslab-vp run` (repeatable)")
    ap.add_argument("--qemu", default="qemu-system-arm")
    ap.add_argument("--cc", default="arm-none-eabi-gcc")
    ap.add_argument("--objdump", default="arm-none-eabi-objdump")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per image and platform")
    ap.add_argument("--max-cycles", type=int, default=200_000_000,
                    help="passed to `rtoslab-vp run` (an image needs a few million; 0: none)")
    ap.add_argument("--qemu-only", action="store_true",
                    help="no simulator: check that every program runs cleanly on QEMU (generator self-test)")
    ap.add_argument("--max-reports", type=int, default=5, help="mismatch reports printed in full")
    ap.add_argument("--workdir", help="keep images and sources here (default: a temporary folder)")
    ap.add_argument("--coverage", action="store_true", help="print how often each instruction group ran")
    ap.add_argument("--exclude", action="append", default=[], metavar="GROUP",
                    help="never generate this instruction group (repeatable; changes the programs): "
                         + ", ".join(gen.GROUPS))
    args = ap.parse_args()
    exclude = frozenset(g for e in args.exclude for g in e.split(","))
    unknown = exclude - set(gen.GROUPS)
    if unknown:
        ap.error(f"unknown group(s) for --exclude: {', '.join(sorted(unknown))}")

    os.environ["RTOSLAB_QEMU"] = args.qemu  # the binary rtoslab-qemu runs
    for tool in (args.cc, args.objdump, args.qemu, "rtoslab-qemu"):
        if not shutil.which(tool):
            print(f"difftest: {tool} not found", file=sys.stderr)
            print("0 passed, 0 failed")
            return 2
    if not args.qemu_only and not (os.path.isfile(args.vp) and os.access(args.vp, os.X_OK)):
        print(f"difftest: simulator binary {args.vp} not found (build it with `cargo build --release` "
              f"in vp/, or pass --vp, or --qemu-only)", file=sys.stderr)
        print("0 passed, 0 failed")
        return 2

    tmp = None
    args.workdir_given = args.workdir is not None
    if args.workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="rtoslab-difftest-")
        args.workdir = tmp.name
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    tools = Tools(args)
    tools.build_runtime()

    # Images hold fixed ranges of program indices, so a program's address is the same
    # whether it runs in a full run or alone (--only).
    if args.only:
        wanted = sorted(set(args.only))
    else:
        wanted = list(range(args.first, args.first + args.programs))
    groups: dict[int, list[int]] = {}
    for i in wanted:
        groups.setdefault(i // args.batch, []).append(i)
    batches = [Batch(args.seed, list(range(g * args.batch, (g + 1) * args.batch)), sel)
               for g, sel in sorted(groups.items())]

    t0 = time.time()
    passed = failed = 0
    mismatches = []  # (program index, batch result, qemu line, vp line)
    image_problems = []  # (first program index, text)
    kinds: dict[str, int] = {}
    platform = "qemu" if args.qemu_only else "vp"
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        pending = {ex.submit(run_batch, tools, b, args.qemu_only, exclude): b for b in batches}
        while pending:
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                b = pending.pop(fut)
                try:
                    r = fut.result()
                except Exception as e:  # noqa: BLE001 (a build failure: count the image's programs)
                    failed += len(b.run_only)
                    image_problems.append((b.run_only[0], f"could not build or run the image of programs "
                                                          f"{b.run_only[0]}..{b.run_only[-1]}: {e}"))
                    continue
                for k, n in r["kinds"].items():
                    kinds[k] = kinds.get(k, 0) + n
                restart = None
                for pos, i in enumerate(b.run_only):
                    q, v = r["qres"].get(i), r["vres"].get(i)
                    if q is not None and q == v:
                        passed += 1
                        continue
                    failed += 1
                    mismatches.append((i, r, q, v))
                    if (q is None or v is None) and pos + 1 < len(b.run_only):
                        # the image stopped here: run the rest of its programs in the same image
                        restart = b.run_only[pos + 1:]
                        break
                if not restart and not failed_here(r, b, args.qemu_only):
                    # every program agreed: the image must also have ended cleanly on both
                    problems = []
                    sides = [("qemu", r["q"])] + ([] if args.qemu_only else [("vp", r["v"])])
                    for name, (rc, out) in sides:
                        if "DIFFTEST BEGIN" not in out or "DIFFTEST END" not in out:
                            problems.append(f"{name} did not print DIFFTEST BEGIN/END (semihosting "
                                            f"SYS_OPEN/SYS_WRITE/SYS_WRITEC/SYS_WRITE0)")
                        if rc != 0:
                            problems.append(f"{name} exited with status {rc}, not 0 (SYS_EXIT 0x20026)")
                    if problems:
                        failed += 1
                        image_problems.append((b.run_only[0], f"image {r['elf']}:\n"
                                               + "\n".join("  " + p for p in problems)
                                               + f"\nsimulator output tail:\n{tail(r['v'][1])}"))
                if restart:
                    nb = Batch(args.seed, b.indices, restart)
                    pending[ex.submit(run_batch, tools, nb, args.qemu_only, exclude)] = nb

    # Reports in program order, so that a run prints the same thing whatever the scheduling.
    extra = "" if args.batch == 200 else f" --batch {args.batch}"
    extra += "" if args.arch == "v6m" else f" --arch {args.arch}"
    extra += "".join(f" --exclude {g}" for g in sorted(exclude))
    kept = "" if args.workdir_given else "; temporary: use --workdir DIR to keep it"
    for i, r, q, v in sorted(mismatches, key=lambda m: m[0])[:args.max_reports]:
        print(f"=== MISMATCH: seed {args.seed}, program {i} "
              f"(reproduce: python3 vp/difftest/difftest.py --seed {args.seed} --only {i}{extra}) ===")
        if q is None:
            print(f"QEMU did not finish this program (exit {r['q'][0]}): a generator or QEMU "
                  f"problem, not necessarily the simulator's. QEMU said:\n{tail(r['q'][1])}")
        if v is None and not args.qemu_only:
            print(f"the simulator did not finish this program (exit {r['v'][0]}); it said:\n"
                  f"{tail(r['v'][1])}")
        if q is not None and v is not None:
            print("differences:\n" + diff_text(q, v))
        elif q is not None:
            print("QEMU's final state:\n    " + q[:600])
        print(f"program {i} ({r['elf']}{kept}):")
        print(listing(tools, r["elf"], i))
        print("=== end of report ===", flush=True)
    for _, text in sorted(image_problems)[:args.max_reports]:
        print(f"=== IMAGE PROBLEM: seed {args.seed}, {text}\n=== end of report ===")
    shown = min(len(mismatches), args.max_reports) + min(len(image_problems), args.max_reports)
    dt = time.time() - t0
    if args.coverage:
        print("instruction groups executed or skipped over (generator coverage):")
        for k in sorted(kinds):
            print(f"  {k:14s} {kinds[k]}")
    if len(mismatches) + len(image_problems) > shown:
        print(f"({len(mismatches) + len(image_problems) - shown} more failures not shown; "
              f"--max-reports N shows more)")
    print(f"difftest: seed {args.seed}, {passed + len(mismatches)} programs compared, "
          f"{len(image_problems)} image problems, qemu vs {platform}, {dt:.1f} s")
    print(f"{passed} passed, {failed} failed")
    if tmp is not None:
        tmp.cleanup()
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
