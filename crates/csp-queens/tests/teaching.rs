//! The teaching solvers against the generic engine: the same solution
//! counts for n = 0..=10 (the engine model of `csp_queens::model`), the
//! same solutions in the same (lexicographic) order, and every solution a
//! local search returns checked by the independent checker of `verify`.

use std::ops::ControlFlow;

use csp_core::{Inference, Search, SearchOptions, VarOrder};
use csp_queens::model::{self, queens_model, ModelKind};
use csp_queens::teaching::{
    bits, brute_nn, brute_perm, forward, genetic, min_conflicts, sets, stack, Run, CLOCK_EVERY,
};
use csp_queens::trace::{TraceLine, Tracer};
use csp_queens::verify;

/// The engine's count of `n` queens (all-different model, forward checking).
fn engine_count(n: usize) -> u128 {
    let o = SearchOptions {
        inference: Inference::ForwardChecking,
        var_order: VarOrder::Input,
        ..Default::default()
    };
    model::count(n, ModelKind::AllDifferent, &o, 1)
        .unwrap()
        .count
}

/// Every solution of the engine, in its order (rows in order, columns
/// ascending: lexicographic).
fn engine_solutions(n: usize) -> Vec<Vec<u32>> {
    let q = queens_model(n, ModelKind::AllDifferent).unwrap();
    let mut all = Vec::new();
    Search::new(&q.model)
        .var_order(VarOrder::Input)
        .for_each_solution(|s| {
            all.push(q.columns(s));
            ControlFlow::Continue(())
        })
        .unwrap();
    all
}

/// The solutions a teaching solver hands over, and its node count.
fn collect(solve: impl FnOnce(&mut Run)) -> (Vec<Vec<u32>>, u64) {
    let mut got = Vec::new();
    let nodes;
    {
        let mut run = Run::new(None, |c: &[u32]| {
            got.push(c.to_vec());
            ControlFlow::Continue(())
        });
        solve(&mut run);
        assert!(!run.timed_out());
        nodes = run.nodes();
    }
    (got, nodes)
}

type Exact = (&'static str, fn(usize, &mut Run));

fn exact_solvers() -> Vec<Exact> {
    vec![
        ("sets", sets::solve),
        ("stack", |n, r| stack::solve(n, r, None)),
        ("bits", bits::solve),
        ("brute-perm", brute_perm::solve),
        ("forward", |n, r| forward::solve(n, r, None)),
    ]
}

#[test]
fn exact_solvers_agree_with_the_engine_for_n_up_to_10() {
    for n in 0..=10 {
        let want = engine_solutions(n);
        assert_eq!(want.len() as u128, engine_count(n), "n = {n}");
        for (name, solve) in exact_solvers() {
            let (got, nodes) = collect(|r| solve(n, r));
            assert_eq!(got.len(), want.len(), "{name}, n = {n}: count");
            assert_eq!(got, want, "{name}, n = {n}: solutions or their order");
            assert!(nodes > 0 || n == 0, "{name}, n = {n}: no nodes");
        }
    }
}

#[test]
fn brute_force_over_n_to_the_n_agrees_up_to_8() {
    // 9⁹ and 10¹⁰ placements take minutes; the count itself is checked
    // against the engine up to n = 8 (8⁸ = 16.8 million placements).
    for n in 0..=8 {
        let (got, nodes) = collect(|r| brute_nn::solve(n, r));
        assert_eq!(got, engine_solutions(n), "n = {n}");
        assert_eq!(
            u128::from(nodes),
            (n as u128).pow(n as u32),
            "n = {n}: nⁿ tests"
        );
    }
}

#[test]
fn node_counts_follow_their_definitions() {
    // sets, stack and bits all count the queens put on free squares: the
    // same tree, so the same count; the permutation brute force tests n!.
    for n in 1..=9 {
        let counts: Vec<u64> = exact_solvers()[..3]
            .iter()
            .map(|(_, s)| collect(|r| s(n, r)).1)
            .collect();
        assert!(
            counts.iter().all(|&c| c == counts[0]),
            "n = {n}: {counts:?}"
        );
        let factorial: u64 = (1..=n as u64).product();
        assert_eq!(collect(|r| brute_perm::solve(n, r)).1, factorial);
    }
    // 8 queens: 2,056 queens put on free squares for all 92 solutions
    // (the classic 2,057 nodes of the tree, less the empty board).
    let (_, nodes) = collect(|r| sets::solve(8, r));
    assert_eq!(nodes, 2056);
}

#[test]
fn a_deadline_stops_a_search_and_says_so() {
    let past = std::time::Instant::now();
    let mut run = Run::new(Some(past), |_| ControlFlow::Continue(()));
    brute_nn::solve(10, &mut run);
    assert!(run.timed_out());
    // The clock is read every CLOCK_EVERY steps of work: a placement of
    // 10 queens costs 10² steps to test, a bitboard node one.
    assert_eq!(
        run.nodes(),
        CLOCK_EVERY.div_ceil(100),
        "brute force reads the clock by the work it has done"
    );
    let mut run = Run::new(Some(past), |_| ControlFlow::Continue(()));
    bits::solve(14, &mut run);
    assert!(run.timed_out());
    assert_eq!(run.nodes(), CLOCK_EVERY, "one step a bitboard node");
}

#[test]
fn stopping_at_the_first_solution() {
    for (name, solve) in exact_solvers() {
        let (got, _) = {
            let mut first = Vec::new();
            let mut run = Run::new(None, |c: &[u32]| {
                first.push(c.to_vec());
                ControlFlow::Break(())
            });
            solve(8, &mut run);
            let nodes = run.nodes();
            drop(run);
            (first, nodes)
        };
        assert_eq!(got, vec![vec![0, 4, 7, 5, 2, 6, 1, 3]], "{name}");
    }
}

#[test]
fn local_searches_return_only_checked_solutions() {
    for n in 0..=10 {
        for seed in 1..=5 {
            for (name, found) in [
                ("min-conflicts", {
                    let (got, _) = collect(|r| {
                        min_conflicts::solve(n, seed, 10_000, r);
                    });
                    got
                }),
                ("genetic", {
                    let (got, _) = collect(|r| {
                        genetic::solve(n, seed, 2_000, r);
                    });
                    got
                }),
            ] {
                assert!(found.len() <= 1, "{name}: one solution at most");
                for cols in &found {
                    assert_eq!(cols.len(), n);
                    assert!(
                        verify::check(cols).is_solution(),
                        "{name}, n = {n}: {cols:?}"
                    );
                }
                // n = 2 and 3 have no solution; the others are found.
                assert_eq!(
                    found.len(),
                    usize::from(n != 2 && n != 3),
                    "{name}, n = {n}, seed {seed}"
                );
            }
        }
    }
}

#[test]
fn genetic_fitness_counts_attacking_pairs() {
    assert_eq!(genetic::attacking_pairs(&[1, 3, 0, 2]), 0);
    assert_eq!(genetic::attacking_pairs(&[0, 1, 2, 3]), 6);
    assert_eq!(genetic::attacking_pairs(&[0, 0]), 1);
}

#[test]
fn next_permutation_visits_all_in_order() {
    let mut p = vec![0, 1, 2];
    let mut seen = vec![p.clone()];
    while brute_perm::next_permutation(&mut p) {
        seen.push(p.clone());
    }
    let want: Vec<Vec<u32>> = vec![
        vec![0, 1, 2],
        vec![0, 2, 1],
        vec![1, 0, 2],
        vec![1, 2, 0],
        vec![2, 0, 1],
        vec![2, 1, 0],
    ];
    assert_eq!(seen, want);
}

#[test]
fn the_stack_solver_prints_the_engine_tree_without_inference() {
    // (n = 1 differs: the engine sees the one-column domain as fixed and
    // prints only `(1) solution`.)
    for n in 2..=6 {
        let mut engine = Vec::new();
        {
            let q = queens_model(n, ModelKind::AllDifferent).unwrap();
            let mut t = Tracer::new(n, |l: &TraceLine| engine.push(l.render()));
            Search::new(&q.model)
                .var_order(VarOrder::Input)
                .inference(Inference::None)
                .observer(&mut t)
                .solve()
                .unwrap();
            t.finish();
        }
        let mut ours = Vec::new();
        let mut show = |l: &TraceLine| ours.push(l.render());
        let mut run = Run::new(None, |_| ControlFlow::Break(()));
        stack::solve(n, &mut run, Some(&mut show));
        drop(run);
        assert_eq!(ours, engine, "n = {n}");
    }
}

#[test]
fn forward_checking_shows_the_domains() {
    let mut lines = Vec::new();
    let mut show = |l: &TraceLine, d: &[Vec<u32>]| {
        lines.push(format!(
            "{}  {}",
            l.render(),
            forward::describe_domains(l.depth, d)
        ));
    };
    let mut run = Run::new(None, |_| ControlFlow::Break(()));
    forward::solve(4, &mut run, Some(&mut show));
    drop(run);
    assert_eq!(
        lines[0],
        "(* * * *)  q1 {1 2 3 4}  q2 {1 2 3 4}  q3 {1 2 3 4}  q4 {1 2 3 4}"
    );
    assert_eq!(lines[1], "  (1 * * *)  q2 {3 4}  q3 {2 4}  q4 {2 3}");
    // (1 3) leaves row 3 nothing: refuted before any queen goes on row 3.
    assert_eq!(lines[2], "    (1 3 * *) x  q3 {}  q4 = 2 (forced)");
    assert!(
        lines.last().unwrap().ends_with("(2 4 1 3) solution  "),
        "{lines:#?}"
    );
}
