//! The example's puzzles: solved and counted by the engine at every
//! all-different strength, every solution checked by the independent
//! checker and compared with the digits the puzzle was made from; the
//! small ones also solved by an independent brute force.

use csp_core::constraint::Consistency;
use csp_core::{Inference, Search, SearchOptions};
use csp_kakuro::{check, model_with, parse, render, Cell, Puzzle};

fn data(file: &str) -> String {
    std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The known answers: one line of digits (white cells in reading order)
/// per puzzle of `file`, in `data/solutions/<file>`.
fn answers(file: &str) -> Vec<Vec<i32>> {
    data(&format!("solutions/{file}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c.to_digit(10).unwrap() as i32)
                .collect()
        })
        .collect()
}

const STRENGTHS: [Consistency; 3] = [Consistency::Value, Consistency::Bounds, Consistency::Domain];

/// Every solution of `p` under `strength` and `inference`, each checked.
fn solutions(p: &Puzzle, strength: Consistency, inference: Inference) -> Vec<Vec<i32>> {
    let (m, cells) = model_with(p, strength).unwrap();
    let opts = SearchOptions {
        inference,
        ..csp_kakuro::options()
    };
    Search::new(&m)
        .options(opts)
        .solutions()
        .unwrap()
        .map(|s| {
            let digits: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
            check(p, &digits).unwrap();
            digits
        })
        .collect()
}

/// An independent brute force: digits in reading order, each run checked
/// (no repeat, partial sum within its clue) by walking the grid from the
/// cell, not through [`Puzzle::runs`]. Returns every solution.
fn brute_force(p: &Puzzle) -> Vec<Vec<i32>> {
    fn clue_of(p: &Puzzle, k: usize, across: bool) -> (Option<i32>, Vec<usize>) {
        let step = if across { 1 } else { p.width };
        let at_edge = |j: usize| {
            if across {
                j.is_multiple_of(p.width)
            } else {
                j < p.width
            }
        };
        let mut j = k;
        while !at_edge(j) && p.cells[j - step].is_white() {
            j -= step;
        }
        let sum = if at_edge(j) {
            None
        } else {
            p.cells[j - step].sum(across)
        };
        let mut run = Vec::new();
        while j < p.cells.len() && p.cells[j].is_white() {
            run.push(j);
            if across && (j + 1).is_multiple_of(p.width) {
                break;
            }
            j += step;
        }
        (sum, run)
    }
    fn go(p: &Puzzle, i: usize, grid: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
        if i == p.whites.len() {
            out.push(p.whites.iter().map(|&k| grid[k]).collect());
            return;
        }
        let k = p.whites[i];
        for d in 1..=9 {
            if let Cell::White(g) = p.cells[k] {
                if g != 0 && g != d {
                    continue;
                }
            }
            grid[k] = d;
            let fits = [true, false].iter().all(|&across| {
                let (sum, run) = clue_of(p, k, across);
                let vals: Vec<i32> = run.iter().map(|&j| grid[j]).filter(|&v| v != 0).collect();
                let mut seen = [false; 10];
                let distinct = vals
                    .iter()
                    .all(|&v| !std::mem::replace(&mut seen[v as usize], true));
                let total: i32 = vals.iter().sum();
                distinct && sum.is_none_or(|s| total <= s && (vals.len() < run.len() || total == s))
            });
            if fits {
                go(p, i + 1, grid, out);
            }
            grid[k] = 0;
        }
    }
    let mut grid = vec![0; p.cells.len()];
    let mut out = Vec::new();
    go(p, 0, &mut grid, &mut out);
    out
}

#[test]
fn small_puzzles_agree_with_brute_force() {
    let puzzles = parse(&data("small.txt")).unwrap();
    let want = answers("small.txt");
    assert_eq!(puzzles.len(), want.len());
    for (p, want) in puzzles.iter().zip(&want) {
        let brute = brute_force(p);
        assert_eq!(brute, vec![want.clone()], "puzzle at line {}", p.line);
        for strength in STRENGTHS {
            for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
                let sols = solutions(p, strength, inference);
                assert_eq!(sols, brute, "line {}: {strength} {inference:?}", p.line);
            }
        }
    }
}

#[test]
fn larger_puzzles_have_their_one_solution() {
    for file in ["8x8.txt"] {
        let puzzles = parse(&data(file)).unwrap();
        let want = answers(file);
        assert_eq!(puzzles.len(), want.len());
        for (p, want) in puzzles.iter().zip(&want) {
            check(p, want).unwrap();
            for strength in STRENGTHS {
                let sols = solutions(p, strength, Inference::ForwardChecking);
                assert_eq!(
                    sols,
                    vec![want.clone()],
                    "{file} line {}: {strength}",
                    p.line
                );
            }
        }
    }
}

#[test]
fn render_round_trips() {
    for file in ["small.txt", "8x8.txt"] {
        for (p, digits) in parse(&data(file)).unwrap().iter().zip(answers(file)) {
            let blank = vec![0; p.whites.len()];
            let again = &parse(&render(p, &blank)).unwrap()[0];
            assert_eq!((&again.cells, &again.runs), (&p.cells, &p.runs));
            let solved = &parse(&render(p, &digits)).unwrap()[0];
            assert_eq!(solved.givens(), digits);
        }
    }
}

#[test]
fn givens_are_kept() {
    // Two solutions (1 3 / 3 1 and 3 1 / 1 3) without the given 3, one with it.
    let open = "#  4\\  4\\\n\\4 .   .\n\\4 .   .\n";
    let p = &parse(open).unwrap()[0];
    assert_eq!(brute_force(p).len(), 2);
    assert_eq!(solutions(p, Consistency::Domain, Inference::Mac).len(), 2);
    let given = "#  4\\  4\\\n\\4 .   .\n\\4 .   3\n";
    let p = &parse(given).unwrap()[0];
    let sols = solutions(p, Consistency::Domain, Inference::Mac);
    assert_eq!(sols, brute_force(p));
    assert_eq!(sols, vec![vec![3, 1, 1, 3]]);
}

#[test]
fn bad_input_names_line_and_column() {
    let cases = [
        ("# x\n", 1, 3, "expected '#', '.', a digit 1-9 or a clue"),
        ("# 0\n", 1, 3, "found '0'"),
        (
            "#   3\\x\n# .\n",
            1,
            7,
            "expected a sum from 1 to 45, found 'x'",
        ),
        ("#  46\\\n#  .\n#  .\n", 1, 4, "expected a sum from 1 to 45"),
        (
            "# \\\n",
            1,
            3,
            "a clue needs a down sum, an across sum or both",
        ),
        (
            "# # #\n# #\n",
            2,
            4,
            "a row of 2 cells; the grid's first row (line 1) has 3",
        ),
        ("# #\n# # #\n", 2, 5, "a row of 3 cells"),
        (
            "# # #\n# . .\n",
            2,
            3,
            "2 white cells in a row: a run needs a clue with an across sum",
        ),
        ("# #\n\\3 .\n# .\n", 2, 4, "2 white cells in a column"),
        (
            "# 4\\\n# #\n",
            1,
            3,
            "a down sum needs a white cell after it",
        ),
        ("\\3 #\n", 1, 2, "an across sum needs a white cell after it"),
        (
            "\\2 . .\n",
            1,
            2,
            "2 distinct digits add up to 3 to 17, not 2",
        ),
        (
            "\\45 . . . . . . . . . .\n",
            1,
            2,
            "a run of 10 cells cannot hold distinct digits 1-9",
        ),
        ("% c\n\n#  1\\\n# .\n\n# x\n", 6, 3, "found 'x'"),
    ];
    csp_text::check_errors(parse, &cases).unwrap();
    assert!(parse("% only a comment\n\n").unwrap().is_empty());
}

#[test]
fn the_checker_rejects_broken_grids() {
    let p = &parse(&data("small.txt")).unwrap()[0];
    let good = answers("small.txt").remove(0);
    assert!(check(p, &good).is_ok());
    let mut swapped = good.clone();
    swapped.swap(0, 1);
    assert!(check(p, &swapped).is_err());
    let mut bumped = good.clone();
    bumped[0] += 1;
    assert!(check(p, &bumped).is_err());
    assert!(check(p, &good[1..]).is_err());
    assert!(check(p, &vec![0; good.len()]).is_err());
    // Repeated digits with the right sum: 4 = 2 + 2 is not allowed.
    let p = &parse("#  4\\\n#  .\n#  .\n").unwrap()[0];
    assert!(check(p, &[1, 3]).is_ok());
    assert!(check(p, &[2, 2]).is_err());
}
