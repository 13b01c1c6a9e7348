//! The core, generic over its bus: `Cpu<B: Bus>` holds the core's state, its private blocks
//! (NVIC, SCB, SysTick, DWT, FPU), the cycle counter, the predecoded flash and the run
//! control; memories, lab peripherals and observers are behind `bus` (`crate::bus::Bus`,
//! monomorphised: no trait objects on the hot path). The board is `Machine = Cpu<LabBus>`.

use crate::board::{Arch, Board};
use crate::bus::Bus;
use crate::contract::{RAM_BASE, RAM_SIZE_DEFAULT, STATUS_CYCLE_LIMIT, STATUS_FAULT_STOP, STATUS_LOCKUP};
use crate::cpu::decode::Op;
use crate::cpu::state::CpuState;
use crate::itrace::ITrace;
use crate::lab_bus::LabBus;
use crate::memory::Memory;
use crate::nvic::ExcState;
use crate::peripherals::stimulus::StimulusSpec;
use crate::scb::Scb;
use crate::systick::SysTick;
use std::io::Write;

/// A cycle that never comes: the time of an event that is not scheduled.
pub const NEVER: u64 = u64::MAX;

/// Why the simulation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The firmware's own status (EXIT register or semihosting).
    Exit(u8),
    /// `--max-cycles` reached.
    CycleLimit,
    /// Asleep with nothing that could ever wake the core.
    SleepForever,
    /// A fault with `--fault-stop`.
    FaultStop(FaultInfo),
    /// A fault while in HardFault (or during stacking / vector fetch).
    Lockup(FaultInfo),
    /// The debugger halted the core at an instruction boundary (only on the debugging bus,
    /// `Bus::DEBUG`): not the end of the run, which goes on with the next `run`.
    Halted,
}

impl Stop {
    /// Process exit status, per docs/board.md (spec/contracts.toml).
    pub fn status(&self) -> i32 {
        match self {
            Stop::Exit(c) => *c as i32,
            Stop::CycleLimit | Stop::SleepForever => STATUS_CYCLE_LIMIT,
            Stop::FaultStop(_) => STATUS_FAULT_STOP,
            Stop::Lockup(_) => STATUS_LOCKUP,
            // never the end of a run (the debugger resumes it); the nearest status is "stopped early"
            Stop::Halted => STATUS_CYCLE_LIMIT,
        }
    }
}

/// The access that faulted, if the fault was a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub addr: u32,
    pub size: u8,
    pub write: bool,
    pub why: &'static str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultInfo {
    /// Address of the instruction that faulted.
    pub pc: u32,
    pub reason: String,
    pub access: Option<Access>,
    /// Register snapshot r0..r15 (r15 = pc), xPSR.
    pub regs: [u32; 16],
    pub xpsr: u32,
}

/// The engine that runs the instructions: the same results on each, at different speeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// One instruction per pass of the loop: the default (the faster of the two on every
    /// image measured, vp/README.md "Speed") and the reference.
    Interpreter,
    /// The block engine (cpu/block.rs, `--blocks`).
    Blocks,
    /// Hot blocks compiled to host code (cpu/native/, `--native`).
    Native,
}

/// Options fixed at construction.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    pub ram_size: u32,
    pub max_cycles: Option<u64>,
    pub fault_stop: bool,
    pub stimulus: Option<StimulusSpec>,
    /// MULS cycles: 1 (fast multiplier, the default) or 32 (the small multiplier).
    pub mul_cycles: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            board: Board::DEFAULT,
            ram_size: RAM_SIZE_DEFAULT,
            max_cycles: None,
            fault_stop: false,
            stimulus: None,
            mul_cycles: 1,
        }
    }
}

/// The core, generic over its bus (`crate::bus::Bus`, monomorphised: no `dyn`): the core's
/// state (`CpuState`), its private blocks (NVIC, SCB, SysTick, DWT, FPU), the cycle counter,
/// the predecoded flash and the run control. Everything outside the core is behind `bus`.
pub struct Cpu<B> {
    // ---- core ----
    /// Registers, flags, mode (cpu/state.rs).
    pub cpu: CpuState,
    /// ARMv7-M core (Cortex-M3, M4): Thumb-2, IT, BASEPRI/FAULTMASK, Q.
    pub v7: bool,
    /// The Cortex-M4's multiplier: single-cycle MLA/MLS and long multiplies.
    pub m4: bool,
    /// The DSP extension (Cortex-M4): its instructions and APSR.GE.
    pub dsp: bool,
    /// Exception entry/return/tail-chain figures of the board's core.
    pub exc_timing: crate::cpu::timing::ExcTiming,
    /// Lowest SP seen since the thread was last resumed (for the `switch` event).
    pub sp_low: u32,
    pub thread_low: u32,
    pub thread_frame: u32,
    pub thread_was_psp: bool,
    /// Sized RAM data objects of the ELF, `(start, end)` sorted by start: the stack regions
    /// of the thread-mode switch rule (empty: every SP is in the same, unnamed region).
    pub ram_objects: Vec<(u32, u32)>,

    // ---- time ----
    pub cyc: u64,
    /// Earliest cycle at which the loop must leave the fast path.
    pub next_event: u64,
    pub insns: u64,
    pub max_cycles: u64,
    /// The flash system (flash.rs): line reads, prefetch, caches; `on` only with wait states.
    pub flash: crate::flash::FlashSystem,
    /// Extra cycles from the instruction start of the current bus access (words of LDM/STM).
    pub bus_off: u64,
    /// Cycles from the start of a single store to its bus write: 2, or 1 for an ARMv7-M
    /// store pipelined behind a load (set around the access by cpu/thumb2/pipeline.rs).
    pub st_lat: u64,
    /// The cycle a store into the Cortex-M3/M4 write buffer ended at: the buffer holds it
    /// for the next cycle (cpu/thumb2/write_buffer.rs).
    pub wb_end: u64,
    pub mul_cycles: u64,

    // ---- bus: memories, lab peripherals, console, observers ----
    pub bus: B,
    /// The predecoded flash (cpu/predecode.rs).
    pub ops: Box<[Op]>,

    // ---- system ----
    pub exc: ExcState,
    pub scb: Scb,
    /// The Cortex-M4F's FPU (absent on the other cores).
    pub fpu: crate::cpu::fpu::Fpu,
    /// The DWT cycle counter and DEMCR.TRCENA (cores with a DWT only).
    pub dwt: crate::dwt::Dwt,
    pub systick: SysTick,

    // ---- run control ----
    pub cfg: Config,
    pub stop: Option<Stop>,
    pub pending_fault: Option<FaultInfo>,
    /// The fault that caused the current HardFault (for messages).
    pub last_fault: Option<FaultInfo>,
    /// Cycles asleep, in deep sleep and waking from it (energy.rs; run = the rest).
    pub energy: crate::energy::EnergyMeter,
    /// Set when the last exception return asked to sleep (SCR.SLEEPONEXIT).
    pub sleep_on_exit: bool,
    /// The instruction trace (`--itrace`); only `run_traced` and the exception code use it.
    pub itrace: Option<Box<ITrace>>,
    /// Heap start reported by SYS_HEAPINFO (end of the loaded image in RAM).
    pub heap_base: u32,
    /// Read position in the ":semihosting-features" pseudo-file.
    pub sh_feature_pos: u32,
    /// Which engine `run` uses (`--interpreter`, `--blocks`; cpu/block.rs).
    pub engine: Engine,
    /// The block engine's cache (cpu/block.rs); built as the code runs.
    pub blocks: crate::cpu::block::BlockCache<B>,
    /// The native engine's compiled blocks (cpu/native/); built as the code runs.
    pub native: crate::cpu::native::NativeCache<B>,
}

/// The board: the core on the lab bus.
pub type Machine = Cpu<LabBus>;

impl<B: Bus> Cpu<B> {
    /// The core of `cfg.board` on `bus`, out of reset (SP and PC from the bus's flash).
    pub fn with_bus(cfg: Config, bus: B) -> Cpu<B> {
        let ops = crate::cpu::predecode::predecode(&bus, cfg.board.arch());
        let v7 = cfg.board.arch() == Arch::V7M;
        let mut m = Cpu {
            cpu: CpuState::at_reset(),
            v7,
            m4: cfg.board.core.single_cycle_mac(),
            dsp: cfg.board.core.has_dsp(),
            exc_timing: if v7 { crate::cpu::timing::EXC_M3 } else { crate::cpu::timing::EXC_M0 },
            sp_low: 0,
            thread_low: 0,
            thread_frame: 0,
            thread_was_psp: false,
            ram_objects: Vec::new(),
            cyc: 0,
            next_event: 0,
            insns: 0,
            max_cycles: cfg.max_cycles.unwrap_or(NEVER),
            flash: crate::flash::FlashSystem::new(&cfg.board),
            bus_off: 0,
            st_lat: 2,
            wb_end: u64::MAX,
            mul_cycles: if cfg.mul_cycles == 32 { 32 } else { 1 },
            bus,
            ops,
            exc: ExcState::new(),
            scb: Scb::default(),
            fpu: crate::cpu::fpu::Fpu::new(cfg.board.core.has_fpu()),
            dwt: crate::dwt::Dwt::default(),
            systick: SysTick::default(),
            cfg,
            stop: None,
            pending_fault: None,
            last_fault: None,
            energy: crate::energy::EnergyMeter::default(),
            sleep_on_exit: false,
            itrace: None,
            heap_base: RAM_BASE,
            sh_feature_pos: 0,
            engine: Engine::Interpreter,
            blocks: Default::default(),
            native: Default::default(),
        };
        m.reset_core();
        m
    }
}

impl<B: Bus> Cpu<B> {
    /// The same core, state and time on another bus made from this one (the debugger wraps
    /// the lab bus in its own and unwraps it at the end): nothing runs, no cycle passes.
    pub fn map_bus<C: Bus>(self, f: impl FnOnce(B) -> C) -> Cpu<C> {
        Cpu {
            bus: f(self.bus),
            cpu: self.cpu,
            v7: self.v7,
            m4: self.m4,
            dsp: self.dsp,
            exc_timing: self.exc_timing,
            sp_low: self.sp_low,
            thread_low: self.thread_low,
            thread_frame: self.thread_frame,
            thread_was_psp: self.thread_was_psp,
            ram_objects: self.ram_objects,
            cyc: self.cyc,
            next_event: self.next_event,
            insns: self.insns,
            max_cycles: self.max_cycles,
            flash: self.flash,
            bus_off: self.bus_off,
            st_lat: self.st_lat,
            wb_end: self.wb_end,
            mul_cycles: self.mul_cycles,
            ops: self.ops,
            exc: self.exc,
            scb: self.scb,
            fpu: self.fpu,
            dwt: self.dwt,
            systick: self.systick,
            cfg: self.cfg,
            stop: self.stop,
            pending_fault: self.pending_fault,
            last_fault: self.last_fault,
            sleep_on_exit: self.sleep_on_exit,
            itrace: self.itrace,
            heap_base: self.heap_base,
            sh_feature_pos: self.sh_feature_pos,
            energy: self.energy,
            engine: self.engine,
            // handlers are compiled for their bus: the new bus builds its own
            blocks: Default::default(),
            native: Default::default(),
        }
    }
}

impl Machine {
    /// The lab board: the core on a `LabBus` holding `flash_image` and `cfg.ram_size` of RAM.
    pub fn new(cfg: Config, flash_image: &[u8]) -> Machine {
        let mem = Memory::new(flash_image, cfg.ram_size);
        let (clock_hz, stimulus) = (cfg.board.clock_hz, cfg.stimulus);
        let mut m = Cpu::with_bus(cfg, LabBus::new(mem, clock_hz));
        if let Some(spec) = stimulus {
            m.bus.stim.configure(spec, 0);
        }
        m
    }

    pub fn set_console_sink(&mut self, w: Box<dyn Write>) {
        self.bus.console_sink = Some(w);
    }
}

impl<B: Bus> Cpu<B> {
    /// Core reset: SP and PC from the vector table, everything else to its reset value.
    pub fn reset_core(&mut self) {
        self.cpu = CpuState::at_reset();
        self.flash.reset();
        let sp = self.bus.flash_word(0) & !3;
        let pc = self.bus.flash_word(4);
        self.cpu.r[13] = sp;
        self.sp_low = sp;
        self.exc = if self.v7 { ExcState::new_v7() } else { ExcState::new() };
        self.scb = Scb::default();
        self.fpu = crate::cpu::fpu::Fpu::new(self.fpu.present);
        self.systick = SysTick::default();
        self.bus.reset();
        self.sleep_on_exit = false;
        self.cpu.pc = pc & !1;
        self.cpu.tbit = pc & 1 != 0;
        if pc & 1 == 0 {
            // Reset vector without the Thumb bit: the first instruction faults (INVSTATE).
            self.raise_fault(self.cpu.pc, "reset vector without the Thumb bit (INVSTATE)", None);
        }
        self.next_event = 0;
    }

    pub fn console_write(&mut self, b: &[u8]) {
        self.bus.console_write(b);
    }

    pub fn flush_console(&mut self) {
        self.bus.flush_console();
    }

    #[inline]
    pub fn set_apsr(&mut self, v: u32) {
        self.cpu.n = v & (1 << 31) != 0;
        self.cpu.z = v & (1 << 30) != 0;
        self.cpu.c = v & (1 << 29) != 0;
        self.cpu.v = v & (1 << 28) != 0;
        if self.v7 {
            self.cpu.q = v & (1 << 27) != 0;
        }
    }

    /// Snapshot the registers for a fault or stop message.
    pub fn regs_snapshot(&self, pc: u32) -> [u32; 16] {
        let mut r = self.cpu.r;
        r[15] = pc;
        r
    }

    /// Record a fault raised by the instruction at `pc`; it is taken at the next boundary.
    pub fn raise_fault(&mut self, pc: u32, reason: &str, access: Option<Access>) {
        self.cpu.pc = pc;
        if self.pending_fault.is_none() {
            self.pending_fault = Some(FaultInfo {
                pc,
                reason: reason.to_string(),
                access,
                regs: self.regs_snapshot(pc),
                xpsr: self.cpu.xpsr(),
            });
        }
        self.next_event = 0;
    }

    pub fn request_stop(&mut self, s: Stop) {
        if self.stop.is_none() {
            self.stop = Some(s);
        }
        self.next_event = 0;
    }

    /// Force the loop through the slow path at the next instruction boundary.
    #[inline]
    pub fn reschedule(&mut self) {
        self.next_event = 0;
    }
}
