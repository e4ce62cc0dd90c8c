//! Multi-colours (HoDoKu's 0502, 0503): the library's cases found, proved
//! by the checker and compared with the engine's solution; a forged step
//! the checker refutes; and HoDoKu's X-chain exemplars that its path
//! solves with multi-colours, rated hard here too through them.

use std::path::Path;

use csp_sudoku::model::{self, Uniqueness};
use csp_sudoku::pencil::{Candidates, LibraryCase};
use csp_sudoku::techniques::{find_checked, rate, solve_steps, Checker, End, Level, Technique};
use csp_sudoku::Grid;

fn library() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku/reglib-1.3.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sorted(v: &[(usize, u8)]) -> Vec<(usize, u8)> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn the_library_cases_are_found_proved_and_agree_with_the_solution() {
    let text = library();
    let checker = Checker::new(3);
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        let t = if line.starts_with(":0502:") {
            Technique::MultiColours1
        } else if line.starts_with(":0503:") {
            Technique::MultiColours2
        } else {
            continue;
        };
        seen += 1;
        let case = LibraryCase::parse(i + 1, line).unwrap();
        let steps = find_checked(&case.state, t, &checker).expect("proved");
        let s = steps
            .iter()
            .find(|s| sorted(&s.eliminations) == sorted(&case.eliminations))
            .unwrap_or_else(|| panic!("line {}: not found", i + 1));
        assert!(s.sentence.starts_with(&t.title()), "{}", s.sentence);
        let Uniqueness::Unique(sol) = model::is_unique(&case.state.grid(), &model::options())
        else {
            panic!("line {}: not unique", i + 1)
        };
        for &(c, d) in &s.eliminations {
            assert_ne!(sol.get(c / 9, c % 9), d, "{}", s.sentence);
        }
    }
    assert_eq!(seen, 4);
}

#[test]
fn the_checker_refutes_a_forged_multi_colours_step() {
    let text = library();
    let line = text.lines().position(|l| l.starts_with(":0503:")).unwrap();
    let case = LibraryCase::parse(line + 1, text.lines().nth(line).unwrap()).unwrap();
    let checker = Checker::new(3);
    let s = &find_checked(&case.state, Technique::MultiColours2, &checker).unwrap()[0];
    // A cell of the other colour of the same chain is not refuted by it.
    let d = s.digits[0];
    let other = s
        .cells
        .iter()
        .copied()
        .find(|c| case.state.has(*c, d) && !s.eliminations.contains(&(*c, d)))
        .unwrap();
    let mut forged = s.clone();
    forged.eliminations = vec![(other, d)];
    assert!(checker.verify(&case.state, &forged).is_err());
}

#[test]
fn x_chain_exemplars_hodoku_solves_by_multi_colours_are_hard() {
    // From `graded/exemplars-1.0.txt`, #0701: HoDoKu's path takes
    // Multi Colors 1 and rates them hard (`run.sh --path`).
    for p in [
        ".....6.....7.3..4.1.6.8..957..9..85.9...4..2.4....8....93.5..1......7.......6...2",
        "4....3....3.89......812...4.....52..16............1346..2...9..7...4.68.8....2..3",
    ] {
        let g: Grid = p.parse().unwrap();
        let pm = Candidates::from_grid(&g);
        let (steps, end) = solve_steps(&pm, &Checker::new(3)).unwrap();
        assert_eq!(end, End::Solved);
        assert!(steps
            .iter()
            .any(|s| s.technique == Technique::MultiColours1));
        assert_eq!(rate(&steps, &end).level, Level::Hard, "{p}");
    }
}
