//! The summary of a run, as text and as one JSON object (field names documented in the
//! README).

use super::run::Run;
use crate::diagnostics::EnergyError;
use serde::Serialize;
use std::fmt::Write as _;

/// Every number the human summary shows, with stable names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Problem name (a built-in's, or the `--problem-file` path).
    pub problem: String,
    /// Problem kind (`degenerate-lagrangian`, `holonomic`).
    pub kind: &'static str,
    /// Method family.
    pub method: String,
    /// Stages s.
    pub stages: usize,
    /// Step size.
    pub h: f64,
    /// Steps taken.
    pub steps: usize,
    /// Steps requested.
    pub steps_requested: usize,
    /// Final time reached.
    pub t_final: f64,
    /// Which code evaluated the problem: `engine`, the run-time engine on run-time sized
    /// storage (every run of the command).
    pub path: &'static str,
    /// How the stage functions were evaluated: `jit` (compiled to machine code when the run
    /// started, with a problem file's expressions) or `interpreter` (a derive's view, whose
    /// kernels are compiled Rust, and RATTLE and SHAKE, which have no stage functions).
    pub backend: Option<&'static str>,
    /// Seconds the method's engine spent compiling stage functions in this process (`backend`
    /// `jit`: for the command, this run's), else `None`.
    pub compile_seconds: Option<f64>,
    /// What `max_constraint_residual` measures.
    pub constraint: &'static str,
    /// Maximum of the constraint residual over the run.
    #[serde(serialize_with = "super::numbers::number")]
    pub max_constraint_residual: f64,
    /// How the energy error is measured: `relative` (`|H_n − H₀| / |H₀|`), `absolute`
    /// (`|H_n − H₀|`, when `H₀ = 0`), or `None` where the problem has no energy.
    pub energy_error_kind: Option<&'static str>,
    /// `max_n` of the energy error, measured as `energy_error_kind` says.
    #[serde(serialize_with = "super::numbers::optional")]
    pub max_energy_error: Option<f64>,
    /// `max_n |H_n − H₀| / |H₀|`: `max_energy_error` when it is relative, else `None`.
    #[serde(serialize_with = "super::numbers::optional")]
    pub max_relative_energy_error: Option<f64>,
    /// Mean Newton iterations per step.
    pub newton_iterations_mean: f64,
    /// The Gauss–Newton iterations of the initial projection of a holonomic problem's positions
    /// (`--project-initial` on data off the constraints); `None` where none ran.
    pub initial_projection_iterations: Option<usize>,
    /// Wall-clock seconds of the integration.
    pub wall_seconds: f64,
    /// Steps per second.
    pub steps_per_second: f64,
    /// Final position.
    #[serde(serialize_with = "super::numbers::numbers")]
    pub q_final: Vec<f64>,
    /// Final momentum.
    #[serde(serialize_with = "super::numbers::numbers")]
    pub p_final: Vec<f64>,
    /// Trajectory file written, if any.
    pub out: Option<String>,
    /// Plot written, if any.
    pub plot: Option<String>,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
}

impl Summary {
    /// The summary of `run`.
    pub fn new(run: &Run, out: Option<String>, plot: Option<String>) -> Summary {
        let totals = &run.totals;
        let (family, stages) = run.method.family_and_stages();
        let steps = totals.steps;
        let kind = totals.energy.map(EnergyError::kind);
        Summary {
            problem: run.subject.name.clone(),
            kind: run.subject.kind.name(),
            method: family.to_owned(),
            stages,
            h: run.h,
            steps,
            steps_requested: run.steps_requested,
            t_final: totals.t_final,
            path: super::run::PATH,
            backend: Some(match run.compile_seconds {
                Some(_) => "jit",
                None => "interpreter",
            }),
            compile_seconds: run.compile_seconds,
            constraint: run.trajectory.constraint,
            max_constraint_residual: totals.max_constraint_residual,
            energy_error_kind: kind,
            max_energy_error: totals.max_energy_error,
            max_relative_energy_error: totals
                .max_energy_error
                .filter(|_| matches!(totals.energy, Some(EnergyError::Relative { .. }))),
            newton_iterations_mean: totals.newton_iterations_mean(),
            initial_projection_iterations: totals.initial_projection_iterations,
            wall_seconds: run.wall_seconds,
            steps_per_second: if run.wall_seconds > 0.0 {
                steps as f64 / run.wall_seconds
            } else {
                0.0
            },
            q_final: totals.q_final.clone(),
            p_final: totals.p_final.clone(),
            out,
            plot,
            error: run.failure.clone(),
        }
    }

    /// The human form.
    pub fn text(&self, problem_summary: &str) -> String {
        let vector = |v: &[f64]| {
            let items: Vec<String> = v.iter().map(|x| format!("{x:.15}")).collect();
            format!("({})", items.join(", "))
        };
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(
            s,
            "{problem_summary}\n{}({}), h = {}, {} steps ({} path)",
            self.method, self.stages, self.h, self.steps_requested, self.path
        );
        if let Some(seconds) = self.compile_seconds {
            let _ = writeln!(s, "stage functions compiled   {:.1} ms", seconds * 1e3);
        }
        let _ = writeln!(
            s,
            "steps per second           {:.3e}",
            self.steps_per_second
        );
        if let Some(iterations) = self.initial_projection_iterations {
            let _ = writeln!(s, "initial projection         {iterations} iterations");
        }
        let _ = writeln!(
            s,
            "Newton iterations per step {:.3}",
            self.newton_iterations_mean
        );
        let _ = writeln!(
            s,
            "max {:<23}{:.3e}",
            self.constraint, self.max_constraint_residual
        );
        if let (Some(kind), Some(error)) = (self.energy_error_kind, self.max_energy_error) {
            let _ = writeln!(s, "max {:<23}{error:.3e}", format!("{kind} energy error"));
        }
        let _ = writeln!(
            s,
            "final state t = {}: q = {}, p = {}",
            self.t_final,
            vector(&self.q_final),
            vector(&self.p_final)
        );
        for (what, file) in [("trajectory", &self.out), ("plot", &self.plot)] {
            if let Some(f) = file {
                let _ = writeln!(s, "{what} written to {f}");
            }
        }
        s
    }
}
