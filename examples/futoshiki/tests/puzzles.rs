//! The example's puzzles: solved and counted by the engine, every grid
//! checked by the independent checker and compared with the solutions an
//! independent brute-force solver found when the puzzles were made.

use csp_core::{Inference, Search, SearchOptions};
use csp_futoshiki::{check, model, parse, render};

const PUZZLES: &str = include_str!("../data/puzzles.txt");
const SOLUTIONS: &str = include_str!("../data/solutions.txt");

#[test]
fn every_puzzle_has_its_one_solution() {
    let puzzles = parse(PUZZLES).unwrap();
    let solutions: Vec<Vec<i32>> = SOLUTIONS
        .lines()
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(puzzles.len(), solutions.len());
    for (p, want) in puzzles.iter().zip(&solutions) {
        for inference in [Inference::ForwardChecking, Inference::Mac] {
            let opts = SearchOptions {
                inference,
                ..csp_futoshiki::options()
            };
            let (m, cells) = model(p).unwrap();
            let sols: Vec<Vec<i32>> = Search::new(&m)
                .options(opts)
                .solutions()
                .unwrap()
                .map(|s| cells.iter().map(|&x| s[x]).collect())
                .collect();
            assert_eq!(sols.len(), 1, "puzzle at line {}", p.line);
            check(p, &sols[0]).unwrap();
            assert_eq!(&sols[0], want, "puzzle at line {}", p.line);
        }
    }
}

#[test]
fn render_round_trips_the_signs() {
    for p in parse(PUZZLES).unwrap() {
        let again = parse(&render(&p, &p.givens)).unwrap();
        assert_eq!(again[0].givens, p.givens);
        let mut a = again[0].signs.clone();
        let mut b = p.signs.clone();
        a.sort_by_key(|s| (s.less, s.greater));
        b.sort_by_key(|s| (s.less, s.greater));
        assert_eq!(a, b);
    }
}

#[test]
fn bad_input_names_line_and_column() {
    let cases = [
        (
            "1 2\n\nx 1\n",
            3,
            1,
            "expected a digit 1-2 or '.', found 'x'",
        ),
        ("1 2\n\n. 3\n", 3, 3, "expected a digit 1-2"),
        (". .\n x\n. .\n", 2, 2, "expected a space between columns"),
        (
            ". .\n  x\n. .\n",
            2,
            3,
            "expected '^', 'v' or a space under a cell",
        ),
        (". .\nx\n. .\n", 2, 1, "expected '^', 'v' or a space"),
        (
            ".=.\n\n. .\n",
            1,
            2,
            "expected '<', '>' or a space between cells",
        ),
        (
            ". . .\n\n. . .\n",
            4,
            1,
            "needs 5 lines, the input ends after 3",
        ),
        (". .\n\n. . .\n", 3, 4, "text past the last cell"),
        (". . . . . . . . . .\n", 1, 1, "order 1 to 9"),
        ("..\n", 1, 1, "found 2"),
    ];
    csp_text::check_errors(parse, &cases).unwrap();
}

#[test]
fn the_checker_rejects_broken_grids() {
    let p = &parse(PUZZLES).unwrap()[0];
    let good: Vec<i32> = SOLUTIONS
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(check(p, &good).is_ok());
    let mut swapped = good.clone();
    swapped.swap(0, 1);
    assert!(check(p, &swapped).is_err());
    assert!(check(p, &good[1..]).is_err());
}
