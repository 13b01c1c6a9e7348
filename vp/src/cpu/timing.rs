//! What an instruction costs on the Cortex-M0 (ARM DDI0432C Table 3-1), all of it here, and
//! the exception figures of both core families (the M0's calibrated on an STM32F0, seed 000
//! Appendix A; the M3/M4's from their TRMs). The ARMv7-M instruction costs are
//! thumb2/timing.rs. Flash wait states are added where the executing code pays them
//! (`Machine::ws`: a non-sequential fetch, a data load from flash).

/// Data processing, shifts, compares, extends, reverses, ADR, ADD/SUB SP, NOP, hints.
pub const ALU: u64 = 1;
/// Any LDR*/STR*.
pub const LDST: u64 = 2;
/// B, taken B<cond>, BX, BLX, MOV PC, ADD PC: the branch plus the pipeline refill.
pub const BRANCH: u64 = 3;
pub const BCOND_NOT_TAKEN: u64 = 1;
pub const BL: u64 = 4;
pub const MRS_MSR: u64 = 4;
pub const BARRIER: u64 = 4;
pub const WFX: u64 = 2;
pub const SVC: u64 = 3;
/// Semihosting call: the debugger's work is free; the BKPT itself costs one cycle.
pub const BKPT: u64 = 1;
/// LDM/STM/PUSH/POP cost 1 + N; POP with PC 4 + N.
pub const MULTI_BASE: u64 = 1;
pub const POP_PC_BASE: u64 = 4;

/// Exception entry: from the instruction boundary to the first handler instruction.
pub const EXC_ENTRY: u64 = 15;
/// Exception return by BX: 16 cycles including the BX (3), i.e. 13 more than a BX.
pub const EXC_RETURN_EXTRA: u64 = 13;
/// Tail chain by BX: 15 cycles including the BX, i.e. 12 more than a BX.
pub const TAIL_CHAIN_EXTRA: u64 = 12;
/// Cycles between a store that pends an exception and the moment the core sees it (the
/// "PendSV asynchronous delay" of Appendix A; both cores).
pub const ASYNC_PEND_DELAY: u64 = 2;
/// A peripheral line is seen by the NVIC one cycle after it rises (synchroniser; both cores).
pub const LINE_SYNC_DELAY: u64 = 1;
/// Late arrival: a higher-priority exception seen within this many cycles of the start of
/// an entry (the stacking phase, before the vector fetch) replaces the one being entered.
pub const LATE_ARRIVAL_WINDOW: u64 = 11;

/// The exception figures of one core: entry, return and tail chain beyond the returning
/// branch, late-arrival window.
#[derive(Clone, Copy, Debug)]
pub struct ExcTiming {
    pub entry: u64,
    pub return_extra: u64,
    pub tail_chain_extra: u64,
    pub late_arrival: u64,
}

/// Cortex-M0 (above).
pub const EXC_M0: ExcTiming = ExcTiming {
    entry: EXC_ENTRY,
    return_extra: EXC_RETURN_EXTRA,
    tail_chain_extra: TAIL_CHAIN_EXTRA,
    late_arrival: LATE_ARRIVAL_WINDOW,
};

/// Cortex-M3/M4 (DDI0337H 5.5.1 / DDI0439B 3.1 "Interrupt latency": 12 cycles from the
/// request to the first handler instruction with zero wait states; tail-chaining 6 cycles;
/// exception return (unstacking) 10 cycles after the returning branch. Late arrival is
/// accepted until the vector fetch, the last cycle of the stacking phase.
pub const EXC_M3: ExcTiming = ExcTiming { entry: 12, return_extra: 10, tail_chain_extra: 6, late_arrival: 11 };
