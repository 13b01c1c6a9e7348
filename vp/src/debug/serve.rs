//! `--gdb [HOST:]PORT`: wait for one GDB on a TCP port, serve the remote serial protocol
//! (gdbstub) until the run ends or GDB goes, and hand the board back for the run's usual end
//! (stop message, traces, statistics).
//!
//! The core runs in stretches between instruction boundaries (cpu/mod.rs returns
//! `Stop::Halted` where `DebugBus` asks): to the next breakpoint, watchpoint hit, fault, BKPT,
//! the end of a single step, or every `POLL_INSNS` instructions to look for GDB's Ctrl-C.
//! Halting and resuming add no cycle: the cycle count at exit is the run's without `--gdb`.

use crate::debug::bus::{DebugBus, Halt, Watch};
use crate::debug::target::Board;
use crate::machine::{Machine, Stop};
use crate::symbols::Symbols;
use gdbstub::common::Signal;
use gdbstub::conn::{Connection, ConnectionExt};
use gdbstub::stub::run_blocking::{BlockingEventLoop, Event, WaitForStopReasonError};
use gdbstub::stub::{DisconnectReason, GdbStub, SingleThreadStopReason};
use gdbstub::target::ext::breakpoints::WatchKind;
use std::net::{TcpListener, TcpStream};

/// Instructions between two looks at the connection while the core runs: at the
/// simulator's 50-200 MIPS a Ctrl-C is seen within a millisecond or two, and the look (one
/// non-blocking peek) costs nothing measurable.
pub const POLL_INSNS: u64 = 1 << 16;

/// `PORT` (on 127.0.0.1) or `HOST:PORT`; port 0 takes a free port (the line printed says which).
pub fn listen(spec: &str) -> Result<TcpListener, String> {
    let addr = if spec.contains(':') { spec.to_string() } else { format!("127.0.0.1:{}", spec) };
    let bad = || format!("bad --gdb '{}' (PORT or HOST:PORT, e.g. 3333 or 127.0.0.1:3333)", spec);
    let port_ok = addr.rsplit(':').next().is_some_and(|p| p.parse::<u16>().is_ok());
    if !port_ok {
        return Err(bad());
    }
    TcpListener::bind(&addr).map_err(|e| format!("--gdb {}: cannot listen: {}", addr, e))
}

/// Serve one GDB connection on `listener` for the board `m`; returns how the run ended and the
/// board. A kill from GDB ends the run with `Stop::Halted` (where it stood); a detach lets it
/// run on to its end without the debugger.
pub fn serve(m: Machine, listener: TcpListener, symbols: Symbols) -> Result<(Stop, Machine), String> {
    let local = listener.local_addr().map_err(|e| format!("--gdb: {}", e))?;
    eprintln!("rtoslab-vp: waiting for GDB on {} (target remote {})", local, local);
    let (stream, peer) = listener.accept().map_err(|e| format!("--gdb {}: accept: {}", local, e))?;
    let _ = stream.set_nodelay(true);
    eprintln!("rtoslab-vp: GDB connected from {}", peer);
    let mut board = Board { m: m.map_bus(DebugBus::new), stepping: false, ended: None, fault_line: None, symbols };
    let outcome = GdbStub::new(stream).run_blocking::<RunUntilHalt>(&mut board);
    let ended = board.ended.take();
    let mut m = board.m.map_bus(|d| d.lab);
    let stop = match outcome {
        Ok(DisconnectReason::TargetExited(_)) | Ok(DisconnectReason::TargetTerminated(_)) => {
            ended.unwrap_or(Stop::Halted)
        }
        Ok(DisconnectReason::Disconnect) => match ended {
            Some(s) => s,
            None => {
                eprintln!("rtoslab-vp: GDB detached at cycle {}; the run goes on without it", m.cyc);
                m.run()
            }
        },
        Ok(DisconnectReason::Kill) => {
            eprintln!("rtoslab-vp: killed by GDB at cycle {} (pc=0x{:08x})", m.cyc, m.cpu.pc);
            ended.unwrap_or(Stop::Halted)
        }
        Err(e) => {
            eprintln!("rtoslab-vp: the GDB connection failed at cycle {}: {}", m.cyc, e);
            ended.unwrap_or(Stop::Halted)
        }
    };
    Ok((stop, m))
}

/// The line `monitor fault` shows and the console prints when the core halts for a fault.
fn fault_line(b: &Board, what: &str, f: &crate::machine::FaultInfo) -> String {
    let sym = b.symbols.describe(f.pc).map(|s| format!(" <{}>", s)).unwrap_or_default();
    format!("rtoslab-vp: {} at cycle {}: {} at pc=0x{:08x}{}", what, b.m.cyc, f.reason, f.pc, sym)
}

enum RunUntilHalt {}

type Reason = SingleThreadStopReason<u32>;

impl BlockingEventLoop for RunUntilHalt {
    type Target = Board;
    type Connection = TcpStream;
    type StopReason = Reason;

    fn wait_for_stop_reason(
        b: &mut Board,
        conn: &mut TcpStream,
    ) -> Result<Event<Reason>, WaitForStopReasonError<String, <TcpStream as Connection>::Error>> {
        if let Some(s) = &b.ended {
            return Ok(Event::TargetStopped(Reason::Exited(s.status() as u8)));
        }
        let first = b.m.insns;
        loop {
            // the instruction at the PC runs first even if a breakpoint is set on it
            b.m.bus.skip = Some(b.m.cpu.pc);
            b.m.bus.stop_at = if b.stepping { first + 1 } else { b.m.insns + POLL_INSNS };
            let stop = b.m.run();
            let reason = match stop {
                Stop::Halted => match b.m.bus.halt.take() {
                    Some(Halt::Breakpoint) => Reason::SwBreak(()),
                    Some(Halt::Watch(kind, addr)) => Reason::Watch {
                        tid: (),
                        kind: match kind {
                            Watch::Write => WatchKind::Write,
                            Watch::Read => WatchKind::Read,
                            Watch::Access => WatchKind::ReadWrite,
                        },
                        addr,
                    },
                    Some(Halt::Fault) => {
                        if let Some(f) = b.m.last_fault.clone() {
                            let line = fault_line(b, "HardFault entered", &f);
                            eprintln!("{}", line);
                            b.fault_line = Some(line);
                        }
                        Reason::Signal(Signal::SIGSEGV)
                    }
                    Some(Halt::Bkpt) => Reason::Signal(Signal::SIGTRAP),
                    Some(Halt::Deadline) | None if b.stepping => Reason::DoneStep,
                    Some(Halt::Deadline) | None => {
                        if conn.peek().map_err(WaitForStopReasonError::Connection)?.is_some() {
                            let byte = conn.read().map_err(WaitForStopReasonError::Connection)?;
                            return Ok(Event::IncomingData(byte));
                        }
                        continue;
                    }
                },
                Stop::Exit(c) => {
                    b.ended = Some(Stop::Exit(c));
                    Reason::Exited(c)
                }
                other => {
                    let signal = match &other {
                        Stop::FaultStop(f) | Stop::Lockup(f) => {
                            let what = if matches!(other, Stop::Lockup(_)) { "lock-up" } else { "fault stop" };
                            let line = fault_line(b, what, f);
                            eprintln!("{}", line);
                            b.fault_line = Some(line);
                            Signal::SIGSEGV
                        }
                        _ => Signal::SIGXCPU,
                    };
                    b.ended = Some(other);
                    Reason::Signal(signal)
                }
            };
            return Ok(Event::TargetStopped(reason));
        }
    }

    /// Ctrl-C: the core is already halted at a boundary (the poll that read the byte).
    fn on_interrupt(_b: &mut Board) -> Result<Option<Reason>, String> {
        Ok(Some(Reason::Signal(Signal::SIGINT)))
    }
}
