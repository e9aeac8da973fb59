//! Static pivots of the stage Jacobian: blocks whose value is known before any problem kernel
//! is evaluated, so that Gaussian elimination can take them first and factor with partial
//! pivoting only what remains (the runtime's `ReducedLu`, `StageMethod::ELIMINATION`).
//!
//! A block `∂r_R/∂x_C` is *constant* when the chain rule leaves it a single term `c·hᵏ·I` (no
//! kernel partial, [`crate::jacobian`]): a multiplier that enters linearly (μ of the null-vector
//! relaxation, with coefficients `dᵢ/bᵢ`) or an equation linear in the unknowns (`Σ dᵢVᵢ = 0`).
//! A pivot is taken at a constant block `(R, C)` only when
//! - every remaining block of column `C` is zero or constant, and `(R, C)` has the lowest power
//!   of `h` among them and, at that power, the largest `|c|`: the multipliers
//!   `m_i = a_iC/a_RC` are then bounded by the generator's constants (by 1 at equal powers
//!   and `h ≤ 1`), as partial pivoting bounds them; or
//! - every remaining block of row `R` is zero or constant, with `(R, C)` chosen the same way
//!   along the row: each update `a_ij − m_i a_Rj` then adds at most `|a_iC|·max_j |a_Rj/a_RC|`,
//!   a bounded multiple of an entry of the matrix, and touches only the row's nonzero blocks.
//!
//! The elimination is simulated block by block, so that later pivots see what earlier ones
//! changed: a block updated from constant blocks stays constant (with the value of the update,
//! rounded), one updated through a varying block varies. The simulation only chooses where to
//! pivot; the runtime eliminates with the Jacobian's own entries and checks every pivot.

use crate::jacobian::{Derivative, Jacobian, Var};
use crate::scalar::Scalar;
use crate::structure::Method;

/// What the simulated elimination knows of a block.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    /// Structurally zero.
    Zero,
    /// `value·h^power·I`.
    Constant { power: u32, value: f64 },
    /// Depends on the unknowns (or is a sum of several powers of `h`).
    Varying,
}

impl Entry {
    fn of<C: Scalar>(derivative: Option<&Derivative<C>>) -> Entry {
        let Some(derivative) = derivative else {
            return Entry::Zero;
        };
        match derivative.iter().collect::<Vec<_>>().as_slice() {
            [] => Entry::Zero,
            [(monomial, poly)] if monomial.is_empty() && poly.len() == 1 => poly
                .iter()
                .next()
                .map_or(Entry::Zero, |(&power, c)| Entry::Constant {
                    power,
                    value: c.to_f64(),
                }),
            _ => Entry::Varying,
        }
    }

    /// The order in which pivots are preferred: the lowest power of `h`, then the largest
    /// magnitude (`None` for a block that cannot be a pivot).
    fn rank(self) -> Option<(std::cmp::Reverse<u32>, f64)> {
        match self {
            Entry::Constant { power, value } if value != 0.0 => {
                Some((std::cmp::Reverse(power), value.abs()))
            }
            _ => None,
        }
    }

    /// `a − b·d/p`: the block `a` after the row update with multiplier `b/p` of the pivot row's
    /// block `d`.
    fn updated(a: Entry, b: Entry, d: Entry, p: Entry) -> Entry {
        use Entry::{Constant, Varying, Zero};
        match (b, d, p) {
            (Zero, _, _) | (_, Zero, _) => a,
            (
                Constant {
                    power: pb,
                    value: vb,
                },
                Constant {
                    power: pd,
                    value: vd,
                },
                Constant {
                    power: pp,
                    value: vp,
                },
            ) if pb + pd >= pp => {
                let (power, change) = (pb + pd - pp, vb * vd / vp);
                match a {
                    Zero => Constant {
                        power,
                        value: -change,
                    },
                    Constant { power: pa, value } if pa == power => Constant {
                        power,
                        value: value - change,
                    },
                    _ => Varying,
                }
            }
            _ => Varying,
        }
    }
}

/// The static pivots of `method` (whose derivatives are `jac`): pairs `(R, C)` of a residual
/// vector and an unknown vector, each numbered over its layout's blocks in order from 0, in the
/// order elimination takes them (see the module documentation). Empty for a rank-deficient
/// method, whose Newton takes minimum-norm steps instead of an LU.
pub fn pivots<C: Scalar>(method: &Method<C>, jac: &Jacobian<C>) -> Vec<(usize, usize)> {
    if method.rank_deficient {
        return Vec::new();
    }
    let first = |blocks: &[crate::structure::Block]| -> Vec<usize> {
        blocks
            .iter()
            .scan(0, |n, b| {
                let start = *n;
                *n += b.stages;
                Some(start)
            })
            .collect()
    };
    let row_first = first(&method.rows_layout);
    let rows_total: usize = method.rows_layout.iter().map(|b| b.stages).sum();
    let columns: Vec<(usize, usize)> = method
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(b, block)| (0..block.stages).map(move |s| (b, s)))
        .collect();
    let n = columns.len();
    let mut entries = vec![vec![Entry::Zero; n]; rows_total];
    let mut row_width = vec![None; rows_total];
    for (row, gradient) in method.rows.iter().zip(&jac.rows) {
        let r = row_first[row.block] + row.stage;
        row_width[r] = Some(method.rows_layout[row.block].width);
        for (c, &(b, s)) in columns.iter().enumerate() {
            entries[r][c] = Entry::of(gradient.get(&Var::Unknown(b, s)));
        }
    }
    let column_width: Vec<_> = columns
        .iter()
        .map(|&(b, _)| method.blocks[b].width)
        .collect();
    let (mut rows_left, mut columns_left) = (vec![true; rows_total], vec![true; n]);
    let mut chosen = Vec::new();
    loop {
        let constant = |e: &Entry| !matches!(e, Entry::Varying);
        let best = |candidates: &mut dyn Iterator<Item = (usize, usize)>| {
            let mut best: Option<((std::cmp::Reverse<u32>, f64), usize, usize)> = None;
            for (r, c) in candidates {
                if row_width[r] != Some(column_width[c]) {
                    continue;
                }
                if let Some(rank) = entries[r][c].rank()
                    && best.is_none_or(|(known, _, _)| rank > known)
                {
                    best = Some((rank, r, c));
                }
            }
            best.map(|(_, r, c)| (r, c))
        };
        let in_column = (0..n).filter(|&c| columns_left[c]).find_map(|c| {
            let column = (0..rows_total).filter(|&r| rows_left[r]);
            column
                .clone()
                .all(|r| constant(&entries[r][c]))
                .then(|| best(&mut column.map(|r| (r, c))))?
        });
        let pivot = in_column.or_else(|| {
            (0..rows_total).filter(|&r| rows_left[r]).find_map(|r| {
                let row = (0..n).filter(|&c| columns_left[c]);
                row.clone()
                    .all(|c| constant(&entries[r][c]))
                    .then(|| best(&mut row.map(|c| (r, c))))?
            })
        });
        let Some((pr, pc)) = pivot else {
            break;
        };
        let p = entries[pr][pc];
        for i in (0..rows_total).filter(|&i| rows_left[i] && i != pr) {
            let b = entries[i][pc];
            for j in (0..n).filter(|&j| columns_left[j] && j != pc) {
                entries[i][j] = Entry::updated(entries[i][j], b, entries[pr][j], p);
            }
            entries[i][pc] = Entry::Zero;
        }
        rows_left[pr] = false;
        columns_left[pc] = false;
        chosen.push((pr, pc));
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Coefficient;
    use crate::jacobian::jacobian;
    use crate::text::{Roundings, read};

    /// A degenerate method in the shape of SLRK: μ enters the two constraint rows linearly
    /// (coefficients −2 and 3·h^`power`), the null row `½V₁ − V₂` is linear in the velocities.
    fn method(mu_power: &str) -> Method<Coefficient> {
        let text = format!(
            "method Sample2
family Sample
pair LobattoIIIAIIIB
s 2
order 2
problem DegenerateLagrangian
doc A sample.
facts preserves_constraint=true multiplier=none needs_linear_one_form=false
rank_deficient false
unknown V 2 Velocity Coordinates
unknown Lambda 2 Multiplier Constraints
unknown Mu 1 Correction Constraints
residual Phi 2 Residual Constraints
residual Psi 2 Residual Coordinates
residual Null 1 Residual Coordinates
nodes #0 #1
value q_1 = q_n
value q_2 = q_n + #1 h V[1] + #1 h Lambda[1] + #1 h V[2] + #1 h Lambda[2]
value f_1 = JacT(q_1, V[1])
value g_1 = JacT(q_1, Lambda[1])
value f_2 = JacT(q_2, V[2])
value g_2 = JacT(q_2, Lambda[2])
value p_1 = p_n + #1 h f_1 + #1 h g_1
value p_2 = p_n + #1 h f_1 + #1 h g_1 + #1 h f_2 + #1 h g_2
value theta_1 = Map(q_1)
value theta_2 = Map(q_2)
value phi_1 = p_1 - theta_1 + #2 Mu[1]
value phi_2 = p_2 - theta_2 + #3 {mu_power} Mu[1]
value psi_1 = f_1 - g_2
value psi_2 = f_2 + g_1
value null = #1 V[1] - V[2]
row Phi[1] = phi_1
row Phi[2] = phi_2
row Psi[1] = psi_1
row Psi[2] = psi_2
row Null[1] = null
update q_2 p_2
#0 0
#1 1/2
#2 -2
#3 3
end
"
        );
        let roundings = Roundings::read("0 0.0 0.0\n1/2 0.5 0.0\n-2 -2.0 0.0\n3 3.0 0.0\n")
            .expect("roundings read");
        read(&text, &roundings).expect("the sample reads").remove(0)
    }

    fn plan(m: &Method<Coefficient>) -> Vec<(usize, usize)> {
        let exact = m.map(Coefficient::value);
        pivots(&exact, &jacobian(&exact))
    }

    /// Vectors: unknowns V₁ V₂ Λ₁ Λ₂ μ (0–4), rows Φ₁ Φ₂ Ψ₁ Ψ₂ Null (0–4). μ's column is
    /// constant, its largest entry 3 in Φ₂; the null row is constant, its largest entry −1 at
    /// V₂. Nothing else is constant.
    #[test]
    fn the_largest_constant_of_a_constant_column_then_of_a_constant_row() {
        assert_eq!(plan(&method("")), [(1, 4), (4, 1)]);
    }

    /// With `3h` in Φ₂, the pivot of μ's column is the entry of the lowest power of `h`, −2 in
    /// Φ₁, so that the multipliers do not grow as `h` shrinks.
    #[test]
    fn a_lower_power_of_h_is_preferred_to_a_larger_coefficient() {
        assert_eq!(plan(&method("h")), [(0, 4), (4, 1)]);
    }

    #[test]
    fn a_rank_deficient_method_has_no_static_pivots() {
        let mut m = method("");
        m.rank_deficient = true;
        assert!(plan(&m).is_empty());
    }
}
