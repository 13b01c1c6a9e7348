//! The energy meter and deep sleep (energy.rs, exceptions.rs `sleep`): cycles by core state,
//! the charge from the board's model, SLEEPDEEP's wake-up and SysTick stopping in it.

use crate::support::*;
use rtoslab_vp::machine::Stop;
use rtoslab_vp::trace::Event;
use rtoslab_vp::Board;

const SCB_SCR: u32 = 0xE000_ED10;
const ALARM_AT: u32 = 50_000;

/// Arm the compare timer (IRQ 0) at ALARM_AT, optionally set SLEEPDEEP, WFI; the handler exits.
fn alarm_program(deep: bool) -> Asm {
    let mut a = Asm::new();
    a.label("reset").poke(NVIC_ISER, 1).li(0, TIMER).li(1, ALARM_AT).i(str_i(1, 0, 4));
    a.i(movs_i(1, 1)).i(str_i(1, 0, 8));
    if deep {
        a.poke(SCB_SCR, 4);
    }
    a.i(WFI).exit(1);
    a.label("irq").exit(0);
    a.vector(16, "irq");
    a
}

fn entry_cycle(m: &rtoslab_vp::Machine) -> u64 {
    events(m).iter().find_map(|e| if let Event::ExcEntry { c, exc: 16, .. } = e { Some(*c) } else { None }).unwrap()
}

fn sleep_span(m: &rtoslab_vp::Machine) -> (u64, u64, bool, u64) {
    let ev = events(m);
    let (s, deep) =
        ev.iter().find_map(|e| if let Event::Sleep { c, deep } = e { Some((*c, *deep)) } else { None }).unwrap();
    let (w, wakeup) =
        ev.iter().find_map(|e| if let Event::Wake { c, wakeup } = e { Some((*c, *wakeup)) } else { None }).unwrap();
    (s, w, deep, wakeup)
}

#[test]
fn a_plain_sleep_is_metered_and_charged_at_the_sleep_current() {
    let (m, s) = run(&alarm_program(false), cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let (start, woke, deep, wakeup) = sleep_span(&m);
    assert!(!deep && wakeup == 0);
    assert_eq!(m.energy.sleep, woke - start);
    assert_eq!((m.energy.deep, m.energy.wakeup, m.energy.sleeps), (0, 0, 1));
    let model = Board::VP_M0.energy.unwrap();
    let r = m.energy.report(m.cyc, 48_000_000, Some(model));
    let run = m.cyc - (woke - start);
    assert_eq!(r["run_cycles"], run);
    let want = (run as f64 * model.run_na as f64 + (woke - start) as f64 * model.sleep_na as f64) / 48e6;
    assert!((r["charge_nC"]["total"].as_f64().unwrap() - want).abs() < 1e-6 * want);
    let avg = want / (m.cyc as f64 / 48e6) / 1000.0;
    assert!((r["average_uA"].as_f64().unwrap() - avg).abs() < 1e-6 * avg);
}

#[test]
fn sleepdeep_takes_the_wakeup_before_the_interrupt() {
    let (light, _) = run(&alarm_program(false), cfg(Board::VP_M0));
    let (deep, s) = run(&alarm_program(true), cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let w = Board::VP_M0.energy.unwrap().wakeup_cycles(48_000_000);
    assert_eq!(w, 154); // 3.2 us at 48 MHz, rounded up
    assert_eq!(entry_cycle(&deep), entry_cycle(&light) + w);
    let (start, woke, is_deep, wakeup) = sleep_span(&deep);
    assert!(is_deep);
    assert_eq!(wakeup, w);
    assert_eq!(deep.energy.deep, woke - w - start);
    assert_eq!((deep.energy.wakeup, deep.energy.deeps, deep.energy.sleep), (w, 1, 0));
}

#[test]
fn without_an_energy_model_sleepdeep_is_a_plain_sleep() {
    let board = Board { energy: None, ..Board::VP_M0 };
    let (light, _) = run(&alarm_program(false), cfg(board));
    let (deep, s) = run(&alarm_program(true), cfg(board));
    assert_eq!(s, Stop::Exit(0));
    assert_eq!(entry_cycle(&deep), entry_cycle(&light));
    assert_eq!((deep.energy.deep, deep.energy.wakeup), (0, 0));
    assert!(deep.energy.report(deep.cyc, 48_000_000, None).get("charge_nC").is_none());
}

#[test]
fn systick_stops_in_deep_sleep() {
    // SysTick every 20 000 cycles with its interrupt (whose handler would exit 3), the compare
    // timer at ALARM_AT: in deep sleep only the alarm wakes the core, and SysTick's counter
    // goes on from where it stopped.
    let mut a = Asm::new();
    a.label("reset").poke(SYST_RVR, 19_999).poke(SYST_CVR, 0).poke(SYST_CSR, 7);
    a.poke(NVIC_ISER, 1).li(0, TIMER).li(1, ALARM_AT).i(str_i(1, 0, 4)).i(movs_i(1, 1)).i(str_i(1, 0, 8));
    a.poke(SCB_SCR, 4).li(5, SYST_CVR).i(ldr_i(3, 5, 0)).i(WFI).exit(1);
    a.label("irq").i(ldr_i(2, 5, 0)).exit(0);
    a.label("tick").exit(3);
    a.vector(16, "irq").vector(15, "tick");
    let (m, s) = run(&a, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(0));
    let ran = m.cpu.r[3] - m.cpu.r[2];
    assert!(ran < 100, "SysTick counted {} cycles across the deep sleep", ran);
    // the same program without SLEEPDEEP: the tick wakes it first
    let mut b = Asm::new();
    b.label("reset").poke(SYST_RVR, 19_999).poke(SYST_CVR, 0).poke(SYST_CSR, 7);
    b.poke(NVIC_ISER, 1).li(0, TIMER).li(1, ALARM_AT).i(str_i(1, 0, 4)).i(movs_i(1, 1)).i(str_i(1, 0, 8));
    b.li(5, SYST_CVR).i(ldr_i(3, 5, 0)).i(WFI).exit(1);
    b.label("irq").exit(0);
    b.label("tick").exit(3);
    b.vector(16, "irq").vector(15, "tick");
    let (_, s) = run(&b, cfg(Board::VP_M0));
    assert_eq!(s, Stop::Exit(3));
}

#[test]
fn energy_model_from_the_command_line() {
    use rtoslab_vp::energy::EnergyModel;
    let m = EnergyModel::parse("run=11400000,ram=10300000,sleep=2900000,deep=15000,wakeup_ns=3200").unwrap();
    assert_eq!(Some(m), Board::VP_M0.energy);
    assert_eq!(m.wakeup_cycles(48_000_000), 154);
    for bad in ["run=1,ram=1,sleep=2,deep=1,wakeup_ns=5", "run=3,ram=1,sleep=2,deep=1", "run=3,x=1", "run"] {
        assert!(EnergyModel::parse(bad).is_err(), "{}", bad);
    }
}
