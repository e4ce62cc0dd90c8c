//! The seeded generator of local search.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014): a 64-bit counter advanced by the golden-ratio
//! increment and hashed by the crate's [`splitmix`] finalizer. Bounded draws
//! use Lemire's multiply-shift ("Fast random integer generation in an
//! interval", ACM TOMACS 2019) without the rejection step: the bias is below
//! `bound / 2^64`, and every operation is plain 64-bit integer arithmetic, so a
//! seed gives the same stream on every machine and word size.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::search::splitmix;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub(crate) struct Rng {
    state: u64,
}

impl Rng {
    /// A stream for `seed` (nearby seeds give unrelated streams).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng {
            state: splitmix(seed),
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let out = splitmix(self.state);
        self.state = self.state.wrapping_add(GOLDEN);
        out
    }

    /// A value in `0..bound` (`0` when `bound` is 0).
    #[inline]
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }

    /// An index in `0..bound` (`0` when `bound` is 0).
    #[inline]
    pub(crate) fn index(&mut self, bound: usize) -> usize {
        self.below(bound as u64) as usize
    }

    /// True with probability `p` (53-bit resolution).
    #[inline]
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < p
    }
}

/// A hasher for small integer keys: the SplitMix64 finalizer, fixed (so maps
/// behave the same on every run) and cheap (the maps it serves are small and
/// never iterated).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IdHash(u64);

impl Hasher for IdHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = splitmix(self.0 ^ b as u64);
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.0 = splitmix(x as u64);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = splitmix(x);
    }
}

/// A hash map keyed by small integers through [`IdHash`].
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHash>>;

/// The candidate a step or construction picks: least score, ties broken at random by
/// reservoir sampling (the k-th candidate of the best score replaces the
/// choice with probability 1/k, so each tied candidate is kept with equal
/// probability).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pick<T> {
    /// The chosen candidate (`None`: none offered, or staying put).
    pub(crate) choice: Option<T>,
    score: i64,
    ties: u64,
}

impl<T: Copy> Pick<T> {
    /// No candidate yet.
    pub(crate) fn none() -> Pick<T> {
        Pick {
            choice: None,
            score: i64::MAX,
            ties: 0,
        }
    }

    /// Staying put is the first candidate, at score 0 (no change), so a
    /// step that takes the best never makes things worse.
    pub(crate) fn stay() -> Pick<T> {
        Pick {
            choice: None,
            score: 0,
            ties: 1,
        }
    }

    /// Would a candidate with `score` be considered (no worse than the best)?
    #[inline]
    pub(crate) fn admits(&self, score: i64) -> bool {
        score <= self.score
    }

    /// Offers a candidate; ties with the best are kept at random.
    #[inline]
    pub(crate) fn offer(&mut self, candidate: T, score: i64, rng: &mut Rng) {
        if score < self.score {
            (self.choice, self.score, self.ties) = (Some(candidate), score, 1);
        } else if score == self.score {
            self.ties += 1;
            if rng.below(self.ties) == 0 {
                self.choice = Some(candidate);
            }
        }
    }

    /// Offers a candidate drawn at random; the first of the best score is
    /// kept (the draws are random already).
    #[inline]
    pub(crate) fn offer_first(&mut self, candidate: T, score: i64) {
        if score < self.score {
            (self.choice, self.score) = (Some(candidate), score);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_bounds_hold() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
        assert_eq!(Rng::new(3).below(0), 0);
    }

    #[test]
    fn ties_are_broken_evenly() {
        let mut rng = Rng::new(9);
        let mut kept = [0u32; 3];
        for _ in 0..3000 {
            let mut b = Pick::stay();
            assert!(!b.admits(1));
            b.offer(1, 0, &mut rng);
            b.offer(2, 0, &mut rng);
            b.offer(3, 1, &mut rng);
            kept[b.choice.unwrap_or(0)] += 1;
        }
        assert!(kept.iter().all(|&k| (850..1150).contains(&k)), "{kept:?}");
        let mut b = Pick::none();
        b.offer_first(5, 2);
        b.offer_first(6, 2);
        b.offer_first(7, 3);
        assert_eq!(b.choice, Some(5));
    }

    #[test]
    fn draws_cover_the_range_evenly() {
        let mut r = Rng::new(42);
        let mut seen = [0u32; 8];
        for _ in 0..8000 {
            seen[r.index(8)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }
}
