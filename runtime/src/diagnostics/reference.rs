//! A reference solution of an ODE `q̇ = f(q)` in D dimensions by the Gauss(8) method
//! (order 16), for convergence studies: with the vector field `v(q)` of `Ω(q) v = −∇H(q)`
//! ([`crate::integrate::vector_field`]) it solves a degenerate Lagrangian problem independently
//! of the integrators under study.

use crate::generated::tableaus::gauss::GAUSS_8;
use nalgebra::SVector;

/// `q(T)` of `q̇ = f(q)`, `q(0) = q₀`, by Gauss(8) (order 16) as a plain implicit Runge–Kutta
/// method, `K_i = f(q_n + h Σ_j a_ij K_j)` solved by fixed-point iteration to a stationary
/// iterate, `q_{n+1} = q_n + h Σ_i b_i K_i`.
pub fn gauss8<const D: usize>(
    f: impl Fn(&SVector<f64, D>) -> SVector<f64, D>,
    q0: SVector<f64, D>,
    t_end: f64,
    steps: usize,
) -> SVector<f64, D> {
    let h = t_end / steps as f64;
    let t = &GAUSS_8;
    let mut q = q0;
    for _ in 0..steps {
        let mut k = [f(&q); 8];
        for _ in 0..200 {
            let next: [SVector<f64, D>; 8] = std::array::from_fn(|i| {
                f(&(q + k
                    .iter()
                    .zip(&t.a[i])
                    .map(|(kj, a)| kj * (a * h))
                    .sum::<SVector<f64, D>>()))
            });
            let change = next
                .iter()
                .zip(&k)
                .map(|(a, b)| (a - b).amax())
                .fold(0.0, f64::max);
            k = next;
            if change <= 1e-15 * k.iter().map(|x| x.amax()).fold(1.0, f64::max) {
                break;
            }
        }
        q += k
            .iter()
            .zip(&t.b)
            .map(|(ki, b)| ki * (b * h))
            .sum::<SVector<f64, D>>();
    }
    q
}
