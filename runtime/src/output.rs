//! Trajectory files by extension, written row by row as a run computes them: CSV (header row,
//! shortest round-trip decimals), JSON (one object with the column names and the rows) and
//! `.npy` (a little-endian float64 array of shape `(points, columns)`, NumPy format 1.0, columns
//! as in the CSV header; the shape is written last). [`TrajectoryFile`] is the observer that
//! writes a run's `(t, q, p)` without allocating per point.

use crate::solution::{Observer, Point};
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The extensions [`Format::of`] understands.
pub const EXTENSIONS: &str = ".csv, .json, .npy";

/// A trajectory file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values.
    Csv,
    /// One JSON object.
    Json,
    /// A NumPy array.
    Npy,
}

impl Format {
    /// The format `path`'s extension names ([`EXTENSIONS`]), if any.
    pub fn of(path: &Path) -> Option<Format> {
        match extension(path).as_deref() {
            Some("csv") => Some(Format::Csv),
            Some("json") => Some(Format::Json),
            Some("npy") => Some(Format::Npy),
            _ => None,
        }
    }
}

/// The lower-case extension of `path`.
pub fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Writing a trajectory file failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot write `{}`: {reason}", path.display())]
pub struct WriteError {
    /// The path.
    pub path: PathBuf,
    /// The operating system's or encoder's message.
    pub reason: String,
}

/// What a file says about its columns besides their names (the JSON form's fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// What the constraint-residual column measures, if there is one.
    pub constraint: Option<&'a str>,
    /// How the energy-error column measures the error (`relative`, `absolute`), if the problem
    /// has an energy.
    pub energy_error: Option<&'a str>,
}

/// A trajectory file being written, one row per kept point.
pub struct Writer {
    path: PathBuf,
    format: Format,
    file: BufWriter<File>,
    columns: usize,
    rows: u64,
}

impl Writer {
    /// Creates `path` and writes what precedes the rows.
    pub fn create(
        path: &Path,
        format: Format,
        columns: &[String],
        header: Header<'_>,
    ) -> Result<Writer, WriteError> {
        let file = File::create(path).map_err(|e| write_error(path, &e))?;
        let mut writer = Writer {
            path: path.to_owned(),
            format,
            file: BufWriter::new(file),
            columns: columns.len(),
            rows: 0,
        };
        match format {
            Format::Csv => writeln!(writer.file, "{}", columns.join(",")),
            Format::Json => {
                let names: Vec<&str> = columns
                    .iter()
                    .map(String::as_str)
                    .chain(["newton_iterations"])
                    .collect();
                let names = serde_json::to_string(&names).map_err(|e| writer.error(&e))?;
                let constraint =
                    serde_json::to_string(&header.constraint).map_err(|e| writer.error(&e))?;
                let energy =
                    serde_json::to_string(&header.energy_error).map_err(|e| writer.error(&e))?;
                write!(
                    writer.file,
                    "{{\"columns\":{names},\"constraint\":{constraint},\
                     \"energy_error_kind\":{energy},\"rows\":["
                )
            }
            Format::Npy => {
                let header = npy_header(u64::MAX, columns.len());
                writer.file.write_all(&header)
            }
        }
        .map_err(|e| writer.error(&e))?;
        Ok(writer)
    }

    /// Appends a row (`values` in the column order, and the Newton iterations of the step that
    /// reached the point, which the JSON form carries as its last column).
    pub fn row(&mut self, values: &[f64], iterations: usize) -> Result<(), WriteError> {
        let written = match self.format {
            Format::Csv => {
                let mut result = Ok(());
                for (i, x) in values.iter().enumerate() {
                    let separator = if i == 0 { "" } else { "," };
                    result = result.and_then(|()| write!(self.file, "{separator}{}", decimal(*x)));
                }
                result.and_then(|()| writeln!(self.file))
            }
            Format::Json => {
                let separator = if self.rows == 0 { "\n" } else { ",\n" };
                let file = &mut self.file;
                // JSON has no NaN: serde_json writes a missing value (no energy) as `null`.
                write!(file, "{separator}[")
                    .and_then(|()| {
                        values.iter().try_for_each(|x| {
                            serde_json::to_writer(&mut *file, x)?;
                            file.write_all(b",")
                        })
                    })
                    .and_then(|()| write!(file, "{iterations}]"))
            }
            Format::Npy => values
                .iter()
                .try_for_each(|x| self.file.write_all(&x.to_le_bytes())),
        };
        written.map_err(|e| self.error(&e))?;
        self.rows += 1;
        Ok(())
    }

    /// Writes what follows the rows (the JSON closing, the `.npy` shape) and flushes: the path
    /// of the complete file.
    pub fn finish(mut self) -> Result<PathBuf, WriteError> {
        let finished = match self.format {
            Format::Csv => Ok(()),
            Format::Json => writeln!(self.file, "\n]}}"),
            Format::Npy => {
                let header = npy_header(self.rows, self.columns);
                self.file
                    .seek(SeekFrom::Start(0))
                    .and_then(|_| self.file.write_all(&header))
            }
        }
        .and_then(|()| self.file.flush());
        finished.map_err(|e| self.error(&e))?;
        Ok(self.path)
    }

    fn error(&self, e: &dyn std::fmt::Display) -> WriteError {
        write_error(&self.path, e)
    }
}

fn write_error(path: &Path, e: &dyn std::fmt::Display) -> WriteError {
    WriteError {
        path: path.to_owned(),
        reason: e.to_string(),
    }
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

/// The `.npy` preamble of a `(rows, columns)` float64 array. Its length does not depend on
/// `rows` (the shape is padded to the width of `u64::MAX`), so the final shape overwrites the
/// provisional one in place; magic (6) + version (2) + length (2) + header + `\n` is a multiple
/// of 64.
fn npy_header(rows: u64, columns: usize) -> Vec<u8> {
    let dict = |rows: u64| {
        format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({rows}, {columns}), }}")
    };
    let widest = 10 + dict(u64::MAX).len() + 1;
    let mut header = dict(rows);
    header.push_str(&" ".repeat(widest.next_multiple_of(64) - 10 - header.len() - 1));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    // The header is shorter than 65536 bytes: a handful of fixed fields and two integers.
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out
}

/// The column names `leading…, q1…qD, p1…pD` of rows that end with a state of `dimension`
/// coordinates.
pub fn state_columns<const N: usize>(leading: [&str; N], dimension: usize) -> Vec<String> {
    leading
        .into_iter()
        .map(str::to_owned)
        .chain((1..=dimension).map(|i| format!("q{i}")))
        .chain((1..=dimension).map(|i| format!("p{i}")))
        .collect()
}

/// The observer that writes each point of a run it is handed, `(t, q₁…q_D, p₁…p_D)`, as a row
/// of a trajectory file; thinned with [`crate::observers::Every`], every K-th point and the
/// last. The row buffer is allocated when the file is created; a point costs no allocation.
pub struct TrajectoryFile {
    writer: Writer,
    row: Vec<f64>,
}

impl TrajectoryFile {
    /// Creates `path` in `format` for points of `dimension` coordinates.
    pub fn create(
        path: &Path,
        format: Format,
        dimension: usize,
    ) -> Result<TrajectoryFile, WriteError> {
        let columns: Vec<String> = state_columns(["t"], dimension);
        let header = Header {
            constraint: None,
            energy_error: None,
        };
        Ok(TrajectoryFile {
            writer: Writer::create(path, format, &columns, header)?,
            row: vec![0.0; columns.len()],
        })
    }

    /// Completes the file: its path.
    pub fn finish(self) -> Result<PathBuf, WriteError> {
        self.writer.finish()
    }
}

/// Writes points of the file's dimension (a point of another length is a caller's error: the
/// integrators hand an observer only points of one problem).
impl Observer for TrajectoryFile {
    type Error = WriteError;

    fn observe(&mut self, point: &Point<'_>) -> Result<(), WriteError> {
        let d = point.q.len();
        self.row[0] = point.t;
        self.row[1..=d].copy_from_slice(point.q);
        self.row[d + 1..].copy_from_slice(point.p);
        let iterations = point.stats.map_or(0, |s| s.iterations);
        self.writer.row(&self.row, iterations)
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, TrajectoryFile};
    use crate::observers::Every;
    use crate::solution::{Observer, Point, StepStats};
    use std::num::NonZeroUsize;

    /// 26 points (n = 0…25) thinned to every tenth ([`Every`]): the rows of n = 0, 10, 20 and the
    /// last, 25,
    /// in a `.npy` array of shape (4, 1 + 2 + 2) whose values read back exactly.
    #[test]
    fn a_thinned_npy_file_keeps_every_kth_point_and_the_last() {
        let path = std::env::temp_dir().join(format!("sparkgen-output-{}.npy", std::process::id()));
        let every = NonZeroUsize::new(10).expect("positive");
        let file = TrajectoryFile::create(&path, Format::Npy, 2).expect("created");
        let mut file = Every::new(file, every);
        for n in 0..=25usize {
            let x = n as f64;
            let point = Point {
                step: n,
                t: 0.1 * x,
                q: &[x, -x],
                p: &[x * x, 1.0 / (1.0 + x)],
                lambda: &[],
                stats: (n > 0).then_some(StepStats {
                    iterations: 2,
                    residual: 0.0,
                    factorisations: 0,
                }),
            };
            file.observe(&point).expect("written");
        }
        let written = file
            .finish()
            .and_then(TrajectoryFile::finish)
            .expect("finished");
        let bytes = std::fs::read(&written).expect("readable");
        let _ = std::fs::remove_file(&written);
        let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        let header = std::str::from_utf8(&bytes[10..10 + header_len]).expect("ASCII");
        assert!(header.contains("'shape': (4, 5)"), "{header}");
        let data: Vec<f64> = bytes[10 + header_len..]
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("eight bytes")))
            .collect();
        assert_eq!(data.len(), 20);
        for (row, n) in data.chunks_exact(5).zip([0.0, 10.0, 20.0, 25.0]) {
            assert_eq!(row, [0.1 * n, n, -n, n * n, 1.0 / (1.0 + n)]);
        }
    }
}
