//! Observation: the JSONL event trace (docs/board.md lists the events) and the hook that
//! feeds the VCD writer. Nothing here runs unless `--trace` or `--vcd` was given: the
//! machine holds `Option<Box<Observer>>` and only the slow paths look at it.

use crate::vcd::Vcd;
use serde::Serialize;
use std::io::Write;

/// One trace event; serialised as `{"e":"<kind>", ...fields}`.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum Event {
    Start {
        c: u64,
        board: String,
        clock_hz: u32,
        ram: u32,
    },
    ExcEntry {
        c: u64,
        exc: u32,
        sp: u32,
    },
    ExcReturn {
        c: u64,
        exc: u32,
        to: u32,
    },
    TailChain {
        c: u64,
        from: u32,
        exc: u32,
    },
    Switch {
        c: u64,
        from_psp: u32,
        to_psp: u32,
        low: u32,
        how: &'static str,
    },
    Probe {
        c: u64,
        pins: u32,
        changed: u32,
    },
    Mark {
        c: u64,
        value: u32,
    },
    Stim {
        c: u64,
        level: u8,
    },
    /// The core stops (WFI/WFE); `deep`: SCR.SLEEPDEEP set on a board with an energy model.
    Sleep {
        c: u64,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        deep: bool,
    },
    /// The core runs again; `wakeup`: the cycles of the wake-up from deep sleep before it
    /// (they began at c - wakeup).
    Wake {
        c: u64,
        #[serde(skip_serializing_if = "is_zero")]
        wakeup: u64,
    },
    Fault {
        c: u64,
        pc: u32,
        reason: String,
    },
    End {
        c: u64,
        status: i32,
        instructions: u64,
    },
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// The `e` names, indexed by `Event::kind` (spec/contracts.toml; a test checks serde agrees).
pub const EVENT_NAMES: [&str; 12] = crate::contract::TRACE_EVENTS;

impl Event {
    pub fn kind(&self) -> usize {
        match self {
            Event::Start { .. } => 0,
            Event::ExcEntry { .. } => 1,
            Event::ExcReturn { .. } => 2,
            Event::TailChain { .. } => 3,
            Event::Switch { .. } => 4,
            Event::Probe { .. } => 5,
            Event::Mark { .. } => 6,
            Event::Stim { .. } => 7,
            Event::Sleep { .. } => 8,
            Event::Wake { .. } => 9,
            Event::Fault { .. } => 10,
            Event::End { .. } => 11,
        }
    }
    pub fn cycle(&self) -> u64 {
        match self {
            Event::Start { c, .. }
            | Event::ExcEntry { c, .. }
            | Event::ExcReturn { c, .. }
            | Event::TailChain { c, .. }
            | Event::Switch { c, .. }
            | Event::Probe { c, .. }
            | Event::Mark { c, .. }
            | Event::Stim { c, .. }
            | Event::Sleep { c, .. }
            | Event::Wake { c, .. }
            | Event::Fault { c, .. }
            | Event::End { c, .. } => *c,
        }
    }
}

/// Parse `--trace-events` into a bit mask over `EVENT_NAMES`.
pub fn parse_event_list(s: &str) -> Result<u32, String> {
    let mut mask = 0;
    for name in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        match EVENT_NAMES.iter().position(|n| *n == name) {
            Some(i) => mask |= 1 << i,
            None => return Err(format!("unknown trace event '{}' (known: {})", name, EVENT_NAMES.join(","))),
        }
    }
    Ok(mask)
}

/// Events are produced slightly out of cycle order (a store is stamped with its completion
/// cycle, an entry with its first handler cycle, timed sources are caught up lazily); a
/// reorder window far larger than any such skew restores the order before writing.
const REORDER_WINDOW: u64 = 4096;

pub struct Observer {
    trace: Option<Box<dyn Write>>,
    mask: u32,
    buf: Vec<(u64, u64, Event)>,
    seq: u64,
    max_c: u64,
    /// Buffer length that triggers the next flush (grows with what a flush leaves behind, so
    /// a dense burst of events never makes every emit sort the whole buffer).
    flush_at: usize,
    pub vcd: Option<Vcd>,
    pub error: Option<String>,
    /// In-memory capture (tests and embedders): events kept here instead of written.
    pub captured: Option<Vec<Event>>,
}

impl Observer {
    pub fn new(trace: Option<Box<dyn Write>>, mask: u32, vcd: Option<Vcd>) -> Observer {
        Observer { trace, mask, buf: Vec::new(), seq: 0, max_c: 0, flush_at: 8192, vcd, error: None, captured: None }
    }

    /// An observer that keeps every event (of `mask`) in memory, unsorted.
    pub fn capture(mask: u32) -> Observer {
        let mut o = Observer::new(None, mask, None);
        o.captured = Some(Vec::new());
        o
    }

    pub fn emit(&mut self, e: Event) {
        if let Some(v) = self.captured.as_mut() {
            if self.mask & (1 << e.kind()) != 0 {
                v.push(e);
            }
            return;
        }
        if self.trace.is_none() || self.mask & (1 << e.kind()) == 0 {
            return;
        }
        let c = e.cycle();
        self.max_c = self.max_c.max(c);
        self.buf.push((c, self.seq, e));
        self.seq += 1;
        if self.buf.len() >= self.flush_at {
            self.flush_older(self.max_c.saturating_sub(REORDER_WINDOW));
            self.flush_at = (self.buf.len() * 2).max(8192);
        }
    }

    fn flush_older(&mut self, limit: u64) {
        self.buf.sort_by_key(|(c, s, _)| (*c, *s));
        let split = self.buf.partition_point(|(c, _, _)| *c < limit);
        let rest = self.buf.split_off(split);
        let out = std::mem::replace(&mut self.buf, rest);
        if let Some(w) = self.trace.as_mut() {
            for (_, _, e) in out {
                let line = serde_json::to_string(&e).unwrap_or_default();
                if let Err(err) = writeln!(w, "{}", line) {
                    self.error.get_or_insert(err.to_string());
                }
            }
        }
    }

    pub fn finish(&mut self) -> Result<(), String> {
        self.flush_older(u64::MAX);
        if let Some(w) = self.trace.as_mut() {
            if let Err(e) = w.flush() {
                self.error.get_or_insert(e.to_string());
            }
        }
        if let Some(v) = self.vcd.as_mut() {
            if let Err(e) = v.finish() {
                self.error.get_or_insert(e);
            }
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    pub fn probe(&mut self, c: u64, pins: u32, changed: u32) {
        if let Some(v) = self.vcd.as_mut() {
            v.probe(c, pins, changed);
        }
        self.emit(Event::Probe { c, pins, changed });
    }
    pub fn mark(&mut self, c: u64, value: u32) {
        self.emit(Event::Mark { c, value });
    }
    pub fn stim(&mut self, c: u64, level: bool) {
        if let Some(v) = self.vcd.as_mut() {
            v.stim(c, level);
        }
        self.emit(Event::Stim { c, level: level as u8 });
    }
    pub fn exc_entry(&mut self, c: u64, exc: u32, sp: u32) {
        self.emit(Event::ExcEntry { c, exc, sp });
    }
    pub fn exc_return(&mut self, c: u64, exc: u32, to: u32) {
        self.emit(Event::ExcReturn { c, exc, to });
    }
    pub fn tail_chain(&mut self, c: u64, from: u32, exc: u32) {
        self.emit(Event::TailChain { c, from, exc });
    }
    /// A context switch; `how` is "exception" (an exception return to thread mode on another
    /// stack) or "thread" (a thread-mode load of the active SP into another stack region).
    pub fn switch(&mut self, c: u64, from_psp: u32, to_psp: u32, low: u32, how: &'static str) {
        self.emit(Event::Switch { c, from_psp, to_psp, low, how });
    }
    pub fn sleep(&mut self, c: u64, deep: bool) {
        self.emit(Event::Sleep { c, deep });
    }
    pub fn wake(&mut self, c: u64, wakeup: u64) {
        self.emit(Event::Wake { c, wakeup });
    }
    pub fn fault(&mut self, c: u64, pc: u32, reason: &str) {
        self.emit(Event::Fault { c, pc, reason: reason.to_string() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde tag of every event is the contract's name at its `kind` index.
    #[test]
    fn event_names_match_the_contract() {
        let all = [
            Event::Start { c: 0, board: String::new(), clock_hz: 0, ram: 0 },
            Event::ExcEntry { c: 0, exc: 0, sp: 0 },
            Event::ExcReturn { c: 0, exc: 0, to: 0 },
            Event::TailChain { c: 0, from: 0, exc: 0 },
            Event::Switch { c: 0, from_psp: 0, to_psp: 0, low: 0, how: "thread" },
            Event::Probe { c: 0, pins: 0, changed: 0 },
            Event::Mark { c: 0, value: 0 },
            Event::Stim { c: 0, level: 0 },
            Event::Sleep { c: 0, deep: false },
            Event::Wake { c: 0, wakeup: 0 },
            Event::Fault { c: 0, pc: 0, reason: String::new() },
            Event::End { c: 0, status: 0, instructions: 0 },
        ];
        assert_eq!(all.len(), EVENT_NAMES.len());
        for (i, ev) in all.iter().enumerate() {
            let json = serde_json::to_value(ev).unwrap();
            assert_eq!(ev.kind(), i);
            assert_eq!(json["e"], EVENT_NAMES[i]);
        }
    }
}
