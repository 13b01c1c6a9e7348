//! Lab peripherals (EXIT, CYCLE, CLOCK, UART, probe, compare timer, stimulus), the memory
//! map (RAM limit, flash read-only, unmapped, word-only registers) and semihosting.

use crate::support::*;
use rtoslab_vp::machine::{Config, Stop};
use rtoslab_vp::peripherals::stimulus::StimulusSpec;
use rtoslab_vp::trace::Event;
use rtoslab_vp::Board;

fn fault_of(a: &Asm, ram: u32) -> rtoslab_vp::machine::FaultInfo {
    let mut c = cfg(Board::VP_M0);
    c.fault_stop = true;
    c.ram_size = ram;
    match run(a, c).1 {
        Stop::FaultStop(f) => f,
        other => panic!("expected a fault, got {:?}", other),
    }
}

#[test]
fn exit_register_status() {
    let mut a = Asm::new();
    a.label("reset").exit(0x1_23);
    let (_, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0x23));
}

#[test]
fn cycle_counter_latches_and_clock() {
    let mut a = Asm::new();
    a.label("reset")
        .li(0, 0x4F00_0000)
        .n(NOP, 3)
        .label("ld")
        .i(ldr_i(2, 0, 4))
        .i(ldr_i(3, 0, 8))
        .i(ldr_i(4, 0, 12))
        .exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    // the load's start cycle: li (3 instr) + 3 NOPs
    assert_eq!(m.cpu.r[2], 7); // li = MOVS + 3 LSLS, then 3 NOPs
    assert_eq!(m.cpu.r[3], 0);
    assert_eq!(m.cpu.r[4], 48_000_000);
}

#[test]
fn uart_writes_console() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x4F00_1000);
    for b in b"hi\n" {
        a.i(movs_i(1, *b as u16)).i(str_i(1, 0, 0));
    }
    a.exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!(m.bus.console, b"hi\n");
}

#[test]
fn probe_set_clear_mark_events() {
    let mut a = Asm::new();
    a.label("reset").li(6, PROBE_OUT).i(movs_i(1, 5)).i(str_i(1, 6, 4)).i(movs_i(1, 1)).i(str_i(1, 6, 8));
    a.i(str_i(1, 6, 8)).li(1, 0xABCD).i(str_i(1, 6, 12)).i(ldr_i(7, 6, 0)).exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    let ev: Vec<_> = events(&m).into_iter().filter(|e| matches!(e, Event::Probe { .. } | Event::Mark { .. })).collect();
    assert_eq!(ev.len(), 3, "{:?}", ev); // set, clear (second clear changes nothing), mark
    assert!(matches!(ev[0], Event::Probe { pins: 5, changed: 5, .. }));
    assert!(matches!(ev[1], Event::Probe { pins: 4, changed: 1, .. }));
    assert!(matches!(ev[2], Event::Mark { value: 0xABCD, .. }));
    assert_eq!(m.cpu.r[7], 4);
}

#[test]
fn compare_timer_fires_and_records() {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 1).li(0, TIMER).li(1, 3000).i(str_i(1, 0, 4)).i(movs_i(1, 1)).i(str_i(1, 0, 8));
    a.label("spin").b("spin");
    a.label("irq").li(0, TIMER).i(ldr_i(2, 0, 12)).i(ldr_i(3, 0, 8)).i(ldr_i(4, 0, 0)).exit(0);
    a.vector(16, "irq");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(m.cpu.r[2], 3000);
    assert_eq!(m.cpu.r[3], 0, "ARM cleared by hardware");
    assert!(m.cpu.r[4] > 3016);
}

#[test]
fn compare_timer_in_the_past_fires_at_once() {
    let mut a = Asm::new();
    a.label("reset")
        .poke(NVIC_ISER, 1)
        .li(0, TIMER)
        .i(movs_i(1, 5))
        .i(str_i(1, 0, 4))
        .i(movs_i(1, 1))
        .label("arm")
        .i(str_i(1, 0, 8));
    a.label("spin").i(NOP).b("spin");
    a.label("irq").li(0, TIMER).i(ldr_i(2, 0, 12)).exit(0);
    a.vector(16, "irq");
    let (m, _) = run(&a, cfg(Board::VP_M0));
    let entry =
        events(&m).iter().find_map(|e| if let Event::ExcEntry { c, .. } = e { Some(*c) } else { None }).unwrap();
    assert_eq!(entry, m.cpu.r[2] as u64 + 16);
    assert!(m.cpu.r[2] > 5);
}

#[test]
fn stimulus_from_config_raises_irq1_and_irq2() {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 6).i(movs_i(7, 0));
    a.label("spin")
        .i(cmp_i(7, 6))
        .bc(NE, "spin")
        .li(0, STIM)
        .i(ldr_i(2, 0, 0x10))
        .i(ldr_i(3, 0, 0x14))
        .i(ldr_i(4, 0, 0x1C))
        .exit(0);
    a.label("rise").i(adds_i8(7, 1)).i(bx(14));
    a.label("fall").i(adds_i8(7, 1)).i(bx(14));
    a.vector(17, "rise").vector(18, "fall");
    let mut c = cfg(Board::VP_M0);
    c.stimulus = Some(StimulusSpec { at: 1000, period: 500, width: 40 });
    let (m, s) = run(&a, c);
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(m.cpu.r[2], 2000);
    assert_eq!(m.cpu.r[3], 3);
    assert_eq!(m.cpu.r[4], 2040);
    let st: Vec<_> = events(&m)
        .into_iter()
        .filter_map(|e| if let Event::Stim { c, level } = e { Some((c, level)) } else { None })
        .collect();
    assert_eq!(&st[..6], &[(1000, 1), (1040, 0), (1500, 1), (1540, 0), (2000, 1), (2040, 0)]);
    let entries: Vec<_> = events(&m)
        .into_iter()
        .filter_map(|e| if let Event::ExcEntry { c, exc, .. } = e { Some((c, exc)) } else { None })
        .collect();
    assert_eq!(entries[0], (1016, 17));
    assert_eq!(entries[1], (1056, 18));
}

#[test]
fn stimulus_programmed_one_shot() {
    let mut a = Asm::new();
    a.label("reset")
        .li(0, STIM)
        .li(1, 700)
        .i(str_i(1, 0, 0))
        .i(movs_i(1, 5))
        .i(str_i(1, 0, 8))
        .i(movs_i(1, 1))
        .i(str_i(1, 0, 12));
    a.label("spin")
        .i(ldr_i(2, 0, 0x14))
        .i(cmp_i(2, 1))
        .bc(NE, "spin")
        .i(ldr_i(3, 0, 0x18))
        .n(NOP, 10)
        .i(ldr_i(4, 0, 0x18))
        .i(ldr_i(5, 0, 0x0C))
        .i(ldr_i(6, 0, 0x10))
        .exit(0);
    let (m, _) = run(&a, cfg(Board::VP_M0));
    assert_eq!((m.cpu.r[3], m.cpu.r[4], m.cpu.r[5], m.cpu.r[6]), (1, 0, 0, 700));
}

#[test]
fn ram_limit_faults() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_1000).label("bad").i(ldr_i(1, 0, 0));
    a.initial_sp = 0x2000_1000;
    let f = fault_of(&a, 4096);
    assert_eq!(f.pc, a.addr("bad"));
    assert!(f.access.unwrap().why.contains("--ram"));
    // The last word below the limit is fine.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0FFC).i(ldr_i(1, 0, 0)).i(str_i(1, 0, 0)).label("bad").i(strb_i(1, 0, 4));
    a.initial_sp = 0x2000_1000;
    let f = fault_of(&a, 4096);
    assert_eq!(f.pc, a.addr("bad"));
}

#[test]
fn flash_is_read_only_and_unmapped_faults() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x100).label("bad").i(str_i(0, 0, 0));
    let f = fault_of(&a, 16384);
    assert!(f.access.unwrap().write && f.reason.contains("read-only"));
    let mut a = Asm::new();
    a.label("reset").li(0, 0x6000_0000).i(ldr_i(1, 0, 0));
    assert!(fault_of(&a, 16384).reason.contains("unmapped"));
    let mut a = Asm::new();
    a.label("reset").li(0, 0x0004_0000).i(ldrb_i(1, 0, 0));
    assert!(fault_of(&a, 16384).access.is_some());
    // Byte and halfword access to registers fault.
    let mut a = Asm::new();
    a.label("reset").li(0, PROBE_OUT).i(strb_i(1, 0, 0));
    assert!(fault_of(&a, 16384).reason.contains("word-access"));
    let mut a = Asm::new();
    a.label("reset").li(0, 0xE000_ED00).i(ldrh_i(1, 0, 0));
    assert!(fault_of(&a, 16384).reason.contains("word-access"));
    // Unaligned halfword
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0001).i(ldrh_i(1, 0, 0));
    assert!(fault_of(&a, 16384).reason.contains("unaligned"));
    // Executing from an unmapped address
    let mut a = Asm::new();
    a.label("reset").li(0, 0x6000_0001).i(bx(0));
    assert!(fault_of(&a, 16384).reason.contains("fetch"));
}

#[test]
fn code_runs_from_ram() {
    let mut a = Asm::new();
    // Copy "movs r0, #42; bx lr" into RAM and call it.
    a.label("reset")
        .li(0, 0x2000_0100)
        .li(1, 0x4770_202A)
        .i(str_i(1, 0, 0))
        .i(adds_i8(0, 1))
        .i(blx(0))
        .i(mov_hi(7, 0))
        .exit(0);
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(m.cpu.r[7], 42);
}

// ---- semihosting ----

fn sh_call(a: &mut Asm, op: u32, arg_reg_value: u32) {
    a.li(1, arg_reg_value).li(0, op).i(bkpt(0xAB));
}

#[test]
fn semihosting_output_and_exit() {
    let mut a = Asm::new();
    let s0 = 0x800u32;
    a.data.push((s0, b"hello\0".to_vec()));
    a.data.push((0x810, b"X".to_vec()));
    a.data.push((0x820, b"world\n".to_vec()));
    a.label("reset");
    sh_call(&mut a, 4, s0);
    sh_call(&mut a, 3, 0x810);
    // SYS_WRITE block in RAM: handle 1, ptr, len
    a.li(2, 0x2000_0000).li(3, 1).i(str_i(3, 2, 0)).li(3, 0x820).i(str_i(3, 2, 4)).i(movs_i(3, 6)).i(str_i(3, 2, 8));
    sh_call(&mut a, 5, 0x2000_0000);
    a.i(mov_hi(7, 0));
    sh_call(&mut a, 0x18, 0x20026);
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(m.bus.console, b"helloXworld\n");
    assert_eq!(m.cpu.r[7], 0);
    let mut a = Asm::new();
    a.label("reset");
    sh_call(&mut a, 0x18, 0x20023);
    assert_eq!(run(&a, cfg(Board::VP_M0)).1, Stop::Exit(1));
}

#[test]
fn semihosting_exit_extended_open_heapinfo() {
    let mut a = Asm::new();
    a.data.push((0x800, b":tt\0".to_vec()));
    a.label("reset");
    // SYS_OPEN(":tt", 4 = "w", 3)
    a.li(2, 0x2000_0000)
        .li(3, 0x800)
        .i(str_i(3, 2, 0))
        .i(movs_i(3, 4))
        .i(str_i(3, 2, 4))
        .i(movs_i(3, 3))
        .i(str_i(3, 2, 8));
    sh_call(&mut a, 1, 0x2000_0000);
    a.i(mov_hi(8, 0));
    // SYS_HEAPINFO: *(0x20000010) = 0x20000020 (the block)
    a.li(2, 0x2000_0010).li(3, 0x2000_0020).i(str_i(3, 2, 0));
    sh_call(&mut a, 0x16, 0x2000_0010);
    a.li(2, 0x2000_0020).i(ldr_i(4, 2, 0)).i(ldr_i(5, 2, 8)).i(mov_hi(9, 4)).i(mov_hi(10, 5));
    sh_call(&mut a, 0x31, 0);
    a.i(mov_hi(11, 0));
    // SYS_EXIT_EXTENDED(ApplicationExit, 42)
    a.li(2, 0x2000_0030).li(3, 0x20026).i(str_i(3, 2, 0)).i(movs_i(3, 42)).i(str_i(3, 2, 4));
    sh_call(&mut a, 0x20, 0x2000_0030);
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(42));
    assert_eq!(m.cpu.r[8], 0x101);
    assert_eq!(m.cpu.r[9], 0x2000_0000);
    assert_eq!(m.cpu.r[10], 0x2000_4000);
    assert_eq!(m.cpu.r[11], 48_000_000);
}

#[test]
fn other_bkpt_is_a_fault() {
    let mut a = Asm::new();
    a.label("reset").i(bkpt(0));
    let mut c: Config = cfg(Board::VP_M0);
    c.fault_stop = true;
    assert!(matches!(run(&a, c).1, Stop::FaultStop(f) if f.reason.contains("BKPT")));
}

#[test]
fn cycle_limit_stops_with_124() {
    let mut a = Asm::new();
    a.label("reset").label("l").b("l");
    let mut c = cfg(Board::VP_M0);
    c.max_cycles = Some(10_000);
    let (m, s) = run(&a, c);
    assert_eq!(s.status(), 124);
    assert!(m.cyc >= 10_000 && m.cyc < 10_004);
}
