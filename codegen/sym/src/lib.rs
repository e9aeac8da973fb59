//! Symbolic core of sparkgen: a hash-consed expression DAG with canonicalising constructors,
//! symbolic differentiation (gradients, Jacobians, Hessians and the contractions ∂(Jᵀw)/∂q,
//! ∂(Jv)/∂q integrators need), a kernel IR with CSE, emission to `f64` Rust tokens, an
//! interpreter generic over [`Real`] (the test oracle) and a [`Tape`] compiled from a kernel for
//! run-time evaluation in `f64` (problem files).
//!
//! One operator table ([`Op`], module `op`) drives name lookup, arity, evaluation, partial
//! derivatives and emission.
//!
//! ```
//! use quote::{format_ident, quote};
//! use sparkgen_sym::{Cse, Graph, Input, KernelBuilder, bindings};
//!
//! // ϑ(q) = (q₁ + ln(q₁)/q₀, q₀) and its Jacobian J_ij = ∂ϑᵢ/∂qⱼ.
//! let mut g = Graph::new();
//! let q = g.vector("q", 2);
//! let l = g.ln(q[1]);
//! let r = g.div(l, q[0]);
//! let theta = [g.add(q[1], r), q[0]];
//! let j = g.jacobian(&theta, &q)?;
//! let kernel = KernelBuilder::new().matrix("J", &j).build(&g, Cse::On);
//! assert_eq!(kernel.structural_zeros().len(), 1); // J[1, 1] = 0 is never stored
//! let tokens = kernel.emit(&bindings(
//!     |input: &Input| match input {
//!         Input::Component { index, .. } => quote!(q[#index]),
//!         Input::Param(name) => { let f = format_ident!("{}", name); quote!(self.#f) }
//!     },
//!     |slot, value| match slot.index {
//!         sparkgen_sym::SlotIndex::Matrix(i, j) => quote!(out[(#i, #j)] = #value;),
//!         _ => quote!(),
//!     },
//! ));
//! assert!(tokens.to_string().contains("ln"));
//! # Ok::<(), sparkgen_sym::DiffError>(())
//! ```

mod construct;
pub mod derive;
mod diff;
mod emit;
mod error;
mod graph;
mod input;
mod interp;
mod kernel;
mod matrix;
mod number;
mod op;
mod rational;
mod real;
mod tape;

pub use emit::{Bindings, FnBindings, bindings};
pub use error::{CallError, DiffError};
pub use graph::{Graph, Node, NodeId};
pub use input::Input;
pub use kernel::{Cse, KExpr, Kernel, KernelBuilder, Let, OpCount, OutputSlot, SlotIndex, Store};
pub use matrix::Matrix;
pub use number::Number;
pub use op::{Func, Op};
pub use rational::Rational;
pub use real::Real;
pub use tape::{Part, Replay, Tape, UnboundInput};
