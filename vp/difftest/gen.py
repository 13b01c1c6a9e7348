"""Random ARMv6-M (Cortex-M0) program generator for the differential test.

Every program is a function `dt_prog_<idx>` that the runtime (harness/runtime.c) calls after
filling 0x20000000..0x20000FFF with a pseudo-random pattern. The program

  1. saves the caller's registers and SP, switches to its own stack inside that region,
     sets random APSR flags, PRIMASK and r0-r12 (literal loads: no flag side effects);
  2. runs a random body of "groups": a group is one instruction under test, sometimes with
     the literal loads it needs first (a base address for a load/store, an offset, a shift
     amount). Most instructions are emitted as raw encodings (`.inst.n`) so that the
     decoder sees arbitrary register and immediate fields;
  3. stores r0-r12, APSR, SP, PRIMASK and CONTROL to `dt_results` using only instructions
     that change neither the flags nor a reported register before it is saved, restores the
     caller's SP and returns. The runtime prints the results and every word of the region
     that differs from the pattern.

A program depends only on (seed, idx): `generate(seed, idx)` is deterministic.
Python 3.11, standard library only.
"""

from __future__ import annotations

from gen_alu import AluGroups
from gen_common import Emitter, Item, Program, rand_value
from gen_dsp import DSP_GROUPS, DspGroups
from gen_fp import FP_GROUPS, FpGroups, fp_value, fpscr_value
from gen_memory import MemoryGroups
from gen_system import SystemGroups
from gen_thumb2 import THUMB2_GROUPS, Thumb2Groups


class _TooBig(Exception):
    pass


class _Gen(Emitter, AluGroups, MemoryGroups, SystemGroups, Thumb2Groups, DspGroups, FpGroups):
    """One program: the body's structure (groups, branches, calls) around the instruction
    groups of the mixins."""

    SIMPLE = [("g_shift_imm", 8), ("g_addsub3", 6), ("g_imm8", 6), ("g_dp", 20), ("g_hireg", 7),
              ("g_ext", 3), ("g_rev", 3), ("g_ldst_imm", 8), ("g_ldst_reg", 8), ("g_ldr_lit", 2), ("g_ld_flash", 2),
              ("g_sp_ldst", 4), ("g_adr", 2), ("g_ldm_stm", 4), ("g_mrs", 2), ("g_msr", 3),
              ("g_misc", 2), ("g_svc", 1), ("g_fault", 1),
              ("g_svc_masked", 0.3), ("g_invstate", 0.3), ("g_pend", 0.6),
              ("g_ram_code", 0.6)]
    SP_CHANGING = [("g_sp_adj", 3), ("g_pushpop", 5), ("g_sp_write", 1), ("g_psp", 1)]

    # ARMv6-M groups whose outcome differs on ARMv7-M by design (unaligned word/halfword
    # accesses do not fault there): left out of --arch v7m and v7em programs.
    NOT_ON_V7M = {"g_fault"}

    def simple_group(self, allow_sp: bool):
        table = self.SIMPLE + (self.SP_CHANGING if allow_sp else [])
        if self.arch != "v6m":
            table = [(n, w) for n, w in table if n not in self.NOT_ON_V7M] + ARCH_GROUPS[self.arch]
        if self.in_leaf:  # a leaf function's LR must survive until its BX LR
            table = [(n, w) for n, w in table if n != "g_ram_code"]
        if self.exclude:
            table = [(n, w) for n, w in table if n[2:] not in self.exclude]
        while True:
            name = self.rng.choices([n for n, _ in table], weights=[w for _, w in table])[0]
            g = getattr(self, name)()
            if g is not None:
                return g

    def branch_group(self, allow_sp: bool):
        """B<cond> or B forward over 0..4 whole groups (the groups are emitted after it)."""
        rng = self.rng
        skipped: list[Item] = []
        kinds = []
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
            k, items = self.simple_group(allow_sp)
            kinds.append(k)
            skipped += items
        size = sum(i.size for i in skipped)
        if rng.random() < 0.8:
            cond = rng.randrange(14)
            br = self.hw(0xD000 | (cond << 8) | ((size // 2 - 1) & 0xFF))
            kind = "bcond"
            assert size <= 256
        else:
            br = self.hw(0xE000 | ((size // 2 - 1) & 0x7FF))
            kind = "b"
        return kind, [br] + skipped, kinds

    def pc_write_group(self, allow_sp: bool):
        """MOV PC,Rm or ADD PC,Rm forward over 0..3 whole groups. Both are BranchWritePC on
        ARMv6-M: bit 0 of the result is ignored (no interworking)."""
        rng = self.rng
        skipped: list[Item] = []
        kinds = []
        for _ in range(rng.choice([0, 1, 2, 3])):
            k, items = self.simple_group(allow_sp)
            kinds.append(k)
            skipped += items
        size = sum(i.size for i in skipped)
        r = rng.randrange(13)
        bit0 = rng.randrange(2)
        self.nlabels += 1
        label = f".Ly{self.idx}_{self.nlabels}"
        if rng.random() < 0.5:
            kind, value, op = "mov_pc", f"{label}+{bit0}", 0x4687  # MOV PC, Rm
        else:
            kind, value, op = "add_pc", (size - 2 + bit0) & 0xFFFFFFFF, 0x4487  # ADD PC, Rm: PC+4+Rm
        if r < 8:
            items = [self.lit(r, value)]
        else:
            items = [self.lit(0, value), self.hw(0x4600 | ((r >> 3) << 7) | (r & 7))]
        items.append(self.hw(op | (r << 3)))
        return kind, items + skipped + [Item(f"{label}:", 0)], kinds

    def call_group(self):
        j = self.rng.randrange(self.nfuncs)
        label = f"dt_prog_{self.idx}_f{j}"
        if self.rng.random() < 0.7:
            return "bl", [Item(f"bl {label}", 4)]
        r = self.rng.randrange(13)
        if r < 8:
            return "blx", [self.lit(r, label), self.hw(0x4780 | (r << 3))]
        return "blx", [self.lit(0, label), self.hw(0x4600 | ((r >> 3) << 7) | (0 << 3) | (r & 7)),
                       self.hw(0x4780 | (r << 3))]

    def body(self, ngroups: int, allow_sp: bool, allow_call: bool, budget: int):
        items: list[Item] = []
        used = 0
        for _ in range(ngroups):
            r = self.rng.random()
            if r < 0.12 or (r < 0.14 and "pc_write" not in self.exclude):
                kind, g, inner = (self.branch_group if r < 0.12 else self.pc_write_group)(allow_sp)
                for k in inner:
                    self.count(k)
            elif r < 0.17 and allow_call and self.nfuncs:
                kind, g = self.call_group()
            else:
                kind, g = self.simple_group(allow_sp)
            self.count(kind)
            items += g
            used += sum(i.size for i in g)
            if used > budget:
                break
        return items

    # ---- whole program ------------------------------------------------------------------
    def program(self) -> Program:
        rng = self.rng
        p = self.idx
        mem_seed = rng.getrandbits(32) | 1
        self.init_sp = 0x20000A00 - 8 * rng.randrange(33)
        regs = [rand_value(rng) for _ in range(13)]
        flags = rng.randrange(16) << 28
        if self.arch == "v7em":  # and random APSR.GE bits
            flags |= rng.randrange(16) << 16
        primask = rng.randrange(2)
        self.nfuncs = rng.choice([0, 1, 1, 2, 3])

        pro = [
            Item("push {r4-r7, lr}", 2),
            Item("mov r4, r8", 2), Item("mov r5, r9", 2), Item("mov r6, r10", 2), Item("mov r7, r11", 2),
            Item("push {r4-r7}", 2),
            self.lit(0, "dt_expect_exc"), Item("movs r1, #1", 2), Item("str r1, [r0]", 2),
            self.lit(0, "dt_saved_sp"), Item("mov r1, sp", 2), Item("str r1, [r0]", 2),
            self.lit(0, self.init_sp), Item("mov sp, r0", 2),
            self.lit(0, flags), Item("msr apsr_nzcvqg, r0" if self.arch == "v7em" else "msr apsr_nzcvq, r0", 4),
            self.lit(0, primask), Item("msr primask, r0", 4),
        ]
        for r in range(8, 13):
            pro += [self.lit(0, regs[r]), Item(f"mov r{r}, r0", 2)]
        if self.arch == "v7em":
            pro += self.fp_prologue()
        for r in range(8):
            pro.append(self.lit(r, regs[r]))

        body = self.body(rng.randrange(15, 70), allow_sp=True, allow_call=True, budget=int(420 * self.scale))

        epi = [Item("mov lr, r0", 2), self.lit(0, "dt_results")]
        epi += [Item(f"str r{r}, [r0, #{4 * r}]", 2) for r in range(1, 8)]
        epi += [Item("mrs r1, apsr", 4), Item("str r1, [r0, #52]", 2),
                Item("mov r1, lr", 2), Item("str r1, [r0, #0]", 2)]
        for r in range(8, 13):
            epi += [Item(f"mov r1, r{r}", 2), Item(f"str r1, [r0, #{4 * r}]", 2)]
        epi += [Item("mov r1, sp", 2), Item("str r1, [r0, #56]", 2),
                Item("mrs r1, primask", 4), Item("str r1, [r0, #60]", 2),
                Item("mrs r1, control", 4), Item("str r1, [r0, #64]", 2),
                Item("mrs r1, msp", 4), Item("str r1, [r0, #68]", 2),
                Item("mrs r1, psp", 4), Item("str r1, [r0, #72]", 2),
                *(self.fp_epilogue() if self.arch == "v7em" else []),
                Item("movs r1, #0", 2), Item("msr control, r1", 4), Item("isb", 4),  # back to MSP
                self.lit(0, "dt_expect_exc"), Item("movs r1, #0", 2), Item("str r1, [r0]", 2),
                self.lit(0, "dt_saved_sp"), Item("ldr r0, [r0]", 2), Item("mov sp, r0", 2),
                Item("pop {r4-r7}", 2),
                Item("mov r8, r4", 2), Item("mov r9, r5", 2), Item("mov r10, r6", 2), Item("mov r11, r7", 2),
                Item("pop {r4-r7, pc}", 2)]

        funcs: list[tuple[str, list[Item]]] = []
        for j in range(self.nfuncs):
            save_sp = (self.sp_lo, self.sp_hi)
            framed = rng.random() < 0.5
            self.in_leaf = not framed
            items = []
            if framed:
                rl = rng.getrandbits(8)
                items.append(self.hw(0xB500 | rl))  # PUSH {rl, lr}
                self.frame_words = bin(rl).count("1") + 1
            items += self.body(rng.randrange(1, 10), allow_sp=False, allow_call=False,
                               budget=int(80 * self.scale))
            items.append(self.hw(0xBD00 | rl) if framed else self.hw(0x4770))  # POP {rl, pc} / BX LR
            funcs.append((f"dt_prog_{p}_f{j}", items))
            self.frame_words = 0
            self.in_leaf = False
            self.sp_lo, self.sp_hi = save_sp

        # literal-pool reach check (LDR literal reaches 1020 bytes ahead of Align(PC,4))
        code = sum(i.size for i in pro + body + epi) + sum(sum(i.size for i in it) for _, it in funcs)
        if code + 4 * len(self.lits) + 8 >= 1020:
            raise _TooBig()

        out = [f"@ ---- program {p}: mem_seed=0x{mem_seed:08x} init_sp=0x{self.init_sp:08x}",
               "\t.text", "\t.align 2", f"\t.global dt_prog_{p}", f"\t.type dt_prog_{p}, %function",
               "\t.thumb_func", f"dt_prog_{p}:",
               f"dt_prog_{p}_code:"]  # a plain label: no Thumb bit in `.word dt_prog_{p}_code`
        out += [f"\t{i.text}" for i in pro]
        out.append(f"dt_prog_{p}_body:")
        out += [f"\t{i.text}" for i in body]
        out.append(f"dt_prog_{p}_epilogue:")
        out += [f"\t{i.text}" for i in epi]
        for name, items in funcs:
            out += [f"\t.type {name}, %function", "\t.thumb_func", f"{name}:"]
            out += [f"\t{i.text}" for i in items]
        out.append("\t.align 2")
        for key, label in self.lits.items():
            out.append(f"{label}:\t.word {key}")
        out.append(f"dt_prog_{p}_end:")
        return Program(p, mem_seed, self.init_sp, "\n".join(out) + "\n", self.kinds)

    # ---- FP state (--arch v7em) ----------------------------------------------------------
    FP_DUMP = 0x20000F00  # S0-S31 and FPSCR: loaded from the pattern there, dumped back at the end

    def fp_prologue(self) -> list[Item]:
        """S0-S31 from the random pattern (VLDM), a few corner values, a random FPSCR."""
        items = [self.lit(0, 0xE000EF34), self.lit(1, 0xC0000000), Item("str r1, [r0]", 2),  # FPCCR: lazy
                 self.lit(0, self.FP_DUMP), self.w32(0xEC900A20)]  # VLDMIA r0, {s0-s31}
        for _ in range(self.rng.randrange(6)):
            items += self._set_s(self.rng.randrange(32), fp_value(self.rng))
        return items + [self.lit(0, fpscr_value(self.rng)), self.w32(0xEEE10A10)]  # VMSR FPSCR, r0

    def fp_epilogue(self) -> list[Item]:
        """After the core registers are saved: S0-S31 and FPSCR to FP_DUMP (compared as memory)."""
        return [self.lit(1, self.FP_DUMP), self.w32(0xEC810A20),  # VSTMIA r1, {s0-s31}
                self.w32(0xEEF12A10), Item("str r2, [r1, #128]", 2)]  # VMRS r2, FPSCR


# --arch: the groups each ARMv7-M profile adds to the ARMv6-M ones (v7em: the Cortex-M4F)
ARCH_GROUPS = {"v7m": THUMB2_GROUPS, "v7em": THUMB2_GROUPS + DSP_GROUPS + FP_GROUPS}
# the assembler's core (and FPU) of each profile
CPU_DIRECTIVES = {"v6m": ["\t.cpu cortex-m0"], "v7m": ["\t.cpu cortex-m3"],
                  "v7em": ["\t.cpu cortex-m4", "\t.fpu fpv4-sp-d16"]}
GROUPS = [n[2:] for n, _ in _Gen.SIMPLE + _Gen.SP_CHANGING + THUMB2_GROUPS + DSP_GROUPS + FP_GROUPS] + ["pc_write"]
ARCHS = ("v6m", "v7m", "v7em")


def generate(seed: int, idx: int, exclude: frozenset = frozenset(), arch: str = "v6m") -> Program:
    """Program `idx` of `seed`. `exclude` names groups (GROUPS) never to generate: a run
    with exclusions is a different run (the random streams change), for working around a
    known bug while looking for others. `arch` v7m adds the Thumb-2 groups (gen_thumb2.py)
    and draws from another random stream, so v6m programs are unchanged."""
    for attempt in range(8):
        try:
            g = _Gen(seed, idx, exclude, attempt, stream="" if arch == "v6m" else arch)
            g.arch = arch
            return g.program()
        except _TooBig:
            continue
    raise RuntimeError(f"program {idx} of seed {seed} does not fit the literal-pool reach")


def batch_asm(programs: list[Program], run: list[int] | None = None, arch: str = "v6m") -> str:
    """The assembly of one image: the program tables the runtime reads, then the programs.

    Every program is assembled (so addresses do not depend on `run`), but only those whose
    index is in `run` (default: all) are in the table the runtime walks."""
    sel = [pr for pr in programs if run is None or pr.idx in run]
    out = ["\t.syntax unified", *CPU_DIRECTIVES[arch], "\t.thumb",
           "\t.section .rodata.dt_tables,\"a\"", "\t.align 2",
           "\t.global dt_prog_count", f"dt_prog_count:\t.word {len(sel)}",
           "\t.global dt_prog_table", "dt_prog_table:"]
    out += [f"\t.word dt_prog_{pr.idx}" for pr in sel]
    out += ["\t.global dt_prog_info", "dt_prog_info:"]
    out += [f"\t.word {pr.idx}, 0x{pr.mem_seed:08x}, 0x{pr.init_sp:08x}" for pr in sel]
    out.append("")
    return "\n".join(out) + "".join(pr.asm for pr in programs)


if __name__ == "__main__":  # print one program's assembly: python3 gen.py SEED IDX
    import sys
    s, i = (int(a, 0) for a in sys.argv[1:3])
    print(generate(s, i).asm)
