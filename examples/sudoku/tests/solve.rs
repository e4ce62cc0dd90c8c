//! Known answers through the engine: every puzzle of top95, hardest and the two
//! 16×16 puzzles has exactly one solution, and each solution passes the
//! independent checker.

use std::time::Instant;

use csp_core::constraint::Consistency;
use csp_sudoku::model::{self, Uniqueness};
use csp_sudoku::{check_solution, parse, Grid};

fn load(name: &str) -> Vec<Grid> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse::parse_puzzles(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn all_unique(name: &str, expected: usize) {
    all_unique_with(name, expected, Consistency::Value);
}

/// Checks every puzzle of `name` is unique with all-different at `level`;
/// returns the nodes to the first solutions.
fn all_unique_with(name: &str, expected: usize, level: Consistency) -> u64 {
    let grids = load(name);
    assert_eq!(grids.len(), expected);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, grid) in grids.iter().enumerate() {
        match model::is_unique_with(grid, &model::options(), level) {
            Uniqueness::Unique(solution) => {
                check_solution(grid, &solution)
                    .unwrap_or_else(|e| panic!("{name} puzzle {}: {e}", i + 1));
            }
            other => panic!("{name} puzzle {}: {other:?}", i + 1),
        }
        nodes += model::solve_with(grid, &model::options(), level)
            .stats
            .nodes;
    }
    eprintln!(
        "{name} ({level}): {expected} puzzles unique, {:.3} s (proofs and solves), {nodes} nodes to first solutions",
        start.elapsed().as_secs_f64()
    );
    nodes
}

#[test]
fn every_alldiff_strength_proves_top95_and_16x16() {
    let value = all_unique_with("top95.txt", 95, Consistency::Value);
    let bounds = all_unique_with("top95.txt", 95, Consistency::Bounds);
    let domain = all_unique_with("top95.txt", 95, Consistency::Domain);
    // Domain consistency subsumes the others' pruning: never more nodes
    // (the same first-fail order sees smaller domains).
    assert!(domain <= value, "domain {domain} > value {value}");
    assert!(domain <= bounds, "domain {domain} > bounds {bounds}");
    for level in [Consistency::Bounds, Consistency::Domain] {
        all_unique_with("16x16.txt", 2, level);
        all_unique_with("hardest.txt", 11, level);
    }
}

#[test]
fn top95_has_exactly_one_solution_each() {
    all_unique("top95.txt", 95);
}

#[test]
fn hardest_has_exactly_one_solution_each() {
    all_unique("hardest.txt", 11);
}

#[test]
fn the_16x16_puzzles_have_exactly_one_solution_each() {
    all_unique("16x16.txt", 2);
}

#[test]
fn the_first_top95_solution() {
    let grid = &load("top95.txt")[0];
    let solved = model::solve(grid, &model::options());
    assert_eq!(
        solved.solution.unwrap().to_string(),
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    );
}

#[test]
fn a_puzzle_with_two_solutions_is_not_unique() {
    // Blank two cells of a solution that form a swappable pair with two others.
    let solution: Grid =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
            .parse()
            .unwrap();
    // Find a rectangle r1,r2 × c1,c2 in one band with a,b / b,a, and blank it.
    let n = 9;
    let mut puzzle = solution.clone();
    'found: for r1 in 0..n {
        for r2 in r1 + 1..n {
            if r1 / 3 != r2 / 3 {
                continue;
            }
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let (a, b) = (solution.get(r1, c1), solution.get(r1, c2));
                    if solution.get(r2, c1) == b && solution.get(r2, c2) == a {
                        for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                            puzzle.set(r, c, 0).unwrap();
                        }
                        break 'found;
                    }
                }
            }
        }
    }
    assert_eq!(
        puzzle.blanks(),
        4,
        "the fixed solution has such a rectangle"
    );
    match model::is_unique(&puzzle, &model::options()) {
        Uniqueness::Multiple(a, b) => {
            assert_ne!(a, b);
            check_solution(&puzzle, &a).unwrap();
            check_solution(&puzzle, &b).unwrap();
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(model::count_up_to(&puzzle, 10, &model::options()).count, 2);
}
