//! The block engine: the same instructions as the interpreter (`Cpu::iteration`), run a basic
//! block at a time from a cache of pre-dispatched instructions.
//!
//! A block is the run of predecoded flash ops (`Cpu::ops`) from a start address up to and
//! including the first op that may leave the straight line (`ends_block`), at most
//! `MAX_BLOCK` ops. Each op of a block is stored with its handler: a function compiled for
//! that op variant alone (`handler`), which calls the interpreter's own `exec_g` with the
//! variant known, so the compiler drops the dispatch `match` and the op's unpacking; every
//! semantic and timing rule is the interpreter's, by construction (nothing here knows a
//! cycle figure). Rare ops keep the interpreter's whole `exec_g` (`generic`).
//!
//! Exactness: the block runs instruction by instruction with the interpreter's own
//! per-instruction steps (the `cyc >= next_event` test before each, the flash line wait on
//! boards with wait states, `insns`, `pc`), so interrupts, faults and stops are taken at the
//! same cycle. The block is left as soon as the `pc` an op leaves is not the next op's (a
//! branch taken, a fault, an abandoned LDM/STM, an exception return): what follows is then
//! looked up anew. Flash is read-only, so a block never goes stale; code outside flash (in
//! RAM, possibly self-modified) is never cached: it runs through the interpreter's step.
//! `--check-blocks` (cpu/check.rs) runs the interpreter beside it and compares at each block end.
//!
//! Not the default (`Engine`, `--blocks`): an indirect call per instruction costs more host
//! instructions than the interpreter's `match` saves here (callgrind, vp/README.md "Speed").

use super::decode::Op;
use crate::bus::Bus;
use crate::machine::{Cpu, Stop};

/// The longest block: a bound on the time spent decoding through data that is never run.
pub const MAX_BLOCK: usize = 64;

/// An op's handler: runs the op at `pc` (the loop has counted it and moved `pc` past its
/// first halfword, as the interpreter does).
pub type Handler<B> = fn(&mut Cpu<B>, Op, u32);

/// One instruction of a block: its handler, the op, its address and the address after it.
pub struct Insn<B> {
    run: Handler<B>,
    op: Op,
    pc: u32,
    next: u32,
}

impl<B> Clone for Insn<B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B> Copy for Insn<B> {}

/// How a block ended (`--check-blocks` compares the two engines only at a boundary where
/// both have done the same work).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockEnd {
    /// After its last instruction, or at a deadline before an instruction.
    Boundary,
    /// An instruction waited for its flash line and the wait reached a deadline: the
    /// interpreter's loop goes back to its service step there without executing it.
    FlashWait,
    /// Not run (the code is outside the flash table: the interpreter's step ran instead).
    Outside,
}

/// The blocks found so far, for one core (`V7`) on one bus: `index[pc / 2]` holds the block
/// starting at `pc` as `start << 32 | len` into `code` (0: not built yet).
pub struct BlockCache<B> {
    index: Vec<u64>,
    code: Vec<Insn<B>>,
    /// Blocks built (for tests and `--stats`).
    pub built: u64,
}

impl<B> Default for BlockCache<B> {
    fn default() -> Self {
        BlockCache { index: Vec::new(), code: Vec::new(), built: 0 }
    }
}

/// May `op` leave the straight line (a branch, an exception or its return, a change of the
/// execution state)? Ends a block. Only a bound on the block's length: the loop also leaves a
/// block whenever the `pc` after an op is not the next op's, whatever the op.
pub fn ends_block(op: &Op) -> bool {
    match op {
        Op::B { .. }
        | Op::Bcond { .. }
        | Op::Bl { .. }
        | Op::Bx { .. }
        | Op::Blx { .. }
        | Op::MovPc { .. }
        | Op::AddPc { .. }
        | Op::Svc { .. }
        | Op::Bkpt { .. }
        | Op::Undef { .. }
        | Op::Wfi
        | Op::Wfe
        | Op::Cpsie
        | Op::Cpsid
        | Op::Msr { .. }
        | Op::Barrier { .. }
        | Op::It { .. }
        | Op::CpsF { .. }
        | Op::BW { .. }
        | Op::BcondW { .. }
        | Op::Cbz { .. }
        | Op::Tb { .. }
        | Op::Fp { .. } => true,
        Op::Pop { list } => list & 0x100 != 0,
        _ => false,
    }
}

/// The interpreter's whole dispatch, for ops without a handler of their own.
fn generic<B: Bus, const V7: bool>(m: &mut Cpu<B>, op: Op, pc: u32) {
    m.exec_g::<V7>(op, pc)
}

/// `handler`: for each listed variant, a function in which the variant is known (the `if
/// let` tells the compiler; it always holds), so `exec_g`'s `match` folds to that one arm.
macro_rules! handlers {
    ($($v:ident),* $(,)?) => {
        /// The handler of `op` on the core `V7`.
        pub fn handler<B: Bus, const V7: bool>(op: &Op) -> Handler<B> {
            match op {
                $(Op::$v { .. } => {
                    fn h<B: Bus, const V7: bool>(m: &mut Cpu<B>, op: Op, pc: u32) {
                        if let Op::$v { .. } = op {
                            m.exec_g::<V7>(op, pc)
                        }
                    }
                    h::<B, V7>
                })*
                _ => generic::<B, V7>,
            }
        }
    };
}

// The 16-bit set, then the Thumb-2 ops compilers emit in loops; the rest run `generic`.
handlers!(
    LslImm, LsrImm, AsrImm, AddsReg, SubsReg, AddsImm, SubsImm, MovsImm, CmpImm, Alu, AddHi, AddConst, AddPc, CmpHi,
    MovHi, MovPc, MovConst, Bx, Blx, LdrLit, LsReg, StrImm, LdrImm, StrbImm, LdrbImm, StrhImm, LdrhImm, StrSp, LdrSp,
    AddSpImm, AdjSp, Sxth, Sxtb, Uxth, Uxtb, Rev, Rev16, Revsh, Push, Pop, Stm, Ldm, Nop, Bcond, B, Bl, AndImmW,
    BicImmW, OrrImmW, EorImmW, MovImmW, MvnImmW, AddImmW, SubImmW, RsbImmW, AndRegW, BicRegW, OrrRegW, EorRegW,
    MovRegW, MvnRegW, AddRegW, AdcRegW, SbcRegW, SubRegW, RsbRegW, ShiftReg, MovT, Bfi, Bfx, Extend, Mul, MulLong, Div,
    It, LdImm, LdPre, LdPost, LdReg, Dual, Multi, LdLit, Tb, BcondW, BW, Cbz,
);

impl<B: Bus> BlockCache<B> {
    /// Make the index cover a flash table of `n` ops (a new cache, or a table replaced).
    pub(crate) fn fit(&mut self, n: usize) {
        if self.index.len() != n {
            *self = BlockCache { index: vec![0; n], ..Default::default() };
        }
    }

    /// The block starting at flash table index `i` (`i < ops.len()`), built on first use.
    #[inline(always)]
    fn get<const V7: bool>(&mut self, i: usize, ops: &[Op]) -> (usize, usize) {
        let e = self.index[i];
        if e != 0 {
            return ((e >> 32) as usize, (e & 0xFFFF_FFFF) as usize);
        }
        self.build::<V7>(i, ops)
    }

    #[cold]
    #[inline(never)]
    fn build<const V7: bool>(&mut self, i: usize, ops: &[Op]) -> (usize, usize) {
        let start = self.code.len();
        let mut k = i;
        while let Some(op) = ops.get(k) {
            let pc = (k * 2) as u32;
            let next = pc.wrapping_add(op.size());
            self.code.push(Insn { run: handler::<B, V7>(op), op: *op, pc, next });
            if ends_block(op) || self.code.len() - start == MAX_BLOCK {
                break;
            }
            k = (next >> 1) as usize;
        }
        let len = self.code.len() - start;
        self.index[i] = (start as u64) << 32 | len as u64;
        self.built += 1;
        (start, len)
    }
}

impl<B: Bus> Cpu<B> {
    /// `run` on the block engine.
    pub fn run_blocks(&mut self) -> Stop {
        match (self.v7, self.flash.on) {
            (false, false) => self.run_blocks_v6(),
            (true, false) => self.run_blocks_v7(),
            (false, true) => self.blocks_loop::<false, true>(),
            (true, true) => self.blocks_loop::<true, true>(),
        }
    }

    #[inline(never)]
    fn run_blocks_v6(&mut self) -> Stop {
        self.blocks_loop::<false, false>()
    }

    #[inline(never)]
    fn run_blocks_v7(&mut self) -> Stop {
        self.blocks_loop::<true, false>()
    }

    #[inline(always)]
    fn blocks_loop<const V7: bool, const FLASH: bool>(&mut self) -> Stop {
        // the cache is the loop's while it runs (the handlers borrow the core mutably)
        let mut cache = std::mem::take(&mut self.blocks);
        cache.fit(self.ops.len());
        let stop = loop {
            if let Err(s) = self.block_step::<V7, FLASH>(&mut cache) {
                break s;
            }
        };
        self.blocks = cache;
        stop
    }

    /// One pass of the block engine's loop: the service step if due (as the interpreter's
    /// `iteration`), else one block (or, outside flash, one interpreted instruction).
    #[inline(always)]
    pub(crate) fn block_step<const V7: bool, const FLASH: bool>(
        &mut self,
        cache: &mut BlockCache<B>,
    ) -> Result<BlockEnd, Stop> {
        if self.cyc >= self.next_event {
            return match self.iteration::<false, V7, FLASH>(u64::MAX) {
                Some(s) => Err(s),
                None => Ok(BlockEnd::Outside),
            };
        }
        let i = (self.cpu.pc >> 1) as usize;
        if i >= self.ops.len() {
            return match self.iteration::<false, V7, FLASH>(u64::MAX) {
                Some(s) => Err(s),
                None => Ok(BlockEnd::Outside),
            };
        }
        let (start, len) = cache.get::<V7>(i, &self.ops);
        Ok(self.exec_block::<V7, FLASH>(&cache.code[start..start + len]))
    }

    /// Run the instructions of a block, each with the interpreter's per-instruction steps,
    /// until the block ends, a deadline comes or an op leaves the straight line.
    #[inline(always)]
    fn exec_block<const V7: bool, const FLASH: bool>(&mut self, code: &[Insn<B>]) -> BlockEnd {
        for ins in code {
            if self.cyc >= self.next_event {
                return BlockEnd::Boundary;
            }
            if FLASH && self.flash_fetch(ins.pc) && self.cyc >= self.next_event {
                return BlockEnd::FlashWait;
            }
            self.insns += 1;
            self.cpu.pc = ins.pc.wrapping_add(2);
            (ins.run)(self, ins.op, ins.pc);
            if self.cpu.pc != ins.next {
                break;
            }
        }
        BlockEnd::Boundary
    }
}
