//! `--hint`, `--explain`, `--rate` and `--format json` for nonograms,
//! Minesweeper and Latin squares, and what every puzzle command says of a
//! puzzle with several solutions or none.
//!
//! Every step `--explain` prints is checked here by a checker that shares
//! nothing with the hints: the puzzle's solutions are enumerated by search
//! on the example crate's own model (not the hint model), each verified by
//! the crate's `check`, and the step's placement or elimination must hold
//! in every one of them. The Minesweeper expert board has too many
//! layouts for that: each of its steps is checked locally instead, by a
//! brute force over the cells around the numbers it names, from premises
//! that are givens or earlier steps' checked facts.

mod common;
use std::collections::BTreeMap;

use common::{csp, csp_stdin, text};
use csp_core::{Outcome, Search, SearchOptions};

/// A solution: the value of every cell, by name (`r3c5`).
type Assignment = BTreeMap<String, i32>;

fn data(file: &str) -> String {
    format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// Every solution of a model (at most `cap`; more fails the test), the
/// cells named row-major over a grid `width` wide, each verified by
/// `check` first.
fn enumerate(
    m: &csp_core::Model,
    cells: &[csp_core::VarId],
    names: &[String],
    check: &dyn Fn(&[i32]) -> Result<(), String>,
    cap: usize,
) -> Vec<Assignment> {
    let mut out = Vec::new();
    let mut o = SearchOptions::default();
    o.limits.nodes = Some(1_000_000);
    let mut it = Search::new(m).options(o).solutions().unwrap();
    for s in it.by_ref() {
        let v: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
        check(&v).unwrap();
        out.push(names.iter().cloned().zip(v).collect());
        assert!(out.len() <= cap, "more than {cap} solutions");
    }
    assert!(it.outcome().is_complete(), "{:?}", it.outcome());
    out
}

fn grid_names(h: usize, w: usize) -> Vec<String> {
    (0..h * w)
        .map(|k| format!("r{}c{}", k / w + 1, k % w + 1))
        .collect()
}

fn nonogram_solutions(file: &str) -> Vec<Assignment> {
    let p = csp_nonogram::parse(&std::fs::read_to_string(data(file)).unwrap()).unwrap();
    let (m, cells) = csp_nonogram::model(&p).unwrap();
    let names = grid_names(p.rows.len(), p.columns.len());
    let check = |v: &[i32]| csp_nonogram::check(&p, &v.iter().map(|&x| x == 1).collect::<Vec<_>>());
    enumerate(&m, &cells, &names, &check, 1000)
}

fn minesweeper_solutions(file: &str) -> Vec<Assignment> {
    let b = csp_minesweeper::parse(&std::fs::read_to_string(data(file)).unwrap()).unwrap();
    let (m, cells) = csp_minesweeper::model(&b).unwrap();
    let names = grid_names(b.height, b.width);
    let check =
        |v: &[i32]| csp_minesweeper::check(&b, &v.iter().map(|&x| x == 1).collect::<Vec<_>>());
    enumerate(&m, &cells, &names, &check, 100_000)
}

fn latin_solutions(text_: &str) -> Vec<Assignment> {
    let sq: csp_latin::Square = text_.parse().unwrap();
    let n = sq.order();
    let (m, cells) = csp_latin::model::model(&sq);
    let cells: Vec<csp_core::VarId> = cells.into_iter().flatten().collect();
    let check = |v: &[i32]| {
        let s = csp_latin::Square::new(n, v.iter().map(|&x| x as u8).collect())
            .map_err(|e| e.to_string())?;
        csp_latin::check_solution(&sq, &s)
    };
    enumerate(&m, &cells, &grid_names(n, n), &check, 1000)
}

/// The independent check of one deduction, `r3c5=1` (a placement) or
/// `r3c5<>1` (an elimination): it must hold in every solution.
fn holds(solutions: &[Assignment], deduction: &str) -> Result<(), String> {
    let (cell, value, placed) = match deduction.split_once("<>") {
        Some((c, v)) => (c, v, false),
        None => {
            let (c, v) = deduction.split_once('=').ok_or("not a deduction")?;
            (c, v, true)
        }
    };
    let value: i32 = value.parse().map_err(|_| format!("{deduction}: value"))?;
    for s in solutions {
        let got = *s
            .get(cell)
            .ok_or_else(|| format!("{deduction}: no cell {cell}"))?;
        if (got == value) != placed {
            return Err(format!(
                "{deduction} fails in a solution where {cell}={got}"
            ));
        }
    }
    Ok(())
}

/// The step objects of `--explain --format json`, checked: every
/// placement and elimination holds in every solution. Returns the number
/// of steps and the last object.
fn check_explanation(args: &[&str], input: &str, solutions: &[Assignment]) -> (usize, String) {
    assert!(!solutions.is_empty());
    let mut a = args.to_vec();
    a.extend(["--explain", "--format", "json"]);
    let o = csp_stdin(&a, input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let mut steps = 0;
    let mut last = String::new();
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        last = line.to_string();
        if v.get("step").is_none_or(|s| s.is_null()) {
            continue;
        }
        steps += 1;
        let mut facts = Vec::new();
        for key in ["placements", "eliminations"] {
            for d in v[key].as_array().unwrap() {
                facts.push(d.as_str().unwrap().to_string());
            }
        }
        assert_eq!(facts.len(), 1, "one deduction a step: {line}");
        for f in &facts {
            holds(solutions, f).unwrap_or_else(|e| panic!("step {line}: {e}"));
        }
        assert!(!v["constraints"].as_array().unwrap().is_empty(), "{line}");
    }
    (steps, last)
}

#[test]
fn the_checker_rejects_a_wrong_deduction() {
    let sols = latin_solutions("1 2 .\n. 1 .\n. . 1\n");
    assert_eq!(sols.len(), 1);
    assert_eq!(holds(&sols, "r2c1=3"), Ok(()));
    assert_eq!(holds(&sols, "r2c1<>2"), Ok(()));
    assert!(holds(&sols, "r2c1=2").is_err());
    assert!(holds(&sols, "r2c1<>3").is_err());
    // A deduction true in one solution of two is not a deduction.
    let two = nonogram_solutions("tests/data/puzzles/nonogram-two.txt");
    assert_eq!(two.len(), 2);
    assert!(holds(&two, "r1c1=1").is_err());
    assert!(holds(&two, "r1c1=0").is_err());
}

#[test]
fn every_nonogram_step_holds_in_every_solution() {
    for file in [
        "examples/nonogram/data/heart.txt",
        "examples/nonogram/data/csp.txt",
    ] {
        let sols = nonogram_solutions(file);
        let (steps, last) = check_explanation(&["nonogram", &data(file)], "", &sols);
        assert!(steps > 0, "{file}");
        assert!(last.contains("\"end\": \"solved\""), "{file}: {last}");
    }
}

#[test]
fn every_minesweeper_step_holds_in_every_layout() {
    for file in [
        "examples/minesweeper/data/beginner.txt",
        "examples/minesweeper/data/pattern.txt",
        "tests/data/puzzles/minesweeper-two.txt",
    ] {
        let sols = minesweeper_solutions(file);
        check_explanation(&["minesweeper", &data(file)], "", &sols);
    }
    // The beginner board: propagation finds steps, then search is needed.
    let sols = minesweeper_solutions("examples/minesweeper/data/beginner.txt");
    let (steps, last) = check_explanation(
        &[
            "minesweeper",
            &data("examples/minesweeper/data/beginner.txt"),
        ],
        "",
        &sols,
    );
    assert!(steps >= 10, "{steps}");
    assert!(last.contains("\"search\""), "{last}");
}

#[test]
fn every_latin_step_holds_in_every_completion() {
    for square in [
        "1 . . .\n. . 3 .\n. 4 . .\n. . . 2\n",
        "1 2 . . .\n. . . . 1\n. . 4 . .\n3 . . . .\n. . . 5 .\n",
        "1 . .\n. . 2\n. 3 .\n",
    ] {
        let sols = latin_solutions(square);
        let (steps, _) = check_explanation(&["latin", "-"], square, &sols);
        if sols.len() == 1 {
            assert!(steps > 0, "{square}");
        }
    }
}

/// The first line of the output (a hint's sentence, before its board).
fn first_line(o: &std::process::Output) -> String {
    text(&o.stdout).lines().next().unwrap_or("").to_string()
}

#[test]
fn hint_text_names_the_rules() {
    let o = csp(&[
        "nonogram",
        &data("examples/nonogram/data/heart.txt"),
        "--hint",
    ]);
    assert!(o.status.success());
    assert_eq!(first_line(&o), "r2c1 = black by row 2 (4 4)");
    let o = csp(&[
        "minesweeper",
        &data("examples/minesweeper/data/beginner.txt"),
        "--hint",
    ]);
    assert_eq!(
        first_line(&o),
        "r8c7 = mine by the number at r7c8 from r7c8 = 1"
    );
    let o = csp_stdin(&["latin", "-", "--hint"], "1 . .\n. . 2\n. 3 .\n");
    assert_eq!(
        text(&o.stdout),
        "r1c2 ≠ 3 by column 2 from r3c2 = 3\n \
         1 <.> .\n \
         . [.] 2\n \
         . [3] .\n\
         <.> loses a value, [.] the cells of the rules and premises used\n"
    );
    let o = csp_stdin(&["latin", "-", "--rate"], "1 . .\n. . 2\n. 3 .\n");
    assert!(
        text(&o.stdout).starts_with("easy: score "),
        "{}",
        text(&o.stdout)
    );
    let o = csp_stdin(
        &["latin", "-", "--rate", "--format", "json"],
        "1 . .\n. . 2\n. 3 .\n",
    );
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["puzzle"], 1);
    assert_eq!(v["level"], "easy");
    assert_eq!(v["end"], "solved");
}

/// The file of a kind's two-solution or no-solution puzzle.
fn case(kind: &str, which: &str) -> String {
    data(&format!("tests/data/puzzles/{kind}-{which}.txt"))
}

const KINDS: [&str; 6] = [
    "sudoku",
    "kakuro",
    "futoshiki",
    "nonogram",
    "minesweeper",
    "latin",
];

#[test]
fn several_solutions_print_two_of_them_and_exit_0() {
    for kind in KINDS {
        let o = csp(&[kind, &case(kind, "two")]);
        assert_eq!(o.status.code(), Some(0), "{kind}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        if kind == "minesweeper" {
            // The board with the undecided cells, then two layouts.
            assert!(
                out.contains("undecided: 2\nmore than one mine layout fits; two of them:\n"),
                "{out}"
            );
            assert!(out.ends_with(".*\n11\n\n*.\n11\n"), "{out}");
            continue;
        }
        assert!(out.starts_with("more than one solution"), "{kind}: {out}");
        if kind == "sudoku" {
            let line = out.trim_end();
            let words: Vec<&str> = line.split(' ').collect();
            let (a, b) = (words[words.len() - 3], words[words.len() - 1]);
            assert_ne!(a, b);
            assert_eq!((a.len(), b.len()), (81, 81));
            continue;
        }
        // The two solutions are different and each one is a solution.
        let body = out.split_once('\n').unwrap().1;
        let (a, b) = body.split_once("\n\n").unwrap();
        assert_ne!(a.trim(), b.trim(), "{kind}");
        if kind != "latin" {
            // (csp latin --count takes an order, not a file.)
            let o = csp(&[kind, &case(kind, "two"), "--count"]);
            assert_eq!(text(&o.stdout), "2\n", "{kind}");
        }
    }
    // The hint modes say the same (not for Minesweeper, whose hints are
    // about the cells every layout agrees on), in JSON too.
    for kind in ["kakuro", "futoshiki", "nonogram", "latin"] {
        let o = csp(&[kind, &case(kind, "two"), "--hint"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(text(&o.stdout).starts_with("more than one solution; two of them:\n"));
        let o = csp(&[kind, &case(kind, "two"), "--explain", "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
        assert_eq!(v["solutions"], 2, "{kind}");
        assert_eq!(v["examples"].as_array().unwrap().len(), 2, "{kind}");
    }
}

#[test]
fn no_solution_names_the_conflicting_givens_and_exits_0() {
    let expect = [
        ("kakuro", vec!["r2c2=2"]),
        ("futoshiki", vec!["r1c1=2"]),
        (
            "nonogram",
            vec!["row 1 (1)", "row 2 (1)", "column 1 (2)", "column 2 (1)"],
        ),
        ("minesweeper", vec!["r2c2=3", "r2c3=1"]),
        ("latin", vec!["r1c1=1", "r2c2=1", "r3c3=2"]),
    ];
    for (kind, conflict) in expect {
        let o = csp(&[kind, &case(kind, "none")]);
        assert_eq!(o.status.code(), Some(0), "{kind}");
        let out = text(&o.stdout);
        let first = out.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "no solution: these givens cannot hold together: {}",
                conflict.join(", ")
            ),
            "{kind}"
        );
        assert!(
            out.lines().last().unwrap().starts_with("  contradiction: "),
            "{out}"
        );
        for mode in ["--hint", "--explain", "--rate"] {
            let o = csp(&[kind, &case(kind, "none"), mode, "--format", "json"]);
            assert_eq!(o.status.code(), Some(0), "{kind}");
            let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
            assert_eq!(v["puzzle"], 1);
            assert_eq!(v["solutions"], 0);
            let got: Vec<&str> = v["conflict"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            assert_eq!(got, conflict, "{kind} {mode}");
        }
        // The conflict is minimal and refuted: each kind's checker agrees
        // there is no solution (the count is 0).
        if kind != "latin" {
            let o = csp(&[kind, &case(kind, "none"), "--count"]);
            assert_eq!(text(&o.stdout), "0\n", "{kind}");
        }
    }
    let o = csp(&["sudoku", &case("sudoku", "none")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), "no solution\n");
    assert!(text(&o.stderr).contains("the givens r1c1=5, r1c2=5 cannot hold together"));
}

#[test]
fn a_bad_format_is_refused() {
    let o = csp(&["latin", &case("latin", "two"), "--hint", "--format", "xml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown format 'xml'"));
}

#[test]
fn the_no_solution_latin_conflict_is_minimal_by_brute_force() {
    // Drop each given of the conflict in turn: the rest has a completion.
    let givens = [(0, 0, 1u8), (1, 1, 1), (2, 2, 2)];
    for skip in 0..givens.len() {
        let mut sq = csp_latin::Square::empty(3).unwrap();
        for (i, &(r, c, v)) in givens.iter().enumerate() {
            if i != skip {
                sq.set(r, c, v).unwrap();
            }
        }
        let r = csp_latin::model::complete(&sq, &csp_latin::model::options());
        assert_eq!(r.outcome, Outcome::Solved, "without given {skip}");
    }
}

/// Every n-queens solution with the queens `placed` (row, column), by
/// brute force over the permutations of the columns, checked by
/// `csp_queens::verify::check`; squares named `c3` (1 for a queen).
fn queens_solutions(n: usize, placed: &[(usize, u32)]) -> Vec<Assignment> {
    fn permute(k: usize, cols: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if k == cols.len() {
            out.push(cols.clone());
            return;
        }
        for i in k..cols.len() {
            cols.swap(k, i);
            permute(k + 1, cols, out);
            cols.swap(k, i);
        }
    }
    let mut all = Vec::new();
    permute(0, &mut (0..n as u32).collect(), &mut all);
    all.into_iter()
        .filter(|cols| csp_queens::verify::check(cols).is_solution())
        .filter(|cols| placed.iter().all(|&(r, c)| cols[r] == c))
        .map(|cols| {
            let mut a = Assignment::new();
            for (r, &col) in cols.iter().enumerate() {
                for c in 0..n as u32 {
                    let name = csp_queens::render::square_name(r, c);
                    a.insert(name, i32::from(col == c));
                }
            }
            a
        })
        .collect()
}

#[test]
fn every_queens_step_holds_in_every_completion() {
    for (n, squares, placed) in [
        (4, "b1", vec![(0, 1)]),
        (6, "b1", vec![(0, 1)]),
        (8, "a1,e2", vec![(0, 0), (1, 4)]),
        (8, "d1", vec![(0, 3)]),
    ] {
        let sols = queens_solutions(n, &placed);
        let ns = n.to_string();
        let (steps, last) = check_explanation(&["queens", &ns, "--place", squares], "", &sols);
        if sols.len() == 1 {
            // Propagation finishes the board, or stops where search is
            // needed (4 queens with b1 finishes).
            assert!(steps > 0, "{n} {squares}");
            let end = last.contains("\"end\": \"solved\"") || last.contains("\"search\"");
            assert!(end, "{last}");
            if n == 4 {
                assert!(last.contains("\"end\": \"solved\""), "{last}");
            }
        } else {
            assert!(last.contains("\"solutions\": 2"), "{last}");
        }
    }
    // The checker rejects what is false in some completion.
    let sols = queens_solutions(8, &[(0, 3)]);
    assert!(sols.len() > 1);
    assert!(holds(&sols, "e2=1").is_err());
    assert_eq!(holds(&sols, "d2=0"), Ok(()));
}

#[test]
fn queens_with_queens_placed() {
    let o = csp(&["queens", "4", "--place", "b1", "--hint"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text(&o.stdout),
        "a2 = empty by diagonal b1–a2 from b1 = queen\n \
         .  .  .  .\n \
         .  .  .  .\n\
         (-) .  .  .\n \
         . [Q] .  .\n\
         (v) concluded here, [.] the cells of the rules and premises used\n"
    );
    let o = csp(&["queens", "4", "--place", "b1"]);
    assert_eq!(
        text(&o.stdout),
        "4 . . Q .\n3 Q . . .\n2 . . . Q\n1 . Q . .\n  a b c d\n"
    );
    // Several completions: two boards, exit 0.
    let o = csp(&["queens", "8", "--place", "d1"]);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("more than one solution; two of them:\n8 "),
        "{out}"
    );
    assert_eq!(out.matches("  a b c d e f g h\n").count(), 2);
    // None: the two queens on one diagonal, and why.
    let o = csp(&["queens", "6", "--place", "b1,c2"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text(&o.stdout),
        "no solution: these givens cannot hold together: b1 = queen, c2 = queen\n  \
         [1] b1 = queen  given\n  \
         [2] c2 = queen  given\n  \
         contradiction: diagonal b1–f5 from [1] [2]\n"
    );
    // Queens that do not attack each other but leave no completion: the
    // pair is found by search, and the brute force agrees.
    let o = csp(&[
        "queens", "8", "--place", "a1,b3,c5", "--rate", "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(v["solutions"], 0);
    assert_eq!(v["conflict"], serde_json::json!(["a1=1", "b3=1"]));
    assert!(queens_solutions(8, &[(0, 0), (2, 1)]).is_empty());
    assert!(!queens_solutions(8, &[(0, 0)]).is_empty());
    assert!(!queens_solutions(8, &[(2, 1)]).is_empty());
    // Bad squares and flags --place does not take.
    let o = csp(&["queens", "8", "--place", "i1"]);
    assert_eq!(o.status.code(), Some(2));
    let o = csp(&["queens", "8", "--place", "a1", "--count"]);
    assert_eq!(o.status.code(), Some(2));
    let o = csp(&["queens", "8", "--hint"]);
    assert_eq!(o.status.code(), Some(2));
}

/// One Minesweeper step checked locally, by a brute force written here:
/// over the hidden neighbours of the numbers the step names, with the
/// step's premises fixed (each a given number or a fact an earlier step
/// proved, `known`), every assignment that meets those numbers must
/// satisfy the deduction, and one must exist. `cells` is the board as
/// text rows ('?' hidden, '.' safe, '*' mine, digits).
fn minesweeper_step_follows(
    cells: &[Vec<char>],
    known: &BTreeMap<String, i32>,
    step: &serde_json::Value,
) -> Result<(), String> {
    let name = |r: usize, c: usize| format!("r{}c{}", r + 1, c + 1);
    let cell_of = |s: &str| -> Option<(usize, usize)> {
        let (r, c) = s.strip_prefix('r')?.split_once('c')?;
        Some((r.parse::<usize>().ok()? - 1, c.parse::<usize>().ok()? - 1))
    };
    let mut fixed = BTreeMap::new();
    for p in step["premises"].as_array().unwrap() {
        let (cell, v) = p.as_str().unwrap().split_once('=').ok_or("premise")?;
        let v: i32 = v.parse().map_err(|_| format!("premise {p}"))?;
        if known.get(cell) != Some(&v) {
            return Err(format!("premise {cell}={v} is neither given nor proved"));
        }
        fixed.insert(cell.to_string(), v);
    }
    // The numbers used: (count, the cells around it).
    let mut numbers = Vec::new();
    for c in step["constraints"].as_array().unwrap() {
        let c = c.as_str().unwrap();
        let at = c
            .strip_prefix("the number at ")
            .ok_or(format!("constraint {c}"))?;
        let (r, col) = cell_of(at).ok_or(format!("constraint {c}"))?;
        let n = cells[r][col]
            .to_digit(10)
            .ok_or(format!("{at} is no number"))? as i32;
        let mut around = Vec::new();
        for dr in -1i64..=1 {
            for dc in -1i64..=1 {
                let (rr, cc) = (r as i64 + dr, col as i64 + dc);
                if (dr, dc) == (0, 0) || rr < 0 || cc < 0 {
                    continue;
                }
                let (rr, cc) = (rr as usize, cc as usize);
                if rr < cells.len() && cc < cells[rr].len() {
                    around.push((rr, cc));
                }
            }
        }
        numbers.push((n, around));
    }
    let p = step["placements"].as_array().unwrap();
    let e = step["eliminations"].as_array().unwrap();
    if p.len() + e.len() != 1 {
        return Err("one deduction a step".to_string());
    }
    let d = p.iter().chain(e).next().unwrap().as_str().unwrap();
    let (d_cell, d_value, placed) = match d.split_once("<>") {
        Some((c, v)) => (c, v, false),
        None => {
            let (c, v) = d.split_once('=').ok_or("deduction")?;
            (c, v, true)
        }
    };
    let d_value: i32 = d_value.parse().map_err(|_| "deduction value")?;
    // The free cells: hidden neighbours not fixed by a premise.
    let mut free: Vec<String> = Vec::new();
    for (_, around) in &numbers {
        for &(r, c) in around {
            let n = name(r, c);
            if cells[r][c] == '?' && !fixed.contains_key(&n) && !free.contains(&n) {
                free.push(n);
            }
        }
    }
    if free.len() > 20 {
        return Err(format!("{} free cells: too many to enumerate", free.len()));
    }
    let mut consistent = 0;
    for bits in 0u32..1 << free.len() {
        let value_of = |r: usize, c: usize| -> i32 {
            match cells[r][c] {
                '*' => 1,
                '?' => {
                    let n = name(r, c);
                    match free.iter().position(|f| *f == n) {
                        Some(i) => ((bits >> i) & 1) as i32,
                        None => fixed[&n],
                    }
                }
                _ => 0,
            }
        };
        if numbers
            .iter()
            .all(|(n, around)| around.iter().map(|&(r, c)| value_of(r, c)).sum::<i32>() == *n)
        {
            consistent += 1;
            let (r, c) = cell_of(d_cell).ok_or("deduction cell")?;
            if (value_of(r, c) == d_value) != placed {
                return Err(format!("{d} fails where {d_cell}={}", value_of(r, c)));
            }
        }
    }
    if consistent == 0 {
        return Err("the premises and numbers admit nothing".to_string());
    }
    Ok(())
}

/// The expert board has too many layouts to enumerate, so each step of
/// its explanation is checked locally (`minesweeper_step_follows`), in
/// order: its premises are givens or earlier steps' facts, and its
/// numbers with those premises force its deduction. A forged step (the
/// deduction flipped, or a premise no step proved) is refused.
#[test]
fn every_minesweeper_expert_step_follows_from_its_numbers() {
    let file = data("examples/minesweeper/data/expert.txt");
    let text_ = std::fs::read_to_string(&file).unwrap();
    let cells: Vec<Vec<char>> = text_
        .lines()
        .filter(|l| !l.starts_with('%') && !l.starts_with("mines") && !l.trim().is_empty())
        .map(|l| l.trim().chars().collect())
        .collect();
    let mut known = BTreeMap::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, ch) in row.iter().enumerate() {
            if let Some(n) = ch.to_digit(10) {
                known.insert(format!("r{}c{}", r + 1, c + 1), n as i32);
            }
        }
    }
    let o = csp(&["minesweeper", &file, "--explain", "--format", "json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut steps = 0;
    for line in text(&o.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v.get("step").is_none_or(|s| s.is_null()) {
            continue;
        }
        steps += 1;
        if steps == 1 {
            // Forged: the deduction flipped, and a premise nobody proved.
            let mut flipped = v.clone();
            let d = v["placements"][0].as_str().unwrap().to_string();
            flipped["placements"][0] = serde_json::Value::from(d.replace("=1", "=0"));
            assert!(minesweeper_step_follows(&cells, &known, &flipped).is_err());
            let mut unproved = v.clone();
            unproved["premises"] = serde_json::json!(["r1c1=1"]);
            assert!(minesweeper_step_follows(&cells, &known, &unproved).is_err());
        }
        minesweeper_step_follows(&cells, &known, &v).unwrap_or_else(|e| panic!("{line}: {e}"));
        for key in ["placements", "eliminations"] {
            for d in v[key].as_array().unwrap() {
                // A 0/1 cell: `r1c2<>1` is `r1c2=0`.
                let d = d.as_str().unwrap();
                let (cell, val) = match d.split_once("<>") {
                    Some((c, v)) => (c, 1 - v.parse::<i32>().unwrap()),
                    None => {
                        let (c, v) = d.split_once('=').unwrap();
                        (c, v.parse().unwrap())
                    }
                };
                known.insert(cell.to_string(), val);
            }
        }
    }
    assert!(steps >= 20, "only {steps} steps");
}
