//! ARMv7-M Data Watchpoint and Trace unit (0xE0001000..0xE0001FFF) and DEMCR.TRCENA, on the
//! cores that have one (`Core::has_dwt`: the Cortex-M0 has no CYCCNT, its address stays unmapped).
//!
//! Modelled: DWT_CTRL.CYCCNTENA and DWT_CYCCNT, gated by DEMCR.TRCENA (ARMv7-M ARM C1.8): the
//! counter advances one per core cycle while both enables are set, wraps at 32 bits and is
//! writable. DWT_CTRL reads NUMCOMP = 0 and NOTRCPKT = NOEXTTRIG = NOPRFCNT = 1 (no comparators,
//! no trace packets, no external triggers, no profiling counters), NOCYCCNT = 0; its other
//! fields and every other DWT register read as zero and ignore writes. The value is computed
//! when read, from the cycle of the load, so the fast path never looks at it.

use crate::bus::Bus;
use crate::machine::Cpu;

pub const DWT_BASE: u32 = 0xE000_1000;
/// DEMCR's offset in the System Control Space (0xE000EDFC).
pub const DEMCR_OFF: u32 = 0xDFC;
pub const DEMCR_TRCENA: u32 = 1 << 24;
const CTRL: u32 = 0x000;
const CYCCNT: u32 = 0x004;
const CTRL_CYCCNTENA: u32 = 1;
/// NOTRCPKT (27), NOEXTTRIG (26), NOPRFCNT (24); NUMCOMP (31:28) and NOCYCCNT (25) are 0.
const CTRL_FIXED: u32 = (1 << 27) | (1 << 26) | (1 << 24);

/// Debug-domain state: reset by power-on only, not by SYSRESETREQ (reset_core leaves it).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Dwt {
    trcena: bool,
    cyccntena: bool,
    /// CYCCNT at cycle `since`; while counting it advances with the cycle counter.
    base: u32,
    since: u64,
}

impl Dwt {
    fn counting(&self) -> bool {
        self.trcena && self.cyccntena
    }

    fn cyccnt(&self, now: u64) -> u32 {
        if self.counting() {
            self.base.wrapping_add(now.saturating_sub(self.since) as u32)
        } else {
            self.base
        }
    }

    /// Freeze the count at `now` so an enable or a value can change from that cycle on.
    fn rebase(&mut self, now: u64) {
        self.base = self.cyccnt(now);
        self.since = now;
    }

    pub fn demcr(&self) -> u32 {
        if self.trcena {
            DEMCR_TRCENA
        } else {
            0
        }
    }

    /// DEMCR write: only TRCENA is kept (no halting debug, no DebugMonitor: the
    /// VC_* and MON_* bits read as zero).
    pub fn set_demcr(&mut self, v: u32, now: u64) {
        self.rebase(now);
        self.trcena = v & DEMCR_TRCENA != 0;
    }

    /// Read the DWT register at `off` (from DWT_BASE) at cycle `now`.
    pub fn read(&self, off: u32, now: u64) -> u32 {
        match off {
            CTRL => CTRL_FIXED | self.cyccntena as u32,
            CYCCNT => self.cyccnt(now),
            _ => 0,
        }
    }

    /// Write the DWT register at `off`; `now` is the cycle the store completes.
    pub fn write(&mut self, off: u32, v: u32, now: u64) {
        match off {
            CTRL => {
                self.rebase(now);
                self.cyccntena = v & CTRL_CYCCNTENA != 0;
            }
            CYCCNT => {
                self.rebase(now);
                self.base = v;
            }
            _ => {}
        }
    }
}

impl<B: Bus> Cpu<B> {
    /// True if `addr` is in the DWT's 4 KiB block on a core that has one.
    pub fn is_dwt(&self, addr: u32) -> bool {
        self.cfg.board.core.has_dwt() && addr >> 12 == DWT_BASE >> 12
    }
}
