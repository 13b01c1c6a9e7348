//! Command line: `rtoslab-vp run FIRMWARE.elf [options]` (docs/interfaces.md).

use clap::{Parser, Subcommand};
use rtoslab_vp::board::{Accelerator, Board, Core};
use rtoslab_vp::contract::{RAM_WINDOW, STATUS_BLOCKS_DIFFER};
use rtoslab_vp::cpu::check::Checked;
use rtoslab_vp::elf;
use rtoslab_vp::itrace::ITrace;
use rtoslab_vp::machine::{Config, Engine, Machine, Stop};
use rtoslab_vp::numbers::{parse_number, parse_size};
use rtoslab_vp::peripherals::stimulus::StimulusSpec;
use rtoslab_vp::trace::{parse_event_list, Event, Observer};
use rtoslab_vp::vcd::Vcd;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(name = "rtoslab-vp", version, about = "Cycle-exact Cortex-M0/M3/M4F virtual board")]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Run a firmware ELF on the board.
    Run(RunArgs),
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Firmware ELF (32-bit little-endian ARM) linked for flash at 0x0 and RAM at 0x20000000.
    pub firmware: PathBuf,
    /// A built-in board (bench/boards/<id>/board.toml, help text: `board_help`).
    #[arg(long, value_name = "ID", help = board_help())]
    pub board: Option<String>,
    /// The core, for a board not compiled in: cortex-m0 (ARMv6-M), cortex-m3 (ARMv7-M),
    /// cortex-m4f (ARMv7E-M with the FPU). The memory system is then the --board's if built
    /// in, else the default board's (0 wait states, no accelerator, 48 MHz, 16K of RAM), and
    /// the options below change it.
    #[arg(long, value_name = "CORE")]
    pub core: Option<String>,
    /// Flash wait states (0..15): the extra cycles of each flash read (a line) the
    /// accelerator does not hide (docs/board.md, "The flash systems"). Overrides the --board's.
    #[arg(long, value_name = "N")]
    pub flash_wait_states: Option<String>,
    /// Bytes the flash reads per access: 4, 8 or 16. Overrides the --board's.
    #[arg(long, value_name = "N")]
    pub flash_line_bytes: Option<String>,
    /// Lines the prefetch buffer holds: 2..4. Overrides the --board's.
    #[arg(long, value_name = "N")]
    pub prefetch_blocks: Option<String>,
    /// What hides the wait states: none, prefetch (a prefetch buffer: STM32F0, STM32F1) or
    /// art (ST's ART accelerator: prefetch, instruction and data caches). Overrides the --board's.
    #[arg(long, value_name = "none|prefetch|art")]
    pub accelerator: Option<String>,
    /// The part's energy model (docs/board.md, "Energy"): run=NA,ram=NA,sleep=NA,deep=NA,
    /// wakeup_ns=NS (typical currents in nA; the wake-up from deep sleep in ns). Overrides the
    /// --board's; a board built with --core and no built-in --board has none without it.
    #[arg(long, value_name = "SPEC")]
    pub energy_model: Option<String>,
    /// Nominal core clock in Hz (LAB_CLOCK_HZ, semihosting's clock, the trace's header); it
    /// does not change any cycle count. Overrides the --board's.
    #[arg(long, value_name = "N")]
    pub clock_hz: Option<String>,
    /// SRAM size (1K..256K, e.g. 4K, 16K, 64K); accesses past it fault. Default: the board's
    /// RAM (board.toml's ram_kib).
    #[arg(long)]
    pub ram: Option<String>,
    /// Stop with status 124 once this many cycles have run.
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<String>,
    /// Write the probe and stimulus pins as a VCD file.
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// Write the JSONL event trace.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Keep only these trace events (comma separated).
    #[arg(long, value_name = "LIST")]
    pub trace_events: Option<String>,
    /// Write an instruction trace: one line `CYCLE 0xPC SYMBOL+0xOFF HALFWORD(S)` per executed
    /// instruction (CYCLE = the cycle it starts at), plus `CYCLE exc_entry N`, `CYCLE exc_return N`
    /// and `CYCLE tail_chain FROM N` lines. Large: about 45 bytes per instruction, i.e. up to
    /// ~45 MB per million cycles; use --itrace-window to keep a part.
    #[arg(long, value_name = "FILE")]
    pub itrace: Option<PathBuf>,
    /// Record only what starts at a cycle in [A, B); either side may be empty (A: or :B).
    #[arg(long, value_name = "A:B")]
    pub itrace_window: Option<String>,
    /// Arm the external stimulus before reset: at=CYCLE[,period=N][,width=N].
    #[arg(long, value_name = "SPEC")]
    pub stimulus: Option<String>,
    /// Stop (status 125) at the first fault instead of running the HardFault handler.
    #[arg(long)]
    pub fault_stop: bool,
    /// MULS cycles: 1 (fast multiplier, default) or 32 (the Cortex-M0 small multiplier).
    #[arg(long, value_name = "1|32", default_value = "1")]
    pub mul_cycles: u64,
    /// Record every interrupts-masked section (PRIMASK set) and write a JSON summary at exit:
    /// the longest with its code location, every site and the histogram of lengths.
    #[arg(long, value_name = "FILE")]
    pub masked: Option<PathBuf>,
    /// Write the energy report at exit (docs/board.md, "Energy"): cycles by core state (run,
    /// sleep, deep sleep, wake-up), the charge of each from the board's energy model and the
    /// average current, as JSON to FILE, or as one line to stderr with `-`.
    #[arg(long, value_name = "FILE|-")]
    pub energy: Option<PathBuf>,
    /// Wait for GDB on this TCP port (127.0.0.1) or HOST:PORT before the first instruction and
    /// serve the GDB remote protocol: registers, memory, breakpoints, watchpoints, step,
    /// Ctrl-C, a stop at faults (`monitor help`). Port 0 takes a free port (printed). The
    /// debugger adds no cycle. Not with --itrace.
    #[arg(long, value_name = "[HOST:]PORT")]
    pub gdb: Option<String>,
    /// Print cycles, instructions, wall time and MIPS to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Run on the interpreter, one instruction per step: the default and the reference.
    #[arg(long)]
    pub interpreter: bool,
    /// Run on the block engine (basic blocks of pre-dispatched instructions): the same
    /// results; slower than the interpreter on every image measured (vp/README.md, "Speed").
    #[arg(long, conflicts_with = "interpreter")]
    pub blocks: bool,
    /// Run on the native engine: hot blocks of flash code compiled to host code (Cranelift),
    /// the interpreter for the rest; the same results (vp/README.md, "Speed"). Boards without
    /// flash wait states (ARMv6-M and ARMv7-M); elsewhere the interpreter runs.
    #[arg(long, conflicts_with_all = ["interpreter", "blocks"])]
    pub native: bool,
    /// With --native: entries of a block before it is compiled (default 4096); 1 compiles
    /// every block at its first entry (what the tests and the differential runs check).
    #[arg(long, value_name = "N", requires = "native", value_parser = clap::value_parser!(u16).range(1..))]
    pub native_hot: Option<u16>,
    /// Run the interpreter beside the block engine (with --native: the native engine) and
    /// compare the two at every block end; the first difference is one line on stderr and
    /// status 123. Not with --gdb or --itrace.
    #[arg(long, conflicts_with_all = ["interpreter", "blocks"])]
    pub check_blocks: bool,
}

pub struct Bad(pub String);

fn board_help() -> String {
    format!(
        "A built-in board: {} (default {}). With --core, any id: the board is then the core and \
         the memory-system options, and the id only names it (trace, VCD)",
        Board::built_in_ids(),
        Board::DEFAULT_ID
    )
}

/// The board of a run and its name: `--board ID` alone is a built-in board; `--core` builds
/// one from the --board's memory system when ID is built in, else from the default board's;
/// the memory-system options override either.
fn resolve_board(a: &RunArgs) -> Result<(Board, String), Bad> {
    let built_in = a.board.as_deref().map(|id| (id, Board::built_in(id)));
    let mut board = match (built_in, &a.core) {
        (None, None) => Board::DEFAULT,
        (Some((_, Some(b))), None) => b,
        (Some((id, None)), None) => {
            return Err(Bad(format!(
                "unknown board '{}' (built in: {}); for another board give its --core ({}) and memory system",
                id,
                Board::built_in_ids(),
                Core::names()
            )))
        }
        (built_in, Some(name)) => {
            let core = Core::from_name(name)
                .ok_or_else(|| Bad(format!("unknown core '{}' (one of {})", name, Core::names())))?;
            match built_in {
                Some((_, Some(b))) => Board { core, ..b },
                // (the default board's memory system, not its part's energy model)
                _ => Board { core, energy: None, ..Board::DEFAULT },
            }
        }
    };
    if let Some(s) = &a.flash_wait_states {
        board.flash_wait_states = parse_number(s)
            .filter(|n| *n <= 15)
            .ok_or_else(|| Bad(format!("bad --flash-wait-states '{}' (0..15)", s)))?;
    }
    if let Some(s) = &a.accelerator {
        board.accelerator = Accelerator::from_name(s)
            .ok_or_else(|| Bad(format!("bad --accelerator '{}' (none, prefetch or art)", s)))?;
    }
    if let Some(s) = &a.flash_line_bytes {
        board.flash_line_bytes = parse_number(s)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| [4, 8, 16].contains(n))
            .ok_or_else(|| Bad(format!("bad --flash-line-bytes '{}' (4, 8 or 16)", s)))?;
    }
    if let Some(s) = &a.prefetch_blocks {
        board.prefetch_blocks = parse_number(s)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (2..=4).contains(n))
            .ok_or_else(|| Bad(format!("bad --prefetch-blocks '{}' (2..4)", s)))?;
    }
    if let Some(s) = &a.clock_hz {
        board.clock_hz = parse_number(s)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| Bad(format!("bad --clock-hz '{}' (1..4294967295)", s)))?;
    }
    if let Some(s) = &a.energy_model {
        board.energy = Some(
            rtoslab_vp::energy::EnergyModel::parse(s).map_err(|e| Bad(format!("bad --energy-model '{}': {}", s, e)))?,
        );
    }
    let board = board.validated().map_err(Bad)?;
    let name = match (&a.board, &a.core) {
        (Some(id), _) => id.clone(),
        (None, Some(core)) => core.clone(),
        (None, None) => Board::DEFAULT_ID.to_string(),
    };
    Ok((board, name))
}

fn reg_line(m: &Machine, regs: &[u32; 16], xpsr: u32) -> String {
    let mut s = String::new();
    for (i, r) in regs.iter().enumerate().take(13) {
        s.push_str(&format!("r{}=0x{:08x} ", i, r));
    }
    let _ = m;
    s.push_str(&format!("sp=0x{:08x} lr=0x{:08x} xpsr=0x{:08x}", regs[13], regs[14], xpsr));
    s
}

/// The one-line message for statuses 124..126.
pub fn stop_message(m: &Machine, stop: &Stop, syms: &rtoslab_vp::symbols::Symbols) -> Option<String> {
    let sym = |pc: u32| syms.describe(pc).map(|s| format!(" <{}>", s)).unwrap_or_default();
    match stop {
        Stop::Exit(_) => None,
        Stop::Halted => Some(format!(
            "rtoslab-vp: stopped by the debugger at pc=0x{:08x}{} cycle {}",
            m.cpu.pc,
            sym(m.cpu.pc),
            m.cyc
        )),
        Stop::CycleLimit | Stop::SleepForever => {
            let regs = m.regs_snapshot(m.cpu.pc);
            let what = if *stop == Stop::CycleLimit {
                format!("cycle limit reached after {} cycles", m.cyc)
            } else {
                format!("asleep (WFI/WFE) with no wake-up source left at cycle {}", m.cyc)
            };
            let mut extra = String::new();
            if m.cpu.ipsr == 3 {
                if let Some(f) = &m.last_fault {
                    extra = format!(" [in HardFault, raised by: {} at pc=0x{:08x}{}]", f.reason, f.pc, sym(f.pc));
                }
            }
            Some(format!(
                "rtoslab-vp: {} at pc=0x{:08x}{}{}; {}",
                what,
                m.cpu.pc,
                sym(m.cpu.pc),
                extra,
                reg_line(m, &regs, m.cpu.xpsr())
            ))
        }
        Stop::FaultStop(f) | Stop::Lockup(f) => {
            let kind = if matches!(stop, Stop::Lockup(_)) {
                "lock-up (fault while in HardFault)"
            } else {
                "HardFault (--fault-stop)"
            };
            let mut s = format!("rtoslab-vp: {} at pc=0x{:08x}{} cycle {}: {}", kind, f.pc, sym(f.pc), m.cyc, f.reason);
            if let (Stop::Lockup(_), Some(first)) = (stop, &m.last_fault) {
                s.push_str(&format!(
                    " [HardFault was entered for: {} at pc=0x{:08x}{}]",
                    first.reason,
                    first.pc,
                    sym(first.pc)
                ));
            }
            s.push_str("; ");
            s.push_str(&reg_line(m, &f.regs, f.xpsr));
            Some(s)
        }
    }
}

fn open_out(p: &PathBuf) -> Result<Box<dyn Write>, Bad> {
    std::fs::File::create(p)
        .map(|f| Box::new(BufWriter::with_capacity(1 << 16, f)) as Box<dyn Write>)
        .map_err(|e| Bad(format!("cannot create {}: {}", p.display(), e)))
}

/// CPU time of this process in seconds, if the OS tells (Linux /proc/self/schedstat).
fn cpu_time() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// The board of an image run without --board or --core: the one its `.note.rtoslab` records
/// (bench/boards/common/board_note.c) when the simulator has it; else the default board if its
/// core runs the image's architecture (`.ARM.attributes`; none recorded: the default, as a
/// hand-made image); else one line naming the --board it needs (status 2), not a lock-up.
fn board_of_image(path: &std::path::Path, data: &[u8]) -> Result<String, Bad> {
    let note = elf::board_note(data);
    if let Some(id) = &note {
        if Board::built_in(id).is_some() {
            return Ok(id.clone());
        }
    }
    let default = Board::built_in(Board::DEFAULT_ID).expect("the default board is built in");
    let default_arch = match default.arch() {
        rtoslab_vp::board::Arch::V6M => "armv6-m",
        rtoslab_vp::board::Arch::V7M => "armv7-m",
    };
    let arch = elf::cpu_arch(data);
    let runs_on_default = match arch {
        None => true,
        Some(a) => a == default_arch || (default_arch == "armv7-m" && a == "armv6-m"),
    };
    if runs_on_default {
        return Ok(Board::DEFAULT_ID.to_string());
    }
    let built_for = match &note {
        Some(id) => format!("built for board '{}' ({})", id, arch.unwrap_or("?")),
        None => format!("{} code without a board note", arch.unwrap_or("?")),
    };
    Err(Bad(format!(
        "{}: {}, not for the default board {} ({}): give --board (built in: {}) or --core",
        path.display(),
        built_for,
        Board::DEFAULT_ID,
        default_arch,
        Board::built_in_ids()
    )))
}

/// The energy report in one line (`--energy -`).
fn energy_line(r: &serde_json::Value) -> String {
    let mut s = format!(
        "cycles={} run={} sleep={} deep={} wakeup={}",
        r["cycles"], r["run_cycles"], r["sleep_cycles"], r["deep_cycles"], r["wakeup_cycles"]
    );
    match r.get("charge_nC") {
        Some(q) => s.push_str(&format!(
            " charge={:.3}nC average={:.3}uA",
            q["total"].as_f64().unwrap_or(0.0),
            r["average_uA"].as_f64().unwrap_or(0.0)
        )),
        None => s.push_str(" (no energy model for this board)"),
    }
    s
}

/// Run the `run` subcommand; returns the process exit status.
pub fn run(mut a: RunArgs) -> Result<i32, Bad> {
    let data = elf::read_file(&a.firmware).map_err(|e| Bad(format!("{}: {}", a.firmware.display(), e)))?;
    if a.board.is_none() && a.core.is_none() {
        a.board = Some(board_of_image(&a.firmware, &data)?);
    }
    let (board, name) = resolve_board(&a)?;
    let ram = match &a.ram {
        None => board.default_ram as u64,
        Some(s) => {
            let ram = parse_size(s).ok_or_else(|| Bad(format!("bad --ram size '{}' (e.g. 4K, 16K, 64K)", s)))?;
            if !(1024..=RAM_WINDOW as u64).contains(&ram) || ram % 4 != 0 {
                return Err(Bad(format!("--ram {} out of range (1K..256K, a multiple of 4 bytes)", s)));
            }
            ram
        }
    };
    let max_cycles = match &a.max_cycles {
        Some(s) => Some(parse_number(s).ok_or_else(|| Bad(format!("bad --max-cycles '{}'", s)))?),
        None => None,
    };
    let stimulus = match &a.stimulus {
        Some(s) => Some(StimulusSpec::parse(s).map_err(|e| Bad(format!("bad --stimulus: {}", e)))?),
        None => None,
    };
    let mask = match &a.trace_events {
        Some(s) => parse_event_list(s).map_err(|e| Bad(format!("bad --trace-events: {}", e)))?,
        None => u32::MAX,
    };
    let window = match &a.itrace_window {
        Some(s) => Some(
            rtoslab_vp::itrace::parse_window(s)
                .ok_or_else(|| Bad(format!("bad --itrace-window '{}' (A:B with A < B; A: or :B for open ends)", s)))?,
        ),
        None => None,
    };
    if window.is_some() && a.itrace.is_none() {
        return Err(Bad("--itrace-window needs --itrace FILE".into()));
    }
    if a.gdb.is_some() && a.itrace.is_some() {
        return Err(Bad("--gdb and --itrace cannot be used together".into()));
    }
    if a.check_blocks && (a.gdb.is_some() || a.itrace.is_some()) {
        return Err(Bad("--check-blocks cannot be used with --gdb or --itrace".into()));
    }
    let img = elf::load(&data, ram as u32).map_err(|e| Bad(format!("{}: {}", a.firmware.display(), e)))?;

    if a.mul_cycles != 1 && a.mul_cycles != 32 {
        return Err(Bad(format!("--mul-cycles {} (must be 1 or 32)", a.mul_cycles)));
    }
    let cfg = Config {
        board,
        ram_size: ram as u32,
        max_cycles,
        fault_stop: a.fault_stop,
        stimulus,
        mul_cycles: a.mul_cycles,
    };
    // --check-blocks: the interpreter's copy of the board, its console discarded
    let mut reference = a.check_blocks.then(|| {
        let mut r = Machine::from_image(cfg.clone(), &img);
        r.engine = Engine::Interpreter;
        r.set_console_sink(Box::new(std::io::sink()));
        r
    });
    let mut m = Machine::from_image(cfg, &img);
    m.engine = if a.blocks {
        Engine::Blocks
    } else if a.native {
        Engine::Native
    } else if a.check_blocks {
        Engine::Blocks
    } else {
        Engine::Interpreter
    };
    if let Some(h) = a.native_hot {
        m.native.hot = h;
    }
    m.set_console_sink(Box::new(std::io::stdout()));
    if a.trace.is_some() || a.vcd.is_some() {
        let tr = match &a.trace {
            Some(p) => Some(open_out(p)?),
            None => None,
        };
        let vcd = match &a.vcd {
            Some(p) => Some(
                Vcd::new(open_out(p)?, &name, board.clock_hz)
                    .map_err(|e| Bad(format!("cannot write {}: {}", p.display(), e)))?,
            ),
            None => None,
        };
        let mut o = Observer::new(tr, mask, vcd);
        o.emit(Event::Start { c: 0, board: name.clone(), clock_hz: board.clock_hz, ram: ram as u32 });
        m.bus.obs = Some(Box::new(o));
        // A stimulus armed from the command line records its edges from now on.
    }

    if let Some(p) = &a.itrace {
        let (start, end) = window.unwrap_or((0, u64::MAX));
        m.itrace = Some(Box::new(ITrace::new(open_out(p)?, &img.symbols, start, end)));
    }

    if a.masked.is_some() {
        m.bus.masked = Some(Box::new(rtoslab_vp::masked::Masked::new()));
    }

    let listener = match &a.gdb {
        Some(spec) => Some(rtoslab_vp::debug::serve::listen(spec).map_err(Bad)?),
        None => None,
    };

    let cpu0 = cpu_time();
    let t0 = Instant::now();
    let stop = if let Some(l) = listener {
        let (stop, back) = rtoslab_vp::debug::serve::serve(m, l, img.symbols.clone()).map_err(Bad)?;
        m = back;
        stop
    } else if m.itrace.is_some() {
        m.run_traced()
    } else if let Some(r) = reference.as_mut() {
        match rtoslab_vp::cpu::check::run_checked(&mut m, r) {
            Checked::Same(stop) => stop,
            Checked::Differ(what) => {
                m.flush_console();
                eprintln!("rtoslab-vp: --check-blocks: {}", what);
                return Ok(STATUS_BLOCKS_DIFFER);
            }
        }
    } else {
        m.run()
    };
    let wall = t0.elapsed().as_secs_f64();
    m.flush_console();
    let status = stop.status();
    if let Some(mut it) = m.itrace.take() {
        if let Err(e) = it.finish() {
            eprintln!("rtoslab-vp: error writing the instruction trace: {}", e);
        }
    }
    if let Some(mut o) = m.bus.obs.take() {
        o.emit(Event::End { c: m.cyc, status, instructions: m.insns });
        if let Err(e) = o.finish() {
            eprintln!("rtoslab-vp: error writing trace/VCD: {}", e);
        }
    }
    if let (Some(p), Some(mk)) = (&a.masked, m.bus.masked.take()) {
        let text = serde_json::to_string(&mk.to_json(m.cyc, &img.symbols)).unwrap_or_default();
        if let Err(e) = std::fs::write(p, text + "\n") {
            eprintln!("rtoslab-vp: cannot write {}: {}", p.display(), e);
        }
    }
    if let Some(p) = &a.energy {
        let report = m.energy.report(m.cyc, board.clock_hz, board.energy);
        if p.as_os_str() == "-" {
            eprintln!("rtoslab-vp: energy {}", energy_line(&report));
        } else if let Err(e) = std::fs::write(p, report.to_string() + "\n") {
            eprintln!("rtoslab-vp: cannot write {}: {}", p.display(), e);
        }
    }
    if let Some(msg) = stop_message(&m, &stop, &img.symbols) {
        eprintln!("{}", msg);
    }
    if a.stats {
        let mips = if wall > 0.0 { m.insns as f64 / wall / 1e6 } else { 0.0 };
        // On a shared machine wall time includes time spent waiting for a CPU; the process's
        // own CPU time (Linux schedstat) gives the simulator's speed itself.
        let cpu = match (cpu0, cpu_time()) {
            (Some(a0), Some(a1)) if a1 > a0 => {
                let c = a1 - a0;
                format!(" cpu={:.3}s cpu_mips={:.1}", c, m.insns as f64 / c / 1e6)
            }
            _ => String::new(),
        };
        let native =
            if m.engine == Engine::Native { format!(" native_blocks={}", m.native.built) } else { String::new() };
        eprintln!(
            "rtoslab-vp: cycles={} instructions={} wall={:.3}s mips={:.1}{}{}",
            m.cyc, m.insns, wall, mips, cpu, native
        );
    }
    Ok(status)
}
