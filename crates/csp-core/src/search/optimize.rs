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

use super::builder::check_var;
use super::engine::{splitmix, Engine, Prepared, Step};
use super::{complete_outcome, Decision, Parallel, Search, Solutions};
use crate::error::SearchError;
use crate::ids::{Value, VarId};
use crate::limits::{Limit, Outcome};
use crate::solution::Solution;
use crate::stats::Statistics;

/// One improving solution of an optimisation (see [`Optimum::improvements`]).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
    /// The proven bound: no solution has an objective better than it
    /// (below it when minimising, above it when maximising). The
    /// objective's declared bound until the search proves more; equal to
    /// [`objective`](Optimum::objective) once the best is proven optimal.
    /// `None` when there is no solution to bound.
    pub bound: Option<Value>,
    /// Is the best solution proven optimal (its objective equals the
    /// bound)? A search stopped by a limit may still have proven it.
    pub proven: bool,
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

    /// How far the best objective may be from the optimum, relative to
    /// it: `|objective − bound| / max(|objective|, 1)`; 0 when proven
    /// optimal, `None` without a solution.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 9))?;
    /// m.post((x + y).ge(7))?;
    /// let cost = m.define(3 * x + 2 * y)?;
    /// let r = Search::new(&m).minimize(cost)?;
    /// assert_eq!((r.objective, r.bound, r.gap()), (Some(14), Some(14), Some(0.0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gap(&self) -> Option<f64> {
        let (v, b) = (self.objective? as f64, self.bound? as f64);
        Some((v - b).abs() / v.abs().max(1.0))
    }

    /// Sets [`bound`](Optimum::bound) and [`proven`](Optimum::proven)
    /// from the outcome and the objective's declared domain, or the bound
    /// the run proved, if it set a tighter one (the learning search: the
    /// objective's bound at its root).
    pub(crate) fn settle(mut self, declared: &crate::Domain, minimize: bool) -> Optimum {
        let proved = self.bound;
        self.bound = match (self.outcome, self.objective) {
            (Outcome::Solved, Some(v)) => Some(v),
            (_, None) | (Outcome::Invalid(_), _) => None,
            (_, Some(v)) if minimize => declared
                .min()
                .map(|d| proved.map_or(d, |p| p.max(d).min(v))),
            (_, Some(v)) => declared
                .max()
                .map(|d| proved.map_or(d, |p| p.min(d).max(v))),
        };
        self.proven = self.objective.is_some() && self.bound == self.objective;
        self
    }
}

impl fmt::Display for Optimum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.outcome, self.objective) {
            (Outcome::Solved, Some(v)) => write!(f, "optimal: {v}"),
            (Outcome::LimitReached(_), Some(v)) if self.proven => {
                write!(f, "optimal: {v}")
            }
            (Outcome::LimitReached(l), Some(v)) => {
                write!(f, "best found: {v} (stopped by the {l}, not proven optimal")?;
                match (self.bound, self.gap()) {
                    (Some(b), Some(g)) => write!(f, "; bound {b}, gap {:.1}%)", g * 100.0),
                    _ => write!(f, ")"),
                }
            }
            (Outcome::LimitReached(l), None) => {
                write!(f, "unknown: no solution found before the {l}")
            }
            (o, _) => write!(f, "{o}"),
        }
    }
}

/// Large neighbourhood search (Shaw 1998) for [`Search::minimize_lns`]:
/// keep most of the best solution, free a random part of it, and search
/// the neighbourhood for a better one under a node budget; repeat.
///
/// A run is a pure function of the model, the options and `seed` as long
/// as it is bounded by `iterations` (a time limit may cut it at a
/// different place on another machine).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lns {
    /// The seed of the random choice of freed variables.
    pub seed: u64,
    /// The share of the variables freed in each neighbourhood, in (0, 1].
    pub relax: f64,
    /// The node budget of each neighbourhood search.
    pub nodes: u64,
    /// How many neighbourhoods to search.
    pub iterations: u64,
}

impl Default for Lns {
    fn default() -> Lns {
        Lns {
            seed: 1,
            relax: 0.3,
            nodes: 1000,
            iterations: 500,
        }
    }
}

/// The bound a strictly better solution than one of value `v` must meet
/// (`≤ v − 1` when minimising, `≥ v + 1` when maximising); `None` when no
/// better value exists.
fn next_bound(v: Value, minimize: bool) -> Option<Value> {
    if minimize {
        v.checked_sub(1)
    } else {
        v.checked_add(1)
    }
}

impl<'a> Search<'a> {
    /// [`minimize`](Search::minimize) by large neighbourhood search: a first
    /// solution by branch and bound, then `lns.iterations` neighbourhoods
    /// (the best solution with a random `relax` share of the variables —
    /// of `decision_vars` when given — freed), each searched by branch and
    /// bound within `lns.nodes` nodes. The result is "best found"
    /// (`LimitReached`) unless a neighbourhood that freed every variable
    /// was exhausted, which proves optimality; when every neighbourhood
    /// was searched without that proof, the outcome is
    /// `LimitReached(Limit::Iterations)`. The options' time and node
    /// limits bound the whole run (their outcome names them). No
    /// observer is called.
    ///
    /// ```
    /// use csp_core::{Domain, Lns, Model, Search};
    /// use csp_core::expr::sum;
    /// let mut m = Model::new();
    /// let xs = m.new_vars(8, Domain::range(0, 20)).unwrap();
    /// m.all_different(&xs).unwrap();
    /// let cost = m.define(sum(xs.iter().enumerate().map(|(i, &x)| (i as i32 + 1) * x))).unwrap();
    /// let r = Search::new(&m).minimize_lns(cost, Lns { iterations: 50, ..Lns::default() }).unwrap();
    /// let best = r.best.unwrap();
    /// m.check(best.values()).unwrap();
    /// assert!(r.objective.unwrap() >= 84); // 8·0 + 7·1 + … + 1·7, the optimum
    /// ```
    pub fn minimize_lns(&mut self, objective: VarId, lns: Lns) -> Result<Optimum, SearchError> {
        self.checked(objective, true, |s| s.run_lns(objective, true, lns))
    }

    /// [`maximize`](Search::maximize) by large neighbourhood search (see
    /// [`minimize_lns`](Search::minimize_lns)).
    pub fn maximize_lns(&mut self, objective: VarId, lns: Lns) -> Result<Optimum, SearchError> {
        self.checked(objective, false, |s| s.run_lns(objective, false, lns))
    }

    /// [`minimize`](Search::minimize) on `threads` threads (0: all cores),
    /// with the same answer for any thread count — the same optimal value
    /// *and the same solution* — when no limit stops it.
    ///
    /// With [`SearchOptions::learning`](super::SearchOptions::learning) on
    /// (the default), `threads` learning searches run on the whole model
    /// at once, a portfolio as in Chuffed and CP-SAT: the first has these
    /// options, the others vary the value phase, the restarts and the
    /// tie-breaks; they share the best objective value found, which each
    /// takes as a root fact at its next node, and the first to exhaust
    /// its space proves the optimum and stops the others. Then the
    /// sequential learning search with these options looks for its first
    /// solution with the optimal value, which is reported (so the solution
    /// does not depend on the timing of the threads). Under a limit, the
    /// best found so far is reported with the tightest bound any worker
    /// proved (`bound`, `gap`); the node limit counts the nodes of every
    /// worker. Learned nogoods are not shared. See `docs/learning.md`,
    /// "Parallel learning workers".
    ///
    /// Without learning, the tree is split into the subproblems of
    /// [`par_count`](Search::par_count) (the same split for any thread
    /// count). Phase 1 runs branch and bound on every subproblem, all
    /// sharing one bound (an atomic: a better solution anywhere prunes
    /// everywhere at the next decision), and finds the optimal value `v*`.
    /// Which solutions phase 1 meets depends on timing, so phase 2 searches
    /// the subproblems again for their first solution with objective `v*`
    /// and reports the one of the lowest subproblem index: a function of
    /// the model and the options only. It skips every subproblem after the
    /// lowest index known to hold a `v*` solution (at first the one where
    /// phase 1 met it), so every subproblem before the answer is still
    /// searched to its end.
    /// Under a limit, phase 2 is skipped and the best found so far is
    /// reported (then it may depend on timing). The workers are capped as
    /// [`par_count`](Search::par_count)'s are.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// use csp_core::expr::sum;
    /// let mut m = Model::new();
    /// let xs = m.new_vars(6, Domain::range(0, 9)).unwrap();
    /// m.all_different(&xs).unwrap();
    /// m.post(sum(&xs).ge(25)).unwrap();
    /// let cost = m.define(sum(xs.iter().enumerate().map(|(i, &x)| (i as i32 % 3 + 1) * x))).unwrap();
    /// for learning in [true, false] {
    ///     let one = Search::new(&m).learning(learning).par_minimize(cost, 1).unwrap();
    ///     let two = Search::new(&m).learning(learning).par_minimize(cost, 2).unwrap();
    ///     assert!(one.is_optimal() && two.is_optimal());
    ///     assert_eq!(one.objective, Search::new(&m).minimize(cost).unwrap().objective);
    ///     assert_eq!(one.best.unwrap().values(), two.best.unwrap().values());
    /// }
    /// ```
    pub fn par_minimize(
        &mut self,
        objective: VarId,
        threads: usize,
    ) -> Result<Optimum, SearchError> {
        self.checked(objective, true, |s| {
            s.par_optimize(objective, true, threads)
        })
    }

    /// [`maximize`](Search::maximize) on `threads` threads (see
    /// [`par_minimize`](Search::par_minimize)).
    pub fn par_maximize(
        &mut self,
        objective: VarId,
        threads: usize,
    ) -> Result<Optimum, SearchError> {
        self.checked(objective, false, |s| {
            s.par_optimize(objective, false, threads)
        })
    }

    fn par_optimize(self, objective: VarId, minimize: bool, threads: usize) -> Optimum {
        use std::sync::atomic::{AtomicI32, Ordering};
        let threads = self.workers(threads);
        if objective.index() >= self.model.num_vars() {
            return self.optimize(objective, minimize, |_, _| ControlFlow::Continue(()));
        }
        if self.options.learning && self.observer.is_none() {
            return super::learning::parallel::optimize(
                self.model,
                self.options,
                objective,
                minimize,
                threads,
            );
        }
        let started = std::time::Instant::now();
        let mut opts = self.options.clone();
        opts.restarts = super::Restarts::None;
        let par = Parallel::new(self.model, &opts);
        let none = if minimize { Value::MAX } else { Value::MIN };
        let shared = Arc::new(AtomicI32::new(none));
        // Phase 1: the optimal value, with a shared bound.
        let parts = par.run(threads, |e| {
            e.set_objective(objective, minimize);
            e.set_shared_bound(Arc::clone(&shared));
            let mut best: Option<(Value, Solution)> = None;
            if e.bound_here().is_err() {
                return (best, e.limit_hit());
            }
            loop {
                match e.step(None) {
                    Step::Solution => {
                        let Some(values) = e.take_solution() else {
                            return (best, None);
                        };
                        let s = Solution::new(values).named(e.model);
                        let v = s[objective];
                        let next = next_bound(v, minimize);
                        best = Some((v, s));
                        match next {
                            None => return (best, None),
                            Some(b) => {
                                e.bound = Some(b);
                                if minimize {
                                    shared.fetch_min(b, Ordering::Relaxed);
                                } else {
                                    shared.fetch_max(b, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                    Step::Done => return (best, None),
                    Step::Limit(l) => return (best, Some(l)),
                }
            }
        });
        let (_, mut stats, stop, invalid) = par.merge(&parts, |b| u128::from(b.is_some()));
        let better = |a: Value, b: Value| if minimize { a < b } else { a > b };
        let mut best: Option<(Value, Solution)> = None;
        for p in &parts {
            if let Some((v, s)) = &p.found {
                if best.as_ref().is_none_or(|(bv, _)| better(*v, *bv)) {
                    best = Some((*v, s.clone()));
                }
            }
        }
        let outcome = match invalid {
            Some(c) => Outcome::Invalid(c),
            None => complete_outcome(stop, u128::from(best.is_some())),
        };
        if let (Outcome::Solved, Some((v, _))) = (outcome, &best) {
            // Phase 2: the first solution of value v* in subproblem order.
            // Phase 1 met v* in subproblem `first` at the latest, so no
            // subproblem after it is searched, and none after the lowest
            // index known (so far) to hold a v* solution: every one below
            // the answer's index is still searched to the end, so the
            // answer does not depend on timing.
            let v = *v;
            let first = parts
                .iter()
                .position(|p| p.found.as_ref().is_some_and(|(pv, _)| *pv == v))
                .unwrap_or(usize::MAX);
            let first = std::sync::atomic::AtomicUsize::new(first);
            let skip = |i| i > first.load(Ordering::Relaxed);
            let second = par.run_indexed(threads, skip, |i, e| {
                e.set_objective(objective, minimize);
                e.bound = Some(v);
                if e.bound_here().is_err() {
                    return (None, e.limit_hit());
                }
                match e.step(None) {
                    Step::Solution => {
                        first.fetch_min(i, Ordering::Relaxed);
                        (
                            e.take_solution().map(|v| Solution::new(v).named(e.model)),
                            None,
                        )
                    }
                    Step::Done => (None, None),
                    Step::Limit(l) => (None, Some(l)),
                }
            });
            let (_, stats2, stop2, invalid2) = par.merge(&second, |s| u128::from(s.is_some()));
            stats.merge(&stats2);
            // A limit in phase 2 keeps phase 1's (optimal) solution.
            if let (None, None, Some(s)) =
                (invalid2, stop2, second.into_iter().find_map(|p| p.found))
            {
                best = Some((v, s));
            }
        }
        stats.time = started.elapsed();
        let improvements = best
            .iter()
            .map(|(v, _)| Improvement {
                objective: *v,
                nodes: stats.nodes,
                time: stats.time,
            })
            .collect();
        Optimum {
            outcome,
            objective: best.as_ref().map(|b| b.0),
            best: best.map(|b| b.1),
            bound: None,
            proven: false,
            improvements,
            stats,
        }
    }

    fn run_lns(self, objective: VarId, minimize: bool, lns: Lns) -> Optimum {
        let model = self.model;
        let options = self.options;
        let started = std::time::Instant::now();
        // The first solution.
        let first =
            Search::new(model)
                .options(options.clone())
                .optimize(objective, minimize, |_, _| ControlFlow::Break(()));
        let (Some(mut best), Some(mut value)) = (first.best.clone(), first.objective) else {
            return first;
        };
        if first.outcome == Outcome::Solved {
            return first; // no better value exists
        }
        let mut improvements = first.improvements.clone();
        let mut stats = first.stats.clone();
        let prep = Arc::new(Prepared::new(model, options.inference));
        let pool: Vec<u32> = if options.decision_vars.is_empty() {
            (0..model.num_vars() as u32)
                .filter(|&i| i as usize != objective.index())
                .collect()
        } else {
            options
                .decision_vars
                .iter()
                .map(|x| x.index() as u32)
                .collect()
        };
        let relax = if lns.relax.is_finite() {
            lns.relax.clamp(0.0, 1.0)
        } else {
            0.3
        };
        let keep_below = ((1.0 - relax) * (1u64 << 32) as f64) as u64;
        let mut rng = splitmix(lns.seed ^ 0x4C4E_5300);
        // Out of iterations: every neighbourhood was searched (each
        // within its own node budget) and none proved optimality. No
        // node limit of the caller's stopped it: say which budget did.
        let mut outcome = Outcome::LimitReached(Limit::Iterations);
        for _ in 0..lns.iterations {
            let mut opts = options.clone();
            opts.restarts = super::Restarts::None;
            opts.limits.nodes = Some(lns.nodes.max(1));
            // The caller's node limit bounds the whole run, the first
            // solution's search included.
            if let Some(n) = options.limits.nodes {
                let left = n.saturating_sub(stats.nodes);
                if left == 0 {
                    outcome = Outcome::LimitReached(Limit::Nodes);
                    break;
                }
                opts.limits.nodes = Some(left.min(lns.nodes.max(1)));
            }
            if let Some(t) = options.limits.time {
                let left = t.saturating_sub(started.elapsed());
                if left.is_zero() {
                    outcome = Outcome::LimitReached(Limit::Time);
                    break;
                }
                opts.limits.time = Some(left);
            }
            let path: Vec<(u32, Decision)> = pool
                .iter()
                .filter(|_| {
                    rng = splitmix(rng);
                    (rng >> 32) < keep_below
                })
                .map(|&i| (i, Decision::Assign(best.values()[i as usize])))
                .collect();
            let mut e = Engine::new(model, Arc::clone(&prep), opts, None);
            e.count_shortcut = false;
            e.set_objective(objective, minimize);
            e.bound = next_bound(value, minimize);
            if e.bound.is_none() {
                outcome = Outcome::Solved;
                break;
            }
            let feasible = e.replay_bounded(&path).is_ok();
            // An infeasible neighbourhood is exhausted at once (unless a
            // limit stopped the replay).
            let mut exhausted = !feasible && e.limit_hit().is_none();
            while feasible && !exhausted {
                match e.step(None) {
                    Step::Solution => {
                        let Some(values) = e.take_solution() else {
                            break;
                        };
                        let s = Solution::new(values).named(e.model);
                        value = s[objective];
                        improvements.push(Improvement {
                            objective: value,
                            nodes: stats.nodes + e.stats.nodes,
                            time: started.elapsed(),
                        });
                        best = s;
                        e.bound = next_bound(value, minimize);
                        if e.bound.is_none() {
                            break;
                        }
                    }
                    Step::Done => {
                        exhausted = true;
                        break;
                    }
                    Step::Limit(_) => break,
                }
            }
            e.elapsed_into_stats();
            if let Some(c) = e.invalid {
                outcome = Outcome::Invalid(c);
                stats.merge(&e.stats);
                break;
            }
            if e.limit_hit() == Some(Limit::Cancelled) {
                outcome = Outcome::LimitReached(Limit::Cancelled);
                stats.merge(&e.stats);
                break;
            }
            stats.merge(&e.stats);
            if e.bound.is_none() {
                outcome = Outcome::Solved; // the extreme value: nothing better
                break;
            }
            if exhausted && path.is_empty() {
                // Nothing was kept: the whole tree is searched, the bound
                // is optimal.
                outcome = Outcome::Solved;
                break;
            }
        }
        stats.time = started.elapsed();
        stats.solutions = improvements.len() as u128;
        Optimum {
            outcome,
            objective: Some(best[objective]),
            best: Some(best),
            bound: None,
            proven: false,
            improvements,
            stats,
        }
    }

    /// The least value of `objective` over all solutions, by branch and
    /// bound in one search: after each solution, every later decision also
    /// enforces `objective ≤ best − 1`, so propagation prunes with it.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 9)).unwrap();
    /// m.post((x + y).ge(7)).unwrap();
    /// let cost = m.define(3 * x + 2 * y).unwrap(); // a variable = the expression
    /// let r = Search::new(&m).minimize(cost).unwrap();
    /// assert!(r.is_optimal());
    /// assert_eq!(r.objective, Some(14)); // x = 0, y = 7
    /// ```
    pub fn minimize(&mut self, objective: VarId) -> Result<Optimum, SearchError> {
        self.checked(objective, true, |s| {
            s.optimize(objective, true, |_, _| ControlFlow::Continue(()))
        })
    }

    /// The greatest value of `objective` over all solutions.
    pub fn maximize(&mut self, objective: VarId) -> Result<Optimum, SearchError> {
        self.checked(objective, false, |s| {
            s.optimize(objective, false, |_, _| ControlFlow::Continue(()))
        })
    }

    /// [`minimize`](Search::minimize), calling `f` with each improving
    /// solution and its objective value; `ControlFlow::Break` stops the
    /// search (the outcome then says it was not proven optimal:
    /// `LimitReached(Limit::Solutions)`).
    pub fn minimize_each(
        &mut self,
        objective: VarId,
        f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
    ) -> Result<Optimum, SearchError> {
        self.checked(objective, true, |s| s.optimize(objective, true, f))
    }

    /// [`maximize`](Search::maximize) with a callback per improving solution.
    pub fn maximize_each(
        &mut self,
        objective: VarId,
        f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
    ) -> Result<Optimum, SearchError> {
        self.checked(objective, false, |s| s.optimize(objective, false, f))
    }

    /// Runs `run` on a fresh search with these options after checking the
    /// arguments and `objective`; the result's bound settled.
    fn checked(
        &mut self,
        objective: VarId,
        minimize: bool,
        run: impl FnOnce(Search<'_>) -> Optimum,
    ) -> Result<Optimum, SearchError> {
        self.validate()?;
        check_var(self.model, "objective", objective)?;
        let declared = self.model.domain(objective).clone();
        Ok(run(self.rerun()).settle(&declared, minimize))
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
            let r = self.solve_unchecked();
            return Optimum {
                outcome: r.outcome,
                best: None,
                objective: None,
                bound: None,
                proven: false,
                improvements: Vec::new(),
                stats: r.stats,
            };
        }
        if self.options.learning && self.observer.is_none() {
            return super::learning::optimize(self.model, self.options, objective, minimize, f);
        }
        let declared = self.model.domain(objective);
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
                    let s = Solution::new(values).named(it.engine.model);
                    let v = s[objective];
                    improvements.push(Improvement {
                        objective: v,
                        nodes: it.engine.stats.nodes,
                        time: it.engine.elapsed(),
                    });
                    let go_on = f(&s, v);
                    best = Some(s);
                    // The next solution must be strictly better; none is
                    // when the bound leaves the objective's declared domain.
                    let next = next_bound(v, minimize).filter(|&b| {
                        if minimize {
                            declared.min().is_none_or(|m| b >= m)
                        } else {
                            declared.max().is_none_or(|m| b <= m)
                        }
                    });
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
            bound: None,
            proven: false,
            improvements,
            stats: it.stats(),
        }
    }
}
