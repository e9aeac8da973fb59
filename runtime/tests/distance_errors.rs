//! Typed errors of the dynamic-size path: invalid systems, inconsistent initial data (and their
//! projection), the hard iteration cap keeping the trajectory so far, degenerate constraints
//! from coincident bonds, and invalid options.

#[allow(dead_code)]
mod distance_common;
#[allow(dead_code)]
mod rattle_common;

use distance_common::{chain_links, hanging_chain};
use nalgebra::DVector;
use rattle_common::capped_position_failure;
use sparkgen::error::IntegrateError;
use sparkgen::holonomic::Tolerances;
use sparkgen::holonomic::distance::{
    Bond, DistanceConstraints, DistanceRattle, FnPotential, Gravity, ModelError,
    consistency_residuals, integrate_distance_rattle, planar_chain, planar_chain_state, project,
};
use sparkgen::integrate::Options;

#[test]
fn invalid_systems_are_rejected() {
    let gravity = Gravity { g: 1.0 };
    let build = |dim, masses: Vec<f64>, bonds: Vec<Bond>| {
        DistanceConstraints::new(dim, masses, bonds, gravity).unwrap_err()
    };
    let pair = vec![Bond::pair(0, 1, 1.0)];
    assert_eq!(
        build(4, vec![1.0; 2], pair.clone()),
        ModelError::Dimension(4)
    );
    assert_eq!(
        build(2, vec![1.0, -2.0], pair.clone()),
        ModelError::Mass {
            particle: 1,
            mass: -2.0
        }
    );
    assert_eq!(build(3, vec![1.0; 2], vec![]), ModelError::NoBonds);
    assert_eq!(
        build(2, vec![1.0; 2], vec![Bond::pair(0, 2, 1.0)]),
        ModelError::Particle {
            bond: 0,
            particle: 2,
            particles: 2
        }
    );
    assert_eq!(
        build(2, vec![1.0; 2], vec![Bond::pair(1, 1, 1.0)]),
        ModelError::SelfBond {
            bond: 0,
            particle: 1
        }
    );
    assert_eq!(
        build(
            2,
            vec![1.0; 2],
            vec![Bond::pair(0, 1, 1.0), Bond::pair(0, 1, 0.0)]
        ),
        ModelError::Bond {
            bond: 1,
            length: 0.0
        }
    );
    let nan_anchor = vec![Bond::anchored(0, [f64::NAN, 0.0, 0.0], 1.0)];
    assert!(matches!(
        build(2, vec![1.0], nan_anchor),
        ModelError::Bond { bond: 0, .. }
    ));
    let chain = planar_chain(5, 1.0, 1.0, 1.0).unwrap();
    assert_eq!((chain.bandwidth(), chain.coordinates()), (1, 10));
}

#[test]
fn inconsistent_initial_data_are_rejected_with_the_numbers_or_projected() {
    let chain = planar_chain(16, 1.0, 1.0, 9.81).unwrap();
    let (q0, p0) = planar_chain_state(1.0, 1.0, &chain_links(16, 0.4));
    let q_off = &q0 * (1.0 + 1e-6);
    let mut p_off = p0.clone();
    p_off[7] += 1e-3;
    let mut options = Options::new(0.01, 10);
    let failure = integrate_distance_rattle(&chain, &q_off, &p_off, &options, 1).unwrap_err();
    println!("{}", failure.error);
    let expected = consistency_residuals(&chain, &q_off, &p_off).unwrap();
    let IntegrateError::InconsistentConstraints {
        position,
        velocity,
        tolerance,
    } = failure.error
    else {
        panic!("expected InconsistentInitialData, got {:?}", failure.error);
    };
    assert_eq!((position, velocity), (expected.position, expected.velocity));
    // Every bond is stretched by 10⁻⁶: |c_b| = ℓ²((1 + 10⁻⁶)² − 1)/2 relative to
    // ‖∇c_b‖₂‖q‖_∞ = √2 ℓ(1 + 10⁻⁶)‖q‖_∞; the anchored bond, with the smaller norm ℓ, is worst.
    let c = ((1.0f64 + 1e-6).powi(2) - 1.0) / 2.0;
    let anchored = c / ((1.0 + 1e-6) * q_off.amax());
    assert!((position - anchored).abs() <= 1e-9 * position, "{position}");
    assert!(velocity > 1e-5);
    assert_eq!(tolerance, 1e-12);
    assert!(failure.solution.t.is_empty());

    options.project_initial = true;
    let sol = integrate_distance_rattle(&chain, &q_off, &p_off, &options, 1).unwrap();
    for (q, p) in sol.q.iter().zip(&sol.p) {
        let r = consistency_residuals(&chain, q, p).unwrap();
        println!("{r:?}");
        assert!(
            r.position <= 4.0 * f64::EPSILON && r.velocity <= 1e-14,
            "{r:?}"
        );
    }
    println!("projected by |Δq|∞ = {:.3e}", (&q_off - &sol.q[0]).amax());
    // The public projection is the one the run starts with.
    let (q, p) = project(&chain, &q_off, &p_off, &options.constraints).unwrap();
    assert_eq!((&q, &p), (&sol.q[0], &sol.p[0]));
}

#[test]
fn iteration_cap_is_a_hard_error_keeping_the_solution() {
    // With τ_c = 0 only the floating-point fixed point stops the iteration; a cap of 4 fails
    // at the first step of the uncapped run that needed more (never an unconverged step
    // returned), the default cap does not.
    let (chain, q0, p0) = hanging_chain(32, 0.5);
    let mut options = Options::new(0.005, 300);
    options.constraints.position = 0.0;
    let full = integrate_distance_rattle(&chain, &q0, &p0, &options, 1).unwrap();
    // The first step that needs more than 4 iterations (counted from 1).
    let first_over = full
        .stats
        .iter()
        .position(|s| s.iterations > 4)
        .map(|n| n + 1);
    options.constraints.max_iterations = 4;
    let Err(failure) = integrate_distance_rattle(&chain, &q0, &p0, &options, 1) else {
        panic!("the cap was not reached");
    };
    println!("{failure}");
    let (step, time) = capped_position_failure(&failure.error, 4);
    assert_eq!(Some(step), first_over);
    // The trajectory up to the failing step is kept, identical to the uncapped run's.
    let kept = &failure.solution;
    assert_eq!(kept.steps(), step - 1);
    assert_eq!(kept.t.last().copied(), Some(time));
    assert_eq!(kept.q[..], full.q[..step]);
    assert_eq!(kept.p[..], full.p[..step]);
    // Sampled every 10 steps, the failure still ends with the last accepted state.
    let sampled = integrate_distance_rattle(&chain, &q0, &p0, &options, 10).unwrap_err();
    let kept = &sampled.solution;
    assert_eq!(sampled.error, failure.error);
    assert_eq!(kept.q.last(), failure.solution.q.last());
    assert_eq!(kept.t.last(), failure.solution.t.last());
}

#[test]
fn coincident_bonds_are_degenerate_constraints() {
    // A 3-link chain whose middle bond is given twice: two equal rows of G, A singular.
    let bonds = vec![
        Bond::anchored(0, [0.0; 3], 1.0),
        Bond::pair(1, 0, 1.0),
        Bond::pair(0, 1, 1.0),
        Bond::pair(2, 1, 1.0),
    ];
    let system = DistanceConstraints::new(2, vec![1.0; 3], bonds, Gravity { g: 1.0 }).unwrap();
    let (q0, p0) = planar_chain_state(1.0, 1.0, &[(0.3, 0.0), (0.5, 0.2), (0.1, 0.0)]);
    let options = Options::new(0.01, 10);
    let failure = integrate_distance_rattle(&system, &q0, &p0, &options, 1).unwrap_err();
    println!("{}", failure.error);
    match failure.error {
        IntegrateError::DegenerateConstraints {
            step,
            sigma_min,
            sigma_max,
            threshold,
            ..
        } => {
            assert_eq!(step, 1);
            assert_eq!(threshold, Tolerances::default().gram);
            assert!(
                sigma_min <= threshold * sigma_max,
                "{sigma_min} {sigma_max}"
            );
            // σ_max is at least the largest diagonal entry, 2ℓ²/m.
            assert!(sigma_max >= 2.0 * (1.0 - 1e-12));
        }
        other => panic!("expected DegenerateConstraints, got {other:?}"),
    }
    assert_eq!(failure.solution.q, vec![q0]);
}

#[test]
fn invalid_options_are_rejected() {
    let chain = planar_chain(4, 1.0, 1.0, 1.0).unwrap();
    let (q0, p0) = planar_chain_state(1.0, 1.0, &chain_links(4, 0.3));
    let invalid = |failure: &IntegrateError| matches!(failure, IntegrateError::InvalidOptions(_));
    // Each case spoils one option: h, the sampling interval, the iteration cap.
    let cases: [fn(&mut Options, &mut usize); 4] = [
        |o, _| o.h = 0.0,
        |o, _| o.h = f64::INFINITY,
        |_, every| *every = 0,
        |o, _| o.constraints.max_iterations = 0,
    ];
    for spoil in cases {
        let (mut options, mut every) = (Options::new(0.1, 10), 1);
        spoil(&mut options, &mut every);
        let failure = integrate_distance_rattle(&chain, &q0, &p0, &options, every).unwrap_err();
        assert!(invalid(&failure.error), "{failure}");
    }
    let short = DVector::zeros(7);
    let options = Options::new(0.1, 10);
    let failure = integrate_distance_rattle(&chain, &short, &p0, &options, 1).unwrap_err();
    assert!(invalid(&failure.error));
    let mut rattle = DistanceRattle::new(&chain, 0.1, Tolerances::default()).unwrap();
    let (mut q, mut p) = (short.clone(), p0.clone());
    assert!(invalid(&rattle.step(&mut q, &mut p).unwrap_err()));
    assert_eq!((q, p), (short, p0));
}

#[test]
fn closure_potentials_match_gravity_and_non_finite_forces_are_reported() {
    let (m, l, g) = (0.5, 0.25, 9.81);
    let bonds = |n: usize| -> Vec<Bond> {
        (0..n)
            .map(|k| match k {
                0 => Bond::anchored(0, [0.0; 3], l),
                _ => Bond::pair(k, k - 1, l),
            })
            .collect()
    };
    // V = m g Σ y_k written as closures over the coordinates.
    let closure = FnPotential {
        energy: move |q: &[f64]| m * g * q.iter().skip(1).step_by(2).sum::<f64>(),
        gradient: move |_: &[f64], grad: &mut [f64]| {
            for pair in grad.chunks_exact_mut(2) {
                pair.copy_from_slice(&[0.0, m * g]);
            }
        },
    };
    let by_closure = DistanceConstraints::new(2, vec![m; 6], bonds(6), closure).unwrap();
    let by_gravity = planar_chain(6, m, l, g).unwrap();
    let (q0, p0) = planar_chain_state(m, l, &chain_links(6, 0.7));
    let options = Options::new(0.01, 100);
    let a = integrate_distance_rattle(&by_closure, &q0, &p0, &options, 100).unwrap();
    let b = integrate_distance_rattle(&by_gravity, &q0, &p0, &options, 100).unwrap();
    assert_eq!((&a.q, &a.p), (&b.q, &b.p));
    assert_eq!(
        by_closure.hamiltonian(&a.q[1], &a.p[1]),
        by_gravity.hamiltonian(&b.q[1], &b.p[1])
    );

    // A force that becomes NaN once the first particle passes x = 0.
    let blowing_up = FnPotential {
        energy: |_: &[f64]| 0.0,
        gradient: |q: &[f64], grad: &mut [f64]| {
            let bad = if q[0] > 0.0 { f64::NAN } else { 0.0 };
            grad.fill(bad);
        },
    };
    let system = DistanceConstraints::new(2, vec![m; 6], bonds(6), blowing_up).unwrap();
    let (q0, p0) = planar_chain_state(m, l, &[(-0.05, 1.0); 6]);
    let Err(failure) = integrate_distance_rattle(&system, &q0, &p0, &options, 1) else {
        panic!("no error");
    };
    println!("{failure}");
    let IntegrateError::NonFinite { step, time } = failure.error else {
        panic!("expected NonFinite, got {:?}", failure.error);
    };
    assert!(step > 1);
    assert_eq!(failure.solution.steps(), step - 1);
    assert_eq!(failure.solution.t.last().copied(), Some(time));
    // The force is evaluated at the new position, so the last accepted one is still left of 0.
    assert!(failure.solution.q.last().unwrap()[0] <= 0.0);
}
