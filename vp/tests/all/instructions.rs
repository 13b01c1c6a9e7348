//! Every ARMv6-M instruction class: results, flags (with the edge cases), timing.

use crate::support::*;
use rtoslab_vp::machine::{Machine, Stop};
use rtoslab_vp::Board;

/// Run `body` after reset, stop at a trailing UDF (with --fault-stop), return the machine.
fn exec(body: impl FnOnce(&mut Asm)) -> Machine {
    let mut a = Asm::new();
    a.label("reset");
    body(&mut a);
    a.label("end").i(udf(0x42));
    let mut c = cfg(Board::VP_M0);
    c.fault_stop = true;
    let (m, stop) = run(&a, c);
    match &stop {
        Stop::FaultStop(f) if f.pc == a.addr("end") => {}
        other => panic!("expected to stop at the final UDF, got {:?}", other),
    }
    m
}

/// Set NZCV from a 4-bit mask (N=8, Z=4, C=2, V=1) via MSR APSR (clobbers r3).
fn flags(a: &mut Asm, nzcv: u32) {
    a.li(3, nzcv << 28).w(msr(0, 3));
}

fn nzcv(m: &Machine) -> u32 {
    ((m.cpu.n as u32) << 3) | ((m.cpu.z as u32) << 2) | ((m.cpu.c as u32) << 1) | (m.cpu.v as u32)
}

/// Cycles taken by `instrs` (measured against the same program without them).
fn cycles_of(setup: impl Fn(&mut Asm), instrs: impl Fn(&mut Asm)) -> u64 {
    let with = exec(|a| {
        setup(a);
        instrs(a)
    });
    let without = exec(|a| setup(a));
    with.cyc - without.cyc
}

#[test]
fn add_sub_flags() {
    let m = exec(|a| {
        a.li(0, 0x7FFF_FFFF).i(movs_i(1, 1)).i(adds_r(2, 0, 1));
    });
    assert_eq!(m.cpu.r[2], 0x8000_0000);
    assert_eq!(nzcv(&m), 0b1001);
    let m = exec(|a| {
        a.li(0, 0xFFFF_FFFF).i(adds_i3(2, 0, 1));
    });
    assert_eq!((m.cpu.r[2], nzcv(&m)), (0, 0b0110));
    let m = exec(|a| {
        a.i(movs_i(0, 0)).i(subs_i3(2, 0, 1));
    });
    assert_eq!((m.cpu.r[2], nzcv(&m)), (0xFFFF_FFFF, 0b1000));
    let m = exec(|a| {
        a.i(movs_i(0, 5)).i(movs_i(1, 5)).i(subs_r(2, 0, 1));
    });
    assert_eq!((m.cpu.r[2], nzcv(&m)), (0, 0b0110));
    let m = exec(|a| {
        a.li(0, 0x8000_0000).i(subs_i8(0, 1));
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (0x7FFF_FFFF, 0b0011));
    let m = exec(|a| {
        a.i(movs_i(0, 200)).i(adds_i8(0, 100)).i(cmp_i(0, 255));
    });
    assert_eq!(m.cpu.r[0], 300);
    assert_eq!(nzcv(&m), 0b0010); // 300 - 255 > 0, no borrow
}

#[test]
fn adc_sbc_carry_and_overflow() {
    let m = exec(|a| {
        a.li(0, 0xFFFF_FFFF).i(movs_i(1, 0));
        flags(a, 0b0010);
        a.i(adcs(0, 1));
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (0, 0b0110));
    let m = exec(|a| {
        a.li(0, 0x7FFF_FFFF).i(movs_i(1, 0));
        flags(a, 0b0010);
        a.i(adcs(0, 1));
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (0x8000_0000, 0b1001));
    let m = exec(|a| {
        a.i(movs_i(0, 5)).i(movs_i(1, 3));
        flags(a, 0);
        a.i(sbcs(0, 1));
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (1, 0b0010));
    let m = exec(|a| {
        a.i(movs_i(0, 5)).i(movs_i(1, 3));
        flags(a, 0b0010);
        a.i(sbcs(0, 1));
    });
    assert_eq!(m.cpu.r[0], 2);
    let m = exec(|a| {
        a.i(movs_i(0, 0)).i(movs_i(1, 0));
        flags(a, 0);
        a.i(sbcs(0, 1));
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (0xFFFF_FFFF, 0b1000));
    let m = exec(|a| {
        a.li(0, 0x8000_0000).i(movs_i(1, 0));
        flags(a, 0);
        a.i(sbcs(0, 1)); // 0x80000000 - 0 - 1: signed overflow
    });
    assert_eq!((m.cpu.r[0], nzcv(&m)), (0x7FFF_FFFF, 0b0011));
}

/// A shift-by-register case: (encoder, value, amount, carry in, result, carry out).
type ShiftCase = (fn(u16, u16) -> u16, u32, u32, bool, u32, bool);

#[test]
fn shifts_by_register_edge_amounts() {
    let cases: &[ShiftCase] = &[
        (lsls_r, 0x8000_0001, 0, true, 0x8000_0001, true),
        (lsls_r, 0x8000_0001, 0, false, 0x8000_0001, false),
        (lsls_r, 0x8000_0001, 1, false, 0x0000_0002, true),
        (lsls_r, 0x0000_0001, 31, false, 0x8000_0000, false),
        (lsls_r, 0x0000_0001, 32, false, 0, true),
        (lsls_r, 0xFFFF_FFFF, 33, true, 0, false),
        (lsls_r, 0x0000_0001, 256, false, 1, false), // only the bottom byte counts
        (lsrs_r, 0x8000_0001, 1, false, 0x4000_0000, true),
        (lsrs_r, 0x8000_0000, 32, false, 0, true),
        (lsrs_r, 0x8000_0000, 33, true, 0, false),
        (lsrs_r, 0x8000_0000, 0, true, 0x8000_0000, true),
        (asrs_r, 0x8000_0000, 31, false, 0xFFFF_FFFF, false),
        (asrs_r, 0x8000_0000, 32, false, 0xFFFF_FFFF, true),
        (asrs_r, 0x4000_0000, 40, true, 0, false),
        (asrs_r, 0x8000_0000, 255, false, 0xFFFF_FFFF, true),
        (rors, 0x0000_0001, 1, false, 0x8000_0000, true),
        (rors, 0x8000_0000, 32, false, 0x8000_0000, true),
        (rors, 0x1234_5678, 0, true, 0x1234_5678, true),
        (rors, 0x1234_5678, 36, false, 0x8123_4567, true),
        (rors, 0x1234_5678, 64, false, 0x1234_5678, false),
    ];
    for (i, (op, v, n, cin, want, cout)) in cases.iter().enumerate() {
        let m = exec(|a| {
            a.li(0, *v).li(1, *n);
            flags(a, if *cin { 0b0010 } else { 0 });
            a.i(op(0, 1));
        });
        assert_eq!(m.cpu.r[0], *want, "case {}", i);
        assert_eq!(m.cpu.c, *cout, "carry, case {}", i);
        assert_eq!(m.cpu.z, *want == 0, "case {}", i);
        assert_eq!(m.cpu.n, *want >> 31 == 1, "case {}", i);
    }
}

#[test]
fn shifts_by_immediate() {
    let m = exec(|a| {
        a.li(0, 0x8000_0001);
        flags(a, 0b0010);
        a.i(lsls_i(1, 0, 0)); // MOVS: C unchanged
    });
    assert_eq!((m.cpu.r[1], m.cpu.c), (0x8000_0001, true));
    let m = exec(|a| {
        a.li(0, 0x8000_0001).i(lsrs_i(1, 0, 0)); // LSR #32
    });
    assert_eq!((m.cpu.r[1], m.cpu.c, m.cpu.z), (0, true, true));
    let m = exec(|a| {
        a.li(0, 0x8000_0001).i(asrs_i(1, 0, 0)); // ASR #32
    });
    assert_eq!((m.cpu.r[1], m.cpu.c), (0xFFFF_FFFF, true));
    let m = exec(|a| {
        a.li(0, 0x8000_0001).i(lsls_i(1, 0, 1)).i(lsrs_i(2, 0, 1)).i(asrs_i(3, 0, 4));
    });
    assert_eq!((m.cpu.r[1], m.cpu.r[2], m.cpu.r[3]), (2, 0x4000_0000, 0xF800_0000));
    assert!(!m.cpu.c); // ASR #4: carry = bit 3 of 0x80000001
}

#[test]
fn logical_ops_and_multiply() {
    let m = exec(|a| {
        a.li(0, 0xF0F0_F0F0).li(1, 0xFF00_FF00);
        flags(a, 0b0011); // C and V must survive logical ops and MULS
        a.i(mov_hi(2, 0)).i(ands(2, 1));
        a.i(mov_hi(3, 0)).i(eors(3, 1));
        a.i(mov_hi(4, 0)).i(orrs(4, 1));
        a.i(mov_hi(5, 0)).i(bics(5, 1));
        a.i(mvns(6, 0));
        a.i(movs_i(7, 7)).i(muls(7, 1));
    });
    assert_eq!(m.cpu.r[2], 0xF000_F000);
    assert_eq!(m.cpu.r[3], 0x0FF0_0FF0);
    assert_eq!(m.cpu.r[4], 0xFFF0_FFF0);
    assert_eq!(m.cpu.r[5], 0x00F0_00F0);
    assert_eq!(m.cpu.r[6], 0x0F0F_0F0F);
    assert_eq!(m.cpu.r[7], 0xFF00_FF00u32.wrapping_mul(7));
    assert!(m.cpu.c && m.cpu.v);
    assert!(m.cpu.n);
    let m = exec(|a| {
        a.i(movs_i(0, 0)).i(movs_i(1, 5)).i(muls(1, 0));
    });
    assert!(m.cpu.z && m.cpu.r[1] == 0);
    let m = exec(|a| {
        a.li(0, 0x0F).li(1, 0xF0).i(tst(0, 1));
    });
    assert!(m.cpu.z);
    let m = exec(|a| {
        a.li(0, 0xFFFF_FFFF).i(movs_i(1, 1)).i(cmn(0, 1));
    });
    assert_eq!(nzcv(&m), 0b0110);
}

#[test]
fn neg_and_compares() {
    let m = exec(|a| {
        a.i(movs_i(0, 0)).i(rsbs(1, 0));
    });
    assert_eq!((m.cpu.r[1], nzcv(&m)), (0, 0b0110));
    let m = exec(|a| {
        a.li(0, 0x8000_0000).i(rsbs(1, 0));
    });
    assert_eq!((m.cpu.r[1], nzcv(&m)), (0x8000_0000, 0b1001));
    let m = exec(|a| {
        a.i(movs_i(0, 1)).i(rsbs(1, 0));
    });
    assert_eq!((m.cpu.r[1], nzcv(&m)), (0xFFFF_FFFF, 0b1000));
    let m = exec(|a| {
        a.li(0, 3).li(1, 5).i(mov_hi(8, 0)).i(cmp_hi(8, 1)); // 3 - 5
    });
    assert_eq!(nzcv(&m), 0b1000);
    let m = exec(|a| {
        a.i(movs_i(0, 3)).i(movs_i(1, 3)).i(cmp_r(0, 1));
    });
    assert_eq!(nzcv(&m), 0b0110);
}

#[test]
fn extends_and_reverses() {
    let m = exec(|a| {
        a.li(0, 0x1234_8081);
        a.i(sxtb(1, 0)).i(sxth(2, 0)).i(uxtb(3, 0)).i(uxth(4, 0)).i(rev(5, 0)).i(rev16(6, 0)).i(revsh(7, 0));
    });
    assert_eq!(m.cpu.r[1], 0xFFFF_FF81);
    assert_eq!(m.cpu.r[2], 0xFFFF_8081);
    assert_eq!(m.cpu.r[3], 0x81);
    assert_eq!(m.cpu.r[4], 0x8081);
    assert_eq!(m.cpu.r[5], 0x8180_3412);
    assert_eq!(m.cpu.r[6], 0x3412_8180);
    assert_eq!(m.cpu.r[7], 0xFFFF_8180);
}

#[test]
fn loads_and_stores() {
    let m = exec(|a| {
        a.li(0, 0x2000_0100).li(1, 0x8180_7F01);
        a.i(str_i(1, 0, 4)).i(ldr_i(2, 0, 4));
        a.i(movs_i(3, 4)).i(ldrsb_r(4, 0, 3)); // byte 0x01
        a.i(movs_i(3, 7)).i(ldrsb_r(5, 0, 3)); // byte 0x81
        a.i(movs_i(3, 6)).i(ldrsh_r(6, 0, 3)); // half 0x8180
        a.i(ldrh_i(7, 0, 6));
    });
    assert_eq!(m.cpu.r[2], 0x8180_7F01);
    assert_eq!(m.cpu.r[4], 1);
    assert_eq!(m.cpu.r[5], 0xFFFF_FF81);
    assert_eq!(m.cpu.r[6], 0xFFFF_8180);
    assert_eq!(m.cpu.r[7], 0x8180);
    let m = exec(|a| {
        a.li(0, 0x2000_0200).li(1, 0xAABB_CCDD).i(movs_i(2, 0));
        a.i(str_r(2, 0, 2)); // zero word
        a.i(strb_i(1, 0, 1)).i(strh_i(1, 0, 2));
        a.i(ldr_i(3, 0, 0)).i(ldrb_i(4, 0, 1)).i(movs_i(5, 2)).i(ldrh_r(6, 0, 5)).i(ldrb_r(7, 0, 5));
        a.i(movs_i(5, 8)).i(strh_r(1, 0, 5)).i(movs_i(5, 11)).i(strb_r(1, 0, 5)).i(movs_i(5, 8)).i(ldr_r(5, 0, 5));
    });
    assert_eq!(m.cpu.r[3], 0xCCDD_DD00);
    assert_eq!(m.cpu.r[4], 0xDD);
    assert_eq!(m.cpu.r[6], 0xCCDD);
    assert_eq!(m.cpu.r[7], 0xDD);
    assert_eq!(m.cpu.r[5], 0xDD00_CCDD);
    // SP-relative and ADD Rd, SP
    let m = exec(|a| {
        a.i(sub_sp(16)).li(0, 77).i(str_sp(0, 8)).i(ldr_sp(1, 8)).i(add_rd_sp(2, 8)).i(add_sp(16));
    });
    assert_eq!(m.cpu.r[1], 77);
    assert_eq!(m.cpu.r[2], 0x2000_4000 - 16 + 8);
    assert_eq!(m.cpu.r[13], 0x2000_4000);
}

#[test]
fn multiple_loads_stores_push_pop() {
    let m = exec(|a| {
        a.li(0, 0x2000_0100).i(movs_i(1, 11)).i(movs_i(2, 22)).i(movs_i(3, 33));
        a.i(stm(0, 0b1110)); // writeback
        a.li(4, 0x2000_0100).i(ldm(4, 0b1110_0000)); // r5..r7, writeback r4
        a.li(0, 0x2000_0100).i(ldm(0, 0b0000_0011)); // base in list: no writeback
    });
    assert_eq!((m.cpu.r[5], m.cpu.r[6], m.cpu.r[7]), (11, 22, 33));
    assert_eq!(m.cpu.r[4], 0x2000_010C);
    assert_eq!(m.cpu.r[0], 11);
    assert_eq!(m.cpu.r[1], 22);
    let m = exec(|a| {
        a.i(movs_i(0, 1)).i(movs_i(1, 2)).li(2, 0x1234).i(mov_hi(14, 2));
        a.i(push(0b11, true)).i(movs_i(0, 0)).i(movs_i(1, 0)).i(pop(0b1100, false)).i(pop(0b1, false));
    });
    assert_eq!((m.cpu.r[2], m.cpu.r[3], m.cpu.r[0]), (1, 2, 0x1234));
    assert_eq!(m.cpu.r[13], 0x2000_4000);
}

#[test]
fn branches_and_calls() {
    let m = exec(|a| {
        a.i(movs_i(0, 0)).bl("f").i(adds_i8(0, 1)).b("done");
        a.label("f").i(adds_i8(0, 10)).i(bx(14));
        a.label("done");
    });
    assert_eq!(m.cpu.r[0], 11);
    // BLX register, MOV PC, ADD PC
    let m = exec(|a| {
        a.i(movs_i(0, 0)).adr_l(1, "g").i(adds_i8(1, 1)).i(blx(1)).i(adds_i8(0, 1)).b("next");
        a.align4().label("g").i(adds_i8(0, 100)).i(bx(14));
        a.label("next").adr_l(2, "h").i(mov_hi(15, 2)).i(adds_i8(0, 50)).align4().label("h").i(adds_i8(0, 2));
    });
    assert_eq!(m.cpu.r[0], 103);
    // Conditional branches: each cond taken exactly when it should be.
    for (cond, flagset, taken) in [
        (EQ, 0b0100, true),
        (NE, 0b0100, false),
        (CS, 0b0010, true),
        (CC, 0b0010, false),
        (MI, 0b1000, true),
        (PL, 0b1000, false),
        (VS, 0b0001, true),
        (VC, 0b0001, false),
        (HI, 0b0010, true),
        (HI, 0b0110, false),
        (LS, 0b0110, true),
        (GE, 0b1001, true),
        (LT, 0b1000, true),
        (GT, 0b0000, true),
        (GT, 0b0100, false),
        (LE, 0b0100, true),
    ] {
        let m = exec(|a| {
            a.i(movs_i(0, 0));
            flags(a, flagset);
            a.bc(cond, "t").i(movs_i(0, 1)).b("e").label("t").i(movs_i(0, 2)).label("e");
        });
        assert_eq!(m.cpu.r[0], if taken { 2 } else { 1 }, "cond {} flags {:04b}", cond, flagset);
    }
}

#[test]
fn adr_and_high_register_add() {
    let m = exec(|a| {
        a.align4().adr_l(0, "lit").b("x").align4().label("lit").i(0x5678).i(0x1234).label("x");
        a.i(ldr_i(1, 0, 0));
        a.li(2, 1000).i(mov_hi(9, 2)).i(movs_i(3, 24)).i(add_hi(9, 3)).i(mov_hi(4, 9));
        a.i(add_hi(13, 3)).i(mov_hi(5, 13)).i(sub_sp(24));
    });
    assert_eq!(m.cpu.r[1], 0x1234_5678);
    assert_eq!(m.cpu.r[4], 1024);
    assert_eq!(m.cpu.r[5], 0x2000_4000 + 24);
}

#[test]
fn special_registers() {
    let m = exec(|a| {
        a.li(0, 0x2000_3000).w(msr(9, 0)); // PSP
        a.i(movs_i(1, 2)).w(msr(20, 1)).i(ISB[0]).i(ISB[1]); // SPSEL = 1
        a.i(push(0b1, false)).w(mrs(2, 9)).w(mrs(3, 8)).w(mrs(4, 20));
        a.i(CPSID).w(mrs(5, 16)).i(CPSIE).w(mrs(6, 16));
        a.i(movs_i(7, 0)).w(msr(20, 7));
    });
    assert_eq!(m.cpu.r[2], 0x2000_3000 - 4);
    assert_eq!(m.cpu.r[3], 0x2000_4000);
    assert_eq!(m.cpu.r[4], 2);
    assert_eq!((m.cpu.r[5], m.cpu.r[6]), (1, 0));
    assert_eq!(m.cpu.r[13], 0x2000_4000);
    // xPSR flags round-trip and IPSR in a handler
    let m = exec(|a| {
        flags(a, 0b1010);
        a.w(mrs(0, 3)).i(svc(0)).b("after");
        a.label("svc").w(mrs(4, 5)).i(bx(14));
        a.label("after");
        a.vector(11, "svc");
    });
    assert_eq!(m.cpu.r[0], 0xA000_0000);
    assert_eq!(m.cpu.r[4], 11);
}

#[test]
fn instruction_timings() {
    let none = |_: &mut Asm| {};
    assert_eq!(
        cycles_of(none, |a| {
            a.i(NOP);
        }),
        1
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(adds_i8(0, 1)).i(YIELD).i(SEV).i(CPSID).i(CPSIE);
        }),
        5
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(muls(0, 1));
        }),
        1
    );
    assert_eq!(
        cycles_of(
            |a| {
                a.li(0, 0x2000_0000);
            },
            |a| {
                a.i(ldr_i(1, 0, 0)).i(str_i(1, 0, 4)).i(ldrb_i(1, 0, 1));
            }
        ),
        6
    );
    assert_eq!(
        cycles_of(
            |a| {
                a.li(0, 0x2000_0000);
            },
            |a| {
                a.i(stm(0, 0b1110));
            }
        ),
        4
    );
    assert_eq!(
        cycles_of(
            |a| {
                a.li(0, 0x2000_0000);
            },
            |a| {
                a.i(ldm(0, 0b1111_0000));
            }
        ),
        5
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(push(0b111, true)).i(pop(0b111, false)).i(add_sp(4));
        }),
        5 + 4 + 1
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.b("l").label("l");
        }),
        3
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(cmp_i(0, 0)).bc(NE, "l").label("l");
        }),
        2
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(cmp_i(0, 0)).bc(EQ, "l").label("l");
        }),
        4
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.w(DMB).w(DSB).w(ISB);
        }),
        12
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.w(mrs(0, 16)).w(msr(16, 0));
        }),
        8
    );
    // BL (4) + BX (3); POP {PC} (4 + 1) + PUSH {LR} (1 + 1)
    assert_eq!(
        cycles_of(none, |a| {
            a.bl("f").b("o").label("f").i(bx(14)).label("o");
        }),
        4 + 3 + 3
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.bl("f").b("o").label("f").i(push(0, true)).i(pop(0, true)).label("o");
        }),
        4 + 2 + 5 + 3
    );
    // ADR (1) + ADDS (1) + MOV PC (3); ADD PC, Rm (3)
    assert_eq!(
        cycles_of(none, |a| {
            a.adr_l(0, "t").i(adds_i8(0, 1)).i(mov_hi(15, 0)).align4().label("t");
        }),
        5
    );
    assert_eq!(
        cycles_of(none, |a| {
            a.i(movs_i(0, 2)).i(add_hi(15, 0)).i(NOP).i(NOP).i(NOP);
        }),
        1 + 3 + 1
    );
}

#[test]
fn undefined_and_unpredictable_encodings_fault() {
    for raw in [
        &[udf(0)][..],
        &[0xB100],
        &[0x47F8],
        &[0x4701],
        &[0xBF01],
        &[0xE800, 0x0000],
        &[0xF7F0, 0xA000],
        &[0xBA80],
        &[0xB400],
        &[0xC000],
        &[bkpt(1)],
        &[0x4578],
    ] {
        let mut a = Asm::new();
        a.label("reset").i(NOP);
        for h in raw {
            a.i(*h);
        }
        a.i(NOP);
        let mut c = cfg(Board::VP_M0);
        c.fault_stop = true;
        let (_, stop) = run(&a, c);
        match stop {
            Stop::FaultStop(f) => assert_eq!(f.pc, CODE_BASE + 2, "{:x?}", raw),
            other => panic!("{:x?}: expected a fault, got {:?}", raw, other),
        }
    }
}

#[test]
fn small_multiplier_takes_32_cycles() {
    let mut a = Asm::new();
    a.label("reset").i(movs_i(0, 7)).i(movs_i(1, 6)).i(muls(0, 1)).label("end").i(udf(0));
    let mut c = cfg(Board::VP_M0);
    c.fault_stop = true;
    c.mul_cycles = 32;
    let (m, _) = run(&a, c.clone());
    c.mul_cycles = 1;
    let (m1, _) = run(&a, c);
    assert_eq!(m.cpu.r[0], 42);
    assert_eq!(m.cyc - m1.cyc, 31);
}
