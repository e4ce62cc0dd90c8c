//! Large domains (declared span over 64 values): a record with the bounds
//! and the size, and one of three representations of what lies between the
//! bounds. The domain is always "members of the representation ∩ [lo, hi]":
//! moving a bound never touches the representation.
//!
//! | representation | for | member test | memory |
//! |---|---|---|---|
//! | `Span`: a bitset over the declared span | spans up to [`BITSET_MAX_SPAN`] | O(1) | span / 8 bytes |
//! | `List`: a bitset over the positions of the declared values | [`Domain::values`] sets spread over a wider span | O(log n) | n / 8 bytes and the shared list |
//! | `Holes`: a sorted list of removed values | wider ranges, up to the whole `i32` range | O(log h) | 4 bytes per hole made |
//!
//! All arithmetic on values is done in `i64`, so domains holding `i32::MIN`
//! and `i32::MAX` need no special case.

use std::sync::Arc;

use super::store::{DomainStore, Undo, BITSET_MAX_SPAN, EV_BOUNDS, EV_DOMAIN, EV_FIXED};
use super::{Conflict, Domain};
use crate::ids::Value;

/// The search-time record of a large domain: what the trail saves (16
/// bytes; the representation, which never changes, is in `kinds`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Large {
    pub(crate) lo: Value,
    pub(crate) hi: Value,
    pub(crate) size: u64,
}

/// Where a large domain's members are recorded.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// Bit `v − base` of `bits[at..]` says whether `v` is a member.
    Span { base: Value, at: usize },
    /// Bit `k` of `bits[at..]` says whether `lists[list][k]` is a member.
    List { list: usize, at: usize },
    /// `holes[h]` lists removed values (sorted); every other value of
    /// `[lo, hi]` is a member.
    Holes { h: usize },
}

/// How a declared large domain is represented (decided once per domain).
#[derive(Debug)]
pub(crate) enum Repr {
    Span,
    List(Arc<[Value]>),
    Holes,
}

impl Repr {
    pub(super) fn for_domain(d: &Domain, span: u64) -> Repr {
        match d.as_list() {
            None if span <= BITSET_MAX_SPAN => Repr::Span,
            None => Repr::Holes,
            // A dense enough set is cheaper as a bitset over its span.
            Some(_) if span <= BITSET_MAX_SPAN && span <= 64 * d.size() => Repr::Span,
            Some(list) => Repr::List(list.clone()),
        }
    }
}

impl DomainStore {
    /// The record of a large variable with declared domain `d`, allocating
    /// its representation.
    pub(super) fn new_large(&mut self, d: &Domain, plan: &super::store::Plan) -> (Large, Kind) {
        let (lo, hi) = (d.min().unwrap_or(0), d.max().unwrap_or(0));
        let size = d.size();
        let super::store::Plan::Large(repr) = plan else {
            unreachable!("new_large is only called for large plans")
        };
        let kind = match repr {
            Repr::Span => {
                let at = self.bits.len();
                let span = (hi as i64 - lo as i64 + 1) as usize;
                if d.is_range() {
                    self.bits.resize(at + span.div_ceil(64), !0);
                    if !span.is_multiple_of(64) {
                        *self.bits.last_mut().expect("a word") = (1u64 << (span % 64)) - 1;
                    }
                } else {
                    self.bits.resize(at + span.div_ceil(64), 0);
                    for v in d.iter() {
                        let off = (v as i64 - lo as i64) as usize;
                        self.bits[at + off / 64] |= 1 << (off % 64);
                    }
                }
                Kind::Span { base: lo, at }
            }
            Repr::List(list) => {
                let at = self.bits.len();
                let n = list.len();
                self.bits.resize(at + n.div_ceil(64), !0);
                if !n.is_multiple_of(64) {
                    *self.bits.last_mut().expect("a word") = (1u64 << (n % 64)) - 1;
                }
                self.lists.push(list.clone());
                Kind::List {
                    list: self.lists.len() - 1,
                    at,
                }
            }
            Repr::Holes => {
                self.holes.push(Vec::new());
                Kind::Holes {
                    h: self.holes.len() - 1,
                }
            }
        };
        (Large { lo, hi, size }, kind)
    }

    /// Is `v` in large domain `li`?
    pub(super) fn large_contains(&self, li: usize, v: Value) -> bool {
        let l = &self.large[li];
        if v < l.lo || v > l.hi {
            return false;
        }
        match self.kinds[li] {
            Kind::Span { base, at } => {
                let off = (v as i64 - base as i64) as usize;
                self.bits[at + off / 64] >> (off % 64) & 1 == 1
            }
            Kind::List { list, at } => match self.lists[list].binary_search(&v) {
                Ok(k) => self.bits[at + k / 64] >> (k % 64) & 1 == 1,
                Err(_) => false,
            },
            Kind::Holes { h } => self.holes[h].binary_search(&v).is_err(),
        }
    }

    /// The smallest member `>= from` of large domain `li`.
    pub(super) fn large_next_at_or_above(&self, li: usize, from: Value) -> Option<Value> {
        let l = &self.large[li];
        if from > l.hi {
            return None;
        }
        let from = from.max(l.lo);
        match self.kinds[li] {
            Kind::Span { base, at } => {
                let off = (from as i64 - base as i64) as usize;
                let end = (l.hi as i64 - base as i64) as usize;
                scan_up(&self.bits[at..], off, end).map(|k| (base as i64 + k as i64) as Value)
            }
            Kind::List { list, at } => {
                let vals = &self.lists[list];
                let start = vals.partition_point(|&x| x < from);
                let end = vals.partition_point(|&x| x <= l.hi);
                if start >= end {
                    return None;
                }
                scan_up(&self.bits[at..], start, end - 1).map(|k| vals[k])
            }
            Kind::Holes { h } => {
                // `hi` is a member, so the walk stops by `hi` at the latest.
                let holes = &self.holes[h];
                let mut p = holes.partition_point(|&x| x < from);
                let mut v = from;
                while p < holes.len() && holes[p] == v {
                    v += 1;
                    p += 1;
                }
                Some(v)
            }
        }
    }

    /// The largest member `<= from` of large domain `li`.
    pub(super) fn large_next_at_or_below(&self, li: usize, from: Value) -> Option<Value> {
        let l = &self.large[li];
        if from < l.lo {
            return None;
        }
        let from = from.min(l.hi);
        match self.kinds[li] {
            Kind::Span { base, at } => {
                let off = (from as i64 - base as i64) as usize;
                let end = (l.lo as i64 - base as i64) as usize;
                scan_down(&self.bits[at..], off, end).map(|k| (base as i64 + k as i64) as Value)
            }
            Kind::List { list, at } => {
                let vals = &self.lists[list];
                let start = vals.partition_point(|&x| x <= from);
                let end = vals.partition_point(|&x| x < l.lo);
                if start == 0 || start <= end {
                    return None;
                }
                scan_down(&self.bits[at..], start - 1, end).map(|k| vals[k])
            }
            Kind::Holes { h } => {
                let holes = &self.holes[h];
                let mut p = holes.partition_point(|&x| x <= from);
                let mut v = from;
                while p > 0 && holes[p - 1] == v {
                    v -= 1;
                    p -= 1;
                }
                Some(v)
            }
        }
    }

    /// The members of large domain `li`, ascending, appended to `out`.
    pub(super) fn large_values_into(&self, li: usize, out: &mut Vec<Value>) {
        let l = self.large[li];
        match self.kinds[li] {
            Kind::Span { base, at } => {
                let a = (l.lo as i64 - base as i64) as usize;
                let b = (l.hi as i64 - base as i64) as usize;
                for_each_bit(&self.bits[at..], a, b, |k| {
                    out.push((base as i64 + k as i64) as Value)
                });
            }
            Kind::List { list, at } => {
                let vals = &self.lists[list];
                let a = vals.partition_point(|&x| x < l.lo);
                let b = vals.partition_point(|&x| x <= l.hi);
                if a < b {
                    for_each_bit(&self.bits[at..], a, b - 1, |k| out.push(vals[k]));
                }
            }
            Kind::Holes { h } => {
                let holes = &self.holes[h];
                let mut p = holes.partition_point(|&x| x < l.lo);
                let mut v = l.lo as i64;
                while v <= l.hi as i64 {
                    if p < holes.len() && holes[p] as i64 == v {
                        p += 1;
                    } else {
                        out.push(v as Value);
                    }
                    v += 1;
                }
            }
        }
    }

    /// ORs into `out` the members of large domain `li` in
    /// `base..base + 64·out.len()`, value `base + k` as bit `k % 64` of word
    /// `k / 64`: whole words copied when the domain is a bitset over its span
    /// starting at `base`, else member by member.
    pub(super) fn large_bits_into(&self, li: usize, base: Value, out: &mut [u64]) {
        let l = self.large[li];
        let end = base as i64 + 64 * out.len() as i64 - 1;
        let (a, b) = ((l.lo as i64).max(base as i64), (l.hi as i64).min(end));
        if a > b {
            return;
        }
        if let Kind::Span { base: b0, at } = self.kinds[li] {
            // Span positions `a − b0 ..= b − b0` are read 64 at a time.
            let (pa, pb) = (a - b0 as i64, b - b0 as i64);
            let shift = base as i64 - b0 as i64;
            let words = &self.bits[at..];
            for (w, o) in out.iter_mut().enumerate() {
                *o |= span_window(words, 64 * w as i64 + shift, pa, pb);
            }
            return;
        }
        let mut x = self.large_next_at_or_above(li, a as Value);
        while let Some(v) = x.filter(|&v| v as i64 <= b) {
            let k = (v as i64 - base as i64) as usize;
            out[k / 64] |= 1u64 << (k % 64);
            x = v
                .checked_add(1)
                .and_then(|n| self.large_next_at_or_above(li, n));
        }
    }

    /// Number of members of large domain `li`'s representation in `[a, b]`
    /// (within the current bounds).
    fn large_count(&self, li: usize, a: Value, b: Value) -> u64 {
        if a > b {
            return 0;
        }
        match self.kinds[li] {
            Kind::Span { base, at } => {
                let a = (a as i64 - base as i64) as usize;
                let b = (b as i64 - base as i64) as usize;
                count_bits(&self.bits[at..], a, b)
            }
            Kind::List { list, at } => {
                let vals = &self.lists[list];
                let s = vals.partition_point(|&x| x < a);
                let e = vals.partition_point(|&x| x <= b);
                if s >= e {
                    0
                } else {
                    count_bits(&self.bits[at..], s, e - 1)
                }
            }
            Kind::Holes { h } => {
                let holes = &self.holes[h];
                let s = holes.partition_point(|&x| x < a);
                let e = holes.partition_point(|&x| x <= b);
                (b as i64 - a as i64 + 1) as u64 - (e - s) as u64
            }
        }
    }

    /// Removes `v` from large variable `i`.
    #[inline(never)]
    pub(super) fn remove_large(&mut self, i: usize, v: Value) -> Result<bool, Conflict> {
        let li = self.large_idx[i] as usize;
        if !self.large_contains(li, v) {
            return Ok(false);
        }
        let l = self.large[li];
        if l.size == 1 {
            // Never empty a domain in place: report the wipe-out.
            return Err(Conflict);
        }
        self.save_large(li);
        self.removals += 1;
        if self.track_prunes {
            self.prunes.push((i as u32, v));
        }
        let mut kinds = EV_DOMAIN;
        if v == l.lo {
            // v < hi: the next member exists.
            self.large[li].lo = self.large_next_at_or_above(li, v + 1).expect("size > 1");
            kinds |= EV_BOUNDS;
        } else if v == l.hi {
            self.large[li].hi = self.large_next_at_or_below(li, v - 1).expect("size > 1");
            kinds |= EV_BOUNDS;
        } else {
            match self.kinds[li] {
                Kind::Span { base, at } => {
                    let off = (v as i64 - base as i64) as usize;
                    self.clear_bit(at + off / 64, off % 64);
                }
                Kind::List { list, at } => {
                    let k = self.lists[list].binary_search(&v).expect("a member");
                    self.clear_bit(at + k / 64, k % 64);
                }
                Kind::Holes { h } => {
                    let holes = &mut self.holes[h];
                    let p = holes.partition_point(|&x| x < v);
                    holes.insert(p, v);
                    self.hole_values += 1;
                    self.trail.push(Undo::Hole {
                        li: li as u32,
                        value: v,
                    });
                }
            }
        }
        self.large[li].size -= 1;
        if self.large[li].size == 1 {
            kinds |= EV_FIXED | EV_BOUNDS;
        }
        self.note_change(i, 0, kinds);
        Ok(true)
    }

    fn clear_bit(&mut self, at: usize, bit: usize) {
        self.trail.push(Undo::Bits {
            at: at as u32,
            old: self.bits[at],
        });
        self.bits[at] &= !(1u64 << bit);
    }

    /// Undoes the insertion of `v` into the hole list of large record `li`.
    pub(super) fn unhole(&mut self, li: usize, v: Value) {
        if let Kind::Holes { h } = self.kinds[li] {
            let holes = &mut self.holes[h];
            if let Ok(p) = holes.binary_search(&v) {
                holes.remove(p);
                self.hole_values -= 1;
            }
        }
    }

    /// Fixes large variable `i` to `v`.
    pub(super) fn fix_large(&mut self, i: usize, v: Value) -> Result<(), Conflict> {
        let li = self.large_idx[i] as usize;
        if !self.large_contains(li, v) {
            return Err(Conflict);
        }
        let l = self.large[li];
        if l.size == 1 {
            return Ok(());
        }
        if self.track_prunes {
            self.log_large_prunes(i, li, l.lo, l.hi, Some(v));
        }
        self.save_large(li);
        self.removals += l.size - 1;
        let e = &mut self.large[li];
        e.lo = v;
        e.hi = v;
        e.size = 1;
        self.note_change(i, 0, EV_FIXED | EV_BOUNDS | EV_DOMAIN);
        Ok(())
    }

    /// Narrows large variable `i` to `[max(lo, min), min(hi, max)]`.
    pub(super) fn set_large_bounds(
        &mut self,
        i: usize,
        lo: Value,
        hi: Value,
    ) -> Result<bool, Conflict> {
        let li = self.large_idx[i] as usize;
        let l = self.large[li];
        if let Kind::Span { base, at } = self.kinds[li] {
            if !self.track_prunes {
                return self.set_span_bounds(i, li, base, at, lo, hi);
            }
        }
        let new_lo = if lo > l.lo {
            self.large_next_at_or_above(li, lo).ok_or(Conflict)?
        } else {
            l.lo
        };
        let new_hi = if hi < l.hi {
            self.large_next_at_or_below(li, hi).ok_or(Conflict)?
        } else {
            l.hi
        };
        if new_lo > new_hi {
            return Err(Conflict);
        }
        if new_lo == l.lo && new_hi == l.hi {
            return Ok(false);
        }
        // Only the cut-off ends are counted.
        let below = if new_lo > l.lo {
            self.large_count(li, l.lo, new_lo - 1)
        } else {
            0
        };
        let above = if new_hi < l.hi {
            self.large_count(li, new_hi + 1, l.hi)
        } else {
            0
        };
        if self.track_prunes {
            if below > 0 {
                self.log_large_prunes(i, li, l.lo, new_lo - 1, None);
            }
            if above > 0 {
                self.log_large_prunes(i, li, new_hi + 1, l.hi, None);
            }
        }
        self.save_large(li);
        self.removals += below + above;
        let size = l.size - below - above;
        let e = &mut self.large[li];
        e.lo = new_lo;
        e.hi = new_hi;
        e.size = size;
        let fixed = if size == 1 { EV_FIXED } else { 0 };
        self.note_change(i, 0, EV_DOMAIN | EV_BOUNDS | fixed);
        Ok(true)
    }

    /// [`set_large_bounds`](Self::set_large_bounds) for a bitset over the
    /// span when no prunes are logged (the common case): one pass over the
    /// words, the scans and counts inlined.
    #[inline]
    fn set_span_bounds(
        &mut self,
        i: usize,
        li: usize,
        base: Value,
        at: usize,
        lo: Value,
        hi: Value,
    ) -> Result<bool, Conflict> {
        let l = self.large[li];
        let (lo, hi) = (lo.max(l.lo), hi.min(l.hi));
        if lo > hi {
            return Err(Conflict);
        }
        if lo == l.lo && hi == l.hi {
            return Ok(false);
        }
        let pos = |v: Value| (v as i64 - base as i64) as usize;
        let words = &self.bits[at..];
        // `lo..=hi` lies within the old bounds, which are members.
        let new_a = scan_up(words, pos(lo), pos(hi)).ok_or(Conflict)?;
        let new_b = scan_down(words, pos(hi), new_a).expect("new_a is a member");
        let (old_a, old_b) = (pos(l.lo), pos(l.hi));
        let below = if new_a > old_a {
            count_bits(words, old_a, new_a - 1)
        } else {
            0
        };
        let above = if new_b < old_b {
            count_bits(words, new_b + 1, old_b)
        } else {
            0
        };
        self.save_large(li);
        self.removals += below + above;
        let size = l.size - below - above;
        let e = &mut self.large[li];
        e.lo = (base as i64 + new_a as i64) as Value;
        e.hi = (base as i64 + new_b as i64) as Value;
        e.size = size;
        let fixed = if size == 1 { EV_FIXED } else { 0 };
        self.note_change(i, 0, EV_DOMAIN | EV_BOUNDS | fixed);
        Ok(true)
    }

    #[cold]
    fn log_large_prunes(&mut self, i: usize, li: usize, a: Value, b: Value, keep: Option<Value>) {
        let mut x = self.large_next_at_or_above(li, a);
        while let Some(w) = x.filter(|&w| w <= b) {
            if Some(w) != keep {
                self.prunes.push((i as u32, w));
            }
            x = w
                .checked_add(1)
                .and_then(|n| self.large_next_at_or_above(li, n));
        }
    }
}

/// The bits of positions `start..start + 64` that lie in `[a, b]` (positions
/// of a span bitset, `0 <= a <= b`), bit `j` for position `start + j`.
fn span_window(words: &[u64], start: i64, a: i64, b: i64) -> u64 {
    let (lo, hi) = (start.max(a), (start + 63).min(b));
    if lo > hi {
        return 0;
    }
    let (w, sh) = ((lo / 64) as usize, (lo % 64) as u32);
    let mut chunk = words[w] >> sh;
    if sh != 0 && w + 1 < words.len() {
        chunk |= words[w + 1] << (64 - sh);
    }
    let len = hi - lo + 1;
    if len < 64 {
        chunk &= (1u64 << len) - 1;
    }
    chunk << (lo - start)
}

/// The first set bit at or above `from` and at or below `end` (bit `k` of
/// `words` is bit `k % 64` of word `k / 64`).
#[inline]
fn scan_up(words: &[u64], from: usize, end: usize) -> Option<usize> {
    let mut off = from;
    while off <= end {
        let word = words[off / 64] >> (off % 64);
        if word != 0 {
            let found = off + word.trailing_zeros() as usize;
            return (found <= end).then_some(found);
        }
        off = (off / 64 + 1) * 64;
    }
    None
}

/// The last set bit at or below `from` and at or above `end`.
#[inline]
fn scan_down(words: &[u64], from: usize, end: usize) -> Option<usize> {
    let mut off = from as isize;
    let end = end as isize;
    while off >= end {
        let shift = 63 - (off % 64) as u32;
        let word = words[off as usize / 64] << shift;
        if word != 0 {
            let found = off - word.leading_zeros() as isize;
            return (found >= end).then_some(found as usize);
        }
        off = (off / 64) * 64 - 1;
    }
    None
}

/// Calls `f` with every set bit from bit `a` to bit `b`, both included.
fn for_each_bit(words: &[u64], a: usize, b: usize, mut f: impl FnMut(usize)) {
    let (wa, wb) = (a / 64, b / 64);
    for (w, &whole) in words.iter().enumerate().take(wb + 1).skip(wa) {
        let mut word = whole;
        if w == wa {
            word &= !0u64 << (a % 64);
        }
        if w == wb && b % 64 != 63 {
            word &= (1u64 << (b % 64 + 1)) - 1;
        }
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// Number of set bits from bit `a` to bit `b`, both included.
#[inline]
fn count_bits(words: &[u64], a: usize, b: usize) -> u64 {
    let (wa, wb) = (a / 64, b / 64);
    let lo_mask = !0u64 << (a % 64);
    let hi_mask = if b % 64 == 63 {
        !0u64
    } else {
        (1u64 << (b % 64 + 1)) - 1
    };
    if wa == wb {
        return u64::from((words[wa] & lo_mask & hi_mask).count_ones());
    }
    let mut n = u64::from((words[wa] & lo_mask).count_ones() + (words[wb] & hi_mask).count_ones());
    for w in &words[wa + 1..wb] {
        n += u64::from(w.count_ones());
    }
    n
}
