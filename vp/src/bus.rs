//! The bus: fast paths for RAM and flash inlined into the execute loop, and one slow path
//! for everything else (the bus's devices, System Control Space, DWT, faults).
//!
//! Fast paths are a single bounds check on the RAM slice, whose length *is* the `--ram`
//! size, so the RAM limit costs nothing extra. Every firmware-controlled index goes
//! through `get`, never through panicking indexing.

// RAM_WINDOW: the largest RAM the board can be configured with; addresses in this window past
// the configured size fault with a message pointing at `--ram`.
use crate::contract::{FLASH_SIZE, RAM_BASE, RAM_WINDOW, SCS_BASE};
use crate::machine::{Access, Cpu, Stop};
use crate::masked::Masked;
use crate::trace::Observer;

/// What the core sees outside itself: the memories as slices (read and written directly on
/// the fast paths) and a device window the slow path reaches word by word. The core's
/// private blocks (NVIC, SCB, SysTick, DWT, FPU) are not on it. Implemented by `LabBus`
/// (`lab_bus.rs`); the core is compiled for its bus (no `dyn`).
///
/// Devices never touch the core: they queue interrupt arrivals, stop requests and requests
/// for attention, which the core takes (`take_signals`) after each device access and in its
/// service step.
pub trait Bus {
    /// RAM from RAM_BASE; its length is the configured size.
    fn ram(&self) -> &[u8];
    fn ram_mut(&mut self) -> &mut [u8];
    /// Flash from address 0 (read-only to the firmware).
    fn flash(&self) -> &[u8];
    /// True if `addr` is in the bus's device window: registers reached by word accesses only
    /// (others fault), through `read` and `write`.
    fn device(&self, addr: u32) -> bool;
    /// Word read of a device register, the load beginning at cycle `now`; None: nothing there.
    fn read(&mut self, addr: u32, now: u64) -> Option<u32>;
    /// Word write of a device register, the store completing at cycle `done`; false: nothing there.
    fn write(&mut self, addr: u32, v: u32, done: u64) -> bool;
    /// Bring the devices' timed sources up to cycle `now` (their lines become arrivals).
    fn advance(&mut self, now: u64);
    /// The earliest cycle a device needs `advance`.
    fn next_event(&self) -> u64;
    /// System reset (SYSRESETREQ): the devices of the chip to their reset state.
    fn reset(&mut self);
    /// True if arrivals, a stop or a request for attention wait for `take_signals`.
    fn has_signals(&self) -> bool;
    /// Hand each queued arrival `(cycle, exception number)` to `arrival` (in the order they were
    /// raised); return the stop request and whether a deadline changed.
    fn take_signals(&mut self, arrival: impl FnMut(u64, u32)) -> (Option<Stop>, bool);
    /// The event trace / VCD, if one is recorded (exception entry/return, switches, faults).
    fn observer(&mut self) -> Option<&mut Observer>;
    /// The `--masked` recorder, if any (PRIMASK/BASEPRI writes, exception entry/return).
    fn masked(&mut self) -> Option<&mut Masked>;
    /// Console output (semihosting writes).
    fn console_write(&mut self, b: &[u8]);
    fn flush_console(&mut self);

    /// Halfword of flash at `addr` (0 past its end).
    #[inline]
    fn flash_half(&self, addr: u32) -> u16 {
        let a = addr as usize;
        self.flash().get(a..a + 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
    }

    /// Word of flash at `addr` (0 past its end).
    #[inline]
    fn flash_word(&self, addr: u32) -> u32 {
        let a = addr as usize;
        self.flash().get(a..a + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Halfword of RAM at offset `off` from RAM_BASE (None past its end).
    #[inline]
    fn ram_half(&self, off: u32) -> Option<u16> {
        let a = off as usize;
        self.ram().get(a..a + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
}

impl<B: Bus> Cpu<B> {
    /// Take what the devices signalled: arrivals into the NVIC's queue, a stop request, and a
    /// forced pass through the service step when a deadline changed.
    #[inline]
    pub fn drain_bus(&mut self) {
        if self.bus.has_signals() {
            self.take_bus_signals();
        }
    }

    #[cold]
    #[inline(never)]
    fn take_bus_signals(&mut self) {
        let exc = &mut self.exc;
        let (stop, attention) = self.bus.take_signals(|w, e| exc.add_arrival(w, e));
        if let Some(s) = stop {
            self.request_stop(s);
        }
        if attention {
            self.reschedule();
        }
    }

    #[inline(always)]
    pub fn ld32(&mut self, addr: u32, pc: u32) -> Option<u32> {
        if addr & 3 == 0 {
            let o = addr.wrapping_sub(RAM_BASE) as usize;
            if let Some(b) = self.bus.ram().get(o..o + 4) {
                return Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
            let a = addr as usize;
            if let Some(b) = self.bus.flash().get(a..a + 4) {
                let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                self.flash_data(addr);
                return Some(v);
            }
        }
        self.ld_slow(addr, 4, pc)
    }

    #[inline(always)]
    pub fn ld16(&mut self, addr: u32, pc: u32) -> Option<u32> {
        if addr & 1 == 0 {
            let o = addr.wrapping_sub(RAM_BASE) as usize;
            if let Some(b) = self.bus.ram().get(o..o + 2) {
                return Some(u16::from_le_bytes([b[0], b[1]]) as u32);
            }
            let a = addr as usize;
            if let Some(b) = self.bus.flash().get(a..a + 2) {
                let v = u16::from_le_bytes([b[0], b[1]]) as u32;
                self.flash_data(addr);
                return Some(v);
            }
        }
        self.ld_slow(addr, 2, pc)
    }

    #[inline(always)]
    pub fn ld8(&mut self, addr: u32, pc: u32) -> Option<u32> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        if let Some(b) = self.bus.ram().get(o) {
            return Some(*b as u32);
        }
        if let Some(b) = self.bus.flash().get(addr as usize) {
            let v = *b as u32;
            self.flash_data(addr);
            return Some(v);
        }
        self.ld_slow(addr, 1, pc)
    }

    #[inline(always)]
    pub fn st32(&mut self, addr: u32, v: u32, pc: u32) -> Option<()> {
        if addr & 3 == 0 {
            let o = addr.wrapping_sub(RAM_BASE) as usize;
            if let Some(b) = self.bus.ram_mut().get_mut(o..o + 4) {
                b.copy_from_slice(&v.to_le_bytes());
                return Some(());
            }
        }
        self.st_slow(addr, v, 4, pc)
    }

    #[inline(always)]
    pub fn st16(&mut self, addr: u32, v: u32, pc: u32) -> Option<()> {
        if addr & 1 == 0 {
            let o = addr.wrapping_sub(RAM_BASE) as usize;
            if let Some(b) = self.bus.ram_mut().get_mut(o..o + 2) {
                b.copy_from_slice(&(v as u16).to_le_bytes());
                return Some(());
            }
        }
        self.st_slow(addr, v, 2, pc)
    }

    #[inline(always)]
    pub fn st8(&mut self, addr: u32, v: u32, pc: u32) -> Option<()> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        if let Some(b) = self.bus.ram_mut().get_mut(o) {
            *b = v as u8;
            return Some(());
        }
        self.st_slow(addr, v, 1, pc)
    }

    fn access_fault(&mut self, pc: u32, addr: u32, size: u8, write: bool, why: &'static str) {
        let reason = format!("{}-byte {} at 0x{:08x}: {}", size, if write { "write" } else { "read" }, addr, why);
        self.raise_fault(pc, &reason, Some(Access { addr, size, write, why }));
    }

    fn classify_unmapped(&self, addr: u32) -> &'static str {
        let o = addr.wrapping_sub(RAM_BASE);
        if o < RAM_WINDOW {
            "past the end of RAM (see --ram)"
        } else if addr < FLASH_SIZE {
            "flash"
        } else {
            "unmapped address"
        }
    }

    #[cold]
    #[inline(never)]
    pub fn ld_slow(&mut self, addr: u32, size: u8, pc: u32) -> Option<u32> {
        if addr & (size as u32 - 1) != 0
            && self.v7
            && (self.ram_range(addr, size) || addr.checked_add(size as u32).is_some_and(|e| e <= FLASH_SIZE))
        {
            let mut v = 0;
            for i in 0..size as u32 {
                let a = addr.wrapping_add(i);
                let o = a.wrapping_sub(RAM_BASE) as usize;
                let b = if a < FLASH_SIZE { self.bus.flash()[a as usize] } else { self.bus.ram()[o] };
                v |= (b as u32) << (8 * i);
            }
            return Some(v);
        }
        if addr & (size as u32 - 1) != 0 {
            self.access_fault(pc, addr, size, false, "unaligned access");
            return None;
        }
        if addr < FLASH_SIZE {
            let a = addr as usize;
            self.flash_data(addr);
            let b = self.bus.flash().get(a..a + size as usize)?;
            return Some(match size {
                1 => b[0] as u32,
                2 => u16::from_le_bytes([b[0], b[1]]) as u32,
                _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            });
        }
        let now = self.cyc + self.bus_off;
        if addr >> 12 == SCS_BASE >> 12 || self.bus.device(addr) {
            let off = addr.wrapping_sub(SCS_BASE);
            if size != 4 && self.v7 && crate::scb::byte_accessible(off) {
                // NVIC_IPR and SHPR are byte-accessible on ARMv7-M for loads too (ARMv7-M ARM
                // B3.4.3, B3.2.10-12; RTX5 reads SHPR3 back with LDRB to find the priority bits).
                let w = self.scs_read(off & !3, now);
                return Some((w >> ((off & 3) * 8)) & (u32::MAX >> (32 - 8 * size as u32)));
            }
            if size != 4 {
                self.access_fault(pc, addr, size, false, "peripheral registers are word-access only");
                return None;
            }
            if addr >> 12 == SCS_BASE >> 12 {
                return Some(self.scs_read(addr - SCS_BASE, now));
            }
            let v = self.bus.read(addr, now);
            self.drain_bus();
            if let Some(v) = v {
                return Some(v);
            }
        }
        if self.is_dwt(addr) {
            if size != 4 {
                self.access_fault(pc, addr, size, false, "DWT registers are word-access only");
                return None;
            }
            return Some(self.dwt.read(addr - crate::dwt::DWT_BASE, now));
        }
        let why = self.classify_unmapped(addr);
        self.access_fault(pc, addr, size, false, why);
        None
    }

    #[cold]
    #[inline(never)]
    pub fn st_slow(&mut self, addr: u32, v: u32, size: u8, pc: u32) -> Option<()> {
        if addr & (size as u32 - 1) != 0 && self.v7 && self.ram_range(addr, size) {
            // ARMv7-M: unaligned LDR/STR/LDRH/STRH to normal memory work.
            for i in 0..size as u32 {
                let o = addr.wrapping_add(i).wrapping_sub(RAM_BASE) as usize;
                self.bus.ram_mut()[o] = (v >> (8 * i)) as u8;
            }
            return Some(());
        }
        if addr & (size as u32 - 1) != 0 {
            self.access_fault(pc, addr, size, true, "unaligned access");
            return None;
        }
        if addr < FLASH_SIZE {
            self.access_fault(pc, addr, size, true, "flash is read-only");
            return None;
        }
        // A store completes at its end: `st_lat` cycles after its start, 2 but for a
        // pipelined ARMv7-M store (later words of STM/PUSH one more each).
        let done = self.cyc + self.st_lat + self.bus_off;
        if addr >> 12 == SCS_BASE >> 12 || self.bus.device(addr) {
            let off = addr.wrapping_sub(SCS_BASE);
            if size != 4 && self.v7 && crate::scb::byte_accessible(off) {
                // NVIC_IPR and SHPR are byte-accessible on ARMv7-M (CMSIS writes bytes).
                let (word, sh) = (off & !3, (off & 3) * 8);
                let mask = (u32::MAX >> (32 - 8 * size as u32)) << sh;
                let old = self.scs_read(word, done);
                self.scs_write(word, (old & !mask) | ((v << sh) & mask), done);
                return Some(());
            }
            if size != 4 {
                self.access_fault(pc, addr, size, true, "peripheral registers are word-access only");
                return None;
            }
            if addr >> 12 == SCS_BASE >> 12 {
                self.scs_write(off, v, done);
                return Some(());
            }
            let mapped = self.bus.write(addr, v, done);
            self.drain_bus();
            if mapped {
                return Some(());
            }
        }
        if self.is_dwt(addr) {
            if size != 4 {
                self.access_fault(pc, addr, size, true, "DWT registers are word-access only");
                return None;
            }
            self.dwt.write(addr - crate::dwt::DWT_BASE, v, done);
            return Some(());
        }
        let why = self.classify_unmapped(addr);
        self.access_fault(pc, addr, size, true, why);
        None
    }

    /// True if `addr..addr+size` lies inside the configured RAM.
    fn ram_range(&self, addr: u32, size: u8) -> bool {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        o.checked_add(size as usize).is_some_and(|e| e <= self.bus.ram().len())
    }

    /// Fetch/decode for an address outside the predecoded flash table (code in RAM).
    #[cold]
    #[inline(never)]
    pub fn fetch_slow(&mut self, pc: u32) -> Option<crate::cpu::decode::Op> {
        let o = pc.wrapping_sub(RAM_BASE);
        if let Some(hw) = self.bus.ram_half(o) {
            let hw2 = self.bus.ram_half(o.wrapping_add(2)).unwrap_or(0);
            return Some(crate::cpu::predecode::decode_for(self.cfg.board.arch(), pc, hw, hw2));
        }
        let why = if o < RAM_WINDOW {
            "instruction fetch past the end of RAM (see --ram)"
        } else {
            "instruction fetch from a non-executable or unmapped address"
        };
        self.raise_fault(pc, why, Some(Access { addr: pc, size: 2, write: false, why }));
        None
    }
}
