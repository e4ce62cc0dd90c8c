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

use std::ops::ControlFlow;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::ids::Value;
use crate::limits::{Limit, Limits, Outcome};
use crate::model::Model;
use crate::observer::SearchObserver;
use crate::solution::Solution;
use crate::stats::Statistics;

mod engine;
mod val_order;
mod var_order;

pub(crate) use engine::splitmix;
use engine::{Engine, Prepared, Step};

/// How much propagation runs after each decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Inference {
    /// Check each constraint once all its variables are fixed; prune nothing.
    None,
    /// Forward checking (the default): whenever a variable becomes fixed, each
    /// of its constraints prunes the other variables (see
    /// [`Constraint::forward_check`](crate::Constraint::forward_check)).
    #[default]
    ForwardChecking,
    /// Maintained arc consistency: every domain change re-runs the constraints
    /// on that variable (AC-3 style, a queue of constraints) to a fixpoint.
    Mac,
}

/// Which variable the search branches on next (among those with more than
/// one value; ties go to the lowest index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VarOrder {
    /// Declaration order.
    Input,
    /// Smallest domain first ("minimum remaining values", first-fail): the default.
    #[default]
    Mrv,
    /// Smallest domain size divided by degree (number of constraints on the variable).
    DomDeg,
    /// Smallest domain size divided by weighted degree: each constraint's weight
    /// starts at 1 and grows by 1 each time it wipes out a domain
    /// (Boussemart et al., "Boosting systematic search by weighting constraints", 2004).
    DomWdeg,
}

/// In which order a variable's values are tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValOrder {
    /// Smallest first (the default).
    #[default]
    Ascending,
    /// Largest first.
    Descending,
    /// Closest to the middle of the current domain first, the lower of two
    /// equally close values first.
    Middle,
    /// A seeded random order: the same seed gives the same search.
    Random {
        /// The seed.
        seed: u64,
    },
}

/// All the knobs of a backtracking search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// Propagation after each decision.
    pub inference: Inference,
    /// Variable choice.
    pub var_order: VarOrder,
    /// Value choice.
    pub val_order: ValOrder,
    /// Budgets.
    pub limits: Limits,
}

/// The result of [`Search::solve`].
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

/// The answer of [`Search::is_unique`].
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
///     .solve();
/// assert_eq!(r.solution.unwrap().values(), &[4, 3, 2, 1]);
/// ```
pub struct Search<'a> {
    model: &'a Model,
    options: SearchOptions,
    observer: Option<&'a mut dyn SearchObserver>,
}

impl std::fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("options", &self.options)
            .field("observer", &self.observer.is_some())
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
        }
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

    /// Finds the first solution.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Outcome, Search};
    /// let mut m = Model::new();
    /// let x = m.new_var(Domain::range(0, 1)).unwrap();
    /// let y = m.new_var(Domain::range(0, 1)).unwrap();
    /// m.not_equal(x, y, 0).unwrap();
    /// m.not_equal(x, y, 1).unwrap(); // x ≠ y + 1
    /// let r = Search::new(&m).solve();
    /// assert_eq!(r.outcome, Outcome::Solved);
    /// assert_eq!(r.solution.unwrap().values(), &[0, 1]);
    /// ```
    pub fn solve(self) -> SolveResult {
        let mut it = self.solutions();
        let solution = it.next();
        let outcome = match (&solution, it.stopped) {
            (Some(_), _) => Outcome::Solved,
            (None, Some(l)) => Outcome::LimitReached(l),
            (None, None) => Outcome::Unsatisfiable,
        };
        SolveResult {
            outcome,
            solution,
            stats: it.stats(),
        }
    }

    /// An iterator over all solutions, in search order. After it ends,
    /// [`Solutions::outcome`] tells whether a limit stopped it.
    pub fn solutions(self) -> Solutions<'a> {
        let prep = Arc::new(Prepared::new(self.model, self.options.inference));
        Solutions::new(self.model, prep, self.options, self.observer)
    }

    /// Calls `f` for each solution until it returns `ControlFlow::Break`.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(1, 3)).unwrap();
    /// m.all_different(&xs).unwrap();
    /// let mut firsts = Vec::new();
    /// Search::new(&m).for_each_solution(|s| {
    ///     firsts.push(s.values()[0]);
    ///     if firsts.len() == 4 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert_eq!(firsts, vec![1, 1, 2, 2]);
    /// ```
    pub fn for_each_solution(self, mut f: impl FnMut(&Solution) -> ControlFlow<()>) -> Report {
        let mut it = self.solutions();
        let mut count = 0u128;
        let mut broke = false;
        for s in it.by_ref() {
            count += 1;
            if f(&s).is_break() {
                broke = true;
                break;
            }
        }
        let outcome = match it.stopped {
            Some(l) => Outcome::LimitReached(l),
            None if broke || count > 0 => Outcome::Solved,
            None => Outcome::Unsatisfiable,
        };
        Report {
            outcome,
            count,
            stats: it.stats(),
        }
    }

    /// Counts all solutions without building them.
    ///
    /// With forward checking or arc consistency (and no observer), when one
    /// variable is left its remaining values are all solutions, so they are
    /// added at once instead of being tried one by one.
    pub fn count(self) -> Report {
        let prep = Arc::new(Prepared::new(self.model, self.options.inference));
        let mut e = Engine::new(self.model, prep, self.options, self.observer);
        let mut n = 0u128;
        let stop = loop {
            match e.step(None) {
                Step::Solution => {
                    e.note_solution();
                    n += 1;
                }
                Step::Done => break None,
                Step::Limit(l) => break Some(l),
            }
        };
        e.elapsed_into_stats();
        let count = n + e.counted;
        Report {
            outcome: complete_outcome(stop, count),
            count,
            stats: e.stats.clone(),
        }
    }

    /// Counts solutions, stopping at `k` (a count of `k` means "at least k").
    pub fn count_up_to(mut self, k: u64) -> Report {
        self.options.limits.solutions = Some(k);
        let mut it = self.solutions();
        let mut count = 0u128;
        while count < k as u128 {
            if it.next().is_none() {
                break;
            }
            count += 1;
        }
        let outcome = match it.stopped {
            Some(l) => Outcome::LimitReached(l),
            None if count == k as u128 && k > 0 => Outcome::LimitReached(Limit::Solutions),
            None => complete_outcome(None, count),
        };
        Report {
            outcome,
            count,
            stats: it.stats(),
        }
    }

    /// Is there exactly one solution? Stops at the second.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, Uniqueness};
    /// let mut m = Model::new();
    /// let x = m.new_var(Domain::range(1, 2)).unwrap();
    /// let y = m.new_var(Domain::range(1, 2)).unwrap();
    /// m.equal(x, y, 1).unwrap(); // x = y + 1
    /// assert!(matches!(Search::new(&m).is_unique(), Uniqueness::Unique(_)));
    /// ```
    pub fn is_unique(self) -> Uniqueness {
        let mut it = self.solutions();
        let a = it.next();
        let b = if a.is_some() { it.next() } else { None };
        match (a, b, it.stopped) {
            (Some(a), Some(b), _) => Uniqueness::Multiple(a, b),
            (_, _, Some(l)) => Uniqueness::Unknown(l),
            (Some(a), None, None) => Uniqueness::Unique(a),
            (None, _, None) => Uniqueness::None,
        }
    }

    /// Counts all solutions on `threads` threads (0: all cores).
    ///
    /// The tree is split at its first decisions into subproblems (the same
    /// split whatever the number of threads), which are solved on a rayon
    /// pool; so the count, and the statistics other than time, do not depend
    /// on `threads`. Observers are not called.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(6, Domain::range(1, 6)).unwrap();
    /// m.all_different(&xs).unwrap();
    /// assert_eq!(Search::new(&m).par_count(2).count, 720);
    /// ```
    pub fn par_count(self, threads: usize) -> Report {
        let model = self.model;
        let opts = self.options;
        let (subs, split_stats, start) = split(model, &opts);
        let prep = Arc::new(Prepared::new(model, opts.inference));
        let shared: Arc<AtomicU64> = Arc::new(AtomicU64::new(0));
        let solve_one = |(i, path): (usize, &Vec<(u32, Value)>)| {
            let mut o = opts.clone();
            if let ValOrder::Random { seed } = o.val_order {
                o.val_order = ValOrder::Random {
                    seed: splitmix(seed ^ i as u64),
                };
            }
            let mut e = Engine::new(model, prep.clone(), o, None);
            e.set_shared_nodes(shared.clone());
            e.set_start_time(start);
            let mut n = 0u128;
            let stop = if e.replay(path).is_err() {
                e.limit_hit()
            } else {
                loop {
                    match e.step(None) {
                        Step::Solution => {
                            e.note_solution();
                            n += 1;
                        }
                        Step::Done => break None,
                        Step::Limit(l) => break Some(l),
                    }
                }
            };
            e.elapsed_into_stats();
            (n + e.counted, e.stats.clone(), stop)
        };
        let results: Vec<(u128, Statistics, Option<Limit>)> = run_pool(threads, || {
            subs.par_iter().enumerate().map(solve_one).collect()
        });
        let mut stats = split_stats;
        let mut count = 0u128;
        let mut stop = None;
        for (n, s, l) in &results {
            count += n;
            stats.merge(s);
            stop = stop.or(*l);
        }
        stats.solutions = count;
        stats.time = start.elapsed();
        Report {
            outcome: complete_outcome(stop, count),
            count,
            stats,
        }
    }

    /// All solutions, found on `threads` threads (0: all cores), in the same
    /// order as a sequential search over the same split. A solution limit
    /// truncates the list.
    pub fn par_solutions(self, threads: usize) -> (Vec<Solution>, Report) {
        let model = self.model;
        let opts = self.options;
        let (subs, split_stats, start) = split(model, &opts);
        let prep = Arc::new(Prepared::new(model, opts.inference));
        let shared: Arc<AtomicU64> = Arc::new(AtomicU64::new(0));
        let solve_one = |(i, path): (usize, &Vec<(u32, Value)>)| {
            let mut o = opts.clone();
            o.limits.solutions = None;
            if let ValOrder::Random { seed } = o.val_order {
                o.val_order = ValOrder::Random {
                    seed: splitmix(seed ^ i as u64),
                };
            }
            let mut e = Engine::new(model, prep.clone(), o, None);
            e.count_shortcut = false;
            e.set_shared_nodes(shared.clone());
            e.set_start_time(start);
            let mut found = Vec::new();
            let stop = if e.replay(path).is_err() {
                e.limit_hit()
            } else {
                loop {
                    match e.step(None) {
                        Step::Solution => found.push(Solution::new(e.take_solution())),
                        Step::Done => break None,
                        Step::Limit(l) => break Some(l),
                    }
                }
            };
            e.elapsed_into_stats();
            (found, e.stats.clone(), stop)
        };
        let results: Vec<(Vec<Solution>, Statistics, Option<Limit>)> = run_pool(threads, || {
            subs.par_iter().enumerate().map(solve_one).collect()
        });
        let mut stats = split_stats;
        let mut all = Vec::new();
        let mut stop = None;
        for (sols, s, l) in results {
            all.extend(sols);
            stats.merge(&s);
            stop = stop.or(l);
        }
        if let Some(k) = opts.limits.solutions {
            if all.len() as u64 >= k {
                all.truncate(k as usize);
                stop = stop.or(Some(Limit::Solutions));
            }
        }
        let count = all.len() as u128;
        stats.solutions = count;
        stats.time = start.elapsed();
        (
            all,
            Report {
                outcome: complete_outcome(stop, count),
                count,
                stats,
            },
        )
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

/// Splits the tree: the decision paths of all consistent nodes at the
/// smallest depth that yields at least `SPLIT_TARGET` of them (solutions
/// found above that depth become subproblems of their own), in DFS order.
fn split(model: &Model, opts: &SearchOptions) -> (Vec<Vec<(u32, Value)>>, Statistics, Instant) {
    let start = Instant::now();
    let prep = Arc::new(Prepared::new(model, opts.inference));
    let mut o = opts.clone();
    o.limits = Limits {
        cancel: opts.limits.cancel.clone(),
        time: opts.limits.time,
        ..Limits::default()
    };
    let mut paths = Vec::new();
    let mut stats = Statistics::default();
    for depth in 1..=SPLIT_MAX_DEPTH {
        let mut e = Engine::new(model, prep.clone(), o.clone(), None);
        e.count_shortcut = false;
        paths.clear();
        let mut deepest = 0;
        while e.step(Some(depth)) == Step::Solution {
            deepest = deepest.max(e.depth());
            paths.push(e.path());
        }
        stats = Statistics {
            time: stats.time,
            ..Statistics::default()
        };
        if paths.len() >= SPLIT_TARGET || deepest < depth {
            break;
        }
    }
    if paths.is_empty() {
        // Unsatisfiable at the root or tiny: one subproblem, the whole tree.
        paths.push(Vec::new());
    }
    (paths, stats, start)
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
        complete_outcome(self.stopped, self.found as u128)
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
            Step::Solution => {
                self.found += 1;
                Some(Solution::new(e.take_solution()))
            }
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
