//! The derived problem methods agree with hand-written closed forms at random points
//! (Lotka–Volterra 2d in the standard gauge ϑ = (y + ln y / x, x), the Cartesian pendulum and a
//! particle on a sphere ∩ plane), and the provided methods assemble them as documented.

use nalgebra::{SMatrix, SVector, matrix, vector};
use proptest::prelude::*;
use sparkgen::problem::{DegenerateLagrangian, HolonomicSystem, Lagrangian};

#[derive(DegenerateLagrangian)]
#[lagrangian(
    q = [x, y],
    theta = [y + ln(y) / x, x],
    hamiltonian = a1 * x + a2 * y + b1 * ln(x) + b2 * y.ln(),
)]
struct LotkaVolterra2d {
    a1: f64,
    a2: f64,
    b1: f64,
    b2: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    q = [x, y],
    v = [u, w],
    lagrangian = (y + y.ln() / x) * u + x * w - (a1 * x + a2 * y + b1 * x.ln() + b2 * ln(y)),
)]
struct LotkaVolterra2dLagrangian {
    a1: f64,
    a2: f64,
    b1: f64,
    b2: f64,
}

#[derive(HolonomicSystem)]
#[holonomic(q = [x, y], mass = m, potential = m * g * y, constraints = [powi(x, 2) + y.powi(2) - l * l])]
struct Pendulum {
    m: f64,
    g: f64,
    l: f64,
}

#[derive(HolonomicSystem)]
#[holonomic(
    q = [x, y, z],
    mass = [[2.0, 0.5, 0.0], [0.5, 2.0, 0.0], [0.0, 0.0, mz]],
    potential = g * z,
    constraints = [x * x + y * y + z * z - r * r, x + y + z - h],
)]
struct SpherePlane {
    mz: f64,
    g: f64,
    r: f64,
    h: f64,
}

/// |a − b| ≤ 1e-12 · max(1, |a|, |b|) entrywise.
fn assert_close<const R: usize, const C: usize>(a: SMatrix<f64, R, C>, b: SMatrix<f64, R, C>) {
    for (x, y) in a.iter().zip(b.iter()) {
        let scale = x.abs().max(y.abs()).max(1.0);
        assert!((x - y).abs() <= 1e-12 * scale, "{a} differs from {b}");
    }
}

fn scalar(x: f64) -> SVector<f64, 1> {
    vector![x]
}

/// The GeometricIntegrators test parameters a = (1, 1), b = (−1, −2) and arbitrary ones.
fn lotka_volterra() -> impl Strategy<Value = [f64; 4]> {
    prop_oneof![
        Just([1.0, 1.0, -1.0, -2.0]),
        [-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64]
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn degenerate_lotka_volterra_matches_closed_forms(
        [a1, a2, b1, b2] in lotka_volterra(),
        x in 0.2..4.0f64, y in 0.2..4.0f64,
        w in [-2.0..2.0f64, -2.0..2.0f64],
        v in [-2.0..2.0f64, -2.0..2.0f64],
    ) {
        let lv = LotkaVolterra2d { a1, a2, b1, b2 };
        let (q, w, v) = (vector![x, y], vector![w[0], w[1]], vector![v[0], v[1]]);
        let ln_y = y.ln();
        let theta = vector![y + ln_y / x, x];
        let j = matrix![-ln_y / (x * x), 1.0 + 1.0 / (x * y); 1.0, 0.0];
        let h = a1 * x + a2 * y + b1 * x.ln() + b2 * ln_y;
        let grad_h = vector![a1 + b1 / x, a2 + b2 / y];
        assert_close(lv.theta(&q), theta);
        assert_close(lv.theta_jacobian(&q), j);
        assert_close(scalar(lv.hamiltonian(&q)), scalar(h));
        assert_close(lv.hamiltonian_gradient(&q), grad_h);
        assert_close(lv.hamiltonian_hessian(&q), matrix![-b1 / (x * x), 0.0; 0.0, -b2 / (y * y)]);
        // Jᵀw = (−w₀ ln y / x² + w₁, w₀ (1 + 1/(xy))).
        let d_jtw = matrix![
            2.0 * w[0] * ln_y / (x * x * x), -w[0] / (x * x * y);
            -w[0] / (x * x * y), -w[0] / (x * y * y)
        ];
        assert_close(lv.jacobian_transpose_product_derivative(&q, &w), d_jtw);
        // Jv = (−v₀ ln y / x² + v₁ (1 + 1/(xy)), v₀).
        let d_jv = matrix![
            2.0 * v[0] * ln_y / (x * x * x) - v[1] / (x * x * y), -v[0] / (x * x * y) - v[1] / (x * y * y);
            0.0, 0.0
        ];
        assert_close(lv.jacobian_product_derivative(&q, &v), d_jv);
        // Provided methods: L = ϑ·v − H, f = Jᵀv − ∇H, and Ω₁₂ = 1/(q₁q₂) in every gauge.
        assert_close(scalar(lv.lagrangian(&q, &v)), scalar(theta.dot(&v) - h));
        assert_close(lv.force(&q, &v), j.transpose() * v - grad_h);
        assert_close(lv.two_form(&q), matrix![0.0, 1.0 / (x * y); -1.0 / (x * y), 0.0]);
    }

    #[test]
    fn general_lagrangian_of_lotka_volterra_matches_closed_forms(
        [a1, a2, b1, b2] in lotka_volterra(),
        x in 0.2..4.0f64, y in 0.2..4.0f64,
        v in [-2.0..2.0f64, -2.0..2.0f64],
    ) {
        let lv = LotkaVolterra2dLagrangian { a1, a2, b1, b2 };
        let (q, v) = (vector![x, y], vector![v[0], v[1]]);
        let ln_y = y.ln();
        let theta = vector![y + ln_y / x, x];
        let j = matrix![-ln_y / (x * x), 1.0 + 1.0 / (x * y); 1.0, 0.0];
        let grad_h = vector![a1 + b1 / x, a2 + b2 / y];
        let h = a1 * x + a2 * y + b1 * x.ln() + b2 * ln_y;
        assert_close(scalar(lv.lagrangian(&q, &v)), scalar(theta.dot(&v) - h));
        assert_close(lv.position_gradient(&q, &v), j.transpose() * v - grad_h);
        assert_close(lv.momentum(&q, &v), theta);
        assert_close(lv.velocity_hessian(&q, &v), SMatrix::<f64, 2, 2>::zeros());
        assert_close(lv.mixed_hessian(&q, &v), j);
        let d_jtv = matrix![
            2.0 * v[0] * ln_y / (x * x * x), -v[0] / (x * x * y);
            -v[0] / (x * x * y), -v[0] / (x * y * y)
        ];
        let hess_h = matrix![-b1 / (x * x), 0.0; 0.0, -b2 / (y * y)];
        assert_close(lv.position_hessian(&q, &v), d_jtv - hess_h);
    }

    #[test]
    fn cartesian_pendulum_matches_closed_forms(
        m in 0.1..10.0f64, g in 0.1..10.0f64, l in 0.1..3.0f64,
        x in -3.0..3.0f64, y in -3.0..3.0f64, lambda in -5.0..5.0f64,
        p in [-2.0..2.0f64, -2.0..2.0f64],
    ) {
        let pendulum = Pendulum { m, g, l };
        let (q, p) = (vector![x, y], vector![p[0], p[1]]);
        assert_close(pendulum.mass_matrix(), SMatrix::<f64, 2, 2>::identity() * m);
        assert_close(pendulum.inverse_mass_matrix(), SMatrix::<f64, 2, 2>::identity() / m);
        assert_close(scalar(pendulum.potential(&q)), scalar(m * g * y));
        assert_close(pendulum.potential_gradient(&q), vector![0.0, m * g]);
        assert_close(pendulum.potential_hessian(&q), SMatrix::<f64, 2, 2>::zeros());
        assert_close(pendulum.constraints(&q), scalar(x * x + y * y - l * l));
        assert_close(pendulum.constraint_jacobian(&q), matrix![2.0 * x, 2.0 * y]);
        assert_close(
            pendulum.constraint_force_derivative(&q, &scalar(lambda)),
            SMatrix::<f64, 2, 2>::identity() * (2.0 * lambda),
        );
        // ∂(G v)/∂q with G = (2x, 2y) is (2v₁, 2v₂); v = p here.
        assert_close(
            pendulum.constraint_velocity_derivative(&q, &p),
            matrix![2.0 * p[0], 2.0 * p[1]],
        );
        assert_close(pendulum.velocity(&p), p / m);
        assert_close(scalar(pendulum.hamiltonian(&q, &p)), scalar(p.dot(&p) / (2.0 * m) + m * g * y));
    }

    #[test]
    fn sphere_plane_matches_closed_forms(
        mz in 0.1..10.0f64, g in 0.1..10.0f64, r in 0.1..3.0f64, h in -1.0..1.0f64,
        q in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
        lambda in [-5.0..5.0f64, -5.0..5.0f64],
        v in [-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64],
    ) {
        let system = SpherePlane { mz, g, r, h };
        let v = vector![v[0], v[1], v[2]];
        let (q, lambda) = (vector![q[0], q[1], q[2]], vector![lambda[0], lambda[1]]);
        let mass = matrix![2.0, 0.5, 0.0; 0.5, 2.0, 0.0; 0.0, 0.0, mz];
        assert_close(system.mass_matrix(), mass);
        assert_close(system.inverse_mass_matrix() * mass, SMatrix::<f64, 3, 3>::identity());
        assert_close(scalar(system.potential(&q)), scalar(g * q[2]));
        assert_close(system.potential_gradient(&q), vector![0.0, 0.0, g]);
        assert_close(
            system.constraints(&q),
            vector![q.dot(&q) - r * r, q[0] + q[1] + q[2] - h],
        );
        assert_close(
            system.constraint_jacobian(&q),
            matrix![2.0 * q[0], 2.0 * q[1], 2.0 * q[2]; 1.0, 1.0, 1.0],
        );
        assert_close(
            system.constraint_force_derivative(&q, &lambda),
            SMatrix::<f64, 3, 3>::identity() * (2.0 * lambda[0]),
        );
        // ∂(G v)/∂q: the sphere's row is 2vᵀ, the plane's (linear) row is zero.
        assert_close(
            system.constraint_velocity_derivative(&q, &v),
            matrix![2.0 * v[0], 2.0 * v[1], 2.0 * v[2]; 0.0, 0.0, 0.0],
        );
    }
}

#[test]
fn numeric_mass_matrix_is_inverted_exactly() {
    // M = [[2, ½], [½, 2]] ⊕ [1] has the inverse (1/15)·[[8, −2], [−2, 8]] ⊕ [1]; each entry is
    // the correctly rounded exact value.
    let system = SpherePlane {
        mz: 1.0,
        g: 0.0,
        r: 1.0,
        h: 0.0,
    };
    let expected =
        matrix![8.0 / 15.0, -2.0 / 15.0, 0.0; -2.0 / 15.0, 8.0 / 15.0, 0.0; 0.0, 0.0, 1.0];
    assert_eq!(system.inverse_mass_matrix(), expected);
}
