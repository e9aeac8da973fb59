//! The generated steppers by name: the table emitted by `cargo codegen`
//! (`generated::for_each_stepper!`) expanded into [`STEPPERS`] and a dispatch from a table
//! entry to the stepper type.
//!
//! Dispatch is for problems of dimension `D = 2` (every shipped degenerate Lagrangian problem):
//! the number of unknowns `N` is a const generic fixed per (stepper, D).

use crate::layout::{Dims, Layout};
use crate::problem::DegenerateLagrangian;
use crate::stage::StageMethod;

/// The dimension the dispatch instantiates.
pub const DIMENSION: usize = 2;

/// The number of unknowns of a stepper with unknown layout `layout` in dimension `d` (the one
/// place the command line reads a layout).
pub const fn unknowns(layout: &Layout, d: usize) -> usize {
    layout.len(Dims::uniform(d))
}

/// A generated stepper as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub pair: Option<&'static str>,
}

/// Something to do with a stepper type `M` (with `N` unknowns) on problems of type `P`.
pub trait StepperVisitor<P> {
    /// The result.
    type Output;
    /// Does it.
    fn visit<M: StageMethod<P, DIMENSION>, const N: usize>(
        self,
        info: &StepperInfo,
    ) -> Self::Output;
}

macro_rules! stepper_table {
    (
        degenerate: [$(($ty:ident, $family:literal, $s:literal, $order:literal, $pair:literal)),* $(,)?],
        holonomic: [$(($hty:ident, $hfamily:literal, $hs:literal, $horder:literal, $hpair:literal)),* $(,)?] $(,)?
    ) => {
        /// Every generated stepper for degenerate Lagrangians, in emission order.
        pub const STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($ty),
            family: $family,
            stages: $s,
            order: $order,
            pair: Some($pair),
        }),*];

        /// Every generated stepper for holonomic systems (`RattleLobattoIIIAIIIB{s}<M>`), run
        /// through `sparkgen::holonomic::integrate_holonomic`; listed by `methods`.
        pub const HOLONOMIC_STEPPERS: &[StepperInfo] = &[$(StepperInfo {
            name: stringify!($hty),
            family: $hfamily,
            stages: $hs,
            order: $horder,
            pair: Some($hpair),
        }),*];

        /// Calls `visitor.visit::<M, N>` with the stepper type named by `info`; `None` if no
        /// generated stepper has that name.
        pub fn visit<P: DegenerateLagrangian<DIMENSION>, V: StepperVisitor<P>>(
            info: &StepperInfo,
            visitor: V,
        ) -> Option<V::Output> {
            match info.name {
                $(stringify!($ty) => Some(visitor.visit::<
                    crate::generated::steppers::$ty,
                    { unknowns(&crate::generated::steppers::$ty::UNKNOWN_LAYOUT, DIMENSION) },
                >(info)),)*
                _ => None,
            }
        }
    };
}

crate::generated::for_each_stepper!(stepper_table);

/// The families in table order, each once.
pub fn families() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for s in STEPPERS {
        if !out.contains(&s.family) {
            out.push(s.family);
        }
    }
    out
}
