//! Positioned errors and line helpers for csp's text readers: the puzzle
//! files of the worked examples and the FlatZinc reader (`csp-fzn`).
//!
//! Kept out of the engine (`csp-core`), which reads no text: a reader
//! returns a [`TextError`] naming the line and column of the mistake, and
//! the helpers split a line-based file into data lines, tokens with
//! columns, and integers in a range.
//!
//! ```
//! use csp_text::{data_lines, int, tokens};
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

use std::fmt;

/// A mistake in a text input at a line and column (both 1-based), for the
/// parsers of the worked examples: `Display` gives `line:column: message`,
/// and a command line prefixes the file name.
///
/// ```
/// let e = csp_text::TextError::new(3, 7, "expected a digit, found 'x'");
/// assert_eq!(e.to_string(), "3:7: expected a digit, found 'x'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based (in characters).
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl TextError {
    /// The error at `line`, `column` saying `message`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> TextError {
        TextError {
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TextError {}

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

/// Checks a parser's errors: for each case `(text, line, column, words)`,
/// `parse(text)` must fail at that line and column (1-based) with a message
/// containing `words`. The first case that does not is the error.
///
/// ```
/// use csp_text::{check_errors, TextError};
/// let parse = |t: &str| match t.find('x') {
///     Some(i) => Err(TextError::new(1, i + 1, "found 'x'")),
///     None => Ok(()),
/// };
/// check_errors(parse, &[("ax", 1, 2, "found 'x'")]).unwrap();
/// assert!(check_errors(parse, &[("ab", 1, 1, "x")]).is_err());
/// ```
pub fn check_errors<T: fmt::Debug>(
    parse: impl Fn(&str) -> Result<T, TextError>,
    cases: &[(&str, usize, usize, &str)],
) -> Result<(), String> {
    for &(text, line, column, words) in cases {
        match parse(text) {
            Ok(v) => return Err(format!("{text:?}: parsed, as {v:?}")),
            Err(e) if (e.line, e.column) != (line, column) || !e.message.contains(words) => {
                return Err(format!(
                    "{text:?}: {e}, expected {line}:{column}: ...{words}..."
                ))
            }
            Err(_) => {}
        }
    }
    Ok(())
}
