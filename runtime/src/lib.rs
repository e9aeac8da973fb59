//! sparkgen runtime.

// The derive expansions name `::sparkgen`; let them resolve inside this crate too.
extern crate self as sparkgen;

pub use sparkgen_generated as generated;

pub mod problem;
pub use sparkgen_core::{layout, solve, stage};

pub mod error;
pub mod integrate;
pub mod problems;
pub mod solution;

pub use sparkgen_macros::{DegenerateLagrangian, HolonomicSystem, Lagrangian};

/// Items the derive macros' expansions refer to by fully qualified path. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use nalgebra::{SMatrix, SVector};
}
