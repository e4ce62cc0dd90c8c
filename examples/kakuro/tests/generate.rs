//! How the example's puzzles were made: a pattern of black (`#`) and white
//! (`.`) cells, filled with digits all different in every run by the engine
//! (random value order), its clues derived from the filling, kept when the
//! engine counts exactly one solution.
//!
//! `KAKURO_PATTERN=pattern.txt cargo test -p csp-kakuro --test generate --
//! --ignored --nocapture` prints a puzzle for the pattern in the file.

use csp_core::{Domain, Model, Search, SearchOptions, ValOrder, VarId, VarOrder};
use csp_kakuro::{check, model, parse, render, sum_range, Puzzle};

/// The pattern as a puzzle: every black cell before a run gets a clue,
/// first the least sum the run can have (a placeholder).
fn placeholder(pattern: &str) -> Puzzle {
    let rows: Vec<Vec<bool>> = pattern
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().chars().map(|c| c == '.').collect())
        .collect();
    let (h, w) = (rows.len(), rows[0].len());
    let white = |r: usize, c: usize| r < h && c < w && rows[r][c];
    let run = |r: usize, c: usize, dr: usize, dc: usize| {
        (1..).take_while(|&i| white(r + i * dr, c + i * dc)).count()
    };
    let mut text = String::new();
    for r in 0..h {
        for c in 0..w {
            let token = if white(r, c) {
                ".".to_string()
            } else {
                let sum = |n: usize| {
                    if n >= 2 {
                        sum_range(n).0.to_string()
                    } else {
                        String::new()
                    }
                };
                let (down, across) = (sum(run(r, c, 1, 0)), sum(run(r, c, 0, 1)));
                if down.is_empty() && across.is_empty() {
                    "#".to_string()
                } else {
                    format!("{down}\\{across}")
                }
            };
            text.push_str(&token);
            text.push(' ');
        }
        text.push('\n');
    }
    parse(&text).unwrap().remove(0)
}

/// Digits for the white cells, all different in every run, chosen at
/// random, except that cells `keep` holds (non-zero) keep their digit.
fn fill(p: &Puzzle, seed: u64, keep: &[i32]) -> Vec<i32> {
    let mut m = Model::new();
    let cells = m.new_vars(p.whites.len(), Domain::range(1, 9)).unwrap();
    for run in &p.runs {
        let vars: Vec<VarId> = run.cells.iter().map(|&i| cells[i]).collect();
        m.all_different(&vars).unwrap();
    }
    for (&x, &d) in cells.iter().zip(keep) {
        if d != 0 {
            m.post(x.eq(d)).unwrap();
        }
    }
    let opts = SearchOptions {
        var_order: VarOrder::Mrv,
        val_order: ValOrder::Random { seed },
        ..Default::default()
    };
    let s = Search::new(&m)
        .options(opts)
        .solve()
        .unwrap()
        .solution
        .unwrap();
    cells.iter().map(|&x| s[x]).collect()
}

/// The puzzle whose clues are the sums of `digits`.
fn with_clues(p: &Puzzle, digits: &[i32]) -> Puzzle {
    let mut q = p.clone();
    for run in &mut q.runs {
        run.sum = run.cells.iter().map(|&i| digits[i]).sum();
    }
    let blank = vec![0; p.whites.len()];
    // Re-render with the new sums: rebuild the text cell by cell.
    let mut cells = q.cells.clone();
    for run in &q.runs {
        let first = q.whites[run.cells[0]];
        let clue = if run.across {
            first - 1
        } else {
            first - q.width
        };
        if let csp_kakuro::Cell::Clue { down, across } = &mut cells[clue] {
            if run.across {
                *across = Some(run.sum);
            } else {
                *down = Some(run.sum);
            }
        }
    }
    q.cells = cells;
    parse(&render(&q, &blank)).unwrap().remove(0)
}

/// The solutions of the puzzle whose clues are the sums of `digits`, up
/// to `limit` of them.
fn solutions(p: &Puzzle, digits: &[i32], limit: usize) -> (Puzzle, Vec<Vec<i32>>) {
    let q = with_clues(p, digits);
    check(&q, digits).unwrap();
    let (m, cells) = model(&q).unwrap();
    let sols = Search::new(&m)
        .options(csp_kakuro::options())
        .solutions()
        .unwrap()
        .take(limit)
        .map(|s| cells.iter().map(|&x| s[x]).collect())
        .collect();
    (q, sols)
}

/// A puzzle with one solution for the pattern, by hill climbing: fill it
/// at random; while the clues allow other solutions, pick a cell where one
/// differs, fill the runs through it again (the rest kept), and keep the
/// new digits when they allow no more solutions than before (counted up
/// to 200); at most `steps` times.
fn generate(pattern: &str, seed: u64, steps: u64) -> Option<(Puzzle, Vec<i32>)> {
    let p = placeholder(pattern);
    let mut digits = fill(&p, seed, &[]);
    let (mut q, mut sols) = solutions(&p, &digits, 200);
    for t in 0..steps {
        if sols.len() == 1 {
            return Some((q, digits));
        }
        if t % 100 == 99 {
            eprintln!("{} steps, {} solutions", t + 1, sols.len());
        }
        let other = &sols[(seed + t) as usize % sols.len()];
        let differ: Vec<usize> = (0..digits.len())
            .filter(|&i| digits[i] != other[i])
            .collect();
        let Some(&k) = differ.get((seed + t) as usize % differ.len().max(1)) else {
            continue;
        };
        let mut keep = digits.clone();
        for run in p.runs.iter().filter(|r| r.cells.contains(&k)) {
            for &i in &run.cells {
                keep[i] = 0;
            }
        }
        let next = fill(&p, seed + t + 1, &keep);
        let (q2, sols2) = solutions(&p, &next, 200);
        if sols2.len() <= sols.len() {
            (digits, q, sols) = (next, q2, sols2);
        }
    }
    None
}

#[test]
fn a_small_pattern_gives_a_unique_puzzle() {
    let pattern = "###\n#..\n#..\n";
    let (p, digits) = generate(pattern, 1, 200).unwrap();
    check(&p, &digits).unwrap();
    let (m, _) = model(&p).unwrap();
    assert_eq!(Search::new(&m).count().unwrap().count, 1);
}

#[test]
#[ignore = "prints a puzzle for the pattern in $KAKURO_PATTERN"]
fn print_a_puzzle() {
    let pattern = std::fs::read_to_string(std::env::var("KAKURO_PATTERN").unwrap()).unwrap();
    let seed = std::env::var("KAKURO_SEED").map_or(1, |s| s.parse().unwrap());
    match generate(&pattern, seed, 10_000) {
        Some((p, digits)) => {
            print!("{}", render(&p, &vec![0; p.whites.len()]));
            println!();
            print!("{}", render(&p, &digits));
        }
        None => println!("no unique puzzle in 10,000 tries"),
    }
}
