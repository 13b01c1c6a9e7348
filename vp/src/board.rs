//! Board profiles: what differs between `vp-m0` and `vp-stm32f0`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// Zero wait states at a nominal 48 MHz (the calibrated default).
    VpM0,
    /// Same core with one flash wait state and the prefetch buffer on (STM32F0 at 48 MHz).
    VpStm32f0,
}

impl Board {
    pub fn from_name(s: &str) -> Option<Board> {
        match s {
            "vp-m0" => Some(Board::VpM0),
            "vp-stm32f0" => Some(Board::VpStm32f0),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Board::VpM0 => "vp-m0",
            Board::VpStm32f0 => "vp-stm32f0",
        }
    }
    pub fn clock_hz(self) -> u32 {
        48_000_000
    }
    /// Extra cycles for a non-sequential flash fetch and for a data load from flash.
    pub fn flash_wait_states(self) -> u64 {
        match self {
            Board::VpM0 => 0,
            Board::VpStm32f0 => 1,
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
