//! Finite domains: the declared [`Domain`] of a variable, and the search-time
//! domain store with its trail.
//!
//! # Representation
//! A declared [`Domain`] is either a range `lo..=hi` (two integers, whatever its
//! size) or a sorted set of values. Models share identical declared domains, so
//! ten million variables over `0..10_000_000` cost one domain, not ten million.
//!
//! During search every variable has one of two representations:
//! * **small** (the declared span `max − min + 1` is at most 64): one `u64`
//!   whose bit `i` says whether `base + i` is still in the domain. Removal is
//!   `&= !bit`, size is `count_ones`, minimum is `trailing_zeros`. Queens
//!   columns, Sudoku digits and colors all live here.
//! * **large**: the bounds `lo..=hi` and the size, plus a bitset over the
//!   declared span that is only allocated when the domain first gets a hole.
//!   The domain is `bits ∩ [lo, hi]`; bounds changes never touch the bitset.
//!
//! # Invariants
//! * a small domain's bits never go above its declared span;
//! * a large domain's `lo` and `hi` are members and `size` counts its members;
//! * no domain is ever empty: a change that would empty it returns `Conflict`
//!   and leaves it as it was;
//! * every change is recorded on the trail before it is made, at most once per
//!   variable and level for the small bits and the large bounds (a timestamp per
//!   variable tells whether the current level already saved it).
//!
//! # Complexity
//! Membership and removal are O(1); the minimum and maximum of a small domain
//! are O(1); moving a large domain's bound past a hole scans words (64 values a
//! step). Undoing a level costs one step per trail entry made at that level.

use std::fmt;
use std::sync::Arc;

use crate::ids::Value;

/// The declared domain of a variable: a finite, non-empty set of [`Value`]s.
///
/// ```
/// use csp_core::Domain;
/// let d = Domain::range(1, 9);
/// assert_eq!(d.size(), 9);
/// let s = Domain::values([5, 1, 3, 3]);
/// assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 3, 5]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Domain {
    repr: Repr,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Range(Value, Value),
    Set(Arc<[Value]>),
}

impl Domain {
    /// All values from `lo` to `hi`, both included. Empty when `lo > hi`
    /// (posting an empty domain is a [`ModelError`](crate::ModelError)).
    pub fn range(lo: Value, hi: Value) -> Domain {
        Domain {
            repr: Repr::Range(lo, hi),
        }
    }

    /// The given values (duplicates are ignored, order does not matter).
    pub fn values(values: impl IntoIterator<Item = Value>) -> Domain {
        let mut v: Vec<Value> = values.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        if let (Some(&lo), Some(&hi)) = (v.first(), v.last()) {
            if (hi as i64 - lo as i64 + 1) as usize == v.len() {
                return Domain::range(lo, hi);
            }
        }
        Domain {
            repr: Repr::Set(v.into()),
        }
    }

    /// The single value `v`.
    pub fn singleton(v: Value) -> Domain {
        Domain::range(v, v)
    }

    /// Number of values.
    pub fn size(&self) -> u64 {
        match &self.repr {
            Repr::Range(lo, hi) => {
                if lo > hi {
                    0
                } else {
                    (*hi as i64 - *lo as i64 + 1) as u64
                }
            }
            Repr::Set(v) => v.len() as u64,
        }
    }

    /// True when the domain has no value.
    pub fn is_empty(&self) -> bool {
        self.size() == 0
    }

    /// Smallest value, if any.
    pub fn min(&self) -> Option<Value> {
        match &self.repr {
            Repr::Range(lo, hi) => (lo <= hi).then_some(*lo),
            Repr::Set(v) => v.first().copied(),
        }
    }

    /// Largest value, if any.
    pub fn max(&self) -> Option<Value> {
        match &self.repr {
            Repr::Range(lo, hi) => (lo <= hi).then_some(*hi),
            Repr::Set(v) => v.last().copied(),
        }
    }

    /// True when `v` belongs to the domain.
    pub fn contains(&self, v: Value) -> bool {
        match &self.repr {
            Repr::Range(lo, hi) => *lo <= v && v <= *hi,
            Repr::Set(s) => s.binary_search(&v).is_ok(),
        }
    }

    /// The values in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        let (range, set) = match &self.repr {
            Repr::Range(lo, hi) => (Some(*lo..=*hi), None),
            Repr::Set(s) => (None, Some(s.iter().copied())),
        };
        range.into_iter().flatten().chain(set.into_iter().flatten())
    }

    /// True when the domain is a plain range (no holes).
    pub fn is_range(&self) -> bool {
        matches!(self.repr, Repr::Range(..))
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            Repr::Set(s) => f.debug_set().entries(s.iter()).finish(),
        }
    }
}

/// A domain wipe-out: some variable has no value left. It travels with `?`
/// out of propagation and makes the search backtrack; it is not an error of
/// the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;

const NOT_LARGE: u32 = u32::MAX;
const NO_WORDS: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Large {
    lo: Value,
    hi: Value,
    size: u32,
    /// Offset of the bitset in `DomainStore::words`, or `NO_WORDS`.
    words: u32,
}

#[derive(Clone, Copy, Debug)]
struct Mark {
    trail: u32,
    stamp: u64,
    unfixed: u32,
}

/// Up to this many variables, small domains are saved by copying them whole at
/// each level (a few cache lines) rather than trailed change by change.
const SNAPSHOT_MAX_VARS: usize = 256;

#[derive(Clone, Copy, Debug)]
enum Undo {
    Small { var: u32, old: u64 },
    Large { var: u32, old: Large },
    Word { at: u32, old: u64 },
}

/// The domains of all variables during search, with their trail.
#[derive(Clone, Debug)]
pub(crate) struct DomainStore {
    base: Vec<Value>,
    small: Vec<u64>,
    large_idx: Vec<u32>,
    large: Vec<Large>,
    /// Declared spans of large variables (to size a bitset when it is needed).
    large_span: Vec<u32>,
    words: Vec<u64>,
    saved: Vec<u64>,
    trail: Vec<Undo>,
    marks: Vec<Mark>,
    /// Snapshot mode: small domains are copied whole at each level instead of
    /// being trailed one by one (chosen when there are few variables).
    snapshot: bool,
    snaps: Vec<u64>,
    stamp: u64,
    next_stamp: u64,
    /// Variables that became fixed since the queue was last drained.
    pub(crate) fixed_queue: Vec<u32>,
    /// Variables whose domain changed (only recorded when `track_changes`).
    pub(crate) changed: Vec<u32>,
    in_changed: Vec<bool>,
    pub(crate) track_changes: bool,
    /// Removed (var, value) pairs, recorded for observers when `track_prunes`.
    pub(crate) prunes: Vec<(u32, Value)>,
    pub(crate) track_prunes: bool,
    /// Number of values removed, for statistics.
    pub(crate) removals: u64,
    /// Number of variables with more than one value.
    pub(crate) unfixed: usize,
    /// State words that propagators keep per level (saved at every level and
    /// restored on backtrack), e.g. a set of positions still to check: how
    /// many there are. They live in `small` after the variables' words, so a
    /// snapshot saves them with the domains in one copy.
    num_words: usize,
    /// Saved state words, one group per level (trail mode only).
    word_snaps: Vec<u64>,
}

impl DomainStore {
    /// Builds the store from declared domains (`domains[var_domain[i]]` is variable i's).
    pub(crate) fn new(domains: &[Domain], var_domain: &[u32]) -> DomainStore {
        let n = var_domain.len();
        let mut s = DomainStore {
            base: Vec::with_capacity(n),
            small: Vec::with_capacity(n),
            large_idx: Vec::with_capacity(n),
            large: Vec::new(),
            large_span: Vec::new(),
            words: Vec::new(),
            saved: vec![0; n],
            trail: Vec::with_capacity(4 * n.min(1 << 16)),
            marks: Vec::with_capacity(n.min(1 << 16) + 1),
            snapshot: n <= SNAPSHOT_MAX_VARS,
            snaps: Vec::new(),
            stamp: 1,
            next_stamp: 2,
            fixed_queue: Vec::with_capacity(n.min(1 << 16)),
            changed: Vec::with_capacity(n.min(1 << 16)),
            in_changed: vec![false; n],
            track_changes: false,
            prunes: Vec::new(),
            track_prunes: false,
            removals: 0,
            unfixed: 0,
            num_words: 0,
            word_snaps: Vec::new(),
        };
        // Precompute each distinct declared domain once.
        let mut small_bits: Vec<Option<u64>> = Vec::with_capacity(domains.len());
        for d in domains {
            let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(-1));
            let span = hi as i64 - lo as i64 + 1;
            if (1..=64).contains(&span) {
                let mut bits = 0u64;
                for v in d.iter() {
                    bits |= 1u64 << (v - lo) as u32;
                }
                small_bits.push(Some(bits));
            } else {
                small_bits.push(None);
            }
        }
        for &di in var_domain {
            let d = &domains[di as usize];
            let lo = d.min().unwrap_or(0);
            s.base.push(lo);
            match small_bits[di as usize] {
                Some(bits) => {
                    s.small.push(bits);
                    s.large_idx.push(NOT_LARGE);
                }
                None => {
                    s.small.push(0);
                    let hi = d.max().unwrap_or(lo);
                    let span = (hi as i64 - lo as i64 + 1) as u32;
                    let mut l = Large {
                        lo,
                        hi,
                        size: d.size() as u32,
                        words: NO_WORDS,
                    };
                    if !d.is_range() {
                        let at = s.words.len();
                        s.words.resize(at + (span as usize).div_ceil(64), 0);
                        for v in d.iter() {
                            let off = (v as i64 - lo as i64) as usize;
                            s.words[at + off / 64] |= 1u64 << (off % 64);
                        }
                        l.words = at as u32;
                    }
                    s.large_idx.push(s.large.len() as u32);
                    s.large.push(l);
                    s.large_span.push(span);
                }
            }
        }
        s.unfixed = (0..n).filter(|&i| s.size(i) > 1).count();
        s
    }

    /// Number of variables.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.base.len()
    }

    /// True when variable `i` has at most 64 declared values (one machine word).
    #[inline]
    pub(crate) fn is_small(&self, i: usize) -> bool {
        self.large_idx[i] == NOT_LARGE
    }

    /// The bits of a small domain and the value of bit 0.
    #[inline]
    pub(crate) fn small_bits(&self, i: usize) -> (u64, Value) {
        (self.small[i], self.base[i])
    }

    /// True when variable `i` has more than one value.
    #[inline]
    pub(crate) fn is_open(&self, i: usize) -> bool {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let b = self.small[i];
            b & b.wrapping_sub(1) != 0
        } else {
            self.large[li as usize].size > 1
        }
    }

    #[inline]
    pub(crate) fn size(&self, i: usize) -> u32 {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            self.small[i].count_ones()
        } else {
            self.large[li as usize].size
        }
    }

    #[inline]
    pub(crate) fn min(&self, i: usize) -> Value {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            self.base[i] + self.small[i].trailing_zeros() as Value
        } else {
            self.large[li as usize].lo
        }
    }

    #[inline]
    pub(crate) fn max(&self, i: usize) -> Value {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            self.base[i] + 63 - self.small[i].leading_zeros() as Value
        } else {
            self.large[li as usize].hi
        }
    }

    #[inline]
    pub(crate) fn contains(&self, i: usize, v: Value) -> bool {
        let li = self.large_idx[i];
        let off = v as i64 - self.base[i] as i64;
        if li == NOT_LARGE {
            (0..64).contains(&off) && self.small[i] >> off & 1 == 1
        } else {
            let l = &self.large[li as usize];
            if v < l.lo || v > l.hi {
                return false;
            }
            l.words == NO_WORDS || {
                let off = off as usize;
                self.words[l.words as usize + off / 64] >> (off % 64) & 1 == 1
            }
        }
    }

    /// The smallest value `> after` in the domain of `i`, if any.
    pub(crate) fn next_above(&self, i: usize, after: Value) -> Option<Value> {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let off = after as i64 - self.base[i] as i64 + 1;
            let bits = if off <= 0 {
                self.small[i]
            } else if off >= 64 {
                0
            } else {
                self.small[i] & (!0u64 << off)
            };
            (bits != 0).then(|| self.base[i] + bits.trailing_zeros() as Value)
        } else {
            let l = self.large[li as usize];
            if after >= l.hi {
                return None;
            }
            let start = after.max(l.lo - 1) + 1;
            if l.words == NO_WORDS {
                return Some(start);
            }
            self.scan_up(&l, self.base[i], start)
        }
    }

    /// The largest value `< before` in the domain of `i`, if any.
    pub(crate) fn next_below(&self, i: usize, before: Value) -> Option<Value> {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let off = before as i64 - self.base[i] as i64;
            let bits = if off <= 0 {
                0
            } else if off >= 64 {
                self.small[i]
            } else {
                self.small[i] & ((1u64 << off) - 1)
            };
            (bits != 0).then(|| self.base[i] + 63 - bits.leading_zeros() as Value)
        } else {
            let l = self.large[li as usize];
            if before <= l.lo {
                return None;
            }
            let start = before.min(l.hi + 1) - 1;
            if l.words == NO_WORDS {
                return Some(start);
            }
            self.scan_down(&l, self.base[i], start)
        }
    }

    /// First member `>= from` (and `<= hi`) in a large domain's bitset.
    fn scan_up(&self, l: &Large, base: Value, from: Value) -> Option<Value> {
        let mut off = (from as i64 - base as i64) as usize;
        let end = (l.hi as i64 - base as i64) as usize;
        let w0 = l.words as usize;
        while off <= end {
            let word = self.words[w0 + off / 64] >> (off % 64);
            if word != 0 {
                let found = off + word.trailing_zeros() as usize;
                return (found <= end).then(|| (base as i64 + found as i64) as Value);
            }
            off = (off / 64 + 1) * 64;
        }
        None
    }

    /// Last member `<= from` (and `>= lo`) in a large domain's bitset.
    fn scan_down(&self, l: &Large, base: Value, from: Value) -> Option<Value> {
        let mut off = (from as i64 - base as i64) as isize;
        let end = (l.lo as i64 - base as i64) as isize;
        let w0 = l.words as usize;
        while off >= end {
            let shift = 63 - (off % 64) as u32;
            let word = self.words[w0 + off as usize / 64] << shift;
            if word != 0 {
                let found = off - word.leading_zeros() as isize;
                return (found >= end).then(|| (base as i64 + found as i64) as Value);
            }
            off = (off / 64) * 64 - 1;
        }
        None
    }

    // ---- trail -------------------------------------------------------------

    /// The current decision level (number of pushed levels).
    #[inline]
    pub(crate) fn level(&self) -> usize {
        self.marks.len()
    }

    /// Adds a state word (see `num_words`) with the given value; returns its
    /// index for [`word`](Self::word). Only before the first level.
    pub(crate) fn add_word(&mut self, value: u64) -> usize {
        debug_assert!(self.marks.is_empty());
        self.small.push(value);
        self.num_words += 1;
        self.num_words - 1
    }

    /// The value of state word `k`.
    #[inline]
    pub(crate) fn word(&self, k: usize) -> u64 {
        self.small[self.base.len() + k]
    }

    /// State words `range` (see [`word`](Self::word)).
    #[inline]
    pub(crate) fn words(&self, range: std::ops::Range<usize>) -> &[u64] {
        let n = self.base.len();
        &self.small[n + range.start..n + range.end]
    }

    /// Sets state word `k` (restored on backtrack).
    #[inline]
    pub(crate) fn set_word(&mut self, k: usize, value: u64) {
        let n = self.base.len();
        self.small[n + k] = value;
    }

    /// Opens a new level: changes from now on are undone by `backtrack_to`.
    #[inline]
    pub(crate) fn push_level(&mut self) {
        self.marks.push(Mark {
            trail: self.trail.len() as u32,
            stamp: self.stamp,
            unfixed: self.unfixed as u32,
        });
        if self.snapshot {
            self.snaps.extend_from_slice(&self.small);
        } else if self.num_words > 0 {
            let n = self.base.len();
            self.word_snaps.extend_from_slice(&self.small[n..]);
        }
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Undoes every change made since level `level` was the current one.
    #[cfg(test)]
    pub(crate) fn backtrack_to(&mut self, level: usize) {
        if self.marks.len() <= level {
            return;
        }
        self.undo_to_mark(level);
        let mark = self.marks[level];
        self.marks.truncate(level);
        self.truncate_snapshots(level);
        self.stamp = mark.stamp;
    }

    /// Returns to the state at the opening of level `level + 1` (the state
    /// when the level was `level`) and keeps that level open: the same as
    /// `backtrack_to(level)` followed by `push_level()`, with one copy of the
    /// snapshot instead of two. Opens the level when it is not open yet.
    #[inline]
    pub(crate) fn reopen_level(&mut self, level: usize) {
        debug_assert!(self.marks.len() >= level);
        if self.marks.len() == level {
            self.push_level();
            return;
        }
        self.undo_to_mark(level);
        self.marks.truncate(level + 1);
        self.truncate_snapshots(level + 1);
        // The trail of the level is gone: a fresh stamp makes every variable
        // saved again before its next change.
        self.stamp = self.next_stamp;
        self.next_stamp += 1;
    }

    /// Closes the level opened at `level` after [`reopen_level`]
    /// (Self::reopen_level) left the state at its opening: nothing is copied.
    #[inline]
    pub(crate) fn close_reopened_level(&mut self, level: usize) {
        if self.marks.len() <= level {
            return;
        }
        debug_assert_eq!(self.marks.len(), level + 1);
        debug_assert_eq!(self.trail.len(), self.marks[level].trail as usize);
        let mark = self.marks[level];
        self.marks.truncate(level);
        self.truncate_snapshots(level);
        self.stamp = mark.stamp;
    }

    /// Undoes the trail back to `marks[level]` and copies that level's
    /// snapshots back (domains, state words, number of unfixed variables).
    #[inline]
    fn undo_to_mark(&mut self, level: usize) {
        let mark = self.marks[level];
        while self.trail.len() > mark.trail as usize {
            match self.trail.pop().expect("trail entry") {
                Undo::Small { var, old } => self.small[var as usize] = old,
                Undo::Large { var, old } => self.large[self.large_idx[var as usize] as usize] = old,
                Undo::Word { at, old } => self.words[at as usize] = old,
            }
        }
        if self.snapshot {
            let w = self.small.len();
            self.small
                .copy_from_slice(&self.snaps[level * w..(level + 1) * w]);
        } else if self.num_words > 0 {
            let (n, c) = (self.base.len(), self.num_words);
            self.small[n..].copy_from_slice(&self.word_snaps[level * c..(level + 1) * c]);
        }
        self.unfixed = mark.unfixed as usize;
    }

    /// Keeps the snapshots of the first `levels` levels.
    #[inline]
    fn truncate_snapshots(&mut self, levels: usize) {
        if self.snapshot {
            self.snaps.truncate(levels * self.small.len());
        }
        self.word_snaps.truncate(levels * self.num_words);
    }

    #[inline]
    fn save_small(&mut self, i: usize) {
        if !self.snapshot && self.saved[i] != self.stamp {
            self.saved[i] = self.stamp;
            self.trail.push(Undo::Small {
                var: i as u32,
                old: self.small[i],
            });
        }
    }

    #[inline]
    fn save_large(&mut self, i: usize, li: usize) {
        if self.saved[i] != self.stamp {
            self.saved[i] = self.stamp;
            self.trail.push(Undo::Large {
                var: i as u32,
                old: self.large[li],
            });
        }
    }

    #[inline]
    fn note_change(&mut self, i: usize, new_size: u32) {
        if new_size == 1 {
            self.unfixed -= 1;
            self.fixed_queue.push(i as u32);
        }
        if self.track_changes && !self.in_changed[i] {
            self.in_changed[i] = true;
            self.changed.push(i as u32);
        }
    }

    /// Takes the list of changed variables (clearing their flags).
    pub(crate) fn take_changed(&mut self, out: &mut Vec<u32>) {
        out.clear();
        std::mem::swap(out, &mut self.changed);
        for &v in out.iter() {
            self.in_changed[v as usize] = false;
        }
    }

    /// Forgets pending change events (after a conflict).
    pub(crate) fn clear_events(&mut self) {
        self.fixed_queue.clear();
        for &v in &self.changed {
            self.in_changed[v as usize] = false;
        }
        self.changed.clear();
        self.prunes.clear();
    }

    // ---- changes -----------------------------------------------------------

    /// Removes `v` from the domain of `i`. Returns whether it was there.
    #[inline(always)]
    pub(crate) fn remove(&mut self, i: usize, v: Value) -> Result<bool, Conflict> {
        if self.large_idx[i] == NOT_LARGE {
            let off = v as i64 - self.base[i] as i64;
            if !(0..64).contains(&off) {
                return Ok(false);
            }
            let bit = 1u64 << off;
            let bits = self.small[i];
            if bits & bit == 0 {
                return Ok(false);
            }
            self.set_small(i, bits & !bit, v)?;
            Ok(true)
        } else {
            self.remove_large(i, v)
        }
    }

    /// Replaces the bits of small variable `i` by `new` (a subset of the old bits).
    /// `removed_hint` is one removed value, used only for prune logging when a
    /// single value goes.
    #[inline(always)]
    fn set_small(&mut self, i: usize, new: u64, removed_hint: Value) -> Result<(), Conflict> {
        let old = self.small[i];
        debug_assert_eq!(new & !old, 0, "set_small must only remove values");
        if new == old {
            return Ok(());
        }
        if new == 0 {
            // A wipe-out leaves the domain as it was: domains are never empty.
            return Err(Conflict);
        }
        if self.track_prunes {
            self.log_small_prunes(i, old & !new, removed_hint);
        }
        self.removals += (old & !new).count_ones() as u64;
        self.save_small(i);
        self.small[i] = new;
        let size = new.count_ones();
        self.note_change(i, size);
        Ok(())
    }

    #[cold]
    fn log_small_prunes(&mut self, i: usize, gone: u64, removed_hint: Value) {
        if gone.count_ones() == 1 {
            self.prunes.push((i as u32, removed_hint));
        } else {
            let mut g = gone;
            while g != 0 {
                self.prunes
                    .push((i as u32, self.base[i] + g.trailing_zeros() as Value));
                g &= g - 1;
            }
        }
    }

    /// Fused forward checking for two to four all-different constraints over
    /// the same variables (one-word domains): for every position `j` listed
    /// in `peers`, removes at once the values `ids[t] − pos[j].adj[t]` for
    /// each member `t < G`. One pass, one mask per peer, instead of one pass
    /// per constraint.
    #[inline(always)]
    pub(crate) fn remove_ids_small<const G: usize>(
        &mut self,
        pos: &[FusedPos],
        peers: &[u32],
        ids: [i64; G],
    ) -> Result<(), Conflict> {
        let mut removed = 0u32;
        for &j in peers {
            let p = &pos[j as usize];
            let m = id_mask(&ids, &p.adj);
            let i = p.var as usize;
            let bits = self.small[i];
            let gone = bits & m;
            if gone == 0 {
                continue;
            }
            let new = bits & !m;
            if new == 0 {
                self.removals += u64::from(removed);
                return Err(Conflict);
            }
            if self.track_prunes {
                self.log_small_prunes(i, gone, self.base[i] + gone.trailing_zeros() as Value);
            }
            removed += gone.count_ones();
            self.save_small(i);
            self.small[i] = new;
            if new & (new - 1) == 0 {
                self.note_change(i, 1);
            } else if self.track_changes {
                self.note_change(i, 2);
            }
        }
        self.removals += u64::from(removed);
        Ok(())
    }

    /// True when a change to a small domain needs no bookkeeping beyond the
    /// new bits, the removal count and the fixed-variable queue: domains are
    /// saved by snapshots, and neither changes nor prunes are recorded.
    #[inline]
    pub(crate) fn plain_small_updates(&self) -> bool {
        self.snapshot && !self.track_changes && !self.track_prunes
    }

    /// [`remove_ids_small`](Self::remove_ids_small) for a wave of fixed
    /// positions (`ids[b][t]`: member t's id of wave member b) when
    /// [`plain_small_updates`](Self::plain_small_updates) holds: every peer's
    /// new bits are stored whether or not they changed, and a peer that
    /// becomes fixed is noted as a bit of a mask, so the loop has no
    /// data-dependent branch but the wipe-out test. The peers it fixes are
    /// set in `fixed` (a word per word of positions), their variables go to
    /// the fixed queue when `queue` is set; returns how many.
    #[inline(always)]
    pub(crate) fn remove_ids_small_plain<const G: usize>(
        &mut self,
        pos: &[FusedPos],
        active: std::ops::Range<usize>,
        ids: Ids<'_, G>,
        fixed: &mut [u64],
        queue: bool,
    ) -> Result<usize, Conflict> {
        debug_assert!(self.plain_small_updates());
        let n = self.base.len();
        let (small, words) = self.small.split_at_mut(n);
        let active = &words[active];
        let r = match ids {
            Ids::One(id) => plain_pass(small, active, fixed, move |p| {
                let p = &pos[p];
                (p.var as usize, id_mask(&id, &p.adj))
            }),
            Ids::Many(ids) => plain_pass(small, active, fixed, |p| {
                let p = &pos[p];
                let m = ids.iter().fold(0, |m, b| m | id_mask(&b[..G], &p.adj));
                (p.var as usize, m)
            }),
        };
        self.account_pass(r, fixed, queue, |j| pos[j].var)
    }

    /// The bookkeeping after a pass `r` (peers fixed, values removed):
    /// counters, and the variables (`var(position)`) of the peers it fixed
    /// queued when `queue` is set.
    #[inline(always)]
    fn account_pass(
        &mut self,
        r: Result<(usize, u32), u32>,
        fixed: &[u64],
        queue: bool,
        var: impl Fn(usize) -> u32,
    ) -> Result<usize, Conflict> {
        let (count, removed) = r.map_err(|removed| {
            self.removals += u64::from(removed);
            Conflict
        })?;
        self.removals += u64::from(removed);
        self.unfixed -= count;
        if queue && count > 0 {
            self.fixed_queue.extend(set_bits(fixed).map(var));
        }
        Ok(count)
    }

    /// Removes the ids of one fixed position from the active peers of a
    /// [`DenseGroup`] (position `p` is variable `dense.first + p`), computing
    /// eight positions at a time; the peers it fixes are added to `fixed`
    /// (and to the fixed queue when `queue` is set).
    #[inline(always)]
    pub(crate) fn remove_ids_small_dense<const G: usize>(
        &mut self,
        dense: &DenseGroup,
        active: std::ops::Range<usize>,
        ids: Ids<'_, G>,
        fixed: &mut [u64],
        queue: bool,
    ) -> Result<usize, Conflict> {
        debug_assert!(self.plain_small_updates());
        let n = self.base.len();
        let (small, words) = self.small.split_at_mut(n);
        let active = &words[active];
        let r = dense_pass(small, dense, active, fixed, ids);
        self.account_pass(r, fixed, queue, |j| dense.first + j as u32)
    }

    /// All-different propagation on one-word domains whose ids (`value +
    /// offset`, bit `b` of variable `vars[j]` standing for id `adj[j] + b`) all
    /// fit one 64-bit window: naked singles, hidden singles (when every
    /// available id is needed) and the pigeonhole test, to a fixpoint, with a
    /// few word operations per variable and pass. `window` is the lowest id
    /// when the caller knows that all ids fit the 64 from there. `None` when
    /// the ids do not fit one window; otherwise whether a domain changed.
    pub(crate) fn alldiff_window(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        window: Option<i64>,
    ) -> Result<Option<bool>, Conflict> {
        let k = vars.len();
        if k == 0 {
            return Ok(Some(false));
        }
        if k > 64 {
            return Ok(None);
        }
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        if let Some(w) = window {
            lo = w;
        } else {
            for (&v, &a) in vars.iter().zip(adj) {
                let bits = self.small[v as usize];
                lo = lo.min(a + bits.trailing_zeros() as i64);
                hi = hi.max(a + 63 - bits.leading_zeros() as i64);
            }
            if hi - lo >= 64 {
                return Ok(None);
            }
        }
        #[inline(always)]
        fn to_ids(bits: u64, by: i64) -> u64 {
            if by >= 0 {
                bits << by
            } else {
                bits >> -by
            }
        }
        // Work on a local copy of the id masks (no indirect loads per pass),
        // and write back only the variables that changed, once each.
        let mut masks = [0u64; 64];
        for (m, (&v, &a)) in masks.iter_mut().zip(vars.iter().zip(adj)) {
            *m = to_ids(self.small[v as usize], a - lo);
        }
        let masks = &mut masks[..k];
        let mut changed_any = false;
        loop {
            let (mut fixed, mut multi, mut once, mut twice) = (0u64, 0u64, 0u64, 0u64);
            for &m in masks.iter() {
                if m & (m - 1) == 0 {
                    if fixed & m != 0 {
                        return Err(Conflict);
                    }
                    fixed |= m;
                } else {
                    multi |= m;
                }
                twice |= once & m;
                once |= m;
            }
            let avail = once.count_ones() as usize;
            if avail < k {
                return Err(Conflict);
            }
            let hidden = if avail == k {
                once & !twice & !fixed
            } else {
                0
            };
            // Nothing to do unless an open variable holds a fixed id or a
            // hidden single (hidden ids are never in fixed variables).
            if multi & fixed == 0 && hidden == 0 {
                break;
            }
            let mut changed = false;
            for m in masks.iter_mut() {
                let old = *m;
                if old & (old - 1) == 0 {
                    continue;
                }
                let mut new = old & !fixed;
                let h = new & hidden;
                if h != 0 {
                    if h & (h - 1) != 0 {
                        return Err(Conflict);
                    }
                    new = h;
                }
                if new != old {
                    if new == 0 {
                        return Err(Conflict);
                    }
                    *m = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            changed_any = true;
        }
        if changed_any {
            for (&m, (&v, &a)) in masks.iter().zip(vars.iter().zip(adj)) {
                let i = v as usize;
                let bits = self.small[i];
                let nb = to_ids(m, lo - a);
                if nb != bits {
                    self.set_small(i, nb, self.base[i] + (bits & !nb).trailing_zeros() as Value)?;
                }
            }
        }
        Ok(Some(changed_any))
    }

    /// All-different forward checking on one-word domains: for every position
    /// `j ≠ skip`, removes the bit `id − adj[j]` from variable `vars[j]`, where
    /// `adj[j] = offset_j + declared_min_j`. All the variables must be small.
    /// This is the hot loop of N-queens-like models.
    #[inline]
    pub(crate) fn remove_id_small(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        skip: usize,
        id: i64,
    ) -> Result<(), Conflict> {
        assert_eq!(vars.len(), adj.len());
        let small_len = self.base.len();
        for (j, (&v, &a)) in vars.iter().zip(adj).enumerate() {
            let i = v as usize;
            let off = id - a;
            if (off as u64) >= 64 || j == skip {
                continue;
            }
            debug_assert!(self.is_small(i));
            // The model only creates constraints over its own variables.
            assert!(i < small_len);
            let bits = self.small[i];
            let bit = 1u64 << off;
            if bits & bit == 0 {
                continue;
            }
            let new = bits & !bit;
            if new == 0 {
                return Err(Conflict);
            }
            self.clear_small_bit(i, new, bit);
        }
        Ok(())
    }

    #[inline(always)]
    fn clear_small_bit(&mut self, i: usize, new: u64, bit: u64) {
        if self.track_prunes {
            self.log_small_prunes(i, bit, self.base[i] + bit.trailing_zeros() as Value);
        }
        self.removals += 1;
        self.save_small(i);
        self.small[i] = new;
        if new & (new - 1) == 0 {
            self.note_change(i, 1);
        } else if self.track_changes {
            self.note_change(i, 2);
        }
    }

    /// Keeps only the values whose bit is set in `mask` (small variables only;
    /// bit k stands for `base + k`).
    #[inline]
    pub(crate) fn retain_small_mask(&mut self, i: usize, mask: u64) -> Result<bool, Conflict> {
        debug_assert!(self.is_small(i));
        let old = self.small[i];
        let new = old & mask;
        if new == old {
            return Ok(false);
        }
        self.set_small(
            i,
            new,
            self.base[i] + (old & !new).trailing_zeros() as Value,
        )?;
        Ok(true)
    }

    fn materialize(&mut self, i: usize, li: usize) {
        let span = self.large_span[li] as usize;
        let at = self.words.len();
        // Every declared value is present in the bitset; the bounds do the rest.
        self.words.resize(at + span.div_ceil(64), !0u64);
        if !span.is_multiple_of(64) {
            let last = self.words.len() - 1;
            self.words[last] = (1u64 << (span % 64)) - 1;
        }
        self.large[li].words = at as u32;
        let _ = i;
    }

    #[inline(never)]
    fn remove_large(&mut self, i: usize, v: Value) -> Result<bool, Conflict> {
        let li = self.large_idx[i] as usize;
        let l = self.large[li];
        if v < l.lo || v > l.hi || !self.contains(i, v) {
            return Ok(false);
        }
        if l.size == 1 {
            // Never empty a domain in place: report the wipe-out.
            self.removals += 1;
            if self.track_prunes {
                self.prunes.push((i as u32, v));
            }
            return Err(Conflict);
        }
        self.save_large(i, li);
        self.removals += 1;
        if self.track_prunes {
            self.prunes.push((i as u32, v));
        }
        let base = self.base[i];
        if v == l.lo {
            let lo = if l.words == NO_WORDS {
                v + 1
            } else {
                self.scan_up(&l, base, v + 1).expect("size > 1")
            };
            self.large[li].lo = lo;
        } else if v == l.hi {
            let hi = if l.words == NO_WORDS {
                v - 1
            } else {
                self.scan_down(&l, base, v - 1).expect("size > 1")
            };
            self.large[li].hi = hi;
        } else {
            if l.words == NO_WORDS {
                self.materialize(i, li);
            }
            let off = (v as i64 - base as i64) as usize;
            let at = self.large[li].words as usize + off / 64;
            self.trail.push(Undo::Word {
                at: at as u32,
                old: self.words[at],
            });
            self.words[at] &= !(1u64 << (off % 64));
        }
        self.large[li].size -= 1;
        let size = self.large[li].size;
        self.note_change(i, size);
        Ok(true)
    }

    /// [`fix`](Self::fix) for a small variable when
    /// [`plain_small_updates`](Self::plain_small_updates) holds and the
    /// caller forward-checks `i` itself: the variable does not go to the
    /// fixed queue.
    #[inline]
    pub(crate) fn fix_small_unqueued(&mut self, i: usize, v: Value) -> Result<(), Conflict> {
        debug_assert!(self.plain_small_updates() && self.is_small(i));
        let off = v as i64 - self.base[i] as i64;
        let bits = self.small[i];
        if !(0..64).contains(&off) || bits >> off & 1 == 0 {
            return Err(Conflict);
        }
        let new = 1u64 << off;
        if bits != new {
            self.removals += u64::from(bits.count_ones() - 1);
            self.small[i] = new;
            self.unfixed -= 1;
        }
        Ok(())
    }

    /// Reduces the domain of `i` to `{v}`; a conflict when `v` is not in it.
    #[inline]
    pub(crate) fn fix(&mut self, i: usize, v: Value) -> Result<(), Conflict> {
        if self.large_idx[i] == NOT_LARGE {
            let off = v as i64 - self.base[i] as i64;
            let bits = self.small[i];
            if !(0..64).contains(&off) || bits >> off & 1 == 0 {
                return Err(Conflict);
            }
            self.set_small(i, 1u64 << off, v)
        } else {
            if !self.contains(i, v) {
                return Err(Conflict);
            }
            let li = self.large_idx[i] as usize;
            let l = self.large[li];
            if l.size == 1 {
                return Ok(());
            }
            self.save_large(i, li);
            if self.track_prunes {
                let mut x = self.next_above(i, l.lo - 1);
                while let Some(w) = x {
                    if w != v {
                        self.prunes.push((i as u32, w));
                    }
                    x = self.next_above(i, w);
                }
            }
            self.removals += (l.size - 1) as u64;
            self.large[li].lo = v;
            self.large[li].hi = v;
            self.large[li].size = 1;
            self.note_change(i, 1);
            Ok(())
        }
    }

    /// Removes every value `< v`. Returns whether anything changed.
    pub(crate) fn set_min(&mut self, i: usize, v: Value) -> Result<bool, Conflict> {
        if v <= self.min(i) {
            return Ok(false);
        }
        if v > self.max(i) {
            return Err(Conflict);
        }
        if self.large_idx[i] == NOT_LARGE {
            let off = (v - self.base[i]) as u32;
            self.retain_small_mask(i, !0u64 << off)
        } else {
            self.set_large_bounds(i, v, Value::MAX)
        }
    }

    /// Removes every value `> v`. Returns whether anything changed.
    pub(crate) fn set_max(&mut self, i: usize, v: Value) -> Result<bool, Conflict> {
        if v >= self.max(i) {
            return Ok(false);
        }
        if v < self.min(i) {
            return Err(Conflict);
        }
        if self.large_idx[i] == NOT_LARGE {
            let off = (v - self.base[i]) as u32;
            let mask = if off >= 63 {
                !0u64
            } else {
                (1u64 << (off + 1)) - 1
            };
            self.retain_small_mask(i, mask)
        } else {
            self.set_large_bounds(i, Value::MIN, v)
        }
    }

    fn set_large_bounds(&mut self, i: usize, lo: Value, hi: Value) -> Result<bool, Conflict> {
        let li = self.large_idx[i] as usize;
        let l = self.large[li];
        let new_lo = if lo > l.lo {
            match self.next_above(i, lo - 1) {
                Some(x) => x,
                None => return Err(Conflict),
            }
        } else {
            l.lo
        };
        let new_hi = if hi < l.hi {
            match self.next_below(i, hi + 1) {
                Some(x) => x,
                None => return Err(Conflict),
            }
        } else {
            l.hi
        };
        if new_lo > new_hi {
            return Err(Conflict);
        }
        if new_lo == l.lo && new_hi == l.hi {
            return Ok(false);
        }
        if self.track_prunes {
            let mut x = Some(l.lo);
            while let Some(w) = x.filter(|&w| w < new_lo) {
                self.prunes.push((i as u32, w));
                x = self.next_above(i, w);
            }
            let mut x = Some(l.hi);
            while let Some(w) = x.filter(|&w| w > new_hi) {
                self.prunes.push((i as u32, w));
                x = self.next_below(i, w);
            }
        }
        let size = self.count_range(&l, self.base[i], new_lo, new_hi);
        self.save_large(i, li);
        self.removals += (l.size - size) as u64;
        let e = &mut self.large[li];
        e.lo = new_lo;
        e.hi = new_hi;
        e.size = size;
        self.note_change(i, size);
        Ok(true)
    }

    /// Number of members of a large domain's bitset within `[a, b]`.
    fn count_range(&self, l: &Large, base: Value, a: Value, b: Value) -> u32 {
        if l.words == NO_WORDS {
            return (b as i64 - a as i64 + 1) as u32;
        }
        let (a, b) = (
            (a as i64 - base as i64) as usize,
            (b as i64 - base as i64) as usize,
        );
        let w0 = l.words as usize;
        let (wa, wb) = (a / 64, b / 64);
        let lo_mask = !0u64 << (a % 64);
        let hi_mask = if b % 64 == 63 {
            !0u64
        } else {
            (1u64 << (b % 64 + 1)) - 1
        };
        if wa == wb {
            return (self.words[w0 + wa] & lo_mask & hi_mask).count_ones();
        }
        let mut n = (self.words[w0 + wa] & lo_mask).count_ones()
            + (self.words[w0 + wb] & hi_mask).count_ones();
        for w in &self.words[w0 + wa + 1..w0 + wb] {
            n += w.count_ones();
        }
        n
    }

    /// Values of the domain of `i`, ascending, into `out` (cleared first).
    pub(crate) fn values_into(&self, i: usize, out: &mut Vec<Value>) {
        out.clear();
        if self.is_small(i) {
            let (mut bits, base) = self.small_bits(i);
            while bits != 0 {
                out.push(base + bits.trailing_zeros() as Value);
                bits &= bits - 1;
            }
        } else {
            let mut x = Some(self.min(i));
            while let Some(v) = x {
                out.push(v);
                x = self.next_above(i, v);
            }
        }
    }
}

/// One position of a fused all-different group (see the search engine): its
/// variable and, for each member `t`, the member's offset there plus the
/// variable's declared minimum (0 for unused members), so bit `b` of the
/// variable's word stands for id `adj[t] + b`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FusedPos {
    pub(crate) adj: [i64; 4],
    pub(crate) var: u32,
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

/// The bits a fixed position's ids (`ids[t]` for member t) take out of the
/// word of a peer with offsets `adj`: bit `ids[t] − adj[t]` for each member.
#[inline(always)]
fn id_mask(ids: &[i64], adj: &[i64; 4]) -> u64 {
    ids.iter()
        .zip(adj)
        .fold(0, |m, (id, adj)| m | bit_at(id - adj))
}

/// The ids a pass of [`DomainStore::remove_ids_small_plain`] removes: those
/// of one fixed position (`ids[t]` for member t), or of several (the first
/// `G` entries of each).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ids<'a, const G: usize> {
    One([i64; G]),
    Many(&'a [[i64; 4]]),
}

/// `1 << off` when `off` is a bit of a word, 0 otherwise.
#[inline(always)]
fn bit_at(off: i64) -> u64 {
    let off = off as u64;
    // Shift first, then select: a conditional move, no branch.
    let b = 1u64 << (off & 63);
    if off < 64 {
        b
    } else {
        0
    }
}

/// One pass of [`DomainStore::remove_ids_small_plain`]: for each peer `p`
/// (the set bits of `active`), `peer(p)` gives its word's index in `small`
/// and the bits to remove from it; sets in `fixed` (a word per word of
/// `active`) the peers it leaves with one value, and returns (how many,
/// values removed); `Err(values removed)` on a wipe-out.
#[inline(always)]
fn plain_pass(
    small: &mut [u64],
    active: &[u64],
    fixed: &mut [u64],
    peer: impl Fn(usize) -> (usize, u64),
) -> Result<(usize, u32), u32> {
    let mut removed = 0u32;
    let mut count = 0;
    for ((wi, &word), out) in active.iter().enumerate().zip(fixed.iter_mut()) {
        let mut a = word;
        let mut newly = 0u64;
        while a != 0 {
            let b = a.trailing_zeros();
            a &= a - 1;
            let (i, m) = peer(wi * 64 + b as usize);
            let bits = small[i];
            let new = bits & !m;
            if new == 0 {
                return Err(removed);
            }
            small[i] = new;
            let gone = bits ^ new;
            removed += gone.count_ones();
            // Newly fixed: something went and one value is left.
            let single = (gone != 0) & (new & (new - 1) == 0);
            newly |= u64::from(single) << b;
        }
        *out = newly;
        count += newly.count_ones() as usize;
    }
    Ok((count, removed))
}

/// A fused group whose position `p` is variable `first + p`, with its
/// offsets laid out by chunks of eight positions (`chunks[c][t][l]`: member
/// t's `adj` at position `8c + l`; past the last position, an offset that
/// puts every id outside the word).
#[derive(Clone, Debug)]
pub(crate) struct DenseGroup {
    pub(crate) first: u32,
    pub(crate) len: usize,
    pub(crate) chunks: Vec<[[i64; 8]; 4]>,
}

impl DenseGroup {
    /// The layout of `pos`, when its variables are consecutive.
    pub(crate) fn new(pos: &[FusedPos]) -> Option<DenseGroup> {
        let first = pos.first()?.var;
        if pos
            .iter()
            .enumerate()
            .any(|(p, fp)| fp.var as usize != first as usize + p)
        {
            return None;
        }
        let mut chunks = vec![[[i64::MIN / 2; 8]; 4]; pos.len().div_ceil(8)];
        for (p, fp) in pos.iter().enumerate() {
            for (member, &adj) in chunks[p / 8].iter_mut().zip(&fp.adj) {
                member[p % 8] = adj;
            }
        }
        Some(DenseGroup {
            first,
            len: pos.len(),
            chunks,
        })
    }
}

/// The pass of [`DomainStore::remove_ids_small_dense`], eight positions per
/// vector: (peers fixed, values removed), `Err(values removed)` on a wipe-out.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vpopcntdq"
))]
#[inline(always)]
fn dense_pass<const G: usize>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    use std::arch::x86_64::*;
    let first = dense.first as usize;
    // The masked loads and stores below touch only lanes of active
    // positions below `len`, all within `small[first..first + len]`.
    assert!(first + dense.len <= small.len());
    let words = small[first..].as_mut_ptr();
    // SAFETY: the build enables avx512f and avx512vpopcntdq (this function
    // is compiled only then); every memory access is in bounds (above).
    unsafe {
        let one = _mm512_set1_epi64(1);
        let mut gone_bits = _mm512_setzero_si512();
        let mut count = 0;
        let (idv, many): ([__m512i; G], &[[i64; 4]]) = match ids {
            Ids::One(id) => (std::array::from_fn(|t| _mm512_set1_epi64(id[t])), &[]),
            Ids::Many(b) => ([_mm512_setzero_si512(); G], b),
        };
        for (wi, (&word, out)) in active.iter().zip(fixed.iter_mut()).enumerate() {
            let mut newly_word = 0u64;
            let chunks = dense.chunks.iter().enumerate().skip(wi * 8).take(8);
            for (c, ch) in chunks {
                let lanes = (dense.len - c * 8).min(8);
                let act = (word >> (c % 8 * 8)) as __mmask8 & ((1u16 << lanes) - 1) as u8;
                if act == 0 {
                    continue;
                }
                let at = words.add(c * 8);
                let old = _mm512_maskz_loadu_epi64(act, at.cast());
                // The removed ids' bits in each peer's word: bit `id − adj`
                // of every member; a shift outside 0..64 (an id outside the
                // peer's window) gives 0.
                let mut m = _mm512_setzero_si512();
                for t in 0..G {
                    let adj = _mm512_loadu_epi64(ch[t].as_ptr());
                    if many.is_empty() {
                        let sh = _mm512_sub_epi64(idv[t], adj);
                        m = _mm512_or_si512(m, _mm512_sllv_epi64(one, sh));
                    } else {
                        for b in many {
                            let sh = _mm512_sub_epi64(_mm512_set1_epi64(b[t]), adj);
                            m = _mm512_or_si512(m, _mm512_sllv_epi64(one, sh));
                        }
                    }
                }
                let new = _mm512_andnot_si512(m, old);
                let gone = _mm512_xor_si512(old, new);
                gone_bits = _mm512_add_epi64(gone_bits, _mm512_popcnt_epi64(gone));
                // An active peer left with no value: a wipe-out.
                if _mm512_mask_testn_epi64_mask(act, new, new) != 0 {
                    return Err(_mm512_reduce_add_epi64(gone_bits) as u32);
                }
                _mm512_mask_storeu_epi64(at.cast(), act, new);
                // Newly fixed: something went and `new & (new − 1)` is 0.
                let newly = _mm512_test_epi64_mask(gone, gone)
                    & _mm512_testn_epi64_mask(new, _mm512_sub_epi64(new, one));
                newly_word |= u64::from(newly) << (c % 8 * 8);
            }
            *out = newly_word;
            count += newly_word.count_ones() as usize;
        }
        Ok((count, _mm512_reduce_add_epi64(gone_bits) as u32))
    }
}

// Where AVX-512 is not enabled, the pass goes one position at a time.
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vpopcntdq"
)))]
use self::dense_pass_portable as dense_pass;

/// The pass of [`DomainStore::remove_ids_small_dense`] one active position
/// at a time, as [`plain_pass`] does (the vector pass is tested against it).
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512vpopcntdq",
        not(test)
    ),
    allow(dead_code)
)]
#[inline(always)]
fn dense_pass_portable<const G: usize>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    let first = dense.first as usize;
    let small = &mut small[..first + dense.len];
    plain_pass(small, active, fixed, |p| {
        let ch = &dense.chunks[p / 8];
        let adj = |t: usize| ch[t][p % 8];
        let m = match ids {
            Ids::One(id) => (0..G).fold(0, |m, t| m | bit_at(id[t] - adj(t))),
            Ids::Many(b) => b
                .iter()
                .fold(0, |m, id| (0..G).fold(m, |m, t| m | bit_at(id[t] - adj(t)))),
        };
        (first + p, m)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(d: Domain) -> DomainStore {
        DomainStore::new(&[d], &[0])
    }

    fn vals(s: &DomainStore) -> Vec<Value> {
        let mut v = Vec::new();
        s.values_into(0, &mut v);
        v
    }

    #[test]
    fn small_remove_and_backtrack_restores() {
        let mut s = store(Domain::range(1, 9));
        s.push_level();
        assert_eq!(s.remove(0, 5), Ok(true));
        assert_eq!(s.remove(0, 5), Ok(false));
        assert_eq!(s.size(0), 8);
        s.push_level();
        s.fix(0, 9).unwrap();
        assert_eq!((s.min(0), s.max(0)), (9, 9));
        s.backtrack_to(1);
        assert_eq!(vals(&s), vec![1, 2, 3, 4, 6, 7, 8, 9]);
        s.backtrack_to(0);
        assert_eq!(s.size(0), 9);
    }

    #[test]
    fn large_domain_lazy_bitset() {
        let mut s = store(Domain::range(0, 999));
        assert!(!s.is_small(0));
        s.push_level();
        s.remove(0, 0).unwrap();
        assert_eq!(s.min(0), 1);
        assert!(s.words.is_empty(), "bounds change must not allocate");
        s.remove(0, 500).unwrap();
        assert!(!s.contains(0, 500));
        assert_eq!(s.size(0), 998);
        s.set_min(0, 499).unwrap();
        assert_eq!(s.min(0), 499);
        s.set_min(0, 500).unwrap();
        assert_eq!(s.min(0), 501);
        s.set_max(0, 502).unwrap();
        assert_eq!(vals(&s), vec![501, 502]);
        assert_eq!(s.remove(0, 501), Ok(true));
        assert_eq!(s.remove(0, 502), Err(Conflict));
        s.backtrack_to(0);
        assert_eq!(s.size(0), 1000);
        assert!(s.contains(0, 500));
        assert_eq!((s.min(0), s.max(0)), (0, 999));
    }

    #[test]
    fn set_domain_with_holes() {
        let mut s = store(Domain::values([-100, 0, 7, 200]));
        assert_eq!(vals(&s), vec![-100, 0, 7, 200]);
        assert_eq!(s.next_above(0, 0), Some(7));
        assert_eq!(s.next_below(0, 0), Some(-100));
        s.push_level();
        s.set_max(0, 100).unwrap();
        assert_eq!(vals(&s), vec![-100, 0, 7]);
        s.backtrack_to(0);
        assert_eq!(s.size(0), 4);
    }

    #[test]
    fn stamps_save_again_in_sibling_levels() {
        let mut s = store(Domain::range(0, 5));
        s.push_level();
        s.remove(0, 1).unwrap();
        s.backtrack_to(0);
        s.push_level();
        s.remove(0, 2).unwrap();
        s.backtrack_to(0);
        assert_eq!(s.size(0), 6);
    }

    /// `reopen_level` must behave as `backtrack_to` then `push_level`, in
    /// both snapshot mode (few variables) and trail mode (many), for small
    /// and large domains and for state words.
    #[test]
    fn reopen_level_matches_backtrack_and_push() {
        for n in [2, SNAPSHOT_MAX_VARS + 1] {
            let doms = [Domain::range(0, 9), Domain::range(0, 999)];
            let var_dom: Vec<u32> = (0..n as u32).map(|i| i % 2).collect();
            let mut s = DomainStore::new(&doms, &var_dom);
            let w = s.add_word(0b1111);
            s.push_level();
            s.remove(0, 3).unwrap();
            let before: Vec<usize> = (0..n).map(|i| s.size(i) as usize).collect();
            for value in [4, 5, 6] {
                s.reopen_level(1);
                assert_eq!(s.level(), 2);
                assert_eq!((s.size(0), s.word(w)), (9, 0b1111), "n = {n}");
                s.fix(0, value).unwrap();
                s.remove(1, 500).unwrap();
                s.set_word(w, 0b0101);
                s.push_level();
                s.remove(1, 501).unwrap();
            }
            s.reopen_level(1);
            s.close_reopened_level(1);
            assert_eq!(s.level(), 1);
            let after: Vec<usize> = (0..n).map(|i| s.size(i) as usize).collect();
            assert_eq!(before, after);
            assert!(s.contains(1, 500) && !s.contains(0, 3));
            s.backtrack_to(0);
            assert_eq!((s.size(0), s.size(1), s.word(w)), (10, 1000, 0b1111));
        }
    }

    /// The vector pass of a dense fused group against the portable one, on
    /// random groups, domains, active sets and fixed ids.
    #[test]
    fn dense_pass_matches_portable_pass() {
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut next = move |m: u64| {
            rng = crate::search::splitmix(rng);
            rng % m
        };
        let (mut fixing, mut wiped) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + next(70) as usize;
            let first = next(3) as usize;
            let width = 1 + next(12);
            let pos: Vec<FusedPos> = (0..len)
                .map(|p| FusedPos {
                    adj: std::array::from_fn(|_| next(9) as i64 - 4 + p as i64 % 3),
                    var: (first + p) as u32,
                })
                .collect();
            let dense = DenseGroup::new(&pos).expect("consecutive");
            let small: Vec<u64> = (0..first + len + next(3) as usize)
                .map(|_| (next(1 << width) | 1 << next(width)) & ((1 << width) - 1) | 1)
                .collect();
            let active: Vec<u64> = (0..len.div_ceil(64))
                .map(|w| {
                    let bits = (len - w * 64).min(64);
                    let all = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
                    (next(u64::MAX) ^ next(u64::MAX) << 20) & all
                })
                .collect();
            let ids: Vec<[i64; 4]> = (0..1 + next(3))
                .map(|_| std::array::from_fn(|_| next(16) as i64 - 3))
                .collect();
            let one: [i64; 3] = std::array::from_fn(|t| ids[0][t]);
            for many in [false, true] {
                let id = if many { Ids::Many(&ids) } else { Ids::One(one) };
                let (mut s1, mut s2) = (small.clone(), small.clone());
                let (mut f1, mut f2) = (vec![0; active.len()], vec![0; active.len()]);
                let r1 = dense_pass::<3>(&mut s1, &dense, &active, &mut f1, id);
                let r2 = dense_pass_portable::<3>(&mut s2, &dense, &active, &mut f2, id);
                match (r1, r2) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b);
                        assert_eq!((s1, f1), (s2, f2));
                        fixing += usize::from(a.0 > 0);
                    }
                    // After a wipe-out the words are restored by the search,
                    // and the vector pass counts whole chunks.
                    (Err(_), Err(_)) => wiped += 1,
                    (a, b) => panic!("vector {a:?}, portable {b:?}"),
                }
            }
        }
        assert!(
            fixing > 1000 && wiped > 1000,
            "{fixing} passes fixed peers, {wiped} wiped out"
        );
    }
}
