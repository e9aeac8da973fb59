//! Tangent vectors of the constrained phase space `{c(q) = 0, G(q)M⁻¹p = 0}`, the symplectic
//! form `ω`, and the two test problems of the symplecticity checks.

use nalgebra::{Rotation3, Vector3};
use sparkgen::holonomic::problems::{SphericalPendulum, Triatomic};
use sparkgen::problem::{HolonomicSystem, Matrix, Vector};
use sparkgen::solve::Lu;

/// A deterministic pseudo-random number in [−1, 1) (64-bit LCG).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn vector<const D: usize>(&mut self) -> Vector<D> {
        Vector::from_fn(|_, _| self.next())
    }
}

/// `a⁻¹ rhs`.
fn solve<const M: usize>(a: Matrix<M, M>, rhs: Vector<M>) -> Vector<M> {
    let rows: [[f64; M]; M] = std::array::from_fn(|i| std::array::from_fn(|j| a[(i, j)]));
    let mut x: [f64; M] = rhs.into();
    Lu::factor(&rows).unwrap().solve_in_place(&mut x);
    x.into()
}

/// A random tangent vector at `(q, p)`: `G δq = 0` and `G M⁻¹δp + S δq = 0`, `S_a = (∇²c_a v)ᵀ`.
pub fn tangent_vector<P: HolonomicSystem<D, M>, const D: usize, const M: usize>(
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
    let s_dq = problem.constraint_velocity_derivative(q, &v) * dq;
    let mut dp = rng.vector::<D>();
    dp -= g.transpose() * solve(g * minv * g.transpose(), g * (minv * dp) + s_dq);
    (dq, dp)
}

/// `ω(x, y) = δq_x·δp_y − δp_x·δq_y`.
pub fn omega<const D: usize>(x: &(Vector<D>, Vector<D>), y: &(Vector<D>, Vector<D>)) -> f64 {
    x.0.dot(&y.1) - x.1.dot(&y.0)
}

/// A spherical pendulum (m = 1.5, g = 1, ℓ = 1.2) and a state on its manifold up to projection.
pub fn spherical_pendulum() -> (SphericalPendulum, Vector<3>, Vector<3>) {
    let problem = SphericalPendulum {
        m: 1.5,
        g: 1.0,
        l: 1.2,
    };
    let q0 = Vector::from([0.6, 0.3, -0.9]).normalize() * problem.l;
    let p0 = Vector::from([0.4, -0.7, 0.1]);
    (problem, q0, p0)
}

/// The water-like triatomic molecule: apex particle, bonds d₁₂ = d₁₃ = 1 and apex angle
/// 2·52.25°, rotated and shifted off the origin, with a rigid-body velocity plus a tumble.
pub fn triatomic() -> (Triatomic, Vector<9>, Vector<9>) {
    let problem = Triatomic::WATER_LIKE;
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
    (problem, q0, p0)
}
