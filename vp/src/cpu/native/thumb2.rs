//! ARMv7-M (Cortex-M3/M4) blocks for the native engine: which ops are inlined, their cycles
//! and their code. A child of translate.rs (it builds on its `Tr`).
//!
//! Inlined: the 16-bit data processing the ARMv6-M path inlines, the 32-bit data processing
//! (the W-forms with an immediate or an immediate-shifted register, with and without flags;
//! MOVW, MOVT, MUL/MLA/MLS, the extends, CLZ/RBIT/REV*, UBFX/SBFX, BFI/BFC), single loads and
//! stores of every size and addressing form (immediate, pre- and post-indexed, register,
//! literal, SP-relative, 16- and 32-bit) that hit RAM (loads also flash), and the branches
//! B, B<c>, BL, B.W, B<c>.W, CBZ/CBNZ. Everything else (IT, LDM/STM/PUSH/POP, LDRD, the
//! exclusives, TBB, system ops, FPU, ops reading or writing the PC, SP loads that the
//! thread-switch rule watches) goes through `jit::exec_op_v7`: the ARMv7-M interpreter's own
//! code. IT ends a block (cpu/block.rs), and the block in it runs on the interpreter's slow
//! path: entering it requests attention, so the check point after the helper leaves.
//!
//! Timing, with no figure of its own: an inlined op costs what the interpreter's rule gives
//! (cpu/timing.rs `ALU` and `BCOND_NOT_TAKEN` for the 16-bit ops as `exec_g` takes them,
//! thumb2/timing.rs for the 32-bit ones, `ldst_timing_of` of thumb2/pipeline.rs for loads
//! and stores, `v7_branch_cost` of refill.rs for taken branches). The dynamic parts:
//! - The pipelining record (a load's or data-processing op's registers and end cycle) and the
//!   write buffer (`wb_end`): the translation follows them through the block (`Rec`), since
//!   an op is directly followed by the next one of the block unless the block is left. After
//!   an op run by the helper they are unknown: a load or store there goes through the helper
//!   too. At the block's entry they are known to be neutral (record stale, no buffered store
//!   ending now: `Cpu::record_neutral`) when the first op is a load or store; the compiled code
//!   checks it and leaves before doing anything otherwise. The loop back to the block's start
//!   comes from a taken branch (at least two cycles): neutral too.
//! - Every inlined op writes the record and `wb_end` as the interpreter does (in the core,
//!   at once), so whatever runs after the block (helper, interpreter) sees the same state.
//! - The refill of a taken branch depends on the target's width and alignment: static for
//!   targets in flash, the only targets of the inlined branches (PC-relative, from flash).
//! - Stores that hit RAM are bufferable (checked at translation: `bufferable` over the RAM).
//!   Unaligned accesses and every address outside RAM (flash for loads) leave the block
//!   before the op: the interpreter runs it (unaligned penalty, peripherals, faults).
//!
//! Deadlines: as on ARMv6-M (translate.rs), one check per run of inlined ops.

use super::*;
use crate::cpu::state::CpuState;
use crate::cpu::thumb2::pipeline::{self as pl, bit, dst};
use crate::cpu::thumb2::timing as t2;
use crate::cpu::thumb2::write_buffer::bufferable;
use crate::cpu::thumb2::{dp, ls};

/// The facts of an ARMv7-M core a block's translation uses.
pub struct V7Facts {
    /// The cycles of each op of the block if it is a branch taken (`v7_branch_cost`), else 0.
    taken: Vec<u64>,
    m4: bool,
    ld_rec: i32,
    wb_end: i32,
    neutral: usize,
}

impl V7Facts {
    pub fn of<B: Bus>(m: &Cpu<B>, ops: &[BlockOp]) -> V7Facts {
        let taken = ops
            .iter()
            .map(|o| match o.op {
                Op::B { target } | Op::Bcond { target, .. } | Op::Bl { target } => m.v7_branch_cost(target, true, 0),
                Op::BW { target } | Op::BcondW { target, .. } => m.v7_branch_cost(target, true, 0),
                // decided in execute (refill.rs)
                Op::Cbz { target, .. } => m.v7_branch_cost(target, false, 0),
                _ => 0,
            })
            .collect();
        V7Facts {
            taken,
            m4: m.m4,
            ld_rec: (offset_of!(Cpu<B>, cpu) + offset_of!(CpuState, ld_rec)) as i32,
            wb_end: offset_of!(Cpu<B>, wb_end) as i32,
            neutral: super::super::jit::record_neutral::<B> as *const () as usize,
        }
    }
}

/// What the translation knows of the pipeline record and write buffer before an op.
#[derive(Clone, Copy)]
enum Rec {
    /// after an op run by the helper
    Unknown,
    /// `adj`: the registers of a record that ended at this op's start (None: stale);
    /// `wb`: a buffered store ends at this op's start
    Known { adj: Option<u16>, wb: bool },
}

const NEUTRAL: Rec = Rec::Known { adj: None, wb: false };

/// How the block runs an op.
#[derive(Clone, Copy)]
enum Plan {
    Helper,
    /// data processing: `rec` the record it writes (registers with the DP mark; 0: none)
    Alu {
        cost: u64,
        rec: u16,
    },
    /// a single load or store: `rec` the record a load writes (0: none), `buffered` a store
    /// through the write buffer
    Mem {
        cost: u64,
        rec: u16,
        buffered: bool,
    },
    /// a branch (the last op): taken, not taken
    Branch {
        taken: u64,
        not_taken: u64,
    },
}

impl Plan {
    fn cost(&self) -> Option<u64> {
        match *self {
            Plan::Helper => None,
            Plan::Alu { cost, .. } | Plan::Mem { cost, .. } => Some(cost),
            Plan::Branch { taken, .. } => Some(taken),
        }
    }
}

/// A single load or store: (kind as `ls`, rt, address registers, immediate offset form,
/// written-back base) of the op, if the block inlines it.
fn access(op: &Op) -> Option<(u8, u8, u16, bool, Option<u8>)> {
    use Op::*;
    let (kind, rt, addr, imm, wb) = match *op {
        LdrLit { rt, .. } => (ls::LDR, rt, 0, true, None),
        LsReg { kind, rt, rn, rm } => (kind, rt, bit(rn) | bit(rm), false, None),
        StrImm { rt, rn, .. } => (ls::STR, rt, bit(rn), true, None),
        StrbImm { rt, rn, .. } => (ls::STRB, rt, bit(rn), true, None),
        StrhImm { rt, rn, .. } => (ls::STRH, rt, bit(rn), true, None),
        LdrImm { rt, rn, .. } => (ls::LDR, rt, bit(rn), true, None),
        LdrbImm { rt, rn, .. } => (ls::LDRB, rt, bit(rn), true, None),
        LdrhImm { rt, rn, .. } => (ls::LDRH, rt, bit(rn), true, None),
        StrSp { rt, .. } => (ls::STR, rt, bit(13), true, None),
        LdrSp { rt, .. } => (ls::LDR, rt, bit(13), true, None),
        LdImm { kind, rt, rn, .. } if rn != 15 => (kind, rt, bit(rn), true, None),
        LdPre { kind, rt, rn, .. } | LdPost { kind, rt, rn, .. } if rn != 15 && rn != rt & 15 => {
            (kind, rt, bit(rn), true, Some(rn))
        }
        LdReg { kind, rt, rn, rm, .. } if rn != 15 && rm != 15 => (kind, rt, bit(rn) | bit(rm), false, None),
        LdLit { kind, rt, .. } if ls::is_load(kind) => (kind, rt, 0, true, None),
        _ => return None,
    };
    // loads into SP or the PC and stores of the PC are the interpreter's
    if rt & 15 == 15 || (ls::is_load(kind) && rt & 15 == 13) {
        return None;
    }
    Some((kind, rt, addr, imm, wb))
}

/// The record (registers) of the load `kind` into `rt` with the written-back base `wb`, as
/// `load_store_of` (memory.rs) and the 16-bit loads (`exec_g`) write it.
fn load_rec(op: &Op, rt: u8, wb: Option<u8>) -> u16 {
    if !op.is_v7() {
        return dst(rt);
    }
    if dst(rt) == 0 {
        0
    } else {
        bit(rt) | wb.map_or(0, bit)
    }
}

/// The record registers of a 16-bit data-processing op the ARMv6-M path inlines (`exec_g`:
/// `alu_done`), None if not one of those.
fn alu16_rec(op: &Op, mul_cycles: u64) -> Option<u16> {
    use Op::*;
    inline_cost(op, mul_cycles)?;
    Some(match *op {
        LslImm { rd, .. } | LsrImm { rd, .. } | AsrImm { rd, .. } | AddsReg { rd, .. } | SubsReg { rd, .. } => dst(rd),
        AddsImm { rd, .. } | SubsImm { rd, .. } | MovsImm { rd, .. } | MovConst { rd, .. } => dst(rd),
        AddSpImm { rd, .. } | AddHi { rd, .. } | MovHi { rd, .. } | AddConst { rd, .. } => dst(rd),
        Sxth { rd, .. } | Sxtb { rd, .. } | Uxth { rd, .. } | Uxtb { rd, .. } => dst(rd),
        Rev { rd, .. } | Rev16 { rd, .. } | Revsh { rd, .. } => dst(rd),
        AdjSp { .. } => dst(13),
        Alu { op, rdn, .. } => {
            if matches!(op, alu_op::TST | alu_op::CMP | alu_op::CMN) {
                0
            } else {
                dst(rdn)
            }
        }
        CmpImm { .. } | CmpHi { .. } | Nop | Yield => 0,
        _ => return None,
    })
}

/// A 32-bit data-processing W-form: (opcode, flag bits, rd, rn, second operand), the operand
/// an immediate or (rm, shift).
enum Operand {
    Imm(u32),
    Reg(u8, u8),
}

fn dp_w(op: &Op) -> Option<(u8, u8, u8, u8, Operand)> {
    use Op::*;
    let i = |o: u8, f: u8, rd: u8, rn: u8, imm: u32| Some((o, f, rd, rn, Operand::Imm(imm)));
    let r = |o: u8, f: u8, rd: u8, rn: u8, rm: u8, sh: u8| Some((o, f, rd, rn, Operand::Reg(rm, sh)));
    match *op {
        AndImmW { f, rd, rn, imm } => i(dp::AND, f, rd, rn, imm),
        BicImmW { f, rd, rn, imm } => i(dp::BIC, f, rd, rn, imm),
        OrrImmW { f, rd, rn, imm } => i(dp::ORR, f, rd, rn, imm),
        OrnImmW { f, rd, rn, imm } => i(dp::ORN, f, rd, rn, imm),
        EorImmW { f, rd, rn, imm } => i(dp::EOR, f, rd, rn, imm),
        MovImmW { f, rd, rn, imm } => i(dp::MOV, f, rd, rn, imm),
        MvnImmW { f, rd, rn, imm } => i(dp::MVN, f, rd, rn, imm),
        AddImmW { f, rd, rn, imm } => i(dp::ADD, f, rd, rn, imm),
        AdcImmW { f, rd, rn, imm } => i(dp::ADC, f, rd, rn, imm),
        SbcImmW { f, rd, rn, imm } => i(dp::SBC, f, rd, rn, imm),
        SubImmW { f, rd, rn, imm } => i(dp::SUB, f, rd, rn, imm),
        RsbImmW { f, rd, rn, imm } => i(dp::RSB, f, rd, rn, imm),
        AndRegW { f, rd, rn, rm, sh } => r(dp::AND, f, rd, rn, rm, sh),
        BicRegW { f, rd, rn, rm, sh } => r(dp::BIC, f, rd, rn, rm, sh),
        OrrRegW { f, rd, rn, rm, sh } => r(dp::ORR, f, rd, rn, rm, sh),
        OrnRegW { f, rd, rn, rm, sh } => r(dp::ORN, f, rd, rn, rm, sh),
        EorRegW { f, rd, rn, rm, sh } => r(dp::EOR, f, rd, rn, rm, sh),
        MovRegW { f, rd, rn, rm, sh } => r(dp::MOV, f, rd, rn, rm, sh),
        MvnRegW { f, rd, rn, rm, sh } => r(dp::MVN, f, rd, rn, rm, sh),
        AddRegW { f, rd, rn, rm, sh } => r(dp::ADD, f, rd, rn, rm, sh),
        AdcRegW { f, rd, rn, rm, sh } => r(dp::ADC, f, rd, rn, rm, sh),
        SbcRegW { f, rd, rn, rm, sh } => r(dp::SBC, f, rd, rn, rm, sh),
        SubRegW { f, rd, rn, rm, sh } => r(dp::SUB, f, rd, rn, rm, sh),
        RsbRegW { f, rd, rn, rm, sh } => r(dp::RSB, f, rd, rn, rm, sh),
        _ => None,
    }
}

/// Does MOV/MVN ignore Rn (the others read it)?
fn reads_rn(o: u8) -> bool {
    !matches!(o, dp::MOV | dp::MVN)
}

/// A W-form the block inlines: registers other than the PC; SP written by the immediate
/// forms only (`write_sp`: the register forms' MOV/ADD SP are the thread-switch rule's);
/// shifts with an amount the shifter gives for an immediate (0..=32).
fn dp_w_inlined(op: &Op) -> Option<(u8, u8, u8, u8, Operand)> {
    let (o, f, rd, rn, x) = dp_w(op)?;
    let test = f & dp::TEST != 0;
    if (!test && rd & 15 == 15) || (reads_rn(o) && rn == 15) {
        return None;
    }
    if let Operand::Reg(rm, sh) = x {
        if rm == 15 || (!test && rd & 15 == 13) || (sh & 63) > 32 {
            return None;
        }
    }
    Some((o, f, rd, rn, x))
}

/// The record registers and cycles of the other 32-bit data-processing ops the block inlines.
fn other_w(op: &Op, m4: bool) -> Option<(u64, u16)> {
    use Op::*;
    let ok = |r: u8| r & 15 < 13;
    match *op {
        MovT { rd, .. } | Misc { rd, .. } | Extend { rd, .. } if ok(rd) => Some((t2::ALU, dst(rd))),
        Bfx { rd, rn, .. } | Bfi { rd, rn, .. } if ok(rd) && rn != 13 => Some((t2::ALU, dst(rd))),
        Mul { rd, rn, rm, ra, .. } if ok(rd) && ok(rn) && ok(rm) && (ra == 15 || ok(ra)) => {
            // exec_mul's cycles
            let cost = match (m4, ra) {
                (true, _) => t2::M4_MUL,
                (false, 15) => t2::ALU,
                _ => t2::MLA,
            };
            Some((cost, dst(rd)))
        }
        _ => None,
    }
}

/// The op's plan given the state before it, and the state after it.
fn plan_op(op: &Op, st: Rec, taken: u64, tgt: &Target, facts: &V7Facts) -> (Plan, Rec) {
    let after_dp = |rec: u16| Rec::Known { adj: (rec != 0).then_some(rec), wb: false };
    if let Some(rec) = alu16_rec(op, tgt.mul_cycles).filter(|_| access(op).is_none() && taken == 0) {
        // 16-bit data processing: `alu_done` (cpu/timing.rs ALU), or CMP/NOP without a record
        let rec = if rec == 0 { 0 } else { pl::dp_mask(rec) };
        return (Plan::Alu { cost: inline_cost(op, tgt.mul_cycles).unwrap_or(t::ALU), rec }, after_dp(rec));
    }
    if let Some((_, f, rd, ..)) = dp_w_inlined(op) {
        let rec = if f & dp::TEST != 0 || dst(rd) == 0 { 0 } else { pl::dp_mask(dst(rd)) };
        return (Plan::Alu { cost: t2::ALU, rec }, after_dp(rec));
    }
    if let Some((cost, d)) = other_w(op, facts.m4) {
        let rec = if d == 0 { 0 } else { pl::dp_mask(d) };
        return (Plan::Alu { cost, rec }, after_dp(rec));
    }
    if let Some((kind, rt, addr, imm, wb)) = access(op) {
        let Rec::Known { adj, wb: wb_now } = st else {
            return (Plan::Helper, Rec::Unknown);
        };
        let (stall, cycles) = pl::ldst_timing_of(adj.is_some(), adj.unwrap_or(0), addr);
        if ls::is_load(kind) {
            if matches!(op, Op::LdrLit { .. } | Op::LdLit { .. }) && literal(op, tgt).is_none() {
                return (Plan::Helper, Rec::Unknown);
            }
            let rec = load_rec(op, rt, wb);
            let after = Rec::Known { adj: (rec != 0).then_some(rec), wb: false };
            return (Plan::Mem { cost: stall + cycles, rec, buffered: false }, after);
        }
        // v7_store_begin, for an address in RAM (bufferable over the whole RAM)
        let ram_buffered = bufferable(RAM_BASE) && bufferable(RAM_BASE.wrapping_add(tgt.ram_len - 1));
        if !ram_buffered {
            return (Plan::Helper, Rec::Unknown);
        }
        let buffered = imm & !wb_now;
        let cost = stall + if buffered { t2::STR_BUFFERED } else { cycles };
        return (Plan::Mem { cost, rec: 0, buffered }, Rec::Known { adj: None, wb: buffered });
    }
    match *op {
        Op::B { .. } | Op::Bl { .. } | Op::BW { .. } => (Plan::Branch { taken, not_taken: 0 }, NEUTRAL),
        // exec_bcond's not taken (cpu/timing.rs), exec_bcond_w's and exec_cbz's (thumb2/timing.rs)
        Op::Bcond { .. } => (Plan::Branch { taken, not_taken: t::BCOND_NOT_TAKEN }, NEUTRAL),
        Op::BcondW { .. } => (Plan::Branch { taken, not_taken: t2::NOT_TAKEN }, NEUTRAL),
        Op::Cbz { rn, .. } if rn < 13 => (Plan::Branch { taken, not_taken: t2::NOT_TAKEN }, NEUTRAL),
        _ => (Plan::Helper, Rec::Unknown),
    }
}

/// The literal a literal load reads from flash: (value as loaded), if its address is in
/// flash and aligned to its size (an unaligned one is the interpreter's).
fn literal(op: &Op, tgt: &Target) -> Option<u32> {
    let (kind, addr) = match *op {
        Op::LdrLit { addr, .. } => (ls::LDR, addr),
        Op::LdLit { kind, addr, .. } => (kind, addr),
        _ => return None,
    };
    let (size, signed) = size_of(kind);
    if addr % size != 0 {
        return None;
    }
    let a = addr as usize;
    let b = tgt.flash.get(a..a + size as usize)?;
    Some(match size {
        4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        2 if signed => i16::from_le_bytes([b[0], b[1]]) as i32 as u32,
        2 => u16::from_le_bytes([b[0], b[1]]) as u32,
        _ if signed => b[0] as i8 as i32 as u32,
        _ => b[0] as u32,
    })
}

/// (bytes, sign-extended) of a load/store kind.
fn size_of(kind: u8) -> (u32, bool) {
    match kind {
        ls::STR | ls::LDR => (4, false),
        ls::STRH | ls::LDRH => (2, false),
        ls::LDRSH => (2, true),
        ls::LDRSB => (1, true),
        _ => (1, false),
    }
}

/// The registers an inlined ARMv7-M op reads or writes (translate.rs `regs_of` for the
/// 32-bit ops).
pub(super) fn regs_of(op: &Op) -> Vec<u8> {
    use Op::*;
    if let Some((o, _, rd, rn, x)) = dp_w(op) {
        let mut v = vec![rd];
        if reads_rn(o) {
            v.push(rn);
        }
        if let Operand::Reg(rm, _) = x {
            v.push(rm);
        }
        return v.into_iter().filter(|r| r & 15 != 15).collect();
    }
    match *op {
        MovT { rd, .. } => vec![rd],
        Misc { rd, rm, .. } | Extend { rd, rm, .. } => vec![rd, rm],
        Bfx { rd, rn, .. } => vec![rd, rn],
        Bfi { rd, rn, .. } => [rd, rn].into_iter().filter(|r| r & 15 != 15).collect(),
        Mul { rd, rn, rm, ra, .. } => [rd, rn, rm, ra].into_iter().filter(|r| r & 15 != 15).collect(),
        LdImm { rt, rn, .. } | LdPre { rt, rn, .. } | LdPost { rt, rn, .. } => vec![rt, rn],
        LdReg { rt, rn, rm, .. } => vec![rt, rn, rm],
        LdLit { rt, .. } => vec![rt],
        Cbz { rn, .. } => vec![rn],
        _ => vec![],
    }
}

/// The registers an inlined ARMv7-M op writes.
pub(super) fn writes_of(op: &Op) -> Vec<u8> {
    use Op::*;
    if let Some((_, f, rd, ..)) = dp_w(op) {
        return if f & dp::TEST != 0 || rd & 15 == 15 { vec![] } else { vec![rd] };
    }
    match *op {
        MovT { rd, .. } | Misc { rd, .. } | Extend { rd, .. } | Bfx { rd, .. } | Bfi { rd, .. } | Mul { rd, .. } => {
            vec![rd]
        }
        LdImm { kind, rt, .. } | LdReg { kind, rt, .. } | LdLit { kind, rt, .. } => {
            if ls::is_load(kind) {
                vec![rt]
            } else {
                vec![]
            }
        }
        LdPre { kind, rt, rn, .. } | LdPost { kind, rt, rn, .. } => {
            if ls::is_load(kind) {
                vec![rt, rn]
            } else {
                vec![rn]
            }
        }
        _ => vec![],
    }
}

/// The ARMv7-M translation of `ops` (translate.rs `translate` hands it over).
pub(super) fn translate<B: Bus>(jit: &mut Jit, tgt: &Target, facts: &V7Facts, ops: &[BlockOp]) {
    // the plan: the record followed through the block from a neutral entry
    let mut plans = Vec::with_capacity(ops.len());
    let mut st = NEUTRAL;
    for (k, o) in ops.iter().enumerate() {
        let (p, next) = plan_op(&o.op, st, facts.taken[k], tgt, facts);
        plans.push(p);
        st = next;
    }
    let costs: Vec<Option<u64>> = plans.iter().map(Plan::cost).collect();
    let ptr = jit.pointer_type();
    let fc = jit.frontend_config();
    let (func, fbc) = jit.new_function();
    signature(&mut func.signature, ptr);
    let b = FunctionBuilder::new(func, fbc);
    let mut tr = Tr::new::<B>(b, tgt, ptr, ops, &costs);
    tr.need = need_of(&costs);
    tr.helper = super::super::jit::exec_op_v7::<B> as *const () as usize;
    tr.load_state();
    if matches!(plans[0], Plan::Mem { .. }) {
        tr.entry_neutral(facts, ops[0].pc);
    }
    tr.enter();
    tr.body_v7(ops, &plans, facts);
    tr.emit_exit();
    tr.b.seal_all_blocks();
    tr.b.finalize(fc);
}

impl Tr<'_, '_> {
    /// Leave at `pc` before anything ran unless the record and write buffer are neutral
    /// (the plan of the first op, a load or store, assumes it).
    fn entry_neutral(&mut self, facts: &V7Facts, pc: u32) {
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params.push(AbiParam::new(self.ptr));
        sig.returns.push(AbiParam::new(types::I8));
        let sref = self.b.import_signature(sig);
        let f = self.b.ins().iconst(self.ptr, facts.neutral as i64);
        let call = self.b.ins().call_indirect(sref, f, &[self.core]);
        let ok = self.b.inst_results(call)[0];
        let (out, go) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(out);
        self.b.ins().brif(ok, go, &[], out, &[]);
        self.b.switch_to_block(out);
        self.exit_at(pc);
        self.b.switch_to_block(go);
    }

    fn body_v7(&mut self, ops: &[BlockOp], plans: &[Plan], facts: &V7Facts) {
        let start = ops[0].pc;
        self.check(0, start);
        let last = ops.len() - 1;
        for (k, o) in ops.iter().enumerate() {
            let next = o.pc.wrapping_add(o.op.size());
            let done = match plans[k] {
                Plan::Helper => {
                    self.call_helper(k, o.pc, next, k == last);
                    continue;
                }
                Plan::Alu { cost, rec } => {
                    self.dp_v7(o, start, cost);
                    self.record(rec, facts);
                    true
                }
                Plan::Mem { cost, rec, buffered } => {
                    self.mem_v7(o, cost, rec, buffered, facts);
                    true
                }
                Plan::Branch { taken, not_taken } => {
                    self.branch_v7(o, start, taken, not_taken);
                    false
                }
            };
            if !done {
                return;
            }
            self.count_insn();
            if k == last {
                self.exit_at(next);
                return;
            }
        }
    }

    /// The pipelining record `rec` (0: none) of an op that ended now, as the interpreter writes it.
    fn record(&mut self, rec: u16, facts: &V7Facts) {
        if rec == 0 {
            return;
        }
        let c = self.b.use_var(self.cyc);
        let end = self.b.ins().ishl_imm_u(c, pl::RECORD_END_SHIFT as i64);
        let r = self.b.ins().bor_imm_u(end, pl::load_record(0, rec) as i64);
        self.b.ins().store(Self::mf(), r, self.core, facts.ld_rec);
    }

    /// A data-processing op at `cost` cycles.
    fn dp_v7(&mut self, o: &BlockOp, start: u32, cost: u64) {
        if !o.op.is_v7() {
            // the ARMv6-M path's code and cycles (the same `exec_g` arm)
            self.op(o, start);
            return;
        }
        if let Some((op, f, rd, rn, x)) = dp_w_inlined(&o.op) {
            self.dp_w(op, f, rd, rn, x);
        } else {
            self.other_w(&o.op);
        }
        self.add_cycles(cost);
    }

    /// execute.rs `dp`: `op` with flag bits `f`.
    fn dp_w(&mut self, op: u8, f: u8, rd: u8, rn: u8, x: Operand) {
        let s = f & dp::S != 0;
        let (b, carry) = match x {
            Operand::Imm(imm) => {
                let v = self.imm(imm);
                let c =
                    if f & dp::IMM_C != 0 { Some(self.b.ins().iconst(types::I8, (imm >> 31) as i64)) } else { None };
                (v, c)
            }
            Operand::Reg(rm, sh) => {
                let v = self.r(rm);
                self.shift_imm(v, sh, s)
            }
        };
        let a = if reads_rn(op) { self.r(rn) } else { self.imm(0) };
        let r = match op {
            dp::AND | dp::BIC | dp::ORR | dp::ORN | dp::EOR | dp::MOV | dp::MVN => {
                let r = match op {
                    dp::AND => self.b.ins().band(a, b),
                    dp::BIC => self.b.ins().band_not(a, b),
                    dp::ORR => self.b.ins().bor(a, b),
                    dp::ORN => self.b.ins().bor_not(a, b),
                    dp::EOR => self.b.ins().bxor(a, b),
                    dp::MOV => b,
                    _ => self.b.ins().bnot(b),
                };
                if s {
                    if let Some(c) = carry {
                        self.set_flag(C, c);
                    }
                    self.nz(r);
                }
                r
            }
            dp::ADD if s => self.adds(a, b),
            dp::SUB if s => self.subs(a, b),
            dp::RSB if s => self.subs(b, a),
            dp::ADD => self.b.ins().iadd(a, b),
            dp::SUB => self.b.ins().isub(a, b),
            dp::RSB => self.b.ins().isub(b, a),
            dp::ADC | dp::SBC => {
                let b = if op == dp::SBC { self.b.ins().bnot(b) } else { b };
                self.add_carry(a, b, s)
            }
            _ => unreachable!("dp_w: not an opcode"),
        };
        if f & dp::TEST != 0 {
            return;
        }
        if rd & 15 == 13 {
            self.write_sp(r);
        } else {
            self.w(rd, r);
        }
    }

    /// a + b + C (AddWithCarry with the carry flag), setting N Z C V if `s`.
    fn add_carry(&mut self, a: Value, b: Value, s: bool) -> Value {
        let c = self.b.use_var(self.flags[C]);
        let (a64, b64, c64) = (
            self.b.ins().uextend(types::I64, a),
            self.b.ins().uextend(types::I64, b),
            self.b.ins().uextend(types::I64, c),
        );
        let sum = self.b.ins().iadd(a64, b64);
        let sum = self.b.ins().iadd(sum, c64);
        let r = self.b.ins().ireduce(types::I32, sum);
        if s {
            let hi = self.b.ins().ushr_imm_u(sum, 32);
            let co = self.b.ins().ireduce(types::I8, hi);
            let x = self.b.ins().bxor(a, r);
            let y = self.b.ins().bxor(b, r);
            let ov = self.b.ins().band(x, y);
            let v = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, ov, 0);
            self.set_flag(C, co);
            self.set_flag(V, v);
            self.nz(r);
        }
        r
    }

    /// execute.rs `shift_imm` (flags.rs `lsl_c` etc.): the value and, when `s` wants it, the
    /// carry out (None: the carry flag unchanged).
    fn shift_imm(&mut self, x: Value, sh: u8, s: bool) -> (Value, Option<Value>) {
        let n = (sh & 63) as u32;
        let ty = sh >> 6;
        if n == 0 && ty != 3 {
            return (x, None);
        }
        let carry = |tr: &mut Self, bitno: u32| if s { Some(tr.bit(x, bitno)) } else { None };
        match ty {
            0 if n == 32 => (self.imm(0), carry(self, 0)),
            0 => (self.b.ins().ishl_imm_u(x, n as i64), carry(self, 32 - n)),
            1 if n == 32 => (self.imm(0), carry(self, 31)),
            1 => (self.b.ins().ushr_imm_u(x, n as i64), carry(self, n - 1)),
            2 => (self.b.ins().sshr_imm_u(x, n.min(31) as i64), carry(self, n.min(32) - 1)),
            _ if n == 0 => {
                // RRX
                let c = self.b.use_var(self.flags[C]);
                let c32 = self.b.ins().uextend(types::I32, c);
                let top = self.b.ins().ishl_imm_u(c32, 31);
                let lo = self.b.ins().ushr_imm_u(x, 1);
                (self.b.ins().bor(top, lo), carry(self, 0))
            }
            _ => (self.b.ins().rotr_imm_u(x, (n & 31) as i64), carry(self, (n - 1) & 31)),
        }
    }

    /// MOVT, CLZ/RBIT/REV*, the extends, UBFX/SBFX, BFI/BFC, MUL/MLA/MLS (execute.rs).
    fn other_w(&mut self, op: &Op) {
        match *op {
            Op::MovT { rd, imm } => {
                let x = self.r(rd);
                let lo = self.b.ins().band_imm_u(x, 0xFFFF);
                let r = self.b.ins().bor_imm_u(lo, ((imm as u32) << 16) as i64);
                self.w(rd, r);
            }
            Op::Misc { op, rd, rm } => {
                let x = self.r(rm);
                let r = match op {
                    0 => self.b.ins().clz(x),
                    1 => self.b.ins().bitrev(x),
                    2 => self.b.ins().bswap(x),
                    3 => {
                        let a = self.b.ins().band_imm_u(x, 0x00FF_00FF);
                        let a = self.b.ins().ishl_imm_u(a, 8);
                        let c = self.b.ins().ushr_imm_u(x, 8);
                        let c = self.b.ins().band_imm_u(c, 0x00FF_00FF);
                        self.b.ins().bor(a, c)
                    }
                    _ => {
                        let h = self.b.ins().ireduce(types::I16, x);
                        let h = self.b.ins().bswap(h);
                        self.b.ins().sextend(types::I32, h)
                    }
                };
                self.w(rd, r);
            }
            Op::Extend { op, rd, rm, rot } => {
                let x = self.r(rm);
                let x = if rot == 0 { x } else { self.b.ins().rotr_imm_u(x, 8 * rot as i64) };
                let r = match op {
                    0 => {
                        let h = self.b.ins().ireduce(types::I16, x);
                        self.b.ins().sextend(types::I32, h)
                    }
                    1 => self.b.ins().band_imm_u(x, 0xFFFF),
                    2 => {
                        let h = self.b.ins().ireduce(types::I8, x);
                        self.b.ins().sextend(types::I32, h)
                    }
                    _ => self.b.ins().band_imm_u(x, 0xFF),
                };
                self.w(rd, r);
            }
            Op::Bfx { signed, rd, rn, lsb, width } => {
                let x = self.r(rn);
                let up = 32 - lsb as i64 - width as i64;
                let v = if up == 0 { x } else { self.b.ins().ishl_imm_u(x, up) };
                let down = 32 - width as i64;
                let r = match (signed, down) {
                    (_, 0) => v,
                    (true, d) => self.b.ins().sshr_imm_u(v, d),
                    (false, d) => self.b.ins().ushr_imm_u(v, d),
                };
                self.w(rd, r);
            }
            Op::Bfi { rd, rn, lsb, msb } => {
                let mask = (u32::MAX >> (31 - msb as u32)) & (u32::MAX << lsb);
                let src = if rn == 15 {
                    self.imm(0)
                } else {
                    let x = self.r(rn);
                    let x = self.b.ins().ishl_imm_u(x, lsb as i64);
                    self.b.ins().band_imm_u(x, mask as i64)
                };
                let d = self.r(rd);
                let keep = self.b.ins().band_imm_u(d, !mask as i64);
                let r = self.b.ins().bor(keep, src);
                self.w(rd, r);
            }
            Op::Mul { mls, rd, rn, rm, ra } => {
                let (a, b) = (self.r(rn), self.r(rm));
                let p = self.b.ins().imul(a, b);
                let r = match (ra, mls) {
                    (15, _) => p,
                    (_, false) => {
                        let acc = self.r(ra);
                        self.b.ins().iadd(acc, p)
                    }
                    (_, true) => {
                        let acc = self.r(ra);
                        self.b.ins().isub(acc, p)
                    }
                };
                self.w(rd, r);
            }
            _ => unreachable!("other_w: not an inlined op"),
        }
    }

    /// A single load or store at `cost` cycles: RAM (loads also flash; literals are
    /// constants), else leave before the op.
    fn mem_v7(&mut self, o: &BlockOp, cost: u64, rec: u16, buffered: bool, facts: &V7Facts) {
        let (kind, rt, _, _, wb) = access(&o.op).expect("a planned access");
        if let Some(v) = literal(&o.op, self.tgt) {
            let v = self.imm(v);
            self.w(rt, v);
            self.add_cycles(cost);
            self.record(rec, facts);
            return;
        }
        let (a, wb_val) = self.address(&o.op);
        let (size, signed) = size_of(kind);
        let wb = wb.map(|rn| (rn, wb_val.expect("written-back address")));
        let (miss, done) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(miss);
        let (ram, ram_len) = (self.ram, self.tgt.ram_len);
        if ls::is_load(kind) {
            let flash_miss = self.b.create_block();
            self.b.set_cold_block(flash_miss);
            let h = self.in_bounds(a, RAM_BASE, ram_len, size, ram, miss);
            let v = self.host_load(h, size, signed);
            self.loaded(rt, v, wb, cost, rec, facts);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(miss);
            let (flash, flash_len) = (self.flash, self.tgt.flash.len() as u32);
            let h = self.in_bounds(a, 0, flash_len, size, flash, flash_miss);
            let v = self.host_load(h, size, signed);
            self.loaded(rt, v, wb, cost, rec, facts);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(flash_miss);
            self.exit_at(o.pc);
        } else {
            let v = self.r(rt);
            let h = self.in_bounds(a, RAM_BASE, ram_len, size, ram, miss);
            let fl = MemFlagsData::new().with_notrap();
            match size {
                4 => self.b.ins().store(fl, v, h, 0),
                2 => self.b.ins().istore16(fl, v, h, 0),
                _ => self.b.ins().istore8(fl, v, h, 0),
            };
            self.add_cycles(cost);
            // v7_store_begin: the buffered store's end, else none
            let end = if buffered { self.b.use_var(self.cyc) } else { self.b.ins().iconst(types::I64, -1) };
            self.b.ins().store(Self::mf(), end, self.core, facts.wb_end);
            if let Some((rn, x)) = wb {
                self.set_base(rn, x);
            }
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(miss);
            self.exit_at(o.pc);
        }
        self.b.switch_to_block(done);
    }

    /// A load's value `v` arrived: the base written back first, then Rt (`load_store_of`).
    fn loaded(&mut self, rt: u8, v: Value, wb: Option<(u8, Value)>, cost: u64, rec: u16, facts: &V7Facts) {
        if let Some((rn, x)) = wb {
            self.set_base(rn, x);
        }
        self.w(rt, v);
        self.add_cycles(cost);
        self.record(rec, facts);
    }

    /// memory.rs `set_reg`: SP through `write_sp`.
    fn set_base(&mut self, rn: u8, x: Value) {
        if rn == 13 {
            self.write_sp(x);
        } else {
            self.w(rn, x);
        }
    }

    /// The address of a single load or store, and the written-back base of the indexed forms.
    fn address(&mut self, op: &Op) -> (Value, Option<Value>) {
        use Op::*;
        let plus = |tr: &mut Self, r: u8, off: i64| {
            let x = tr.r(r);
            if off == 0 {
                x
            } else {
                tr.b.ins().iadd_imm_s(x, off)
            }
        };
        match *op {
            LsReg { rn, rm, .. } => {
                let (x, y) = (self.r(rn), self.r(rm));
                (self.b.ins().iadd(x, y), None)
            }
            StrImm { rn, off, .. } | StrbImm { rn, off, .. } | StrhImm { rn, off, .. } => {
                (plus(self, rn, off as i64), None)
            }
            LdrImm { rn, off, .. } | LdrbImm { rn, off, .. } | LdrhImm { rn, off, .. } => {
                (plus(self, rn, off as i64), None)
            }
            StrSp { off, .. } | LdrSp { off, .. } => (plus(self, 13, off as i64), None),
            LdImm { rn, off, .. } => (plus(self, rn, off as i64), None),
            LdPre { rn, off, .. } => {
                let a = plus(self, rn, off as i64);
                (a, Some(a))
            }
            LdPost { rn, off, .. } => {
                let a = self.r(rn);
                (a, Some(plus(self, rn, off as i64)))
            }
            LdReg { rn, rm, sh, .. } => {
                let (x, y) = (self.r(rn), self.r(rm));
                let y = if sh == 0 { y } else { self.b.ins().ishl_imm_u(y, sh as i64) };
                (self.b.ins().iadd(x, y), None)
            }
            _ => unreachable!("address: not an inlined access"),
        }
    }

    /// A branch, the last op: taken at `taken` cycles (to the loop head if it is this
    /// block's start), else on at `not_taken`.
    fn branch_v7(&mut self, o: &BlockOp, start: u32, taken: u64, not_taken: u64) {
        self.count_insn();
        let next = o.pc.wrapping_add(o.op.size());
        let (target, p) = match o.op {
            Op::B { target } | Op::BW { target } => (target, None),
            Op::Bl { target } => {
                let lr = self.imm(o.pc.wrapping_add(4) | 1);
                self.w(14, lr);
                (target, None)
            }
            Op::Bcond { cond, target } | Op::BcondW { cond, target } => (target, Some(self.cond(cond))),
            Op::Cbz { nz, rn, target } => {
                let x = self.r(rn);
                let cc = if nz { IntCC::NotEqual } else { IntCC::Equal };
                (target, Some(self.b.ins().icmp_imm_s(cc, x, 0)))
            }
            _ => unreachable!("branch_v7: not a branch"),
        };
        let Some(p) = p else {
            self.add_cycles(taken);
            self.goto(target, start);
            return;
        };
        let (yes, no) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(p, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        self.add_cycles(taken);
        self.goto(target, start);
        self.b.switch_to_block(no);
        self.add_cycles(not_taken);
        self.exit_at(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan takes the interpreter's pipelining and write-buffer rules in order.
    #[test]
    fn plan_follows_the_record_through_a_block() {
        let flash = [0u8; 64];
        let tgt = Target {
            layout: Layout::of::<crate::lab_bus::LabBus>(),
            ram_len: 0x1000,
            flash: &flash,
            mul_cycles: 1,
            v7: None,
        };
        let facts = V7Facts { taken: vec![], m4: false, ld_rec: 0, wb_end: 0, neutral: 0 };
        let ldr = Op::LdrImm { rt: 0, rn: 1, off: 0 };
        let (p, st) = plan_op(&ldr, NEUTRAL, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost: t2::LDST, .. }));
        // a second load from another base pipelines behind it (1 cycle); one using r0 does not
        let (p, _) = plan_op(&Op::LdrImm { rt: 2, rn: 3, off: 0 }, st, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost: t2::LDST_PIPELINED, .. }));
        let (p, _) = plan_op(&Op::LdrImm { rt: 2, rn: 0, off: 0 }, st, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost: t2::LDST, .. }));
        // STR; STR: the second cannot use the write buffer's cycle (1 + 2)
        let str0 = Op::StrImm { rt: 0, rn: 1, off: 0 };
        let (p, st) = plan_op(&str0, NEUTRAL, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost: t2::STR_BUFFERED, buffered: true, .. }));
        let (p, _) = plan_op(&str0, st, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost: t2::LDST, buffered: false, .. }));
        // after a helper op the record is unknown: the load goes through the helper
        let (p, _) = plan_op(&ldr, Rec::Unknown, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Helper));
        // ADDS r1, r1, #1 then a load based on r1: the no-forwarding stall
        let (_, st) = plan_op(&Op::AddsImm { rd: 1, rn: 1, imm: 1 }, NEUTRAL, 0, &tgt, &facts);
        let (p, _) = plan_op(&ldr, st, 0, &tgt, &facts);
        assert!(matches!(p, Plan::Mem { cost, .. } if cost == 1 + t2::LDST));
    }
}
