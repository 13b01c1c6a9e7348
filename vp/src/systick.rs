//! SysTick (0xE000E010..0xE000E01C), computed lazily from a base point instead of being
//! decremented every cycle: the counter value at any cycle is a closed formula, and the only
//! scheduled event is the next time the counter reaches zero.
//!
//! Timing (calibrated on the STM32F0, seed 000 Appendix A): after the enabling store
//! completes at cycle E with CVR = 0, the counter loads RELOAD at E+1 and reaches zero at
//! E+1+RELOAD; the interrupt becomes visible 5 cycles later (6 when RELOAD == 2). Every later
//! zero is RELOAD+1 cycles after the previous one.

use crate::bus::Bus;
use crate::machine::{Cpu, NEVER};
use crate::nvic::EXC_SYSTICK;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SysTick {
    pub enable: bool,
    pub tickint: bool,
    pub clksource: bool,
    pub countflag: bool,
    pub reload: u32,
    /// Counter value at cycle `base`.
    pub base_val: u32,
    pub base: u64,
    /// Next cycle at which the counter reaches zero (NEVER when stopped).
    pub next_zero: u64,
    /// Deep sleep stopped the counter's clock (the core's) at `base`: it holds base_val and
    /// schedules nothing until `systick_restart` (energy.rs).
    pub stopped: bool,
}

/// TENMS for a 48 MHz clock; NOREF and SKEW set (no reference clock on this board).
const CALIB: u32 = (1 << 31) | (1 << 30) | (480_000 - 1);

impl SysTick {
    /// The cycle of the first zero after `base`.
    fn first_zero(&self) -> u64 {
        if !self.enable || self.stopped {
            return NEVER;
        }
        if self.base_val > 0 {
            self.base + self.base_val as u64
        } else if self.reload == 0 {
            NEVER
        } else {
            self.base + 1 + self.reload as u64
        }
    }

    /// Counter value at cycle `c` (c >= base).
    pub fn value_at(&self, c: u64) -> u32 {
        if !self.enable || self.stopped || c <= self.base {
            return self.base_val;
        }
        let fz = self.first_zero();
        if c < fz {
            if self.base_val > 0 {
                return self.base_val - (c - self.base) as u32;
            }
            return self.reload - (c - self.base - 1) as u32;
        }
        if fz == NEVER || self.reload == 0 {
            return 0;
        }
        let k = (c - fz) % (self.reload as u64 + 1);
        if k == 0 {
            0
        } else {
            self.reload + 1 - k as u32
        }
    }

    fn rebase(&mut self, c: u64, val: u32) {
        self.base = c;
        self.base_val = val;
        self.next_zero = self.first_zero();
    }

    /// Interrupt visibility delay after the counter reaches zero.
    fn irq_delay(&self) -> u64 {
        if self.reload == 2 {
            6
        } else {
            5
        }
    }
}

impl<B: Bus> Cpu<B> {
    /// Handle every zero crossing at or before `now`.
    pub fn systick_advance(&mut self, now: u64) {
        while self.systick.next_zero <= now {
            let z = self.systick.next_zero;
            self.systick.countflag = true;
            if self.systick.tickint {
                let d = self.systick.irq_delay();
                self.exc.add_arrival(z + d, EXC_SYSTICK);
            }
            self.systick.next_zero = if self.systick.reload == 0 { NEVER } else { z + self.systick.reload as u64 + 1 };
        }
    }

    /// Deep sleep from `c`: the counter stops where it is (STM32 Stop mode: every clock of
    /// the core domain is off; RM0091 and RM0090, the power controller's "Stop mode").
    pub fn systick_stop(&mut self, c: u64) {
        self.systick_advance(c);
        let v = self.systick.value_at(c);
        self.systick.rebase(c, v);
        self.systick.stopped = true;
        self.systick.next_zero = NEVER;
    }

    /// The core clock is back at `c`: the counter goes on from the value it stopped at.
    pub fn systick_restart(&mut self, c: u64) {
        if self.systick.stopped {
            self.systick.stopped = false;
            let v = self.systick.base_val;
            self.systick.rebase(c, v);
        }
    }

    pub fn systick_read(&mut self, off: u32, now: u64) -> u32 {
        self.systick_advance(now);
        let st = &mut self.systick;
        match off {
            0x010 => {
                let v = (st.enable as u32)
                    | ((st.tickint as u32) << 1)
                    | ((st.clksource as u32) << 2)
                    | ((st.countflag as u32) << 16);
                st.countflag = false; // COUNTFLAG clears on read
                v
            }
            0x014 => st.reload,
            0x018 => st.value_at(now),
            0x01C => CALIB,
            _ => 0,
        }
    }

    pub fn systick_write(&mut self, off: u32, v: u32, done: u64) {
        self.systick_advance(done);
        let cur = self.systick.value_at(done);
        let st = &mut self.systick;
        match off {
            0x010 => {
                let en = v & 1 != 0;
                st.tickint = v & 2 != 0;
                st.clksource = v & 4 != 0;
                if en != st.enable {
                    st.enable = en;
                }
                st.rebase(done, cur);
            }
            0x014 => {
                st.reload = v & 0x00FF_FFFF;
                st.rebase(done, cur);
            }
            0x018 => {
                st.countflag = false;
                st.rebase(done, 0);
            }
            _ => {}
        }
    }
}
