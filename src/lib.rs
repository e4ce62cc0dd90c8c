//! # csp: a constraint-satisfaction toolkit
//!
//! One model, many solvers, worked puzzle examples. This facade re-exports
//! the workspace's crates:
//!
//! * [`core`] (`csp-core`): the engine: [`Model`], domains, constraints,
//!   backtracking [`Search`] and local search;
//! * [`queens`] (`csp-queens`): N-queens as a CSP beside the classic solvers;
//! * [`sudoku`], [`coloring`], [`cryptarithm`], [`zebra`], [`latin`]: worked
//!   examples of modelling with the engine.
//!
//! ```
//! use csp::{Domain, Model, Search};
//! let mut m = Model::new();
//! let x = m.new_var(Domain::range(1, 3)).unwrap();
//! let y = m.new_var(Domain::range(1, 3)).unwrap();
//! m.not_equal(x, y, 0).unwrap();
//! assert_eq!(Search::new(&m).count().unwrap().count, 6);
//! ```

pub use csp_binpack as binpack;
pub use csp_coloring as coloring;
pub use csp_core as core;
pub use csp_core::*;
pub use csp_cryptarithm as cryptarithm;
pub use csp_futoshiki as futoshiki;
pub use csp_golomb as golomb;
pub use csp_jobshop as jobshop;
pub use csp_knapsack as knapsack;
pub use csp_latin as latin;
pub use csp_magic as magic;
pub use csp_nonogram as nonogram;
pub use csp_queens as queens;
pub use csp_rcpsp as rcpsp;
pub use csp_sudoku as sudoku;
pub use csp_text as text;
pub use csp_text::TextError;
pub use csp_zebra as zebra;

/// The book's chapters, compiled as doctests so their code stays true.
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/getting-started.md")]
    struct GettingStarted;
    #[doc = include_str!("../docs/search.md")]
    struct SearchChapter;
    #[doc = include_str!("../docs/writing-a-constraint.md")]
    struct WritingAConstraint;
    #[doc = include_str!("../docs/globals.md")]
    struct Globals;
    #[doc = include_str!("../docs/explanations.md")]
    struct Explanations;
    #[doc = include_str!("../docs/hints.md")]
    struct Hints;
    #[doc = include_str!("../docs/learning.md")]
    struct Learning;
    #[doc = include_str!("../docs/minizinc.md")]
    struct MiniZinc;
}
