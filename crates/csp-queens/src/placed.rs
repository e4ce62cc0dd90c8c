//! N-queens with some queens placed: complete the board, or explain it
//! step by step (`csp queens N --place c3,e1`).
//!
//! The board model here is one 0/1 variable per square (named after the
//! square in chess notation, `c3`; 1 for a queen), so that a hint reads
//! the way a person would say it: "d4 = empty by diagonal a1–h8 from
//! c3 = queen". Each rank and each file holds exactly one queen, each
//! diagonal at most one. The placed queens are posted as constraints
//! ([`board_model`]) or given as facts ([`hint_model`], for the generic
//! hints of `csp_core::hints`).
//!
//! ```
//! use csp_queens::placed::{board_model, parse_squares, to_columns};
//! use csp_core::Search;
//! let placed = parse_squares(4, "b1").unwrap();
//! let (m, cells) = board_model(4, &placed, true).unwrap();
//! let s = Search::new(&m).solve().unwrap().solution.unwrap();
//! let v: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
//! assert_eq!(to_columns(4, &v), Some(vec![1, 3, 0, 2]));
//! ```

use csp_core::expr::sum;
use csp_core::{Domain, Literal, Model, ModelError, VarId};

use crate::render::square_name;

/// A placed queen: its row (rank − 1) and column (file, 0-based).
pub type Square = (usize, u32);

/// Parses squares in chess notation separated by commas or spaces
/// (`c3,e1`) on an `n`×`n` board.
pub fn parse_squares(n: usize, text: &str) -> Result<Vec<Square>, String> {
    let mut out = Vec::new();
    for token in text.split([',', ' ']).filter(|t| !t.is_empty()) {
        let split = token
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(token.len());
        let (file, rank) = token.split_at(split);
        let bad = || format!("`{token}` is not a square of the {n}×{n} board (as in `c3`)");
        if file.is_empty() || file.len() > 3 || rank.is_empty() {
            return Err(bad());
        }
        let col = file
            .bytes()
            .fold(0u64, |acc, b| acc * 26 + u64::from(b - b'a') + 1)
            - 1;
        let row: usize = rank.parse().map_err(|_| bad())?;
        if row == 0 || row > n || col >= n as u64 {
            return Err(bad());
        }
        out.push((row - 1, col as u32));
    }
    if out.is_empty() {
        return Err("--place needs at least one square (as in `c3,e1`)".into());
    }
    Ok(out)
}

/// The lines of the board: ranks, files and diagonals of two squares or
/// more, each with its squares (row-major indices) and its name (`rank 3`,
/// `file c`, `diagonal a1–h8`).
fn lines(n: usize) -> Vec<(String, Vec<usize>, bool)> {
    let mut out = Vec::new();
    for r in 0..n {
        out.push((
            format!("rank {}", r + 1),
            (0..n).map(|c| r * n + c).collect(),
            true,
        ));
    }
    for c in 0..n {
        let mut f = square_name(0, c as u32);
        f.pop();
        out.push((
            format!("file {f}"),
            (0..n).map(|r| r * n + c).collect(),
            true,
        ));
    }
    // Diagonals up (r - c constant) and down (r + c constant).
    for d in 0..2 * n - 1 {
        for up in [true, false] {
            let squares: Vec<(usize, usize)> = (0..n)
                .filter_map(|r| {
                    let c = if up {
                        (r + n - 1).checked_sub(d)?
                    } else {
                        d.checked_sub(r)?
                    };
                    (c < n).then_some((r, c))
                })
                .collect();
            if squares.len() < 2 {
                continue;
            }
            let (first, last) = (squares[0], squares[squares.len() - 1]);
            let name = format!(
                "diagonal {}–{}",
                square_name(first.0, first.1 as u32),
                square_name(last.0, last.1 as u32)
            );
            out.push((
                name,
                squares.iter().map(|&(r, c)| r * n + c).collect(),
                false,
            ));
        }
    }
    out
}

/// The board model: one 0/1 variable per square, row-major (named `a1`,
/// `b1`, …), each rank and file exactly one queen, each diagonal at most
/// one; the placed queens posted as constraints when `post_placed`.
/// Returns the model and the squares' variables.
pub fn board_model(
    n: usize,
    placed: &[Square],
    post_placed: bool,
) -> Result<(Model, Vec<VarId>), ModelError> {
    board_model_labelled(n, placed, post_placed).map(|(m, cells, _)| (m, cells))
}

#[allow(clippy::type_complexity)]
fn board_model_labelled(
    n: usize,
    placed: &[Square],
    post_placed: bool,
) -> Result<(Model, Vec<VarId>, Vec<String>), ModelError> {
    let mut m = Model::new();
    let mut cells = Vec::with_capacity(n * n);
    for k in 0..n * n {
        cells.push(m.new_var_named(&square_name(k / n, (k % n) as u32), Domain::range(0, 1))?);
    }
    let mut labels = Vec::new();
    for (name, squares, exactly) in lines(n) {
        let vars: Vec<VarId> = squares.iter().map(|&k| cells[k]).collect();
        if exactly {
            m.post(sum(&vars).eq(1))?;
        } else {
            m.post(sum(&vars).le(1))?;
        }
        labels.resize(m.num_constraints(), name);
    }
    if post_placed {
        for &(r, c) in placed {
            m.post(cells[r * n + c as usize].eq(1))?;
            labels.resize(
                m.num_constraints(),
                format!("the queen on {}", square_name(r, c)),
            );
        }
    }
    Ok((m, cells, labels))
}

/// The model for hints ([`csp_core::hints`]): the board model, the placed
/// queens as facts (`c3 = 1`), and each constraint's name for people
/// (`rank 3`, `file c`, `diagonal a1–h8`; indexed by constraint).
#[allow(clippy::type_complexity)]
pub fn hint_model(
    n: usize,
    placed: &[Square],
) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    let (m, cells, labels) = board_model_labelled(n, placed, false)?;
    let facts = placed
        .iter()
        .map(|&(r, c)| Literal::Eq(cells[r * n + c as usize], 1))
        .collect();
    Ok((m, facts, labels))
}

/// The placement (the column of each row) of a board of 0/1 squares with
/// exactly one queen per row; `None` otherwise.
pub fn to_columns(n: usize, squares: &[i32]) -> Option<Vec<u32>> {
    if squares.len() != n * n {
        return None;
    }
    (0..n)
        .map(|r| {
            let row = &squares[r * n..(r + 1) * n];
            let mut queens = (0..n).filter(|&c| row[c] == 1);
            match (queens.next(), queens.next()) {
                (Some(c), None) => Some(c as u32),
                _ => None,
            }
        })
        .collect()
}

/// An independent check of a board of 0/1 squares: one queen per row, no
/// two attacking ([`crate::verify::check`]), every placed queen kept.
pub fn check(n: usize, placed: &[Square], squares: &[i32]) -> Result<(), String> {
    let cols = to_columns(n, squares).ok_or("a row without exactly one queen")?;
    let v = crate::verify::check(&cols);
    if !v.is_solution() {
        return Err(format!(
            "not a solution: {} attacking pairs",
            v.conflicts.len()
        ));
    }
    for &(r, c) in placed {
        if cols[r] != c {
            return Err(format!("the queen on {} is gone", square_name(r, c)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::Search;

    #[test]
    fn lines_of_the_8_board() {
        let l = lines(8);
        // 8 ranks, 8 files, 2 × 13 diagonals of two squares or more.
        assert_eq!(l.len(), 8 + 8 + 26);
        assert!(l.iter().any(|(name, _, _)| name == "diagonal a1–h8"));
        assert!(l.iter().any(|(name, _, _)| name == "diagonal h1–a8"));
    }

    #[test]
    fn completions_agree_with_brute_force() {
        // Every 6-queens solution with a queen on b1, by brute force over
        // permutations, against the model's count.
        let placed = parse_squares(6, "b1").unwrap();
        let (m, _) = board_model(6, &placed, true).unwrap();
        let count = Search::new(&m).count().unwrap().count;
        // Brute force: every placement of one queen per row, checked.
        let mut brute = 0;
        let mut cols = vec![0u32; 6];
        for code in 0..6u32.pow(6) {
            let mut x = code;
            for c in cols.iter_mut() {
                *c = x % 6;
                x /= 6;
            }
            if cols[0] == 1 && crate::verify::check(&cols).is_solution() {
                brute += 1;
            }
        }
        assert_eq!(count, brute);
        assert!(brute > 0);
        assert!(parse_squares(6, "g1").is_err());
        assert!(parse_squares(6, "a0").is_err());
    }
}
