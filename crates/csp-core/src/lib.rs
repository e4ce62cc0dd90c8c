//! # csp-core: one model, many solvers
//!
//! ## A map of the kernel (for a newcomer)
//! | what | where |
//! |---|---|
//! | the search loop (decide, propagate, backtrack) | `search/engine.rs`, [`Engine::step`](search) |
//! | variable choice / value choice | `search/var_order.rs` / `search/val_order.rs` |
//! | search options, limits, bounds and restarts | `search/options.rs`, `search/budget.rs`, `search/bound.rs` |
//! | the domain store and its trail | `domain/store.rs`, levels and undo in `domain/levels.rs` (large domains: `domain/large.rs`) |
//! | the propagation queue, events, priorities | `propagation/kernel.rs` |
//! | the propagator trait (stateful, with events) | [`propagation::Propagator`] |
//! | reasons, the `Pruner` | `propagation/pruner.rs`, literals in `literal.rs` |
//! | word-level domain access, for fast propagators | [`propagation::low_level`] |
//! | the explanation trail / `why` | `domain/explained.rs` / [`explain`] |
//! | the constraint trait (checker path) | [`Constraint`] in `constraint/mod.rs` |
//! | built-in constraints | `constraint/*.rs` (fused all-different: `constraint/fused/`) |
//! | local search | [`local`] |
//!
//! A [`Constraint`] is the declaration and its checker; with two methods it
//! is correct at every inference level. A [`propagation::Propagator`] is its
//! search-time side with reversible state and events; the kernel checks
//! every solution it hands out against every constraint's checker.
//!
//! The engine of the `csp` toolkit: declare variables with finite integer
//! domains and constraints over them in a [`Model`], then hand the model to a
//! backtracking [`Search`] (with forward checking or arc consistency) or to
//! local search, without changing it.
//!
//! ## A first model
//! ```
//! use csp_core::{Domain, Model, Search};
//!
//! let mut m = Model::new();
//! let x = m.new_var_named("x", Domain::range(1, 3))?;
//! let y = m.new_var_named("y", Domain::range(1, 3))?;
//! m.post(x.lt(y))?; // expressions: x.lt(y), (2 * x + y).le(7), ...
//! let s = Search::new(&m).solve()?.solution.unwrap();
//! assert!(s[x] < s["y"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Constraints
//! Constraints are written as [expressions](expr) and posted with
//! [`Model::post`]: `x.lt(y)`, `(2 * x + y).le(z)`, `sum(&xs).eq(10)`,
//! `(x * y).eq(z)`, and reified, `b.iff(x.le(3))`. The globals are
//! [`Model`] methods: [`Model::all_different`] and
//! [`Model::all_different_offset`], [`Model::table`], [`Model::element`],
//! [`Model::count`] (with [`Model::at_most`], [`Model::exactly`]), and
//! [`Model::predicate`], the closure escape hatch; the explicit
//! constructors ([`Model::linear`], [`Model::not_equal`], ...) remain for
//! code that builds terms itself. Your own constraints implement
//! [`Constraint`]: see the checklist in [`constraint`].
//!
//! ```
//! use csp_core::expr::sum;
//! use csp_core::{Domain, Model, Search};
//! // SEND + MORE = MONEY as one linear equation and an all-different.
//! let mut m = Model::new();
//! let l = m.new_vars_named("letter", [8], Domain::range(0, 9))?; // S E N D M O R Y
//! let [s, e, n, d, mo, o, r, y] = std::array::from_fn(|i| l[i]);
//! m.all_different(&l)?;
//! let send = sum([1000 * s, 100 * e, 10 * n, 1 * d]);
//! let more = sum([1000 * mo, 100 * o, 10 * r, 1 * e]);
//! let money = sum([10000 * mo, 1000 * o, 100 * n, 10 * e, 1 * y]);
//! m.post((send + more).eq(money))?;
//! m.post(s.ge(1))?;
//! m.post(mo.ge(1))?;
//! let sol = Search::new(&m).solve()?.solution.unwrap();
//! assert_eq!(sol.values_of(&[s, e, n, d]), vec![9, 5, 6, 7]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Names and arrays
//! [`Model::new_vars_named`] declares a named array of any shape
//! ([`VarArray`]); [`Model::var_by_name`] and [`Solution::get`] find a
//! variable by its name, and a [`Model`] prints as a listing of its
//! variables and constraints.
//! ```
//! use csp_core::{Domain, Model, Search};
//! let mut m = Model::new();
//! let grid = m.new_vars_named("grid", [2, 2], Domain::range(1, 2))?;
//! for r in 0..2 {
//!     m.all_different(grid.row(r).unwrap())?;
//! }
//! m.post(grid[[0, 0]].ne(grid[[1, 0]]))?;
//! let s = Search::new(&m).solve()?.solution.unwrap();
//! assert_eq!((s["grid[0][0]"], s["grid[1][0]"]), (1, 2));
//! println!("{m}"); // model: 4 variables, 3 constraints / grid[2][2] in 1..=2 / c0: ...
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The search builder
//! A [`Search`] is configured one option per call and run by a checked
//! call that returns a `Result` (see [`search`] for the list): a variable
//! of another model, an objective of another model or a constraint over
//! no variables that cannot hold is a [`SearchError`] naming it.
//! ```
//! use std::time::Duration;
//! use csp_core::expr::sum;
//! use csp_core::{Domain, Model, Search, ValOrder, VarOrder};
//! let mut m = Model::new();
//! let xs = m.new_vars_named("x", [4], Domain::range(1, 4))?;
//! m.all_different(&xs)?;
//! let total = m.define(sum([xs[0], xs[1]]))?;
//! let mut search = Search::new(&m)
//!     .branch_on(&xs)
//!     .var_order(VarOrder::DomWdeg)
//!     .val_order(ValOrder::Descending)
//!     .time_limit(Duration::from_secs(10));
//! let best = search.minimize(total)?;
//! assert_eq!((best.objective, best.bound, best.proven), (Some(3), Some(3), true));
//! assert_eq!(search.count()?.count, 24); // a Search runs more than once
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Search options
//! [`Inference`] (none, forward checking, maintained arc consistency),
//! [`VarOrder`] (input, smallest domain, dom/deg, dom/wdeg) and [`ValOrder`]
//! (ascending, descending, middle, seeded random) are set on the [`Search`].
//! Forward checking runs two to four all-different constraints over the
//! same variable list (N-queens' `x`, `x + i`, `x − i`) as one fused
//! propagator. When that list is variables declared together, in order (one
//! [`Model::new_vars`] call), and the machine has AVX-512 (detected at run
//! time; the build targets the x86-64 baseline), the group's domains are
//! updated eight at a time by vector instructions.
//!
//! ## Counting and enumerating
//! ```
//! use csp_core::{Domain, Model, Search};
//! let mut m = Model::new();
//! let xs = m.new_vars(5, Domain::range(1, 5)).unwrap();
//! m.all_different(&xs).unwrap();
//! assert_eq!(Search::new(&m).count().unwrap().count, 120);
//! assert_eq!(Search::new(&m).count_up_to(10).unwrap().count, 10);
//! assert_eq!(Search::new(&m).solutions().unwrap().take(3).count(), 3);
//! assert_eq!(Search::new(&m).par_count(2).unwrap().count, 120);
//! ```
//!
//! ## Limits and statistics
//! ```
//! use csp_core::{Domain, Limits, Limit, Model, Outcome, Search};
//! let mut m = Model::new();
//! let xs = m.new_vars(8, Domain::range(1, 8)).unwrap();
//! m.all_different(&xs).unwrap();
//! let r = Search::new(&m).limits(Limits::none().with_nodes(100)).count().unwrap();
//! assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
//! assert!(r.stats.nodes <= 100);
//! println!("{}", r.stats); // solutions: .., nodes: .., failures: .., ...
//! ```
//!
//! ## Local search
//! The same model runs under [`MinConflicts`] (min-conflicts repair of a
//! complete assignment, with change or swap moves, tabu, restarts and a
//! seed) or a [`Genetic`] search: see [`local`]. A permutation model whose
//! constraints are all-different over offsets (N-queens as `x`, `x + i`,
//! `x − i`) takes a fused path that solves 10^7 variables in seconds.
//! ```
//! use csp_core::{Domain, MinConflicts, Model, Move, Outcome};
//! let n = 1000;
//! let mut m = Model::new();
//! let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
//! let rows: Vec<i32> = (0..n as i32).collect();
//! let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
//! m.all_different(&q).unwrap();
//! m.all_different_offset(&q, &rows).unwrap();
//! m.all_different_offset(&q, &neg).unwrap();
//! let r = MinConflicts::new(&m).moves(Move::Swap).seed(1).max_steps(100_000).run().unwrap();
//! assert_eq!(r.outcome, Outcome::Solved); // checked by Model::check
//! println!("{r}"); // solved: 0 violations (0 constraints), .. steps, ..
//! ```
#![warn(missing_docs)]

pub mod constraint;
pub mod domain;
mod error;
pub mod explain;
pub mod expr;
pub mod hints;
mod ids;
mod limits;
mod literal;
pub mod local;
pub mod minizinc;
mod model;
mod names;
mod observer;
pub mod propagation;
pub mod search;
mod solution;
mod stats;
#[cfg(feature = "testing")]
pub mod testing;

pub use constraint::{Constraint, Pruner, Relation};
pub use domain::{Conflict, Domain};
pub use error::{ModelError, SearchError};
pub use explain::{ExplainError, Explainer, Explanation};
pub use expr::{Expr, Post, Reif, Rel};
pub use ids::{ConstraintId, ModelId, Value, VarId};
pub use limits::{CancelToken, Limit, Limits, Outcome};
pub use literal::Literal;
pub use local::{Genetic, GeneticResult, Init, LocalError, LocalResult, MinConflicts, Move};
pub use model::{CheckError, Model};
pub use names::VarArray;
pub use observer::SearchObserver;
pub use search::{
    ConflictTrace, Decision, Improvement, Inference, LearningOrder, Lns, Optimum, Report, Restarts,
    RootWeights, Search, SearchOptions, Solutions, SolveResult, Subproblem, SubproblemError,
    Uniqueness, ValOrder, VarOrder,
};
pub use solution::Solution;
pub use stats::Statistics;
