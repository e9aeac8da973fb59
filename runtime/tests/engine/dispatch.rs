//! The compiled steppers by name for the shapes these tests compare against the engine: the
//! stepper table (`sparkgen::generated::for_each_stepper!`) expanded into a dispatch from a
//! table entry to the stepper type, instantiated for Lotka–Volterra (D = 2), the pendulum
//! (2, 1), the index-2 pendulum (2, 1) and the DAE views of Lotka–Volterra (2, 2). The command
//! runs every method on the engine; only these tests instantiate the catalogue.

use sparkgen::cli::registry::StepperInfo;
use sparkgen::problem::{DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae};
use sparkgen::stage::StageMethod;

/// Something to do with a generated stepper type `M` on problems of type `P` with `D`
/// coordinates.
pub trait StepperVisitor<P, const D: usize> {
    /// The result.
    type Output;
    /// Does it.
    fn visit<M: StageMethod<P, D>>(self, info: &StepperInfo) -> Self::Output;
}

macro_rules! dispatch {
    (
        degenerate: [$(($ty:ident, $($_a:tt)*)),* $(,)?],
        holonomic: [$(($hty:ident, $($_b:tt)*)),* $(,)?],
        implicit: [$(($ity:ident, $($_c:tt)*)),* $(,)?],
        hamiltonian: [$(($aty:ident, $($_d:tt)*)),* $(,)?] $(,)?
    ) => {
        /// Visits the degenerate-Lagrangian stepper named by `info` (D = 2).
        pub fn degenerate<P: DegenerateLagrangian<2>, V: StepperVisitor<P, 2>>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($ty) => Some(visitor.visit::<sparkgen::generated::steppers::$ty>(info)),)*
                _ => None,
            }
        }

        /// Visits the holonomic stepper named by `info` for the shape (2, 1).
        pub fn holonomic<P: HolonomicSystem<2, 1>, V: StepperVisitor<P, 2>>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($hty) => Some(visitor.visit::<sparkgen::generated::steppers::$hty<1>>(info)),)*
                _ => None,
            }
        }

        /// Visits the implicit-DAE stepper named by `info` for the shape (2, M).
        pub fn implicit<P: ImplicitDae<2, M>, V: StepperVisitor<P, 2>, const M: usize>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($ity) => Some(visitor.visit::<sparkgen::generated::steppers::$ity<M>>(info)),)*
                _ => None,
            }
        }

        /// Visits the Hamiltonian-DAE stepper named by `info` for the shape (2, 2).
        pub fn hamiltonian<P: HamiltonianDae<2, 2>, V: StepperVisitor<P, 2>>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($aty) => Some(visitor.visit::<sparkgen::generated::steppers::$aty<2>>(info)),)*
                _ => None,
            }
        }
    };
}

sparkgen::generated::for_each_stepper!(dispatch);
