//! Word-level primitives over the store's words, for propagators whose
//! passes write many one-word domains at once (the fused all-different in
//! [`crate::constraint::fused`], the all-different window in
//! [`crate::constraint::window`]): the word array itself, split into the
//! small domains and the state words, and the bookkeeping those passes
//! must keep (removal and fixed counts, events, prunes for observers, the
//! explanation trail). The passes themselves live with their constraints;
//! the store only guarantees that what they write through these
//! primitives is undone on backtrack (by the level's snapshot, which
//! [`plain_small_updates`](DomainStore::plain_small_updates) promises, or
//! by [`write_small_word`](DomainStore::write_small_word)'s trail entry).
//!
//! [`Simd`] is the vector level detected once at run time: one baseline
//! x86-64 binary uses AVX2 or AVX-512 where the machine has it.

use super::explained::Cause;
use super::store::{small_kinds, DomainStore};
use crate::ids::Value;

/// The vector unit the fused passes may use, detected once at run time (one
/// binary runs on any x86-64 machine and uses AVX-512 where there is one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simd {
    /// No vector code: the portable passes.
    Portable,
    /// AVX2 with popcnt, BMI1/2 and lzcnt (x86-64-v3): the portable passes,
    /// compiled for those instructions.
    Avx2,
    /// AVX-512F with VPOPCNTDQ: the vector pass, eight peers per step.
    Avx512,
}

impl Simd {
    /// The best level this machine supports, or a lower one named by the
    /// environment variable `CSP_SIMD` (`portable`, `avx2`), for
    /// benchmarks and tests.
    pub(crate) fn detect() -> Simd {
        let best = Simd::best();
        match std::env::var("CSP_SIMD").as_deref() {
            Ok("portable") => Simd::Portable,
            Ok("avx2") if best != Simd::Portable => Simd::Avx2,
            _ => best,
        }
    }

    pub(crate) fn best() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                return Simd::Avx2;
            }
        }
        Simd::Portable
    }
}

/// The indices of the set bits of `words` (bit `b` of word `w` is `64w + b`),
/// in increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut a = word;
        std::iter::from_fn(move || {
            (a != 0).then(|| {
                let b = a.trailing_zeros() as usize;
                a &= a - 1;
                w * 64 + b
            })
        })
    })
}

impl DomainStore {
    /// The number of variables: words `0..num_vars()` of
    /// [`words_mut`](Self::words_mut) are the small domains, the rest are
    /// state words.
    #[inline(always)]
    pub(crate) fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The word of small variable `i` (bit `k`: value `base + k`).
    #[inline(always)]
    pub(crate) fn small_word(&self, i: usize) -> u64 {
        self.words[i]
    }

    /// The value of bit 0 of small variable `i`'s word.
    #[inline(always)]
    pub(crate) fn small_base(&self, i: usize) -> Value {
        self.base[i]
    }

    /// The whole word array (small domains, then state words), for a pass
    /// that writes many words when
    /// [`plain_small_updates`](Self::plain_small_updates) holds: the
    /// level's snapshot restores them, and the pass accounts for what it
    /// did with [`account_pass`](Self::account_pass) (or
    /// [`count_removals`](Self::count_removals) and
    /// [`count_fixed`](Self::count_fixed)).
    #[inline(always)]
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        debug_assert!(self.plain_small_updates() || self.explaining);
        &mut self.words
    }

    /// [`words_mut`](Self::words_mut) split into the small domains and the
    /// state words.
    #[inline(always)]
    pub(crate) fn split_words(&mut self) -> (&mut [u64], &mut [u64]) {
        let n = self.num_vars;
        self.words.split_at_mut(n)
    }

    /// Adds `n` values to the removal count.
    #[inline(always)]
    pub(crate) fn count_removals(&mut self, n: u32) {
        self.removals += u64::from(n);
    }

    /// Notes that a pass fixed `n` variables (the open count).
    #[inline(always)]
    pub(crate) fn count_fixed(&mut self, n: usize) {
        self.unfixed -= n;
    }

    /// Writes `new` (a non-empty subset of its bits) to small variable
    /// `i`'s word with the full bookkeeping: prunes for observers, the
    /// trail entry, the events and, while explaining, the removed values
    /// with the current cause. The caller counts the removals.
    #[inline(always)]
    pub(crate) fn write_small_word(&mut self, i: usize, new: u64) {
        let old = self.words[i];
        debug_assert!(new != 0 && new & !old == 0);
        if self.track_prunes {
            self.log_small_prunes(i, old & !new);
        }
        self.save_word(i);
        self.words[i] = new;
        self.note_change(i, old, small_kinds(old, new));
    }

    /// Explaining mode: small variable `i` loses the values `gone` because
    /// of `cause`, logged here; the word is written as by
    /// [`words_mut`](Self::words_mut) (no events: the caller queues the
    /// variables it fixes).
    #[inline(always)]
    pub(crate) fn write_small_logged(&mut self, i: usize, gone: u64, cause: Cause) {
        self.log_removed(i, gone, cause);
        self.words[i] &= !gone;
    }

    /// The bookkeeping after a pass `r` ((peers fixed, values removed), or
    /// `Err(values removed)` on a wipe-out): the counters, and the
    /// variables (`var(j)` for the set bits `j` of `fixed`) of the peers it
    /// fixed queued when `queue` is set.
    #[inline(always)]
    pub(crate) fn account_pass(
        &mut self,
        r: Result<(usize, u32), u32>,
        fixed: &[u64],
        queue: bool,
        var: impl Fn(usize) -> u32,
    ) -> Result<usize, super::Conflict> {
        let (count, removed) = r.map_err(|removed| {
            self.removals += u64::from(removed);
            super::Conflict
        })?;
        self.removals += u64::from(removed);
        self.unfixed -= count;
        if queue && count > 0 {
            for j in set_bits(fixed) {
                self.note_fixed_by_pass(var(j) as usize);
            }
        }
        Ok(count)
    }

    /// Puts the variables `first + q` for the set bits `q` of `fixed` on the
    /// fixed queue, in increasing order.
    #[inline(never)]
    pub(crate) fn queue_fixed(&mut self, first: usize, mut fixed: u64) {
        while fixed != 0 {
            let q = fixed.trailing_zeros() as usize;
            fixed &= fixed - 1;
            self.note_fixed_by_pass(first + q);
        }
    }

    /// Explaining mode: appends `lit` with `cause` at the current level, for
    /// a writer that then writes the word with
    /// [`set_small_unlogged`](Self::set_small_unlogged).
    #[inline]
    pub(crate) fn log_literal(&mut self, lit: crate::literal::Literal, cause: Cause) {
        let level = self.marks.len();
        self.ex.push_as(lit, cause, level);
    }
}
