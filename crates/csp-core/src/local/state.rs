//! The generic local-search state: a complete assignment, one incremental
//! evaluator per constraint, and the set of conflicted variables.
//!
//! # Evaluators
//! Each posted constraint gets the cheapest evaluator its kind allows:
//! * **all-different over offsets** (no variable repeated): a table per id
//!   (`value + offset`) holding the number of positions with that id and the
//!   XOR of their positions. Violations are `Σ_id (count − 1)⁺`; a move's delta
//!   is two table reads, O(1). The XOR names the one holder of an id whose
//!   count is 1, so when a move takes an id from 1 to 2 holders (or back) the
//!   other holder's conflict status is updated in O(1) too, and the conflicted
//!   set is maintained instead of rescanned. Ids live in a flat array when
//!   their span is at most `4k + 65536` for arity k, in a hash map otherwise.
//! * **not-equal** `x ≠ y + c` (two distinct variables): 0 or 1, O(1).
//! * **everything else**, user constraints included: the cached value of
//!   [`Constraint::violations`] on the scope, with [`Constraint::delta`] for a
//!   move (defaults from the checker; O(k) to gather the scope).
//!
//! # Conflicts
//! A variable is conflicted when it takes part in a violation: it shares an
//! id with another position of an all-different, sits on a violated
//! not-equal, or is in the scope of any other violated constraint.
//! `conf[v]` counts these memberships; the conflicted variables are kept in an
//! indexable set (list plus positions), so a uniform random pick is O(1).
//!
//! # Invariants
//! * `total` is the sum of the evaluators' violations, each equal to what
//!   its constraint reports for the current assignment;
//! * `v ∈ conflicted ⇔ conf[v] > 0`.

use crate::constraint::{Constraint, NotEqual};
use crate::domain::Domain;
use crate::ids::{Value, VarId};
use crate::model::{Model, Posted};

use super::rng::IdMap;

/// The values of a declared domain, indexable without a per-variable bitset:
/// a range is two numbers, a set with holes one sorted list per distinct domain.
#[derive(Clone, Debug)]
pub(crate) enum DomainTable {
    Range { lo: Value, size: u64 },
    Set(Vec<Value>),
}

impl DomainTable {
    pub(crate) fn new(d: &Domain) -> DomainTable {
        if d.is_range() {
            DomainTable::Range {
                lo: d.min().unwrap_or(0),
                size: d.size(),
            }
        } else {
            DomainTable::Set(d.iter().collect())
        }
    }

    #[inline]
    pub(crate) fn size(&self) -> u64 {
        match self {
            DomainTable::Range { size, .. } => *size,
            DomainTable::Set(s) => s.len() as u64,
        }
    }

    /// The `i`-th smallest value (`i < size`).
    #[inline]
    pub(crate) fn nth(&self, i: u64) -> Value {
        match self {
            DomainTable::Range { lo, .. } => (*lo as i64 + i as i64) as Value,
            DomainTable::Set(s) => s[i as usize],
        }
    }

    /// The rank of `v` in the domain.
    #[inline]
    pub(crate) fn index_of(&self, v: Value) -> Option<u64> {
        match self {
            DomainTable::Range { lo, size } => {
                let i = v as i64 - *lo as i64;
                (i >= 0 && (i as u64) < *size).then_some(i as u64)
            }
            DomainTable::Set(s) => s.binary_search(&v).ok().map(|i| i as u64),
        }
    }
}

/// Number of holders and XOR of holder positions, per id.
#[derive(Debug)]
enum IdTable {
    Dense { lo: i64, cells: Vec<[u32; 2]> },
    Sparse(IdMap<i64, [u32; 2]>),
}

impl IdTable {
    #[inline]
    fn count(&self, id: i64) -> u32 {
        match self {
            IdTable::Dense { lo, cells } => cells[(id - lo) as usize][0],
            IdTable::Sparse(m) => m.get(&id).map_or(0, |c| c[0]),
        }
    }

    /// Removes position `pos` from `id`: (count before, XOR after).
    #[inline]
    fn leave(&mut self, id: i64, pos: u32) -> (u32, u32) {
        match self {
            IdTable::Dense { lo, cells } => {
                let c = &mut cells[(id - *lo) as usize];
                c[0] -= 1;
                c[1] ^= pos;
                (c[0] + 1, c[1])
            }
            IdTable::Sparse(m) => {
                let c = m.get_mut(&id).expect("a held id is in the table");
                c[0] -= 1;
                c[1] ^= pos;
                let out = (c[0] + 1, c[1]);
                if c[0] == 0 {
                    m.remove(&id);
                }
                out
            }
        }
    }

    /// Adds position `pos` to `id`: (count before, XOR before).
    #[inline]
    fn arrive(&mut self, id: i64, pos: u32) -> (u32, u32) {
        let c = match self {
            IdTable::Dense { lo, cells } => &mut cells[(id - *lo) as usize],
            IdTable::Sparse(m) => m.entry(id).or_insert([0, 0]),
        };
        let before = *c;
        c[0] += 1;
        c[1] ^= pos;
        (before[0], before[1])
    }

    fn clear(&mut self) {
        match self {
            IdTable::Dense { cells, .. } => cells.fill([0, 0]),
            IdTable::Sparse(m) => m.clear(),
        }
    }
}

#[derive(Debug)]
enum Eval<'m> {
    AllDiff {
        vars: &'m [VarId],
        offsets: &'m [Value],
        ids: IdTable,
        viol: u64,
    },
    NotEqual {
        c: &'m NotEqual,
        x: u32,
        y: u32,
        viol: u64,
    },
    Checker {
        c: &'m dyn Constraint,
        /// The largest variable index of the scope (greedy construction
        /// evaluates the constraint when it assigns this one).
        last: u32,
        /// The distinct scope variables, when some variable is repeated.
        distinct: Option<Vec<u32>>,
        viol: u64,
    },
}

/// One place where a variable occurs: evaluator and scope position.
#[derive(Clone, Copy, Debug)]
struct Occ {
    eval: u32,
    pos: u32,
}

/// A set of variable indices with O(1) insert, remove and indexed access.
#[derive(Clone, Debug)]
pub(crate) struct VarSet {
    list: Vec<u32>,
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl VarSet {
    pub(crate) fn new(n: usize) -> VarSet {
        VarSet {
            list: Vec::new(),
            pos: vec![ABSENT; n],
        }
    }
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    #[inline]
    pub(crate) fn get(&self, i: usize) -> usize {
        self.list[i] as usize
    }
    #[inline]
    fn insert(&mut self, v: usize) {
        if self.pos[v] == ABSENT {
            self.pos[v] = self.list.len() as u32;
            self.list.push(v as u32);
        }
    }
    #[inline]
    fn remove(&mut self, v: usize) {
        let p = self.pos[v];
        if p != ABSENT {
            let last = self.list.pop().expect("a member is listed");
            if last as usize != v {
                self.list[p as usize] = last;
                self.pos[last as usize] = p;
            }
            self.pos[v] = ABSENT;
        }
    }
    fn clear(&mut self) {
        for &v in &self.list {
            self.pos[v as usize] = ABSENT;
        }
        self.list.clear();
    }
}

/// A complete assignment with incremental violation counts (see the module docs).
#[derive(Debug)]
pub(crate) struct Evaluator<'m> {
    /// The current value of each variable, by index.
    pub(crate) values: Vec<Value>,
    /// The variables taking part in a violation.
    pub(crate) conflicted: VarSet,
    evals: Vec<Eval<'m>>,
    occ_start: Vec<usize>,
    occ: Vec<Occ>,
    conf: Vec<u32>,
    total: u64,
    scratch: Vec<Value>,
}

#[inline]
fn bump(conf: &mut [u32], set: &mut VarSet, v: usize, up: bool) {
    if up {
        conf[v] += 1;
        if conf[v] == 1 {
            set.insert(v);
        }
    } else {
        conf[v] -= 1;
        if conf[v] == 0 {
            set.remove(v);
        }
    }
}

/// Copies the scope values of `c` into `buf`.
#[inline]
fn gather(buf: &mut Vec<Value>, c: &dyn Constraint, values: &[Value]) {
    buf.clear();
    buf.extend(c.scope().iter().map(|x| values[x.index()]));
}

impl<'m> Evaluator<'m> {
    /// Evaluators for every constraint of `model`, over an assignment that is
    /// all domain minimums until [`Evaluator::load`] or a construction sets it.
    pub(crate) fn new(model: &'m Model) -> Evaluator<'m> {
        let n = model.num_vars();
        let mut stamp = vec![u32::MAX; n];
        let mut evals = Vec::with_capacity(model.num_constraints());
        for (ci, p) in model.posted().iter().enumerate() {
            let scope = p.scope();
            let mut repeats = false;
            for x in scope {
                repeats |= stamp[x.index()] == ci as u32;
                stamp[x.index()] = ci as u32;
            }
            let eval = match p {
                Posted::AllDifferent(c) if !repeats => {
                    let offsets = c.offsets();
                    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                    for (x, &o) in scope.iter().zip(offsets) {
                        let d = model.domain(*x);
                        lo = lo.min(d.min().unwrap_or(0) as i64 + o as i64);
                        hi = hi.max(d.max().unwrap_or(0) as i64 + o as i64);
                    }
                    let k = scope.len() as i64;
                    let ids = if scope.is_empty() {
                        IdTable::Sparse(IdMap::default())
                    } else if hi - lo < 4 * k + 65536 {
                        IdTable::Dense {
                            lo,
                            cells: vec![[0, 0]; (hi - lo + 1) as usize],
                        }
                    } else {
                        IdTable::Sparse(IdMap::default())
                    };
                    Eval::AllDiff {
                        vars: scope,
                        offsets,
                        ids,
                        viol: 0,
                    }
                }
                Posted::NotEqual(c) if !repeats => Eval::NotEqual {
                    c,
                    x: scope[0].index() as u32,
                    y: scope[1].index() as u32,
                    viol: 0,
                },
                _ => {
                    let distinct = repeats.then(|| {
                        let mut d: Vec<u32> = scope.iter().map(|x| x.index() as u32).collect();
                        d.sort_unstable();
                        d.dedup();
                        d
                    });
                    Eval::Checker {
                        c: p.as_dyn(),
                        last: scope.iter().map(|x| x.index() as u32).max().unwrap_or(0),
                        distinct,
                        viol: 0,
                    }
                }
            };
            evals.push(eval);
        }
        // Occurrence lists in compressed rows; a checker-evaluated constraint
        // lists each of its variables once.
        let mut count = vec![0usize; n + 1];
        let mut each_occ = |f: &mut dyn FnMut(usize, Occ)| {
            stamp.fill(u32::MAX);
            for (ci, p) in model.posted().iter().enumerate() {
                let once = matches!(evals[ci], Eval::Checker { .. });
                for (pos, x) in p.scope().iter().enumerate() {
                    if once {
                        if stamp[x.index()] == ci as u32 {
                            continue;
                        }
                        stamp[x.index()] = ci as u32;
                    }
                    f(
                        x.index(),
                        Occ {
                            eval: ci as u32,
                            pos: pos as u32,
                        },
                    );
                }
            }
        };
        each_occ(&mut |v, _| count[v + 1] += 1);
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let occ_start = count.clone();
        let mut occ = vec![Occ { eval: 0, pos: 0 }; occ_start[n]];
        each_occ(&mut |v, o| {
            occ[count[v]] = o;
            count[v] += 1;
        });
        let values = model
            .vars()
            .map(|x| model.domain(x).min().unwrap_or(0))
            .collect();
        Evaluator {
            values,
            conflicted: VarSet::new(n),
            evals,
            occ_start,
            occ,
            conf: vec![0; n],
            total: 0,
            scratch: Vec::new(),
        }
    }

    /// Sum of the evaluators' violations.
    #[inline]
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Number of constraints with at least one violation.
    pub(crate) fn violated_constraints(&self) -> usize {
        self.evals
            .iter()
            .filter(|e| match e {
                Eval::AllDiff { viol, .. }
                | Eval::NotEqual { viol, .. }
                | Eval::Checker { viol, .. } => *viol > 0,
            })
            .count()
    }

    /// Sets every value and recomputes all evaluators and conflicts.
    pub(crate) fn load(&mut self, values: &[Value]) {
        self.values.copy_from_slice(values);
        self.rebuild();
    }

    /// Recomputes all evaluators and conflicts from `values`. O(total scope
    /// size + id spans).
    pub(crate) fn rebuild(&mut self) {
        let Evaluator {
            values,
            conflicted,
            evals,
            conf,
            total,
            scratch,
            ..
        } = self;
        conflicted.clear();
        conf.fill(0);
        *total = 0;
        for e in evals.iter_mut() {
            match e {
                Eval::AllDiff {
                    vars,
                    offsets,
                    ids,
                    viol,
                } => {
                    ids.clear();
                    *viol = 0;
                    for (p, (x, &o)) in vars.iter().zip(offsets.iter()).enumerate() {
                        let id = values[x.index()] as i64 + o as i64;
                        let (c, holder) = ids.arrive(id, p as u32);
                        if c >= 1 {
                            *viol += 1;
                            bump(conf, conflicted, x.index(), true);
                            if c == 1 {
                                bump(conf, conflicted, vars[holder as usize].index(), true);
                            }
                        }
                    }
                    *total += *viol;
                }
                Eval::NotEqual { c, x, y, viol } => {
                    let (x, y) = (*x as usize, *y as usize);
                    *viol = u64::from(!c.is_satisfied(&[values[x], values[y]]));
                    if *viol > 0 {
                        bump(conf, conflicted, x, true);
                        bump(conf, conflicted, y, true);
                    }
                    *total += *viol;
                }
                Eval::Checker {
                    c, distinct, viol, ..
                } => {
                    gather(scratch, *c, values);
                    *viol = c.violations(scratch);
                    if *viol > 0 {
                        match distinct {
                            Some(d) => d
                                .iter()
                                .for_each(|&v| bump(conf, conflicted, v as usize, true)),
                            None => c
                                .scope()
                                .iter()
                                .for_each(|x| bump(conf, conflicted, x.index(), true)),
                        }
                    }
                    *total += *viol;
                }
            }
        }
    }

    /// The change in total violations if `v` took `new`.
    #[inline]
    pub(crate) fn delta(&mut self, v: usize, new: Value) -> i64 {
        let old = self.values[v];
        if old == new {
            return 0;
        }
        let mut d = 0i64;
        for o in &self.occ[self.occ_start[v]..self.occ_start[v + 1]] {
            match &self.evals[o.eval as usize] {
                Eval::AllDiff { offsets, ids, .. } => {
                    let off = offsets[o.pos as usize] as i64;
                    d += i64::from(ids.count(new as i64 + off) >= 1)
                        - i64::from(ids.count(old as i64 + off) >= 2);
                }
                Eval::NotEqual { c, x, y, viol } => {
                    let (a, b) = if *x as usize == v {
                        (new, self.values[*y as usize])
                    } else {
                        (self.values[*x as usize], new)
                    };
                    d += i64::from(!c.is_satisfied(&[a, b])) - *viol as i64;
                }
                Eval::Checker {
                    c, distinct, viol, ..
                } => {
                    gather(&mut self.scratch, *c, &self.values);
                    if distinct.is_none() {
                        d += c.delta(&self.scratch, o.pos as usize, new);
                    } else {
                        for (s, x) in self.scratch.iter_mut().zip(c.scope()) {
                            if x.index() == v {
                                *s = new;
                            }
                        }
                        d += c.violations(&self.scratch) as i64 - *viol as i64;
                    }
                }
            }
        }
        d
    }

    /// Sets `v` to `new`, updating the evaluators, and the conflicts when
    /// `TRACK` (a move that is evaluated and undone at once may skip them).
    #[inline]
    pub(crate) fn set<const TRACK: bool>(&mut self, v: usize, new: Value) {
        let old = self.values[v];
        if old == new {
            return;
        }
        self.values[v] = new;
        let Evaluator {
            values,
            conflicted,
            evals,
            occ_start,
            occ,
            conf,
            total,
            scratch,
        } = self;
        for o in &occ[occ_start[v]..occ_start[v + 1]] {
            match &mut evals[o.eval as usize] {
                Eval::AllDiff {
                    vars,
                    offsets,
                    ids,
                    viol,
                } => {
                    let off = offsets[o.pos as usize] as i64;
                    let (c, holder) = ids.leave(old as i64 + off, o.pos);
                    if c >= 2 {
                        *viol -= 1;
                        *total -= 1;
                        if TRACK {
                            bump(conf, conflicted, v, false);
                            if c == 2 {
                                bump(conf, conflicted, vars[holder as usize].index(), false);
                            }
                        }
                    }
                    let (c, holder) = ids.arrive(new as i64 + off, o.pos);
                    if c >= 1 {
                        *viol += 1;
                        *total += 1;
                        if TRACK {
                            bump(conf, conflicted, v, true);
                            if c == 1 {
                                bump(conf, conflicted, vars[holder as usize].index(), true);
                            }
                        }
                    }
                }
                Eval::NotEqual { c, x, y, viol } => {
                    let (x, y) = (*x as usize, *y as usize);
                    let after = u64::from(!c.is_satisfied(&[values[x], values[y]]));
                    if after != *viol {
                        *total = *total + after - *viol;
                        *viol = after;
                        if TRACK {
                            bump(conf, conflicted, x, after > 0);
                            bump(conf, conflicted, y, after > 0);
                        }
                    }
                }
                Eval::Checker {
                    c, distinct, viol, ..
                } => {
                    gather(scratch, *c, values);
                    let after = c.violations(scratch);
                    *total = *total + after - *viol;
                    if TRACK && (after > 0) != (*viol > 0) {
                        match distinct {
                            Some(d) => d
                                .iter()
                                .for_each(|&u| bump(conf, conflicted, u as usize, after > 0)),
                            None => c
                                .scope()
                                .iter()
                                .for_each(|x| bump(conf, conflicted, x.index(), after > 0)),
                        }
                    }
                    *viol = after;
                }
            }
        }
    }

    /// The change in total violations if `v` and `w` exchanged their values.
    pub(crate) fn swap_delta(&mut self, v: usize, w: usize) -> i64 {
        let (a, b) = (self.values[v], self.values[w]);
        let first = self.delta(v, b);
        self.set::<false>(v, b);
        let second = self.delta(w, a);
        self.set::<false>(v, a);
        first + second
    }

    /// Empties the id tables before a greedy construction, which then
    /// [`place`](Evaluator::place)s the variables in index order.
    pub(crate) fn start_construction(&mut self) {
        for e in &mut self.evals {
            if let Eval::AllDiff { ids, .. } = e {
                ids.clear();
            }
        }
    }

    /// The violations `v = a` adds to the variables placed before it (those
    /// of smaller index): all-different ids already taken, not-equal with a
    /// placed partner, and other constraints whose last variable is `v`.
    pub(crate) fn construction_cost(&mut self, v: usize, a: Value) -> i64 {
        let mut cost = 0;
        for o in &self.occ[self.occ_start[v]..self.occ_start[v + 1]] {
            match &self.evals[o.eval as usize] {
                Eval::AllDiff { offsets, ids, .. } => {
                    cost += i64::from(ids.count(a as i64 + offsets[o.pos as usize] as i64) >= 1);
                }
                Eval::NotEqual { c, x, y, .. } => {
                    let (x, y) = (*x as usize, *y as usize);
                    let other = if x == v { y } else { x };
                    if other < v {
                        let pair = if x == v {
                            [a, self.values[y]]
                        } else {
                            [self.values[x], a]
                        };
                        cost += i64::from(!c.is_satisfied(&pair));
                    }
                }
                Eval::Checker { c, last, .. } => {
                    if *last as usize == v {
                        gather(&mut self.scratch, *c, &self.values);
                        for (s, x) in self.scratch.iter_mut().zip(c.scope()) {
                            if x.index() == v {
                                *s = a;
                            }
                        }
                        cost = cost.saturating_add(
                            i64::try_from(c.violations(&self.scratch)).unwrap_or(i64::MAX),
                        );
                    }
                }
            }
        }
        cost
    }

    /// Places `v = a` during a construction.
    pub(crate) fn place(&mut self, v: usize, a: Value) {
        self.values[v] = a;
        for o in &self.occ[self.occ_start[v]..self.occ_start[v + 1]] {
            if let Eval::AllDiff { offsets, ids, .. } = &mut self.evals[o.eval as usize] {
                ids.arrive(a as i64 + offsets[o.pos as usize] as i64, o.pos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluator's totals agree with the constraints' own `violations`
    /// after random moves, and the conflicted set with a rescan.
    #[test]
    fn incremental_state_matches_a_rescan() {
        let mut m = Model::new();
        let xs = m.new_vars(6, Domain::range(0, 3)).unwrap();
        let offs = [0, 1, 2, 0, -1, 5];
        m.all_different_offset(&xs, &offs).unwrap();
        m.not_equal(xs[0], xs[1], 1).unwrap();
        m.linear(&[(1, xs[2]), (1, xs[3])], crate::Relation::Le, 3)
            .unwrap();
        m.all_different(&[xs[4], xs[4], xs[5]]).unwrap(); // repeated: checker path
                                                          // Ids spread too wide for a flat table: the hash map.
        m.all_different_offset(&[xs[0], xs[3], xs[5]], &[0, 1_000_000_000, 1])
            .unwrap();
        let mut ev = Evaluator::new(&m);
        ev.load(&[0, 0, 1, 2, 3, 3]);
        let mut rng = super::super::rng::Rng::new(5);
        for _ in 0..500 {
            let v = rng.index(6);
            let a = rng.below(4) as Value;
            let predicted = ev.delta(v, a);
            let before = ev.total() as i64;
            ev.set::<true>(v, a);
            assert_eq!(ev.total() as i64, before + predicted);
            let fresh: u64 = m
                .constraints()
                .map(|(_, c)| {
                    let vals: Vec<Value> = c.scope().iter().map(|x| ev.values[x.index()]).collect();
                    c.violations(&vals)
                })
                .sum();
            assert_eq!(ev.total(), fresh);
            let mut listed: Vec<usize> = (0..ev.conflicted.len())
                .map(|i| ev.conflicted.get(i))
                .collect();
            listed.sort_unstable();
            let conf = ev.conf.clone();
            let values = ev.values.clone();
            ev.load(&values);
            let mut rescan: Vec<usize> = (0..ev.conflicted.len())
                .map(|i| ev.conflicted.get(i))
                .collect();
            rescan.sort_unstable();
            assert_eq!(listed, rescan);
            assert_eq!(conf, ev.conf);
        }
    }
}
