//! Reading the counts of a split: lines `N D index count`, one per counted
//! subproblem of a [`Split`](crate::constellation::Split), as `csp queens
//! --split D --slice A..B` prints them and `csp-mpi` journals them.
//!
//! [`parse_fields`] reads one line of whitespace-separated whole numbers
//! with positions for its errors (`file:line:column: message`),
//! [`parse_line`] a line of the queens format, and [`Tally`] adds up the
//! counts of a list of `len` subproblems: it keeps one count per index
//! (an identical duplicate is fine: a task that ran twice), and names the
//! indices out of range, the conflicting duplicates (both places) and the
//! missing indices.
//!
//! ```
//! use csp_queens::journal::{self, Tally};
//!
//! let text = "# a comment\n8 0 0 40\n8 0 2 52\n8 0 0 40\n";
//! let entries = journal::parse_text("f", text).unwrap();
//! let tally = Tally::new(entries.iter().map(|e| (e.index, e.count, e.place.clone())), 3);
//! assert_eq!(tally.total(), Ok(92));
//! assert_eq!(tally.missing, vec![1]);
//! assert!(tally.problems.is_empty());
//! let err = journal::parse_text("f", "8 0 x 4\n").unwrap_err();
//! assert_eq!(err.to_string(), "f:1:5: index must be a non-negative integer, got 'x'");
//! ```

use std::collections::BTreeMap;
use std::fmt;

/// The number of solutions of the `n`-queens problem for `n = 0..=27`
/// (OEIS A000170), to check totals against, and for a count's progress
/// bar to measure the work done by the solutions counted.
pub const A000170: [u128; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

/// A malformed line: where (1-based line and column) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// The file, as given.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column (in bytes), from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for LineError {}

/// The whole numbers of one line named by `names`, each with its 0-based
/// column; `None` for a blank or comment line (`#` starts a comment).
///
/// # Errors
///
/// A [`LineError`] at the first field that is missing, extra or not a
/// non-negative integer.
pub fn parse_fields<const K: usize>(
    file: &str,
    lineno: usize,
    line: &str,
    names: [&str; K],
) -> Result<Option<[(usize, u128); K]>, LineError> {
    let content = line.split('#').next().unwrap_or("");
    if content.trim().is_empty() {
        return Ok(None);
    }
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in content.char_indices().chain([(content.len(), ' ')]) {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                fields.push((s, &content[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let at = |col: usize, message: String| LineError {
        file: file.to_string(),
        line: lineno,
        column: col + 1,
        message,
    };
    if fields.len() != K {
        let col = fields.get(K).map_or(content.len(), |f| f.0);
        return Err(at(
            col,
            format!(
                "expected {K} fields '{}', found {}",
                names.join(" "),
                fields.len()
            ),
        ));
    }
    let mut values = [(0, 0u128); K];
    for (k, &(col, text)) in fields.iter().enumerate() {
        let v = text.parse::<u128>().map_err(|_| {
            at(
                col,
                format!("{} must be a non-negative integer, got '{text}'", names[k]),
            )
        })?;
        values[k] = (col, v);
    }
    Ok(Some(values))
}

/// One `N D index count` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The board size.
    pub n: usize,
    /// The split depth.
    pub depth: usize,
    /// The subproblem.
    pub index: usize,
    /// Its (weighted) count.
    pub count: u128,
    /// `file:line`, to name it in messages.
    pub place: String,
}

/// A field of [`parse_fields`] (its column and value) that must fit a
/// `usize`.
///
/// # Errors
///
/// `{name} is too large` at the field.
pub fn small(
    file: &str,
    lineno: usize,
    (col, v): (usize, u128),
    name: &str,
) -> Result<usize, LineError> {
    usize::try_from(v).map_err(|_| LineError {
        file: file.to_string(),
        line: lineno,
        column: col + 1,
        message: format!("{name} is too large"),
    })
}

/// Parses one line of the queens format; `None` for a blank or comment line.
///
/// # Errors
///
/// A [`LineError`] naming the bad field.
pub fn parse_line(file: &str, lineno: usize, line: &str) -> Result<Option<Entry>, LineError> {
    let names = ["N", "depth D", "index", "count"];
    let Some([n, depth, index, count]) = parse_fields(file, lineno, line, names)? else {
        return Ok(None);
    };
    Ok(Some(Entry {
        n: small(file, lineno, n, names[0])?,
        depth: small(file, lineno, depth, names[1])?,
        index: small(file, lineno, index, names[2])?,
        count: count.1,
        place: format!("{file}:{lineno}"),
    }))
}

/// Every entry of a text of queens lines, in order.
///
/// # Errors
///
/// The first malformed line.
pub fn parse_text(file: &str, text: &str) -> Result<Vec<Entry>, LineError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(e) = parse_line(file, i + 1, line)? {
            entries.push(e);
        }
    }
    Ok(entries)
}

/// Checks that every entry is for the split `(n, depth)` of the first one
/// (or of `expected`, when given).
///
/// # Errors
///
/// A message naming the first entry for another split.
pub fn same_split(entries: &[Entry], expected: Option<(usize, usize)>) -> Result<(), String> {
    let Some(first) = entries.first() else {
        return Ok(());
    };
    let (n, depth, whose) = match expected {
        Some((n, d)) => (n, d, "the job".to_string()),
        None => (first.n, first.depth, first.place.clone()),
    };
    match entries.iter().find(|e| (e.n, e.depth) != (n, depth)) {
        Some(other) => Err(format!(
            "{}: line for n = {}, depth {}, but {whose} is for n = {n}, depth {depth}",
            other.place, other.n, other.depth
        )),
        None => Ok(()),
    }
}

/// Something wrong with the counts of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// An index at or past the length of the list.
    OutOfRange {
        /// The index.
        index: usize,
        /// The length of the list.
        len: usize,
        /// Where.
        place: String,
    },
    /// The counts add up to more than `u128::MAX` (2^128 − 1).
    Overflow {
        /// Where the count is that took the sum past it.
        place: String,
    },
    /// Two different counts of one subproblem.
    Conflict {
        /// The subproblem.
        index: usize,
        /// The count here.
        count: u128,
        /// Where.
        place: String,
        /// The count seen first.
        first: u128,
        /// Where that was.
        first_place: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::OutOfRange { index, len, place } => write!(
                f,
                "{place}: index {index} is out of range: the list has {len} subproblems"
            ),
            Problem::Overflow { place } => write!(
                f,
                "{place}: the counts add up to more than 2^128 - 1 here (the total overflows)"
            ),
            Problem::Conflict {
                index,
                count,
                place,
                first,
                first_place,
            } => write!(
                f,
                "{place}: subproblem {index} counted {count} here but {first} at {first_place}"
            ),
        }
    }
}

/// The counts of a list of subproblems, gathered from lines.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// One count per index seen, with the place it was first seen.
    pub counts: BTreeMap<usize, (u128, String)>,
    /// Indices out of range and conflicting duplicates, in reading order.
    pub problems: Vec<Problem>,
    /// The indices of `0..len` without a count, in order.
    pub missing: Vec<usize>,
}

impl Tally {
    /// Gathers `(index, count, place)` for a list of `len` subproblems.
    pub fn new(entries: impl IntoIterator<Item = (usize, u128, String)>, len: usize) -> Tally {
        let mut t = Tally::default();
        for (index, count, place) in entries {
            if index >= len {
                t.problems.push(Problem::OutOfRange { index, len, place });
                continue;
            }
            match t.counts.get(&index) {
                Some((first, first_place)) if *first != count => {
                    t.problems.push(Problem::Conflict {
                        index,
                        count,
                        place,
                        first: *first,
                        first_place: first_place.clone(),
                    })
                }
                Some(_) => {}
                None => {
                    t.counts.insert(index, (count, place));
                }
            }
        }
        t.missing = (0..len).filter(|i| !t.counts.contains_key(i)).collect();
        t
    }

    /// The sum of the counts, in index order.
    ///
    /// # Errors
    ///
    /// [`Problem::Overflow`] at the first count that takes the sum past
    /// `u128::MAX`: a total that wrapped around would look like an answer.
    pub fn total(&self) -> Result<u128, Problem> {
        self.counts.values().try_fold(0u128, |sum, (count, place)| {
            sum.checked_add(*count).ok_or_else(|| Problem::Overflow {
                place: place.clone(),
            })
        })
    }
}

/// Describes a sorted list of indices as ranges: `3, 5..=9` (at most 20
/// ranges, then `…`).
pub fn ranges(indices: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        if i == j {
            parts.push(indices[i].to_string());
        } else {
            parts.push(format!("{}..={}", indices[i], indices[j]));
        }
        if parts.len() == 20 && j + 1 < indices.len() {
            parts.push("…".into());
            break;
        }
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_with_positions() {
        let e = parse_line("f", 3, "12 1 7 100").unwrap().unwrap();
        assert_eq!((e.n, e.depth, e.index, e.count), (12, 1, 7, 100));
        assert_eq!(e.place, "f:3");
        assert!(parse_line("f", 1, "  # comment").unwrap().is_none());
        let err = parse_line("f", 4, "12 1 x 100").unwrap_err().to_string();
        assert!(err.starts_with("f:4:6: index"), "{err}");
        let err = parse_line("f", 5, "12 1 7").unwrap_err().to_string();
        assert!(err.starts_with("f:5:7: expected 4 fields"), "{err}");
        let err = parse_line("f", 6, "12 1 7 1 2").unwrap_err().to_string();
        assert!(err.starts_with("f:6:10: expected 4 fields"), "{err}");
        let err = parse_line("f", 7, "99999999999999999999999 1 7 1")
            .unwrap_err()
            .to_string();
        assert_eq!(err, "f:7:1: N is too large");
        let two = parse_fields("g", 2, " 5\t9 ", ["index", "count"]).unwrap();
        assert_eq!(two, Some([(1, 5), (3, 9)]));
    }

    #[test]
    fn tally_names_problems_and_gaps() {
        let entries = [
            (0, 5, "a:1".to_string()),
            (2, 7, "a:2".to_string()),
            (2, 7, "b:1".to_string()),
            (2, 8, "b:2".to_string()),
            (9, 1, "b:3".to_string()),
        ];
        let t = Tally::new(entries, 4);
        assert_eq!(t.total(), Ok(12));
        assert_eq!(t.missing, vec![1, 3]);
        let p: Vec<String> = t.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            p,
            [
                "b:2: subproblem 2 counted 8 here but 7 at a:2",
                "b:3: index 9 is out of range: the list has 4 subproblems"
            ]
        );
    }

    /// Two counts of 2^128 − 1 added with wrap-around to 2^128 − 2, and
    /// with other counts to any small number (issue 32).
    #[test]
    fn a_total_past_u128_is_an_error() {
        let max = (0, u128::MAX, "a:1".to_string());
        let one = (1, 1, "a:2".to_string());
        let t = Tally::new([max.clone(), one.clone()], 2);
        assert_eq!(
            t.total().unwrap_err().to_string(),
            "a:2: the counts add up to more than 2^128 - 1 here (the total overflows)"
        );
        assert_eq!(Tally::new([max], 2).total(), Ok(u128::MAX));
        assert_eq!(Tally::new([one], 2).total(), Ok(1));
    }

    #[test]
    fn entries_of_another_split_are_named() {
        let e = parse_text("f", "10 1 0 4\n10 1 1 4\n11 1 2 4\n").unwrap();
        assert_eq!(
            same_split(&e, None).unwrap_err(),
            "f:3: line for n = 11, depth 1, but f:1 is for n = 10, depth 1"
        );
        let err = same_split(&e[..1], Some((10, 2))).unwrap_err();
        assert!(err.contains("the job is for n = 10, depth 2"), "{err}");
    }

    #[test]
    fn index_ranges_are_compact() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1..=3, 7, 9..=10");
    }
}
