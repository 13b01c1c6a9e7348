"""Instruction groups of the generator: data processing (shifts, add/subtract, immediates,
the 16 register operations, high registers, extends, reverses)."""

from __future__ import annotations

from gen_common import EDGE_PAIRS, shift_amount_value


class AluGroups:
    """Mixed into the generator (gen.py): each g_* returns (kind, [Item]) or None."""

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
