//! `kind = "degenerate_lagrangian"`: `L(q, v) = ϑ(q)·v − H(q)` from `theta` and `hamiltonian`.

use super::document::Table;
use super::error::DimensionError;
use super::model::{Model, methods};
use super::reader::Reader;
use crate::problem::{DegenerateLagrangian, Matrix, Vector};
use sparkgen_sym::Tape;
use sparkgen_sym::derive::text;

/// The keys of the file besides `kind`, `coordinates`, `parameters` and `initial`.
pub(crate) const KEYS: &[&str] = &["theta", "hamiltonian"];

methods!(
    /// The methods of [`DegenerateLagrangian<D>`], for
    /// [`DegenerateLagrangianFile::evaluate`]; `q`, `w`, `v` have D entries.
    DegenerateMethod for DegenerateLagrangianFile {
        /// ϑ(q) (`q` → D).
        Theta = "theta",
        /// J = ∂ϑ/∂q, J_ij = ∂ϑ_i/∂q_j (`q` → D × D).
        ThetaJacobian = "theta_jacobian",
        /// H(q) (`q` → 1).
        Hamiltonian = "hamiltonian",
        /// ∇H(q) (`q` → D).
        HamiltonianGradient = "hamiltonian_gradient",
        /// ∇²H(q) (`q` → D × D).
        HamiltonianHessian = "hamiltonian_hessian",
        /// ∂(Jᵀw)/∂q (`q`, `w` → D × D).
        JacobianTransposeProductDerivative = "jacobian_transpose_product_derivative",
        /// ∂(Jv)/∂q (`q`, `v` → D × D).
        JacobianProductDerivative = "jacobian_product_derivative",
    }
);

/// A degenerate Lagrangian read from a problem file, with its initial data `q₀` (and `p₀`,
/// which defaults to `ϑ(q₀)`).
#[derive(Clone, Debug, PartialEq)]
pub struct DegenerateLagrangianFile {
    pub(crate) model: Model,
    /// ϑ, J and ∇H fused into one tape ([`DegenerateLagrangian::stage_point`]).
    stage_point: Tape,
    /// J, ∇²H and ∂(Jᵀw)/∂q fused into one tape
    /// ([`DegenerateLagrangian::stage_point_derivatives`]).
    stage_point_derivatives: Tape,
    q0: Vec<f64>,
    p0: Option<Vec<f64>>,
}

/// The methods of [`DegenerateLagrangian::stage_point`], in its order, each reading `q`.
const STAGE_POINT: [(DegenerateMethod, &[usize]); 3] = [
    (DegenerateMethod::Theta, &[0]),
    (DegenerateMethod::ThetaJacobian, &[0]),
    (DegenerateMethod::HamiltonianGradient, &[0]),
];

/// The methods of [`DegenerateLagrangian::stage_point_derivatives`], in its order, reading `q`
/// and `w`.
const STAGE_POINT_DERIVATIVES: [(DegenerateMethod, &[usize]); 3] = [
    (DegenerateMethod::ThetaJacobian, &[0]),
    (DegenerateMethod::HamiltonianHessian, &[0]),
    (
        DegenerateMethod::JacobianTransposeProductDerivative,
        &[0, 1],
    ),
];

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
        let definitions = reader.definitions(root);
        let initial = reader.initial(root, d, &["q"], &["p"]);
        let (theta, hamiltonian, mut initial) = (theta?, hamiltonian?, initial?);
        let names: Vec<&str> = parameters.iter().map(|(n, _)| *n).collect();
        let compiled =
            text::degenerate_lagrangian(&names, coordinates, &definitions, &theta, hamiltonian);
        let model = reader.model::<DegenerateMethod>(compiled, coordinates, &parameters)?;
        let stage_point = model.point_tape(&STAGE_POINT, 1);
        let stage_point_derivatives = model.point_tape(&STAGE_POINT_DERIVATIVES, 2);
        let p0 = initial.pop().flatten();
        let q0 = initial.pop().flatten()?;
        Some(DegenerateLagrangianFile {
            model,
            stage_point,
            stage_point_derivatives,
            q0,
            p0,
        })
    }

    /// The number of coordinates D.
    pub fn dimension(&self) -> usize {
        self.model.coordinates().len()
    }

    /// The initial data `(q₀, p₀)`, each of D entries, with `p₀ = ϑ(q₀)` when the file gives no
    /// `p`.
    pub fn initial(&self) -> (Vec<f64>, Vec<f64>) {
        let p0 = self.p0.clone().unwrap_or_else(|| {
            let mut theta = vec![0.0; self.q0.len()];
            self.model
                .eval(DegenerateMethod::Theta, &[&self.q0], &mut theta);
            theta
        });
        (self.q0.clone(), p0)
    }

    /// Replaces the initial data (checked by [`super::ProblemFile::set_initial`]).
    pub(super) fn set_initial(&mut self, q0: Vec<f64>, p0: Option<Vec<f64>>) {
        (self.q0, self.p0) = (q0, p0);
    }

    /// The problem as a `DegenerateLagrangian<D>`; an error unless it has `D` coordinates.
    pub fn view<const D: usize>(&self) -> Result<DegenerateLagrangianView<'_, D>, DimensionError> {
        super::check_dimension("coordinates", D, self.dimension())?;
        Ok(DegenerateLagrangianView { file: self })
    }
}

/// A [`DegenerateLagrangianFile`] of D coordinates, evaluated by its tapes (as
/// [`DegenerateLagrangianFile::evaluate`] does, without its length checks: D was checked once).
#[derive(Clone, Copy, Debug)]
pub struct DegenerateLagrangianView<'a, const D: usize> {
    file: &'a DegenerateLagrangianFile,
}

impl<const D: usize> DegenerateLagrangianView<'_, D> {
    /// The initial data `(q₀, p₀)`, with `p₀ = ϑ(q₀)` when the file gives no `p`.
    pub fn initial(&self) -> (Vector<D>, Vector<D>) {
        let (q0, p0) = self.file.initial();
        (super::vector(&q0), super::vector(&p0))
    }
}

impl<const D: usize> DegenerateLagrangian<D> for DegenerateLagrangianView<'_, D> {
    fn theta(&self, q: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector(DegenerateMethod::Theta, &[q.as_slice()])
    }

    fn theta_jacobian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file
            .model
            .matrix(DegenerateMethod::ThetaJacobian, &[q.as_slice()])
    }

    fn hamiltonian(&self, q: &Vector<D>) -> f64 {
        self.file
            .model
            .scalar(DegenerateMethod::Hamiltonian, &[q.as_slice()])
    }

    fn hamiltonian_gradient(&self, q: &Vector<D>) -> Vector<D> {
        self.file
            .model
            .vector(DegenerateMethod::HamiltonianGradient, &[q.as_slice()])
    }

    fn hamiltonian_hessian(&self, q: &Vector<D>) -> Matrix<D, D> {
        self.file
            .model
            .matrix(DegenerateMethod::HamiltonianHessian, &[q.as_slice()])
    }

    fn jacobian_transpose_product_derivative(&self, q: &Vector<D>, w: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            DegenerateMethod::JacobianTransposeProductDerivative,
            &[q.as_slice(), w.as_slice()],
        )
    }

    fn jacobian_product_derivative(&self, q: &Vector<D>, v: &Vector<D>) -> Matrix<D, D> {
        self.file.model.matrix(
            DegenerateMethod::JacobianProductDerivative,
            &[q.as_slice(), v.as_slice()],
        )
    }

    /// One tape for the three, each subexpression they share evaluated once; bit for bit the
    /// three methods' values.
    fn stage_point(&self, q: &Vector<D>) -> (Vector<D>, Matrix<D, D>, Vector<D>) {
        let file = self.file;
        file.model.point(&file.stage_point, &[q.as_slice()])
    }

    /// One tape for the three, each subexpression they share evaluated once; bit for bit the
    /// three methods' values.
    fn stage_point_derivatives(
        &self,
        q: &Vector<D>,
        w: &Vector<D>,
    ) -> (Matrix<D, D>, Matrix<D, D>, Matrix<D, D>) {
        let file = self.file;
        file.model
            .point(&file.stage_point_derivatives, &[q.as_slice(), w.as_slice()])
    }
}
