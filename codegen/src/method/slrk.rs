//! SLRK (seed 000; GeometricIntegrators.jl, `src/spark/integrators_slrk.jl`) for degenerate
//! Lagrangians `L = ϑ(q)·v − H(q)`.
//!
//! Unknowns `V_i`, `Λ_i` (i = 1..s) and `μ`; the explicit stage quantities `Y_i`, `Z_i` of
//! upstream's layout are eliminated (`Q_i`, `P_i` are explicit in `V`, `Λ`), which shrinks the
//! linear system from `4Ds + D` to `(2s + 1)D`:
//!
//! - `Q_i = q_n + h Σ_j (a¹_ij V_j + a²_ij Λ_j)`, `P_i = p_n + h Σ_j (ā¹_ij F_j + ā²_ij G_j)`,
//!   `F_i = J(Q_i)ᵀV_i − ∇H(Q_i)`, `G_i = J(Q_i)ᵀΛ_i`, `Ψ_i = F_i − J(Q_i)V_i`;
//! - `q_{n+1} = q_n + h Σ_i (b¹_i V_i + b²_i Λ_i)`, `p_{n+1} = p_n + h Σ_i (b̄¹_i F_i + b̄²_i G_i)`;
//! - rows: `Φ_i = P_i − ϑ(Q_i) − (d_i/b̄¹_i) μ = 0` (μ in the primary-constraint row only, the
//!   fix of upstream's S10), `Σ_j ω_ij Ψ_j + ω_{i,s+1} (p_{n+1} − ϑ(q_{n+1})) = 0` with
//!   ω = `lobatto_ω_matrix(s)`, and `Σ_i d_i V_i = 0` with the Lobatto null vector d.
//!
//! Here `a² = a¹`, `ā² = ā¹` (the tableaus q̃ = q, p̃ = p of the SLRK constructors).

use super::facts::{Facts, omega_imposes_end};
use super::ir::{
    Coef, Expr, Input, Kernel, Method, ProblemKind, Role, Term, Width, block, combination, minus,
};
use crate::exact::{Num, Precision};
use crate::spark::{lobatto_null_vector, lobatto_omega_matrix};
use crate::tableau::{PairKind, PartitionedTableau, TableauError};

/// The SLRK method over the Lobatto pair `kind` with `s` stages.
pub fn slrk(kind: PairKind, s: usize, prec: Precision) -> Result<Method, TableauError> {
    let pair = PartitionedTableau::build(kind, s, prec)?;
    let omega = lobatto_omega_matrix(s, prec)?;
    let d = lobatto_null_vector(s, prec)?;
    let (a, b) = (&pair.q.a, &pair.q.b);
    let (abar, bbar) = (&pair.p.a, &pair.p.b);
    let mut m = Method {
        family: format!("Slrk{}", slrk_name(kind)),
        name: format!("Slrk{}{s}", slrk_name(kind)),
        doc: format!(
            "SLRK over the Lobatto pair ({}, {}) with s = {s}: order 2s − 2 = {}, primary constraint p = ϑ(q) held to round-off.",
            pair.q.name(),
            pair.p.name(),
            2 * s - 2
        ),
        problem: ProblemKind::DegenerateLagrangian,
        pair: kind.name().to_owned(),
        s,
        order: 2 * s - 2,
        nodes: pair.q.c.clone(),
        projective_nodes: Vec::new(),
        blocks: vec![
            block("V", s, Role::Velocity, Width::Coordinates),
            block("Lambda", s, Role::Multiplier, Width::Constraints),
            block("Mu", 1, Role::Correction, Width::Constraints),
        ],
        rows_layout: vec![
            block("Phi", s, Role::Residual, Width::Constraints),
            block("Psi", s, Role::Residual, Width::Coordinates),
            block("Null", 1, Role::Residual, Width::Coordinates),
        ],
        values: Vec::new(),
        rows: Vec::new(),
        q_next: 0,
        p_next: 0,
        rank_deficient: false,
        multiplier: None,
        facts: Facts::new(omega_imposes_end(&omega, s)),
        same_equations_as: None,
        declared: None,
    };
    let v = |i| Term::Unknown { block: 0, stage: i };
    let lam = |i| Term::Unknown { block: 1, stage: i };
    let mu = Term::Unknown { block: 2, stage: 0 };
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let mut stage_q = Vec::new();
    let (mut f, mut g, mut psi) = (Vec::new(), Vec::new(), Vec::new());
    for (i, row) in a.iter().enumerate() {
        let terms: Vec<(Num, Term)> = row
            .iter()
            .enumerate()
            .flat_map(|(j, c)| [(c.clone(), v(j)), (c.clone(), lam(j))])
            .collect();
        let q = m.push(format!("q_{}", i + 1), combination(Some(q0), &terms));
        let fi = m.force(i, q, v(i));
        let gi = m.push(
            format!("g_{}", i + 1),
            Expr::Kernel(Kernel::JacT, vec![q, lam(i)]),
        );
        let jv = m.push(
            format!("jv_{}", i + 1),
            Expr::Kernel(Kernel::Jac, vec![q, v(i)]),
        );
        let psi_i = m.push(format!("psi_{}", i + 1), minus(fi, jv));
        stage_q.push(q);
        f.push(fi);
        g.push(gi);
        psi.push(psi_i);
    }
    for i in 0..s {
        let terms: Vec<(Num, Term)> = (0..s)
            .flat_map(|j| [(abar[i][j].clone(), f[j]), (abar[i][j].clone(), g[j])])
            .collect();
        let p = m.push(format!("p_{}", i + 1), combination(Some(p0), &terms));
        let theta = m.push(
            format!("theta_{}", i + 1),
            Expr::Kernel(Kernel::Map, vec![stage_q[i]]),
        );
        // Φ_i = P_i − ϑ(Q_i) − (d_i/b̄¹_i) μ.
        let weight = d[i]
            .div(&bbar[i])
            .ok_or(TableauError::ZeroWeight { index: i })?;
        let phi = Expr::Linear(vec![
            (Coef::sign(true), p),
            (Coef::sign(false), theta),
            (Coef::new(weight.neg()), mu),
        ]);
        let phi = m.push(format!("phi_{}", i + 1), phi);
        m.row(0, i, phi);
    }
    let q_terms: Vec<(Num, Term)> = (0..s)
        .flat_map(|i| [(b[i].clone(), v(i)), (b[i].clone(), lam(i))])
        .collect();
    let q1 = m.push("q_next", combination(Some(q0), &q_terms));
    m.q_next = m.values.len() - 1;
    let p_terms: Vec<(Num, Term)> = (0..s)
        .flat_map(|i| [(bbar[i].clone(), f[i]), (bbar[i].clone(), g[i])])
        .collect();
    let p1 = m.push("p_next", combination(Some(p0), &p_terms));
    m.p_next = m.values.len() - 1;
    let theta1 = m.push("theta_next", Expr::Kernel(Kernel::Map, vec![q1]));
    let phi1 = m.push("phi_next", minus(p1, theta1));
    for (i, row) in omega.iter().enumerate() {
        let mut terms: Vec<(Coef, Term)> = (0..s)
            .filter(|&j| !row[j].is_zero())
            .map(|j| (Coef::new(row[j].clone()), psi[j]))
            .collect();
        if !row[s].is_zero() {
            terms.push((Coef::new(row[s].clone()), phi1));
        }
        let r = m.push(format!("omega_{}", i + 1), Expr::Linear(terms));
        m.row(1, i, r);
    }
    let null = Expr::Linear((0..s).map(|i| (Coef::new(d[i].clone()), v(i))).collect());
    let null = m.push("null", null);
    m.row(2, 0, null);
    Ok(m)
}

/// The seed's names of the six SLRK families (`SLRKLobattoIIIAB` … `SLRKLobattoIIIE`), in Rust
/// spelling (C̄ → `CBar`).
pub fn slrk_name(kind: PairKind) -> &'static str {
    match kind {
        PairKind::LobattoIIIAIIIB => "LobattoIIIAB",
        PairKind::LobattoIIIBIIIA => "LobattoIIIBA",
        PairKind::LobattoIIICIIICBar => "LobattoIIICCBar",
        PairKind::LobattoIIICBarIIIC => "LobattoIIICBarC",
        PairKind::LobattoIIIDIIIDBar => "LobattoIIID",
        PairKind::LobattoIIIEIIIEBar => "LobattoIIIE",
        other => other.name(),
    }
}
