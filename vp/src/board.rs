//! Board profiles: a core and the memory system around it. The simulator asks a profile what
//! the core can do (`board.core.has_fpu()`), never which board it is. The built-in boards
//! and the cores' capabilities are `board_table.rs`, generated from bench/boards/*/board.toml
//! and spec/contracts.toml; the command line builds a board that is not compiled in (--core).

pub use crate::board_table::Core;

/// The architecture profile a core implements: the instruction set, the decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    V6M,
    V7M,
}

/// What hides flash wait states from the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accelerator {
    None,
    /// A prefetch buffer (STM32F0, STM32F1): `prefetch_blocks` lines; the next line is read
    /// while the core executes the current one (flash.rs).
    Prefetch,
    /// ST's ART accelerator (STM32F4): the prefetch plus a 64-line instruction cache and an
    /// 8-line data cache (flash.rs).
    Art,
}

/// What the simulator needs to know about a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub core: Core,
    /// Nominal core clock (LAB_CLOCK_HZ, semihosting's clock, the trace's header).
    pub clock_hz: u32,
    /// Extra cycles of a flash access (a line read) beyond a zero-wait-state one.
    pub flash_wait_states: u64,
    /// Bytes the flash reads per access (its width: 4, 8 or 16).
    pub flash_line_bytes: u32,
    /// Lines the prefetch buffer holds (2: the current and the next; 3 on the STM32F0).
    pub prefetch_blocks: u32,
    pub accelerator: Accelerator,
    /// The RAM a run gets without --ram, in bytes.
    pub default_ram: u32,
    /// The part's supply currents and deep-sleep wake-up (energy.rs); None: no figures, and
    /// SLEEPDEEP sleeps like a plain WFI.
    pub energy: Option<crate::energy::EnergyModel>,
}

impl Core {
    pub fn from_name(s: &str) -> Option<Core> {
        Core::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The core names, for messages.
    pub fn names() -> String {
        Core::ALL.map(Core::name).join("|")
    }

    /// CPUID as the SCB reports it (the cores' TRMs: the revision of the part modelled).
    pub const fn cpuid(self) -> u32 {
        match self {
            Core::CortexM0 => 0x410C_C200,  // ARM, Cortex-M0 r0p0
            Core::CortexM3 => 0x412F_C231,  // Cortex-M3 r2p1
            Core::CortexM4F => 0x410F_C241, // Cortex-M4 r0p1
        }
    }

    /// The Cortex-M4's multiplier: MLA/MLS and the long multiplies in one cycle (DDI0439
    /// Table 3-1) where the M3 takes 2 and 3 to 7.
    pub const fn single_cycle_mac(self) -> bool {
        matches!(self, Core::CortexM4F)
    }
}

impl Board {
    /// A built-in board by id.
    pub fn built_in(id: &str) -> Option<Board> {
        Board::BUILT_IN.iter().find(|(name, _)| *name == id).map(|(_, b)| *b)
    }

    /// The id of a built-in board with exactly these parameters, if there is one.
    pub fn id(&self) -> Option<&'static str> {
        Board::BUILT_IN.iter().find(|(_, b)| b == self).map(|(name, _)| *name)
    }

    /// The built-in ids, for messages.
    pub fn built_in_ids() -> String {
        Board::BUILT_IN.map(|(name, _)| name).join(", ")
    }

    /// The board if the flash model can time it (flash.rs).
    pub fn validated(self) -> Result<Board, String> {
        if self.flash_wait_states > 15 {
            return Err("flash wait states must be 0..15".into());
        }
        if ![4, 8, 16].contains(&self.flash_line_bytes) {
            return Err("the flash line (--flash-line-bytes) must be 4, 8 or 16 bytes".into());
        }
        if !(2..=4).contains(&self.prefetch_blocks) {
            return Err("the prefetch buffer (--prefetch-blocks) holds 2 to 4 lines".into());
        }
        if self.clock_hz == 0 {
            return Err("the clock must be at least 1 Hz".into());
        }
        Ok(self)
    }

    pub fn arch(&self) -> Arch {
        self.core.arch()
    }
}

impl Accelerator {
    pub fn from_name(s: &str) -> Option<Accelerator> {
        match s {
            "none" => Some(Accelerator::None),
            "prefetch" => Some(Accelerator::Prefetch),
            "art" => Some(Accelerator::Art),
            _ => None,
        }
    }
}

/// A built-in board shows as its id; another as its parameters.
impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id() {
            Some(id) => f.write_str(id),
            None => write!(
                f,
                "{} at {} Hz, {} flash wait state(s), {}-byte lines ({:?}, {} blocks)",
                self.core.name(),
                self.clock_hz,
                self.flash_wait_states,
                self.flash_line_bytes,
                self.accelerator,
                self.prefetch_blocks
            ),
        }
    }
}
