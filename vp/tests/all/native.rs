//! The native engine (cpu/native/) against the interpreter (cpu/check.rs), with every block
//! compiled at its first entry (`hot = 1`): the same state at every return from compiled code
//! on programs that use every inlined op, take interrupts at every phase of a compiled loop,
//! leave a block at a peripheral access or a fault, and run code in RAM; the checker reports
//! a planted difference.

use crate::support::command::{tmp_in, vp};
use crate::support::elfgen::from_flash;
use crate::support::engine_programs;
use crate::support::*;
use rtoslab_vp::cpu::check::{run_checked, Checked};
use rtoslab_vp::machine::{Config, Engine, Machine, Stop};
use rtoslab_vp::Board;

/// Run `a` checked: the native engine (built from `ca`) beside the interpreter (from `cb`).
fn checked(a: &Asm, ca: Config, cb: Config) -> (Machine, Checked) {
    let img = a.image();
    let mut native = Machine::new(ca, &img);
    native.engine = Engine::Native;
    native.native.hot = 1;
    let mut interp = Machine::new(cb, &img);
    interp.engine = Engine::Interpreter;
    let out = run_checked(&mut native, &mut interp);
    (native, out)
}

/// The native engine and the interpreter agree on `a`; also run each alone and compare the
/// counts (`run_checked` steps the engine; `run` is its own loop).
fn same(a: &Asm, c: Config) -> (Machine, Stop) {
    let (m, s) = match checked(a, c.clone(), c.clone()) {
        (m, Checked::Same(s)) => (m, s),
        (_, Checked::Differ(d)) => panic!("the engines differ: {}", d),
    };
    let mut n = Machine::new(c.clone(), &a.image());
    n.engine = Engine::Native;
    n.native.hot = 1;
    let mut r = Machine::new(c, &a.image());
    r.engine = Engine::Interpreter;
    assert_eq!(n.run(), r.run());
    assert_eq!((n.cyc, n.insns, &n.cpu), (r.cyc, r.insns, &r.cpu));
    (m, s)
}

/// A program whose timer interrupt fires at cycle `at` (r7: a RAM buffer); the caller's loop
/// follows.
fn timer_at(at: u32) -> Asm {
    let mut a = Asm::new();
    a.label("reset")
        .poke(NVIC_ISER, 1)
        .li(7, 0x2000_0400)
        .li(0, TIMER)
        .li(1, at)
        .i(str_i(1, 0, 4))
        .i(movs_i(1, 1))
        .i(str_i(1, 0, 8));
    a
}

/// The timer's handler (it exits) after the caller's loop; the engines agree on the program
/// and the native engine compiled something.
fn irq_exits_and_same(a: &mut Asm, board: Board) {
    a.label("irq").li(0, TIMER).i(ldr_i(1, 0, 12)).i(mov_hi(2, 13)).exit(0);
    a.vector(16, "irq");
    let (m, s) = same(a, cfg(board));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.native.built >= 1);
}

#[test]
fn every_inlined_op_computes_as_the_interpreter() {
    // 200 passes of a loop over every op the translator inlines, the values stirred by a
    // xorshift so that every flag takes both values; loads and stores in RAM and flash,
    // conditional branches of every condition inside the loop
    let mut a = Asm::new();
    a.label("reset").li(0, 0x1234_5679).li(6, 200).li(7, 0x2000_0400);
    a.label("loop")
        .i(lsls_i(1, 0, 13))
        .i(eors(0, 1))
        .i(lsrs_i(1, 0, 17))
        .i(eors(0, 1))
        .i(lsls_i(1, 0, 5))
        .i(eors(0, 1))
        .i(asrs_i(2, 0, 3))
        .i(adds_r(3, 2, 0))
        .i(subs_r(4, 3, 0))
        .i(adds_i3(4, 4, 7))
        .i(subs_i3(3, 3, 5))
        .i(adds_i8(2, 200))
        .i(subs_i8(2, 100))
        .i(cmp_i(2, 77))
        .i(ands(3, 0))
        .i(orrs(4, 0))
        .i(bics(4, 2))
        .i(mvns(5, 4))
        .i(tst(5, 0))
        .i(rsbs(5, 3))
        .i(cmp_r(5, 4))
        .i(cmn(4, 5))
        .i(muls(5, 0))
        .i(sxth(1, 0))
        .i(sxtb(2, 0))
        .i(uxth(3, 0))
        .i(uxtb(4, 0))
        .i(rev(1, 0))
        .i(rev16(2, 0))
        .i(revsh(3, 0))
        .i(add_hi(8, 0))
        .i(mov_hi(9, 8))
        .i(cmp_hi(9, 0))
        .i(lsrs_i(1, 0, 32))
        .i(asrs_i(2, 0, 32))
        .i(lsls_i(3, 0, 0));
    for (k, cond) in (0..14u16).enumerate() {
        let skip = format!("s{}", k);
        a.i(adds_r(1, 0, 6)).i(cmp_r(1, 5)).bc(cond, &skip).i(adds_i8(0, 1));
        a.label(&skip);
    }
    // r1: a word-aligned offset below 256
    a.i(uxtb(1, 0))
        .i(lsrs_i(1, 1, 2))
        .i(lsls_i(1, 1, 2))
        .i(str_r(0, 7, 1))
        .i(strh_i(0, 7, 2))
        .i(strb_i(0, 7, 5))
        .i(ldr_i(2, 7, 0))
        .i(ldrh_i(3, 7, 2))
        .i(ldrb_i(4, 7, 5))
        .i(ldrsb_r(5, 7, 1))
        .i(ldrsh_r(5, 7, 1))
        .i(ldr_r(5, 7, 1))
        .i(strh_r(5, 7, 1))
        .i(strb_r(5, 7, 1))
        .i(ldrh_r(5, 7, 1))
        .i(ldrb_r(5, 7, 1))
        .i(sub_sp(8))
        .i(str_sp(0, 4))
        .i(ldr_sp(1, 4))
        .i(add_rd_sp(2, 4))
        .i(add_sp(8))
        .i(ldr_lit(3, 1))
        .li(4, 0x100)
        .i(ldrh_i(5, 4, 2))
        .i(ldr_i(4, 4, 0))
        .i(adds_r(0, 0, 4))
        .i(adds_r(0, 0, 5))
        .i(subs_i8(6, 1))
        .bc(1, "loop")
        .exit(0);
    let (m, s) = same(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.native.built >= 15, "{} blocks compiled", m.native.built);
}

#[test]
fn an_interrupt_at_every_phase_of_a_compiled_loop_is_taken_at_the_same_cycle() {
    // the timer fires at each of 24 consecutive cycles inside a loop (it branches to its own
    // start, so it runs inside the compiled code) of ALU ops, a RAM store and load, and an
    // abandoned PUSH (a helper call)
    for k in 0..24u32 {
        let mut a = timer_at(3000 + k);
        a.label("loop")
            .i(adds_i8(3, 1))
            .i(lsls_i(4, 3, 2))
            .i(str_i(4, 7, 0))
            .i(ldr_i(5, 7, 0))
            .i(push(0xFF, true))
            .i(add_sp(36))
            .i(cmp_i(3, 0))
            .bc(1, "loop")
            .b("loop");
        irq_exits_and_same(&mut a, Board::VP_M0);
    }
}

#[test]
fn an_interrupt_at_every_phase_of_a_chained_loop_is_taken_at_the_same_cycle() {
    // a loop of four blocks compiled as one region (region.rs: B<cond> both ways, B back to
    // the head, a helper op in one of them); the timer fires at each of 40 consecutive cycles
    // covering every block's check point and the branches between them
    for k in 0..40u32 {
        let mut a = timer_at(3000 + k);
        a.label("loop").i(adds_i8(3, 1)).i(lsls_i(4, 3, 2)).i(str_i(4, 7, 0)).i(cmp_i(3, 0)).bc(1, "mid");
        a.b("loop");
        a.label("mid").i(ldr_i(5, 7, 0)).i(push(0x0F, false)).i(add_sp(16)).b("tail");
        a.label("tail").i(adds_i8(2, 3)).i(eors(2, 5)).b("loop");
        irq_exits_and_same(&mut a, Board::VP_M0);
    }
}

#[test]
fn a_block_left_at_a_peripheral_or_a_fault_goes_on_as_on_the_interpreter() {
    // a store to the timer and a load from it inside a block (they leave the compiled code),
    // then a load from an unmapped address: HardFault, whose handler exits
    let mut a = Asm::new();
    a.label("reset").li(0, TIMER).li(6, 20);
    a.label("loop")
        .i(adds_i8(3, 1))
        .i(str_i(3, 0, 4))
        .i(ldr_i(1, 0, 4))
        .i(adds_r(2, 2, 1))
        .i(subs_i8(6, 1))
        .bc(1, "loop")
        .li(5, 0x3000_0000)
        .i(movs_i(4, 9))
        .i(ldr_i(4, 5, 0))
        .i(movs_i(4, 1))
        .exit(1);
    a.label("hardfault").exit(7);
    a.vector(3, "hardfault");
    let (m, s) = same(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(7));
    assert_eq!(m.cpu.r[4], 9);
}

#[test]
fn code_in_ram_rewritten_between_calls_runs_as_written() {
    engine_programs::ram_code_runs_as_written(same);
}

#[test]
fn the_checker_reports_a_planted_difference() {
    engine_programs::a_planted_difference_is_reported(checked);
}

/// An ARMv7-M loop over the ops the translator inlines (thumb2.rs), assembled by GNU as
/// (arm-none-eabi-as, cortex-m3) from: a xorshift on r0 (EORS.W with shifted registers),
/// ADCS.W/SBCS.W with ROR/ASR, MOVS.W RRX and LSR #32, ADDS.W ASR #32, the immediate forms
/// (ANDS, ORRS with a rotated constant: carry from bit 31, BICS, EOR, RSBS, ADC), ORN, MVNS,
/// SUB.W, SBC.W, TEQ/TST/CMN/CMP.W, MRS (a helper op), MOVW/MOVT, UBFX/SBFX, BFI/BFC, CLZ,
/// RBIT, REV.W, SXTB.W ROR, UXTH.W, MUL/MLA/MLS, SUB.W/ADD.W SP; STR.W/LDR.W register-offset
/// LSL #2, STRH.W/LDRSH.W, STRB.W pre-indexed and LDRB.W post-indexed, LDR.W then pipelined
/// LDRs, a load whose base the ADDS just wrote (stall), STR; STR; STR.W (write buffer),
/// LDR.W literal, LDRSB.W, LDR [SP], STR.W [SP, #-8]! and LDR.W [SP], #8, PUSH/POP (helper),
/// CMP; ITE NE; MOVNE; ADDEQ, CBZ, CBNZ, SUBS r6 and BNE.W back: r0 the state, r1 the sum,
/// r6 the count, r7 a RAM buffer. It starts word-aligned (the literal load's offset) and ends
/// with B over its literal word (0x12345678) to the code after it.
#[rustfmt::skip]
const V7_LOOP: [u16; 146] = [
    0xEA90, 0x3040, 0xEA90, 0x4050, 0xEA90, 0x1040, 0xEB54, 0x14F0, 0xEB75, 0x05E0, 0xEA5F, 0x0230,
    0xF010, 0x03FF, 0xF050, 0x4400, 0xF430, 0x457F, 0xEA63, 0x0300, 0xF082, 0x0255, 0xEA7F, 0x03D0,
    0xEB01, 0x0302, 0xEBA3, 0x0380, 0xF1D0, 0x0264, 0xF142, 0x0207, 0xEB63, 0x0302, 0xEB11, 0x0123,
    0xEA5F, 0x0210, 0xEA90, 0x0F02, 0xF010, 0x0F10, 0xEB10, 0x0F02, 0xF1B3, 0x0F05, 0xF3EF, 0x8C00,
    0xEB01, 0x010C, 0xF241, 0x2334, 0xF6CA, 0x33CD, 0xF3C0, 0x1207, 0xF340, 0x02C8, 0xF360, 0x230B,
    0xF36F, 0x0302, 0xFAB0, 0xF280, 0xFA90, 0xF2A0, 0xFA90, 0xF380, 0xFA4F, 0xF290, 0xFA1F, 0xF380,
    0xFB00, 0xF203, 0xFB00, 0x3302, 0xFB00, 0x2213, 0xEB01, 0x0102, 0xF1AD, 0x0D10, 0xF10D, 0x0D10,
    0xF3C0, 0x0285, 0xF847, 0x0022, 0xF857, 0x3022, 0xEB01, 0x0103, 0xF8A7, 0x0006, 0xF9B7, 0x3006,
    0xEB01, 0x0103, 0xF807, 0x0D01, 0xF817, 0x3B01, 0xEB01, 0x0103, 0xF8D7, 0x3004, 0x68BC, 0x68FD,
    0x1D3A, 0x6813, 0x6038, 0x6079, 0xF8C7, 0x3008, 0xF8DF, 0x3038, 0xF997, 0x4003, 0x9D00, 0xF84D,
    0x1D08, 0xF85D, 0x4B08, 0xEB01, 0x0104, 0xB401, 0xBC01, 0x4288, 0xBF14, 0x2301, 0x3302, 0xEB01,
    0x0103, 0xB103, 0x3101, 0xF010, 0x0203, 0xB902, 0x3103, 0x3E01, 0xF47F, 0xAF72, 0xE002, 0xBF00,
    0x5678, 0x1234,
];

#[test]
fn every_inlined_armv7m_op_computes_and_times_as_the_interpreter() {
    for board in [Board::VP_M3, Board::VP_M4] {
        let mut a = Asm::new();
        a.label("reset").li(0, 0x1234_5679).li(6, 200).li(7, 0x2000_0400).i(movs_i(1, 0)).i(sub_sp(16)).align4();
        for hw in V7_LOOP {
            a.i(hw);
        }
        a.exit(0);
        let (m, s) = same(&a, cfg(board));
        assert_eq!(s, Stop::Exit(0));
        assert!(m.native.built >= 10, "{} blocks compiled", m.native.built);
    }
}

#[test]
fn an_interrupt_at_every_phase_of_a_compiled_armv7m_loop_is_taken_at_the_same_cycle() {
    // the timer fires at each of 40 consecutive cycles inside a loop of Thumb-2 data
    // processing, a buffered STR.W, a load behind it and a pipelined one, an IT block (ends a
    // block; runs on the interpreter's slow path), MLA, an abandoned PUSH (a helper call)
    for k in 0..40u32 {
        let mut a = timer_at(3000 + k);
        a.label("loop").i(adds_i8(3, 1));
        for hw in [0xEB03, 0x0483, 0xF8C7, 0x4004, 0xF8D7, 0x5004, 0x683D, 0x2B02, 0xBF0C, 0x2401, 0x2402] {
            a.i(hw);
        }
        a.i(0xFB03)
            .i(0x2204)
            .i(str_i(2, 7, 8))
            .i(push(0xFF, true))
            .i(add_sp(36))
            .i(cmp_i(3, 0))
            .bc(1, "loop")
            .b("loop");
        irq_exits_and_same(&mut a, Board::VP_M3);
    }
}

#[test]
fn the_checker_reports_a_planted_armv7m_difference() {
    // MLA in a compiled block: 2 cycles on the M3 (the native engine), 1 on the M4 (the
    // interpreter)
    let mut a = Asm::new();
    a.label("reset").i(movs_i(0, 3)).i(movs_i(1, 5)).i(0xFB00).i(0x1101).i(movs_i(2, 1)).b("next");
    a.label("next").exit(0);
    match checked(&a, cfg(Board::VP_M3), cfg(Board::VP_M4)) {
        (_, Checked::Differ(d)) => assert!(d.contains("cyc differs"), "{}", d),
        (_, Checked::Same(s)) => panic!("no difference found ({:?})", s),
    }
}

#[test]
fn native_and_its_check_on_the_command_line() {
    let mut a = Asm::new();
    a.data.push((0x800, b"hello\n\0".to_vec()));
    a.label("reset").li(1, 0x800).i(movs_i(0, 4)).i(bkpt(0xAB)).exit(3);
    let p = tmp_in("native", "hello.elf");
    std::fs::write(&p, from_flash(&a.image(), &[])).unwrap();
    let p = p.to_str().unwrap();
    let flag_sets: [&[&str]; 4] = [
        &["--native"],
        &["--native", "--check-blocks"],
        &["--native", "--native-hot", "1", "--check-blocks"],
        &["--native", "--board", "vp-m3"],
    ];
    for flags in flag_sets {
        let mut args = vec!["run", p];
        args.extend_from_slice(flags);
        let (st, out, err) = vp(&args);
        assert_eq!((st, out.as_str()), (3, "hello\n"), "{:?}: {}", flags, err);
    }
    let (st, _, err) = vp(&["run", p, "--native", "--blocks"]);
    assert_eq!(st, 2, "{}", err);
}
