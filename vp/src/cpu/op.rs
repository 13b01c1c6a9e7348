//! The decoded instruction: `Op`, 8 bytes, one variant per operation (ARMv6-M first, then the
//! ARMv7-M ones), with every PC-relative value already resolved by the decoder.

use super::thumb2::dp;

/// Condition codes of B<cond>.
pub type Cond = u8;

/// The 16 data-processing register operations (encoding 010000 oooo Rm Rdn), the `op` of
/// `Op::Alu`.
pub mod alu_op {
    pub const AND: u8 = 0;
    pub const EOR: u8 = 1;
    pub const LSL: u8 = 2;
    pub const LSR: u8 = 3;
    pub const ASR: u8 = 4;
    pub const ADC: u8 = 5;
    pub const SBC: u8 = 6;
    pub const ROR: u8 = 7;
    pub const TST: u8 = 8;
    /// RSBS Rd, Rn, #0 (NEG)
    pub const RSB: u8 = 9;
    pub const CMP: u8 = 10;
    pub const CMN: u8 = 11;
    pub const ORR: u8 = 12;
    pub const MUL: u8 = 13;
    pub const BIC: u8 = 14;
    pub const MVN: u8 = 15;
}

/// A decoded instruction. Kept at 8 bytes so the flash table stays cache friendly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    // Shifts by immediate (imm already turned into 1..=32 for LSR/ASR).
    LslImm {
        rd: u8,
        rm: u8,
        imm: u8,
    },
    LsrImm {
        rd: u8,
        rm: u8,
        imm: u8,
    },
    AsrImm {
        rd: u8,
        rm: u8,
        imm: u8,
    },
    AddsReg {
        rd: u8,
        rn: u8,
        rm: u8,
    },
    SubsReg {
        rd: u8,
        rn: u8,
        rm: u8,
    },
    AddsImm {
        rd: u8,
        rn: u8,
        imm: u8,
    },
    SubsImm {
        rd: u8,
        rn: u8,
        imm: u8,
    },
    MovsImm {
        rd: u8,
        imm: u8,
    },
    CmpImm {
        rn: u8,
        imm: u8,
    },
    /// Data processing register ops (010000 oooo): `op` is one of `alu_op`.
    Alu {
        op: u8,
        rdn: u8,
        rm: u8,
    },
    /// ADD Rd, Rm with high registers (no flags); rd != 15.
    AddHi {
        rd: u8,
        rm: u8,
    },
    /// ADD Rd, PC (value known at decode time), rd != 15.
    AddConst {
        rd: u8,
        val: u32,
    },
    /// ADD PC, Rm: branch to PC+4+Rm.
    AddPc {
        rm: u8,
        base: u32,
    },
    CmpHi {
        rn: u8,
        rm: u8,
    },
    MovHi {
        rd: u8,
        rm: u8,
    },
    /// MOV PC, Rm.
    MovPc {
        rm: u8,
    },
    /// Load of a constant register value (MOV Rd, PC or ADR).
    MovConst {
        rd: u8,
        val: u32,
    },
    Bx {
        rm: u8,
    },
    Blx {
        rm: u8,
    },
    /// LDR Rt, [PC, #imm] resolved to an absolute address.
    LdrLit {
        rt: u8,
        addr: u32,
    },
    // Register offset loads/stores: kind 0..7 = STR STRH STRB LDRSB LDR LDRH LDRB LDRSH.
    LsReg {
        kind: u8,
        rt: u8,
        rn: u8,
        rm: u8,
    },
    // Immediate offset (offset already scaled).
    StrImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    LdrImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    StrbImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    LdrbImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    StrhImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    LdrhImm {
        rt: u8,
        rn: u8,
        off: u8,
    },
    StrSp {
        rt: u8,
        off: u16,
    },
    LdrSp {
        rt: u8,
        off: u16,
    },
    AddSpImm {
        rd: u8,
        off: u16,
    },
    /// ADD SP, SP, #imm / SUB SP, SP, #imm as a signed delta.
    AdjSp {
        delta: i16,
    },
    Sxth {
        rd: u8,
        rm: u8,
    },
    Sxtb {
        rd: u8,
        rm: u8,
    },
    Uxth {
        rd: u8,
        rm: u8,
    },
    Uxtb {
        rd: u8,
        rm: u8,
    },
    Rev {
        rd: u8,
        rm: u8,
    },
    Rev16 {
        rd: u8,
        rm: u8,
    },
    Revsh {
        rd: u8,
        rm: u8,
    },
    /// PUSH: low register list plus LR (bit 8).
    Push {
        list: u16,
    },
    /// POP: low register list plus PC (bit 8).
    Pop {
        list: u16,
    },
    Stm {
        rn: u8,
        list: u8,
    },
    Ldm {
        rn: u8,
        list: u8,
    },
    Cpsie,
    Cpsid,
    Bkpt {
        imm: u8,
    },
    Nop,
    Yield,
    Wfe,
    Wfi,
    Sev,
    Bcond {
        cond: Cond,
        target: u32,
    },
    B {
        target: u32,
    },
    Svc {
        imm: u8,
    },
    Bl {
        target: u32,
    },
    Msr {
        rn: u8,
        sysm: u8,
    },
    Mrs {
        rd: u8,
        sysm: u8,
    },
    /// DMB, DSB, ISB: architecturally no effect on this single-master board; 4 cycles on
    /// the M0, ISB (which refills the pipeline) apart on the M3/M4.
    Barrier {
        isb: bool,
    },
    // ---- ARMv7-M only (never produced for an ARMv6-M board; executed in thumb2/) ----
    /// LSL/LSR/ASR/ROR Rd, Rn, Rm (`op` = type | S << 4).
    ShiftReg {
        op: u8,
        rd: u8,
        rn: u8,
        rm: u8,
    },
    MovT {
        rd: u8,
        imm: u16,
    },
    /// BFI (rn != 15) / BFC (rn == 15): bits lsb..=msb.
    Bfi {
        rd: u8,
        rn: u8,
        lsb: u8,
        msb: u8,
    },
    /// UBFX / SBFX.
    Bfx {
        signed: bool,
        rd: u8,
        rn: u8,
        lsb: u8,
        width: u8,
    },
    /// SSAT / USAT: saturate (Rn shifted by `sh`) to `sat` bits.
    Sat {
        unsigned: bool,
        rd: u8,
        rn: u8,
        sh: u8,
        sat: u8,
    },
    /// CLZ, RBIT, REV, REV16, REVSH (`op` 0..=4).
    Misc {
        op: u8,
        rd: u8,
        rm: u8,
    },
    /// SXTH, UXTH, SXTB, UXTB (`op` 0..=3) with a rotation of 8 * rot.
    Extend {
        op: u8,
        rd: u8,
        rm: u8,
        rot: u8,
    },
    /// MUL (ra == 15), MLA, MLS (`mls`).
    Mul {
        mls: bool,
        rd: u8,
        rn: u8,
        rm: u8,
        ra: u8,
    },
    /// SMULL, UMULL, SMLAL, UMLAL (`op`: bit 0 signed, bit 1 accumulate).
    MulLong {
        op: u8,
        lo: u8,
        hi: u8,
        rn: u8,
        rm: u8,
    },
    Div {
        signed: bool,
        rd: u8,
        rn: u8,
        rm: u8,
    },
    /// Load/store at Rn plus an offset, no write-back: the 12-bit positive one, or the
    /// 8-bit one of either sign (`kind` from `thumb2::ls`).
    LdImm {
        kind: u8,
        rt: u8,
        rn: u8,
        off: i16,
    },
    /// Load/store pre-indexed: at Rn + off, which is written back to Rn.
    LdPre {
        kind: u8,
        rt: u8,
        rn: u8,
        off: i16,
    },
    /// Load/store post-indexed: at Rn, then Rn + off written back to Rn.
    LdPost {
        kind: u8,
        rt: u8,
        rn: u8,
        off: i16,
    },
    /// Load/store, register offset shifted left by `sh`.
    LdReg {
        kind: u8,
        rt: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    /// LDRD/STRD: `puw` = P << 2 | U << 1 | W (index, add, write back) plus bit 3 = load;
    /// offset in words.
    Dual {
        puw: u8,
        rt: u8,
        rt2: u8,
        rn: u8,
        off: u8,
    },
    /// LDREX{,B,H}: `size` 4, 1, 2.
    Ldrex {
        size: u8,
        rt: u8,
        rn: u8,
        off: u8,
    },
    /// STREX{,B,H}: status into rd; offsets in words.
    Strex {
        size: u8,
        rd: u8,
        rt: u8,
        rn: u8,
        off: u8,
    },
    Clrex,
    /// LDM/STM, `flags` from `multi`; `list` holds r0..r15.
    Multi {
        flags: u8,
        rn: u8,
        list: u16,
    },
    /// IT (16-bit): firstcond << 4 | mask.
    It {
        state: u8,
    },
    /// CPSIE f / CPSID f (16-bit).
    CpsF {
        disable: bool,
    },
    /// 32-bit NOP, YIELD, PLD, PLI: no effect.
    NopW,
    /// 32-bit WFI/WFE/SEV: the 16-bit op's behaviour.
    HintW {
        hint: u8,
    },
    // Data processing (.W), one variant per operation so that the op's own dispatch is the
    // only one (thumb2/execute.rs): `...ImmW` with a modified or plain immediate, `...RegW`
    // with a shifted register (`sh` = type << 6 | amount, 0..=32, ROR #0 = RRX). `f` holds the flag bits of
    // `thumb2::dp` (S, TEST, IMM_C); `Op::dp_imm`/`Op::dp_reg` build them from an opcode.
    AndImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    BicImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    OrrImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    OrnImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    EorImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    MovImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    MvnImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    AddImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    AdcImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    SbcImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    SubImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    RsbImmW {
        f: u8,
        rd: u8,
        rn: u8,
        imm: u32,
    },
    AndRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    BicRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    OrrRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    OrnRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    EorRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    MovRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    MvnRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    AddRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    AdcRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    SbcRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    SubRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    RsbRegW {
        f: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    /// Load of `kind` (`thumb2::ls`) from a PC-relative address resolved at decode time.
    LdLit {
        kind: u8,
        rt: u8,
        addr: u32,
    },
    LdrdLit {
        rt: u8,
        rt2: u8,
        addr: u32,
    },
    /// TBB/TBH; `base` is the PC value (the table base when rn == 15).
    Tb {
        half: bool,
        rn: u8,
        rm: u8,
        base: u32,
    },
    BcondW {
        cond: Cond,
        target: u32,
    },
    BW {
        target: u32,
    },
    /// CBZ / CBNZ (16-bit).
    Cbz {
        nz: bool,
        rn: u8,
        target: u32,
    },
    /// A DSP-extension instruction (ARMv7E-M, Cortex-M4): `op` from `thumb2::dsp_fields::code`,
    /// `ra` the accumulator (15: none), RdLo, or an immediate, as the code says.
    Dsp {
        op: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        ra: u8,
    },
    /// A CP10/CP11 (FPv4-SP) instruction, its raw bits hw1 << 16 | hw2 (cpu/fpu/).
    Fp {
        raw: u32,
    },
    /// Undefined or chosen-to-fault encoding (raises HardFault); carries the raw bits.
    Undef {
        raw: u32,
    },
}

impl Op {
    /// The .W data-processing op with an immediate for `op` (a `thumb2::dp` opcode with
    /// its flag bits).
    pub fn dp_imm(op: u8, rd: u8, rn: u8, imm: u32) -> Op {
        let f = op & 0xF0;
        match op & 15 {
            dp::AND => Op::AndImmW { f, rd, rn, imm },
            dp::BIC => Op::BicImmW { f, rd, rn, imm },
            dp::ORR => Op::OrrImmW { f, rd, rn, imm },
            dp::ORN => Op::OrnImmW { f, rd, rn, imm },
            dp::EOR => Op::EorImmW { f, rd, rn, imm },
            dp::MOV => Op::MovImmW { f, rd, rn, imm },
            dp::MVN => Op::MvnImmW { f, rd, rn, imm },
            dp::ADD => Op::AddImmW { f, rd, rn, imm },
            dp::ADC => Op::AdcImmW { f, rd, rn, imm },
            dp::SBC => Op::SbcImmW { f, rd, rn, imm },
            dp::SUB => Op::SubImmW { f, rd, rn, imm },
            _ => Op::RsbImmW { f, rd, rn, imm },
        }
    }

    /// The .W data-processing op with a shifted register for `op` (as `dp_imm`).
    pub fn dp_reg(op: u8, rd: u8, rn: u8, rm: u8, sh: u8) -> Op {
        let f = op & 0xF0;
        match op & 15 {
            dp::AND => Op::AndRegW { f, rd, rn, rm, sh },
            dp::BIC => Op::BicRegW { f, rd, rn, rm, sh },
            dp::ORR => Op::OrrRegW { f, rd, rn, rm, sh },
            dp::ORN => Op::OrnRegW { f, rd, rn, rm, sh },
            dp::EOR => Op::EorRegW { f, rd, rn, rm, sh },
            dp::MOV => Op::MovRegW { f, rd, rn, rm, sh },
            dp::MVN => Op::MvnRegW { f, rd, rn, rm, sh },
            dp::ADD => Op::AddRegW { f, rd, rn, rm, sh },
            dp::ADC => Op::AdcRegW { f, rd, rn, rm, sh },
            dp::SBC => Op::SbcRegW { f, rd, rn, rm, sh },
            dp::SUB => Op::SubRegW { f, rd, rn, rm, sh },
            _ => Op::RsbRegW { f, rd, rn, rm, sh },
        }
    }

    /// True for the .W data-processing ops (`AndImmW` ... `RsbRegW`).
    #[inline(always)]
    pub fn is_dp_w(&self) -> bool {
        matches!(
            self,
            Op::AndImmW { .. }
                | Op::BicImmW { .. }
                | Op::OrrImmW { .. }
                | Op::OrnImmW { .. }
                | Op::EorImmW { .. }
                | Op::MovImmW { .. }
                | Op::MvnImmW { .. }
                | Op::AddImmW { .. }
                | Op::AdcImmW { .. }
                | Op::SbcImmW { .. }
                | Op::SubImmW { .. }
                | Op::RsbImmW { .. }
                | Op::AndRegW { .. }
                | Op::BicRegW { .. }
                | Op::OrrRegW { .. }
                | Op::OrnRegW { .. }
                | Op::EorRegW { .. }
                | Op::MovRegW { .. }
                | Op::MvnRegW { .. }
                | Op::AddRegW { .. }
                | Op::AdcRegW { .. }
                | Op::SbcRegW { .. }
                | Op::SubRegW { .. }
                | Op::RsbRegW { .. }
        )
    }

    /// True for the ARMv7-M-only ops (the ARMv6-M copy of `exec_g` sends them out of line).
    #[inline(always)]
    pub fn is_v7(&self) -> bool {
        self.is_dp_w()
            || matches!(
                self,
                Op::LdLit { .. }
                    | Op::LdrdLit { .. }
                    | Op::Tb { .. }
                    | Op::BcondW { .. }
                    | Op::BW { .. }
                    | Op::Cbz { .. }
                    | Op::ShiftReg { .. }
                    | Op::MovT { .. }
                    | Op::Bfi { .. }
                    | Op::Bfx { .. }
                    | Op::Sat { .. }
                    | Op::Misc { .. }
                    | Op::Extend { .. }
                    | Op::Mul { .. }
                    | Op::MulLong { .. }
                    | Op::Div { .. }
                    | Op::LdImm { .. }
                    | Op::LdPre { .. }
                    | Op::LdPost { .. }
                    | Op::LdReg { .. }
                    | Op::Dual { .. }
                    | Op::Ldrex { .. }
                    | Op::Strex { .. }
                    | Op::Clrex
                    | Op::Multi { .. }
                    | Op::It { .. }
                    | Op::CpsF { .. }
                    | Op::NopW
                    | Op::HintW { .. }
                    | Op::Dsp { .. }
                    | Op::Fp { .. }
            )
    }

    /// Size in bytes of the instruction this op came from.
    #[inline(always)]
    pub fn size(&self) -> u32 {
        match self {
            Op::Bl { .. }
            | Op::Msr { .. }
            | Op::Mrs { .. }
            | Op::Barrier { .. }
            | Op::LdLit { .. }
            | Op::LdrdLit { .. }
            | Op::Tb { .. }
            | Op::BcondW { .. }
            | Op::BW { .. } => 4,
            Op::Undef { raw } if *raw > 0xFFFF => 4,
            Op::It { .. } | Op::CpsF { .. } => 2,
            Op::Multi { flags, .. } if flags & super::thumb2::multi::NARROW != 0 => 2,
            op if op.is_v7() => 4,
            _ => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_stays_eight_bytes() {
        assert_eq!(std::mem::size_of::<super::Op>(), 8);
    }
}
