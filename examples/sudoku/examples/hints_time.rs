//! Measures hints on a puzzle file (for docs/benchmarks.md; run with
//! `cargo run --release -p csp-sudoku --example hints_time -- FILE`):
//! the technique hint (`csp sudoku --hint`) on every state along each
//! puzzle's step-wise solution, the whole explanation per puzzle, and the
//! generic `csp_core::hints::next_step` on the same states.

use std::time::{Duration, Instant};

use csp_core::hints;
use csp_core::Literal;
use csp_sudoku::pencil::Candidates;
use csp_sudoku::techniques::{self, Checker};
use csp_sudoku::{model, parse, Grid};

fn median(v: &mut [Duration]) -> Duration {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    v.get(((v.len() as f64 - 1.0) * p) as usize)
        .copied()
        .unwrap_or_default()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data/sudoku/top95.txt".into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let grids: Vec<Grid> = parse::entries(&text)
        .filter_map(|e| e.result.ok())
        .collect();
    let checker = Checker::new(3);
    let (m, cells) = model::model(&Grid::empty(3).unwrap());
    let mut hint_t = Vec::new();
    let mut generic_t = Vec::new();
    let mut full_t = Vec::new();
    let mut solved = 0;
    // Puzzles whose explanation needs a forcing net, and the steps per technique.
    let mut with_nets = 0;
    let mut used: std::collections::BTreeMap<techniques::Technique, usize> = Default::default();
    for g in &grids {
        let pm = Candidates::from_grid(g);
        let t = Instant::now();
        let (steps, end) = techniques::solve_steps(&pm, &checker).unwrap();
        full_t.push(t.elapsed());
        if end == techniques::End::Solved {
            solved += 1;
        }
        if steps
            .iter()
            .any(|s| s.technique.level() == techniques::Level::Extreme)
        {
            with_nets += 1;
        }
        for s in &steps {
            *used.entry(s.technique).or_default() += 1;
        }
        let mut state = pm.clone();
        for (k, s) in steps.iter().enumerate() {
            let t = Instant::now();
            let h = techniques::next_with(&state, &checker).unwrap();
            hint_t.push(t.elapsed());
            assert!(h.is_some());
            // The generic library on every 8th state (it is slower).
            if k % 8 == 0 {
                let mut facts = Vec::new();
                for c in 0..81 {
                    let x = cells[c / 9][c % 9];
                    if state.value(c) != 0 {
                        facts.push(Literal::Eq(x, i32::from(state.value(c))));
                    } else {
                        for d in 1..=9u8 {
                            if !state.has(c, d) {
                                facts.push(Literal::Ne(x, i32::from(d)));
                            }
                        }
                    }
                }
                let t = Instant::now();
                let r = hints::next_step(&m, &facts, &hints::Options::default()).unwrap();
                generic_t.push(t.elapsed());
                assert!(!matches!(r, hints::Next::Contradiction(_)));
            }
            techniques::apply(&mut state, s);
        }
    }
    let mean = |v: &[Duration]| v.iter().sum::<Duration>() / v.len().max(1) as u32;
    println!(
        "{path}: {} puzzles, {solved} solved by the techniques, {with_nets} of them with a forcing net",
        grids.len()
    );
    let counts: Vec<String> = used.iter().map(|(t, k)| format!("{t} {k}")).collect();
    println!("steps per technique: {}", counts.join(", "));
    println!(
        "technique hint: {} states, median {:?}, 90th percentile {:?}, max {:?}",
        hint_t.len(),
        median(&mut hint_t),
        pct(&mut hint_t, 0.9),
        pct(&mut hint_t, 1.0)
    );
    println!(
        "whole explanation: mean {:?} per puzzle, max {:?}",
        mean(&full_t),
        pct(&mut full_t, 1.0)
    );
    println!(
        "generic next_step: {} states, median {:?}, 90th percentile {:?}",
        generic_t.len(),
        median(&mut generic_t),
        pct(&mut generic_t, 0.9)
    );
    // The generic step-wise explanation of the first five puzzles from
    // their givens (one literal a step).
    for g in grids.iter().take(5) {
        let mut givens = Vec::new();
        for (i, &v) in g.cells().iter().enumerate() {
            if v != 0 {
                givens.push(Literal::Eq(cells[i / 9][i % 9], i32::from(v)));
            }
        }
        let t = Instant::now();
        let seq = hints::explain(&m, &givens, &hints::Options::default()).unwrap();
        let d = seq.difficulty();
        println!(
            "generic explain: {} steps in {:?}, end {:?}, hardest step {}",
            seq.steps.len(),
            t.elapsed(),
            match seq.end {
                hints::End::SearchNeeded { .. } => "search needed",
                hints::End::Solved => "solved",
                _ => "other",
            },
            d.hardest
        );
    }
    // Why no solution: a contradictory 9x9 (box 1 has no place for 9).
    let bad: Grid = format!("123......456......78......9{}", ".".repeat(54))
        .parse()
        .unwrap();
    let mut givens = Vec::new();
    for (i, &v) in bad.cells().iter().enumerate() {
        if v != 0 {
            givens.push(Literal::Eq(cells[i / 9][i % 9], i32::from(v)));
        }
    }
    let t = Instant::now();
    let why = hints::why_no_solution(&m, &givens, &hints::Options::default())
        .unwrap()
        .unwrap();
    println!(
        "why no solution: {} givens of {} in {:?}",
        why.conflict.len(),
        givens.len(),
        t.elapsed()
    );
}
