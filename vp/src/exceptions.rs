//! The exception model: the slow path of the dispatch loop (`service`), exception entry
//! with late arrival, exception return with tail-chaining, faults, lock-up and sleep.
//!
//! Timing rules (docs/board.md, calibrated on seed 000 Appendix A):
//! - an exception is taken at an instruction boundary once it is visible; entry takes 15
//!   cycles from that boundary to the first handler instruction;
//! - exception return by BX takes 16 cycles including the BX, a tail chain 15;
//! - on a board with flash wait states the fetch of the handler or of the return address
//!   pays its flash line (flash.rs `flash_target`: the buffers and caches may hold it).

use crate::bus::Bus;
use crate::contract::RAM_BASE;
use crate::cpu::fpu::lazy::EXT_FRAME_BYTES;
use crate::machine::{Cpu, FaultInfo, Stop, NEVER};
use crate::nvic::{EXC_HARDFAULT, EXC_NMI, EXC_RETURN_HANDLER, EXC_RETURN_THREAD_MSP, EXC_RETURN_THREAD_PSP};

/// EXC_RETURN bit 4: set for an integer-only frame, clear for an extended (FP) frame.
const EXC_RETURN_NO_FP: u32 = 1 << 4;

impl<B: Bus> Cpu<B> {
    /// Bring every timed source up to `now`: SysTick zeros, timer, stimulus, then deliver
    /// the arrivals that are visible by `now`.
    #[inline]
    pub fn advance_events(&mut self, now: u64) {
        self.systick_advance(now);
        self.bus.advance(now);
        self.drain_bus();
        self.exc.deliver_arrivals(now);
    }

    /// The earliest cycle any timed source needs attention.
    pub fn next_timed_event(&self) -> u64 {
        self.systick.next_zero.min(self.bus.next_event()).min(self.exc.next_arrival())
    }

    /// The slow path, run at an instruction boundary when `cyc >= next_event`.
    pub fn service(&mut self) -> Option<Stop> {
        loop {
            if let Some(s) = self.stop.take() {
                return Some(s);
            }
            self.advance_events(self.cyc);
            if let Some(f) = self.pending_fault.take() {
                if let Some(s) = self.take_fault(f) {
                    return Some(s);
                }
                continue;
            }
            if self.cyc >= self.max_cycles {
                return Some(Stop::CycleLimit);
            }
            if self.sleep_on_exit {
                self.sleep_on_exit = false;
                self.sleep(false);
                continue;
            }
            if let Some(e) = self.exc.preempting(self.cpu.primask) {
                let ret = self.cpu.pc;
                self.enter_exception(e, ret);
                continue;
            }
            self.next_event = self.next_timed_event().min(self.max_cycles);
            if self.next_event > self.cyc {
                return None;
            }
        }
    }

    /// A fault raised by an instruction: stop (--fault-stop), lock up, or pend HardFault.
    fn take_fault(&mut self, f: FaultInfo) -> Option<Stop> {
        if let Some(o) = self.bus.observer() {
            o.fault(self.cyc, f.pc, &f.reason);
        }
        if self.cfg.fault_stop {
            return Some(Stop::FaultStop(f));
        }
        if self.exc.active & ((1 << EXC_HARDFAULT) | (1 << EXC_NMI)) != 0 {
            return Some(Stop::Lockup(f));
        }
        self.last_fault = Some(f);
        self.exc.pending |= 1 << EXC_HARDFAULT;
        if B::DEBUG {
            self.bus.debug_event(crate::debug::bus::DebugEvent::Fault);
        }
        None
    }

    fn lockup_now(&mut self, pc: u32, reason: String) {
        let f = FaultInfo { pc, reason, access: None, regs: self.regs_snapshot(pc), xpsr: self.cpu.xpsr() };
        if let Some(o) = self.bus.observer() {
            o.fault(self.cyc, pc, &f.reason);
        }
        self.request_stop(Stop::Lockup(f));
    }

    /// Exception entry at the current boundary; `ret` is the stacked return address.
    pub fn enter_exception(&mut self, first: u32, ret: u32) {
        let b = self.cyc;
        // Late arrival: a more urgent exception seen during stacking is entered instead.
        self.advance_events(b + self.exc_timing.late_arrival);
        let exc = self.exc.preempting(self.cpu.primask).unwrap_or(first);

        let from_thread = self.cpu.ipsr == 0;
        let psp = self.cpu.psp_active();
        let sp = self.cpu.r[13];
        let ext = self.fp_extended_frame();
        let frame = sp.wrapping_sub(if ext { EXT_FRAME_BYTES } else { 32 }) & !7;
        let xpsr = (self.cpu.xpsr() & !(1 << 9)) | (((sp >> 2) & 1) << 9);
        let words =
            [self.cpu.r[0], self.cpu.r[1], self.cpu.r[2], self.cpu.r[3], self.cpu.r[12], self.cpu.r[14], ret, xpsr];
        if !self.stack_write(frame, &words) {
            self.lockup_now(
                ret,
                format!(
                    "stacking for exception {} failed: frame at 0x{:08x} is outside RAM (stack overflow?)",
                    exc, frame
                ),
            );
            return;
        }
        // the FP part of an extended frame: reserved (lazy) or written
        let fp_cycles = if ext { self.fp_stack(frame, from_thread).unwrap_or(0) } else { 0 };
        let exc_return = if !from_thread {
            EXC_RETURN_HANDLER
        } else if self.cpu.spsel {
            EXC_RETURN_THREAD_PSP
        } else {
            EXC_RETURN_THREAD_MSP
        };
        self.cpu.r[14] = if ext { exc_return & !EXC_RETURN_NO_FP } else { exc_return };
        if from_thread {
            self.thread_frame = frame;
            self.thread_was_psp = psp;
            self.thread_low = self.sp_low.min(frame);
        }
        self.cpu.r[13] = frame;
        self.cpu.it = 0;
        self.cpu.excl = None;
        self.cpu.set_mode(exc, false);
        self.sp_low = self.cpu.r[13];
        self.exc.active |= 1 << exc;
        self.exc.pending &= !(1 << exc);
        let vector = self.vector(exc);
        self.cpu.pc = vector & !1;
        self.cpu.tbit = vector & 1 != 0;
        self.cyc = b + self.exc_timing.entry + fp_cycles;
        self.flash_target();
        self.cpu.event_reg = true;
        if let Some(it) = self.itrace.as_mut() {
            it.exc_entry(b, exc);
        }
        if let Some(o) = self.bus.observer() {
            o.exc_entry(self.cyc, exc, frame);
        }
        if let Some(m) = self.bus.masked() {
            m.context(b, exc);
        }
        if vector & 1 == 0 {
            self.raise_fault(self.cpu.pc, &format!("vector of exception {} has bit 0 clear (INVSTATE)", exc), None);
        }
        self.reschedule();
    }

    /// Write an exception frame; stacks live in RAM only.
    fn stack_write(&mut self, addr: u32, words: &[u32; 8]) -> bool {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        match self.bus.ram_mut().get_mut(o..o + 32) {
            Some(dst) => {
                for (i, w) in words.iter().enumerate() {
                    dst[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
                }
                true
            }
            None => false,
        }
    }

    fn stack_read(&self, addr: u32) -> Option<[u32; 8]> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        let src = self.bus.ram().get(o..o + 32)?;
        let mut w = [0u32; 8];
        for (i, x) in w.iter_mut().enumerate() {
            *x = u32::from_le_bytes([src[i * 4], src[i * 4 + 1], src[i * 4 + 2], src[i * 4 + 3]]);
        }
        Some(w)
    }

    /// Exception return started by the instruction at `pc` (BX or POP), whose own cost as a
    /// plain branch would be `base` cycles.
    pub fn exception_return(&mut self, v: u32, pc: u32, base: u64) {
        let s = self.cyc;
        let exc = self.cpu.ipsr;
        // EXC_RETURN bit 4 clear: the frame is an extended one (FPU only)
        let fp_frame = self.fpu.present && v & EXC_RETURN_NO_FP == 0;
        let vb = if self.fpu.present { v | EXC_RETURN_NO_FP } else { v };
        if vb != EXC_RETURN_HANDLER && vb != EXC_RETURN_THREAD_MSP && vb != EXC_RETURN_THREAD_PSP {
            self.raise_fault(pc, &format!("exception return with invalid EXC_RETURN 0x{:08x}", v), None);
            return;
        }
        let bit = 1u64 << (exc & 63);
        let active_after = self.exc.active & !bit;
        let to_thread = vb != EXC_RETURN_HANDLER;
        if self.exc.active & bit == 0 || (to_thread && active_after != 0) || (!to_thread && active_after == 0) {
            self.raise_fault(pc, &format!("EXC_RETURN 0x{:08x} does not match the active exceptions", v), None);
            return;
        }
        self.exc.active = active_after;

        // Tail chain: a pending exception that beats the priority we would return to.
        if let Some(new) = self.exc.preempting(self.cpu.primask) {
            self.exc.active |= 1 << new;
            self.exc.pending &= !(1 << new);
            self.cpu.ipsr = new;
            self.cpu.r[14] = v;
            self.fpu.fpca = false;
            let vector = self.vector(new);
            self.cpu.pc = vector & !1;
            self.cpu.tbit = vector & 1 != 0;
            self.cyc = s + base + self.exc_timing.tail_chain_extra;
            self.flash_target();
            self.cpu.event_reg = true;
            if let Some(it) = self.itrace.as_mut() {
                it.tail_chain(s + base, exc, new);
            }
            if let Some(o) = self.bus.observer() {
                o.tail_chain(self.cyc, exc, new);
            }
            if let Some(m) = self.bus.masked() {
                m.context(s + base, new);
            }
            if vector & 1 == 0 {
                self.raise_fault(self.cpu.pc, &format!("vector of exception {} has bit 0 clear (INVSTATE)", new), None);
            }
            self.reschedule();
            return;
        }

        let use_psp = vb == EXC_RETURN_THREAD_PSP;
        let frame = if use_psp { self.cpu.psp() } else { self.cpu.msp() };
        let w = match self.stack_read(frame) {
            Some(w) => w,
            None => {
                self.exc.active |= bit;
                self.raise_fault(pc, &format!("unstacking failed: frame at 0x{:08x} is outside RAM", frame), None);
                return;
            }
        };
        let fp_cycles = if fp_frame {
            match self.fp_unstack(frame) {
                Some(c) => c,
                None => {
                    self.exc.active |= bit;
                    self.raise_fault(pc, &format!("FP unstacking failed: frame at 0x{:08x}", frame), None);
                    return;
                }
            }
        } else {
            self.fpu.fpca = false;
            0
        };
        self.cpu.r[0] = w[0];
        self.cpu.r[1] = w[1];
        self.cpu.r[2] = w[2];
        self.cpu.r[3] = w[3];
        self.cpu.r[12] = w[4];
        self.cpu.r[14] = w[5];
        let xpsr = w[7];
        self.set_apsr(xpsr);
        if self.dsp {
            self.cpu.ge = ((xpsr >> 16) & 0xF) as u8;
        }
        if self.v7 {
            self.cpu.it = (((xpsr >> 25) & 3) | (((xpsr >> 10) & 0x3F) << 2)) as u8;
            if self.cpu.it != 0 {
                self.reschedule(); // back into an IT block: it runs on the slow path (it.rs)
            }
            self.cpu.excl = None;
            if exc != crate::nvic::EXC_NMI {
                self.exc.faultmask = false;
            }
        }
        let size = if fp_frame { EXT_FRAME_BYTES } else { 32 };
        let new_sp = frame.wrapping_add(size).wrapping_add(if xpsr & (1 << 9) != 0 { 4 } else { 0 });
        let new_ipsr = if to_thread { 0 } else { xpsr & 0x3F };
        if use_psp {
            self.cpu.set_psp(new_sp);
        } else {
            self.cpu.set_msp(new_sp);
        }
        self.cpu.set_mode(new_ipsr, use_psp);
        self.cpu.pc = w[6] & !1;
        self.cyc = s + base + self.exc_timing.return_extra + fp_cycles;
        self.flash_target();
        self.cpu.event_reg = true;
        if let Some(it) = self.itrace.as_mut() {
            it.exc_return(s + base, exc);
        }
        if let Some(o) = self.bus.observer() {
            o.exc_return(self.cyc, exc, new_ipsr);
        }
        if let Some(m) = self.bus.masked() {
            m.context(self.cyc, new_ipsr);
        }
        self.cpu.tbit = xpsr & (1 << 24) != 0;
        if !self.cpu.tbit {
            self.raise_fault(self.cpu.pc, "exception return to a frame whose xPSR has T = 0 (INVSTATE)", None);
        }
        if to_thread {
            // Back to thread mode through another frame than the one the thread was
            // interrupted with, or on the other stack pointer (a kernel starting its first
            // task, or leaving an idle loop that runs on MSP): a context switch.
            let switched = use_psp != self.thread_was_psp || frame != self.thread_frame;
            if switched {
                let (from, low, c) = (self.thread_frame, self.thread_low, self.cyc);
                if let Some(o) = self.bus.observer() {
                    o.switch(c, from, frame, low, "exception");
                }
                self.sp_low = self.cpu.r[13];
            } else {
                self.sp_low = self.thread_low.min(self.cpu.r[13]);
            }
            self.thread_was_psp = use_psp;
            self.thread_frame = frame;
            if self.scb.sleeponexit {
                self.sleep_on_exit = true;
            }
        } else {
            self.sp_low = self.cpu.r[13];
        }
        self.reschedule();
    }

    /// Would a pending exception wake the core from WFI (PRIMASK does not block wake-up)?
    fn wfi_wake(&self) -> bool {
        match self.exc.best_pending() {
            Some((_, p)) => p < self.exc.exec_priority(self.exc.active, false),
            None => false,
        }
    }

    /// WFI / WFE (after their 2 cycles): skip time straight to the next event that wakes the
    /// core instead of spinning. With SCR.SLEEPDEEP set on a board with an energy model the
    /// sleep is deep (the STM32's Stop: energy.rs): SysTick, clocked by the core clock, stops
    /// for it, and the wake-up takes the model's wake-up cycles before the core runs again.
    pub fn sleep(&mut self, wfe: bool) {
        if wfe && self.cpu.event_reg {
            self.cpu.event_reg = false;
            return;
        }
        let start = self.cyc;
        let deep = self.scb.sleepdeep && self.cfg.board.energy.is_some();
        let mut slept = false;
        loop {
            let before = self.exc.pending;
            self.advance_events(self.cyc);
            if self.stop.is_some() || self.pending_fault.is_some() {
                break;
            }
            let woke = if wfe {
                self.cpu.event_reg
                    || self.exc.preempting(self.cpu.primask).is_some()
                    || (self.scb.sevonpend && self.exc.pending & !before != 0)
            } else {
                self.wfi_wake()
            };
            if woke {
                break;
            }
            if !slept {
                slept = true;
                if deep {
                    self.systick_stop(start);
                }
                if let Some(o) = self.bus.observer() {
                    o.sleep(start, deep);
                }
                if let Some(m) = self.bus.masked() {
                    if self.cpu.primask {
                        m.sleep(start, self.cpu.pc.wrapping_sub(2));
                    }
                    m.asleep(start, if deep { crate::masked::CTX_DEEP } else { crate::masked::CTX_SLEEP });
                }
            }
            let next = self.next_timed_event();
            if next >= self.max_cycles {
                if self.max_cycles == NEVER {
                    self.request_stop(Stop::SleepForever);
                } else {
                    self.cyc = self.cyc.max(self.max_cycles);
                }
                break;
            }
            self.cyc = self.cyc.max(next);
        }
        if wfe {
            self.cpu.event_reg = false;
        }
        if slept {
            let woke_at = self.cyc;
            let mut wakeup = 0;
            if deep {
                self.energy.deep += woke_at - start;
                self.energy.deeps += 1;
                if self.stop.is_none() {
                    let board = self.cfg.board;
                    wakeup = board.energy.map_or(0, |e| e.wakeup_cycles(board.clock_hz));
                    self.energy.wakeup += wakeup;
                    if let Some(m) = self.bus.masked() {
                        m.sleep_state(woke_at, crate::masked::CTX_WAKEUP);
                    }
                    self.cyc += wakeup;
                }
                self.systick_restart(self.cyc);
            } else {
                self.energy.sleep += woke_at - start;
                self.energy.sleeps += 1;
            }
            let c = self.cyc;
            if let Some(o) = self.bus.observer() {
                o.wake(c, wakeup);
            }
            if let Some(m) = self.bus.masked() {
                m.awake(c);
                if self.cpu.primask {
                    m.wake(c, self.cpu.pc.wrapping_sub(2));
                }
            }
        }
        self.reschedule();
    }

    /// The handler address of exception `exc`: from the vector table at VTOR (0 on ARMv6-M).
    fn vector(&self, exc: u32) -> u32 {
        let a = self.scb.vtor.wrapping_add(exc * 4);
        if a < crate::contract::FLASH_SIZE {
            return self.bus.flash_word(a);
        }
        let o = a.wrapping_sub(crate::contract::RAM_BASE) as usize;
        self.bus.ram().get(o..o + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}
