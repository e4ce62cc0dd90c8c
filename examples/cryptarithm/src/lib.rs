//! # Cryptarithms (verbal arithmetic)
//!
//! **The puzzle.** In an addition such as `SEND + MORE = MONEY`, each letter
//! stands for a different decimal digit, and a number does not start with a zero.
//! Find the digits. `SEND + MORE = MONEY` has exactly one solution,
//! `9567 + 1085 = 10652`.
//!
//! **Source.** Henry E. Dudeney, *Strand Magazine*, July 1924; the puzzle has
//! been the standard first example of constraint programming ever since.
//!
//! **The model.** One variable per letter with domain `0..=9`; one all-different
//! constraint over all letters; leading letters of multi-letter words restricted to
//! `1..=9` (unless [`model::Options::leading_zeros`] allows zeros). The arithmetic
//! itself can be said two ways ([`model::Formulation`]):
//! * *one linear equation*: the place values weigh each letter, e.g.
//!   `1000·S + 100·E + 10·N + D + 1000·M + 100·O + 10·R + E = 10000·M + 1000·O + 100·N + 10·E + Y`;
//! * *column by column with carries*, as on paper: for each column `i` (from the
//!   right), `carry_i + Σ addend digits = result digit + 10·carry_{i+1}`, with
//!   carry variables; this never needs large coefficients, so words of any
//!   length work (the default).
//!
//! **This crate.**
//! * [`Puzzle`] and its parser ([`puzzle`]): errors name the column.
//! * [`model`]: both formulations, and [`model::solve`] / [`model::solve_all`]
//!   through the generic engine.
//! * [`render`]: a solution as the equation with digits (`9567+1085=10652`).
//! * [`check_solution`]: an independent checker doing schoolbook addition on digit
//!   strings of any length.
//!
//! ```
//! use csp_cryptarithm::{check_solution, render, Puzzle};
//!
//! let puzzle: Puzzle = "SEND + MORE = MONEY".parse().unwrap();
//! let digits = [9, 5, 6, 7, 1, 0, 8, 2]; // S E N D M O R Y
//! assert_eq!(check_solution(&puzzle, &digits, false), Ok(()));
//! assert_eq!(render::equation(&puzzle, &digits), "9567+1085=10652");
//! ```

pub mod check;
pub mod model;
pub mod puzzle;
pub mod render;

pub use check::check_solution;
pub use puzzle::{ParseError, ParseErrorKind, Puzzle, MAX_LETTERS};
