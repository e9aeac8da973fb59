//! Conjugacy of the six SLRK pairs, s = 2..6: b̄_i a_ij + b_j ā_ji = b̄_i b_j to below 1e−60
//! in working precision and to ≤ 4ε for the correctly rounded `f64` constants.

use rug::Float;
use sparkgen_codegen::check::symplecticity_residual_partitioned;
use sparkgen_codegen::exact::{Num, Precision};
use sparkgen_codegen::tableau::{PairKind, PartitionedTableau, symplectic_conjugate};

const P: Precision = Precision::DEFAULT;

fn floats(v: &[Num], f64_rounded: bool) -> Vec<Float> {
    v.iter()
        .map(|x| {
            if f64_rounded {
                Float::with_val(256, x.to_f64())
            } else {
                x.to_float(P)
            }
        })
        .collect()
}

#[test]
fn slrk_pairs_are_conjugate() {
    let mut worst = 0.0f64;
    for kind in PairKind::SLRK {
        for s in 2..=6 {
            let pair = PartitionedTableau::build(kind, s, P).unwrap();
            for rounded in [false, true] {
                let a: Vec<Vec<Float>> = pair.q.a.iter().map(|r| floats(r, rounded)).collect();
                let abar: Vec<Vec<Float>> = pair.p.a.iter().map(|r| floats(r, rounded)).collect();
                let (b, bbar) = (floats(&pair.q.b, rounded), floats(&pair.p.b, rounded));
                let r = symplecticity_residual_partitioned(&a, &b, &abar, &bbar)
                    .unwrap()
                    .max();
                if rounded {
                    worst = worst.max(r.to_f64());
                    assert!(r <= 4.0 * f64::EPSILON, "{} f64: {r}", pair.name());
                } else {
                    assert!(r < 1e-60, "{} working precision: {r}", pair.name());
                }
            }
            // The p-tableau is the symplectic conjugate of the q-tableau, exactly where rational.
            let conj = symplectic_conjugate(&pair.q.a, &pair.q.b).unwrap();
            for (ri, rj) in conj.iter().zip(&pair.p.a) {
                for (x, y) in ri.iter().zip(rj) {
                    if x.is_rational() && y.is_rational() {
                        assert_eq!(x, y, "{}", pair.name());
                    } else {
                        assert!(x.sub(y).abs().to_float(P) < 1e-60, "{}", pair.name());
                    }
                }
            }
        }
    }
    println!(
        "worst f64 conjugacy residual over the six SLRK pairs, s = 2..6: {:.2} ε",
        worst / f64::EPSILON
    );
}
