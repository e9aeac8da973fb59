//! A [`Function`] compiled to machine code by Cranelift, and the one place that calls it.
//!
//! The compiled code is `extern "C" fn(reads: *const *const f64, writes: *const *mut f64)`: it
//! loads the base pointer of each argument from the two arrays and then performs the function's
//! loads, operations and stores. It is sound to call when
//! 1. every load and store of the function is inside its argument's declared length, every
//!    store goes to a writable argument and every operand is computed before it
//!    ([`Function::well_formed`], checked before compilation);
//! 2. the slices passed are at least as long as declared ([`Function::check_call`], checked at
//!    every call), the writable ones borrowed mutably (so disjoint from each other and from the
//!    read-only ones);
//! 3. the code memory lives as long as the function pointer is callable: both are owned by
//!    [`Compiled`], which frees the memory only when it is dropped, and whose code never writes
//!    memory other than its arguments, so concurrent calls on distinct arguments are independent.

#![allow(unsafe_code)]

use crate::function::{Arg, Inst, check_call};
use crate::{Function, JitError};
use cranelift_codegen::ir::{
    AbiParam, FuncRef, InstBuilder, MemFlagsData, Signature, UserFuncName, Value as Ir, types,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module, default_libcall_names};
use sparkgen_sym::Op;
use std::collections::HashMap;

/// The compiled code's type.
type Entry = unsafe extern "C" fn(*const *const f64, *const *mut f64);

/// A [`Function`] compiled to machine code (see the module documentation).
pub struct Compiled {
    /// Owns the code memory; `None` only while being dropped.
    module: Option<JITModule>,
    entry: Entry,
    /// The declared lengths of the read-only and the writable arguments.
    reads: Vec<usize>,
    writes: Vec<usize>,
    instructions: usize,
}

// SAFETY: the module is never mutated after `Compiled::new` returns (finalized code, read and
// executed only), and the entry point writes only the argument slices of each call, which the
// caller borrows exclusively; so a `Compiled` can be moved to and shared between threads.
unsafe impl Send for Compiled {}
// SAFETY: as for `Send`: `&Compiled` exposes only `call`, which mutates nothing it owns.
unsafe impl Sync for Compiled {}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("instructions", &self.instructions)
            .finish_non_exhaustive()
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: `entry` is reachable only through `self`, which is being dropped: no call
            // is executing and none can follow.
            unsafe { module.free_memory() };
        }
    }
}

/// The functions of the graph that the compiled code calls rather than computes inline: the
/// Rust functions the interpreter calls (through [`Op::eval`]), so results agree bit for bit.
fn runtime_function(op: Op) -> Option<(&'static str, *const u8, usize)> {
    macro_rules! unary {
        ($name:literal, $op:expr) => {{
            extern "C" fn f(x: f64) -> f64 {
                $op.eval(&[x, x])
            }
            Some(($name, f as *const u8, 1))
        }};
    }
    macro_rules! binary {
        ($name:literal, $op:expr) => {{
            extern "C" fn f(x: f64, y: f64) -> f64 {
                $op.eval(&[x, y])
            }
            Some(($name, f as *const u8, 2))
        }};
    }
    match op {
        Op::Powf => binary!("sparkgen_powf", Op::Powf),
        Op::Atan2 => binary!("sparkgen_atan2", Op::Atan2),
        Op::Hypot => binary!("sparkgen_hypot", Op::Hypot),
        Op::Exp => unary!("sparkgen_exp", Op::Exp),
        Op::Ln => unary!("sparkgen_ln", Op::Ln),
        Op::Sin => unary!("sparkgen_sin", Op::Sin),
        Op::Cos => unary!("sparkgen_cos", Op::Cos),
        Op::Tan => unary!("sparkgen_tan", Op::Tan),
        Op::Asin => unary!("sparkgen_asin", Op::Asin),
        Op::Acos => unary!("sparkgen_acos", Op::Acos),
        Op::Atan => unary!("sparkgen_atan", Op::Atan),
        Op::Sinh => unary!("sparkgen_sinh", Op::Sinh),
        Op::Cosh => unary!("sparkgen_cosh", Op::Cosh),
        Op::Tanh => unary!("sparkgen_tanh", Op::Tanh),
        Op::Neg | Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Powi(_) | Op::Sqrt | Op::Abs => None,
    }
}

/// Every operation [`runtime_function`] names.
const CALLED: [Op; 14] = [
    Op::Powf,
    Op::Atan2,
    Op::Hypot,
    Op::Exp,
    Op::Ln,
    Op::Sin,
    Op::Cos,
    Op::Tan,
    Op::Asin,
    Op::Acos,
    Op::Atan,
    Op::Sinh,
    Op::Cosh,
    Op::Tanh,
];

fn codegen(e: impl std::fmt::Display) -> JitError {
    JitError::Codegen(e.to_string())
}

/// How hard the code generator works on a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Optimised, with the backtracking register allocator: the fastest code.
    Optimised,
    /// Optimised, with the single-pass register allocator: compiles several times faster, for
    /// large functions evaluated rarely (the stage Jacobian, once per step or less).
    Quick,
}

/// The length from which a function is compiled with the single-pass register allocator
/// ([`Tier::of`]).
const QUICK_FROM: usize = 2048;

impl Tier {
    /// How hard a function of `instructions` instructions is optimised. The backtracking
    /// register allocator gives the fastest code, but its time grows faster than the function's
    /// length; the single-pass one compiles several times faster and its code is slower by a
    /// small fraction of a step. Functions from [`QUICK_FROM`] instructions (in practice the
    /// stage partials, the largest functions and evaluated once per step or solve with
    /// simplified Newton) get the single-pass allocator, the others the backtracking one
    /// (BENCHMARKS.md, "Problem files on machine code").
    pub fn of(instructions: usize) -> Tier {
        if instructions < QUICK_FROM {
            Tier::Optimised
        } else {
            Tier::Quick
        }
    }
}

/// The host's code generator for `tier`.
fn host(tier: Tier) -> Result<JITBuilder, JitError> {
    let mut flags = settings::builder();
    let allocator = match tier {
        Tier::Optimised => "backtracking",
        Tier::Quick => "single_pass",
    };
    for (name, value) in [
        ("opt_level", "speed"),
        ("regalloc_algorithm", allocator),
        // The IR is checked by `Function::well_formed` before it is built; Cranelift's own
        // verifier would check the builder's output again at every compilation.
        ("enable_verifier", "false"),
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
    ] {
        flags.set(name, value).map_err(codegen)?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| JitError::Host(e.to_string()))?
        .finish(settings::Flags::new(flags))
        .map_err(codegen)?;
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    for op in CALLED {
        if let Some((name, pointer, _)) = runtime_function(op) {
            builder.symbol(name, pointer);
        }
    }
    Ok(builder)
}

/// `xᵏ` by binary powering, the operations of `f64::powi` (compiler-rt's `__powidf2`): the
/// product starts at 1 and takes the current square at every set bit of `|k|`; `1/x^|k|` for
/// `k < 0`.
fn powi(b: &mut FunctionBuilder<'_>, x: Ir, k: i32) -> Ir {
    let mut bits = k.unsigned_abs();
    let mut square = x;
    let mut product = b.ins().f64const(1.0);
    loop {
        if bits & 1 == 1 {
            product = b.ins().fmul(product, square);
        }
        bits >>= 1;
        if bits == 0 {
            break;
        }
        square = b.ins().fmul(square, square);
    }
    if k < 0 {
        let one = b.ins().f64const(1.0);
        b.ins().fdiv(one, product)
    } else {
        product
    }
}

/// An address `base + 8·index` as a base value and a 32-bit byte offset.
fn address(b: &mut FunctionBuilder<'_>, base: Ir, index: usize) -> (Ir, i32) {
    let bytes = index.saturating_mul(8);
    match i32::try_from(bytes) {
        Ok(offset) => (base, offset),
        Err(_) => {
            let offset = i64::try_from(bytes).unwrap_or(i64::MAX);
            (b.ins().iadd_imm_s(base, offset), 0)
        }
    }
}

impl Compiled {
    /// Compiles `function` for this machine ([`Tier::Optimised`]).
    pub fn new(function: &Function) -> Result<Compiled, JitError> {
        Compiled::with(function, Tier::Optimised)
    }

    /// Compiles `function` for this machine at `tier`.
    pub fn with(function: &Function, tier: Tier) -> Result<Compiled, JitError> {
        if !function.well_formed() {
            return Err(JitError::Codegen("the function is not well formed".into()));
        }
        let mut module = JITModule::new(host(tier)?);
        let pointer = module.target_config().pointer_type();
        let mut signature = module.make_signature();
        signature.params.push(AbiParam::new(pointer));
        signature.params.push(AbiParam::new(pointer));
        let id = module
            .declare_function("sparkgen_stage_function", Linkage::Export, &signature)
            .map_err(codegen)?;
        let mut context = module.make_context();
        context.func.signature = signature;
        context.func.name = UserFuncName::user(0, id.as_u32());
        let mut imports: HashMap<&'static str, FuncRef> = HashMap::new();
        {
            let mut fctx = FunctionBuilderContext::new();
            let mut b = FunctionBuilder::new(&mut context.func, &mut fctx);
            let block = b.create_block();
            b.append_block_params_for_function_params(block);
            b.switch_to_block(block);
            b.seal_block(block);
            let [reads, writes] = [b.block_params(block)[0], b.block_params(block)[1]];
            let flags = MemFlagsData::trusted();
            let (n_reads, n_writes) = (function.arguments().0.len(), function.arguments().1.len());
            let mut bases = Vec::with_capacity(n_reads + n_writes);
            for (array, count) in [(reads, n_reads), (writes, n_writes)] {
                for k in 0..count {
                    let offset = i32::try_from(k * 8).map_err(codegen)?;
                    bases.push(b.ins().load(pointer, flags, array, offset));
                }
            }
            let base = |arg: Arg| match arg {
                Arg::Read(k) => bases[k],
                Arg::Write(k) => bases[n_reads + k],
            };
            let mut values: Vec<Option<Ir>> = Vec::with_capacity(function.insts.len());
            for inst in &function.insts {
                let value = |v: crate::Value| {
                    values[v.index()].ok_or_else(|| codegen("a store used as an operand"))
                };
                let result = match *inst {
                    Inst::Load { arg, index } => {
                        let (at, offset) = address(&mut b, base(arg), index);
                        Some(b.ins().load(types::F64, flags, at, offset))
                    }
                    Inst::Const(x) => Some(b.ins().f64const(x)),
                    Inst::Store {
                        arg,
                        index,
                        value: v,
                    } => {
                        let v = value(v)?;
                        let (at, offset) = address(&mut b, base(arg), index);
                        b.ins().store(flags, v, at, offset);
                        None
                    }
                    Inst::Apply { op, a, b: c } => {
                        let (x, y) = (value(a)?, value(c)?);
                        Some(match op {
                            Op::Neg => b.ins().fneg(x),
                            Op::Add => b.ins().fadd(x, y),
                            Op::Sub => b.ins().fsub(x, y),
                            Op::Mul => b.ins().fmul(x, y),
                            Op::Div => b.ins().fdiv(x, y),
                            Op::Sqrt => b.ins().sqrt(x),
                            Op::Abs => b.ins().fabs(x),
                            Op::Powi(k) => powi(&mut b, x, k),
                            other => {
                                let (name, _, arity) = runtime_function(other)
                                    .ok_or_else(|| codegen(format!("no code for {other:?}")))?;
                                let callee = match imports.get(name) {
                                    Some(&callee) => callee,
                                    None => {
                                        let mut sig =
                                            Signature::new(module.isa().default_call_conv());
                                        sig.params
                                            .extend((0..arity).map(|_| AbiParam::new(types::F64)));
                                        sig.returns.push(AbiParam::new(types::F64));
                                        let f = module
                                            .declare_function(name, Linkage::Import, &sig)
                                            .map_err(codegen)?;
                                        let callee = module.declare_func_in_func(f, b.func);
                                        imports.insert(name, callee);
                                        callee
                                    }
                                };
                                let operands = [x, y];
                                let call = b.ins().call(callee, &operands[..arity]);
                                b.inst_results(call)[0]
                            }
                        })
                    }
                };
                values.push(result);
            }
            b.ins().return_(&[]);
            b.finalize(module.target_config());
        }
        module.define_function(id, &mut context).map_err(codegen)?;
        module.clear_context(&mut context);
        module.finalize_definitions().map_err(codegen)?;
        let code = module.get_finalized_function(id);
        // SAFETY: `code` is the finalized function declared above with `signature`: two
        // pointer parameters and no result, in the host's default calling convention, which
        // is `extern "C"`'s.
        let entry = unsafe { std::mem::transmute::<*const u8, Entry>(code) };
        let (reads, writes) = function.arguments();
        Ok(Compiled {
            module: Some(module),
            entry,
            reads: reads.to_vec(),
            writes: writes.to_vec(),
            instructions: function.len(),
        })
    }

    /// The declared lengths of the read-only and the writable arguments.
    pub fn arguments(&self) -> (&[usize], &[usize]) {
        (&self.reads, &self.writes)
    }

    /// The number of instructions of the function compiled.
    pub fn instructions(&self) -> usize {
        self.instructions
    }

    /// Runs the compiled function on `reads` and `writes`; `Err` when their number or lengths
    /// are not those declared.
    pub fn call(&self, reads: &[&[f64]], writes: &mut [&mut [f64]]) -> Result<(), JitError> {
        check_call((&self.reads, &self.writes), reads, writes)?;
        const INLINE: usize = 16;
        let mut read_ptrs = [std::ptr::null::<f64>(); INLINE];
        let mut write_ptrs = [std::ptr::null_mut::<f64>(); INLINE];
        let (mut read_heap, mut write_heap) = (Vec::new(), Vec::new());
        let read_ptrs: &[*const f64] = if reads.len() <= INLINE {
            for (p, s) in read_ptrs.iter_mut().zip(reads) {
                *p = s.as_ptr();
            }
            &read_ptrs[..reads.len()]
        } else {
            read_heap.extend(reads.iter().map(|s| s.as_ptr()));
            &read_heap
        };
        let write_ptrs: &[*mut f64] = if writes.len() <= INLINE {
            for (p, s) in write_ptrs.iter_mut().zip(writes.iter_mut()) {
                *p = s.as_mut_ptr();
            }
            &write_ptrs[..writes.len()]
        } else {
            write_heap.extend(writes.iter_mut().map(|s| s.as_mut_ptr()));
            &write_heap
        };
        // SAFETY: invariants 1–3 of the module documentation: the function is well formed
        // (checked in `new`), every slice is at least as long as declared (checked above) and
        // the writable ones are borrowed mutably for the call, and `self` owns the code.
        unsafe { (self.entry)(read_ptrs.as_ptr(), write_ptrs.as_ptr()) };
        Ok(())
    }
}
