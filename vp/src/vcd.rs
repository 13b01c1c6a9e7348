//! VCD writer for the probe pins and the stimulus pin. Time is real time at the board clock in
//! picoseconds, the time base of `rtoslab trace --vcd` too (docs/board.md, "Observation from
//! outside"): one file format, one time axis, whichever tool wrote it.

use std::io::Write;

pub struct Vcd {
    w: Box<dyn Write>,
    clock_hz: u64,
    /// (cycle, seq, signal index 0..=32, level)
    buf: Vec<(u64, u64, u8, bool)>,
    seq: u64,
    max_c: u64,
    last_time: Option<u64>,
    err: Option<String>,
    flush_at: usize,
}

fn id(sig: u8) -> char {
    (b'!' + sig) as char
}

/// Cycle c at the board clock as picoseconds, rounded to the nearest (as python/rtoslab/vcd.py).
fn picoseconds(c: u64, clock_hz: u64) -> u128 {
    (u128::from(c) * 1_000_000_000_000 + u128::from(clock_hz) / 2) / u128::from(clock_hz)
}

impl Vcd {
    pub fn new(mut w: Box<dyn Write>, board: &str, clock_hz: u32) -> std::io::Result<Vcd> {
        writeln!(w, "$version rtoslab-vp {} $end", env!("CARGO_PKG_VERSION"))?;
        writeln!(
            w,
            "$comment board {} at {} Hz; time is real time, one cycle = {:.3} ps; cycle = time * {} / 1e12 $end",
            board,
            clock_hz,
            1e12 / clock_hz as f64,
            clock_hz
        )?;
        writeln!(w, "$timescale 1 ps $end")?;
        writeln!(w, "$scope module board $end")?;
        for i in 0..32u8 {
            writeln!(w, "$var wire 1 {} probe [{}] $end", id(i), i)?;
        }
        writeln!(w, "$var wire 1 {} stim $end", id(32))?;
        writeln!(w, "$upscope $end")?;
        writeln!(w, "$enddefinitions $end")?;
        writeln!(w, "#0")?;
        writeln!(w, "$dumpvars")?;
        for i in 0..33u8 {
            writeln!(w, "0{}", id(i))?;
        }
        writeln!(w, "$end")?;
        Ok(Vcd {
            w,
            clock_hz: u64::from(clock_hz.max(1)),
            buf: Vec::new(),
            seq: 0,
            max_c: 0,
            last_time: Some(0),
            err: None,
            flush_at: 8192,
        })
    }

    fn push(&mut self, c: u64, sig: u8, level: bool) {
        self.max_c = self.max_c.max(c);
        self.buf.push((c, self.seq, sig, level));
        self.seq += 1;
        if self.buf.len() >= self.flush_at {
            self.flush_older(self.max_c.saturating_sub(4096));
            self.flush_at = (self.buf.len() * 2).max(8192);
        }
    }

    pub fn probe(&mut self, c: u64, pins: u32, changed: u32) {
        for i in 0..32u8 {
            if changed & (1 << i) != 0 {
                self.push(c, i, pins & (1 << i) != 0);
            }
        }
    }

    pub fn stim(&mut self, c: u64, level: bool) {
        self.push(c, 32, level);
    }

    fn flush_older(&mut self, limit: u64) {
        self.buf.sort_by_key(|e| (e.0, e.1));
        let split = self.buf.partition_point(|e| e.0 < limit);
        let rest = self.buf.split_off(split);
        let out = std::mem::replace(&mut self.buf, rest);
        for (c, _, sig, level) in out {
            let r = (|| -> std::io::Result<()> {
                if self.last_time != Some(c) {
                    writeln!(self.w, "#{}", picoseconds(c, self.clock_hz))?;
                    self.last_time = Some(c);
                }
                writeln!(self.w, "{}{}", level as u8, id(sig))
            })();
            if let Err(e) = r {
                self.err.get_or_insert(e.to_string());
            }
        }
    }

    pub fn finish(&mut self) -> Result<(), String> {
        self.flush_older(u64::MAX);
        if let Err(e) = self.w.flush() {
            self.err.get_or_insert(e.to_string());
        }
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
