//! Packing boxes with variable sizes in any number of dimensions:
//! [`DiffnK`] (MiniZinc's `diffn_k` and `diffn_nonstrict_k`, and `diffn` /
//! `diffn_nonstrict` when the sizes are variables).

use super::diffn::{forbid, overflow};
use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// Boxes `i` in `k` dimensions, with origin `o[i][d]` and size `s[i][d]`
/// on dimension `d` (all variables, sizes at least 0), that do not
/// overlap: for every pair `i < j` there is a dimension `d` on which one
/// lies wholly before the other, `o[i][d] + s[i][d] ≤ o[j][d]` or
/// `o[j][d] + s[j][d] ≤ o[i][d]`.
///
/// This is MiniZinc's `diffn_k` (the decomposition of its standard
/// library's `fzn_diffn_k.mzn`), under which a box of size 0 on some
/// dimension still may not lie strictly inside another. The *non-strict*
/// variant ([`Model::diffn_k_nonstrict`], MiniZinc's `diffn_nonstrict_k`)
/// frees a pair as soon as one of the two boxes has size 0 on some
/// dimension. With `k = 2` it is MiniZinc's `diffn` with variable sizes
/// ([`Model::diffn_var`]).
///
/// **Negative sizes.** MiniZinc's decomposition gives a negative size a
/// meaning (a box that ends before it starts); csp refuses a size variable
/// whose domain holds a negative value with [`ModelError::Invalid`], and
/// the MiniZinc library (`share/minizinc/csp/fzn_diffn*.mzn`) maps to this
/// constraint only when every size's lower bound is at least 0, keeping
/// the decomposition otherwise.
///
/// # Pruning
/// Pairwise, on the bounds, with the *minimum* sizes (the compulsory
/// parts): box `f` can come first on dimension `d` when
/// `min o[f][d] + min s[f][d] ≤ max o[g][d]`. When neither order is
/// possible on every dimension but one, the pair is a disjunctive pair on
/// that one (on none: a failure); when there only one order `f` before `g`
/// is possible, it is enforced:
/// * `o[g][d] ≥ min o[f][d] + min s[f][d]`,
/// * `o[f][d] ≤ max o[g][d] − min s[f][d]`,
/// * `s[f][d] ≤ max o[g][d] − min o[f][d]` (the first box's size is capped
///   by the room before the second).
///
/// This is the pairwise core of the non-overlapping rectangles filtering
/// of Beldiceanu and Carlsson ("Sweep as a generic pruning technique
/// applied to the non-overlapping rectangles constraint", CP 2001) and of
/// the pairwise propagation of Gecode's `NoOverlap` with variable
/// dimensions (`gecode/int/no-overlap`), which also bounds the sizes; the
/// code here is csp's own. In the non-strict variant a pair is kept apart
/// only once every size of both boxes is at least 1; when exactly one size
/// `z` may still be 0 and the pair must overlap on every dimension, `z`
/// becomes 0, and when the only way apart puts `z`'s box first on `z`'s
/// dimension, `z` is capped at the room before the other box (or 0).
///
/// In two dimensions, at the pairwise fixpoint, an **energetic overload
/// check** on each axis, on the minimum sizes: the boxes of positive
/// minimum area whose origins must lie at or after `a` and that must end
/// by `b` (latest origin plus largest size) on that axis fit inside
/// `[a, b)` times their bounding box on the other axis, so their minimum
/// areas sum to at most that box's area (as [`Diffn`](super::Diffn)'s
/// check with constant sizes).
///
/// With one origin left open (every other variable fixed), it also loses
/// the values in the middle of its domain where its box would overlap a
/// fixed one (the forward-checking contract; a size left open is exact
/// from the bounds rules).
///
/// # Reasons
/// "`f` cannot come first on `d`" is explained by `o[f][d] ≥ min`,
/// `s[f][d] ≥ min` and `o[g][d] ≤ min o[f][d] + min s[f][d] − 1`; a forced
/// overlap on a dimension by both directions of that; a push by those of
/// the other dimensions, the blocked order, and the bounds the new bound
/// is computed from (in the non-strict variant also `s ≥ 1` for the sizes
/// that make the pair count). An overload is explained by the boxes of
/// largest minimum area that overflow the box, each by its origins'
/// bounds and maximum sizes that keep it inside and its minimum sizes.
///
/// # Order literals
/// Posted with order literals ([`Model::diffn_k_ordered`], strict only),
/// the constraint also keeps, for each pair and dimension, two 0/1
/// variables `b ↔ o[f][d] + s[f][d] ≤ o[g][d]` exact, and the pairwise
/// rule runs through them instead: "`f` cannot come first on `d`" sets
/// `b` to 0 (reason as above), an order the bounds entail sets it to 1
/// (`o[f][d] ≤ max`, `s[f][d] ≤ max`, `o[g][d] ≥ min`), a pair whose
/// literals are all 0 but one sets that one to 1 (reason: the others at
/// 0; all at 0 is a failure), and a literal at 1 pushes the three bounds
/// above, at 0 the three bounds of `o[f][d] + s[f][d] ≥ o[g][d] + 1`,
/// each explained by the literal and the bounds the new one is computed
/// from. The pruning is the plain rule's; the learning search's nogoods
/// then name "`f` before `g`" as one literal, which holds wherever the
/// boxes lie, as the reified disjuncts of MiniZinc's decomposition do,
/// instead of the bounds that made it so at one node. Lifting the plain
/// rule's reasons (weakening other bounds than the ones above) was
/// measured and learns more nogoods, not fewer (`docs/benchmarks.md`,
/// "Order literals").
///
/// Cost: O(n²·k) per call (the overload check O(n²) per axis), not idempotent (the kernel calls it again after
/// its own changes), no entailment. The checker is pairwise, O(n²·k)
/// (with order literals, also each literal against its boxes). Local
/// search: violations are the number of boxes that overlap another (plus
/// the order literals that disagree with their boxes).
#[derive(Debug, Clone)]
pub struct DiffnK {
    /// The origins (box by box, `k` each), then the sizes (the same way),
    /// then the order literals if any (see [`DiffnK::order_literal`]).
    scope: Vec<VarId>,
    /// The number of boxes.
    n: usize,
    k: usize,
    /// With order literals ([`Model::diffn_k_ordered`])?
    ordered: bool,
    strict: bool,
    /// Posted as MiniZinc's two-dimensional `diffn` (`diffn_var`)?
    planar: bool,
}

impl DiffnK {
    /// The number of boxes.
    pub fn len(&self) -> usize {
        self.n
    }

    /// No box at all?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of dimensions.
    pub fn dims(&self) -> usize {
        self.k
    }

    /// Box `i`'s origin on dimension `d`.
    pub fn origin(&self, i: usize, d: usize) -> VarId {
        self.scope[i * self.k + d]
    }

    /// Box `i`'s size on dimension `d`.
    pub fn size(&self, i: usize, d: usize) -> VarId {
        self.scope[(self.len() + i) * self.k + d]
    }

    /// MiniZinc's `diffn_k` (true) or `diffn_nonstrict_k` (false)?
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Posted with order literals ([`Model::diffn_k_ordered`])?
    pub fn is_ordered(&self) -> bool {
        self.ordered
    }

    /// With order literals, the 0/1 variable that is 1 exactly when box
    /// `f` lies wholly before box `g` on dimension `d`
    /// (`o[f][d] + s[f][d] ≤ o[g][d]`); `None` without them or when
    /// `f == g`.
    pub fn order_literal(&self, f: usize, g: usize, d: usize) -> Option<VarId> {
        if !self.ordered || f == g || f >= self.n || g >= self.n || d >= self.k {
            return None;
        }
        Some(self.scope[self.position_of_order(f, g, d)])
    }

    /// The origins and sizes of the scope (without the order literals).
    fn boxes_scope(&self) -> &[VarId] {
        &self.scope[..2 * self.n * self.k]
    }

    /// With order literals, how many of them disagree with the values `v`.
    fn order_mismatches(&self, v: &[Value]) -> u64 {
        if !self.ordered {
            return 0;
        }
        let (n, k) = (self.n, self.k);
        let o = |b: usize, d: usize| v[b * k + d] as i64;
        let s = |b: usize, d: usize| v[(n + b) * k + d] as i64;
        let mut bad = 0;
        for f in 0..n {
            for g in (0..n).filter(|&g| g != f) {
                for d in 0..k {
                    let at = self.position_of_order(f, g, d);
                    let before = o(f, d) + s(f, d) <= o(g, d);
                    bad += u64::from((v[at] == 1) != before);
                }
            }
        }
        bad
    }

    /// The scope position of `order_literal(f, g, d)` (ordered only).
    fn position_of_order(&self, f: usize, g: usize, d: usize) -> usize {
        let (i, j) = (f.min(g), f.max(g));
        // Pairs (0, 1), (0, 2), …, (1, 2), …: those of the rows before i,
        // then j's place in row i.
        let pair = i * (2 * self.n - i - 1) / 2 + (j - i - 1);
        2 * self.n * self.k + (pair * self.k + d) * 2 + usize::from(f > g)
    }

    /// Do boxes `i` and `j` violate the constraint with the values `v`?
    fn clash(&self, v: &[Value], i: usize, j: usize) -> bool {
        let (n, k) = (self.len(), self.k);
        let o = |b: usize, d: usize| v[b * k + d] as i64;
        let s = |b: usize, d: usize| v[(n + b) * k + d] as i64;
        if !self.strict && (0..k).any(|d| s(i, d) == 0 || s(j, d) == 0) {
            return false;
        }
        (0..k).all(|d| o(i, d) < o(j, d) + s(j, d) && o(j, d) < o(i, d) + s(i, d))
    }
}

impl Model {
    /// Rectangles at `(x[i], y[i])` of the variable sizes `dx[i] × dy[i]`
    /// do not overlap (MiniZinc's `diffn` with variable sizes; see
    /// [`DiffnK`], two dimensions). Fails with
    /// [`ModelError::LengthMismatch`] when the lists differ in length and
    /// [`ModelError::Invalid`] when a size may be negative.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // A 2 × 2 square and a rectangle that may lie flat (3 × 1) or stand
    /// // (1 × 3), rotation as w + h = 4, in a 3 × 3 box.
    /// use csp_core::Relation::{Eq, Le};
    /// let mut m = Model::new();
    /// let x = m.new_vars(2, Domain::range(0, 2)).unwrap();
    /// let y = m.new_vars(2, Domain::range(0, 2)).unwrap();
    /// let two = m.new_var(Domain::singleton(2)).unwrap();
    /// let w = m.new_var(Domain::values([1, 3])).unwrap();
    /// let h = m.new_var(Domain::values([1, 3])).unwrap();
    /// m.linear(&[(1, w), (1, h)], Eq, 4).unwrap();
    /// let (dx, dy) = ([two, w], [two, h]);
    /// for i in 0..2 {
    ///     m.linear(&[(1, x[i]), (1, dx[i])], Le, 3).unwrap();
    ///     m.linear(&[(1, y[i]), (1, dy[i])], Le, 3).unwrap();
    /// }
    /// m.diffn_var(&x, &y, &dx, &dy).unwrap();
    /// // The square in a corner (4 ways), the bar along one of the two
    /// // far sides: 8 packings.
    /// assert_eq!(Search::new(&m).count().unwrap().count, 8);
    /// ```
    pub fn diffn_var(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_var("diffn", x, y, dx, dy, true, None)
    }

    /// Like [`diffn_var`](Model::diffn_var), with *order literals*: the
    /// 0/1 variables `order` say, pair by pair, which rectangle lies
    /// before which on which axis, and the constraint keeps them exact
    /// (`b ↔ xᵢ + dxᵢ ≤ xⱼ`). They give the learning search literals for
    /// "i before j" that its nogoods name, as the decomposition's reified
    /// disjuncts do (see [`diffn_k_ordered`](Model::diffn_k_ordered) for
    /// their order and errors).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // Two unit squares on a 2 × 1 strip: side by side, either way.
    /// let mut m = Model::new();
    /// let x = m.new_vars(2, Domain::range(0, 1)).unwrap();
    /// let y = m.new_vars(2, Domain::singleton(0)).unwrap();
    /// let one = m.new_var(Domain::singleton(1)).unwrap();
    /// // One pair, two axes, two directions each.
    /// let order = m.new_vars(4, Domain::range(0, 1)).unwrap();
    /// m.diffn_var_ordered(&x, &y, &[one, one], &[one, one], &order).unwrap();
    /// let sols: Vec<_> = Search::new(&m).solutions().unwrap().collect();
    /// assert_eq!(sols.len(), 2);
    /// for s in &sols {
    ///     // x: 0 before 1 exactly when x0 = 0; never apart on y.
    ///     assert_eq!(s[order[0]], i32::from(s[x[0]] == 0));
    ///     assert_eq!(s[order[1]], i32::from(s[x[0]] == 1));
    ///     assert_eq!((s[order[2]], s[order[3]]), (0, 0));
    /// }
    /// ```
    pub fn diffn_var_ordered(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
        order: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_var("diffn", x, y, dx, dy, true, Some(order))
    }

    /// Like [`diffn_var`](Model::diffn_var), but a rectangle of zero width
    /// or height may lie anywhere (MiniZinc's `diffn_nonstrict` with
    /// variable sizes).
    pub fn diffn_var_nonstrict(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_var("diffn_nonstrict", x, y, dx, dy, false, None)
    }

    #[allow(clippy::too_many_arguments)]
    fn post_diffn_var(
        &mut self,
        name: &'static str,
        x: &[VarId],
        y: &[VarId],
        dx: &[VarId],
        dy: &[VarId],
        strict: bool,
        order: Option<&[VarId]>,
    ) -> Result<ConstraintId, ModelError> {
        super::diffn::rectangle_lengths(name, x.len(), [y.len(), dx.len(), dy.len()])?;
        let origins: Vec<[VarId; 2]> = x.iter().zip(y).map(|(&a, &b)| [a, b]).collect();
        let sizes: Vec<[VarId; 2]> = dx.iter().zip(dy).map(|(&a, &b)| [a, b]).collect();
        self.post_diffn_k(name, &origins, &sizes, strict, true, order)
    }

    /// Boxes in `k` dimensions do not overlap (MiniZinc's `diffn_k`, see
    /// [`DiffnK`]): box `i` has origin `origins[i][d]` and size
    /// `sizes[i][d]` on dimension `d`; a box of size 0 on some dimension
    /// still may not lie strictly inside another. Fails with
    /// [`ModelError::LengthMismatch`] when the boxes differ in number or
    /// in dimensions, and [`ModelError::Invalid`] when a size may be
    /// negative or the boxes have no dimension.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // Three unit cubes in a 2 × 1 × 1 space, each on one of its two
    /// // cells: at most two fit.
    /// let mut m = Model::new();
    /// let one = m.new_var(Domain::singleton(1)).unwrap();
    /// let zero = m.new_var(Domain::singleton(0)).unwrap();
    /// let boxes: Vec<Vec<_>> = (0..3)
    ///     .map(|_| vec![m.new_var(Domain::range(0, 1)).unwrap(), zero, zero])
    ///     .collect();
    /// let sizes = vec![vec![one; 3]; 3];
    /// m.diffn_k(&boxes, &sizes).unwrap();
    /// assert!(Search::new(&m).solve().unwrap().solution.is_none());
    /// ```
    pub fn diffn_k<O: AsRef<[VarId]>, S: AsRef<[VarId]>>(
        &mut self,
        origins: &[O],
        sizes: &[S],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_k("diffn_k", origins, sizes, true, false, None)
    }

    /// Like [`diffn_k`](Model::diffn_k), with *order literals*: for each
    /// pair of boxes `i < j` in the order (0, 1), (0, 2), …, (1, 2), …,
    /// and each dimension `d`, two 0/1 variables of `order`: first the one
    /// that is 1 exactly when `i` lies wholly before `j` on `d`
    /// (`o[i][d] + s[i][d] ≤ o[j][d]`), then the one for `j` before `i`
    /// (`n·(n − 1)·k` in all; [`DiffnK::order_literal`] finds them). The
    /// constraint keeps them exact and reasons through them: a bound that
    /// makes an order impossible sets its literal to 0, a pair with one
    /// literal left not 0 sets it to 1, and a literal at 1 pushes the
    /// bounds. It prunes what [`diffn_k`](Model::diffn_k) prunes, and the
    /// learning search's nogoods can name "`i` before `j`" as one literal,
    /// as they name the reified disjuncts of MiniZinc's decomposition.
    /// Fails as `diffn_k` does, and with [`ModelError::LengthMismatch`]
    /// for a wrong number of order literals and [`ModelError::Invalid`]
    /// for one whose domain is not within `{0, 1}`.
    pub fn diffn_k_ordered<O: AsRef<[VarId]>, S: AsRef<[VarId]>>(
        &mut self,
        origins: &[O],
        sizes: &[S],
        order: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_k("diffn_k", origins, sizes, true, false, Some(order))
    }

    /// Like [`diffn_k`](Model::diffn_k), but a pair of boxes one of which
    /// has size 0 on some dimension is free (MiniZinc's
    /// `diffn_nonstrict_k`).
    pub fn diffn_k_nonstrict<O: AsRef<[VarId]>, S: AsRef<[VarId]>>(
        &mut self,
        origins: &[O],
        sizes: &[S],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn_k("diffn_nonstrict_k", origins, sizes, false, false, None)
    }

    fn post_diffn_k<O: AsRef<[VarId]>, S: AsRef<[VarId]>>(
        &mut self,
        name: &'static str,
        origins: &[O],
        sizes: &[S],
        strict: bool,
        planar: bool,
        order: Option<&[VarId]>,
    ) -> Result<ConstraintId, ModelError> {
        if sizes.len() != origins.len() {
            return Err(ModelError::LengthMismatch {
                constraint: name,
                what: "sizes for the boxes",
                expected: origins.len(),
                found: sizes.len(),
            });
        }
        let k = origins.first().map_or(0, |o| o.as_ref().len());
        for (i, (o, s)) in origins.iter().zip(sizes).enumerate() {
            for (what, len) in [
                ("origins (one per dimension) of a box", o.as_ref().len()),
                ("sizes (one per dimension) of a box", s.as_ref().len()),
            ] {
                if len != k {
                    return Err(ModelError::LengthMismatch {
                        constraint: name,
                        what,
                        expected: k,
                        found: len,
                    });
                }
            }
            for (d, &v) in s.as_ref().iter().enumerate() {
                let lo = self.domain(v).min().unwrap_or(0);
                if lo < 0 {
                    return Err(ModelError::Invalid {
                        constraint: name,
                        reason: format!(
                            "box {i} may have a negative size on dimension {d} (down to {lo})"
                        ),
                    });
                }
            }
        }
        if k == 0 && !origins.is_empty() {
            return Err(ModelError::Invalid {
                constraint: name,
                reason: "the boxes have no dimension".into(),
            });
        }
        let n = origins.len();
        if let Some(order) = order {
            let expected = n * n.saturating_sub(1) * k;
            if order.len() != expected {
                return Err(ModelError::LengthMismatch {
                    constraint: name,
                    what: "order literals (two per pair of boxes and dimension)",
                    expected,
                    found: order.len(),
                });
            }
            for (at, &b) in order.iter().enumerate() {
                let d = self.domain(b);
                if d.min().is_some_and(|v| v < 0) || d.max().is_some_and(|v| v > 1) {
                    return Err(ModelError::Invalid {
                        constraint: name,
                        reason: format!("order literal {at} is not a 0/1 variable"),
                    });
                }
            }
        }
        let scope = origins
            .iter()
            .flat_map(|o| o.as_ref().iter().copied())
            .chain(sizes.iter().flat_map(|s| s.as_ref().iter().copied()))
            .chain(order.unwrap_or(&[]).iter().copied())
            .collect();
        self.post(DiffnK {
            scope,
            n,
            k,
            strict,
            ordered: order.is_some(),
            planar,
        })
    }
}

impl Constraint for DiffnK {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let n = self.len();
        (0..n).all(|i| (i + 1..n).all(|j| !self.clash(v, i, j))) && self.order_mismatches(v) == 0
    }
    fn name(&self) -> &str {
        match (self.planar, self.strict) {
            (true, true) => "diffn",
            (true, false) => "diffn_nonstrict",
            (false, true) => "diffn_k",
            (false, false) => "diffn_nonstrict_k",
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let base = self.boxes_to_minizinc(vars)?;
        if !self.ordered {
            return Some(base);
        }
        let (n, k) = (self.n, self.k);
        let mut parts = vec![base];
        for f in 0..n {
            for g in (0..n).filter(|&g| g != f) {
                for d in 0..k {
                    parts.push(format!(
                        "{} = bool2int({} + {} <= {})",
                        vars[self.position_of_order(f, g, d)],
                        vars[f * k + d],
                        vars[(n + f) * k + d],
                        vars[g * k + d],
                    ));
                }
            }
        }
        Some(parts.join(" /\\ "))
    }
    fn violations(&self, v: &[Value]) -> u64 {
        let n = self.len();
        (0..n)
            .filter(|&i| (0..n).any(|j| j != i && self.clash(v, i, j)))
            .count() as u64
            + self.order_mismatches(v)
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(DiffnKProp {
            c: self,
            snap: Vec::new(),
            sides: Vec::new(),
            order: Vec::new(),
        }))
    }
}

impl DiffnK {
    /// The non-overlap part in MiniZinc (without the order literals).
    fn boxes_to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (n, k) = (self.len(), self.k);
        if n == 0 {
            return Some("true".into());
        }
        let half = n * k;
        if self.planar {
            let pick = |from: usize, d: usize| -> Vec<String> {
                (0..n).map(|i| vars[from + i * 2 + d].clone()).collect()
            };
            return Some(format!(
                "{}({}, {}, {}, {})",
                self.name(),
                crate::minizinc::list(&pick(0, 0)),
                crate::minizinc::list(&pick(0, 1)),
                crate::minizinc::list(&pick(half, 0)),
                crate::minizinc::list(&pick(half, 1)),
            ));
        }
        Some(format!(
            "{}(array2d(1..{n}, 1..{k}, {}), array2d(1..{n}, 1..{k}, {}))",
            self.name(),
            crate::minizinc::list(&vars[..half]),
            crate::minizinc::list(&vars[half..2 * half]),
        ))
    }
}

/// `v` clamped to the `i32` range: a literal beyond it says the same as
/// one at its end.
fn clamp(v: i64) -> Value {
    v.clamp(Value::MIN as i64, Value::MAX as i64) as Value
}

/// The bounds of one box of a pair on one dimension, read once: every
/// reason names these values, which stay true below.
#[derive(Debug, Clone, Copy)]
struct Side {
    o: VarId,
    s: VarId,
    lo: i64,
    hi: i64,
    /// Minimum and maximum size.
    ms: i64,
    xs: i64,
}

impl Side {
    /// Can this box come before `g` (`min o + min s ≤ max o_g`)?
    fn can_precede(&self, g: &Side) -> bool {
        self.lo + self.ms <= g.hi
    }

    /// "This box cannot come before `g`": `o ≥ lo`, `s ≥ ms` and
    /// `o_g ≤ lo + ms − 1`.
    fn cannot_precede(&self, g: &Side, r: &mut Premises<'_>) {
        r.push(Literal::Ge(self.o, self.lo as Value));
        if self.ms > 0 {
            r.push(Literal::Ge(self.s, self.ms as Value));
        }
        r.push(Literal::Le(g.o, clamp(self.lo + self.ms - 1)));
    }
}

#[derive(Debug)]
struct DiffnKProp<'a> {
    c: &'a DiffnK,
    /// The pair being looked at: per dimension, box i's side then box j's.
    snap: Vec<[Side; 2]>,
    /// With order literals: every box's side on every dimension (box by
    /// box), read at the start of a call and again for the two boxes of a
    /// pair that changed something. A side of another box may be older
    /// than the domains when boxes share a variable: its bounds are then
    /// weaker than the domain's, still true, and the call after this one
    /// reads them afresh.
    sides: Vec<Side>,
    /// The overload check's boxes, by latest end.
    order: Vec<usize>,
}

impl DiffnKProp<'_> {
    fn side(&self, p: &Pruner<'_>, i: usize, d: usize) -> Side {
        let (o, s) = (self.c.origin(i, d), self.c.size(i, d));
        Side {
            o,
            s,
            lo: p.min(o) as i64,
            hi: p.max(o) as i64,
            ms: p.min(s) as i64,
            xs: p.max(s) as i64,
        }
    }

    /// The pair must overlap on dimension `e` (neither order possible).
    fn overlap_premises(&self, e: usize, r: &mut Premises<'_>) {
        let [a, b] = &self.snap[e];
        a.cannot_precede(b, r);
        b.cannot_precede(a, r);
    }

    /// `s ≥ 1` for every size of the pair but `skip`: in the non-strict
    /// variant, what makes the pair count.
    fn sizes_positive(&self, skip: Option<VarId>, r: &mut Premises<'_>) {
        if self.c.strict {
            return;
        }
        let mut skipped = false;
        for sides in &self.snap {
            for side in sides {
                if !skipped && Some(side.s) == skip {
                    skipped = true;
                    continue;
                }
                r.push(Literal::Ge(side.s, 1));
            }
        }
    }

    /// Looks at the pair `(i, j)`; whether a bound moved.
    fn pair(&mut self, p: &mut Pruner<'_>, i: usize, j: usize) -> Result<bool, Conflict> {
        let k = self.c.k;
        self.snap.clear();
        for d in 0..k {
            let sides = [self.side(p, i, d), self.side(p, j, d)];
            self.snap.push(sides);
        }
        // The dimensions on which an order is possible.
        let mut open = None;
        for (d, [a, b]) in self.snap.iter().enumerate() {
            if a.can_precede(b) || b.can_precede(a) {
                if open.is_some() {
                    return Ok(false);
                }
                open = Some(d);
            }
        }
        let mut zero = None;
        if !self.c.strict {
            // A size fixed at 0 frees the pair; with two that may be 0,
            // nothing follows yet.
            let mut count = 0;
            for (d, sides) in self.snap.iter().enumerate() {
                for (w, side) in sides.iter().enumerate() {
                    if side.xs <= 0 {
                        return Ok(false);
                    }
                    if side.ms <= 0 {
                        count += 1;
                        zero = Some((d, w));
                    }
                }
            }
            if count > 1 {
                return Ok(false);
            }
        }
        let Some(d) = open else {
            // Overlap on every dimension.
            return match zero {
                None => Err(p.fail(|r: &mut Premises<'_>| {
                    for e in 0..k {
                        self.overlap_premises(e, r);
                    }
                    self.sizes_positive(None, r);
                })),
                Some((e, w)) => {
                    let z = self.snap[e][w].s;
                    p.set_max(z, 0, |r: &mut Premises<'_>| {
                        for e in 0..k {
                            self.overlap_premises(e, r);
                        }
                        self.sizes_positive(Some(z), r);
                    })
                }
            };
        };
        let [a, b] = self.snap[d];
        let (f, g) = match (a.can_precede(&b), b.can_precede(&a)) {
            (true, false) => (0, 1),
            (false, true) => (1, 0),
            _ => return Ok(false),
        };
        let (fs, gs) = (self.snap[d][f], self.snap[d][g]);
        // The pair must overlap on the other dimensions and g cannot come
        // first on d.
        let blocked = |r: &mut Premises<'_>, skip: Option<VarId>| {
            for e in (0..k).filter(|&e| e != d) {
                self.overlap_premises(e, r);
            }
            gs.cannot_precede(&fs, r);
            self.sizes_positive(skip, r);
        };
        if let Some((e, w)) = zero {
            // Either the size z is 0, or f comes first: when z is f's size
            // on d, it is at most the room before g (or 0).
            if e != d || w != f {
                return Ok(false);
            }
            let cap = (gs.hi - fs.lo).max(0);
            if cap >= fs.xs {
                return Ok(false);
            }
            return p.set_max(fs.s, cap as Value, |r: &mut Premises<'_>| {
                blocked(r, Some(fs.s));
                r.push(Literal::Le(gs.o, gs.hi as Value));
                r.push(Literal::Ge(fs.o, fs.lo as Value));
            });
        }
        push_apart(p, &fs, &gs, |r: &mut Premises<'_>| blocked(r, None))
    }

    /// Energetic overload check on axis `a` of two dimensions, on the
    /// minimum sizes: for each minimum `w` of an origin, the boxes of
    /// positive minimum area whose origins are at least `w`, by their
    /// latest end `e` (maximum origin plus maximum size), fit in `[w, e)`
    /// times their bounding box on the other axis (`Diffn`'s check,
    /// [`overflow`]). The failure names the boxes of most area inside
    /// that box that overflow it, each by its origins' and sizes' bounds
    /// that keep it inside and its minimum sizes. Reads `sides` (all
    /// boxes, fresh).
    fn overload(&mut self, p: &mut Pruner<'_>, a: usize) -> Result<(), Conflict> {
        let n = self.c.len();
        let sides = &self.sides;
        let side = |c: usize, t: usize| &sides[t * 2 + c];
        let area = |t: usize| side(0, t).ms as i128 * side(1, t).ms as i128;
        let end = |c: usize, t: usize| side(c, t).hi + side(c, t).xs;
        let lo = |c: usize, t: usize| side(c, t).lo;
        let Some(o) = overflow(&mut self.order, n, a, lo, end, area) else {
            return Ok(());
        };
        Err(p.fail(|r: &mut Premises<'_>| {
            for &u in &o.boxes {
                for c in 0..2 {
                    let sd = side(c, u);
                    r.push(Literal::Ge(sd.o, clamp(o.from[c])));
                    r.push(Literal::Le(sd.o, clamp(o.to[c] - sd.xs)));
                    r.push(Literal::Le(sd.s, clamp(sd.xs)));
                    r.push(Literal::Ge(sd.s, clamp(sd.ms)));
                }
            }
        }))
    }

    /// Reads box `b`'s sides into `sides`.
    fn read_sides(&mut self, p: &Pruner<'_>, b: usize) {
        let k = self.c.k;
        for d in 0..k {
            self.sides[b * k + d] = self.side(p, b, d);
        }
    }

    /// Looks at the pair `(i, j)` through its order literals; whether a
    /// variable changed.
    fn pair_ordered(&self, p: &mut Pruner<'_>, i: usize, j: usize) -> Result<bool, Conflict> {
        let k = self.c.k;
        let mut moved = false;
        for d in 0..k {
            for (f, g) in [(i, j), (j, i)] {
                let Some(b) = self.c.order_literal(f, g, d) else {
                    continue;
                };
                let (fs, gs) = (self.sides[f * k + d], self.sides[g * k + d]);
                moved |= match p.value(b) {
                    None if !fs.can_precede(&gs) => {
                        p.set_max(b, 0, |r: &mut Premises<'_>| fs.cannot_precede(&gs, r))?
                    }
                    None if fs.hi + fs.xs <= gs.lo => p.set_min(b, 1, |r: &mut Premises<'_>| {
                        r.push(Literal::Le(fs.o, fs.hi as Value));
                        r.push(Literal::Le(fs.s, fs.xs as Value));
                        r.push(Literal::Ge(gs.o, gs.lo as Value));
                    })?,
                    None => false,
                    Some(1) => before(p, b, &fs, &gs)?,
                    Some(_) => not_before(p, b, &fs, &gs)?,
                };
            }
        }
        // At least one order holds: a clause over the pair's literals.
        let mut open = None;
        let mut count = 0;
        for d in 0..k {
            for (f, g) in [(i, j), (j, i)] {
                let Some(b) = self.c.order_literal(f, g, d) else {
                    continue;
                };
                match p.value(b) {
                    Some(1) => return Ok(moved),
                    Some(_) => {}
                    None => {
                        count += 1;
                        open = Some(b);
                    }
                }
            }
        }
        let others = |r: &mut Premises<'_>, skip: Option<VarId>| {
            for d in 0..k {
                for (f, g) in [(i, j), (j, i)] {
                    if let Some(b) = self.c.order_literal(f, g, d) {
                        if Some(b) != skip {
                            r.push(Literal::Le(b, 0));
                        }
                    }
                }
            }
        };
        match (count, open) {
            (0, _) => Err(p.fail(|r: &mut Premises<'_>| others(r, None))),
            (1, Some(b)) => p.set_min(b, 1, |r: &mut Premises<'_>| others(r, Some(b))),
            _ => Ok(moved),
        }
    }

    /// The forward-checking contract: with box `i`'s origin on dimension
    /// `d` the only open variable, it loses every value at which box `i`
    /// clashes with another.
    fn last_open(&self, p: &mut Pruner<'_>, i: usize, d: usize) -> Result<(), Conflict> {
        let (n, k) = (self.c.len(), self.c.k);
        let x = self.c.origin(i, d);
        let val = |v: VarId| p.min(v) as i64;
        let si = val(self.c.size(i, d));
        let mut forbidden: Vec<(i64, i64, usize)> = Vec::new();
        for j in (0..n).filter(|&j| j != i) {
            let free = !self.c.strict
                && (0..k).any(|e| val(self.c.size(i, e)) == 0 || val(self.c.size(j, e)) == 0);
            let apart = (0..k).filter(|&e| e != d).any(|e| {
                let (oi, oj) = (val(self.c.origin(i, e)), val(self.c.origin(j, e)));
                let (a, b) = (val(self.c.size(i, e)), val(self.c.size(j, e)));
                oi + a <= oj || oj + b <= oi
            });
            if free || apart {
                continue;
            }
            let oj = val(self.c.origin(j, d));
            let (lo, hi) = (oj - si + 1, oj + val(self.c.size(j, d)) - 1);
            if lo <= hi {
                forbidden.push((lo, hi, j));
            }
        }
        forbidden.sort_unstable();
        for (lo, hi, j) in forbidden {
            let because = |r: &mut Premises<'_>| {
                for e in 0..k {
                    for b in [i, j] {
                        if (b, e) != (i, d) {
                            r.fixed(self.c.origin(b, e));
                        }
                        r.fixed(self.c.size(b, e));
                    }
                }
            };
            forbid(p, x, lo, hi, because)?;
        }
        Ok(())
    }
}

/// The order literal `b` of "`f` before `g`" is 1: [`push_apart`], each
/// push explained by `b`.
fn before(p: &mut Pruner<'_>, b: VarId, fs: &Side, gs: &Side) -> Result<bool, Conflict> {
    push_apart(p, fs, gs, |r: &mut Premises<'_>| r.push(Literal::Ge(b, 1)))
}

/// `f` lies before `g` on a dimension, because of `why`: `g` starts after
/// `f` ends, `f` ends before `g` starts, and `f`'s size fits before `g`,
/// each explained by `why` and the bounds the new one is computed from
/// (the pairwise rule, and an order literal at 1). Whether a bound moved.
fn push_apart(
    p: &mut Pruner<'_>,
    fs: &Side,
    gs: &Side,
    why: impl Fn(&mut Premises<'_>) + Copy,
) -> Result<bool, Conflict> {
    let mut moved = false;
    if fs.lo + fs.ms > gs.lo {
        moved |= p.set_min(gs.o, clamp(fs.lo + fs.ms), |r: &mut Premises<'_>| {
            why(r);
            r.push(Literal::Ge(fs.o, fs.lo as Value));
            if fs.ms > 0 {
                r.push(Literal::Ge(fs.s, fs.ms as Value));
            }
        })?;
    }
    if gs.hi - fs.ms < fs.hi {
        moved |= p.set_max(fs.o, clamp(gs.hi - fs.ms), |r: &mut Premises<'_>| {
            why(r);
            r.push(Literal::Le(gs.o, gs.hi as Value));
            if fs.ms > 0 {
                r.push(Literal::Ge(fs.s, fs.ms as Value));
            }
        })?;
    }
    if gs.hi - fs.lo < fs.xs {
        moved |= p.set_max(fs.s, clamp(gs.hi - fs.lo), |r: &mut Premises<'_>| {
            why(r);
            r.push(Literal::Le(gs.o, gs.hi as Value));
            r.push(Literal::Ge(fs.o, fs.lo as Value));
        })?;
    }
    Ok(moved)
}

/// The order literal `b` of "`f` before `g`" is 0: `f` ends after `g`
/// starts (`o_f + s_f ≥ o_g + 1`), on each of the three bounds.
fn not_before(p: &mut Pruner<'_>, b: VarId, fs: &Side, gs: &Side) -> Result<bool, Conflict> {
    let mut moved = false;
    if fs.hi + fs.xs - 1 < gs.hi {
        moved |= p.set_max(gs.o, clamp(fs.hi + fs.xs - 1), |r: &mut Premises<'_>| {
            r.push(Literal::Le(b, 0));
            r.push(Literal::Le(fs.o, fs.hi as Value));
            r.push(Literal::Le(fs.s, fs.xs as Value));
        })?;
    }
    if gs.lo - fs.xs + 1 > fs.lo {
        moved |= p.set_min(fs.o, clamp(gs.lo - fs.xs + 1), |r: &mut Premises<'_>| {
            r.push(Literal::Le(b, 0));
            r.push(Literal::Ge(gs.o, gs.lo as Value));
            r.push(Literal::Le(fs.s, fs.xs as Value));
        })?;
    }
    if gs.lo - fs.hi + 1 > fs.ms {
        moved |= p.set_min(fs.s, clamp(gs.lo - fs.hi + 1), |r: &mut Premises<'_>| {
            r.push(Literal::Le(b, 0));
            r.push(Literal::Ge(gs.o, gs.lo as Value));
            r.push(Literal::Le(fs.o, fs.hi as Value));
        })?;
    }
    Ok(moved)
}

impl Propagator for DiffnKProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (pos, &x) in self.c.scope.iter().enumerate() {
            setup.subscribe(x, pos, Events::BOUNDS);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let n = self.c.len();
        if n < 2 {
            return Ok(());
        }
        let mut moved = false;
        if self.c.ordered {
            self.sides.clear();
            for b in 0..n {
                for d in 0..self.c.k {
                    let side = self.side(p, b, d);
                    self.sides.push(side);
                }
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                if self.c.ordered {
                    if self.pair_ordered(p, i, j)? {
                        moved = true;
                        self.read_sides(p, i);
                        self.read_sides(p, j);
                    }
                } else {
                    moved |= self.pair(p, i, j)?;
                }
            }
        }
        if moved {
            // The kernel calls again.
            return Ok(());
        }
        // At the pairwise fixpoint, in two dimensions: the overload check.
        if self.c.k == 2 {
            self.sides.clear();
            for b in 0..n {
                for d in 0..2 {
                    let side = self.side(p, b, d);
                    self.sides.push(side);
                }
            }
            self.overload(p, 0)?;
            self.overload(p, 1)?;
        }
        // The last open variable, when it is one origin.
        // (The order literals follow the origins and sizes: once those
        // are fixed, so are they.)
        let boxes = self.c.boxes_scope();
        let mut open = boxes.iter().enumerate().filter(|(_, &x)| !p.is_fixed(x));
        if let (Some((pos, &x)), None) = (open.next(), open.next()) {
            let k = self.c.k;
            if pos < n * k && self.c.scope.iter().filter(|&&y| y == x).count() == 1 {
                self.last_open(p, pos / k, pos % k)?;
            }
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Quadratic
    }
    fn is_idempotent(&self) -> bool {
        false
    }
    fn name(&self) -> &str {
        self.c.name()
    }
}
