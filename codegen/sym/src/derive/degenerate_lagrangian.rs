//! `#[derive(DegenerateLagrangian)]`: `L(q, v) = ϑ(q)·v − H(q)` from
//! `#[lagrangian(q = [x, y], theta = [ϑ₁, ϑ₂], hamiltonian = H)]`.

use super::ast::Input;
use super::attr::Entries;
use super::ctxt::Errors;
use super::expand::{Derive, Problem};
use super::extent::Extent;
use super::lower::{Lowerer, Scope};
use super::method::{Method, Output};
use super::shape;
use crate::NodeId;
use syn::Expr;

/// The derive of `sparkgen::problem::DegenerateLagrangian<D>`.
pub(crate) const DERIVE: Derive = Derive {
    trait_name: "DegenerateLagrangian",
    attribute: "lagrangian",
    keys: &["q", "definitions", "theta", "hamiltonian"],
    build,
};

/// Lowers ϑ and H and forms ϑ, J = ∂ϑ/∂q, H, ∇H, ∇²H, ∂(Jᵀw)/∂q and ∂(Jv)/∂q.
fn build(entries: &Entries, input: &Input, errors: &mut Errors) -> Option<Problem> {
    let q_entry = entries.require("q", errors);
    let theta_entry = entries.require("theta", errors);
    let hamiltonian_entry = entries.require("hamiltonian", errors);
    let names = shape::names(q_entry?, errors);
    let d = names.len();
    if d == 0 {
        return None;
    }
    let mut lw = Lowerer::new(Scope::of_struct(input));
    lw.bind("q", &names, errors);
    shape::define(&mut lw, entries, errors);
    let theta_exprs = theta_entry
        .map(|e| shape::vector(&e.value, Some(d), "one per coordinate in `q`", errors))
        .unwrap_or_default();
    let lowered = lower(
        lw,
        d,
        &theta_exprs,
        hamiltonian_entry.map(|e| &e.value),
        theta_entry.map(|e| Extent::of(&e.value)),
        errors,
    );
    Some(problem(lowered, errors))
}

/// ϑ and H in the graph, not yet differentiated. It holds no syntax tree (only the extents
/// that errors are spanned over), so a caller can free the trees before the derivatives.
pub(crate) struct Lowered {
    lw: Lowerer,
    d: usize,
    theta: Vec<NodeId>,
    hamiltonian: NodeId,
    theta_context: Option<Extent>,
    hamiltonian_context: Option<Extent>,
}

/// Lowers ϑ (`theta_exprs`, `d` components; `theta_context` spans them all) and H (0 when
/// absent) in `lw`, whose scope binds the coordinates to `q`.
pub(crate) fn lower(
    mut lw: Lowerer,
    d: usize,
    theta_exprs: &[&Expr],
    hamiltonian_expr: Option<&Expr>,
    theta_context: Option<Extent>,
    errors: &mut Errors,
) -> Lowered {
    let theta = lw.lower_all(theta_exprs, errors);
    let theta = lw.fit(theta, d);
    let hamiltonian = match hamiltonian_expr {
        Some(e) => lw.lower(e, errors),
        None => lw.graph.int(0),
    };
    Lowered {
        lw,
        d,
        theta,
        hamiltonian,
        theta_context,
        hamiltonian_context: hamiltonian_expr.map(Extent::of),
    }
}

/// Forms the trait's methods from the lowered ϑ and H.
pub(crate) fn problem(lowered: Lowered, errors: &mut Errors) -> Problem {
    let Lowered {
        mut lw,
        d,
        theta,
        hamiltonian,
        theta_context,
        hamiltonian_context,
    } = lowered;
    let q = lw.graph.vector("q", d);
    let w = lw.graph.vector("w", d);
    let v = lw.graph.vector("v", d);
    let jacobian = lw.graph.jacobian(&theta, &q);
    let jacobian = lw.checked(jacobian, &theta_context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });
    let gradient = lw.graph.gradient(hamiltonian, &q);
    let gradient = lw.checked(gradient, &hamiltonian_context, errors, |g| {
        vec![g.int(0); d]
    });
    let hessian = lw.graph.hessian(hamiltonian, &q);
    let hessian = lw.checked(hessian, &hamiltonian_context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });
    let jtw = lw
        .graph
        .jacobian_transpose_vector_derivative(&theta, &q, &w);
    let jtw = lw.checked(jtw, &theta_context, errors, |g| Lowerer::zeros(g, d, d));
    let jv = lw.graph.jacobian_vector_derivative(&theta, &q, &v);
    let jv = lw.checked(jv, &theta_context, errors, |g| Lowerer::zeros(g, d, d));

    let methods = vec![
        Method::new("theta", &[("q", d)], Output::Vector(theta)),
        Method::new("theta_jacobian", &[("q", d)], Output::Matrix(jacobian)),
        Method::new("hamiltonian", &[("q", d)], Output::Scalar(hamiltonian)),
        Method::new(
            "hamiltonian_gradient",
            &[("q", d)],
            Output::Vector(gradient),
        ),
        Method::new("hamiltonian_hessian", &[("q", d)], Output::Matrix(hessian)),
        Method::new(
            "jacobian_transpose_product_derivative",
            &[("q", d), ("w", d)],
            Output::Matrix(jtw),
        ),
        Method::new(
            "jacobian_product_derivative",
            &[("q", d), ("v", d)],
            Output::Matrix(jv),
        ),
    ];
    Problem {
        dims: vec![d],
        graph: lw.graph,
        methods,
        constraint: Vec::new(),
    }
}
