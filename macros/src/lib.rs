//! Derive macros of sparkgen. Each entry point forwards to the library front end in
//! `sparkgen_sym::derive`, which works on `proc_macro2` and is unit-testable in-process.

use proc_macro::TokenStream;

/// Implements `sparkgen::problem::DegenerateLagrangian<D>` for `L(q, v) = ϑ(q)·v − H(q)`.
///
/// `#[lagrangian(q = [x, y], theta = [ϑ₁, ϑ₂], hamiltonian = H)]`; parameters are the struct's
/// `f64` fields. See `sparkgen_sym::derive` for the expression language.
#[proc_macro_derive(DegenerateLagrangian, attributes(lagrangian))]
pub fn derive_degenerate_lagrangian(input: TokenStream) -> TokenStream {
    sparkgen_sym::derive::expand_degenerate_lagrangian(input.into()).into()
}

/// Implements `sparkgen::problem::Lagrangian<D>` for a general `L(q, v)`.
///
/// `#[lagrangian(q = [x, y], v = [u, w], lagrangian = L)]`; parameters are the struct's `f64`
/// fields.
#[proc_macro_derive(Lagrangian, attributes(lagrangian))]
pub fn derive_lagrangian(input: TokenStream) -> TokenStream {
    sparkgen_sym::derive::expand_lagrangian(input.into()).into()
}

/// Implements `sparkgen::problem::HolonomicSystem<D, M>` for `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0`.
///
/// `#[holonomic(q = [x, y], mass = m, potential = V, constraints = [c₁, …])]`, where `mass` is a
/// scalar (`m·I`), a vector (diagonal) or a matrix `[[…], …]`; parameters are the struct's `f64`
/// fields.
#[proc_macro_derive(HolonomicSystem, attributes(holonomic))]
pub fn derive_holonomic_system(input: TokenStream) -> TokenStream {
    sparkgen_sym::derive::expand_holonomic_system(input.into()).into()
}

/// Implements `sparkgen::problem::ImplicitDae<D, M>` for Jay's index-2 implicit DAE
/// `q̇ = v + u(q, p, λ)`, `ṗ = f(q, v) + g(q, p, λ)`, `p = ϑ(q, v)`, `0 = φ(q, p)`.
///
/// `#[implicit_dae(q = [..], v = [..], p = [..], lambda = [..], theta = [..], force = [..],
/// u = [..], g = [..], phi = [..], velocity = [..], energy = E)]` with `velocity` (the initial
/// velocity guess `v̄(q, p)`, `0` when absent) and `energy` (`E(q, p)`) optional; ϑ and f are
/// functions of `q`, `v`, u and g of `q`, `p`, `lambda`, φ, `velocity` and E of `q`, `p`;
/// parameters are the struct's `f64` fields.
#[proc_macro_derive(ImplicitDae, attributes(implicit_dae))]
pub fn derive_implicit_dae(input: TokenStream) -> TokenStream {
    sparkgen_sym::derive::expand_implicit_dae(input.into()).into()
}

/// Implements `sparkgen::problem::HamiltonianDae<D, M>` (and `DaeConstraint<D, M>`) for
/// `q̇ = v(q, p) + u(q, p, λ)`, `ṗ = f(q, p) + g(q, p, λ)`, `0 = φ(q, p)`.
///
/// `#[hamiltonian_dae(q = [..], p = [..], lambda = [..], hamiltonian = H, phi = [..])]` derives
/// `v = ∂H/∂p`, `f = −∂H/∂q`, `u = (∂φ/∂p)ᵀλ`, `g = −(∂φ/∂q)ᵀλ` from Dirac's total Hamiltonian;
/// `velocity = [..]`, `force = [..]`, `u = [..]`, `g = [..]` give any of them explicitly
/// (`velocity` and `force` are required without `hamiltonian`); parameters are the struct's `f64`
/// fields.
#[proc_macro_derive(HamiltonianDae, attributes(hamiltonian_dae))]
pub fn derive_hamiltonian_dae(input: TokenStream) -> TokenStream {
    sparkgen_sym::derive::expand_hamiltonian_dae(input.into()).into()
}
