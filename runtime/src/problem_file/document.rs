//! Reading the TOML document with spans: typed values, unknown and missing keys, and the map
//! from an offset inside a string value back to its place in the file.

use super::error::{ErrorKind, Located};
use std::borrow::Cow;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A value of the document with its span (byte range in the file).
pub(crate) type Value<'i> = Spanned<DeValue<'i>>;

/// The errors found so far, each at a byte offset of the file.
pub(crate) struct Diagnostics<'i> {
    source: &'i str,
    errors: Vec<(usize, ErrorKind)>,
}

impl<'i> Diagnostics<'i> {
    /// No errors yet, for the file `source`.
    pub(crate) fn new(source: &'i str) -> Self {
        Diagnostics {
            source,
            errors: Vec::new(),
        }
    }

    /// Records `kind` at byte `offset` of the file.
    pub(crate) fn at(&mut self, offset: usize, kind: ErrorKind) {
        self.errors.push((offset, kind));
    }

    /// Records `kind` at the start of `value`.
    pub(crate) fn at_value(&mut self, value: &Value, kind: ErrorKind) {
        self.at(value.span().start, kind);
    }

    /// Whether an error was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The errors in file order, located by line and column.
    pub(crate) fn into_located(mut self) -> Vec<Located> {
        self.errors.sort_by_key(|(offset, _)| *offset);
        self.errors
            .into_iter()
            .map(|(offset, kind)| {
                let (line, column) = line_column(self.source, offset);
                Located { line, column, kind }
            })
            .collect()
    }
}

/// Line and column (from 1; the column in characters) of byte `offset` of `source`.
pub(crate) fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A table of the document with the keys it allows.
pub(crate) struct Table<'a, 'i> {
    table: &'a DeTable<'i>,
    /// Where "missing key" errors point: the table's header (the file's start for the root).
    start: usize,
}

impl<'a, 'i> Table<'a, 'i> {
    /// The table `table` starting at byte `start`; every key not in `allowed` is reported.
    pub(crate) fn new(
        table: &'a DeTable<'i>,
        start: usize,
        allowed: &[&str],
        diagnostics: &mut Diagnostics,
    ) -> Self {
        for (key, _) in table.iter() {
            if !allowed.contains(&key.get_ref().as_ref()) {
                let expected: Vec<String> = allowed.iter().map(|k| format!("`{k}`")).collect();
                diagnostics.at(
                    key.span().start,
                    ErrorKind::UnknownKey {
                        key: key.get_ref().to_string(),
                        expected: expected.join(", "),
                    },
                );
            }
        }
        Table::open(table, start)
    }

    /// The table `table` starting at byte `start`, any keys allowed.
    pub(crate) fn open(table: &'a DeTable<'i>, start: usize) -> Self {
        Table { table, start }
    }

    /// The value of `key`, if present.
    pub(crate) fn get(&self, key: &str) -> Option<&'a Value<'i>> {
        self.table
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == key)
            .map(|(_, v)| v)
    }

    /// The value of `key`; reports "missing key" at the table when absent.
    pub(crate) fn require(
        &self,
        key: &str,
        diagnostics: &mut Diagnostics,
    ) -> Option<&'a Value<'i>> {
        let value = self.get(key);
        if value.is_none() {
            diagnostics.at(self.start, ErrorKind::MissingKey(key.to_owned()));
        }
        value
    }

    /// The entries, in the order of their keys in the file.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&'a str, &'a Value<'i>)> + 'a {
        self.spanned_entries()
            .into_iter()
            .map(|(k, v)| (k.get_ref().as_ref(), v))
    }

    /// The entries with their keys' spans, in the order of their keys in the file (the parsed
    /// table orders its keys by name).
    pub(crate) fn spanned_entries(&self) -> Vec<(&'a Spanned<Cow<'i, str>>, &'a Value<'i>)> {
        let mut entries: Vec<_> = self.table.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        entries
    }
}

/// Reports that `key` must be `expected`.
fn wrong_type(key: &str, value: &Value, expected: &'static str, diagnostics: &mut Diagnostics) {
    diagnostics.at_value(
        value,
        ErrorKind::WrongType {
            key: key.to_owned(),
            expected,
        },
    );
}

/// The string `value` of `key`.
pub(crate) fn string<'a>(
    key: &str,
    value: &'a Value,
    diagnostics: &mut Diagnostics,
) -> Option<&'a str> {
    let text = value.get_ref().as_str();
    if text.is_none() {
        wrong_type(key, value, "a string", diagnostics);
    }
    text
}

/// The table `value` of `key`.
pub(crate) fn table<'a, 'i>(
    key: &str,
    value: &'a Value<'i>,
    diagnostics: &mut Diagnostics,
) -> Option<&'a DeTable<'i>> {
    let table = value.get_ref().as_table();
    if table.is_none() {
        wrong_type(key, value, "a table", diagnostics);
    }
    table
}

/// The list `value` of `key`, its entries with their spans.
fn list<'a, 'i>(
    key: &str,
    value: &'a Value<'i>,
    expected: &'static str,
    diagnostics: &mut Diagnostics,
) -> Option<&'a [Value<'i>]> {
    let list = value.get_ref().as_array().map(|a| a.as_ref());
    if list.is_none() {
        wrong_type(key, value, expected, diagnostics);
    }
    list
}

/// The list of strings `value` of `key`, each with its value (for locating errors in it).
pub(crate) fn strings<'a, 'i>(
    key: &str,
    value: &'a Value<'i>,
    diagnostics: &mut Diagnostics,
) -> Option<Vec<(&'a Value<'i>, &'a str)>> {
    const EXPECTED: &str = "a list of strings";
    let list = list(key, value, EXPECTED, diagnostics)?;
    let strings: Vec<_> = list
        .iter()
        .filter_map(|v| match v.get_ref().as_str() {
            Some(s) => Some((v, s)),
            None => {
                wrong_type(key, v, EXPECTED, diagnostics);
                None
            }
        })
        .collect();
    (strings.len() == list.len()).then_some(strings)
}

/// The number (float or integer) `value` of `key`, which must be finite.
pub(crate) fn number(key: &str, value: &Value, diagnostics: &mut Diagnostics) -> Option<f64> {
    let x = match value.get_ref() {
        DeValue::Float(x) => x.as_str().parse::<f64>().ok(),
        // Integers beyond 2⁵³ are rounded to the nearest `f64`, as a float literal would be.
        DeValue::Integer(n) => i64::from_str_radix(n.as_str(), n.radix())
            .ok()
            .map(|n| n as f64),
        _ => None,
    };
    match x {
        None => wrong_type(key, value, "a number", diagnostics),
        Some(x) if !x.is_finite() => {
            let value_kind = ErrorKind::NotFinite {
                key: key.to_owned(),
                value: x.to_string(),
            };
            diagnostics.at_value(value, value_kind);
            return None;
        }
        Some(_) => {}
    }
    x
}

/// The list of numbers `value` of `key`.
pub(crate) fn numbers(key: &str, value: &Value, diagnostics: &mut Diagnostics) -> Option<Vec<f64>> {
    let list = list(key, value, "a list of numbers", diagnostics)?;
    let numbers: Vec<f64> = list
        .iter()
        .filter_map(|v| number(key, v, diagnostics))
        .collect();
    (numbers.len() == list.len()).then_some(numbers)
}

/// Byte offset in the file of byte `offset` of the decoded string whose token spans `span`
/// (quotes included; a bare key has none). Escapes of basic strings, line-ending backslashes and the newline after
/// an opening `"""`/`'''` are accounted for; an offset inside an escape maps to the escape.
pub(crate) fn string_offset(
    source: &str,
    span: Range<usize>,
    decoded: &str,
    offset: usize,
) -> usize {
    let Some(raw) = source.get(span.clone()) else {
        return span.start;
    };
    let (delimiter, basic) = if raw.starts_with("\"\"\"") {
        (3, true)
    } else if raw.starts_with("'''") {
        (3, false)
    } else if raw.starts_with('"') {
        (1, true)
    } else if raw.starts_with('\'') {
        (1, false)
    } else {
        (0, false)
    };
    let mut content = &raw[delimiter.min(raw.len())..];
    let mut start = span.start + delimiter;
    if delimiter == 3 {
        for newline in ["\r\n", "\n"] {
            if let Some(rest) = content.strip_prefix(newline) {
                content = rest;
                start += newline.len();
                break;
            }
        }
    }
    if !basic {
        return start + offset.min(decoded.len());
    }
    // Walk the raw content, decoding escapes, until `offset` decoded bytes are consumed.
    let bytes = content.as_bytes();
    let (mut raw_at, mut decoded_at) = (0, 0);
    let blank = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t' | b'\r' | b'\n'));
    while raw_at < bytes.len() {
        // A line-ending backslash decodes to nothing: skip it even at the target offset.
        let vanishing = bytes[raw_at] == b'\\' && blank(bytes.get(raw_at + 1));
        if decoded_at >= offset && !vanishing {
            break;
        }
        if bytes[raw_at] != b'\\' {
            let ch_len = content[raw_at..].chars().next().map_or(1, char::len_utf8);
            raw_at += ch_len;
            decoded_at += ch_len;
            continue;
        }
        let escape = raw_at;
        raw_at += 1;
        let digits = match bytes.get(raw_at) {
            Some(b'x') => 2,
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => 0,
        };
        if digits > 0 {
            let hex = content.get(raw_at + 1..raw_at + 1 + digits).unwrap_or("");
            let ch = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
            raw_at += 1 + digits;
            decoded_at += ch.map_or(1, char::len_utf8);
        } else if vanishing {
            // Line-ending backslash: the backslash and all whitespace after it vanish.
            while blank(bytes.get(raw_at)) {
                raw_at += 1;
            }
        } else {
            raw_at += 1;
            decoded_at += 1;
        }
        if decoded_at > offset {
            return start + escape;
        }
    }
    start + raw_at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finds `needle` in the decoded string and checks it maps to `needle` in the file.
    fn maps(source: &str, decoded: &str, needle: &str) -> bool {
        let offset = decoded.find(needle).unwrap_or(usize::MAX);
        let span = source.find(['"', '\'']).unwrap_or(0)..source.len();
        let at = string_offset(source, span, decoded, offset);
        source[at..].starts_with(needle)
    }

    #[test]
    fn offsets_inside_strings_map_back_to_the_file() {
        assert!(maps("x = 'ln(a) * b'", "ln(a) * b", "b"));
        assert!(maps(r#"x = "\"q\" + \u00e9 b""#, "\"q\" + é b", "b"));
        assert!(maps("x = \"\"\"\nab \\\n   c\"\"\"", "ab c", "c"));
        assert!(maps("x = '''\r\nab c'''", "ab c", "c"));
        // A bare key has no quotes.
        assert_eq!(string_offset("ab_c = 1", 0..4, "ab_c", 3), 3);
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(line_column("é = 1\nab", 7), (2, 1));
        assert_eq!(line_column("é = 1\nab", 3), (1, 3));
    }
}
