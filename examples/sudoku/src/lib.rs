//! # Sudoku
//!
//! **The puzzle.** Fill an `n × n` grid (`n = k·k`, classically `k = 3`, so 9×9)
//! with the values `1..=n` so that every row, every column and every `k × k` box
//! holds each value exactly once. Some cells are given; a proper puzzle has exactly
//! one solution.
//!
//! **Source.** The puzzle was published by Howard Garns as "Number Place" (Dell
//! Pencil Puzzles and Word Games, 1979) and named Sudoku by Nikoli (1984). The test
//! data are the classic benchmark sets: magictour's *top95* (made well known by
//! Peter Norvig's essay "Solving Every Sudoku Puzzle", <https://norvig.com/sudoku.html>),
//! Norvig's 11 "hardest", and two 16×16 puzzles from janko.at.
//!
//! **The model.** One variable per cell with domain `1..=n` (a given is a variable
//! fixed to its value), and one all-different constraint per unit: `n` rows, `n`
//! columns, `n` boxes. That is the whole rule of Sudoku, and the model says
//! nothing more; how fast it solves depends on the inference the engine runs on
//! all-different. With maintained arc consistency the all-different propagator
//! finds the naked singles (a cell with one value left) and hidden singles (a
//! value with one cell left in a unit) that human solvers use, and with smallest
//! domain first the search needs few guesses: the 95 top95 puzzles take about 65
//! search nodes each on average.
//!
//! **This crate.**
//! * [`Grid`]: a grid of any supported size (`k = 1..=5`), `0` for a blank.
//! * [`parse`]: one puzzle per line (81, 256 or 625 characters), with errors that
//!   name the line and column, and an iterator that keeps going past bad lines.
//! * [`render`]: the one-line form and a boxed picture.
//! * [`model`]: the model, and [`model::solve`], [`model::count_up_to`] and
//!   [`model::is_unique`] through the generic engine (`csp-core`) with the
//!   recommended [`model::options`] (arc consistency, smallest domain first).
//! * [`check_solution`]: an independent checker used by the tests to re-check
//!   every solution the engine prints.
//!
//! ```
//! use csp_sudoku::{parse, render};
//!
//! let input = "# one puzzle\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
//! let grids = parse::parse_puzzles(input).unwrap();
//! assert_eq!(grids[0].givens(), 17);
//! assert_eq!(render::line(&grids[0]), input.lines().nth(1).unwrap());
//! ```

pub mod check;
mod grid;
pub mod model;
pub mod parse;
pub mod pencil;
pub mod render;
pub mod techniques;

pub use check::check_solution;
pub use grid::{Conflict, Grid, GridError, Unit, MAX_BOX_SIDE, MIN_BOX_SIDE};
pub use parse::{ParseError, ParseErrorKind};

/// The symbol for a value: `1`-`9`, then `A` = 10, `B` = 11, ..., `Z` = 35.
///
/// Returns `None` for `0` (a blank has no symbol) and for values above 35.
///
/// ```
/// assert_eq!(csp_sudoku::symbol(7), Some('7'));
/// assert_eq!(csp_sudoku::symbol(16), Some('G'));
/// assert_eq!(csp_sudoku::symbol(0), None);
/// ```
pub fn symbol(value: u8) -> Option<char> {
    match value {
        1..=9 => Some(char::from(b'0' + value)),
        10..=35 => Some(char::from(b'A' + value - 10)),
        _ => None,
    }
}

/// The value of a symbol: `1`-`9`, then `A`/`a` = 10, ..., `Z`/`z` = 35.
///
/// Returns `None` for anything else, including the blanks `.` and `0`.
///
/// ```
/// assert_eq!(csp_sudoku::value_of_symbol('g'), Some(16));
/// assert_eq!(csp_sudoku::value_of_symbol('.'), None);
/// ```
pub fn value_of_symbol(c: char) -> Option<u32> {
    match c {
        '1'..='9' => Some(c as u32 - '0' as u32),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 10),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 10),
        _ => None,
    }
}
