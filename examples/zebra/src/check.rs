//! An independent checker: every clue written out again as plain arithmetic on
//! house numbers, without reading the relations stored in [`CLUES`] and without
//! the engine.

use crate::clues::*;
use crate::Solution;

/// Checks `solution` against all fifteen clues.
///
/// Clue 1 ("There are five houses") holds when each attribute's five values are in
/// five different houses numbered 1 to 5. The message names the first clue that fails.
///
/// ```
/// use csp_zebra::{check_solution, Solution};
///
/// let mut s = Solution::from_houses([
///     ["yellow", "Norwegian", "water", "Kools", "fox"],
///     ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
///     ["red", "Englishman", "milk", "Old Gold", "snails"],
///     ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
///     ["green", "Japanese", "coffee", "Parliaments", "zebra"],
/// ])
/// .unwrap();
/// assert_eq!(check_solution(&s), Ok(()));
/// s.house_of[4].swap(2, 4); // swap the fox and the zebra
/// assert_eq!(
///     check_solution(&s),
///     Err("clue 11 fails: The man who smokes Chesterfields lives in the house next to the man with the fox.".to_string())
/// );
/// ```
///
/// # Errors
/// The first clue that fails, with its number and text.
pub fn check_solution(solution: &Solution) -> Result<(), String> {
    for attribute in Attribute::ALL {
        let mut houses: Vec<u8> = attribute
            .items()
            .iter()
            .map(|&i| solution.house(i))
            .collect();
        houses.sort_unstable();
        if houses != [1, 2, 3, 4, 5] {
            return Err(format!(
                "clue 1 fails: There are five houses. (the {} values are in houses {houses:?})",
                attribute.name()
            ));
        }
    }
    let h = |item: Item| i32::from(solution.house(item));
    let next_to = |a: Item, b: Item| (h(a) - h(b)).abs() == 1;
    let holds: [(u8, bool); 14] = [
        (2, h(ENGLISHMAN) == h(RED)),
        (3, h(SPANIARD) == h(DOG)),
        (4, h(COFFEE) == h(GREEN)),
        (5, h(UKRAINIAN) == h(TEA)),
        (6, h(GREEN) == h(IVORY) + 1),
        (7, h(OLD_GOLD) == h(SNAILS)),
        (8, h(KOOLS) == h(YELLOW)),
        (9, h(MILK) == 3),
        (10, h(NORWEGIAN) == 1),
        (11, next_to(CHESTERFIELDS, FOX)),
        (12, next_to(KOOLS, HORSE)),
        (13, h(LUCKY_STRIKE) == h(ORANGE_JUICE)),
        (14, h(JAPANESE) == h(PARLIAMENTS)),
        (15, next_to(NORWEGIAN, BLUE)),
    ];
    for (number, ok) in holds {
        if !ok {
            let text = CLUES[usize::from(number) - 1].text;
            return Err(format!("clue {number} fails: {text}"));
        }
    }
    Ok(())
}
