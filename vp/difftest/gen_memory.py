"""Instruction groups of the generator: loads and stores, literal loads, ADR, and what moves
the stack pointer (SP adjustments and writes, PSP, PUSH/POP, LDM/STM)."""

from __future__ import annotations

from gen_common import REGION_START, SCRATCH_END, SP_MAX, SP_MIN, rand_value


class MemoryGroups:
    """Mixed into the generator (gen.py): each g_* returns (kind, [Item]) or None."""

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
