//! The explicit checker and the clue data agree: on the known solution, on every
//! assignment one or two swaps away from it, and on many random assignments, both
//! name the same first failing clue.

use csp_zebra::clues::{Attribute, CLUES, HOUSES};
use csp_zebra::{check_solution, render, Solution};

fn known() -> Solution {
    Solution::from_houses([
        ["yellow", "Norwegian", "water", "Kools", "fox"],
        ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
        ["red", "Englishman", "milk", "Old Gold", "snails"],
        ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
        ["green", "Japanese", "coffee", "Parliaments", "zebra"],
    ])
    .unwrap()
}

/// The number of the first clue whose relation fails, from the data.
fn first_failing_by_data(s: &Solution) -> Option<u8> {
    CLUES
        .iter()
        .find(|c| !c.relation.holds(s))
        .map(|c| c.number)
}

/// The number of the first failing clue, from the checker's message.
fn first_failing_by_checker(s: &Solution) -> Option<u8> {
    check_solution(s).err().map(|msg| {
        let rest = msg
            .strip_prefix("clue ")
            .expect("messages start with the clue");
        rest.split(' ').next().unwrap().parse().unwrap()
    })
}

fn agree(s: &Solution) {
    assert_eq!(first_failing_by_checker(s), first_failing_by_data(s), "{s}");
}

#[test]
fn the_known_solution_passes_both() {
    let s = known();
    assert_eq!(check_solution(&s), Ok(()));
    assert_eq!(first_failing_by_data(&s), None);
    assert_eq!(
        render::answers(&s).unwrap(),
        "The Norwegian drinks water.\nThe Japanese owns the zebra.\n"
    );
}

#[test]
fn one_and_two_swaps_from_the_known_solution() {
    let base = known();
    let swaps: Vec<(usize, usize, usize)> = (0..HOUSES)
        .flat_map(|a| (0..HOUSES).flat_map(move |i| (i + 1..HOUSES).map(move |j| (a, i, j))))
        .collect();
    let mut failing = std::collections::BTreeSet::new();
    for &(a, i, j) in &swaps {
        let mut s = base;
        s.house_of[a].swap(i, j);
        agree(&s);
        assert!(
            check_solution(&s).is_err(),
            "a single swap breaks some clue"
        );
        failing.insert(first_failing_by_data(&s).unwrap());
        for &(b, k, l) in &swaps {
            let mut t = s;
            t.house_of[b].swap(k, l);
            agree(&t);
        }
    }
    // The swaps exercise many different clues, not just the first one.
    assert!(failing.len() >= 8, "{failing:?}");
}

#[test]
fn random_assignments() {
    // A small xorshift generator: reproducible, no dependency.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let mut s = known();
        for a in 0..HOUSES {
            for i in (1..HOUSES).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                s.house_of[a].swap(i, j);
            }
        }
        agree(&s);
    }
    // Clue 1: a value outside the houses, or two values in one house.
    let mut s = known();
    s.house_of[Attribute::Drink.index()][0] = 6;
    agree(&s);
    assert!(check_solution(&s).unwrap_err().starts_with("clue 1 fails"));
    let mut s = known();
    s.house_of[Attribute::Pet.index()][0] = 1;
    agree(&s);
}
