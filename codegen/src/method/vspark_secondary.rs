//! VSPARKsecondary (GeometricIntegrators.jl, `src/spark/integrators_vspark_secondary.jl`) on a
//! degenerate Lagrangian `L = ϑ(q)·v − H(q)`: σ projective stages carrying velocities `Ṽ_j` and
//! multipliers `Λ̃_j`, the primary constraint at every projective stage and the secondary
//! constraint `ψ(q, v) = J(q)ᵀv − J(q)v − ∇H(q)` averaged by ω, with s internal stages for the
//! force `−∇H`.
//!
//! From a tableau `g` (s stages), coefficients `h` (σ×s) and a Lobatto(σ) pair `(lq, lp)`:
//! the internal coupling `a_ij = b^{lq}_j (b^g_i − h_ji) / b^g_i` (s×σ);
//! `Q_i = q_n + h Σ_j a_ij (Ṽ_j + Λ̃_j)`, `F_i = −∇H(Q_i)` (i = 1..s);
//! `Q̃_i = q_n + h Σ_j lq_ij (Ṽ_j + Λ̃_j)`, `G_j = J(Q̃_j)ᵀṼ_j`, `Ḡ_j = J(Q̃_j)ᵀΛ̃_j`,
//! `P̃_i = p_n + h Σ_j h_ij F_j + h Σ_j lp_ij (G_j + Ḡ_j) − h (d_i / b^{lp}_i) μ` (i = 1..σ);
//! rows `P̃_i − ϑ(Q̃_i) = 0`, `Σ_j ω_ij ψ(Q̃_j, Ṽ_j) + ω_{i,σ+1} φ(q_{n+1}, p_{n+1}) = 0` and
//! `Σ_i d_i Ṽ_i = 0`; update `q_{n+1} = q_n + h Σ_j b^{lq}_j (Ṽ_j + Λ̃_j)`,
//! `p_{n+1} = p_n + h Σ_i b^g_i F_i + h Σ_j b^{lp}_j (G_j + Ḡ_j)`.
//!
//! The force convention is the family's own: `f = −∇H` with `J(q)ᵀv` added as `G` (upstream's
//! finding S12: SLRK takes the full `∂L/∂q`); the problem supplies ϑ, J and ∇H either way.
//!
//! Variants: over a Lobatto pair (σ = s, `g = lq`, `h = lp`, ω = `lobatto_ω_matrix(s)`), where
//! `a = conj(lp) = lq` and the method is SLRK over the same pair with μ scaled by h; and the
//! Gauss–Lobatto coupling (σ = s + 1, `g` = Gauss(s), `h` = `lobatto_gauss_coefficients(s, σ)`,
//! ω = `gauss_ω_matrix(σ)`), order 2s.

use super::facts::{Facts, omega_imposes_end};
use super::ir::{
    Coef, Expr, Input, Kernel, Method, ProblemKind, Role, Term, Width, block, combination, minus,
};
use super::slrk::slrk_name;
use crate::exact::{Matrix, Num, Precision};
use crate::spark::{
    gauss_omega_matrix, lobatto_gauss_coefficients, lobatto_null_vector, lobatto_omega_matrix,
};
use crate::tableau::{Family, PairKind, PartitionedTableau, TableauError, build};

/// The coefficients of one VSPARKsecondary (or HSPARKsecondary) method.
pub(super) struct Coefficients {
    /// The internal stages' own coupling `(g^q, g^p)`, a symplectic pair: Gauss(s) twice, or
    /// the Lobatto pair `(lq, lp)` (σ = s).
    pub(super) g: [Matrix; 2],
    /// Internal weights `b^g` (s).
    pub(super) bg: Vec<Num>,
    /// Internal nodes `c^g` (s).
    pub(super) cg: Vec<Num>,
    /// `h`, σ×s.
    pub(super) h: Matrix,
    /// The Lobatto(σ) pair `(lq, lp)`.
    pub(super) pair: PartitionedTableau,
    /// ω, σ×(σ+1).
    pub(super) omega: Matrix,
    /// d (σ).
    pub(super) d: Vec<Num>,
    /// The declared order: 2s (Gauss–Lobatto) or 2s − 2 (Lobatto).
    pub(super) order: usize,
    /// The pair of the internal stages: Gauss(s) for the coupling, the Lobatto pair otherwise.
    pub(super) internal: PairKind,
}

impl Coefficients {
    /// Over the Lobatto pair `kind` with `s` stages (`gauss = false`, σ = s) or its
    /// Gauss–Lobatto coupling (`gauss = true`, s Gauss stages, σ = s + 1).
    pub(super) fn new(
        kind: PairKind,
        s: usize,
        gauss: bool,
        prec: Precision,
    ) -> Result<Coefficients, TableauError> {
        let sigma = if gauss { s + 1 } else { s };
        let pair = PartitionedTableau::build(kind, sigma, prec)?;
        Ok(if gauss {
            let g = build(Family::Gauss, s, prec)?;
            Coefficients {
                g: [g.a.clone(), g.a],
                bg: g.b,
                cg: g.c,
                h: lobatto_gauss_coefficients(s, sigma, prec)?.a,
                pair,
                omega: gauss_omega_matrix(sigma, prec)?,
                d: lobatto_null_vector(sigma, prec)?,
                order: 2 * s,
                internal: PairKind::Gauss,
            }
        } else {
            Coefficients {
                g: [pair.q.a.clone(), pair.p.a.clone()],
                bg: pair.q.b.clone(),
                cg: pair.q.c.clone(),
                h: pair.p.a.clone(),
                omega: lobatto_omega_matrix(s, prec)?,
                d: lobatto_null_vector(s, prec)?,
                pair,
                order: 2 * s - 2,
                internal: kind,
            }
        })
    }

    /// The internal stages' coupling to the projective ones,
    /// `a_ij = b^{lq}_j (b^g_i − h_ji) / b^g_i` (s×σ).
    pub(super) fn coupling(&self) -> Result<Matrix, TableauError> {
        let lq = &self.pair.q;
        self.bg
            .iter()
            .enumerate()
            .map(|(i, bg)| {
                (0..lq.s)
                    .map(|j| {
                        lq.b[j]
                            .mul(&bg.sub(&self.h[j][i]))
                            .div(bg)
                            .ok_or(TableauError::ZeroWeight { index: i })
                    })
                    .collect()
            })
            .collect()
    }

    /// The family name `{method}{Glrk}{pair}`, e.g. `VsparkSecondaryGlrkLobattoIIIAB`.
    pub(super) fn family(method: &str, kind: PairKind, gauss: bool) -> String {
        let prefix = if gauss { "Glrk" } else { "" };
        format!("{method}{prefix}{}", slrk_name(kind))
    }

    /// The doc line of `method` with `s` internal stages, ending with `what` it imposes.
    pub(super) fn describe(&self, method: &str, s: usize, what: &str) -> String {
        format!(
            "{method} over ({}, {}) with {s} internal and σ = {} projective stages: order {}, {what}.",
            self.pair.q.name(),
            self.pair.p.name(),
            self.pair.q.s,
            self.order,
        )
    }

    /// `dᵢ / b^{lp}_i`, the weight of μ in projective momentum row i.
    pub(super) fn mu_weight(&self, i: usize) -> Result<Num, TableauError> {
        self.d[i]
            .div(&self.pair.p.b[i])
            .ok_or(TableauError::ZeroWeight { index: i })
    }
}

/// VSPARKsecondary over the Lobatto pair `kind` with `s` stages (`gauss = false`, σ = s, order
/// 2s − 2) or over its Gauss–Lobatto coupling (`gauss = true`, s Gauss stages, σ = s + 1, order
/// 2s).
pub fn vspark_secondary(
    kind: PairKind,
    s: usize,
    gauss: bool,
    prec: Precision,
) -> Result<Method, TableauError> {
    let c = Coefficients::new(kind, s, gauss, prec)?;
    let family = Coefficients::family("VsparkSecondary", kind, gauss);
    let doc = c.describe(
        "VSPARKsecondary",
        s,
        "the primary constraint at every projective stage",
    );
    build_method(family, doc, s, &c)
}

fn build_method(
    family: String,
    doc: String,
    s: usize,
    c: &Coefficients,
) -> Result<Method, TableauError> {
    let sigma = c.pair.q.s;
    let (lq, lp) = (&c.pair.q, &c.pair.p);
    let mut m = Method {
        name: format!("{family}{s}"),
        family,
        doc,
        problem: ProblemKind::DegenerateLagrangian,
        pair: c.internal.name().to_owned(),
        s,
        order: c.order,
        nodes: lq.c.clone(),
        projective_nodes: Vec::new(),
        blocks: vec![
            block("V", sigma, Role::Velocity, Width::Coordinates),
            block("Lambda", sigma, Role::Multiplier, Width::Constraints),
            block("Mu", 1, Role::Correction, Width::Constraints),
        ],
        rows_layout: vec![
            block("Phi", sigma, Role::Residual, Width::Constraints),
            block("Psi", sigma, Role::Residual, Width::Coordinates),
            block("Null", 1, Role::Residual, Width::Coordinates),
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
    let v = |j| Term::Unknown { block: 0, stage: j };
    let lam = |j| Term::Unknown { block: 1, stage: j };
    let mu = Term::Unknown { block: 2, stage: 0 };
    let (q0, p0) = (Term::Input(Input::Q), Term::Input(Input::P));
    let position = |m: &mut Method, name: String, row: &[Num]| {
        let terms: Vec<(Num, Term)> = row
            .iter()
            .enumerate()
            .flat_map(|(j, a)| [(a.clone(), v(j)), (a.clone(), lam(j))])
            .collect();
        m.intern_index(name, combination(Some(q0), &terms))
    };
    // Internal stages: a_ij = b^{lq}_j (b^g_i − h_ji) / b^g_i.
    let coupling = c.coupling()?;
    let mut forces = Vec::with_capacity(s);
    for (i, row) in coupling.iter().enumerate() {
        let q = Term::Value(position(&mut m, format!("q_{}", i + 1), row));
        let grad = m.intern(
            format!("grad_h_{}", i + 1),
            Expr::Kernel(Kernel::Gradient, vec![q]),
        );
        forces.push(m.intern(
            format!("f_{}", i + 1),
            Expr::Linear(vec![(Coef::sign(false), grad)]),
        ));
    }
    let (mut points, mut g, mut g_bar) = (Vec::new(), Vec::new(), Vec::new());
    for j in 0..sigma {
        let q = Term::Value(position(&mut m, format!("q_tilde_{}", j + 1), &lq.a[j]));
        g.push(m.intern(
            format!("g_{}", j + 1),
            Expr::Kernel(Kernel::JacT, vec![q, v(j)]),
        ));
        g_bar.push(m.intern(
            format!("g_bar_{}", j + 1),
            Expr::Kernel(Kernel::JacT, vec![q, lam(j)]),
        ));
        points.push(q);
    }
    let momentum = |m: &mut Method, name: String, internal: &[Num], projective: &[Num]| {
        let terms: Vec<(Num, Term)> = internal
            .iter()
            .zip(&forces)
            .map(|(a, f)| (a.clone(), *f))
            .chain(
                projective
                    .iter()
                    .enumerate()
                    .flat_map(|(j, a)| [(a.clone(), g[j]), (a.clone(), g_bar[j])]),
            )
            .collect();
        m.intern_index(name, combination(Some(p0), &terms))
    };
    let mut psi = Vec::with_capacity(sigma);
    for i in 0..sigma {
        let p = Term::Value(momentum(
            &mut m,
            format!("p_tilde_{}", i + 1),
            &c.h[i],
            &lp.a[i],
        ));
        let weight = c.mu_weight(i)?;
        let theta = m.intern(
            format!("theta_tilde_{}", i + 1),
            Expr::Kernel(Kernel::Map, vec![points[i]]),
        );
        let phi = m.push(
            format!("phi_tilde_{}", i + 1),
            Expr::Linear(vec![
                (Coef::sign(true), p),
                (Coef::sign(false), theta),
                (Coef::h(weight.neg()), mu),
            ]),
        );
        m.row(0, i, phi);
        // ψ(Q̃_i, Ṽ_i) = J(Q̃_i)ᵀṼ_i − J(Q̃_i)Ṽ_i − ∇H(Q̃_i).
        let jv = m.intern(
            format!("jv_{}", i + 1),
            Expr::Kernel(Kernel::Jac, vec![points[i], v(i)]),
        );
        let grad = m.intern(
            format!("grad_h_tilde_{}", i + 1),
            Expr::Kernel(Kernel::Gradient, vec![points[i]]),
        );
        psi.push(m.push(
            format!("psi_{}", i + 1),
            Expr::Linear(vec![
                (Coef::sign(true), g[i]),
                (Coef::sign(false), jv),
                (Coef::sign(false), grad),
            ]),
        ));
    }
    m.q_next = position(&mut m, "q_next".into(), &lq.b);
    m.p_next = momentum(&mut m, "p_next".into(), &c.bg, &lp.b);
    let theta1 = m.intern(
        "theta_next",
        Expr::Kernel(Kernel::Map, vec![Term::Value(m.q_next)]),
    );
    let phi1 = m.push("phi_next", minus(Term::Value(m.p_next), theta1));
    for (i, row) in c.omega.iter().enumerate() {
        let mut terms: Vec<(Coef, Term)> = (0..sigma)
            .filter(|&j| !row[j].is_zero())
            .map(|j| (Coef::new(row[j].clone()), psi[j]))
            .collect();
        if !row[sigma].is_zero() {
            terms.push((Coef::new(row[sigma].clone()), phi1));
        }
        let r = m.push(format!("omega_{}", i + 1), Expr::Linear(terms));
        m.row(1, i, r);
    }
    let null = Expr::Linear(
        (0..sigma)
            .filter(|&i| !c.d[i].is_zero())
            .map(|i| (Coef::new(c.d[i].clone()), v(i)))
            .collect(),
    );
    let null = m.push("null", null);
    m.row(2, 0, null);
    Ok(m)
}
