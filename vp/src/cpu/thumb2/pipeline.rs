//! Pipelined single loads and stores of the Cortex-M3/M4 (ARM DDI0337H/I section 3.3.1 and
//! DDI0439B/D section 3.3.2, "Load/store timings"): a single LDR (any size, any addressing
//! but to the PC; LDREX and STREX count as LDR) lets the next instruction, if it is a single
//! LDR whose address does not use the first one's destination, take one cycle less (a STR
//! after it too, by the TRM, but not in this model yet: `v7_store` says why).
//! Loads chain (LDR; LDR; LDR = 2 + 1 + 1); a store never starts a pipeline; LDRD/STRD and
//! LDM/STM neither start nor join one.
//!
//! "Directly follows" costs the loop nothing: the load records the cycle it ends at, and
//! the next instruction starts at that cycle only if nothing ran in between (every
//! instruction and every exception entry takes at least one cycle).

use super::timing as t;
use crate::machine::Machine;

impl Machine {
    /// Cycles of a single load or store whose address is formed from the registers of the
    /// mask `addr`: 1 behind a pipelining load whose destinations are not among them, else 2.
    #[inline(always)]
    pub(crate) fn ldst_cost(&self, addr: u16) -> u64 {
        // branch-free: whether a load pipelines is data-dependent, so a branch mispredicts
        let pipelined = (self.cyc == self.ld_end) & (addr & self.ld_dst == 0);
        t::LDST - (t::LDST - t::LDST_PIPELINED) * pipelined as u64
    }

    /// A single store completes: 2 cycles, not pipelined behind a load yet. The TRM lets a
    /// store behind a load take 1 cycle, but where its bus write then lands against the
    /// next instruction decides, for a write to NVIC_ISPR, after which instruction the
    /// interrupt is taken, and the model has no figure for that from silicon: with the
    /// write 2 cycles after the store's start, the differential test against QEMU takes
    /// such interrupts one instruction apart. Until that is settled, stores take 2.
    #[inline(always)]
    pub(crate) fn v7_store(&mut self) {
        self.cyc += t::LDST;
    }

    /// A single load into the registers of the mask `dst` (its target, and its base when
    /// written back) completes: the next load or store may pipeline behind it.
    #[inline(always)]
    pub(crate) fn v7_load(&mut self, addr: u16, dst: u16) {
        self.cyc += self.ldst_cost(addr);
        self.ld_end = self.cyc;
        self.ld_dst = dst;
    }
}

/// The mask of register `r`.
#[inline(always)]
pub fn bit(r: u8) -> u16 {
    1 << (r & 15)
}
