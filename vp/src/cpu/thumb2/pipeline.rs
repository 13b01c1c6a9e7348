//! Pipelined single loads and stores of the Cortex-M3/M4 (ARM DDI0337H/I section 3.3.1 and
//! DDI0439B/D section 3.3.2, "Load/store timings"): a single LDR (any size, any addressing
//! but to the PC; LDREX and STREX count as LDR) lets the next instruction, if it is a single
//! LDR or STR whose address does not use the first one's destination, take one cycle less.
//! Loads chain (LDR; LDR; LDR = 2 + 1 + 1); a store never starts a pipeline; LDRD/STRD and
//! LDM/STM neither start nor join one.
//!
//! No forwarding path: a load or store whose address the data-processing instruction just
//! before it wrote waits one cycle (`ldst_timing`); the data-processing instructions record
//! their end and registers in the same record as the loads (`dp_wrote`).
//!
//! A store's bus write lands at the store's end (2 cycles after its start, 1 when
//! pipelined): the pipelining is decided before the access (`v7_store_begin`), so the cycle an
//! interrupt pended by the store arrives and the instruction boundary it is taken at agree
//! (with the write one cycle into the next instruction, the differential test took 226 of
//! 3000 such interrupts one instruction later than QEMU).
//!
//! "Directly follows" costs the loop nothing: the record holds the cycle its instruction
//! ended at, and the next instruction starts at that cycle only if nothing ran in between
//! (every instruction but a folded IT, and every exception entry, takes at least one cycle).

use super::quiet::QUIET;
use super::timing as t;
use super::write_buffer::bufferable;
use crate::bus::Bus;
use crate::machine::Cpu;

impl<B: Bus> Cpu<B> {
    /// The timing of a single load or store whose address is formed from the registers of
    /// the mask `addr`, as (stall, cycles after it), from the record of the instruction
    /// that ended at this one's start (`ld_rec`): behind a pipelining load whose
    /// destinations are not among them 1, else 2; the stall is 1 right after a
    /// data-processing instruction that wrote one of them (no forwarding path: M3 TRM
    /// DDI0337I section 3.3.1 p. 3-9, M4 TRM DDI0439B section 3.3.2, "any load or store that
    /// generates an address dependent on the result of a preceding data processing
    /// operation" waits 1 cycle "whilst the register bank is updated"), else 0. An
    /// instruction in between (a NOP, one skipped by its IT condition) or an exception entry
    /// takes a cycle and breaks both; a folded IT takes none and breaks neither.
    #[inline(always)]
    pub(crate) fn ldst_timing(&self, addr: u16) -> (u64, u64) {
        // branch-free: both are data-dependent, so a branch mispredicts (TBB's Rn may be
        // the PC, bit 15: masked off). One 8-byte record, end << 16 | registers: one store
        // per instruction that sets it; the end compared modulo 2^48 cycles (68 days at
        // 48 MHz).
        ldst_timing_of(self.record_adjacent(), self.cpu.ld_rec as u16, addr)
    }

    /// Did the instruction that wrote the record end at this cycle (so that the one starting
    /// now directly follows it)?
    #[inline(always)]
    pub(crate) fn record_adjacent(&self) -> bool {
        (self.cpu.ld_rec ^ (self.cyc << RECORD_END_SHIFT)) >> RECORD_END_SHIFT == 0
    }

    /// Neither the record nor the write buffer can change the timing of the instruction
    /// starting now: the record ended earlier and no buffered store ends now. The native
    /// engine (cpu/native/translate/thumb2.rs) enters a block that starts with a load or
    /// store only then, so that it knows that op's timing when it translates it.
    #[inline(always)]
    pub(crate) fn record_neutral(&self) -> bool {
        !self.record_adjacent() & (self.wb_end != self.cyc)
    }

    /// The no-forwarding stall alone (`ldst_timing`), for the accesses that never pipeline.
    #[inline(always)]
    pub(crate) fn fwd_stall(&self, addr: u16) -> u64 {
        self.ldst_timing(addr).0
    }

    /// A data-processing instruction that wrote the registers of the mask `dst` has
    /// completed: `cyc` is its end. No record for an empty mask (a compare or test, or a
    /// `QUIET` destination: `dst`): behind a data-processing instruction that wrote none of
    /// its address registers a load or store is timed as behind no record at all (no
    /// stall, no pipelining).
    #[inline(always)]
    pub(crate) fn dp_wrote(&mut self, dst: u16) {
        if dst != 0 {
            self.cpu.ld_rec = dp_record(self.cyc, dst);
        }
    }

    /// Before the bus write to `a` of a single store of the registers of the mask `addr`:
    /// its cycles, 1 behind a pipelining load or through the write buffer (an immediate-
    /// offset store, `imm`, to a bufferable address: write_buffer.rs), else 2 (plus the
    /// stall). The write lands at the store's end (`st_lat` cycles after its start), so a
    /// store that pends an interrupt (NVIC_ISPR, ICSR) has it arrive after the store, not
    /// one cycle into the next instruction. (Begin/end rather than a closure: the closures
    /// were not inlined.)
    #[inline(always)]
    pub(crate) fn v7_store_begin(&mut self, addr: u16, a: u32, imm: bool) -> u64 {
        let (stall, cycles) = self.ldst_timing(addr);
        // the core store buffer still holds the data of a buffered store just before: no
        // overlap (write_buffer.rs)
        let buffered = imm & bufferable(a) & (self.wb_end != self.cyc);
        let cost = stall + if buffered { t::STR_BUFFERED } else { cycles };
        self.wb_end = if buffered { self.cyc + cost } else { u64::MAX };
        self.st_lat = cost;
        cost
    }

    /// After the bus write `ok` of a store that `v7_store_begin` priced at `cost`.
    #[inline(always)]
    pub(crate) fn v7_store_end(&mut self, ok: Option<()>, cost: u64) -> Option<()> {
        self.st_lat = t::LDST;
        if ok.is_some() {
            self.cyc += cost;
        }
        ok
    }

    /// A single load from an address formed from the registers of the mask `addr` into those
    /// of `dst`, `access` its bus read, which happens after the no-forwarding stall (the
    /// address waits for the register bank), so a peripheral samples one cycle later then.
    #[inline(always)]
    pub(crate) fn v7_load_access(
        &mut self,
        addr: u16,
        dst: u16,
        access: impl FnOnce(&mut Self) -> Option<u32>,
    ) -> Option<u32> {
        let (stall, cycles) = self.ldst_timing(addr);
        self.cyc += stall;
        let v = access(self);
        if v.is_some() {
            self.v7_loaded(cycles, dst);
        }
        v
    }

    /// A single load into the registers of the mask `dst` (its target, and its base when
    /// written back) completes in `cycles` after its stall: the next load or store may
    /// pipeline behind it. An empty mask (a `QUIET` target: `dst`) writes no record.
    #[inline(always)]
    pub(crate) fn v7_loaded(&mut self, cycles: u64, dst: u16) {
        self.cyc += cycles;
        if dst != 0 {
            self.cpu.ld_rec = load_record(self.cyc, dst);
        }
    }
}

/// `Cpu::ldst_timing` given whether the record is adjacent (`adj`) and its registers
/// (`dst`): the same rule for the interpreter (from the record in the core) and for the
/// native engine (from the record it knows at translation time).
#[inline(always)]
pub fn ldst_timing_of(adj: bool, dst: u16, addr: u16) -> (u64, u64) {
    let dep = addr & !DP_MARK & dst != 0;
    let dp = dst & DP_MARK != 0;
    let pipelined = adj & !dep & !dp;
    ((adj & dep & dp) as u64, t::LDST - (t::LDST - t::LDST_PIPELINED) * pipelined as u64)
}

/// The record a data-processing instruction that wrote the registers of `dst` (non-empty)
/// leaves, ending at `end` (`dp_wrote`); a load's is `load_record`.
#[inline(always)]
pub fn dp_record(end: u64, dst: u16) -> u64 {
    load_record(end, dst | DP_MARK)
}

/// The record a single load into the registers of `dst` (non-empty) leaves, ending at
/// `end` (`v7_loaded`): the end in the high bits, the registers in the low 16.
#[inline(always)]
pub fn load_record(end: u64, dst: u16) -> u64 {
    (end << RECORD_END_SHIFT) | dst as u64
}

/// Where the end cycle sits in the record (the registers take the 16 bits below it).
pub const RECORD_END_SHIFT: u32 = 16;

/// The registers of a data-processing record (`dst` with `DP_MARK`), for the native
/// engine's translation-time record.
#[inline(always)]
pub fn dp_mask(dst: u16) -> u16 {
    dst | DP_MARK
}

/// Bit 15 of the record's registers (the PC, never a load's pipelining destination): the record is a
/// data-processing instruction's, for the no-forwarding stall, not a load's.
const DP_MARK: u16 = 1 << 15;

/// The mask of register `r`.
#[inline(always)]
pub fn bit(r: u8) -> u16 {
    1 << (r & 15)
}

/// The record mask of the destination register field `r`: its `bit`, or 0 when it is
/// marked `QUIET` (quiet.rs: the next instruction does not read the record).
#[inline(always)]
pub fn dst(r: u8) -> u16 {
    ((r & QUIET == 0) as u16) << (r & 15)
}
