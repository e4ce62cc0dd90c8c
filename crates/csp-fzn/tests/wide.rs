//! FlatZinc models over the whole 32-bit range (issue 32, item 8): the
//! front end posts what the bounds can reason on, never a form the search
//! has to settle value by value. Each model is solved under a node limit
//! and the answer checked, so a regression is a wrong outcome, not a slow
//! test.

use csp_core::{Limits, Outcome, Search, Solution};
use csp_fzn::{build, parse, FznModel, Val};

/// `i`, `j` and `r` over all of MiniZinc's integers, and `constraint`.
fn model(constraint: &str) -> FznModel {
    let w = "-2147483647..2147483646";
    let text = format!(
        "var {w}: i :: output_var;\nvar {w}: j :: output_var;\n\
         var {w}: r :: output_var;\nconstraint {constraint};\nsolve satisfy;\n"
    );
    let items = parse(&text).unwrap_or_else(|e| panic!("{constraint}: {e}"));
    build(&items).unwrap_or_else(|e| panic!("{constraint}: {e}"))
}

/// The values of `i`, `j`, `r` in `s`.
fn ijr(fzn: &FznModel, s: &Solution) -> [i64; 3] {
    ["i", "j", "r"].map(|n| match fzn.lookup(n) {
        Some(Val::Var(x)) => s[*x] as i64,
        other => panic!("{n}: {other:?}"),
    })
}

/// Solves `constraint` within 1,000 nodes: a solution that `holds`
/// accepts, or `None` when the model is unsatisfiable.
fn solve(constraint: &str, holds: impl Fn([i64; 3]) -> bool) -> Option<[i64; 3]> {
    let fzn = model(constraint);
    if fzn.inconsistent {
        return None;
    }
    let (opts, _) = csp_fzn::search::options(&fzn, false, 0);
    let r = Search::new(&fzn.model)
        .options(opts)
        .limits(Limits::none().with_nodes(1000))
        .solve()
        .unwrap();
    match r.outcome {
        Outcome::Solved => {
            let v = ijr(&fzn, &r.solution.expect("a solution"));
            assert!(holds(v), "{constraint}: {v:?}");
            Some(v)
        }
        Outcome::Unsatisfiable => None,
        other => panic!("{constraint}: {other:?} after {} nodes", r.stats.nodes),
    }
}

#[test]
fn int_times_over_the_full_range() {
    assert!(solve("int_times(i, j, r)", |[i, j, r]| i * j == r).is_some());
    // The square: |i| ≤ 46340 from the bounds of r. Posted as i·i' with
    // a copy i' = i, the copy's equality listed 2³² values per call.
    assert!(solve("int_times(i, i, r)", |[i, _, r]| i * i == r).is_some());
    assert!(solve("int_times(i, i, 49)", |[i, _, _]| i * i == 49).is_some());
    assert!(solve("int_times(i, i, i)", |[i, _, _]| i * i == i).is_some());
    assert!(solve("int_times(i, j, i)", |[i, j, _]| i * j == i).is_some());
    assert!(solve("int_times(i, j, 7)", |[i, j, _]| i * j == 7).is_some());
    assert!(solve("int_times(i, i, 50)", |_| false).is_none());
}

#[test]
fn array_element_with_a_wide_index() {
    let solved = |c: &str, a: &[i64]| {
        solve(c, |[i, _, r]| {
            usize::try_from(i - 1).is_ok_and(|k| a.get(k) == Some(&r))
        })
    };
    assert_eq!(
        solved("array_int_element(i, [6], r)", &[6]),
        Some([1, i64::from(i32::MIN) + 1, 6])
    );
    assert!(solved("array_int_element(i, [6, 3, 9], r)", &[6, 3, 9]).is_some());
    // The result repeats the index: i = a[i] has no solution here.
    assert!(solve("array_int_element(i, [6, 3, 9], i)", |_| false).is_none());
    assert!(
        solve("array_var_int_element(i, [j, r], r)", |[i, _, _]| (1..=2)
            .contains(&i))
        .is_some()
    );
}

#[test]
fn div_and_mod_with_repeated_arguments() {
    // x / x = 1 and x mod x = 0 (x ≠ 0), said directly.
    assert!(solve("int_div(i, i, r)", |[i, _, r]| i != 0 && r == 1).is_some());
    assert!(solve("int_mod(i, i, r)", |[i, _, r]| i != 0 && r == 0).is_some());
    assert!(solve("int_div(i, i, i)", |[i, _, _]| i == 1).is_some());
    assert!(solve("int_mod(i, i, i)", |_| false).is_none());
    // |x mod y| < |y|: never y. Through a copy y' = y, the bounds of y
    // shrank by one per propagation round, 2³² rounds.
    assert!(solve("int_mod(j, i, i)", |_| false).is_none());
    assert!(solve("int_mod(j, 5, 5)", |_| false).is_none());
    // x / y = x: y = 1 (or x = 0), found from the bounds |y|·|x| ≤ |x|.
    assert!(solve("int_div(i, j, i)", |[i, j, _]| j != 0 && i / j == i).is_some());
    assert!(solve("int_mod(i, j, i)", |[i, j, _]| j != 0 && i % j == i).is_some());
}
