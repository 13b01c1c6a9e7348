"""Instruction groups of the generator for ARMv7-M's exception model (`difftest.py --arch
v7m`): BASEPRI, BASEPRI_MAX and FAULTMASK masking pended interrupts and unmasking them,
8-bit priorities with priority grouping (AIRCR.PRIGROUP), and exceptions taken inside IT
blocks (SVC in the block; an interrupt unmasked by MSR PRIMASK in the block), whose stacked
xPSR carries the IT bits of the rest of the block and whose return goes back into it.

Every group leaves BASEPRI, FAULTMASK and PRIGROUP at 0 (the runtime does not reset them)
and nothing pending, so later groups see the reset state; the handler the programs use
(harness/runtime.c) records the stacked xPSR, EXC_RETURN and IPSR of each exception taken."""

from __future__ import annotations

from gen_common import Item

NVIC_ISER, NVIC_ISPR, NVIC_IPR = 0xE000E100, 0xE000E200, 0xE000E400
ICSR, AIRCR, SHPR3_PENDSV = 0xE000ED04, 0xE000ED0C, 0xE000ED22
VECTKEY = 0x05FA0000
SYSM_BASEPRI, SYSM_BASEPRI_MAX, SYSM_FAULTMASK = 17, 18, 19
CPSID_I, CPSIE_I, CPSID_F, CPSIE_F = 0xB672, 0xB662, 0xB671, 0xB661
DSB = 0xF3BF8F4F
MAX_GROUP_BYTES = 64  # a B<cond> may skip 4 groups (gen.py: at most 256 bytes)


def msr(rn: int, sysm: int) -> int:
    return 0xF3808800 | (rn << 16) | sysm


def mrs(rd: int, sysm: int) -> int:
    return 0xF3EF8000 | (rd << 8) | sysm


class V7SystemGroups:
    """Mixed into the generator through Thumb2Groups: each g_v7_* returns (kind, [Item])."""

    def _store(self, items: list, ra: int, rb: int, addr: int, value: int, byte: bool = False):
        op = 0x7000 if byte else 0x6000  # STRB / STR rb, [ra]
        items += [self.lit(ra, addr), self.lit(rb, value), self.hw(op | (ra << 3) | rb)]

    def _priority(self, near: list[int]) -> int:
        """An 8-bit priority: random, an edge, or next to one already chosen."""
        rng = self.rng
        r = rng.random()
        if near and r < 0.4:
            return (rng.choice(near) + rng.choice([-2, -1, 0, 1, 2])) & 0xFF
        return rng.choice([0, 1, 0x7F, 0x80, 0xFE, 0xFF]) if r < 0.6 else rng.randrange(256)

    def g_v7_pend(self):
        """With PRIMASK set: an optional PRIGROUP, BASEPRI written through BASEPRI and/or
        BASEPRI_MAX, sometimes FAULTMASK; then an IRQ and/or PendSV pended with 8-bit
        priorities; DSB; CPSIE i takes those above the BASEPRI threshold (none under
        FAULTMASK); MRS reads BASEPRI and FAULTMASK back; clearing FAULTMASK, then BASEPRI,
        takes the rest (in priority order, tail-chained)."""
        rng = self.rng
        ra, rb, rc = rng.sample(range(8), 3)
        items = [self.hw(CPSID_I)]
        prigroup = rng.randrange(8) if rng.random() < 0.4 else 0
        if prigroup:
            self._store(items, ra, rb, AIRCR, VECTKEY | (prigroup << 8))
        prios: list[int] = []
        for _ in range(rng.choice([0, 1, 1, 2])):
            b = self._priority(prios)
            prios.append(b)
            items += [self.lit(rc, b), self.w32(msr(rc, rng.choice([SYSM_BASEPRI, SYSM_BASEPRI_MAX])))]
        faultmask = rng.random() < 0.2
        if faultmask and rng.random() < 0.5:
            items.append(self.hw(CPSID_F))
        elif faultmask:
            items += [self.lit(rc, 1), self.w32(msr(rc, SYSM_FAULTMASK))]
        what = rng.choice(["irq", "pendsv", "both"])
        if what != "pendsv":
            n = rng.randrange(32)
            self._store(items, ra, rb, NVIC_IPR + n, self._priority(prios), byte=True)
            self._store(items, ra, rb, NVIC_ISER, 1 << n)
            self._store(items, ra, rb, NVIC_ISPR, 1 << n)
        if what != "irq":
            self._store(items, ra, rb, SHPR3_PENDSV, self._priority(prios), byte=True)
            self._store(items, ra, rb, ICSR, 1 << 28)
        items += [self.w32(DSB), self.hw(CPSIE_I)]
        rd = rng.choice([r for r in range(13) if r != rc])
        items.append(self.w32(mrs(rd, rng.choice([SYSM_BASEPRI, SYSM_BASEPRI_MAX, SYSM_FAULTMASK]))))
        if faultmask:
            items.append(self.hw(CPSIE_F))
        items += [self.lit(rc, 0), self.w32(msr(rc, SYSM_BASEPRI))]
        if prigroup:
            self._store(items, ra, rb, AIRCR, VECTKEY)
        if sum(i.size for i in items) > MAX_GROUP_BYTES:
            return None  # too long to be skipped by a B<cond> with others: draw again
        return "v7_pend_" + what, items

    def g_v7_mask_regs(self):
        """MSR/MRS of BASEPRI, BASEPRI_MAX (writes only a raise) and FAULTMASK with random
        values, read back into registers, then both cleared."""
        rng = self.rng
        rv = rng.randrange(8)
        items = []
        for _ in range(rng.randrange(1, 4)):
            sysm = rng.choice([SYSM_BASEPRI, SYSM_BASEPRI_MAX, SYSM_FAULTMASK])
            v = rng.choice([0, 1, 0x80, 0xFF, 0x100, rng.getrandbits(32), rng.randrange(256)])
            items += [self.lit(rv, v), self.w32(msr(rv, sysm))]
            rd = rng.randrange(13)
            items.append(self.w32(mrs(rd, rng.choice([SYSM_BASEPRI, SYSM_BASEPRI_MAX, SYSM_FAULTMASK]))))
        rz = rng.randrange(8)
        items += [self.lit(rz, 0), self.w32(msr(rz, SYSM_BASEPRI)), self.w32(msr(rz, SYSM_FAULTMASK))]
        return "v7_mask_regs", items

    def _it_block(self, k: int, special_at: int, special: Item) -> list[Item]:
        """IT with k instructions (random then/else pattern), `special` in slot special_at,
        16-bit ALU ops (no flags inside the block) and 32-bit ones elsewhere."""
        rng = self.rng
        head = self.it_head(k)
        body = []
        for j in range(k):
            if j == special_at:
                body.append(special)
            else:
                body.append(self.t16_alu() if rng.random() < 0.6 else self.t2_dp_imm())
        return [head] + body

    def g_v7_it_exc(self):
        """An exception taken inside an IT block: SVC in a slot of the block (PRIMASK cleared
        first), or an IRQ/PendSV pended with PRIMASK set and unmasked by MSR PRIMASK in a
        slot; either is skipped with its slot's condition (the pended one is then taken at the
        CPSIE after the block). The handler sees the rest of the block in the stacked xPSR's
        IT bits and returns into it."""
        rng = self.rng
        k = rng.randrange(1, 5)
        at = rng.randrange(k)
        if rng.random() < 0.5:
            svc = self.hw(0xDF00 | rng.randrange(256))
            return "v7_it_svc", [self.hw(CPSIE_I)] + self._it_block(k, at, svc)
        ra, rb, rz = rng.sample(range(8), 3)
        items = [self.hw(CPSID_I)]
        if rng.random() < 0.5:
            n = rng.randrange(32)
            self._store(items, ra, rb, NVIC_ISER, 1 << n)
            self._store(items, ra, rb, NVIC_ISPR, 1 << n)
            kind = "v7_it_irq"
        else:
            self._store(items, ra, rb, ICSR, 1 << 28)
            kind = "v7_it_pendsv"
        items += [self.w32(DSB), self.lit(rz, 0)]
        # the block must not overwrite rz before the MSR: its ops write random registers
        block = self._it_block(k, at, self.w32(msr(rz, 16)))
        if any(self._writes(i, rz) for i in block[1:at + 1]):
            block = self._it_block(k, 0, self.w32(msr(rz, 16)))
        return kind, items + block + [self.hw(CPSIE_I)]

    @staticmethod
    def _writes(item: Item, r: int) -> bool:
        """Whether a raw data-processing item of the IT block may write register r (its Rd
        field: bits 2:0 of the 16-bit forms, bits 11:8 of the 32-bit ones)."""
        v = int(item.text.split()[1], 16)
        if item.size == 2:  # (MOV/ADD/SUB imm8: Rd in bits 10:8)
            return v & 7 == r or (v >> 13 == 1 and (v >> 8) & 7 == r)
        return (v >> 8) & 15 == r


V7_SYSTEM_GROUPS = [("g_v7_pend", 1.5), ("g_v7_mask_regs", 1), ("g_v7_it_exc", 1.5)]
