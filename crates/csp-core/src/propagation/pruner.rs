//! The [`Pruner`]: the only way a propagator reads and changes domains,
//! and the reasons every change carries.
//!
//! Every method that narrows a domain takes a reason ([`Because`]): the
//! literals that were true before the change and, with the constraint,
//! imply it. A reason costs nothing unless the search explains
//! ([`SearchOptions::explain`](crate::SearchOptions::explain)): a closure is
//! only called then, and only when the change happens. Three kinds:
//! * **eager**: a [`Literal`], or a closure that pushes the premises
//!   (`|r| r.push(Literal::Eq(y, 3))`), read from the domains at the time;
//! * **lazy**: [`Why::Lazy`]`(code)`, which the propagator turns into
//!   premises when someone asks ([`Propagator::explain`](super::Propagator::explain));
//! * **the fallback** [`Why::Scope`]: the domains of the propagator's scope
//!   just before the change. Correct for any sound propagator (a value it
//!   removes has no support given the other domains), but weak: use it
//!   only where nothing sharper is known.
//!
//! [`Why::Constraint`] says the constraint alone implies the change (a
//! unary constraint at the root).
//!
//! A propagator that finds a failure without a write returns
//! `Err(pruner.fail(reason))`, the reason being literals that are true now
//! and, with the constraint, cannot all hold. A bare `Err(Conflict)` gets
//! the fallback.

use std::fmt;

use crate::domain::explained::{Cause, Failure, History, How};
use crate::domain::{Conflict, DomainStore};
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{StateInt, StateWords};

/// A reason that is not a list of premises (see [`Because`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The fallback: the domains of the propagator's scope before the change.
    Scope,
    /// The bounds of the propagator's scope before the change: the reason
    /// of a propagator that reads only bounds (arithmetic, sums, ordering).
    /// Expanded when asked, so it costs nothing up front.
    Bounds,
    /// A code that [`Propagator::explain`](super::Propagator::explain) turns
    /// into premises on demand.
    Lazy(u64),
    /// The constraint alone implies the change (no premise).
    Constraint,
}

/// A reason given with a domain change: a [`Literal`], a closure that
/// pushes premises (`|r: &mut Premises| r.push(..)`), or a [`Why`].
pub trait Because {
    /// Pushes the premises onto `out` and returns `None` (an eager reason),
    /// or returns the [`Why`] that stands for them.
    fn premises(self, out: &mut Premises<'_>) -> Option<Why>;

    /// The reason when it is one literal known without reading the
    /// domains: recorded in the cause itself, without a premise list.
    #[doc(hidden)]
    #[inline(always)]
    fn single(&self) -> Option<Literal> {
        None
    }
}

impl Because for Why {
    #[inline]
    fn premises(self, _out: &mut Premises<'_>) -> Option<Why> {
        match self {
            Why::Constraint => None,
            w => Some(w),
        }
    }
}

impl Because for Literal {
    #[inline]
    fn premises(self, out: &mut Premises<'_>) -> Option<Why> {
        out.push(self);
        None
    }

    #[inline(always)]
    fn single(&self) -> Option<Literal> {
        Some(*self)
    }
}

impl<F: FnOnce(&mut Premises<'_>)> Because for F {
    #[inline]
    fn premises(self, out: &mut Premises<'_>) -> Option<Why> {
        self(out);
        None
    }
}

/// The premises of an eager reason being written, with the domains as they
/// are before the change (a closure reason reads them here: the [`Pruner`]
/// itself is busy making the change).
///
/// ```
/// # use csp_core::{Literal, VarId};
/// # use csp_core::propagation::Premises;
/// // A reason for `x ≤ c − min(y)` in `x + y ≤ c`:
/// let y = VarId::from_index(1);
/// let reason = move |r: &mut Premises| r.at_least(y);
/// # let _ = reason;
/// ```
pub struct Premises<'a> {
    out: &'a mut Vec<Literal>,
    store: &'a DomainStore,
    /// The declared domains: values never in them need no literal.
    root: Option<&'a DomainStore>,
}

impl fmt::Debug for Premises<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.out.iter()).finish()
    }
}

impl Premises<'_> {
    /// Adds a premise.
    #[inline]
    pub fn push(&mut self, lit: Literal) {
        self.out.push(lit);
    }

    /// Adds `y ≥ min(y)` (its current minimum).
    pub fn at_least(&mut self, y: VarId) {
        self.out.push(Literal::Ge(y, self.store.min(y.index())));
    }

    /// Adds `y ≤ max(y)` (its current maximum).
    pub fn at_most(&mut self, y: VarId) {
        self.out.push(Literal::Le(y, self.store.max(y.index())));
    }

    /// Adds `y = v` for a fixed `y` (its bounds when it is not fixed).
    pub fn fixed(&mut self, y: VarId) {
        let i = y.index();
        if self.store.is_open(i) {
            self.at_least(y);
            self.at_most(y);
        } else {
            self.out.push(Literal::Eq(y, self.store.min(i)));
        }
    }

    /// Adds literals that state `y`'s whole current domain: `y = v` when
    /// fixed, else its bounds and each value of the declared domain missing
    /// between them.
    pub fn domain(&mut self, y: VarId) {
        self.domain_within(y, |_| false);
    }

    /// Like [`domain`](Self::domain), but leaves out the missing values for
    /// which `spare` is true (values the reason does not need excluded).
    pub fn domain_within(&mut self, y: VarId, spare: impl Fn(Value) -> bool) {
        let i = y.index();
        if !self.store.is_open(i) {
            self.out.push(Literal::Eq(y, self.store.min(i)));
            return;
        }
        let (lo, hi) = (self.store.min(i), self.store.max(i));
        self.out.push(Literal::Ge(y, lo));
        self.out.push(Literal::Le(y, hi));
        // The values that could be missing: those of the declared domain
        // (every value between the bounds without it).
        let next = |u: Value| match self.root {
            Some(declared) => declared.next_above(i, u),
            None => u.checked_add(1),
        };
        let mut v = next(lo);
        while let Some(u) = v.filter(|&u| u < hi) {
            if !self.store.contains(i, u) && !spare(u) {
                self.out.push(Literal::Ne(y, u));
            }
            v = next(u);
        }
    }

    /// Is `v` in `y`'s declared domain (the domain it was created with)?
    /// `true` when the declared domains are not known. A value outside it
    /// needs no premise: `y ≠ v` is a fact.
    #[inline]
    pub fn declared(&self, y: VarId, v: Value) -> bool {
        self.root.is_none_or(|d| d.contains(y.index(), v))
    }

    /// The current minimum of `y`.
    #[inline]
    pub fn min(&self, y: VarId) -> Value {
        self.store.min(y.index())
    }

    /// The current maximum of `y`.
    #[inline]
    pub fn max(&self, y: VarId) -> Value {
        self.store.max(y.index())
    }

    /// Is `v` in `y`'s domain?
    #[inline]
    pub fn contains(&self, y: VarId, v: Value) -> bool {
        self.store.contains(y.index(), v)
    }

    /// The smallest value `> after` in `y`'s domain.
    #[inline]
    pub fn next_above(&self, y: VarId, after: Value) -> Option<Value> {
        self.store.next_above(y.index(), after)
    }

    /// `y`'s value if it is fixed.
    #[inline]
    pub fn value(&self, y: VarId) -> Option<Value> {
        let i = y.index();
        (!self.store.is_open(i)).then(|| self.store.min(i))
    }
}

/// The only way to read and change domains during search.
///
/// Every change goes through the domain store and is recorded on its trail,
/// so backtracking restores it. A change that empties a domain returns
/// `Err(Conflict)`, which a constraint passes on with `?`.
pub struct Pruner<'a> {
    pub(crate) store: &'a mut DomainStore,
    /// The running propagator (`u32::MAX` outside propagation).
    pub(crate) prop: u32,
    /// Set by [`Pruner::entail`].
    pub(crate) entailed: bool,
    /// The store's explaining mode, read once: a write tests this copy,
    /// which no domain change can alias, instead of reloading the store's.
    explaining: bool,
}

impl fmt::Debug for Pruner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pruner").finish_non_exhaustive()
    }
}

impl<'a> Pruner<'a> {
    #[inline]
    pub(crate) fn new(store: &'a mut DomainStore, prop: u32) -> Pruner<'a> {
        let explaining = store.explaining;
        Pruner {
            store,
            prop,
            entailed: false,
            explaining,
        }
    }

    /// Does the search record reasons (explaining mode)? A propagator may
    /// skip work that only serves explanations when it does not.
    #[inline]
    pub fn explaining(&self) -> bool {
        self.explaining
    }

    /// A failure found without a write (for `return Err(pruner.fail(..))`):
    /// `because` lists literals true now that, with the constraint, cannot
    /// all hold.
    pub fn fail(&mut self, because: impl Because) -> Conflict {
        if self.explaining {
            let cause = self.cause_of(because);
            self.store.ex.failure = Some(Failure {
                prop: self.prop,
                var: None,
                cause,
            });
        }
        Conflict
    }

    /// The cause that `because` stands for (explaining mode).
    fn cause_of(&mut self, because: impl Because) -> Cause {
        if let Some(lit) = because.single() {
            return Cause::Propagated {
                prop: self.prop,
                how: How::One(lit),
            };
        }
        let mut list = std::mem::take(&mut self.store.ex.premises);
        let start = list.len();
        let store: &DomainStore = self.store;
        let why = because.premises(&mut Premises {
            out: &mut list,
            store,
            root: store.ex.root.as_deref(),
        });
        let end = list.len();
        self.store.ex.premises = list;
        let how = match why {
            None => How::Eager {
                start: start as u32,
                len: (end - start) as u32,
            },
            Some(Why::Scope) => How::Scope,
            Some(Why::Bounds) => How::Bounds,
            Some(Why::Lazy(code)) => How::Lazy(code),
            Some(Why::Constraint) => How::Eager {
                start: start as u32,
                len: 0,
            },
        };
        Cause::Propagated {
            prop: self.prop,
            how,
        }
    }

    /// Makes a change in explaining mode: records `because` as the cause
    /// of the literal `lit` (or, with `None`, of whatever the change
    /// removes from `x`), then writes.
    #[cold]
    #[inline(never)]
    fn explained<R>(
        &mut self,
        x: VarId,
        lit: Option<Literal>,
        because: impl Because,
        write: impl FnOnce(&mut DomainStore) -> Result<R, Conflict>,
    ) -> Result<R, Conflict> {
        let cause = self.cause_of(because);
        self.store.ex.cause = cause;
        self.store.ex.lit = lit;
        let r = write(self.store);
        self.store.ex.lit = None;
        self.store.ex.cause = Cause::UNEXPLAINED;
        if r.is_err() {
            self.store.ex.failure = Some(Failure {
                prop: self.prop,
                var: Some(x),
                cause,
            });
        }
        r
    }

    /// Number of values left in `x`'s domain (up to 2^32).
    #[inline]
    pub fn size(&self, x: VarId) -> u64 {
        self.store.size(x.index())
    }

    /// The value of a reversible integer (see
    /// [`Setup::new_int`](crate::propagation::Setup::new_int)).
    #[inline]
    pub fn get(&self, s: StateInt) -> i64 {
        self.store.word(s.0) as i64
    }

    /// Sets a reversible integer; backtracking restores its old value.
    #[inline]
    pub fn set(&mut self, s: StateInt, value: i64) {
        self.store.set_word(s.0, value as u64);
    }

    /// Word `k` of a block of reversible words.
    #[inline]
    pub fn state_word(&self, s: StateWords, k: usize) -> u64 {
        assert!(k < s.len, "state word {k} of a block of {}", s.len);
        self.store.word(s.first + k)
    }

    /// Sets word `k` of a block of reversible words.
    #[inline]
    pub fn set_state_word(&mut self, s: StateWords, k: usize, value: u64) {
        assert!(k < s.len, "state word {k} of a block of {}", s.len);
        self.store.set_word(s.first + k, value);
    }

    /// Declares the constraint entailed: it holds for every assignment of
    /// the current domains, so the propagator is not called again below
    /// this node (backtracking revives it).
    pub fn entail(&mut self) {
        self.entailed = true;
    }

    /// Smallest value of `x`'s domain.
    #[inline]
    pub fn min(&self, x: VarId) -> Value {
        self.store.min(x.index())
    }

    /// Largest value of `x`'s domain.
    #[inline]
    pub fn max(&self, x: VarId) -> Value {
        self.store.max(x.index())
    }

    /// Is `v` in `x`'s domain?
    #[inline]
    pub fn contains(&self, x: VarId, v: Value) -> bool {
        self.store.contains(x.index(), v)
    }

    /// Has `x` exactly one value left?
    #[inline]
    pub fn is_fixed(&self, x: VarId) -> bool {
        // No popcount: one value left is `bits & (bits − 1) == 0`.
        !self.store.is_open(x.index())
    }

    /// `x`'s value if it is fixed.
    #[inline]
    pub fn value(&self, x: VarId) -> Option<Value> {
        self.is_fixed(x).then(|| self.store.min(x.index()))
    }

    /// The values of `x`'s domain in ascending order (a snapshot: the domain may
    /// be changed while iterating).
    pub fn values(&self, x: VarId) -> DomainValues {
        let i = x.index();
        if self.store.is_small(i) {
            let (bits, base) = self.store.small_bits(i);
            DomainValues::Bits { bits, base }
        } else {
            let mut v = Vec::with_capacity(self.store.size(i).min(1 << 16) as usize);
            self.store.values_into(i, &mut v);
            DomainValues::List(v.into_iter())
        }
    }

    /// See [`PrunerWords::bits`](super::low_level::PrunerWords::bits).
    #[inline]
    pub(crate) fn bits(&self, x: VarId, base: Value, out: &mut [u64]) {
        // A loop, not `fill`: the slices are a few words, shorter than a
        // call to `memset`.
        for w in out.iter_mut() {
            *w = 0;
        }
        self.store.bits_into(x.index(), base, out);
    }

    /// The smallest value `> after` in `x`'s domain.
    pub fn next_above(&self, x: VarId, after: Value) -> Option<Value> {
        self.store.next_above(x.index(), after)
    }

    /// Removes `v` from `x`'s domain because of `because`; `Ok(true)` when
    /// it was there.
    #[inline(always)]
    pub fn remove(&mut self, x: VarId, v: Value, because: impl Because) -> Result<bool, Conflict> {
        if self.explaining {
            return self.remove_explained(x, v, because);
        }
        self.store.remove(x.index(), v)
    }

    #[cold]
    #[inline(never)]
    fn remove_explained(
        &mut self,
        x: VarId,
        v: Value,
        because: impl Because,
    ) -> Result<bool, Conflict> {
        if !self.store.contains(x.index(), v) {
            return Ok(false);
        }
        let lit = Literal::Ne(x, v);
        self.explained(x, Some(lit), because, |s| s.remove(x.index(), v))
    }

    /// Reduces `x`'s domain to `{v}` because of `because` (a conflict if
    /// `v` is not in it).
    #[inline(always)]
    pub fn fix(&mut self, x: VarId, v: Value, because: impl Because) -> Result<(), Conflict> {
        if self.explaining {
            return self.fix_explained(x, v, because);
        }
        self.store.fix(x.index(), v)
    }

    #[cold]
    #[inline(never)]
    fn fix_explained(&mut self, x: VarId, v: Value, because: impl Because) -> Result<(), Conflict> {
        let i = x.index();
        if self.store.contains(i, v) && !self.store.is_open(i) {
            return Ok(());
        }
        let lit = Literal::Eq(x, v);
        self.explained(x, Some(lit), because, |s| s.fix(i, v))
    }

    /// Removes the values below `v` because of `because`.
    #[inline(always)]
    pub fn set_min(&mut self, x: VarId, v: Value, because: impl Because) -> Result<bool, Conflict> {
        if self.explaining {
            return self.bound_explained(Literal::Ge(x, v), because);
        }
        self.store.set_min(x.index(), v)
    }

    /// Removes the values above `v` because of `because`.
    #[inline(always)]
    pub fn set_max(&mut self, x: VarId, v: Value, because: impl Because) -> Result<bool, Conflict> {
        if self.explaining {
            return self.bound_explained(Literal::Le(x, v), because);
        }
        self.store.set_max(x.index(), v)
    }

    /// A bound change (`lit` is `x ≥ v` or `x ≤ v`) in explaining mode.
    #[cold]
    #[inline(never)]
    fn bound_explained(&mut self, lit: Literal, because: impl Because) -> Result<bool, Conflict> {
        let (x, i) = (lit.var(), lit.var().index());
        match lit {
            Literal::Ge(_, v) if v > self.store.min(i) => {
                self.explained(x, Some(lit), because, |s| s.set_min(i, v))
            }
            Literal::Le(_, v) if v < self.store.max(i) => {
                self.explained(x, Some(lit), because, |s| s.set_max(i, v))
            }
            _ => Ok(false),
        }
    }

    /// Keeps the values for which `keep` is true, because of `because`
    /// (which explains every value removed); `Ok(true)` if any went.
    pub fn retain(
        &mut self,
        x: VarId,
        keep: impl FnMut(Value) -> bool,
        because: impl Because,
    ) -> Result<bool, Conflict> {
        if self.explaining {
            return self.explained(x, None, because, |s| retain_in(s, x, keep));
        }
        retain_in(self.store, x, keep)
    }
    /// See [`PrunerWords::word`](super::low_level::PrunerWords::word).
    #[inline]
    pub(crate) fn word(&self, x: VarId) -> Option<(u64, Value)> {
        let i = x.index();
        self.store.is_small(i).then(|| self.store.small_bits(i))
    }

    /// See [`PrunerWords::retain_word`](super::low_level::PrunerWords::retain_word).
    #[inline(always)]
    pub(crate) fn retain_word(
        &mut self,
        x: VarId,
        mask: u64,
        because: impl Because,
    ) -> Result<bool, Conflict> {
        if self.explaining {
            return self.retain_word_explained(x, mask, because);
        }
        self.store.retain_small_mask(x.index(), mask)
    }

    #[cold]
    #[inline(never)]
    fn retain_word_explained(
        &mut self,
        x: VarId,
        mask: u64,
        because: impl Because,
    ) -> Result<bool, Conflict> {
        let (bits, _) = self.store.small_bits(x.index());
        if bits & !mask == 0 {
            return Ok(false);
        }
        self.explained(x, None, because, |s| s.retain_small_mask(x.index(), mask))
    }
}

/// Reads of the domains, shared by code that runs both while propagating
/// (through the [`Pruner`]), while writing an eager reason (through
/// [`Premises`]) and while expanding a lazy one (through a [`History`]:
/// the domains as of a point of the trail).
pub(crate) trait DomainReads {
    fn min(&self, x: VarId) -> Value;
    fn max(&self, x: VarId) -> Value;
    fn contains(&self, x: VarId, v: Value) -> bool;
    /// The smallest value `> after` in `x`'s domain.
    fn next_above(&self, x: VarId, after: Value) -> Option<Value>;
}

impl DomainReads for Pruner<'_> {
    fn min(&self, x: VarId) -> Value {
        Pruner::min(self, x)
    }
    fn max(&self, x: VarId) -> Value {
        Pruner::max(self, x)
    }
    fn contains(&self, x: VarId, v: Value) -> bool {
        Pruner::contains(self, x, v)
    }
    fn next_above(&self, x: VarId, after: Value) -> Option<Value> {
        Pruner::next_above(self, x, after)
    }
}

impl DomainReads for Premises<'_> {
    fn min(&self, x: VarId) -> Value {
        Premises::min(self, x)
    }
    fn max(&self, x: VarId) -> Value {
        Premises::max(self, x)
    }
    fn contains(&self, x: VarId, v: Value) -> bool {
        Premises::contains(self, x, v)
    }
    fn next_above(&self, x: VarId, after: Value) -> Option<Value> {
        Premises::next_above(self, x, after)
    }
}

impl DomainReads for History<'_> {
    fn min(&self, x: VarId) -> Value {
        self.bounds(x).map_or(Value::MAX, |b| b.0)
    }
    fn max(&self, x: VarId) -> Value {
        self.bounds(x).map_or(Value::MIN, |b| b.1)
    }
    fn contains(&self, x: VarId, v: Value) -> bool {
        History::contains(self, x, v)
    }
    fn next_above(&self, x: VarId, after: Value) -> Option<Value> {
        let past = self.past(x);
        let (_, hi) = past.bounds(self.root, x.index())?;
        let mut v = self.root.next_above(x.index(), after);
        while let Some(u) = v.filter(|&u| u <= hi) {
            if past.admits(self.root, x.index(), u) {
                return Some(u);
            }
            v = self.root.next_above(x.index(), u);
        }
        None
    }
}

/// A snapshot of a domain's values, ascending (see [`Pruner::values`]).
#[derive(Debug, Clone)]
pub enum DomainValues {
    /// A one-word domain: bit `k` stands for `base + k`.
    #[doc(hidden)]
    Bits {
        /// The remaining bits.
        bits: u64,
        /// The value of bit 0.
        base: Value,
    },
    /// A larger domain, as a list.
    #[doc(hidden)]
    List(std::vec::IntoIter<Value>),
}

impl Iterator for DomainValues {
    type Item = Value;
    #[inline]
    fn next(&mut self) -> Option<Value> {
        match self {
            DomainValues::Bits { bits, base } => {
                if *bits == 0 {
                    return None;
                }
                let k = bits.trailing_zeros();
                *bits &= *bits - 1;
                Some(*base + k as Value)
            }
            DomainValues::List(it) => it.next(),
        }
    }
}

/// Keeps the values of `x` for which `keep` is true (see [`Pruner::retain`]).
fn retain_in(
    store: &mut DomainStore,
    x: VarId,
    mut keep: impl FnMut(Value) -> bool,
) -> Result<bool, Conflict> {
    let i = x.index();
    if store.is_small(i) {
        let (bits, base) = store.small_bits(i);
        let mut mask = 0u64;
        let mut b = bits;
        while b != 0 {
            let k = b.trailing_zeros();
            if keep(base + k as Value) {
                mask |= 1 << k;
            }
            b &= b - 1;
        }
        return store.retain_small_mask(i, mask);
    }
    let mut vals = Vec::new();
    store.values_into(i, &mut vals);
    let gone: Vec<Value> = vals.into_iter().filter(|&v| !keep(v)).collect();
    if gone.len() as u64 == store.size(i) {
        return Err(Conflict);
    }
    for &v in &gone {
        if store.explaining {
            store.ex.lit = Some(Literal::Ne(x, v));
        }
        store.remove(i, v)?;
    }
    Ok(!gone.is_empty())
}
