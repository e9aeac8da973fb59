//! The generated steppers by name: the table emitted by `cargo codegen`
//! (`generated::for_each_stepper!`) expanded into [`STEPPERS`] and a dispatch from a table
//! entry to the stepper type.
//!
//! Dispatch is for problems of dimension `D = 2` (every shipped degenerate Lagrangian problem)
//! and, for the DAE kinds and holonomic systems, for the `(D, M)` of the shipped ones
//! ([`IMPLICIT_SHAPES`], [`HAMILTONIAN_SHAPES`], [`HOLONOMIC_SHAPES`]): each supported shape is
//! one instantiation of every stepper. A stage method's unknowns are sized from its layout when
//! it runs; the holonomic dispatch alone still hands its visitor their number `N` as a const
//! generic.

use crate::generated::measured::{LONG_RUN, LONG_RUN_DEGENERATE_LAGRANGIAN};
use crate::generated::types::LongRun;
use crate::problem::{DegenerateLagrangian, HamiltonianDae, HolonomicSystem, ImplicitDae};
use crate::stage::StageMethod;

/// The dimension the dispatch instantiates.
pub const DIMENSION: usize = 2;

/// The (D coordinates, M constraints) the holonomic dispatch instantiates: the pendulum, the
/// spherical pendulum and the triatomic molecule (each has a [`HolonomicDispatch`] impl below).
pub const HOLONOMIC_SHAPES: &[(usize, usize)] = &[(2, 1), (3, 1), (9, 3)];

/// The (D, M) the implicit-DAE dispatch instantiates: the view of a degenerate Lagrangian in
/// two dimensions (M = D = 2) and the index-2 pendulum (2, 1) (each has an
/// [`ImplicitDispatch`] impl below).
pub const IMPLICIT_SHAPES: &[(usize, usize)] = &[(2, 2), (2, 1)];

/// The (D, M) the Hamiltonian-DAE dispatch instantiates: the view `DiracHamiltonian` of a
/// degenerate Lagrangian in two dimensions (M = D = 2) (a [`HamiltonianDispatch`] impl below).
pub const HAMILTONIAN_SHAPES: &[(usize, usize)] = &[(2, 2)];

/// A generated stepper as data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepperInfo {
    /// Type name in `generated::steppers`, e.g. `SlrkLobattoIIIE3`.
    pub name: &'static str,
    /// Family, e.g. `SlrkLobattoIIIE`.
    pub family: &'static str,
    /// Stages s.
    pub stages: usize,
    /// Classical order.
    pub order: usize,
    /// The catalogue pair it is built on (a name in `generated::catalogue::PAIRS`).
    pub pair: &'static str,
    /// What its stage structure implies (decided by the generator's family builder).
    pub facts: crate::generated::types::MethodFacts,
}

impl StepperInfo {
    /// Its measured behaviour over long runs (`generated::measured::LONG_RUN`), if measured.
    pub fn long_run(&self) -> Option<&'static LongRun> {
        LONG_RUN.iter().find(|l| l.method == self.name)
    }
}

/// The generated stepper that the method guide picks for long runs of degenerate Lagrangians
/// (`generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN`), which the command runs by default;
/// `None` only if the generated crate names a stepper it does not list.
pub fn long_run_default() -> Option<&'static StepperInfo> {
    STEPPERS
        .iter()
        .find(|s| s.name == LONG_RUN_DEGENERATE_LAGRANGIAN)
}

/// Something to do with a generated stepper type `M` on problems of type `P` with `D`
/// coordinates.
pub trait StepperVisitor<P, const D: usize> {
    /// The result.
    type Output;
    /// Does it.
    fn visit<M: StageMethod<P, D>>(self, info: &StepperInfo) -> Self::Output;
}

/// Something to do with a generated holonomic stepper type `Meth` on problems of type `P` with
/// `D` coordinates and `M` constraints.
pub trait ShapeVisitor<P, const D: usize, const M: usize> {
    /// The result.
    type Output;
    /// Does it.
    fn visit<Meth: StageMethod<P, D>>(self, info: &StepperInfo) -> Self::Output;
}

/// The shape `(D, M)` as a type, so that the holonomic and DAE dispatches are instantiated per
/// supported shape ([`HOLONOMIC_SHAPES`], [`IMPLICIT_SHAPES`], [`HAMILTONIAN_SHAPES`]).
#[derive(Clone, Copy, Debug)]
pub struct Shape<const D: usize, const M: usize>;

/// The generated holonomic steppers for systems of one shape `(D, M)`.
pub trait HolonomicDispatch<const D: usize, const M: usize> {
    /// Calls `visitor.visit::<Meth>` with the stepper type named by `info`; `None` if no
    /// generated holonomic stepper has that name.
    fn visit<P: HolonomicSystem<D, M>, V: ShapeVisitor<P, D, M>>(
        info: &StepperInfo,
        visitor: V,
    ) -> Option<V::Output>;
}

/// The generated implicit-DAE steppers for systems of one shape `(D, M)`.
pub trait ImplicitDispatch<const D: usize, const M: usize> {
    /// Calls `visitor.visit::<Meth>` with the stepper type named by `info`; `None` if no
    /// generated implicit-DAE stepper has that name.
    fn visit<P: ImplicitDae<D, M>, V: StepperVisitor<P, D>>(
        info: &StepperInfo,
        visitor: V,
    ) -> Option<V::Output>;
}

/// The generated Hamiltonian-DAE steppers for systems of one shape `(D, M)`.
pub trait HamiltonianDispatch<const D: usize, const M: usize> {
    /// Calls `visitor.visit::<Meth>` with the stepper type named by `info`; `None` if no
    /// generated Hamiltonian-DAE stepper has that name.
    fn visit<P: HamiltonianDae<D, M>, V: StepperVisitor<P, D>>(
        info: &StepperInfo,
        visitor: V,
    ) -> Option<V::Output>;
}

/// The `$dispatch` impl (over problems `$problem`) of shape `($d, $m)` over the stepper types
/// `$ty<M>`, visited by a `$visitor`.
macro_rules! shape_dispatch {
    ($dispatch:ident, $problem:ident, $visitor:ident<$($arg:tt),*>, $d:literal, $m:literal; $($ty:ident),* $(,)?) => {
        impl $dispatch<$d, $m> for Shape<$d, $m> {
            fn visit<P: $problem<$d, $m>, V: $visitor<P, $($arg),*>>(
                info: &StepperInfo,
                visitor: V,
            ) -> Option<V::Output> {
                match info.name {
                    $(stringify!($ty) => Some(shape_dispatch!(@visit $visitor, visitor, info, $ty, $d, $m)),)*
                    _ => None,
                }
            }
        }
    };
    (@visit $kind:ident, $visitor:ident, $info:ident, $ty:ident, $d:literal, $m:literal) => {
        $visitor.visit::<crate::generated::steppers::$ty<$m>>($info)
    };
}

macro_rules! stepper_table {
    (
        degenerate: [$(($ty:ident, $family:literal, $s:literal, $order:literal, $pair:literal, $facts:expr)),* $(,)?],
        holonomic: [$(($hty:ident, $hfamily:literal, $hs:literal, $horder:literal, $hpair:literal, $hfacts:expr)),* $(,)?],
        implicit: [$(($ity:ident, $ifamily:literal, $is:literal, $iorder:literal, $ipair:literal, $ifacts:expr)),* $(,)?],
        hamiltonian: [$(($aty:ident, $afamily:literal, $as:literal, $aorder:literal, $apair:literal, $afacts:expr)),* $(,)?] $(,)?
    ) => {
        /// Every generated stepper for degenerate Lagrangians, in emission order.
        pub const STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($ty),
            family: $family,
            stages: $s,
            order: $order,
            pair: $pair,
            facts: $facts,
        }),*];

        /// Every generated stepper for holonomic systems (`RattleLobattoIIIAIIIB{s}<M>`), run
        /// through `sparkgen::solve` with the holonomic checks.
        pub const HOLONOMIC_STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($hty),
            family: $hfamily,
            stages: $hs,
            order: $horder,
            pair: $hpair,
            facts: $hfacts,
        }),*];

        /// Every generated stepper for implicit DAEs (`IdaeSpark…<M>`, `IdaeVspark…<M>`,
        /// `IdaeVpark…<M>`).
        pub const IMPLICIT_STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($ity),
            family: $ifamily,
            stages: $is,
            order: $iorder,
            pair: $ipair,
            facts: $ifacts,
        }),*];

        /// Every generated stepper for Hamiltonian DAEs (`Hspark…<M>`, `Hpark…<M>`).
        pub const HAMILTONIAN_STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($aty),
            family: $afamily,
            stages: $as,
            order: $aorder,
            pair: $apair,
            facts: $afacts,
        }),*];

        /// Calls `visitor.visit::<M>` with the stepper type named by `info`; `None` if no
        /// generated stepper has that name.
        pub fn visit<P: DegenerateLagrangian<DIMENSION>, V: StepperVisitor<P, DIMENSION>>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($ty) => Some(visitor.visit::<crate::generated::steppers::$ty>(info)),)*
                _ => None,
            }
        }

        shape_dispatch!(HolonomicDispatch, HolonomicSystem, ShapeVisitor<2, 1>, 2, 1; $($hty),*);
        shape_dispatch!(HolonomicDispatch, HolonomicSystem, ShapeVisitor<3, 1>, 3, 1; $($hty),*);
        shape_dispatch!(HolonomicDispatch, HolonomicSystem, ShapeVisitor<9, 3>, 9, 3; $($hty),*);
        shape_dispatch!(ImplicitDispatch, ImplicitDae, StepperVisitor<2>, 2, 2; $($ity),*);
        shape_dispatch!(ImplicitDispatch, ImplicitDae, StepperVisitor<2>, 2, 1; $($ity),*);
        shape_dispatch!(HamiltonianDispatch, HamiltonianDae, StepperVisitor<2>, 2, 2; $($aty),*);
    };
}

crate::generated::for_each_stepper!(stepper_table);

/// The families of `table` in table order, each once.
pub fn families(table: &[StepperInfo]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for s in table {
        if !out.contains(&s.family) {
            out.push(s.family);
        }
    }
    out
}
