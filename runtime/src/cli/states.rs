//! The initial states of an ensemble (`sparkgen ensemble --initial`): one member per row,
//! `q₁…q_D, p₁…p_D`, from a CSV file (comma-separated decimals, an optional header line of
//! names) or a `.npy` file (little-endian float64, C order, shape `(members, 2D)`, as NumPy's
//! `np.save` writes an array of `float64`).

use super::error::CliError;
use crate::output::Format;
use std::path::Path;

/// The rows of `path`, each `2 dimension` long.
pub fn read(path: &Path, dimension: usize) -> Result<Vec<Vec<f64>>, CliError> {
    let error = |line: Option<usize>, reason: String| CliError::InitialStates {
        path: path.to_owned(),
        line,
        reason,
    };
    let width = 2 * dimension;
    let bytes = std::fs::read(path).map_err(|e| error(None, e.to_string()))?;
    let rows = match Format::of(path) {
        Some(Format::Csv) => {
            csv(&bytes, width).map_err(|(line, reason)| error(Some(line), reason))?
        }
        Some(Format::Npy) => npy(&bytes, width).map_err(|reason| error(None, reason))?,
        _ => {
            return Err(CliError::UnknownExtension {
                path: path.to_owned(),
                valid: ".csv, .npy",
            });
        }
    };
    if rows.is_empty() {
        return Err(error(None, "no initial state".to_owned()));
    }
    Ok(rows)
}

/// The rows of a CSV text of `width` numbers per row; a first line that does not parse as
/// numbers is a header. Errors name the line (from 1).
fn csv(bytes: &[u8], width: usize) -> Result<Vec<Vec<f64>>, (usize, String)> {
    let text = std::str::from_utf8(bytes).map_err(|e| (1, format!("not UTF-8 text: {e}")))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let values: Result<Vec<f64>, _> =
            line.split(',').map(|x| x.trim().parse::<f64>()).collect();
        let values = match values {
            Ok(values) => values,
            Err(_) if i == 0 => continue,
            Err(e) => return Err((i + 1, format!("not a number: {e}"))),
        };
        if values.len() != width {
            let found = values.len();
            return Err((
                i + 1,
                format!("{found} values; a state has {width} (q then p)"),
            ));
        }
        if let Some(x) = values.iter().find(|x| !x.is_finite()) {
            return Err((i + 1, format!("{x} is not finite")));
        }
        rows.push(values);
    }
    Ok(rows)
}

/// The rows of a `.npy` array of float64 with `width` columns.
fn npy(bytes: &[u8], width: usize) -> Result<Vec<Vec<f64>>, String> {
    let magic = bytes.get(..6).ok_or("shorter than a .npy header")?;
    if magic != b"\x93NUMPY" {
        return Err("not a .npy file".to_owned());
    }
    let (length, start) = match bytes.get(6) {
        Some(1) => (
            bytes
                .get(8..10)
                .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize),
            10usize,
        ),
        Some(2 | 3) => (
            bytes
                .get(8..12)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize),
            12,
        ),
        _ => (None, 0),
    };
    let length = length.ok_or("an unknown .npy version")?;
    let header = bytes
        .get(start..start.saturating_add(length))
        .ok_or("a truncated .npy header")?;
    let header = String::from_utf8_lossy(header);
    if !header.contains("'descr': '<f8'") {
        return Err("not an array of little-endian float64 ('<f8')".to_owned());
    }
    if !header.contains("'fortran_order': False") {
        return Err("a Fortran-order array; save it in C order".to_owned());
    }
    let shape = header
        .split("'shape': (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .ok_or("no shape in the .npy header")?;
    let dims: Vec<usize> = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|e| format!("shape ({shape}): {e}"))
        })
        .collect::<Result<_, _>>()?;
    let [rows, columns] = dims[..] else {
        return Err(format!(
            "shape ({shape}); an array of shape (members, {width})"
        ));
    };
    if columns != width {
        return Err(format!("{columns} columns; a state has {width} (q then p)"));
    }
    let data = &bytes[start + length..];
    let expected = rows.checked_mul(columns).and_then(|n| n.checked_mul(8));
    if expected != Some(data.len()) {
        return Err(format!(
            "{} bytes of data for shape ({rows}, {columns})",
            data.len()
        ));
    }
    let values: Vec<f64> = data
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect();
    if let Some((i, x)) = values.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        return Err(format!("row {}: {x} is not finite", i / columns + 1));
    }
    Ok(values.chunks_exact(columns).map(<[f64]>::to_vec).collect())
}
