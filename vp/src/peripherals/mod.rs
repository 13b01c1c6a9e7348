//! Lab peripherals at 0x4F000000 (the contract's block plus the project's timer and
//! stimulus). All are reached only through the bus slow path.
pub mod lab;
pub mod probe;
pub mod stimulus;
pub mod timer;
