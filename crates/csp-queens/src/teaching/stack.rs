//! Iterative backtracking with an explicit stack, printing its tree.
//!
//! The recursion of [`super::sets`] keeps, on the call stack, which column
//! each row will try next. Here that stack is a plain vector, `next`: its
//! top is the row being filled. Each turn of the loop looks at the top:
//! when the row has tried every column it is popped (the search *backtracks*
//! and the queen of the row above is lifted), otherwise its next column is
//! tried. A square attacked by a queen above is a dead end (`x` in the
//! tree); a free square gets a queen and pushes the next row.
//!
//! `show`, when given, receives every node in the notation of
//! [`crate::trace`], so the loop prints the classic search-tree figure.

use super::{attack, trace_line, Run};
use crate::trace::{Mark, TraceLine};

/// Finds the solutions of `n` queens in lexicographic order, handing each
/// to `run`, and every node of the tree to `show`.
pub fn solve(n: usize, run: &mut Run, mut show: Option<&mut dyn FnMut(&TraceLine)>) {
    let mut line = |cols: &[u32], mark: Mark| {
        if let Some(show) = show.as_mut() {
            show(&trace_line(n, cols, mark));
        }
    };
    line(&[], if n == 0 { Mark::Solution } else { Mark::None });
    if n == 0 {
        run.solution(&[]);
        return;
    }
    // ANCHOR: stack_loop
    let mut cols: Vec<u32> = Vec::with_capacity(n); // the queens placed, row by row
    let mut next: Vec<u32> = vec![0]; // per open row, the next column to try
    while let Some(top) = next.last_mut() {
        let row = cols.len();
        let x = *top;
        if x as usize == n {
            // Every column of this row tried: back to the row above.
            next.pop();
            line(&cols, Mark::Backtrack);
            cols.pop();
            continue;
        }
        *top += 1;
        let attacked = cols.iter().enumerate().any(|(r, &c)| attack(r, c, row, x));
        cols.push(x);
        if attacked {
            line(&cols, Mark::Failed);
        } else if !run.node() {
            return;
        } else if cols.len() == n {
            line(&cols, Mark::Solution);
            if !run.solution(&cols) {
                return;
            }
        } else {
            line(&cols, Mark::None);
            next.push(0); // go one row deeper
            continue;
        }
        cols.pop();
    }
    // ANCHOR_END: stack_loop
}
