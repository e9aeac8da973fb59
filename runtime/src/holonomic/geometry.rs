//! A holonomic system as RATTLE, SHAKE and the projections see it ([`Geometry`]): `c(q)`,
//! `G(q) = Dc(q)`, `∇V(q)`, `H(q, p)` and the constant `M`, `M⁻¹`, on nalgebra storage whose
//! sizes `D`, `M` are known at compile time (`Const`, every [`HolonomicSystem<D, M>`]) or at run
//! time (`Dyn`, a holonomic problem file of any shape). One implementation of every step serves
//! both; for `Const` sizes the types are nalgebra's fixed-size ones, on the stack.

use crate::error::IntegrateError;
use crate::problem::{HolonomicSystem, check_mass_matrix};
use crate::solve::{Dynamic, Fixed, Space};
use nalgebra::allocator::Allocator;
use nalgebra::{Const, DefaultAllocator, Dim, Dyn, OMatrix, OVector};

/// A column of `N` entries.
pub type Column<N> = OVector<f64, N>;
/// An `R × C` matrix.
pub type Block<R, C> = OMatrix<f64, R, C>;

/// nalgebra's storage for every vector and matrix shape of a system with `D` coordinates and `M`
/// constraints (`D`, `M`, `M × D`, `D × M`, `D × D`, `M × M`).
pub trait Shapes<D: Dim, M: Dim>:
    Allocator<D> + Allocator<M> + Allocator<M, D> + Allocator<D, M> + Allocator<D, D> + Allocator<M, M>
{
}

impl<D: Dim, M: Dim> Shapes<D, M> for DefaultAllocator where
    DefaultAllocator: Allocator<D>
        + Allocator<M>
        + Allocator<M, D>
        + Allocator<D, M>
        + Allocator<D, D>
        + Allocator<M, M>
{
}

/// A size whose square systems the LU of [`crate::solve`](mod@crate::solve) factors: its [`Space`].
pub trait Solvable: Dim {
    /// The LU's storage.
    type Space: Space;
    /// The space of this size; `None` when an `n × n` matrix would not fit in memory.
    fn space(self) -> Option<Self::Space>;
}

impl<const N: usize> Solvable for Const<N> {
    type Space = Fixed<N>;
    fn space(self) -> Option<Fixed<N>> {
        Some(Fixed)
    }
}

impl Solvable for Dyn {
    type Space = Dynamic;
    fn space(self) -> Option<Dynamic> {
        Dynamic::new(self.value())
    }
}

/// The kernels of a holonomic system `H = ½ pᵀM⁻¹p + V(q)`, `c(q) = 0` with `D` coordinates and
/// `M` constraints, evaluated on nalgebra storage of those sizes.
pub trait Geometry<D: Dim, M: Solvable>
where
    DefaultAllocator: Shapes<D, M>,
{
    /// The sizes `(D, M)`.
    fn shape(&self) -> (D, M);
    /// The constraints `c(q)`.
    fn constraint_values(&self, q: &Column<D>) -> Column<M>;
    /// Their Jacobian `G(q) = Dc(q)` (`M × D`).
    fn constraint_gradients(&self, q: &Column<D>) -> Block<M, D>;
    /// `∇V(q)`.
    fn force_gradient(&self, q: &Column<D>) -> Column<D>;
    /// `H(q, p) = ½ pᵀM⁻¹p + V(q)`.
    fn total_energy(&self, q: &Column<D>, p: &Column<D>) -> f64;
    /// The velocity `M⁻¹p`.
    fn velocity_of(&self, p: &Column<D>) -> Column<D>;
    /// The mass matrix `M`.
    fn mass(&self) -> Block<D, D>;
    /// Its inverse `M⁻¹`.
    fn inverse_mass(&self) -> Block<D, D>;
    /// Checks that `M` is symmetric positive definite ([`check_mass_matrix`]).
    fn check_mass(&self) -> Result<(), IntegrateError> {
        Ok(check_mass_matrix(&self.mass())?)
    }
}

impl<P, const D: usize, const M: usize> Geometry<Const<D>, Const<M>> for P
where
    P: HolonomicSystem<D, M>,
{
    fn shape(&self) -> (Const<D>, Const<M>) {
        (Const, Const)
    }
    fn constraint_values(&self, q: &Column<Const<D>>) -> Column<Const<M>> {
        self.constraints(q)
    }
    fn constraint_gradients(&self, q: &Column<Const<D>>) -> Block<Const<M>, Const<D>> {
        self.constraint_jacobian(q)
    }
    fn force_gradient(&self, q: &Column<Const<D>>) -> Column<Const<D>> {
        self.potential_gradient(q)
    }
    fn total_energy(&self, q: &Column<Const<D>>, p: &Column<Const<D>>) -> f64 {
        self.hamiltonian(q, p)
    }
    fn velocity_of(&self, p: &Column<Const<D>>) -> Column<Const<D>> {
        self.velocity(p)
    }
    fn mass(&self) -> Block<Const<D>, Const<D>> {
        self.mass_matrix()
    }
    fn inverse_mass(&self) -> Block<Const<D>, Const<D>> {
        self.inverse_mass_matrix()
    }
    fn check_mass(&self) -> Result<(), IntegrateError> {
        Ok(self.validate_mass_matrix()?)
    }
}
