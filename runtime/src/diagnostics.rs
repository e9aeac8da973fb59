//! Diagnostics usable on any run: the primary-constraint residual `max_n |φ(q_n, p_n)|`, the
//! relative energy error, the first Poincaré invariant `∮p·dq` of a closed loop of initial data
//! (spectral quadrature), the empirical order of convergence over a step sweep, and a Gauss(8)
//! reference solution for it.

mod invariants;
mod loop_integral;
mod order;
#[cfg(feature = "catalogue")]
mod reference;

pub use invariants::{
    EnergyError, constraint_residuals, max_constraint_residual, max_relative_energy_error,
    relative_energy_errors,
};
pub use loop_integral::{
    LoopRun, ellipse_loop, integrate_loop, loop_integral, spectral_derivative,
};
pub use order::{OrderFit, empirical_order};
#[cfg(feature = "catalogue")]
pub use reference::{gauss8, gauss8_on_slices};

use crate::error::IntegrateError;

/// The maximum of non-negative values (0 for none) that never skips a NaN: any NaN makes the
/// maximum NaN (`f64::max` would drop it and hide a failure).
pub fn maximum(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, nan_max)
}

/// The larger of two numbers, NaN if either is (see [`maximum`]).
pub fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// Why a diagnostic could not be evaluated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DiagnosticsError {
    /// The run holds no state.
    #[error("the solution is empty")]
    EmptySolution,
    /// A relative error was requested against a vanishing reference value.
    #[error("the reference value {0:e} is zero or not finite: a relative error is undefined")]
    DegenerateReference(f64),
    /// A loop needs at least three points, and `q`/`p` samples of equal length.
    #[error(
        "a loop needs at least 3 points and as many momenta as positions (got {positions} and {momenta})"
    )]
    InvalidLoop {
        /// Number of positions.
        positions: usize,
        /// Number of momenta.
        momenta: usize,
    },
    /// Fewer than two usable points are left for the least-squares slope.
    #[error("{usable} usable point(s) above the round-off floor: an order needs at least 2")]
    TooFewPoints {
        /// Points left after excluding the floor.
        usable: usize,
    },
    /// Step sizes and errors must pair up, with positive finite step sizes.
    #[error("invalid sweep: {0}")]
    InvalidSweep(&'static str),
    /// A checkpoint lies beyond the number of steps of the run.
    #[error("checkpoint {checkpoint} lies beyond the run's {steps} steps")]
    CheckpointBeyondRun {
        /// The checkpoint (a step count).
        checkpoint: usize,
        /// Steps of the run.
        steps: usize,
    },
    /// A diagnostic quantity along a run stopped being finite.
    #[error("step {step} (t = {time}): the {quantity} is {value} (not finite)")]
    NonFinite {
        /// What is not finite, e.g. `energy H`.
        quantity: &'static str,
        /// Its value (NaN or ±inf).
        value: f64,
        /// The step (0 for the initial state).
        step: usize,
        /// The time of the state.
        time: f64,
    },
    /// Integrating a point of the loop failed.
    #[error("loop point {point}: {error}")]
    Integrate {
        /// Index of the loop point (σ = point/N).
        point: usize,
        /// The integrator's error.
        error: Box<IntegrateError>,
    },
}
