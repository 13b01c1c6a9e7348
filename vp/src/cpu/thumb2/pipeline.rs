//! Pipelined single loads and stores of the Cortex-M3/M4 (ARM DDI0337H/I section 3.3.1 and
//! DDI0439B/D section 3.3.2, "Load/store timings"): a single LDR (any size, any addressing
//! but to the PC; LDREX and STREX count as LDR) lets the next instruction, if it is a single
//! LDR or STR whose address does not use the first one's destination, take one cycle less.
//! Loads chain (LDR; LDR; LDR = 2 + 1 + 1); a store never starts a pipeline; LDRD/STRD and
//! LDM/STM neither start nor join one.
//!
//! A store's bus write lands at the store's end (2 cycles after its start, 1 when
//! pipelined): the pipelining is decided before the access (`v7_store`), so the cycle an
//! interrupt pended by the store arrives and the instruction boundary it is taken at agree
//! (with the write one cycle into the next instruction, the differential test took 226 of
//! 3000 such interrupts one instruction later than QEMU).
//!
//! "Directly follows" costs the loop nothing: the load records the cycle it ends at, and
//! the next instruction starts at that cycle only if nothing ran in between (every
//! instruction and every exception entry takes at least one cycle).

use super::timing as t;
use crate::cpu::decode::{alu_op, Op};
use crate::machine::Machine;

impl Machine {
    /// Cycles of a single load or store whose address is formed from the registers of the
    /// mask `addr`: 1 behind a pipelining load whose destinations are not among them, else 2;
    /// one more right after a data-processing instruction that wrote one of them.
    #[inline(always)]
    pub(crate) fn ldst_cost(&self, addr: u16) -> u64 {
        // branch-free: whether a load pipelines is data-dependent, so a branch mispredicts
        let pipelined = (self.cyc == self.ld_end) & (addr & self.ld_dst == 0);
        t::LDST - (t::LDST - t::LDST_PIPELINED) * pipelined as u64 + self.fwd_stall(addr)
    }

    /// The no-forwarding stall (M3 TRM DDI0337I section 3.3.1 p. 3-9, M4 TRM DDI0439B
    /// section 3.3.2): "any load or store that generates an address dependent on the result
    /// of a preceding data processing operation" waits 1 cycle "whilst the register bank is
    /// updated". `last_op` is the instruction executed just before (`Op::Nop` after an
    /// exception entry or an IT-skipped instruction; the one before a folded IT).
    #[inline(always)]
    pub(crate) fn fwd_stall(&self, addr: u16) -> u64 {
        (dp_written(self.last_op) & addr != 0) as u64
    }

    /// A single store of the registers of the mask `addr`, `access` its bus write: 1 cycle
    /// behind a pipelining load, else 2. The write lands at the store's end (`st_lat`
    /// cycles after its start), so a store that pends an interrupt (NVIC_ISPR, ICSR) has
    /// it arrive after the store, not one cycle into the next instruction.
    #[inline(always)]
    pub(crate) fn v7_store(&mut self, addr: u16, access: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let cost = self.ldst_cost(addr);
        self.st_lat = cost;
        let ok = access(self);
        self.st_lat = t::LDST;
        if ok.is_some() {
            self.cyc += cost;
        }
        ok
    }

    /// A single load from an address formed from the registers of the mask `addr` into those
    /// of `dst`, `access` its bus read, which happens after the no-forwarding stall (the
    /// address waits for the register bank), so a peripheral samples one cycle later then.
    #[inline(always)]
    pub(crate) fn v7_load_access(
        &mut self,
        addr: u16,
        dst: u16,
        access: impl FnOnce(&mut Self) -> Option<u32>,
    ) -> Option<u32> {
        self.bus_off = self.fwd_stall(addr);
        let v = access(self);
        self.bus_off = 0;
        if v.is_some() {
            self.v7_load(addr, dst);
        }
        v
    }

    /// A single load into the registers of the mask `dst` (its target, and its base when
    /// written back) completes: the next load or store may pipeline behind it.
    #[inline(always)]
    pub(crate) fn v7_load(&mut self, addr: u16, dst: u16) {
        self.cyc += self.ldst_cost(addr);
        self.ld_end = self.cyc;
        self.ld_dst = dst;
    }
}

/// The registers a data-processing instruction (move, add, subtract, logical, shift,
/// multiply, divide, saturate, bit-field, extend, reverse, ADR) writes; 0 for any other
/// instruction (loads, branches, MRS, compares and tests).
pub fn dp_written(op: Op) -> u16 {
    match op {
        Op::LslImm { rd, .. }
        | Op::LsrImm { rd, .. }
        | Op::AsrImm { rd, .. }
        | Op::AddsReg { rd, .. }
        | Op::SubsReg { rd, .. }
        | Op::AddsImm { rd, .. }
        | Op::SubsImm { rd, .. }
        | Op::MovsImm { rd, .. }
        | Op::AddConst { rd, .. }
        | Op::MovConst { rd, .. }
        | Op::AddSpImm { rd, .. }
        | Op::Sxth { rd, .. }
        | Op::Sxtb { rd, .. }
        | Op::Uxth { rd, .. }
        | Op::Uxtb { rd, .. }
        | Op::Rev { rd, .. }
        | Op::Rev16 { rd, .. }
        | Op::Revsh { rd, .. }
        | Op::AddHi { rd, .. }
        | Op::MovHi { rd, .. }
        | Op::ShiftReg { rd, .. }
        | Op::MovT { rd, .. }
        | Op::Bfi { rd, .. }
        | Op::Bfx { rd, .. }
        | Op::Sat { rd, .. }
        | Op::Misc { rd, .. }
        | Op::Extend { rd, .. }
        | Op::Mul { rd, .. }
        | Op::Div { rd, .. } => bit(rd),
        Op::Alu { op, rdn, .. } if !matches!(op, alu_op::TST | alu_op::CMP | alu_op::CMN) => bit(rdn),
        Op::AdjSp { .. } => bit(13),
        // rd = PC: the compare and test forms (CMP.W, TST.W, ...)
        Op::DpReg { rd, .. } | Op::DpImm { rd, .. } if rd != 15 => bit(rd),
        Op::MulLong { lo, hi, .. } => bit(lo) | bit(hi),
        _ => 0,
    }
}

/// The mask of register `r`.
#[inline(always)]
pub fn bit(r: u8) -> u16 {
    1 << (r & 15)
}
