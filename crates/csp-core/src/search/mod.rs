//! Backtracking search: [`Search`] and its options.
//!
//! A `Search` borrows a [`Model`] and runs a depth-first search with a choice of
//! [`Inference`], [`VarOrder`] and [`ValOrder`], within [`Limits`]. Every way
//! of asking for results runs the same engine:
//!
//! | call | returns |
//! |---|---|
//! | [`Search::solve`] | the first solution |
//! | [`Search::solutions`] | an iterator over all solutions |
//! | [`Search::for_each_solution`] | a callback per solution, stopped by `ControlFlow::Break` |
//! | [`Search::count`] / [`Search::count_up_to`] | the number of solutions, none built |
//! | [`Search::is_unique`] | none, one or several |
//! | [`Search::par_count`] / [`Search::par_solutions`] | the same, on a thread pool, identical for any number of threads |
//! | [`Search::minimize`] / [`Search::maximize`] | the best solution, with its proven bound ([`Optimum`]) |
//!
//! ## Checked and unchecked calls
//! The optimisation calls and the `try_` calls ([`Search::solve`],
//! [`Search::count`], [`Search::count_up_to`],
//! [`Search::is_unique`], [`Search::for_each_solution`],
//! [`Search::par_count`], [`Search::par_solutions`]) first run
//! [`Search::validate`]: a variable of another model given to
//! [`Search::branch_on`] or as the objective, or a constraint over no
//! variables that cannot hold, is a [`SearchError`](crate::SearchError) naming it, not a wrong
//! or silent answer. They take `&mut self`, so one configured `Search` runs
//! any number of times, each run a fresh search with the same options.
//! The unchecked calls of the same names without `try_` keep their
//! signatures (they consume the `Search` and return the result directly)
//! and do not check their arguments.
//!
//! ```
//! use std::time::Duration;
//! use csp_core::{Domain, Model, Search, ValOrder, VarOrder};
//! use csp_core::expr::sum;
//!
//! let mut m = Model::new();
//! let xs = m.new_vars(4, Domain::range(1, 4))?;
//! m.all_different(&xs)?;
//! let total = m.define(sum([xs[0], xs[1]]))?;
//! let mut search = Search::new(&m)
//!     .branch_on(&xs)
//!     .var_order(VarOrder::DomWdeg)
//!     .val_order(ValOrder::Descending)
//!     .time_limit(Duration::from_secs(10));
//! assert_eq!(search.count()?.count, 24);
//! let best = search.minimize(total)?; // the same search, run again
//! assert_eq!(best.objective, Some(3));
//! assert!(best.proven);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::ControlFlow;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::limits::{Limit, Limits, Outcome};
use crate::model::Model;
use crate::observer::SearchObserver;
use crate::solution::Solution;
use crate::stats::Statistics;

mod bound;
mod budget;
mod builder;
mod checked;
pub(crate) mod engine;
pub(crate) mod learning;
mod optimize;
mod options;
mod prepared;
mod split;
mod val_order;
mod var_order;

pub(crate) use engine::splitmix;
use engine::{Engine, Prepared, Step};
pub use learning::trace::{ConflictTrace, Origin, Resolution, TracedEntry};
pub use optimize::{Improvement, Lns, Optimum};
pub use options::{
    Decision, Inference, LearningOrder, Restarts, RootWeights, SearchOptions, ValOrder, VarOrder,
};
pub use split::{Subproblem, SubproblemError};

/// The result of [`Search::solve`].
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// `Solved` with a solution, `Unsatisfiable`, or `LimitReached`.
    pub outcome: Outcome,
    /// The solution, when one was found.
    pub solution: Option<Solution>,
    /// Search counters.
    pub stats: Statistics,
}

/// The result of counting or enumerating.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug)]
pub struct Report {
    /// `Solved` (complete, at least one solution), `Unsatisfiable` (complete,
    /// none) or `LimitReached` (the count so far is a lower bound).
    pub outcome: Outcome,
    /// Solutions counted.
    pub count: u128,
    /// Search counters.
    pub stats: Statistics,
}

impl std::fmt::Display for SolveResult {
    /// `solved: 1 0 2; solutions: 1, nodes: ..` (the outcome, the
    /// solution's values by variable index, the statistics).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 1))?;
    /// m.not_equal(x, y, 0)?;
    /// let r = Search::new(&m).solve()?;
    /// assert!(r.to_string().starts_with("solved: 0 1; solutions: 1, nodes: "));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.outcome)?;
        if let Some(s) = &self.solution {
            write!(f, ": {s}")?;
        }
        write!(f, "; {}", self.stats)
    }
}

impl std::fmt::Display for Report {
    /// `120 solutions (solved); solutions: 120, nodes: ..`; under a limit
    /// `at least 10 solutions (stopped (node limit)); ..`.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m).count()?;
    /// assert!(r.to_string().starts_with("120 solutions (solved); "));
    /// let r = Search::new(&m).count_up_to(10)?;
    /// assert!(r.to_string().starts_with("at least 10 solutions (stopped (solution limit)); "));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = if self.count == 1 { "" } else { "s" };
        if matches!(self.outcome, Outcome::LimitReached(_)) {
            f.write_str("at least ")?;
        }
        write!(
            f,
            "{} solution{plural} ({}); {}",
            self.count, self.outcome, self.stats
        )
    }
}

/// The answer of [`Search::is_unique`].
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Solution),
    /// At least two solutions (the first two found).
    Multiple(Solution, Solution),
    /// A limit stopped the search before it could tell.
    Unknown(Limit),
    /// A propagator let through a non-solution (see [`Outcome::Invalid`]).
    Invalid(crate::ConstraintId),
}

/// A backtracking search over a model. Configure with the builder methods,
/// then call one of the result methods (they consume the `Search`).
///
/// ```
/// use csp_core::{Domain, Inference, Model, Search, ValOrder, VarOrder};
///
/// let mut m = Model::new();
/// let xs = m.new_vars(4, Domain::range(1, 4)).unwrap();
/// m.all_different(&xs).unwrap();
/// let r = Search::new(&m)
///     .inference(Inference::Mac)
///     .var_order(VarOrder::Input)
///     .val_order(ValOrder::Descending)
///     .solve().unwrap();
/// assert_eq!(r.solution.unwrap().values(), &[4, 3, 2, 1]);
/// ```
pub struct Search<'a> {
    model: &'a Model,
    options: SearchOptions,
    observer: Option<&'a mut dyn SearchObserver>,
    /// The most workers of a parallel search (`None`: the cores).
    max_threads: Option<usize>,
}

impl std::fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("options", &self.options)
            .field("observer", &self.observer.is_some())
            .field("max_threads", &self.max_threads)
            .finish()
    }
}

impl<'a> Search<'a> {
    /// A search over `model` with default options (forward checking, smallest
    /// domain first, ascending values, no limits).
    pub fn new(model: &'a Model) -> Search<'a> {
        Search {
            model,
            options: SearchOptions::default(),
            observer: None,
            max_threads: None,
        }
    }

    /// The most worker threads [`Search::par_count`] and
    /// [`Search::par_solutions`] start, instead of the number of cores
    /// (`std::thread::available_parallelism`): more than the cores only
    /// pays when the cores are under-reported.
    pub fn max_threads(mut self, cap: usize) -> Self {
        self.max_threads = Some(cap.max(1));
        self
    }

    /// The workers of a parallel search asked for `threads` (0: all cores):
    /// at most the cores, or [`Search::max_threads`].
    fn workers(&self, threads: usize) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let asked = if threads == 0 { cores } else { threads };
        asked.min(self.max_threads.unwrap_or(cores)).max(1)
    }

    /// Replaces all options.
    pub fn options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets the inference level.
    pub fn inference(mut self, i: Inference) -> Self {
        self.options.inference = i;
        self
    }

    /// Sets the variable order.
    pub fn var_order(mut self, o: VarOrder) -> Self {
        self.options.var_order = o;
        self
    }

    /// Sets the value order.
    pub fn val_order(mut self, o: ValOrder) -> Self {
        self.options.val_order = o;
        self
    }

    /// Turns last-conflict reasoning on or off (see
    /// [`SearchOptions::last_conflict`]).
    pub fn last_conflict(mut self, on: bool) -> Self {
        self.options.last_conflict = on;
        self
    }

    /// Explaining mode ([`SearchOptions::explain`]): every domain change is
    /// recorded with its reason. The search visits the same nodes.
    pub fn explaining(mut self, on: bool) -> Self {
        self.options.explain = on;
        self
    }

    /// The learning search ([`SearchOptions::learning`]) for
    /// [`solve`](Search::solve) and `minimize`/`maximize`: nogoods learned
    /// from conflicts, backjumping, activity-based branching and restarts.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Outcome, Search};
    /// // Five pigeons, four holes: no solution, proven by learning.
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 4))?;
    /// for i in 0..5 {
    ///     for j in i + 1..5 {
    ///         m.not_equal(xs[i], xs[j], 0)?;
    ///     }
    /// }
    /// let r = Search::new(&m).learning(true).solve()?;
    /// assert_eq!(r.outcome, Outcome::Unsatisfiable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn learning(mut self, on: bool) -> Self {
        self.options.learning = on;
        self
    }

    /// How the learning search decides ([`SearchOptions::learning_order`]):
    /// by activity (the default) or in the order of `var_order`,
    /// `val_order` and the decision variables.
    ///
    /// ```
    /// use csp_core::{Domain, LearningOrder, Model, Search, ValOrder, VarOrder};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(0, 9))?;
    /// m.all_different(&xs)?;
    /// // Input order, largest value first: the first solution is 9, 8, 7.
    /// let r = Search::new(&m)
    ///     .learning(true)
    ///     .learning_order(LearningOrder::User)
    ///     .var_order(VarOrder::Input)
    ///     .val_order(ValOrder::Descending)
    ///     .solve()?;
    /// assert_eq!(r.solution.unwrap().values(), &[9, 8, 7]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn learning_order(mut self, order: LearningOrder) -> Self {
        self.options.learning_order = order;
        self
    }

    /// Neighbourhoods around the incumbent inside the learning search's
    /// branch and bound ([`SearchOptions::lns`]): every other restart run
    /// fixes a random share of the variables to the best solution's
    /// values, as assumptions, and the nogoods it learns are kept.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// use csp_core::expr::sum;
    /// let mut m = Model::new();
    /// let xs = m.new_vars(8, Domain::range(0, 20))?;
    /// m.all_different(&xs)?;
    /// let cost = m.define(sum(xs.iter().enumerate().map(|(i, &x)| (i as i32 + 1) * x)))?;
    /// let r = Search::new(&m).learning(true).lns(true).minimize(cost)?;
    /// assert!(r.is_optimal()); // the runs between neighbourhoods complete the proof
    /// assert_eq!(r.objective, Some(84)); // 8·0 + 7·1 + … + 1·7
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lns(mut self, on: bool) -> Self {
        self.options.lns = on;
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, l: Limits) -> Self {
        self.options.limits = l;
        self
    }

    /// Attaches an observer (see [`SearchObserver`]).
    pub fn observer(mut self, o: &'a mut dyn SearchObserver) -> Self {
        self.observer = Some(o);
        self
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn solve_unchecked(self) -> SolveResult {
        if self.options.learning && self.observer.is_none() {
            return learning::solve(self.model, self.options);
        }
        let mut it = self.solutions_unchecked();
        it.engine.enable_restarts();
        let solution = it.next();
        let outcome = match (&solution, it.stopped) {
            (Some(_), _) => Outcome::Solved,
            (None, _) => it.outcome(),
        };
        SolveResult {
            outcome,
            solution,
            stats: it.stats(),
        }
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn solutions_unchecked(self) -> Solutions<'a> {
        // The time limit counts the preparation too.
        let start = Instant::now();
        let prep = Arc::new(Prepared::new(self.model, self.options.inference));
        let mut it = Solutions::new(self.model, prep, self.options, self.observer);
        it.engine.set_start_time(start);
        it
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn for_each_solution_unchecked(
        self,
        mut f: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> Report {
        let mut it = self.solutions_unchecked();
        let mut count = 0u128;
        let mut broke = false;
        for s in it.by_ref() {
            count += 1;
            if f(&s).is_break() {
                broke = true;
                break;
            }
        }
        let outcome = match (it.engine.invalid, it.stopped) {
            (Some(c), _) => Outcome::Invalid(c),
            (None, Some(l)) => Outcome::LimitReached(l),
            (None, None) if broke || count > 0 => Outcome::Solved,
            (None, None) => Outcome::Unsatisfiable,
        };
        Report {
            outcome,
            count,
            stats: it.stats(),
        }
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn count_unchecked(self) -> Report {
        let start = Instant::now();
        let prep = Arc::new(Prepared::new(self.model, self.options.inference));
        let cap = self.options.limits.solutions;
        let mut e = Engine::new(self.model, prep, self.options, self.observer);
        e.set_start_time(start);
        let mut n = 0u128;
        let stop = loop {
            if cap.is_some_and(|k| n >= k as u128) {
                break Some(Limit::Solutions);
            }
            match e.step(None) {
                Step::Solution => {
                    if !e.note_solution() {
                        break None;
                    }
                    n += 1;
                }
                Step::Done => break None,
                Step::Limit(l) => break Some(l),
            }
        };
        e.elapsed_into_stats();
        let count = n + e.counted;
        let outcome = match e.invalid {
            Some(c) => Outcome::Invalid(c),
            None => complete_outcome(stop, count),
        };
        Report {
            outcome,
            count,
            stats: e.stats.clone(),
        }
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn count_up_to_unchecked(mut self, k: u64) -> Report {
        if k == 0 {
            // "At least 0": nothing to search, and nothing is known.
            return Report {
                outcome: Outcome::LimitReached(Limit::Solutions),
                count: 0,
                stats: Statistics::default(),
            };
        }
        self.options.limits.solutions = Some(k);
        let mut it = self.solutions_unchecked();
        let mut count = 0u128;
        while count < k as u128 {
            if it.next().is_none() {
                break;
            }
            count += 1;
        }
        let outcome = match (it.engine.invalid, it.stopped) {
            (Some(c), _) => Outcome::Invalid(c),
            (None, Some(l)) => Outcome::LimitReached(l),
            (None, None) if count == k as u128 => Outcome::LimitReached(Limit::Solutions),
            (None, None) => complete_outcome(None, count),
        };
        Report {
            outcome,
            count,
            stats: it.stats(),
        }
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn uniqueness_unchecked(self) -> Uniqueness {
        let mut it = self.solutions_unchecked();
        let a = it.next();
        let b = if a.is_some() { it.next() } else { None };
        if let Some(c) = it.engine.invalid {
            return Uniqueness::Invalid(c);
        }
        match (a, b, it.stopped) {
            (Some(a), Some(b), _) => Uniqueness::Multiple(a, b),
            (_, _, Some(l)) => Uniqueness::Unknown(l),
            (Some(a), None, None) => Uniqueness::Unique(a),
            (None, _, None) => Uniqueness::None,
        }
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn par_count_unchecked(self, threads: usize) -> Report {
        let threads = self.workers(threads);
        let cap = self.options.limits.solutions;
        let par = Parallel::new(self.model, &self.options);
        count_parts(&par, threads, cap)
    }

    /// Unchecked: see the checked entry point of the same name (`checked.rs`).
    pub(crate) fn par_solutions_unchecked(self, threads: usize) -> (Vec<Solution>, Report) {
        let threads = self.workers(threads);
        let model = self.model;
        let opts = self.options;
        let cap = opts.limits.solutions;
        let par = Parallel::new(model, &opts);
        let results: Vec<Part<Vec<Solution>>> = par.run(threads, |e| {
            e.count_shortcut = false;
            let mut found = Vec::new();
            loop {
                if cap.is_some_and(|k| found.len() as u64 >= k) {
                    return (found, Some(Limit::Solutions));
                }
                match e.step(None) {
                    Step::Solution => match e.take_solution() {
                        Some(v) => found.push(Solution::new(v).named(e.model)),
                        None => return (found, None),
                    },
                    Step::Done => return (found, None),
                    Step::Limit(l) => return (found, Some(l)),
                }
            }
        });
        let (_, mut stats, mut stop, invalid) = par.merge(&results, |f| f.len() as u128);
        let mut all: Vec<Solution> = results.into_iter().flat_map(|p| p.found).collect();
        if let Some(k) = cap {
            if all.len() as u64 >= k {
                all.truncate(k as usize);
                stop = stop.or(Some(Limit::Solutions));
            }
        }
        let count = all.len() as u128;
        stats.solutions = count;
        let outcome = match invalid {
            Some(c) => Outcome::Invalid(c),
            None => complete_outcome(stop, count),
        };
        (
            all,
            Report {
                outcome,
                count,
                stats,
            },
        )
    }
}

/// Counts the subproblems of `par` on `threads` threads, each stopping at
/// `cap` solutions; the merged report.
fn count_parts(par: &Parallel<'_>, threads: usize, cap: Option<u64>) -> Report {
    let results: Vec<Part<u128>> = par.run(threads, |e| {
        let mut n = 0u128;
        loop {
            if cap.is_some_and(|k| n >= k as u128) {
                return (n, Some(Limit::Solutions));
            }
            match e.step(None) {
                Step::Solution => {
                    if !e.note_solution() {
                        return (n, None);
                    }
                    n += 1;
                }
                Step::Done => return (n + e.counted, None),
                Step::Limit(l) => return (n + e.counted, Some(l)),
            }
        }
    });
    let (mut count, mut stats, mut stop, invalid) = par.merge(&results, |n| *n);
    if let Some(k) = cap {
        if count >= k as u128 {
            count = k as u128;
            stop = stop.or(Some(Limit::Solutions));
        }
    }
    stats.solutions = count;
    let outcome = match invalid {
        Some(c) => Outcome::Invalid(c),
        None => complete_outcome(stop, count),
    };
    Report {
        outcome,
        count,
        stats,
    }
}

fn complete_outcome(stop: Option<Limit>, count: u128) -> Outcome {
    match stop {
        Some(l) => Outcome::LimitReached(l),
        None if count > 0 => Outcome::Solved,
        None => Outcome::Unsatisfiable,
    }
}

/// How many subproblems a parallel search aims for (independent of threads).
const SPLIT_TARGET: usize = 256;
const SPLIT_MAX_DEPTH: usize = 8;

/// What one subproblem of a parallel search found (nothing, by default).
#[derive(Default)]
struct Part<T> {
    found: T,
    stats: Statistics,
    stop: Option<Limit>,
    invalid: Option<crate::ConstraintId>,
}

/// A parallel search: the tree split at its first decisions into
/// subproblems (the same split for any number of threads), solved on a
/// rayon pool, merged in subproblem order.
///
/// Limits: the node limit is one budget for the split and every
/// subproblem (a shared counter, which each engine updates every 256 nodes
/// at most, so the search overshoots by less than 256 nodes per thread);
/// the time limit and the cancel token are checked by the split and by
/// every subproblem, also before it starts; the memory budget is divided
/// among the workers running at once; a subproblem stopped by a limit
/// makes the whole result incomplete.
struct Parallel<'m> {
    model: &'m Model,
    opts: SearchOptions,
    prep: Arc<Prepared>,
    shared: Arc<AtomicU64>,
    start: Instant,
    subs: Vec<Vec<(u32, Decision)>>,
    /// The split's own statistics, and the limit that stopped it.
    split_stats: Statistics,
    split_stop: Option<Limit>,
}

impl<'m> Parallel<'m> {
    fn new(model: &'m Model, opts: &SearchOptions) -> Parallel<'m> {
        Parallel::with_target(model, opts, SPLIT_TARGET, SPLIT_MAX_DEPTH)
    }

    /// The split into at least `target` subproblems, or all the paths of
    /// `max_depth` decisions (with `max_depth` 0, the whole tree as one).
    fn with_target(
        model: &'m Model,
        opts: &SearchOptions,
        target: usize,
        max_depth: usize,
    ) -> Parallel<'m> {
        let start = Instant::now();
        let prep = Arc::new(Prepared::new(model, opts.inference));
        let shared: Arc<AtomicU64> = Arc::new(AtomicU64::new(0));
        let mut o = opts.clone();
        o.limits.solutions = None;
        let mut paths = Vec::new();
        let mut split_stop = None;
        let mut split_stats = Statistics::default();
        for depth in 1..=max_depth {
            let mut e = Engine::new(model, prep.clone(), o.clone(), None);
            e.count_shortcut = false;
            e.set_shared_nodes(shared.clone());
            e.set_start_time(start);
            paths.clear();
            let mut deepest = 0;
            let stop = loop {
                match e.step(Some(depth)) {
                    Step::Solution => {
                        deepest = deepest.max(e.depth());
                        paths.push(e.path());
                    }
                    Step::Done => break None,
                    Step::Limit(l) => break Some(l),
                }
            };
            e.elapsed_into_stats();
            split_stats = e.stats.clone();
            split_stats.solutions = 0;
            if stop.is_some() {
                split_stop = stop;
                break;
            }
            if paths.len() >= target || deepest < depth {
                break;
            }
        }
        if paths.is_empty() && split_stop.is_none() {
            // Unsatisfiable at the root or tiny: one subproblem, the whole tree.
            paths.push(Vec::new());
        }
        Parallel {
            model,
            opts: o,
            prep,
            shared,
            start,
            subs: if split_stop.is_some() {
                Vec::new()
            } else {
                paths
            },
            split_stats,
            split_stop,
        }
    }

    /// Solves every subproblem with `solve` (which returns what it found
    /// and the limit that stopped it, if any).
    fn run<T: Send + Default>(
        &self,
        threads: usize,
        solve: impl Fn(&mut Engine<'_>) -> (T, Option<Limit>) + Sync,
    ) -> Vec<Part<T>> {
        self.run_indexed(threads, |_| false, |_, e| solve(e))
    }

    /// [`run`](Parallel::run) with each subproblem's index passed to
    /// `solve`; the subproblems `skip` accepts (asked when one is taken) are
    /// not replayed or searched, and report nothing.
    fn run_indexed<T: Send + Default>(
        &self,
        threads: usize,
        skip: impl Fn(usize) -> bool + Sync,
        solve: impl Fn(usize, &mut Engine<'_>) -> (T, Option<Limit>) + Sync,
    ) -> Vec<Part<T>> {
        // `threads` comes capped at the cores (`Search::workers`); no more
        // workers than subproblems either. The memory budget is shared:
        // each worker gets its part.
        let workers = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        }
        .min(self.subs.len())
        .max(1);
        // Each worker keeps its engine from one subproblem to the next
        // (`Engine::rewind`): building one costs more than searching many
        // small subproblems.
        let one = |slot: &mut Option<Engine<'m>>, (i, path): (usize, &Vec<(u32, Decision)>)| {
            if skip(i) {
                return Part::default();
            }
            let mut o = self.opts.clone();
            if let Some(m) = &mut o.limits.memory {
                *m /= workers as u64;
            }
            if let ValOrder::Random { seed } = o.val_order {
                o.val_order = ValOrder::Random {
                    seed: splitmix(seed ^ i as u64),
                };
            }
            let e = match slot {
                Some(e) if e.can_rewind() => {
                    e.rewind(o);
                    e
                }
                _ => slot.insert(Engine::new(self.model, self.prep.clone(), o, None)),
            };
            e.set_shared_nodes(self.shared.clone());
            e.set_start_time(self.start);
            let (found, stop) = if let Some(l) = e.check_limits_now() {
                (T::default(), Some(l))
            } else if e.replay(path).is_err() {
                (T::default(), e.limit_hit())
            } else {
                solve(i, e)
            };
            e.elapsed_into_stats();
            Part {
                found,
                stats: e.stats.clone(),
                stop,
                invalid: e.invalid,
            }
        };
        if workers == 1 {
            // One worker: the subproblems in order on this thread, one
            // engine for all (as a pool of one would), without starting a
            // pool thread and waiting for it.
            let mut slot = None;
            return self
                .subs
                .iter()
                .enumerate()
                .map(|sub| one(&mut slot, sub))
                .collect();
        }
        run_pool(workers, || {
            self.subs
                .par_iter()
                .enumerate()
                .map_init(|| None, one)
                .collect()
        })
    }

    /// Sums the parts in order: (count, statistics, first limit, first
    /// invalid constraint).
    fn merge<T>(
        &self,
        parts: &[Part<T>],
        count: impl Fn(&T) -> u128,
    ) -> (u128, Statistics, Option<Limit>, Option<crate::ConstraintId>) {
        let mut stats = self.split_stats.clone();
        let mut n = 0u128;
        let mut stop = self.split_stop;
        let mut invalid = None;
        for p in parts {
            n += count(&p.found);
            stats.merge(&p.stats);
            stop = stop.or(p.stop);
            invalid = invalid.or(p.invalid);
        }
        stats.time = self.start.elapsed();
        (n, stats, stop, invalid)
    }
}

fn run_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// An iterator over solutions (see [`Search::solutions`]).
pub struct Solutions<'a> {
    engine: Engine<'a>,
    stopped: Option<Limit>,
    done: bool,
    limit: Option<u64>,
    found: u64,
}

impl<'a> Solutions<'a> {
    fn new(
        model: &'a Model,
        prep: Arc<Prepared>,
        options: SearchOptions,
        observer: Option<&'a mut dyn SearchObserver>,
    ) -> Solutions<'a> {
        let limit = options.limits.solutions;
        let mut engine = Engine::new(model, prep, options, observer);
        engine.count_shortcut = false;
        Solutions {
            engine,
            stopped: None,
            done: false,
            limit,
            found: 0,
        }
    }

    /// Search counters so far.
    pub fn stats(&mut self) -> Statistics {
        self.engine.elapsed_into_stats();
        self.engine.stats.clone()
    }

    /// `None` while running or when the space was exhausted; the limit that
    /// stopped the search otherwise.
    pub fn stopped_by(&self) -> Option<Limit> {
        self.stopped
    }

    /// How the enumeration ended so far: `LimitReached` if a limit stopped it,
    /// else `Solved` or `Unsatisfiable` by whether anything was found.
    pub fn outcome(&self) -> Outcome {
        match self.engine.invalid {
            Some(c) => Outcome::Invalid(c),
            None => complete_outcome(self.stopped, self.found as u128),
        }
    }
}

impl Iterator for Solutions<'_> {
    type Item = Solution;
    fn next(&mut self) -> Option<Solution> {
        if self.done {
            return None;
        }
        if let Some(k) = self.limit {
            if self.found >= k {
                self.done = true;
                self.stopped = Some(Limit::Solutions);
                return None;
            }
        }
        let e = &mut self.engine;
        match e.step(None) {
            Step::Solution => match e.take_solution() {
                Some(v) => {
                    self.found += 1;
                    Some(Solution::new(v).named(e.model))
                }
                None => {
                    self.done = true;
                    None
                }
            },
            Step::Done => {
                self.done = true;
                None
            }
            Step::Limit(l) => {
                self.done = true;
                self.stopped = Some(l);
                None
            }
        }
    }
}
