//! Element: `array[index] = result`, with an array of variables.

use super::{Constraint, Premises, Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// `array[index − base] = result`, with an `index` variable that counts
/// from `base` (0 by [`Element::new`], 1 for MiniZinc's arrays by
/// [`Element::with_base`]) and an array of variables (a constant array is
/// an array of fixed variables). The index names the array's positions
/// directly, with no auxiliary `index − base` variable, so the reasons
/// below name the index's own literals.
///
/// Scope order: `index`, `result`, then the array.
///
/// # Pruning
/// Both inference levels: `index` keeps the positions `i` whose `array[i]`
/// shares a value with `result`; `result` keeps the values some remaining
/// `array[i]` can take; when `index` is fixed to `i`, `array[i]` and `result`
/// are made equal. O(n·d) for n array entries of domain size d. Domains of
/// more than 65,536 values are bounded rather than walked (the index to
/// the array's positions, a wide result to its entries' bounds), so an
/// index or a result over all of `i32` costs no more than a small one; the
/// pruning is exact once all but one of the scope's variables are fixed.
///
/// # Reasons
/// `result ≠ v`: the entries the index can name lack `v`, and the index
/// avoids the other positions whose entries could be `v` (by their
/// declared domains: a constant entry of another value needs nothing),
/// stated as generally as its domain allows (one bound below, one above,
/// `≠` for the holes). `index ≠ i`: with `array[i]` fixed to `c`,
/// `result ≠ c`; with the result fixed to `v`, `array[i] ≠ v`; else both
/// domains. With the index fixed, `index = i` and the bound or value
/// copied. (The positions and index values above are the index's values
/// `base`, `base + 1`, … for the entries 0, 1, ….)
#[derive(Debug, Clone)]
pub struct Element {
    /// index, result, array...
    vars: Vec<VarId>,
    /// The index value that names the array's first entry.
    base: Value,
}

impl Element {
    /// `array[index] = result`, the index counting from 0.
    pub fn new(index: VarId, array: &[VarId], result: VarId) -> Element {
        Element::with_base(index, array, result, 0)
    }

    /// `array[index − base] = result`: the index counts from `base`
    /// (`index = base` names `array[0]`).
    pub fn with_base(index: VarId, array: &[VarId], result: VarId, base: Value) -> Element {
        let mut vars = Vec::with_capacity(array.len() + 2);
        vars.push(index);
        vars.push(result);
        vars.extend_from_slice(array);
        Element { vars, base }
    }

    /// The index value that names the array's first entry.
    pub fn base(&self) -> Value {
        self.base
    }

    /// The array's position an index value names, if any.
    fn position(&self, i: Value) -> Option<usize> {
        usize::try_from(i64::from(i) - i64::from(self.base))
            .ok()
            .filter(|&p| p < self.vars.len() - 2)
    }

    fn prune(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (index, result, array) = (self.vars[0], self.vars[1], &self.vars[2..]);
        if array.is_empty() {
            return Err(pruner.fail(Why::Constraint));
        }
        // The index within the array's positions: bounds, so an index
        // over all of i32 is never listed. (Positions past i32::MAX
        // cannot be named.)
        let base = i64::from(self.base);
        let last = (base + array.len() as i64 - 1).min(i64::from(Value::MAX)) as Value;
        pruner.set_min(index, self.base, Why::Constraint)?;
        pruner.set_max(index, last, Why::Constraint)?;
        let at = |i: Value| (i64::from(i) - base) as usize;
        // index: positions whose entry can equal the result.
        let idx: Values = pruner.values(index).collect();
        for i in idx {
            let a = array[at(i)];
            if !may_meet(pruner, a, result) {
                // array[i] and result have no value in common: with one
                // of them fixed, the other lacks that value (a constant
                // entry c: just `result ≠ c`); else both domains.
                pruner.remove(index, i, |r: &mut Premises| {
                    match (r.value(a), r.value(result)) {
                        (Some(c), _) => {
                            r.push(Literal::Eq(a, c));
                            r.push(Literal::Ne(result, c));
                        }
                        (None, Some(v)) => {
                            r.push(Literal::Eq(result, v));
                            r.push(Literal::Ne(a, v));
                        }
                        (None, None) => {
                            r.domain(a);
                            r.domain(result);
                        }
                    }
                })?;
            }
        }
        // result: values some remaining entry can take; value by value
        // when the result has at most WALK_LIMIT values, else its bounds.
        let idx: Values = pruner.values(index).collect();
        if pruner.size(result) <= WALK_LIMIT {
            let res: Values = pruner.values(result).collect();
            for v in res {
                if !idx.iter().any(|&i| pruner.contains(array[at(i)], v)) {
                    // No entry the index can still name can take v.
                    let idx = &idx;
                    pruner.remove(result, v, move |r: &mut Premises| {
                        for &i in idx {
                            r.push(Literal::Ne(array[at(i)], v));
                        }
                        index_avoids(r, index, array, self.base, v);
                    })?;
                }
            }
        } else {
            let entries = || idx.iter().map(|&i| array[at(i)]);
            let lo = entries().map(|a| pruner.min(a)).min().unwrap_or(Value::MIN);
            let hi = entries().map(|a| pruner.max(a)).max().unwrap_or(Value::MAX);
            let why = |r: &mut Premises| {
                r.domain(index);
                for &i in &idx {
                    r.at_least(array[at(i)]);
                    r.at_most(array[at(i)]);
                }
            };
            pruner.set_min(result, lo, why)?;
            pruner.set_max(result, hi, why)?;
        }
        if let Some(i) = pruner.value(index) {
            mirror(pruner, Literal::Eq(index, i), array[at(i)], result)?;
        }
        Ok(())
    }
}

/// Premises that the index names no position whose entry could still be
/// `v`, beside the entries it can name (which the caller says lack `v`):
/// the positions out of the index's domain whose entry's declared domain
/// holds `v`, excluded as generally as the domain allows. Those below the
/// index's minimum by one bound, `index ≥ p + 1` for the highest such `p`
/// (not the minimum itself), those above by `index ≤ q − 1`, and the holes
/// between by `index ≠ j`; an entry that could never be `v` (a constant of
/// another value) needs nothing. So a constant array's `result ≠ v` rests
/// only on the index avoiding the positions that hold `v`, as in the
/// clauses `[index = j] → [result = aⱼ]` of lazy clause generation, not on
/// the index's whole domain. Position `j` is the index value `base + j`.
fn index_avoids(r: &mut Premises<'_>, index: VarId, array: &[VarId], base: Value, v: Value) {
    // Positions as i64 offsets from `base`; the index's bounds were set
    // within the array's positions first, as facts of the constraint,
    // so every position named below is an i32 index value.
    let base = i64::from(base);
    // Positions past i32::MAX cannot be named.
    let n = (array.len() as i64).min(i64::from(Value::MAX) - base + 1);
    let value = |j: i64| (base + j) as Value;
    let lo = i64::from(r.min(index)) - base;
    let hi = i64::from(r.max(index)) - base;
    let holds =
        |r: &Premises<'_>, j: i64| r.declared(index, value(j)) && r.declared(array[j as usize], v);
    let first = lo.clamp(0, n);
    if let Some(p) = (0..first).rev().find(|&j| holds(r, j)) {
        r.push(Literal::Ge(index, value(p + 1)));
    }
    let end = (hi + 1).clamp(0, n);
    if let Some(q) = (end..n).find(|&j| holds(r, j)) {
        r.push(Literal::Le(index, value(q - 1)));
    }
    for j in first..end {
        if !r.contains(index, value(j)) && holds(r, j) {
            r.push(Literal::Ne(index, value(j)));
        }
    }
}

/// A domain's values, copied out before the pruning changes it: on the
/// stack for the short domains of most indices and results (no allocation
/// per call).
type Values = smallvec::SmallVec<[Value; 16]>;

/// Above this many values a domain is bounded, not walked value by value.
const WALK_LIMIT: u64 = 1 << 16;

/// Can `a` and `b` share a value? Exact when either has at most
/// [`WALK_LIMIT`] values (the smaller is walked); above, whether their
/// bounds overlap.
fn may_meet(p: &Pruner<'_>, a: VarId, b: VarId) -> bool {
    let (small, large) = if p.size(a) <= p.size(b) {
        (a, b)
    } else {
        (b, a)
    };
    if p.max(small) < p.min(large) || p.max(large) < p.min(small) {
        return false;
    }
    if p.size(small) > WALK_LIMIT {
        return true;
    }
    let mut v = Some(p.min(small));
    while let Some(u) = v {
        if p.contains(large, u) {
            return true;
        }
        v = p.next_above(small, u);
    }
    false
}

/// With the index fixed (`fixed`), `a = array[index]` and `result`
/// mirror each other: equal bounds, then the values of the one with at
/// most [`WALK_LIMIT`] values that the other lacks go (a fixed one fixes
/// the other).
fn mirror(p: &mut Pruner<'_>, fixed: Literal, a: VarId, result: VarId) -> Result<(), Conflict> {
    for (x, y) in [(a, result), (result, a)] {
        let (lo, hi) = (p.min(y), p.max(y));
        p.set_min(x, lo, |r: &mut Premises| {
            r.push(fixed);
            r.push(Literal::Ge(y, lo));
        })?;
        p.set_max(x, hi, |r: &mut Premises| {
            r.push(fixed);
            r.push(Literal::Le(y, hi));
        })?;
    }
    for (x, y) in [(a, result), (result, a)] {
        if let Some(v) = p.value(y) {
            p.fix(x, v, |r: &mut Premises| {
                r.push(fixed);
                r.push(Literal::Eq(y, v));
            })?;
        } else if p.size(x) <= WALK_LIMIT {
            let xv: Values = p.values(x).collect();
            for v in xv {
                if !p.contains(y, v) {
                    p.remove(x, v, |r: &mut Premises| {
                        r.push(fixed);
                        r.push(Literal::Ne(y, v));
                    })?;
                }
            }
        }
    }
    Ok(())
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.position(values[0])
            .is_some_and(|p| values[2 + p] == values[1])
    }
    fn name(&self) -> &str {
        "element"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // MiniZinc arrays count from 1; an index outside makes it false.
        let shift = 1 - i64::from(self.base);
        let index = match shift {
            0 => vars[0].clone(),
            s if s > 0 => format!("{} + {s}", vars[0]),
            s => format!("{} - {}", vars[0], -s),
        };
        Some(format!(
            "{}[{index}] = {}",
            crate::minizinc::list(&vars[2..]),
            vars[1]
        ))
    }
    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.prune(pruner)
    }
    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.prune(pruner)
    }
}
