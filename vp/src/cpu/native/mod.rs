//! The native engine (`--native`): hot blocks of predecoded flash compiled to host code with
//! Cranelift (translate.rs), run from a small dispatch loop; the interpreter does the rest.
//!
//! A block is the block engine's (cpu/block.rs `ends_block`, at most `MAX_BLOCK` ops). The
//! loop looks the `pc` up in a table with one entry per flash halfword: a compiled block runs;
//! a block not yet entered `HOT` times runs one interpreter step (`Cpu::iteration`) and counts.
//! A hot block is compiled with the warm blocks its branches reach (region.rs): a branch to
//! one of them, or a block branching to its own start, stays inside the compiled code.
//!
//! Where the interpreter runs instead, always: outside flash (code in RAM, possibly rewritten),
//! whenever a deadline is due (`cyc >= next_event`) or may fall inside the block (the compiled
//! code's own check, translate.rs), on boards with flash wait states (their timing is dynamic
//! per fetch: flash lines), and on the debugging bus. So interrupts are taken at the same cycle
//! as on the interpreter. ARMv7-M blocks are translate/thumb2.rs's (the pipelining record and
//! write buffer followed through the block).
//!
//! `--check-blocks` with `--native` runs the interpreter beside it and compares at every
//! return from compiled code (cpu/check.rs).

mod jit;
pub mod region;
pub mod translate;

use super::block::BlockEnd;
use crate::bus::Bus;
use crate::machine::{Cpu, Stop};
use jit::{Compiled, Jit};
use translate::{Layout, Target};

/// Entries of a block before it is compiled. A compile costs about a million host
/// instructions (callgrind, bench-freertos vp-m0), interpreting an instruction about 60: code
/// run fewer times stays interpreted. 4096 from a sweep (256, 1024, 4096, 16384) over
/// bench-freertos, bench-rtoslab and the M0 mixed and tight images (vp/README.md, "Speed").
pub const HOT: u16 = 4096;

/// The compiled blocks of one core: `code[pc / 2]` the block starting at `pc`, `hits` the
/// entries of the ones not compiled yet.
pub struct NativeCache<B> {
    jit: Option<Box<Jit>>,
    code: Vec<Option<Compiled<B>>>,
    hits: Vec<u16>,
    /// Blocks compiled (for tests and `--stats`).
    pub built: u64,
    /// False when the host has no Cranelift back end: the interpreter runs everything.
    pub usable: bool,
    /// Entries before a block is compiled (`HOT`; the tests use 1 to compile every block).
    pub hot: u16,
}

impl<B> Default for NativeCache<B> {
    fn default() -> Self {
        NativeCache { jit: None, code: Vec::new(), hits: Vec::new(), built: 0, usable: true, hot: HOT }
    }
}

impl<B: Bus> NativeCache<B> {
    /// Make the table cover a flash table of `n` ops and start the JIT (also `--check-blocks`).
    pub(crate) fn fit_for(&mut self, n: usize) {
        if self.code.len() != n {
            *self = NativeCache { code: vec![None; n], hits: vec![0; n], hot: self.hot, ..Default::default() };
        }
        if self.jit.is_none() && self.usable {
            self.jit = Jit::new().map(Box::new);
            self.usable = self.jit.is_some() && cfg!(target_endian = "little");
        }
    }
}

impl<B: Bus> Cpu<B> {
    /// Does the native engine compile code on this board? (Boards without flash wait states;
    /// ARMv7-M blocks are translate/thumb2.rs's.)
    pub fn native_applies(&self) -> bool {
        !B::DEBUG && !self.flash.on
    }

    /// `run` on the native engine.
    pub fn run_native(&mut self) -> Stop {
        if !self.native_applies() {
            return self.run_interpreter();
        }
        let mut cache = std::mem::take(&mut self.native);
        cache.fit_for(self.ops.len());
        let stop = loop {
            if let Err(s) = self.native_step(&mut cache) {
                break s;
            }
        };
        self.native = cache;
        stop
    }

    /// One pass of the native engine's loop: a compiled block if there is one at `pc` and no
    /// deadline is due, else one interpreter step. `Boundary` after compiled code ran.
    #[inline(always)]
    pub(crate) fn native_step(&mut self, cache: &mut NativeCache<B>) -> Result<BlockEnd, Stop> {
        let i = (self.cpu.pc >> 1) as usize;
        if self.cyc < self.next_event && i < cache.code.len() {
            if let Some(f) = cache.code[i] {
                let before = self.insns;
                f.call(self);
                if self.insns != before {
                    return Ok(BlockEnd::Boundary);
                }
            } else if cache.usable {
                cache.hits[i] = cache.hits[i].saturating_add(1);
                if cache.hits[i] >= cache.hot {
                    self.compile_block(cache, i);
                }
            }
        }
        let step = if self.v7 {
            self.iteration::<false, true, false>(u64::MAX)
        } else {
            self.iteration::<false, false, false>(u64::MAX)
        };
        match step {
            Some(s) => Err(s),
            None => Ok(BlockEnd::Outside),
        }
    }

    #[cold]
    #[inline(never)]
    fn compile_block(&mut self, cache: &mut NativeCache<B>, i: usize) {
        // ARMv7-M: the block alone (thumb2.rs translates one block a function; region.rs's
        // successors and worth_compiling know ARMv6-M's ops)
        let blocks = if self.v7 {
            vec![region::block_at(&self.ops, i)]
        } else {
            region::region(&self.ops, &cache.hits, cache.hot, i)
        };
        if !self.v7 && !region::worth_compiling(&blocks[0], self.mul_cycles) {
            cache.hits[i] = 0;
            return;
        }
        let ram_len = self.bus.ram().len();
        let (Some(jit), true) = (cache.jit.as_mut(), ram_len >= 4 && ram_len <= u32::MAX as usize) else {
            cache.usable = false;
            return;
        };
        let tgt = Target {
            layout: Layout::of::<B>(),
            ram_len: ram_len as u32,
            flash: self.bus.flash(),
            mul_cycles: self.mul_cycles,
            v7: self.v7.then(|| translate::thumb2::V7Facts::of(self, &blocks[0])),
        };
        translate::translate_region::<B>(jit, &tgt, &blocks);
        match jit.compile::<B>() {
            Some(f) => {
                cache.code[i] = Some(f);
                cache.built += 1;
            }
            None => cache.hits[i] = 0,
        }
    }
}
