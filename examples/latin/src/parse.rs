//! Reading partial Latin squares.
//!
//! # Format
//!
//! * A square of order `n` is a block of `n` lines of `n` cells; blocks are
//!   separated by one or more blank lines. The first row of a block sets `n`.
//! * A cell is `.` for a blank, or a value `1..=n` written `1`-`9`, then `A` = 10,
//!   `B` = 11, ... (lowercase accepted), or as a decimal number (`10`, `12`).
//! * A row is written either as **space-separated tokens** (`1 . 3`, `10 . 12`) or,
//!   when the line holds no whitespace, as **a run of characters**, one cell per
//!   character (`1.3`). Each line chooses its own form; leading and trailing
//!   whitespace is ignored.
//! * Lines starting with `#` are comments, skipped anywhere (they do not end a block).
//! * `0` is not a blank (a blank is `.`): a `0` is reported as out of range, so a
//!   square written with values `0..n-1` is caught rather than misread.
//!
//! Values that repeat in a row or column are not a parse error: the square is well
//! formed but has no completion; see [`Square::first_conflict`].
//!
//! # Errors
//!
//! A [`ParseError`] names the line (1-based) and, where one cell is at fault, the
//! column (1-based, in characters):
//!
//! ```
//! use csp_latin::parse::parse_squares;
//!
//! let err = parse_squares("1 2\n2 ?\n").unwrap_err();
//! assert_eq!(err.to_string(), "line 2, column 3: unexpected character '?'");
//! let err = parse_squares("12\n21\n\n123\n23\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "line 5: expected 3 cells as in the first row of this square (line 4), found 2"
//! );
//! ```

use std::fmt;

use crate::{Square, MAX_ORDER};

/// A problem in partial Latin square input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line, 1-based.
    pub line: usize,
    /// The column, 1-based in characters, when one cell is at fault.
    pub column: Option<usize>,
    /// What was wrong.
    pub kind: ParseErrorKind,
}

/// What was wrong in partial Latin square input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that cannot appear in a cell.
    UnexpectedCharacter(char),
    /// A space-separated token that is not `.`, a symbol or a decimal number.
    BadToken(String),
    /// A value of 0 or above the order.
    ValueOutOfRange {
        /// The cell as written.
        text: String,
        /// Its value.
        value: usize,
        /// The order of the square.
        order: usize,
    },
    /// A row whose length differs from the first row's.
    RowLength {
        /// The length of the first row, the order.
        expected: usize,
        /// The length of this row.
        found: usize,
        /// The line of the first row.
        first_row: usize,
    },
    /// A row after the `n`-th row of a square, before a blank line.
    TooManyRows {
        /// The order of the square.
        order: usize,
        /// The line of the first row.
        first_row: usize,
    },
    /// A square that ends (blank line or end of input) with fewer than `n` rows.
    TooFewRows {
        /// The number of rows found.
        found: usize,
        /// The order set by the first row.
        order: usize,
    },
    /// A first row longer than [`MAX_ORDER`] cells.
    OrderTooLarge(usize),
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnexpectedCharacter(c) => write!(f, "unexpected character {c:?}"),
            ParseErrorKind::BadToken(t) => write!(
                f,
                "bad cell {t:?} (expected '.', a symbol 1-9/A-Z or a decimal number)"
            ),
            ParseErrorKind::ValueOutOfRange { text, value, order } => {
                write!(f, "value {text:?} ")?;
                if !text.chars().all(|c| c.is_ascii_digit()) {
                    write!(f, "({value}) ")?;
                }
                write!(f, "out of range 1-{order}")?;
                if *value == 0 {
                    f.write_str(" (a blank is '.')")?;
                }
                Ok(())
            }
            ParseErrorKind::RowLength {
                expected,
                found,
                first_row,
            } => write!(
                f,
                "expected {expected} cells as in the first row of this square (line {first_row}), found {found}"
            ),
            ParseErrorKind::TooManyRows { order, first_row } => write!(
                f,
                "the square starting on line {first_row} has order {order} and already has {order} rows (squares are separated by blank lines)"
            ),
            ParseErrorKind::TooFewRows { found, order } => write!(
                f,
                "the square starting here has {order} columns but {found} rows"
            ),
            ParseErrorKind::OrderTooLarge(n) => {
                write!(f, "{n} cells in a row; the largest supported order is {MAX_ORDER}")
            }
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

/// One cell as written: its column, its text and its value (`0` for `.`).
#[derive(Debug)]
struct Cell {
    column: usize,
    text: String,
    value: usize,
}

/// The value of one symbol character, or `None` if it cannot be a cell.
fn symbol_value(c: char) -> Option<usize> {
    match c {
        '.' => Some(0),
        '0'..='9' => Some(c as usize - '0' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 10),
        'a'..='z' => Some(c as usize - 'a' as usize + 10),
        _ => None,
    }
}

/// Splits a row into cells (token or character form; see the module docs).
fn row_cells(line: usize, text: &str) -> Result<Vec<Cell>, ParseError> {
    let fail = |column, kind| ParseError {
        line,
        column: Some(column),
        kind,
    };
    let chars: Vec<(usize, char)> = text.chars().enumerate().map(|(i, c)| (i + 1, c)).collect();
    let body: Vec<(usize, char)> = {
        let start = chars.iter().position(|(_, c)| !c.is_whitespace());
        let end = chars.iter().rposition(|(_, c)| !c.is_whitespace());
        match (start, end) {
            (Some(s), Some(e)) => chars[s..=e].to_vec(),
            _ => Vec::new(),
        }
    };
    if let Some(&(column, c)) = body
        .iter()
        .find(|(_, c)| !c.is_whitespace() && symbol_value(*c).is_none())
    {
        return Err(fail(column, ParseErrorKind::UnexpectedCharacter(c)));
    }
    let spaced = body.iter().any(|(_, c)| c.is_whitespace());
    if !spaced {
        return Ok(body
            .iter()
            .map(|&(column, c)| Cell {
                column,
                text: c.to_string(),
                value: symbol_value(c).expect("checked above"),
            })
            .collect());
    }
    let mut cells = Vec::new();
    let mut token: Vec<(usize, char)> = Vec::new();
    for &(column, c) in body.iter().chain(std::iter::once(&(0, ' '))) {
        if !c.is_whitespace() {
            token.push((column, c));
            continue;
        }
        if token.is_empty() {
            continue;
        }
        let column = token[0].0;
        let text: String = token.iter().map(|&(_, c)| c).collect();
        let value = if token.len() == 1 {
            symbol_value(token[0].1).expect("checked above")
        } else if token.iter().all(|(_, c)| c.is_ascii_digit()) {
            // Too many digits for any order: report as out of range, not as a crash.
            text.parse().unwrap_or(usize::MAX)
        } else {
            return Err(fail(column, ParseErrorKind::BadToken(text)));
        };
        cells.push(Cell {
            column,
            text,
            value,
        });
        token.clear();
    }
    Ok(cells)
}

/// One square of the input: the line of its first row and the square or the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line of the square's first row, 1-based.
    pub line: usize,
    /// The square, or what was wrong with it.
    pub result: Result<Square, ParseError>,
}

/// An iterator over the squares of an input; see [`entries`].
#[derive(Debug, Clone)]
pub struct Entries<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    done: bool,
}

/// The square being read.
struct Block {
    first_row: usize,
    order: usize,
    cells: Vec<u8>,
    rows: usize,
}

impl Entries<'_> {
    /// Reads the next block, or returns `None` at the end of input.
    fn next_block(&mut self) -> Option<Entry> {
        let mut block: Option<Block> = None;
        let mut skipping: Option<Entry> = None; // an error; skip to the end of its block
        loop {
            let Some((i, text)) = self.lines.next() else {
                self.done = true;
                break;
            };
            let line = i + 1;
            let trimmed = text.trim();
            if trimmed.is_empty() {
                if block.is_some() || skipping.is_some() {
                    break;
                }
                continue;
            }
            if trimmed.starts_with('#') || skipping.is_some() {
                continue;
            }
            if let Err(e) = self.add_row(&mut block, line, text) {
                let first = block.as_ref().map_or(line, |b| b.first_row);
                skipping = Some(Entry {
                    line: first,
                    result: Err(e),
                });
            }
        }
        if let Some(entry) = skipping {
            return Some(entry);
        }
        let b = block?;
        let result = if b.rows < b.order {
            Err(ParseError {
                line: b.first_row,
                column: None,
                kind: ParseErrorKind::TooFewRows {
                    found: b.rows,
                    order: b.order,
                },
            })
        } else {
            Ok(Square::new(b.order, b.cells).expect("order and values were checked"))
        };
        Some(Entry {
            line: b.first_row,
            result,
        })
    }

    fn add_row(
        &self,
        block: &mut Option<Block>,
        line: usize,
        text: &str,
    ) -> Result<(), ParseError> {
        let cells = row_cells(line, text)?;
        let fail = |column, kind| ParseError { line, column, kind };
        let b = match block {
            Some(b) => {
                if b.rows == b.order {
                    return Err(fail(
                        None,
                        ParseErrorKind::TooManyRows {
                            order: b.order,
                            first_row: b.first_row,
                        },
                    ));
                }
                if cells.len() != b.order {
                    let column = cells.get(b.order).map(|c| c.column);
                    return Err(fail(
                        column,
                        ParseErrorKind::RowLength {
                            expected: b.order,
                            found: cells.len(),
                            first_row: b.first_row,
                        },
                    ));
                }
                b
            }
            None => {
                let order = cells.len();
                if order > MAX_ORDER {
                    return Err(fail(None, ParseErrorKind::OrderTooLarge(order)));
                }
                block.insert(Block {
                    first_row: line,
                    order,
                    cells: Vec::with_capacity(order * order),
                    rows: 0,
                })
            }
        };
        for cell in &cells {
            if cell.value > b.order || (cell.value == 0 && cell.text != ".") {
                return Err(fail(
                    Some(cell.column),
                    ParseErrorKind::ValueOutOfRange {
                        text: cell.text.clone(),
                        value: cell.value,
                        order: b.order,
                    },
                ));
            }
        }
        b.cells.extend(cells.iter().map(|c| c.value as u8));
        b.rows += 1;
        Ok(())
    }
}

impl Iterator for Entries<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        if self.done {
            return None;
        }
        self.next_block()
    }
}

/// One [`Entry`] per square (block of lines) of `input`, in order.
///
/// A malformed square yields an entry holding its error and the rest of its
/// block is skipped, so a caller can report it and go on with the next square.
///
/// ```
/// use csp_latin::parse::entries;
///
/// let found: Vec<(usize, bool)> = entries("1\n\n12\n2x\n\n. 2\n2 .\n")
///     .map(|e| (e.line, e.result.is_ok()))
///     .collect();
/// assert_eq!(found, [(1, true), (3, false), (6, true)]);
/// ```
pub fn entries(input: &str) -> Entries<'_> {
    Entries {
        lines: input.lines().enumerate(),
        done: false,
    }
}

/// All squares of `input`, or the first error.
///
/// # Errors
/// The first malformed square, with line and column.
pub fn parse_squares(input: &str) -> Result<Vec<Square>, ParseError> {
    entries(input).map(|e| e.result).collect()
}

/// Why a string is not exactly one square (from `str::parse::<Square>()`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SquareParseError {
    /// The string holds no square.
    NoSquare,
    /// The string holds a second square, starting on this line.
    MoreThanOne {
        /// The line of the second square's first row.
        line: usize,
    },
    /// The square is malformed.
    Parse(ParseError),
}

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareParseError::NoSquare => f.write_str("no square found"),
            SquareParseError::MoreThanOne { line } => {
                write!(f, "line {line}: a second square (expected exactly one)")
            }
            SquareParseError::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SquareParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SquareParseError::Parse(e) => Some(e),
            _ => None,
        }
    }
}

/// Parses exactly one square.
///
/// ```
/// let s: csp_latin::Square = "1.\n.1".parse().unwrap();
/// assert_eq!(s.cells(), &[1, 0, 0, 1]);
/// ```
impl std::str::FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let mut found = entries(s);
        match (found.next(), found.next()) {
            (None, _) => Err(SquareParseError::NoSquare),
            (Some(e), None) => e.result.map_err(SquareParseError::Parse),
            (Some(_), Some(second)) => Err(SquareParseError::MoreThanOne { line: second.line }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_squares(text).unwrap_err().to_string()
    }

    #[test]
    fn both_row_forms_and_comments() {
        let squares =
            parse_squares("# two squares\n  1 . 3 \n2.1\n# inside\n3\t1 2\n\n\n\n12\n21\n")
                .unwrap();
        assert_eq!(squares.len(), 2);
        assert_eq!(squares[0].cells(), &[1, 0, 3, 2, 0, 1, 3, 1, 2]);
        assert_eq!(squares[1].order(), 2);
        // 'a' = 10 in a 2×2 square is out of range.
        assert_eq!(
            err("ab\nba\n"),
            "line 1, column 1: value \"a\" (10) out of range 1-2"
        );
    }

    #[test]
    fn decimal_tokens_for_large_orders() {
        let n = 12;
        let text: String = (0..n)
            .map(|r| {
                let row: Vec<String> = (0..n).map(|c| ((r + c) % n + 1).to_string()).collect();
                row.join(" ") + "\n"
            })
            .collect();
        let s: Square = text.parse().unwrap();
        assert_eq!(s.get(0, 11), 12);
        assert_eq!(s.get(1, 11), 1);
        // The renderer uses symbols; they parse back to the same square.
        assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
        assert!(s.to_string().starts_with("1 2 3 4 5 6 7 8 9 A B C\n"));
    }

    #[test]
    fn errors() {
        assert_eq!(
            err("1 2\n2 ?\n"),
            "line 2, column 3: unexpected character '?'"
        );
        assert_eq!(
            err("1 2\n2 x\n"),
            "line 2, column 3: value \"x\" (33) out of range 1-2"
        );
        assert_eq!(
            err("1 0\n. .\n"),
            "line 1, column 3: value \"0\" out of range 1-2 (a blank is '.')"
        );
        assert_eq!(
            err("1 2 .\n. 1x .\n"),
            "line 2, column 3: bad cell \"1x\" (expected '.', a symbol 1-9/A-Z or a decimal number)"
        );
        assert_eq!(
            err("1 .\n. 7\n"),
            "line 2, column 3: value \"7\" out of range 1-2"
        );
        assert_eq!(
            err("1 .\n. 99999999999999999999999\n"),
            "line 2, column 3: value \"99999999999999999999999\" out of range 1-2"
        );
        assert_eq!(
            err("12\n21\n12\n"),
            "line 3: the square starting on line 1 has order 2 and already has 2 rows (squares are separated by blank lines)"
        );
        assert_eq!(
            err("123\n231\n\n"),
            "line 1: the square starting here has 3 columns but 2 rows"
        );
        assert_eq!(
            err("123\n2314\n312\n"),
            "line 2, column 4: expected 3 cells as in the first row of this square (line 1), found 4"
        );
        assert_eq!(
            err(&format!("{}\n", ". ".repeat(300))),
            "line 1: 300 cells in a row; the largest supported order is 255"
        );
    }

    #[test]
    fn entries_skip_the_rest_of_a_bad_block() {
        let input = "12\n2?\n12\n12\n\n1\n";
        let found: Vec<Entry> = entries(input).collect();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].line, 1);
        assert_eq!(
            found[0].result.as_ref().unwrap_err().to_string(),
            "line 2, column 2: unexpected character '?'"
        );
        assert_eq!(found[1].line, 6);
        assert_eq!(found[1].result.as_ref().unwrap().order(), 1);
        assert!(entries("\n\n# only comments\n").next().is_none());
    }

    #[test]
    fn from_str_wants_one_square() {
        assert_eq!("".parse::<Square>(), Err(SquareParseError::NoSquare));
        assert_eq!(
            "1\n\n1\n".parse::<Square>().unwrap_err().to_string(),
            "line 3: a second square (expected exactly one)"
        );
    }
}
