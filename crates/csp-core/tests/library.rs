//! The constraint vocabulary of issue 11 (relations, arithmetic, linear
//! with every relation), each checked against brute force at every
//! inference level by `testing::check_constraint`, on small, holey,
//! negative and `i32`-extreme domains.

use csp_core::expr::{max_of, min_of, sum};
use csp_core::{testing, Domain, Expr, Model, ModelError, Rel, Relation, Search, VarId};

/// Domains the checks run over: small ranges around 0, holey sets, and
/// sets that reach the ends of `i32` (products and powers overflow `i32`
/// there, so any unchecked arithmetic shows).
fn domains() -> Vec<Domain> {
    vec![
        Domain::range(-3, 3),
        Domain::range(0, 4),
        Domain::range(1, 6),
        Domain::values([-5, -2, 0, 3, 7]),
        Domain::values([-4, -1, 2, 5]),
        Domain::values([i32::MIN, -1, 0, 1, i32::MAX]),
        Domain::values([i32::MIN, i32::MIN + 1, -46341, 46341, i32::MAX]),
        Domain::singleton(0),
        Domain::singleton(-2),
    ]
}

fn each_triple(mut f: impl FnMut(&Domain, &Domain, &Domain)) {
    let ds = domains();
    for (i, a) in ds.iter().enumerate() {
        for (j, b) in ds.iter().enumerate() {
            // All pairs, a rotating third: enough combinations, bounded time.
            let c = &ds[(i * 3 + j * 5) % ds.len()];
            f(a, b, c);
        }
    }
}

fn ok(r: Result<(), testing::Mismatch>, what: &str, ds: &[&Domain]) {
    if let Err(e) = r {
        panic!("{what} over {ds:?}: {e}");
    }
}

#[test]
fn less_eq_matches_brute_force() {
    for c in [-3, -1, 0, 2, i64::from(i32::MAX), i64::MIN / 2] {
        each_triple(|a, b, _| {
            let r = testing::check_constraint(&[a.clone(), b.clone()], |m, v| {
                m.less_eq(v[0], v[1], c).map(|_| ())
            });
            ok(r, &format!("x <= y + {c}"), &[a, b]);
        });
    }
    // The same variable on both sides.
    let r = testing::check_constraint(&[Domain::range(0, 3)], |m, v| {
        m.less_eq(v[0], v[0], -1).map(|_| ())
    });
    ok(r, "x <= x - 1", &[]);
}

fn binary_op(
    name: &str,
    post: fn(&mut Model, VarId, VarId, VarId) -> Result<(), csp_core::ModelError>,
) {
    each_triple(|a, b, c| {
        let r = testing::check_constraint(&[a.clone(), b.clone(), c.clone()], |m, v| {
            post(m, v[0], v[1], v[2])
        });
        ok(r, name, &[a, b, c]);
    });
}

#[test]
fn times_matches_brute_force() {
    binary_op("z = x * y", |m, x, y, z| m.times(x, y, z).map(|_| ()));
    // z = x·x is the square; z = x·z repeats the result.
    let r = testing::check_constraint(&[Domain::range(-4, 4), Domain::range(-2, 16)], |m, v| {
        m.times(v[0], v[0], v[1]).map(|_| ())
    });
    ok(r, "z = x * x", &[]);
    let r = testing::check_constraint(&[Domain::range(-3, 3), Domain::range(-4, 4)], |m, v| {
        m.times(v[0], v[1], v[1]).map(|_| ())
    });
    ok(r, "y = x * y", &[]);
}

#[test]
fn div_and_mod_match_brute_force() {
    binary_op("z = x / y", |m, x, y, z| m.div(x, y, z).map(|_| ()));
    binary_op("z = x mod y", |m, x, y, z| m.modulo(x, y, z).map(|_| ()));
}

#[test]
fn abs_and_pow_match_brute_force() {
    let ds = domains();
    for a in &ds {
        for b in &ds {
            let r = testing::check_constraint(&[a.clone(), b.clone()], |m, v| {
                m.abs(v[0], v[1]).map(|_| ())
            });
            ok(r, "z = |x|", &[a, b]);
            // Two exponents per pair, rotating through six.
            let ks = [0, 1, 2, 3, 4, 31];
            let at = (a.size() + 3 * b.size()) as usize;
            for k in [ks[at % 6], ks[(at + 1) % 6]] {
                let r = testing::check_constraint(&[a.clone(), b.clone()], |m, v| {
                    m.pow(v[0], k, v[1]).map(|_| ())
                });
                ok(r, &format!("z = x^{k}"), &[a, b]);
            }
        }
    }
    // Powers that fit: 46341² overflows i32, 46340² does not.
    let r = testing::check_constraint(
        &[
            Domain::range(46338, 46342),
            Domain::range(2147395600 - 3, i32::MAX),
        ],
        |m, v| m.pow(v[0], 2, v[1]).map(|_| ()),
    );
    ok(r, "z = x^2 near the top", &[]);
}

#[test]
fn min_and_max_match_brute_force() {
    each_triple(|a, b, c| {
        let doms = [a.clone(), b.clone(), c.clone(), Domain::range(-2, 3)];
        let r = testing::check_constraint(&doms, |m, v| m.min(&v[..3], v[3]).map(|_| ()));
        ok(r, "z = min(xs)", &[a, b, c]);
        let r = testing::check_constraint(&doms, |m, v| m.max(&v[..3], v[3]).map(|_| ()));
        ok(r, "z = max(xs)", &[a, b, c]);
    });
    // The result among the arguments.
    let r = testing::check_constraint(&[Domain::range(0, 3), Domain::range(1, 4)], |m, v| {
        m.max(&[v[0], v[1]], v[1]).map(|_| ())
    });
    ok(r, "y = max(x, y)", &[]);
    let mut m = Model::new();
    let z = m.new_var(Domain::range(0, 1)).unwrap();
    assert!(m.min(&[], z).is_err(), "min of nothing is refused");
}

#[test]
fn linear_every_relation_matches_brute_force() {
    let rels = [
        Relation::Eq,
        Relation::Ne,
        Relation::Le,
        Relation::Ge,
        Relation::Lt,
        Relation::Gt,
    ];
    let coefs: [&[i64]; 4] = [&[1, 1, 1], &[2, -3, 1], &[-1, 4, -2], &[5, 0, -5]];
    for (r, rel) in rels.into_iter().enumerate() {
        for (k, cs) in coefs.into_iter().enumerate() {
            // Two right-hand sides per pair, rotating through four.
            for c in [[-4], [0], [3], [9]][(r + k) % 4] {
                each_triple(|a, b, d| {
                    if [a, b, d]
                        .iter()
                        .any(|d| d.max().unwrap_or(0) > 1000 || d.min().unwrap_or(0) < -1000)
                    {
                        return; // the extremes are covered by the property tests
                    }
                    let r =
                        testing::check_constraint(&[a.clone(), b.clone(), d.clone()], |m, v| {
                            let terms: Vec<(i64, VarId)> =
                                cs.iter().copied().zip(v.iter().copied()).collect();
                            m.linear(&terms, rel, c).map(|_| ())
                        });
                    ok(r, &format!("{cs:?} {rel} {c}"), &[a, b, d]);
                });
            }
        }
    }
}

/// An expression case: how to post it, and what it means.
type Case = (
    &'static str,
    fn(VarId, VarId, VarId) -> Rel,
    fn(i64, i64, i64) -> bool,
);

fn cases() -> Vec<Case> {
    vec![
        ("x < y", |x, y, _| x.lt(y), |x, y, _| x < y),
        (
            "2x + y = z + 3",
            |x, y, z| (2 * x + y).eq(z + 3),
            |x, y, z| 2 * x + y == z + 3,
        ),
        ("x*y >= 4", |x, y, _| (x * y).ge(4), |x, y, _| x * y >= 4),
        ("x*y = z", |x, y, z| (x * y).eq(z), |x, y, z| x * y == z),
        (
            "z = x / y",
            |x, y, z| z.eq(x / y),
            |x, y, z| y != 0 && x / y == z,
        ),
        (
            "x mod y != z",
            |x, y, z| (x % y).ne(z),
            |x, y, z| y != 0 && x % y != z,
        ),
        ("|x| <= y", |x, y, _| x.abs().le(y), |x, y, _| x.abs() <= y),
        (
            "min(x, y) = z",
            |x, y, z| min_of([x, y]).eq(z),
            |x, y, z| x.min(y) == z,
        ),
        (
            "max(x, y, z) > 1",
            |x, y, z| max_of([x, y, z]).gt(1),
            |x, y, z| x.max(y).max(z) > 1,
        ),
        (
            "x*y + z <= 2",
            |x, y, z| (x * y + z).le(2),
            |x, y, z| x * y + z <= 2,
        ),
        (
            "(x+1)(y-1) = z",
            |x, y, z| ((x + 1) * (y - 1)).eq(z),
            |x, y, z| (x + 1) * (y - 1) == z,
        ),
        (
            "x^2 = z + y",
            |x, y, z| x.pow(2).eq(z + y),
            |x, y, z| x * x == z + y,
        ),
        (
            "x + y + z != 0",
            |x, y, z| sum([x, y, z]).ne(0),
            |x, y, z| x + y + z != 0,
        ),
        ("x - y = 2", |x, y, _| (x - y).eq(2), |x, y, _| x - y == 2),
        (
            "y - x <= -1",
            |x, y, _| (y - x).le(-1),
            |x, y, _| y - x <= -1,
        ),
        ("3 - x >= y", |x, y, _| (3 - x).ge(y), |x, y, _| 3 - x >= y),
        (
            "-x != y - 1",
            |x, y, _| (-x).ne(y - 1),
            |x, y, _| -x != y - 1,
        ),
        (
            "x*x*y = 4",
            |x, y, _| (x * x * y).eq(4),
            |x, y, _| x * x * y == 4,
        ),
        (
            "5 = x*y",
            |x, y, _| Expr::from(5).eq(x * y),
            |x, y, _| x * y == 5,
        ),
    ]
}

#[test]
fn expressions_mean_what_they_say() {
    let doms = [
        [
            Domain::range(-3, 3),
            Domain::range(-2, 3),
            Domain::range(-3, 4),
        ],
        [
            Domain::values([-4, -1, 0, 2, 5]),
            Domain::values([-3, 1, 2]),
            Domain::range(0, 5),
        ],
    ];
    for (name, post, holds) in cases() {
        for ds in &doms {
            let mut m = Model::new();
            let v: Vec<VarId> = ds.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
            m.post(post(v[0], v[1], v[2])).unwrap();
            // Brute force over the three variables the user declared.
            let mut expected = std::collections::BTreeSet::new();
            for a in ds[0].iter() {
                for b in ds[1].iter() {
                    for c in ds[2].iter() {
                        if holds(a as i64, b as i64, c as i64) {
                            expected.insert(vec![a, b, c]);
                        }
                    }
                }
            }
            for opts in testing::configurations_for(&m, 7) {
                let found: Vec<Vec<i32>> = Search::new(&m)
                    .options(opts.clone())
                    .solutions()
                    .unwrap()
                    .map(|s| s.values()[..3].to_vec())
                    .collect();
                let set: std::collections::BTreeSet<_> = found.iter().cloned().collect();
                assert_eq!(
                    set.len(),
                    found.len(),
                    "{name}: a projection repeats ({opts:?})"
                );
                assert_eq!(set, expected, "{name} over {ds:?} ({opts:?})");
            }
        }
    }
}

#[test]
fn expressions_report_bad_input() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, i32::MAX)).unwrap();
    let y = m.new_var(Domain::range(0, i32::MAX)).unwrap();
    let zero = m.new_var(Domain::singleton(0)).unwrap();
    // x·y ranges far beyond i32: refused, not clamped.
    let e = m.post((x * y + 1).le(10)).unwrap_err();
    assert!(matches!(e, ModelError::Overflow { .. }), "{e}");
    let e = m.post((x / zero).le(10)).unwrap_err();
    assert!(
        e.to_string()
            .contains("division by a variable that can only be 0"),
        "{e}"
    );
}

/// Expression arithmetic is exact on the way (`-(i64::MIN)` no longer
/// panics in a debug build or wraps in a release build); what does not fit
/// `i64` once posted, or left even `i128` on the way, is refused with
/// `Overflow` and posts nothing (issue 32).
#[test]
fn expression_arithmetic_past_i64_is_exact_or_an_error() {
    use csp_core::{Expr, Relation};
    let min = || Expr::constant(i64::MIN);
    let big = || Expr::constant(i64::MAX);
    let mut m = Model::new();
    let x = m.new_var(Domain::range(-3, 3)).unwrap();
    let b = m.new_var(Domain::range(0, 1)).unwrap();
    let overflows: Vec<(&str, csp_core::Rel)> = vec![
        (
            "a coefficient 2⁹³",
            (x * i32::MAX * i32::MAX * i32::MAX).eq(0),
        ),
        (
            "a coefficient past i128",
            (x * i32::MAX * i32::MAX * i32::MAX * i32::MAX * i32::MAX).eq(0),
        ),
        ("a constant 2⁶⁴", (big() * Expr::from(2)).ne(x)),
        ("|i64::MIN − 1 + x|", (min() - 1 + x).abs().le(5)),
    ];
    for (what, rel) in overflows {
        let e = m.post(rel.clone()).unwrap_err();
        assert!(matches!(e, ModelError::Overflow { .. }), "{what}: {e}");
        // Reified, a constant past i64 is compared exactly (b ⇔ 2⁶⁴ ≠ x
        // is b = 1); the other cases are refused the same way.
        if what != "a constant 2⁶⁴" {
            let e = m.post(b.iff(rel)).map(|_| what).unwrap_err();
            assert!(
                matches!(e, ModelError::Overflow { .. }),
                "{what} reified: {e}"
            );
        }
    }
    let e = m.define(-min() + x).unwrap_err();
    assert!(matches!(e, ModelError::Overflow { .. }), "define: {e}");
    let e = m.count(&[x], 1, Relation::Eq, -min()).unwrap_err();
    assert!(matches!(e, ModelError::Overflow { .. }), "count: {e}");
    assert_eq!(m.num_constraints(), 0, "a refused post posts nothing");

    // Exact on the way: k − i64::MIN with k = i64::MIN + 3 is 3.
    m.post((Expr::constant(i64::MIN + 3) - i64::MIN + x).eq(0))
        .unwrap();
    m.post((big() - i64::MAX + x).le(0)).unwrap();
    let r = Search::new(&m).count().unwrap();
    assert_eq!(r.count, 2, "x = −3, b free");
    // False for every x: no solution, or refused at the edge of i64 by the
    // linear constraint itself; never a wrapped constraint with solutions.
    let falses: [fn(csp_core::VarId) -> csp_core::Rel; 2] = [
        |x| (-Expr::constant(i64::MIN)).le(x),
        |x| x.eq(Expr::constant(i64::MIN)),
    ];
    for (i, rel) in falses.iter().enumerate() {
        let mut m = Model::new();
        let x = m.new_var(Domain::range(-3, 3)).unwrap();
        match m.post(rel(x)) {
            Ok(_) => assert_eq!(Search::new(&m).count().unwrap().count, 0, "case {i}"),
            Err(e) => assert!(matches!(e, ModelError::Overflow { .. }), "case {i}: {e}"),
        }
    }
}

fn bools(n: usize) -> Vec<Domain> {
    vec![Domain::range(0, 1); n]
}

#[test]
fn clauses_and_boolean_functions_match_brute_force() {
    for (np, nn) in [(1, 0), (0, 1), (2, 1), (1, 3), (3, 2), (0, 4)] {
        let r = testing::check_constraint(&bools(np + nn), |m, v| {
            m.clause(&v[..np], &v[np..]).map(|_| ())
        });
        ok(r, &format!("clause {np}+{nn}"), &[]);
    }
    // A clause with a fixed literal, and one with a repeated variable.
    let doms = [
        Domain::singleton(0),
        Domain::range(0, 1),
        Domain::singleton(1),
    ];
    ok(
        testing::check_constraint(&doms, |m, v| m.clause(&v[..2], &v[2..]).map(|_| ())),
        "clause with fixed literals",
        &[],
    );
    ok(
        testing::check_constraint(&bools(2), |m, v| {
            m.clause(&[v[0], v[1]], &[v[0]]).map(|_| ())
        }),
        "tautology",
        &[],
    );
    for k in 1..=4 {
        let d = bools(k + 1);
        type Post = fn(&mut Model, &[VarId], VarId) -> Result<csp_core::ConstraintId, ModelError>;
        let posts: [(&str, Post); 3] = [
            ("and", |m, xs, b| m.and(xs, b)),
            ("or", |m, xs, b| m.or(xs, b)),
            ("xor", |m, xs, b| m.xor(xs, b)),
        ];
        for (name, post) in posts {
            let r = testing::check_constraint(&d, |m, v| post(m, &v[..k], v[k]).map(|_| ()));
            ok(r, &format!("{name} of {k}"), &[]);
        }
    }
    ok(
        testing::check_constraint(&bools(2), |m, v| m.not(v[0], v[1]).map(|_| ())),
        "not",
        &[],
    );
    ok(
        testing::check_constraint(&bools(2), |m, v| m.implies(v[0], v[1]).map(|_| ())),
        "implies",
        &[],
    );
    // Not booleans: a clear error.
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 2)).unwrap();
    let e = m.clause(&[x], &[]).unwrap_err();
    assert!(e.to_string().contains("not a boolean"), "{e}");
}

#[test]
fn reification_matches_brute_force() {
    type Mk = fn(VarId, VarId) -> Rel;
    let rels: [(&str, Mk); 8] = [
        ("x = 1", |x, _| x.eq(1)),
        ("x <= 0", |x, _| x.le(0)),
        ("x = y", |x, y| x.eq(y)),
        ("x <= y", |x, y| x.le(y)),
        ("x != y + 1", |x, y| x.ne(y + 1)),
        ("2x - 3y > -2", |x, y| (2 * x - 3 * y).gt(-2)),
        ("x + y < 2", |x, y| (x + y).lt(2)),
        ("x*y = 2", |x, y| (x * y).eq(2)),
    ];
    let doms = [
        [Domain::range(-2, 2), Domain::range(-1, 2)],
        [Domain::values([-3, 0, 1, 4]), Domain::values([-2, 1, 3])],
    ];
    for (name, mk) in rels {
        for ds in &doms {
            for half in [false, true] {
                let mut m = Model::new();
                let x = m.new_var(ds[0].clone()).unwrap();
                let y = m.new_var(ds[1].clone()).unwrap();
                let b = m.new_bool().unwrap();
                if half {
                    m.post(b.implies(mk(x, y))).unwrap();
                } else {
                    m.post(b.iff(mk(x, y))).unwrap();
                }
                // Every reason the reified propagators give, by brute force.
                testing::check_explanations(&m)
                    .unwrap_or_else(|e| panic!("{name} half={half} over {ds:?}: {e}"));
                // The meaning, by a second model per (x, y) with the plain relation.
                let mut expected = std::collections::BTreeSet::new();
                for a in ds[0].iter() {
                    for c in ds[1].iter() {
                        let mut t = Model::new();
                        let tx = t.new_var(Domain::singleton(a)).unwrap();
                        let ty = t.new_var(Domain::singleton(c)).unwrap();
                        t.post(mk(tx, ty)).unwrap();
                        let holds = Search::new(&t).solve().unwrap().solution.is_some();
                        for bv in [0, 1] {
                            if (bv == 1 && holds) || (bv == 0 && (half || !holds)) {
                                expected.insert(vec![a, c, bv]);
                            }
                        }
                    }
                }
                for opts in testing::configurations_for(&m, 3) {
                    let found: std::collections::BTreeSet<Vec<i32>> = Search::new(&m)
                        .options(opts.clone())
                        .solutions()
                        .unwrap()
                        .map(|s| vec![s[x], s[y], s[b]])
                        .collect();
                    assert_eq!(found, expected, "{name} half={half} over {ds:?} ({opts:?})");
                }
            }
        }
    }
    // Membership, full and half, on a holey domain.
    for half in [false, true] {
        let r = testing::check_constraint(
            &[Domain::values([-3, -1, 0, 2, 5]), Domain::range(0, 1)],
            |m, v| {
                let set = Domain::values([-1, 2, 7]);
                if half {
                    m.half_reify_in(v[0], set, v[1]).map(|_| ())
                } else {
                    m.reify_in(v[0], set, v[1]).map(|_| ())
                }
            },
        );
        ok(r, &format!("b <=> x in S (half={half})"), &[]);
        // Range sets: inside the domain, and covering either end of it.
        for (lo, hi) in [(-1, 2), (-9, 0), (2, 9), (-9, 9)] {
            let r = testing::check_constraint(
                &[Domain::values([-3, -1, 0, 2, 5]), Domain::range(0, 1)],
                |m, v| {
                    let set = Domain::range(lo, hi);
                    if half {
                        m.half_reify_in(v[0], set, v[1]).map(|_| ())
                    } else {
                        m.reify_in(v[0], set, v[1]).map(|_| ())
                    }
                },
            );
            ok(r, &format!("b <=> x in {lo}..={hi} (half={half})"), &[]);
        }
    }
}

#[test]
fn membership_over_the_whole_value_range_is_decided_by_bounds() {
    let nodes = |n| csp_core::Limits {
        nodes: Some(n),
        ..Default::default()
    };
    // b <=> x in [0, i32::MAX] with x over all of i32: walking the set
    // (2^31 values) never returned; the bounds decide it at once.
    let mut m = Model::new();
    let x = m.new_var(Domain::range(i32::MIN, i32::MAX)).unwrap();
    let b = m.new_var(Domain::range(0, 1)).unwrap();
    m.reify_in(x, Domain::range(0, i32::MAX), b).unwrap();
    m.post(b.eq(0)).unwrap();
    let s = Search::new(&m).limits(nodes(100)).solve().unwrap();
    let sol = s.solution.expect("x < 0 is a solution");
    assert!(sol[x] < 0, "x = {}", sol[x]);
    // And b is decided by x's bounds alone, both ways.
    for (d, want) in [
        (Domain::range(5, i32::MAX), 1),
        (Domain::range(i32::MIN, -1), 0),
    ] {
        let mut m = Model::new();
        let x = m.new_var(d).unwrap();
        let b = m.new_var(Domain::range(0, 1)).unwrap();
        m.reify_in(x, Domain::range(0, i32::MAX), b).unwrap();
        let s = Search::new(&m).limits(nodes(100)).solve().unwrap();
        assert_eq!(s.solution.expect("a solution")[b], want);
    }
}

#[test]
fn element_with_an_offset_matches_brute_force() {
    for base in [1, -2, 5] {
        let r = testing::check_constraint(
            &[
                Domain::range(base - 1, base + 3),
                Domain::range(0, 3),
                Domain::range(1, 3),
                Domain::values([0, 2]),
                Domain::range(0, 4),
            ],
            |m, v| m.element_offset(v[0], &v[2..4], v[1], base).map(|_| ()),
        );
        ok(r, &format!("element with base {base}"), &[]);
        let r = testing::check_constraint(
            &[Domain::range(base - 1, base + 4), Domain::range(0, 9)],
            |m, v| {
                m.element_const_offset(v[0], &[3, 1, 4, 1], v[1], base)
                    .map(|_| ())
            },
        );
        ok(r, &format!("constant element with base {base}"), &[]);
    }
    // Bases at the ends of i32: an array whose last positions no i32
    // index can name, and one that starts at i32::MIN.
    for (base, index) in [
        (i32::MAX - 1, Domain::range(i32::MAX - 3, i32::MAX)),
        (i32::MIN, Domain::range(i32::MIN, i32::MIN + 4)),
    ] {
        let r = testing::check_constraint(&[index.clone(), Domain::range(0, 9)], |m, v| {
            m.element_const_offset(v[0], &[3, 1, 4, 1, 5], v[1], base)
                .map(|_| ())
        });
        ok(r, &format!("constant element with base {base}"), &[]);
        let r = testing::check_constraint(
            &[
                index,
                Domain::range(0, 3),
                Domain::range(1, 3),
                Domain::values([0, 2]),
                Domain::range(0, 4),
            ],
            |m, v| m.element_offset(v[0], &v[2..], v[1], base).map(|_| ()),
        );
        ok(r, &format!("element with base {base}"), &[]);
    }
}

/// `Disjunctive` against brute force on random small schedules (holes,
/// durations 0 to 4, some tasks that cannot fit), and on start times at
/// the ends of `i32`, where a task's end leaves the `i32` range.
#[test]
fn disjunctive_matches_brute_force() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |m: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    };
    for round in 0..150 {
        let n = 2 + next(3) as usize;
        let doms: Vec<Domain> = (0..n)
            .map(|_| {
                let lo = next(6) as i32;
                let hi = lo + next(6) as i32;
                if round % 4 == 3 {
                    Domain::values((lo..=hi).filter(|&v| v % 3 != 1 || v == hi))
                } else {
                    Domain::range(lo, hi)
                }
            })
            .collect();
        let durs: Vec<i32> = (0..n).map(|_| next(5) as i32).collect();
        testing::check_constraint(&doms, |m, v| m.disjunctive(v, &durs).map(|_| ()))
            .unwrap_or_else(|e| panic!("{doms:?} {durs:?}: {e}"));
    }
    let extreme = [
        Domain::values([i32::MIN, i32::MIN + 1, i32::MIN + 3]),
        Domain::values([i32::MAX - 5, i32::MAX - 1, i32::MAX]),
        Domain::values([i32::MIN, -1, 0, i32::MAX]),
    ];
    for durs in [[2, 3, 1], [4, 0, 2], [i32::MAX, 1, 1]] {
        testing::check_constraint(&extreme, |m, v| m.disjunctive(v, &durs).map(|_| ()))
            .unwrap_or_else(|e| panic!("{durs:?}: {e}"));
    }
}

/// Edge finding at work: three tasks of 2 that must end by 6 fill 0..6,
/// so a fourth of length 3 starts at 6 or later, found at the root (no
/// failure when each task's start is tried in ascending order).
#[test]
fn disjunctive_edge_finding_prunes_at_the_root() {
    let mut m = Model::new();
    let tight = m.new_vars(3, Domain::range(0, 4)).unwrap();
    let late = m.new_var(Domain::range(0, 12)).unwrap();
    let starts = [tight[0], tight[1], tight[2], late];
    m.disjunctive(&starts, &[2, 2, 2, 3]).unwrap();
    let r = Search::new(&m)
        .inference(csp_core::Inference::Mac)
        .var_order(csp_core::VarOrder::Input)
        .solve()
        .unwrap();
    let sol = r.solution.expect("a schedule");
    assert!(sol.value(late) >= 6, "{:?}", sol.values());
    // The pairwise decomposition alone finds the same first schedule only
    // after failing: the propagator's root pruning is what saves them.
    assert_eq!(r.stats.failures, 0);
}

#[test]
fn disjunctive_bad_arguments_are_errors() {
    let mut m = Model::new();
    let x = m.new_vars(2, Domain::range(0, 5)).unwrap();
    let e = m.disjunctive(&x, &[1]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.disjunctive(&x, &[1, -2]).unwrap_err();
    assert!(
        e.to_string()
            .contains("task 1 has a negative duration (-2)"),
        "{e}"
    );
}
