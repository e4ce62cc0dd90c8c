//! # The zebra puzzle
//!
//! **The puzzle.** Five houses stand in a row, each painted a different color, each
//! home to a man of a different nationality who drinks a different drink, smokes a
//! different brand and keeps a different pet. Fifteen clues ([`clues::CLUES`]) pin
//! everything down. Who drinks water? Who owns the zebra?
//!
//! **Source.** *Life International*, 17 December 1962 (often attributed to Lewis
//! Carroll or Einstein, without evidence). The answer: the Norwegian drinks water
//! and the Japanese owns the zebra.
//!
//! **The model.** One variable per item (each color, nationality, drink, brand and
//! pet) whose value is its house, `1..=5`. Clue 1 becomes one all-different
//! constraint per attribute (five items of a kind in five different houses), and
//! each other clue is one constraint between house numbers: "the Englishman lives
//! in the red house" is `house[Englishman] = house[red]`; "the green house is
//! immediately to the right of the ivory house" is `house[green] = house[ivory] + 1`;
//! "next to" is `|house[a] − house[b]| = 1`; "milk is drunk in the middle house" is
//! `house[milk] = 3`. The model is one line per clue.
//!
//! **This crate.**
//! * [`clues`]: the attributes, their values, and the clues as data ([`clues::Relation`]).
//! * [`model`]: the model, one line per clue, and [`model::solve_unique`], which
//!   solves it with the generic engine and proves the solution unique.
//! * [`Solution`]: a full assignment, house by item.
//! * [`render`]: the solution as a table, and the answers.
//! * [`check_solution`]: an independent checker restating every clue.
//!
//! ```
//! use csp_zebra::{check_solution, render, Solution};
//!
//! let known = Solution::from_houses([
//!     ["yellow", "Norwegian", "water", "Kools", "fox"],
//!     ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
//!     ["red", "Englishman", "milk", "Old Gold", "snails"],
//!     ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
//!     ["green", "Japanese", "coffee", "Parliaments", "zebra"],
//! ])
//! .unwrap();
//! assert_eq!(check_solution(&known), Ok(()));
//! assert_eq!(
//!     render::answers(&known).unwrap(),
//!     "The Norwegian drinks water.\nThe Japanese owns the zebra.\n"
//! );
//! ```

pub mod check;
pub mod clues;
pub mod model;
pub mod render;
mod solution;

pub use check::check_solution;
pub use solution::{Solution, SolutionError};
