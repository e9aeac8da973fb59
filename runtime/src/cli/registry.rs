//! The generated steppers by name: the table emitted by `cargo codegen`
//! (`generated::for_each_stepper!`) expanded into [`STEPPERS`] and the tables of the other
//! kinds, as data. The command runs every method by its name on the run-time engine
//! ([`crate::engine::Engine::catalogue`]); no stepper type is instantiated here.

use crate::generated::measured::{LONG_RUN, LONG_RUN_DEGENERATE_LAGRANGIAN};
use crate::generated::types::LongRun;

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
