//! Brute force over all `nⁿ` placements.
//!
//! Put one queen on every row and let each of them range over every
//! column, like the wheels of an odometer: the last row's wheel turns
//! fastest, and when it passes the last column it goes back to the first
//! and turns the wheel of the row above by one. Every one of the `nⁿ`
//! placements is tested with the plain rule (no two queens in one column
//! or on one diagonal). Nothing is pruned: this is the baseline the other
//! techniques are measured against (8⁸ = 16,777,216 tests for 92 solutions).

use super::{attack, tested, trace_line, Run, Show};
use crate::trace::Mark;

/// Tests every placement of `n` queens, one per row, handing each solution
/// to `run` (in lexicographic order).
pub fn solve(n: usize, run: &mut Run) {
    solve_watched(n, run, None);
}

/// [`solve`], showing the empty board and then every placement tested to
/// `show`, as a child of the empty board: `x` when two queens attack each
/// other, `solution` otherwise.
pub fn solve_watched(n: usize, run: &mut Run, mut show: Show) {
    if let Some(show) = show.as_mut() {
        show(&trace_line(n, &[], Mark::None));
    }
    // ANCHOR: odometer
    let mut cols = vec![0u32; n]; // every wheel at column 0
    loop {
        if !run.node_costing((n * n) as u64) {
            return;
        }
        let solved = no_attacks(&cols);
        if let Some(show) = show.as_mut() {
            show(&tested(n, &cols, solved));
        }
        if solved && !run.solution(&cols) {
            return;
        }
        // Turn the odometer by one.
        let mut row = n;
        loop {
            if row == 0 {
                return; // every wheel went round: all nⁿ placements tested
            }
            row -= 1;
            cols[row] += 1;
            if (cols[row] as usize) < n {
                break;
            }
            cols[row] = 0; // this wheel wraps around and carries to the row above
        }
    }
    // ANCHOR_END: odometer
}

/// Whether no two queens of a complete placement attack each other.
pub fn no_attacks(cols: &[u32]) -> bool {
    (0..cols.len()).all(|r| (0..r).all(|s| !attack(s, cols[s], r, cols[r])))
}
