//! Instructions whose op is shared with, or sized like, another encoding's (issue 23).
//!
//! ADR.W (`ADDW/SUBW Rd, PC, #imm12`, encodings T3 and T2) is a 32-bit instruction: the
//! next instruction is 4 bytes on, also when an IT block skips it (issue 23: it used to
//! advance 2 bytes and run its second halfword as a 16-bit instruction). The expected
//! states are the ARM ARM's (A7.7.7: Rd = Align(PC, 4) +/- imm32, flags untouched) and
//! QEMU's, on vp-m3 and vp-m4.

use crate::support::*;
use rtoslab_vp::machine::{Machine, Stop};
use rtoslab_vp::Board;

/// `addw r5, pc, #32` (ADR.W T3): its second halfword, 0x0520, is `lsls r0, r4, #20`.
const ADDW_R5_PC_32: [u16; 2] = [0xF20F, 0x0520];
/// `subw r5, pc, #32` (ADR.W T2): the same second halfword.
const SUBW_R5_PC_32: [u16; 2] = [0xF2AF, 0x0520];
/// `movw r5, #32`: a 32-bit data-processing instruction of the same cost.
const MOVW_R5_32: [u16; 2] = [0xF240, 0x0520];
const IT_NE: u16 = 0xBF18;
const Z: u32 = 0x4000_0000;

/// The reproducer around `adr` (any prefix `pre`, e.g. an IT): r0 = 0xb92c,
/// r4 = 0x1d71fc41, r5 = 0x55, APSR = Z, then `pre`, the instruction at an address
/// `misalign` bytes past a word boundary, and a final UDF. Returns the machine and the
/// instruction's address.
fn exec(board: Board, misalign: u32, pre: &[u16], adr: [u16; 2]) -> (Machine, u32) {
    let mut a = Asm::new();
    a.label("reset").li(0, 0xb92c).li(4, 0x1d71_fc41).li(5, 0x55).li(3, Z).w(msr(0, 3));
    a.align4();
    let pad = (misalign as usize / 2 + 2 - pre.len() % 2) % 2;
    a.n(NOP, pad);
    for hw in pre {
        a.i(*hw);
    }
    let at = a.here();
    assert_eq!(at % 4, misalign);
    a.w(adr);
    a.label("end").i(udf(0x42));
    let mut c = cfg(board);
    c.fault_stop = true;
    let (m, stop) = run(&a, c);
    match &stop {
        Stop::FaultStop(f) if f.pc == a.addr("end") => {}
        other => panic!("{:?}: expected to stop at the final UDF, got {:?}", board, other),
    }
    (m, at)
}

fn apsr(m: &Machine) -> u32 {
    m.cpu.xpsr() & 0xF800_0000
}

#[test]
fn adr_w_t3_adds_to_the_aligned_pc_and_is_four_bytes() {
    for board in [Board::VP_M3, Board::VP_M4] {
        for misalign in [0, 2] {
            let (m, at) = exec(board, misalign, &[], ADDW_R5_PC_32);
            let want = ((at + 4) & !3) + 32;
            assert_eq!(m.cpu.r[5], want, "{:?} at 0x{:x}: r5", board, at);
            assert_eq!(m.cpu.r[0], 0xb92c, "{:?} at 0x{:x}: r0 (second halfword run as LSLS)", board, at);
            assert_eq!(apsr(&m), Z, "{:?} at 0x{:x}: APSR", board, at);
        }
    }
}

#[test]
fn adr_w_t2_subtracts_from_the_aligned_pc_and_is_four_bytes() {
    for board in [Board::VP_M3, Board::VP_M4] {
        for misalign in [0, 2] {
            let (m, at) = exec(board, misalign, &[], SUBW_R5_PC_32);
            let want = ((at + 4) & !3) - 32;
            assert_eq!(m.cpu.r[5], want, "{:?} at 0x{:x}: r5", board, at);
            assert_eq!(m.cpu.r[0], 0xb92c, "{:?} at 0x{:x}: r0 (second halfword run as LSLS)", board, at);
            assert_eq!(apsr(&m), Z, "{:?} at 0x{:x}: APSR", board, at);
        }
    }
}

#[test]
fn adr_w_skipped_in_an_it_block_is_four_bytes() {
    for board in [Board::VP_M3, Board::VP_M4] {
        for misalign in [0, 2] {
            for adr in [ADDW_R5_PC_32, SUBW_R5_PC_32] {
                // IT NE with Z set: the ADR.W is skipped, nothing changes.
                let (m, at) = exec(board, misalign, &[IT_NE], adr);
                assert_eq!(m.cpu.r[5], 0x55, "{:?} at 0x{:x}: r5", board, at);
                assert_eq!(m.cpu.r[0], 0xb92c, "{:?} at 0x{:x}: r0 (second halfword run as LSLS)", board, at);
                assert_eq!(apsr(&m), Z, "{:?} at 0x{:x}: APSR", board, at);
            }
        }
    }
}

#[test]
fn adr_w_takes_one_cycle_like_movw() {
    // Cortex-M3 TRM Table 18-1 / M4 TRM Table 3-1: ADR (and ADD/MOV with an immediate) 1 cycle.
    for board in [Board::VP_M3, Board::VP_M4] {
        for misalign in [0, 2] {
            let movw = exec(board, misalign, &[], MOVW_R5_32).0.cyc;
            for adr in [ADDW_R5_PC_32, SUBW_R5_PC_32] {
                let (m, at) = exec(board, misalign, &[], adr);
                assert_eq!(m.cyc, movw, "{:?} at 0x{:x}: cycles against MOVW", board, at);
            }
        }
    }
}

/// `cbnz r2, .+4` (16-bit; r2 = 0, so not taken).
const CBNZ_R2: u16 = 0xB902;
const IT_EQ: u16 = 0xBF08;

#[test]
fn it_folds_after_a_cbz_like_after_any_16_bit_instruction() {
    // The TRMs (M3 Table 3.1, M4 Table 3-1 note d): an IT folds onto a preceding 16-bit
    // instruction. CBZ/CBNZ's op was sized 4 bytes, so an IT right after one (or after the
    // instruction that follows one) never folded: a cycle too many.
    let cycles = |board: Board, seq: &[u16]| {
        let mut a = Asm::new();
        a.label("reset").li(2, 0).li(3, Z).w(msr(0, 3)).align4();
        for hw in seq {
            a.i(*hw);
        }
        a.label("end").i(udf(0x42));
        let mut c = cfg(board);
        c.fault_stop = true;
        let (m, stop) = run(&a, c);
        assert!(matches!(stop, Stop::FaultStop(ref f) if f.pc == a.addr("end")), "{:?}", stop);
        m.cyc
    };
    for board in [Board::VP_M3, Board::VP_M4] {
        let nops = cycles(board, &[NOP, NOP, IT_EQ, NOP]);
        assert_eq!(cycles(board, &[NOP, CBNZ_R2, IT_EQ, NOP]), nops, "{:?}: CBNZ right before the IT", board);
        assert_eq!(cycles(board, &[CBNZ_R2, NOP, IT_EQ, NOP]), nops, "{:?}: CBNZ two before the IT", board);
    }
}
