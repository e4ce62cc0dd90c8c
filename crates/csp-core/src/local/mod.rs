//! Local search on the same [`Model`](crate::Model): [`MinConflicts`] and a
//! [`Genetic`] search.
//!
//! Backtracking builds an assignment one variable at a time; local search
//! starts from a *complete* assignment and repairs it. Any model can be handed
//! to either without change:
//!
//! ```
//! use csp_core::{Domain, MinConflicts, Model, Move, Outcome};
//!
//! // 200-queens: one variable per row holding the column; the columns are a
//! // permutation, the diagonals x + i and x − i all different.
//! let n = 200;
//! let mut m = Model::new();
//! let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
//! let rows: Vec<i32> = (0..n as i32).collect();
//! let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
//! m.all_different(&q).unwrap();
//! m.all_different_offset(&q, &rows).unwrap();
//! m.all_different_offset(&q, &neg).unwrap();
//!
//! let r = MinConflicts::new(&m).seed(7).moves(Move::Swap).max_steps(100_000).run().unwrap();
//! assert_eq!(r.outcome, Outcome::Solved);
//! assert!(m.check(r.solution.unwrap().values()).is_ok());
//! ```
//!
//! # Min-conflicts
//! From a complete assignment ([`Init::Greedy`] or [`Init::Random`]) each step
//! picks a conflicted variable uniformly at random and moves it to the value
//! that minimizes the violations, ties broken at random (Minton, Johnston,
//! Philips and Laird, "Minimizing conflicts: a heuristic repair method for
//! constraint satisfaction and scheduling problems", AIJ 1992). With
//! [`Move::Swap`] the variable instead exchanges its value with a partner, so a
//! permutation stays a permutation and an all-different over it holds by
//! construction. A tabu tenure forbids a variable to return at once to the
//! value it just left (unless that would beat the best assignment so far), and
//! a plateau rule restarts from a fresh assignment when the best has not
//! improved for a while. See [`MinConflicts`] for every option.
//!
//! Every result reports the best assignment found and its violations; it
//! carries a [`Solution`] only when [`Model::check`](crate::Model::check)
//! accepts it.
//!
//! # How violations are counted
//! Each constraint reports its violations and the change a move makes:
//! [`Constraint::violations`](crate::Constraint::violations) and
//! [`Constraint::delta`](crate::Constraint::delta), whose defaults come from the
//! checker (0 or 1). The built-ins do better inside the search: an
//! all-different over offsets keeps a count per id (`x_i + c_i`), so its
//! violations are `Σ_id (count − 1)⁺` and a move's delta is O(1); a not-equal
//! is O(1). The variables in conflict are kept in a set maintained move by
//! move, never rescanned. The state is the assignment and these counters:
//! memory grows linearly in the number of variables, and a domain that is a
//! plain range needs no per-variable bitset or list (a domain with holes is
//! listed once, however many variables share it). A change move scores each
//! value of the variable's domain, so its cost is the domain size times the
//! number of constraints on the variable.
//!
//! # The permutation fast path
//! When swap moves are asked for and the model is a permutation whose every
//! constraint is an all-different over offsets of the same variables (N-queens
//! as `x`, `x + i`, `x − i` is the classic case, but nothing here knows about
//! queens), the search runs a fused engine. All-differents with one constant
//! offset hold by construction and are dropped; each other one keeps, per id,
//! one bit saying whether the id is held, plus a small map of the excess for
//! the few ids held more than once; offsets of the form `a + s·i` are
//! computed rather than stored. It follows Sosič and Gu ("Efficient local
//! search with conflict minimization: a case study of the n-queens problem",
//! IEEE TKDE 1994): a greedy start gives each variable in turn a uniformly
//! random unused value that is free on every all-different (after 64 blocked
//! candidates it takes the least occupied), which leaves a few dozen
//! conflicts even at n = 10^7; the repair then swaps conflicted variables
//! with random partners, taking the first swap that lowers the violations.
//! At n = 10^7 the state is 40 MB for the assignment and about 6 MB of bits,
//! beside the model itself; the bits, read at random, stay in cache.
//!
//! # Determinism
//! The generator is SplitMix64 seeded by [`MinConflicts::seed`]; all draws are
//! 64-bit integer arithmetic. With the same seed and limits that are not
//! time-based, a run gives the same assignment, steps and restarts on every
//! machine. A time limit or a cancel token stops the run at a point that
//! depends on the machine.
//!
//! # Genetic search
//! [`Genetic`] evolves a population of complete assignments with tournament
//! selection, crossover (uniform, or order crossover for permutations) and
//! mutation, with fitness the total violations, as the N-queens literature
//! compares it with min-conflicts. It is far weaker: see its documentation for
//! measured figures.

use std::fmt;
use std::time::{Duration, Instant};

use crate::ids::{ConstraintId, Value, VarId};
use crate::limits::{CancelToken, Limit, Outcome};
use crate::solution::Solution;

mod best;
mod genetic;
mod min_conflicts;
mod permutation;
pub(crate) mod rng;
mod state;

pub use genetic::{Genetic, GeneticResult};
pub use min_conflicts::MinConflicts;

/// What one local-search move changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Move {
    /// Give one variable another value of its domain (the default).
    #[default]
    Change,
    /// Exchange the values of two variables that share a domain. For
    /// permutation models: every group of variables sharing a declared domain
    /// must have exactly as many variables as the domain has values, and the
    /// assignment is then always a permutation of each group's domain.
    Swap,
}

/// How the first complete assignment is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Init {
    /// Each variable in index order gets a least-conflicting value with the
    /// variables placed before it. Candidates are the whole domain (or the
    /// unused values, for swaps) when there are at most 64, ties broken at
    /// random; else random draws, stopping at the first conflict-free one or
    /// after 64 (the permutation fast path always draws). The default.
    #[default]
    Greedy,
    /// Uniformly random values (a uniformly random permutation, for swaps).
    Random,
}

/// A local search could not run as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalError {
    /// [`Move::Swap`] needs each group of variables sharing a declared domain
    /// to have as many variables as the domain has values.
    NotPermutation {
        /// A variable of the offending group.
        var: VarId,
        /// How many variables share its domain.
        vars: usize,
        /// How many values the domain has.
        values: u64,
    },
    /// An option is out of its range.
    InvalidParameter {
        /// The option.
        parameter: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The violation counts reached zero but the checker rejects the
    /// assignment: the constraint's [`violations`](crate::Constraint::violations)
    /// disagrees with its [`is_satisfied`](crate::Constraint::is_satisfied).
    InconsistentViolations {
        /// The constraint the checker rejects.
        constraint: ConstraintId,
        /// Its name.
        name: String,
    },
}

impl fmt::Display for LocalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LocalError::NotPermutation { var, vars, values } => write!(
                f,
                "swap moves need a permutation: {vars} variables share the domain of {var}, which has {values} values"
            ),
            LocalError::InvalidParameter { parameter, reason } => {
                write!(f, "invalid {parameter}: {reason}")
            }
            LocalError::InconsistentViolations { constraint, name } => write!(
                f,
                "constraint {constraint} ({name}) reports no violation for an assignment its checker rejects"
            ),
        }
    }
}

impl std::error::Error for LocalError {}

/// What a [`MinConflicts`] run found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LocalResult {
    /// [`Outcome::Solved`] when the best assignment passed
    /// [`Model::check`](crate::Model::check); otherwise the limit that stopped
    /// the run ([`Outcome::Unsatisfiable`] only for a violated constraint over
    /// no variables, which no move can repair).
    pub outcome: Outcome,
    /// The best assignment found, one value per variable by index.
    pub assignment: Vec<Value>,
    /// Its total violations: the sum over constraints of their violation
    /// measure (`Σ (count − 1)⁺` per all-different, 0 or 1 for most others).
    pub violations: u64,
    /// How many constraints it violates.
    pub violated_constraints: usize,
    /// The assignment as a checked solution, when it is one.
    pub solution: Option<Solution>,
    /// Steps: each picks a conflicted variable and makes at most one move.
    pub steps: u64,
    /// Restarts from a fresh initial assignment.
    pub restarts: u64,
    /// Wall-clock time of the whole run, check included.
    pub time: Duration,
    /// Of which building the first initial assignment.
    pub init_time: Duration,
    /// Of which the final [`Model::check`](crate::Model::check).
    pub check_time: Duration,
}

impl fmt::Display for LocalResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} violations ({} constraints), {} steps, {} restarts, {:.3} s (init {:.3} s, check {:.3} s)",
            self.outcome,
            self.violations,
            self.violated_constraints,
            self.steps,
            self.restarts,
            self.time.as_secs_f64(),
            self.init_time.as_secs_f64(),
            self.check_time.as_secs_f64()
        )
    }
}

/// Step, time and cancel budgets shared by the local searches. Time and the
/// token are polled every [`Budget::POLL`] steps.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    start: Instant,
    max_steps: Option<u64>,
    deadline: Option<Instant>,
    cancel: Option<CancelToken>,
}

impl Budget {
    /// Steps between two polls of the clock and the token.
    pub(crate) const POLL: u64 = 256;

    pub(crate) fn new(
        max_steps: Option<u64>,
        time: Option<Duration>,
        cancel: Option<CancelToken>,
    ) -> Budget {
        let start = Instant::now();
        Budget {
            start,
            max_steps,
            deadline: time.map(|t| start + t),
            cancel,
        }
    }

    pub(crate) fn start(&self) -> Instant {
        self.start
    }

    /// The limit that stops a run about to make step `steps + 1`.
    #[inline]
    pub(crate) fn check(&self, steps: u64) -> Option<Limit> {
        if self.max_steps.is_some_and(|m| steps >= m) {
            return Some(Limit::Steps);
        }
        if steps.is_multiple_of(Self::POLL) {
            return self.poll();
        }
        None
    }

    /// The time or cancel limit, if either is reached now.
    pub(crate) fn poll(&self) -> Option<Limit> {
        if self.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Some(Limit::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Limit::Time);
        }
        None
    }
}
