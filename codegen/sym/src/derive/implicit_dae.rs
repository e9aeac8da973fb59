//! `#[derive(ImplicitDae)]`: Jay's index-2 implicit DAE
//! `q̇ = v + u(q, p, λ)`, `ṗ = f(q, v) + g(q, p, λ)`, `p = ϑ(q, v)`, `0 = φ(q, p)` from
//! `#[implicit_dae(q = [..], v = [..], p = [..], lambda = [..], theta = [ϑ₁, …], force = [f₁, …],
//! u = [u₁, …], g = [g₁, …], phi = [φ₁, …], velocity = [v̄₁, …], energy = E)]`.

use super::ast::Input;
use super::attr::{Entries, Entry};
use super::ctxt::Errors;
use super::expand::{Derive, Problem};
use super::lower::{Lowerer, Scope};
use super::method::{Method, Output};
use super::partials::value_and_partials;
use super::shape;

/// The derive of `sparkgen::problem::ImplicitDae<D, M>`.
pub(crate) const DERIVE: Derive = Derive {
    trait_name: "ImplicitDae",
    attribute: "implicit_dae",
    keys: &[
        "q",
        "v",
        "p",
        "lambda",
        "definitions",
        "theta",
        "force",
        "u",
        "g",
        "phi",
        "velocity",
        "energy",
    ],
    build,
};

/// One vector-valued function of the system, given as the attribute's `key = [...]`.
struct Function {
    /// The attribute key.
    key: &'static str,
    /// The trait method returning its value.
    method: &'static str,
    /// The state vectors it depends on, in the order of its method's arguments.
    arguments: &'static [&'static str],
    /// The trait methods returning its Jacobian with respect to each of `arguments`
    /// (`∂ϑ/∂q`, `∂ϑ/∂v`, …), or none.
    derivatives: &'static [&'static str],
    /// Whether it has one component per multiplier (`φ`) instead of one per coordinate.
    per_multiplier: bool,
    /// Whether the key may be left out (its value is then `0`).
    optional: bool,
    /// Whether its methods belong to `DaeConstraint` (`u`, `g`, `φ`) rather than `ImplicitDae`.
    constraint: bool,
}

/// ϑ, f, u, g, φ and the velocity guess `v̄`, in trait order.
const FUNCTIONS: [Function; 6] = [
    Function {
        key: "theta",
        method: "theta",
        arguments: &["q", "v"],
        derivatives: &["theta_dq", "theta_dv"],
        per_multiplier: false,
        optional: false,
        constraint: false,
    },
    Function {
        key: "force",
        method: "force",
        arguments: &["q", "v"],
        derivatives: &["force_dq", "force_dv"],
        per_multiplier: false,
        optional: false,
        constraint: false,
    },
    Function {
        key: "u",
        method: "u",
        arguments: &["q", "p", "lambda"],
        derivatives: &["u_dq", "u_dp", "u_dlambda"],
        per_multiplier: false,
        optional: false,
        constraint: true,
    },
    Function {
        key: "g",
        method: "g",
        arguments: &["q", "p", "lambda"],
        derivatives: &["g_dq", "g_dp", "g_dlambda"],
        per_multiplier: false,
        optional: false,
        constraint: true,
    },
    Function {
        key: "phi",
        method: "phi",
        arguments: &["q", "p"],
        derivatives: &["phi_dq", "phi_dp"],
        per_multiplier: true,
        optional: false,
        constraint: true,
    },
    Function {
        key: "velocity",
        method: "initial_velocity",
        arguments: &["q", "p"],
        derivatives: &[],
        per_multiplier: false,
        optional: true,
        constraint: false,
    },
];

/// The state vectors the energy `E(q, p)` depends on.
const ENERGY_ARGUMENTS: [&str; 2] = ["q", "p"];

/// Binds the names of `q`, `v`, `p` and `λ`, lowers every function in the state vectors it
/// depends on only, and forms its value and its Jacobians `∂·/∂q`, `∂·/∂v`, `∂·/∂p`, `∂·/∂λ`
/// (with `E(q, p)` when `energy` is given).
fn build(entries: &Entries, input: &Input, errors: &mut Errors) -> Option<Problem> {
    let q_entry = entries.require("q", errors);
    let v_entry = entries.require("v", errors);
    let p_entry = entries.require("p", errors);
    let lambda_entry = entries.require("lambda", errors);
    let function_entries: Vec<Option<&Entry>> = FUNCTIONS
        .iter()
        .map(|f| {
            if f.optional {
                entries.get(f.key)
            } else {
                entries.require(f.key, errors)
            }
        })
        .collect();
    let q_names = shape::names(q_entry?, errors);
    let lambda_names = shape::names(lambda_entry?, errors);
    let (d, m) = (q_names.len(), lambda_names.len());
    if d == 0 || m == 0 {
        return None;
    }
    let v_names = shape::coordinate_names(v_entry, d, "velocity", errors);
    let p_names = shape::coordinate_names(p_entry, d, "momentum", errors);
    let mut lw = Lowerer::new(Scope::of_struct(input));
    lw.bind("q", &q_names, errors);
    lw.bind("v", &v_names, errors);
    lw.bind("p", &p_names, errors);
    lw.bind("lambda", &lambda_names, errors);
    shape::define(&mut lw, entries, errors);
    let len = |vector: &str| if vector == "lambda" { m } else { d };

    let (mut own, mut constraint) = (Vec::new(), Vec::new());
    for (function, entry) in FUNCTIONS.iter().zip(function_entries) {
        let methods = if function.constraint {
            &mut constraint
        } else {
            &mut own
        };
        let (n, what) = if function.per_multiplier {
            (m, "one per multiplier in `lambda`")
        } else {
            (d, "one per coordinate in `q`")
        };
        let exprs = entry
            .map(|e| shape::vector(&e.value, Some(n), what, errors))
            .unwrap_or_default();
        let signature = format!("{}({})", function.key, function.arguments.join(", "));
        let values = lw.lower_function(&signature, function.arguments, &exprs, errors);
        let values = lw.fit(values, n);
        let args: Vec<(&'static str, usize)> =
            function.arguments.iter().map(|a| (*a, len(a))).collect();
        let context = entry.map(|e| &e.value);
        methods.extend(value_and_partials(
            &mut lw,
            function.method,
            &args,
            function.derivatives,
            values,
            &context,
            errors,
        ));
    }
    if let Some(entry) = entries.get("energy") {
        let energy = lw.lower_function("energy(q, p)", &ENERGY_ARGUMENTS, &[&entry.value], errors);
        let args = ENERGY_ARGUMENTS.map(|a| (a, d));
        // One expression in, one node out.
        own.push(Method::new("energy", &args, Output::SomeScalar(energy[0])));
    }
    Some(Problem {
        dims: vec![d, m],
        graph: lw.graph,
        methods: own,
        constraint,
    })
}
