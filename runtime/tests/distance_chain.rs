//! RATTLE on the dynamic-size path (`DistanceConstraints`) for planar chains hanging from a
//! pivot: agreement with the fixed-size RATTLE on the derived chains of 3 and 5 links, order 2
//! against the chain's angle equations, and both constraints at round-off with a bounded energy
//! error over a long run of a 64-link chain.

#[allow(dead_code)]
mod distance_common;
#[allow(dead_code)]
mod rattle_common;

use distance_common::{chain_links, chain_reference, hanging_chain};
use nalgebra::DVector;
use rattle_common::{sci, slope};
use sparkgen::holonomic::distance::{DistanceRattle, integrate_distance_rattle, planar_chain};
use sparkgen::holonomic::problems::{Chain3, Chain5};
use sparkgen::holonomic::{Rattle, RattleStepper, Tolerances};
use sparkgen::integrate::Options;
use sparkgen::problem::{HolonomicSystem, Vector};
use sparkgen::solve;
use std::time::Instant;

/// The derived 3-link chain with unit masses, links and gravity, and its initial link angles
/// and rates.
const CHAIN3: Chain3 = Chain3 {
    m: 1.0,
    g: 1.0,
    l: 1.0,
};
const LINKS3: [(f64, f64); 3] = [(0.6, 0.0), (0.3, 0.4), (-0.2, 0.0)];

/// Asserts that the fixed-size and the dynamic RATTLE agree to 10⁻¹² in q and in p over
/// `steps` steps of size `h` from the same state of an N-link chain (`m = 1`, `ℓ = 1`, `g = 1`).
fn fixed_against_dynamic<P: HolonomicSystem<D, N>, const D: usize, const N: usize>(
    fixed: &P,
    q0: Vector<D>,
    p0: Vector<D>,
    h: f64,
    steps: usize,
) {
    let options = Options::new(h, steps);
    let a = solve(fixed, Rattle, q0, p0, &options).unwrap();
    let chain = planar_chain(N, 1.0, 1.0, 1.0).unwrap();
    let (q0, p0) = (
        DVector::from_column_slice(q0.as_slice()),
        DVector::from_column_slice(p0.as_slice()),
    );
    let b = integrate_distance_rattle(&chain, &q0, &p0, &options, 1).unwrap();
    assert_eq!(b.q.len(), steps + 1);
    let worst = |x: &[Vector<D>], y: &[DVector<f64>]| {
        (x.iter().zip(y))
            .map(|(u, v)| (DVector::from_column_slice(u.as_slice()) - v).amax())
            .fold(0.0, f64::max)
    };
    let iterations = |s: &[sparkgen::solution::StepStats]| {
        s.iter().map(|s| s.iterations).sum::<usize>() as f64 / steps as f64
    };
    println!(
        "{N} links: mean Newton iterations fixed {:.2}, dynamic {:.2}",
        iterations(&a.stats),
        iterations(&b.stats)
    );
    let (dq, dp) = (worst(&a.q, &b.q), worst(&a.p, &b.p));
    println!("{N} links, {steps} steps: max |Δq| = {dq:.2e}, max |Δp| = {dp:.2e}");
    assert!(dq <= 1e-12 && dp <= 1e-12);
}

#[test]
fn agrees_with_fixed_size_rattle_on_derived_chains() {
    let (q0, p0) = CHAIN3.state(&LINKS3);
    fixed_against_dynamic(&CHAIN3, q0, p0, 0.01, 1000);
    let chain5 = Chain5 {
        m: 1.0,
        g: 1.0,
        l: 1.0,
    };
    let links5 = [(0.5, 0.0), (0.4, 0.1), (0.2, 0.0), (-0.1, 0.3), (-0.3, 0.0)];
    let (q0, p0) = chain5.state(&links5);
    fixed_against_dynamic(&chain5, q0, p0, 0.01, 1000);
}

#[test]
fn order_two_against_the_angle_equations() {
    // 8 links of total length and mass 1.
    let n = 8;
    let (l, t_end) = (1.0 / n as f64, 1.0);
    let (chain, q0, p0) = hanging_chain(n, 0.5);
    let (q_ref, p_ref) = chain_reference(l, l, 1.0, &chain_links(n, 0.5), t_end, 20_000);
    let hs = [0.02, 0.01, 0.005, 0.0025, 0.00125];
    let errors: Vec<f64> = (hs.iter())
        .map(|&h| {
            let steps = (t_end / h).round() as usize;
            let options = Options::new(h, steps);
            let sol = integrate_distance_rattle(&chain, &q0, &p0, &options, steps).unwrap();
            let (q, p) = (&sol.q[1], &sol.p[1]);
            (q - &q_ref).amax().max((p - &p_ref).amax())
        })
        .collect();
    let s = slope(&hs, &errors);
    println!("8-link chain: errors {}, slope {s:.3}", sci(&errors));
    assert!((s - 2.0).abs() <= 0.3, "slope {s}");
}

/// 64 links of total length and mass 1 (ℓ = m = 1/64, g = 1; the fastest transverse mode has
/// ω ≈ 2√(T/(mℓ)) ≤ 128), h = 10⁻³, 10⁵ steps, default tolerances, at every step:
///
/// - `|c_b(q_n)| ≤ 10⁻¹⁴ ‖∇c_b‖₂ ‖q_n‖_∞` (`c_b = ½(|d_b|² − ℓ²)`, `‖∇c_b‖₂ = √2 ℓ`): the
///   displacement normal to each constraint surface relative to the size of the coordinates,
///   the scale the tolerances are stated in. In units of ℓ² the floor is set by the coordinates'
///   own round-off, `|δd_b| ~ ε ‖q‖_∞`, so `|c_b| ~ ε ℓ ‖q‖_∞ ≈ N ε ℓ² = 1.4·10⁻¹⁴ ℓ²` for the
///   hanging chain (`‖q‖_∞ ≈ Nℓ`); `|c_b|/ℓ²` is printed (and bounded by the tolerance,
///   `4ε √2 ℓ L` with `L ≤ ‖q‖_∞ + ‖q̃ − q‖_∞`).
/// - `|(G M⁻¹ p_n)_b| ≤ 10⁻¹⁴ ‖∇c_b‖₂ ‖M⁻¹p_n‖_∞`, the velocity constraint relative to its
///   scale (`‖∇c_b‖₂` times the largest particle speed).
/// - The relative energy error is bounded without drift: its maximum over the last tenth is at
///   most twice that over the first tenth.
#[test]
fn constraints_at_round_off_and_energy_bounded_for_64_links() {
    let n = 64;
    let (m, l, h, steps) = (1.0 / n as f64, 1.0 / n as f64, 1e-3, 100_000);
    let (chain, mut q, mut p) = hanging_chain(n, 0.5);
    let e0 = chain.hamiltonian(&q, &p);
    let mut rattle = DistanceRattle::new(&chain, h, Tolerances::default()).unwrap();
    let tenth = steps / 10;
    let (mut c_max, mut v_max, mut first, mut last) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let (mut c_abs, mut iterations) = (0.0f64, 0);
    let start = Instant::now();
    for step in 1..=steps {
        iterations += rattle.step(&mut q, &mut p).unwrap().iterations;
        let scale = 2f64.sqrt() * l;
        let c = chain.constraints(&q).amax();
        c_max = c_max.max(c / (scale * q.amax()));
        c_abs = c_abs.max(c / (l * l));
        let speed = p.amax() / m;
        v_max = v_max.max(chain.velocity_constraints(&q, &p).amax() / (scale * speed));
        let energy = ((chain.hamiltonian(&q, &p) - e0) / e0).abs();
        if step <= tenth {
            first = first.max(energy);
        } else if step > steps - tenth {
            last = last.max(energy);
        }
    }
    println!(
        "64 links, {steps} steps in {:.2?}: max |c|/(‖∇c‖‖q‖∞) = {c_max:.2e} (|c|/ℓ² = \
         {c_abs:.2e}, tolerance bound {:.2e}), max |G M⁻¹ p|/(‖∇c‖‖M⁻¹p‖∞) = {v_max:.2e}, mean Newton iterations {:.2}, max relative energy error first tenth \
         {first:.3e}, last tenth {last:.3e}",
        start.elapsed(),
        8.0 * 2f64.sqrt() * f64::EPSILON / l,
        iterations as f64 / steps as f64
    );
    assert!(c_max <= 1e-14, "{c_max}");
    // The tolerance bound with L ≤ 2‖q‖_∞ ≤ 2 (the chain has length 1).
    assert!(c_abs <= 8.0 * 2f64.sqrt() * f64::EPSILON / l, "{c_abs}");
    assert!(v_max <= 1e-14, "{v_max}");
    assert!(first > 0.0 && last <= 2.0 * first, "{first} {last}");
}

/// The multipliers agree with the fixed-size path's too, to what the stopping rule resolves:
/// the iteration for `x = h²λ` stops at `|c_b| ≤ 4ε ‖∇c_b‖ L` (`‖∇c_b‖ ≤ √2`, L ≈ 3), which
/// leaves `x` uncertain by that over `λ_min(A)` (0.28 at the start): about `20 ε L` in `x`;
/// the bound allows `100 ε L / h²` in λ and μ.
#[test]
fn multipliers_agree_with_fixed_size_rattle() {
    let (q0, p0) = CHAIN3.state(&LINKS3);
    let h = 0.01;
    let mut fixed = RattleStepper::new(&CHAIN3, h, Tolerances::default()).unwrap();
    let chain = planar_chain(3, 1.0, 1.0, 1.0).unwrap();
    let mut dynamic = DistanceRattle::new(&chain, h, Tolerances::default()).unwrap();
    let (mut q, mut p) = (q0, p0);
    let (mut qd, mut pd) = (
        DVector::from_column_slice(q0.as_slice()),
        DVector::from_column_slice(p0.as_slice()),
    );
    let (mut d_lambda, mut d_mu, mut scale) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..1000 {
        let s = fixed.step(&q, &p).unwrap();
        dynamic.step(&mut qd, &mut pd).unwrap();
        (q, p) = (s.q, s.p);
        let diff = |a: &Vector<3>, b: &[f64]| {
            (a.iter().zip(b))
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max)
        };
        d_lambda = d_lambda.max(diff(&s.lambda, dynamic.lambda()));
        d_mu = d_mu.max(diff(&s.mu, dynamic.mu()));
        scale = scale.max(s.lambda.amax());
    }
    let bound = 100.0 * f64::EPSILON * q.amax() / (h * h);
    println!(
        "3 links, 1000 steps: max |Δλ| = {d_lambda:.2e}, max |Δμ| = {d_mu:.2e} (max |λ| = \
         {scale:.2}, bound {bound:.1e})"
    );
    assert!(d_lambda <= bound && d_mu <= bound);
}
