//! The seeded generator of local search.
//!
//! SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014): a 64-bit counter advanced by the golden-ratio
//! increment and hashed by the crate's [`splitmix`] finalizer. Bounded draws
//! use Lemire's multiply-shift ("Fast random integer generation in an
//! interval", ACM TOMACS 2019) without the rejection step: the bias is below
//! `bound / 2^64`, and every operation is plain 64-bit integer arithmetic, so a
//! seed gives the same stream on every machine and word size.

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

/// Reservoir choice among ties: the `k`-th candidate of equal merit
/// (`k` counted from 1) replaces the current choice with probability `1/k`,
/// so each of the tied candidates is kept with equal probability.
#[inline]
pub(crate) fn take_tie(rng: &mut Rng, k: u64) -> bool {
    rng.below(k) == 0
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
    fn draws_cover_the_range_evenly() {
        let mut r = Rng::new(42);
        let mut seen = [0u32; 8];
        for _ in 0..8000 {
            seen[r.index(8)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }
}
