//! The Cortex-M as GDB sees it: the register file of the `g`/`G` packets and its target
//! description (GDB's features org.gnu.gdb.arm.m-profile, .m-system and, on the Cortex-M4F,
//! .vfp, from which GDB makes s0..s31 itself). The layout is the description's order: r0..r12,
//! sp, lr, pc, xpsr; msp, psp, primask, [basepri, faultmask,] control; [d0..d15, fpscr].

use crate::board::Core;
use gdbstub::arch::{Arch, Registers};

/// The Cortex-M0, M3 and M4F for gdbstub (the description itself comes at run time, per core:
/// `target_xml`).
pub enum CortexM {}

impl Arch for CortexM {
    type Usize = u32;
    type Registers = CortexMRegs;
    type BreakpointKind = gdbstub_arch::arm::ArmBreakpointKind;
    type RegId = ();
}

/// One snapshot of the registers GDB reads and writes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CortexMRegs {
    /// r0..r12, sp (the active stack pointer), lr, pc.
    pub r: [u32; 16],
    pub xpsr: u32,
    pub msp: u32,
    pub psp: u32,
    pub primask: u32,
    /// BASEPRI and FAULTMASK: ARMv7-M only (`v7`).
    pub basepri: u32,
    pub faultmask: u32,
    pub control: u32,
    pub v7: bool,
    /// s0..s31 and FPSCR on a core with the FPU.
    pub fp: Option<([u32; 32], u32)>,
}

impl CortexMRegs {
    fn words(&self) -> Vec<u32> {
        let mut w = self.r.to_vec();
        w.extend([self.xpsr, self.msp, self.psp, self.primask]);
        if self.v7 {
            w.extend([self.basepri, self.faultmask]);
        }
        w.push(self.control);
        if let Some((s, fpscr)) = &self.fp {
            w.extend_from_slice(s); // d0 = s1:s0 ... little-endian words in order
            w.push(*fpscr);
        }
        w
    }
}

impl Registers for CortexMRegs {
    type ProgramCounter = u32;

    fn pc(&self) -> u32 {
        self.r[15]
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        for w in self.words() {
            w.to_le_bytes().iter().for_each(|b| write_byte(Some(*b)));
        }
    }

    /// The `G` packet: its length says which core's layout it is (M0: 21 words, M3: 23,
    /// M4F: 23 + 33).
    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if !bytes.len().is_multiple_of(4) {
            return Err(());
        }
        let w: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let (v7, fp) = match w.len() {
            21 => (false, false),
            23 => (true, false),
            56 => (true, true),
            _ => return Err(()),
        };
        self.r.copy_from_slice(&w[..16]);
        (self.xpsr, self.msp, self.psp, self.primask) = (w[16], w[17], w[18], w[19]);
        let mut i = 20;
        self.v7 = v7;
        if v7 {
            (self.basepri, self.faultmask) = (w[20], w[21]);
            i = 22;
        }
        self.control = w[i];
        self.fp = if fp {
            let mut s = [0u32; 32];
            s.copy_from_slice(&w[i + 1..i + 33]);
            Some((s, w[i + 33]))
        } else {
            None
        };
        Ok(())
    }
}

/// The target description of `core` (GDB asks for `target.xml`).
pub fn target_xml(core: Core) -> String {
    let (arch, v7, fp) = match core {
        Core::CortexM0 => ("armv6-m", false, false),
        Core::CortexM3 => ("armv7", true, false),
        Core::CortexM4F => ("armv7e-m", true, true),
    };
    let reg =
        |name: &str, bits: u32, ty: &str| format!("<reg name=\"{}\" bitsize=\"{}\" type=\"{}\"/>", name, bits, ty);
    let mut x = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target version=\"1.0\">\
         <architecture>{}</architecture><feature name=\"org.gnu.gdb.arm.m-profile\">",
        arch
    );
    for i in 0..13 {
        x += &reg(&format!("r{}", i), 32, "uint32");
    }
    x += &reg("sp", 32, "data_ptr");
    x += &reg("lr", 32, "uint32");
    x += &reg("pc", 32, "code_ptr");
    x += &reg("xpsr", 32, "uint32");
    x += "</feature><feature name=\"org.gnu.gdb.arm.m-system\">";
    x += &reg("msp", 32, "data_ptr");
    x += &reg("psp", 32, "data_ptr");
    x += &reg("primask", 32, "uint32");
    if v7 {
        x += &reg("basepri", 32, "uint32");
        x += &reg("faultmask", 32, "uint32");
    }
    x += &reg("control", 32, "uint32");
    x += "</feature>";
    if fp {
        x += "<feature name=\"org.gnu.gdb.arm.vfp\">";
        for i in 0..16 {
            x += &reg(&format!("d{}", i), 64, "ieee_double");
        }
        x += "<reg name=\"fpscr\" bitsize=\"32\" type=\"int\" group=\"float\"/></feature>";
    }
    x + "</target>"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_packet_round_trips_for_each_core() {
        for (v7, fp) in [(false, None), (true, None), (true, Some(([7u32; 32], 0x0300_0000)))] {
            let mut regs = CortexMRegs { v7, fp, ..Default::default() };
            regs.r[15] = 0x100;
            regs.xpsr = 0x0100_0000;
            regs.control = 2;
            let mut bytes = Vec::new();
            regs.gdb_serialize(|b| bytes.push(b.unwrap()));
            let mut back = CortexMRegs::default();
            back.gdb_deserialize(&bytes).unwrap();
            assert_eq!(back, regs);
        }
        assert!(CortexMRegs::default().gdb_deserialize(&[0; 22 * 4]).is_err());
    }

    #[test]
    fn description_has_each_cores_registers() {
        let m0 = target_xml(Core::CortexM0);
        assert!(m0.contains("armv6-m") && !m0.contains("basepri") && !m0.contains("fpscr"));
        let m4 = target_xml(Core::CortexM4F);
        assert!(m4.contains("name=\"d15\"") && m4.contains("fpscr") && m4.contains("faultmask"));
    }
}
