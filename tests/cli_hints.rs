//! `csp sudoku --hint`, `--explain`, `--rate`, `--technique` and the
//! no-solution report. Every step the binary prints is re-checked here
//! against the puzzle's solution (which `csp sudoku` finds by search, a
//! path that shares nothing with the techniques) and by candidates this
//! file computes itself.

mod common;
use common::{csp_stdin, text};

/// top95's first puzzle.
const TOP95_1: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The solution, by `csp sudoku` (search).
fn solution(puzzle: &str) -> Vec<u8> {
    let o = csp_stdin(&["sudoku"], &format!("{puzzle}\n"));
    let s = text(&o.stdout);
    let line = s.trim();
    assert_eq!(line.len(), 81, "{s}");
    line.bytes().map(|b| b - b'0').collect()
}

/// `"r4c6"` as a 0-based cell index.
fn cell(name: &str) -> usize {
    let (r, c) = name[1..].split_once('c').unwrap();
    (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
}

/// The strings of the JSON array after `"key": ` in `line`.
fn array(line: &str, key: &str) -> Vec<String> {
    let start = line
        .find(&format!("\"{key}\": ["))
        .unwrap_or_else(|| panic!("{key} in {line}"));
    let rest = &line[start + key.len() + 5..];
    let body = &rest[..rest.find(']').unwrap()];
    body.split(", ")
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

/// Checks placements (`r4c6=7`) and eliminations (`r4c5<>7`) against the
/// solution.
fn consistent(sol: &[u8], placements: &[String], eliminations: &[String]) {
    for p in placements {
        let (c, d) = p.split_once('=').unwrap();
        assert_eq!(sol[cell(c)], d.parse::<u8>().unwrap(), "placement {p}");
    }
    for e in eliminations {
        let (c, d) = e.split_once("<>").unwrap();
        assert_ne!(sol[cell(c)], d.parse::<u8>().unwrap(), "elimination {e}");
    }
}

#[test]
fn a_hint_is_one_sentence_and_true() {
    let o = csp_stdin(&["sudoku", "--hint"], &format!("{TOP95_1}\n"));
    assert!(o.status.success());
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Hidden single: in box 4, only r6c2 can hold 4");
    // The board below it: nine rows and two rules, then the legend. Row 6
    // shows the 4 placed in column 2 and the rest of box 4 (columns 1–3
    // of rows 4–6) as the pattern's cells.
    assert_eq!(lines.len(), 1 + 11 + 1, "{out}");
    let rows: Vec<&str> = lines[1..12]
        .iter()
        .copied()
        .filter(|l| !l.starts_with('-'))
        .collect();
    assert_eq!(rows.len(), 9, "{out}");
    assert!(rows[5].starts_with("[.](4)[.]|"), "{out}");
    for r in [3, 4] {
        assert!(rows[r].starts_with('['), "row {}: {out}", r + 1);
    }
    assert_eq!(lines[12], "(d) placed here, [.] the pattern's cells");
    // Independently: r6c2 is the only cell of box 4 whose row, column and
    // box hold no 4, and the solution has a 4 there.
    let g: Vec<u8> = TOP95_1
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let free = |c: usize| {
        let (r, k) = (c / 9, c % 9);
        g[c] == 0 && (0..9).all(|i| g[r * 9 + i] != 4 && g[i * 9 + k] != 4)
    };
    let box4: Vec<usize> = (3..6)
        .flat_map(|r| (0..3).map(move |c| r * 9 + c))
        .collect();
    let open: Vec<usize> = box4.into_iter().filter(|&c| free(c)).collect();
    assert_eq!(open, vec![5 * 9 + 1]);
    assert_eq!(solution(TOP95_1)[5 * 9 + 1], 4);
}

#[test]
fn every_explained_step_agrees_with_the_solution_and_solves_it() {
    for puzzle in [EASY, TOP95_1] {
        let sol = solution(puzzle);
        let o = csp_stdin(
            &["sudoku", "--explain", "--format", "json"],
            &format!("{puzzle}\n"),
        );
        assert!(o.status.success());
        let out = text(&o.stdout);
        let mut grid: Vec<u8> = puzzle
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let lines: Vec<&str> = out.lines().collect();
        for (k, line) in lines[..lines.len() - 1].iter().enumerate() {
            assert!(
                line.starts_with(&format!("{{\"puzzle\": 1, \"step\": {}, ", k + 1)),
                "{line}"
            );
            let p = array(line, "placements");
            let e = array(line, "eliminations");
            assert!(!p.is_empty() || !e.is_empty(), "{line}");
            assert!(!array(line, "constraints").is_empty(), "{line}");
            consistent(&sol, &p, &e);
            for p in &p {
                let (c, d) = p.split_once('=').unwrap();
                grid[cell(c)] = d.parse().unwrap();
            }
        }
        assert_eq!(grid, sol, "the placements fill the grid with the solution");
        assert!(
            lines.last().unwrap().contains("\"end\": \"solved\""),
            "{out}"
        );
    }
}

#[test]
fn rate_gives_one_line_per_puzzle() {
    let o = csp_stdin(
        &["sudoku", "--rate"],
        &format!("# two\n{EASY}\n\n{TOP95_1}\n"),
    );
    assert!(o.status.success());
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("easy: score "), "{out}");
    let o = csp_stdin(
        &["sudoku", "--rate", "--format", "json"],
        &format!("{EASY}\n"),
    );
    let out = text(&o.stdout);
    assert!(
        out.starts_with("{\"puzzle\": 1, \"level\": \"easy\", \"score\": "),
        "{out}"
    );
}

#[test]
fn no_solution_names_a_minimal_set_of_givens() {
    // Box 1 cannot hold a 9: its free cells are in row 3, which has one.
    let puzzle = format!("123......456......78......9{}", ".".repeat(54));
    let o = csp_stdin(&["sudoku", "--hint"], &format!("{puzzle}\n"));
    let out = text(&o.stdout);
    let first = out.lines().next().unwrap();
    let givens = first
        .strip_prefix("No solution: these givens cannot hold together: ")
        .unwrap_or_else(|| panic!("{out}"));
    let givens: Vec<(usize, u8)> = givens
        .split(", ")
        .map(|g| {
            let (c, d) = g.split_once('=').unwrap();
            (cell(c), d.parse().unwrap())
        })
        .collect();
    let grid_of = |gs: &[(usize, u8)]| {
        let mut g = vec![b'.'; 81];
        for &(c, d) in gs {
            g[c] = b'0' + d;
        }
        String::from_utf8(g).unwrap()
    };
    // They have no solution together, and each is needed (by search).
    let o = csp_stdin(&["sudoku"], &format!("{}\n", grid_of(&givens)));
    assert_eq!(text(&o.stdout), "no solution\n");
    for i in 0..givens.len() {
        let mut less = givens.clone();
        less.remove(i);
        let o = csp_stdin(&["sudoku"], &format!("{}\n", grid_of(&less)));
        // A solution, or two of them: not "no solution".
        let out = text(&o.stdout);
        assert!(
            out.trim().len() == 81 || out.starts_with("more than one solution"),
            "without {:?}: {out}",
            givens[i]
        );
    }
    assert!(out.contains("contradiction: box 1"), "{out}");
    // JSON, and the plain solve's note on stderr.
    let o = csp_stdin(
        &["sudoku", "--hint", "--format", "json"],
        &format!("{puzzle}\n"),
    );
    assert!(
        text(&o.stdout).starts_with("{\"puzzle\": 1, \"solutions\": 0, \"conflict\": [\"r1c1=1\"")
    );
    let o = csp_stdin(&["sudoku"], &format!("{puzzle}\n"));
    assert!(
        text(&o.stderr).contains("no solution: the givens r1c1=1"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_technique_on_a_library_line() {
    // HoDoKu's library: an X-Wing on 3s (reglib-1.3, section 0300).
    let line = ":0300:3:9.....+5+6+1..+6.+1.7+937+1..962486...2+147+9........5....4...642..+586+1+75.71.+2..+4..1....+52::313 314 343 344 353 354 363 364 394::";
    let o = csp_stdin(
        &[
            "sudoku",
            "--hint",
            "--technique",
            "x-wing",
            "--format",
            "json",
        ],
        &format!("{line}\n"),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut e = array(&out, "eliminations");
    e.sort();
    // The library's expected eliminations, 313 = digit 3 in r1c3.
    let mut want: Vec<String> = "313 314 343 344 353 354 363 364 394"
        .split(' ')
        .map(|s| format!("r{}c{}<>{}", &s[1..2], &s[2..3], &s[..1]))
        .collect();
    want.sort();
    assert_eq!(e, want);
    // A library line's digits come first: this state has empty rectangles
    // on 2 and on 9; the line is about the 9 (986: r8c6<>9).
    let line = ":0402:9:7+2+4+956+1381+6842+3+5+9+7+9+3+5+7+1+8+6+2+45..3..+8+1..4..8+17+5..+81.+7.24..+13....+7+2...1...+85.5...7.6+1::986::";
    let o = csp_stdin(
        &[
            "sudoku",
            "--hint",
            "--technique",
            "0402",
            "--format",
            "json",
        ],
        &format!("{line}\n"),
    );
    assert_eq!(array(&text(&o.stdout), "eliminations"), vec!["r8c6<>9"]);
    let o = csp_stdin(
        &["sudoku", "--hint", "--technique", "0302"],
        &format!("{EASY}\n"),
    );
    assert_eq!(text(&o.stdout), "Jellyfish (0302) does not apply\n");
    let o = csp_stdin(
        &["sudoku", "--hint", "--technique", "magic"],
        &format!("{EASY}\n"),
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("unknown technique 'magic'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_malformed_library_line_names_line_and_field() {
    let o = csp_stdin(
        &["sudoku", "--hint"],
        &format!("{EASY}\n:0300:3:12345:::\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("line 2: givens: 5 cells, expected 81"),
        "{}",
        text(&o.stderr)
    );
    // The first puzzle's hint (a sentence and its board), then `error`.
    let out = text(&o.stdout);
    assert_eq!(out.lines().last(), Some("error"), "{out}");
}

#[test]
fn a_grid_drawn_over_nine_lines_reads_as_its_line() {
    let drawn: String = TOP95_1
        .as_bytes()
        .chunks(9)
        .enumerate()
        .map(|(r, row)| {
            let cells: Vec<String> = row.iter().map(|&b| (b as char).to_string()).collect();
            let sep = if r % 3 == 0 {
                "+-------+-------+-------+\n"
            } else {
                ""
            };
            format!(
                "{sep}| {} | {} | {} |\n",
                cells[..3].join(" "),
                cells[3..6].join(" "),
                cells[6..].join(" ")
            )
        })
        .collect();
    let input = format!("{drawn}+-------+-------+-------+\n{TOP95_1}\n");
    let o = csp_stdin(&["sudoku", "--hint", "--format", "json"], &input);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // The same step, numbered by the first line of each puzzle.
    assert!(lines[0].starts_with("{\"puzzle\": 1, "), "{out}");
    assert!(lines[1].starts_with("{\"puzzle\": 14, "), "{out}");
    assert_eq!(lines[0][14..], lines[1][15..]);
    // A drawn grid cut short is an error naming its lines.
    let o = csp_stdin(&["sudoku", "--hint"], "| 4 . . | . . . | 8 . 5 |\n\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("lines 1-1: a drawn grid of 9 cells, expected 81"),
        "{}",
        text(&o.stderr)
    );
}

/// The literal of a generic hint step, `r2c3 ≠ 3 by …`: (row, column,
/// operator, value).
fn step_literal(line: &str) -> (usize, usize, String, i32) {
    let body = line.split_once(". ").map_or(line, |(_, b)| b);
    let mut words = body.split_whitespace();
    let (var, op, value) = (
        words.next().unwrap(),
        words.next().unwrap().to_string(),
        words.next().unwrap().parse::<i32>().unwrap(),
    );
    let (r, c) = var[1..].split_once('c').unwrap();
    (r.parse().unwrap(), c.parse().unwrap(), op, value)
}

fn holds(op: &str, x: i32, v: i32) -> bool {
    match op {
        "=" => x == v,
        "≠" => x != v,
        "≥" => x >= v,
        "≤" => x <= v,
        _ => panic!("operator {op}"),
    }
}

/// `csp futoshiki --explain`: every step holds in the puzzle's known
/// solution (`examples/futoshiki/data/solutions.txt`, found by an
/// independent brute-force solver), each puzzle's explanation ends as
/// solved or with a case split, and `--hint` prints each puzzle's first
/// step.
#[test]
fn futoshiki_hints_agree_with_the_known_solutions() {
    let root = env!("CARGO_MANIFEST_DIR");
    let file = format!("{root}/examples/futoshiki/data/puzzles.txt");
    let sols: Vec<Vec<i32>> =
        std::fs::read_to_string(format!("{root}/examples/futoshiki/data/solutions.txt"))
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
            .collect();
    let o = common::csp(&["futoshiki", &file, "--explain"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    let explanations: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(explanations.len(), sols.len());
    let mut steps = 0;
    let mut firsts = Vec::new();
    for (ex, sol) in explanations.iter().zip(&sols) {
        let n = (sol.len() as f64).sqrt() as usize;
        let lines: Vec<&str> = ex.lines().collect();
        let (last, body) = lines.split_last().unwrap();
        assert!(
            last.starts_with("Solved in ") || last.contains("search is needed"),
            "{last}"
        );
        for l in body {
            let (r, c, op, v) = step_literal(l);
            assert!(holds(&op, sol[(r - 1) * n + c - 1], v), "{l}");
            steps += 1;
        }
        firsts.push(
            body.first()
                .map(|l| l.split_once(". ").unwrap().1.to_string()),
        );
    }
    assert!(steps > 0);
    let o = common::csp(&["futoshiki", &file, "--hint"]);
    let hints = text(&o.stdout);
    // Each puzzle's hint: the sentence, then the board (a blank line
    // between two puzzles).
    let sentences: Vec<&str> = hints
        .split("\n\n")
        .map(|h| h.lines().next().unwrap())
        .collect();
    assert_eq!(sentences.len(), firsts.len());
    for (h, first) in sentences.iter().zip(&firsts) {
        match first {
            Some(f) => assert_eq!(h, f),
            None => assert!(h.contains("search is needed"), "{h}"),
        }
    }
}

/// `csp kakuro --explain`: every step of every shipped Kakuro holds in
/// the solution `csp kakuro` finds by search (each of them has one), and
/// the flags conflict with `--count`.
#[test]
fn kakuro_hints_agree_with_the_solution() {
    let root = env!("CARGO_MANIFEST_DIR");
    for name in ["small.txt", "8x8.txt"] {
        let file = format!("{root}/examples/kakuro/data/{name}");
        let o = common::csp(&["kakuro", &file, "--explain"]);
        assert!(o.status.success());
        let out = text(&o.stdout);
        // The solved grids: digits by (row, column) from the plain run.
        let grids = text(&common::csp(&["kakuro", &file]).stdout);
        let steps = kakuro_steps_hold(&out, &grids);
        assert!(steps > 0, "{name}");
    }
    let file = format!("{root}/examples/kakuro/data/small.txt");
    let o = common::csp(&["kakuro", &file, "--hint", "--count"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Checks every step of the explanations `out` against the solved grids
/// `grids` (both a blank line between puzzles); the number of steps.
fn kakuro_steps_hold(out: &str, grids: &str) -> usize {
    let explanations: Vec<&str> = out.split("\n\n").collect();
    let solved: Vec<&str> = grids.split("\n\n").collect();
    assert_eq!(explanations.len(), solved.len());
    let mut steps = 0;
    for (ex, grid) in explanations.iter().zip(&solved) {
        let rows: Vec<Vec<&str>> = grid
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        for l in ex
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        {
            let (r, c, op, v) = step_literal(l);
            let x: i32 = rows[r - 1][c - 1]
                .parse()
                .unwrap_or_else(|_| panic!("{l}: not a white cell"));
            assert!(holds(&op, x, v), "{l}");
            steps += 1;
        }
    }
    steps
}

/// A pencil-mark grid (tests/data/sudoku/top95-1-marks.txt: top95 #1 after
/// its first step, r6c2 = 4, with every candidate no placed peer rules out,
/// written by a script outside csp) is read as that state: its explanation
/// is the givens' explanation from the second step on.
#[test]
fn a_pencil_mark_grid_continues_the_explanation() {
    let marks = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/sudoku/top95-1-marks.txt"),
    )
    .unwrap();
    let from_marks = text(&csp_stdin(&["sudoku", "--explain"], &marks).stdout);
    let from_givens = text(&csp_stdin(&["sudoku", "--explain"], &format!("{TOP95_1}\n")).stdout);
    let strip = |l: &str| {
        l.split_once(". ")
            .map_or(l.to_string(), |(_, t)| t.to_string())
    };
    let a: Vec<String> = from_marks.lines().map(strip).collect();
    let b: Vec<String> = from_givens.lines().skip(1).map(strip).collect();
    assert!(a.len() > 10, "{from_marks}");
    // The steps agree; the closing rating counts one step fewer.
    assert_eq!(a[..a.len() - 1], b[..b.len() - 1]);
    assert!(a[a.len() - 1].starts_with("Solved (medium"), "{from_marks}");
    assert!(
        b[b.len() - 1].starts_with("Solved (medium"),
        "{from_givens}"
    );
    // Seven rows of marks (ten lines with the borders) are an error naming
    // the lines.
    let short: String = marks.lines().take(10).map(|l| format!("{l}\n")).collect();
    let o = csp_stdin(&["sudoku", "--hint"], &format!("{short}\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("lines 1-10: a pencil-mark grid of 7 rows, expected 9"),
        "{}",
        text(&o.stderr)
    );
}
