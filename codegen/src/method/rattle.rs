//! Lobatto IIIA–IIIB for holonomic systems (Jay 1996; Hairer–Lubich–Wanner VII.1), the
//! higher-order RATTLE: symplectic on the constrained phase space, order `2s − 2`, RATTLE at
//! `s = 2`.
//!
//! For `H = ½pᵀM⁻¹p + V(q)`, `c(q) = 0`, `G = Dc`, with the Lobatto IIIA coefficients `a`, `b`
//! and the IIIB coefficients `ā`, `b̄ = b`: unknowns the stage momenta `P_i` (width D) and the
//! multipliers `Λ_i` (width M), i = 1..s;
//!
//! - `Q_i = q_n + h Σ_j a_ij M⁻¹P_j`, `F_i = ∇V(Q_i) + G(Q_i)ᵀΛ_i`;
//! - rows `P_i − p_n + h Σ_j ā_ij F_j = 0` (i = 1..s), `c(Q_i) = 0` for the stages whose row of `a`
//!   is not zero (i = 2..s; `Q_1 = q_n` lies on the manifold already), and the hidden constraint
//!   `G(q_{n+1}) M⁻¹ p_{n+1} = 0`;
//! - update `q_{n+1} = q_n + h Σ_i b_i M⁻¹P_i` (`= Q_s`: IIIA is stiffly accurate),
//!   `p_{n+1} = p_n − h Σ_i b̄_i F_i`.
//!
//! `(s − 1) + 1` constraint rows of width M match the `s` multipliers (`Λ_s`, absent from the
//! stage momenta because the last column of IIIB is zero, enters through `p_{n+1}` alone). At
//! `s = 2` this is RATTLE with `hΛ₁/2 = hλ` and `hΛ₂/2 = hμ`.

use super::facts::Facts;
use super::ir::{
    Coef, Expr, Input, Kernel, Method, ProblemKind, Role, Term, Width, block, combination,
};
use crate::exact::{Num, Precision};
use crate::tableau::{PairKind, PartitionedTableau, TableauError};

/// Lobatto IIIA–IIIB RATTLE with `s ≥ 2` stages.
pub fn rattle_lobatto(s: usize, prec: Precision) -> Result<Method, TableauError> {
    let pair = PartitionedTableau::build(PairKind::LobattoIIIAIIIB, s, prec)?;
    let (a, b) = (&pair.q.a, &pair.q.b);
    let (abar, bbar) = (&pair.p.a, &pair.p.b);
    // Stages whose position is an unknown function of the step: their constraint is imposed.
    let constrained: Vec<usize> = (0..s)
        .filter(|&i| a[i].iter().any(|x| !x.is_zero()))
        .collect();
    let mut m = Method {
        family: "RattleLobattoIIIAIIIB".to_owned(),
        name: format!("RattleLobattoIIIAIIIB{s}"),
        doc: format!(
            "Lobatto IIIA–IIIB RATTLE with s = {s} for holonomic systems: symplectic, order 2s − 2 = {}, c(q) = 0 and G(q)M⁻¹p = 0 held to round-off.",
            2 * s - 2
        ),
        problem: ProblemKind::Holonomic,
        pair: PairKind::LobattoIIIAIIIB.name().to_owned(),
        s,
        order: 2 * s - 2,
        nodes: pair.q.c.clone(),
        projective_nodes: Vec::new(),
        blocks: vec![
            block("P", s, Role::Momentum, Width::Coordinates),
            block("Lambda", s, Role::Multiplier, Width::Constraints),
        ],
        rows_layout: vec![
            block("Kick", s, Role::Residual, Width::Coordinates),
            block(
                "Position",
                constrained.len(),
                Role::Residual,
                Width::Constraints,
            ),
            block("Velocity", 1, Role::Residual, Width::Constraints),
        ],
        values: Vec::new(),
        rows: Vec::new(),
        q_next: 0,
        p_next: 0,
        rank_deficient: false,
        multiplier: None,
        // c(q_{n+1}) = 0 and G(q_{n+1}) M⁻¹ p_{n+1} = 0 are rows of the stage equations.
        facts: Facts::new(true),
        same_equations_as: None,
        declared: None,
    };
    let p_stage = |i| Term::Unknown { block: 0, stage: i };
    let lam = |i| Term::Unknown { block: 1, stage: i };
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let v: Vec<Term> = (0..s)
        .map(|j| {
            m.push(
                format!("v_{}", j + 1),
                Expr::Kernel(Kernel::Velocity, vec![p_stage(j)]),
            )
        })
        .collect();
    let (mut qs, mut q_index) = (Vec::new(), Vec::new());
    let mut forces = Vec::new();
    for (i, row) in a.iter().enumerate() {
        let terms: Vec<(Num, Term)> = row.iter().cloned().zip(v.iter().copied()).collect();
        let q = m.push(format!("q_{}", i + 1), combination(Some(q0), &terms));
        q_index.push(m.values.len() - 1);
        let grad = m.push(
            format!("grad_v_{}", i + 1),
            Expr::Kernel(Kernel::Gradient, vec![q]),
        );
        let normal = m.push(
            format!("gt_lambda_{}", i + 1),
            Expr::Kernel(Kernel::JacT, vec![q, lam(i)]),
        );
        let one = Coef::new(Num::one());
        forces.push(m.push(
            format!("f_{}", i + 1),
            Expr::Linear(vec![(one.clone(), grad), (one, normal)]),
        ));
        qs.push(q);
    }
    for (i, row) in abar.iter().enumerate() {
        let mut terms = vec![(Coef::sign(true), p_stage(i)), (Coef::sign(false), p0)];
        terms.extend(
            row.iter()
                .zip(&forces)
                .filter(|(x, _)| !x.is_zero())
                .map(|(x, f)| (Coef::h(x.clone()), *f)),
        );
        let row = m.push(format!("kick_{}", i + 1), Expr::Linear(terms));
        m.row(0, i, row);
    }
    for (k, &i) in constrained.iter().enumerate() {
        let c = m.push(
            format!("c_{}", i + 1),
            Expr::Kernel(Kernel::Map, vec![qs[i]]),
        );
        m.row(1, k, c);
    }
    let stiffly_accurate = a[s - 1].iter().zip(b).all(|(x, y)| x.sub(y).is_zero());
    let q1 = if stiffly_accurate {
        m.q_next = q_index[s - 1];
        qs[s - 1]
    } else {
        let terms: Vec<(Num, Term)> = b.iter().cloned().zip(v.iter().copied()).collect();
        let q1 = m.push("q_next", combination(Some(q0), &terms));
        m.q_next = m.values.len() - 1;
        q1
    };
    let p_terms: Vec<(Num, Term)> = bbar
        .iter()
        .map(Num::neg)
        .zip(forces.iter().copied())
        .collect();
    let p1 = m.push("p_next", combination(Some(p0), &p_terms));
    m.p_next = m.values.len() - 1;
    let v1 = m.push("v_next", Expr::Kernel(Kernel::Velocity, vec![p1]));
    let hidden = m.push("hidden", Expr::Kernel(Kernel::Jac, vec![q1, v1]));
    m.row(2, 0, hidden);
    Ok(m)
}
