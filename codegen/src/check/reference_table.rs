//! The computed property table of the reference (§1.3), asserted on the tableaus typed in
//! from §1.4: classical order, B/C/D levels, symplecticity, symmetry, R(∞), exact stability
//! functions, the orders of the partitioned pairs, and the symplectic conjugates (§2).

use rug::Float;

use super::fixtures::{self, Family, PREC, Tableau, tableau};
use super::{
    OrderOptions, RInfinity, SimplifyingLevels, order, order_partitioned, simplifying_levels,
    stability_function, symmetry_residual, symplecticity_residual,
    symplecticity_residual_partitioned,
};

/// Decision tolerance: the typed-in values carry errors of about 1e-77.
fn tol() -> Float {
    Float::with_val(PREC, 1e-60)
}

/// R(∞) as in the table: a value or ∞.
#[derive(Debug, Clone, Copy)]
enum Limit {
    Value(i32),
    Infinity,
}

/// One row of the table for a given s.
struct Row {
    order: usize,
    levels: SimplifyingLevels,
    symplectic: bool,
    symmetric: bool,
    r_infinity: Limit,
}

/// (−1)^k.
fn sign(k: usize) -> i32 {
    if k.is_multiple_of(2) { 1 } else { -1 }
}

/// The §1.3 table ("B, C, D satisfied up to" read as the largest levels).
fn row(family: Family, s: usize) -> Row {
    use Family::*;
    let lv = |b, c, d| SimplifyingLevels { b, c, d };
    let (order, levels, symplectic, symmetric, r_infinity) = match family {
        Gauss => (2 * s, lv(2 * s, s, s), true, true, Limit::Value(sign(s))),
        LobattoIIIA => (
            2 * s - 2,
            lv(2 * s - 2, s, s - 2),
            false,
            true,
            Limit::Value(sign(s - 1)),
        ),
        LobattoIIIB => (
            2 * s - 2,
            lv(2 * s - 2, s - 2, s),
            false,
            true,
            Limit::Value(sign(s - 1)),
        ),
        LobattoIIIC => (
            2 * s - 2,
            lv(2 * s - 2, s - 1, s - 1),
            false,
            false,
            Limit::Value(0),
        ),
        LobattoIII => (
            2 * s - 2,
            lv(2 * s - 2, s - 1, s - 1),
            false,
            false,
            Limit::Infinity,
        ),
        LobattoIIID => (
            2 * s - 2,
            lv(2 * s - 2, s - 1, s - 1),
            true,
            true,
            Limit::Value(sign(s)),
        ),
        LobattoIIIE => (
            2 * s - 2,
            lv(2 * s - 2, s - 2, s - 2),
            true,
            true,
            Limit::Value(sign(s)),
        ),
        LobattoIIIF => (
            2 * s - 2,
            lv(2 * s - 2, s - 1, s - 2),
            false,
            true,
            Limit::Value(sign(s)),
        ),
        LobattoIIIFBar => (
            2 * s - 2,
            lv(2 * s - 2, s - 2, s - 1),
            false,
            true,
            Limit::Value(sign(s)),
        ),
        LobattoIIIG => (
            2 * s - 2,
            lv(2 * s - 2, s - 2, s - 2),
            true,
            true,
            Limit::Value(sign(s)),
        ),
        RadauIA => (
            2 * s - 1,
            lv(2 * s - 1, s - 1, s),
            false,
            false,
            Limit::Value(0),
        ),
        RadauIIA => (
            2 * s - 1,
            lv(2 * s - 1, s, s - 1),
            false,
            false,
            Limit::Value(0),
        ),
        RadauIB | RadauIIB => (
            2 * s - 1,
            lv(2 * s - 1, s - 1, s - 1),
            true,
            false,
            Limit::Value(sign(s)),
        ),
        // Not in the table: B(4), C(1), D(1) and R(z) = Σ_{k ≤ 4} z^k/k! checked by hand.
        Rk4 => (4, lv(4, 1, 1), false, false, Limit::Infinity),
    };
    Row {
        order,
        levels,
        symplectic,
        symmetric,
        r_infinity,
    }
}

/// Every typed-in tableau with its stage count.
fn typed_in() -> Vec<(Family, usize)> {
    use Family::*;
    let all = [
        Gauss,
        LobattoIIIA,
        LobattoIIIB,
        LobattoIIIC,
        LobattoIII,
        LobattoIIID,
        LobattoIIIE,
        LobattoIIIF,
        LobattoIIIFBar,
        LobattoIIIG,
        RadauIA,
        RadauIB,
        RadauIIA,
        RadauIIB,
    ];
    let lobatto4 = [
        LobattoIIIA,
        LobattoIIIB,
        LobattoIIIC,
        LobattoIII,
        LobattoIIID,
        LobattoIIIE,
        LobattoIIIF,
        LobattoIIIG,
    ];
    let mut list: Vec<(Family, usize)> = [2, 3]
        .iter()
        .flat_map(|&s| all.iter().map(move |&f| (f, s)))
        .collect();
    list.extend(lobatto4.iter().map(|&f| (f, 4)));
    list.push((Rk4, 4));
    list
}

#[test]
fn classical_orders_match_the_table() {
    for (family, s) in typed_in() {
        let t = tableau(family, s);
        let expected = row(family, s);
        let report = order(&t.a, &t.b, &tol(), &OrderOptions::up_to(2 * s + 1)).unwrap();
        assert_eq!(report.order, expected.order, "{family:?}({s}): {report:?}");
        assert!(report.is_exact(), "{family:?}({s}): {report:?}");
        assert!(
            report.max_residual < 1e-70,
            "{family:?}({s}): {}",
            report.max_residual
        );
    }
}

#[test]
fn simplifying_assumption_levels_match_the_table() {
    for (family, s) in typed_in() {
        let t = tableau(family, s);
        let levels = simplifying_levels(&t.a, &t.b, &t.c, &tol(), 2 * s + 2).unwrap();
        assert_eq!(levels, row(family, s).levels, "{family:?}({s})");
    }
}

#[test]
fn symplecticity_and_symmetry_match_the_table() {
    for (family, s) in typed_in() {
        let t = tableau(family, s);
        let expected = row(family, s);
        let symplectic = symplecticity_residual(&t.a, &t.b).unwrap();
        assert_eq!(
            symplectic <= tol(),
            expected.symplectic,
            "{family:?}({s}): {symplectic}"
        );
        let symmetry = symmetry_residual(&t.a, &t.b, &t.c).unwrap();
        assert_eq!(
            symmetry.coefficients <= tol(),
            expected.symmetric,
            "{family:?}({s}): {symmetry:?}"
        );
        if expected.symmetric {
            assert!(symmetry.max() <= tol(), "{family:?}({s}): {symmetry:?}");
        }
    }
}

#[test]
fn r_infinity_matches_the_corrected_table() {
    for (family, s) in typed_in() {
        let t = tableau(family, s);
        let r = stability_function(&t.a, &t.b)
            .unwrap()
            .r_infinity(&tol())
            .unwrap();
        match (row(family, s).r_infinity, &r) {
            (Limit::Infinity, RInfinity::Infinite) => {}
            (Limit::Value(v), RInfinity::Finite(x)) => {
                assert!(
                    Float::with_val(PREC, x - v).abs() < tol(),
                    "{family:?}({s}): {x}"
                );
            }
            (expected, _) => panic!("{family:?}({s}): R(∞) = {r:?}, expected {expected:?}"),
        }
    }
}

/// Exact stability functions of §1.3 as integer coefficients (ascending powers) of P and Q.
#[test]
fn stability_functions_match_the_reference() {
    use Family::*;
    let cases: &[(Family, usize, &[i64], &[i64])] = &[
        (LobattoIIIA, 2, &[2, 1], &[2, -1]),
        (LobattoIIIB, 2, &[2, 1], &[2, -1]),
        (LobattoIIIA, 3, &[12, 6, 1], &[12, -6, 1]),
        (LobattoIIIB, 3, &[12, 6, 1], &[12, -6, 1]),
        (LobattoIIIC, 2, &[2], &[2, -2, 1]),
        (LobattoIIIC, 3, &[24, 6], &[24, -18, 6, -1]),
        (LobattoIII, 2, &[2, 2, 1], &[2]),
        (LobattoIII, 3, &[24, 18, 6, 1], &[24, -6]),
        (LobattoIIID, 2, &[4, 2, 1], &[4, -2, 1]),
        (LobattoIIID, 3, &[48, 24, 6, 1], &[48, -24, 6, -1]),
        (LobattoIIIE, 2, &[16, 8, 1], &[16, -8, 1]),
        (LobattoIIIE, 3, &[192, 96, 18, 1], &[192, -96, 18, -1]),
        (LobattoIIIF, 2, &[12, 6, 1], &[12, -6, 1]),
        (LobattoIIIFBar, 2, &[12, 6, 1], &[12, -6, 1]),
        (LobattoIIIF, 3, &[120, 60, 12, 1], &[120, -60, 12, -1]),
        (LobattoIIIFBar, 3, &[120, 60, 12, 1], &[120, -60, 12, -1]),
        (LobattoIIIG, 2, &[18, 9, 2], &[18, -9, 2]),
        (
            LobattoIIIG,
            3,
            &[4800, 2400, 498, 49],
            &[4800, -2400, 498, -49],
        ),
        (Gauss, 2, &[12, 6, 1], &[12, -6, 1]),
        (Gauss, 3, &[120, 60, 12, 1], &[120, -60, 12, -1]),
        (Rk4, 4, &[24, 24, 12, 4, 1], &[24]),
    ];
    for &(family, s, p, q) in cases {
        let t = tableau(family, s);
        let r = stability_function(&t.a, &t.b).unwrap();
        for (computed, exact) in [(&r.numerator, p), (&r.denominator, q)] {
            assert_eq!(computed.len(), s + 1);
            for (k, x) in computed.iter().enumerate() {
                let expected = Float::with_val(PREC, exact.get(k).copied().unwrap_or(0)) / exact[0];
                assert!(
                    Float::with_val(PREC, x - &expected).abs() < tol(),
                    "{family:?}({s}) z^{k}: {x}"
                );
            }
        }
    }
}

/// The partitioned pairs of §1.3: order exactly 2s − 2 ((Gauss, Gauss): 2s).
#[test]
fn partitioned_pair_orders_match_the_table() {
    use Family::*;
    let pairs = [
        (LobattoIIIA, LobattoIIIB),
        (LobattoIIIB, LobattoIIIA),
        (LobattoIIIC, LobattoIII),
        (LobattoIII, LobattoIIIC),
        (LobattoIIID, LobattoIIID),
        (LobattoIIIE, LobattoIIIE),
        (LobattoIIIF, LobattoIIIFBar),
        (LobattoIIIG, LobattoIIIG),
        (LobattoIIIA, LobattoIIIC),
        (Gauss, Gauss),
    ];
    for s in [2, 3] {
        for (first, second) in pairs {
            let (q, p) = (tableau(first, s), tableau(second, s));
            let report = order_partitioned(
                &q.a,
                &q.b,
                &p.a,
                &p.b,
                &tol(),
                &OrderOptions::up_to(2 * s + 1),
            )
            .unwrap();
            let expected = if first == Gauss { 2 * s } else { 2 * s - 2 };
            assert_eq!(
                report.order, expected,
                "({first:?}, {second:?})({s}): {report:?}"
            );
            assert!(
                report.is_exact(),
                "({first:?}, {second:?})({s}): {report:?}"
            );
        }
    }
}

/// §2: conj(IIIA) = IIIB, conj(IIIC) = III, conj(IIIF) = IIIF̄, self-conjugate IIID, IIIE, IIIG and
/// Gauss; Radau IB/IIB are the symplectic averages (A + conj A)/2 of IA/IIA. The pairs
/// (A, conj A) satisfy the partitioned symplecticity conditions.
#[test]
fn symplectic_conjugates_match_the_reference() {
    use Family::*;
    let conjugates = [
        (LobattoIIIA, LobattoIIIB),
        (LobattoIIIB, LobattoIIIA),
        (LobattoIIIC, LobattoIII),
        (LobattoIII, LobattoIIIC),
        (LobattoIIID, LobattoIIID),
        (LobattoIIIE, LobattoIIIE),
        (LobattoIIIG, LobattoIIIG),
        (LobattoIIIF, LobattoIIIFBar),
        (Gauss, Gauss),
    ];
    for s in [2, 3] {
        for (from, to) in conjugates {
            let (t, expected) = (tableau(from, s), tableau(to, s));
            let conj = fixtures::conjugate(&t.a, &t.b);
            assert!(
                max_difference(&conj, &expected.a) < tol(),
                "conj({from:?}({s}))"
            );
            let pair = symplecticity_residual_partitioned(&t.a, &t.b, &conj, &t.b).unwrap();
            assert!(pair.max() < tol(), "({from:?}, conj)({s}): {pair:?}");
        }
        for (from, to) in [(RadauIA, RadauIB), (RadauIIA, RadauIIB)] {
            let (t, expected) = (tableau(from, s), tableau(to, s));
            assert!(
                max_difference(&symplectic_average(&t), &expected.a) < tol(),
                "{to:?}({s})"
            );
        }
    }
}

/// (A + conj(A))/2.
fn symplectic_average(t: &Tableau) -> Vec<Vec<Float>> {
    let conj = fixtures::conjugate(&t.a, &t.b);
    t.a.iter()
        .zip(&conj)
        .map(|(r, rc)| {
            r.iter()
                .zip(rc)
                .map(|(x, y)| Float::with_val(PREC, x + y) / 2u32)
                .collect()
        })
        .collect()
}

/// max_ij |x_ij − y_ij|.
fn max_difference(x: &[Vec<Float>], y: &[Vec<Float>]) -> Float {
    x.iter()
        .flatten()
        .zip(y.iter().flatten())
        .map(|(u, v)| Float::with_val(PREC, u - v).abs())
        .fold(Float::new(PREC), |m, d| m.max(&d))
}
