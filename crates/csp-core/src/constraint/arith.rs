//! Relations and arithmetic: `x ≤ y + c`, `z = x·y`, `z = x / y`,
//! `z = x mod y`, `z = |x|`, `z = xᵏ`, `z = min(xs)`, `z = max(xs)`.
//!
//! Every propagator here reasons on bounds with exact integer arithmetic
//! (`i128` where products of two `i32` bounds and powers could overflow),
//! so no `i32` input overflows. On top of the bounds, each keeps the
//! forward-checking contract exactly: when one scope variable is left open
//! (with at most [`FILTER_LIMIT`] values), it keeps only the values the
//! checker accepts.

use super::Why;
use smallvec::SmallVec;

use super::linear::{ceil_div, clamp, floor_div};
use super::{default_forward_check, default_propagate, Constraint, Pruner, GAC_TUPLE_LIMIT};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};

/// The last open variable of an arithmetic constraint is filtered by its
/// checker when it has at most this many values (above, only its bounds).
pub const FILTER_LIMIT: u64 = 1 << 16;

/// `x ≤ y + c`: the relation behind `<`, `≤`, `>`, `≥` between two
/// variables (`x < y` is `x ≤ y − 1`).
///
/// # Pruning
/// Bounds consistency at every level but "none": `max(x) ≤ max(y) + c`,
/// `min(y) ≥ min(x) − c`. O(1) per call, idempotent, entailed once
/// `max(x) ≤ min(y) + c`. Local search: violations are the excess
/// `x − y − c` when positive.
#[derive(Debug, Clone)]
pub struct LessEq {
    vars: [VarId; 2],
    c: i64,
}

impl LessEq {
    /// `x ≤ y + c`.
    pub fn new(x: VarId, y: VarId, c: i64) -> LessEq {
        LessEq { vars: [x, y], c }
    }
}

impl Constraint for LessEq {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        (v[0] as i128) <= v[1] as i128 + self.c as i128
    }
    fn name(&self) -> &str {
        "less-eq"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        Some(format!("{} <= {} + {}", vars[0], vars[1], self.c))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(LessEqProp(self)))
    }
    fn violations(&self, v: &[Value]) -> u64 {
        (v[0] as i128 - v[1] as i128 - self.c as i128).clamp(0, u64::MAX as i128) as u64
    }
}

#[derive(Debug)]
struct LessEqProp<'a>(&'a LessEq);

impl Propagator for LessEqProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let [x, y] = self.0.vars;
        // Only max(y) bounds x and only min(x) bounds y, but a bounds
        // subscription is the finest the kernel offers.
        setup.subscribe(x, 0, Events::BOUNDS);
        setup.subscribe(y, 1, Events::BOUNDS);
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let [x, y] = self.0.vars;
        let c = self.0.c as i128;
        // Bounds read once; the store is called only to tighten.
        let (mut x_max, mut y_min) = (p.max(x) as i128, p.min(y) as i128);
        let y_max = p.max(y) as i128;
        if x_max > y_max + c {
            p.set_max(x, clamp(y_max + c), Literal::Le(y, y_max as Value))?;
            x_max = p.max(x) as i128;
        }
        let x_min = p.min(x) as i128;
        if y_min < x_min - c {
            p.set_min(y, clamp(x_min - c), Literal::Ge(x, x_min as Value))?;
            y_min = p.min(y) as i128;
        }
        if x_max <= y_min + c {
            p.entail();
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Cheap
    }
    fn is_idempotent(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "less-eq"
    }
}

/// Which function an [`Arith`] constraint computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// `z = x·y`; scope `[x, y, z]`.
    Times,
    /// `z = x / y`, rounding toward zero, `y ≠ 0`; scope `[x, y, z]`.
    Div,
    /// `z = x mod y`, the remainder of [`Div`](ArithOp::Div) (its sign is
    /// `x`'s, as Rust's `%` and MiniZinc's `mod`), `y ≠ 0`; scope `[x, y, z]`.
    Mod,
    /// `z = |x|`; scope `[x, z]`.
    Abs,
    /// `z = xᵏ` for a constant `k ≥ 0` (`x⁰ = 1`); scope `[x, z]`.
    Pow(u32),
    /// `z = min(xs)`; scope `[xs…, z]`.
    Min,
    /// `z = max(xs)`; scope `[xs…, z]`.
    Max,
}

/// An arithmetic constraint `z = f(…)` (see [`ArithOp`]); the result `z` is
/// the last scope variable. Build them with
/// [`Model::times`](crate::Model::times) and its siblings, or with
/// expressions ([`crate::expr`]).
///
/// # Pruning
/// Bounds reasoning in both directions, computed exactly in `i128`:
/// * `·`: interval multiplication for `z`; interval division (splitting a
///   divisor interval around 0) for `x` and `y`; `y ≠ 0` is enforced when
///   `0 ∉ z`.
/// * `/`: `z` from the corners of `x / y` over each sign of `y`; `x` from
///   `z·y ± (|y| − 1)`; `|y|` within `(|x| / (|z| + 1), |x| / |z|]`;
///   `0` is removed from `y`.
/// * `mod`: `|z| < max |y|`, `z` has `x`'s sign and `|z| ≤ |x|`.
/// * `|·|`: `z` from `min/max |x|`, `x ∈ [−max z, max z]` outside
///   `(−min z, min z)` at the bounds.
/// * `ᵏ`: monotone (odd `k`) or even in `x`; integer `k`-th roots bound `x`.
/// * `min`/`max`: `z` between the least (greatest) minimum and maximum;
///   every `xᵢ ≥ min z` (`≤ max z`); when a single `xᵢ` can still reach
///   the bound it is tightened.
///
/// `/`, `mod` and `ᵏ` also run generalised arc consistency by support
/// search when the product of the domain sizes is at most
/// [`GAC_TUPLE_LIMIT`]. Each call is O(k) plus that search; the kernel
/// re-runs it to a fixpoint. Local search: violations 0/1.
#[derive(Debug, Clone)]
pub struct Arith {
    op: ArithOp,
    vars: Vec<VarId>,
}

impl Arith {
    /// `z = op(args)`: `args` is `[x, y]`, `[x]` or `xs` as [`ArithOp`]
    /// says; the model checks the count.
    pub fn new(op: ArithOp, args: &[VarId], z: VarId) -> Arith {
        let mut vars = args.to_vec();
        vars.push(z);
        Arith { op, vars }
    }

    /// The operation.
    pub fn op(&self) -> ArithOp {
        self.op
    }
}

/// `x^k` in `i128`, saturating far beyond the `i32` range. At most about
/// a hundred multiplications whatever `k` (`pow(x, u32::MAX, z)` included):
/// 0, 1 and −1 are settled at once, and any other base saturates by then.
pub(crate) fn pow_sat(x: i128, k: u32) -> i128 {
    const CAP: i128 = 1 << 100;
    match x {
        _ if k == 0 => return 1,
        0 | 1 => return x,
        -1 => return if k.is_multiple_of(2) { 1 } else { -1 },
        _ => {}
    }
    let mut r: i128 = 1;
    for _ in 0..k {
        r = match r.checked_mul(x) {
            Some(v) => v.clamp(-CAP, CAP),
            None if (r < 0) != (x < 0) => -CAP,
            None => CAP,
        };
        if r.abs() == CAP {
            // Saturated: only the sign can change from here.
            let negative = x < 0 && !k.is_multiple_of(2);
            return if negative { -CAP } else { CAP };
        }
    }
    r
}

/// The largest `r ≥ 0` with `r^k ≤ v`, for `v ≥ 0`, `k ≥ 1`.
fn iroot_floor(v: i128, k: u32) -> i128 {
    let (mut lo, mut hi) = (0i128, 1i128 << 32);
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if pow_sat(mid, k) <= v {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The smallest `r ≥ 0` with `r^k ≥ v`, for `v ≥ 0`, `k ≥ 1`.
fn iroot_ceil(v: i128, k: u32) -> i128 {
    let r = iroot_floor(v, k);
    if pow_sat(r, k) < v {
        r + 1
    } else {
        r
    }
}

impl Constraint for Arith {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let z = v[v.len() - 1] as i128;
        let x = v[0] as i128;
        match self.op {
            ArithOp::Times => x * v[1] as i128 == z,
            ArithOp::Div => v[1] != 0 && x / v[1] as i128 == z,
            ArithOp::Mod => v[1] != 0 && x % v[1] as i128 == z,
            ArithOp::Abs => x.abs() == z,
            ArithOp::Pow(k) => pow_sat(x, k) == z,
            ArithOp::Min => v[..v.len() - 1].iter().min().map(|&m| m as i128) == Some(z),
            ArithOp::Max => v[..v.len() - 1].iter().max().map(|&m| m as i128) == Some(z),
        }
    }
    fn name(&self) -> &str {
        match self.op {
            ArithOp::Times => "times",
            ArithOp::Div => "div",
            ArithOp::Mod => "mod",
            ArithOp::Abs => "abs",
            ArithOp::Pow(_) => "pow",
            ArithOp::Min => "min",
            ArithOp::Max => "max",
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (z, args) = vars.split_last()?;
        let list = crate::minizinc::list(args);
        Some(match self.op {
            ArithOp::Times => format!("{} * {} = {z}", args[0], args[1]),
            ArithOp::Div => format!("{1} != 0 /\\ {0} div {1} = {z}", args[0], args[1]),
            ArithOp::Mod => format!("{1} != 0 /\\ {0} mod {1} = {z}", args[0], args[1]),
            ArithOp::Abs => format!("abs({}) = {z}", args[0]),
            // Saturated powers (beyond 64 bits) are not written.
            ArithOp::Pow(_) => return None,
            ArithOp::Min => format!("min({list}) = {z}"),
            ArithOp::Max => format!("max({list}) = {z}"),
        })
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ArithProp(self)))
    }
}

#[derive(Debug)]
struct ArithProp<'a>(&'a Arith);

/// Bounds of a variable as `i128`.
fn b(p: &Pruner<'_>, x: VarId) -> (i128, i128) {
    (p.min(x) as i128, p.max(x) as i128)
}

/// Tightens `x` to `[lo, hi]`; returns whether it changed.
fn tighten(p: &mut Pruner<'_>, x: VarId, lo: i128, hi: i128) -> Result<bool, Conflict> {
    if lo > hi {
        return Err(p.fail(Why::Bounds));
    }
    let a = p.set_min(x, clamp(lo), Why::Bounds)?;
    let c = p.set_max(x, clamp(hi), Why::Bounds)?;
    Ok(a | c)
}

/// The integer hull of `{p / q : p ∈ [a, b], q ∈ [c, d]}` for `0 ∉ [c, d]`:
/// the quotient is monotone in each argument, so the corners bound it.
fn quotient_hull((a, b): (i128, i128), (c, d): (i128, i128)) -> (i128, i128) {
    let corners = [(a, c), (a, d), (b, c), (b, d)];
    let lo = corners.iter().map(|&(p, q)| ceil_div(p, q)).min();
    let hi = corners.iter().map(|&(p, q)| floor_div(p, q)).max();
    (lo.unwrap_or(0), hi.unwrap_or(0))
}

/// The negative and positive parts of `[c, d]`, without 0.
fn sign_parts((c, d): (i128, i128)) -> SmallVec<[(i128, i128); 2]> {
    let mut parts = SmallVec::new();
    if c <= -1 {
        parts.push((c, d.min(-1)));
    }
    if d >= 1 {
        parts.push((c.max(1), d));
    }
    parts
}

/// The hull of several intervals (`None` when there are none).
fn hull(it: impl IntoIterator<Item = (i128, i128)>) -> Option<(i128, i128)> {
    it.into_iter().fold(None, |acc, (l, h)| match acc {
        None => Some((l, h)),
        Some((a, b)) => Some((a.min(l), b.max(h))),
    })
}

/// `x·y = z`: `x ∈ z / y`, with `y` split around 0. Returns whether `x` moved.
fn times_inverse(p: &mut Pruner<'_>, x: VarId, y: VarId, z: VarId) -> Result<bool, Conflict> {
    let (zb, yb) = (b(p, z), b(p, y));
    if zb.0 <= 0 && 0 <= zb.1 && yb.0 <= 0 && 0 <= yb.1 {
        return Ok(false); // y = 0, z = 0 supports every x
    }
    match hull(sign_parts(yb).into_iter().map(|q| quotient_hull(zb, q))) {
        Some((lo, hi)) => tighten(p, x, lo, hi),
        None => Err(p.fail(Why::Bounds)), // y = 0 only, and 0 ∉ z
    }
}

impl ArithProp<'_> {
    /// One bounds pass; returns whether anything moved.
    fn bounds(&self, p: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let v = &self.0.vars;
        let z = v[v.len() - 1];
        let mut moved = false;
        match self.0.op {
            ArithOp::Times => {
                let (x, y) = (v[0], v[1]);
                if p.min(z) > 0 || p.max(z) < 0 {
                    moved |= p.remove(x, 0, Why::Bounds)?;
                    moved |= p.remove(y, 0, Why::Bounds)?;
                }
                let ((a, bb), (c, d)) = (b(p, x), b(p, y));
                let pr = [a * c, a * d, bb * c, bb * d];
                let (lo, hi) = (pr.iter().min(), pr.iter().max());
                moved |= tighten(p, z, *lo.unwrap_or(&0), *hi.unwrap_or(&0))?;
                moved |= times_inverse(p, x, y, z)?;
                moved |= times_inverse(p, y, x, z)?;
            }
            ArithOp::Div => {
                let (x, y) = (v[0], v[1]);
                moved |= p.remove(y, 0, Why::Bounds)?;
                let (xb, yb) = (b(p, x), b(p, y));
                let parts = sign_parts(yb);
                let zh = hull(parts.iter().map(|&(c, d)| {
                    let q = [xb.0 / c, xb.0 / d, xb.1 / c, xb.1 / d];
                    (*q.iter().min().unwrap_or(&0), *q.iter().max().unwrap_or(&0))
                }));
                let Some((lo, hi)) = zh else {
                    return Err(p.fail(Why::Bounds));
                };
                moved |= tighten(p, z, lo, hi)?;
                // x = z·y + r with |r| ≤ |y| − 1.
                let zb = b(p, z);
                let ymax = yb.0.abs().max(yb.1.abs());
                let xh = hull(parts.iter().map(|&(c, d)| {
                    let pr = [zb.0 * c, zb.0 * d, zb.1 * c, zb.1 * d];
                    (
                        *pr.iter().min().unwrap_or(&0) - (ymax - 1),
                        *pr.iter().max().unwrap_or(&0) + (ymax - 1),
                    )
                }));
                if let Some((lo, hi)) = xh {
                    moved |= tighten(p, x, lo, hi)?;
                }
                // |x| = |y|·|z| + |r| with |r| < |y|: |y|·|z| ≤ |x| and
                // |x| < |y|·(|z| + 1). With x fixed and y wide, this
                // leaves y a few values rather than 2³² to try.
                let (xb, zb) = (b(p, x), b(p, z));
                let abs_range = |(l, h): (i128, i128)| {
                    let lo = if l <= 0 && 0 <= h {
                        0
                    } else {
                        l.abs().min(h.abs())
                    };
                    (lo, l.abs().max(h.abs()))
                };
                let ((xa, xz), (za, zz)) = (abs_range(xb), abs_range(zb));
                let y_hi = if za >= 1 { xz / za } else { i128::MAX };
                let y_lo = xa / (zz + 1) + 1;
                if y_hi < i128::MAX {
                    moved |= tighten(p, y, -y_hi, y_hi)?;
                }
                // z ≠ 0 has the sign of x·y: with the signs of x and z
                // known, y has one sign too.
                let x_sign = if xb.0 >= 1 {
                    1
                } else if xb.1 <= -1 {
                    -1
                } else {
                    0
                };
                let z_sign = if zb.0 >= 1 {
                    1
                } else if zb.1 <= -1 {
                    -1
                } else {
                    0
                };
                match x_sign * z_sign {
                    1 => moved |= p.set_min(y, 1, Why::Bounds)?,
                    -1 => moved |= p.set_max(y, -1, Why::Bounds)?,
                    _ => {}
                }
                if y_lo > 1 {
                    if p.min(y) as i128 > -y_lo {
                        moved |= p.set_min(y, clamp(y_lo), Why::Bounds)?;
                    }
                    if (p.max(y) as i128) < y_lo {
                        moved |= p.set_max(y, clamp(-y_lo), Why::Bounds)?;
                    }
                }
            }
            ArithOp::Mod => {
                let (x, y) = (v[0], v[1]);
                moved |= p.remove(y, 0, Why::Bounds)?;
                let (xb, yb) = (b(p, x), b(p, y));
                let m = yb.0.abs().max(yb.1.abs()) - 1;
                let lo = if xb.0 >= 0 { 0 } else { xb.0.max(-m) };
                let hi = if xb.1 <= 0 { 0 } else { xb.1.min(m) };
                moved |= tighten(p, z, lo, hi)?;
                // A positive remainder needs x ≥ z, a negative one x ≤ z.
                let zb = b(p, z);
                if zb.0 > 0 {
                    moved |= p.set_min(x, clamp(zb.0), Why::Bounds)?;
                }
                if zb.1 < 0 {
                    moved |= p.set_max(x, clamp(zb.1), Why::Bounds)?;
                }
            }
            ArithOp::Abs => {
                let x = v[0];
                let (a, bb) = b(p, x);
                let lo = if a <= 0 && 0 <= bb {
                    0
                } else {
                    a.abs().min(bb.abs())
                };
                moved |= tighten(p, z, lo, a.abs().max(bb.abs()))?;
                let (zl, zh) = b(p, z);
                moved |= tighten(p, x, -zh, zh)?;
                if p.min(x) as i128 > -zl {
                    moved |= p.set_min(x, clamp(zl), Why::Bounds)?;
                }
                if (p.max(x) as i128) < zl {
                    moved |= p.set_max(x, clamp(-zl), Why::Bounds)?;
                }
            }
            ArithOp::Pow(k) => {
                let x = v[0];
                let (a, bb) = b(p, x);
                if k == 0 {
                    return tighten(p, z, 1, 1);
                }
                if k % 2 == 1 {
                    moved |= tighten(p, z, pow_sat(a, k), pow_sat(bb, k))?;
                    let (zl, zh) = b(p, z);
                    // Odd roots keep the sign.
                    let root_lo = if zl >= 0 {
                        iroot_ceil(zl, k)
                    } else {
                        -iroot_floor(-zl, k)
                    };
                    let root_hi = if zh >= 0 {
                        iroot_floor(zh, k)
                    } else {
                        -iroot_ceil(-zh, k)
                    };
                    moved |= tighten(p, x, root_lo, root_hi)?;
                } else {
                    let lo_abs = if a <= 0 && 0 <= bb {
                        0
                    } else {
                        a.abs().min(bb.abs())
                    };
                    let hi_abs = a.abs().max(bb.abs());
                    moved |= tighten(p, z, pow_sat(lo_abs, k), pow_sat(hi_abs, k))?;
                    let (zl, zh) = b(p, z);
                    let r = iroot_floor(zh, k);
                    moved |= tighten(p, x, -r, r)?;
                    let r0 = iroot_ceil(zl.max(0), k);
                    if p.min(x) as i128 > -r0 {
                        moved |= p.set_min(x, clamp(r0), Why::Bounds)?;
                    }
                    if (p.max(x) as i128) < r0 {
                        moved |= p.set_max(x, clamp(-r0), Why::Bounds)?;
                    }
                }
            }
            ArithOp::Min | ArithOp::Max => {
                let xs = &v[..v.len() - 1];
                // Max is Min with every bound mirrored.
                let min = self.0.op == ArithOp::Min;
                let lo = |p: &Pruner<'_>, x| {
                    if min {
                        p.min(x) as i128
                    } else {
                        -(p.max(x) as i128)
                    }
                };
                let hi = |p: &Pruner<'_>, x| {
                    if min {
                        p.max(x) as i128
                    } else {
                        -(p.min(x) as i128)
                    }
                };
                let zl = xs.iter().map(|&x| lo(p, x)).min().unwrap_or(0);
                let zh = xs.iter().map(|&x| hi(p, x)).min().unwrap_or(0);
                let (ml, mh) = if min { (zl, zh) } else { (-zh, -zl) };
                moved |= tighten(p, z, ml, mh)?;
                let (zl, zh) = if min {
                    (p.min(z) as i128, p.max(z) as i128)
                } else {
                    (-(p.max(z) as i128), -(p.min(z) as i128))
                };
                for &x in xs {
                    moved |= if min {
                        p.set_min(x, clamp(zl), Why::Bounds)?
                    } else {
                        p.set_max(x, clamp(-zl), Why::Bounds)?
                    };
                }
                let mut reach = xs.iter().filter(|&&x| lo(p, x) <= zh);
                if let (Some(&x), None) = (reach.next(), reach.next()) {
                    moved |= if min {
                        p.set_max(x, clamp(zh), Why::Bounds)?
                    } else {
                        p.set_min(x, clamp(-zh), Why::Bounds)?
                    };
                }
            }
        }
        Ok(moved)
    }
}

impl Propagator for ArithProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (i, &x) in self.0.vars.iter().enumerate() {
            setup.subscribe(x, i, Events::BOUNDS);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        while self.bounds(p)? {}
        let con = self.0;
        let mut open = con.vars.iter().filter(|&&x| !p.is_fixed(x));
        let last = match (open.next(), open.next()) {
            (None, _) => true,
            (Some(&x), None) => p.size(x) <= FILTER_LIMIT,
            _ => false,
        };
        if last {
            return default_forward_check(con, p);
        }
        if matches!(con.op, ArithOp::Div | ArithOp::Mod | ArithOp::Pow(_)) {
            let product = con
                .vars
                .iter()
                .fold(1u64, |acc, &x| acc.saturating_mul(p.size(x)));
            if product <= GAC_TUPLE_LIMIT {
                return default_propagate(con, p);
            }
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        if self.0.vars.len() <= 3 {
            Priority::Cheap
        } else {
            Priority::Linear
        }
    }
    fn name(&self) -> &str {
        self.0.name()
    }
}
