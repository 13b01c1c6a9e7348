//! Programs that every execution engine's tests run (the block engine, `blocks.rs`; the native
//! engine, `native.rs`): each engine must give the interpreter's result on them.
use super::thumb::*;

/// Code written into RAM and called, then rewritten in place and called again ("movs r0, #42;
/// bx lr", then "movs r0, #7; bx lr"): an engine that caches code in RAM runs the old copy.
/// Ends with EXIT 0, r6 = 42 and r7 = 7.
pub fn ram_code_rewritten_between_calls() -> Asm {
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

/// A MULS in a block: run on two machines whose multiplier differs (1 and 32 cycles), the
/// checker must report the cycle difference.
pub fn a_multiply() -> Asm {
    let mut a = Asm::new();
    a.label("reset").i(movs_i(0, 3)).i(movs_i(1, 5)).i(muls(0, 1)).i(movs_i(2, 1)).b("next");
    a.label("next").exit(0);
    a
}
