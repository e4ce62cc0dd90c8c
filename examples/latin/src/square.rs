//! The [`Square`] type: a partial Latin square.

use std::fmt;

/// The largest supported order (cells are stored as `u8`).
pub const MAX_ORDER: usize = 255;

/// A partial Latin square of order `n`: `n × n` cells, each blank (`0`) or a
/// value `1..=n`.
///
/// A *Latin square* has every value exactly once in each row and each column. A
/// partial square may hold repeated values; it is then well formed but has no
/// completion ([`Square::first_conflict`] finds the repeat).
///
/// ```
/// use csp_latin::Square;
///
/// let mut s = Square::empty(3).unwrap();
/// s.set(1, 2, 3).unwrap();
/// assert_eq!((s.order(), s.get(1, 2), s.givens()), (3, 3, 1));
/// assert_eq!(s.to_string(), ". . .\n. . 3\n. . .\n");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Square {
    order: usize,
    cells: Vec<u8>,
}

/// Why a [`Square`] could not be built or changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SquareError {
    /// The order is 0 or above [`MAX_ORDER`].
    UnsupportedOrder(usize),
    /// The number of cells is not `n·n`.
    WrongCellCount {
        /// `n·n`.
        expected: usize,
        /// The number of cells given.
        found: usize,
    },
    /// A value above the order.
    ValueOutOfRange {
        /// Row, 0-based.
        row: usize,
        /// Column, 0-based.
        col: usize,
        /// The value.
        value: u8,
    },
    /// A row or column index of `n` or more.
    CellOutOfRange {
        /// Row, 0-based.
        row: usize,
        /// Column, 0-based.
        col: usize,
    },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::UnsupportedOrder(n) => {
                write!(f, "unsupported order {n} (supported: 1 to {MAX_ORDER})")
            }
            SquareError::WrongCellCount { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            SquareError::ValueOutOfRange { row, col, value } => write!(
                f,
                "row {}, column {}: value {value} is above the order",
                row + 1,
                col + 1
            ),
            SquareError::CellOutOfRange { row, col } => write!(
                f,
                "cell (row {}, column {}) is outside the square",
                row + 1,
                col + 1
            ),
        }
    }
}

impl std::error::Error for SquareError {}

/// Two equal givens in one row or column (see [`Square::first_conflict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated value.
    pub value: u8,
    /// The first cell `(row, col)`, 0-based.
    pub first: (usize, usize),
    /// The second cell `(row, col)`, 0-based.
    pub second: (usize, usize),
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.first.0 == self.second.0 {
            format!("row {}", self.first.0 + 1)
        } else {
            format!("column {}", self.first.1 + 1)
        };
        write!(
            f,
            "value {} repeats in {unit}: row {}, column {} and row {}, column {}",
            crate::symbol(self.value),
            self.first.0 + 1,
            self.first.1 + 1,
            self.second.0 + 1,
            self.second.1 + 1
        )
    }
}

impl Square {
    /// An all-blank square of order `n`.
    ///
    /// # Errors
    /// [`SquareError::UnsupportedOrder`] unless `1 <= n <= MAX_ORDER`.
    pub fn empty(n: usize) -> Result<Square, SquareError> {
        check_order(n)?;
        Ok(Square {
            order: n,
            cells: vec![0; n * n],
        })
    }

    /// A square from its cells, row-major, `0` for a blank.
    ///
    /// # Errors
    /// An unsupported order, a cell count other than `n·n`, or a value above `n`.
    pub fn new(n: usize, cells: Vec<u8>) -> Result<Square, SquareError> {
        check_order(n)?;
        if cells.len() != n * n {
            return Err(SquareError::WrongCellCount {
                expected: n * n,
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
            return Err(SquareError::ValueOutOfRange {
                row: i / n,
                col: i % n,
                value: cells[i],
            });
        }
        Ok(Square { order: n, cells })
    }

    /// The order `n` (number of rows, columns and values).
    pub fn order(&self) -> usize {
        self.order
    }

    /// All cells, row-major, `0` for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `(row, col)` (0-based), `0` for a blank.
    ///
    /// # Panics
    /// If `row` or `col` is `n` or more (like slice indexing).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let n = self.order;
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) outside an order-{n} square"
        );
        self.cells[row * n + col]
    }

    /// Sets the value at `(row, col)` (0-based); `0` makes the cell blank.
    ///
    /// # Errors
    /// A cell outside the square, or a value above `n`.
    pub fn set(&mut self, row: usize, col: usize, value: u8) -> Result<(), SquareError> {
        let n = self.order;
        if row >= n || col >= n {
            return Err(SquareError::CellOutOfRange { row, col });
        }
        if usize::from(value) > n {
            return Err(SquareError::ValueOutOfRange { row, col, value });
        }
        self.cells[row * n + col] = value;
        Ok(())
    }

    /// The number of non-blank cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// `true` when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first value that repeats in a row (rows are searched first) or a column.
    ///
    /// ```
    /// let s: csp_latin::Square = "1 .\n. 1\n".parse().unwrap();
    /// assert_eq!(s.first_conflict(), None);
    /// let s: csp_latin::Square = "1 .\n1 .\n".parse().unwrap();
    /// assert_eq!(
    ///     s.first_conflict().unwrap().to_string(),
    ///     "value 1 repeats in column 1: row 1, column 1 and row 2, column 1"
    /// );
    /// ```
    pub fn first_conflict(&self) -> Option<Conflict> {
        let n = self.order;
        for by_row in [true, false] {
            for a in 0..n {
                let mut seen: Vec<Option<(usize, usize)>> = vec![None; n + 1];
                for b in 0..n {
                    let cell = if by_row { (a, b) } else { (b, a) };
                    let v = self.get(cell.0, cell.1);
                    if v == 0 {
                        continue;
                    }
                    if let Some(first) = seen[usize::from(v)] {
                        return Some(Conflict {
                            value: v,
                            first,
                            second: cell,
                        });
                    }
                    seen[usize::from(v)] = Some(cell);
                }
            }
        }
        None
    }
}

fn check_order(n: usize) -> Result<(), SquareError> {
    if (1..=MAX_ORDER).contains(&n) {
        Ok(())
    } else {
        Err(SquareError::UnsupportedOrder(n))
    }
}

/// Shows the square in the text form the parser reads ([`crate::render::text`]).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::render::text(self))
    }
}

/// Shows the order and the rows on one line.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = crate::render::text(self)
            .lines()
            .map(str::to_string)
            .collect();
        write!(f, "Square({}: {})", self.order, rows.join(" / "))
    }
}
