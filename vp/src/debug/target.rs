//! The simulated board as a gdbstub `Target`: registers, memory, breakpoints, watchpoints,
//! resume and step, the target description and the `monitor` commands. Reading or writing
//! anything here adds no cycle; only running the core (serve.rs) moves time.

use crate::board::Core;
use crate::bus::Bus;
use crate::contract::{FLASH_SIZE, RAM_BASE};
use crate::debug::arch::{target_xml, CortexM, CortexMRegs};
use crate::debug::bus::{DebugBus, Watch, Watchpoint};
use crate::machine::{Cpu, Stop};
use gdbstub::common::Signal;
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep, SingleThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint, HwWatchpointOps, SwBreakpoint,
    SwBreakpointOps, WatchKind,
};
use gdbstub::target::ext::monitor_cmd::{outputln, ConsoleOutput, MonitorCmd, MonitorCmdOps};
use gdbstub::target::ext::target_description_xml_override::{
    TargetDescriptionXmlOverride, TargetDescriptionXmlOverrideOps,
};
use gdbstub::target::{Target, TargetError, TargetResult};
use gdbstub_arch::arm::ArmBreakpointKind;

/// The board under the debugger: the core on the debugging bus, and what the run came to.
pub struct Board {
    pub m: Cpu<DebugBus>,
    /// The next `resume` is a single step.
    pub stepping: bool,
    /// The run's end (exit, fault stop, lock-up, cycle limit) once reached: GDB has been told
    /// with a signal; resuming then reports the exit status.
    pub ended: Option<Stop>,
    /// The fault line of the last HardFault entry or fault stop, for `monitor fault`.
    pub fault_line: Option<String>,
    /// The symbol table, for `monitor fault`'s locations.
    pub symbols: crate::symbols::Symbols,
}

impl Board {
    fn core(&self) -> Core {
        self.m.cfg.board.core
    }

    /// Memory as the debugger sees it: RAM and flash directly; nothing else (the System
    /// Control Space and the lab devices: their reads have side effects, e.g. SysTick's
    /// COUNTFLAG clears on read, so they are not read on the debugger's behalf).
    fn byte(&self, addr: u32) -> Option<u8> {
        if let Some(b) = self.m.bus.ram().get(addr.wrapping_sub(RAM_BASE) as usize) {
            return Some(*b);
        }
        if addr < FLASH_SIZE {
            return self.m.bus.flash().get(addr as usize).copied();
        }
        None
    }
}

impl Target for Board {
    type Arch = CortexM;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, CortexM, String> {
        BaseOps::SingleThread(self)
    }
    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }
    fn support_monitor_cmd(&mut self) -> Option<MonitorCmdOps<'_, Self>> {
        Some(self)
    }
    fn support_target_description_xml_override(&mut self) -> Option<TargetDescriptionXmlOverrideOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadBase for Board {
    fn read_registers(&mut self, regs: &mut CortexMRegs) -> TargetResult<(), Self> {
        let m = &self.m;
        regs.r = m.cpu.r;
        regs.r[15] = m.cpu.pc;
        regs.xpsr = m.cpu.xpsr();
        regs.msp = m.cpu.msp();
        regs.psp = m.cpu.psp();
        regs.primask = m.cpu.primask as u32;
        regs.v7 = m.v7;
        regs.basepri = if m.exc.basepri >= 256 { 0 } else { m.exc.basepri as u32 };
        regs.faultmask = m.exc.faultmask as u32;
        regs.control = ((m.fpu.fpca as u32) << 2) | ((m.cpu.spsel as u32) << 1) | (m.cpu.npriv as u32);
        regs.fp = if m.fpu.present { Some((m.fpu.s, m.fpu.fpscr)) } else { None };
        Ok(())
    }

    /// Registers as GDB writes them: the flags of xPSR (not its exception number or
    /// execution state), both stack pointers, the masks and CONTROL as MSR would set them.
    fn write_registers(&mut self, regs: &CortexMRegs) -> TargetResult<(), Self> {
        let m = &mut self.m;
        let old = (m.cpu.msp(), m.cpu.psp(), m.cpu.r[13]);
        m.cpu.r[..13].copy_from_slice(&regs.r[..13]);
        m.cpu.r[14] = regs.r[14];
        // sp is the active one of msp/psp: a change of any of the three wins
        if regs.msp != old.0 {
            m.cpu.set_msp(regs.msp);
        }
        if regs.psp != old.1 {
            m.cpu.set_psp(regs.psp);
        }
        if regs.r[13] != old.2 {
            m.cpu.r[13] = regs.r[13] & !3;
        }
        m.cpu.pc = regs.r[15] & !1;
        m.set_apsr(regs.xpsr);
        if m.dsp {
            m.cpu.ge = ((regs.xpsr >> 16) & 0xF) as u8;
        }
        m.cpu.primask = regs.primask & 1 != 0;
        if m.v7 && regs.v7 {
            let b = (regs.basepri & m.exc.prio_bits as u32) as i16;
            m.exc.basepri = if b == 0 { 256 } else { b };
            m.exc.faultmask = regs.faultmask & 1 != 0;
        }
        m.cpu.npriv = regs.control & 1 != 0;
        m.fpu.fpca = m.fpu.present && regs.control & 4 != 0;
        if m.cpu.ipsr == 0 {
            m.cpu.set_mode(0, regs.control & 2 != 0);
        }
        if let (true, Some((s, fpscr))) = (m.fpu.present, regs.fp) {
            m.fpu.s = s;
            m.fpu.fpscr = fpscr & crate::cpu::fpu::FPSCR_MASK;
        }
        // a mask may have changed: the core recomputes what is pending before it goes on
        m.reschedule();
        Ok(())
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8]) -> TargetResult<usize, Self> {
        for (i, d) in data.iter_mut().enumerate() {
            match self.byte(start.wrapping_add(i as u32)) {
                Some(b) => *d = b,
                None if i == 0 => return Err(TargetError::NonFatal),
                None => return Ok(i),
            }
        }
        Ok(data.len())
    }

    /// RAM only: the flash is read-only here as to the firmware (its instructions are
    /// predecoded; breakpoints need no write).
    fn write_addrs(&mut self, start: u32, data: &[u8]) -> TargetResult<(), Self> {
        let o = start.wrapping_sub(RAM_BASE) as usize;
        match o.checked_add(data.len()).and_then(|e| self.m.bus.ram_mut().get_mut(o..e)) {
            Some(dst) => {
                dst.copy_from_slice(data);
                Ok(())
            }
            None => Err(TargetError::NonFatal),
        }
    }

    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadResume for Board {
    /// A signal GDB passes on (e.g. the SIGSEGV of a fault stop) has no meaning to the core:
    /// it is dropped and the core resumes where it stands.
    fn resume(&mut self, _signal: Option<Signal>) -> Result<(), String> {
        self.stepping = false;
        Ok(())
    }
    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadSingleStep for Board {
    /// A signal GDB passes on (e.g. the SIGSEGV of a fault stop) has no meaning to the core:
    /// it is dropped and the core resumes where it stands.
    fn step(&mut self, _signal: Option<Signal>) -> Result<(), String> {
        self.stepping = true;
        Ok(())
    }
}

impl Breakpoints for Board {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }
    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl Board {
    fn add_break(&mut self, addr: u32) -> bool {
        let addr = addr & !1;
        if !self.m.bus.breakpoints.contains(&addr) {
            self.m.bus.breakpoints.push(addr);
        }
        true
    }
    fn remove_break(&mut self, addr: u32) -> bool {
        let n = self.m.bus.breakpoints.len();
        self.m.bus.breakpoints.retain(|a| *a != addr & !1);
        self.m.bus.breakpoints.len() != n
    }
}

// Software and hardware breakpoints are the same address set (debug/bus.rs): neither
// writes a BKPT into the program.
impl SwBreakpoint for Board {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: ArmBreakpointKind) -> TargetResult<bool, Self> {
        Ok(self.add_break(addr))
    }
    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: ArmBreakpointKind) -> TargetResult<bool, Self> {
        Ok(self.remove_break(addr))
    }
}

impl HwBreakpoint for Board {
    fn add_hw_breakpoint(&mut self, addr: u32, _kind: ArmBreakpointKind) -> TargetResult<bool, Self> {
        Ok(self.add_break(addr))
    }
    fn remove_hw_breakpoint(&mut self, addr: u32, _kind: ArmBreakpointKind) -> TargetResult<bool, Self> {
        Ok(self.remove_break(addr))
    }
}

fn watch_kind(k: WatchKind) -> Watch {
    match k {
        WatchKind::Write => Watch::Write,
        WatchKind::Read => Watch::Read,
        WatchKind::ReadWrite => Watch::Access,
    }
}

impl HwWatchpoint for Board {
    fn add_hw_watchpoint(&mut self, addr: u32, len: u32, kind: WatchKind) -> TargetResult<bool, Self> {
        if len == 0 {
            return Ok(false);
        }
        self.m.bus.watchpoints.push(Watchpoint { addr, len, kind: watch_kind(kind) });
        Ok(true)
    }
    fn remove_hw_watchpoint(&mut self, addr: u32, len: u32, kind: WatchKind) -> TargetResult<bool, Self> {
        let w = Watchpoint { addr, len, kind: watch_kind(kind) };
        match self.m.bus.watchpoints.iter().position(|x| *x == w) {
            Some(i) => {
                self.m.bus.watchpoints.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl TargetDescriptionXmlOverride for Board {
    fn target_description_xml(
        &self,
        annex: &[u8],
        offset: u64,
        length: usize,
        buf: &mut [u8],
    ) -> TargetResult<usize, Self> {
        if annex != b"target.xml" {
            return Err(TargetError::NonFatal);
        }
        let xml = target_xml(self.core());
        let bytes = xml.as_bytes();
        let start = (offset as usize).min(bytes.len());
        let n = length.min(buf.len()).min(bytes.len() - start);
        buf[..n].copy_from_slice(&bytes[start..start + n]);
        Ok(n)
    }
}

/// `monitor help`'s text.
const MONITOR_HELP: &str = "monitor commands: cycles (the cycle count and instructions so far), \
fault (the last fault: reason, address, registers), help";

impl MonitorCmd for Board {
    fn handle_monitor_cmd(&mut self, cmd: &[u8], mut out: ConsoleOutput<'_>) -> Result<(), String> {
        match std::str::from_utf8(cmd).unwrap_or("").trim() {
            "cycles" => outputln!(out, "cycles={} instructions={}", self.m.cyc, self.m.insns),
            "fault" => match &self.fault_line {
                Some(l) => outputln!(out, "{}", l),
                None => outputln!(out, "no fault so far"),
            },
            "help" | "" => outputln!(out, "{}", MONITOR_HELP),
            other => outputln!(out, "unknown monitor command '{}'; {}", other, MONITOR_HELP),
        }
        Ok(())
    }
}
