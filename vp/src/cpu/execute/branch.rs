//! The 16-bit set's branches (and BL): B, B<cond>, BX (also exception return), BLX, MOV PC,
//! ADD PC. A taken branch costs the branch plus the pipeline refill (timing.rs `BRANCH` on
//! the M0; on the M3/M4 `V7`, thumb2/refill.rs: forwarded from decode or decided in execute);
//! the wait states of the target's flash line are paid when it is fetched (flash.rs).

use crate::bus::Bus;
use crate::cpu::flags::cond_passed;
use crate::cpu::op::Cond;
use crate::cpu::thumb2::timing as t2;
use crate::cpu::timing as t;
use crate::machine::Cpu;
use crate::nvic::EXC_RETURN_MIN;

impl<B: Bus> Cpu<B> {
    #[inline(always)]
    pub(super) fn exec_add_pc<const V7: bool>(&mut self, rm: u8, base: u32) {
        let target = base.wrapping_add(self.g(rm)) & !1;
        self.taken::<V7>(target, false);
    }

    /// A taken branch to `target`: the M0's 3 cycles, or the M3/M4's 1 + P (`forwarded`:
    /// the target is known in decode, refill.rs).
    #[inline(always)]
    fn taken<const V7: bool>(&mut self, target: u32, forwarded: bool) {
        if V7 {
            self.v7_branch(target, forwarded, 0);
        } else {
            self.branch(target, t::BRANCH);
        }
    }

    #[inline(always)]
    pub(super) fn exec_mov_pc<const V7: bool>(&mut self, rm: u8) {
        let target = self.g(rm) & !1;
        self.taken::<V7>(target, rm == 14);
    }

    #[inline(always)]
    pub(super) fn exec_bx<const V7: bool>(&mut self, rm: u8, pc: u32) {
        let target = if rm == 15 { pc.wrapping_add(4) } else { self.g(rm) };
        if target >= EXC_RETURN_MIN && self.cpu.ipsr != 0 {
            // the exception return's figures count the BX as the M0's 3 (cpu/timing.rs)
            self.exception_return(target, pc, t::BRANCH);
        } else {
            self.bx_write(target, self.bx_cost::<V7>(target, rm));
        }
    }

    /// An interworking branch's cycles (the T bit is checked by `bx_write`): 3 on the M0,
    /// 1 + P on the M3/M4, forwarded when the register is LR (refill.rs).
    #[inline(always)]
    fn bx_cost<const V7: bool>(&self, target: u32, rm: u8) -> u64 {
        if V7 {
            let p = if rm == 14 { t2::P_FORWARDED } else { t2::P };
            1 + p + self.wide_unaligned(target & !1)
        } else {
            t::BRANCH
        }
    }

    #[inline(always)]
    pub(super) fn exec_blx<const V7: bool>(&mut self, rm: u8, pc: u32) {
        let target = self.g(rm);
        let cost = self.bx_cost::<V7>(target, rm);
        self.cpu.r[14] = pc.wrapping_add(2) | 1;
        self.bx_write(target, cost);
    }

    #[inline(always)]
    pub(super) fn exec_bcond<const V7: bool>(&mut self, cond: Cond, target: u32) {
        if cond_passed(cond, self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) {
            self.taken::<V7>(target, true);
        } else {
            self.cyc += t::BCOND_NOT_TAKEN;
        }
    }

    #[inline(always)]
    pub(super) fn exec_b<const V7: bool>(&mut self, target: u32) {
        self.taken::<V7>(target, true);
    }

    #[inline(always)]
    pub(super) fn exec_bl<const V7: bool>(&mut self, target: u32, pc: u32) {
        self.cpu.r[14] = pc.wrapping_add(4) | 1;
        if V7 {
            self.v7_branch(target, true, 0);
        } else {
            self.branch(target, t::BL);
        }
    }
}
