//! `f64` literals (shortest round-trip form, from the description crate), and the exact-value
//! text of doc comments.

pub use sparkgen_description::literal::{f64_text, f64_tokens, int};

use crate::exact::Num;
use proc_macro2::TokenStream;

/// An unsuffixed signed integer literal.
pub fn signed(n: i32) -> proc_macro2::Literal {
    proc_macro2::Literal::i32_unsuffixed(n)
}

/// The correctly rounded value of `x` as a literal.
pub fn value(x: &Num) -> TokenStream {
    f64_tokens(x.to_f64())
}

/// The rounding remainder `x − fl(x)` as a literal.
pub fn remainder(x: &Num) -> TokenStream {
    f64_tokens(x.f64_remainder())
}

/// The exact value for a doc comment: `p/q` for rationals, 40 significant digits otherwise.
pub fn exact_text(x: &Num) -> String {
    x.display(40)
}
