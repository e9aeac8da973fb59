//! Why a function cannot be compiled or called.

/// Why a [`crate::Function`] cannot be compiled or called.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JitError {
    /// Cranelift has no code generator for this machine.
    #[error("no code generator for this machine: {0}")]
    Host(String),
    /// Cranelift refused the function (a verifier or code-generation error).
    #[error("the compiled back end refused the function: {0}")]
    Codegen(String),
    /// An argument slice is shorter than the function reads or writes, or the call passes
    /// another number of arguments than the function declares.
    #[error("argument {index}: the function reads {needed} values, the call passes {given}")]
    Argument {
        /// The argument's position (read-only arguments first).
        index: usize,
        /// Its declared length.
        needed: usize,
        /// The length passed.
        given: usize,
    },
    /// The call passes another number of arguments than the function declares.
    #[error("the function takes {needed} arguments, the call passes {given}")]
    Arity {
        /// Declared.
        needed: usize,
        /// Passed.
        given: usize,
    },
}
