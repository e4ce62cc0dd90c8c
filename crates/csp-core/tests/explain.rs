//! Explanations: the harness catches a wrong reason, explaining mode does
//! not change the search, and `why` chains on N-queens check out against
//! an independent reading of the board.

mod common;

use common::weakening_is_caught;

use csp_core::constraint::Premises;
use csp_core::explain::{By, Failed};
use csp_core::{
    testing, Conflict, Constraint, Domain, Explainer, Literal, Model, Pruner, Relation, Search,
    Value, VarId,
};

/// `x < y` by bounds, with a reason that can be weakened on purpose.
#[derive(Debug)]
struct Less {
    vars: [VarId; 2],
    weaken: bool,
}

impl Less {
    fn bounds(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        let (ymax, xmin) = (p.max(y), p.min(x));
        let weaken = self.weaken;
        // The right reason for `x ≤ max(y) − 1` is `y ≤ max(y)`; the weakened
        // one drops it, which claims the constraint alone implies the bound.
        p.set_max(x, ymax - 1, move |r: &mut Premises| {
            if !weaken {
                r.push(Literal::Le(y, ymax));
            }
        })?;
        p.set_min(y, xmin + 1, Literal::Ge(x, xmin))?;
        Ok(())
    }
}

impl Constraint for Less {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v[0] < v[1]
    }
    fn forward_check(&self, p: &mut Pruner<'_>, _: usize) -> Result<(), Conflict> {
        self.bounds(p)
    }
    fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.bounds(p)
    }
    fn name(&self) -> &str {
        "less"
    }
}

fn post_less(weaken: bool) -> impl Fn(&mut Model, &[VarId]) -> Result<(), csp_core::ModelError> {
    move |m, v| {
        // `y` first in the model, so the search decides it before `x`
        // and the bound on `x` comes to depend on it.
        m.post(Less {
            vars: [v[1], v[0]],
            weaken,
        })
        .map(|_| ())
    }
}

#[test]
fn the_harness_checks_user_reasons_and_catches_a_dropped_premise() {
    let doms = [Domain::values([-1, 1, 2, 3]), Domain::range(0, 4)];
    testing::check_constraint(&doms, post_less(false)).unwrap();
    let err = testing::check_constraint(&doms, post_less(true)).unwrap_err();
    assert!(err.config.starts_with("explanations"), "{err}");
    assert!(err.detail.contains("do not imply"), "{err}");
}

#[test]
fn a_premise_that_was_not_true_yet_is_caught() {
    /// Claims `y ≥ min(x) + 1` because of `x ≥ min(x) + 1`, which is false.
    #[derive(Debug)]
    struct Early([VarId; 2]);
    impl Constraint for Early {
        fn scope(&self) -> &[VarId] {
            &self.0
        }
        fn is_satisfied(&self, v: &[Value]) -> bool {
            v[0] < v[1]
        }
        fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
            let [x, y] = self.0;
            let xmin = p.min(x);
            p.set_min(y, xmin + 1, Literal::Ge(x, xmin + 1))?;
            p.set_max(x, p.max(y) - 1, Literal::Le(y, p.max(y)))?;
            Ok(())
        }
    }
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let y = m.new_var(Domain::range(0, 3)).unwrap();
    m.post(Early([x, y])).unwrap();
    let err = testing::check_explanations(&m).unwrap_err();
    assert!(err.detail.contains("did not hold yet"), "{err}");
}

fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|i| {
            m.new_var_named(&format!("q{}", i + 1), Domain::range(1, n as i32))
                .unwrap()
        })
        .collect();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    (m, q)
}

#[test]
fn explaining_mode_leaves_the_search_tree_alone() {
    let (m, _) = queens(7);
    for inference in [
        csp_core::Inference::None,
        csp_core::Inference::ForwardChecking,
        csp_core::Inference::Mac,
    ] {
        let plain = Search::new(&m).inference(inference).count().unwrap();
        let explained = Search::new(&m)
            .inference(inference)
            .explaining(true)
            .count()
            .unwrap();
        assert_eq!(plain.count, 40);
        assert_eq!(explained.count, plain.count);
        assert_eq!(explained.stats.nodes, plain.stats.nodes, "{inference:?}");
        assert_eq!(explained.stats.failures, plain.stats.failures);
    }
}

/// Does `(row a, column ca)` attack `(row b, column cb)`?
fn attacks(a: usize, ca: i32, b: usize, cb: i32) -> bool {
    ca == cb || (ca - cb).unsigned_abs() as usize == a.abs_diff(b)
}

#[test]
fn why_chains_on_queens_rest_on_the_decisions_and_check_out() {
    let (m, q) = queens(6);
    let mut ex = Explainer::with_options(
        &m,
        csp_core::SearchOptions {
            inference: csp_core::Inference::ForwardChecking,
            ..Default::default()
        },
    );
    ex.propagate().unwrap();
    ex.decide(Literal::Eq(q[0], 2)).unwrap();
    ex.decide(Literal::Eq(q[1], 4)).unwrap();
    // Every value gone from a later row is explained by a queen placed on
    // a square attacking it: checked here by geometry, not by the engine.
    let mut checked = 0;
    for (row, &x) in q.iter().enumerate().skip(2) {
        for col in 1..=6 {
            let lit = Literal::Ne(x, col);
            if !ex.holds(lit).unwrap() {
                continue;
            }
            let why = ex.why(lit).expect("holds, so explained");
            let last = why.steps.last().expect("a step");
            assert_eq!(last.lit, lit, "{why}");
            // The step's premises are placed queens that attack the square.
            for &k in &last.from {
                let p = why.steps[k].lit;
                let Literal::Eq(y, c) = p else {
                    panic!("premise {p} is not a placed queen:\n{why}");
                };
                let prow = q.iter().position(|&z| z == y).unwrap();
                assert!(
                    attacks(prow, c, row, col),
                    "{p} does not attack {lit}:\n{why}"
                );
            }
            assert!(why
                .steps
                .iter()
                .all(|s| matches!(s.by, By::Decision | By::Constraints(_))));
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} literals checked");
}

#[test]
fn a_failure_at_the_root_names_the_conflicting_givens() {
    // Three pairwise different variables over two values, and a fourth
    // free one: the givens x = 1 and y = 2 leave z nothing.
    let mut m = Model::new();
    let x = m.new_var_named("x", Domain::range(1, 2)).unwrap();
    let y = m.new_var_named("y", Domain::range(1, 2)).unwrap();
    let z = m.new_var_named("z", Domain::range(1, 2)).unwrap();
    let w = m.new_var_named("w", Domain::range(1, 9)).unwrap();
    m.all_different(&[x, y, z]).unwrap();
    m.not_equal(w, x, 0).unwrap();
    let mut ex = Explainer::new(&m);
    ex.given(Literal::Eq(x, 1)).unwrap();
    ex.given(Literal::Eq(y, 2)).unwrap();
    let Err(Failed::Conflict(why)) = ex.propagate() else {
        panic!("the givens contradict the model");
    };
    let mut givens = why.givens();
    givens.sort();
    assert_eq!(givens, vec![Literal::Eq(x, 1), Literal::Eq(y, 2)], "{why}");
    assert!(why.contradiction.is_some());
    assert!(why.to_string().contains("contradiction"), "{why}");
}

#[test]
fn misuse_of_the_explainer_is_a_typed_error_that_changes_nothing() {
    use csp_core::ExplainError;
    let mut m = Model::new();
    let x = m.new_var_named("x", Domain::range(1, 3)).unwrap();
    let y = m.new_var_named("y", Domain::range(1, 3)).unwrap();
    m.not_equal(x, y, 0).unwrap();
    // A variable of a bigger model.
    let mut other = Model::new();
    let far = other.new_vars(5, Domain::range(1, 3)).unwrap()[4];
    let mut ex = Explainer::new(&m);
    let unknown = ExplainError::UnknownVariable { var: far, vars: 2 };
    assert!(matches!(ex.given(Literal::Eq(far, 1)), Err(Failed::Invalid(e)) if e == unknown));
    assert_eq!(ex.values(far), Err(unknown.clone()));
    assert_eq!(ex.holds(Literal::Ne(far, 1)), Err(unknown.clone()));
    ex.propagate().unwrap();
    let late = Literal::Eq(x, 1);
    let Err(Failed::Invalid(e)) = ex.given(late) else {
        panic!("a given after propagation is refused");
    };
    assert_eq!(e, ExplainError::GivenAfterPropagation { lit: late });
    assert!(e.to_string().contains("after the first propagation"), "{e}");
    assert_eq!(ex.values(x).unwrap(), vec![1, 2, 3], "nothing changed");
    assert!(matches!(
        ex.decide(Literal::Eq(far, 2)),
        Err(Failed::Invalid(_))
    ));
    assert_eq!(ex.level(), 0, "no level opened");
    assert_eq!(ex.why(Literal::Ne(far, 2)).unwrap_err(), unknown);
    assert_eq!(
        ex.why(Literal::Ne(y, 2)).unwrap_err(),
        ExplainError::DoesNotHold {
            lit: Literal::Ne(y, 2)
        }
    );
    ex.decide(Literal::Eq(x, 2)).unwrap();
    assert_eq!(
        ex.why(Literal::Ne(y, 2)).unwrap().decisions(),
        vec![Literal::Eq(x, 2)]
    );
}

/// Checks that `post` on `domains` passes the explanation checks, and fails
/// them once every reason loses a premise.
#[test]
fn weakened_linear_reasons_are_caught() {
    let d = [
        Domain::range(0, 4),
        Domain::range(-2, 3),
        Domain::range(1, 5),
    ];
    weakening_is_caught(&d, |m, v| {
        m.linear(
            &[(2, v[0]), (-1, v[1]), (1, v[2])],
            csp_core::Relation::Le,
            4,
        )
        .map(|_| ())
    });
}

#[test]
fn weakened_all_different_reasons_are_caught() {
    let d = [
        Domain::range(1, 3),
        Domain::range(1, 3),
        Domain::range(1, 4),
    ];
    weakening_is_caught(&d, |m, v| m.all_different(v).map(|_| ()));
}

#[test]
fn weakened_table_reasons_are_caught() {
    let d = [
        Domain::range(0, 2),
        Domain::range(0, 2),
        Domain::range(0, 2),
    ];
    let tuples = vec![
        vec![0, 1, 2],
        vec![1, 2, 0],
        vec![2, 0, 1],
        vec![0, 0, 0],
        vec![1, 1, 2],
    ];
    weakening_is_caught(&d, move |m, v| m.table(v, tuples.clone()).map(|_| ()));
}

#[test]
fn weakened_element_reasons_are_caught() {
    let d = [
        Domain::range(0, 2),
        Domain::range(0, 3),
        Domain::range(0, 3),
        Domain::values([1, 3]),
        Domain::range(2, 3),
    ];
    weakening_is_caught(&d, |m, v| m.element(v[0], &v[2..], v[1]).map(|_| ()));
}

#[test]
fn weakened_count_reasons_are_caught() {
    let d = [
        Domain::range(0, 2),
        Domain::range(1, 3),
        Domain::range(0, 3),
        Domain::range(1, 2),
    ];
    weakening_is_caught(&d, |m, v| {
        m.count(v, 1, csp_core::Relation::Eq, 2).map(|_| ())
    });
}

#[test]
fn reified_sums_explain_under_their_control_literal() {
    use csp_core::Expr;
    // b first, so that the search decides it before the sum's terms.
    let mut m = Model::new();
    let b = m.new_bool().unwrap();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let y = m.new_var(Domain::range(-1, 3)).unwrap();
    let z = m.new_var(Domain::range(0, 2)).unwrap();
    let sum: Expr = 2 * x + y - z;
    m.post(b.iff(sum.le(2))).unwrap();
    testing::check_explanations(&m).unwrap();
    testing::weaken_reasons(true);
    let r = testing::check_explanations(&m);
    testing::weaken_reasons(false);
    assert!(r.is_err(), "a weakened reified-sum reason went unnoticed");
}

#[test]
fn weakened_hall_reasons_are_caught() {
    use csp_core::constraint::Consistency;
    let d = [
        Domain::range(1, 2),
        Domain::values([1, 2, 4]),
        Domain::range(1, 4),
        Domain::values([0, 2, 3, 5]),
    ];
    for level in [Consistency::Bounds, Consistency::Domain] {
        weakening_is_caught(&d, |m, v| m.all_different_with(v, level).map(|_| ()));
    }
}

#[test]
fn hall_reasons_name_only_the_hall_set() {
    use csp_core::constraint::Consistency;
    // x, y ≤ 2 use up {1, 2}; z loses both. w's given is beside the point
    // and must not appear in z's explanations.
    for level in [Consistency::Bounds, Consistency::Domain] {
        let mut m = Model::new();
        let [x, y, z, w] =
            ["x", "y", "z", "w"].map(|n| m.new_var_named(n, Domain::range(1, 6)).unwrap());
        m.all_different_with(&[x, y, z, w], level).unwrap();
        let mut ex = Explainer::new(&m);
        for g in [Literal::Le(x, 2), Literal::Le(y, 2), Literal::Le(w, 5)] {
            ex.given(g).unwrap();
        }
        ex.propagate().unwrap();
        for lit in [Literal::Ne(z, 1), Literal::Ge(z, 3)] {
            if !ex.holds(lit).unwrap() {
                continue;
            }
            let why = ex.why(lit).unwrap();
            let mut givens = why.givens();
            givens.sort();
            assert_eq!(
                givens,
                vec![Literal::Le(x, 2), Literal::Le(y, 2)],
                "{level:?} {lit}:\n{why}"
            );
        }
        assert!(ex.holds(Literal::Ge(z, 3)).unwrap() || ex.holds(Literal::Ne(z, 1)).unwrap());
    }
}

/// `among` forcing a variable into its set narrows the variable's bounds
/// to the set's values it still holds; when another constraint removed
/// one of them, the new bound rests on that removal too. Found by
/// `learning_globals.rs` (seed 2999): the reason gave only the count's
/// bound and the other variables, and a learned nogood excluded a
/// solution. Here `x ≠ 3` comes from a sum, `n = 2` forces `x` into
/// {1, 3}, so `x ≤ 1` rests on `x ≠ 3`; and with `x ≠ 1` as well, the
/// failure does.
#[test]
fn among_bounds_rest_on_the_set_values_already_removed() {
    for also_one in [false, true] {
        let mut m = Model::new();
        let n = m.new_var(Domain::range(0, 2)).unwrap();
        let x = m.new_var(Domain::range(0, 4)).unwrap();
        let y = m.new_var(Domain::range(0, 4)).unwrap();
        m.linear(&[(1, x)], Relation::Ne, 3).unwrap();
        if also_one {
            m.linear(&[(1, x)], Relation::Ne, 1).unwrap();
        }
        m.among(&[x, y], &[1, 3], n).unwrap();
        testing::check_explanations(&m).unwrap_or_else(|e| panic!("also x ≠ 1: {also_one}: {e}"));
    }
}

/// `b ⇔ x ∈ [lo, hi]` with `b = 0`: when `x` already lies at or above
/// `lo`, `x ∉ [lo, hi]` moves its minimum past `hi`; that rests on
/// `x ≥ lo` as well as on `b = 0` (and symmetrically below).
#[test]
fn reified_range_bounds_rest_on_the_side_x_is_on() {
    for above in [true, false] {
        let mut m = Model::new();
        let b = m.new_var(Domain::range(0, 1)).unwrap();
        let x = m.new_var(Domain::range(0, 6)).unwrap();
        if above {
            m.linear(&[(1, x)], Relation::Ge, 2).unwrap();
        } else {
            m.linear(&[(1, x)], Relation::Le, 4).unwrap();
        }
        m.reify_in(x, Domain::range(2, 4), b).unwrap();
        testing::check_explanations(&m).unwrap_or_else(|e| panic!("above {above}: {e}"));
    }
}

/// All-different's hidden singles: when one variable is the only one
/// that can take two ids, the constraint fails; the reason must say
/// that every other variable has lost both ids, not only that all of
/// them lie in the window of ids (which a permutation satisfies). Found
/// by `learning_globals.rs` auditing reasons inside mixed models
/// (seed 15). Here three of four variables are pushed below 2 by sums,
/// so only the first can take 2 and 3.
#[test]
fn all_different_two_hidden_singles_fail_with_both_ids_lost() {
    let mut m = Model::new();
    // Decided first (the harness decides in order), so that the sums'
    // prunings are entries behind it.
    let d = m.new_var(Domain::range(0, 1)).unwrap();
    let x = m.new_vars(4, Domain::range(0, 3)).unwrap();
    m.all_different(&x).unwrap();
    for &y in &x[1..] {
        m.linear(&[(1, y), (2, d)], Relation::Le, 3).unwrap();
    }
    testing::check_explanations(&m).unwrap();
}

/// All-different's naked singles over a wide window of ids: when two
/// positions become fixed in one step (here by one table row) and a third
/// position holds exactly their two ids, removing the first fixes the
/// third to the second, and the reason of removing that one must name
/// the position that held it before, not the third itself (which made
/// the failure read `x0 = 70 ∧ x0 = 70`, satisfiable, and taught the
/// learning search the false nogood `x0 ≠ 70`: golomb-9 proved 46).
/// The ids span more than 64 values, so the wide path runs.
#[test]
fn all_different_naked_single_never_names_the_pruned_position() {
    let mut m = Model::new();
    let d = m.new_var(Domain::range(0, 1)).unwrap();
    let x0 = m.new_var(Domain::values([0, 70])).unwrap();
    let x1 = m.new_var(Domain::range(0, 100)).unwrap();
    let x2 = m.new_var(Domain::range(0, 100)).unwrap();
    m.all_different(&[x0, x1, x2]).unwrap();
    m.table(&[d, x1, x2], vec![vec![0, 5, 6], vec![1, 0, 70]])
        .unwrap();
    testing::check_explanations(&m).unwrap();
}

/// All-different over sparse domains whose ids span 64 to 255 values
/// (the wide path; the random models elsewhere have spans of a few
/// values, where the word path runs), with offsets, beside tables that
/// fix two of its variables in one step from a selector decided first:
/// every reason audited by brute force. The naked-single case above is
/// one such model.
#[test]
fn all_different_reasons_over_wide_windows() {
    for seed in 0..400u64 {
        let mut next = common::rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut m = Model::new();
        let n = 3 + next(3) as usize;
        // Four ids, the first and last at least 64 apart.
        let span = 64 + next(190) as i32;
        let pool = [0, next(span as u64) as i32, next(span as u64) as i32, span];
        let pick = |next: &mut dyn FnMut(u64) -> u64| pool[next(4) as usize];
        // Selectors first: the harness decides the variables in order.
        let tables = 1 + next(2) as usize;
        let ds = m.new_vars(tables, Domain::range(0, 2)).unwrap();
        let xs: Vec<_> = (0..n)
            .map(|_| {
                let vals: Vec<i32> = (0..2 + next(2)).map(|_| pick(&mut next)).collect();
                m.new_var(Domain::values(vals)).unwrap()
            })
            .collect();
        let offsets: Vec<i32> = (0..n).map(|_| next(2) as i32).collect();
        m.all_different_offset(&xs, &offsets).unwrap();
        for &d in &ds {
            let a = next(n as u64) as usize;
            let b = (a + 1 + next(n as u64 - 1) as usize) % n;
            let rows: Vec<Vec<i32>> = (0..3)
                .map(|r| vec![r, pick(&mut next), pick(&mut next)])
                .collect();
            m.table(&[d, xs[a], xs[b]], rows).unwrap();
        }
        testing::check_explanations(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

#[test]
fn weakened_counting_circuit_and_parity_reasons_are_caught() {
    let d3 = [
        Domain::range(0, 2),
        Domain::range(0, 2),
        Domain::range(0, 2),
        Domain::range(0, 3),
    ];
    weakening_is_caught(&d3, |m, v| m.among(&v[..3], &[1, 2], v[3]).map(|_| ()));
    weakening_is_caught(&d3, |m, v| m.nvalue(&v[..3], v[3]).map(|_| ()));
    weakening_is_caught(&d3[..3], |m, v| m.circuit(v).map(|_| ()));
    let bits = [
        Domain::range(0, 1),
        Domain::range(0, 1),
        Domain::range(0, 1),
    ];
    weakening_is_caught(&bits, |m, v| m.xor(&v[..2], v[2]).map(|_| ()));
}

#[test]
fn weakened_precedence_reasons_are_caught() {
    use csp_core::constraint::{ValuePrecede, ValuePrecedeChain};
    let d = [
        Domain::range(0, 2),
        Domain::range(0, 2),
        Domain::range(0, 2),
        Domain::range(0, 2),
    ];
    weakening_is_caught(&d, |m, v| {
        m.post(ValuePrecedeChain::new(v.to_vec(), 0)).map(|_| ())
    });
    weakening_is_caught(&d, |m, v| {
        m.post(ValuePrecede::new(v.to_vec(), 0, 1)).map(|_| ())
    });
}

#[test]
fn queens_failures_name_givens_that_admit_no_solution() {
    // The fused all-different's explaining pass: every pair of queens in
    // the first two rows of 6-queens whose forward check fails is blamed
    // on givens that, checked by brute force, leave no solution.
    let n = 6;
    let (m, q) = queens(n);
    let mut failures = 0;
    for a in 1..=n as i32 {
        for b in 1..=n as i32 {
            let mut ex = Explainer::with_options(
                &m,
                csp_core::SearchOptions {
                    inference: csp_core::Inference::ForwardChecking,
                    ..Default::default()
                },
            );
            ex.given(Literal::Eq(q[0], a)).unwrap();
            ex.given(Literal::Eq(q[1], b)).unwrap();
            let Err(Failed::Conflict(why)) = ex.propagate() else {
                continue;
            };
            failures += 1;
            // Sharp: the failure rests on the emptied row's domain and the
            // queen that took its last values, not on the whole board.
            let (_, on) = why.contradiction.clone().expect("a contradiction");
            let mut rows: Vec<VarId> = on.iter().map(|&k| why.steps[k].lit.var()).collect();
            rows.sort();
            rows.dedup();
            assert!(rows.len() <= 2, "{why}");
            let givens = why.givens();
            assert!(!givens.is_empty(), "{why}");
            // Independently: the model with only those givens has no
            // solution (a search without explanations, by enumeration).
            let (mut m2, _) = queens(n);
            for g in &givens {
                let Literal::Eq(x, v) = *g else {
                    panic!("{g} is not a given");
                };
                // `x` is a handle of `m`: the same variable of the rebuilt
                // model, by its index.
                let x = VarId::from_index(x.index());
                m2.restrict(x, &Domain::singleton(v)).unwrap();
            }
            let count = Search::new(&m2)
                .inference(csp_core::Inference::None)
                .count()
                .unwrap();
            assert_eq!(count.count, 0, "{why}");
        }
    }
    assert!(failures > 3, "only {failures} failing pairs");
}

/// A 9×9 Sudoku model with named cells `r1c1`..`r9c9` (rows, then columns,
/// then boxes) and its cells.
fn sudoku() -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let x: Vec<VarId> = (0..81)
        .map(|k| {
            let name = format!("r{}c{}", k / 9 + 1, k % 9 + 1);
            m.new_var_named(&name, Domain::range(1, 9)).unwrap()
        })
        .collect();
    for i in 0..9 {
        let row: Vec<VarId> = (0..9).map(|j| x[9 * i + j]).collect();
        let col: Vec<VarId> = (0..9).map(|j| x[9 * j + i]).collect();
        let bx: Vec<VarId> = (0..9)
            .map(|j| x[9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3])
            .collect();
        for unit in [row, col, bx] {
            m.all_different(&unit).unwrap();
        }
    }
    (m, x)
}

/// Is there an assignment of `unit` (values 1..=9, pairwise different)
/// where every literal of `true_lits` on the unit holds and `lit` does
/// not? Plain backtracking, independent of the engine.
fn unit_admits(unit: &[VarId], true_lits: &[Literal], lit: Literal) -> bool {
    fn go(k: usize, unit: &[VarId], ok: &dyn Fn(VarId, i32) -> bool, used: u16) -> bool {
        if k == unit.len() {
            return true;
        }
        (1..=9).any(|v| used >> v & 1 == 0 && ok(unit[k], v) && go(k + 1, unit, ok, used | 1 << v))
    }
    let ok = |x: VarId, v: i32| {
        true_lits.iter().all(|l| l.var() != x || l.admits(v)) && (lit.var() != x || !lit.admits(v))
    };
    go(0, unit, &ok, 0)
}

#[test]
fn sudoku_steps_under_mac_check_out_unit_by_unit() {
    // The store's window pass logs naked singles with their holder and
    // hidden singles with a lazy window reason: every step of every `why`
    // on three hard puzzles (top95), after propagation and two decisions,
    // is implied by its premises and the unit's all-different, checked by
    // brute force over the unit.
    let puzzles = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ];
    let (mut checked, mut hidden) = (0, 0);
    for p in puzzles {
        let (m, x) = sudoku();
        let mut ex = Explainer::new(&m);
        for (k, c) in p.chars().enumerate() {
            if let Some(d) = c.to_digit(10) {
                ex.given(Literal::Eq(x[k], d as i32)).unwrap();
            }
        }
        ex.propagate().unwrap();
        for _ in 0..2 {
            let Some(&open) = x.iter().find(|&&y| ex.values(y).unwrap().len() > 1) else {
                break;
            };
            let v = ex.values(open).unwrap()[0];
            if ex.decide(Literal::Eq(open, v)).is_err() {
                break;
            }
        }
        for &y in &x {
            for v in 1..=9 {
                let lit = Literal::Ne(y, v);
                if !ex.holds(lit).unwrap() {
                    continue;
                }
                let why = ex.why(lit).unwrap();
                for s in &why.steps {
                    let By::Constraints(cs) = &s.by else { continue };
                    hidden += usize::from(matches!(s.lit, Literal::Eq(..)));
                    let mut prem: Vec<Literal> = s.from.iter().map(|&k| why.steps[k].lit).collect();
                    prem.extend_from_slice(&s.declared);
                    let unit = m.constraint(cs[0]).scope();
                    assert!(prem.iter().all(|l| unit.contains(&l.var())), "{why}");
                    assert!(
                        !unit_admits(unit, &prem, s.lit),
                        "step {} fails:\n{why}",
                        s.lit
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} steps checked");
    assert!(hidden > 0, "no hidden single explained");
}

/// Checks that `why` rests on exactly the givens `want`, in any order.
fn rests_on_givens(why: &csp_core::Explanation, want: &[Literal]) {
    let mut givens = why.givens();
    givens.sort();
    let mut want = want.to_vec();
    want.sort();
    assert_eq!(givens, want, "{why}");
}

#[test]
fn weakened_global_cardinality_reasons_are_caught() {
    // Values 1 and 2 at most once each and 3 at least once: every kind
    // of cut (a full Hall set, values at their lower bounds, the counts'
    // bounds from the flow) has work to do.
    let d = [
        Domain::range(1, 2),
        Domain::values([1, 2, 3]),
        Domain::range(1, 4),
        Domain::values([0, 2, 3]),
        Domain::range(0, 1),
        Domain::range(0, 1),
        Domain::range(1, 3),
    ];
    weakening_is_caught(&d, |m, v| {
        m.global_cardinality(&v[..4], &[1, 2, 3], &v[4..])
            .map(|_| ())
    });
}

#[test]
fn global_cardinality_reasons_check_out_on_random_instances() {
    // Random instances with holes, unlisted values and counts reaching
    // past 0 and n: every reason is checked by brute force.
    let mut below = common::rng(0x2545_F491_4F6C_DD1D);
    for case in 0..100 {
        let n = 2 + below(3) as usize;
        let mut doms: Vec<Domain> = (0..n)
            .map(|_| {
                let vals: Vec<i32> = (-1..=3).filter(|_| below(3) != 0).collect();
                if vals.is_empty() {
                    Domain::singleton(below(4) as i32)
                } else {
                    Domain::values(vals)
                }
            })
            .collect();
        let values: Vec<i32> = (0..=2).filter(|_| below(4) != 0).collect();
        for _ in &values {
            let a = below(n as u64 + 3) as i32 - 1;
            doms.push(Domain::range(a, a + below(n as u64) as i32));
        }
        let mut m = Model::new();
        let v: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
        m.global_cardinality(&v[..n], &values, &v[n..]).unwrap();
        testing::check_explanations(&m)
            .unwrap_or_else(|e| panic!("case {case}: {doms:?} {values:?}: {e}"));
    }
}

#[test]
fn global_cardinality_reasons_name_only_the_cut() {
    // x and y lie in {1, 2}, which hold one variable each: z loses 1 and
    // 2 because of them and those two counts. The givens on w and on the
    // other counts are beside the point.
    let mut m = Model::new();
    let [x, y, z, w] =
        ["x", "y", "z", "w"].map(|n| m.new_var_named(n, Domain::range(1, 4)).unwrap());
    let c = ["c1", "c2", "c3", "c4"].map(|n| m.new_var_named(n, Domain::range(0, 4)).unwrap());
    m.global_cardinality(&[x, y, z, w], &[1, 2, 3, 4], &c)
        .unwrap();
    let mut ex = Explainer::new(&m);
    let relevant = [
        Literal::Le(x, 2),
        Literal::Le(y, 2),
        Literal::Le(c[0], 1),
        Literal::Le(c[1], 1),
    ];
    for g in relevant
        .into_iter()
        .chain([Literal::Le(w, 3), Literal::Ge(c[2], 1)])
    {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    assert_eq!(ex.values(z).unwrap(), vec![3, 4]);
    for lit in [Literal::Ne(z, 1), Literal::Ne(z, 2)] {
        let why = ex.why(lit).unwrap();
        rests_on_givens(&why, &relevant);
    }
    // A failure: three variables within {1, 2}, which hold two. The
    // failure names the three and the two counts, not w.
    let mut ex = Explainer::new(&m);
    let three = [
        Literal::Le(x, 2),
        Literal::Le(y, 2),
        Literal::Le(z, 2),
        Literal::Le(c[0], 1),
        Literal::Le(c[1], 1),
    ];
    for g in three.into_iter().chain([Literal::Le(w, 3)]) {
        ex.given(g).unwrap();
    }
    let Err(Failed::Conflict(why)) = ex.propagate() else {
        panic!("three variables, two places");
    };
    rests_on_givens(&why, &three);
}

#[test]
fn weakened_disjunctive_reasons_are_caught() {
    let d = [
        Domain::range(0, 4),
        Domain::range(0, 4),
        Domain::values([0, 2, 3]),
        Domain::range(0, 9),
    ];
    weakening_is_caught(&d, |m, v| m.disjunctive(v, &[2, 2, 2, 3]).map(|_| ()));
}

#[test]
fn disjunctive_reasons_name_only_the_tasks_that_cause_them() {
    // Three tasks of 2 that must start by 4 fill 0..6, so a task of 3
    // starts at 6 or later (edge finding); a fifth task, given a late
    // start, has nothing to do with it.
    let mut m = Model::new();
    let tight = ["a", "b", "c"].map(|n| m.new_var_named(n, Domain::range(0, 30)).unwrap());
    let late = m.new_var_named("late", Domain::range(0, 30)).unwrap();
    let far = m.new_var_named("far", Domain::range(0, 30)).unwrap();
    let starts = [tight[0], tight[1], tight[2], late, far];
    m.disjunctive(&starts, &[2, 2, 2, 3, 1]).unwrap();
    let mut ex = Explainer::new(&m);
    let relevant = tight.map(|t| Literal::Le(t, 4));
    for g in relevant.into_iter().chain([Literal::Ge(far, 25)]) {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    let why = ex.why(Literal::Ge(late, 6)).unwrap();
    rests_on_givens(&why, &relevant);
    // Overload: the three cannot all end by 5. The failure names them
    // only, not the far task.
    let mut ex = Explainer::new(&m);
    let three = tight.map(|t| Literal::Le(t, 3));
    for g in three.into_iter().chain([Literal::Ge(far, 25)]) {
        ex.given(g).unwrap();
    }
    let Err(Failed::Conflict(why)) = ex.propagate() else {
        panic!("six units of work in five");
    };
    rests_on_givens(&why, &three);
}

/// Words over {0, 1} with no two 1s in a row (state 1: just read a 1).
fn no_two_ones() -> csp_core::constraint::Automaton {
    csp_core::constraint::Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)]).unwrap()
}

#[test]
fn weakened_regular_reasons_are_caught() {
    let d = [
        Domain::range(0, 1),
        Domain::range(0, 2),
        Domain::range(0, 1),
        Domain::values([1]),
        Domain::range(0, 1),
    ];
    weakening_is_caught(&d, |m, v| m.regular(v, &no_two_ones()).map(|_| ()));
}

#[test]
fn regular_reasons_name_only_the_cut() {
    // x2 = 1 takes the 1 from x3; x5 = 0 is beside the point (the
    // positions after x3 can finish from any state).
    let mut m = Model::new();
    let x: Vec<VarId> = (1..=5)
        .map(|i| {
            m.new_var_named(&format!("x{i}"), Domain::range(0, 1))
                .unwrap()
        })
        .collect();
    m.regular(&x, &no_two_ones()).unwrap();
    let mut ex = Explainer::new(&m);
    ex.given(Literal::Eq(x[1], 1)).unwrap();
    ex.given(Literal::Eq(x[4], 0)).unwrap();
    ex.propagate().unwrap();
    for lit in [Literal::Ne(x[2], 1), Literal::Ne(x[0], 1)] {
        let why = ex.why(lit).unwrap();
        rests_on_givens(&why, &[Literal::Eq(x[1], 1)]);
    }
    // A failure: 1, 1 at x2, x3 names those two only.
    let mut ex = Explainer::new(&m);
    let two = [Literal::Eq(x[1], 1), Literal::Eq(x[2], 1)];
    for g in two.into_iter().chain([Literal::Eq(x[4], 0)]) {
        ex.given(g).unwrap();
    }
    let Err(Failed::Conflict(why)) = ex.propagate() else {
        panic!("two 1s in a row");
    };
    rests_on_givens(&why, &two);
}

#[test]
fn weakened_constant_element_reasons_are_caught() {
    // A constant array with repeated values, an index with a hole and
    // positions outside the array, a result with values no entry has.
    let d = [Domain::values([-1, 0, 1, 3, 4, 6]), Domain::range(0, 5)];
    weakening_is_caught(&d, |m, v| {
        m.element_const(v[0], &[2, 4, 2, 1, 4, 3], v[1]).map(|_| ())
    });
}

#[test]
fn constant_element_reasons_check_out_on_random_instances() {
    // Every reason of `array[index] = result` over a random constant
    // array is checked by brute force: the lifted premises (the index
    // avoiding only the positions that hold the value) must still imply
    // the change.
    let mut below = common::rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..200 {
        let n = 2 + below(5) as usize;
        let array: Vec<i32> = (0..n).map(|_| below(4) as i32).collect();
        let idx: Vec<i32> = (-1..=n as i32).filter(|_| below(3) != 0).collect();
        let res: Vec<i32> = (-1..=4).filter(|_| below(4) != 0).collect();
        if idx.is_empty() || res.is_empty() {
            continue;
        }
        let mut m = Model::new();
        let i = m.new_var(Domain::values(idx.clone())).unwrap();
        let r = m.new_var(Domain::values(res.clone())).unwrap();
        m.element_const(i, &array, r).unwrap();
        testing::check_explanations(&m)
            .unwrap_or_else(|e| panic!("case {case}: {array:?} {idx:?} {res:?}: {e}"));
    }
}

#[test]
fn constant_element_reasons_name_only_the_positions_that_hold_the_value() {
    // array = [5, 7, 5, 9, 9]. With the index in {1, 3} (given ≥ 1, ≤ 3
    // and ≠ 2), `result ≠ 5` needs the index off positions 0 and 2 only:
    // `index ≥ 1` and `index ≠ 2`, not `index ≤ 3`.
    let mut m = Model::new();
    let i = m.new_var_named("i", Domain::range(0, 4)).unwrap();
    let r = m.new_var_named("r", Domain::range(0, 10)).unwrap();
    m.element_const(i, &[5, 7, 5, 9, 9], r).unwrap();
    let mut ex = Explainer::new(&m);
    for g in [Literal::Ge(i, 1), Literal::Le(i, 3), Literal::Ne(i, 2)] {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    rests_on_givens(
        &ex.why(Literal::Ne(r, 5)).unwrap(),
        &[Literal::Ge(i, 1), Literal::Ne(i, 2)],
    );
    // Position 1 is the only 7: `result ≠ 7` would rest on `index ≠ 1`
    // alone; here the index still has it, so 7 stays.
    assert!(!ex.holds(Literal::Ne(r, 7)).unwrap());
    // The other way: `result ≠ 7` (given beside `result ≤ 9`) takes
    // position 1 from the index, and only that given is its reason.
    let mut ex = Explainer::new(&m);
    for g in [Literal::Ne(r, 7), Literal::Le(r, 9)] {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    rests_on_givens(&ex.why(Literal::Ne(i, 1)).unwrap(), &[Literal::Ne(r, 7)]);
}

#[test]
fn weakened_offset_element_reasons_are_caught() {
    // The 1-based element of MiniZinc posted with no `index − 1`
    // variable: the same kinds of domains as above, shifted by the base,
    // for an array of variables and a constant one (base 1 and −2).
    let d = [
        Domain::range(1, 3),
        Domain::range(0, 3),
        Domain::range(0, 3),
        Domain::values([1, 3]),
        Domain::range(2, 3),
    ];
    weakening_is_caught(&d, |m, v| {
        m.element_offset(v[0], &v[2..], v[1], 1).map(|_| ())
    });
    let d = [Domain::values([-3, -2, -1, 1, 2, 4]), Domain::range(0, 5)];
    weakening_is_caught(&d, |m, v| {
        m.element_const_offset(v[0], &[2, 4, 2, 1, 4, 3], v[1], -2)
            .map(|_| ())
    });
}

#[test]
fn offset_element_reasons_check_out_on_random_instances() {
    // Every reason of `array[index − base] = result`, over random bases,
    // constant arrays and arrays of variables, checked by brute force;
    // the index's domain reaches past the array on both sides.
    let mut below = common::rng(0x2545_F491_4F6C_DD1D);
    for case in 0..200 {
        let base = below(7) as i32 - 3;
        let n = 2 + below(4) as usize;
        let idx: Vec<i32> = (base - 1..=base + n as i32)
            .filter(|_| below(3) != 0)
            .collect();
        let res: Vec<i32> = (-1..=4).filter(|_| below(4) != 0).collect();
        if idx.is_empty() || res.is_empty() {
            continue;
        }
        let mut m = Model::new();
        let i = m.new_var(Domain::values(idx.clone())).unwrap();
        let r = m.new_var(Domain::values(res.clone())).unwrap();
        let label = if case % 2 == 0 {
            let array: Vec<i32> = (0..n).map(|_| below(4) as i32).collect();
            m.element_const_offset(i, &array, r, base).unwrap();
            format!("{array:?}")
        } else {
            let array: Vec<VarId> = (0..n)
                .map(|_| {
                    let lo = below(3) as i32;
                    m.new_var(Domain::range(lo, lo + below(3) as i32)).unwrap()
                })
                .collect();
            m.element_offset(i, &array, r, base).unwrap();
            format!("{n} variables")
        };
        // No auxiliary variable: the index, the result and the array.
        assert_eq!(m.num_constraints(), 1, "case {case}");
        testing::check_explanations(&m)
            .unwrap_or_else(|e| panic!("case {case}: base {base} {label} {idx:?} {res:?}: {e}"));
    }
}

#[test]
fn offset_element_reasons_name_the_index_itself() {
    // array = [5, 7, 5, 9, 9] counted from 1, as `fzn-csp` posts
    // MiniZinc's `array_int_element`. With the index in {2, 4} (given
    // ≥ 2, ≤ 4 and ≠ 3), `result ≠ 5` needs the index off positions 1
    // and 3 only: `index ≥ 2` and `index ≠ 3`, the index's own literals
    // (no `index − 1` variable between), not `index ≤ 4`.
    let mut m = Model::new();
    let i = m.new_var_named("i", Domain::range(1, 5)).unwrap();
    let r = m.new_var_named("r", Domain::range(0, 10)).unwrap();
    m.element_const_offset(i, &[5, 7, 5, 9, 9], r, 1).unwrap();
    let mut ex = Explainer::new(&m);
    for g in [Literal::Ge(i, 2), Literal::Le(i, 4), Literal::Ne(i, 3)] {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    rests_on_givens(
        &ex.why(Literal::Ne(r, 5)).unwrap(),
        &[Literal::Ge(i, 2), Literal::Ne(i, 3)],
    );
    assert!(!ex.holds(Literal::Ne(r, 7)).unwrap());
    // The other way: `result ≠ 7` takes the second entry, index value 2.
    let mut ex = Explainer::new(&m);
    for g in [Literal::Ne(r, 7), Literal::Le(r, 9)] {
        ex.given(g).unwrap();
    }
    ex.propagate().unwrap();
    rests_on_givens(&ex.why(Literal::Ne(i, 2)).unwrap(), &[Literal::Ne(r, 7)]);
    // With the index fixed to 4, the result is the fourth entry, 9,
    // because of `index = 4` alone.
    let mut ex = Explainer::new(&m);
    ex.given(Literal::Eq(i, 4)).unwrap();
    ex.propagate().unwrap();
    assert!(ex.holds(Literal::Eq(r, 9)).unwrap());
    rests_on_givens(&ex.why(Literal::Eq(r, 9)).unwrap(), &[Literal::Eq(i, 4)]);
}

/// `b ⇔ Σ aᵢ·xᵢ ⋈ c` (or `b ⇒ …`), under random bound decisions on the
/// `xᵢ` in the explaining kernel: after each propagation `b` is fixed to 1
/// exactly when every point of the domains satisfies the relation (not
/// half-reified), to 0 exactly when none does, and open otherwise. The
/// reified propagator decides `b` from terms it keeps inline (up to two)
/// or from its constraint (three); a status computed wrongly there (a
/// sign, a bound, a relation) leaves `b` open or fixes it too early, and
/// this fails.
#[test]
fn reified_linear_fixes_its_boolean_exactly_when_the_bounds_decide() {
    let mut next = common::rng(0x9e37_79b9_7f4a_7c15);
    let (mut fixed, mut open) = (0, 0);
    for case in 0..600 {
        let k = 1 + next(3) as usize;
        let rel = [Relation::Le, Relation::Ge, Relation::Eq, Relation::Ne][next(4) as usize];
        let unit = matches!(rel, Relation::Eq | Relation::Ne);
        let half = next(3) == 0;
        let mut m = Model::new();
        let mut xs = Vec::new();
        let mut coefs = Vec::new();
        for _ in 0..k {
            let lo = next(7) as i32 - 3;
            xs.push(
                m.new_var(Domain::range(lo, lo + 1 + next(5) as i32))
                    .unwrap(),
            );
            // ±1 for = and ≠, where the sums of boxes are intervals and
            // the bounds then decide exactly when a brute force does.
            let a = if unit { 1 } else { 1 + next(3) as i32 };
            coefs.push(if next(2) == 0 { a } else { -a });
        }
        let c = next(13) as i32 - 6;
        let sum = csp_core::expr::sum(xs.iter().zip(&coefs).map(|(&x, &a)| a * x));
        let r = match rel {
            Relation::Le => sum.le(c),
            Relation::Ge => sum.ge(c),
            Relation::Eq => sum.eq(c),
            _ => sum.ne(c),
        };
        let b = m.new_bool().unwrap();
        if half {
            m.half_reify(r, b).unwrap();
        } else {
            m.reify_with(r, b).unwrap();
        }
        let holds = |v: &[Value]| {
            let s: i64 = v
                .iter()
                .zip(&coefs)
                .map(|(&x, &a)| x as i64 * a as i64)
                .sum();
            match rel {
                Relation::Le => s <= c as i64,
                Relation::Ge => s >= c as i64,
                Relation::Eq => s == c as i64,
                _ => s != c as i64,
            }
        };
        let mut ex = Explainer::new(&m);
        ex.propagate().unwrap();
        loop {
            let doms: Vec<Vec<Value>> = xs.iter().map(|&x| ex.values(x).unwrap()).collect();
            // Every point of the domains, by brute force.
            let mut points = vec![vec![]];
            for d in &doms {
                points = points
                    .iter()
                    .flat_map(|p: &Vec<Value>| {
                        d.iter().map(move |&v| {
                            let mut q = p.clone();
                            q.push(v);
                            q
                        })
                    })
                    .collect();
            }
            let all = points.iter().all(|p| holds(p));
            let none = !points.iter().any(|p| holds(p));
            let bv = ex.values(b).unwrap();
            let expected: &[Value] = if none {
                &[0]
            } else if all && !half {
                &[1]
            } else {
                &[0, 1]
            };
            assert_eq!(
                bv, expected,
                "case {case}: {coefs:?}·x {rel:?} {c}, half {half}, domains {doms:?}"
            );
            if bv.len() == 1 {
                fixed += 1;
                break;
            }
            open += 1;
            // A bound decision on an open variable, keeping its domain an
            // interval.
            let start = next(k as u64) as usize;
            let Some(i) = (0..k).map(|j| (start + j) % k).find(|&i| doms[i].len() > 1) else {
                break;
            };
            let d = &doms[i];
            let v = d[next(d.len() as u64 - 1) as usize];
            let lit = if next(2) == 0 {
                Literal::Le(xs[i], v)
            } else {
                Literal::Ge(xs[i], v + 1)
            };
            ex.decide(lit).unwrap();
        }
    }
    // Both outcomes were met often (the test is not vacuous).
    assert!(fixed > 300 && open > 300, "fixed {fixed}, open {open}");
}

/// A domain of two to five values from `base` (an `i64`, clamped into
/// `i32`), laid out so that the store and the propagators take the path
/// each layout selects: `0` a few consecutive values (one word); `1` those
/// and one 64 to 253 above (a large bitset domain, id windows of 64 to
/// 255 values); `2` one 256 to 4255 above (wider than every window); `3`
/// values 1000 apart (a list domain); `4` one at an end of `i32`; `5` one
/// of the first two and the value 100 above `base` (two values 64 to 255
/// apart: a position left with two ids, which a naked single needs).
fn laid_out(next: &mut dyn FnMut(u64) -> u64, layout: u64, base: i64) -> Vec<Value> {
    let clamp = |v: i64| v.clamp(Value::MIN as i64, Value::MAX as i64) as Value;
    let mut vals: Vec<Value> = (0..3).map(|k| clamp(base + k)).collect();
    match layout {
        0 => vals.push(clamp(base + 3 + next(2) as i64)),
        1 => vals.push(clamp(base + 64 + next(190) as i64)),
        2 => vals.push(clamp(base + 256 + next(4000) as i64)),
        3 => vals = (0..4).map(|k| clamp(base + 1000 * k)).collect(),
        4 => vals.push([Value::MIN, Value::MAX][next(2) as usize]),
        _ => vals = vec![clamp(base + next(2) as i64), clamp(base + 100)],
    }
    vals.sort_unstable();
    vals.dedup();
    vals
}

/// The sums [`post_sized`] posted whose magnitude (the constant and each
/// coefficient times its variable's largest absolute value) passes 2⁶¹:
/// those the linear propagator reasons on in 128 bits.
static WIDE_SUMS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The largest absolute value of `d`.
fn far_end(d: &Domain) -> u64 {
    let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
    lo.unsigned_abs().max(hi.unsigned_abs()) as u64
}

/// The kinds of constraint [`post_sized`] posts.
const SIZED_KINDS: u64 = 20;

/// Posts constraint `kind` over `v` (four variables whose domains come
/// from [`laid_out`] around `base`), its constants drawn from `values`
/// (the values of `v`'s domains), with a few small fresh variables.
fn post_sized(
    m: &mut Model,
    kind: u64,
    next: &mut dyn FnMut(u64) -> u64,
    v: &[VarId],
    values: &[Value],
    base: i64,
) -> Result<(), csp_core::ModelError> {
    use csp_core::constraint::{Automaton, Consistency, CumulativeStrength, ValuePrecede};
    let pick = |next: &mut dyn FnMut(u64) -> u64| values[next(values.len() as u64) as usize];
    let small = |m: &mut Model, hi: Value| m.new_var(Domain::range(0, hi));
    match kind {
        0 => m.all_different(v).map(|_| ()),
        1 => m.all_different_with(v, Consistency::Bounds).map(|_| ()),
        2 => m.all_different_with(v, Consistency::Domain).map(|_| ()),
        3 => {
            let offsets: Vec<Value> = v
                .iter()
                .map(|_| [0, 1, 64, -100][next(4) as usize])
                .collect();
            m.all_different_offset(v, &offsets).map(|_| ())
        }
        4 => m.all_different_except(v, pick(next)).map(|_| ()),
        5 => {
            let (a, b) = (pick(next), pick(next));
            let vals = if a == b { vec![a] } else { vec![a, b] };
            let counts: Vec<VarId> = vals.iter().map(|_| small(m, 3).unwrap()).collect();
            m.global_cardinality(&v[..3], &vals, &counts).map(|_| ())
        }
        6 => {
            let mut set = vec![pick(next), pick(next)];
            set.sort_unstable();
            set.dedup();
            let n = small(m, 3)?;
            m.among(&v[..3], &set, n).map(|_| ())
        }
        7 => {
            let rel = [Relation::Le, Relation::Ge, Relation::Eq][next(3) as usize];
            let value = pick(next);
            m.count(&v[..3], value, rel, 1 + next(2) as i64).map(|_| ())
        }
        8 => {
            let n = m.new_var(Domain::range(1, 3))?;
            m.nvalue(&v[..3], n).map(|_| ())
        }
        9 => {
            // Up to 90 rows: more than one word of tuples.
            let rows: Vec<Vec<Value>> = (0..3 + next(88))
                .map(|_| (0..3).map(|_| pick(&mut *next)).collect())
                .collect();
            m.table(&v[..3], rows).map(|_| ())
        }
        10 => {
            // A counter modulo `k` (up to 70 states: more than one word of
            // states), each value adding its rank in `values` mod 3.
            let k = 2 + next(69) as usize;
            let mut t = Vec::new();
            for q in 0..k {
                for (r, &val) in values.iter().enumerate() {
                    t.push((q, val, (q + r % 3) % k));
                }
            }
            let accepting: Vec<usize> = (0..k).filter(|q| q % 2 == 0).collect();
            let a = Automaton::new(k, 0, &accepting, &t).unwrap();
            m.regular(&v[..3], &a).map(|_| ())
        }
        11 => {
            let i = small(m, 2)?;
            m.element(i, &v[..3], v[3]).map(|_| ())
        }
        12 => {
            // A constant array indexed from `base` (large, negative or
            // near an end of `i32`).
            let array: Vec<Value> = (0..4).map(|_| pick(next)).collect();
            let first = base.clamp(Value::MIN as i64, Value::MAX as i64 - 8) as Value;
            m.element_const_offset(v[0], &array, v[1], first)
                .map(|_| ())
        }
        13 => {
            let c = [0, 1, 64, -200, 1000][next(5) as usize];
            if next(2) == 0 {
                m.equal(v[0], v[1], c).map(|_| ())
            } else {
                m.not_equal(v[0], v[1], c).map(|_| ())
            }
        }
        14 => {
            // Coefficients up to 2³¹: near the ends of `i32` the sum's
            // magnitude passes 2⁶¹ and it takes its 128-bit path.
            let terms: Vec<(i64, VarId)> = v[..3]
                .iter()
                .map(|&x| ([1, -1, 2, 1 << 20, 1 << 31][next(5) as usize], x))
                .collect();
            let rhs: i128 = terms
                .iter()
                .map(|&(a, _)| a as i128 * pick(&mut *next) as i128)
                .sum();
            let rhs = rhs.clamp(i64::MIN as i128 / 2, i64::MAX as i128 / 2) as i64;
            let magnitude: i128 = rhs.unsigned_abs() as i128
                + terms
                    .iter()
                    .map(|&(a, x)| a.unsigned_abs() as i128 * far_end(m.domain(x)) as i128)
                    .sum::<i128>();
            if magnitude > (i64::MAX / 4) as i128 {
                WIDE_SUMS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            let rel = [Relation::Le, Relation::Ge, Relation::Eq][next(3) as usize];
            m.linear(&terms, rel, rhs).map(|_| ())
        }
        15 => match next(3) {
            0 => m.lex_less(&v[..2], &v[2..4]).map(|_| ()),
            1 => m.increasing(&v[..3]).map(|_| ()),
            _ => m.strictly_increasing(&v[..3]).map(|_| ()),
        },
        16 => {
            let (s, t) = (pick(next), pick(next));
            m.post(ValuePrecede::new(v.to_vec(), s, t)).map(|_| ())
        }
        17 => {
            let d: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
            m.disjunctive(&v[..3], &d).map(|_| ())
        }
        18 => {
            let d: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
            let r: Vec<i32> = (0..3).map(|_| 1 + next(2) as i32).collect();
            let strength = [
                CumulativeStrength::TimeTable,
                CumulativeStrength::Energetic,
                CumulativeStrength::EnergeticReasoning,
                CumulativeStrength::TimeTableEdgeFinding,
            ][next(4) as usize];
            m.cumulative_with(&v[..3], &d, &r, 2, strength).map(|_| ())
        }
        _ => {
            let dx = [1 + next(2) as i32, 1 + next(2) as i32];
            let dy = [1 + next(2) as i32, 1];
            m.diffn(&v[..2], &v[2..4], &dx, &dy).map(|_| ())
        }
    }
}

/// The layouts of [`laid_out`] each profile draws from: small domains
/// (the word paths), id windows of 64 to 255 values, wider spans, and the
/// ends of `i32`.
const PROFILES: [&[u64]; 4] = [&[0], &[0, 1, 5, 5], &[0, 1, 2, 3, 5], &[0, 2, 4]];

/// Every reason of every propagator whose path depends on the domains'
/// size, span or representation, audited by brute force on the paths
/// that small domains never reach: four variables laid out by
/// [`laid_out`] (each its own layout, from one of the [`PROFILES`])
/// around a base of 0, ±1000 or near an end of `i32`, one constraint of
/// [`post_sized`], and a table that fixes two of the variables in one
/// step from a selector decided first (the all-different defect of
/// commit dcdcbda needed two positions fixed at once).
#[test]
fn reasons_check_out_on_every_size_gated_path() {
    let bases: [i64; 5] = [0, 1000, -1000, Value::MAX as i64 - 4500, Value::MIN as i64];
    let (mut audited, mut posted) = (0, [0u32; SIZED_KINDS as usize]);
    for seed in 0..5 * 5 * 4 * SIZED_KINDS {
        let mut next = common::rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
        let kind = seed % SIZED_KINDS;
        let profile = PROFILES[(seed / SIZED_KINDS % 4) as usize];
        let base = bases[(seed / SIZED_KINDS / 4 % 5) as usize];
        let mut m = Model::new();
        let d = m.new_var(Domain::range(0, 2)).unwrap();
        let doms: Vec<Vec<Value>> = (0..4)
            .map(|_| {
                let layout = profile[next(profile.len() as u64) as usize];
                laid_out(&mut next, layout, base)
            })
            .collect();
        let v: Vec<VarId> = doms
            .iter()
            .map(|vals| m.new_var(Domain::values(vals.iter().copied())).unwrap())
            .collect();
        let mut values: Vec<Value> = doms.concat();
        values.sort_unstable();
        values.dedup();
        if post_sized(&mut m, kind, &mut next, &v, &values, base).is_err() {
            continue;
        }
        let a = next(4) as usize;
        let b = (a + 1 + next(3) as usize) % 4;
        let rows: Vec<Vec<Value>> = (0..3)
            .map(|r| {
                let (da, db) = (&doms[a], &doms[b]);
                vec![
                    r,
                    da[next(da.len() as u64) as usize],
                    db[next(db.len() as u64) as usize],
                ]
            })
            .collect();
        m.table(&[d, v[a], v[b]], rows).unwrap();
        testing::check_explanations(&m)
            .unwrap_or_else(|e| panic!("seed {seed}, kind {kind}, base {base}: {e}\n{m:?}"));
        audited += 1;
        posted[kind as usize] += 1;
    }
    assert!(audited > 1600, "only {audited} models audited");
    assert!(
        posted.iter().all(|&p| p > 40),
        "posted per kind: {posted:?}"
    );
    let wide = WIDE_SUMS.load(std::sync::atomic::Ordering::Relaxed);
    assert!(wide > 10, "only {wide} sums on the 128-bit path");
}
