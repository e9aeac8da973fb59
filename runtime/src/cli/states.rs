//! The initial states of an ensemble (`sparkgen ensemble --initial`): one member per row,
//! `q₁…q_D, p₁…p_D`, from a CSV file (comma-separated decimals, an optional header line of
//! names) or a `.npy` file (little-endian float64, C order, shape `(members, 2D)`, as NumPy's
//! `np.save` writes an array of `float64`).

use super::error::CliError;
use crate::output::Format;
use std::io::Read as _;
use std::path::Path;

/// The largest states file read, in bytes (1 GiB: ten million states of D = 6 as `.npy`).
pub const MAX_STATES_BYTES: u64 = 1 << 30;

/// Where a states file is wrong: the line and the column of a CSV file (from 1), and what.
type Located = (Option<usize>, Option<usize>, String);

/// The rows of `path`, each `2 dimension` long. The file must be a regular file of at most
/// [`MAX_STATES_BYTES`].
pub fn read(path: &Path, dimension: usize) -> Result<Vec<Vec<f64>>, CliError> {
    let error = |(line, column, reason): Located| CliError::InitialStates {
        path: path.to_owned(),
        line,
        column,
        reason,
    };
    let unlocated = |reason: String| error((None, None, reason));
    let width = 2 * dimension;
    let format = match Format::of(path) {
        Some(format @ (Format::Csv | Format::Npy)) => format,
        _ => return Err(unlocated("unknown extension, use .csv or .npy".to_owned())),
    };
    let bytes = bounded(path).map_err(unlocated)?;
    let rows = match format {
        Format::Npy => npy(&bytes, width).map_err(unlocated)?,
        _ => csv(&bytes, width).map_err(error)?,
    };
    if rows.is_empty() {
        return Err(unlocated("no initial state".to_owned()));
    }
    Ok(rows)
}

/// The bytes of the regular file `path`, of at most [`MAX_STATES_BYTES`].
fn bounded(path: &Path) -> Result<Vec<u8>, String> {
    let metadata = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file".to_owned());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_STATES_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_STATES_BYTES {
        return Err(format!(
            "larger than the {} MiB a states file may have",
            MAX_STATES_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// The rows of a CSV text of `width` numbers per row (a UTF-8 byte-order mark is skipped); the
/// first line is a header only if none of its fields is a number. Errors name the line and,
/// for a field that is not a number, its column (from 1).
fn csv(bytes: &[u8], width: usize) -> Result<Vec<Vec<f64>>, Located> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| (Some(1), None, format!("not UTF-8 text: {e}")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = Vec::new();
    let mut first = true;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<(usize, &str)> = line
            .split(',')
            .scan(0, |start, field| {
                let at = *start;
                *start += field.len() + 1;
                Some((at, field))
            })
            .collect();
        let header = first && fields.iter().all(|(_, f)| f.trim().parse::<f64>().is_err());
        first = false;
        if header {
            continue;
        }
        let mut values = Vec::with_capacity(fields.len());
        for (at, field) in &fields {
            match field.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => values.push(x),
                Ok(x) => {
                    return Err((
                        Some(i + 1),
                        Some(column(line, *at)),
                        format!("{x} is not finite"),
                    ));
                }
                Err(_) => {
                    let shown = field.trim();
                    let reason = format!("`{shown}` is not a number");
                    return Err((Some(i + 1), Some(column(line, *at)), reason));
                }
            }
        }
        if values.len() != width {
            let found = values.len();
            let reason = format!("{found} values; a state has {width} (q then p)");
            return Err((Some(i + 1), None, reason));
        }
        rows.push(values);
    }
    Ok(rows)
}

/// The column (from 1, in characters) of the byte offset `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    line.get(..at)
        .map_or(1, |before| before.chars().count() + 1)
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
