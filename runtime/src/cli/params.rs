//! `--param name=value` pairs, checked against the names a problem accepts.

use super::error::CliError;

/// Parsed `name=value` pairs for one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    values: Vec<(String, f64)>,
}

impl Params {
    /// Parses `name=value` texts; every name must be one of `valid` (of `problem`).
    pub fn parse(texts: &[String], problem: &str, valid: &[&str]) -> Result<Params, CliError> {
        let mut values = Vec::with_capacity(texts.len());
        for text in texts {
            let Some((name, value)) = text.split_once('=') else {
                return Err(CliError::InvalidValue {
                    what: "--param",
                    value: text.clone(),
                    reason: "expected NAME=VALUE",
                });
            };
            let name = name.trim();
            if !valid.contains(&name) {
                return Err(CliError::UnknownParameter {
                    name: name.to_owned(),
                    problem: problem.to_owned(),
                    valid: valid.join(", "),
                });
            }
            let number = finite(value.trim(), "--param")?;
            values.push((name.to_owned(), number));
        }
        Ok(Params { values })
    }

    /// The pairs in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.values.iter().map(|(n, v)| (n.as_str(), *v))
    }

    /// The value of `name` (the last one given), or `default`.
    pub fn get(&self, name: &str, default: f64) -> f64 {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map_or(default, |(_, v)| *v)
    }

    /// The mass `name` (as [`Params::get`]), which must be positive.
    pub fn mass(&self, name: &str, default: f64) -> Result<f64, CliError> {
        let m = self.get(name, default);
        if m > 0.0 {
            Ok(m)
        } else {
            Err(CliError::InvalidValue {
                what: "--param",
                value: format!("{name}={m}"),
                reason: "a mass must be positive",
            })
        }
    }
}

/// A finite number.
pub fn finite(text: &str, what: &'static str) -> Result<f64, CliError> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(CliError::InvalidValue {
            what,
            value: text.to_owned(),
            reason: "not a finite number",
        }),
        Err(_) => Err(CliError::InvalidValue {
            what,
            value: text.to_owned(),
            reason: "not a number",
        }),
    }
}
