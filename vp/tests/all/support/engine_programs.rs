//! Checks that every execution engine's tests run (the block engine, `blocks.rs`; the native
//! engine, `native.rs`), each given the file's own way to run an engine: `same` (the engine
//! beside the interpreter, which must agree) or `checked` (the checker's verdict).
use super::cfg;
use super::thumb::*;
use rtoslab_vp::cpu::check::Checked;
use rtoslab_vp::machine::{Config, Machine, Stop};
use rtoslab_vp::Board;

/// Code in RAM rewritten between two calls runs as written (the engine caches no RAM code).
pub fn ram_code_runs_as_written(same: impl Fn(&Asm, Config) -> (Machine, Stop)) {
    let (m, s) = same(&ram_code_rewritten_between_calls(), cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!((m.cpu.r[6], m.cpu.r[7]), (42, 7));
}

/// The checker reports a difference planted on purpose: MULS takes 1 cycle on one machine, 32
/// on the other.
pub fn a_planted_difference_is_reported(checked: impl Fn(&Asm, Config, Config) -> (Machine, Checked)) {
    let fast = cfg(Board::VP_M0);
    let slow = Config { mul_cycles: 32, ..cfg(Board::VP_M0) };
    match checked(&a_multiply(), fast, slow) {
        (_, Checked::Differ(d)) => assert!(d.contains("cyc differs"), "{}", d),
        (_, Checked::Same(s)) => panic!("no difference found ({:?})", s),
    }
}

/// Code written into RAM and called, then rewritten in place and called again ("movs r0, #42;
/// bx lr", then "movs r0, #7; bx lr"): an engine that caches code in RAM runs the old copy.
/// Ends with EXIT 0, r6 = 42 and r7 = 7.
fn ram_code_rewritten_between_calls() -> Asm {
    let mut a = Asm::new();
    a.label("reset")
        .li(5, 0x2000_0100)
        .li(1, 0x4770_202A)
        .i(str_i(1, 5, 0))
        .i(adds_i8(5, 1))
        .i(blx(5))
        .i(mov_hi(6, 0))
        .i(subs_i8(5, 1))
        .li(1, 0x4770_2007)
        .i(str_i(1, 5, 0))
        .i(adds_i8(5, 1))
        .i(blx(5))
        .i(mov_hi(7, 0))
        .exit(0);
    a
}

/// A MULS in a block.
fn a_multiply() -> Asm {
    let mut a = Asm::new();
    a.label("reset").i(movs_i(0, 3)).i(movs_i(1, 5)).i(muls(0, 1)).i(movs_i(2, 1)).b("next");
    a.label("next").exit(0);
    a
}
