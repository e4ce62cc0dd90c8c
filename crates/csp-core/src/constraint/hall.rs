//! Reasons for the all-different propagators, computed only in explaining
//! mode from the domains just before the write (so the fast paths pay
//! nothing):
//! * a **Hall set** for a value removed by domain consistency: variables
//!   `S` whose domains lie inside values `H` with `|S| = |H|`, `v ∈ H` and
//!   the pruned variable not in `S` — `S` uses up `H`, so no other variable
//!   can take `v`. Found, as in the proof of Hall's theorem, as the part of
//!   the graph an augmenting path search visits when it fails once `v` is
//!   taken from the pruned variable;
//! * a **Hall interval** for a bound moved by bounds consistency:
//!   variables inside `[a, b]`, as many as the interval has values, and the
//!   pruned variable's bound inside it;
//! * for a failure, a set of variables with fewer values between them than
//!   variables (a Hall set or interval that is too small).
//!
//! The reason states each variable of `S` through its bounds and the values
//! it lacks between them, which is what "its domain lies inside `H`" means
//! as literals (Katsirelos, "Nogood processing in CSPs", PhD thesis,
//! Toronto 2009, §6 explains all-different the same way).

use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{DomainReads, History, Premises};
use std::collections::HashMap;

/// What a Hall-set reason reads and writes: the domains (now, through
/// [`Premises`], or as of a point of the trail, through [`AtHistory`]) and
/// the literals stating them.
pub(crate) trait HallReads: DomainReads {
    /// Pushes `y`'s domain as literals, leaving out the missing values
    /// for which `spare` is true (see [`Premises::domain_within`]).
    fn domain_within(&mut self, y: VarId, spare: &dyn Fn(Value) -> bool);

    /// The first values of `y`'s domain, ascending, but `gone`, until
    /// there are more than `n` of them.
    fn first_values(&self, y: VarId, n: usize, gone: Option<Value>) -> Vec<Value> {
        let mut out = Vec::new();
        let mut v = self.min(y);
        loop {
            if Some(v) != gone {
                out.push(v);
            }
            if out.len() > n {
                break;
            }
            match self.next_above(y, v) {
                Some(next) => v = next,
                None => break,
            }
        }
        out
    }
}

impl HallReads for Premises<'_> {
    fn domain_within(&mut self, y: VarId, spare: &dyn Fn(Value) -> bool) {
        Premises::domain_within(self, y, spare)
    }
}

/// The domains as of a point of the trail, for a lazy reason: the literals
/// go to `out`.
pub(crate) struct AtHistory<'h, 'o> {
    pub(crate) h: &'h History<'h>,
    pub(crate) out: &'o mut Vec<Literal>,
}

impl DomainReads for AtHistory<'_, '_> {
    fn min(&self, y: VarId) -> Value {
        self.h.min(y)
    }
    fn max(&self, y: VarId) -> Value {
        self.h.max(y)
    }
    fn contains(&self, y: VarId, v: Value) -> bool {
        DomainReads::contains(self.h, y, v)
    }
    fn next_above(&self, y: VarId, after: Value) -> Option<Value> {
        self.h.next_above(y, after)
    }
}

impl HallReads for AtHistory<'_, '_> {
    fn first_values(&self, y: VarId, n: usize, gone: Option<Value>) -> Vec<Value> {
        // One read of the variable's entries, not one per value.
        let mut out = self.h.values(y, n + 2);
        out.retain(|&v| Some(v) != gone);
        out.truncate(n + 1);
        out
    }

    fn domain_within(&mut self, y: VarId, spare: &dyn Fn(Value) -> bool) {
        let Some((lo, hi)) = self.h.bounds(y) else {
            return;
        };
        if lo == hi {
            self.out.push(Literal::Eq(y, lo));
            return;
        }
        self.out.push(Literal::Ge(y, lo));
        self.out.push(Literal::Le(y, hi));
        let past = self.h.past(y);
        let mut v = self.h.root.next_above(y.index(), lo);
        while let Some(u) = v.filter(|&u| u < hi) {
            if !past.admits(self.h.root, y.index(), u) && !spare(u) {
                self.out.push(Literal::Ne(y, u));
            }
            v = self.h.root.next_above(y.index(), u);
        }
    }
}

/// Pushes the reason why variable `vars[pos]` cannot take `v` (when
/// `removed` is `Some((pos, v))`), or why the variables cannot all take
/// different values (when it is `None`): a Hall set as the module explains.
/// Variables whose domain holds the exempt value `except` are never
/// constrained and never part of the set. When no Hall set is found (the
/// write had another cause), every other variable's domain is the reason,
/// which is correct for any all-different pruning.
pub(crate) fn hall_set<R: HallReads>(
    r: &mut R,
    vars: &[VarId],
    except: Option<Value>,
    removed: Option<(usize, Value)>,
) {
    let skip = removed.map(|(pos, _)| pos);
    let gone = removed.map(|(_, v)| v);
    let n = vars.len();
    // Enough values of each domain to find a free one: at most `n` are
    // matched, so the first `n + 1` usable values hold a free one.
    let usable = |r: &R, i: usize| -> Option<Vec<Value>> {
        let x = vars[i];
        if except.is_some_and(|e| r.contains(x, e)) {
            return None;
        }
        Some(r.first_values(x, n, gone))
    };
    let mut dom: Vec<Option<Vec<Value>>> = Vec::with_capacity(n);
    for (i, &y) in vars.iter().enumerate() {
        let d = if Some(i) == skip { None } else { usable(r, i) };
        // The smallest Hall set first: a peer fixed to the value removed
        // (`first_values` left it out, so its list is empty).
        if gone.is_some() && d.as_ref().is_some_and(|d| d.is_empty()) {
            r.domain_within(y, &|_| false);
            return;
        }
        dom.push(d);
    }
    let mut owner: HashMap<Value, usize> = HashMap::new();
    let mut matched: Vec<Option<Value>> = vec![None; n];
    for u in 0..n {
        if dom[u].is_none() {
            continue;
        }
        if let Err((set, values)) = augment(u, &dom, &mut owner, &mut matched) {
            let mut hall = values;
            if let Some(v) = gone {
                hall.push(v);
            }
            hall.sort_unstable();
            hall.dedup();
            for &i in &set {
                r.domain_within(vars[i], &|u| hall.binary_search(&u).is_ok());
            }
            return;
        }
    }
    for (i, &y) in vars.iter().enumerate() {
        if Some(i) != skip {
            r.domain_within(y, &|_| false);
        }
    }
}

/// Tries to match variable `u` by a breadth-first augmenting path. On
/// failure returns the variables and values the search visited: every
/// visited value is matched to a visited variable, so there is one value
/// fewer than variables.
#[allow(clippy::type_complexity)]
fn augment(
    u: usize,
    dom: &[Option<Vec<Value>>],
    owner: &mut HashMap<Value, usize>,
    matched: &mut [Option<Value>],
) -> Result<(), (Vec<usize>, Vec<Value>)> {
    let mut queue = vec![u];
    let mut parent: HashMap<Value, usize> = HashMap::new();
    let mut head = 0;
    while head < queue.len() {
        let w = queue[head];
        head += 1;
        for &v in dom[w].as_deref().unwrap_or(&[]) {
            if parent.contains_key(&v) {
                continue;
            }
            parent.insert(v, w);
            match owner.get(&v) {
                Some(&o) => queue.push(o),
                None => {
                    // Flip the path back to `u`.
                    let mut v = v;
                    loop {
                        let w = parent[&v];
                        let old = matched[w];
                        matched[w] = Some(v);
                        owner.insert(v, w);
                        match old {
                            Some(o) if w != u => v = o,
                            _ => return Ok(()),
                        }
                    }
                }
            }
        }
    }
    Err((queue, parent.into_keys().collect()))
}

/// Pushes the reason why `vars[pos]` has a bound past a Hall interval:
/// with `lower`, why it is at least `bound` (variables inside
/// `[a, bound − 1]`, as many as its values, and the variable at least `a`);
/// otherwise why it is at most `bound`. Falls back on every other
/// variable's bounds when no interval is found.
pub(crate) fn hall_interval(
    r: &mut Premises<'_>,
    vars: &[VarId],
    pos: usize,
    bound: Value,
    lower: bool,
) {
    let x = vars[pos];
    // Bounds in the mirrored order when `lower` is false, so one scan
    // serves both directions.
    let flip = |v: Value| if lower { v as i64 } else { -(v as i64) };
    let lo_of = |r: &Premises<'_>, y: VarId| {
        if lower {
            flip(r.min(y))
        } else {
            flip(r.max(y))
        }
    };
    let hi_of = |r: &Premises<'_>, y: VarId| {
        if lower {
            flip(r.max(y))
        } else {
            flip(r.min(y))
        }
    };
    let end = flip(bound) - 1;
    let xlo = lo_of(r, x);
    let mut starts: Vec<i64> = vars
        .iter()
        .map(|&y| lo_of(r, y))
        .filter(|&a| a <= xlo)
        .collect();
    starts.sort_unstable_by(|a, b| b.cmp(a));
    starts.dedup();
    for a in starts {
        let within: Vec<VarId> = vars
            .iter()
            .enumerate()
            .filter(|&(j, &y)| j != pos && lo_of(r, y) >= a && hi_of(r, y) <= end)
            .map(|(_, &y)| y)
            .take((end - a + 1).max(0) as usize)
            .collect();
        if within.len() as i64 > end - a {
            let unflip = |v: i64| if lower { v as Value } else { (-v) as Value };
            let (ge, le) = if lower {
                (unflip(a), unflip(end))
            } else {
                (unflip(end), unflip(a))
            };
            r.push(if lower {
                Literal::Ge(x, ge)
            } else {
                Literal::Le(x, le)
            });
            for y in within {
                r.push(Literal::Ge(y, ge));
                r.push(Literal::Le(y, le));
            }
            return;
        }
    }
    for (j, &y) in vars.iter().enumerate() {
        if j != pos {
            r.at_least(y);
            r.at_most(y);
        }
    }
}

/// Pushes the reason why the variables' bounds leave no room: an interval
/// `[a, b]` holding more variables than values. Falls back on every
/// variable's bounds when none is found.
pub(crate) fn overfull_interval(r: &mut Premises<'_>, vars: &[VarId]) {
    let mut mins: Vec<Value> = vars.iter().map(|&y| r.min(y)).collect();
    mins.sort_unstable();
    mins.dedup();
    for a in mins {
        let mut inside: Vec<(Value, VarId)> = vars
            .iter()
            .filter(|&&y| r.min(y) >= a)
            .map(|&y| (r.max(y), y))
            .collect();
        inside.sort_unstable();
        for (k, &(b, _)) in inside.iter().enumerate() {
            if (k + 1) as i64 > b as i64 - a as i64 + 1 {
                for &(_, y) in &inside[..=k] {
                    r.push(Literal::Ge(y, a));
                    r.push(Literal::Le(y, b));
                }
                return;
            }
        }
    }
    for &y in vars {
        r.at_least(y);
        r.at_most(y);
    }
}
