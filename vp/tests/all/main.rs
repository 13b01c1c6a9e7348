//! The simulator's integration tests, one binary: each file a module (a binary per file
//! would repeat the interpreter's monomorphisation and LTO for each: minutes of compile time).

mod support;

mod blocks;
mod calibration;
mod calibration_flash;
mod calibration_fpu;
mod calibration_v7m;
mod cli;
mod dwt_v7m;
mod energy;
mod exceptions;
mod fuzz_no_panic;
mod instructions;
mod itrace;
mod masked;
mod native;
mod op_sizes;
mod own_bus;
mod peripherals;
mod quiet_records;
mod system_v7m;
