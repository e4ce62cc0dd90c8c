//! The explanation trail: in explaining mode, every domain change in the
//! order it happened, as a [`Literal`] with its [`Cause`] and decision level.
//!
//! # What is recorded
//! The store's undo trail (`levels.rs`) only knows how to restore words; it
//! cannot say in what order facts were inferred or why. When a search runs
//! in explaining mode ([`SearchOptions::explain`](crate::SearchOptions::explain)),
//! the store also appends one [`Entry`] per change, MiniSat's `trail` with
//! Chuffed's and Pumpkin's reasons attached:
//! * the literal that became true (`x ≠ v`, `x ≥ v`, `x ≤ v`, `x = v`): the
//!   one the writer asserted, or, for a write that only gives new bits, the
//!   bound or the removed values the bits show;
//! * its cause: a given (asserted before the search), a decision, the
//!   objective bound, or a propagation by propagator `p` with premises kept
//!   here (eager), a code for `p` to expand later (lazy), or nothing but `p`
//!   itself (the *scope fallback*: the domains of its scope just before the
//!   change, which imply whatever a sound propagator removes);
//! * the decision level.
//!
//! Backtracking truncates the trail with the levels. [`History`] reads the
//! trail as of a position: a variable's domain then (the declared domain
//! less the literals recorded before), when a literal became true, and the
//! entries that made it true. Outside explaining mode nothing here is
//! touched: the store's write paths test one flag.
//!
//! # Invariants
//! * every value a propagator, a decision or the bound removes while
//!   explaining is excluded by some entry of its variable (the kernel
//!   checks the removal counts in debug builds);
//! * an entry's eager premises were true before the entry (they are
//!   computed before the write); lazy and fallback causes are evaluated
//!   against the trail before the entry.

use super::store::DomainStore;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// Why a literal on the trail became true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cause {
    /// Asserted before the search, at the root (a puzzle's clue).
    #[default]
    Given,
    /// A search decision (or a decision replayed for a subproblem).
    Decision,
    /// The objective bound of branch and bound.
    Bound,
    /// Inferred by a propagator (its index in the search: constraint order,
    /// fused groups last).
    Propagated {
        /// The propagator.
        prop: u32,
        /// How its premises are found.
        how: How,
    },
}

impl Cause {
    /// The cause the store holds between writes: a change recorded with
    /// it was made without a reason (a bug the explanation checks report).
    pub(crate) const UNEXPLAINED: Cause = Cause::Propagated {
        prop: u32::MAX,
        how: How::Scope,
    };
}

/// How a propagation's premises are found (see [`Cause::Propagated`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Premises recorded at the time: `premises[start..start + len]` of the
    /// trail.
    Eager {
        /// First premise.
        start: u32,
        /// Number of premises.
        len: u32,
    },
    /// One premise, kept in the cause itself (no premise list to write):
    /// the common reason of a value taken by a fixed peer.
    One(Literal),
    /// A code the propagator turns into premises when asked
    /// ([`Propagator::explain`](crate::propagation::Propagator::explain)).
    Lazy(u64),
    /// The fallback: the domains of the propagator's scope just before.
    Scope,
    /// The bounds of the propagator's scope just before.
    Bounds,
}

/// One change: a literal became true at a decision level because of a
/// cause ([`lit`](Entry::lit), [`cause`](Entry::cause),
/// [`level`](Entry::level)).
///
/// Packed into 32 bytes (the plain `(Literal, Cause, level)` took 56):
/// explaining mode writes one per removed value, so the trail's size is
/// its cost. The variable and value of the literal, the propagator and
/// the level are `u32`s; the two kinds share `tag`; the cause's
/// payload (an eager range, the one literal, a lazy code) is one `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    var: u32,
    value: Value,
    /// Bits 0–1: the literal's kind; 2–4: the cause's kind; 5–6: the kind
    /// of a [`How::One`] premise.
    tag: u32,
    prop: u32,
    level: u32,
    /// An eager range (`start | len << 32`), a [`How::One`] premise
    /// (`var | value << 32`) or a lazy code.
    payload: u64,
}

const LIT_EQ: u32 = 0;
const LIT_NE: u32 = 1;
const LIT_GE: u32 = 2;
const LIT_LE: u32 = 3;

const CAUSE_GIVEN: u32 = 0;
const CAUSE_DECISION: u32 = 1;
const CAUSE_BOUND: u32 = 2;
const HOW_EAGER: u32 = 3;
const HOW_ONE: u32 = 4;
const HOW_LAZY: u32 = 5;
const HOW_SCOPE: u32 = 6;
const HOW_BOUNDS: u32 = 7;

#[inline(always)]
fn pack_lit(lit: Literal) -> (u32, u32, Value) {
    match lit {
        Literal::Eq(x, v) => (LIT_EQ, x.index() as u32, v),
        Literal::Ne(x, v) => (LIT_NE, x.index() as u32, v),
        Literal::Ge(x, v) => (LIT_GE, x.index() as u32, v),
        Literal::Le(x, v) => (LIT_LE, x.index() as u32, v),
    }
}

#[inline(always)]
fn unpack_lit(kind: u32, var: u32, v: Value) -> Literal {
    let x = crate::ids::VarId(var);
    match kind & 3 {
        LIT_EQ => Literal::Eq(x, v),
        LIT_NE => Literal::Ne(x, v),
        LIT_GE => Literal::Ge(x, v),
        _ => Literal::Le(x, v),
    }
}

/// A cause as the trail stores it: `(tag bits above the literal's kind,
/// propagator, payload)`.
#[inline(always)]
fn pack_cause(cause: Cause) -> (u32, u32, u64) {
    let (kind, prop, payload) = match cause {
        Cause::Given => (CAUSE_GIVEN, 0, 0),
        Cause::Decision => (CAUSE_DECISION, 0, 0),
        Cause::Bound => (CAUSE_BOUND, 0, 0),
        Cause::Propagated { prop, how } => match how {
            How::Eager { start, len } => (HOW_EAGER, prop, u64::from(start) | u64::from(len) << 32),
            How::One(l) => {
                let (k, var, v) = pack_lit(l);
                let payload = u64::from(var) | u64::from(v as u32) << 32;
                return ((HOW_ONE | k << 3) << 2, prop, payload);
            }
            How::Lazy(code) => (HOW_LAZY, prop, code),
            How::Scope => (HOW_SCOPE, prop, 0),
            How::Bounds => (HOW_BOUNDS, prop, 0),
        },
    };
    (kind << 2, prop, payload)
}

impl Entry {
    #[inline(always)]
    fn new(lit: Literal, cause: Cause, level: usize) -> Entry {
        let (k, var, value) = pack_lit(lit);
        let (tag, prop, payload) = pack_cause(cause);
        Entry {
            var,
            value,
            tag: tag | k,
            prop,
            level: level as u32,
            payload,
        }
    }

    /// What became true.
    #[inline]
    pub fn lit(&self) -> Literal {
        unpack_lit(self.tag, self.var, self.value)
    }

    /// The variable the literal is about (its index).
    #[inline]
    pub(crate) fn var_index(&self) -> usize {
        self.var as usize
    }

    /// Why it became true.
    pub fn cause(&self) -> Cause {
        let prop = self.prop;
        let how = match self.tag >> 2 & 7 {
            CAUSE_GIVEN => return Cause::Given,
            CAUSE_DECISION => return Cause::Decision,
            CAUSE_BOUND => return Cause::Bound,
            HOW_EAGER => How::Eager {
                start: self.payload as u32,
                len: (self.payload >> 32) as u32,
            },
            HOW_ONE => How::One(unpack_lit(
                self.tag >> 5,
                self.payload as u32,
                (self.payload >> 32) as u32 as Value,
            )),
            HOW_LAZY => How::Lazy(self.payload),
            HOW_SCOPE => How::Scope,
            _ => How::Bounds,
        };
        Cause::Propagated { prop, how }
    }

    /// The decision level (0: the root).
    #[inline]
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Does the literal exclude a value of one of `ranges` (each within
    /// the variable's declared bounds, which have no gap; an empty range
    /// has `a > b`)? [`excludes_some`] for that case, read from the
    /// packed literal.
    #[inline]
    fn excludes_any(&self, ranges: &[(i64, i64); 2]) -> bool {
        let v = self.value as i64;
        let kind = self.tag & 3;
        ranges.iter().any(|&(a, b)| {
            a <= b
                && match kind {
                    LIT_NE => a <= v && v <= b,
                    // Excludes the declared values below `v`: one of
                    // `a..=b` if `a < v`.
                    LIT_GE => a < v,
                    LIT_LE => b > v,
                    _ => a < v || b > v,
                }
        })
    }
}

/// A failure recorded while explaining: the propagator (`u32::MAX` for a
/// decision or the bound), the variable a write would have emptied (`None`
/// when it failed without a write), and the cause: of the write, whose
/// literal that variable's domain contradicts, or of the failure itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The failing propagator (`u32::MAX`: not a propagator).
    pub prop: u32,
    /// The variable a write would have emptied.
    pub var: Option<VarId>,
    /// Why the write was attempted, or the explanation of the failure.
    pub cause: Cause,
}

/// The explanation trail (empty and untouched outside explaining mode).
#[derive(Clone, Debug, Default)]
pub(crate) struct ExplainTrail {
    pub(crate) entries: Vec<Entry>,
    pub(crate) premises: Vec<Literal>,
    /// Per variable: the positions of its entries among the first
    /// `chained`, ascending, so that the entries before a position are
    /// found by binary search (the analysis of a conflict reads them
    /// as of many positions).
    of_var: Vec<Vec<u32>>,
    /// Per variable: the positions of its `x ≥ v` and `x = v` entries
    /// among the first `chained`, ascending. Lower bounds only rise along
    /// the trail, so their values ascend too: the oldest entry that
    /// implies `x ≥ u` alone is found by binary search.
    lower_of: Vec<Vec<u32>>,
    /// Per variable: its `x ≤ v` and `x = v` entries, as `lower_of` (their
    /// values descend).
    upper_of: Vec<Vec<u32>>,
    /// Per variable: where its slots start in `ne_at` ([`NE_UNSEEN`]: no
    /// `x ≠ v` entry indexed yet; [`NE_WIDE`]: no slots, its declared
    /// domain being too wide or the slots' budget spent).
    ne_base: Vec<u32>,
    /// Per variable with slots, one per value of its declared bounds: the
    /// position of the oldest indexed entry `x ≠ v` ([`NE_NONE`]: none), so
    /// that [`oldest_implying`](Self::oldest_implying) finds the entry of
    /// an `x ≠ v` premise without reading the variable's other entries.
    ne_at: Vec<u32>,
    /// The entries indexed in `of_var`: the index is made when the trail
    /// is read ([`chain`](Self::chain)), not as entries are pushed, so
    /// that a search that asks for no explanation pays a store per entry
    /// and nothing to truncate.
    chained: usize,
    /// Per open level: the lengths of `entries` and `premises` at its opening.
    marks: Vec<(u32, u32)>,
    /// The cause of the writes being made (set by the writer, reset after).
    pub(crate) cause: Cause,
    /// The literal the writer asserts, for the variable it names.
    pub(crate) lit: Option<Literal>,
    /// The last failure, until the next propagation starts.
    pub(crate) failure: Option<Failure>,
    /// Should a fast pass that fails be redone step by step, each step
    /// logged, so that the failure's explanation shows how it came about
    /// ([`Explainer`](crate::Explainer))? Otherwise (a search) the pass's
    /// writes are undone and the failure gets a lazy reason over the trail
    /// as it stood, found only if asked for.
    pub(crate) detailed_failures: bool,
    /// The declared domains (the store before the first change), shared:
    /// what a reason's literals narrow.
    pub(crate) root: Option<std::sync::Arc<super::DomainStore>>,
    /// Per variable: the last [`Past`] read ([`History::past`]) and the
    /// number of the variable's entries it read. Lazy reasons read the
    /// same variables as of many nearby positions, where most have the
    /// same entries before them; a variable's slot is cleared when one of
    /// its indexed entries leaves the trail.
    pasts: PastCache,
}

impl ExplainTrail {
    pub(crate) fn new(num_vars: usize) -> ExplainTrail {
        ExplainTrail {
            of_var: vec![Vec::new(); num_vars],
            lower_of: vec![Vec::new(); num_vars],
            upper_of: vec![Vec::new(); num_vars],
            ne_base: vec![NE_UNSEEN; num_vars],
            cause: Cause::UNEXPLAINED,
            ..ExplainTrail::default()
        }
    }

    /// Appends `lit` with the current cause at `level`.
    pub(crate) fn push(&mut self, lit: Literal, level: usize) {
        self.push_as(lit, self.cause, level);
    }

    /// Appends `lit` with `cause` at `level`.
    #[inline]
    pub(crate) fn push_as(&mut self, lit: Literal, cause: Cause, level: usize) {
        self.entries.push(Entry::new(lit, cause, level));
    }

    /// Appends `x ≠ v` with `cause` at `level` for each value `v = base + b`
    /// of the set bits `b` of `gone` (a word pass's removals).
    #[inline]
    pub(crate) fn push_removed(
        &mut self,
        x: usize,
        base: Value,
        mut gone: u64,
        cause: Cause,
        level: usize,
    ) {
        let (tag, prop, payload) = pack_cause(cause);
        while gone != 0 {
            let value = base + gone.trailing_zeros() as Value;
            gone &= gone - 1;
            self.entries.push(Entry {
                var: x as u32,
                value,
                tag: tag | LIT_NE,
                prop,
                level: level as u32,
                payload,
            });
        }
    }

    /// [`push_removed`](Self::push_removed) for a `gone` of at most `K` set
    /// bits, without a loop over them: `K` entries are written to the
    /// trail's spare room unconditionally and the length grows by the
    /// number of bits, so the number of removals (which varies from word
    /// to word) costs no mispredicted loop exit. A fused pass's single wave
    /// removes at most one value per member constraint from a word.
    #[inline(always)]
    pub(crate) fn push_removed_few<const K: usize>(
        &mut self,
        x: usize,
        base: Value,
        gone: u64,
        cause: Cause,
        level: usize,
    ) {
        let n = gone.count_ones() as usize;
        debug_assert!(n <= K);
        let (tag, prop, payload) = pack_cause(cause);
        self.entries.reserve(K);
        let len = self.entries.len();
        let out = self.entries.as_mut_ptr();
        let mut rest = gone;
        for k in 0..K {
            // Past the last bit, `trailing_zeros` is 64: an entry written
            // beyond the new length and never read.
            let e = Entry {
                var: x as u32,
                value: base.wrapping_add(rest.trailing_zeros() as Value),
                tag: tag | LIT_NE,
                prop,
                level: level as u32,
                payload,
            };
            // SAFETY: `reserve(K)` made room for `K` entries past `len`.
            unsafe { out.add(len + k).write(e) };
            rest &= rest.wrapping_sub(1);
        }
        // SAFETY: the first `n <= K` of them were written just above.
        unsafe { self.entries.set_len(len + n) };
    }

    /// Appends `x ≠ v` caused by propagator `prop` with the one premise
    /// `y = w` (a value taken by a fixed peer), at `level`: `push_as`
    /// without building and packing the cause.
    #[inline(always)]
    pub(crate) fn push_ne_by_eq(
        &mut self,
        x: u32,
        v: Value,
        prop: u32,
        y: u32,
        w: Value,
        level: usize,
    ) {
        self.entries.push(Entry {
            var: x,
            value: v,
            tag: LIT_NE | (HOW_ONE | LIT_EQ << 3) << 2,
            prop,
            level: level as u32,
            payload: u64::from(y) | u64::from(w as u32) << 32,
        });
    }

    /// Indexes the entries pushed since the last call by variable (what
    /// [`entries_of`](Self::entries_of) reads). Called before the trail is
    /// read.
    pub(crate) fn chain(&mut self) {
        for k in self.chained..self.entries.len() {
            let e = self.entries[k];
            let x = e.var_index();
            self.of_var[x].push(k as u32);
            if e.tag & 3 == LIT_NE {
                if let Some(slot) = self.ne_slot_made(x, e.value) {
                    if self.ne_at[slot] == NE_NONE {
                        self.ne_at[slot] = k as u32;
                    }
                }
            } else {
                if e.tag & 3 != LIT_LE {
                    self.lower_of[x].push(k as u32);
                }
                if e.tag & 3 != LIT_GE {
                    self.upper_of[x].push(k as u32);
                }
            }
        }
        self.chained = self.entries.len();
    }

    /// Opens a level.
    pub(crate) fn push_mark(&mut self) {
        self.marks
            .push((self.entries.len() as u32, self.premises.len() as u32));
    }

    /// Drops what levels `level..` recorded; keeps `keep_open` of them open
    /// (1 when the level is reopened, 0 when closed).
    pub(crate) fn undo_to(&mut self, level: usize, keep_open: bool) {
        if let Some(&(e, p)) = self.marks.get(level) {
            self.truncate(e as usize);
            self.premises.truncate(p as usize);
            self.marks.truncate(level + usize::from(keep_open));
        }
        self.failure = None;
    }

    fn truncate(&mut self, len: usize) {
        // Unindex the indexed entries that go; the rest were never indexed.
        while self.chained > len {
            self.chained -= 1;
            let e = self.entries[self.chained];
            let x = e.var_index();
            self.of_var[x].pop();
            if let Some(slot) = self.pasts.get_mut().get_mut(x) {
                *slot = None;
            }
            if e.tag & 3 == LIT_NE {
                if let Some(slot) = self.ne_slot(x, e.value) {
                    if self.ne_at[slot] == self.chained as u32 {
                        self.ne_at[slot] = NE_NONE;
                    }
                }
            } else {
                if e.tag & 3 != LIT_LE {
                    self.lower_of[x].pop();
                }
                if e.tag & 3 != LIT_GE {
                    self.upper_of[x].pop();
                }
            }
        }
        self.entries.truncate(len);
    }

    /// The entries of variable `x` before position `before`, newest first.
    /// The oldest entry before position `before` that implies `lit` alone
    /// (an entry of its variable), if any: for a bound, by binary search
    /// in the bound entries (whose values are monotone along the trail);
    /// for `x ≠ u`, the oldest of the first bound past `u` on either side
    /// and an entry `x ≠ u` older than both.
    pub(crate) fn oldest_implying(&self, lit: Literal, before: usize) -> Option<usize> {
        let x = lit.var().index();
        // The first of `ks` before `before` whose value passes `past`
        // (monotone along `ks`, false then true, since the values of a
        // variable's bound entries only move one way along the trail):
        // the first of all that passes, if it is before `before` (the
        // positions ascend too). One binary search, not two. (Generic in
        // `past`, so that the test is inlined into the search whatever
        // the code generation units: a `&dyn Fn` was not, once.)
        fn first_of(
            entries: &[Entry],
            ks: &[u32],
            before: usize,
            past: impl Fn(Value) -> bool,
        ) -> Option<usize> {
            let value = |k: u32| entries[k as usize].value;
            // None passes when the last does not (often: a bound made by
            // values removed one by one): no search.
            if !past(value(*ks.last()?)) {
                return None;
            }
            let i = ks.partition_point(|&k| !past(value(k)));
            ks.get(i).map(|&k| k as usize).filter(|&k| k < before)
        }
        let e = &self.entries;
        match lit {
            Literal::Ge(_, u) => first_of(e, &self.lower_of[x], before, |v| v >= u),
            Literal::Le(_, u) => first_of(e, &self.upper_of[x], before, |v| v <= u),
            Literal::Eq(..) => {
                // Only `x = u` implies it; it is the last lower entry.
                let ks = &self.lower_of[x];
                let n = before_in(ks, before);
                let k = *ks[..n].last()? as usize;
                (self.entries[k].lit() == lit).then_some(k)
            }
            Literal::Ne(_, u) => {
                let lo = first_of(e, &self.lower_of[x], before, |v| v > u);
                let hi = first_of(e, &self.upper_of[x], before, |v| v < u);
                let best = match (lo, hi) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let bound = best.unwrap_or(before);
                let older = match self.ne_base[x] {
                    // No entry `x ≠ v` indexed at all.
                    NE_UNSEEN => None,
                    _ => match self.ne_slot(x, u) {
                        Some(slot) => {
                            let k = self.ne_at[slot];
                            (k != NE_NONE && (k as usize) < bound).then_some(k as usize)
                        }
                        None => self
                            .entries_of(lit.var(), bound)
                            .find(|&k| self.entries[k].lit() == lit),
                    },
                };
                debug_assert_eq!(
                    older,
                    self.entries_of(lit.var(), bound)
                        .find(|&k| self.entries[k].lit() == lit),
                    "the indexed entry of {lit:?}"
                );
                older.or(best)
            }
        }
    }

    /// The earliest set of entries before position `before` that together
    /// make the bound `x ≥ v` (`ge`) or `x ≤ v` true when no single entry
    /// does: one bound entry `x ≥ b` (or none: the declared minimum) and
    /// the entries `x ≠ w` of every `w` in `b..v`, chosen so that the
    /// newest of them is as old as possible (ties: the tightest bound,
    /// fewest removals). This is the support lazy clause generation's
    /// order literals give `[x ≥ v]`: the literal is set the first time
    /// it holds, from `[x ≥ v − 1] ∧ [x ≠ v − 1]`, and so on down.
    /// Returns the position of the newest entry of the set (its time),
    /// the bound entry and `b`; `None` when `x` has no `x ≠ w` slots or
    /// the bound is not made true that way (the caller then takes every
    /// entry that excludes a value `lit` excludes). Needs a declared
    /// domain without gaps.
    fn earliest_bound(
        &self,
        x: usize,
        v: Value,
        ge: bool,
        before: usize,
    ) -> Option<(usize, Option<usize>, Value)> {
        let root = self.root.as_deref()?;
        let (dlo, dhi) = (root.min(x), root.max(x));
        let ks = if ge {
            &self.lower_of[x]
        } else {
            &self.upper_of[x]
        };
        let mut j = before_in(ks, before);
        let value = |k: u32| self.entries[k as usize].value;
        // Past `b` towards `v`: does bound `b` leave `w` out? (`w` is
        // wide, so that the step past an end of `i32` cannot overflow.)
        let outside = |b: Value, w: i64| {
            if ge {
                i64::from(b) > w
            } else {
                i64::from(b) < w
            }
        };
        // The newest removal of the values past `w` up to `v` (exclusive).
        let mut newest: Option<usize> = None;
        let mut best: Option<(usize, Option<usize>, Value)> = None;
        let mut w = i64::from(if ge {
            v.checked_sub(1)?
        } else {
            v.checked_add(1)?
        });
        loop {
            // The bound entries past `w`: each with the removals between
            // it and `v` is a support.
            while j > 0 && outside(value(ks[j - 1]), w) {
                j -= 1;
                let k = ks[j] as usize;
                let t = newest.map_or(k, |n| n.max(k));
                if best.is_none_or(|(bt, ..)| t < bt) {
                    best = Some((t, Some(k), self.entries[k].value));
                }
            }
            if (ge && w < i64::from(dlo)) || (!ge && w > i64::from(dhi)) {
                // Every value from the declared bound on is removed.
                let b = if ge { dlo } else { dhi };
                if let Some(t) = newest.filter(|&t| best.is_none_or(|(bt, ..)| t < bt)) {
                    best = Some((t, None, b));
                }
                break;
            }
            // `w` lies in the declared domain here.
            match self.ne_slot(x, w as Value).map(|s| self.ne_at[s]) {
                Some(k) if k != NE_NONE && (k as usize) < before => {
                    newest = Some(newest.map_or(k as usize, |n| n.max(k as usize)));
                }
                _ => break,
            }
            w += if ge { -1 } else { 1 };
        }
        best
    }

    /// Appends the entries of [`earliest_bound`](Self::earliest_bound)'s
    /// support: the bound entry and the removals from its value to `v`.
    fn push_bound_support(
        &self,
        x: usize,
        v: Value,
        ge: bool,
        (_, bound, b): (usize, Option<usize>, Value),
        out: &mut Vec<usize>,
    ) {
        out.extend(bound);
        let (lo, hi) = if ge { (b, v - 1) } else { (v + 1, b) };
        for w in lo..=hi {
            if let Some(s) = self.ne_slot(x, w) {
                let k = self.ne_at[s];
                if k != NE_NONE {
                    out.push(k as usize);
                }
            }
        }
    }

    /// Is every removal `x ≠ v` of `x` indexed by value (or has `x` none
    /// yet)? Then [`earliest_bound`](Self::earliest_bound) sees every way
    /// a bound of `x` can have become true.
    #[inline]
    pub(crate) fn ne_indexed(&self, x: usize) -> bool {
        self.ne_base[x] != NE_WIDE
    }

    /// The slot of `x ≠ v` in `ne_at`, if `x` has slots and `v` is within
    /// its declared bounds.
    #[inline(always)]
    fn ne_slot(&self, x: usize, v: Value) -> Option<usize> {
        let base = self.ne_base[x];
        if base >= NE_WIDE {
            return None;
        }
        let root = self.root.as_deref()?;
        let d = v as i64 - root.min(x) as i64;
        let span = root.max(x) as i64 - root.min(x) as i64 + 1;
        (0..span).contains(&d).then(|| base as usize + d as usize)
    }

    /// [`ne_slot`](Self::ne_slot), giving `x` its slots first if it has
    /// none yet (its declared bounds span at most [`NE_SPAN`] values and
    /// the budget [`NE_BUDGET`] allows).
    fn ne_slot_made(&mut self, x: usize, v: Value) -> Option<usize> {
        if self.ne_base[x] == NE_UNSEEN {
            let span = self
                .root
                .as_deref()
                .map_or(i64::MAX, |r| r.max(x) as i64 - r.min(x) as i64 + 1);
            self.ne_base[x] = if span <= NE_SPAN && self.ne_at.len() as i64 + span <= NE_BUDGET {
                let base = self.ne_at.len() as u32;
                self.ne_at.resize(self.ne_at.len() + span as usize, NE_NONE);
                base
            } else {
                NE_WIDE
            };
        }
        self.ne_slot(x, v)
    }

    /// The number of variable `x`'s entries before position `before`.
    pub(crate) fn count_of(&self, x: VarId, before: usize) -> usize {
        before_in(&self.of_var[x.index()], before)
    }

    pub(crate) fn entries_of(&self, x: VarId, before: usize) -> impl Iterator<Item = usize> + '_ {
        debug_assert!(
            before <= self.chained,
            "the trail is read before it is chained"
        );
        let ks = &self.of_var[x.index()];
        ks[..before_in(ks, before)]
            .iter()
            .rev()
            .map(|&k| k as usize)
    }
}

/// The number of positions of `ks` (ascending) before `before`: all of
/// them without a search when the last is (reading at or near the end of
/// the trail, as the analysis mostly does).
#[inline]
fn before_in(ks: &[u32], before: usize) -> usize {
    match ks.last() {
        Some(&k) if (k as usize) < before => ks.len(),
        _ => ks.partition_point(|&k| (k as usize) < before),
    }
}

/// `ExplainTrail::ne_base` of a variable without an `x ≠ v` entry indexed.
const NE_UNSEEN: u32 = u32::MAX;
/// `ExplainTrail::ne_base` of a variable whose `x ≠ v` entries have no
/// slots (found by reading its entries).
const NE_WIDE: u32 = u32::MAX - 1;
/// An empty slot of `ExplainTrail::ne_at`.
const NE_NONE: u32 = u32::MAX;
/// The widest declared bounds given slots.
const NE_SPAN: i64 = 4096;
/// The most slots in all (16 MB).
const NE_BUDGET: i64 = 1 << 22;

/// The trail's [`PastRead`]s, per variable. A lock, not a `RefCell`, so
/// that a store stays `Sync` (the declared domains are shared between
/// threads); it is never contended. A clone starts empty.
#[derive(Debug, Default)]
struct PastCache(std::sync::Mutex<Vec<Option<PastRead>>>);

impl Clone for PastCache {
    fn clone(&self) -> PastCache {
        PastCache::default()
    }
}

impl PastCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<PastRead>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get_mut(&mut self) -> &mut Vec<Option<PastRead>> {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner())
    }
}

/// A variable's [`Past`] as last read, kept by the trail
/// (`ExplainTrail::pasts`).
#[derive(Clone, Debug)]
struct PastRead {
    /// The number of the variable's entries read.
    n: u32,
    past: Past,
    /// Its first values, ascending, as [`History::values`] last listed
    /// them; `all`: every value.
    values: Vec<Value>,
    all: bool,
}

/// One variable's domain as of a point of the trail, from its entries
/// (see [`History::past`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Past {
    lo: Value,
    hi: Value,
    gone: Gone,
}

/// The values a variable's entries removed one by one.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Gone {
    /// As bits from `base` on, when the declared domain spans at most
    /// [`Gone::DENSE`] values (a lazy reason reads one per variable of its
    /// scope: setting a bit per entry beats sorting the values).
    Bits {
        base: Value,
        words: smallvec::SmallVec<[u64; 4]>,
    },
    /// Sorted (inline up to 32), for wider domains.
    Sorted(smallvec::SmallVec<[Value; 32]>),
}

impl Gone {
    const DENSE: i64 = 4096;

    #[inline]
    fn has(&self, v: Value) -> bool {
        match self {
            Gone::Bits { base, words } => {
                let d = (v as i64 - *base as i64) as u64;
                words
                    .get((d / 64) as usize)
                    .is_some_and(|w| w >> (d % 64) & 1 != 0)
            }
            Gone::Sorted(gone) => gone.binary_search(&v).is_ok(),
        }
    }
}

impl Past {
    /// Is `v` in the domain (variable `i` of `root`)?
    #[inline]
    pub(crate) fn admits(&self, root: &DomainStore, i: usize, v: Value) -> bool {
        self.lo <= v && v <= self.hi && root.contains(i, v) && !self.gone.has(v)
    }

    /// The domain's bounds, past the values removed one by one (`None`
    /// when it is empty).
    pub(crate) fn bounds(&self, root: &DomainStore, i: usize) -> Option<(Value, Value)> {
        let mut a = Some(self.lo).filter(|&a| a <= self.hi);
        while let Some(v) = a.filter(|&v| v <= self.hi && !self.admits(root, i, v)) {
            a = root.next_above(i, v);
        }
        let mut b = Some(self.hi).filter(|&b| b >= self.lo);
        while let Some(v) = b.filter(|&v| v >= self.lo && !self.admits(root, i, v)) {
            b = root.next_below(i, v);
        }
        match (a, b) {
            (Some(a), Some(b)) if a <= b => Some((a, b)),
            _ => None,
        }
    }
}

/// The trail as of one position: what the domains were just before entry
/// `at` (or now, with `at` the trail's length).
#[derive(Clone, Copy, Debug)]
pub struct History<'a> {
    pub(crate) root: &'a DomainStore,
    pub(crate) trail: &'a ExplainTrail,
    pub(crate) at: usize,
}

impl<'a> History<'a> {
    /// The same trail as of position `at`.
    pub fn at(self, at: usize) -> History<'a> {
        History { at, ..self }
    }

    /// The position this history reads at.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Is `v` in `x`'s domain at this point?
    pub fn contains(&self, x: VarId, v: Value) -> bool {
        self.root.contains(x.index(), v)
            && self
                .trail
                .entries_of(x, self.at)
                .all(|k| self.trail.entries[k].lit().admits(v))
    }

    /// What `x`'s entries before this point say, read in one pass: the
    /// bounds their literals set and the values they removed one by one
    /// (sorted), so that the domain's values can then be listed without
    /// reading the entries again for each (`contains` reads them all).
    pub(crate) fn past(&self, x: VarId) -> Past {
        let n = self.trail.count_of(x, self.at) as u32;
        self.past_in(&mut self.trail.pasts.lock(), x, n)
            .past
            .clone()
    }

    /// `x`'s slot of the trail's past domains, holding its past with `n`
    /// entries read (made anew, its values not listed, unless it held it).
    fn past_in<'p>(
        &self,
        pasts: &'p mut Vec<Option<PastRead>>,
        x: VarId,
        n: u32,
    ) -> &'p mut PastRead {
        let i = x.index();
        if pasts.len() <= i {
            pasts.resize(self.trail.of_var.len().max(i + 1), None);
        }
        let slot = &mut pasts[i];
        match slot {
            Some(read) if read.n == n => {
                // The tests check every hit against the entries read anew.
                debug_assert_eq!(read.past, self.read_past(x), "the cached past of {x:?}");
            }
            _ => {
                *slot = Some(PastRead {
                    n,
                    past: self.read_past(x),
                    values: Vec::new(),
                    all: false,
                })
            }
        }
        slot.as_mut().expect("filled above")
    }

    /// [`past`](Self::past), read from the entries.
    fn read_past(&self, x: VarId) -> Past {
        let i = x.index();
        let (mut lo, mut hi) = (self.root.min(i), self.root.max(i));
        let span = hi as i64 - lo as i64 + 1;
        let mut gone = if span <= Gone::DENSE {
            Gone::Bits {
                base: lo,
                words: smallvec::smallvec![0; (span as usize).div_ceil(64)],
            }
        } else {
            Gone::Sorted(smallvec::SmallVec::new())
        };
        for k in self.trail.entries_of(x, self.at) {
            match self.trail.entries[k].lit() {
                Literal::Eq(_, v) => {
                    lo = lo.max(v);
                    hi = hi.min(v);
                }
                Literal::Ge(_, v) => lo = lo.max(v),
                Literal::Le(_, v) => hi = hi.min(v),
                Literal::Ne(_, v) => match &mut gone {
                    Gone::Bits { base, words } => {
                        // Entries name values of the declared domain.
                        let d = (v as i64 - *base as i64) as u64;
                        if let Some(w) = words.get_mut((d / 64) as usize) {
                            *w |= 1 << (d % 64);
                        }
                    }
                    Gone::Sorted(g) => g.push(v),
                },
            }
        }
        if let Gone::Sorted(g) = &mut gone {
            g.sort_unstable();
        }
        Past { lo, hi, gone }
    }

    /// The bounds `(min, max)` of `x`'s domain at this point (`None` if it
    /// was empty, which a consistent trail never shows).
    pub fn bounds(&self, x: VarId) -> Option<(Value, Value)> {
        self.past(x).bounds(self.root, x.index())
    }

    /// The values of `x`'s domain at this point, ascending (at most `cap`
    /// of them).
    pub fn values(&self, x: VarId, cap: usize) -> Vec<Value> {
        let i = x.index();
        let n = self.trail.count_of(x, self.at) as u32;
        let mut pasts = self.trail.pasts.lock();
        let read = self.past_in(&mut pasts, x, n);
        if read.all || read.values.len() >= cap {
            let out = read.values[..cap.min(read.values.len())].to_vec();
            #[cfg(debug_assertions)]
            {
                let mut fresh = Vec::new();
                let mut v = Some(self.root.min(i));
                while let Some(u) = v.filter(|_| fresh.len() < cap) {
                    if read.past.admits(self.root, i, u) {
                        fresh.push(u);
                    }
                    v = self.root.next_above(i, u);
                }
                assert_eq!(out, fresh, "the cached values of {x:?}");
            }
            return out;
        }
        let past = &read.past;
        let mut out = Vec::new();
        let mut all = true;
        if let Some((lo, hi)) = past.bounds(self.root, i) {
            let mut v = Some(lo);
            while let Some(u) = v.filter(|&u| u <= hi) {
                if past.admits(self.root, i, u) {
                    if out.len() >= cap {
                        all = false;
                        break;
                    }
                    out.push(u);
                }
                v = self.root.next_above(i, u);
            }
        }
        read.values.clone_from(&out);
        read.all = all;
        out
    }

    /// Does `lit` hold at this point (every value left admits it)?
    pub fn holds(&self, lit: Literal) -> bool {
        let x = lit.var();
        let Some((lo, hi)) = self.bounds(x) else {
            return true;
        };
        match lit {
            Literal::Ge(_, v) => lo >= v,
            Literal::Le(_, v) => hi <= v,
            Literal::Eq(_, v) => lo == v && hi == v,
            Literal::Ne(_, v) => !self.contains(x, v),
        }
    }

    /// Literals that describe `x`'s domain at this point: `x = v` when
    /// fixed, else its bounds and the holes between them (the holes are
    /// listed up to `cap` values of span).
    pub fn domain_literals(&self, x: VarId, out: &mut Vec<Literal>) {
        let Some((lo, hi)) = self.bounds(x) else {
            return;
        };
        if lo == hi {
            out.push(Literal::Eq(x, lo));
            return;
        }
        let (dlo, dhi) = (self.root.min(x.index()), self.root.max(x.index()));
        if lo > dlo {
            out.push(Literal::Ge(x, lo));
        }
        if hi < dhi {
            out.push(Literal::Le(x, hi));
        }
        // Holes: values of the declared domain between the bounds that are gone.
        let past = self.past(x);
        let mut v = self.root.next_above(x.index(), lo);
        while let Some(u) = v.filter(|&u| u < hi) {
            if !past.admits(self.root, x.index(), u) {
                out.push(Literal::Ne(x, u));
            }
            v = self.root.next_above(x.index(), u);
        }
    }

    /// The first position at which `lit` holds (0: it held in the declared
    /// domain), or `None` if it does not hold at this point.
    pub fn since(&self, lit: Literal) -> Option<usize> {
        if !self.holds(lit) {
            return None;
        }
        // The entries of the variable, oldest first; the literal became true
        // just after one of them (or held from the start).
        let mut ks: Vec<usize> = self.trail.entries_of(lit.var(), self.at).collect();
        ks.reverse();
        if self.at(0).holds(lit) {
            return Some(0);
        }
        ks.into_iter()
            .map(|k| k + 1)
            .find(|&k| self.at(k).holds(lit))
    }

    /// The entries of `lit`'s variable before this point whose literal
    /// excludes some value that `lit` excludes, among the values the
    /// declared domain has: together with the declared domain they imply
    /// `lit` whenever it holds here.
    pub fn supports(&self, lit: Literal) -> Vec<usize> {
        let mut out = Vec::new();
        self.supports_into(lit, &mut out);
        out
    }

    /// [`supports`](Self::supports), appended to `out` (no allocation:
    /// the learning search's analysis calls it once per premise). On a
    /// variable whose declared domain has no gap and whose removals are
    /// indexed, the support is the *earliest* one, the same wherever on
    /// the trail after it `lit` is read: its newest entry is the one after
    /// which `lit` first held (see [`earliest_into`](Self::earliest_into));
    /// elsewhere it may name later entries (every entry that excludes a
    /// value `lit` excludes).
    pub(crate) fn supports_into(&self, lit: Literal, out: &mut Vec<usize>) {
        let x = lit.var();
        // A bound in a gap of the declared domain, weakened to the gap's
        // edge (`x ≥ 1024` over the squares is `x ≥ 962`), so that an entry
        // `x ≥ 1000` implies it alone.
        let lit = weakest(self.root, lit);
        // The oldest entry that implies `lit` alone (`x = 4` explains
        // `x ≠ 3` without the values removed before it), unless entries
        // older than it made `lit` true together: `x ≥ 5` after removals
        // of 3 and 4, and only later `x ≥ 7`.
        let i = x.index();
        if held_at_root(self.root, lit) {
            // The declared domain implies it: no entry.
            return;
        }
        let single = self.trail.oldest_implying(lit, self.at);
        let start = out.len();
        let (dlo, dhi) = (self.root.min(i) as i64, self.root.max(i) as i64);
        let gapless = self.root.size(i) as i64 == dhi - dlo + 1;
        // Debug builds check that the support is the earliest where it
        // must be.
        let earliest =
            |out: &[usize]| !gapless || !self.trail.ne_indexed(i) || self.first_held(lit, out);
        if gapless && self.earliest_into(lit, single, out) {
            debug_assert!(self.jointly_imply(&out[start..], lit), "{lit:?}");
            debug_assert!(earliest(&out[start..]), "{lit:?}");
            return;
        }
        if let Some(k) = single {
            debug_assert!(implies(self.trail.entries[k].lit(), lit));
            debug_assert!(earliest(&[k]), "{lit:?}");
            out.push(k);
            return;
        }
        if gapless {
            // No gap in the declared domain (most): the values `lit`
            // excludes, as two ranges within the declared bounds, are read
            // once, and each entry's literal is tested against them from
            // its packed form, not decoded and ranged again per entry.
            let ranges = excluded(lit, dlo, dhi).map(|(a, b)| (a.max(dlo), b.min(dhi)));
            for k in self.trail.entries_of(x, self.at) {
                let e = &self.trail.entries[k];
                let hit = e.excludes_any(&ranges);
                debug_assert_eq!(hit, excludes_some(self.root, e.lit(), lit));
                if hit {
                    out.push(k);
                }
            }
        } else {
            for k in self.trail.entries_of(x, self.at) {
                let e = self.trail.entries[k].lit();
                if excludes_some(self.root, e, lit) {
                    out.push(k);
                }
            }
        }
        out[start..].reverse();
    }
}

/// The earliest support of one bound (see [`History::earliest_into`]).
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// One entry implies it.
    Single(usize),
    /// [`ExplainTrail::earliest_bound`]'s set.
    Set((usize, Option<usize>, Value)),
}

impl History<'_> {
    /// The earliest support of `lit` (on a variable whose declared domain
    /// has no gap) when it is a set of entries older than `single`, the
    /// oldest entry that implies `lit` alone (if any): for a bound, one
    /// bound entry and the removals between it and the bound
    /// ([`ExplainTrail::earliest_bound`]); for `x = u`, the earliest
    /// supports of its two bounds, each one entry or such a set; for `x ≠
    /// u`, that of `x ≥ u + 1` or `x ≤ u − 1`, whichever held first.
    /// Appends it to `out` and says whether it found one (else `out` is
    /// unchanged, and `single`, if any, is the earliest support).
    ///
    /// Earliest, so that a literal is read the same wherever it is read:
    /// the conflict analysis places a literal that several entries make
    /// true just after the newest of them, and resolves it there; read
    /// through a later single entry at one place and through older
    /// entries at another, it would sit at two places, and the walk could
    /// meet it again after resolving it. Taking every entry that excludes
    /// a value `lit` excludes instead (the fallback) brings every earlier
    /// bound entry and every removal below the last bound into the
    /// conflict analysis: each is resolved at the conflict level, or kept
    /// below it, and the nogood then names the premises of entries it
    /// does not need.
    fn earliest_into(&self, lit: Literal, single: Option<usize>, out: &mut Vec<usize>) -> bool {
        let t = self.trail;
        let x = lit.var().index();
        // Every entry of a set found must be older than `single`.
        let before = single.map_or(self.at, |k| k.min(self.at));
        match lit {
            Literal::Ge(_, v) | Literal::Le(_, v) => {
                let ge = matches!(lit, Literal::Ge(..));
                match t.earliest_bound(x, v, ge, before) {
                    Some(plan) => {
                        t.push_bound_support(x, v, ge, plan, out);
                        true
                    }
                    None => false,
                }
            }
            Literal::Eq(_, u) => {
                // The earliest support of each bound, before `before`.
                let plan = |ge: bool| -> Option<Plan> {
                    let b = if ge {
                        Literal::Ge(lit.var(), u)
                    } else {
                        Literal::Le(lit.var(), u)
                    };
                    let one = t.oldest_implying(b, before);
                    let set = t.earliest_bound(x, u, ge, one.unwrap_or(before));
                    set.map(Plan::Set).or(one.map(Plan::Single))
                };
                let (Some(lo), Some(hi)) = (plan(true), plan(false)) else {
                    return false;
                };
                for (ge, p) in [(true, lo), (false, hi)] {
                    match p {
                        Plan::Single(k) => out.push(k),
                        Plan::Set(set) => t.push_bound_support(x, u, ge, set, out),
                    }
                }
                true
            }
            // Never older than an entry that implies it alone (a set for
            // `x ≥ u + 1` removes `u` itself unless its bound entry does),
            // so looked for only when there is none.
            Literal::Ne(..) if single.is_some() => false,
            Literal::Ne(_, u) => {
                let above = u
                    .checked_add(1)
                    .and_then(|w| t.earliest_bound(x, w, true, before));
                let below = u
                    .checked_sub(1)
                    .and_then(|w| t.earliest_bound(x, w, false, before));
                match (above, below) {
                    (Some(a), Some(b)) if b.0 < a.0 => {
                        t.push_bound_support(x, u - 1, false, b, out)
                    }
                    (Some(a), _) => t.push_bound_support(x, u + 1, true, a, out),
                    (None, Some(b)) => t.push_bound_support(x, u - 1, false, b, out),
                    (None, None) => return false,
                }
                true
            }
        }
    }

    /// Did `lit` first hold just after the newest of `entries` (not
    /// before it)? For debug checks of [`supports_into`](Self::supports_into).
    fn first_held(&self, lit: Literal, entries: &[usize]) -> bool {
        let newest = entries.iter().copied().max().unwrap_or(0);
        !History {
            at: newest,
            ..*self
        }
        .holds(lit)
    }

    /// Do the literals of `entries` together exclude every declared value
    /// that `lit` excludes (so that they imply it)? For debug checks.
    fn jointly_imply(&self, entries: &[usize], lit: Literal) -> bool {
        let i = lit.var().index();
        let (dlo, dhi) = (self.root.min(i), self.root.max(i));
        (dlo..=dhi).all(|w| {
            let admits = |l: Literal| match l {
                Literal::Eq(_, v) => w == v,
                Literal::Ne(_, v) => w != v,
                Literal::Ge(_, v) => w >= v,
                Literal::Le(_, v) => w <= v,
            };
            admits(lit)
                || !self.root.contains(i, w)
                || entries
                    .iter()
                    .any(|&k| !admits(self.trail.entries[k].lit()))
        })
    }
}

/// Does `lit` hold in the declared domains (`root`)?
#[inline]
fn held_at_root(root: &DomainStore, lit: Literal) -> bool {
    let i = lit.var().index();
    match lit {
        Literal::Ge(_, v) => root.min(i) >= v,
        Literal::Le(_, v) => root.max(i) <= v,
        Literal::Eq(_, v) => root.min(i) == v && root.max(i) == v,
        Literal::Ne(_, v) => !root.contains(i, v),
    }
}

/// `lit`, a bound weakened to the edge of the declared domain's gap it
/// falls in (`x ≥ u` is `x ≥ w + 1` for `w` the largest declared value
/// below `u`; `x ≤ u` alike): the same values of the declared domain.
fn weakest(root: &DomainStore, lit: Literal) -> Literal {
    let i = lit.var().index();
    let (dlo, dhi) = (root.min(i), root.max(i));
    if root.size(i) as i64 == dhi as i64 - dlo as i64 + 1 && (dlo..=dhi).contains(&lit.value()) {
        // No gap (most declared domains) and a bound inside them: nothing
        // to weaken, and no search of a large domain's words for the
        // neighbours.
        return lit;
    }
    match lit {
        Literal::Ge(x, u) => match root.next_below(i, u) {
            Some(w) if w < u - 1 => Literal::Ge(x, w + 1),
            _ => lit,
        },
        Literal::Le(x, u) => match root.next_above(i, u) {
            Some(w) if w > u + 1 => Literal::Le(x, w - 1),
            _ => lit,
        },
        _ => lit,
    }
}

/// Does `a` imply `b` (two literals on one variable) whatever the domain?
pub(crate) fn implies(a: Literal, b: Literal) -> bool {
    use Literal::*;
    match (a, b) {
        (Eq(_, v), Eq(_, u)) => v == u,
        (Eq(_, v), Ne(_, u)) => v != u,
        (Eq(_, v), Ge(_, u)) => v >= u,
        (Eq(_, v), Le(_, u)) => v <= u,
        (Ne(_, v), Ne(_, u)) => v == u,
        (Ge(_, v), Ge(_, u)) => v >= u,
        (Ge(_, v), Ne(_, u)) => u < v,
        (Le(_, v), Le(_, u)) => v <= u,
        (Le(_, v), Ne(_, u)) => u > v,
        _ => false,
    }
}

/// The values `l` excludes from a variable declared over `dlo..=dhi`, as
/// at most two ranges (an empty range is `(1, 0)`).
fn excluded(l: Literal, dlo: i64, dhi: i64) -> [(i64, i64); 2] {
    let v = l.value() as i64;
    match l {
        Literal::Ne(..) => [(v, v), (1, 0)],
        Literal::Eq(..) => [(dlo, v - 1), (v + 1, dhi)],
        Literal::Ge(..) => [(dlo, v - 1), (1, 0)],
        Literal::Le(..) => [(v + 1, dhi), (1, 0)],
    }
}

/// Is there a declared value of `lit`'s variable that `lit` excludes and `e`
/// excludes too (so that `e` helps make `lit` true)?
fn excludes_some(root: &DomainStore, e: Literal, lit: Literal) -> bool {
    let i = lit.var().index();
    let (dlo, dhi) = (root.min(i) as i64, root.max(i) as i64);
    let gapless = root.size(i) as i64 == dhi - dlo + 1;
    let (ranges, excl) = (excluded(lit, dlo, dhi), excluded(e, dlo, dhi));
    for &(a, b) in &ranges {
        for &(c, d) in &excl {
            let (lo, hi) = (a.max(c).max(dlo), b.min(d).min(dhi));
            if lo > hi {
                continue;
            }
            // A declared value in lo..=hi? (Any, when the declared
            // domain has no gap: the range is within its bounds.)
            if gapless {
                return true;
            }
            let from = (lo - 1).clamp(i32::MIN as i64 - 1, i32::MAX as i64);
            let first = if from < i32::MIN as i64 {
                Some(root.min(i))
            } else {
                root.next_above(i, from as Value)
            };
            if first.is_some_and(|u| (u as i64) <= hi) {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    //! [`History::supports`] against a brute force over the declared
    //! values, on random consistent trails cut back at random: the shortcuts
    //! (the per-value index of `x ≠ v` entries, the packed test of each
    //! entry against a gapless domain) must give the same entries.
    use super::*;
    use crate::domain::Domain;
    use std::collections::BTreeSet;
    use std::sync::Arc;

    /// A small deterministic generator (no dependency for one test).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// The earliest support of a bound by definition, on a gapless
    /// declared domain: over every bound entry before `at` (and the
    /// declared bound), the entry with the first removal `x ≠ w` of each
    /// value from its bound to `v`, when all are there; the one whose
    /// newest entry is oldest, ties to the tightest bound. `None` when
    /// there is none. Returns its time and entries.
    fn brute_bound(
        root: &DomainStore,
        trail: &ExplainTrail,
        at: usize,
        x: usize,
        v: Value,
        ge: bool,
    ) -> Option<(usize, Vec<usize>)> {
        let ks: Vec<usize> = (0..at)
            .filter(|&k| trail.entries[k].var_index() == x)
            .collect();
        let lit = if ge {
            Literal::Ge(crate::ids::VarId(x as u32), v)
        } else {
            Literal::Le(crate::ids::VarId(x as u32), v)
        };
        // The oldest entry that implies it alone, unless a set is older.
        let single = ks
            .iter()
            .copied()
            .find(|&k| implies(trail.entries[k].lit(), lit));
        let removal = |w: Value| {
            ks.iter()
                .copied()
                .find(|&k| trail.entries[k].lit() == Literal::Ne(lit.var(), w))
        };
        let declared = if ge { root.min(x) } else { root.max(x) };
        let mut candidates: Vec<(Option<usize>, Value)> = vec![(None, declared)];
        for &k in &ks {
            let (l, b) = (trail.entries[k].lit(), trail.entries[k].value);
            let bound = match l {
                Literal::Eq(..) => true,
                Literal::Ge(..) => ge,
                Literal::Le(..) => !ge,
                Literal::Ne(..) => false,
            };
            if bound {
                candidates.push((Some(k), b));
            }
        }
        let mut best: Option<(usize, Value, Vec<usize>)> = None;
        for (k, b) in candidates {
            let range: Vec<Value> = if ge {
                (b..v).collect()
            } else {
                (v as i64 + 1..=b as i64).map(|w| w as Value).collect()
            };
            let Some(mut set) = range
                .iter()
                .map(|&w| removal(w))
                .collect::<Option<Vec<usize>>>()
            else {
                continue;
            };
            set.extend(k);
            let Some(&t) = set.iter().max() else {
                continue;
            };
            let tighter = |bb: Value| if ge { b > bb } else { b < bb };
            if best
                .as_ref()
                .is_none_or(|(bt, bb, _)| t < *bt || (t == *bt && tighter(*bb)))
            {
                best = Some((t, b, set));
            }
        }
        match best {
            Some((t, _, set)) if single.is_none_or(|k| t < k) => Some((t, set)),
            _ => single.map(|k| (k, vec![k])),
        }
    }

    /// The support of `lit` by definition: nothing when every declared
    /// value admits it; else, on a gapless declared domain of at most
    /// `NE_SPAN` values, the earliest support (the one whose newest entry
    /// is oldest, one entry implying `lit` on its own winning ties; for
    /// each bound by [`brute_bound`]); else the oldest entry of its
    /// variable before `at` whose literal implies `lit` (weakened to the
    /// declared domain's gaps) on its own; else every entry that excludes
    /// a declared value `lit` excludes, by enumerating those values.
    /// Sorted.
    fn brute(root: &DomainStore, trail: &ExplainTrail, at: usize, lit: Literal) -> Vec<usize> {
        let x = lit.var();
        let mut declared = Vec::new();
        root.values_into(x.index(), &mut declared);
        if declared.iter().all(|&v| lit.admits(v)) {
            return Vec::new();
        }
        let ks: Vec<usize> = (0..at)
            .filter(|&k| trail.entries[k].var_index() == x.index())
            .collect();
        let w = weakest(root, lit);
        let single = ks
            .iter()
            .copied()
            .find(|&k| implies(trail.entries[k].lit(), w));
        let i = x.index();
        let (dlo, dhi) = (root.min(i) as i64, root.max(i) as i64);
        if root.size(i) as i64 == dhi - dlo + 1 && dhi - dlo < NE_SPAN {
            let earliest = match lit {
                Literal::Ge(_, v) => brute_bound(root, trail, at, i, v, true),
                Literal::Le(_, v) => brute_bound(root, trail, at, i, v, false),
                Literal::Eq(_, v) => brute_bound(root, trail, at, i, v, true)
                    .zip(brute_bound(root, trail, at, i, v, false))
                    .map(|((ta, a), (tb, b))| (ta.max(tb), [a, b].concat())),
                Literal::Ne(_, u) => {
                    let a = u
                        .checked_add(1)
                        .and_then(|w| brute_bound(root, trail, at, i, w, true));
                    let b = u
                        .checked_sub(1)
                        .and_then(|w| brute_bound(root, trail, at, i, w, false));
                    match (a, b) {
                        (Some(a), Some(b)) if b.0 < a.0 => Some(b),
                        (Some(a), _) => Some(a),
                        (None, b) => b,
                    }
                }
            };
            if let Some((t, mut s)) = earliest {
                if single.is_none_or(|k| t < k) {
                    s.sort_unstable();
                    s.dedup();
                    return s;
                }
            }
        }
        if let Some(k) = single {
            return vec![k];
        }
        ks.into_iter()
            .filter(|&k| {
                let e = trail.entries[k].lit();
                declared.iter().any(|&v| !lit.admits(v) && !e.admits(v))
            })
            .collect()
    }

    #[test]
    fn supports_match_the_brute_force() {
        let domains = [
            Domain::range(0, 40),                                       // small, gapless
            Domain::values([0, 1, 3, 4, 5, 9, 10, 11, 15, 20, 21, 22]), // gaps
            Domain::range(-50, 250),                                    // large, indexed
            Domain::range(0, 9000), // wider than the index takes
            // At the ends of `i32`: a bound's support reaches the
            // declared bound (the step past it overflowed).
            Domain::range(Value::MIN, Value::MIN + 40),
            Domain::range(Value::MAX - 40, Value::MAX),
        ];
        let root = DomainStore::new(&domains, &[0, 1, 2, 3, 4, 5]);
        let n = domains.len();
        let mut checked = 0usize;
        for seed in 0..12u64 {
            let mut rng = Rng(seed * 7919 + 1);
            let mut trail = ExplainTrail::new(n);
            trail.root = Some(Arc::new(root.clone()));
            let mut doms: Vec<BTreeSet<Value>> = domains
                .iter()
                .map(|d| d.iter().collect::<BTreeSet<Value>>())
                .collect();
            let mut saved: Vec<Vec<BTreeSet<Value>>> = Vec::new();
            for step in 0..400 {
                let r = rng.below(100);
                if r < 10 {
                    saved.push(doms.clone());
                    trail.push_mark();
                } else if r < 15 && !saved.is_empty() {
                    let level = rng.below(saved.len());
                    trail.undo_to(level, false);
                    doms = saved[level].clone();
                    saved.truncate(level);
                } else if r < 35 {
                    trail.chain();
                } else {
                    let i = rng.below(n);
                    let d = &doms[i];
                    if d.len() < 2 {
                        continue;
                    }
                    let vals: Vec<Value> = d.iter().copied().collect();
                    let (lo, hi) = (vals[0], vals[vals.len() - 1]);
                    let x = crate::ids::VarId(i as u32);
                    let lit = match rng.below(10) {
                        0..=5 => Literal::Ne(x, vals[rng.below(vals.len())]),
                        6 => Literal::Ge(x, lo + 1 + rng.below((hi - lo) as usize) as Value),
                        7 => Literal::Le(x, hi - 1 - rng.below((hi - lo) as usize) as Value),
                        _ if rng.below(4) == 0 => Literal::Eq(x, vals[rng.below(vals.len())]),
                        _ => continue,
                    };
                    doms[i].retain(|&v| lit.admits(v));
                    trail.push_as(lit, Cause::Decision, saved.len());
                }
                if step % 50 != 49 {
                    continue;
                }
                trail.chain();
                let len = trail.entries.len();
                for at in (0..=len).step_by(1 + len / 40) {
                    let h = History {
                        root: &root,
                        trail: &trail,
                        at,
                    };
                    for i in 0..n {
                        let x = crate::ids::VarId(i as u32);
                        let (dlo, dhi) = (root.min(i) as i64, root.max(i) as i64);
                        let mut values: Vec<Value> = (0..12)
                            .map(|_| dlo - 1 + rng.below((dhi - dlo + 3) as usize) as i64)
                            .chain([dlo - 1, dlo, dhi, dhi + 1])
                            .filter_map(|v| Value::try_from(v).ok())
                            .collect();
                        values.extend(
                            (0..at)
                                .filter(|&k| trail.entries[k].var_index() == i)
                                .map(|k| trail.entries[k].value),
                        );
                        for v in values {
                            for lit in [
                                Literal::Ne(x, v),
                                Literal::Ge(x, v),
                                Literal::Le(x, v),
                                Literal::Eq(x, v),
                            ] {
                                let mut got = h.supports(lit);
                                got.sort_unstable();
                                assert_eq!(
                                    got,
                                    brute(&root, &trail, at, lit),
                                    "seed {seed}, step {step}, at {at}, {lit:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} supports checked");
    }
}
