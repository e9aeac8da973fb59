//! Reference values typed in from RungeKutta.jl's tableaus and GeometricIntegrators.jl's
//! `src/spark/` coefficients in their own notation (`7*sqrt(6)/360 + 11/45`), parsed into exact
//! rationals or 256-bit floats.

#![allow(dead_code)]

use rug::{Float, Rational};
use sparkgen_codegen::exact::{Num, Precision};

/// Parses a sum of terms `[±][k*]sqrt(n)[/d]` or `[±]p[/q]`, e.g. `1/4 - sqrt(3)/6`.
pub fn surd(text: &str) -> Num {
    let mut total = Num::zero();
    let cleaned = text.replace(' ', "");
    let mut terms = Vec::new();
    let mut start = 0;
    let bytes = cleaned.as_bytes();
    for (i, &ch) in bytes.iter().enumerate() {
        if (ch == b'+' || ch == b'-') && i > start && bytes[i - 1] != b'(' {
            terms.push(&cleaned[start..i]);
            start = i;
        }
    }
    terms.push(&cleaned[start..]);
    for term in terms {
        total = total.add(&parse_term(term));
    }
    total
}

fn parse_term(term: &str) -> Num {
    let (sign, body) = match term.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, term.strip_prefix('+').unwrap_or(term)),
    };
    let (num_part, den) = match body.rsplit_once('/') {
        Some((n, d)) if !d.contains(')') => (n, d.parse::<i64>().expect("denominator")),
        _ => (body, 1),
    };
    let value = if let Some(idx) = num_part.find("sqrt(") {
        let k: i64 = if idx == 0 {
            1
        } else {
            num_part[..idx]
                .trim_end_matches('*')
                .parse()
                .expect("factor")
        };
        let n: i64 = num_part[idx + 5..num_part.len() - 1]
            .parse()
            .expect("radicand");
        Num::int(n).sqrt(Precision::DEFAULT).mul(&Num::int(k))
    } else {
        Num::Rat(Rational::from((
            num_part.parse::<i64>().expect("numerator"),
            1,
        )))
    };
    value.mul(&Num::ratio(sign, den))
}

/// A matrix of reference entries, rows separated by `;`, entries by `,`.
pub fn matrix(text: &str) -> Vec<Vec<Num>> {
    text.split(';').map(vector).collect()
}

/// A vector of reference entries separated by `,`.
pub fn vector(text: &str) -> Vec<Num> {
    text.split(',').map(surd).collect()
}

/// Asserts equality: exact when both sides are rational, else to 1e−70 at 256 bits (an entry
/// of a tableau computed through surds is a float even where its value is rational; the
/// tableau-wide exactness flag is checked separately).
pub fn assert_same(ours: &Num, reference: &Num, what: &str) {
    if reference.is_rational() && ours.is_rational() {
        assert_eq!(ours, reference, "{what}");
    } else {
        let err = ours.sub(reference).abs().to_float(Precision::DEFAULT);
        assert!(
            err < Float::with_val(256, 1e-70),
            "{what}: {ours} vs {reference} (error {err})"
        );
    }
}

/// Element-wise [`assert_same`] on matrices.
pub fn assert_matrix(ours: &[Vec<Num>], reference: &[Vec<Num>], what: &str) {
    assert_eq!(ours.len(), reference.len(), "{what}: rows");
    for (i, (ro, rr)) in ours.iter().zip(reference).enumerate() {
        assert_eq!(ro.len(), rr.len(), "{what}: row {i} length");
        for (j, (x, y)) in ro.iter().zip(rr).enumerate() {
            assert_same(x, y, &format!("{what}[{i}][{j}]"));
        }
    }
}

/// Element-wise [`assert_same`] on vectors.
pub fn assert_vector(ours: &[Num], reference: &[Num], what: &str) {
    assert_eq!(ours.len(), reference.len(), "{what}: length");
    for (i, (x, y)) in ours.iter().zip(reference).enumerate() {
        assert_same(x, y, &format!("{what}[{i}]"));
    }
}
