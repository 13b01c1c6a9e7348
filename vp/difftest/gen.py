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

import random
from dataclasses import dataclass, field

REGION_START = 0x20000000
SCRATCH_END = 0x20000400  # base-register loads/stores stay in [REGION_START, SCRATCH_END)
REGION_END = 0x20001000
SP_MIN = 0x200004C0  # lowest SP a program may reach (room below for a 9-word push in a callee)
SP_MAX = 0x20000C00  # highest SP: SP + 1020 (LDR/STR [SP,#imm8*4]) stays in the region

MRS_SYSM = [0, 1, 2, 3, 5, 6, 7, 8, 9, 16, 20]  # APSR..IEPSR, MSP, PSP, PRIMASK, CONTROL
COND_NAMES = ["eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le"]

SPECIAL = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF,
           0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF,
           0xFFFFFFFE, 0xFFFFFF80, 0xFFFF8000, 0x7FFFFFFE, 0x00FF00FF, 0xFF00FF00]


# operand pairs at the carry/overflow edges (with either carry-in)
EDGE_PAIRS = [(0x7FFFFFFF, 0), (0x7FFFFFFF, 1), (0x7FFFFFFE, 1), (0x80000000, 0), (0x80000000, 1),
              (0x80000000, 0xFFFFFFFF), (0x80000001, 1), (0xFFFFFFFF, 0), (0xFFFFFFFF, 1),
              (0xFFFFFFFF, 0xFFFFFFFF), (0, 0), (0, 0xFFFFFFFF), (0x7FFFFFFF, 0x7FFFFFFF),
              (0x80000000, 0x80000000), (0x40000000, 0x3FFFFFFF), (0x7FFFFFFF, 0x80000000)]


def rand_value(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.40:
        return rng.getrandbits(32)
    if r < 0.60:
        return rng.choice(SPECIAL)
    if r < 0.75:
        return rng.randrange(0, 256)
    if r < 0.85:
        return (-rng.randrange(1, 256)) & 0xFFFFFFFF
    if r < 0.95:  # a few bits set
        v = 0
        for _ in range(rng.randrange(1, 4)):
            v |= 1 << rng.randrange(32)
        return v
    return (rng.choice(SPECIAL) + rng.randrange(-2, 3)) & 0xFFFFFFFF


def shift_amount_value(rng: random.Random) -> int:
    """A register value whose low byte is an interesting shift amount (bits 31:8 random)."""
    amt = rng.choice([0, 0, 1, 2, 7, 8, 15, 16, 31, 31, 32, 32, 32, 33, 33, 34, 63, 64, 127, 128,
                      200, 255, rng.randrange(256)])
    return (rng.getrandbits(24) << 8) | amt if rng.random() < 0.5 else amt


@dataclass
class Item:
    text: str
    size: int  # bytes


@dataclass
class Program:
    idx: int
    mem_seed: int
    init_sp: int
    asm: str
    kinds: dict = field(default_factory=dict)  # group kind -> count (coverage)


class _TooBig(Exception):
    pass


class _Gen:
    def __init__(self, seed: int, idx: int, exclude: frozenset = frozenset(), attempt: int = 0):
        # attempt > 0: the earlier attempt did not fit the literal-pool reach; retry smaller
        self.rng = random.Random(f"rtoslab-difftest:{seed}:{idx}" + (f":{attempt}" if attempt else ""))
        self.scale = 0.6 ** attempt
        self.exclude = exclude
        self.idx = idx
        self.lits: dict[str, str] = {}  # literal text -> label
        self.kinds: dict[str, int] = {}
        self.nfuncs = 0
        # conservative range of SP values the body can reach
        self.sp_lo = self.sp_hi = 0
        self.frame_words = 0
        self.in_leaf = False
        self.maybe_psp = False  # the body may have switched the thread to the process stack
        self.nlabels = 0

    # ---- emission helpers -------------------------------------------------------------
    def hw(self, v: int) -> Item:
        assert 0 <= v <= 0xFFFF and (v >> 11) not in (0x1D, 0x1E, 0x1F), hex(v)
        return Item(f".inst.n 0x{v:04x}", 2)

    def w32(self, v: int) -> Item:
        return Item(f".inst.w 0x{v:08x}", 4)

    def lit(self, rt: int, value) -> Item:
        key = f"0x{value:08x}" if isinstance(value, int) else value
        label = self.lits.get(key)
        if label is None:
            label = f".Ll{self.idx}_{len(self.lits)}"
            self.lits[key] = label
        return Item(f"ldr r{rt}, {label}", 2)

    def lo(self) -> int:
        return self.rng.randrange(8)

    def count(self, kind: str):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    # ---- groups: each returns (kind, [Item]) --------------------------------------------
    def g_shift_imm(self):
        rng = self.rng
        op = rng.randrange(3)  # LSL LSR ASR
        imm5 = rng.choice([0, 0, 1, 31, rng.randrange(32), rng.randrange(32)])
        return "shift_imm", [self.hw((op << 11) | (imm5 << 6) | (self.lo() << 3) | self.lo())]

    def g_addsub3(self):
        rng = self.rng
        op = rng.randrange(4)  # ADD reg, SUB reg, ADD imm3, SUB imm3
        rm_imm, rn, rd = rng.randrange(8), self.lo(), self.lo()
        items = []
        if op < 2 and rm_imm != rn and rng.random() < 0.3:
            a, b = rng.choice(EDGE_PAIRS)
            items += [self.lit(rn, a), self.lit(rm_imm, b)]
        return "addsub3", items + [self.hw(0x1800 | (op << 9) | (rm_imm << 6) | (rn << 3) | rd)]

    def g_imm8(self):
        rng = self.rng
        op = rng.randrange(4)  # MOV CMP ADD SUB
        imm8 = rng.choice([0, 1, 0xFF, 0x80, 0x7F, rng.randrange(256), rng.randrange(256)])
        return "imm8", [self.hw(0x2000 | (op << 11) | (self.lo() << 8) | imm8)]

    def g_dp(self):
        rng = self.rng
        op = rng.randrange(16)
        rdn, rm = self.lo(), self.lo()
        items = []
        if op in (2, 3, 4, 7) and rng.random() < 0.6:  # register shifts: make the amount interesting
            items.append(self.lit(rm, shift_amount_value(rng)))
        elif op in (5, 6, 9, 10, 11) and rng.random() < 0.35 and rdn != rm:  # ADC SBC RSB CMP CMN
            a, b = rng.choice(EDGE_PAIRS)
            if rng.random() < 0.5:
                a, b = b, a
            items += [self.lit(rdn, a), self.lit(rm, b)]
        items.append(self.hw(0x4000 | (op << 6) | (rm << 3) | rdn))
        return f"dp{op}", items

    def g_hireg(self):
        rng = self.rng
        kind = rng.randrange(3)  # ADD CMP MOV
        if kind == 1:
            # CMP (register) T2: not both low, neither PC (UNPREDICTABLE otherwise)
            while True:
                n = rng.randrange(15)
                m = rng.randrange(15)
                if n >= 8 or m >= 8:
                    break
            return "hi_cmp", [self.hw(0x4500 | ((n >> 3) << 7) | (m << 3) | (n & 7))]
        # ADD/MOV: destination r0-r12 (never SP, LR, PC); source anything, PC/SP/LR rarely
        d = rng.choice(list(range(8, 13)) * 2 + list(range(8)))
        r = rng.random()
        if r < 0.08:
            m = 15
        elif r < 0.16:
            m = 13
        elif r < 0.20:
            m = 14
        else:
            m = rng.randrange(13)
        base = 0x4400 if kind == 0 else 0x4600
        return ("hi_add" if kind == 0 else "hi_mov"), [self.hw(base | ((d >> 3) << 7) | (m << 3) | (d & 7))]

    def g_ext(self):
        op = self.rng.randrange(4)  # SXTH SXTB UXTH UXTB
        return "extend", [self.hw(0xB200 | (op << 6) | (self.lo() << 3) | self.lo())]

    def g_rev(self):
        op = self.rng.choice([0, 1, 3])  # REV REV16 REVSH
        return "rev", [self.hw(0xBA00 | (op << 6) | (self.lo() << 3) | self.lo())]

    def _addr(self, size: int, span: int = 0) -> int:
        """A random address in the scratch area aligned to `size` with [addr, addr+span+size) inside."""
        hi = (SCRATCH_END - REGION_START - span - size) // size
        return REGION_START + size * self.rng.randrange(hi + 1)

    def g_ldst_imm(self):
        rng = self.rng
        kind = rng.randrange(6)
        base_op, size = [(0x6000, 4), (0x6800, 4), (0x7000, 1), (0x7800, 1), (0x8000, 2), (0x8800, 2)][kind]
        imm5 = rng.randrange(32)
        addr = self._addr(size, imm5 * size)
        rn, rt = self.lo(), self.lo()
        return "ldst_imm", [self.lit(rn, addr), self.hw(base_op | (imm5 << 6) | (rn << 3) | rt)]

    def g_ld_flash(self):
        """A load from flash: the base is an address inside this program's own code."""
        rng = self.rng
        base_op, size = rng.choice([(0x6800, 4), (0x7800, 1), (0x8800, 2), (0x5600, 1), (0x5E00, 2)])
        rn, rt = self.lo(), self.lo()
        off = size * rng.randrange(64 // size)
        if base_op in (0x5600, 0x5E00):  # LDRSB/LDRSH register offset
            rm = rng.choice([r for r in range(8) if r != rn])
            k = size * rng.randrange(16)
            return "ld_flash", [self.lit(rn, f"dt_prog_{self.idx}_code+{off}"), self.lit(rm, k),
                                self.hw(base_op | (rm << 6) | (rn << 3) | rt)]
        imm5 = rng.randrange(32)
        return "ld_flash", [self.lit(rn, f"dt_prog_{self.idx}_code+{off}"),
                            self.hw(base_op | (imm5 << 6) | (rn << 3) | rt)]

    def g_ldst_reg(self):
        rng = self.rng
        opb = rng.randrange(8)  # STR STRH STRB LDRSB LDR LDRH LDRB LDRSH
        size = [4, 2, 1, 1, 4, 2, 1, 2][opb]
        addr = self._addr(size)
        if rng.random() < 0.8:
            off = size * rng.randrange(-64, 65)
        else:
            off = (addr - rng.getrandbits(32)) & 0xFFFFFFFF  # wrap-around base + offset
            off -= off % size
        base = (addr - off) & 0xFFFFFFFF
        rn = self.lo()
        rm = rng.choice([r for r in range(8) if r != rn])
        rt = self.lo()
        return "ldst_reg", [self.lit(rn, base), self.lit(rm, off & 0xFFFFFFFF),
                            self.hw(0x5000 | (opb << 9) | (rm << 6) | (rn << 3) | rt)]

    def g_ldr_lit(self):
        imm8 = self.rng.randrange(256)
        return "ldr_literal", [self.hw(0x4800 | (self.lo() << 8) | imm8)]

    def g_sp_ldst(self):
        op = self.rng.choice([0x9000, 0x9800])
        # in a framed function, stores keep off the saved registers and return address
        lo = self.frame_words if op == 0x9000 else 0
        imm8 = self.rng.randrange(lo, 256)
        return "ldst_sp", [self.hw(op | (self.lo() << 8) | imm8)]

    def g_adr(self):
        op = self.rng.choice([0xA000, 0xA800])  # ADR, ADD Rd,SP,#imm
        return "adr_addsp", [self.hw(op | (self.lo() << 8) | self.rng.randrange(256))]

    def _sp_ok(self, delta: int, extra_below: int = 0) -> bool:
        lo = self.sp_lo + min(delta, 0)
        hi = self.sp_hi + max(delta, 0)
        return (self.init_sp + lo - extra_below >= SP_MIN) and (self.init_sp + hi <= SP_MAX)

    def _sp_apply(self, delta: int):
        self.sp_lo += min(delta, 0)
        self.sp_hi += max(delta, 0)

    def g_sp_adj(self):
        rng = self.rng
        for _ in range(8):
            imm7 = rng.choice([0, 1, 2, rng.randrange(16), rng.randrange(128)])
            sub = rng.random() < 0.5
            delta = -4 * imm7 if sub else 4 * imm7
            if self._sp_ok(delta):
                self._sp_apply(delta)
                return "addsub_sp", [self.hw(0xB000 | (0x80 if sub else 0) | imm7)]
        return None

    def g_sp_write(self):
        """SP written from a register: MOV SP,Rm, ADD SP,Rm or MSR MSP,Rn (4-aligned values:
        SP[1:0] written non-zero is UNPREDICTABLE)."""
        rng = self.rng
        r = rng.randrange(13)
        kind = rng.choice(["mov", "add", "msr"])
        if kind == "add":
            delta = 4 * rng.randrange(-64, 65)
            if not self._sp_ok(delta):
                return None
            self._sp_apply(delta)
            value, op = delta & 0xFFFFFFFF, self.hw(0x4485 | (r << 3))  # ADD SP, Rm
        else:
            # an absolute SP: keep the conservative range covering it
            lo = max(SP_MIN, self.init_sp + self.sp_lo - 256)
            hi = min(SP_MAX, self.init_sp + self.sp_hi + 256)
            value = lo + 4 * rng.randrange((hi - lo) // 4 + 1)
            self.sp_lo = min(self.sp_lo, value - self.init_sp)
            self.sp_hi = max(self.sp_hi, value - self.init_sp)
            op = self.hw(0x4685 | (r << 3)) if kind == "mov" else self.w32(0xF3808808 | (r << 16))
        if r < 8:
            items = [self.lit(r, value)]
        else:
            items = [self.lit(0, value), self.hw(0x4600 | ((r >> 3) << 7) | (r & 7))]
        return "sp_write", items + [op]

    def g_psp(self):
        """MSR PSP (any value: bits 1:0 read as zero) and/or a switch of the thread stack
        (MSR CONTROL with SPSEL = 1 or 0, then ISB). On the process stack, PUSH/POP/SP-relative
        accesses and exception frames use PSP, and EXC_RETURN is 0xFFFFFFFD."""
        rng = self.rng
        r = rng.randrange(8)
        items = []
        k = rng.randrange(3)
        if k == 0 and not self.maybe_psp:  # just write PSP, any value (it is not SP yet)
            items = [self.lit(r, rand_value(rng)), self.w32(0xF3808809 | (r << 16))]
            return "psp", items
        if k < 2:  # PSP := an address in the stack area, SPSEL := 1
            lo = max(SP_MIN, self.init_sp + self.sp_lo - 256)
            hi = min(SP_MAX, self.init_sp + self.sp_hi + 256)
            value = lo + 4 * rng.randrange((hi - lo) // 4 + 1) + rng.choice([0, 0, 1, 2, 3])
            self.sp_lo = min(self.sp_lo, (value & ~3) - self.init_sp)
            self.sp_hi = max(self.sp_hi, (value & ~3) - self.init_sp)
            items = [self.lit(r, value), self.w32(0xF3808809 | (r << 16))]
            ctrl = 2
            self.maybe_psp = True
        else:  # back to MSP (or stay there)
            ctrl = 0
        items += [self.lit(r, ctrl),
                  self.w32(0xF3808814 | (r << 16)), self.w32(0xF3BF8F6F)]  # MSR CONTROL ; ISB
        return "psp", items

    def g_pushpop(self):
        rng = self.rng
        push = rng.random() < 0.55
        rl = rng.getrandbits(8)
        m = 0
        if push and rng.random() < 0.3:
            m = 1
        if rl == 0 and m == 0:
            rl = 1 << rng.randrange(8)
        n = bin(rl).count("1") + m
        delta = -4 * n if push else 4 * n
        if not self._sp_ok(delta):
            return None
        self._sp_apply(delta)
        return ("push" if push else "pop"), [self.hw((0xB400 if push else 0xBC00) | (m << 8) | rl)]

    def g_ldm_stm(self):
        rng = self.rng
        load = rng.random() < 0.5
        rn = self.lo()
        rl = rng.getrandbits(8) or (1 << rng.randrange(8))
        if not load and (rl >> rn) & 1 and (rl & ((1 << rn) - 1)):
            # STM with the base in the list but not lowest stores an UNKNOWN value: drop it
            rl &= ~(1 << rn)
        n = bin(rl).count("1")
        addr = self._addr(4, 4 * (n - 1))
        return ("ldm" if load else "stm"), [self.lit(rn, addr), self.hw((0xC800 if load else 0xC000) | (rn << 8) | rl)]

    def g_mrs(self):
        sysm = self.rng.choice(MRS_SYSM)
        rd = self.rng.randrange(13)
        return "mrs", [self.w32(0xF3EF8000 | (rd << 8) | sysm)]

    def g_msr(self):
        rng = self.rng
        rn = rng.randrange(8)
        if rng.random() < 0.1:
            # IPSR/EPSR/IEPSR: ARMv6-M ignores the write (any value, any register)
            sysm = rng.choice([5, 6, 7])
            return "msr_ipsr", [self.w32(0xF3808800 | (rng.randrange(13) << 16) | sysm)]
        if rng.random() < 0.25:
            return "msr_primask", [self.w32(0xF3808800 | (rng.randrange(13) << 16) | 16)]
        sysm = rng.choice([0, 1, 2, 3])
        # bit 27 (Q) does not exist on ARMv6-M; QEMU keeps it anyway, so keep it clear
        v = rand_value(rng) & ~0x08000000
        return "msr_apsr", [self.lit(rn, v), self.w32(0xF3808800 | (rn << 16) | sysm)]

    def g_misc(self):
        rng = self.rng
        k = rng.randrange(8)
        if k < 5:
            v = [0xB672, 0xB662, 0xBF00, 0xBF10, 0xBF40][k]  # CPSID i, CPSIE i, NOP, YIELD, SEV
            return "hint_cps", [self.hw(v)]
        return "barrier", [self.w32([0xF3BF8F5F, 0xF3BF8F4F, 0xF3BF8F6F][k - 5])]  # DMB DSB ISB

    def g_svc(self):
        """SVC #imm8 (PRIMASK cleared first: SVC with PRIMASK set escalates to HardFault)."""
        return "svc", [self.hw(0xB662), self.hw(0xDF00 | self.rng.randrange(256))]

    def g_svc_masked(self):
        """SVC with PRIMASK set escalates to HardFault; the return address is the next
        instruction, which the handler then skips (a NOP)."""
        return "svc_masked", [self.hw(0xB672), self.hw(0xDF00 | self.rng.randrange(256)), self.hw(0xBF00)]

    def g_invstate(self):
        """BX/BLX to an even address: the branch completes with EPSR.T = 0 and the next fetch
        raises HardFault (INVSTATE) with the target as stacked PC; the handler skips the NOP there."""
        r = self.rng.randrange(13)
        self.nlabels += 1
        label = f".Lx{self.idx}_{self.nlabels}"
        # BX or BLX; not BLX in a leaf function, whose LR must survive until its BX LR
        op = 0x4700 if self.in_leaf or self.rng.random() < 0.5 else 0x4780
        if r < 8:
            items = [self.lit(r, label)]
        else:
            items = [self.lit(0, label), self.hw(0x4600 | ((r >> 3) << 7) | (r & 7))]
        if self.rng.random() < 0.3 and r < 8:
            # POP {pc} of an even address: LoadWritePC -> BXWritePC, the same rule
            items += [self.hw(0xB400 | (1 << r)), self.hw(0xBD00)]
        else:
            items.append(self.hw(op | (r << 3)))
        items += [Item(f"{label}:", 0), self.hw(0xBF00)]
        return "invstate", items

    def g_pend(self):
        """With PRIMASK set, pend PendSV and/or an IRQ (optionally with random priorities),
        DSB, then CPSIE: the exception(s) must be taken right after the CPSIE, the higher
        priority first (same priority: lower exception number first), the other tail-chained.
        Priorities use only bits 7:6 (the 2 bits a Cortex-M0 implements)."""
        rng = self.rng
        ra, rb = rng.sample(range(8), 2)
        items = [self.hw(0xB672)]  # CPSID i

        def store(addr, value):
            items.extend([self.lit(ra, addr), self.lit(rb, value), self.hw(0x6000 | (ra << 3) | rb)])

        what = rng.choice(["pendsv", "irq", "both"])
        n = rng.randrange(32)
        if what != "pendsv":
            if rng.random() < 0.5:
                store(0xE000E400 + 4 * (n // 4), (rng.randrange(4) << 6) << (8 * (n % 4)))  # NVIC_IPR
            store(0xE000E100, 1 << n)  # NVIC_ISER
            store(0xE000E200, 1 << n)  # NVIC_ISPR
        if what != "irq":
            if rng.random() < 0.5:
                store(0xE000ED20, rng.randrange(4) << 22)  # SHPR3: PendSV priority
            store(0xE000ED04, 1 << 28)  # ICSR.PENDSVSET
        items += [self.w32(0xF3BF8F4F), self.hw(0xB662)]  # DSB ; CPSIE i
        return "pend_" + what, items

    def g_fault(self):
        """A 16-bit instruction that must raise HardFault: UDF, or an unaligned access."""
        rng = self.rng
        k = rng.randrange(5)
        if k == 0:
            return "fault_udf", [self.hw(0xDE00 | rng.randrange(256))]
        rn, rt = self.lo(), self.lo()
        if k == 1:  # LDR/STR word, imm5, address 1..3 mod 4
            op = rng.choice([0x6000, 0x6800])
            addr = self._addr(4, 128) + rng.randrange(1, 4)
            return "fault_align", [self.lit(rn, addr), self.hw(op | (rng.randrange(32) << 6) | (rn << 3) | rt)]
        if k == 2:  # LDRH/STRH imm5, odd address
            op = rng.choice([0x8000, 0x8800])
            addr = self._addr(2, 64) + 1
            return "fault_align", [self.lit(rn, addr), self.hw(op | (rng.randrange(32) << 6) | (rn << 3) | rt)]
        if k == 3:  # register offset: STR STRH LDR LDRH LDRSH
            opb = rng.choice([0, 1, 4, 5, 7])
            size = [4, 2, 1, 1, 4, 2, 1, 2][opb]
            addr = self._addr(4) + rng.randrange(1, size)
            rm = rng.choice([r for r in range(8) if r != rn])
            off = rng.randrange(-16, 17)
            return "fault_align", [self.lit(rn, (addr - off) & 0xFFFFFFFF), self.lit(rm, off & 0xFFFFFFFF),
                                   self.hw(0x5000 | (opb << 9) | (rm << 6) | (rn << 3) | rt)]
        # LDM/STM with an unaligned base
        load = rng.random() < 0.5
        rl = rng.getrandbits(8) or (1 << rn)
        if not load and (rl >> rn) & 1 and (rl & ((1 << rn) - 1)):
            rl &= ~(1 << rn)
            rl = rl or (1 << rn)
        addr = self._addr(4, 32) + rng.randrange(1, 4)
        return "fault_align", [self.lit(rn, addr), self.hw((0xC800 if load else 0xC000) | (rn << 8) | rl)]

    def g_ram_code(self):
        """Write 1-5 random register-only instructions and BX LR to the scratch RAM, DSB, ISB,
        BLX to them; sometimes rewrite the first word and call again (the second call must run
        the new instructions: no stale decoded code)."""
        rng = self.rng
        pure = [self.g_shift_imm, self.g_imm8, self.g_ext, self.g_rev]

        def snippet_word_pairs():
            hws = []
            for _ in range(rng.randrange(1, 6)):
                _, its = rng.choice(pure)()
                hws += [int(i.text.split()[1], 16) for i in its]
            if rng.random() < 0.5:  # data processing without the shift-amount literal
                hws.append(0x4000 | (rng.randrange(16) << 6) | (self.lo() << 3) | self.lo())
            hws.append(0x4770)  # BX LR
            if len(hws) % 2:
                hws.append(0xBF00)
            return [hws[i] | (hws[i + 1] << 16) for i in range(0, len(hws), 2)]

        ra, rb, rc = rng.sample(range(8), 3)
        words = snippet_word_pairs()
        addr = REGION_START + 0x300 + 4 * rng.randrange(0, (0x100 - 4 * len(words) - 8) // 4)
        items = [self.lit(ra, addr)]
        for k, w in enumerate(words):
            items += [self.lit(rb, w), self.hw(0x6000 | (k << 6) | (ra << 3) | rb)]  # STR rb,[ra,#4k]
        items += [self.w32(0xF3BF8F4F), self.w32(0xF3BF8F6F),  # DSB ; ISB
                  self.lit(rc, addr | 1), self.hw(0x4780 | (rc << 3))]  # BLX rc
        if rng.random() < 0.5:
            # the new first word keeps the snippet's BX LR reachable: two new instructions if
            # the BX LR is in a later word, else one new instruction and BX LR
            def one():
                return int(rng.choice(pure)()[1][-1].text.split()[1], 16)
            new = one() | ((one() if len(words) > 1 else 0x4770) << 16)
            items += [self.lit(ra, addr), self.lit(rb, new), self.hw(0x6000 | (ra << 3) | rb),
                      self.w32(0xF3BF8F4F), self.w32(0xF3BF8F6F),
                      self.lit(rc, addr | 1), self.hw(0x4780 | (rc << 3))]
        return "ram_code", items

    SIMPLE = [("g_shift_imm", 8), ("g_addsub3", 6), ("g_imm8", 6), ("g_dp", 20), ("g_hireg", 7),
              ("g_ext", 3), ("g_rev", 3), ("g_ldst_imm", 8), ("g_ldst_reg", 8), ("g_ldr_lit", 2), ("g_ld_flash", 2),
              ("g_sp_ldst", 4), ("g_adr", 2), ("g_ldm_stm", 4), ("g_mrs", 2), ("g_msr", 3),
              ("g_misc", 2), ("g_svc", 1), ("g_fault", 1),
              ("g_svc_masked", 0.3), ("g_invstate", 0.3), ("g_pend", 0.6),
              ("g_ram_code", 0.6)]
    SP_CHANGING = [("g_sp_adj", 3), ("g_pushpop", 5), ("g_sp_write", 1), ("g_psp", 1)]

    def simple_group(self, allow_sp: bool):
        table = self.SIMPLE + (self.SP_CHANGING if allow_sp else [])
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
        primask = rng.randrange(2)
        self.nfuncs = rng.choice([0, 1, 1, 2, 3])

        pro = [
            Item("push {r4-r7, lr}", 2),
            Item("mov r4, r8", 2), Item("mov r5, r9", 2), Item("mov r6, r10", 2), Item("mov r7, r11", 2),
            Item("push {r4-r7}", 2),
            self.lit(0, "dt_expect_exc"), Item("movs r1, #1", 2), Item("str r1, [r0]", 2),
            self.lit(0, "dt_saved_sp"), Item("mov r1, sp", 2), Item("str r1, [r0]", 2),
            self.lit(0, self.init_sp), Item("mov sp, r0", 2),
            self.lit(0, flags), Item("msr apsr_nzcvq, r0", 4),
            self.lit(0, primask), Item("msr primask, r0", 4),
        ]
        for r in range(8, 13):
            pro += [self.lit(0, regs[r]), Item(f"mov r{r}, r0", 2)]
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


GROUPS = [n[2:] for n, _ in _Gen.SIMPLE + _Gen.SP_CHANGING] + ["pc_write"]  # names for --exclude


def generate(seed: int, idx: int, exclude: frozenset = frozenset()) -> Program:
    """Program `idx` of `seed`. `exclude` names groups (GROUPS) never to generate: a run
    with exclusions is a different run (the random streams change), for working around a
    known bug while looking for others."""
    for attempt in range(8):
        try:
            return _Gen(seed, idx, exclude, attempt).program()
        except _TooBig:
            continue
    raise RuntimeError(f"program {idx} of seed {seed} does not fit the literal-pool reach")


def batch_asm(programs: list[Program], run: list[int] | None = None) -> str:
    """The assembly of one image: the program tables the runtime reads, then the programs.

    Every program is assembled (so addresses do not depend on `run`), but only those whose
    index is in `run` (default: all) are in the table the runtime walks."""
    sel = [pr for pr in programs if run is None or pr.idx in run]
    out = ["\t.syntax unified", "\t.cpu cortex-m0", "\t.thumb",
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
