//! The SPARK tableau (GeometricIntegrators.jl's `TableauSPARK`; L. O. Jay, "Specialized partitioned
//! additive Runge–Kutta methods for systems of overdetermined DAEs with holonomic constraints",
//! SIAM J. Numer. Anal. 45, 2007): `s` internal stages carrying the dynamics and `r` projective
//! stages carrying the constraint and its multiplier, with the named slots of upstream's
//! `TableauSPARK`.
//!
//! Internal stages: `Q_i = q_n + h Σ_j a^q_ij V_j + h Σ_j α^q_ij U_j`,
//! `P_i = p_n + h Σ_j a^p_ij F_j + h Σ_j α^p_ij G_j` (i = 1..s); projective stages:
//! `Q̃_i = q_n + h Σ_j ã^q_ij V_j + h Σ_j α̃^q_ij U_j`,
//! `P̃_i = p_n + h Σ_j ã^p_ij F_j + h Σ_j α̃^p_ij G_j` (i = 1..r); update
//! `q_{n+1} = q_n + h Σ b^q_i V_i + h Σ β^q_j U_j`, `p_{n+1} = p_n + h Σ b^p_i F_i + h Σ β^p_j G_j`,
//! `λ_{n+1} = Σ_j d^λ_j Λ̃_j`. The constraint enters through `r − ρ` rows
//! `Σ_j ω_ij Φ̃_j + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) = 0` and `ρ` rows `Σ_j δ_ij Λ̃_j = 0`; a
//! Lobatto null vector `d` (length s), where present, adds the multiplier μ of the internal
//! velocities' gauge.

use crate::exact::{Matrix, Num};

/// A SPARK tableau with exact coefficients.
#[derive(Clone, Debug)]
pub struct SparkTableau {
    /// The name, e.g. `SparkGlrk2`.
    pub name: String,
    /// The declared order.
    pub order: usize,
    /// Internal stages s.
    pub s: usize,
    /// Projective stages r.
    pub r: usize,
    /// `a^q`, `a^p` (s×s).
    pub a: [Matrix; 2],
    /// `α^q`, `α^p` (s×r).
    pub alpha: [Matrix; 2],
    /// `ã^q`, `ã^p` (r×s).
    pub a_tilde: [Matrix; 2],
    /// `α̃^q`, `α̃^p` (r×r).
    pub alpha_tilde: [Matrix; 2],
    /// `b^q`, `b^p` (s).
    pub b: [Vec<Num>; 2],
    /// `β^q`, `β^p` (r).
    pub beta: [Vec<Num>; 2],
    /// `c^q`, `c^p` (s).
    pub c: [Vec<Num>; 2],
    /// `c^λ` (r): the nodes of the projective stages.
    pub c_lambda: Vec<Num>,
    /// `d^λ` (r): `λ_{n+1} = Σ_j d^λ_j Λ̃_j`.
    pub d_lambda: Vec<Num>,
    /// `ω`, (r − ρ)×(r + 1).
    pub omega: Matrix,
    /// `δ`, ρ×r.
    pub delta: Matrix,
    /// The null vector `d` (s), if any.
    pub null: Option<Vec<Num>>,
}

impl SparkTableau {
    /// `ρ`, the number of multiplier rows `Σ_j δ_ij Λ̃_j = 0`.
    pub fn rho(&self) -> usize {
        self.delta.len()
    }
}

/// `[I_n | 0]`, n×(n+1): the constraint at every projective stage and none at `t_{n+1}`.
pub fn identity_omega(n: usize) -> Matrix {
    (0..n)
        .map(|i| {
            (0..=n)
                .map(|j| if i == j { Num::one() } else { Num::zero() })
                .collect()
        })
        .collect()
}
