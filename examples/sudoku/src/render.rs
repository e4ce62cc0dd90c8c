//! Writing grids: the one-line form the parser reads, and a boxed picture for people.

use crate::Grid;

/// The one-line form: `n·n` characters, row-major, `.` for a blank.
///
/// This is the format [`crate::parse`] reads, so `line` and the parser round-trip.
///
/// ```
/// let text = format!("12{}", ".".repeat(79));
/// let grid: csp_sudoku::Grid = text.parse().unwrap();
/// assert_eq!(csp_sudoku::render::line(&grid), text);
/// ```
pub fn line(grid: &Grid) -> String {
    grid.cells().iter().map(|&v| cell_char(v)).collect()
}

/// A boxed picture of the grid, one text line per row, ending in a newline.
///
/// ```
/// let grid: csp_sudoku::Grid = format!("4.....8.5{}", ".".repeat(72)).parse().unwrap();
/// let picture = csp_sudoku::render::boxed(&grid);
/// let mut lines = picture.lines();
/// assert_eq!(lines.next(), Some("+-------+-------+-------+"));
/// assert_eq!(lines.next(), Some("| 4 . . | . . . | 8 . 5 |"));
/// assert_eq!(picture.lines().count(), 13);
/// ```
pub fn boxed(grid: &Grid) -> String {
    let k = grid.box_side();
    let n = grid.side();
    let segment = "-".repeat(2 * k + 1);
    let mut border = String::from("+");
    for _ in 0..k {
        border.push_str(&segment);
        border.push('+');
    }
    border.push('\n');
    let mut out = String::new();
    for r in 0..n {
        if r % k == 0 {
            out.push_str(&border);
        }
        for c in 0..n {
            if c % k == 0 {
                out.push_str("| ");
            }
            out.push(cell_char(grid.get(r, c)));
            out.push(' ');
        }
        out.push_str("|\n");
    }
    out.push_str(&border);
    out
}

fn cell_char(value: u8) -> char {
    if value == 0 {
        '.'
    } else {
        crate::symbol(value).expect("grid values are at most 25")
    }
}
