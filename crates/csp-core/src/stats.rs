//! Search [`Statistics`].

use std::fmt;
use std::time::Duration;

/// Counters of one search (summed over subproblems for a parallel search).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Value assignments tried (search nodes below the root).
    pub nodes: u64,
    /// Assignments whose propagation failed.
    pub failures: u64,
    /// Times a variable ran out of values and the search stepped back.
    pub backtracks: u64,
    /// Constraint calls (forward checks, propagations, checks).
    pub propagations: u64,
    /// Values removed from domains.
    pub removals: u64,
    /// Deepest decision level reached.
    pub max_depth: u64,
    /// Solutions found (including those counted without being built).
    pub solutions: u128,
    /// Restarts (see [`Restarts`](crate::search::Restarts)); shown only
    /// when non-zero.
    pub restarts: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl Statistics {
    /// Adds another search's counters (max for depth, sum for the rest;
    /// time is the larger of the two, as parallel parts overlap).
    pub fn merge(&mut self, o: &Statistics) {
        self.nodes += o.nodes;
        self.failures += o.failures;
        self.backtracks += o.backtracks;
        self.propagations += o.propagations;
        self.removals += o.removals;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.solutions += o.solutions;
        self.restarts += o.restarts;
        self.time = self.time.max(o.time);
    }
}

impl fmt::Display for Statistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "solutions: {}, nodes: {}, failures: {}, backtracks: {}, propagations: {}, removals: {}, max depth: {}, time: {:.3} ms",
            self.solutions,
            self.nodes,
            self.failures,
            self.backtracks,
            self.propagations,
            self.removals,
            self.max_depth,
            self.time.as_secs_f64() * 1e3
        )?;
        if self.restarts > 0 {
            write!(f, ", restarts: {}", self.restarts)?;
        }
        Ok(())
    }
}
