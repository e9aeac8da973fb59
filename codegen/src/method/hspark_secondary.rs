//! HSPARKsecondary (GeometricIntegrators.jl, `src/spark/integrators_hspark_secondary.jl`) on a
//! Hamiltonian DAE `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)`: the
//! Hamiltonian counterpart of VSPARKsecondary, with two multipliers per projective stage, `Ũ_j`
//! (which makes the vector field tangent, the secondary constraint ψ) and `Λ̃_j` (which keeps the
//! stage on φ = 0).
//!
//! With the coefficients of VSPARKsecondary (internal pair `(g^q, g^p)`, `h` σ×s, the
//! Lobatto(σ) pair `(lq, lp)`, ω, d, the coupling `a_ij = b^{lq}_j (b^g_i − h_ji) / b^g_i`) and
//! `U_j = u(Q̃_j, P̃_j, Ũ_j)`, `Ū_j = u(Q̃_j, P̃_j, Λ̃_j)`, `G_j`, `Ḡ_j` likewise:
//! internal `Q_i = q_n + h(Σ g^q_ij V_j + Σ a_ij (U_j + Ū_j))`,
//! `P_i = p_n + h(Σ g^p_ij F_j + Σ a_ij (G_j + Ḡ_j))` with `V_i = v(Q_i, P_i)`,
//! `F_i = f(Q_i, P_i)`; projective `Q̃_j = q_n + h(Σ h_jk V_k + Σ lq_jk (U_k + Ū_k))`,
//! `P̃_j = p_n + h(Σ h_jk F_k + Σ lp_jk (G_k + Ḡ_k)) − h (d_j / b^{lp}_j) μ`; rows
//! `φ(Q̃_j, P̃_j) = 0`, `Σ_j ω_ij Ψ̃_j + ω_{i,σ+1} φ(q_{n+1}, p_{n+1}) = 0` with
//! `Ψ̃_j = ψ(Q̃_j, P̃_j, Ṽ_j + U_j, F̃_j + G_j)` (ψ of the projected vector field,
//! `Ṽ_j = v(Q̃_j, P̃_j)`, `F̃_j = f(Q̃_j, P̃_j)`), and `Σ_j d_j (Ṽ_j + U_j) = 0`; update
//! `q_{n+1} = q_n + h(Σ b^g V + Σ b^{lq} (U + Ū))`, `p_{n+1} = p_n + h(Σ b^g F + Σ b^{lp} (G + Ḡ))`.
//!
//! **Upstream's form is singular at every s**, which is why its tests assert a
//! `SingularException`: it evaluates ψ at the unprojected `(Ṽ_j, F̃_j)` and the d-row at `Ṽ_j`, so
//! `Ũ_j` and `Λ̃_j` enter every equation only through `u(Ũ_j) + u(Λ̃_j)` and
//! `g(Ũ_j) + g(Λ̃_j)` with equal coefficients. u and g are linear in the multiplier (Dirac's
//! `u = (∂φ/∂p)ᵀλ`, `g = −(∂φ/∂q)ᵀλ`), so the residual is invariant under
//! `(Ũ_j, Λ̃_j) → (Ũ_j + δ_j, Λ̃_j − δ_j)`: the stage Jacobian has a null space of dimension σM
//! (and on a system with `v ≡ 0`, such as the view of a degenerate Lagrangian, the d-row is
//! identically zero as well). [`upstream_rank_deficiency`] computes that null space from the
//! method's exact Jacobian. Evaluating ψ on the projected field, as VSPARKsecondary does with its
//! velocity unknowns, makes `Ũ` and `Λ̃` distinct; on the view of a degenerate Lagrangian
//! (`v = 0`, `u = λ`) the method then coincides with VSPARKsecondary over the same coefficients.
//!
//! Where `u ≡ 0` (a projection acting on p only, e.g. the pendulum's index-2 form) the d-row
//! reads `Σ_j d_j v(Q̃_j, P̃_j) = 0`, a condition on the momenta, and the stage Jacobian is
//! singular (measured at the first step for every pair, `tests/tests/hspark.rs`; at s = 2 the
//! two φ rows coincide): the method is for Dirac constraints, `u = (∂φ/∂p)ᵀλ`.

use super::facts::{Facts, omega_imposes_end};
use super::ir::{
    AtomKind, Coef, DaeFunction, Expr, Input, Kernel, Method, ProblemKind, Role, Term, Width,
    block, combination,
};
use super::spark::{increment_rows, weighted};
use super::vspark_secondary::Coefficients;
use crate::exact::{Num, Precision};
use crate::tableau::{PairKind, TableauError};
use sparkgen_description::jacobian::{Derivative, Var, jacobian};
use std::collections::BTreeMap;

/// Which of the two forms to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// ψ and the d-row on the projected vector field (the method we generate).
    Projected,
    /// Upstream's: ψ at `(Ṽ_j, F̃_j)`, the d-row at `Ṽ_j`.
    Upstream,
}

/// HSPARKsecondary over the Lobatto pair `kind` with `s` stages (`gauss = false`, σ = s, order
/// 2s − 2) or over its Gauss–Lobatto coupling (`gauss = true`, s Gauss stages, σ = s + 1, order
/// 2s), e.g. `HsparkSecondaryLobattoIIIAIIIB3`.
pub fn hspark_secondary(
    kind: PairKind,
    s: usize,
    gauss: bool,
    prec: Precision,
) -> Result<Method, TableauError> {
    build_method(kind, s, gauss, Form::Projected, prec)
}

/// The dimension of the null space of upstream's HSPARKsecondary stage Jacobian that comes from
/// `Ũ` and `Λ̃` entering alike, in units of M (one per projective stage whose two multiplier
/// columns coincide in every row of the exact Jacobian, u and g being linear in the
/// multiplier). Upstream's construction is refused for it: the method is built only in the
/// projected form.
pub fn upstream_rank_deficiency(
    kind: PairKind,
    s: usize,
    gauss: bool,
    prec: Precision,
) -> Result<usize, TableauError> {
    Ok(coinciding_multiplier_columns(&build_method(
        kind,
        s,
        gauss,
        Form::Upstream,
        prec,
    )?))
}

/// The number of projective stages j whose columns `∂/∂Ũ_j` and `∂/∂Λ̃_j` of the exact stage
/// Jacobian coincide in every row for every u, g linear in the multiplier.
fn coinciding_multiplier_columns(m: &Method) -> usize {
    let jac = jacobian(m);
    // A derivative with the multiplier argument of ∂u/∂λ and ∂g/∂λ erased (they do not
    // depend on it: u and g are linear in λ), like monomials collected.
    let canonical = |d: &Derivative<Num>| {
        let mut out: BTreeMap<Vec<String>, BTreeMap<u32, Num>> = BTreeMap::new();
        for (mono, poly) in d {
            let key = mono
                .iter()
                .map(|&a| {
                    let atom = &jac.atoms[a];
                    let mut args: Vec<String> =
                        atom.args.iter().map(|t| format!("{t:?}")).collect();
                    if let AtomKind::DaePartial(DaeFunction::U | DaeFunction::G, 2) = atom.kind {
                        args[2] = "λ".to_owned();
                    }
                    format!("{:?}{args:?}", atom.kind)
                })
                .collect();
            let slot = out.entry(key).or_default();
            for (k, c) in poly {
                let entry = slot.entry(*k).or_insert_with(Num::zero);
                *entry = entry.add(c);
            }
        }
        for poly in out.values_mut() {
            poly.retain(|_, c| !c.clone().cleaned().is_zero());
        }
        out.retain(|_, poly| !poly.is_empty());
        out
    };
    let sigma = m.blocks[U_TILDE].stages;
    (0..sigma)
        .filter(|&j| {
            jac.rows.iter().all(|row| {
                let u = row.get(&Var::Unknown(U_TILDE, j)).map(canonical);
                let l = row.get(&Var::Unknown(LAMBDA, j)).map(canonical);
                u == l
            })
        })
        .count()
}

/// The unknown blocks, in the order of [`Method::blocks`]: `Y`, `Z`, `Ỹ`, `Z̃`, `Ũ`, `Λ̃`, `μ`.
const Y: usize = 0;
const Z: usize = 1;
const Y_TILDE: usize = 2;
const Z_TILDE: usize = 3;
const U_TILDE: usize = 4;
const LAMBDA: usize = 5;
const MU: usize = 6;
/// The row blocks, in the order of [`Method::rows_layout`]: the four increments as their
/// unknowns, then φ̃, the ω rows and the d-row.
const PHI_ROWS: usize = 4;
const OMEGA_ROWS: usize = 5;
const NULL_ROWS: usize = 6;

/// `x + y`.
fn sum(x: Term, y: Term) -> Expr {
    Expr::Linear(vec![(Coef::sign(true), x), (Coef::sign(true), y)])
}

fn build_method(
    kind: PairKind,
    s: usize,
    gauss: bool,
    form: Form,
    prec: Precision,
) -> Result<Method, TableauError> {
    let c = Coefficients::new(kind, s, gauss, prec)?;
    let sigma = c.pair.q.s;
    let (lq, lp) = (&c.pair.q, &c.pair.p);
    let family = Coefficients::family("HsparkSecondary", kind, gauss);
    let doc = c.describe(
        "HSPARKsecondary",
        s,
        "φ at every projective stage and ψ of the projected vector field averaged by ω",
    );
    let coordinates = |name: &str, n: usize, role: Role| block(name, n, role, Width::Coordinates);
    let mut m = Method {
        name: format!("{family}{s}"),
        family,
        doc,
        problem: ProblemKind::HamiltonianDae,
        pair: c.internal.name().to_owned(),
        s,
        order: c.order,
        nodes: c.cg.clone(),
        projective_nodes: lq.c.clone(),
        blocks: vec![
            coordinates("Y", s, Role::PositionIncrement),
            coordinates("Z", s, Role::MomentumIncrement),
            coordinates("Ytilde", sigma, Role::PositionIncrement).projective(),
            coordinates("Ztilde", sigma, Role::MomentumIncrement).projective(),
            block("Utilde", sigma, Role::Multiplier, Width::Constraints).projective(),
            block("Lambda", sigma, Role::Correction, Width::Constraints).projective(),
            coordinates("Mu", 1, Role::Correction),
        ],
        rows_layout: vec![
            coordinates("Y", s, Role::Residual),
            coordinates("Z", s, Role::Residual),
            coordinates("Ytilde", sigma, Role::Residual),
            coordinates("Ztilde", sigma, Role::Residual),
            block("Phi", sigma, Role::Residual, Width::Constraints),
            block("Psi", sigma, Role::Residual, Width::Constraints),
            coordinates("Null", 1, Role::Residual),
        ],
        values: Vec::new(),
        rows: Vec::new(),
        q_next: 0,
        p_next: 0,
        rank_deficient: false,
        multiplier: None,
        facts: Facts::new(omega_imposes_end(&c.omega, sigma)),
        same_equations_as: None,
        declared: None,
    };
    let unknown = |block: usize, stage: usize| Term::Unknown { block, stage };
    let mu = unknown(MU, 0);
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let kernel = |m: &mut Method, name: String, f: DaeFunction, args: Vec<Term>| {
        m.push(name, Expr::Kernel(Kernel::Dae(f), args))
    };
    // Stage points `x_n + h X_i` of the blocks (0, 1) and (2, 3) with v and f there.
    let points = |m: &mut Method, blocks: (usize, usize), n: usize, suffix: &str| {
        (0..n)
            .map(|i| {
                let name = |x: &str| format!("{x}{suffix}_{}", i + 1);
                let q = m.push(
                    name("q"),
                    combination(Some(q0), &[(Num::one(), unknown(blocks.0, i))]),
                );
                let p = m.push(
                    name("p"),
                    combination(Some(p0), &[(Num::one(), unknown(blocks.1, i))]),
                );
                let v = kernel(m, name("v"), DaeFunction::Velocity, vec![q, p]);
                let f = kernel(m, name("f"), DaeFunction::HamiltonianForce, vec![q, p]);
                (q, p, v, f)
            })
            .collect::<Vec<_>>()
    };
    let internal = points(&mut m, (Y, Z), s, "");
    let projective = points(&mut m, (Y_TILDE, Z_TILDE), sigma, "_tilde");
    // U_j + Ū_j and G_j + Ḡ_j, and U_j, G_j for the projected field.
    let (mut us, mut gs, mut projection) = (Vec::new(), Vec::new(), Vec::new());
    for (j, &(q, p, _, _)) in projective.iter().enumerate() {
        let name = |x: &str| format!("{x}_{}", j + 1);
        let u = kernel(
            &mut m,
            name("u"),
            DaeFunction::U,
            vec![q, p, unknown(U_TILDE, j)],
        );
        let u_bar = kernel(
            &mut m,
            name("u_bar"),
            DaeFunction::U,
            vec![q, p, unknown(LAMBDA, j)],
        );
        let g = kernel(
            &mut m,
            name("g"),
            DaeFunction::G,
            vec![q, p, unknown(U_TILDE, j)],
        );
        let g_bar = kernel(
            &mut m,
            name("g_bar"),
            DaeFunction::G,
            vec![q, p, unknown(LAMBDA, j)],
        );
        us.push(m.push(name("u_sum"), sum(u, u_bar)));
        gs.push(m.push(name("g_sum"), sum(g, g_bar)));
        projection.push((u, g));
    }
    let (vs, fs): (Vec<Term>, Vec<Term>) = internal.iter().map(|&(_, _, v, f)| (v, f)).unzip();
    let coupling = c.coupling()?;
    // Y_i − Σ g^q V − Σ a (U + Ū), Z_i − Σ g^p F − Σ a (G + Ḡ),
    // Ỹ_j − Σ h V − Σ lq (U + Ū), Z̃_j − Σ h F − Σ lp (G + Ḡ) (+ (d_j/b^{lp}_j) μ below).
    increment_rows(&mut m, (Y, Y, "y".into()), (&c.g[0], &vs), (&coupling, &us));
    increment_rows(&mut m, (Z, Z, "z".into()), (&c.g[1], &fs), (&coupling, &gs));
    increment_rows(
        &mut m,
        (Y_TILDE, Y_TILDE, "y_tilde".into()),
        (&c.h, &vs),
        (&lq.a, &us),
    );
    for (j, (h, lp)) in c.h.iter().zip(&lp.a).enumerate() {
        let mut terms = vec![(Coef::sign(true), unknown(Z_TILDE, j))];
        terms.extend(
            weighted(h, &fs)
                .into_iter()
                .chain(weighted(lp, &gs))
                .map(|(c, t)| (Coef::new(c.value.neg()), t)),
        );
        terms.push((Coef::new(c.mu_weight(j)?), mu));
        let value = m.push(format!("row_z_tilde_{}", j + 1), Expr::Linear(terms));
        m.row(Z_TILDE, j, value);
    }
    let mut psi = Vec::with_capacity(sigma);
    let mut null_terms = Vec::with_capacity(sigma);
    for (j, (&(q, p, v, f), &(u, g))) in projective.iter().zip(&projection).enumerate() {
        let phi = kernel(
            &mut m,
            format!("phi_tilde_{}", j + 1),
            DaeFunction::Phi,
            vec![q, p],
        );
        m.row(PHI_ROWS, j, phi);
        let (qdot, pdot) = match form {
            Form::Projected => (
                m.push(format!("qdot_tilde_{}", j + 1), sum(v, u)),
                m.push(format!("pdot_tilde_{}", j + 1), sum(f, g)),
            ),
            Form::Upstream => (v, f),
        };
        psi.push(kernel(
            &mut m,
            format!("psi_tilde_{}", j + 1),
            DaeFunction::Psi,
            vec![q, p, qdot, pdot],
        ));
        null_terms.push(qdot);
    }
    let update = |b: &[Num], x: &[Term], beta: &[Num], y: &[Term]| -> Vec<(Num, Term)> {
        b.iter()
            .zip(x)
            .chain(beta.iter().zip(y))
            .map(|(c, t)| (c.clone(), *t))
            .collect()
    };
    m.q_next = m.intern_index(
        "q_next",
        combination(Some(q0), &update(&c.bg, &vs, &lq.b, &us)),
    );
    m.p_next = m.intern_index(
        "p_next",
        combination(Some(p0), &update(&c.bg, &fs, &lp.b, &gs)),
    );
    let next = vec![Term::Value(m.q_next), Term::Value(m.p_next)];
    let phi_next = kernel(&mut m, "phi_next".into(), DaeFunction::Phi, next);
    for (i, row) in c.omega.iter().enumerate() {
        let mut terms = weighted(&row[..sigma], &psi);
        terms.extend(weighted(&row[sigma..], &[phi_next]));
        let value = m.push(format!("omega_{}", i + 1), Expr::Linear(terms));
        m.row(OMEGA_ROWS, i, value);
    }
    let null = m.push("null", Expr::Linear(weighted(&c.d, &null_terms)));
    m.row(NULL_ROWS, 0, null);
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upstream's form has one pair of coinciding multiplier columns per projective stage (a
    /// null space of dimension σM) for every pair and s; the projected form has none.
    #[test]
    fn upstream_form_is_rank_deficient_and_the_projected_form_is_not() {
        let prec = Precision::DEFAULT;
        for gauss in [false, true] {
            for kind in PairKind::SLRK {
                let stages = if gauss { 1..=3 } else { 2..=4 };
                for s in stages {
                    let sigma = if gauss { s + 1 } else { s };
                    let upstream = upstream_rank_deficiency(kind, s, gauss, prec).expect("method");
                    assert_eq!(upstream, sigma, "{kind:?} s = {s}, gauss = {gauss}");
                    let projected = hspark_secondary(kind, s, gauss, prec).expect("method");
                    assert_eq!(
                        coinciding_multiplier_columns(&projected),
                        0,
                        "{}",
                        projected.name
                    );
                }
            }
        }
    }
}
