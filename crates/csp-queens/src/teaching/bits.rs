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

/// Finds the solutions of `n` queens (`n ≤ 64`) in lexicographic order,
/// handing each to `run`. Larger boards report nothing.
pub fn solve(n: usize, run: &mut Run) {
    if n > BITS_MAX_N {
        return;
    }
    // `n` ones: one per column.
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    search(all, 0, 0, 0, &mut Vec::with_capacity(n), run);
}

/// One row: `columns`, `left` and `right` are the squares of this row
/// attacked from above. Returns `false` when the search must stop.
fn search(
    all: u64,
    columns: u64,
    left: u64,
    right: u64,
    cols: &mut Vec<u32>,
    run: &mut Run,
) -> bool {
    if columns == all {
        return run.solution(cols); // a queen in every column: a solution
    }
    // ANCHOR: lowest_bit
    let mut free = all & !(columns | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg(); // the lowest free square
        free ^= bit;
        if !run.node() {
            return false;
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
        );
        cols.pop();
        if !go_on {
            return false;
        }
    }
    // ANCHOR_END: lowest_bit
    true
}
