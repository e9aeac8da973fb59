//! The VSPARKprimary tableaus of GeometricIntegrators.jl (`TableauVSPARKprimary`,
//! `src/spark/tableaus_vspark_primary.jl`): an internal pair `(q, p)` (Gauss(s), or the Lobatto
//! IIIA–IIIB / IIIB–IIIA pair with its null vector d) coupled to a few projective stages that
//! impose the constraint, and the fixed four-Lobatto `VSPARKLob…` tableaus.
//!
//! The projections are stated through the symplecticity condition of a SPARK tableau,
//! `α^q_ij = β^p_j / b^p_i · (b^p_i − ã^p_ji)` (and the same with q and p exchanged): given the
//! projective stages `ã` and weights `β`, it fixes how the internal stages see the multipliers.
//! `R∞ = (−1)^{s+1}` for the Lobatto pairs (the stability function's value at infinity, as
//! documented; upstream writes `-1^(s+1)`, which is −1 for every s) and `(−1)^s` for Gauss.

use super::tableau::SparkTableau;
use super::{lobatto_gauss_coefficients, lobatto_null_vector};
use crate::exact::{Matrix, Num, Precision};
use crate::tableau::{Family, PairKind, Tableau, TableauError, build};

/// The internal pair of a projected tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// Gauss(s) in both slots; no null vector; `R∞ = (−1)^s`.
    Glrk,
    /// (IIIA(s), IIIB(s)) with the Lobatto null vector; `R∞ = (−1)^{s+1}`.
    LobattoIIIAIIIB,
    /// (IIIB(s), IIIA(s)) with the Lobatto null vector; `R∞ = (−1)^{s+1}`.
    LobattoIIIBIIIA,
}

impl Base {
    /// Every base, in catalogue order.
    pub const ALL: [Base; 3] = [Base::Glrk, Base::LobattoIIIAIIIB, Base::LobattoIIIBIIIA];

    /// The identifier, e.g. `Glrk`.
    pub fn name(self) -> &'static str {
        match self {
            Base::Glrk => "Glrk",
            Base::LobattoIIIAIIIB => "LobattoIIIAIIIB",
            Base::LobattoIIIBIIIA => "LobattoIIIBIIIA",
        }
    }

    /// The catalogue pair of the internal stages.
    pub fn catalogue_pair(self) -> PairKind {
        match self {
            Base::Glrk => PairKind::Gauss,
            Base::LobattoIIIAIIIB => PairKind::LobattoIIIAIIIB,
            Base::LobattoIIIBIIIA => PairKind::LobattoIIIBIIIA,
        }
    }

    /// The smallest number of internal stages.
    pub fn min_stages(self) -> usize {
        if self == Base::Glrk { 1 } else { 2 }
    }

    /// The projections upstream offers over this base.
    pub fn projections(self) -> &'static [Projection] {
        use Projection::*;
        match self {
            Base::Glrk => &[
                Internal,
                ModifiedInternal,
                Midpoint,
                ModifiedMidpoint,
                Symmetric,
                LobattoIIIAIIIB,
                LobattoIIIBIIIA,
                ModifiedLobattoIIIAIIIB,
                ModifiedLobattoIIIBIIIA,
                Symplectic,
            ],
            _ => &[
                Midpoint,
                ModifiedMidpoint,
                Symmetric,
                LobattoIIIAIIIB,
                LobattoIIIBIIIA,
                ModifiedLobattoIIIAIIIB,
                ModifiedLobattoIIIBIIIA,
            ],
        }
    }

    /// `R∞`, the internal pair's stability function at infinity, in `convention`.
    pub fn r_infinity(self, s: usize, convention: Convention) -> Num {
        let odd = match (self, convention) {
            (Base::Glrk, _) => !s.is_multiple_of(2),
            (_, Convention::Documented) => s.is_multiple_of(2),
            (_, Convention::Upstream) => true,
        };
        if odd { Num::int(-1) } else { Num::one() }
    }

    /// The pair `(q, p)` and its declared order.
    fn pair(self, s: usize, prec: Precision) -> Result<(Tableau, Tableau, usize), TableauError> {
        let t = |f| build(f, s, prec);
        Ok(match self {
            Base::Glrk => (t(Family::Gauss)?, t(Family::Gauss)?, 2 * s),
            Base::LobattoIIIAIIIB => (t(Family::LobattoIIIA)?, t(Family::LobattoIIIB)?, 2 * s - 2),
            Base::LobattoIIIBIIIA => (t(Family::LobattoIIIB)?, t(Family::LobattoIIIA)?, 2 * s - 2),
        })
    }
}

/// The value of `R∞` the Lobatto projections use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// `(−1)^{s+1}`, as documented (the default).
    Documented,
    /// Upstream's `-1^(s+1)`, which Julia parses as `−(1^(s+1)) = −1` for every s: kept only to
    /// measure upstream's behaviour side by side (it differs for odd s).
    Upstream,
}

impl Convention {
    /// The family-name suffix: none, or `Upstream`.
    pub fn suffix(self) -> &'static str {
        match self {
            Convention::Documented => "",
            Convention::Upstream => "Upstream",
        }
    }
}

/// How the projective stages impose the constraint (`TableauVSPARKprimary`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Projection {
    /// r = s projective stages at the internal nodes (`ã = a`), all carrying one multiplier
    /// (`Λ̃_i = Λ̃_s`), the constraint at `t_{n+1}`; `α = α̃` rows `b/2`, `β = b(1 + R∞)/2`.
    Internal,
    /// As [`Projection::Internal`] with `ã` from the symplecticity condition (rows `b/2`).
    ModifiedInternal,
    /// One projective stage at the midpoint, the constraint at `t_{n+1}`; `β = (1 + R∞)/2`.
    Midpoint,
    /// The midpoint projection with `α` from the symplecticity condition (the same values).
    ModifiedMidpoint,
    /// Stages at `t_n` and `t_{n+1}`: `φ(q_n, p_n) + φ(q_{n+1}, p_{n+1}) = 0`, `Λ̃_1 = R∞ Λ̃_2`.
    Symmetric,
    /// Stages at `t_n`, `t_{n+1}` coupled by (IIIA(2), IIIB(2)); the constraint at `t_{n+1}`.
    LobattoIIIAIIIB,
    /// As [`Projection::LobattoIIIAIIIB`] with IIIA and IIIB exchanged.
    LobattoIIIBIIIA,
    /// As [`Projection::LobattoIIIAIIIB`] with `ã = [0; b^{Gauss(s)}]`
    /// (`lobatto_gauss_coefficients(s, 2)`).
    ModifiedLobattoIIIAIIIB,
    /// As [`Projection::ModifiedLobattoIIIAIIIB`] with IIIA and IIIB exchanged.
    ModifiedLobattoIIIBIIIA,
    /// Stages at `t_n`, `t_{n+1}`: `(φ_n + φ̃_{n+1})/2 = 0` and `φ(q_{n+1}, p_{n+1}) = 0`,
    /// `β = (½, R∞/2)`; Gauss only.
    Symplectic,
}

impl Projection {
    /// The identifier, e.g. `pMidpoint`.
    pub fn name(self) -> &'static str {
        match self {
            Projection::Internal => "pInternal",
            Projection::ModifiedInternal => "pModifiedInternal",
            Projection::Midpoint => "pMidpoint",
            Projection::ModifiedMidpoint => "pModifiedMidpoint",
            Projection::Symmetric => "pSymmetric",
            Projection::LobattoIIIAIIIB => "pLobattoIIIAIIIB",
            Projection::LobattoIIIBIIIA => "pLobattoIIIBIIIA",
            Projection::ModifiedLobattoIIIAIIIB => "pModifiedLobattoIIIAIIIB",
            Projection::ModifiedLobattoIIIBIIIA => "pModifiedLobattoIIIBIIIA",
            Projection::Symplectic => "pSymplectic",
        }
    }
}

/// `α^q_ij = β^p_j / b^p_i · (b^p_i − ã^p_ji)` (s×r): the internal stages' multiplier
/// coefficients that make the tableau symplectic, given the other side's `ã`, `β` and `b`.
fn conjugate_alpha(b: &[Num], a_tilde: &Matrix, beta: &[Num]) -> Result<Matrix, TableauError> {
    b.iter()
        .enumerate()
        .map(|(i, bi)| {
            beta.iter()
                .zip(a_tilde)
                .map(|(bj, row)| {
                    bj.mul(&bi.sub(&row[i]))
                        .div(bi)
                        .ok_or(TableauError::ZeroWeight { index: i })
                })
                .collect()
        })
        .collect()
}

/// `n` rows equal to `row`.
fn rows(n: usize, row: &[Num]) -> Matrix {
    vec![row.to_vec(); n]
}

/// `[0ᵀ; bᵀ]`, 2×s: projective stages at `t_n` and `t_{n+1}`.
fn ends(b: &[Num]) -> Matrix {
    vec![vec![Num::zero(); b.len()], b.to_vec()]
}

fn halves(v: &[Num]) -> Vec<Num> {
    v.iter().map(Num::half).collect()
}

/// The VSPARKprimary tableau of `projection` over `base` with `s` internal stages.
pub fn projected(
    base: Base,
    projection: Projection,
    s: usize,
    convention: Convention,
    prec: Precision,
) -> Result<SparkTableau, TableauError> {
    let (q, p, order) = base.pair(s, prec)?;
    let r_inf = base.r_infinity(s, convention);
    let half = Num::ratio(1, 2);
    let (zero, one) = (Num::zero(), Num::one());
    let one_plus_r = one.add(&r_inf).half();
    let null = match base {
        Base::Glrk => None,
        _ => Some(lobatto_null_vector(s, prec)?),
    };
    let name = format!("{}{}{s}", base.name(), projection.name());
    let two = |f| build(f, 2, prec);
    let mut t = SparkTableau {
        name,
        order,
        s,
        r: 2,
        a: [q.a.clone(), p.a.clone()],
        alpha: [Vec::new(), Vec::new()],
        a_tilde: [ends(&q.b), ends(&p.b)],
        alpha_tilde: [Vec::new(), Vec::new()],
        b: [q.b.clone(), p.b.clone()],
        beta: [
            vec![half.clone(), half.clone()],
            vec![half.clone(), half.clone()],
        ],
        c: [q.c.clone(), p.c.clone()],
        c_lambda: vec![zero.clone(), one.clone()],
        d_lambda: vec![half.clone(), half.clone()],
        omega: vec![vec![zero.clone(), zero.clone(), one.clone()]],
        delta: vec![vec![Num::int(-1), r_inf.clone()]],
        null,
    };
    match projection {
        Projection::Internal | Projection::ModifiedInternal => {
            t.r = s;
            t.alpha = [rows(s, &halves(&q.b)), rows(s, &halves(&p.b))];
            t.a_tilde = if projection == Projection::Internal {
                [q.a.clone(), p.a.clone()]
            } else {
                [
                    conjugate_alpha(&p.b, &t.alpha[0], &q.b)?,
                    conjugate_alpha(&q.b, &t.alpha[1], &p.b)?,
                ]
            };
            t.alpha_tilde = t.alpha.clone();
            t.beta = [
                q.b.iter().map(|b| b.mul(&one_plus_r)).collect(),
                p.b.iter().map(|b| b.mul(&one_plus_r)).collect(),
            ];
            t.c_lambda = q.c.clone();
            t.d_lambda = q.b.clone();
            t.omega = vec![
                (0..=s)
                    .map(|j| if j == s { one.clone() } else { zero.clone() })
                    .collect(),
            ];
            t.delta = (0..s - 1)
                .map(|i| {
                    (0..s)
                        .map(|j| match j {
                            _ if j == i => one.clone(),
                            _ if j == s - 1 => Num::int(-1),
                            _ => zero.clone(),
                        })
                        .collect()
                })
                .collect();
        }
        Projection::Midpoint | Projection::ModifiedMidpoint => {
            t.r = 1;
            let column = rows(s, std::slice::from_ref(&half));
            t.alpha = if projection == Projection::Midpoint {
                [column.clone(), column.clone()]
            } else {
                // α_i = (b_i − b_i/2)/b_i with the other side's weights.
                let alpha = |b: &[Num]| -> Result<Matrix, TableauError> {
                    conjugate_alpha(b, &vec![halves(b)], std::slice::from_ref(&one))
                };
                [alpha(&p.b)?, alpha(&q.b)?]
            };
            // ã_1i = b_i/β₁ · (β₁ − α_i1) with β₁ = 1 and α_i1 = ½.
            t.a_tilde = [vec![halves(&q.b)], vec![halves(&p.b)]];
            t.alpha_tilde = [vec![vec![half.clone()]], vec![vec![half.clone()]]];
            t.beta = [vec![one_plus_r.clone()], vec![one_plus_r.clone()]];
            t.c_lambda = vec![half.clone()];
            t.d_lambda = vec![one.clone()];
            t.omega = vec![vec![zero.clone(), one.clone()]];
            t.delta = Vec::new();
        }
        Projection::Symmetric => {
            t.alpha = [
                rows(s, &[half.clone(), zero.clone()]),
                rows(s, &[half.clone(), zero.clone()]),
            ];
            let lower = vec![
                vec![zero.clone(), zero.clone()],
                vec![half.clone(), half.clone()],
            ];
            t.alpha_tilde = [lower.clone(), lower];
            t.d_lambda = vec![half.clone(), r_inf.half()];
            t.omega = vec![vec![one.clone(), one.clone(), zero.clone()]];
        }
        Projection::LobattoIIIAIIIB
        | Projection::LobattoIIIBIIIA
        | Projection::ModifiedLobattoIIIAIIIB
        | Projection::ModifiedLobattoIIIBIIIA => {
            let ab = matches!(
                projection,
                Projection::LobattoIIIAIIIB | Projection::ModifiedLobattoIIIAIIIB
            );
            let (fq, fp) = if ab {
                (Family::LobattoIIIA, Family::LobattoIIIB)
            } else {
                (Family::LobattoIIIB, Family::LobattoIIIA)
            };
            if matches!(
                projection,
                Projection::ModifiedLobattoIIIAIIIB | Projection::ModifiedLobattoIIIBIIIA
            ) {
                let coupling = lobatto_gauss_coefficients(s, 2, prec)?.a;
                t.a_tilde = [coupling.clone(), coupling];
            }
            t.alpha = [
                conjugate_alpha(&p.b, &t.a_tilde[1], &t.beta[1])?,
                conjugate_alpha(&q.b, &t.a_tilde[0], &t.beta[0])?,
            ];
            t.alpha_tilde = [two(fq)?.a, two(fp)?.a];
        }
        Projection::Symplectic => {
            t.alpha = [
                rows(s, &[half.clone(), zero.clone()]),
                rows(s, &[half.clone(), zero.clone()]),
            ];
            t.alpha_tilde = [two(Family::LobattoIIIA)?.a, two(Family::LobattoIIIB)?.a];
            let beta = vec![half.clone(), r_inf.half()];
            t.beta = [beta.clone(), beta];
            t.omega = vec![
                vec![half.clone(), half.clone(), zero.clone()],
                vec![zero.clone(), zero, one],
            ];
            t.delta = Vec::new();
        }
    }
    Ok(t)
}

/// The HSPARKprimary tableau (`TableauHSPARKSymmetricProjection`, GeometricIntegrators.jl): the
/// symmetric projection of `base` with `R∞ = 1` for every base and s, `φ(q_n, p_n) +
/// φ(q_{n+1}, p_{n+1}) = 0`, `Λ̃_1 = Λ̃_2` (`δ = [−1 1]`) and `d^λ = (½, ½)`. Over the Lobatto
/// bases the pair is upstream's (IIIA, IIIĀ) and (IIIB, IIIB̄): the symplectic conjugate of IIIA
/// is IIIB exactly, and that of IIIB is IIIA.
pub fn hspark_symmetric(
    base: Base,
    s: usize,
    prec: Precision,
) -> Result<SparkTableau, TableauError> {
    let mut t = projected(base, Projection::Symmetric, s, Convention::Documented, prec)?;
    let half = Num::ratio(1, 2);
    t.delta = vec![vec![Num::int(-1), Num::one()]];
    t.d_lambda = vec![half.clone(), half];
    Ok(t)
}

/// The VPARK tableau (`TableauSymplecticProjection`, GeometricIntegrators.jl's
/// `src/spark/tableaus_vpark.jl`) over `base`: r = 2 projective stages at `t_n` and `t_{n+1}`,
/// `α = [½ 0]`, `ã = [0; bᵀ]`, `α̃ = [0 0; ½ R∞/2]`, `β = (½, R∞/2)`, `c^λ = (0, 1)`,
/// `d^λ = (0, 1)`. VPARK imposes φ at each projective stage (ω is not used; it is set to
/// `[I₂ 0]`) and carries `λ_{n+1} = Λ̃_2`.
pub fn vpark_symplectic(
    base: Base,
    s: usize,
    convention: Convention,
    prec: Precision,
) -> Result<SparkTableau, TableauError> {
    let mut t = projected(base, Projection::Symplectic, s, convention, prec)?;
    let (zero, one, half) = (Num::zero(), Num::one(), Num::ratio(1, 2));
    let lower = vec![
        vec![zero.clone(), zero.clone()],
        vec![half, base.r_infinity(s, convention).half()],
    ];
    t.alpha_tilde = [lower.clone(), lower];
    t.d_lambda = vec![zero.clone(), one.clone()];
    t.omega = vec![
        vec![one.clone(), zero.clone(), zero.clone()],
        vec![zero.clone(), one, zero],
    ];
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `max_ij |b_i x_ij + β_j y_ji − b_i β_j|`: the symplecticity defect of the blocks `x`
    /// (|b|×|β|) and `y` (|β|×|b|).
    fn defect(b: &[Num], x: &Matrix, beta: &[Num], y: &Matrix) -> f64 {
        let mut worst: f64 = 0.0;
        for (i, bi) in b.iter().enumerate() {
            for (j, bj) in beta.iter().enumerate() {
                let d = bi.mul(&x[i][j]).add(&bj.mul(&y[j][i])).sub(&bi.mul(bj));
                worst = worst.max(d.to_f64().abs());
            }
        }
        worst
    }

    /// Which symplecticity conditions of RungeKutta.jl's `check_symplecticity` for `TableauSPARK`
    /// and `TableauVSPARKprimary` each projection satisfies: the internal pair always; the
    /// internal–projective coupling in both directions and the projective block as stated below.
    #[test]
    fn projections_satisfy_the_coupling_conditions() {
        let prec = Precision::DEFAULT;
        for base in Base::ALL {
            for &projection in base.projections() {
                for s in base.min_stages()..=4 {
                    let t = projected(base, projection, s, Convention::Documented, prec)
                        .expect("tableau");
                    let [bq, bp] = &t.b;
                    let [betaq, betap] = &t.beta;
                    let coupling = defect(bq, &t.alpha[1], betap, &t.a_tilde[0]).max(defect(
                        bp,
                        &t.alpha[0],
                        betaq,
                        &t.a_tilde[1],
                    ));
                    let projective = defect(betap, &t.alpha_tilde[0], betaq, &t.alpha_tilde[1]);
                    let internal = defect(bp, &t.a[0], bq, &t.a[1]);
                    assert!(internal < 1e-60, "{}: pair {internal:e}", t.name);
                    // Measured and explained: the internal projection couples through ã = a,
                    // which is not the conjugate of α = b/2; the projections whose update weight
                    // is β = b(1 + R∞)/2 satisfy the coupling only when R∞ = 1 (β = b); the
                    // symmetric projection's α̃ = [0 0; ½ ½] is never conjugate to itself, and
                    // the symplectic one's β = (½, R∞/2) is conjugate only when R∞ = 1.
                    let r_plus = base.r_infinity(s, Convention::Documented) == Num::one();
                    let (want_coupling, want_projective) = match projection {
                        Projection::Internal => (false, true),
                        Projection::ModifiedInternal
                        | Projection::Midpoint
                        | Projection::ModifiedMidpoint => (r_plus, true),
                        Projection::Symmetric => (true, false),
                        Projection::Symplectic => (true, r_plus),
                        _ => (true, true),
                    };
                    assert_eq!(
                        (coupling < 1e-60, projective < 1e-60),
                        (want_coupling, want_projective),
                        "{}: coupling defect {coupling:e}, projective {projective:e}",
                        t.name
                    );
                    assert_eq!(t.alpha[0].len(), s, "{}", t.name);
                    assert!(t.a_tilde[0].len() == t.r && t.omega.len() + t.rho() == t.r);
                }
            }
        }
    }
}
