//! The FP side of exceptions (ARMv7-M ARM B1.5.7 "Stack alignment on exception entry",
//! B1.5.6, B1.5.8, and "Lazy context save of FP state"): an exception taken while
//! CONTROL.FPCA is set pushes an extended frame, the integer frame plus S0-S15, FPSCR and a
//! reserved word (18 words, 0x68 bytes in all), and returns with EXC_RETURN bit 4 clear.
//! With FPCCR.LSPEN the space is only reserved (FPCAR points at it, LSPACT set): the first
//! FP instruction that runs while LSPACT is set writes the state there (`preserve_fp_state`),
//! an exception return with LSPACT still set skips both the save and the restore.

use super::{HFRDY, LSPACT, LSPEN, THREAD, USER};
use crate::bus::Bus;
use crate::contract::RAM_BASE;
use crate::cpu::thumb2::timing::fpu::FP_FRAME_WORDS;
use crate::machine::Cpu;

/// Size of an extended frame, and the offset of its FP part.
pub const EXT_FRAME_BYTES: u32 = 0x68;
pub const FP_AREA_OFF: u32 = 0x20;

impl<B: Bus> Cpu<B> {
    /// Exception entry: does this frame carry FP state (FPU present, CONTROL.FPCA)?
    #[inline]
    pub(crate) fn fp_extended_frame(&self) -> bool {
        self.fpu.present && self.fpu.fpca
    }

    /// The FP part of the extended frame at `frame`, after the integer part was stacked
    /// successfully: reserved (lazy) or written. Clears CONTROL.FPCA for the handler.
    /// Returns the extra entry cycles, or None when the area is outside RAM.
    pub(crate) fn fp_stack(&mut self, frame: u32, from_thread: bool) -> Option<u64> {
        let area = frame.wrapping_add(FP_AREA_OFF);
        self.fpu.fpca = false;
        if self.fpu.fpccr & LSPEN != 0 {
            let f = &mut self.fpu;
            f.fpcar = area;
            let user = if from_thread && self.cpu.npriv { USER } else { 0 };
            let thread = if from_thread { THREAD } else { 0 };
            f.fpccr = (f.fpccr & !(USER | THREAD | HFRDY | LSPACT)) | user | thread | HFRDY | LSPACT;
            return Some(0);
        }
        self.fp_state_write(area).then_some(FP_FRAME_WORDS)
    }

    /// Exception return through an extended frame at `frame`: restore S0-S15 and FPSCR
    /// unless the lazy save never happened (LSPACT still set: the registers still hold the
    /// state). Returns the extra cycles, None if the frame is outside RAM.
    pub(crate) fn fp_unstack(&mut self, frame: u32) -> Option<u64> {
        self.fpu.fpca = true;
        if self.fpu.fpccr & LSPACT != 0 {
            self.fpu.fpccr &= !LSPACT;
            return Some(0);
        }
        let w = self.ram_words::<17>(frame.wrapping_add(FP_AREA_OFF))?;
        self.fpu.s[..16].copy_from_slice(&w[..16]);
        self.fpu.fpscr = w[16] & super::FPSCR_MASK;
        Some(FP_FRAME_WORDS)
    }

    /// The lazy save, at the first FP instruction (at `pc`) while LSPACT is set: S0-S15 and
    /// FPSCR to FPCAR. False (with the fault raised) if the area is not writable RAM.
    pub(crate) fn preserve_fp_state(&mut self, pc: u32) -> bool {
        let area = self.fpu.fpcar;
        if !self.fp_state_write(area) {
            let why = format!("lazy floating-point state save to 0x{:08x} outside RAM", area);
            self.raise_fault(pc, &why, None);
            return false;
        }
        self.fpu.fpccr &= !LSPACT;
        self.cyc += FP_FRAME_WORDS;
        true
    }

    /// S0-S15 and FPSCR to the 17 words at `addr` (RAM only, like every stack frame).
    fn fp_state_write(&mut self, addr: u32) -> bool {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        let (s, fpscr) = (self.fpu.s, self.fpu.fpscr);
        match self.bus.ram_mut().get_mut(o..o + 68) {
            Some(dst) => {
                for (i, w) in s[..16].iter().chain(std::iter::once(&fpscr)).enumerate() {
                    dst[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
                }
                true
            }
            None => false,
        }
    }

    fn ram_words<const N: usize>(&self, addr: u32) -> Option<[u32; N]> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        let src = self.bus.ram().get(o..o + 4 * N)?;
        let mut w = [0u32; N];
        for (i, x) in w.iter_mut().enumerate() {
            *x = u32::from_le_bytes([src[i * 4], src[i * 4 + 1], src[i * 4 + 2], src[i * 4 + 3]]);
        }
        Some(w)
    }
}
