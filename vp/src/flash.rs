//! The flash system between the core and its code: the flash reads one line (`line_bytes`) per
//! access, which takes 1 + wait states cycles; a prefetch buffer reads the next line while the
//! core executes the current one; an ART accelerator (STM32F4) adds an instruction cache and
//! a data cache of whole lines. docs/board.md ("The flash systems") gives each rule's source.
//!
//! Only boards with wait states use it (`on`); a board at zero wait states runs a loop that
//! never calls it, so its cycle counts cannot move.
//!
//! Time convention: a line "arrives" when the first instruction of it starts; the core's own
//! costs (a taken branch's refill, an LDR's data phase) already hold the one cycle a
//! zero-wait-state access takes, so a miss adds `ws`.

use crate::board::{Accelerator, Board};
use crate::bus::Bus;
use crate::contract::FLASH_SIZE;
use crate::machine::Cpu;

/// The ART accelerator's caches (RM0090 section 3.5.2 / 3.2: 64 lines of 128 bits on I-Code,
/// 8 lines of 128 bits on D-Code).
pub const ART_ICACHE_LINES: usize = 64;
pub const ART_DCACHE_LINES: usize = 8;

/// A small fully associative cache of line numbers, least recently used first out. The
/// reference manual does not name the mapping; LRU is what it says for replacement.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LineCache {
    /// Most recently used last.
    lines: Vec<u32>,
    capacity: usize,
}

impl LineCache {
    pub fn new(capacity: usize) -> LineCache {
        LineCache { lines: Vec::with_capacity(capacity), capacity }
    }

    /// True if `line` is held (and now most recently used).
    pub fn touch(&mut self, line: u32) -> bool {
        match self.lines.iter().position(|&l| l == line) {
            Some(i) => {
                let l = self.lines.remove(i);
                self.lines.push(l);
                true
            }
            None => false,
        }
    }

    pub fn contains(&self, line: u32) -> bool {
        self.lines.contains(&line)
    }

    /// Fill `line` (after a miss), evicting the least recently used one when full.
    pub fn fill(&mut self, line: u32) {
        if self.capacity == 0 || self.touch(line) {
            return;
        }
        if self.lines.len() == self.capacity {
            self.lines.remove(0);
        }
        self.lines.push(line);
    }
}

/// The state of the flash system of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlashSystem {
    /// The board has wait states: the run loop calls `fetch`, loads call `data`.
    pub on: bool,
    /// log2 of the line size in bytes.
    pub shift: u32,
    /// Extra cycles of one flash access beyond the zero-wait-state one.
    pub ws: u64,
    /// The next line is read ahead (a prefetch buffer; the ART's prefetch).
    pub prefetch: bool,
    /// Lines before the current one still held by the prefetch buffer (its blocks minus 2:
    /// the current and the next).
    pub behind: u32,
    /// The line the core executes from (u32::MAX: none yet).
    pub cur: u32,
    /// Cycle at which line `cur + 1` is in the buffer (read ahead); u64::MAX: not requested.
    pub next_ready: u64,
    pub icache: LineCache,
    pub dcache: LineCache,
    /// What the flash system did (for tests and debugging; no output reads them yet).
    pub fetch_misses: u64,
    pub fetch_stall_cycles: u64,
    pub data_misses: u64,
}

impl FlashSystem {
    pub fn new(board: &Board) -> FlashSystem {
        let art = board.accelerator == Accelerator::Art;
        FlashSystem {
            on: board.flash_wait_states > 0,
            shift: board.flash_line_bytes.max(1).trailing_zeros(),
            ws: board.flash_wait_states,
            prefetch: board.accelerator != Accelerator::None,
            behind: board.prefetch_blocks.saturating_sub(2),
            cur: u32::MAX,
            next_ready: u64::MAX,
            icache: LineCache::new(if art { ART_ICACHE_LINES } else { 0 }),
            dcache: LineCache::new(if art { ART_DCACHE_LINES } else { 0 }),
            fetch_misses: 0,
            fetch_stall_cycles: 0,
            data_misses: 0,
        }
    }

    /// The line of flash address `addr`.
    #[inline(always)]
    pub fn line(&self, addr: u32) -> u32 {
        addr >> self.shift
    }

    /// The core starts an instruction of flash line `line` (not `cur`) at cycle `now`: the
    /// cycles it waits for the line. The line comes from the cache (ART), from the prefetch
    /// buffer (the previous lines it still holds, or the next one read ahead, waited for if it
    /// is still being read), or else from the flash (`ws` more than a zero-wait-state fetch).
    pub fn enter(&mut self, line: u32, now: u64) -> u64 {
        let cur = self.cur;
        let held_behind = cur != u32::MAX && line < cur && cur - line <= self.behind;
        let wait = if self.icache.touch(line) || held_behind {
            0
        } else if cur != u32::MAX && line == cur.wrapping_add(1) && self.next_ready != u64::MAX {
            self.next_ready.saturating_sub(now)
        } else {
            self.fetch_misses += 1;
            self.ws
        };
        self.fetch_stall_cycles += wait;
        let at = now + wait;
        self.icache.fill(line);
        self.cur = line;
        // The prefetch reads the next line as soon as this one is in (and a buffer is free: the
        // one the previous line leaves); a line already cached needs no read.
        self.next_ready = if !self.prefetch {
            u64::MAX
        } else if self.icache.contains(line.wrapping_add(1)) {
            at
        } else {
            at + 1 + self.ws
        };
        wait
    }

    /// A data load from flash address `addr` at cycle `now`: its extra cycles. A D-cache hit
    /// (ART) costs none; otherwise the read takes the flash for 1 + ws cycles before the
    /// prefetch (D-Code has priority over I-Code, RM0090 section 3.5.2), which that delays.
    pub fn data(&mut self, addr: u32, now: u64) -> u64 {
        let line = self.line(addr);
        if self.dcache.touch(line) {
            return 0;
        }
        self.data_misses += 1;
        self.dcache.fill(line);
        if self.next_ready != u64::MAX && self.next_ready > now {
            self.next_ready += 1 + self.ws;
        }
        self.ws
    }

    /// After a system reset the buffers and caches start empty.
    pub fn reset(&mut self) {
        self.cur = u32::MAX;
        self.next_ready = u64::MAX;
        self.icache.lines.clear();
        self.dcache.lines.clear();
    }
}

impl<B: Bus> Cpu<B> {
    /// The loop fetches the instruction at `pc`: if it starts a new flash line, wait for it.
    /// True if time moved (the loop then looks at its deadlines before executing).
    #[inline(always)]
    pub(crate) fn flash_fetch(&mut self, pc: u32) -> bool {
        pc < FLASH_SIZE && self.flash.line(pc) != self.flash.cur && self.flash_enter(pc)
    }

    #[cold]
    #[inline(never)]
    fn flash_enter(&mut self, pc: u32) -> bool {
        let line = self.flash.line(pc);
        let wait = self.flash.enter(line, self.cyc);
        self.cyc += wait;
        wait > 0
    }

    /// The core jumps to `self.cpu.pc` outside the loop (exception entry, return, tail
    /// chain): the first fetch there pays its line now, so the trace stamps the instruction.
    #[inline(always)]
    pub(crate) fn flash_target(&mut self) {
        if self.flash.on {
            let pc = self.cpu.pc;
            self.flash_fetch(pc);
        }
    }

    /// A data load from flash address `addr` (literal pools, constant tables): its wait
    /// states, if the board has any.
    #[inline(always)]
    pub(crate) fn flash_data(&mut self, addr: u32) {
        if self.flash.on {
            self.flash_data_slow(addr);
        }
    }

    #[cold]
    #[inline(never)]
    fn flash_data_slow(&mut self, addr: u32) {
        let now = self.cyc + self.bus_off;
        self.cyc += self.flash.data(addr, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_evicts_the_least_recently_used() {
        let mut c = LineCache::new(2);
        c.fill(1);
        c.fill(2);
        assert!(c.touch(1));
        c.fill(3);
        assert!(c.contains(1) && c.contains(3) && !c.contains(2));
    }
}
