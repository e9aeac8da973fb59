//! Quadrature nodes and weights of the Gauss, Lobatto and Radau families.

use crate::exact::poly::{Poly, shifted_legendre};
use crate::exact::{Matrix, Num, Precision, real_roots, solve};
use rug::Rational;

use super::TableauError;

/// The quadrature underlying a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeSet {
    /// Gauss–Legendre: roots of `P_s(2x − 1)`, s ≥ 1.
    Gauss,
    /// Gauss–Lobatto: roots of `x (x − 1) P'_{s−1}(2x − 1)`, s ≥ 2.
    Lobatto,
    /// Radau I (left): roots of `P_s(2x − 1) + P_{s−1}(2x − 1)` (c₁ = 0), s ≥ 2.
    RadauI,
    /// Radau II (right): roots of `P_s(2x − 1) − P_{s−1}(2x − 1)` (c_s = 1), s ≥ 2.
    RadauII,
}

impl NodeSet {
    /// The smallest number of stages.
    pub fn min_stages(self) -> usize {
        match self {
            NodeSet::Gauss => 1,
            NodeSet::Lobatto | NodeSet::RadauI | NodeSet::RadauII => 2,
        }
    }

    /// The name of the quadrature.
    pub fn name(self) -> &'static str {
        match self {
            NodeSet::Gauss => "Gauss quadrature",
            NodeSet::Lobatto => "Lobatto quadrature",
            NodeSet::RadauI => "Radau I quadrature",
            NodeSet::RadauII => "Radau II quadrature",
        }
    }

    /// The node polynomial of degree s.
    pub fn polynomial(self, s: usize) -> Poly {
        match self {
            NodeSet::Gauss => shifted_legendre(s),
            NodeSet::Lobatto => {
                let ends = Poly::new(vec![Rational::new(), Rational::from(-1), Rational::from(1)]);
                ends.mul(&shifted_legendre(s - 1).derivative())
            }
            NodeSet::RadauI => shifted_legendre(s).add(&shifted_legendre(s - 1)),
            NodeSet::RadauII => shifted_legendre(s).sub(&shifted_legendre(s - 1)),
        }
    }
}

/// Nodes `c` (ascending) and interpolatory weights `b` (`Σ_i b_i c_i^{k−1} = 1/k`,
/// k = 1..s, i.e. `B(s)`) of `s`-stage quadrature.
pub fn nodes_and_weights(
    set: NodeSet,
    s: usize,
    prec: Precision,
) -> Result<(Vec<Num>, Vec<Num>), TableauError> {
    if s < set.min_stages() {
        return Err(TableauError::Stages {
            family: set.name(),
            s,
            min: set.min_stages(),
        });
    }
    let c = real_roots(&set.polynomial(s), prec)?;
    let b = solve(&vandermonde_t(&c), &moments(s), prec)?
        .into_iter()
        .map(|mut row| row.swap_remove(0))
        .collect();
    Ok((c, b))
}

/// `M[k][j] = c_j^k` (k = 0..s−1): the transposed Vandermonde matrix of the nodes.
pub(crate) fn vandermonde_t(c: &[Num]) -> Matrix {
    (0..c.len())
        .map(|k| c.iter().map(|cj| cj.powu(k as u32)).collect())
        .collect()
}

/// The right-hand side `1/k`, k = 1..s, as a column.
fn moments(s: usize) -> Matrix {
    (1..=s).map(|k| vec![Num::ratio(1, k as i64)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lobatto_five_nodes_and_weights() {
        // c = 0, 1/2 ∓ √21/14, 1/2, 1; b = 1/20, 49/180, 16/45, 49/180, 1/20.
        let (c, b) = nodes_and_weights(NodeSet::Lobatto, 5, Precision::DEFAULT).unwrap();
        assert_eq!(c[0], Num::zero());
        assert_eq!(c[2], Num::ratio(1, 2));
        assert_eq!(c[4], Num::one());
        assert!(c[0].is_rational() && c[2].is_rational() && !c[1].is_rational());
        let expect = [(1, 20), (49, 180), (16, 45), (49, 180), (1, 20)];
        for (bi, (n, d)) in b.iter().zip(expect) {
            let err = bi.sub(&Num::ratio(n, d)).abs().to_float(Precision::DEFAULT);
            assert!(err < 1e-70, "{err}");
        }
    }

    #[test]
    fn radau_nodes_agree_with_rodrigues_recipe() {
        // Reference recipe (RungeKutta.jl's node recipes; Hairer & Wanner, Solving Ordinary
        // Differential Equations II, §IV.5): Radau IA nodes are the roots of d^{s−1}/dx^{s−1}[x^s
        // (x − 1)^{s−1}], Radau IIA of d^{s−1}/dx^{s−1}[x^{s−1} (x − 1)^s].
        let x = Poly::x();
        let xm1 = Poly::new(vec![Rational::from(-1), Rational::from(1)]);
        for s in 2..=6usize {
            let ia = x
                .pow(s as u32)
                .mul(&xm1.pow(s as u32 - 1))
                .derivative_n(s - 1);
            let iia = x
                .pow(s as u32 - 1)
                .mul(&xm1.pow(s as u32))
                .derivative_n(s - 1);
            for (set, rod) in [(NodeSet::RadauI, ia), (NodeSet::RadauII, iia)] {
                let ours = real_roots(&set.polynomial(s), Precision::DEFAULT).unwrap();
                let theirs = real_roots(&rod, Precision::DEFAULT).unwrap();
                for (u, v) in ours.iter().zip(&theirs) {
                    let err = u.sub(v).abs().to_float(Precision::DEFAULT);
                    assert!(err < 1e-70, "{set:?} s = {s}: {err}");
                }
            }
        }
    }

    #[test]
    fn lobatto_nodes_agree_with_reference_recipe() {
        // Roots of d^{s−2}/dx^{s−2} [(x − x²)^{s−1}] (RungeKutta.jl's node recipes; Hairer &
        // Wanner, Solving Ordinary Differential Equations II, §IV.5).
        let xx = Poly::new(vec![Rational::new(), Rational::from(1), Rational::from(-1)]);
        for s in 3..=7usize {
            let rod = xx.pow(s as u32 - 1).derivative_n(s - 2);
            let ours = real_roots(&NodeSet::Lobatto.polynomial(s), Precision::DEFAULT).unwrap();
            let theirs = real_roots(&rod, Precision::DEFAULT).unwrap();
            assert_eq!(ours.len(), s);
            for (u, v) in ours.iter().zip(&theirs) {
                assert!(u.sub(v).abs().to_float(Precision::DEFAULT) < 1e-70);
            }
        }
    }
}
