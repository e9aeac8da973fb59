//! `kind = "holonomic"`: `H = ½ pᵀM⁻¹p + V(q)` with `c(q) = 0` from `mass`, `potential` and
//! `constraints`.

use super::document::Table;
use super::error::{DimensionError, ErrorKind, MassError};
use super::model::Model;
use super::reader::Reader;
use crate::problem::{HolonomicSystem, Matrix, Vector};
use sparkgen_sym::derive::text;

/// The keys of the file besides `kind`, `coordinates`, `parameters` and `initial`.
pub(crate) const KEYS: &[&str] = &["mass", "potential", "constraints"];

/// The trait's required methods.
const METHODS: [&str; 9] = [
    "mass_matrix",
    "inverse_mass_matrix",
    "potential",
    "potential_gradient",
    "potential_hessian",
    "constraints",
    "constraint_jacobian",
    "constraint_force_derivative",
    "constraint_velocity_derivative",
];

/// A holonomic system read from a problem file, with its initial data `(q₀, p₀)`.
#[derive(Clone, Debug, PartialEq)]
pub struct HolonomicFile {
    pub(super) model: Model,
    constraints: usize,
    q0: Vec<f64>,
    p0: Vec<f64>,
}

impl HolonomicFile {
    /// Reads the kind-specific keys of `root`; `None` after recording errors (the caller
    /// rejects the file when any error was recorded).
    pub(crate) fn read(
        reader: &mut Reader,
        root: &Table,
        coordinates: &[text::Text],
    ) -> Option<Self> {
        let d = coordinates.len();
        let mass = root.get("mass").map(|_| reader.expression(root, "mass"));
        let potential = reader.expression(root, "potential");
        let constraints = reader.expressions(root, "constraints", None);
        let parameters = reader.parameters(root);
        let initial = reader.initial(root, d, &["q", "p"], &[]);
        let (potential, constraints, mut initial) = (potential?, constraints?, initial?);
        let mass = match mass {
            Some(text) => Some(text?),
            None => None,
        };
        let names: Vec<&str> = parameters.iter().map(|(n, _)| *n).collect();
        let compiled = text::holonomic_system(&names, coordinates, mass, potential, &constraints);
        let model = reader.model(compiled, &METHODS, coordinates, &parameters)?;
        let p0 = initial.pop().flatten()?;
        let q0 = initial.pop().flatten()?;
        let file = HolonomicFile {
            model,
            constraints: constraints.len(),
            q0,
            p0,
        };
        // The mass at the file's parameter values (when they were all read).
        if reader.diagnostics.is_empty()
            && let Err(error) = file.check_mass()
        {
            let offset = root.get("mass").map_or(0, |value| value.span().start);
            let kind = ErrorKind::NotPositiveDefinite(error.to_string());
            reader.diagnostics.at(offset, kind);
            return None;
        }
        Some(file)
    }

    /// Checks that the mass matrix is positive definite at the current parameter values.
    pub fn check_mass(&self) -> Result<(), MassError> {
        let d = self.model.coordinates().len();
        let mut mass = vec![0.0; d * d];
        self.model.eval("mass_matrix", &[], &mut mass);
        cholesky(&mut mass, d)
    }

    /// The number of constraints M.
    pub fn constraints(&self) -> usize {
        self.constraints
    }

    /// The problem as a `HolonomicSystem<D, M>`; an error unless it has `D` coordinates and `M`
    /// constraints.
    pub fn view<const D: usize, const M: usize>(
        &self,
    ) -> Result<HolonomicView<'_, D, M>, DimensionError> {
        super::check_dimension("coordinates", D, self.model.coordinates().len())?;
        super::check_dimension("constraints", M, self.constraints)?;
        Ok(HolonomicView { file: self })
    }
}

/// A [`HolonomicFile`] of D coordinates and M constraints, evaluated by its tapes.
#[derive(Clone, Copy, Debug)]
pub struct HolonomicView<'a, const D: usize, const M: usize> {
    file: &'a HolonomicFile,
}

impl<const D: usize, const M: usize> HolonomicView<'_, D, M> {
    /// The initial data `(q₀, p₀)`.
    pub fn initial(&self) -> (Vector<D>, Vector<D>) {
        (super::vector(&self.file.q0), super::vector(&self.file.p0))
    }
}

impl<const D: usize, const M: usize> HolonomicSystem<D, M> for HolonomicView<'_, D, M> {
    fn mass_matrix(&self) -> Matrix<D, D> {
        self.file.model.matrix("mass_matrix", &[])
    }

    fn inverse_mass_matrix(&self) -> Matrix<D, D> {
        self.file.model.matrix("inverse_mass_matrix", &[])
    }

    fn potential(&self, q: &Vector<D>) -> f64 {
        self.file.model.scalar("potential", &[q.as_slice()])
    }

    fn potential_gradient(&self, q: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector("potential_gradient", &[q.as_slice()])
    }

    fn potential_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix("potential_hessian", &[q.as_slice()])
    }

    fn constraints(&self, q: &Vector<D>) -> Vector<M> {
        self.file.model.vector("constraints", &[q.as_slice()])
    }

    fn constraint_jacobian(&self, q: &Vector<D>) -> Matrix<M, D> {
        self.file
            .model
            .matrix("constraint_jacobian", &[q.as_slice()])
    }

    fn constraint_force_derivative(&self, q: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D> {
        self.file.model.matrix(
            "constraint_force_derivative",
            &[q.as_slice(), lambda.as_slice()],
        )
    }

    fn constraint_velocity_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<M, D> {
        self.file.model.matrix(
            "constraint_velocity_derivative",
            &[q.as_slice(), v.as_slice()],
        )
    }
}

/// Overwrites the lower triangle of the symmetric `d × d` matrix `m` (row-major) with its
/// Cholesky factor L, M = LLᵀ: for k = 0, 1, …, the pivot M_kk − Σ_{j<k} L_kj² must be positive
/// (and finite), which holds for every k exactly when M is positive definite; the first that is
/// not is the error.
fn cholesky(m: &mut [f64], d: usize) -> Result<(), MassError> {
    for k in 0..d {
        let pivot = m[k * d + k] - (0..k).map(|j| m[k * d + j] * m[k * d + j]).sum::<f64>();
        if !pivot.is_finite() || pivot <= 0.0 {
            return Err(MassError {
                pivot: k,
                value: pivot,
            });
        }
        let l = pivot.sqrt();
        m[k * d + k] = l;
        for i in k + 1..d {
            let dot: f64 = (0..k).map(|j| m[i * d + j] * m[k * d + j]).sum();
            m[i * d + k] = (m[i * d + k] - dot) / l;
        }
    }
    Ok(())
}
