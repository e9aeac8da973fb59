//! The generated Lobatto IIIA–IIIB RATTLE steppers `RattleLobattoIIIAIIIB{s}` on holonomic
//! systems: RATTLE itself at s = 2, order 2s − 2 on the pendulum, both constraints at round-off
//! over 10⁵ steps, bounded energy over 10⁶ steps, symplecticity on the constrained manifold by
//! the exact tangent map, and typed failures.

#[allow(dead_code)] // each test crate uses a subset of the shared helpers
mod rattle_common;
#[path = "rattle_common/symplectic.rs"]
mod symplectic;

use rattle_common::{pendulum_reference, sci, slope};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::{
    RattleLobattoIIIAIIIB2, RattleLobattoIIIAIIIB3, RattleLobattoIIIAIIIB4, RattleLobattoIIIAIIIB5,
};
use sparkgen::holonomic::problems::Pendulum;
use sparkgen::holonomic::{Rattle, Tolerances, project};
use sparkgen::integrate::Options;
use sparkgen::integrate::{Compiled, Driver};
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::solve::NewtonOptions;
use sparkgen::stage::StageMethod;
use symplectic::{Lcg, omega, spherical_pendulum, tangent_vector, triatomic};

const PENDULUM: Pendulum = Pendulum {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};
const THETA0: f64 = 1.0;

fn pendulum_run<
    Meth: StageMethod<Pendulum, 2> + Method<Pendulum, 2, Direct> + Default,
    const N: usize,
>(
    h: f64,
    steps: usize,
) -> Solution<2> {
    let (q0, p0) = PENDULUM.state(THETA0, 0.0);
    solve(&PENDULUM, Meth::default(), q0, p0, &Options::new(h, steps)).unwrap()
}

#[test]
fn two_stages_are_rattle() {
    let (h, steps) = (0.05, 2000);
    let (q0, p0) = PENDULUM.state(THETA0, 0.0);
    let generated = pendulum_run::<RattleLobattoIIIAIIIB2<1>, 6>(h, steps);
    let rattle = solve(&PENDULUM, Rattle, q0, p0, &Options::new(h, steps)).unwrap();
    let worst = (0..=steps).fold(0.0f64, |w, n| {
        w.max((generated.q[n] - rattle.q[n]).amax())
            .max((generated.p[n] - rattle.p[n]).amax())
    });
    println!("RattleLobattoIIIAIIIB2 vs RATTLE over {steps} steps: max difference {worst:.2e}");
    assert!(worst <= 1e-12, "{worst:e}");
}

/// The errors at T = 2 against the angle ODE and their least-squares slope.
fn order<Meth: StageMethod<Pendulum, 2> + Method<Pendulum, 2, Direct> + Default, const N: usize>(
    hs: &[f64],
) -> f64 {
    let t_end = 2.0;
    let (q_ref, p_ref) = pendulum_reference(&PENDULUM, THETA0, 0.0, t_end);
    let errors: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let steps = (t_end / h).round() as usize;
            let sol = pendulum_run::<Meth, N>(h, steps);
            (sol.q[steps] - q_ref)
                .amax()
                .max((sol.p[steps] - p_ref).amax())
        })
        .collect();
    let s = slope(hs, &errors);
    println!(
        "{}: errors {} at h = {hs:?}, slope {s:.3}",
        Meth::NAME,
        sci(&errors)
    );
    s
}

#[test]
fn order_two_s_minus_two_on_the_pendulum() {
    let cases = [
        (
            2.0,
            order::<RattleLobattoIIIAIIIB2<1>, 6>(&[0.2, 0.1, 0.05, 0.025, 0.0125]),
        ),
        (
            4.0,
            order::<RattleLobattoIIIAIIIB3<1>, 9>(&[0.2, 0.1, 0.05, 0.025, 0.0125]),
        ),
        (
            6.0,
            order::<RattleLobattoIIIAIIIB4<1>, 12>(&[0.4, 0.2, 0.1, 0.05]),
        ),
        (
            8.0,
            order::<RattleLobattoIIIAIIIB5<1>, 15>(&[0.5, 0.4, 0.25, 0.2]),
        ),
    ];
    for (expected, measured) in cases {
        assert!(
            (measured - expected).abs() <= 0.3,
            "order {expected}: slope {measured}"
        );
    }
}

/// `(max |c(q_n)|, max |G M⁻¹ p_n|, max relative energy error over the first tenth, over the
/// last tenth)` of a run of `steps` steps with h = 0.05.
fn invariants<
    Meth: StageMethod<Pendulum, 2> + Method<Pendulum, 2, Direct> + Default,
    const N: usize,
>(
    steps: usize,
) -> [f64; 4] {
    let sol = pendulum_run::<Meth, N>(0.05, steps);
    let minv = PENDULUM.inverse_mass_matrix();
    let e0 = PENDULUM.hamiltonian(&sol.q[0], &sol.p[0]);
    let tenth = steps / 10;
    let mut out = [0.0f64; 4];
    for (n, (q, p)) in sol.q.iter().zip(&sol.p).enumerate() {
        out[0] = out[0].max(PENDULUM.constraints(q).amax());
        out[1] = out[1].max((PENDULUM.constraint_jacobian(q) * (minv * p)).amax());
        let energy = ((PENDULUM.hamiltonian(q, p) - e0) / e0).abs();
        if n < tenth {
            out[2] = out[2].max(energy);
        } else if n > steps - tenth {
            out[3] = out[3].max(energy);
        }
    }
    let iterations: usize = sol.stats.iter().map(|s| s.iterations).sum();
    println!(
        "{}: {steps} steps, max |c(q_n)| = {:.1e}, max |G M⁻¹ p_n| = {:.1e}, relative energy error first tenth {:.2e}, last tenth {:.2e}, mean Newton iterations {:.2}",
        Meth::NAME,
        out[0],
        out[1],
        out[2],
        out[3],
        iterations as f64 / steps as f64
    );
    out
}

#[test]
fn constraints_at_round_off_over_1e5_steps() {
    for [c, v, ..] in [
        invariants::<RattleLobattoIIIAIIIB3<1>, 9>(100_000),
        invariants::<RattleLobattoIIIAIIIB4<1>, 12>(100_000),
    ] {
        assert!(c <= 1e-14 * PENDULUM.l * PENDULUM.l, "|c| = {c:e}");
        assert!(v <= 1e-14, "|G M⁻¹ p| = {v:e}");
    }
}

/// The relative energy error of the order-4 method stays bounded: its maximum over the last
/// tenth of 10⁶ steps is at most twice that over the first tenth.
#[test]
fn energy_bounded_without_drift_over_1e6_steps() {
    let [c, v, first, last] = invariants::<RattleLobattoIIIAIIIB3<1>, 9>(1_000_000);
    assert!(c <= 1e-14 && v <= 1e-14, "{c:e} {v:e}");
    assert!(first > 0.0 && last <= 2.0 * first, "{first:e} {last:e}");
}

/// Steps `warmup` times from the projection of `(q0, p0)`, then checks the exact tangent map of
/// the next step against central differences and `|ω(DΨξ, DΨη) − ω(ξ, η)|` for random tangent
/// vectors of the manifold; returns the largest defect.
fn symplecticity<Meth, P, const D: usize, const M: usize, const N: usize>(
    problem: &P,
    q0: Vector<D>,
    p0: Vector<D>,
    h: f64,
) -> f64
where
    Meth: StageMethod<P, D>,
    P: HolonomicSystem<D, M>,
{
    let (mut q, mut p) = project(problem, &q0, &p0, &Tolerances::default()).unwrap();
    let driver = || {
        let equations = Compiled::<Meth, P, D>::sized(problem).unwrap();
        Driver::new(equations, h, NewtonOptions::default()).unwrap()
    };
    let step = |driver: &mut Driver<_>, q: &Vector<D>, p: &Vector<D>| {
        driver.step(q.as_slice(), p.as_slice(), 1, 0.0).unwrap();
        let (q1, p1) = driver.state();
        (Vector::from_column_slice(q1), Vector::from_column_slice(p1))
    };
    let mut stepper = driver();
    for _ in 0..3 {
        (q, p) = step(&mut stepper, &q, &p);
    }
    step(&mut stepper, &q, &p);
    assert_eq!(stepper.unknowns().len(), N);
    let map = stepper.tangent_map(&q, &p).unwrap();
    let apply = |x: &(Vector<D>, Vector<D>)| {
        (
            map[0][0] * x.0 + map[0][1] * x.1,
            map[1][0] * x.0 + map[1][1] * x.1,
        )
    };
    let mut rng = Lcg(0x5eed_1000 + (D * 16 + N) as u64);
    let mut worst = 0.0f64;
    for _ in 0..6 {
        let xi = tangent_vector(problem, &q, &p, &mut rng);
        let eta = tangent_vector(problem, &q, &p, &mut rng);
        let (dxi, deta) = (apply(&xi), apply(&eta));
        let image = |s: f64| step(&mut driver(), &(q + s * xi.0), &(p + s * xi.1));
        let delta = 1e-5;
        let (plus, minus) = (image(delta), image(-delta));
        let fd_error = ((plus.0 - minus.0) / (2.0 * delta) - dxi.0)
            .amax()
            .max(((plus.1 - minus.1) / (2.0 * delta) - dxi.1).amax());
        assert!(
            fd_error <= 1e-7,
            "{}: tangent map vs differences {fd_error:e}",
            Meth::NAME
        );
        worst = worst.max((omega(&dxi, &deta) - omega(&xi, &eta)).abs());
    }
    println!(
        "{}, D = {D}, h = {h}: max |ω(DΨξ, DΨη) − ω(ξ, η)| = {worst:.1e}",
        Meth::NAME
    );
    worst
}

#[test]
fn symplectic_on_the_manifold() {
    let (sphere, qs, ps) = spherical_pendulum();
    let (molecule, qm, pm) = triatomic();
    let mut defects = Vec::new();
    for h in [0.05, 0.2] {
        defects.push(symplecticity::<RattleLobattoIIIAIIIB2<1>, _, 3, 1, 8>(
            &sphere, qs, ps, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB3<1>, _, 3, 1, 12>(
            &sphere, qs, ps, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB4<1>, _, 3, 1, 16>(
            &sphere, qs, ps, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB5<1>, _, 3, 1, 20>(
            &sphere, qs, ps, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB2<3>, _, 9, 3, 24>(
            &molecule, qm, pm, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB3<3>, _, 9, 3, 36>(
            &molecule, qm, pm, h,
        ));
        defects.push(symplecticity::<RattleLobattoIIIAIIIB4<3>, _, 9, 3, 48>(
            &molecule, qm, pm, h,
        ));
    }
    for d in defects {
        assert!(d <= 1e-13, "symplecticity defect {d:e}");
    }
}

#[test]
fn failures_are_typed_and_keep_the_trajectory() {
    let (q0, p0) = PENDULUM.state(THETA0, 0.0);
    // An iteration cap of one Newton step cannot reach round-off.
    let mut options = Options::new(0.1, 10);
    options.newton.max_iterations = 1;
    let failure = solve(&PENDULUM, RattleLobattoIIIAIIIB3::<1>, q0, p0, &options).unwrap_err();
    assert!(
        matches!(failure.error, IntegrateError::NewtonFailed { step: 1, .. }),
        "{}",
        failure.error
    );
    assert_eq!(failure.solution.q.len(), 1);
    // Inconsistent initial data are rejected with the numbers, or projected on request.
    let off = q0 * 1.01;
    let options = Options::new(0.1, 10);
    let failure = solve(&PENDULUM, RattleLobattoIIIAIIIB3::<1>, off, p0, &options).unwrap_err();
    match failure.error {
        IntegrateError::InconsistentConstraints { position, .. } => {
            assert!(position > 1e-3, "{position:e}")
        }
        other => panic!("{other}"),
    }
    let projected = Options {
        project_initial: true,
        ..options
    };
    let sol = solve(&PENDULUM, RattleLobattoIIIAIIIB3::<1>, off, p0, &projected).unwrap();
    assert!(PENDULUM.constraints(&sol.q[10]).amax() <= 1e-14);
}
