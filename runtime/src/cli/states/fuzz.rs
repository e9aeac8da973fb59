//! Property-based fuzzing of the states-file readers (`sparkgen ensemble --initial`): CSV texts
//! and `.npy` arrays generated from known states, written in every form a user or a tool writes
//! them (a header line, a byte-order mark, CRLF, blank lines, spaces, any float syntax; NumPy's
//! header in any key order, versions 1–3, any padding), then damaged (a field that is not a
//! number or not finite, a field too many or too few, cut bytes, bytes that are not UTF-8; a
//! header whose type, order or shape lies, a broken magic, missing or extra data).
//!
//! Properties: a file as written reads back as exactly its states; a damaged one is refused,
//! naming the line and column of a CSV's bad field, or read as states that are all finite and of
//! the right width; never a panic, always within time linear in the file.

use super::{csv, npy};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::time::{Duration, Instant};

/// Generated CSV texts and `.npy` arrays per run, each.
const CASES: u32 = 5_000;
/// Time budget of one read (files of at most a few kilobytes).
const BUDGET: Duration = Duration::from_millis(200);

fn config() -> Config {
    Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A finite value of any size and sign, zeros of both signs included.
fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -10.0f64..10.0,
        1 => prop::sample::select(vec![0.0, -0.0, 1e308, -1e-308, 5e-324, f64::MAX, f64::MIN]),
        1 => (-300i32..300, 1.0f64..10.0).prop_map(|(e, m)| m * 10f64.powi(e)),
    ]
}

/// States: `members × width` finite values, `width = 2D`.
fn states() -> impl Strategy<Value = Vec<Vec<f64>>> {
    (1usize..=4, 1usize..=12).prop_flat_map(|(d, members)| {
        prop::collection::vec(prop::collection::vec(value(), 2 * d), members)
    })
}

/// How a value is written: Rust's shortest round trip, scientific, or with a `+` sign; every
/// form parses back to the same `f64`.
fn written(x: f64, style: u8) -> String {
    match style % 3 {
        0 => format!("{x:?}"),
        1 => format!("{x:e}"),
        _ if x.is_sign_positive() => format!("+{x:?}"),
        _ => format!("{x:?}"),
    }
}

/// How a CSV text is laid out around its rows.
#[derive(Clone, Debug)]
struct Layout {
    bom: bool,
    header: bool,
    crlf: bool,
    /// Blank lines after row k (`k < rows`).
    blank_after: Option<usize>,
    spaces: bool,
    trailing_newline: bool,
    style: u8,
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        any::<[bool; 6]>(),
        prop::option::of(0usize..12),
        any::<u8>(),
    )
        .prop_map(
            |([bom, header, crlf, spaces, trailing_newline, _], blank_after, style)| Layout {
                bom,
                header,
                crlf,
                blank_after,
                spaces,
                trailing_newline,
                style,
            },
        )
}

/// The lines of the CSV text of `states` laid out as `layout` says (the header first).
fn csv_lines(states: &[Vec<f64>], layout: &Layout) -> Vec<String> {
    let width = states[0].len();
    let mut lines = Vec::new();
    if layout.header {
        let names: Vec<String> = (1..=width).map(|k| format!("x{k}")).collect();
        lines.push(names.join(","));
    }
    for (k, row) in states.iter().enumerate() {
        let fields: Vec<String> = row
            .iter()
            .map(|x| {
                let text = written(*x, layout.style);
                if layout.spaces {
                    format!(" {text} ")
                } else {
                    text
                }
            })
            .collect();
        lines.push(fields.join(","));
        if layout.blank_after == Some(k) {
            lines.push(String::new());
        }
    }
    lines
}

/// The bytes of `lines` laid out as `layout` says.
fn csv_bytes(lines: &[String], layout: &Layout) -> Vec<u8> {
    let end = if layout.crlf { "\r\n" } else { "\n" };
    let mut text = String::new();
    if layout.bom {
        text.push('\u{feff}');
    }
    text.push_str(&lines.join(end));
    if layout.trailing_newline {
        text.push_str(end);
    }
    text.into_bytes()
}

/// A field that is not a finite number.
fn bad_field() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "abc", "", " ", "1e400", "-1e400", "nan", "NaN", "inf", "-inf", "1.2.3", "0x10", "1_0",
        "--1", "1e", "e5", "\"1\"", "∞", "1 2",
    ])
}

/// A damage to a CSV text.
#[derive(Clone, Debug)]
enum CsvDamage {
    /// Row `row`'s field `field` replaced by a text that is not a finite number.
    Field {
        row: usize,
        field: usize,
        text: &'static str,
    },
    /// Row `row` with one field more (`true`) or less.
    Width { row: usize, more: bool },
    /// The bytes cut at a fraction of their length.
    Cut(f64),
    /// A byte that is not UTF-8 inserted at a fraction of the length.
    NotUtf8(f64),
}

fn csv_damage() -> impl Strategy<Value = CsvDamage> {
    prop_oneof![
        3 => (0usize..12, 0usize..8, bad_field())
            .prop_map(|(row, field, text)| CsvDamage::Field { row, field, text }),
        2 => (0usize..12, any::<bool>()).prop_map(|(row, more)| CsvDamage::Width { row, more }),
        1 => (0.0f64..1.0).prop_map(CsvDamage::Cut),
        1 => (0.0f64..1.0).prop_map(CsvDamage::NotUtf8),
    ]
}

/// The read of `bytes` by `read`, checked to end within the budget without a panic.
fn timed<T>(read: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    let start = Instant::now();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
        .map_err(|_| TestCaseError::fail("the reader panicked"))?;
    prop_assert!(start.elapsed() < BUDGET, "over the time budget");
    Ok(result)
}

/// Rows that a damaged file may still give: each of the width asked for, every value finite.
fn plausible(rows: &[Vec<f64>], width: usize) -> bool {
    rows.iter()
        .all(|r| r.len() == width && r.iter().all(|x| x.is_finite()))
}

#[test]
fn csv_files_read_back_or_are_refused_at_the_bad_field() {
    let mut runner = TestRunner::new(config());
    let case = (states(), layout(), prop::option::of(csv_damage()));
    runner
        .run(&case, |(states, layout, damage)| {
            let width = states[0].len();
            let mut lines = csv_lines(&states, &layout);
            // The line (from 1) and column of a damaged field, where the damage names one.
            let mut expected = None;
            let mut cut = None;
            let mut not_utf8 = None;
            match &damage {
                None => {}
                Some(CsvDamage::Field { row, field, text }) => {
                    let row = row % states.len();
                    let field = field % width;
                    let line = row
                        + usize::from(layout.header)
                        + usize::from(layout.blank_after.is_some_and(|k| k < row));
                    let mut fields: Vec<String> =
                        lines[line].split(',').map(str::to_owned).collect();
                    fields[field] = (*text).to_owned();
                    let column = fields[..field]
                        .iter()
                        .map(|f| f.chars().count() + 1)
                        .sum::<usize>()
                        + 1;
                    lines[line] = fields.join(",");
                    // A first line without a number is a header, whatever it was meant to be.
                    let header =
                        line == 0 && fields.iter().all(|f| f.trim().parse::<f64>().is_err());
                    if !header {
                        expected = Some((line + 1, column));
                    }
                }
                Some(CsvDamage::Width { row, more }) => {
                    let row = row % states.len();
                    let line = row
                        + usize::from(layout.header)
                        + usize::from(layout.blank_after.is_some_and(|k| k < row));
                    // A row of the wrong width is refused at its line, without a column.
                    expected = Some((line + 1, 0));
                    if *more {
                        lines[line].push_str(",1.0");
                    } else if let Some(comma) = lines[line].rfind(',') {
                        lines[line].truncate(comma);
                    } else {
                        lines[line].clear();
                    }
                }
                Some(CsvDamage::Cut(at)) => cut = Some(*at),
                Some(CsvDamage::NotUtf8(at)) => not_utf8 = Some(*at),
            }
            let mut bytes = csv_bytes(&lines, &layout);
            if let Some(at) = cut {
                bytes.truncate((at * bytes.len() as f64) as usize);
            }
            if let Some(at) = not_utf8 {
                bytes.insert((at * bytes.len() as f64) as usize, 0xff);
            }
            let result = timed(|| csv(&bytes, width))?;
            match (&damage, result) {
                (None, result) => prop_assert_eq!(result, Ok(states)),
                (Some(CsvDamage::Field { .. }), Err((line, column, _))) if expected.is_some() => {
                    let (l, c) = expected.unwrap_or_default();
                    prop_assert_eq!((line, column), (Some(l), Some(c)));
                }
                (Some(CsvDamage::Field { .. }), Ok(rows)) => {
                    // Only a first line taken as a header may vanish.
                    prop_assert!(expected.is_none(), "a bad field was read: {:?}", rows);
                    prop_assert!(plausible(&rows, width));
                }
                (Some(CsvDamage::Width { .. }), result) => {
                    let (l, _) = expected.unwrap_or_default();
                    prop_assert!(
                        matches!(result, Err((Some(line), None, _)) if line == l),
                        "a row of the wrong width at line {l}: {result:?}"
                    );
                }
                (Some(CsvDamage::NotUtf8(_)), result) => {
                    prop_assert!(result.is_err(), "bytes that are not UTF-8 were read");
                }
                (_, Ok(rows)) => prop_assert!(plausible(&rows, width)),
                (_, Err((line, _, _))) => {
                    prop_assert!(line.is_none_or(|l| l >= 1 && l <= lines.len()));
                }
            }
            Ok(())
        })
        .expect("every generated CSV file reads back or is refused where it is wrong");
}

/// How a `.npy` file is written: NumPy's header keys in an order, its version, its padding.
#[derive(Clone, Debug)]
struct NpyForm {
    order: usize,
    version: u8,
    padding: usize,
    quote: char,
}

fn npy_form() -> impl Strategy<Value = NpyForm> {
    (0usize..6, 1u8..=3, 0usize..80, any::<bool>()).prop_map(|(order, version, padding, q)| {
        NpyForm {
            order,
            version,
            padding,
            quote: if q { '\'' } else { '"' },
        }
    })
}

/// A damage to a `.npy` file.
#[derive(Clone, Debug)]
enum NpyDamage {
    Descr(&'static str),
    Fortran,
    Shape(Vec<usize>),
    /// Data bytes removed (`false`) or added.
    Data(bool),
    Magic,
    Version(u8),
    /// The header length field too large.
    HeaderLength,
    /// A key added or removed.
    Key(bool),
    /// The file cut at a fraction of its length.
    Cut(f64),
}

fn npy_damage() -> impl Strategy<Value = NpyDamage> {
    prop_oneof![
        prop::sample::select(vec!["<f4", ">f8", "<i8", "|b1", "<c16", "f8", ""])
            .prop_map(NpyDamage::Descr),
        Just(NpyDamage::Fortran),
        prop::collection::vec(0usize..20, 0..4).prop_map(NpyDamage::Shape),
        any::<bool>().prop_map(NpyDamage::Data),
        Just(NpyDamage::Magic),
        prop::sample::select(vec![0u8, 4, 255]).prop_map(NpyDamage::Version),
        Just(NpyDamage::HeaderLength),
        any::<bool>().prop_map(NpyDamage::Key),
        (0.0f64..1.0).prop_map(NpyDamage::Cut),
    ]
}

/// The `.npy` bytes of `states` written as `form` says, with `damage`.
fn npy_bytes(states: &[Vec<f64>], form: &NpyForm, damage: Option<&NpyDamage>) -> Vec<u8> {
    let q = form.quote;
    let (rows, width) = (states.len(), states[0].len());
    let descr = match damage {
        Some(NpyDamage::Descr(d)) => d,
        _ => "<f8",
    };
    let fortran = if matches!(damage, Some(NpyDamage::Fortran)) {
        "True"
    } else {
        "False"
    };
    let shape = match damage {
        Some(NpyDamage::Shape(s)) => s.clone(),
        _ => vec![rows, width],
    };
    let shape: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!("({})", shape.join(", ")),
    };
    let mut entries = vec![
        format!("{q}descr{q}: {q}{descr}{q}"),
        format!("{q}fortran_order{q}: {fortran}"),
        format!("{q}shape{q}: {shape}"),
    ];
    match damage {
        Some(NpyDamage::Key(true)) => entries.push(format!("{q}extra{q}: {q}<f8{q}")),
        Some(NpyDamage::Key(false)) => {
            entries.remove(form.order % 3);
        }
        _ => {}
    }
    let rotation = form.order % entries.len();
    entries.rotate_left(rotation);
    if form.order >= 3 {
        entries.reverse();
    }
    let mut header = format!("{{{}, }}", entries.join(", "));
    header.push_str(&" ".repeat(form.padding));
    header.push('\n');
    let version = match damage {
        Some(NpyDamage::Version(v)) => *v,
        _ => form.version,
    };
    let mut bytes = b"\x93NUMPY".to_vec();
    if matches!(damage, Some(NpyDamage::Magic)) {
        bytes[1] = b'X';
    }
    bytes.extend([version, 0]);
    let length = if matches!(damage, Some(NpyDamage::HeaderLength)) {
        header.len() + 1000
    } else {
        header.len()
    };
    if form.version == 1 {
        bytes.extend((length as u16).to_le_bytes());
    } else {
        bytes.extend((length as u32).to_le_bytes());
    }
    bytes.extend(header.as_bytes());
    for x in states.iter().flatten() {
        bytes.extend(x.to_le_bytes());
    }
    match damage {
        Some(NpyDamage::Data(false)) => {
            bytes.truncate(bytes.len() - 1);
        }
        Some(NpyDamage::Data(true)) => bytes.extend(1.0f64.to_le_bytes()),
        Some(NpyDamage::Cut(at)) => bytes.truncate((at * bytes.len() as f64) as usize),
        _ => {}
    }
    bytes
}

#[test]
fn npy_files_read_back_or_are_refused() {
    let mut runner = TestRunner::new(config());
    let case = (states(), npy_form(), prop::option::of(npy_damage()));
    runner
        .run(&case, |(states, form, damage)| {
            let width = states[0].len();
            let bytes = npy_bytes(&states, &form, damage.as_ref());
            let result = timed(|| npy(&bytes, width))?;
            match damage {
                None => prop_assert_eq!(result, Ok(states)),
                // A shape of the states' own size is no damage.
                Some(NpyDamage::Shape(s)) if s == [states.len(), width] => {
                    prop_assert_eq!(result, Ok(states));
                }
                Some(damage) => {
                    prop_assert!(result.is_err(), "{damage:?} was read: {result:?}");
                }
            }
            Ok(())
        })
        .expect("every generated .npy file reads back or is refused");
}
