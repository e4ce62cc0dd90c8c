//! One solution for any `n ≥ 4` in O(n) time, without search.
//!
//! The explicit construction goes back to Bernhardsson (1991) and Hoffman,
//! Loessi and Moore (1969). In 1-based terms it lists the column of the queen
//! of every row:
//!
//! * if `n mod 6` is neither 2 nor 3: the even numbers `2, 4, …` up to `n`,
//!   then the odd numbers `1, 3, …` up to `n`;
//! * if `n mod 6 = 2`: the even numbers, then the odd numbers with 1 and 3
//!   swapped and 5 moved to the end: `3, 1, 7, 9, …, 5`;
//! * if `n mod 6 = 3`: the even numbers with 2 moved to the end
//!   (`4, 6, …, 2`), then the odd numbers with 1 and 3 moved to the end
//!   (`5, 7, …, 1, 3`).
//!
//! The even numbers form knight-move steps two columns apart, which never
//! share a diagonal, and the special cases repair the few diagonal clashes
//! between the two halves that the plain pattern has when `n mod 6` is 2
//! or 3.
//!
//! ```
//! use csp_queens::construction::construct;
//! assert_eq!(construct(8).unwrap(), vec![1, 3, 5, 7, 2, 0, 6, 4]);
//! assert!(csp_queens::verify::check(&construct(1000).unwrap()).is_solution());
//! assert!(construct(3).is_err());
//! ```

use std::fmt;

/// The largest `n` whose columns fit in `u32`.
pub const MAX_N: usize = u32::MAX as usize;

/// Why no solution can be constructed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstructionError {
    /// The board has no solution at all (`n` is 2 or 3).
    NoSolution {
        /// The board size.
        n: usize,
    },
    /// The columns would not fit in `u32`.
    TooLarge {
        /// The board size.
        n: usize,
        /// The largest accepted size, [`MAX_N`].
        max: usize,
    },
}

impl fmt::Display for ConstructionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstructionError::NoSolution { n } => {
                write!(f, "the {n}-queens problem has no solution")
            }
            ConstructionError::TooLarge { n, max } => {
                write!(f, "n = {n} is too large (at most {max})")
            }
        }
    }
}

impl std::error::Error for ConstructionError {}

/// One solution of the `n`-queens problem as 0-based columns per row, built
/// by the explicit formulas in the module docs. `n = 0` gives the empty board
/// and `n = 1` gives `[0]`.
///
/// # Errors
///
/// [`ConstructionError::NoSolution`] for `n = 2` and `n = 3`;
/// [`ConstructionError::TooLarge`] beyond [`MAX_N`].
pub fn construct(n: usize) -> Result<Vec<u32>, ConstructionError> {
    if n > MAX_N {
        return Err(ConstructionError::TooLarge { n, max: MAX_N });
    }
    if n == 2 || n == 3 {
        return Err(ConstructionError::NoSolution { n });
    }
    let n32 = n as u32;
    let mut cols = Vec::with_capacity(n);
    // Work with 1-based columns and convert when pushing.
    let mut push = |col: u32| cols.push(col - 1);
    let evens = (2..=n32).step_by(2);
    let odds = (1..=n32).step_by(2);
    match n % 6 {
        2 => {
            evens.for_each(&mut push);
            push(3);
            push(1);
            odds.filter(|&c| c >= 7).for_each(&mut push);
            push(5);
        }
        3 => {
            evens.filter(|&c| c >= 4).for_each(&mut push);
            push(2);
            odds.filter(|&c| c >= 5).for_each(&mut push);
            push(1);
            push(3);
        }
        _ => {
            evens.for_each(&mut push);
            odds.for_each(&mut push);
        }
    }
    Ok(cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        assert_eq!(construct(0).unwrap(), Vec::<u32>::new());
        assert_eq!(construct(1).unwrap(), vec![0]);
        assert_eq!(construct(2), Err(ConstructionError::NoSolution { n: 2 }));
        assert_eq!(
            construct(3).unwrap_err().to_string(),
            "the 3-queens problem has no solution"
        );
        assert_eq!(construct(4).unwrap(), vec![1, 3, 0, 2]);
        // n mod 6 = 2 and 3 on their smallest boards.
        assert_eq!(construct(8).unwrap(), vec![1, 3, 5, 7, 2, 0, 6, 4]);
        assert_eq!(construct(9).unwrap(), vec![3, 5, 7, 1, 4, 6, 8, 0, 2]);
    }

    #[test]
    fn too_large_is_an_error() {
        if let Some(n) = MAX_N.checked_add(1) {
            assert_eq!(
                construct(n),
                Err(ConstructionError::TooLarge { n, max: MAX_N })
            );
        }
    }
}
