//! The FPU rows of the ARMv7-M calibration table (docs/board.md "vp-m3 and vp-m4"),
//! reproduced exactly on vp-m4: Cortex-M4 TRM (ARM DDI0439B, r0p1) section 7.2.3 "FPU
//! instruction set", Table 7-1 (also TI SWCU192 Table 3-27), measured like
//! calibration_v7m.rs between two probe toggles. The exception rows: entry 12 and return 10
//! as in calibration_v7m.rs (the same with lazy stacking), plus the model's 17 cycles (one
//! per word of S0-S15 and FPSCR) for a full FP stacking, a lazy save and an FP unstacking,
//! for which the TRM gives no figure. Also the lazy state preservation itself: what is
//! stacked where, and when.

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::Board;

const CPACR: u32 = 0xE000_ED88;
const FPCCR: u32 = 0xE000_EF34;
const FPCAR: u32 = 0xE000_EF38;
const CP10_CP11_FULL: u32 = 0xF << 20;

/// r6 = PROBE_OUT, r4/r5/r7 = pin values; r0 = RAM buffer, r1/r2 = operands; CP10/CP11 on,
/// s1 = 2.0, s2 = 1.0 (one VMOV each before the toggles).
fn setup(a: &mut Asm) {
    a.label("reset").poke(CPACR, CP10_CP11_FULL).li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(7, 3));
    a.li(0, 0x2000_0100).li(1, 3).li(2, 5);
    a.w([0xEEF0, 0x0A00]).w([0xEEB7, 0x1A00]); // vmov.f32 s1, #2.0; vmov.f32 s2, #1.0
}

fn cost(body: &[u16]) -> u64 {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(str_i(4, 6, 0));
    for hw in body {
        a.i(*hw);
    }
    a.i(str_i(5, 6, 0)).exit(0);
    let mut c = cfg(Board::VP_M4);
    c.fault_stop = true;
    let (m, stop) = run(&a, c);
    let p = probe_cycles(&m);
    assert!(p.len() >= 2, "expected two toggles, got {:?} (stop {:?})", p, stop);
    p[1] - p[0] - TOGGLE
}

/// The closing toggle: a store through the write buffer (cpu/thumb2/write_buffer.rs), after
/// an instruction that is not one.
const TOGGLE: u64 = 1;

/// (what, encoding, cycles): Table 7-1.
#[rustfmt::skip]
const TABLE: &[(&str, &[u16], u64)] = &[
    ("VADD.F32 s0, s1, s2 (1)",        &[0xEE30, 0x0A81], 1),
    ("VSUB.F32 s0, s1, s2 (1)",        &[0xEE30, 0x0AC1], 1),
    ("VMUL.F32 s0, s1, s2 (1)",        &[0xEE20, 0x0A81], 1),
    ("VNMUL.F32 s0, s1, s2 (1)",       &[0xEE20, 0x0AC1], 1),
    ("VMLA.F32 s0, s1, s2 (3)",        &[0xEE00, 0x0A81], 3),
    ("VFMA.F32 s0, s1, s2 (3)",        &[0xEEA0, 0x0A81], 3),
    ("VDIV.F32 s0, s1, s2 (14)",       &[0xEE80, 0x0A81], 14),
    ("VSQRT.F32 s0, s1 (14)",          &[0xEEB1, 0x0AE0], 14),
    ("VABS.F32 s0, s1 (1)",            &[0xEEB0, 0x0AE0], 1),
    ("VCMP.F32 s0, s1 (1)",            &[0xEEB4, 0x0A60], 1),
    ("VCVT.S32.F32 s0, s1 (1)",        &[0xEEBD, 0x0AE0], 1),
    ("VMOV.F32 s0, #1.0 (1)",          &[0xEEB7, 0x0A00], 1),
    ("VMOV s0, r1 (2)",                &[0xEE00, 0x1A10], 2),
    ("VMOV r1, r2, d0 (2)",            &[0xEC52, 0x1B10], 2),
    ("VMRS r3, FPSCR (1)",             &[0xEEF1, 0x3A10], 1),
    ("VMSR FPSCR, r3 (1)",             &[0xEEE1, 0x3A10], 1),
    ("VLDR s0, [r0] (2)",              &[0xED90, 0x0A00], 2),
    ("VLDR d0, [r0] (3)",              &[0xED90, 0x0B00], 3),
    ("VSTR s0, [r0] (2)",              &[0xED80, 0x0A00], 2),
    ("VLDMIA r0, {s0-s3} (1 + N = 5)", &[0xEC90, 0x0A04], 5),
    ("VPUSH {s16-s31} (1 + N = 17)",   &[0xED2D, 0x8A10], 17),
    ("VPUSH {s16-s31}; VPOP {d8-d15} (17 + 1 + 2N = 17)", &[0xED2D, 0x8A10, 0xECBD, 0x8B10], 17 + 17),
    // An FP store right after a store through the write buffer: the TRMs say nothing of it
    // (M4 TRM DDI0439B Table 7-1 gives VSTR 2, VPUSH 1 + N; section 3.3.2 only the integer
    // pairs). The model: the FP store's data phase is its second cycle, by which the buffered
    // store's data phase (the cycle after it) is done, so no wait (write_buffer.rs); only a
    // second one-cycle STR collides. The STM32F407 FPU report agrees where it can tell: the
    // FPU's extra cost per ChibiOS 3.0 context switch (VPUSH/VPOP of s16-s31 around the
    // switch) is 34.0 cycles on the chip (168 MHz / 1686320 - 168 MHz / 2559992) and 34.0 on
    // vp-stm32f407 (docs/results.md, "Against silicon").
    ("NOP; STR r1, [r0, #4]; VSTR s0, [r0] (1 + 1 + 2)",   &[0xBF00, 0x6041, 0xED80, 0x0A00], 4),
    ("NOP; STR r1, [r0, #4]; VPUSH {s16-s31} (1 + 1 + 17)", &[0xBF00, 0x6041, 0xED2D, 0x8A10], 19),
];

#[test]
fn fpu_instruction_classes() {
    for (what, body, want) in TABLE {
        assert_eq!(cost(body), *want, "{}", what);
    }
}

#[test]
fn results_are_ieee_exact() {
    // 2.0 + 1.0 = 3.0; sqrt(2.0) rounded to nearest; 1.0 / 3.0 (VDIV s0, s2, s3 with s3 = 3.0)
    let mut a = Asm::new();
    setup(&mut a);
    a.w([0xEE30, 0x0A81]); // vadd.f32 s0, s1, s2
    a.w([0xEEB1, 0x1AE0]); // vsqrt.f32 s2, s1
    a.w([0xEEF0, 0x1A08]); // vmov.f32 s3, #3.0
    a.w([0xEEC1, 0x2A21]); // vdiv.f32 s5, s2, s3
    a.exit(0);
    let (m, stop) = run(&a, cfg(Board::VP_M4));
    assert_eq!(stop, Stop::Exit(0));
    assert_eq!(m.fpu.s[0], 3.0f32.to_bits());
    assert_eq!(m.fpu.s[2], 2.0f32.sqrt().to_bits());
    assert_eq!(m.fpu.s[5], (2.0f32.sqrt() / 3.0).to_bits());
    assert_eq!(m.fpu.fpscr & 0x1F, 0x10, "inexact only");
}

/// An SVC from a thread that has used the FPU (CONTROL.FPCA = 1), with `lspen` and a handler
/// `handler` between its toggles; the thread toggles after the return.
fn svc_image(lspen: bool, handler: &[[u16; 2]]) -> Asm {
    let mut a = Asm::new();
    setup(&mut a);
    if !lspen {
        a.poke(FPCCR, 1 << 31); // ASPEN only: full stacking at entry
    }
    a.w([0xEE30, 0x0A81]); // vadd.f32 s0, s1, s2 (thread: s0 = 3.0, FPCA = 1)
    a.i(str_i(4, 6, 0)).i(svc(0)).i(str_i(7, 6, 0)).exit(0);
    a.label("svc").i(str_i(5, 6, 0));
    for w in handler {
        a.w(*w);
    }
    a.i(str_i(4, 6, 0)).i(mov_hi(8, 14)).i(bx(14));
    a.vector(11, "svc");
    a
}

#[test]
fn exception_entry_and_return_with_fp_state() {
    const VMOV_S0_2: [u16; 2] = [0xEEB0, 0x0A00]; // vmov.f32 s0, #2.0 (the handler's FP use)
    for (lspen, handler, entry, inside, ret, what) in [
        // thread toggle, SVC (3) + entry; handler toggle, body; toggle, MOV (1), BX (3) +
        // return. Each toggle's own cycle is counted: 1, or 2 right after the handler's
        // first toggle (the write buffer still holds it) when the body is empty.
        (true, vec![], 3 + 12, 1, 1 + 3 + 10, "lazy, handler without FP"),
        (true, vec![VMOV_S0_2], 3 + 12, 1 + 17, 1 + 3 + 10 + 17, "lazy, saved by the handler's VMOV"),
        (false, vec![], 3 + 12 + 17, 1, 1 + 3 + 10 + 17, "full stacking"),
    ] {
        let (m, stop) = run(&svc_image(lspen, &handler), cfg(Board::VP_M4));
        assert_eq!(stop, Stop::Exit(0), "{}", what);
        let d = diffs(&probe_cycles(&m));
        assert_eq!(d, vec![TOGGLE + entry, TOGGLE + inside, TOGGLE + ret], "{}", what);
        assert_eq!(m.cpu.r[8], 0xFFFF_FFE9, "EXC_RETURN of an extended frame ({})", what);
        assert_eq!(m.fpu.s[0], 3.0f32.to_bits(), "the thread's s0 is back ({})", what);
        assert!(m.fpu.fpca, "CONTROL.FPCA restored ({})", what);
    }
}

#[test]
fn lazy_save_writes_the_reserved_space() {
    // The handler reads FPCAR and FPCCR, then uses the FPU; the frame's FP area then holds
    // the thread's s0 (3.0) and its FPSCR.
    let mut a = Asm::new();
    setup(&mut a);
    a.w([0xEE30, 0x0A81]).i(svc(0)).exit(0);
    // (r0-r3 come back from the frame: the results go to r9-r11)
    a.label("svc").li(0, FPCAR).i(ldr_i(1, 0, 0)).li(0, FPCCR).i(ldr_i(3, 0, 0)).i(mov_hi(10, 3));
    a.w([0xEEB0, 0x0A00]).li(0, FPCCR).i(ldr_i(2, 0, 0)).i(mov_hi(11, 2)).i(mov_hi(9, 1)).i(bx(14));
    a.vector(11, "svc");
    let (m, stop) = run(&a, cfg(Board::VP_M4));
    assert_eq!(stop, Stop::Exit(0));
    let fpcar = m.cpu.r[9];
    assert_eq!(m.cpu.r[10] & 1, 1, "LSPACT set at entry");
    assert_eq!(m.cpu.r[11] & 1, 0, "LSPACT clear after the lazy save");
    let word = |addr: u32| {
        let o = (addr - 0x2000_0000) as usize;
        u32::from_le_bytes(m.bus.mem.ram[o..o + 4].try_into().unwrap())
    };
    assert_eq!(word(fpcar), 3.0f32.to_bits(), "s0 saved at FPCAR");
    assert_eq!(word(fpcar + 4), 2.0f32.to_bits(), "s1 saved next");
    assert_eq!(m.cpu.r[13], 0x2000_0000 + 16 * 1024, "the extended frame was popped");
}

#[test]
fn without_cpacr_or_fpu_fp_instructions_fault() {
    let mut a = Asm::new();
    a.label("reset").w([0xEE30, 0x0A81]).exit(0);
    for b in [Board::VP_M4, Board::VP_M3] {
        let mut c = cfg(b);
        c.fault_stop = true;
        let (_, stop) = run(&a, c);
        match stop {
            Stop::FaultStop(f) => assert!(f.reason.contains("NOCP"), "{}: {}", b, f.reason),
            other => panic!("{}: expected the NOCP fault, got {:?}", b, other),
        }
    }
}
