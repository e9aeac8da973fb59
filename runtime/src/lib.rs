//! sparkgen: structure-preserving integrators for constrained and degenerate mechanical
//! systems, with steppers generated at build time (exact tableaus, fully unrolled stage
//! equations, exact Jacobians) and problems differentiated at compile time by derive macros.
//!
//! [`solve`](fn@solve) runs any generated method on a problem of its kind; the README's quick start
//! (compiled and run as a doc test of this crate) shows a run from the derive to a trajectory
//! file.

/// The README, whose quick start runs as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeQuickStart;

// The derive expansions name `::sparkgen`; let them resolve inside this crate too.
extern crate self as sparkgen;

#[cfg(feature = "catalogue")]
pub use sparkgen_generated as generated;

pub mod problem;
/// The core crate itself, the path that steppers emitted from a user's `build.rs`
/// (`sparkgen_codegen::emit::stepper_source(…, "::sparkgen::sparkgen_core")`) and by
/// [`stepper!`] name.
pub use sparkgen_core;
pub use sparkgen_core::{amplification, kind, layout, rows, solve, stage};

#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostics;
pub mod engine;
pub mod ensemble;
pub mod error;
pub mod holonomic;
pub mod integrate;
pub mod observers;
pub mod output;
pub mod problem_file;
pub mod problems;
pub mod run;
pub mod solution;

#[cfg(feature = "catalogue")]
pub use engine::Named;
pub use run::{solve, solve_into};

pub use sparkgen_macros::{
    DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Lagrangian, stepper,
};

/// Items the derive macros' expansions refer to by fully qualified path. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use nalgebra::{SMatrix, SVector};
}
