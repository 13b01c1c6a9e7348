//! The core: the dispatch loop (here), decoding (decode.rs; ARMv7-M's in thumb2/, the FPU's
//! in fpu/), the predecoded flash (predecode.rs), execution (execute.rs), flags (flags.rs)
//! and cycle costs (timing.rs for the Cortex-M0, thumb2/timing.rs for the Cortex-M3/M4F).

pub mod block;
pub mod check;
pub mod decode;
pub mod execute;
pub mod flags;
pub mod fpu;
pub mod native;
pub mod op;
pub mod predecode;
pub mod state;
pub mod thumb2;
pub mod timing;

use crate::bus::Bus;
use crate::machine::{Cpu, Engine, Stop};
use crate::nvic::{EXC_RETURN_MIN, EXC_SVC};
use timing as t;

/// How thread mode loaded the stack pointer explicitly (the thread-mode switch rule).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SpLoad {
    /// MOV SP, Rm
    MovReg,
    /// ADD SP, Rm (also the compiler's way to allocate frames above 508 bytes)
    AddReg,
    /// MSR MSP/PSP of the stack in use
    Msr,
    /// MSR CONTROL changing SPSEL
    Spsel,
}

/// A data object larger than this may hold several stacks (an arena, a heap): inside it
/// the object alone does not tell threads apart (the same bound as `rtoslab trace`).
pub const SHARED_REGION: u32 = 4096;

impl<B: Bus> Cpu<B> {
    /// Run until the firmware exits, faults (with --fault-stop), locks up or hits the limit.
    ///
    /// The fast path costs one comparison against `next_event` per instruction; every
    /// deadline (interrupt visibility, SysTick, timer, stimulus, cycle limit) and every
    /// request for attention (a fault, a stop, a register write that may unmask an
    /// interrupt) is folded into that one value.
    /// On the engine `self.engine`: the interpreter (the default) or the block engine
    /// (cpu/block.rs), the same instructions at the same cycles. The debugging bus always
    /// interprets (its hooks are per instruction).
    pub fn run(&mut self) -> Stop {
        match self.engine {
            _ if B::DEBUG => self.run_interpreter(),
            Engine::Interpreter => self.run_interpreter(),
            Engine::Blocks => self.run_blocks(),
            Engine::Native => self.run_native(),
        }
    }

    /// `run` on the interpreter: one instruction per pass of the loop.
    pub fn run_interpreter(&mut self) -> Stop {
        match (self.v7, self.flash.on) {
            (false, false) => self.run_v6(),
            (true, false) => self.run_v7(),
            (false, true) => self.run_loop::<false, false, true>(),
            (true, true) => self.run_loop::<false, true, true>(),
        }
    }

    /// `run` with the instruction trace (`--itrace`): one line per instruction with the
    /// cycle it starts at. The loop is compiled twice (TRACED false and true) so that `run`
    /// pays nothing for the option; past the end of the trace window it hands over to `run`.
    pub fn run_traced(&mut self) -> Stop {
        match (self.v7, self.flash.on) {
            (false, false) => self.run_loop::<true, false, false>(),
            (true, false) => self.run_loop::<true, true, false>(),
            (false, true) => self.run_loop::<true, false, true>(),
            (true, true) => self.run_loop::<true, true, true>(),
        }
    }

    // Each core's loop is a function of its own, so that neither's code placement or
    // register allocation moves when the other's instructions change (the host's speed on
    // the loop varies by several per cent with either). A board with flash wait states runs
    // a copy with the flash system's fetch check (FLASH), so the others pay nothing for it.
    #[inline(never)]
    fn run_v6(&mut self) -> Stop {
        self.run_loop::<false, false, false>()
    }

    #[inline(never)]
    fn run_v7(&mut self) -> Stop {
        self.run_loop::<false, true, false>()
    }

    #[inline(always)]
    fn run_loop<const TRACED: bool, const V7: bool, const FLASH: bool>(&mut self) -> Stop {
        let end = if TRACED { self.itrace.as_ref().map_or(0, |t| t.end) } else { u64::MAX };
        loop {
            if let Some(s) = self.iteration::<TRACED, V7, FLASH>(end) {
                return s;
            }
        }
    }

    /// One pass of the interpreter's loop: the service step if a deadline or a request for
    /// attention is due, else one instruction. Some: the run ends (`end`: where the
    /// instruction trace's window ends). `run_loop` repeats it; `--check-blocks` steps it
    /// beside the block engine (cpu/block.rs).
    #[inline(always)]
    pub(crate) fn iteration<const TRACED: bool, const V7: bool, const FLASH: bool>(
        &mut self,
        end: u64,
    ) -> Option<Stop> {
        if TRACED && self.cyc >= end {
            return Some(self.run());
        }
        if self.cyc >= self.next_event {
            if let Some(s) = self.service() {
                self.flush_console();
                return Some(s);
            }
            // An IT block runs here, on the slow path: entering one (IT, or an exception
            // return into one) requests attention until it ends, so the fast path
            // never tests ITSTATE.
            if V7 && self.cpu.it != 0 {
                if B::DEBUG && self.bus.debug_boundary(self.cpu.pc, self.insns) {
                    return Some(Stop::Halted);
                }
                self.step_in_it::<TRACED>();
            }
            return None;
        }
        // (the fetch written out here and in `step_in_it`: a shared one returning an
        // Option cost the loop 2 to 6 host instructions per instruction)
        let pc = self.cpu.pc;
        if B::DEBUG && self.bus.debug_boundary(pc, self.insns) {
            return Some(Stop::Halted);
        }
        let op = match self.ops.get((pc >> 1) as usize) {
            Some(op) => *op,
            None => self.fetch_slow(pc)?,
        };
        // waiting for a new flash line may reach a deadline: an exception is then taken
        // before the instruction (its line is in by then)
        if FLASH && self.flash_fetch(pc) && self.cyc >= self.next_event {
            return None;
        }
        self.fetched::<TRACED>(pc);
        if V7 {
            self.exec_g::<true>(op, pc);
        } else {
            self.exec(op, pc);
        }
        None
    }

    /// The instruction at `pc` was fetched: count and trace it, move `pc` 2 bytes on (a 32-bit
    /// op moves it 2 more).
    #[inline(always)]
    fn fetched<const TRACED: bool>(&mut self, pc: u32) {
        if TRACED {
            if let Some(it) = self.itrace.as_mut() {
                it.insn(self.cyc, pc, &self.bus);
            }
        }
        self.insns += 1;
        self.cpu.pc = pc.wrapping_add(2);
    }

    /// The next instruction of the current IT block (the loop's slow path).
    #[inline(never)]
    fn step_in_it<const TRACED: bool>(&mut self) {
        let pc = self.cpu.pc;
        let op = match self.ops.get((pc >> 1) as usize) {
            Some(op) => *op,
            None => match self.fetch_slow(pc) {
                Some(op) => op,
                None => return,
            },
        };
        if self.flash.on {
            self.flash_fetch(pc);
        }
        self.fetched::<TRACED>(pc);
        self.exec_in_it(op, pc);
    }

    /// Would an exception become visible (and preempt) in (cyc, cyc+cost)? If so, abandon
    /// the multi-register instruction: time stops at the arrival, the PC stays on the
    /// instruction, which restarts after the handler returns.
    #[cold]
    pub(crate) fn abandon_multi(&mut self, cost: u64, pc: u32) -> bool {
        let start = self.cyc;
        for tt in start + 1..start + cost {
            self.advance_events(tt);
            if self.exc.preempting(self.cpu.primask).is_some() {
                self.cyc = tt;
                self.cpu.pc = pc;
                self.reschedule();
                return true;
            }
        }
        false
    }

    #[inline(always)]
    pub(crate) fn multi_check(&mut self, cost: u64, pc: u32) -> bool {
        self.next_event < self.cyc + cost && self.abandon_multi(cost, pc)
    }

    /// The bus transfers of a multi-register load: one word per set bit of `list` (bit 8 is
    /// the PC slot of POP), from `addr` upwards, each stamped one cycle later than the last.
    /// Returns the address after the block, or None if an access faulted (already raised).
    #[inline(always)]
    fn load_block(&mut self, addr: u32, list: u16, vals: &mut [u32; 9], pc: u32) -> Option<u32> {
        let mut a = addr;
        for (i, slot) in vals.iter_mut().enumerate() {
            if list & (1 << i) != 0 {
                match self.ld32(a, pc) {
                    Some(v) => *slot = v,
                    None => {
                        self.bus_off = 0;
                        return None;
                    }
                }
                self.bus_off += 1;
                a = a.wrapping_add(4);
            }
        }
        self.bus_off = 0;
        Some(a)
    }

    /// The bus transfers of a multi-register store, the mirror of `load_block`.
    #[inline(always)]
    fn store_block(&mut self, addr: u32, list: u16, vals: &[u32; 9], pc: u32) -> Option<u32> {
        let mut a = addr;
        for (i, v) in vals.iter().enumerate() {
            if list & (1 << i) != 0 {
                if self.st32(a, *v, pc).is_none() {
                    self.bus_off = 0;
                    return None;
                }
                self.bus_off += 1;
                a = a.wrapping_add(4);
            }
        }
        self.bus_off = 0;
        Some(a)
    }

    pub(crate) fn push(&mut self, list: u16, pc: u32) {
        let n = list.count_ones();
        // (the no-forwarding stall: ARMv7-M only, always 0 on ARMv6-M)
        let cost = t::MULTI_BASE + n as u64 + self.fwd_stall(1 << 13);
        if self.multi_check(cost, pc) {
            return;
        }
        let base = self.cpu.r[13].wrapping_sub(4 * n);
        let mut vals = [0u32; 9];
        vals[..8].copy_from_slice(&self.cpu.r[..8]);
        vals[8] = self.cpu.r[14];
        if self.store_block(base, list, &vals, pc).is_none() {
            return;
        }
        self.cpu.r[13] = base;
        self.sp_low = self.sp_low.min(base);
        self.cyc += cost;
    }

    pub(crate) fn pop(&mut self, list: u16, pc: u32) {
        let n = list.count_ones();
        let with_pc = list & 0x100 != 0;
        let cost = self.pop_cost(n, with_pc) + self.fwd_stall(1 << 13);
        if self.multi_check(cost, pc) {
            return;
        }
        let mut vals = [0u32; 9];
        let Some(a) = self.load_block(self.cpu.r[13], list, &mut vals, pc) else {
            return;
        };
        for (i, v) in vals.iter().enumerate().take(8) {
            if list & (1 << i) != 0 {
                self.cpu.r[i] = *v;
            }
        }
        self.cpu.r[13] = a & !3;
        if with_pc {
            let target = vals[8];
            if target >= EXC_RETURN_MIN && self.cpu.ipsr != 0 {
                self.exception_return(target, pc, cost);
            } else if target & 1 == 0 {
                self.cyc += cost;
                self.cpu.tbit = false;
                self.raise_fault(target, "POP of PC with bit 0 clear (INVSTATE)", None);
            } else {
                self.cpu.pc = target & !1;
                self.cyc += cost + self.pop_refill_extra(target & !1);
            }
        } else {
            self.cyc += cost;
        }
    }

    pub(crate) fn stm(&mut self, rn: u8, list: u8, pc: u32) {
        let n = list.count_ones();
        let cost = t::MULTI_BASE + n as u64;
        if self.multi_check(cost, pc) {
            return;
        }
        let rn = (rn & 7) as usize;
        let mut vals = [0u32; 9];
        vals[..8].copy_from_slice(&self.cpu.r[..8]);
        let Some(a) = self.store_block(self.cpu.r[rn], list as u16, &vals, pc) else {
            return;
        };
        self.cpu.r[rn] = a;
        self.cyc += cost;
    }

    pub(crate) fn ldm(&mut self, rn: u8, list: u8, pc: u32) {
        let n = list.count_ones();
        let cost = t::MULTI_BASE + n as u64;
        if self.multi_check(cost, pc) {
            return;
        }
        let rn = (rn & 7) as usize;
        let mut vals = [0u32; 9];
        let Some(a) = self.load_block(self.cpu.r[rn], list as u16, &mut vals, pc) else {
            return;
        };
        for (i, v) in vals.iter().enumerate().take(8) {
            if list & (1 << i) != 0 {
                self.cpu.r[i] = *v;
            }
        }
        if list & (1 << rn) == 0 {
            self.cpu.r[rn] = a;
        }
        self.cyc += cost;
    }

    /// SVC: taken right after its 3 cycles if its priority beats the execution priority,
    /// otherwise (PRIMASK set, or already at SVC priority or higher) it escalates to HardFault.
    pub(crate) fn svc(&mut self, pc: u32) {
        let prio = self.exc.prio[EXC_SVC as usize];
        if prio < self.exc.exec_priority(self.exc.active, self.cpu.primask) {
            self.exc.pending |= 1 << EXC_SVC;
            self.reschedule();
        } else {
            let next = self.cpu.pc;
            let why = if self.cpu.primask {
                "SVC with PRIMASK set (escalated to HardFault)"
            } else {
                "SVC at insufficient priority (escalated to HardFault)"
            };
            self.raise_fault(pc, why, None);
            self.cpu.pc = next;
        }
    }

    /// MOV SP,Rm / ADD SP,Rm: an explicit load of the stack pointer (rare; only these
    /// instructions pay for the thread-mode switch rule).
    #[cold]
    #[inline(never)]
    pub(crate) fn load_sp(&mut self, v: u32, how: SpLoad) {
        let old = self.cpu.r[13];
        self.cpu.r[13] = v & !3;
        self.sp_loaded(old, self.cyc, how);
    }

    /// The stack region holding `sp` for the thread-mode switch rule: the smallest sized data
    /// object of the ELF in RAM whose [start, end) holds it, else one that ends exactly at
    /// `sp` (an empty descending stack); None when in no object (e.g. the main stack).
    pub fn stack_region(&self, sp: u32) -> Option<(u32, u32)> {
        let i = self.ram_objects.partition_point(|(s, _)| *s <= sp);
        let mut best: Option<(u32, u32)> = None;
        let mut top = None;
        for &(s, e) in self.ram_objects[..i].iter().rev().take(64) {
            if sp < e {
                if best.is_none_or(|(bs, be)| e - s < be - bs) {
                    best = Some((s, e));
                }
            } else if sp == e && top.is_none() {
                top = Some((s, e));
            }
        }
        best.or(top)
    }

    /// Thread mode replaced the active stack pointer explicitly (`old` -> `r13`; the next
    /// instruction starts at cycle `c`). The rule of docs/board.md ('Observation from
    /// outside'): a context switch when the new SP lies in another stack region than the old
    /// one, or, inside a region that may hold several stacks (no data object, or one larger
    /// than `SHARED_REGION`), when interrupts are masked (PRIMASK) and the load is not
    /// ADD SP,Rm. The compiler's own frame code (VLA/alloca, `mov sp, r7` epilogues, large
    /// frames through ADD SP,Rm) never leaves the stack it runs on.
    pub(crate) fn sp_loaded(&mut self, old: u32, c: u64, how: SpLoad) {
        let new = self.cpu.r[13];
        let switched = self.cpu.ipsr == 0 && new != old && {
            let (ro, rn) = (self.stack_region(old), self.stack_region(new));
            ro != rn || (self.cpu.primask && how != SpLoad::AddReg && rn.is_none_or(|(s, e)| e - s > SHARED_REGION))
        };
        if switched {
            let low = self.sp_low.min(old);
            self.sp_low = new;
            if let Some(o) = self.bus.observer() {
                o.switch(c, old, new, low, "thread");
            }
        } else if how == SpLoad::Spsel {
            // the other banked stack: a fresh low-water mark
            self.sp_low = new;
        } else {
            self.sp_low = self.sp_low.min(new);
        }
    }

    /// MRS: None for SYSm values that do not exist on ARMv6-M (we fault on those).
    pub(crate) fn mrs(&mut self, sysm: u8) -> Option<u32> {
        let apsr = self.cpu.xpsr() & 0xF80F_0000; // N Z C V Q, GE (0 without the DSP extension)
        let ipsr = self.cpu.ipsr & 0x3F;
        Some(match sysm {
            0 | 2 => apsr,        // APSR, EAPSR (EPSR reads as zero)
            1 | 3 => apsr | ipsr, // IAPSR, XPSR
            5 | 7 => ipsr,        // IPSR, IEPSR
            6 => 0,               // EPSR
            8 => self.cpu.msp(),
            9 => self.cpu.psp(),
            16 => self.cpu.primask as u32,
            20 => ((self.fpu.fpca as u32) << 2) | ((self.cpu.spsel as u32) << 1) | (self.cpu.npriv as u32),
            17 | 18 if self.v7 => (self.exc.basepri & 0xFF) as u32,
            19 if self.v7 => self.exc.faultmask as u32,
            _ => return None,
        })
    }

    /// `--masked`: PRIMASK is about to become `now` by the instruction at `pc`, which
    /// completes `cost` cycles from now.
    #[cold]
    #[inline(never)]
    pub(crate) fn masked_write(&mut self, pc: u32, cost: u64, now: bool) {
        // ARMv7-M: a section is masked while PRIMASK or BASEPRI masks (BASEPRI never does on v6-M).
        let based = self.exc.basepri < 256;
        let (was, now, c) = (self.cpu.primask || based, now || based, self.cyc + cost);
        if let Some(m) = self.bus.masked() {
            m.primask(c, pc, was, now);
        }
    }

    /// FAULTMASK (CPSID f / MSR): cannot be set from NMI (execution priority -2).
    pub(crate) fn set_faultmask(&mut self, on: bool) {
        if on && self.cpu.ipsr == crate::nvic::EXC_NMI {
            return;
        }
        self.exc.faultmask = on;
        self.reschedule();
    }

    /// `--masked`: BASEPRI goes from `cur` to `new` (0 = no masking, 256 = none) by the MSR
    /// that just executed: recorded like a PRIMASK write (a BASEPRI section masks the
    /// interrupts at or below the threshold).
    #[cold]
    #[inline(never)]
    fn masked_basepri(&mut self, new: i16, cur: i16) {
        let was = self.cpu.primask || cur < 256;
        let now = self.cpu.primask || (new != 0 && new < 256);
        let (pc, c) = (self.cpu.pc.wrapping_sub(4), self.cyc + self.msr_cycles());
        if let Some(m) = self.bus.masked() {
            m.primask(c, pc, was, now);
        }
    }

    /// The cycles of MRS/MSR on the board's core (the write takes effect at their end).
    pub(crate) fn msr_cycles(&self) -> u64 {
        if self.v7 {
            thumb2::timing::MRS_MSR
        } else {
            t::MRS_MSR
        }
    }

    pub(crate) fn msr(&mut self, sysm: u8, v: u32) -> bool {
        match sysm {
            0..=3 => self.set_apsr(v),
            5..=7 => {} // IPSR/EPSR are not writable
            8 => {
                let old = self.cpu.r[13];
                self.cpu.set_msp(v);
                if self.cpu.ipsr == 0 && !self.cpu.spsel {
                    self.sp_loaded(old, self.cyc + self.msr_cycles(), SpLoad::Msr);
                }
            }
            9 => {
                let old = self.cpu.r[13];
                self.cpu.set_psp(v);
                if self.cpu.psp_active() {
                    self.sp_loaded(old, self.cyc + self.msr_cycles(), SpLoad::Msr);
                }
            }
            16 => {
                if self.bus.masked().is_some() {
                    self.masked_write(self.cpu.pc.wrapping_sub(4), self.msr_cycles(), v & 1 != 0);
                }
                self.cpu.primask = v & 1 != 0;
                self.reschedule();
            }
            17 | 18 if self.v7 => {
                // BASEPRI, and BASEPRI_MAX which only raises the boost; 0 = no masking.
                if !self.cpu.npriv || self.cpu.ipsr != 0 {
                    let new = (v & self.exc.prio_bits as u32) as i16;
                    let cur = self.exc.basepri;
                    if sysm == 17 || (new != 0 && (new < cur)) {
                        if self.bus.masked().is_some() {
                            self.masked_basepri(new, cur);
                        }
                        self.exc.basepri = if new == 0 { 256 } else { new };
                        self.reschedule();
                    }
                }
            }
            19 if self.v7 => {
                if !self.cpu.npriv || self.cpu.ipsr != 0 {
                    self.set_faultmask(v & 1 != 0);
                }
            }
            20 => {
                self.cpu.npriv = v & 1 != 0;
                self.fpu.fpca = self.fpu.present && v & 4 != 0;
                // SPSEL can only be changed in Thread mode.
                if self.cpu.ipsr == 0 {
                    let was = self.cpu.psp_active();
                    let old = self.cpu.r[13];
                    self.cpu.set_mode(0, v & 2 != 0);
                    if was != self.cpu.psp_active() {
                        self.sp_loaded(old, self.cyc + self.msr_cycles(), SpLoad::Spsel);
                    }
                }
            }
            _ => return false,
        }
        true
    }
}
