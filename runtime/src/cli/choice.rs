//! Choosing a method by name for a problem kind: a generated stepper family with a stage count
//! for degenerate Lagrangians, RATTLE or SHAKE for holonomic systems.

use super::error::CliError;
use super::registry::{STEPPERS, StepperInfo, families};

/// The kinds of problems, each with its methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `L = ϑ(q)·v − H(q)`: the generated SLRK and VPRK steppers.
    Degenerate,
    /// `H = ½pᵀM⁻¹p + V(q)`, `c(q) = 0`: RATTLE and SHAKE.
    Holonomic,
}

impl Kind {
    /// The kind's name in messages and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Degenerate => "degenerate-lagrangian",
            Kind::Holonomic => "holonomic",
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A generated stepper.
    Stepper(&'static StepperInfo),
    /// RATTLE or SHAKE.
    Holonomic(Holonomic),
}

impl Choice {
    /// Family name and stage count.
    pub fn family_and_stages(&self) -> (&'static str, usize) {
        match self {
            Choice::Stepper(info) => (info.family, info.stages),
            Choice::Holonomic(h) => (h.name(), 1),
        }
    }
}

/// Case, `-`, `_` and spaces ignored.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The method `name` (a family, or a stepper type name such as `SlrkLobattoIIIE3`) with
/// `stages` for problems of `kind`; `None` picks the kind's default (SLRKLobattoIIIE, RATTLE).
pub fn resolve(kind: Kind, name: Option<&str>, stages: Option<usize>) -> Result<Choice, CliError> {
    match kind {
        Kind::Degenerate => {
            let wanted = normalize(name.unwrap_or("SlrkLobattoIIIE"));
            if let Some(info) = STEPPERS.iter().find(|s| normalize(s.name) == wanted) {
                return match stages {
                    Some(s) if s != info.stages => Err(CliError::InvalidValue {
                        what: "--stages",
                        value: s.to_string(),
                        reason: "the method name already fixes the stage count",
                    }),
                    _ => Ok(Choice::Stepper(info)),
                };
            }
            let family = families()
                .into_iter()
                .find(|f| normalize(f) == wanted)
                .ok_or_else(|| unknown(kind, name))?;
            let members = || STEPPERS.iter().filter(move |s| s.family == family);
            let stages = match stages {
                Some(s) => s,
                None if members().any(|m| m.stages == 3) => 3,
                None => members().map(|m| m.stages).min().unwrap_or(0),
            };
            members()
                .find(|m| m.stages == stages)
                .map(Choice::Stepper)
                .ok_or_else(|| stages_error(family, stages))
        }
        Kind::Holonomic => {
            let wanted = normalize(name.unwrap_or("Rattle"));
            let method = Holonomic::ALL
                .into_iter()
                .find(|h| normalize(h.name()) == wanted)
                .ok_or_else(|| unknown(kind, name))?;
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

fn unknown(kind: Kind, name: Option<&str>) -> CliError {
    let valid = match kind {
        Kind::Degenerate => families().join(", "),
        Kind::Holonomic => Holonomic::ALL.map(Holonomic::name).join(", "),
    };
    CliError::UnknownMethod {
        name: name.unwrap_or_default().to_owned(),
        kind: kind.name(),
        valid,
    }
}

fn stages_error(family: &str, stages: usize) -> CliError {
    let valid: Vec<String> = STEPPERS
        .iter()
        .filter(|s| s.family == family)
        .map(|s| s.stages.to_string())
        .collect();
    CliError::UnknownStages {
        family: family.to_owned(),
        stages,
        valid: valid.join(", "),
    }
}
