//! Exact equality of the generated tableaus and SPARK coefficients with the closed forms of
//! the references (RungeKutta.jl's explicit tableaus for s = 2, 3 and GeometricIntegrators.jl's
//! `src/spark/` coefficient functions).

mod common;

use common::{assert_matrix, assert_vector, matrix, vector};
use sparkgen_codegen::exact::Precision;
use sparkgen_codegen::spark::{
    gauss_omega_matrix, lobatto_gauss_coefficients, lobatto_null_vector, lobatto_omega_matrix,
};
use sparkgen_codegen::tableau::{Family, build};

const P: Precision = Precision::DEFAULT;

fn check(family: Family, s: usize, a: &str, b: &str, c: &str) {
    let t = build(family, s, P).unwrap();
    let name = t.name();
    assert_matrix(&t.a, &matrix(a), &format!("{name} a"));
    assert_vector(&t.b, &vector(b), &format!("{name} b"));
    assert_vector(&t.c, &vector(c), &format!("{name} c"));
    let reference_rational = matrix(a).iter().flatten().all(|x| x.is_rational())
        && vector(b).iter().chain(&vector(c)).all(|x| x.is_rational());
    assert_eq!(
        t.is_rational(),
        reference_rational,
        "{name}: rationality flag"
    );
}

const LOB2_B: &str = "1/2, 1/2";
const LOB2_C: &str = "0, 1";
const LOB3_B: &str = "1/6, 2/3, 1/6";
const LOB3_C: &str = "0, 1/2, 1";

#[test]
fn lobatto_two_stages_all_families() {
    use Family::*;
    for (family, a) in [
        (LobattoIIIA, "0, 0; 1/2, 1/2"),
        (LobattoIIIB, "1/2, 0; 1/2, 0"),
        (LobattoIIIC, "1/2, -1/2; 1/2, 1/2"),
        (LobattoIIICBar, "0, 0; 1, 0"),
        (LobattoIIID, "1/4, -1/4; 3/4, 1/4"),
        (LobattoIIIE, "1/4, 0; 1/2, 1/4"),
        (LobattoIIIF, "1/12, -1/12; 7/12, 5/12"),
        (LobattoIIIFBar, "5/12, -1/12; 7/12, 1/12"),
        (LobattoIIIG, "1/4, -1/12; 7/12, 1/4"),
    ] {
        check(family, 2, a, LOB2_B, LOB2_C);
    }
}

#[test]
fn lobatto_three_stages_all_families() {
    use Family::*;
    for (family, a) in [
        (LobattoIIIA, "0, 0, 0; 5/24, 1/3, -1/24; 1/6, 2/3, 1/6"),
        (LobattoIIIB, "1/6, -1/6, 0; 1/6, 1/3, 0; 1/6, 5/6, 0"),
        (
            LobattoIIIC,
            "1/6, -1/3, 1/6; 1/6, 5/12, -1/12; 1/6, 2/3, 1/6",
        ),
        (LobattoIIICBar, "0, 0, 0; 1/4, 1/4, 0; 0, 1, 0"),
        (
            LobattoIIID,
            "1/12, -1/6, 1/12; 5/24, 1/3, -1/24; 1/12, 5/6, 1/12",
        ),
        (
            LobattoIIIE,
            "1/12, -1/12, 0; 3/16, 1/3, -1/48; 1/6, 3/4, 1/12",
        ),
        (
            LobattoIIIF,
            "1/30, -1/15, 1/30; 5/24, 1/3, -1/24; 2/15, 11/15, 2/15",
        ),
        (
            LobattoIIIFBar,
            "2/15, -1/6, 1/30; 11/60, 1/3, -1/60; 2/15, 5/6, 1/30",
        ),
        (
            LobattoIIIG,
            "1/12, -7/60, 1/30; 47/240, 1/3, -7/240; 2/15, 47/60, 1/12",
        ),
    ] {
        check(family, 3, a, LOB3_B, LOB3_C);
    }
}

#[test]
fn lobatto_four_stages_surds() {
    use Family::*;
    let b = "1/12, 5/12, 5/12, 1/12";
    let c = "0, 1/2 - sqrt(5)/10, sqrt(5)/10 + 1/2, 1";
    for (family, a) in [
        (
            LobattoIIIA,
            "0, 0, 0, 0; sqrt(5)/120 + 11/120, 5/24 - sqrt(5)/120, 5/24 - 13*sqrt(5)/120, -1/120 + sqrt(5)/120;\
             11/120 - sqrt(5)/120, 5/24 + 13*sqrt(5)/120, sqrt(5)/120 + 5/24, -sqrt(5)/120 - 1/120;\
             1/12, 5/12, 5/12, 1/12",
        ),
        (
            LobattoIIIC,
            "1/12, -sqrt(5)/12, sqrt(5)/12, -1/12; 1/12, 1/4, 1/6 - 7*sqrt(5)/60, sqrt(5)/60;\
             1/12, 1/6 + 7*sqrt(5)/60, 1/4, -sqrt(5)/60; 1/12, 5/12, 5/12, 1/12",
        ),
        (
            LobattoIIIE,
            "1/24, -sqrt(5)/48 - 1/48, -1/48 + sqrt(5)/48, 0;\
             sqrt(5)/240 + 7/80, 5/24, 5/24 - 13*sqrt(5)/120, -1/240 + sqrt(5)/240;\
             7/80 - sqrt(5)/240, 5/24 + 13*sqrt(5)/120, 5/24, -sqrt(5)/240 - 1/240;\
             1/12, 7/16 - sqrt(5)/48, sqrt(5)/48 + 7/16, 1/24",
        ),
        (
            LobattoIIIG,
            "1/24, -5*sqrt(5)/168 - 1/84, -1/84 + 5*sqrt(5)/168, -1/56;\
             sqrt(5)/168 + 3/35, 5/24, 5/24 - 47*sqrt(5)/420, -1/420 + sqrt(5)/168;\
             3/35 - sqrt(5)/168, 5/24 + 47*sqrt(5)/420, 5/24, -sqrt(5)/168 - 1/420;\
             17/168, 3/7 - 5*sqrt(5)/168, 5*sqrt(5)/168 + 3/7, 1/24",
        ),
    ] {
        check(family, 4, a, b, c);
    }
}

#[test]
fn gauss_one_and_two_stages() {
    check(Family::Gauss, 1, "1/2", "1", "1/2");
    check(
        Family::Gauss,
        2,
        "1/4, 1/4 - sqrt(3)/6; 1/4 + sqrt(3)/6, 1/4",
        "1/2, 1/2",
        "1/2 - sqrt(3)/6, sqrt(3)/6 + 1/2",
    );
    check(
        Family::Gauss,
        3,
        "5/36, 2/9 - sqrt(15)/15, 5/36 - sqrt(15)/30; 5/36 + sqrt(15)/24, 2/9, 5/36 - sqrt(15)/24;\
         sqrt(15)/30 + 5/36, 2/9 + sqrt(15)/15, 5/36",
        "5/18, 4/9, 5/18",
        "1/2 - sqrt(15)/10, 1/2, sqrt(15)/10 + 1/2",
    );
}

#[test]
fn radau_two_and_three_stages() {
    use Family::*;
    check(RadauIA, 2, "1/4, -1/4; 1/4, 5/12", "1/4, 3/4", "0, 2/3");
    check(RadauIB, 2, "1/8, -1/8; 7/24, 3/8", "1/4, 3/4", "0, 2/3");
    check(RadauIIA, 2, "5/12, -1/12; 3/4, 1/4", "3/4, 1/4", "1/3, 1");
    check(RadauIIB, 2, "3/8, -1/24; 7/8, 1/8", "3/4, 1/4", "1/3, 1");
    check(
        RadauIIA,
        3,
        "11/45 - 7*sqrt(6)/360, 37/225 - 169*sqrt(6)/1800, -2/225 + sqrt(6)/75;\
         37/225 + 169*sqrt(6)/1800, 7*sqrt(6)/360 + 11/45, -sqrt(6)/75 - 2/225;\
         4/9 - sqrt(6)/36, sqrt(6)/36 + 4/9, 1/9",
        "4/9 - sqrt(6)/36, sqrt(6)/36 + 4/9, 1/9",
        "2/5 - sqrt(6)/10, sqrt(6)/10 + 2/5, 1",
    );
    check(
        RadauIA,
        3,
        "1/9, -sqrt(6)/18 - 1/18, -1/18 + sqrt(6)/18;\
         1/9, 7*sqrt(6)/360 + 11/45, 11/45 - 43*sqrt(6)/360;\
         1/9, 11/45 + 43*sqrt(6)/360, 11/45 - 7*sqrt(6)/360",
        "1/9, sqrt(6)/36 + 4/9, 4/9 - sqrt(6)/36",
        "0, 3/5 - sqrt(6)/10, sqrt(6)/10 + 3/5",
    );
}

#[test]
fn omega_matrices() {
    assert_matrix(
        &lobatto_omega_matrix(2, P).unwrap(),
        &matrix("1, 1, -1; 0, 0, 1"),
        "ω_L(2)",
    );
    assert_matrix(
        &lobatto_omega_matrix(3, P).unwrap(),
        &matrix("1, 0, -1, 1; 0, 1, 1/2, -1/2; 0, 0, 0, 1"),
        "ω_L(3)",
    );
    assert_matrix(
        &lobatto_omega_matrix(4, P).unwrap(),
        &matrix(
            "1, 0, 0, 1, -1; 0, 1, 0, -sqrt(5)/5, sqrt(5)/5; 0, 0, 1, sqrt(5)/5, -sqrt(5)/5; 0, 0, 0, 0, 1",
        ),
        "ω_L(4)",
    );
    assert_matrix(
        &gauss_omega_matrix(1, P).unwrap(),
        &matrix("0, 1"),
        "ω_G(1)",
    );
    assert_matrix(
        &gauss_omega_matrix(2, P).unwrap(),
        &matrix("1/2, 1/2, 0; 0, 0, 1"),
        "ω_G(2)",
    );
    assert_matrix(
        &gauss_omega_matrix(3, P).unwrap(),
        &matrix("5/18, 4/9, 5/18, 0; 5/36 - sqrt(15)/36, 2/9, 5/36 + sqrt(15)/36, 0; 0, 0, 0, 1"),
        "ω_G(3)",
    );
}

#[test]
fn null_vectors_unit_norm_positive_first() {
    // (1, −1)/√2, (1, −2, 1)/√6, (1, −√5, √5, −1)/√12, (3, −7, 8, −7, 3)/√180.
    let cases = [
        (2, "1, -1", 2),
        (3, "1, -2, 1", 6),
        (4, "1, -sqrt(5), sqrt(5), -1", 12),
        (5, "3, -7, 8, -7, 3", 180),
    ];
    for (s, v, n2) in cases {
        let norm = sparkgen_codegen::exact::Num::int(n2).sqrt(P);
        let expect: Vec<_> = vector(v).iter().map(|x| x.div(&norm).unwrap()).collect();
        assert_vector(
            &lobatto_null_vector(s, P).unwrap(),
            &expect,
            &format!("d({s})"),
        );
    }
}

#[test]
fn lobatto_gauss_coupling() {
    let cases = [
        (1, 2, "0; 1"),
        (2, 2, "0, 0; 1/2, 1/2"),
        (3, 2, "0, 0, 0; 5/18, 4/9, 5/18"),
        (2, 3, "0, 0; 1/4 + sqrt(3)/8, 1/4 - sqrt(3)/8; 1/2, 1/2"),
        (
            3,
            4,
            "0, 0, 0; 5/36 - sqrt(5)/180 + sqrt(15)/30, 2/9 - 4*sqrt(5)/45, 5/36 - sqrt(15)/30 - sqrt(5)/180;\
             5/36 + sqrt(5)/180 + sqrt(15)/30, 2/9 + 4*sqrt(5)/45, 5/36 + sqrt(5)/180 - sqrt(15)/30;\
             5/18, 4/9, 5/18",
        ),
    ];
    for (s, sigma, a) in cases {
        let lg = lobatto_gauss_coefficients(s, sigma, P).unwrap();
        assert_matrix(&lg.a, &matrix(a), &format!("lobatto_gauss({s},{sigma})"));
    }
}

#[test]
fn stage_counts_out_of_range_are_errors() {
    assert!(build(Family::LobattoIIIA, 1, P).is_err());
    assert!(build(Family::Gauss, 0, P).is_err());
    assert!(lobatto_null_vector(1, P).is_err());
    assert!(lobatto_gauss_coefficients(2, 1, P).is_err());
}
