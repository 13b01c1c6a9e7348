//! Test support: a tiny Thumb assembler (encoding helpers + labels) and a runner.
#![allow(dead_code)]

pub mod command;
pub mod elfgen;
pub mod engine_programs;
pub mod thumb;

use rtoslab_vp::machine::{Config, Machine, Stop};
use rtoslab_vp::trace::{Event, Observer};
use rtoslab_vp::Board;
pub use thumb::*;

pub const PROBE_OUT: u32 = 0x4F00_2000;
pub const ICSR: u32 = 0xE000_ED04;
pub const SHPR2: u32 = 0xE000_ED1C;
pub const SHPR3: u32 = 0xE000_ED20;
pub const SYST_CSR: u32 = 0xE000_E010;
pub const SYST_RVR: u32 = 0xE000_E014;
pub const SYST_CVR: u32 = 0xE000_E018;
pub const NVIC_ISER: u32 = 0xE000_E100;
pub const NVIC_ISPR: u32 = 0xE000_E200;
pub const NVIC_IPR0: u32 = 0xE000_E400;
pub const EXIT: u32 = 0x4F00_0000;
pub const TIMER: u32 = 0x4F00_3000;
pub const STIM: u32 = 0x4F00_4000;

pub fn cfg(board: Board) -> Config {
    Config { board, ram_size: 16 * 1024, max_cycles: Some(2_000_000), fault_stop: false, stimulus: None, mul_cycles: 1 }
}

/// Build a machine from an assembled program and capture all trace events.
pub fn machine(a: &Asm, c: Config) -> Machine {
    let img = a.image();
    let mut m = Machine::new(c, &img);
    m.bus.obs = Some(Box::new(Observer::capture(u32::MAX)));
    m
}

pub fn run(a: &Asm, c: Config) -> (Machine, Stop) {
    let mut m = machine(a, c);
    let s = m.run();
    (m, s)
}

pub fn events(m: &Machine) -> Vec<Event> {
    let mut v = m.bus.obs.as_ref().and_then(|o| o.captured.clone()).unwrap_or_default();
    v.sort_by_key(|e| e.cycle());
    v
}

/// Completion cycles of the probe edges, in order.
pub fn probe_cycles(m: &Machine) -> Vec<u64> {
    events(m).iter().filter_map(|e| if let Event::Probe { c, .. } = e { Some(*c) } else { None }).collect()
}

pub fn diffs(v: &[u64]) -> Vec<u64> {
    v.windows(2).map(|w| w[1] - w[0]).collect()
}
