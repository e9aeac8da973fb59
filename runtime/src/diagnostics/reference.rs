//! A reference solution of an ODE `q̇ = f(q)` in D dimensions by the Gauss(8) method
//! (order 16), for convergence studies: with the vector field `v(q)` of `Ω(q) v = −∇H(q)`
//! ([`crate::integrate::vector_field`]) it solves a degenerate Lagrangian problem independently
//! of the integrators under study.

use crate::generated::tableaus::gauss::GAUSS_8;
use nalgebra::SVector;

/// `q(T)` of `q̇ = f(q)`, `q(0) = q₀`, by Gauss(8) (order 16) as a plain implicit Runge–Kutta
/// method, `K_i = f(q_n + h Σ_j a_ij K_j)` solved by fixed-point iteration to a stationary
/// iterate, `q_{n+1} = q_n + h Σ_i b_i K_i` ([`gauss8_on_slices`] on fixed-size vectors).
pub fn gauss8<const D: usize>(
    f: impl Fn(&SVector<f64, D>) -> SVector<f64, D>,
    q0: SVector<f64, D>,
    t_end: f64,
    steps: usize,
) -> SVector<f64, D> {
    let field = |q: &[f64], out: &mut [f64]| {
        out.copy_from_slice(f(&SVector::from_column_slice(q)).as_slice());
    };
    SVector::from_column_slice(&gauss8_on_slices(field, q0.as_slice(), t_end, steps))
}

/// [`gauss8`] for `D = q₀.len()` known at run time: `f(q, out)` writes `f(q)` into `out`.
pub fn gauss8_on_slices(
    mut f: impl FnMut(&[f64], &mut [f64]),
    q0: &[f64],
    t_end: f64,
    steps: usize,
) -> Vec<f64> {
    let (d, s) = (q0.len(), GAUSS_8.b.len());
    let h = t_end / steps as f64;
    let t = &GAUSS_8;
    let mut q = q0.to_vec();
    let (mut k, mut next, mut arg) = (vec![0.0; s * d], vec![0.0; s * d], vec![0.0; d]);
    for _ in 0..steps {
        f(&q, &mut k[..d]);
        for i in 1..s {
            k.copy_within(..d, i * d);
        }
        for _ in 0..200 {
            for (i, out) in next.chunks_exact_mut(d).enumerate() {
                for (c, x) in arg.iter_mut().enumerate() {
                    let sum = (0..s).fold(0.0, |sum, j| sum + k[j * d + c] * (t.a[i][j] * h));
                    *x = q[c] + sum;
                }
                f(&arg, out);
            }
            let change = next
                .iter()
                .zip(&k)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            std::mem::swap(&mut k, &mut next);
            if change <= 1e-15 * k.iter().map(|x| x.abs()).fold(1.0, f64::max) {
                break;
            }
        }
        for (c, x) in q.iter_mut().enumerate() {
            *x += (0..s).fold(0.0, |sum, i| sum + k[i * d + c] * (t.b[i] * h));
        }
    }
    q
}
