//! The IT block. `Machine::it` holds ITSTATE (firstcond << 4 | mask, as in the EPSR IT
//! bits); while it is non-zero the ARMv7-M loop's slow path hands each instruction to
//! `exec_in_it` instead of `exec`: whatever makes it non-zero (IT, an exception return into
//! a block, `exec_in_it` itself) requests attention (`reschedule`), so outside IT blocks the
//! loop pays nothing for them.

use super::timing as t;
use crate::bus::Bus;
use crate::cpu::decode::{alu_op, Op};
use crate::cpu::flags::cond_passed;
use crate::machine::Cpu;

/// ITAdvance: the state after one instruction of the block.
#[inline(always)]
pub fn advance(state: u8) -> u8 {
    if state & 7 == 0 {
        0
    } else {
        (state & 0xE0) | ((state << 1) & 0x1F)
    }
}

/// 16-bit instructions that set the flags outside an IT block and do not inside one.
pub(crate) fn sets_flags_outside_it(op: &Op) -> bool {
    match op {
        Op::LslImm { .. }
        | Op::LsrImm { .. }
        | Op::AsrImm { .. }
        | Op::AddsReg { .. }
        | Op::SubsReg { .. }
        | Op::AddsImm { .. }
        | Op::SubsImm { .. }
        | Op::MovsImm { .. } => true,
        Op::Alu { op, .. } => !matches!(*op, alu_op::TST | alu_op::CMP | alu_op::CMN),
        _ => false,
    }
}

impl<B: Bus> Cpu<B> {
    /// The cycles of the IT instruction at `pc`: 0 when folded, 1 otherwise. The TRMs (M3
    /// Table 3.1, M4 Table 3-1 note d): "an IT instruction can be folded onto a preceding
    /// 16-bit Thumb instruction, enabling execution in zero cycles". The preceding
    /// instruction is read from the predecoded code before `pc` (a 16-bit op at `pc - 2`
    /// and no 32-bit one starting at `pc - 4`), so the loop pays nothing for it: an IT
    /// reached by a branch or an exception return folds like one reached in sequence; one
    /// in RAM (not predecoded) never folds.
    pub(crate) fn it_cost(&self, pc: u32) -> u64 {
        let size = |a: u32| self.ops.get((a >> 1) as usize).map(|op| op.size());
        if pc >= 4 && size(pc - 4) == Some(2) && size(pc - 2) == Some(2) {
            t::IT_FOLDED
        } else {
            t::IT
        }
    }

    /// Execute `op` (at `pc`, the loop has already moved `pc` 2 bytes on) as the next
    /// instruction of the current IT block: skipped if its condition fails, otherwise
    /// executed with the 16-bit flag-setting forms keeping the flags, by the ARMv7-M copy
    /// of `exec_g` (so that the shared ops take the M3/M4 figures).
    #[inline(never)]
    pub(crate) fn exec_in_it(&mut self, op: Op, pc: u32) {
        let state = self.cpu.it;
        self.cpu.it = advance(state);
        if self.cpu.it != 0 {
            self.reschedule();
        }
        if !cond_passed(state >> 4, self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) {
            self.cpu.pc = pc.wrapping_add(op.size());
            self.cyc += t::NOT_TAKEN;
            return;
        }
        if sets_flags_outside_it(&op) {
            let flags = (self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v);
            self.exec_t2(op, pc);
            (self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) = flags;
        } else {
            self.exec_t2(op, pc);
        }
        if self.pending_fault.is_some() {
            self.cpu.it = state; // the faulting instruction is stacked with its own ITSTATE
            self.reschedule();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn advance_walks_the_mask() {
        // ITTE EQ: firstcond 0000, mask 0110 -> EQ, EQ, NE
        let s0 = 0x06;
        let s1 = super::advance(s0);
        let s2 = super::advance(s1);
        assert_eq!((s0 >> 4, s1 >> 4, s2 >> 4), (0, 0, 1));
        assert_eq!(super::advance(s2), 0);
        assert_eq!(super::advance(0x08), 0); // IT EQ: one instruction
    }
}
