//! Count: how many variables take a given value, compared with a constant.

use super::{Constraint, Premises, Pruner, Relation};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// `|{i : x_i = value}| ⋈ k`; at-most is `≤`, at-least `≥`, exactly `=`.
///
/// # Pruning
/// Both inference levels count the variables fixed to `value` (`sure`) and
/// those that can still take it (`possible`): a conflict when `sure` or
/// `possible` already decides against the relation; when `sure` reaches the
/// largest allowed count the value is removed from the others; when `possible`
/// equals the smallest allowed count every candidate is fixed to it. For `≠`,
/// the last undecided candidate is forced when the count would otherwise
/// equal `k`. O(n) per call.
#[derive(Debug, Clone)]
pub struct Count {
    vars: Vec<VarId>,
    value: Value,
    rel: Relation,
    k: i64,
}

impl Count {
    /// `|{i : vars[i] = value}| ⋈ k`.
    pub fn new(vars: Vec<VarId>, value: Value, rel: Relation, k: i64) -> Count {
        // `<`/`>` as `≤ k−1`/`≥ k+1` (a count is ≥ 0, so saturating at the
        // ends of `i64` keeps the meaning).
        let (rel, k) = match rel {
            Relation::Lt => (Relation::Le, k.saturating_sub(1)),
            Relation::Gt => (Relation::Ge, k.saturating_add(1)),
            r => (r, k),
        };
        Count {
            vars,
            value,
            rel,
            k,
        }
    }

    fn prune(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let v = self.value;
        let mut sure = 0i64;
        let mut possible = 0i64;
        for &x in &self.vars {
            if pruner.contains(x, v) {
                possible += 1;
                if pruner.is_fixed(x) {
                    sure += 1;
                }
            }
        }
        let (min_ok, max_ok) = match self.rel {
            Relation::Eq => (self.k, self.k),
            Relation::Le | Relation::Lt => (i64::MIN, self.k),
            Relation::Ge | Relation::Gt => (self.k, i64::MAX),
            Relation::Ne => {
                let open = possible - sure;
                if open == 0 && sure == self.k {
                    return Err(pruner.fail(decided(&self.vars, v, None)));
                }
                if open == 1 {
                    let x = *self
                        .vars
                        .iter()
                        .find(|&&x| pruner.contains(x, v) && !pruner.is_fixed(x))
                        .expect("one open");
                    // The reason: every other variable is decided for `v`.
                    if sure == self.k {
                        pruner.fix(x, v, decided(&self.vars, v, Some(x)))?;
                    } else if sure + 1 == self.k {
                        pruner.remove(x, v, decided(&self.vars, v, Some(x)))?;
                    }
                }
                return Ok(());
            }
        };
        if sure > max_ok {
            return Err(pruner.fail(taking(&self.vars, v)));
        }
        if possible < min_ok {
            return Err(pruner.fail(missing(&self.vars, v)));
        }
        // The reasons: the variables fixed to `v` (the count is full), or
        // those without `v` (every other one is needed).
        if sure == max_ok && possible > sure {
            for &x in &self.vars {
                if !pruner.is_fixed(x) {
                    pruner.remove(x, v, taking(&self.vars, v))?;
                }
            }
        } else if possible == min_ok && possible > sure {
            for &x in &self.vars {
                if pruner.contains(x, v) {
                    pruner.fix(x, v, missing(&self.vars, v))?;
                }
            }
        }
        Ok(())
    }
}

/// Premises: the variables fixed to `v`.
fn taking(vars: &[VarId], v: Value) -> impl FnOnce(&mut Premises<'_>) + '_ {
    move |r: &mut Premises<'_>| {
        for &x in vars {
            if r.value(x) == Some(v) {
                r.push(Literal::Eq(x, v));
            }
        }
    }
}

/// Premises: the variables that have lost `v`.
fn missing(vars: &[VarId], v: Value) -> impl FnOnce(&mut Premises<'_>) + '_ {
    move |r: &mut Premises<'_>| {
        for &x in vars {
            if !r.contains(x, v) {
                r.push(Literal::Ne(x, v));
            }
        }
    }
}

/// Premises: every variable but `skip` is fixed to `v` or has lost it.
fn decided(vars: &[VarId], v: Value, skip: Option<VarId>) -> impl FnOnce(&mut Premises<'_>) + '_ {
    move |r: &mut Premises<'_>| {
        for &x in vars.iter().filter(|&&x| Some(x) != skip) {
            if r.value(x) == Some(v) {
                r.push(Literal::Eq(x, v));
            } else if !r.contains(x, v) {
                r.push(Literal::Ne(x, v));
            }
        }
    }
}

impl Constraint for Count {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let n = values.iter().filter(|&&x| x == self.value).count() as i64;
        self.rel.holds(n, self.k)
    }
    fn name(&self) -> &str {
        "count"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        Some(format!(
            "count({}, {}) {} {}",
            crate::minizinc::list(vars),
            self.value,
            crate::minizinc::relation(self.rel),
            self.k
        ))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let n = values.iter().filter(|&&x| x == self.value).count() as i64;
        match self.rel {
            Relation::Eq => (n - self.k).unsigned_abs(),
            Relation::Ne => u64::from(n == self.k),
            Relation::Le | Relation::Lt => (n - self.k).max(0) as u64,
            Relation::Ge | Relation::Gt => (self.k - n).max(0) as u64,
        }
    }
}
