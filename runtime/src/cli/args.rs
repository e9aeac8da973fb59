//! The command-line grammar (clap derive).

use super::registry::long_run_default;
use crate::generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN;
use clap::{Args, Parser, Subcommand};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// `sparkgen`: structure-preserving integrators from the command line. Without a subcommand it
/// runs the default problem (Lotka–Volterra 2d, h = 0.1, 10⁴ steps) with the default method,
/// the method guide's pick for long runs of degenerate Lagrangians
/// (`generated::measured::LONG_RUN_DEGENERATE_LAGRANGIAN`).
#[derive(Debug, Parser)]
#[command(
    name = "sparkgen",
    version,
    about,
    long_about = long_about(),
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to do (default: `run`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The options of `run`, accepted without the subcommand too.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The default method for degenerate Lagrangians in words: its family and stage count as
/// `--method` and `--stages` take them, read from the generated facts.
pub fn default_method() -> String {
    match long_run_default() {
        Some(info) => format!("{}({})", info.family, info.stages),
        None => LONG_RUN_DEGENERATE_LAGRANGIAN.to_owned(),
    }
}

/// The text of `sparkgen --help`.
fn long_about() -> String {
    format!(
        "sparkgen: structure-preserving integrators from the command line. Without a subcommand \
         it runs the default problem (Lotka–Volterra 2d, {}, h = 0.1, 10⁴ steps): the method \
         guide's pick for long runs of degenerate Lagrangians, whose energy error stays bounded \
         (`sparkgen methods --recommended`).",
        default_method()
    )
}

/// The help of `--method`.
fn method_help() -> String {
    format!(
        "Method family, e.g. SlrkLobattoIIIE, VprkGauss, Rattle (case and `-`/`_` ignored); \
         default for degenerate Lagrangians {}, the method guide's pick for long runs",
        default_method()
    )
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Integrate a built-in problem and print a summary.
    Run(RunArgs),
    /// The methods: family, stages, problem kinds, declared and computed order, structure,
    /// known limitations, class in the method guide, energy error over long runs.
    Methods {
        /// One JSON object on stdout.
        #[arg(long)]
        json: bool,
        /// Only the recommended methods (one per problem kind and order) and each problem
        /// kind's pick for long runs.
        #[arg(long)]
        recommended: bool,
    },
    /// A tableau's coefficients as `f64` (and, with `--exact`, as exact values).
    Tableau(TableauArgs),
    /// Every tableau and pair with declared and computed properties side by side.
    Catalogue,
    /// Convergence orders and invariants of every method on its built-in problem.
    Verify(VerifyArgs),
    /// Solve a problem file from many initial states in parallel, one member per row of
    /// `--initial`, and write every member's final state.
    Ensemble(EnsembleArgs),
}

/// `sparkgen ensemble`.
#[derive(Debug, Args)]
pub struct EnsembleArgs {
    /// The problem, written as expressions in a TOML file (`sparkgen::problem_file`).
    #[arg(long, value_name = "FILE.toml")]
    pub problem_file: PathBuf,
    /// The initial states, one member per row `q1…qD, p1…pD`: `.csv` (an optional header
    /// line) or `.npy` (float64, shape (members, 2D)).
    #[arg(long, value_name = "FILE")]
    pub initial: PathBuf,
    /// The method, the step size and the number of steps, the parameters.
    #[command(flatten)]
    pub method: MethodArgs,
    /// The final state of every member, rows `(member, steps, t, q, p)`: `.csv`, `.json` or
    /// `.npy` by extension.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Also write each member's trajectory to `DIR/member_K.npy`, every `--every`-th point and
    /// the last.
    #[arg(long, value_name = "DIR")]
    pub trajectories: Option<PathBuf>,
    /// Keep every K-th point of each member's trajectory (and the last).
    #[arg(long, value_name = "K", default_value = "1")]
    pub every: NonZeroUsize,
    /// Worker threads (default: one per core; at most one per member, and at most 1024).
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// Project inconsistent initial states onto the constraints instead of refusing them.
    #[arg(long)]
    pub project_initial: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The method, the step size and the number of steps, and the problem's parameters (of `run`
/// and `ensemble`).
#[derive(Debug, Args)]
pub struct MethodArgs {
    /// Method family, e.g. SlrkLobattoIIIE, VprkGauss, Rattle (case and `-`/`_` ignored);
    /// by default the method guide's pick for long runs of degenerate Lagrangians.
    #[arg(long, help = method_help())]
    pub method: Option<String>,
    /// Number of stages s (default: without `--method`, the default method's; else 3 where the
    /// family has it, else its smallest).
    #[arg(long)]
    pub stages: Option<usize>,
    /// Time step h (default 0.1).
    #[arg(long, allow_negative_numbers = true)]
    pub h: Option<f64>,
    /// Number of steps (default 10⁴, at most 2⁵³).
    #[arg(long, conflicts_with = "t_end")]
    pub steps: Option<usize>,
    /// Final time T (steps = T/h, rounded to the nearest integer).
    #[arg(long, allow_negative_numbers = true)]
    pub t_end: Option<f64>,
    /// Problem parameter or initial value, `name=value` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

/// `sparkgen run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Built-in problem (see the error message of an unknown name for the list).
    pub problem: Option<String>,
    /// The method, the step size and the number of steps, the parameters.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Write the trajectory as it is computed: `.csv`, `.json` or `.npy` by extension.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write every K-th point to `--out` (and the last one).
    #[arg(long, value_name = "K", default_value = "1")]
    pub every: NonZeroUsize,
    /// Plot trajectory, energy error and constraint residual against time: `.png` or `.svg`.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// A problem written as expressions in a TOML file (`sparkgen::problem_file`), evaluated by
    /// the interpreter; `--param` sets its parameters.
    #[arg(long, value_name = "FILE.toml", conflicts_with = "problem")]
    pub problem_file: Option<PathBuf>,
    /// Project inconsistent initial data onto the constraints instead of refusing them: p₀ =
    /// ϑ(q₀) for a degenerate Lagrangian; for a holonomic system q₀ onto c(q) = 0 and p₀ onto
    /// G(q₀) M⁻¹ p = 0.
    #[arg(long)]
    pub project_initial: bool,
}

/// `sparkgen tableau`.
#[derive(Debug, Args)]
pub struct TableauArgs {
    /// Tableau family, e.g. Gauss, LobattoIIIA, RadauIIA.
    pub family: String,
    /// Number of stages s.
    pub stages: usize,
    /// Also print the exact values (`p/q`, or 40 significant digits).
    #[arg(long)]
    pub exact: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `sparkgen verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Fewer step sizes and methods' largest stage counts left out (under 2 minutes on 2 cores).
    #[arg(long)]
    pub quick: bool,
    /// Only the methods whose name contains this text (case-insensitive), e.g. `spark`.
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// One JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Write a Markdown report with PNG order plots into this directory.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Study every method of the file's problem kind on the problem of this TOML file
    /// (interpreted) instead of the built-in problems.
    #[arg(long, value_name = "FILE.toml")]
    pub problem_file: Option<PathBuf>,
}
