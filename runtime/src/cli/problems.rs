//! The built-in problems by name, with their parameters and initial data: the degenerate
//! Lagrangians and holonomic systems are the problem files of `runtime/problems/` (compiled into
//! the binary), run like any `--problem-file`; the two DAEs that no file kind holds (Jay's
//! index-2 pendulum, Lotka–Volterra's Dirac Hamiltonian) are derives, run on the engine through
//! their [`Kernels`](crate::engine::Kernels) views. Every built-in problem runs on the run-time
//! engine ([`super::run::PATH`]): the command instantiates no compiled stepper.

use super::choice::Kind;
use super::error::CliError;
use super::params::Params;
use super::problem_files;
use super::run::{Run, RunSpec, Subject};
use crate::engine::{Hamiltonian, Implicit};
use crate::holonomic::problems::{Pendulum, Triatomic};
use crate::problem::Vector;
use crate::problem_file::ProblemFile;
use crate::problems::{DegeneratePendulum, IndexTwoPendulum, LotkaVolterra2d, LotkaVolterraDirac};

/// A built-in problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProblemInfo {
    /// Name on the command line.
    pub name: &'static str,
    /// Its kind (which methods apply).
    pub kind: Kind,
    /// One line: the equations and the default data.
    pub summary: &'static str,
    /// Parameters and initial values accepted by `--param`.
    pub params: &'static [&'static str],
}

impl ProblemInfo {
    /// The run's subject: this built-in problem.
    pub fn subject(&self) -> Subject {
        Subject {
            name: self.name.to_owned(),
            kind: self.kind,
        }
    }
}

const LV_PARAMS: &[&str] = &["a1", "a2", "b1", "b2", "q1", "q2"];
const PENDULUM_PARAMS: &[&str] = &["m", "g", "l", "theta", "theta_dot"];

/// Every built-in problem; the first is the default.
pub const PROBLEMS: &[ProblemInfo] = &[
    ProblemInfo {
        name: "lotka-volterra",
        kind: Kind::Degenerate,
        summary: "Lotka–Volterra 2d, ϑ = (q₂ + ln q₂/q₁, q₁), a = (−1, −1), b = (1, 2), q₀ = (2, 1)",
        params: LV_PARAMS,
    },
    ProblemInfo {
        name: "lotka-volterra-singular",
        kind: Kind::Degenerate,
        summary: "Lotka–Volterra 2d in the singular gauge ϑ = (ln q₂/q₁, 0), same data",
        params: LV_PARAMS,
    },
    ProblemInfo {
        name: "degenerate-pendulum",
        kind: Kind::Degenerate,
        summary: "degenerate pendulum ϑ = (q₂, 0), H = q₂²/2 + cos q₁, q₀ = (arccos 0.4, 0)",
        params: &["q1", "q2"],
    },
    ProblemInfo {
        name: "pendulum",
        kind: Kind::Holonomic,
        summary: "Cartesian pendulum, m = g = ℓ = 1, θ₀ = 1, θ̇₀ = 0",
        params: PENDULUM_PARAMS,
    },
    ProblemInfo {
        name: "spherical-pendulum",
        kind: Kind::Holonomic,
        summary: "spherical pendulum, m = g = ℓ = 1, polar angle θ₀ = 1, azimuthal rate φ̇₀ = 1",
        params: &["m", "g", "l", "theta", "phi_dot"],
    },
    ProblemInfo {
        name: "triatomic",
        kind: Kind::Holonomic,
        summary: "rigid water-like triatomic molecule in a trap, rigid-body initial velocity",
        params: &["m1", "m2", "m3", "d12", "d13", "d23", "k", "a"],
    },
    ProblemInfo {
        name: "lotka-volterra-hamiltonian",
        kind: Kind::Hamiltonian,
        summary: "Lotka–Volterra 2d as a Hamiltonian DAE with Dirac constraints, H = a₁q₁ + a₂q₂ + b₁ ln q₁ + b₂ ln q₂, φ = p − (q₂ + ln q₂/q₁, q₁), a = (−1, −1), b = (1, 2), q₀ = (2, 1), λ from H + λ·φ",
        params: LV_PARAMS,
    },
    ProblemInfo {
        name: "index-two-pendulum",
        kind: Kind::Implicit,
        summary: "planar pendulum in Jay's index-2 form, p = m v, φ = q·p/m, m = g = ℓ = 1, θ₀ = 1, θ̇₀ = 0",
        params: PENDULUM_PARAMS,
    },
];

/// The problem file of each built-in degenerate Lagrangian and holonomic system, by name.
const FILES: &[(&str, &str)] = &[
    (
        "lotka-volterra",
        include_str!("../../problems/lotka_volterra.toml"),
    ),
    (
        "lotka-volterra-singular",
        include_str!("../../problems/lotka_volterra_singular.toml"),
    ),
    (
        "degenerate-pendulum",
        include_str!("../../problems/degenerate_pendulum.toml"),
    ),
    ("pendulum", include_str!("../../problems/pendulum.toml")),
    (
        "spherical-pendulum",
        include_str!("../../problems/spherical_pendulum.toml"),
    ),
    ("triatomic", include_str!("../../problems/triatomic.toml")),
];

/// The problem called `name` (`None`: the default).
pub fn find(name: Option<&str>) -> Result<&'static ProblemInfo, CliError> {
    let Some(name) = name else {
        return Ok(&PROBLEMS[0]);
    };
    PROBLEMS
        .iter()
        .find(|p| super::choice::normalize(p.name) == super::choice::normalize(name))
        .ok_or_else(|| CliError::UnknownProblem {
            name: name.to_owned(),
            valid: PROBLEMS
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A built-in problem made from its parameters.
#[derive(Clone, Debug)]
pub enum Made {
    /// A degenerate Lagrangian or holonomic system: its problem file, with the parameters and
    /// the initial state set.
    File(Box<ProblemFile>),
    /// Jay's index-2 pendulum from `(q₀, p₀)`.
    IndexTwoPendulum(IndexTwoPendulum, Vector<2>, Vector<2>),
    /// Lotka–Volterra's Dirac Hamiltonian from `(q₀, p₀)`.
    LotkaVolterraDirac(LotkaVolterraDirac, Vector<2>, Vector<2>),
}

/// The built-in problem file `name` (a name of [`FILES`]) with the parameters it has among
/// `params` set.
fn file(name: &str, params: &Params) -> Result<ProblemFile, CliError> {
    let mut file = parse(name)?;
    let values: Vec<(String, f64)> = file
        .parameters()
        .map(|(n, default)| (n.to_owned(), params.get(n, default)))
        .collect();
    let values = values.iter().map(|(n, v)| (n.as_str(), *v));
    problem_files::set_parameters(&mut file, name, values)?;
    Ok(file)
}

/// The built-in problem file `name` as shipped.
fn parse(name: &str) -> Result<ProblemFile, CliError> {
    let (_, source) =
        FILES
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| CliError::UnknownProblem {
                name: name.to_owned(),
                valid: "(a built-in problem without a file)".to_owned(),
            })?;
    ProblemFile::parse(source).map_err(|e| CliError::InvalidParameters {
        path: name.into(),
        reason: e.to_string(),
    })
}

/// The built-in problem file `name` with the parameters `values` (the others as shipped) from
/// `q₀` and `p₀` (`p₀ = ϑ(q₀)` where `None`): the configurations `sparkgen verify` studies.
pub(super) fn file_at(
    name: &str,
    values: &[(&str, f64)],
    q0: &[f64],
    p0: Option<&[f64]>,
) -> Result<ProblemFile, CliError> {
    let mut file = parse(name)?;
    problem_files::set_parameters(&mut file, name, values.iter().copied())?;
    starting(file, name, q0, p0)
}

/// Sets the initial state of `file` (built-in problem `name`) to `q₀` and `p₀` (`p₀ = ϑ(q₀)`
/// where `None`).
fn starting(
    mut file: ProblemFile,
    name: &str,
    q0: &[f64],
    p0: Option<&[f64]>,
) -> Result<ProblemFile, CliError> {
    file.set_initial(q0, p0)
        .map_err(|e| CliError::InvalidParameters {
            path: name.into(),
            reason: e.to_string(),
        })?;
    Ok(file)
}

/// [`starting`] as a made problem.
fn from(file: ProblemFile, name: &str, q0: &[f64], p0: Option<&[f64]>) -> Result<Made, CliError> {
    starting(file, name, q0, p0).map(|file| Made::File(Box::new(file)))
}

/// Builds `info`'s problem with `params`.
pub fn make(info: &ProblemInfo, params: &Params) -> Result<Made, CliError> {
    let get = |name, default| params.get(name, default);
    let name = info.name;
    match name {
        "lotka-volterra" | "lotka-volterra-singular" => {
            let [x, y] = LotkaVolterra2d::UPSTREAM_Q0;
            from(
                file(name, params)?,
                name,
                &[get("q1", x), get("q2", y)],
                None,
            )
        }
        "degenerate-pendulum" => {
            let (d, _) = DegeneratePendulum.initial();
            let q0 = [get("q1", d[0]), get("q2", d[1])];
            from(file(name, params)?, name, &q0, None)
        }
        "pendulum" => {
            let (q0, p0) = pendulum(params)?.state(get("theta", 1.0), get("theta_dot", 0.0));
            from(
                file(name, params)?,
                name,
                q0.as_slice(),
                Some(p0.as_slice()),
            )
        }
        "spherical-pendulum" => {
            let Pendulum { m, l, .. } = pendulum(params)?;
            let (theta, rate) = (get("theta", 1.0), get("phi_dot", 1.0));
            let (s, c) = theta.sin_cos();
            let q0 = [l * s, 0.0, -l * c];
            let p0 = [0.0, m * l * s * rate, 0.0];
            from(file(name, params)?, name, &q0, Some(&p0))
        }
        "triatomic" => {
            let d = Triatomic::WATER_LIKE;
            let molecule = Triatomic {
                m1: params.mass("m1", d.m1)?,
                m2: params.mass("m2", d.m2)?,
                m3: params.mass("m3", d.m3)?,
                d12: get("d12", d.d12),
                d13: get("d13", d.d13),
                d23: get("d23", d.d23),
                k: get("k", d.k),
                a: get("a", d.a),
            };
            let (q0, p0) = triatomic_state(&molecule)?;
            from(
                file(name, params)?,
                name,
                q0.as_slice(),
                Some(p0.as_slice()),
            )
        }
        "lotka-volterra-hamiltonian" => {
            let d = LotkaVolterra2d::UPSTREAM;
            let lv = LotkaVolterra2d {
                a1: get("a1", d.a1),
                a2: get("a2", d.a2),
                b1: get("b1", d.b1),
                b2: get("b2", d.b2),
            };
            let [x, y] = LotkaVolterra2d::UPSTREAM_Q0;
            let (q0, p0) = lv.initial([get("q1", x), get("q2", y)]);
            Ok(Made::LotkaVolterraDirac(lv.into(), q0, p0))
        }
        "index-two-pendulum" => {
            let Pendulum { m, g, l } = pendulum(params)?;
            let problem = IndexTwoPendulum { m, g, l };
            let (q0, p0) = problem.initial_state(get("theta", 1.0), get("theta_dot", 0.0));
            Ok(Made::IndexTwoPendulum(problem, q0, p0))
        }
        other => Err(CliError::UnknownProblem {
            name: other.to_owned(),
            valid: "(a table entry without a constructor)".to_owned(),
        }),
    }
}

/// Runs the method of `spec` on `made`, the problem of `subject`.
pub fn run_made(made: &Made, subject: &Subject, spec: &RunSpec) -> Result<Run, CliError> {
    match made {
        Made::File(file) => problem_files::run(file, subject, spec),
        Made::IndexTwoPendulum(problem, q0, p0) => {
            let view = Implicit::<_, 2, 1>(problem);
            problem_files::run_view(&view, subject, spec, (q0.as_slice(), p0.as_slice()))
        }
        Made::LotkaVolterraDirac(problem, q0, p0) => {
            let view = Hamiltonian::<_, 2, 2>(problem);
            problem_files::run_view(&view, subject, spec, (q0.as_slice(), p0.as_slice()))
        }
    }
}

/// Builds `info`'s problem with `params` and runs it.
pub fn run(info: &'static ProblemInfo, params: &Params, spec: &RunSpec) -> Result<Run, CliError> {
    run_made(&make(info, params)?, &info.subject(), spec)
}

/// The mass, gravity and length of the pendulums (`m`, `g`, `l`, default 1); the mass must be
/// positive.
fn pendulum(params: &Params) -> Result<Pendulum, CliError> {
    Ok(Pendulum {
        m: params.mass("m", 1.0)?,
        g: params.get("g", 1.0),
        l: params.get("l", 1.0),
    })
}

/// The molecule as a triangle with `r₁ = 0`, `r₂ = (d₁₂, 0, 0)`, `r₃` in the x–y plane, moving
/// rigidly with velocity `(0.1, 0.2, −0.3)` and angular velocity `ω = (0.5, −1, 0.8)`:
/// `p_i = m_i (v + ω × r_i)`, which satisfies `G M⁻¹ p = 0`.
fn triatomic_state(t: &Triatomic) -> Result<(Vector<9>, Vector<9>), CliError> {
    let x = (t.d12 * t.d12 + t.d13 * t.d13 - t.d23 * t.d23) / (2.0 * t.d12);
    let y2 = t.d13 * t.d13 - x * x;
    if !(t.d12 > 0.0 && y2 > 0.0) {
        return Err(CliError::InvalidValue {
            what: "--param d12/d13/d23",
            value: format!("{}, {}, {}", t.d12, t.d13, t.d23),
            reason: "the bond lengths do not form a triangle",
        });
    }
    let r = [
        nalgebra::Vector3::new(0.0, 0.0, 0.0),
        nalgebra::Vector3::new(t.d12, 0.0, 0.0),
        nalgebra::Vector3::new(x, y2.sqrt(), 0.0),
    ];
    let (v, omega) = (
        nalgebra::Vector3::new(0.1, 0.2, -0.3),
        nalgebra::Vector3::new(0.5, -1.0, 0.8),
    );
    let masses = [t.m1, t.m2, t.m3];
    let (mut q, mut p) = (Vector::<9>::zeros(), Vector::<9>::zeros());
    for (i, (ri, mi)) in r.iter().zip(masses).enumerate() {
        q.fixed_rows_mut::<3>(3 * i).copy_from(ri);
        p.fixed_rows_mut::<3>(3 * i)
            .copy_from(&((v + omega.cross(ri)) * mi));
    }
    Ok((q, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each built-in file's own `[initial]` is the state the command builds from the default
    /// parameters, and its parameters are the derive's defaults: the files on disk are the
    /// built-in problems.
    #[test]
    fn the_shipped_files_are_the_built_in_problems() {
        let none = Params::parse(&[], "", &[]).unwrap();
        for (name, source) in FILES {
            let shipped = ProblemFile::parse(source).unwrap();
            let info = find(Some(name)).unwrap();
            let Made::File(made) = make(info, &none).unwrap() else {
                panic!("{name}: not a file");
            };
            assert_eq!(shipped.initial(), made.initial(), "{name}");
            let d = Triatomic::WATER_LIKE;
            if *name == "triatomic" {
                let values: Vec<f64> = shipped.parameters().map(|(_, v)| v).collect();
                let derive = [d.m1, d.m2, d.m3, d.d12, d.d13, d.d23, d.k, d.a];
                assert_eq!(values, derive);
            }
        }
    }
}
