//! Linear constraints `Σ a_i·x_i ⋈ c` with `⋈` one of `=`, `≠`, `≤`, `≥`,
//! `<`, `>`, and their incremental propagator.

use std::fmt;

use super::{default_forward_check, Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Because, History, Why};
use crate::propagation::{Event, Events, Priority, Propagator, Setup, StateInt, StateWords};

/// The comparison of a linear or count constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// `≤`
    Le,
    /// `≥`
    Ge,
    /// `<`
    Lt,
    /// `>`
    Gt,
}

impl Relation {
    /// Does `lhs ⋈ rhs` hold?
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Relation::Eq => lhs == rhs,
            Relation::Ne => lhs != rhs,
            Relation::Le => lhs <= rhs,
            Relation::Ge => lhs >= rhs,
            Relation::Lt => lhs < rhs,
            Relation::Gt => lhs > rhs,
        }
    }

    /// The relation with its sides swapped: `a ⋈ b` ⇔ `b ⋈.flip() a`.
    pub fn flip(self) -> Relation {
        match self {
            Relation::Le => Relation::Ge,
            Relation::Ge => Relation::Le,
            Relation::Lt => Relation::Gt,
            Relation::Gt => Relation::Lt,
            r => r,
        }
    }

    /// The negation: `¬(a ⋈ b)` ⇔ `a ⋈.negate() b`.
    pub fn negate(self) -> Relation {
        match self {
            Relation::Eq => Relation::Ne,
            Relation::Ne => Relation::Eq,
            Relation::Le => Relation::Gt,
            Relation::Gt => Relation::Le,
            Relation::Ge => Relation::Lt,
            Relation::Lt => Relation::Ge,
        }
    }

    /// Over the integers, `<` and `>` as `≤` and `≥` with `rhs` moved by
    /// one; the other relations unchanged.
    pub(crate) fn non_strict(self, rhs: i128) -> (Relation, i128) {
        match self {
            Relation::Lt => (Relation::Le, rhs - 1),
            Relation::Gt => (Relation::Ge, rhs + 1),
            r => (r, rhs),
        }
    }
}

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Relation::Eq => "=",
            Relation::Ne => "!=",
            Relation::Le => "<=",
            Relation::Ge => ">=",
            Relation::Lt => "<",
            Relation::Gt => ">",
        })
    }
}

/// `Σ a_i·x_i ⋈ c`.
///
/// Sums are exact (computed in `i128`); [`Model::linear`](crate::Model::linear)
/// also rejects a constraint whose extreme sums could overflow `i64`
/// ([`ModelError::Overflow`](crate::ModelError::Overflow)). `<` and `>` are
/// stored as `≤ c − 1` and `≥ c + 1`.
///
/// # Pruning (forward checking and arc consistency alike)
/// * `=`, `≤`, `≥`, `<`, `>`: **bounds consistency** with incremental sums.
///   The propagator keeps `lo = Σ min(a_i·x_i)` and `hi = Σ max(a_i·x_i)`
///   as reversible integers, updated in O(1) per bound event; each call
///   first compares the slack (`c − lo` for `≤`) with a reversible upper
///   bound on the widest term, so a call that can prune nothing costs O(1).
///   Otherwise one O(k) pass tightens every term (`a_i·x_i ≤ c − (lo −
///   min(a_i·x_i))` and so on); `≤`/`≥` are idempotent, `=` is re-run to
///   its fixpoint by the kernel. Holes inside the bounds are not reasoned
///   about (with one variable left open, its bounds are then exact: a
///   single value for `=`). Entailed once `hi ≤ c` (`≤`), `lo ≥ c` (`≥`).
/// * `≠`: the count and sum of the fixed terms are kept incrementally (O(1)
///   per fixed event); when one variable is left open its single forbidden
///   value is removed.
/// * local search: violations are `|Σ − c|` for `=`, the excess for
///   `≤`/`≥`, 0/1 for `≠`.
#[derive(Debug, Clone)]
pub struct Linear {
    pub(crate) vars: Vec<VarId>,
    coefs: Vec<i64>,
    rel: Relation,
    c: i128,
}

impl Linear {
    /// `Σ coefs[i]·vars[i] ⋈ c` (lengths are checked by the model;
    /// [`Model::linear`](crate::Model::linear) also merges repeated
    /// variables).
    pub fn new(vars: Vec<VarId>, coefs: Vec<i64>, rel: Relation, c: i64) -> Linear {
        let (rel, c) = rel.non_strict(c as i128);
        Linear {
            vars,
            coefs,
            rel,
            c,
        }
    }

    /// The sum, in `i128`: no coefficient and value can overflow it, so a
    /// `Linear` built directly (without the model's range check) is exact.
    fn sum(&self, values: &[Value]) -> i128 {
        values
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a as i128 * v as i128)
            .sum()
    }

    /// The same sum with right-hand side `c` (for a non-strict relation),
    /// exact beyond `i64`.
    pub(crate) fn with_rhs(mut self, c: i128) -> Linear {
        self.c = c;
        self
    }

    /// The negation: `Σ ⋈' c'` holds exactly when `self` does not.
    pub(crate) fn negated(&self) -> Linear {
        let (rel, c) = match self.rel {
            Relation::Eq => (Relation::Ne, self.c),
            Relation::Ne => (Relation::Eq, self.c),
            Relation::Le | Relation::Lt => (Relation::Ge, self.c + 1),
            Relation::Ge | Relation::Gt => (Relation::Le, self.c - 1),
        };
        Linear {
            vars: self.vars.clone(),
            coefs: self.coefs.clone(),
            rel,
            c,
        }
    }

    /// Is the constraint entailed (`Some(true)`), disentailed
    /// (`Some(false)`) or undecided under the current bounds? O(k).
    pub(crate) fn status(&self, p: &Pruner<'_>) -> Option<bool> {
        let (lo, hi) = self.sum_bounds(p);
        status_of(self.rel, self.c, lo, hi)
    }

    /// The relation and right-hand side (`Σ ⋈ c`, `⋈` non-strict), for a
    /// propagator that keeps a copy of the terms (see [`status_of`]).
    pub(crate) fn relation(&self) -> (Relation, i128) {
        (self.rel, self.c)
    }

    /// The coefficients, in the order of `vars`.
    pub(crate) fn coefs(&self) -> &[i64] {
        &self.coefs
    }

    /// Prunes as the constraint's propagator would, from scratch: bounds
    /// to a fixpoint, or for `≠` the last open variable's forbidden value.
    /// `given`: a literal the constraint holds under (a reified
    /// constraint's `b = 1`), added to every reason.
    pub(crate) fn enforce(
        &self,
        p: &mut Pruner<'_>,
        given: Option<Literal>,
    ) -> Result<(), Conflict> {
        if self.rel != Relation::Ne {
            while self.bounds_pass(p, given)? {}
            return Ok(());
        }
        let mut open = None;
        let mut fixed = 0i128;
        for (i, (&x, &a)) in self.vars.iter().zip(&self.coefs).enumerate() {
            match p.value(x) {
                Some(v) => fixed += v as i128 * a as i128,
                None if open.is_none() => open = Some(i),
                None => return Ok(()),
            }
        }
        match open {
            None if fixed == self.c => Err(p.fail(fixed_terms(&self.vars, None, given))),
            None => Ok(()),
            Some(i) => self.forbid_last(p, i, fixed, given),
        }
    }

    /// The least and greatest value of the sum under the current bounds.
    fn sum_bounds(&self, p: &Pruner<'_>) -> (i128, i128) {
        self.vars
            .iter()
            .zip(&self.coefs)
            .map(|(&x, &a)| term_bounds(p, x, a))
            .fold((0, 0), |(lo, hi), (m, n)| (lo + m, hi + n))
    }

    /// `≠` with every term but `i` fixed, summing to `fixed`: removes the
    /// one value of `vars[i]` that would make the sum `c`.
    fn forbid_last(
        &self,
        p: &mut Pruner<'_>,
        i: usize,
        fixed: i128,
        given: Option<Literal>,
    ) -> Result<(), Conflict> {
        let (rest, a) = (self.c - fixed, self.coefs[i] as i128);
        // The reason: the values of the other (fixed) terms.
        let others = fixed_terms(&self.vars, Some(i), given);
        if a == 0 {
            // The open variable does not count: the sum is `fixed`.
            return if rest == 0 {
                Err(p.fail(others))
            } else {
                Ok(())
            };
        }
        if rest % a == 0 {
            if let Ok(v) = Value::try_from(rest / a) {
                p.remove(self.vars[i], v, others)?;
            }
        }
        Ok(())
    }

    /// One pass of bounds reasoning from scratch; returns whether a bound
    /// moved. The checker path's pruning, and the propagator's on sums too
    /// wide for its `i64` state.
    fn bounds_pass(
        &self,
        pruner: &mut Pruner<'_>,
        given: Option<Literal>,
    ) -> Result<bool, Conflict> {
        let c = self.c;
        let (lo, hi) = self.sum_bounds(pruner);
        let (need_le, need_ge) = match self.rel {
            Relation::Eq => (true, true),
            Relation::Le => (true, false),
            Relation::Ge => (false, true),
            _ => return Ok(false),
        };
        if need_le && lo > c {
            return Err(pruner.fail(sum_reason(&self.vars, &self.coefs, None, true, given)));
        }
        if need_ge && hi < c {
            return Err(pruner.fail(sum_reason(&self.vars, &self.coefs, None, false, given)));
        }
        let mut changed = false;
        for (j, (&x, &a)) in self.vars.iter().zip(&self.coefs).enumerate() {
            if a == 0 {
                continue;
            }
            let (tmin, tmax) = term_bounds(pruner, x, a);
            if need_le {
                let why = sum_reason(&self.vars, &self.coefs, Some(j), true, given);
                changed |= at_most(pruner, x, a, c - (lo - tmin), why)?;
            }
            if need_ge {
                let why = sum_reason(&self.vars, &self.coefs, Some(j), false, given);
                changed |= at_least(pruner, x, a, c - (hi - tmax), why)?;
            }
        }
        Ok(changed)
    }
}

/// The bounds of `a·x`.
#[inline]
fn term_bounds(p: &Pruner<'_>, x: VarId, a: i64) -> (i128, i128) {
    let (m, n) = (p.min(x) as i128 * a as i128, p.max(x) as i128 * a as i128);
    if a >= 0 {
        (m, n)
    } else {
        (n, m)
    }
}

/// Is `Σ ⋈ c` entailed (`Some(true)`), disentailed (`Some(false)`) or
/// undecided when the sum lies within `lo..=hi`? ([`Linear::status`].)
#[inline]
pub(crate) fn status_of(rel: Relation, c: i128, lo: i128, hi: i128) -> Option<bool> {
    match rel {
        Relation::Le | Relation::Lt if hi <= c => Some(true),
        Relation::Le | Relation::Lt if lo > c => Some(false),
        Relation::Ge | Relation::Gt if lo >= c => Some(true),
        Relation::Ge | Relation::Gt if hi < c => Some(false),
        Relation::Eq if lo == hi && lo == c => Some(true),
        Relation::Eq if c < lo || c > hi => Some(false),
        Relation::Ne if lo == hi && lo == c => Some(false),
        Relation::Ne if c < lo || c > hi => Some(true),
        _ => None,
    }
}

/// The reason of a bound that the sum's `≤` side (`le`) or `≥` side gives:
/// every term but `skip` at its bound on that side (`x ≥ min(x)` for a
/// positive coefficient under `≤`, and so on), read when it is written,
/// and `given` (see [`Linear::enforce`]).
fn sum_reason<'c>(
    vars: &'c [VarId],
    coefs: &'c [i64],
    skip: Option<usize>,
    le: bool,
    given: Option<Literal>,
) -> impl FnOnce(&mut Premises<'_>) + 'c {
    move |r: &mut Premises<'_>| {
        if let Some(g) = given {
            r.push(g);
        }
        for (i, (&y, &a)) in vars.iter().zip(coefs).enumerate() {
            if Some(i) == skip || a == 0 {
                continue;
            }
            if (a > 0) == le {
                r.at_least(y);
            } else {
                r.at_most(y);
            }
        }
    }
}

/// The reason of a `≠` sum's last step: the values of the fixed terms but
/// `skip`, and `given`.
fn fixed_terms(
    vars: &[VarId],
    skip: Option<usize>,
    given: Option<Literal>,
) -> impl FnOnce(&mut Premises<'_>) + '_ {
    move |r: &mut Premises<'_>| {
        if let Some(g) = given {
            r.push(g);
        }
        for (i, &y) in vars.iter().enumerate() {
            if Some(i) != skip {
                if let Some(v) = r.value(y) {
                    r.push(Literal::Eq(y, v));
                }
            }
        }
    }
}

/// Enforces `a·x ≤ u` (a ≠ 0) because of `why`.
#[inline]
fn at_most(
    p: &mut Pruner<'_>,
    x: VarId,
    a: i64,
    u: i128,
    why: impl Because,
) -> Result<bool, Conflict> {
    let a = a as i128;
    if a > 0 {
        p.set_max(x, clamp(floor_div(u, a)), why)
    } else {
        p.set_min(x, clamp(ceil_div(u, a)), why)
    }
}

/// Enforces `a·x ≥ l` (a ≠ 0) because of `why`.
#[inline]
fn at_least(
    p: &mut Pruner<'_>,
    x: VarId,
    a: i64,
    l: i128,
    why: impl Because,
) -> Result<bool, Conflict> {
    let a = a as i128;
    if a > 0 {
        p.set_min(x, clamp(ceil_div(l, a)), why)
    } else {
        p.set_max(x, clamp(floor_div(l, a)), why)
    }
}

/// `⌈p / q⌉` for q ≠ 0.
pub(crate) fn ceil_div(p: i128, q: i128) -> i128 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) == (q > 0)) {
        d + 1
    } else {
        d
    }
}

/// `⌊p / q⌋` for q ≠ 0.
pub(crate) fn floor_div(p: i128, q: i128) -> i128 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) != (q > 0)) {
        d - 1
    } else {
        d
    }
}

/// `v` clamped into the value range. Clamping a bound is sound here: a
/// bound beyond the range removes nothing, or everything, either way.
pub(crate) fn clamp(v: i128) -> Value {
    v.clamp(Value::MIN as i128, Value::MAX as i128) as Value
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let (s, c) = (self.sum(values), self.c);
        match self.rel {
            Relation::Eq => s == c,
            Relation::Ne => s != c,
            Relation::Le | Relation::Lt => s <= c,
            Relation::Ge | Relation::Gt => s >= c,
        }
    }
    fn name(&self) -> &str {
        "linear"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let c = i64::try_from(self.c).ok()?;
        let terms: Vec<String> = self
            .coefs
            .iter()
            .zip(vars)
            .map(|(&a, x)| crate::minizinc::term(a, x))
            .collect();
        let lhs = if terms.is_empty() {
            "0".into()
        } else {
            terms.join(" + ")
        };
        Some(format!("{lhs} {} {c}", crate::minizinc::relation(self.rel)))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return default_forward_check(self, pruner);
        }
        self.bounds_pass(pruner, None)?;
        Ok(())
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return default_forward_check(self, pruner);
        }
        while self.bounds_pass(pruner, None)? {}
        Ok(())
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(LinearProp {
            con: self,
            wide: false,
            lo: None,
            hi: None,
            span: None,
            widest: None,
            rest: None,
            terms: None,
            reasons: LazyShare::default(),
        }))
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let (s, c) = (self.sum(values), self.c);
        let v = match self.rel {
            Relation::Eq => (s - c).unsigned_abs(),
            Relation::Ne => u128::from(s == c),
            Relation::Le | Relation::Lt => (s - c).max(0) as u128,
            Relation::Ge | Relation::Gt => (c - s).max(0) as u128,
        };
        v.min(u64::MAX as u128) as u64
    }
}

/// The incremental propagator of [`Linear`] (see its documentation).
///
/// For `=`/`≤`/`≥`: `lo`, `hi` are Σ min and Σ max of the terms; `terms`
/// holds each term's last seen (min, max) as two words, for domains over
/// 64 values (a one-word domain's old bounds come with its event); `span` is an upper
/// bound on the widest term's width, `widest` that term's position at the
/// last full pass and `rest` an upper bound on the other terms' widths
/// (widths only shrink until a backtrack restores the three). For `≠`: `lo` counts the fixed terms and `hi`
/// sums them. All reversible. `wide` marks a constraint whose sums may not
/// fit `i64` (posted without the model's check): it recomputes in `i128`.
#[derive(Debug)]
struct LinearProp<'a> {
    con: &'a Linear,
    wide: bool,
    lo: Option<StateInt>,
    hi: Option<StateInt>,
    span: Option<StateInt>,
    widest: Option<StateInt>,
    rest: Option<StateInt>,
    terms: Option<StateWords>,
    reasons: LazyShare,
}

/// How often a long sum's lazy reasons are read, to choose between lazy
/// and eager ones. A lazy reason costs nothing when written and, when
/// conflict analysis reads it, a look-up of every other term's bound in
/// the trail, several times what writing it eagerly costs: it pays only
/// while few are read. An objective's sum, narrowed at every decision,
/// has almost none of its reasons read; a knapsack's capacity has a good
/// share of them read (a 40-item knapsack ran 1.5× slower with lazy
/// reasons only).
#[derive(Debug, Default, Clone, Copy)]
struct LazyShare {
    /// Lazy reasons written and read since the last reset.
    written: u64,
    read: u64,
    /// Eager reasons written since the sum turned eager: after
    /// [`LAZY_RETRY`] it tries lazy reasons again.
    eager: u64,
}

impl LazyShare {
    /// Should the next bound get a lazy reason?
    #[inline]
    fn choose(&mut self) -> bool {
        if self.read * LAZY_READ_SHARE <= self.written + LAZY_READ_SHARE {
            self.written += 1;
            if self.written >= 1 << 20 {
                // Keep the share recent.
                self.written /= 2;
                self.read /= 2;
            }
            true
        } else {
            self.eager += 1;
            if self.eager >= LAZY_RETRY {
                *self = LazyShare::default();
            }
            false
        }
    }
}

/// A long sum keeps giving lazy reasons while at most one in this many is
/// read.
const LAZY_READ_SHARE: u64 = 32;

/// Eager reasons a long sum writes before it measures lazy ones again.
const LAZY_RETRY: u64 = 1 << 16;

/// Sums up to this magnitude are kept in the `i64` state.
const NARROW: i128 = (i64::MAX / 4) as i128;

impl LinearProp<'_> {
    fn state(&self) -> (StateInt, StateInt, StateInt, StateWords) {
        match (self.lo, self.hi, self.span, self.terms) {
            (Some(a), Some(b), Some(c), Some(d)) => (a, b, c, d),
            _ => unreachable!("the kernel calls setup first"),
        }
    }

    /// The widest term's position and the bound on the other terms' widths.
    fn widest_state(&self) -> (StateInt, StateInt) {
        match (self.widest, self.rest) {
            (Some(a), Some(b)) => (a, b),
            _ => unreachable!("the kernel calls setup first"),
        }
    }

    /// Narrows term `j` to the slacks of the two sides (not wide, `≠`
    /// excluded); returns its width after.
    #[inline]
    fn prune_term(
        &mut self,
        p: &mut Pruner<'_>,
        j: usize,
        slack_le: i64,
        slack_ge: i64,
    ) -> Result<i64, Conflict> {
        let con = self.con;
        let (x, a) = (con.vars[j], con.coefs[j]);
        let (lo_x, hi_x) = (p.min(x) as i64, p.max(x) as i64);
        let (tmin, tmax) = if a >= 0 {
            (lo_x * a, hi_x * a)
        } else {
            (hi_x * a, lo_x * a)
        };
        let width = tmax - tmin;
        if a == 0 || (width <= slack_le && width <= slack_ge) {
            return Ok(width);
        }
        // The reasons read the other terms' bounds when written: at least
        // as tight as the sums the slack came from. A long sum's reasons
        // are lazy: written out only if conflict analysis reaches them
        // ([`Propagator::explain`]).
        let lazy = con.vars.len() > LAZY_FROM && p.explaining() && self.reasons.choose();
        if width > slack_le {
            let bound = (slack_le + tmin) as i128;
            if lazy {
                at_most(p, x, a, bound, Why::Lazy(lazy_code(j, true)))?;
            } else {
                let why = sum_reason(&con.vars, &con.coefs, Some(j), true, None);
                at_most(p, x, a, bound, why)?;
            }
        }
        if width > slack_ge {
            let bound = (tmax - slack_ge) as i128;
            if lazy {
                at_least(p, x, a, bound, Why::Lazy(lazy_code(j, false)))?;
            } else {
                let why = sum_reason(&con.vars, &con.coefs, Some(j), false, None);
                at_least(p, x, a, bound, why)?;
            }
        }
        let (m, n) = (p.min(x) as i64 * a, p.max(x) as i64 * a);
        Ok((n - m).abs())
    }

    /// `≠`: the forbidden value of the last open variable goes.
    fn not_equal(
        &mut self,
        p: &mut Pruner<'_>,
        nfixed: i64,
        fixed_sum: i128,
    ) -> Result<(), Conflict> {
        let con = self.con;
        let open = con.vars.len() as i64 - nfixed;
        if open == 0 {
            return if fixed_sum == con.c {
                Err(p.fail(fixed_terms(&con.vars, None, None)))
            } else {
                p.entail();
                Ok(())
            };
        }
        if open == 1 {
            if let Some(i) = (0..con.vars.len()).find(|&i| !p.is_fixed(con.vars[i])) {
                con.forbid_last(p, i, fixed_sum, None)?;
                p.entail();
            }
        }
        Ok(())
    }

    /// `≠` from scratch.
    fn not_equal_scratch(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (mut n, mut s) = (0i64, 0i128);
        for (&x, &a) in self.con.vars.iter().zip(&self.con.coefs) {
            if let Some(v) = p.value(x) {
                n += 1;
                s += v as i128 * a as i128;
            }
        }
        if !self.wide {
            let (lo, hi, _, _) = self.state();
            p.set(lo, n);
            p.set(hi, s as i64);
        }
        self.not_equal(p, n, s)
    }
}

impl Propagator for LinearProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let con = self.con;
        let k = con.vars.len();
        let mut magnitude = con.c.abs();
        for (&x, &a) in con.vars.iter().zip(&con.coefs) {
            let m = (setup.min(x) as i128)
                .abs()
                .max((setup.max(x) as i128).abs());
            magnitude += (a as i128).abs() * m;
        }
        self.wide = magnitude > NARROW;
        let events = if con.rel == Relation::Ne {
            Events::FIXED
        } else {
            Events::BOUNDS
        };
        for (i, &x) in con.vars.iter().enumerate() {
            setup.subscribe(x, i, events);
        }
        if self.wide {
            return;
        }
        let (mut lo, mut hi, mut span) = (0i64, 0i64, 0i64);
        let (mut widest, mut rest) = (0usize, 0i64);
        let terms = setup.new_words(2 * k, 0);
        for (i, (&x, &a)) in con.vars.iter().zip(&con.coefs).enumerate() {
            let (m, n) = (setup.min(x) as i64 * a, setup.max(x) as i64 * a);
            let (m, n) = if a >= 0 { (m, n) } else { (n, m) };
            lo += m;
            hi += n;
            if n - m > span {
                rest = span;
                span = n - m;
                widest = i;
            } else {
                rest = rest.max(n - m);
            }
            setup.set_word(terms, 2 * i, m as u64);
            setup.set_word(terms, 2 * i + 1, n as u64);
        }
        if con.rel == Relation::Ne {
            // `lo`/`hi` count and sum the fixed terms, from the root call on.
            lo = 0;
            hi = 0;
        }
        self.lo = Some(setup.new_int(lo));
        self.hi = Some(setup.new_int(hi));
        self.span = Some(setup.new_int(span));
        self.widest = Some(setup.new_int(widest as i64));
        self.rest = Some(setup.new_int(rest));
        self.terms = Some(terms);
    }

    fn notify(&mut self, p: &mut Pruner<'_>, pos: usize, e: Event) -> Result<bool, Conflict> {
        if self.wide {
            return Ok(true);
        }
        let (lo, hi, _, terms) = self.state();
        let con = self.con;
        let (x, a) = (con.vars[pos], con.coefs[pos]);
        if con.rel == Relation::Ne {
            // Fixed: one more known term.
            let v = p.value(x).unwrap_or(0);
            let n = p.get(lo) + 1;
            let s = p.get(hi) + v as i64 * a;
            p.set(lo, n);
            p.set(hi, s);
            self.not_equal(p, n, s as i128)?;
            return Ok(false);
        }
        let (lo_x, hi_x) = (p.min(x) as i64, p.max(x) as i64);
        let (m, n) = if a >= 0 {
            (lo_x * a, hi_x * a)
        } else {
            (hi_x * a, lo_x * a)
        };
        let (om, on) = match e.before {
            // A one-word domain: its bounds before the change come with
            // the event, so no per-term state is needed.
            Some((old, base)) if old != 0 => {
                let (ol, oh) = (
                    (base + old.trailing_zeros() as Value) as i64,
                    (base + (63 - old.leading_zeros()) as Value) as i64,
                );
                if a >= 0 {
                    (ol * a, oh * a)
                } else {
                    (oh * a, ol * a)
                }
            }
            _ => {
                let (om, on) = (
                    p.state_word(terms, 2 * pos) as i64,
                    p.state_word(terms, 2 * pos + 1) as i64,
                );
                if m != om {
                    p.set_state_word(terms, 2 * pos, m as u64);
                }
                if n != on {
                    p.set_state_word(terms, 2 * pos + 1, n as u64);
                }
                (om, on)
            }
        };
        if m != om {
            p.set(lo, p.get(lo) + (m - om));
        }
        if n != on {
            p.set(hi, p.get(hi) + (n - on));
        }
        // Schedule `propagate` only when it could prune: the O(1) test it
        // starts with, done here to spare the queue.
        let (lo_v, hi_v, c) = (p.get(lo), p.get(hi), con.c as i64);
        let le = matches!(con.rel, Relation::Eq | Relation::Le);
        let ge = matches!(con.rel, Relation::Eq | Relation::Ge);
        if le && lo_v > c {
            return Err(p.fail(sum_reason(&con.vars, &con.coefs, None, true, None)));
        }
        if ge && hi_v < c {
            return Err(p.fail(sum_reason(&con.vars, &con.coefs, None, false, None)));
        }
        let slack_le = if le { c - lo_v } else { i64::MAX };
        let slack_ge = if ge { hi_v - c } else { i64::MAX };
        Ok(p.get(self.state().2) > slack_le.min(slack_ge))
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let con = self.con;
        if con.rel == Relation::Ne {
            return self.not_equal_scratch(p);
        }
        if self.wide {
            while con.bounds_pass(p, None)? {}
            return Ok(());
        }
        // Not wide: every sum, bound and slack fits i64 (see `NARROW`).
        let (lo_s, hi_s, span_s, _) = self.state();
        let (lo, hi, c) = (p.get(lo_s), p.get(hi_s), con.c as i64);
        let le = matches!(con.rel, Relation::Eq | Relation::Le);
        let ge = matches!(con.rel, Relation::Eq | Relation::Ge);
        if le && lo > c {
            return Err(p.fail(sum_reason(&con.vars, &con.coefs, None, true, None)));
        }
        if ge && hi < c {
            return Err(p.fail(sum_reason(&con.vars, &con.coefs, None, false, None)));
        }
        if (!le || hi <= c) && (!ge || lo >= c) {
            p.entail();
            return Ok(());
        }
        let slack_le = if le { c - lo } else { i64::MAX };
        let slack_ge = if ge { hi - c } else { i64::MAX };
        if p.get(span_s) <= slack_le.min(slack_ge) {
            // No term is wider than the slack: nothing to prune.
            return Ok(());
        }
        let (widest_s, rest_s) = self.widest_state();
        if p.get(rest_s) <= slack_le.min(slack_ge) {
            // Only the widest term can be wider than the slack (an
            // objective's sum, whose other terms are Booleans): prune it
            // alone instead of reading every term.
            let j = p.get(widest_s) as usize;
            let width = self.prune_term(p, j, slack_le, slack_ge)?;
            p.set(span_s, width.max(p.get(rest_s)));
            return Ok(());
        }
        let (mut span, mut widest, mut rest) = (0i64, 0usize, 0i64);
        for j in 0..con.vars.len() {
            let width = self.prune_term(p, j, slack_le, slack_ge)?;
            if width > span {
                rest = span;
                span = width;
                widest = j;
            } else {
                rest = rest.max(width);
            }
        }
        p.set(span_s, span);
        p.set(widest_s, widest as i64);
        p.set(rest_s, rest);
        Ok(())
    }

    fn priority(&self) -> Priority {
        if self.con.vars.len() <= 2 {
            Priority::Cheap
        } else {
            Priority::Linear
        }
    }

    fn is_idempotent(&self) -> bool {
        // Tightening for `≤` lowers maxima only, which moves `hi`, not the
        // `lo` the pass read (and symmetrically for `≥`); `=` moves both.
        matches!(self.con.rel, Relation::Le | Relation::Ge)
    }

    /// A lazy reason (long sums, see `propagate`): the bounds that every
    /// other term had when the bound was written, on the side of the sum
    /// (`≤` or `≥`) the code names. Bounds the declared domain already
    /// gives are left out: they always hold.
    fn explain(
        &mut self,
        code: u64,
        _lit: Literal,
        history: &History<'_>,
        out: &mut Vec<Literal>,
    ) -> bool {
        let con = self.con;
        let (j, le) = ((code >> 1) as usize, code & 1 == 1);
        if j >= con.vars.len() {
            return false;
        }
        self.reasons.read += 1;
        for (i, (&y, &a)) in con.vars.iter().zip(&con.coefs).enumerate() {
            if i == j || a == 0 {
                continue;
            }
            let Some((lo, hi)) = history.bounds(y) else {
                return false;
            };
            if (a > 0) == le {
                if lo > history.root.min(y.index()) {
                    out.push(Literal::Ge(y, lo));
                }
            } else if hi < history.root.max(y.index()) {
                out.push(Literal::Le(y, hi));
            }
        }
        true
    }

    fn name(&self) -> &str {
        "linear"
    }
}

/// Sums with more terms than this give lazy reasons for their bounds: an
/// eager reason costs a literal per term on every bound written, and a long
/// sum writes bounds far more often than conflict analysis reads them (an
/// objective's sum narrows the objective at every decision).
const LAZY_FROM: usize = 8;

/// The code of a lazy reason: the term bounded and the side of the sum.
fn lazy_code(j: usize, le: bool) -> u64 {
    ((j as u64) << 1) | le as u64
}

#[cfg(test)]
mod tests {
    use super::{LazyShare, LAZY_READ_SHARE, LAZY_RETRY};

    #[test]
    fn long_sums_keep_lazy_reasons_only_while_few_are_read() {
        // Never read (an objective's sum): lazy throughout.
        let mut s = LazyShare::default();
        assert!((0..100_000).all(|_| s.choose()));
        // Every lazy reason read (a knapsack's capacity): eager soon.
        let mut s = LazyShare::default();
        let mut lazy = 0;
        for _ in 0..10_000 {
            if s.choose() {
                lazy += 1;
                s.read += 1;
            }
        }
        assert!(lazy <= 2, "{lazy} lazy reasons");
        // And lazy again, to measure anew, after LAZY_RETRY eager ones.
        let eager = (0..=LAZY_RETRY).take_while(|_| !s.choose()).count() as u64;
        assert!(eager < LAZY_RETRY && eager > LAZY_RETRY / 2, "{eager}");
        // One read in LAZY_READ_SHARE keeps them lazy.
        let mut s = LazyShare::default();
        for k in 0..100_000u64 {
            assert!(s.choose(), "turned eager at {k}");
            if k % LAZY_READ_SHARE == 0 {
                s.read += 1;
            }
        }
    }
}
