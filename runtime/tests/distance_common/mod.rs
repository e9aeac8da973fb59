//! Helpers shared by the tests of the dynamic-size (`DistanceConstraints`) path.

use nalgebra::{DMatrix, DVector};
use sparkgen::holonomic::distance::{
    DistanceConstraints, Gravity, planar_chain, planar_chain_state,
};

/// The link angles and rates `(θ_k, θ̇_k)` of a smooth initial shape of an `n`-link chain: a
/// half sine wave of amplitude `amplitude` along the chain, at rest except the last link.
pub fn chain_links(n: usize, amplitude: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|k| {
            let s = (k as f64 + 0.5) / n as f64;
            let rate = if k + 1 == n { 0.5 } else { 0.0 };
            (amplitude * (std::f64::consts::PI * s).sin(), rate)
        })
        .collect()
}

/// The `n`-link chain of total length and mass 1 (`ℓ = m = 1/n`) under `g = 1`, in the shape
/// of [`chain_links`] with `amplitude`: the system and `(q₀, p₀)`.
pub fn hanging_chain(
    n: usize,
    amplitude: f64,
) -> (DistanceConstraints<Gravity>, DVector<f64>, DVector<f64>) {
    let l = 1.0 / n as f64;
    let chain = planar_chain(n, l, l, 1.0).expect("a valid chain");
    let (q, p) = planar_chain_state(l, l, &chain_links(n, amplitude));
    (chain, q, p)
}

/// The chain in link angles, an independent formulation: equal masses m and lengths ℓ,
/// `Σ_j c_kj [cos(θ_k − θ_j) θ̈_j + sin(θ_k − θ_j) θ̇_j²] + (g/ℓ)(N − k) sin θ_k = 0` with
/// `c_kj = N − max(k, j)` (the number of particles below both links), integrated by classical
/// RK4 with `steps` steps to time `t`; returns the Cartesian state of
/// [`planar_chain_state`].
pub fn chain_reference(
    m: f64,
    l: f64,
    g: f64,
    links: &[(f64, f64)],
    t: f64,
    steps: usize,
) -> (DVector<f64>, DVector<f64>) {
    let n = links.len();
    let rhs = |theta: &DVector<f64>, rate: &DVector<f64>| {
        let a = DMatrix::from_fn(n, n, |k, j| {
            (n - k.max(j)) as f64 * (theta[k] - theta[j]).cos()
        });
        let b = DVector::from_fn(n, |k, _| {
            let coupling: f64 = (0..n)
                .map(|j| (n - k.max(j)) as f64 * (theta[k] - theta[j]).sin() * rate[j] * rate[j])
                .sum();
            -coupling - g / l * (n - k) as f64 * theta[k].sin()
        });
        a.lu()
            .solve(&b)
            .expect("the angle mass matrix is positive definite")
    };
    let mut theta = DVector::from_iterator(n, links.iter().map(|l| l.0));
    let mut rate = DVector::from_iterator(n, links.iter().map(|l| l.1));
    let h = t / steps as f64;
    for _ in 0..steps {
        let k1 = (rate.clone(), rhs(&theta, &rate));
        let (t2, r2) = (&theta + &k1.0 * (h / 2.0), &rate + &k1.1 * (h / 2.0));
        let k2 = (r2.clone(), rhs(&t2, &r2));
        let (t3, r3) = (&theta + &k2.0 * (h / 2.0), &rate + &k2.1 * (h / 2.0));
        let k3 = (r3.clone(), rhs(&t3, &r3));
        let (t4, r4) = (&theta + &k3.0 * h, &rate + &k3.1 * h);
        let k4 = (r4.clone(), rhs(&t4, &r4));
        theta += (k1.0 + k2.0 * 2.0 + k3.0 * 2.0 + k4.0) * (h / 6.0);
        rate += (k1.1 + k2.1 * 2.0 + k3.1 * 2.0 + k4.1) * (h / 6.0);
    }
    let links: Vec<(f64, f64)> = theta
        .iter()
        .zip(rate.iter())
        .map(|(a, w)| (*a, *w))
        .collect();
    planar_chain_state(m, l, &links)
}

/// The Gram matrix `A = G M⁻¹ Gᵀ` of `system` at `q`, dense, built from the definition
/// `G_bk = ∂c_b/∂q_k` (an independent check of the band assembly).
pub fn dense_gram(system: &DistanceConstraints<Gravity>, q: &DVector<f64>) -> DMatrix<f64> {
    use sparkgen::holonomic::distance::BondEnd;
    let dim = system.dim();
    let mut g = DMatrix::zeros(system.bonds().len(), system.coordinates());
    for (b, bond) in system.bonds().iter().enumerate() {
        for e in 0..dim {
            let other = match bond.to {
                BondEnd::Particle(j) => q[dim * j + e],
                BondEnd::Anchor(a) => a[e],
            };
            let d = q[dim * bond.i + e] - other;
            g[(b, dim * bond.i + e)] = d;
            if let BondEnd::Particle(j) = bond.to {
                g[(b, dim * j + e)] = -d;
            }
        }
    }
    let minv = DMatrix::from_diagonal(&DVector::from_iterator(
        system.coordinates(),
        system
            .masses()
            .iter()
            .flat_map(|m| std::iter::repeat_n(1.0 / m, dim)),
    ));
    &g * minv * g.transpose()
}
