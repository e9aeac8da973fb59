//! Typed errors of the symbolic core (construction itself is infallible).

use crate::graph::NodeId;
use crate::op::Func;
use std::fmt;

/// A function call that cannot be built (reported by the front end at the call's span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// Wrong number of arguments (method receiver included).
    Arity {
        /// The function called.
        func: Func,
        /// Its arity.
        expected: usize,
        /// Arguments supplied.
        found: usize,
    },
    /// `powi(x, k)` whose k is not an integer constant fitting in `i32`.
    NonIntegerExponent,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Arity {
                func,
                expected,
                found,
            } => write!(
                f,
                "`{}` takes {expected} argument{} (the method receiver counts), found {found}",
                func.name(),
                if *expected == 1 { "" } else { "s" }
            ),
            CallError::NonIntegerExponent => f.write_str(
                "the exponent of `powi` must be an integer constant (use `powf` otherwise)",
            ),
        }
    }
}

impl std::error::Error for CallError {}

/// A derivative that cannot be formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffError {
    /// The expression contains an operation without a derivative (`abs`).
    NotDifferentiable {
        /// Name of the operation.
        op: &'static str,
        /// The offending node.
        node: NodeId,
    },
    /// Differentiation with respect to a node that is not an input.
    NotAnInput(NodeId),
    /// Vector lengths that do not match in a contraction such as Jᵀw.
    LengthMismatch {
        /// Required length.
        expected: usize,
        /// Supplied length.
        found: usize,
    },
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::NotDifferentiable { op, .. } => write!(
                f,
                "`{op}` is not differentiable, but a derivative of an expression containing it is required"
            ),
            DiffError::NotAnInput(_) => {
                f.write_str("can only differentiate with respect to an input")
            }
            DiffError::LengthMismatch { expected, found } => {
                write!(
                    f,
                    "vector of length {found} where length {expected} is required"
                )
            }
        }
    }
}

impl std::error::Error for DiffError {}
