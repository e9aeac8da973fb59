//! `kind = "holonomic"`: `H = ½ pᵀM⁻¹p + V(q)` with `c(q) = 0` from `mass`, `potential` and
//! `constraints`.

use super::document::Table;
use super::error::{DimensionError, ErrorKind, MassError};
use super::model::{Model, methods};
use super::reader::Reader;
use crate::holonomic::Geometry;
use crate::holonomic::geometry::{Block, Column};
use crate::problem::{HolonomicSystem, Matrix, Vector};
use nalgebra::Dyn;
use sparkgen_sym::Tape;
use sparkgen_sym::derive::text;

/// The keys of the file besides `kind`, `coordinates`, `parameters` and `initial`.
pub(crate) const KEYS: &[&str] = &["mass", "potential", "constraints"];

methods!(
    /// The methods of [`HolonomicSystem<D, M>`], for [`HolonomicFile::evaluate`]; `q` and `v`
    /// have D entries, `lambda` M.
    HolonomicMethod for HolonomicFile {
        /// The mass matrix (no argument → D × D).
        MassMatrix = "mass_matrix",
        /// Its inverse (no argument → D × D).
        InverseMassMatrix = "inverse_mass_matrix",
        /// V(q) (`q` → 1).
        Potential = "potential",
        /// ∇V(q) (`q` → D).
        PotentialGradient = "potential_gradient",
        /// ∇²V(q) (`q` → D × D).
        PotentialHessian = "potential_hessian",
        /// c(q) (`q` → M).
        Constraints = "constraints",
        /// Dc, (Dc)_aj = ∂c_a/∂q_j (`q` → M × D).
        ConstraintJacobian = "constraint_jacobian",
        /// ∂(Dcᵀλ)/∂q (`q`, `lambda` → D × D).
        ConstraintForceDerivative = "constraint_force_derivative",
        /// ∂(Dc v)/∂q (`q`, `v` → M × D).
        ConstraintVelocityDerivative = "constraint_velocity_derivative",
    }
);

/// The methods of [`HolonomicSystem::stage_point`], in its order, each reading `q`.
const STAGE_POINT: [(HolonomicMethod, &[usize]); 3] = [
    (HolonomicMethod::Constraints, &[0]),
    (HolonomicMethod::ConstraintJacobian, &[0]),
    (HolonomicMethod::PotentialGradient, &[0]),
];

/// The methods of [`HolonomicSystem::stage_point_derivatives`], in its order, reading `q` and
/// `λ`.
const STAGE_POINT_DERIVATIVES: [(HolonomicMethod, &[usize]); 3] = [
    (HolonomicMethod::ConstraintJacobian, &[0]),
    (HolonomicMethod::PotentialHessian, &[0]),
    (HolonomicMethod::ConstraintForceDerivative, &[0, 1]),
];

/// A holonomic system read from a problem file, with its initial data `(q₀, p₀)`.
#[derive(Clone, Debug, PartialEq)]
pub struct HolonomicFile {
    pub(crate) model: Model,
    /// c, Dc and ∇V fused into one tape ([`HolonomicSystem::stage_point`]).
    stage_point: Tape,
    /// Dc, ∇²V and ∂(Dcᵀλ)/∂q fused into one tape
    /// ([`HolonomicSystem::stage_point_derivatives`]).
    stage_point_derivatives: Tape,
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
        let mut constraints = reader.expressions(root, "constraints", None);
        if let (Some(found), Some(value)) = (
            constraints.as_ref().map(Vec::len).filter(|m| *m > d),
            root.get("constraints"),
        ) {
            let kind = ErrorKind::TooManyConstraints {
                found,
                coordinates: d,
            };
            reader.diagnostics.at_value(value, kind);
            constraints = None;
        }
        let parameters = reader.parameters(root);
        let definitions = reader.definitions(root);
        let initial = reader.initial(root, d, &["q", "p"], &[]);
        let (potential, constraints, mut initial) = (potential?, constraints?, initial?);
        let mass = match mass {
            Some(text) => Some(text?),
            None => None,
        };
        let names: Vec<&str> = parameters.iter().map(|(n, _)| *n).collect();
        let compiled = text::holonomic_system(
            &names,
            coordinates,
            &definitions,
            mass,
            potential,
            &constraints,
        );
        let model = reader.model::<HolonomicMethod>(compiled, coordinates, &parameters)?;
        let p0 = initial.pop().flatten()?;
        let q0 = initial.pop().flatten()?;
        let file = HolonomicFile {
            stage_point: model.point_tape(&STAGE_POINT, 1),
            stage_point_derivatives: model.point_tape(&STAGE_POINT_DERIVATIVES, 2),
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
        let d = self.dimension();
        let mut mass = vec![0.0; d * d];
        self.model.eval(HolonomicMethod::MassMatrix, &[], &mut mass);
        cholesky(&mut mass, d)
    }

    /// The number of coordinates D.
    pub fn dimension(&self) -> usize {
        self.model.coordinates().len()
    }

    /// The number of constraints M.
    pub fn constraints(&self) -> usize {
        self.constraints
    }

    /// The initial data `(q₀, p₀)`, each of D entries.
    pub fn initial(&self) -> (&[f64], &[f64]) {
        (&self.q0, &self.p0)
    }

    /// Replaces the initial data (checked by [`super::ProblemFile::set_initial`]).
    pub(super) fn set_initial(&mut self, q0: Vec<f64>, p0: Vec<f64>) {
        (self.q0, self.p0) = (q0, p0);
    }

    /// The problem as a `HolonomicSystem<D, M>`; an error unless it has `D` coordinates and `M`
    /// constraints.
    pub fn view<const D: usize, const M: usize>(
        &self,
    ) -> Result<HolonomicView<'_, D, M>, DimensionError> {
        super::check_dimension("coordinates", D, self.dimension())?;
        super::check_dimension("constraints", M, self.constraints)?;
        Ok(HolonomicView { file: self })
    }
}

/// A [`HolonomicFile`] of D coordinates and M constraints, evaluated by its tapes (as
/// [`HolonomicFile::evaluate`] does, without its length checks: D and M were checked once).
#[derive(Clone, Copy, Debug)]
pub struct HolonomicView<'a, const D: usize, const M: usize> {
    file: &'a HolonomicFile,
}

impl<const D: usize, const M: usize> HolonomicView<'_, D, M> {
    /// The initial data `(q₀, p₀)`.
    pub fn initial(&self) -> (Vector<D>, Vector<D>) {
        let (q0, p0) = self.file.initial();
        (super::vector(q0), super::vector(p0))
    }
}

impl<const D: usize, const M: usize> HolonomicSystem<D, M> for HolonomicView<'_, D, M> {
    fn mass_matrix(&self) -> Matrix<D, D> {
        self.file.model.matrix(HolonomicMethod::MassMatrix, &[])
    }

    fn inverse_mass_matrix(&self) -> Matrix<D, D> {
        self.file
            .model
            .matrix(HolonomicMethod::InverseMassMatrix, &[])
    }

    fn potential(&self, q: &Vector<D>) -> f64 {
        self.file
            .model
            .scalar(HolonomicMethod::Potential, &[q.as_slice()])
    }

    fn potential_gradient(&self, q: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector(HolonomicMethod::PotentialGradient, &[q.as_slice()])
    }

    fn potential_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file
            .model
            .matrix(HolonomicMethod::PotentialHessian, &[q.as_slice()])
    }

    fn constraints(&self, q: &Vector<D>) -> Vector<M> {
        self.file
            .model
            .vector(HolonomicMethod::Constraints, &[q.as_slice()])
    }

    fn constraint_jacobian(&self, q: &Vector<D>) -> Matrix<M, D> {
        self.file
            .model
            .matrix(HolonomicMethod::ConstraintJacobian, &[q.as_slice()])
    }

    fn constraint_force_derivative(&self, q: &Vector<D>, lambda: &Vector<M>) -> Matrix<D, D> {
        self.file.model.matrix(
            HolonomicMethod::ConstraintForceDerivative,
            &[q.as_slice(), lambda.as_slice()],
        )
    }

    fn constraint_velocity_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<M, D> {
        self.file.model.matrix(
            HolonomicMethod::ConstraintVelocityDerivative,
            &[q.as_slice(), v.as_slice()],
        )
    }

    /// One tape for the three, each subexpression they share evaluated once; bit for bit the
    /// three methods' values.
    fn stage_point(&self, q: &Vector<D>) -> (Vector<M>, Matrix<M, D>, Vector<D>) {
        let file = self.file;
        file.model.point(&file.stage_point, &[q.as_slice()])
    }

    /// One tape for the three, each subexpression they share evaluated once; bit for bit the
    /// three methods' values.
    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        lambda: &Vector<M>,
    ) -> (Matrix<M, D>, Matrix<D, D>, Matrix<D, D>) {
        let file = self.file;
        file.model.point(
            &file.stage_point_derivatives,
            &[q.as_slice(), lambda.as_slice()],
        )
    }
}

/// A holonomic file of any shape as RATTLE, SHAKE and the projections see it: run-time sized
/// vectors and matrices, evaluated by the same tapes as its fixed-size view.
impl Geometry<Dyn, Dyn> for HolonomicFile {
    fn shape(&self) -> (Dyn, Dyn) {
        (Dyn(self.dimension()), Dyn(self.constraints))
    }

    fn constraint_values(&self, q: &Column<Dyn>) -> Column<Dyn> {
        let m = Dyn(self.constraints);
        self.model
            .vector_in(HolonomicMethod::Constraints, &[q.as_slice()], m)
    }

    fn constraint_gradients(&self, q: &Column<Dyn>) -> Block<Dyn, Dyn> {
        let shape = (Dyn(self.constraints), Dyn(self.dimension()));
        self.model
            .matrix_in(HolonomicMethod::ConstraintJacobian, &[q.as_slice()], shape)
    }

    fn force_gradient(&self, q: &Column<Dyn>) -> Column<Dyn> {
        let d = Dyn(self.dimension());
        self.model
            .vector_in(HolonomicMethod::PotentialGradient, &[q.as_slice()], d)
    }

    /// `H(q, p) = ½ pᵀM⁻¹p + V(q)`, as [`HolonomicSystem::hamiltonian`].
    fn total_energy(&self, q: &Column<Dyn>, p: &Column<Dyn>) -> f64 {
        let potential = self
            .model
            .scalar(HolonomicMethod::Potential, &[q.as_slice()]);
        0.5 * p.dot(&self.velocity_of(p)) + potential
    }

    fn velocity_of(&self, p: &Column<Dyn>) -> Column<Dyn> {
        self.inverse_mass() * p
    }

    fn mass(&self) -> Block<Dyn, Dyn> {
        let d = Dyn(self.dimension());
        self.model
            .matrix_in(HolonomicMethod::MassMatrix, &[], (d, d))
    }

    fn inverse_mass(&self) -> Block<Dyn, Dyn> {
        let d = Dyn(self.dimension());
        self.model
            .matrix_in(HolonomicMethod::InverseMassMatrix, &[], (d, d))
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
