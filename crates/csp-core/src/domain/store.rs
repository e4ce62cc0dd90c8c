//! The domain store: every variable's current domain during search, the
//! propagators' reversible state words, the trail that restores both on
//! backtrack, and the events that tell propagators what changed.
//!
//! # Representation
//! One array of 64-bit words, `words`: first one word per variable, then the
//! state words propagators allocate ([`DomainStore::add_word`]).
//! * A **small** variable (declared span `max − min + 1` at most 64) is its
//!   word: bit `k` says whether `base + k` is still in the domain. Removal is
//!   `&= !bit`, size is `count_ones`, minimum is `trailing_zeros`. Queens
//!   columns, Sudoku digits and colors all live here.
//! * A **large** variable has a record ([`Large`], in `large`) with its
//!   bounds and size, and one of three representations of its holes
//!   (see [`super::large`]): a bitset over the declared span when the span is
//!   at most [`BITSET_MAX_SPAN`]; a bitset over the positions of a declared
//!   list of values (a [`Domain::values`] set spread over more than 64);
//!   or, for wider ranges, a sorted list of the values removed so far. Memory
//!   is proportional to what a domain holds or to the holes made, never to
//!   the span of a wide range, and it is allocated when the store is built.
//!
//! # Undo: one trail, with level marks
//! (The code: `levels.rs`.) A level is opened by [`push_level`](DomainStore::push_level) and undone by
//! [`backtrack_to`](DomainStore::backtrack_to) (MiniSat's `trail` /
//! `trail_lim` / `cancelUntil`). Before a word, a large record or a bitset
//! word is changed for the first time in a level, its old value goes on the
//! trail (a per-word timestamp tells whether this level saved it already);
//! backtracking pops the trail back to the level's mark.
//!
//! When the word array is short (at most [`SNAPSHOT_MAX_WORDS`] words: a
//! board of up to about 250 variables with its state), the level saves the
//! whole array at its opening instead (a few cache lines), and changes to
//! words need no timestamp test and no trail entry. Measured on 14-queens
//! counting with the generic engine (3.4 million nodes): 0.30 s with the
//! copy, 0.37 s when every word change is trailed, because the fused
//! all-different pass then needs a test per peer it touches. Large records
//! and bitsets are always trailed.
//!
//! # Events
//! A change to variable `i` is a *domain* event; it is also a *bounds* event
//! when the minimum or maximum moved, and a *fixed* event when one value is
//! left. The store records an event only when some propagator subscribed to
//! that kind on that variable (`interest`): the variable goes on the `events`
//! list once, its kinds are or-ed into `pending`, and for small domains the
//! word before the first change is kept, so a propagator can ask which values
//! went. The propagation loop drains the list.
//!
//! # Invariants
//! * no domain is ever empty: a change that would empty it returns
//!   [`Conflict`] and leaves it as it was;
//! * a small word never has bits above its declared span;
//! * a large record's `lo` and `hi` are members and `size` counts members;
//! * `unfixed` is the number of variables with more than one value.
//!
//! # Complexity
//! Small domains: every operation O(1). Large domains: membership O(1) for
//! bitsets, O(log n) for declared lists and hole lists; moving a bound past
//! holes scans 64 values a step (bitsets) or the holes in the way. Undoing a
//! level costs one step per trail entry (plus one array copy in snapshot mode).

use std::sync::Arc;

use super::large::{Kind, Large, Repr};
use super::levels::Mark;
use super::{Conflict, Domain};
use crate::ids::Value;

/// Declared spans up to this many values get a bitset over the span; wider
/// ranges keep a list of holes.
pub(crate) const BITSET_MAX_SPAN: u64 = 1 << 16;

/// Word arrays up to this long are saved whole at each level (see the module
/// documentation).
pub(crate) const SNAPSHOT_MAX_WORDS: usize = 320;

pub(crate) const NOT_LARGE: u32 = u32::MAX;

/// Event kinds, as bits (see [`crate::propagation::Events`]).
pub(crate) const EV_FIXED: u8 = 1;
pub(crate) const EV_BOUNDS: u8 = 2;
pub(crate) const EV_DOMAIN: u8 = 4;

#[derive(Clone, Copy, Debug)]
pub(super) enum Undo {
    /// A word of `words` (a small domain or a state word).
    Word { at: u32, old: u64 },
    /// A large domain's record.
    Large { li: u32, old: Large },
    /// A word of a large domain's bitset.
    Bits { at: u32, old: u64 },
    /// A value added to a large domain's hole list.
    Hole { li: u32, value: Value },
}

/// The domains of all variables during search, with their trail.
#[derive(Clone, Debug)]
pub(crate) struct DomainStore {
    pub(super) num_vars: usize,
    /// Small domains by variable, then state words.
    pub(super) words: Vec<u64>,
    /// Per variable: the value of bit 0 (small) or the declared minimum.
    pub(super) base: Vec<Value>,
    /// Per variable: its record in `large`, or `NOT_LARGE`.
    pub(super) large_idx: Vec<u32>,
    pub(super) large: Vec<Large>,
    /// Per large record: its representation (fixed at construction).
    pub(super) kinds: Vec<Kind>,
    /// Bitsets of large domains.
    pub(super) bits: Vec<u64>,
    /// Declared value lists of large list domains.
    pub(super) lists: Vec<Arc<[Value]>>,
    /// Hole lists of wide range domains (sorted).
    pub(super) holes: Vec<Vec<Value>>,
    /// Number of values in all hole lists (for the memory count).
    pub(super) hole_values: usize,
    /// Per word, then per large record: the stamp of the level that saved it.
    pub(super) saved: Vec<u64>,
    pub(super) saved_large: Vec<u64>,
    pub(super) trail: Vec<Undo>,
    pub(super) marks: Vec<Mark>,
    /// Snapshot mode (decided when the first level opens).
    pub(super) snapshot: bool,
    pub(super) snaps: Vec<u64>,
    /// The least length of `words` asked for (see `pad_words`).
    min_words: usize,
    pub(super) stamp: u64,
    pub(super) next_stamp: u64,
    /// Per variable: what it has to do with events (one record, so that
    /// recording and taking an event touch one place).
    ev: Vec<EventSlot>,
    /// The propagator whose `propagate` is running, or `u32::MAX`.
    source: u32,
    /// Variables with pending events.
    pub(crate) events: Vec<u32>,
    /// Removed (var, value) pairs, recorded for observers when `track_prunes`.
    pub(crate) prunes: Vec<(u32, Value)>,
    pub(crate) track_prunes: bool,
    /// Explaining mode: every change goes on `ex` with its cause.
    pub(crate) explaining: bool,
    /// The explanation trail (see `explained.rs`; empty when not explaining).
    pub(crate) ex: super::explained::ExplainTrail,
    /// Number of values removed, for statistics.
    pub(crate) removals: u64,
    /// Number of variables with more than one value.
    pub(crate) unfixed: usize,
    /// The vector unit the word-level primitives may use.
    pub(crate) simd: super::words::Simd,
}

/// A variable's event record: the kinds some propagator subscribed to, the
/// kinds pending (0: not on the store's `events` list) and, while some are,
/// its word before the first change and the propagator whose `propagate`
/// made them all (`u32::MAX`: a decision, a notify, or several).
#[derive(Clone, Copy, Debug)]
struct EventSlot {
    old: u64,
    src: u32,
    interest: u8,
    pending: u8,
}

impl Default for EventSlot {
    fn default() -> Self {
        EventSlot {
            old: 0,
            src: u32::MAX,
            interest: 0,
            pending: 0,
        }
    }
}

impl DomainStore {
    /// Builds the store from declared domains (`domains[var_domain[i]]` is
    /// variable i's). Fails, naming the size, when the large domains'
    /// bitsets would not fit in memory.
    pub(crate) fn new(domains: &[Domain], var_domain: &[u32]) -> DomainStore {
        let n = var_domain.len();
        let mut s = DomainStore {
            num_vars: n,
            words: Vec::with_capacity(n),
            base: Vec::with_capacity(n),
            large_idx: Vec::with_capacity(n),
            large: Vec::new(),
            kinds: Vec::new(),
            bits: Vec::new(),
            lists: Vec::new(),
            holes: Vec::new(),
            hole_values: 0,
            saved: Vec::new(),
            saved_large: Vec::new(),
            trail: Vec::with_capacity(4 * n.min(1 << 16)),
            marks: Vec::with_capacity(n.min(1 << 16) + 1),
            snapshot: false,
            snaps: Vec::new(),
            min_words: 0,
            stamp: 1,
            next_stamp: 2,
            ev: vec![EventSlot::default(); n],
            source: u32::MAX,
            events: Vec::with_capacity(n.min(1 << 16)),
            prunes: Vec::new(),
            track_prunes: false,
            explaining: false,
            ex: Default::default(),
            removals: 0,
            unfixed: 0,
            simd: super::words::Simd::Portable,
        };
        // Each distinct declared domain is analysed once; variables that share
        // a domain share its list.
        let plans: Vec<Plan> = domains.iter().map(Plan::of).collect();
        for &di in var_domain {
            let d = &domains[di as usize];
            match &plans[di as usize] {
                Plan::Small { base, bits } => {
                    s.base.push(*base);
                    s.words.push(*bits);
                    s.large_idx.push(NOT_LARGE);
                }
                plan => {
                    s.base.push(d.min().unwrap_or(0));
                    s.words.push(0);
                    s.large_idx.push(s.large.len() as u32);
                    let (l, kind) = s.new_large(d, plan);
                    s.large.push(l);
                    s.kinds.push(kind);
                }
            }
        }
        s.saved = vec![0; s.words.len()];
        s.saved_large = vec![0; s.large.len()];
        s.unfixed = (0..n).filter(|&i| s.is_open(i)).count();
        s
    }

    /// Number of variables.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.num_vars
    }

    /// True when variable `i` has at most 64 declared values (one machine word).
    #[inline]
    pub(crate) fn is_small(&self, i: usize) -> bool {
        self.large_idx[i] == NOT_LARGE
    }

    /// The first variable with more than one value among `from..n` and
    /// then `0..from` (`n` variables), if any.
    #[inline]
    pub(crate) fn first_open_from(&self, from: usize) -> Option<usize> {
        let n = self.num_vars;
        if self.large.is_empty() {
            // Only one-word domains: test the words, not the kinds.
            let words = &self.words[..n];
            let open = |&i: &usize| {
                let b = words[i];
                b & b.wrapping_sub(1) != 0
            };
            (from..n).find(open).or_else(|| (0..from).find(open))
        } else {
            (from..n)
                .find(|&i| self.is_open(i))
                .or_else(|| (0..from).find(|&i| self.is_open(i)))
        }
    }

    /// The open variable with the fewest values, the first such in input
    /// order (`None` when every variable is fixed). With only one-word
    /// domains, the words are scanned without a branch per variable, with
    /// the `popcnt` instruction where the CPU has it.
    pub(crate) fn smallest_open(&self) -> Option<usize> {
        if !self.large.is_empty() {
            // A size of 2 cannot be beaten: stop at the first.
            let mut best: Option<(usize, u64)> = None;
            for i in 0..self.num_vars {
                let size = self.size(i);
                if size > 1 && best.is_none_or(|(_, b)| size < b) {
                    best = Some((i, size));
                    if size == 2 {
                        break;
                    }
                }
            }
            return best.map(|(i, _)| i);
        }
        let words = &self.words[..self.num_vars];
        #[cfg(target_arch = "x86_64")]
        if self.simd != super::words::Simd::Portable {
            // SAFETY: any level but `Portable` implies popcnt (`Simd::detect`).
            return unsafe { smallest_open_popcnt(words) };
        }
        smallest_open_words(words)
    }

    /// The bits of a small domain and the value of bit 0.
    #[inline]
    pub(crate) fn small_bits(&self, i: usize) -> (u64, Value) {
        (self.words[i], self.base[i])
    }

    /// ORs into `out` the values of `i` in `base..base + 64·out.len()`,
    /// value `base + k` as bit `k % 64` of word `k / 64`.
    #[inline]
    pub(crate) fn bits_into(&self, i: usize, base: Value, out: &mut [u64]) {
        let li = self.large_idx[i];
        if li != NOT_LARGE {
            return self.large_bits_into(li as usize, base, out);
        }
        // The word shifted into place: bit 0 of `words[i]` is `off` bits
        // into `out`; bits outside `out` drop off either end.
        let bits = self.words[i];
        let off = self.base[i] as i64 - base as i64;
        if bits == 0 || off >= 64 * out.len() as i64 || off <= -64 {
            return;
        }
        if off < 0 {
            out[0] |= bits >> -off;
            return;
        }
        let (w, s) = ((off / 64) as usize, (off % 64) as u32);
        out[w] |= bits << s;
        if s > 0 && w + 1 < out.len() {
            out[w + 1] |= bits >> (64 - s);
        }
    }

    /// True when variable `i` has more than one value.
    #[inline]
    pub(crate) fn is_open(&self, i: usize) -> bool {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let b = self.words[i];
            b & b.wrapping_sub(1) != 0
        } else {
            self.large[li as usize].size > 1
        }
    }

    /// Number of values of `i` (up to 2^32, the whole `i32` range).
    #[inline]
    pub(crate) fn size(&self, i: usize) -> u64 {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            u64::from(self.words[i].count_ones())
        } else {
            self.large[li as usize].size
        }
    }

    #[inline]
    pub(crate) fn min(&self, i: usize) -> Value {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            self.base[i] + self.words[i].trailing_zeros() as Value
        } else {
            self.large[li as usize].lo
        }
    }

    #[inline]
    pub(crate) fn max(&self, i: usize) -> Value {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            self.base[i] + (63 - self.words[i].leading_zeros()) as Value
        } else {
            self.large[li as usize].hi
        }
    }

    #[inline]
    pub(crate) fn contains(&self, i: usize, v: Value) -> bool {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let off = v as i64 - self.base[i] as i64;
            (0..64).contains(&off) && self.words[i] >> off & 1 == 1
        } else {
            self.large_contains(li as usize, v)
        }
    }

    /// The smallest value `> after` in the domain of `i`, if any.
    pub(crate) fn next_above(&self, i: usize, after: Value) -> Option<Value> {
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let off = after as i64 - self.base[i] as i64 + 1;
            let bits = if off <= 0 {
                self.words[i]
            } else if off >= 64 {
                0
            } else {
                self.words[i] & (!0u64 << off)
            };
            (bits != 0).then(|| self.base[i] + bits.trailing_zeros() as Value)
        } else {
            let from = after.checked_add(1)?;
            self.large_next_at_or_above(li as usize, from)
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
                self.words[i]
            } else {
                self.words[i] & ((1u64 << off) - 1)
            };
            (bits != 0).then(|| self.base[i] + (63 - bits.leading_zeros()) as Value)
        } else {
            let from = before.checked_sub(1)?;
            self.large_next_at_or_below(li as usize, from)
        }
    }

    /// Values of the domain of `i`, ascending, into `out` (cleared first).
    pub(crate) fn values_into(&self, i: usize, out: &mut Vec<Value>) {
        out.clear();
        let li = self.large_idx[i];
        if li == NOT_LARGE {
            let (mut bits, base) = (self.words[i], self.base[i]);
            while bits != 0 {
                out.push(base + bits.trailing_zeros() as Value);
                bits &= bits - 1;
            }
        } else {
            self.large_values_into(li as usize, out);
        }
    }

    // ---- levels and the trail ---------------------------------------------

    /// The bytes the store holds: its fixed arrays, the trail, the
    /// snapshots, the level marks and the hole lists. A growable array more
    /// than half full counts at twice its length, its size after the next
    /// doubling, so that a budget check sees the growth before it happens.
    /// O(1).
    pub(crate) fn memory_bytes(&self) -> u64 {
        fn held<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        fn growing<T>(v: &Vec<T>) -> u64 {
            (v.capacity().max(2 * v.len()) * std::mem::size_of::<T>()) as u64
        }
        let fixed = held(&self.words)
            + held(&self.base)
            + held(&self.large_idx)
            + held(&self.large)
            + held(&self.kinds)
            + held(&self.bits)
            + held(&self.saved)
            + held(&self.saved_large)
            + held(&self.ev)
            + held(&self.events);
        // A hole list's values, with room for its own doubling.
        let holes = 2 * std::mem::size_of::<Value>() as u64 * self.hole_values as u64;
        fixed + growing(&self.trail) + growing(&self.snaps) + growing(&self.marks) + holes
    }

    /// The current decision level (number of pushed levels).
    #[inline]
    pub(crate) fn level(&self) -> usize {
        self.marks.len()
    }

    /// Adds a state word with the given value; returns its index for
    /// [`word`](Self::word). Only before the first level.
    pub(crate) fn add_word(&mut self, value: u64) -> usize {
        debug_assert!(self.marks.is_empty());
        self.words.push(value);
        self.saved.push(0);
        self.words.len() - self.num_vars - 1
    }

    /// Asks for a word array of at least `len` words (so that a vector pass
    /// may read and rewrite whole blocks of four words past a group's last
    /// variable): [`finish_setup`](Self::finish_setup) adds zero words after
    /// every state word up to that length. Only before the first level.
    pub(crate) fn pad_words(&mut self, len: usize) {
        self.min_words = self.min_words.max(len);
    }

    /// Number of state words so far.
    pub(crate) fn len_state(&self) -> usize {
        self.words.len() - self.num_vars
    }

    /// Decides how levels save the word array, once every state word is
    /// allocated (see the module documentation).
    pub(crate) fn finish_setup(&mut self) {
        debug_assert!(self.marks.is_empty());
        while self.words.len() < self.min_words {
            self.add_word(0);
        }
        self.snapshot = self.words.len() <= SNAPSHOT_MAX_WORDS;
    }

    /// The value of state word `k`.
    #[inline]
    pub(crate) fn word(&self, k: usize) -> u64 {
        self.words[self.num_vars + k]
    }

    /// State words `range` (see [`word`](Self::word)).
    #[inline]
    pub(crate) fn state_words(&self, range: std::ops::Range<usize>) -> &[u64] {
        let n = self.num_vars;
        &self.words[n + range.start..n + range.end]
    }

    /// Sets state word `k` (restored on backtrack).
    #[inline]
    pub(crate) fn set_word(&mut self, k: usize, value: u64) {
        let at = self.num_vars + k;
        self.save_word(at);
        self.words[at] = value;
    }

    /// True when small words change without bookkeeping beyond the new bits,
    /// the removal count and the events: saved by snapshots, and no prunes
    /// recorded.
    #[inline]
    pub(crate) fn plain_small_updates(&self) -> bool {
        self.snapshot && !self.track_prunes
    }

    /// Turns explaining mode on (before the first level): from now on every
    /// change is recorded on the explanation trail (see `explained.rs`).
    pub(crate) fn start_explaining(&mut self) {
        debug_assert!(self.marks.is_empty());
        self.explaining = true;
        self.ex = super::explained::ExplainTrail::new(self.num_vars);
    }

    /// Records the change of variable `i` (its word was `old` if small) on
    /// the explanation trail: the writer's literal when it named one for
    /// `i`, else each value removed.
    #[cold]
    #[inline(never)]
    fn log_change(&mut self, i: usize, old: u64) {
        use crate::literal::Literal;
        let level = self.marks.len();
        let x = crate::ids::VarId(i as u32);
        if let Some(l) = self.ex.lit.filter(|l| l.var().index() == i) {
            self.ex.push(l, level);
            return;
        }
        debug_assert!(self.is_small(i), "a large domain changed without a literal");
        if !self.is_small(i) {
            // Cannot happen (every large write names its literal); the
            // domain's bounds are still true.
            let (lo, hi) = (self.min(i), self.max(i));
            self.ex.push(Literal::Ge(x, lo), level);
            self.ex.push(Literal::Le(x, hi), level);
            return;
        }
        // A word write without a literal: each value it removed, which is
        // exactly what its reason implies (a derived `x = v` or `x ≥ v`
        // would also rest on the values removed before).
        let (new, base) = (self.words[i], self.base[i]);
        let mut gone = old & !new;
        while gone != 0 {
            let v = base + gone.trailing_zeros() as Value;
            self.ex.push(Literal::Ne(x, v), level);
            gone &= gone - 1;
        }
    }

    /// Explaining mode: records that a write with the current cause would
    /// have emptied variable `i` (a write made without the [`Pruner`],
    /// which records its own failures).
    ///
    /// [`Pruner`]: crate::propagation::Pruner
    #[cold]
    pub(crate) fn note_failed_write(&mut self, i: usize, cause: super::explained::Cause) {
        use super::explained::{Cause, Failure};
        let prop = match cause {
            Cause::Propagated { prop, .. } => prop,
            _ => u32::MAX,
        };
        self.ex.failure = Some(Failure {
            prop,
            var: Some(crate::ids::VarId(i as u32)),
            cause,
        });
    }

    /// Explaining mode: records that the values `gone` (bits of small
    /// variable `i`'s word) are about to be removed because of `cause`,
    /// by a write that makes no entries itself (a pass over words).
    #[inline]
    pub(crate) fn log_removed(&mut self, i: usize, gone: u64, cause: super::explained::Cause) {
        let level = self.marks.len();
        self.ex.push_removed(i, self.base[i], gone, cause, level);
    }

    /// [`log_removed`](Self::log_removed) for a `gone` of at most `K` bits
    /// (see [`push_removed_few`](super::explained::ExplainTrail::push_removed_few)).
    #[inline(always)]
    pub(crate) fn log_removed_few<const K: usize>(
        &mut self,
        i: usize,
        gone: u64,
        cause: super::explained::Cause,
    ) {
        let level = self.marks.len();
        self.ex
            .push_removed_few::<K>(i, self.base[i], gone, cause, level);
    }

    // ---- events ------------------------------------------------------------

    /// Declares that some propagator wants events of `kinds` on variable `i`.
    pub(crate) fn subscribe(&mut self, i: usize, kinds: u8) {
        self.ev[i].interest |= kinds;
    }

    /// Records a change of variable `i` whose word was `old` (small domains;
    /// 0 for large ones) and whose new size is `size`.
    #[inline(always)]
    pub(super) fn note_change(&mut self, i: usize, old: u64, kinds: u8) {
        if kinds & EV_FIXED != 0 {
            self.unfixed -= 1;
        }
        if self.explaining {
            self.log_change(i, old);
        }
        self.record_event(i, kinds, old, self.source);
    }

    /// [`set_small`](Self::set_small) for a writer that has logged the
    /// change on the explanation trail itself.
    #[inline(always)]
    pub(crate) fn set_small_unlogged(&mut self, i: usize, new: u64) {
        let old = self.words[i];
        debug_assert!(new & !old == 0 && new != 0 && new != old);
        self.write_small(i, old, new);
        let kinds = small_kinds(old, new);
        if kinds & EV_FIXED != 0 {
            self.unfixed -= 1;
        }
        self.record_event(i, kinds, old, self.source);
    }

    /// Adds `kinds` (those someone subscribed to) to `i`'s pending events:
    /// the first pending event puts `i` on the list and keeps its word
    /// before the change (`old`) and its source; a second source makes the
    /// source unknown.
    #[inline(always)]
    fn record_event(&mut self, i: usize, kinds: u8, old: u64, source: u32) {
        let e = &mut self.ev[i];
        let k = kinds & e.interest;
        if k != 0 {
            if e.pending == 0 {
                e.old = old;
                e.src = source;
                self.events.push(i as u32);
            } else if e.src != source {
                e.src = u32::MAX;
            }
            e.pending |= k;
        }
    }

    /// Does variable `i` have pending events?
    #[inline]
    pub(crate) fn has_pending(&self, i: usize) -> bool {
        self.ev[i].pending != 0
    }

    /// Sets the propagator whose `propagate` runs now (`u32::MAX`: none).
    #[inline]
    pub(crate) fn set_source(&mut self, p: u32) {
        self.source = p;
    }

    /// Records the fixed event of a variable a fused pass fixed (the pass
    /// counts it in `unfixed` itself). Its removed values are not known:
    /// the word before the change reads as the fixed word.
    #[inline]
    pub(crate) fn note_fixed_by_pass(&mut self, i: usize) {
        self.record_event(i, EV_FIXED | EV_BOUNDS | EV_DOMAIN, self.words[i], u32::MAX);
    }

    /// Takes the next variable with pending events: (variable, kinds, its
    /// word before the first of them, the propagator whose `propagate` made
    /// them all or `u32::MAX` when not one alone).
    #[inline]
    pub(crate) fn pop_event(&mut self) -> Option<(u32, u8, u64, u32)> {
        let x = self.events.pop()?;
        let e = &mut self.ev[x as usize];
        Some((x, std::mem::take(&mut e.pending), e.old, e.src))
    }

    /// Records a fixed event for every fixed variable (the root: declared
    /// singletons have no change to report them).
    pub(crate) fn note_root_fixed(&mut self) {
        for i in 0..self.num_vars {
            if !self.is_open(i) && self.ev[i].interest & EV_FIXED != 0 {
                self.record_event(i, EV_FIXED | EV_BOUNDS | EV_DOMAIN, self.words[i], u32::MAX);
            }
        }
    }

    /// Forgets pending events (after a conflict).
    pub(crate) fn clear_events(&mut self) {
        for &x in &self.events {
            self.ev[x as usize].pending = 0;
        }
        self.events.clear();
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
            let bits = self.words[i];
            if bits & bit == 0 {
                return Ok(false);
            }
            self.set_small(i, bits & !bit)?;
            Ok(true)
        } else {
            // Most removals a fixed value makes in its peers fall outside
            // their bounds: answered here, without the call.
            let l = &self.large[self.large_idx[i] as usize];
            if v < l.lo || v > l.hi {
                return Ok(false);
            }
            self.remove_large(i, v)
        }
    }

    /// Replaces the bits of small variable `i` by `new` (a subset of the old
    /// bits), recording the events.
    #[inline(always)]
    pub(crate) fn set_small(&mut self, i: usize, new: u64) -> Result<(), Conflict> {
        let old = self.words[i];
        debug_assert_eq!(new & !old, 0, "set_small must only remove values");
        if new == old {
            return Ok(());
        }
        if new == 0 {
            // A wipe-out leaves the domain as it was: domains are never empty.
            return Err(Conflict);
        }
        self.write_small(i, old, new);
        self.note_change(i, old, small_kinds(old, new));
        Ok(())
    }

    /// Writes small variable `i`'s word `old → new` (fewer values, not
    /// none) with its bookkeeping but the events and the trail entries.
    #[inline(always)]
    fn write_small(&mut self, i: usize, old: u64, new: u64) {
        let gone = old & !new;
        if self.track_prunes {
            self.log_small_prunes(i, gone);
        }
        self.removals += u64::from(gone.count_ones());
        self.save_word(i);
        self.words[i] = new;
    }

    #[cold]
    pub(super) fn log_small_prunes(&mut self, i: usize, gone: u64) {
        let mut g = gone;
        while g != 0 {
            self.prunes
                .push((i as u32, self.base[i] + g.trailing_zeros() as Value));
            g &= g - 1;
        }
    }

    /// Keeps only the values whose bit is set in `mask` (small variables only;
    /// bit k stands for `base + k`). Returns whether anything went.
    #[inline]
    pub(crate) fn retain_small_mask(&mut self, i: usize, mask: u64) -> Result<bool, Conflict> {
        debug_assert!(self.is_small(i));
        let old = self.words[i];
        let new = old & mask;
        if new == old {
            return Ok(false);
        }
        self.set_small(i, new)?;
        Ok(true)
    }

    /// Fixes small variable `i` to `v` without recording its events: the
    /// caller delivers them itself (a decision whose variable has a single
    /// subscriber). Only in [`plain_small_updates`](Self::plain_small_updates).
    #[inline]
    pub(crate) fn fix_small_quietly(&mut self, i: usize, v: Value) -> Result<(), Conflict> {
        debug_assert!(self.plain_small_updates() && self.is_small(i));
        let off = v as i64 - self.base[i] as i64;
        let bits = self.words[i];
        if !(0..64).contains(&off) || bits >> off & 1 == 0 {
            if self.explaining {
                self.note_failed_write(i, super::explained::Cause::Decision);
            }
            return Err(Conflict);
        }
        let new = 1u64 << off;
        if bits != new {
            self.removals += u64::from(bits.count_ones() - 1);
            self.words[i] = new;
            self.unfixed -= 1;
            if self.explaining {
                let lit = crate::literal::Literal::Eq(crate::ids::VarId(i as u32), v);
                let level = self.marks.len();
                self.ex
                    .push_as(lit, super::explained::Cause::Decision, level);
            }
        }
        Ok(())
    }

    /// Reduces the domain of `i` to `{v}`; a conflict when `v` is not in it.
    #[inline]
    pub(crate) fn fix(&mut self, i: usize, v: Value) -> Result<(), Conflict> {
        if self.large_idx[i] == NOT_LARGE {
            let off = v as i64 - self.base[i] as i64;
            let bits = self.words[i];
            if !(0..64).contains(&off) || bits >> off & 1 == 0 {
                return Err(Conflict);
            }
            self.set_small(i, 1u64 << off)
        } else {
            self.fix_large(i, v)
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
            let off = (v as i64 - self.base[i] as i64) as u32;
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
            let off = (v as i64 - self.base[i] as i64) as u32;
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
}

/// The event kinds of a small domain's change from `old` to `new` (a
/// non-empty proper subset).
#[inline(always)]
pub(super) fn small_kinds(old: u64, new: u64) -> u8 {
    let gone = old ^ new;
    let ends = (old & old.wrapping_neg()) | (1u64 << (63 - old.leading_zeros()));
    let fixed = u8::from(new & (new - 1) == 0);
    let bounds = u8::from(gone & ends != 0);
    EV_DOMAIN | bounds << 1 | fixed
}

/// How a declared domain is represented in the store.
#[derive(Debug)]
pub(super) enum Plan {
    /// One word: `bits` over `base..base + 64`.
    Small { base: Value, bits: u64 },
    /// A large domain of the given representation.
    Large(Repr),
}

impl Plan {
    fn of(d: &Domain) -> Plan {
        let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
        let span = (hi as i64 - lo as i64 + 1) as u64;
        if span <= 64 {
            let mut bits = 0u64;
            for v in d.iter() {
                bits |= 1u64 << (v as i64 - lo as i64);
            }
            return Plan::Small { base: lo, bits };
        }
        Plan::Large(Repr::for_domain(d, span))
    }
}

/// [`DomainStore::smallest_open`] over one-word domains: the key of a
/// variable is its size above its index (`u64::MAX` when fixed), and the
/// least key wins, so ties go to the first variable. (The scan it
/// replaced, a test and an early exit per variable, mispredicted often
/// enough that MRV on N-queens cost more time than the nodes it saved.)
#[inline(always)]
fn smallest_open_words(words: &[u64]) -> Option<usize> {
    // Eight words without a branch, then one test: a size of 2 cannot be
    // beaten, so a long scan stops at the first block that has one.
    const BLOCK: usize = 8;
    let mut best = u64::MAX;
    for (bi, block) in words.chunks(BLOCK).enumerate() {
        for (j, &b) in block.iter().enumerate() {
            let size = u64::from(b.count_ones());
            let i = (bi * BLOCK + j) as u64;
            let key = if size > 1 { (size << 32) | i } else { u64::MAX };
            best = best.min(key);
        }
        if best >> 32 == 2 {
            break;
        }
    }
    (best != u64::MAX).then_some((best & 0xffff_ffff) as usize)
}

/// [`smallest_open_words`] compiled with `popcnt`.
///
/// # Safety
/// The CPU must support popcnt.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn smallest_open_popcnt(words: &[u64]) -> Option<usize> {
    smallest_open_words(words)
}
