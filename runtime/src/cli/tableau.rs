//! `sparkgen tableau FAMILY S`: a tableau's coefficients as `f64` and, with `--exact`, as the
//! generator's exact values (`p/q`, or 40 significant digits).

use super::choice::normalize;
use super::error::CliError;
use crate::generated::catalogue::TABLEAUS;
use crate::generated::exact::{EXACT_TABLEAUS, ExactTableau};
use crate::generated::{CatalogueEntry, RInfinity};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The catalogue entry of `family` with `stages`.
pub fn find(family: &str, stages: usize) -> Result<&'static CatalogueEntry, CliError> {
    let members: Vec<&CatalogueEntry> = TABLEAUS
        .iter()
        .filter(|e| normalize(e.family) == normalize(family))
        .collect();
    if members.is_empty() {
        let mut valid: Vec<&str> = TABLEAUS.iter().map(|e| e.family).collect();
        valid.dedup();
        return Err(CliError::UnknownFamily {
            name: family.to_owned(),
            valid: valid.join(", "),
        });
    }
    members
        .iter()
        .find(|e| e.stages == stages)
        .copied()
        .ok_or_else(|| CliError::UnknownStages {
            family: members[0].family.to_owned(),
            stages,
            valid: members
                .iter()
                .map(|e| e.stages.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The exact values of `e`, if asked for.
fn exact_values(e: &CatalogueEntry, exact: bool) -> Option<&'static ExactTableau> {
    exact
        .then(|| EXACT_TABLEAUS.iter().find(|x| x.name == e.name))
        .flatten()
}

/// Row-major `s×s` values as rows.
fn rows<T: Clone>(flat: &[T], s: usize) -> Vec<Vec<T>> {
    flat.chunks(s).map(<[T]>::to_vec).collect()
}

fn r_infinity(r: RInfinity) -> Value {
    match r {
        RInfinity::Finite(v) => json!(v),
        RInfinity::Infinite => json!("infinite"),
    }
}

/// The JSON form: name, family, stages, exact_rational, properties, a, b, c (f64) and, with
/// `--exact`, `exact: {a, b, c}` as text.
pub fn json(e: &CatalogueEntry, exact: bool) -> Value {
    let p = e.computed;
    let mut value = json!({
        "name": e.name,
        "family": e.family,
        "stages": e.stages,
        "exact_rational": e.exact_rational,
        "properties": {
            "order": p.order, "b": p.b, "c": p.c, "d": p.d,
            "symplectic": p.symplectic, "symmetric": p.symmetric,
            "r_infinity": r_infinity(p.r_infinity),
        },
        "a": rows(e.data.a, e.stages),
        "b": e.data.b,
        "c": e.data.c,
    });
    if let (Some(x), Some(map)) = (exact_values(e, exact), value.as_object_mut()) {
        let a = rows(x.a, e.stages);
        map.insert("exact".to_owned(), json!({ "a": a, "b": x.b, "c": x.c }));
    }
    value
}

/// The human form: one line per coefficient, `f64` then the exact value.
pub fn text(e: &CatalogueEntry, exact: bool) -> String {
    let exact = exact_values(e, exact);
    let p = e.computed;
    let mut s = format!(
        "{}: order {}, B({}) C({}) D({}), symplectic {}, symmetric {}, {}\n",
        e.name,
        p.order,
        p.b,
        p.c,
        p.d,
        p.symplectic,
        p.symmetric,
        if e.exact_rational {
            "rational"
        } else {
            "irrational"
        }
    );
    let exact_of = |pick: fn(&ExactTableau) -> &'static [&'static str], k: usize| {
        exact
            .and_then(|x| pick(x).get(k))
            .map_or(String::new(), |text| format!("  = {text}"))
    };
    // Writing to a String cannot fail.
    for (i, x) in e.data.c.iter().enumerate() {
        let _ = writeln!(s, "c[{i}] = {x:<24}{}", exact_of(|x| x.c, i));
    }
    for (i, x) in e.data.b.iter().enumerate() {
        let _ = writeln!(s, "b[{i}] = {x:<24}{}", exact_of(|x| x.b, i));
    }
    for (k, x) in e.data.a.iter().enumerate() {
        let (i, j) = (k / e.stages, k % e.stages);
        let _ = writeln!(s, "a[{i}][{j}] = {x:<21}{}", exact_of(|x| x.a, k));
    }
    s
}
