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

use super::Why;
use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Event, Events, Propagator, Setup, StateWords};

/// Pushes `x_j ≠ v` for every position `j < i` but `except`: no earlier
/// position can hold `v` (each literal holds where a reason uses it).
fn lacks_before(r: &mut Premises<'_>, vars: &[VarId], i: usize, v: Value, except: Option<usize>) {
    for (j, &x) in vars[..i.min(vars.len())].iter().enumerate() {
        if Some(j) != except {
            r.push(Literal::Ne(x, v));
        }
    }
}

/// Pushes the domains of the positions before `i`: what the upper bound of
/// `x_i` rests on (values become available one position at a time).
fn prefix_domains(r: &mut Premises<'_>, vars: &[VarId], i: usize) {
    for &x in &vars[..i.min(vars.len())] {
        r.domain(x);
    }
}

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
/// The search runs both passes incrementally (when no variable occurs
/// twice in the sequence): for each value `c` it keeps, as reversible
/// state, `p_c`, the first position that can take `c` after `p_{c−1}` (the
/// positions up to `p_c` are those bounded by `c`), and `s_c`, the next
/// position after `p_c` holding `c`. Domains only shrink down a branch, so
/// both only move right and a call checks each `p_c` and `s_c` (O(b) for
/// `b` usable values), scans only the positions they newly pass, and checks
/// the minimum of each position whose domain changed since the last call
/// (O(b) each): `x_{p_c}` is fixed to `c` when a position between `p_c` and
/// `s_c` has a minimum above `c`. It reaches the same fixpoint as the two
/// passes, after every domain event at both inference levels. With a
/// repeated variable the passes run in full on each call.
///
/// # Local search
/// Violations count the positions whose value exceeds the bound (0/1 each).
///
/// ```
/// use csp_core::constraint::ValuePrecedeChain;
/// use csp_core::{Domain, Model, Search};
///
/// // Three variables over four interchangeable values: of the 4^3 = 64
/// // assignments, the classes under renaming are the set partitions of 3
/// // elements, Bell(3) = 5.
/// let mut m = Model::new();
/// let xs = m.new_vars(3, Domain::range(0, 3)).unwrap();
/// m.post(ValuePrecedeChain::new(xs, 0)).unwrap();
/// assert_eq!(Search::new(&m).count().unwrap().count, 5);
/// ```
#[derive(Debug, Clone)]
pub struct ValuePrecedeChain {
    vars: Vec<VarId>,
    /// `vars`, then `top` when bounded.
    scope: Vec<VarId>,
    start: Value,
    top: Option<VarId>,
    /// No variable occurs twice in the scope (the incremental propagator
    /// relies on it).
    distinct: bool,
}

impl ValuePrecedeChain {
    /// Values `start, start + 1, ...` appear in order of first use along `vars`.
    pub fn new(vars: Vec<VarId>, start: Value) -> ValuePrecedeChain {
        Self::build(vars, start, None)
    }

    /// The same, and every `x_i <= top`: at most `top − start + 1` values are
    /// used. One constraint rather than one per variable, so a model that
    /// minimises the number of values (graph coloring's `top`) gives each
    /// variable the weighted degree it has without the bound (dom/wdeg sums
    /// the weights of every constraint on a variable).
    ///
    /// Pruning, besides the passes below: `x_i <= max(top)` for every `i`,
    /// and `top >= min(x_i)`. The scope is `vars` then `top`.
    ///
    /// ```
    /// use csp_core::constraint::ValuePrecedeChain;
    /// use csp_core::{Domain, Model, Search};
    ///
    /// // Three variables over four values, `top` 0 or 1: with `top` 0 only
    /// // 0 0 0; with `top` 1, 0 0 0, 0 0 1, 0 1 0 and 0 1 1.
    /// let mut m = Model::new();
    /// let xs = m.new_vars(3, Domain::range(0, 3)).unwrap();
    /// let top = m.new_var(Domain::range(0, 1)).unwrap();
    /// m.post(ValuePrecedeChain::bounded(xs, 0, top)).unwrap();
    /// assert_eq!(Search::new(&m).count().unwrap().count, 5);
    /// ```
    pub fn bounded(vars: Vec<VarId>, start: Value, top: VarId) -> ValuePrecedeChain {
        Self::build(vars, start, Some(top))
    }

    fn build(vars: Vec<VarId>, start: Value, top: Option<VarId>) -> ValuePrecedeChain {
        let mut scope = vars.clone();
        scope.extend(top);
        let mut sorted = scope.clone();
        sorted.sort_unstable();
        let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
        ValuePrecedeChain {
            vars,
            scope,
            start,
            top,
            distinct,
        }
    }

    /// The variables, in precedence order.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The bound on the values, when there is one ([`bounded`](Self::bounded)).
    pub fn top(&self) -> Option<VarId> {
        self.top
    }

    /// The bound's part of a round (or of a call): every `x_i <= max(top)`
    /// and `top >= min(x_i)`; `Ok(true)` when a domain changed.
    fn bound(&self, p: &mut Pruner<'_>, top: VarId) -> Result<bool, Conflict> {
        let mut changed = false;
        let hi = p.max(top);
        let mut lo = (p.min(top), None);
        for &x in &self.vars {
            changed |= p.set_max(x, hi, Literal::Le(top, hi))?;
            if p.min(x) > lo.0 {
                lo = (p.min(x), Some(x));
            }
        }
        if let (m, Some(x)) = lo {
            changed |= p.set_min(top, m, Literal::Ge(x, m))?;
        }
        Ok(changed)
    }

    /// The first value.
    pub fn start(&self) -> Value {
        self.start
    }

    /// One round of both passes; `Ok(true)` when a domain changed.
    fn round(&self, p: &mut Pruner<'_>) -> Result<bool, Conflict> {
        let start = i64::from(self.start);
        let mut changed = match self.top {
            Some(top) => self.bound(p, top)?,
            None => false,
        };
        // Pass 1: upper bounds. `b` = number of values start.. available before i.
        let mut b: i64 = 0;
        let vars = &self.vars;
        for (i, &x) in vars.iter().enumerate() {
            changed |= p.set_min(x, self.start, Why::Constraint)?;
            let bound = start + b;
            if bound < i64::from(p.max(x)) {
                // bound < max(x) <= Value::MAX, so it fits.
                let why = |r: &mut Premises| prefix_domains(r, vars, i);
                changed |= p.set_max(x, bound as Value, why)?;
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
        let mut forced: Vec<(usize, Value, usize, Value)> = Vec::new();
        for (i, &x) in self.vars.iter().enumerate() {
            let m = (i64::from(p.min(x)) - start).max(0) as usize;
            if m > covered {
                for c in covered..m.min(tracked) {
                    let v = (start + c as i64) as Value;
                    match (first[c], second[c]) {
                        (None, _) => {
                            // x_i > v needs v before i, where no one holds it.
                            let (lo, vars) = (p.min(x), &self.vars);
                            return Err(p.fail(|r: &mut Premises| {
                                r.push(Literal::Ge(x, lo));
                                lacks_before(r, vars, i, v, None);
                            }));
                        }
                        (Some(j), false) => forced.push((j, v, i, p.min(x))),
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
        for (j, v, i, lo) in forced {
            if !p.is_fixed(self.vars[j]) {
                changed = true;
            }
            // x_i ≥ lo > v needs v before i, and only x_j can hold it.
            let (vars, xi) = (&self.vars, self.vars[i]);
            p.fix(self.vars[j], v, |r: &mut Premises| {
                r.push(Literal::Ge(xi, lo));
                lacks_before(r, vars, i, v, Some(j));
            })?;
        }
        Ok(changed)
    }
}

impl Constraint for ValuePrecedeChain {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[Value]) -> bool {
        self.violations(values) == 0
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

    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        self.distinct.then(|| {
            Box::new(PrecedenceProp {
                c: self,
                k: 0,
                first: StateWords { first: 0, len: 0 },
                second: StateWords { first: 0, len: 0 },
                dirty: Vec::new(),
                top_max: StateWords { first: 0, len: 0 },
                in_dirty: vec![false; self.scope.len()],
            }) as Box<dyn Propagator + '_>
        })
    }

    /// One per position out of order, and one per value above `top`.
    fn violations(&self, values: &[Value]) -> u64 {
        let (seq, top) = values.split_at(self.vars.len());
        let mut max = i64::from(self.start) - 1;
        let mut bad = 0;
        for &v in seq {
            let v = i64::from(v);
            if v < i64::from(self.start) || v > max + 1 {
                bad += 1;
            }
            max = max.max(v);
        }
        if let Some(&t) = top.first() {
            bad += seq.iter().filter(|&&v| v > t).count() as u64;
        }
        bad
    }
}

/// The incremental propagator of [`ValuePrecedeChain`] (see its pruning
/// section). Positions are stored in reversible words as `position + 1`,
/// so 0 stands for "before position 0" (not computed yet) and `n + 1` for
/// "none".
#[derive(Debug)]
struct PrecedenceProp<'a> {
    c: &'a ValuePrecedeChain,
    /// The values tracked, `start..start + k`: the root span, at most `n`
    /// (position `i` can take at most `start + i`).
    k: usize,
    /// `p_c + 1` for each value `c < k`.
    first: StateWords,
    /// `s_c + 1` for each value `c < k`.
    second: StateWords,
    /// With a bound: the largest `max(top)` every position was bounded by
    /// (one word, the root's `max(top) + 1` before the first call).
    top_max: StateWords,
    /// The positions whose domain changed since the last call (each once).
    dirty: Vec<u32>,
    in_dirty: Vec<bool>,
}

impl PrecedenceProp<'_> {
    #[inline]
    fn get(p: &Pruner<'_>, w: StateWords, c: usize) -> i64 {
        p.state_word(w, c) as i64 - 1
    }

    #[inline]
    fn put(p: &mut Pruner<'_>, w: StateWords, c: usize, pos: i64) {
        p.set_state_word(w, c, (pos + 1) as u64);
    }

    /// Is the minimum at `pos` above value `c`? Then `c` must occur before
    /// `pos`; between `p_c` and `s_c`, `p_c` is its only place.
    fn above(&self, p: &Pruner<'_>, c: usize, pos: i64) -> bool {
        let v = i64::from(self.c.start) + c as i64;
        i64::from(p.min(self.c.vars[pos as usize])) > v
    }
}

impl Propagator for PrecedenceProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        let n = self.c.vars.len();
        let start = i64::from(self.c.start);
        let span = self
            .c
            .vars
            .iter()
            .map(|&x| i64::from(setup.max(x)) - start + 1)
            .max()
            .unwrap_or(0);
        self.k = span.clamp(0, n as i64) as usize;
        self.first = setup.new_words(self.k, 0);
        self.second = setup.new_words(self.k, 0);
        for (i, &x) in self.c.scope.iter().enumerate() {
            setup.subscribe(x, i, Events::DOMAIN);
        }
        if let Some(top) = self.c.top {
            let above = i64::from(setup.max(top)) + 1;
            self.top_max = setup.new_words(1, above as u64);
        }
    }

    fn notify(
        &mut self,
        _pruner: &mut Pruner<'_>,
        pos: usize,
        _event: Event,
    ) -> Result<bool, Conflict> {
        if !self.in_dirty[pos] {
            self.in_dirty[pos] = true;
            self.dirty.push(pos as u32);
        }
        Ok(true)
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let vars = &self.c.vars;
        let n = vars.len() as i64;
        let start = i64::from(self.c.start);
        let root = self.k == 0 || Self::get(p, self.first, 0) < 0;
        if root {
            // The first call: every value at least `start`.
            for &x in vars {
                p.set_min(x, self.c.start, Why::Constraint)?;
            }
        }
        if let Some(top) = self.c.top {
            // Every value at most max(top), again each time it went down
            // (rare: `top` is decided early), and top >= the minima, all
            // of them at the root, then those that changed.
            let hi = p.max(top);
            if i64::from(hi) < p.state_word(self.top_max, 0) as i64 {
                for &x in vars {
                    p.set_max(x, hi, Literal::Le(top, hi))?;
                }
                p.set_state_word(self.top_max, 0, hi as u64);
            }
            if root {
                for &x in vars {
                    p.set_min(top, p.min(x), Literal::Ge(x, p.min(x)))?;
                }
            } else {
                for &d in &self.dirty {
                    if let Some(&x) = vars.get(d as usize) {
                        p.set_min(top, p.min(x), Literal::Ge(x, p.min(x)))?;
                    }
                }
            }
        }
        // Pass 1: advance each p_c past the positions that lost `c`, and
        // bound the positions it passes by `c`.
        let mut prev: i64 = -1;
        let mut top = self.k; // values with p_c < n
        for c in 0..self.k {
            let v = (start + c as i64) as Value;
            let old = Self::get(p, self.first, c);
            let mut j = old.max(prev + 1);
            while j < n && !p.contains(vars[j as usize], v) {
                j += 1;
            }
            if j != old {
                for i in old.max(prev) + 1..=j.min(n - 1) {
                    // No earlier position can hold v, so none can exceed it.
                    let i = i as usize;
                    p.set_max(vars[i], v, |r: &mut Premises| {
                        lacks_before(r, vars, i, v, None)
                    })?;
                }
                Self::put(p, self.first, c, j);
            }
            if j == n {
                top = c;
                break;
            }
            prev = j;
        }
        // Pass 2: advance each s_c, and check the positions newly between
        // p_c and s_c.
        for c in 0..top {
            let v = (start + c as i64) as Value;
            let pc = Self::get(p, self.first, c);
            let old = Self::get(p, self.second, c);
            let from = old.max(pc + 1);
            let mut j = from;
            while j < n && !p.contains(vars[j as usize], v) {
                j += 1;
            }
            if j != old {
                Self::put(p, self.second, c, j);
            }
            if let Some(i) = (from..j).find(|&i| self.above(p, c, i)) {
                // x_i > v needs v before i, where only x_pc can hold it.
                let (i, pc) = (i as usize, pc as usize);
                let lo = p.min(vars[i]);
                p.fix(vars[pc], v, |r: &mut Premises| {
                    r.push(Literal::Ge(vars[i], lo));
                    lacks_before(r, vars, i, v, Some(pc));
                })?;
            }
        }
        // Positions whose minimum may have risen since the last call.
        for d in std::mem::take(&mut self.dirty) {
            self.in_dirty[d as usize] = false;
            if d as usize >= vars.len() {
                continue; // top
            }
            let pos = i64::from(d);
            let m = i64::from(p.min(vars[d as usize])) - start;
            for c in 0..(m.max(0) as usize).min(top) {
                let pc = Self::get(p, self.first, c);
                if pc < pos && pos < Self::get(p, self.second, c) {
                    let v = (start + c as i64) as Value;
                    let (i, pc) = (d as usize, pc as usize);
                    let lo = p.min(vars[i]);
                    p.fix(vars[pc], v, |r: &mut Premises| {
                        r.push(Literal::Ge(vars[i], lo));
                        lacks_before(r, vars, i, v, Some(pc));
                    })?;
                }
            }
        }
        Ok(())
    }

    fn name(&self) -> &str {
        "value-precedence"
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
/// assert_eq!(Search::new(&m).count().unwrap().count, 14);
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

    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        // `s = t` (no position may hold t, here) and an empty list have no
        // form in MiniZinc's library; they are written as tables.
        if self.s == self.t || vars.is_empty() {
            return None;
        }
        Some(format!(
            "value_precede({}, {}, {})",
            self.s,
            self.t,
            crate::minizinc::list(vars)
        ))
    }

    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.propagate(pruner)
    }

    fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (s, t) = (self.s, self.t);
        if s == t {
            for &x in &self.vars {
                p.remove(x, t, Why::Constraint)?;
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
        let vars = &self.vars;
        if gamma < alpha {
            // x_gamma = t with no s before it.
            return Err(p.fail(|r: &mut Premises| {
                r.push(Literal::Eq(vars[gamma], t));
                lacks_before(r, vars, gamma, s, None);
            }));
        }
        for (i, &x) in vars[..(alpha + 1).min(n)].iter().enumerate() {
            // No s before i: no t at i.
            p.remove(x, t, |r: &mut Premises| lacks_before(r, vars, i, s, None))?;
        }
        if gamma < n && !vars[alpha + 1..gamma].iter().any(|&x| p.contains(x, s)) {
            // x_gamma = t needs an s before it, and only x_alpha can be one.
            p.fix(vars[alpha], s, |r: &mut Premises| {
                r.push(Literal::Eq(vars[gamma], t));
                lacks_before(r, vars, gamma, s, Some(alpha));
            })?;
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
    use crate::local::rng::Rng;
    use crate::{testing, Domain, Model, Search};

    fn post(m: &mut Model, v: &[VarId], start: Value) -> Result<(), crate::ModelError> {
        m.post(ValuePrecedeChain::new(v.to_vec(), start))
            .map(|_| ())
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
            m.post(ValuePrecedeChain::new(vec![v[0], v[1], v[0], v[2]], 0))
                .map(|_| ())
        })
        .unwrap();
        // The bound among the sequence, and a bound repeated.
        let doms = vec![Domain::range(0, 3); 4];
        for seq in [[0, 1, 3, 2], [0, 1, 1, 2]] {
            testing::check_constraint(&doms, |m, v| {
                let xs = seq.iter().map(|&i| v[i]).collect();
                m.post(ValuePrecedeChain::bounded(xs, 0, v[3])).map(|_| ())
            })
            .unwrap();
        }
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
                        .solve()
                        .unwrap();
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

    /// The two passes in full on every call, without the incremental
    /// propagator: the reference for the pruning of the incremental one.
    #[derive(Debug)]
    struct Scan(ValuePrecedeChain);

    impl Constraint for Scan {
        fn scope(&self) -> &[VarId] {
            self.0.scope()
        }
        fn is_satisfied(&self, values: &[Value]) -> bool {
            self.0.is_satisfied(values)
        }
        fn forward_check(&self, p: &mut Pruner<'_>, changed: usize) -> Result<(), Conflict> {
            self.0.forward_check(p, changed)
        }
        fn propagate(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
            self.0.propagate(p)
        }
    }

    /// A random instance: domains within `start..start + span` (with
    /// holes, never empty), and not-equal constraints between random
    /// pairs (`edges` per thousand).
    fn random_instance(
        rng: &mut Rng,
        n: usize,
        span: Value,
        start: Value,
        edges: u64,
    ) -> (Vec<Domain>, Vec<(usize, usize)>) {
        let doms = (0..n)
            .map(|_| {
                let mut vals: Vec<Value> = (0..span)
                    .filter(|_| rng.below(4) != 0)
                    .map(|v| start + v)
                    .collect();
                if vals.is_empty() {
                    vals.push(start + rng.below(span as u64) as Value);
                }
                Domain::values(vals)
            })
            .collect();
        let mut ne = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(1000) < edges {
                    ne.push((i, j));
                }
            }
        }
        (doms, ne)
    }

    /// No bound (half the time), or a bound's domain: a range from just
    /// below `start` to around `start + span`.
    fn random_top(rng: &mut Rng, span: Value, start: Value) -> Option<Domain> {
        (rng.below(2) == 0).then(|| {
            let lo = start - 1 + rng.below(2) as Value;
            Domain::range(lo, lo + rng.below(span as u64 + 1) as Value)
        })
    }

    /// The instance as a model; with `top`, the bounded constraint with a
    /// bound of that domain.
    fn build(
        doms: &[Domain],
        ne: &[(usize, usize)],
        start: Value,
        top: Option<&Domain>,
        scan: bool,
    ) -> Model {
        let mut m = Model::new();
        let v: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
        for &(i, j) in ne {
            m.not_equal(v[i], v[j], 0).unwrap();
        }
        let c = match top {
            Some(d) => {
                let t = m.new_var(d.clone()).unwrap();
                ValuePrecedeChain::bounded(v, start, t)
            }
            None => ValuePrecedeChain::new(v, start),
        };
        if scan {
            m.post(Scan(c)).unwrap();
        } else {
            m.post(c).unwrap();
        }
        m
    }

    /// The incremental propagator against brute force under every
    /// configuration of the harness (forward checking and arc consistency
    /// among them), on random domains with holes, offsets and neighbours.
    #[test]
    fn incremental_agrees_with_brute_force_on_random_instances() {
        let mut rng = Rng::new(12);
        for case in 0..40 {
            let n = 1 + rng.below(6) as usize;
            let span = 1 + rng.below(4) as Value;
            let start = rng.below(3) as Value - 1;
            let (doms, ne) = random_instance(&mut rng, n, span, start, 300);
            let top = random_top(&mut rng, span, start);
            let m = build(&doms, &ne, start, top.as_ref(), false);
            if let Err(e) = testing::check_model(&m) {
                panic!("case {case}: {doms:?} {ne:?} start {start} top {top:?}: {e:?}");
            }
        }
    }

    /// The incremental propagator prunes exactly what the full passes do
    /// under arc consistency (the same tree, node for node, for a static
    /// order) and at least as much under forward checking (where it also
    /// runs after removals, not only fixings), with the same solutions.
    #[test]
    fn incremental_prunes_as_the_full_passes() {
        let mut rng = Rng::new(34);
        for case in 0..200 {
            let n = 2 + rng.below(11) as usize;
            let span = 2 + rng.below(4) as Value;
            let start = rng.below(3) as Value;
            let (doms, ne) = random_instance(&mut rng, n, span, start, 250);
            let top = random_top(&mut rng, span, start);
            let inc = build(&doms, &ne, start, top.as_ref(), false);
            let scan = build(&doms, &ne, start, top.as_ref(), true);
            for inference in [crate::Inference::ForwardChecking, crate::Inference::Mac] {
                for var_order in [crate::VarOrder::Input, crate::VarOrder::DomWdeg] {
                    // Each solution reached (no counting shortcut): the
                    // search takes it only with the library's constraints,
                    // and `Scan` is not one.
                    let run = |m: &Model| {
                        Search::new(m)
                            .inference(inference)
                            .var_order(var_order)
                            .count_up_to(u64::MAX)
                            .unwrap()
                    };
                    let (a, b) = (run(&inc), run(&scan));
                    let what = format!("case {case} {inference:?} {var_order:?}");
                    assert_eq!(a.count, b.count, "{what}");
                    if var_order != crate::VarOrder::Input {
                        continue; // failures weigh different propagators
                    }
                    if inference == crate::Inference::Mac {
                        assert_eq!(a.stats.nodes, b.stats.nodes, "{what}");
                    } else {
                        assert!(a.stats.nodes <= b.stats.nodes, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn counts_set_partitions() {
        // With n variables over n values, the solutions are the set partitions of
        // n elements: the Bell numbers.
        for (n, bell) in [(1, 1), (2, 2), (3, 5), (4, 15), (5, 52), (6, 203), (7, 877)] {
            let mut m = Model::new();
            let xs = m.new_vars(n, Domain::range(0, n as Value - 1)).unwrap();
            post(&mut m, &xs, 0).unwrap();
            assert_eq!(Search::new(&m).count().unwrap().count, bell, "n = {n}");
        }
    }
}
