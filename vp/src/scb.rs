//! System Control Block (0xE000ED00..): CPUID, ICSR, AIRCR, SCR, CCR, SHPR2/3.

use crate::bus::Bus;
use crate::cpu::timing::ASYNC_PEND_DELAY;
use crate::machine::Cpu;
use crate::nvic::{EXC_NMI, EXC_PENDSV, EXC_SVC, EXC_SYSTICK};

#[derive(Clone, Debug, Default)]
pub struct Scb {
    pub sleeponexit: bool,
    pub sleepdeep: bool,
    pub sevonpend: bool,
    /// ARMv7-M: CCR.DIV_0_TRP, AIRCR.PRIGROUP, VTOR.
    pub div_0_trp: bool,
    pub prigroup: u8,
    pub vtor: u32,
}

/// SCS offsets an ARMv7-M core accepts byte and halfword accesses to: NVIC_IPR, SHPR1-3.
pub fn byte_accessible(off: u32) -> bool {
    (0x400..0x4F0).contains(&off) || (0xD18..0xD24).contains(&off)
}

impl Scb {
    pub fn div0_trap(&self) -> bool {
        self.div_0_trp
    }
}

impl<B: Bus> Cpu<B> {
    /// Read a System Control Space register (offset from 0xE000E000) at cycle `now`.
    pub fn scs_read(&mut self, off: u32, now: u64) -> u32 {
        if let Some(v) = self.fpu.read(off) {
            return v;
        }
        match off {
            0x010..=0x01C => self.systick_read(off, now),
            0x100..=0x41C => self.exc.nvic_read(off).unwrap_or(0),
            0xD00 => self.cfg.board.core.cpuid(),
            0xD08 if self.v7 => self.scb.vtor,
            0xD0C if self.v7 => 0xFA05_0000 | ((self.scb.prigroup as u32) << 8),
            0xD14 if self.v7 => 0x0000_0200 | ((self.scb.div_0_trp as u32) << 4),
            crate::dwt::DEMCR_OFF if self.v7 => self.dwt.demcr(),
            0xD04 => {
                let mut v = self.cpu.ipsr & 0x3F;
                if let Some((e, _)) = self.exc.best_pending() {
                    v |= (e & 0x3F) << 12;
                }
                if (self.exc.pending & self.exc.enabled) >> 16 != 0 {
                    v |= 1 << 22; // ISRPENDING
                }
                if self.exc.pending & (1 << EXC_NMI) != 0 {
                    v |= 1 << 31;
                }
                if self.exc.pending & (1 << EXC_PENDSV) != 0 {
                    v |= 1 << 28;
                }
                if self.exc.pending & (1 << EXC_SYSTICK) != 0 {
                    v |= 1 << 26;
                }
                // RETTOBASE (ARMv7-M only): in a handler, no exception is active but this one,
                // so its return goes to Thread mode (ChibiOS's IRQ epilogue reschedules on it).
                if self.v7 && self.cpu.ipsr != 0 && self.exc.active == 1u64 << self.cpu.ipsr {
                    v |= 1 << 11;
                }
                v
            }
            0xD0C => 0xFA05_0000,
            0xD10 => {
                ((self.scb.sleeponexit as u32) << 1)
                    | ((self.scb.sleepdeep as u32) << 2)
                    | ((self.scb.sevonpend as u32) << 4)
            }
            0xD14 => 0x0000_0208, // STKALIGN | UNALIGN_TRP: fixed on ARMv6-M
            0xD1C => ((self.exc.prio[EXC_SVC as usize] as u32) & 0xFF) << 24,
            0xD20 => {
                (((self.exc.prio[EXC_PENDSV as usize] as u32) & 0xFF) << 16)
                    | (((self.exc.prio[EXC_SYSTICK as usize] as u32) & 0xFF) << 24)
            }
            _ => 0, // unimplemented SCS registers read as zero
        }
    }

    /// Write a System Control Space register; `done` is the cycle the store completes.
    pub fn scs_write(&mut self, off: u32, v: u32, done: u64) {
        if self.fpu.write(off, v) {
            return;
        }
        match off {
            0x010..=0x01C => self.systick_write(off, v, done),
            0x100..=0x41C => {
                if let Some(set) = self.exc.nvic_write(off, v) {
                    for i in 0..32 {
                        if set & (1 << i) != 0 {
                            self.exc.add_arrival(done + ASYNC_PEND_DELAY, 16 + i);
                        }
                    }
                }
            }
            0xD04 => {
                if v & (1 << 31) != 0 {
                    self.exc.add_arrival(done + ASYNC_PEND_DELAY, EXC_NMI);
                }
                if v & (1 << 27) != 0 {
                    self.exc.clear_pending(EXC_PENDSV);
                } else if v & (1 << 28) != 0 {
                    self.exc.add_arrival(done + ASYNC_PEND_DELAY, EXC_PENDSV);
                }
                if v & (1 << 25) != 0 {
                    self.exc.clear_pending(EXC_SYSTICK);
                } else if v & (1 << 26) != 0 {
                    self.exc.add_arrival(done + ASYNC_PEND_DELAY, EXC_SYSTICK);
                }
            }
            0xD08 if self.v7 => self.scb.vtor = v & 0xFFFF_FF80,
            0xD0C if self.v7 && v >> 16 == 0x05FA && v & (1 << 2) == 0 => {
                self.scb.prigroup = ((v >> 8) & 7) as u8;
                self.exc.group_mask = (0xFFu32 << (self.scb.prigroup + 1)) as u8;
            }
            0xD14 if self.v7 => self.scb.div_0_trp = v & (1 << 4) != 0,
            crate::dwt::DEMCR_OFF if self.v7 => self.dwt.set_demcr(v, done),
            0xD0C if v >> 16 == 0x05FA && v & (1 << 2) != 0 => {
                // SYSRESETREQ: the whole system resets once the store completes.
                let _ = done;
                self.system_reset();
            }
            0xD10 => {
                self.scb.sleeponexit = v & 2 != 0;
                self.scb.sleepdeep = v & 4 != 0;
                self.scb.sevonpend = v & 16 != 0;
            }
            0xD1C => self.exc.set_prio(EXC_SVC, v >> 24),
            0xD20 => {
                self.exc.set_prio(EXC_PENDSV, (v >> 16) & 0xFF);
                self.exc.set_prio(EXC_SYSTICK, v >> 24);
            }
            _ => {}
        }
        self.reschedule();
    }

    /// SYSRESETREQ: core, NVIC, SCB, SysTick and the compare timer reset; RAM, the probe
    /// pins and the stimulus generator keep their state (they are outside the MCU).
    pub fn system_reset(&mut self) {
        // The store's own op has already advanced the PC, so reset_core's new PC stands.
        self.reset_core();
    }
}
