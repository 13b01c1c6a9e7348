//! The core's own state: the registers and flags software sees, the mode, the exclusive
//! monitor and the ARMv7-M pipelining record. The rest of the board (memories, NVIC,
//! peripherals, observers) is `Machine`'s; `Machine::cpu` holds this.

use crate::machine::NEVER;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuState {
    /// r0..r14; r[13] is the active stack pointer, r[15] is unused (see `pc`).
    pub r: [u32; 16],
    /// Address of the next instruction to execute.
    pub pc: u32,
    pub n: bool,
    pub z: bool,
    pub c: bool,
    pub v: bool,
    /// Exception number being handled (0 = thread mode).
    pub ipsr: u32,
    pub primask: bool,
    pub spsel: bool,
    pub npriv: bool,
    /// The banked stack pointer that is not in r[13].
    pub other_sp: u32,
    pub event_reg: bool,
    /// EPSR.T. Only ever false between an interworking branch to an even address (or an
    /// even vector / stacked xPSR with T = 0) and the INVSTATE HardFault it causes, so that
    /// the HardFault frame holds T = 0 as on silicon.
    pub tbit: bool,
    /// The record of the last pipelining single load or data-processing instruction: the
    /// cycle it ended at << 16 | the mask of the registers it wrote, bit 15 set for data
    /// processing (cpu/thumb2/pipeline.rs); unused on ARMv6-M.
    pub ld_rec: u64,
    /// ITSTATE (firstcond << 4 | mask); always 0 on ARMv6-M.
    pub it: u8,
    /// APSR.Q (ARMv7-M saturation flag).
    pub q: bool,
    /// APSR.GE[3:0] (the DSP extension's SIMD flags, xPSR bits 19:16); always 0 without it.
    pub ge: u8,
    /// The local exclusive monitor: the address of the last LDREX, if still open.
    pub excl: Option<u32>,
}

impl CpuState {
    /// The state at reset, before SP and PC are read from the vector table.
    pub fn at_reset() -> CpuState {
        CpuState {
            r: [0; 16],
            pc: 0,
            n: false,
            z: false,
            c: false,
            v: false,
            ipsr: 0,
            primask: false,
            spsel: false,
            npriv: false,
            other_sp: 0,
            event_reg: false,
            tbit: true,
            ld_rec: NEVER << 16,
            it: 0,
            q: false,
            ge: 0,
            excl: None,
        }
    }

    /// The xPSR as MRS / exception stacking see it.
    #[inline]
    pub fn xpsr(&self) -> u32 {
        ((self.n as u32) << 31)
            | ((self.z as u32) << 30)
            | ((self.c as u32) << 29)
            | ((self.v as u32) << 28)
            | ((self.q as u32) << 27)
            | ((self.ge as u32) << 16)
            | ((self.tbit as u32) << 24)
            | (((self.it as u32) & 3) << 25)
            | (((self.it as u32) >> 2) << 10)
            | (self.ipsr & 0x3F)
    }

    /// True if the PSP is the active stack pointer.
    #[inline]
    pub fn psp_active(&self) -> bool {
        self.ipsr == 0 && self.spsel
    }
    pub fn msp(&self) -> u32 {
        if self.psp_active() {
            self.other_sp
        } else {
            self.r[13]
        }
    }
    pub fn psp(&self) -> u32 {
        if self.psp_active() {
            self.r[13]
        } else {
            self.other_sp
        }
    }
    pub fn set_msp(&mut self, v: u32) {
        if self.psp_active() {
            self.other_sp = v & !3
        } else {
            self.r[13] = v & !3
        }
    }
    pub fn set_psp(&mut self, v: u32) {
        if self.psp_active() {
            self.r[13] = v & !3
        } else {
            self.other_sp = v & !3
        }
    }
    /// Change mode/SPSEL and swap the banked SP if the active one changes.
    pub fn set_mode(&mut self, ipsr: u32, spsel: bool) {
        let was = self.psp_active();
        self.ipsr = ipsr;
        self.spsel = spsel;
        if was != self.psp_active() {
            std::mem::swap(&mut self.r[13], &mut self.other_sp);
        }
    }
}
