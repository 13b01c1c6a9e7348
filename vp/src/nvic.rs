//! NVIC and the exception bookkeeping shared with the SCB: pending/active/enabled sets,
//! priorities, and the delayed "arrivals" that model the asynchronous delays.
//!
//! Exception numbers follow ARM: 2 NMI, 3 HardFault, 11 SVC, 14 PendSV, 15 SysTick,
//! 16 + n for IRQ n (n < 32). Sets are u64 bitmasks indexed by exception number.

pub const EXC_NMI: u32 = 2;
pub const EXC_HARDFAULT: u32 = 3;
pub const EXC_SVC: u32 = 11;
pub const EXC_PENDSV: u32 = 14;
pub const EXC_SYSTICK: u32 = 15;
pub const EXC_IRQ0: u32 = 16;
pub const NUM_EXC: usize = 48;

/// EXC_RETURN values (ARMv6-M B1.5.8): the LR an exception entry sets, and the only values
/// a BX/POP to 0xFxxxxxxx in handler mode may return with.
pub const EXC_RETURN_HANDLER: u32 = 0xFFFF_FFF1; // to handler mode, MSP
pub const EXC_RETURN_THREAD_MSP: u32 = 0xFFFF_FFF9; // to thread mode, MSP
pub const EXC_RETURN_THREAD_PSP: u32 = 0xFFFF_FFFD; // to thread mode, PSP
/// A branch target at or above this address in handler mode is an exception return.
pub const EXC_RETURN_MIN: u32 = 0xF000_0000;

/// Configurable exceptions whose "enabled" bit is always set.
const SYSTEM_ENABLED: u64 =
    (1 << EXC_NMI) | (1 << EXC_HARDFAULT) | (1 << EXC_SVC) | (1 << EXC_PENDSV) | (1 << EXC_SYSTICK);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExcState {
    pub pending: u64,
    pub active: u64,
    pub enabled: u64,
    /// Priority per exception number; fixed negative ones are stored offset so that
    /// lower is more urgent: NMI = -2, HardFault = -1, configurable 0..=192 step 64.
    pub prio: [i16; NUM_EXC],
    /// Exceptions that become pending at a later cycle: (visible cycle, exception).
    pub arrivals: Vec<(u64, u8)>,
    /// The implemented priority bits: 0xC0 (2 bits, ARMv6-M) or 0xFF (8 bits, ARMv7-M).
    pub prio_bits: u8,
    /// Group-priority mask from AIRCR.PRIGROUP (0xFE after reset: bit 0 is subpriority).
    pub group_mask: u8,
    /// BASEPRI as a priority boost (256 = none) and FAULTMASK (boost to -1); ARMv7-M only.
    pub basepri: i16,
    pub faultmask: bool,
}

impl Default for ExcState {
    fn default() -> Self {
        Self::new()
    }
}

impl ExcState {
    pub fn new() -> ExcState {
        let mut prio = [0i16; NUM_EXC];
        prio[EXC_NMI as usize] = -2;
        prio[EXC_HARDFAULT as usize] = -1;
        ExcState {
            pending: 0,
            active: 0,
            enabled: SYSTEM_ENABLED,
            prio,
            arrivals: Vec::new(),
            prio_bits: 0xC0,
            group_mask: 0xFE,
            basepri: 256,
            faultmask: false,
        }
    }

    /// The ARMv7-M NVIC: 8 priority bits.
    pub fn new_v7() -> ExcState {
        ExcState { prio_bits: 0xFF, ..ExcState::new() }
    }

    /// The group (preemption) priority of a priority value.
    #[inline]
    fn group(&self, p: i16) -> i16 {
        if p < 0 {
            p
        } else {
            p & self.group_mask as i16
        }
    }

    /// Execution priority given the active set and PRIMASK (256 = thread, no boost).
    #[inline]
    pub fn exec_priority(&self, active: u64, primask: bool) -> i16 {
        let mut p: i16 = 256;
        let mut a = active;
        while a != 0 {
            let e = a.trailing_zeros() as usize;
            a &= a - 1;
            p = p.min(self.group(self.prio[e]));
        }
        if primask {
            p = p.min(0);
        }
        if self.faultmask {
            p = p.min(-1);
        }
        // BASEPRI boosts to its group priority (ARMv7-M ARM B1.5.4 ExecutionPriority():
        // the subpriority bits of AIRCR.PRIGROUP are dropped); 256 (none) stays 256.
        p.min(if self.basepri < 256 { self.group(self.basepri) } else { 256 })
    }

    /// Highest-priority pending and enabled exception (lowest number breaks ties).
    #[inline]
    pub fn best_pending(&self) -> Option<(u32, i16)> {
        let mut cand = self.pending & self.enabled;
        let mut best: Option<(u32, i16)> = None;
        while cand != 0 {
            let e = cand.trailing_zeros();
            cand &= cand - 1;
            let p = self.prio[e as usize];
            if best.is_none_or(|(_, bp)| p < bp) {
                best = Some((e, p));
            }
        }
        best
    }

    /// The pending exception that would preempt now, if any.
    #[inline]
    pub fn preempting(&self, primask: bool) -> Option<u32> {
        let (e, p) = self.best_pending()?;
        if self.group(p) < self.exec_priority(self.active, primask) {
            Some(e)
        } else {
            None
        }
    }

    pub fn add_arrival(&mut self, when: u64, exc: u32) {
        self.arrivals.push((when, exc as u8));
    }

    pub fn next_arrival(&self) -> u64 {
        self.arrivals.iter().map(|a| a.0).min().unwrap_or(u64::MAX)
    }

    /// Move every arrival due at or before `now` into the pending set; returns true if any.
    pub fn deliver_arrivals(&mut self, now: u64) -> bool {
        let mut any = false;
        let mut i = 0;
        while i < self.arrivals.len() {
            if self.arrivals[i].0 <= now {
                self.pending |= 1u64 << (self.arrivals[i].1 as u32 % NUM_EXC as u32);
                self.arrivals.swap_remove(i);
                any = true;
            } else {
                i += 1;
            }
        }
        any
    }

    pub fn clear_pending(&mut self, exc: u32) {
        self.pending &= !(1u64 << exc);
        self.arrivals.retain(|a| a.1 as u32 != exc);
    }

    /// Set a configurable priority (only the implemented bits are kept).
    pub fn set_prio(&mut self, exc: u32, byte: u32) {
        if (exc as usize) < NUM_EXC && exc >= 4 {
            self.prio[exc as usize] = (byte & self.prio_bits as u32) as i16;
        }
    }

    // ---- NVIC registers (0xE000E100 ...), word access, already decoded to offset ----

    pub fn nvic_read(&self, off: u32) -> Option<u32> {
        let irq_bits = |m: u64| (m >> EXC_IRQ0) as u32;
        Some(match off {
            0x100 => irq_bits(self.enabled),
            0x180 => irq_bits(self.enabled),
            0x200 => irq_bits(self.pending),
            0x280 => irq_bits(self.pending),
            0x300 => irq_bits(self.active), // IABR does not exist on v6-M; harmless read
            0x400..=0x41C => {
                let base = EXC_IRQ0 + (off - 0x400);
                (0..4).fold(0u32, |acc, i| acc | (((self.prio[(base + i) as usize] as u32) & 0xFF) << (8 * i)))
            }
            _ => return None,
        })
    }

    /// Returns the exceptions a write to ISPR asks to pend (delivered later by the caller).
    pub fn nvic_write(&mut self, off: u32, v: u32) -> Option<u32> {
        let mask = (v as u64) << EXC_IRQ0;
        match off {
            0x100 => self.enabled |= mask,
            0x180 => self.enabled &= !mask,
            0x200 => return Some(v),
            0x280 => {
                for i in 0..32 {
                    if v & (1 << i) != 0 {
                        self.clear_pending(EXC_IRQ0 + i);
                    }
                }
            }
            0x400..=0x41C => {
                let base = EXC_IRQ0 + (off - 0x400);
                for i in 0..4 {
                    self.set_prio(base + i, (v >> (8 * i)) & 0xFF);
                }
            }
            _ => {}
        }
        None
    }
}
