//! Board profiles: what differs between `vp-m0` and `vp-stm32f0`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// Zero wait states at a nominal 48 MHz (the calibrated default).
    VpM0,
    /// Same core with one flash wait state and the prefetch buffer on (STM32F0 at 48 MHz).
    VpStm32f0,
    /// Cortex-M3 (ARMv7-M), zero wait states, the same memory map and lab block.
    VpM3,
    /// Cortex-M4F (ARMv7E-M with the single-precision FPU), zero wait states, 64 KiB of RAM.
    VpM4,
}

/// The architecture profile a board's core implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    V6M,
    V7M,
}

impl Board {
    pub fn from_name(s: &str) -> Option<Board> {
        match s {
            "vp-m0" => Some(Board::VpM0),
            "vp-stm32f0" => Some(Board::VpStm32f0),
            "vp-m3" => Some(Board::VpM3),
            "vp-m4" => Some(Board::VpM4),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Board::VpM0 => "vp-m0",
            Board::VpStm32f0 => "vp-stm32f0",
            Board::VpM3 => "vp-m3",
            Board::VpM4 => "vp-m4",
        }
    }
    pub fn clock_hz(self) -> u32 {
        48_000_000
    }
    /// Extra cycles for a non-sequential flash fetch and for a data load from flash.
    pub fn flash_wait_states(self) -> u64 {
        match self {
            Board::VpStm32f0 => 1,
            _ => 0,
        }
    }
    /// The RAM a run gets without --ram: 64 KiB on vp-m4 (its threads stack extended FP
    /// frames), 16 KiB elsewhere.
    pub fn default_ram(self) -> u32 {
        match self {
            Board::VpM4 => crate::contract::RAM_SIZE_M4,
            _ => crate::contract::RAM_SIZE_DEFAULT,
        }
    }
    pub fn profile(self) -> Profile {
        match self {
            Board::VpM0 | Board::VpStm32f0 => Profile::V6M,
            Board::VpM3 | Board::VpM4 => Profile::V7M,
        }
    }
    /// The board names, for messages.
    pub const NAMES: &'static str = "vp-m0, vp-stm32f0, vp-m3, vp-m4";
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
