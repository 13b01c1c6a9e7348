//! The predecode pass that lets record writers skip the pipeline record (src/cpu/thumb2/
//! quiet.rs) never changes timing: random straight-line mixes of data-processing
//! instructions, single loads and stores (pipelining behind loads, the no-forwarding stall
//! behind an address register just written) take exactly the cycles, and leave exactly the
//! registers, that the same code takes with the unmarked op table (every writer recording,
//! as in RAM).

use crate::support::*;
use rtoslab_vp::board::Arch;
use rtoslab_vp::cpu::predecode::decode_for;
use rtoslab_vp::Board;

/// A small deterministic generator (the test must not depend on a crate or the clock).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as u32) % n
    }
}

/// One random instruction. r0 is the address register (a RAM buffer, kept in range: it only
/// moves by a few words), r8 a copy of its start; r1-r3 take the data.
fn random_insn(g: &mut Lcg) -> Vec<u16> {
    let (rd, rn, rm) = (1 + g.next(3) as u16, 1 + g.next(3) as u16, 1 + g.next(3) as u16);
    let off = 4 * g.next(8) as u16;
    match g.next(22) {
        0 => vec![adds_r(rd, rn, rm)],
        1 => vec![subs_i3(rd, rn, 3)],
        2 => vec![movs_i(rd, g.next(256) as u16)],
        3 => vec![eors(rd, rm)],
        4 => vec![lsls_i(rd, rm, 3)],
        5 => vec![cmp_i(rn, 7)],
        6 => vec![adds_i8(0, 4)],                         // address register written
        7 => vec![subs_i8(0, 4)],                         // (16-bit, flags)
        8 => vec![0xF100, 0x0008],                        // ADD.W r0, r0, #8
        9 => vec![mov_hi(0, 8)],                          // MOV r0, r8
        10 => vec![0xEB00 | rn, (rd << 8) | rm],          // ADD.W rd, rn, rm
        11 => vec![0xEA00 | rn, (rd << 8) | 0x0080 | rm], // AND.W rd, rn, rm, LSL #2
        12 => vec![0xF3C0 | rn, 0x1007 | (rd << 8)],      // UBFX rd, rn, #4, #8
        13 => vec![0xFB00 | rn, 0xF000 | (rd << 8) | rm], // MUL rd, rn, rm
        14 => vec![ldr_i(rd, 0, off)],                    // LDR rd, [r0, #off]
        15 => vec![str_i(rd, 0, off)],                    // STR rd, [r0, #off]
        16 => vec![0xF8D0, (rd << 12) | off],             // LDR.W rd, [r0, #off]
        17 => vec![0xF850, (rd << 12) | 0x0C00 | 4],      // LDR rd, [r0, #-4]
        18 => vec![0xF850, (rd << 12) | 0x0B00 | 4],      // LDR rd, [r0], #4
        19 => vec![0xF850, (rd << 12) | 0x0D00 | 4],      // LDR rd, [r0, #-4]!
        20 => vec![0xF840, (rd << 12) | 0x0900 | 4],      // STR rd, [r0], #-4
        _ => vec![0xF890, (rd << 12) | off],              // LDRB.W rd, [r0, #off]
    }
}

/// The probe-toggle cycles and final registers of `body` on `board`, with the predecoded
/// table as the simulator builds it (`quiet`) or rebuilt without the pass.
fn run_body(board: Board, body: &[u16], quiet: bool) -> (Vec<u64>, [u32; 16], usize) {
    let mut a = Asm::new();
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2));
    a.li(0, 0x2000_0200).i(mov_hi(8, 0)).li(1, 0x1234_5678).li(2, 3).li(3, 0x8000_0001);
    a.i(str_i(4, 6, 0));
    for hw in body {
        a.i(*hw);
    }
    a.i(NOP).i(str_i(5, 6, 0)).exit(0);
    let mut m = machine(&a, cfg(board));
    let unmarked: Vec<_> = (0..m.ops.len())
        .map(|i| {
            let pc = 2 * i as u32;
            decode_for(Arch::V7M, pc, m.bus.mem.flash_half(pc), m.bus.mem.flash_half(pc + 2))
        })
        .collect();
    let marked = m.ops.iter().zip(&unmarked).filter(|(a, b)| a != b).count();
    if !quiet {
        m.ops = unmarked.into_boxed_slice();
    }
    m.run();
    (probe_cycles(&m), m.cpu.r, marked)
}

#[test]
fn marking_never_changes_timing_or_results() {
    let mut g = Lcg(1);
    let mut marked_programs = 0;
    for board in [Board::VP_M3, Board::VP_M4] {
        for _ in 0..150 {
            let body: Vec<u16> = (0..24).flat_map(|_| random_insn(&mut g)).collect();
            let (with, regs_with, marked) = run_body(board, &body, true);
            let (without, regs_without, _) = run_body(board, &body, false);
            assert_eq!(with.len(), 2, "{board:?}: the body did not run to the closing toggle: {body:04x?}");
            assert_eq!(with, without, "{board:?}: timing changed by the marks: {body:04x?}");
            assert_eq!(regs_with, regs_without, "{board:?}: {body:04x?}");
            marked_programs += (marked > 0) as u32;
        }
    }
    // The pass must have had something to do, or the comparison shows nothing.
    assert!(marked_programs > 250, "only {marked_programs} of 300 programs had a marked op");
}
