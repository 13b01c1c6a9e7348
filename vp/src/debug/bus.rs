//! `DebugBus`: the lab bus with what the debugger set (breakpoints, watchpoints, the step or
//! poll deadline) and what it saw (`Halt`). The core runs on it only under `--gdb`: its
//! `Bus::DEBUG` turns on the core's hooks (the instruction-boundary check, the data-access
//! check, the fault and BKPT events), which the lab bus compiles away.
//!
//! Breakpoints are an address set checked at each instruction boundary, not BKPTs written
//! into the flash: the program and its timing stay as they are (a flash line holding a BKPT
//! would fetch differently), and halting adds no cycle.

use crate::bus::Bus;
use crate::lab_bus::LabBus;
use crate::machine::Stop;
use crate::masked::Masked;
use crate::trace::Observer;

/// What the core reports to the debugger through `Bus::debug_event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugEvent {
    /// A fault escalated to HardFault (the core halts at the handler's first instruction).
    Fault,
    /// A BKPT other than semihosting's `BKPT 0xAB` (the core halts on it).
    Bkpt,
}

/// Which accesses a watchpoint catches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watch {
    Write,
    Read,
    Access,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watchpoint {
    pub addr: u32,
    pub len: u32,
    pub kind: Watch,
}

impl Watchpoint {
    fn catches(&self, addr: u32, size: u8, write: bool) -> bool {
        let kind_ok = match self.kind {
            Watch::Write => write,
            Watch::Read => !write,
            Watch::Access => true,
        };
        let (a, e) = (addr as u64, addr as u64 + size as u64);
        kind_ok && a < self.addr as u64 + self.len as u64 && self.addr as u64 <= e.saturating_sub(1)
    }
}

/// Why the core halted (the debugger's stop reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// At a breakpoint's address, before its instruction.
    Breakpoint,
    /// A watchpoint caught an access of the instruction before: `(kind, the watchpoint's address)`.
    Watch(Watch, u32),
    /// HardFault was entered (the fault is `Cpu::last_fault`).
    Fault,
    /// On a BKPT instruction.
    Bkpt,
    /// The step or poll deadline (`stop_at`) was reached.
    Deadline,
}

pub struct DebugBus {
    pub lab: LabBus,
    /// Breakpoint addresses (software and hardware breakpoints alike).
    pub breakpoints: Vec<u32>,
    pub watchpoints: Vec<Watchpoint>,
    /// Halt at the first boundary where the instruction count reaches this: the next
    /// instruction after a single step, or the next poll of the connection.
    pub stop_at: u64,
    /// The address the core resumes at: its breakpoint is not hit again at once.
    pub skip: Option<u32>,
    /// What halted the core, until the debugger takes it.
    pub halt: Option<Halt>,
}

impl DebugBus {
    pub fn new(lab: LabBus) -> DebugBus {
        DebugBus { lab, breakpoints: Vec::new(), watchpoints: Vec::new(), stop_at: u64::MAX, skip: None, halt: None }
    }
}

impl Bus for DebugBus {
    const DEBUG: bool = true;

    #[inline]
    fn debug_boundary(&mut self, pc: u32, insns: u64) -> bool {
        if self.halt.is_some() {
            return true;
        }
        let skip = self.skip.take();
        if skip != Some(pc) && self.breakpoints.contains(&pc) {
            self.halt = Some(Halt::Breakpoint);
            return true;
        }
        if insns >= self.stop_at {
            self.halt = Some(Halt::Deadline);
            return true;
        }
        false
    }

    #[inline]
    fn debug_access(&mut self, addr: u32, size: u8, write: bool) {
        if self.halt.is_none() {
            if let Some(w) = self.watchpoints.iter().find(|w| w.catches(addr, size, write)) {
                self.halt = Some(Halt::Watch(w.kind, w.addr));
            }
        }
    }

    fn debug_event(&mut self, e: DebugEvent) {
        self.halt = Some(match e {
            DebugEvent::Fault => Halt::Fault,
            DebugEvent::Bkpt => Halt::Bkpt,
        });
    }

    fn ram(&self) -> &[u8] {
        self.lab.ram()
    }
    fn ram_mut(&mut self) -> &mut [u8] {
        self.lab.ram_mut()
    }
    fn flash(&self) -> &[u8] {
        self.lab.flash()
    }
    fn device(&self, addr: u32) -> bool {
        self.lab.device(addr)
    }
    fn read(&mut self, addr: u32, now: u64) -> Option<u32> {
        self.lab.read(addr, now)
    }
    fn write(&mut self, addr: u32, v: u32, done: u64) -> bool {
        self.lab.write(addr, v, done)
    }
    fn advance(&mut self, now: u64) {
        self.lab.advance(now)
    }
    fn next_event(&self) -> u64 {
        self.lab.next_event()
    }
    fn reset(&mut self) {
        self.lab.reset()
    }
    fn has_signals(&self) -> bool {
        self.lab.has_signals()
    }
    fn take_signals(&mut self, arrival: impl FnMut(u64, u32)) -> (Option<Stop>, bool) {
        self.lab.take_signals(arrival)
    }
    fn observer(&mut self) -> Option<&mut Observer> {
        self.lab.observer()
    }
    fn masked(&mut self) -> Option<&mut Masked> {
        self.lab.masked()
    }
    fn console_write(&mut self, b: &[u8]) {
        Bus::console_write(&mut self.lab, b)
    }
    fn flush_console(&mut self) {
        Bus::flush_console(&mut self.lab)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchpoint_overlap_and_kind() {
        let w = Watchpoint { addr: 0x2000_0010, len: 4, kind: Watch::Write };
        assert!(w.catches(0x2000_0010, 4, true));
        assert!(w.catches(0x2000_0013, 1, true));
        assert!(w.catches(0x2000_000e, 4, true));
        assert!(!w.catches(0x2000_0014, 4, true));
        assert!(!w.catches(0x2000_000c, 4, true));
        assert!(!w.catches(0x2000_0010, 4, false));
        let r = Watchpoint { kind: Watch::Read, ..w };
        assert!(r.catches(0x2000_0010, 2, false) && !r.catches(0x2000_0010, 2, true));
        let a = Watchpoint { kind: Watch::Access, ..w };
        assert!(a.catches(0x2000_0012, 2, false) && a.catches(0x2000_0012, 2, true));
        let top = Watchpoint { addr: 0xFFFF_FFFC, len: 4, kind: Watch::Access };
        assert!(top.catches(0xFFFF_FFFF, 1, false));
    }
}
