//! The 16-bit set's system instructions: CPS, BKPT (semihosting), hints, WFI/WFE, SVC, and
//! the 32-bit MRS, MSR and barriers the ARMv6-M set has.

use crate::bus::Bus;
use crate::cpu::thumb2::timing as t2;
use crate::cpu::timing as t;
use crate::machine::Cpu;

impl<B: Bus> Cpu<B> {
    #[inline(always)]
    pub(super) fn exec_cpsie(&mut self, pc: u32) {
        if self.bus.masked().is_some() {
            self.masked_write(pc, t::ALU, false);
        }
        self.cpu.primask = false;
        self.cyc += t::ALU;
        self.reschedule();
    }

    #[inline(always)]
    pub(super) fn exec_cpsid(&mut self, pc: u32) {
        if self.bus.masked().is_some() {
            self.masked_write(pc, t::ALU, true);
        }
        self.cpu.primask = true;
        self.cyc += t::ALU;
    }

    #[inline(always)]
    pub(super) fn exec_bkpt(&mut self, imm: u8, pc: u32) {
        if imm == 0xAB {
            self.cyc += t::BKPT;
            self.semihost(pc);
        } else if B::DEBUG {
            // A debugger is attached: the core halts on the BKPT (ARMv7-M ARM C1.5, a debug
            // event), before it executes; GDB moves the PC past it to go on.
            self.cpu.pc = pc;
            self.insns -= 1;
            self.bus.debug_event(crate::debug::bus::DebugEvent::Bkpt);
            self.reschedule();
        } else {
            self.raise_fault(pc, "BKPT with no debugger attached", None);
        }
    }

    #[inline(always)]
    pub(super) fn exec_nop(&mut self) {
        self.cyc += t::ALU;
    }

    #[inline(always)]
    pub(super) fn exec_sev(&mut self) {
        self.cpu.event_reg = true;
        self.cyc += t::ALU;
    }

    #[inline(always)]
    pub(super) fn exec_wfi(&mut self) {
        self.cyc += t::WFX;
        self.sleep(false);
    }

    #[inline(always)]
    pub(super) fn exec_wfe(&mut self) {
        self.cyc += t::WFX;
        self.sleep(true);
    }

    #[inline(always)]
    pub(super) fn exec_svc(&mut self, pc: u32) {
        self.cyc += t::SVC;
        self.svc(pc);
    }

    // (out of line: rare, and inlined into the loop it cost the Cortex-M0 loop 1.5 host instructions per
    // simulated instruction on every other op)
    #[inline(never)]
    pub(super) fn exec_msr<const V7: bool>(&mut self, rn: u8, sysm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        let v = self.g(rn);
        if self.msr(sysm, v) {
            self.cyc += if V7 { t2::MRS_MSR } else { t::MRS_MSR };
        } else {
            self.raise_fault(pc, "MSR to an unsupported special register", None);
        }
    }

    #[inline(never)]
    pub(super) fn exec_mrs<const V7: bool>(&mut self, rd: u8, sysm: u8, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        match self.mrs(sysm) {
            Some(v) => {
                self.s(rd, v);
                self.cyc += if V7 { t2::MRS_MSR } else { t::MRS_MSR };
            }
            None => self.raise_fault(pc, "MRS of an unsupported special register", None),
        }
    }

    #[inline(always)]
    pub(super) fn exec_barrier<const V7: bool>(&mut self, isb: bool, pc: u32) {
        self.cpu.pc = pc.wrapping_add(4);
        self.cyc += match (V7, isb) {
            (false, _) => t::BARRIER,
            (true, false) => t2::DMB_DSB,
            (true, true) => t2::ISB,
        };
    }
}
