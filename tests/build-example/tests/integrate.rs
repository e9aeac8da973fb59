//! Integrates the harmonic oscillator q̇ = p, ṗ = −q with the build-time tableaus: the stage
//! equations K = f(y_n + h (A ⊗ I) K) are linear here and solved exactly.

use nalgebra::{DMatrix, DVector};
use sparkgen::generated::Tableau;
use sparkgen_build_example::{GAUSS_12, LOBATTO_IIIE_9};

/// One step of an s-stage RK method on y' = J y, J = [[0, 1], [−1, 0]].
fn step<const S: usize>(t: &Tableau<S>, y: [f64; 2], h: f64) -> [f64; 2] {
    let n = 2 * S;
    let mut m = DMatrix::<f64>::identity(n, n);
    let mut rhs = DVector::<f64>::zeros(n);
    for i in 0..S {
        // K_i = J (y + h Σ_j a_ij K_j): K_i,q = y_p + h Σ a_ij K_j,p; K_i,p = −y_q − h Σ a_ij K_j,q.
        for j in 0..S {
            m[(2 * i, 2 * j + 1)] -= h * t.a[i][j];
            m[(2 * i + 1, 2 * j)] += h * t.a[i][j];
        }
        rhs[2 * i] = y[1];
        rhs[2 * i + 1] = -y[0];
    }
    let k = m
        .lu()
        .solve(&rhs)
        .expect("stage system is regular for these h");
    let (mut q, mut p) = (y[0], y[1]);
    for i in 0..S {
        q += h * t.b[i] * k[2 * i];
        p += h * t.b[i] * k[2 * i + 1];
    }
    [q, p]
}

fn run<const S: usize>(t: &Tableau<S>, h: f64, steps: usize) -> (f64, f64) {
    let mut y = [1.0, 0.0];
    let mut energy_drift = 0.0f64;
    for _ in 0..steps {
        y = step(t, y, h);
        energy_drift = energy_drift.max((y[0] * y[0] + y[1] * y[1] - 1.0).abs());
    }
    let time = h * steps as f64;
    let error = ((y[0] - time.cos()).powi(2) + (y[1] + time.sin()).powi(2)).sqrt();
    (error, energy_drift)
}

#[test]
fn gauss_12_is_accurate_and_conserves_the_quadratic_invariant() {
    assert_eq!(GAUSS_12.properties.order, 24);
    const { assert!(GAUSS_12.properties.symplectic) };
    // h = 1: the local error of an order-24 method is far below round-off.
    let (error, drift) = run(&GAUSS_12, 1.0, 100);
    assert!(error < 1e-12, "error {error}");
    assert!(drift < 1e-13, "energy drift {drift}");
}

#[test]
fn lobatto_iiie_9_reaches_its_order() {
    assert_eq!(LOBATTO_IIIE_9.properties.order, 16);
    // Large steps make the truncation error visible: error(h)/error(h/2) ≈ 2^16 over a fixed time.
    let (e1, _) = run(&LOBATTO_IIIE_9, 4.0, 8);
    let (e2, _) = run(&LOBATTO_IIIE_9, 2.0, 16);
    let slope = (e1 / e2).log2();
    println!("Lobatto IIIE(9) observed order {slope:.2} (errors {e1:.3e}, {e2:.3e})");
    assert!(
        (15.0..=17.5).contains(&slope),
        "observed order {slope} (errors {e1}, {e2})"
    );
}
