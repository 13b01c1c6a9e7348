//! The pipeline refill P of a taken branch on the Cortex-M3/M4: "the number of cycles
//! required for a pipeline refill. This ranges from 1 to 3 depending on the alignment and
//! width of the target instruction, and whether the processor manages to speculate the
//! address early" (M3 TRM DDI0337H/I Table 3.1 notes; M4 TRM DDI0439B Table 3-1 notes).
//!
//! - Speculated early: "the processor forwards certain branch types, by which the memory
//!   transaction of the branch is presented at least a cycle earlier than when the opcode
//!   reaches execute ... Branches affected are PC relative with immediate offset, or use LR
//!   as the target register" (M3 TRM DDI0337E/G section 1.5-1.6 "Branch target forwarding";
//!   the BRCHSTAT table, DDI0337E section 16.3, lists them as the decode-time branches: B,
//!   B<c>, BL, BX LR, BLX LR, MOV PC, LR). P = 1 (`P_FORWARDED`): such a branch costs 2.
//!   LLVM's Cortex-M3 model says the same (ARMScheduleM3.td, "MispredictPenalty = 2; Best
//!   case branch taken cost").
//! - Execute-time branches (CBZ/CBNZ, BX/BLX/MOV/ADD PC with another register): the address
//!   leaves the core after execute, P = 2 (`timing::P`).
//! - Loads to the PC (LDR PC, LDM/POP with the PC, TBB/TBH): the address arrives with the
//!   load's data, "three cycles for the pipeline reload" (`timing::P_LOAD`, its source there).
//! - Either one more when the target is a 32-bit instruction that is not word-aligned: its
//!   two halfwords are in two fetch words ("Branches to unaligned wide instructions will take
//!   one extra cycle", measured on a Cortex-M4 from SRAM and flash, compendium.i-0.nl
//!   "Instruction alignment rules"). So P spans the TRM's 1 to 3.
//!
//! Exception return (a BX or POP of EXC_RETURN) keeps its own figures (cpu/timing.rs).

use super::timing as t;
use crate::bus::Bus;
use crate::contract::RAM_BASE;
use crate::machine::Cpu;

impl<B: Bus> Cpu<B> {
    /// A taken branch of the ARMv7-M cores to `target`: 1 + P cycles (+ `extra`, e.g. the
    /// load of a TBB), P from `forwarded` (decode-time) and the target's width and alignment.
    #[inline(always)]
    pub(crate) fn v7_branch(&mut self, target: u32, forwarded: bool, extra: u64) {
        let cost = self.v7_branch_cost(target, forwarded, extra);
        self.branch(target, cost);
    }

    /// The cycles of that branch (`v7_branch`); the native engine takes them at translation
    /// time for targets in flash.
    #[inline(always)]
    pub(crate) fn v7_branch_cost(&self, target: u32, forwarded: bool, extra: u64) -> u64 {
        let p = if forwarded { t::P_FORWARDED } else { t::P };
        1 + p + extra + self.wide_unaligned(target)
    }

    /// POP (16-bit) of `n` registers (N counts the PC): 1 + N; with the PC, on ARMv7-M
    /// 1 + N + P_LOAD (M3 TRM DDI0337I Table 3.1 "Pop and return" 1 + N + P, the reload of a
    /// load to the PC being 3: `timing::P_LOAD`), as POP.W/LDM.W (memory.rs `multi`); on
    /// ARMv6-M the M0's 4 + N (cpu/timing.rs).
    #[inline(always)]
    pub(crate) fn pop_cost(&self, n: u32, with_pc: bool) -> u64 {
        let base = match (with_pc, self.v7) {
            (false, _) => crate::cpu::timing::MULTI_BASE,
            (true, true) => crate::cpu::timing::MULTI_BASE + t::P_LOAD,
            (true, false) => crate::cpu::timing::POP_PC_BASE,
        };
        base + n as u64
    }

    /// What a POP that loads the PC adds for its target on ARMv7-M: one more cycle to a 32-bit
    /// instruction that is not word-aligned (`wide_unaligned`, as LDR PC and LDM.W with the PC
    /// have it); 0 on ARMv6-M.
    #[inline(always)]
    pub(crate) fn pop_refill_extra(&self, target: u32) -> u64 {
        if self.v7 {
            self.wide_unaligned(target)
        } else {
            0
        }
    }

    /// 1 when the instruction at `target` is a 32-bit one at an address that is not a
    /// multiple of 4, else 0.
    #[inline(always)]
    pub(crate) fn wide_unaligned(&self, target: u32) -> u64 {
        if target & 2 == 0 {
            return 0;
        }
        match self.ops.get((target >> 1) as usize) {
            Some(op) => (op.size() == 4) as u64,
            None => self.wide_in_ram(target),
        }
    }

    #[cold]
    fn wide_in_ram(&self, target: u32) -> u64 {
        let o = target.wrapping_sub(RAM_BASE);
        match self.bus.ram_half(o) {
            // a 32-bit Thumb instruction starts with 0b11101, 0b11110 or 0b11111
            Some(hw) => (hw >> 11 >= 0b11101) as u64,
            None => 0,
        }
    }
}
