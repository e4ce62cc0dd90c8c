//! Constraints: the [`Constraint`] trait (the extension point), the
//! [`Pruner`] through which constraints change domains, and the built-ins.
//!
//! # How to add a constraint
//! 1. **Write the checker.** Implement [`Constraint::scope`] (the variables,
//!    in a fixed order) and [`Constraint::is_satisfied`] (given one value per
//!    scope position, in that order). With only these two, the constraint is
//!    already correct at every inference level: the defaults below derive
//!    forward checking, arc consistency and local-search violations from the
//!    checker.
//! 2. **Test it against brute force.** Run
//!    [`testing::check_constraint`](crate::testing::check_constraint) on small
//!    domains: it enumerates every assignment, compares the solutions the
//!    search finds at every inference level with the checker's, and reports
//!    the first difference.
//! 3. **Make forward checking fast** (optional): override
//!    [`Constraint::forward_check`], which runs whenever a scope variable becomes
//!    fixed. Contract: afterwards, if every scope variable but one is fixed,
//!    that variable's domain holds only values the checker accepts; if all are
//!    fixed, the constraint is satisfied (else return `Err(Conflict)`).
//! 4. **Make arc consistency fast** (optional): override
//!    [`Constraint::propagate`], which runs whenever any scope variable's domain
//!    changes under [`Inference::Mac`](crate::Inference::Mac). It must never
//!    remove a value that belongs to a solution of this constraint, and must
//!    meet the forward-checking contract.
//! 5. **Count violations well** for local search (optional): override
//!    [`Constraint::violations`] and [`Constraint::delta`].
//! 6. Document semantics, pruning at each level and cost, as the built-ins do,
//!    and post it with [`Model::post`](crate::Model::post).
//!
//! ```
//! use csp_core::{Constraint, Domain, Model, Search, Value, VarId};
//!
//! /// `x < y`, written with the two required methods only.
//! #[derive(Debug)]
//! struct Less([VarId; 2]);
//!
//! impl Constraint for Less {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn is_satisfied(&self, v: &[Value]) -> bool { v[0] < v[1] }
//! }
//!
//! let mut m = Model::new();
//! let x = m.new_var(Domain::range(1, 3)).unwrap();
//! let y = m.new_var(Domain::range(1, 3)).unwrap();
//! m.post(Less([x, y])).unwrap();
//! assert_eq!(Search::new(&m).count().count, 3); // (1,2) (1,3) (2,3)
//! ```

use std::fmt;

use smallvec::SmallVec;

use crate::domain::{Conflict, DomainStore};
use crate::ids::{Value, VarId};
use crate::propagation::{Literal, Propagator, StateInt, StateWords};

mod all_different;
mod alldiff_bounds;
mod alldiff_domain;
mod arith;
mod boolean;
mod compact_table;
mod count;
mod counting;
mod distinct;
mod element;
pub(crate) mod fused;
mod gcc;
mod linear;
mod negative_table;
mod not_equal;
mod ordering;
mod precedence;
mod predicate;
mod regex;
mod regular;
mod scheduling;
mod structure;
mod table;
mod ternary;

pub use all_different::AllDifferent;
pub use alldiff_domain::MAX_DOMAIN_VALUES;
pub(crate) use arith::pow_sat;
pub use arith::{Arith, ArithOp, LessEq, FILTER_LIMIT};
pub use boolean::{Clause, ReifiedIn, ReifiedLinear, Xor};
pub use count::Count;
pub use counting::{Among, GlobalCardinality, NValue};
pub use distinct::{AllDifferentExcept, Consistency, Distinct};
pub use element::Element;
pub use linear::{Linear, Relation};
pub use negative_table::NegativeTable;
pub use not_equal::{Equal, NotEqual};
pub use ordering::{Increasing, LexLess};
pub use precedence::{ValuePrecede, ValuePrecedence};
pub use predicate::Predicate;
pub use regular::{Automaton, Regular, MAX_AUTOMATON_TABLE};
pub use scheduling::Disjunctive;
pub use structure::{Circuit, Inverse};
pub use table::Table;
pub use ternary::TernaryEq;

/// A constraint over a fixed list of variables (its scope).
///
/// Two methods are required; the rest have defaults derived from the checker.
/// See the [module documentation](self) for the checklist.
pub trait Constraint: Send + Sync + fmt::Debug {
    /// The variables the constraint is over, in the order the checker reads them.
    fn scope(&self) -> &[VarId];

    /// The checker: is the constraint satisfied when scope position `i` takes
    /// `values[i]`? `values.len() == self.scope().len()`.
    fn is_satisfied(&self, values: &[Value]) -> bool;

    /// A short name for traces and error messages.
    fn name(&self) -> &str {
        "constraint"
    }

    /// Inference level "none": can a partial assignment (`None` for the
    /// positions not fixed yet) still be extended? The search rejects the
    /// newest assignment when this says no. The default answers `true` until
    /// every position is fixed, then asks the checker; built-ins answer
    /// earlier (all-different: the fixed ids are already distinct).
    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        if values.iter().all(Option::is_some) {
            let full: SmallVec<[Value; 16]> = values.iter().map(|v| v.unwrap_or(0)).collect();
            self.is_satisfied(&full)
        } else {
            true
        }
    }

    /// Forward checking: called when the variable at scope position `changed`
    /// has become fixed. The default waits until one scope variable is left
    /// unfixed, then removes its values that the checker rejects: O(d) checks of
    /// cost O(k) for domain size d and arity k.
    fn forward_check(&self, pruner: &mut Pruner<'_>, changed: usize) -> Result<(), Conflict> {
        let _ = changed;
        default_forward_check(self, pruner)
    }

    /// Arc consistency: called when any scope variable's domain changed under
    /// maintained arc consistency. The default is generalised arc consistency
    /// by support search when the product of the domain sizes is at most
    /// [`GAC_TUPLE_LIMIT`], and forward checking above that.
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        default_propagate(self, pruner)
    }

    /// A stateful propagator for this constraint (see [`crate::propagation`]),
    /// created once per search; it may borrow from the constraint. `None`
    /// (the default) propagates through [`forward_check`](Constraint::forward_check)
    /// and [`propagate`](Constraint::propagate) above.
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        None
    }

    /// Local search: how badly a complete scope assignment violates the
    /// constraint (0 when satisfied). Default: 0 or 1 from the checker.
    fn violations(&self, values: &[Value]) -> u64 {
        u64::from(!self.is_satisfied(values))
    }

    /// Local search: the change in [`violations`](Constraint::violations) when
    /// scope position `pos` changes from `values[pos]` to `new`. Default:
    /// recomputes both from scratch.
    fn delta(&self, values: &[Value], pos: usize, new: Value) -> i64 {
        let mut after: SmallVec<[Value; 16]> = SmallVec::from_slice(values);
        after[pos] = new;
        self.violations(&after) as i64 - self.violations(values) as i64
    }
}

/// Above this many candidate tuples the default [`Constraint::propagate`]
/// falls back to forward checking.
pub const GAC_TUPLE_LIMIT: u64 = 4096;

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
}

impl fmt::Debug for Pruner<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pruner").finish_non_exhaustive()
    }
}

impl<'a> Pruner<'a> {
    pub(crate) fn new(store: &'a mut DomainStore, prop: u32) -> Pruner<'a> {
        Pruner {
            store,
            prop,
            entailed: false,
        }
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

    /// Removes `v` from `x` with a reason: the premises (facts about other
    /// domains) that justify it. `premises` runs only when someone records
    /// reasons (an observer that asks for them), so an unexplained search
    /// pays nothing for it.
    pub fn remove_because(
        &mut self,
        x: VarId,
        v: Value,
        premises: impl FnOnce(&mut Vec<Literal>),
    ) -> Result<bool, Conflict> {
        let r = self.remove(x, v)?;
        if r && self.store.track_reasons {
            self.record(Literal::Ne(x, v), premises);
        }
        Ok(r)
    }

    /// Removes the values below `v` from `x`, with a reason (see
    /// [`remove_because`](Self::remove_because)).
    pub fn set_min_because(
        &mut self,
        x: VarId,
        v: Value,
        premises: impl FnOnce(&mut Vec<Literal>),
    ) -> Result<bool, Conflict> {
        let r = self.set_min(x, v)?;
        if r && self.store.track_reasons {
            self.record(Literal::Ge(x, v), premises);
        }
        Ok(r)
    }

    /// Removes the values above `v` from `x`, with a reason (see
    /// [`remove_because`](Self::remove_because)).
    pub fn set_max_because(
        &mut self,
        x: VarId,
        v: Value,
        premises: impl FnOnce(&mut Vec<Literal>),
    ) -> Result<bool, Conflict> {
        let r = self.set_max(x, v)?;
        if r && self.store.track_reasons {
            self.record(Literal::Le(x, v), premises);
        }
        Ok(r)
    }

    #[cold]
    fn record(&mut self, fact: Literal, premises: impl FnOnce(&mut Vec<Literal>)) {
        let mut p = Vec::new();
        premises(&mut p);
        self.store.reasons.push(crate::propagation::Reason {
            fact,
            propagator: self.prop,
            premises: p,
        });
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

    /// The values of `x`'s domain in `base..base + 64·out.len()` as a bit
    /// set: bit `k % 64` of `out[k / 64]` says whether `base + k` is in it.
    /// `out` is overwritten. Whole words are copied when `x`'s domain is a
    /// bitset starting at `base` (a range domain over at most 65,536
    /// values), so a propagator over domains wider than one word can work
    /// a word at a time.
    pub fn bits(&self, x: VarId, base: Value, out: &mut [u64]) {
        out.fill(0);
        self.store.bits_into(x.index(), base, out);
    }

    /// The smallest value `> after` in `x`'s domain.
    pub fn next_above(&self, x: VarId, after: Value) -> Option<Value> {
        self.store.next_above(x.index(), after)
    }

    /// Removes `v` from `x`'s domain; `Ok(true)` when it was there.
    #[inline]
    pub fn remove(&mut self, x: VarId, v: Value) -> Result<bool, Conflict> {
        self.store.remove(x.index(), v)
    }

    /// Reduces `x`'s domain to `{v}` (a conflict if `v` is not in it).
    #[inline]
    pub fn fix(&mut self, x: VarId, v: Value) -> Result<(), Conflict> {
        self.store.fix(x.index(), v)
    }

    /// Removes the values below `v`.
    #[inline]
    pub fn set_min(&mut self, x: VarId, v: Value) -> Result<bool, Conflict> {
        self.store.set_min(x.index(), v)
    }

    /// Removes the values above `v`.
    #[inline]
    pub fn set_max(&mut self, x: VarId, v: Value) -> Result<bool, Conflict> {
        self.store.set_max(x.index(), v)
    }

    /// Keeps the values for which `keep` is true; `Ok(true)` if any went.
    pub fn retain(
        &mut self,
        x: VarId,
        mut keep: impl FnMut(Value) -> bool,
    ) -> Result<bool, Conflict> {
        let i = x.index();
        if self.store.is_small(i) {
            let (bits, base) = self.store.small_bits(i);
            let mut mask = 0u64;
            let mut b = bits;
            while b != 0 {
                let k = b.trailing_zeros();
                if keep(base + k as Value) {
                    mask |= 1 << k;
                }
                b &= b - 1;
            }
            self.store.retain_small_mask(i, mask)
        } else {
            let mut changed = false;
            for v in self.values(x) {
                if !keep(v) {
                    changed |= self.store.remove(i, v)?;
                }
            }
            Ok(changed)
        }
    }

    /// The domain as a bit mask when it fits one machine word: `(bits, base)`,
    /// bit `k` standing for `base + k`. `None` for large domains.
    #[inline]
    pub fn word(&self, x: VarId) -> Option<(u64, Value)> {
        let i = x.index();
        self.store.is_small(i).then(|| self.store.small_bits(i))
    }

    /// Keeps only the values whose bit is set in `mask` (see [`Pruner::word`]);
    /// `x`'s domain must be small.
    #[inline]
    pub fn retain_word(&mut self, x: VarId, mask: u64) -> Result<bool, Conflict> {
        self.store.retain_small_mask(x.index(), mask)
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

/// The default forward checking (see [`Constraint::forward_check`]).
pub fn default_forward_check<C: Constraint + ?Sized>(
    c: &C,
    pruner: &mut Pruner<'_>,
) -> Result<(), Conflict> {
    let scope = c.scope();
    let mut open: Option<VarId> = None;
    for &x in scope {
        if !pruner.is_fixed(x) {
            match open {
                None => open = Some(x),
                Some(y) if y == x => {}
                Some(_) => return Ok(()),
            }
        }
    }
    let mut values: SmallVec<[Value; 16]> = scope
        .iter()
        .map(|&x| pruner.value(x).unwrap_or(0))
        .collect();
    match open {
        None => {
            if c.is_satisfied(&values) {
                Ok(())
            } else {
                Err(Conflict)
            }
        }
        Some(x) => pruner
            .retain(x, |v| {
                for (k, &y) in scope.iter().enumerate() {
                    if y == x {
                        values[k] = v;
                    }
                }
                c.is_satisfied(&values)
            })
            .map(|_| ()),
    }
}

/// The default arc consistency (see [`Constraint::propagate`]): for each
/// variable and value, search the other domains for a supporting tuple.
pub fn default_propagate<C: Constraint + ?Sized>(
    c: &C,
    pruner: &mut Pruner<'_>,
) -> Result<(), Conflict> {
    let scope = c.scope();
    let mut product: u64 = 1;
    for &x in scope {
        product = product.saturating_mul(pruner.size(x));
    }
    if product > GAC_TUPLE_LIMIT {
        return default_forward_check(c, pruner);
    }
    // Enumerate all tuples of the current domains once, marking supported values.
    let doms: SmallVec<[Vec<Value>; 8]> =
        scope.iter().map(|&x| pruner.values(x).collect()).collect();
    let mut supported: SmallVec<[Vec<bool>; 8]> =
        doms.iter().map(|d| vec![false; d.len()]).collect();
    let k = scope.len();
    let mut any = false;
    let mut idx: SmallVec<[usize; 16]> = SmallVec::from_elem(0, k);
    let mut values: SmallVec<[Value; 16]> = doms.iter().map(|d| d[0]).collect();
    'tuples: loop {
        // A variable repeated in the scope must take one value.
        let consistent =
            (0..k).all(|a| (0..a).all(|b| scope[a] != scope[b] || values[a] == values[b]));
        if consistent && c.is_satisfied(&values) {
            any = true;
            for p in 0..k {
                supported[p][idx[p]] = true;
            }
        }
        let mut p = k;
        loop {
            if p == 0 {
                break 'tuples;
            }
            p -= 1;
            idx[p] += 1;
            if idx[p] < doms[p].len() {
                values[p] = doms[p][idx[p]];
                break;
            }
            idx[p] = 0;
            values[p] = doms[p][0];
        }
    }
    if !any {
        // No tuple satisfies it (this covers a constraint over no variables).
        return Err(Conflict);
    }
    for p in 0..k {
        for (j, &v) in doms[p].iter().enumerate() {
            if !supported[p][j] {
                pruner.remove(scope[p], v)?;
            }
        }
    }
    Ok(())
}

/// Wraps a constraint so that only its checker is used: pruning comes from
/// the defaults. The model uses it for built-ins whose specialised pruning
/// assumes distinct scope variables, when a variable is repeated.
#[derive(Debug)]
pub(crate) struct CheckerOnly<C>(pub(crate) C);

impl<C: Constraint> Constraint for CheckerOnly<C> {
    fn scope(&self) -> &[VarId] {
        self.0.scope()
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.0.is_satisfied(values)
    }
    fn name(&self) -> &str {
        self.0.name()
    }
    fn violations(&self, values: &[Value]) -> u64 {
        self.0.violations(values)
    }
    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        self.0.is_consistent_partial(values)
    }
}

/// Does `vars` name some variable twice?
pub(crate) fn has_repeats(vars: &[VarId]) -> bool {
    if vars.len() <= 16 {
        return (0..vars.len()).any(|a| (0..a).any(|b| vars[a] == vars[b]));
    }
    // One bit per variable index: linear, and no copy of a scope that may
    // hold millions of variables.
    let top = vars.iter().map(|x| x.index()).max().unwrap_or(0);
    let mut seen = fixedbitset::FixedBitSet::with_capacity(top + 1);
    vars.iter().any(|x| seen.put(x.index()))
}
