//! sparkgen: structure-preserving integrators for constrained and degenerate mechanical
//! systems, with steppers generated at build time (exact tableaus, fully unrolled stage
//! equations, exact Jacobians) and problems differentiated at compile time by derive macros.
//!
//! ```
//! use sparkgen::generated::steppers::SlrkLobattoIIIE3;
//! use sparkgen::integrate::{integrate, Options};
//! use sparkgen::problem::DegenerateLagrangian;
//!
//! #[derive(DegenerateLagrangian)]
//! #[lagrangian(q = [x, y], theta = [y + ln(y) / x, x], hamiltonian = a1 * x + a2 * y + b1 * ln(x) + b2 * ln(y))]
//! struct LotkaVolterra { a1: f64, a2: f64, b1: f64, b2: f64 }
//!
//! let lv = LotkaVolterra { a1: -1.0, a2: -1.0, b1: 1.0, b2: 2.0 };
//! let q0 = nalgebra::SVector::from([2.0, 1.0]);
//! // N = (2s + 1)·D unknowns for SLRK: 14 for s = 3, D = 2.
//! let solution = integrate::<SlrkLobattoIIIE3, _, 2, 14>(&lv, q0, lv.theta(&q0), &Options::new(0.1, 1000))
//!     .expect("Newton converges");
//! // The primary constraint p = ϑ(q) holds to round-off.
//! let phi = (solution.p[1000] - lv.theta(&solution.q[1000])).amax();
//! assert!(phi < 1e-14);
//! ```

// The derive expansions name `::sparkgen`; let them resolve inside this crate too.
extern crate self as sparkgen;

#[cfg(feature = "catalogue")]
pub use sparkgen_generated as generated;

pub mod problem;
/// The core crate itself, the path that steppers emitted from a user's `build.rs`
/// (`sparkgen_codegen::emit::stepper_source(…, "::sparkgen::sparkgen_core")`) and by
/// [`stepper!`] name.
pub use sparkgen_core;
pub use sparkgen_core::{amplification, kind, layout, solve, stage};

// The library's unit tests do not exercise the command (its tests drive the binary and the
// public `cli` API from `tests/`); leaving it out of their build spares compiling every generated
// stepper's instantiation a second time.
#[cfg(all(feature = "cli", not(test)))]
pub mod cli;
pub mod diagnostics;
pub mod engine;
pub mod error;
pub mod holonomic;
pub mod integrate;
pub mod observers;
pub mod output;
pub mod problem_file;
pub mod problems;
pub mod solution;

pub use sparkgen_macros::{
    DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae, Lagrangian, stepper,
};

/// Items the derive macros' expansions refer to by fully qualified path. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use nalgebra::{SMatrix, SVector};
}
