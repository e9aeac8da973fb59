//! The planar chain of `N` links hanging from a fixed pivot under gravity.

use super::model::{Bond, DistanceConstraints, ModelError};
use super::potential::Gravity;
use nalgebra::DVector;

/// A planar chain of `links` equal links of length `l` in the `(x, y)` plane, hanging from a
/// pivot at the origin: particle `k` (mass `m`) at the lower end of link `k`, bond 0 anchored
/// at the pivot, bond `k` between particles `k` and `k − 1`, gravity `g` along −y. The bonds
/// are numbered along the chain, so the Gram matrix is tridiagonal (half-bandwidth 1).
pub fn planar_chain(
    links: usize,
    m: f64,
    l: f64,
    g: f64,
) -> Result<DistanceConstraints<Gravity>, ModelError> {
    let bonds = (0..links)
        .map(|k| match k {
            0 => Bond::anchored(0, [0.0; 3], l),
            _ => Bond::pair(k, k - 1, l),
        })
        .collect();
    DistanceConstraints::new(2, vec![m; links], bonds, Gravity { g })
}

/// The consistent state `(q, p)` of the chain of [`planar_chain`] whose link `k` makes the
/// angle `θ_k` with the downward vertical and turns at rate `θ̇_k`, `links[k] = (θ_k, θ̇_k)`:
/// `x_k = x_{k−1} + ℓ(sin θ_k, −cos θ_k)`, `ẋ_k = ẋ_{k−1} + ℓ θ̇_k (cos θ_k, sin θ_k)`,
/// `p_k = m ẋ_k`.
pub fn planar_chain_state(m: f64, l: f64, links: &[(f64, f64)]) -> (DVector<f64>, DVector<f64>) {
    let mut q = DVector::zeros(2 * links.len());
    let mut p = DVector::zeros(2 * links.len());
    let (mut x, mut v) = ([0.0; 2], [0.0; 2]);
    for (k, &(theta, rate)) in links.iter().enumerate() {
        let (s, c) = theta.sin_cos();
        x = [x[0] + l * s, x[1] - l * c];
        v = [v[0] + l * rate * c, v[1] + l * rate * s];
        for i in 0..2 {
            q[2 * k + i] = x[i];
            p[2 * k + i] = m * v[i];
        }
    }
    (q, p)
}
