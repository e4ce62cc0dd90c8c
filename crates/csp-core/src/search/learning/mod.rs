//! The learning search: conflict-driven nogood learning over domain
//! literals (lazy clause generation), for [`Search::solve`](super::Search::solve)
//! and branch and bound, when [`SearchOptions::learning`] is on.
//!
//! The loop is MiniSat's `search()` (Eén and Sörensson, 2003) over the
//! explained kernel:
//! 1. propagate to a fixpoint: the kernel's propagators in explaining mode
//!    (every change goes on the explanation trail with its reason), then
//!    the learned nogoods ([`nogoods`]), again until neither changes
//!    anything;
//! 2. on a conflict, analyse it to the first unique implication point
//!    ([`analysis`]), learn the nogood, backjump to the level where its
//!    clause is unit and make its asserting literal true there, with the
//!    clause as the reason; a conflict at level 0 ends the search;
//! 3. at a fixpoint, restart if the run's conflicts reached its cutoff
//!    (Luby by default); otherwise decide: first the open assumptions of
//!    the run's neighbourhood, if any ([`lns`], `SearchOptions::lns`),
//!    one level each; then the open variable of highest
//!    activity ([`activity`]), `x = v` on its saved phase (or smallest
//!    value) for domains of at most [`SPLIT_ABOVE`] values, else a bound
//!    split `x ≤ mid` / `x ≥ mid + 1` towards the saved phase. No
//!    variable left open: a solution.
//!
//! Optimisation is branch and bound with the bound as a root fact: after a
//! solution of value `v`, the search goes back to level 0 and writes
//! `objective ≤ v − 1` (when minimising) there as a
//! [`Cause::Bound`] entry. Learned nogoods are kept. A nogood learned
//! under a bound may rest on it (level-0 entries are left out of
//! nogoods), so it is only valid under that bound; since the bound only
//! tightens, every later node is under it, and every nogood stays valid
//! for the rest of the search. Exhausting the space under the bound
//! proves the last solution optimal.
//!
//! The options' `decision_vars`, when given, are branched on first (by
//! activity among them), then the other variables. With
//! [`LearningOrder::User`] the decisions follow the caller's orders
//! instead, as the ordinary engine would choose them
//! (`Engine::select_var`, `Engine::first_decision`), with no restarts
//! unless the options ask for them.
//!
//! Defaults (documented in `docs/learning.md`): activity decay 0.95,
//! phase saving on, Luby restarts with 100 conflicts per unit unless the
//! options ask for other restarts ([`Restarts::Geometric`], or
//! [`Restarts::Luby`] with another scale).

pub(crate) mod activity;
pub(crate) mod analysis;
pub(crate) mod lns;
pub(crate) mod nogoods;
pub(crate) mod parallel;
pub mod trace;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use activity::Activity;
use analysis::Analyzer;
use lns::{Assume, Neighbourhoods};
use nogoods::Nogoods;

use super::engine::{write_literal, Engine, Prepared};
use super::optimize::{Improvement, Optimum};
use super::{
    complete_outcome, Decision, LearningOrder, Restarts, SearchOptions, SolveResult, ValOrder,
};
use crate::domain::explained::Cause;
use crate::explain::failure_premises;
use crate::ids::{Value, VarId};
use crate::limits::{Limit, Outcome};
use crate::literal::Literal;
use crate::model::Model;
use crate::propagation::kernel::Stop;
use crate::solution::Solution;

/// Domains of more values than this are branched on by bound splits
/// rather than by values.
pub(crate) const SPLIT_ABOVE: u64 = 64;

/// The restarts a learning search makes when the options ask for none:
/// Luby with 100 conflicts per unit (Chuffed's and MiniSat's scale).
pub(crate) const DEFAULT_RESTARTS: Restarts = Restarts::Luby { scale: 100 };

/// The number of learned clauses kept before the first reduction; each
/// reduction, made at the first fixpoint past the threshold, keeps the
/// clauses of LBD at most 2 and half of the threshold of the others, and
/// raises the threshold by 10%, up to [`MAX_LEARNTS_CAP`].
pub(crate) const FIRST_MAX_LEARNTS: usize = 2000;

/// The threshold stops growing here, so that the store stays bounded on
/// long runs (besides the glue clauses, LBD ≤ 2, which are always kept).
pub(crate) const MAX_LEARNTS_CAP: usize = 20_000;

/// What [`Learner::next`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A solution (checked against every constraint).
    Solution(Vec<Value>),
    /// The space (under the bound) is exhausted.
    Done,
    /// A limit stopped the search.
    Limit(Limit),
    /// A candidate solution failed a checker (see `Engine::invalid`).
    Invalid,
}

/// Why propagation stopped short of a fixpoint.
enum Clash {
    /// A propagator of the kernel failed (its failure is on the trail).
    Kernel,
    /// Learned clause `c` has every literal false.
    Nogood(u32),
    /// A limit stopped propagation.
    Limit,
}

/// A nogood learned, for the tests: the clause and the objective bound in
/// force when it was learned (it excludes no solution within that bound).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedNogood {
    /// The clause: at least one of these literals holds in every solution
    /// within the bound.
    pub clause: Vec<Literal>,
    /// The objective bound in force (`≤` when minimising, `≥` when
    /// maximising), `None` for satisfaction or before the first solution.
    pub bound: Option<Value>,
    /// Literals the minimisation removed from the clause.
    pub removed: usize,
    /// Of those, the literals only the recursive minimisation removes
    /// (some literal behind their reasons is not in the clause).
    pub removed_deep: usize,
}

/// The size of the nogood store at one restart, for the memory
/// measurement of the deletion policy (`learning_memory` example).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemorySample {
    /// Conflicts so far.
    pub conflicts: u64,
    /// Learned clauses kept (unit clauses are root facts, not kept).
    pub clauses: usize,
    /// Literals in those clauses.
    pub literals: usize,
    /// Literal ids made so far (never freed).
    pub literal_ids: usize,
    /// Taken just after a reduction (else just before the restart's
    /// reduction, if any).
    pub reduced: bool,
}

/// The learning engine: the explained kernel, the nogoods and the
/// heuristics.
pub(crate) struct Learner<'a> {
    pub(crate) engine: Engine<'a>,
    nogoods: Nogoods,
    activity: Activity,
    analyzer: Analyzer,
    /// Is the variable a branching candidate?
    candidate: Vec<bool>,
    restarts: Restarts,
    /// Restart run, conflicts in it, its cutoff.
    run: (u64, u64, u64),
    objective: Option<(VarId, bool)>,
    bound: Option<Value>,
    started: bool,
    done: bool,
    /// Every nogood learned, when asked for (tests).
    pub(crate) log: Option<Vec<LearnedNogood>>,
    /// The store's size at each restart, when asked for.
    pub(crate) memory: Option<Vec<MemorySample>>,
    /// The conflicts analysed, step by step, when asked for: the search
    /// stops once `trace_limit` are there.
    pub(crate) traces: Option<Vec<trace::ConflictTrace>>,
    trace_limit: usize,
    /// Nogoods learned.
    pub(crate) learned: u64,
    /// Learned clauses kept before the next reduction (see
    /// [`Nogoods::reduce`]); grows by 10% at each, up to
    /// [`MAX_LEARNTS_CAP`].
    pub(crate) max_learnts: usize,
    /// The length of the root's trail when the store was last simplified
    /// (clauses satisfied there dropped, literals false there removed).
    simplified: usize,
    /// The kernel's propagation count before which the store is not
    /// simplified at the root again: the count at the last simplification
    /// plus the literals of the clauses then (as MiniSat's `simpDB_props`),
    /// so that simplifying, which reads every clause, costs no more than
    /// the propagation between two. Without it, a search that learns a
    /// root fact at every few conflicts rewrote the whole store each time.
    simplify_after: u64,
    /// The objective's bound at the last fixpoint of level 0 (`min` when
    /// minimising): no better solution lies beyond it.
    root_bound: Option<Value>,
    /// The incumbent shared with other workers (`par_minimize`), read at
    /// each fixpoint ([`parallel`]).
    shared: Option<Arc<parallel::Shared>>,
    /// Neighbourhoods around the incumbent on every other restart run,
    /// when [`SearchOptions::lns`] asks for them ([`lns`]).
    lns: Option<Neighbourhoods>,
}

impl<'a> Learner<'a> {
    /// A learning search over `model` with `options` (explaining mode is
    /// turned on; the variable order is that of `options.learning_order`).
    pub(crate) fn new(model: &'a Model, mut options: SearchOptions) -> Learner<'a> {
        options.explain = true;
        options.learning_order = options.effective_learning_order();
        let restarts = match (options.restarts, options.learning_order) {
            (Restarts::None, LearningOrder::Activity) => DEFAULT_RESTARTS,
            (r, _) => r,
        };
        let prep = Arc::new(Prepared::new(model, options.inference));
        let mut engine = Engine::new(model, prep, options, None);
        engine.reorder_ties = true;
        let n = model.num_vars();
        let vars: Vec<u32> = (0..n as u32).collect();
        let mut activity = Activity::new(n, &vars);
        let first: Vec<u32> = engine
            .opts
            .decision_vars
            .iter()
            .map(|x| x.index() as u32)
            .collect();
        activity.prefer(&first);
        let lns = engine.opts.lns.then(|| {
            let pool = if first.is_empty() { vars } else { first };
            Neighbourhoods::new(pool, 1)
        });
        Learner {
            engine,
            nogoods: Nogoods::new(n),
            activity,
            analyzer: Analyzer::default(),
            candidate: vec![true; n],
            restarts,
            run: (0, 0, restarts.cutoff(0)),
            objective: None,
            bound: None,
            started: false,
            done: false,
            log: None,
            memory: None,
            traces: None,
            trace_limit: 0,
            learned: 0,
            max_learnts: FIRST_MAX_LEARNTS,
            simplified: 0,
            simplify_after: 0,
            root_bound: None,
            shared: None,
            lns,
        }
    }

    /// Optimises `x` (minimising if `minimize`).
    pub(crate) fn set_objective(&mut self, x: VarId, minimize: bool) {
        self.objective = Some((x, minimize));
        if let Some(n) = &mut self.lns {
            n.leave_out(x.index() as u32);
            // Neighbourhoods are drawn at restarts: they need some (the
            // caller's order has none unless asked for).
            if self.restarts == Restarts::None {
                self.restarts = DEFAULT_RESTARTS;
                self.run.2 = self.restarts.cutoff(self.run.0);
            }
        }
    }

    /// The number of learned clauses kept.
    #[allow(dead_code)]
    pub(crate) fn num_nogoods(&self) -> usize {
        self.nogoods.clauses.len()
    }

    /// Runs to the next solution, the end of the space or a limit.
    pub(crate) fn next(&mut self) -> Found {
        if self.done {
            return Found::Done;
        }
        if !self.started {
            self.started = true;
            match self.engine.start() {
                Ok(()) => {}
                Err(Stop::Limit) => {
                    self.done = true;
                    return Found::Limit(self.engine.limit_hit().unwrap_or(Limit::Cancelled));
                }
                Err(Stop::Conflict) => {
                    self.done = true;
                    return Found::Done;
                }
            }
        }
        loop {
            match self.propagate() {
                Ok(()) => {
                    let root = self.engine.store.level() == 0;
                    if root {
                        self.note_root_bound();
                    }
                    let len = self.engine.store.ex.entries.len();
                    // Glue clauses are kept, so they do not count: each
                    // reduction leaves half the threshold to fill.
                    let over = self.nogoods.num_deletable() > self.max_learnts;
                    let simplify = root
                        && len > self.simplified
                        && self.engine.kernel.propagations >= self.simplify_after;
                    if over || simplify {
                        if self.reduce(over, root).is_err() {
                            self.done = true;
                            return Found::Done;
                        }
                        if self.engine.store.ex.entries.len() > len {
                            continue; // new root facts to propagate
                        }
                    }
                }
                Err(Clash::Limit) => {
                    self.done = true;
                    return Found::Limit(self.engine.limit_hit().unwrap_or(Limit::Cancelled));
                }
                Err(clash) => {
                    if !self.resolve(clash) {
                        self.done = true;
                        return Found::Done;
                    }
                    if self
                        .traces
                        .as_ref()
                        .is_some_and(|t| t.len() >= self.trace_limit)
                    {
                        // Traced enough conflicts: stop here.
                        self.done = true;
                        return Found::Limit(Limit::Cancelled);
                    }
                    continue;
                }
            }
            // At a fixpoint: another worker's better bound, if any.
            match self.poll_shared() {
                parallel::Poll::Nothing => {}
                parallel::Poll::Tightened => continue,
                parallel::Poll::Exhausted => return Found::Done,
            }
            // A restart, when this run's conflicts reached its cutoff.
            if self.run.1 >= self.run.2 && self.engine.store.level() > 0 {
                self.backjump(0);
                self.run.0 += 1;
                self.run = (self.run.0, 0, self.restarts.cutoff(self.run.0));
                self.engine.stats.restarts += 1;
                self.sample_memory(false);
                if let Some(n) = &mut self.lns {
                    // Every other run searches a neighbourhood.
                    n.end(false);
                    if self.run.0 % 2 == 1 {
                        n.draw(&self.engine.store);
                    }
                }
                continue;
            }
            // The neighbourhood's assumptions come first.
            if let Some(n) = &mut self.lns {
                match n.next_assumption(&self.engine.store) {
                    Assume::Done => {}
                    Assume::Decide(lit) => {
                        self.engine.stats.nodes += 1;
                        self.engine.store.push_level();
                        let r = self.engine.decision_write(lit);
                        debug_assert!(r.is_ok());
                        continue;
                    }
                    Assume::Exhausted => {
                        // Nothing better in it: the rest of the run
                        // searches the whole space.
                        n.end(true);
                        self.backjump(0);
                        continue;
                    }
                }
            }
            let Some(x) = self.pick() else {
                self.engine.stats.solutions += 1;
                // Back to the root next time (the caller tightens the
                // bound or stops).
                return match self.engine.take_solution() {
                    Some(v) => {
                        if let Some(n) = &mut self.lns {
                            n.incumbent(&v);
                        }
                        Found::Solution(v)
                    }
                    None => {
                        self.done = true;
                        Found::Invalid
                    }
                };
            };
            self.engine.stats.nodes += 1;
            if self.engine.stats.nodes >= self.engine.next_check {
                if let Some(l) = self.engine.check_limits() {
                    self.done = true;
                    return Found::Limit(l);
                }
            }
            let lit = self.decision(x);
            self.engine.store.push_level();
            let depth = self.engine.store.level() as u64;
            if depth > self.engine.stats.max_depth {
                self.engine.stats.max_depth = depth;
            }
            // The literal is not false (its value is in the domain), so
            // the write cannot fail.
            let r = self.engine.decision_write(lit);
            debug_assert!(r.is_ok());
        }
    }

    /// At a fixpoint: forgets the clauses least likely to be of use when
    /// the store is `over` its threshold (the half of highest LBD, glue
    /// clauses kept), and at the `root` drops the clauses its facts
    /// satisfy and the literals they falsify. `Err` when a clause is
    /// false at the root.
    fn reduce(&mut self, over: bool, root: bool) -> Result<(), u32> {
        let keep = if over {
            self.max_learnts / 2
        } else {
            usize::MAX
        };
        self.nogoods.reduce(&mut self.engine.store, keep, root)?;
        if root {
            self.simplified = self.engine.store.ex.entries.len();
            self.simplify_after =
                self.engine.kernel.propagations + self.nogoods.clauses.num_literals() as u64;
        }
        if over {
            let grown = self.max_learnts + self.max_learnts / 10;
            self.max_learnts = grown.min(MAX_LEARNTS_CAP.max(self.max_learnts));
            self.sample_memory(true);
        }
        Ok(())
    }

    /// Records the store's size (when asked for).
    fn sample_memory(&mut self, reduced: bool) {
        if let Some(m) = &mut self.memory {
            m.push(MemorySample {
                conflicts: self.engine.stats.failures,
                clauses: self.nogoods.clauses.len(),
                literals: self.nogoods.num_literals(),
                literal_ids: self.nogoods.num_literal_ids(),
                reduced,
            });
        }
    }

    /// After a solution of value `v`: back to the root, where the
    /// objective must now be better than `v`. False when no better value
    /// can exist (the last solution is optimal).
    pub(crate) fn tighten(&mut self, v: Value) -> bool {
        let Some((x, minimize)) = self.objective else {
            return false;
        };
        let b = if minimize {
            v.checked_sub(1)
        } else {
            v.checked_add(1)
        };
        let Some(b) = b else {
            self.done = true;
            return false;
        };
        self.bound = Some(b);
        self.backjump(0);
        let lit = if minimize {
            Literal::Le(x, b)
        } else {
            Literal::Ge(x, b)
        };
        if write_literal(&mut self.engine.store, Cause::Bound, lit).is_err() {
            self.engine.kernel.clear(&mut self.engine.store);
            self.done = true;
            return false;
        }
        if let Some(n) = &mut self.lns {
            // The next neighbourhood, around the new incumbent.
            n.draw(&self.engine.store);
        }
        true
    }

    /// At a fixpoint of level 0: the objective's bound there is proven
    /// (no solution better than the incumbent goes beyond it).
    fn note_root_bound(&mut self) {
        if let Some((x, minimize)) = self.objective {
            let i = x.index();
            self.root_bound = Some(if minimize {
                self.engine.store.min(i)
            } else {
                self.engine.store.max(i)
            });
        }
    }

    /// Propagates the kernel and the nogoods to a common fixpoint.
    fn propagate(&mut self) -> Result<(), Clash> {
        loop {
            match self.engine.propagate() {
                Ok(()) => {}
                Err(Stop::Limit) => return Err(Clash::Limit),
                Err(Stop::Conflict) => return Err(Clash::Kernel),
            }
            match self.nogoods.propagate(&mut self.engine.store) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(c) => {
                    self.engine.kernel.clear(&mut self.engine.store);
                    return Err(Clash::Nogood(c));
                }
            }
        }
    }

    /// Handles a conflict: learns a nogood, backjumps and asserts it.
    /// False when the conflict proves that nothing (under the bound) is
    /// left.
    fn resolve(&mut self, mut clash: Clash) -> bool {
        loop {
            self.engine.stats.failures += 1;
            self.run.1 += 1;
            if self.engine.store.level() == 0 {
                return false;
            }
            let conflict = self.conflict_literals(&clash);
            if self
                .traces
                .as_ref()
                .is_some_and(|t| t.len() < self.trace_limit)
            {
                self.analyzer.trace = Some(self.new_trace(&clash));
            }
            let learnt = self
                .analyzer
                .analyze(&mut self.engine, &conflict, &mut self.activity);
            if let (Some(t), Some(traces), Some(_)) =
                (self.analyzer.trace.take(), &mut self.traces, &learnt)
            {
                traces.push(t);
            }
            let Some(learnt) = learnt else {
                return false;
            };
            self.activity.decay();
            self.learned += 1;
            if let Some(log) = &mut self.log {
                log.push(LearnedNogood {
                    clause: learnt.lits.clone(),
                    bound: self.bound,
                    removed: self.analyzer.removed,
                    removed_deep: self.analyzer.deep,
                });
            }
            self.backjump(learnt.level);
            self.engine.stats.backtracks += 1;
            if learnt.lits.len() == 1 {
                if !Nogoods::assert_root(&mut self.engine.store, learnt.lits[0]) {
                    return false;
                }
                return true;
            }
            let c = self
                .nogoods
                .add(&self.engine.store, &learnt.lits, learnt.lbd);
            match self.nogoods.visit(&mut self.engine.store, c) {
                nogoods::Visit::Conflict => clash = Clash::Nogood(c),
                _ => return true,
            }
        }
    }

    /// An empty trace of the conflict `clash`, for the analysis to fill.
    fn new_trace(&self, clash: &Clash) -> trace::ConflictTrace {
        let failed = match *clash {
            Clash::Nogood(_) => trace::Origin::Nogood,
            _ => match self.engine.store.ex.failure {
                Some(f) => analysis::origin(&self.engine, f.cause),
                None => trace::Origin::Unexplained,
            },
        };
        trace::ConflictTrace {
            number: self.engine.stats.failures,
            level: 0,
            failed,
            conflict: Vec::new(),
            entries: Vec::new(),
            steps: Vec::new(),
            uip: trace::TracedEntry {
                lit: Literal::Eq(VarId(0), 0),
                level: 0,
                origin: trace::Origin::Unexplained,
            },
            dropped: Vec::new(),
            clause: Vec::new(),
            backjump: 0,
        }
    }

    /// The literals (true now) that the conflict says cannot hold together.
    fn conflict_literals(&mut self, clash: &Clash) -> Vec<Literal> {
        let mut out = Vec::new();
        match *clash {
            Clash::Nogood(c) => {
                out.extend(self.nogoods.clauses.get(c).iter().map(|l| l.lit.negate()));
            }
            Clash::Kernel | Clash::Limit => {
                self.engine.store.ex.chain();
                let at = self.engine.store.ex.entries.len();
                match self.engine.store.ex.failure {
                    Some(f) => failure_premises(&mut self.engine, &f, at, &mut out),
                    None => {
                        // No record (cannot happen while explaining): the
                        // decisions themselves, which imply everything.
                        out.extend(
                            self.engine
                                .store
                                .ex
                                .entries
                                .iter()
                                .filter(|e| e.cause() == Cause::Decision)
                                .map(|e| e.lit()),
                        );
                    }
                }
            }
        }
        out
    }

    /// Undoes every level above `level`, saving the phases of the
    /// variables fixed there and putting them back among the candidates.
    fn backjump(&mut self, level: usize) {
        let store = &self.engine.store;
        let entries = &store.ex.entries;
        let mut k = entries.len();
        while k > 0 && entries[k - 1].level() as usize > level {
            k -= 1;
            let x = entries[k].lit().var().index();
            if store.size(x) == 1 {
                self.activity.phase[x] = Some(store.min(x));
            }
            if self.candidate[x] {
                self.activity.insert(x as u32);
            }
        }
        self.engine.kernel.clear(&mut self.engine.store);
        self.engine.store.backtrack_to(level);
        self.nogoods.backtracked(self.engine.store.ex.entries.len());
        self.analyzer
            .backtracked(self.engine.store.ex.entries.len());
        if let Some(n) = &mut self.lns {
            n.backtracked();
        }
    }

    /// The open candidate of highest activity (`None`: every variable is
    /// fixed).
    fn pick(&mut self) -> Option<usize> {
        if self.engine.opts.learning_order == LearningOrder::User {
            return self.engine.select_var();
        }
        while let Some(x) = self.activity.pop() {
            if self.engine.store.size(x as usize) > 1 {
                return Some(x as usize);
            }
        }
        // The heap holds every open candidate; non-candidates are fixed
        // by propagation or searched below.
        (0..self.engine.store.len()).find(|&i| self.engine.store.size(i) > 1)
    }

    /// The decision on open variable `x`.
    fn decision(&mut self, x: usize) -> Literal {
        let var = VarId(x as u32);
        if self.engine.opts.learning_order == LearningOrder::User {
            // An open variable has a first value and two non-empty halves.
            return match self.engine.first_decision(x) {
                Some(Decision::AtMost(v)) => Literal::Le(var, v),
                Some(Decision::AtLeast(v)) => Literal::Ge(var, v),
                Some(Decision::Assign(v)) => Literal::Eq(var, v),
                None => Literal::Eq(var, self.engine.store.min(x)),
            };
        }
        let s = &self.engine.store;
        let (lo, hi) = (s.min(x), s.max(x));
        let down = !matches!(
            self.engine.opts.val_order,
            ValOrder::Descending | ValOrder::ReverseSplit | ValOrder::BinaryMax
        );
        let phase = self.activity.phase[x].filter(|&v| s.contains(x, v));
        if s.size(x) <= SPLIT_ABOVE {
            let v = phase.unwrap_or(if down { lo } else { hi });
            return Literal::Eq(var, v);
        }
        let mid = ((lo as i64 + hi as i64).div_euclid(2)) as Value;
        let low_half = match phase {
            Some(v) => v <= mid,
            None => down,
        };
        if low_half {
            Literal::Le(var, mid)
        } else {
            Literal::Ge(var, mid + 1)
        }
    }
}

/// [`Search::solve`](super::Search::solve) with learning.
pub(crate) fn solve(model: &Model, options: SearchOptions) -> SolveResult {
    let start = Instant::now();
    let mut l = Learner::new(model, options);
    l.engine.set_start_time(start);
    let found = l.next();
    l.engine.elapsed_into_stats();
    let stats = l.engine.stats.clone();
    match found {
        Found::Solution(v) => SolveResult {
            outcome: Outcome::Solved,
            solution: Some(Solution::new(v).named(model)),
            stats,
        },
        Found::Done => SolveResult {
            outcome: Outcome::Unsatisfiable,
            solution: None,
            stats,
        },
        Found::Limit(lim) => SolveResult {
            outcome: Outcome::LimitReached(lim),
            solution: None,
            stats,
        },
        Found::Invalid => SolveResult {
            outcome: Outcome::Invalid(l.engine.invalid.unwrap_or(crate::ConstraintId(0))),
            solution: None,
            stats,
        },
    }
}

/// Branch and bound with learning (see the module documentation); `f`
/// sees each improving solution and may stop the search.
pub(crate) fn optimize(
    model: &Model,
    options: SearchOptions,
    objective: VarId,
    minimize: bool,
    mut f: impl FnMut(&Solution, Value) -> ControlFlow<()>,
) -> Optimum {
    let start = Instant::now();
    let mut l = Learner::new(model, options);
    l.engine.set_start_time(start);
    l.set_objective(objective, minimize);
    let mut best: Option<Solution> = None;
    let mut improvements = Vec::new();
    let mut stopped = None;
    let mut invalid = None;
    loop {
        match l.next() {
            Found::Solution(values) => {
                let s = Solution::new(values).named(model);
                let v = s[objective];
                improvements.push(Improvement {
                    objective: v,
                    nodes: l.engine.stats.nodes,
                    time: l.engine.elapsed(),
                });
                let go_on = f(&s, v);
                best = Some(s);
                if !l.tighten(v) {
                    break; // nothing better can exist
                }
                if go_on.is_break() {
                    stopped = Some(Limit::Solutions);
                    break;
                }
            }
            Found::Done => break,
            Found::Limit(lim) => {
                stopped = Some(lim);
                break;
            }
            Found::Invalid => {
                invalid = l.engine.invalid;
                break;
            }
        }
    }
    l.engine.elapsed_into_stats();
    let outcome = match invalid {
        Some(c) => Outcome::Invalid(c),
        None => complete_outcome(stopped, u128::from(best.is_some())),
    };
    Optimum {
        outcome,
        objective: best.as_ref().map(|s| s[objective]),
        best,
        // Settled by the caller: the proven bound, when not optimal.
        bound: l.root_bound,
        proven: false,
        improvements,
        stats: l.engine.stats.clone(),
    }
}

#[cfg(feature = "testing")]
impl Learner<'_> {
    /// Runs to the end of the space or a limit: satisfaction (the first
    /// solution) when `objective` is `None`, else branch and bound.
    fn run_to_end(&mut self, objective: Option<(VarId, bool)>) {
        if let Some((x, minimize)) = objective {
            self.set_objective(x, minimize);
        }
        while let Found::Solution(values) = self.next() {
            let Some((x, _)) = objective else { break };
            if !self.tighten(values[x.index()]) {
                break;
            }
        }
    }
}

/// The first `n` conflicts of a learning search for a solution of
/// `model`, analysed step by step (fewer if the search ends first).
pub(crate) fn trace_conflicts(
    model: &Model,
    options: SearchOptions,
    n: usize,
) -> Vec<trace::ConflictTrace> {
    let mut l = Learner::new(model, options);
    l.traces = Some(Vec::new());
    l.trace_limit = n;
    if n > 0 {
        l.next();
    }
    l.traces.take().unwrap_or_default()
}

/// Runs a learning search and returns every nogood it learned (tests):
/// satisfaction when `objective` is `None`, else branch and bound to the
/// end or the options' limits. `max_learnts` replaces the number of
/// clauses kept before the first reduction (small values make the tests
/// exercise the deletion).
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn learned_nogoods(
    model: &Model,
    options: SearchOptions,
    objective: Option<(VarId, bool)>,
    max_learnts: Option<usize>,
) -> Vec<LearnedNogood> {
    let mut l = Learner::new(model, options);
    l.log = Some(Vec::new());
    if let Some(k) = max_learnts {
        l.max_learnts = k;
    }
    l.run_to_end(objective);
    l.log.take().unwrap_or_default()
}

/// What the neighbourhoods of [`SearchOptions::lns`] did in one search
/// (tests and measurements).
#[doc(hidden)]
#[cfg(feature = "testing")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LnsCounts {
    /// Neighbourhoods drawn.
    pub drawn: u64,
    /// Of those, found to hold no better solution.
    pub exhausted: u64,
    /// Of those, ended by a better solution.
    pub improved: u64,
}

/// Runs branch and bound with learning on `objective` to its end or the
/// options' limits and says what the neighbourhoods did (all zero when
/// `options.lns` is off), with the last solution's values.
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn lns_counts(
    model: &Model,
    options: SearchOptions,
    objective: (VarId, bool),
) -> (LnsCounts, Option<Vec<Value>>) {
    let mut l = Learner::new(model, options);
    let mut last = None;
    l.set_objective(objective.0, objective.1);
    while let Found::Solution(values) = l.next() {
        let v = values[objective.0.index()];
        last = Some(values);
        if !l.tighten(v) {
            break;
        }
    }
    let counts = l.lns.as_ref().map_or(LnsCounts::default(), |n| LnsCounts {
        drawn: n.drawn,
        exhausted: n.exhausted,
        improved: n.improved,
    });
    (counts, last)
}

/// Runs a learning search (branch and bound when `objective` is given)
/// to its end or the options' limits and returns the nogood store's size
/// at each restart, with the number of nodes searched.
#[doc(hidden)]
#[cfg(feature = "testing")]
pub fn nogood_memory(
    model: &Model,
    options: SearchOptions,
    objective: Option<(VarId, bool)>,
) -> (Vec<MemorySample>, u64) {
    let mut l = Learner::new(model, options);
    l.memory = Some(Vec::new());
    l.run_to_end(objective);
    (l.memory.take().unwrap_or_default(), l.engine.stats.nodes)
}
