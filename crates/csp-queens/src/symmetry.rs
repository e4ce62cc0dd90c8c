//! The eight symmetries of the square (the dihedral group D4) acting on
//! complete placements.
//!
//! A placement `cols` puts the queen of row `r` in column `cols[r]`; row 0 is
//! the top row and column 0 the leftmost one. A symmetry moves every square
//! `(row, col)` of the board to another square, so it maps a placement that is
//! a *permutation* (one queen in every row and every column) to another
//! permutation. Other placements have images with two queens in one row or an
//! empty row, which the one-column-per-row representation cannot hold, so
//! every function here rejects them with a [`SymmetryError`].
//!
//! ```
//! use csp_queens::symmetry::{canonical, orbit_size, Symmetry};
//!
//! let sol = [1, 3, 0, 2]; // 4-queens: 2 4 1 3 (1-based)
//! assert_eq!(Symmetry::Rotate90.apply(&sol).unwrap(), vec![1, 3, 0, 2]);
//! assert_eq!(Symmetry::FlipLeftRight.apply(&sol).unwrap(), vec![2, 0, 3, 1]);
//! assert_eq!(canonical(&sol).unwrap(), vec![1, 3, 0, 2]);
//! assert_eq!(orbit_size(&sol).unwrap(), 2);
//! ```

use std::fmt;

/// One of the eight symmetries of the square.
///
/// The formulas below give the square `(row, col)` is moved to, on a board of
/// side `n` (`m = n - 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves every square in place: `(r, c) → (r, c)`.
    Identity,
    /// Quarter turn clockwise: `(r, c) → (c, m − r)`.
    Rotate90,
    /// Half turn: `(r, c) → (m − r, m − c)`.
    Rotate180,
    /// Quarter turn counterclockwise: `(r, c) → (m − c, r)`.
    Rotate270,
    /// Mirror in the vertical axis: `(r, c) → (r, m − c)`.
    FlipLeftRight,
    /// Mirror in the horizontal axis: `(r, c) → (m − r, c)`.
    FlipTopBottom,
    /// Mirror in the main diagonal (top-left to bottom-right): `(r, c) → (c, r)`.
    Transpose,
    /// Mirror in the anti-diagonal (top-right to bottom-left):
    /// `(r, c) → (m − c, m − r)`.
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipLeftRight,
        Symmetry::FlipTopBottom,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this symmetry is a rotation (the identity counts as one).
    pub fn is_rotation(self) -> bool {
        matches!(
            self,
            Symmetry::Identity | Symmetry::Rotate90 | Symmetry::Rotate180 | Symmetry::Rotate270
        )
    }

    /// The image of the permutation placement `cols` under this symmetry.
    ///
    /// # Errors
    ///
    /// [`SymmetryError`] if `cols` is not a permutation of `0..cols.len()`.
    ///
    /// ```
    /// use csp_queens::symmetry::Symmetry;
    /// // The first 8-queens solution, turned a quarter clockwise.
    /// let sol = [0, 4, 7, 5, 2, 6, 1, 3];
    /// let turned = Symmetry::Rotate90.apply(&sol).unwrap();
    /// assert_eq!(turned, vec![7, 1, 3, 0, 6, 4, 2, 5]);
    /// ```
    pub fn apply(self, cols: &[u32]) -> Result<Vec<u32>, SymmetryError> {
        validate_permutation(cols)?;
        let mut out = vec![0; cols.len()];
        apply_into(self, cols, &mut out);
        Ok(out)
    }
}

impl Symmetry {
    /// A short name as csp draws boards (row 0 at the bottom, as rank 1
    /// of a chess diagram, where the formulas above put it at the top, so
    /// a quarter turn clockwise there is one to the left on the picture
    /// and the two diagonals swap): `identity`, `turn left`, `half turn`,
    /// `turn right`, `mirror |`, `mirror -`, `mirror /`, `mirror \\`.
    pub fn short_name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "turn left",
            Symmetry::Rotate180 => "half turn",
            Symmetry::Rotate270 => "turn right",
            Symmetry::FlipLeftRight => "mirror |",
            Symmetry::FlipTopBottom => "mirror -",
            Symmetry::Transpose => "mirror /",
            Symmetry::AntiTranspose => "mirror \\",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotation by 90° clockwise",
            Symmetry::Rotate180 => "rotation by 180°",
            Symmetry::Rotate270 => "rotation by 270° clockwise",
            Symmetry::FlipLeftRight => "left-right mirror",
            Symmetry::FlipTopBottom => "top-bottom mirror",
            Symmetry::Transpose => "mirror in the main diagonal",
            Symmetry::AntiTranspose => "mirror in the anti-diagonal",
        };
        f.write_str(name)
    }
}

/// Why a placement cannot be transformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymmetryError {
    /// A column lies outside the `n × n` board (`n` = number of rows).
    ColumnOutOfRange {
        /// 0-based row of the offending queen.
        row: usize,
        /// Its 0-based column.
        col: u32,
        /// The board size.
        n: usize,
    },
    /// Two rows use the same column, so some column is empty and the
    /// transformed placement would not have one queen per row.
    RepeatedColumn {
        /// 0-based row that first used the column.
        first_row: usize,
        /// 0-based later row using it again.
        second_row: usize,
        /// The shared 0-based column.
        col: u32,
    },
}

impl fmt::Display for SymmetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymmetryError::ColumnOutOfRange { row, col, n } => write!(
                f,
                "row {}: column {} is outside the {n}×{n} board",
                row + 1,
                u64::from(*col) + 1
            ),
            SymmetryError::RepeatedColumn {
                first_row,
                second_row,
                col,
            } => write!(
                f,
                "rows {} and {} both use column {}; symmetries need one queen per column",
                first_row + 1,
                second_row + 1,
                u64::from(*col) + 1
            ),
        }
    }
}

impl std::error::Error for SymmetryError {}

/// Checks that `cols` is a permutation of `0..cols.len()`.
fn validate_permutation(cols: &[u32]) -> Result<(), SymmetryError> {
    let n = cols.len();
    let mut owner = vec![usize::MAX; n];
    for (row, &col) in cols.iter().enumerate() {
        let slot = owner
            .get_mut(col as usize)
            .ok_or(SymmetryError::ColumnOutOfRange { row, col, n })?;
        if *slot != usize::MAX {
            return Err(SymmetryError::RepeatedColumn {
                first_row: *slot,
                second_row: row,
                col,
            });
        }
        *slot = row;
    }
    Ok(())
}

/// Writes the image of the permutation `p` under `sym` into `out`.
///
/// `p` must be a permutation of `0..p.len()` and `out.len() == p.len()`.
pub(crate) fn apply_into(sym: Symmetry, p: &[u32], out: &mut [u32]) {
    debug_assert_eq!(p.len(), out.len());
    let Some(m) = p.len().checked_sub(1) else {
        return;
    };
    let m32 = m as u32;
    // ANCHOR: apply
    for (r, &c) in p.iter().enumerate() {
        let r32 = r as u32;
        let cu = c as usize;
        match sym {
            Symmetry::Identity => out[r] = c,
            Symmetry::Rotate90 => out[cu] = m32 - r32,
            Symmetry::Rotate180 => out[m - r] = m32 - c,
            Symmetry::Rotate270 => out[m - cu] = r32,
            Symmetry::FlipLeftRight => out[r] = m32 - c,
            Symmetry::FlipTopBottom => out[m - r] = c,
            Symmetry::Transpose => out[cu] = r32,
            Symmetry::AntiTranspose => out[m - cu] = m32 - r32,
        }
    }
    // ANCHOR_END: apply
}

/// Whether the permutation `p` is the lexicographically smallest of its eight
/// images. `scratch` must have the length of `p`.
pub(crate) fn is_canonical_unchecked(p: &[u32], scratch: &mut [u32]) -> bool {
    Symmetry::ALL[1..].iter().all(|&sym| {
        apply_into(sym, p, scratch);
        *scratch >= *p
    })
}

/// All eight images of `cols`, in the order of [`Symmetry::ALL`].
///
/// # Errors
///
/// [`SymmetryError`] if `cols` is not a permutation.
pub fn images(cols: &[u32]) -> Result<Vec<(Symmetry, Vec<u32>)>, SymmetryError> {
    validate_permutation(cols)?;
    Ok(Symmetry::ALL
        .iter()
        .map(|&sym| {
            let mut out = vec![0; cols.len()];
            apply_into(sym, cols, &mut out);
            (sym, out)
        })
        .collect())
}

/// A class of placements under the eight symmetries of the square: its
/// representative (the lexicographically smallest member, as
/// [`canonical`] gives it), its eight images (some equal when the
/// placement is symmetric) and the number of distinct ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orbit {
    /// The smallest member of the class.
    pub representative: Vec<u32>,
    /// The representative under each symmetry, in the order of
    /// [`Symmetry::ALL`] (the identity first).
    pub images: Vec<(Symmetry, Vec<u32>)>,
    /// How many of the images differ: 1, 2, 4 or 8.
    pub size: u32,
}

/// The class of `cols` under the eight symmetries.
///
/// # Errors
///
/// [`SymmetryError`] if `cols` is not a permutation.
///
/// ```
/// use csp_queens::symmetry::orbit;
/// // 4-queens has one class of two solutions: a quarter turn maps each
/// // onto itself, a mirror onto the other.
/// let o = orbit(&[2, 0, 3, 1]).unwrap();
/// assert_eq!(o.representative, vec![1, 3, 0, 2]);
/// assert_eq!(o.size, 2);
/// assert_eq!(o.images.len(), 8);
/// ```
// ANCHOR: orbit
pub fn orbit(cols: &[u32]) -> Result<Orbit, SymmetryError> {
    let representative = canonical(cols)?;
    let images = images(&representative)?;
    let mut distinct: Vec<&Vec<u32>> = images.iter().map(|(_, image)| image).collect();
    distinct.sort();
    distinct.dedup();
    let size = distinct.len() as u32;
    Ok(Orbit {
        representative,
        images,
        size,
    })
}
// ANCHOR_END: orbit

/// The lexicographically smallest of the eight images of `cols` (comparing
/// row 0's column first). Two placements are equivalent under the symmetries
/// of the square exactly when their canonical forms are equal.
///
/// # Errors
///
/// [`SymmetryError`] if `cols` is not a permutation.
///
/// ```
/// use csp_queens::symmetry::canonical;
/// // The last 8-queens solution in lexicographic order, 8 4 1 3 6 2 7 5:
/// let last = [7, 3, 0, 2, 5, 1, 6, 4];
/// assert_eq!(canonical(&last).unwrap(), vec![0, 4, 7, 5, 2, 6, 1, 3]);
/// ```
pub fn canonical(cols: &[u32]) -> Result<Vec<u32>, SymmetryError> {
    validate_permutation(cols)?;
    let mut best = cols.to_vec();
    let mut scratch = vec![0; cols.len()];
    for &sym in &Symmetry::ALL[1..] {
        apply_into(sym, cols, &mut scratch);
        if scratch < best {
            best.copy_from_slice(&scratch);
        }
    }
    Ok(best)
}

/// The symmetries that map `cols` onto itself (always including the
/// identity), in the order of [`Symmetry::ALL`].
///
/// # Errors
///
/// [`SymmetryError`] if `cols` is not a permutation.
pub fn stabilizer(cols: &[u32]) -> Result<Vec<Symmetry>, SymmetryError> {
    validate_permutation(cols)?;
    let mut scratch = vec![0; cols.len()];
    Ok(Symmetry::ALL
        .iter()
        .copied()
        .filter(|&sym| {
            apply_into(sym, cols, &mut scratch);
            scratch == cols
        })
        .collect())
}

/// The number of distinct images of `cols` under the eight symmetries.
///
/// This is `8 / |stabilizer|`: 1 for `n ≤ 1`, and 2, 4 or 8 for any
/// permutation with `n ≥ 2` (no permutation of two or more columns is its own
/// left-right mirror image). For N-queens solutions it is 2 for solutions
/// unchanged by a quarter turn, 4 for those unchanged only by a half turn,
/// and 8 otherwise.
///
/// # Errors
///
/// [`SymmetryError`] if `cols` is not a permutation.
///
/// ```
/// use csp_queens::symmetry::orbit_size;
/// assert_eq!(orbit_size(&[0, 4, 7, 5, 2, 6, 1, 3]).unwrap(), 8);
/// assert_eq!(orbit_size(&[1, 3, 0, 2]).unwrap(), 2);
/// assert_eq!(orbit_size(&[0]).unwrap(), 1);
/// ```
pub fn orbit_size(cols: &[u32]) -> Result<u32, SymmetryError> {
    Ok(8 / stabilizer(cols)?.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_image(sym: Symmetry, n: u32, r: u32, c: u32) -> (u32, u32) {
        let m = n - 1;
        match sym {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, m - r),
            Symmetry::Rotate180 => (m - r, m - c),
            Symmetry::Rotate270 => (m - c, r),
            Symmetry::FlipLeftRight => (r, m - c),
            Symmetry::FlipTopBottom => (m - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (m - c, m - r),
        }
    }

    #[test]
    fn apply_moves_every_queen_by_the_square_formula() {
        let p = [2u32, 0, 3, 1, 4];
        for sym in Symmetry::ALL {
            let q = sym.apply(&p).unwrap();
            for (r, &c) in p.iter().enumerate() {
                let (r2, c2) = square_image(sym, 5, r as u32, c);
                assert_eq!(q[r2 as usize], c2, "{sym}");
            }
        }
    }

    #[test]
    fn group_laws_hold() {
        let p = [3u32, 1, 4, 0, 2, 5];
        let r1 = Symmetry::Rotate90.apply(&p).unwrap();
        let r2 = Symmetry::Rotate90.apply(&r1).unwrap();
        assert_eq!(r2, Symmetry::Rotate180.apply(&p).unwrap());
        let r3 = Symmetry::Rotate90.apply(&r2).unwrap();
        assert_eq!(r3, Symmetry::Rotate270.apply(&p).unwrap());
        assert_eq!(Symmetry::Rotate90.apply(&r3).unwrap(), p);
        for sym in Symmetry::ALL.into_iter().filter(|s| !s.is_rotation()) {
            let once = sym.apply(&p).unwrap();
            assert_eq!(sym.apply(&once).unwrap(), p, "{sym} is an involution");
        }
    }

    #[test]
    fn rejects_non_permutations() {
        assert_eq!(
            canonical(&[0, 0]),
            Err(SymmetryError::RepeatedColumn {
                first_row: 0,
                second_row: 1,
                col: 0
            })
        );
        let err = orbit_size(&[0, 2]).unwrap_err();
        assert_eq!(
            err,
            SymmetryError::ColumnOutOfRange {
                row: 1,
                col: 2,
                n: 2
            }
        );
        assert!(err.to_string().contains("row 2"));
    }

    #[test]
    fn small_boards() {
        assert_eq!(canonical(&[]).unwrap(), Vec::<u32>::new());
        assert_eq!(orbit_size(&[]).unwrap(), 1);
        assert_eq!(orbit_size(&[0, 1]).unwrap(), 2);
    }
}
