//! Execution of decoded ops: `exec_g`, the one dispatch (a `match` with one arm per op), and
//! what the instruction classes share. Every op does the whole instruction at its start
//! cycle and adds its cycles (timing.rs); the loop has already advanced `pc` past a 16-bit
//! instruction, branches overwrite it. A fault calls `raise_fault`, which rewinds `pc` to the
//! faulting instruction and leaves the registers untouched.
//!
//! By class: the 16-bit set's branches are branch.rs, its system instructions system.rs,
//! LDM/STM/PUSH/POP cpu/mod.rs, the Thumb-2 ops thumb2/, the FPU's fpu/. The 16-bit data
//! processing and single loads/stores are written out in the match itself: as methods of
//! their own (inlined) they cost the Cortex-M0 loop 1.5 host instructions per simulated
//! instruction (callgrind on difftest/harness/mips_bench.c: 61.2 -> 62.7; LLVM allocates the
//! loop's registers differently); branch.rs and system.rs cost nothing.

mod branch;
mod system;

use super::decode::{alu_op, Op};
use super::flags::*;
use super::thumb2::dp;
use super::thumb2::pipeline::{bit, dst};
use super::timing as t;
use crate::bus::Bus;
use crate::machine::Cpu;

impl<B: Bus> Cpu<B> {
    #[inline(always)]
    pub(crate) fn g(&self, i: u8) -> u32 {
        self.cpu.r[(i & 15) as usize]
    }
    #[inline(always)]
    pub(crate) fn s(&mut self, i: u8, v: u32) {
        self.cpu.r[(i & 15) as usize] = v;
    }
    #[inline(always)]
    pub(crate) fn nz(&mut self, r: u32) {
        self.cpu.n = (r as i32) < 0;
        self.cpu.z = r == 0;
    }
    /// Write back the flags of an add, subtract or compare (AddWithCarry's result, carry,
    /// overflow): N and Z from the result, C, V. Returns the result.
    #[inline(always)]
    pub(crate) fn set_flags_add(&mut self, (r, c, v): (u32, bool, bool)) -> u32 {
        self.cpu.c = c;
        self.cpu.v = v;
        self.nz(r);
        r
    }
    /// Write back the flags of a shift (result, carry out): N, Z, C; V is unchanged.
    #[inline(always)]
    pub(crate) fn set_flags_shift(&mut self, (r, c): (u32, bool)) -> u32 {
        self.cpu.c = c;
        self.nz(r);
        r
    }
    /// A taken branch: its own cycles (a board with wait states pays the target's flash line
    /// when the loop fetches it, flash.rs).
    #[inline(always)]
    pub(crate) fn branch(&mut self, target: u32, cost: u64) {
        self.cpu.pc = target;
        self.cyc += cost;
    }
    /// Interworking branch (BX, BLX, POP PC): bit 0 must be set (Thumb) or the core faults.
    #[inline(always)]
    pub(crate) fn bx_write(&mut self, target: u32, cost: u64) {
        if target & 1 == 0 {
            // The branch completes with EPSR.T = 0; the next instruction faults (INVSTATE).
            self.cyc += cost;
            self.cpu.tbit = false;
            self.raise_fault(
                target,
                "branch to an address with bit 0 clear (INVSTATE: ARM state is not supported)",
                None,
            );
        } else {
            self.branch(target & !1, cost);
        }
    }
    #[inline(always)]
    pub(crate) fn write_sp(&mut self, v: u32) {
        let v = v & !3;
        self.cpu.r[13] = v;
        self.sp_low = self.sp_low.min(v);
    }

    /// A 1-cycle data-processing instruction of the 16-bit set that wrote the registers of
    /// `dst` completes (on the M3/M4 an address formed from them right after it stalls).
    #[inline(always)]
    fn alu_done<const V7: bool>(&mut self, dst: u16) {
        self.cyc += t::ALU;
        if V7 {
            self.dp_wrote(dst);
        }
    }

    /// A single load of the 16-bit set, its address formed from the registers of the mask
    /// `addr`, into those of `dst`; `access` is its bus read: 2 cycles on the M0, pipelined
    /// on the M3/M4 (thumb2/pipeline.rs).
    #[inline(always)]
    fn load<const V7: bool>(
        &mut self,
        addr: u16,
        dst: u16,
        access: impl FnOnce(&mut Self) -> Option<u32>,
    ) -> Option<u32> {
        if V7 {
            return self.v7_load_access(addr, dst, access);
        }
        let v = access(self);
        if v.is_some() {
            self.cyc += t::LDST;
        }
        v
    }

    /// A single store of the 16-bit set to `a`, its address formed from the registers of the
    /// mask `addr` (with an immediate offset: `IMM`); `access` is its bus write: 2 cycles on
    /// the M0, pipelined or through the write buffer on the M3/M4.
    #[inline(always)]
    fn store<const V7: bool, const IMM: bool>(
        &mut self,
        addr: u16,
        a: u32,
        access: impl FnOnce(&mut Self) -> Option<()>,
    ) {
        if V7 {
            let cost = self.v7_store_begin(addr, a, IMM);
            let ok = access(self);
            self.v7_store_end(ok, cost);
        } else if access(self).is_some() {
            self.cyc += t::LDST;
        }
    }

    #[inline(always)]
    pub fn exec(&mut self, op: Op, pc: u32) {
        self.exec_g::<false>(op, pc)
    }

    /// One instruction. `V7`: the ARMv7-M loop's copy, with the Thumb-2 ops inlined (the
    /// ARMv6-M loop's copy only has calls to them, which it never makes).
    #[inline(always)]
    pub(crate) fn exec_g<const V7: bool>(&mut self, op: Op, pc: u32) {
        match op {
            Op::LslImm { rd, rm, imm } => {
                let x = self.g(rm);
                let r = self.set_flags_shift(lsl_c(x, imm as u32, self.cpu.c));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::LsrImm { rd, rm, imm } => {
                let r = self.set_flags_shift(lsr_c(self.g(rm), imm as u32, self.cpu.c));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::AsrImm { rd, rm, imm } => {
                let r = self.set_flags_shift(asr_c(self.g(rm), imm as u32, self.cpu.c));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::AddsReg { rd, rn, rm } => {
                let r = self.set_flags_add(add_with_carry(self.g(rn), self.g(rm), false));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::SubsReg { rd, rn, rm } => {
                let r = self.set_flags_add(add_with_carry(self.g(rn), !self.g(rm), true));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::AddsImm { rd, rn, imm } => {
                let r = self.set_flags_add(add_with_carry(self.g(rn), imm as u32, false));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::SubsImm { rd, rn, imm } => {
                let r = self.set_flags_add(add_with_carry(self.g(rn), !(imm as u32), true));
                self.s(rd, r);
                self.alu_done::<V7>(dst(rd));
            }
            Op::MovsImm { rd, imm } => {
                self.s(rd, imm as u32);
                self.nz(imm as u32);
                self.alu_done::<V7>(dst(rd));
            }
            Op::CmpImm { rn, imm } => {
                self.set_flags_add(add_with_carry(self.g(rn), !(imm as u32), true));
                self.cyc += t::ALU;
            }
            Op::Alu { op, rdn, rm } => {
                if op == alu_op::MUL && self.mul_cycles > 1 {
                    // The small (32-cycle) multiplier: an interrupt abandons it, like LDM.
                    let cost = self.mul_cycles;
                    if self.next_event < self.cyc + cost && self.abandon_multi(cost, pc) {
                        return;
                    }
                    self.alu(op, rdn, rm);
                    self.cyc += cost;
                } else {
                    self.alu(op, rdn, rm);
                    let tests = matches!(op, alu_op::TST | alu_op::CMP | alu_op::CMN);
                    self.alu_done::<V7>(if tests { 0 } else { dst(rdn) });
                }
            }
            Op::AddHi { rd, rm } => {
                let r = self.g(rd).wrapping_add(self.g(rm));
                self.alu_done::<V7>(dst(rd));
                if rd == 13 {
                    self.load_sp(r, crate::cpu::SpLoad::AddReg)
                } else {
                    self.s(rd, r)
                }
            }
            Op::AddConst { rd, val } => {
                let r = self.g(rd).wrapping_add(val);
                if rd == 13 {
                    self.write_sp(r)
                } else {
                    self.s(rd, r)
                }
                self.alu_done::<V7>(dst(rd));
            }
            Op::AddPc { rm, base } => self.exec_add_pc::<V7>(rm, base),
            Op::CmpHi { rn, rm } => {
                self.set_flags_add(add_with_carry(self.g(rn), !self.g(rm), true));
                self.cyc += t::ALU;
            }
            Op::MovHi { rd, rm } => {
                let v = self.g(rm);
                self.alu_done::<V7>(dst(rd));
                if rd == 13 {
                    self.load_sp(v, crate::cpu::SpLoad::MovReg)
                } else {
                    self.s(rd, v)
                }
            }
            Op::MovPc { rm } => self.exec_mov_pc::<V7>(rm),
            Op::MovConst { rd, val } => {
                self.s(rd, val);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Bx { rm } => self.exec_bx::<V7>(rm, pc),
            Op::Blx { rm } => self.exec_blx::<V7>(rm, pc),
            Op::LdrLit { rt, addr } => {
                let a = addr as usize;
                if let Some(b) = self.bus.flash().get(a..a + 4) {
                    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    self.s(rt, v);
                    self.flash_data(addr);
                    if V7 {
                        // no address register
                        let (_, cycles) = self.ldst_timing(0);
                        self.v7_loaded(cycles, dst(rt));
                    } else {
                        self.cyc += t::LDST;
                    }
                } else if let Some(v) = self.load::<V7>(0, dst(rt), |m| m.ld32(addr, pc)) {
                    self.s(rt, v);
                }
            }
            Op::LsReg { kind, rt, rn, rm } => {
                let (a, addr) = (self.g(rn).wrapping_add(self.g(rm)), bit(rn) | bit(rm));
                let v = self.g(rt);
                let loaded = match kind {
                    0 => return self.store::<V7, false>(addr, a, |m| m.st32(a, v, pc)),
                    1 => return self.store::<V7, false>(addr, a, |m| m.st16(a, v, pc)),
                    2 => return self.store::<V7, false>(addr, a, |m| m.st8(a, v, pc)),
                    3 => self.load::<V7>(addr, dst(rt), |m| m.ld8(a, pc)).map(|v| v as u8 as i8 as i32 as u32),
                    4 => self.load::<V7>(addr, dst(rt), |m| m.ld32(a, pc)),
                    5 => self.load::<V7>(addr, dst(rt), |m| m.ld16(a, pc)),
                    6 => self.load::<V7>(addr, dst(rt), |m| m.ld8(a, pc)),
                    _ => self.load::<V7>(addr, dst(rt), |m| m.ld16(a, pc)).map(|v| v as u16 as i16 as i32 as u32),
                };
                if let Some(v) = loaded {
                    self.s(rt, v);
                }
            }
            Op::StrImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                let v = self.g(rt);
                self.store::<V7, true>(bit(rn), a, |m| m.st32(a, v, pc));
            }
            Op::LdrImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                if let Some(v) = self.load::<V7>(bit(rn), dst(rt), |m| m.ld32(a, pc)) {
                    self.s(rt, v);
                }
            }
            Op::StrbImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                let v = self.g(rt);
                self.store::<V7, true>(bit(rn), a, |m| m.st8(a, v, pc));
            }
            Op::LdrbImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                if let Some(v) = self.load::<V7>(bit(rn), dst(rt), |m| m.ld8(a, pc)) {
                    self.s(rt, v);
                }
            }
            Op::StrhImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                let v = self.g(rt);
                self.store::<V7, true>(bit(rn), a, |m| m.st16(a, v, pc));
            }
            Op::LdrhImm { rt, rn, off } => {
                let a = self.g(rn).wrapping_add(off as u32);
                if let Some(v) = self.load::<V7>(bit(rn), dst(rt), |m| m.ld16(a, pc)) {
                    self.s(rt, v);
                }
            }
            Op::StrSp { rt, off } => {
                let a = self.cpu.r[13].wrapping_add(off as u32);
                let v = self.g(rt);
                self.store::<V7, true>(bit(13), a, |m| m.st32(a, v, pc));
            }
            Op::LdrSp { rt, off } => {
                let a = self.cpu.r[13].wrapping_add(off as u32);
                if let Some(v) = self.load::<V7>(bit(13), dst(rt), |m| m.ld32(a, pc)) {
                    self.s(rt, v);
                }
            }
            Op::AddSpImm { rd, off } => {
                let v = self.cpu.r[13].wrapping_add(off as u32);
                self.s(rd, v);
                self.alu_done::<V7>(dst(rd));
            }
            Op::AdjSp { delta } => {
                let v = self.cpu.r[13].wrapping_add(delta as i32 as u32);
                self.write_sp(v);
                self.alu_done::<V7>(dst(13));
            }
            Op::Sxth { rd, rm } => {
                self.s(rd, self.g(rm) as u16 as i16 as i32 as u32);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Sxtb { rd, rm } => {
                self.s(rd, self.g(rm) as u8 as i8 as i32 as u32);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Uxth { rd, rm } => {
                self.s(rd, self.g(rm) & 0xFFFF);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Uxtb { rd, rm } => {
                self.s(rd, self.g(rm) & 0xFF);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Rev { rd, rm } => {
                self.s(rd, self.g(rm).swap_bytes());
                self.alu_done::<V7>(dst(rd));
            }
            Op::Rev16 { rd, rm } => {
                let x = self.g(rm);
                self.s(rd, ((x & 0x00FF_00FF) << 8) | ((x >> 8) & 0x00FF_00FF));
                self.alu_done::<V7>(dst(rd));
            }
            Op::Revsh { rd, rm } => {
                let x = self.g(rm);
                self.s(rd, (x as u16).swap_bytes() as i16 as i32 as u32);
                self.alu_done::<V7>(dst(rd));
            }
            Op::Push { list } => self.push(list, pc),
            Op::Pop { list } => self.pop(list, pc),
            Op::Stm { rn, list } => self.stm(rn, list, pc),
            Op::Ldm { rn, list } => self.ldm(rn, list, pc),
            Op::Cpsie => self.exec_cpsie(pc),
            Op::Cpsid => self.exec_cpsid(pc),
            Op::Bkpt { imm } => self.exec_bkpt(imm, pc),
            Op::Nop | Op::Yield => self.exec_nop(),
            Op::Sev => self.exec_sev(),
            Op::Wfi => self.exec_wfi(),
            Op::Wfe => self.exec_wfe(),
            Op::Bcond { cond, target } => self.exec_bcond::<V7>(cond, target),
            Op::B { target } => self.exec_b::<V7>(target),
            Op::Svc { .. } => self.exec_svc(pc),
            Op::Bl { target } => self.exec_bl::<V7>(target, pc),
            Op::Msr { rn, sysm } => self.exec_msr::<V7>(rn, sysm, pc),
            Op::Mrs { rd, sysm } => self.exec_mrs::<V7>(rd, sysm, pc),
            Op::Barrier { isb } => self.exec_barrier::<V7>(isb, pc),
            // ARMv7-M: the ARMv6-M copy sends these out of line (to the ARMv7-M copy); the
            // ARMv7-M copy inlines each with its variant known, so there is one dispatch.
            op if !V7 && op.is_v7() => self.exec_t2(op, pc),
            Op::AndImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::AND }>(f, rd, rn, imm, pc),
            Op::BicImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::BIC }>(f, rd, rn, imm, pc),
            Op::OrrImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::ORR }>(f, rd, rn, imm, pc),
            Op::OrnImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::ORN }>(f, rd, rn, imm, pc),
            Op::EorImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::EOR }>(f, rd, rn, imm, pc),
            Op::MovImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::MOV }>(f, rd, rn, imm, pc),
            Op::MvnImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::MVN }>(f, rd, rn, imm, pc),
            Op::AddImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::ADD }>(f, rd, rn, imm, pc),
            Op::AdcImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::ADC }>(f, rd, rn, imm, pc),
            Op::SbcImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::SBC }>(f, rd, rn, imm, pc),
            Op::SubImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::SUB }>(f, rd, rn, imm, pc),
            Op::RsbImmW { f, rd, rn, imm } => self.dp_imm::<{ dp::RSB }>(f, rd, rn, imm, pc),
            Op::AndRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::AND }>(f, rd, rn, rm, sh, pc),
            Op::BicRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::BIC }>(f, rd, rn, rm, sh, pc),
            Op::OrrRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::ORR }>(f, rd, rn, rm, sh, pc),
            Op::OrnRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::ORN }>(f, rd, rn, rm, sh, pc),
            Op::EorRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::EOR }>(f, rd, rn, rm, sh, pc),
            Op::MovRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::MOV }>(f, rd, rn, rm, sh, pc),
            Op::MvnRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::MVN }>(f, rd, rn, rm, sh, pc),
            Op::AddRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::ADD }>(f, rd, rn, rm, sh, pc),
            Op::AdcRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::ADC }>(f, rd, rn, rm, sh, pc),
            Op::SbcRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::SBC }>(f, rd, rn, rm, sh, pc),
            Op::SubRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::SUB }>(f, rd, rn, rm, sh, pc),
            Op::RsbRegW { f, rd, rn, rm, sh } => self.dp_reg::<{ dp::RSB }>(f, rd, rn, rm, sh, pc),
            Op::ShiftReg { op, rd, rn, rm } => self.exec_shift_reg(op, rd, rn, rm, pc),
            Op::MovT { rd, imm } => self.exec_movt(rd, imm, pc),
            Op::Bfi { rd, rn, lsb, msb } => self.exec_bfi(rd, rn, lsb, msb, pc),
            Op::Bfx { signed, rd, rn, lsb, width } => self.exec_bfx(signed, rd, rn, lsb, width, pc),
            Op::Sat { unsigned, rd, rn, sh, sat } => self.exec_sat(unsigned, rd, rn, sh, sat, pc),
            Op::Misc { op, rd, rm } => self.exec_misc(op, rd, rm, pc),
            Op::Extend { op, rd, rm, rot } => self.exec_extend(op, rd, rm, rot, pc),
            Op::Mul { mls, rd, rn, rm, ra } => self.exec_mul(mls, rd, rn, rm, ra, pc),
            Op::MulLong { op, lo, hi, rn, rm } => self.exec_mul_long(op, lo, hi, rn, rm, pc),
            Op::Div { signed, rd, rn, rm } => self.exec_div(signed, rd, rn, rm, pc),
            Op::Dsp { op, rd, rn, rm, ra } => self.exec_dsp_op(op, rd, rn, rm, ra, pc),
            Op::It { state } => self.exec_it(state, pc),
            Op::CpsF { disable } => self.exec_cps_f(disable),
            Op::NopW => self.exec_nop_w(false, pc),
            Op::Clrex => self.exec_nop_w(true, pc),
            Op::HintW { hint } => self.exec_hint_w(hint, pc),
            Op::LdImm { kind, rt, rn, off } => self.exec_ld_imm(kind, rt, rn, off, pc),
            Op::LdPre { kind, rt, rn, off } => self.exec_ld_pre(kind, rt, rn, off, pc),
            Op::LdPost { kind, rt, rn, off } => self.exec_ld_post(kind, rt, rn, off, pc),
            Op::LdReg { kind, rt, rn, rm, sh } => self.exec_ld_reg(kind, rt, rn, rm, sh, pc),
            Op::Dual { puw, rt, rt2, rn, off } => self.exec_dual(puw, rt, rt2, rn, off, pc),
            Op::Ldrex { size, rt, rn, off } => self.exec_ldrex(size, rt, rn, off, pc),
            Op::Strex { size, rd, rt, rn, off } => self.exec_strex(size, rd, rt, rn, off, pc),
            Op::Multi { flags, rn, list } => self.exec_multi(flags, rn, list, pc),
            Op::LdLit { kind, rt, addr } => self.exec_ld_lit(kind, rt, addr, pc),
            Op::LdrdLit { rt, rt2, addr } => self.exec_ldrd_lit(rt, rt2, addr, pc),
            Op::Tb { half, rn, rm, base } => self.exec_tb(half, rn, rm, base, pc),
            Op::BcondW { cond, target } => self.exec_bcond_w(cond, target, pc),
            Op::BW { target } => self.v7_branch(target, true, 0),
            Op::Cbz { nz, rn, target } => self.exec_cbz(nz, rn, target),
            Op::Fp { raw } => self.exec_fp(raw, pc),
            Op::Undef { raw } => {
                let why = if raw > 0xFFFF {
                    format!("undefined instruction 0x{:04x} 0x{:04x}", raw >> 16, raw & 0xFFFF)
                } else {
                    format!("undefined instruction 0x{:04x}", raw)
                };
                self.raise_fault(pc, &why, None);
            }
        }
    }

    /// Write a logical result and its N, Z flags (C and V unchanged).
    #[inline(always)]
    fn write_nz(&mut self, rd: u8, r: u32) {
        self.s(rd, r);
        self.nz(r);
    }

    #[inline(always)]
    fn alu(&mut self, op: u8, rdn: u8, rm: u8) {
        let a = self.g(rdn);
        let b = self.g(rm);
        let n = b & 0xFF; // shifts by register use the bottom byte
        match op {
            alu_op::AND => self.write_nz(rdn, a & b),
            alu_op::EOR => self.write_nz(rdn, a ^ b),
            alu_op::LSL => {
                let r = self.set_flags_shift(lsl_c(a, n, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::LSR => {
                let r = self.set_flags_shift(lsr_c(a, n, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::ASR => {
                let r = self.set_flags_shift(asr_c(a, n, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::ROR => {
                let r = self.set_flags_shift(ror_c(a, n, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::ADC => {
                let r = self.set_flags_add(add_with_carry(a, b, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::SBC => {
                let r = self.set_flags_add(add_with_carry(a, !b, self.cpu.c));
                self.s(rdn, r);
            }
            alu_op::TST => self.nz(a & b),
            alu_op::RSB => {
                // RSBS Rd, Rn, #0 (NEG): Rd = 0 - Rm
                let r = self.set_flags_add(add_with_carry(!b, 0, true));
                self.s(rdn, r);
            }
            alu_op::CMP => {
                self.set_flags_add(add_with_carry(a, !b, true));
            }
            alu_op::CMN => {
                self.set_flags_add(add_with_carry(a, b, false));
            }
            alu_op::ORR => self.write_nz(rdn, a | b),
            alu_op::MUL => self.write_nz(rdn, a.wrapping_mul(b)),
            alu_op::BIC => self.write_nz(rdn, a & !b),
            _ => self.write_nz(rdn, !b), // alu_op::MVN
        }
    }
}
