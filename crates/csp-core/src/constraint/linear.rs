//! Linear constraints `Σ a_i·x_i ⋈ c` with `⋈` one of `=`, `≠`, `≤`, `≥`.

use std::fmt;

use super::{default_forward_check, Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};

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
}

impl Relation {
    /// Does `lhs ⋈ rhs` hold?
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            Relation::Eq => lhs == rhs,
            Relation::Ne => lhs != rhs,
            Relation::Le => lhs <= rhs,
            Relation::Ge => lhs >= rhs,
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
        })
    }
}

/// `Σ a_i·x_i ⋈ c`.
///
/// Sums are computed in `i64`; [`Model::linear`](crate::Model::linear) rejects
/// a constraint whose extreme sums could overflow it
/// ([`ModelError::Overflow`](crate::ModelError::Overflow)).
///
/// # Pruning
/// * `=`, `≤`, `≥`: bounds consistency at both inference levels: from the
///   minimum and maximum of the other terms, each variable's bounds are
///   tightened (`a_i·x_i ≤ c − Σ_{j≠i} min(a_j·x_j)` and so on), repeated to a
///   fixpoint under arc consistency. O(k) per pass. Holes inside the bounds are
///   not reasoned about, but when a single variable is left it is fixed exactly.
/// * `≠`: when one variable is left unfixed its single forbidden value is removed.
/// * local search: violations are `|Σ − c|` for `=`, the excess for `≤`/`≥`,
///   0/1 for `≠`.
#[derive(Debug, Clone)]
pub struct Linear {
    vars: Vec<VarId>,
    coefs: Vec<i64>,
    rel: Relation,
    c: i64,
}

impl Linear {
    /// `Σ coefs[i]·vars[i] ⋈ c` (lengths are checked by the model).
    pub fn new(vars: Vec<VarId>, coefs: Vec<i64>, rel: Relation, c: i64) -> Linear {
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

    /// One pass of bounds reasoning; returns whether a bound moved.
    fn bounds_pass(&self, pruner: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let c = self.c as i128;
        let (mut lo, mut hi) = (0i128, 0i128);
        for (&x, &a) in self.vars.iter().zip(&self.coefs) {
            let a = a as i128;
            let (m, n) = (pruner.min(x) as i128 * a, pruner.max(x) as i128 * a);
            lo += m.min(n);
            hi += m.max(n);
        }
        let (need_le, need_ge) = match self.rel {
            Relation::Eq => (true, true),
            Relation::Le => (true, false),
            Relation::Ge => (false, true),
            Relation::Ne => return Ok(false),
        };
        if (need_le && lo > c) || (need_ge && hi < c) {
            return Err(Conflict);
        }
        let mut changed = false;
        for (&x, &a) in self.vars.iter().zip(&self.coefs) {
            if a == 0 {
                continue;
            }
            let a = a as i128;
            let (m, n) = (pruner.min(x) as i128 * a, pruner.max(x) as i128 * a);
            let (tmin, tmax) = (m.min(n), m.max(n));
            // Bounds on a·x from the rest of the sum.
            let upper = if need_le { Some(c - (lo - tmin)) } else { None };
            let lower = if need_ge { Some(c - (hi - tmax)) } else { None };
            if let Some(u) = upper {
                // a·x ≤ u
                let r = if a > 0 {
                    pruner.set_max(x, clamp(floor_div(u, a)))?
                } else {
                    pruner.set_min(x, clamp(ceil_div(u, a)))?
                };
                changed |= r;
            }
            if let Some(l) = lower {
                // a·x ≥ l
                let r = if a > 0 {
                    pruner.set_min(x, clamp(ceil_div(l, a)))?
                } else {
                    pruner.set_max(x, clamp(floor_div(l, a)))?
                };
                changed |= r;
            }
        }
        Ok(changed)
    }
}

/// `⌈p / q⌉` for q ≠ 0.
fn ceil_div(p: i128, q: i128) -> i128 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) == (q > 0)) {
        d + 1
    } else {
        d
    }
}

/// `⌊p / q⌋` for q ≠ 0.
fn floor_div(p: i128, q: i128) -> i128 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) != (q > 0)) {
        d - 1
    } else {
        d
    }
}

fn clamp(v: i128) -> Value {
    v.clamp(Value::MIN as i128, Value::MAX as i128) as Value
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let (s, c) = (self.sum(values), self.c as i128);
        match self.rel {
            Relation::Eq => s == c,
            Relation::Ne => s != c,
            Relation::Le => s <= c,
            Relation::Ge => s >= c,
        }
    }
    fn name(&self) -> &str {
        "linear"
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return default_forward_check(self, pruner);
        }
        self.bounds_pass(pruner)?;
        Ok(())
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.rel == Relation::Ne {
            return default_forward_check(self, pruner);
        }
        while self.bounds_pass(pruner)? {}
        Ok(())
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let (s, c) = (self.sum(values), self.c as i128);
        let v = match self.rel {
            Relation::Eq => (s - c).unsigned_abs(),
            Relation::Ne => u128::from(s == c),
            Relation::Le => (s - c).max(0) as u128,
            Relation::Ge => (c - s).max(0) as u128,
        };
        v.min(u64::MAX as u128) as u64
    }
}
