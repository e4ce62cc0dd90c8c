//! Branch and bound (issue 12): the optimum of small models against brute
//! force under every search configuration, improvements strictly better,
//! limits reported as "best found", never as optimal.

use csp_core::expr::sum;
use csp_core::{testing, Domain, Limit, Limits, Model, Outcome, Relation, Search, VarId};

/// A few models with an objective variable (last), each small enough for
/// brute force over its declared variables.
/// A cost variable `Σ (i mod 3 + 1)·x_i`: weights 1, 2, 3, 1, … so that
/// the all-different optima are not symmetric.
fn weighted_cost(m: &mut Model, xs: &[VarId]) -> VarId {
    m.define(sum(xs
        .iter()
        .enumerate()
        .map(|(i, &x)| (i as i32 % 3 + 1) * x)))
        .unwrap()
}

fn models() -> Vec<(&'static str, Model, VarId)> {
    let mut out = Vec::new();

    let mut m = Model::new();
    let [x, y] = m.new_array(Domain::range(0, 9)).unwrap();
    m.post((x + y).ge(7)).unwrap();
    let cost = m.define(3 * x + 2 * y).unwrap();
    out.push(("3x + 2y, x + y >= 7", m, cost));

    // A tiny knapsack: weights 3 4 5 6, values 4 5 7 8, capacity 10.
    let mut m = Model::new();
    let take = m.new_bools(4).unwrap();
    let w = [3, 4, 5, 6];
    let v = [4, 5, 7, 8];
    m.post(sum(take.iter().zip(w).map(|(&t, w)| w * t)).le(10))
        .unwrap();
    let value = m
        .define(sum(take.iter().zip(v).map(|(&t, v)| v * t)))
        .unwrap();
    out.push(("knapsack", m, value));

    // All different with a product objective and a hole.
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::values([-3, -1, 0, 2, 4])).unwrap();
    m.all_different(&xs).unwrap();
    let p = m.define(xs[0] * xs[1] - xs[2]).unwrap();
    out.push(("x0*x1 - x2, all different", m, p));

    // Unsatisfiable.
    let mut m = Model::new();
    let [x, y] = m.new_array(Domain::range(0, 3)).unwrap();
    m.post(x.lt(y)).unwrap();
    m.post(y.lt(x)).unwrap();
    out.push(("unsatisfiable", m, x));
    out
}

#[test]
fn optimum_matches_brute_force_everywhere() {
    for (name, m, obj) in models() {
        let all = testing::brute_force(&m).unwrap();
        let lo = all.iter().map(|s| s[obj.index()]).min();
        let hi = all.iter().map(|s| s[obj.index()]).max();
        for opts in testing::configurations_for(&m, 11) {
            for (minimize, want) in [(true, lo), (false, hi)] {
                let mut s = Search::new(&m).options(opts.clone());
                let r = if minimize {
                    s.minimize(obj).unwrap()
                } else {
                    s.maximize(obj).unwrap()
                };
                let what = format!("{name}, minimize={minimize}, {opts:?}");
                assert_eq!(r.objective, want, "{what}");
                match want {
                    Some(_) => assert_eq!(r.outcome, Outcome::Solved, "{what}"),
                    None => assert_eq!(r.outcome, Outcome::Unsatisfiable, "{what}"),
                }
                if let Some(best) = &r.best {
                    m.check(best.values()).unwrap();
                    assert_eq!(Some(best[obj]), r.objective);
                }
                // In parallel: the same optimum and the same solution for
                // any thread count.
                let mut reported = Vec::new();
                for threads in [1, 2, 4] {
                    let mut s = Search::new(&m).options(opts.clone());
                    let p = if minimize {
                        s.par_minimize(obj, threads).unwrap()
                    } else {
                        s.par_maximize(obj, threads).unwrap()
                    };
                    assert_eq!(p.objective, want, "{what}, {threads} threads");
                    assert_eq!(p.outcome, r.outcome, "{what}, {threads} threads");
                    if let Some(b) = &p.best {
                        m.check(b.values()).unwrap();
                    }
                    reported.push(p.best.map(|b| b.values().to_vec()));
                }
                assert!(
                    reported.windows(2).all(|w| w[0] == w[1]),
                    "{what}: {reported:?}"
                );
                // Each improvement strictly better than the one before.
                for w in r.improvements.windows(2) {
                    let better = if minimize {
                        w[1].objective < w[0].objective
                    } else {
                        w[1].objective > w[0].objective
                    };
                    assert!(better, "{what}: {:?}", r.improvements);
                }
            }
        }
    }
}

#[test]
fn a_limit_gives_best_found_not_optimal() {
    // 12 variables: the first solution comes fast, the proof does not.
    let mut m = Model::new();
    let xs = m.new_vars(12, Domain::range(0, 20)).unwrap();
    m.all_different(&xs).unwrap();
    let total = m
        .define(sum(xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (i as i32 % 5 - 2) * x)))
        .unwrap();
    let r = Search::new(&m)
        .limits(Limits::none().with_nodes(50))
        .minimize(total)
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
    assert!(!r.is_optimal());
    let best = r.best.as_ref().expect("a solution within 50 nodes");
    m.check(best.values()).unwrap();
    assert!(r.to_string().starts_with("best found: "), "{r}");
    // Stopping from the callback is a limit too.
    let mut seen = 0;
    let r = Search::new(&m)
        .minimize_each(total, |s, v| {
            assert_eq!(s[total], v);
            seen += 1;
            std::ops::ControlFlow::Break(())
        })
        .unwrap();
    assert_eq!(
        (seen, r.outcome),
        (1, Outcome::LimitReached(Limit::Solutions))
    );
}

#[test]
fn restarts_follow_their_sequences() {
    use csp_core::Restarts;
    let luby: Vec<u64> = (0..15)
        .map(|i| Restarts::Luby { scale: 1 }.cutoff(i))
        .collect();
    assert_eq!(luby, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    assert_eq!(Restarts::Luby { scale: 100 }.cutoff(6), 400);
    let geo: Vec<u64> = (0..4)
        .map(|i| {
            Restarts::Geometric {
                base: 10,
                factor: 2.0,
            }
            .cutoff(i)
        })
        .collect();
    assert_eq!(geo, [10, 20, 40, 80]);
    assert_eq!(Restarts::None.cutoff(3), u64::MAX);
    assert_eq!(
        Restarts::Geometric {
            base: 1,
            factor: 1e6
        }
        .cutoff(1000),
        u64::MAX
    );
}

#[test]
fn restarts_keep_solve_and_optimisation_complete() {
    use csp_core::{Restarts, SearchOptions, VarOrder};
    let opts = SearchOptions {
        var_order: VarOrder::DomWdeg,
        restarts: Restarts::Luby { scale: 1 },
        ..Default::default()
    };
    // 10-queens: a solution, found after restarts, checked by the model.
    let n = 10;
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    let r = Search::new(&m).options(opts.clone()).solve().unwrap();
    m.check(r.solution.as_ref().unwrap().values()).unwrap();
    // Pigeonhole 6 → 5: unsatisfiable, proven despite restarting.
    let mut m = Model::new();
    let p = m.new_vars(6, Domain::range(1, 5)).unwrap();
    for i in 0..6 {
        for j in i + 1..6 {
            m.post(p[i].ne(p[j])).unwrap();
        }
    }
    let r = Search::new(&m).options(opts.clone()).solve().unwrap();
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
    assert!(r.stats.restarts > 0, "{}", r.stats);
    // An optimum, the same with and without restarts.
    let mut m = Model::new();
    let xs = m.new_vars(7, Domain::range(0, 12)).unwrap();
    m.all_different(&xs).unwrap();
    let cost = weighted_cost(&mut m, &xs);
    let plain = Search::new(&m).minimize(cost).unwrap();
    let restarted = Search::new(&m).options(opts).minimize(cost).unwrap();
    assert!(plain.is_optimal() && restarted.is_optimal());
    assert_eq!(plain.objective, restarted.objective);
    assert!(restarted.stats.restarts > 0);
    assert!(restarted.stats.to_string().contains(", restarts: "));
}

#[test]
fn decision_variables_are_branched_on_first() {
    use csp_core::{SearchObserver, SearchOptions, Value, VarOrder};
    /// Records the variables of the decisions, in order.
    #[derive(Default)]
    struct Decisions(Vec<VarId>);
    impl SearchObserver for Decisions {
        fn on_assign(&mut self, x: VarId, _v: Value, _depth: usize) {
            self.0.push(x);
        }
    }
    let mut m = Model::new();
    let xs = m.new_vars(5, Domain::range(0, 3)).unwrap();
    m.all_different(&xs[..4]).unwrap();
    for order in [VarOrder::Input, VarOrder::Mrv, VarOrder::DomWdeg] {
        let opts = SearchOptions {
            var_order: order,
            decision_vars: vec![xs[3], xs[1]],
            ..Default::default()
        };
        let mut seen = Decisions::default();
        let r = Search::new(&m)
            .options(opts)
            .observer(&mut seen)
            .solve()
            .unwrap();
        m.check(r.solution.unwrap().values()).unwrap();
        // The first two decisions are on the chosen variables.
        let first: Vec<VarId> = seen.0.iter().take(2).copied().collect();
        assert!(
            first.iter().all(|x| *x == xs[3] || *x == xs[1]),
            "{order:?}: {:?}",
            seen.0
        );
        if order == VarOrder::Input {
            assert_eq!(first, vec![xs[3], xs[1]]);
        }
    }
}

#[test]
fn lns_improves_deterministically_and_can_prove() {
    use csp_core::Lns;
    let mut m = Model::new();
    let xs = m.new_vars(9, Domain::range(0, 30)).unwrap();
    m.all_different(&xs).unwrap();
    let cost = m
        .define(sum(xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (i as i32 % 4 + 1) * x)))
        .unwrap();
    let exact = Search::new(&m).minimize(cost).unwrap().objective.unwrap();
    let lns = Lns {
        seed: 7,
        iterations: 200,
        nodes: 300,
        ..Lns::default()
    };
    let a = Search::new(&m).minimize_lns(cost, lns).unwrap();
    let b = Search::new(&m).minimize_lns(cost, lns).unwrap();
    // The same seed, the same run.
    assert_eq!(
        a.improvements
            .iter()
            .map(|i| i.objective)
            .collect::<Vec<_>>(),
        b.improvements
            .iter()
            .map(|i| i.objective)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        a.best.as_ref().unwrap().values(),
        b.best.as_ref().unwrap().values()
    );
    m.check(a.best.as_ref().unwrap().values()).unwrap();
    assert!(a.objective.unwrap() >= exact);
    for w in a.improvements.windows(2) {
        assert!(w[1].objective < w[0].objective);
    }
    assert!(!a.is_optimal(), "{a}"); // a neighbourhood search proves nothing here
                                     // No node limit was set: the neighbourhood budget ended the run, and
                                     // the outcome says so (it said the node limit).
    assert_eq!(a.outcome, Outcome::LimitReached(Limit::Iterations));
    assert!(a.to_string().contains("LNS iteration budget"), "{a}");
    // A node limit of the caller's bounds the whole run and is named.
    let capped = Search::new(&m)
        .node_limit(1000)
        .minimize_lns(cost, lns)
        .unwrap();
    assert_eq!(capped.outcome, Outcome::LimitReached(Limit::Nodes));
    assert!(capped.stats.nodes <= 1000, "{}", capped.stats.nodes);
    // Freeing every variable with a large budget is a complete search.
    let full = Search::new(&m)
        .minimize_lns(
            cost,
            Lns {
                relax: 1.0,
                nodes: u64::MAX,
                iterations: 1,
                ..Lns::default()
            },
        )
        .unwrap();
    assert!(full.is_optimal(), "{full}");
    assert_eq!(full.objective, Some(exact));
    // Maximising works the same way.
    let hi = Search::new(&m).maximize(cost).unwrap().objective.unwrap();
    let r = Search::new(&m).maximize_lns(cost, lns).unwrap();
    assert!(r.objective.unwrap() <= hi);
    m.check(r.best.unwrap().values()).unwrap();
}

/// Regression: a parallel subproblem whose replay already fixed every
/// variable was reported as phase 2's optimal solution without the bound
/// being checked (best = all zeros with objective 14 claimed).
#[test]
fn parallel_best_solution_has_the_reported_objective() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let y = m.new_var(Domain::range(0, 3)).unwrap();
    let z = m.new_var(Domain::range(0, 3)).unwrap();
    let v = m.new_var(Domain::range(0, 100)).unwrap();
    m.linear(&[(2, x), (3, y), (1, z)], Relation::Le, 5)
        .unwrap();
    m.linear(&[(5, x), (4, y), (3, z), (-1, v)], Relation::Eq, 0)
        .unwrap();
    // The optimum by enumeration: 5x + 4y + 3z under 2x + 3y + z ≤ 5.
    let mut best = 0;
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                if 2 * a + 3 * b + c <= 5 {
                    best = best.max(5 * a + 4 * b + 3 * c);
                }
            }
        }
    }
    for threads in [1, 2, 4] {
        let r = Search::new(&m).par_maximize(v, threads).unwrap();
        assert!(r.is_optimal());
        assert_eq!(r.objective, Some(best));
        let s = r.best.unwrap();
        assert_eq!(s[v], best, "{threads} threads: {:?}", s.values());
        m.check(s.values()).unwrap();
        let r = Search::new(&m).par_minimize(v, threads).unwrap();
        assert_eq!(r.best.unwrap()[v], 0);
    }
}

/// With static orders the subproblems split the tree in its own depth-first
/// order, so the solution `par_minimize` reports, the first of the optimal
/// value in subproblem order, is the first solution of value v* the
/// sequential search meets: found here by posting `cost = v*` and taking
/// the first solution, for models whose optimum has many solutions.
#[test]
fn parallel_optimum_is_the_first_optimal_solution_in_search_order() {
    use csp_core::{ValOrder, VarOrder};
    let build = |n: usize, hi: i32, floor: i32| {
        let mut m = Model::new();
        let xs = m.new_vars(n, Domain::range(0, hi)).unwrap();
        m.all_different(&xs).unwrap();
        m.post(sum(&xs).ge(floor)).unwrap();
        let cost = weighted_cost(&mut m, &xs);
        (m, cost)
    };
    for (n, hi, floor) in [(5, 7, 14), (6, 9, 25), (7, 9, 30)] {
        let (m, cost) = build(n, hi, floor);
        fn search(m: &Model) -> Search<'_> {
            Search::new(m)
                .var_order(VarOrder::Input)
                .val_order(ValOrder::Ascending)
        }
        let v = search(&m).minimize(cost).unwrap().objective.unwrap();
        let (mut fixed, fixed_cost) = build(n, hi, floor);
        fixed.post(fixed_cost.eq(v)).unwrap();
        let first = search(&fixed).solve().unwrap().solution.unwrap();
        for threads in [1, 2, 4] {
            let p = search(&m).par_minimize(cost, threads).unwrap();
            assert!(p.is_optimal());
            assert_eq!(p.objective, Some(v));
            assert_eq!(
                p.best.unwrap().values(),
                first.values(),
                "n = {n}, {threads} threads"
            );
        }
    }
}

/// After an improving solution, a frame whose state (at its opening) the
/// new bound alone refutes is dropped without trying its values (issue
/// 29, as Gecode's branch and bound drops the subtree of the copy it
/// recomputes from). Here `a ≠ b` puts the optimum of `a + b + c` at 1
/// while the root's bounds only give 0, so the objective's domain does
/// not show that the first solution is optimal: the bound `≤ 0`
/// propagated at the root does. The proof then costs no decision; before,
/// the root frame tried each value left for `a` once more (one with a
/// binary order, up to `m` in ascending order), each refuted by the bound.
#[test]
fn a_bound_that_refutes_a_frame_costs_no_decision() {
    use csp_core::{SearchOptions, ValOrder, VarOrder};
    for m_max in [1, 3, 6] {
        let mut m = Model::new();
        let [a, b] = m.new_array(Domain::range(0, m_max)).unwrap();
        let c = m.new_var(Domain::range(0, 2)).unwrap();
        m.post(a.ne(b)).unwrap();
        let total = m.define(a + b + c).unwrap();
        // The optimum, by brute force over the declared variables.
        let all = testing::brute_force(&m).unwrap();
        let best = all.iter().map(|s| s[total.index()]).min();
        for (var_order, val_order) in [
            (VarOrder::Input, ValOrder::Ascending),
            (VarOrder::Smallest, ValOrder::BinaryMin),
            (VarOrder::Input, ValOrder::Split),
        ] {
            let opts = SearchOptions {
                var_order,
                val_order,
                decision_vars: vec![a, b, c],
                learning: false,
                ..Default::default()
            };
            let what = format!("0..={m_max}, {var_order:?}, {val_order:?}");
            let r = Search::new(&m).options(opts).minimize(total).unwrap();
            assert_eq!(r.outcome, Outcome::Solved, "{what}");
            assert_eq!(r.objective, best, "{what}");
            m.check(r.best.as_ref().unwrap().values()).unwrap();
            assert_eq!(r.improvements.len(), 1, "{what}: {:?}", r.improvements);
            // The search ended with the decisions that found it, after
            // the bound failed at the root.
            assert_eq!(r.stats.nodes, r.improvements[0].nodes, "{what}");
            assert!(r.stats.failures > 0, "{what}: {:?}", r.stats);
        }
    }
}
