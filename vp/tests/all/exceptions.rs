//! Exception model: priorities, PRIMASK, late arrival, tail chain, faults, lock-up, sleep.

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::trace::Event;
use rtoslab_vp::Board;

fn entries(m: &rtoslab_vp::Machine) -> Vec<(u64, u32)> {
    events(m)
        .iter()
        .filter_map(|e| if let Event::ExcEntry { c, exc, .. } = e { Some((*c, *exc)) } else { None })
        .collect()
}

#[test]
fn primask_defers_pendsv_until_cpsie() {
    let mut a = Asm::new();
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(movs_i(5, 2));
    a.i(CPSID).poke(ICSR, 1 << 28).n(NOP, 20);
    a.i(str_i(4, 6, 0)).i(CPSIE).n(NOP, 20).exit(1);
    a.label("pendsv").i(str_i(5, 6, 0)).exit(0);
    a.vector(14, "pendsv");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let p = probe_cycles(&m);
    // toggle (2) + CPSIE (1) + entry (15) + toggle (2)
    assert_eq!(p[1] - p[0], 1 + 15 + 2);
}

#[test]
fn svc_with_primask_set_is_hardfault() {
    let mut a = Asm::new();
    a.label("reset").i(CPSID).i(svc(3)).exit(1);
    a.label("svc").exit(2);
    a.label("hf").exit(7);
    a.vector(11, "svc").vector(3, "hf");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(7));
    assert_eq!(entries(&m).iter().map(|e| e.1).collect::<Vec<_>>(), vec![3]);
    assert!(events(&m).iter().any(|e| matches!(e, Event::Fault { reason, .. } if reason.contains("PRIMASK"))));
}

#[test]
fn svc_inside_svc_escalates() {
    let mut a = Asm::new();
    a.label("reset").i(svc(0)).exit(1);
    a.label("svc").i(svc(1)).exit(2);
    a.label("hf").exit(9);
    a.vector(11, "svc").vector(3, "hf");
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(9));
}

#[test]
fn bad_exc_return_faults_and_fault_in_hardfault_locks_up() {
    let mut a = Asm::new();
    a.label("reset").i(svc(0)).exit(1);
    a.label("svc").li(0, 0xFFFF_FFF5).i(bx(0));
    a.label("hf").i(udf(1));
    a.vector(11, "svc").vector(3, "hf");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    match s {
        Stop::Lockup(f) => {
            assert_eq!(f.pc, a.addr("hf"));
            assert!(m.last_fault.as_ref().unwrap().reason.contains("EXC_RETURN"));
        }
        other => panic!("expected lock-up, got {:?}", other),
    }
    assert_eq!(s_status(&a), 126);
}

fn s_status(a: &Asm) -> i32 {
    run(a, cfg(Board::VP_M0)).1.status()
}

#[test]
fn fault_stop_reports_the_access() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0002).label("bad").i(ldr_i(1, 0, 0));
    let mut c = cfg(Board::VP_M0);
    c.fault_stop = true;
    let (_, s) = run(&a, c);
    match s {
        Stop::FaultStop(f) => {
            assert_eq!(f.pc, a.addr("bad"));
            let acc = f.access.unwrap();
            assert_eq!((acc.addr, acc.size, acc.write), (0x2000_0002, 4, false));
            assert!(acc.why.contains("unaligned"));
        }
        other => panic!("{:?}", other),
    }
}

#[test]
fn hardfault_stacks_faulting_pc() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x3000_0000).label("bad").i(str_i(0, 0, 0)).exit(1);
    // HardFault: read the stacked PC (sp+24) and exit with it (low byte).
    a.label("hf").i(ldr_sp(0, 24)).li(1, EXIT).i(str_i(0, 1, 0));
    a.vector(3, "hf");
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(a.addr("bad") as u8));
}

#[test]
fn late_arrival_takes_the_more_urgent_first_then_tail_chains() {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 3).poke(NVIC_IPR0, 0x0000_00C0); // IRQ0 low, IRQ1 high
    a.li(0, NVIC_ISPR).i(movs_i(1, 1)).i(movs_i(2, 2));
    a.i(str_i(1, 0, 0)).i(str_i(2, 0, 0)).n(NOP, 40).exit(1);
    a.label("irq0").exit(0);
    a.label("irq1").i(bx(14));
    a.vector(16, "irq0").vector(17, "irq1");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let en = entries(&m);
    assert_eq!(en.len(), 1);
    assert_eq!(en[0].1, 17);
    assert!(events(&m).iter().any(|e| matches!(e, Event::TailChain { from: 17, exc: 16, .. })));
}

#[test]
fn nested_preemption_and_exc_return_values() {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 3).poke(NVIC_IPR0, 0x0000_00C0);
    a.poke(NVIC_ISPR, 1).n(NOP, 30).exit(1);
    // IRQ0 (low) pends IRQ1 (high), which preempts it; IRQ1 records its LR in r7.
    a.label("irq0").i(mov_hi(4, 14)).poke(NVIC_ISPR, 2).n(NOP, 30).i(mov_hi(0, 4)).li(1, EXIT).i(str_i(7, 1, 0));
    a.label("irq1").i(mov_hi(7, 14)).i(bx(14));
    a.vector(16, "irq0").vector(17, "irq1");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0xF1));
    assert_eq!(m.cpu.r[4], 0xFFFF_FFF9);
    assert_eq!(entries(&m).iter().map(|e| e.1).collect::<Vec<_>>(), vec![16, 17]);
}

#[test]
fn equal_priority_does_not_preempt() {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 3).poke(NVIC_ISPR, 1).n(NOP, 30).exit(1);
    a.label("irq0").poke(NVIC_ISPR, 2).n(NOP, 30).i(movs_i(7, 1)).i(bx(14));
    a.label("irq1").i(mov_hi(0, 7)).li(1, EXIT).i(str_i(0, 1, 0));
    a.vector(16, "irq0").vector(17, "irq1");
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(1)); // IRQ1 ran after IRQ0 finished (r7 = 1)
}

#[test]
fn psp_thread_switch_is_traced() {
    // Thread on PSP; PendSV swaps to a second "thread" frame prepared in RAM.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_3000).w(msr(9, 0)).i(movs_i(1, 2)).w(msr(20, 1)).w(ISB);
    // Prepare a frame for thread B at 0x20002000: xPSR = 0x01000000, PC = threadb.
    a.li(2, 0x2000_2000).adr_l(3, "threadb").i(adds_i8(3, 1)).i(str_i(3, 2, 24)).li(3, 0x0100_0000).i(str_i(3, 2, 28));
    a.i(push(0b1111, false)).i(pop(0b1111, false)); // make the PSP reach lower
    a.poke(ICSR, 1 << 28).n(NOP, 10).exit(1);
    a.align4().label("threadb").exit(0);
    a.label("pendsv").li(0, 0x2000_2000).w(msr(9, 0)).i(bx(14));
    a.vector(14, "pendsv");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let sw: Vec<_> = events(&m).into_iter().filter(|e| matches!(e, Event::Switch { .. })).collect();
    assert_eq!(sw.len(), 1);
    if let Event::Switch { from_psp, to_psp, low, .. } = &sw[0] {
        assert_eq!(*from_psp, 0x2000_3000 - 32);
        assert_eq!(*to_psp, 0x2000_2000);
        assert_eq!(*low, 0x2000_3000 - 32);
    }
}

#[test]
fn frame_alignment_bit() {
    // SP 4 mod 8 at entry: frame aligned down, xPSR bit 9 set, SP restored exactly.
    let mut a = Asm::new();
    a.label("reset")
        .i(sub_sp(4))
        .i(svc(0))
        .i(mov_hi(0, 13))
        .i(add_sp(4))
        .li(1, 0x2000_4000 - 4)
        .i(cmp_r(0, 1))
        .bc(EQ, "ok")
        .exit(1);
    a.label("ok").exit(0);
    a.label("svc").i(ldr_sp(0, 28)).i(lsrs_i(0, 0, 9)).i(lsls_i(0, 0, 31)).bc(EQ, "bad").i(bx(14));
    a.label("bad").exit(2);
    a.vector(11, "svc");
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
}

#[test]
fn wfi_skips_ahead_to_the_next_interrupt() {
    let mut a = Asm::new();
    a.label("reset").poke(SYST_RVR, 99_999).poke(SYST_CVR, 0).poke(SYST_CSR, 7);
    a.i(movs_i(7, 0)).label("loop").i(WFI).i(cmp_i(7, 5)).bc(NE, "loop").exit(0);
    a.label("tick").i(adds_i8(7, 1)).i(bx(14));
    a.vector(15, "tick");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.cyc > 500_000 && m.cyc < 520_000, "{}", m.cyc);
    assert!(m.insns < 200, "slept, not spun: {} instructions", m.insns);
    let ev = events(&m);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Sleep { .. })).count(), 5);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Wake { .. })).count(), 5);
}

#[test]
fn wfi_with_primask_wakes_without_taking() {
    let mut a = Asm::new();
    a.label("reset")
        .i(CPSID)
        .poke(NVIC_ISER, 1)
        .li(0, TIMER)
        .li(1, 5000)
        .i(str_i(1, 0, 4))
        .i(movs_i(1, 1))
        .i(str_i(1, 0, 8));
    a.i(WFI).li(0, TIMER).i(ldr_i(2, 0, 0)).exit(0);
    a.label("irq").exit(1);
    a.vector(16, "irq");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.cpu.r[2] > 5000 && m.cpu.r[2] < 5100);
}

#[test]
fn wfe_and_sev() {
    let mut a = Asm::new();
    a.label("reset").i(SEV).i(WFE).exit(0); // event already set: WFE returns at once
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.cyc < 100);
    // WFE with nothing to wake it and no limit: sleeps forever -> status 124.
    let mut a = Asm::new();
    a.label("reset").i(WFE).i(WFE).exit(0);
    let mut c = cfg(Board::VP_M0);
    c.max_cycles = None;
    let (_, s) = run(&a, c);
    assert_eq!(s, Stop::SleepForever);
    assert_eq!(s.status(), 124);
}

#[test]
fn sleeponexit_returns_to_sleep() {
    let mut a = Asm::new();
    a.label("reset").poke(0xE000_ED10, 2).poke(SYST_RVR, 999).poke(SYST_CVR, 0).i(movs_i(7, 0)).poke(SYST_CSR, 7);
    a.label("idle").i(WFI).exit(1);
    a.label("tick").i(adds_i8(7, 1)).i(cmp_i(7, 4)).bc(EQ, "done").i(bx(14));
    a.label("done").exit(0);
    a.vector(15, "tick");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert!(m.cyc > 3900 && m.cyc < 4200, "{}", m.cyc);
}

#[test]
fn interrupt_abandons_push_and_restarts_it() {
    // Sweep the timer over every phase of a loop made mostly of a 10-cycle PUSH: the
    // latency from the line to the handler stays 16 whenever the arrival falls inside it.
    let mut lat = Vec::new();
    for k in 0..14u32 {
        let mut a = Asm::new();
        a.label("reset")
            .poke(NVIC_ISER, 1)
            .li(0, TIMER)
            .li(1, 2000 + k)
            .i(str_i(1, 0, 4))
            .i(movs_i(1, 1))
            .i(str_i(1, 0, 8));
        a.label("loop").i(push(0xFF, true)).i(add_sp(36)).b("loop");
        a.label("irq").li(0, TIMER).i(ldr_i(1, 0, 12)).i(mov_hi(2, 13)).exit(0);
        a.vector(16, "irq");
        let (m, s) = run(&a, cfg(Board::VP_M0));
        assert_eq!(s, Stop::Exit(0));
        let entry = entries(&m)[0].0;
        lat.push(entry - (2000 + k as u64));
        // Frame pushed on the original SP (PUSH abandoned) or just after the PUSH.
        assert!(m.cpu.r[2] == 0x2000_4000 - 32 || m.cpu.r[2] == 0x2000_4000 - 72, "stack: {:x}", m.cpu.r[2]);
    }
    assert!(lat.iter().all(|l| *l >= 16 && *l <= 18), "{:?}", lat);
    assert!(lat.iter().filter(|l| **l == 16).count() >= 11, "{:?}", lat);
}

#[test]
fn stacking_overflow_locks_up() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0010).i(mov_hi(13, 0)).i(svc(0)).exit(1);
    a.label("svc").exit(2);
    a.vector(11, "svc");
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert!(matches!(s, Stop::Lockup(ref f) if f.reason.contains("stacking")), "{:?}", s);
}

#[test]
fn systick_registers_and_countflag() {
    let mut a = Asm::new();
    a.label("reset").poke(SYST_RVR, 100).poke(SYST_CVR, 0).poke(SYST_CSR, 5).n(NOP, 150);
    a.li(0, SYST_CSR)
        .i(ldr_i(6, 0, 0))
        .i(ldr_i(2, 0, 0))
        .i(ldr_i(3, 0, 4))
        .i(ldr_i(4, 0, 8))
        .i(ldr_i(5, 0, 12))
        .exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!(m.cpu.r[6], 0x0001_0005);
    assert_eq!(m.cpu.r[2], 0x0000_0005);
    assert_eq!(m.cpu.r[3], 100);
    assert!(m.cpu.r[4] <= 100);
    assert_eq!(m.cpu.r[5] & 0x00FF_FFFF, 479_999);
}

#[test]
fn scb_and_nvic_registers() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0xE000_ED00).i(ldr_i(2, 0, 0)).i(mov_hi(8, 2)).i(ldr_i(2, 0, 0x14));
    a.poke(NVIC_IPR0 + 4, 0xFFFF_FFFF).li(0, NVIC_IPR0 + 4).i(ldr_i(3, 0, 0));
    a.poke(NVIC_ISER, 0x8000_0001)
        .li(0, NVIC_ISER)
        .i(ldr_i(4, 0, 0))
        .poke(0xE000_E180, 1)
        .li(0, NVIC_ISER)
        .i(ldr_i(5, 0, 0));
    a.poke(SHPR3, 0xFFFF_FFFF).li(0, SHPR3).i(ldr_i(6, 0, 0));
    a.li(0, 0xE000_ED0C).i(ldr_i(7, 0, 0)).exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!(m.cpu.r[8], 0x410C_C200);
    assert_eq!(m.cpu.r[2], 0x208);
    assert_eq!(m.cpu.r[3], 0xC0C0_C0C0);
    assert_eq!(m.cpu.r[4], 0x8000_0001);
    assert_eq!(m.cpu.r[5], 0x8000_0000);
    assert_eq!(m.cpu.r[6], 0xC0C0_0000);
    assert_eq!(m.cpu.r[7], 0xFA05_0000);
}

#[test]
fn icsr_reports_pending_and_active() {
    let mut a = Asm::new();
    a.label("reset").i(CPSID).poke(ICSR, 1 << 28).n(NOP, 4).li(0, ICSR).i(ldr_i(7, 0, 0)).i(svc(0)).exit(0);
    a.label("svc").li(0, ICSR).i(ldr_i(6, 0, 0)).i(bx(14));
    a.vector(11, "svc");
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!(m.cpu.r[7] & (1 << 28), 1 << 28);
    assert_eq!((m.cpu.r[7] >> 12) & 0x3F, 14);
}

#[test]
fn sysresetreq_resets() {
    let mut a = Asm::new();
    // First pass: r7 survives? No: registers reset; RAM survives. Count boots in RAM.
    a.label("reset")
        .li(0, 0x2000_0000)
        .i(ldr_i(1, 0, 0))
        .i(adds_i8(1, 1))
        .i(str_i(1, 0, 0))
        .i(cmp_i(1, 3))
        .bc(EQ, "done");
    a.poke(0xE000_ED0C, 0x05FA_0004).n(NOP, 4).exit(9);
    a.label("done").exit(0);
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
}

#[test]
fn invstate_branch_stacks_t_clear() {
    let mut a = Asm::new();
    a.label("reset").adr_l(0, "tgt").label("br").i(bx(0)).exit(1).align4().label("tgt").i(NOP).exit(2);
    // HardFault: exit with (stacked xPSR >> 24) | stacked PC low byte check.
    a.label("hf").i(ldr_sp(0, 28)).i(lsrs_i(0, 0, 24)).i(ldr_sp(2, 24)).li(1, EXIT).i(str_i(0, 1, 0));
    a.vector(3, "hf");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0), "T bit of the stacked xPSR must be 0");
    assert_eq!(m.cpu.r[2], a.addr("tgt"));
}

#[test]
fn semihosting_features_file_for_newlib() {
    let mut a = Asm::new();
    a.data.push((0x800, b":semihosting-features\0".to_vec()));
    a.label("reset")
        .li(2, 0x2000_0000)
        .li(3, 0x800)
        .i(str_i(3, 2, 0))
        .i(movs_i(3, 0))
        .i(str_i(3, 2, 4))
        .i(movs_i(3, 21))
        .i(str_i(3, 2, 8));
    a.li(1, 0x2000_0000).i(movs_i(0, 1)).i(bkpt(0xAB)).i(mov_hi(8, 0));
    // SYS_READ(handle, 0x20000040, 5)
    a.li(2, 0x2000_0000).i(str_i(0, 2, 0)).li(3, 0x2000_0040).i(str_i(3, 2, 4)).i(movs_i(3, 5)).i(str_i(3, 2, 8));
    a.li(1, 0x2000_0000).i(movs_i(0, 6)).i(bkpt(0xAB)).i(mov_hi(9, 0));
    a.li(2, 0x2000_0040).i(ldr_i(4, 2, 0)).i(ldrb_i(5, 2, 4)).exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!(m.cpu.r[9], 0);
    assert_eq!(m.cpu.r[4], u32::from_le_bytes(*b"SHFB"));
    assert_eq!(m.cpu.r[5] & 1, 1);
}

#[test]
fn interrupt_abandons_small_multiply() {
    let mut lat = Vec::new();
    for k in 0..8u32 {
        let mut a = Asm::new();
        a.label("reset")
            .poke(NVIC_ISER, 1)
            .li(0, TIMER)
            .li(1, 2000 + k * 4)
            .i(str_i(1, 0, 4))
            .i(movs_i(1, 1))
            .i(str_i(1, 0, 8));
        a.i(movs_i(2, 3)).i(movs_i(3, 5)).label("loop").i(muls(2, 3)).b("loop");
        a.label("irq").exit(0);
        a.vector(16, "irq");
        let mut c = cfg(Board::VP_M0);
        c.mul_cycles = 32;
        let (m, s) = run(&a, c);
        assert_eq!(s, Stop::Exit(0));
        lat.push(entries(&m)[0].0 - (2000 + k as u64 * 4));
    }
    assert!(lat.iter().all(|l| *l <= 18), "{:?}", lat);
}

fn switches(m: &rtoslab_vp::Machine) -> Vec<(u32, u32, u32, &'static str)> {
    events(m)
        .into_iter()
        .filter_map(|e| match e {
            Event::Switch { from_psp, to_psp, low, how, .. } => Some((from_psp, to_psp, low, how)),
            _ => None,
        })
        .collect()
}

#[test]
fn thread_mode_switch_between_stack_objects_is_traced() {
    // Two stacks as ELF data objects; a kernel-like `mov sp, rX` moves between them in
    // thread mode, no exception. The compiler's own frame code inside one stack (a VLA
    // allocation and its `mov sp, r7` epilogue, a large frame through ADD SP,Rm) is not a
    // switch.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_1100).i(mov_hi(13, 0)); // main stack -> stack A
    a.i(push(0b1111, false)).i(pop(0b1111, false)); // A reaches 0x200010F0
    a.li(1, 0x2000_27C0).i(mov_hi(13, 1)); // A -> B
    a.i(mov_hi(7, 13)).i(mov_hi(3, 13)).li(2, 0x100).i(subs_r(3, 3, 2)).i(mov_hi(13, 3)); // VLA
    a.i(push(0b1, false)).i(pop(0b1, false)).i(mov_hi(13, 7)); // epilogue
    a.li(3, 0xFFFF_FC00).i(add_hi(13, 3)).li(3, 0x400).i(add_hi(13, 3)); // 1 KiB frame
    a.i(CPSID).i(mov_hi(13, 7)).i(CPSIE); // no change: nothing
    a.exit(0);
    let mut m = machine(&a, cfg(Board::VP_M0));
    m.ram_objects = vec![(0x2000_1000, 0x2000_1100), (0x2000_2000, 0x2000_2800)];
    assert_eq!(m.run(), Stop::Exit(0));
    assert_eq!(
        switches(&m),
        vec![(0x2000_4000, 0x2000_1100, 0x2000_4000, "thread"), (0x2000_1100, 0x2000_27C0, 0x2000_10F0, "thread"),]
    );
    // the cycle is the one the first instruction on the new stack starts
    let c: Vec<u64> =
        events(&m).iter().filter_map(|e| if let Event::Switch { c, .. } = e { Some(*c) } else { None }).collect();
    assert!(c[0] > 0 && c[1] > c[0]);
}

#[test]
fn thread_mode_switch_inside_one_region_needs_primask() {
    // No data objects (or one arena holding every stack): only a load with interrupts
    // masked, as a preemptive kernel must do it, is a switch; ADD SP,Rm never is.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_3000).i(mov_hi(13, 0)); // interrupts on: frame code
    a.i(CPSID).li(3, 0xFFFF_F000).i(add_hi(13, 3)); // a 4 KiB frame, masked: not a switch
    a.li(0, 0x2000_2F00).i(mov_hi(13, 0)).i(CPSIE); // masked MOV SP: a switch
    a.i(CPSID).li(0, 0x2000_1000).w(msr(8, 0)).i(CPSIE); // masked MSR MSP (active): a switch
    a.li(0, 0x2000_0800).w(msr(8, 0)); // unmasked MSR MSP: not
    a.exit(0);
    let mut m = machine(&a, cfg(Board::VP_M0));
    m.ram_objects = vec![(0x2000_0000, 0x2000_4000)];
    assert_eq!(m.run(), Stop::Exit(0));
    assert_eq!(
        switches(&m),
        vec![(0x2000_2000, 0x2000_2F00, 0x2000_2000, "thread"), (0x2000_2F00, 0x2000_1000, 0x2000_2F00, "thread")]
    );
}

#[test]
fn exception_return_to_an_idle_loop_on_msp_is_a_switch() {
    // A thread on PSP pends PendSV; the handler returns to thread mode on MSP (an idle loop
    // running on the interrupt stack): a switch, as is the way back.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_3000).w(msr(9, 0)).i(movs_i(1, 2)).w(msr(20, 1)).w(ISB);
    a.i(push(0b1111, false)).i(pop(0b1111, false));
    a.poke(ICSR, 1 << 28).n(NOP, 10).exit(1);
    a.label("pendsv").li(0, 0x2000_4000 - 32).w(msr(8, 0));
    a.adr_l(3, "idle").i(str_i(3, 0, 24)).li(3, 0x0100_0000).i(str_i(3, 0, 28));
    a.li(0, 0xFFFF_FFF9).i(bx(0));
    a.align4().label("idle").exit(0);
    a.vector(14, "pendsv");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(switches(&m), vec![(0x2000_3000 - 32, 0x2000_4000 - 32, 0x2000_3000 - 32, "exception")]);
}
