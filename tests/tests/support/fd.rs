//! The exact stage Jacobian against central differences of the residual.
//!
//! Central differences with `δ_k = 10⁻⁶·max(1, |x_k|)` are accurate to `O(δ²) + O(ε/δ) ≈ 1e-10`;
//! tolerance: `|J_fd − J|_max ≤ 1e-7·max(1, |J|_max)`.

use nalgebra::SVector;
use sparkgen::rows::RowMajor;
use sparkgen::stage::StageMethod;

/// The step sizes checked.
pub const STEP_SIZES: [f64; 5] = [0.01, 0.1, 0.5, 0.99, 1.0];
const TOLERANCE: f64 = 1e-7;

/// A small deterministic generator (SplitMix64) of uniform numbers.
pub struct Rng(pub u64);

impl Rng {
    /// A uniform number in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        lo + (hi - lo) * (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Asserts the exact Jacobian of `M` on `problem` against central differences at 4 random
/// states `(q, p) = state(rng)` per step size, unknowns in `[−0.3, 0.3]` and a random carried
/// multiplier `λ_n` (read by VPARK; it enters no Jacobian entry); returns the largest scaled
/// discrepancy.
pub fn largest_discrepancy<M, P, const N: usize>(
    problem: &P,
    rng: &mut Rng,
    state: impl Fn(&mut Rng) -> (SVector<f64, 2>, SVector<f64, 2>),
) -> f64
where
    M: StageMethod<P, 2>,
{
    let mut largest = 0.0f64;
    for h in STEP_SIZES {
        for _ in 0..4 {
            let (q, p) = state(rng);
            let x: [f64; N] = std::array::from_fn(|_| rng.uniform(-0.3, 0.3));
            let lambda: Vec<f64> = (0..M::DIMS.constraints)
                .map(|_| rng.uniform(-0.1, 0.1))
                .collect();
            let mut exact = [[0.0; N]; N];
            M::jacobian(
                problem,
                h,
                &q,
                &p,
                &lambda,
                &x,
                &mut RowMajor::of(&mut exact),
            );
            let scale = exact.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
            for k in 0..N {
                let delta = 1e-6 * x[k].abs().max(1.0);
                let (mut plus, mut minus) = (x, x);
                plus[k] += delta;
                minus[k] -= delta;
                let (mut r_plus, mut r_minus) = ([0.0; N], [0.0; N]);
                M::residual(problem, h, &q, &p, &lambda, &plus, &mut r_plus);
                M::residual(problem, h, &q, &p, &lambda, &minus, &mut r_minus);
                for i in 0..N {
                    let fd = (r_plus[i] - r_minus[i]) / (2.0 * delta);
                    let e = (fd - exact[i][k]).abs() / scale;
                    assert!(
                        e <= TOLERANCE,
                        "{} h = {h}: ∂r_{i}/∂x_{k} exact {} vs central difference {fd}",
                        M::NAME,
                        exact[i][k]
                    );
                    largest = largest.max(e);
                }
            }
        }
    }
    largest
}
