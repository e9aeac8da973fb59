//! `f64` literals in shortest round-trip form.

use proc_macro2::{Span, TokenStream};
use quote::quote;

/// Shortest decimal text that parses back to exactly `x` (Rust's `Display`/`LowerExp` are
/// shortest round-trip); plain notation for moderate magnitudes, scientific otherwise.
pub fn f64_text(x: f64) -> String {
    let mag = x.abs();
    if mag == 0.0 || (1e-4..1e6).contains(&mag) {
        let text = format!("{mag}");
        if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        }
    } else {
        format!("{mag:e}")
    }
}

/// A signed `f64` literal expression.
pub fn f64_tokens(x: f64) -> TokenStream {
    let lit = syn::LitFloat::new(&f64_text(x), Span::call_site());
    if x.is_sign_negative() && x != 0.0 {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// An unsuffixed integer literal (`3`, not `3usize`).
pub fn int(n: usize) -> proc_macro2::Literal {
    proc_macro2::Literal::usize_unsuffixed(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_bit_for_bit() {
        let samples = [
            0.5,
            1.0 / 3.0,
            -0.2113248654051871,
            1e-17,
            -3.4e-20,
            12.0,
            0.0,
            7e8,
        ];
        for x in samples {
            let text = f64_text(x);
            let back: f64 = text.parse().unwrap();
            assert_eq!(back.to_bits(), x.abs().to_bits(), "{x} → {text}");
        }
        assert_eq!(f64_text(0.5), "0.5");
        assert_eq!(f64_text(12.0), "12.0");
        assert_eq!(f64_text(1e-17), "1e-17");
        assert_eq!(f64_tokens(-0.25).to_string(), "- 0.25");
    }
}
