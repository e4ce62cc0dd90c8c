//! Bisection (`ValOrder::Split` / `ReverseSplit`), the bound-based variable
//! orders (`Smallest` / `Largest`) and last-conflict reasoning. Their
//! solution sets and counts are checked against brute force by
//! `testing::all_configurations` (see `library.rs`, `optimize.rs`); these
//! tests pin down the decisions themselves.

use csp_core::expr::sum;
use csp_core::{
    Decision, Domain, Inference, Model, Outcome, Search, SearchObserver, ValOrder, VarId, VarOrder,
};

/// Records every decision and failure.
#[derive(Default)]
struct Log {
    decisions: Vec<(usize, Decision, usize)>,
    failed: Vec<(usize, Decision)>,
    assigns: usize,
}

impl SearchObserver for Log {
    fn on_decision(&mut self, var: VarId, d: Decision, depth: usize) {
        self.decisions.push((var.index(), d, depth));
        if let Decision::Assign(..) = d {
            self.assigns += 1;
        }
    }
    fn on_decision_failed(&mut self, var: VarId, d: Decision, _: usize) {
        self.failed.push((var.index(), d));
    }
}

#[test]
fn split_bisects_the_domain() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 7)).unwrap();
    let mut log = Log::default();
    let r = Search::new(&m)
        .inference(Inference::None)
        .val_order(ValOrder::Split)
        .observer(&mut log)
        .count()
        .unwrap();
    assert_eq!(r.count, 8);
    // A complete binary tree over 8 values: 14 halves, each one node.
    assert_eq!(r.stats.nodes, 14);
    assert_eq!(r.stats.max_depth, 3);
    assert_eq!(log.assigns, 0);
    assert_eq!(
        &log.decisions[..4],
        &[
            (x.index(), Decision::AtMost(3), 1),
            (x.index(), Decision::AtMost(1), 2),
            (x.index(), Decision::AtMost(0), 3),
            (x.index(), Decision::AtLeast(1), 3),
        ]
    );
}

#[test]
fn split_and_reverse_split_first_solutions() {
    let mut m = Model::new();
    let x = m.new_var(Domain::values([-9, -4, 0, 6, 13])).unwrap();
    let y = m.new_var(Domain::range(-20, 20)).unwrap();
    m.post((x + y).eq(4)).unwrap();
    let first = |o: ValOrder| {
        Search::new(&m)
            .var_order(VarOrder::Input)
            .val_order(o)
            .solve()
            .unwrap()
            .solution
            .map(|s| (s[x], s[y]))
    };
    assert_eq!(first(ValOrder::Split), Some((-9, 13)));
    assert_eq!(first(ValOrder::ReverseSplit), Some((13, -9)));
}

#[test]
fn split_on_large_domains_and_extreme_bounds() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(-1_000_000, 1_000_000)).unwrap();
    let y = m.new_var(Domain::range(-1_000_000, 1_000_000)).unwrap();
    m.post((x + y).eq(3)).unwrap();
    m.post((x - y).eq(1001)).unwrap();
    for o in [ValOrder::Split, ValOrder::ReverseSplit] {
        // Arc consistency narrows y with each half of x (forward checking
        // waits for fixed variables), so bisection reaches the one
        // solution among 2·10⁶ values in a few dozen halves.
        let r = Search::new(&m)
            .inference(Inference::Mac)
            .val_order(o)
            .solve()
            .unwrap();
        let s = r.solution.expect("a solution");
        assert_eq!((s[x], s[y]), (502, -499), "{o:?}");
        assert!(r.stats.nodes < 200, "{o:?}: {}", r.stats);
    }
    // The whole i32 range: the midpoint and its successor never overflow.
    let mut m = Model::new();
    let z = m.new_var(Domain::range(i32::MIN, i32::MAX)).unwrap();
    m.post(z.ge(i32::MAX - 1)).unwrap();
    for o in [ValOrder::Split, ValOrder::ReverseSplit] {
        let r = Search::new(&m).val_order(o).count().unwrap();
        assert_eq!(r.count, 2, "{o:?}");
        let best = Search::new(&m).val_order(o).minimize(z).unwrap();
        assert_eq!(best.objective, Some(i32::MAX - 1));
    }
}

#[test]
fn split_in_optimisation_and_parallel_search() {
    // A 0/1 knapsack with the value maximised, every search function.
    let mut m = Model::new();
    let take = m.new_bools(6).unwrap();
    let (w, v) = ([3, 4, 5, 6, 2, 7], [4, 5, 7, 8, 1, 9]);
    m.post(sum(take.iter().zip(w).map(|(&t, w)| w * t)).le(14))
        .unwrap();
    let value = m
        .define(sum(take.iter().zip(v).map(|(&t, v)| v * t)))
        .unwrap();
    for o in [ValOrder::Split, ValOrder::ReverseSplit] {
        let s = || Search::new(&m).val_order(o);
        // 19: weights 3 + 5 + 6, values 4 + 7 + 8.
        assert_eq!(s().maximize(value).unwrap().objective, Some(19), "{o:?}");
        assert_eq!(
            s().par_maximize(value, 2).unwrap().objective,
            Some(19),
            "{o:?}"
        );
        assert_eq!(
            s().par_maximize(value, 1).unwrap().best.unwrap().values(),
            s().par_maximize(value, 2).unwrap().best.unwrap().values()
        );
        let all = s().count().unwrap().count;
        assert_eq!(s().par_count(2).unwrap().count, all);
        assert_eq!(s().solutions().unwrap().count() as u128, all);
        assert_eq!(s().par_solutions(2).unwrap().0.len() as u128, all);
    }
}

#[test]
fn smallest_and_largest_pick_by_bounds() {
    let mut m = Model::new();
    let a = m.new_var(Domain::range(5, 9)).unwrap();
    let b = m.new_var(Domain::range(2, 9)).unwrap();
    let c = m.new_var(Domain::range(2, 4)).unwrap();
    let d = m.new_var(Domain::range(-3, 12)).unwrap();
    m.post(d.ge(3)).unwrap(); // d is [3, 12] after the root
    let first = |o: VarOrder| {
        let mut log = Log::default();
        Search::new(&m)
            .var_order(o)
            .observer(&mut log)
            .solve()
            .unwrap();
        log.decisions[0].0
    };
    // Smallest minimum: b and c tie at 2; the first wins.
    assert_eq!(first(VarOrder::Smallest), b.index());
    // Largest maximum: d (12), after the root propagation.
    assert_eq!(first(VarOrder::Largest), d.index());
    let _ = (a, c);
}

/// Seven variables over {0, 1}; the last must differ from and equal the
/// first, which only a check with both fixed finds (no inference).
fn late_conflict() -> Model {
    let mut m = Model::new();
    let xs = m.new_vars(8, Domain::range(0, 1)).unwrap();
    m.not_equal(xs[7], xs[0], 0).unwrap();
    m.equal(xs[7], xs[0], 0).unwrap();
    m
}

#[test]
fn last_conflict_jumps_back_to_the_culprit() {
    let m = late_conflict();
    let run = |lc: bool| {
        // Last-conflict reasoning is the ordinary engine's.
        Search::new(&m)
            .learning(false)
            .inference(Inference::None)
            .var_order(VarOrder::Input)
            .last_conflict(lc)
            .solve()
    };
    let plain = run(false).unwrap();
    let lc = run(true).unwrap();
    assert_eq!(plain.outcome, Outcome::Unsatisfiable);
    assert_eq!(lc.outcome, Outcome::Unsatisfiable);
    // Without it, every assignment of x1..x6 is tried under each x0 (2⁷
    // leaves); with it, x7 is tried again right after each backtrack, so
    // each level fails at once.
    assert!(plain.stats.nodes > 500, "{}", plain.stats);
    assert!(lc.stats.nodes < 100, "{}", lc.stats);
}

#[test]
fn last_conflict_goes_first_until_its_decision_succeeds() {
    let m = late_conflict();
    let mut log = Log::default();
    Search::new(&m)
        .inference(Inference::None)
        .var_order(VarOrder::Input)
        .last_conflict(true)
        .observer(&mut log)
        .solve()
        .unwrap();
    // x0 = 0, x1 = 0, …, x6 = 0, x7 fails twice; back to x6 = 1, then x7
    // again (its conflict), not the input order's next variable.
    let vars: Vec<usize> = log.decisions.iter().map(|d| d.0).collect();
    assert_eq!(&vars[..11], &[0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 7]);
    assert!(log.failed.iter().all(|f| f.0 == 7));
}

#[test]
fn optimisation_stops_at_the_declared_bound() {
    // The first solution reaches the objective's declared minimum: no
    // better one can exist, so the search ends there, proven optimal.
    let mut m = Model::new();
    let xs = m.new_vars(6, Domain::range(0, 9)).unwrap();
    m.all_different(&xs).unwrap();
    let top = m.new_var(Domain::range(5, 9)).unwrap();
    m.max(&xs, top).unwrap();
    let mut o = csp_core::SearchOptions {
        var_order: VarOrder::Input,
        ..Default::default()
    };
    o.decision_vars = vec![top];
    let r = Search::new(&m).options(o).minimize(top).unwrap();
    assert!(r.is_optimal());
    assert_eq!(r.objective, Some(5));
    assert_eq!(r.improvements.len(), 1);
    // One decision on `top`, then the six values: no search after.
    assert_eq!(r.stats.failures, 0, "{}", r.stats);
}

/// Without inference, the auxiliary of `(z·999)²` (0..=8,982,009) was
/// branched on value by value once x, y and z were fixed: ten million
/// nodes did not finish a 64-assignment model (issue 32, item 14). The
/// caller's variables go first and the auxiliaries are computed.
#[test]
fn no_inference_does_not_branch_on_expression_auxiliaries() {
    use csp_core::Limits;
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let y = m.new_var(Domain::range(0, 3)).unwrap();
    let z = m.new_var(Domain::range(0, 3)).unwrap();
    m.post((x * 1000 + y * 700).le((z * 999).pow(2))).unwrap();
    let obj = m.define(x + 2 * y).unwrap();
    let brute = (0..4)
        .flat_map(|x| (0..4).flat_map(move |y| (0..4).map(move |z| (x, y, z))))
        .filter(|&(x, y, z)| x * 1000 + y * 700 <= (z * 999) * (z * 999))
        .count() as u128;
    for order in [
        VarOrder::Input,
        VarOrder::Mrv,
        VarOrder::DomWdeg,
        VarOrder::Largest,
    ] {
        let s = || {
            Search::new(&m)
                .inference(Inference::None)
                .var_order(order)
                .limits(Limits::none().with_nodes(10_000))
        };
        let r = s().count().unwrap();
        assert_eq!((r.outcome, r.count), (Outcome::Solved, brute), "{order:?}");
        let sols: Vec<_> = s().solutions().unwrap().collect();
        assert_eq!(sols.len() as u128, brute, "{order:?}");
        for sol in &sols {
            m.check(sol.values()).unwrap();
        }
        let best = s().maximize(obj).unwrap_or_else(|e| panic!("{e}"));
        assert!(best.is_optimal(), "{order:?}");
        assert_eq!(best.objective, Some(9), "{order:?}"); // x = 3, y = 3
    }
}
