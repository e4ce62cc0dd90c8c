//! Parallel learning workers (issue 28, item 7): `par_minimize` /
//! `par_maximize` with learning run a portfolio of learning searches that
//! share the incumbent. Checked on random models:
//! * the optimum equals brute force's (small models) or the ordinary
//!   engine's without learning (larger ones, where the workers do take
//!   bounds from each other: the test counts them);
//! * the solution returned passes the model's checkers and has the value
//!   reported;
//! * a run stopped by a node limit says so, is never called optimal
//!   unless its bound meets its objective, and its bound is a true bound.
//!
//! Node limits only; no wall-clock assertion. The worker count is forced
//! (`testing::par_learning_optimize`), so two workers run even on one core.

mod common;

use csp_core::expr::sum;
use csp_core::testing::{brute_force, par_learning_optimize};
use csp_core::{
    CancelToken, Domain, Inference, Limit, Model, Optimum, Outcome, Relation, Search,
    SearchOptions, Value, VarId,
};

/// A random model of `n` variables with all-different, linear and `≤`
/// constraints, and a weighted sum to optimise.
fn random_model(seed: u64, n: usize, width: u64) -> (Model, VarId) {
    let mut next = common::rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let doms = common::domains(&mut next, n, (0, 3, width), seed.is_multiple_of(4));
    let mut m = Model::new();
    let xs: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
    let pick = |next: &mut dyn FnMut(u64) -> u64, c: usize| common::distinct(next, &xs, c);
    for _ in 0..2 + next(n as u64) {
        match next(4) {
            0 => {
                let c = 3 + next(3) as usize;
                let v = pick(&mut next, c);
                m.all_different(&v).unwrap();
            }
            1 | 2 => {
                let c = 2 + next(3) as usize;
                let v = pick(&mut next, c);
                let terms: Vec<(i64, VarId)> = v
                    .iter()
                    .map(|&x| ([-2, -1, 1, 3][next(4) as usize], x))
                    .collect();
                let rel = [Relation::Le, Relation::Ge, Relation::Ne][next(3) as usize];
                m.linear(&terms, rel, next(10) as i64 - 2).unwrap();
            }
            _ => {
                let v = pick(&mut next, 2);
                m.less_eq(v[0], v[1], next(3) as i64 - 1).unwrap();
            }
        }
    }
    let weights: Vec<i32> = (0..n).map(|_| next(7) as i32 - 2).collect();
    let cost = m
        .define(sum(xs.iter().zip(&weights).map(|(&x, &w)| w * x)))
        .unwrap();
    (m, cost)
}

fn options(nodes: Option<u64>) -> SearchOptions {
    let mut o = SearchOptions {
        inference: Inference::Mac,
        learning: true,
        ..SearchOptions::default()
    };
    o.limits.nodes = nodes;
    o
}

/// The best of `values` (least when minimising).
fn best_of(values: impl Iterator<Item = Value>, minimize: bool) -> Option<Value> {
    values.reduce(|a, b| if (a < b) == minimize { a } else { b })
}

/// The checks every complete run passes: the optimum (or none) as
/// expected, a solution that passes the checkers and has that value.
fn check_complete(m: &Model, cost: VarId, r: &Optimum, expected: Option<Value>, what: &str) {
    assert_eq!(r.objective, expected, "{what}: {r}");
    match expected {
        Some(v) => {
            assert!(r.is_optimal() && r.proven, "{what}: {r}");
            assert_eq!((r.bound, r.gap()), (Some(v), Some(0.0)), "{what}: {r}");
            let s = r.best.as_ref().expect("a solution");
            m.check(s.values())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(s[cost], v, "{what}");
        }
        None => {
            assert_eq!(r.outcome, Outcome::Unsatisfiable, "{what}: {r}");
            assert!(r.best.is_none(), "{what}");
        }
    }
}

#[test]
fn two_workers_agree_with_brute_force_on_small_models() {
    for seed in 0..120u64 {
        let (m, cost) = random_model(seed, 3 + (seed % 4) as usize, 4);
        let Some(sols) = brute_force(&m) else {
            continue;
        };
        for minimize in [true, false] {
            let expected = best_of(sols.iter().map(|s| s[cost.index()]), minimize);
            for workers in [2, 3] {
                // With neighbourhoods too (fzn-csp's default): the
                // imported incumbent becomes the workers' centre.
                let mut o = options(None);
                o.lns = seed % 2 == 1;
                if o.lns {
                    o.restarts = csp_core::Restarts::Luby { scale: 1 };
                }
                let (r, _) = par_learning_optimize(&m, o, cost, minimize, workers);
                let what = format!("seed {seed}, minimize {minimize}, {workers} workers");
                check_complete(&m, cost, &r, expected, &what);
            }
        }
    }
}

/// 14 to 16 items of random sizes 1..=6 in 8 bins of a quarter of
/// their total size, and costs per
/// item and bin: the number of bins used plus the costs, minimised
/// (maximised: the number of the highest bin used minus the costs).
fn random_packing(seed: u64) -> (Model, VarId) {
    let mut next = common::rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = 14 + next(3) as usize;
    let bins = 8;
    let sizes: Vec<i32> = (0..n).map(|_| 1 + next(6) as i32).collect();
    let total: i32 = sizes.iter().sum();
    let cap = (total / 4).max(*sizes.iter().max().unwrap());
    let mut m = Model::new();
    let xs = m.new_vars(n, Domain::range(0, bins - 1)).unwrap();
    m.bin_packing(cap, &xs, &sizes).unwrap();
    let top = m.new_var(Domain::range(0, bins - 1)).unwrap();
    for &x in &xs {
        m.less_eq(x, top, 0).unwrap();
    }
    let costs: Vec<VarId> = xs
        .iter()
        .map(|&x| {
            let table: Vec<i32> = (0..bins).map(|_| next(4) as i32).collect();
            let c = m.new_var(Domain::range(0, 3)).unwrap();
            let t: Vec<Vec<Value>> = table
                .iter()
                .enumerate()
                .map(|(b, &v)| vec![b as Value, v])
                .collect();
            m.table(&[x, c], t).unwrap();
            c
        })
        .collect();
    let cost = m.define(4 * top + sum(costs.iter().copied())).unwrap();
    (m, cost)
}

#[test]
fn two_workers_agree_with_the_ordinary_engine_and_share_bounds() {
    let mut imports = 0;
    let mut improving = 0;
    for seed in 0..16u64 {
        let (m, cost) = random_packing(seed);
        for minimize in [true, false] {
            let mut plain = Search::new(&m).inference(Inference::Mac).learning(false);
            let p = if minimize {
                plain.minimize(cost)
            } else {
                plain.maximize(cost)
            }
            .unwrap();
            assert!(
                matches!(p.outcome, Outcome::Solved | Outcome::Unsatisfiable),
                "{p}"
            );
            let (r, k) = par_learning_optimize(&m, options(None), cost, minimize, 2);
            let what = format!("seed {seed}, minimize {minimize}");
            check_complete(&m, cost, &r, p.objective, &what);
            // Each improvement published is strictly better.
            for w in r.improvements.windows(2) {
                assert!((w[1].objective < w[0].objective) == minimize, "{what}");
            }
            imports += k;
            improving += r.improvements.len();
        }
    }
    // The workers did take bounds from each other (else this test would
    // not exercise the sharing).
    assert!(imports > 0, "no bound shared ({improving} improvements)");
}

#[test]
fn the_public_calls_use_the_workers_and_agree_with_minimize() {
    for seed in 0..10u64 {
        let (m, cost) = random_model(2000 + seed, 9, 6);
        let seq = Search::new(&m).learning(true).minimize(cost).unwrap();
        let par = Search::new(&m)
            .learning(true)
            .par_minimize(cost, 2)
            .unwrap();
        check_complete(&m, cost, &par, seq.objective, &format!("seed {seed}"));
        let seq = Search::new(&m).learning(true).maximize(cost).unwrap();
        let par = Search::new(&m)
            .learning(true)
            .par_maximize(cost, 2)
            .unwrap();
        check_complete(&m, cost, &par, seq.objective, &format!("seed {seed}, max"));
        // The same solution for any thread count (phase 2).
        let one = Search::new(&m)
            .learning(true)
            .par_maximize(cost, 1)
            .unwrap();
        let (three, _) = par_learning_optimize(&m, options(None), cost, false, 3);
        assert_eq!(
            one.best.map(|s| s.values().to_vec()),
            par.best.map(|s| s.values().to_vec())
        );
        assert_eq!(
            three.best.map(|s| s.values().to_vec()),
            par_learning_optimize(&m, options(None), cost, false, 2)
                .0
                .best
                .map(|s| s.values().to_vec())
        );
    }
}

/// `n` items of weights 1..=n in bins of capacity `cap`, the number of
/// bins used minimised (its optimum is far from the first solutions).
fn packing(n: usize, cap: i32) -> (Model, VarId) {
    let mut m = Model::new();
    let bins = n as i32;
    let xs = m.new_vars(n, Domain::range(0, bins - 1)).unwrap();
    let sizes: Vec<i32> = (1..=n as i32).collect();
    m.bin_packing(cap, &xs, &sizes).unwrap();
    let top = m.new_var(Domain::range(0, bins - 1)).unwrap();
    for &x in &xs {
        m.less_eq(x, top, 0).unwrap();
    }
    (m, top)
}

#[test]
fn a_run_stopped_by_a_limit_says_so_with_a_true_bound() {
    let (m, top) = packing(10, 11);
    let full = Search::new(&m).learning(true).minimize(top).unwrap();
    assert!(full.is_optimal(), "{full}");
    let opt = full.objective.unwrap();
    let mut stopped = 0;
    for nodes in [1, 5, 20, 60, 200] {
        for workers in [2, 3] {
            let (r, _) = par_learning_optimize(&m, options(Some(nodes)), top, true, workers);
            let what = format!("{nodes} nodes, {workers} workers: {r}");
            if let Some(s) = &r.best {
                m.check(s.values()).unwrap();
                assert_eq!(Some(s[top]), r.objective, "{what}");
                assert!(r.objective.unwrap() >= opt, "{what}");
            }
            if let Some(b) = r.bound {
                assert!(b <= opt, "{what}");
            }
            match r.outcome {
                Outcome::Solved => assert_eq!(r.objective, Some(opt), "{what}"),
                Outcome::LimitReached(l) => {
                    stopped += 1;
                    assert_eq!(l, Limit::Nodes, "{what}");
                    assert!(!r.is_optimal(), "{what}");
                    // Proven only when the bound meets the objective.
                    assert_eq!(r.proven, r.bound.is_some() && r.bound == r.objective);
                    if r.proven {
                        assert_eq!(r.objective, Some(opt), "{what}");
                    }
                }
                o => panic!("{what}: {o:?}"),
            }
        }
    }
    assert!(stopped >= 4, "the limits stopped only {stopped} runs");
}

#[test]
fn a_cancelled_run_and_an_unsatisfiable_model() {
    let (m, top) = packing(8, 9);
    let token = CancelToken::new();
    token.cancel();
    let mut o = options(None);
    o.limits.cancel = Some(token);
    let (r, _) = par_learning_optimize(&m, o, top, true, 2);
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled), "{r}");
    assert!(!r.is_optimal() && !r.proven);

    // 5 items in bins of capacity 4: item 5 fits nowhere.
    let (m, top) = packing(5, 4);
    let (r, _) = par_learning_optimize(&m, options(None), top, true, 2);
    assert_eq!(r.outcome, Outcome::Unsatisfiable, "{r}");
    assert!(r.best.is_none() && r.bound.is_none());
}
