//! The `sparkgen` command line (feature `cli`, on by default): `run`, `methods`, `tableau`,
//! `catalogue`, `verify`, `ensemble`. The binary only calls [`main`]; everything else lives here so that
//! tests and other front ends can use it.
//!
//! Output goes to stdout in one write (text, or one JSON object with `--json`); errors are one
//! line on stderr and a non-zero exit code ([`CliError::exit_code`]: 2 for arguments that cannot
//! be used, 1 for failures of the work), never a panic.

mod args;
mod catalogue;
pub mod choice;
pub mod ensemble;
mod error;
pub mod methods;
mod numbers;
mod order_plot;
mod output;
mod params;
pub mod plot;
pub mod problem_files;
pub mod problems;
mod progress;
pub mod registry;
mod report;
pub mod run;
mod states;
mod summary;
mod tableau;
pub mod trajectory;
pub mod verify;

pub use args::{Cli, Command, EnsembleArgs, RunArgs, TableauArgs, VerifyArgs};
pub use error::CliError;
pub use summary::Summary;

use crate::ensemble::ranks::{Alone, Ranks};
use clap::Parser;
use clap::error::ErrorKind;
use params::{Params, finite};
use std::io::Write as _;
use std::process::ExitCode;

/// Parses the process arguments, runs the command and reports errors in one line.
pub fn main() -> ExitCode {
    main_on(&Alone)
}

/// [`main`] for a process that is one of `ranks` (the MPI build, `sparkgen-mpi`): `ensemble`
/// runs this rank's block of the members and rank 0 reports for all; with several ranks, the
/// other commands are refused. Rank 0 alone writes to stdout and stderr.
pub fn main_on(ranks: &dyn Ranks) -> ExitCode {
    let root = ranks.rank() == 0;
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    if root {
                        let _ = write_stdout(&e.render().to_string());
                    }
                    ExitCode::SUCCESS
                }
                _ => {
                    if root {
                        to_stderr(&first_paragraph(&e.render().to_string()));
                    }
                    ExitCode::from(2)
                }
            };
        }
    };
    match execute_on(cli, ranks) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if root {
                to_stderr(&format!("error: {e}"));
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// Writes `line` and a newline to stderr; a stderr that cannot be written (closed, a full
/// device) is ignored, so that the exit code still says what happened: the command never
/// panics on its output streams.
pub fn to_stderr(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}

/// The first paragraph of clap's message as one line: the error and what it lists (the
/// arguments that are missing, the values that are valid), without the usage.
fn first_paragraph(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if lines.is_empty() {
        "error: invalid arguments".to_owned()
    } else {
        lines.join(" ")
    }
}

/// Runs a parsed command line.
pub fn execute(cli: Cli) -> Result<(), CliError> {
    execute_on(cli, &Alone)
}

/// Runs a parsed command line in a process that is one of `ranks` ([`main_on`]).
pub fn execute_on(cli: Cli, ranks: &dyn Ranks) -> Result<(), CliError> {
    if ranks.size() > 1 && !matches!(cli.command, Some(Command::Ensemble(_))) {
        return Err(CliError::InvalidValue {
            what: "the command",
            value: format!("{} ranks", ranks.size()),
            reason: "only `ensemble` is split over ranks; run the other commands in one process",
        });
    }
    match cli.command {
        None => run_command(&cli.run),
        Some(Command::Run(args)) => run_command(&args),
        Some(Command::Methods { json, recommended }) => {
            let all = methods::rows();
            let rows = if recommended {
                methods::recommended(&all)
            } else {
                all.clone()
            };
            match (json, recommended) {
                (true, false) => write_json(&serde_json::json!({ "methods": rows })),
                (true, true) => {
                    let picks: serde_json::Map<String, serde_json::Value> =
                        methods::long_run_picks(&rows)
                            .into_iter()
                            .map(|(kind, pick)| {
                                (kind.name().to_owned(), pick.map(|r| r.name.as_str()).into())
                            })
                            .collect();
                    write_json(&serde_json::json!({ "methods": rows, "long_run": picks }))
                }
                (false, false) => write_stdout(&methods::text(&rows)),
                (false, true) => write_stdout(&format!(
                    "{}{}",
                    methods::text(&rows),
                    methods::long_run_text(&all)
                )),
            }
        }
        Some(Command::Tableau(args)) => {
            let entry = tableau::find(&args.family, args.stages)?;
            if args.json {
                write_json(&tableau::json(entry, args.exact))
            } else {
                write_stdout(&tableau::text(entry, args.exact))
            }
        }
        Some(Command::Catalogue) => write_stdout(&catalogue::text()),
        Some(Command::Verify(args)) => verify_command(&args),
        Some(Command::Ensemble(args)) => {
            let m = &args.method;
            let (h, steps) = steps(m.h, m.steps, m.t_end)?;
            let Some(report) = ensemble::run(&args, h, steps, ranks)? else {
                return Ok(());
            };
            if args.json {
                write_json(&report)?;
            } else {
                write_stdout(&report.text())?;
            }
            report.result()
        }
    }
}

/// The largest step count a run takes: `2⁵³`, below which every step number `n` and hence
/// every time `t_n = n·h` is computed from an exactly represented `f64`.
const MAX_STEPS: usize = 1 << 53;

/// The run's step size and step count from `--h`, `--steps`, `--t-end` (defaults h = 0.1,
/// 10⁴ steps); the count must lie in `1..=2⁵³` ([`MAX_STEPS`]). Front ends other than the
/// command line (the Python package) take the same arguments by the same rule.
pub fn steps(
    h: Option<f64>,
    steps: Option<usize>,
    t_end: Option<f64>,
) -> Result<(f64, usize), CliError> {
    let h = h.unwrap_or(0.1);
    if !(h.is_finite() && h > 0.0) {
        return Err(CliError::InvalidValue {
            what: "--h",
            value: h.to_string(),
            reason: "the step size must be finite and positive",
        });
    }
    let range = "the step count must lie between 1 and 2⁵³";
    let steps = match (steps, t_end) {
        (Some(n), _) => n,
        (None, Some(t)) => {
            let t = finite(&t.to_string(), "--t-end")?;
            let n = (t / h).round();
            if !(n >= 1.0 && n <= MAX_STEPS as f64) {
                return Err(CliError::InvalidValue {
                    what: "--t-end",
                    value: t.to_string(),
                    reason: "T/h rounds to a step count outside 1..=2⁵³",
                });
            }
            // An integer-valued f64 in 1..=2⁵³ converts exactly.
            n as usize
        }
        (None, None) => 10_000,
    };
    if !(1..=MAX_STEPS).contains(&steps) {
        return Err(CliError::InvalidValue {
            what: "--steps",
            value: steps.to_string(),
            reason: range,
        });
    }
    Ok((h, steps))
}

fn run_command(args: &RunArgs) -> Result<(), CliError> {
    if let Some(path) = &args.out {
        output::format_of(path)?;
    }
    if let Some(path) = &args.plot {
        plot::is_png(path)?;
    }
    let spec = |kind| -> Result<run::RunSpec, CliError> {
        let m = &args.method;
        let method = choice::resolve(kind, m.method.as_deref(), m.stages)?;
        let (h, steps) = steps(m.h, m.steps, m.t_end)?;
        Ok(run::RunSpec {
            method,
            h,
            steps,
            keep: trajectory::Keep {
                memory: trajectory::Memory::Sample,
                out: args.out.clone(),
                every: args.every,
                progress: true,
            },
            project_initial: args.project_initial,
        })
    };
    let (run, description) = match &args.problem_file {
        Some(path) => {
            let (file, subject) = problem_files::load(path, &args.method.params)?;
            let run = problem_files::run(&file, &subject, &spec(subject.kind)?)?;
            let description = format!(
                "problem file {} ({}, D = {})",
                subject.name,
                subject.kind.name(),
                file.dimension()
            );
            (run, description)
        }
        None => {
            let problem = problems::find(args.problem.as_deref())?;
            let spec = spec(problem.kind)?;
            let params = Params::parse(&args.method.params, problem.name, problem.params)?;
            (
                problems::run(problem, &params, &spec)?,
                problem.summary.to_owned(),
            )
        }
    };
    let mut written: Vec<std::path::PathBuf> = run.out.iter().cloned().collect();
    let mut plot_error = None;
    if let Some(path) = &args.plot {
        let (family, s) = run.method.family_and_stages();
        let title = format!("{}, {family}({s}), h = {}", run.subject.name, run.h);
        match plot::plot(path, &run.trajectory, &title) {
            Ok(()) => written.push(path.clone()),
            Err(e) => plot_error = Some(e),
        }
    }
    let shown = |p: &Option<std::path::PathBuf>| {
        p.as_ref()
            .filter(|p| written.contains(p))
            .map(|p| p.display().to_string())
    };
    let summary = Summary::new(&run, shown(&args.out), shown(&args.plot));
    if args.json {
        write_json(&summary)?;
    } else {
        write_stdout(&summary.text(&description))?;
    }
    if let Some(e) = plot_error {
        return Err(e);
    }
    match run.failure {
        Some(message) => Err(CliError::StepFailed { message, written }),
        None => Ok(()),
    }
}

fn verify_command(args: &VerifyArgs) -> Result<(), CliError> {
    let v = match &args.problem_file {
        Some(path) => {
            let (file, subject) = problem_files::load(path, &[])?;
            verify::verify_file(&file, &subject, args.quick, args.only.as_deref())?
        }
        None => verify::verify(args.quick, args.only.as_deref())?,
    };
    if let Some(dir) = &args.report {
        report::write(dir, &v)?;
    }
    if args.json {
        write_json(&v)?;
    } else {
        write_stdout(&report::text(&v))?;
    }
    if v.passed == v.total {
        Ok(())
    } else {
        let failed: Vec<&str> = v
            .methods
            .iter()
            .filter(|m| !m.pass)
            .map(|m| m.name.as_str())
            .collect();
        Err(CliError::VerificationFailed {
            failed: failed.len(),
            total: v.total,
            names: failed.join(", "),
        })
    }
}

/// Writes `text` to stdout in one go.
fn write_stdout(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes `value` as one JSON object and a newline.
fn write_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::Write {
        path: "<stdout>".into(),
        reason: e.to_string(),
    })?;
    write_stdout(&(text + "\n"))
}
