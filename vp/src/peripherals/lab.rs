//! EXIT, CYCLE_LO/HI, CLOCK_HZ, UART_TX and the dispatch of the whole lab block.

use crate::machine::{Machine, Stop};

#[derive(Clone, Debug, Default)]
pub struct Lab {
    /// High word latched by the last CYCLE_LO read.
    pub cycle_hi: u32,
    pub probe: u32,
}

impl Machine {
    /// Word read in the lab block; `now` is the cycle the load begins. None = unmapped.
    pub fn lab_read(&mut self, addr: u32, now: u64) -> Option<u32> {
        Some(match addr {
            0x4F00_0004 => {
                self.lab.cycle_hi = (now >> 32) as u32;
                now as u32
            }
            0x4F00_0008 => self.lab.cycle_hi,
            0x4F00_000C => self.cfg.board.clock_hz(),
            0x4F00_2000 => self.lab.probe,
            0x4F00_3000..=0x4F00_300C => self.timer_read(addr, now),
            0x4F00_4000..=0x4F00_401C => self.stim_read(addr, now),
            // Write-only registers read as zero.
            0x4F00_0000 | 0x4F00_1000 | 0x4F00_2004 | 0x4F00_2008 | 0x4F00_200C => 0,
            _ => return None,
        })
    }

    /// Word write in the lab block; `done` is the cycle the store completes.
    pub fn lab_write(&mut self, addr: u32, v: u32, done: u64) -> bool {
        match addr {
            0x4F00_0000 => {
                self.flush_console();
                self.request_stop(Stop::Exit(v as u8));
            }
            0x4F00_0004 | 0x4F00_0008 | 0x4F00_000C => {} // read-only: writes ignored
            0x4F00_1000 => self.console_write(&[v as u8]),
            0x4F00_2000 => self.probe_set_pins(v, done),
            0x4F00_2004 => self.probe_set_pins(self.lab.probe | v, done),
            0x4F00_2008 => self.probe_set_pins(self.lab.probe & !v, done),
            0x4F00_200C => self.probe_mark(v, done),
            0x4F00_3000..=0x4F00_300C => self.timer_write(addr, v, done),
            0x4F00_4000..=0x4F00_401C => self.stim_write(addr, v, done),
            _ => return false,
        }
        true
    }
}
