//! Standing guard (issue 16): every parser behind the command line is fed
//! random and mutated input, a bounded number of cases per run. None may
//! panic or take long, and every error must name its position: `line L`
//! (and a column where one cell or token is at fault) for files, `column C`
//! for one-line inputs. proptest prints the smallest failing input.
//!
//! The cases come from a fixed seed (`common::fuzz_config`): every run
//! tries the same 300 inputs per parser. More, or others:
//! `CSP_FUZZ_CASES=100000 CSP_FUZZ_SEED=7 cargo test --test fuzz_parsers`
//! (`CSP_FUZZ_SEED=random` for a new seed every run).

mod common;

use std::time::{Duration, Instant};

use proptest::prelude::*;

use csp::coloring::dimacs::parse_dimacs;
use csp::cryptarithm::puzzle::{entries as equations, parse_equation};
use csp::latin::parse as latin;
use csp::queens::verify::parse_columns_line;
use csp::sudoku::parse as sudoku;

/// Characters the formats use, weighted up, and any other character.
fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![
        8 => proptest::sample::select(
            "0123456789.-+= \t\n\n#pecdgABCDEFGSNDMOREYxyz"
                .chars()
                .collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

/// Random text of up to `max` characters.
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(any_char(), 0..max).prop_map(|v| v.into_iter().collect())
}

/// `valid` with up to 8 random edits (insert, delete or replace a character).
fn mutated(valid: String) -> impl Strategy<Value = String> {
    proptest::collection::vec((any::<usize>(), 0u8..3, any_char()), 0..8).prop_map(move |edits| {
        let mut s: Vec<char> = valid.chars().collect();
        for (at, op, c) in edits {
            let i = if s.is_empty() { 0 } else { at % s.len() };
            match op {
                0 => s.insert(i, c),
                1 if !s.is_empty() => {
                    s.remove(i);
                }
                _ if !s.is_empty() => s[i] = c,
                _ => s.push(c),
            }
        }
        s.into_iter().collect()
    })
}

/// Random text, or a valid sample with a few edits.
fn input(samples: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        text(max),
        proptest::sample::select(samples).prop_flat_map(|s| mutated(s.to_string())),
    ]
}

/// Runs `parse` on `s`, guarding against a parser that never returns. The
/// inputs are at most a few hundred characters, so any parser finishes in
/// microseconds; the guard is a hang guard, generous enough that a loaded
/// machine (a load of 20 on two cores, a debug build) never trips it — it
/// was one second, an assertion on speed that a busy CI machine could fail.
fn timed<T>(s: &str, parse: impl FnOnce(&str) -> T) -> T {
    let start = Instant::now();
    let r = parse(s);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "no answer in 30 s on {s:?}"
    );
    r
}

/// The messages of the errors among `results`.
fn errors<T, E: ToString>(results: Vec<Result<T, E>>) -> Vec<String> {
    results
        .into_iter()
        .filter_map(|r| r.err().map(|e| e.to_string()))
        .collect()
}

fn names_a_line(e: &str) -> bool {
    e.starts_with("line ") && e[5..].starts_with(|c: char| c.is_ascii_digit())
}

const SUDOKU: &[&str] = &[
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    "# comment\n\n52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n",
];

/// The hint modes' inputs: a drawn grid, a library line, pencil marks.
const SUDOKU_HINTS: &[&str] = &[
    "+-------+-------+-------+\n| 4 . . | . . . | 8 . 5 |\n| . 3 . | . . . | . . . |\n\
     | . . . | 7 . . | . . . |\n+-------+-------+-------+\n| . 2 . | . . . | . 6 . |\n\
     | . . . | . 8 . | 4 . . |\n| . . . | . 1 . | . . . |\n+-------+-------+-------+\n\
     | . . . | 6 . 3 | . 7 . |\n| 5 . . | 2 . . | . . . |\n| 1 . 4 | . . . | . . . |\n\
     +-------+-------+-------+\n",
    ":0000:x:2.+9+1+3+5+64+7+8+5+4+6+2+7+8+3+91+7+3+8+1+4+69+25++3+5+1+9+2+8+7+4+6+9+7+4+3+5+6+2+1+8+8+2+6+4+17+5+9+3+1+9+7+6+8+3+4+5+2+4+8+2+5+9+1+6+3+7+6+53+8+2+7+9+1+4::125::\n",
    include_str!("data/sudoku/top95-1-marks.txt"),
];

const LATIN: &[&str] = &[
    "1 . .\n. . 3\n. 2 .\n",
    "12.\n...\n..1\n\n# two\n1 2\n. .\n",
    "10 . 12 . . . . . . . . .\n",
];

const DIMACS: &[&str] = &[
    "c a triangle\np edge 3 3\ne 1 2\ne 2 3\ne 1 3\n",
    "p edge 5 2\ne 1 5\n\ne 2 4\nc end\n",
];

const EQUATIONS: &[&str] = &["SEND+MORE=MONEY", "A+B=C", "TWO+TWO=FOUR", "ABC = DEF"];

const KAKURO: &[&str] = &[
    "#   4\\  3\\\n\\3  .   .\n\\4  .   .\n",
    "% two\n#  3\\ #\n\\1 . #\n\n#   12\\ 24\\ #\n\\11 .   .   7\\\n\\17 .   .   .\n#   \\15 .   .\n",
];

const MINESWEEPER: &[&str] = &[
    "mines 2\n1??\n1??\n",
    "% 1-2-1\n?????\n11211\n00000\n",
    "*.?\n?8?\n???\n",
];

/// A [`csp_text::TextError`] names a line of the input (or the one after
/// its end) and a column from 1.
fn within(s: &str, e: &csp_text::TextError) -> bool {
    e.line >= 1 && e.line <= s.lines().count() + 1 && e.column >= 1
}

const RCPSP: &[&str] = &[
    include_str!("../examples/rcpsp/data/j301_1.sm"),
    "jobs (incl. supersource/sink ):  3\n  - renewable : 1 R\n\
     PRECEDENCE RELATIONS:\n1 1 1 2\n2 1 1 3\n3 1 0\n\
     REQUESTS/DURATIONS:\n1 1 0 0\n2 1 4 2\n3 1 0 0\n\
     RESOURCEAVAILABILITIES:\n  R 1\n  2\n",
];

const BINPACK: &[&str] = &[
    include_str!("../examples/binpack/data/N1C3W1_A.BPP"),
    "# three items\n3\n10\n6\n5\n4\n",
];

const STRIP: &[&str] = &[
    include_str!("../examples/binpack/data/C1_1.txt"),
    "3\n4 9\n2 2\n2 1\n# last\n4 1\n",
];

const COLUMNS: &[&str] = &["2 4 1 3", "1 5 8 6 3 7 2 4", "  3 1 4 2  ", "1"];

proptest! {
    #![proptest_config(common::fuzz_config(300))]

    #[test]
    fn sudoku_errors_name_their_line(s in input(SUDOKU, 300)) {
        for e in errors(timed(&s, |s| sudoku::entries(s).map(|e| e.result).collect())) {
            prop_assert!(names_a_line(&e), "{e}");
        }
    }

    #[test]
    fn sudoku_hint_inputs_name_their_lines(s in input(SUDOKU_HINTS, 400)) {
        let inputs = timed(&s, csp::sudoku::pencil::read_inputs);
        for (line, r) in inputs {
            prop_assert!(line >= 1 && line <= s.lines().count().max(1), "{line}");
            if let Err(e) = r {
                prop_assert!(e.starts_with("line") || e.starts_with("lines"), "{e}");
            }
        }
    }

    #[test]
    fn latin_errors_name_their_line(s in input(LATIN, 200)) {
        for e in errors(timed(&s, |s| latin::entries(s).map(|e| e.result).collect())) {
            prop_assert!(names_a_line(&e), "{e}");
        }
    }

    #[test]
    fn dimacs_errors_name_their_line(s in input(DIMACS, 200)) {
        if let Err(e) = timed(&s, parse_dimacs) {
            let e = e.to_string();
            prop_assert!(names_a_line(&e), "{e}");
        }
    }

    #[test]
    fn cryptarithm_errors_name_their_column(s in input(EQUATIONS, 60)) {
        if let Err(e) = timed(&s, parse_equation) {
            let e = e.to_string();
            prop_assert!(e.starts_with("column "), "{s:?}: {e}");
        }
        for e in errors(timed(&s, |s| equations(s).map(|e| e.result).collect())) {
            prop_assert!(names_a_line(&e), "{e}");
        }
    }

    #[test]
    fn kakuro_errors_name_line_and_column(s in input(KAKURO, 200)) {
        match timed(&s, csp_kakuro::parse) {
            Err(e) => prop_assert!(within(&s, &e), "{s:?}: {e}"),
            // What parses renders back to the same puzzles.
            Ok(puzzles) => {
                for p in puzzles {
                    let again = csp_kakuro::parse(&csp_kakuro::render(&p, &p.givens()));
                    prop_assert_eq!(again.map(|q| (q[0].cells.clone(), q[0].runs.clone())), Ok((p.cells, p.runs)));
                }
            }
        }
    }

    #[test]
    fn minesweeper_errors_name_line_and_column(s in input(MINESWEEPER, 200)) {
        match timed(&s, csp_minesweeper::parse) {
            Err(e) => prop_assert!(within(&s, &e), "{s:?}: {e}"),
            Ok(b) => {
                prop_assert!(csp_minesweeper::model(&b).is_ok());
                let known: Vec<Option<bool>> = vec![None; b.cells.len()];
                let again = csp_minesweeper::parse(&csp_minesweeper::render(&b, &known));
                prop_assert_eq!(again.map(|a| a.cells), Ok(b.cells));
            }
        }
    }

    #[test]
    fn rcpsp_errors_name_line_and_column(s in input(RCPSP, 400)) {
        match timed(&s, csp_rcpsp::parse) {
            Err(e) => prop_assert!(within(&s, &e), "{s:?}: {e}"),
            // What parses has a model and no precedence cycle.
            Ok(p) => {
                prop_assert!(csp_rcpsp::find_cycle(&p.successors).is_none());
                prop_assert!(csp_rcpsp::model(&p, csp_rcpsp::Strength::default()).is_ok());
            }
        }
    }

    #[test]
    fn binpack_errors_name_line_and_column(s in input(BINPACK, 300)) {
        match timed(&s, csp_binpack::parse) {
            Err(e) => prop_assert!(within(&s, &e), "{s:?}: {e}"),
            // What parses has a model, and first fit decreasing packs it.
            Ok(i) => {
                prop_assert!(csp_binpack::model(&i, csp_binpack::Options::default()).is_ok());
                let ffd: Vec<i32> = csp_binpack::first_fit_decreasing(&i)
                    .iter()
                    .map(|&b| b as i32)
                    .collect();
                prop_assert!(csp_binpack::check(&i, &ffd).is_ok());
            }
        }
    }

    #[test]
    fn strippack_errors_name_line_and_column(s in input(STRIP, 300)) {
        use csp_binpack::strip;
        match timed(&s, strip::parse) {
            Err(e) => prop_assert!(within(&s, &e), "{s:?}: {e}"),
            // What parses has a model at its lower bound, and the shelves
            // pack it.
            Ok(p) => {
                let h = strip::lower_bound(&p);
                prop_assert!(strip::model(&p, h, strip::Options::default()).is_ok());
                prop_assert!(strip::check(&p, &strip::shelves(&p)).is_ok());
            }
        }
    }

    #[test]
    fn verify_errors_name_their_column(s in input(COLUMNS, 60)) {
        for line in s.lines().filter(|l| !l.trim().is_empty()) {
            if let Err(e) = timed(line, parse_columns_line) {
                let e = e.to_string();
                prop_assert!(e.contains("column "), "{line:?}: {e}");
            }
        }
    }
}
