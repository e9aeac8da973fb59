//! The verification as a text table, and as a Markdown report with PNG order plots.

use super::error::CliError;
use super::order_plot::order_plot;
use super::verify::{Study, Verification};
use crate::generated::types::Pinned;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The cells of a method's row: method, problem, declared, measured, points, status, max
/// constraint residual, max relative energy error.
fn cells(m: &Study) -> [String; 8] {
    [
        m.name.clone(),
        m.problem.to_owned(),
        m.declared_order.to_string(),
        m.measured_order
            .map_or("–".to_owned(), |p| format!("{p:.2}")),
        m.points.to_string(),
        match (m.pass, m.pinned.is_some()) {
            (true, false) => "pass",
            (true, true) => "pass*",
            (false, _) => "FAIL",
        }
        .to_owned(),
        format!("{:.2e}", m.max_constraint_residual),
        format!("{:.2e}", m.max_relative_energy_error),
    ]
}

/// Column widths of the text table.
const WIDTHS: [usize; 8] = [22, 28, 3, 8, 6, 5, 11, 11];

fn text_row(cells: &[String]) -> String {
    let padded: Vec<String> = cells
        .iter()
        .zip(WIDTHS)
        .map(|(c, w)| format!("{c:<w$}"))
        .collect();
    padded.join(" ").trim_end().to_owned()
}

/// The table as text.
pub fn text(v: &Verification) -> String {
    let header = [
        "method",
        "problem",
        "p",
        "measured",
        "points",
        "",
        "max resid.",
        "max energy",
    ]
    .map(str::to_owned);
    let mut s = text_row(&header) + "\n";
    for m in &v.methods {
        s.push_str(&text_row(&cells(m)));
        s.push('\n');
        if let Some(pinned) = &m.pinned {
            let what = match pinned {
                Pinned::Order { order, .. } => format!("order {order}"),
                Pinned::Parasitic { order, .. } => {
                    format!("order {order}, growing multiplier")
                }
                Pinned::Fails { error, .. } => format!("fails ({error})"),
                Pinned::Erratic { .. } => "erratic".to_owned(),
                Pinned::NoConvergence { .. } => "no convergence".to_owned(),
            };
            let _ = writeln!(s, "{:<22} * pinned: {what}: {}", "", pinned.reason());
        }
        if let Some(l) = &m.multiplier {
            let state = match (l.grows, l.breakdown) {
                (false, _) => "bounded".to_owned(),
                (true, Some(t)) => format!("GROWS, breakdown at t = {t}"),
                (true, None) => "GROWS".to_owned(),
            };
            let _ = writeln!(
                s,
                "{:<22}   multiplier: max |λ| = {:.2e} over the long run, growth ×{:.2} from the first half to the second: {state}",
                "", l.max, l.growth
            );
        }
        for f in &m.failures {
            // Writing to a String cannot fail.
            let _ = writeln!(s, "{:<22}   {f}", "");
        }
    }
    let _ = writeln!(
        s,
        "\n{} of {} methods reach their declared order, or the pinned behaviour marked * (±{}, \
         ≥ 3 points above {:e}); \
         residual and energy error over {} steps of h = {}",
        v.passed, v.total, v.tolerance, v.floor, v.long_run_steps, v.long_run_h
    );
    s
}

/// Writes `DIR/verify.md` and `DIR/order_<family>.png`; returns the files written.
pub fn write(dir: &Path, v: &Verification) -> Result<Vec<PathBuf>, CliError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |e: std::io::Error| CliError::Write {
            path,
            reason: e.to_string(),
        }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut families: Vec<&str> = Vec::new();
    for m in &v.methods {
        if !families.contains(&m.family) {
            families.push(m.family);
        }
    }
    let mut written = Vec::new();
    let mut md = format!(
        "# sparkgen verify{}\n\nEmpirical order: least-squares slope of log |q_N − q_ref(1)|∞ \
         against log h over the finest points h = 1/n above the round-off floor {:e} at \
         T = 1; pass: at least 3 points and |measured − declared| ≤ {}. Constraint \
         residual and relative energy error: maxima over {} steps of h = {}.\n\n\
         | method | problem | declared | measured | points | status | max constraint residual \
         | max relative energy error |\n|---|---|---|---|---|---|---|---|\n",
        if v.quick { " --quick" } else { "" },
        v.floor,
        v.tolerance,
        v.long_run_steps,
        v.long_run_h
    );
    for m in &v.methods {
        md.push_str(&format!("| {} |\n", cells(m).join(" | ")));
    }
    // Writing to a String cannot fail.
    let _ = writeln!(md, "\n{} of {} methods pass.\n", v.passed, v.total);
    let failures: Vec<&Study> = v
        .methods
        .iter()
        .filter(|m| !m.failures.is_empty())
        .collect();
    if !failures.is_empty() {
        md.push_str("## Failed runs\n\n");
        for m in failures {
            for f in &m.failures {
                let _ = writeln!(md, "- {}: {f}", m.name);
            }
        }
        md.push('\n');
    }
    md.push_str("## Order plots\n\n");
    for family in families {
        let members: Vec<&Study> = v.methods.iter().filter(|m| m.family == family).collect();
        let file = format!("order_{family}.png");
        let path = dir.join(&file);
        order_plot(&path, family, &members)?;
        written.push(path);
        let _ = writeln!(md, "![{family}]({file})\n");
    }
    let path = dir.join("verify.md");
    std::fs::write(&path, md).map_err(io(&path))?;
    written.push(path);
    Ok(written)
}
