//! Execution of the ARMv7-M data-processing, multiply/divide, branch and system ops
//! (loads and stores are in memory.rs). Every 32-bit op first moves `pc` past itself.

use super::dp;
use super::pipeline::{bit, dst};
use super::timing as t;
use crate::bus::Bus;
use crate::cpu::decode::Op;
use crate::cpu::flags::*;
use crate::cpu::SpLoad;
use crate::machine::Cpu;

/// The immediate shift of a shifted-register operand: `sh` = type << 6 | amount, with
/// ROR #0 meaning RRX. Returns (value, carry out).
#[inline(always)]
pub fn shift_imm(x: u32, sh: u8, c: bool) -> (u32, bool) {
    let n = (sh & 63) as u32;
    match sh >> 6 {
        0 => lsl_c(x, n, c),
        1 => lsr_c(x, n, c),
        2 => asr_c(x, n, c),
        _ if n == 0 => (((c as u32) << 31) | (x >> 1), x & 1 != 0),
        _ => ror_c(x, n, c),
    }
}

impl<B: Bus> Cpu<B> {
    /// The ARMv6-M copy of `exec_g` (used by IT blocks) hands ARMv7-M ops to the ARMv7-M copy.
    #[inline(never)]
    pub(crate) fn exec_t2(&mut self, op: Op, pc: u32) {
        self.exec_g::<true>(op, pc)
    }

    // One method per op, called from `exec_g` with the fields already taken apart, so that
    // its match is the only dispatch (handing the whole op to a second match had it
    // re-packed and dispatched again: 10 to 15 host instructions per Thumb-2 instruction).

    /// Data processing `OP` (a `dp` opcode) with a shifted register; `f` its flag bits.
    #[inline(always)]
    pub(crate) fn dp_reg<const OP: u8>(&mut self, f: u8, rd: u8, rn: u8, rm: u8, sh: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        // (most registers are not shifted: LSL #0 skips the shifter's dispatch)
        let (b, c) = if sh == 0 { (self.g(rm), self.cpu.c) } else { shift_imm(self.g(rm), sh, self.cpu.c) };
        self.dp::<OP>(f, rd, self.g(rn), b, c, true);
    }

    #[inline(always)]
    pub(crate) fn exec_shift_reg(&mut self, op: u8, rd: u8, rn: u8, rm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let (x, n) = (self.g(rn), self.g(rm) & 0xFF);
        let (r, c) = match op & 3 {
            0 => lsl_c(x, n, self.cpu.c),
            1 => lsr_c(x, n, self.cpu.c),
            2 => asr_c(x, n, self.cpu.c),
            _ => ror_c(x, n, self.cpu.c),
        };
        if op & 0x10 != 0 {
            self.set_flags_shift((r, c));
        }
        self.s(rd, r);
        self.cyc += t::ALU;
        self.dp_wrote(dst(rd));
    }

    #[inline(always)]
    pub(crate) fn exec_movt(&mut self, rd: u8, imm: u16, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.alu_result(rd, (self.g(rd) & 0xFFFF) | ((imm as u32) << 16));
    }

    #[inline(always)]
    pub(crate) fn exec_bfi(&mut self, rd: u8, rn: u8, lsb: u8, msb: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let mask = (u32::MAX >> (31 - msb as u32)) & (u32::MAX << lsb);
        let src = if rn == 15 { 0 } else { self.g(rn) << lsb };
        self.alu_result(rd, (self.g(rd) & !mask) | (src & mask));
    }

    #[inline(always)]
    pub(crate) fn exec_bfx(&mut self, signed: bool, rd: u8, rn: u8, lsb: u8, width: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let v = self.g(rn) << (32 - lsb as u32 - width as u32);
        let r = if signed { ((v as i32) >> (32 - width as u32)) as u32 } else { v >> (32 - width as u32) };
        self.alu_result(rd, r);
    }

    #[inline(always)]
    pub(crate) fn exec_sat(&mut self, unsigned: bool, rd: u8, rn: u8, sh: u8, sat: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let x = shift_imm(self.g(rn), sh, self.cpu.c).0 as i32 as i64;
        let (lo, hi) = if unsigned { (0, (1i64 << sat) - 1) } else { (-(1i64 << (sat - 1)), (1i64 << (sat - 1)) - 1) };
        if x < lo || x > hi {
            self.cpu.q = true;
        }
        self.alu_result(rd, x.clamp(lo, hi) as u32);
    }

    /// CLZ, RBIT, REV, REV16, REVSH.
    #[inline(always)]
    pub(crate) fn exec_misc(&mut self, op: u8, rd: u8, rm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let x = self.g(rm);
        let r = match op {
            0 => x.leading_zeros(),
            1 => x.reverse_bits(),
            2 => x.swap_bytes(),
            3 => ((x & 0x00FF_00FF) << 8) | ((x >> 8) & 0x00FF_00FF),
            _ => (x as u16).swap_bytes() as i16 as i32 as u32,
        };
        self.alu_result(rd, r);
    }

    /// SXTH, UXTH, SXTB, UXTB with rotation.
    #[inline(always)]
    pub(crate) fn exec_extend(&mut self, op: u8, rd: u8, rm: u8, rot: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let x = self.g(rm).rotate_right(8 * rot as u32);
        let r = match op {
            0 => x as u16 as i16 as i32 as u32,
            1 => x & 0xFFFF,
            2 => x as u8 as i8 as i32 as u32,
            _ => x & 0xFF,
        };
        self.alu_result(rd, r);
    }

    /// MUL, MLA, MLS (`ra` 15: MUL).
    #[inline(always)]
    pub(crate) fn exec_mul(&mut self, mls: bool, rd: u8, rn: u8, rm: u8, ra: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let p = self.g(rn).wrapping_mul(self.g(rm));
        let (r, cost) = match (ra, mls) {
            (15, _) => (p, t::ALU),
            (_, false) => (self.g(ra).wrapping_add(p), t::MLA),
            (_, true) => (self.g(ra).wrapping_sub(p), t::MLA),
        };
        let cost = if self.m4 { t::M4_MUL } else { cost };
        self.s(rd, r);
        self.cyc += cost;
        self.dp_wrote(dst(rd));
    }

    /// UMULL, SMULL, UMLAL, SMLAL (`op` bit 0 signed, bit 1 accumulate).
    #[inline(always)]
    pub(crate) fn exec_mul_long(&mut self, op: u8, lo: u8, hi: u8, rn: u8, rm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let signed = op & 1 != 0;
        let (a, b) = (self.g(rn), self.g(rm));
        let p = if signed { (a as i32 as i64).wrapping_mul(b as i32 as i64) as u64 } else { a as u64 * b as u64 };
        let acc = (op & 2 != 0).then(|| ((self.g(hi) as u64) << 32) | self.g(lo) as u64);
        let r = p.wrapping_add(acc.unwrap_or(0));
        self.cyc += if self.m4 { t::M4_MUL } else { t::mul_long(b, signed, acc.map(|v| (v >> 32) as u32)) };
        self.s(lo, r as u32);
        self.s(hi, (r >> 32) as u32);
        self.dp_wrote(bit(lo) | bit(hi));
    }

    #[inline(always)]
    pub(crate) fn exec_div(&mut self, signed: bool, rd: u8, rn: u8, rm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.divide(signed, rd, self.g(rn), self.g(rm), pc);
    }

    #[inline(always)]
    pub(crate) fn exec_dsp_op(&mut self, op: u8, rd: u8, rn: u8, rm: u8, ra: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.exec_dsp(op, rd, rn, rm, ra, pc);
    }

    /// IT (16-bit: the loop has moved `pc` past it).
    #[inline(always)]
    pub(crate) fn exec_it(&mut self, state: u8, pc: u32) {
        self.cpu.it = state;
        self.reschedule(); // the block runs on the loop's slow path (it.rs)
        self.cyc += self.it_cost(pc);
    }

    /// CPSID f / CPSIE f (16-bit): FAULTMASK, privileged only, and not settable from NMI.
    #[inline(always)]
    pub(crate) fn exec_cps_f(&mut self, disable: bool) {
        if !self.cpu.npriv || self.cpu.ipsr != 0 {
            self.set_faultmask(disable);
        }
        self.cyc += t::ALU;
    }

    /// NOP.W, and CLREX (which also forgets the exclusive monitor's address).
    #[inline(always)]
    pub(crate) fn exec_nop_w(&mut self, clrex: bool, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        if clrex {
            self.cpu.excl = None;
        }
        self.cyc += t::ALU;
    }

    /// WFE.W, WFI.W, SEV.W: the 16-bit ones' behaviour, 4 bytes long.
    #[inline(always)]
    pub(crate) fn exec_hint_w(&mut self, hint: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let op = match hint {
            2 => Op::Wfe,
            3 => Op::Wfi,
            _ => Op::Sev,
        };
        self.exec(op, pc);
    }

    /// Data processing `OP` (a `dp` opcode) with an immediate; `f` its flag bits.
    #[inline(always)]
    pub(crate) fn dp_imm<const OP: u8>(&mut self, f: u8, rd: u8, rn: u8, imm: u32, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let c = if f & dp::IMM_C != 0 { imm >> 31 != 0 } else { self.cpu.c };
        self.dp::<OP>(f, rd, self.g(rn), imm, c, false);
    }

    /// B<c>.W.
    #[inline(always)]
    pub(crate) fn exec_bcond_w(&mut self, cond: u8, target: u32, pc: u32) {
        if cond_passed(cond, self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) {
            self.v7_branch(target, true, 0);
        } else {
            self.cpu.pc = pc.wrapping_add(4);
            self.cyc += t::NOT_TAKEN;
        }
    }

    /// CBZ/CBNZ (16-bit: the loop has moved `pc` past it).
    #[inline(always)]
    pub(crate) fn exec_cbz(&mut self, nz: bool, rn: u8, target: u32) {
        if (self.g(rn) != 0) == nz {
            // decided in execute (the BRCHSTAT table's "T1CBZ"): P = 2 (refill.rs)
            self.v7_branch(target, false, 0);
        } else {
            self.cyc += t::NOT_TAKEN;
        }
    }

    /// A one-cycle op with a result and no flags.
    #[inline(always)]
    fn alu_result(&mut self, rd: u8, r: u32) {
        self.s(rd, r);
        self.cyc += t::ALU;
        self.dp_wrote(dst(rd));
    }

    /// Data processing: `OP` from `dp` with the flag bits `f`, operands `a` (Rn) and `b`
    /// (immediate or shifted Rm), `carry` the shifter's (or immediate's) carry out for the
    /// logical ops.
    #[inline(always)]
    fn dp<const OP: u8>(&mut self, f: u8, rd: u8, a: u32, b: u32, carry: bool, reg_form: bool) {
        let s = f & dp::S != 0;
        let logical = |m: &mut Self, r: u32| {
            if s {
                m.cpu.c = carry;
                m.nz(r);
            }
            r
        };
        let arith = |m: &mut Self, res: (u32, bool, bool)| if s { m.set_flags_add(res) } else { res.0 };
        let r = match OP {
            dp::AND => logical(self, a & b),
            dp::BIC => logical(self, a & !b),
            dp::ORR => logical(self, a | b),
            dp::ORN => logical(self, a | !b),
            dp::EOR => logical(self, a ^ b),
            dp::MOV => logical(self, b),
            dp::MVN => logical(self, !b),
            dp::ADD => arith(self, add_with_carry(a, b, false)),
            dp::ADC => arith(self, add_with_carry(a, b, self.cpu.c)),
            dp::SBC => arith(self, add_with_carry(a, !b, self.cpu.c)),
            dp::SUB => arith(self, add_with_carry(a, !b, true)),
            _ => arith(self, add_with_carry(!a, b, true)), // RSB
        };
        self.cyc += t::ALU;
        if f & dp::TEST != 0 {
            return;
        }
        self.dp_wrote(dst(rd));
        if rd == 13 {
            match (reg_form, OP) {
                (true, dp::MOV) => self.load_sp(r, SpLoad::MovReg),
                (true, dp::ADD) => self.load_sp(r, SpLoad::AddReg),
                _ => self.write_sp(r),
            }
        } else {
            self.s(rd, r);
        }
    }

    /// SDIV/UDIV: division by zero gives 0, or a fault when CCR.DIV_0_TRP is set.
    fn divide(&mut self, signed: bool, rd: u8, n: u32, d: u32, pc: u32) {
        if d == 0 && self.scb.div0_trap() {
            self.raise_fault(pc, "integer divide by zero (CCR.DIV_0_TRP)", None);
            return;
        }
        let (r, cost) = if signed {
            let (sn, sd) = (n as i32, d as i32);
            let q = if d == 0 { 0 } else { sn.wrapping_div(sd) as u32 };
            (q, t::div(sn.unsigned_abs(), sd.unsigned_abs()))
        } else {
            (n.checked_div(d).unwrap_or(0), t::div(n, d))
        };
        self.s(rd, r);
        self.cyc += cost;
        self.dp_wrote(dst(rd));
    }
}
