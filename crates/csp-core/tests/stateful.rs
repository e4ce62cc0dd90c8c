//! A stateful propagator written against the public API, as
//! `docs/writing-a-constraint.md` shows it: `Σ xᵢ ≤ c` with a trailed sum of
//! the minimums, updated by bounds events in O(1) each. Checked against
//! brute force at every inference level, and the kernel's contract checks
//! (entailment, events, every solution checked) exercised on the way.

use csp_core::propagation::{Event, Events, Premises, Priority, Propagator, Setup, StateInt};
use csp_core::{
    testing, Conflict, Constraint, Domain, Literal, Model, Pruner, Search, Value, VarId,
};

/// `Σ xs ≤ c`.
#[derive(Debug)]
struct SumAtMost {
    xs: Vec<VarId>,
    c: i64,
}

impl Constraint for SumAtMost {
    fn scope(&self) -> &[VarId] {
        &self.xs
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        values.iter().map(|&v| v as i64).sum::<i64>() <= self.c
    }
    fn name(&self) -> &str {
        "sum-at-most"
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(SumAtMostProp {
            xs: &self.xs,
            c: self.c,
            sum_min: None,
            mins: None,
        }))
    }
}

/// The propagator: `sum_min` is Σ min(xᵢ), kept up to date incrementally;
/// `mins[i]` remembers the minimum each term contributed, both trailed.
#[derive(Debug)]
struct SumAtMostProp<'a> {
    xs: &'a [VarId],
    c: i64,
    sum_min: Option<StateInt>,
    mins: Option<Vec<StateInt>>,
}

impl Propagator for SumAtMostProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let mut total = 0;
        let mut mins = Vec::new();
        for (i, &x) in self.xs.iter().enumerate() {
            // Only a larger minimum can make the sum too big.
            setup.subscribe(x, i, Events::BOUNDS);
            total += setup.min(x) as i64;
            mins.push(setup.new_int(setup.min(x) as i64));
        }
        self.sum_min = Some(setup.new_int(total));
        self.mins = Some(mins);
    }

    fn notify(&mut self, p: &mut Pruner<'_>, pos: usize, _e: Event) -> Result<bool, Conflict> {
        // O(1): replace this term's old minimum by its new one.
        let (sum, mins) = (self.sum_min.unwrap(), self.mins.as_ref().unwrap());
        let now = p.min(self.xs[pos]) as i64;
        let before = p.get(mins[pos]);
        if now != before {
            p.set(mins[pos], now);
            p.set(sum, p.get(sum) + now - before);
        }
        Ok(true)
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let sum = p.get(self.sum_min.unwrap());
        if sum > self.c {
            return Err(Conflict);
        }
        // Each term may grow by the slack at most.
        let slack = self.c - sum;
        let mut entailed = true;
        for &x in self.xs {
            let cap = p.min(x) as i64 + slack;
            if cap < p.max(x) as i64 {
                // The reason: every other term is at least its minimum.
                let xs = self.xs;
                let others = |r: &mut Premises| {
                    for &y in xs.iter().filter(|&&y| y != x) {
                        r.at_least(y);
                    }
                };
                p.set_max(x, cap as Value, others)?;
            }
            entailed &= p.max(x) as i64 - p.min(x) as i64 <= 0;
        }
        if entailed
            || sum
                + self
                    .xs
                    .iter()
                    .map(|&x| (p.max(x) - p.min(x)) as i64)
                    .sum::<i64>()
                <= self.c
        {
            // The largest sum fits: nothing can violate it below here.
            p.entail();
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn is_idempotent(&self) -> bool {
        // Lowering maxima does not move minima, so one pass is a fixpoint.
        true
    }
}

fn post(m: &mut Model, xs: &[VarId], c: i64) -> Result<(), csp_core::ModelError> {
    m.post(SumAtMost { xs: xs.to_vec(), c }).map(|_| ())
}

#[test]
fn incremental_sum_matches_brute_force() {
    for c in [-3, 0, 4, 7, 11] {
        testing::check_constraint(
            &[
                Domain::range(0, 3),
                Domain::range(-2, 4),
                Domain::values([1, 3, 5]),
                Domain::range(0, 2),
            ],
            |m, v| post(m, v, c),
        )
        .unwrap();
    }
}

#[test]
fn incremental_sum_with_other_constraints() {
    // A sum beside an all-different: the propagator's events interleave
    // with another constraint's changes.
    for c in [6, 10, 14] {
        testing::check_constraint(&vec![Domain::range(0, 5); 4], |m, v| {
            post(m, v, c)?;
            m.all_different(&v[1..]).map(|_| ())
        })
        .unwrap();
    }
}

#[test]
fn counts_and_prunes() {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(0, 9)).unwrap();
    post(&mut m, &xs, 3).unwrap();
    // x + y + z ≤ 3 over 0..9: C(6, 3) = 20 solutions.
    let r = Search::new(&m).count().unwrap();
    assert_eq!(r.count, 20);
    // Propagation cuts the tree: no failure at all on this model.
    assert_eq!(r.stats.failures, 0, "{}", r.stats);
}

/// `x ≠ y` as a propagator that subscribes to nothing: it runs once at the
/// root and never hears a decision, so it cannot do its job.
#[derive(Debug)]
struct DeafNe([VarId; 2]);

#[derive(Debug)]
struct DeafNeProp([VarId; 2]);

impl Constraint for DeafNe {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v[0] != v[1]
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(DeafNeProp(self.0)))
    }
}

impl Propagator for DeafNeProp {
    fn setup(&mut self, _: &mut Setup<'_>) {}
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        if let (Some(a), Some(b)) = (p.value(self.0[0]), p.value(self.0[1])) {
            if a == b {
                return Err(Conflict);
            }
        }
        Ok(())
    }
}

#[test]
fn a_propagator_that_misses_its_events_fails_the_harness() {
    let r = testing::check_constraint(&[Domain::range(0, 2), Domain::range(0, 2)], |m, v| {
        m.post(DeafNe([v[0], v[1]])).map(|_| ())
    });
    assert!(r.is_err(), "the harness accepted a deaf propagator");
    // And the search names it instead of returning a wrong solution.
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 0)).unwrap();
    let y = m.new_var(Domain::range(0, 1)).unwrap();
    let c = m.post(DeafNe([x, y])).unwrap();
    let all: Vec<_> = Search::new(&m).solutions().unwrap().collect();
    assert!(all.iter().all(|s| m.check(s.values()).is_ok()));
    // y = 0 comes first and the propagator never hears of it.
    assert_eq!(
        Search::new(&m).solve().unwrap().outcome,
        csp_core::Outcome::Invalid(c)
    );
}

/// `x ∉ {2, 3, 4}`, pruned only in `notify`: once `x ≥ 2`, `x ≥ 5`. It
/// prunes the variable whose event it is being told of, which the
/// subscribers after it must each see once.
#[derive(Debug)]
struct SkipsTwoToFour([VarId; 1]);

impl Constraint for SkipsTwoToFour {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        !(2..=4).contains(&v[0])
    }
    fn name(&self) -> &str {
        "skips 2..4"
    }
    fn propagator(&self) -> Option<Box<dyn csp_core::propagation::Propagator + '_>> {
        Some(Box::new(SkipsProp(self.0[0])))
    }
}

#[derive(Debug)]
struct SkipsProp(VarId);

impl csp_core::propagation::Propagator for SkipsProp {
    fn setup(&mut self, setup: &mut csp_core::propagation::Setup<'_>) {
        setup.subscribe(self.0, 0, csp_core::propagation::Events::BOUNDS);
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        // The root and scheduled calls check only a fixed variable.
        match p.value(self.0) {
            Some(v) if (2..=4).contains(&v) => Err(p.fail(Literal::Eq(self.0, v))),
            _ => Ok(()),
        }
    }
    fn notify(
        &mut self,
        p: &mut Pruner<'_>,
        _pos: usize,
        _e: csp_core::propagation::Event,
    ) -> Result<bool, Conflict> {
        let x = self.0;
        let lo = p.min(x);
        if (2..=4).contains(&lo) {
            p.set_min(x, 5, Literal::Ge(x, lo))?;
        }
        Ok(true)
    }
}

#[test]
fn a_notify_that_prunes_its_own_variable_is_seen_once_by_the_others() {
    // Posted first, so it hears x's events before the sum: when y = 2 lifts
    // x to 2, it lifts x to 5 inside its notify; the incremental sum after
    // it must count x's minimum as 5 once, not 5 and then 3 more.
    let mut m = Model::new();
    let x = m.new_var_named("x", Domain::range(0, 10)).unwrap();
    let y = m.new_var_named("y", Domain::range(0, 10)).unwrap();
    m.post(SkipsTwoToFour([x])).unwrap();
    m.linear(&[(1, x), (1, y)], csp_core::Relation::Le, 7)
        .unwrap();
    m.less_eq(y, x, 0).unwrap(); // y ≤ x
                                 // Every search finds every solution. (Not `testing::check_model`: its
                                 // counts take the last variable's domain size as the number of
                                 // solutions, which needs complete forward checking, and this
                                 // propagator prunes only by bounds.)
    let truth = testing::brute_force(&m).unwrap();
    for inference in [
        csp_core::Inference::ForwardChecking,
        csp_core::Inference::Mac,
    ] {
        for var_order in [csp_core::VarOrder::Input, csp_core::VarOrder::Mrv] {
            for val_order in [
                csp_core::ValOrder::Ascending,
                csp_core::ValOrder::Descending,
            ] {
                let opts = csp_core::SearchOptions {
                    inference,
                    var_order,
                    val_order,
                    ..Default::default()
                };
                let mut found: Vec<Vec<Value>> = Search::new(&m)
                    .options(opts)
                    .solutions()
                    .unwrap()
                    .map(|s| s.values().to_vec())
                    .collect();
                found.sort();
                assert_eq!(found, truth, "{inference:?} {var_order:?} {val_order:?}");
            }
        }
    }
    // (x, y) = (5, 2) is a solution, found with y decided first.
    let opts = csp_core::SearchOptions {
        decision_vars: vec![y, x],
        var_order: csp_core::VarOrder::Input,
        ..Default::default()
    };
    let all: Vec<(Value, Value)> = Search::new(&m)
        .options(opts)
        .solutions()
        .unwrap()
        .map(|s| (s[x], s[y]))
        .collect();
    assert!(all.contains(&(5, 2)), "{all:?}");
}
