//! An independent checker for cryptarithm solutions.
//!
//! It does the addition the way it is taught at school, column by column with
//! carries, on digit strings of any length, so it cannot overflow and shares no
//! code with the model.

use crate::{render, Puzzle};

/// Checks that `digits` (one per letter, in the order of [`Puzzle::letters`])
/// solve `puzzle`.
///
/// Every digit is `0..=9`, different letters get different digits, the addends
/// sum to the result, and unless `leading_zeros` is `true`, no word of two or more
/// letters starts with a zero.
///
/// ```
/// use csp_cryptarithm::{check_solution, Puzzle};
///
/// let p: Puzzle = "SEND+MORE=MONEY".parse().unwrap();
/// //          S  E  N  D  M  O  R  Y
/// let good = [9, 5, 6, 7, 1, 0, 8, 2];
/// assert_eq!(check_solution(&p, &good, false), Ok(()));
/// let bad = [9, 5, 6, 7, 1, 0, 8, 3];
/// assert_eq!(
///     check_solution(&p, &bad, false),
///     Err("9567+1085=10653 is false: the sum is 10652".to_string())
/// );
/// ```
///
/// # Errors
/// A message naming the first fault found.
pub fn check_solution(puzzle: &Puzzle, digits: &[u8], leading_zeros: bool) -> Result<(), String> {
    let letters = puzzle.letters();
    if digits.len() != letters.len() {
        return Err(format!(
            "{} digits for {} letters",
            digits.len(),
            letters.len()
        ));
    }
    for (i, (&letter, &d)) in letters.iter().zip(digits).enumerate() {
        if d > 9 {
            return Err(format!("{letter} = {d} is not a digit"));
        }
        if let Some(j) = digits[..i].iter().position(|&e| e == d) {
            return Err(format!("{} and {letter} are both {d}", letters[j]));
        }
    }
    let digit_of = |c: char| digits[puzzle.letter_index(c).expect("letter of the puzzle")];
    // Digits of each word, least significant first.
    let number = |word: &str| -> Vec<u8> { word.chars().rev().map(digit_of).collect() };
    if !leading_zeros {
        for word in puzzle.words() {
            let first = word.chars().next().expect("words are not empty");
            if word.len() > 1 && digit_of(first) == 0 {
                return Err(format!("{word} starts with a zero ({first} = 0)"));
            }
        }
    }
    let mut sum: Vec<u8> = Vec::new();
    for word in puzzle.addends() {
        sum = add(&sum, &number(word));
    }
    let mut result = number(puzzle.result());
    trim(&mut sum);
    trim(&mut result);
    if sum != result {
        let sum_text: String = sum.iter().rev().map(|d| char::from(b'0' + d)).collect();
        return Err(format!(
            "{} is false: the sum is {sum_text}",
            render::equation(puzzle, digits)
        ));
    }
    Ok(())
}

/// Adds two numbers given as digits, least significant first.
fn add(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let s = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

/// Removes leading zeros (at the end, since digits are least significant first).
fn trim(digits: &mut Vec<u8>) {
    while digits.last() == Some(&0) {
        digits.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(text: &str) -> Puzzle {
        text.parse().unwrap()
    }

    #[test]
    fn digits_must_be_distinct_digits() {
        let p = puzzle("A+B=C");
        assert_eq!(
            check_solution(&p, &[1, 2], false),
            Err("2 digits for 3 letters".into())
        );
        assert_eq!(
            check_solution(&p, &[1, 10, 3], false),
            Err("B = 10 is not a digit".into())
        );
        assert_eq!(
            check_solution(&p, &[1, 2, 1], false),
            Err("A and C are both 1".into())
        );
        assert_eq!(check_solution(&p, &[1, 2, 3], false), Ok(()));
        assert_eq!(
            check_solution(&p, &[0, 2, 3], false),
            Err("0+2=3 is false: the sum is 2".into())
        );
    }

    #[test]
    fn leading_zeros() {
        let p = puzzle("AB+C=AD");
        // 01 + 2 = 03 needs leading zeros; 10 + 2 = 12 does not.
        assert_eq!(
            check_solution(&p, &[0, 1, 2, 3], false),
            Err("AB starts with a zero (A = 0)".into())
        );
        assert_eq!(check_solution(&p, &[0, 1, 2, 3], true), Ok(()));
        assert_eq!(
            check_solution(&p, &[1, 0, 2, 3], false),
            Err("10+2=13 is false: the sum is 12".into())
        );
        assert_eq!(check_solution(&p, &[1, 2, 3, 5], false), Ok(()));
    }

    #[test]
    fn long_words_do_not_overflow() {
        // 45 digits: far beyond u128. A·(111...1) + B·(111...1) = C·(111...1) with A+B=C.
        let n = 45;
        let text = format!("{}+{}={}", "A".repeat(n), "B".repeat(n), "C".repeat(n));
        let p = puzzle(&text);
        assert_eq!(check_solution(&p, &[2, 3, 5], false), Ok(()));
        assert!(check_solution(&p, &[2, 3, 6], false).is_err());
        // Carries ripple through every column: 5...5 + 5...5 = 11...10.
        let text = format!(
            "{}+{}=B{}C",
            "A".repeat(n),
            "A".repeat(n),
            "B".repeat(n - 1)
        );
        let p = puzzle(&text);
        assert_eq!(check_solution(&p, &[5, 1, 0], false), Ok(()));
    }
}
