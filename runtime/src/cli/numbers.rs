//! Numbers in the JSON output as the text output prints them: a finite number is a JSON number,
//! a NaN or an infinity (which JSON has no number for, and which `serde_json` would write as
//! `null`, the word for "none") is the string the text prints, `"NaN"`, `"inf"` or `"-inf"`.
//! Used with `#[serde(serialize_with = …)]` on every field that can leave the finite numbers.

use serde::Serializer;
use serde::ser::SerializeSeq as _;

/// `x` as a JSON number, or the text of a NaN or an infinity.
pub fn number<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_str(&x.to_string())
    }
}

/// [`number`], or `null` for `None`.
pub fn optional<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(x) => number(x, s),
        None => s.serialize_none(),
    }
}

/// Each entry as [`number`] says.
pub fn numbers<S: Serializer>(xs: &[f64], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(xs.len()))?;
    for x in xs {
        seq.serialize_element(&Text(*x))?;
    }
    seq.end()
}

/// One entry of [`numbers`].
struct Text(f64);

impl serde::Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(&self.0, s)
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    #[derive(Serialize)]
    struct Fields {
        #[serde(serialize_with = "super::number")]
        a: f64,
        #[serde(serialize_with = "super::optional")]
        b: Option<f64>,
        #[serde(serialize_with = "super::optional")]
        c: Option<f64>,
        #[serde(serialize_with = "super::numbers")]
        d: Vec<f64>,
    }

    #[test]
    fn non_finite_numbers_are_written_as_the_text_prints_them() {
        let fields = Fields {
            a: f64::NAN,
            b: Some(f64::NEG_INFINITY),
            c: None,
            d: vec![1.5, f64::INFINITY],
        };
        let json = serde_json::to_string(&fields).unwrap();
        assert_eq!(json, r#"{"a":"NaN","b":"-inf","c":null,"d":[1.5,"inf"]}"#);
        assert_eq!(format!("{} {}", f64::NAN, f64::INFINITY), "NaN inf");
    }
}
