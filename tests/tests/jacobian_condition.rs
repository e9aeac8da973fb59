//! Regression for upstream's S10 (μ in two rows made the SLRK stage Jacobian singular at h = 1):
//! on Lotka–Volterra with upstream's defaults (`a = (−1, −1)`, `b = (1, 2)`, `q₀ = (2, 1)`), at
//! the initial guess `V_i = v(q₀)`, `Λ_i = 0`, `μ = 0`, the 2-norm condition number of the stage
//! Jacobian stays below 1e4 at h = 0.99 and 1.0 for all six families, s = 2, 3. And a step that
//! leaves the domain `q > 0` gives a typed error, not a NaN.
use nalgebra::{DMatrix, SVector};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::*;
use sparkgen::integrate::{Options, vector_field};
use sparkgen::layout::Role;
use sparkgen::problems::LotkaVolterra2d;
use sparkgen::rows::RowMajor;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solve;
use sparkgen::stage::StageMethod;

/// `κ₂(∂r/∂x) = σ_max/σ_min` of `M` at the initial guess, for h = 0.99 and 1.0.
fn condition<M: StageMethod<LotkaVolterra2d, 2>, const N: usize>() -> [f64; 2] {
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let v0: SVector<f64, 2> = vector_field(&lv, &q0).expect("Ω(q₀) is regular");
    let mut x = [0.0; N];
    for (b, block) in M::UNKNOWNS.blocks.iter().enumerate() {
        if block.role == Role::Velocity {
            for i in 0..block.stages {
                M::UNKNOWNS.set::<2>(&mut x, M::DIMS, b, i, &v0);
            }
        }
    }
    [0.99, 1.0].map(|h| {
        let mut j = [[0.0; N]; N];
        M::jacobian(&lv, h, &q0, &p0, &[], &x, &mut RowMajor::of(&mut j));
        let svd = DMatrix::from_fn(N, N, |r, c| j[r][c]).svd(false, false);
        svd.singular_values.max() / svd.singular_values.min()
    })
}

#[test]
fn stage_jacobian_is_well_conditioned_at_h_1() {
    let conditions = [
        ("SlrkLobattoIIIAB2", condition::<SlrkLobattoIIIAB2, 10>()),
        ("SlrkLobattoIIIAB3", condition::<SlrkLobattoIIIAB3, 14>()),
        ("SlrkLobattoIIIBA2", condition::<SlrkLobattoIIIBA2, 10>()),
        ("SlrkLobattoIIIBA3", condition::<SlrkLobattoIIIBA3, 14>()),
        (
            "SlrkLobattoIIICCBar2",
            condition::<SlrkLobattoIIICCBar2, 10>(),
        ),
        (
            "SlrkLobattoIIICCBar3",
            condition::<SlrkLobattoIIICCBar3, 14>(),
        ),
        (
            "SlrkLobattoIIICBarC2",
            condition::<SlrkLobattoIIICBarC2, 10>(),
        ),
        (
            "SlrkLobattoIIICBarC3",
            condition::<SlrkLobattoIIICBarC3, 14>(),
        ),
        ("SlrkLobattoIIID2", condition::<SlrkLobattoIIID2, 10>()),
        ("SlrkLobattoIIID3", condition::<SlrkLobattoIIID3, 14>()),
        ("SlrkLobattoIIIE2", condition::<SlrkLobattoIIIE2, 10>()),
        ("SlrkLobattoIIIE3", condition::<SlrkLobattoIIIE3, 14>()),
    ];
    for (name, [k099, k1]) in &conditions {
        println!("{name:22} κ₂ at h = 0.99: {k099:.3e}, at h = 1.0: {k1:.3e}");
    }
    for (name, k) in &conditions {
        assert!(k.iter().all(|k| k.is_finite() && *k < 1e4), "{name}: {k:?}");
    }
}

/// One step of size h = 50 from upstream's `q₀ = (2, 1)` cannot stay in `q > 0`
/// (`ln q` is undefined outside it): every family stops with a typed error and keeps only
/// finite states.
fn leaves_domain<M>()
where
    M: StageMethod<LotkaVolterra2d, 2> + Method<LotkaVolterra2d, 2, Direct> + Default,
{
    let lv = LotkaVolterra2d::UPSTREAM;
    let (q0, p0) = lv.initial(LotkaVolterra2d::UPSTREAM_Q0);
    let failure = solve(&lv, M::default(), q0, p0, &Options::new(50.0, 3))
        .expect_err("a step of size 50 leaves the domain");
    println!("{}: {}", M::NAME, failure.error);
    assert!(matches!(
        failure.error,
        IntegrateError::NonFinite { .. }
            | IntegrateError::NewtonFailed { .. }
            | IntegrateError::SingularJacobian { .. }
    ));
    let states = failure.solution.q.iter().chain(&failure.solution.p);
    assert!(states.flatten().all(|x| x.is_finite()));
    assert!(
        failure
            .solution
            .q
            .iter()
            .all(|q| q.iter().all(|x| *x > 0.0))
    );
}

#[test]
fn a_step_leaving_the_domain_is_a_typed_error() {
    leaves_domain::<SlrkLobattoIIIAB2>();
    leaves_domain::<SlrkLobattoIIIBA2>();
    leaves_domain::<SlrkLobattoIIICCBar2>();
    leaves_domain::<SlrkLobattoIIICBarC2>();
    leaves_domain::<SlrkLobattoIIID3>();
    leaves_domain::<SlrkLobattoIIIE3>();
    leaves_domain::<VprkGauss2>();
}
