//! Independent checking of placements, and parsing of the `columns` format.
//!
//! A placement `cols` has one queen per row: row `y` has its queen in column
//! `x = cols[y]` (both 0-based), on an `n × n` board with `n = cols.len()`.
//! Two queens attack each other when they share a column (`x`), a diagonal
//! (`x − y`) or an anti-diagonal (`x + y`); rows are distinct by construction.
//! [`check`] counts the queens on every such line, which takes O(n) time for
//! a valid placement, and lists every pair of queens sharing a line (pieces
//! in between do not matter).
//!
//! ```
//! use csp_queens::verify::{check, parse_columns_line, Line};
//!
//! let cols = parse_columns_line("2 4 1 3").unwrap();
//! assert_eq!(cols, vec![1, 3, 0, 2]);
//! assert!(check(&cols).is_solution());
//!
//! let verdict = check(&[0, 2, 1]);
//! assert!(!verdict.is_solution());
//! assert_eq!(verdict.conflicts.len(), 1);
//! assert_eq!(verdict.conflicts[0].line, Line::AntiDiagonal);
//! assert_eq!(verdict.to_string(), "not a solution: 1 attacking pair\n  rows 2 and 3: same anti-diagonal (x + y = 5)");
//! ```

use std::fmt;

/// A family of lines along which queens attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Line {
    /// The same column (`x`).
    Column,
    /// The same diagonal running down to the right (`x − y` constant).
    Diagonal,
    /// The same anti-diagonal running down to the left (`x + y` constant).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Column => "same column",
            Line::Diagonal => "same diagonal",
            Line::AntiDiagonal => "same anti-diagonal",
        })
    }
}

/// Two queens on one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conflict {
    /// The upper queen's 0-based row.
    pub first: usize,
    /// The lower queen's 0-based row (`first < second`).
    pub second: usize,
    /// The line they share.
    pub line: Line,
    /// The common value on that line, 1-based like the `columns` format:
    /// the column for [`Line::Column`], `x − y` for [`Line::Diagonal`] and
    /// `x + y` for [`Line::AntiDiagonal`] (differences and sums of 1-based
    /// coordinates).
    pub value: i64,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rows {} and {}: {} ",
            self.first + 1,
            self.second + 1,
            self.line
        )?;
        match self.line {
            Line::Column => write!(f, "({})", self.value),
            Line::Diagonal => write!(f, "(x − y = {})", self.value),
            Line::AntiDiagonal => write!(f, "(x + y = {})", self.value),
        }
    }
}

/// A queen outside the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OffBoard {
    /// Its 0-based row.
    pub row: usize,
    /// Its 0-based column, at least `n`.
    pub col: u32,
}

/// The result of [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// The board size (number of rows).
    pub n: usize,
    /// Every pair of on-board queens sharing a line, ordered by rows, then
    /// by line family.
    pub conflicts: Vec<Conflict>,
    /// Queens whose column is not on the board, by row. They take part in no
    /// conflict.
    pub off_board: Vec<OffBoard>,
}

impl Verdict {
    /// Whether the placement is a solution: every queen on the board and no
    /// two on one line.
    pub fn is_solution(&self) -> bool {
        self.conflicts.is_empty() && self.off_board.is_empty()
    }
}

impl fmt::Display for Verdict {
    /// One line, then one indented line per problem; rows, columns and line
    /// values are 1-based.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_solution() {
            return write!(
                f,
                "valid: no two of the {} queens attack each other",
                self.n
            );
        }
        let pairs = self.conflicts.len();
        write!(
            f,
            "not a solution: {pairs} attacking pair{}",
            if pairs == 1 { "" } else { "s" }
        )?;
        if !self.off_board.is_empty() {
            write!(f, ", {} queen(s) off the board", self.off_board.len())?;
        }
        for off in &self.off_board {
            write!(
                f,
                "\n  row {}: column {} is outside the {}×{} board",
                off.row + 1,
                u64::from(off.col) + 1,
                self.n,
                self.n
            )?;
        }
        for conflict in &self.conflicts {
            write!(f, "\n  {conflict}")?;
        }
        Ok(())
    }
}

/// Checks `cols` and lists every attacking pair; see the module docs.
///
/// Takes O(n) time and memory, plus the size of the conflict list.
///
/// ```
/// use csp_queens::verify::check;
/// let verdict = check(&[0, 0, 5]);
/// assert_eq!(verdict.conflicts.len(), 1);
/// assert_eq!(verdict.off_board.len(), 1);
/// ```
pub fn check(cols: &[u32]) -> Verdict {
    let n = cols.len();
    if is_solution_fast(cols) {
        return Verdict {
            n,
            conflicts: Vec::new(),
            off_board: Vec::new(),
        };
    }
    let mut off_board = Vec::new();
    // Line indices: column x, diagonal x − y + n − 1, anti-diagonal x + y.
    let lines = 2 * n.max(1) - 1;
    let mut by_col = vec![0u32; n];
    let mut by_diag = vec![0u32; lines];
    let mut by_anti = vec![0u32; lines];
    let mut clash = false;
    for (y, &x) in cols.iter().enumerate() {
        let xu = x as usize;
        if xu >= n {
            off_board.push(OffBoard { row: y, col: x });
            continue;
        }
        for (counts, index) in [
            (&mut by_col, xu),
            (&mut by_diag, xu + n - 1 - y),
            (&mut by_anti, xu + y),
        ] {
            counts[index] += 1;
            clash |= counts[index] > 1;
        }
    }
    let mut conflicts = Vec::new();
    if clash {
        let on_board = |y: usize| (cols[y] as usize) < n;
        list_pairs(n, &by_col, Line::Column, &mut conflicts, |y| {
            on_board(y).then(|| cols[y] as usize)
        });
        list_pairs(n, &by_diag, Line::Diagonal, &mut conflicts, |y| {
            on_board(y).then(|| cols[y] as usize + n - 1 - y)
        });
        list_pairs(n, &by_anti, Line::AntiDiagonal, &mut conflicts, |y| {
            on_board(y).then(|| cols[y] as usize + y)
        });
        conflicts.sort_unstable();
    }
    Verdict {
        n,
        conflicts,
        off_board,
    }
}

/// The common case first: one bit per line (an eighth of the memory of the
/// counters, so a 10^6-queens check stays in cache), no list building.
fn is_solution_fast(cols: &[u32]) -> bool {
    let n = cols.len();
    let lines = 2 * n.max(1) - 1;
    let words = lines.div_ceil(64);
    let (mut col, mut diag, mut anti) = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
    let seen = |bits: &mut [u64], i: usize| {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let hit = bits[w] & b != 0;
        bits[w] |= b;
        hit
    };
    for (y, &x) in cols.iter().enumerate() {
        let x = x as usize;
        if x >= n || seen(&mut col, x) || seen(&mut diag, x + n - 1 - y) || seen(&mut anti, x + y) {
            return false;
        }
    }
    true
}

/// Appends the pairs of rows sharing a line of one family, given the number
/// of queens on each line and the line of each row (`None`: off the board).
fn list_pairs(
    n: usize,
    counts: &[u32],
    family: Line,
    out: &mut Vec<Conflict>,
    line_of: impl Fn(usize) -> Option<usize>,
) {
    if counts.iter().all(|&c| c <= 1) {
        return;
    }
    // Bucket the rows of crowded lines by line (counting sort), rows
    // ascending within each line.
    let mut start = vec![0usize; counts.len() + 1];
    for (line, &count) in counts.iter().enumerate() {
        start[line + 1] = start[line] + if count > 1 { count as usize } else { 0 };
    }
    let mut fill = start.clone();
    let mut rows = vec![0usize; start[counts.len()]];
    for y in 0..n {
        if let Some(line) = line_of(y) {
            if counts[line] > 1 {
                rows[fill[line]] = y;
                fill[line] += 1;
            }
        }
    }
    for line in 0..counts.len() {
        let members = &rows[start[line]..start[line + 1]];
        for (i, &first) in members.iter().enumerate() {
            for &second in &members[i + 1..] {
                let value = match family {
                    Line::Column => line as i64 + 1,
                    // (x + 1) − (y + 1) = index − (n − 1)
                    Line::Diagonal => line as i64 - (n as i64 - 1),
                    // (x + 1) + (y + 1) = index + 2
                    Line::AntiDiagonal => line as i64 + 2,
                };
                out.push(Conflict {
                    first,
                    second,
                    line: family,
                    value,
                });
            }
        }
    }
}

/// A reusable solution test that keeps its counters between calls, for
/// checking many placements of one size without allocating.
///
/// ```
/// use csp_queens::verify::Checker;
/// let mut checker = Checker::new(4);
/// assert!(checker.is_solution(&[1, 3, 0, 2]));
/// assert!(!checker.is_solution(&[0, 1, 2, 3]));
/// assert!(!checker.is_solution(&[0, 1, 2])); // wrong length
/// ```
#[derive(Debug, Clone)]
pub struct Checker {
    n: usize,
    col: Vec<bool>,
    diag: Vec<bool>,
    anti: Vec<bool>,
}

impl Checker {
    /// A checker for `n × n` boards.
    pub fn new(n: usize) -> Checker {
        let lines = 2 * n.max(1) - 1;
        Checker {
            n,
            col: vec![false; n],
            diag: vec![false; lines],
            anti: vec![false; lines],
        }
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Whether `cols` is a solution for this board size: `n` queens, all on
    /// the board, no two on one line. O(n).
    pub fn is_solution(&mut self, cols: &[u32]) -> bool {
        let n = self.n;
        if cols.len() != n {
            return false;
        }
        self.col.fill(false);
        self.diag.fill(false);
        self.anti.fill(false);
        for (y, &x) in cols.iter().enumerate() {
            let x = x as usize;
            if x >= n {
                return false;
            }
            let d = x + n - 1 - y;
            let a = x + y;
            if self.col[x] || self.diag[d] || self.anti[a] {
                return false;
            }
            self.col[x] = true;
            self.diag[d] = true;
            self.anti[a] = true;
        }
        true
    }
}

/// Why a `columns` line could not be read. Positions are 1-based character
/// positions within the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line has no columns at all.
    Empty,
    /// A token is not a whole number.
    NotANumber {
        /// Character position where the token starts.
        position: usize,
        /// The token.
        token: String,
    },
    /// A column is 0 (columns are 1-based).
    Zero {
        /// Character position where the token starts.
        position: usize,
    },
    /// A column exceeds `n`, the number of columns on the line.
    OutOfRange {
        /// Character position where the token starts.
        position: usize,
        /// The token.
        token: String,
        /// The board size implied by the line.
        n: usize,
    },
    /// A line in `a1` or `json` format that does not say what it should.
    Invalid {
        /// Character position of the trouble (1-based).
        position: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => {
                f.write_str("empty line: expected the 1-based column of every row")
            }
            ParseError::NotANumber { position, token } => write!(
                f,
                "at column {position}: `{token}` is not a number (expected a 1-based column)"
            ),
            ParseError::Zero { position } => {
                write!(f, "at column {position}: 0 is not a column (columns are 1-based)")
            }
            ParseError::OutOfRange { position, token, n } => write!(
                f,
                "at column {position}: {token} is larger than n = {n} (the number of columns on the line)"
            ),
            ParseError::Invalid { position, message } => {
                write!(f, "at column {position}: {message}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a line of 1-based columns separated by whitespace, as printed by
/// the `columns` format, into 0-based columns. The board size `n` is the
/// number of tokens. Duplicate columns are accepted here; [`check`] reports
/// them.
///
/// # Errors
///
/// The first bad token in the line, or [`ParseError::Empty`].
///
/// ```
/// use csp_queens::verify::{parse_columns_line, ParseError};
/// assert_eq!(parse_columns_line(" 1 5 8 6 3 7 2 4\n").unwrap(), vec![0, 4, 7, 5, 2, 6, 1, 3]);
/// assert_eq!(
///     parse_columns_line("2 x 1"),
///     Err(ParseError::NotANumber { position: 3, token: "x".into() })
/// );
/// assert_eq!(parse_columns_line("1 0"), Err(ParseError::Zero { position: 3 }));
/// let err = parse_columns_line("1 3").unwrap_err();
/// assert_eq!(err.to_string(), "at column 3: 3 is larger than n = 2 (the number of columns on the line)");
/// ```
pub fn parse_columns_line(line: &str) -> Result<Vec<u32>, ParseError> {
    let tokens = tokens(line);
    if tokens.is_empty() {
        return Err(ParseError::Empty);
    }
    let n = tokens.len();
    let mut cols = Vec::with_capacity(n);
    for (position, token) in tokens {
        if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::NotANumber {
                position,
                token: token.to_string(),
            });
        }
        let digits = token.trim_start_matches('0');
        if digits.is_empty() {
            return Err(ParseError::Zero { position });
        }
        // Any value that does not fit in u64 is certainly larger than n.
        match digits.parse::<u64>() {
            Ok(value) if value <= n as u64 => cols.push((value - 1) as u32),
            _ => {
                return Err(ParseError::OutOfRange {
                    position,
                    token: token.to_string(),
                    n,
                })
            }
        }
    }
    Ok(cols)
}

/// Parses a placement in any of the text formats `csp queens` prints: a
/// `json` object (the line starts with `{`), `a1` squares (the first token
/// starts with a letter) or `columns`.
///
/// ```
/// use csp_queens::verify::parse_line;
/// let want = vec![1, 3, 0, 2];
/// assert_eq!(parse_line("2 4 1 3").unwrap(), want);
/// assert_eq!(parse_line("b1 d2 a3 c4").unwrap(), want);
/// assert_eq!(parse_line("c4 a3 d2 b1").unwrap(), want); // any order
/// assert_eq!(parse_line(r#"{"n":4,"columns":[2,4,1,3]}"#).unwrap(), want);
/// ```
pub fn parse_line(line: &str) -> Result<Vec<u32>, ParseError> {
    let t = line.trim_start();
    if t.starts_with('{') {
        parse_json_line(line)
    } else if t.starts_with(|c: char| c.is_ascii_alphabetic()) {
        parse_a1_line(line)
    } else {
        parse_columns_line(line)
    }
}

/// Parses squares in chess notation (`a1 e2 h3 …`, as the `a1` format
/// prints them, in any order): one square per rank, ranks `1..=n` with `n`
/// the number of squares. A file past the board is kept (the check reports
/// the queen off the board); a rank past it, a rank twice or a token that
/// is not a square is an error.
pub fn parse_a1_line(line: &str) -> Result<Vec<u32>, ParseError> {
    let tokens = tokens(line);
    if tokens.is_empty() {
        return Err(ParseError::Empty);
    }
    let n = tokens.len();
    let mut cols: Vec<Option<u32>> = vec![None; n];
    for (position, token) in tokens {
        let invalid = |message: String| ParseError::Invalid { position, message };
        let split = token
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(token.len());
        let (file, rank) = token.split_at(split);
        if file.is_empty()
            || file.len() > 7
            || rank.is_empty()
            || !rank.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(invalid(format!(
                "`{token}` is not a square (expected a file letter and a rank, as in `e2`)"
            )));
        }
        // Files are bijective base 26: a..z, aa, ab, ...
        let col = file
            .bytes()
            .fold(0u64, |acc, b| acc * 26 + u64::from(b - b'a') + 1)
            - 1;
        let col =
            u32::try_from(col).map_err(|_| invalid(format!("file `{file}` is too far right")))?;
        let r = rank.parse::<usize>().ok().filter(|r| (1..=n).contains(r)).ok_or_else(|| {
            invalid(format!(
                "rank {rank} is not on the board (ranks 1 to n = {n}, the number of squares on the line)"
            ))
        })?;
        if cols[r - 1].replace(col).is_some() {
            return Err(invalid(format!(
                "rank {r} has a second queen (one queen per rank)"
            )));
        }
    }
    // n distinct ranks in 1..=n: every rank has its queen.
    Ok(cols.into_iter().flatten().collect())
}

/// Parses the `json` format, `{"n":4,"columns":[2,4,1,3]}` (white space
/// allowed, `"n"` optional but then equal to the number of columns,
/// columns 1-based and at most `n`).
pub fn parse_json_line(line: &str) -> Result<Vec<u32>, ParseError> {
    // (1-based position, character) of everything but white space.
    let chars: Vec<(usize, char)> = line
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i + 1, c))
        .collect();
    let text: String = chars.iter().map(|&(_, c)| c).collect();
    let at = |i: usize| chars.get(i).map_or(line.chars().count() + 1, |&(p, _)| p);
    let invalid = |i: usize, message: &str| ParseError::Invalid {
        position: at(i),
        message: format!("{message} (expected {{\"n\":N,\"columns\":[...]}})"),
    };
    let body = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| invalid(0, "not a JSON object"))?;
    let (mut n, mut columns) = (None, None);
    let mut i = 1; // index in `text` of the current key
    for part in split_top_level(body) {
        let (key, value) = part
            .split_once(':')
            .ok_or_else(|| invalid(i, "a key without a value"))?;
        let value_at = i + key.len() + 1;
        match key {
            "\"n\"" => {
                n = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| invalid(value_at, "\"n\" is not a whole number"))?,
                )
            }
            "\"columns\"" => {
                let list = value
                    .strip_prefix('[')
                    .and_then(|v| v.strip_suffix(']'))
                    .ok_or_else(|| invalid(value_at, "\"columns\" is not a list"))?;
                let mut cols = Vec::new();
                let mut k = value_at + 1;
                for item in list.split(',').filter(|_| !list.is_empty()) {
                    let c = item
                        .parse::<u64>()
                        .ok()
                        .filter(|&c| c >= 1)
                        .ok_or_else(|| invalid(k, "a column is not a whole number from 1 on"))?;
                    cols.push((c, k));
                    k += item.len() + 1;
                }
                columns = Some(cols);
            }
            _ => return Err(invalid(i, "unknown key")),
        }
        i += part.len() + 1;
    }
    let columns = columns.ok_or_else(|| invalid(0, "no \"columns\""))?;
    let size = columns.len();
    if let Some(n) = n.filter(|&n| n != size) {
        return Err(invalid(
            0,
            &format!("\"n\" is {n} but there are {size} columns"),
        ));
    }
    if size == 0 {
        return Err(ParseError::Empty);
    }
    columns
        .into_iter()
        .map(|(c, k)| {
            if c <= size as u64 {
                Ok((c - 1) as u32)
            } else {
                Err(ParseError::OutOfRange {
                    position: at(k),
                    token: c.to_string(),
                    n: size,
                })
            }
        })
        .collect()
}

/// `s` split at the commas outside brackets.
fn split_top_level(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s.is_empty() {
        parts.push(&s[start..]);
    }
    parts
}

/// The white-space separated tokens of `line` with their 1-based
/// character positions.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, char position)
    for (char_index, (byte, ch)) in line.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((b, position)) = start.take() {
                out.push((position, &line[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, char_index + 1));
        }
    }
    if let Some((b, position)) = start {
        out.push((position, &line[b..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_format_reads_back() {
        use crate::render::{render, Format};
        for cols in [
            vec![0u32],
            vec![1, 3, 0, 2],
            vec![0, 4, 7, 5, 2, 6, 1, 3],
            (0..30).rev().collect(),
        ] {
            for format in [Format::Columns, Format::A1, Format::Json] {
                let text = render(&cols, format);
                assert_eq!(parse_line(&text), Ok(cols.clone()), "{format}: {text}");
            }
        }
        // White space inside JSON, keys in any order, no "n".
        assert_eq!(
            parse_line(r#" { "columns" : [ 2, 4, 1, 3 ], "n": 4 } "#),
            Ok(vec![1, 3, 0, 2])
        );
        assert_eq!(parse_line(r#"{"columns":[1]}"#), Ok(vec![0]));
    }

    #[test]
    fn bad_a1_and_json_name_the_trouble() {
        let err = |s: &str| parse_line(s).unwrap_err().to_string();
        assert_eq!(
            err("a1 b1"),
            "at column 4: rank 1 has a second queen (one queen per rank)"
        );
        assert_eq!(err("a1 b3"), "at column 4: rank 3 is not on the board (ranks 1 to n = 2, the number of squares on the line)");
        assert!(err("a1 b").contains("`b` is not a square"));
        assert!(err("a1 B2").contains("`B2` is not a square"));
        assert!(err("a1 é2").contains("is not a square"));
        assert!(err("zzzzzzzz1").contains("not a square"));
        assert!(err(r#"{"n":3,"columns":[1,2]}"#).contains("\"n\" is 3 but there are 2 columns"));
        assert!(err(r#"{"columns":[1,x]}"#).starts_with("at column 15: a column"));
        assert!(err(r#"{"columns":[1,3]}"#).contains("3 is larger than n = 2"));
        assert!(err(r#"{"rows":[1]}"#).contains("unknown key"));
        assert!(err("{").contains("not a JSON object"));
        assert!(err(r#"{"n":1}"#).contains("no \"columns\""));
        assert_eq!(parse_line(r#"{"columns":[]}"#), Err(ParseError::Empty));
        // A file past the board is read, and the check says so.
        let cols = parse_line("c1 a2").unwrap();
        assert_eq!(cols, vec![2, 0]);
        assert_eq!(check(&cols).off_board.len(), 1);
    }

    /// All pairs sharing a line, by brute force.
    fn naive_pairs(cols: &[u32]) -> Vec<(usize, usize, Line)> {
        let n = cols.len() as i64;
        let mut out = Vec::new();
        for i in 0..cols.len() {
            for k in i + 1..cols.len() {
                let (xi, xk) = (cols[i] as i64, cols[k] as i64);
                if xi >= n || xk >= n {
                    continue;
                }
                let (yi, yk) = (i as i64, k as i64);
                if xi == xk {
                    out.push((i, k, Line::Column));
                }
                if xi - yi == xk - yk {
                    out.push((i, k, Line::Diagonal));
                }
                if xi + yi == xk + yk {
                    out.push((i, k, Line::AntiDiagonal));
                }
            }
        }
        out
    }

    #[test]
    fn lists_exactly_the_naive_pairs() {
        // Every placement of n = 5 with columns in 0..6 (6 is off the board).
        let n = 5usize;
        let mut cols = vec![0u32; n];
        let mut total = 0usize;
        loop {
            let verdict = check(&cols);
            let got: Vec<_> = verdict
                .conflicts
                .iter()
                .map(|c| (c.first, c.second, c.line))
                .collect();
            assert_eq!(got, naive_pairs(&cols), "{cols:?}");
            let expect_off = cols.iter().filter(|&&c| c as usize >= n).count();
            assert_eq!(verdict.off_board.len(), expect_off);
            if verdict.is_solution() {
                total += 1;
                assert!(Checker::new(n).is_solution(&cols));
            } else {
                assert!(!Checker::new(n).is_solution(&cols));
            }
            // odometer
            let mut i = n;
            loop {
                if i == 0 {
                    assert_eq!(total, 10);
                    return;
                }
                i -= 1;
                cols[i] += 1;
                if cols[i] <= n as u32 {
                    break;
                }
                cols[i] = 0;
            }
        }
    }

    #[test]
    fn conflict_values_are_one_based() {
        let v = check(&[0, 1]);
        assert_eq!(v.conflicts.len(), 1);
        assert_eq!(v.conflicts[0].value, 0); // x − y = 1 − 1
        let v = check(&[2, 2, 0]);
        assert_eq!(v.conflicts[0].value, 3);
        assert_eq!(v.conflicts[0].to_string(), "rows 1 and 2: same column (3)");
    }

    #[test]
    fn empty_and_single() {
        assert!(check(&[]).is_solution());
        assert!(check(&[0]).is_solution());
        assert!(!check(&[1]).is_solution());
        assert!(Checker::new(0).is_solution(&[]));
    }

    #[test]
    fn parse_errors_name_positions() {
        assert_eq!(parse_columns_line(""), Err(ParseError::Empty));
        assert_eq!(parse_columns_line("  \t "), Err(ParseError::Empty));
        assert_eq!(
            parse_columns_line("1 -2"),
            Err(ParseError::NotANumber {
                position: 3,
                token: "-2".into()
            })
        );
        // Character positions, not bytes.
        assert_eq!(
            parse_columns_line("é 1"),
            Err(ParseError::NotANumber {
                position: 1,
                token: "é".into()
            })
        );
        assert_eq!(
            parse_columns_line("1 é 99"),
            Err(ParseError::NotANumber {
                position: 3,
                token: "é".into()
            })
        );
        assert_eq!(
            parse_columns_line("1 2 99999999999999999999999"),
            Err(ParseError::OutOfRange {
                position: 5,
                token: "99999999999999999999999".into(),
                n: 3
            })
        );
        assert_eq!(
            parse_columns_line("00 1"),
            Err(ParseError::Zero { position: 1 })
        );
        assert_eq!(parse_columns_line("01\t2"), Ok(vec![0, 1]));
        assert!(ParseError::Empty.to_string().contains("empty"));
    }
}
