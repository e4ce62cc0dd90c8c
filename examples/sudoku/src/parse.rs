//! Reading puzzles: one puzzle per line.
//!
//! # Format
//!
//! * One puzzle per line, row-major (row 1 left to right, then row 2, ...).
//! * A line of 81 cells is a 9×9 puzzle, 256 cells a 16×16 and 625 cells a 25×25.
//! * A blank is `.` or `0`. Values are `1`-`9`, then letters for 10 and up:
//!   `A` = 10, `B` = 11, ..., `G` = 16, ..., `P` = 25. Lowercase letters are
//!   accepted too. A value above the grid side (`A` in a 9×9 puzzle, `H` in a
//!   16×16 one) is an error; letters after `P` are unexpected characters.
//! * Lines starting with `#` (after optional spaces) and blank lines are skipped.
//! * Leading and trailing whitespace (including a `\r` from CRLF files) is ignored;
//!   whitespace inside a puzzle is an error.
//!
//! Givens that repeat in a row, column or box are *not* a parse error: the line is
//! well-formed and describes a puzzle with no solution. [`Grid::first_conflict`]
//! finds such a repeat; the solver simply reports no solution.
//!
//! # Errors
//!
//! A [`ParseError`] names the line (1-based) and, where it makes sense, the column
//! (1-based, in characters) of the problem:
//!
//! ```
//! use csp_sudoku::parse::parse_puzzles;
//!
//! let input = "# two puzzles\n..x\n";
//! let err = parse_puzzles(input).unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 3: unexpected character 'x'");
//!
//! let err = parse_puzzles(&".".repeat(80)).unwrap_err();
//! assert_eq!(err.to_string(), "line 1: expected 81, 256 or 625 characters, found 80");
//! ```
//!
//! To keep going after a bad line (a command-line tool prints `error` on that
//! puzzle's output line and moves on), iterate with [`entries`]: it yields one
//! [`Entry`] per puzzle line, each with its line number and either a grid or an error.

use std::fmt;

use crate::{value_of_symbol, Grid, MAX_BOX_SIDE};

/// The largest grid side, and so the largest value symbol (`P` = 25).
const MAX_SIDE: usize = MAX_BOX_SIDE * MAX_BOX_SIDE;

/// A problem found on one line of puzzle input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line number, 1-based.
    pub line: usize,
    /// The column, 1-based, counted in characters; `None` when the whole line is at fault.
    pub column: Option<usize>,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong with a puzzle line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that is neither a blank (`.`, `0`) nor a value symbol (`1`-`9`, `A`-`P`).
    UnexpectedCharacter(char),
    /// The line does not have 81, 256 or 625 cells.
    WrongLength {
        /// The number of characters found.
        found: usize,
    },
    /// A value symbol above the side of the grid (`A` in a 9×9 puzzle).
    ValueOutOfRange {
        /// The symbol as written.
        symbol: char,
        /// The value it stands for.
        value: u32,
        /// The side of the grid, the largest allowed value.
        max: usize,
    },
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnexpectedCharacter(c) => {
                write!(f, "unexpected character {c:?}")
            }
            ParseErrorKind::WrongLength { found } => {
                write!(f, "expected 81, 256 or 625 characters, found {found}")
            }
            ParseErrorKind::ValueOutOfRange { symbol, value, max } => write!(
                f,
                "value {symbol:?} ({value}) out of range for a {max}x{max} grid (largest value {})",
                crate::symbol(*max as u8).unwrap_or('?')
            ),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for ParseError {}

/// One puzzle line of the input: its line number and the parsed grid or the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line number, 1-based.
    pub line: usize,
    /// The puzzle on that line, or what was wrong with it.
    pub result: Result<Grid, ParseError>,
}

/// Parses one line of input.
///
/// Returns `Ok(None)` for a line to skip (blank, or a `#` comment), `Ok(Some(grid))`
/// for a puzzle. `line` is the 1-based line number put into errors.
///
/// ```
/// use csp_sudoku::parse::parse_line;
///
/// assert_eq!(parse_line(7, "  # comment"), Ok(None));
/// let grid = parse_line(1, &"1".repeat(81)).unwrap().unwrap();
/// assert_eq!(grid.side(), 9);
/// let err = parse_line(3, "12.4").unwrap_err();
/// assert_eq!(err.to_string(), "line 3: expected 81, 256 or 625 characters, found 4");
/// ```
///
/// # Errors
/// An unexpected character, a wrong length or a value above the grid side.
pub fn parse_line(line: usize, text: &str) -> Result<Option<Grid>, ParseError> {
    let trimmed_start = text.trim_start();
    let lead = text[..text.len() - trimmed_start.len()].chars().count();
    let body = trimmed_start.trim_end();
    if body.is_empty() || body.starts_with('#') {
        return Ok(None);
    }
    // First pass: every character must be a blank or a symbol of some grid size.
    let mut symbols = Vec::with_capacity(body.len());
    for (i, c) in body.chars().enumerate() {
        let value = match c {
            '.' | '0' => 0,
            _ => value_of_symbol(c)
                .filter(|&v| v as usize <= MAX_SIDE)
                .ok_or(ParseError {
                    line,
                    column: Some(lead + i + 1),
                    kind: ParseErrorKind::UnexpectedCharacter(c),
                })?,
        };
        symbols.push((c, value));
    }
    // The length decides the size.
    let box_side = match symbols.len() {
        81 => 3,
        256 => 4,
        625 => 5,
        found => {
            return Err(ParseError {
                line,
                column: None,
                kind: ParseErrorKind::WrongLength { found },
            })
        }
    };
    let n = box_side * box_side;
    let mut cells = Vec::with_capacity(n * n);
    for (i, &(symbol, value)) in symbols.iter().enumerate() {
        if value as usize > n {
            return Err(ParseError {
                line,
                column: Some(lead + i + 1),
                kind: ParseErrorKind::ValueOutOfRange {
                    symbol,
                    value,
                    max: n,
                },
            });
        }
        cells.push(value as u8);
    }
    let grid = Grid::new(box_side, cells).expect("size and values were checked above");
    Ok(Some(grid))
}

/// An iterator over the puzzle lines of `input`; see [`entries`].
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl Iterator for Entries<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        for (i, text) in self.lines.by_ref() {
            let line = i + 1;
            match parse_line(line, text) {
                Ok(None) => continue,
                Ok(Some(grid)) => {
                    return Some(Entry {
                        line,
                        result: Ok(grid),
                    })
                }
                Err(e) => {
                    return Some(Entry {
                        line,
                        result: Err(e),
                    })
                }
            }
        }
        None
    }
}

/// One [`Entry`] per puzzle line of `input` (comments and blank lines skipped), in order.
///
/// A bad line yields an entry holding its error and the iteration goes on, so a
/// caller can report the error in that puzzle's place and continue.
///
/// ```
/// use csp_sudoku::parse::entries;
///
/// let good = ".".repeat(81);
/// let input = format!("# demo\n{good}\nnot a puzzle\n\n{good}\n");
/// let lines: Vec<(usize, bool)> =
///     entries(&input).map(|e| (e.line, e.result.is_ok())).collect();
/// assert_eq!(lines, [(2, true), (3, false), (5, true)]);
/// ```
pub fn entries(input: &str) -> Entries<'_> {
    Entries {
        lines: input.lines().enumerate(),
    }
}

/// All puzzles of `input`, or the first error.
///
/// # Errors
/// The first bad line, with its line and column.
pub fn parse_puzzles(input: &str) -> Result<Vec<Grid>, ParseError> {
    entries(input).map(|e| e.result).collect()
}

/// Parses a single puzzle: the one non-comment line of the string.
///
/// Errors are reported on line 1 of the string (or the line the puzzle is on).
///
/// ```
/// let grid: csp_sudoku::Grid = ".".repeat(256).parse().unwrap();
/// assert_eq!(grid.side(), 16);
/// assert!("".parse::<csp_sudoku::Grid>().is_err());
/// ```
impl std::str::FromStr for Grid {
    type Err = GridParseError;

    fn from_str(s: &str) -> Result<Grid, GridParseError> {
        let mut found = entries(s);
        match (found.next(), found.next()) {
            (None, _) => Err(GridParseError::NoPuzzle),
            (Some(entry), None) => entry.result.map_err(GridParseError::Parse),
            (Some(_), Some(second)) => Err(GridParseError::MoreThanOne { line: second.line }),
        }
    }
}

/// Why a string is not exactly one puzzle (from `str::parse::<Grid>()`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GridParseError {
    /// The string holds no puzzle line.
    NoPuzzle,
    /// The string holds a second puzzle line (1-based line number).
    MoreThanOne {
        /// The line of the second puzzle.
        line: usize,
    },
    /// The puzzle line is malformed.
    Parse(ParseError),
}

impl fmt::Display for GridParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridParseError::NoPuzzle => f.write_str("no puzzle found"),
            GridParseError::MoreThanOne { line } => {
                write!(f, "line {line}: a second puzzle (expected exactly one)")
            }
            GridParseError::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GridParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GridParseError::Parse(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: usize, text: &str) -> String {
        parse_line(line, text).unwrap_err().to_string()
    }

    #[test]
    fn the_documented_messages() {
        let mut text = ".".repeat(81);
        text.replace_range(2..3, "x");
        assert_eq!(err(2, &text), "line 2, column 3: unexpected character 'x'");
        assert_eq!(
            err(5, &".".repeat(80)),
            "line 5: expected 81, 256 or 625 characters, found 80"
        );
    }

    #[test]
    fn columns_count_leading_whitespace_and_characters() {
        let text = format!("  {}é", ".".repeat(10));
        assert_eq!(err(1, &text), "line 1, column 13: unexpected character 'é'");
        let text = format!("{} {}", ".".repeat(40), ".".repeat(40));
        assert_eq!(err(4, &text), "line 4, column 41: unexpected character ' '");
    }

    #[test]
    fn blanks_values_and_trimming() {
        let mut text = "0".repeat(81);
        text.replace_range(0..2, "19");
        let grid = parse_line(1, &format!("  {text} \r")).unwrap().unwrap();
        assert_eq!(grid.get(0, 0), 1);
        assert_eq!(grid.get(0, 1), 9);
        assert_eq!(grid.givens(), 2);
    }

    #[test]
    fn letters_in_large_grids_either_case() {
        let mut text = ".".repeat(256);
        text.replace_range(0..3, "AgG");
        let grid = parse_line(1, &text).unwrap().unwrap();
        assert_eq!(&grid.cells()[..3], &[10, 16, 16]);
        text.replace_range(0..1, "H");
        assert_eq!(
            err(9, &text),
            "line 9, column 1: value 'H' (17) out of range for a 16x16 grid (largest value G)"
        );
        let mut text = ".".repeat(625);
        text.replace_range(624..625, "p");
        assert_eq!(parse_line(1, &text).unwrap().unwrap().cells()[624], 25);
        let mut text = ".".repeat(81);
        text.replace_range(80..81, "A");
        assert_eq!(
            err(1, &text),
            "line 1, column 81: value 'A' (10) out of range for a 9x9 grid (largest value 9)"
        );
    }

    #[test]
    fn a_bad_character_is_reported_before_a_wrong_length() {
        assert_eq!(err(1, "12?"), "line 1, column 3: unexpected character '?'");
        assert_eq!(err(1, "1Z"), "line 1, column 2: unexpected character 'Z'");
        assert_eq!(
            err(1, "1P"),
            "line 1: expected 81, 256 or 625 characters, found 2"
        );
    }

    #[test]
    fn entries_keep_line_numbers_and_go_on_after_errors() {
        let good = "1".repeat(81);
        let input = format!("#c\n\n{good}\r\n{}\n   \n{good}", "2".repeat(82));
        let got: Vec<_> = entries(&input).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].line, 3);
        assert!(got[0].result.is_ok());
        assert_eq!(got[1].line, 4);
        assert_eq!(
            got[1].result.as_ref().unwrap_err().kind,
            ParseErrorKind::WrongLength { found: 82 }
        );
        assert_eq!(got[2].line, 6);
        assert_eq!(
            parse_puzzles(&input).unwrap_err().to_string(),
            "line 4: expected 81, 256 or 625 characters, found 82"
        );
    }

    #[test]
    fn from_str_wants_exactly_one_puzzle() {
        let good = ".".repeat(81);
        assert_eq!("# x\n".parse::<Grid>(), Err(GridParseError::NoPuzzle));
        assert_eq!(
            format!("{good}\n{good}")
                .parse::<Grid>()
                .unwrap_err()
                .to_string(),
            "line 2: a second puzzle (expected exactly one)"
        );
        assert_eq!(
            "abc".parse::<Grid>().unwrap_err().to_string(),
            "line 1: expected 81, 256 or 625 characters, found 3"
        );
    }
}
