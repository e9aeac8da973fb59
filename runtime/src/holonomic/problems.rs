//! Holonomic problems shipped with sparkgen, written with `#[derive(HolonomicSystem)]`
//! (seed 002 for the Cartesian pendulum).

use crate::problem::{HolonomicSystem, Vector};

/// The planar pendulum in Cartesian coordinates `q = (x, y)`: mass m, gravity g along −y,
/// `V = m g y`, `c(q) = x² + y² − ℓ²` (so `G = 2qᵀ` and the multipliers are half those of
/// `c = (|q|² − ℓ²)/2` in seed 002). With `g = 0` it is the seed's uniform rotation.
#[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
#[holonomic(q = [x, y], mass = m, potential = m * g * y, constraints = [x * x + y * y - l * l])]
pub struct Pendulum {
    /// Mass m.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
    /// Length ℓ.
    pub l: f64,
}

impl Pendulum {
    /// The consistent state at angle θ from the downward vertical with angular velocity θ̇:
    /// `q = ℓ(sin θ, −cos θ)`, `p = m ℓ θ̇ (cos θ, sin θ)`.
    pub fn state(&self, theta: f64, theta_dot: f64) -> (Vector<2>, Vector<2>) {
        let (s, c) = theta.sin_cos();
        let q = Vector::from([self.l * s, -self.l * c]);
        let p = Vector::from([c, s]) * (self.m * self.l * theta_dot);
        (q, p)
    }
}

/// The spherical pendulum `q = (x, y, z)`: mass m, gravity g along −z, `V = m g z`,
/// `c(q) = x² + y² + z² − ℓ²`.
#[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
#[holonomic(q = [x, y, z], mass = m, potential = m * g * z, constraints = [x * x + y * y + z * z - l * l])]
pub struct SphericalPendulum {
    /// Mass m.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
    /// Length ℓ.
    pub l: f64,
}

/// A rigid triatomic molecule in 3-D: particles `r_i = (x_i, y_i, z_i)` with masses `m_i`,
/// bond lengths fixed by `c = (|r₁ − r₂|² − d₁₂², |r₁ − r₃|² − d₁₃², |r₂ − r₃|² − d₂₃²)`, in the
/// smooth external potential `V = (k/2) Σ_i |r_i|² + a (x₁ y₂ + y₂ z₃ + z₃ x₁)` (a harmonic trap
/// plus a bilinear field that exerts torques).
#[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
#[holonomic(
    q = [x1, y1, z1, x2, y2, z2, x3, y3, z3],
    mass = [m1, m1, m1, m2, m2, m2, m3, m3, m3],
    potential = k / 2.0 * (x1 * x1 + y1 * y1 + z1 * z1 + x2 * x2 + y2 * y2 + z2 * z2 + x3 * x3 + y3 * y3 + z3 * z3)
        + a * (x1 * y2 + y2 * z3 + z3 * x1),
    constraints = [
        (x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2) + (z1 - z2) * (z1 - z2) - d12 * d12,
        (x1 - x3) * (x1 - x3) + (y1 - y3) * (y1 - y3) + (z1 - z3) * (z1 - z3) - d13 * d13,
        (x2 - x3) * (x2 - x3) + (y2 - y3) * (y2 - y3) + (z2 - z3) * (z2 - z3) - d23 * d23,
    ],
)]
pub struct Triatomic {
    /// Mass of particle 1.
    pub m1: f64,
    /// Mass of particle 2.
    pub m2: f64,
    /// Mass of particle 3.
    pub m3: f64,
    /// Bond length |r₁ − r₂|.
    pub d12: f64,
    /// Bond length |r₁ − r₃|.
    pub d13: f64,
    /// Bond length |r₂ − r₃|.
    pub d23: f64,
    /// Trap stiffness k.
    pub k: f64,
    /// Strength a of the bilinear field.
    pub a: f64,
}

impl Triatomic {
    /// A water-like molecule (masses 16, 1, 1; bonds 1, 1 and 2 sin(52.25°)) with `k = 1`,
    /// `a = 0.5`.
    pub const WATER_LIKE: Triatomic = Triatomic {
        m1: 16.0,
        m2: 1.0,
        m3: 1.0,
        d12: 1.0,
        d13: 1.0,
        d23: 1.581_379_147_487_686_6,
        k: 1.0,
        a: 0.5,
    };
}
