//! `--check-blocks`: the block engine (cpu/block.rs) or the native engine (cpu/native/, with
//! `--native`) run beside the interpreter, the reference, on two copies of the same board; at
//! the end of every block (native: every return from compiled code) the interpreter is
//! brought to the same instruction count and the two are compared (core state, cycle count,
//! exception state, core peripherals, flash system; RAM every `RAM_EVERY` blocks and at the
//! end). The first difference is reported as one line.

use super::block::{BlockCache, BlockEnd};
use super::native::NativeCache;
use crate::bus::Bus;
use crate::machine::{Cpu, Engine, Stop};

/// Compare RAM after this many blocks (a whole-RAM compare costs about as much as a block).
const RAM_EVERY: u64 = 64;

/// The outcome of a checked run: the stop both engines reached, or the first difference.
pub enum Checked {
    Same(Stop),
    Differ(String),
}

/// The engine under check: one step of it (`block_step` or `native_step`).
enum Caches<B> {
    Blocks(BlockCache<B>),
    Native(NativeCache<B>),
}

/// Run `a` on its engine (`a.engine`: the native engine, else the block engine) and `b` on the
/// interpreter (two machines built alike). On a board the native engine does not compile for,
/// it is the interpreter against itself.
pub fn run_checked<B: Bus>(a: &mut Cpu<B>, b: &mut Cpu<B>) -> Checked {
    match (a.v7, a.flash.on) {
        (false, false) => check_loop::<B, false, false>(a, b),
        (true, false) => check_loop::<B, true, false>(a, b),
        (false, true) => check_loop::<B, false, true>(a, b),
        (true, true) => check_loop::<B, true, true>(a, b),
    }
}

fn check_loop<B: Bus, const V7: bool, const FLASH: bool>(a: &mut Cpu<B>, b: &mut Cpu<B>) -> Checked {
    let native = a.engine == Engine::Native && a.native_applies();
    let mut caches = if native {
        let mut c = std::mem::take(&mut a.native);
        c.fit_for(a.ops.len());
        Caches::Native(c)
    } else {
        let mut c = std::mem::take(&mut a.blocks);
        c.fit(a.ops.len());
        Caches::Blocks(c)
    };
    let mut blocks = 0u64;
    let out = loop {
        let at = a.cpu.pc;
        let step = match &mut caches {
            Caches::Blocks(c) => a.block_step::<V7, FLASH>(c),
            Caches::Native(c) => a.native_step(c),
        };
        match step {
            Err(stop) => {
                // the interpreter must reach the same stop after the same instructions
                let sb = loop {
                    if let Some(s) = b.iteration::<false, V7, FLASH>(u64::MAX) {
                        break s;
                    }
                    if b.insns > a.insns {
                        break Stop::Halted;
                    }
                };
                if sb != stop {
                    break Checked::Differ(format!(
                        "the block engine stopped ({:?}) after {} instructions, the interpreter {}",
                        stop,
                        a.insns,
                        if sb == Stop::Halted { "ran on".to_string() } else { format!("stopped ({:?})", sb) }
                    ));
                }
                break match difference(a, b, true) {
                    Some(d) => Checked::Differ(format!("at the stop: {}", d)),
                    None => Checked::Same(stop),
                };
            }
            // both engines are between the same two instructions only after a whole block
            Ok(BlockEnd::Boundary) => {
                while b.insns < a.insns {
                    if let Some(s) = b.iteration::<false, V7, FLASH>(u64::MAX) {
                        return Checked::Differ(format!(
                            "the interpreter stopped ({:?}) after {} instructions, the block engine ran on to {}",
                            s, b.insns, a.insns
                        ));
                    }
                }
                blocks += 1;
                if let Some(d) = difference(a, b, blocks.is_multiple_of(RAM_EVERY)) {
                    break Checked::Differ(format!("after the block at pc=0x{:08x}: {}", at, d));
                }
            }
            Ok(_) => {}
        }
    };
    match caches {
        Caches::Blocks(c) => a.blocks = c,
        Caches::Native(c) => a.native = c,
    }
    out
}

/// The first thing that differs between the two machines, as "what: blocks X, interpreter Y".
fn difference<B: Bus>(a: &Cpu<B>, b: &Cpu<B>, ram: bool) -> Option<String> {
    macro_rules! same {
        ($($f:ident).+) => {
            if a.$($f).+ != b.$($f).+ {
                return Some(format!(
                    "{} differs (instruction {}, cycle {}): blocks {:?}, interpreter {:?}",
                    stringify!($($f).+),
                    a.insns,
                    a.cyc,
                    a.$($f).+,
                    b.$($f).+
                ));
            }
        };
    }
    same!(insns);
    same!(cyc);
    same!(cpu.pc);
    same!(cpu.r);
    same!(cpu);
    same!(next_event);
    same!(exc);
    same!(systick);
    same!(dwt);
    same!(fpu);
    same!(flash);
    same!(sp_low);
    same!(bus_off);
    same!(st_lat);
    same!(wb_end);
    same!(pending_fault);
    if ram {
        let (ra, rb) = (a.bus.ram(), b.bus.ram());
        if let Some(i) = ra.iter().zip(rb).position(|(x, y)| x != y) {
            return Some(format!(
                "RAM differs at 0x{:08x} (instruction {}, cycle {}): blocks 0x{:02x}, interpreter 0x{:02x}",
                crate::contract::RAM_BASE as usize + i,
                a.insns,
                a.cyc,
                ra[i],
                rb[i]
            ));
        }
    }
    None
}
