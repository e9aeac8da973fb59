//! Lotka–Volterra 2d (standard gauge) and the Cartesian pendulum: structure of the derived
//! expressions, numeric agreement with hand-derived closed forms, operation budgets of the
//! emitted kernels, and snapshots of their `Display`.

mod common;

use common::{lotka_volterra, lotka_volterra_kernels, pendulum_kernels};
use sparkgen_sym::{Cse, Graph, Input, Kernel, SlotIndex};

/// Deterministic points in (0.2, 3.2)² (xorshift).
fn points(n: usize) -> Vec<[f64; 2]> {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        0.2 + 3.0 * (s >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n).map(|_| [next(), next()]).collect()
}

const A: [f64; 2] = [1.0, 1.0];
const B: [f64; 2] = [-1.0, -2.0];
const W: [f64; 2] = [0.7, -1.3];
const V: [f64; 2] = [-0.4, 2.1];

fn value(input: &Input, q: [f64; 2]) -> f64 {
    match input {
        Input::Component { vector, index } => match vector.as_str() {
            "q" => q[*index],
            "w" => W[*index],
            "v" => V[*index],
            _ => f64::NAN,
        },
        Input::Param(name) => match name.as_str() {
            "a1" => A[0],
            "a2" => A[1],
            "b1" => B[0],
            "b2" => B[1],
            _ => f64::NAN,
        },
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-14 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn lotka_volterra_jacobian_has_the_expected_structure() {
    let mut g = Graph::new();
    let lv = lotka_volterra(&mut g);
    let j = g.jacobian(&lv.theta, &lv.q).expect("differentiable");
    let (q1, q2) = (lv.q[0], lv.q[1]);
    // J = [−ln q₂/q₁², 1 + 1/(q₁q₂); 1, 0], built independently with the constructors.
    let ln_q2 = g.ln(q2);
    let q1_sq = g.powi(q1, 2);
    let r = g.div(ln_q2, q1_sq);
    let j00 = g.neg(r);
    let one = g.int(1);
    let prod = g.mul(q1, q2);
    let inv = g.div(one, prod);
    let j01 = g.add(one, inv);
    let zero = g.int(0);
    assert_eq!(j.entries(), &[j00, j01, one, zero]);
}

#[test]
fn lotka_volterra_derivatives_match_closed_forms() {
    let kernels = lotka_volterra_kernels(Cse::On);
    for [x, y] in points(50) {
        // w₁ does not enter ∂(Jᵀw)/∂q: the second row of J is constant.
        let (w0, v0, v1) = (W[0], V[0], V[1]);
        let ly = y.ln();
        let expected: [(&str, Vec<f64>); 7] = [
            ("theta", vec![y + ly / x, x]),
            ("J", vec![-ly / (x * x), 1.0 + 1.0 / (x * y), 1.0, 0.0]),
            (
                "dJtw",
                vec![
                    2.0 * w0 * ly / x.powi(3),
                    -w0 / (x * x * y),
                    -w0 / (x * x * y),
                    -w0 / (x * y * y),
                ],
            ),
            (
                "dJv",
                vec![
                    2.0 * v0 * ly / x.powi(3) - v1 / (x * x * y),
                    -v0 / (x * x * y) - v1 / (x * y * y),
                    0.0,
                    0.0,
                ],
            ),
            ("H", vec![A[0] * x + A[1] * y + B[0] * x.ln() + B[1] * ly]),
            ("gradH", vec![A[0] + B[0] / x, A[1] + B[1] / y]),
            ("hessH", vec![-B[0] / (x * x), 0.0, 0.0, -B[1] / (y * y)]),
        ];
        for ((name, kernel), (ename, want)) in kernels.iter().zip(&expected) {
            assert_eq!(name, ename);
            let got = dense(kernel, [x, y], want.len());
            for (k, (a, b)) in got.iter().zip(want).enumerate() {
                assert!(close(*a, *b), "{name}[{k}] at ({x}, {y}): {a} vs {b}");
            }
        }
    }
}

/// The kernel's outputs as a dense row-major vector (2 columns), zeros where not stored.
fn dense(kernel: &Kernel, q: [f64; 2], len: usize) -> Vec<f64> {
    let mut out = vec![0.0; len];
    let values = kernel.eval_f64(|i| value(i, q));
    for (store, v) in kernel.stores().iter().zip(values) {
        let k = match store.slot.index {
            SlotIndex::Scalar => 0,
            SlotIndex::Vector(i) => i,
            SlotIndex::Matrix(i, j) => 2 * i + j,
        };
        out[k] = v;
    }
    out
}

/// Operation budgets (emitted f64 operations with CSE, measured when the kernels were
/// written): a regression in the canonicalisation or the scheduling shows up here.
const BUDGETS: [(&str, usize, usize); 10] = [
    // (kernel, max ops, max lets)
    ("theta", 3, 0),
    ("J", 7, 0),
    ("dJtw", 18, 2),
    ("dJv", 18, 2),
    ("H", 9, 0),
    ("gradH", 4, 0),
    ("hessH", 6, 0),
    ("c", 5, 0),
    ("Dc", 2, 0),
    ("dDctl", 1, 1),
];

#[test]
fn operation_budgets() {
    let kernels: Vec<_> = lotka_volterra_kernels(Cse::On)
        .into_iter()
        .chain(pendulum_kernels(Cse::On))
        .collect();
    assert_eq!(kernels.len(), BUDGETS.len());
    for ((name, kernel), (bname, ops, lets)) in kernels.iter().zip(BUDGETS) {
        assert_eq!(*name, bname);
        let count = kernel.op_count();
        assert!(
            count.total() <= ops,
            "{name}: {count} exceeds {ops}\n{kernel}"
        );
        assert!(
            kernel.lets().len() <= lets,
            "{name}: too many lets\n{kernel}"
        );
    }
}

#[test]
fn structural_zeros_are_not_stored() {
    let kernels: Vec<_> = lotka_volterra_kernels(Cse::On)
        .into_iter()
        .chain(pendulum_kernels(Cse::On))
        .collect();
    let zeros = |name: &str| {
        kernels
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| {
                k.structural_zeros()
                    .iter()
                    .map(|s| s.index)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    assert_eq!(zeros("J"), [SlotIndex::Matrix(1, 1)]);
    assert_eq!(
        zeros("dJv"),
        [SlotIndex::Matrix(1, 0), SlotIndex::Matrix(1, 1)]
    );
    assert_eq!(
        zeros("hessH"),
        [SlotIndex::Matrix(0, 1), SlotIndex::Matrix(1, 0)]
    );
    assert_eq!(
        zeros("dDctl"),
        [SlotIndex::Matrix(0, 1), SlotIndex::Matrix(1, 0)]
    );
    for (name, kernel) in &kernels {
        for s in kernel.stores() {
            assert_ne!(
                s.value,
                sparkgen_sym::KExpr::Const(0.0),
                "{name}: stored zero"
            );
        }
    }
}

#[test]
fn kernel_display_snapshots() {
    let mut text = String::new();
    for (name, kernel) in lotka_volterra_kernels(Cse::On)
        .into_iter()
        .chain(pendulum_kernels(Cse::On))
    {
        text.push_str(&format!("== {name} ({})\n{kernel}\n", kernel.op_count()));
    }
    insta::assert_snapshot!("lotka_volterra_and_pendulum_kernels", text);
    let (_, tree) = lotka_volterra_kernels(Cse::Off).swap_remove(2);
    insta::assert_snapshot!("lotka_volterra_dJtw_without_cse", tree.to_string());
}
