//! The flash systems' calibration programs (docs/board.md, "The flash systems"): tiny
//! programs whose cost on a board with wait states, minus their cost on the same core at zero
//! wait states, is what the reference manual's rules predict. Measuring the difference keeps
//! the figures independent of the core's own instruction timings.
//!
//! The loop program: r3 = 2; loop (line-aligned): toggle, NOP, BL body, toggle (8 bytes on:
//! a new line but on the STM32F4), SUBS, BNE loop;
//! body (far away, line-aligned): `n` instructions, BX LR. Each iteration's figure is the
//! cycles between its two toggles.

use crate::support::*;
use rtoslab_vp::Board;

const NOP_W: [u16; 2] = [0xF3AF, 0x8000];

/// Per-iteration figures (two iterations) of the loop program with `body` as the called code.
fn loop_figures(board: Board, line: u32, body: &dyn Fn(&mut Asm)) -> Vec<u64> {
    let mut a = Asm::new();
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(3, 2));
    a.align(line).label("loop");
    a.i(str_i(4, 6, 0)).i(NOP).bl("body");
    a.i(str_i(5, 6, 0)).i(subs_i8(3, 1)).bc(1, "loop");
    a.exit(0);
    // far from the loop: not the line after it, which the prefetch reads
    a.n(NOP, 64).align(line).label("body");
    body(&mut a);
    a.i(bx(14));
    let (m, stop) = run(&a, cfg(board));
    let p = probe_cycles(&m);
    assert_eq!(p.len(), 4, "expected four toggles, got {:?} (stop {:?})", p, stop);
    vec![p[1] - p[0], p[3] - p[2]]
}

/// What the flash system adds to each iteration: the board's figures minus the same core's at
/// zero wait states.
fn flash_cost(board: Board, zero_ws: Board, line: u32, body: &dyn Fn(&mut Asm)) -> Vec<u64> {
    let with = loop_figures(board, line, body);
    let without = loop_figures(zero_ws, line, body);
    with.iter().zip(&without).map(|(w, z)| w - z).collect()
}

fn nops_w(n: usize) -> impl Fn(&mut Asm) {
    move |a: &mut Asm| {
        for _ in 0..n {
            a.w(NOP_W);
        }
    }
}

// ---- vp-stm32f0: 4-byte lines, 1 wait state, a prefetch buffer of 3 blocks (RM0091 3.2) ----

#[test]
fn stm32f0_call_and_return_miss_sequential_code_runs_free() {
    // BL to a line not in the buffer: +1; 16 NOPs: two per word, 2 cycles per 2-cycle read,
    // no stall; BX LR back to the loop (its words left the buffer): +1.
    let body = |a: &mut Asm| {
        a.n(NOP, 16);
    };
    assert_eq!(flash_cost(Board::VP_STM32F0, Board::VP_M0, 4, &body), vec![2, 2]);
}

#[test]
fn stm32f0_branch_back_into_the_buffer_costs_nothing() {
    // A loop over two words: the backward branch goes to the word before the current one,
    // which the third block still holds (RM0091: three blocks). 10 iterations, then return.
    let body = |a: &mut Asm| {
        a.i(movs_i(2, 10)).align(4).label("back").i(NOP).i(subs_i8(2, 1)).bc(1, "back").i(NOP);
    };
    // +1 for the call, +1 for the return; the ten backward branches hit
    assert_eq!(flash_cost(Board::VP_STM32F0, Board::VP_M0, 4, &body), vec![2, 2]);
}

#[test]
fn stm32f0_flash_data_load_pays_the_wait_state() {
    // Two literal loads from a far constant: +1 each (a data read of the flash).
    let body = |a: &mut Asm| {
        a.i(ldr_lit(0, 100)).i(ldr_lit(1, 100));
    };
    assert_eq!(flash_cost(Board::VP_STM32F0, Board::VP_M0, 4, &body), vec![4, 4]);
}

// ---- vp-stm32f103: 8-byte lines, 2 wait states, two prefetch blocks (RM0008 3.3.3) ----

#[test]
fn stm32f103_32_bit_code_waits_one_cycle_per_line() {
    // BL: +2; 16 NOP.W: two per 8-byte line take 2 cycles, the next line's read 3, so each of
    // the 8 lines after the first (the last holds the BX) waits 1; BX LR back: +2.
    assert_eq!(flash_cost(Board::VP_STM32F103, Board::VP_M3, 8, &nops_w(16)), vec![2 + 8 + 2, 2 + 8 + 2]);
}

#[test]
fn stm32f103_16_bit_code_runs_free() {
    // four 16-bit NOPs per line take 4 cycles, more than a read's 3: only the call and the
    // return pay
    let body = |a: &mut Asm| {
        a.n(NOP, 32);
    };
    assert_eq!(flash_cost(Board::VP_STM32F103, Board::VP_M3, 8, &body), vec![4, 4]);
}

#[test]
fn stm32f103_literal_load_goes_before_the_prefetch() {
    // "DCode bus accesses have priority over prefetch accesses" (RM0008 "Read operations", the
    // text RM0364 section 3.2.2 repeats): BL: +2; LDR.W r0, [pc, #256] first in the body's
    // line: +2, and its read goes before the read-ahead of the next line begun when the line
    // was entered, which is then in 3 + 3 cycles; the LDR.W (4) and a NOP.W (1) reach the
    // next line one cycle before that: +1; four NOPs there (4 cycles, the read of the line
    // after takes 3), BX LR back: +2.
    let body = |a: &mut Asm| {
        a.w([0xF8DF, 0x0100]).w(NOP_W).n(NOP, 4);
    };
    assert_eq!(flash_cost(Board::VP_STM32F103, Board::VP_M3, 8, &body), vec![2 + 2 + 1 + 2, 2 + 2 + 1 + 2]);
}

// ---- vp-stm32f407: 16-byte lines, 5 wait states, ART accelerator (RM0090 3.4-3.5) ----

#[test]
fn stm32f407_first_pass_misses_second_pass_hits_the_cache() {
    // First iteration: BL misses (+5); 16 NOP.W, four per 16-byte line, take 4 cycles where
    // a read takes 6: each of the 4 lines after the first (the last holds the BX) waits 2; the
    // return finds the loop's line in the instruction cache. Second iteration: every line is cached: nothing.
    assert_eq!(flash_cost(Board::VP_STM32F407, Board::VP_M4, 16, &nops_w(16)), vec![5 + 8, 0]);
}

#[test]
fn stm32f407_data_cache_holds_a_literal() {
    // The first literal load misses the data cache (+5), the second (same line) hits.
    let body = |a: &mut Asm| {
        a.i(ldr_lit(0, 100)).i(ldr_lit(1, 100));
    };
    let c = flash_cost(Board::VP_STM32F407, Board::VP_M4, 16, &body);
    // +5 for the call's miss and +5 for the literal's, in the first iteration only
    assert_eq!(c, vec![5 + 5, 0]);
}
