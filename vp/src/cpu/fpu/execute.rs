//! Execution of the FPv4-SP instructions (ARMv7-M ARM A7.7): the coprocessor-access check
//! (CPACR, NOCP), ExecuteFPCheck (a pending lazy save is done, CONTROL.FPCA set), then the
//! operation with its Cortex-M4 cycles (`super::timing`).

use super::decode::{decode, Arith, Cvt, FpOp};
use super::softfloat::{self as sf, Env};
use super::{ASPEN, FPSCR_MASK, LSPACT};
use crate::bus::Bus;
use crate::cpu::thumb2::timing::fpu as t;
use crate::machine::{Access, Cpu};

const SIGN: u32 = 0x8000_0000;

impl<B: Bus> Cpu<B> {
    /// One CP10/CP11 instruction at `pc` (32 bits), `raw` = hw1 << 16 | hw2.
    #[inline(never)]
    pub(crate) fn exec_fp(&mut self, raw: u32, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let Some(op) = decode(raw) else {
            let why = format!("undefined instruction 0x{:04x} 0x{:04x}", raw >> 16, raw & 0xFFFF);
            return self.raise_fault(pc, &why, None);
        };
        if !self.fpu.present || !self.fpu.enabled(self.cpu.npriv && self.cpu.ipsr == 0) {
            let why = if self.fpu.present {
                "floating-point instruction with CP10/CP11 disabled in CPACR (NOCP UsageFault)"
            } else {
                "coprocessor instruction on a core without an FPU (NOCP UsageFault)"
            };
            return self.raise_fault(pc, why, None);
        }
        // ExecuteFPCheck: complete a lazy save first, then, with automatic state preservation,
        // open a new FP context: FPSCR starts from FPDSCR (its control bits; the flags and
        // N Z C V clear, as QEMU's mps2-an386 does) and CONTROL.FPCA is set.
        if self.fpu.fpccr & LSPACT != 0 && !self.preserve_fp_state(pc) {
            return;
        }
        if self.fpu.fpccr & ASPEN != 0 && !self.fpu.fpca {
            self.fpu.fpscr = self.fpu.fpdscr;
            self.fpu.fpca = true;
        }
        match op {
            FpOp::Mem { .. } => self.fp_mem(op, pc),
            _ => self.cyc += self.fp_data(op),
        }
    }

    /// The register and data-processing ops; returns their cycles.
    fn fp_data(&mut self, op: FpOp) -> u64 {
        let mut env = Env::from_fpscr(self.fpu.fpscr);
        let s = self.fpu.s;
        let cost = match op {
            FpOp::Arith { op, d, n, m } => {
                let (sd, sn, sm) = (s[d as usize], s[n as usize], s[m as usize]);
                let e = &mut env;
                use Arith::*;
                let r = match op {
                    Mla => sf::add(sd, sf::mul(sn, sm, e), e),
                    Mls => sf::add(sd, sf::mul(sn, sm, e) ^ SIGN, e),
                    Nmls => sf::add(sd ^ SIGN, sf::mul(sn, sm, e), e),
                    Nmla => sf::add(sd ^ SIGN, sf::mul(sn, sm, e) ^ SIGN, e),
                    Mul => sf::mul(sn, sm, e),
                    Nmul => sf::mul(sn, sm, e) ^ SIGN,
                    Add => sf::add(sn, sm, e),
                    Sub => sf::sub(sn, sm, e),
                    Div => sf::div(sn, sm, e),
                    Fma => sf::fma(sd, sn, sm, e),
                    Fms => sf::fma(sd, sn ^ SIGN, sm, e),
                    Fnma => sf::fma(sd ^ SIGN, sn ^ SIGN, sm, e),
                    Fnms => sf::fma(sd ^ SIGN, sn, sm, e),
                };
                self.fpu.s[d as usize] = r;
                match op {
                    Div => t::DIV_SQRT,
                    Mul | Nmul | Add | Sub => t::ALU,
                    _ => t::MAC,
                }
            }
            FpOp::Unary { op, d, m } => {
                let x = s[m as usize];
                self.fpu.s[d as usize] = match op {
                    0 => x,
                    1 => x & !SIGN,
                    2 => x ^ SIGN,
                    _ => sf::sqrt(x, &mut env),
                };
                if op == 3 {
                    t::DIV_SQRT
                } else {
                    t::ALU
                }
            }
            FpOp::MovImm { d, imm } => {
                self.fpu.s[d as usize] = imm;
                t::ALU
            }
            FpOp::Cmp { e, d, m } => {
                let b = m.map_or(0, |m| s[m as usize]);
                let nzcv = sf::compare(s[d as usize], b, e, &mut env);
                self.fpu.fpscr = (self.fpu.fpscr & 0x0FFF_FFFF) | nzcv;
                t::ALU
            }
            FpOp::Cvt { cvt, d, m } => {
                let x = s[m as usize];
                let e = &mut env;
                self.fpu.s[d as usize] = match cvt {
                    Cvt::ToInt { unsigned, size, fbits, round_zero } => {
                        sf::to_fixed(x, size as u32, fbits as u32, unsigned, round_zero, e)
                    }
                    Cvt::FromInt { unsigned, size, fbits, nearest } => {
                        if nearest {
                            e.mode = sf::RN;
                        }
                        sf::from_fixed(x, size as u32, fbits as u32, unsigned, e)
                    }
                    Cvt::Half { top, to_half: true } => {
                        let h = sf::single_to_half(x, e);
                        let old = s[d as usize];
                        if top {
                            (old & 0xFFFF) | (h << 16)
                        } else {
                            (old & 0xFFFF_0000) | h
                        }
                    }
                    Cvt::Half { top, to_half: false } => sf::half_to_single(if top { x >> 16 } else { x & 0xFFFF }, e),
                };
                t::ALU
            }
            FpOp::Core { to_core, n, rt } => {
                if to_core {
                    self.s(rt, s[n as usize]);
                } else {
                    self.fpu.s[n as usize] = self.g(rt);
                }
                t::CORE
            }
            FpOp::Core2 { to_core, m, rt, rt2 } => {
                let m = m as usize;
                if to_core {
                    self.s(rt, s[m]);
                    self.s(rt2, s[m + 1]);
                } else {
                    self.fpu.s[m] = self.g(rt);
                    self.fpu.s[m + 1] = self.g(rt2);
                }
                t::CORE
            }
            FpOp::Vmrs { rt: 15 } => {
                let v = self.fpu.fpscr;
                (self.cpu.n, self.cpu.z, self.cpu.c, self.cpu.v) =
                    (v >> 31 != 0, v & (1 << 30) != 0, v & (1 << 29) != 0, v & (1 << 28) != 0);
                t::ALU
            }
            FpOp::Vmrs { rt } => {
                self.s(rt, self.fpu.fpscr);
                t::ALU
            }
            FpOp::Vmsr { rt } => {
                self.fpu.fpscr = self.g(rt) & FPSCR_MASK;
                t::ALU
            }
            FpOp::Mem { .. } => unreachable!("FP load/store in fp_data"),
        };
        self.fpu.fpscr |= env.flags;
        cost
    }

    /// VLDR/VSTR, VLDM/VSTM/VPUSH/VPOP: word-aligned always; abandoned like LDM/STM when an
    /// interrupt arrives during a multiple transfer.
    fn fp_mem(&mut self, op: FpOp, pc: u32) {
        let FpOp::Mem { load, first, words, rn, mode, add, wback, imm } = op else {
            unreachable!("not an FP load/store: {:?}", op)
        };
        let n = words as u32;
        let cost = match (mode, words) {
            (0, 1) => t::LDST,
            (0, _) => t::LDST_DOUBLE,
            _ => t::MULTI_BASE + n as u64,
        };
        if mode != 0 && self.multi_check(cost, pc) {
            return;
        }
        let base = if rn == 15 { pc.wrapping_add(4) & !3 } else { self.g(rn) };
        let (start, end) = match mode {
            0 => (if add { base.wrapping_add(imm as u32) } else { base.wrapping_sub(imm as u32) }, base),
            1 => (base, base.wrapping_add(4 * n)),
            _ => (base.wrapping_sub(4 * n), base.wrapping_sub(4 * n)),
        };
        if start & 3 != 0 {
            let why = "unaligned access";
            return self.raise_fault(pc, why, Some(Access { addr: start, size: 4, write: !load, why }));
        }
        let mut vals = [0u32; 32];
        let regs = first as usize..first as usize + words as usize;
        let stored = |m: &Self, k: usize| m.fpu.s[regs.start + k];
        if !self.transfer_words(start, pc, load, 0..words as usize, &mut vals, stored) {
            return;
        }
        if load {
            self.fpu.s[regs].copy_from_slice(&vals[..words as usize]);
        }
        if wback {
            if rn == 13 {
                self.write_sp(end);
            } else {
                self.s(rn, end);
            }
        }
        self.cyc += cost;
    }
}
