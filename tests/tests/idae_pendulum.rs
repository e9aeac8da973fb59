//! The implicit-DAE steppers on a problem that is not a degenerate Lagrangian: the planar
//! pendulum in Jay's index-2 form (`IndexTwoPendulum`, `D = 2`, `M = 1`: `p = m v`,
//! `ṗ = −m g e₂ − λ q`, `u = 0`, `φ = q·p/m`), against the angle equation `θ̈ = −(g/ℓ) sin θ`
//! integrated by Gauss(8), from the consistent multiplier `λ₀` of the hidden constraint.
//!
//! Measured, and pinned here as the shortfall it is (on the view of a degenerate Lagrangian,
//! `u = λ`, the same steppers equal the eliminated ones to round-off and reach 2s): VPARK holds
//! `φ(q_n, p_n) = 0` to round-off and Newton converges at every s, but its order depends on the
//! sign of `R∞` in the projective weights `β = (½, R∞/2)` (GeometricIntegrators.jl's
//! `TableauSymplecticProjection`), whatever the internal tableau. The two projective stages at
//! `t_n` and `t_{n+1}` carry the constraint force into `p_{n+1}` as `h(½ G̃₁ + (R∞/2) G̃₂)`,
//! `G̃ᵢ = g(Q̃ᵢ, P̃ᵢ, Λ̃ᵢ)`:
//! - `R∞ = +1` (Gauss(s) at even s, Lobatto IIIA–IIIB and IIIB–IIIA at odd s): the trapezoidal
//!   rule, a second-order quadrature of a force that here is physical (the tension) rather than a
//!   correction vanishing on the exact flow. Measured: order 2.00 with error constants equal to
//!   12 digits across tableaus.
//! - `R∞ = −1` (the other s): `½ (G̃₁ − G̃₂) = O(h)`, so the tension never enters the momentum
//!   and the method is inconsistent with the DAE; measured: 0.25–0.27 away from the solution at
//!   T = 1 for every h when run to the end. Its multiplier leaves the tension (the defect grows by
//!   1.63 per step to 4.7 at step 4 of h = 0.1), and the multiplier watch
//!   (`sparkgen::integrate::multiplier_watch`) stops those runs. On a degenerate Lagrangian the exact multiplier vanishes and either sign
//!   is consistent (there R∞ only decides whether Λ̃ stays `O(h²)`, see `vpark.rs`).
//!
//! SPARK (upstream's form, GeometricIntegrators.jl's `src/spark/integrators_spark.jl`) has no
//! internal velocities (`v ≡ 0`): the velocity must be carried by `u`, as in the view of a
//! degenerate Lagrangian (`u = λ`). With `u = 0`, as here, it does not move, and this is tested.
use nalgebra::SVector;
use sparkgen::diagnostics::{empirical_order, gauss8};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::Options;
use sparkgen::problem::DaeConstraint;
use sparkgen::problems::IndexTwoPendulum;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

/// The error at T = 1 of `n` steps, the maximum |φ| and the maximum Newton residual.
fn run<M: StageMethod<IndexTwoPendulum, 2> + Method<IndexTwoPendulum, 2, Direct> + Default>(
    n: usize,
) -> (f64, f64, f64) {
    let problem = IndexTwoPendulum::default();
    let (q0, p0) = problem.initial_state(1.0, 0.0);
    let s = solve(
        &problem,
        M::default(),
        q0,
        p0,
        &Options::new(1.0 / n as f64, n),
    )
    .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    let theta = gauss8(
        |x| SVector::from([x[1], -x[0].sin()]),
        SVector::from([1.0, 0.0]),
        1.0,
        400,
    );
    let reference = SVector::from([theta[0].sin(), -theta[0].cos()]);
    let error = s.q.last().map_or(f64::NAN, |q| (q - reference).amax());
    let phi =
        s.q.iter()
            .zip(&s.p)
            .map(|(q, p)| problem.phi(q, p).amax())
            .fold(0.0, f64::max);
    let newton = s.stats.iter().map(|st| st.residual).fold(0.0, f64::max);
    (error, phi, newton)
}

/// The errors at T = 1 of `M` over `h = 1/10 … 1/80`, asserting round-off `|φ|` and Newton
/// residuals.
fn sweep<M: StageMethod<IndexTwoPendulum, 2> + Method<IndexTwoPendulum, 2, Direct> + Default>()
-> (Vec<f64>, Vec<f64>) {
    let steps = [10, 20, 40, 80];
    let runs: Vec<_> = steps.iter().map(|&n| run::<M>(n)).collect();
    let h: Vec<f64> = steps.iter().map(|&n| 1.0 / n as f64).collect();
    let errors: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let phi = runs.iter().map(|r| r.1).fold(0.0, f64::max);
    let newton = runs.iter().map(|r| r.2).fold(0.0, f64::max);
    println!(
        "{}: errors {errors:?} max |φ| {phi:.1e} Newton {newton:.1e}",
        M::NAME
    );
    assert!(phi <= 1e-14, "{}: max |φ| = {phi:e}", M::NAME);
    assert!(newton <= 1e-13, "{}: Newton residual {newton:e}", M::NAME);
    (h, errors)
}

/// SPARK with `u = 0`: `q_n = q₀` at every step.
fn stands_still<
    M: StageMethod<IndexTwoPendulum, 2> + Method<IndexTwoPendulum, 2, Direct> + Default,
>() {
    let problem = IndexTwoPendulum::default();
    let (q0, p0) = problem.initial_state(1.0, 0.0);
    let s = solve(&problem, M::default(), q0, p0, &Options::new(0.1, 10))
        .unwrap_or_else(|f| panic!("{}: {}", M::NAME, f.error));
    let moved = s.q.iter().map(|q| (q - q0).amax()).fold(0.0, f64::max);
    assert!(moved == 0.0, "{}: q moved by {moved:e}", M::NAME);
    assert!(
        s.p.last().is_some_and(|p| (p - p0).amax() > 0.01),
        "{}: p moves",
        M::NAME
    );
}

/// `R∞` of VPARK over Gauss(s) (`(−1)^s`) or a Lobatto pair (`(−1)^(s+1)`), from the stepper's
/// name and stage count.
fn r_infinity(name: &str, s: usize) -> f64 {
    let gauss = name.contains("Glrk");
    if s.is_multiple_of(2) == gauss {
        1.0
    } else {
        -1.0
    }
}

/// One VPARK stepper: order 2 where `R∞ = +1`; where `R∞ = −1`, every run of the sweep stops
/// with the multiplier watch's `ParasiticMultiplier` within its first 10 steps.
fn vpark<M: StageMethod<IndexTwoPendulum, 2> + Method<IndexTwoPendulum, 2, Direct> + Default>(
    s: usize,
) {
    if r_infinity(M::NAME, s) > 0.0 {
        let (h, errors) = sweep::<M>();
        let fit = empirical_order(&h, &errors, 1e-13).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            fit.points == 4 && (fit.order - 2.0).abs() <= 0.1,
            "{}: {fit:?}",
            M::NAME
        );
    } else {
        let problem = IndexTwoPendulum::default();
        let (q0, p0) = problem.initial_state(1.0, 0.0);
        for n in [10, 20, 40, 80] {
            let run = solve(
                &problem,
                M::default(),
                q0,
                p0,
                &Options::new(1.0 / n as f64, n),
            );
            match run.map_err(|f| f.error) {
                Err(IntegrateError::ParasiticMultiplier { step, .. }) if step <= 10 => {}
                other => panic!("{} with h = 1/{n}: {other:?}", M::NAME),
            }
        }
    }
}

macro_rules! vpark {
    ($($t:ident $s:literal),* $(,)?) => {
        $(vpark::<$t<1>>($s);)*
    };
}

#[test]
fn vpark_holds_the_constraint_and_reaches_order_two_exactly_where_r_infinity_is_one() {
    vpark!(
        IdaeVparkGlrkpSymplectic1 1,
        IdaeVparkGlrkpSymplectic2 2,
        IdaeVparkGlrkpSymplectic3 3,
        IdaeVparkGlrkpSymplectic4 4,
        IdaeVparkLobattoIIIAIIIBpSymplectic2 2,
        IdaeVparkLobattoIIIAIIIBpSymplectic3 3,
        IdaeVparkLobattoIIIAIIIBpSymplectic4 4,
        IdaeVparkLobattoIIIBIIIApSymplectic2 2,
        IdaeVparkLobattoIIIBIIIApSymplectic3 3,
        IdaeVparkLobattoIIIBIIIApSymplectic4 4,
    );
}

#[test]
fn spark_without_internal_velocities_does_not_move_when_u_vanishes() {
    type G2 = IdaeSparkGlrk2<1>;
    type L3 = IdaeSparkLobattoIIIAIIIB3<1>;
    stands_still::<G2>();
    stands_still::<L3>();
}
