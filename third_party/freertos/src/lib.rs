//! Empty: this crate only pins the FreeRTOS-Kernel sources (see Cargo.toml).
