//! # Graph coloring
//!
//! **The puzzle.** Give every vertex of a graph one of `k` colors so that the two
//! ends of every edge get different colors. The smallest such `k` is the graph's
//! *chromatic number*. Map coloring is the special case where vertices are regions
//! and edges join regions sharing a border: four colors always suffice for a planar
//! map (Appel & Haken, 1976), and deciding whether three suffice is NP-complete.
//!
//! **Source.** The textbook map of Australia (Russell & Norvig, *Artificial
//! Intelligence: A Modern Approach*, ch. 6), the 48 contiguous United States, and
//! the DIMACS graph-coloring benchmarks (Michael Trick's COLOR02–04 instances,
//! <https://mat.tepper.cmu.edu/COLOR/instances.html>): Mycielski graphs, queen
//! graphs, book graphs and random graphs with published chromatic numbers.
//!
//! **The model.** One variable per vertex with domain `0..k`, and one not-equal
//! constraint per edge: that is the whole rule. The colors are interchangeable,
//! so any coloring can be renamed `k!` ways; a generic value-precedence
//! constraint ([`csp_core::constraint::ValuePrecedeChain`]) keeps one coloring per class by
//! requiring that colors appear in order of first use along a fixed vertex
//! order. That order lists a large clique first ([`model::greedy_clique`]), so
//! the clique's vertices get colors 0, 1, 2, ... outright.
//!
//! The chromatic number is found by trying `k` = lower bound, lower bound + 1, ...
//! ([`model::chromatic_number`]): the lower bound is the clique's size, each `k`
//! the engine refutes raises it, and the first `k` with a coloring is the answer.
//! A time limit stops the climb and reports the bounds proved so far. The same
//! model without symmetry breaking also runs under the engine's min-conflicts
//! local search ([`model::color_min_conflicts`]), which finds colorings fast but
//! can never prove that none exists.
//!
//! **This crate.**
//! * [`Graph`]: an undirected simple graph (0-based vertices, distinct sorted edges).
//! * [`dimacs`]: the DIMACS `.col` reader, tolerant of the quirks of the benchmark
//!   files (repeated edges, self-loops, wrong edge counts) and strict about the rest.
//! * [`maps`]: the built-in maps `australia` and `us`.
//! * [`model`]: the model, [`model::color`] (a `k`-coloring) and
//!   [`model::chromatic_number`] through the generic engine.
//! * value precedence (`csp_core::constraint::ValuePrecedeChain`, in the engine) breaks color symmetry
//!   (generic: it knows nothing about graphs).
//! * [`render`]: colorings as text.
//! * [`check_coloring`]: an independent checker used to re-check every coloring.
//!
//! ```
//! use csp_coloring::{check_coloring, maps};
//!
//! let map = maps::builtin_map("australia").unwrap();
//! let graph = map.graph();
//! // WA NT SA Q NSW V T
//! assert_eq!(check_coloring(&graph, &[0, 1, 2, 0, 1, 0, 0], 3), Ok(()));
//! ```

pub mod check;
pub mod dimacs;
mod graph;
pub mod maps;
pub mod model;
pub mod render;

pub use check::check_coloring;
pub use graph::{Graph, GraphError};
