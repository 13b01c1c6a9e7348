//! The ARMv7-M decoder: every 32-bit encoding declared once as a (mask, value, constructor)
//! line, in the spirit of QEMU's decodetree. The first line whose `mask` bits equal `value`
//! wins, so more specific encodings come before the general ones they overlap. 16-bit
//! instructions are the ARMv6-M decoder's, plus the three ARMv7-M additions below.

use super::dsp_fields as d;
use super::fields::{self as f, bits};
use super::multi;
use crate::cpu::decode::{decode, is_32bit, Op};

type Build = fn(u32, u32) -> Op;

/// One encoding: `(i & mask) == value` with `i` = first halfword << 16 | second halfword.
struct Pattern {
    mask: u32,
    value: u32,
    build: Build,
}

const fn p(mask: u32, value: u32, build: Build) -> Pattern {
    Pattern { mask, value, build }
}

#[rustfmt::skip]
const PATTERNS: &[Pattern] = &[
    // ---- load/store multiple, dual, exclusive, table branch (1110 100x) ----
    p(0xFFC0_0000, 0xE880_0000, f::multi),          // LDM/STM IA (POP.W)
    p(0xFFC0_0000, 0xE900_0000, f::multi),          // LDMDB/STMDB (PUSH.W)
    p(0xFFF0_0000, 0xE840_0000, f::strex),          // STREX
    p(0xFFF0_0F00, 0xE850_0F00, f::ldrex),          // LDREX
    p(0xFFF0_FFE0, 0xE8D0_F000, f::table_branch),   // TBB, TBH
    p(0xFFF0_0FEF, 0xE8D0_0F4F, f::ex_byte_half),   // LDREXB, LDREXH
    p(0xFFF0_0FE0, 0xE8C0_0F40, f::ex_byte_half),   // STREXB, STREXH
    p(0xFF40_0000, 0xE940_0000, f::dual),           // LDRD/STRD, offset or pre-indexed
    p(0xFF60_0000, 0xE860_0000, f::dual),           // LDRD/STRD, post-indexed
    // ---- data processing, shifted register (1110 101x) ----
    p(0xFFF0_8010, 0xEAC0_0000, d::pkh),            // PKHBT, PKHTB (DSP)
    p(0xFE00_0000, 0xEA00_0000, f::dp_shifted),
    // ---- data processing, immediates (1111 0x.x, second halfword 0xxx) ----
    p(0xFA00_8000, 0xF000_0000, f::dp_mod_imm),     // modified immediate
    p(0xFBFF_8000, 0xF20F_0000, f::adr_w),          // ADR.W (add, T3)
    p(0xFBFF_8000, 0xF2AF_0000, f::adr_w),          // ADR.W (sub, T2)
    p(0xFBF0_8000, 0xF200_0000, f::add_sub_w),      // ADDW
    p(0xFBF0_8000, 0xF2A0_0000, f::add_sub_w),      // SUBW
    p(0xFBF0_8000, 0xF240_0000, f::movw),
    p(0xFBF0_8000, 0xF2C0_0000, f::movt),
    p(0xFBD0_8000, 0xF300_0000, f::ssat_usat),      // SSAT
    p(0xFBD0_8000, 0xF380_0000, f::ssat_usat),      // USAT
    p(0xFBF0_8000, 0xF340_0000, f::bfx),            // SBFX
    p(0xFBF0_8000, 0xF3C0_0000, f::bfx),            // UBFX
    p(0xFBF0_8000, 0xF360_0000, f::bfi),            // BFI, BFC
    // ---- branches and miscellaneous control (1111 0xxx, second halfword 1xxx) ----
    p(0xF800_D000, 0xF000_D000, f::bl),
    p(0xF800_D000, 0xF000_9000, f::b_wide),         // B.W
    p(0xFFF0_D000, 0xF380_8000, f::msr),
    p(0xFFFF_D000, 0xF3EF_8000, f::mrs),
    p(0xFFFF_D700, 0xF3AF_8000, f::hint),           // NOP.W, WFI.W, ...
    p(0xFFFF_D000, 0xF3BF_8000, f::barrier),        // CLREX, DSB, DMB, ISB
    p(0xFFF0_F000, 0xF7F0_A000, f::udf),            // UDF.W
    p(0xFB80_D000, 0xF380_8000, f::udf),            // other miscellaneous control
    p(0xF800_D000, 0xF000_8000, f::b_cond),         // B<c>.W
    // ---- single loads and stores (1111 100x) ----
    p(0xFE1F_0000, 0xF81F_0000, f::ld_lit),         // PC-relative loads (and PLD/PLI lit)
    p(0xFE80_0000, 0xF880_0000, f::ld_imm12),
    p(0xFE80_0800, 0xF800_0800, f::ld_imm8),        // negative offset, pre/post-indexed, LDRT
    p(0xFE80_0FC0, 0xF800_0000, f::ld_reg),
    // ---- data processing, register (1111 1010, second halfword 1111) ----
    p(0xFF80_F0F0, 0xFA00_F000, f::shift_reg),      // LSL/LSR/ASR/ROR.W Rd, Rn, Rm
    p(0xFFAF_F0C0, 0xFA0F_F080, f::extend),         // SXTH/UXTH/SXTB/UXTB.W with rotation
    p(0xFF80_F0C0, 0xFA00_F080, d::extend_add),     // SXTAB, UXTAB16, SXTB16, ... (DSP)
    p(0xFF80_F080, 0xFA80_F000, d::parallel),       // SADD16, UQSUB8, ... (DSP)
    p(0xFFF0_F0C0, 0xFA80_F080, d::qadd),           // QADD, QDADD, QSUB, QDSUB (DSP)
    p(0xFFF0_F0F0, 0xFAA0_F080, d::sel),            // SEL (DSP)
    p(0xFFC0_F0C0, 0xFA80_F080, f::misc),           // REV, REV16, RBIT, REVSH, CLZ
    // ---- multiplies and divides (1111 1011) ----
    p(0xFFF0_00E0, 0xFB00_0000, f::mul),            // MUL, MLA, MLS
    p(0xFF80_00C0, 0xFB00_0000, d::mul),            // SMLA<x><y>, SMUAD, SMMUL, USAD8, ... (DSP)
    p(0xFFF0_00F0, 0xFB80_0000, f::mul_long),       // SMULL
    p(0xFFF0_00F0, 0xFBA0_0000, f::mul_long),       // UMULL
    p(0xFFF0_00F0, 0xFBC0_0000, f::mul_long),       // SMLAL
    p(0xFFF0_00F0, 0xFBE0_0000, f::mul_long),       // UMLAL
    p(0xFFF0_F0F0, 0xFB90_F0F0, f::div),            // SDIV
    p(0xFFF0_F0F0, 0xFBB0_F0F0, f::div),            // UDIV
    p(0xFF80_0000, 0xFB80_0000, d::mul_long),       // SMLAL<x><y>, SMLALD, SMLSLD, UMAAL (DSP)
];

/// Decode a 32-bit ARMv7-M instruction (`i` = hw1 << 16 | hw2) at an address whose PC
/// value (address + 4) is `pc4`.
pub fn decode_32(i: u32, pc4: u32) -> Op {
    if crate::cpu::fpu::decode::decode(i).is_some() {
        return Op::Fp { raw: i };
    }
    match PATTERNS.iter().find(|p| i & p.mask == p.value) {
        Some(p) => (p.build)(i, pc4),
        None => Op::Undef { raw: i },
    }
}

/// Decode the ARMv7-M instruction at `pc` (first halfword `hw`, next `hw2`).
pub fn decode_v7(pc: u32, hw: u16, hw2: u16) -> Op {
    let pc4 = pc.wrapping_add(4);
    if is_32bit(hw) {
        return decode_32(((hw as u32) << 16) | hw2 as u32, pc4);
    }
    let h = hw as u32;
    if h & 0xF500 == 0xB100 {
        // CBZ/CBNZ: 1011 o0i1 iiiii Rn
        let off = (bits(h, 9, 9) << 6) | (bits(h, 7, 3) << 1);
        return Op::Cbz { nz: h & 0x800 != 0, rn: (h & 7) as u8, target: pc4.wrapping_add(off) };
    }
    if h & 0xFF00 == 0xBF00 && h & 0xF != 0 {
        // IT: firstcond 1111 and AL with an "else" are UNPREDICTABLE.
        let (cond, mask) = (bits(h, 7, 4), h & 0xF);
        if cond == 15 || (cond == 14 && mask.count_ones() != 1) {
            return Op::Undef { raw: h };
        }
        return Op::It { state: h as u8 };
    }
    if h & 0xFFEC == 0xB660 && h & 3 != 0 && h & 3 != 2 {
        // CPS with F (alone): with I alone it is the ARMv6-M CPSIE/CPSID i.
        return if h & 3 == 1 { Op::CpsF { disable: h & 0x10 != 0 } } else { Op::Undef { raw: h } };
    }
    match decode(pc, hw, hw2) {
        // LDM/STM: the ARMv7-M multi op, which faults on an unaligned base.
        Op::Ldm { rn, list } => {
            let wback = if list & (1 << rn) == 0 { multi::WBACK } else { 0 };
            Op::Multi { flags: multi::LOAD | multi::NARROW | wback, rn, list: list as u16 }
        }
        Op::Stm { rn, list } => Op::Multi { flags: multi::NARROW | multi::WBACK, rn, list: list as u16 },
        op => op,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{dp, ls};
    use super::*;

    fn d(hw1: u16, hw2: u16) -> Op {
        decode_v7(0x100, hw1, hw2)
    }

    #[test]
    fn data_processing() {
        // ADDS.W r1, r2, #0x00FF00FF  (F112 11FF)
        assert_eq!(d(0xF112, 0x11FF), Op::AddImmW { f: dp::S, rd: 1, rn: 2, imm: 0x00FF_00FF });
        // MOV.W r0, #0x80000000 (F04F 4000): rotated, so C comes from bit 31 when flags are set
        assert_eq!(d(0xF04F, 0x4000), Op::MovImmW { f: dp::IMM_C, rd: 0, rn: 15, imm: 0x8000_0000 });
        // CMP.W r3, r4, LSL #2 (EBB3 0F84)
        assert_eq!(d(0xEBB3, 0x0F84), Op::SubRegW { f: dp::S | dp::TEST, rd: 15, rn: 3, rm: 4, sh: 2 });
        // MOVW r5, #0x1234 (F241 2534); MOVT r5, #0xABCD (F6CA 35CD)
        assert_eq!(d(0xF241, 0x2534), Op::MovImmW { f: 0, rd: 5, rn: 15, imm: 0x1234 });
        assert_eq!(d(0xF6CA, 0x35CD), Op::MovT { rd: 5, imm: 0xABCD });
        // ADR.W r5, PC + 32 (ADDW, F20F 0520) and PC - 32 (SUBW, F2AF 0520) at 0x100 and
        // 0x102: Align(PC, 4) +/- 32, a 4-byte MOVW-style op (issue 23: was a 2-byte MovConst)
        assert_eq!(d(0xF20F, 0x0520), Op::MovImmW { f: 0, rd: 5, rn: 15, imm: 0x124 });
        assert_eq!(d(0xF2AF, 0x0520), Op::MovImmW { f: 0, rd: 5, rn: 15, imm: 0xE4 });
        assert_eq!(decode_v7(0x102, 0xF20F, 0x0520), Op::MovImmW { f: 0, rd: 5, rn: 15, imm: 0x124 });
        assert_eq!(d(0xF20F, 0x0520).size(), 4);
        // UBFX r0, r1, #4, #8 (F3C1 1007); BFC r2, #3, #5 (F36F 02C7)
        assert_eq!(d(0xF3C1, 0x1007), Op::Bfx { signed: false, rd: 0, rn: 1, lsb: 4, width: 8 });
        assert_eq!(d(0xF36F, 0x02C7), Op::Bfi { rd: 2, rn: 15, lsb: 3, msb: 7 });
        // CLZ r0, r1 (FAB1 F081); UDIV r0, r1, r2 (FBB1 F0F2)
        assert_eq!(d(0xFAB1, 0xF081), Op::Misc { op: 0, rd: 0, rm: 1 });
        assert_eq!(d(0xFBB1, 0xF0F2), Op::Div { signed: false, rd: 0, rn: 1, rm: 2 });
    }

    #[test]
    fn memory_and_branches() {
        // LDR.W r0, [r1, #0x123] (F8D1 0123); LDR r0, [r1, #-4]! (F851 0D04)
        assert_eq!(d(0xF8D1, 0x0123), Op::LdImm { kind: ls::LDR, rt: 0, rn: 1, off: 0x123 });
        assert_eq!(d(0xF851, 0x0D04), Op::LdPre { kind: ls::LDR, rt: 0, rn: 1, off: -4 });
        // LDR r7, [r0, #-4] (F850 7C04); STR.W r7, [r0], #-4 (F840 7904)
        assert_eq!(d(0xF850, 0x7C04), Op::LdImm { kind: ls::LDR, rt: 7, rn: 0, off: -4 });
        assert_eq!(d(0xF840, 0x7904), Op::LdPost { kind: ls::STR, rt: 7, rn: 0, off: -4 });
        // PUSH.W {r4-r11, lr} (E92D 4FF0)
        assert_eq!(d(0xE92D, 0x4FF0), Op::Multi { flags: 6, rn: 13, list: 0x4FF0 });
        // TBB [pc, r1] (E8DF F001)
        assert_eq!(d(0xE8DF, 0xF001), Op::Tb { half: false, rn: 15, rm: 1, base: 0x104 });
        // B.W to itself and BNE.W to itself at 0x100, B.W forward 0x2000 - 8
        assert_eq!(d(0xF7FF, 0xBFFE), Op::BW { target: 0x100 });
        assert_eq!(d(0xF001, 0xBFFC), Op::BW { target: 0x104 + 0x1FF8 });
        assert_eq!(d(0xF47F, 0xAFFE), Op::BcondW { cond: 1, target: 0x100 });
        // CBNZ r2, .+8 (B912 at 0x100 -> 0x108); IT EQ (BF08)
        assert_eq!(d(0xB912, 0), Op::Cbz { nz: true, rn: 2, target: 0x108 });
        assert_eq!(d(0xBF08, 0), Op::It { state: 0x08 });
        assert_eq!(d(0xB671, 0), Op::CpsF { disable: true });
        // BL is the ARMv6-M op
        assert_eq!(d(0xF000, 0xF800), Op::Bl { target: 0x104 });
    }

    /// Every op's `size()` is its encoding's: 4 for whatever a 32-bit first halfword
    /// decodes to (ops shared with the 16-bit decoder included, as ADR.W's once was not),
    /// 2 for the 16-bit instructions. The IT skip, `it_cost` and the quiet pass step by it.
    #[test]
    fn every_op_has_its_encodings_size() {
        let mut wrong = Vec::new();
        let mut check = |hw1: u16, hw2: u16, want: u32| {
            let op = d(hw1, hw2);
            let kind = format!("{:?}", op).split([' ', '{']).next().unwrap_or("").to_string();
            if op.size() != want && !wrong.iter().any(|(k, _)| *k == kind) {
                wrong.push((kind, format!("{:04x} {:04x}: {:?} size {}", hw1, hw2, op, op.size())));
            }
        };
        for hw in 0..0xE800u16 {
            check(hw, 0xF000, 2);
        }
        let mut x = 0x9E37_79B9u32;
        for hw1 in 0xE800..=0xFFFFu16 {
            for _ in 0..256 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                check(hw1, x as u16, 4);
            }
            for hw2 in [0x0000, 0x0F00, 0x8000, 0xF000, 0xFFFF] {
                check(hw1, hw2, 4);
            }
        }
        let wrong: Vec<String> = wrong.into_iter().map(|(_, w)| w).collect();
        assert!(wrong.is_empty(), "ops of the wrong size:\n{}", wrong.join("\n"));
    }

    #[test]
    fn rejects_unpredictable_and_coprocessor() {
        assert!(matches!(d(0xEE00, 0x0A10), Op::Fp { .. })); // VMOV s0, r0 (NOCP without an FPU)
        assert!(matches!(d(0xEE00, 0x0910), Op::Undef { .. })); // MCR p9
        assert!(matches!(d(0xF8DF, 0xF000), Op::LdLit { .. })); // LDR pc, [pc]
        assert!(matches!(d(0xF04F, 0x0D00), Op::Undef { .. })); // MOV.W sp, #0
        assert!(matches!(d(0xBFF8, 0), Op::Undef { .. })); // IT with firstcond 1111
        assert!(matches!(d(0xFB81, 0x1102), Op::Undef { .. })); // SMULL with RdLo == RdHi
    }
}
