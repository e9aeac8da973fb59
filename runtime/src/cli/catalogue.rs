//! `sparkgen catalogue`: every tableau with its declared and computed properties side by
//! side, and every partitioned pair.

use crate::generated::catalogue::{PAIRS, TABLEAUS};
use crate::generated::{Properties, RInfinity};
use std::fmt::Write as _;

fn r_inf(r: RInfinity) -> String {
    match r {
        RInfinity::Finite(v) => v.to_string(),
        RInfinity::Infinite => "∞".to_owned(),
    }
}

fn row(p: &Properties) -> String {
    format!(
        "{:>2} {:>2} {:>2} {:>2} {:^5} {:^5} {:>3}",
        p.order,
        p.b,
        p.c,
        p.d,
        if p.symplectic { "yes" } else { "no" },
        if p.symmetric { "yes" } else { "no" },
        r_inf(p.r_infinity)
    )
}

// Writing to a String cannot fail: the `writeln!` results are ignored.
/// The catalogue listing: every tableau (declared | computed properties) and every pair.
pub fn text() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "sparkgen tableau catalogue: declared | computed in 256-bit working precision"
    );
    let _ = writeln!(
        s,
        "{:<20} {:<31} {:<31} exact",
        "tableau", "p  B  C  D sympl symm R∞", "p  B  C  D sympl symm R∞"
    );
    let mut disagreements = 0;
    for e in TABLEAUS {
        if e.declared != e.computed {
            disagreements += 1;
        }
        let _ = writeln!(
            s,
            "{:<20} {:<31} {:<31} {}",
            e.name,
            row(&e.declared),
            row(&e.computed),
            if e.exact_rational { "rational" } else { "MPFR" }
        );
        for note in e.upstream {
            let _ = writeln!(s, "{:<20}   note: {note}", "");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<26} {:>8} {:>8} {:^9} {:^9}",
        "partitioned pair", "declared", "computed", "symplectic", "symmetric"
    );
    for p in PAIRS {
        if p.declared_order != p.computed_order {
            disagreements += 1;
        }
        let _ = writeln!(
            s,
            "{:<26} {:>8} {:>8} {:^10} {:^9}",
            p.name,
            p.declared_order,
            p.computed_order,
            if p.symplectic { "yes" } else { "no" },
            if p.symmetric { "yes" } else { "no" }
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{} tableaus, {} pairs, {} SPARK coefficient arrays; declared ≠ computed: {disagreements}",
        TABLEAUS.len(),
        PAIRS.len(),
        sparkgen::generated::spark::ALL.len()
    );
    s
}
