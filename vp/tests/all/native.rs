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
        let mut a = Asm::new();
        a.label("reset")
            .poke(NVIC_ISER, 1)
            .li(7, 0x2000_0400)
            .li(0, TIMER)
            .li(1, 3000 + k)
            .i(str_i(1, 0, 4))
            .i(movs_i(1, 1))
            .i(str_i(1, 0, 8));
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
        a.label("irq").li(0, TIMER).i(ldr_i(1, 0, 12)).i(mov_hi(2, 13)).exit(0);
        a.vector(16, "irq");
        let (m, s) = same(&a, cfg(Board::VP_M0));
        assert_eq!(s, Stop::Exit(0));
        assert!(m.native.built >= 1);
    }
}

#[test]
fn an_interrupt_at_every_phase_of_a_chained_loop_is_taken_at_the_same_cycle() {
    // a loop of four blocks compiled as one region (region.rs: B<cond> both ways, B back to
    // the head, a helper op in one of them); the timer fires at each of 40 consecutive cycles
    // covering every block's check point and the branches between them
    for k in 0..40u32 {
        let mut a = Asm::new();
        a.label("reset")
            .poke(NVIC_ISER, 1)
            .li(7, 0x2000_0400)
            .li(0, TIMER)
            .li(1, 3000 + k)
            .i(str_i(1, 0, 4))
            .i(movs_i(1, 1))
            .i(str_i(1, 0, 8));
        a.label("loop").i(adds_i8(3, 1)).i(lsls_i(4, 3, 2)).i(str_i(4, 7, 0)).i(cmp_i(3, 0)).bc(1, "mid");
        a.b("loop");
        a.label("mid").i(ldr_i(5, 7, 0)).i(push(0x0F, false)).i(add_sp(16)).b("tail");
        a.label("tail").i(adds_i8(2, 3)).i(eors(2, 5)).b("loop");
        a.label("irq").li(0, TIMER).i(ldr_i(1, 0, 12)).i(mov_hi(2, 13)).exit(0);
        a.vector(16, "irq");
        let (m, s) = same(&a, cfg(Board::VP_M0));
        assert_eq!(s, Stop::Exit(0));
        assert!(m.native.built >= 1);
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
