//! Scheduling on a resource of limited capacity: [`Cumulative`], tasks
//! with fixed durations and demands whose total demand never exceeds the
//! capacity (workers, machines of a kind, a power budget).

use super::{Constraint, Premises, Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// How hard [`Cumulative`] propagates (see its *Pruning* section).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CumulativeStrength {
    /// Time-tabling on the compulsory parts only: O(n²) per call for `n`
    /// tasks of positive duration and demand.
    TimeTable,
    /// Time-tabling plus the energetic overload check: every window from
    /// an earliest start to a latest completion must hold the energy of
    /// the tasks that must run inside it. Another O(n²) per call.
    #[default]
    Energetic,
    /// Time-tabling plus energetic reasoning that prunes: on every window
    /// from an earliest start to a latest completion, the least energy of
    /// each task inside it (its left- or right-shifted part) fails the
    /// window when it overflows, and pushes a task whose part at its
    /// earliest start does not fit beside the others'. O(n³) per call.
    EnergeticReasoning,
    /// Time-tabling plus time-table edge finding (Vilím, CPAIOR 2011):
    /// on every window from an earliest start to a latest completion,
    /// the compulsory parts inside it plus the free parts of the tasks
    /// that must run inside fail the window, or push a task that starts
    /// in it and ends after it. O(n² log n) per call.
    TimeTableEdgeFinding,
}

/// A duration, demand or capacity of [`Cumulative`]: a constant, or a
/// variable of the scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amount {
    /// A constant (at least 0).
    Fixed(i64),
    /// A variable (constrained to be at least 0).
    Var(VarId),
}

/// Tasks `i` starting at `starts[i]`, lasting `durations[i]` and using
/// `demands[i]` units of a resource of `capacity` units, each an
/// [`Amount`] (a constant, or a variable): at every time `t`, the demands
/// of the tasks running at `t` (`sᵢ ≤ t < sᵢ + dᵢ`) sum to at most the
/// capacity. Durations, demands and capacity are at least 0 (constants
/// are checked when posted, variables are constrained). A task of
/// duration 0 or demand 0 uses nothing and is free; a task of positive
/// duration that demands more than the capacity cannot be scheduled.
///
/// # Pruning
/// On the bounds of the start times, in both directions of time (the
/// latest starts by the same rules on the mirrored schedule):
/// * **time-tabling** (profile-based): a task whose latest start is
///   before its earliest end must run during `[lst, ect)`, its
///   *compulsory part*. The profile of the compulsory parts fails when it
///   exceeds the capacity, and a task that, starting at its earliest
///   start, would overlap a segment of the profile where its demand does
///   not fit is pushed to the segment's end (Beldiceanu and Carlsson,
///   CP 2002; Letort, Beldiceanu and Carlsson, CP 2012, do it by sweep);
/// * **energetic overload checking**
///   ([`CumulativeStrength::Energetic`], the default): the tasks that
///   must start at or after `a` and end by `b` fail when their energy
///   `Σ dᵢ·rᵢ` exceeds `capacity · (b − a)` (Baptiste, Le Pape and
///   Nuijten, *Constraint-Based Scheduling*, 2001);
/// * **energetic reasoning**
///   ([`CumulativeStrength::EnergeticReasoning`]): on every window
///   `[a, b)` from an earliest start `a` to a latest completion `b`, a
///   task `k` runs at least `vₖ = max(0, min(b − a, dₖ, ectₖ − a,
///   b − lstₖ))` inside it wherever it starts within its bounds (its
///   left- or right-shifted part); the window fails when `Σ vₖ·rₖ`
///   exceeds `capacity · (b − a)` (this subsumes the overload check), and
///   a task `j` whose part of the window, starting at its earliest start,
///   does not fit in what the others leave, `m = ⌊(capacity · (b − a) −
///   Σ_{k≠j} vₖ·rₖ) / rⱼ⌋` time units, starts at `b − m` or later
///   (Lopez and Esquirol, 1996; Baptiste, Le Pape and Nuijten, 2001,
///   restricted to the O(n²) windows that edge finding and time-table
///   edge finding use). It finds what time-table edge finding (Vilím,
///   CPAIOR 2011) finds on those windows, as the least part of a task
///   inside a window is at least its compulsory part there and its whole
///   energy when it must run inside, but not every update of Vilím's
///   edge finding (CP 2009), which is not implemented.
///
/// * **time-table edge finding**
///   ([`CumulativeStrength::TimeTableEdgeFinding`]; Vilím, "Timetable
///   edge finding filtering algorithm for discrete cumulative
///   resources", CPAIOR 2011; Schutt and Wolf, CP 2010): each task is
///   split into its compulsory part and its *free part* `dₖ − |[lstₖ,
///   ectₖ)|`. On every window `[a, b)` from an earliest start to a
///   latest completion, the window holds at least the energy of the
///   profile of the compulsory parts inside it plus the free energy of
///   the tasks with `a ≤ estₖ` and `lctₖ ≤ b`; more than
///   `capacity · (b − a)` fails it (this subsumes the overload check). A
///   task `j` with `a ≤ estⱼ < b < lctⱼ` whose free part, left-shifted,
///   does not fit in what the window leaves starts at `b − m` or later,
///   `m` as in energetic reasoning with the window's energy less `j`'s
///   own compulsory part in it. The windows are those of energetic
///   reasoning and each task's count there is at most its least part,
///   so energetic reasoning finds all it finds; the point is the cost,
///   O(1) per window for the check (the profile's energy by prefix
///   sums) and a scan of the window's candidates only when the largest
///   free part among them does not fit (Vilím's single candidate per
///   window, then every candidate of a window that prunes).
///
/// With variable durations, demands or capacity
/// ([`Model::cumulative_var`]), both rules run on the *relaxation* where
/// every task lasts its least duration at its least demand on the
/// largest capacity: any schedule of the real tasks is one of these
/// smaller tasks, so what the relaxation prunes, the constraint prunes
/// (the compulsory part of a task is `[max start, min start + min
/// duration)`). Then, on the amounts themselves:
/// * durations, demands and capacity lose their negative values;
/// * the capacity is at least the peak of the profile, and at least the
///   least demand of every task of positive least duration;
/// * a task of positive least duration demands at most the largest
///   capacity, and one whose least demand is over it lasts 0;
/// * **durations**: a task of positive least demand that must start by
///   `lst` runs at every time from its start up to its end, so it must end
///   by the first time `t ≥ lst` where the profile of the other tasks
///   leaves less than its demand: its duration is at most
///   `t − min start`;
/// * **demands**: a task with a compulsory part runs at every time of it,
///   so it demands at most the largest capacity less the other tasks'
///   profile at the highest point of that part.
///
/// With one task of positive duration and demand left open, its start
/// also loses the values in the middle of its domain where it would
/// overload the fixed tasks (the forward-checking contract); with one
/// duration, demand or capacity left open, the rules above are exact.
///
/// # Reasons
/// Every change is explained as in Schutt, Feydy, Stuckey and Wallace,
/// "Explaining the cumulative propagator" (Constraints 16(3), 2011): a
/// push past a profile segment names the tasks whose compulsory parts
/// cover the part of the segment the task would overlap (as few as the
/// capacity needs, largest demands first), each by the bounds that make
/// its compulsory part cover it, lifted as far as the segment allows, and
/// the task's own start no earlier than where it would still overlap. A
/// failure of the profile is explained at one time point (pointwise); an
/// overload by the tasks that fill the window, by the bounds that keep
/// them inside it. Energetic reasoning is explained lifted on the same
/// window: the tasks of most energy in it, until they leave the pushed
/// task too little room (or overflow the window), each by the bounds
/// `a + vₖ − dₖ ≤ sₖ ≤ b − vₖ` that keep its `vₖ` inside, and the pushed
/// task by `sⱼ ≥ a + m − dⱼ + 1`, the earliest start from which it still
/// runs more than `m` inside (a failure adds `sⱼ ≤ b − m − 1`).
/// Time-table edge finding is explained the same way on its window (each
/// task's least part there is at least what the rule counted, so the
/// tasks of most energy suffice), lifted as Schutt et al. lift their
/// edge-finding explanations: only the energy the pruning needs. With
/// variable amounts, every task a reason names also brings the lower
/// bounds of its duration and demand that the rule used (`dᵢ ≥ min dᵢ`,
/// `rᵢ ≥ min rᵢ`), and every rule that used the capacity brings its upper
/// bound (`capacity ≤ max capacity`).
///
/// Cost: O(n²) per call after sorts (O(n³) with energetic reasoning:
/// O(n²) windows, O(n) each; O(n² log n) with time-table edge finding,
/// plus O(n) per window that prunes), not idempotent (the kernel calls it
/// again after its own changes), no entailment. The checker is exact and
/// pairwise: the load peaks at some task's start, so it checks the load at
/// each start, O(n²). Local search: violations are the number of tasks
/// that start at an overloaded time or cannot fit at all, plus the number
/// of negative amounts.
#[derive(Debug, Clone)]
pub struct Cumulative {
    starts: Vec<VarId>,
    /// The starts, then the variable durations, demands and capacity.
    scope: Vec<VarId>,
    /// Durations (`0..n`), demands (`n..2n`), capacity (`2n`).
    amounts: Vec<Amount>,
    /// The scope position of each variable amount (else unused).
    pos: Vec<usize>,
    strength: CumulativeStrength,
}

impl Cumulative {
    /// Builds the constraint (the lists have the same length; constants
    /// are at least 0: [`Model::cumulative`] and
    /// [`Model::cumulative_var`] check both).
    fn build(
        starts: &[VarId],
        durations: impl IntoIterator<Item = Amount>,
        demands: impl IntoIterator<Item = Amount>,
        capacity: Amount,
        strength: CumulativeStrength,
    ) -> Cumulative {
        let mut amounts: Vec<Amount> = durations.into_iter().collect();
        amounts.extend(demands);
        amounts.push(capacity);
        let mut scope = starts.to_vec();
        let pos = amounts
            .iter()
            .map(|a| match *a {
                Amount::Fixed(_) => usize::MAX,
                Amount::Var(x) => {
                    scope.push(x);
                    scope.len() - 1
                }
            })
            .collect();
        Cumulative {
            starts: starts.to_vec(),
            scope,
            amounts,
            pos,
            strength,
        }
    }

    /// The start variables.
    pub fn starts(&self) -> &[VarId] {
        &self.starts
    }

    /// The durations, by task.
    pub fn durations(&self) -> &[Amount] {
        &self.amounts[..self.starts.len()]
    }

    /// The demands, by task.
    pub fn demands(&self) -> &[Amount] {
        &self.amounts[self.starts.len()..2 * self.starts.len()]
    }

    /// The capacity.
    pub fn capacity(&self) -> Amount {
        self.amounts[2 * self.starts.len()]
    }

    /// Are the durations, demands and capacity all constants?
    fn fixed(&self) -> bool {
        self.scope.len() == self.starts.len()
    }

    /// Amount `k` (duration `k`, demand `k − n`, or the capacity at
    /// `2n`) in the scope assignment `v`.
    fn amount(&self, k: usize, v: &[Value]) -> i64 {
        match self.amounts[k] {
            Amount::Fixed(c) => c,
            Amount::Var(_) => v[self.pos[k]] as i64,
        }
    }

    /// Amount `k` when it is a constant.
    fn constant(&self, k: usize) -> Option<i64> {
        match self.amounts[k] {
            Amount::Fixed(c) => Some(c),
            Amount::Var(_) => None,
        }
    }

    /// Can task `i` ever use the resource (no constant duration or demand
    /// of 0)?
    fn may_use(&self, i: usize) -> bool {
        let n = self.starts.len();
        self.constant(i).is_none_or(|d| d > 0) && self.constant(n + i).is_none_or(|r| r > 0)
    }

    /// Is the resource overloaded at time `t` under `v`?
    fn overloaded_at(&self, v: &[Value], t: i64) -> bool {
        let n = self.starts.len();
        let load: i64 = (0..n)
            .filter(|&i| {
                let (s, d) = (v[i] as i64, self.amount(i, v));
                self.amount(n + i, v) > 0 && s <= t && t < s + d
            })
            .map(|i| self.amount(n + i, v))
            .sum();
        load > self.amount(2 * n, v)
    }
}

impl Model {
    /// Tasks starting at `starts` with the given `durations` and
    /// `demands` never use more than `capacity` at once (see
    /// [`Cumulative`]), propagated at the default strength. Fails with
    /// [`ModelError::LengthMismatch`] when the lists differ in length and
    /// [`ModelError::Invalid`] for a negative duration, demand or
    /// capacity.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// // Three tasks of 2 time units, demands 2, 1 and 2, capacity 3.
    /// let s = m.new_vars(3, Domain::range(0, 3)).unwrap();
    /// m.cumulative(&s, &[2, 2, 2], &[2, 1, 2], 3).unwrap();
    /// let sol = Search::new(&m).solve().unwrap().solution.unwrap();
    /// let (a, c) = (sol.value(s[0]), sol.value(s[2]));
    /// assert!(a + 2 <= c || c + 2 <= a); // the two big tasks never overlap
    /// ```
    pub fn cumulative(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        demands: &[i32],
        capacity: i32,
    ) -> Result<ConstraintId, ModelError> {
        self.cumulative_with(
            starts,
            durations,
            demands,
            capacity,
            CumulativeStrength::default(),
        )
    }

    /// [`cumulative`](Model::cumulative) at the given strength.
    pub fn cumulative_with(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
        demands: &[i32],
        capacity: i32,
        strength: CumulativeStrength,
    ) -> Result<ConstraintId, ModelError> {
        let name = "cumulative";
        for (what, list) in [
            ("durations for the tasks", durations),
            ("demands for the tasks", demands),
        ] {
            if list.len() != starts.len() {
                return Err(ModelError::LengthMismatch {
                    constraint: name,
                    what,
                    expected: starts.len(),
                    found: list.len(),
                });
            }
        }
        for (what, list) in [("duration", durations), ("demand", demands)] {
            if let Some((i, d)) = list.iter().enumerate().find(|(_, &d)| d < 0) {
                return Err(ModelError::Invalid {
                    constraint: name,
                    reason: format!("task {i} has a negative {what} ({d})"),
                });
            }
        }
        if capacity < 0 {
            return Err(ModelError::Invalid {
                constraint: name,
                reason: format!("the capacity is negative ({capacity})"),
            });
        }
        let fixed = |list: &[i32]| -> Vec<Amount> {
            list.iter().map(|&k| Amount::Fixed(k as i64)).collect()
        };
        self.post(Cumulative::build(
            starts,
            fixed(durations),
            fixed(demands),
            Amount::Fixed(capacity as i64),
            strength,
        ))
    }

    /// [`cumulative`](Model::cumulative) with variable durations, demands
    /// and capacity (see [`Cumulative`]), at the default strength. The
    /// constraint makes them at least 0 (as MiniZinc's `cumulative`
    /// requires): negative values in their domains are pruned, never an
    /// error. Fails with [`ModelError::LengthMismatch`] when the lists
    /// differ in length.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// // Two tasks of 2 or 3 time units, each demanding 2, on a capacity
    /// // of at most 2.
    /// let s = m.new_vars(2, Domain::range(0, 3)).unwrap();
    /// let d = m.new_vars(2, Domain::range(2, 3)).unwrap();
    /// let r = m.new_vars(2, Domain::singleton(2)).unwrap();
    /// let cap = m.new_var(Domain::range(0, 2)).unwrap();
    /// m.cumulative_var(&s, &d, &r, cap).unwrap();
    /// let sol = Search::new(&m).solve().unwrap().solution.unwrap();
    /// assert_eq!(sol.value(cap), 2); // a task demands 2
    /// // Each uses the whole capacity while it runs: they never overlap.
    /// let (a, b) = (sol.value(s[0]), sol.value(s[1]));
    /// assert!(a + sol.value(d[0]) <= b || b + sol.value(d[1]) <= a);
    /// ```
    pub fn cumulative_var(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
        demands: &[VarId],
        capacity: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.cumulative_var_with(
            starts,
            durations,
            demands,
            capacity,
            CumulativeStrength::default(),
        )
    }

    /// [`cumulative_var`](Model::cumulative_var) at the given strength.
    pub fn cumulative_var_with(
        &mut self,
        starts: &[VarId],
        durations: &[VarId],
        demands: &[VarId],
        capacity: VarId,
        strength: CumulativeStrength,
    ) -> Result<ConstraintId, ModelError> {
        for (what, list) in [
            ("durations for the tasks", durations),
            ("demands for the tasks", demands),
        ] {
            if list.len() != starts.len() {
                return Err(ModelError::LengthMismatch {
                    constraint: "cumulative",
                    what,
                    expected: starts.len(),
                    found: list.len(),
                });
            }
        }
        let var =
            |list: &[VarId]| -> Vec<Amount> { list.iter().map(|&x| Amount::Var(x)).collect() };
        self.post(Cumulative::build(
            starts,
            var(durations),
            var(demands),
            Amount::Var(capacity),
            strength,
        ))
    }
}

impl Constraint for Cumulative {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        self.violations(v) == 0
    }
    fn name(&self) -> &str {
        "cumulative"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let n = self.starts.len();
        let name = |k: usize| match self.amounts[k] {
            Amount::Fixed(c) => c.to_string(),
            Amount::Var(_) => vars[self.pos[k]].clone(),
        };
        // Only the tasks that may use the resource: solvers differ on a
        // task of duration 0 whose demand is over the capacity (here it
        // is ignored).
        let used: Vec<usize> = (0..n).filter(|&i| self.may_use(i)).collect();
        let negative = (0..=2 * n)
            .filter(|&k| self.constant(k).is_none())
            .map(|k| format!("{} >= 0", name(k)));
        let mut parts: Vec<String> = negative.collect();
        if !used.is_empty() {
            let list = |off: usize| {
                let names: Vec<String> = used.iter().map(|&i| name(off + i)).collect();
                format!("[{}]", names.join(", "))
            };
            let starts: Vec<String> = used.iter().map(|&i| vars[i].clone()).collect();
            parts.push(format!(
                "cumulative({}, {}, {}, {})",
                crate::minizinc::list(&starts),
                list(0),
                list(n),
                name(2 * n)
            ));
        }
        match parts.is_empty() {
            true => Some("true".into()),
            false => Some(parts.join(" /\\ ")),
        }
    }
    fn violations(&self, v: &[Value]) -> u64 {
        let n = self.starts.len();
        let cap = self.amount(2 * n, v);
        let negative = (0..=2 * n).filter(|&k| self.amount(k, v) < 0).count();
        let tasks = (0..n)
            .filter(|&i| {
                let (d, r) = (self.amount(i, v), self.amount(n + i, v));
                d > 0 && r > 0 && (r > cap || self.overloaded_at(v, v[i] as i64))
            })
            .count();
        (negative + tasks) as u64
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let n = self.starts.len();
        // Constants only: the tasks that use the resource. Otherwise every
        // task that may.
        let tasks: Vec<usize> = (0..n).filter(|&i| self.may_use(i)).collect();
        let var = |k: usize| match self.amounts[k] {
            Amount::Fixed(_) => None,
            Amount::Var(x) => Some(x),
        };
        let fixed = |k: usize| self.constant(k).unwrap_or(0);
        let view = View {
            vars: tasks.iter().map(|&i| self.starts[i]).collect(),
            dur: tasks.iter().map(|&i| fixed(i)).collect(),
            dem: tasks.iter().map(|&i| fixed(n + i)).collect(),
            dvar: tasks.iter().map(|&i| var(i)).collect(),
            rvar: tasks.iter().map(|&i| var(n + i)).collect(),
            cvar: var(2 * n),
            cap: fixed(2 * n),
            est: vec![0; tasks.len()],
            lst: vec![0; tasks.len()],
            ..View::default()
        };
        let impossible = self.fixed()
            && tasks
                .iter()
                .any(|&i| fixed(n + i) > fixed(2 * n) && fixed(i) > 0);
        Some(Box::new(CumulativeProp {
            c: self,
            impossible,
            view,
        }))
    }
}

/// The tasks that use the resource, seen in one direction of time: in
/// the mirrored view a task's start is `−(s + d)`, so its latest start
/// becomes an earliest start and the same rules give latest starts. All
/// times in `i64`: an end `s + d` or a mirrored start never overflows.
///
/// With variable amounts, the view holds the relaxation: least durations
/// and demands, largest capacity, read at each [`load`](View::load).
#[derive(Debug, Default)]
struct View {
    mirror: bool,
    vars: Vec<VarId>,
    dur: Vec<i64>,
    dem: Vec<i64>,
    /// The variable durations and demands, by task.
    dvar: Vec<Option<VarId>>,
    rvar: Vec<Option<VarId>>,
    /// The variable capacity, and the capacity (its largest value).
    cvar: Option<VarId>,
    cap: i64,
    est: Vec<i64>,
    lst: Vec<i64>,
    /// The profile: segments `[a, b)` of constant positive height `h`,
    /// in time order, from the events (time, change of height).
    segs: Vec<(i64, i64, i64)>,
    events: Vec<(i64, i64)>,
    /// The tasks by latest completion (energetic check).
    by_lct: Vec<usize>,
    /// Each task's least energy inside the current window (energetic
    /// reasoning).
    need: Vec<i128>,
    /// Time-table edge finding: each task's earliest start and the
    /// length of its compulsory part when the profile was built, the
    /// profile's energy before each segment, the tasks by earliest start
    /// (latest first), the latest completions, and the candidates of a
    /// window.
    est0: Vec<i64>,
    cp: Vec<i64>,
    prefix: Vec<i128>,
    by_est: Vec<usize>,
    ends: Vec<i64>,
    cands: Vec<usize>,
}

impl View {
    /// Reads the bounds from the domains.
    fn load(&mut self, p: &Pruner<'_>, mirror: bool) {
        self.mirror = mirror;
        for k in 0..self.vars.len() {
            if let Some(x) = self.dvar[k] {
                self.dur[k] = (p.min(x) as i64).max(0);
            }
            if let Some(x) = self.rvar[k] {
                self.dem[k] = (p.min(x) as i64).max(0);
            }
            let (lo, hi) = (p.min(self.vars[k]) as i64, p.max(self.vars[k]) as i64);
            (self.est[k], self.lst[k]) = match mirror {
                false => (lo, hi),
                true => (-(hi + self.dur[k]), -(lo + self.dur[k])),
            };
        }
        if let Some(x) = self.cvar {
            self.cap = p.max(x) as i64;
        }
    }

    fn ect(&self, k: usize) -> i64 {
        self.est[k] + self.dur[k]
    }

    /// `sₖ ≥ v` in this view, as a literal on the real start.
    fn ge(&self, k: usize, v: i64) -> Literal {
        match self.mirror {
            false => Literal::Ge(self.vars[k], clamp(v)),
            true => Literal::Le(self.vars[k], clamp(-v - self.dur[k])),
        }
    }

    /// `sₖ ≤ v` in this view, as a literal on the real start.
    fn le(&self, k: usize, v: i64) -> Literal {
        match self.mirror {
            false => Literal::Le(self.vars[k], clamp(v)),
            true => Literal::Ge(self.vars[k], clamp(-v - self.dur[k])),
        }
    }

    /// Premises `dₖ ≥ min dₖ` and `rₖ ≥ min rₖ` for the variable amounts
    /// of task `k` that the relaxation used (none when 0).
    fn amounts(&self, r: &mut Premises<'_>, k: usize) {
        if let Some(x) = self.dvar[k].filter(|_| self.dur[k] > 0) {
            r.push(Literal::Ge(x, clamp(self.dur[k])));
        }
        if let Some(x) = self.rvar[k].filter(|_| self.dem[k] > 0) {
            r.push(Literal::Ge(x, clamp(self.dem[k])));
        }
    }

    /// Premise `capacity ≤ max capacity` for a variable capacity.
    fn cap_le(&self, r: &mut Premises<'_>) {
        if let Some(x) = self.cvar {
            r.push(Literal::Le(x, clamp(self.cap)));
        }
    }

    /// Raises task `k`'s start to `v` in this view (`v` lies within its
    /// bounds).
    fn raise(
        &self,
        p: &mut Pruner<'_>,
        k: usize,
        v: i64,
        because: impl FnOnce(&mut Premises<'_>),
    ) -> Result<bool, Conflict> {
        match self.mirror {
            false => p.set_min(self.vars[k], v as Value, because),
            true => p.set_max(self.vars[k], (-v - self.dur[k]) as Value, because),
        }
    }

    /// Builds the profile of the compulsory parts `[lst, ect)`.
    fn profile(&mut self) {
        self.events.clear();
        for k in 0..self.vars.len() {
            if self.lst[k] < self.ect(k) {
                self.events.push((self.lst[k], self.dem[k]));
                self.events.push((self.ect(k), -self.dem[k]));
            }
        }
        self.events.sort_unstable();
        self.segs.clear();
        let (mut h, mut e) = (0, 0);
        while e < self.events.len() {
            let t = self.events[e].0;
            while e < self.events.len() && self.events[e].0 == t {
                h += self.events[e].1;
                e += 1;
            }
            if h > 0 && e < self.events.len() {
                self.segs.push((t, self.events[e].0, h));
            }
        }
    }

    /// Premises: tasks other than `skip` whose bounds make them run
    /// throughout `[lo, hi]` (inclusive), with demands summing to at
    /// least `need`, largest demands first; each as `s ≤ lo` and
    /// `s ≥ hi + 1 − d`. The caller knows that the tasks whose compulsory
    /// parts cover `[lo, hi]` demand enough.
    fn cover(&self, r: &mut Premises<'_>, skip: Option<usize>, lo: i64, hi: i64, need: i64) {
        let mut covering: Vec<usize> = (0..self.vars.len())
            .filter(|&k| Some(k) != skip && self.lst[k] <= lo && self.ect(k) > hi)
            .collect();
        covering.sort_unstable_by_key(|&k| std::cmp::Reverse(self.dem[k]));
        let mut sum = 0;
        for k in covering {
            if sum >= need {
                break;
            }
            sum += self.dem[k];
            r.push(self.le(k, lo));
            r.push(self.ge(k, hi + 1 - self.dur[k]));
            self.amounts(r, k);
        }
        debug_assert!(sum >= need, "the cover demands {sum} < {need}");
    }

    /// Fails when the profile exceeds the capacity anywhere, explained at
    /// the start of the first segment that does; a variable capacity
    /// rises to the profile's peak.
    fn check_profile(&self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        if let Some(&(a, _, _)) = self.segs.iter().find(|s| s.2 > cap) {
            return Err(p.fail(|r: &mut Premises<'_>| {
                self.cover(r, None, a, a, cap + 1);
                self.cap_le(r);
            }));
        }
        if let Some(x) = self.cvar {
            let peak = self.segs.iter().max_by_key(|s| s.2);
            if let Some(&(a, _, h)) = peak.filter(|s| s.2 > p.min(x) as i64) {
                // h ≤ cap, a Value.
                p.set_min(x, h as Value, |r: &mut Premises<'_>| {
                    self.cover(r, None, a, a, h)
                })?;
            }
        }
        Ok(())
    }

    /// Time-tabling on the earliest starts: every task that would overlap
    /// a segment of the profile where its demand does not fit starts at
    /// the segment's end or later.
    fn time_table(&self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        for j in 0..self.vars.len() {
            let (d, rj, lst) = (self.dur[j], self.dem[j], self.lst[j]);
            if d == 0 || rj == 0 {
                // Free (with variable amounts, for now).
                continue;
            }
            let own = |a: i64, b: i64| match lst <= a && self.ect(j) >= b {
                true => rj,
                false => 0,
            };
            let mut lo = self.est[j];
            let mut q = self.segs.partition_point(|s| s.1 <= lo);
            while let Some(&(a, b, h)) = self.segs.get(q) {
                if a >= lo + d {
                    break;
                }
                q += 1;
                if h - own(a, b) + rj <= cap {
                    continue;
                }
                // Starting anywhere in [from − d + 1, b − 1], j overlaps
                // [from, b − 1], which the others fill beyond cap − rj.
                let from = a.max(lo);
                let because = |r: &mut Premises<'_>| {
                    r.push(self.ge(j, from - d + 1));
                    self.amounts(r, j);
                    self.cap_le(r);
                    self.cover(r, Some(j), from, b - 1, cap - rj + 1);
                };
                if b > lst {
                    return Err(p.fail(|r: &mut Premises<'_>| {
                        r.push(self.le(j, lst));
                        because(r);
                    }));
                }
                self.raise(p, j, b, because)?;
                lo = b;
            }
        }
        Ok(())
    }

    /// The rules on each task's own amounts (variable amounts only): a
    /// task of positive duration fits under the capacity, so its demand
    /// is at most the largest capacity and the capacity at least its
    /// demand; a task that demands more than the capacity lasts 0.
    fn task_rules(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let cap = self.cap;
        for k in 0..self.vars.len() {
            let (d, rk) = (self.dur[k], self.dem[k]);
            let (dvar, rvar) = (self.dvar[k], self.rvar[k]);
            if d > 0 {
                let runs = |r: &mut Premises<'_>| {
                    if let Some(x) = dvar {
                        r.push(Literal::Ge(x, 1));
                    }
                };
                if let Some(x) = rvar {
                    lower(p, x, cap, |r: &mut Premises<'_>| {
                        runs(r);
                        self.cap_le(r);
                    })?;
                }
                if let Some(x) = self.cvar.filter(|_| rk > 0) {
                    raise(p, x, rk, |r: &mut Premises<'_>| {
                        runs(r);
                        if let Some(y) = rvar {
                            r.push(Literal::Ge(y, clamp(rk)));
                        }
                    })?;
                }
            }
            if let Some(x) = dvar.filter(|_| rk > cap) {
                lower(p, x, 0, |r: &mut Premises<'_>| {
                    if let Some(y) = rvar {
                        r.push(Literal::Ge(y, clamp(cap + 1)));
                    }
                    self.cap_le(r);
                })?;
            }
            if d > 0 && rk > cap && dvar.is_none() && rvar.is_none() && self.cvar.is_none() {
                return Err(p.fail(Why::Constraint));
            }
        }
        Ok(())
    }

    /// The rules on durations and demands against the profile (forward
    /// view, variable amounts only; the profile within the capacity).
    fn amount_rules(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let cap = self.cap;
        for j in 0..self.vars.len() {
            let (est, lst, rj) = (self.est[j], self.lst[j], self.dem[j]);
            let own = |a: i64, b: i64| match lst <= a && self.ect(j) >= b {
                true => rj,
                false => 0,
            };
            // Durations: j runs at every time in [s, s + d), and s ≤ lst,
            // so it ends by the first time t ≥ lst where it does not fit.
            if let Some(x) = self.dvar[j].filter(|_| rj > 0) {
                let q = self.segs.partition_point(|s| s.1 <= lst);
                let over = self.segs[q..]
                    .iter()
                    .find(|&&(a, b, h)| h - own(a, b) + rj > cap);
                if let Some(&(a, _, _)) = over {
                    let t = a.max(lst);
                    lower(p, x, t - est, |r: &mut Premises<'_>| {
                        r.push(self.le(j, t));
                        r.push(self.ge(j, est));
                        if let Some(y) = self.rvar[j] {
                            r.push(Literal::Ge(y, clamp(rj)));
                        }
                        self.cap_le(r);
                        self.cover(r, Some(j), t, t, cap - rj + 1);
                    })?;
                }
            }
            // Demands: j runs throughout its compulsory part, beside the
            // others' profile there.
            let Some(x) = self.rvar[j].filter(|_| lst < self.ect(j)) else {
                continue;
            };
            let q = self.segs.partition_point(|s| s.1 <= lst);
            let inside = self.segs[q..].iter().take_while(|s| s.0 < self.ect(j));
            let Some(&(a, _, h)) = inside.max_by_key(|s| s.2) else {
                continue;
            };
            let (others, d) = (h - rj, self.dur[j]);
            lower(p, x, cap - others, |r: &mut Premises<'_>| {
                r.push(self.le(j, a));
                r.push(self.ge(j, a + 1 - d));
                if let Some(y) = self.dvar[j] {
                    r.push(Literal::Ge(y, clamp(d)));
                }
                self.cap_le(r);
                self.cover(r, Some(j), a, a, others);
            })?;
        }
        Ok(())
    }

    /// Energetic overload checking: for each earliest start `a` and latest
    /// completion `b`, the tasks that must run within `[a, b)` fit in
    /// `cap · (b − a)`.
    fn overload(&mut self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        let n = self.vars.len();
        self.by_lct.clear();
        self.by_lct.extend(0..n);
        let (lst, dur) = (&self.lst, &self.dur);
        self.by_lct.sort_unstable_by_key(|&k| lst[k] + dur[k]);
        let energy = |k: usize| self.dur[k] as i128 * self.dem[k] as i128;
        for i in 0..n {
            let a = self.est[i];
            // Each distinct earliest start once: the first task that has it.
            if (0..i).any(|k| self.est[k] == a) {
                continue;
            }
            let mut e: i128 = 0;
            for &k in &self.by_lct {
                if self.est[k] < a {
                    continue;
                }
                e += energy(k);
                let b = self.lst[k] + self.dur[k];
                let room = cap as i128 * (b - a) as i128;
                if e <= room {
                    continue;
                }
                // Premises: the inside tasks of most energy that overflow.
                return Err(p.fail(|r: &mut Premises<'_>| {
                    let mut inside: Vec<usize> = (0..n)
                        .filter(|&t| self.est[t] >= a && self.lst[t] + self.dur[t] <= b)
                        .collect();
                    inside.sort_unstable_by_key(|&t| std::cmp::Reverse(energy(t)));
                    let mut sum = 0;
                    for t in inside {
                        if sum > room {
                            break;
                        }
                        sum += energy(t);
                        r.push(self.ge(t, a));
                        r.push(self.le(t, b - self.dur[t]));
                        self.amounts(r, t);
                    }
                    self.cap_le(r);
                }));
            }
        }
        Ok(())
    }

    /// Energetic reasoning with pushes on the windows from an earliest
    /// start `a` to a latest completion `b`: every task `k` runs at least
    /// `vₖ = max(0, min(b − a, dₖ, ectₖ − a, b − lstₖ))` time units inside
    /// `[a, b)` wherever it starts within its bounds (its left- or
    /// right-shifted part), so the window fails when `Σ vₖ·rₖ` exceeds
    /// `cap · (b − a)`, and a task `j` whose part in the window, starting
    /// at its earliest start, does not fit beside the others' `Σ vₖ·rₖ`
    /// starts late enough that it does: at `b − m` with
    /// `m = ⌊(cap · (b − a) − Σ_{k≠j} vₖ·rₖ) / rⱼ⌋`. O(n³) per call: O(n²)
    /// windows, O(n) each.
    fn energetic(&mut self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        let n = self.vars.len();
        let uses = |v: &View, k: usize| v.dur[k] > 0 && v.dem[k] > 0;
        let mut starts: Vec<i64> = (0..n)
            .filter(|&k| uses(self, k))
            .map(|k| self.est[k])
            .collect();
        starts.sort_unstable();
        starts.dedup();
        let mut ends: Vec<i64> = (0..n)
            .filter(|&k| uses(self, k))
            .map(|k| self.lst[k] + self.dur[k])
            .collect();
        ends.sort_unstable();
        ends.dedup();
        self.need.clear();
        self.need.resize(n, 0);
        for &a in &starts {
            let first = ends.partition_point(|&b| b <= a);
            for &b in &ends[first..] {
                let room = cap as i128 * (b - a) as i128;
                let mut total: i128 = 0;
                for k in 0..n {
                    self.need[k] = self.inside(k, a, b) as i128 * self.dem[k] as i128;
                    total += self.need[k];
                }
                if total > room {
                    return Err(p.fail(|r: &mut Premises<'_>| {
                        self.energy(r, None, a, b, room + 1);
                        self.cap_le(r);
                    }));
                }
                for j in 0..n {
                    let (d, rj, est) = (self.dur[j], self.dem[j], self.est[j]);
                    if d == 0 || rj == 0 {
                        continue;
                    }
                    // j's part of the window if it starts at est.
                    let over = (b.min(est + d) - a.max(est)).max(0);
                    // At least 0: the others leave room ≥ total − need[j].
                    let m = (room - (total - self.need[j])) / rj as i128;
                    if over as i128 <= m {
                        continue;
                    }
                    self.push_out(p, j, a, b, m as i64, room)?;
                }
            }
        }
        Ok(())
    }

    /// Task `j`, which may run at most `m` inside the window `[a, b)` of
    /// energy `room` and would run more (`m < over ≤ dⱼ`) from its earliest
    /// start, starts at `b − m` or later: anywhere in `[a + m − dⱼ + 1,
    /// b − m − 1]` it runs more than `m` inside. Fails when `b − m` is
    /// past its latest start. Shared by energetic reasoning and time-table
    /// edge finding, with the same lifted reason.
    fn push_out(
        &mut self,
        p: &mut Pruner<'_>,
        j: usize,
        a: i64,
        b: i64,
        m: i64,
        room: i128,
    ) -> Result<(), Conflict> {
        let (d, rj) = (self.dur[j], self.dem[j]);
        let to = b - m;
        let need = room - (m as i128 + 1) * rj as i128 + 1;
        let because = |r: &mut Premises<'_>| {
            r.push(self.ge(j, a + m - d + 1));
            self.amounts(r, j);
            self.cap_le(r);
            self.energy(r, Some(j), a, b, need);
        };
        if to > self.lst[j] {
            return Err(p.fail(|r: &mut Premises<'_>| {
                r.push(self.le(j, to - 1));
                because(r);
            }));
        }
        self.raise(p, j, to, because)?;
        self.est[j] = to;
        Ok(())
    }

    /// The profile's energy before time `t` (after
    /// [`prefix_energy`](View::prefix_energy)).
    fn energy_before(&self, t: i64) -> i128 {
        let q = self.segs.partition_point(|s| s.1 <= t);
        let mut e = self.prefix[q];
        if let Some(&(a, _, h)) = self.segs.get(q).filter(|s| s.0 < t) {
            e += h as i128 * (t - a) as i128;
        }
        e
    }

    /// Fills `prefix`: the profile's energy before each segment, and the
    /// whole profile's at the end.
    fn prefix_energy(&mut self) {
        self.prefix.clear();
        let mut e: i128 = 0;
        self.prefix.push(0);
        for &(a, b, h) in &self.segs {
            e += h as i128 * (b - a) as i128;
            self.prefix.push(e);
        }
    }

    /// Task `k`'s compulsory part inside `[a, b)`, as the profile has it.
    fn cp_inside(&self, k: usize, a: i64, b: i64) -> i64 {
        match self.cp[k] > 0 {
            true => (b.min(self.lst[k] + self.cp[k]) - a.max(self.lst[k])).max(0),
            false => 0,
        }
    }

    /// Time-table edge finding (Vilím, CPAIOR 2011) on the windows `[a,
    /// b)` from an earliest start to a latest completion, after
    /// [`profile`](View::profile): the window holds the profile's energy
    /// inside it plus the free energy `rₖ·(dₖ − |[lstₖ, ectₖ)|)` of each
    /// task with `a ≤ estₖ` and `lctₖ ≤ b`. More than `cap · (b − a)`
    /// fails; a task `j` with `a ≤ estⱼ < b < lctⱼ` whose part of the
    /// window when it starts at `estⱼ`, beyond its compulsory part
    /// there, exceeds what the window leaves starts at `b − m` with `m =
    /// ⌊(cap · (b − a) − (total − rⱼ·|cpⱼ ∩ [a, b)|)) / rⱼ⌋` (as in
    /// [`energetic`](View::energetic), whose explanation it shares). For
    /// each latest completion `b`, the earliest starts `a` go down while
    /// the free energy inside and the largest excess of the candidates
    /// accumulate: O(n² log n) per call, plus O(n) for each window that
    /// prunes.
    fn ttef(&mut self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        let n = self.vars.len();
        self.prefix_energy();
        self.est0.clear();
        self.est0.extend_from_slice(&self.est);
        self.cp.clear();
        for k in 0..n {
            let cp = (self.ect(k) - self.lst[k]).max(0);
            self.cp.push(cp);
        }
        let uses = |v: &View, k: usize| v.dur[k] > 0 && v.dem[k] > 0;
        let mut by_est = std::mem::take(&mut self.by_est);
        by_est.clear();
        by_est.extend((0..n).filter(|&k| uses(self, k)));
        by_est.sort_unstable_by_key(|&k| std::cmp::Reverse(self.est0[k]));
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        ends.extend(by_est.iter().map(|&k| self.lst[k] + self.dur[k]));
        ends.sort_unstable();
        ends.dedup();
        let mut cands = std::mem::take(&mut self.cands);
        let result = (|| {
            for &b in ends.iter().rev() {
                let mut free: i128 = 0;
                // The largest excess r·(over − cp inside) of a candidate.
                let mut best: i128 = 0;
                cands.clear();
                for q in 0..by_est.len() {
                    let i = by_est[q];
                    let a = self.est0[i];
                    if self.lst[i] + self.dur[i] <= b {
                        free += self.dem[i] as i128 * (self.dur[i] - self.cp[i]) as i128;
                    } else if a < b {
                        cands.push(i);
                        best = best.max(self.excess(i, b));
                    }
                    if by_est.get(q + 1).is_some_and(|&k| self.est0[k] == a) || a >= b {
                        continue;
                    }
                    let room = cap as i128 * (b - a) as i128;
                    let total = self.energy_before(b) - self.energy_before(a) + free;
                    if total > room {
                        return Err(p.fail(|r: &mut Premises<'_>| {
                            self.energy(r, None, a, b, room + 1);
                            self.cap_le(r);
                        }));
                    }
                    let slack = room - total;
                    if best <= slack {
                        continue;
                    }
                    best = 0;
                    for &j in &cands {
                        let (d, rj, est) = (self.dur[j], self.dem[j], self.est[j]);
                        // The others hold at least total − own; j runs at
                        // most m inside.
                        let own = rj as i128 * self.cp_inside(j, a, b) as i128;
                        let m = (slack + own) / rj as i128;
                        let over = (b.min(est + d) - a.max(est)).max(0);
                        if over as i128 <= m {
                            best = best.max(self.excess(j, b));
                            continue;
                        }
                        self.push_out(p, j, a, b, m as i64, room)?;
                        best = best.max(self.excess(j, b));
                    }
                }
            }
            Ok(())
        })();
        self.by_est = by_est;
        self.ends = ends;
        self.cands = cands;
        result
    }

    /// For a task `k` with `a ≤ estₖ < b`: the energy it puts into `[a,
    /// b)` when it starts at its earliest start, beyond its compulsory
    /// part there (the same for every such `a`).
    fn excess(&self, k: usize, b: i64) -> i128 {
        let est = self.est[k];
        let over = (b.min(est + self.dur[k]) - est).max(0);
        self.dem[k] as i128 * (over - self.cp_inside(k, est, b)) as i128
    }

    /// The least time task `k` runs inside `[a, b)` when it starts within
    /// its bounds (0 for a task that uses nothing).
    fn inside(&self, k: usize, a: i64, b: i64) -> i64 {
        match self.dur[k] == 0 || self.dem[k] == 0 {
            true => 0,
            false => (b - a)
                .min(self.dur[k])
                .min(self.ect(k) - a)
                .min(b - self.lst[k])
                .max(0),
        }
    }

    /// Premises: tasks other than `skip` that must run inside `[a, b)`
    /// for an energy of at least `need` (largest first), each as the
    /// bounds `a + v − d ≤ s ≤ b − v` that keep `v` of its time units
    /// inside. The caller knows that all of them together have enough.
    fn energy(&self, r: &mut Premises<'_>, skip: Option<usize>, a: i64, b: i64, need: i128) {
        let mut parts: Vec<(usize, i64, i128)> = (0..self.vars.len())
            .filter(|&k| Some(k) != skip)
            .map(|k| {
                let v = self.inside(k, a, b);
                (k, v, v as i128 * self.dem[k] as i128)
            })
            .filter(|t| t.2 > 0)
            .collect();
        parts.sort_unstable_by_key(|t| std::cmp::Reverse(t.2));
        let mut sum = 0;
        for (k, v, e) in parts {
            if sum >= need {
                break;
            }
            sum += e;
            r.push(self.ge(k, a + v - self.dur[k]));
            r.push(self.le(k, b - v));
            self.amounts(r, k);
        }
        debug_assert!(sum >= need, "the window holds {sum} < {need}");
    }

    /// The forward-checking contract: with task `j` the only one open,
    /// its start loses every value at which it overlaps a segment of the
    /// profile (of fixed tasks, so exact) where its demand does not fit.
    /// Each value goes with the tasks running at one time point it would
    /// overlap.
    fn last_open(&self, p: &mut Pruner<'_>, j: usize, cap: i64) -> Result<(), Conflict> {
        let (x, d, rj) = (self.vars[j], self.dur[j], self.dem[j]);
        if d == 0 || rj == 0 {
            return Ok(());
        }
        for &(a, b, h) in &self.segs {
            let own = if self.lst[j] <= a && self.ect(j) >= b {
                rj
            } else {
                0
            };
            if h - own + rj <= cap {
                continue;
            }
            let first = clamp(a - d + 1);
            let mut v = match p.contains(x, first) {
                true => Some(first),
                false => p.next_above(x, first),
            };
            while let Some(w) = v.filter(|&w| (w as i64) < b) {
                let t = a.max(w as i64);
                p.remove(x, w, |r: &mut Premises<'_>| {
                    self.amounts(r, j);
                    self.cap_le(r);
                    self.cover(r, Some(j), t, t, cap - rj + 1)
                })?;
                v = p.next_above(x, w);
            }
        }
        Ok(())
    }
}

/// `x ≤ v` because of `because`, or a failure when `v` is below `x`'s
/// least value (explained by `because` and that bound).
fn lower(
    p: &mut Pruner<'_>,
    x: VarId,
    v: i64,
    because: impl Fn(&mut Premises<'_>),
) -> Result<bool, Conflict> {
    let min = p.min(x);
    if v < min as i64 {
        return Err(p.fail(|r: &mut Premises<'_>| {
            because(r);
            r.push(Literal::Ge(x, min));
        }));
    }
    match v < p.max(x) as i64 {
        true => p.set_max(x, v as Value, because),
        false => Ok(false),
    }
}

/// `x ≥ v` because of `because`, or a failure when `v` is above `x`'s
/// largest value.
fn raise(
    p: &mut Pruner<'_>,
    x: VarId,
    v: i64,
    because: impl Fn(&mut Premises<'_>),
) -> Result<bool, Conflict> {
    let max = p.max(x);
    if v > max as i64 {
        return Err(p.fail(|r: &mut Premises<'_>| {
            because(r);
            r.push(Literal::Le(x, max));
        }));
    }
    match v > p.min(x) as i64 {
        true => p.set_min(x, v as Value, because),
        false => Ok(false),
    }
}

/// `v` clamped to the `i32` range: a literal beyond it says the same as
/// one at its end.
fn clamp(v: i64) -> Value {
    v.clamp(Value::MIN as i64, Value::MAX as i64) as Value
}

#[derive(Debug)]
struct CumulativeProp<'a> {
    c: &'a Cumulative,
    /// A task of positive duration demands more than the capacity.
    impossible: bool,
    view: View,
}

impl Propagator for CumulativeProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let n = self.c.starts.len();
        for (i, &x) in self.c.starts.iter().enumerate() {
            if self.c.may_use(i) {
                setup.subscribe(x, i, Events::BOUNDS);
            }
        }
        for (k, a) in self.c.amounts.iter().enumerate() {
            if let Amount::Var(x) = *a {
                if k == 2 * n || self.c.may_use(k % n) {
                    setup.subscribe(x, self.c.pos[k], Events::BOUNDS);
                }
            }
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.impossible {
            return Err(p.fail(Why::Constraint));
        }
        let n = self.c.starts.len();
        let fixed = self.c.fixed();
        if !fixed {
            // Amounts are at least 0.
            for a in &self.c.amounts {
                if let Amount::Var(x) = *a {
                    p.set_min(x, 0, Why::Constraint)?;
                }
            }
        }
        let v = &mut self.view;
        if v.vars.is_empty() {
            return Ok(());
        }
        if !fixed {
            v.load(p, false);
            v.task_rules(p)?;
        }
        match self.c.strength {
            CumulativeStrength::TimeTable => {}
            CumulativeStrength::Energetic => {
                v.load(p, false);
                v.overload(p, v.cap)?;
            }
            CumulativeStrength::EnergeticReasoning => {
                for mirror in [false, true] {
                    v.load(p, mirror);
                    v.energetic(p, v.cap)?;
                }
            }
            CumulativeStrength::TimeTableEdgeFinding => {
                for mirror in [false, true] {
                    v.load(p, mirror);
                    v.profile();
                    v.ttef(p, v.cap)?;
                }
            }
        }
        for mirror in [false, true] {
            v.load(p, mirror);
            v.profile();
            v.check_profile(p, v.cap)?;
            v.time_table(p, v.cap)?;
        }
        if !fixed {
            v.load(p, false);
            v.profile();
            v.check_profile(p, v.cap)?;
            v.amount_rules(p)?;
        }
        let amounts_fixed = fixed || self.c.scope[n..].iter().all(|&x| p.is_fixed(x));
        let mut open = (0..v.vars.len()).filter(|&k| !p.is_fixed(v.vars[k]));
        if let (Some(j), None, true) = (open.next(), open.next(), amounts_fixed) {
            v.load(p, false);
            v.profile();
            v.last_open(p, j, v.cap)?;
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Quadratic
    }
    fn is_idempotent(&self) -> bool {
        false
    }
    fn name(&self) -> &str {
        "cumulative"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(tasks: &[(i64, i64, i64, i64)]) -> View {
        let n = tasks.len();
        let mut v = View {
            vars: (0..n).map(VarId::from_index).collect(),
            ..View::default()
        };
        for &(est, lst, d, r) in tasks {
            v.est.push(est);
            v.lst.push(lst);
            v.dur.push(d);
            v.dem.push(r);
        }
        v
    }

    #[test]
    fn profile_of_compulsory_parts() {
        // A: [2, 5) compulsory (est 0, lst 2, d 5); B: [3, 4) (est 3,
        // lst 3, d 1); C: none (est 0, lst 9, d 2).
        let mut v = view(&[(0, 2, 5, 2), (3, 3, 1, 1), (0, 9, 2, 4)]);
        v.profile();
        assert_eq!(v.segs, vec![(2, 3, 2), (3, 4, 3), (4, 5, 2)]);
    }
}
