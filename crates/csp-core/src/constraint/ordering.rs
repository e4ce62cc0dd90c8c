//! Ordering constraints: lexicographic order between two sequences (for
//! symmetry breaking) and increasing or decreasing sequences.

use super::distinct::subscribe_all;
use super::Why;
use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// `x ≤lex y` (or `x <lex y` when strict): at the first position where the
/// sequences differ, `x` has the smaller value; equal sequences satisfy the
/// non-strict form only.
///
/// # Pruning
/// Domain consistent at both inference levels, O(n) per call for sequences
/// of length `n` (after Frisch, Hnich, Kiziltan, Miguel and Walsh, "Global
/// constraints for lexicographic orderings", CP 2002): positions whose two
/// variables are fixed to one value are skipped up to the first other
/// position `α`; there `x_α ≤ y_α` is enforced on the bounds, strictly when
/// the suffix after `α` cannot be ordered (found by one backward pass over
/// the bounds). When that fixes both to one value, `α` moves on. Every other
/// value has a support: `x_α < y_α` frees the positions after `α`. The
/// checker is O(n); local-search violations are 0 or 1.
#[derive(Debug, Clone)]
pub struct LexLess {
    /// `x` then `y`.
    scope: Vec<VarId>,
    strict: bool,
}

impl LexLess {
    fn n(&self) -> usize {
        self.scope.len() / 2
    }
}

impl Constraint for LexLess {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        let (x, y) = values.split_at(self.n());
        match x.cmp(y) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => !self.strict,
            std::cmp::Ordering::Greater => false,
        }
    }
    fn name(&self) -> &str {
        if self.strict {
            "lex-less"
        } else {
            "lex-lesseq"
        }
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        if vars.is_empty() {
            return None; // MiniZinc cannot type two empty literal arrays
        }
        let (x, y) = vars.split_at(self.n());
        let g = if self.strict {
            "lex_less"
        } else {
            "lex_lesseq"
        };
        Some(format!(
            "{g}({}, {})",
            crate::minizinc::list(x),
            crate::minizinc::list(y)
        ))
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(LexProp {
            c: self,
            feasible: vec![false; self.n() + 1],
        }))
    }
}

#[derive(Debug)]
struct LexProp<'a> {
    c: &'a LexLess,
    /// `feasible[k]`: can `x[k..] ≤lex y[k..]` (strictly, for `lex_less`)
    /// hold over the current bounds?
    feasible: Vec<bool>,
}

impl Propagator for LexProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.c.scope, Events::BOUNDS);
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let n = self.c.n();
        let (x, y) = self.c.scope.split_at(n);
        self.feasible[n] = !self.c.strict;
        for k in (0..n).rev() {
            let (lo, hi) = (p.min(x[k]), p.max(y[k]));
            self.feasible[k] = lo < hi || (lo == hi && self.feasible[k + 1]);
        }
        let mut a = 0;
        loop {
            while a < n && p.is_fixed(x[a]) && p.is_fixed(y[a]) && p.min(x[a]) == p.min(y[a]) {
                a += 1;
            }
            if a == n {
                // Equal sequences.
                return if self.c.strict {
                    Err(p.fail(Why::Bounds))
                } else {
                    p.entail();
                    Ok(())
                };
            }
            // x_a ≤ y_a, strictly when the rest cannot follow equality.
            let gap = Value::from(!self.feasible[a + 1]);
            let Some(top) = p.max(y[a]).checked_sub(gap) else {
                return Err(p.fail(Why::Bounds));
            };
            p.set_max(x[a], top, Why::Bounds)?;
            let Some(bottom) = p.min(x[a]).checked_add(gap) else {
                return Err(p.fail(Why::Bounds));
            };
            p.set_min(y[a], bottom, Why::Bounds)?;
            if p.max(x[a]) < p.min(y[a]) {
                // Any values below here will do.
                p.entail();
                return Ok(());
            }
            if !(p.is_fixed(x[a]) && p.is_fixed(y[a]) && p.min(x[a]) == p.min(y[a])) {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "lex"
    }
}

/// `x_0 ≤ x_1 ≤ … ≤ x_{n−1}` (or `<` when strict).
///
/// # Pruning
/// Domain consistent at both inference levels, O(n) per call: a forward
/// pass raises each minimum to its predecessor's (plus one when strict), a
/// backward pass lowers each maximum to its successor's; every value left
/// between the bounds then extends to a solution. Decreasing sequences are
/// increasing ones read backward. The checker is O(n); local-search
/// violations are the number of adjacent pairs out of order.
#[derive(Debug, Clone)]
pub struct Increasing {
    vars: Vec<VarId>,
    strict: bool,
}

impl Constraint for Increasing {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "increasing"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let name = if self.strict {
            "strictly_increasing"
        } else {
            "increasing"
        };
        Some(format!("{name}({})", crate::minizinc::list(vars)))
    }
    fn violations(&self, values: &[Value]) -> u64 {
        values
            .windows(2)
            .filter(|w| w[0] > w[1] || (self.strict && w[0] == w[1]))
            .count() as u64
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(IncreasingProp(self)))
    }
}

#[derive(Debug)]
struct IncreasingProp<'a>(&'a Increasing);

impl Propagator for IncreasingProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.0.vars, Events::BOUNDS);
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (v, step) = (&self.0.vars, Value::from(self.0.strict));
        for w in v.windows(2) {
            let (low, m) = (w[0], p.min(w[0]));
            let Some(lo) = m.checked_add(step) else {
                return Err(p.fail(Literal::Ge(low, m)));
            };
            p.set_min(w[1], lo, Literal::Ge(low, m))?;
        }
        for w in v.windows(2).rev() {
            let (high, m) = (w[1], p.max(w[1]));
            let Some(hi) = m.checked_sub(step) else {
                return Err(p.fail(Literal::Le(high, m)));
            };
            p.set_max(w[0], hi, Literal::Le(high, m))?;
        }
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        // Lowering maxima never moves a minimum.
        true
    }

    fn name(&self) -> &str {
        "increasing"
    }
}

impl Model {
    fn lex(&mut self, x: &[VarId], y: &[VarId], strict: bool) -> Result<ConstraintId, ModelError> {
        if x.len() != y.len() {
            return Err(ModelError::LengthMismatch {
                constraint: "lex",
                what: "variables in the second sequence",
                expected: x.len(),
                found: y.len(),
            });
        }
        self.post(LexLess {
            scope: x.iter().chain(y).copied().collect(),
            strict,
        })
    }

    /// `x <lex y` (see [`LexLess`]); the sequences must have one length.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let x = m.new_vars(2, Domain::range(0, 1)).unwrap();
    /// let y = m.new_vars(2, Domain::range(0, 1)).unwrap();
    /// m.lex_less(&x, &y).unwrap();
    /// // 16 pairs of 2-bit words: 4 equal, half of the other 12 ordered.
    /// assert_eq!(Search::new(&m).count().unwrap().count, 6);
    /// ```
    pub fn lex_less(&mut self, x: &[VarId], y: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.lex(x, y, true)
    }

    /// `x ≤lex y` (see [`LexLess`]); the sequences must have one length.
    pub fn lex_lesseq(&mut self, x: &[VarId], y: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.lex(x, y, false)
    }

    /// `vars[0] ≤ vars[1] ≤ …` (see [`Increasing`]).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let x = m.new_vars(3, Domain::range(1, 4)).unwrap();
    /// m.strictly_increasing(&x).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 4); // C(4, 3)
    /// ```
    pub fn increasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing {
            vars: vars.to_vec(),
            strict: false,
        })
    }

    /// `vars[0] < vars[1] < …` (see [`Increasing`]).
    pub fn strictly_increasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing {
            vars: vars.to_vec(),
            strict: true,
        })
    }

    /// `vars[0] ≥ vars[1] ≥ …` (see [`Increasing`], over the reversed list).
    pub fn decreasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        let rev: Vec<VarId> = vars.iter().rev().copied().collect();
        self.increasing(&rev)
    }

    /// `vars[0] > vars[1] > …` (see [`Increasing`], over the reversed list).
    pub fn strictly_decreasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        let rev: Vec<VarId> = vars.iter().rev().copied().collect();
        self.strictly_increasing(&rev)
    }
}
