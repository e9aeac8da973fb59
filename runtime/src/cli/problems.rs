//! The built-in problems by name, with their parameters and initial data.

use super::builtin::{Builtin, HamiltonianBuiltin, OrFile};
use super::choice::Kind;
use super::error::CliError;
use super::params::Params;
use super::run::{Run, RunSpec, Subject, degenerate, hamiltonian, holonomic, implicit};
use crate::holonomic::problems::{Pendulum, SphericalPendulum, Triatomic};
use crate::problem::{DegenerateLagrangian, Vector};
use crate::problems::{
    DegeneratePendulum, IndexTwoPendulum, LotkaVolterra2d, LotkaVolterra2dSingular,
};

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

/// Builds `info`'s problem with `params` and runs it. (Problems from a `--problem-file` enter
/// `run::degenerate` / `run::holonomic` the same way, see `cli::problem_files`.)
pub fn run(info: &'static ProblemInfo, params: &Params, spec: &RunSpec) -> Result<Run, CliError> {
    let get = |name, default| params.get(name, default);
    let subject = &Subject::builtin(info);
    match info.name {
        "lotka-volterra" | "lotka-volterra-singular" => {
            let (lv, q0) = lotka_volterra(params);
            let problem = if info.name == "lotka-volterra" {
                Builtin::LotkaVolterra(lv)
            } else {
                let LotkaVolterra2d { a1, a2, b1, b2 } = lv;
                Builtin::LotkaVolterraSingular(LotkaVolterra2dSingular { a1, a2, b1, b2 })
            };
            degenerate(&problem, subject, q0, problem.theta(&q0), spec)
        }
        "degenerate-pendulum" => {
            let problem = DegeneratePendulum;
            let (d, _) = problem.initial();
            let q0 = Vector::from([get("q1", d[0]), get("q2", d[1])]);
            degenerate(
                &Builtin::DegeneratePendulum(problem),
                subject,
                q0,
                problem.theta(&q0),
                spec,
            )
        }
        "pendulum" => {
            let problem = pendulum(params)?;
            let (q0, p0) = problem.state(get("theta", 1.0), get("theta_dot", 0.0));
            holonomic(&OrFile::Builtin(problem), subject, q0, p0, spec)
        }
        "spherical-pendulum" => {
            let Pendulum { m, g, l } = pendulum(params)?;
            let problem = SphericalPendulum { m, g, l };
            let (theta, rate) = (get("theta", 1.0), get("phi_dot", 1.0));
            let (s, c) = theta.sin_cos();
            let q0 = Vector::from([problem.l * s, 0.0, -problem.l * c]);
            let p0 = Vector::from([0.0, problem.m * problem.l * s * rate, 0.0]);
            holonomic(&OrFile::Builtin(problem), subject, q0, p0, spec)
        }
        "triatomic" => {
            let d = Triatomic::WATER_LIKE;
            let problem = Triatomic {
                m1: params.mass("m1", d.m1)?,
                m2: params.mass("m2", d.m2)?,
                m3: params.mass("m3", d.m3)?,
                d12: get("d12", d.d12),
                d13: get("d13", d.d13),
                d23: get("d23", d.d23),
                k: get("k", d.k),
                a: get("a", d.a),
            };
            let (q0, p0) = triatomic_state(&problem)?;
            holonomic(&OrFile::Builtin(problem), subject, q0, p0, spec)
        }
        "lotka-volterra-hamiltonian" => {
            let (lv, q0) = lotka_volterra(params);
            let problem = HamiltonianBuiltin::<Builtin>::LotkaVolterra(lv.into());
            hamiltonian(&problem, subject, q0, lv.theta(&q0), spec)
        }
        "index-two-pendulum" => {
            let Pendulum { m, g, l } = pendulum(params)?;
            let problem = IndexTwoPendulum { m, g, l };
            let (q0, p0) = problem.initial_state(get("theta", 1.0), get("theta_dot", 0.0));
            implicit(&problem, subject, q0, p0, spec)
        }
        other => find(Some(other)).and_then(|_| {
            Err(CliError::UnknownProblem {
                name: other.to_owned(),
                valid: "(a table entry without a constructor)".to_owned(),
            })
        }),
    }
}

/// Lotka–Volterra's parameters `a1, a2, b1, b2` and `q₀ = (q1, q2)` (upstream's defaults).
fn lotka_volterra(params: &Params) -> (LotkaVolterra2d, Vector<2>) {
    let get = |name, default| params.get(name, default);
    let d = LotkaVolterra2d::UPSTREAM;
    let lv = LotkaVolterra2d {
        a1: get("a1", d.a1),
        a2: get("a2", d.a2),
        b1: get("b1", d.b1),
        b2: get("b2", d.b2),
    };
    let [x, y] = LotkaVolterra2d::UPSTREAM_Q0;
    (lv, Vector::from([get("q1", x), get("q2", y)]))
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
