//! Compare timer (0x4F003000, IRQ 0): one comparator on the low 32 bits of the cycle
//! counter, for tickless kernels. See docs/board.md.

use crate::contract::{LAB_TIMER_CMP, LAB_TIMER_CTRL, LAB_TIMER_NOW, TIMER_IRQ};
use crate::cpu::timing::LINE_SYNC_DELAY;
use crate::lab_bus::LabBus;
use crate::machine::NEVER;
use crate::nvic::EXC_IRQ0;

#[derive(Clone, Debug)]
pub struct Timer {
    pub cmp: u32,
    pub armed: bool,
    pub fired: u32,
    /// Cycle at which the armed comparator fires (NEVER when disarmed).
    pub fire_at: u64,
}

impl Default for Timer {
    fn default() -> Self {
        Timer { cmp: 0, armed: false, fired: 0, fire_at: NEVER }
    }
}

impl Timer {
    /// First cycle c >= from with (int32)(c - cmp) >= 0.
    fn compute(&mut self, from: u64) {
        if !self.armed {
            self.fire_at = NEVER;
            return;
        }
        let d = self.cmp.wrapping_sub(from as u32) as i32;
        self.fire_at = if d <= 0 { from } else { from + d as u64 };
    }
}

impl LabBus {
    pub fn timer_advance(&mut self, now: u64) {
        if self.timer.fire_at <= now {
            let f = self.timer.fire_at;
            self.timer.armed = false;
            self.timer.fire_at = NEVER;
            self.timer.fired = f as u32;
            self.raise(f + LINE_SYNC_DELAY, EXC_IRQ0 + TIMER_IRQ);
        }
    }

    /// `addr` is a word in LAB_TIMER_NOW..=LAB_TIMER_FIRED (the lab block dispatches).
    pub fn timer_read(&mut self, addr: u32, now: u64) -> u32 {
        self.timer_advance(now);
        match addr {
            LAB_TIMER_NOW => now as u32,
            LAB_TIMER_CMP => self.timer.cmp,
            LAB_TIMER_CTRL => self.timer.armed as u32,
            _ => self.timer.fired, // LAB_TIMER_FIRED
        }
    }

    pub fn timer_write(&mut self, addr: u32, v: u32, done: u64) {
        self.timer_advance(done);
        match addr {
            LAB_TIMER_CMP => {
                self.timer.cmp = v;
                self.timer.compute(done);
            }
            LAB_TIMER_CTRL => {
                self.timer.armed = v & 1 != 0;
                self.timer.compute(done);
            }
            _ => {}
        }
        self.attention = true;
    }
}
