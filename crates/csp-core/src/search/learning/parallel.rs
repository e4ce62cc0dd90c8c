//! Parallel learning workers: a portfolio sharing the incumbent.
//!
//! [`Search::par_minimize`](crate::Search::par_minimize) and
//! `par_maximize` with [`SearchOptions::learning`] on run `N` learning
//! searches ([`Learner`]) on the whole model at once, as the parallel
//! modes of Chuffed, OR-Tools CP-SAT and Pumpkin do, instead of splitting
//! the tree (a split tree does not share what each part learns, and
//! restarts would leave the part). The workers differ (see
//! [`diversify`]), so that one of them is lucky early.
//!
//! They share the incumbent: the best objective value found by any worker
//! sits in an atomic, and its solution beside it (written first, so any
//! value read has its solution there). A worker that finds a solution
//! publishes it if it is better, then tightens its own bound to the best
//! value known (its own or another's). At each fixpoint (once per node),
//! a worker reads the atomic (one load); when another worker has found
//! better, it goes back to level 0 and writes the tighter bound there as
//! a root fact ([`Learner::tighten`], as after its own solution). Not at a
//! conflict: a unit nogood just asserted at level 0 would lose its pending
//! propagation in the backjump (the first version did that, and the tests
//! caught a wrong solution).
//! The nogoods it learned stay valid: each excludes no solution better
//! than a bound the worker had, and the bound only tightens.
//!
//! The first worker to exhaust its space (under the bound it has) proves
//! the incumbent optimal — or the model unsatisfiable, when no worker has
//! a solution — and cancels the others (an internal [`CancelToken`] in
//! their limits; the caller's token, if any, is watched by the calling
//! thread and passed on). A limit (the node budget is shared: it counts
//! the nodes of every worker; the time limit runs from the common start;
//! the memory budget is divided among the workers) stops every worker; the
//! result is then the best found, with the best proven bound: the tightest
//! of the workers' root bounds, each of which no solution better than the
//! incumbent passes.
//!
//! Phase 2, as in the ordinary `par_optimize`: which optimal solution
//! phase 1 meets depends on the timing of the threads, so once it has
//! proved the optimum `v*`, the sequential learning search with the
//! caller's options (worker 0) looks for the first solution of value `v*`
//! (the objective fixed to `v*` at the root), and that one is reported.
//! What is deterministic, then: the optimal value, the outcome and the
//! solution reported — the same for any thread count, 1 included — of a
//! run that no limit stops. Not deterministic: the improvements (which
//! worker found what, and when) and the counters; and under a limit, the
//! best found and the bound. A limit that stops phase 2 keeps phase 1's
//! solution (optimal, proven, but not the canonical one). Phase 2 costs a
//! satisfaction search with the objective fixed, usually far less than
//! the proof (measured in `docs/benchmarks.md`).
//!
//! Learned nogoods are not shared between workers.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Found, Learner};
use crate::domain::explained::Cause;
use crate::ids::{ConstraintId, Value, VarId};
use crate::limits::{CancelToken, Limit, Outcome};
use crate::literal::Literal;
use crate::model::Model;
use crate::search::engine::write_literal;
use crate::search::optimize::{Improvement, Optimum};
use crate::search::{complete_outcome, LearningOrder, Restarts, SearchOptions, ValOrder};
use crate::solution::Solution;
use crate::stats::Statistics;

/// What the workers share.
pub(crate) struct Shared {
    /// Minimising?
    minimize: bool,
    /// The best objective value found by any worker (`Value::MAX` when
    /// minimising, `Value::MIN` when maximising, while none is).
    best: AtomicI32,
    /// Its solution and every improvement so far.
    incumbent: Mutex<(Option<Solution>, Vec<Improvement>)>,
    /// Stops the workers (a proof, a limit, or the caller's token).
    cancel: CancelToken,
    /// Did a worker exhaust its space (prove the incumbent optimal, or
    /// the model unsatisfiable)?
    proved: AtomicBool,
    /// The first limit that stopped a worker (not the internal cancel).
    limit: Mutex<Option<Limit>>,
    /// A candidate solution failed a checker.
    invalid: Mutex<Option<ConstraintId>>,
    /// Nodes of every worker (the shared node budget).
    nodes: Arc<AtomicU64>,
    /// Improvements published (for the solution limit).
    published: AtomicU64,
    /// Tighter bounds taken from another worker (for the tests).
    imports: AtomicU64,
    /// Every worker ready to search.
    ready: std::sync::Barrier,
    start: Instant,
}

impl Shared {
    fn none(minimize: bool) -> Value {
        if minimize {
            Value::MAX
        } else {
            Value::MIN
        }
    }

    fn better(&self, a: Value, b: Value) -> bool {
        if self.minimize {
            a < b
        } else {
            a > b
        }
    }

    /// The best value found by any worker, if any.
    pub(crate) fn best(&self) -> Option<Value> {
        let v = self.best.load(Ordering::Acquire);
        (v != Shared::none(self.minimize)).then_some(v)
    }

    /// Offers a solution of value `v` found by a worker that has searched
    /// `nodes` so far; true when it improved the incumbent.
    fn publish(&self, s: Solution, v: Value) -> bool {
        let mut inc = self.incumbent.lock().unwrap_or_else(|e| e.into_inner());
        if self.best().is_some_and(|b| !self.better(v, b)) {
            return false;
        }
        inc.1.push(Improvement {
            objective: v,
            nodes: self.nodes.load(Ordering::Relaxed),
            time: self.start.elapsed(),
        });
        inc.0 = Some(s);
        // The solution is in place before its value can be read.
        self.best.store(v, Ordering::Release);
        self.published.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Records why a worker stopped (the first limit), and stops the
    /// others.
    fn stop(&self, limit: Option<Limit>) {
        if let Some(l) = limit {
            let mut first = self.limit.lock().unwrap_or_else(|e| e.into_inner());
            first.get_or_insert(l);
        }
        self.cancel.cancel();
    }
}

/// What [`Learner::poll_shared`] did.
pub(crate) enum Poll {
    /// No better bound elsewhere (or no sharing).
    Nothing,
    /// Took another worker's better bound (now at level 0, to propagate).
    Tightened,
    /// Took it, and the space under it is empty here: the incumbent is
    /// optimal.
    Exhausted,
}

impl Learner<'_> {
    /// At a fixpoint: takes the shared incumbent's bound when it is
    /// tighter than this worker's, going back to level 0 to write it
    /// there. Only at a fixpoint: every change of level 0 has then been
    /// propagated, so the backjump loses no pending event of the root.
    pub(super) fn poll_shared(&mut self) -> Poll {
        let Some(shared) = self.shared.as_ref() else {
            return Poll::Nothing;
        };
        let (Some(v), Some((_, minimize))) = (shared.best(), self.objective) else {
            return Poll::Nothing;
        };
        let tighter = match self.bound {
            None => true,
            Some(b) if minimize => v <= b,
            Some(b) => v >= b,
        };
        if !tighter {
            return Poll::Nothing;
        }
        shared.imports.fetch_add(1, Ordering::Relaxed);
        if let Some(n) = &mut self.lns {
            // Neighbourhoods are drawn around the best solution known.
            let inc = shared.incumbent.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(s) = &inc.0 {
                n.incumbent(s.values());
            }
        }
        if self.tighten(v) {
            Poll::Tightened
        } else {
            self.done = true;
            Poll::Exhausted
        }
    }
}

/// Worker `i`'s options, from the caller's `options`. Worker 0 keeps them
/// (`Learner::new` resolves their learning order), so one worker is the
/// sequential search. The others search by activity (even when the caller chose an
/// order: a portfolio keeps one worker on it) and vary, in turn:
/// * the value tried first when no phase is saved (the largest on odd
///   workers, the smallest on even ones);
/// * the restarts: geometric (100 conflicts, ×1.5) on workers 1, 4, …,
///   Luby with 50 conflicts per unit on 2, 5, …, Luby with 200 on 3, 6, …;
/// * from worker 2 on, the ties between equal activities, broken by a
///   seeded random order rather than by index (see
///   [`super::activity::Activity::shuffle`]).
pub(crate) fn diversify(options: &SearchOptions, i: usize) -> (SearchOptions, Option<u64>) {
    let mut o = options.clone();
    if i == 0 {
        return (o, None);
    }
    o.learning_order = LearningOrder::Activity;
    o.phases.clear();
    o.phase_orders.clear();
    o.val_order = if i % 2 == 1 {
        ValOrder::Descending
    } else {
        ValOrder::Ascending
    };
    o.restarts = match i % 3 {
        1 => Restarts::Geometric {
            base: 100,
            factor: 1.5,
        },
        2 => Restarts::Luby { scale: 50 },
        _ => Restarts::Luby { scale: 200 },
    };
    let seed = (i >= 2).then(|| crate::search::engine::splitmix(0x5EED ^ i as u64));
    (o, seed)
}

/// What a worker hands back.
struct Report {
    stats: Statistics,
    /// Its proven root bound on the objective.
    root_bound: Option<Value>,
}

/// One worker: branch and bound with learning, publishing and importing
/// the incumbent.
fn work(
    model: &Model,
    options: SearchOptions,
    index: usize,
    seed: Option<u64>,
    objective: VarId,
    shared: &Arc<Shared>,
) -> Report {
    let mut l = Learner::new(model, options);
    // The workers start together (building a learner takes longer than
    // the whole search of a small model).
    shared.ready.wait();
    if let Some(s) = seed {
        l.activity.shuffle(s);
    }
    if let Some(n) = &mut l.lns {
        // Each worker draws its own neighbourhoods.
        n.reseed(index as u64);
    }
    l.engine.set_start_time(shared.start);
    l.engine.set_shared_nodes(Arc::clone(&shared.nodes));
    l.set_objective(objective, shared.minimize);
    l.shared = Some(Arc::clone(shared));
    let solutions_cap = l.engine.opts.limits.solutions;
    loop {
        match l.next() {
            Found::Solution(values) => {
                let s = Solution::new(values).named(model);
                let v = s[objective];
                l.engine.flush_nodes();
                shared.publish(s, v);
                if solutions_cap.is_some_and(|k| shared.published.load(Ordering::Relaxed) >= k) {
                    shared.stop(Some(Limit::Solutions));
                    break;
                }
                // The best value known (at least as good as v).
                let best = shared.best().unwrap_or(v);
                if !l.tighten(best) {
                    shared.proved.store(true, Ordering::Release);
                    shared.stop(None);
                    break;
                }
            }
            Found::Done => {
                shared.proved.store(true, Ordering::Release);
                shared.stop(None);
                break;
            }
            Found::Limit(lim) => {
                // The internal cancel is not a limit of the caller's.
                if !(lim == Limit::Cancelled && shared.cancel.is_cancelled()) {
                    shared.stop(Some(lim));
                }
                break;
            }
            Found::Invalid => {
                let mut inv = shared.invalid.lock().unwrap_or_else(|e| e.into_inner());
                *inv = inv.or(l.engine.invalid);
                drop(inv);
                shared.stop(None);
                break;
            }
        }
    }
    l.engine.elapsed_into_stats();
    Report {
        stats: l.engine.stats.clone(),
        root_bound: l.root_bound,
    }
}

/// Branch and bound with `workers` learning workers sharing the
/// incumbent (see the module documentation); with one, the sequential
/// search.
pub(crate) fn optimize(
    model: &Model,
    options: SearchOptions,
    objective: VarId,
    minimize: bool,
    workers: usize,
) -> Optimum {
    optimize_counted(model, options, objective, minimize, workers).0
}

/// [`optimize`], with the number of bounds the workers took from each
/// other.
fn optimize_counted(
    model: &Model,
    options: SearchOptions,
    objective: VarId,
    minimize: bool,
    workers: usize,
) -> (Optimum, u64) {
    let start = Instant::now();
    let (mut r, imports) = if workers <= 1 {
        let r = super::optimize(model, options.clone(), objective, minimize, |_, _| {
            std::ops::ControlFlow::Continue(())
        });
        (r, 0)
    } else {
        portfolio(model, &options, objective, minimize, workers, start)
    };
    // Phase 2: the optimum's canonical solution.
    if let (Outcome::Solved, Some(v)) = (r.outcome, r.objective) {
        let left = options
            .limits
            .nodes
            .map(|n| n.saturating_sub(r.stats.nodes));
        if left != Some(0) {
            let (found, stats) = canonical(model, &options, objective, v, left, start);
            r.stats.merge(&stats);
            if let Some(s) = found {
                r.best = Some(s);
            }
        }
    }
    r.stats.time = start.elapsed();
    (r, imports)
}

/// The first solution of objective value `v` that the sequential
/// learning search (worker 0, the caller's options) finds, within `nodes`
/// nodes: a function of the model and the options, whatever the thread
/// count and the timing. `None` when a limit stops it.
fn canonical(
    model: &Model,
    options: &SearchOptions,
    objective: VarId,
    v: Value,
    nodes: Option<u64>,
    start: Instant,
) -> (Option<Solution>, Statistics) {
    let (mut o, _) = diversify(options, 0);
    o.limits.nodes = nodes;
    let mut l = Learner::new(model, o);
    l.engine.set_start_time(start);
    l.started = true;
    let mut found = None;
    if l.engine.start().is_ok() {
        // The objective fixed to `v` at the root, then the search.
        let ok = [Literal::Ge(objective, v), Literal::Le(objective, v)]
            .into_iter()
            .all(|lit| write_literal(&mut l.engine.store, Cause::Bound, lit).is_ok());
        if ok {
            if let Found::Solution(values) = l.next() {
                found = Some(Solution::new(values).named(model));
            }
        } else {
            l.engine.kernel.clear(&mut l.engine.store);
        }
    }
    l.engine.elapsed_into_stats();
    (found, l.engine.stats.clone())
}

/// Phase 1: `workers` learning workers sharing the incumbent, with the
/// number of bounds they took from each other.
fn portfolio(
    model: &Model,
    options: &SearchOptions,
    objective: VarId,
    minimize: bool,
    workers: usize,
    start: Instant,
) -> (Optimum, u64) {
    let shared = Arc::new(Shared {
        minimize,
        best: AtomicI32::new(Shared::none(minimize)),
        incumbent: Mutex::new((None, Vec::new())),
        cancel: CancelToken::new(),
        proved: AtomicBool::new(false),
        limit: Mutex::new(None),
        invalid: Mutex::new(None),
        nodes: Arc::new(AtomicU64::new(0)),
        published: AtomicU64::new(0),
        imports: AtomicU64::new(0),
        ready: std::sync::Barrier::new(workers),
        start,
    });
    let caller = options.limits.cancel.clone();
    let finished = AtomicU64::new(0);
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let main = std::thread::current();
        let handles: Vec<_> = (0..workers)
            .map(|i| {
                let (mut o, seed) = diversify(options, i);
                o.limits.cancel = Some(shared.cancel.clone());
                if let Some(m) = &mut o.limits.memory {
                    *m /= workers as u64;
                }
                let (shared, finished, main) = (&shared, &finished, main.clone());
                scope.spawn(move || {
                    let r = work(model, o, i, seed, objective, shared);
                    finished.fetch_add(1, Ordering::Release);
                    main.unpark();
                    r
                })
            })
            .collect();
        if let Some(token) = &caller {
            // The caller's token, passed on to the workers.
            while finished.load(Ordering::Acquire) < workers as u64 {
                if token.is_cancelled() && !shared.cancel.is_cancelled() {
                    shared.stop(Some(Limit::Cancelled));
                }
                std::thread::park_timeout(Duration::from_millis(2));
            }
        }
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    let mut stats = Statistics::default();
    let mut root_bound: Option<Value> = None;
    for r in &reports {
        stats.merge(&r.stats);
        if let Some(b) = r.root_bound {
            root_bound = Some(match root_bound {
                None => b,
                Some(a) if minimize => a.max(b),
                Some(a) => a.min(b),
            });
        }
    }
    stats.time = start.elapsed();
    let shared = Arc::try_unwrap(shared).unwrap_or_else(|_| unreachable!("workers joined"));
    let (best, improvements) = shared
        .incumbent
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let invalid = shared
        .invalid
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let proved = shared.proved.load(Ordering::Acquire);
    let limit = shared.limit.into_inner().unwrap_or_else(|e| e.into_inner());
    let outcome = match invalid {
        Some(c) => Outcome::Invalid(c),
        // A proof stands whatever else stopped the other workers.
        None if proved => complete_outcome(None, u128::from(best.is_some())),
        None => complete_outcome(
            Some(limit.unwrap_or(Limit::Cancelled)),
            u128::from(best.is_some()),
        ),
    };
    let imports = shared.imports.load(Ordering::Relaxed);
    let r = Optimum {
        outcome,
        objective: best.as_ref().map(|s| s[objective]),
        best,
        // Settled by the caller, as for the sequential search.
        bound: root_bound,
        proven: false,
        improvements,
        stats,
    };
    (r, imports)
}

/// Runs [`optimize`] with exactly `workers` workers, whatever the cores,
/// and returns the result with the number of bounds the workers took from
/// each other (tests). The result's bound and `proven` are settled as
/// `par_minimize` settles them.
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn par_learning_optimize(
    model: &Model,
    options: SearchOptions,
    objective: VarId,
    minimize: bool,
    workers: usize,
) -> (Optimum, u64) {
    let (r, imports) = optimize_counted(model, options, objective, minimize, workers);
    (r.settle(model.domain(objective), minimize), imports)
}
