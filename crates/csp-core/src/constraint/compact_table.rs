//! Compact-table: generalised arc consistency for positive and negative
//! table constraints over a reversible sparse bitset of the tuples
//! (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin and Schaus,
//! "Compact-Table: efficiently filtering table constraints with reversible
//! sparse bit-sets", CP 2016; the negative form follows Verhaeghe, Lecoutre
//! and Schaus, "Extending compact-table to negative and short tables",
//! AAAI 2017). Written from the papers' descriptions.
//!
//! # Representation
//! * `current`: one bit per tuple, set while every value of the tuple is
//!   still in its variable's domain. Its words are reversible state; the
//!   words that are not zero are listed first in `index` (a plain
//!   permutation) up to the reversible `limit`, so a pass over the live
//!   words skips the dead ones. Swapping a word that became zero to
//!   position `limit − 1` keeps the prefix's set of words, so `index`
//!   needs no undo.
//! * `supports[pos][value]`: the tuples with `value` at `pos`, stored
//!   sparsely as `(word, bits)` pairs (at most one pair per tuple and
//!   position, so memory is O(t·k) whatever the domains).
//! * `last`: per position, the domain size at the end of the last call
//!   (reversible): a position whose size differs has lost values.
//! * `residue[pos][value]`: the support pair that last intersected
//!   `current` (a plain field: it is only a hint, checked before use).
//!
//! # One call
//! 1. For each position whose size changed, `current &= ⋃ supports` of its
//!    remaining values (the paper's reset update). O(Σ|support| + t/64).
//! 2. Positive: a value stays when its residue still intersects `current`,
//!    else the first pair of its support list that does becomes the
//!    residue; none: the value goes. Negative: a value goes when every
//!    tuple with it that is still valid is forbidden — the live forbidden
//!    tuples with it (a popcount) equal the product of the other domains'
//!    sizes. O(Σ|support|) per position in the worst case.
//! 3. Record the sizes.
//!
//! No live tuple (positive) is a conflict; no live forbidden tuple
//! (negative) entails the constraint.

use super::distinct::subscribe_all;
use super::{Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup, StateInt, StateWords};

/// The static part: the tuples' supports per position and value.
#[derive(Debug, Clone, Default)]
pub(crate) struct Supports {
    /// Number of tuples.
    pub(crate) tuples: usize,
    /// Per position, the distinct values at that position (sorted) and,
    /// per value, the start of its pairs in `pairs` (one more entry at the
    /// end).
    values: Vec<Vec<Value>>,
    starts: Vec<Vec<u32>>,
    pairs: Vec<(u32, u64)>,
}

impl Supports {
    /// The supports of `tuples` (rows of `arity` values, flattened).
    pub(crate) fn new(arity: usize, flat: &[Value]) -> Supports {
        let t = flat.len().checked_div(arity).unwrap_or(0);
        let mut values = Vec::with_capacity(arity);
        let mut starts = Vec::with_capacity(arity);
        let mut pairs = Vec::new();
        for pos in 0..arity {
            // (value, tuple) sorted: each value's tuples in order, so each
            // word of a support is one pair.
            let mut col: Vec<(Value, u32)> =
                (0..t).map(|r| (flat[r * arity + pos], r as u32)).collect();
            col.sort_unstable();
            let mut vals = Vec::new();
            let mut st = Vec::new();
            let mut i = 0;
            while i < col.len() {
                let v = col[i].0;
                vals.push(v);
                st.push(pairs.len() as u32);
                while i < col.len() && col[i].0 == v {
                    let w = col[i].1 / 64;
                    let mut bits = 0u64;
                    while i < col.len() && col[i].0 == v && col[i].1 / 64 == w {
                        bits |= 1 << (col[i].1 % 64);
                        i += 1;
                    }
                    pairs.push((w, bits));
                }
            }
            st.push(pairs.len() as u32);
            values.push(vals);
            starts.push(st);
        }
        Supports {
            tuples: t,
            values,
            starts,
            pairs,
        }
    }

    /// The support pairs of `value` at `pos` (empty when no tuple has it),
    /// with their offset in `pairs`.
    #[inline]
    fn of(&self, pos: usize, value: Value) -> (usize, &[(u32, u64)]) {
        match self.values[pos].binary_search(&value) {
            Ok(k) => {
                let (a, b) = (
                    self.starts[pos][k] as usize,
                    self.starts[pos][k + 1] as usize,
                );
                (a, &self.pairs[a..b])
            }
            Err(_) => (0, &[]),
        }
    }
}

/// The compact-table propagator, positive (allowed tuples) or negative
/// (forbidden tuples), over distinct variables.
#[derive(Debug)]
pub(crate) struct CompactTable<'a> {
    vars: &'a [VarId],
    sup: &'a Supports,
    negative: bool,
    current: Option<StateWords>,
    limit: Option<StateInt>,
    last: Option<StateWords>,
    index: Vec<u32>,
    /// Per pair of `sup.pairs` whose value is asked: the residue, as an
    /// offset into that value's pairs (a hint).
    residue: Vec<u32>,
    mask: Vec<u64>,
    /// The allowed tuples, flattened (positive tables; for reasons).
    tuples: &'a [Value],
}

impl<'a> CompactTable<'a> {
    /// `tuples`: a positive table's tuples, flattened (empty for a
    /// negative one); only reasons read them.
    pub(crate) fn new(
        vars: &'a [VarId],
        sup: &'a Supports,
        negative: bool,
        tuples: &'a [Value],
    ) -> CompactTable<'a> {
        let words = sup.tuples.div_ceil(64);
        CompactTable {
            tuples,
            vars,
            sup,
            negative,
            current: None,
            limit: None,
            last: None,
            index: (0..words as u32).collect(),
            residue: vec![0; sup.pairs.len()],
            mask: vec![0; words],
        }
    }

    /// Step 1 for position `pos`: keeps the tuples whose value at `pos` is
    /// still in the domain.
    fn update(&mut self, p: &mut Pruner<'_>, pos: usize) {
        let cur = self.current.expect("setup ran");
        let lim = self.limit.expect("setup ran");
        let mut limit = p.get(lim) as usize;
        for k in 0..limit {
            self.mask[self.index[k] as usize] = 0;
        }
        for v in p.values(self.vars[pos]) {
            for &(w, bits) in self.sup.of(pos, v).1 {
                self.mask[w as usize] |= bits;
            }
        }
        let mut k = 0;
        while k < limit {
            let w = self.index[k] as usize;
            let old = p.state_word(cur, w);
            let new = old & self.mask[w];
            if new != old {
                p.set_state_word(cur, w, new);
            }
            if new == 0 {
                limit -= 1;
                self.index.swap(k, limit);
            } else {
                k += 1;
            }
        }
        p.set(lim, limit as i64);
    }

    /// Does `value` at `pos` still have a live tuple? Updates its residue.
    fn supported(&mut self, p: &Pruner<'_>, pos: usize, value: Value) -> bool {
        let cur = self.current.expect("setup ran");
        let (at, pairs) = self.sup.of(pos, value);
        if pairs.is_empty() {
            return false;
        }
        let r = self.residue[at] as usize;
        if let Some(&(w, bits)) = pairs.get(r) {
            if p.state_word(cur, w as usize) & bits != 0 {
                return true;
            }
        }
        match pairs
            .iter()
            .position(|&(w, bits)| p.state_word(cur, w as usize) & bits != 0)
        {
            Some(k) => {
                self.residue[at] = k as u32;
                true
            }
            None => false,
        }
    }

    /// The live forbidden tuples with `value` at `pos`.
    fn live_count(&self, p: &Pruner<'_>, pos: usize, value: Value) -> u64 {
        let cur = self.current.expect("setup ran");
        self.sup
            .of(pos, value)
            .1
            .iter()
            .map(|&(w, bits)| (p.state_word(cur, w as usize) & bits).count_ones() as u64)
            .sum()
    }

    /// Steps 1 and 3 for every position whose size changed; returns
    /// whether any did.
    fn update_changed(&mut self, p: &mut Pruner<'_>) -> bool {
        let last = self.last.expect("setup ran");
        let mut any = false;
        for pos in 0..self.vars.len() {
            let size = p.size(self.vars[pos]);
            if size != p.state_word(last, pos) {
                self.update(p, pos);
                p.set_state_word(last, pos, size);
                any = true;
            }
        }
        any
    }

    fn filter_positive(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        for pos in 0..self.vars.len() {
            let x = self.vars[pos];
            let mut gone = false;
            for v in p.values(x) {
                if !self.supported(p, pos, v) {
                    // Lazy: the lost supports are listed only when asked
                    // (a scan of the table per removal otherwise).
                    p.remove(x, v, Why::Lazy(pos as u64))?;
                    gone = true;
                }
            }
            if gone {
                // The removed values had no live tuple: `current` holds.
                let last = self.last.expect("setup ran");
                p.set_state_word(last, pos, p.size(x));
            }
        }
        Ok(())
    }

    /// Returns whether a value went.
    fn filter_negative(&mut self, p: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let k = self.vars.len();
        let mut removed = false;
        for pos in 0..k {
            // Tuples over the other positions' current domains.
            let others = (0..k)
                .filter(|&q| q != pos)
                .fold(1u64, |acc, q| acc.saturating_mul(p.size(self.vars[q])));
            if others > self.sup.tuples as u64 {
                continue;
            }
            let x = self.vars[pos];
            let mut gone = false;
            for v in p.values(x) {
                if self.live_count(p, pos, v) >= others {
                    p.remove(x, v, Why::Scope)?;
                    gone = true;
                }
            }
            if gone {
                // The next positions count over the smaller domain: drop
                // the tuples through the removed values first.
                self.update(p, pos);
                let last = self.last.expect("setup ran");
                p.set_state_word(last, pos, p.size(x));
                removed = true;
            }
        }
        Ok(removed)
    }
}

/// The reason `x ≠ v` for a positive table (`x` at `pos`): every tuple
/// with `v` at `pos` has lost a value elsewhere, one `y ≠ w` per tuple
/// (the supports that were lost), pushed onto `out`, the domains read
/// through `contains`. `false` when a tuple with `v` has every value still
/// there (the propagator never removes for that): no such reason then.
fn lost_supports(
    vars: &[VarId],
    tuples: &[Value],
    pos: usize,
    v: Value,
    contains: impl Fn(VarId, Value) -> bool,
    out: &mut Vec<Literal>,
) -> bool {
    let k = vars.len();
    let start = out.len();
    for row in tuples.chunks_exact(k.max(1)).filter(|row| row[pos] == v) {
        let lost = (0..k)
            .filter(|&q| q != pos)
            .find(|&q| !contains(vars[q], row[q]));
        match lost {
            Some(q) => out.push(Literal::Ne(vars[q], row[q])),
            None => {
                out.truncate(start);
                return false;
            }
        }
    }
    let mut lits = out.split_off(start);
    lits.sort_unstable();
    lits.dedup();
    out.extend(lits);
    true
}

impl Propagator for CompactTable<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, self.vars, Events::DOMAIN);
        // Bits past the last tuple have no support: the first update,
        // which sees every position as changed, clears them.
        self.current = Some(setup.new_words(self.index.len(), !0));
        self.limit = Some(setup.new_int(self.index.len() as i64));
        self.last = Some(setup.new_words(self.vars.len(), 0));
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let lim = self.limit.expect("setup ran");
        if self.negative {
            loop {
                self.update_changed(p);
                if p.get(lim) == 0 {
                    // Nothing forbidden is left possible.
                    p.entail();
                    return Ok(());
                }
                if !self.filter_negative(p)? {
                    return Ok(());
                }
            }
        }
        self.update_changed(p);
        if p.get(lim) == 0 {
            return Err(Conflict);
        }
        self.filter_positive(p)
    }

    fn priority(&self) -> Priority {
        Priority::Expensive
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    /// The lazy reason of a removal by the positive filter (code: the
    /// position): the supports lost, read from the domains at `history`.
    fn explain(
        &mut self,
        code: u64,
        lit: Literal,
        history: &crate::propagation::History<'_>,
        out: &mut Vec<Literal>,
    ) -> bool {
        let (pos, Literal::Ne(_, v)) = (code as usize, lit) else {
            return false;
        };
        !self.negative
            && pos < self.vars.len()
            && lost_supports(
                self.vars,
                self.tuples,
                pos,
                v,
                |y, w| history.contains(y, w),
                out,
            )
    }

    fn name(&self) -> &str {
        if self.negative {
            "negative table (compact-table)"
        } else {
            "table (compact-table)"
        }
    }
}
