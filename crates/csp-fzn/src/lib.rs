//! csp as a MiniZinc solver.
//!
//! [`parse`] reads FlatZinc text (`line:column` errors), [`build`] turns the
//! items into a csp [`Model`](csp_core::Model), [`solve`](run::solve)
//! searches it as the flags say and prints the solutions in the format the
//! FlatZinc specification fixes. The `fzn-csp` executable ([`cli`], built
//! by the `csp` package) wraps these for MiniZinc (`share/minizinc/solvers/csp.msc`); `share/minizinc/csp/` is the
//! MiniZinc library that makes MiniZinc hand our native globals over.

pub mod ast;
mod build;
mod builtins;
pub mod cli;
pub mod memory;
mod out;
mod parse;
pub mod run;
pub mod search;
mod spinner;
pub mod why;

pub use build::{
    build, build_with, build_within, BuildError, BuildOptions, FznModel, Objective, Origin, Output,
    Val, INT_MAX, INT_MIN, MAX_VARIABLES,
};
pub use csp_text::TextError;
pub use parse::parse;
