//! `#[derive(HolonomicSystem)]`: `H = ½ pᵀM⁻¹p + V(q)` with `c(q) = 0` from
//! `#[holonomic(q = [x, y], mass = m, potential = V, constraints = [c₁, …])]`.

use super::ast::Input;
use super::attr::Entries;
use super::ctxt::Errors;
use super::expand::{Derive, Problem};
use super::extent::Extent;
use super::lower::{Lowerer, Scope};
use super::mass;
use super::method::{Method, Output};
use super::shape;
use crate::{Matrix, NodeId};
use syn::Expr;

/// The derive of `sparkgen::problem::HolonomicSystem<D, M>`.
pub(crate) const DERIVE: Derive = Derive {
    trait_name: "HolonomicSystem",
    attribute: "holonomic",
    keys: &["q", "definitions", "mass", "potential", "constraints"],
    build,
};

/// Lowers M, V and c and forms M, M⁻¹, V, ∇V, ∇²V, c, Dc, ∂(Dcᵀλ)/∂q and ∂(Dc v)/∂q.
fn build(entries: &Entries, input: &Input, errors: &mut Errors) -> Option<Problem> {
    let q_entry = entries.require("q", errors);
    let mass_entry = entries.require("mass", errors);
    let potential_entry = entries.require("potential", errors);
    let constraints_entry = entries.require("constraints", errors);
    let names = shape::names(q_entry?, errors);
    let constraint_exprs = shape::vector(
        &constraints_entry?.value,
        None,
        "one per constraint",
        errors,
    );
    let (d, m) = (names.len(), constraint_exprs.len());
    if d == 0 || m == 0 {
        return None;
    }
    let mut lw = Lowerer::new(Scope::of_struct(input));
    lw.bind("q", &names, errors);
    shape::define(&mut lw, entries, errors);
    let lowered = lower(
        lw,
        d,
        mass_entry.map(|e| &e.value),
        potential_entry.map(|e| &e.value),
        &constraint_exprs,
        Some(Extent::of(&constraints_entry?.value)),
        errors,
    );
    Some(problem(lowered, errors))
}

/// M, M⁻¹, V and c in the graph, not yet differentiated. It holds no syntax tree (only the
/// extents that errors are spanned over), so a caller can free the trees before the
/// derivatives.
pub(crate) struct Lowered {
    lw: Lowerer,
    d: usize,
    mass: Matrix,
    inverse: Matrix,
    potential: NodeId,
    constraints: Vec<NodeId>,
    potential_context: Option<Extent>,
    constraints_context: Option<Extent>,
}

/// Lowers M (`mass_expr`: scalar, diagonal list or matrix; the identity when absent) and
/// inverts it, V (0 when absent) and the `m ≥ 1` constraints c (`constraints_context` spans
/// them all) in `lw`, whose scope binds the `d` coordinates to `q`.
pub(crate) fn lower(
    mut lw: Lowerer,
    d: usize,
    mass_expr: Option<&Expr>,
    potential_expr: Option<&Expr>,
    constraint_exprs: &[&Expr],
    constraints_context: Option<Extent>,
    errors: &mut Errors,
) -> Lowered {
    let mass = match mass_expr {
        Some(e) => mass::lower(e, d, &mut lw, errors),
        None => mass::identity(&mut lw.graph, d),
    };
    let inverse = match mass::inverse(&mut lw.graph, &mass) {
        Ok(inverse) => inverse,
        Err(singular) => {
            errors.spanned(mass_expr.map(Extent::of), singular);
            Lowerer::zeros(&mut lw.graph, d, d)
        }
    };
    let potential = match potential_expr {
        Some(e) => lw.lower(e, errors),
        None => lw.graph.int(0),
    };
    let constraints = lw.lower_all(constraint_exprs, errors);
    Lowered {
        lw,
        d,
        mass,
        inverse,
        potential,
        constraints,
        potential_context: potential_expr.map(Extent::of),
        constraints_context,
    }
}

/// Forms the trait's methods from the lowered M, M⁻¹, V and c.
pub(crate) fn problem(lowered: Lowered, errors: &mut Errors) -> Problem {
    let Lowered {
        mut lw,
        d,
        mass,
        inverse,
        potential,
        constraints,
        potential_context,
        constraints_context,
    } = lowered;
    let m = constraints.len();
    let q = lw.graph.vector("q", d);
    let lambda = lw.graph.vector("lambda", m);
    let gradient = lw.graph.gradient(potential, &q);
    let gradient = lw.checked(gradient, &potential_context, errors, |g| vec![g.int(0); d]);
    let hessian = lw.graph.hessian(potential, &q);
    let hessian = lw.checked(hessian, &potential_context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });
    let jacobian = lw.graph.jacobian(&constraints, &q);
    let jacobian = lw.checked(jacobian, &constraints_context, errors, |g| {
        Lowerer::zeros(g, m, d)
    });
    let force_derivative = lw
        .graph
        .jacobian_transpose_vector_derivative(&constraints, &q, &lambda);
    let force_derivative = lw.checked(force_derivative, &constraints_context, errors, |g| {
        Lowerer::zeros(g, d, d)
    });
    let v = lw.graph.vector("v", d);
    let velocity_derivative = lw.graph.jacobian_vector_derivative(&constraints, &q, &v);
    let velocity_derivative = lw.checked(velocity_derivative, &constraints_context, errors, |g| {
        Lowerer::zeros(g, m, d)
    });

    let methods = vec![
        Method::new("mass_matrix", &[], Output::Matrix(mass)),
        Method::new("inverse_mass_matrix", &[], Output::Matrix(inverse)),
        Method::new("potential", &[("q", d)], Output::Scalar(potential)),
        Method::new("potential_gradient", &[("q", d)], Output::Vector(gradient)),
        Method::new("potential_hessian", &[("q", d)], Output::Matrix(hessian)),
        Method::new("constraints", &[("q", d)], Output::Vector(constraints)),
        Method::new("constraint_jacobian", &[("q", d)], Output::Matrix(jacobian)),
        Method::new(
            "constraint_force_derivative",
            &[("q", d), ("lambda", m)],
            Output::Matrix(force_derivative),
        ),
        Method::new(
            "constraint_velocity_derivative",
            &[("q", d), ("v", d)],
            Output::Matrix(velocity_derivative),
        ),
    ];
    Problem {
        dims: vec![d, m],
        graph: lw.graph,
        methods,
        constraint: Vec::new(),
    }
}
