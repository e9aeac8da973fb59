//! Derive-macro front end: the library behind `#[derive(DegenerateLagrangian)]`,
//! `#[derive(Lagrangian)]`, `#[derive(HolonomicSystem)]`, `#[derive(ImplicitDae)]` and
//! `#[derive(HamiltonianDae)]` of
//! `sparkgen-macros`.
//!
//! Works on `proc_macro2` only, so expansions can be tested in-process. The pipeline is
//! attribute parsing → surface model of the struct → lowering of the user's
//! `syn::Expr`s into one symbolic [`Graph`](crate::Graph) → symbolic derivatives → one CSE'd
//! kernel per trait method → `impl ::sparkgen::problem::Trait<D, …> for Struct`.
//!
//! The [`text`] front end runs the same lowering, differentiation and scheduling on expressions
//! given as strings (problem files) and compiles each kernel to a [`Tape`](crate::Tape).
//!
//! # Expression language
//!
//! Numbers (`2`, `0.5`, `1e-3`, read as exact decimals), the coordinate names of `q = [...]`
//! (and `v = [...]` for `Lagrangian`; `v`, `p` and `lambda` for `ImplicitDae`, `p` and `lambda`
//! for `HamiltonianDae`, where each function sees only the state vectors it depends on), the struct's `f64` fields
//! (parameters), unary `-`, `+ - * /`, parentheses, and the functions `powi powf sqrt exp ln
//! log sin cos tan asin acos atan atan2 sinh cosh tanh abs hypot` called as `f(x, …)` or
//! `x.f(…)` (`ln(x)`, `x.ln()`, `powi(x, 2)`, `x.powi(2)`, `y.atan2(x)` = atan2(y, x)). `abs`
//! has no derivative and is therefore rejected wherever a derivative is needed (everywhere in
//! these derives except `velocity` and `energy` of `ImplicitDae`).
//!
//! Every attribute takes `definitions = [name = expression, …]`: named subexpressions, in
//! order, each of which may use the coordinates, the parameters and the definitions before it,
//! and which every expression of the attribute may use by name. A definition is lowered once
//! into the graph (which hash-conses), so all its uses share one node, differentiated once, and
//! the derive emits what it emits with every definition written out in parentheses. In
//! `ImplicitDae` and `HamiltonianDae` a definition may use any state vector, but a function may
//! use it only if it depends on the definition's state vectors.
//!
//! `DegenerateLagrangian` and `Lagrangian` share the helper attribute `#[lagrangian(…)]` with
//! different keys, so a struct derives one of them.
//!
//! # Errors
//!
//! User errors are reported at the offending tokens and accumulated: unknown identifiers
//! (and, for `ImplicitDae`, coordinates of a state vector the function does not depend on),
//! definitions named like a coordinate, a field or an earlier definition, definitions using
//! themselves or later ones,
//! wrong vector lengths, duplicate, unknown and missing keys, unsupported functions and
//! syntax, `abs` under a derivative, non-`f64` fields used as parameters, non-symmetric or
//! singular constant mass matrices. Whenever the dimensions are known, the impl is still
//! emitted with `unreachable!()` bodies so the user sees only the real errors.
//!
//! # Emitted code
//!
//! `#[automatically_derived]` impls with fully qualified paths (`::sparkgen::__private::SVector`,
//! `::core::primitive::f64`); inputs are read as `q[i]` and `self.field`, outputs written into
//! a zero-initialised `out`, temporaries are `t0, t1, …`; no user-chosen name becomes a local.

mod ast;
mod attr;
mod ctxt;
mod degenerate_lagrangian;
mod expand;
mod extent;
mod hamiltonian_dae;
mod holonomic_system;
mod implicit_dae;
mod lagrangian;
mod lower;
mod mass;
mod method;
mod parse;
mod partials;
mod shape;
pub mod text;

pub use ctxt::ErrorKind;

use proc_macro2::TokenStream;

/// Expands `#[derive(DegenerateLagrangian)]` on `input` (the item, attributes included).
///
/// `#[lagrangian(q = [x, y], theta = [ϑ₁, ϑ₂], hamiltonian = H)]` implements
/// `DegenerateLagrangian<D>` for `L(q, v) = ϑ(q)·v − H(q)`: ϑ, J = ∂ϑ/∂q (J_ij = ∂ϑ_i/∂q_j),
/// H, ∇H, ∇²H, ∂(Jᵀw)/∂q and ∂(Jv)/∂q.
pub fn expand_degenerate_lagrangian(input: TokenStream) -> TokenStream {
    expand::expand(input, &degenerate_lagrangian::DERIVE)
}

/// Expands `#[derive(Lagrangian)]` on `input`.
///
/// `#[lagrangian(q = [x, y], v = [u, w], lagrangian = L)]` implements `Lagrangian<D>`:
/// L, ∂L/∂q, p = ∂L/∂v, ∂²L/∂v², ∂²L/∂v∂q (entry (i, j) = ∂²L/∂v_i∂q_j) and ∂²L/∂q².
pub fn expand_lagrangian(input: TokenStream) -> TokenStream {
    expand::expand(input, &lagrangian::DERIVE)
}

/// Expands `#[derive(HolonomicSystem)]` on `input`.
///
/// `#[holonomic(q = [x, y], mass = m, potential = V, constraints = [c₁, …])]` implements
/// `HolonomicSystem<D, M>`: M, M⁻¹ (symbolic Gauss–Jordan at expansion, exact for numeric M),
/// V, ∇V, ∇²V, c, Dc (M × D, (Dc)_aj = ∂c_a/∂q_j) and ∂(Dcᵀλ)/∂q. `mass` is a scalar `m`
/// (M = m·I), a list (diagonal) or a symmetric matrix `[[…], …]`.
pub fn expand_holonomic_system(input: TokenStream) -> TokenStream {
    expand::expand(input, &holonomic_system::DERIVE)
}

/// Expands `#[derive(ImplicitDae)]` on `input`.
///
/// `#[implicit_dae(q = [x, y], v = [vx, vy], p = [px, py], lambda = [μ₁, …], theta = [ϑ₁, ϑ₂],
/// force = [f₁, f₂], u = [u₁, u₂], g = [g₁, g₂], phi = [φ₁, …], velocity = [v̄₁, v̄₂], energy = E)]`
/// implements `ImplicitDae<D, M>` (`D` names in `q`, `v`, `p`; `M ≥ 1` in `lambda`) for
/// `q̇ = v + u(q, p, λ)`, `ṗ = f(q, v) + g(q, p, λ)`, `p = ϑ(q, v)`, `0 = φ(q, p)`: ϑ, ∂ϑ/∂q,
/// ∂ϑ/∂v, f, ∂f/∂q, ∂f/∂v, u, ∂u/∂q, ∂u/∂p, ∂u/∂λ, g, ∂g/∂q, ∂g/∂p, ∂g/∂λ, φ, ∂φ/∂q, ∂φ/∂p
/// (`(∂a/∂b)_ij = ∂a_i/∂b_j`), the initial velocity `v̄(q, p)` (`0` without `velocity`) and, with
/// `energy`, `E(q, p)` as `Some`. Each expression may use only the state vectors its function
/// depends on (ϑ and f: `q`, `v`; u and g: `q`, `p`, `lambda`; φ, v̄ and E: `q`, `p`).
pub fn expand_implicit_dae(input: TokenStream) -> TokenStream {
    expand::expand(input, &implicit_dae::DERIVE)
}

/// Expands `#[derive(HamiltonianDae)]` on `input`.
///
/// `#[hamiltonian_dae(q = [x, y], p = [px, py], lambda = [μ₁, …], hamiltonian = H,
/// phi = [φ₁, …], velocity = [v₁, v₂], force = [f₁, f₂], u = [u₁, u₂], g = [g₁, g₂])]`
/// implements `HamiltonianDae<D, M>` and `DaeConstraint<D, M>` for
/// `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)`. Without `velocity`,
/// `force`, `u`, `g`, Dirac's total Hamiltonian `H + λ·φ` gives `v = ∂H/∂p`, `f = −∂H/∂q`,
/// `u = (∂φ/∂p)ᵀλ`, `g = −(∂φ/∂q)ᵀλ`; each may be given instead (`velocity` and `force` both, when
/// there is no `hamiltonian`). Emits v, f, u, g, φ with all their Jacobians, the partials
/// `∂ψ/∂q`, `∂ψ/∂p` of the secondary constraint `ψ = ∂φ/∂q · q̇ + ∂φ/∂p · ṗ`, and H (as `Some`)
/// when given. H, φ, v and f are functions of `q`, `p`; u and g of `q`, `p`, `lambda`.
pub fn expand_hamiltonian_dae(input: TokenStream) -> TokenStream {
    expand::expand(input, &hamiltonian_dae::DERIVE)
}
