//! Emission of kernels as Rust tokens computing in `f64`.
//!
//! The caller decides how inputs are read and outputs written ([`Bindings`]); the kernel
//! contributes `let` statements for its temporaries and one statement per store. Every
//! function is called as `::core::primitive::f64::name(…)` and literals are unsuffixed
//! shortest round-trip `f64` literals, so the code compiles where the user shadows `f64`,
//! `sin`, `Result` or `Ok`.

use crate::input::Input;
use crate::kernel::{KExpr, Kernel, OutputSlot, const_precedence, render};
use crate::op::PREC_ATOM;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::str::FromStr;

/// How inputs and outputs of a kernel appear in the emitted code.
pub trait Bindings {
    /// Tokens reading `input`; must be an atomic expression (path, field access, indexing,
    /// call or parenthesised), e.g. `q[0]` or `self.a1`.
    fn input(&self, input: &Input) -> TokenStream;
    /// A statement storing `value` into `slot`, e.g. `out[(0, 1)] = value;`.
    fn store(&self, slot: &OutputSlot, value: TokenStream) -> TokenStream;
    /// Name of temporary `index` (default `t{index}`).
    fn temp(&self, index: usize) -> Ident {
        format_ident!("t{}", index)
    }
}

/// [`Bindings`] from two closures.
pub struct FnBindings<I, S> {
    input: I,
    store: S,
    temp_prefix: &'static str,
}

impl<I, S> FnBindings<I, S> {
    /// Names temporaries `{prefix}{index}` instead of `t{index}` (e.g. `__t` in derive
    /// expansions, where a user's `t0` may be in scope).
    pub fn with_temp_prefix(self, temp_prefix: &'static str) -> Self {
        FnBindings {
            temp_prefix,
            ..self
        }
    }
}

/// Bindings reading inputs with `input` and writing outputs with `store`.
pub fn bindings<I, S>(input: I, store: S) -> FnBindings<I, S>
where
    I: Fn(&Input) -> TokenStream,
    S: Fn(&OutputSlot, TokenStream) -> TokenStream,
{
    FnBindings {
        input,
        store,
        temp_prefix: "t",
    }
}

impl<I, S> Bindings for FnBindings<I, S>
where
    I: Fn(&Input) -> TokenStream,
    S: Fn(&OutputSlot, TokenStream) -> TokenStream,
{
    fn input(&self, input: &Input) -> TokenStream {
        (self.input)(input)
    }
    fn store(&self, slot: &OutputSlot, value: TokenStream) -> TokenStream {
        (self.store)(slot, value)
    }
    fn temp(&self, index: usize) -> Ident {
        format_ident!("{}{}", self.temp_prefix, index)
    }
}

/// Tokens of an `f64` constant: shortest round-trip literal, negatives with a unary minus,
/// non-finite values as `::core::primitive::f64` constants.
fn constant(x: f64) -> TokenStream {
    if x.is_nan() {
        return quote!(::core::primitive::f64::NAN);
    }
    if x.is_infinite() {
        return if x > 0.0 {
            quote!(::core::primitive::f64::INFINITY)
        } else {
            quote!(::core::primitive::f64::NEG_INFINITY)
        };
    }
    let magnitude = x.abs();
    let lit = Literal::from_str(&format!("{magnitude:?}"))
        .unwrap_or_else(|_| Literal::f64_unsuffixed(magnitude));
    if x.is_sign_negative() {
        quote!(- #lit)
    } else {
        quote!(#lit)
    }
}

impl Kernel {
    /// The kernel as statements: `let` bindings, then one store statement per non-zero output.
    pub fn emit(&self, bindings: &impl Bindings) -> TokenStream {
        let expr = |e: &KExpr| -> TokenStream {
            let mut leaf = |e: &KExpr| match e {
                KExpr::Temp(i) => {
                    let t = bindings.temp(*i);
                    (quote!(#t), PREC_ATOM)
                }
                KExpr::Input(inp) => (bindings.input(inp), PREC_ATOM),
                KExpr::Const(x) => (
                    constant(*x),
                    if x.is_finite() {
                        const_precedence(*x)
                    } else {
                        PREC_ATOM
                    },
                ),
                KExpr::Apply(..) => (TokenStream::new(), PREC_ATOM),
            };
            render(
                e,
                &mut leaf,
                &|op, args: &[TokenStream]| op.emit(args),
                &|t| quote!((#t)),
            )
            .0
        };
        let lets = self.lets().iter().map(|l| {
            let t = bindings.temp(l.temp);
            let v = expr(&l.value);
            quote!(let #t = #v;)
        });
        let stores = self
            .stores()
            .iter()
            .map(|s| bindings.store(&s.slot, expr(&s.value)));
        quote!(#(#lets)* #(#stores)*)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cse, Graph, KernelBuilder};

    #[test]
    fn constants_use_shortest_round_trip_literals() {
        assert_eq!(constant(0.1).to_string(), "0.1");
        assert_eq!(constant(2.0).to_string(), "2.0");
        assert_eq!(constant(1e-7).to_string(), "1e-7");
        assert_eq!(constant(1.0 / 3.0).to_string(), "0.3333333333333333");
        assert_eq!(constant(-2.5).to_string(), "- 2.5");
        assert_eq!(
            constant(f64::NEG_INFINITY).to_string(),
            ":: core :: primitive :: f64 :: NEG_INFINITY"
        );
        assert_eq!(
            constant(f64::NAN).to_string(),
            ":: core :: primitive :: f64 :: NAN"
        );
    }

    #[test]
    fn emission_keeps_grouping_and_uses_bindings() {
        let mut g = Graph::new();
        let (a, b, c) = (
            g.component("q", 0),
            g.component("q", 1),
            g.component("q", 2),
        );
        let bc = g.sub(b, c);
        let f = g.sub(a, bc);
        let s = g.sin(a);
        let sq = g.powi(s, 2);
        let k = KernelBuilder::new()
            .scalar("f", f)
            .scalar("g", sq)
            .build(&g, Cse::On);
        let b = bindings(
            |i: &Input| match i {
                Input::Component { index, .. } => {
                    let id = format_ident!("x{}", index);
                    quote!(#id)
                }
                Input::Param(_) => quote!(p),
            },
            |slot: &OutputSlot, v: TokenStream| {
                let n = format_ident!("{}", slot.name);
                quote!(*#n = #v;)
            },
        );
        let text = k.emit(&b).to_string();
        assert_eq!(
            text,
            "let t0 = :: core :: primitive :: f64 :: sin (x0) ; * f = x0 - (x1 - x2) ; * g = t0 * t0 ;"
        );
    }
}
