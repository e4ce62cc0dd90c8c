//! `--trace` of the local teaching searches: min-conflicts prints every
//! start and move, the genetic search every generation. The lines are
//! replayed here against a board kept by the test: the attackers of every
//! square, the attacking pairs, the moves' choices and the final solution
//! are all counted again.

use std::process::Output;

mod common;
use common::{csp, text, xml_roots};

/// Whether the queens of rows `r1` and `r2` (columns `c1`, `c2`) attack
/// each other.
fn attack(r1: usize, c1: u32, r2: usize, c2: u32) -> bool {
    c1 == c2 || c1.abs_diff(c2) as usize == r1.abs_diff(r2)
}

fn pairs(cols: &[u32]) -> usize {
    let mut k = 0;
    for i in 0..cols.len() {
        for j in 0..i {
            k += usize::from(attack(i, cols[i], j, cols[j]));
        }
    }
    k
}

fn numbers(s: &str) -> Vec<u32> {
    s.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

/// `3 attacking pairs` or `1 attacking pair` → 3 or 1.
fn pair_count(s: &str) -> usize {
    let s = s.trim().trim_start_matches('(').trim_end_matches(')');
    s.strip_suffix(" attacking pairs")
        .or_else(|| s.strip_suffix(" attacking pair"))
        .unwrap_or_else(|| panic!("{s}"))
        .parse()
        .unwrap()
}

fn traced(solver: &str, n: usize, seed: u64) -> (Output, String) {
    let (ns, seed) = (n.to_string(), seed.to_string());
    let o = csp(&[
        "queens", &ns, "--solver", solver, "--trace", "--seed", &seed, "--stats",
    ]);
    let out = text(&o.stdout);
    (o, out)
}

/// The nodes of the statistics line.
fn nodes(o: &Output) -> u64 {
    let err = text(&o.stderr);
    let at = err.find("nodes: ").unwrap() + "nodes: ".len();
    err[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn min_conflicts_moves_replay_on_the_board() {
    for (n, seed) in [(4, 1), (6, 1), (8, 1), (8, 2), (8, 3), (12, 7), (30, 1)] {
        let (o, out) = traced("teach-min-conflicts", n, seed);
        assert_eq!(o.status.code(), Some(0), "n={n} seed {seed}");
        let mut board: Vec<u32> = Vec::new(); // 1-based columns
        let mut moves = 0u64;
        let mut solution = None;
        for line in out.lines() {
            if let Some(rest) = line.strip_prefix("start: ") {
                let (cols, count) = rest.split_once(" (").unwrap();
                board = numbers(cols);
                assert_eq!(board.len(), n);
                assert_eq!(pairs(&board), pair_count(count), "{line}");
            } else if let Some(rest) = line.strip_prefix("move ") {
                moves += 1;
                // move 5: row 2 from column 5 to 3; attackers by column: 2 3 0 2 [1] 3; 2 attacking pairs left
                let (k, rest) = rest.split_once(": row ").unwrap();
                assert_eq!(k.parse::<u64>().unwrap(), moves, "{line}");
                let parts: Vec<&str> = rest.split("; ").collect();
                assert_eq!(parts.len(), 3, "{line}");
                let w: Vec<&str> = parts[0].split_whitespace().collect();
                let (row, from, to): (usize, u32, u32) = (
                    w[0].parse().unwrap(),
                    w[3].parse().unwrap(),
                    w[5].parse().unwrap(),
                );
                assert_eq!(board[row - 1], from, "{line}: the queen's column");
                // The attackers of every square of the row, counted here.
                let listed = parts[1].strip_prefix("attackers by column: ").unwrap();
                let counted: Vec<String> = (1..=n as u32)
                    .map(|x| {
                        let a = (0..n)
                            .filter(|&r| r != row - 1 && attack(r, board[r], row - 1, x))
                            .count();
                        if x == from {
                            format!("[{a}]")
                        } else {
                            a.to_string()
                        }
                    })
                    .collect();
                assert_eq!(listed, counted.join(" "), "{line}");
                // The queen was attacked, and moves to a least attacked
                // other square.
                let a = |x: u32| {
                    (0..n)
                        .filter(|&r| r != row - 1 && attack(r, board[r], row - 1, x))
                        .count()
                };
                assert!(a(from) > 0, "{line}: the queen was not attacked");
                let least = (1..=n as u32).filter(|&x| x != from).map(a).min().unwrap();
                assert!(to != from && a(to) == least, "{line}");
                board[row - 1] = to;
                let left = parts[2].strip_suffix(" left").unwrap();
                assert_eq!(pairs(&board), pair_count(left), "{line}");
            } else if let Some(rest) = line.strip_prefix("solution: ") {
                solution = Some(numbers(rest));
            } else {
                panic!("unexpected line: {line}");
            }
        }
        let solution = solution.expect("a solution line");
        assert_eq!(solution, board, "n={n}: the moves end on the solution");
        assert_eq!(pairs(&solution), 0);
        // One node a move, and the last look at a board with no attack.
        assert_eq!(nodes(&o), moves + 1, "n={n} seed {seed}");
        // Watched or not, the same search.
        let (ns, s) = (n.to_string(), seed.to_string());
        let plain = csp(&[
            "queens",
            &ns,
            "--solver",
            "teach-min-conflicts",
            "--seed",
            &s,
            "--format",
            "columns",
        ]);
        assert_eq!(numbers(&text(&plain.stdout)), solution);
    }
}

#[test]
fn genetic_generations_report_their_best_and_mean() {
    for (n, seed) in [(6, 1), (8, 1), (8, 2), (8, 3), (10, 1)] {
        let (o, out) = traced("teach-genetic", n, seed);
        assert_eq!(o.status.code(), Some(0), "n={n} seed {seed}");
        let mut last_best = usize::MAX;
        let mut generations = 0u64;
        let mut best_cols = Vec::new();
        let mut solution = None;
        for line in out.lines() {
            if let Some(rest) = line.strip_prefix("generation ") {
                // generation 3: best 0 attacking pairs (5 1 4 6 8 2 7 3), mean 3.71
                generations += 1;
                let (k, rest) = rest.split_once(": best ").unwrap();
                assert_eq!(k.parse::<u64>().unwrap(), generations, "{line}");
                let (count, rest) = rest.split_once(" (").unwrap();
                let (cols, mean) = rest.split_once("), mean ").unwrap();
                let best = pair_count(count);
                best_cols = numbers(cols);
                let mut sorted = best_cols.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (1..=n as u32).collect::<Vec<_>>(), "a permutation");
                assert_eq!(pairs(&best_cols), best, "{line}: the best recounted");
                // The best tenth is kept: the best never gets worse.
                assert!(best <= last_best, "{line}");
                last_best = best;
                let mean: f64 = mean.parse().unwrap();
                assert!(mean + 0.005 >= best as f64, "{line}");
            } else if let Some(rest) = line.strip_prefix("solution: ") {
                solution = Some(numbers(rest));
            } else {
                panic!("unexpected line: {line}");
            }
        }
        assert_eq!(last_best, 0, "n={n}");
        assert_eq!(solution, Some(best_cols), "n={n}");
        // 100 individuals scored a generation.
        assert_eq!(nodes(&o), 100 * generations, "n={n} seed {seed}");
    }
}

#[test]
fn local_traces_are_not_trees() {
    for solver in ["teach-min-conflicts", "teach-genetic", "teach-bits"] {
        for format in ["dot", "json"] {
            let o = csp(&[
                "queens", "8", "--solver", solver, "--trace", "--format", format,
            ]);
            assert_eq!(o.status.code(), Some(2), "{solver} {format}");
            assert!(text(&o.stderr).contains("--format"), "{}", text(&o.stderr));
        }
    }
    // A search that gives up says so, after its steps.
    let o = csp(&["queens", "3", "--solver", "teach-genetic", "--trace"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).starts_with("generation 1: best "));
    assert!(text(&o.stderr).contains("gave up"), "{}", text(&o.stderr));
}

/// A binary mask of `n` digits, column a the lowest bit (on the right).
fn mask(s: &str) -> u64 {
    u64::from_str_radix(s, 2).unwrap()
}

#[test]
fn bitboard_masks_match_the_board() {
    const COUNTS: [usize; 9] = [1, 1, 0, 0, 2, 10, 4, 40, 92];
    for (n, &count) in COUNTS.iter().enumerate().skip(1) {
        let ns = n.to_string();
        let o = csp(&["queens", &ns, "--solver", "teach-bits", "--trace", "--all"]);
        assert_eq!(o.status.code(), Some(0), "n={n}");
        let out = text(&o.stdout);
        let mut lines = out.lines();
        assert!(lines.next().unwrap().starts_with("masks in binary"));
        // The queens placed (0-based columns) and, per row, the free
        // squares not tried yet.
        let mut placed: Vec<u32> = Vec::new();
        let mut untried: Vec<u64> = vec![0; n];
        let mut solutions = 0;
        for line in lines {
            let t = line.trim_start();
            let indent = line.len() - t.len();
            if let Some(rest) = t.strip_prefix("solution: ") {
                assert_eq!((placed.len(), indent), (n, 2 * n), "{line}");
                let cols: Vec<u32> = rest.split(' ').map(|c| c.parse().unwrap()).collect();
                assert_eq!(cols, placed.iter().map(|c| c + 1).collect::<Vec<_>>());
                assert_eq!(pairs(&placed), 0, "{line}");
                solutions += 1;
                continue;
            }
            let (row, rest) = t.strip_prefix("row ").unwrap().split_once(": ").unwrap();
            let row: usize = row.parse::<usize>().unwrap() - 1;
            assert_eq!(indent, 2 * row, "{line}: indented by its row");
            if let Some(rest) = rest.strip_prefix("queen on ") {
                // `queen on c2, bit 0100 = free & -free`
                placed.truncate(row);
                let (square, rest) = rest.split_once(", bit ").unwrap();
                let col = u32::from(square.as_bytes()[0] - b'a');
                assert_eq!(&square[1..], (row + 1).to_string(), "{line}");
                let bit = mask(rest.split_whitespace().next().unwrap());
                assert_eq!(bit, 1 << col, "{line}");
                // The lowest free square not tried yet.
                let lowest = untried[row] & untried[row].wrapping_neg();
                assert_eq!(bit, lowest, "{line}");
                untried[row] ^= bit;
                placed.push(col);
                continue;
            }
            // `row 3: columns 0101  left 0010  right 1100  free 0000  dead end`
            placed.truncate(row);
            let w: Vec<&str> = rest.split_whitespace().collect();
            let (columns, left, right, free) = (mask(w[1]), mask(w[3]), mask(w[5]), mask(w[7]));
            // The same masks, from the queens on the board.
            let (mut c, mut l, mut r) = (0u64, 0u64, 0u64);
            for (qr, &qc) in placed.iter().enumerate() {
                let d = (row - qr) as u32;
                c |= 1 << qc;
                if qc >= d {
                    l |= 1 << (qc - d);
                }
                if qc + d < n as u32 {
                    r |= 1 << (qc + d);
                }
            }
            assert_eq!(
                (columns, left, right),
                (c, l, r),
                "{line}: n={n} {placed:?}"
            );
            let all = (1u64 << n) - 1;
            assert_eq!(free, all & !(c | l | r), "{line}");
            assert_eq!(w.len() > 8, free == 0, "{line}: dead end");
            // Every free square of the row before was tried.
            assert_eq!(untried[row], 0, "{line}");
            untried[row] = free;
        }
        assert_eq!(solutions, count, "n={n}");
        assert!(
            untried.iter().all(|&u| u == 0),
            "n={n}: squares left untried"
        );
    }
}

fn trace_lines(solver: &str, n: usize) -> Vec<String> {
    let ns = n.to_string();
    let o = csp(&["queens", &ns, "--solver", solver, "--trace", "--all"]);
    assert_eq!(o.status.code(), Some(0), "{solver} n={n}");
    text(&o.stdout).lines().map(str::to_string).collect()
}

/// teach-sets puts a queen only on free squares: its tree is teach-stack's
/// (checked against the engine's elsewhere) without the attacked squares
/// the stack tries and refutes (`x`).
#[test]
fn the_sets_tree_is_the_stack_tree_without_attacked_squares() {
    for n in 1..=7 {
        let stack: Vec<String> = trace_lines("teach-stack", n)
            .into_iter()
            .filter(|l| !l.ends_with(") x"))
            .collect();
        let sets = trace_lines("teach-sets", n);
        assert_eq!(sets, stack, "n={n}");
    }
}

/// The brute-force traces list every placement they test, in order, under
/// the empty board, each marked by the test's own check.
#[test]
fn brute_force_traces_list_every_placement_tested() {
    for n in 1..=5usize {
        for solver in ["teach-nn", "teach-perm"] {
            let lines = trace_lines(solver, n);
            assert_eq!(lines[0], format!("({})", vec!["*"; n].join(" ")));
            let tested: Vec<(Vec<u32>, bool)> = lines[1..]
                .iter()
                .map(|l| {
                    let l = l.strip_prefix("  (").expect(l);
                    let (cols, mark) = l.split_once(')').unwrap();
                    let cols: Vec<u32> = numbers(cols).iter().map(|c| c - 1).collect();
                    (cols, mark == " solution")
                })
                .collect();
            // Every candidate, in lexicographic order.
            let mut all: Vec<Vec<u32>> = vec![vec![]];
            for _ in 0..n {
                all = all
                    .into_iter()
                    .flat_map(|p| {
                        (0..n as u32).map(move |c| {
                            let mut q = p.clone();
                            q.push(c);
                            q
                        })
                    })
                    .collect();
            }
            if solver == "teach-perm" {
                all.retain(|p| (0..n as u32).all(|c| p.contains(&c)));
            }
            let listed: Vec<Vec<u32>> = tested.iter().map(|t| t.0.clone()).collect();
            assert_eq!(listed, all, "{solver} n={n}");
            for (cols, solution) in &tested {
                assert_eq!(*solution, pairs(cols) == 0, "{solver} {cols:?}");
            }
        }
    }
}

/// The figures a chart line carries, by its name.
fn chart_values(svg: &str, name: &str) -> Vec<f64> {
    let line = svg
        .lines()
        .find(|l| l.contains("<polyline") && l.contains(&format!("<title>{name}</title>")))
        .unwrap_or_else(|| panic!("no line {name}"));
    let values = line.split("data-values=\"").nth(1).unwrap();
    let values = &values[..values.find('"').unwrap()];
    values.split(' ').map(|v| v.parse().unwrap()).collect()
}

/// `--trace --format svg` charts a local search: one SVG document whose
/// lines carry the figures the text trace prints, point for point.
#[test]
fn local_search_charts_draw_the_traced_figures() {
    let svg_of = |solver: &str, n: &str| {
        let o = csp(&[
            "queens", n, "--solver", solver, "--trace", "--format", "svg",
        ]);
        assert_eq!(o.status.code(), Some(0), "{solver}");
        let svg = text(&o.stdout);
        assert_eq!(xml_roots(&svg), Ok(vec!["svg".to_string()]), "{solver}");
        svg
    };
    // The genetic search: best and mean per generation.
    let svg = svg_of("teach-genetic", "12");
    let (_, out) = traced("teach-genetic", 12, 1);
    let (mut best, mut mean) = (Vec::new(), Vec::new());
    for line in out.lines().filter(|l| l.starts_with("generation ")) {
        let count = line
            .split(": best ")
            .nth(1)
            .unwrap()
            .split(" (")
            .next()
            .unwrap();
        best.push(pair_count(count) as f64);
        mean.push(line.rsplit("mean ").next().unwrap().parse::<f64>().unwrap());
    }
    assert!(best.len() > 1);
    assert_eq!(chart_values(&svg, "best"), best);
    assert_eq!(chart_values(&svg, "mean"), mean);
    assert!(
        best.windows(2).all(|w| w[1] <= w[0]),
        "the best never worsens"
    );
    // Min-conflicts: the attacking pairs after each start and move.
    let svg = svg_of("teach-min-conflicts", "10");
    let (_, out) = traced("teach-min-conflicts", 10, 1);
    let left: Vec<f64> = out
        .lines()
        .filter(|l| !l.starts_with("solution"))
        .map(|l| {
            let tail = l.rsplit("; ").next().unwrap();
            let tail = tail.rsplit(" (").next().unwrap();
            pair_count(tail.trim_end_matches(" left")) as f64
        })
        .collect();
    assert_eq!(chart_values(&svg, "attacking pairs"), left);
    assert_eq!(left.last(), Some(&0.0));
    // Other solvers draw trees, not charts.
    let o = csp(&["queens", "8", "--trace", "--format", "svg"]);
    assert_eq!(o.status.code(), Some(2));
}
