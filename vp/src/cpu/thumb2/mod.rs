//! Thumb-2 (ARMv7-M, Cortex-M3/M4): the ops the ARMv6-M decoder does not know.
//!
//! `decode.rs` holds the pattern table (one line per encoding, QEMU decodetree style),
//! `fields.rs` the field extractors and per-encoding constructors, `execute.rs` and
//! `memory.rs` the execution, `it.rs` the IT block, `timing.rs` the Cortex-M3/M4 cycle
//! figures, `pipeline.rs` the pipelining of neighbouring loads and stores, `refill.rs` the
//! pipeline refill of a taken branch, `write_buffer.rs` the one-cycle stores, `quiet.rs` which
//! instructions may skip its record.
//! The ops themselves are `Op` variants (op.rs). On an ARMv6-M board none of this is
//! reachable: the M0 decoder turns the same bits into `Op::Undef`.

pub mod decode;
pub mod dsp;
pub mod dsp_fields;
pub mod execute;
pub mod fields;
pub mod it;
pub mod memory;
pub mod pipeline;
pub mod quiet;
pub mod refill;
pub mod timing;
pub mod write_buffer;

/// Data-processing operation codes (low 4 bits; `Op::dp_imm`/`dp_reg` make each its own op): the
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

/// Flag bits of `Op::Multi`.
pub mod multi {
    pub const LOAD: u8 = 1;
    /// Decrement before (STMDB/PUSH, LDMDB); otherwise increment after.
    pub const DB: u8 = 2;
    pub const WBACK: u8 = 4;
    /// The 16-bit LDM/STM (ARMv6-M encodings, re-decoded so that ARMv7-M checks alignment).
    pub const NARROW: u8 = 8;
}
