//! The exact tangent map of one step (implicit function theorem on the converged stage
//! equations, from the emitted partial derivatives) agrees with central differences of the step
//! map to 1e−7, for every generated stepper on Lotka–Volterra.

use nalgebra::SVector;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::{Compiled, Driver};
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;

type V = SVector<f64, 2>;

/// The driver of `M` on `lv` with step size `h`, after its first step from `(q, p)`.
fn stepped<M: StageMethod<LotkaVolterra2d, 2>>(
    lv: &LotkaVolterra2d,
    h: f64,
    q: V,
    p: V,
) -> Driver<Compiled<'_, M, LotkaVolterra2d, 2>> {
    let equations = Compiled::<M, _, 2>::sized(lv).unwrap();
    let mut s = Driver::new(equations, h, NewtonOptions::default()).unwrap();
    s.step(q.as_slice(), p.as_slice(), 1, 0.0).unwrap();
    s
}

fn step<M: StageMethod<LotkaVolterra2d, 2>>(lv: &LotkaVolterra2d, h: f64, q: V, p: V) -> (V, V) {
    let s = stepped::<M>(lv, h, q, p);
    let (q1, p1) = s.state();
    (V::from_column_slice(q1), V::from_column_slice(p1))
}

/// max |DΨ_exact − DΨ_fd| / max(1, |DΨ|) over all entries.
fn check<M: StageMethod<LotkaVolterra2d, 2>>(h: f64) -> f64 {
    let lv = LotkaVolterra2d::UPSTREAM;
    // A state near, but not on, the primary constraint: the step map is defined on all of (q, p).
    let (q, p) = (V::new(1.7, 1.2), V::new(1.0, 1.9));
    let exact = stepped::<M>(&lv, h, q, p).tangent_map(&q, &p).unwrap();
    let delta = 1e-6;
    let mut worst = 0.0f64;
    for (input, perturb_q) in [(0, true), (1, false)] {
        for c in 0..2 {
            let mut e = V::zeros();
            e[c] = delta;
            let (plus, minus) = if perturb_q {
                (step::<M>(&lv, h, q + e, p), step::<M>(&lv, h, q - e, p))
            } else {
                (step::<M>(&lv, h, q, p + e), step::<M>(&lv, h, q, p - e))
            };
            let dq = (plus.0 - minus.0) / (2.0 * delta);
            let dp = (plus.1 - minus.1) / (2.0 * delta);
            for r in 0..2 {
                for (k, fd) in [dq[r], dp[r]].into_iter().enumerate() {
                    let ex = exact[k][input][(r, c)];
                    worst = worst.max((ex - fd).abs() / ex.abs().max(1.0));
                }
            }
        }
    }
    worst
}

macro_rules! cases {
    ($($m:ident),* $(,)?) => {
        vec![$((stringify!($m), check::<$m> as fn(f64) -> f64)),*]
    };
}

#[test]
fn exact_tangent_map_matches_central_differences() {
    let cases = cases![
        SlrkLobattoIIIAB2,
        SlrkLobattoIIIBA3,
        SlrkLobattoIIICCBar2,
        SlrkLobattoIIICBarC3,
        SlrkLobattoIIID4,
        SlrkLobattoIIIE3,
        SlrkLobattoIIIE5,
        VprkGauss1,
        VprkGauss3,
        VprkLobattoIIIAIIIB3,
        VprkLobattoIIIBIIIA2,
    ];
    for (name, f) in cases {
        for h in [0.01, 0.1, 0.5] {
            let err = f(h);
            println!("{name:>22} h = {h:<4}: max |DΨ − DΨ_fd| = {err:.2e}");
            assert!(err < 1e-7, "{name} at h = {h}: {err:e}");
        }
    }
}
