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
//! assert_eq!(Search::new(&m).count().unwrap().count, 3); // (1,2) (1,3) (2,3)
//! ```

use std::fmt;

use smallvec::SmallVec;

use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
pub use crate::propagation::pruner::{Because, DomainValues, Premises, Pruner, Why};
use crate::propagation::Propagator;

pub(crate) mod adapter;
mod all_different;
mod alldiff_bounds;
mod alldiff_domain;
mod arith;
mod bin_packing;
mod boolean;
mod compact_table;
mod count;
mod counting;
mod cumulative;
mod diffn;
mod diffn_k;
mod distinct;
mod element;
pub(crate) mod fused;
mod gcc;
mod hall;
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
pub(crate) mod window;

pub use all_different::AllDifferent;
pub use alldiff_domain::MAX_DOMAIN_VALUES;
pub(crate) use arith::pow_sat;
pub use arith::{Arith, ArithOp, LessEq, FILTER_LIMIT};
pub use bin_packing::BinPacking;
pub use boolean::{Clause, ReifiedIn, ReifiedLinear, Xor};
pub use count::Count;
pub use counting::{Among, GlobalCardinality, NValue};
pub use cumulative::{Amount, Cumulative, CumulativeStrength};
pub use diffn::Diffn;
pub use diffn_k::DiffnK;
pub use distinct::{AllDifferentExcept, Consistency, Distinct};
pub use element::Element;
pub use linear::{Linear, Relation};
pub use negative_table::NegativeTable;
pub use not_equal::{Equal, NotEqual};
pub use ordering::{Increasing, LexLess};
pub use precedence::{ValuePrecede, ValuePrecedeChain};

/// The old name of [`ValuePrecedeChain`] (MiniZinc's `value_precede_chain`),
/// easy to confuse with [`ValuePrecede`] (one pair of values).
#[deprecated(since = "0.1.0", note = "renamed to `ValuePrecedeChain`")]
pub type ValuePrecedence = ValuePrecedeChain;
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

    /// This constraint as a MiniZinc constraint (the expression after
    /// `constraint`), for [`Model::to_minizinc`](crate::Model::to_minizinc):
    /// `vars[i]` is the MiniZinc name of scope position `i`. `None` (the
    /// default): the writer lists the solutions of the checker as a
    /// `table` when the scope is small enough (see [`crate::minizinc`]).
    ///
    /// ```
    /// # use csp_core::{Constraint, Value, VarId};
    /// #[derive(Debug)]
    /// struct Even(Vec<VarId>);
    /// impl Constraint for Even {
    ///     fn scope(&self) -> &[VarId] { &self.0 }
    ///     fn is_satisfied(&self, v: &[Value]) -> bool { v.iter().sum::<Value>() % 2 == 0 }
    ///     fn to_minizinc(&self, vars: &[String]) -> Option<String> {
    ///         Some(format!("sum({}) mod 2 = 0", csp_core::minizinc::list(vars)))
    ///     }
    /// }
    /// ```
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let _ = vars;
        None
    }

    /// Expands a lazy reason ([`Why::Lazy`]`(code)`) this constraint gave
    /// for `lit`: pushes onto `out` literals that held at `history` (just
    /// before `lit` was recorded) and, with the constraint, imply `lit`.
    /// Returns `false` when it gives no lazy reasons (the default): the
    /// scope fallback ([`Why::Scope`]) is used instead. See
    /// [`Propagator::explain`].
    fn explain(
        &self,
        code: u64,
        lit: crate::literal::Literal,
        history: &crate::propagation::History<'_>,
        out: &mut Vec<crate::literal::Literal>,
    ) -> bool {
        let _ = (code, lit, history, out);
        false
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
    /// cost O(k) for domain size d and arity k. A domain of more than
    /// [`CHECKER_FILTER_LIMIT`] values is only trimmed at its ends
    /// ([`CHECKER_TRIM`] checks each); the checker still rejects the rest
    /// once the variable is fixed.
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
    // The reason: the values of the fixed scope variables.
    let fixed = |r: &mut Premises| {
        for (&y, &v) in scope.iter().zip(&values) {
            if Some(y) != open {
                r.push(Literal::Eq(y, v));
            }
        }
    };
    let fixed_values = values.clone();
    match open {
        None => {
            if c.is_satisfied(&values) {
                Ok(())
            } else {
                Err(pruner.fail(fixed))
            }
        }
        Some(x) => {
            let reason = |r: &mut Premises| {
                for (&y, &v) in scope.iter().zip(&fixed_values) {
                    if y != x {
                        r.push(Literal::Eq(y, v));
                    }
                }
            };
            let mut accepts = |v: Value| {
                for (k, &y) in scope.iter().enumerate() {
                    if y == x {
                        values[k] = v;
                    }
                }
                c.is_satisfied(&values)
            };
            if pruner.size(x) > CHECKER_FILTER_LIMIT {
                return trim_ends(pruner, x, &mut accepts, reason);
            }
            pruner.retain(x, accepts, reason).map(|_| ())
        }
    }
}

/// Above this many values, the default forward checking does not test
/// each value of the last open variable: it trims values the checker
/// rejects from both ends, at most [`CHECKER_TRIM`] from each (no
/// allocation, no 2³²-step loop over a variable of all of `i32`). A model
/// with such a variable in the scope of a constraint on the checker path
/// counts by checking each solution rather than adding the last
/// variable's values at once.
pub const CHECKER_FILTER_LIMIT: u64 = 1 << 16;

/// The checker tests at each end of a domain of more than
/// [`CHECKER_FILTER_LIMIT`] values, per call of the default forward
/// checking.
pub const CHECKER_TRIM: u64 = 1 << 10;

/// Moves each of `x`'s bounds to the nearest value `accepts` takes, when
/// one lies within [`CHECKER_TRIM`] values of it (else the bound stays: a
/// partial move would only have the kernel call again for the next
/// stretch); a conflict when the domain holds no value `accepts` takes.
fn trim_ends(
    pruner: &mut Pruner<'_>,
    x: VarId,
    accepts: &mut impl FnMut(Value) -> bool,
    reason: impl Fn(&mut Premises<'_>) + Copy,
) -> Result<(), Conflict> {
    let (lo, hi) = (pruner.min(x), pruner.max(x));
    let mut v = Some(lo);
    for _ in 0..CHECKER_TRIM {
        match v {
            Some(u) if accepts(u) => {
                if u > lo {
                    pruner.set_min(x, u, reason)?;
                }
                break;
            }
            Some(u) => v = pruner.next_above(x, u),
            None => return Err(pruner.fail(reason)),
        }
    }
    let new_lo = pruner.min(x);
    let mut u = hi;
    for _ in 0..CHECKER_TRIM {
        if u <= new_lo {
            break;
        }
        if pruner.contains(x, u) && accepts(u) {
            if u < hi {
                pruner.set_max(x, u, reason)?;
            }
            break;
        }
        u -= 1;
    }
    Ok(())
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
        return Err(pruner.fail(Why::Scope));
    }
    // A value without a support: the other domains are the reason.
    for p in 0..k {
        for (j, &v) in doms[p].iter().enumerate() {
            if !supported[p][j] {
                pruner.remove(scope[p], v, Why::Scope)?;
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
