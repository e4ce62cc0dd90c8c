//! The constraint vocabulary of issue 11 (relations, arithmetic, linear
//! with every relation), each checked against brute force at every
//! inference level by `testing::check_constraint`, on small, holey,
//! negative and `i32`-extreme domains.

use csp_core::{testing, Domain, Model, Relation, VarId};

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
            for k in [0, 1, 2, 3, 4, 31] {
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
    for rel in rels {
        for cs in coefs {
            for c in [-4, 0, 3, 9] {
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
