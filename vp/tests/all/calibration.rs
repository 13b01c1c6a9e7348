//! The calibration table of docs/board.md (the contract), reproduced exactly: each scenario is a
//! tiny image and the figure is the difference between the completion cycles of two probe
//! toggles (a 2-cycle STR to PROBE_OUT with address and value already in registers).

use crate::support::*;
use rtoslab_vp::Board;

/// r6 = PROBE_OUT, r4/r5/r7 = distinct pin values so every toggle is an edge.
fn setup(a: &mut Asm) {
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(7, 3));
}

fn figure(a: &Asm, board: Board) -> u64 {
    let (m, stop) = run(a, cfg(board));
    let p = probe_cycles(&m);
    assert!(p.len() >= 2, "expected two toggles, got {:?} (stop {:?})", p, stop);
    p[1] - p[0]
}

fn toggle_toggle() -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(str_i(4, 6, 0)).i(str_i(5, 6, 0)).exit(0);
    a
}

fn pendsv() -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.li(0, ICSR).li(1, 1 << 28);
    a.i(str_i(4, 6, 0)).i(str_i(1, 0, 0)).n(NOP, 30).exit(1);
    a.label("pendsv").i(str_i(5, 6, 0)).exit(0);
    a.vector(14, "pendsv");
    a
}

fn svc_entry() -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(str_i(4, 6, 0)).i(svc(0)).exit(1);
    a.label("svc").i(str_i(5, 6, 0)).exit(0);
    a.vector(11, "svc");
    a
}

fn exc_return() -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(svc(0)).i(str_i(7, 6, 0)).exit(0);
    a.label("svc").i(str_i(5, 6, 0)).i(bx(14));
    a.vector(11, "svc");
    a
}

fn tail_chain() -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(SHPR3, 0x00C0_0000); // PendSV at the lowest priority
    a.i(svc(0)).exit(1);
    a.label("svc").li(0, ICSR).li(1, 1 << 28).i(str_i(1, 0, 0)).n(NOP, 4);
    a.i(str_i(5, 6, 0)).i(bx(14));
    a.label("pendsv").i(str_i(7, 6, 0)).exit(0);
    a.vector(11, "svc").vector(14, "pendsv");
    a
}

fn systick(n: u32) -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(SYST_RVR, n).poke(SYST_CVR, 0);
    a.li(0, SYST_CSR).i(movs_i(1, 7));
    a.i(str_i(4, 6, 0)).i(str_i(1, 0, 0)).n(NOP, n as usize + 60).exit(1);
    a.label("systick").i(str_i(5, 6, 0)).exit(0);
    a.vector(15, "systick");
    a
}

#[test]
fn toggle_then_toggle_is_2() {
    assert_eq!(figure(&toggle_toggle(), Board::VP_M0), 2);
}

#[test]
fn pendsv_set_to_handler_toggle_is_21() {
    assert_eq!(figure(&pendsv(), Board::VP_M0), 21);
}

#[test]
fn svc_to_handler_toggle_is_20() {
    assert_eq!(figure(&svc_entry(), Board::VP_M0), 20);
}

#[test]
fn exception_return_to_thread_toggle_is_18() {
    assert_eq!(figure(&exc_return(), Board::VP_M0), 18);
}

#[test]
fn tail_chain_to_handler_toggle_is_17() {
    assert_eq!(figure(&tail_chain(), Board::VP_M0), 17);
}

#[test]
fn systick_enable_to_handler_toggle() {
    assert_eq!(figure(&systick(2), Board::VP_M0), 26 + 2);
    for n in [3u32, 4, 5, 10, 100, 1000] {
        assert_eq!(figure(&systick(n), Board::VP_M0), 25 + n as u64, "N = {}", n);
    }
}

#[test]
fn peripheral_line_to_handler_is_16() {
    // Compare timer fires at a known cycle; the first handler instruction starts 16 later.
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(NVIC_ISER, 1);
    a.li(0, TIMER).li(1, 1000).i(str_i(1, 0, 4)).i(movs_i(1, 1)).i(str_i(1, 0, 8));
    a.label("spin").n(NOP, 8).b("spin");
    a.label("irq").i(str_i(5, 6, 0)).exit(0);
    a.vector(16, "irq");
    let (m, _) = run(&a, cfg(Board::VP_M0));
    let p = probe_cycles(&m);
    // The handler's toggle completes 2 cycles after it starts: 1000 + 16 + 2.
    assert_eq!(p, vec![1018]);
}

// ---- vp-stm32f0: 4-byte flash lines, one wait state, a prefetch buffer of three blocks ----
// (docs/board.md "The flash systems"; vp/tests/all/calibration_flash.rs has its own programs).
// A jump to a line the buffer does not hold costs one more; the tail chain's PendSV handler
// starts in the word after the returning BX's, which the prefetch has already read.

#[test]
fn stm32f0_figures() {
    let b = Board::VP_STM32F0;
    assert_eq!(figure(&toggle_toggle(), b), 2);
    assert_eq!(figure(&pendsv(), b), 22);
    assert_eq!(figure(&svc_entry(), b), 21);
    assert_eq!(figure(&exc_return(), b), 19);
    assert_eq!(figure(&tail_chain(), b), 17);
    assert_eq!(figure(&systick(2), b), 29);
    assert_eq!(figure(&systick(10), b), 36);
}

fn branch_and_literal(board: Board) -> (u64, u64, u64) {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(str_i(4, 6, 0)).b("t1").i(NOP).label("t1").i(str_i(5, 6, 0));
    a.align4().i(ldr_lit(0, 1)).i(str_i(7, 6, 0)).b("over").align4().label("lit").i(0x1234).i(0).label("over");
    a.li(1, 0x2000_0000).i(ldr_i(2, 1, 0)).i(str_i(4, 6, 0)).exit(0);
    let (m, _) = run(&a, cfg(board));
    let p = probe_cycles(&m);
    assert_eq!(p.len(), 4, "{:?}", p);
    (p[1] - p[0], p[2] - p[1], 0)
}

#[test]
fn stm32f0_short_branch_is_free_flash_load_costs_one_more() {
    let (b0, l0, _) = branch_and_literal(Board::VP_M0);
    let (b1, l1, _) = branch_and_literal(Board::VP_STM32F0);
    // the B skips one NOP into the next word, which the prefetch buffer holds
    assert_eq!(b0, 3 + 2);
    assert_eq!(b1, 3 + 2);
    // LDR literal (2, +1 from flash) then the toggle (2).
    assert_eq!(l0, 2 + 2);
    assert_eq!(l1, 3 + 2);
}
