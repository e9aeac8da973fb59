//! The run-time back end of sparkgen: a straight-line scalar [`Function`] — the lowering of a
//! method's stage functions (residual `r(x)`, stage Jacobian `∂r/∂x`, tangent partials, update)
//! with the problem's expressions inlined — compiled to machine code by Cranelift
//! ([`Compiled`]), and evaluated by the reference interpreter [`Function::eval`].
//!
//! A function reads and writes `f64` slices given at the call (its *arguments*: read-only ones
//! such as the step's coefficients `±|c|·hᵏ` and the problem's parameters, writable ones such as
//! the evaluation arena and the Jacobian). Its instructions are loads, constants, the operations
//! of the expression graph ([`sparkgen_sym::Op`]) and stores, in the order the interpreter of
//! the stage program performs them. Both back ends perform the same `f64` operations on the same
//! operands in that order: `+ − × ÷ √ |·|` as the IEEE operations, `xᵏ` by the binary powering
//! of `f64::powi` (compiler-rt's `__powidf2`), every other function by a call of the Rust
//! function the interpreter calls. Their results are therefore equal bit for bit.

mod error;
mod function;
mod machine;

pub use error::JitError;
pub use function::{Arg, Function, Value};
pub use machine::{Compiled, Tier};
