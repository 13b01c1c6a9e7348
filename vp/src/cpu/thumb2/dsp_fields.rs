//! The DSP extension (ARMv7E-M, Cortex-M4): the constructors the pattern table (decode.rs)
//! calls for its encodings (ARMv7-M ARM A5.3.4, A5.3.12, A5.3.13, A5.3.16-A5.3.18, A5.3.20,
//! A5.3.21). Every one becomes `Op::Dsp`; its `op` code is below and execution is dsp.rs.
//! UNPREDICTABLE register choices (SP, PC, RdHi == RdLo) decode to `Op::Undef`, as in
//! fields.rs. The decoder does not know the board: on a Cortex-M3 the op faults when executed.

use super::fields::{bad, bits, reg, undef};
use crate::cpu::decode::Op;

/// `Op::Dsp` operation codes. Where a code names a pair (SMLAD/SMUAD, ...), `ra` = 15 is
/// the form without the accumulator.
pub mod code {
    /// Parallel add/subtract: PAR | prefix << 3 | op1, prefix = U << 2 | op2 (0 S, 1 Q,
    /// 2 SH, 4 U, 5 UQ, 6 UH), op1 the encoding's (0 ADD8, 1 ADD16, 2 ASX, 4 SUB8, 5 SUB16,
    /// 6 SAX).
    pub const PAR: u8 = 0x00;
    pub const PAR_END: u8 = 0x38;
    pub const SEL: u8 = 0x40;
    /// QADD, QDADD, QSUB, QDSUB: QADD + op2 (0..3).
    pub const QADD: u8 = 0x41;
    pub const QDADD: u8 = 0x42;
    pub const QSUB: u8 = 0x43;
    pub const QDSUB: u8 = 0x44;
    /// USADA8 (USAD8 with ra = 15).
    pub const USADA8: u8 = 0x45;
    /// SSAT16/USAT16: `ra` = the saturation width in bits.
    pub const SSAT16: u8 = 0x46;
    pub const USAT16: u8 = 0x47;
    /// PKHBT/PKHTB: `ra` = the shift amount (PKHTB: 1..=32).
    pub const PKHBT: u8 = 0x48;
    pub const PKHTB: u8 = 0x49;
    /// Extend and add: XTA + op1 (0 SXTAH, 1 UXTAH, 2 SXTAB16, 3 UXTAB16, 4 SXTAB, 5 UXTAB);
    /// rn = 15: SXTB16/UXTB16 (no add). `ra` = the rotation in bytes.
    pub const XTA: u8 = 0x50;
    /// SMLA<x><y> (SMUL<x><y>): + N << 1 | M (top halves).
    pub const SMLAXY: u8 = 0x58;
    /// SMLAD{X} (SMUAD), SMLSD{X} (SMUSD): + X.
    pub const SMLAD: u8 = 0x5C;
    pub const SMLSD: u8 = 0x5E;
    /// SMLAW<y> (SMULW<y>): + M.
    pub const SMLAW: u8 = 0x60;
    /// SMMLA{R} (SMMUL), SMMLS{R}: + R.
    pub const SMMLA: u8 = 0x62;
    pub const SMMLS: u8 = 0x64;
    /// Long forms (rd = RdHi, ra = RdLo): SMLAL<x><y> + N << 1 | M, SMLALD{X}, SMLSLD{X} + X.
    pub const SMLALXY: u8 = 0x68;
    pub const SMLALD: u8 = 0x6C;
    pub const SMLSLD: u8 = 0x6E;
    pub const UMAAL: u8 = 0x70;
    /// MSR APSR_g / APSR_nzcvqg: `ra` = the mask field (bit 1 nzcvq, bit 0 g), rn the source.
    pub const MSR_G: u8 = 0x78;
}

/// `Op::Dsp` with Rd (bits 11:8), Rn (19:16), Rm (3:0) all general registers.
fn three(i: u32, op: u8, ra: u8) -> Op {
    let (rd, rn, rm) = (reg(i, 8), reg(i, 16), reg(i, 0));
    if bad(rd) || bad(rn) || bad(rm) {
        return undef(i);
    }
    Op::Dsp { op, rd, rn, rm, ra }
}

/// The parallel add/subtract family (A5.3.16, A5.3.17): 1111 1010 1 op1 Rn, 1111 Rd 0 U op2 Rm.
pub fn parallel(i: u32, _pc4: u32) -> Op {
    let (op1, prefix) = (bits(i, 22, 20) as u8, (bits(i, 6, 4)) as u8);
    if op1 & 3 == 3 || prefix & 3 == 3 {
        return undef(i);
    }
    three(i, code::PAR | (prefix << 3) | op1, 0)
}

/// QADD, QDADD, QSUB, QDSUB (A5.3.18, op1 00).
pub fn qadd(i: u32, _pc4: u32) -> Op {
    three(i, code::QADD + bits(i, 5, 4) as u8, 0)
}

/// SEL (A5.3.18, op1 10, op2 00).
pub fn sel(i: u32, _pc4: u32) -> Op {
    three(i, code::SEL, 0)
}

/// SSAT16/USAT16 (A5.3.4: SSAT/USAT with sh = 1 and a zero shift amount).
pub fn sat16(i: u32) -> Op {
    let unsigned = bits(i, 23, 23) != 0;
    if bits(i, 5, 4) != 0 {
        return undef(i);
    }
    let sat = bits(i, 3, 0) as u8 + if unsigned { 0 } else { 1 };
    let (rd, rn) = (reg(i, 8), reg(i, 16));
    if bad(rd) || bad(rn) {
        return undef(i);
    }
    Op::Dsp { op: if unsigned { code::USAT16 } else { code::SSAT16 }, rd, rn, rm: 0, ra: sat }
}

/// PKHBT/PKHTB (A5.3.11, data processing with a shifted register, op 0110, S = 0).
pub fn pkh(i: u32, _pc4: u32) -> Op {
    let tb = bits(i, 5, 5) != 0;
    let amt = ((bits(i, 14, 12) << 2) | bits(i, 7, 6)) as u8;
    if tb {
        three(i, code::PKHTB, if amt == 0 { 32 } else { amt })
    } else {
        three(i, code::PKHBT, amt)
    }
}

/// SXTAH, UXTAH, SXTAB16, UXTAB16, SXTAB, UXTAB, and SXTB16/UXTB16 (Rn = PC) (A5.3.12).
/// SXTH/UXTH/SXTB/UXTB (Rn = PC, op1 0, 1, 4, 5) are fields::extend's, matched before.
pub fn extend_add(i: u32, _pc4: u32) -> Op {
    let op1 = bits(i, 22, 20) as u8;
    let (rd, rn, rm) = (reg(i, 8), reg(i, 16), reg(i, 0));
    if op1 > 5 || bad(rd) || rn == 13 || bad(rm) {
        return undef(i);
    }
    Op::Dsp { op: code::XTA + op1, rd, rn, rm, ra: bits(i, 5, 4) as u8 }
}

/// The 32-bit multiplies beyond MUL/MLA/MLS (A5.3.20): 1111 1011 0 op1 Rn, Ra Rd 00 op2 Rm.
pub fn mul(i: u32, _pc4: u32) -> Op {
    let (op1, op2) = (bits(i, 22, 20), bits(i, 5, 4) as u8);
    let ra = reg(i, 12);
    let op = match (op1, op2) {
        (1, nm) => code::SMLAXY + nm,
        (2, x @ 0..=1) => code::SMLAD + x,
        (3, m @ 0..=1) => code::SMLAW + m,
        (4, x @ 0..=1) => code::SMLSD + x,
        (5, r @ 0..=1) => code::SMMLA + r,
        (6, r @ 0..=1) if ra != 15 => code::SMMLS + r,
        (7, 0) => code::USADA8,
        _ => return undef(i),
    };
    if ra == 13 {
        return undef(i);
    }
    three(i, op, ra)
}

/// The long multiplies beyond SMULL/UMULL/SMLAL/UMLAL (A5.3.21): 1111 1011 1 op1 Rn,
/// RdLo RdHi op2 Rm.
pub fn mul_long(i: u32, _pc4: u32) -> Op {
    let (op1, op2) = (bits(i, 22, 20), bits(i, 7, 4) as u8);
    let op = match (op1, op2) {
        (4, 8..=11) => code::SMLALXY + (op2 & 3),
        (4, 12..=13) => code::SMLALD + (op2 & 1),
        (5, 12..=13) => code::SMLSLD + (op2 & 1),
        (6, 6) => code::UMAAL,
        _ => return undef(i),
    };
    let (lo, hi) = (reg(i, 12), reg(i, 8));
    if bad(lo) || lo == hi {
        return undef(i);
    }
    three(i, op, lo)
}

/// MSR with a mask other than nzcvq (A7.7.83): APSR_g (01) and APSR_nzcvqg (11) write the
/// GE bits; only the APSR forms of SYSm.
pub fn msr_g(i: u32) -> Op {
    let (rn, mask, sysm) = (reg(i, 16), bits(i, 11, 10) as u8, bits(i, 7, 0));
    if bad(rn) || mask & 1 == 0 || sysm > 3 {
        return undef(i);
    }
    Op::Dsp { op: code::MSR_G, rd: 0, rn, rm: 0, ra: mask }
}

#[cfg(test)]
mod tests {
    use super::code::*;
    use crate::cpu::decode::Op;
    use crate::cpu::thumb2::decode::decode_v7;

    fn d(hw1: u16, hw2: u16) -> Op {
        decode_v7(0x100, hw1, hw2)
    }
    fn dsp(op: u8, rd: u8, rn: u8, rm: u8, ra: u8) -> Op {
        Op::Dsp { op, rd, rn, rm, ra }
    }

    #[test]
    fn encodings_from_the_assembler() {
        // the words arm-none-eabi-as -mcpu=cortex-m4 emits
        assert_eq!(d(0xFA81, 0xF042), dsp(PAR | (4 << 3), 0, 1, 2, 0)); // uadd8 r0, r1, r2
        assert_eq!(d(0xFAA1, 0xF082), dsp(SEL, 0, 1, 2, 0)); // sel r0, r1, r2
        assert_eq!(d(0xFAD2, 0xF011), dsp(PAR | (1 << 3) | 5, 0, 2, 1, 0)); // qsub16 r0, r2, r1
        assert_eq!(d(0xFAE3, 0xF164), dsp(PAR | (6 << 3) | 6, 1, 3, 4, 0)); // uhsax r1, r3, r4
        assert_eq!(d(0xFA82, 0xF091), dsp(QDADD, 0, 2, 1, 0)); // qdadd r0, r1, r2
        assert_eq!(d(0xF322, 0x0107), dsp(SSAT16, 1, 2, 0, 8)); // ssat16 r1, #8, r2
        assert_eq!(d(0xF3A2, 0x010F), dsp(USAT16, 1, 2, 0, 15)); // usat16 r1, #15, r2
        assert_eq!(d(0xEAC1, 0x4022), dsp(PKHTB, 0, 1, 2, 16)); // pkhtb r0, r1, r2, asr #16
        assert_eq!(d(0xFA22, 0xF193), dsp(XTA + 2, 1, 2, 3, 1)); // sxtab16 r1, r2, r3, ror #8
        assert_eq!(d(0xFA3F, 0xF183), dsp(XTA + 3, 1, 15, 3, 0)); // uxtb16 r1, r3
        assert_eq!(d(0xFB11, 0x3032), dsp(SMLAXY + 3, 0, 1, 2, 3)); // smlatt r0, r1, r2, r3
        assert_eq!(d(0xFB21, 0xF012), dsp(SMLAD + 1, 0, 1, 2, 15)); // smuadx r0, r1, r2
        assert_eq!(d(0xFB51, 0x3012), dsp(SMMLA + 1, 0, 1, 2, 3)); // smmlar r0, r1, r2, r3
        assert_eq!(d(0xFB71, 0xF002), dsp(USADA8, 0, 1, 2, 15)); // usad8 r0, r1, r2
        assert_eq!(d(0xFBC2, 0x01C3), dsp(SMLALD, 1, 2, 3, 0)); // smlald r0, r1, r2, r3
        assert_eq!(d(0xFBE2, 0x0163), dsp(UMAAL, 1, 2, 3, 0)); // umaal r0, r1, r2, r3
        assert_eq!(d(0xF380, 0x8C00), dsp(MSR_G, 0, 0, 0, 3)); // msr APSR_nzcvqg, r0
    }

    #[test]
    fn unpredictable_forms_fault() {
        assert!(matches!(d(0xFA8D, 0xF042), Op::Undef { .. })); // uadd8 r0, sp, r2
        assert!(matches!(d(0xFBE2, 0x1163), Op::Undef { .. })); // umaal with RdLo == RdHi
        assert!(matches!(d(0xFB61, 0xF012), Op::Undef { .. })); // smmls without Ra
        assert!(matches!(d(0xF380, 0x8410), Op::Undef { .. })); // msr PRIMASK with the g mask
        assert!(matches!(d(0xF380, 0x8000), Op::Undef { .. })); // msr with mask 00
                                                                // the ARMv7-M ones still decode as before
        assert_eq!(d(0xFB01, 0x3302), Op::Mul { mls: false, rd: 3, rn: 1, rm: 2, ra: 3 });
        assert_eq!(d(0xFA0F, 0xF081), Op::Extend { op: 0, rd: 0, rm: 1, rot: 0 });
    }
}
