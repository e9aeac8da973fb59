//! `#[derive(Lagrangian)]`: a general `L(q, v)` from
//! `#[lagrangian(q = [x, y], v = [u, w], lagrangian = L)]`.

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

/// The derive of `sparkgen::problem::Lagrangian<D>`.
pub(crate) const DERIVE: Derive = Derive {
    trait_name: "Lagrangian",
    attribute: "lagrangian",
    keys: &["q", "v", "definitions", "lagrangian"],
    build,
};

/// Lowers L and forms L, ∂L/∂q, p = ∂L/∂v, ∂²L/∂v², ∂²L/∂v∂q and ∂²L/∂q².
fn build(entries: &Entries, input: &Input, errors: &mut Errors) -> Option<Problem> {
    let q_entry = entries.require("q", errors);
    let v_entry = entries.require("v", errors);
    let lagrangian_entry = entries.require("lagrangian", errors);
    let q_names = shape::names(q_entry?, errors);
    let v_names = shape::names(v_entry?, errors);
    let d = q_names.len();
    if d == 0 {
        return None;
    }
    shape::one_per_coordinate(&v_entry?.value, v_names.len(), d, "velocity", errors);
    let mut lw = Lowerer::new(Scope::of_struct(input));
    lw.bind("q", &q_names, errors);
    lw.bind("v", &v_names, errors);
    shape::define(&mut lw, entries, errors);
    let lowered = lower(lw, d, lagrangian_entry.map(|e| &e.value), errors);
    Some(problem(lowered, errors))
}

/// L in the graph, not yet differentiated. It holds no syntax tree (only the extent that errors
/// are spanned over), so a caller can free the tree before the derivatives.
pub(crate) struct Lowered {
    lw: Lowerer,
    d: usize,
    lagrangian: NodeId,
    context: Option<Extent>,
}

/// Lowers L (`lagrangian_expr`, 0 when absent) in `lw`, whose scope binds the `d` coordinates
/// to `q` and the velocities to `v`.
pub(crate) fn lower(
    mut lw: Lowerer,
    d: usize,
    lagrangian_expr: Option<&Expr>,
    errors: &mut Errors,
) -> Lowered {
    let lagrangian = match lagrangian_expr {
        Some(e) => lw.lower(e, errors),
        None => lw.graph.int(0),
    };
    Lowered {
        lw,
        d,
        lagrangian,
        context: lagrangian_expr.map(Extent::of),
    }
}

/// Forms the trait's methods from the lowered L.
pub(crate) fn problem(lowered: Lowered, errors: &mut Errors) -> Problem {
    let Lowered {
        mut lw,
        d,
        lagrangian,
        context,
    } = lowered;
    let q = lw.graph.vector("q", d);
    let v = lw.graph.vector("v", d);
    let force = lw.graph.gradient(lagrangian, &q);
    let force = lw.checked(force, &context, errors, |g| vec![g.int(0); d]);
    let momentum = lw.graph.gradient(lagrangian, &v);
    let momentum = lw.checked(momentum, &context, errors, |g| vec![g.int(0); d]);
    let velocity_hessian = lw.graph.jacobian(&momentum, &v);
    let velocity_hessian = lw.checked(velocity_hessian, &context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });
    let mixed_hessian = lw.graph.jacobian(&momentum, &q);
    let mixed_hessian = lw.checked(mixed_hessian, &context, errors, |g| Lowerer::zeros(g, d, d));
    let position_hessian = lw.graph.jacobian(&force, &q);
    let position_hessian = lw.checked(position_hessian, &context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });

    let qv = [("q", d), ("v", d)];
    let methods = vec![
        Method::new("lagrangian", &qv, Output::Scalar(lagrangian)),
        Method::new("position_gradient", &qv, Output::Vector(force)),
        Method::new("momentum", &qv, Output::Vector(momentum)),
        Method::new("velocity_hessian", &qv, Output::Matrix(velocity_hessian)),
        Method::new("mixed_hessian", &qv, Output::Matrix(mixed_hessian)),
        Method::new("position_hessian", &qv, Output::Matrix(position_hessian)),
    ];
    Problem {
        dims: vec![d],
        graph: lw.graph,
        methods,
        constraint: Vec::new(),
    }
}
