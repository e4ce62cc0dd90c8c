//! The backtracking engine: an iterative depth-first search over an explicit
//! stack of frames, one decision level per frame. Variable choice is in
//! `var_order.rs`, value choice in `val_order.rs`, propagation in
//! [`crate::propagation`].
//!
//! One step of the loop (see [`Engine::step`]):
//! 1. *Descend*: after a consistent propagation, pick the next variable (the
//!    [`VarOrder`](super::VarOrder)). None left: the state is a solution.
//!    Counting, with one variable left whose every constraint has been
//!    propagated: add its domain size instead of branching. Otherwise push
//!    a frame holding the values to try.
//! 2. *Branch*: return the store to the top frame's state with the level for
//!    its next value open (`DomainStore::reopen_level`), take its next
//!    decision (the [`ValOrder`](super::ValOrder)): fix the variable to the
//!    next value or, for the splitting orders, restrict it to the next half
//!    of its domain; then propagate to a fixpoint (the kernel's loop).
//!    Success: descend. Wipe-out: count a failure and branch again. Nothing
//!    left: close the level and pop the frame (a backtrack).
//!
//! A frame is one decision level and each of its branches one node, so with
//! bisection a variable may own several frames on the path (one per split)
//! and a node is a half domain rather than a value.
//!
//! Last-conflict reasoning ([`SearchOptions::last_conflict`]) is a small
//! state on top: the variable of the last failed decision, which
//! [`select_var`](Engine::select_var) returns while it is open, until a
//! decision on it succeeds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use smallvec::smallvec;

use crate::constraint::adapter::CheckerPath;
use crate::domain::explained::{Cause, Failure};
use crate::domain::{Conflict, DomainStore};
use crate::ids::{Value, VarId};
use crate::limits::Limit;
use crate::literal::Literal;
use crate::model::Model;
use crate::observer::SearchObserver;
use crate::propagation::kernel::{Kernel, Owned, Stop};
use crate::propagation::{Priority, Propagator};
use crate::search::{Decision, Inference, RootWeights, SearchOptions, ValOrder, VarOrder};
use crate::stats::Statistics;

use super::budget::{check_running, check_time, frames_bytes};
pub(crate) use super::prepared::Prepared;

/// One decision level of the search: its variable and the values left.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) var: u32,
    pub(super) level: u32,
    /// Values not yet tried (small domains), bit k = `base + k`.
    pub(super) rem: u64,
    /// Cursors for large domains (meaning depends on the value order).
    pub(super) a: Value,
    pub(super) b: Value,
    pub(super) started: bool,
    /// The decision being tried.
    pub(super) decision: Decision,
    /// The variable's only subscriber and position, when decisions on it
    /// are delivered directly (`(u32::MAX, _)`: not).
    pub(super) direct: (u32, u32),
    /// The value order of the frame (the search's, or its phase's).
    pub(super) order: ValOrder,
}

/// What one call of [`Engine::step`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The store holds a solution.
    Solution,
    /// The space is exhausted.
    Done,
    /// A limit stopped the search.
    Limit(Limit),
}

/// A shared node budget for parallel searches.
pub(crate) type SharedNodes = Arc<AtomicU64>;

pub(crate) struct Engine<'a> {
    pub(crate) model: &'a Model,
    pub(super) prep: Arc<Prepared>,
    pub(crate) store: DomainStore,
    /// Explaining mode: the declared domains (what the trail narrows).
    pub(crate) root: Option<std::sync::Arc<DomainStore>>,
    pub(crate) kernel: Kernel<'a>,
    pub(super) opts: SearchOptions,
    pub(super) frames: Vec<Frame>,
    pub(crate) stats: Statistics,
    pub(super) weights: Vec<u32>,
    /// Prefixes of the variable orders' candidate lists found fixed (see
    /// [`SkipHint`](super::var_order::SkipHint)).
    pub(super) skip_hints: Vec<super::var_order::SkipHint>,
    /// Break ties of `smallest` and `largest` in an order the search
    /// reshuffles (see [`TieOrder`](super::var_order::TieOrder)), not
    /// by the first in the annotation's array: set by the learning
    /// search.
    pub(crate) reorder_ties: bool,
    /// Per phase of the decision variables, its order for ties.
    pub(super) tie_orders: Vec<super::var_order::TieOrder>,
    /// Does some variable order of the search read `weights` (see
    /// [`reads_weights`])? If not, failures leave them alone.
    keeps_weights: bool,
    observer: Option<&'a mut dyn SearchObserver>,
    started: bool,
    finished: bool,
    pub(super) descend: bool,
    /// Decisions replayed before the search proper (parallel subproblems).
    base_level: usize,
    pub(super) start_time: Instant,
    pub(super) rng: u64,
    pub(super) next_check: u64,
    /// Nodes between two checks of the limits (see
    /// [`budget::next_interval`](super::budget::next_interval)), and
    /// when the last check read the clock.
    pub(super) check_every: u64,
    pub(super) last_check: Instant,
    pub(super) shared_nodes: Option<SharedNodes>,
    pub(super) flushed_nodes: u64,
    /// `log` trace events are enabled (checked once per search).
    trace_enabled: bool,
    /// A limit stopped propagation (time or cancel, checked inside it).
    limit_hit: Option<Limit>,
    /// The constraint a candidate solution violated (a broken propagator).
    pub(crate) invalid: Option<crate::ConstraintId>,
    /// Check counted solutions too (debug builds, or the option).
    validate: bool,
    /// Solutions found at or before the bottom shortcut (count mode).
    pub(crate) counted: u128,
    pub(crate) count_shortcut: bool,
    /// Decisions may be delivered directly to a variable's only subscriber.
    pub(super) direct: bool,
    /// Branch and bound: the objective variable, whether it is minimised,
    /// and the bound every node below must meet (`≤` when minimising, `≥`
    /// when maximising), tightened after each improving solution.
    pub(super) objective: Option<(usize, bool)>,
    pub(crate) bound: Option<Value>,
    /// Restarts (solve and optimisation only): runs so far, failures in
    /// this run, and this run's cutoff; `None` when off.
    pub(super) restart: Option<(u64, u64, u64)>,
    /// Parallel branch and bound: the bound shared by every subproblem
    /// (the best value found anywhere, moved by one), read at each decision.
    pub(super) shared_bound: Option<Arc<std::sync::atomic::AtomicI32>>,
    /// Branch and bound: the bound the frames below `probe_below` have not
    /// yet been checked against at their opening (see
    /// [`bound_fails_at_opening`](Engine::bound_fails_at_opening)).
    pub(super) probed_bound: Option<Value>,
    pub(super) probe_below: usize,
    /// Per variable, the value order of its phase, when phases have their
    /// own ([`SearchOptions::phase_orders`]); empty otherwise.
    pub(super) phase_val: Vec<ValOrder>,
    /// Last-conflict reasoning: the variable of the last failed decision,
    /// branched on next while open, until a decision on it succeeds.
    pub(super) last_conflict: Option<u32>,
    /// Has a root decision been tried since the start or the last restart
    /// (for [`SearchOptions::root_weights`])?
    pub(super) root_decided: bool,
    /// After a successful root propagation: the propagation and removal
    /// counts it left (restored by [`rewind`](Engine::rewind)).
    root_counts: Option<(u64, u64)>,
}

/// While building propagators, the time limit is checked every this many
/// constraints.
const SETUP_CHECK: usize = 1 << 16;

impl<'a> Engine<'a> {
    pub(crate) fn new(
        model: &'a Model,
        prep: Arc<Prepared>,
        opts: SearchOptions,
        observer: Option<&'a mut dyn SearchObserver>,
    ) -> Engine<'a> {
        let start_time = Instant::now();
        let (doms, var_dom) = model.declared();
        let mut store = DomainStore::new(doms, var_dom);
        store.track_prunes = observer.as_ref().is_some_and(|o| o.wants_prunes());
        store.simd = prep.simd;
        // Explaining mode keeps the declared domains, which the trail's
        // literals narrow.
        let root = opts.explain.then(|| {
            store.start_explaining();
            std::sync::Arc::new(store.clone())
        });
        store.ex.root = root.clone();
        // One propagator per constraint (the checker path unless it brings
        // its own), and one per fused group.
        // Millions of constraints take seconds: the time limit and the
        // cancel token hold here too (the rest of the propagators is then
        // not built, and `start` stops before the root).
        let mut setup_stop = None;
        let mut props: Vec<Owned<'a>> = Vec::new();
        for (ci, c) in model.posted().iter().enumerate() {
            if ci % SETUP_CHECK == SETUP_CHECK - 1 && check_time(&opts, start_time, &mut setup_stop)
            {
                break;
            }
            if prep.skip[ci] {
                continue;
            }
            let d = c.as_dyn();
            let level = prep.levels[ci];
            let p: Box<dyn Propagator + 'a> = match d.propagator() {
                Some(p) if level != Inference::None => p,
                _ => Box::new(CheckerPath::new(
                    d,
                    c.is_idempotent(),
                    priority_of(d, &store),
                )),
            };
            props.push((p, smallvec![ci as u32], level));
        }
        for g in &prep.groups {
            props.push((
                Arc::clone(g).build(prep.simd),
                g.members().into(),
                g.level(),
            ));
        }
        let kernel = Kernel::new(&mut store, props);
        let all_prune = prep.all_prune();
        let n = model.num_vars();
        Engine {
            model,
            prep,
            store,
            root,
            kernel,
            frames: Vec::with_capacity(n.min(1 << 16)),
            stats: Statistics::default(),
            weights: vec![1; model.num_constraints()],
            count_shortcut: observer.is_none() && all_prune,
            direct: observer.is_none(),
            objective: None,
            bound: None,
            restart: None,
            shared_bound: None,
            probed_bound: None,
            probe_below: 0,
            phase_val: phase_values(model.num_vars(), &opts),
            last_conflict: None,
            skip_hints: Vec::new(),
            reorder_ties: false,
            tie_orders: Vec::new(),
            root_decided: false,
            root_counts: None,
            observer,
            started: false,
            finished: false,
            descend: false,
            base_level: 0,
            start_time,
            rng: first_rng(&opts),
            next_check: first_check(&opts),
            check_every: super::budget::CHECK_EVERY,
            last_check: start_time,
            shared_nodes: None,
            flushed_nodes: 0,
            trace_enabled: false,
            limit_hit: setup_stop,
            invalid: None,
            validate: validates(&opts),
            keeps_weights: reads_weights(&opts),
            counted: 0,
            opts,
        }
    }

    pub(crate) fn set_shared_nodes(&mut self, s: SharedNodes) {
        self.shared_nodes = Some(s);
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> std::time::Duration {
        self.start_time.elapsed()
    }

    pub(crate) fn set_start_time(&mut self, t: Instant) {
        self.start_time = t;
    }

    /// The current values (valid when every variable is fixed).
    pub(crate) fn values(&self) -> Vec<Value> {
        (0..self.store.len()).map(|i| self.store.min(i)).collect()
    }

    /// Adds the nodes not yet reported to the shared parallel budget.
    pub(crate) fn flush_nodes(&mut self) {
        if let Some(shared) = &self.shared_nodes {
            let delta = self.stats.nodes - self.flushed_nodes;
            self.flushed_nodes = self.stats.nodes;
            shared.fetch_add(delta, Ordering::Relaxed);
        }
    }

    pub(crate) fn elapsed_into_stats(&mut self) {
        self.flush_nodes();
        self.stats.time = self.start_time.elapsed();
        self.stats.removals = self.store.removals;
        self.stats.propagations = self.kernel.propagations;
        log::debug!("search statistics: {}", self.stats);
    }

    /// The decisions on the current path, root first.
    pub(crate) fn path(&self) -> Vec<(u32, Decision)> {
        self.frames.iter().map(|f| (f.var, f.decision)).collect()
    }

    pub(crate) fn depth(&self) -> usize {
        self.frames.len()
    }

    /// The limit that stopped propagation, if one did.
    pub(crate) fn limit_hit(&self) -> Option<Limit> {
        self.limit_hit
    }

    // ---- propagation -------------------------------------------------------

    /// Runs the root propagation. `Err` means the model has no solution (or
    /// a limit stopped it: see [`limit_hit`](Self::limit_hit)).
    fn root(&mut self) -> Result<(), Stop> {
        self.store.note_root_fixed();
        self.kernel.schedule_all();
        // Limits are checked inside propagation too, so a huge root stops.
        self.kernel.check_every = 1023;
        self.propagate()
    }

    /// Propagates the pending events to a fixpoint.
    pub(crate) fn propagate(&mut self) -> Result<(), Stop> {
        let r = self
            .with_kernel(|kernel, store, weights, limit| kernel.propagate(store, weights, limit));
        self.flush_prunes();
        r
    }

    /// Runs `f` on the kernel with the store, the weights and the limit
    /// check (time and cancel, recorded in `limit_hit`).
    #[inline]
    fn with_kernel<R>(
        &mut self,
        f: impl FnOnce(
            &mut Kernel<'a>,
            &mut DomainStore,
            &mut [u32],
            &mut dyn FnMut(&DomainStore) -> bool,
        ) -> R,
    ) -> R {
        let Engine {
            kernel,
            store,
            weights,
            keeps_weights,
            limit_hit,
            opts,
            start_time,
            frames,
            ..
        } = self;
        let frames = frames_bytes(frames);
        // Only dom/wdeg reads the failure weights: searches that never use
        // it hand the kernel none, and a wipe-out costs no weight update.
        let weights: &mut [u32] = if *keeps_weights { weights } else { &mut [] };
        let mut limit = |s: &DomainStore| {
            check_running(opts, *start_time, || s.memory_bytes() + frames, limit_hit)
        };
        f(kernel, store, weights, &mut limit)
    }

    fn flush_prunes(&mut self) {
        if let Some(obs) = self.observer.as_deref_mut() {
            for &(x, v) in &self.store.prunes {
                obs.on_prune(VarId(x), v);
            }
        }
        self.store.prunes.clear();
    }

    // ---- the loop ------------------------------------------------------------

    /// Replays decisions (a parallel subproblem). `Err` if they fail.
    pub(crate) fn replay(&mut self, path: &[(u32, Decision)]) -> Result<(), Stop> {
        if !self.started {
            self.start()?;
        }
        for &(var, decision) in path {
            self.store.push_level();
            if self.apply(var as usize, decision).is_err() {
                self.store.clear_events();
                return Err(Stop::Conflict);
            }
            self.propagate()?;
        }
        self.base_level = self.store.level();
        Ok(())
    }

    /// Replays `path` and then enforces the objective bound at the root of
    /// what is left (a large-neighbourhood-search neighbourhood).
    pub(crate) fn replay_bounded(&mut self, path: &[(u32, Decision)]) -> Result<(), Stop> {
        self.replay(path)?;
        self.bound_here()
    }

    /// Enforces the objective bound at the current node and makes it the
    /// root of what is searched next (a replayed parallel subproblem must
    /// obey the bound before its first decision: its replay may already
    /// have fixed every variable). `Err` if nothing is left.
    pub(crate) fn bound_here(&mut self) -> Result<(), Stop> {
        self.store.push_level();
        if self.enforce_bound().is_err() {
            self.store.clear_events();
            return Err(Stop::Conflict);
        }
        self.propagate()?;
        self.base_level = self.store.level();
        Ok(())
    }

    pub(crate) fn start(&mut self) -> Result<(), Stop> {
        self.started = true;
        log::debug!(
            "search start: {} variables, {} constraints, {:?}",
            self.model.num_vars(),
            self.model.num_constraints(),
            self.opts
        );
        self.trace_enabled = log::log_enabled!(log::Level::Trace);
        // Limits hold before any work: a search cancelled or out of time
        // before it starts does not run.
        if let Some(l) = self.limit_hit.or_else(|| self.check_limits_now()) {
            self.limit_hit = Some(l);
            self.finished = true;
            return Err(Stop::Limit);
        }
        let r = self.root();
        if r.is_err() {
            match self.limit_hit {
                Some(l) => log::debug!("root propagation stopped: {l}"),
                None => log::debug!("root propagation failed: no solution"),
            }
        }
        if r.is_err() {
            self.finished = true;
            self.store.clear_events();
        } else {
            self.descend = true;
            self.root_counts = Some((self.kernel.propagations, self.store.removals));
        }
        self.flush_prunes();
        r
    }

    /// Can [`rewind`](Self::rewind) make this engine ready for another
    /// subproblem? Not when its root was not propagated or failed, a limit
    /// stopped it, a propagator broke its contract, or an observer watches.
    pub(crate) fn can_rewind(&self) -> bool {
        self.root_counts.is_some()
            && self.limit_hit.is_none()
            && self.invalid.is_none()
            && self.observer.is_none()
    }

    /// Makes an engine that searched one parallel subproblem ready for the
    /// next, with `opts`: back at the root, in the state a new engine has
    /// after its root propagation. The root is not propagated again, but
    /// its counts are restored, so the statistics are those of a new
    /// engine. Only when [`can_rewind`](Self::can_rewind).
    pub(crate) fn rewind(&mut self, opts: SearchOptions) {
        debug_assert!(self.can_rewind());
        let (propagations, removals) = self.root_counts.expect("a propagated root");
        self.kernel.clear(&mut self.store);
        self.store.backtrack_to(0);
        self.store.removals = removals;
        self.kernel.propagations = propagations;
        self.frames.clear();
        self.stats = Statistics::default();
        self.weights.fill(1);
        self.phase_val = phase_values(self.model.num_vars(), &opts);
        self.rng = first_rng(&opts);
        self.next_check = first_check(&opts);
        self.check_every = super::budget::CHECK_EVERY;
        self.last_check = Instant::now();
        self.validate = validates(&opts);
        self.keeps_weights = reads_weights(&opts);
        self.opts = opts;
        self.count_shortcut = self.prep.all_prune();
        self.finished = false;
        self.descend = true;
        self.base_level = 0;
        self.flushed_nodes = 0;
        self.counted = 0;
        self.objective = None;
        self.bound = None;
        self.restart = None;
        self.shared_bound = None;
        self.probed_bound = None;
        self.probe_below = 0;
        self.last_conflict = None;
        self.skip_hints.clear();
        self.root_decided = false;
    }

    /// Runs until the next solution, the end of the space, or a limit.
    /// With `max_depth`, nodes at that depth are reported as `Solution`s too
    /// (used to split the tree into subproblems).
    pub(crate) fn step(&mut self, max_depth: Option<usize>) -> Step {
        self.step_body(max_depth)
    }

    #[inline(always)]
    fn step_body(&mut self, max_depth: Option<usize>) -> Step {
        if !self.started && self.start().is_err() {
            return match self.limit_hit {
                Some(l) => Step::Limit(l),
                None => Step::Done,
            };
        }
        if self.finished {
            return Step::Done;
        }
        loop {
            if self.descend {
                self.descend = false;
                if max_depth == Some(self.frames.len()) {
                    return Step::Solution;
                }
                match self.select_var() {
                    None => {
                        self.stats.solutions += 1;
                        return Step::Solution;
                    }
                    Some(x) => {
                        if self.count_shortcut
                            && max_depth.is_none()
                            && self.only_open(x)
                            && self.opts.limits.solutions.is_none()
                        {
                            let k = self.store.size(x) as u128;
                            if self.validate && !self.verify_last(x) {
                                self.finished = true;
                                return Step::Done;
                            }
                            self.counted += k;
                            self.stats.solutions += k;
                            // fall through to branch on the parent frame
                        } else {
                            let f = self.new_frame(x);
                            self.frames.push(f);
                            let d = self.frames.len() as u64;
                            if d > self.stats.max_depth {
                                self.stats.max_depth = d;
                            }
                        }
                    }
                }
            }
            let Some(fi) = self.frames.len().checked_sub(1) else {
                self.finished = true;
                return Step::Done;
            };
            // A frame known to be out of values needs no restored state:
            // it is popped, and the parent's next value restores the
            // parent's state, which covers it (a quarter of the snapshot
            // copies of an N-queens count). Observers and objective bounds
            // look at every frame's state, so they take the long way.
            if self.out_of_values(fi) && self.observer.is_none() && self.objective.is_none() {
                self.pop_frame(fi);
                continue;
            }
            // The state at the frame's opening, with the level for its next
            // value open (one snapshot copy per value).
            let level = self.frames[fi].level as usize;
            self.store.reopen_level(level);
            let next = if self.objective.is_some() && self.bound_refutes_frame() {
                // Every branch would fail on the bound: unwind at once
                // rather than trying each value (after an improving
                // solution, the path above it often has the objective fixed).
                None
            } else if self.frames[fi].order.splits() {
                self.next_half(fi)
            } else {
                self.next_value(fi).map(Decision::Assign)
            };
            match next {
                None => {
                    self.store.close_reopened_level(level);
                    self.pop_frame(fi);
                }
                Some(_) if self.objective.is_some() && self.bound_fails_at_opening(fi) => {
                    if let Some(l) = self.limit_hit {
                        self.finished = true;
                        return Step::Limit(l);
                    }
                    // The bound alone refutes the frame's state: this value
                    // and every other one left fail. One failure, no
                    // decision.
                    self.stats.failures += 1;
                    self.store.reopen_level(level);
                    self.store.close_reopened_level(level);
                    self.pop_frame(fi);
                    self.maybe_restart();
                }
                Some(d) => {
                    self.stats.nodes += 1;
                    if self.stats.nodes >= self.next_check {
                        if let Some(l) = self.check_limits() {
                            self.finished = true;
                            return Step::Limit(l);
                        }
                    }
                    let var = self.frames[fi].var;
                    if fi == 0 && self.opts.root_weights != RootWeights::Keep {
                        if self.root_decided {
                            self.update_root_weights();
                        }
                        self.root_decided = true;
                    }
                    self.frames[fi].decision = d;
                    if let Some(obs) = self.observer.as_deref_mut() {
                        obs.on_decision(VarId(var), d, fi + 1);
                    }
                    if self.trace_enabled {
                        log::trace!(
                            "depth {}: {} {d}",
                            fi + 1,
                            self.model.display_name(VarId(var))
                        );
                    }
                    let ok = match d {
                        Decision::Assign(v) => self.decide(var as usize, v, self.frames[fi].direct),
                        _ => self.decide_bound(var as usize, d),
                    };
                    if ok {
                        self.descend = true;
                        if self.last_conflict == Some(var) {
                            self.last_conflict = None;
                        }
                    } else if let Some(l) = self.limit_hit {
                        // Propagation was stopped by a limit, not refuted.
                        self.finished = true;
                        return Step::Limit(l);
                    } else {
                        self.stats.failures += 1;
                        if self.opts.last_conflict {
                            self.last_conflict = Some(var);
                        }
                        if let Some(obs) = self.observer.as_deref_mut() {
                            obs.on_decision_failed(VarId(var), d, fi + 1);
                        }
                        self.maybe_restart();
                    }
                }
            }
        }
    }

    /// Backtracks out of frame `fi`, the last one, which has no value left.
    #[inline]
    fn pop_frame(&mut self, fi: usize) {
        let var = self.frames[fi].var;
        self.frames.pop();
        self.stats.backtracks += 1;
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.on_backtrack(VarId(var), fi + 1);
        }
    }

    /// Fixes `var` to `v` and propagates; whether that succeeded. A
    /// variable with a single subscriber (a closed fused all-different, for
    /// instance) has its event delivered directly, without the event list.
    #[inline]
    fn decide(&mut self, var: usize, v: Value, d: (u32, u32)) -> bool {
        if d.0 != u32::MAX {
            let before = self.store.small_bits(var);
            if self.store.fix_small_quietly(var, v).is_err() {
                return false;
            }
            return self
                .with_kernel(|kernel, store, weights, limit| {
                    kernel.decide_direct(store, weights, d, before, limit)
                })
                .is_ok();
        }
        if self
            .decision_write(Literal::Eq(VarId(var as u32), v))
            .is_err()
        {
            return false;
        }
        if self.enforce_bound().is_err() {
            // The decision's event must not reach the next node.
            self.store.clear_events();
            return false;
        }
        self.propagate().is_ok()
    }

    /// Applies a decision to the store (no propagation).
    fn apply(&mut self, var: usize, d: Decision) -> Result<(), Conflict> {
        let x = VarId(var as u32);
        self.decision_write(match d {
            Decision::Assign(v) => Literal::Eq(x, v),
            Decision::AtMost(v) => Literal::Le(x, v),
            Decision::AtLeast(v) => Literal::Ge(x, v),
        })
    }

    /// Makes a decision's literal true (recorded as a decision when
    /// explaining).
    #[inline]
    pub(crate) fn decision_write(&mut self, lit: Literal) -> Result<(), Conflict> {
        write_literal(&mut self.store, Cause::Decision, lit)
    }

    /// Restricts `var` to one half of its domain (a bisection decision),
    /// enforces the objective bound and propagates; whether that succeeded.
    fn decide_bound(&mut self, var: usize, d: Decision) -> bool {
        if self.apply(var, d).is_err() || self.enforce_bound().is_err() {
            self.store.clear_events();
            return false;
        }
        self.propagate().is_ok()
    }

    /// The subscriber a decision on `var` goes to directly, or
    /// `(u32::MAX, 0)`.
    #[inline]
    pub(super) fn direct_to(&self, var: usize) -> (u32, u32) {
        match self.kernel.direct(var) {
            Some(d) if self.direct && self.store.plain_small_updates() => d,
            _ => (u32::MAX, 0),
        }
    }

    /// Is `x` the only variable with more than one value?
    #[inline]
    fn only_open(&self, x: usize) -> bool {
        debug_assert!(self.store.size(x) > 1);
        self.store.unfixed == 1
    }

    /// Validation of the counting shortcut: every value of the last open
    /// variable completes a solution. False (and `invalid` set) if not.
    fn verify_last(&mut self, x: usize) -> bool {
        let mut values = self.values();
        let mut dom = Vec::new();
        self.store.values_into(x, &mut dom);
        for v in dom {
            values[x] = v;
            if let Err(e) = self.model.check(&values) {
                self.note_invalid(e);
                return false;
            }
        }
        true
    }

    /// Records that a propagator let a non-solution through.
    #[cold]
    fn note_invalid(&mut self, e: crate::CheckError) {
        let c = match e {
            crate::CheckError::Violated { constraint, .. } => constraint,
            // Values outside their declared domains: the store's fault, named
            // as the first constraint for want of a better culprit.
            _ => crate::ConstraintId(0),
        };
        log::error!("engine bug or broken propagator: a candidate solution fails: {e}");
        self.invalid = Some(c);
        self.finished = true;
    }

    /// [`take_solution`](Self::take_solution) for counting: the values are
    /// only built (and checked) when an observer needs them or in
    /// validation mode (debug builds, or [`SearchOptions::validate`]).
    /// False when the solution fails a checker.
    pub(crate) fn note_solution(&mut self) -> bool {
        if self.observer.is_some() || self.validate {
            return self.take_solution().is_some();
        }
        if self.prep.foreign {
            return self.check_foreign();
        }
        true
    }

    /// Checks the current (complete) assignment against the constraints
    /// whose pruning is the caller's: the library's own prune exactly, but
    /// a caller's `forward_check` may accept what its checker rejects.
    /// False (and `invalid` set) when one fails.
    fn check_foreign(&mut self) -> bool {
        let values = self.values();
        let mut buf = Vec::new();
        let model = self.model;
        match model
            .foreign()
            .iter()
            .find(|&&c| !model.satisfies(c, &values, &mut buf))
        {
            None => true,
            Some(&c) => {
                log::error!(
                    "a propagator let a non-solution through: constraint {} ({}) fails",
                    c.0,
                    model.constraint(c).name()
                );
                self.invalid = Some(c);
                self.finished = true;
                false
            }
        }
    }

    /// Checks a solution found by `step` against every constraint and
    /// reports it to the observer. `None` (and the search over, with
    /// [`invalid`](Self::invalid) set) when a checker rejects it.
    pub(crate) fn take_solution(&mut self) -> Option<Vec<Value>> {
        let values = self.values();
        if let Err(e) = self.model.check(&values) {
            self.note_invalid(e);
            return None;
        }
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.on_solution(&values);
        }
        Some(values)
    }
}

/// Makes `lit` true in `store`; when explaining, records it with `cause`
/// (and, when it would empty the domain, the failure).
#[inline]
pub(crate) fn write_literal(
    store: &mut DomainStore,
    cause: Cause,
    lit: Literal,
) -> Result<(), Conflict> {
    let write = |s: &mut DomainStore| {
        let i = lit.var().index();
        match lit {
            Literal::Eq(_, v) => s.fix(i, v),
            Literal::Ne(_, v) => s.remove(i, v).map(|_| ()),
            Literal::Ge(_, v) => s.set_min(i, v).map(|_| ()),
            Literal::Le(_, v) => s.set_max(i, v).map(|_| ()),
        }
    };
    if !store.explaining {
        return write(store);
    }
    store.ex.cause = cause;
    store.ex.lit = Some(lit);
    let r = write(store);
    store.ex.lit = None;
    store.ex.cause = Cause::UNEXPLAINED;
    if r.is_err() {
        store.ex.failure = Some(Failure {
            prop: u32::MAX,
            var: Some(lit.var()),
            cause,
        });
    }
    r
}

/// The random state a search with `opts` starts from.
fn first_rng(opts: &SearchOptions) -> u64 {
    let seed = match opts.val_order {
        ValOrder::Random { seed } => seed,
        _ => 0,
    };
    splitmix(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// The node count at which a search with `opts` first checks its limits.
fn first_check(opts: &SearchOptions) -> u64 {
    let every = super::budget::CHECK_EVERY;
    opts.limits.nodes.map_or(every, |n| n.clamp(1, every))
}

/// Does a search with `opts` check counted solutions too?
fn validates(opts: &SearchOptions) -> bool {
    cfg!(debug_assertions) || opts.validate
}

/// Does the search read the dom/wdeg failure weights: its variable order,
/// or that of one of its phases?
fn reads_weights(opts: &SearchOptions) -> bool {
    opts.var_order == VarOrder::DomWdeg
        || opts
            .phase_orders
            .iter()
            .any(|&(o, _)| o == VarOrder::DomWdeg)
}

/// Per variable, the value order of its phase (see
/// [`SearchOptions::phase_orders`]); empty when no phase has its own.
fn phase_values(n: usize, opts: &SearchOptions) -> Vec<ValOrder> {
    if opts.phase_orders.is_empty() {
        return Vec::new();
    }
    let mut of = vec![opts.val_order; n];
    let mut start = 0usize;
    for (k, &len) in opts.phases.iter().enumerate() {
        let end = start.saturating_add(len).min(opts.decision_vars.len());
        if let Some(&(_, val)) = opts.phase_orders.get(k) {
            for x in &opts.decision_vars[start..end] {
                // A variable in two phases keeps the first one's order.
                if x.index() < n && !opts.decision_vars[..start].contains(x) {
                    of[x.index()] = val;
                }
            }
        }
        start = end;
    }
    of
}

/// SplitMix64: a small, fast, seedable generator step.
#[inline]
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The scheduling class of a constraint propagated through its checker
/// path: cheap when at most two of its variables are free at the root (an
/// `element` over a constant array relates index and result only, its
/// array being fixed variables), linear otherwise. Measured on the
/// multi-mode RCPSP j30_1_1, whose modes are channelled by 150 such
/// `element`s: the same tree with 25 % fewer propagator calls
/// (docs/benchmarks.md).
fn priority_of(c: &dyn crate::Constraint, store: &DomainStore) -> Priority {
    let free = c
        .scope()
        .iter()
        .filter(|x| store.min(x.index()) != store.max(x.index()))
        .count();
    match free {
        0..=2 => Priority::Cheap,
        _ => Priority::Linear,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::{Constraint, Pruner};
    use crate::Domain;

    /// "The sum is even", with pruning that prunes nothing and never fails.
    #[derive(Debug)]
    struct EvenSumNoPruning([VarId; 3]);

    impl Constraint for EvenSumNoPruning {
        fn scope(&self) -> &[VarId] {
            &self.0
        }
        fn is_satisfied(&self, v: &[Value]) -> bool {
            v.iter().sum::<Value>() % 2 == 0
        }
        fn forward_check(&self, _: &mut Pruner<'_>, _: usize) -> Result<(), Conflict> {
            Ok(())
        }
        fn propagate(&self, _: &mut Pruner<'_>) -> Result<(), Conflict> {
            Ok(())
        }
    }

    /// `Search::count`'s loop with validation off, as in release builds
    /// (tests build with debug assertions, which validate every count).
    fn count_unvalidated(m: &Model, inference: Inference) -> (u128, Option<crate::ConstraintId>) {
        let opts = SearchOptions {
            inference,
            ..Default::default()
        };
        let prep = Arc::new(Prepared::new(m, inference));
        let mut e = Engine::new(m, prep, opts, None);
        e.validate = false;
        let mut n = 0;
        loop {
            match e.step(None) {
                Step::Solution if e.note_solution() => n += 1,
                Step::Solution | Step::Done => break,
                Step::Limit(l) => panic!("stopped by {l:?}"),
            }
        }
        (n + e.counted, e.invalid)
    }

    #[test]
    fn a_constraint_over_two_free_variables_is_cheap() {
        // Three variables in the scope, one fixed at the root: binary in
        // effect, so cheap; with all three free, linear.
        let mut m = Model::new();
        let x = m.new_vars(2, Domain::range(0, 3)).unwrap();
        let fixed = m.new_var(Domain::range(2, 2)).unwrap();
        let free = m.new_var(Domain::range(0, 3)).unwrap();
        let prep = Arc::new(Prepared::new(&m, Inference::Mac));
        let e = Engine::new(&m, prep, SearchOptions::default(), None);
        let two = EvenSumNoPruning([x[0], x[1], fixed]);
        let three = EvenSumNoPruning([x[0], x[1], free]);
        assert_eq!(priority_of(&two, &e.store), Priority::Cheap);
        assert_eq!(priority_of(&three, &e.store), Priority::Linear);
    }

    #[test]
    fn counting_without_validation_checks_the_callers_constraints() {
        // 64 assignments of three variables in 0..=3, 32 with an even sum:
        // the count must not be 64 (the shortcut trusting the propagator),
        // and the constraint that let a non-solution through is named.
        let mut m = Model::new();
        let x = m.new_vars(3, Domain::range(0, 3)).unwrap();
        let c = m.post(EvenSumNoPruning([x[0], x[1], x[2]])).unwrap();
        assert_eq!(m.foreign(), &[c]);
        for inf in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            let r = count_unvalidated(&m, inf);
            assert!(r == (32, None) || r.1 == Some(c), "{inf:?}: {r:?}");
        }
        // The library's own constraints keep the shortcut and need no check.
        let mut m = Model::new();
        let x = m.new_vars(3, Domain::range(0, 3)).unwrap();
        m.predicate(&x, "even sum", |v| v.iter().sum::<Value>() % 2 == 0)
            .unwrap();
        m.all_different(&x).unwrap();
        assert!(m.foreign().is_empty());
        for inf in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            assert_eq!(count_unvalidated(&m, inf), (12, None), "{inf:?}");
        }
    }
}
