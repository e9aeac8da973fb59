//! Symplecticity of RATTLE on the constrained phase space: the exact tangent map `DΨ` of one
//! step (implicit function theorem on the converged multiplier equations) preserves
//! `ω(ξ, η) = δq_ξ·δp_η − δp_ξ·δq_η` for tangent vectors of the manifold
//! `{c(q) = 0, G(q)M⁻¹p = 0}`, on the spherical pendulum and the triatomic molecule. The tangent
//! map itself is checked against central differences of the step.

#[path = "rattle_common/symplectic.rs"]
mod symplectic;

use sparkgen::holonomic::{RattleStepper, Tolerances, project};
use sparkgen::problem::{HolonomicSystem, Vector};
use symplectic::{Lcg, omega, spherical_pendulum, tangent_vector, triatomic};

/// Takes `warmup` steps from `(q, p)`, then checks `DΨ` against central differences of the step
/// and `|ω(DΨξ, DΨη) − ω(ξ, η)| ≤ 1e-13` for random tangent pairs; returns the largest defect.
fn check<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    name: &str,
    problem: &P,
    q0: Vector<D>,
    p0: Vector<D>,
    h: f64,
    warmup: usize,
) -> f64 {
    let (mut q, mut p) = project(problem, &q0, &p0, &Tolerances::default()).unwrap();
    let mut rattle = RattleStepper::new(problem, h, Tolerances::default()).unwrap();
    for _ in 0..warmup {
        let s = rattle.step(&q, &p).unwrap();
        (q, p) = (s.q, s.p);
    }
    let step = rattle.step(&q, &p).unwrap();
    let mut rng = Lcg(0x5eed_0000 + D as u64);
    let mut worst = 0.0f64;
    for _ in 0..8 {
        let xi = tangent_vector(problem, &q, &p, &mut rng);
        let eta = tangent_vector(problem, &q, &p, &mut rng);
        let dxi = rattle.tangent(&q, &step, &xi.0, &xi.1).unwrap();
        let deta = rattle.tangent(&q, &step, &eta.0, &eta.1).unwrap();

        // Central differences of the step (from fresh steppers, multipliers to round-off).
        let delta = 1e-5;
        let image = |s: f64| {
            let mut r = RattleStepper::new(problem, h, Tolerances::default()).unwrap();
            let t = r.step(&(q + s * xi.0), &(p + s * xi.1)).unwrap();
            (t.q, t.p)
        };
        let (plus, minus) = (image(delta), image(-delta));
        let fd_q = (plus.0 - minus.0) / (2.0 * delta);
        let fd_p = (plus.1 - minus.1) / (2.0 * delta);
        let fd_error = (fd_q - dxi.0).amax().max((fd_p - dxi.1).amax());
        assert!(
            fd_error <= 1e-7,
            "{name}: tangent map differs from differences by {fd_error:e}"
        );

        let defect = (omega(&dxi, &deta) - omega(&xi, &eta)).abs();
        worst = worst.max(defect);
    }
    // Control: for ambient vectors that are not tangent to the manifold, ω is not preserved, so
    // the check above discriminates.
    let (a, b) = ((rng.vector(), rng.vector()), (rng.vector(), rng.vector()));
    let (da, db) = (
        rattle.tangent(&q, &step, &a.0, &a.1).unwrap(),
        rattle.tangent(&q, &step, &b.0, &b.1).unwrap(),
    );
    let ambient = (omega(&da, &db) - omega(&a, &b)).abs();
    println!(
        "{name}, h = {h}: max |ω(DΨξ, DΨη) − ω(ξ, η)| = {worst:.1e} (ambient control {ambient:.1e})"
    );
    assert!(
        ambient > 1e-6,
        "{name}: the ambient control is preserved too"
    );
    assert!(worst <= 1e-13, "{name}: symplecticity defect {worst:e}");
    worst
}

#[test]
fn spherical_pendulum_is_symplectic_on_the_manifold() {
    let (problem, q0, p0) = spherical_pendulum();
    for h in [0.01, 0.1, 0.3] {
        check("spherical pendulum", &problem, q0, p0, h, 3);
    }
}

#[test]
fn triatomic_molecule_is_symplectic_on_the_manifold() {
    let (problem, q0, p0) = triatomic();
    for h in [0.01, 0.1, 0.3] {
        check("triatomic molecule", &problem, q0, p0, h, 3);
    }
}
