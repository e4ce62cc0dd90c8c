//! Value precedence: a generic constraint that breaks the symmetry of
//! interchangeable values.
//!
//! In graph coloring the colors are names without meaning: any coloring can be
//! renamed in `k!` ways, and a search that proves "no 4-coloring" would otherwise
//! refute every renaming of every partial coloring. Requiring that the values
//! appear *in order of first use* along a fixed sequence of variables keeps
//! exactly one coloring of each class: the first variable gets value `start`, and
//! each later variable gets a value already used before it, or the next unused one.
//!
//! Nothing here is specific to coloring: any model whose values are
//! interchangeable (bins, time slots, colors) can post it. It is written
//! with the public [`Constraint`] API only, like a user constraint would be.

use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};

/// `x_0, x_1, ...` use the values `start, start + 1, ...` in order of first use:
/// every `x_i >= start` and `x_i <= 1 + max(start − 1, x_0, ..., x_{i−1})`.
///
/// Equivalently, `x_0 = start`, and for every value `v > start` that occurs, `v − 1`
/// occurs earlier in the sequence (Law and Lee, "Global constraints for integer and
/// set value precedence", CP 2004).
///
/// # Pruning
/// Both inference levels run the same two passes, repeated until nothing changes:
/// * *upper bounds*: the values available at positions before `i` (in some
///   domain there) always form a range `start..start + b`; `x_i` cannot exceed
///   `start + b`, since the value `start + b` cannot have been used before it.
///   O(n) for `n` variables.
/// * *forced supports*: if `x_i >= start + m` is certain (its minimum), each value
///   `start + c` with `c < m` must occur before position `i`. If no earlier domain
///   holds it, the constraint fails; if exactly one does, that variable is fixed to
///   it. O(n + s) where `s` counts the relevant domain values.
///
/// This is sound but not always full arc consistency.
///
/// # Local search
/// Violations count the positions whose value exceeds the bound (0/1 each).
///
/// ```
/// use csp_core::constraint::ValuePrecedence;
/// use csp_core::{Domain, Model, Search};
///
/// // Three variables over four interchangeable values: of the 4^3 = 64
/// // assignments, the classes under renaming are the set partitions of 3
/// // elements, Bell(3) = 5.
/// let mut m = Model::new();
/// let xs = m.new_vars(3, Domain::range(0, 3)).unwrap();
/// m.post(ValuePrecedence::new(xs, 0)).unwrap();
/// assert_eq!(Search::new(&m).count().count, 5);
/// ```
#[derive(Debug, Clone)]
pub struct ValuePrecedence {
    vars: Vec<VarId>,
    start: Value,
}

impl ValuePrecedence {
    /// Values `start, start + 1, ...` appear in order of first use along `vars`.
    pub fn new(vars: Vec<VarId>, start: Value) -> ValuePrecedence {
        ValuePrecedence { vars, start }
    }

    /// The variables, in precedence order.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The first value.
    pub fn start(&self) -> Value {
        self.start
    }

    /// One round of both passes; `Ok(true)` when a domain changed.
    fn round(&self, p: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let start = i64::from(self.start);
        let mut changed = false;
        // Pass 1: upper bounds. `b` = number of values start.. available before i.
        let mut b: i64 = 0;
        for &x in &self.vars {
            changed |= p.set_min(x, self.start)?;
            let bound = start + b;
            if bound < i64::from(p.max(x)) {
                // bound < max(x) <= Value::MAX, so it fits.
                changed |= p.set_max(x, bound as Value)?;
            }
            if Value::try_from(bound).is_ok_and(|v| p.contains(x, v)) {
                b += 1;
            }
        }
        // Pass 2: forced supports. `need` = values that must occur before the
        // current position (relative to start): every c < need.
        let needed_max = self
            .vars
            .iter()
            .map(|&x| i64::from(p.min(x)) - start)
            .max()
            .unwrap_or(0);
        if needed_max <= 0 {
            return Ok(changed);
        }
        let tracked = needed_max as usize; // values 0..tracked matter
                                           // For each tracked value: (first position holding it, whether a second does).
        let mut first: Vec<Option<usize>> = vec![None; tracked];
        let mut second: Vec<bool> = vec![false; tracked];
        let mut covered = 0usize;
        let mut forced: Vec<(usize, Value)> = Vec::new();
        for (i, &x) in self.vars.iter().enumerate() {
            let m = (i64::from(p.min(x)) - start).max(0) as usize;
            if m > covered {
                for c in covered..m.min(tracked) {
                    match (first[c], second[c]) {
                        (None, _) => return Err(Conflict),
                        (Some(j), false) => forced.push((j, (start + c as i64) as Value)),
                        (Some(_), true) => {}
                    }
                }
                covered = m;
            }
            for v in p.values(x) {
                let c = (i64::from(v) - start) as usize;
                if c >= tracked {
                    break;
                }
                if first[c].is_none() {
                    first[c] = Some(i);
                } else {
                    second[c] = true;
                }
            }
        }
        for (j, v) in forced {
            if !p.is_fixed(self.vars[j]) {
                changed = true;
            }
            p.fix(self.vars[j], v)?;
        }
        Ok(changed)
    }
}

impl Constraint for ValuePrecedence {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[Value]) -> bool {
        let mut max = i64::from(self.start) - 1;
        for &v in values {
            let v = i64::from(v);
            if v < i64::from(self.start) || v > max + 1 {
                return false;
            }
            max = max.max(v);
        }
        true
    }

    fn name(&self) -> &str {
        "value-precedence"
    }

    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.propagate(pruner)
    }

    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        while self.round(pruner)? {}
        Ok(())
    }

    fn violations(&self, values: &[Value]) -> u64 {
        let mut max = i64::from(self.start) - 1;
        let mut bad = 0;
        for &v in values {
            let v = i64::from(v);
            if v < i64::from(self.start) || v > max + 1 {
                bad += 1;
            }
            max = max.max(v);
        }
        bad
    }
}

/// `s` precedes `t` in `x_0, x_1, ...`: every `x_i = t` has some `x_j = s`
/// with `j < i` (`value_precede(s, t, x)` of the global constraint
/// catalogue; Law and Lee, "Global constraints for integer and set value
/// precedence", CP 2004). With `s = t` no variable may take the value.
///
/// # Pruning
/// Domain consistent, in one O(n) pass (idempotent): with `α` the first
/// position whose domain holds `s` and `γ` the first variable fixed to `t`,
/// * `γ` before `α` fails (that `t` cannot be preceded);
/// * `t` leaves every domain up to and including position `α` (nothing
///   before it can be `s`);
/// * if `α` is the only position before `γ` that can take `s`, `x_α = s`.
///
/// Every value left then has a support: `s` anywhere, any other value at a
/// position other than a sole support, and `t` after `α`.
///
/// # Local search
/// Violations count the positions holding an unpreceded `t` (0/1 each).
///
/// ```
/// use csp_core::constraint::ValuePrecede;
/// use csp_core::{Domain, Model, Search};
///
/// // Three variables over {0, 1, 2}, a 1 only after a 0: of the 27
/// // assignments, those without a 1 (8) and those whose first 0 comes
/// // before the first 1 (0 1 x: 3, 0 x 1 with x != 1: 2, x 0 1 with x = 2: 1).
/// let mut m = Model::new();
/// let xs = m.new_vars(3, Domain::range(0, 2))?;
/// m.post(ValuePrecede::new(xs, 0, 1))?;
/// assert_eq!(Search::new(&m).count().count, 14);
/// # Ok::<(), csp_core::ModelError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ValuePrecede {
    vars: Vec<VarId>,
    s: Value,
    t: Value,
}

impl ValuePrecede {
    /// `s` precedes `t` along `vars`.
    pub fn new(vars: Vec<VarId>, s: Value, t: Value) -> ValuePrecede {
        ValuePrecede { vars, s, t }
    }

    /// The number of positions holding a `t` not preceded by an `s`.
    fn unpreceded(&self, values: &[Value]) -> u64 {
        let mut seen = false;
        let mut bad = 0;
        for &v in values {
            if v == self.t && (!seen || self.s == self.t) {
                bad += 1;
            }
            seen |= v == self.s;
        }
        bad
    }
}

impl Constraint for ValuePrecede {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.unpreceded(values) == 0
    }

    fn name(&self) -> &str {
        "value-precede"
    }

    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.propagate(pruner)
    }

    fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (s, t) = (self.s, self.t);
        if s == t {
            for &x in &self.vars {
                p.remove(x, t)?;
            }
            return Ok(());
        }
        let n = self.vars.len();
        let alpha = self
            .vars
            .iter()
            .position(|&x| p.contains(x, s))
            .unwrap_or(n);
        let gamma = self
            .vars
            .iter()
            .position(|&x| p.value(x) == Some(t))
            .unwrap_or(n);
        if gamma < alpha {
            return Err(Conflict);
        }
        for &x in &self.vars[..(alpha + 1).min(n)] {
            p.remove(x, t)?;
        }
        if gamma < n
            && !self.vars[alpha + 1..gamma]
                .iter()
                .any(|&x| p.contains(x, s))
        {
            p.fix(self.vars[alpha], s)?;
        }
        Ok(())
    }

    fn violations(&self, values: &[Value]) -> u64 {
        self.unpreceded(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{testing, Domain, Model, Search};

    fn post(m: &mut Model, v: &[VarId], start: Value) -> Result<(), crate::ModelError> {
        m.post(ValuePrecedence::new(v.to_vec(), start)).map(|_| ())
    }

    #[test]
    fn agrees_with_brute_force_on_full_domains() {
        for n in 1..=5 {
            let doms = vec![Domain::range(0, 3); n];
            testing::check_constraint(&doms, |m, v| post(m, v, 0)).unwrap();
        }
    }

    #[test]
    fn agrees_with_brute_force_on_holes_and_offsets() {
        let doms = [
            Domain::values([1, 3]),
            Domain::range(0, 4),
            Domain::values([2, 4]),
            Domain::range(1, 3),
            Domain::values([1, 2, 4]),
        ];
        testing::check_constraint(&doms, |m, v| post(m, v, 1)).unwrap();
        let doms = [
            Domain::range(0, 2),
            Domain::values([1, 2]),
            Domain::values([0, 2]),
            Domain::range(0, 3),
            Domain::values([3]),
        ];
        testing::check_constraint(&doms, |m, v| post(m, v, 0)).unwrap();
    }

    #[test]
    fn agrees_with_brute_force_alongside_not_equal() {
        // A 5-cycle with precedence: exercises forced supports when neighbors
        // remove low values.
        let doms = vec![Domain::range(0, 2); 5];
        testing::check_constraint(&doms, |m, v| {
            for i in 0..5 {
                m.not_equal(v[i], v[(i + 1) % 5], 0)?;
            }
            post(m, v, 0)
        })
        .unwrap();
    }

    #[test]
    fn the_same_variable_twice_in_the_scope() {
        let doms = vec![Domain::range(0, 2); 3];
        testing::check_constraint(&doms, |m, v| {
            m.post(ValuePrecedence::new(vec![v[0], v[1], v[0], v[2]], 0))
                .map(|_| ())
        })
        .unwrap();
    }

    fn post_pair(m: &mut Model, v: &[VarId], s: Value, t: Value) -> Result<(), crate::ModelError> {
        m.post(ValuePrecede::new(v.to_vec(), s, t)).map(|_| ())
    }

    #[test]
    fn pair_agrees_with_brute_force() {
        for n in 1..=5 {
            let doms = vec![Domain::range(0, 2); n];
            for (s, t) in [(0, 1), (1, 0), (2, 0), (1, 1), (0, 7)] {
                testing::check_constraint(&doms, |m, v| post_pair(m, v, s, t)).unwrap();
            }
        }
        let doms = [
            Domain::values([1, 3]),
            Domain::range(0, 4),
            Domain::values([2, 4]),
            Domain::values([3]),
            Domain::values([1, 2, 4]),
        ];
        for (s, t) in [(1, 3), (2, 3), (4, 2), (3, 1)] {
            testing::check_constraint(&doms, |m, v| post_pair(m, v, s, t)).unwrap();
        }
        // With neighbours removing values, and a repeated variable.
        let doms = vec![Domain::range(0, 2); 4];
        testing::check_constraint(&doms, |m, v| {
            for i in 0..4 {
                m.not_equal(v[i], v[(i + 1) % 4], 0)?;
            }
            m.post(ValuePrecede::new(vec![v[0], v[1], v[2], v[3], v[1]], 2, 0))
                .map(|_| ())
        })
        .unwrap();
    }

    /// Domain consistency: a value without a solution is pruned at the root
    /// (the search with it fixed fails before its first decision), for the
    /// constraint alone, checked against brute force.
    #[test]
    fn pair_prunes_every_unsupported_value_at_the_root() {
        let doms = [
            Domain::range(1, 2),
            Domain::range(0, 2),
            Domain::range(1, 2),
            Domain::values([1]),
            Domain::range(0, 2),
        ];
        let build = |fixed: Option<(usize, Value)>| {
            let mut m = Model::new();
            let v: Vec<VarId> = doms
                .iter()
                .enumerate()
                .map(|(i, d)| match fixed {
                    Some((j, val)) if j == i => m.new_var(Domain::values([val])).unwrap(),
                    _ => m.new_var(d.clone()).unwrap(),
                })
                .collect();
            post_pair(&mut m, &v, 0, 1).unwrap();
            m
        };
        let sols = testing::brute_force(&build(None)).unwrap();
        let mut pruned = 0;
        for (i, d) in doms.iter().enumerate() {
            for val in d.iter() {
                let supported = sols.iter().any(|s| s[i] == val);
                for inference in [crate::Inference::ForwardChecking, crate::Inference::Mac] {
                    let r = Search::new(&build(Some((i, val))))
                        .inference(inference)
                        .solve();
                    assert_eq!(r.solution.is_some(), supported, "x{i} = {val}");
                    if !supported {
                        assert_eq!(r.stats.nodes, 0, "x{i} = {val} not pruned at the root");
                    }
                }
                pruned += usize::from(!supported);
            }
        }
        // t before and at α (x0 = 1, x1 = 1), and x1 the sole support of
        // the fixed t (x1 = 2).
        assert_eq!(pruned, 3);
    }

    #[test]
    fn counts_set_partitions() {
        // With n variables over n values, the solutions are the set partitions of
        // n elements: the Bell numbers.
        for (n, bell) in [(1, 1), (2, 2), (3, 5), (4, 15), (5, 52), (6, 203), (7, 877)] {
            let mut m = Model::new();
            let xs = m.new_vars(n, Domain::range(0, n as Value - 1)).unwrap();
            post(&mut m, &xs, 0).unwrap();
            assert_eq!(Search::new(&m).count().count, bell, "n = {n}");
        }
    }
}
