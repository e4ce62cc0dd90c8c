//! Known answers through the engine: the number of Latin squares of orders 1 to
//! 5, counted both by full enumeration and through reduced squares; completions
//! re-checked by the independent checker.

use std::time::Instant;

use csp_core::Outcome;
use csp_latin::check::check_latin;
use csp_latin::model::{self, Counting};
use csp_latin::{check_solution, Square};

const A002860: [u128; 5] = [1, 2, 12, 576, 161280];

#[test]
fn counts_by_full_enumeration() {
    for (n, &expected) in (1..=5).zip(&A002860) {
        let start = Instant::now();
        let r = model::count_latin_squares(n, Counting::All).unwrap();
        assert_eq!(r.count, expected, "order {n}");
        assert_eq!(r.outcome, Outcome::Solved);
        eprintln!(
            "order {n}: {} squares, {} nodes, {:.3} s",
            r.count,
            r.stats.nodes,
            start.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn counts_through_reduced_squares() {
    for (n, &expected) in (1..=5).zip(&A002860) {
        assert_eq!(
            model::count_latin_squares(n, Counting::Reduced)
                .unwrap()
                .count,
            expected
        );
    }
    // Order 6 is 812851200 = 6!·5!·9408: quick through reduced squares.
    assert_eq!(
        model::count_latin_squares(6, Counting::Reduced)
            .unwrap()
            .count,
        812_851_200
    );
}

#[test]
fn counting_honours_the_options_and_their_limits() {
    // Other search options give the same count.
    let mut o = model::options();
    o.var_order = csp_core::VarOrder::Input;
    o.inference = csp_core::Inference::ForwardChecking;
    let r = model::count_latin_squares_with(5, Counting::Reduced, &o).unwrap();
    assert_eq!((r.count, r.outcome), (161280, Outcome::Solved));
    // A node limit stops the count of order 7 (16942080 reduced squares).
    o.limits = csp_core::Limits::none().with_nodes(1000);
    let r = model::count_latin_squares_with(7, Counting::Reduced, &o).unwrap();
    assert_eq!(r.outcome, Outcome::LimitReached(csp_core::Limit::Nodes));
    assert!(r.stats.nodes <= 1000);
}

#[test]
fn order_zero_is_an_error() {
    assert!(model::count_latin_squares(0, Counting::All).is_err());
    assert!(model::count_latin_squares(11, Counting::Reduced).is_err());
}

#[test]
fn every_enumerated_square_of_order_4_is_latin_and_distinct() {
    let (m, cells) = model::model(&Square::empty(4).unwrap());
    let mut seen = std::collections::BTreeSet::new();
    for s in csp_core::Search::new(&m)
        .options(model::options())
        .solutions()
        .unwrap()
    {
        let square = model::square_of(&cells, &s);
        check_latin(&square).unwrap();
        assert!(seen.insert(square.cells().to_vec()));
    }
    assert_eq!(seen.len(), 576);
}

#[test]
fn completes_partial_squares() {
    let puzzles = [
        "1 . . .\n. . 3 .\n. 4 . .\n. . . 2",
        "1 2 . . .\n. . . . .\n. . 4 . .\n. . . 5 .\n. . . . 1",
        // Order 10, written as decimal tokens.
        "1 . . . . . . . . 10\n. 2 . . . . . . . .\n. . 3 . . . . . . .\n. . . 4 . . . . . .\n\
         . . . . 5 . . . . .\n. . . . . 6 . . . .\n. . . . . . 7 . . .\n. . . . . . . 8 . .\n\
         . . . . . . . . 9 .\n10 . . . . . . . . 1",
    ];
    for text in puzzles {
        let puzzle: Square = text.parse().unwrap();
        let r = model::complete(&puzzle, &model::options());
        assert_eq!(r.outcome, Outcome::Solved, "{text}");
        check_solution(&puzzle, r.solution.as_ref().unwrap()).unwrap();
    }
}

/// The completions of a small square, by trying every value in every blank and
/// keeping what the independent checker accepts.
fn brute_force_completions(puzzle: &Square) -> u64 {
    let n = puzzle.order();
    let blanks: Vec<usize> = (0..n * n).filter(|&i| puzzle.cells()[i] == 0).collect();
    let total = (n as u64).pow(blanks.len() as u32);
    let mut count = 0;
    for code in 0..total {
        let mut cells = puzzle.cells().to_vec();
        let mut c = code;
        for &i in &blanks {
            cells[i] = (c % n as u64) as u8 + 1;
            c /= n as u64;
        }
        let candidate = Square::new(n, cells).unwrap();
        if check_solution(puzzle, &candidate).is_ok() {
            count += 1;
        }
    }
    count
}

#[test]
fn completion_counts_match_brute_force() {
    for text in [
        "1 .\n. .",
        "1 .\n. 2",
        "1 1\n. .",
        "1 . .\n. . 1\n. . .",
        "1 2 .\n2 . .\n. . .",
        "1 . .\n. 2 .\n. . 3",
        ". . .\n. . .\n. . .",
        // Order 4 with at most 9 blanks keeps the brute force small (4^9 cases).
        "1 2 3 4\n. . . .\n. . . .\n4 3 2 1",
        "1 2 3 4\n2 1 4 3\n. . . .\n. . . .",
        "1 . 3 2\n. 3 . .\n. . 3 .\n2 . . 1",
        "1 2 . .\n2 . . 1\n. . 1 .\n. 1 . 2",
    ] {
        let puzzle: Square = text.parse().unwrap();
        let expected = brute_force_completions(&puzzle);
        let r = model::count_completions(&puzzle, 1_000_000, &model::options());
        assert_eq!(r.count, u128::from(expected), "{text}");
        let solved = model::complete(&puzzle, &model::options());
        match expected {
            0 => assert_eq!(solved.outcome, Outcome::Unsatisfiable, "{text}"),
            _ => check_solution(&puzzle, solved.solution.as_ref().unwrap()).unwrap(),
        }
    }
}

#[test]
fn squares_without_completion() {
    // A repeated given.
    let repeated: Square = "1 1\n. .".parse().unwrap();
    assert!(repeated.first_conflict().is_some());
    assert_eq!(
        model::complete(&repeated, &model::options()).outcome,
        Outcome::Unsatisfiable
    );
    // No repeat, yet no completion: the top right cell can be neither 1 nor 2.
    let stuck: Square = "1 .\n. 2".parse().unwrap();
    assert!(stuck.first_conflict().is_none());
    assert_eq!(
        model::complete(&stuck, &model::options()).outcome,
        Outcome::Unsatisfiable
    );
}
