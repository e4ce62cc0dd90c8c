//! Small helpers for the line-based data files of the worked examples:
//! the lines that carry data, their whitespace-separated tokens with
//! columns, and integers with positioned errors ([`TextError`]).
//!
//! ```
//! use csp_core::text::{data_lines, int, tokens};
//! let text = "# a comment\n\n3 x\n";
//! let (line, l) = data_lines(text).next().unwrap();
//! let t = tokens(l);
//! assert_eq!((line, t[0]), (3, (1, "3")));
//! assert_eq!(int(line, t[0], "a count", 1, 9), Ok(3));
//! assert_eq!(
//!     int(line, t[1], "a count", 1, 9).unwrap_err().to_string(),
//!     "3:3: expected a count (an integer), found 'x'"
//! );
//! ```

use crate::TextError;

/// The lines that carry data, as (1-based line number, text): blank lines
/// and lines starting with `#` are skipped.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
}

/// The whitespace-separated tokens of a line, each with its 1-based column
/// (in characters).
pub fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((line[..s].chars().count() + 1, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The token `(column, text)` of line `line` as an integer in `lo..=hi`;
/// otherwise an error at its position naming `what`.
pub fn int(
    line: usize,
    (column, text): (usize, &str),
    what: &str,
    lo: i64,
    hi: i64,
) -> Result<i64, TextError> {
    match text.parse::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(v) => Err(TextError::new(
            line,
            column,
            format!("{what} must be from {lo} to {hi}, found {v}"),
        )),
        Err(_) => Err(TextError::new(
            line,
            column,
            format!("expected {what} (an integer), found '{text}'"),
        )),
    }
}
