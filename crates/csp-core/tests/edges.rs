//! Edge cases the kernel must get right: values at the `i32` extremes,
//! constraints over no variables, repeated variables in built-ins posted
//! directly, limits everywhere (parallel included), broken propagators, and
//! models over 256 variables or with large domains in every configuration.
//! Each count is checked against brute force or a count derived by hand.

use std::time::Duration;

use csp_core::constraint::{Count, Linear, NotEqual};
use csp_core::SearchError;
use csp_core::{
    testing, CancelToken, Conflict, Constraint, Domain, Inference, Limit, Limits, Model,
    ModelError, Outcome, Pruner, Relation, Search, SearchOptions, ValOrder, Value, VarId,
};

/// Every inference level, variable order and value order (the harness's list).
fn configs() -> Vec<SearchOptions> {
    testing::all_configurations(7)
}

#[test]
fn a_bound_next_to_i32_max_on_a_huge_domain() {
    // 2^32 − 1 values; x ≥ MAX − 1. Without inference the search tries
    // values one by one, so only the descending order is quick there.
    for o in configs()
        .into_iter()
        .filter(|o| o.inference != Inference::None || o.val_order == ValOrder::Descending)
    {
        let mut m = Model::new();
        let x = m
            .new_var(Domain::range(Value::MIN + 1, Value::MAX))
            .unwrap();
        m.linear(&[(1, x)], Relation::Ge, Value::MAX as i64 - 1)
            .unwrap();
        let r = Search::new(&m)
            .options(testing::fitted(&m, o.clone()))
            .solve()
            .unwrap();
        let s = r.solution.expect("solvable");
        assert!(s[x] >= Value::MAX - 1, "{o:?}: {}", s[x]);
        m.check(s.values()).unwrap();
        if o.inference != Inference::None {
            assert_eq!(
                Search::new(&m)
                    .options(testing::fitted(&m, o))
                    .count()
                    .unwrap()
                    .count,
                2
            );
        }
    }
}

#[test]
fn domains_holding_both_extremes() {
    for o in configs() {
        let mut m = Model::new();
        let x = m.new_var(Domain::values([Value::MIN, Value::MAX])).unwrap();
        let y = m
            .new_var(Domain::values([Value::MIN, 0, Value::MAX]))
            .unwrap();
        m.not_equal(x, y, 0).unwrap();
        let all: Vec<Vec<Value>> = Search::new(&m)
            .options(testing::fitted(&m, o.clone()))
            .solutions()
            .unwrap()
            .map(|s| s.values().to_vec())
            .collect();
        assert_eq!(all.len(), 4, "{o:?}: {all:?}");
        assert_eq!(
            Search::new(&m)
                .options(testing::fitted(&m, o))
                .count()
                .unwrap()
                .count,
            4
        );
    }
    let full = Domain::range(Value::MIN, Value::MAX);
    assert_eq!(full.size(), 1 << 32);
    let mut m = Model::new();
    let x = m.new_var(full).unwrap();
    m.linear(&[(1, x)], Relation::Le, Value::MIN as i64 + 2)
        .unwrap();
    assert_eq!(Search::new(&m).count().unwrap().count, 3);
}

#[test]
fn false_constraints_over_no_variables() {
    // Never true and over no variables: refused with the constraint named,
    // whatever the configuration, before the search starts.
    for o in configs() {
        let mut m = Model::new();
        let x = m.new_var(Domain::range(0, 3)).unwrap();
        m.not_equal(x, x, 1).unwrap();
        let never = m.predicate(&[], "never", |_| false).unwrap();
        let o = testing::fitted(&m, o);
        for r in [
            Search::new(&m).options(o.clone()).solve().map(|_| ()),
            Search::new(&m).options(o.clone()).count().map(|_| ()),
        ] {
            match r {
                Err(SearchError::EmptyScope { constraint, .. }) => assert_eq!(constraint, never),
                other => panic!("{o:?}: {other:?}"),
            }
        }

        let mut m = Model::new();
        m.new_var(Domain::range(0, 3)).unwrap();
        m.table(&[], Vec::<Vec<Value>>::new()).unwrap();
        assert!(
            matches!(
                Search::new(&m).options(o.clone()).count(),
                Err(SearchError::EmptyScope { .. })
            ),
            "{o:?}"
        );

        // A true one changes nothing.
        let mut m = Model::new();
        m.new_var(Domain::range(0, 3)).unwrap();
        m.predicate(&[], "always", |_| true).unwrap();
        assert_eq!(Search::new(&m).options(o).count().unwrap().count, 4);
    }
}

#[test]
fn built_ins_posted_directly_with_repeated_variables() {
    let doms = [Domain::range(0, 2), Domain::range(0, 2)];
    testing::check_constraint(&doms, |m, v| {
        m.post(NotEqual::new(v[0], v[0], 0)).map(|_| ())
    })
    .unwrap();
    testing::check_constraint(&doms, |m, v| {
        m.post(Count::new(vec![v[1], v[0], v[1], v[1]], 1, Relation::Eq, 3))
            .map(|_| ())
    })
    .unwrap();
    // A Linear built directly skips the model's range check: its sums are
    // exact anyway.
    testing::check_constraint(&[Domain::range(-3, 3), Domain::range(-3, 3)], |m, v| {
        m.post(Linear::new(
            vec![v[0], v[1]],
            vec![i64::MAX / 2, i64::MAX / 2],
            Relation::Ge,
            0,
        ))
        .map(|_| ())
    })
    .unwrap();
}

#[test]
fn count_up_to_zero_is_not_unsatisfiable() {
    let mut m = Model::new();
    m.new_vars(2, Domain::range(0, 1)).unwrap();
    let r = Search::new(&m).count_up_to(0).unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Solutions));
    assert_eq!(Search::new(&m).count_up_to(3).unwrap().count, 3);
    assert_eq!(
        Search::new(&m).count_up_to(9).unwrap().outcome,
        Outcome::Solved
    );
}

#[test]
fn too_many_variables_is_an_error_and_loses_nothing() {
    let mut m = Model::new();
    let a = m.new_vars(3, Domain::range(0, 1)).unwrap();
    m.all_different(&a[..2]).unwrap();
    let e = m.new_vars(usize::MAX - 1, Domain::range(0, 1)).unwrap_err();
    assert!(matches!(e, ModelError::TooManyVariables { .. }), "{e}");
    assert_eq!(m.num_vars(), 3);
    assert_eq!(Search::new(&m).count().unwrap().count, 4);
    assert_eq!(VarId::try_from_index((1usize << 32) + 1), None);
    assert_eq!(VarId::try_from_index(5), Some(VarId::from_index(5)));
}

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    m
}

#[test]
fn parallel_limits_are_global_and_reported() {
    let m = queens(8);
    for threads in [1, 2, 4] {
        let r = Search::new(&m)
            .limits(Limits::none().with_nodes(1))
            .par_count(threads)
            .unwrap();
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes), "{threads}");
        assert!(r.count < 92);
        let m12 = queens(12);
        let r = Search::new(&m12)
            .limits(Limits::none().with_nodes(1000))
            .par_count(threads)
            .unwrap();
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
        // Documented overshoot: under 256 nodes per thread and subproblem
        // start, far below the full 12-queens tree.
        assert!(r.stats.nodes < 1000 + 256 * 4 * 4, "{}", r.stats.nodes);
        // The solution limit applies to counting too.
        let r = Search::new(&m)
            .limits(Limits::none().with_solutions(10))
            .par_count(threads)
            .unwrap();
        assert_eq!(
            (r.count, r.outcome),
            (10, Outcome::LimitReached(Limit::Solutions))
        );
    }
    let r = Search::new(&m)
        .limits(Limits::none().with_solutions(10))
        .count()
        .unwrap();
    assert_eq!(
        (r.count, r.outcome),
        (10, Outcome::LimitReached(Limit::Solutions))
    );
    let r = Search::new(&m)
        .limits(Limits::none().with_solutions(100))
        .count()
        .unwrap();
    assert_eq!((r.count, r.outcome), (92, Outcome::Solved));
}

/// The threads that checked a predicate during `run`, the caller's own
/// left out (it may run the split), and what `run` returned.
fn worker_threads<T>(
    run: impl FnOnce(&Model) -> T,
) -> (std::collections::HashSet<std::thread::ThreadId>, T) {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(std::collections::HashSet::new()));
    let mut m = queens(8);
    let xs: Vec<VarId> = (6..8).map(VarId::from_index).collect();
    let record = seen.clone();
    m.predicate(&xs, "records its thread", move |_| {
        record.lock().unwrap().insert(std::thread::current().id());
        true
    })
    .unwrap();
    let out = run(&m);
    let mut ids = seen.lock().unwrap().clone();
    ids.remove(&std::thread::current().id());
    (ids, out)
}

/// `par_count(1000)` started 1,000 threads (11.5 s for 8-queens instead
/// of 0.03 s): the workers are capped at the cores, unless `max_threads`
/// says otherwise, and the answer and the statistics do not change.
#[test]
fn parallel_workers_are_capped_at_the_cores() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (_, one) = worker_threads(|m| Search::new(m).par_count(1).unwrap());
    assert_eq!(one.count, 92);
    for threads in [0, 2, 1000] {
        let (ids, r) = worker_threads(|m| Search::new(m).par_count(threads).unwrap());
        assert!(ids.len() <= cores, "{threads}: {} threads", ids.len());
        assert_eq!(r.count, 92, "{threads}");
        assert_eq!(r.stats.nodes, one.stats.nodes, "{threads}");
        assert_eq!(r.stats.failures, one.stats.failures, "{threads}");
        let (ids, (sols, _)) = worker_threads(|m| Search::new(m).par_solutions(threads).unwrap());
        assert!(ids.len() <= cores, "{threads}: {} threads", ids.len());
        assert_eq!(sols.len(), 92);
    }
    // Asked for: at most max_threads workers, the same answer.
    let (ids, r) = worker_threads(|m| Search::new(m).max_threads(3).par_count(1000).unwrap());
    assert!(ids.len() <= 3, "{} threads", ids.len());
    assert_eq!((r.count, r.stats.nodes), (92, one.stats.nodes));
}

#[test]
fn a_cancel_token_set_before_the_search() {
    let m = queens(8);
    let t = CancelToken::new();
    t.cancel();
    let l = || Limits::none().with_cancel(t.clone());
    let stopped = Outcome::LimitReached(Limit::Cancelled);
    assert_eq!(
        Search::new(&m).limits(l()).solve().unwrap().outcome,
        stopped
    );
    assert_eq!(
        Search::new(&m).limits(l()).count().unwrap().outcome,
        stopped
    );
    for threads in [1, 2, 4] {
        let r = Search::new(&m).limits(l()).par_count(threads).unwrap();
        assert_eq!(r.outcome, stopped);
        assert_eq!(r.stats.nodes, 0);
    }
}

#[test]
fn a_time_limit_stops_root_propagation() {
    // 40,000 variables in a chain x[i] < x[i+1]: root propagation alone
    // takes 40,000 propagator calls under arc consistency.
    let n = 40_000;
    let mut m = Model::new();
    let x = m.new_vars(n, Domain::range(0, 2 * n as i32)).unwrap();
    for w in x.windows(2) {
        m.linear(&[(1, w[0]), (-1, w[1])], Relation::Le, -1)
            .unwrap();
    }
    let r = Search::new(&m)
        .inference(Inference::Mac)
        .limits(Limits::none().with_time(Duration::ZERO))
        .solve()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Time));
    assert_eq!(r.stats.nodes, 0);
    assert!(r.stats.propagations < 2048, "{}", r.stats.propagations);
}

/// A constraint whose forward checking is broken: it never prunes and never
/// fails (it claims to be x ≠ y).
#[derive(Debug)]
struct Liar([VarId; 2]);

impl Constraint for Liar {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v[0] != v[1]
    }
    fn forward_check(&self, _: &mut Pruner<'_>, _: usize) -> Result<(), Conflict> {
        Ok(())
    }
    fn propagate(&self, _: &mut Pruner<'_>) -> Result<(), Conflict> {
        Ok(())
    }
}

#[test]
fn a_broken_propagator_is_named_not_trusted() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 1)).unwrap();
    let y = m.new_var(Domain::range(0, 1)).unwrap();
    let c = m.post(Liar([x, y])).unwrap();
    let r = Search::new(&m).solve().unwrap();
    assert_eq!(r.outcome, Outcome::Invalid(c));
    assert!(r.solution.is_none());
    let all: Vec<_> = Search::new(&m).solutions().unwrap().collect();
    assert!(all.iter().all(|s| m.check(s.values()).is_ok()));
    let o = SearchOptions {
        validate: true,
        ..Default::default()
    };
    assert_eq!(
        Search::new(&m)
            .options(testing::fitted(&m, o.clone()))
            .count()
            .unwrap()
            .outcome,
        Outcome::Invalid(c)
    );
    assert_eq!(
        Search::new(&m)
            .options(testing::fitted(&m, o))
            .par_count(2)
            .unwrap()
            .outcome,
        Outcome::Invalid(c)
    );
}

#[test]
fn more_than_256_variables_in_every_configuration() {
    // 300 booleans, x[i] ≠ x[i+1]: two solutions; and x[0] + x[299] = 1
    // (299 steps apart, so x[299] ≠ x[0]): still two.
    let mut m = Model::new();
    let x = m.new_vars(300, Domain::range(0, 1)).unwrap();
    for w in x.windows(2) {
        m.not_equal(w[0], w[1], 0).unwrap();
    }
    m.linear(&[(1, x[0]), (1, x[299])], Relation::Eq, 1)
        .unwrap();
    for o in configs() {
        assert_eq!(
            Search::new(&m)
                .options(testing::fitted(&m, o.clone()))
                .count()
                .unwrap()
                .count,
            2,
            "{o:?}"
        );
        assert_eq!(
            Search::new(&m)
                .options(testing::fitted(&m, o))
                .par_count(2)
                .unwrap()
                .count,
            2
        );
    }
}

#[test]
fn large_domains_in_every_configuration() {
    // x + y = 1000 over 0..=1000 with y ≠ x and x in a holey set.
    let mut m = Model::new();
    let x = m
        .new_var(Domain::values((0..=1000).filter(|v| v % 3 != 0)))
        .unwrap();
    let y = m.new_var(Domain::range(0, 1000)).unwrap();
    let z = m.new_var(Domain::range(-100_000, 100_000)).unwrap();
    m.linear(&[(1, x), (1, y)], Relation::Eq, 1000).unwrap();
    m.not_equal(x, y, 0).unwrap();
    m.linear(&[(1, z), (-1, x)], Relation::Eq, 0).unwrap();
    // x from 0..=1000 not divisible by 3 (y = 1000 − x is then in range),
    // x ≠ 500: 667 − 1 = 666.
    let expected = (0..=1000).filter(|v| v % 3 != 0 && *v != 500).count() as u128;
    assert_eq!(expected, 666);
    for o in configs() {
        // Without inference z would be enumerated value by value.
        if o.inference != Inference::None {
            assert_eq!(
                Search::new(&m)
                    .options(testing::fitted(&m, o.clone()))
                    .count()
                    .unwrap()
                    .count,
                expected,
                "{o:?}"
            );
        }
    }
    let mut m = Model::new();
    let x = m
        .new_var(Domain::values((0..=1000).filter(|v| v % 3 != 0)))
        .unwrap();
    let y = m.new_var(Domain::range(0, 1000)).unwrap();
    m.linear(&[(1, x), (1, y)], Relation::Eq, 1000).unwrap();
    m.not_equal(x, y, 0).unwrap();
    let o = SearchOptions {
        inference: Inference::None,
        ..Default::default()
    };
    assert_eq!(
        Search::new(&m)
            .options(testing::fitted(&m, o))
            .count()
            .unwrap()
            .count,
        expected
    );
}

#[test]
fn a_time_limit_stops_long_propagator_calls() {
    // 50,000 queens over wide domains (hole lists): every decision removes
    // about 150,000 values, so the limit must be checked inside
    // propagation by the work done, not only every 256 nodes or 1024 calls.
    let n = 50_000;
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    let r = Search::new(&m)
        .limits(Limits::none().with_time(Duration::from_millis(20)))
        .solve()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Time));
    assert!(r.stats.nodes < 200, "{}", r.stats);
}

/// `n` variables over `0..1_000_000` (hole lists), all different: the
/// first solution `x[i] = i` leaves about n²/2 holes, each with its trail
/// entries (some 60 MB for n = 1500).
fn wide_all_different(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let x = m.new_vars(n, Domain::range(0, 999_999)).unwrap();
    m.all_different(&x).unwrap();
    (m, x)
}

#[test]
fn a_memory_budget_stops_the_search() {
    let (m, x) = wide_all_different(1500);
    let budget = |b: u64| Limits::none().with_memory(b);
    // With room, the search finds the solution.
    let r = Search::new(&m).limits(budget(1 << 30)).solve().unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    assert!(x.iter().enumerate().all(|(i, &v)| s[v] == i as Value));
    // A budget below what that needs stops it, saying so; not "no solution",
    // with learning (the default: bound splits on these wide domains, so
    // more nodes) and without.
    for (learning, most) in [(true, 3000), (false, 1500)] {
        let r = Search::new(&m)
            .learning(learning)
            .limits(budget(4 << 20))
            .solve()
            .unwrap();
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Memory));
        assert!(r.solution.is_none());
        assert!(r.stats.nodes < most, "{}", r.stats);
    }
    let r = Search::new(&m).limits(budget(4 << 20)).count().unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Memory));
    // A budget smaller than the store itself stops before the first node.
    let r = Search::new(&m).limits(budget(1 << 10)).solve().unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Memory));
    assert_eq!(r.stats.nodes, 0);
}

#[test]
fn a_memory_budget_stops_parallel_counts() {
    // Eight free two-valued variables first, so that the parallel split
    // (which enumerates whole levels of the tree) stops at 2⁸ subproblems
    // instead of listing a million values of a wide variable.
    let mut m = Model::new();
    m.new_vars(8, Domain::range(0, 1)).unwrap();
    let x = m.new_vars(1500, Domain::range(0, 999_999)).unwrap();
    m.all_different(&x).unwrap();
    for threads in [1, 2, 4] {
        // The node limit is a guard only: the count is astronomical, and
        // the memory runs out before the first solution (1,500 nodes).
        let r = Search::new(&m)
            .limits(Limits::none().with_memory(8 << 20).with_nodes(1_000_000))
            .par_count(threads)
            .unwrap();
        assert_eq!(
            r.outcome,
            Outcome::LimitReached(Limit::Memory),
            "{threads} threads: {}",
            r.stats
        );
    }
}

/// All-different over domains wider than one word but within 256 ids takes
/// the word-at-a-time path (naked and hidden singles, pigeonhole), with and
/// without offsets: every configuration against brute force.
#[test]
fn all_different_over_wide_windows_agrees_with_brute_force() {
    let d = |v: &[Value]| Domain::values(v.iter().copied());
    let cases = [
        // Permutation-like: five positions, five ids spread over 0..200.
        vec![
            d(&[0, 70, 140]),
            d(&[0, 70, 199]),
            d(&[70, 140, 199, 30]),
            d(&[0, 30, 140]),
            d(&[30, 199, 100]),
        ],
        // Hidden singles forced (ids 100 and 5 each fit one position).
        vec![
            d(&[0, 100, 150]),
            d(&[0, 150, 3]),
            d(&[0, 3, 150]),
            d(&[5, 0, 90]),
        ],
        // Pigeonhole: four positions over three ids.
        vec![d(&[1, 80, 160]); 4],
        // Across a word boundary and the 256-id window's edge.
        vec![
            d(&[63, 64, 65, 255]),
            d(&[64, 127, 128, 255]),
            d(&[0, 63, 128]),
        ],
    ];
    for doms in &cases {
        testing::check_constraint(doms, |m, v| m.all_different(v).map(|_| ())).unwrap();
        let offsets: Vec<i32> = (0..doms.len() as i32).map(|i| 7 * i - 10).collect();
        testing::check_constraint(doms, |m, v| m.all_different_offset(v, &offsets).map(|_| ()))
            .unwrap();
    }
}
