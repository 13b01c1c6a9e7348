//! The only unsafe code of the native engine: the Cranelift JIT's memory, calling a compiled
//! block, and the helpers the compiled code calls back.
//!
//! Why it is sound:
//! - A block function is called only by `Compiled::call`, which takes `&mut Cpu<B>`: no other
//!   reference to the core exists during the call. The compiled code reaches the core only
//!   through that pointer, at offsets taken with `offset_of!` on the same `Cpu<B>`
//!   (`Layout`), with each field's own type (u32, u64, bool written as 0 or 1).
//! - It reaches RAM and flash only through the pointers passed with the call, after comparing
//!   the offset with the slice's length (`translate.rs`, `in_bounds`); the slices are boxed,
//!   fixed-size memories of the bus (`Bus::ram`: "exactly the configured RAM size") that no
//!   instruction reallocates, so the pointers stay valid across the helpers it calls.
//! - A helper turns the pointer back into `&mut Cpu<B>` for its own duration; the compiled
//!   code holds no Rust reference meanwhile and reloads every value it cached afterwards.
//! - The code memory lives in the `JITModule` owned by the cache and is freed only with it
//!   (`Drop`), after which no function pointer of it is kept (the cache's table goes with it).
//! - The build uses `panic = "abort"`: no unwinding crosses the compiled frames.

use crate::bus::Bus;
use crate::machine::Cpu;
use cranelift_codegen::ir::Function;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Module};

/// A compiled block: `(core, RAM, flash)`; it leaves every value it changed in the core.
pub type BlockFn<B> = unsafe extern "C" fn(*mut Cpu<B>, *mut u8, *const u8);

/// The JIT's code memory and compiler settings, one per core using the native engine.
/// The function, the codegen context and the builder's context are kept between compiles
/// (cleared, not freed: their allocations are a few per cent of a compile).
pub struct Jit {
    module: Option<JITModule>,
    ctx: Context,
    fbc: FunctionBuilderContext,
}

impl Jit {
    /// None if Cranelift does not support this host.
    pub fn new() -> Option<Jit> {
        let mut flags = settings::builder();
        flags.set("opt_level", "none").ok()?;
        flags.set("is_pic", "false").ok()?;
        // the translator's output is checked by the tests (--check-blocks), not at run time
        flags.set("enable_verifier", "false").ok()?;
        let isa = cranelift_native::builder().ok()?.finish(settings::Flags::new(flags)).ok()?;
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Some(Jit { module: Some(module), ctx, fbc: FunctionBuilderContext::new() })
    }

    /// The pointer type of the host (for the translator).
    pub fn pointer_type(&self) -> cranelift_codegen::ir::Type {
        self.module.as_ref().map_or(cranelift_codegen::ir::types::I64, |m| m.target_config().pointer_type())
    }

    /// What the translator's function builder needs to know of the target.
    pub fn frontend_config(&self) -> cranelift_codegen::isa::TargetFrontendConfig {
        self.module.as_ref().expect("jit module").target_config()
    }

    /// The cleared function to fill in (translate.rs gives it the block signature) and the
    /// builder's context.
    pub fn new_function(&mut self) -> (&mut Function, &mut FunctionBuilderContext) {
        self.ctx.clear();
        (&mut self.ctx.func, &mut self.fbc)
    }

    /// Compile the function `new_function` gave (filled in by translate.rs) and return it.
    pub fn compile<B: Bus>(&mut self) -> Option<Compiled<B>> {
        let m = self.module.as_mut()?;
        let id = m.declare_anonymous_function(&self.ctx.func.signature).ok()?;
        m.define_function(id, &mut self.ctx).ok()?;
        m.clear_context(&mut self.ctx);
        m.finalize_definitions().ok()?;
        let p = m.get_finalized_function(id);
        // SAFETY: `p` is the entry of a function compiled with the signature of `BlockFn`
        // (translate.rs builds it: three pointer parameters, no result).
        Some(Compiled(unsafe { std::mem::transmute::<*const u8, BlockFn<B>>(p) }))
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the cache that owns this Jit drops its function table with it; no
            // pointer into this memory outlives it.
            unsafe { m.free_memory() };
        }
    }
}

/// A compiled block's entry.
pub struct Compiled<B>(BlockFn<B>);

impl<B> Clone for Compiled<B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B> Copy for Compiled<B> {}

impl<B: Bus> Compiled<B> {
    /// Run the block on `m` (the compiled code checks its own deadlines).
    #[inline(always)]
    pub fn call(self, m: &mut Cpu<B>) {
        let p: *mut Cpu<B> = m;
        // SAFETY: see the module comment; RAM and flash pointers come from the same core.
        unsafe {
            let ram = (*p).bus.ram_mut().as_mut_ptr();
            let flash = (*p).bus.flash().as_ptr();
            (self.0)(p, ram, flash)
        }
    }
}

/// The helper the compiled code calls for an op it does not inline (and for an inlined load
/// or store whose address leaves RAM or flash): the interpreter's own per-instruction steps
/// and `exec` for the op at `pc`. Returns the `pc` it left (the next op's if straight on).
pub extern "C" fn exec_op<B: Bus>(m: *mut Cpu<B>, pc: u32) -> u32 {
    // SAFETY: `m` is the pointer `Compiled::call` passed to the block, which calls this
    // with no reference of its own to the core alive (module comment).
    let m = unsafe { &mut *m };
    let op = m.ops[(pc >> 1) as usize];
    m.insns += 1;
    m.cpu.pc = pc.wrapping_add(2);
    m.exec(op, pc);
    m.cpu.pc
}

/// `exec_op` on an ARMv7-M core: the ARMv7-M loop's copy of `exec` (its timing rules).
pub extern "C" fn exec_op_v7<B: Bus>(m: *mut Cpu<B>, pc: u32) -> u32 {
    // SAFETY: as `exec_op`.
    let m = unsafe { &mut *m };
    let op = m.ops[(pc >> 1) as usize];
    m.insns += 1;
    m.cpu.pc = pc.wrapping_add(2);
    m.exec_g::<true>(op, pc);
    m.cpu.pc
}

/// 1 when the ARMv7-M pipeline record and write buffer cannot change the timing of the
/// instruction starting now (`Cpu::record_neutral`), else 0.
pub extern "C" fn record_neutral<B: Bus>(m: *mut Cpu<B>) -> u8 {
    // SAFETY: as `exec_op` (a shared borrow for the call's duration).
    let m = unsafe { &*m };
    m.record_neutral() as u8
}
