//! An independent checker for completed Latin squares.

use crate::{symbol, Square};

/// Checks that `solution` is a Latin square completing `puzzle`.
///
/// The orders must match, every cell of the solution hold a value `1..=n`, every
/// given of the puzzle be kept, and each value appear once in every row and column.
///
/// ```
/// use csp_latin::{check_solution, Square};
///
/// let puzzle: Square = "1 .\n. .".parse().unwrap();
/// let good: Square = "1 2\n2 1".parse().unwrap();
/// assert_eq!(check_solution(&puzzle, &good), Ok(()));
/// let bad: Square = "1 2\n1 2".parse().unwrap();
/// assert_eq!(
///     check_solution(&puzzle, &bad),
///     Err("column 1 holds 1 twice (rows 1 and 2)".to_string())
/// );
/// ```
///
/// # Errors
/// A message naming the first fault, with 1-based rows and columns.
pub fn check_solution(puzzle: &Square, solution: &Square) -> Result<(), String> {
    let n = puzzle.order();
    if solution.order() != n {
        return Err(format!(
            "the solution has order {} but the puzzle has order {n}",
            solution.order()
        ));
    }
    for r in 0..n {
        for c in 0..n {
            let (given, value) = (puzzle.get(r, c), solution.get(r, c));
            if value == 0 {
                return Err(format!("row {}, column {} is blank", r + 1, c + 1));
            }
            if given != 0 && given != value {
                return Err(format!(
                    "row {}, column {}: the given {} was changed to {}",
                    r + 1,
                    c + 1,
                    symbol(given),
                    symbol(value)
                ));
            }
        }
    }
    check_latin(solution)
}

/// Checks that `square` is a complete Latin square: each value `1..=n` once in
/// every row and every column.
///
/// ```
/// let s: csp_latin::Square = "1 2 3\n2 3 1\n3 1 2".parse().unwrap();
/// assert_eq!(csp_latin::check::check_latin(&s), Ok(()));
/// ```
///
/// # Errors
/// A message naming the first blank or repeated value.
pub fn check_latin(square: &Square) -> Result<(), String> {
    let n = square.order();
    for (what, other, by_row) in [("row", "columns", true), ("column", "rows", false)] {
        for a in 0..n {
            let mut seen = vec![0usize; n + 1];
            for b in 0..n {
                let v = if by_row {
                    square.get(a, b)
                } else {
                    square.get(b, a)
                };
                let v = usize::from(v);
                if v == 0 {
                    let (r, c) = if by_row { (a, b) } else { (b, a) };
                    return Err(format!("row {}, column {} is blank", r + 1, c + 1));
                }
                if seen[v] != 0 {
                    return Err(format!(
                        "{what} {} holds {} twice ({other} {} and {})",
                        a + 1,
                        symbol(v as u8),
                        seen[v],
                        b + 1
                    ));
                }
                seen[v] = b + 1;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults() {
        let cyclic: Square = "123\n231\n312".parse().unwrap();
        let empty = Square::empty(3).unwrap();
        assert_eq!(check_solution(&empty, &cyclic), Ok(()));
        assert_eq!(
            check_solution(&Square::empty(2).unwrap(), &cyclic),
            Err("the solution has order 3 but the puzzle has order 2".into())
        );
        assert_eq!(
            check_solution(&empty, &"12.\n231\n312".parse().unwrap()),
            Err("row 1, column 3 is blank".into())
        );
        assert_eq!(
            check_solution(&"..2\n...\n...".parse().unwrap(), &cyclic),
            Err("row 1, column 3: the given 2 was changed to 3".into())
        );
        assert_eq!(
            check_solution(&empty, &"123\n231\n311".parse().unwrap()),
            Err("row 3 holds 1 twice (columns 2 and 3)".into())
        );
        assert_eq!(
            check_solution(&empty, &"123\n231\n321".parse().unwrap()),
            Err("column 2 holds 2 twice (rows 1 and 3)".into())
        );
        assert_eq!(
            check_solution(&empty, &"123\n231\n123".parse().unwrap()),
            Err("column 1 holds 1 twice (rows 1 and 3)".into())
        );
    }
}
