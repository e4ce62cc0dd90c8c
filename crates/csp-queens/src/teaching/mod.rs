//! The classic N-queens techniques, one short function each, written to be
//! read rather than to be fast.
//!
//! Every article on N-queens walks through the same ladder of ideas; each
//! rung is a module here, 20 to 60 lines of commented code:
//!
//! | module | technique | a *node* is |
//! |---|---|---|
//! | [`sets`] | recursive backtracking, row by row, with three sets of ids (`x`, `x + y`, `x − y`) | a queen put on a free square |
//! | [`stack`] | the same search with an explicit stack instead of recursion, printing its tree | a queen put on a free square |
//! | [`bits`] | the minimal bitboard counter: lowest set bit, diagonal masks shifted one bit a row | a queen put on a free square |
//! | [`brute_nn`] | brute force over all `nⁿ` placements (one queen per row) | one complete placement tested |
//! | [`brute_perm`] | brute force over all `n!` permutations (one queen per row and column) | one complete permutation tested |
//! | [`forward`] | forward checking: every queen strikes the squares it attacks from the rows below | a queen tried (a wiped-out domain included) |
//! | [`min_conflicts`] | local search: move an attacked queen to the least attacked square of its row | one move |
//! | [`genetic`] | a genetic algorithm over permutations | one individual evaluated |
//!
//! They share [`Run`]: it counts nodes and solutions, hands each solution
//! to the caller and stops the search at a deadline (read by the work
//! done, see [`Run::node_costing`]) or when the caller has seen enough.
//! Each can also be watched: a `solve_watched` (or, for the stack and
//! forward checking, `solve` itself) shows its steps to an observer, as
//! `csp queens --trace` prints them — the tree, the bitboard's masks,
//! min-conflicts' moves, the genetic search's generations. A placement is, as everywhere in this crate, the 0-based
//! column of the queen of each row.
//!
//! ```
//! use csp_queens::teaching::{sets, Run};
//! let mut run = Run::counting();
//! sets::solve(8, &mut run);
//! assert_eq!(run.solutions(), 92);
//! ```

use std::ops::ControlFlow;
use std::time::Instant;

use crate::trace::{Mark, TraceLine};

pub mod bits;
pub mod brute_nn;
pub mod brute_perm;
pub mod forward;
pub mod genetic;
pub mod min_conflicts;
pub mod sets;
pub mod stack;

/// The largest board [`bits`] handles: one bit per column in a `u64`.
pub const BITS_MAX_N: usize = 64;

/// How much work (elementary steps) a [`Run`] does between two readings of
/// the clock: a few microseconds.
pub const CLOCK_EVERY: u64 = 4096;

/// What a [`Run`] does with each solution: `Break` stops the search.
pub type OnSolution<'a> = Box<dyn FnMut(&[u32]) -> ControlFlow<()> + 'a>;

/// The bookkeeping a teaching search shares with its caller: node and
/// solution counts, the deadline, and what to do with each solution.
pub struct Run<'a> {
    nodes: u64,
    solutions: u128,
    deadline: Option<Instant>,
    /// Work done so far, in rough elementary steps (see [`Run::node_costing`]).
    work: u64,
    /// The work at which the clock is read next.
    next_clock: u64,
    /// Set when the deadline passed before the search was done.
    timed_out: bool,
    /// Set when the caller's callback asked to stop.
    halted: bool,
    /// The most nodes the search may count (see [`Run::with_node_limit`]).
    node_limit: Option<u64>,
    /// Set when a node past the limit was refused.
    capped: bool,
    on_solution: OnSolution<'a>,
}

impl<'a> Run<'a> {
    /// A run that hands every solution to `on_solution`, which returns
    /// `Break` to stop the search, within `deadline` if any.
    pub fn new(
        deadline: Option<Instant>,
        on_solution: impl FnMut(&[u32]) -> ControlFlow<()> + 'a,
    ) -> Run<'a> {
        Run {
            nodes: 0,
            solutions: 0,
            deadline,
            work: 0,
            next_clock: CLOCK_EVERY,
            timed_out: false,
            halted: false,
            node_limit: None,
            capped: false,
            on_solution: Box::new(on_solution),
        }
    }

    /// The same run, stopped after `limit` nodes (a page that replays the
    /// search records a bounded number of steps).
    pub fn with_node_limit(mut self, limit: u64) -> Run<'a> {
        self.node_limit = Some(limit);
        self
    }

    /// Whether the node limit stopped the search.
    pub fn hit_node_limit(&self) -> bool {
        self.capped
    }

    /// A run that only counts, with no deadline.
    pub fn counting() -> Run<'static> {
        Run::new(None, |_| ControlFlow::Continue(()))
    }

    /// Counts one node that took about one elementary step. Returns
    /// `false` when the search must stop (the deadline passed, or the
    /// caller has seen enough).
    pub fn node(&mut self) -> bool {
        self.node_costing(1)
    }

    /// Counts one node that took about `work` elementary steps (a look at
    /// one square, one pair of queens compared). The clock is read every
    /// [`CLOCK_EVERY`] steps of work, not every so many nodes: a node of
    /// min-conflicts on 2000 queens costs millions of steps, one of the
    /// bitboard a handful, and both must notice the deadline soon after it
    /// passes.
    pub fn node_costing(&mut self, work: u64) -> bool {
        if self.node_limit.is_some_and(|l| self.nodes >= l) {
            self.capped = true;
            return false;
        }
        self.nodes += 1;
        self.work = self.work.saturating_add(work);
        if self.work >= self.next_clock {
            self.next_clock = self.work.saturating_add(CLOCK_EVERY);
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.timed_out = true;
            }
        }
        !self.timed_out && !self.halted
    }

    /// Reports a solution. Returns `false` when the search must stop.
    pub fn solution(&mut self, cols: &[u32]) -> bool {
        self.solutions += 1;
        if (self.on_solution)(cols).is_break() {
            self.halted = true;
        }
        !self.timed_out && !self.halted
    }

    /// Nodes so far (see the module table for what a node is per solver).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solutions so far.
    pub fn solutions(&self) -> u128 {
        self.solutions
    }

    /// Whether the deadline stopped the search before it was done.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }
}

/// A small random number generator (SplitMix64), so that the local
/// searches repeat exactly for a given seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..k` (`k > 0`).
    pub fn below(&mut self, k: usize) -> usize {
        (self.next_u64() % k as u64) as usize
    }
}

/// What a teaching search shows of its tree, if anyone watches: one
/// [`TraceLine`] a node.
pub type Show<'a> = Option<&'a mut dyn FnMut(&TraceLine)>;

/// The trace line of the partial placement `cols` (0-based columns) of an
/// `n`-queens board at depth `cols.len()`.
pub(crate) fn trace_line(n: usize, cols: &[u32], mark: Mark) -> TraceLine {
    let mut placement: Vec<Option<u32>> = cols.iter().map(|&c| Some(c + 1)).collect();
    placement.resize(n, None);
    TraceLine {
        depth: cols.len(),
        placement,
        mark,
    }
}

/// The trace line of a complete placement tested by brute force: one
/// level under the empty board, refuted (`x`) or a solution.
pub(crate) fn tested(n: usize, cols: &[u32], good: bool) -> TraceLine {
    let mut line = trace_line(n, cols, if good { Mark::Solution } else { Mark::Failed });
    line.depth = 1;
    line
}

/// Whether two queens, on rows `r1`, `r2` and columns `c1`, `c2`, attack
/// each other: same column, or as many rows apart as columns apart.
pub fn attack(r1: usize, c1: u32, r2: usize, c2: u32) -> bool {
    c1 == c2 || c1.abs_diff(c2) as usize == r1.abs_diff(r2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_limit_stops_the_search_at_that_many_nodes() {
        // 8 queens by teach-sets: 2,056 queens put on free squares.
        let mut run = Run::counting().with_node_limit(100);
        sets::solve(8, &mut run);
        assert_eq!(run.nodes(), 100);
        assert!(run.hit_node_limit());
        let mut run = Run::counting().with_node_limit(1_000_000);
        sets::solve(8, &mut run);
        assert_eq!((run.nodes(), run.solutions()), (2056, 92));
        assert!(!run.hit_node_limit());
    }
}
