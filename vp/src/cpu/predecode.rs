//! The predecoded flash: every flash halfword decoded once, with the instruction set of the
//! board's core, into the table the loop fetches from (`Cpu::ops`).

use crate::board::Arch;
use crate::bus::Bus;
use crate::contract::FLASH_SIZE;
use crate::cpu::decode::{decode, Op};
use crate::cpu::thumb2::decode::decode_v7;
use crate::cpu::thumb2::quiet::quiet_records;

/// Decode every flash halfword once. Flash never changes after loading, so the table stays
/// valid for the whole run; a 32-bit instruction is decoded at its first halfword and its
/// second halfword gets its own (16-bit) decoding in case code jumps there.
pub fn predecode<B: Bus>(mem: &B, arch: Arch) -> Box<[Op]> {
    let n = (FLASH_SIZE / 2) as usize;
    let mut ops = Vec::with_capacity(n);
    for i in 0..n {
        let pc = (i * 2) as u32;
        let hw = mem.flash_half(pc);
        let hw2 = mem.flash_half(pc.wrapping_add(2));
        ops.push(decode_for(arch, pc, hw, hw2));
    }
    if arch == Arch::V7M {
        quiet_records(&mut ops);
    }
    ops.into_boxed_slice()
}

/// Decode with the instruction set of `arch` (also the slow path's, for code in RAM).
#[inline]
pub fn decode_for(arch: Arch, pc: u32, hw: u16, hw2: u16) -> Op {
    match arch {
        Arch::V6M => decode(pc, hw, hw2),
        Arch::V7M => decode_v7(pc, hw, hw2),
    }
}
