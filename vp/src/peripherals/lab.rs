//! EXIT, CYCLE_LO/HI, CLOCK_HZ, UART_TX and the dispatch of the whole lab block.

use crate::contract::*;
use crate::lab_bus::LabBus;
use crate::machine::Stop;

#[derive(Clone, Debug, Default)]
pub struct Lab {
    /// High word latched by the last CYCLE_LO read.
    pub cycle_hi: u32,
    pub probe: u32,
}

impl LabBus {
    /// Word read in the lab block; `now` is the cycle the load begins. None = unmapped.
    pub fn lab_read(&mut self, addr: u32, now: u64) -> Option<u32> {
        Some(match addr {
            LAB_CYCLE_LO => {
                self.lab.cycle_hi = (now >> 32) as u32;
                now as u32
            }
            LAB_CYCLE_HI => self.lab.cycle_hi,
            LAB_CLOCK_HZ => self.clock_hz,
            LAB_PROBE_OUT => self.lab.probe,
            LAB_TIMER_NOW..=LAB_TIMER_FIRED => self.timer_read(addr, now),
            LAB_STIM_AT..=LAB_STIM_LAST_FALL => self.stim_read(addr, now),
            // Write-only registers read as zero.
            LAB_EXIT | LAB_UART_TX | LAB_PROBE_SET | LAB_PROBE_CLR | LAB_PROBE_MARK => 0,
            _ => return None,
        })
    }

    /// Word write in the lab block; `done` is the cycle the store completes.
    pub fn lab_write(&mut self, addr: u32, v: u32, done: u64) -> bool {
        match addr {
            LAB_EXIT => {
                self.flush_console();
                self.request_stop(Stop::Exit(v as u8));
            }
            LAB_CYCLE_LO | LAB_CYCLE_HI | LAB_CLOCK_HZ => {} // read-only: writes ignored
            LAB_UART_TX => self.console_write(&[v as u8]),
            LAB_PROBE_OUT => self.probe_set_pins(v, done),
            LAB_PROBE_SET => self.probe_set_pins(self.lab.probe | v, done),
            LAB_PROBE_CLR => self.probe_set_pins(self.lab.probe & !v, done),
            LAB_PROBE_MARK => self.probe_mark(v, done),
            LAB_TIMER_NOW..=LAB_TIMER_FIRED => self.timer_write(addr, v, done),
            LAB_STIM_AT..=LAB_STIM_LAST_FALL => self.stim_write(addr, v, done),
            _ => return false,
        }
        true
    }
}
