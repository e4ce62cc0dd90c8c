//! The [`Grid`] type: a square Sudoku grid of any supported size, givens and blanks.

use std::fmt;

/// The smallest supported box side (`k = 1`, a 1×1 grid).
pub const MIN_BOX_SIDE: usize = 1;
/// The largest supported box side (`k = 5`, a 25×25 grid, symbols `1`-`9` and `A`-`P`).
pub const MAX_BOX_SIDE: usize = 5;

/// A Sudoku grid: `n × n` cells with `n = k·k`, where `k` is the side of a box.
///
/// Cells are stored row-major; a cell holds a value `1..=n`, or `0` for a blank.
/// The classic puzzle has `k = 3` (9×9); `k = 4` (16×16) and `k = 5` (25×25) are
/// also common. A grid may hold givens that repeat in a row, column or box: such a
/// grid is well formed but has no solution (see [`Grid::first_conflict`]).
///
/// ```
/// use csp_sudoku::Grid;
///
/// let mut grid = Grid::empty(2).unwrap(); // a 4×4 grid with 2×2 boxes
/// grid.set(0, 3, 4).unwrap();
/// assert_eq!(grid.side(), 4);
/// assert_eq!(grid.get(0, 3), 4);
/// assert_eq!(grid.blanks(), 15);
/// assert_eq!(grid.to_string(), "...4............");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    box_side: usize,
    cells: Vec<u8>,
}

/// Why a [`Grid`] could not be built or changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GridError {
    /// The box side is outside `MIN_BOX_SIDE..=MAX_BOX_SIDE`.
    UnsupportedBoxSide(usize),
    /// The number of cells is not `n·n` for the box side.
    WrongCellCount {
        /// The number of cells the grid needs (`n·n`).
        expected: usize,
        /// The number of cells given.
        found: usize,
    },
    /// A cell value is greater than `n`.
    ValueOutOfRange {
        /// Row of the cell, 0-based.
        row: usize,
        /// Column of the cell, 0-based.
        col: usize,
        /// The offending value.
        value: u8,
        /// The largest allowed value, `n`.
        max: u8,
    },
    /// A row or column index is `n` or more.
    CellOutOfRange {
        /// The row index given, 0-based.
        row: usize,
        /// The column index given, 0-based.
        col: usize,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::UnsupportedBoxSide(k) => write!(
                f,
                "unsupported box side {k} (supported: {MIN_BOX_SIDE} to {MAX_BOX_SIDE})"
            ),
            GridError::WrongCellCount { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            GridError::ValueOutOfRange {
                row,
                col,
                value,
                max,
            } => write!(
                f,
                "row {}, column {}: value {value} out of range 0-{max}",
                row + 1,
                col + 1
            ),
            GridError::CellOutOfRange { row, col } => {
                write!(
                    f,
                    "cell (row {}, column {}) is outside the grid",
                    row + 1,
                    col + 1
                )
            }
        }
    }
}

impl std::error::Error for GridError {}

/// Two givens with the same value in one row, column or box (see [`Grid::first_conflict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated value.
    pub value: u8,
    /// Which kind of unit holds both givens.
    pub unit: Unit,
    /// The first cell, `(row, col)`, 0-based, in row-major order.
    pub first: (usize, usize),
    /// The second cell, `(row, col)`, 0-based.
    pub second: (usize, usize),
}

/// A unit of the grid: the cells that must all differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row, 0-based.
    Row(usize),
    /// A column, 0-based.
    Column(usize),
    /// A box, 0-based, numbered row-major (box 0 is top left).
    Box(usize),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(r) => write!(f, "row {}", r + 1),
            Unit::Column(c) => write!(f, "column {}", c + 1),
            Unit::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "given {} repeats in {}: row {}, column {} and row {}, column {}",
            crate::symbol(self.value).unwrap_or('?'),
            self.unit,
            self.first.0 + 1,
            self.first.1 + 1,
            self.second.0 + 1,
            self.second.1 + 1
        )
    }
}

impl Grid {
    /// An empty grid (all blanks) with boxes of side `box_side`.
    ///
    /// # Errors
    /// [`GridError::UnsupportedBoxSide`] unless `1 <= box_side <= 5`.
    pub fn empty(box_side: usize) -> Result<Grid, GridError> {
        check_box_side(box_side)?;
        let n = box_side * box_side;
        Ok(Grid {
            box_side,
            cells: vec![0; n * n],
        })
    }

    /// A grid from its cells, row-major, `0` for a blank.
    ///
    /// # Errors
    /// An unsupported box side, a cell count other than `n·n`, or a value above `n`.
    pub fn new(box_side: usize, cells: Vec<u8>) -> Result<Grid, GridError> {
        check_box_side(box_side)?;
        let n = box_side * box_side;
        if cells.len() != n * n {
            return Err(GridError::WrongCellCount {
                expected: n * n,
                found: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
            return Err(GridError::ValueOutOfRange {
                row: i / n,
                col: i % n,
                value: cells[i],
                max: n as u8,
            });
        }
        Ok(Grid { box_side, cells })
    }

    /// The side `k` of a box (3 for the classic 9×9 puzzle).
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// The side `n = k·k` of the grid, which is also the largest value.
    pub fn side(&self) -> usize {
        self.box_side * self.box_side
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
        let n = self.side();
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) outside a {n}x{n} grid"
        );
        self.cells[row * n + col]
    }

    /// Sets the value at `(row, col)` (0-based); `0` makes the cell blank.
    ///
    /// # Errors
    /// A cell outside the grid, or a value above `n`.
    pub fn set(&mut self, row: usize, col: usize, value: u8) -> Result<(), GridError> {
        let n = self.side();
        if row >= n || col >= n {
            return Err(GridError::CellOutOfRange { row, col });
        }
        if usize::from(value) > n {
            return Err(GridError::ValueOutOfRange {
                row,
                col,
                value,
                max: n as u8,
            });
        }
        self.cells[row * n + col] = value;
        Ok(())
    }

    /// The number of givens (non-blank cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The number of blank cells.
    pub fn blanks(&self) -> usize {
        self.cells.len() - self.givens()
    }

    /// `true` when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The index (0-based, row-major) of the box holding `(row, col)`.
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        (row / self.box_side) * self.box_side + col / self.box_side
    }

    /// The cells of every unit: all rows, then all columns, then all boxes.
    ///
    /// Each unit lists `n` cells as `(row, col)` pairs; these are the groups whose
    /// values must all differ, which is the whole rule of Sudoku.
    pub fn units(&self) -> Vec<(Unit, Vec<(usize, usize)>)> {
        let n = self.side();
        let k = self.box_side;
        let mut units = Vec::with_capacity(3 * n);
        for r in 0..n {
            units.push((Unit::Row(r), (0..n).map(|c| (r, c)).collect()));
        }
        for c in 0..n {
            units.push((Unit::Column(c), (0..n).map(|r| (r, c)).collect()));
        }
        for b in 0..n {
            let (r0, c0) = ((b / k) * k, (b % k) * k);
            let cells = (0..n).map(|i| (r0 + i / k, c0 + i % k)).collect();
            units.push((Unit::Box(b), cells));
        }
        units
    }

    /// The first pair of equal givens in one row, column or box, if any.
    ///
    /// Rows are searched first, then columns, then boxes. A grid with a conflict has
    /// no solution; the parser accepts it (it is well-formed text) and the solver
    /// reports it as having no solution.
    ///
    /// ```
    /// let grid: csp_sudoku::Grid = format!("5..5{}", ".".repeat(77)).parse().unwrap();
    /// let conflict = grid.first_conflict().unwrap();
    /// assert_eq!(
    ///     conflict.to_string(),
    ///     "given 5 repeats in row 1: row 1, column 1 and row 1, column 4"
    /// );
    /// ```
    pub fn first_conflict(&self) -> Option<Conflict> {
        let n = self.side();
        for (unit, cells) in self.units() {
            let mut seen: Vec<Option<(usize, usize)>> = vec![None; n + 1];
            for (r, c) in cells {
                let v = self.get(r, c);
                if v == 0 {
                    continue;
                }
                if let Some(first) = seen[usize::from(v)] {
                    return Some(Conflict {
                        value: v,
                        unit,
                        first,
                        second: (r, c),
                    });
                }
                seen[usize::from(v)] = Some((r, c));
            }
        }
        None
    }
}

fn check_box_side(box_side: usize) -> Result<(), GridError> {
    if (MIN_BOX_SIDE..=MAX_BOX_SIDE).contains(&box_side) {
        Ok(())
    } else {
        Err(GridError::UnsupportedBoxSide(box_side))
    }
}

/// Shows the one-line form (the same text the parser reads).
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::render::line(self))
    }
}

/// Shows the size and the one-line form.
impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        write!(f, "Grid({n}x{n}, \"{}\")", crate::render::line(self))
    }
}
