//! Scheduling on a unary resource: [`Disjunctive`], tasks with fixed
//! durations of which no two may overlap (a machine in job-shop
//! scheduling, a single room, one worker).

use super::linear::clamp;
use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Premises, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// Tasks `i` starting at `starts[i]` and lasting `durations[i]` (a
/// constant, at least 0) use one resource: no two tasks of positive
/// duration overlap, `sᵢ + dᵢ ≤ sⱼ` or `sⱼ + dⱼ ≤ sᵢ` for every pair.
/// A task of duration 0 takes no time and is free.
///
/// # Pruning
/// On the bounds of the start times, in both directions of time (the
/// latest starts by the same rules on the mirrored schedule), with the
/// rules of Vilím's unary resource (Vilím, "O(n log n) filtering
/// algorithms for unary resource constraint", CPAIOR 2004; Vilím,
/// Barták, Čepek, Constraints 10(4), 2005), each computed here by a
/// quadratic scan instead of a Θ-tree:
/// * **overload checking**: the tasks that must end by some task's
///   latest end cannot all fit before it (fails);
/// * **detectable precedences**: when `i` cannot end before `j` must
///   start (`est(i) + d(i) > lct(j) − d(j)`), `j` precedes `i`, and `i`
///   starts after the earliest completion of all such `j`;
/// * **edge finding**: when `i` cannot run within the tasks `Θ` that end
///   by `lct(j)` and still end them all by `lct(j)`, `i` follows every task
///   of `Θ` and starts after their earliest completion.
///
/// The earliest completion of a set is `max over Ω ⊆ Θ` of `est(Ω) +
/// d(Ω)`, which one scan in order of earliest start computes. Cost:
/// O(n²) per call for `n` tasks of positive duration, after two sorts;
/// not idempotent (the kernel calls it again after its own changes), no
/// entailment; at most 0.71 µs a call for six tasks, search included
/// (`cargo bench -p csp-core --bench library -- disjunctive`). The
/// pairwise checker is exact. Local search: violations
/// are the number of overlapping pairs.
///
/// # Explanations
/// Each rule names the set Ω of tasks that makes it fire, with their
/// bounds relaxed to the window the argument needs, in the manner of
/// Vilím's rules and of Schutt, Feydy, Stuckey and Wallace ("Explaining
/// the cumulative propagator", Constraints 16(3), 2011): an overload, the
/// tasks of Ω starting no earlier than `est(Ω)` and ending by `est(Ω) +
/// d(Ω) − 1`; a detectable precedence `Ω ≪ i`, Ω's starts from `est(Ω)`,
/// `i`'s earliest start and each `j` of Ω starting before `i` could end;
/// edge finding, Ω and a tail Θ' of Θ that cannot run with `i` in
/// `[est(Θ' ∪ {i}), end]`, all ending by `end`, so that `i` follows Ω. The
/// latest starts, by the mirrored rules, mirror their reasons. None of
/// it is computed outside explaining mode.
#[derive(Debug, Clone)]
pub struct Disjunctive {
    starts: Vec<VarId>,
    durations: Vec<i64>,
}

impl Disjunctive {
    /// The start variables.
    pub fn starts(&self) -> &[VarId] {
        &self.starts
    }

    /// The durations, by task.
    pub fn durations(&self) -> &[i64] {
        &self.durations
    }

    fn overlap(&self, v: &[Value], i: usize, j: usize) -> bool {
        let (di, dj) = (self.durations[i], self.durations[j]);
        di > 0 && dj > 0 && v[i] as i64 + di > v[j] as i64 && v[j] as i64 + dj > v[i] as i64
    }
}

impl Model {
    /// Tasks starting at `starts` with the given `durations` never overlap
    /// (see [`Disjunctive`]). Fails with [`ModelError::LengthMismatch`]
    /// when the lists differ in length and [`ModelError::Invalid`] for a
    /// negative duration.
    pub fn disjunctive(
        &mut self,
        starts: &[VarId],
        durations: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        if starts.len() != durations.len() {
            return Err(ModelError::LengthMismatch {
                constraint: "disjunctive",
                what: "durations for the tasks",
                expected: starts.len(),
                found: durations.len(),
            });
        }
        if let Some((i, d)) = durations.iter().enumerate().find(|(_, &d)| d < 0) {
            return Err(ModelError::Invalid {
                constraint: "disjunctive",
                reason: format!("task {i} has a negative duration ({d})"),
            });
        }
        self.post(Disjunctive {
            starts: starts.to_vec(),
            durations: durations.iter().map(|&d| d as i64).collect(),
        })
    }
}

impl Constraint for Disjunctive {
    fn scope(&self) -> &[VarId] {
        &self.starts
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        self.violations(v) == 0
    }
    fn name(&self) -> &str {
        "disjunctive"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // A task of duration 0 sits anywhere: only the others are
        // written (solvers differ on the empty tasks).
        let used: Vec<usize> = (0..vars.len()).filter(|&i| self.durations[i] > 0).collect();
        if used.is_empty() {
            // `disjunctive([], [])` is a type error in MiniZinc (an empty
            // array literal has no element type).
            return Some("true".into());
        }
        let starts: Vec<String> = used.iter().map(|&i| vars[i].clone()).collect();
        let durations: Vec<i64> = used.iter().map(|&i| self.durations[i]).collect();
        Some(format!(
            "disjunctive({}, {})",
            crate::minizinc::list(&starts),
            crate::minizinc::ints(&durations)
        ))
    }
    fn violations(&self, v: &[Value]) -> u64 {
        let n = self.starts.len();
        (0..n)
            .map(|i| (i + 1..n).filter(|&j| self.overlap(v, i, j)).count() as u64)
            .sum()
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let tasks: Vec<usize> = (0..self.starts.len())
            .filter(|&i| self.durations[i] > 0)
            .collect();
        Some(Box::new(DisjunctiveProp {
            c: self,
            scratch: Scratch::new(tasks.len()),
            tasks,
        }))
    }
}

/// One direction's view of the tasks: earliest starts, latest completions,
/// durations (`i64`, so no sum overflows).
#[derive(Debug, Default)]
struct Scratch {
    est: Vec<i64>,
    lct: Vec<i64>,
    dur: Vec<i64>,
    /// The tasks by earliest start and by latest completion.
    by_est: Vec<usize>,
    by_lct: Vec<usize>,
    /// The new earliest starts.
    bound: Vec<i64>,
    /// Per position of Θ in order of earliest start: the sum of durations
    /// from there on, `est + that sum`, and its prefix and suffix maxima.
    suffix: Vec<i64>,
    prefix_max: Vec<i64>,
    suffix_max: Vec<i64>,
    theta: Vec<usize>,
    /// Per task, the rule that gave its new earliest start; and the
    /// latest completion whose tasks overloaded (for the reasons).
    rule: Vec<Rule>,
    overload: i64,
}

/// The rule behind a task's new earliest start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    None,
    /// Detectable precedences.
    Precedence,
    /// Edge finding against the tasks that end by this latest completion.
    Edge(i64),
}

/// A premise in the scratch's direction of time: task `k` starts no
/// earlier than the value (`Start`) or ends no later than it (`End`).
#[derive(Clone, Copy, Debug)]
enum Premise {
    Start(usize, i64),
    End(usize, i64),
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            est: vec![0; n],
            lct: vec![0; n],
            dur: vec![0; n],
            by_est: (0..n).collect(),
            by_lct: (0..n).collect(),
            bound: vec![0; n],
            suffix: vec![0; n + 1],
            prefix_max: vec![0; n + 1],
            suffix_max: vec![0; n + 1],
            theta: Vec::with_capacity(n),
            rule: vec![Rule::None; n],
            overload: 0,
        }
    }

    /// The tail of `set` (in order of earliest start) that gives its
    /// earliest completion: `(q, ect)` with `ect = est(set[q]) + the
    /// durations from q on`, the largest such sum.
    fn tail(&self, set: &[usize]) -> (usize, i64) {
        let (mut best, mut ect, mut sum) = (0, i64::MIN, 0);
        for q in (0..set.len()).rev() {
            sum += self.dur[set[q]];
            if self.est[set[q]] + sum > ect {
                (best, ect) = (q, self.est[set[q]] + sum);
            }
        }
        (best, ect)
    }

    /// The tasks, in order of earliest start, for which `keep` holds.
    fn sorted(&self, keep: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut set: Vec<usize> = (0..self.est.len()).filter(|&t| keep(t)).collect();
        set.sort_unstable_by_key(|&t| self.est[t]);
        set
    }

    /// The last resort, should a rule's set not be found (it always is):
    /// every task's bounds.
    fn all_bounds(&self, out: &mut Vec<Premise>) {
        for t in 0..self.est.len() {
            out.push(Premise::Start(t, self.est[t]));
            out.push(Premise::End(t, self.lct[t]));
        }
    }

    /// Why the tasks cannot all fit (after [`forward`](Self::forward)
    /// failed): the overloaded set Ω among the tasks that end by the
    /// limit, each starting no earlier than `est(Ω)` and ending no later
    /// than `est(Ω) + d(Ω) − 1` — a window one unit too short for them.
    fn overload_reason(&self, out: &mut Vec<Premise>) {
        let limit = self.overload;
        let theta = self.sorted(|t| self.lct[t] <= limit);
        let (q, ect) = self.tail(&theta);
        for &t in &theta[q..] {
            out.push(Premise::Start(t, self.est[theta[q]]));
            out.push(Premise::End(t, ect - 1));
        }
    }

    /// Why task `i` starts no earlier than `bound[i]`: the set Ω it must
    /// follow (its earliest start then being `est(Ω) + d(Ω)`) and why it
    /// follows each task of Ω.
    fn bound_reason(&self, i: usize, out: &mut Vec<Premise>) {
        let (e, d) = (self.est[i], self.dur[i]);
        match self.rule[i] {
            Rule::None => self.all_bounds(out),
            Rule::Precedence => {
                // j precedes i when i cannot end before j's latest start:
                // j starts no later than est(i) + d(i) − 1.
                let set = self.sorted(|j| j != i && e + d > self.lct[j] - self.dur[j]);
                let (q, _) = self.tail(&set);
                out.push(Premise::Start(i, e));
                for &j in &set[q..] {
                    out.push(Premise::Start(j, self.est[set[q]]));
                    out.push(Premise::End(j, e + d - 1 + self.dur[j]));
                }
            }
            Rule::Edge(limit) => {
                // i follows Θ (the tasks ending by `limit`) because Θ' ⊆ Θ
                // and i cannot all run in [a, limit]: were i before a task
                // of Ω ⊆ Θ, it would end by the limit too.
                let theta = self.sorted(|t| t != i && self.lct[t] <= limit);
                let (q, _) = self.tail(&theta);
                let omega = &theta[q..];
                // Θ': the latest-starting tail of Θ that, with i, does not
                // fit before the limit.
                let overflows = |p: usize| {
                    let a = theta.get(p).map_or(e, |&t| self.est[t].min(e));
                    let sum: i64 = theta[p..].iter().map(|&t| self.dur[t]).sum();
                    (a + sum + d > limit).then_some((a, a + sum + d - 1))
                };
                let Some((p, (a, end))) = (0..=theta.len())
                    .rev()
                    .find_map(|p| overflows(p).map(|w| (p, w)))
                else {
                    return self.all_bounds(out);
                };
                let from = self.est[omega[0]];
                out.push(Premise::Start(i, a));
                for (k, &t) in theta.iter().enumerate() {
                    let (in_tail, in_omega) = (k >= p, k >= q);
                    if !in_tail && !in_omega {
                        continue;
                    }
                    let lo = match (in_tail, in_omega) {
                        (true, true) => a.max(from),
                        (true, false) => a,
                        _ => from,
                    };
                    out.push(Premise::Start(t, lo));
                    out.push(Premise::End(t, end));
                }
            }
        }
    }

    /// The earliest completion of the tasks `set`, given in order of
    /// earliest start.
    fn ect(&self, set: impl Iterator<Item = usize>) -> i64 {
        let mut end = i64::MIN;
        for t in set {
            end = end.max(self.est[t]) + self.dur[t];
        }
        end
    }

    /// Overload checking, detectable precedences and edge finding on the
    /// earliest starts; the new ones are left in `bound`.
    fn forward(&mut self) -> Result<(), Conflict> {
        let n = self.est.len();
        let (est, lct) = (&self.est, &self.lct);
        self.by_est.sort_unstable_by_key(|&t| est[t]);
        self.by_lct.sort_unstable_by_key(|&t| lct[t]);
        self.bound.copy_from_slice(&self.est);
        self.rule.fill(Rule::None);
        // Detectable precedences: j before i when i cannot end before j's
        // latest start.
        for i in 0..n {
            let end_i = self.est[i] + self.dur[i];
            let ect = self.ect(
                self.by_est
                    .iter()
                    .copied()
                    .filter(|&j| j != i && end_i > self.lct[j] - self.dur[j]),
            );
            if ect > self.bound[i] {
                self.bound[i] = ect;
                self.rule[i] = Rule::Precedence;
            }
        }
        // Θ = the tasks with lct ≤ L, for each distinct L.
        let mut k = 0;
        while k < n {
            let limit = self.lct[self.by_lct[k]];
            while k < n && self.lct[self.by_lct[k]] == limit {
                k += 1;
            }
            self.theta.clear();
            let lct = &self.lct;
            self.theta
                .extend(self.by_est.iter().copied().filter(|&t| lct[t] <= limit));
            let m = self.theta.len();
            // v[q] = est(θ_q) + the durations from q on; ECT(Θ) = max v.
            self.suffix[m] = 0;
            self.suffix_max[m] = i64::MIN;
            for q in (0..m).rev() {
                let t = self.theta[q];
                self.suffix[q] = self.suffix[q + 1] + self.dur[t];
                self.suffix_max[q] = self.suffix_max[q + 1].max(self.est[t] + self.suffix[q]);
            }
            let ect = self.suffix_max[0];
            if ect > limit {
                self.overload = limit;
                return Err(Conflict);
            }
            self.prefix_max[0] = i64::MIN;
            for q in 0..m {
                let t = self.theta[q];
                self.prefix_max[q + 1] = self.prefix_max[q].max(self.est[t] + self.suffix[q]);
            }
            // Edge finding for every task outside Θ.
            for &i in &self.by_lct[k..] {
                let (e, d) = (self.est[i], self.dur[i]);
                // q: the tasks of Θ that start no later than i.
                let q = self.theta.partition_point(|&t| self.est[t] <= e);
                let with_i = (self.prefix_max[q].saturating_add(d))
                    .max(e + d + self.suffix[q])
                    .max(self.suffix_max[q]);
                if with_i > limit && ect > self.bound[i] {
                    self.bound[i] = ect;
                    self.rule[i] = Rule::Edge(limit);
                }
            }
        }
        Ok(())
    }
}

/// Pushes the premises `reason` gives (in the scratch's direction of
/// time, mirrored when `mirrored`) as literals on the start variables.
fn premises(
    r: &mut Premises<'_>,
    c: &Disjunctive,
    tasks: &[usize],
    s: &Scratch,
    mirrored: bool,
    reason: impl FnOnce(&Scratch, &mut Vec<Premise>),
) {
    let mut out = Vec::new();
    reason(s, &mut out);
    for premise in out {
        let (k, start, v) = match premise {
            Premise::Start(k, v) => (k, true, v),
            Premise::End(k, v) => (k, false, v),
        };
        let x = c.starts[tasks[k]];
        let d = s.dur[k];
        // Forward, a start ≥ v is `x ≥ v` and an end ≤ v is `x ≤ v − d`;
        // mirrored, a start ≥ v is the real end ≤ −v (`x ≤ −v − d`) and
        // an end ≤ v the real start ≥ −v. Values past the `i32` range
        // are clamped, which keeps the literal's meaning.
        r.push(match (mirrored, start) {
            (false, true) => Literal::Ge(x, clamp(v as i128)),
            (false, false) => Literal::Le(x, clamp((v - d) as i128)),
            (true, true) => Literal::Le(x, clamp((-v - d) as i128)),
            (true, false) => Literal::Ge(x, clamp(-v as i128)),
        });
    }
}

#[derive(Debug)]
struct DisjunctiveProp<'a> {
    c: &'a Disjunctive,
    /// The tasks of positive duration.
    tasks: Vec<usize>,
    scratch: Scratch,
}

impl DisjunctiveProp<'_> {
    /// The forward-checking contract: with one task left open, its start
    /// keeps only the values that overlap no fixed task (holes the bounds
    /// rules cannot make). Walks the removed values only.
    fn last_open(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let c = self.c;
        let mut open = self.tasks.iter().filter(|&&t| !p.is_fixed(c.starts[t]));
        let (Some(&t), None) = (open.next(), open.next()) else {
            return Ok(());
        };
        let (x, d) = (c.starts[t], c.durations[t]);
        for &j in &self.tasks {
            let Some(sj) = (j != t).then(|| p.value(c.starts[j])).flatten() else {
                continue;
            };
            // x overlaps j when sj − d < x < sj + dj.
            let first = clamp((sj as i64 - d + 1) as i128);
            let hi = sj as i64 + c.durations[j];
            let mut v = match p.contains(x, first) {
                true => Some(first),
                false => p.next_above(x, first),
            };
            while let Some(w) = v.filter(|&w| (w as i64) < hi) {
                p.remove(x, w, Literal::Eq(c.starts[j], sj))?;
                v = p.next_above(x, w);
            }
        }
        Ok(())
    }
}

impl Propagator for DisjunctiveProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for &t in &self.tasks {
            setup.subscribe(self.c.starts[t], t, Events::BOUNDS);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.tasks.len() < 2 {
            return Ok(());
        }
        let (c, s, tasks) = (self.c, &mut self.scratch, &self.tasks[..]);
        // Forward: earliest starts.
        for (k, &t) in tasks.iter().enumerate() {
            let x = c.starts[t];
            s.est[k] = p.min(x) as i64;
            s.dur[k] = c.durations[t];
            s.lct[k] = p.max(x) as i64 + s.dur[k];
        }
        if s.forward().is_err() {
            return Err(p.fail(|r: &mut Premises<'_>| {
                premises(r, c, tasks, s, false, |s, out| s.overload_reason(out))
            }));
        }
        for (k, &t) in tasks.iter().enumerate() {
            if s.bound[k] > s.est[k] {
                let because = |r: &mut Premises<'_>| {
                    premises(r, c, tasks, s, false, |s, out| s.bound_reason(k, out))
                };
                p.set_min(c.starts[t], clamp(s.bound[k] as i128), because)?;
            }
        }
        // Backward: the same rules on the mirrored schedule (time runs
        // backwards, a task's end becomes its start), for latest starts.
        for (k, &t) in tasks.iter().enumerate() {
            let x = c.starts[t];
            s.est[k] = -(p.max(x) as i64 + s.dur[k]);
            s.lct[k] = -(p.min(x) as i64);
        }
        if s.forward().is_err() {
            return Err(p.fail(|r: &mut Premises<'_>| {
                premises(r, c, tasks, s, true, |s, out| s.overload_reason(out))
            }));
        }
        for (k, &t) in tasks.iter().enumerate() {
            if s.bound[k] > s.est[k] {
                // Mirrored start ≥ b means the real end ≤ −b.
                let because = |r: &mut Premises<'_>| {
                    premises(r, c, tasks, s, true, |s, out| s.bound_reason(k, out))
                };
                p.set_max(
                    c.starts[t],
                    clamp((-s.bound[k] - s.dur[k]) as i128),
                    because,
                )?;
            }
        }
        self.last_open(p)
    }
    fn priority(&self) -> Priority {
        Priority::Quadratic
    }
    fn is_idempotent(&self) -> bool {
        false
    }
    fn name(&self) -> &str {
        "disjunctive"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tasks: &[(i64, i64, i64)]) -> Scratch {
        let mut s = Scratch::new(tasks.len());
        for (k, &(est, lct, dur)) in tasks.iter().enumerate() {
            s.est[k] = est;
            s.lct[k] = lct;
            s.dur[k] = dur;
        }
        s
    }

    #[test]
    fn edge_finding_puts_a_task_after_a_tight_set() {
        // Two tasks of 3 that must end by 7 and 6, and C (d 5, lct 20),
        // which cannot run among them and still let them end in time: C
        // follows both and starts at 6.
        let mut s = scratch(&[(0, 7, 3), (0, 6, 3), (0, 20, 5)]);
        s.forward().unwrap();
        assert_eq!(s.bound, vec![0, 0, 6]);
    }

    #[test]
    fn detectable_precedence_and_overload() {
        // A: est 2, lct 5, d 3; B: est 3, lct 20, d 4. B cannot end by
        // A's latest start (2), so A precedes B: B ≥ ect(A) = 5.
        let mut s = scratch(&[(2, 5, 3), (3, 20, 4)]);
        s.forward().unwrap();
        assert_eq!(s.bound, vec![2, 5]);
        // Three tasks of 2 within 0..5: overload.
        let mut s = scratch(&[(0, 5, 2), (0, 5, 2), (0, 5, 2)]);
        assert!(s.forward().is_err());
    }
}
