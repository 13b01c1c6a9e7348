//! The Cortex-M4F's single-precision FPU (FPv4-SP): its registers and system
//! registers (here), the encodings (decode.rs), the arithmetic (softfloat.rs), execution
//! (execute.rs), and the exception side: extended frames and lazy state preservation
//! (lazy.rs). On a core without one every coprocessor instruction takes the NOCP fault.

pub mod decode;
pub mod execute;
pub mod lazy;
pub mod softfloat;

/// System registers (offsets from 0xE000E000).
pub const CPACR_OFF: u32 = 0xD88;
pub const FPCCR_OFF: u32 = 0xF34;
pub const FPCAR_OFF: u32 = 0xF38;
pub const FPDSCR_OFF: u32 = 0xF3C;
pub const MVFR0_OFF: u32 = 0xF40;
pub const MVFR1_OFF: u32 = 0xF44;

/// FPCCR bits.
pub const ASPEN: u32 = 1 << 31;
pub const LSPEN: u32 = 1 << 30;
pub const MONRDY: u32 = 1 << 8;
pub const BFRDY: u32 = 1 << 6;
pub const MMRDY: u32 = 1 << 5;
pub const HFRDY: u32 = 1 << 4;
pub const THREAD: u32 = 1 << 3;
pub const USER: u32 = 1 << 1;
pub const LSPACT: u32 = 1;

/// Media and VFP feature registers of the Cortex-M4F (DDI0439B 7.3: MVFR0 0x10110021,
/// MVFR1 0x11000011).
const MVFR0: u32 = 0x1011_0021;
const MVFR1: u32 = 0x1100_0011;

/// FPSCR bits that exist on FPv4-SP: N Z C V, AHP DN FZ RMode, IDC and the five flags.
pub const FPSCR_MASK: u32 = 0xF7C0_009F;

/// The FPU's architectural state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fpu {
    /// The core has one (`Core::has_fpu`).
    pub present: bool,
    pub s: [u32; 32],
    pub fpscr: u32,
    pub cpacr: u32,
    pub fpccr: u32,
    pub fpcar: u32,
    pub fpdscr: u32,
    /// CONTROL.FPCA: the current context holds FP state.
    pub fpca: bool,
}

impl Fpu {
    pub fn new(present: bool) -> Fpu {
        Fpu { present, s: [0; 32], fpscr: 0, cpacr: 0, fpccr: ASPEN | LSPEN, fpcar: 0, fpdscr: 0, fpca: false }
    }

    /// Read an FP system register (SCS offset); None if it is not one (or no FPU).
    pub fn read(&self, off: u32) -> Option<u32> {
        if !self.present {
            return None;
        }
        Some(match off {
            CPACR_OFF => self.cpacr,
            FPCCR_OFF => self.fpccr,
            FPCAR_OFF => self.fpcar,
            FPDSCR_OFF => self.fpdscr,
            MVFR0_OFF => MVFR0,
            MVFR1_OFF => MVFR1,
            _ => return None,
        })
    }

    /// Write an FP system register; false if it is not one.
    pub fn write(&mut self, off: u32, v: u32) -> bool {
        if !self.present {
            return false;
        }
        match off {
            // only CP10 and CP11 are implemented
            CPACR_OFF => self.cpacr = v & (0xF << 20),
            FPCCR_OFF => self.fpccr = v & (ASPEN | LSPEN | MONRDY | BFRDY | MMRDY | HFRDY | THREAD | USER | LSPACT),
            FPCAR_OFF => self.fpcar = v & !7,
            FPDSCR_OFF => self.fpdscr = v & 0x07C0_0000,
            MVFR0_OFF | MVFR1_OFF => {}
            _ => return false,
        }
        true
    }

    /// CP10 access for the current privilege: CPACR.CP10 = 01 (privileged) or 11 (full).
    pub fn enabled(&self, unprivileged: bool) -> bool {
        match (self.cpacr >> 20) & 3 {
            1 => !unprivileged,
            3 => true,
            _ => false,
        }
    }
}
