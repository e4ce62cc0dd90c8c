//! [`MinConflicts`]: the builder, the generic engine, and the final check.

use std::time::{Duration, Instant};

use super::best::{Best, Changed};
use super::rng::{IdMap, Pick, Rng};
use super::state::{DomainTable, Evaluator};
use super::{permutation, Budget, Init, LocalError, LocalResult, Move};
use crate::ids::{Value, VarId};
use crate::limits::{CancelToken, Limit, Limits, Outcome};
use crate::model::{CheckError, Model};
use crate::solution::Solution;

/// Candidate lists up to this size are scanned whole; larger ones are sampled.
pub(crate) const SCAN: u64 = 64;
/// Random draws of a greedy construction before it settles for the least
/// conflicting candidate seen.
pub(crate) const GREEDY_TRIES: u32 = 64;
/// Random partners tried for one swap before settling for a sideways swap.
pub(crate) const SWAP_TRIES: u32 = 1024;
/// Variables placed between two polls of the clock during a construction.
pub(crate) const INIT_POLL: usize = 1 << 14;

/// Min-conflicts local search over a [`Model`].
///
/// ```
/// use csp_core::{Domain, Init, MinConflicts, Model, Outcome};
///
/// // Color a 5-cycle with 3 colors.
/// let mut m = Model::new();
/// let v = m.new_vars(5, Domain::range(0, 2)).unwrap();
/// for i in 0..5 {
///     m.not_equal(v[i], v[(i + 1) % 5], 0).unwrap();
/// }
/// let r = MinConflicts::new(&m).seed(1).init(Init::Random).max_steps(10_000).run().unwrap();
/// assert_eq!(r.outcome, Outcome::Solved);
/// let s = r.solution.unwrap();
/// assert!((0..5).all(|i| s[v[i]] != s[v[(i + 1) % 5]]));
/// ```
///
/// # Options
/// | option | default |
/// |---|---|
/// | [`seed`](MinConflicts::seed) | 0 |
/// | [`moves`](MinConflicts::moves) | [`Move::Change`] |
/// | [`init`](MinConflicts::init) | [`Init::Greedy`] |
/// | [`tabu`](MinConflicts::tabu) | tenure 10 |
/// | [`plateau`](MinConflicts::plateau) | `2·n + 100` steps for n variables |
/// | [`restarts`](MinConflicts::restarts) | unlimited |
/// | [`max_steps`](MinConflicts::max_steps), [`time_limit`](MinConflicts::time_limit), [`cancel`](MinConflicts::cancel) | none |
///
/// Without a step limit, a time limit or a cancel token, a run on a model
/// that has no solution does not return.
///
/// # A step
/// A conflicted variable is picked uniformly at random. With
/// [`Move::Change`] each value of its domain is scored by the change in total
/// violations (O(1) per all-different or not-equal the variable is in) and it
/// takes a best one, ties at random, its current value included: a step never
/// makes things worse, and on a plateau it moves sideways or stays. Values
/// the variable left within the tabu tenure are skipped unless they would
/// beat the best assignment so far. With [`Move::Swap`] the partners are the
/// variables sharing its domain: when there are at most 64 all are scored and
/// a best swap is made in the same way; otherwise up to 1024 random partners
/// are tried, taking the first swap that lowers the violations or, failing
/// that, a best sideways one, if any (Sosič and Gu's repair). A swap is scored
/// by making it on the counters and undoing it. Local minima are left by the
/// plateau rule: a restart from a fresh initial assignment.
///
/// # Measured
/// N-queens with swaps: 10^6 queens in under 0.1 s and 10^7 in about 1.5 s
/// on a shared 2-core machine, within 1.3× of a hand-written C program (see
/// `benches/local.rs`). Graph coloring with change moves, on DIMACS instances
/// with as many colors as the chromatic number: `myciel5`, `games120` and
/// `miles250` take a few dozen steps at most and `queen8_8` under a second,
/// but `DSJC125.1`, `le450_15b` and `le450_5a` still have 1 to 30 conflicts
/// after 10 s, where dedicated coloring heuristics (TabuCol and its
/// successors) succeed.
#[derive(Clone, Debug)]
pub struct MinConflicts<'m> {
    model: &'m Model,
    pub(crate) seed: u64,
    max_steps: Option<u64>,
    time_limit: Option<Duration>,
    cancel: Option<CancelToken>,
    pub(crate) restarts: u64,
    pub(crate) moves: Move,
    pub(crate) init: Init,
    pub(crate) tabu: u32,
    plateau: Option<u64>,
}

/// What an engine hands back before the final check.
#[derive(Debug)]
pub(crate) struct Raw {
    /// Why the run stopped early (`None`: the violations reached zero).
    pub(crate) stopped: Option<Outcome>,
    pub(crate) assignment: Vec<Value>,
    pub(crate) violations: u64,
    pub(crate) violated_constraints: usize,
    pub(crate) steps: u64,
    pub(crate) restarts: u64,
    pub(crate) init_time: Duration,
}

impl<'m> MinConflicts<'m> {
    /// A search over `model` with the default options (see the table above).
    pub fn new(model: &'m Model) -> MinConflicts<'m> {
        MinConflicts {
            model,
            seed: 0,
            max_steps: None,
            time_limit: None,
            cancel: None,
            restarts: u64::MAX,
            moves: Move::Change,
            init: Init::Greedy,
            tabu: 10,
            plateau: None,
        }
    }

    /// The seed of the generator: the same seed gives the same run on every
    /// machine (unless a time limit or cancel token stops it).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Stop after this many steps.
    pub fn max_steps(mut self, steps: u64) -> Self {
        self.max_steps = Some(steps);
        self
    }

    /// Stop after this much wall-clock time (polled every 256 steps, and
    /// during the initial assignment, whose unplaced variables then get the
    /// remaining values without search).
    pub fn time_limit(mut self, time: Duration) -> Self {
        self.time_limit = Some(time);
        self
    }

    /// Stop when `token` is cancelled (polled like the time limit).
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Takes the time limit and cancel token of `limits`, and its node limit
    /// as a step limit (its solution limit does not apply).
    ///
    /// ```
    /// use std::time::Duration;
    /// use csp_core::{Domain, Limits, MinConflicts, Model};
    /// let mut m = Model::new();
    /// let x = m.new_vars(3, Domain::range(0, 1)).unwrap();
    /// m.all_different(&x).unwrap(); // no solution
    /// let r = MinConflicts::new(&m)
    ///     .limits(&Limits::none().with_nodes(50).with_time(Duration::from_secs(5)))
    ///     .run()
    ///     .unwrap();
    /// assert_eq!(r.steps, 50);
    /// ```
    pub fn limits(mut self, limits: &Limits) -> Self {
        self.max_steps = limits.nodes.or(self.max_steps);
        self.time_limit = limits.time.or(self.time_limit);
        self.cancel = limits.cancel.clone().or(self.cancel);
        self
    }

    /// Restart from a fresh initial assignment at most `restarts` times (see
    /// [`plateau`](MinConflicts::plateau)).
    pub fn restarts(mut self, restarts: u64) -> Self {
        self.restarts = restarts;
        self
    }

    /// The kind of move (see [`Move`]).
    pub fn moves(mut self, moves: Move) -> Self {
        self.moves = moves;
        self
    }

    /// How the initial assignment is built (see [`Init`]).
    pub fn init(mut self, init: Init) -> Self {
        self.init = init;
        self
    }

    /// Tabu tenure: after a variable leaves a value it may not take it again
    /// for this many steps, unless doing so gives fewer violations than the
    /// best assignment so far. 0 turns the rule off.
    pub fn tabu(mut self, tenure: u32) -> Self {
        self.tabu = tenure;
        self
    }

    /// Restart (while [`restarts`](MinConflicts::restarts) remain) after this
    /// many consecutive steps without improving the best violations of the
    /// current run.
    pub fn plateau(mut self, steps: u64) -> Self {
        self.plateau = Some(steps.max(1));
        self
    }

    pub(crate) fn plateau_steps(&self) -> u64 {
        self.plateau
            .unwrap_or_else(|| 2u64.saturating_mul(self.model.num_vars() as u64) + 100)
    }

    /// Runs the search.
    ///
    /// Fails with [`LocalError::NotPermutation`] when [`Move::Swap`] is asked
    /// for a model that is not a permutation, and with
    /// [`LocalError::InconsistentViolations`] when a constraint reports zero
    /// violations for an assignment its checker rejects.
    pub fn run(&self) -> Result<LocalResult, LocalError> {
        let budget = Budget::new(self.max_steps, self.time_limit, self.cancel.clone());
        let raw = match self.moves {
            Move::Change => run_generic(self, &budget),
            // A model of the fused shape is a permutation already.
            Move::Swap => match permutation::Shape::detect(self.model) {
                Some(shape) => permutation::run(self, &shape, &budget),
                None => {
                    check_permutation(self.model)?;
                    run_generic(self, &budget)
                }
            },
        };
        finish(self.model, raw, budget.start())
    }
}

/// Checks that each group of variables sharing a declared domain is as large
/// as the domain.
pub(crate) fn check_permutation(model: &Model) -> Result<(), LocalError> {
    let (domains, var_domain) = model.declared();
    let mut count = vec![0usize; domains.len()];
    for &d in var_domain {
        count[d as usize] += 1;
    }
    for (i, &d) in var_domain.iter().enumerate() {
        let size = domains[d as usize].size();
        if count[d as usize] as u64 != size {
            return Err(LocalError::NotPermutation {
                var: VarId::from_index(i),
                vars: count[d as usize],
                values: size,
            });
        }
    }
    Ok(())
}

/// Runs the model's checker on an assignment whose violation counts are zero:
/// the solution if it passes; an error if a constraint's counts disagree with
/// its checker.
pub(crate) fn checked(model: &Model, assignment: &[Value]) -> Result<Option<Solution>, LocalError> {
    match model.check(assignment) {
        Ok(()) => Ok(Some(Solution::new(assignment.to_vec()).named(model))),
        Err(CheckError::Violated { constraint, name }) => {
            Err(LocalError::InconsistentViolations { constraint, name })
        }
        Err(e) => {
            // Values always come from the declared domains.
            debug_assert!(false, "local search built an invalid assignment: {e}");
            Ok(None)
        }
    }
}

/// The final check: a zero-violation assignment becomes a solution only if
/// the model's checker accepts it.
pub(crate) fn finish(model: &Model, raw: Raw, start: Instant) -> Result<LocalResult, LocalError> {
    let check_start = Instant::now();
    let (outcome, solution) = match raw.stopped {
        Some(o) => (o, None),
        None => match checked(model, &raw.assignment)? {
            Some(s) => (Outcome::Solved, Some(s)),
            None => (Outcome::LimitReached(Limit::Steps), None),
        },
    };
    let check_time = check_start.elapsed();
    Ok(LocalResult {
        outcome,
        assignment: raw.assignment,
        violations: raw.violations,
        violated_constraints: raw.violated_constraints,
        solution,
        steps: raw.steps,
        restarts: raw.restarts,
        time: start.elapsed(),
        init_time: raw.init_time,
        check_time,
    })
}

/// The tabu rule: "variable `v` may not take `val` again until step `until`".
/// At most two entries are made per step and each lives `tenure` steps, so
/// the live ones sit in a small map (expired ones are swept out now and
/// then): the rule costs no memory per variable.
#[derive(Debug)]
pub(crate) struct Tabu<V> {
    tenure: u64,
    live: IdMap<u32, (V, u64)>,
}

impl<V: Copy + PartialEq> Tabu<V> {
    pub(crate) fn new(tenure: u32) -> Tabu<V> {
        Tabu {
            tenure: tenure as u64,
            live: IdMap::default(),
        }
    }

    /// The value `v` may not take at `step`, if any.
    #[inline]
    pub(crate) fn forbidden(&self, v: usize, step: u64) -> Option<V> {
        if self.live.is_empty() {
            return None;
        }
        match self.live.get(&(v as u32)) {
            Some(&(val, until)) if until >= step => Some(val),
            _ => None,
        }
    }

    /// Forbids `v` to take `val` again for the next `tenure` steps.
    #[inline]
    pub(crate) fn forbid(&mut self, v: usize, val: V, step: u64) {
        if self.tenure == 0 {
            return;
        }
        self.live.insert(v as u32, (val, step + self.tenure));
        if self.live.len() as u64 > 4 * self.tenure + 64 {
            self.live.retain(|_, e| e.1 > step);
        }
    }
}

/// The variables of each declared domain, and each variable's rank in its group.
pub(crate) struct Groups {
    pub(crate) members: Vec<Vec<u32>>,
    pub(crate) rank: Vec<u32>,
}

impl Groups {
    pub(crate) fn new(model: &Model) -> Groups {
        let (domains, var_domain) = model.declared();
        let mut members = vec![Vec::new(); domains.len()];
        let mut rank = Vec::with_capacity(var_domain.len());
        for (v, &d) in var_domain.iter().enumerate() {
            rank.push(members[d as usize].len() as u32);
            members[d as usize].push(v as u32);
        }
        Groups { members, rank }
    }
}

/// Fills `out` with a uniformly random assignment: a random value of its
/// domain per variable or, with `groups`, a uniformly random permutation of
/// each group's domain (Fisher–Yates).
pub(crate) fn random_assignment(
    tables: &[DomainTable],
    var_domain: &[u32],
    groups: Option<&Groups>,
    rng: &mut Rng,
    out: &mut [Value],
) {
    match groups {
        None => {
            for (slot, &d) in out.iter_mut().zip(var_domain) {
                let t = &tables[d as usize];
                *slot = t.nth(rng.below(t.size()));
            }
        }
        Some(groups) => {
            for (d, members) in groups.members.iter().enumerate() {
                let mut pool: Vec<Value> = (0..members.len() as u64)
                    .map(|i| tables[d].nth(i))
                    .collect();
                for (r, &v) in members.iter().enumerate() {
                    let j = r + rng.index(pool.len() - r);
                    pool.swap(r, j);
                    out[v as usize] = pool[r];
                }
            }
        }
    }
}

/// The generic engine: any model, change or swap moves.
struct Generic<'a, 'm> {
    ev: Evaluator<'m>,
    tables: Vec<DomainTable>,
    var_domain: &'m [u32],
    groups: Option<Groups>,
    rng: Rng,
    cfg: &'a MinConflicts<'m>,
}

pub(crate) fn run_generic(cfg: &MinConflicts<'_>, budget: &Budget) -> Raw {
    let model = cfg.model;
    let (domains, var_domain) = model.declared();
    let mut g = Generic {
        ev: Evaluator::new(model),
        tables: domains.iter().map(DomainTable::new).collect(),
        var_domain,
        groups: (cfg.moves == Move::Swap).then(|| Groups::new(model)),
        rng: Rng::new(cfg.seed),
        cfg,
    };
    let n = model.num_vars();
    let init_start = Instant::now();
    let mut interrupted = g.initialize(budget);
    let init_time = init_start.elapsed();
    let mut best: Best<Value, Changed<Value>> = Best::new(n);
    best.offer(g.ev.total());
    let mut tabu: Tabu<Value> = Tabu::new(cfg.tabu);
    let plateau = cfg.plateau_steps();
    let (mut run_best, mut flat) = (g.ev.total(), 0u64);
    let (mut steps, mut restarts) = (0u64, 0u64);
    let stopped = loop {
        if g.ev.total() == 0 {
            break None;
        }
        if let Some(l) = interrupted.take().or_else(|| budget.check(steps)) {
            break Some(Outcome::LimitReached(l));
        }
        if g.ev.conflicted.is_empty() {
            // Only a violated constraint over no variables leaves nothing to move.
            break Some(Outcome::Unsatisfiable);
        }
        steps += 1;
        let v = g.ev.conflicted.get(g.rng.index(g.ev.conflicted.len()));
        let aspiration = best.violations;
        let moved = match cfg.moves {
            Move::Change => g.change_step(v, &tabu, steps, aspiration),
            Move::Swap => g.swap_step(v, &tabu, steps, aspiration),
        };
        for (var, old) in moved.into_iter().flatten() {
            tabu.forbid(var, old, steps);
        }
        let total = g.ev.total();
        if !best.offer(total) {
            for (var, old) in moved.into_iter().flatten() {
                best.record(
                    Changed {
                        var: var as u32,
                        old,
                    },
                    &g.ev.values,
                );
            }
        }
        if total < run_best {
            (run_best, flat) = (total, 0);
        } else {
            flat += 1;
            if flat >= plateau && restarts < cfg.restarts {
                best.save(&g.ev.values);
                interrupted = g.initialize(budget);
                restarts += 1;
                (run_best, flat) = (g.ev.total(), 0);
                best.offer(run_best);
            }
        }
    };
    let current_is_best = best.is_current();
    let violations = best.violations;
    let assignment = best.into_best(std::mem::take(&mut g.ev.values));
    if !current_is_best {
        g.ev.values = vec![0; n];
        g.ev.load(&assignment);
    }
    Raw {
        stopped,
        violated_constraints: g.ev.violated_constraints(),
        assignment,
        violations,
        steps,
        restarts,
        init_time,
    }
}

/// Is a move worth `d` allowed for a tabu candidate? (Aspiration: only when
/// it beats the best assignment so far.)
#[inline]
pub(crate) fn aspires(total: u64, d: i64, best: u64) -> bool {
    (total as i128 + d as i128) < best as i128
}

impl Generic<'_, '_> {
    /// Builds the initial assignment; `Some(limit)` if a limit interrupted
    /// the construction (the rest was then filled without search).
    fn initialize(&mut self, budget: &Budget) -> Option<Limit> {
        let n = self.ev.values.len();
        let mut interrupted = None;
        match (self.cfg.init, &self.groups) {
            (Init::Random, groups) => random_assignment(
                &self.tables,
                self.var_domain,
                groups.as_ref(),
                &mut self.rng,
                &mut self.ev.values,
            ),
            (Init::Greedy, None) => {
                self.ev.start_construction();
                for v in 0..n {
                    if v % INIT_POLL == 0 && interrupted.is_none() {
                        interrupted = budget.poll();
                    }
                    let t = &self.tables[self.var_domain[v] as usize];
                    let a = if interrupted.is_some() {
                        t.nth(self.rng.below(t.size()))
                    } else {
                        let size = t.size();
                        let mut pick = Pick::none();
                        if size <= SCAN {
                            for i in 0..size {
                                let a = t.nth(i);
                                let c = self.ev.construction_cost(v, a);
                                pick.offer(a, c, &mut self.rng);
                            }
                        } else {
                            for _ in 0..GREEDY_TRIES {
                                let a = t.nth(self.rng.below(size));
                                let c = self.ev.construction_cost(v, a);
                                pick.offer_first(a, c);
                                if c == 0 {
                                    break;
                                }
                            }
                        }
                        pick.choice.unwrap_or_else(|| t.nth(0))
                    };
                    self.ev.place(v, a);
                }
            }
            (Init::Greedy, Some(groups)) => {
                self.ev.start_construction();
                let mut pools: Vec<Vec<Value>> = groups
                    .members
                    .iter()
                    .enumerate()
                    .map(|(d, m)| (0..m.len() as u64).map(|i| self.tables[d].nth(i)).collect())
                    .collect();
                for v in 0..n {
                    if v % INIT_POLL == 0 && interrupted.is_none() {
                        interrupted = budget.poll();
                    }
                    let r = groups.rank[v] as usize;
                    let pool = &mut pools[self.var_domain[v] as usize];
                    let left = (pool.len() - r) as u64;
                    let j = if interrupted.is_some() {
                        r
                    } else {
                        let mut pick = Pick::none();
                        if left <= SCAN {
                            for (j, &a) in pool.iter().enumerate().skip(r) {
                                let c = self.ev.construction_cost(v, a);
                                pick.offer(j, c, &mut self.rng);
                            }
                        } else {
                            for _ in 0..GREEDY_TRIES {
                                let j = r + self.rng.below(left) as usize;
                                let c = self.ev.construction_cost(v, pool[j]);
                                pick.offer_first(j, c);
                                if c == 0 {
                                    break;
                                }
                            }
                        }
                        pick.choice.unwrap_or(r)
                    };
                    pool.swap(r, j);
                    self.ev.place(v, pool[r]);
                }
            }
        }
        self.ev.rebuild();
        interrupted
    }

    /// One change move of `v`; returns the variable and the value it left.
    fn change_step(
        &mut self,
        v: usize,
        tabu: &Tabu<Value>,
        step: u64,
        best: u64,
    ) -> [Option<(usize, Value)>; 2] {
        let cur = self.ev.values[v];
        let total = self.ev.total();
        let t = &self.tables[self.var_domain[v] as usize];
        let mut pick = Pick::stay();
        let forbidden = tabu.forbidden(v, step);
        for i in 0..t.size() {
            let a = t.nth(i);
            if a == cur {
                continue;
            }
            let d = self.ev.delta(v, a);
            if pick.admits(d) && (forbidden != Some(a) || aspires(total, d, best)) {
                pick.offer(a, d, &mut self.rng);
            }
        }
        match pick.choice {
            Some(a) => {
                self.ev.set::<true>(v, a);
                [Some((v, cur)), None]
            }
            None => [None, None],
        }
    }

    /// One swap move of `v` with a partner of its group; returns both
    /// variables and the values they left.
    fn swap_step(
        &mut self,
        v: usize,
        tabu: &Tabu<Value>,
        step: u64,
        best: u64,
    ) -> [Option<(usize, Value)>; 2] {
        let Some(groups) = &self.groups else {
            return [None, None];
        };
        let members = &groups.members[self.var_domain[v] as usize];
        let m = members.len();
        if m < 2 {
            return [None, None];
        }
        let total = self.ev.total();
        let mut pick = Pick::stay();
        let mut consider = |ev: &mut Evaluator<'_>, rng: &mut Rng, w: usize| -> bool {
            let d = ev.swap_delta(v, w);
            let allowed = pick.admits(d)
                && (aspires(total, d, best)
                    || (tabu.forbidden(v, step) != Some(ev.values[w])
                        && tabu.forbidden(w, step) != Some(ev.values[v])));
            if allowed {
                pick.offer(w, d, rng);
            }
            allowed && d < 0
        };
        if (m as u64) - 1 <= SCAN {
            for &w in members {
                if w as usize != v {
                    consider(&mut self.ev, &mut self.rng, w as usize);
                }
            }
        } else {
            for _ in 0..SWAP_TRIES {
                let w = members[self.rng.index(m)] as usize;
                if w != v && consider(&mut self.ev, &mut self.rng, w) {
                    break;
                }
            }
        }
        let Some(w) = pick.choice else {
            return [None, None];
        };
        let (a, b) = (self.ev.values[v], self.ev.values[w]);
        self.ev.set::<true>(v, b);
        self.ev.set::<true>(w, a);
        [Some((v, a)), Some((w, b))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabu_entries_expire_and_are_swept() {
        let mut t: Tabu<i32> = Tabu::new(3);
        t.forbid(7, 5, 10);
        assert_eq!(t.forbidden(7, 11), Some(5));
        assert_eq!(t.forbidden(7, 13), Some(5));
        assert_eq!(t.forbidden(7, 14), None);
        assert_eq!(t.forbidden(8, 11), None);
        for step in 0..1000u64 {
            t.forbid(step as usize, 0, step);
        }
        assert!(t.live.len() <= 4 * 3 + 64 + 1);
        assert_eq!(t.forbidden(999, 1000), Some(0));
        let mut off: Tabu<i32> = Tabu::new(0);
        off.forbid(1, 1, 1);
        assert_eq!(off.forbidden(1, 1), None);
    }
}
