//! Issue 31, names and arrays: named arrays of any shape, lookups by name
//! in the model and in solutions, indexing a solution by variable, and the
//! model's listing.

use csp_core::{Domain, Lns, MinConflicts, Model, ModelError, Outcome, Search, VarId};

#[test]
fn a_named_grid_is_row_major_and_named_by_position() {
    let mut m = Model::new();
    let before = m.new_var(Domain::range(0, 1)).unwrap();
    let shift = m
        .new_vars_named("shift", [5, 7], Domain::range(0, 3))
        .unwrap();
    assert_eq!(shift.name(), "shift");
    assert_eq!(shift.shape(), &[5, 7]);
    assert_eq!(shift.len(), 35);
    assert_eq!(shift.vars()[0].index(), before.index() + 1);
    for i in 0..5 {
        for j in 0..7 {
            let x = shift[[i, j]];
            assert_eq!(x, shift.vars()[i * 7 + j]);
            let name = format!("shift[{i}][{j}]");
            assert_eq!(m.name(x), Some(name.as_str()));
            assert_eq!(m.var_by_name(&name), Some(x));
        }
    }
    assert_eq!(m.name(before), None);
    // Handles found by name are the model's own.
    assert_eq!(m.var_by_name("shift[3][5]").unwrap().model(), Some(m.id()));
}

#[test]
fn lookups_of_names_that_are_not_there_give_none() {
    let mut m = Model::new();
    m.new_vars_named("a", [2, 3], Domain::range(0, 1)).unwrap();
    m.new_var_named("y", Domain::range(0, 1)).unwrap();
    for bad in [
        "a",
        "a[2][0]",
        "a[0][3]",
        "a[0]",
        "a[0][0][0]",
        "a[-1][0]",
        "a[+1][0]",
        "a[][0]",
        "a[0][0]x",
        "a[0]x[0]",
        "b[0][0]",
        "z",
        "",
    ] {
        assert_eq!(m.var_by_name(bad), None, "{bad}");
    }
    assert!(m.var_by_name("a[1][2]").is_some());
    assert!(m.var_by_name("y").is_some());
}

#[test]
fn arrays_of_one_and_three_dimensions() {
    let mut m = Model::new();
    let q = m.new_vars_named("q", [4], Domain::range(0, 3)).unwrap();
    assert_eq!(m.name(q[[2]]), Some("q[2]"));
    let cube = m
        .new_vars_named("c", [2, 3, 4], Domain::range(0, 1))
        .unwrap();
    assert_eq!(cube.len(), 24);
    assert_eq!(m.name(cube[[1, 2, 3]]), Some("c[1][2][3]"));
    assert_eq!(cube.get(&[1, 0, 2]), Some(cube.vars()[12 + 2]));
    assert_eq!(cube.row(1).unwrap().len(), 12);
    // An empty dimension: no variables, still a name.
    let none = m
        .new_vars_named("none", [3, 0], Domain::range(0, 1))
        .unwrap();
    assert!(none.is_empty());
    assert_eq!(none.row(0), Some(&[][..]));
}

#[test]
fn bad_array_names_are_typed_errors() {
    let mut m = Model::new();
    m.new_vars_named("a", [2], Domain::range(0, 1)).unwrap();
    for (name, why) in [
        ("", "is not an array name"),
        ("b[1]", "is not an array name"),
        ("c]", "is not an array name"),
        ("a", "an array named `a` exists already"),
    ] {
        match m.new_vars_named(name, [2], Domain::range(0, 1)) {
            Err(ModelError::Invalid { constraint, reason }) => {
                assert_eq!(constraint, "new_vars_named");
                assert!(reason.contains(why), "{name}: {reason}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    assert_eq!(
        m.new_vars_named("e", [2], Domain::values([])),
        Err(ModelError::EmptyDomain { name: None })
    );
    assert!(matches!(
        m.new_vars_named("huge", [1 << 20, 1 << 20], Domain::range(0, 1)),
        Err(ModelError::TooManyVariables { .. })
    ));
    assert_eq!(m.num_vars(), 2); // nothing added by the failures
}

#[test]
fn solutions_read_by_name_and_by_handle_from_every_search() {
    let mut m = Model::new();
    let y = m.new_var_named("y", Domain::range(0, 2)).unwrap();
    let on = m.new_vars_named("on", [2, 2], Domain::range(0, 2)).unwrap();
    for d in 0..2 {
        m.all_different(on.row(d).unwrap()).unwrap();
    }
    m.post(y.eq(on[[1, 1]])).unwrap();
    let check = |s: &csp_core::Solution| {
        assert_eq!(s.get("y"), Some(s[y]));
        assert_eq!(s["on[1][1]"], s[&on[[1, 1]]]);
        assert_eq!(s.get("on[1][1]"), Some(s.value(on[[1, 1]])));
        assert_eq!(s.values_of(&on).len(), 4);
        assert_eq!(s.get("nope"), None);
    };
    check(&Search::new(&m).solve().unwrap().solution.unwrap());
    for s in Search::new(&m).solutions().unwrap() {
        check(&s);
    }
    let (all, _) = Search::new(&m).par_solutions(2).unwrap();
    all.iter().for_each(check);
    check(&Search::new(&m).minimize(y).unwrap().best.unwrap());
    check(&Search::new(&m).par_maximize(y, 2).unwrap().best.unwrap());
    check(
        &Search::new(&m)
            .minimize_lns(
                y,
                Lns {
                    iterations: 3,
                    ..Lns::default()
                },
            )
            .unwrap()
            .best
            .unwrap(),
    );
    let r = MinConflicts::new(&m).seed(1).run().unwrap();
    assert_eq!(r.outcome, Outcome::Solved);
    check(&r.solution.unwrap());
}

#[test]
fn solutions_compare_by_values_only() {
    let mut a = Model::new();
    a.new_vars_named("x", [2], Domain::range(1, 1)).unwrap();
    let mut b = Model::new();
    b.new_vars(2, Domain::range(1, 1)).unwrap();
    let sa = Search::new(&a).solve().unwrap().solution.unwrap();
    let sb = Search::new(&b).solve().unwrap().solution.unwrap();
    assert_eq!(sa, sb);
    assert_eq!(sb.get("x[0]"), None);
}

#[test]
#[should_panic(expected = "no variable named `zz`")]
fn indexing_a_solution_by_an_unknown_name_panics_like_a_slice() {
    let mut m = Model::new();
    m.new_var_named("y", Domain::range(0, 1)).unwrap();
    let s = Search::new(&m).solve().unwrap().solution.unwrap();
    let _ = s["zz"];
}

#[test]
fn the_model_lists_its_variables_and_constraints_by_name() {
    let mut m = Model::new();
    let x = m.new_var_named("x", Domain::range(1, 3)).unwrap();
    let grid = m.new_vars_named("g", [2, 2], Domain::range(0, 9)).unwrap();
    let z = m.new_var(Domain::values([1, 5])).unwrap();
    let wide = m.new_vars(10, Domain::range(0, 20)).unwrap();
    m.all_different(&grid).unwrap();
    m.all_different(&wide).unwrap();
    m.not_equal(x, z, 0).unwrap();
    // A changed element splits its array's line into one per element.
    let other = m.new_vars_named("h", [2], Domain::range(0, 4)).unwrap();
    m.restrict(other[[1]], &Domain::range(0, 2)).unwrap();
    let shown = m.to_string();
    let expected = "\
model: 18 variables, 3 constraints
x in 1..=3
g[2][2] in 0..=9
v5 in {1, 5}
v6 in 0..=20
v7 in 0..=20
v8 in 0..=20
v9 in 0..=20
v10 in 0..=20
v11 in 0..=20
v12 in 0..=20
v13 in 0..=20
v14 in 0..=20
v15 in 0..=20
h[0] in 0..=4
h[1] in 0..=2
c0: all-different(g[0][0], g[0][1], g[1][0], g[1][1])
c1: all-different(v6, v7, v8, v9, v10, v11, v12, v13, … (2 more))
c2: not-equal(x, v5)
";
    assert_eq!(shown, expected);
    let _ = VarId::from_index(0);
}

#[test]
fn a_name_given_after_a_lookup_is_found() {
    // The lookup by name is built at the first lookup; naming more
    // variables afterwards must not leave it stale.
    let mut m = csp_core::Model::new();
    let a = m.new_var_named("a", csp_core::Domain::range(0, 3)).unwrap();
    assert_eq!(m.var_by_name("a"), Some(a));
    assert_eq!(m.var_by_name("b"), None);
    let b = m.new_var_named("b", csp_core::Domain::range(0, 3)).unwrap();
    assert_eq!(m.var_by_name("b"), Some(b));
    // A repeated name finds the first variable that had it.
    m.new_var_named("a", csp_core::Domain::range(0, 3)).unwrap();
    assert_eq!(m.var_by_name("a"), Some(a));
}
