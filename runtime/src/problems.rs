//! Problems shipped with sparkgen, written with the derive macros
//! (`tableaus_problems.md` §4.1; seed 000 for the degenerate pendulum).

use crate::problem::DegenerateLagrangian;
use nalgebra::SVector;

/// Lotka–Volterra 2d in the standard gauge `ϑ = (q₂ + ln q₂/q₁, q₁)`,
/// `H = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂`; the ODE is `q̇₁ = q₁(a₂q₂ + b₂)`,
/// `q̇₂ = −q₂(a₁q₁ + b₁)`.
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [q2 + ln(q2) / q1, q1], hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2))]
pub struct LotkaVolterra2d {
    /// a₁.
    pub a1: f64,
    /// a₂.
    pub a2: f64,
    /// b₁.
    pub b1: f64,
    /// b₂.
    pub b2: f64,
}

/// Lotka–Volterra 2d in the singular gauge `ϑ = (ln q₂/q₁, 0)` (same ODE; ϑ₂ ≡ 0 makes the
/// SLRK IIIA–IIIB and IIIB–IIIA stage systems singular).
#[derive(Clone, Copy, Debug, PartialEq, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [ln(q2) / q1, 0.0], hamiltonian = a1 * q1 + a2 * q2 + b1 * ln(q1) + b2 * ln(q2))]
pub struct LotkaVolterra2dSingular {
    /// a₁.
    pub a1: f64,
    /// a₂.
    pub a2: f64,
    /// b₁.
    pub b1: f64,
    /// b₂.
    pub b2: f64,
}

/// The degenerate pendulum: a linear one-form `ϑ = (q₂, 0)`, `H = q₂²/2 + cos q₁`
/// (`q̇₁ = q₂`, `q̇₂ = sin q₁`).
#[derive(Clone, Copy, Debug, PartialEq, Default, DegenerateLagrangian)]
#[lagrangian(q = [q1, q2], theta = [q2, 0.0], hamiltonian = q2 * q2 / 2.0 + cos(q1))]
pub struct DegeneratePendulum;

macro_rules! lotka_volterra_data {
    ($ty:ident) => {
        impl $ty {
            /// Upstream's defaults: `a = (−1, −1)`, `b = (1, 2)`, `q₀ = (2, 1)`.
            pub const UPSTREAM: $ty = $ty {
                a1: -1.0,
                a2: -1.0,
                b1: 1.0,
                b2: 2.0,
            };
            /// The SPARK test configuration: `a = (1, 1)`, `b = (−1, −2)`, `q₀ = (1, 1)`.
            pub const SPARK_TEST: $ty = $ty {
                a1: 1.0,
                a2: 1.0,
                b1: -1.0,
                b2: -2.0,
            };

            /// Upstream's default `q₀ = (2, 1)`.
            pub const UPSTREAM_Q0: [f64; 2] = [2.0, 1.0];
            /// The SPARK test configuration's `q₀ = (1, 1)`.
            pub const SPARK_TEST_Q0: [f64; 2] = [1.0, 1.0];

            /// Consistent initial data `(q₀, ϑ(q₀))`.
            pub fn initial(&self, q0: [f64; 2]) -> (SVector<f64, 2>, SVector<f64, 2>) {
                let q0 = SVector::from(q0);
                (q0, self.theta(&q0))
            }
        }
    };
}

lotka_volterra_data!(LotkaVolterra2d);
lotka_volterra_data!(LotkaVolterra2dSingular);

impl DegeneratePendulum {
    /// `q₀ = (arccos 0.4, 0)`, `p₀ = ϑ(q₀)`.
    pub fn initial(&self) -> (SVector<f64, 2>, SVector<f64, 2>) {
        let q0 = SVector::from([0.4f64.acos(), 0.0]);
        (q0, self.theta(&q0))
    }
}
