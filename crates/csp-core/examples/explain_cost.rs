//! The cost of explaining mode: the same searches with it off and on.
//!
//! ```sh
//! cargo run --release -p csp-core --example explain_cost [queens|sudoku|all] [FILE]
//! ```
//!
//! `queens`: the 12-queens count (forward checking, the fused
//! all-different); `sudoku`: every puzzle of a file, one per line
//! (default `examples/sudoku/tests/data/top95.txt`, MAC). Prints the best
//! of eleven wall-clock times with explaining off and on (run in turn),
//! and their ratio; `EXPLAIN_COST_ROUNDS=N` takes the best of `N`
//! instead (more rounds, less noise on a shared machine).
//! For instruction counts, run it under `valgrind --tool=callgrind` with
//! `off` or `on` as the last argument, which runs that mode once.

use std::time::{Duration, Instant};

use csp_core::{Domain, Inference, Model, Search, SearchOptions, Value, VarId, VarOrder};

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as Value - 1)).unwrap();
    let up: Vec<Value> = (0..n as Value).collect();
    let down: Vec<Value> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    m
}

fn sudoku(line: &str) -> Option<Model> {
    let cells: Vec<u8> = line
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    if cells.len() != 81 {
        return None;
    }
    let mut m = Model::new();
    let x: Vec<VarId> = cells
        .iter()
        .map(|&v| {
            let d = if v == 0 {
                Domain::range(1, 9)
            } else {
                Domain::singleton(v as Value)
            };
            m.new_var(d).unwrap()
        })
        .collect();
    for i in 0..9 {
        let row: Vec<VarId> = (0..9).map(|j| x[9 * i + j]).collect();
        let col: Vec<VarId> = (0..9).map(|j| x[9 * j + i]).collect();
        let bx: Vec<VarId> = (0..9)
            .map(|j| x[9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3])
            .collect();
        for unit in [row, col, bx] {
            m.all_different(&unit).unwrap();
        }
    }
    Some(m)
}

fn run(models: &[Model], options: &SearchOptions, explain: bool, count: bool) -> u128 {
    let mut total = 0;
    for m in models {
        let mut s = Search::new(m).options(options.clone()).explaining(explain);
        total += if count {
            s.count().unwrap().count
        } else {
            u128::from(s.solve().unwrap().solution.is_some())
        };
    }
    total
}

/// The best times of `off` and `on` over `rounds` rounds, the two run in
/// turn (so that a busy spell on a shared machine slows both), and their
/// answers.
fn best_of(
    rounds: usize,
    mut off: impl FnMut() -> u128,
    mut on: impl FnMut() -> u128,
) -> ((Duration, u128), (Duration, u128)) {
    let (mut a, mut b) = ((Duration::MAX, 0), (Duration::MAX, 0));
    for _ in 0..rounds {
        let t = Instant::now();
        a.1 = off();
        a.0 = a.0.min(t.elapsed());
        let t = Instant::now();
        b.1 = on();
        b.0 = b.0.min(t.elapsed());
    }
    (a, b)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args
        .first()
        .map(String::as_str)
        .filter(|a| *a != "on" && *a != "off")
        .unwrap_or("all");
    let once = args
        .last()
        .map(String::as_str)
        .filter(|a| *a == "on" || *a == "off");
    if !["queens", "sudoku", "all"].contains(&which) {
        eprintln!("usage: explain_cost [queens|sudoku|all] [FILE] [on|off]");
        std::process::exit(2);
    }
    let mut jobs: Vec<(&str, Vec<Model>, SearchOptions, bool)> = Vec::new();
    if which == "queens" || which == "all" {
        let fc = SearchOptions {
            inference: Inference::ForwardChecking,
            ..Default::default()
        };
        jobs.push(("12-queens count", vec![queens(12)], fc, true));
    }
    if which == "sudoku" || which == "all" {
        let file = args
            .get(1)
            .filter(|a| *a != "on" && *a != "off")
            .cloned()
            .unwrap_or_else(|| {
                // The workspace's copy, whatever the working directory.
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../examples/sudoku/tests/data/top95.txt"
                )
                .into()
            });
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("explain_cost: cannot read {file}: {e}");
                std::process::exit(2);
            }
        };
        let models: Vec<Model> = text.lines().filter_map(sudoku).collect();
        let mac = SearchOptions {
            inference: Inference::Mac,
            var_order: VarOrder::Mrv,
            ..Default::default()
        };
        jobs.push(("sudoku file", models, mac, false));
    }
    let rounds = std::env::var("EXPLAIN_COST_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r: &usize| r > 0)
        .unwrap_or(11);
    for (name, models, options, count) in &jobs {
        if let Some(mode) = once {
            let r = run(models, options, mode == "on", *count);
            println!("{name}, explaining {mode}: {r}");
            continue;
        }
        let ((off, a), (on, b)) = best_of(
            rounds,
            || run(models, options, false, *count),
            || run(models, options, true, *count),
        );
        assert_eq!(a, b, "explaining changed the answer");
        println!(
            "{name}: off {:.1} ms, on {:.1} ms, ratio {:.2}",
            off.as_secs_f64() * 1e3,
            on.as_secs_f64() * 1e3,
            on.as_secs_f64() / off.as_secs_f64()
        );
    }
}
