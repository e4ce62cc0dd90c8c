//! Forcing nets: every net step the detectors find at a state where the
//! simpler techniques are exhausted is proved by the exact-cover checker,
//! agrees with the puzzle's solution, and stops being provable when the
//! rule its contradiction ends on is dropped (the checker is not vacuous).

use csp_sudoku::model::{self, Uniqueness};
use csp_sudoku::pencil::Candidates;
use csp_sudoku::techniques::{apply, find_all, next_with, Checker, Rule, Technique};
use csp_sudoku::{parse, Grid};

fn top95(line: usize) -> Grid {
    let path = format!("{}/tests/data/top95.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse::parse_puzzles(&text).expect("top95 parses")[line - 1].clone()
}

/// The state of puzzle `g` where the first forcing net is needed.
fn first_net_state(g: &Grid, checker: &Checker) -> Candidates {
    let mut pm = Candidates::from_grid(g);
    loop {
        let s = next_with(&pm, checker)
            .expect("every step proved")
            .expect("the puzzle needs a forcing net before it is stuck");
        if matches!(
            s.technique,
            Technique::ForcingNetContradiction | Technique::ForcingNetVerity
        ) {
            return pm;
        }
        apply(&mut pm, &s);
    }
}

#[test]
fn forcing_nets_are_proved_and_agree_with_the_solution() {
    // The seventh puzzle of top95 needs a net after 17 steps (the eighth,
    // used before the AICs, no longer needs one).
    let g = top95(7);
    let Uniqueness::Unique(sol) = model::is_unique(&g, &model::options()) else {
        panic!("top95 8 has one solution")
    };
    let checker = Checker::new(3);
    let pm = first_net_state(&g, &checker);
    let contradictions = find_all(&pm, Technique::ForcingNetContradiction);
    assert!(!contradictions.is_empty());
    let verities = find_all(&pm, Technique::ForcingNetVerity);
    for s in contradictions.iter().chain(&verities) {
        checker.verify(&pm, s).unwrap_or_else(|e| panic!("{e}"));
        for &(c, d) in &s.eliminations {
            assert_ne!(sol.cells()[c], d, "{}", s.sentence);
        }
        for &(c, d) in &s.placements {
            assert_eq!(sol.cells()[c], d, "{}", s.sentence);
        }
    }
    // Shortest nets first.
    assert!(contradictions
        .windows(2)
        .all(|w| w[0].rules.len() <= w[1].rules.len()));
}

#[test]
fn a_net_without_the_rule_it_breaks_is_not_proved() {
    let g = top95(7);
    let checker = Checker::new(3);
    let pm = first_net_state(&g, &checker);
    let s = find_all(&pm, Technique::ForcingNetContradiction)
        .into_iter()
        .next()
        .expect("a contradiction net");
    // The rule the contradiction ends on: the sentence names it.
    let broken = s
        .rules
        .iter()
        .copied()
        .find(|r| match *r {
            Rule::Cell(c) => s.sentence.contains(&format!(
                "leave {} without",
                csp_sudoku::pencil::cell_name(9, c)
            )),
            Rule::Digit(h, d) => s.sentence.contains(&format!("no place for {d} in {h}")),
        })
        .expect("the sentence names the broken rule");
    let mut weak = s.clone();
    weak.rules.retain(|&r| r != broken);
    assert!(
        checker.verify(&pm, &weak).is_err(),
        "dropping {broken:?} should make {} unprovable",
        s.sentence
    );
}
