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
    let header = std::str::from_utf8(header).map_err(|_| "a .npy header that is not text")?;
    let header = NpyHeader::parse(header)?;
    if header.descr != "<f8" {
        let descr = &header.descr;
        return Err(format!(
            "an array of '{descr}', not of little-endian float64 ('<f8')"
        ));
    }
    if header.fortran_order {
        return Err("a Fortran-order array; save it in C order".to_owned());
    }
    let [rows, columns] = header.shape[..] else {
        let shape: Vec<String> = header.shape.iter().map(usize::to_string).collect();
        let shape = shape.join(", ");
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

/// The header of a `.npy` file: the Python dictionary literal `{'descr': …, 'fortran_order': …,
/// 'shape': (…), }` that NumPy writes, parsed as such (every key exactly once, no other).
#[derive(Debug, PartialEq)]
struct NpyHeader {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// A value of the header's dictionary.
#[derive(Debug, PartialEq)]
enum Literal {
    Text(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

impl NpyHeader {
    fn parse(text: &str) -> Result<NpyHeader, String> {
        let bad = |what: &str| format!("a .npy header that is not a dictionary literal: {what}");
        let mut rest = text
            .trim_start()
            .strip_prefix('{')
            .ok_or_else(|| bad("no `{`"))?;
        let (mut descr, mut fortran_order, mut shape) = (None, None, None);
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('}') {
                if !after.trim().is_empty() {
                    return Err(bad("text after `}`"));
                }
                break;
            }
            let (key, after) = quoted(rest).ok_or_else(|| bad("a key that is not a string"))?;
            let after = after
                .trim_start()
                .strip_prefix(':')
                .ok_or_else(|| bad("no `:`"))?;
            let (value, after) = literal(after.trim_start()).ok_or_else(|| bad("a value"))?;
            let slot = match (key.as_str(), value) {
                ("descr", Literal::Text(d)) => descr.replace(d).is_some(),
                ("fortran_order", Literal::Bool(b)) => fortran_order.replace(b).is_some(),
                ("shape", Literal::Tuple(s)) => shape.replace(s).is_some(),
                (key, _) => return Err(format!("the .npy header's key '{key}' or its value")),
            };
            if slot {
                return Err(format!("the .npy header's key '{key}' twice"));
            }
            let after = after.trim_start();
            rest = match after.strip_prefix(',') {
                Some(next) => next,
                None if after.starts_with('}') => after,
                None => return Err(bad("no `,` between entries")),
            };
        }
        let missing = |key| format!("no '{key}' in the .npy header");
        Ok(NpyHeader {
            descr: descr.ok_or_else(|| missing("descr"))?,
            fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
            shape: shape.ok_or_else(|| missing("shape"))?,
        })
    }
}

/// A Python string literal in single or double quotes (no escapes) at the start of `text`, and
/// what follows it.
fn quoted(text: &str) -> Option<(String, &str)> {
    let quote = text.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &text[1..];
    let end = body.find(quote)?;
    let value = &body[..end];
    (!value.contains('\\')).then(|| (value.to_owned(), &body[end + 1..]))
}

/// A value of a `.npy` header at the start of `text`: a string, `True`/`False` or a tuple of
/// non-negative integers; and what follows it.
fn literal(text: &str) -> Option<(Literal, &str)> {
    if let Some((s, rest)) = quoted(text) {
        return Some((Literal::Text(s), rest));
    }
    if let Some(rest) = text.strip_prefix("True") {
        return Some((Literal::Bool(true), rest));
    }
    if let Some(rest) = text.strip_prefix("False") {
        return Some((Literal::Bool(false), rest));
    }
    let body = text.strip_prefix('(')?;
    let end = body.find(')')?;
    let mut dims = Vec::new();
    let items: Vec<&str> = body[..end].split(',').map(str::trim).collect();
    for (k, item) in items.iter().enumerate() {
        // A trailing comma (`(3,)`) leaves one empty item at the end.
        if item.is_empty() && k + 1 == items.len() && k > 0 {
            continue;
        }
        if item.is_empty() && items.len() == 1 {
            break;
        }
        if !item.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        dims.push(item.parse().ok()?);
    }
    Some((Literal::Tuple(dims), &body[end + 1..]))
}

#[cfg(test)]
mod fuzz;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_headers_are_parsed_as_dictionary_literals() {
        let numpy = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }          \n";
        let header = NpyHeader::parse(numpy).expect("NumPy's header");
        assert_eq!(header.descr, "<f8");
        assert!(!header.fortran_order);
        assert_eq!(header.shape, vec![3, 4]);
        let one =
            NpyHeader::parse("{\"shape\": (5,), \"descr\": \"<f8\", \"fortran_order\": True}");
        assert_eq!(one.expect("any key order").shape, vec![5]);
        // A lying header: float32 data whose other text mentions '<f8'.
        let lying = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), 'x': '<f8'}";
        assert!(NpyHeader::parse(lying).is_err());
        let lying = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4), }";
        assert_eq!(NpyHeader::parse(lying).expect("parses").descr, "<f4");
        for bad in [
            "",
            "{",
            "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1, 4)}",
            "{'descr': '<f8', 'fortran_order': False}",
            "{'descr': '<f8' 'fortran_order': False, 'shape': (1, 4)}",
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, -4)}",
            "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 4)} x",
        ] {
            assert!(NpyHeader::parse(bad).is_err(), "{bad}");
        }
    }
}
