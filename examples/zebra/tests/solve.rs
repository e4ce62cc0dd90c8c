//! The engine finds exactly one assignment, the published one, and it passes the
//! independent checker and every clue of the data.

use csp_zebra::clues::{Attribute, CLUES, JAPANESE, NORWEGIAN, WATER, ZEBRA};
use csp_zebra::model::{self, Answer};
use csp_zebra::{check_solution, render, Solution};

#[test]
fn the_solution_is_unique_and_the_published_one() {
    let Answer::Unique(found) = model::solve_unique().unwrap() else {
        panic!("expected a unique solution")
    };
    assert_eq!(check_solution(&found), Ok(()));
    for clue in &CLUES {
        assert!(clue.relation.holds(&found), "clue {}", clue.number);
    }
    let published = Solution::from_houses([
        ["yellow", "Norwegian", "water", "Kools", "fox"],
        ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
        ["red", "Englishman", "milk", "Old Gold", "snails"],
        ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
        ["green", "Japanese", "coffee", "Parliaments", "zebra"],
    ])
    .unwrap();
    assert_eq!(found, published);
    assert_eq!(found.who(WATER), Some(NORWEGIAN));
    assert_eq!(found.who(ZEBRA), Some(JAPANESE));
    print!("{}", render::table(&found));
    print!("{}", render::answers(&found).unwrap());
}

#[test]
fn one_constraint_per_clue() {
    let z = model::model().unwrap();
    // Clue 1 is one all-different per attribute; clues 2 to 15 one constraint each.
    assert_eq!(z.model.num_constraints(), Attribute::ALL.len() + 14);
    assert_eq!(z.model.num_vars(), 25);
    assert_eq!(z.model.name(z.var(ZEBRA)), Some("zebra"));
}
