//! Field extraction and the per-encoding constructors the pattern table (decode.rs) calls.
//! Each constructor gets the 32-bit instruction `i` (first halfword high) and the PC value
//! the instruction reads (`pc4` = address + 4), and returns the op, or `Op::Undef` for the
//! UNPREDICTABLE register choices (we fault on them rather than guess).

use super::{dp, ls, multi};
use crate::cpu::decode::Op;

#[inline]
pub fn bits(i: u32, hi: u32, lo: u32) -> u32 {
    (i >> lo) & ((1 << (hi - lo + 1)) - 1)
}
#[inline]
fn bit(i: u32, n: u32) -> bool {
    (i >> n) & 1 != 0
}
#[inline]
fn sext(v: u32, nbits: u32) -> u32 {
    let s = 32 - nbits;
    (((v << s) as i32) >> s) as u32
}
pub(super) fn reg(i: u32, lo: u32) -> u8 {
    bits(i, lo + 3, lo) as u8
}
/// SP or PC: registers most encodings may not name.
pub(super) fn bad(r: u8) -> bool {
    r == 13 || r == 15
}
pub(super) fn undef(i: u32) -> Op {
    Op::Undef { raw: i }
}

/// ThumbExpandImm_C: (value, rotated) where `rotated` means the carry comes from bit 31.
pub fn expand_imm(imm12: u32) -> Option<(u32, bool)> {
    let imm8 = imm12 & 0xFF;
    if imm12 >> 10 == 0 {
        let v = match (imm12 >> 8) & 3 {
            0 => imm8,
            1 => imm8 * 0x0001_0001,
            2 => imm8 * 0x0100_0100,
            _ => imm8 * 0x0101_0101,
        };
        if imm12 >> 8 != 0 && imm8 == 0 {
            return None; // UNPREDICTABLE
        }
        Some((v, false))
    } else {
        Some(((0x80 | (imm12 & 0x7F)).rotate_right(imm12 >> 7), true))
    }
}

/// The data-processing opcode (bits 24:21) with its aliases: returns (op, test form).
fn dp_op(i: u32) -> Option<u8> {
    let (opc, s, rn, rd) = (bits(i, 24, 21) as u8, bit(i, 20), reg(i, 16), reg(i, 8));
    let test = s && rd == 15;
    let op = match opc {
        dp::AND | dp::EOR | dp::ADD | dp::SUB if test => opc | dp::TEST,
        dp::ORR if rn == 15 => dp::MOV,
        dp::ORN if rn == 15 => dp::MVN,
        dp::AND | dp::BIC | dp::ORR | dp::ORN | dp::EOR | dp::ADD | dp::ADC | dp::SBC | dp::SUB | dp::RSB => opc,
        _ => return None,
    };
    Some(op | if s { dp::S } else { 0 })
}

/// The register rules shared by both data-processing forms (ARMv7-M A7.7).
fn dp_regs_ok(op: u8, rd: u8, rn: u8) -> bool {
    let base = op & 15;
    let sp_arith = (base == dp::ADD || base == dp::SUB) && rn == 13;
    let rd_ok = if op & dp::TEST != 0 { true } else { !(rd == 15 || (rd == 13 && !sp_arith)) };
    let rn_ok = base == dp::MOV || base == dp::MVN || !(rn == 15 || (rn == 13 && base != dp::ADD && base != dp::SUB));
    rd_ok && rn_ok
}

pub fn dp_mod_imm(i: u32, _pc4: u32) -> Op {
    let Some(op) = dp_op(i) else { return undef(i) };
    let (rn, rd) = (reg(i, 16), reg(i, 8));
    let imm12 = (bits(i, 26, 26) << 11) | (bits(i, 14, 12) << 8) | bits(i, 7, 0);
    match expand_imm(imm12) {
        Some((imm, rot)) if dp_regs_ok(op, rd, rn) => Op::dp_imm(op | if rot { dp::IMM_C } else { 0 }, rd, rn, imm),
        _ => undef(i),
    }
}

pub fn dp_shifted(i: u32, _pc4: u32) -> Op {
    let Some(op) = dp_op(i) else { return undef(i) };
    let (rn, rd, rm) = (reg(i, 16), reg(i, 8), reg(i, 0));
    let ty = bits(i, 5, 4);
    let amt = (bits(i, 14, 12) << 2) | bits(i, 7, 6);
    let amt = if (ty == 1 || ty == 2) && amt == 0 { 32 } else { amt };
    let sh = ((ty << 6) | amt) as u8;
    // MOV.W Rd, Rm may name SP (not both, not with flags or a shift).
    let plain_mov = op == dp::MOV && sh == 0 && !(rd == 13 && rm == 13) && rd != 15 && rm != 15;
    if plain_mov || (dp_regs_ok(op, rd, rn) && !bad(rm)) {
        Op::dp_reg(op, rd, rn, rm, sh)
    } else {
        undef(i)
    }
}

/// ADR.W, encodings T3 (`ADDW Rd, PC, #imm12`) and T2 (`SUBW`): Rd = Align(PC, 4) +/- imm.
/// A 32-bit MOVW-style constant (size 4, one cycle like MOVW), not the 16-bit ADR's
/// `MovConst`, whose size is 2 (issue 23: the second halfword ran as an instruction).
pub fn adr_w(i: u32, pc4: u32) -> Op {
    let rd = reg(i, 8);
    let imm = (bits(i, 26, 26) << 11) | (bits(i, 14, 12) << 8) | bits(i, 7, 0);
    let base = pc4 & !3;
    let val = if bit(i, 23) { base.wrapping_sub(imm) } else { base.wrapping_add(imm) };
    if bad(rd) {
        undef(i)
    } else {
        Op::dp_imm(dp::MOV, rd, 15, val)
    }
}

/// ADDW/SUBW (rn = PC: ADR.W, which the table sends to `adr_w`).
pub fn add_sub_w(i: u32, pc4: u32) -> Op {
    let (rn, rd) = (reg(i, 16), reg(i, 8));
    if rn == 15 {
        return adr_w(i, pc4);
    }
    let sub = bit(i, 23);
    let imm = (bits(i, 26, 26) << 11) | (bits(i, 14, 12) << 8) | bits(i, 7, 0);
    if rd == 15 || (rd == 13 && rn != 13) {
        return undef(i);
    }
    Op::dp_imm(if sub { dp::SUB } else { dp::ADD }, rd, rn, imm)
}

fn imm16(i: u32) -> u32 {
    (bits(i, 19, 16) << 12) | (bits(i, 26, 26) << 11) | (bits(i, 14, 12) << 8) | bits(i, 7, 0)
}

pub fn movw(i: u32, _pc4: u32) -> Op {
    let rd = reg(i, 8);
    if bad(rd) {
        return undef(i);
    }
    Op::dp_imm(dp::MOV, rd, 15, imm16(i))
}

pub fn movt(i: u32, _pc4: u32) -> Op {
    let rd = reg(i, 8);
    if bad(rd) {
        return undef(i);
    }
    Op::MovT { rd, imm: imm16(i) as u16 }
}

fn lsb_of(i: u32) -> u8 {
    ((bits(i, 14, 12) << 2) | bits(i, 7, 6)) as u8
}

pub fn ssat_usat(i: u32, _pc4: u32) -> Op {
    let (rn, rd) = (reg(i, 16), reg(i, 8));
    let unsigned = bit(i, 23);
    let (shl, amt) = (bit(i, 21), lsb_of(i));
    if shl && amt == 0 {
        return super::dsp_fields::sat16(i);
    }
    if bad(rd) || bad(rn) {
        return undef(i);
    }
    let sat = bits(i, 4, 0) as u8 + if unsigned { 0 } else { 1 };
    let sh = if shl { (2 << 6) | amt } else { amt };
    Op::Sat { unsigned, rd, rn, sh, sat }
}

pub fn bfx(i: u32, _pc4: u32) -> Op {
    let (rn, rd) = (reg(i, 16), reg(i, 8));
    let (lsb, width) = (lsb_of(i), bits(i, 4, 0) as u8 + 1);
    if bad(rd) || bad(rn) || lsb as u32 + width as u32 > 32 {
        return undef(i);
    }
    Op::Bfx { signed: !bit(i, 23), rd, rn, lsb, width }
}

pub fn bfi(i: u32, _pc4: u32) -> Op {
    let (rn, rd) = (reg(i, 16), reg(i, 8));
    let (lsb, msb) = (lsb_of(i), bits(i, 4, 0) as u8);
    if bad(rd) || rn == 13 || msb < lsb {
        return undef(i);
    }
    Op::Bfi { rd, rn, lsb, msb }
}

pub fn shift_reg(i: u32, _pc4: u32) -> Op {
    let (rn, rd, rm) = (reg(i, 16), reg(i, 8), reg(i, 0));
    if bad(rd) || bad(rn) || bad(rm) {
        return undef(i);
    }
    Op::ShiftReg { op: (bits(i, 22, 21) | (bits(i, 20, 20) << 4)) as u8, rd, rn, rm }
}

pub fn extend(i: u32, _pc4: u32) -> Op {
    let (rd, rm) = (reg(i, 8), reg(i, 0));
    if bad(rd) || bad(rm) {
        return undef(i);
    }
    // op1 (bits 22:20): 000 SXTH, 001 UXTH, 100 SXTB, 101 UXTB
    let op = (bits(i, 20, 20) | (bits(i, 22, 22) << 1)) as u8;
    Op::Extend { op, rd, rm, rot: bits(i, 5, 4) as u8 }
}

/// CLZ (op 0), RBIT (1), REV (2), REV16 (3), REVSH (4); Rm is encoded twice.
pub fn misc(i: u32, _pc4: u32) -> Op {
    let (rm2, rd, rm) = (reg(i, 16), reg(i, 8), reg(i, 0));
    let op = match (bits(i, 21, 20), bits(i, 5, 4)) {
        (3, 0) => 0,
        (1, 2) => 1,
        (1, 0) => 2,
        (1, 1) => 3,
        (1, 3) => 4,
        _ => return undef(i),
    };
    if bad(rd) || bad(rm) || rm != rm2 {
        return undef(i);
    }
    Op::Misc { op, rd, rm }
}

pub fn mul(i: u32, _pc4: u32) -> Op {
    let (rn, ra, rd, rm) = (reg(i, 16), reg(i, 12), reg(i, 8), reg(i, 0));
    let mls = bits(i, 5, 4) == 1;
    if bad(rd) || bad(rn) || bad(rm) || ra == 13 || (mls && ra == 15) {
        return undef(i);
    }
    Op::Mul { mls, rd, rn, rm, ra }
}

/// SMULL (op1 000), UMULL (010), SMLAL (100), UMLAL (110).
pub fn mul_long(i: u32, _pc4: u32) -> Op {
    let (rn, lo, hi, rm) = (reg(i, 16), reg(i, 12), reg(i, 8), reg(i, 0));
    let op1 = bits(i, 22, 20);
    let op = (if op1 & 2 == 0 { 1 } else { 0 }) | (if op1 & 4 != 0 { 2 } else { 0 });
    if bad(lo) || bad(hi) || bad(rn) || bad(rm) || lo == hi {
        return undef(i);
    }
    Op::MulLong { op, lo, hi, rn, rm }
}

pub fn div(i: u32, _pc4: u32) -> Op {
    let (rn, rd, rm) = (reg(i, 16), reg(i, 8), reg(i, 0));
    if bad(rd) || bad(rn) || bad(rm) {
        return undef(i);
    }
    Op::Div { signed: !bit(i, 21), rd, rn, rm }
}

/// The load/store kind from S (bit 24), size (22:21) and L (bit 20).
fn ls_kind(i: u32) -> Option<u8> {
    Some(match (bit(i, 24), bits(i, 22, 21), bit(i, 20)) {
        (false, 0, false) => ls::STRB,
        (false, 1, false) => ls::STRH,
        (false, 2, false) => ls::STR,
        (false, 0, true) => ls::LDRB,
        (false, 1, true) => ls::LDRH,
        (false, 2, true) => ls::LDR,
        (true, 0, true) => ls::LDRSB,
        (true, 1, true) => ls::LDRSH,
        _ => return None,
    })
}

/// Rt rules: PC only for a word load (a branch); a byte/halfword load to PC is PLD/PLI.
fn ls_rt(i: u32, kind: u8) -> Result<u8, Op> {
    let rt = reg(i, 12);
    match (rt, kind) {
        (15, ls::LDR) => Ok(rt),
        (15, k) if ls::is_load(k) => Err(Op::NopW),
        (15, _) => Err(undef(i)),
        (13, k) if k != ls::LDR && k != ls::STR => Err(undef(i)),
        _ => Ok(rt),
    }
}

pub fn ld_lit(i: u32, pc4: u32) -> Op {
    let Some(kind) = ls_kind(i) else { return undef(i) };
    let rt = match ls_rt(i, kind) {
        Ok(r) => r,
        Err(op) => return op,
    };
    let imm = bits(i, 11, 0);
    let base = pc4 & !3;
    let addr = if bit(i, 23) { base.wrapping_add(imm) } else { base.wrapping_sub(imm) };
    Op::LdLit { kind, rt, addr }
}

pub fn ld_imm12(i: u32, _pc4: u32) -> Op {
    let Some(kind) = ls_kind(i) else { return undef(i) };
    let rt = match ls_rt(i, kind) {
        Ok(r) => r,
        Err(op) => return op,
    };
    let rn = reg(i, 16);
    if rn == 15 {
        return undef(i); // a store relative to the PC
    }
    Op::LdImm { kind, rt, rn, off: bits(i, 11, 0) as i16 }
}

pub fn ld_imm8(i: u32, _pc4: u32) -> Op {
    let Some(kind) = ls_kind(i) else { return undef(i) };
    let puw = bits(i, 10, 8) as u8;
    let rn = reg(i, 16);
    let rt = match ls_rt(i, kind) {
        Ok(r) => r,
        Err(op) if puw & 1 == 0 => return op,
        Err(_) => return undef(i),
    };
    if rn == 15 || puw & 4 == 0 && puw & 1 == 0 || (puw & 1 != 0 && rn == rt) {
        return undef(i);
    }
    let off = if puw & 2 != 0 { bits(i, 7, 0) as i16 } else { -(bits(i, 7, 0) as i16) };
    match (puw & 4 != 0, puw & 1 != 0) {
        (true, false) => Op::LdImm { kind, rt, rn, off }, // (LDRT too: no MPU, so unprivileged is the same)
        (true, true) => Op::LdPre { kind, rt, rn, off },
        _ => Op::LdPost { kind, rt, rn, off },
    }
}

pub fn ld_reg(i: u32, _pc4: u32) -> Op {
    let Some(kind) = ls_kind(i) else { return undef(i) };
    let rt = match ls_rt(i, kind) {
        Ok(r) => r,
        Err(op) => return op,
    };
    let rm = reg(i, 0);
    if bad(rm) || reg(i, 16) == 15 {
        return undef(i);
    }
    Op::LdReg { kind, rt, rn: reg(i, 16), rm, sh: bits(i, 5, 4) as u8 }
}

pub fn dual(i: u32, pc4: u32) -> Op {
    let (rn, rt, rt2) = (reg(i, 16), reg(i, 12), reg(i, 8));
    let (load, puw) = (bit(i, 20), ((bits(i, 24, 23) << 1) | bits(i, 21, 21)) as u8);
    let off = bits(i, 7, 0) as u8;
    if bad(rt) || bad(rt2) || (load && rt == rt2) || (puw & 1 != 0 && (rn == rt || rn == rt2 || rn == 15)) {
        return undef(i);
    }
    if rn == 15 {
        if !load {
            return undef(i);
        }
        let base = pc4 & !3;
        let off = 4 * off as u32;
        let addr = if puw & 2 != 0 { base.wrapping_add(off) } else { base.wrapping_sub(off) };
        return Op::LdrdLit { rt, rt2, addr };
    }
    Op::Dual { puw: puw | if load { 8 } else { 0 }, rt, rt2, rn, off }
}

pub fn ldrex(i: u32, _pc4: u32) -> Op {
    let (rn, rt) = (reg(i, 16), reg(i, 12));
    if bad(rt) || rn == 15 {
        return undef(i);
    }
    Op::Ldrex { size: 4, rt, rn, off: bits(i, 7, 0) as u8 }
}

pub fn strex(i: u32, _pc4: u32) -> Op {
    let (rn, rt, rd) = (reg(i, 16), reg(i, 12), reg(i, 8));
    if bad(rd) || bad(rt) || rn == 15 || rd == rn || rd == rt {
        return undef(i);
    }
    Op::Strex { size: 4, rd, rt, rn, off: bits(i, 7, 0) as u8 }
}

/// LDREXB/H (bits 5:4 = 00/01) and STREXB/H.
pub fn ex_byte_half(i: u32, _pc4: u32) -> Op {
    let (rn, rt, rd) = (reg(i, 16), reg(i, 12), reg(i, 0));
    let size = if bit(i, 4) { 2 } else { 1 };
    if bad(rt) || rn == 15 {
        return undef(i);
    }
    if bit(i, 20) {
        Op::Ldrex { size, rt, rn, off: 0 }
    } else if bad(rd) || rd == rn || rd == rt {
        undef(i)
    } else {
        Op::Strex { size, rd, rt, rn, off: 0 }
    }
}

pub fn table_branch(i: u32, pc4: u32) -> Op {
    let (rn, rm) = (reg(i, 16), reg(i, 0));
    if rn == 13 || bad(rm) {
        return undef(i);
    }
    Op::Tb { half: bit(i, 4), rn, rm, base: pc4 }
}

pub fn multi(i: u32, _pc4: u32) -> Op {
    let (rn, load, wback, db) = (reg(i, 16), bit(i, 20), bit(i, 21), bits(i, 24, 23) == 2);
    let list = bits(i, 15, 0) as u16;
    let bad_list = if load { list & 0xC000 == 0xC000 || list & 0x2000 != 0 } else { list & 0xA000 != 0 };
    if rn == 15 || list.count_ones() < 2 || bad_list || (wback && list & (1 << rn) != 0) {
        return undef(i);
    }
    let flags = (load as u8 * multi::LOAD) | (db as u8 * multi::DB) | (wback as u8 * multi::WBACK);
    Op::Multi { flags, rn, list }
}

pub fn b_cond(i: u32, pc4: u32) -> Op {
    let cond = bits(i, 25, 22) as u8;
    let imm = (bits(i, 26, 26) << 20)
        | (bits(i, 11, 11) << 19)
        | (bits(i, 13, 13) << 18)
        | (bits(i, 21, 16) << 12)
        | (bits(i, 10, 0) << 1);
    Op::BcondW { cond, target: pc4.wrapping_add(sext(imm, 21)) }
}

/// B.W (T4) and BL share the offset layout.
fn b_t4_offset(i: u32) -> u32 {
    let s = bits(i, 26, 26);
    let i1 = 1 ^ (bits(i, 13, 13) ^ s);
    let i2 = 1 ^ (bits(i, 11, 11) ^ s);
    sext((s << 24) | (i1 << 23) | (i2 << 22) | (bits(i, 25, 16) << 12) | (bits(i, 10, 0) << 1), 25)
}

pub fn b_wide(i: u32, pc4: u32) -> Op {
    Op::BW { target: pc4.wrapping_add(b_t4_offset(i)) }
}

pub fn bl(i: u32, pc4: u32) -> Op {
    Op::Bl { target: pc4.wrapping_add(b_t4_offset(i)) }
}

/// MSR: the mask field (bits 11:10) must be 10 (nzcvq) on ARMv7-M without DSP; the DSP
/// extension's masks with the GE bits are dsp_fields::msr_g.
pub fn msr(i: u32, _pc4: u32) -> Op {
    let rn = reg(i, 16);
    if bits(i, 11, 10) != 2 {
        return super::dsp_fields::msr_g(i);
    }
    if bad(rn) {
        return undef(i);
    }
    Op::Msr { rn, sysm: bits(i, 7, 0) as u8 }
}

pub fn mrs(i: u32, _pc4: u32) -> Op {
    let rd = reg(i, 8);
    if bad(rd) {
        return undef(i);
    }
    Op::Mrs { rd, sysm: bits(i, 7, 0) as u8 }
}

/// NOP.W, YIELD.W, WFE.W, WFI.W, SEV.W, DBG (a NOP here).
pub fn hint(i: u32, _pc4: u32) -> Op {
    match bits(i, 7, 0) {
        2..=4 => Op::HintW { hint: bits(i, 7, 0) as u8 },
        _ => Op::NopW,
    }
}

/// CLREX, DSB, DMB, ISB.
pub fn barrier(i: u32, _pc4: u32) -> Op {
    match bits(i, 7, 4) {
        2 => Op::Clrex,
        o @ 4..=6 => Op::Barrier { isb: o == 6 },
        _ => undef(i),
    }
}

pub fn udf(i: u32, _pc4: u32) -> Op {
    undef(i)
}
