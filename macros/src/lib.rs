//! Procedural macros of sparkgen.
//!
//! The derive macros implement the problem traits from symbolic expressions: each forwards to
//! the library front end in `sparkgen_sym::derive`, which works on `proc_macro2` and is
//! unit-testable in-process.
//!
//! [`stepper!`] emits a catalogue method's fully unrolled stepper where it is invoked. The
//! generator (`sparkgen-codegen`, exact arithmetic) writes each method as a description, its
//! stage structure and coefficients as text (`generated/descriptions/`, one file per family,
//! format in `sparkgen_description::text`); this crate embeds those files at its build, reads
//! the requested family's and emits the stepper by the chain rule with
//! `sparkgen_description::emit`, without the generator or arbitrary-precision arithmetic. The
//! catalogue's steppers (`sparkgen::generated::steppers`) are emitted from the same text by the
//! same function through [`family_steppers!`], where the generated crate is built: no stepper is
//! committed.

use proc_macro::TokenStream;

mod family;
mod registry;
mod stepper;
// Beside the module rather than in it: the expansion benchmark includes `stepper.rs` by path.
#[cfg(test)]
#[path = "stepper/tests.rs"]
mod stepper_tests;

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

/// Declares the fully unrolled stepper of a catalogue method (family and stage count s) under
/// a name of the caller's choosing: a unit struct (const-generic over the number of constraints
/// `M` for holonomic and DAE methods) implementing `sparkgen::stage::StageMethod`, with the
/// associated `UNKNOWN_LAYOUT` and `RESIDUAL_LAYOUT`.
///
/// ```text
/// sparkgen::stepper! {
///     /// Gauss–Legendre VPRK, s = 2.
///     pub Gauss2 = VprkGauss(2);
///     pub(crate) Midpoint3 = VsparkPrimaryGlrkpMidpoint(3): DegenerateLagrangian;
///     Rattle2 = RattleLobattoIIIAIIIB(2): Holonomic;
/// }
/// ```
///
/// Each declaration is `#[attributes] visibility Name = Family(s)`, optionally followed by
/// `: Kind`, which asserts the method's problem kind (`DegenerateLagrangian`, `Holonomic`,
/// `ImplicitDae`, `HamiltonianDae`); declarations are separated by `;`. Attributes and doc
/// comments go on the struct, before the method's own documentation. `StageMethod::NAME` stays
/// the catalogue name (`VprkGauss2`), so errors and listings name the method. `sparkgen methods`
/// lists the families and their stage counts; an unknown family, a stage count the family does
/// not have, a different problem kind or a malformed declaration is a compile error at its
/// tokens.
#[proc_macro]
pub fn stepper(input: TokenStream) -> TokenStream {
    stepper::expand(input.into()).into()
}

/// Every stepper of a catalogue family under its catalogue name: `family_steppers!(core, Family)`
/// with `core` the path of `sparkgen_core` where it is expanded. The generated crate's `steppers`
/// module invokes it once per family (one module each, re-exported by the parent, through which
/// a method with the equations of an earlier one is a type alias of it). Not a user API: users
/// declare the steppers they need with [`stepper!`].
#[doc(hidden)]
#[proc_macro]
pub fn family_steppers(input: TokenStream) -> TokenStream {
    family::expand(input.into()).into()
}

/// The catalogue's steppers as data: `stepper_registry!(generated, callback, [Family, …])`
/// expands to `callback! { degenerate: [(Type, "Family", s, order, "Pair(s)", facts), …],
/// holonomic: […], implicit: […], hamiltonian: […] }` over every method of the listed families,
/// its `MethodFacts` read from its description, with `generated` the path of the generated
/// crate. The generated crate's `for_each_stepper!` invokes it. Not a user API.
#[doc(hidden)]
#[proc_macro]
pub fn stepper_registry(input: TokenStream) -> TokenStream {
    registry::expand(input.into()).into()
}
