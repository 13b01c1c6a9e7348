"""Instruction groups of the generator: system and exceptions (MRS/MSR, barriers and hints,
SVC, INVSTATE, pending exceptions, faults, code run from RAM)."""

from __future__ import annotations

from gen_common import Item, MRS_SYSM, REGION_START, rand_value


class SystemGroups:
    """Mixed into the generator (gen.py): each g_* returns (kind, [Item]) or None."""

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
