//! SPARK, VSPARK and VPARK over a [`SparkTableau`] (GeometricIntegrators.jl's SPARK family):
//! the generator fills the named slots of the declarative builder
//! ([`sparkgen_description::spark`], where the stage equations of each structure are stated)
//! from the tableau's exact coefficients, computes what needs arithmetic (the μ weights
//! `dᵢ/b^p_i`, whether the stage Jacobian is rank-deficient, whether the rows impose the
//! constraint at the step's end) and builds the method.

use super::facts::{Facts, StageAt, forces_end};
use super::ir::{Method, ProblemKind};
use crate::exact::{Num, Precision};
use crate::spark::jay::hpark_tableau;
use crate::spark::primary_lobatto::PrimaryLobatto;
use crate::spark::projection::{
    Base, Convention, Projection, hspark_symmetric, projected, vpark_symplectic,
};
use crate::spark::{SparkKind, SparkTableau, identity_omega};
use crate::tableau::{Family, PairKind, TableauError, build};
use sparkgen_description::spark::{BuildError, Declaration, Header, NullVector, Slots};

pub use sparkgen_description::spark::{NullMultiplier, Structure};
/// The helpers of the stage rows, shared with HSPARKsecondary.
pub(super) use sparkgen_description::spark::{increment_rows, weighted};

/// The method of `structure` over `tableau` for problems of `kind` (the view of a degenerate
/// Lagrangian, or an implicit DAE); `family` names it (e.g. `SparkGlrk`), `pair` is the pair of
/// its internal stages.
pub fn spark_method(
    structure: Structure,
    kind: ProblemKind,
    family: &str,
    tableau: &SparkTableau,
    pair: PairKind,
    doc: String,
    prec: Precision,
) -> Result<Method, TableauError> {
    let null = match &tableau.null {
        Some(d) if structure.takes_null_vector(kind) => Some(NullVector {
            d: d.clone(),
            weights: mu_weights(d, &tableau.b[1])?,
        }),
        _ => None,
    };
    // Upstream's documented μ relaxes the ω rows.
    let relaxation = match (structure, &null) {
        (Structure::Spark(NullMultiplier::OmegaRow), Some(n)) => Some(&n.weights[..]),
        _ => None,
    };
    // VSPARK over a tableau whose internal and projective q-slots coincide (a^q = α^q,
    // ã^q = α̃^q) sees V and U only through V + U in every position: a gauge freedom (exact for
    // u = λ; on an implicit DAE wherever u is affine in λ along the solution).
    let rank_deficient = structure.internal_velocities(kind)
        && tableau.a[0] == tableau.alpha[0]
        && tableau.a_tilde[0] == tableau.alpha_tilde[0];
    let header = Header {
        family: family.to_owned(),
        name: format!("{family}{}", tableau.s),
        doc,
        problem: kind,
        pair: pair.name().to_owned(),
        s: tableau.s,
        order: tableau.order,
        rank_deficient,
        facts: Facts {
            multiplier: structure.carried_multiplier(kind),
            ..Facts::new(imposes_end(structure, tableau, relaxation, prec))
        },
    };
    let slots = Slots {
        a: tableau.a.clone(),
        alpha: tableau.alpha.clone(),
        a_tilde: tableau.a_tilde.clone(),
        alpha_tilde: tableau.alpha_tilde.clone(),
        b: tableau.b.clone(),
        beta: tableau.beta.clone(),
        c: tableau.c[0].clone(),
        c_lambda: tableau.c_lambda.clone(),
        d_lambda: tableau.d_lambda.clone(),
        omega: tableau.omega.clone(),
        delta: tableau.delta.clone(),
        null,
    };
    sparkgen_description::spark::build(header, Declaration { structure, slots }).map_err(|e| {
        match e {
            BuildError::Inapplicable { reason, .. } => TableauError::Inapplicable {
                method: family.to_owned(),
                reason,
            },
            BuildError::NoNullVector { .. } => TableauError::NoNullVector {
                tableau: tableau.name.clone(),
            },
            // The tableau's slots do not fit its s and r, or a null vector was filled where
            // the structure takes none.
            _ => TableauError::Inapplicable {
                method: family.to_owned(),
                reason: "the tableau's slots do not fit the structure",
            },
        }
    })
}

/// Whether the stage equations of `structure` over `tableau` impose `φ(q_{n+1}, p_{n+1}) = 0`
/// ([`forces_end`]): through the ω rows (SPARK, VSPARK; upstream's documented μ relaxes them),
/// or, in VPARK's structure, through φ at every projective stage, one of which must be the
/// update itself (HPARK's stages never are).
fn imposes_end(
    structure: Structure,
    tableau: &SparkTableau,
    relaxation: Option<&[Num]>,
    prec: Precision,
) -> bool {
    let r = tableau.r;
    let zero = |row: &[Num]| row.iter().all(Num::is_zero);
    let stages: Vec<StageAt> = (0..r)
        .map(|j| {
            let (a, alpha) = (&tableau.a_tilde, &tableau.alpha_tilde);
            if (0..2).all(|k| zero(&a[k][j]) && zero(&alpha[k][j])) {
                StageAt::Start
            } else if (0..2).all(|k| a[k][j] == tableau.b[k] && alpha[k][j] == tableau.beta[k]) {
                StageAt::End
            } else {
                StageAt::Inner
            }
        })
        .collect();
    let omega = match structure {
        Structure::Vpark => identity_omega(r),
        Structure::Spark(_) | Structure::Vspark => tableau.omega.clone(),
    };
    forces_end(&omega, &stages, relaxation, prec)
}

/// The weights `dᵢ/b^p_i` with which upstream enters μ.
fn mu_weights(d: &[Num], b: &[Num]) -> Result<Vec<Num>, TableauError> {
    d.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (d, b))| d.div(b).ok_or(TableauError::ZeroWeight { index: i }))
        .collect()
}

/// The pair of a SPARK tableau's internal stages (Gauss for the Gauss-based kinds, the
/// `(a^q, a^p)` Lobatto pair otherwise).
fn internal_pair(kind: SparkKind) -> PairKind {
    match kind {
        SparkKind::Glrk
        | SparkKind::Glvprk
        | SparkKind::GlrkLobattoIIIAIIIB
        | SparkKind::GlrkLobattoIIIBIIIA => PairKind::Gauss,
        SparkKind::LobattoIIIAIIIB => PairKind::LobattoIIIAIIIB,
        SparkKind::LobattoIIIBIIIA | SparkKind::LobABC | SparkKind::LobABD => {
            PairKind::LobattoIIIBIIIA
        }
    }
}

/// The family-name prefix of methods for problems of `kind`: none on degenerate Lagrangians,
/// `Idae` on implicit DAEs.
fn prefix(kind: ProblemKind) -> &'static str {
    if kind == ProblemKind::ImplicitDae {
        "Idae"
    } else {
        ""
    }
}

/// SPARK over the tableau `tableau_kind` with `s` internal stages for problems of `kind`, μ
/// where `mu` puts it (e.g. `SparkGlrk2`, `IdaeSparkGlrk2`,
/// `SparkLobattoIIIAIIIBUpstreamMu3`).
pub fn spark(
    tableau_kind: SparkKind,
    kind: ProblemKind,
    s: usize,
    mu: NullMultiplier,
    prec: Precision,
) -> Result<Method, TableauError> {
    let tableau = tableau_kind.build(s, prec)?;
    let carrier = if kind == ProblemKind::ImplicitDae {
        "u(Q̃, P̃, Λ̃) carries the velocity"
    } else {
        "the multipliers Λ̃ carry the velocity"
    };
    let compatibility = match mu {
        NullMultiplier::Absent => "",
        NullMultiplier::UpstreamCode => {
            " Compatibility only: upstream's μ along d, added to the position of the next (stage, component)."
        }
        NullMultiplier::OmegaRow => {
            " Compatibility only: upstream's documented μ along d on the ω rows."
        }
    };
    let doc = format!(
        "SPARK over {} (s = {s} internal, r = {} projective stages): declared order {}; {carrier}.{compatibility}",
        tableau.name, tableau.r, tableau.order
    );
    spark_method(
        Structure::Spark(mu),
        kind,
        &format!(
            "{}Spark{}{}",
            prefix(kind),
            tableau_kind.name(),
            mu.suffix()
        ),
        &tableau,
        internal_pair(tableau_kind),
        doc,
        prec,
    )
}

/// HSPARK over the SPARK tableau `tableau_kind` with `s` internal stages, on Hamiltonian DAEs
/// (e.g. `HsparkLobattoIIIAIIIB3`): SPARK's structure with `V_i = v(Q_i, P_i)`,
/// `F_i = f(Q_i, P_i)` at the internal stages, and no μ (upstream reserves μ unknowns that no
/// equation uses, a singular stage Jacobian).
pub fn hspark(tableau_kind: SparkKind, s: usize, prec: Precision) -> Result<Method, TableauError> {
    let tableau = tableau_kind.build(s, prec)?;
    let doc = format!(
        "HSPARK over {} (s = {s} internal, r = {} projective stages): declared order {}; v(Q, P) and f(Q, P) at the internal stages.",
        tableau.name, tableau.r, tableau.order
    );
    spark_method(
        Structure::Spark(NullMultiplier::Absent),
        ProblemKind::HamiltonianDae,
        &format!("Hspark{}", tableau_kind.name()),
        &tableau,
        internal_pair(tableau_kind),
        doc,
        prec,
    )
}

/// HSPARKprimary: HSPARK over the symmetric projection of `base` with `R∞ = 1`
/// ([`hspark_symmetric`]) and `s` internal stages, on Hamiltonian DAEs (e.g.
/// `HsparkPrimaryGlrkpSymmetric2`).
pub fn hspark_primary(base: Base, s: usize, prec: Precision) -> Result<Method, TableauError> {
    let tableau = hspark_symmetric(base, s, prec)?;
    let doc = format!(
        "HSPARKprimary over {} (s = {s} internal, r = 2 projective stages at t_n and t_{{n+1}}, R∞ = 1): declared order {}; φ(q_n, p_n) + φ(q_{{n+1}}, p_{{n+1}}) = 0.",
        tableau.name, tableau.order
    );
    spark_method(
        Structure::Spark(NullMultiplier::Absent),
        ProblemKind::HamiltonianDae,
        &format!(
            "HsparkPrimary{}{}",
            base.name(),
            Projection::Symmetric.name()
        ),
        &tableau,
        base.catalogue_pair(),
        doc,
        prec,
    )
}

/// HPARK over the pair of `base` with `s` stages, on Hamiltonian DAEs (e.g. `HparkGlrk2`):
/// r = s projective stages equal to the internal ones ([`hpark_tableau`]), the constraint at
/// every projective stage and `Λ̃_1 = λ_n` where `c^λ_1 = 0`, `λ_{n+1} = Σ b_j Λ̃_j`.
pub fn hpark(base: Base, s: usize, prec: Precision) -> Result<Method, TableauError> {
    let tableau = hpark_tableau(base, s, prec)?;
    let doc = format!(
        "HPARK over {}({s}) (s = r = {s} stages): declared order {}; φ at every projective stage, λ_{{n+1}} = Σ b_j Λ̃_j.",
        base.catalogue_pair().name(),
        tableau.order
    );
    spark_method(
        Structure::Vpark,
        ProblemKind::HamiltonianDae,
        &format!("Hpark{}", base.name()),
        &tableau,
        base.catalogue_pair(),
        doc,
        prec,
    )
}

/// VSPARK over the SPARK tableau `tableau_kind` with `s` internal stages for problems of `kind`
/// (e.g. `VsparkLobABC3`).
pub fn vspark(
    tableau_kind: SparkKind,
    kind: ProblemKind,
    s: usize,
    prec: Precision,
) -> Result<Method, TableauError> {
    let tableau = tableau_kind.build(s, prec)?;
    let doc = format!(
        "VSPARK over {} (s = {s} internal, r = {} projective stages): declared order {}; the primary constraint at every internal stage.",
        tableau.name, tableau.r, tableau.order
    );
    spark_method(
        Structure::Vspark,
        kind,
        &format!("{}Vspark{}", prefix(kind), tableau_kind.name()),
        &tableau,
        internal_pair(tableau_kind),
        doc,
        prec,
    )
}

/// VSPARKprimary: VSPARK over the projection tableau `projection` of `base` with `s` internal
/// stages (e.g. `VsparkPrimaryGlrkpSymmetric2`).
pub fn vspark_primary(
    base: Base,
    projection: Projection,
    s: usize,
    convention: Convention,
    prec: Precision,
) -> Result<Method, TableauError> {
    let tableau = projected(base, projection, s, convention, prec)?;
    let doc = format!(
        "VSPARKprimary over {} (s = {s} internal, r = {} projective stages, R∞ = {}): declared order {}.",
        tableau.name,
        tableau.r,
        base.r_infinity(s, convention).to_f64(),
        tableau.order
    );
    let family = format!(
        "VsparkPrimary{}{}{}",
        base.name(),
        projection.name(),
        convention.suffix()
    );
    spark_method(
        Structure::Vspark,
        ProblemKind::DegenerateLagrangian,
        &family,
        &tableau,
        base.catalogue_pair(),
        doc,
        prec,
    )
}

/// VPARK over the symplectic projection of `base` with `s` internal stages for problems of
/// `kind` (e.g. `VparkLobattoIIIBIIIApSymplectic3`).
pub fn vpark(
    base: Base,
    kind: ProblemKind,
    s: usize,
    convention: Convention,
    prec: Precision,
) -> Result<Method, TableauError> {
    let tableau = vpark_symplectic(base, s, convention, prec)?;
    let doc = format!(
        "VPARK over {} (s = {s} internal, r = 2 projective stages, R∞ = {}): declared order {}; φ at every internal and projective stage, Λ̃_1 = λ_n.",
        tableau.name,
        base.r_infinity(s, convention).to_f64(),
        tableau.order
    );
    let family = format!(
        "{}Vpark{}pSymplectic{}",
        prefix(kind),
        base.name(),
        convention.suffix()
    );
    spark_method(
        Structure::Vpark,
        kind,
        &family,
        &tableau,
        base.catalogue_pair(),
        doc,
        prec,
    )
}

/// VSPARKprimary over the fixed four-Lobatto tableau `kind` (e.g. `VsparkPrimaryLobABD3`).
pub fn vspark_primary_lobatto(
    kind: PrimaryLobatto,
    s: usize,
    prec: Precision,
) -> Result<Method, TableauError> {
    let tableau = kind.build(s, prec)?;
    let doc = format!(
        "VSPARKprimary over {} (s = r = {s} Lobatto stages, ω = lobatto_ω_matrix({s})): declared order {}.",
        tableau.name, tableau.order
    );
    let pair = if tableau.a[0] == build(Family::LobattoIIID, s, prec)?.a {
        PairKind::LobattoIIIDIIIDBar
    } else {
        PairKind::LobattoIIIEIIIEBar
    };
    let family = format!("VsparkPrimary{}", kind.name());
    spark_method(
        Structure::Vspark,
        ProblemKind::DegenerateLagrangian,
        &family,
        &tableau,
        pair,
        doc,
        prec,
    )
}

#[cfg(test)]
mod tests {
    use super::super::ir::{Coef, Expr, Input, Kernel, Term};
    use super::*;

    /// The midpoint and modified-midpoint projections of Gauss have the same stage equations
    /// (one stepper serves both names), the symmetric projection does not.
    #[test]
    fn coinciding_projections_have_the_same_equations() -> Result<(), TableauError> {
        let prec = Precision::DEFAULT;
        let method = |p| vspark_primary(Base::Glrk, p, 2, Convention::Documented, prec);
        let midpoint = method(Projection::Midpoint)?;
        assert!(midpoint.same_equations(&method(Projection::ModifiedMidpoint)?));
        assert!(!midpoint.same_equations(&method(Projection::Symmetric)?));
        assert_ne!(midpoint.name, method(Projection::ModifiedMidpoint)?.name);
        Ok(())
    }

    /// Upstream's μ needs the null vector d (and r = s): over Gauss it is refused with a typed
    /// error; over the Lobatto pairs it adds the block μ and the row Σ dᵢΛ̃ᵢ.
    #[test]
    fn upstream_mu_needs_a_null_vector() -> Result<(), TableauError> {
        let prec = Precision::DEFAULT;
        let dl = ProblemKind::DegenerateLagrangian;
        for mu in [NullMultiplier::UpstreamCode, NullMultiplier::OmegaRow] {
            assert!(matches!(
                spark(SparkKind::Glrk, dl, 2, mu, prec),
                Err(TableauError::NoNullVector { .. })
            ));
            let with = spark(SparkKind::LobattoIIIAIIIB, dl, 3, mu, prec)?;
            let without = spark(
                SparkKind::LobattoIIIAIIIB,
                dl,
                3,
                NullMultiplier::Absent,
                prec,
            )?;
            assert_eq!(with.unknown_vectors(), without.unknown_vectors() + 1);
            assert_eq!(with.rows_layout.len(), without.rows_layout.len() + 1);
            let shifts = with
                .values
                .iter()
                .filter(|v| matches!(v.expr, Expr::Kernel(Kernel::Shift(_), _)))
                .count();
            assert_eq!(
                shifts,
                if mu == NullMultiplier::UpstreamCode {
                    2
                } else {
                    0
                }
            );
        }
        Ok(())
    }

    /// VPARK reads `λ_n` only as `−λ_n` in the continuity row of its multiplier block, which
    /// the runtime's linearisation in `λ_n` relies on; a read anywhere else, or with another
    /// coefficient, is refused.
    #[test]
    fn lambda_n_is_read_only_in_the_continuity_row() -> Result<(), TableauError> {
        let prec = Precision::DEFAULT;
        let dl = ProblemKind::DegenerateLagrangian;
        let method = vpark(Base::Glrk, dl, 2, Convention::Documented, prec)?;
        assert!(method.reads_multiplier() && method.check().is_ok());
        let continuity = method
            .values
            .iter()
            .position(|v| v.name == "continuity")
            .expect("VPARK over Gauss has the continuity row");
        let mut doubled = method.clone();
        if let Expr::Linear(terms) = &mut doubled.values[continuity].expr {
            for (c, t) in terms.iter_mut() {
                if *t == Term::Input(Input::Lambda) {
                    *c = Coef::new(Num::int(-2));
                }
            }
        }
        let mut elsewhere = method.clone();
        let lambda_read = elsewhere.values[continuity].clone();
        elsewhere.values.push(lambda_read);
        for bad in [doubled, elsewhere] {
            assert!(matches!(
                bad.check(),
                Err(super::super::ir::MethodError::MultiplierRead { .. })
            ));
        }
        Ok(())
    }
}
