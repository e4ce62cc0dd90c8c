//! The uniqueness techniques (HoDoKu's 0600-0606 and 0610): the first
//! library case of each, found and proved by the checker, its eliminations
//! compared with the solution the engine finds; the library's fail cases;
//! a puzzle with two solutions and a deadly pattern, on which they are not
//! offered and the checker refuses them; and forged steps the checker
//! refutes.

use std::path::Path;

use csp_sudoku::model::{self, Uniqueness};
use csp_sudoku::pencil::{Candidates, LibraryCase};
use csp_sudoku::techniques::{
    find_all, find_checked, next_with, solve_steps, Checker, End, Premise, Step, Technique,
};
use csp_sudoku::Grid;

const TECHNIQUES: [(&str, Technique); 8] = [
    ("0600-1", Technique::UniquenessTest1),
    ("0601-1", Technique::UniquenessTest2),
    ("0602-1", Technique::UniquenessTest3),
    ("0603-1", Technique::UniquenessTest4),
    ("0604-1", Technique::UniquenessTest5),
    ("0605-1", Technique::UniquenessTest6),
    ("0606-1", Technique::HiddenRectangle),
    ("0610", Technique::BugPlusOne),
];

/// HoDoKu's exemplars (`graded/exemplars-1.0.txt`) of Uniqueness Test 1
/// (#0600) and BUG+1 (#0610).
const EXEMPLARS: [(&str, Technique); 2] = [
    (
        "...3..1.8.5.4...9.39..6...7.342..............96..3...1..871...5.....2....4.6.8...",
        Technique::UniquenessTest1,
    ),
    (
        "....13......2....93.184.2..968....2..379...1......4...........8..9.35.7..1..6....",
        Technique::BugPlusOne,
    ),
];

fn library() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku/reglib-1.3.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The library's cases of `key` (`0600-1`, `0610`, `0606-x`).
fn cases(text: &str, key: &str) -> Vec<LibraryCase> {
    let prefix = format!(":{key}:");
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(&prefix))
        .map(|(i, l)| LibraryCase::parse(i + 1, l).unwrap())
        .collect()
}

fn sorted(v: &[(usize, u8)]) -> Vec<(usize, u8)> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn each_technique_finds_its_first_library_case_and_the_checker_proves_it() {
    let text = library();
    let checker = Checker::new(3);
    for (key, t) in TECHNIQUES {
        let case = &cases(&text, key)[0];
        let pm = &case.state;
        assert_eq!(
            checker.uniqueness_premise(pm),
            Some(Premise::Givens),
            "{key}"
        );
        let steps = find_checked(pm, t, &checker).expect("every instance proved");
        let s = steps
            .iter()
            .find(|s| sorted(&s.eliminations) == sorted(&case.eliminations))
            .unwrap_or_else(|| panic!("{key}: the library's step is not found"));
        assert_eq!(checker.verify(pm, s), Ok(()));
        assert!(s.sentence.starts_with(&t.title()), "{}", s.sentence);
        // The engine's solution of the state's digits agrees: no
        // elimination removes its digit.
        let Uniqueness::Unique(sol) = model::is_unique(&pm.grid(), &model::options()) else {
            panic!("{key}: the state's digits do not have one solution")
        };
        for &(c, d) in &s.eliminations {
            assert_ne!(sol.get(c / 9, c % 9), d, "{key}: {}", s.sentence);
        }
    }
}

#[test]
fn the_library_fail_cases_find_nothing() {
    let text = library();
    let checker = Checker::new(3);
    for (key, t) in [
        ("0606-x", Technique::HiddenRectangle),
        ("0610-x", Technique::BugPlusOne),
    ] {
        let all = cases(&text, key);
        assert!(!all.is_empty());
        for case in all {
            assert_eq!(find_checked(&case.state, t, &checker), Ok(vec![]), "{key}");
        }
    }
}

#[test]
fn the_checker_refutes_forged_uniqueness_steps() {
    let text = library();
    let checker = Checker::new(3);
    let case = &cases(&text, "0600-1")[0];
    let pm = &case.state;
    let s = find_checked(pm, Technique::UniquenessTest1, &checker).unwrap()[0].clone();
    let d = s.eliminations[0].0;
    // The corner's extra digit is not eliminated by the pattern.
    let extra = pm
        .digits(d)
        .into_iter()
        .find(|x| !s.digits.contains(x))
        .unwrap();
    let mut forged = s.clone();
    forged.eliminations = vec![(d, extra)];
    assert!(checker.verify(pm, &forged).is_err());
    // Nor is a rectangle that is not one.
    let mut forged = s.clone();
    forged.cells.swap(0, 3);
    forged.cells[0] = (forged.cells[0] + 1) % 81;
    assert!(checker.verify(pm, &forged).is_err());
    // Nor another pair of digits.
    let mut forged: Step = s.clone();
    forged.digits = vec![s.digits[0], extra];
    assert!(checker.verify(pm, &forged).is_err());
}

/// Solutions of HoDoKu's exemplars, from the engine.
fn solutions() -> Vec<Grid> {
    EXEMPLARS
        .iter()
        .map(
            |(p, _)| match model::is_unique(&p.parse().unwrap(), &model::options()) {
                Uniqueness::Unique(sol) => sol,
                _ => panic!("{p}: not unique"),
            },
        )
        .collect()
}

/// A puzzle with two solutions (a deadly rectangle of the pattern grid
/// left empty, and more cells) on which a uniqueness technique's
/// detector finds an instance: the technique and the state.
fn two_solutions_with_a_pattern() -> (Grid, Technique, Candidates) {
    for sol in solutions() {
        let v = |c: usize| sol.get(c / 9, c % 9);
        for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                            continue;
                        }
                        let q = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                        if v(q[0]) != v(q[3]) || v(q[1]) != v(q[2]) {
                            continue;
                        }
                        for e1 in 0..81 {
                            for e2 in e1 + 1..81 {
                                let mut g = sol.clone();
                                for c in q.into_iter().chain([e1, e2]) {
                                    g.set(c / 9, c % 9, 0).unwrap();
                                }
                                let pm = Candidates::from_grid(&g);
                                for (_, t) in TECHNIQUES {
                                    if !find_all(&pm, t).is_empty() {
                                        return (g, t, pm);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    panic!("no deadly pattern with an instance")
}

#[test]
fn with_two_solutions_no_uniqueness_step_is_offered() {
    let (g, t, pm) = two_solutions_with_a_pattern();
    assert!(matches!(
        model::is_unique(&g, &model::options()),
        Uniqueness::Multiple(..)
    ));
    let checker = Checker::new(3);
    assert_eq!(checker.uniqueness_premise(&pm), None);
    // The detector alone sees the pattern; the checked search does not
    // offer it, and the checker refuses it.
    let found = find_all(&pm, t);
    assert!(!found.is_empty());
    assert_eq!(find_checked(&pm, t, &checker), Ok(vec![]));
    assert!(checker.verify(&pm, &found[0]).is_err());
    // The ladder never takes one: the steps end stuck (search needed)
    // or solved without them.
    let (steps, end) = solve_steps(&pm, &checker).unwrap();
    assert!(steps.iter().all(|s| !s.technique.assumes_uniqueness()));
    assert_ne!(end, End::Solved, "two solutions cannot be solved by steps");
    assert!(next_with(&pm, &checker).is_ok());
}

#[test]
fn an_exemplar_of_each_is_rated_through_it_every_step_checked() {
    // HoDoKu's exemplars (`graded/exemplars-1.0.txt`, #0600 and #0610):
    // the step-wise solution takes the technique, and every step is
    // proved (solve_steps checks each) and agrees with the solution.
    for (p, t) in EXEMPLARS {
        let g: Grid = p.parse().unwrap();
        let Uniqueness::Unique(sol) = model::is_unique(&g, &model::options()) else {
            panic!("{p}: not unique")
        };
        let pm = Candidates::from_grid(&g);
        let checker = Checker::new(3);
        let (steps, end) = solve_steps(&pm, &checker).unwrap();
        assert_eq!(end, End::Solved, "{p}");
        assert!(steps.iter().any(|s| s.technique == t), "{p}: no {t}");
        for s in &steps {
            for &(c, d) in &s.eliminations {
                assert_ne!(sol.get(c / 9, c % 9), d, "{}", s.sentence);
            }
            for &(c, d) in &s.placements {
                assert_eq!(sol.get(c / 9, c % 9), d, "{}", s.sentence);
            }
        }
    }
}
