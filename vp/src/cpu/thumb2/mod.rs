//! Thumb-2 (ARMv7-M, Cortex-M3/M4): the ops the ARMv6-M decoder does not know.
//!
//! `decode.rs` holds the pattern table (one line per encoding, QEMU decodetree style),
//! `fields.rs` the field extractors and per-encoding constructors, `execute.rs` and
//! `memory.rs` the execution, `it.rs` the IT block, `timing.rs` the Cortex-M3 cycle figures.
//! On an ARMv6-M board none of this is reachable: the M0 decoder turns the same bits into
//! `Op::Undef`.

pub mod decode;
pub mod execute;
pub mod fields;
pub mod it;
pub mod memory;
pub mod timing;

/// Data-processing operation codes of `T2Op::DpImm`/`DpReg` (low 4 bits of `op`): the
/// Thumb-2 opcode field, with MOV and MVN (ORR/ORN with Rn = PC) given their own codes.
pub mod dp {
    pub const AND: u8 = 0;
    pub const BIC: u8 = 1;
    pub const ORR: u8 = 2;
    pub const ORN: u8 = 3;
    pub const EOR: u8 = 4;
    pub const MOV: u8 = 5;
    pub const MVN: u8 = 6;
    pub const ADD: u8 = 8;
    pub const ADC: u8 = 10;
    pub const SBC: u8 = 11;
    pub const SUB: u8 = 13;
    pub const RSB: u8 = 14;
    /// Flag bit: set the flags (S).
    pub const S: u8 = 0x10;
    /// Flag bit: the result is discarded (TST, TEQ, CMP, CMN).
    pub const TEST: u8 = 0x20;
    /// Flag bit (immediates): the expansion rotated, so a logical op sets C from bit 31.
    pub const IMM_C: u8 = 0x40;
}

/// Load/store kinds, the same numbering as the M0's register-offset `LsReg`.
pub mod ls {
    pub const STR: u8 = 0;
    pub const STRH: u8 = 1;
    pub const STRB: u8 = 2;
    pub const LDRSB: u8 = 3;
    pub const LDR: u8 = 4;
    pub const LDRH: u8 = 5;
    pub const LDRB: u8 = 6;
    pub const LDRSH: u8 = 7;
    pub fn is_load(k: u8) -> bool {
        k >= 3
    }
}

/// Flag bits of `T2Op::Multi`.
pub mod multi {
    pub const LOAD: u8 = 1;
    /// Decrement before (STMDB/PUSH, LDMDB); otherwise increment after.
    pub const DB: u8 = 2;
    pub const WBACK: u8 = 4;
    /// The 16-bit LDM/STM (ARMv6-M encodings, re-decoded so that ARMv7-M checks alignment).
    pub const NARROW: u8 = 8;
}

/// A decoded ARMv7-M-only instruction without a 32-bit field: 6 bytes, so that `Op::T2`
/// keeps `Op` at 8 bytes. The ones carrying an address or a 32-bit immediate are `Op`
/// variants of their own (`Op::DpImm`, `Op::LdLit`, `Op::LdrdLit`, `Op::Tb`, `Op::BcondW`,
/// `Op::BW`, `Op::Cbz`), executed by the functions here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T2Op {
    /// Data processing with a shifted register; `sh` = type << 6 | amount (0..=32, ROR #0 = RRX).
    DpReg {
        op: u8,
        rd: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
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
    /// Load/store, positive 12-bit offset.
    LdImm {
        kind: u8,
        rt: u8,
        rn: u8,
        off: u16,
    },
    /// Load/store with an 8-bit offset: `puw` = P << 2 | U << 1 | W (index, add, write back).
    LdIdx {
        kind: u8,
        rt: u8,
        rn: u8,
        puw: u8,
        off: u8,
    },
    /// Load/store, register offset shifted left by `sh`.
    LdReg {
        kind: u8,
        rt: u8,
        rn: u8,
        rm: u8,
        sh: u8,
    },
    /// LDRD/STRD: `puw` as in LdIdx plus bit 3 = load; offset in words.
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
}

impl T2Op {
    #[inline(always)]
    pub fn size(&self) -> u32 {
        match self {
            T2Op::It { .. } | T2Op::CpsF { .. } => 2,
            T2Op::Multi { flags, .. } if flags & multi::NARROW != 0 => 2,
            _ => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_stays_eight_bytes() {
        assert_eq!(std::mem::size_of::<super::super::decode::Op>(), 8);
    }
}
