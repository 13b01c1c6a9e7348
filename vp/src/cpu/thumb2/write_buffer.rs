//! The Cortex-M3/M4 write buffer: "STR Rx,[Ry,#imm] is always one cycle. This is because the
//! address generation is performed in the initial cycle, and the data store is performed at
//! the same time as the next instruction is executing. If the store is to the write buffer,
//! and the write buffer is full or not enabled, the next instruction is delayed until the
//! store can complete. If the store is not to the write buffer, for example to the Code
//! segment, and that transaction stalls, the impact on timing is only felt if another load
//! or store operation is executed before completion" (M3 TRM DDI0337I section 3.3.1 "Load/
//! store timings", p. 3-8; M4 TRM DDI0439B section 3.3.2, the same words).
//!
//! The model:
//! - A single STR/STRB/STRH (16- or 32-bit, any immediate-offset form: offset, pre- and
//!   post-indexed, SP-relative) to a bufferable address takes 1 cycle (`STR_BUFFERED`), plus
//!   the no-forwarding stall (pipeline.rs). The register-offset forms keep 2 ("other
//!   instructions cannot be pipelined after STR with register offset"), as do STRD, STM/
//!   PUSH and STREX (their own rows of Table 3.1).
//! - Bufferable: the SRAM (0x20000000-0x3FFFFFFF, Normal memory) and Peripheral
//!   (0x40000000-0x5FFFFFFF, Device memory) regions of the ARMv7-M default memory map (ARMv7-M
//!   ARM B3.1, Table B3-1): the lab board's RAM and lab peripherals. The Private Peripheral
//!   Bus (0xE0000000-, NVIC, SCB, SysTick, DWT) is Strongly-ordered, never buffered: 2 cycles,
//!   as before. Flash (the Code region) takes no stores on these boards.
//! - The core store buffer (M3 r1p1 TRM DDI0337E section 1.7 "Store buffers": "the next
//!   opcode can overlap the store's data phase") holds one store's data for the cycle after
//!   the STR: a second immediate-offset store right after it cannot overlap and takes the
//!   unbuffered 2 (`v7_store_begin` in pipeline.rs; STR; STR = 1 + 2, with anything between
//!   1 + 1 + 1). A load after a store and an exception entry after a store (its stacking
//!   writes) take no extra cycle: the boards' RAM and peripherals have no wait states, and
//!   AHB-Lite overlaps an address phase with the previous data phase. The choice was decided
//!   on the STM32F100 reference; the r2 TRMs' reading (no core store buffer, a wait only when
//!   the write buffer is full) was measured on the STM32F407 and not taken (docs/results.md,
//!   "Against silicon"). With wait-stated RAM (none of these boards) the next load or store
//!   would wait for the drain.
//! - A buffered store's write lands at the store's end (1 cycle after its start), like any
//!   store of the model (pipeline.rs): the event a probe toggle or a timer arming causes is
//!   stamped there.

/// A store to `a` goes through the write buffer (SRAM and Peripheral regions).
#[inline(always)]
pub fn bufferable(a: u32) -> bool {
    a.wrapping_sub(0x2000_0000) < 0x4000_0000
}

#[cfg(test)]
mod tests {
    #[test]
    fn sram_and_peripherals_are_buffered_not_the_ppb_or_code() {
        assert!(super::bufferable(0x2000_0000));
        assert!(super::bufferable(0x4F00_2000));
        assert!(super::bufferable(0x5FFF_FFFC));
        assert!(!super::bufferable(0x6000_0000));
        assert!(!super::bufferable(0xE000_E200));
        assert!(!super::bufferable(0x0000_0100));
    }
}
