//! Known answers through the engine, in both formulations, every solution
//! re-checked by the independent checker and, for small puzzles, the whole
//! solution set compared with a brute-force enumeration.

use std::collections::BTreeSet;

use csp_core::Outcome;
use csp_cryptarithm::model::{self, Formulation, Options};
use csp_cryptarithm::{check_solution, render, Puzzle};

fn options(formulation: Formulation, leading_zeros: bool) -> Options {
    Options {
        formulation,
        leading_zeros,
        ..Options::default()
    }
}

/// All solutions, found in both formulations (which must agree), each checked.
fn solutions(text: &str, leading_zeros: bool) -> Vec<String> {
    let puzzle: Puzzle = text.parse().unwrap();
    let mut sets = Vec::new();
    for formulation in [Formulation::Linear, Formulation::Columns] {
        let all = model::solve_all(&puzzle, &options(formulation, leading_zeros)).unwrap();
        let mut set = BTreeSet::new();
        for digits in &all.solutions {
            check_solution(&puzzle, digits, leading_zeros)
                .unwrap_or_else(|e| panic!("{text} ({formulation:?}): {e}"));
            assert!(
                set.insert(render::equation(&puzzle, digits)),
                "a solution twice"
            );
        }
        let expected = if set.is_empty() {
            Outcome::Unsatisfiable
        } else {
            Outcome::Solved
        };
        assert_eq!(all.outcome, expected);
        sets.push(set);
    }
    assert_eq!(sets[0], sets[1], "{text}: the formulations disagree");
    sets.pop().unwrap().into_iter().collect()
}

/// Every injective assignment of digits to letters whose numbers add up
/// (plain u128 arithmetic, no leading zeros unless allowed), each hit confirmed
/// by the independent checker.
fn brute_force(text: &str, leading_zeros: bool) -> Vec<String> {
    let puzzle: Puzzle = text.parse().unwrap();
    let index = |c: char| puzzle.letter_index(c).unwrap();
    let words: Vec<Vec<usize>> = puzzle
        .words()
        .map(|w| w.chars().map(index).collect())
        .collect();
    let (result, addends) = words.split_last().unwrap();
    let n = puzzle.letters().len();
    let mut out = Vec::new();
    let mut digits = vec![0u8; n];
    let solves = |digits: &[u8]| {
        let value = |w: &[usize]| w.iter().fold(0u128, |v, &i| v * 10 + u128::from(digits[i]));
        let leading_ok = |w: &[usize]| leading_zeros || w.len() == 1 || digits[w[0]] != 0;
        words.iter().all(|w| leading_ok(w))
            && addends.iter().map(|w| value(w)).sum::<u128>() == value(result)
    };
    // Depth-first over injective assignments: letter i takes an unused digit.
    let mut stack: Vec<u8> = vec![0]; // the next digit to try at each depth
    let mut used = [false; 10];
    while let Some(&d) = stack.last() {
        let i = stack.len() - 1;
        if d >= 10 {
            stack.pop();
            if let Some(prev) = stack.last_mut() {
                used[digits[i - 1] as usize] = false;
                *prev += 1;
            }
            continue;
        }
        if used[d as usize] {
            *stack.last_mut().unwrap() += 1;
            continue;
        }
        digits[i] = d;
        if i + 1 == n {
            if solves(&digits) {
                check_solution(&puzzle, &digits, leading_zeros).unwrap();
                out.push(render::equation(&puzzle, &digits));
            }
            *stack.last_mut().unwrap() += 1;
        } else {
            used[d as usize] = true;
            stack.push(0);
        }
    }
    out.sort();
    out
}

#[test]
fn send_more_money_has_exactly_one_solution() {
    assert_eq!(solutions("SEND+MORE=MONEY", false), ["9567+1085=10652"]);
    let puzzle: Puzzle = "SEND+MORE=MONEY".parse().unwrap();
    let first = model::solve(&puzzle, &Options::default()).unwrap();
    assert_eq!(first.outcome, Outcome::Solved);
    assert_eq!(first.digits.unwrap(), [9, 5, 6, 7, 1, 0, 8, 2]);
}

#[test]
fn classic_puzzles_with_unique_answers() {
    assert_eq!(
        solutions("CROSS+ROADS=DANGER", false),
        ["96233+62513=158746"]
    );
    assert_eq!(
        solutions("DONALD+GERALD=ROBERT", false),
        ["526485+197485=723970"]
    );
}

#[test]
fn small_puzzles_match_brute_force() {
    for text in [
        "TWO+TWO=FOUR",
        "SEND+MORE=MONEY",
        "A+B=C",
        "AB+BA=CC",
        "I+BB=ILL",
        "NO+NO=YES",
        "A=B",
        "A+A+A=BA",
    ] {
        for leading_zeros in [false, true] {
            assert_eq!(
                solutions(text, leading_zeros),
                brute_force(text, leading_zeros),
                "{text}, leading zeros {leading_zeros}"
            );
        }
    }
}

#[test]
fn two_plus_two_is_four_seven_ways() {
    assert_eq!(solutions("TWO+TWO=FOUR", false).len(), 7);
}

#[test]
fn many_addends() {
    // A classic with 41 addends (ten letters), unique.
    let text = "SO+MANY+MORE+MEN+SEEM+TO+SAY+THAT+THEY+MAY+SOON+TRY+TO+STAY+AT+HOME\
                +SO+AS+TO+SEE+OR+HEAR+THE+SAME+ONE+MAN+TRY+TO+MEET+THE+TEAM+ON+THE\
                +MOON+AS+HE+HAS+AT+THE+OTHER+TEN=TESTS";
    let found = solutions(text, false);
    assert_eq!(
        found,
        [
            "31+2764+2180+206+3002+91+374+9579+9504+274+3116+984+91+3974+79+5120+31+73+91+300\
          +18+5078+950+3720+160+276+984+91+2009+950+9072+16+950+2116+73+50+573+79+950+19508\
          +906=90393"
        ]
    );
}

#[test]
fn long_words_need_the_columns_formulation() {
    // 30-digit numbers ABAB...AB + ABAB...AB = CDCD...CD: beyond 64-bit place
    // values, still within the u128 brute force.
    let text = format!("{ab}+{ab}={cd}", ab = "AB".repeat(15), cd = "CD".repeat(15));
    let puzzle: Puzzle = text.parse().unwrap();
    let all = model::solve_all(&puzzle, &Options::default()).unwrap();
    let mut found: Vec<String> = all
        .solutions
        .iter()
        .map(|digits| {
            check_solution(&puzzle, digits, false).unwrap();
            render::equation(&puzzle, digits)
        })
        .collect();
    found.sort();
    assert!(!found.is_empty());
    assert_eq!(found, brute_force(&text, false));
    assert!(
        model::solve(&puzzle, &options(Formulation::Linear, false)).is_err(),
        "the linear model reports an overflow"
    );
}
