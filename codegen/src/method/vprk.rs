//! VPRK (GeometricIntegrators.jl, `src/integrators/vi/vprk_integrator.jl`), the variational
//! control, on degenerate Lagrangians.
//!
//! Unknowns `V_i` (i = 1..s) and, for pairs with a null vector, `μ`:
//! `Q_i = q_n + h Σ_j a_ij V_j`, `F_i = J(Q_i)ᵀV_i − ∇H(Q_i)`, rows
//! `ϑ(Q_i) − p_n − h Σ_j ā_ij F_j + (d_i/b̄_i) μ = 0` (the discrete Legendre transform
//! `P_i = ∂L/∂v(Q_i, V_i) = ϑ(Q_i)`) and `Σ_i d_i V_i = 0`; update
//! `q_{n+1} = q_n + h Σ_i b_i V_i`, `p_{n+1} = p_n + h Σ_i b̄_i F_i`. The constraint
//! `p_{n+1} = ϑ(q_{n+1})` is not imposed: VPRK leaves it when ϑ is nonlinear.

use super::facts::Facts;
use super::ir::{
    Coef, Expr, Input, Kernel, Method, ProblemKind, Role, Term, Width, block, combination,
};
use crate::exact::{Num, Precision};
use crate::spark::lobatto_null_vector;
use crate::tableau::{PairKind, PartitionedTableau, TableauError};

/// Whether the VPRK method over `kind` carries the Lobatto null vector (IIIA–IIIB pairs, whose
/// stage system is otherwise singular).
pub fn has_null_vector(kind: PairKind) -> bool {
    matches!(kind, PairKind::LobattoIIIAIIIB | PairKind::LobattoIIIBIIIA)
}

/// The VPRK method over the pair `kind` with `s` stages.
pub fn vprk(kind: PairKind, s: usize, prec: Precision) -> Result<Method, TableauError> {
    let pair = PartitionedTableau::build(kind, s, prec)?;
    let (a, b, abar, bbar) = (&pair.q.a, &pair.q.b, &pair.p.a, &pair.p.b);
    let null = has_null_vector(kind);
    let name = match kind {
        PairKind::Gauss => "Gauss",
        other => other.name(),
    };
    let mut blocks = vec![block("V", s, Role::Velocity, Width::Coordinates)];
    let mut rows_layout = vec![block("P", s, Role::Residual, Width::Coordinates)];
    if null {
        blocks.push(block("Mu", 1, Role::Correction, Width::Coordinates));
        rows_layout.push(block("Null", 1, Role::Residual, Width::Coordinates));
    }
    let mut m = Method {
        family: format!("Vprk{name}"),
        name: format!("Vprk{name}{s}"),
        doc: format!(
            "VPRK over ({}, {}), s = {s}: variational, symplectic.",
            pair.q.name(),
            pair.p.name()
        ),
        problem: ProblemKind::DegenerateLagrangian,
        pair: kind.name().to_owned(),
        s,
        order: pair.kind.declared(s).order,
        nodes: pair.q.c.clone(),
        projective_nodes: Vec::new(),
        blocks,
        rows_layout,
        values: Vec::new(),
        rows: Vec::new(),
        q_next: 0,
        p_next: 0,
        rank_deficient: false,
        multiplier: None,
        // No row imposes p = ϑ(q); on a nonlinear one-form the problem is an index-2 DAE.
        facts: Facts {
            needs_linear_one_form: true,
            ..Facts::new(false)
        },
        same_equations_as: None,
        declared: None,
    };
    let v = |i| Term::Unknown { block: 0, stage: i };
    let mu = Term::Unknown { block: 1, stage: 0 };
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let (mut qs, mut fs) = (Vec::new(), Vec::new());
    for (i, row) in a.iter().enumerate() {
        let terms: Vec<(Num, Term)> = row
            .iter()
            .enumerate()
            .map(|(j, c)| (c.clone(), v(j)))
            .collect();
        let q = m.push(format!("q_{}", i + 1), combination(Some(q0), &terms));
        fs.push(m.force(i, q, v(i)));
        qs.push(q);
    }
    for i in 0..s {
        let theta = m.push(
            format!("theta_{}", i + 1),
            Expr::Kernel(Kernel::Map, vec![qs[i]]),
        );
        let mut terms = vec![(Coef::sign(true), theta), (Coef::sign(false), p0)];
        terms.extend(
            (0..s)
                .filter(|&j| !abar[i][j].is_zero())
                .map(|j| (Coef::h(abar[i][j].neg()), fs[j])),
        );
        if null {
            let d = lobatto_null_vector(s, prec)?;
            let weight = d[i]
                .div(&bbar[i])
                .ok_or(TableauError::ZeroWeight { index: i })?;
            terms.push((Coef::new(weight), mu));
        }
        let row = m.push(format!("legendre_{}", i + 1), Expr::Linear(terms));
        m.row(0, i, row);
    }
    if null {
        let d = lobatto_null_vector(s, prec)?;
        let row = m.push(
            "null",
            Expr::Linear((0..s).map(|i| (Coef::new(d[i].clone()), v(i))).collect()),
        );
        m.row(1, 0, row);
    }
    let q_terms: Vec<(Num, Term)> = (0..s).map(|i| (b[i].clone(), v(i))).collect();
    m.push("q_next", combination(Some(q0), &q_terms));
    m.q_next = m.values.len() - 1;
    let p_terms: Vec<(Num, Term)> = (0..s).map(|i| (bbar[i].clone(), fs[i])).collect();
    m.push("p_next", combination(Some(p0), &p_terms));
    m.p_next = m.values.len() - 1;
    Ok(m)
}
