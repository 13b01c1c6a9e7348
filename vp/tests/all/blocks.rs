//! The block engine (cpu/block.rs) against the interpreter (cpu/check.rs): the same state
//! at every block end on programs where a block can be cut short (interrupts at every phase,
//! code in RAM rewritten between calls), and the checker reports a difference when there is
//! one. (Every other test of this binary runs the block engine too: `run` uses it.)

use crate::support::command::{tmp_in, vp};
use crate::support::elfgen::from_flash;
use crate::support::engine_programs;
use crate::support::*;
use rtoslab_vp::cpu::check::{run_checked, Checked};
use rtoslab_vp::machine::{Config, Engine, Machine, Stop};
use rtoslab_vp::Board;

/// Run `a` checked (block engine beside the interpreter, built from `ca` and `cb`).
fn checked(a: &Asm, ca: Config, cb: Config) -> (Machine, Checked) {
    let img = a.image();
    let mut blocks = Machine::new(ca, &img);
    let mut interp = Machine::new(cb, &img);
    interp.engine = Engine::Interpreter;
    let out = run_checked(&mut blocks, &mut interp);
    (blocks, out)
}

fn same(a: &Asm, c: Config) -> (Machine, Stop) {
    match checked(a, c.clone(), c) {
        (m, Checked::Same(s)) => (m, s),
        (_, Checked::Differ(d)) => panic!("the engines differ: {}", d),
    }
}

#[test]
fn an_interrupt_at_every_phase_of_a_block_is_taken_at_the_same_cycle() {
    // the timer fires at each of 14 consecutive cycles inside a loop of ALU ops and an
    // abandoned PUSH, on the M0 and the M3
    for board in [Board::VP_M0, Board::VP_M3] {
        for k in 0..14u32 {
            let mut a = Asm::new();
            a.label("reset")
                .poke(NVIC_ISER, 1)
                .li(0, TIMER)
                .li(1, 2000 + k)
                .i(str_i(1, 0, 4))
                .i(movs_i(1, 1))
                .i(str_i(1, 0, 8));
            a.label("loop").i(adds_i8(3, 1)).i(lsls_i(4, 3, 2)).i(push(0xFF, true)).i(add_sp(36)).b("loop");
            a.label("irq").li(0, TIMER).i(ldr_i(1, 0, 12)).i(mov_hi(2, 13)).exit(0);
            a.vector(16, "irq");
            let (m, s) = same(&a, cfg(board));
            assert_eq!(s, Stop::Exit(0));
            let mut r = Machine::new(cfg(board), &a.image());
            r.engine = Engine::Interpreter;
            assert_eq!(r.run(), Stop::Exit(0));
            assert_eq!((m.cyc, m.insns), (r.cyc, r.insns));
        }
    }
}

#[test]
fn code_in_ram_rewritten_between_calls_runs_as_written() {
    engine_programs::ram_code_runs_as_written(same);
}

#[test]
fn the_checker_reports_the_first_difference() {
    engine_programs::a_planted_difference_is_reported(checked);
}

#[test]
fn check_blocks_and_interpreter_on_the_command_line() {
    let mut a = Asm::new();
    a.data.push((0x800, b"hello\n\0".to_vec()));
    a.label("reset").li(1, 0x800).i(movs_i(0, 4)).i(bkpt(0xAB)).exit(3);
    let p = tmp_in("blocks", "hello.elf");
    std::fs::write(&p, from_flash(&a.image(), &[])).unwrap();
    let p = p.to_str().unwrap();
    for flag in ["--check-blocks", "--interpreter", "--blocks"] {
        let (st, out, err) = vp(&["run", p, flag]);
        assert_eq!((st, out.as_str()), (3, "hello\n"), "{}: {}", flag, err);
    }
    let (st, _, err) = vp(&["run", p, "--check-blocks", "--gdb", "0"]);
    assert_eq!(st, 2);
    assert_eq!(err.trim().lines().count(), 1, "{}", err);
}
