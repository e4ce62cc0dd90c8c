//! Brute force over all `n!` permutations.
//!
//! A solution has exactly one queen per column as well as per row, so it
//! is a *permutation* of the columns. Testing only permutations leaves
//! `n!` placements instead of `nⁿ` (40,320 instead of 16,777,216 for
//! n = 8), and only the diagonals need testing. The permutations are
//! visited in lexicographic order by the textbook "next permutation" step.

use super::{attack, tested, trace_line, Run, Show};
use crate::trace::Mark;

/// Tests every permutation of `n` columns, handing each solution to `run`
/// (in lexicographic order).
pub fn solve(n: usize, run: &mut Run) {
    solve_watched(n, run, None);
}

/// [`solve`], showing the empty board and then every permutation tested to
/// `show`, as a child of the empty board: `x` when two queens attack each
/// other, `solution` otherwise.
pub fn solve_watched(n: usize, run: &mut Run, mut show: Show) {
    if let Some(show) = show.as_mut() {
        show(&trace_line(n, &[], Mark::None));
    }
    // ANCHOR: permutations
    let mut cols: Vec<u32> = (0..n as u32).collect(); // the first permutation
    loop {
        if !run.node_costing((n * n) as u64) {
            return;
        }
        let diagonals_free = (0..n).all(|r| (0..r).all(|s| !attack(s, cols[s], r, cols[r])));
        if let Some(show) = show.as_mut() {
            show(&tested(n, &cols, diagonals_free));
        }
        if diagonals_free && !run.solution(&cols) {
            return;
        }
        if !next_permutation(&mut cols) {
            return; // that was the last one
        }
    }
    // ANCHOR_END: permutations
}

/// Turns `p` into the next permutation in lexicographic order; `false`
/// when `p` was the last (descending) one.
// ANCHOR: next_permutation
pub fn next_permutation(p: &mut [u32]) -> bool {
    // The longest descending tail cannot grow; the entry before it must.
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    // Swap it with the smallest larger entry of the tail (the tail's
    // rightmost larger one, as the tail descends) ...
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    // ... and make the tail ascending: its smallest arrangement.
    p[i..].reverse();
    true
}
// ANCHOR_END: next_permutation
