//! The ARMv7-M calibration table (docs/board.md "vp-m3 and vp-m4"), reproduced exactly on
//! vp-m3 and vp-m4: each row is the cost of one instruction class, measured as the cycles
//! between two probe toggles around it (a store's write lands at its end), minus the 1 of
//! the closing toggle (a store through the write buffer) and the 1 of each NOP around the
//! body (so a load at the end of the body does not pipeline the closing toggle, and a store
//! at its start does not follow the opening toggle's store).
//! Figures: Cortex-M3 TRM (ARM DDI0337H/I) section 3.3.1 Table 3.1 with P from
//! cpu/thumb2/refill.rs and its "Load/store timings" paragraphs (the one-cycle store:
//! cpu/thumb2/write_buffer.rs), the Cortex-M4 TRM (DDI0439B/D) section 3.3.1 Table 3-1 for
//! vp-m4's multiplies, and the interrupt latencies of section 5.5.1 (entry 12, tail chain
//! 6, return 10).

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::trace::Event;
use rtoslab_vp::{Board, Config};

const BOARDS: [Board; 2] = [Board::VP_M3, Board::VP_M4];

/// r6 = PROBE_OUT, r4/r5/r7 = pin values; r0 = RAM buffer, r1/r2 = `a`/`b` operands.
fn setup(a: &mut Asm, x: u32, y: u32) {
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(7, 3));
    a.li(0, 0x2000_0100).li(1, x).li(2, y);
}

/// Cycles of `body` (halfwords) between the toggles on `board`.
fn cost(board: Board, x: u32, y: u32, body: &[u16]) -> u64 {
    let mut a = Asm::new();
    setup(&mut a, x, y);
    a.i(str_i(4, 6, 0)).i(NOP);
    for hw in body {
        a.i(*hw);
    }
    a.i(NOP).i(str_i(5, 6, 0)).exit(0);
    let (m, stop) = run(&a, cfg(board));
    let p = probe_cycles(&m);
    assert!(p.len() >= 2, "expected two toggles, got {:?} (stop {:?})", p, stop);
    p[1] - p[0] - TOGGLE - 1 - 1
}

/// A toggle: `STR r4, [r6]` to PROBE_OUT, a store through the write buffer (write_buffer.rs).
const TOGGLE: u64 = 1;

/// (what, operands, encoding, cycles on vp-m3, on vp-m4): one row per instruction class.
/// Cortex-M3 TRM (DDI0337H/I) section 3.3.1 Table 3.1; the M4 column from the Cortex-M4
/// TRM (DDI0439B/D) section 3.3.1 Table 3-1 where it differs (MLA/MLS and the long
/// multiplies: 1). MRS/MSR are "1 or 2" there: the model takes 2.
type Row = (&'static str, u32, u32, &'static [u16], u64, u64);
#[rustfmt::skip]
const TABLE: &[Row] = &[
    ("ADD.W r3, r1, r2 (1)",               1, 2, &[0xEB01, 0x0302], 1, 1),
    ("ADDS.W r3, r1, #0xFF00FF00 (1)",     1, 2, &[0xF111, 0x23FF], 1, 1),
    ("MOVW r3, #0x1234 (1)",               0, 0, &[0xF241, 0x2334], 1, 1),
    ("MOVT r3, #0xABCD (1)",               0, 0, &[0xF6CA, 0x33CD], 1, 1),
    ("UBFX r3, r1, #4, #8 (1)",            0xFFFF, 0, &[0xF3C1, 0x1307], 1, 1),
    ("USAT r3, #8, r1 (1)",                0x1234, 0, &[0xF381, 0x0308], 1, 1),
    ("CLZ r3, r1 (1)",                     1, 0, &[0xFAB1, 0xF381], 1, 1),
    ("MUL.W r3, r1, r2 (1)",               3, 5, &[0xFB01, 0xF302], 1, 1),
    ("MLA r3, r1, r2, r3 (M3 2, M4 1)",    3, 5, &[0xFB01, 0x3302], 2, 1),
    ("MLS r3, r1, r2, r3 (M3 2, M4 1)",    3, 5, &[0xFB01, 0x3312], 2, 1),
    ("UMULL r3, r8, r1, r2 small (3, 1)",  3, 5, &[0xFBA1, 0x3802], 3, 1),
    ("UMULL r3, r8, r1, r2 large (5, 1)",  3, 0x8000_0000, &[0xFBA1, 0x3802], 5, 1),
    ("SMULL r3, r8, r1, r2 by -1 (3, 1)",  3, 0xFFFF_FFFF, &[0xFB81, 0x3802], 3, 1),
    ("UMLAL r3, r8, r1, r2, hi 0 (4, 1)",  3, 5, &[0xFBE1, 0x3802], 4, 1),
    ("UDIV r3, r1, r2: 0xFFFFFFFF/1 (12)", 0xFFFF_FFFF, 1, &[0xFBB1, 0xF3F2], 12, 12),
    ("UDIV r3, r1, r2: 100/10 (4)",        100, 10, &[0xFBB1, 0xF3F2], 4, 4),
    ("SDIV r3, r1, r2: by zero (2)",       100, 0, &[0xFB91, 0xF3F2], 2, 2),
    ("LDR.W r3, [r0, #4] (2)",             0, 0, &[0xF8D0, 0x3004], 2, 2),
    ("STR.W r1, [r0, #-4]! (buffered: 1)", 0, 0, &[0xF840, 0x1D04], 1, 1),
    ("STR.W r1, [r0, r1] (register offset: 2)", 0, 0, &[0xF840, 0x1001], 2, 2),
    ("LDRD r2, r3, [r0] (1 + N = 3)",      0, 0, &[0xE9D0, 0x2300], 3, 3),
    ("LDM.W r0, {r1-r3} (1 + N = 4)",      0, 0, &[0xE890, 0x000E], 4, 4),
    ("B.W next (1 + P = 2, forwarded)",    0, 0, &[0xF000, 0xB800], 2, 2),
    ("BL next (1 + P = 2, forwarded)",     0, 0, &[0xF000, 0xF800], 2, 2),
    ("BNE.W next, not taken (1)",          0, 0, &[0x4289, 0xF040, 0x8000], 1 + 1, 1 + 1),
    ("CBZ r4 (r4 != 0), not taken (1)",    0, 0, &[0xB104], 1, 1),
    // IT "can be folded onto a preceding 16-bit Thumb instruction" (note d): 0 after CMP,
    // 1 after CMP.W; the instruction its condition skips 1
    ("CMP; IT NE (folded 0); MOVNE skipped (1)", 0, 0, &[0x4289, 0xBF18, 0x2301], 1 + 1, 1 + 1),
    ("CMP.W; IT NE (1); MOVNE skipped (1)", 0, 0, &[0xEBB1, 0x0F01, 0xBF18, 0x2301], 1 + 1 + 1, 1 + 1 + 1),
    ("MRS r3, PRIMASK (2)",                0, 0, &[0xF3EF, 0x8310], 2, 2),
    ("MSR APSR_nzcvq, r1 (2)",             0, 0, &[0xF381, 0x8800], 2, 2),
    ("DMB (1 + B, B = 0)",                 0, 0, &[0xF3BF, 0x8F5F], 1, 1),
    ("DSB (1 + B, B = 0)",                 0, 0, &[0xF3BF, 0x8F4F], 1, 1),
    ("ISB (1 + B, B = P: 3)",              0, 0, &[0xF3BF, 0x8F6F], 3, 3),
];

/// Pipelined loads and stores: Cortex-M3 TRM section 3.3.1 / Cortex-M4 TRM section 3.3.2
/// "Load/store timings" (the same on both cores). r0 = RAM buffer, r1 = 8.
#[rustfmt::skip]
const PIPELINE: &[(&str, &[u16], u64)] = &[
    // "LDR R0,[R1]; LDR R1,[R2] - normally three cycles total"
    ("LDR r3, [r0]; LDR r1, [r0, #4] (2 + 1)",                 &[0x6803, 0x6841], 3),
    // "LDR R0,[R1,R2]; STR R0,[R3,#20] - normally three cycles total"
    ("LDR r3, [r0, r1]; STR r3, [r0, #20] (2 + 1)",            &[0x5843, 0x6143], 3),
    // "LDR R0,[R1,R2]; STR R1,[R3,R2] - normally three cycles total"
    ("LDR r3, [r0, r1]; STR r1, [r0, r1] (2 + 1)",             &[0x5843, 0x5041], 3),
    // "LDR R0,[R1,R5]; LDR R1,[R2]; LDR R2,[R3,#4] - normally four cycles total"
    ("LDR r3, [r0, r1]; LDR r1, [r0]; LDR r2, [r0, #4] (2+1+1)", &[0x5843, 0x6801, 0x6842], 4),
    // the 32-bit forms alike
    ("LDR.W r3, [r0, #4]; LDR.W r1, [r0, #-4]! (2 + 1)",       &[0xF8D0, 0x3004, 0xF850, 0x1D04], 3),
    ("LDR.W r3, [r0, #4]; STR.W r1, [r0, #-4]! (2 + 1)",       &[0xF8D0, 0x3004, 0xF840, 0x1D04], 3),
    ("LDRB.W r3, [r0, #4]; STRH.W r1, [r0, r1] (2 + 1)",       &[0xF890, 0x3004, 0xF820, 0x1001], 3),
    // "LDREX and STREX can be pipelined exactly as LDR"
    ("LDREX r3, [r0]; LDR r1, [r0, #4] (2 + 1)",               &[0xE850, 0x3F00, 0x6841], 3),
    ("LDR r3, [r0]; STREX r2, r1, [r0] (2 + 1)",               &[0x6803, 0xE840, 0x1200], 3),
    // "the destination of the first LDR is not used to compute the address for the next"
    ("LDR r3, [r0]; LDR r1, [r3] (dependent: 2 + 2)",          &[0x6803, 0x6819], 4),
    // "nothing can be pipelined after the store"
    ("STR r1, [r0]; LDR r3, [r0, #4] (1 + 2)",                 &[0x6001, 0x6843], 3),
    ("LDR r1, [r0]; STR r1, [r0]; STR r1, [r0, #4] (2 + 1 + 2)", &[0x6801, 0x6001, 0x6041], 5),
    ("LDR r2, [r0]; STR r1, [r0, r2] (dependent: 2 + 2)",      &[0x6802, 0x5081], 4),
    // "LDRD and STRD cannot be pipelined with preceding or following instructions"
    ("LDR r1, [r0]; LDRD r2, r3, [r0] (2 + 3)",                &[0x6801, 0xE9D0, 0x2300], 5),
    ("LDRD r2, r3, [r0]; LDR r1, [r0] (3 + 2)",                &[0xE9D0, 0x2300, 0x6801], 5),
    // "LDM and STM cannot be pipelined with preceding or following instructions"
    ("LDR r1, [r0]; LDM r0, {r2, r3} (2 + 1 + N)",             &[0x6801, 0xC80C], 5),
    // only a neighbour: a NOP in between breaks the pipeline
    ("LDR r3, [r0]; NOP; LDR r1, [r0, #4] (2 + 1 + 2)",        &[0x6803, 0xBF00, 0x6841], 5),
];

/// Unaligned single loads and stores: M3 TRM (DDI0337I) section 3.3.1 / M4 TRM (DDI0439B)
/// section 3.3.2, "Load/store timings": a halfword-aligned word access one extra cycle, a
/// byte-aligned word access two, a byte-aligned halfword access one; "a STR or STRH cannot
/// delay the processor because of the write buffer". r0 = RAM buffer (word-aligned), r2 = 1
/// (`cost(b, 0, 1, ..)`).
#[rustfmt::skip]
const UNALIGNED: &[(&str, &[u16], u64)] = &[
    ("LDR.W r3, [r0, #4] (aligned: 2)",                        &[0xF8D0, 0x3004], 2),
    ("LDR.W r3, [r0, #2] (halfword-aligned word: 2 + 1)",      &[0xF8D0, 0x3002], 3),
    ("LDR.W r3, [r0, #1] (byte-aligned word: 2 + 2)",          &[0xF8D0, 0x3001], 4),
    ("LDR.W r3, [r0, #3] (byte-aligned word: 2 + 2)",          &[0xF8D0, 0x3003], 4),
    ("LDRH.W r3, [r0, #2] (aligned halfword: 2)",              &[0xF8B0, 0x3002], 2),
    ("LDRH.W r3, [r0, #1] (byte-aligned halfword: 2 + 1)",     &[0xF8B0, 0x3001], 3),
    ("LDRSH.W r3, [r0, #3] (byte-aligned halfword: 2 + 1)",    &[0xF9B0, 0x3003], 3),
    ("LDR r3, [r0, r2] (byte-aligned word, 16-bit: 2 + 2)",    &[0x5883], 4),
    ("LDR r3, [r0]; LDR r1, [r0, r2] (pipelined, unaligned: 2 + 1 + 2)", &[0x6803, 0x5881], 5),
    ("STR.W r1, [r0, #1] (buffered: 1)",                       &[0xF8C0, 0x1001], 1),
    ("STRH.W r1, [r0, #3] (buffered: 1)",                      &[0xF8A0, 0x1003], 1),
    ("STR.W r1, [r0, r2] (register offset, byte-aligned: 2 + 2)", &[0xF840, 0x1002], 4),
    ("STRH.W r1, [r0, r2] (register offset, byte-aligned: 2 + 1)", &[0xF820, 0x1002], 3),
];

/// The no-forwarding stall: M3 TRM (DDI0337I) section 3.3.1 p. 3-9 / M4 TRM section 3.3.2,
/// "any load or store that generates an address dependent on the result of a preceding data
/// processing operation" stalls 1 cycle. r0 = RAM buffer, r1 = 8.
#[rustfmt::skip]
const NO_FORWARDING: &[(&str, &[u16], u64)] = &[
    ("ADDS r0, #0; LDR r3, [r0] (1 + 2 + 1)",                  &[0x3000, 0x6803], 4),
    ("ADDS r1, #0; LDR r3, [r0] (other register: 1 + 2)",      &[0x3100, 0x6803], 3),
    ("CMP r0, r1; LDR r3, [r0] (a compare writes none: 1 + 2)", &[0x4288, 0x6803], 3),
    ("ADDS r0, #0; NOP; LDR r3, [r0] (not adjacent: 1 + 1 + 2)", &[0x3000, 0xBF00, 0x6803], 4),
    ("MOV r2, r0; STR r1, [r2] (1 + 1 + 1)",                   &[0x4602, 0x6011], 3),
    ("ADDS r1, #0; STR r3, [r0, r1] (offset register: 1 + 2 + 1)", &[0x3100, 0x5043], 4),
    ("ADD.W r0, r0, #0; LDR.W r3, [r0, #4] (1 + 2 + 1)",       &[0xF100, 0x0000, 0xF8D0, 0x3004], 4),
    ("ADDS r0, #0; LDRD r2, r3, [r0] (1 + 3 + 1)",             &[0x3000, 0xE9D0, 0x2300], 5),
    ("ADDS r0, #0; LDM r0!, {r2, r3} (1 + 1 + N + 1)",         &[0x3000, 0xC80C], 5),
    ("SUB SP, #8; STR r1, [sp]; ADD SP, #8 (1 + 2 + 1)",       &[0xB082, 0x9100, 0xB002], 4),
    ("SUB SP, #4; PUSH {r1}; ADD SP, #8 (1 + 1 + N + 1 + 1)",  &[0xB081, 0xB402, 0xB002], 5),
    ("LDR r3, [r0]; ADDS r0, #0; LDR r1, [r0] (2 + 1 + 3)",    &[0x6803, 0x3000, 0x6801], 6),
    // a folded IT takes no cycle: the load still directly follows the ADDS
    ("ADDS r0, #0; IT NE (0); LDRNE r3, [r0] (1 + 0 + 3)",     &[0x3000, 0xBF18, 0x6803], 4),
    ("ADDS.W r0, r0, #0; IT NE (1); LDRNE r3, [r0] (1 + 1 + 2)", &[0xF110, 0x0000, 0xBF18, 0x6803], 4),
    // an instruction skipped by its IT condition writes nothing
    ("CMP r0, r0; IT NE; ADDNE r0, #0 (skipped); LDR r3, [r0] (1 + 0 + 1 + 2)",
     &[0x4280, 0xBF18, 0x3000, 0x6803], 4),
];

#[test]
fn instruction_classes() {
    for (b, col) in [(Board::VP_M3, 0), (Board::VP_M4, 1)] {
        for (what, x, y, body, m3, m4) in TABLE {
            let want = if col == 0 { *m3 } else { *m4 };
            assert_eq!(cost(b, *x, *y, body), want, "{} on {}", what, b);
        }
    }
}

/// The DSP extension on vp-m4 (Cortex-M4 TRM r0p1, DDI0439D section 3.3.1, Table 3-2 "Cortex-M4
/// DSP instruction set summary": every row 1 cycle; UADD8/SEL/USADA8/QADD p. 3-10, SSAT16,
/// SMLABB, SMLAD, SMLALD, UMAAL p. 3-9, SMMLAR p. 3-8, PKHBT/SXTAB16 p. 3-10; MSR "1 or 2"
/// in Table 3-1 p. 3-7: 2, as the other MSRs).
/// Undefined on vp-m3 (`dsp_is_undefined_on_the_m3`). r0 = RAM buffer, r1/r2 operands.
#[rustfmt::skip]
const DSP: &[(&str, &[u16], u64)] = &[
    ("UADD8 r3, r1, r2 (1)",               &[0xFA81, 0xF342], 1),
    ("SEL r3, r1, r2 (1)",                 &[0xFAA1, 0xF382], 1),
    ("QADD r3, r1, r2 (1)",                &[0xFA82, 0xF381], 1),
    ("SSAT16 r3, #8, r1 (1)",              &[0xF321, 0x0307], 1),
    ("PKHBT r3, r1, r2, LSL #8 (1)",       &[0xEAC1, 0x2302], 1),
    ("SXTAB16 r3, r1, r2 (1)",             &[0xFA21, 0xF382], 1),
    ("SMLABB r3, r1, r2, r0 (1)",          &[0xFB11, 0x0302], 1),
    ("SMLAD r3, r1, r2, r0 (1)",           &[0xFB21, 0x0302], 1),
    ("SMMLAR r3, r1, r2, r0 (1)",          &[0xFB51, 0x0312], 1),
    ("USADA8 r3, r1, r2, r0 (1)",          &[0xFB71, 0x0302], 1),
    ("SMLALD r3, r8, r1, r2 (1)",          &[0xFBC1, 0x38C2], 1),
    ("UMAAL r3, r8, r1, r2 (1)",           &[0xFBE1, 0x3862], 1),
    ("MSR APSR_g, r1 (2)",                 &[0xF381, 0x8400], 2),
];

#[test]
fn dsp_instructions_on_the_m4() {
    for (what, body, want) in DSP {
        assert_eq!(cost(Board::VP_M4, 0x8000_7FFF, 0x7FFF_8000, body), *want, "{}", what);
    }
}

#[test]
fn dsp_is_undefined_on_the_m3() {
    for (what, body, _) in DSP {
        let mut a = Asm::new();
        setup(&mut a, 1, 2);
        for hw in *body {
            a.i(*hw);
        }
        a.exit(0);
        let (_, stop) = run(&a, Config { fault_stop: true, ..cfg(Board::VP_M3) });
        assert!(matches!(stop, Stop::FaultStop(_)), "{} on vp-m3: {:?}", what, stop);
    }
}

#[test]
fn ge_bits_are_stacked_with_the_xpsr() {
    // MSR APSR_g (GE = 0b1010); SVC whose handler clears GE; the exception return restores
    // them from the stacked xPSR: MRS r3, APSR after it reads them back.
    let img = exc_image(|a| {
        a.li(1, 0x000A_0000).i(0xF381).i(0x8400).i(svc(0)).i(0xF3EF).i(0x8300).exit(0);
        a.label("svc").li(2, 0).i(0xF382).i(0x8400).i(bx(14));
        a.vector(11, "svc");
    });
    let (m, stop) = run(&img, cfg(Board::VP_M4));
    assert_eq!(stop, Stop::Exit(0));
    assert_eq!((m.cpu.r[3] >> 16) & 0xF, 0xA);
}

#[test]
fn neighbouring_loads_and_stores_pipeline() {
    for b in BOARDS {
        for (what, body, want) in PIPELINE {
            assert_eq!(cost(b, 8, 0, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn unaligned_loads_and_unbuffered_stores_take_the_extra_accesses() {
    for b in BOARDS {
        for (what, body, want) in UNALIGNED {
            assert_eq!(cost(b, 0, 1, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn an_address_written_by_the_preceding_data_processing_stalls() {
    for b in BOARDS {
        for (what, body, want) in NO_FORWARDING {
            assert_eq!(cost(b, 8, 0, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn tbb_is_load_add_and_reload() {
    // MOVS r3, #0; NOP; TBB [pc, r3] whose one-entry table (one halfword) jumps to the NOP
    // after it: 1 + 1 + (2 + 1 + P_LOAD = 6: "at least two cycles for the load, one cycle for
    // the add, and three cycles for the pipeline reload", M3 TRM DDI0337I p. 3-9) + 1; without
    // the NOP the TBB's index comes straight from the MOVS and stalls a cycle (no forwarding
    // path).
    for b in BOARDS {
        let c = cost(b, 0, 0, &[0x2300, 0xBF00, 0xE8DF, 0xF003, 0x0001, 0xBF00]);
        assert_eq!(c, 1 + 1 + 6 + 1, "on {}", b);
        let c = cost(b, 0, 0, &[0x2300, 0xE8DF, 0xF003, 0x0001, 0xBF00]);
        assert_eq!(c, 1 + 6 + 1 + 1, "on {}", b);
    }
}

/// Loads to the PC (thumb2/timing.rs `P_LOAD`: "LDR PC,[any] is always a blocking operation.
/// This means at least two cycles for the load, and three cycles for the pipeline reload", M3
/// TRM DDI0337I section 3.3.1; Table 3.1 "Pop and return" 1 + N + P): the return address is
/// made with MOV r3, pc; ADDS r3, #k (the NOP after the load, Thumb bit set) and pushed.
#[rustfmt::skip]
const LOADS_TO_PC: &[(&str, &[u16], u64)] = &[
    ("PUSH {r3} (2); POP {pc} (1 + 1 + 3)",                    &[0x467B, 0x3305, 0xB408, 0xBD00, 0xBF00], 1 + 1 + 2 + 5 + 1),
    ("PUSH {r2, r3} (3); POP {r2, pc} (1 + 2 + 3)",            &[0x467B, 0x3305, 0xB40C, 0xBD04, 0xBF00], 1 + 1 + 3 + 6 + 1),
    ("PUSH {r2, r3} (3); POP.W {r2, pc} (LDM.W: 1 + 2 + 3)",   &[0x467B, 0x3307, 0xB40C, 0xE8BD, 0x8004, 0xBF00], 1 + 1 + 3 + 6 + 1),
    ("PUSH {r3} (2); LDR.W pc, [sp], #4 (2 + 3)",              &[0x467B, 0x3307, 0xB408, 0xF85D, 0xFB04, 0xBF00], 1 + 1 + 2 + 5 + 1),
];

#[test]
fn loads_to_the_pc_reload_in_three() {
    for b in BOARDS {
        for (what, body, want) in LOADS_TO_PC {
            assert_eq!(cost(b, 8, 0, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn a_pop_to_a_wide_instruction_at_a_halfword_address_reloads_one_more() {
    // PUSH {r3}; POP {pc} to the ADD.W after it, once as placed and once a halfword further
    // (a NOP first): one target is word-aligned, the other not (+1, as for every branch:
    // refill.rs `wide_unaligned`).
    for b in BOARDS {
        let body = [0x467B, 0x3305, 0xB408, 0xBD00, 0xEB01, 0x0302];
        let here = cost(b, 1, 2, &body);
        let moved = cost(b, 1, 2, &[&[0xBF00][..], &body[..]].concat()) - 1;
        let mut got = [here, moved];
        got.sort();
        assert_eq!(got, [1 + 1 + 2 + 5 + 1, 1 + 1 + 2 + 5 + 1 + 1], "on {}", b);
    }
}

fn exc_image(body: impl Fn(&mut Asm)) -> Asm {
    let mut a = Asm::new();
    setup(&mut a, 0, 0);
    body(&mut a);
    a
}

#[test]
fn exception_paths() {
    // SVC (3) then entry 12: toggle before the SVC to toggle in the handler = 3 + 12 + 1.
    let svc_entry = exc_image(|a| {
        a.i(str_i(4, 6, 0)).i(svc(0)).exit(1);
        a.label("svc").i(str_i(5, 6, 0)).exit(0);
        a.vector(11, "svc");
    });
    // Handler toggle, BX LR (3, the exception return's own figure) + return 10, thread
    // toggle: 3 + 10 + 1.
    let exc_return = exc_image(|a| {
        a.i(svc(0)).i(str_i(7, 6, 0)).exit(0);
        a.label("svc").i(str_i(5, 6, 0)).i(bx(14));
        a.vector(11, "svc");
    });
    // SVC handler pends PendSV (lowest priority), toggles, BX LR (3) + tail chain 6.
    let tail_chain = exc_image(|a| {
        a.poke(SHPR3, 0x00FF_0000);
        a.i(svc(0)).exit(1);
        a.label("svc").li(0, ICSR).li(1, 1 << 28).i(str_i(1, 0, 0)).n(NOP, 4);
        a.i(str_i(5, 6, 0)).i(bx(14));
        a.label("pendsv").i(str_i(7, 6, 0)).exit(0);
        a.vector(11, "svc").vector(14, "pendsv");
    });
    for b in BOARDS {
        for (img, want, what) in [
            (&svc_entry, 3 + 12 + TOGGLE, "SVC entry"),
            (&exc_return, 3 + 10 + TOGGLE, "return"),
            (&tail_chain, 3 + 6 + TOGGLE, "tail chain"),
        ] {
            let (m, _) = run(img, cfg(b));
            let p = probe_cycles(&m);
            assert_eq!(p[1] - p[0], want, "{} on {}", what, b);
        }
    }
}

#[test]
fn ldr_pc_post_indexed_returns_from_an_exception() {
    // Handler: PUSH {lr}; LDR.W pc, [sp], #4 (POP.W {pc}): the write-back happens before the
    // exception return, which then restores the thread's SP (same program as on silicon).
    let img = exc_image(|a| {
        a.i(svc(0)).i(str_i(7, 6, 0)).exit(0);
        a.label("svc").i(str_i(5, 6, 0)).i(0xB500).i(0xF85D).i(0xFB04);
        a.vector(11, "svc");
    });
    for b in BOARDS {
        let (m, stop) = run(&img, cfg(b));
        assert_eq!(stop, rtoslab_vp::machine::Stop::Exit(0), "on {}", b);
        // toggle, PUSH (1 + 1), LDR PC (2 + P_LOAD) + return 10, toggle
        let p = probe_cycles(&m);
        assert_eq!(p[1] - p[0], 2 + 5 + 10 + TOGGLE, "on {}", b);
    }
}

#[test]
fn late_arrival_takes_the_more_urgent_first_then_tail_chains() {
    // IRQ0 (priority 0xC0) is pended, IRQ1 (0x00) by the next store 2 cycles later: it
    // arrives while IRQ0's entry stacks (the 11 cycles before the vector fetch, M3 TRM
    // section 5.5.3 "Late-arriving"), so one entry runs IRQ1's handler, and IRQ0 tail-chains.
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 3).poke(NVIC_IPR0, 0x0000_00C0);
    a.li(0, NVIC_ISPR).i(movs_i(1, 1)).i(movs_i(2, 2));
    a.i(str_i(1, 0, 0)).i(str_i(2, 0, 0)).n(NOP, 40).exit(1);
    a.label("irq0").exit(0);
    a.label("irq1").i(bx(14));
    a.vector(16, "irq0").vector(17, "irq1");
    for b in BOARDS {
        let (m, stop) = run(&a, cfg(b));
        assert_eq!(stop, rtoslab_vp::machine::Stop::Exit(0), "on {}", b);
        let ev = events(&m);
        let entries: Vec<u32> =
            ev.iter().filter_map(|e| if let Event::ExcEntry { exc, .. } = e { Some(*exc) } else { None }).collect();
        assert_eq!(entries, vec![17], "one entry, into the late arriver, on {}", b);
        assert!(ev.iter().any(|e| matches!(e, Event::TailChain { from: 17, exc: 16, .. })), "on {}", b);
    }
}

/// The pipeline refill P of a taken branch (cpu/thumb2/refill.rs): 1 for the branches the
/// core forwards from decode (B, B<c>, BL, BX LR: M3 TRM DDI0337E section 1.6 "Branch target
/// forwarding"), 2 for those decided in execute (CBZ, BX with another register), one more
/// to a 32-bit target that is not word-aligned. Each body lands on the instruction after it.
#[rustfmt::skip]
const BRANCHES: &[(&str, &[u16], u64)] = &[
    ("B next (16-bit, forwarded: 1 + 1)",                      &[0xE7FF], 2),
    ("CMP r0, r0; BEQ next (taken, forwarded: 1 + 2)",         &[0x4280, 0xD0FF], 3),
    ("CMP r0, r1; BEQ next (not taken: 1 + 1)",                &[0x4288, 0xD0FF], 2),
    ("MOVS r3, #0; CBZ r3, +4 over a NOP (execute: 1 + 1 + 2)", &[0x2300, 0xB103, 0xBF00], 4),
    // r3 = address of the MOV + 4, + 5 (+ 3): the NOP after the BX, Thumb bit set
    ("MOV r3, pc; ADDS r3, #5; MOV lr, r3; BX lr (forwarded: 2); NOP (1 + 1 + 1 + 2 + 1)",
     &[0x467B, 0x3305, 0x469E, 0x4770, 0xBF00], 6),
    ("MOV r3, pc; ADDS r3, #3; BX r3 (execute: 3); NOP (1 + 1 + 3 + 1)", &[0x467B, 0x3303, 0x4718, 0xBF00], 6),
];

#[test]
fn taken_branches_refill_by_their_kind() {
    for b in BOARDS {
        for (what, body, want) in BRANCHES {
            assert_eq!(cost(b, 8, 0, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn a_branch_to_a_wide_instruction_at_a_halfword_address_refills_one_more() {
    // B.W to the ADD.W right after it, once as placed and once a halfword further: one of
    // the two targets is word-aligned (1 + 1, + 1 for the ADD.W), the other not (1 + 2 + 1).
    for b in BOARDS {
        let here = cost(b, 1, 2, &[0xF000, 0xB800, 0xEB01, 0x0302]);
        let moved = cost(b, 1, 2, &[0xBF00, 0xF000, 0xB800, 0xEB01, 0x0302]) - 1;
        let mut got = [here, moved];
        got.sort();
        assert_eq!(got, [3, 4], "on {}", b);
    }
}

/// The one-cycle store (cpu/thumb2/write_buffer.rs; M3 TRM DDI0337I section 3.3.1 "STR
/// Rx,[Ry,#imm] is always one cycle", DDI0337E section 1.7 "Store buffers"). r0 = RAM
/// buffer, r1 = 8.
#[rustfmt::skip]
const WRITE_BUFFER: &[(&str, &[u16], u64)] = &[
    ("STR r1, [r0] (1)",                                       &[0x6001], 1),
    ("STRB r1, [r0, #1] (1)",                                  &[0x7041], 1),
    ("STRH r1, [r0, #2] (1)",                                  &[0x8041], 1),
    ("STR r1, [sp, #-8] via STR.W (1)",                        &[0xF84D, 0x1C08], 1),
    ("STR.W r1, [r0], #4 (post-indexed: 1)",                   &[0xF840, 0x1B04], 1),
    ("STR r1, [r0, r1] (register offset: 2)",                  &[0x5041], 2),
    ("STR r1, [r0]; STR r1, [r0, #4] (the buffer still holds the first: 1 + 2)", &[0x6001, 0x6041], 3),
    ("STR r1, [r0]; NOP; STR r1, [r0, #4] (drained: 1 + 1 + 1)", &[0x6001, 0xBF00, 0x6041], 3),
    ("STR r1, [r0]; ADDS r2, #1 (overlaps the data phase: 1 + 1)", &[0x6001, 0x3201], 2),
    ("STR r1, [r0]; PUSH {r1}; POP {r1} (1 + 2 + 2)",           &[0x6001, 0xB402, 0xBC02], 5),
    ("STRD r1, r2, [r0] (not a single store: 3)",              &[0xE9C0, 0x1200], 3),
];

#[test]
fn immediate_offset_stores_take_one_cycle_through_the_write_buffer() {
    for b in BOARDS {
        for (what, body, want) in WRITE_BUFFER {
            assert_eq!(cost(b, 8, 0, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn a_store_to_the_private_peripheral_bus_is_not_buffered() {
    // STR r1, [r3] with r3 = NVIC_IPR0 (Strongly-ordered): 2, between the two toggles and
    // their NOPs (as `cost`).
    for b in BOARDS {
        let mut a = Asm::new();
        setup(&mut a, 0, 0);
        a.li(3, NVIC_IPR0).i(str_i(4, 6, 0)).i(NOP).i(str_i(1, 3, 0)).i(NOP).i(str_i(5, 6, 0)).exit(0);
        let (m, _) = run(&a, cfg(b));
        let p = probe_cycles(&m);
        assert_eq!(p[1] - p[0] - TOGGLE - 2, 2, "on {}", b);
    }
}

#[test]
fn an_interrupt_right_after_a_buffered_store_enters_in_12() {
    // STR to ICSR pends PendSV (visible 2 cycles after that store); NOP; the toggle (a
    // buffered store) ends at that boundary; entry 12 to the handler's toggle: the store in
    // the buffer costs the entry nothing ("stacking operations are inherently
    // non-bufferable", M3 TRM DDI0337E section 1.7, and with no wait states the buffer
    // drains in the store's data phase: DDI0337I section 3.5).
    let img = exc_image(|a| {
        a.li(0, ICSR).li(1, 1 << 28).i(str_i(1, 0, 0)).i(NOP).i(str_i(4, 6, 0)).n(NOP, 20).exit(1);
        a.label("pendsv").i(str_i(5, 6, 0)).exit(0);
        a.vector(14, "pendsv");
    });
    for b in BOARDS {
        let (m, stop) = run(&img, cfg(b));
        assert_eq!(stop, Stop::Exit(0), "on {}", b);
        let p = probe_cycles(&m);
        assert_eq!(p[1] - p[0], 12 + TOGGLE, "on {}", b);
    }
}
