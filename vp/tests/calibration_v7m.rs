//! The ARMv7-M calibration table (docs/board.md "vp-m3 and vp-m4"), reproduced exactly on
//! vp-m3 and vp-m4: each row is the cost of one instruction class, measured as the cycles
//! between two probe toggles (2-cycle STRs) around it, minus the 2 of the toggle itself.
//! Figures: Cortex-M3 TRM (ARM DDI0337H/I) section 3.3.1 Table 3.1 with P = 2, and the
//! interrupt latencies of section 5.5.1 (entry 12, tail chain 6, return 10).

mod support;
use rtoslab_vp::Board;
use support::*;

const BOARDS: [Board; 2] = [Board::VpM3, Board::VpM4];

/// r6 = PROBE_OUT, r4/r5/r7 = pin values; r0 = RAM buffer, r1/r2 = `a`/`b` operands.
fn setup(a: &mut Asm, x: u32, y: u32) {
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(7, 3));
    a.li(0, 0x2000_0100).li(1, x).li(2, y);
}

/// Cycles of `body` (halfwords) between the toggles on `board`.
fn cost(board: Board, x: u32, y: u32, body: &[u16]) -> u64 {
    let mut a = Asm::new();
    setup(&mut a, x, y);
    a.i(str_i(4, 6, 0));
    for hw in body {
        a.i(*hw);
    }
    a.i(str_i(5, 6, 0)).exit(0);
    let (m, stop) = run(&a, cfg(board));
    let p = probe_cycles(&m);
    assert!(p.len() >= 2, "expected two toggles, got {:?} (stop {:?})", p, stop);
    p[1] - p[0] - 2
}

/// (what, operands, encoding, cycles): one row per instruction class.
#[rustfmt::skip]
const TABLE: &[(&str, u32, u32, &[u16], u64)] = &[
    ("ADD.W r3, r1, r2 (1)",               1, 2, &[0xEB01, 0x0302], 1),
    ("ADDS.W r3, r1, #0xFF00FF00 (1)",     1, 2, &[0xF111, 0x23FF], 1),
    ("MOVW r3, #0x1234 (1)",               0, 0, &[0xF241, 0x2334], 1),
    ("MOVT r3, #0xABCD (1)",               0, 0, &[0xF6CA, 0x33CD], 1),
    ("UBFX r3, r1, #4, #8 (1)",            0xFFFF, 0, &[0xF3C1, 0x1307], 1),
    ("USAT r3, #8, r1 (1)",                0x1234, 0, &[0xF381, 0x0308], 1),
    ("CLZ r3, r1 (1)",                     1, 0, &[0xFAB1, 0xF381], 1),
    ("MUL.W r3, r1, r2 (1)",               3, 5, &[0xFB01, 0xF302], 1),
    ("MLA r3, r1, r2, r3 (2)",             3, 5, &[0xFB01, 0x3302], 2),
    ("UMULL r3, r8, r1, r2 small (3)",     3, 5, &[0xFBA1, 0x3802], 3),
    ("UMULL r3, r8, r1, r2 large (5)",     3, 0x8000_0000, &[0xFBA1, 0x3802], 5),
    ("UDIV r3, r1, r2: 0xFFFFFFFF/1 (12)", 0xFFFF_FFFF, 1, &[0xFBB1, 0xF3F2], 12),
    ("UDIV r3, r1, r2: 100/10 (4)",        100, 10, &[0xFBB1, 0xF3F2], 4),
    ("SDIV r3, r1, r2: by zero (2)",       100, 0, &[0xFB91, 0xF3F2], 2),
    ("LDR.W r3, [r0, #4] (2)",             0, 0, &[0xF8D0, 0x3004], 2),
    ("STR.W r1, [r0, #-4]! (2)",           0, 0, &[0xF840, 0x1D04], 2),
    ("LDRD r2, r3, [r0] (1 + N = 3)",      0, 0, &[0xE9D0, 0x2300], 3),
    ("LDM.W r0, {r1-r3} (1 + N = 4)",      0, 0, &[0xE890, 0x000E], 4),
    ("B.W next (1 + P = 3)",               0, 0, &[0xF000, 0xB800], 3),
    ("BNE.W next, not taken (1)",          0, 0, &[0x4289, 0xF040, 0x8000], 1 + 1),
    ("CBZ r4 (r4 != 0), not taken (1)",    0, 0, &[0xB104], 1),
    ("IT EQ; MOVEQ (1 + 1, skipped 1)",    0, 0, &[0x4289, 0xBF18, 0x2301], 1 + 1 + 1),
];

#[test]
fn instruction_classes() {
    for b in BOARDS {
        for (what, x, y, body, want) in TABLE {
            assert_eq!(cost(b, *x, *y, body), *want, "{} on {}", what, b);
        }
    }
}

#[test]
fn tbb_is_2_plus_p() {
    // MOVS r3, #0; TBB [pc, r3] whose one-entry table (one halfword) jumps to the NOP after
    // it: 1 + (2 + P = 4) + 1.
    for b in BOARDS {
        let c = cost(b, 0, 0, &[0x2300, 0xE8DF, 0xF003, 0x0001, 0xBF00]);
        assert_eq!(c, 1 + 4 + 1, "on {}", b);
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
    // SVC (3) then entry 12: toggle before the SVC to toggle in the handler = 2 + 3 + 12.
    let svc_entry = exc_image(|a| {
        a.i(str_i(4, 6, 0)).i(svc(0)).exit(1);
        a.label("svc").i(str_i(5, 6, 0)).exit(0);
        a.vector(11, "svc");
    });
    // Handler toggle, BX LR (3) + return 10, thread toggle: 2 + 3 + 10.
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
            (&svc_entry, 2 + 3 + 12, "SVC entry"),
            (&exc_return, 2 + 3 + 10, "return"),
            (&tail_chain, 2 + 3 + 6, "tail chain"),
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
        // toggle, PUSH (1 + 1), LDR PC (2 + P) + return 10, toggle
        let p = probe_cycles(&m);
        assert_eq!(p[1] - p[0], 2 + 2 + 4 + 10, "on {}", b);
    }
}
