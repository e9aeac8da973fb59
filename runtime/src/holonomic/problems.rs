//! Holonomic problems shipped with sparkgen, written with `#[derive(HolonomicSystem)]`
//! (seed 002 for the Cartesian pendulum).

use super::distance;
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
    /// `m = g = ℓ = 1`.
    pub const UNIT: Pendulum = Pendulum {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };

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

/// [`distance::planar_chain_state`] on fixed-size storage (`D = 2N`, as every caller has).
fn chain_state<const N: usize, const D: usize>(
    m: f64,
    l: f64,
    links: &[(f64, f64); N],
) -> (Vector<D>, Vector<D>) {
    let (q, p) = distance::planar_chain_state(m, l, links);
    (
        Vector::from_column_slice(q.as_slice()),
        Vector::from_column_slice(p.as_slice()),
    )
}

/// The planar chain of 3 equal links hanging from a pivot at the origin (the fixed-size twin of
/// [`distance::planar_chain`]`(3, m, l, g)`): particle k of mass m at the lower end of link k,
/// `V = m g Σ_k y_k`, `c_k = ½(|x_k − x_{k−1}|² − ℓ²)` with `x_0` the pivot.
#[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
#[holonomic(
    q = [x1, y1, x2, y2, x3, y3],
    mass = m,
    potential = m * g * (y1 + y2 + y3),
    constraints = [
        (x1 * x1 + y1 * y1 - l * l) / 2.0,
        ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) - l * l) / 2.0,
        ((x3 - x2) * (x3 - x2) + (y3 - y2) * (y3 - y2) - l * l) / 2.0,
    ],
)]
pub struct Chain3 {
    /// Mass m of each particle.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
    /// Link length ℓ.
    pub l: f64,
}

impl Chain3 {
    /// The consistent state with link angles `θ_k` from the downward vertical and rates `θ̇_k`,
    /// `links[k] = (θ_k, θ̇_k)` (see [`distance::planar_chain_state`]).
    pub fn state(&self, links: &[(f64, f64); 3]) -> (Vector<6>, Vector<6>) {
        chain_state(self.m, self.l, links)
    }
}

/// The planar chain of 5 equal links hanging from a pivot at the origin (the fixed-size twin of
/// [`distance::planar_chain`]`(5, m, l, g)`): particle k of mass m at the lower end of link k,
/// `V = m g Σ_k y_k`, `c_k = ½(|x_k − x_{k−1}|² − ℓ²)` with `x_0` the pivot.
#[derive(Clone, Copy, Debug, PartialEq, HolonomicSystem)]
#[holonomic(
    q = [x1, y1, x2, y2, x3, y3, x4, y4, x5, y5],
    mass = m,
    potential = m * g * (y1 + y2 + y3 + y4 + y5),
    constraints = [
        (x1 * x1 + y1 * y1 - l * l) / 2.0,
        ((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) - l * l) / 2.0,
        ((x3 - x2) * (x3 - x2) + (y3 - y2) * (y3 - y2) - l * l) / 2.0,
        ((x4 - x3) * (x4 - x3) + (y4 - y3) * (y4 - y3) - l * l) / 2.0,
        ((x5 - x4) * (x5 - x4) + (y5 - y4) * (y5 - y4) - l * l) / 2.0,
    ],
)]
pub struct Chain5 {
    /// Mass m of each particle.
    pub m: f64,
    /// Gravitational acceleration g.
    pub g: f64,
    /// Link length ℓ.
    pub l: f64,
}

impl Chain5 {
    /// The consistent state with link angles `θ_k` from the downward vertical and rates `θ̇_k`,
    /// `links[k] = (θ_k, θ̇_k)` (see [`distance::planar_chain_state`]).
    pub fn state(&self, links: &[(f64, f64); 5]) -> (Vector<10>, Vector<10>) {
        chain_state(self.m, self.l, links)
    }
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
