//! The counting family with variable counts: among, global cardinality
//! and nvalue.

use super::distinct::subscribe_all;
use super::Why;
use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// How many of the `vars` take a value in `set`: `sure` (domain inside the
/// set) and `possible` (domain meets the set).
fn in_set(p: &Pruner<'_>, vars: &[VarId], set: &[Value]) -> (i64, i64) {
    let (mut sure, mut possible) = (0, 0);
    for &x in vars {
        let mut any = false;
        let mut all = true;
        for v in p.values(x) {
            if set.binary_search(&v).is_ok() {
                any = true;
            } else {
                all = false;
            }
            if any && !all {
                break;
            }
        }
        possible += i64::from(any);
        sure += i64::from(all);
    }
    (sure, possible)
}

/// Bounds `n` to `[lo, hi]` (as `i64`, clamped to the value range).
fn bound(p: &mut Pruner<'_>, n: VarId, lo: i64, hi: i64) -> Result<(), Conflict> {
    let clamp = |v: i64| v.clamp(Value::MIN as i64, Value::MAX as i64) as Value;
    if lo > hi {
        return Err(Conflict);
    }
    p.set_min(n, clamp(lo), Why::Scope)?;
    p.set_max(n, clamp(hi), Why::Scope)?;
    Ok(())
}

/// `n = |{i : vars[i] ∈ set}|` (Beldiceanu and Contejean's among; with a
/// one-value set, count with a variable count).
///
/// # Pruning
/// Domain consistent at both inference levels: with `sure` variables whose
/// domain lies inside the set and `possible` ones whose domain meets it,
/// `n ∈ [sure, possible]`; when `n` can only be `sure`, the undecided
/// variables lose the set's values; when it can only be `possible`, they
/// lose the others. O(Σ|D|·log|set|) per call. Local-search violations are
/// `|count − n|`.
#[derive(Debug, Clone)]
pub struct Among {
    /// The variables, then `n`.
    scope: Vec<VarId>,
    /// Sorted, deduplicated.
    set: Vec<Value>,
}

impl Among {
    fn vars(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }
    fn n(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }
}

impl Constraint for Among {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "among"
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let (xs, n) = values.split_at(values.len() - 1);
        let count = xs
            .iter()
            .filter(|v| self.set.binary_search(v).is_ok())
            .count() as i64;
        (count - n[0] as i64).unsigned_abs()
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(AmongProp(self)))
    }
}

#[derive(Debug)]
struct AmongProp<'a>(&'a Among);

impl Propagator for AmongProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.0.scope, Events::DOMAIN);
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let c = self.0;
        let (sure, possible) = in_set(p, c.vars(), &c.set);
        bound(p, c.n(), sure, possible)?;
        let (lo, hi) = (p.min(c.n()) as i64, p.max(c.n()) as i64);
        if hi == sure || lo == possible {
            // Undecided variables go out of the set (hi = sure) or into it.
            let into = hi != sure;
            for &x in c.vars() {
                let (inside, meets) = in_set(p, &[x], &c.set);
                if meets == 1 && inside == 0 {
                    p.retain(x, |v| c.set.binary_search(&v).is_ok() == into, Why::Scope)?;
                }
            }
        }
        Ok(())
    }
    fn is_idempotent(&self) -> bool {
        true
    }
    fn name(&self) -> &str {
        "among"
    }
}

/// For each `k`, `counts[k] = |{i : vars[i] = values[k]}|`; the variables
/// may take other values too (the open global cardinality constraint).
///
/// # Pruning
/// Régin's flow-based filtering (AAAI 1996) over a network of the
/// variables, the listed values and one slack node for all the unlisted
/// values: **domain consistency** on the variables with respect to the
/// counts' bounds (every value left belongs to some assignment whose counts
/// lie within those bounds), and **bounds consistency** on the counts (each
/// count's bounds are the least and the greatest number of variables its
/// value can take, given the domains and the other counts' bounds). With
/// holes inside the counts' domains the counts are still only bounded; the
/// checker and every solution are exact.
///
/// The flow is kept between calls and repaired, and fixed variables leave
/// the network; with `n` unfixed variables, `m` values and `e ≤ n·(m + 1)`
/// edges a call costs O(n·m + e) plus one O(n·m + e) path search per
/// variable whose flow must move, plus, for each count not decided by the
/// flow's components, one path search per unit its bounds can move
/// (O(n·(n·m + e)) per count at worst). Values are only compared, so
/// domains anywhere in the `i32` range work; the unlisted values of a
/// domain of more than 65,536 values are cut to the listed values' range
/// rather than removed one by one. A variable repeated in the scope (a
/// count among the variables included) sends the constraint to the checker
/// path. See `constraint/gcc.rs` for the algorithm and `docs/benchmarks.md`
/// for a measurement. Local-search violations are `Σ_k |count_k −
/// counts[k]|`.
#[derive(Debug, Clone)]
pub struct GlobalCardinality {
    /// The variables, then the counts.
    scope: Vec<VarId>,
    n: usize,
    values: Vec<Value>,
}

impl Constraint for GlobalCardinality {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "global-cardinality"
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let (xs, counts) = values.split_at(self.n);
        self.values
            .iter()
            .zip(counts)
            .map(|(v, &c)| (xs.iter().filter(|&x| x == v).count() as i64 - c as i64).unsigned_abs())
            .sum()
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let (vars, counts) = self.scope.split_at(self.n);
        Some(Box::new(super::gcc::GccFlow::new(
            vars,
            counts,
            &self.values,
        )))
    }
}

/// `n` is the number of distinct values among `vars` (Pachet and Roy's
/// nvalue).
///
/// # Pruning
/// Bounds reasoning, O(Σ|D|) per call: with `f` distinct values among the
/// fixed variables, `u` unfixed variables and `U` values in the union of
/// the domains, `n ∈ [max(f, 1 if any variable), min(f + u, U)]`; when `n`
/// can be no more than `f`, the unfixed variables keep only the fixed
/// values; when it must be `f + u`, they lose the fixed values. Not bounds
/// consistent (the lower bound alone is NP-hard, Bessière et al. 2004); the
/// checker is exact. Local-search violations are `|distinct − n|`.
#[derive(Debug, Clone)]
pub struct NValue {
    /// The variables, then `n`.
    scope: Vec<VarId>,
}

impl Constraint for NValue {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
    }
    fn name(&self) -> &str {
        "nvalue"
    }
    fn violations(&self, values: &[Value]) -> u64 {
        let (xs, n) = values.split_at(values.len() - 1);
        let mut d = xs.to_vec();
        d.sort_unstable();
        d.dedup();
        (d.len() as i64 - n[0] as i64).unsigned_abs()
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(NValueProp(self)))
    }
}

#[derive(Debug)]
struct NValueProp<'a>(&'a NValue);

impl Propagator for NValueProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, &self.0.scope, Events::DOMAIN);
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (xs, n) = self.0.scope.split_at(self.0.scope.len() - 1);
        let n = n[0];
        let mut fixed: Vec<Value> = xs.iter().filter_map(|&x| p.value(x)).collect();
        fixed.sort_unstable();
        fixed.dedup();
        let unfixed = xs.iter().filter(|&&x| !p.is_fixed(x)).count() as i64;
        let mut union: Vec<Value> = Vec::new();
        for &x in xs {
            union.extend(p.values(x));
        }
        union.sort_unstable();
        union.dedup();
        let f = fixed.len() as i64;
        let lo = f.max(i64::from(!xs.is_empty()));
        let hi = (f + unfixed).min(union.len() as i64);
        bound(p, n, lo, hi)?;
        if unfixed > 0 {
            if p.max(n) as i64 == f {
                for &x in xs {
                    p.retain(x, |v| fixed.binary_search(&v).is_ok(), Why::Scope)?;
                }
            } else if p.min(n) as i64 == f + unfixed {
                for &x in xs {
                    if !p.is_fixed(x) {
                        p.retain(x, |v| fixed.binary_search(&v).is_err(), Why::Scope)?;
                    }
                }
            }
        }
        Ok(())
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn name(&self) -> &str {
        "nvalue"
    }
}

impl Model {
    /// `n` counts the variables of `vars` that take a value in `set` (see
    /// [`Among`]). With `set = [v]` this is count with a variable count.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let x = m.new_vars(3, Domain::range(0, 2)).unwrap();
    /// let n = m.new_var(Domain::singleton(2)).unwrap();
    /// m.among(&x, &[1, 2], n).unwrap();
    /// // Two of three in {1, 2}, one at 0: 3 places for the 0 × 2 × 2.
    /// assert_eq!(Search::new(&m).count().count, 12);
    /// ```
    pub fn among(
        &mut self,
        vars: &[VarId],
        set: &[Value],
        n: VarId,
    ) -> Result<ConstraintId, ModelError> {
        let mut set = set.to_vec();
        set.sort_unstable();
        set.dedup();
        self.post(Among {
            scope: vars.iter().copied().chain([n]).collect(),
            set,
        })
    }

    /// For each `k`, `counts[k]` variables of `vars` take `values[k]` (see
    /// [`GlobalCardinality`]). Fails with [`ModelError::LengthMismatch`]
    /// when the lists differ in length and [`ModelError::Invalid`] when a
    /// value is listed twice.
    pub fn global_cardinality(
        &mut self,
        vars: &[VarId],
        values: &[Value],
        counts: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        if values.len() != counts.len() {
            return Err(ModelError::LengthMismatch {
                constraint: "global-cardinality",
                what: "count variables for the values",
                expected: values.len(),
                found: counts.len(),
            });
        }
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(ModelError::Invalid {
                constraint: "global-cardinality",
                reason: format!("value {} is listed twice", w[0]),
            });
        }
        self.post(GlobalCardinality {
            scope: vars.iter().chain(counts).copied().collect(),
            n: vars.len(),
            values: values.to_vec(),
        })
    }

    /// `n` is the number of distinct values among `vars` (see [`NValue`]).
    pub fn nvalue(&mut self, vars: &[VarId], n: VarId) -> Result<ConstraintId, ModelError> {
        self.post(NValue {
            scope: vars.iter().copied().chain([n]).collect(),
        })
    }
}
