//! SPARK and VSPARK (`spark_methods.md` §2.1, §2.3) over a [`SparkTableau`], on the index-2
//! view of a degenerate Lagrangian `L = ϑ(q)·v − H(q)`:
//! `q̇ = v + u`, `ṗ = f(q, v) + g(q, λ)`, `0 = φ(q, p) = p − ϑ(q)` with `u = λ` and
//! `g = J(q)ᵀλ`, `J = ∂ϑ/∂q`.
//!
//! **SPARK** has no internal velocity (`v ≡ 0`, so `f = −∇H`): the projective multipliers
//! `Λ̃_j = U_j` carry the velocity. Every stage quantity is explicit in `Λ̃`, so the unknowns are
//! `Λ̃_1..Λ̃_r` only:
//! `Q_i = q_n + h Σ_j α^q_ij Λ̃_j`, `F_i = −∇H(Q_i)` (internal, i = 1..s);
//! `Q̃_i = q_n + h Σ_j α̃^q_ij Λ̃_j`, `G_i = J(Q̃_i)ᵀΛ̃_i`,
//! `P̃_i = p_n + h Σ_j ã^p_ij F_j + h Σ_j α̃^p_ij G_j` (projective, i = 1..r);
//! rows `Σ_j ω_ij φ(Q̃_j, P̃_j) + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) = 0` (i ≤ r − ρ) and
//! `Σ_j δ_ij Λ̃_j = 0`. (The internal momenta `P_i` enter nothing and are not formed.) SPARK
//! ignores the tableau's null vector: it has no internal velocities whose gauge d would fix.
//! Upstream adds a multiplier μ along d to the position rows of the next (stage, component) — a
//! mis-indexing that cost `SPARKLobattoIIIAIIIB/IIIBIIIA` their order; without it they reach
//! 2s − 2 and coincide with SLRK over the same pair (`tests/tests/spark_identities.rs`).
//! Both of upstream's forms are kept for side-by-side measurement, never as defaults
//! ([`NullMultiplier`]).
//!
//! **VSPARK** adds internal velocities `V_i` with the primary constraint at every internal
//! stage, relaxed along the null vector d where the tableau has one:
//! `Q_i = q_n + h Σ_j a^q_ij V_j + h Σ_j α^q_ij Λ̃_j`, `F_i = J(Q_i)ᵀV_i − ∇H(Q_i)`,
//! `P_i = p_n + h Σ_j a^p_ij F_j + h Σ_j α^p_ij G_j`, rows `P_i − ϑ(Q_i) − (d_i/b^p_i) μ = 0`,
//! `Σ_i d_i V_i = 0`, and the projective stages and rows of SPARK with the `ã^q V`, `ã^p F`
//! terms. This is also upstream's VSPARKprimary, whose `u ≡ λ` is the view here (it puts μ on
//! the momentum row, which only rescales μ by h). Over SPARK tableaus whose internal and
//! projective slots coincide, `V` and `Λ̃` enter alike and the stage Jacobian is rank-deficient.
//!
//! **VPARK** has the internal stages of VSPARK and imposes the constraint pointwise at the
//! projective stages, `φ(Q̃_i, P̃_i) = 0`; a projective stage at `t_n` (`c^λ_1 = 0`, where that
//! row holds trivially) takes the previous step's multiplier instead, `Λ̃_1 = λ_n`.
//!
//! VSPARK and VPARK carry `λ_{n+1} = Σ_j d^λ_j Λ̃_j` to the next step (SPARK's `Λ̃` are
//! velocities).
//!
//! Update: `q_{n+1} = q_n + h Σ b^q_i V_i + h Σ β^q_j Λ̃_j`,
//! `p_{n+1} = p_n + h Σ b^p_i F_i + h Σ β^p_j G_j`.

use super::facts::{Facts, Multiplier, StageAt, forces_end};
use super::ir::{
    Block, Coef, DaeFunction, Expr, Input, Kernel, Method, ProblemKind, Role, Shift, Term, Width,
    block, combination, minus,
};
use crate::exact::{Matrix, Num, Precision};
use crate::spark::jay::hpark_tableau;
use crate::spark::primary_lobatto::PrimaryLobatto;
use crate::spark::projection::{
    Base, Convention, Projection, hspark_symmetric, projected, vpark_symplectic,
};
use crate::spark::{SparkKind, SparkTableau, identity_omega};
use crate::tableau::{Family, PairKind, TableauError, build};

/// Where SPARK puts a multiplier μ along the tableau's null vector d (of the shipped SPARK
/// tableaus only `SPARKLobattoIIIAIIIB/IIIBIIIA` carry one, with r = s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullMultiplier {
    /// Nowhere, and no `Σ dᵢΛ̃ᵢ` row: the correct form (no internal velocity has the gauge d
    /// would fix).
    Absent,
    /// Upstream's code (`spark_methods.md` §2.1), for compatibility: the row `Σ dᵢΛ̃ᵢ = 0`, and
    /// `−h (dᵢ/b^p_i) μ_k` added to component k + 1 of `Q_i` and, for k = D, to component 1 of
    /// `Q_{i+1}` (of `Q̃_1` after the last stage): `Q_i −= h (dᵢ/b^p_i) Σ_next μ +
    /// h (d_{i−1}/b^p_{i−1}) Σ_wrap μ` ([`Shift`]).
    UpstreamCode,
    /// Upstream's documentation ("SPARK adds μ to its own primary-constraint row"): the row
    /// `Σ dᵢΛ̃ᵢ = 0` and `(dᵢ/b^p_i) μ` on ω row i.
    OmegaRow,
}

impl NullMultiplier {
    /// The family-name suffix: none, `UpstreamMu` or `OmegaMu`.
    pub fn suffix(self) -> &'static str {
        match self {
            NullMultiplier::Absent => "",
            NullMultiplier::UpstreamCode => "UpstreamMu",
            NullMultiplier::OmegaRow => "OmegaMu",
        }
    }
}

/// Which residual structure to build over a SPARK tableau.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// SPARK: projective multipliers only (`v ≡ 0`), with μ where [`NullMultiplier`] puts it.
    Spark(NullMultiplier),
    /// VSPARK: internal velocities with the primary constraint at each internal stage.
    Vspark,
    /// VPARK: as VSPARK, with the constraint imposed at each projective stage instead of the ω
    /// rows; a projective stage at `t_n` (`c^λ_1 = 0`) takes `Λ̃_1 = λ_n` instead.
    Vpark,
}

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
    let (s, r) = (tableau.s, tableau.r);
    let spark_mu = match structure {
        Structure::Spark(mu) => mu,
        Structure::Vspark | Structure::Vpark => NullMultiplier::Absent,
    };
    let hdae = kind == ProblemKind::HamiltonianDae;
    if hdae && structure == Structure::Vspark {
        return Err(TableauError::Inapplicable {
            method: family.to_owned(),
            reason: "on a Hamiltonian DAE the internal velocities are v(Q, P), not unknowns",
        });
    }
    // Internal velocities as unknowns, with the primary constraint at every internal stage.
    let vspark = !matches!(structure, Structure::Spark(_)) && !hdae;
    let vpark = structure == Structure::Vpark;
    let idae = kind == ProblemKind::ImplicitDae;
    let dae = kind.is_dae();
    if spark_mu != NullMultiplier::Absent && (tableau.null.is_none() || r != s) {
        return Err(TableauError::NoNullVector {
            tableau: tableau.name.clone(),
        });
    }
    let null = tableau
        .null
        .as_ref()
        .filter(|_| vspark || spark_mu != NullMultiplier::Absent);
    // On an implicit DAE, p and the internal constraint ϑ live in the coordinates' space.
    let momentum_width = if dae {
        Width::Coordinates
    } else {
        Width::Constraints
    };
    let mut blocks = Vec::new();
    let mut rows_layout = Vec::new();
    let add = |list: &mut Vec<Block>, name: &str, n: usize, role: Role, width: Width| {
        list.push(block(name, n, role, width));
        list.len() - 1
    };
    let v_block = vspark.then(|| add(&mut blocks, "V", s, Role::Velocity, Width::Coordinates));
    // On a Hamiltonian DAE, v and f depend on the internal stage values, which are therefore
    // unknowns: `Q_i = q_n + h Y_i`, `P_i = p_n + h Z_i`.
    let internal_blocks = hdae.then(|| {
        (
            add(&mut blocks, "Y", s, Role::Velocity, Width::Coordinates),
            add(&mut blocks, "Z", s, Role::Momentum, Width::Coordinates),
        )
    });
    // On an implicit DAE, u and g depend on the projective stage values, which are therefore
    // unknowns: `Q̃_j = q_n + h Ỹ_j`, `P̃_j = p_n + h Z̃_j`.
    let tilde_blocks = dae.then(|| {
        (
            add(&mut blocks, "Ytilde", r, Role::Velocity, Width::Coordinates),
            add(&mut blocks, "Ztilde", r, Role::Momentum, Width::Coordinates),
        )
    });
    // Λ̃ are SPARK's velocities on the view of a degenerate Lagrangian (u = λ, v ≡ 0).
    let lambda_role = if vspark || dae {
        Role::Multiplier
    } else {
        Role::Velocity
    };
    let lam_block = add(&mut blocks, "Lambda", r, lambda_role, Width::Constraints);
    let mu_block = null.map(|_| add(&mut blocks, "Mu", 1, Role::Multiplier, momentum_width));
    let phi_rows = vspark.then(|| add(&mut rows_layout, "Phi", s, Role::Residual, momentum_width));
    let internal_rows = hdae.then(|| {
        (
            add(&mut rows_layout, "Y", s, Role::Residual, Width::Coordinates),
            add(&mut rows_layout, "Z", s, Role::Residual, Width::Coordinates),
        )
    });
    let tilde_rows = dae.then(|| {
        (
            add(
                &mut rows_layout,
                "Ytilde",
                r,
                Role::Residual,
                Width::Coordinates,
            ),
            add(
                &mut rows_layout,
                "Ztilde",
                r,
                Role::Residual,
                Width::Coordinates,
            ),
        )
    });
    let rho = tableau.rho();
    let projective_rows = if vpark {
        add(
            &mut rows_layout,
            "Projective",
            r,
            Role::Residual,
            Width::Constraints,
        )
    } else {
        add(
            &mut rows_layout,
            "Omega",
            r - rho,
            Role::Residual,
            Width::Constraints,
        )
    };
    if rho > 0 && !vpark {
        add(
            &mut rows_layout,
            "Delta",
            rho,
            Role::Residual,
            Width::Constraints,
        );
    }
    // Σ dᵢVᵢ = 0 (VSPARK) or Σ dᵢΛ̃ᵢ = 0 (SPARK with upstream's μ).
    let null_width = if vspark {
        Width::Coordinates
    } else {
        Width::Constraints
    };
    let null_rows = null.map(|_| add(&mut rows_layout, "Null", 1, Role::Residual, null_width));
    // VSPARK over a tableau whose internal and projective q-slots coincide (a^q = α^q,
    // ã^q = α̃^q) sees V and U only through V + U in every position: a gauge freedom (exact for
    // u = λ; on an implicit DAE wherever u is affine in λ along the solution).
    let rank_deficient =
        vspark && tableau.a[0] == tableau.alpha[0] && tableau.a_tilde[0] == tableau.alpha_tilde[0];
    // SPARK's Λ̃ on the view of a degenerate Lagrangian are velocities: no multiplier.
    let carries = vspark || dae;
    // Upstream's documented μ on the ω rows, with weights dᵢ/b^p_i.
    let relaxation = match (spark_mu, null) {
        (NullMultiplier::OmegaRow, Some(d)) => Some(mu_weights(d, &tableau.b[1])?),
        _ => None,
    };
    let mut m = Method {
        family: family.to_owned(),
        name: format!("{family}{s}"),
        doc,
        problem: kind,
        pair: pair.name().to_owned(),
        s,
        order: tableau.order,
        nodes: if vspark || hdae {
            tableau.c[0].clone()
        } else {
            tableau.c_lambda.clone()
        },
        blocks,
        rows_layout,
        values: Vec::new(),
        rows: Vec::new(),
        q_next: 0,
        p_next: 0,
        rank_deficient,
        multiplier: carries.then(|| (lam_block, tableau.d_lambda.clone())),
        facts: Facts {
            multiplier: carries.then_some(if vspark {
                Multiplier::Projection
            } else {
                Multiplier::Velocity
            }),
            ..Facts::new(imposes_end(structure, tableau, relaxation.as_deref(), prec))
        },
        same_equations_as: None,
    };
    let unknown = |block: usize, stage: usize| Term::Unknown { block, stage };
    let lam = |j| unknown(lam_block, j);
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let mut velocities: Vec<Term> =
        v_block.map_or_else(Vec::new, |b| (0..s).map(|j| unknown(b, j)).collect());
    // The internal stage values of a Hamiltonian DAE with V_i = v(Q_i, P_i), F_i = f(Q_i, P_i).
    let mut forces = Vec::with_capacity(s);
    if let Some((y, z)) = internal_blocks {
        for i in 0..s {
            let name = |x: &str| format!("{x}_{}", i + 1);
            let q = m.push(
                name("q"),
                combination(Some(q0), &[(Num::one(), unknown(y, i))]),
            );
            let p = m.push(
                name("p"),
                combination(Some(p0), &[(Num::one(), unknown(z, i))]),
            );
            let args = vec![q, p];
            velocities.push(m.push(
                name("v"),
                Expr::Kernel(Kernel::Dae(DaeFunction::Velocity), args.clone()),
            ));
            let f = m.push(
                name("f"),
                Expr::Kernel(Kernel::Dae(DaeFunction::HamiltonianForce), args),
            );
            forces.push((q, f));
        }
    }
    let velocities = velocities;
    // The projective stage values and U_j, G_j of an implicit DAE.
    let mut projective = Vec::with_capacity(r);
    let mut us = Vec::with_capacity(r);
    let mut g = Vec::with_capacity(r);
    if let Some((y, z)) = tilde_blocks {
        for j in 0..r {
            let name = |x: &str| format!("{x}_tilde_{}", j + 1);
            let q = m.push(
                name("q"),
                combination(Some(q0), &[(Num::one(), unknown(y, j))]),
            );
            let p = m.push(
                name("p"),
                combination(Some(p0), &[(Num::one(), unknown(z, j))]),
            );
            let args = vec![q, p, lam(j)];
            us.push(m.push(
                name("u"),
                Expr::Kernel(Kernel::Dae(DaeFunction::U), args.clone()),
            ));
            g.push(m.push(name("g"), Expr::Kernel(Kernel::Dae(DaeFunction::G), args)));
            projective.push((q, p));
        }
    } else {
        us = (0..r).map(lam).collect();
    }
    // Upstream's μ terms of each position: internal stages 0..s, then Q̃_1 (stage s).
    let upstream_mu = match (spark_mu, null, mu_block) {
        (NullMultiplier::UpstreamCode, Some(d), Some(mu)) => {
            upstream_mu_terms(&mut m, d, &tableau.b[1], unknown(mu, 0))?
        }
        _ => vec![Vec::new(); s + 1],
    };
    // Positions: q_n + h Σ a V (VSPARK only) + h Σ α U (+ upstream's μ terms).
    let position = |m: &mut Method, name: String, a: &[Num], alpha: &[Num], extra: &[_]| {
        stage_value(m, name, q0, (a, &velocities), (alpha, &us), extra)
    };
    let zero = (idae && !vspark).then(|| m.push("v_zero", Expr::Linear(Vec::new())));
    // Internal positions and forces (explicit in the unknowns unless on a Hamiltonian DAE).
    let explicit_stages = if hdae { 0 } else { s };
    for (i, mu_terms) in upstream_mu.iter().take(explicit_stages).enumerate() {
        let q = Term::Value(position(
            &mut m,
            format!("q_{}", i + 1),
            &tableau.a[0][i],
            &tableau.alpha[0][i],
            mu_terms,
        ));
        let v = velocities.get(i).copied().or(zero);
        let f = match v {
            Some(v) if idae => m.push(
                format!("f_{}", i + 1),
                Expr::Kernel(Kernel::Dae(DaeFunction::Force), vec![q, v]),
            ),
            Some(v) => m.force(i, q, v),
            // SPARK on a degenerate Lagrangian: f(q, 0) = −∇H(q).
            None => {
                let grad = m.intern(
                    format!("grad_h_{}", i + 1),
                    Expr::Kernel(Kernel::Gradient, vec![q]),
                );
                m.intern(
                    format!("f_{}", i + 1),
                    Expr::Linear(vec![(Coef::sign(false), grad)]),
                )
            }
        };
        forces.push((q, f));
    }
    if !dae {
        for j in 0..r {
            let extra = if j == 0 { &upstream_mu[s][..] } else { &[] };
            let q = Term::Value(position(
                &mut m,
                format!("q_tilde_{}", j + 1),
                &tableau.a_tilde[0][j],
                &tableau.alpha_tilde[0][j],
                extra,
            ));
            g.push(m.intern(
                format!("g_{}", j + 1),
                Expr::Kernel(Kernel::JacT, vec![q, lam(j)]),
            ));
            projective.push((q, Term::Input(Input::P)));
        }
    }
    let fs: Vec<Term> = forces.iter().map(|(_, f)| *f).collect();
    let momentum = |m: &mut Method, name: String, a: &[Num], alpha: &[Num]| {
        stage_value(m, name, p0, (a, &fs), (alpha, &g), &[])
    };
    if let Some(block) = phi_rows {
        for i in 0..s {
            let p = Term::Value(momentum(
                &mut m,
                format!("p_{}", i + 1),
                &tableau.a[1][i],
                &tableau.alpha[1][i],
            ));
            let (q, _) = forces[i];
            let phi_i = if idae {
                let theta = m.push(
                    format!("theta_{}", i + 1),
                    Expr::Kernel(Kernel::Dae(DaeFunction::Theta), vec![q, velocities[i]]),
                );
                m.push(format!("phi_{}", i + 1), minus(p, theta))
            } else {
                phi(&mut m, format!("{}", i + 1), q, p)
            };
            let row = match (null, mu_block) {
                (Some(d), Some(mu)) => {
                    let weight = mu_weights(d, &tableau.b[1])?.swap_remove(i);
                    m.push(
                        format!("phi_mu_{}", i + 1),
                        Expr::Linear(vec![
                            (Coef::sign(true), phi_i),
                            (Coef::new(weight.neg()), unknown(mu, 0)),
                        ]),
                    )
                }
                _ => phi_i,
            };
            m.row(block, i, row);
        }
    }
    // Y_i − Σ a^q V − Σ α^q U = 0, Z_i − Σ a^p F − Σ α^p G = 0 (Hamiltonian DAEs), and
    // Ỹ_j − Σ ã^q V − Σ α̃^q U = 0, Z̃_j − Σ ã^p F − Σ α̃^p G = 0 (DAEs).
    let stage_blocks = [
        (
            internal_blocks,
            internal_rows,
            "",
            &tableau.a,
            &tableau.alpha,
        ),
        (
            tilde_blocks,
            tilde_rows,
            "_tilde",
            &tableau.a_tilde,
            &tableau.alpha_tilde,
        ),
    ];
    for (blocks, rows, suffix, a, alpha) in stage_blocks {
        if let (Some((y, z)), Some((y_rows, z_rows))) = (blocks, rows) {
            let position = (y, y_rows, format!("y{suffix}"));
            increment_rows(&mut m, position, (&a[0], &velocities), (&alpha[0], &us));
            let momentum = (z, z_rows, format!("z{suffix}"));
            increment_rows(&mut m, momentum, (&a[1], &fs), (&alpha[1], &g));
        }
    }
    let mut phi_tilde = Vec::with_capacity(r);
    for (j, &(q, p)) in projective.iter().enumerate() {
        let p = if dae {
            p
        } else {
            Term::Value(momentum(
                &mut m,
                format!("p_tilde_{}", j + 1),
                &tableau.a_tilde[1][j],
                &tableau.alpha_tilde[1][j],
            ))
        };
        phi_tilde.push(constraint(&mut m, kind, format!("tilde_{}", j + 1), q, p));
    }
    m.q_next = position(
        &mut m,
        "q_next".into(),
        &tableau.b[0],
        &tableau.beta[0],
        &[],
    );
    m.p_next = momentum(&mut m, "p_next".into(), &tableau.b[1], &tableau.beta[1]);
    if vpark {
        for (j, phi_j) in phi_tilde.iter().enumerate() {
            let value = if j == 0 && tableau.c_lambda[0].is_zero() {
                m.push("continuity", minus(lam(0), Term::Input(Input::Lambda)))
            } else {
                *phi_j
            };
            m.row(projective_rows, j, value);
        }
    } else {
        let omega_mu = match (spark_mu, null, mu_block) {
            (NullMultiplier::OmegaRow, Some(d), Some(mu)) => Some((d, unknown(mu, 0))),
            _ => None,
        };
        omega_rows(&mut m, kind, tableau, &phi_tilde, projective_rows, omega_mu)?;
        let lambdas: Vec<Term> = (0..r).map(lam).collect();
        for (i, row) in tableau.delta.iter().enumerate() {
            let value = m.push(
                format!("delta_{}", i + 1),
                Expr::Linear(weighted(row, &lambdas)),
            );
            m.row(projective_rows + 1, i, value);
        }
    }
    if let (Some(d), Some(block)) = (null, null_rows) {
        let gauged: Vec<Term> = if vspark {
            velocities
        } else {
            (0..r).map(lam).collect()
        };
        let value = m.push("null", Expr::Linear(weighted(d, &gauged)));
        m.row(block, 0, value);
    }
    Ok(m)
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

/// The rows `X_j − Σ_k a_jk x_k − Σ_k α_jk y_k = 0` of the unknown stage block `X` (one per row
/// of `a`) into a row block, e.g. `Ỹ_j − Σ ã^q V − Σ α̃^q U`; `(block, rows, name)` names the
/// unknown block, the row block and the values (`row_{name}_{j}`).
pub(super) fn increment_rows(
    m: &mut Method,
    (block, rows, name): (usize, usize, String),
    (a, xs): (&Matrix, &[Term]),
    (alpha, ys): (&Matrix, &[Term]),
) {
    for (j, (a, alpha)) in a.iter().zip(alpha).enumerate() {
        let mut terms = vec![(Coef::sign(true), Term::Unknown { block, stage: j })];
        terms.extend(
            weighted(a, xs)
                .into_iter()
                .chain(weighted(alpha, ys))
                .map(|(c, t)| (Coef::new(c.value.neg()), t)),
        );
        let value = m.push(format!("row_{name}_{}", j + 1), Expr::Linear(terms));
        m.row(rows, j, value);
    }
}

/// The value `base + h Σ_j a_j x_j + h Σ_j α_j y_j + h Σ_k e_k z_k` (interned under `name`) of
/// the slots `(a, x)`, `(α, y)` and the further terms `(e, z)`, e.g. a stage position
/// `q_n + h Σ a V + h Σ α U`.
fn stage_value(
    m: &mut Method,
    name: String,
    base: Term,
    (a, x): (&[Num], &[Term]),
    (alpha, y): (&[Num], &[Term]),
    extra: &[(Num, Term)],
) -> usize {
    let terms: Vec<(Num, Term)> = a
        .iter()
        .zip(x)
        .chain(alpha.iter().zip(y))
        .map(|(c, t)| (c.clone(), *t))
        .chain(extra.iter().cloned())
        .collect();
    m.intern_index(name, combination(Some(base), &terms))
}

/// The weights `dᵢ/b^p_i` with which upstream enters μ.
fn mu_weights(d: &[Num], b: &[Num]) -> Result<Vec<Num>, TableauError> {
    d.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (d, b))| d.div(b).ok_or(TableauError::ZeroWeight { index: i }))
        .collect()
}

/// Upstream's μ terms `(coefficient of h, Σμ)` of the positions `Q_1..Q_s` and of `Q̃_1` (the
/// last entry): `−(dᵢ/b^p_i) Σ_next μ` in `Q_i` and `−(dᵢ/b^p_i) Σ_wrap μ` in the position
/// after it (r = s).
fn upstream_mu_terms(
    m: &mut Method,
    d: &[Num],
    b: &[Num],
    mu: Term,
) -> Result<Vec<Vec<(Num, Term)>>, TableauError> {
    let weights = mu_weights(d, b)?;
    let next = m.push(
        "mu_next",
        Expr::Kernel(Kernel::Shift(Shift::Next), vec![mu]),
    );
    let wrap = m.push(
        "mu_wrap",
        Expr::Kernel(Kernel::Shift(Shift::Wrap), vec![mu]),
    );
    let mut terms = vec![Vec::new(); weights.len() + 1];
    for (i, w) in weights.iter().enumerate() {
        terms[i].push((w.neg(), next));
        terms[i + 1].push((w.neg(), wrap));
    }
    Ok(terms)
}

/// The rows `Σ_j ω_ij φ(Q̃_j, P̃_j) + ω_{i,r+1} φ(q_{n+1}, p_{n+1}) = 0` into row block `block`;
/// with `mu = (d, μ)`, upstream's documented form adds `(dᵢ/b^p_i) μ` to row i.
fn omega_rows(
    m: &mut Method,
    kind: ProblemKind,
    tableau: &SparkTableau,
    phi_tilde: &[Term],
    block: usize,
    mu: Option<(&Vec<Num>, Term)>,
) -> Result<(), TableauError> {
    let r = tableau.r;
    let (q_next, p_next) = (Term::Value(m.q_next), Term::Value(m.p_next));
    let needs_end = tableau.omega.iter().any(|row| !row[r].is_zero());
    let phi_next = needs_end.then(|| constraint(m, kind, "next".into(), q_next, p_next));
    let mu = match mu {
        Some((d, mu)) => Some((mu_weights(d, &tableau.b[1])?, mu)),
        None => None,
    };
    for (i, row) in tableau.omega.iter().enumerate() {
        let mut terms = weighted(&row[..r], phi_tilde);
        if let Some(end) = phi_next.filter(|_| !row[r].is_zero()) {
            terms.push((Coef::new(row[r].clone()), end));
        }
        if let Some((weights, mu)) = &mu {
            terms.push((Coef::new(weights[i].clone()), *mu));
        }
        let value = m.push(format!("omega_{}", i + 1), Expr::Linear(terms));
        m.row(block, i, value);
    }
    Ok(())
}

/// The constraint `φ(q, p)` at the point `(q, p)` as the value `phi_{name}`: the kernel of an
/// implicit or Hamiltonian DAE, `p − ϑ(q)` on a degenerate Lagrangian.
fn constraint(m: &mut Method, kind: ProblemKind, name: String, q: Term, p: Term) -> Term {
    if kind.is_dae() {
        m.intern(
            format!("phi_{name}"),
            Expr::Kernel(Kernel::Dae(DaeFunction::Phi), vec![q, p]),
        )
    } else {
        phi(m, name, q, p)
    }
}

/// `φ = p − ϑ(q)` at the point `(q, p)`, as the value `phi_{name}`.
fn phi(m: &mut Method, name: String, q: Term, p: Term) -> Term {
    let theta = m.intern(format!("theta_{name}"), Expr::Kernel(Kernel::Map, vec![q]));
    m.intern(format!("phi_{name}"), minus(p, theta))
}

/// `Σ_j c_j t_j` over the non-zero `c_j`.
pub(super) fn weighted(c: &[Num], t: &[Term]) -> Vec<(Coef, Term)> {
    c.iter()
        .zip(t)
        .filter(|(c, _)| !c.is_zero())
        .map(|(c, t)| (Coef::new(c.clone()), *t))
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
