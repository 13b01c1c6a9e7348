"""Instruction groups of the generator for ARMv7-M (`difftest.py --arch v7m`): the 32-bit
Thumb-2 encodings (data processing with modified immediates and shifted registers, MOVW/MOVT,
ADDW/SUBW and ADR.W, bit-field, saturate, CLZ/RBIT/REV, extends, shifts by register, multiplies,
divides, every load/store form incl. literal, LDRD/STRD and exclusives, LDM/STM, hints), IT blocks, wide
and compare-and-branch branches, TBB/TBH; the exception-model groups (gen_v7m_system.py) are
mixed in here. Encodings are emitted raw (`.inst.w`) with random fields
inside the architecturally defined (not UNPREDICTABLE) space."""

from __future__ import annotations

from gen_common import EDGE_PAIRS, REGION_START, SCRATCH_END, Item, rand_value, shift_amount_value
from gen_v7m_system import V7_SYSTEM_GROUPS, V7SystemGroups

DP_OPS = [0, 1, 2, 3, 4, 8, 10, 11, 13, 14]  # AND BIC ORR ORN EOR ADD ADC SBC SUB RSB
TEST_OPS = [0, 4, 8, 13]  # TST TEQ CMN CMP (Rd = PC with S)
DIV_PAIRS = [(0, 0), (5, 0), (0x80000000, 0xFFFFFFFF), (0xFFFFFFFF, 1), (100, 7), (7, 100),
             (0xFFFFFFF9, 2), (0x7FFFFFFF, 0x10), (1, 0xFFFFFFFF)]


def mod_imm12(rng) -> int:
    """A valid ThumbExpandImm field (i:imm3:imm8)."""
    if rng.random() < 0.5:
        return (rng.randrange(8, 32) << 7) | rng.randrange(128)  # rotated 1bcdefgh
    kind = rng.randrange(4)
    imm8 = rng.randrange(256) if kind == 0 else rng.randrange(1, 256)
    return (kind << 8) | imm8


def r12(rng, avoid=()) -> int:
    return rng.choice([r for r in range(13) if r not in avoid])


def it_mask(rng, fc: int, k: int) -> int:
    """The IT mask of a block of `k` instructions under firstcond `fc`, each after the first
    a random then or else (AL: only then)."""
    mask = 1 << (4 - k)
    for j in range(1, k):
        then = fc == 14 or rng.random() < 0.5
        mask |= ((fc & 1) if then else 1 - (fc & 1)) << (4 - j)
    return mask


class Thumb2Groups(V7SystemGroups):
    """Mixed into the generator (gen.py) for --arch v7m: each g_t2_* returns (kind, [Item])."""

    # ---- single instructions (also used inside IT blocks) ------------------------------
    def _dp_fields(self) -> tuple[int, int, int, int]:
        """(op, S, Rd, Rn) of a data-processing op: sometimes a test (TST/TEQ/CMN/CMP: Rd = PC,
        S = 1), sometimes MOV/MVN (ORR/ORN with Rn = PC)."""
        rng = self.rng
        if rng.random() < 0.15:
            return rng.choice(TEST_OPS), 1, 15, r12(rng)
        op, s, rd = rng.choice(DP_OPS), rng.randrange(2), r12(rng)
        return op, s, rd, 15 if op in (2, 3) and rng.random() < 0.3 else r12(rng)

    def t2_dp_imm(self):
        rng = self.rng
        op, s, rd, rn = self._dp_fields()
        imm = mod_imm12(rng)
        v = (0xF000 << 16) | ((imm >> 11) << 26) | (op << 21) | (s << 20) | (rn << 16)
        return self.w32(v | (((imm >> 8) & 7) << 12) | (rd << 8) | (imm & 0xFF))

    def t2_dp_reg(self):
        rng = self.rng
        op, s, rd, rn = self._dp_fields()
        ty, amt = rng.randrange(4), rng.choice([0, 0, 1, 31, rng.randrange(32)])
        v = 0xEA00_0000 | (op << 21) | (s << 20) | (rn << 16) | ((amt >> 2) << 12) | (rd << 8)
        return self.w32(v | ((amt & 3) << 6) | (ty << 4) | r12(rng))

    def t16_alu(self):
        """A 16-bit flag-setting-outside-IT instruction (shift imm, add/sub, imm8, the 16 ops)."""
        rng = self.rng
        lo = self.lo
        k = rng.randrange(4)
        if k == 0:
            return self.hw((rng.randrange(3) << 11) | (rng.randrange(32) << 6) | (lo() << 3) | lo())
        if k == 1:
            return self.hw(0x1800 | (rng.randrange(4) << 9) | (rng.randrange(8) << 6) | (lo() << 3) | lo())
        if k == 2:
            return self.hw(0x2000 | (rng.randrange(4) << 11) | (lo() << 8) | rng.randrange(256))
        return self.hw(0x4000 | (rng.randrange(16) << 6) | (lo() << 3) | lo())

    # ---- groups --------------------------------------------------------------------------
    def g_t2_dp_imm(self):
        return "t2_dp_imm", [self.t2_dp_imm()]

    def g_t2_dp_reg(self):
        rng = self.rng
        items = []
        if rng.random() < 0.3:
            a, b = rng.choice(EDGE_PAIRS)
            items = [self.lit(0, a), self.lit(1, b)]
        return "t2_dp_reg", items + [self.t2_dp_reg()]

    def t2_adr(self) -> Item:
        """ADR.W Rd, PC +/- imm12 (ADDW/SUBW with Rn = PC, encodings T3/T2)."""
        rng = self.rng
        imm = rng.choice([0, 4, 32, 0xFFF, rng.randrange(1 << 12)])
        sub = rng.randrange(2)
        v = 0xF20F_0000 | (((imm >> 11) & 1) << 26) | (sub << 23) | (sub << 21)
        return self.w32(v | (((imm >> 8) & 7) << 12) | (r12(rng) << 8) | (imm & 0xFF))

    def g_t2_imm16(self):
        """MOVW, MOVT, ADDW, SUBW, and ADR.W (ADDW/SUBW with Rn = PC) at either alignment
        (a 16-bit NOP first half of the time)."""
        rng = self.rng
        if rng.random() < 0.25:
            return "t2_adr", ([self.hw(0xBF00)] if rng.random() < 0.5 else []) + [self.t2_adr()]
        op = rng.choice([0x04, 0x0C, 0x00, 0x0A])  # MOVW MOVT ADDW SUBW (bits 24:20)
        imm = rng.randrange(1 << 16) if op in (0x04, 0x0C) else rng.randrange(1 << 12)
        rn = (imm >> 12) if op in (0x04, 0x0C) else r12(rng)
        v = 0xF200_0000 | (((imm >> 11) & 1) << 26) | ((op & 0xF) << 20) | (rn << 16)
        return "t2_imm16", [self.w32(v | (((imm >> 8) & 7) << 12) | (r12(rng) << 8) | (imm & 0xFF))]

    def g_t2_ld_lit(self):
        """PC-relative (literal) loads in their 32-bit forms: LDR/LDRB/LDRH/LDRSB/LDRSH.W
        and LDRD with U = 0 or 1 (they read the image's own code and data, the same on both
        platforms), PLD/PLI (literal)."""
        rng = self.rng
        k = rng.randrange(8)
        u = rng.randrange(2)
        if k < 5:
            sign, size = [(0, 2), (0, 0), (0, 1), (1, 0), (1, 1)][k]
            off = rng.randrange(64)
            v = 0xF81F_0000 | (sign << 24) | (u << 23) | (size << 21) | (1 << 20)
            return "t2_ld_lit", [self.w32(v | (r12(rng) << 12) | off)]
        if k == 5:  # PLD, PLI (literal): Rt = PC
            return "t2_pld_lit", [self.w32(rng.choice([0xF81F_F000, 0xF91F_F000]) | (u << 23) | rng.randrange(4096))]
        rt = r12(rng)
        rt2 = r12(rng, avoid=(rt,))
        v = 0xE95F_0000 | (u << 23) | (rt << 12) | (rt2 << 8) | rng.randrange(16)
        return "t2_ldrd_lit", [self.w32(v)]

    def g_t2_hint(self):
        """The 32-bit hints: NOP.W, YIELD.W, SEV.W, SEV.W then WFE.W (the event is set: no
        sleep), DBG #n (a NOP)."""
        rng = self.rng
        k = rng.randrange(5)
        if k == 3:
            return "t2_hint", [self.w32(0xF3AF_8004), self.w32(0xF3AF_8002)]
        hint = [0, 1, 4, None, 0xF0 | rng.randrange(16)][k]
        return "t2_hint", [self.w32(0xF3AF_8000 | hint)]

    def g_t2_bitfield(self):
        rng = self.rng
        op = rng.choice([0x14, 0x1C, 0x16])  # SBFX UBFX BFI/BFC
        lsb = rng.randrange(32)
        rn = 15 if op == 0x16 and rng.random() < 0.3 else r12(rng)
        if op == 0x16:
            field = rng.randrange(lsb, 32)  # msb
        else:
            field = rng.randrange(32 - lsb)  # width - 1
        v = 0xF300_0000 | ((op & 0xF) << 20) | (rn << 16) | ((lsb >> 2) << 12) | (r12(rng) << 8)
        return "t2_bitfield", [self.w32(v | ((lsb & 3) << 6) | field)]

    def g_t2_sat(self):
        rng = self.rng
        unsigned = rng.randrange(2)
        sh = rng.randrange(2)
        amt = rng.randrange(1, 32) if sh else rng.choice([0, rng.randrange(32)])
        sat = rng.randrange(32)
        items = []
        rn = r12(rng)
        if rng.random() < 0.5 and rn < 8:  # (a literal load to a high register is 32-bit)
            items.append(self.lit(rn, rand_value(rng)))
        v = 0xF300_0000 | (unsigned << 23) | (sh << 21) | (rn << 16) | ((amt >> 2) << 12) | (r12(rng) << 8)
        return "t2_sat", items + [self.w32(v | ((amt & 3) << 6) | sat)]

    def g_t2_misc(self):
        rng = self.rng
        op1, op2 = rng.choice([(3, 0), (1, 2), (1, 0), (1, 1), (1, 3)])  # CLZ RBIT REV REV16 REVSH
        rm = r12(rng)
        v = 0xFA80_F080 | (op1 << 20) | (rm << 16) | (r12(rng) << 8) | (op2 << 4) | rm
        return "t2_misc", [self.w32(v)]

    def g_t2_extend(self):
        rng = self.rng
        op = rng.choice([0, 1, 4, 5])  # SXTH UXTH SXTB UXTB
        v = 0xFA0F_F080 | (op << 20) | (r12(rng) << 8) | (rng.randrange(4) << 4) | r12(rng)
        return "t2_extend", [self.w32(v)]

    def g_t2_shift_reg(self):
        rng = self.rng
        rm = r12(rng)
        v = 0xFA00_F000 | (rng.randrange(4) << 21) | (rng.randrange(2) << 20) | (r12(rng) << 16)
        return "t2_shift_reg", [self.lit(rm, shift_amount_value(rng)) if rm < 8 else Item("nop", 2),
                                self.w32(v | (r12(rng) << 8) | rm)]

    def g_t2_mul(self):
        rng = self.rng
        k = rng.randrange(4)
        rn, rm = r12(rng), r12(rng)
        items = []
        if k == 0:  # MUL, MLA, MLS
            mls = rng.randrange(2)
            ra = 15 if not mls and rng.random() < 0.4 else r12(rng)
            v = 0xFB00_0000 | (rn << 16) | (ra << 12) | (r12(rng) << 8) | (mls << 4) | rm
            return "t2_mul", [self.w32(v)]
        if k in (1, 2):  # SMULL UMULL SMLAL UMLAL
            op1 = rng.choice([0, 2, 4, 6])
            lo = r12(rng)
            hi = r12(rng, avoid=(lo,))
            return "t2_mul_long", [self.w32(0xFB80_0000 | (op1 << 20) | (rn << 16) | (lo << 12) | (hi << 8) | rm)]
        # SDIV / UDIV with interesting operands
        if rng.random() < 0.6 and rn < 8 and rm < 8 and rn != rm:
            a, b = rng.choice(DIV_PAIRS)
            items = [self.lit(rn, a), self.lit(rm, b)]
        op1 = rng.choice([1, 3])
        return "t2_div", items + [self.w32(0xFB80_F0F0 | (op1 << 20) | (rn << 16) | (r12(rng) << 8) | rm)]

    def _base(self, rn: int, addr: int) -> list[Item]:
        if rn < 8:
            return [self.lit(rn, addr)]
        return [self.lit(0, addr), self.hw(0x4600 | ((rn >> 3) << 7) | (rn & 7))]  # MOV rn, r0

    def g_t2_ldst(self):
        """LDR/STR{,B,H,SB,SH}.W: imm12, negative imm8, pre/post-indexed with write-back, register."""
        rng = self.rng
        size, sign, load = rng.choice([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 1), (1, 0, 1), (2, 0, 1),
                                       (0, 1, 1), (1, 1, 1)])
        nbytes = 1 << size
        rn = r12(rng)
        rt = r12(rng, avoid=(rn,))
        mode = rng.randrange(3)
        addr = REGION_START + 0x100 + nbytes * rng.randrange(0x200 // nbytes)
        if rng.random() < 0.1 and size:
            addr += 1  # ARMv7-M: unaligned LDR/STR/LDRH/STRH work
        head = (0xF800 | (sign << 8) | (size << 5) | (load << 4) | rn) << 16
        if mode == 0:
            off = rng.randrange(0x100)
            return "t2_ldst_imm12", self._base(rn, addr - off) + [self.w32(head | 0x0080_0000 | (rt << 12) | off)]
        if mode == 1:
            puw = rng.choice([0b100, 0b101, 0b111, 0b001, 0b011])
            off = rng.randrange(256)
            base = addr if puw & 4 == 0 else (addr + off if puw & 2 == 0 else addr - off)
            return "t2_ldst_imm8", self._base(rn, base) + [self.w32(head | (rt << 12) | 0x800 | (puw << 8) | off)]
        rm = r12(rng, avoid=(rn, 0))
        sh = rng.randrange(4)
        idx = rng.randrange(16)
        items = self._base(rn, addr - (idx << sh)) + ([self.lit(rm, idx)] if rm < 8 else [
            self.lit(0, idx), self.hw(0x4600 | ((rm >> 3) << 7) | (rm & 7))])
        if rn < 8 and rm >= 8:  # r0 was used for rm's value: reload the base
            items.append(self.lit(rn, addr - (idx << sh)))
        elif rn >= 8 and rm < 8:
            pass
        return "t2_ldst_reg", items + [self.w32(head | (rt << 12) | (sh << 4) | rm)]

    def g_t2_dual(self):
        rng = self.rng
        rn = r12(rng)
        rt = r12(rng, avoid=(rn,))
        rt2 = r12(rng, avoid=(rn, rt))
        load = rng.randrange(2)
        puw = rng.choice([0b110, 0b100, 0b111, 0b101, 0b011, 0b001])
        off = 4 * rng.randrange(64)
        addr = REGION_START + 0x100 + 4 * rng.randrange(0x1F0 // 4)
        base = addr if puw & 4 == 0 else (addr - off if puw & 2 else addr + off)
        v = 0xE840_0000 | ((puw >> 2) << 24) | (((puw >> 1) & 1) << 23) | ((puw & 1) << 21) | (load << 20)
        return "t2_dual", self._base(rn, base) + [self.w32(v | (rn << 16) | (rt << 12) | (rt2 << 8) | (off >> 2))]

    def g_t2_excl(self):
        """LDREX{,B,H} then STREX{,B,H} to the same location (succeeds), or a lone STREX /
        CLREX (fails)."""
        rng = self.rng
        rn = rng.randrange(8)
        rt = r12(rng, avoid=(rn,))
        rd = r12(rng, avoid=(rn, rt))
        size = rng.choice([2, 2, 0, 1])  # word, byte, halfword
        addr = REGION_START + 4 * rng.randrange(SCRATCH_END // 4 - REGION_START // 4 - 8)
        if size < 2:
            addr += rng.randrange(0, 4, 1 << size)
        items = [self.lit(rn, addr)]
        if rng.random() < 0.7:
            rl = r12(rng, avoid=(rn,))
            items.append(self.w32(0xE850_0F00 | (rn << 16) | (rl << 12) if size == 2 else
                                  0xE8D0_0F4F | (rn << 16) | (rl << 12) | (size << 4)))
        if rng.random() < 0.2:
            items.append(self.w32(0xF3BF_8F2F))  # CLREX
        items.append(self.w32(0xE840_0000 | (rn << 16) | (rt << 12) | (rd << 8) if size == 2 else
                              0xE8C0_0F40 | (rn << 16) | (rt << 12) | (size << 4) | rd))
        return "t2_excl", items

    def g_t2_ldm_stm(self):
        rng = self.rng
        rn = r12(rng)
        load = rng.randrange(2)
        db = rng.randrange(2)
        wback = rng.randrange(2)
        regs = [r for r in range(13) if not (wback and r == rn)]
        lst = 0
        while bin(lst).count("1") < 2:
            lst |= 1 << rng.choice(regs)
        n = bin(lst).count("1")
        addr = REGION_START + 0x100 + 4 * rng.randrange((0x300 - 4 * n) // 4)
        base = addr + 4 * n if db else addr
        v = (0xE880_0000 if not db else 0xE900_0000) | (wback << 21) | (load << 20) | (rn << 16)
        return "t2_ldm_stm", self._base(rn, base) + [self.w32(v | lst)]

    def it_head(self, k: int) -> Item:
        """An IT for a block of k instructions: random first condition (not NV) and a random
        then/else pattern (all then for AL)."""
        rng = self.rng
        fc = rng.randrange(15)
        mask = it_mask(rng, fc, k)
        return self.hw(0xBF00 | (fc << 4) | mask)

    def g_t2_it(self):
        """IT with 1-4 instructions: 16-bit ALU ops (no flags inside the block) and 32-bit ones
        (ADR.W among them: skipped, it is 4 bytes too)."""
        rng = self.rng
        k = rng.randrange(1, 5)
        head = self.it_head(k)
        body = []
        for _ in range(k):
            r = rng.random()
            body.append(self.t16_alu() if r < 0.55 else self.t2_dp_imm() if r < 0.75 else
                        self.t2_dp_reg() if r < 0.92 else self.t2_adr())
        return "t2_it", [head] + body

    def g_t2_cbz(self):
        """CBZ/CBNZ forward over 0..3 one-instruction groups."""
        rng = self.rng
        skipped = [self.t16_alu() if rng.random() < 0.5 else self.t2_dp_imm() for _ in range(rng.randrange(1, 4))]
        size = sum(i.size for i in skipped)
        rn = rng.randrange(8)
        imm = size - 2  # target = PC + 4 + imm = the instruction after the skipped ones
        v = 0xB100 | (rng.randrange(2) << 11) | ((imm >> 6) << 9) | (((imm >> 1) & 31) << 3) | rn
        return "t2_cbz", [self.hw(v)] + skipped

    def g_t2_bcond_w(self):
        """B<c>.W / B.W forward over 0..3 one-instruction groups."""
        rng = self.rng
        skipped = [self.t16_alu() if rng.random() < 0.5 else self.t2_dp_reg() for _ in range(rng.randrange(4))]
        off = sum(i.size for i in skipped)
        j2, j1 = (off >> 19) & 1, (off >> 18) & 1  # S = 0 (forward)
        if rng.random() < 0.7:
            cond = rng.randrange(14)
            v = 0xF000_8000 | (cond << 22) | (((off >> 12) & 0x3F) << 16) | (j1 << 13) | (j2 << 11)
            return "t2_bcond_w", [self.w32(v | ((off >> 1) & 0x7FF))] + skipped
        i1, i2 = (off >> 23) & 1, (off >> 22) & 1
        v = 0xF000_9000 | (((off >> 12) & 0x3FF) << 16) | ((1 - i1) << 13) | ((1 - i2) << 11)
        return "t2_b_w", [self.w32(v | ((off >> 1) & 0x7FF))] + skipped


    def g_t2_tb(self):
        """TBB/TBH: a table of 1..4 forward offsets right after the instruction (Rn = PC, or a
        low register holding the table's address), into a run of 1..3 one-instruction groups
        (any entry may point at any of them or past the last)."""
        rng = self.rng
        half = rng.randrange(2)
        n = rng.randrange(1, 5)
        run = [self.t16_alu() if rng.random() < 0.5 else self.t2_dp_imm() for _ in range(rng.randrange(1, 4))]
        self.nlabels += 1
        base = f".Ltb{self.idx}_{self.nlabels}"
        targets = [f"{base}_{j}" for j in range(len(run) + 1)]
        rm = rng.randrange(8)
        rn = 15 if rng.random() < 0.7 else rng.choice([r for r in range(8) if r != rm])
        items = [self.lit(rm, rng.randrange(n))]
        if rn != 15:
            items.append(self.lit(rn, base))
        items += [self.w32(0xE8D0F000 | (rn << 16) | (half << 4) | rm), Item(f"{base}:", 0)]
        for _ in range(n):
            t = rng.choice(targets)
            items.append(Item(f".hword ({t}-{base})/2", 2) if half else Item(f".byte ({t}-{base})/2", 1))
        if not half and n % 2:
            items.append(Item(".byte 0", 1))
        for label, ins in zip(targets, run):
            items += [Item(f"{label}:", 0), ins]
        return "t2_tb" + ("h" if half else "b"), items + [Item(f"{targets[-1]}:", 0)]


THUMB2_GROUPS = [("g_t2_dp_imm", 10), ("g_t2_dp_reg", 10), ("g_t2_imm16", 4), ("g_t2_bitfield", 4),
                 ("g_t2_sat", 3), ("g_t2_misc", 3), ("g_t2_extend", 2), ("g_t2_shift_reg", 3),
                 ("g_t2_mul", 6), ("g_t2_ldst", 10), ("g_t2_dual", 4), ("g_t2_excl", 2),
                 ("g_t2_ldm_stm", 3), ("g_t2_it", 8), ("g_t2_cbz", 3), ("g_t2_bcond_w", 4),
                 ("g_t2_tb", 3), ("g_t2_ld_lit", 3), ("g_t2_hint", 1)] + V7_SYSTEM_GROUPS
