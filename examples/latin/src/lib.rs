//! # Latin squares
//!
//! **The puzzle.** A Latin square of order `n` is an `n × n` grid filled with `n`
//! symbols so that each symbol appears exactly once in every row and every column.
//! Two questions are asked of them: *how many* Latin squares of order `n` are there
//! (1, 2, 12, 576, 161280 for `n` = 1..5; OEIS A002860), and *can a partially filled
//! square be completed* (the quasigroup completion problem, NP-complete, a classic
//! benchmark for constraint solvers).
//!
//! **Source.** Leonhard Euler studied them in 1782 ("Recherches sur une nouvelle
//! espèce de quarrés magiques"); the counts are OEIS A002860; quasigroup completion
//! as a constraint benchmark is due to Gomes and Selman (1997).
//!
//! **The model.** One variable per cell with domain `1..=n` (a given fixes its
//! variable) and one all-different constraint per row and per column. That is the
//! whole definition; a Sudoku is this model plus one all-different per box.
//! Counting all squares of order 5 (161280) by plain enumeration takes the engine
//! well under a second; fixing the first row and column to `1..n` (the *reduced*
//! squares) and multiplying by `n!·(n−1)!` is a sound shortcut that reaches
//! order 6 (812851200) at once ([`model::Counting`]).
//!
//! **This crate.**
//! * [`Square`]: a partial Latin square, `0` for a blank.
//! * [`parse`]: squares as blocks of lines, cells as tokens (`1 . 3`) or as a run of
//!   characters (`1.3`), errors with line and column.
//! * [`model`]: the model; [`model::complete`] and [`model::count_latin_squares`]
//!   through the generic engine.
//! * [`render`]: squares as text that parses back.
//! * [`check_solution`]: an independent checker.
//!
//! ```
//! use csp_latin::{check_solution, Square};
//!
//! let puzzle: Square = "1 . .\n. . 1\n. . .".parse().unwrap();
//! let solution: Square = "1 2 3\n3 2 1\n2 3 1".parse().unwrap();
//! assert!(check_solution(&puzzle, &solution).is_err()); // column 2 repeats 2
//! ```

pub mod check;
pub mod model;
pub mod parse;
pub mod render;
mod square;

pub use check::check_solution;
pub use parse::{ParseError, ParseErrorKind};
pub use square::{Conflict, Square, SquareError, MAX_ORDER};

/// The text of a value: `.` for a blank, `1`-`9`, then `A` = 10, ..., `Z` = 35, and
/// decimal numbers beyond.
///
/// ```
/// assert_eq!(csp_latin::symbol(0), ".");
/// assert_eq!(csp_latin::symbol(11), "B");
/// assert_eq!(csp_latin::symbol(36), "36");
/// ```
pub fn symbol(value: u8) -> String {
    match value {
        0 => ".".to_string(),
        1..=9 => char::from(b'0' + value).to_string(),
        10..=35 => char::from(b'A' + value - 10).to_string(),
        _ => value.to_string(),
    }
}
