//! ARMv7-M loads and stores: single (immediate, indexed, register, literal), dual,
//! exclusive, multiple (LDM/STM/PUSH.W/POP.W) and the table branches TBB/TBH.

use super::pipeline::{bit, dst};
use super::timing as t;
use super::{ls, multi};
use crate::bus::Bus;
use crate::machine::Cpu;
use crate::nvic::EXC_RETURN_MIN;

impl<B: Bus> Cpu<B> {
    // One method per op, called from `exec_g` with the fields taken apart (execute.rs says
    // why); each first moves `pc` past its 4 bytes.

    /// LDR/STR (any size) Rt, [Rn, #+imm12] or [Rn, #+/-imm8].
    #[inline(always)]
    pub(crate) fn exec_ld_imm(&mut self, kind: u8, rt: u8, rn: u8, off: i16, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn).wrapping_add(off as i32 as u32);
        self.load_store(kind, rt, a, pc, None, bit(rn), true);
    }

    /// LDR/STR (any size) Rt, [Rn, #+/-imm8]!
    #[inline(always)]
    pub(crate) fn exec_ld_pre(&mut self, kind: u8, rt: u8, rn: u8, off: i16, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn).wrapping_add(off as i32 as u32);
        self.load_store(kind, rt, a, pc, Some((rn, a)), bit(rn), true);
    }

    /// LDR/STR (any size) Rt, [Rn], #+/-imm8
    #[inline(always)]
    pub(crate) fn exec_ld_post(&mut self, kind: u8, rt: u8, rn: u8, off: i16, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn);
        self.load_store(kind, rt, a, pc, Some((rn, a.wrapping_add(off as i32 as u32))), bit(rn), true);
    }

    /// LDR/STR (any size) Rt, [Rn, Rm, LSL #sh].
    #[inline(always)]
    pub(crate) fn exec_ld_reg(&mut self, kind: u8, rt: u8, rn: u8, rm: u8, sh: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn).wrapping_add(self.g(rm) << sh);
        self.load_store(kind, rt, a, pc, None, bit(rn) | bit(rm), false);
    }

    /// LDRD/STRD (`puw` = P << 2 | U << 1 | W, bit 3 set for the load).
    #[inline(always)]
    pub(crate) fn exec_dual(&mut self, puw: u8, rt: u8, rt2: u8, rn: u8, off: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let (base, off) = (self.g(rn), 4 * off as u32);
        let end = if puw & 2 != 0 { base.wrapping_add(off) } else { base.wrapping_sub(off) };
        let a = if puw & 4 != 0 { end } else { base };
        if self.dual(puw & 8 != 0, rt, rt2, a, pc, bit(rn)) && puw & 1 != 0 {
            self.set_reg(rn, end);
        }
    }

    pub(crate) fn exec_ldrex(&mut self, size: u8, rt: u8, rn: u8, off: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn).wrapping_add(4 * off as u32);
        if a & (size as u32 - 1) != 0 {
            return self.unaligned(a, pc, true);
        }
        let v = self.v7_load_access(bit(rn), bit(rt), |m| match size {
            1 => m.ld8(a, pc),
            2 => m.ld16(a, pc),
            _ => m.ld32(a, pc),
        });
        if let Some(v) = v {
            self.s(rt, v);
            self.cpu.excl = Some(a);
        }
    }

    pub(crate) fn exec_strex(&mut self, size: u8, rd: u8, rt: u8, rn: u8, off: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let a = self.g(rn).wrapping_add(4 * off as u32);
        if a & (size as u32 - 1) != 0 {
            return self.unaligned(a, pc, false);
        }
        let (stall, cycles) = self.ldst_timing(bit(rn));
        let status = if self.cpu.excl == Some(a) {
            let v = self.g(rt);
            // its write lands at its end, like a store's (pipeline.rs)
            self.st_lat = stall + cycles;
            let ok = match size {
                1 => self.st8(a, v, pc),
                2 => self.st16(a, v, pc),
                _ => self.st32(a, v, pc),
            };
            self.st_lat = t::LDST;
            if ok.is_none() {
                return;
            }
            0
        } else {
            1
        };
        self.cpu.excl = None;
        self.s(rd, status);
        // "treated more like an LDR": it pipelines both ways
        self.cyc += stall;
        self.v7_loaded(cycles, bit(rd));
    }

    /// LDM/STM/PUSH.W/POP.W, and the 16-bit LDM/STM re-decoded for ARMv7-M (`NARROW`).
    #[inline(always)]
    pub(crate) fn exec_multi(&mut self, flags: u8, rn: u8, list: u16, pc: u32) {
        let size = if flags & multi::NARROW != 0 { 2 } else { 4 };
        self.cpu.pc = pc.wrapping_add(size);
        self.multi(flags, rn, list, pc)
    }

    /// LDR (any size) Rt, [PC, #imm], the address resolved by the decoder.
    #[inline(always)]
    pub(crate) fn exec_ld_lit(&mut self, kind: u8, rt: u8, addr: u32, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.load_store(kind, rt, addr, pc, None, 0, true);
    }

    #[inline(always)]
    pub(crate) fn exec_ldrd_lit(&mut self, rt: u8, rt2: u8, addr: u32, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.dual(true, rt, rt2, addr, pc, 0);
    }

    /// TBB/TBH: `base` is the table when Rn is the PC (resolved by the decoder).
    pub(crate) fn exec_tb(&mut self, half: bool, rn: u8, rm: u8, base: u32, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let b = if rn == 15 { base } else { self.g(rn) };
        let idx = self.g(rm);
        let v = if half { self.ld16(b.wrapping_add(idx << 1), pc) } else { self.ld8(b.wrapping_add(idx), pc) };
        if let Some(v) = v {
            let stall = self.fwd_stall(bit(rn) | bit(rm));
            let target = base.wrapping_add(v << 1);
            self.branch(target, t::TABLE + stall + self.wide_unaligned(target));
        }
    }

    /// Write a register that may be SP (keeps the stack low-water mark).
    #[inline(always)]
    fn set_reg(&mut self, r: u8, v: u32) {
        if r == 13 {
            self.write_sp(v)
        } else {
            self.s(r, v)
        }
    }

    /// One load or store of `kind` between `rt` and `a` (formed from the registers of the
    /// mask `addr`; `imm`: with an immediate offset, so a store may go through the write
    /// buffer), then the base write-back `wb` if any (before a load to the PC, which
    /// branches: interworking or exception return, and never pipelines).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn load_store(&mut self, kind: u8, rt: u8, a: u32, pc: u32, wb: Option<(u8, u32)>, addr: u16, imm: bool) {
        // the word forms (most of them) get copies of their own: no further dispatch on `kind`
        match kind {
            ls::LDR => self.load_store_of(ls::LDR, rt, a, pc, wb, addr, imm),
            ls::STR => self.load_store_of(ls::STR, rt, a, pc, wb, addr, imm),
            _ => self.load_store_of(kind, rt, a, pc, wb, addr, imm),
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn load_store_of(&mut self, kind: u8, rt: u8, a: u32, pc: u32, wb: Option<(u8, u32)>, addr: u16, imm: bool) {
        if kind <= ls::STRB {
            let (v, cost) = (self.g(rt), self.v7_store_begin(addr, a, imm));
            let ok = match kind {
                ls::STR => self.st32(a, v, pc),
                ls::STRH => self.st16(a, v, pc),
                _ => self.st8(a, v, pc),
            };
            if let (Some(()), Some((rn, end))) = (self.v7_store_end(ok, cost), wb) {
                self.set_reg(rn, end);
            }
            return;
        }
        let (stall, cycles) = self.ldst_timing(addr);
        self.cyc += stall; // the read waits out the stall (pipeline.rs)
        let v = match kind {
            ls::LDRSB => self.ld8(a, pc).map(|v| v as u8 as i8 as i32 as u32),
            ls::LDR => self.ld32(a, pc),
            ls::LDRH => self.ld16(a, pc),
            ls::LDRB => self.ld8(a, pc),
            _ => self.ld16(a, pc).map(|v| v as u16 as i16 as i32 as u32),
        };
        let Some(v) = v else { return };
        if let Some((rn, end)) = wb {
            self.set_reg(rn, end);
        }
        if rt == 15 {
            self.load_pc(v, pc, t::LDR_PC);
        } else {
            self.set_reg(rt, v);
            self.v7_loaded(cycles, if dst(rt) == 0 { 0 } else { bit(rt) | wb.map_or(0, |(rn, _)| bit(rn)) });
        }
    }

    /// A load into the PC: exception return in handler mode for 0xFxxxxxxx, otherwise an
    /// interworking branch (bit 0 must be set; one more cycle to a 32-bit target that is
    /// not word-aligned, refill.rs).
    fn load_pc(&mut self, target: u32, pc: u32, cost: u64) {
        if target >= EXC_RETURN_MIN && self.cpu.ipsr != 0 {
            self.exception_return(target, pc, cost);
        } else {
            self.bx_write(target, cost + self.wide_unaligned(target & !1));
        }
    }

    /// LDM/STM, LDRD/STRD and the exclusives fault on an unaligned address even on ARMv7-M.
    #[cold]
    fn unaligned(&mut self, a: u32, pc: u32, load: bool) {
        let why = "unaligned access";
        let access = crate::machine::Access { addr: a, size: 4, write: !load, why };
        self.raise_fault(pc, why, Some(access));
    }

    /// LDRD/STRD at `a`, formed from the registers of the mask `addr`.
    fn dual(&mut self, load: bool, rt: u8, rt2: u8, a: u32, pc: u32, addr: u16) -> bool {
        if a & 3 != 0 {
            self.unaligned(a, pc, load);
            return false;
        }
        let ok = if load {
            match (self.ld32(a, pc), self.ld32(a.wrapping_add(4), pc)) {
                (Some(v1), Some(v2)) => {
                    self.set_reg(rt, v1);
                    self.set_reg(rt2, v2);
                    true
                }
                _ => false,
            }
        } else {
            let (v1, v2) = (self.g(rt), self.g(rt2));
            self.st32(a, v1, pc).is_some() && {
                self.bus_off = 1;
                let ok = self.st32(a.wrapping_add(4), v2, pc).is_some();
                self.bus_off = 0;
                ok
            }
        };
        if ok {
            self.cyc += t::DUAL + self.fwd_stall(addr);
        }
        ok
    }

    /// The word transfers of a multiple load/store (LDM/STM here, VLDM/VSTM in the FPU), in
    /// order from `start`, one per slot: a load fills `vals[slot]`, a store writes
    /// `stored(self, slot)`. `bus_off` counts the words done (the bus timing of each access);
    /// false if an access faulted (the fault raised: the caller abandons the instruction).
    pub(crate) fn transfer_words(
        &mut self,
        start: u32,
        pc: u32,
        load: bool,
        slots: impl Iterator<Item = usize>,
        vals: &mut [u32],
        stored: impl Fn(&Self, usize) -> u32,
    ) -> bool {
        let mut a = start;
        for slot in slots {
            let ok = if load {
                self.ld32(a, pc).map(|v| vals[slot] = v).is_some()
            } else {
                let v = stored(self, slot);
                self.st32(a, v, pc).is_some()
            };
            if !ok {
                self.bus_off = 0;
                return false;
            }
            self.bus_off += 1;
            a = a.wrapping_add(4);
        }
        self.bus_off = 0;
        true
    }

    /// LDM/STM (IA or DB) of r0..r15 with optional write-back; PUSH.W/POP.W are these on
    /// SP. Abandoned like the M0's LDM if an interrupt arrives during the transfer.
    fn multi(&mut self, flags: u8, rn: u8, list: u16, pc: u32) {
        let (load, db, wback) = (flags & multi::LOAD != 0, flags & multi::DB != 0, flags & multi::WBACK != 0);
        let n = list.count_ones();
        let with_pc = load && list & 0x8000 != 0;
        let cost = t::MULTI_BASE + n as u64 + if with_pc { t::P_LOAD } else { 0 } + self.fwd_stall(bit(rn));
        if self.multi_check(cost, pc) {
            return;
        }
        let base = self.g(rn);
        let start = if db { base.wrapping_sub(4 * n) } else { base };
        if start & 3 != 0 {
            return self.unaligned(start, pc, load);
        }
        let end = if db { start } else { base.wrapping_add(4 * n) };
        let mut vals = [0u32; 16];
        let listed = (0..16).filter(|i| list & (1 << i) != 0);
        let stored = |m: &Self, i: usize| if i == 15 { pc } else { m.cpu.r[i] };
        if !self.transfer_words(start, pc, load, listed, &mut vals, stored) {
            return;
        }
        if load {
            for (i, v) in vals.iter().enumerate().take(15) {
                if list & (1 << i) != 0 {
                    self.set_reg(i as u8, *v);
                }
            }
        }
        if wback {
            self.set_reg(rn, end);
        }
        if with_pc {
            self.load_pc(vals[15], pc, cost);
        } else {
            self.cyc += cost;
        }
    }
}
