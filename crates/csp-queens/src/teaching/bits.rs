//! The minimal bitboard counter.
//!
//! One bit per column. Three masks say which squares of the current row
//! are attacked: `columns` by the queens above in the same column, `left`
//! and `right` along the two diagonals. Going one row down moves a
//! diagonal attack one column over, so the diagonal masks simply shift by
//! one bit per row. The free squares of a row are then
//! `all & !(columns | left | right)`, and `free & free.wrapping_neg()`
//! isolates the lowest of them: the whole search is a few machine
//! instructions per node. (The tuned counter, with symmetry and threads,
//! is [`crate::bitboard`].)

use super::{Run, BITS_MAX_N};

/// What [`solve_watched`] shows a watcher: the masks as the search uses
/// them (bit `k` is column `k`, 0-based; the diagonal masks may hold bits
/// past the board, which `all` strips).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The search arrives on `row` (0-based) with these masks of attacked
    /// squares, and the squares left free.
    Row {
        /// The row.
        row: usize,
        /// Attacked along the columns.
        columns: u64,
        /// Attacked along one diagonal.
        left: u64,
        /// Attacked along the other.
        right: u64,
        /// `all & !(columns | left | right)`.
        free: u64,
    },
    /// A queen goes on the lowest free square of `row`, the bit `bit`.
    Place {
        /// The row.
        row: usize,
        /// `free & free.wrapping_neg()`, one bit.
        bit: u64,
    },
    /// Every column has its queen.
    Solution,
}

/// Finds the solutions of `n` queens (`n ≤ 64`) in lexicographic order,
/// handing each to `run`. Larger boards report nothing.
pub fn solve(n: usize, run: &mut Run) {
    solve_watched(n, run, None);
}

/// [`solve`], showing every row, every queen and every solution to
/// `watch`.
pub fn solve_watched(n: usize, run: &mut Run, mut watch: Option<&mut dyn FnMut(Step)>) {
    if n > BITS_MAX_N {
        return;
    }
    // `n` ones: one per column.
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    search(all, 0, 0, 0, &mut Vec::with_capacity(n), run, &mut watch);
}

/// What [`search`] shows, if anyone watches.
type Watch<'a> = Option<&'a mut dyn FnMut(Step)>;

/// One row: `columns`, `left` and `right` are the squares of this row
/// attacked from above. Returns `false` when the search must stop.
fn search(
    all: u64,
    columns: u64,
    left: u64,
    right: u64,
    cols: &mut Vec<u32>,
    run: &mut Run,
    watch: &mut Watch,
) -> bool {
    if columns == all {
        if let Some(watch) = watch.as_mut() {
            watch(Step::Solution);
        }
        return run.solution(cols); // a queen in every column: a solution
    }
    // ANCHOR: lowest_bit
    let mut free = all & !(columns | left | right);
    if let Some(watch) = watch.as_mut() {
        let row = cols.len();
        watch(Step::Row {
            row,
            columns,
            left,
            right,
            free,
        });
    }
    while free != 0 {
        let bit = free & free.wrapping_neg(); // the lowest free square
        free ^= bit;
        if !run.node() {
            return false;
        }
        if let Some(watch) = watch.as_mut() {
            watch(Step::Place {
                row: cols.len(),
                bit,
            });
        }
        cols.push(bit.trailing_zeros());
        // One row down, the "left" attacks move one column left (a lower
        // bit) and the "right" attacks one column right (a higher bit).
        let go_on = search(
            all,
            columns | bit,
            (left | bit) >> 1,
            (right | bit) << 1,
            cols,
            run,
            watch,
        );
        cols.pop();
        if !go_on {
            return false;
        }
    }
    // ANCHOR_END: lowest_bit
    true
}
