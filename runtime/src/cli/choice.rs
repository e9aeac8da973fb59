//! Choosing a method by name for a problem kind: a generated stepper family with a stage count
//! for degenerate Lagrangians (their own steppers, and the implicit-DAE steppers through the
//! view `LagrangianDae`); RATTLE, SHAKE or a generated RATTLE family for holonomic systems; an
//! implicit-DAE stepper family for implicit DAEs.

use super::error::CliError;
use super::registry::{
    HAMILTONIAN_STEPPERS, HOLONOMIC_STEPPERS, IMPLICIT_STEPPERS, STEPPERS, StepperInfo, families,
    long_run_default,
};
use crate::generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN;
use crate::generated::types::MethodFacts;

/// The kinds of problems, each with its methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `L = ϑ(q)·v − H(q)`: the generated SLRK and VPRK steppers.
    Degenerate,
    /// `H = ½pᵀM⁻¹p + V(q)`, `c(q) = 0`: RATTLE, SHAKE and the generated Lobatto IIIA–IIIB
    /// RATTLE steppers.
    Holonomic,
    /// Jay's index-2 form `q̇ = v + u`, `ṗ = f + g`, `p = ϑ(q, v)`, `0 = φ(q, p)`: the generated
    /// `Idae…` SPARK, VSPARK and VPARK steppers.
    Implicit,
    /// Hamiltonian DAEs `q̇ = v(q, p) + u`, `ṗ = f(q, p) + g`, `0 = φ(q, p)`: the generated
    /// `Hspark…` and `Hpark…` steppers.
    Hamiltonian,
}

impl Kind {
    /// Every kind, in listing order.
    pub const ALL: [Kind; 4] = [
        Kind::Degenerate,
        Kind::Holonomic,
        Kind::Implicit,
        Kind::Hamiltonian,
    ];

    /// The kind's name in messages and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Degenerate => "degenerate-lagrangian",
            Kind::Holonomic => "holonomic",
            Kind::Implicit => "implicit-dae",
            Kind::Hamiltonian => "hamiltonian-dae",
        }
    }
}

/// The hand-written holonomic integrators (order 2, one stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holonomic {
    /// RATTLE.
    Rattle,
    /// SHAKE (positions of RATTLE, central-difference momenta).
    Shake,
}

impl Holonomic {
    /// Both, in listing order.
    pub const ALL: [Holonomic; 2] = [Holonomic::Rattle, Holonomic::Shake];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            Holonomic::Rattle => "Rattle",
            Holonomic::Shake => "Shake",
        }
    }
}

/// A chosen method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// A generated stepper for degenerate Lagrangians.
    Stepper(&'static StepperInfo),
    /// A generated stepper for holonomic systems.
    HolonomicStepper(&'static StepperInfo),
    /// A generated stepper for implicit DAEs (on a degenerate Lagrangian: through its view).
    ImplicitStepper(&'static StepperInfo),
    /// A generated stepper for Hamiltonian DAEs (on a degenerate Lagrangian: through its view
    /// `DiracHamiltonian`).
    HamiltonianStepper(&'static StepperInfo),
    /// RATTLE or SHAKE.
    Holonomic(Holonomic),
}

impl Choice {
    /// Family name and stage count.
    pub fn family_and_stages(&self) -> (&'static str, usize) {
        match self {
            Choice::Stepper(info)
            | Choice::HolonomicStepper(info)
            | Choice::ImplicitStepper(info)
            | Choice::HamiltonianStepper(info) => (info.family, info.stages),
            Choice::Holonomic(h) => (h.name(), 1),
        }
    }

    /// What a generated stepper's structure implies (`None` for RATTLE and SHAKE).
    pub fn facts(&self) -> Option<MethodFacts> {
        match self {
            Choice::Stepper(info)
            | Choice::HolonomicStepper(info)
            | Choice::ImplicitStepper(info)
            | Choice::HamiltonianStepper(info) => Some(info.facts),
            Choice::Holonomic(_) => None,
        }
    }

    /// Whether the method holds its constraint to round-off at every step (`p = ϑ(q)`; for a
    /// holonomic system `c(q) = 0` and `G M⁻¹ p = 0`, which RATTLE imposes and SHAKE's
    /// central-difference momenta do not).
    pub fn preserves_constraint(&self) -> bool {
        match self {
            Choice::Holonomic(h) => *h == Holonomic::Rattle,
            _ => self.facts().is_some_and(|f| f.preserves_constraint),
        }
    }

    /// The method's name, e.g. `SlrkLobattoIIIE3`, `RattleLobattoIIIAIIIB3`, `Rattle`.
    pub fn name(&self) -> &'static str {
        match self {
            Choice::Stepper(info)
            | Choice::HolonomicStepper(info)
            | Choice::ImplicitStepper(info)
            | Choice::HamiltonianStepper(info) => info.name,
            Choice::Holonomic(h) => h.name(),
        }
    }
}

/// Every method for problems of `kind`, with its declared order: the generated steppers for
/// degenerate Lagrangians, then the implicit- and Hamiltonian-DAE steppers (which apply to
/// them through their views); RATTLE, SHAKE (order 2) and the generated steppers for holonomic
/// systems; the implicit-DAE steppers for implicit DAEs; the Hamiltonian-DAE steppers for
/// Hamiltonian DAEs.
pub fn methods(kind: Kind) -> Vec<(Choice, usize)> {
    let implicit = || {
        IMPLICIT_STEPPERS
            .iter()
            .map(|s| (Choice::ImplicitStepper(s), s.order))
    };
    let hamiltonian = || {
        HAMILTONIAN_STEPPERS
            .iter()
            .map(|s| (Choice::HamiltonianStepper(s), s.order))
    };
    match kind {
        Kind::Degenerate => STEPPERS
            .iter()
            .map(|s| (Choice::Stepper(s), s.order))
            .chain(implicit())
            .chain(hamiltonian())
            .collect(),
        Kind::Implicit => implicit().collect(),
        Kind::Hamiltonian => hamiltonian().collect(),
        Kind::Holonomic => Holonomic::ALL
            .into_iter()
            .map(|h| (Choice::Holonomic(h), 2))
            .chain(
                HOLONOMIC_STEPPERS
                    .iter()
                    .map(|s| (Choice::HolonomicStepper(s), s.order)),
            )
            .collect(),
    }
}

/// Case, `-`, `_` and spaces ignored.
pub fn normalize(name: &str) -> String {
    normalized(name).collect()
}

/// The characters of `name` as [`normalize`] keeps them.
fn normalized(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
}

/// Whether `name` normalizes to `wanted` (already normalized), without allocating: a method is
/// looked up among the whole catalogue at every run.
fn is_named(name: &str, wanted: &str) -> bool {
    normalized(name).eq(wanted.chars())
}

/// The method `name` (a family, or a stepper type name such as `SlrkLobattoIIIE3`) with
/// `stages` for problems of `kind`; `None` picks the kind's default: for degenerate Lagrangians
/// the method guide's pick for long runs ([`long_run_default`], its family at its stage count
/// unless `stages` says otherwise), RATTLE, IdaeVparkLobattoIIIBIIIApSymplectic (at its default
/// s = 3, `R∞ = +1`, so it also carries a physical multiplier, see
/// `tests/tests/idae_pendulum.rs`) and HsparkLobattoIIIAIIIB.
pub fn resolve(kind: Kind, name: Option<&str>, stages: Option<usize>) -> Result<Choice, CliError> {
    match kind {
        Kind::Degenerate => {
            // The name an unknown method is reported by.
            let asked = name.unwrap_or(LONG_RUN_DEGENERATE_LAGRANGIAN);
            let (wanted, stages) = match (name, long_run_default()) {
                (Some(name), _) => (normalize(name), stages),
                (None, Some(pick)) => (normalize(pick.family), stages.or(Some(pick.stages))),
                // A generated crate that names no listed stepper: say which name is unknown.
                (None, None) => (normalize(LONG_RUN_DEGENERATE_LAGRANGIAN), stages),
            };
            if let Some(found) = generated(STEPPERS, &wanted, stages) {
                return found.map(Choice::Stepper);
            }
            if let Some(found) = generated(IMPLICIT_STEPPERS, &wanted, stages) {
                return found.map(Choice::ImplicitStepper);
            }
            generated(HAMILTONIAN_STEPPERS, &wanted, stages)
                .ok_or_else(|| unknown(kind, Some(asked)))?
                .map(Choice::HamiltonianStepper)
        }
        Kind::Hamiltonian => {
            let wanted = normalize(name.unwrap_or("HsparkLobattoIIIAIIIB"));
            generated(HAMILTONIAN_STEPPERS, &wanted, stages)
                .ok_or_else(|| unknown(kind, name))?
                .map(Choice::HamiltonianStepper)
        }
        Kind::Implicit => {
            let wanted = normalize(name.unwrap_or("IdaeVparkLobattoIIIBIIIApSymplectic"));
            generated(IMPLICIT_STEPPERS, &wanted, stages)
                .ok_or_else(|| unknown(kind, name))?
                .map(Choice::ImplicitStepper)
        }
        Kind::Holonomic => {
            let wanted = normalize(name.unwrap_or("Rattle"));
            let Some(method) = Holonomic::ALL
                .into_iter()
                .find(|h| is_named(h.name(), &wanted))
            else {
                return generated(HOLONOMIC_STEPPERS, &wanted, stages)
                    .ok_or_else(|| unknown(kind, name))?
                    .map(Choice::HolonomicStepper);
            };
            match stages {
                Some(s) if s != 1 => Err(CliError::UnknownStages {
                    family: method.name().to_owned(),
                    stages: s,
                    valid: "1".to_owned(),
                }),
                _ => Ok(Choice::Holonomic(method)),
            }
        }
    }
}

/// The stepper of `table` named `wanted` (normalized: a type name, or a family with `stages`,
/// by default 3 where the family has it, else its smallest); `None` if no name matches.
fn generated(
    table: &'static [StepperInfo],
    wanted: &str,
    stages: Option<usize>,
) -> Option<Result<&'static StepperInfo, CliError>> {
    if let Some(info) = table.iter().find(|s| is_named(s.name, wanted)) {
        return Some(match stages {
            Some(s) if s != info.stages => Err(CliError::InvalidValue {
                what: "--stages",
                value: s.to_string(),
                reason: "the method name already fixes the stage count",
            }),
            _ => Ok(info),
        });
    }
    let family = table
        .iter()
        .map(|s| s.family)
        .find(|f| is_named(f, wanted))?;
    let members = || table.iter().filter(move |s| s.family == family);
    let stages = match stages {
        Some(s) => s,
        None if members().any(|m| m.stages == 3) => 3,
        None => members().map(|m| m.stages).min().unwrap_or(0),
    };
    Some(members().find(|m| m.stages == stages).ok_or_else(|| {
        let valid: Vec<String> = members().map(|s| s.stages.to_string()).collect();
        CliError::UnknownStages {
            family: family.to_owned(),
            stages,
            valid: valid.join(", "),
        }
    }))
}

fn unknown(kind: Kind, name: Option<&str>) -> CliError {
    let valid = match kind {
        Kind::Degenerate => {
            let mut names = families(STEPPERS);
            names.extend(families(IMPLICIT_STEPPERS));
            names.extend(families(HAMILTONIAN_STEPPERS));
            names
        }
        Kind::Implicit => families(IMPLICIT_STEPPERS),
        Kind::Hamiltonian => families(HAMILTONIAN_STEPPERS),
        Kind::Holonomic => {
            let mut names = Holonomic::ALL.map(Holonomic::name).to_vec();
            names.extend(families(HOLONOMIC_STEPPERS));
            names
        }
    };
    CliError::UnknownMethod {
        name: name.unwrap_or_default().to_owned(),
        kind: kind.name(),
        valid: valid.join(", "),
    }
}
