//! The instruction trace (`--itrace FILE`): one line per executed instruction, plus the
//! exception entries and returns between them (docs/board.md, 'Instruction trace').
//!
//! Nothing here runs unless `--itrace` was given: the CLI then calls `Machine::run_traced`
//! (a copy of the dispatch loop that records each instruction) instead of `Machine::run`,
//! and the exception code (slow path only) looks at `Machine::itrace`.
//!
//! Line formats (fields separated by one space, cycle in decimal):
//!
//! ```text
//! <cycle> 0x<pc, 8 hex digits> <symbol>[+0x<offset>] <halfword> [<halfword>]
//! <cycle> exc_entry <exc>
//! <cycle> exc_return <exc>
//! <cycle> tail_chain <from> <exc>
//! ```

use crate::bus::Bus;
use crate::contract::{FLASH_SIZE, RAM_BASE};
use crate::symbols::Symbols;
use std::io::Write;

/// Parse `--itrace-window A:B` (either side may be empty) into `[A, B)`.
pub fn parse_window(s: &str) -> Option<(u64, u64)> {
    let (a, b) = s.split_once(':')?;
    let a = if a.trim().is_empty() { 0 } else { crate::numbers::parse_number(a)? };
    let b = if b.trim().is_empty() { u64::MAX } else { crate::numbers::parse_number(b)? };
    (a < b).then_some((a, b))
}

pub struct ITrace {
    out: Box<dyn Write>,
    /// Record only what starts in `[start, end)`.
    pub start: u64,
    pub end: u64,
    /// Function symbols `(address, name)`, sorted by address.
    funcs: Vec<(u32, String)>,
    /// The function range of the last lookup: `[lo, hi)` belongs to `funcs[idx]` (None:
    /// below the first function).
    cache: (u32, u32, Option<usize>),
    error: Option<String>,
}

impl ITrace {
    pub fn new(out: Box<dyn Write>, syms: &Symbols, start: u64, end: u64) -> ITrace {
        ITrace { out, start, end, funcs: syms.funcs().to_vec(), cache: (1, 0, None), error: None }
    }

    #[inline]
    fn in_window(&self, c: u64) -> bool {
        c >= self.start && c < self.end && self.error.is_none()
    }

    /// The function holding `pc` (binary search, cached per function).
    #[inline]
    fn func(&mut self, pc: u32) -> Option<usize> {
        let (lo, hi, idx) = self.cache;
        if pc >= lo && pc < hi {
            return idx;
        }
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        let hi = self.funcs.get(i).map_or(u32::MAX, |f| f.0);
        let (lo, idx) = match i.checked_sub(1) {
            Some(j) => (self.funcs[j].0, Some(j)),
            None => (0, None),
        };
        self.cache = (lo, hi, idx);
        idx
    }

    fn check(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r {
            self.error.get_or_insert(e.to_string());
        }
    }

    /// The instruction at `pc` starts at cycle `c`.
    #[inline]
    pub fn insn<B: Bus>(&mut self, c: u64, pc: u32, mem: &B) {
        if !self.in_window(c) {
            return;
        }
        let half = |a: u32| -> u16 {
            if a < FLASH_SIZE {
                mem.flash_half(a)
            } else {
                mem.ram_half(a.wrapping_sub(RAM_BASE)).unwrap_or(0)
            }
        };
        let hw = half(pc);
        let f = self.func(pc);
        let out = &mut self.out;
        let mut r = match f {
            Some(i) => {
                let (a, name) = &self.funcs[i];
                let off = pc - a;
                if off == 0 {
                    write!(out, "{} 0x{:08x} {} {:04x}", c, pc, name, hw)
                } else {
                    write!(out, "{} 0x{:08x} {}+0x{:x} {:04x}", c, pc, name, off, hw)
                }
            }
            None => write!(out, "{} 0x{:08x} ? {:04x}", c, pc, hw),
        };
        if r.is_ok() && crate::cpu::decode::is_32bit(hw) {
            r = write!(out, " {:04x}", half(pc.wrapping_add(2)));
        }
        if r.is_ok() {
            r = out.write_all(b"\n");
        }
        self.check(r);
    }

    /// Exception entry begins at boundary `c` (its first handler instruction follows).
    pub fn exc_entry(&mut self, c: u64, exc: u32) {
        if self.in_window(c) {
            let r = writeln!(self.out, "{} exc_entry {}", c, exc);
            self.check(r);
        }
    }

    /// The return sequence from handler `exc` begins at `c` (after the BX/POP's own cycles).
    pub fn exc_return(&mut self, c: u64, exc: u32) {
        if self.in_window(c) {
            let r = writeln!(self.out, "{} exc_return {}", c, exc);
            self.check(r);
        }
    }

    /// Handler `from` returns straight into `exc`; the sequence begins at `c`.
    pub fn tail_chain(&mut self, c: u64, from: u32, exc: u32) {
        if self.in_window(c) {
            let r = writeln!(self.out, "{} tail_chain {} {}", c, from, exc);
            self.check(r);
        }
    }

    /// Flush; the first write error of the run, if any.
    pub fn finish(&mut self) -> Result<(), String> {
        let r = self.out.flush();
        self.check(r);
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
