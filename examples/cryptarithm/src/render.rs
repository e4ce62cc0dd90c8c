//! Writing solutions: the equation with digits in place of letters.

use crate::Puzzle;

/// The equation with each letter replaced by its digit (`9567+1085=10652`).
///
/// `digits` holds one digit per letter, in the order of [`Puzzle::letters`].
///
/// ```
/// use csp_cryptarithm::{render, Puzzle};
///
/// let p: Puzzle = "SEND+MORE=MONEY".parse().unwrap();
/// assert_eq!(render::equation(&p, &[9, 5, 6, 7, 1, 0, 8, 2]), "9567+1085=10652");
/// ```
///
/// # Panics
/// If `digits` has fewer entries than the puzzle has letters.
pub fn equation(puzzle: &Puzzle, digits: &[u8]) -> String {
    let number = |word: &str| -> String {
        word.chars()
            .map(|c| {
                let d = digits[puzzle.letter_index(c).expect("letter of the puzzle")];
                char::from_digit(u32::from(d), 10).unwrap_or('?')
            })
            .collect()
    };
    let left: Vec<String> = puzzle.addends().iter().map(|w| number(w)).collect();
    format!("{}={}", left.join("+"), number(puzzle.result()))
}

/// The letter-to-digit table, `S=9 E=5 N=6 ...`, in the order of [`Puzzle::letters`].
///
/// ```
/// use csp_cryptarithm::{render, Puzzle};
///
/// let p: Puzzle = "A+B=C".parse().unwrap();
/// assert_eq!(render::table(&p, &[1, 2, 3]), "A=1 B=2 C=3");
/// ```
///
/// # Panics
/// If `digits` has fewer entries than the puzzle has letters.
pub fn table(puzzle: &Puzzle, digits: &[u8]) -> String {
    let pairs: Vec<String> = puzzle
        .letters()
        .iter()
        .zip(digits)
        .map(|(l, d)| format!("{l}={d}"))
        .collect();
    pairs.join(" ")
}
