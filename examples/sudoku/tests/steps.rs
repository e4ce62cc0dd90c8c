//! Every step of the step-wise solution of every shipped puzzle (top95,
//! hardest, the two 16×16 puzzles): proved by the exact-cover checker
//! before it is used (`solve_steps` checks each), and here compared with
//! the solution the search finds — no placement differs from it, no
//! elimination removes its digit — and a puzzle the steps finish ends in
//! that solution.

use csp_sudoku::model::{self, Uniqueness};
use csp_sudoku::pencil::Candidates;
use csp_sudoku::techniques::{apply, rate, solve_steps, Checker, End, Level};
use csp_sudoku::{parse, Grid};

fn load(name: &str) -> Vec<Grid> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse::parse_puzzles(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Returns (puzzles solved by the steps, steps in all).
fn check_file(name: &str) -> (usize, usize) {
    let mut solved = 0;
    let mut total = 0;
    for (i, g) in load(name).iter().enumerate() {
        let Uniqueness::Unique(sol) = model::is_unique(g, &model::options()) else {
            panic!("{name} {}: not unique", i + 1)
        };
        let checker = Checker::new(g.box_side());
        let pm = Candidates::from_grid(g);
        let (steps, end) =
            solve_steps(&pm, &checker).unwrap_or_else(|e| panic!("{name} {}: {e}", i + 1));
        let mut state = pm.clone();
        for s in &steps {
            for &(c, d) in &s.placements {
                assert_eq!(sol.cells()[c], d, "{name} {}: {}", i + 1, s.sentence);
            }
            for &(c, d) in &s.eliminations {
                assert_ne!(sol.cells()[c], d, "{name} {}: {}", i + 1, s.sentence);
            }
            apply(&mut state, s);
        }
        total += steps.len();
        match end {
            End::Solved => {
                assert_eq!(state.grid(), sol, "{name} {}", i + 1);
                // Extreme only when a forcing net was needed.
                let hardest = steps.iter().map(|s| s.technique.level()).max();
                assert_eq!(
                    Some(rate(&steps, &end).level),
                    hardest.or(Some(Level::Easy))
                );
                solved += 1;
            }
            End::Stuck => assert_eq!(rate(&steps, &end).level, Level::Extreme),
            End::Broken(b) => panic!("{name} {}: a proper puzzle broken: {b}", i + 1),
        }
    }
    (solved, total)
}

#[test]
fn every_step_of_every_shipped_puzzle_agrees_with_the_solution() {
    let (top95, steps) = check_file("top95.txt");
    println!("top95: {top95} of 95 solved by the techniques, {steps} steps");
    assert!(top95 > 0 && steps > 0);
    let (hardest, _) = check_file("hardest.txt");
    println!("hardest: {hardest} of 11 solved by the techniques");
    let (big, _) = check_file("16x16.txt");
    println!("16x16: {big} of 2 solved by the techniques");
}
