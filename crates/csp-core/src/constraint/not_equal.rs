//! Binary constraints with an offset: `x ≠ y + c` and `x = y + c`.

use super::{Constraint, Premises, Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// `x ≠ y + c`.
///
/// # Pruning
/// Forward checking and arc consistency are the same: once one side is fixed
/// the single forbidden value is removed from the other. O(1).
#[derive(Debug, Clone)]
pub struct NotEqual {
    vars: [VarId; 2],
    c: Value,
}

impl NotEqual {
    /// `x ≠ y + c`.
    pub fn new(x: VarId, y: VarId, c: Value) -> NotEqual {
        NotEqual { vars: [x, y], c }
    }

    fn prune(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        if let Some(a) = pruner.value(x) {
            if let Some(v) = a.checked_sub(self.c) {
                pruner.remove(y, v, Literal::Eq(x, a))?;
            }
        }
        if let Some(b) = pruner.value(y) {
            if let Some(v) = b.checked_add(self.c) {
                pruner.remove(x, v, Literal::Eq(y, b))?;
            }
        }
        Ok(())
    }
}

impl Constraint for NotEqual {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v[0] as i64 != v[1] as i64 + self.c as i64
    }
    fn name(&self) -> &str {
        "not-equal"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        Some(format!("{} != {} + {}", vars[0], vars[1], self.c))
    }
    #[inline]
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.prune(pruner)
    }
}

/// `x = y + c`.
///
/// # Pruning
/// Both inference levels make the two domains mirror each other: a value of
/// `x` stays only if `x − c` is in `y`'s domain and vice versa. O(d) for
/// domain size d (one shift and mask when both domains are one word; O(1)
/// when both are intervals, whose bounds say it all).
/// When either domain holds more than 2¹⁶ values, only the bounds are
/// mirrored (O(1)), so domains over the whole `i32` range are never listed.
#[derive(Debug, Clone)]
pub struct Equal {
    vars: [VarId; 2],
    c: Value,
}

impl Equal {
    /// `x = y + c`.
    pub fn new(x: VarId, y: VarId, c: Value) -> Equal {
        Equal { vars: [x, y], c }
    }

    fn prune(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        let c = self.c as i64;
        if x == y {
            return if c == 0 {
                Ok(())
            } else {
                Err(pruner.fail(Why::Constraint))
            };
        }
        if let (Some((bx, basex)), Some((by, basey))) = (pruner.word(x), pruner.word(y)) {
            // Value v of x stands at bit v - basex; y's value v - c at bit v - c - basey.
            let shift = basey as i64 + c - basex as i64; // y bit k <-> x bit k + shift
            let y_in_x = shift_bits(by, shift);
            // The reasons: the other side's domain.
            pruner.retain_word(x, y_in_x, |r: &mut Premises| r.domain(y))?;
            let _ = bx;
            let (bx, _) = pruner.word(x).expect("x is small");
            pruner.retain_word(y, shift_bits(bx, -shift), |r: &mut Premises| r.domain(x))?;
            return Ok(());
        }
        if pruner.size(x) > WIDE || pruner.size(y) > WIDE {
            // Over wide domains (up to 2³² values) the bounds only: one
            // step per call, never one per value. Sound, and still exact
            // once either side is fixed (the other is fixed to match).
            return self.bounds(pruner);
        }
        // Two intervals (no holes, the usual case of start times and
        // offsets): mirroring the bounds mirrors the domains, in O(1)
        // instead of a pass over every value.
        let interval =
            |v: VarId| pruner.size(v) == (pruner.max(v) as i64 - pruner.min(v) as i64 + 1) as u64;
        if interval(x) && interval(y) {
            return self.bounds(pruner);
        }
        let xs: Vec<Value> = pruner.values(x).collect();
        for v in xs {
            let w = v as i64 - c;
            let keep = Value::try_from(w).is_ok_and(|w| pruner.contains(y, w));
            if !keep {
                pruner.remove(x, v, missing(y, w))?;
            }
        }
        let ys: Vec<Value> = pruner.values(y).collect();
        for w in ys {
            let v = w as i64 + c;
            let keep = Value::try_from(v).is_ok_and(|v| pruner.contains(x, v));
            if !keep {
                pruner.remove(y, w, missing(x, v))?;
            }
        }
        Ok(())
    }
}

impl Equal {
    /// `x` within `[min y + c, max y + c]` and `y` within `[min x − c,
    /// max x − c]`, to a fixpoint (two rounds suffice: bounds only move
    /// inward, and each side's bounds are copied from the other's).
    fn bounds(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let [x, y] = self.vars;
        let c = self.c as i64;
        let clamp = |v: i64| v.clamp(Value::MIN as i64, Value::MAX as i64) as Value;
        for _ in 0..2 {
            let (ylo, yhi) = (pruner.min(y), pruner.max(y));
            if ylo as i64 + c > Value::MAX as i64 || (yhi as i64 + c) < Value::MIN as i64 {
                return Err(pruner.fail(Why::Bounds));
            }
            pruner.set_min(x, clamp(ylo as i64 + c), Literal::Ge(y, ylo))?;
            pruner.set_max(x, clamp(yhi as i64 + c), Literal::Le(y, yhi))?;
            let (xlo, xhi) = (pruner.min(x), pruner.max(x));
            if xlo as i64 - c > Value::MAX as i64 || (xhi as i64 - c) < Value::MIN as i64 {
                return Err(pruner.fail(Why::Bounds));
            }
            pruner.set_min(y, clamp(xlo as i64 - c), Literal::Ge(x, xlo))?;
            pruner.set_max(y, clamp(xhi as i64 - c), Literal::Le(x, xhi))?;
        }
        Ok(())
    }
}

/// Above this many values a side of [`Equal`] is pruned at its bounds
/// only (the value-by-value pass would list the domain).
const WIDE: u64 = 1 << 16;

/// The reason a value goes from one side of `x = y + c`: its partner `w`
/// is gone from `y` (or cannot be a value at all).
fn missing(y: VarId, w: i64) -> impl FnOnce(&mut Premises<'_>) {
    move |r: &mut Premises<'_>| {
        if let Ok(w) = Value::try_from(w) {
            r.push(Literal::Ne(y, w));
        }
    }
}

#[inline]
fn shift_bits(bits: u64, by: i64) -> u64 {
    if by >= 64 || by <= -64 {
        0
    } else if by >= 0 {
        bits << by
    } else {
        bits >> -by
    }
}

impl Constraint for Equal {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        v[0] as i64 == v[1] as i64 + self.c as i64
    }
    fn name(&self) -> &str {
        "equal"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        Some(format!("{} = {} + {}", vars[0], vars[1], self.c))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.prune(pruner)
    }
}
