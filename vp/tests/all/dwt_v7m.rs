//! The DWT cycle counter of the ARMv7-M boards (docs/board.md "vp-m3 and vp-m4"): CYCCNT
//! advances by exactly the cycles of the instructions between two reads, only while
//! DEMCR.TRCENA and DWT_CTRL.CYCCNTENA are both set, and vp-m0 has no DWT at all.

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::Board;

const DEMCR: u32 = 0xE000_EDFC;
const TRCENA: u32 = 1 << 24;
const DWT_CTRL: u32 = 0xE000_1000;
const DWT_CYCCNT: u32 = 0xE000_1004;
const LAB_CYCLE_LO: u32 = 0x4F00_0004;

/// Enables per (TRCENA, CYCCNTENA), then r2 = CYCCNT, `body`, r3 = CYCCNT, r4 = DWT_CTRL,
/// r5 = DEMCR. Returns the machine (r2..r5 hold the reads).
fn counted(board: Board, trcena: bool, cyccntena: bool, body: &[u16]) -> rtoslab_vp::Machine {
    let mut a = Asm::new();
    a.label("reset");
    a.poke(DEMCR, if trcena { TRCENA } else { 0 }).poke(DWT_CTRL, cyccntena as u32);
    a.li(7, DWT_CYCCNT).i(ldr_i(2, 7, 0));
    for hw in body {
        a.i(*hw);
    }
    a.i(ldr_i(3, 7, 0)).li(7, DWT_CTRL).i(ldr_i(4, 7, 0)).li(7, DEMCR).i(ldr_i(5, 7, 0));
    a.exit(0);
    let (m, stop) = run(&a, cfg(board));
    assert_eq!(stop, Stop::Exit(0), "on {}", board);
    m
}

/// (what, halfwords, cycles per docs/board.md's ARMv7-M table).
#[rustfmt::skip]
const BODIES: &[(&str, &[u16], u32)] = &[
    ("nothing", &[], 0),
    ("4 NOPs", &[0xBF00, 0xBF00, 0xBF00, 0xBF00], 4),
    ("MOVW r1, #100; MOVS r6, #10; UDIV r1, r1, r6 (1 + 1 + 4)", &[0xF240, 0x0164, 0x260A, 0xFBB1, 0xF1F6], 6),
    ("B.W next (1 + P, forwarded: 2)", &[0xF000, 0xB800], 2),
    // pipelined behind the CYCCNT read (TRM "Load/store timings"): 1, not 2
    ("LDR r1, [r7] (1)", &[0x6839], 1),
];

#[test]
fn cyccnt_advances_by_the_cycles_between_two_reads() {
    for board in [Board::VP_M3, Board::VP_M4] {
        for (what, body, cycles) in BODIES {
            let m = counted(board, true, true, body);
            // the first read samples at the start of its 2-cycle LDR
            assert_eq!(m.cpu.r[3].wrapping_sub(m.cpu.r[2]), 2 + cycles, "{} on {}", what, board);
            assert_ne!(m.cpu.r[2], 0, "CYCCNT counted since it was enabled ({} on {})", what, board);
            assert_eq!(m.cpu.r[4], 0x0D00_0001, "DWT_CTRL: NOCYCCNT 0, CYCCNTENA 1 on {}", board);
            assert_eq!(m.cpu.r[5], TRCENA, "DEMCR on {}", board);
        }
    }
}

#[test]
fn cyccnt_agrees_with_the_lab_cycle_counter() {
    // CYCCNT and LAB_CYCLE_LO read back to back twice: both advance by the same amount.
    let mut a = Asm::new();
    a.label("reset").poke(DEMCR, TRCENA).poke(DWT_CTRL, 1);
    a.li(6, LAB_CYCLE_LO).li(7, DWT_CYCCNT);
    a.i(ldr_i(2, 7, 0)).i(ldr_i(3, 6, 0)).n(0xBF00, 37).i(ldr_i(4, 7, 0)).i(ldr_i(5, 6, 0)).exit(0);
    let (m, stop) = run(&a, cfg(Board::VP_M3));
    assert_eq!(stop, Stop::Exit(0));
    assert_eq!(m.cpu.r[4].wrapping_sub(m.cpu.r[2]), m.cpu.r[5].wrapping_sub(m.cpu.r[3]));
    // the lab-counter LDR is pipelined behind the CYCCNT LDR: 2 + 1, then the NOPs
    assert_eq!(m.cpu.r[4].wrapping_sub(m.cpu.r[2]), 2 + 1 + 37);
}

#[test]
fn cyccnt_stops_without_either_enable() {
    for (trcena, cyccntena) in [(false, true), (true, false), (false, false)] {
        let m = counted(Board::VP_M3, trcena, cyccntena, &[0xBF00, 0xBF00]);
        assert_eq!((m.cpu.r[2], m.cpu.r[3]), (0, 0), "TRCENA {} CYCCNTENA {}", trcena, cyccntena);
        assert_eq!(m.cpu.r[4], 0x0D00_0000 | cyccntena as u32);
    }
}

#[test]
fn cyccnt_is_writable_and_wraps() {
    // CYCCNT = 0xFFFFFFFE, then read: the store completes 2 cycles after it starts, the read
    // starts at that cycle, so it sees the written value; 2 + 3 cycles later it has wrapped.
    let mut a = Asm::new();
    a.label("reset").poke(DEMCR, TRCENA).poke(DWT_CTRL, 1);
    a.li(7, DWT_CYCCNT).li(1, 0xFFFF_FFFE).i(str_i(1, 7, 0));
    a.i(ldr_i(2, 7, 0)).n(0xBF00, 3).i(ldr_i(3, 7, 0)).exit(0);
    let (m, stop) = run(&a, cfg(Board::VP_M3));
    assert_eq!(stop, Stop::Exit(0));
    assert_eq!((m.cpu.r[2], m.cpu.r[3]), (0xFFFF_FFFE, 3));
}

#[test]
fn vp_m0_has_no_dwt() {
    // the read faults as an unmapped address, as before; DEMCR stays a read-as-zero register
    let mut a = Asm::new();
    a.label("reset").poke(DEMCR, TRCENA).li(7, DEMCR).i(ldr_i(5, 7, 0));
    a.li(7, DWT_CYCCNT).i(ldr_i(2, 7, 0)).exit(0);
    a.label("hardfault").exit(3);
    a.vector(3, "hardfault");
    for board in [Board::VP_M0, Board::VP_STM32F0] {
        let (m, stop) = run(&a, cfg(board));
        assert_eq!(stop, Stop::Exit(3), "on {}", board);
        assert_eq!(m.cpu.r[5], 0, "DEMCR on {}", board);
        let why = &m.last_fault.as_ref().unwrap().reason;
        assert_eq!(why, "4-byte read at 0xe0001004: unmapped address", "on {}", board);
    }
    assert_eq!(run(&a, cfg(Board::VP_M3)).1, Stop::Exit(0));
}
