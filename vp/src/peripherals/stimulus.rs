//! External stimulus (0x4F004000): a pulse generator wired to IRQ 1 (rising edge) and
//! IRQ 2 (falling edge); its edge cycles are the ground truth for latency measurements.

use crate::contract::*;
use crate::cpu::timing::LINE_SYNC_DELAY;
use crate::lab_bus::LabBus;
use crate::machine::NEVER;
use crate::nvic::EXC_IRQ0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StimulusSpec {
    pub at: u64,
    pub period: u32,
    pub width: u32,
}

impl StimulusSpec {
    /// Parse `at=N,period=N,width=N` (period and width optional).
    pub fn parse(s: &str) -> Result<StimulusSpec, String> {
        let mut spec = StimulusSpec { at: 0, period: 0, width: 1 };
        let mut have_at = false;
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("bad stimulus item '{part}' (want key=value)"))?;
            let n: u64 = crate::numbers::parse_number(v).ok_or_else(|| format!("bad number '{v}' in stimulus"))?;
            match k {
                "at" => {
                    spec.at = n;
                    have_at = true;
                }
                "period" => spec.period = u32::try_from(n).map_err(|_| "stimulus period too large".to_string())?,
                "width" => spec.width = u32::try_from(n).map_err(|_| "stimulus width too large".to_string())?,
                _ => return Err(format!("unknown stimulus key '{k}' (at, period, width)")),
            }
        }
        if !have_at {
            return Err("stimulus needs at=CYCLE".into());
        }
        Ok(spec)
    }
}

#[derive(Clone, Debug)]
pub struct Stimulus {
    pub at: u32,
    pub period: u32,
    pub width: u32,
    pub armed: bool,
    pub level: bool,
    pub last: u32,
    pub last_fall: u32,
    pub count: u32,
    pub next_rise: u64,
    pub next_fall: u64,
}

impl Default for Stimulus {
    fn default() -> Self {
        Stimulus {
            at: 0,
            period: 0,
            width: 0,
            armed: false,
            level: false,
            last: 0,
            last_fall: 0,
            count: 0,
            next_rise: NEVER,
            next_fall: NEVER,
        }
    }
}

impl Stimulus {
    pub fn configure(&mut self, spec: StimulusSpec, _now: u64) {
        self.at = spec.at as u32;
        self.period = spec.period;
        self.width = spec.width;
        self.armed = true;
        self.next_rise = spec.at;
    }

    /// High time in cycles: at least 1, and shorter than the period.
    fn high_time(&self) -> u64 {
        let w = self.width.max(1) as u64;
        if self.period >= 2 {
            w.min(self.period as u64 - 1)
        } else {
            w
        }
    }

    pub fn next_edge(&self) -> u64 {
        self.next_rise.min(self.next_fall)
    }

    fn arm_from(&mut self, from: u64) {
        let d = self.at.wrapping_sub(from as u32) as i32;
        self.next_rise = if d <= 0 { from } else { from + d as u64 };
    }
}

impl LabBus {
    pub fn stim_advance(&mut self, now: u64) {
        loop {
            let s = &mut self.stim;
            let t = s.next_edge();
            if t > now {
                return;
            }
            if s.next_fall <= s.next_rise {
                s.level = false;
                s.last_fall = t as u32;
                s.next_fall = NEVER;
                if s.armed && s.period == 0 && s.next_rise == NEVER {
                    s.armed = false; // one-shot done
                }
                self.arrivals.push((t + LINE_SYNC_DELAY, EXC_IRQ0 + STIM_FALL_IRQ));
                if let Some(o) = self.obs.as_mut() {
                    o.stim(t, false);
                }
            } else {
                s.level = true;
                s.last = t as u32;
                s.count = s.count.wrapping_add(1);
                s.next_fall = t + s.high_time();
                s.next_rise = if s.period > 0 { t + s.period.max(2) as u64 } else { NEVER };
                self.arrivals.push((t + LINE_SYNC_DELAY, EXC_IRQ0 + STIM_IRQ));
                if let Some(o) = self.obs.as_mut() {
                    o.stim(t, true);
                }
            }
        }
    }

    /// `addr` is a word in LAB_STIM_AT..=LAB_STIM_LAST_FALL (the lab block dispatches).
    pub fn stim_read(&mut self, addr: u32, now: u64) -> u32 {
        self.stim_advance(now);
        let s = &self.stim;
        match addr {
            LAB_STIM_AT => s.at,
            LAB_STIM_PERIOD => s.period,
            LAB_STIM_WIDTH => s.width,
            LAB_STIM_CTRL => s.armed as u32,
            LAB_STIM_LAST => s.last,
            LAB_STIM_COUNT => s.count,
            LAB_STIM_LEVEL => s.level as u32,
            _ => s.last_fall, // LAB_STIM_LAST_FALL
        }
    }

    pub fn stim_write(&mut self, addr: u32, v: u32, done: u64) {
        self.stim_advance(done);
        let s = &mut self.stim;
        match addr {
            LAB_STIM_AT => {
                s.at = v;
                if s.armed {
                    s.arm_from(done);
                }
            }
            LAB_STIM_PERIOD => s.period = v,
            LAB_STIM_WIDTH => s.width = v,
            LAB_STIM_CTRL => {
                if v & 1 != 0 {
                    s.armed = true;
                    s.arm_from(done);
                } else {
                    s.armed = false;
                    s.next_rise = NEVER; // a pulse in progress still ends normally
                }
            }
            _ => {}
        }
        self.attention = true;
    }
}
