//! N-queens: place `n` queens on an `n × n` board so that no two attack each
//! other.
//!
//! As a constraint-satisfaction problem the puzzle has one variable per row
//! `y`, whose value `x` is the column of that row's queen. Rows are distinct
//! by construction, and three *all-different* constraints finish the model:
//! on the columns `x`, on the anti-diagonals `x + y` and on the diagonals
//! `x − y`. This crate solves that model with dedicated algorithms, the
//! classic alternatives to a generic constraint engine:
//!
//! * [`bitboard`]: the bitwise backtracking counter, with the eight
//!   symmetries of the square, threads, and lexicographic enumeration;
//! * [`constellation`]: the fastest counter, from the border queens grouped
//!   by symmetry class, and its split into subproblems;
//! * [`construction`]: one solution for any `n ≥ 4` in O(n), without search;
//! * [`journal`]: reading and adding up the `N D index count` lines of a
//!   split's counts;
//! * [`permutation`]: backtracking over permutations with search limits and
//!   a tracing hook;
//! * [`brute_force`]: testing all `n^n` arrangements, for teaching;
//! * [`verify`]: an independent checker listing every attacking pair, and
//!   the parser of the `columns` text format;
//! * [`render`]: board (a chess diagram, `a1` at the bottom left), chess
//!   (`a1`), `columns`, JSON and SVG output;
//! * [`symmetry`]: rotations and reflections, canonical forms, orbit sizes;
//! * [`teaching`]: the classic techniques written to be read, one short
//!   function each (three sets of ids, an explicit stack, the minimal
//!   bitboard, brute force over `nⁿ` and `n!`, forward checking,
//!   min-conflicts, a genetic algorithm);
//! * [`trace`]: the search tree in the textbook notation, with the domains
//!   of the open rows.
//!
//! A placement is a slice of 0-based columns, one per row: row `i` has its
//! queen in column `cols[i]`. Text formats meant for people use 1-based
//! columns.
//!
//! ```
//! use csp_queens::{bitboard, construction, render, verify};
//!
//! assert_eq!(bitboard::count(8, 0).unwrap(), 92);
//! let cols = construction::construct(8).unwrap();
//! assert!(verify::check(&cols).is_solution());
//! print!("{}", render::render(&cols, render::Format::Board));
//! ```

pub mod bitboard;
pub mod brute_force;
pub mod constellation;
pub mod construction;
pub mod journal;
pub mod model;
pub mod permutation;
pub mod placed;
pub mod render;
pub mod symmetry;
pub mod teaching;
pub mod trace;
pub mod tree;
pub mod verify;
