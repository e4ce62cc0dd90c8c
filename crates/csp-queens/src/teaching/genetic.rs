//! A genetic algorithm.
//!
//! An *individual* is a permutation of the columns (so rows and columns
//! never clash) and its *fitness* the number of attacking pairs on the
//! diagonals, 0 for a solution. Each generation keeps the best tenth of the
//! population as it is (*elitism*) and breeds the rest: two parents, each
//! the fitter of two individuals drawn at random (*tournament selection*),
//! give a child that copies a prefix of the first parent and takes the
//! missing columns in the order they appear in the second (*order
//! crossover*); sometimes two of its rows swap their queens (*mutation*).

use super::{attack, Rng, Run};

/// Individuals per generation.
pub const POPULATION: usize = 100;

/// What [`solve_watched`] shows a watcher after scoring each generation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Generation<'a> {
    /// 1 for the first.
    pub number: u64,
    /// The fittest individual (fewest attacking pairs; the first of them
    /// in the sorted population).
    pub best: &'a [u32],
    /// Its attacking pairs.
    pub best_pairs: usize,
    /// The mean number of attacking pairs over the population.
    pub mean_pairs: f64,
}

/// Evolves at most `max_generations` generations looking for one solution
/// of `n` queens; hands it to `run` when found. Returns whether one was found.
pub fn solve(n: usize, seed: u64, max_generations: u64, run: &mut Run) -> bool {
    solve_watched(n, seed, max_generations, run, None)
}

/// [`solve`], showing every generation to `watch` once it is scored (the
/// search is the same, watched or not).
pub fn solve_watched(
    n: usize,
    seed: u64,
    max_generations: u64,
    run: &mut Run,
    mut watch: Option<&mut dyn FnMut(Generation)>,
) -> bool {
    // ANCHOR: generation
    let mut rng = Rng::new(seed);
    let mut people: Vec<Vec<u32>> = (0..POPULATION).map(|_| shuffled(n, &mut rng)).collect();
    for number in 1..=max_generations {
        let mut scored: Vec<(usize, Vec<u32>)> = Vec::with_capacity(POPULATION);
        for p in people {
            if !run.node_costing((n * n) as u64) {
                return false;
            }
            scored.push((attacking_pairs(&p), p));
        }
        scored.sort(); // the fittest (fewest attacking pairs) first
        if let Some(watch) = watch.as_mut() {
            let total: usize = scored.iter().map(|(pairs, _)| pairs).sum();
            watch(Generation {
                number,
                best: &scored[0].1,
                best_pairs: scored[0].0,
                mean_pairs: total as f64 / POPULATION as f64,
            });
        }
        if scored[0].0 == 0 {
            run.solution(&scored[0].1);
            return true;
        }
        let pick = |rng: &mut Rng| {
            let (a, b) = (rng.below(POPULATION), rng.below(POPULATION));
            &scored[a.min(b)].1 // sorted: the lower index is the fitter
        };
        people = scored[..POPULATION / 10]
            .iter()
            .map(|(_, p)| p.clone())
            .collect();
        while people.len() < POPULATION {
            let (mother, father) = (pick(&mut rng), pick(&mut rng));
            let cut = rng.below(n + 1);
            let mut child = mother[..cut].to_vec();
            child.extend(father.iter().filter(|c| !mother[..cut].contains(c)));
            if n > 1 && rng.below(2) == 0 {
                child.swap(rng.below(n), rng.below(n));
            }
            people.push(child);
        }
    }
    false
    // ANCHOR_END: generation
}

/// A random permutation of `0..n` (Fisher–Yates shuffle).
fn shuffled(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i + 1));
    }
    p
}

/// The number of pairs of queens that attack each other.
pub fn attacking_pairs(cols: &[u32]) -> usize {
    (0..cols.len())
        .map(|r| (0..r).filter(|&s| attack(s, cols[s], r, cols[r])).count())
        .sum()
}
