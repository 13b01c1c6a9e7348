"""Instruction groups of the generator for the Cortex-M4's DSP extension (`difftest.py --arch
v7em`): the parallel add/subtract family with the APSR.GE bits, SEL, USAD8/USADA8,
SSAT16/USAT16, PKHBT/PKHTB, the extend-and-add forms, QADD/QSUB/QDADD/QDSUB, the halfword,
dual and most-significant-word multiplies, the long DSP multiplies and UMAAL, MSR APSR_g,
and DSP instructions inside IT blocks. Encodings are emitted raw (`.inst.w`, ARMv7-M ARM
A5.3) with random fields inside the defined (not UNPREDICTABLE) space; operands are often
built from interesting lanes (0x7F/0x80/0xFF bytes, 0x7FFF/0x8000/0xFFFF halfwords) so that
saturation, the Q flag and every GE bit are reached."""

from __future__ import annotations

from gen_common import EDGE_PAIRS, Item, rand_value
from gen_thumb2 import it_mask, r12

HALVES = [0, 1, 2, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0xFFFE, 0x00FF, 0xFF00, 0x4000]
BYTES = [0, 1, 0x7F, 0x80, 0x81, 0xFF, 0xFE, 0x40]
PAR_PREFIX = [0, 1, 2, 4, 5, 6]  # S Q SH U UQ UH (U << 2 | op2)
PAR_OP1 = [0, 1, 2, 4, 5, 6]  # ADD8 ADD16 ASX SUB8 SUB16 SAX


def lane_value(rng) -> int:
    """A word of interesting halfword or byte lanes, or any interesting word."""
    k = rng.random()
    if k < 0.35:
        return rng.choice(HALVES) | (rng.choice(HALVES) << 16)
    if k < 0.7:
        return sum(rng.choice(BYTES) << (8 * i) for i in range(4))
    return rand_value(rng)


class DspGroups:
    """Mixed into the generator (gen.py) for --arch v7em: each g_dsp_* returns (kind, [Item])."""

    def _dsp_operands(self, n: int, pairs: bool = False) -> tuple[list[int], list[Item]]:
        """`n` distinct source registers, often low ones loaded with interesting lanes (or,
        with `pairs`, an EDGE_PAIRS pair for the first two)."""
        rng = self.rng
        if rng.random() < 0.75:
            regs = rng.sample(range(8), n)
            if pairs and rng.random() < 0.5:
                vals = list(rng.choice(EDGE_PAIRS)) + [lane_value(rng) for _ in range(n - 2)]
            else:
                vals = [lane_value(rng) for _ in range(n)]
            return regs, [self.lit(r, v) for r, v in zip(regs, vals)]
        return [r12(rng) for _ in range(n)], []

    # ---- single instructions (also used inside IT blocks) ------------------------------
    def dsp_parallel(self, rd: int, rn: int, rm: int) -> Item:
        rng = self.rng
        prefix, op1 = rng.choice(PAR_PREFIX), rng.choice(PAR_OP1)
        v = 0xFA80_F000 | (op1 << 20) | (rn << 16) | (rd << 8) | (prefix << 4) | rm
        return self.w32(v)

    def dsp_mul(self, rd: int, rn: int, rm: int, ra: int) -> Item:
        """SMLA<x><y>, SMLAD{X}, SMLAW<y>, SMLSD{X}, SMMLA{R}, SMMLS{R}, USADA8; ra = 15 the
        forms without the accumulator (SMMLS has none)."""
        rng = self.rng
        op1 = rng.randrange(1, 8)
        op2 = rng.randrange(4) if op1 == 1 else 0 if op1 == 7 else rng.randrange(2)
        if op1 == 6 and ra == 15:
            ra = r12(rng)
        return self.w32(0xFB00_0000 | (op1 << 20) | (rn << 16) | (ra << 12) | (rd << 8) | (op2 << 4) | rm)

    # ---- groups --------------------------------------------------------------------------
    def g_dsp_parallel(self):
        """One or two SIMD add/subtracts, then sometimes SEL on the GE bits they set."""
        rng = self.rng
        (rn, rm), items = self._dsp_operands(2)
        for _ in range(rng.choice([1, 1, 2])):
            items.append(self.dsp_parallel(r12(rng), rn, rm))
        if rng.random() < 0.4:
            items.append(self.w32(0xFAA0_F080 | (r12(rng) << 16) | (r12(rng) << 8) | r12(rng)))
        return "dsp_parallel", items

    def g_dsp_sel(self):
        """MSR APSR_g (or APSR_nzcvqg) with random GE bits, then SEL."""
        rng = self.rng
        (rs, rn, rm), items = self._dsp_operands(3)
        mask, sysm = rng.choice([1, 3]), rng.randrange(4)
        items.append(self.w32(0xF380_8000 | (rs << 16) | (mask << 10) | sysm))
        return "dsp_sel", items + [self.w32(0xFAA0_F080 | (rn << 16) | (r12(rng) << 8) | rm)]

    def g_dsp_sad(self):
        rng = self.rng
        (rn, rm, ra), items = self._dsp_operands(3)
        ra = 15 if rng.random() < 0.4 else ra
        return "dsp_sad", items + [self.w32(0xFB70_0000 | (rn << 16) | (ra << 12) | (r12(rng) << 8) | rm)]

    def g_dsp_qadd(self):
        """QADD, QDADD, QSUB, QDSUB (the Q flag) at the overflow edges."""
        rng = self.rng
        (rn, rm), items = self._dsp_operands(2, pairs=True)
        v = 0xFA80_F080 | (rn << 16) | (r12(rng) << 8) | (rng.randrange(4) << 4) | rm
        return "dsp_qadd", items + [self.w32(v)]

    def g_dsp_sat16(self):
        rng = self.rng
        (rn,), items = self._dsp_operands(1)
        unsigned = rng.randrange(2)
        sat = rng.randrange(16)  # SSAT16: 1..16 bits (field sat - 1); USAT16: 0..15 bits
        v = (0xF3A0_0000 if unsigned else 0xF320_0000) | (rn << 16) | (r12(rng) << 8) | sat
        return "dsp_sat16", items + [self.w32(v)]

    def g_dsp_pack(self):
        """PKHBT/PKHTB with any shift, and the extend-and-add forms with any rotation."""
        rng = self.rng
        (rn, rm), items = self._dsp_operands(2)
        rd = r12(rng)
        if rng.random() < 0.4:
            tb, amt = rng.randrange(2), rng.choice([0, 1, 8, 15, 16, 31, rng.randrange(32)])
            v = 0xEAC0_0000 | (rn << 16) | ((amt >> 2) << 12) | (rd << 8) | ((amt & 3) << 6) | (tb << 5) | rm
            return "dsp_pkh", items + [self.w32(v)]
        op1 = rng.randrange(6)  # SXTAH UXTAH SXTAB16 UXTAB16 SXTAB UXTAB
        rn = 15 if op1 in (2, 3) and rng.random() < 0.3 else rn  # SXTB16/UXTB16
        v = 0xFA00_F080 | (op1 << 20) | (rn << 16) | (rd << 8) | (rng.randrange(4) << 4) | rm
        return "dsp_extend_add", items + [self.w32(v)]

    def g_dsp_mul(self):
        rng = self.rng
        (rn, rm, ra), items = self._dsp_operands(3)
        ra = 15 if rng.random() < 0.35 else ra
        return "dsp_mul", items + [self.dsp_mul(r12(rng), rn, rm, ra)]

    def g_dsp_mul_long(self):
        """SMLAL<x><y>, SMLALD{X}, SMLSLD{X}, UMAAL: RdLo/RdHi accumulate (and may be sources)."""
        rng = self.rng
        (rn, rm, lo, hi), items = self._dsp_operands(4)
        if rng.random() < 0.3 or lo == hi:  # RdLo == RdHi is UNPREDICTABLE
            lo = r12(rng)
            hi = r12(rng, avoid=(lo,))
        op1, op2 = rng.choice([(4, 8), (4, 9), (4, 10), (4, 11), (4, 12), (4, 13), (5, 12), (5, 13), (6, 6)])
        v = 0xFB80_0000 | (op1 << 20) | (rn << 16) | (lo << 12) | (hi << 8) | (op2 << 4) | rm
        return "dsp_mul_long", items + [self.w32(v)]

    def g_dsp_it(self):
        """IT with 1-3 DSP instructions (they set GE and Q only when their condition passes)."""
        rng = self.rng
        k = rng.randrange(1, 4)
        fc = rng.randrange(14)
        mask = it_mask(rng, fc, k)
        (rn, rm, ra), items = self._dsp_operands(3)
        body = [self.dsp_parallel(r12(rng), rn, rm) if rng.random() < 0.5 else self.dsp_mul(r12(rng), rn, rm, ra)
                for _ in range(k)]
        return "dsp_it", items + [self.hw(0xBF00 | (fc << 4) | mask)] + body


DSP_GROUPS = [("g_dsp_parallel", 8), ("g_dsp_sel", 3), ("g_dsp_sad", 2), ("g_dsp_qadd", 3),
              ("g_dsp_sat16", 2), ("g_dsp_pack", 4), ("g_dsp_mul", 7), ("g_dsp_mul_long", 4),
              ("g_dsp_it", 2)]
