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
}

/// Tasks `i` starting at `starts[i]`, lasting `durations[i]` and using
/// `demands[i]` units of a resource of `capacity` units (all constants,
/// at least 0): at every time `t`, the demands of the tasks running at
/// `t` (`sᵢ ≤ t < sᵢ + dᵢ`) sum to at most the capacity. A task of
/// duration 0 or demand 0 uses nothing and is free; a task of positive
/// duration that demands more than the capacity cannot be scheduled, so
/// the constraint has no solution.
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
///   Nuijten, *Constraint-Based Scheduling*, 2001).
///
/// With one task of positive duration and demand left open, its start
/// also loses the values in the middle of its domain where it would
/// overload the fixed tasks (the forward-checking contract).
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
/// them inside it.
///
/// Cost: O(n²) per call after sorts, not idempotent (the kernel calls it
/// again after its own changes), no entailment. The checker is exact and
/// pairwise: the load peaks at some task's start, so it checks the load at
/// each start, O(n²). Local search: violations are the number of tasks
/// that start at an overloaded time or cannot fit at all.
#[derive(Debug, Clone)]
pub struct Cumulative {
    starts: Vec<VarId>,
    durations: Vec<i64>,
    demands: Vec<i64>,
    capacity: i64,
    strength: CumulativeStrength,
}

impl Cumulative {
    /// The start variables.
    pub fn starts(&self) -> &[VarId] {
        &self.starts
    }

    /// The durations, by task.
    pub fn durations(&self) -> &[i64] {
        &self.durations
    }

    /// The demands, by task.
    pub fn demands(&self) -> &[i64] {
        &self.demands
    }

    /// The capacity.
    pub fn capacity(&self) -> i64 {
        self.capacity
    }

    /// Does task `i` use the resource (positive duration and demand)?
    fn uses(&self, i: usize) -> bool {
        self.durations[i] > 0 && self.demands[i] > 0
    }

    /// Is the resource overloaded at time `t` when task `i` starts at
    /// `v[i]`?
    fn overloaded_at(&self, v: &[Value], t: i64) -> bool {
        let load: i64 = (0..self.starts.len())
            .filter(|&i| self.uses(i) && v[i] as i64 <= t && t < v[i] as i64 + self.durations[i])
            .map(|i| self.demands[i])
            .sum();
        load > self.capacity
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
        self.post(Cumulative {
            starts: starts.to_vec(),
            durations: durations.iter().map(|&d| d as i64).collect(),
            demands: demands.iter().map(|&r| r as i64).collect(),
            capacity: capacity as i64,
            strength,
        })
    }
}

impl Constraint for Cumulative {
    fn scope(&self) -> &[VarId] {
        &self.starts
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        self.violations(v) == 0
    }
    fn name(&self) -> &str {
        "cumulative"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // Only the tasks that use the resource: solvers differ on a task
        // of duration 0 whose demand is over the capacity (here it is
        // ignored).
        let used: Vec<usize> = (0..vars.len()).filter(|&i| self.uses(i)).collect();
        if used.is_empty() {
            return Some("true".into());
        }
        let pick = |v: &[i64]| used.iter().map(|&i| v[i]).collect::<Vec<_>>();
        let starts: Vec<String> = used.iter().map(|&i| vars[i].clone()).collect();
        Some(format!(
            "cumulative({}, {}, {}, {})",
            crate::minizinc::list(&starts),
            crate::minizinc::ints(&pick(&self.durations)),
            crate::minizinc::ints(&pick(&self.demands)),
            self.capacity
        ))
    }
    fn violations(&self, v: &[Value]) -> u64 {
        (0..self.starts.len())
            .filter(|&i| {
                self.uses(i)
                    && (self.demands[i] > self.capacity || self.overloaded_at(v, v[i] as i64))
            })
            .count() as u64
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let tasks: Vec<usize> = (0..self.starts.len()).filter(|&i| self.uses(i)).collect();
        let view = View {
            vars: tasks.iter().map(|&i| self.starts[i]).collect(),
            dur: tasks.iter().map(|&i| self.durations[i]).collect(),
            dem: tasks.iter().map(|&i| self.demands[i]).collect(),
            est: vec![0; tasks.len()],
            lst: vec![0; tasks.len()],
            ..View::default()
        };
        Some(Box::new(CumulativeProp {
            c: self,
            impossible: view.dem.iter().any(|&r| r > self.capacity),
            view,
        }))
    }
}

/// The tasks that use the resource, seen in one direction of time: in
/// the mirrored view a task's start is `−(s + d)`, so its latest start
/// becomes an earliest start and the same rules give latest starts. All
/// times in `i64`: an end `s + d` or a mirrored start never overflows.
#[derive(Debug, Default)]
struct View {
    mirror: bool,
    vars: Vec<VarId>,
    dur: Vec<i64>,
    dem: Vec<i64>,
    est: Vec<i64>,
    lst: Vec<i64>,
    /// The profile: segments `[a, b)` of constant positive height `h`,
    /// in time order, from the events (time, change of height).
    segs: Vec<(i64, i64, i64)>,
    events: Vec<(i64, i64)>,
    /// The tasks by latest completion (energetic check).
    by_lct: Vec<usize>,
}

impl View {
    /// Reads the bounds from the domains.
    fn load(&mut self, p: &Pruner<'_>, mirror: bool) {
        self.mirror = mirror;
        for k in 0..self.vars.len() {
            let (lo, hi) = (p.min(self.vars[k]) as i64, p.max(self.vars[k]) as i64);
            (self.est[k], self.lst[k]) = match mirror {
                false => (lo, hi),
                true => (-(hi + self.dur[k]), -(lo + self.dur[k])),
            };
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
        }
        debug_assert!(sum >= need, "the cover demands {sum} < {need}");
    }

    /// Fails when the profile exceeds the capacity anywhere, explained at
    /// the start of the first segment that does.
    fn check_profile(&self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        match self.segs.iter().find(|s| s.2 > cap) {
            Some(&(a, _, _)) => {
                Err(p.fail(|r: &mut Premises<'_>| self.cover(r, None, a, a, cap + 1)))
            }
            None => Ok(()),
        }
    }

    /// Time-tabling on the earliest starts: every task that would overlap
    /// a segment of the profile where its demand does not fit starts at
    /// the segment's end or later.
    fn time_table(&self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        for j in 0..self.vars.len() {
            let (d, rj, lst) = (self.dur[j], self.dem[j], self.lst[j]);
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
                    }
                }));
            }
        }
        Ok(())
    }

    /// The forward-checking contract: with task `j` the only one open,
    /// its start loses every value at which it overlaps a segment of the
    /// profile (of fixed tasks, so exact) where its demand does not fit.
    /// Each value goes with the tasks running at one time point it would
    /// overlap.
    fn last_open(&self, p: &mut Pruner<'_>, j: usize, cap: i64) -> Result<(), Conflict> {
        let (x, d, rj) = (self.vars[j], self.dur[j], self.dem[j]);
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
                    self.cover(r, Some(j), t, t, cap - rj + 1)
                })?;
                v = p.next_above(x, w);
            }
        }
        Ok(())
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
        for (i, &x) in self.c.starts.iter().enumerate() {
            if self.c.uses(i) {
                setup.subscribe(x, i, Events::BOUNDS);
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
        let cap = self.c.capacity;
        let v = &mut self.view;
        if v.vars.is_empty() {
            return Ok(());
        }
        if self.c.strength == CumulativeStrength::Energetic {
            v.load(p, false);
            v.overload(p, cap)?;
        }
        for mirror in [false, true] {
            v.load(p, mirror);
            v.profile();
            v.check_profile(p, cap)?;
            v.time_table(p, cap)?;
        }
        let mut open = (0..v.vars.len()).filter(|&k| !p.is_fixed(v.vars[k]));
        if let (Some(j), None) = (open.next(), open.next()) {
            v.load(p, false);
            v.profile();
            v.last_open(p, j, cap)?;
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
