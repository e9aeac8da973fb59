//! The guiding-centre example (`problems/guiding_centre.toml`, `sparkgen::problems::GuidingCentre`):
//! q = (x, y, z, u), `ϑ = (A + u b, 0)`, `H = u²/2 + μ|B|` in an elliptic screw pinch invariant
//! under translation along z.
//!
//! The file and the derive evaluate every trait method bit for bit alike and integrate the same
//! trajectory; along 1000 steps of h = 0.1 (several bounces of the trapped orbit) the momentum
//! conjugate to the cyclic coordinate z (discrete Noether: ϑ and H do not depend on z, so the
//! z-row of every force the stage equations sum is an exact zero) stays at its initial value,
//! the energy error stays bounded, and the primary constraint `p = ϑ(q)` holds to round-off for
//! the methods that impose it. Which methods hold which invariant, measured over every
//! degenerate-Lagrangian stepper, is in docs/examples.md.

use nalgebra::SVector;
use sparkgen::diagnostics::{
    constraint_residuals, empirical_order, gauss8, maximum, relative_energy_errors,
};
use sparkgen::error::IntegrateError;
use sparkgen::generated::steppers::{
    SlrkLobattoIIIAB3, SlrkLobattoIIIE3, SparkGlrk2, SparkLobattoIIIAIIIB3, VprkGauss2, VprkGauss3,
    VprkLobattoIIIAIIIB3, VsparkPrimaryGlrkpMidpoint3,
};
use sparkgen::integrate::{Options, vector_field};
use sparkgen::problem::DegenerateLagrangian;
use sparkgen::problem_file::ProblemFile;
use sparkgen::problems::GuidingCentre;
use sparkgen::run::{Method, route::Direct};
use sparkgen::solution::Solution;
use sparkgen::solve;
use sparkgen::stage::StageMethod;

const GC: GuidingCentre = GuidingCentre::SCREW_PINCH;

/// The example file shipped with the runtime.
fn guiding_centre_file() -> ProblemFile {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/guiding_centre.toml");
    ProblemFile::read(path).expect("the example file is valid")
}

/// `steps` steps of size `h` of `M` on `problem` from the example's initial data.
fn run<M: StageMethod<P, 4> + Method<P, 4, Direct> + Default, P>(
    problem: &P,
    h: f64,
    steps: usize,
) -> Solution<4> {
    let (q0, p0) = GC.initial(GuidingCentre::SCREW_PINCH_Q0);
    solve(problem, M::default(), q0, p0, &Options::new(h, steps))
        .unwrap_or_else(|failure| panic!("{}: {}", M::NAME, failure.error))
}

#[test]
fn file_and_derive_evaluate_every_method_bit_for_bit_alike() {
    let ProblemFile::DegenerateLagrangian(file) = guiding_centre_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let a = file.view::<4>().expect("four coordinates");
    let b = GC;
    assert_eq!(a.initial(), b.initial(GuidingCentre::SCREW_PINCH_Q0));
    let points = [
        [0.5, 0.0, 0.0, 0.1],
        [0.62, -0.13, 3.7, -0.04],
        [-0.3, 0.25, -1.0, 0.07],
        [0.05, -0.4, 12.5, 0.0],
    ];
    for q in points.map(SVector::<f64, 4>::from) {
        let w = SVector::<f64, 4>::from([0.3, -1.2, 0.7, 2.0]);
        assert_eq!(a.theta(&q), b.theta(&q), "ϑ at {q:?}");
        assert_eq!(a.theta_jacobian(&q), b.theta_jacobian(&q), "∂ϑ at {q:?}");
        assert_eq!(
            a.hamiltonian(&q).to_bits(),
            b.hamiltonian(&q).to_bits(),
            "H at {q:?}"
        );
        assert_eq!(
            a.hamiltonian_gradient(&q),
            b.hamiltonian_gradient(&q),
            "∇H at {q:?}"
        );
        assert_eq!(
            a.hamiltonian_hessian(&q),
            b.hamiltonian_hessian(&q),
            "∇²H at {q:?}"
        );
        assert_eq!(
            a.jacobian_transpose_product_derivative(&q, &w),
            b.jacobian_transpose_product_derivative(&q, &w),
            "∂(∂ϑᵀw) at {q:?}"
        );
        assert_eq!(
            a.jacobian_product_derivative(&q, &w),
            b.jacobian_product_derivative(&q, &w),
            "∂(∂ϑ w) at {q:?}"
        );
        // Nothing depends on the cyclic coordinate z: its column of ∂ϑ and its entry of ∇H are
        // exact zeros.
        assert_eq!(b.theta_jacobian(&q).column(2).amax(), 0.0);
        assert_eq!(b.hamiltonian_gradient(&q)[2], 0.0);
    }
}

#[test]
fn file_and_derive_integrate_the_same_trajectory() {
    let ProblemFile::DegenerateLagrangian(file) = guiding_centre_file() else {
        panic!("the example file states a degenerate Lagrangian");
    };
    let interpreted = file.view::<4>().expect("four coordinates");
    let a = run::<SparkGlrk2, _>(&interpreted, 0.1, 200);
    let b = run::<SparkGlrk2, _>(&GC, 0.1, 200);
    assert_eq!(a.q.len(), 201);
    assert_eq!(a.q, b.q);
    assert_eq!(a.p, b.p);
}

/// The invariants of a run, each the maximum over every point (a NaN is kept).
#[derive(Debug)]
struct Invariants {
    /// `|p_z,n − p_z,0| / |p_z,0|`: the carried momentum conjugate to z.
    noether: f64,
    /// `|ϑ_z(q_n) − ϑ_z(q₀)| / |ϑ_z(q₀)|`: the same on the constraint.
    noether_on_constraint: f64,
    /// `|p_n − ϑ(q_n)|∞`.
    constraint: f64,
    /// The relative energy error over the first and the second half of the run.
    energy: [f64; 2],
}

fn invariants(solution: &Solution<4>) -> Invariants {
    let (q0, p0) = (solution.q[0], solution.p[0]);
    let relative = |x: f64, x0: f64| ((x - x0) / x0).abs();
    let energy = relative_energy_errors(&GC, solution).expect("H(q₀) ≠ 0");
    let (first, second) = energy.split_at(energy.len() / 2);
    Invariants {
        noether: maximum(solution.p.iter().map(|p| relative(p[2], p0[2]))),
        noether_on_constraint: maximum(
            solution
                .q
                .iter()
                .map(|q| relative(GC.theta(q)[2], GC.theta(&q0)[2])),
        ),
        constraint: maximum(constraint_residuals(&GC, solution).expect("a run")),
        energy: [
            maximum(first.iter().copied()),
            maximum(second.iter().copied()),
        ],
    }
}

/// 1000 steps of h = 0.1 from the example's initial data.
fn invariants_of<M: StageMethod<GuidingCentre, 4> + Method<GuidingCentre, 4, Direct> + Default>()
-> Invariants {
    let measured = invariants(&run::<M, _>(&GC, 0.1, 1000));
    let Invariants {
        noether,
        noether_on_constraint,
        constraint,
        energy: [first, second],
    } = measured;
    println!(
        "{:32} p_z {noether:.1e}, ϑ_z {noether_on_constraint:.1e}, |p − ϑ| {constraint:.1e}, \
         energy {first:.2e} then {second:.2e}",
        M::NAME
    );
    measured
}

#[test]
fn the_noether_momentum_is_conserved_by_the_constraint_preserving_methods() {
    for measured in [
        invariants_of::<SparkGlrk2>(),
        invariants_of::<SlrkLobattoIIIE3>(),
        invariants_of::<VsparkPrimaryGlrkpMidpoint3>(),
    ] {
        assert!(measured.noether <= 1e-12, "{measured:?}");
        assert!(measured.noether_on_constraint <= 1e-12, "{measured:?}");
        assert!(measured.constraint <= 1e-13, "{measured:?}");
        assert!(
            measured.energy[1] <= 2.0 * measured.energy[0],
            "{measured:?}"
        );
    }
}

/// VPRK carries `p` beside `q` without imposing `p = ϑ(q)`: the carried `p_z` keeps its value,
/// but `p − ϑ(q)` wanders at the truncation level, and `ϑ_z(q)` with it.
#[test]
fn vprk_conserves_the_carried_noether_momentum_but_not_the_constraint() {
    for measured in [invariants_of::<VprkGauss2>(), invariants_of::<VprkGauss3>()] {
        assert!(measured.noether <= 1e-12, "{measured:?}");
        assert!(measured.constraint >= 1e-10, "{measured:?}");
        assert!(measured.noether_on_constraint >= 1e-10, "{measured:?}");
    }
}

/// VPRK over Lobatto IIIA–IIIB has a parasitic mode on a nonlinear one-form: its energy error
/// grows over the run, yet the carried `p_z` does not move, since its force is an exact zero.
#[test]
fn vprk_lobatto_conserves_the_noether_momentum_while_its_energy_error_grows() {
    let measured = invariants_of::<VprkLobattoIIIAIIIB3>();
    assert!(measured.noether <= 1e-12, "{measured:?}");
    assert!(
        measured.energy[1] >= 2.0 * measured.energy[0],
        "{measured:?}"
    );
}

/// `ϑ_u ≡ 0` (the one-form has no du term) makes the Lobatto IIIA–IIIB stage systems of SLRK
/// and SPARK singular, as in Lotka–Volterra's singular gauge: the run stops at its first step
/// with a typed error.
#[test]
fn lobatto_iiia_iiib_stage_systems_are_singular_without_a_du_term() {
    let (q0, p0) = GC.initial(GuidingCentre::SCREW_PINCH_Q0);
    let options = Options::new(0.1, 10);
    let errors = [
        solve(&GC, SlrkLobattoIIIAB3, q0, p0, &options).map(|_| ()),
        solve(&GC, SparkLobattoIIIAIIIB3, q0, p0, &options).map(|_| ()),
    ];
    for result in errors {
        let failure = result.expect_err("a singular stage system");
        println!("{}", failure.error);
        assert_eq!(failure.solution.steps_taken, 0);
        assert!(
            matches!(
                failure.error,
                IntegrateError::SingularJacobian { step: 1, .. }
            ),
            "{}",
            failure.error
        );
    }
}

/// `q(T)` errors against Gauss(8) on the vector field `Ω(q) q̇ = ∇H(q)` and their least-squares
/// slope over h = T/8 … T/64.
fn order<M: StageMethod<GuidingCentre, 4> + Method<GuidingCentre, 4, Direct> + Default>(
    t_end: f64,
) -> f64 {
    let (q0, _) = GC.initial(GuidingCentre::SCREW_PINCH_Q0);
    let field = |q: &SVector<f64, 4>| vector_field(&GC, q).expect("Ω is regular on the orbit");
    let reference = gauss8(field, q0, t_end, 64);
    let steps = [8, 16, 32, 64];
    let (h, errors): (Vec<f64>, Vec<f64>) = steps
        .iter()
        .map(|&n| {
            let solution = run::<M, _>(&GC, t_end / n as f64, n);
            let q = solution.q.last().expect("a run");
            (t_end / n as f64, (q - reference).amax())
        })
        .unzip();
    let fit = empirical_order(&h, &errors, 1e-13).expect("errors above round-off");
    let shown: Vec<String> = errors.iter().map(|e| format!("{e:.2e}")).collect();
    println!(
        "{:32} errors {}: order {:.2}",
        M::NAME,
        shown.join(" "),
        fit.order
    );
    fit.order
}

#[test]
fn orders_on_the_guiding_centre() {
    let spark = order::<SparkGlrk2>(4.0);
    assert!((spark - 4.0).abs() <= 0.3, "SparkGlrk(2): {spark}");
    let slrk = order::<SlrkLobattoIIIE3>(4.0);
    assert!((slrk - 4.0).abs() <= 0.3, "SlrkLobattoIIIE(3): {slrk}");
}
