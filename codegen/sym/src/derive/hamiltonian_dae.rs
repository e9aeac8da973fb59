//! `#[derive(HamiltonianDae)]`: the Hamiltonian DAE with Dirac constraints
//! `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)` from
//! `#[hamiltonian_dae(q = [..], p = [..], lambda = [..], hamiltonian = H, phi = [φ₁, …])]`.
//!
//! From Dirac's total Hamiltonian `H_T = H + λ·φ`: `v = ∂H/∂p`, `f = −∂H/∂q`,
//! `u = (∂φ/∂p)ᵀλ`, `g = −(∂φ/∂q)ᵀλ`. Each of `velocity`, `force`, `u` and `g` may instead be
//! given explicitly (a system without a Hamiltonian gives both `velocity` and `force`); `H`, when
//! given, is also the energy the diagnostics measure. The secondary constraint
//! `ψ = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ` and its partials in `q` and `p` follow from φ.

use super::ast::Input;
use super::attr::{Entries, Entry};
use super::ctxt::Errors;
use super::expand::{Derive, Problem};
use super::lower::{Lowerer, Scope};
use super::method::{Method, Output};
use super::partials::value_and_partials;
use super::shape;
use crate::{Matrix, NodeId};

/// The derive of `sparkgen::problem::HamiltonianDae<D, M>`.
pub(crate) const DERIVE: Derive = Derive {
    trait_name: "HamiltonianDae",
    attribute: "hamiltonian_dae",
    keys: &[
        "q",
        "p",
        "lambda",
        "definitions",
        "hamiltonian",
        "phi",
        "velocity",
        "force",
        "u",
        "g",
    ],
    build,
};

/// The state vectors of v, f, φ and H.
const STATE: [&str; 2] = ["q", "p"];
/// The state vectors of u and g.
const WITH_MULTIPLIER: [&str; 3] = ["q", "p", "lambda"];

/// Binds the names of `q`, `p` and `λ`, lowers H and φ and whichever of v, f, u, g are given,
/// derives the others, and forms every value with its Jacobians and ψ's partials.
fn build(entries: &Entries, input: &Input, errors: &mut Errors) -> Option<Problem> {
    let q_entry = entries.require("q", errors);
    let p_entry = entries.require("p", errors);
    let lambda_entry = entries.require("lambda", errors);
    let phi_entry = entries.require("phi", errors);
    let h_entry = entries.get("hamiltonian");
    // Without H, v and f must both be given.
    for key in ["velocity", "force"] {
        if h_entry.is_none() && entries.get(key).is_none() {
            entries.missing(
                format!("missing key `{key}` (give `{key}`, or `hamiltonian` to derive it)"),
                errors,
            );
        }
    }
    let q_names = shape::names(q_entry?, errors);
    let lambda_names = shape::names(lambda_entry?, errors);
    let (d, m) = (q_names.len(), lambda_names.len());
    if d == 0 || m == 0 {
        return None;
    }
    let p_names = shape::coordinate_names(p_entry, d, "momentum", errors);
    let mut lw = Lowerer::new(Scope::of_struct(input));
    lw.bind("q", &q_names, errors);
    lw.bind("p", &p_names, errors);
    lw.bind("lambda", &lambda_names, errors);
    shape::define(&mut lw, entries, errors);
    let (q, p) = (lw.graph.vector("q", d), lw.graph.vector("p", d));
    let lambda = lw.graph.vector("lambda", m);
    let state = STATE.map(|a| (a, d));
    let with_multiplier = [("q", d), ("p", d), ("lambda", m)];

    let hamiltonian =
        h_entry.map(|e| lw.lower_function("hamiltonian(q, p)", &STATE, &[&e.value], errors)[0]);
    let phi = given(&mut lw, phi_entry, "phi(q, p)", &STATE, m, errors);
    let phi_context = phi_entry.map(|e| &e.value);
    let phi_dq = lw.graph.jacobian(&phi, &q);
    let phi_dq = lw.checked(phi_dq, &phi_context, errors, |g| Lowerer::zeros(g, m, d));
    let phi_dp = lw.graph.jacobian(&phi, &p);
    let phi_dp = lw.checked(phi_dp, &phi_context, errors, |g| Lowerer::zeros(g, m, d));

    // v = ∂H/∂p and f = −∂H/∂q unless given.
    let h_context = h_entry.map(|e| &e.value);
    let mut hamiltonian_field = |lw: &mut Lowerer, key: &str, wrt: &[NodeId], sign: bool| {
        let entry = entries.get(key);
        match (entry, hamiltonian) {
            (None, Some(h)) => {
                let gradient = lw.graph.gradient(h, wrt);
                let gradient = lw.checked(gradient, &h_context, errors, |g| vec![g.int(0); d]);
                (signed(lw, gradient, sign), h_context)
            }
            _ => {
                let signature = format!("{key}(q, p)");
                let values = given(lw, entry, &signature, &STATE, d, errors);
                (values, entry.map(|e| &e.value))
            }
        }
    };
    let (velocity, velocity_context) = hamiltonian_field(&mut lw, "velocity", &p, true);
    let (force, force_context) = hamiltonian_field(&mut lw, "force", &q, false);

    // u = (∂φ/∂p)ᵀλ and g = −(∂φ/∂q)ᵀλ unless given.
    let mut projection =
        |lw: &mut Lowerer, key: &str, gradient: &Matrix, sign: bool| match entries.get(key) {
            Some(e) => {
                let signature = format!("{key}(q, p, lambda)");
                let values = given(lw, Some(e), &signature, &WITH_MULTIPLIER, d, errors);
                (values, Some(&e.value))
            }
            None => {
                let values = lw.graph.mat_t_vec(gradient, &lambda);
                let values = lw.checked(values, &phi_context, errors, |g| vec![g.int(0); d]);
                (signed(lw, values, sign), phi_context)
            }
        };
    let (u, u_context) = projection(&mut lw, "u", &phi_dp, true);
    let (g, g_context) = projection(&mut lw, "g", &phi_dq, false);

    // ψ = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ, differentiated in q and p at fixed q̇, ṗ.
    let (qdot, pdot) = (lw.graph.vector("qdot", d), lw.graph.vector("pdot", d));
    let psi = lw.graph.mat_vec(&phi_dq, &qdot).and_then(|a| {
        let b = lw.graph.mat_vec(&phi_dp, &pdot)?;
        Ok(a.iter()
            .zip(&b)
            .map(|(&x, &y)| lw.graph.add(x, y))
            .collect::<Vec<_>>())
    });
    let psi = lw.checked(psi, &phi_context, errors, |g| vec![g.int(0); m]);
    let psi_args = [("q", d), ("p", d), ("qdot", d), ("pdot", d)];
    let mut own = Vec::new();
    own.extend(value_and_partials(
        &mut lw,
        "velocity",
        &state,
        &["velocity_dq", "velocity_dp"],
        velocity,
        &velocity_context,
        errors,
    ));
    own.extend(value_and_partials(
        &mut lw,
        "force",
        &state,
        &["force_dq", "force_dp"],
        force,
        &force_context,
        errors,
    ));
    // `psi` itself is the trait's provided method; only its partials in q and p are emitted.
    let mut psi_methods = value_and_partials(
        &mut lw,
        "psi",
        &psi_args,
        &["psi_dq", "psi_dp"],
        psi,
        &phi_context,
        errors,
    );
    psi_methods.remove(0);
    own.extend(psi_methods);
    if let Some(h) = hamiltonian {
        own.push(Method::new("hamiltonian", &state, Output::SomeScalar(h)));
    }
    let mut constraint = value_and_partials(
        &mut lw,
        "u",
        &with_multiplier,
        &["u_dq", "u_dp", "u_dlambda"],
        u,
        &u_context,
        errors,
    );
    constraint.extend(value_and_partials(
        &mut lw,
        "g",
        &with_multiplier,
        &["g_dq", "g_dp", "g_dlambda"],
        g,
        &g_context,
        errors,
    ));
    constraint.push(Method::new("phi", &state, Output::Vector(phi)));
    constraint.push(Method::new("phi_dq", &state, Output::Matrix(phi_dq)));
    constraint.push(Method::new("phi_dp", &state, Output::Matrix(phi_dp)));
    Some(Problem {
        dims: vec![d, m],
        graph: lw.graph,
        methods: own,
        constraint,
    })
}

/// `values` (`positive`) or `−values`.
fn signed(lw: &mut Lowerer, values: Vec<NodeId>, positive: bool) -> Vec<NodeId> {
    if positive {
        values
    } else {
        values.into_iter().map(|x| lw.graph.neg(x)).collect()
    }
}

/// The `n` components of the given function `key = [...]` (zeros when absent, after the
/// missing key was reported), lowered in the state vectors `vectors`.
fn given(
    lw: &mut Lowerer,
    entry: Option<&Entry>,
    signature: &str,
    vectors: &[&str],
    n: usize,
    errors: &mut Errors,
) -> Vec<NodeId> {
    let what = if signature.starts_with("phi") {
        "one per multiplier in `lambda`"
    } else {
        "one per coordinate in `q`"
    };
    let exprs = entry
        .map(|e| shape::vector(&e.value, Some(n), what, errors))
        .unwrap_or_default();
    let values = lw.lower_function(signature, vectors, &exprs, errors);
    lw.fit(values, n)
}
