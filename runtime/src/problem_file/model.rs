//! The run-time model of a problem file: its coordinates, its parameters with their values and
//! one compiled tape per trait method, evaluated into fixed-size nalgebra values.

use nalgebra::{SMatrix, SVector};
use sparkgen_sym::Tape;
use sparkgen_sym::derive::text::{Compiled, Text};

/// A parameter name that the problem does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown parameter `{name}`; the parameters are {known}")]
pub struct UnknownParameter {
    /// The name asked for.
    pub name: String,
    /// The problem's parameters, for the message.
    pub known: String,
}

/// Coordinates, parameters and the tapes of a problem's trait methods.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Model {
    coordinates: Vec<String>,
    /// Parameter names, in the file's key order.
    names: Vec<String>,
    /// Their values (the tapes' last input segment).
    values: Vec<f64>,
    /// The tapes of the trait methods, by method name.
    tapes: Vec<(&'static str, Tape)>,
}

impl Model {
    /// The model of `compiled` with the tapes of the trait methods `methods`, or the name of a
    /// method the symbolic engine did not produce.
    pub(crate) fn new(
        compiled: Compiled,
        methods: &[&'static str],
        coordinates: &[Text],
        parameters: &[(&str, f64)],
    ) -> Result<Model, String> {
        let tapes = methods
            .iter()
            .map(|name| {
                compiled
                    .methods
                    .iter()
                    .find(|m| m.name == *name)
                    .map(|m| (*name, m.tape.clone()))
                    .ok_or_else(|| (*name).to_owned())
            })
            .collect::<Result<Vec<_>, String>>()?;
        let names = parameters.iter().map(|(n, _)| (*n).to_owned()).collect();
        let values = parameters.iter().map(|(_, v)| *v).collect();
        Ok(Model {
            coordinates: coordinates
                .iter()
                .map(|c| c.source.trim().to_owned())
                .collect(),
            names,
            values,
            tapes,
        })
    }

    /// The coordinate names.
    pub(crate) fn coordinates(&self) -> &[String] {
        &self.coordinates
    }

    /// The parameters and their values, in the file's key order.
    pub(crate) fn parameters(&self) -> impl Iterator<Item = (&str, f64)> {
        self.names
            .iter()
            .map(String::as_str)
            .zip(self.values.iter().copied())
    }

    /// Sets the parameter `name` to `value`.
    pub(crate) fn set_parameter(&mut self, name: &str, value: f64) -> Result<(), UnknownParameter> {
        match self.names.iter().position(|n| n == name) {
            Some(i) => {
                self.values[i] = value;
                Ok(())
            }
            None => {
                let known: Vec<String> = self.names.iter().map(|n| format!("`{n}`")).collect();
                Err(UnknownParameter {
                    name: name.to_owned(),
                    known: if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    },
                })
            }
        }
    }

    /// Evaluates the trait method `method` on the arguments `args` into `out` (row-major).
    /// (`Model::new` checked that every method of the trait has a tape.)
    pub(crate) fn eval(&self, method: &str, args: &[&[f64]], out: &mut [f64]) {
        let Some((_, tape)) = self.tapes.iter().find(|(name, _)| *name == method) else {
            out.fill(f64::NAN);
            return;
        };
        // Every trait method takes at most two state vectors; the parameters come last.
        let n = args.len().min(2);
        let mut segments: [&[f64]; 3] = [&[]; 3];
        segments[..n].copy_from_slice(&args[..n]);
        segments[n] = &self.values;
        let mut registers = Vec::with_capacity(tape.registers());
        tape.eval(&segments[..=n], &mut registers, out);
    }

    /// A scalar method.
    pub(crate) fn scalar(&self, method: &str, args: &[&[f64]]) -> f64 {
        let mut out = [0.0];
        self.eval(method, args, &mut out);
        out[0]
    }

    /// A vector method.
    pub(crate) fn vector<const N: usize>(&self, method: &str, args: &[&[f64]]) -> SVector<f64, N> {
        let mut out = SVector::<f64, N>::zeros();
        self.eval(method, args, out.as_mut_slice());
        out
    }

    /// A matrix method (the tape's row-major output is the column-major storage of the
    /// transpose).
    pub(crate) fn matrix<const R: usize, const C: usize>(
        &self,
        method: &str,
        args: &[&[f64]],
    ) -> SMatrix<f64, R, C> {
        let mut transpose = SMatrix::<f64, C, R>::zeros();
        self.eval(method, args, transpose.as_mut_slice());
        transpose.transpose()
    }
}
