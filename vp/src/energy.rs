//! The energy model of a board and the meter that charges the run by the core's state
//! (docs/board.md, "Energy"). A board's model is its [energy] entry in board.toml (the part's
//! datasheet: typical supply currents and the wake-up from Stop), compiled in through
//! board_table.rs. The meter costs nothing on the instruction path: the core is running
//! unless `sleep` (exceptions.rs) says otherwise, so only the sleeping cycles are counted and
//! run = total - sleep - deep - wake-up.
//!
//! States: run (every executed cycle, charged at the run-from-flash current: the simulator
//! does not split code fetched from RAM); sleep (WFI/WFE with SCR.SLEEPDEEP clear: the ARM
//! Sleep, the STM32's Sleep mode); deep (WFI/WFE with SLEEPDEEP set: the STM32's Stop mode,
//! entered only on a board with a model); wake-up (the cycles from the wake-up event until
//! the core runs again, tWUSTOP, charged at the run current: the datasheets give no figure
//! for it, so the model takes the higher one).

/// Typical supply currents of a board's part (nA) and its wake-up from deep sleep (ns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnergyModel {
    pub run_na: u32,
    pub run_ram_na: u32,
    pub sleep_na: u32,
    pub deep_na: u32,
    pub deep_wakeup_ns: u32,
}

impl EnergyModel {
    /// Parse `run=NA,ram=NA,sleep=NA,deep=NA,wakeup_ns=NS` (`--energy-model`: the runner gives a
    /// board not compiled in, or given by --core, its model; python/rtoslab/boards.py). Every
    /// key is needed; currents in nA, deep < sleep < run.
    pub fn parse(s: &str) -> Result<EnergyModel, String> {
        let mut v: [Option<u32>; 5] = [None; 5];
        const KEYS: [&str; 5] = ["run", "ram", "sleep", "deep", "wakeup_ns"];
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, n) = part.split_once('=').ok_or_else(|| format!("bad item '{part}' (want key=value)"))?;
            let i =
                KEYS.iter().position(|x| *x == k).ok_or_else(|| format!("unknown key '{k}' ({})", KEYS.join(", ")))?;
            let n = crate::numbers::parse_number(n)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| format!("bad number '{n}' for {k}"))?;
            v[i] = Some(n);
        }
        let get = |i: usize| v[i].ok_or_else(|| format!("missing {}=", KEYS[i]));
        let m = EnergyModel {
            run_na: get(0)?,
            run_ram_na: get(1)?,
            sleep_na: get(2)?,
            deep_na: get(3)?,
            deep_wakeup_ns: get(4)?,
        };
        if !(m.deep_na < m.sleep_na && m.sleep_na < m.run_na) {
            return Err("needs deep < sleep < run".into());
        }
        Ok(m)
    }

    /// The wake-up from deep sleep in core cycles, rounded up (python/rtoslab/boards.py
    /// `Energy.wakeup_cycles`, the same rule: the kernel's BOARD_DEEP_WAKEUP_CYCLES).
    pub fn wakeup_cycles(&self, clock_hz: u32) -> u64 {
        (self.deep_wakeup_ns as u64 * clock_hz as u64).div_ceil(1_000_000_000)
    }
}

/// Cycles the run spent in each low-power state (the rest ran).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnergyMeter {
    pub sleep: u64,
    pub deep: u64,
    pub wakeup: u64,
    /// Entries into each sleep state.
    pub sleeps: u64,
    pub deeps: u64,
}

impl EnergyMeter {
    /// The report of a run of `total` cycles at `clock_hz` (`rtoslab-vp --energy`): cycles and
    /// charge (nC = nA x s) by state, the average current; without a model, cycles only.
    pub fn report(&self, total: u64, clock_hz: u32, model: Option<EnergyModel>) -> serde_json::Value {
        use serde_json::json;
        let run = total.saturating_sub(self.sleep + self.deep + self.wakeup);
        let mut out = json!({
            "version": 1,
            "cycles": total,
            "clock_hz": clock_hz,
            "run_cycles": run,
            "sleep_cycles": self.sleep,
            "deep_cycles": self.deep,
            "wakeup_cycles": self.wakeup,
            "sleeps": self.sleeps,
            "deep_sleeps": self.deeps,
        });
        if let Some(m) = model {
            let nc = |cycles: u64, na: u32| cycles as f64 * na as f64 / clock_hz as f64;
            let (r, s, d, w) =
                (nc(run, m.run_na), nc(self.sleep, m.sleep_na), nc(self.deep, m.deep_na), nc(self.wakeup, m.run_na));
            let total_nc = r + s + d + w;
            let seconds = total as f64 / clock_hz as f64;
            out["model"] = json!({"run_nA": m.run_na, "run_ram_nA": m.run_ram_na, "sleep_nA": m.sleep_na,
                                  "deep_nA": m.deep_na, "deep_wakeup_ns": m.deep_wakeup_ns,
                                  "deep_wakeup_cycles": m.wakeup_cycles(clock_hz)});
            out["charge_nC"] = json!({"run": r, "sleep": s, "deep": d, "wakeup": w, "total": total_nc});
            out["average_uA"] = json!(if seconds > 0.0 { total_nc / seconds / 1000.0 } else { 0.0 });
        }
        out
    }
}
