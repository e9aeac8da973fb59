//! Symplecticity of RATTLE on the constrained phase space: the exact tangent map `DΨ` of one
//! step (implicit function theorem on the converged multiplier equations) preserves
//! `ω(ξ, η) = δq_ξ·δp_η − δp_ξ·δq_η` for tangent vectors of the manifold
//! `{c(q) = 0, G(q)M⁻¹p = 0}`, on the spherical pendulum and the triatomic molecule. The tangent
//! map itself is checked against central differences of the step.

use nalgebra::{Rotation3, Vector3};
use sparkgen::holonomic::problems::{SphericalPendulum, Triatomic};
use sparkgen::holonomic::{Rattle, Tolerances, project};
use sparkgen::problem::{HolonomicSystem, Matrix, Vector};
use sparkgen::solve::Lu;

/// A deterministic pseudo-random number in [−1, 1) (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn vector<const D: usize>(&mut self) -> Vector<D> {
        Vector::from_fn(|_, _| self.next())
    }
}

/// `a⁻¹ rhs`.
fn solve<const M: usize>(a: Matrix<M, M>, rhs: Vector<M>) -> Vector<M> {
    let rows = std::array::from_fn(|i| std::array::from_fn(|j| a[(i, j)]));
    let mut x: [f64; M] = rhs.into();
    Lu::factor(&rows).unwrap().solve_in_place(&mut x);
    x.into()
}

/// A random tangent vector at `(q, p)`: `G δq = 0` and `G M⁻¹δp + S δq = 0`, `S_a = (∇²c_a v)ᵀ`.
fn tangent_vector<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
    problem: &P,
    q: &Vector<D>,
    p: &Vector<D>,
    rng: &mut Lcg,
) -> (Vector<D>, Vector<D>) {
    let g = problem.constraint_jacobian(q);
    let minv = problem.inverse_mass_matrix();
    let mut dq = rng.vector::<D>();
    dq -= g.transpose() * solve(g * g.transpose(), g * dq);
    let v = minv * p;
    let s_dq = Vector::<M>::from_fn(|a, _| {
        let e = Vector::<M>::from_fn(|k, _| if k == a { 1.0 } else { 0.0 });
        (problem.constraint_force_derivative(q, &e) * v).dot(&dq)
    });
    let mut dp = rng.vector::<D>();
    dp -= g.transpose() * solve(g * minv * g.transpose(), g * (minv * dp) + s_dq);
    (dq, dp)
}

fn omega<const D: usize>(x: &(Vector<D>, Vector<D>), y: &(Vector<D>, Vector<D>)) -> f64 {
    x.0.dot(&y.1) - x.1.dot(&y.0)
}

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
    let mut rattle = Rattle::new(problem, h, Tolerances::default()).unwrap();
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
            let mut r = Rattle::new(problem, h, Tolerances::default()).unwrap();
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
    let problem = SphericalPendulum {
        m: 1.5,
        g: 1.0,
        l: 1.2,
    };
    let q0 = Vector::from([0.6, 0.3, -0.9]).normalize() * problem.l;
    let p0 = Vector::from([0.4, -0.7, 0.1]);
    for h in [0.01, 0.1, 0.3] {
        check("spherical pendulum", &problem, q0, p0, h, 3);
    }
}

#[test]
fn triatomic_molecule_is_symplectic_on_the_manifold() {
    let problem = Triatomic::WATER_LIKE;
    // Oxygen-like particle at the apex, bonds d₁₂ = d₁₃ = 1 and apex angle 2·52.25°, rotated
    // and shifted off the origin, with a rigid-body velocity plus a tumble.
    let half = 52.25f64.to_radians();
    let body = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(half.sin(), half.cos(), 0.0),
        Vector3::new(-half.sin(), half.cos(), 0.0),
    ];
    let rotation = Rotation3::from_euler_angles(0.3, -0.7, 1.1);
    let shift = Vector3::new(0.4, -0.2, 0.7);
    let spin = Vector3::new(0.5, -1.0, 0.8);
    let velocity = Vector3::new(0.1, 0.2, -0.3);
    let masses = [problem.m1, problem.m2, problem.m3];
    let mut q0 = Vector::<9>::zeros();
    let mut p0 = Vector::<9>::zeros();
    for (i, r) in body.iter().enumerate() {
        let x = rotation * r + shift;
        let v = velocity + spin.cross(&(rotation * r));
        q0.fixed_rows_mut::<3>(3 * i).copy_from(&x);
        p0.fixed_rows_mut::<3>(3 * i).copy_from(&(masses[i] * v));
    }
    for h in [0.01, 0.1, 0.3] {
        check("triatomic molecule", &problem, q0, p0, h, 3);
    }
}
