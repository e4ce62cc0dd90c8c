//! Errors, limits, cancellation, iterators and parallel determinism.

use std::ops::ControlFlow;
use std::time::Duration;

use csp_core::{
    CancelToken, Domain, Inference, Limit, Limits, Model, ModelError, Outcome, Search, Uniqueness,
    ValOrder, VarId, VarOrder,
};

fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    (m, q)
}

/// Independent check: no two queens share a column or a diagonal.
fn is_queens_solution(cols: &[i32]) -> bool {
    (0..cols.len())
        .all(|i| (0..i).all(|k| cols[i] != cols[k] && (cols[i] - cols[k]).abs() != (i - k) as i32))
}

/// Names stick to their variables when named and unnamed ones interleave.
#[test]
fn names_follow_their_variables() {
    let mut m = Model::new();
    let a = m.new_var(Domain::range(0, 3)).unwrap();
    let b = m.new_var_named("b", Domain::range(0, 3)).unwrap();
    let cd = m.new_vars(2, Domain::range(1, 2)).unwrap();
    let e = m.new_var_named("e", Domain::singleton(7)).unwrap();
    let f = m.new_var(Domain::range(0, 1)).unwrap();
    assert_eq!(m.name(a), None);
    assert_eq!(m.name(b), Some("b"));
    assert_eq!((m.name(cd[0]), m.name(cd[1])), (None, None));
    assert_eq!(m.name(e), Some("e"));
    assert_eq!(m.name(f), None);
}

#[test]
fn model_errors_are_typed() {
    let mut m = Model::new();
    assert_eq!(
        m.new_var(Domain::range(3, 2)),
        Err(ModelError::EmptyDomain { name: None })
    );
    assert!(matches!(
        m.new_var_named("z", Domain::values([])),
        Err(ModelError::EmptyDomain { name: Some(n) }) if n == "z"
    ));
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let foreign = VarId::from_index(7);
    let e = m.not_equal(x, foreign, 0).unwrap_err();
    assert!(matches!(e, ModelError::ForeignVar { index: 7, .. }));
    assert!(e.to_string().contains("v7"));
    let e = m.all_different_offset(&[x], &[1, 2]).unwrap_err();
    assert!(matches!(
        e,
        ModelError::LengthMismatch {
            expected: 1,
            found: 2,
            ..
        }
    ));
    let big = m
        .new_var(Domain::range(i32::MIN / 2, i32::MAX / 2))
        .unwrap();
    let e = m
        .linear(&[(i64::MAX / 2, big)], csp_core::Relation::Le, 0)
        .unwrap_err();
    assert_eq!(
        e,
        ModelError::Overflow {
            constraint: "linear"
        }
    );
    let e = m.table(&[x, x], vec![vec![1]]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }));
    // The failed posts left the model untouched.
    assert_eq!(m.num_constraints(), 0);
}

#[test]
fn queens_counts_at_every_inference_level() {
    let expected = [1u128, 0, 0, 2, 10, 4, 40, 92];
    for (i, &want) in expected.iter().enumerate() {
        let (m, _) = queens(i + 1);
        for inf in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            for vo in [VarOrder::Input, VarOrder::Mrv, VarOrder::DomWdeg] {
                let r = Search::new(&m)
                    .inference(inf)
                    .var_order(vo)
                    .count()
                    .unwrap();
                assert_eq!(r.count, want, "n={} {inf:?} {vo:?}", i + 1);
            }
        }
    }
}

#[test]
fn solutions_come_in_lexicographic_order_with_input_ascending() {
    let (m, q) = queens(8);
    let sols: Vec<Vec<i32>> = Search::new(&m)
        .var_order(VarOrder::Input)
        .solutions()
        .unwrap()
        .map(|s| s.values_of(&q))
        .collect();
    assert_eq!(sols.len(), 92);
    assert!(sols.iter().all(|s| is_queens_solution(s)));
    assert!(sols.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(sols[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
}

#[test]
fn large_n_with_mrv_and_middle_values() {
    let (m, q) = queens(200);
    let r = Search::new(&m)
        .var_order(VarOrder::Mrv)
        .val_order(ValOrder::Middle)
        .limits(Limits::none().with_nodes(100_000))
        .solve()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    assert!(is_queens_solution(&r.solution.unwrap().values_of(&q)));
}

#[test]
fn limits_stop_and_keep_what_was_found() {
    let (m, _) = queens(10);
    let r = Search::new(&m)
        .limits(Limits::none().with_nodes(50))
        .count()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
    assert!(r.stats.nodes <= 50);
    let r = Search::new(&m).count_up_to(5).unwrap();
    assert_eq!(
        (r.count, r.outcome),
        (5, Outcome::LimitReached(Limit::Solutions))
    );
    let r = Search::new(&m)
        .limits(Limits::none().with_solutions(3))
        .for_each_solution(|_| ControlFlow::Continue(()))
        .unwrap();
    assert_eq!(
        (r.count, r.outcome),
        (3, Outcome::LimitReached(Limit::Solutions))
    );
    let t = CancelToken::new();
    t.cancel();
    let r = Search::new(&m)
        .limits(Limits::none().with_cancel(t))
        .count()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled));
    let (m, _) = queens(3);
    assert_eq!(
        Search::new(&m).count().unwrap().outcome,
        Outcome::Unsatisfiable
    );
    assert_eq!(
        Search::new(&m).solve().unwrap().outcome,
        Outcome::Unsatisfiable
    );
    assert_eq!(Search::new(&m).is_unique().unwrap(), Uniqueness::None);
}

#[test]
fn uniqueness() {
    let (m, _) = queens(6);
    assert!(matches!(
        Search::new(&m).is_unique().unwrap(),
        Uniqueness::Multiple(..)
    ));
    let (m, _) = queens(1);
    assert!(matches!(
        Search::new(&m).is_unique().unwrap(),
        Uniqueness::Unique(_)
    ));
}

#[test]
fn parallel_results_do_not_depend_on_threads() {
    let (m, q) = queens(9);
    let base = Search::new(&m)
        .var_order(VarOrder::Input)
        .par_solutions(1)
        .unwrap()
        .0;
    assert_eq!(base.len(), 352);
    for t in [2, 3, 8] {
        let (s, r) = Search::new(&m)
            .var_order(VarOrder::Input)
            .par_solutions(t)
            .unwrap();
        assert_eq!(s, base, "threads {t}");
        assert_eq!(r.count, 352);
        assert_eq!(Search::new(&m).par_count(t).unwrap().count, 352);
    }
    // Same order as the sequential search with the same options.
    let seq: Vec<_> = Search::new(&m)
        .var_order(VarOrder::Input)
        .solutions()
        .unwrap()
        .collect();
    assert_eq!(seq, base);
    assert!(base.iter().all(|s| is_queens_solution(&s.values_of(&q))));
    let r1 = Search::new(&m)
        .val_order(ValOrder::Random { seed: 7 })
        .par_solutions(1)
        .unwrap()
        .0;
    let r2 = Search::new(&m)
        .val_order(ValOrder::Random { seed: 7 })
        .par_solutions(2)
        .unwrap()
        .0;
    assert_eq!(r1, r2);
}

#[test]
fn twelve_queens_count() {
    let (m, _) = queens(12);
    let r = Search::new(&m).var_order(VarOrder::Input).count().unwrap();
    assert_eq!(r.count, 14200);
    assert_eq!(r.outcome, Outcome::Solved);
    assert!(r.stats.to_string().contains("solutions: 14200"));
}

#[test]
fn ten_million_variables_share_one_domain() {
    // 10^7 variables over 10^7 values: the model stores the domain once and a
    // 4-byte index per variable, no bitset.
    let mut m = Model::new();
    let xs = m.new_vars(10_000_000, Domain::range(0, 9_999_999)).unwrap();
    assert_eq!(m.num_vars(), 10_000_000);
    assert_eq!(m.domain(xs[9_999_999]).size(), 10_000_000);
    assert!(m.domain(xs[0]).is_range());
}

#[test]
fn observer_sees_every_event_in_order() {
    use csp_core::{SearchObserver, Value};
    #[derive(Default)]
    struct Log(Vec<String>);
    impl SearchObserver for Log {
        fn on_assign(&mut self, v: VarId, x: Value, d: usize) {
            self.0.push(format!("assign {v}={x}@{d}"));
        }
        fn on_fail(&mut self, v: VarId, x: Value, _: usize) {
            self.0.push(format!("fail {v}={x}"));
        }
        fn on_backtrack(&mut self, v: VarId, _: usize) {
            self.0.push(format!("backtrack {v}"));
        }
        fn on_solution(&mut self, s: &[Value]) {
            self.0.push(format!("solution {s:?}"));
        }
        fn on_prune(&mut self, _: VarId, _: Value) {}
    }
    let (m, _) = queens(4);
    let mut log = Log::default();
    let r = Search::new(&m)
        .var_order(VarOrder::Input)
        .observer(&mut log)
        .count()
        .unwrap();
    assert_eq!(r.count, 2);
    let sols = log.0.iter().filter(|l| l.starts_with("solution")).count();
    assert_eq!(sols, 2, "{:#?}", log.0);
    assert_eq!(log.0[0], "assign v0=0@1");
    assert!(log.0.iter().any(|l| l.starts_with("fail")));
    assert!(log.0.iter().any(|l| l.starts_with("backtrack")));
}

/// N-queens with a not-equal constraint per pair of rows and relation
/// (column, both diagonals), so that dom/wdeg's failure weights differ
/// between variables; the model and its row variables.
fn pairwise_queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let rows = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    for i in 0..n {
        for k in i + 1..n {
            let d = (k - i) as i32;
            for offset in [0, d, -d] {
                m.not_equal(rows[i], rows[k], offset).unwrap();
            }
        }
    }
    (m, rows)
}

/// Parallel searches reuse each worker's engine from one subproblem to the
/// next (rewound to the root): the statistics must be those of a new engine
/// per subproblem, so they cannot depend on how many threads share the
/// subproblems. Several propagators (Régin's all-different, the fused
/// forward check), weighted variable orders and random value orders.
#[test]
fn parallel_statistics_do_not_depend_on_threads() {
    let (q9, _) = queens(9);
    let (pairwise, _) = pairwise_queens(10);
    let mut latin = Model::new();
    let cells = latin.new_vars(16, Domain::range(1, 4)).unwrap();
    for i in 0..4 {
        let row: Vec<VarId> = (0..4).map(|j| cells[4 * i + j]).collect();
        let col: Vec<VarId> = (0..4).map(|j| cells[4 * j + i]).collect();
        latin.all_different(&row).unwrap();
        latin.all_different(&col).unwrap();
    }
    // Known counts: 352 and 724 solutions of 9- and 10-queens (OEIS
    // A000170), 576 Latin
    // squares of order 4 (OEIS A002860).
    let cases: Vec<(&Model, u128, Inference, VarOrder, ValOrder)> = vec![
        (
            &q9,
            352,
            Inference::ForwardChecking,
            VarOrder::Input,
            ValOrder::Ascending,
        ),
        (
            &q9,
            352,
            Inference::Mac,
            VarOrder::DomWdeg,
            ValOrder::Ascending,
        ),
        (
            &pairwise,
            724,
            Inference::ForwardChecking,
            VarOrder::DomWdeg,
            ValOrder::Ascending,
        ),
        (
            &q9,
            352,
            Inference::ForwardChecking,
            VarOrder::Mrv,
            ValOrder::Random { seed: 3 },
        ),
        (
            &latin,
            576,
            Inference::Mac,
            VarOrder::DomWdeg,
            ValOrder::Descending,
        ),
        (
            &latin,
            576,
            Inference::ForwardChecking,
            VarOrder::Input,
            ValOrder::Random { seed: 5 },
        ),
    ];
    for (m, want, inference, var, val) in cases {
        let run = |threads: usize| {
            let search = || {
                Search::new(m)
                    .inference(inference)
                    .var_order(var)
                    .val_order(val)
            };
            let mut c = search().par_count(threads).unwrap();
            let (sols, mut s) = search().par_solutions(threads).unwrap();
            assert_eq!(sols.len() as u128, c.count);
            c.stats.time = Duration::ZERO;
            s.stats.time = Duration::ZERO;
            (c.count, c.stats, s.stats, sols)
        };
        let one = run(1);
        assert_eq!(one.0, want, "{inference:?} {var:?} {val:?}");
        for threads in [2, 3] {
            assert!(
                run(threads) == one,
                "{threads} threads: {inference:?} {var:?} {val:?}"
            );
        }
    }
}

/// A phase searched by dom/wdeg learns failure weights even when the
/// search's own order is another: the same phase under either global order
/// makes the same choices, so the statistics agree.
#[test]
fn a_dom_wdeg_phase_keeps_failure_weights() {
    let (m, rows) = pairwise_queens(10);
    let run = |var_order| {
        let r = Search::new(&m)
            .options(csp_core::SearchOptions {
                inference: Inference::ForwardChecking,
                var_order,
                decision_vars: rows.clone(),
                phases: vec![10],
                phase_orders: vec![(VarOrder::DomWdeg, ValOrder::Ascending)],
                ..Default::default()
            })
            .count()
            .unwrap();
        assert_eq!(r.count, 724, "10-queens has 724 solutions (OEIS A000170)");
        (r.stats.nodes, r.stats.failures)
    };
    assert_eq!(run(VarOrder::Input), run(VarOrder::DomWdeg));
}
