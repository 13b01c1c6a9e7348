//! The 16-bit set's branches (and BL): B, B<cond>, BX (also exception return), BLX, MOV PC,
//! ADD PC. A taken branch costs the branch plus the pipeline refill (timing.rs `BRANCH`); the
//! wait states of the target's flash line are paid when it is fetched (flash.rs).

use crate::bus::Bus;
use crate::cpu::flags::cond_passed;
use crate::cpu::op::Cond;
use crate::cpu::thumb2::timing as t2;
use crate::cpu::timing as t;
use crate::machine::Cpu;
use crate::nvic::EXC_RETURN_MIN;

impl<B: Bus> Cpu<B> {
    #[inline(always)]
    pub(super) fn exec_add_pc(&mut self, rm: u8, base: u32) {
        let target = base.wrapping_add(self.g(rm)) & !1;
        self.branch(target, t::BRANCH);
    }

    #[inline(always)]
    pub(super) fn exec_mov_pc(&mut self, rm: u8) {
        let target = self.g(rm) & !1;
        self.branch(target, t::BRANCH);
    }

    #[inline(always)]
    pub(super) fn exec_bx(&mut self, rm: u8, pc: u32) {
        let target = if rm == 15 { pc.wrapping_add(4) } else { self.g(rm) };
        if target >= EXC_RETURN_MIN && self.cpu.ipsr != 0 {
            self.exception_return(target, pc, t::BRANCH);
        } else {
            self.bx_write(target, t::BRANCH);
        }
    }

    #[inline(always)]
    pub(super) fn exec_blx(&mut self, rm: u8, pc: u32) {
        let target = self.g(rm);
        self.cpu.r[14] = pc.wrapping_add(2) | 1;
        self.bx_write(target, t::BRANCH);
    }

    #[inline(always)]
    pub(super) fn exec_bcond(&mut self, cond: Cond, target: u32) {
        if cond_passed(cond, self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) {
            self.branch(target, t::BRANCH);
        } else {
            self.cyc += t::BCOND_NOT_TAKEN;
        }
    }

    #[inline(always)]
    pub(super) fn exec_b(&mut self, target: u32) {
        self.branch(target, t::BRANCH);
    }

    #[inline(always)]
    pub(super) fn exec_bl<const V7: bool>(&mut self, target: u32, pc: u32) {
        self.cpu.r[14] = pc.wrapping_add(4) | 1;
        self.branch(target, if V7 { t2::BL } else { t::BL });
    }
}
