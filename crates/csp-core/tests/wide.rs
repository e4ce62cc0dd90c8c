//! Constraints over domains of up to 2³² values: bounds reasoning or
//! probing of the constraint's own values, never one step or one byte per
//! domain value. Every search has a node limit, and the assertions are
//! on answers, so a regression shows as a wrong outcome or an abort, not
//! as a slow test.

use csp_core::constraint::Automaton;
use csp_core::expr::max_of;
use csp_core::{
    Domain, Inference, Limit, Limits, Model, Outcome, Search, ValOrder, Value, VarOrder,
};

fn full() -> Domain {
    Domain::range(Value::MIN, Value::MAX)
}

fn nodes(n: u64) -> Limits {
    Limits::none().with_nodes(n)
}

#[test]
fn element_over_a_huge_index_bounds_it_to_the_array() {
    // i ∈ i32::MIN..=0 and a one-entry array: i = 0 and r = 6 at the root.
    let mut m = Model::new();
    let i = m.new_var(Domain::range(Value::MIN, 0)).unwrap();
    let r = m.new_var(full()).unwrap();
    m.element_const(i, &[6], r).unwrap();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let s = Search::new(&m)
            .inference(inference)
            .limits(nodes(10))
            .solve()
            .unwrap();
        assert_eq!(s.outcome, Outcome::Solved, "{inference:?}");
        let s = s.solution.unwrap();
        assert_eq!((s[i], s[r]), (0, 6));
        let c = Search::new(&m)
            .inference(inference)
            .limits(nodes(10))
            .count()
            .unwrap();
        assert_eq!((c.outcome, c.count), (Outcome::Solved, 1), "{inference:?}");
    }
    // An array of two variables over all of i32 and a result over all of
    // it too: a solution at once, and the bounds hold.
    let mut m = Model::new();
    let i = m.new_var(full()).unwrap();
    let r = m.new_var(full()).unwrap();
    let a = m.new_vars(2, full()).unwrap();
    m.element(i, &a, r).unwrap();
    let s = Search::new(&m).limits(nodes(100)).solve().unwrap();
    assert_eq!(s.outcome, Outcome::Solved);
    let s = s.solution.unwrap();
    assert_eq!(s[a[s[i] as usize]], s[r]);
}

#[test]
fn max_with_a_repeated_argument_keeps_its_propagator() {
    // y ≤ max(x, y, y) holds for every pair: 2⁶⁴ solutions, one found at
    // once, and the count stops at its node limit without an abort.
    let mut m = Model::new();
    let x = m.new_var(full()).unwrap();
    let y = m.new_var(full()).unwrap();
    m.post(y.le(max_of([x, y, y]))).unwrap();
    let s = Search::new(&m).limits(nodes(100)).solve().unwrap();
    assert_eq!(s.outcome, Outcome::Solved);
    // Over 0..=9: every pair (y ≤ max(x, y) always holds).
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 9)).unwrap();
    let y = m.new_var(Domain::range(0, 9)).unwrap();
    let z = m.new_var(Domain::range(0, 9)).unwrap();
    m.max(&[x, y, y], z).unwrap();
    assert_eq!(Search::new(&m).count().unwrap().count, 100);
}

#[test]
fn pow_with_a_huge_exponent_is_settled_at_once() {
    // x^(2³² − 1) over x ∈ −5..=5: only −1, 0, 1 stay within i32.
    let mut m = Model::new();
    let x = m.new_var(Domain::range(-5, 5)).unwrap();
    let z = m.new_var(full()).unwrap();
    m.pow(x, u32::MAX, z).unwrap();
    let r = Search::new(&m).limits(nodes(1000)).count().unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Solved, 3));
}

#[test]
fn a_checker_path_constraint_over_a_huge_domain_trims_its_ends() {
    // A predicate (the default forward checking) over all of i32: the
    // last open variable is trimmed from its ends (at most 1,024 values
    // each), not listed, so a value the checker accepts near an end is
    // found at once and nothing is allocated per value.
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 1)).unwrap();
    let y = m.new_var(full()).unwrap();
    m.predicate(&[x, y], "y ≥ x", |v| v[1] >= v[0]).unwrap();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        for val_order in [ValOrder::Ascending, ValOrder::Descending] {
            let r = Search::new(&m)
                .inference(inference)
                .var_order(VarOrder::Input)
                .val_order(val_order)
                .limits(nodes(100))
                .solve()
                .unwrap();
            let what = format!("{inference:?} {val_order:?}");
            if val_order == ValOrder::Descending {
                assert_eq!(r.outcome, Outcome::Solved, "{what}");
            }
            if let Some(s) = r.solution {
                assert!(s[y] >= s[x], "{what}");
            }
        }
    }
    // Counting checks each solution rather than adding what is left of y
    // (values below x may stay in its middle): the node limit stops it,
    // and it never reports a wrong count as complete.
    let r = Search::new(&m)
        .var_order(VarOrder::Input)
        .limits(nodes(200))
        .count()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
}

#[test]
fn regular_over_full_range_domains_bounds_to_the_alphabet() {
    // Words over {0, 1} with no two 1s in a row, three letters from
    // variables over all of i32: bounded to 0..=1 at the root, 5 words.
    let a = Automaton::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)]).unwrap();
    let mut m = Model::new();
    let xs = m.new_vars(3, full()).unwrap();
    m.regular(&xs, &a).unwrap();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let r = Search::new(&m)
            .inference(inference)
            .limits(nodes(100))
            .count()
            .unwrap();
        assert_eq!((r.outcome, r.count), (Outcome::Solved, 5), "{inference:?}");
    }
    // A sparse alphabet {0, 2²⁰}: the values between stay in the domains,
    // a solution is still found at once.
    let big = 1 << 20;
    let a = Automaton::new(1, 0, &[0], &[(0, 0, 0), (0, big, 0)]).unwrap();
    let mut m = Model::new();
    let xs = m.new_vars(3, full()).unwrap();
    m.regular(&xs, &a).unwrap();
    let r = Search::new(&m).limits(nodes(100)).solve().unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    assert!(r
        .solution
        .unwrap()
        .values()
        .iter()
        .all(|&v| v == 0 || v == big));
}

#[test]
fn equal_over_full_range_domains_reasons_on_bounds() {
    // x = y + 3 over all of i32 was pruned value by value (a list of
    // 2³² values per call); now by the bounds, and still exact once a
    // side is fixed.
    let mut m = Model::new();
    let x = m.new_var(full()).unwrap();
    let y = m.new_var(full()).unwrap();
    let z = m.new_var(full()).unwrap();
    m.equal(x, y, 3).unwrap();
    m.less_eq(z, y, -1).unwrap();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let r = Search::new(&m)
            .inference(inference)
            .limits(nodes(100))
            .solve()
            .unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "{inference:?}");
        let s = r.solution.unwrap();
        assert_eq!(s[x] as i64, s[y] as i64 + 3);
        assert!(s[z] < s[y]);
    }
    // With y fixed by a unary bound, x follows: one solution.
    let mut m = Model::new();
    let x = m.new_var(full()).unwrap();
    let y = m
        .new_var(Domain::range(Value::MAX - 2, Value::MAX))
        .unwrap();
    m.equal(x, y, 3).unwrap();
    let r = Search::new(&m).limits(nodes(100)).count().unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Unsatisfiable, 0));
    let mut m = Model::new();
    let x = m.new_var(full()).unwrap();
    let y = m
        .new_var(Domain::range(Value::MIN, Value::MIN + 4))
        .unwrap();
    m.equal(x, y, -5).unwrap();
    let r = Search::new(&m).limits(nodes(100)).count().unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Unsatisfiable, 0));
}

#[test]
fn wide_arithmetic_counts_are_exact_or_stopped() {
    // The last open variable of |·|, /, mod is only bounded when it is
    // wide: counting adds nothing it has not checked. These counts were
    // 2,000,001, 2³² − 1 and 285,714, reported as complete.
    let wide = |fixed: &[(Value, bool)], op: &str| {
        let mut m = Model::new();
        let vs: Vec<_> = fixed
            .iter()
            .map(|&(v, is_fixed)| {
                m.new_var(if is_fixed {
                    Domain::singleton(v)
                } else {
                    full()
                })
                .unwrap()
            })
            .collect();
        match op {
            "abs" => m.abs(vs[0], vs[1]),
            "mod" => m.modulo(vs[0], vs[1], vs[2]),
            _ => m.div(vs[0], vs[1], vs[2]),
        }
        .unwrap();
        Search::new(&m).limits(nodes(50_000)).count()
    };
    // |x| = 10⁶: 2 solutions.
    let r = wide(&[(0, false), (1_000_000, true)], "abs").unwrap();
    assert!(r.outcome != Outcome::Solved || r.count == 2, "{r:?}");
    // 10⁹ mod y = 0: the 200 divisors and their negatives.
    let r = wide(&[(1_000_000_000, true), (0, false), (0, true)], "mod").unwrap();
    assert!(r.outcome != Outcome::Solved || r.count == 200, "{r:?}");
    // 10⁶ / y = 7: y ∈ 125001..=142857, bounded by |y|·7 ≤ 10⁶ < |y|·8
    // and the signs: exact.
    let r = wide(&[(1_000_000, true), (0, false), (7, true)], "div").unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Solved, 17_857));
    let r = wide(&[(-1_000_000, true), (0, false), (7, true)], "div").unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Solved, 17_857));
}

#[test]
fn min_divided_by_minus_one_is_settled_within_the_limits() {
    // i32::MIN / −1 = 2³¹ does not fit: x = i32::MIN has no quotient,
    // every other x has one (issue 32, item 9).
    let mut m = Model::new();
    let x = m
        .new_var(Domain::range(Value::MIN, Value::MIN + 5))
        .unwrap();
    let y = m.new_var(Domain::singleton(-1)).unwrap();
    let z = m.new_var(full()).unwrap();
    m.div(x, y, z).unwrap();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let r = Search::new(&m)
            .inference(inference)
            .limits(nodes(100))
            .count()
            .unwrap();
        assert_eq!((r.outcome, r.count), (Outcome::Solved, 5), "{inference:?}");
    }
    // Over the whole range, x / y = x mod y = z: only x = z = 0 with
    // y = ±1, found by the bounds at once.
    let mut m = Model::new();
    let x = m.new_var(full()).unwrap();
    let y = m.new_var(Domain::range(-1, 1)).unwrap();
    let z = m.new_var(full()).unwrap();
    m.div(x, y, z).unwrap();
    m.modulo(x, y, z).unwrap();
    let r = Search::new(&m).limits(nodes(1000)).solve().unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    let s = r.solution.unwrap();
    assert_eq!(s[z] as i64, s[x] as i64 / s[y] as i64);
    let r = Search::new(&m).limits(nodes(1000)).count().unwrap();
    assert_eq!((r.outcome, r.count), (Outcome::Solved, 2), "{r:?}");
}
