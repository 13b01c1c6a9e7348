//! `LabBus`: what the board puts on the core's bus (`crate::bus::Bus`): the memories (flash
//! and RAM, slices the core reads directly on its fast paths), the lab peripherals at
//! 0x4F000000 (`peripherals/`), the console and the observers (event trace, VCD, `--masked`).
//!
//! The peripherals know nothing of the core: an interrupt line that rises is queued as an
//! arrival `(cycle, exception number)`, an EXIT store as a stop request, a reprogrammed
//! deadline as a request for attention; the core takes them after each bus access and in its
//! service step (`Machine::drain_bus`).

use crate::bus::Bus;
use crate::contract::LAB_BASE;
use crate::machine::Stop;
use crate::masked::Masked;
use crate::memory::Memory;
use crate::peripherals::lab::Lab;
use crate::peripherals::stimulus::Stimulus;
use crate::peripherals::timer::Timer;
use crate::trace::Observer;
use std::io::Write;

pub struct LabBus {
    pub mem: Memory,
    pub lab: Lab,
    pub timer: Timer,
    pub stim: Stimulus,
    /// CLOCK_HZ (the board's clock).
    pub clock_hz: u32,
    /// Interrupt arrivals `(visible at cycle, exception number)` not yet taken by the core.
    pub arrivals: Vec<(u64, u32)>,
    /// A stop requested by the firmware (EXIT store), not yet taken by the core.
    pub stop: Option<Stop>,
    /// A deadline changed: the core must recompute its next event.
    pub attention: bool,
    /// The event trace / VCD (`--trace`, `--vcd`).
    pub obs: Option<Box<Observer>>,
    /// Interrupts-masked sections (`--masked`); only the PRIMASK writes and marks look at it.
    pub masked: Option<Box<Masked>>,
    /// Console bytes not yet flushed.
    pub console: Vec<u8>,
    pub console_sink: Option<Box<dyn Write>>,
}

impl LabBus {
    pub fn new(mem: Memory, clock_hz: u32) -> LabBus {
        LabBus {
            mem,
            lab: Lab::default(),
            timer: Timer::default(),
            stim: Stimulus::default(),
            clock_hz,
            arrivals: Vec::new(),
            stop: None,
            attention: false,
            obs: None,
            masked: None,
            console: Vec::new(),
            console_sink: None,
        }
    }

    /// Raise the line of exception `exc`, visible to the core at cycle `when`.
    pub fn raise(&mut self, when: u64, exc: u32) {
        self.arrivals.push((when, exc));
    }

    /// The firmware asks to stop (the first request wins).
    pub fn request_stop(&mut self, s: Stop) {
        if self.stop.is_none() {
            self.stop = Some(s);
        }
        self.attention = true;
    }

    pub fn console_write(&mut self, b: &[u8]) {
        self.console.extend_from_slice(b);
        if self.console_sink.is_some() && (self.console.len() >= 4096 || b.contains(&b'\n')) {
            self.flush_console();
        }
    }

    pub fn flush_console(&mut self) {
        if let Some(s) = self.console_sink.as_mut() {
            let _ = s.write_all(&self.console);
            let _ = s.flush();
            self.console.clear();
        }
    }
}

impl Bus for LabBus {
    #[inline(always)]
    fn observer(&mut self) -> Option<&mut Observer> {
        self.obs.as_deref_mut()
    }

    #[inline(always)]
    fn masked(&mut self) -> Option<&mut Masked> {
        self.masked.as_deref_mut()
    }

    fn console_write(&mut self, b: &[u8]) {
        LabBus::console_write(self, b)
    }

    fn flush_console(&mut self) {
        LabBus::flush_console(self)
    }

    #[inline(always)]
    fn ram(&self) -> &[u8] {
        &self.mem.ram
    }

    #[inline(always)]
    fn ram_mut(&mut self) -> &mut [u8] {
        &mut self.mem.ram
    }

    #[inline(always)]
    fn flash(&self) -> &[u8] {
        &self.mem.flash
    }

    #[inline]
    fn device(&self, addr: u32) -> bool {
        addr >> 16 == LAB_BASE >> 16
    }

    fn read(&mut self, addr: u32, now: u64) -> Option<u32> {
        self.lab_read(addr, now)
    }

    fn write(&mut self, addr: u32, v: u32, done: u64) -> bool {
        self.lab_write(addr, v, done)
    }

    fn advance(&mut self, now: u64) {
        self.timer_advance(now);
        self.stim_advance(now);
    }

    fn next_event(&self) -> u64 {
        self.timer.fire_at.min(self.stim.next_edge())
    }

    fn reset(&mut self) {
        // SYSRESETREQ resets the timer; the stimulus is outside the chip and runs on.
        self.timer = Timer::default();
    }

    #[inline]
    fn has_signals(&self) -> bool {
        self.attention || !self.arrivals.is_empty()
    }

    fn take_signals(&mut self, mut arrival: impl FnMut(u64, u32)) -> (Option<Stop>, bool) {
        for (w, e) in self.arrivals.drain(..) {
            arrival(w, e);
        }
        let attention = std::mem::take(&mut self.attention);
        (self.stop.take(), attention)
    }
}
