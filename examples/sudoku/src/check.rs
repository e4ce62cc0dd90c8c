//! An independent checker for solutions.
//!
//! It shares nothing with the model: it reads the grids and checks the rules of
//! Sudoku directly, so a bug in the model or the engine cannot hide behind it.

use crate::{symbol, Grid};

/// Checks that `solution` solves `puzzle`.
///
/// The solution must have the puzzle's size, no blanks, keep every given, and hold
/// each value `1..=n` exactly once in every row, column and box.
///
/// ```
/// use csp_sudoku::{check_solution, Grid};
///
/// let solution = Grid::new(2, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]).unwrap();
/// let mut puzzle = solution.clone();
/// puzzle.set(0, 0, 0).unwrap();
/// assert_eq!(check_solution(&puzzle, &solution), Ok(()));
///
/// let mut wrong = solution.clone();
/// wrong.set(3, 3, 4).unwrap();
/// assert_eq!(
///     check_solution(&puzzle, &wrong),
///     Err("row 4, column 4: the given 1 was changed to 4".to_string())
/// );
/// assert_eq!(
///     check_solution(&Grid::empty(2).unwrap(), &wrong),
///     Err("row 4 holds 4 twice (columns 1 and 4)".to_string())
/// );
/// ```
///
/// # Errors
/// A message naming the first rule broken, with 1-based rows and columns.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), String> {
    let k = puzzle.box_side();
    let n = k * k;
    if solution.box_side() != k {
        return Err(format!(
            "the solution is {m}x{m} but the puzzle is {n}x{n}",
            m = solution.side()
        ));
    }
    for r in 0..n {
        for c in 0..n {
            let (given, value) = (puzzle.get(r, c), solution.get(r, c));
            if value == 0 || usize::from(value) > n {
                return Err(format!("row {}, column {}: no value 1-{n}", r + 1, c + 1));
            }
            if given != 0 && given != value {
                return Err(format!(
                    "row {}, column {}: the given {} was changed to {}",
                    r + 1,
                    c + 1,
                    sym(given),
                    sym(value)
                ));
            }
        }
    }
    // Rows: remember where each value was first seen.
    for r in 0..n {
        let mut seen = vec![0usize; n + 1];
        for c in 0..n {
            let v = usize::from(solution.get(r, c));
            if seen[v] != 0 {
                return Err(format!(
                    "row {} holds {} twice (columns {} and {})",
                    r + 1,
                    sym(v as u8),
                    seen[v],
                    c + 1
                ));
            }
            seen[v] = c + 1;
        }
    }
    for c in 0..n {
        let mut seen = vec![0usize; n + 1];
        for r in 0..n {
            let v = usize::from(solution.get(r, c));
            if seen[v] != 0 {
                return Err(format!(
                    "column {} holds {} twice (rows {} and {})",
                    c + 1,
                    sym(v as u8),
                    seen[v],
                    r + 1
                ));
            }
            seen[v] = r + 1;
        }
    }
    for br in 0..k {
        for bc in 0..k {
            let mut seen = vec![None; n + 1];
            for r in br * k..(br + 1) * k {
                for c in bc * k..(bc + 1) * k {
                    let v = usize::from(solution.get(r, c));
                    if let Some((r0, c0)) = seen[v] {
                        return Err(format!(
                            "box {} holds {} twice (row {}, column {} and row {}, column {})",
                            br * k + bc + 1,
                            sym(v as u8),
                            r0 + 1,
                            c0 + 1,
                            r + 1,
                            c + 1
                        ));
                    }
                    seen[v] = Some((r, c));
                }
            }
        }
    }
    Ok(())
}

fn sym(value: u8) -> char {
    symbol(value).unwrap_or('?')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved_9x9() -> Grid {
        // The pattern solution: value = (3·(r mod 3) + r/3 + c) mod 9 + 1.
        let cells = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        Grid::new(3, cells).unwrap()
    }

    #[test]
    fn accepts_a_valid_grid_and_keeps_givens() {
        let s = solved_9x9();
        assert_eq!(check_solution(&s, &s), Ok(()));
        assert_eq!(check_solution(&Grid::empty(3).unwrap(), &s), Ok(()));
    }

    #[test]
    fn names_each_broken_rule() {
        let s = solved_9x9();
        let empty = Grid::empty(3).unwrap();
        assert_eq!(
            check_solution(&Grid::empty(4).unwrap(), &s),
            Err("the solution is 9x9 but the puzzle is 16x16".into())
        );
        let mut blank = s.clone();
        blank.set(8, 8, 0).unwrap();
        assert_eq!(
            check_solution(&empty, &blank),
            Err("row 9, column 9: no value 1-9".into())
        );
        let mut puzzle = empty.clone();
        puzzle.set(0, 0, 2).unwrap();
        assert_eq!(
            check_solution(&puzzle, &s),
            Err("row 1, column 1: the given 2 was changed to 1".into())
        );
        // Swapping two rows in different bands keeps rows and columns valid but not boxes.
        let mut swapped = s.clone();
        for c in 0..9 {
            let (a, b) = (s.get(0, c), s.get(3, c));
            swapped.set(0, c, b).unwrap();
            swapped.set(3, c, a).unwrap();
        }
        assert_eq!(
            check_solution(&empty, &swapped),
            Err("box 1 holds 4 twice (row 1, column 3 and row 2, column 1)".into())
        );
        let mut col = s.clone();
        col.set(1, 0, 1).unwrap();
        col.set(1, 6, 4).unwrap();
        assert_eq!(
            check_solution(&empty, &col),
            Err("column 1 holds 1 twice (rows 1 and 2)".into())
        );
    }
}
