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

    fn sum(&self, values: &[Value]) -> i64 {
        values
            .iter()
            .zip(&self.coefs)
            .map(|(&v, &a)| a * v as i64)
            .sum()
    }

    /// One pass of bounds reasoning; returns whether a bound moved.
    fn bounds_pass(&self, pruner: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let (mut lo, mut hi) = (0i64, 0i64);
        for (&x, &a) in self.vars.iter().zip(&self.coefs) {
            let (m, n) = (pruner.min(x) as i64 * a, pruner.max(x) as i64 * a);
            lo += m.min(n);
            hi += m.max(n);
        }
        let (need_le, need_ge) = match self.rel {
            Relation::Eq => (true, true),
            Relation::Le => (true, false),
            Relation::Ge => (false, true),
            Relation::Ne => return Ok(false),
        };
        if (need_le && lo > self.c) || (need_ge && hi < self.c) {
            return Err(Conflict);
        }
        let mut changed = false;
        for (&x, &a) in self.vars.iter().zip(&self.coefs) {
            if a == 0 {
                continue;
            }
            let (m, n) = (pruner.min(x) as i64 * a, pruner.max(x) as i64 * a);
            let (tmin, tmax) = (m.min(n), m.max(n));
            // Bounds on a·x from the rest of the sum.
            let upper = if need_le {
                Some(self.c - (lo - tmin))
            } else {
                None
            };
            let lower = if need_ge {
                Some(self.c - (hi - tmax))
            } else {
                None
            };
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
fn ceil_div(p: i64, q: i64) -> i64 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) == (q > 0)) {
        d + 1
    } else {
        d
    }
}

/// `⌊p / q⌋` for q ≠ 0.
fn floor_div(p: i64, q: i64) -> i64 {
    let (d, r) = (p / q, p % q);
    if r != 0 && ((r > 0) != (q > 0)) {
        d - 1
    } else {
        d
    }
}

fn clamp(v: i64) -> Value {
    v.clamp(Value::MIN as i64, Value::MAX as i64) as Value
}

impl Constraint for Linear {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.rel.holds(self.sum(values), self.c)
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
        let s = self.sum(values);
        match self.rel {
            Relation::Eq => (s - self.c).unsigned_abs(),
            Relation::Ne => u64::from(s == self.c),
            Relation::Le => (s - self.c).max(0) as u64,
            Relation::Ge => (self.c - s).max(0) as u64,
        }
    }
}
