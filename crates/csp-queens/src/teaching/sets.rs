//! Row-by-row recursive backtracking with three sets of ids.
//!
//! Every square `(x, y)` lies on one column, `x`, one "/" diagonal, whose
//! squares all share `x + y`, and one "\" diagonal, whose squares all share
//! `x − y`. A queen *takes* those three ids; a square is free when none of
//! its ids is taken. So the search keeps three sets and never loops over the
//! queens already placed: row `y` tries each column `x` in turn, puts a
//! queen on the first free square, recurses into row `y + 1`, and takes the
//! queen back when that row has tried all its columns.

use std::collections::HashSet;

use super::{trace_line, Run, Show};
use crate::trace::Mark;

/// The ids taken by the queens on the board.
// ANCHOR: taken
#[derive(Default)]
struct Taken {
    columns: HashSet<i64>,
    sums: HashSet<i64>,  // x + y
    diffs: HashSet<i64>, // x − y
}

impl Taken {
    fn free(&self, x: i64, y: i64) -> bool {
        !self.columns.contains(&x)
            && !self.sums.contains(&(x + y))
            && !self.diffs.contains(&(x - y))
    }
    fn put(&mut self, x: i64, y: i64) {
        self.columns.insert(x);
        self.sums.insert(x + y);
        self.diffs.insert(x - y);
    }
    fn take_back(&mut self, x: i64, y: i64) {
        self.columns.remove(&x);
        self.sums.remove(&(x + y));
        self.diffs.remove(&(x - y));
    }
}
// ANCHOR_END: taken

/// Finds the solutions of `n` queens in lexicographic order, handing each
/// to `run`.
pub fn solve(n: usize, run: &mut Run) {
    solve_watched(n, run, None);
}

/// [`solve`], showing every node of the tree to `show`: each queen put on
/// a free square, each solution, and each return to the row above once a
/// row has tried all its columns (`backtrack`). Attacked squares are
/// skipped by the set look-ups, so they are not nodes and not shown.
pub fn solve_watched(n: usize, run: &mut Run, mut show: Show) {
    if let Some(show) = show.as_mut() {
        let mark = if n == 0 { Mark::Solution } else { Mark::None };
        show(&trace_line(n, &[], mark));
    }
    let cols = &mut Vec::with_capacity(n);
    place_row(n, cols, &mut Taken::default(), run, &mut show);
}

/// Places a queen on row `cols.len()` in every free column in turn.
/// Returns `false` when the search must stop.
// ANCHOR: place_row
fn place_row(
    n: usize,
    cols: &mut Vec<u32>,
    taken: &mut Taken,
    run: &mut Run,
    show: &mut Show,
) -> bool {
    if cols.len() == n {
        return run.solution(cols); // every row has its queen
    }
    let y = cols.len() as i64;
    for x in 0..n as i64 {
        if !taken.free(x, y) {
            continue;
        }
        if !run.node() {
            return false;
        }
        taken.put(x, y);
        cols.push(x as u32);
        if let Some(show) = show.as_mut() {
            let mark = if cols.len() == n {
                Mark::Solution
            } else {
                Mark::None
            };
            show(&trace_line(n, cols, mark));
        }
        let go_on = place_row(n, cols, taken, run, show);
        cols.pop();
        taken.take_back(x, y);
        if !go_on {
            return false;
        }
    }
    if let Some(show) = show.as_mut() {
        show(&trace_line(n, cols, Mark::Backtrack)); // back to the row above
    }
    true
}
// ANCHOR_END: place_row
