//! What an instruction costs on the ARMv7-M cores, all of it here: the Cortex-M3 (ARM
//! DDI0337H/I, section 3.3.1, Table 3.1 "Cortex-M3 instruction set summary", zero wait
//! states), the Cortex-M4's multiplier and DSP extension (DDI0439 Tables 3-1, 3-2) and the
//! M4F's FPU (`fpu`, DDI0439 Table 7-1). The rules that combine them with the neighbouring
//! instruction are pipeline.rs (pipelined loads/stores, the no-forwarding stall) and it.rs
//! (IT folding), refill.rs (P, the pipeline refill of a taken branch: 1 to 3) and
//! write_buffer.rs (the one-cycle stores); wait states and exception figures are
//! cpu/timing.rs.

/// Pipeline refill after a taken branch or a write to the PC decided in execute (refill.rs).
pub const P: u64 = 2;
/// Pipeline refill after a branch whose target the core forwards from decode (refill.rs).
pub const P_FORWARDED: u64 = 1;
/// The pipeline reload after a load to the PC (LDR PC, LDM/POP with the PC, TBB/TBH): "LDR
/// PC,[any] is always a blocking operation. This means at least two cycles for the load, and
/// three cycles for the pipeline reload"; "TBB and TBH ... at least two cycles for the load,
/// one cycle for the add, and three cycles for the pipeline reload" (M3 TRM DDI0337I section
/// 3.3.1 "Load/store timings", p. 3-8/3-9; the M4 TRM's section 3.3.2 says the same).
pub const P_LOAD: u64 = 3;
/// A single store with an immediate offset into the write buffer (write_buffer.rs).
pub const STR_BUFFERED: u64 = 1;
/// Data processing, moves, shifts, bit-field, saturate, extend, reverse, MUL, CPS, NOP.
pub const ALU: u64 = 1;
/// MLA, MLS.
pub const MLA: u64 = 2;
/// A taken branch decided in execute (CBZ, BX/BLX/MOV/ADD PC with a register other than
/// LR): 1 + P; the forwarded ones (B, B<c>, BL, BX LR) 1 + P_FORWARDED (refill.rs), either
/// one more to a 32-bit target that is not word-aligned.
pub const BRANCH: u64 = 1 + P;
/// B<c> or CBZ not taken, and an instruction skipped by its IT condition.
pub const NOT_TAKEN: u64 = 1;
/// LDR/STR of any size, LDREX/STREX: 2, or 1 when pipelined behind a load; every load or
/// store one more when its address comes from the preceding data processing (`pipeline.rs`).
pub const LDST: u64 = 2;
pub const LDST_PIPELINED: u64 = 1;
/// LDR PC: 2 + P_LOAD ("at least five cycles").
pub const LDR_PC: u64 = 2 + P_LOAD;
/// LDRD/STRD: 1 + N with N = 2.
pub const DUAL: u64 = 3;
/// LDM/STM/PUSH/POP: 1 + N (+ P_LOAD when the PC is loaded).
pub const MULTI_BASE: u64 = 1;
/// TBB/TBH: 2 (load) + 1 (add) + P_LOAD ("at least six cycles").
pub const TABLE: u64 = 2 + 1 + P_LOAD;
/// IT: 1, or 0 when folded onto a preceding 16-bit instruction (`it.rs`).
pub const IT: u64 = 1;
pub const IT_FOLDED: u64 = 0;
/// BL (the 32-bit encoding the M0 also has, 4 cycles there): 1 + P_FORWARDED (refill.rs).
pub const BL: u64 = 1 + P_FORWARDED;
/// MRS, MSR: the TRM gives "1 or 2" without saying when; the model takes 2.
pub const MRS_MSR: u64 = 2;
/// DMB, DSB: 1 + B with B = 0 (the board has no write buffer to drain).
pub const DMB_DSB: u64 = 1;
/// ISB: 1 + B with B = P (the barrier refills the pipeline).
pub const ISB: u64 = 1 + P;
/// Cortex-M4 (ARM DDI0439B/D section 3.3.1 Table 3-1): MLA, MLS, SMULL, UMULL, SMLAL and
/// UMLAL all take 1 cycle (the M3's early-terminating 3..7 does not apply).
pub const M4_MUL: u64 = 1;
/// SMULL/UMULL 3 to 5, SMLAL/UMLAL 4 to 7: early termination on the operands' magnitude.
pub const MUL_LONG_MIN: u64 = 3;
/// SDIV/UDIV 2 to 12, early termination on the operands.
pub const DIV_MIN: u64 = 2;

/// Every DSP-extension instruction on the Cortex-M4 (DDI0439D section 3.3.1, Table 3-2
/// "Cortex-M4 DSP instruction set summary", pages 3-8 to 3-11; MSR APSR_g is MRS_MSR).
pub const DSP: u64 = 1;

/// Cycles, Cortex-M4 TRM (ARM DDI0439B, r0p1) section 7.2.3 "FPU instruction set", Table
/// 7-1 (cross-checked with TI SWCU192 Table 3-27, a copy of it): VADD/VSUB/VMUL/VNMUL/VABS/VNEG/VCMP/VCVT/VMOV/VMRS/VMSR 1, VMLA-family
/// and fused MAC 3, VDIV/VSQRT 14, VLDR 2 (a double 3), VSTR 2 (a double 3), VLDM/VSTM/VPUSH/
/// VPOP 1 + N (N words), VMOV two floats or a double to/from two core registers (and one
/// float to/from one core register) 2.
pub mod fpu {
    pub const ALU: u64 = 1;
    pub const MAC: u64 = 3;
    pub const DIV_SQRT: u64 = 14;
    pub const LDST: u64 = 2;
    pub const LDST_DOUBLE: u64 = 3;
    pub const MULTI_BASE: u64 = 1;
    pub const CORE: u64 = 2;
    /// VMOV Dn[x], Rt / Rt, Dn[x] ("top/bottom half of double to/from core register").
    pub const SCALAR: u64 = 1;
    /// The FP part of an extended frame: S0-S15 and FPSCR, 17 words written (or read) one
    /// per cycle on top of the integer frame. The TRMs give no figure for it: this is the
    /// model (docs/board.md), so full stacking enters in 12 + 17 = 29 cycles.
    pub const FP_FRAME_WORDS: u64 = 17;
}

/// The extra cycles of an unaligned single load or store (LDR/LDRH/LDRSH/STR/STRH, the only
/// ones ARMv7-M lets be unaligned), Cortex-M3 TRM r2p1 (DDI0337I) section 3.3.1 / Cortex-M4
/// TRM r0p1 (DDI0439B) section 3.3.2, "Load/store timings": "Unaligned word or halfword loads
/// or stores add penalty cycles. A byte aligned halfword load or store adds one extra cycle to
/// perform the operation as two bytes. A halfword aligned word load or store adds one extra
/// cycle to perform the operation as two halfwords. A byte-aligned word load or store adds two
/// extra cycles to perform the operation as a byte, a halfword, and a byte. ... A STR or STRH
/// cannot delay the processor because of the write buffer": a store through the write buffer
/// (write_buffer.rs) pays none (bus.rs applies it). Checked word for word against DDI0439D
/// p. 3-12, where the "..." is "These numbers increase if the memory stalls.".
pub fn unaligned(addr: u32, size: u8) -> u64 {
    match (size, addr & 3) {
        (4, 2) => 1,
        (4, 1 | 3) => 2,
        (2, 1 | 3) => 1,
        _ => 0,
    }
}

/// Long multiply: 3 cycles when Rm's top halfword is only sign (or zero) bits, 4 when its
/// top byte is, 5 otherwise; accumulating forms add 1 (2 when the full 64-bit add is
/// needed, i.e. the accumulator's high word is not zero).
pub fn mul_long(rm: u32, signed: bool, acc: Option<u32>) -> u64 {
    let x = if signed && (rm as i32) < 0 { !rm } else { rm };
    let base = MUL_LONG_MIN
        + if x >> 16 == 0 {
            0
        } else if x >> 24 == 0 {
            1
        } else {
            2
        };
    match acc {
        None => base,
        Some(0) => base + 1,
        Some(_) => base + 2,
    }
}

/// Divide: 2 cycles when the quotient is zero (divisor larger than dividend, or zero),
/// otherwise 2 + ceil(10 * q / 32) where q = number of quotient bits to develop
/// (clz(divisor) - clz(dividend) + 1), so a full 32-bit quotient takes 12.
pub fn div(n: u32, d: u32) -> u64 {
    if d == 0 || d > n {
        return DIV_MIN;
    }
    let q = (d.leading_zeros() - n.leading_zeros() + 1) as u64;
    DIV_MIN + (10 * q).div_ceil(32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn data_dependent_costs_span_the_trm_ranges() {
        assert_eq!(super::div(7, 9), 2);
        assert_eq!(super::div(0xFFFF_FFFF, 1), 12);
        assert_eq!(super::div(100, 10), 2 + 2);
        assert_eq!(super::mul_long(5, false, None), 3);
        assert_eq!(super::mul_long(0xFFFF_FFFF, true, None), 3);
        assert_eq!(super::mul_long(0x8000_0000, false, Some(1)), 7);
        assert_eq!(super::unaligned(0x2000_0002, 4), 1);
        assert_eq!(super::unaligned(0x2000_0001, 4), 2);
        assert_eq!(super::unaligned(0x2000_0003, 2), 1);
        assert_eq!(super::unaligned(0x2000_0002, 2), 0);
    }
}
