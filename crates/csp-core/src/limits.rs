//! Budgets for a search: [`Limits`], the [`CancelToken`], and the [`Outcome`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A flag another thread can set to stop a running search.
///
/// ```
/// use csp_core::CancelToken;
/// let t = CancelToken::new();
/// let t2 = t.clone(); // hand this one to another thread
/// t2.cancel();
/// assert!(t.is_cancelled());
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }
    /// Asks every search holding a clone of this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Has [`cancel`](CancelToken::cancel) been called?
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Budgets for one search. `None` means unlimited.
///
/// The time and cancel checks run every 256 nodes, so a search overshoots a
/// time limit by at most the time of 256 nodes.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many search nodes (value assignments tried).
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop when this token is cancelled.
    pub cancel: Option<CancelToken>,
    /// Stop when the search's own memory (its domain store, trail,
    /// snapshots and decision stack) would pass this many bytes. A parallel
    /// search divides it among its workers. The model and the propagators'
    /// private data are not counted. Checked at the same points as the time
    /// limit (every 256 nodes, and inside propagation every 1,023 calls or
    /// 2²⁰ removed values), where the trail's next doubling is counted in
    /// advance, so the budget is not passed by more than the removals
    /// between two checks.
    pub memory: Option<u64>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Limits {
        Limits::default()
    }
    /// With a node limit.
    pub fn with_nodes(mut self, n: u64) -> Limits {
        self.nodes = Some(n);
        self
    }
    /// With a time limit.
    pub fn with_time(mut self, t: Duration) -> Limits {
        self.time = Some(t);
        self
    }
    /// With a solution limit.
    pub fn with_solutions(mut self, n: u64) -> Limits {
        self.solutions = Some(n);
        self
    }
    /// With a memory budget in bytes (see [`Limits::memory`]).
    pub fn with_memory(mut self, bytes: u64) -> Limits {
        self.memory = Some(bytes);
        self
    }
    /// With a cancel token.
    pub fn with_cancel(mut self, t: CancelToken) -> Limits {
        self.cancel = Some(t);
        self
    }
}

/// Which limit stopped a search.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The node limit.
    Nodes,
    /// The time limit.
    Time,
    /// The solution limit.
    Solutions,
    /// The cancel token.
    Cancelled,
    /// A step limit (local search).
    Steps,
    /// The memory budget ([`Limits::memory`]).
    Memory,
    /// The neighbourhood budget of a large neighbourhood search
    /// ([`Lns::iterations`](crate::Lns::iterations)): every neighbourhood
    /// was searched and none proved the best solution optimal.
    Iterations,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Time => "time limit",
            Limit::Solutions => "solution limit",
            Limit::Cancelled => "cancelled",
            Limit::Steps => "step limit",
            Limit::Memory => "memory limit",
            Limit::Iterations => "LNS iteration budget",
        })
    }
}

/// How a search ended.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The search did what was asked: found a solution, or explored the whole
    /// space having found at least one.
    Solved,
    /// The whole space was explored and there is no solution.
    Unsatisfiable,
    /// A limit stopped the search; what it found so far is kept.
    LimitReached(Limit),
    /// The search stopped because a candidate solution violated this
    /// constraint: a propagator broke its contract (it pruned too little and
    /// did not fail on a violated fixed scope). Nothing found after the
    /// failing constraint's propagator misbehaved is trusted.
    Invalid(crate::ConstraintId),
}

impl Outcome {
    /// True when the search explored everything it had to (not stopped by a limit).
    pub fn is_complete(self) -> bool {
        !matches!(self, Outcome::LimitReached(_) | Outcome::Invalid(_))
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Solved => f.write_str("solved"),
            Outcome::Unsatisfiable => f.write_str("unsatisfiable"),
            Outcome::LimitReached(l) => write!(f, "stopped ({l})"),
            Outcome::Invalid(c) => write!(
                f,
                "invalid: a propagator let through a solution that violates constraint {c}"
            ),
        }
    }
}
