//! rtoslab-vp: a cycle-exact virtual board with a Cortex-M0 (ARMv6-M), Cortex-M3 (ARMv7-M) or
//! Cortex-M4F (ARMv7E-M with the FPU). See README.md for the architecture. The command line
//! is the binary's (src/cli.rs), not part of this library.

pub mod board;
#[rustfmt::skip] // generated (spec/generate.py): its layout is the generator's
pub mod board_table;
pub mod bus;
pub mod contract;
pub mod cpu;
pub mod debug;
pub mod dwt;
pub mod elf;
pub mod energy;
pub mod exceptions;
pub mod flash;
pub mod itrace;
pub mod lab_bus;
pub mod machine;
pub mod masked;
pub mod memory;
pub mod numbers;
pub mod nvic;
pub mod peripherals;
pub mod scb;
pub mod semihosting;
pub mod symbols;
pub mod systick;
pub mod trace;
pub mod vcd;

pub use board::Board;
pub use bus::Bus;
pub use lab_bus::LabBus;
pub use machine::{Config, Cpu, Machine, Stop};

impl Machine {
    /// Build a machine from a loaded ELF image.
    pub fn from_image(cfg: Config, img: &elf::Image) -> Machine {
        let mut m = Machine::new(cfg, &img.flash);
        for (off, bytes) in &img.ram {
            let o = *off as usize;
            if let Some(dst) = m.bus.mem.ram.get_mut(o..o + bytes.len()) {
                dst.copy_from_slice(bytes);
            }
        }
        m.heap_base = img.heap_base;
        m.ram_objects = img.ram_objects.clone();
        m.ram_objects.sort_unstable();
        m
    }
}
