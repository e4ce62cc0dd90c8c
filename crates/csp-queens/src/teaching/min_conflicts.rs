//! Min-conflicts: local search on complete placements.
//!
//! Start with one queen on every row, anywhere. Then, step after step,
//! pick at random a queen that is attacked and move it, within its row, to
//! the other column where it is attacked by the fewest queens (a random one
//! of the best, so the search does not cycle). Stop when no queen is attacked.
//! A fresh random start every `10n + 50` moves gets it out of the rare
//! traps (small boards have few solutions). There is no search tree and no proof that there is no solution; on the
//! other hand this finds a solution of large boards in about `n` steps.

use super::{attack, genetic::attacking_pairs, Rng, Run};

/// What [`solve_watched`] shows a watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// A random start (the first, or a fresh one out of a trap): the
    /// placement and its number of attacking pairs.
    Start {
        /// Column of each row, 0-based.
        cols: &'a [u32],
        /// Pairs of queens attacking each other.
        pairs: usize,
    },
    /// One move (the search's node).
    Move {
        /// The attacked queen's row, chosen at random.
        row: usize,
        /// Its column before the move.
        from: u32,
        /// Its column after it.
        to: u32,
        /// For each column of the row, how many queens of the other rows
        /// attack that square (before the move).
        attackers: &'a [usize],
        /// Pairs of queens attacking each other after the move.
        pairs: usize,
    },
}

/// Looks for one solution of `n` queens in at most `max_steps` moves; hands
/// it to `run` when found. Returns whether one was found.
pub fn solve(n: usize, seed: u64, max_steps: u64, run: &mut Run) -> bool {
    solve_watched(n, seed, max_steps, run, None)
}

/// [`solve`], showing every start and every move to `watch` (the search
/// is the same, watched or not).
pub fn solve_watched(
    n: usize,
    seed: u64,
    max_steps: u64,
    run: &mut Run,
    mut watch: Option<&mut dyn FnMut(Step)>,
) -> bool {
    // ANCHOR: min_conflicts
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
            if let Some(watch) = watch.as_mut() {
                let pairs = attacking_pairs(&cols);
                watch(Step::Start { cols: &cols, pairs });
            }
        }
        let attacked: Vec<usize> = (0..n)
            .filter(|&r| attackers(&cols, r, cols[r]) > 0)
            .collect();
        if attacked.is_empty() {
            run.solution(&cols);
            return true;
        }
        let row = attacked[rng.below(attacked.len())];
        // The attackers of every square of the row; the queen moves to one
        // of the other columns (moving is compulsory, or a queen whose own
        // square is the least attacked would stay forever).
        let cost: Vec<usize> = (0..n as u32).map(|x| attackers(&cols, row, x)).collect();
        let from = cols[row];
        let others = || (0..n as u32).filter(move |&x| x != from);
        let least = others().map(|x| cost[x as usize]).min().unwrap_or(0);
        let best: Vec<u32> = others().filter(|&x| cost[x as usize] == least).collect();
        cols[row] = best[rng.below(best.len())];
        if let Some(watch) = watch.as_mut() {
            let (to, pairs) = (cols[row], attacking_pairs(&cols));
            watch(Step::Move {
                row,
                from,
                to,
                attackers: &cost,
                pairs,
            });
        }
    }
    false
    // ANCHOR_END: min_conflicts
}
