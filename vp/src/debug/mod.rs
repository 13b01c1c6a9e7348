//! The debugger (`rtoslab-vp run FW --gdb PORT`): the core on a debugging bus (bus.rs),
//! GDB's view of the Cortex-M (arch.rs), the board as a gdbstub target (target.rs) and the
//! connection and run control (serve.rs).

pub mod arch;
pub mod bus;
pub mod serve;
pub mod target;
