//! Every built-in constraint against its checker, by brute force, at every
//! inference level, variable order and value order.

use csp_core::constraint::TernaryEq;
use csp_core::testing::check_constraint;
use csp_core::{Domain, Relation};

fn small() -> Vec<Domain> {
    vec![
        Domain::range(0, 3),
        Domain::range(-1, 2),
        Domain::values([0, 2, 3]),
        Domain::range(1, 3),
    ]
}

#[test]
fn not_equal_and_equal_with_offsets() {
    for c in -2..=2 {
        check_constraint(&small()[..2], |m, v| m.not_equal(v[0], v[1], c).map(|_| ())).unwrap();
        check_constraint(&small()[..2], |m, v| m.equal(v[0], v[1], c).map(|_| ())).unwrap();
        check_constraint(&small()[1..3], |m, v| m.equal(v[0], v[1], c).map(|_| ())).unwrap();
    }
}

#[test]
fn equal_on_large_domains() {
    let d = [Domain::range(0, 100), Domain::values([3, 50, 99, 120])];
    check_constraint(&d, |m, v| m.equal(v[0], v[1], -20).map(|_| ())).unwrap();
}

#[test]
fn all_different_plain_and_offset() {
    check_constraint(&small(), |m, v| m.all_different(v).map(|_| ())).unwrap();
    check_constraint(&small(), |m, v| {
        m.all_different_offset(v, &[0, 1, -1, 2]).map(|_| ())
    })
    .unwrap();
    // A variable repeated with different offsets.
    check_constraint(&small()[..2], |m, v| {
        m.all_different_offset(&[v[0], v[1], v[0]], &[0, 0, 2])
            .map(|_| ())
    })
    .unwrap();
    // An all-different over nothing is trivially satisfied; an empty sum
    // is a mistake (issue 31), reported as such.
    check_constraint(&small()[..2], |m, _| m.all_different(&[]).map(|_| ())).unwrap();
    let mut m = csp_core::Model::new();
    assert_eq!(
        m.linear(&[], Relation::Le, 0),
        Err(csp_core::ModelError::EmptyScope {
            constraint: "linear",
            what: "the sum"
        })
    );
    // Large domains (no word fast path).
    let d = [
        Domain::range(0, 70),
        Domain::values([0, 1, 69, 70]),
        Domain::range(68, 70),
    ];
    check_constraint(&d[1..], |m, v| m.all_different(v).map(|_| ())).unwrap();
}

#[test]
fn linear_all_relations() {
    for rel in [Relation::Eq, Relation::Ne, Relation::Le, Relation::Ge] {
        for c in [-3, 0, 2, 5] {
            check_constraint(&small()[..3], |m, v| {
                m.linear(&[(2, v[0]), (-1, v[1]), (3, v[2])], rel, c)
                    .map(|_| ())
            })
            .unwrap_or_else(|e| panic!("{rel} {c}: {e}"));
        }
    }
}

#[test]
fn ternary_eq_every_sign_pattern() {
    // Holes, a value list and domains over 64 values (no word path).
    let large = [
        Domain::range(0, 80),
        Domain::values([1, 5, 40, 70, 79]),
        Domain::range(30, 100),
    ];
    let signs = [1, -1];
    for &a in &signs {
        for &b in &signs {
            for &e in &signs {
                for c in [-4, -1, 0, 1, 3, 6] {
                    let what = format!("{a}·x {b:+}·y {e:+}·z = {c}");
                    check_constraint(&small()[1..], |m, v| {
                        let t =
                            TernaryEq::new([v[0], v[1], v[2]], [a, b, e], c).expect("unit signs");
                        m.post(t).map(|_| ())
                    })
                    .unwrap_or_else(|err| panic!("{what}: {err}"));
                    // Through `Model::linear`, which picks `TernaryEq` itself.
                    check_constraint(&small()[..3], |m, v| {
                        let id = m.linear(&[(a, v[0]), (b, v[1]), (e, v[2])], Relation::Eq, c)?;
                        assert_eq!(m.constraint(id).name(), "ternary-eq");
                        Ok(())
                    })
                    .unwrap_or_else(|err| panic!("{what}: {err}"));
                }
                check_constraint(&large, |m, v| {
                    let t = TernaryEq::new([v[0], v[1], v[2]], [a, b, e], 39).expect("unit signs");
                    m.post(t).map(|_| ())
                })
                .unwrap_or_else(|err| panic!("{a} {b} {e} on large domains: {err}"));
            }
        }
    }
    // `d = y − x`, and a repeated variable (posted as a checker).
    check_constraint(&small()[..3], |m, v| {
        m.post(TernaryEq::difference(v[0], v[1], v[2])).map(|_| ())
    })
    .unwrap();
    check_constraint(&small()[..2], |m, v| {
        let t = TernaryEq::new([v[0], v[1], v[0]], [1, 1, 1], 3).expect("unit signs");
        m.post(t).map(|_| ())
    })
    .unwrap();
    let mut m = csp_core::Model::new();
    let x = m.new_vars(3, Domain::range(0, 3)).unwrap();
    assert!(TernaryEq::new([x[0], x[1], x[2]], [1, 2, 1], 0).is_none());
}

#[test]
fn table_element_count() {
    check_constraint(&small()[..3], |m, v| {
        m.table(
            v,
            vec![vec![0, -1, 0], vec![1, 2, 3], vec![3, 0, 2], vec![2, 2, 2]],
        )
        .map(|_| ())
    })
    .unwrap();
    let d = [
        Domain::range(-1, 3),
        Domain::range(0, 3),
        Domain::range(0, 2),
        Domain::range(1, 3),
        Domain::values([0, 3]),
    ];
    check_constraint(&d, |m, v| m.element(v[0], &v[2..], v[1]).map(|_| ())).unwrap();
    for rel in [Relation::Eq, Relation::Ne, Relation::Le, Relation::Ge] {
        for k in 0..=3 {
            check_constraint(&small(), |m, v| m.count(v, 2, rel, k).map(|_| ()))
                .unwrap_or_else(|e| panic!("{rel} {k}: {e}"));
        }
    }
}

#[test]
fn predicate_uses_the_defaults() {
    check_constraint(&small()[..3], |m, v| {
        m.predicate(v, "a*b > c", |x| x[0] * x[1] > x[2])
            .map(|_| ())
    })
    .unwrap();
    // Unary predicate: the root must filter it even with no fixed variable.
    check_constraint(&small()[..2], |m, v| {
        m.predicate(&v[..1], "odd", |x| x[0] % 2 != 0).map(|_| ())
    })
    .unwrap();
}

#[test]
fn several_constraints_together() {
    check_constraint(&small(), |m, v| {
        m.all_different(&v[..3])?;
        m.linear(&[(1, v[0]), (1, v[3])], Relation::Le, 4)?;
        m.not_equal(v[1], v[3], -1)?;
        Ok(())
    })
    .unwrap();
}

#[test]
fn fused_all_different_groups() {
    // Two to four all-different constraints over the same variables are
    // forward-checked together; the result must not change.
    for g in 2..=5 {
        check_constraint(&small(), |m, v| {
            let offs = [
                [0, 0, 0, 0],
                [0, 1, 2, 3],
                [0, -1, -2, -3],
                [1, 0, 2, -1],
                [0, 2, -1, 1],
            ];
            for o in offs.iter().take(g) {
                m.all_different_offset(v, o)?;
            }
            m.not_equal(v[0], v[3], 1)?;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("group of {g}: {e}"));
    }
}

#[test]
fn all_different_checker_on_long_scopes() {
    use csp_core::{CheckError, Model};
    let mut m = Model::new();
    let xs = m.new_vars(40, Domain::range(-1000, 1000)).unwrap();
    let offs: Vec<i32> = (0..40).collect();
    m.all_different_offset(&xs, &offs).unwrap();
    // Dense ids (bitset path) and sparse ids (sorting path), with and without a repeat.
    let dense: Vec<i32> = (0..40).map(|i| 40 - i).collect(); // all ids equal: 40
    assert!(matches!(m.check(&dense), Err(CheckError::Violated { .. })));
    let distinct: Vec<i32> = (0..40).collect(); // ids 0, 2, 4, ...
    assert_eq!(m.check(&distinct), Ok(()));
    let mut sparse: Vec<i32> = (0..40).map(|i| i * 25 - 500).collect();
    assert_eq!(m.check(&sparse), Ok(()));
    sparse[39] = sparse[0] - 39; // same id as position 0
    assert!(matches!(m.check(&sparse), Err(CheckError::Violated { .. })));
}
