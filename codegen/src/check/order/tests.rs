//! Order analysis: classical results, the fallback paths, agreement with the plain per-tree
//! check of `reference_trees`, and the cost of high orders.

use std::time::Instant;

use rug::Float;

use super::{LowerBoundMethod, OrderOptions, UpperBoundMethod, order, order_partitioned};
use crate::check::CheckError;
use crate::check::fixtures::{self, Family, PREC, Rng, Tableau, solve, tableau};
use crate::check::reference_trees::plain_order;

fn tol() -> Float {
    Float::with_val(PREC, 1e-60)
}

fn ratio(p: u32, q: u32) -> Float {
    Float::with_val(PREC, p) / q
}

#[test]
fn gauss_has_order_2s() {
    for s in 1..=5 {
        let g = fixtures::gauss(s);
        let report = order(&g.a, &g.b, &tol(), &OrderOptions::up_to(2 * s + 1)).unwrap();
        assert_eq!(report.order, 2 * s, "{report:?}");
        assert_eq!(report.lower_bound_method, LowerBoundMethod::RootedTrees);
        let upper = report.upper_bound.unwrap();
        assert_eq!(
            (upper.order, upper.method),
            (2 * s, UpperBoundMethod::FailedTreeCondition)
        );
        assert!(report.max_residual < 1e-70);
    }
}

#[test]
fn radau_iia_rk4_and_inconsistent_tableaus() {
    let radau = tableau(Family::RadauIIA, 3);
    assert_eq!(
        order(&radau.a, &radau.b, &tol(), &OrderOptions::up_to(8))
            .unwrap()
            .order,
        5
    );
    let rk4 = tableau(Family::Rk4, 4);
    assert_eq!(
        order(&rk4.a, &rk4.b, &tol(), &OrderOptions::up_to(8))
            .unwrap()
            .order,
        4
    );
    let mut rng = Rng(11);
    let (a, b) = (rng.matrix(4), rng.vector(4));
    let report = order(&a, &b, &tol(), &OrderOptions::up_to(8)).unwrap();
    assert_eq!(report.order, 0);
    assert!(report.is_exact());
    assert_eq!(report.failure.as_ref().map(|f| f.0), Some(1));
    let sum = Float::with_val(PREC, Float::sum(b.iter()));
    assert_eq!(report.failure.unwrap().1, (sum - 1u32).abs());
}

#[test]
fn butcher_theorem_extends_a_short_scan() {
    // Gauss(5) checked only to order 4: B(10), C(5), D(5) give order 10, and B(11) fails.
    let g = fixtures::gauss(5);
    let report = order(&g.a, &g.b, &tol(), &OrderOptions::up_to(4)).unwrap();
    assert_eq!((report.order, report.trees_verified_to), (10, 4));
    assert_eq!(
        report.lower_bound_method,
        LowerBoundMethod::SimplifyingAssumptions
    );
    assert_eq!(
        report.upper_bound.map(|u| (u.order, u.method)),
        Some((10, UpperBoundMethod::BushyTrees))
    );
    assert!(report.is_exact());
}

#[test]
fn capped_scan_reports_bounds() {
    // Gauss(3) with at most two stage vectors per order: the scan stops, Butcher gives 6.
    let g = tableau(Family::Gauss, 3);
    let options = OrderOptions {
        max_order: 7,
        max_stage_vectors: 2,
    };
    let report = order(&g.a, &g.b, &tol(), &options).unwrap();
    let truncated = report.truncated_at.unwrap();
    assert!(report.stage_vectors.iter().all(|&n| n <= 2));
    assert_eq!(report.trees_verified_to, truncated - 1);
    assert_eq!(
        (report.order, report.lower_bound_method),
        (6, LowerBoundMethod::SimplifyingAssumptions)
    );
    assert!(report.is_exact());

    // A random order-3 tableau (C(1) only, D fails): Butcher gives 2, the bushy trees bound 3.
    let t = random_order_three(4, 5);
    let report = order(
        &t.a,
        &t.b,
        &tol(),
        &OrderOptions {
            max_order: 8,
            max_stage_vectors: 1,
        },
    )
    .unwrap();
    assert_eq!((report.truncated_at, report.order), (Some(3), 2));
    assert_eq!(report.upper_bound.map(|u| u.order), Some(3));
    assert!(!report.is_exact());
}

#[test]
fn invalid_input_is_rejected() {
    let t = tableau(Family::Gauss, 2);
    let options = OrderOptions::up_to(4);
    assert_eq!(
        order(&t.a, &t.b[..1], &tol(), &options),
        Err(CheckError::Length {
            name: "b",
            expected: 2,
            found: 1
        })
    );
    let ragged = vec![t.a[0].clone(), t.a[1][..1].to_vec()];
    assert_eq!(
        order(&ragged, &t.b, &tol(), &options),
        Err(CheckError::RowLength {
            name: "a",
            row: 1,
            expected: 2,
            found: 1
        })
    );
    assert_eq!(order(&[], &[], &tol(), &options), Err(CheckError::Empty));
    assert_eq!(
        order(&t.a, &t.b, &Float::with_val(PREC, -1), &options),
        Err(CheckError::Tolerance)
    );
    let nan = vec![t.b[0].clone(), Float::with_val(PREC, f64::NAN)];
    assert_eq!(
        order(&t.a, &nan, &tol(), &options),
        Err(CheckError::NonFinite { name: "b" })
    );
    let short = vec![t.a[0].clone()];
    assert_eq!(
        order_partitioned(&t.a, &t.b, &short, &t.b, &tol(), &options),
        Err(CheckError::Length {
            name: "a_bar",
            expected: 2,
            found: 1
        })
    );
}

/// Random A (s ≥ 4) and b solving the four conditions of order ≤ 3 with the remaining weights
/// random: b𝟙 = 1, bᵀc = 1/2, bᵀc² = 1/3, bᵀAc = 1/6 (c = A𝟙).
fn random_order_three(s: usize, seed: u64) -> Tableau {
    let mut rng = Rng(seed);
    let a = rng.matrix(s);
    let c: Vec<Float> = a
        .iter()
        .map(|row| Float::with_val(PREC, Float::sum(row.iter())))
        .collect();
    let c2: Vec<Float> = c
        .iter()
        .map(|x| Float::with_val(PREC, x.square_ref()))
        .collect();
    let ac: Vec<Float> = a
        .iter()
        .map(|row| Float::with_val(PREC, Float::dot(row.iter().zip(&c))))
        .collect();
    let ones = vec![Float::with_val(PREC, 1); s];
    let rows = [ones, c.clone(), c2, ac];
    let b = weights_solving(
        &rows,
        &[ratio(1, 1), ratio(1, 2), ratio(1, 3), ratio(1, 6)],
        &mut rng,
    );
    Tableau { a, b, c }
}

/// Weights b with rowsᵀ b = rhs: the entries beyond rows.len() random, the first ones solved for.
fn weights_solving(rows: &[Vec<Float>], rhs: &[Float], rng: &mut Rng) -> Vec<Float> {
    let (k, s) = (rows.len(), rows[0].len());
    let free = rng.vector(s - k);
    let m: Vec<Vec<Float>> = rows.iter().map(|r| r[..k].to_vec()).collect();
    let r: Vec<Float> = rows
        .iter()
        .zip(rhs)
        .map(|(row, target)| {
            Float::with_val(
                PREC,
                target - Float::with_val(PREC, Float::dot(row[k..].iter().zip(&free))),
            )
        })
        .collect();
    let mut b = solve(m, r);
    b.extend(free);
    b
}

/// Random nodes and a random A with C(2) (two entries per row solved for), b from B(s): order 3.
fn random_c2(s: usize, seed: u64) -> Tableau {
    let mut rng = Rng(seed);
    let c = rng.vector(s);
    let mut a = rng.matrix(s);
    for (i, row) in a.iter_mut().enumerate() {
        let ones = vec![Float::with_val(PREC, 1); s];
        let targets = [
            c[i].clone(),
            Float::with_val(PREC, c[i].square_ref()) / 2u32,
        ];
        let system = [ones, c.clone()];
        let fixed = row[2..].to_vec();
        let m = system.iter().map(|r| r[..2].to_vec()).collect();
        let r = system
            .iter()
            .zip(&targets)
            .map(|(sr, t)| {
                Float::with_val(
                    PREC,
                    t - Float::with_val(PREC, Float::dot(sr[2..].iter().zip(&fixed))),
                )
            })
            .collect();
        let head = solve(m, r);
        row[..2].clone_from_slice(&head);
    }
    let powers: Vec<Vec<Float>> = (0..s)
        .map(|k| {
            c.iter()
                .map(|x| Float::with_val(PREC, rug::ops::Pow::pow(x, k as u32)))
                .collect()
        })
        .collect();
    let rhs: Vec<Float> = (1..=s as u32).map(|k| ratio(1, k)).collect();
    let b = solve(powers, rhs);
    Tableau { a, b, c }
}

/// The reduced scan and the plain per-tree check reach the same order (≤ max) and, where a
/// condition fails, report the same largest normalised residual.
fn assert_agreement(colours: &[(&[Vec<Float>], &[Float])], max: usize, label: &str) -> usize {
    let options = OrderOptions::up_to(max);
    let report = match colours {
        [(a, b)] => order(a, b, &tol(), &options),
        [(a, b), (a_bar, b_bar)] => order_partitioned(a, b, a_bar, b_bar, &tol(), &options),
        _ => unreachable!("one or two colours"),
    }
    .unwrap();
    let (reached, residual) = plain_order(colours, &tol(), max, PREC);
    let reduced = report
        .failure
        .as_ref()
        .map_or(report.trees_verified_to, |f| f.0 - 1);
    assert_eq!(reduced, reached, "{label}: {report:?}");
    match (&report.failure, residual) {
        (Some((_, r)), Some(p)) => {
            let difference = Float::with_val(PREC, r - &p).abs();
            assert!(
                difference < Float::with_val(PREC, 1e-60) * (p.clone().abs() + 1u32),
                "{label}: {r} vs {p}"
            );
        }
        (None, None) => {}
        (f, p) => panic!("{label}: reduced failure {f:?}, plain {p:?}"),
    }
    reached
}

#[test]
fn reduced_scan_agrees_with_plain_trees_on_random_tableaus() {
    for seed in 1..=4 {
        let t = random_order_three(4 + seed as usize % 3, seed);
        assert_eq!(assert_agreement(&[(&t.a, &t.b)], 8, "order-3 tableau"), 3);
        let t = random_c2(5, seed);
        assert_eq!(assert_agreement(&[(&t.a, &t.b)], 8, "C(2) tableau"), 3);
    }
    // Pairs with separate weights: b and b̄ each solve b𝟙 = 1, bᵀc = bᵀc̄ = 1/2.
    for seed in 1..=4 {
        let mut rng = Rng(100 + seed);
        let (a, a_bar) = (rng.matrix(5), rng.matrix(5));
        let sums = |m: &[Vec<Float>]| -> Vec<Float> {
            m.iter()
                .map(|row| Float::with_val(PREC, Float::sum(row.iter())))
                .collect()
        };
        let rows = [vec![Float::with_val(PREC, 1); 5], sums(&a), sums(&a_bar)];
        let rhs = [ratio(1, 1), ratio(1, 2), ratio(1, 2)];
        let b = weights_solving(&rows, &rhs, &mut rng);
        let b_bar = weights_solving(&rows, &rhs, &mut rng);
        assert_eq!(
            assert_agreement(&[(&a, &b), (&a_bar, &b_bar)], 8, "random pair"),
            2
        );
        // A pair whose second weights are inconsistent fails at order 1.
        let wrong: Vec<Float> = rng.vector(5);
        assert_eq!(
            assert_agreement(&[(&a, &b), (&a_bar, &wrong)], 8, "inconsistent pair"),
            0
        );
    }
}

#[test]
fn reduced_scan_agrees_with_plain_trees_on_reference_tableaus() {
    use Family::*;
    for s in [2, 3] {
        for family in [
            Gauss,
            LobattoIIIA,
            LobattoIIIC,
            LobattoIIIF,
            LobattoIIIG,
            RadauIA,
            RadauIIB,
        ] {
            let t = tableau(family, s);
            assert_agreement(&[(&t.a, &t.b)], 2 * s + 1, &format!("{family:?}({s})"));
        }
        for (x, y) in [
            (LobattoIIIA, LobattoIIIB),
            (LobattoIIIC, LobattoIII),
            (LobattoIIIF, LobattoIIIFBar),
        ] {
            let (p, q) = (tableau(x, s), tableau(y, s));
            assert_agreement(
                &[(&p.a, &p.b), (&q.a, &q.b)],
                2 * s - 1,
                &format!("({x:?}, {y:?})({s})"),
            );
        }
    }
    // Orders 7 and 8 with plain trees: Lobatto IIIA(4) (order 6) and its pair with IIIB(4).
    let (a4, b4) = (tableau(LobattoIIIA, 4), tableau(LobattoIIIB, 4));
    assert_eq!(assert_agreement(&[(&a4.a, &a4.b)], 8, "IIIA(4)"), 6);
    assert_eq!(
        assert_agreement(&[(&a4.a, &a4.b), (&b4.a, &b4.b)], 7, "(IIIA, IIIB)(4)"),
        6
    );
}

/// Lobatto IIIA(s) built by collocation at Lobatto nodes found with Newton's method; its pair
/// with the symplectic conjugate (= IIIB(s)) has order 2s − 2, checked by trees up to 2s − 2
/// (each order-(2s − 1) failure is found by the bushy trees / Butcher bounds or the scan).
#[test]
fn lobatto_iiia_8_to_order_14() {
    let t = fixtures::lobatto_iiia(8);
    let conj = fixtures::conjugate(&t.a, &t.b);
    let start = Instant::now();
    let single = order(&t.a, &t.b, &tol(), &OrderOptions::up_to(14)).unwrap();
    let single_time = start.elapsed();
    let start = Instant::now();
    let pair =
        order_partitioned(&t.a, &t.b, &conj, &t.b, &tol(), &OrderOptions::up_to(14)).unwrap();
    let pair_time = start.elapsed();
    println!(
        "IIIA(8) to order 14: {single_time:?}, |V_n| = {:?}, trees {}",
        single.stage_vectors, single.trees_checked
    );
    println!(
        "(IIIA, IIIB)(8) to order 14: {pair_time:?}, |V_n| = {:?}, trees {}",
        pair.stage_vectors, pair.trees_checked
    );
    for report in [&single, &pair] {
        assert_eq!(
            (report.order, report.trees_verified_to),
            (14, 14),
            "{report:?}"
        );
        assert!(report.is_exact(), "{report:?}");
        assert!(report.max_residual < 1e-60, "{}", report.max_residual);
    }
}

/// Rooted trees with one colour, orders 1..14 (OEIS A000081).
const MONOCOLOURED: [usize; 14] = [
    1, 1, 2, 4, 9, 20, 48, 115, 286, 719, 1842, 4766, 12486, 32973,
];

/// A random s = 8 tableau has no coinciding stage vectors: with a tolerance so large that every
/// condition "holds", the scan stores one vector per tree, up to order 14.
#[test]
fn random_s8_scan_keeps_every_tree() {
    let mut rng = Rng(5);
    let (a, b) = (rng.matrix(8), rng.vector(8));
    let everything = Float::with_val(PREC, 1e30);
    let start = Instant::now();
    let report = order(&a, &b, &everything, &OrderOptions::up_to(14)).unwrap();
    println!("random s = 8 to order 14: {:?}", start.elapsed());
    assert_eq!(report.stage_vectors, MONOCOLOURED);
    assert_eq!(
        report.trees_checked,
        MONOCOLOURED.iter().sum::<usize>() as u128
    );
}

/// The bicoloured growth on a random s = 8 pair: |V_9| = 44947 (OEIS A000151) and V_10 exceeds
/// the default cap.
#[test]
fn random_s8_pair_scan_hits_the_cap() {
    let mut rng = Rng(5);
    let (a, b, a_bar, b_bar) = (rng.matrix(8), rng.vector(8), rng.matrix(8), rng.vector(8));
    let everything = Float::with_val(PREC, 1e30);
    let start = Instant::now();
    let report = order_partitioned(
        &a,
        &b,
        &a_bar,
        &b_bar,
        &everything,
        &OrderOptions::up_to(14),
    )
    .unwrap();
    println!(
        "random pair s = 8: {:?}, |V_n| = {:?}",
        start.elapsed(),
        report.stage_vectors
    );
    assert_eq!(
        report.stage_vectors,
        [1, 2, 7, 26, 107, 458, 2058, 9498, 44947]
    );
    assert_eq!(
        (report.truncated_at, report.trees_verified_to),
        (Some(10), 9)
    );
}

/// Gauss(3) rounded to f64 (held exactly): every condition up to order 6 holds to 16 ε, and the
/// symplecticity residual of the rounded constants is of the same size.
#[test]
fn rounded_gauss_keeps_its_order_to_16_eps() {
    let t = tableau(Family::Gauss, 3);
    let round =
        |v: &[Float]| -> Vec<Float> { v.iter().map(|x| Float::with_val(53, x.to_f64())).collect() };
    let a: Vec<Vec<Float>> = t.a.iter().map(|r| round(r)).collect();
    let b = round(&t.b);
    let sixteen_eps = Float::with_val(PREC, 16.0 * f64::EPSILON);
    let report = order(&a, &b, &sixteen_eps, &OrderOptions::up_to(7)).unwrap();
    assert_eq!(report.order, 6, "{report:?}");
    assert!(report.max_residual > 1e-30 && report.max_residual <= sixteen_eps);
    let symplectic = crate::check::symplecticity_residual(&a, &b).unwrap();
    assert!(
        symplectic > 1e-30 && symplectic <= sixteen_eps,
        "{symplectic}"
    );
}

/// Gauss(8) rounded to f64: the rounded stage vectors no longer coincide, so the scan meets the
/// cap; Butcher's theorem on B(16), C(8), D(8) (each to 16 ε) still proves order 16.
#[test]
fn rounded_gauss_8_falls_back_to_butcher() {
    let g = fixtures::gauss(8);
    let round =
        |v: &[Float]| -> Vec<Float> { v.iter().map(|x| Float::with_val(53, x.to_f64())).collect() };
    let a: Vec<Vec<Float>> = g.a.iter().map(|r| round(r)).collect();
    let b = round(&g.b);
    let sixteen_eps = Float::with_val(PREC, 16.0 * f64::EPSILON);
    let options = OrderOptions {
        max_order: 16,
        max_stage_vectors: 60_000,
    };
    let start = Instant::now();
    let report = order(&a, &b, &sixteen_eps, &options).unwrap();
    println!(
        "rounded Gauss(8): {:?}, |V_n| = {:?}",
        start.elapsed(),
        report.stage_vectors
    );
    assert_eq!(report.truncated_at, Some(15), "{report:?}");
    assert_eq!(
        (report.order, report.lower_bound_method),
        (16, LowerBoundMethod::SimplifyingAssumptions)
    );
    assert!(report.is_exact(), "{report:?}");
}
