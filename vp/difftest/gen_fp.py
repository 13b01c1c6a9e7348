"""Instruction groups of the generator for the Cortex-M4F's FPU (`difftest.py --arch v7em`):
FPv4-SP data processing (VADD..VFNMS, VSQRT, VABS/VNEG/VMOV), VCMP/VCMPE and VMRS
APSR_nzcv, every VCVT (integer, fixed point, half precision, VCVTR), the transfers between
core and FP registers (VMOV, VMRS/VMSR), VLDR/VSTR, VLDM/VSTM and VPUSH/VPOP with S and D
lists. Operands are often the IEEE corner values (zeros, infinities, quiet and signalling
NaNs, denormals, the largest values, integer and half-precision limits); FPSCR's rounding
mode, FZ, DN and AHP are random per program (prologue) and sometimes per group (VMSR).
The program's S0-S31 and FPSCR are dumped to memory by the epilogue (gen.py), so every FP
result is compared."""

from __future__ import annotations

from gen_common import REGION_START, Item, rand_value
from gen_thumb2 import it_mask

FP_SPECIAL = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x3F000000, 0x7F800000, 0xFF800000,
              0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00005, 0x7FC12345, 0x7F7FFFFF, 0xFF7FFFFF,
              0x00800000, 0x80800000, 0x00000001, 0x807FFFFF, 0x007FFFFF, 0x4B800001, 0x3FC00000,
              0x40400000, 0x3EAAAAAB, 0x4F000000, 0xCF000000, 0x4F800000, 0xCF000001, 0x4EFFFFFF,
              0x477FE000, 0x477FF000, 0x47800000, 0x33800000, 0x33000000, 0x38800000, 0x387FC000,
              0x3F7FFFFF, 0x3F800001, 0x4B000000, 0xCB7FFFFF, 0x40490FDB, 0x3DCCCCCD, 0x46FFFE00]

# FPSCR control values: RMode (23:22), FZ (24), DN (25), AHP (26)
FPSCR_CTRL_BITS = 0x07C00000

ARITH = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (5, 0), (5, 1),
         (6, 0), (6, 1)]  # (opc1 = bit 23 : bits 21:20, op bit 6): VMLA .. VFMS


def fp_value(rng) -> int:
    r = rng.random()
    if r < 0.45:
        return rng.choice(FP_SPECIAL)
    if r < 0.6:  # a neighbour of a corner value
        return (rng.choice(FP_SPECIAL) + rng.choice([-1, 1, 2])) & 0xFFFFFFFF
    if r < 0.85:  # an ordinary number of moderate magnitude
        return (rng.getrandbits(1) << 31) | (rng.randrange(100, 160) << 23) | rng.getrandbits(23)
    return rand_value(rng)


def fpscr_value(rng) -> int:
    """N Z C V, the control bits, and some cumulative flags."""
    ctrl = rng.getrandbits(2) << 22
    for bit in (24, 25, 26):
        if rng.random() < 0.2:
            ctrl |= 1 << bit
    return (rng.getrandbits(4) << 28) | ctrl | (rng.getrandbits(5) if rng.random() < 0.3 else 0)


def sreg(rng) -> int:
    return rng.randrange(32)


def sfields(d: int, n: int, m: int) -> int:
    """The Vd:D, Vn:N, Vm:M fields of single-precision registers."""
    return ((d & 1) << 22) | ((n >> 1) << 16) | ((d >> 1) << 12) | ((n & 1) << 7) | ((m & 1) << 5) | (m >> 1)


class FpGroups:
    """Mixed into the generator (gen.py) for --arch v7em: each g_fp_* returns (kind, [Item])."""

    def _set_s(self, s: int, value: int) -> list[Item]:
        """Sn = value through r0 (VMOV Sn, r0)."""
        return [self.lit(0, value), self.w32(0xEE000A10 | ((s >> 1) << 16) | ((s & 1) << 7))]

    def _operands(self, regs: list[int]) -> list[Item]:
        items = []
        for s in regs:
            if self.rng.random() < 0.6:
                items += self._set_s(s, fp_value(self.rng))
        return items

    def g_fp_arith(self):
        rng = self.rng
        opc1, op = rng.choice(ARITH)
        d, n, m = sreg(rng), sreg(rng), sreg(rng)
        v = 0xEE000A00 | ((opc1 >> 2) << 23) | ((opc1 & 3) << 20) | (op << 6) | sfields(d, n, m)
        return "fp_arith", self._operands([n, m, d]) + [self.w32(v)]

    def g_fp_unary(self):
        """VMOV (register), VABS, VNEG, VSQRT, VMOV (immediate)."""
        rng = self.rng
        d, m = sreg(rng), sreg(rng)
        if rng.random() < 0.25:
            imm8 = rng.randrange(256)
            v = 0xEEB00A00 | ((d & 1) << 22) | ((imm8 >> 4) << 16) | ((d >> 1) << 12) | (imm8 & 15)
            return "fp_vmov_imm", [self.w32(v)]
        opc2, op7 = rng.choice([(0, 0), (0, 1), (1, 0), (1, 1), (1, 1)])
        v = 0xEEB00A40 | (opc2 << 16) | (op7 << 7) | sfields(d, 0, m)
        return "fp_unary", self._operands([m]) + [self.w32(v)]

    def g_fp_cmp(self):
        """VCMP{E} with a register or #0.0, then often VMRS APSR_nzcv, FPSCR."""
        rng = self.rng
        d, m, e = sreg(rng), sreg(rng), rng.randrange(2)
        if rng.random() < 0.3:
            v, ops = 0xEEB50A40 | (e << 7) | sfields(d, 0, 0), [d]
        else:
            v, ops = 0xEEB40A40 | (e << 7) | sfields(d, 0, m), [d, m]
        items = self._operands(ops) + [self.w32(v)]
        if rng.random() < 0.7:
            items.append(self.w32(0xEEF1FA10))
        return "fp_cmp", items

    def g_fp_cvt(self):
        rng = self.rng
        d, m = sreg(rng), sreg(rng)
        kind = rng.randrange(4)
        if kind == 0:  # integer to float: VCVT.F32.{S,U}32
            v = 0xEEB80A40 | (rng.randrange(2) << 7) | sfields(d, 0, m)
            return "fp_cvt_int", self._set_s(m, rand_value(rng)) + [self.w32(v)]
        if kind == 1:  # float to integer: VCVT{R}.{S,U}32.F32
            v = 0xEEBC0A40 | (rng.randrange(2) << 16) | (rng.randrange(2) << 7) | sfields(d, 0, m)
            return "fp_cvt_int", self._operands([m]) + [self.w32(v)]
        if kind == 2:  # fixed point, in place: VCVT.{S,U}{16,32}.F32 / .F32.{S,U}{16,32} Sd, Sd, #fbits
            # fbits = size - imm4:i: 1..32 for 32-bit values, 0..16 for 16-bit ones
            sx = rng.randrange(2)
            imm = rng.choice([0, 1, 16, 31, rng.randrange(32)]) if sx else rng.randrange(17)
            to_fixed, unsigned = rng.randrange(2), rng.randrange(2)
            v = 0xEEBA0A40 | (to_fixed << 18) | (unsigned << 16) | (sx << 7) | ((imm & 1) << 5) | (imm >> 1)
            v |= ((d & 1) << 22) | ((d >> 1) << 12)
            src = self._set_s(d, fp_value(rng) if to_fixed else rand_value(rng)) if rng.random() < 0.6 else []
            return "fp_cvt_fixed", src + [self.w32(v)]
        # half precision: VCVTB/VCVTT.F32.F16 and .F16.F32
        to_half, top = rng.randrange(2), rng.randrange(2)
        v = 0xEEB20A40 | (to_half << 16) | (top << 7) | sfields(d, 0, m)
        src = fp_value(rng) if to_half else rng.choice([0x7C00, 0xFC00, 0x7E00, 0x7D00, 0x0001, 0x03FF,
                                                        0x7BFF, 0x3C00, 0x8000, 0x7FFF, rng.getrandbits(16)])
        if not to_half:
            src = (src << 16) | rng.getrandbits(16) if top else (rng.getrandbits(16) << 16) | src
        return "fp_cvt_half", self._set_s(m, src) + [self.w32(v)]

    def g_fp_xfer(self):
        """VMOV between core and FP registers (one, two, a D register), VMRS/VMSR FPSCR."""
        rng = self.rng
        rt = rng.randrange(13)
        kind = rng.randrange(6)
        if kind == 5:  # VMOV.32 Dd[x], Rt / Rt, Dd[x]: half of a D register
            dn, x, to_core = rng.randrange(16), rng.randrange(2), rng.randrange(2)
            v = 0xEE000B10 | (to_core << 20) | (x << 21) | (dn << 16) | (rt << 12)
            return "fp_vmov_scalar", [self.w32(v)]
        if kind == 0:
            s, to_core = sreg(rng), rng.randrange(2)
            v = 0xEE000A10 | (to_core << 20) | ((s >> 1) << 16) | (rt << 12) | ((s & 1) << 7)
            return "fp_vmov_core", [self.w32(v)]
        if kind == 1:
            rt2 = rng.choice([r for r in range(13) if r != rt])
            dbl, to_core = rng.randrange(2), rng.randrange(2)
            m = rng.randrange(16) if dbl else rng.randrange(31)
            mm = ((m >> 4) << 5) | (m & 15) if dbl else ((m & 1) << 5) | (m >> 1)
            v = 0xEC400A10 | (to_core << 20) | (rt2 << 16) | (rt << 12) | (dbl << 8) | mm
            return "fp_vmov_core2", [self.w32(v)]
        if kind == 2:
            return "fp_vmrs", [self.w32(0xEEF10A10 | (rt << 12))]
        if kind == 3:
            return "fp_vmrs_apsr", [self.w32(0xEEF1FA10)]
        return "fp_vmsr", [self.lit(0, fpscr_value(rng)), self.w32(0xEEE10A10)]

    def g_fp_ldst(self):
        """VLDR/VSTR (S or D, +/- offset), VLDM/VSTM increment-after or decrement-before with
        write-back, from a base in the scratch area."""
        rng = self.rng
        rn = rng.randrange(1, 13)
        load, dbl = rng.randrange(2), rng.randrange(2)
        if rng.random() < 0.5:
            d = rng.randrange(16) if dbl else sreg(rng)
            dfield = (((d >> 4) << 22) | ((d & 15) << 12)) if dbl else (((d & 1) << 22) | ((d >> 1) << 12))
            off, add = rng.randrange(64), rng.randrange(2)
            addr = REGION_START + 0x200 + 4 * rng.randrange(64)
            base = addr - 4 * off if add else addr + 4 * off
            v = 0xED000A00 | (add << 23) | (load << 20) | (rn << 16) | (dbl << 8) | dfield | off
            return "fp_vldr_vstr", self._base(rn, base) + [self.w32(v)]
        if dbl:
            first = rng.randrange(16)
            count = rng.randrange(1, 17 - first)
            words, dfield = 2 * count, ((first >> 4) << 22) | ((first & 15) << 12)
        else:
            first = sreg(rng)
            words = rng.randrange(1, 33 - first)
            dfield = ((first & 1) << 22) | ((first >> 1) << 12)
        db = rng.randrange(2)
        wback = 1 if db else rng.randrange(2)
        addr = REGION_START + 0x100 + 4 * rng.randrange(64)
        base = addr + 4 * words if db else addr
        pu = 0b10 if db else 0b01
        v = 0xEC000A00 | (pu << 23) | (wback << 21) | (load << 20) | (rn << 16) | (dbl << 8) | dfield | words
        return "fp_vldm_vstm", self._base(rn, base) + [self.w32(v)]

    def g_fp_push_pop(self):
        """VPUSH then VPOP of the same list: SP comes back; the pushed words stay in memory."""
        rng = self.rng
        dbl = rng.randrange(2)
        if dbl:
            first = rng.randrange(16)
            words = 2 * rng.randrange(1, min(8, 16 - first) + 1)
            dfield = ((first >> 4) << 22) | ((first & 15) << 12)
        else:
            first = sreg(rng)
            words = rng.randrange(1, min(16, 32 - first) + 1)
            dfield = ((first & 1) << 22) | ((first >> 1) << 12)
        push = 0xED2D0A00 | (dbl << 8) | dfield | words
        pop = 0xECBD0A00 | (dbl << 8) | dfield | words
        mid = [self.g_fp_arith()[1][-1]] if rng.random() < 0.5 else []
        return "fp_vpush_vpop", [self.w32(push)] + mid + [self.w32(pop)]


    def g_fp_it(self):
        """IT with 1-3 FP instructions (arithmetic, VMOV immediate, VCMP), each conditional."""
        rng = self.rng
        k, fc = rng.randrange(1, 4), rng.randrange(14)
        mask = it_mask(rng, fc, k)
        pick = [self.g_fp_arith, self.g_fp_unary, self.g_fp_cmp]
        # an unconditional FP instruction first: a new FP context is created there, never by a
        # skipped conditional one (QEMU gets that wrong: FINDINGS.md)
        pre, inside = self._set_s(sreg(rng), fp_value(rng)), []
        for _ in range(k):
            items = rng.choice(pick)()[1]
            if items[-1].text.endswith("0xeef1fa10"):  # a VCMP's VMRS APSR_nzcv: left out
                items = items[:-1]
            pre += items[:-1]  # operand loads before the IT, the instruction itself inside
            inside.append(items[-1])
        return "fp_it", pre + [self.hw(0xBF00 | (fc << 4) | mask)] + inside

    def g_fp_fpccr(self):
        """FPCCR: lazy stacking (ASPEN, LSPEN), full stacking (ASPEN), or no FP frames."""
        v = self.rng.choice([0xC0000000, 0x80000000, 0x80000000, 0x00000000])
        return "fp_fpccr", [self.lit(0, 0xE000EF34), self.lit(1, v), Item("str r1, [r0]", 2)]


FP_GROUPS = [("g_fp_arith", 12), ("g_fp_unary", 4), ("g_fp_cmp", 4), ("g_fp_cvt", 6), ("g_fp_xfer", 4),
             ("g_fp_ldst", 4), ("g_fp_push_pop", 2), ("g_fp_fpccr", 1), ("g_fp_it", 3)]
