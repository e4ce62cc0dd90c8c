//! Packing rectangles: [`Diffn`], rectangles of constant sizes placed at
//! variable origins that never overlap (MiniZinc's `diffn` and
//! `diffn_nonstrict`).

use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// Rectangles `i` with lower-left corner `(x[i], y[i])` and constant sizes
/// `dx[i] × dy[i]` (at least 0) that do not overlap: for every pair
/// `i < j`, on one axis at least one lies wholly before the other,
/// `xᵢ + dxᵢ ≤ xⱼ`, `xⱼ + dxⱼ ≤ xᵢ`, `yᵢ + dyᵢ ≤ yⱼ` or `yⱼ + dyⱼ ≤ yᵢ`.
///
/// This is MiniZinc's `diffn` (the decomposition of its standard
/// library's `fzn_diffn.mzn`), under which a rectangle of width or height
/// 0 is a segment or a point that still may not lie strictly inside
/// another rectangle: a segment at `x = 2` crosses a rectangle spanning
/// `[1, 4)` on x when their y ranges overlap. The *non-strict* variant
/// ([`Model::diffn_nonstrict`], MiniZinc's `diffn_nonstrict`) lets a
/// rectangle of zero width or height lie anywhere.
///
/// Two rectangles *overlap on an axis* when `xᵢ < xⱼ + dxⱼ` and
/// `xⱼ < xᵢ + dxᵢ` (their open intervals meet; a zero size makes the
/// interval a point); a pair violates the constraint when it overlaps on
/// both axes.
///
/// # Pruning
/// On the bounds of the origins, at forward checking and arc consistency:
/// * **pairwise with compulsory overlap**: when the bounds force a pair to
///   overlap on one axis (`max xᵢ < min xⱼ + dxⱼ` and
///   `max xⱼ < min xᵢ + dxᵢ`: their compulsory parts meet), the pair is a
///   disjunctive pair on the other axis; when one order is impossible the
///   other is enforced on both bounds, and when neither is possible the
///   constraint fails. This is the pairwise core of the non-overlapping
///   rectangles filtering of Beldiceanu and Carlsson ("Sweep as a generic
///   pruning technique applied to the non-overlapping rectangles
///   constraint", CP 2001), without their sweep over forbidden regions;
/// * **energetic overload check**, on each axis: the rectangles of
///   positive area whose origins must lie at or after `a` and that must
///   end by `b` on that axis fit inside `[a, b)` times their bounding box
///   on the other axis, so their areas sum to at most that box's area;
/// * **time-table overload check**, on each axis: the rectangles whose
///   compulsory parts there (`[max oᵢ, min oᵢ + sᵢ)`) all cover one point
///   overlap pairwise on that axis, so they lie apart on the other, and
///   their sizes on the other axis sum to at most the span of their
///   bounding box there (four 2 × 1 rectangles at x = 5, 5, 5, 6 do not
///   fit on three rows, though every energetic window does).
///
/// With one origin of a rectangle left open (every other fixed), it also
/// loses the values in the middle of its domain where the rectangle would
/// overlap a fixed one (the forward-checking contract).
///
/// # Reasons
/// A push is explained by the bounds that make the pair overlap on the
/// other axis (each lifted to the weakest bound that still forces the
/// overlap), the bounds that make the impossible order impossible, and the
/// other rectangle's bound that the push copies, in the style of Schutt et
/// al.'s explanations of time-tabling. An overload is explained by the
/// rectangles of largest area that overflow the box, each by the four
/// bounds that keep it inside; a time-table overload by the tallest
/// rectangles at the point that overflow the span, each by the bounds
/// that keep its compulsory part on the point and it inside the span.
///
/// Cost: O(n²) per call, not idempotent (the kernel calls it again after
/// its own changes), no entailment. The checker is pairwise, O(n²). Local
/// search: violations are the number of rectangles that overlap another.
#[derive(Debug, Clone)]
pub struct Diffn {
    /// `x` then `y`.
    scope: Vec<VarId>,
    dx: Vec<i64>,
    dy: Vec<i64>,
    strict: bool,
}

impl Diffn {
    /// The number of rectangles.
    pub fn len(&self) -> usize {
        self.dx.len()
    }

    /// No rectangle at all?
    pub fn is_empty(&self) -> bool {
        self.dx.is_empty()
    }

    /// The x origins.
    pub fn xs(&self) -> &[VarId] {
        &self.scope[..self.len()]
    }

    /// The y origins.
    pub fn ys(&self) -> &[VarId] {
        &self.scope[self.len()..]
    }

    /// The widths.
    pub fn dx(&self) -> &[i64] {
        &self.dx
    }

    /// The heights.
    pub fn dy(&self) -> &[i64] {
        &self.dy
    }

    /// MiniZinc's `diffn` (true) or `diffn_nonstrict` (false)?
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Does rectangle `i` take part in the constraint? In the non-strict
    /// variant a rectangle of zero width or height is free.
    fn active(&self, i: usize) -> bool {
        self.strict || (self.dx[i] > 0 && self.dy[i] > 0)
    }

    /// Do rectangles `i` and `j` overlap, with the values `v` (x then y)?
    fn overlap(&self, v: &[Value], i: usize, j: usize) -> bool {
        let n = self.len();
        let meets = |a: i64, sa: i64, b: i64, sb: i64| a < b + sb && b < a + sa;
        meets(v[i] as i64, self.dx[i], v[j] as i64, self.dx[j])
            && meets(v[n + i] as i64, self.dy[i], v[n + j] as i64, self.dy[j])
    }

    fn overlaps_another(&self, v: &[Value], i: usize) -> bool {
        self.active(i) && (0..self.len()).any(|j| j != i && self.active(j) && self.overlap(v, i, j))
    }
}

impl Model {
    /// Rectangles at `(x[i], y[i])` of sizes `dx[i] × dy[i]` do not
    /// overlap (MiniZinc's `diffn`, see [`Diffn`]): a rectangle of zero
    /// width or height still may not lie strictly inside another. Fails
    /// with [`ModelError::LengthMismatch`] when the lists differ in length
    /// and [`ModelError::Invalid`] for a negative size.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // Squares of sides 2, 2 and 1 in a 3 × 3 box (origins 0..=3 − side).
    /// let mut m = Model::new();
    /// let sides = [2, 2, 1];
    /// let mut x = Vec::new();
    /// let mut y = Vec::new();
    /// for &s in &sides {
    ///     x.push(m.new_var(Domain::range(0, 3 - s)).unwrap());
    ///     y.push(m.new_var(Domain::range(0, 3 - s)).unwrap());
    /// }
    /// m.diffn(&x, &y, &sides, &sides).unwrap();
    /// // Two 2 × 2 squares cannot both fit in a 3 × 3 box.
    /// assert!(Search::new(&m).solve().unwrap().solution.is_none());
    ///
    /// // A 2 × 2 and two 1 × 1 squares: the big one in a corner (4 ways),
    /// // the small ones on 2 of the 5 cells left, in order (20 ways).
    /// let mut m = Model::new();
    /// let sides = [2, 1, 1];
    /// let (mut x, mut y) = (Vec::new(), Vec::new());
    /// for &s in &sides {
    ///     x.push(m.new_var(Domain::range(0, 3 - s)).unwrap());
    ///     y.push(m.new_var(Domain::range(0, 3 - s)).unwrap());
    /// }
    /// m.diffn(&x, &y, &sides, &sides).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 4 * 20);
    /// ```
    pub fn diffn(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[i32],
        dy: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn("diffn", x, y, dx, dy, true)
    }

    /// Like [`diffn`](Model::diffn), but a rectangle of zero width or
    /// height may lie anywhere (MiniZinc's `diffn_nonstrict`).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// // A 3 × 3 square at the origin and a vertical segment of height 1
    /// // at x in 0..=3, y = 1: strictly inside at x = 1 and x = 2.
    /// for (strict, count) in [(true, 2), (false, 4)] {
    ///     let mut m = Model::new();
    ///     let x = [m.new_var(Domain::singleton(0)).unwrap(), m.new_var(Domain::range(0, 3)).unwrap()];
    ///     let y = [m.new_var(Domain::singleton(0)).unwrap(), m.new_var(Domain::singleton(1)).unwrap()];
    ///     match strict {
    ///         true => m.diffn(&x, &y, &[3, 0], &[3, 1]).unwrap(),
    ///         false => m.diffn_nonstrict(&x, &y, &[3, 0], &[3, 1]).unwrap(),
    ///     };
    ///     assert_eq!(Search::new(&m).count().unwrap().count, count);
    /// }
    /// ```
    pub fn diffn_nonstrict(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[i32],
        dy: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.post_diffn("diffn_nonstrict", x, y, dx, dy, false)
    }

    fn post_diffn(
        &mut self,
        name: &'static str,
        x: &[VarId],
        y: &[VarId],
        dx: &[i32],
        dy: &[i32],
        strict: bool,
    ) -> Result<ConstraintId, ModelError> {
        rectangle_lengths(name, x.len(), [y.len(), dx.len(), dy.len()])?;
        for (what, list) in [("width", dx), ("height", dy)] {
            if let Some((i, d)) = list.iter().enumerate().find(|(_, &d)| d < 0) {
                return Err(ModelError::Invalid {
                    constraint: name,
                    reason: format!("rectangle {i} has a negative {what} ({d})"),
                });
            }
        }
        self.post(Diffn {
            scope: x.iter().chain(y).copied().collect(),
            dx: dx.iter().map(|&d| d as i64).collect(),
            dy: dy.iter().map(|&d| d as i64).collect(),
            strict,
        })
    }
}

impl Constraint for Diffn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let n = self.len();
        (0..n).all(|i| {
            !self.active(i) || (i + 1..n).all(|j| !self.active(j) || !self.overlap(v, i, j))
        })
    }
    fn name(&self) -> &str {
        match self.strict {
            true => "diffn",
            false => "diffn_nonstrict",
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let n = self.len();
        if n == 0 {
            return Some("true".into());
        }
        Some(format!(
            "{}({}, {}, {}, {})",
            self.name(),
            crate::minizinc::list(&vars[..n]),
            crate::minizinc::list(&vars[n..]),
            crate::minizinc::ints(&self.dx),
            crate::minizinc::ints(&self.dy),
        ))
    }
    fn violations(&self, v: &[Value]) -> u64 {
        (0..self.len())
            .filter(|&i| self.overlaps_another(v, i))
            .count() as u64
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let rects: Vec<usize> = (0..self.len()).filter(|&i| self.active(i)).collect();
        let n = self.len();
        let axis = |off: usize, size: &[i64]| Axis {
            vars: rects.iter().map(|&i| self.scope[off + i]).collect(),
            size: rects.iter().map(|&i| size[i]).collect(),
        };
        Some(Box::new(DiffnProp {
            c: self,
            axes: [axis(0, &self.dx), axis(n, &self.dy)],
            order: Vec::new(),
            lo: [Vec::new(), Vec::new()],
            hi: [Vec::new(), Vec::new()],
        }))
    }
}

/// The origins and sizes of the active rectangles on one axis.
#[derive(Debug)]
struct Axis {
    vars: Vec<VarId>,
    size: Vec<i64>,
}

#[derive(Debug)]
struct DiffnProp<'a> {
    c: &'a Diffn,
    axes: [Axis; 2],
    /// Scratch for the overload check: rectangles in some order, and the
    /// bounds of the origins by axis.
    order: Vec<usize>,
    lo: [Vec<i64>; 2],
    hi: [Vec<i64>; 2],
}

/// `v` clamped to the `i32` range: a literal beyond it says the same as
/// one at its end.
fn clamp(v: i64) -> Value {
    v.clamp(Value::MIN as i64, Value::MAX as i64) as Value
}

impl DiffnProp<'_> {
    #[inline]
    fn lo(&self, p: &Pruner<'_>, a: usize, k: usize) -> i64 {
        p.min(self.axes[a].vars[k]) as i64
    }

    #[inline]
    fn hi(&self, p: &Pruner<'_>, a: usize, k: usize) -> i64 {
        p.max(self.axes[a].vars[k]) as i64
    }

    /// Must rectangles `i` and `j` overlap on axis `a`? If so, the maxima
    /// of their origins there, which the reason names.
    fn must_overlap(&self, p: &Pruner<'_>, a: usize, i: usize, j: usize) -> Option<(i64, i64)> {
        let s = &self.axes[a].size;
        let (hi, hj) = (self.hi(p, a, i), self.hi(p, a, j));
        (hi < self.lo(p, a, j) + s[j] && hj < self.lo(p, a, i) + s[i]).then_some((hi, hj))
    }

    /// [`must_overlap`](Self::must_overlap) on the loaded bounds.
    #[inline]
    fn must_overlap_loaded(&self, a: usize, i: usize, j: usize) -> Option<(i64, i64)> {
        let (s, lo, hi) = (&self.axes[a].size, &self.lo[a], &self.hi[a]);
        (hi[i] < lo[j] + s[j] && hi[j] < lo[i] + s[i]).then_some((hi[i], hi[j]))
    }

    /// Loads the bounds of every origin.
    fn load(&mut self, p: &Pruner<'_>) {
        let n = self.axes[0].vars.len();
        for c in 0..2 {
            self.lo[c].clear();
            self.hi[c].clear();
            for k in 0..n {
                self.lo[c].push(p.min(self.axes[c].vars[k]) as i64);
                self.hi[c].push(p.max(self.axes[c].vars[k]) as i64);
            }
        }
    }

    /// Reloads the bounds of rectangle `k` on axis `c`.
    fn reload(&mut self, p: &Pruner<'_>, c: usize, k: usize) {
        self.lo[c][k] = p.min(self.axes[c].vars[k]) as i64;
        self.hi[c][k] = p.max(self.axes[c].vars[k]) as i64;
    }

    /// Premises that make `i` and `j` overlap on axis `a`, given the maxima
    /// `(hi, hj)` of their origins: `oᵢ ≤ hi` and `oⱼ ≥ hi − sⱼ + 1` (so
    /// `oᵢ < oⱼ + sⱼ`), and the same the other way.
    fn overlap_premises(&self, r: &mut Premises<'_>, a: usize, i: usize, j: usize, hs: (i64, i64)) {
        let (v, s) = (&self.axes[a].vars, &self.axes[a].size);
        r.push(Literal::Le(v[i], hs.0 as Value));
        r.push(Literal::Ge(v[j], clamp(hs.0 - s[j] + 1)));
        r.push(Literal::Le(v[j], hs.1 as Value));
        r.push(Literal::Ge(v[i], clamp(hs.1 - s[i] + 1)));
    }

    /// `i` and `j`, which overlap on the other axis (premises `hs` there),
    /// must not overlap on axis `b`: one lies before the other.
    fn disjoint(
        &self,
        p: &mut Pruner<'_>,
        b: usize,
        i: usize,
        j: usize,
        hs: (i64, i64),
    ) -> Result<bool, Conflict> {
        let a = 1 - b;
        let (v, s) = (&self.axes[b].vars, &self.axes[b].size);
        let (li, hi, lj, hj) = (
            self.lo(p, b, i),
            self.hi(p, b, i),
            self.lo(p, b, j),
            self.hi(p, b, j),
        );
        let i_first = li + s[i] <= hj;
        let j_first = lj + s[j] <= hi;
        // "k cannot come first": oₖ ≥ lk and the other's origin is below
        // lk + sₖ.
        let not_first = |r: &mut Premises<'_>, k: usize, l: usize, lk: i64| {
            r.push(Literal::Ge(v[k], lk as Value));
            r.push(Literal::Le(v[l], clamp(lk + s[k] - 1)));
        };
        match (i_first, j_first) {
            (true, true) => Ok(false),
            (false, false) => Err(p.fail(|r: &mut Premises<'_>| {
                self.overlap_premises(r, a, i, j, hs);
                not_first(r, i, j, li);
                not_first(r, j, i, lj);
            })),
            (false, true) => self.order(p, b, (i, j), hs, (j, lj), (i, li, hi)),
            (true, false) => self.order(p, b, (i, j), hs, (i, li), (j, lj, hj)),
        }
    }

    /// Enforces `f` before `g` on axis `b`, `g` being unable to come first
    /// (its origin is at least `lg`, and `f`'s is below `lg + s_g`). `ij`
    /// and `hs` name the overlap of the pair on the other axis.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &self,
        p: &mut Pruner<'_>,
        b: usize,
        ij: (usize, usize),
        hs: (i64, i64),
        (f, lf): (usize, i64),
        (g, lg, hg): (usize, i64, i64),
    ) -> Result<bool, Conflict> {
        let a = 1 - b;
        let (v, s) = (&self.axes[b].vars, &self.axes[b].size);
        let blocked = |r: &mut Premises<'_>| {
            self.overlap_premises(r, a, ij.0, ij.1, hs);
            r.push(Literal::Ge(v[g], lg as Value));
            r.push(Literal::Le(v[f], clamp(lg + s[g] - 1)));
        };
        // g starts after f ends: o_g ≥ min o_f + s_f (at most max o_g, as
        // the order is possible).
        let mut moved = false;
        if lf + s[f] > self.lo(p, b, g) {
            moved |= p.set_min(v[g], (lf + s[f]) as Value, |r: &mut Premises<'_>| {
                blocked(r);
                r.push(Literal::Ge(v[f], lf as Value));
            })?;
        }
        // f ends before g starts: o_f ≤ max o_g − s_f.
        if hg - s[f] < self.hi(p, b, f) {
            moved |= p.set_max(v[f], (hg - s[f]) as Value, |r: &mut Premises<'_>| {
                blocked(r);
                r.push(Literal::Le(v[g], hg as Value));
            })?;
        }
        Ok(moved)
    }

    /// Pairwise: every pair forced to overlap on one axis is disjoint on
    /// the other. Whether a bound moved.
    /// Reads the loaded bounds, and keeps them loaded.
    fn pairs(&mut self, p: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let n = self.axes[0].vars.len();
        let mut moved = false;
        for i in 0..n {
            for j in i + 1..n {
                for a in 0..2 {
                    if let Some(hs) = self.must_overlap_loaded(a, i, j) {
                        if self.disjoint(p, 1 - a, i, j, hs)? {
                            moved = true;
                            self.reload(p, 1 - a, i);
                            self.reload(p, 1 - a, j);
                        }
                    }
                }
            }
        }
        Ok(moved)
    }

    /// Energetic overload with windows on axis `a`: for each minimum `w`
    /// of an origin, the rectangles of positive area whose origins are at
    /// least `w`, by their latest end `e`, fit in `[w, e)` times their
    /// bounding box on the other axis.
    /// Reads the loaded bounds.
    fn overload(&mut self, p: &mut Pruner<'_>, a: usize) -> Result<(), Conflict> {
        let b = 1 - a;
        let n = self.axes[0].vars.len();
        let (lo, hi, axes) = (&self.lo, &self.hi, &self.axes);
        let area = |k: usize| axes[0].size[k] as i128 * axes[1].size[k] as i128;
        let end = |c: usize, k: usize| hi[c][k] + axes[c].size[k];
        let Some(o) = overflow(&mut self.order, n, a, |c, k| lo[c][k], end, area) else {
            return Ok(());
        };
        // Premises: the rectangles of most area inside the box
        // [w, e) × [blo, bhi) that overflow it.
        Err(p.fail(|r: &mut Premises<'_>| {
            for &t in &o.boxes {
                let (va, vb) = (axes[a].vars[t], axes[b].vars[t]);
                r.push(Literal::Ge(va, o.from[a] as Value));
                r.push(Literal::Le(va, clamp(o.to[a] - axes[a].size[t])));
                r.push(Literal::Ge(vb, o.from[b] as Value));
                r.push(Literal::Le(vb, clamp(o.to[b] - axes[b].size[t])));
            }
        }))
    }

    /// Time-table overload on axis `a`: the rectangles whose compulsory
    /// parts on `a` (`[max oₖ, min oₖ + sₖ)`, of positive size) all cover
    /// one point there overlap pairwise on `a`, so they lie apart on the
    /// other axis, and their sizes there sum to at most the span of their
    /// bounding box on it. Checked at each point where a compulsory part
    /// starts. Reads the loaded bounds.
    fn profile(&mut self, p: &mut Pruner<'_>, a: usize) -> Result<(), Conflict> {
        let b = 1 - a;
        let n = self.axes[0].vars.len();
        let (lo, hi, axes) = (&self.lo, &self.hi, &self.axes);
        let (sa, sb) = (&axes[a].size, &axes[b].size);
        let covers = |k: usize, at: i64| sa[k] > 0 && hi[a][k] <= at && at < lo[a][k] + sa[k];
        for q in 0..n {
            let at = hi[a][q];
            if !covers(q, at) {
                continue;
            }
            let (mut sum, mut blo, mut bhi) = (0i64, i64::MAX, i64::MIN);
            for k in (0..n).filter(|&k| covers(k, at)) {
                sum += sb[k];
                blo = blo.min(lo[b][k]);
                bhi = bhi.max(hi[b][k] + sb[k]);
            }
            if sum <= bhi - blo {
                continue;
            }
            // Premises: the tallest rectangles at `at` that already
            // overflow the span [blo, bhi), each by the bounds that keep
            // its compulsory part on `at` and it inside the span.
            let mut tall: Vec<usize> = (0..n).filter(|&k| covers(k, at)).collect();
            tall.sort_unstable_by_key(|&k| std::cmp::Reverse(sb[k]));
            let mut got = 0;
            let keep = tall
                .iter()
                .take_while(|&&k| {
                    let before = got;
                    got += sb[k];
                    before <= bhi - blo
                })
                .count();
            tall.truncate(keep);
            return Err(p.fail(|r: &mut Premises<'_>| {
                for &k in &tall {
                    let (va, vb) = (axes[a].vars[k], axes[b].vars[k]);
                    r.push(Literal::Le(va, clamp(at)));
                    r.push(Literal::Ge(va, clamp(at - sa[k] + 1)));
                    r.push(Literal::Ge(vb, clamp(blo)));
                    r.push(Literal::Le(vb, clamp(bhi - sb[k])));
                }
            }));
        }
        Ok(())
    }

    /// The forward-checking contract: with the origin of rectangle `i` on
    /// axis `a` the only one open, it loses every value at which `i`
    /// overlaps a fixed rectangle.
    fn last_open(&self, p: &mut Pruner<'_>, a: usize, i: usize) -> Result<(), Conflict> {
        let b = 1 - a;
        let n = self.axes[0].vars.len();
        let (va, sa) = (&self.axes[a].vars, &self.axes[a].size);
        let x = va[i];
        let mut forbidden: Vec<(i64, i64, usize)> = (0..n)
            .filter(|&j| j != i && self.must_overlap(p, b, i, j).is_some())
            .map(|j| {
                let o = self.lo(p, a, j);
                (o - sa[i] + 1, o + sa[j] - 1, j)
            })
            .filter(|&(lo, hi, _)| lo <= hi)
            .collect();
        forbidden.sort_unstable();
        for (lo, hi, j) in forbidden {
            let because = |r: &mut Premises<'_>| {
                r.fixed(self.axes[b].vars[i]);
                r.fixed(self.axes[b].vars[j]);
                r.fixed(va[j]);
            };
            forbid(p, x, lo, hi, because)?;
        }
        Ok(())
    }
}

impl Propagator for DiffnProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let n = self.c.len();
        for (pos, &x) in self.c.scope.iter().enumerate() {
            if self.c.active(pos % n) {
                setup.subscribe(x, pos, Events::BOUNDS);
            }
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let n = self.axes[0].vars.len();
        if n < 2 {
            return Ok(());
        }
        // The overload check and the last open origin wait for the
        // pairwise fixpoint: a move wakes the propagator again.
        self.load(p);
        if self.pairs(p)? {
            return Ok(());
        }
        self.overload(p, 0)?;
        self.overload(p, 1)?;
        self.profile(p, 0)?;
        self.profile(p, 1)?;
        let mut open = (0..2)
            .flat_map(|a| (0..n).map(move |k| (a, k)))
            .filter(|&(a, k)| !p.is_fixed(self.axes[a].vars[k]));
        if let (Some((a, i)), None) = (open.next(), open.next()) {
            self.last_open(p, a, i)?;
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

/// The rectangles' lists of a `diffn` call have one entry per rectangle
/// (`n`, the x origins): `lens` are those of the y origins, the widths
/// and the heights.
pub(super) fn rectangle_lengths(
    name: &'static str,
    n: usize,
    lens: [usize; 3],
) -> Result<(), ModelError> {
    let what = [
        "y origins for the rectangles",
        "widths (dx) for the rectangles",
        "heights (dy) for the rectangles",
    ];
    for (what, len) in what.into_iter().zip(lens) {
        if len != n {
            return Err(ModelError::LengthMismatch {
                constraint: name,
                what,
                expected: n,
                found: len,
            });
        }
    }
    Ok(())
}

/// Takes the range `[lo, hi]` out of `x`'s domain, forbidden there by
/// `because` (the fixed boxes in the way), for the forward-checking rule
/// of [`Diffn`] and `DiffnK`: fails when the range covers the domain,
/// moves a bound past it when it holds one (resting also on the bound it
/// skips from), and otherwise removes the values inside it.
pub(super) fn forbid(
    p: &mut Pruner<'_>,
    x: VarId,
    lo: i64,
    hi: i64,
    because: impl Fn(&mut Premises<'_>) + Copy,
) -> Result<(), Conflict> {
    let (m, mx) = (p.min(x) as i64, p.max(x) as i64);
    if hi < m || lo > mx {
        return Ok(());
    }
    if lo <= m && hi >= mx {
        return Err(p.fail(|r: &mut Premises<'_>| {
            because(r);
            r.push(Literal::Ge(x, m as Value));
            r.push(Literal::Le(x, mx as Value));
        }));
    }
    if lo <= m {
        p.set_min(x, (hi + 1) as Value, |r: &mut Premises<'_>| {
            because(r);
            r.push(Literal::Ge(x, m as Value));
        })?;
    } else if hi >= mx {
        p.set_max(x, (lo - 1) as Value, |r: &mut Premises<'_>| {
            because(r);
            r.push(Literal::Le(x, mx as Value));
        })?;
    } else {
        let mut v = p.next_above(x, (lo - 1) as Value);
        while let Some(w) = v.filter(|&w| w as i64 <= hi) {
            p.remove(x, w, because)?;
            v = p.next_above(x, w);
        }
    }
    Ok(())
}

/// A window that the energetic overload check of [`overflow`] finds
/// overfull: `[from[c], to[c])` on each axis `c`, and the boxes of most
/// area inside it that already overflow it.
pub(super) struct Overflow {
    pub(super) from: [i64; 2],
    pub(super) to: [i64; 2],
    pub(super) boxes: Vec<usize>,
}

/// Energetic overload check on axis `a` of two, shared by [`Diffn`] and
/// `DiffnK`: for each minimum `w` of an origin on `a`, the boxes of
/// positive `area` whose origins (`lo(a, t)`) are at least `w`, by their
/// latest `end(a, t)`, must fit in `[w, e)` times their bounding box on
/// the other axis. The first window that overflows, with the boxes of
/// most area inside it that overflow it (largest first), or `None`.
/// `order` is scratch; `n` boxes.
pub(super) fn overflow(
    order: &mut Vec<usize>,
    n: usize,
    a: usize,
    lo: impl Fn(usize, usize) -> i64,
    end: impl Fn(usize, usize) -> i64,
    area: impl Fn(usize) -> i128,
) -> Option<Overflow> {
    let b = 1 - a;
    order.clear();
    order.extend((0..n).filter(|&t| area(t) > 0));
    order.sort_unstable_by_key(|&t| end(a, t));
    for (q, &first) in order.iter().enumerate() {
        let w = lo(a, first);
        // Each distinct minimum once.
        if order[..q].iter().any(|&t| lo(a, t) == w) {
            continue;
        }
        let (mut sum, mut blo, mut bhi) = (0i128, i64::MAX, i64::MIN);
        for &t in order.iter() {
            if lo(a, t) < w {
                continue;
            }
            sum += area(t);
            blo = blo.min(lo(b, t));
            bhi = bhi.max(end(b, t));
            let e = end(a, t);
            let room = (e - w) as i128 * (bhi - blo) as i128;
            if sum <= room {
                continue;
            }
            let mut inside: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&u| lo(a, u) >= w && end(a, u) <= e && lo(b, u) >= blo && end(b, u) <= bhi)
                .collect();
            inside.sort_unstable_by_key(|&u| std::cmp::Reverse(area(u)));
            let mut got = 0;
            let keep = inside
                .iter()
                .take_while(|&&u| {
                    let before = got;
                    got += area(u);
                    before <= room
                })
                .count();
            inside.truncate(keep);
            let (mut from, mut to) = ([0; 2], [0; 2]);
            (from[a], to[a], from[b], to[b]) = (w, e, blo, bhi);
            return Some(Overflow {
                from,
                to,
                boxes: inside,
            });
        }
    }
    None
}
