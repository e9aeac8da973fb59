//! Every emitted `f64` is the correctly rounded value of the exact one, and every remainder
//! the correctly rounded `x − fl(x)`: recomputed here at 512 bits and compared bit for bit.

use rug::Float;
use sparkgen_codegen::exact::{Num, Precision};
use sparkgen_codegen::spark::{
    gauss_omega_matrix, lobatto_gauss_coefficients, lobatto_null_vector, lobatto_omega_matrix,
};
use sparkgen_codegen::tableau::{Family, build};
use sparkgen_generated::catalogue::TABLEAUS;

const HIGH: Precision = Precision(512);

fn assert_rounded(exact: &[Num], value: &[f64], lo: &[f64], what: &str) {
    assert_eq!(exact.len(), value.len(), "{what}");
    for (k, x) in exact.iter().enumerate() {
        let hi = match x {
            Num::Rat(r) => Float::with_val(53, r),
            Num::Float(f) => Float::with_val(53, f),
        };
        assert_eq!(
            value[k].to_bits(),
            hi.to_f64().to_bits(),
            "{what}[{k}]: {} vs {}",
            value[k],
            x
        );
        let rest = x.to_float(HIGH) - Float::with_val(HIGH.bits(), value[k]);
        // Below |x|·2^−384 at 512 bits the remainder is round-off of the computation: the exact
        // value is then an f64 (e.g. 1/4 computed through √3) and its remainder is 0.
        let floor = x.to_float(HIGH).abs() * Float::with_val(HIGH.bits(), Float::i_exp(1, -384));
        let expect = if rest.clone().abs() <= floor {
            0.0
        } else {
            rest.to_f64()
        };
        assert_eq!(lo[k].to_bits(), expect.to_bits(), "{what}[{k}] remainder");
    }
}

#[test]
fn tableau_constants_are_correctly_rounded() {
    for entry in TABLEAUS {
        let family = Family::from_name(entry.family).unwrap();
        let t = build(family, entry.stages, HIGH).unwrap();
        let a: Vec<Num> = t.a.into_iter().flatten().collect();
        assert_rounded(
            &a,
            entry.data.a,
            entry.data.a_lo,
            &format!("{} a", entry.name),
        );
        assert_rounded(
            &t.b,
            entry.data.b,
            entry.data.b_lo,
            &format!("{} b", entry.name),
        );
        assert_rounded(
            &t.c,
            entry.data.c,
            entry.data.c_lo,
            &format!("{} c", entry.name),
        );
    }
}

#[test]
fn spark_constants_are_correctly_rounded() {
    for data in sparkgen_generated::spark::ALL {
        let (kind, args) = data.name.split_once('(').unwrap();
        let nums: Vec<usize> = args
            .trim_end_matches(')')
            .split(", ")
            .map(|x| x.parse().unwrap())
            .collect();
        let exact: Vec<Num> = match kind {
            "LobattoOmega" => lobatto_omega_matrix(nums[0], HIGH)
                .unwrap()
                .into_iter()
                .flatten()
                .collect(),
            "GaussOmega" => gauss_omega_matrix(nums[0], HIGH)
                .unwrap()
                .into_iter()
                .flatten()
                .collect(),
            "LobattoNullVector" => lobatto_null_vector(nums[0], HIGH).unwrap(),
            "LobattoGauss" => lobatto_gauss_coefficients(nums[0], nums[1], HIGH)
                .unwrap()
                .a
                .into_iter()
                .flatten()
                .collect(),
            other => panic!("unknown coefficient kind {other}"),
        };
        assert_eq!(data.rows * data.cols, exact.len(), "{}", data.name);
        assert_rounded(&exact, data.value, data.lo, data.name);
    }
    assert_eq!(sparkgen_generated::spark::ALL.len(), 7 + 8 + 7 + 15);
}
