//! ARMv7-M system behaviour on vp-m3: BASEPRI and FAULTMASK masking, 8 priority bits with
//! byte stores to the priority registers, PRIGROUP, VTOR, DIV_0_TRP, and that vp-m0 still
//! rejects what ARMv6-M lacks.

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::Board;

const SCB_VTOR: u32 = 0xE000_ED08;
const SCB_AIRCR: u32 = 0xE000_ED0C;
const SCB_CCR: u32 = 0xE000_ED14;

fn setup(a: &mut Asm) {
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2)).i(movs_i(7, 3));
}

/// PendSV at priority `prio` (a byte store to SHPR3), BASEPRI = `basepri`, PendSV pended;
/// the thread toggles, then clears BASEPRI. Returns the number of toggles (2: the PendSV
/// waited for BASEPRI to drop; 1: it preempted at once, its handler exits before the thread's).
fn basepri_toggles(prio: u32, basepri: u32, mask: [u16; 2]) -> usize {
    basepri_toggles_grouped(0, prio, basepri, mask)
}

/// `basepri_toggles` under AIRCR.PRIGROUP = `prigroup`.
fn basepri_toggles_grouped(prigroup: u32, prio: u32, basepri: u32, mask: [u16; 2]) -> usize {
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(SCB_AIRCR, 0x05FA_0000 | (prigroup << 8));
    a.li(0, SHPR3 + 2).li(1, prio).i(strb_i(1, 0, 0));
    a.li(2, basepri).w(msr(17, 2)).w(mask);
    a.li(0, ICSR).li(1, 1 << 28).i(str_i(1, 0, 0)).n(NOP, 8);
    a.i(str_i(7, 6, 0)).i(movs_i(2, 0)).w(msr(17, 2)).w(msr(19, 2)).n(NOP, 4).exit(1);
    a.label("pendsv").i(str_i(5, 6, 0)).exit(0);
    a.vector(14, "pendsv");
    let (m, stop) = run(&a, cfg(Board::VP_M3));
    assert_eq!(stop, Stop::Exit(0));
    probe_cycles(&m).len()
}

#[test]
fn basepri_masks_at_and_below_its_threshold_and_faultmask_masks_all() {
    let nop_w = [0xF3AF, 0x8000];
    assert_eq!(basepri_toggles(0x80, 0x40, nop_w), 2, "priority 0x80 under BASEPRI 0x40");
    assert_eq!(basepri_toggles(0x40, 0x40, nop_w), 2, "priority equal to BASEPRI");
    assert_eq!(basepri_toggles(0x3F, 0x40, nop_w), 1, "priority 0x3F above BASEPRI 0x40 (8 bits kept)");
    assert_eq!(basepri_toggles(0x80, 0x00, nop_w), 1, "BASEPRI 0 masks nothing");
    // CPSID f (FAULTMASK) masks even priority 0
    assert_eq!(basepri_toggles(0x00, 0x00, [0xB671, 0xBF00]), 2, "FAULTMASK");
}

#[test]
fn basepri_masks_by_group_priority() {
    // ARMv7-M ARM B1.5.4 ExecutionPriority(): BASEPRI boosts to its group priority. Under
    // PRIGROUP 1 (group = bits 7:2) BASEPRI 0x6B is group 0x68, which masks priority 0x69
    // (group 0x68 too) though 0x69 < 0x6B; 0x67 (group 0x64) still preempts. Under
    // PRIGROUP 0 (group = bits 7:1) 0x69 (group 0x68) preempts BASEPRI 0x6B (group 0x6A).
    let nop_w = [0xF3AF, 0x8000];
    assert_eq!(basepri_toggles_grouped(1, 0x69, 0x6B, nop_w), 2, "0x69 under BASEPRI 0x6B, PRIGROUP 1");
    assert_eq!(basepri_toggles_grouped(1, 0x67, 0x6B, nop_w), 1, "0x67 above BASEPRI 0x6B, PRIGROUP 1");
    assert_eq!(basepri_toggles_grouped(0, 0x69, 0x6B, nop_w), 1, "0x69 above BASEPRI 0x6B, PRIGROUP 0");
}

#[test]
fn prigroup_subpriority_does_not_preempt() {
    // PRIGROUP 5: group = bits 7:6; PRIGROUP 7: every bit is subpriority. An active SVC at
    // 0x40 is not preempted by PendSV at 0x60 (same group) nor, under PRIGROUP 7, at 0x00.
    for (prigroup, pendsv, want) in [(5u32, 0x60u32, 2usize), (7, 0x00, 2), (5, 0x00, 1), (0, 0x20, 1)] {
        let mut a = Asm::new();
        setup(&mut a);
        a.poke(SCB_AIRCR, 0x05FA_0000 | (prigroup << 8));
        a.poke(SHPR2, 0x4000_0000).poke(SHPR3, pendsv << 16);
        a.i(svc(0)).exit(1);
        a.label("svc").li(0, ICSR).li(1, 1 << 28).i(str_i(1, 0, 0)).n(NOP, 8).i(str_i(7, 6, 0)).i(bx(14));
        a.label("pendsv").i(str_i(5, 6, 0)).exit(0);
        a.vector(11, "svc").vector(14, "pendsv");
        let (m, stop) = run(&a, cfg(Board::VP_M3));
        assert_eq!(stop, Stop::Exit(0));
        assert_eq!(probe_cycles(&m).len(), want, "PRIGROUP {} PendSV 0x{:02x}", prigroup, pendsv);
    }
}

#[test]
fn vtor_moves_the_vector_table_to_ram() {
    let mut a = Asm::new();
    setup(&mut a);
    // copy the SVC vector into a RAM table at 0x20000400 and point VTOR there
    a.li(0, 0x2000_0400 + 11 * 4).adr_l(1, "svc2").i(adds_i8(1, 1)).i(str_i(1, 0, 0));
    a.poke(SCB_VTOR, 0x2000_0400);
    a.i(svc(0)).exit(1);
    a.label("svc").exit(2);
    a.align4().label("svc2").i(str_i(5, 6, 0)).exit(0);
    a.vector(11, "svc");
    let (_, stop) = run(&a, cfg(Board::VP_M3));
    assert_eq!(stop, Stop::Exit(0));
}

#[test]
fn divide_by_zero_is_zero_unless_trapped() {
    for (trap, want) in [(false, Stop::Exit(0)), (true, Stop::Exit(3))] {
        let mut a = Asm::new();
        setup(&mut a);
        if trap {
            a.poke(SCB_CCR, 1 << 4);
        }
        a.li(1, 100).i(movs_i(2, 0)).i(movs_i(3, 7)).i(0xFBB1).i(0xF3F2); // UDIV r3, r1, r2
        a.i(cmp_i(3, 0)).bc(1, "bad").exit(0);
        a.label("bad").exit(1);
        a.label("hardfault").exit(3);
        a.vector(3, "hardfault");
        let (_, stop) = run(&a, cfg(Board::VP_M3));
        assert_eq!(stop, want, "DIV_0_TRP {}", trap);
    }
}

#[test]
fn priority_bytes_read_back_on_v7m_and_fault_on_v6m() {
    // ARMv7-M ARM, SHPR1-3 and NVIC_IPRn: byte accessible; ARMv6-M's are word-access only
    // (ARMv6-M ARM, the same registers). RTX5's SVC_Setup writes the
    // PendSV byte of SHPR3 and reads it back to find the implemented priority bits.
    let mut a = Asm::new();
    setup(&mut a);
    a.li(0, SHPR3 + 2).li(1, 0xFF).i(strb_i(1, 0, 0)).i(ldrb_i(2, 0, 0));
    a.li(0, NVIC_IPR0 + 1).li(1, 0xA0).i(strb_i(1, 0, 0)).i(ldrb_i(3, 0, 0));
    a.i(cmp_i(2, 0xFF)).bc(1, "bad").i(cmp_i(3, 0xA0)).bc(1, "bad").exit(0);
    a.label("bad").exit(1);
    a.label("hardfault").exit(3);
    a.vector(3, "hardfault");
    assert_eq!(run(&a, cfg(Board::VP_M3)).1, Stop::Exit(0));
    assert_eq!(run(&a, cfg(Board::VP_M0)).1, Stop::Exit(3));
}

#[test]
fn vp_m0_still_faults_on_thumb2() {
    let mut a = Asm::new();
    setup(&mut a);
    a.i(0xFBB1).i(0xF3F2).exit(0); // UDIV: undefined on ARMv6-M
    a.label("hardfault").exit(3);
    a.vector(3, "hardfault");
    assert_eq!(run(&a, cfg(Board::VP_M0)).1, Stop::Exit(3));
    assert_eq!(run(&a, cfg(Board::VP_M3)).1, Stop::Exit(0));
}

#[test]
fn icsr_rettobase_says_whether_the_handler_returns_to_thread_mode() {
    // SVC (priority 0x40) reads ICSR, then pends IRQ 0 (priority 0) which preempts it and
    // reads ICSR too; each stores what it read to RAM. Only the SVC returns to Thread mode.
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(SHPR2, 0x4000_0000).poke(NVIC_ISER, 1);
    a.i(svc(0)).li(0, 0x2000_0100).i(ldr_i(2, 0, 0)).i(ldr_i(3, 0, 4)).exit(0);
    a.label("svc").li(0, ICSR).i(ldr_i(1, 0, 0)).li(0, 0x2000_0100).i(str_i(1, 0, 0));
    a.poke(NVIC_ISPR, 1).n(NOP, 8).i(bx(14));
    a.label("irq0").li(0, ICSR).i(ldr_i(1, 0, 0)).li(0, 0x2000_0104).i(str_i(1, 0, 0)).i(bx(14));
    a.vector(11, "svc").vector(16, "irq0");
    for (board, svc_bit) in [(Board::VP_M3, 1 << 11), (Board::VP_M0, 0)] {
        let (m, stop) = run(&a, cfg(board));
        assert_eq!(stop, Stop::Exit(0), "on {}", board);
        assert_eq!(m.cpu.r[2] & (1 << 11), svc_bit, "RETTOBASE in the SVC handler on {}", board);
        assert_eq!(m.cpu.r[3] & (1 << 11), 0, "RETTOBASE in the nested IRQ handler on {}", board);
        assert_eq!((m.cpu.r[2] & 0x1FF, m.cpu.r[3] & 0x1FF), (11, 16), "VECTACTIVE on {}", board);
    }
}

#[test]
fn priority_registers_read_back_by_byte_and_halfword_on_armv7m() {
    // ARMv7-M ARM B3.2.10-12 and B3.4.3: SHPR and NVIC_IPR are byte-accessible, loads as
    // stores (RTX5's SVC_Setup reads SHPR3's PendSV byte back with LDRB).
    let mut a = Asm::new();
    setup(&mut a);
    a.poke(SHPR3, 0x40A0_0000).poke(0xE000_E400, 0x00C0_0000);
    a.li(0, SHPR3).i(ldrb_i(2, 0, 2)).i(ldrb_i(3, 0, 3)).i(ldrh_i(4, 0, 2));
    a.li(0, 0xE000_E400).i(ldrb_i(5, 0, 2)).exit(0);
    let (m, stop) = run(&a, cfg(Board::VP_M3));
    assert_eq!(stop, Stop::Exit(0));
    assert_eq!((m.cpu.r[2], m.cpu.r[3], m.cpu.r[4], m.cpu.r[5]), (0xA0, 0x40, 0x40A0, 0xC0));
}
