//! Helpers shared by the test files of issue 29 (`cumulative.rs`,
//! `bin_packing.rs`) and by `explain.rs`, `learning.rs` and
//! `par_learning.rs`: a seeded generator, random small domains and
//! random distinct variables; the brute-force check of learned
//! nogoods (`learning.rs`, `learning_globals.rs`); and the check that a
//! weakened reason is caught (`explain.rs`, `long_sums.rs`).

#![allow(dead_code)]

use csp_core::expr::sum;
use csp_core::testing::{self, LearnedNogood};
use csp_core::{Domain, Literal, Model, Optimum, Outcome, Search, Value, VarId};

/// A xorshift generator: `next(m)` is in `0..m`, the same on every run.
pub fn rng(mut s: u64) -> impl FnMut(u64) -> u64 {
    move |m: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    }
}

/// `n` random domains from `lo` in `base..base + spread` with up to
/// `width` more values; with `holes`, every value ≡ 1 (mod 3) but the
/// last is left out.
pub fn domains(
    next: &mut impl FnMut(u64) -> u64,
    n: usize,
    (base, spread, width): (i32, u64, u64),
    holes: bool,
) -> Vec<Domain> {
    (0..n)
        .map(|_| {
            let lo = base + next(spread) as i32;
            let hi = lo + next(width) as i32;
            match holes {
                true => Domain::values((lo..=hi).filter(|&v| v.rem_euclid(3) != 1 || v == hi)),
                false => Domain::range(lo, hi),
            }
        })
        .collect()
}

/// Decides `decisions` in order with an [`Explainer`](csp_core::Explainer)
/// on `m`: all but the last succeed and the last fails, every reason
/// recorded passes the audit, and the failure is explained by exactly
/// those decisions.
pub fn conflict_rests_on(m: &csp_core::Model, decisions: &[csp_core::Literal]) {
    let mut ex = csp_core::Explainer::new(m);
    ex.propagate().unwrap();
    let (last, first) = decisions.split_last().expect("a decision");
    for &d in first {
        ex.decide(d).unwrap();
    }
    assert!(ex.decide(*last).is_err(), "{last} does not fail");
    ex.audit(csp_core::testing::MAX_ASSIGNMENTS).unwrap();
    let why = ex.conflict().expect("a conflict");
    let mut found = why.decisions();
    found.sort();
    let mut expected = decisions.to_vec();
    expected.sort();
    assert_eq!(found, expected, "{why}");
}

/// `c` distinct variables of `xs` (all of them if `c` is larger), drawn
/// with `next`.
pub fn distinct(next: &mut dyn FnMut(u64) -> u64, xs: &[VarId], c: usize) -> Vec<VarId> {
    let mut v: Vec<VarId> = Vec::new();
    while v.len() < c.min(xs.len()) {
        let x = xs[next(xs.len() as u64) as usize];
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v
}

/// Does `solution` satisfy the clause (one of its literals admits the
/// solution's value)?
pub fn satisfies(clause: &[Literal], solution: &[Value]) -> bool {
    clause.iter().any(|l| l.admits(solution[l.var().index()]))
}

/// Every nogood in `nogoods` is non-empty and admits every solution of
/// `m` in `sols` (for optimisation, `objective` = (cost, minimise?): every
/// solution within the bound the nogood was learned under).
pub fn check_nogoods(
    m: &Model,
    sols: &[Vec<Value>],
    nogoods: &[LearnedNogood],
    objective: Option<(VarId, bool)>,
    what: &str,
) {
    for ng in nogoods {
        assert!(!ng.clause.is_empty(), "{what}: an empty clause was learned");
        for s in sols {
            let within = match (objective, ng.bound) {
                (Some((x, true)), Some(b)) => s[x.index()] <= b,
                (Some((x, false)), Some(b)) => s[x.index()] >= b,
                _ => true,
            };
            assert!(
                !within || satisfies(&ng.clause, s),
                "{what}: nogood {:?} (bound {:?}) excludes solution {s:?}\nmodel: {m:?}",
                ng.clause,
                ng.bound
            );
        }
    }
}

/// The best value of `cost` over `sols` (least when minimising).
pub fn best_value(sols: &[Vec<Value>], cost: VarId, minimize: bool) -> Option<Value> {
    sols.iter()
        .map(|s| s[cost.index()])
        .reduce(|a, b| if (a < b) == minimize { a } else { b })
}

/// Minimises or maximises `cost` with `search`.
pub fn optimise(mut search: Search<'_>, cost: VarId, minimize: bool) -> Optimum {
    if minimize {
        search.minimize(cost)
    } else {
        search.maximize(cost)
    }
    .unwrap()
}

/// `r` found `best` (brute force's optimum of `m`) and proved it, with a
/// solution that passes the checkers; or, with no solution at all, said
/// so. Returns whether there was an optimum.
pub fn assert_proven_optimum(m: &Model, r: &Optimum, best: Option<Value>, what: &str) -> bool {
    assert_eq!(r.objective, best, "{what}");
    match best {
        Some(_) => {
            assert!(r.is_optimal() && r.proven, "{what}: {r}");
            m.check(r.best.as_ref().unwrap().values()).unwrap();
            true
        }
        None => {
            assert_eq!(r.outcome, Outcome::Unsatisfiable, "{what}");
            false
        }
    }
}

/// `m` with a cost to optimise: `xs` weighted 1, 2, 3, 1, 2, 3, … and
/// summed.
pub fn costed(mut m: Model, xs: &[VarId]) -> (Model, VarId) {
    let cost = m
        .define(sum(xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (i as i32 % 3 + 1) * x)))
        .unwrap();
    (m, cost)
}

/// Checks that `post`'s reasons pass the explanation audit on `domains`,
/// and that the audit fails once every expanded reason loses a premise
/// (`testing::weaken_reasons`): the check can fail.
pub fn weakening_is_caught(
    domains: &[Domain],
    post: impl Fn(&mut Model, &[VarId]) -> Result<(), csp_core::ModelError>,
) {
    let mut m = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| m.new_var(d.clone()).unwrap())
        .collect();
    post(&mut m, &vars).unwrap();
    testing::check_explanations(&m).unwrap();
    testing::weaken_reasons(true);
    let r = testing::check_explanations(&m);
    testing::weaken_reasons(false);
    let err = r.expect_err("a weakened reason went unnoticed");
    assert!(err.config.starts_with("explanations"), "{err}");
}
