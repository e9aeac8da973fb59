//! `kind = "degenerate_lagrangian"`: `L(q, v) = ϑ(q)·v − H(q)` from `theta` and `hamiltonian`.

use super::document::Table;
use super::error::DimensionError;
use super::model::Model;
use super::reader::Reader;
use crate::problem::{DegenerateLagrangian, Matrix, Vector};
use sparkgen_sym::derive::text;

/// The keys of the file besides `kind`, `coordinates`, `parameters` and `initial`.
pub(crate) const KEYS: &[&str] = &["theta", "hamiltonian"];

/// The trait's required methods.
const METHODS: [&str; 7] = [
    "theta",
    "theta_jacobian",
    "hamiltonian",
    "hamiltonian_gradient",
    "hamiltonian_hessian",
    "jacobian_transpose_product_derivative",
    "jacobian_product_derivative",
];

/// A degenerate Lagrangian read from a problem file, with its initial data `q₀` (and `p₀`,
/// which defaults to `ϑ(q₀)`).
#[derive(Clone, Debug, PartialEq)]
pub struct DegenerateLagrangianFile {
    pub(super) model: Model,
    q0: Vec<f64>,
    p0: Option<Vec<f64>>,
}

impl DegenerateLagrangianFile {
    /// Reads the kind-specific keys of `root`; `None` after recording errors (the caller
    /// rejects the file when any error was recorded).
    pub(crate) fn read(
        reader: &mut Reader,
        root: &Table,
        coordinates: &[text::Text],
    ) -> Option<Self> {
        let d = coordinates.len();
        let theta = reader.expressions(root, "theta", Some((d, "one per coordinate")));
        let hamiltonian = reader.expression(root, "hamiltonian");
        let parameters = reader.parameters(root);
        let initial = reader.initial(root, d, &["q"], &["p"]);
        let (theta, hamiltonian, mut initial) = (theta?, hamiltonian?, initial?);
        let names: Vec<&str> = parameters.iter().map(|(n, _)| *n).collect();
        let compiled = text::degenerate_lagrangian(&names, coordinates, &theta, hamiltonian);
        let model = reader.model(compiled, &METHODS, coordinates, &parameters)?;
        let p0 = initial.pop().flatten();
        let q0 = initial.pop().flatten()?;
        Some(DegenerateLagrangianFile { model, q0, p0 })
    }

    /// The problem as a `DegenerateLagrangian<D>`; an error unless it has `D` coordinates.
    pub fn view<const D: usize>(&self) -> Result<DegenerateLagrangianView<'_, D>, DimensionError> {
        super::check_dimension("coordinates", D, self.model.coordinates().len())?;
        Ok(DegenerateLagrangianView { file: self })
    }
}

/// A [`DegenerateLagrangianFile`] of D coordinates, evaluated by its tapes.
#[derive(Clone, Copy, Debug)]
pub struct DegenerateLagrangianView<'a, const D: usize> {
    file: &'a DegenerateLagrangianFile,
}

impl<const D: usize> DegenerateLagrangianView<'_, D> {
    /// The initial data `(q₀, p₀)`, with `p₀ = ϑ(q₀)` when the file gives no `p`.
    pub fn initial(&self) -> (Vector<D>, Vector<D>) {
        let q0 = super::vector(&self.file.q0);
        let p0 = match &self.file.p0 {
            Some(p0) => super::vector(p0),
            None => self.theta(&q0),
        };
        (q0, p0)
    }
}

impl<const D: usize> DegenerateLagrangian<D> for DegenerateLagrangianView<'_, D> {
    fn theta(&self, q: &Vector<D>) -> Vector<D> {
        self.file.model.vector("theta", &[q.as_slice()])
    }

    fn theta_jacobian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix("theta_jacobian", &[q.as_slice()])
    }

    fn hamiltonian(&self, q: &Vector<D>) -> f64 {
        self.file.model.scalar("hamiltonian", &[q.as_slice()])
    }

    fn hamiltonian_gradient(&self, q: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector("hamiltonian_gradient", &[q.as_slice()])
    }

    fn hamiltonian_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file
            .model
            .matrix("hamiltonian_hessian", &[q.as_slice()])
    }

    fn jacobian_transpose_product_derivative(&self, q: &Vector<D>, w: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            "jacobian_transpose_product_derivative",
            &[q.as_slice(), w.as_slice()],
        )
    }

    fn jacobian_product_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.file
            .model
            .matrix("jacobian_product_derivative", &[q.as_slice(), v.as_slice()])
    }
}
