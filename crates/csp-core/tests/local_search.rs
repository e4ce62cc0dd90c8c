//! Local search on ordinary models: min-conflicts and the genetic search.

use std::time::Duration;

use csp_core::{
    CancelToken, Constraint, Domain, Genetic, Init, Limit, LocalError, MinConflicts, Model, Move,
    Outcome, Value, VarId,
};

/// N-queens as a user writes it: one variable per row holding the column,
/// all different over `x`, `x + i` and `x − i`.
fn queens(n: usize) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let rows: Vec<i32> = (0..n as i32).collect();
    let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &rows).unwrap();
    m.all_different_offset(&q, &neg).unwrap();
    (m, q)
}

/// An independent O(n) queens check: columns in range, one queen per
/// column and per diagonal.
fn is_queens_solution(cols: &[Value]) -> bool {
    let n = cols.len();
    let mut col = vec![false; n];
    let mut up = vec![false; 2 * n];
    let mut down = vec![false; 2 * n];
    for (r, &c) in cols.iter().enumerate() {
        if c < 0 || c as usize >= n {
            return false;
        }
        let c = c as usize;
        let (a, b) = (r + c, r + n - c);
        if col[c] || up[a] || down[b] {
            return false;
        }
        (col[c], up[a], down[b]) = (true, true, true);
    }
    true
}

#[test]
fn queens_with_swap_moves_are_solved_and_verified() {
    for n in [8, 50, 1000, 100_000] {
        let (m, _) = queens(n);
        let r = MinConflicts::new(&m)
            .seed(11)
            .moves(Move::Swap)
            .max_steps(1_000_000)
            .run()
            .unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "n = {n}: {r}");
        assert_eq!(r.violations, 0);
        assert_eq!(r.violated_constraints, 0);
        let s = r.solution.expect("solved runs carry the solution");
        assert_eq!(s.values(), &r.assignment[..]);
        assert!(is_queens_solution(&r.assignment), "n = {n}");
    }
}

#[test]
fn queens_with_change_moves_are_solved() {
    for (n, init) in [(8, Init::Greedy), (50, Init::Random), (200, Init::Greedy)] {
        let (m, _) = queens(n);
        let r = MinConflicts::new(&m)
            .seed(5)
            .init(init)
            .max_steps(200_000)
            .run()
            .unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "n = {n}: {r}");
        assert!(is_queens_solution(&r.assignment));
    }
}

#[test]
fn random_permutation_start_is_repaired_too() {
    let (m, _) = queens(1000);
    let r = MinConflicts::new(&m)
        .seed(3)
        .moves(Move::Swap)
        .init(Init::Random)
        .max_steps(1_000_000)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(r.steps > 100, "a random start has many conflicts: {r}");
    assert!(is_queens_solution(&r.assignment));
}

#[test]
fn swap_moves_on_models_outside_the_fast_path() {
    // One extra constraint (always true) takes queens off the fused path.
    let (mut m, q) = queens(60);
    m.predicate(&[q[0], q[1]], "anything", |_| true).unwrap();
    let r = MinConflicts::new(&m)
        .seed(2)
        .moves(Move::Swap)
        .max_steps(100_000)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(is_queens_solution(&r.assignment[..60]));

    // Two permutation groups with different domains.
    let mut m = Model::new();
    let a = m.new_vars(5, Domain::range(1, 5)).unwrap();
    let b = m.new_vars(3, Domain::values([10, 20, 30])).unwrap();
    for i in 0..4 {
        m.linear(&[(1, a[i]), (-1, a[i + 1])], csp_core::Relation::Le, -1)
            .unwrap(); // increasing
    }
    m.linear(&[(1, b[0]), (1, b[1])], csp_core::Relation::Eq, 50)
        .unwrap();
    let r = MinConflicts::new(&m)
        .seed(9)
        .moves(Move::Swap)
        .max_steps(100_000)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    let s = r.solution.unwrap();
    assert_eq!(s.values_of(&a), vec![1, 2, 3, 4, 5]);
    assert_eq!(s[b[2]], 10);
}

#[test]
fn same_seed_same_run_and_seeds_differ() {
    let (m, _) = queens(1000);
    let run = |seed| {
        MinConflicts::new(&m)
            .seed(seed)
            .moves(Move::Swap)
            .max_steps(100_000)
            .run()
            .unwrap()
    };
    let (a, b) = (run(42), run(42));
    assert_eq!(a.assignment, b.assignment);
    assert_eq!((a.steps, a.restarts), (b.steps, b.restarts));
    let others: Vec<_> = (0..4).map(|s| run(s).assignment).collect();
    assert!(others.iter().any(|x| *x != a.assignment));

    // The generic engine too.
    let (m, _) = queens(30);
    let run = |seed| {
        MinConflicts::new(&m)
            .seed(seed)
            .max_steps(50_000)
            .run()
            .unwrap()
    };
    assert_eq!(run(7).assignment, run(7).assignment);
}

/// The Petersen graph: outer 5-cycle, inner pentagram, five spokes.
fn petersen() -> Vec<(usize, usize)> {
    let mut e = Vec::new();
    for i in 0..5 {
        e.push((i, (i + 1) % 5));
        e.push((5 + i, 5 + (i + 2) % 5));
        e.push((i, 5 + i));
    }
    e
}

fn coloring(vertices: usize, edges: &[(usize, usize)], colors: i32) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let v = m.new_vars(vertices, Domain::range(0, colors - 1)).unwrap();
    for &(a, b) in edges {
        m.not_equal(v[a], v[b], 0).unwrap();
    }
    (m, v)
}

#[test]
fn graph_coloring_with_change_moves() {
    let edges = petersen();
    let (m, v) = coloring(10, &edges, 3);
    for seed in 0..10 {
        let r = MinConflicts::new(&m)
            .seed(seed)
            .init(Init::Random)
            .max_steps(100_000)
            .run()
            .unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "seed {seed}: {r}");
        let s = r.solution.unwrap();
        assert!(edges.iter().all(|&(a, b)| s[v[a]] != s[v[b]]));
    }
    // Two colors do not suffice (the outer cycle is odd): the search stops
    // at the step limit with the best it found.
    let (m, _) = coloring(10, &edges, 2);
    let r = MinConflicts::new(&m).seed(1).max_steps(5000).run().unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Steps));
    assert!(r.solution.is_none());
    assert!(r.violations >= 1);
    assert_eq!(r.violations as usize, r.violated_constraints);
}

#[test]
fn map_coloring_of_australia() {
    let names = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let borders = [
        (0, 1),
        (0, 2),
        (1, 2),
        (1, 3),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 4),
        (4, 5),
    ];
    let mut m = Model::new();
    let v: Vec<VarId> = names
        .iter()
        .map(|n| m.new_var_named(n, Domain::range(0, 2)).unwrap())
        .collect();
    for &(a, b) in &borders {
        m.not_equal(v[a], v[b], 0).unwrap();
    }
    let r = MinConflicts::new(&m)
        .seed(4)
        .max_steps(10_000)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(m.check(&r.assignment).is_ok());
}

#[test]
fn unsatisfiable_model_reaches_the_limit_without_a_solution() {
    let mut m = Model::new();
    let x = m.new_vars(3, Domain::range(0, 1)).unwrap();
    m.all_different(&x).unwrap();
    let r = MinConflicts::new(&m)
        .seed(1)
        .max_steps(1000)
        .restarts(3)
        .plateau(100)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Steps));
    assert!(r.solution.is_none());
    assert_eq!(r.violations, 1); // two of the three share a value
    assert_eq!(r.violated_constraints, 1);
    assert_eq!(r.steps, 1000);
    assert_eq!(r.restarts, 3);
    // Swap moves need as many variables as values.
    let e = MinConflicts::new(&m).moves(Move::Swap).run().unwrap_err();
    assert_eq!(
        e,
        LocalError::NotPermutation {
            var: x[0],
            vars: 3,
            values: 2
        }
    );
    assert!(e.to_string().contains("permutation"));
}

#[test]
fn step_limit_is_respected() {
    let (m, _) = queens(500);
    for (limit, moves) in [0, 1, 3, 20]
        .into_iter()
        .flat_map(|l| [(l, Move::Change), (l, Move::Swap)])
    {
        let r = MinConflicts::new(&m)
            .seed(8)
            .init(Init::Random)
            .moves(moves)
            .max_steps(limit)
            .run()
            .unwrap();
        assert_eq!(r.steps, limit);
        assert_eq!(r.outcome, Outcome::LimitReached(Limit::Steps));
        assert!(r.violations > 0 && r.solution.is_none());
        // The reported violations are those of the reported assignment.
        assert_eq!(r.violations, queens_collisions(&r.assignment));
    }
}

/// Σ over columns and diagonals of (queens − 1)⁺, computed independently.
fn queens_collisions(cols: &[Value]) -> u64 {
    let n = cols.len();
    let mut c = vec![0u64; n];
    let mut up = vec![0u64; 2 * n];
    let mut down = vec![0u64; 2 * n];
    for (r, &x) in cols.iter().enumerate() {
        let x = x as usize;
        c[x] += 1;
        up[r + x] += 1;
        down[r + n - x] += 1;
    }
    [c, up, down]
        .iter()
        .flatten()
        .map(|&k| k.saturating_sub(1))
        .sum()
}

#[test]
fn cancel_token_and_time_limit_stop_a_hopeless_run() {
    let mut m = Model::new();
    let x = m.new_vars(3, Domain::range(0, 1)).unwrap();
    m.all_different(&x).unwrap();

    let token = CancelToken::new();
    token.cancel();
    let r = MinConflicts::new(&m).cancel(token).run().unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled));
    assert!(r.solution.is_none());

    let token = CancelToken::new();
    let remote = token.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        remote.cancel();
    });
    let r = MinConflicts::new(&m).cancel(token).run().unwrap();
    t.join().unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled));
    assert!(r.steps > 0);

    // Three variables, two values, all different: hopeless, so only the
    // limit ends it (how soon depends on the machine; not asserted).
    let r = MinConflicts::new(&m)
        .time_limit(Duration::from_millis(30))
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Time));

    // A cancelled token also stops the fused permutation engine.
    let (m, _) = queens(10_000);
    let token = CancelToken::new();
    token.cancel();
    let r = MinConflicts::new(&m)
        .moves(Move::Swap)
        .cancel(token)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled));
    assert!(r.solution.is_none());
    let mut sorted = r.assignment.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        (0..10_000).collect::<Vec<_>>(),
        "still a permutation"
    );
}

#[test]
fn user_constraints_use_the_checker_defaults() {
    /// `x + y + z` is even, checker only.
    #[derive(Debug)]
    struct EvenSum(Vec<VarId>);
    impl Constraint for EvenSum {
        fn scope(&self) -> &[VarId] {
            &self.0
        }
        fn is_satisfied(&self, v: &[Value]) -> bool {
            v.iter().sum::<Value>() % 2 == 0
        }
    }
    let mut m = Model::new();
    let v = m.new_vars(6, Domain::range(0, 5)).unwrap();
    m.post(EvenSum(v[..3].to_vec())).unwrap();
    m.post(EvenSum(vec![v[2], v[3], v[3]])).unwrap(); // a repeated variable
    m.all_different(&v).unwrap();
    m.linear(&[(1, v[0]), (1, v[5])], csp_core::Relation::Eq, 5)
        .unwrap();
    m.predicate(&[v[4]], "odd", |x| x[0] % 2 == 1).unwrap();
    let r = MinConflicts::new(&m)
        .seed(3)
        .max_steps(100_000)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(m.check(&r.assignment).is_ok());
}

#[test]
fn a_constraint_whose_violations_disagree_with_its_checker_is_reported() {
    #[derive(Debug)]
    struct Liar([VarId; 1]);
    impl Constraint for Liar {
        fn scope(&self) -> &[VarId] {
            &self.0
        }
        fn is_satisfied(&self, _: &[Value]) -> bool {
            false
        }
        fn violations(&self, _: &[Value]) -> u64 {
            0
        }
    }
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 3)).unwrap();
    let c = m.post(Liar([x])).unwrap();
    let e = MinConflicts::new(&m).max_steps(10).run().unwrap_err();
    assert!(matches!(e, LocalError::InconsistentViolations { constraint, .. } if constraint == c));
}

#[test]
fn genetic_solves_eight_queens() {
    let (m, _) = queens(8);
    let r = Genetic::new(&m)
        .moves(Move::Swap)
        .population(100)
        .generations(1000)
        .seed(1)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(is_queens_solution(&r.assignment));
    assert!(r.evaluations >= 100);
    // Same seed, same run.
    let again = Genetic::new(&m)
        .moves(Move::Swap)
        .population(100)
        .generations(1000)
        .seed(1)
        .run()
        .unwrap();
    assert_eq!(r.assignment, again.assignment);
    assert_eq!(r.generations, again.generations);

    // The change encoding with uniform crossover gets there too.
    let r = Genetic::new(&m)
        .population(200)
        .generations(3000)
        .seed(2)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::Solved, "{r}");
    assert!(is_queens_solution(&r.assignment));
}

#[test]
fn genetic_reports_its_failures_honestly() {
    let (m, _) = queens(40);
    let r = Genetic::new(&m)
        .moves(Move::Swap)
        .population(20)
        .generations(5)
        .seed(1)
        .run()
        .unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Steps));
    assert_eq!(r.generations, 5);
    assert!(r.solution.is_none());
    assert!(r.violations > 0);
    assert_eq!(r.violations, queens_collisions(&r.assignment));
    assert!(r.violated_constraints >= 1);

    for bad in [
        Genetic::new(&m).population(1),
        Genetic::new(&m).mutation_rate(1.5),
        Genetic::new(&m).mutation_rate(f64::NAN),
        Genetic::new(&m).crossover_rate(-0.1),
        Genetic::new(&m).tournament(0),
        Genetic::new(&m).population(4).elite(4),
    ] {
        assert!(matches!(
            bad.run(),
            Err(LocalError::InvalidParameter { .. })
        ));
    }
}

#[test]
fn small_queens_for_many_sizes_seeds_and_starts() {
    for n in 1..=40 {
        let (m, _) = queens(n);
        for seed in 0..6 {
            for (init, moves) in [
                (Init::Greedy, Move::Swap),
                (Init::Random, Move::Swap),
                (Init::Greedy, Move::Change),
                (Init::Random, Move::Change),
            ] {
                let r = MinConflicts::new(&m)
                    .seed(seed)
                    .init(init)
                    .moves(moves)
                    .max_steps(20_000)
                    .run()
                    .unwrap();
                if n == 2 || n == 3 {
                    assert_eq!(r.outcome, Outcome::LimitReached(Limit::Steps));
                    assert_eq!(r.violations, queens_collisions(&r.assignment));
                } else {
                    assert_eq!(
                        r.outcome,
                        Outcome::Solved,
                        "n = {n}, {moves:?}, seed {seed}: {r}"
                    );
                    assert!(is_queens_solution(&r.assignment));
                }
            }
        }
    }
}
