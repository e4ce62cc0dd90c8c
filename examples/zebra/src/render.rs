//! Writing solutions as a table and answering the questions.

use crate::clues::{Attribute, HOUSES, WATER, ZEBRA};
use crate::Solution;

/// A table with a header row of house numbers and one row per attribute, columns
/// padded to line up; `?` where an attribute has no value in a house.
///
/// ```
/// # use csp_zebra::Solution;
/// let s = Solution::from_houses([
///     ["yellow", "Norwegian", "water", "Kools", "fox"],
///     ["blue", "Ukrainian", "tea", "Chesterfields", "horse"],
///     ["red", "Englishman", "milk", "Old Gold", "snails"],
///     ["ivory", "Spaniard", "orange juice", "Lucky Strike", "dog"],
///     ["green", "Japanese", "coffee", "Parliaments", "zebra"],
/// ])
/// .unwrap();
/// let table = csp_zebra::render::table(&s);
/// assert_eq!(table.lines().next().unwrap().trim_end(),
///     "house        1          2              3           4             5");
/// assert_eq!(table.lines().nth(1).unwrap().trim_end(),
///     "color        yellow     blue           red         ivory         green");
/// ```
pub fn table(solution: &Solution) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    rows.push(
        std::iter::once("house".to_string())
            .chain((1..=HOUSES).map(|h| h.to_string()))
            .collect(),
    );
    for attribute in Attribute::ALL {
        let mut row = vec![attribute.name().to_string()];
        for house in 1..=HOUSES as u8 {
            row.push(
                solution
                    .item_in(house, attribute)
                    .map_or_else(|| "?".to_string(), |i| i.name().to_string()),
            );
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..=HOUSES)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The answers to the two questions, one per line:
/// `The Norwegian drinks water.` and `The Japanese owns the zebra.`
///
/// `None` when the solution leaves a question open (no nationality in that house).
pub fn answers(solution: &Solution) -> Option<String> {
    let water = solution.who(WATER)?;
    let zebra = solution.who(ZEBRA)?;
    Some(format!(
        "The {water} drinks water.\nThe {zebra} owns the zebra.\n"
    ))
}
