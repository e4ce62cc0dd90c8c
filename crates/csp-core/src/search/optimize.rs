//! Optimisation: branch and bound in one search.
//!
//! [`Search::minimize`] runs the ordinary depth-first search with one
//! addition: after each solution, every later decision also enforces
//! `objective ≤ best − 1` (a domain change at that decision's level, so
//! propagation prunes with it and backtracking undoes it). Each solution
//! found is therefore better than the last; when the tree is exhausted the
//! last one is optimal. A limit stops the search with the best found so far,
//! reported as such and never as optimal.
//!
//! The objective is a variable. For an expression, define a variable equal
//! to it with [`Model::define`](crate::Model::define).

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use super::engine::{Prepared, Step};
use super::{complete_outcome, Search, Solutions};
use crate::ids::{Value, VarId};
use crate::limits::{Limit, Outcome};
use crate::solution::Solution;
use crate::stats::Statistics;

/// One improving solution of an optimisation (see [`Optimum::improvements`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// Its objective value.
    pub objective: Value,
    /// Nodes explored when it was found.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
}

/// The result of [`Search::minimize`] / [`Search::maximize`].
#[derive(Clone, Debug)]
pub struct Optimum {
    /// `Solved`: the best solution is **optimal** (the search proved no
    /// better one exists). `LimitReached`: a limit stopped the search; the
    /// best solution, if any, is only the best *found*. `Unsatisfiable`:
    /// no solution at all. `Invalid`: a propagator broke its contract.
    pub outcome: Outcome,
    /// The best solution found.
    pub best: Option<Solution>,
    /// Its objective value.
    pub objective: Option<Value>,
    /// Every improving solution's value, in the order found.
    pub improvements: Vec<Improvement>,
    /// Search counters, over the whole search.
    pub stats: Statistics,
}

impl Optimum {
    /// True when the best solution is proven optimal.
    pub fn is_optimal(&self) -> bool {
        self.outcome == Outcome::Solved
    }
}

impl fmt::Display for Optimum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.outcome, self.objective) {
            (Outcome::Solved, Some(v)) => write!(f, "optimal: {v}"),
            (Outcome::LimitReached(l), Some(v)) => write!(
                f,
                "best found: {v} (stopped by the {l}, not proven optimal)"
            ),
            (Outcome::LimitReached(l), None) => {
                write!(f, "unknown: no solution found before the {l}")
            }
            (o, _) => write!(f, "{o}"),
        }
    }
}

impl<'a> Search<'a> {
    /// The least value of `objective` over all solutions, by branch and
    /// bound (see the [module documentation](self)).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 9)).unwrap();
    /// m.post((x + y).ge(7)).unwrap();
    /// let cost = m.define(3 * x + 2 * y).unwrap(); // a variable = the expression
    /// let r = Search::new(&m).minimize(cost);
    /// assert!(r.is_optimal());
    /// assert_eq!(r.objective, Some(14)); // x = 0, y = 7
    /// ```
    pub fn minimize(self, objective: VarId) -> Optimum {
        self.optimize(objective, true, |_, _| ControlFlow::Continue(()))
    }

    /// The greatest value of `objective` over all solutions.
    pub fn maximize(self, objective: VarId) -> Optimum {
        self.optimize(objective, false, |_, _| ControlFlow::Continue(()))
    }

    /// [`minimize`](Search::minimize), calling `f` with each improving
    /// solution and its objective value; `ControlFlow::Break` stops the
    /// search (the outcome then says it was not proven optimal:
    /// `LimitReached(Limit::Solutions)`).
    pub fn minimize_each(
        self,
        objective: VarId,
        f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
    ) -> Optimum {
        self.optimize(objective, true, f)
    }

    /// [`maximize`](Search::maximize) with a callback per improving solution.
    pub fn maximize_each(
        self,
        objective: VarId,
        f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
    ) -> Optimum {
        self.optimize(objective, false, f)
    }

    fn optimize(
        self,
        objective: VarId,
        minimize: bool,
        mut f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
    ) -> Optimum {
        if objective.index() >= self.model.num_vars() {
            // Not a variable of this model: nothing can be optimised. The
            // search still runs so that an unsatisfiable model says so.
            let r = self.solve();
            return Optimum {
                outcome: r.outcome,
                best: None,
                objective: None,
                improvements: Vec::new(),
                stats: r.stats,
            };
        }
        let prep = Arc::new(Prepared::new(self.model, self.options.inference));
        let mut it = Solutions::new(self.model, prep, self.options, self.observer);
        it.engine.set_objective(objective, minimize);
        it.engine.enable_restarts();
        let mut best: Option<Solution> = None;
        let mut improvements = Vec::new();
        let mut stopped: Option<Limit> = None;
        loop {
            match it.engine.step(None) {
                Step::Solution => {
                    let Some(values) = it.engine.take_solution() else {
                        break; // invalid: recorded in the engine
                    };
                    let s = Solution::new(values);
                    let v = s[objective];
                    improvements.push(Improvement {
                        objective: v,
                        nodes: it.engine.stats.nodes,
                        time: it.engine.elapsed(),
                    });
                    let go_on = f(&s, v);
                    best = Some(s);
                    // The next solution must be strictly better.
                    let next = if minimize {
                        v.checked_sub(1)
                    } else {
                        v.checked_add(1)
                    };
                    match next {
                        None => break, // no better value exists
                        Some(b) => it.engine.bound = Some(b),
                    }
                    if go_on.is_break() {
                        stopped = Some(Limit::Solutions);
                        break;
                    }
                }
                Step::Done => break,
                Step::Limit(l) => {
                    stopped = Some(l);
                    break;
                }
            }
        }
        let outcome = match it.engine.invalid {
            Some(c) => Outcome::Invalid(c),
            None => complete_outcome(stopped, u128::from(best.is_some())),
        };
        Optimum {
            outcome,
            objective: best.as_ref().map(|s| s[objective]),
            best,
            improvements,
            stats: it.stats(),
        }
    }
}
