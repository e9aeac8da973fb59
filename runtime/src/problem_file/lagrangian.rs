//! `kind = "lagrangian"`: a general `L(q, v)` from `velocities` and `lagrangian`.

use super::document::Table;
use super::error::DimensionError;
use super::model::{Model, methods};
use super::reader::Reader;
use crate::problem::{Lagrangian, Matrix, Vector};
use sparkgen_sym::derive::text;

/// The keys of the file besides `kind`, `coordinates`, `parameters` and `initial`.
pub(crate) const KEYS: &[&str] = &["velocities", "lagrangian"];

methods!(
    /// The methods of [`Lagrangian<D>`], for [`LagrangianFile::evaluate`]; every one takes `q`
    /// and `v`, of D entries each.
    LagrangianMethod for LagrangianFile {
        /// L(q, v) (→ 1).
        Lagrangian = "lagrangian",
        /// ∂L/∂q (→ D).
        PositionGradient = "position_gradient",
        /// p = ∂L/∂v (→ D).
        Momentum = "momentum",
        /// ∂²L/∂v² (→ D × D).
        VelocityHessian = "velocity_hessian",
        /// ∂²L/∂v∂q, entry (i, j) = ∂²L/∂v_i∂q_j (→ D × D).
        MixedHessian = "mixed_hessian",
        /// ∂²L/∂q² (→ D × D).
        PositionHessian = "position_hessian",
    }
);

/// A Lagrangian read from a problem file, with its initial data `(q₀, v₀)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LagrangianFile {
    pub(super) model: Model,
    q0: Vec<f64>,
    v0: Vec<f64>,
}

impl LagrangianFile {
    /// Reads the kind-specific keys of `root`; `None` after recording errors (the caller
    /// rejects the file when any error was recorded).
    pub(crate) fn read(
        reader: &mut Reader,
        root: &Table,
        coordinates: &[text::Text],
    ) -> Option<Self> {
        let d = coordinates.len();
        let velocities = reader.expressions(root, "velocities", Some((d, "one per coordinate")));
        let lagrangian = reader.expression(root, "lagrangian");
        let parameters = reader.parameters(root);
        let definitions = reader.definitions(root);
        let initial = reader.initial(root, d, &["q", "v"], &[]);
        let (velocities, lagrangian, mut initial) = (velocities?, lagrangian?, initial?);
        let names: Vec<&str> = parameters.iter().map(|(n, _)| *n).collect();
        let compiled = text::lagrangian(&names, coordinates, &velocities, &definitions, lagrangian);
        let model = reader.model::<LagrangianMethod>(compiled, coordinates, &parameters)?;
        let v0 = initial.pop().flatten()?;
        let q0 = initial.pop().flatten()?;
        Some(LagrangianFile { model, q0, v0 })
    }

    /// The number of coordinates D.
    pub fn dimension(&self) -> usize {
        self.model.coordinates().len()
    }

    /// The initial data `(q₀, v₀)`, each of D entries.
    pub fn initial(&self) -> (&[f64], &[f64]) {
        (&self.q0, &self.v0)
    }

    /// Replaces the initial data (checked by [`super::ProblemFile::set_initial`]).
    pub(super) fn set_initial(&mut self, q0: Vec<f64>, v0: Vec<f64>) {
        (self.q0, self.v0) = (q0, v0);
    }

    /// The problem as a `Lagrangian<D>`; an error unless it has `D` coordinates.
    pub fn view<const D: usize>(&self) -> Result<LagrangianView<'_, D>, DimensionError> {
        super::check_dimension("coordinates", D, self.dimension())?;
        Ok(LagrangianView { file: self })
    }
}

/// A [`LagrangianFile`] of D coordinates, evaluated by its tapes (as
/// [`LagrangianFile::evaluate`] does, without its length checks: D was checked once).
#[derive(Clone, Copy, Debug)]
pub struct LagrangianView<'a, const D: usize> {
    file: &'a LagrangianFile,
}

impl<const D: usize> LagrangianView<'_, D> {
    /// The initial data `(q₀, v₀)`.
    pub fn initial(&self) -> (Vector<D>, Vector<D>) {
        let (q0, v0) = self.file.initial();
        (super::vector(q0), super::vector(v0))
    }
}

impl<const D: usize> Lagrangian<D> for LagrangianView<'_, D> {
    fn lagrangian(&self, q: &Vector<D>, v: &Vector<D>) -> f64 {
        self.file
            .model
            .scalar(LagrangianMethod::Lagrangian, &[q.as_slice(), v.as_slice()])
    }

    fn position_gradient(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.file.model.vector(
            LagrangianMethod::PositionGradient,
            &[q.as_slice(), v.as_slice()],
        )
    }

    fn momentum(&self, q: &Vector<D>, v: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector(LagrangianMethod::Momentum, &[q.as_slice(), v.as_slice()])
    }

    fn velocity_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            LagrangianMethod::VelocityHessian,
            &[q.as_slice(), v.as_slice()],
        )
    }

    fn mixed_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            LagrangianMethod::MixedHessian,
            &[q.as_slice(), v.as_slice()],
        )
    }

    fn position_hessian(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            LagrangianMethod::PositionHessian,
            &[q.as_slice(), v.as_slice()],
        )
    }
}
