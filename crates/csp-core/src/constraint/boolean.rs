//! Booleans and reification: clauses with watched literals, parity, and
//! `b ⇔ C` / `b ⇒ C` for linear relations and set membership.
//!
//! A boolean is an ordinary variable over `{0, 1}` ([`Model::new_bool`]):
//! `bool2int` is the identity, and one-word domains make fixing and testing
//! one a single bit operation. and/or/not/implies are posted as clauses.

use super::linear::{status_of, Linear, Relation};
use super::{Constraint, Premises, Pruner, Why};
use crate::literal::Literal;

use crate::domain::{Conflict, Domain};
use crate::error::ModelError;
use crate::expr::Rel;
use crate::ids::{ConstraintId, Value, VarId};
use crate::model::Model;
use crate::propagation::{Event, Events, Priority, Propagator, Setup};

/// `p₁ ∨ … ∨ pₘ ∨ ¬n₁ ∨ … ∨ ¬nₖ` over booleans: at least one `pᵢ` is 1 or
/// one `nⱼ` is 0.
///
/// # Pruning
/// Two watched literals (Moskewicz et al., Chaff, 2001): the propagator
/// watches two literals that are not false; when one becomes false it
/// looks for a replacement, and when there is none the other is made true
/// (unit propagation). Watches need no restoring on backtrack, so a fixed
/// event on an unwatched literal costs O(1) and on a watched one O(k) at
/// worst. The same at every inference level but "none". Local search:
/// violations 0/1.
#[derive(Debug, Clone)]
pub struct Clause {
    /// Positive literals first, then negative ones.
    vars: Vec<VarId>,
    npos: usize,
}

impl Clause {
    /// The clause over positive literals `pos` and negated ones `neg`.
    pub fn new(pos: &[VarId], neg: &[VarId]) -> Clause {
        let mut vars = pos.to_vec();
        vars.extend_from_slice(neg);
        Clause {
            vars,
            npos: pos.len(),
        }
    }

    /// The value that makes literal `i` true.
    #[inline]
    fn sat(&self, i: usize) -> Value {
        Value::from(i < self.npos)
    }
}

impl Constraint for Clause {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        (0..v.len()).any(|i| v[i] == self.sat(i))
    }
    fn name(&self) -> &str {
        "clause"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        if vars.is_empty() {
            return Some("false".into());
        }
        let lits: Vec<String> = (0..vars.len())
            .map(|i| format!("{} = {}", vars[i], self.sat(i)))
            .collect();
        Some(format!("({})", lits.join(" \\/ ")))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ClauseProp {
            c: self,
            watch: [0, 0],
        }))
    }
}

#[derive(Debug)]
struct ClauseProp<'a> {
    c: &'a Clause,
    watch: [usize; 2],
}

impl ClauseProp<'_> {
    /// A reason: every literal but `skip` is false (`xᵢ ≠ sat(i)`).
    fn false_but(&self, skip: Option<usize>) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| {
            for (i, &x) in self.c.vars.iter().enumerate() {
                if Some(i) != skip {
                    r.push(Literal::Ne(x, self.c.sat(i)));
                }
            }
        }
    }

    /// Literal `i` can still be true.
    #[inline]
    fn open(&self, p: &Pruner<'_>, i: usize) -> bool {
        p.contains(self.c.vars[i], self.c.sat(i))
    }
}

impl Propagator for ClauseProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (i, &x) in self.c.vars.iter().enumerate() {
            setup.subscribe(x, i, Events::FIXED);
        }
    }

    /// The root call: choose two watches among the literals not false.
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let mut open = (0..self.c.vars.len()).filter(|&i| self.open(p, i));
        match (open.next(), open.next()) {
            (None, _) => Err(p.fail(self.false_but(None))),
            (Some(i), None) => p.fix(self.c.vars[i], self.c.sat(i), self.false_but(Some(i))),
            (Some(i), Some(j)) => {
                self.watch = [i, j];
                Ok(())
            }
        }
    }

    fn notify(&mut self, p: &mut Pruner<'_>, pos: usize, _e: Event) -> Result<bool, Conflict> {
        let w = match self.watch.iter().position(|&w| w == pos) {
            Some(w) => w,
            None => return Ok(false),
        };
        if self.open(p, pos) {
            // The literal became true: satisfied below this node.
            p.entail();
            return Ok(false);
        }
        let other = self.watch[1 - w];
        let n = self.c.vars.len();
        // A replacement, scanning on from the old watch.
        for k in 1..n {
            let i = (pos + k) % n;
            if i != other && self.open(p, i) {
                self.watch[w] = i;
                return Ok(false);
            }
        }
        // None: the other watch must be true.
        let x = self.c.vars[other];
        p.fix(x, self.c.sat(other), self.false_but(Some(other)))?;
        p.entail();
        Ok(false)
    }

    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn name(&self) -> &str {
        "clause"
    }
}

/// `b = x₁ ⊕ … ⊕ xₖ` over booleans (the scope is `[x₁, …, xₖ, b]`).
///
/// # Pruning
/// When one variable is left open it is fixed to the parity of the
/// others; that is also arc consistency, since parity has a support for
/// every value while two variables are open. O(k) per call.
#[derive(Debug, Clone)]
pub struct Xor {
    vars: Vec<VarId>,
}

impl Constraint for Xor {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v.iter().fold(0, |acc, &x| acc ^ (x & 1)) == 0 && v.iter().all(|&x| x == 0 || x == 1)
    }
    fn name(&self) -> &str {
        "xor"
    }
    fn forward_check(&self, p: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.propagate(p)
    }
    fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let mut open = None;
        let mut parity = 0;
        for &x in &self.vars {
            match p.value(x) {
                Some(v) => parity ^= v & 1,
                None if open.is_none() => open = Some(x),
                None => return Ok(()),
            }
        }
        // The others' values decide the last one (or refute the parity).
        let vars = &self.vars;
        let others = move |r: &mut Premises| {
            for &y in vars {
                if Some(y) != open {
                    r.fixed(y);
                }
            }
        };
        match open {
            Some(x) => p.fix(x, parity, others),
            None if parity == 0 => Ok(()),
            None => Err(p.fail(others)),
        }
    }
}

/// `b ⇔ Σ aᵢ·xᵢ ⋈ c` (or `b ⇒ …` when half-reified); scope `[xs…, b]`.
///
/// # Pruning
/// When `b` is fixed, the relation (or its negation) is enforced as
/// [`Linear`] would; otherwise `b` is fixed as soon as the bounds entail or
/// disentail the relation. Half-reification only ever sets `b` to 0. O(k)
/// per call (bounds recomputed from scratch).
#[derive(Debug, Clone)]
pub struct ReifiedLinear {
    scope: Vec<VarId>,
    pos: Linear,
    neg: Linear,
    half: bool,
}

impl ReifiedLinear {
    fn b(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }
}

impl Constraint for ReifiedLinear {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let (b, xs) = (v[v.len() - 1], &v[..v.len() - 1]);
        let holds = self.pos.is_satisfied(xs);
        match b {
            1 => holds,
            0 => self.half || !holds,
            _ => false,
        }
    }
    fn name(&self) -> &str {
        if self.half {
            "implies-linear"
        } else {
            "reified-linear"
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (b, xs) = vars.split_last()?;
        let holds = self.pos.to_minizinc(xs)?;
        let arrow = if self.half { "->" } else { "<->" };
        Some(format!("{b} in 0..1 /\\ (({b} = 1) {arrow} ({holds}))"))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ReifiedProp::new(self)))
    }
}

/// Premises: the bounds of every variable of `vars`.
fn term_bounds(vars: &[VarId]) -> impl FnOnce(&mut Premises<'_>) + '_ {
    move |r: &mut Premises<'_>| {
        for &x in vars {
            r.at_least(x);
            r.at_most(x);
        }
    }
}

/// The terms a [`ReifiedProp`] keeps in its own allocation: a call that
/// decides nothing (most of them: `b` open and the relation undecided)
/// then reads the propagator's one block and the domains, not the
/// constraint and its two term vectors (a cache miss each on a model of
/// thousands of reifications, e.g. MiniZinc Challenge 2024's
/// cable-tree-wiring).
const INLINE_TERMS: usize = 2;

#[derive(Debug)]
struct ReifiedProp<'a> {
    r: &'a ReifiedLinear,
    /// The relation's right-hand side and comparison (of `r.pos`).
    c: i128,
    rel: Relation,
    half: bool,
    /// The number of terms in `terms`, or `u8::MAX` when there are more
    /// than [`INLINE_TERMS`] (then `r.pos` is read).
    len: u8,
    b: VarId,
    terms: [(VarId, i64); INLINE_TERMS],
}

impl<'a> ReifiedProp<'a> {
    fn new(r: &'a ReifiedLinear) -> ReifiedProp<'a> {
        let (rel, c) = r.pos.relation();
        let xs = &r.scope[..r.scope.len() - 1];
        let mut terms = [(r.b(), 0); INLINE_TERMS];
        let len = if xs.len() <= INLINE_TERMS {
            for (t, (&x, &a)) in terms.iter_mut().zip(xs.iter().zip(r.pos.coefs())) {
                *t = (x, a);
            }
            xs.len() as u8
        } else {
            u8::MAX
        };
        ReifiedProp {
            r,
            c,
            rel,
            half: r.half,
            len,
            b: r.b(),
            terms,
        }
    }

    /// `r.pos.status(p)`, from the inline terms when they are there.
    #[inline]
    fn status(&self, p: &Pruner<'_>) -> Option<bool> {
        if self.len as usize > INLINE_TERMS {
            return self.r.pos.status(p);
        }
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(x, a) in &self.terms[..self.len as usize] {
            let (m, n) = (p.min(x) as i128 * a as i128, p.max(x) as i128 * a as i128);
            if a >= 0 {
                (lo, hi) = (lo + m, hi + n);
            } else {
                (lo, hi) = (lo + n, hi + m);
            }
        }
        status_of(self.rel, self.c, lo, hi)
    }
}

impl Propagator for ReifiedProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let r = self.r;
        for (i, &x) in r.scope.iter().enumerate() {
            setup.subscribe(x, i, Events::BOUNDS);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let b = self.b;
        // The model posts `b` over a subset of {0, 1} (`check_bools`), so
        // this never prunes; it is tested on the bounds first, since in
        // explaining mode `retain` records its cause before looking.
        if p.min(b) < 0 || p.max(b) > 1 {
            p.retain(b, |v| v == 0 || v == 1, Why::Constraint)?;
        }
        match p.value(b) {
            Some(1) => {
                let r = self.r;
                r.pos.enforce(p, Some(Literal::Eq(b, 1)))?;
                if self.status(p) == Some(true) {
                    p.entail();
                }
            }
            Some(_) if self.half => p.entail(),
            Some(_) => {
                let r = self.r;
                r.neg.enforce(p, Some(Literal::Eq(b, 0)))?;
                if r.neg.status(p) == Some(true) {
                    p.entail();
                }
            }
            None => match self.status(p) {
                // The reason: the terms' bounds, which decide the relation.
                Some(true) if !self.half => {
                    p.fix(b, 1, term_bounds(&self.r.pos.vars))?;
                    p.entail();
                }
                Some(false) => {
                    p.fix(b, 0, term_bounds(&self.r.pos.vars))?;
                    p.entail();
                }
                _ => {}
            },
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn name(&self) -> &str {
        self.r.name()
    }
}

/// `b ⇔ x ∈ S` (or `b ⇒ x ∈ S`) for a constant set `S`; scope `[x, b]`.
///
/// # Pruning
/// `b` fixed: `x` keeps only (or loses) the values of `S`; otherwise `b`
/// is fixed once `dom(x) ⊆ S` or `dom(x) ∩ S = ∅`. O(|S|) per call, plus
/// the domain filter when `b` is fixed.
#[derive(Debug, Clone)]
pub struct ReifiedIn {
    scope: [VarId; 2],
    set: Domain,
    half: bool,
}

impl Constraint for ReifiedIn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let holds = self.set.contains(v[0]);
        match v[1] {
            1 => holds,
            0 => self.half || !holds,
            _ => false,
        }
    }
    fn name(&self) -> &str {
        "reified-in"
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(InProp(self)))
    }
}

/// Calls `f` on the values of `x`'s domain that lie in `set`, walking the
/// smaller of the two (a set or a domain may span the whole `i32` range;
/// the walk over the domain stays within the set's bounds), until `f`
/// returns false.
fn walk_both(p: &Pruner<'_>, x: VarId, set: &Domain, mut f: impl FnMut(Value) -> bool) {
    let (Some(lo), Some(hi)) = (set.min(), set.max()) else {
        return;
    };
    if set.size() <= p.size(x) {
        for v in set.iter().filter(|&v| p.contains(x, v)) {
            if !f(v) {
                return;
            }
        }
        return;
    }
    let mut v = if p.contains(x, lo) {
        Some(lo)
    } else {
        p.next_above(x, lo)
    };
    while let Some(u) = v.filter(|&u| u <= hi) {
        if set.contains(u) && !f(u) {
            return;
        }
        v = p.next_above(x, u);
    }
}

/// The values of `x`'s domain that lie in `set` (see [`walk_both`]).
fn in_both(p: &Pruner<'_>, x: VarId, set: &Domain) -> Vec<Value> {
    let mut out = Vec::new();
    walk_both(p, x, set, |v| {
        out.push(v);
        true
    });
    out
}

/// Does `x`'s domain meet `set`, and does it lie within it? Without
/// walking a range set, and otherwise walking the smaller side.
fn meets_within(p: &Pruner<'_>, x: VarId, set: &Domain) -> (bool, bool) {
    let (Some(lo), Some(hi)) = (set.min(), set.max()) else {
        return (false, false);
    };
    let (a, z) = (p.min(x), p.max(x));
    if set.is_range() {
        let first = if p.contains(x, lo) {
            Some(lo)
        } else {
            p.next_above(x, lo)
        };
        return (first.is_some_and(|f| f <= hi), lo <= a && z <= hi);
    }
    let mut meets = false;
    walk_both(p, x, set, |_| {
        meets = true;
        false
    });
    let within = p.size(x) <= set.size() && p.values(x).all(|v| set.contains(v));
    (meets, within)
}

#[derive(Debug)]
struct InProp<'a>(&'a ReifiedIn);

impl Propagator for InProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let [x, b] = self.0.scope;
        setup.subscribe(x, 0, Events::DOMAIN);
        setup.subscribe(b, 1, Events::FIXED);
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let r = self.0;
        let [x, b] = r.scope;
        p.retain(b, |v| v == 0 || v == 1, Why::Constraint)?;
        match p.value(b) {
            Some(1) => {
                if let (Some(lo), Some(hi)) = (r.set.min(), r.set.max()) {
                    p.set_min(x, lo, Literal::Eq(b, 1))?;
                    p.set_max(x, hi, Literal::Eq(b, 1))?;
                }
                p.retain(x, |v| r.set.contains(v), Literal::Eq(b, 1))?;
                p.entail();
            }
            Some(v) => {
                if !r.half {
                    let why = Literal::Eq(b, v);
                    match (r.set.is_range(), r.set.min(), r.set.max()) {
                        // A range at either end of x's domain: one bound,
                        // which rests on the side x is on as well.
                        (true, Some(lo), Some(hi)) if p.min(x) >= lo => {
                            let why = move |q: &mut Premises| {
                                q.push(why);
                                q.push(Literal::Ge(x, lo));
                            };
                            let Some(above) = hi.checked_add(1) else {
                                return Err(p.fail(why));
                            };
                            p.set_min(x, above, why)?;
                        }
                        (true, Some(lo), Some(hi)) if p.max(x) <= hi => {
                            let why = move |q: &mut Premises| {
                                q.push(why);
                                q.push(Literal::Le(x, hi));
                            };
                            let Some(below) = lo.checked_sub(1) else {
                                return Err(p.fail(why));
                            };
                            p.set_max(x, below, why)?;
                        }
                        _ => {
                            for u in in_both(p, x, &r.set) {
                                p.remove(x, u, why)?;
                            }
                        }
                    }
                }
                p.entail();
            }
            None => {
                let (meets, within) = meets_within(p, x, &r.set);
                if !meets {
                    // x has lost every value of the set.
                    let why = |q: &mut Premises| q.domain_within(x, |u| !r.set.contains(u));
                    p.fix(b, 0, why)?;
                    p.entail();
                } else if within && !r.half {
                    // x has lost every value outside the set.
                    let why = |q: &mut Premises| q.domain_within(x, |u| r.set.contains(u));
                    p.fix(b, 1, why)?;
                    p.entail();
                }
            }
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Cheap
    }
    fn name(&self) -> &str {
        "reified-in"
    }
}

impl Model {
    /// A new boolean: a variable over `{0, 1}` (its value is its
    /// `bool2int`).
    pub fn new_bool(&mut self) -> Result<VarId, ModelError> {
        self.new_var(Domain::range(0, 1))
    }

    /// `n` new booleans.
    pub fn new_bools(&mut self, n: usize) -> Result<Vec<VarId>, ModelError> {
        self.new_vars(n, Domain::range(0, 1))
    }

    /// Is `x` declared over a subset of `{0, 1}`?
    pub fn is_bool(&self, x: VarId) -> bool {
        x.index() < self.num_vars() && self.domain(x).iter().all(|v| v == 0 || v == 1)
    }

    /// Checks that every variable of `xs` is a boolean (domain within {0, 1}).
    fn check_bools(&self, constraint: &'static str, xs: &[VarId]) -> Result<(), ModelError> {
        self.check_vars(constraint, xs)?;
        for &x in xs {
            let d = self.domain(x);
            if d.iter().any(|v| v != 0 && v != 1) || d.size() > 2 {
                return Err(ModelError::Invalid {
                    constraint,
                    reason: format!(
                        "{} is not a boolean (its domain is not within {{0, 1}})",
                        self.display_name(x)
                    ),
                });
            }
        }
        Ok(())
    }

    /// The clause `pos₁ ∨ … ∨ ¬neg₁ ∨ …` over booleans (see [`Clause`]).
    pub fn clause(&mut self, pos: &[VarId], neg: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.check_bools("clause", pos)?;
        self.check_bools("clause", neg)?;
        self.post(Clause::new(pos, neg))
    }

    /// `b ⇔ x₁ ∧ … ∧ xₖ` over booleans, as k + 1 clauses.
    pub fn and(&mut self, xs: &[VarId], b: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bools("and", xs)?;
        self.check_bools("and", &[b])?;
        for &x in xs {
            self.clause(&[x], &[b])?;
        }
        self.clause(&[b], xs)
    }

    /// `b ⇔ x₁ ∨ … ∨ xₖ` over booleans, as k + 1 clauses.
    pub fn or(&mut self, xs: &[VarId], b: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bools("or", xs)?;
        self.check_bools("or", &[b])?;
        for &x in xs {
            self.clause(&[b], &[x])?;
        }
        self.clause(xs, &[b])
    }

    /// `b ⇔ x₁ ⊕ … ⊕ xₖ` over booleans (see [`Xor`]).
    pub fn xor(&mut self, xs: &[VarId], b: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bools("xor", xs)?;
        self.check_bools("xor", &[b])?;
        let mut vars = xs.to_vec();
        vars.push(b);
        self.post(Xor { vars })
    }

    /// `b ⇔ ¬x` over booleans.
    pub fn not(&mut self, x: VarId, b: VarId) -> Result<ConstraintId, ModelError> {
        self.check_bools("not", &[x, b])?;
        self.not_equal(x, b, 0)
    }

    /// `a ⇒ b` over booleans (the clause `¬a ∨ b`).
    pub fn implies(&mut self, a: VarId, b: VarId) -> Result<ConstraintId, ModelError> {
        self.clause(&[b], &[a])
    }

    /// A new boolean `b` with `b ⇔ rel`: `let b = m.reify(x.le(3))?;`.
    pub fn reify(&mut self, rel: Rel) -> Result<VarId, ModelError> {
        let b = self.new_bool()?;
        self.reify_with(rel, b)?;
        Ok(b)
    }

    /// `b ⇔ rel` for an existing boolean `b` (see [`ReifiedLinear`]).
    /// Auxiliary variables of non-linear parts (`x * y`) are defined
    /// whatever `b` is.
    pub fn reify_with(&mut self, rel: Rel, b: VarId) -> Result<ConstraintId, ModelError> {
        self.reified(rel, b, false)
    }

    /// `b ⇒ rel` (half-reification: `rel` may hold when `b` is 0).
    pub fn half_reify(&mut self, rel: Rel, b: VarId) -> Result<ConstraintId, ModelError> {
        self.reified(rel, b, true)
    }

    fn reified(&mut self, rel: Rel, b: VarId, half: bool) -> Result<ConstraintId, ModelError> {
        self.check_bools("reification", &[b])?;
        let (terms, r, c) = rel.linearize(self)?;
        let xs: Vec<VarId> = terms.iter().map(|t| t.1).collect();
        let coefs: Vec<i64> = terms.iter().map(|t| t.0).collect();
        let pos = Linear::new(xs.clone(), coefs, r, 0).with_rhs(c);
        let neg = pos.negated();
        let mut scope = xs;
        scope.push(b);
        self.post(ReifiedLinear {
            scope,
            pos,
            neg,
            half,
        })
    }

    /// `b ⇔ x ∈ set` (see [`ReifiedIn`]).
    pub fn reify_in(
        &mut self,
        x: VarId,
        set: Domain,
        b: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.check_bools("reification", &[b])?;
        self.post(ReifiedIn {
            scope: [x, b],
            set,
            half: false,
        })
    }

    /// `b ⇒ x ∈ set`.
    pub fn half_reify_in(
        &mut self,
        x: VarId,
        set: Domain,
        b: VarId,
    ) -> Result<ConstraintId, ModelError> {
        self.check_bools("reification", &[b])?;
        self.post(ReifiedIn {
            scope: [x, b],
            set,
            half: true,
        })
    }
}
