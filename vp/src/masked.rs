//! Interrupts-masked sections (`--masked FILE`): every interval during which PRIMASK is set,
//! from the cycle the masking instruction (CPSID i, MSR PRIMASK) completes to the cycle the
//! unmasking one (CPSIE i, MSR PRIMASK) completes. In that interval no configurable-priority
//! exception can be taken; its length is what a pending interrupt can be delayed by.
//!
//! Nothing here runs unless `--masked` was given: the machine holds `Option<Box<Masked>>` and
//! only the three instructions that write PRIMASK look at it (never the execute loop itself).
//! The record is exact and exhaustive: a histogram of every length, and per site (the pair
//! set pc, clear pc) the count, total and longest with the cycle it started.
//! Time asleep (WFI/WFE with PRIMASK set, the usual idle loop) is not masked time: a pending
//! interrupt wakes the core, which unmasks and takes it; a section ends where the core goes to
//! sleep and a new one starts at its wake-up, both at the WFI's address.

use crate::symbols::Symbols;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Interval {
    /// Cycle at which PRIMASK became 1 (the masking instruction completed).
    pub start: u64,
    /// Length in cycles (clear completion − set completion).
    pub cycles: u64,
    /// Address of the masking / unmasking instruction.
    pub set_pc: u32,
    pub clear_pc: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Site {
    pub count: u64,
    pub total: u64,
    pub max: u64,
    pub max_start: u64,
}

/// Where the core spends its cycles, per segment of the run (a segment starts at every
/// PROBE_MARK of 0x5254xxxx, i.e. at every metric of the suite): thread mode, asleep, or
/// exception number n (the innermost active handler; its entry and return sequences count
/// as its own).
#[derive(Default, Debug, Clone)]
pub struct Segment {
    pub mark: Option<u32>,
    pub start: u64,
    pub ctx: BTreeMap<u32, u64>,
}

pub const CTX_THREAD: u32 = 0;
pub const CTX_SLEEP: u32 = 0xFFFF;
/// Deep sleep (SLEEPDEEP) and the wake-up from it (energy.rs).
pub const CTX_DEEP: u32 = 0xFFFE;
pub const CTX_WAKEUP: u32 = 0xFFFD;

#[derive(Default, Debug)]
pub struct Masked {
    /// Current context (CTX_THREAD, CTX_SLEEP or the exception number) and since when.
    ctx: u32,
    ctx_since: u64,
    ctx_before_sleep: u32,
    pub segments: Vec<Segment>,
    /// (cycle, pc) of the open section, if PRIMASK is set now.
    open: Option<(u64, u32)>,
    /// Every length seen: cycles -> count.
    pub hist: BTreeMap<u64, u64>,
    pub sites: HashMap<(u32, u32), Site>,
    /// The longest interval (the first of equal ones).
    pub longest: Option<Interval>,
    pub count: u64,
    pub total: u64,
    /// Cycles asleep (WFI/WFE) with PRIMASK set, not part of any section.
    pub asleep: u64,
    slept_at: Option<u64>,
}

impl Masked {
    pub fn new() -> Masked {
        let mut m = Masked::default();
        m.segments.push(Segment::default());
        m
    }

    fn charge(&mut self, cyc: u64) {
        let d = cyc.saturating_sub(self.ctx_since);
        if d > 0 {
            if let Some(s) = self.segments.last_mut() {
                *s.ctx.entry(self.ctx).or_insert(0) += d;
            }
        }
        self.ctx_since = self.ctx_since.max(cyc);
    }

    /// The execution context changes at `cyc` (exception entry, tail-chain, return).
    #[cold]
    pub fn context(&mut self, cyc: u64, ctx: u32) {
        self.charge(cyc);
        self.ctx = ctx;
    }

    /// A PROBE_MARK store: 0x5254xxxx starts a new segment.
    #[cold]
    pub fn mark(&mut self, cyc: u64, v: u32) {
        if v & 0xFFFF_0000 == 0x5254_0000 {
            self.charge(cyc);
            self.segments.push(Segment { mark: Some(v & 0xFFFF), start: cyc, ctx: BTreeMap::new() });
        }
    }

    /// PRIMASK written at `cyc` (completion) by the instruction at `pc`; `was`/`now` its
    /// value before and after. Writes that do not change it open or close nothing.
    #[cold]
    pub fn primask(&mut self, cyc: u64, pc: u32, was: bool, now: bool) {
        if !was && now {
            self.open = Some((cyc, pc));
        } else if was && !now {
            if let Some((start, set_pc)) = self.open.take() {
                self.close(Interval { start, cycles: cyc - start, set_pc, clear_pc: pc });
            }
        }
    }

    /// The core went to sleep (WFI/WFE at `pc`) at `cyc` with PRIMASK set: asleep, it is
    /// woken by any pending interrupt and takes it as soon as it unmasks, so the section ends
    /// here (its clear pc is the WFI) and a new one starts at the wake-up (set pc = the WFI).
    /// The masked cycles spent asleep are counted apart (`asleep`).
    #[cold]
    pub fn sleep(&mut self, cyc: u64, pc: u32) {
        if let Some((start, set_pc)) = self.open.take() {
            self.close(Interval { start, cycles: cyc - start, set_pc, clear_pc: pc });
        }
        self.slept_at = Some(cyc);
    }

    /// Asleep from `cyc` (any PRIMASK), for the per-segment profile: `state` is CTX_SLEEP
    /// or CTX_DEEP.
    #[cold]
    pub fn asleep(&mut self, cyc: u64, state: u32) {
        self.charge(cyc);
        self.ctx_before_sleep = self.ctx;
        self.ctx = state;
    }

    /// Still not running, from `cyc` in another state (deep sleep -> its wake-up).
    #[cold]
    pub fn sleep_state(&mut self, cyc: u64, state: u32) {
        self.charge(cyc);
        self.ctx = state;
    }

    #[cold]
    pub fn awake(&mut self, cyc: u64) {
        self.charge(cyc);
        self.ctx = self.ctx_before_sleep;
    }

    #[cold]
    pub fn wake(&mut self, cyc: u64, pc: u32) {
        if let Some(s) = self.slept_at.take() {
            self.asleep += cyc - s;
        }
        self.open = Some((cyc, pc));
    }

    fn close(&mut self, iv: Interval) {
        *self.hist.entry(iv.cycles).or_insert(0) += 1;
        self.count += 1;
        self.total += iv.cycles;
        let s = self.sites.entry((iv.set_pc, iv.clear_pc)).or_default();
        s.count += 1;
        s.total += iv.cycles;
        if iv.cycles > s.max || s.count == 1 {
            s.max = iv.cycles;
            s.max_start = iv.start;
        }
        if self.longest.is_none_or(|l| iv.cycles > l.cycles) {
            self.longest = Some(iv);
        }
    }

    /// The summary as JSON (docs/board.md, "Masked sections"). `end` is the last cycle of the
    /// run; a section still open then is reported as `open`, not counted.
    pub fn to_json(&self, end: u64, syms: &Symbols) -> serde_json::Value {
        use serde_json::json;
        let name = |pc: u32| syms.describe(pc).unwrap_or_else(|| format!("0x{:08x}", pc));
        let func = |pc: u32| {
            let i = syms.funcs().partition_point(|(a, _)| *a <= pc);
            i.checked_sub(1).and_then(|i| syms.funcs().get(i)).map(|(_, n)| n.clone()).unwrap_or_default()
        };
        let iv_json = |iv: &Interval| {
            json!({"start": iv.start, "cycles": iv.cycles,
                   "set_pc": iv.set_pc, "set_at": name(iv.set_pc), "set_func": func(iv.set_pc),
                   "clear_pc": iv.clear_pc, "clear_at": name(iv.clear_pc), "clear_func": func(iv.clear_pc)})
        };
        let mut sites: Vec<_> = self.sites.iter().collect();
        sites.sort_by(|a, b| b.1.max.cmp(&a.1.max).then(a.0.cmp(b.0)));
        let sites: Vec<_> = sites
            .iter()
            .map(|((sp, cp), s)| {
                json!({"set_pc": sp, "set_at": name(*sp), "set_func": func(*sp),
                       "clear_pc": cp, "clear_at": name(*cp), "clear_func": func(*cp),
                       "count": s.count, "total": s.total, "max": s.max, "max_start": s.max_start})
            })
            .collect();
        let hist: Vec<[u64; 2]> = self.hist.iter().map(|(k, v)| [*k, *v]).collect();
        let mut segs = self.segments.clone();
        if let Some(s) = segs.last_mut() {
            let d = end.saturating_sub(self.ctx_since);
            if d > 0 {
                *s.ctx.entry(self.ctx).or_insert(0) += d;
            }
        }
        let seg_end: Vec<u64> = segs.iter().skip(1).map(|s| s.start).chain(std::iter::once(end)).collect();
        let segments: Vec<_> = segs
            .iter()
            .zip(seg_end)
            .map(|(s, e)| {
                let ctx: serde_json::Map<String, serde_json::Value> = s
                    .ctx
                    .iter()
                    .map(|(k, v)| {
                        let name = match *k {
                            CTX_THREAD => "thread".to_string(),
                            CTX_SLEEP => "sleep".to_string(),
                            CTX_DEEP => "deep_sleep".to_string(),
                            CTX_WAKEUP => "wakeup".to_string(),
                            n => format!("exc{}", n),
                        };
                        (name, json!(v))
                    })
                    .collect();
                json!({"mark": s.mark, "start": s.start, "cycles": e - s.start, "ctx": ctx})
            })
            .collect();
        json!({
            "version": 1,
            "cycles": end,
            "count": self.count,
            "total": self.total,
            "asleep": self.asleep,
            "longest": self.longest.as_ref().map(iv_json),
            "open": self.open.map(|(c, pc)| json!({"start": c, "cycles": end - c, "set_pc": pc,
                                                    "set_at": name(pc), "set_func": func(pc)})),
            "sites": sites,
            "hist": hist,
            "segments": segments,
        })
    }
}
