//! Issue 31, one vocabulary: `Model::count` takes its count as a constant,
//! a variable or an expression through one argument.

use csp_core::{testing, Domain, Model, ModelError, Relation, Search, VarId};

const RELS: [Relation; 6] = [
    Relation::Eq,
    Relation::Ne,
    Relation::Le,
    Relation::Lt,
    Relation::Ge,
    Relation::Gt,
];

fn holds(rel: Relation, a: i64, b: i64) -> bool {
    match rel {
        Relation::Eq => a == b,
        Relation::Ne => a != b,
        Relation::Le => a <= b,
        Relation::Lt => a < b,
        Relation::Ge => a >= b,
        Relation::Gt => a > b,
    }
}

/// Three variables over 0..=2 and a count variable `n` over 0..=3.
fn base() -> (Model, Vec<VarId>, VarId) {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(0, 2)).unwrap();
    let n = m.new_var(Domain::range(0, 3)).unwrap();
    (m, xs, n)
}

/// The number of assignments of `xs` and `n` (by brute force over the
/// base model) where `|{x = 1}| ⋈ k(n)`.
fn expected(rel: Relation, k: impl Fn(i64) -> i64) -> u128 {
    let (m, xs, n) = base();
    testing::brute_force(&m)
        .unwrap()
        .iter()
        .filter(|s| {
            let c = xs.iter().filter(|x| s[x.index()] == 1).count() as i64;
            holds(rel, c, k(s[n.index()] as i64))
        })
        .count() as u128
}

#[test]
fn a_constant_a_variable_and_an_expression_count_alike() {
    for rel in RELS {
        // A constant (i32 literal and i64).
        let (mut m, xs, _) = base();
        m.count(&xs, 1, rel, 2).unwrap();
        assert_eq!(
            Search::new(&m).count().unwrap().count,
            expected(rel, |_| 2),
            "{rel:?} 2"
        );
        let (mut m, xs, _) = base();
        m.count(&xs, 1, rel, 1i64).unwrap();
        assert_eq!(
            Search::new(&m).count().unwrap().count,
            expected(rel, |_| 1),
            "{rel:?} 1"
        );
        // A variable.
        let (mut m, xs, n) = base();
        m.count(&xs, 1, rel, n).unwrap();
        assert_eq!(
            Search::new(&m).count().unwrap().count,
            expected(rel, |n| n),
            "{rel:?} n"
        );
        // An expression.
        let (mut m, xs, n) = base();
        m.count(&xs, 1, rel, n - 1).unwrap();
        assert_eq!(
            Search::new(&m).count().unwrap().count,
            expected(rel, |n| n - 1),
            "{rel:?} n - 1"
        );
    }
}

#[test]
fn a_count_of_another_model_is_an_error_that_changes_nothing() {
    let (mut m, xs, _) = base();
    let mut other = Model::new();
    let _ = other.new_vars(4, Domain::range(0, 3)).unwrap();
    let theirs = other.new_var(Domain::range(0, 3)).unwrap(); // index 4: not in `m`
    let before = (m.num_vars(), m.num_constraints());
    for rel in [Relation::Eq, Relation::Le] {
        assert!(matches!(
            m.count(&xs, 1, rel, theirs),
            Err(ModelError::ForeignVar {
                constraint: "count",
                ..
            })
        ));
    }
    assert_eq!((m.num_vars(), m.num_constraints()), before);
}
