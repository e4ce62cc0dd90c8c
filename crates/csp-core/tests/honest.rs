//! Issue 31, honest results: every mistake in a model or a search's
//! arguments is a typed error naming what was wrong, and optimisation
//! results carry their proven bound.

use std::ops::ControlFlow;

use csp_core::expr::sum;
use csp_core::{
    Domain, Limit, Lns, Model, ModelError, Outcome, Relation, Search, SearchError, SearchOptions,
    VarId,
};

/// Two models with the same shape: a variable of one has an index that
/// exists in the other.
fn twins() -> (Model, Vec<VarId>, Model, Vec<VarId>) {
    let mut a = Model::new();
    let xa = a.new_vars(3, Domain::range(0, 2)).unwrap();
    a.all_different(&xa).unwrap();
    let mut b = Model::new();
    let xb = b.new_vars(3, Domain::range(0, 2)).unwrap();
    b.all_different(&xb).unwrap();
    (a, xa, b, xb)
}

#[test]
fn posting_a_variable_of_another_model_is_an_error_even_when_its_index_exists() {
    let (_a, xa, mut b, xb) = twins();
    let e = b.not_equal(xa[0], xb[1], 0).unwrap_err();
    assert_eq!(
        e,
        ModelError::ForeignVar {
            constraint: "not-equal",
            index: 0,
            num_vars: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "not-equal: variable v0 was created by another model"
    );
    // Through an expression and a user-level post too.
    assert!(matches!(
        b.post(xa[2].lt(xb[0])),
        Err(ModelError::ForeignVar { index: 2, .. })
    ));
    assert!(matches!(
        b.all_different(&[xb[0], xa[1]]),
        Err(ModelError::ForeignVar { index: 1, .. })
    ));
    // The model is left as it was.
    assert_eq!(b.num_constraints(), 1);
}

#[test]
fn handles_from_an_index_belong_to_any_model() {
    let (_a, _xa, mut b, _xb) = twins();
    let x = VarId::from_index(0);
    let y = VarId::from_index(1);
    assert!(x.model().is_none());
    b.not_equal(x, y, 1).unwrap();
    assert_eq!(Search::new(&b).count().unwrap().count, 4);
    // An index past the model's variables is still foreign.
    let e = b.not_equal(x, VarId::from_index(7), 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not-equal: variable v7 does not belong to this model (it has 3 variables)"
    );
}

#[test]
fn handles_stay_small_and_compare_by_index() {
    assert_eq!(std::mem::size_of::<VarId>(), 8);
    let (a, xa, b, xb) = twins();
    assert_eq!(xa[1], xb[1]); // the same index: equal as handles
    assert_eq!(xa[1].model(), Some(a.id()));
    assert_ne!(a.id(), b.id());
    assert_eq!(a.vars().collect::<Vec<_>>(), xa);
}

#[test]
fn an_objective_of_another_model_is_an_error_for_every_optimisation_call() {
    let (a, xa, b, _xb) = twins();
    let _ = a;
    let foreign = xa[2];
    let expect = |r: Result<csp_core::Optimum, SearchError>| {
        let e = r.unwrap_err();
        assert_eq!(
            e,
            SearchError::ForeignVar {
                what: "objective",
                var: foreign,
                num_vars: 3
            }
        );
        assert_eq!(
            e.to_string(),
            "objective: variable v2 was created by another model"
        );
    };
    let mut s = Search::new(&b);
    expect(s.minimize(foreign));
    expect(s.maximize(foreign));
    expect(s.minimize_each(foreign, |_, _| ControlFlow::Continue(())));
    expect(s.maximize_each(foreign, |_, _| ControlFlow::Continue(())));
    expect(s.minimize_lns(foreign, Lns::default()));
    expect(s.maximize_lns(foreign, Lns::default()));
    expect(s.par_minimize(foreign, 2));
    expect(s.par_maximize(foreign, 2));
    // An index past the model's variables.
    let e = s.minimize(VarId::from_index(9)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "objective: variable v9 does not belong to this model (it has 3 variables)"
    );
}

#[test]
fn branching_on_a_variable_of_another_model_is_an_error_for_every_checked_call() {
    let (_a, xa, b, xb) = twins();
    let mut s = Search::new(&b).branch_on(&[xb[0], xa[1]]);
    let expect = |e: SearchError| {
        assert_eq!(
            e,
            SearchError::ForeignVar {
                what: "branch_on",
                var: xa[1],
                num_vars: 3
            }
        )
    };
    expect(s.validate().unwrap_err());
    expect(s.solve().unwrap_err());
    expect(s.count().unwrap_err());
    expect(s.count_up_to(2).unwrap_err());
    expect(s.is_unique().unwrap_err());
    expect(
        s.for_each_solution(|_| ControlFlow::Continue(()))
            .unwrap_err(),
    );
    expect(s.par_count(2).unwrap_err());
    expect(s.par_solutions(2).unwrap_err());
    expect(s.minimize(xb[0]).unwrap_err());
    // The struct form is checked the same way.
    let opts = SearchOptions {
        decision_vars: vec![VarId::from_index(5)],
        ..SearchOptions::default()
    };
    let e = Search::new(&b).options(opts).count().unwrap_err();
    assert_eq!(
        e.to_string(),
        "branch_on: variable v5 does not belong to this model (it has 3 variables)"
    );
}

#[test]
fn phases_longer_than_the_decision_variables_are_an_error() {
    let (_a, _xa, b, xb) = twins();
    let opts = SearchOptions {
        decision_vars: xb.clone(),
        phases: vec![2, 2],
        ..SearchOptions::default()
    };
    let e = Search::new(&b).options(opts).solve().unwrap_err();
    assert!(
        matches!(e, SearchError::Invalid { what: "phases", .. }),
        "{e}"
    );
}

#[test]
fn an_empty_sum_is_an_error_when_posted() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let empty = ModelError::EmptyScope {
        constraint: "linear",
        what: "the sum",
    };
    assert_eq!(m.linear(&[], Relation::Eq, 3), Err(empty.clone()));
    assert_eq!(m.linear(&[], Relation::Le, 0), Err(empty.clone()));
    let none: [VarId; 0] = [];
    assert_eq!(m.post(sum(none).eq(3)), Err(empty));
    assert_eq!(m.num_constraints(), 0);
    // Terms that cancel out are a constant comparison: accepted when
    // posted (generated models write them), named by the checked
    // searches when false.
    let c = m.post((x - x).eq(1)).unwrap();
    m.post((x - x).eq(0)).unwrap(); // true: harmless
    match Search::new(&m).count() {
        Err(SearchError::EmptyScope { constraint, name }) => {
            assert_eq!((constraint, name.as_str()), (c, "linear"));
        }
        other => panic!("{other:?}"),
    }
    // Every entry point refuses it the same way.
    assert!(Search::new(&m).solve().is_err());
    assert!(Search::new(&m).solutions().is_err());
    assert!(Search::new(&m).is_unique().is_err());
    assert!(Search::new(&m).par_count(2).is_err());
}

#[test]
fn a_false_constraint_over_no_variables_is_named_before_the_search() {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(0, 2)).unwrap();
    m.all_different(&xs).unwrap();
    // A count over nothing: |{}| = 2 can never hold.
    let c = m.count(&[], 1, Relation::Eq, 2).unwrap();
    let e = Search::new(&m).count().unwrap_err();
    assert_eq!(
        e,
        SearchError::EmptyScope {
            constraint: c,
            name: m.constraint(c).name().to_string()
        }
    );
    assert!(
        e.to_string().starts_with(&format!("constraint {c} (")),
        "{e}"
    );
    let cost = xs[0];
    assert!(matches!(
        Search::new(&m).minimize(cost),
        Err(SearchError::EmptyScope { .. })
    ));
}

#[test]
fn a_true_constraint_over_no_variables_changes_nothing() {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(0, 2)).unwrap();
    m.all_different(&xs).unwrap();
    m.all_different(&[]).unwrap(); // vacuous
    m.count(&[], 1, Relation::Le, 0).unwrap(); // |{}| ≤ 0 holds
    assert_eq!(Search::new(&m).count().unwrap().count, 6);
}

#[test]
fn one_search_runs_many_times() {
    let mut m = Model::new();
    let xs = m.new_vars(4, Domain::range(1, 4)).unwrap();
    m.all_different(&xs).unwrap();
    let total = m.define(sum([xs[0], xs[1]])).unwrap();
    let mut s = Search::new(&m).branch_on(&xs);
    let a = s.count().unwrap();
    let b = s.count().unwrap();
    assert_eq!((a.count, b.count), (24, 24));
    assert_eq!(a.stats.nodes, b.stats.nodes);
    let first = s.solve().unwrap().solution;
    assert_eq!(first, s.solve().unwrap().solution);
    assert_eq!(s.minimize(total).unwrap().objective, Some(3));
    assert_eq!(s.maximize(total).unwrap().objective, Some(7));
}

#[test]
fn a_proven_optimum_has_its_bound_and_no_gap() {
    let mut m = Model::new();
    let [x, y] = m.new_array(Domain::range(0, 9)).unwrap();
    m.post((x + y).ge(7)).unwrap();
    let cost = m.define(3 * x + 2 * y).unwrap();
    let r = Search::new(&m).minimize(cost).unwrap();
    assert!(r.proven && r.is_optimal());
    assert_eq!(
        (r.objective, r.bound, r.gap()),
        (Some(14), Some(14), Some(0.0))
    );
    assert_eq!(r.to_string(), "optimal: 14");
    let r = Search::new(&m).maximize(cost).unwrap();
    assert_eq!((r.objective, r.bound, r.proven), (Some(45), Some(45), true));
}

#[test]
fn an_interrupted_optimisation_says_how_good_its_answer_is() {
    // Ten variables, all different, cost = Σ (i+1)·x_i: the first solution
    // is far from the optimum, and 30 nodes do not prove anything.
    let mut m = Model::new();
    let xs = m.new_vars(10, Domain::range(0, 9)).unwrap();
    m.all_different(&xs).unwrap();
    let cost = m
        .define(sum(xs.iter().enumerate().map(|(i, &x)| (i as i32 + 1) * x)))
        .unwrap();
    let declared_min = m.domain(cost).min().unwrap();
    let r = Search::new(&m)
        .var_order(csp_core::VarOrder::Input)
        .node_limit(30)
        .minimize(cost)
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
    let (v, b) = (r.objective.unwrap(), r.bound.unwrap());
    assert!(!r.proven);
    assert_eq!(b, declared_min);
    assert!(b < v);
    let gap = r.gap().unwrap();
    assert!(gap > 0.0 && gap <= 1.0, "{gap}");
    let shown = r.to_string();
    assert!(
        shown.starts_with(&format!(
            "best found: {v} (stopped by the node limit, not proven optimal; bound {b}, gap "
        )),
        "{shown}"
    );
    // LNS settles its bound the same way.
    let r = Search::new(&m)
        .minimize_lns(
            cost,
            Lns {
                iterations: 3,
                nodes: 20,
                ..Lns::default()
            },
        )
        .unwrap();
    assert!(!r.proven);
    assert_eq!(r.bound, Some(declared_min));
}

#[test]
fn no_solution_means_no_bound() {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(0, 1)).unwrap();
    m.all_different(&xs).unwrap();
    let r = Search::new(&m).minimize(xs[0]).unwrap();
    assert_eq!(r.outcome, Outcome::Unsatisfiable);
    assert_eq!(
        (r.objective, r.bound, r.gap(), r.proven),
        (None, None, None, false)
    );
}

#[test]
fn results_print_readably() {
    let mut m = Model::new();
    let xs = m.new_vars(3, Domain::range(1, 3)).unwrap();
    m.all_different(&xs).unwrap();
    let r = Search::new(&m).solve().unwrap();
    assert!(
        r.to_string()
            .starts_with("solved: 1 2 3; solutions: 1, nodes: "),
        "{r}"
    );
    let r = Search::new(&m).count().unwrap();
    assert!(
        r.to_string()
            .starts_with("6 solutions (solved); solutions: 6, "),
        "{r}"
    );
    let r = Search::new(&m).count_up_to(1).unwrap();
    assert!(
        r.to_string()
            .starts_with("at least 1 solution (stopped (solution limit)); "),
        "{r}"
    );
    let mut u = Model::new();
    let ys = u.new_vars(3, Domain::range(0, 1)).unwrap();
    u.all_different(&ys).unwrap();
    let r = Search::new(&u).solve().unwrap();
    assert!(
        r.to_string().starts_with("unsatisfiable; solutions: 0"),
        "{r}"
    );
}
