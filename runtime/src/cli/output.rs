//! Trajectory files by extension: CSV (header row, shortest round-trip decimals), JSON (named
//! columns) and `.npy` (a little-endian float64 array of shape `(points, columns)`, NumPy format
//! 1.0, columns as in the CSV header).

use super::error::CliError;
use super::trajectory::Trajectory;
use std::fmt::Write as _;
use std::path::Path;

/// The extensions [`write`] understands.
pub const EXTENSIONS: &str = ".csv, .json, .npy";

/// Writes `trajectory` to `path` in the format its extension names.
pub fn write(path: &Path, trajectory: &Trajectory) -> Result<(), CliError> {
    let bytes = match extension(path).as_deref() {
        Some("csv") => csv(trajectory).into_bytes(),
        Some("json") => json(trajectory, path)?,
        Some("npy") => npy(trajectory),
        _ => {
            return Err(CliError::UnknownExtension {
                path: path.to_owned(),
                valid: EXTENSIONS,
            });
        }
    };
    std::fs::write(path, bytes).map_err(|e| CliError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}

/// The lower-case extension of `path`.
pub fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

fn csv(trajectory: &Trajectory) -> String {
    let mut out = trajectory.columns().join(",");
    out.push('\n');
    for n in 0..trajectory.t.len() {
        let row: Vec<String> = trajectory.row(n).into_iter().map(decimal).collect();
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{}", row.join(","));
    }
    out
}

/// Shortest text that parses back to exactly `x`: plain for `10⁻⁴ ≤ |x| < 10⁶` and 0,
/// scientific otherwise.
fn decimal(x: f64) -> String {
    if x == 0.0 || (1e-4..1e6).contains(&x.abs()) || !x.is_finite() {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// The JSON form: `{"columns": […], "t": […], "q": [[…]…], "p": […],
/// "relative_energy_error": […], "constraint_residual": […], "constraint": "…",
/// "newton_iterations": […]}`.
fn json(trajectory: &Trajectory, path: &Path) -> Result<Vec<u8>, CliError> {
    let value = serde_json::json!({
        "columns": trajectory.columns(),
        "t": trajectory.t,
        "q": trajectory.q,
        "p": trajectory.p,
        "relative_energy_error": trajectory.energy_error,
        "constraint_residual": trajectory.constraint_residual,
        "constraint": trajectory.constraint,
        "newton_iterations": trajectory.iterations,
    });
    serde_json::to_vec(&value).map_err(|e| CliError::Write {
        path: path.to_owned(),
        reason: e.to_string(),
    })
}

fn npy(trajectory: &Trajectory) -> Vec<u8> {
    let (rows, cols) = (trajectory.t.len(), trajectory.columns().len());
    let mut header =
        format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    // Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 8 * rows * cols);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    // The header is shorter than 65536 bytes: a handful of fixed fields and two integers.
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for n in 0..rows {
        for x in trajectory.row(n) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}
