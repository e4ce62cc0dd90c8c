//! `--hint` of the puzzles without a technique library (Latin squares,
//! Futoshiki, Kakuro, nonograms, Minesweeper, N-queens with queens
//! placed) prints the step's sentence and the board with the cells it
//! involves marked: `(v)` the value concluded, `<.>` a cell that loses a
//! value, `[.]` a cell of the constraints used or of the premises.
//!
//! Each test reads the step from `--hint --format json` and works out,
//! from the puzzle's input and the constraint's name alone, which cells
//! the board must mark and what the others must show.

use std::collections::BTreeSet;

use serde_json::Value as Json;

mod common;
use common::{csp, csp_stdin, text};

/// A cell of the drawn board: its brackets and what it shows.
#[derive(Debug, Clone, PartialEq)]
struct Drawn {
    open: char,
    shown: String,
    close: char,
}

/// The hint's text: its sentence, its board (rows of cells three
/// characters wide) and its legend.
struct Hint {
    sentence: String,
    board: Vec<Vec<Drawn>>,
    legend: String,
}

fn hint_of(out: &str, cols: usize) -> Hint {
    let first = out.split("\n\n").next().unwrap();
    let lines: Vec<&str> = first.lines().collect();
    assert!(lines.len() >= 3, "a sentence, a board and a legend:\n{out}");
    let board = lines[1..lines.len() - 1]
        .iter()
        .map(|l| {
            let chars: Vec<char> = format!("{l:<width$}", width = 3 * cols).chars().collect();
            assert_eq!(chars.len(), 3 * cols, "a row of {cols} cells: {l:?}");
            chars
                .chunks(3)
                .map(|c| Drawn {
                    open: c[0],
                    shown: c[1].to_string(),
                    close: c[2],
                })
                .collect()
        })
        .collect();
    Hint {
        sentence: lines[0].to_string(),
        board,
        legend: lines[lines.len() - 1].to_string(),
    }
}

/// The first step of `--hint --format json`.
fn json_hint(args: &[&str], input: &str) -> Json {
    let mut a = args.to_vec();
    a.extend(["--hint", "--format", "json"]);
    let out = csp_stdin(&a, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap()
}

fn run_hint(args: &[&str], input: &str) -> String {
    let mut a = args.to_vec();
    a.push("--hint");
    let out = csp_stdin(&a, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// `r4c6` as (row, column) from 0.
fn rc(name: &str) -> (usize, usize) {
    let (r, c) = name.strip_prefix('r').unwrap().split_once('c').unwrap();
    (
        r.parse::<usize>().unwrap() - 1,
        c.parse::<usize>().unwrap() - 1,
    )
}

/// The fact of a `"r2c2<=3"` / `"r8c7=1"` string: the cell's name, the
/// operator and the value.
fn fact(f: &str) -> (String, String, i32) {
    let i = f.find(['=', '<', '>']).unwrap();
    let j = f.rfind(['=', '<', '>']).unwrap() + 1;
    (
        f[..i].to_string(),
        f[i..j].to_string(),
        f[j..].parse().unwrap(),
    )
}

/// The step's conclusion: the cell, and whether it is a placement.
fn conclusion(j: &Json) -> (String, bool, i32) {
    let placed = j["placements"].as_array().unwrap();
    let (list, is_placement) = if placed.is_empty() {
        (j["eliminations"].as_array().unwrap(), false)
    } else {
        (placed, true)
    };
    assert_eq!(list.len(), 1, "one conclusion a step");
    let (cell, _, v) = fact(list[0].as_str().unwrap());
    (cell, is_placement, v)
}

/// The board marks `concluded` (at `at`) and exactly the cells `used`.
fn assert_marks(
    h: &Hint,
    at: (usize, usize),
    placed: Option<&str>,
    used: &BTreeSet<(usize, usize)>,
) {
    let mut marked = BTreeSet::new();
    for (r, row) in h.board.iter().enumerate() {
        for (c, d) in row.iter().enumerate() {
            if (r, c) == at {
                match placed {
                    Some(v) => assert_eq!((d.open, d.shown.as_str(), d.close), ('(', v, ')')),
                    None => assert_eq!((d.open, d.close), ('<', '>'), "{d:?}"),
                }
                continue;
            }
            assert!(
                !"(<".contains(d.open),
                "only one cell concluded: {d:?} at {r},{c}"
            );
            if d.open == '[' {
                assert_eq!(d.close, ']');
                marked.insert((r, c));
            } else {
                assert_eq!((d.open, d.close), (' ', ' '), "at {r},{c}");
            }
        }
    }
    let mut want = used.clone();
    want.remove(&at);
    assert_eq!(marked, want, "the cells marked [.]");
    let expect_legend = if placed.is_some() {
        "(v) concluded here"
    } else {
        "<.> loses a value"
    };
    assert!(h.legend.starts_with(expect_legend), "{}", h.legend);
    assert_eq!(
        h.legend.contains("[.]"),
        !want.is_empty(),
        "the legend names [.] when it is used: {}",
        h.legend
    );
}

#[test]
fn a_latin_hint_marks_the_row_and_its_premise() {
    let input = "1 . . .\n. . 3 .\n. 4 . 1\n. . . 2\n";
    let j = json_hint(&["latin", "-"], input);
    let h = hint_of(&run_hint(&["latin", "-"], input), 4);
    assert_eq!(h.sentence, j["text"].as_str().unwrap());
    assert_eq!(h.board.len(), 4);
    let (cell, placed, v) = conclusion(&j);
    let at = rc(&cell);
    // The constraint is a row or a column: all its cells are used.
    let label = j["constraints"][0].as_str().unwrap();
    let (kind, k) = label.split_once(' ').unwrap();
    let k: usize = k.parse::<usize>().unwrap() - 1;
    let mut used: BTreeSet<(usize, usize)> = match kind {
        "row" => (0..4).map(|c| (k, c)).collect(),
        "column" => (0..4).map(|r| (r, k)).collect(),
        _ => panic!("{label}"),
    };
    for p in j["premises"].as_array().unwrap() {
        used.insert(rc(&fact(p.as_str().unwrap()).0));
    }
    let value = v.to_string();
    assert_marks(&h, at, placed.then_some(value.as_str()), &used);
    // Every cell shows its given, or `.`.
    let givens: Vec<Vec<&str>> = input.lines().map(|l| l.split(' ').collect()).collect();
    for (r, row) in h.board.iter().enumerate() {
        for (c, d) in row.iter().enumerate() {
            if (r, c) != at {
                assert_eq!(d.shown, givens[r][c], "r{}c{}", r + 1, c + 1);
            }
        }
    }
}

#[test]
fn a_futoshiki_hint_marks_the_sign() {
    let file = "examples/futoshiki/data/puzzles.txt";
    let j = json_hint(&["futoshiki", file], "");
    let h = hint_of(&run_hint(&["futoshiki", file], ""), 4);
    assert_eq!(h.sentence, j["text"].as_str().unwrap());
    let (cell, placed, _) = conclusion(&j);
    // A sign's constraint is named by its two cells.
    let label = j["constraints"][0].as_str().unwrap();
    let used: BTreeSet<(usize, usize)> = label
        .split([' ', '<', '>'])
        .filter(|w| w.starts_with('r'))
        .map(rc)
        .collect();
    assert_eq!(used.len(), 2, "{label}");
    assert!(!placed);
    assert_marks(&h, rc(&cell), None, &used);
}

#[test]
fn a_nonogram_hint_marks_the_line() {
    let file = "examples/nonogram/data/heart.txt";
    let j = json_hint(&["nonogram", file], "");
    let out = run_hint(&["nonogram", file], "");
    let h = hint_of(&out, 9);
    assert_eq!(h.sentence, j["text"].as_str().unwrap());
    let (cell, placed, v) = conclusion(&j);
    assert!(placed);
    let label = j["constraints"][0].as_str().unwrap();
    let k: usize = label.split(' ').nth(1).unwrap().parse().unwrap();
    let used: BTreeSet<(usize, usize)> = if label.starts_with("row") {
        (0..9).map(|c| (k - 1, c)).collect()
    } else {
        (0..9).map(|r| (r, k - 1)).collect()
    };
    let shown = if v == 1 { "#" } else { "-" };
    assert_marks(&h, rc(&cell), Some(shown), &used);
    // A nonogram has no given cells: the others are all unknown.
    let open = h.board.iter().flatten().filter(|d| d.shown == ".").count();
    assert_eq!(open, 80);
}

#[test]
fn a_minesweeper_hint_marks_the_number_and_its_hidden_neighbours() {
    let file = "examples/minesweeper/data/beginner.txt";
    let input = std::fs::read_to_string(file).unwrap();
    let rows: Vec<Vec<char>> = input
        .lines()
        .filter(|l| !l.starts_with('%') && !l.starts_with("mines"))
        .map(|l| l.chars().collect())
        .collect();
    let j = json_hint(&["minesweeper", file], "");
    let h = hint_of(&run_hint(&["minesweeper", file], ""), rows[0].len());
    assert_eq!(h.sentence, j["text"].as_str().unwrap());
    let (cell, placed, v) = conclusion(&j);
    // "the number at r7c8": that cell and its unrevealed neighbours.
    let label = j["constraints"][0].as_str().unwrap();
    let (nr, nc) = rc(label.strip_prefix("the number at ").unwrap());
    let mut used = BTreeSet::from([(nr, nc)]);
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            if r.abs_diff(nr) <= 1 && c.abs_diff(nc) <= 1 && ch == '?' {
                used.insert((r, c));
            }
        }
    }
    let shown = if v == 1 { "*" } else { "-" };
    assert_marks(&h, rc(&cell), placed.then_some(shown), &used);
    // The numbers shown are the file's; the hidden cells are `.`.
    for (r, row) in h.board.iter().enumerate() {
        for (c, d) in row.iter().enumerate() {
            if (r, c) != rc(&cell) {
                let want = match rows[r][c] {
                    '?' => ".".to_string(),
                    ch => ch.to_string(),
                };
                assert_eq!(d.shown, want, "r{}c{}", r + 1, c + 1);
            }
        }
    }
}

#[test]
fn a_queens_hint_is_a_chessboard() {
    let out = csp(&["queens", "8", "--place", "a1,e2", "--hint"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let h = hint_of(&text(&out.stdout), 8);
    let j: Json = serde_json::from_slice(
        &csp(&[
            "queens", "8", "--place", "a1,e2", "--hint", "--format", "json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(h.sentence, j["text"].as_str().unwrap());
    // Squares in chess notation: rank 8 on top, file a on the left.
    let square = |s: &str| {
        let file = s.as_bytes()[0] - b'a';
        let rank: usize = s[1..].parse().unwrap();
        (8 - rank, file as usize)
    };
    let (cell, placed, v) = conclusion(&j);
    let label = j["constraints"][0].as_str().unwrap();
    let mut used: BTreeSet<(usize, usize)> = match label.split_once(' ') {
        Some(("rank", k)) => (0..8)
            .map(|f| (8 - k.parse::<usize>().unwrap(), f))
            .collect(),
        Some(("file", f)) => (0..8)
            .map(|r| (r, (f.as_bytes()[0] - b'a') as usize))
            .collect(),
        _ => panic!("a rank or a file first: {label}"),
    };
    for p in j["premises"].as_array().unwrap() {
        used.insert(square(&fact(p.as_str().unwrap()).0));
    }
    let shown = if v == 1 { "Q" } else { "-" };
    assert_marks(&h, square(&cell), placed.then_some(shown), &used);
    assert_eq!(h.board[7][0].shown, "Q", "a1");
    assert_eq!(h.board[6][4].shown, "Q", "e2");
}

#[test]
fn kakuro_hints_mark_the_run_and_several_puzzles_are_apart() {
    let file = "examples/kakuro/data/small.txt";
    let out = run_hint(&["kakuro", file], "");
    let blocks: Vec<&str> = out.trim_end().split("\n\n").collect();
    let js: Vec<Json> = text(&csp(&["kakuro", file, "--hint", "--format", "json"]).stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(blocks.len(), js.len(), "one block a puzzle:\n{out}");
    for (block, j) in blocks.iter().zip(&js) {
        let cols = block.lines().nth(1).unwrap().len().div_ceil(3);
        let h = hint_of(block, cols);
        assert_eq!(h.sentence, j["text"].as_str().unwrap());
        let (cell, _, _) = conclusion(j);
        let at = rc(&cell);
        // "the run across from r2c2": r2c2 and the cells right of it up to
        // the first position without a cell (`#`).
        let label = j["constraints"][0].as_str().unwrap();
        let from = rc(label
            .strip_prefix("the run across from ")
            .unwrap()
            .split(' ')
            .next()
            .unwrap());
        let row = &h.board[from.0];
        let len = row[from.1..].iter().take_while(|d| d.shown != "#").count();
        assert!(len >= 2, "a run of two cells or more");
        let used = (from.1..from.1 + len).map(|c| (from.0, c)).collect();
        assert_marks(&h, at, None, &used);
    }
}
