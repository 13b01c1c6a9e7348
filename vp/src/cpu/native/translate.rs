//! A block of predecoded ARMv6-M flash ops to a Cranelift function over the core's state
//! (an ARMv7-M block: thumb2.rs, built on the same `Tr`).
//!
//! The function `(core, RAM, flash)` keeps the registers the block uses, N Z C V, the cycle
//! and instruction counters in SSA variables, loaded at entry and stored back at every exit
//! and around every helper call. Inlined: data processing with its flags, moves, shifts by an
//! immediate, extends and reverses, SP arithmetic, literal loads (flash is read-only: a
//! constant), single loads and stores that hit RAM (or, for loads, flash), B, B<cond>, BL.
//! Every other op, and a load or store whose address is elsewhere (peripherals, faults),
//! calls `jit::exec_op`: the interpreter's own code for the op.
//!
//! Timing: an inlined op adds the cycles of the interpreter's own constants (`cpu/timing.rs`:
//! `ALU`, `LDST`, `BRANCH`, `BCOND_NOT_TAKEN`, `BL`); nothing else here knows a cycle figure.
//! Exactness: the interpreter tests `cyc >= next_event` before each instruction. Inlined ops
//! never move `next_event` and cost a fixed number of cycles, so one test at a "check point"
//! (the block's start, and after each helper call) covers every instruction up to the next
//! helper call or the last op: `cyc + need >= next_event`, `need` the cycles of the inlined
//! ops in between. If it fails, the function stores its state and returns with `pc` on that
//! instruction: the engine's loop then does what the interpreter does there.

#[path = "thumb2.rs"]
pub mod thumb2;

use super::jit::{exec_op, Jit};
use crate::bus::Bus;
use crate::contract::RAM_BASE;
use crate::cpu::decode::{alu_op, Op};
use crate::cpu::state::CpuState;
use crate::cpu::timing as t;
use crate::machine::Cpu;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AbiParam, Block, InstBuilder, MemFlagsData, Signature, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use std::mem::offset_of;

/// Where the compiled code finds the core's state in `Cpu<B>`.
#[derive(Clone, Copy)]
pub struct Layout {
    r: i32,
    pc: i32,
    n: i32,
    z: i32,
    c: i32,
    v: i32,
    cyc: i32,
    insns: i32,
    next_event: i32,
    sp_low: i32,
}

impl Layout {
    pub fn of<B>() -> Layout {
        let s = offset_of!(Cpu<B>, cpu);
        let o = |x: usize| x as i32;
        Layout {
            r: o(s + offset_of!(CpuState, r)),
            pc: o(s + offset_of!(CpuState, pc)),
            n: o(s + offset_of!(CpuState, n)),
            z: o(s + offset_of!(CpuState, z)),
            c: o(s + offset_of!(CpuState, c)),
            v: o(s + offset_of!(CpuState, v)),
            cyc: o(offset_of!(Cpu<B>, cyc)),
            insns: o(offset_of!(Cpu<B>, insns)),
            next_event: o(offset_of!(Cpu<B>, next_event)),
            sp_low: o(offset_of!(Cpu<B>, sp_low)),
        }
    }
}

/// One op of a block, as found in the flash table.
#[derive(Clone, Copy)]
pub struct BlockOp {
    pub op: Op,
    pub pc: u32,
}

/// How the translator treats an op: inlined with its fixed cost, or through the helper.
pub(super) fn inline_cost(op: &Op, mul_cycles: u64) -> Option<u64> {
    use Op::*;
    Some(match *op {
        LslImm { .. } | LsrImm { .. } | AsrImm { .. } | AddsReg { .. } | SubsReg { .. } | AddsImm { .. } => t::ALU,
        SubsImm { .. } | MovsImm { .. } | CmpImm { .. } | CmpHi { .. } | MovConst { .. } | AddSpImm { .. } => t::ALU,
        AdjSp { .. } | Sxth { .. } | Sxtb { .. } | Uxth { .. } | Uxtb { .. } | Rev { .. } | Rev16 { .. } => t::ALU,
        Revsh { .. } | Nop | Yield => t::ALU,
        AddHi { rd, .. } | MovHi { rd, .. } if rd != 13 => t::ALU,
        AddConst { .. } => t::ALU,
        Alu { op, .. } => match op {
            alu_op::AND | alu_op::EOR | alu_op::TST | alu_op::RSB | alu_op::CMP | alu_op::CMN | alu_op::ORR => t::ALU,
            alu_op::BIC | alu_op::MVN => t::ALU,
            alu_op::MUL if mul_cycles == 1 => t::ALU,
            _ => return None,
        },
        LdrLit { .. } | LsReg { .. } | StrImm { .. } | LdrImm { .. } | StrbImm { .. } | LdrbImm { .. } => t::LDST,
        StrhImm { .. } | LdrhImm { .. } | StrSp { .. } | LdrSp { .. } => t::LDST,
        // the last op of a block: its cost never enters a check (see `need`)
        B { .. } => t::BRANCH,
        Bcond { .. } => t::BRANCH,
        Bl { .. } => t::BL,
        _ => return None,
    })
}

/// The block signature: (core, RAM, flash) pointers, no result.
pub fn signature(sig: &mut Signature, ptr: types::Type) {
    sig.params.clear();
    sig.returns.clear();
    for _ in 0..3 {
        sig.params.push(AbiParam::new(ptr));
    }
}

/// The facts of the machine a translation depends on (fixed for a run).
pub struct Target<'a> {
    pub layout: Layout,
    pub ram_len: u32,
    pub flash: &'a [u8],
    pub mul_cycles: u64,
    /// ARMv7-M: the core's facts for thumb2.rs (None on ARMv6-M).
    pub v7: Option<thumb2::V7Facts>,
}

/// Translate `ops` (a block: straight-line ops, the last possibly a branch) into the JIT's
/// function (`Jit::compile` then compiles it).
pub fn translate<B: Bus>(jit: &mut Jit, tgt: &Target, ops: &[BlockOp]) {
    translate_region::<B>(jit, tgt, &[ops.to_vec()]);
}

/// Translate a region (region.rs: blocks, the entry first) into the JIT's function: a taken
/// branch or fall-through to the start of one of its blocks jumps there (to its check point).
/// ARMv7-M code is thumb2.rs's, one block a function (its regions hold one block).
pub fn translate_region<B: Bus>(jit: &mut Jit, tgt: &Target, blocks: &[Vec<BlockOp>]) {
    if let Some(facts) = &tgt.v7 {
        return thumb2::translate::<B>(jit, tgt, facts, &blocks[0]);
    }
    let ptr = jit.pointer_type();
    let fc = jit.frontend_config();
    let (func, fbc) = jit.new_function();
    signature(&mut func.signature, ptr);
    let b = FunctionBuilder::new(func, fbc);
    let all: Vec<BlockOp> = blocks.iter().flatten().copied().collect();
    let costs: Vec<Option<u64>> = all.iter().map(|o| inline_cost(&o.op, tgt.mul_cycles)).collect();
    let mut tr = Tr::new::<B>(b, tgt, ptr, &all, &costs);
    tr.load_state();
    tr.enter();
    for o in blocks.iter().skip(1) {
        let h = tr.b.create_block();
        tr.heads.push((o[0].pc, h));
    }
    for (j, ops) in blocks.iter().enumerate() {
        let costs: Vec<Option<u64>> = ops.iter().map(|o| inline_cost(&o.op, tgt.mul_cycles)).collect();
        tr.need = need_of(&costs);
        let h = tr.heads[j].1;
        if j > 0 {
            tr.b.switch_to_block(h);
        }
        tr.body(ops);
    }
    tr.emit_exit();
    tr.b.seal_all_blocks();
    tr.b.finalize(fc);
}

/// need[k]: the inlined cycles from op k of a block to the next helper op (exclusive) or the
/// block's last op; `costs` each op's inlined cycles (None: the helper).
pub(super) fn need_of(costs: &[Option<u64>]) -> Vec<u64> {
    let last = costs.len() - 1;
    let mut need = vec![0u64; costs.len()];
    let mut acc = 0u64;
    for k in (0..costs.len()).rev() {
        match costs[k] {
            _ if k == last => acc = 0,
            Some(c) => acc += c,
            None => acc = 0,
        }
        need[k] = acc;
    }
    need
}

struct Tr<'a, 't> {
    b: FunctionBuilder<'a>,
    tgt: &'t Target<'t>,
    ptr: types::Type,
    /// the function's parameters
    core: Value,
    ram: Value,
    flash: Value,
    /// the registers the block uses (r0..r14), their variables and whether ops write them
    reg: [Option<Variable>; 15],
    written: [bool; 15],
    flags: [Variable; 4],
    cyc: Variable,
    insns: Variable,
    helper: usize,
    /// cycles of the inlined ops from op k up to the next helper op or the last op
    need: Vec<u64>,
    /// the check point of each block's op 0 (its start pc): a branch there jumps to it
    heads: Vec<(u32, Block)>,
    /// the one exit: stores the state and `pc_out`, returns (one copy of the stores)
    exit: Block,
    pc_out: Variable,
}

const N: usize = 0;
const Z: usize = 1;
const C: usize = 2;
const V: usize = 3;

fn regs_of(op: &Op) -> Vec<u8> {
    use Op::*;
    match *op {
        LslImm { rd, rm, .. } | LsrImm { rd, rm, .. } | AsrImm { rd, rm, .. } => vec![rd, rm],
        AddsReg { rd, rn, rm } | SubsReg { rd, rn, rm } => vec![rd, rn, rm],
        AddsImm { rd, rn, .. } | SubsImm { rd, rn, .. } => vec![rd, rn],
        MovsImm { rd, .. } | MovConst { rd, .. } => vec![rd],
        CmpImm { rn, .. } => vec![rn],
        CmpHi { rn, rm } => vec![rn, rm],
        AddSpImm { rd, .. } => vec![rd, 13],
        AdjSp { .. } => vec![13],
        Sxth { rd, rm } | Sxtb { rd, rm } | Uxth { rd, rm } | Uxtb { rd, rm } => vec![rd, rm],
        Rev { rd, rm } | Rev16 { rd, rm } | Revsh { rd, rm } => vec![rd, rm],
        AddHi { rd, rm } | MovHi { rd, rm } => vec![rd, rm],
        AddConst { rd, .. } => vec![rd],
        Alu { rdn, rm, .. } => vec![rdn, rm],
        LdrLit { rt, .. } => vec![rt],
        LsReg { rt, rn, rm, .. } => vec![rt, rn, rm],
        StrImm { rt, rn, .. } | LdrImm { rt, rn, .. } | StrbImm { rt, rn, .. } | LdrbImm { rt, rn, .. } => vec![rt, rn],
        StrhImm { rt, rn, .. } | LdrhImm { rt, rn, .. } => vec![rt, rn],
        StrSp { rt, .. } | LdrSp { rt, .. } => vec![rt, 13],
        Bl { .. } => vec![14],
        _ => thumb2::regs_of(op),
    }
}

/// Registers an inlined op writes.
fn writes_of(op: &Op) -> Vec<u8> {
    use Op::*;
    match *op {
        CmpImm { .. } | CmpHi { .. } => vec![],
        Alu { op, rdn, .. } => {
            if matches!(op, alu_op::TST | alu_op::CMP | alu_op::CMN) {
                vec![]
            } else {
                vec![rdn]
            }
        }
        StrImm { .. } | StrbImm { .. } | StrhImm { .. } | StrSp { .. } => vec![],
        LsReg { kind, rt, .. } => {
            if kind <= 2 {
                vec![]
            } else {
                vec![rt]
            }
        }
        AdjSp { .. } => vec![13],
        Bl { .. } => vec![14],
        ref op if op.is_v7() => thumb2::writes_of(op),
        _ => regs_of(op).into_iter().take(1).collect(),
    }
}

impl<'a, 't> Tr<'a, 't> {
    /// `costs`: each op's inlined cycles, None for the helper (`inline_cost`, thumb2.rs's plan).
    fn new<B: Bus>(
        mut b: FunctionBuilder<'a>,
        tgt: &'t Target<'t>,
        ptr: types::Type,
        ops: &[BlockOp],
        costs: &[Option<u64>],
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (core, ram, flash) = (p[0], p[1], p[2]);
        let mut reg = [None; 15];
        let mut written = [false; 15];
        for (o, cost) in ops.iter().zip(costs) {
            if cost.is_none() {
                continue;
            }
            for r in regs_of(&o.op) {
                let r = (r & 15) as usize;
                if r < 15 && reg[r].is_none() {
                    reg[r] = Some(b.declare_var(types::I32));
                }
            }
            for r in writes_of(&o.op) {
                // (ARMv7-M register fields may carry thumb2/quiet.rs's mark above bit 3)
                let r = (r & 15) as usize;
                if r < 15 {
                    written[r] = true;
                }
            }
        }
        let flags =
            [b.declare_var(types::I8), b.declare_var(types::I8), b.declare_var(types::I8), b.declare_var(types::I8)];
        let cyc = b.declare_var(types::I64);
        let insns = b.declare_var(types::I64);
        let head = b.create_block();
        let exit = b.create_block();
        let pc_out = b.declare_var(types::I32);
        Tr {
            b,
            tgt,
            ptr,
            core,
            ram,
            flash,
            reg,
            written,
            flags,
            cyc,
            insns,
            helper: exec_op::<B> as *const () as usize,
            need: Vec::new(),
            heads: vec![(ops[0].pc, head)],
            exit,
            pc_out,
        }
    }

    /// From the function's entry (the state loaded) into the first block's check point.
    fn enter(&mut self) {
        let h = self.heads[0].1;
        self.b.ins().jump(h, &[]);
        self.b.switch_to_block(h);
    }

    fn mf() -> MemFlagsData {
        MemFlagsData::trusted()
    }

    /// Load every cached value from the core.
    fn load_state(&mut self) {
        let l = self.tgt.layout;
        for i in 0..15 {
            if let Some(v) = self.reg[i] {
                let x = self.b.ins().load(types::I32, Self::mf(), self.core, l.r + 4 * i as i32);
                self.b.def_var(v, x);
            }
        }
        for (k, off) in [l.n, l.z, l.c, l.v].into_iter().enumerate() {
            let x = self.b.ins().load(types::I8, Self::mf(), self.core, off);
            self.b.def_var(self.flags[k], x);
        }
        let x = self.b.ins().load(types::I64, Self::mf(), self.core, l.cyc);
        self.b.def_var(self.cyc, x);
        let x = self.b.ins().load(types::I64, Self::mf(), self.core, l.insns);
        self.b.def_var(self.insns, x);
    }

    /// Store every value the block may have changed into the core.
    fn store_state(&mut self) {
        let l = self.tgt.layout;
        for i in 0..15 {
            if let (Some(v), true) = (self.reg[i], self.written[i]) {
                let x = self.b.use_var(v);
                self.b.ins().store(Self::mf(), x, self.core, l.r + 4 * i as i32);
            }
        }
        for (k, off) in [l.n, l.z, l.c, l.v].into_iter().enumerate() {
            let x = self.b.use_var(self.flags[k]);
            self.b.ins().store(Self::mf(), x, self.core, off);
        }
        let x = self.b.use_var(self.cyc);
        self.b.ins().store(Self::mf(), x, self.core, l.cyc);
        let x = self.b.use_var(self.insns);
        self.b.ins().store(Self::mf(), x, self.core, l.insns);
    }

    /// Leave with `pc` (the current block is then terminated): to the shared exit.
    fn exit(&mut self, pc: Value) {
        self.b.def_var(self.pc_out, pc);
        self.b.ins().jump(self.exit, &[]);
    }

    /// The shared exit: every value the block may have changed, and `pc`, into the core.
    fn emit_exit(&mut self) {
        self.b.switch_to_block(self.exit);
        self.store_state();
        let pc = self.b.use_var(self.pc_out);
        self.b.ins().store(Self::mf(), pc, self.core, self.tgt.layout.pc);
        self.b.ins().return_(&[]);
    }

    fn exit_at(&mut self, pc: u32) {
        let v = self.b.ins().iconst(types::I32, pc as i64);
        self.exit(v);
    }

    /// The check point before op `k` at `pc`: leave there if a deadline may fall before the
    /// next helper op or the last op (`need`).
    fn check(&mut self, k: usize, pc: u32) {
        let cyc = self.b.use_var(self.cyc);
        let ne = self.b.ins().load(types::I64, Self::mf(), self.core, self.tgt.layout.next_event);
        let end = self.b.ins().iadd_imm_s(cyc, self.need[k] as i64);
        let late = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, end, ne);
        let (out, go) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(out);
        self.b.ins().brif(late, out, &[], go, &[]);
        self.b.switch_to_block(out);
        self.exit_at(pc);
        self.b.switch_to_block(go);
    }

    /// Call the helper for the op at `pc` (state stored before, reloaded after); leave if the
    /// op left another `pc` than `next`, else go on after a check point at op `k + 1`.
    fn call_helper(&mut self, k: usize, pc: u32, next: u32, last: bool) {
        self.store_state();
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params.push(AbiParam::new(self.ptr));
        sig.params.push(AbiParam::new(types::I32));
        sig.returns.push(AbiParam::new(types::I32));
        let sref = self.b.import_signature(sig);
        let f = self.b.ins().iconst(self.ptr, self.helper as i64);
        let a = self.b.ins().iconst(types::I32, pc as i64);
        let call = self.b.ins().call_indirect(sref, f, &[self.core, a]);
        let newpc = self.b.inst_results(call)[0];
        self.load_state();
        if last {
            self.exit(newpc);
            return;
        }
        let off = self.b.ins().icmp_imm_s(IntCC::NotEqual, newpc, next as i64);
        let (out, go) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(out);
        self.b.ins().brif(off, out, &[], go, &[]);
        self.b.switch_to_block(out);
        self.exit(newpc);
        self.b.switch_to_block(go);
        self.check(k + 1, next);
    }

    fn r(&mut self, i: u8) -> Value {
        let v = self.reg[(i & 15) as usize].expect("register declared");
        self.b.use_var(v)
    }
    fn w(&mut self, i: u8, x: Value) {
        let v = self.reg[(i & 15) as usize].expect("register declared");
        self.b.def_var(v, x);
    }
    fn set_flag(&mut self, k: usize, x: Value) {
        self.b.def_var(self.flags[k], x);
    }
    fn nz(&mut self, r: Value) {
        let n = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, r, 0);
        let z = self.b.ins().icmp_imm_s(IntCC::Equal, r, 0);
        self.set_flag(N, n);
        self.set_flag(Z, z);
    }
    /// a + b with N Z C V (AddWithCarry, carry in 0).
    fn adds(&mut self, a: Value, b: Value) -> Value {
        let r = self.b.ins().iadd(a, b);
        let c = self.b.ins().icmp(IntCC::UnsignedLessThan, r, a);
        let x = self.b.ins().bxor(a, r);
        let y = self.b.ins().bxor(b, r);
        let o = self.b.ins().band(x, y);
        let v = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
        self.set_flag(C, c);
        self.set_flag(V, v);
        self.nz(r);
        r
    }
    /// a - b with N Z C V (AddWithCarry(a, NOT b, 1)).
    fn subs(&mut self, a: Value, b: Value) -> Value {
        let r = self.b.ins().isub(a, b);
        let c = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, a, b);
        let x = self.b.ins().bxor(a, b);
        let y = self.b.ins().bxor(a, r);
        let o = self.b.ins().band(x, y);
        let v = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
        self.set_flag(C, c);
        self.set_flag(V, v);
        self.nz(r);
        r
    }
    fn imm(&mut self, x: u32) -> Value {
        self.b.ins().iconst(types::I32, x as i64)
    }
    /// Bit `n` of `x` as a flag value.
    fn bit(&mut self, x: Value, n: u32) -> Value {
        let s = self.b.ins().ushr_imm_u(x, n as i64);
        let s = self.b.ins().band_imm_u(s, 1);
        self.b.ins().ireduce(types::I8, s)
    }
    fn add_cycles(&mut self, n: u64) {
        let c = self.b.use_var(self.cyc);
        let c = self.b.ins().iadd_imm_s(c, n as i64);
        self.b.def_var(self.cyc, c);
    }
    fn count_insn(&mut self) {
        let c = self.b.use_var(self.insns);
        let c = self.b.ins().iadd_imm_s(c, 1);
        self.b.def_var(self.insns, c);
    }

    /// The host address of an access of `size` bytes at `a` if it lies in the memory of
    /// `len` bytes starting at `base` and is aligned (bytes: any address), else None: the
    /// code continues in `miss`. Rotating the offset right by log2(size) moves misaligned
    /// low bits to the top, so one unsigned compare checks both.
    fn in_bounds(&mut self, a: Value, base: u32, len: u32, size: u32, mem: Value, miss: Block) -> Value {
        let o = if base == 0 { a } else { self.b.ins().iadd_imm_s(a, -(base as i64)) };
        let sh = size.trailing_zeros();
        let key = if sh == 0 { o } else { self.b.ins().rotr_imm_u(o, sh as i64) };
        let lim = ((len - size) >> sh) as i64;
        let bad = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, key, lim);
        let hit = self.b.create_block();
        self.b.ins().brif(bad, miss, &[], hit, &[]);
        self.b.switch_to_block(hit);
        let o64 = self.b.ins().uextend(self.ptr, o);
        self.b.ins().iadd(mem, o64)
    }

    /// A load of `size` bytes (sign-extended if `signed`) from `a` into `rt`: RAM, then flash;
    /// elsewhere leave before the op (the engine's loop then interprets it).
    fn load(&mut self, o: &BlockOp, a: Value, size: u32, signed: bool, rt: u8) {
        let (miss, flash_miss, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(flash_miss);
        let ram_len = self.tgt.ram_len;
        let flash_len = self.tgt.flash.len() as u32;
        let (ram, flash) = (self.ram, self.flash);
        let h = self.in_bounds(a, RAM_BASE, ram_len, size, ram, miss);
        let v = self.host_load(h, size, signed);
        self.w(rt, v);
        self.add_cycles(t::LDST);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(miss);
        let h = self.in_bounds(a, 0, flash_len, size, flash, flash_miss);
        let v = self.host_load(h, size, signed);
        self.w(rt, v);
        self.add_cycles(t::LDST);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(flash_miss);
        self.exit_at(o.pc);
        self.b.switch_to_block(done);
    }

    fn host_load(&mut self, h: Value, size: u32, signed: bool) -> Value {
        let f = MemFlagsData::new().with_notrap();
        match (size, signed) {
            (4, _) => self.b.ins().load(types::I32, f, h, 0),
            (2, false) => self.b.ins().uload16(types::I32, f, h, 0),
            (2, true) => self.b.ins().sload16(types::I32, f, h, 0),
            (_, false) => self.b.ins().uload8(types::I32, f, h, 0),
            (_, true) => self.b.ins().sload8(types::I32, f, h, 0),
        }
    }

    /// A store of `size` bytes of `v` at `a`: RAM; elsewhere leave before the op.
    fn store(&mut self, o: &BlockOp, a: Value, v: Value, size: u32) {
        let (miss, done) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(miss);
        let (ram, ram_len) = (self.ram, self.tgt.ram_len);
        let h = self.in_bounds(a, RAM_BASE, ram_len, size, ram, miss);
        let f = MemFlagsData::new().with_notrap();
        match size {
            4 => self.b.ins().store(f, v, h, 0),
            2 => self.b.ins().istore16(f, v, h, 0),
            _ => self.b.ins().istore8(f, v, h, 0),
        };
        self.add_cycles(t::LDST);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(miss);
        self.exit_at(o.pc);
        self.b.switch_to_block(done);
    }

    fn body(&mut self, ops: &[BlockOp]) {
        let start = ops[0].pc;
        self.check(0, start);
        let last = ops.len() - 1;
        for (k, o) in ops.iter().enumerate() {
            let next = o.pc.wrapping_add(o.op.size());
            if inline_cost(&o.op, self.tgt.mul_cycles).is_none() {
                self.call_helper(k, o.pc, next, k == last);
                continue;
            }
            // counted once done (a load or store that leaves first has not run); a branch
            // counts itself before it leaves
            if !self.op(o, start) {
                return;
            }
            self.count_insn();
            if k == last {
                self.goto(next, start);
                return;
            }
        }
    }

    /// Emit an inlined op; false if it ended the function.
    fn op(&mut self, o: &BlockOp, start: u32) -> bool {
        use Op::*;
        let alu = t::ALU;
        match o.op {
            LslImm { rd, rm, imm } => {
                let x = self.r(rm);
                let r = if imm == 0 {
                    x
                } else {
                    let c = self.bit(x, 32 - imm as u32);
                    self.set_flag(C, c);
                    self.b.ins().ishl_imm_u(x, imm as i64)
                };
                self.nz(r);
                self.w(rd, r);
            }
            LsrImm { rd, rm, imm } => {
                let x = self.r(rm);
                let c = self.bit(x, imm as u32 - 1);
                self.set_flag(C, c);
                let r = if imm == 32 { self.imm(0) } else { self.b.ins().ushr_imm_u(x, imm as i64) };
                self.nz(r);
                self.w(rd, r);
            }
            AsrImm { rd, rm, imm } => {
                let x = self.r(rm);
                let c = self.bit(x, imm.min(32) as u32 - 1);
                self.set_flag(C, c);
                let r = self.b.ins().sshr_imm_u(x, imm.min(31) as i64);
                self.nz(r);
                self.w(rd, r);
            }
            AddsReg { rd, rn, rm } => {
                let (a, b) = (self.r(rn), self.r(rm));
                let r = self.adds(a, b);
                self.w(rd, r);
            }
            SubsReg { rd, rn, rm } => {
                let (a, b) = (self.r(rn), self.r(rm));
                let r = self.subs(a, b);
                self.w(rd, r);
            }
            AddsImm { rd, rn, imm } => {
                let (a, b) = (self.r(rn), self.imm(imm as u32));
                let r = self.adds(a, b);
                self.w(rd, r);
            }
            SubsImm { rd, rn, imm } => {
                let (a, b) = (self.r(rn), self.imm(imm as u32));
                let r = self.subs(a, b);
                self.w(rd, r);
            }
            MovsImm { rd, imm } => {
                let r = self.imm(imm as u32);
                self.nz(r);
                self.w(rd, r);
            }
            CmpImm { rn, imm } => {
                let (a, b) = (self.r(rn), self.imm(imm as u32));
                self.subs(a, b);
            }
            CmpHi { rn, rm } => {
                let (a, b) = (self.r(rn), self.r(rm));
                self.subs(a, b);
            }
            MovConst { rd, val } => {
                let r = self.imm(val);
                self.w(rd, r);
            }
            AddSpImm { rd, off } => {
                let sp = self.r(13);
                let r = self.b.ins().iadd_imm_s(sp, off as i64);
                self.w(rd, r);
            }
            AdjSp { delta } => {
                let sp = self.r(13);
                let r = self.b.ins().iadd_imm_s(sp, delta as i64);
                self.write_sp(r);
            }
            AddConst { rd, val } => {
                let x = self.r(rd);
                let r = self.b.ins().iadd_imm_s(x, val as i32 as i64);
                if rd == 13 {
                    self.write_sp(r);
                } else {
                    self.w(rd, r);
                }
            }
            AddHi { rd, rm } => {
                let (a, b) = (self.r(rd), self.r(rm));
                let r = self.b.ins().iadd(a, b);
                self.w(rd, r);
            }
            MovHi { rd, rm } => {
                let x = self.r(rm);
                self.w(rd, x);
            }
            Sxth { rd, rm } | Sxtb { rd, rm } | Uxth { rd, rm } | Uxtb { rd, rm } => {
                let x = self.r(rm);
                let r = match o.op {
                    Sxth { .. } => {
                        let h = self.b.ins().ireduce(types::I16, x);
                        self.b.ins().sextend(types::I32, h)
                    }
                    Sxtb { .. } => {
                        let h = self.b.ins().ireduce(types::I8, x);
                        self.b.ins().sextend(types::I32, h)
                    }
                    Uxth { .. } => self.b.ins().band_imm_u(x, 0xFFFF),
                    _ => self.b.ins().band_imm_u(x, 0xFF),
                };
                self.w(rd, r);
            }
            Rev { rd, rm } => {
                let x = self.r(rm);
                let r = self.b.ins().bswap(x);
                self.w(rd, r);
            }
            Rev16 { rd, rm } => {
                let x = self.r(rm);
                let a = self.b.ins().band_imm_u(x, 0x00FF_00FF);
                let a = self.b.ins().ishl_imm_u(a, 8);
                let c = self.b.ins().ushr_imm_u(x, 8);
                let c = self.b.ins().band_imm_u(c, 0x00FF_00FF);
                let r = self.b.ins().bor(a, c);
                self.w(rd, r);
            }
            Revsh { rd, rm } => {
                let x = self.r(rm);
                let h = self.b.ins().ireduce(types::I16, x);
                let h = self.b.ins().bswap(h);
                let r = self.b.ins().sextend(types::I32, h);
                self.w(rd, r);
            }
            Nop | Yield => {}
            Alu { op, rdn, rm } => {
                let (a, b) = (self.r(rdn), self.r(rm));
                let r = match op {
                    alu_op::AND | alu_op::TST => self.b.ins().band(a, b),
                    alu_op::EOR => self.b.ins().bxor(a, b),
                    alu_op::ORR => self.b.ins().bor(a, b),
                    alu_op::BIC => self.b.ins().band_not(a, b),
                    alu_op::MVN => self.b.ins().bnot(b),
                    alu_op::MUL => self.b.ins().imul(a, b),
                    alu_op::RSB => {
                        let z = self.imm(0);
                        self.subs(z, b)
                    }
                    alu_op::CMP => self.subs(a, b),
                    _ => self.adds(a, b), // CMN
                };
                if !matches!(op, alu_op::RSB | alu_op::CMP | alu_op::CMN) {
                    self.nz(r);
                }
                if !matches!(op, alu_op::TST | alu_op::CMP | alu_op::CMN) {
                    self.w(rdn, r);
                }
            }
            LdrLit { rt, addr } => {
                let a = addr as usize;
                match self.tgt.flash.get(a..a + 4) {
                    Some(b) => {
                        let v = self.imm(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                        self.w(rt, v);
                        self.add_cycles(t::LDST);
                    }
                    None => {
                        let x = self.imm(addr);
                        self.load(o, x, 4, false, rt);
                    }
                }
                return true;
            }
            LsReg { kind, rt, rn, rm } => {
                let (x, y) = (self.r(rn), self.r(rm));
                let a = self.b.ins().iadd(x, y);
                match kind {
                    0..=2 => {
                        let v = self.r(rt);
                        self.store(o, a, v, [4, 2, 1][kind as usize]);
                    }
                    3 => self.load(o, a, 1, true, rt),
                    4 => self.load(o, a, 4, false, rt),
                    5 => self.load(o, a, 2, false, rt),
                    6 => self.load(o, a, 1, false, rt),
                    _ => self.load(o, a, 2, true, rt),
                }
                return true;
            }
            StrImm { rt, rn, off } | StrbImm { rt, rn, off } | StrhImm { rt, rn, off } => {
                let x = self.r(rn);
                let a = self.b.ins().iadd_imm_s(x, off as i64);
                let v = self.r(rt);
                let size = match o.op {
                    StrImm { .. } => 4,
                    StrhImm { .. } => 2,
                    _ => 1,
                };
                self.store(o, a, v, size);
                return true;
            }
            LdrImm { rt, rn, off } | LdrbImm { rt, rn, off } | LdrhImm { rt, rn, off } => {
                let x = self.r(rn);
                let a = self.b.ins().iadd_imm_s(x, off as i64);
                let size = match o.op {
                    LdrImm { .. } => 4,
                    LdrhImm { .. } => 2,
                    _ => 1,
                };
                self.load(o, a, size, false, rt);
                return true;
            }
            StrSp { rt, off } => {
                let x = self.r(13);
                let a = self.b.ins().iadd_imm_s(x, off as i64);
                let v = self.r(rt);
                self.store(o, a, v, 4);
                return true;
            }
            LdrSp { rt, off } => {
                let x = self.r(13);
                let a = self.b.ins().iadd_imm_s(x, off as i64);
                self.load(o, a, 4, false, rt);
                return true;
            }
            B { target } => {
                self.count_insn();
                self.add_cycles(t::BRANCH);
                self.goto(target, start);
                return false;
            }
            Bl { target } => {
                self.count_insn();
                let lr = self.imm(o.pc.wrapping_add(4) | 1);
                self.w(14, lr);
                self.add_cycles(t::BL);
                self.goto(target, start);
                return false;
            }
            Bcond { cond, target } => {
                self.count_insn();
                let p = self.cond(cond);
                let (yes, no) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(p, yes, &[], no, &[]);
                self.b.switch_to_block(yes);
                self.add_cycles(t::BRANCH);
                self.goto(target, start);
                self.b.switch_to_block(no);
                self.add_cycles(t::BCOND_NOT_TAKEN);
                self.goto(o.pc.wrapping_add(2), start);
                return false;
            }
            _ => unreachable!("not an inlined op"),
        }
        self.add_cycles(alu);
        true
    }

    /// SP = v & !3 and the low-water mark (`Cpu::write_sp`).
    fn write_sp(&mut self, v: Value) {
        let v = self.b.ins().band_imm_u(v, !3i64);
        self.w(13, v);
        let l = self.tgt.layout.sp_low;
        let low = self.b.ins().load(types::I32, Self::mf(), self.core, l);
        let m = self.b.ins().umin(low, v);
        self.b.ins().store(Self::mf(), m, self.core, l);
    }

    /// Control goes on at `target` (a taken branch, a fall-through): to the check point of
    /// the region's block starting there (a block branching to its own start `start` loops),
    /// else leave.
    fn goto(&mut self, target: u32, start: u32) {
        debug_assert!(self.heads.iter().any(|h| h.0 == start));
        match self.heads.iter().find(|h| h.0 == target) {
            Some(&(_, h)) => {
                self.b.ins().jump(h, &[]);
            }
            None => self.exit_at(target),
        }
    }

    /// The condition `cond` (0..=13) on the flag variables, as an I8 truth value.
    fn cond(&mut self, cond: u8) -> Value {
        let fl = self.flags;
        let [n, z, c, v] = fl.map(|f| self.b.use_var(f));
        let not = |b: &mut FunctionBuilder, x: Value| b.ins().bxor_imm_u(x, 1);
        let b = &mut self.b;
        match cond {
            0 => z,
            1 => not(b, z),
            2 => c,
            3 => not(b, c),
            4 => n,
            5 => not(b, n),
            6 => v,
            7 => not(b, v),
            8 => {
                let nz = not(b, z);
                b.ins().band(c, nz)
            }
            9 => {
                let nc = not(b, c);
                b.ins().bor(nc, z)
            }
            10 => b.ins().icmp(IntCC::Equal, n, v),
            11 => b.ins().icmp(IntCC::NotEqual, n, v),
            12 => {
                let ge = b.ins().icmp(IntCC::Equal, n, v);
                let nz = not(b, z);
                b.ins().band(ge, nz)
            }
            _ => {
                let lt = b.ins().icmp(IntCC::NotEqual, n, v);
                b.ins().bor(z, lt)
            }
        }
    }
}
