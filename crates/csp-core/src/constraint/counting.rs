//! The counting family with variable counts: among, global cardinality
//! and nvalue.

use super::distinct::subscribe_all;
use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Because, DomainReads};
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// The reads of a domain the set tests need: a [`Pruner`]'s, or a
/// reason's [`Premises`] (the domains before the change being explained).
/// The values of the sorted `set` within `x`'s bounds.
fn set_within<'s>(d: &impl DomainReads, x: VarId, set: &'s [Value]) -> &'s [Value] {
    let (lo, hi) = (d.min(x), d.max(x));
    &set[set.partition_point(|&v| v < lo)..set.partition_point(|&v| v <= hi)]
}

/// Is `x`'s domain inside the set?
///
/// Never walks more than `|set| + 1` values: a domain is inside the set
/// only if it has no more values than the set has within its bounds, so
/// a domain of 2³² values costs no more than a small one.
fn inside(d: &impl DomainReads, x: VarId, set: &[Value]) -> bool {
    let within = set_within(d, x, set);
    let mut v = Some(d.min(x));
    for _ in 0..=within.len() {
        match v {
            None => return true,
            Some(u) if within.binary_search(&u).is_err() => return false,
            Some(u) => v = d.next_above(x, u),
        }
    }
    v.is_none()
}

/// Does `x`'s domain meet the set? `|set|` membership tests at most.
fn meets(d: &impl DomainReads, x: VarId, set: &[Value]) -> bool {
    set_within(d, x, set).iter().any(|&s| d.contains(x, s))
}

/// How many of the `vars` take a value in `set`: `sure` (domain inside the
/// set) and `possible` (domain meets the set). O(|set|) per variable,
/// whatever the size of its domain.
fn in_set(p: &Pruner<'_>, vars: &[VarId], set: &[Value]) -> (i64, i64) {
    let (mut sure, mut possible) = (0, 0);
    for &x in vars {
        if inside(p, x, set) {
            sure += 1;
            possible += 1;
        } else if meets(p, x, set) {
            possible += 1;
        }
    }
    (sure, possible)
}

/// Bounds `n` to `[lo, hi]` (as `i64`, clamped to the value range), each
/// bound with its reason (`lo ≤ hi` always holds for the callers).
fn bound(
    p: &mut Pruner<'_>,
    n: VarId,
    (lo, why_lo): (i64, impl Because),
    (hi, why_hi): (i64, impl Because),
) -> Result<(), Conflict> {
    let clamp = |v: i64| v.clamp(Value::MIN as i64, Value::MAX as i64) as Value;
    p.set_min(n, clamp(lo), why_lo)?;
    p.set_max(n, clamp(hi), why_hi)?;
    Ok(())
}

/// Pushes why the variables of `vars` (but `skip`) that are settled with
/// respect to `set` are so: inside it when `inside`, else outside it (the
/// values each has lost on the other side).
fn settled(r: &mut Premises<'_>, vars: &[VarId], set: &[Value], within: bool, skip: Option<VarId>) {
    let side = |u: Value| set.binary_search(&u).is_ok() == within;
    for &x in vars {
        let on_side = if within {
            inside(r, x, set)
        } else {
            !meets(r, x, set)
        };
        if Some(x) != skip && on_side {
            r.domain_within(x, side);
        }
    }
}

/// `n = |{i : vars[i] ∈ set}|` (Beldiceanu and Contejean's among; with a
/// one-value set, count with a variable count).
///
/// # Pruning
/// Domain consistent at both inference levels: with `sure` variables whose
/// domain lies inside the set and `possible` ones whose domain meets it,
/// `n ∈ [sure, possible]`; when `n` can only be `sure`, the undecided
/// variables lose the set's values; when it can only be `possible`, they
/// lose the others. Each domain is tested by probing the set's values and
/// walking at most `|set| + 1` of its own, so a call costs O(n·|set|·log|set|)
/// whatever the domains' sizes (a variable over all of `i32` included);
/// between the bounds of the set's values, a domain of more than 65,536
/// values keeps its values outside the set (the kernel removes values
/// one at a time), and counting then checks each solution. Local-search
/// violations are `|count − n|`.
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
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (n, xs) = vars.split_last()?;
        let set: Vec<String> = self.set.iter().map(Value::to_string).collect();
        Some(format!(
            "among({n}, {}, {{{}}})",
            crate::minizinc::list(xs),
            set.join(", ")
        ))
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

/// Above this many values between the bounds, a domain is not filtered
/// value by value (the kernel removes values one at a time).
const WALK_LIMIT: u64 = 1 << 16;

/// Reduces `x`'s domain to the set's values, because of `why` (which
/// implies `x ∈ set`): to the bounds of the set's values it holds, then,
/// within them, to the set when at most [`WALK_LIMIT`] values lie between
/// those bounds. Wider (a sparse set over a huge domain) the values
/// between the set's stay: the checker rejects them once `x` is fixed, so
/// no solution is wrong, but the last open variable may keep values no
/// solution has.
///
/// `x ∈ set` alone implies only the removal of values outside the set.
/// The new bounds, and a failure when no value of the set is left, rest
/// besides on the set's values `x` has lost: each bound's reason adds
/// `x`'s old bound and the set's values missing between the old bound
/// and the new one (without them a learned nogood excluded solutions:
/// `tests/learning_globals.rs`, seed 2999).
fn keep_set(
    p: &mut Pruner<'_>,
    x: VarId,
    set: &[Value],
    why: impl Fn(&mut Premises<'_>) + Copy,
) -> Result<(), Conflict> {
    let within = set_within(p, x, set);
    let Some(&first) = within.iter().find(|&&v| p.contains(x, v)) else {
        // No value of the set left: x's domain, as far as the set goes.
        return Err(p.fail(|r: &mut Premises<'_>| {
            why(r);
            r.domain_within(x, |u| set.binary_search(&u).is_err());
        }));
    };
    let last = *within
        .iter()
        .rev()
        .find(|&&v| p.contains(x, v))
        .unwrap_or(&first);
    // The domain before each change is the premises' view of it.
    p.set_min(x, first, |r: &mut Premises<'_>| {
        why(r);
        let lo = r.min(x);
        r.push(Literal::Ge(x, lo));
        for &v in within.iter().take_while(|&&v| v < first) {
            r.push(Literal::Ne(x, v));
        }
    })?;
    p.set_max(x, last, |r: &mut Premises<'_>| {
        why(r);
        let hi = r.max(x);
        r.push(Literal::Le(x, hi));
        for &v in within.iter().rev().take_while(|&&v| v > last) {
            r.push(Literal::Ne(x, v));
        }
    })?;
    if (last as i64 - first as i64) < WALK_LIMIT as i64 {
        p.retain(x, |v| set.binary_search(&v).is_ok(), why)?;
    }
    Ok(())
}

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
        let (xs, set, n) = (c.vars(), &c.set[..], c.n());
        bound(
            p,
            n,
            (sure, |r: &mut Premises| settled(r, xs, set, true, None)),
            (possible, |r: &mut Premises| {
                settled(r, xs, set, false, None)
            }),
        )?;
        let (lo, hi) = (p.min(n) as i64, p.max(n) as i64);
        if hi == sure || lo == possible {
            // Undecided variables go out of the set (hi = sure: the count
            // is reached) or into it (lo = possible: every one is needed).
            let into = hi != sure;
            for &x in xs {
                if meets(p, x, set) && !inside(p, x, set) {
                    let why = |r: &mut Premises| {
                        r.push(if into {
                            Literal::Ge(n, lo as Value)
                        } else {
                            Literal::Le(n, hi as Value)
                        });
                        settled(r, xs, set, !into, Some(x));
                    };
                    if into {
                        keep_set(p, x, set, why)?;
                    } else {
                        // The set's values, not the domain's, are walked.
                        for &v in set_within(p, x, set) {
                            p.remove(x, v, why)?;
                        }
                    }
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
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (xs, counts) = vars.split_at(self.n);
        let values: Vec<String> = self.values.iter().map(Value::to_string).collect();
        Some(format!(
            "global_cardinality({}, [{}], {})",
            crate::minizinc::list(xs),
            values.join(", "),
            crate::minizinc::list(counts)
        ))
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
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (xs, n) = vars.split_at(vars.len() - 1);
        if xs.is_empty() {
            return None; // an untyped empty array
        }
        Some(format!("nvalue({}, {})", n[0], crate::minizinc::list(xs)))
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
        // The fixed variables, all of them (`all`) or one per value taken.
        let fixed_vars = move |r: &mut Premises, all: bool| {
            let mut seen: Vec<Value> = Vec::new();
            for &x in xs {
                if let Some(v) = r.value(x) {
                    if all || !seen.contains(&v) {
                        seen.push(v);
                        r.push(Literal::Eq(x, v));
                    }
                }
            }
        };
        let by_union = (union.len() as i64) < f + unfixed;
        let why_hi = move |r: &mut Premises| {
            if by_union {
                xs.iter().for_each(|&x| r.domain(x));
            } else {
                fixed_vars(r, true);
            }
        };
        bound(
            p,
            n,
            (lo, |r: &mut Premises| fixed_vars(r, false)),
            (hi, why_hi),
        )?;
        if unfixed > 0 {
            let (nmin, nmax) = (p.min(n), p.max(n));
            if nmax as i64 == f {
                // No room for a new value: every variable takes a fixed one.
                let why = |r: &mut Premises| {
                    r.push(Literal::Le(n, nmax));
                    fixed_vars(r, false);
                };
                for &x in xs {
                    p.retain(x, |v| fixed.binary_search(&v).is_ok(), why)?;
                }
            } else if nmin as i64 == f + unfixed {
                // Every open variable must bring a new value.
                let why = |r: &mut Premises| {
                    r.push(Literal::Ge(n, nmin));
                    fixed_vars(r, true);
                };
                for &x in xs {
                    if !p.is_fixed(x) {
                        p.retain(x, |v| fixed.binary_search(&v).is_err(), why)?;
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
    /// assert_eq!(Search::new(&m).count().unwrap().count, 12);
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
        // A sparse set over a huge domain: the values between the set's
        // may stay (see `keep_set`), so counting checks the solutions
        // rather than adding the last variable's values at once.
        let wide = self.sparse_over_wide(vars, &set, WALK_LIMIT);
        let id = self.post(Among {
            scope: vars.iter().copied().chain([n]).collect(),
            set,
        })?;
        if wide {
            self.check_counted(id);
        }
        Ok(id)
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
