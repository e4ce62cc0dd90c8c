//! Min-conflicts: local search on complete placements.
//!
//! Start with one queen on every row, anywhere. Then, step after step,
//! pick at random a queen that is attacked and move it, within its row, to
//! the other column where it is attacked by the fewest queens (a random one
//! of the best, so the search does not cycle). Stop when no queen is attacked.
//! A fresh random start every `10n + 50` moves gets it out of the rare
//! traps (small boards have few solutions). There is no search tree and no proof that there is no solution; on the
//! other hand this finds a solution of large boards in about `n` steps.

use super::{attack, Rng, Run};

/// Looks for one solution of `n` queens in at most `max_steps` moves; hands
/// it to `run` when found. Returns whether one was found.
// ANCHOR: min_conflicts
pub fn solve(n: usize, seed: u64, max_steps: u64, run: &mut Run) -> bool {
    let mut rng = Rng::new(seed);
    let mut cols = Vec::new();
    // How many queens attack square (x, row), the queen of `row` aside.
    let attackers = |cols: &[u32], row: usize, x: u32| {
        (0..cols.len())
            .filter(|&r| r != row && attack(r, cols[r], row, x))
            .count()
    };
    for step in 0..max_steps {
        if !run.node_costing((n * n) as u64) {
            return false;
        }
        if step % (10 * n as u64 + 50) == 0 {
            // A fresh random start now and then, out of any trap.
            cols = (0..n).map(|_| rng.below(n) as u32).collect();
        }
        let attacked: Vec<usize> = (0..n)
            .filter(|&r| attackers(&cols, r, cols[r]) > 0)
            .collect();
        if attacked.is_empty() {
            run.solution(&cols);
            return true;
        }
        let row = attacked[rng.below(attacked.len())];
        // The other columns of the row (moving is compulsory, or a queen
        // whose own square is the least attacked would stay forever).
        let moves: Vec<u32> = (0..n as u32).filter(|&x| x != cols[row]).collect();
        let cost: Vec<usize> = moves.iter().map(|&x| attackers(&cols, row, x)).collect();
        let least = cost.iter().copied().min().unwrap_or(0);
        let best: Vec<u32> = (0..moves.len())
            .filter(|&i| cost[i] == least)
            .map(|i| moves[i])
            .collect();
        cols[row] = best[rng.below(best.len())];
    }
    false
}
// ANCHOR_END: min_conflicts
