//! Which instructions may skip writing the pipeline record (pipeline.rs).
//!
//! The record (`Machine::ld_rec`) is read only by the instruction that starts the cycle its
//! writer ended: a single load or store (pipelining, the no-forwarding stall), LDM/STM and
//! the other memory ops (the stall). In flash the instruction after each one is known at
//! predecode time: it is the one at `pc + size`, since a data-processing op or a load into a
//! general register never branches, and anything that runs in between (an exception entry,
//! an instruction skipped by its IT condition) takes cycles and so makes the record stale
//! anyway. When that next instruction is one that never reads the record, the writer's
//! destination field gets `QUIET` and the writer skips the record: the timing is the same,
//! and most data-processing instructions (followed by another one or by a branch) save the
//! write. Code in RAM is decoded at each fetch, without this pass, so it always records.
//!
//! `QUIET` rides in bit 7 of the destination register field: every use of a register
//! number indexes with `& 15` (`Machine::g`/`s`, `pipeline::bit`), and only fields that
//! cannot name SP or PC (whose numbers are compared unmasked) are marked.

use super::it::sets_flags_outside_it;
use crate::cpu::decode::Op;

/// In an op's destination register field: the next instruction does not read the pipeline
/// record, so this op need not write it (`pipeline::dst`).
pub const QUIET: u8 = 0x80;

/// Mark, in the predecoded flash `ops` (one per halfword), every record writer whose next
/// instruction never reads the record.
pub fn quiet_records(ops: &mut [Op]) {
    for i in 0..ops.len() {
        let next = i + (ops[i].size() / 2) as usize;
        if ops.get(next).is_some_and(|n| !reads_record(n)) {
            ops[i] = quieted(ops[i]);
        }
    }
}

/// Whether `op`'s timing may depend on the record: anything but the data-processing
/// instructions and the branches (conservative: an op not listed is taken to read it; IT,
/// which folds into zero cycles and so leaves the record fresh, is among them).
fn reads_record(op: &Op) -> bool {
    let data_processing = op.is_dp_w() || sets_flags_outside_it(op);
    !data_processing
        && !matches!(
            op,
            Op::CmpImm { .. }
                | Op::Alu { .. }
                | Op::AddHi { .. }
                | Op::CmpHi { .. }
                | Op::MovHi { .. }
                | Op::MovConst { .. }
                | Op::Sxth { .. }
                | Op::Sxtb { .. }
                | Op::Uxth { .. }
                | Op::Uxtb { .. }
                | Op::Rev { .. }
                | Op::Rev16 { .. }
                | Op::Revsh { .. }
                | Op::Bcond { .. }
                | Op::B { .. }
                | Op::Bl { .. }
                | Op::Bx { .. }
                | Op::Blx { .. }
                | Op::BcondW { .. }
                | Op::BW { .. }
                | Op::Cbz { .. }
                | Op::ShiftReg { .. }
                | Op::MovT { .. }
                | Op::Bfi { .. }
                | Op::Bfx { .. }
                | Op::Misc { .. }
                | Op::Extend { .. }
                | Op::Mul { .. }
        )
}

/// `op` with its destination marked `QUIET`, if it is a record writer whose destination
/// field can carry the mark (a low register for the 16-bit ops, R0-R12 for the 32-bit
/// ones: the compares and tests, whose Rd is 15, are left alone: they write no record);
/// otherwise `op` unchanged.
fn quieted(op: Op) -> Op {
    let q = |r: u8| if r < 13 { r | QUIET } else { r };
    match op {
        Op::LslImm { rd, rm, imm } => Op::LslImm { rd: q(rd), rm, imm },
        Op::LsrImm { rd, rm, imm } => Op::LsrImm { rd: q(rd), rm, imm },
        Op::AsrImm { rd, rm, imm } => Op::AsrImm { rd: q(rd), rm, imm },
        Op::AddsReg { rd, rn, rm } => Op::AddsReg { rd: q(rd), rn, rm },
        Op::SubsReg { rd, rn, rm } => Op::SubsReg { rd: q(rd), rn, rm },
        Op::AddsImm { rd, rn, imm } => Op::AddsImm { rd: q(rd), rn, imm },
        Op::SubsImm { rd, rn, imm } => Op::SubsImm { rd: q(rd), rn, imm },
        Op::MovsImm { rd, imm } => Op::MovsImm { rd: q(rd), imm },
        Op::Alu { op, rdn, rm } => Op::Alu { op, rdn: q(rdn), rm },
        Op::Sxth { rd, rm } => Op::Sxth { rd: q(rd), rm },
        Op::Sxtb { rd, rm } => Op::Sxtb { rd: q(rd), rm },
        Op::Uxth { rd, rm } => Op::Uxth { rd: q(rd), rm },
        Op::Uxtb { rd, rm } => Op::Uxtb { rd: q(rd), rm },
        Op::Rev { rd, rm } => Op::Rev { rd: q(rd), rm },
        Op::Rev16 { rd, rm } => Op::Rev16 { rd: q(rd), rm },
        Op::Revsh { rd, rm } => Op::Revsh { rd: q(rd), rm },
        Op::LdrImm { rt, rn, off } => Op::LdrImm { rt: q(rt), rn, off },
        Op::LdrbImm { rt, rn, off } => Op::LdrbImm { rt: q(rt), rn, off },
        Op::LdrhImm { rt, rn, off } => Op::LdrhImm { rt: q(rt), rn, off },
        Op::LdrSp { rt, off } => Op::LdrSp { rt: q(rt), off },
        Op::LdrLit { rt, addr } => Op::LdrLit { rt: q(rt), addr },
        Op::LsReg { kind, rt, rn, rm } if super::ls::is_load(kind) => Op::LsReg { kind, rt: q(rt), rn, rm },
        Op::AndImmW { f, rd, rn, imm } => Op::AndImmW { f, rd: q(rd), rn, imm },
        Op::BicImmW { f, rd, rn, imm } => Op::BicImmW { f, rd: q(rd), rn, imm },
        Op::OrrImmW { f, rd, rn, imm } => Op::OrrImmW { f, rd: q(rd), rn, imm },
        Op::OrnImmW { f, rd, rn, imm } => Op::OrnImmW { f, rd: q(rd), rn, imm },
        Op::EorImmW { f, rd, rn, imm } => Op::EorImmW { f, rd: q(rd), rn, imm },
        Op::MovImmW { f, rd, rn, imm } => Op::MovImmW { f, rd: q(rd), rn, imm },
        Op::MvnImmW { f, rd, rn, imm } => Op::MvnImmW { f, rd: q(rd), rn, imm },
        Op::AddImmW { f, rd, rn, imm } => Op::AddImmW { f, rd: q(rd), rn, imm },
        Op::AdcImmW { f, rd, rn, imm } => Op::AdcImmW { f, rd: q(rd), rn, imm },
        Op::SbcImmW { f, rd, rn, imm } => Op::SbcImmW { f, rd: q(rd), rn, imm },
        Op::SubImmW { f, rd, rn, imm } => Op::SubImmW { f, rd: q(rd), rn, imm },
        Op::RsbImmW { f, rd, rn, imm } => Op::RsbImmW { f, rd: q(rd), rn, imm },
        Op::AndRegW { f, rd, rn, rm, sh } => Op::AndRegW { f, rd: q(rd), rn, rm, sh },
        Op::BicRegW { f, rd, rn, rm, sh } => Op::BicRegW { f, rd: q(rd), rn, rm, sh },
        Op::OrrRegW { f, rd, rn, rm, sh } => Op::OrrRegW { f, rd: q(rd), rn, rm, sh },
        Op::OrnRegW { f, rd, rn, rm, sh } => Op::OrnRegW { f, rd: q(rd), rn, rm, sh },
        Op::EorRegW { f, rd, rn, rm, sh } => Op::EorRegW { f, rd: q(rd), rn, rm, sh },
        Op::MovRegW { f, rd, rn, rm, sh } => Op::MovRegW { f, rd: q(rd), rn, rm, sh },
        Op::MvnRegW { f, rd, rn, rm, sh } => Op::MvnRegW { f, rd: q(rd), rn, rm, sh },
        Op::AddRegW { f, rd, rn, rm, sh } => Op::AddRegW { f, rd: q(rd), rn, rm, sh },
        Op::AdcRegW { f, rd, rn, rm, sh } => Op::AdcRegW { f, rd: q(rd), rn, rm, sh },
        Op::SbcRegW { f, rd, rn, rm, sh } => Op::SbcRegW { f, rd: q(rd), rn, rm, sh },
        Op::SubRegW { f, rd, rn, rm, sh } => Op::SubRegW { f, rd: q(rd), rn, rm, sh },
        Op::RsbRegW { f, rd, rn, rm, sh } => Op::RsbRegW { f, rd: q(rd), rn, rm, sh },
        Op::ShiftReg { op, rd, rn, rm } => Op::ShiftReg { op, rd: q(rd), rn, rm },
        Op::MovT { rd, imm } => Op::MovT { rd: q(rd), imm },
        Op::Bfi { rd, rn, lsb, msb } => Op::Bfi { rd: q(rd), rn, lsb, msb },
        Op::Bfx { signed, rd, rn, lsb, width } => Op::Bfx { signed, rd: q(rd), rn, lsb, width },
        Op::Misc { op, rd, rm } => Op::Misc { op, rd: q(rd), rm },
        Op::Extend { op, rd, rm, rot } => Op::Extend { op, rd: q(rd), rm, rot },
        Op::Mul { mls, rd, rn, rm, ra } => Op::Mul { mls, rd: q(rd), rn, rm, ra },
        Op::LdImm { kind, rt, rn, off } if super::ls::is_load(kind) => Op::LdImm { kind, rt: q(rt), rn, off },
        Op::LdPre { kind, rt, rn, off } if super::ls::is_load(kind) => Op::LdPre { kind, rt: q(rt), rn, off },
        Op::LdPost { kind, rt, rn, off } if super::ls::is_load(kind) => Op::LdPost { kind, rt: q(rt), rn, off },
        Op::LdReg { kind, rt, rn, rm, sh } if super::ls::is_load(kind) => Op::LdReg { kind, rt: q(rt), rn, rm, sh },
        Op::LdLit { kind, rt, addr } if super::ls::is_load(kind) => Op::LdLit { kind, rt: q(rt), addr },
        op => op,
    }
}
