//! Expressions: write constraints the way the puzzle states them.
//!
//! Variables combine with `+`, `-`, `*`, `/`, `%` and integer constants into
//! an [`Expr`]; comparing two expressions with [`eq`](Expr::eq),
//! [`ne`](Expr::ne), [`lt`](Expr::lt), [`le`](Expr::le), [`gt`](Expr::gt)
//! or [`ge`](Expr::ge) gives a [`Rel`], which [`Model::post`] posts.
//!
//! ```
//! use csp_core::expr::sum;
//! use csp_core::{Domain, Model, ModelError, Search, VarId};
//!
//! fn model() -> Result<(Model, [VarId; 3]), ModelError> {
//!     let mut m = Model::new();
//!     let [x, y, z] = m.new_array(Domain::range(0, 9))?;
//!     m.post(x.lt(y))?;                 // x < y
//!     m.post((2 * x + y).eq(z + 3))?;   // 2x + y = z + 3
//!     m.post((x * y).ge(4))?;           // a product: an auxiliary variable
//!     m.post(sum([x, y, z]).le(15))?;
//!     Ok((m, [x, y, z]))
//! }
//! let (m, [x, y, z]) = model().unwrap();
//! let s = Search::new(&m).solve().unwrap().solution.unwrap();
//! let (x, y, z) = (s[x], s[y], s[z]);
//! assert!(x < y && 2 * x + y == z + 3 && x * y >= 4 && x + y + z <= 15);
//! ```
//!
//! # How an expression is posted
//! A relation is normalised to `Σ aᵢ·tᵢ ⋈ c`, where each term `tᵢ` is a
//! variable or a non-linear node (`x * y`, `x / y`, `x % y`,
//! [`abs`](Expr::abs), [`pow`](Expr::pow), [`min_of`], [`max_of`]). Each
//! non-linear node becomes an auxiliary variable whose domain is the node's
//! range computed from the declared domains, tied to its arguments by an
//! [`Arith`](crate::constraint::Arith) constraint; an argument that is not a
//! single variable gets an auxiliary variable and a linear equation. Then:
//! * `x ⋈ y + c` with `⋈` an inequality becomes [`LessEq`](crate::constraint::LessEq),
//!   `=`/`≠` become [`Equal`](crate::constraint::Equal) /
//!   [`NotEqual`](crate::constraint::NotEqual): O(1) propagators;
//! * `f(x, y) = z` for a single node and a single variable (or constant)
//!   posts the node's constraint on `z` directly, with no auxiliary;
//! * anything else is one [`Linear`](crate::constraint::Linear) constraint.
//!
//! Coefficients are `i32` (a literal like `3 * x` needs no suffix);
//! products of coefficients and sums of constants are exact while an
//! expression is built (`Expr::constant(i64::MIN)` can be negated). A
//! coefficient or constant that does not fit `i64` when posted, and an
//! auxiliary variable whose range does not fit `i32`, are refused with
//! [`ModelError::Overflow`] rather than wrapped or clamped, which could
//! change the constraint or lose solutions silently.

use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

use crate::constraint::{ArithOp, Relation};
use crate::domain::Domain;
use crate::error::ModelError;
use crate::ids::{ConstraintId, Value, VarId};
use crate::model::Model;

/// An integer expression: `Σ aᵢ·tᵢ + k` over variables and non-linear
/// nodes (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Expr {
    /// Coefficients and the constant are kept in `i128`, so that
    /// `k − i64::MIN` and the like are exact on the way; what does not fit
    /// `i64` when posted is [`ModelError::Overflow`].
    terms: Vec<(i128, Node)>,
    constant: i128,
    /// An operation on the way left even `i128` (`x·a·b·c·d` with large
    /// factors): posting it is [`ModelError::Overflow`].
    overflow: bool,
}

/// A term of an [`Expr`]: a variable or a non-linear function.
#[derive(Clone, Debug)]
enum Node {
    Var(VarId),
    Op(ArithOp, Vec<Expr>),
}

impl From<VarId> for Expr {
    fn from(x: VarId) -> Expr {
        Expr {
            terms: vec![(1, Node::Var(x))],
            constant: 0,
            overflow: false,
        }
    }
}

impl From<&VarId> for Expr {
    fn from(x: &VarId) -> Expr {
        Expr::from(*x)
    }
}

impl From<i32> for Expr {
    fn from(k: i32) -> Expr {
        Expr {
            terms: Vec::new(),
            constant: k as i128,
            overflow: false,
        }
    }
}

impl From<i64> for Expr {
    /// The constant `k` (counts, sums and coefficients are `i64`).
    fn from(k: i64) -> Expr {
        Expr::constant(k)
    }
}

impl From<&Expr> for Expr {
    fn from(e: &Expr) -> Expr {
        e.clone()
    }
}

/// `Σ items`: `sum(&row)`, `sum([x, y, z])`, `sum(xs.iter().map(|&x| 2 * x))`.
pub fn sum<T: Into<Expr>>(items: impl IntoIterator<Item = T>) -> Expr {
    items
        .into_iter()
        .fold(Expr::from(0), |acc, t| acc + t.into())
}

/// `Σ coefs[i]·vars[i]` (the shorter list decides the length).
pub fn scalar_product(coefs: &[i32], vars: &[VarId]) -> Expr {
    sum(coefs.iter().zip(vars).map(|(&a, &x)| a * x))
}

/// The least of `items` (an auxiliary variable when posted).
pub fn min_of<T: Into<Expr>>(items: impl IntoIterator<Item = T>) -> Expr {
    node(ArithOp::Min, items.into_iter().map(Into::into).collect())
}

/// The greatest of `items` (an auxiliary variable when posted).
pub fn max_of<T: Into<Expr>>(items: impl IntoIterator<Item = T>) -> Expr {
    node(ArithOp::Max, items.into_iter().map(Into::into).collect())
}

fn node(op: ArithOp, args: Vec<Expr>) -> Expr {
    Expr {
        overflow: args.iter().any(|a| a.overflow),
        terms: vec![(1, Node::Op(op, args))],
        constant: 0,
    }
}

/// A comparison of two expressions, ready for [`Model::post`].
#[derive(Clone, Debug)]
pub struct Rel {
    lhs: Expr,
    rel: Relation,
    rhs: Expr,
}

impl Rel {
    /// The comparison.
    pub fn relation(&self) -> Relation {
        self.rel
    }

    /// `Σ aᵢ·xᵢ ⋈ c` with auxiliary variables for the non-linear nodes
    /// (posted into `m`), repeated variables merged, zero coefficients
    /// dropped and `<`/`>` made `≤`/`≥`.
    pub(crate) fn linearize(self, m: &mut Model) -> Result<Linearized, ModelError> {
        self.lhs.in_range()?;
        self.rhs.in_range()?;
        let (terms, k) = flatten(m, &(self.lhs - self.rhs))?;
        let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
        for (a, x) in terms {
            match merged.iter_mut().find(|t| t.1 == x) {
                Some(t) => {
                    t.0 =
                        t.0.checked_add(a)
                            .ok_or(ModelError::Overflow { constraint: EXPR })?;
                }
                None => merged.push((a, x)),
            }
        }
        merged.retain(|t| t.0 != 0);
        let (rel, c) = self.rel.non_strict(-k);
        Ok((merged, rel, c))
    }
}

macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident => $rel:ident;)*) => {
        impl Expr {
            $(
                $(#[$doc])*
                pub fn $name(self, rhs: impl Into<Expr>) -> Rel {
                    Rel { lhs: self, rel: Relation::$rel, rhs: rhs.into() }
                }
            )*
        }
        impl VarId {
            $(
                $(#[$doc])*
                pub fn $name(self, rhs: impl Into<Expr>) -> Rel {
                    Expr::from(self).$name(rhs)
                }
            )*
        }
    };
}

comparisons! {
    /// `self = rhs` as a constraint (not a Rust comparison).
    eq => Eq;
    /// `self ≠ rhs` as a constraint.
    ne => Ne;
    /// `self < rhs` as a constraint.
    lt => Lt;
    /// `self ≤ rhs` as a constraint.
    le => Le;
    /// `self > rhs` as a constraint.
    gt => Gt;
    /// `self ≥ rhs` as a constraint.
    ge => Ge;
}

impl Expr {
    /// `|self|`.
    pub fn abs(self) -> Expr {
        node(ArithOp::Abs, vec![self])
    }
    /// `selfᵏ` (`x⁰ = 1`).
    pub fn pow(self, k: u32) -> Expr {
        node(ArithOp::Pow(k), vec![self])
    }
    /// Its value, when it is a constant.
    pub(crate) fn as_constant(&self) -> Option<i64> {
        match (self.terms.is_empty(), self.overflow) {
            (true, false) => i64::try_from(self.constant).ok(),
            _ => None,
        }
    }

    /// The variable it is, when it is one.
    pub(crate) fn as_var(&self) -> Option<VarId> {
        match (self.terms.as_slice(), self.constant, self.overflow) {
            ([(1, Node::Var(x))], 0, false) => Some(*x),
            _ => None,
        }
    }

    /// The constant expression `k` (for the rare `i64` constant).
    pub fn constant(k: i64) -> Expr {
        Expr {
            terms: Vec::new(),
            constant: k as i128,
            overflow: false,
        }
    }

    /// `a·self`; a product past `i64` marks the expression (it is refused
    /// when posted, never wrapped).
    fn scale(mut self, a: i128) -> Expr {
        for t in &mut self.terms {
            let (p, o) = t.0.overflowing_mul(a);
            t.0 = p;
            self.overflow |= o;
        }
        let (p, o) = self.constant.overflowing_mul(a);
        self.constant = p;
        self.overflow |= o;
        self
    }

    /// `Err(Overflow)` when an operation on the way left `i64`.
    fn in_range(&self) -> Result<(), ModelError> {
        if self.overflow {
            Err(ModelError::Overflow { constraint: EXPR })
        } else {
            Ok(())
        }
    }
}

/// `b ⇔ rel` or `b ⇒ rel`, ready for [`Model::post`] (see
/// [`VarId::iff`], [`VarId::implies`]).
#[derive(Clone, Debug)]
pub struct Reif {
    b: VarId,
    rel: Rel,
    half: bool,
}

impl From<VarId> for Rel {
    /// A boolean as a relation: `b = 1`.
    fn from(b: VarId) -> Rel {
        b.eq(1)
    }
}

impl Post for Reif {
    fn post_into(self, m: &mut Model) -> Result<ConstraintId, ModelError> {
        self.rel.lhs.in_range()?;
        self.rel.rhs.in_range()?;
        // `a ⇒ c` between booleans is the clause ¬a ∨ c.
        if let (true, Relation::Eq, [(1, Node::Var(c))], 1, []) = (
            self.half,
            self.rel.rel,
            self.rel.lhs.terms.as_slice(),
            self.rel.rhs.constant,
            self.rel.rhs.terms.as_slice(),
        ) {
            if self.rel.lhs.constant == 0 && m.is_bool(*c) && m.is_bool(self.b) {
                return m.clause(&[*c], &[self.b]);
            }
        }
        if self.half {
            m.half_reify(self.rel, self.b)
        } else {
            m.reify_with(self.rel, self.b)
        }
    }
}

impl VarId {
    /// `self ⇔ rel` for a boolean `self`: `m.post(b.iff(x.le(3)))?`.
    pub fn iff(self, rel: impl Into<Rel>) -> Reif {
        Reif {
            b: self,
            rel: rel.into(),
            half: false,
        }
    }

    /// `self ⇒ rel` for a boolean `self` (half-reification):
    /// `m.post(b.implies(x.eq(y)))?`; `a.implies(c)` between booleans is
    /// the clause `¬a ∨ c`.
    pub fn implies(self, rel: impl Into<Rel>) -> Reif {
        Reif {
            b: self,
            rel: rel.into(),
            half: true,
        }
    }

    /// `|x|` as an expression.
    pub fn abs(self) -> Expr {
        Expr::from(self).abs()
    }
    /// `xᵏ` as an expression.
    pub fn pow(self, k: u32) -> Expr {
        Expr::from(self).pow(k)
    }
}

impl<T: Into<Expr>> Add<T> for Expr {
    type Output = Expr;
    fn add(mut self, rhs: T) -> Expr {
        let rhs = rhs.into();
        self.terms.extend(rhs.terms);
        let (k, o) = self.constant.overflowing_add(rhs.constant);
        self.constant = k;
        self.overflow |= o || rhs.overflow;
        self
    }
}

impl<T: Into<Expr>> Sub<T> for Expr {
    type Output = Expr;
    fn sub(self, rhs: T) -> Expr {
        self + rhs.into().scale(-1)
    }
}

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        self.scale(-1)
    }
}

impl Neg for VarId {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::from(self).scale(-1)
    }
}

impl Mul<i32> for Expr {
    type Output = Expr;
    fn mul(self, a: i32) -> Expr {
        self.scale(a as i128)
    }
}

impl Mul<Expr> for i32 {
    type Output = Expr;
    fn mul(self, e: Expr) -> Expr {
        e.scale(self as i128)
    }
}

impl Mul<VarId> for i32 {
    type Output = Expr;
    fn mul(self, x: VarId) -> Expr {
        Expr::from(x).scale(self as i128)
    }
}

impl Mul<i32> for VarId {
    type Output = Expr;
    fn mul(self, a: i32) -> Expr {
        Expr::from(self).scale(a as i128)
    }
}

/// Non-linear binary operators between expressions and variables.
macro_rules! nonlinear {
    ($tr:ident, $f:ident, $op:expr) => {
        impl $tr<Expr> for Expr {
            type Output = Expr;
            fn $f(self, rhs: Expr) -> Expr {
                node($op, vec![self, rhs])
            }
        }
        impl $tr<VarId> for Expr {
            type Output = Expr;
            fn $f(self, rhs: VarId) -> Expr {
                node($op, vec![self, rhs.into()])
            }
        }
        impl $tr<Expr> for VarId {
            type Output = Expr;
            fn $f(self, rhs: Expr) -> Expr {
                node($op, vec![self.into(), rhs])
            }
        }
        impl $tr<VarId> for VarId {
            type Output = Expr;
            fn $f(self, rhs: VarId) -> Expr {
                node($op, vec![self.into(), rhs.into()])
            }
        }
    };
}

nonlinear!(Div, div, ArithOp::Div);
nonlinear!(Rem, rem, ArithOp::Mod);

/// `x / k` and `x % k` with a constant divisor.
macro_rules! by_constant {
    ($tr:ident, $f:ident, $op:expr) => {
        impl $tr<i32> for Expr {
            type Output = Expr;
            fn $f(self, k: i32) -> Expr {
                node($op, vec![self, Expr::from(k)])
            }
        }
        impl $tr<i32> for VarId {
            type Output = Expr;
            fn $f(self, k: i32) -> Expr {
                node($op, vec![self.into(), Expr::from(k)])
            }
        }
    };
}

by_constant!(Div, div, ArithOp::Div);
by_constant!(Rem, rem, ArithOp::Mod);

impl Mul<Expr> for Expr {
    type Output = Expr;
    /// The product of two expressions (non-linear unless one is constant).
    fn mul(self, rhs: Expr) -> Expr {
        let overflow = self.overflow || rhs.overflow;
        let mut e = match (self.terms.is_empty(), rhs.terms.is_empty()) {
            (true, _) => rhs.scale(self.constant),
            (_, true) => self.scale(rhs.constant),
            _ => node(ArithOp::Times, vec![self, rhs]),
        };
        e.overflow |= overflow;
        e
    }
}

impl Mul<VarId> for Expr {
    type Output = Expr;
    fn mul(self, rhs: VarId) -> Expr {
        self * Expr::from(rhs)
    }
}

impl Mul<Expr> for VarId {
    type Output = Expr;
    fn mul(self, rhs: Expr) -> Expr {
        Expr::from(self) * rhs
    }
}

impl Mul<VarId> for VarId {
    type Output = Expr;
    fn mul(self, rhs: VarId) -> Expr {
        node(ArithOp::Times, vec![self.into(), rhs.into()])
    }
}

impl<T: Into<Expr>> Add<T> for VarId {
    type Output = Expr;
    fn add(self, rhs: T) -> Expr {
        Expr::from(self) + rhs
    }
}

impl<T: Into<Expr>> Sub<T> for VarId {
    type Output = Expr;
    fn sub(self, rhs: T) -> Expr {
        Expr::from(self) - rhs
    }
}

impl Add<VarId> for i32 {
    type Output = Expr;
    fn add(self, x: VarId) -> Expr {
        Expr::from(self) + x
    }
}

impl Add<Expr> for i32 {
    type Output = Expr;
    fn add(self, e: Expr) -> Expr {
        Expr::from(self) + e
    }
}

impl Sub<VarId> for i32 {
    type Output = Expr;
    fn sub(self, x: VarId) -> Expr {
        Expr::from(self) - x
    }
}

impl Sub<Expr> for i32 {
    type Output = Expr;
    fn sub(self, e: Expr) -> Expr {
        Expr::from(self) - e
    }
}

impl Model {
    /// A variable equal to `e`: `e` itself when it is a variable, else a
    /// new variable over `e`'s range, tied to it by a linear equation (and
    /// auxiliaries for non-linear parts). For objectives:
    /// `let cost = m.define(3 * x + 2 * y)?; Search::new(&m).minimize(cost)?`.
    pub fn define(&mut self, e: impl Into<Expr>) -> Result<VarId, ModelError> {
        as_var(self, &e.into())
    }
}

/// Something [`Model::post`] accepts: a [`Constraint`](crate::Constraint)
/// or a [`Rel`].
pub trait Post {
    /// Adds `self` to `model` (with any auxiliary variables it needs) and
    /// returns the id of the constraint that states it.
    fn post_into(self, model: &mut Model) -> Result<ConstraintId, ModelError>;
}

impl<C: crate::Constraint + 'static> Post for C {
    fn post_into(self, m: &mut Model) -> Result<ConstraintId, ModelError> {
        m.post_constraint(self)
    }
}

impl Post for Rel {
    fn post_into(self, m: &mut Model) -> Result<ConstraintId, ModelError> {
        post_rel(m, self)
    }
}

/// A linearized relation: `Σ aᵢ·xᵢ ⋈ c`.
pub(crate) type Linearized = (Vec<(i64, VarId)>, Relation, i128);

/// A flattened expression: terms over variables and a constant.
type Flat = (Vec<(i64, VarId)>, i128);

const EXPR: &str = "expression";

fn post_rel(m: &mut Model, r: Rel) -> Result<ConstraintId, ModelError> {
    r.lhs.in_range()?;
    r.rhs.in_range()?;
    // `f(args) = z` for one node and one variable or constant: no auxiliary.
    if r.rel == Relation::Eq {
        for (a, b) in [(&r.lhs, &r.rhs), (&r.rhs, &r.lhs)] {
            if let ([(1, Node::Op(op, args))], 0) = (a.terms.as_slice(), a.constant) {
                let z = match (b.terms.as_slice(), b.constant) {
                    ([(1, Node::Var(z))], 0) => Some(*z),
                    ([], k) => Some(m.new_var(Domain::singleton(fit(k)?))?),
                    _ => None,
                };
                if let Some(z) = z {
                    let args = args
                        .iter()
                        .map(|e| as_var(m, e))
                        .collect::<Result<Vec<_>, _>>()?;
                    return post_op(m, *op, &args, z);
                }
            }
        }
    }
    // A comparison with variables whose terms cancel out (`x − x = 1`)
    // stays a constant comparison; one of constants only is an empty sum.
    let had_vars = !(r.lhs.terms.is_empty() && r.rhs.terms.is_empty());
    let (merged, rel, c) = r.linearize(m)?;
    if merged.is_empty() && had_vars {
        return m.linear_terms(&merged, rel, fit64(c)?);
    }
    if let [(a, x), (b, y)] = merged[..] {
        if a == -b && a.abs() == 1 {
            // x − y ⋈ c (or y − x ⋈ c): the O(1) binary propagators.
            let (x, y) = if a == 1 { (x, y) } else { (y, x) };
            return match rel {
                Relation::Le => m.less_eq(x, y, fit64(c)?),
                Relation::Ge => m.less_eq(y, x, fit64(-c)?),
                Relation::Eq => m.equal(x, y, fit(c)?),
                Relation::Ne => m.not_equal(x, y, fit(c)?),
                Relation::Lt | Relation::Gt => unreachable!("non_strict removed them"),
            };
        }
    }
    m.linear(&merged, rel, fit64(c)?)
}

fn fit(v: i128) -> Result<Value, ModelError> {
    Value::try_from(v).map_err(|_| ModelError::Overflow { constraint: EXPR })
}

fn fit64(v: i128) -> Result<i64, ModelError> {
    i64::try_from(v).map_err(|_| ModelError::Overflow { constraint: EXPR })
}

/// The terms and constant of `e`, with a fresh variable for every node.
fn flatten(m: &mut Model, e: &Expr) -> Result<Flat, ModelError> {
    e.in_range()?;
    let mut terms = Vec::with_capacity(e.terms.len());
    for (a, t) in &e.terms {
        let x = match t {
            Node::Var(x) => *x,
            Node::Op(op, args) => {
                let args = args
                    .iter()
                    .map(|e| as_var(m, e))
                    .collect::<Result<Vec<_>, _>>()?;
                let (lo, hi) = op_range(m, *op, &args)?;
                let z = m.new_var(Domain::range(fit(lo)?, fit(hi)?))?;
                let c = post_op(m, *op, &args, z)?;
                m.mark_hidden(z, c);
                z
            }
        };
        terms.push((fit64(*a)?, x));
    }
    Ok((terms, e.constant))
}

/// A variable equal to `e`: `e` itself when it is one, else an auxiliary.
fn as_var(m: &mut Model, e: &Expr) -> Result<VarId, ModelError> {
    e.in_range()?;
    match (e.terms.as_slice(), e.constant) {
        ([(1, Node::Var(x))], 0) => return Ok(*x),
        ([], k) => return m.new_var(Domain::singleton(fit(k)?)),
        _ => {}
    }
    let (terms, k) = flatten(m, e)?;
    let (mut lo, mut hi) = (k, k);
    for &(a, x) in &terms {
        let (l, h) = bounds(m, x);
        let (p, q) = (a as i128 * l, a as i128 * h);
        lo += p.min(q);
        hi += p.max(q);
    }
    let z = m.new_var(Domain::range(fit(lo)?, fit(hi)?))?;
    // Σ terms + k = z  ⇔  Σ terms − z = −k
    let mut all = terms;
    all.push((-1, z));
    let c = m.linear(&all, Relation::Eq, fit64(-k)?)?;
    m.mark_hidden(z, c);
    Ok(z)
}

fn post_op(
    m: &mut Model,
    op: ArithOp,
    args: &[VarId],
    z: VarId,
) -> Result<ConstraintId, ModelError> {
    match op {
        ArithOp::Times => m.times(args[0], args[1], z),
        ArithOp::Div => m.div(args[0], args[1], z),
        ArithOp::Mod => m.modulo(args[0], args[1], z),
        ArithOp::Abs => m.abs(args[0], z),
        ArithOp::Pow(k) => m.pow(args[0], k, z),
        ArithOp::Min => m.min(args, z),
        ArithOp::Max => m.max(args, z),
    }
}

fn bounds(m: &Model, x: VarId) -> (i128, i128) {
    let d = m.domain(x);
    (d.min().unwrap_or(0) as i128, d.max().unwrap_or(0) as i128)
}

/// The range of `op(args)` over the declared domains (a superset).
fn op_range(m: &Model, op: ArithOp, args: &[VarId]) -> Result<(i128, i128), ModelError> {
    let b: Vec<(i128, i128)> = args.iter().map(|&x| bounds(m, x)).collect();
    let corners = |f: &dyn Fn(i128, i128) -> i128, (a, bb): (i128, i128), (c, d): (i128, i128)| {
        let v = [f(a, c), f(a, d), f(bb, c), f(bb, d)];
        (
            v.iter().copied().min().unwrap_or(0),
            v.iter().copied().max().unwrap_or(0),
        )
    };
    let divisor_parts = |(c, d): (i128, i128)| -> Result<Vec<(i128, i128)>, ModelError> {
        let mut parts = Vec::new();
        if c <= -1 {
            parts.push((c, d.min(-1)));
        }
        if d >= 1 {
            parts.push((c.max(1), d));
        }
        if parts.is_empty() {
            return Err(ModelError::Invalid {
                constraint: EXPR,
                reason: "division by a variable that can only be 0".into(),
            });
        }
        Ok(parts)
    };
    Ok(match op {
        ArithOp::Times => corners(&|p, q| p * q, b[0], b[1]),
        ArithOp::Div => {
            let parts = divisor_parts(b[1])?;
            let rs: Vec<(i128, i128)> = parts
                .into_iter()
                .map(|q| corners(&|p, q| p / q, b[0], q))
                .collect();
            (
                rs.iter().map(|r| r.0).min().unwrap_or(0),
                rs.iter().map(|r| r.1).max().unwrap_or(0),
            )
        }
        ArithOp::Mod => {
            divisor_parts(b[1])?;
            let mm = b[1].0.abs().max(b[1].1.abs()) - 1;
            let lo = if b[0].0 >= 0 { 0 } else { b[0].0.max(-mm) };
            let hi = if b[0].1 <= 0 { 0 } else { b[0].1.min(mm) };
            (lo, hi)
        }
        ArithOp::Abs => {
            let (a, bb) = b[0];
            let lo = if a <= 0 && 0 <= bb {
                0
            } else {
                a.abs().min(bb.abs())
            };
            (lo, a.abs().max(bb.abs()))
        }
        ArithOp::Pow(k) => {
            let (a, bb) = b[0];
            let p = |v| crate::constraint::pow_sat(v, k);
            if k == 0 {
                (1, 1)
            } else if k % 2 == 1 {
                (p(a), p(bb))
            } else {
                let lo = if a <= 0 && 0 <= bb {
                    0
                } else {
                    a.abs().min(bb.abs())
                };
                (p(lo), p(a.abs().max(bb.abs())))
            }
        }
        ArithOp::Min => (
            b.iter().map(|r| r.0).min().unwrap_or(0),
            b.iter().map(|r| r.1).min().unwrap_or(0),
        ),
        ArithOp::Max => (
            b.iter().map(|r| r.0).max().unwrap_or(0),
            b.iter().map(|r| r.1).max().unwrap_or(0),
        ),
    })
}
