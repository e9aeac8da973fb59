//! The first Poincaré invariant `∮p·dq` of a closed loop of initial data.
//!
//! A loop `q₀(σ)`, `σ ∈ [0, 1)`, sampled at `σ_k = k/N`, with `p₀ = ϑ(q₀)`, is carried by the
//! discrete flow point by point. A symplectic map conserves `∮p·dq = ∫₀¹ p(σ)·q′(σ) dσ`. The
//! integral is evaluated spectrally: `q′(σ_k)` by differentiating the trigonometric interpolant
//! of the samples (a plain DFT of size `N`), then the trapezoidal rule, which is spectrally
//! accurate for periodic integrands. Central differences would leave an `O(N⁻²)` quadrature
//! error that changes as the loop deforms and masquerades as a symplecticity defect.

use super::DiagnosticsError;
use crate::integrate::Options;
use crate::problem::DegenerateLagrangian;
use crate::run::{Method, solve};
use nalgebra::SVector;
use std::f64::consts::TAU;

/// `N` points of the ellipse `q(σ) = c + (r₁ cos 2πσ, r₂ sin 2πσ)` at `σ_k = k/N`.
///
/// With `c = (1, 1)`, `r = (0.2, 0.3)` this is `f_loop` of the Lotka–Volterra reference.
pub fn ellipse_loop(center: [f64; 2], radii: [f64; 2], n: usize) -> Vec<SVector<f64, 2>> {
    (0..n)
        .map(|k| {
            let angle = TAU * k as f64 / n as f64;
            SVector::from([
                center[0] + radii[0] * angle.cos(),
                center[1] + radii[1] * angle.sin(),
            ])
        })
        .collect()
}

/// The derivative `x′(σ_k)` of the trigonometric interpolant of period 1 through the samples
/// `x_k = x(k/N)`: with `a_m = (2/N) Σ_k x_k cos(2πmk/N)` and `b_m = (2/N) Σ_k x_k sin(2πmk/N)`,
/// `x′(σ) = Σ_{m=1}^{⌊(N−1)/2⌋} 2πm (b_m cos 2πmσ − a_m sin 2πmσ)` (the Nyquist mode of an even
/// `N` has zero derivative at the samples and is dropped).
pub fn spectral_derivative<const D: usize>(x: &[SVector<f64, D>]) -> Vec<SVector<f64, D>> {
    let n = x.len();
    let table: Vec<(f64, f64)> = (0..n)
        .map(|j| (TAU * j as f64 / n as f64).sin_cos())
        .collect();
    let mut derivative = vec![SVector::<f64, D>::zeros(); n];
    for m in 1..=n.saturating_sub(1) / 2 {
        let (mut a, mut b) = (SVector::<f64, D>::zeros(), SVector::<f64, D>::zeros());
        for (k, xk) in x.iter().enumerate() {
            let (sin, cos) = table[(m * k) % n];
            a += xk * cos;
            b += xk * sin;
        }
        let factor = TAU * m as f64 * 2.0 / n as f64;
        for (k, dk) in derivative.iter_mut().enumerate() {
            let (sin, cos) = table[(m * k) % n];
            *dk += (b * cos - a * sin) * factor;
        }
    }
    derivative
}

/// `∮p·dq ≈ (1/N) Σ_k p_k · q′(σ_k)` over a loop sampled at `σ_k = k/N`, with `q′` from
/// [`spectral_derivative`].
pub fn loop_integral<const D: usize>(
    q: &[SVector<f64, D>],
    p: &[SVector<f64, D>],
) -> Result<f64, DiagnosticsError> {
    if q.len() < 3 || q.len() != p.len() {
        return Err(DiagnosticsError::InvalidLoop {
            positions: q.len(),
            momenta: p.len(),
        });
    }
    let dq = spectral_derivative(q);
    Ok(p.iter().zip(&dq).map(|(pk, dk)| pk.dot(dk)).sum::<f64>() / q.len() as f64)
}

/// `∮p·dq` of a loop carried by a method, at step counts `steps[0] = 0 < steps[1] < …`.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRun {
    /// Step counts n at which the loop integral was evaluated (0 first).
    pub steps: Vec<usize>,
    /// `∮p_n·dq_n` at those step counts.
    pub integral: Vec<f64>,
}

impl LoopRun {
    /// The relative drift `(∮p_n·dq_n − ∮p_0·dq_0) / |∮p_0·dq_0|` at every recorded step count.
    pub fn relative_drift(&self) -> Result<Vec<f64>, DiagnosticsError> {
        let i0 = self
            .integral
            .first()
            .copied()
            .ok_or(DiagnosticsError::EmptySolution)?;
        if i0 == 0.0 || !i0.is_finite() {
            return Err(DiagnosticsError::DegenerateReference(i0));
        }
        Ok(self.integral.iter().map(|i| (i - i0) / i0.abs()).collect())
    }
}

/// Integrates every point `q₀(σ_k)` of a loop with `p₀ = ϑ(q₀)` by `method` for
/// `options.steps` steps and evaluates `∮p·dq` at step 0 and at each of `checkpoints`.
pub fn integrate_loop<M, P, R, const D: usize>(
    problem: &P,
    method: M,
    loop_q0: &[SVector<f64, D>],
    options: &Options,
    checkpoints: &[usize],
) -> Result<LoopRun, DiagnosticsError>
where
    M: Method<P, D, R> + Copy,
    P: DegenerateLagrangian<D>,
{
    if let Some(&checkpoint) = checkpoints.iter().find(|&&c| c > options.steps) {
        return Err(DiagnosticsError::CheckpointBeyondRun {
            checkpoint,
            steps: options.steps,
        });
    }
    let steps: Vec<usize> = std::iter::once(0)
        .chain(checkpoints.iter().copied())
        .collect();
    let mut q = vec![Vec::with_capacity(loop_q0.len()); steps.len()];
    let mut p = q.clone();
    for (point, q0) in loop_q0.iter().enumerate() {
        let solution =
            solve(problem, method, *q0, problem.theta(q0), options).map_err(|failure| {
                DiagnosticsError::Integrate {
                    point,
                    error: Box::new(failure.error),
                }
            })?;
        for (k, &n) in steps.iter().enumerate() {
            q[k].push(solution.q[n]);
            p[k].push(solution.p[n]);
        }
    }
    let integral = q
        .iter()
        .zip(&p)
        .map(|(qk, pk)| loop_integral(qk, pk))
        .collect::<Result<_, _>>()?;
    Ok(LoopRun { steps, integral })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spectral_derivative_is_exact_for_trigonometric_polynomials() {
        // x(σ) = (sin 2πσ + 0.5 cos 6πσ, 3): x′ = (2π cos 2πσ − 3π sin 6πσ, 0).
        let n = 16;
        let x: Vec<SVector<f64, 2>> = (0..n)
            .map(|k| {
                let s = k as f64 / n as f64;
                SVector::from([(TAU * s).sin() + 0.5 * (3.0 * TAU * s).cos(), 3.0])
            })
            .collect();
        for (k, d) in spectral_derivative(&x).iter().enumerate() {
            let s = k as f64 / n as f64;
            let exact = TAU * (TAU * s).cos() - 1.5 * TAU * (3.0 * TAU * s).sin();
            assert!((d[0] - exact).abs() < 1e-12, "k = {k}: {} vs {exact}", d[0]);
            assert!(d[1].abs() < 1e-12);
        }
    }

    #[test]
    fn loop_integral_of_an_ellipse_is_its_area() {
        // ∮ q₂ dq₁ = −π r₁ r₂ for a counter-clockwise ellipse (Green), for p = (q₂, 0).
        let q = ellipse_loop([1.0, 1.0], [0.2, 0.3], 12);
        let p: Vec<SVector<f64, 2>> = q.iter().map(|qk| SVector::from([qk[1], 0.0])).collect();
        let integral = loop_integral(&q, &p).unwrap_or(f64::NAN);
        let area = std::f64::consts::PI * 0.2 * 0.3;
        assert!((integral + area).abs() < 1e-15, "{integral} vs {}", -area);
        assert!(matches!(
            loop_integral(&q[..2], &p[..2]),
            Err(DiagnosticsError::InvalidLoop { .. })
        ));
    }
}
