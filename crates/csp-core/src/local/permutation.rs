//! The fused engine for permutation models whose constraints are all
//! all-different over offsets of the same variables (see the
//! [module docs](super), "The permutation fast path").
//!
//! # State
//! * `q[i]`: the value of variable `i` as a rank in the shared range domain;
//!   always a permutation of `0..n` once built;
//! * per kept all-different: the holders of each id `q[i] + off(i)` (offsets
//!   shifted to start at 0) as an `Occupancy`, about one bit per id, and the
//!   constraint's violations `Σ_id (holders − 1)⁺`;
//! * `list`: variables to repair, with a membership bit per variable.
//!
//! # The greedy start
//! Variable `t` draws candidates until one is unused and free on every kept
//! constraint. While many values are unused, a candidate is any value and a
//! used one is rejected (a bit per value); once the unused values fit a small
//! list (see `POOL`) candidates are drawn from that list. Candidates are drawn
//! and tested in batches without a branch each, so their memory reads
//! overlap. At n = 10^7 with two kept constraints everything read at random
//! is about 6 MB of bits, which stays in cache where byte counters and a
//! 40 MB list of unused values would not; only `q` (40 MB) is written, in
//! order.
//!
//! # The repair list
//! Finding "the other variable on this id" would need a holder table per id,
//! many times the memory of the bits. The list keeps a weaker invariant that
//! needs none: *for every id held by c ≥ 2 variables, at least c − 1 of them
//! are listed.* It holds after the start (a variable is listed when it is
//! placed on an already-held id) and after every move (each moved variable is
//! listed when it lands on a held id; one leaving an id lowers both sides by
//! one). Listed variables found conflict-free when picked are dropped, which
//! cannot break it. So while there are violations the list holds a
//! conflicted variable, and no step ever rescans the assignment.

use std::array;
use std::time::Instant;

use fixedbitset::FixedBitSet;

use super::best::{Best, Swapped};
use super::min_conflicts::{
    aspires, MinConflicts, Raw, Tabu, GREEDY_TRIES, INIT_POLL, SCAN, SWAP_TRIES,
};
use super::rng::{IdMap, Pick, Rng};
use super::{Budget, Init};
use crate::ids::Value;
use crate::limits::{Limit, Outcome};
use crate::model::{Model, Posted};

/// At most this many non-constant all-differents take the fused path.
const MAX_KEPT: usize = 3;

/// The offsets of one all-different, by variable, shifted so the smallest is 0.
#[derive(Clone, Debug)]
pub(crate) enum Offsets {
    /// `base + step·i`: computed, not stored.
    Affine { base: i64, step: i64 },
    /// Any other offsets.
    Table(Vec<u32>),
}

impl Offsets {
    #[inline(always)]
    fn at(&self, i: usize) -> usize {
        match self {
            Offsets::Affine { base, step } => (base + step * i as i64) as usize,
            Offsets::Table(t) => t[i] as usize,
        }
    }
}

/// A model the fused engine can run: `n` variables sharing the range domain
/// `lo..lo + n`, and all-differents over all of them.
#[derive(Debug)]
pub(crate) struct Shape {
    lo: Value,
    n: usize,
    kept: Vec<Offsets>,
    spans: Vec<usize>,
}

impl Shape {
    /// Recognizes the shape, or `None`. O(n) per constraint.
    pub(crate) fn detect(model: &Model) -> Option<Shape> {
        let n = model.num_vars();
        let (domains, var_domain) = model.declared();
        let d0 = *var_domain.first()?;
        let dom = &domains[d0 as usize];
        if !dom.is_range() || dom.size() != n as u64 || var_domain.iter().any(|&d| d != d0) {
            return None;
        }
        let mut kept = Vec::new();
        let mut spans = Vec::new();
        let mut seen = FixedBitSet::new();
        let mut by_var: Vec<Value> = Vec::new();
        for p in model.posted() {
            let Posted::AllDifferent(c) = p else {
                return None;
            };
            let scope = p.scope();
            if scope.len() != n {
                return None;
            }
            // (Folds rather than `all`: no early exit, so the loops vectorize.)
            let in_order = scope
                .iter()
                .enumerate()
                .fold(true, |ok, (i, x)| ok & (x.index() == i));
            let offs: &[Value] = if in_order {
                c.offsets()
            } else {
                seen.clear();
                seen.grow(n);
                by_var.clear();
                by_var.resize(n, 0);
                for (x, &o) in scope.iter().zip(c.offsets()) {
                    if seen.put(x.index()) {
                        return None; // a repeated variable
                    }
                    by_var[x.index()] = o;
                }
                &by_var
            };
            let first = offs[0] as i64;
            let step = offs.get(1).map_or(0, |&o| o as i64 - first);
            let affine = offs.iter().enumerate().fold(true, |ok, (i, &o)| {
                ok & (o as i64 == first + step * i as i64)
            });
            let (offsets, width) = if affine {
                if step == 0 {
                    continue; // a constant offset: implied by the permutation
                }
                let last = first + step * (n as i64 - 1);
                let min = first.min(last);
                (
                    Offsets::Affine {
                        base: first - min,
                        step,
                    },
                    (last - first).unsigned_abs(),
                )
            } else {
                let min = *offs.iter().min()? as i64;
                let max = *offs.iter().max()? as i64;
                if max - min > u32::MAX as i64 {
                    return None;
                }
                let t = offs.iter().map(|&o| (o as i64 - min) as u32).collect();
                (Offsets::Table(t), (max - min) as u64)
            };
            let span = n as u64 + width;
            if span > 4 * n as u64 + 65536 || kept.len() == MAX_KEPT {
                return None;
            }
            kept.push(offsets);
            spans.push(span as usize);
        }
        Some(Shape {
            lo: dom.min()?,
            n,
            kept,
            spans,
        })
    }
}

/// The holders of each id of one all-different, in about one bit per id:
/// `held` says whether any variable has the id, and `excess` counts the
/// holders beyond the first for the few ids held more than once. The counts
/// a byte array would hold, in an eighth of the memory: the greedy start and
/// the partner draws read these at random, so they stay in cache.
#[derive(Debug)]
struct Occupancy {
    held: FixedBitSet,
    excess: IdMap<u64, u32>,
    /// `Σ_id (holders − 1)⁺`: the constraint's violations.
    violations: u64,
}

impl Occupancy {
    fn new(span: usize) -> Occupancy {
        Occupancy {
            held: FixedBitSet::with_capacity(span),
            excess: IdMap::default(),
            violations: 0,
        }
    }

    /// Holders of `id`.
    #[inline(always)]
    fn count(&self, id: usize) -> u32 {
        if !self.held.contains(id) {
            0
        } else if self.excess.is_empty() {
            1
        } else {
            1 + self.excess.get(&(id as u64)).copied().unwrap_or(0)
        }
    }

    /// Adds a holder to `id`; returns the holders before.
    #[inline(always)]
    fn add(&mut self, id: usize) -> u32 {
        if !self.held.contains(id) {
            self.held.insert(id);
            return 0;
        }
        self.violations += 1;
        let e = self.excess.entry(id as u64).or_insert(0);
        *e += 1;
        *e
    }

    /// Removes a holder from `id`.
    #[inline(always)]
    fn remove(&mut self, id: usize) {
        if !self.excess.is_empty() {
            if let Some(e) = self.excess.get_mut(&(id as u64)) {
                self.violations -= 1;
                *e -= 1;
                if *e == 0 {
                    self.excess.remove(&(id as u64));
                }
                return;
            }
        }
        self.held.remove(id);
    }

    fn clear(&mut self) {
        self.held.clear();
        self.excess.clear();
        self.violations = 0;
    }
}

struct Engine<'s, const K: usize> {
    n: usize,
    offs: [&'s Offsets; K],
    q: Vec<u32>,
    occ: [Occupancy; K],
    list: Vec<u32>,
    listed: FixedBitSet,
}

/// The greedy start switches from rejecting used values to drawing from an
/// explicit list of the unused ones when they are down to this many (a 4 MiB
/// list, which stays in cache when read at random) or to half the values if
/// that is fewer; and at the latest when an eighth are left, as rejection
/// gets costly below that.
const POOL: usize = 1 << 20;
/// Candidates of the greedy start drawn and tested together.
const BATCH: usize = 8;

impl<'s, const K: usize> Engine<'s, K> {
    fn new(shape: &'s Shape) -> Self {
        Engine {
            n: shape.n,
            offs: array::from_fn(|k| &shape.kept[k]),
            q: vec![0; shape.n],
            occ: array::from_fn(|k| Occupancy::new(shape.spans[k])),
            list: Vec::new(),
            listed: FixedBitSet::with_capacity(shape.n),
        }
    }

    #[inline(always)]
    fn ids(&self, i: usize, val: u32) -> [usize; K] {
        array::from_fn(|k| val as usize + self.offs[k].at(i))
    }

    /// Variables already holding the ids `i` would have with `val`.
    #[inline(always)]
    fn occupancy(&self, i: usize, val: u32) -> u32 {
        let ids = self.ids(i, val);
        (0..K).map(|k| self.occ[k].count(ids[k])).sum()
    }

    /// Counts `i` on its ids; true when one of them was already held.
    #[inline(always)]
    fn place(&mut self, i: usize) -> bool {
        let ids = self.ids(i, self.q[i]);
        let mut held = false;
        for (k, &id) in ids.iter().enumerate() {
            held |= self.occ[k].add(id) > 0;
        }
        held
    }

    #[inline(always)]
    fn unplace(&mut self, i: usize) {
        let ids = self.ids(i, self.q[i]);
        for (k, &id) in ids.iter().enumerate() {
            self.occ[k].remove(id);
        }
    }

    #[inline(always)]
    fn swap(&mut self, i: usize, j: usize) {
        self.unplace(i);
        self.unplace(j);
        self.q.swap(i, j);
        self.place(i);
        self.place(j);
    }

    /// Other variables sharing an id with `i`, summed over the constraints.
    #[inline]
    fn conflict(&self, i: usize) -> u32 {
        self.occupancy(i, self.q[i]) - K as u32
    }

    #[inline]
    fn total(&self) -> u64 {
        self.occ.iter().map(|o| o.violations).sum()
    }

    #[inline]
    fn enlist(&mut self, i: usize) {
        if !self.listed.contains(i) {
            self.listed.insert(i);
            self.list.push(i as u32);
        }
    }

    #[inline]
    fn delist_at(&mut self, at: usize) {
        let i = self.list.swap_remove(at) as usize;
        self.listed.remove(i);
    }

    /// Empties the counts and the list, keeping `q`.
    fn clear(&mut self) {
        for o in &mut self.occ {
            o.clear();
        }
        for &i in &self.list {
            self.listed.remove(i as usize);
        }
        self.list.clear();
    }

    /// Gives variable `t` the value `v` and counts it.
    #[inline]
    fn put(&mut self, t: usize, v: u32) {
        self.q[t] = v;
        if self.place(t) {
            self.enlist(t);
        }
    }

    /// Counts every variable of `q` again.
    fn recount(&mut self) {
        self.clear();
        for i in 0..self.n {
            if self.place(i) {
                self.enlist(i);
            }
        }
    }

    /// Builds a fresh permutation; `Some(limit)` if a limit cut the greedy
    /// construction short (the remaining variables then took the unused
    /// values in ascending order).
    fn initialize(&mut self, init: Init, rng: &mut Rng, budget: &Budget) -> Option<Limit> {
        self.clear();
        let n = self.n;
        if init == Init::Random {
            for (i, x) in self.q.iter_mut().enumerate() {
                *x = i as u32;
            }
            for t in 0..n {
                let j = t + rng.index(n - t);
                self.q.swap(t, j);
                if self.place(t) {
                    self.enlist(t);
                }
            }
            return None;
        }
        // Greedy (see the module docs). The first candidate that is unused
        // and free is the first success of independent uniform draws, so a
        // uniformly random free value.
        let mut unused = FixedBitSet::with_capacity(n);
        unused.insert_range(..);
        // 16 times the recent average of candidates drawn per variable.
        let mut need = 16;
        let first_phase = n - (POOL.min(n / 2).max(n / 8));
        let mut t = 0;
        while t < first_phase {
            if t % INIT_POLL == 0 {
                if let Some(limit) = budget.poll() {
                    for v in 0..n as u32 {
                        if unused.contains(v as usize) {
                            self.put(t, v);
                            t += 1;
                        }
                    }
                    return Some(limit);
                }
            }
            let v = self.draw(t, rng, &mut need, |rng| {
                let v = rng.below(n as u64) as u32;
                (v, v, u64::from(unused.contains(v as usize)))
            });
            unused.remove(v as usize);
            self.put(t, v);
            t += 1;
        }
        let mut pool: Vec<u32> = unused.ones().map(|v| v as u32).collect();
        drop(unused);
        while t < n {
            if t % INIT_POLL == 0 {
                if let Some(limit) = budget.poll() {
                    pool.sort_unstable();
                    for v in pool {
                        self.put(t, v);
                        t += 1;
                    }
                    return Some(limit);
                }
            }
            let j = self.draw(t, rng, &mut need, |rng| {
                let j = rng.index(pool.len());
                (j as u32, pool[j], 1)
            }) as usize;
            let v = pool.swap_remove(j);
            self.put(t, v);
            t += 1;
        }
        None
    }

    /// Draws candidates for variable `t` in batches: `candidate` returns a
    /// handle, the value it stands for, and 1 if the value is unused (else 0).
    /// Returns the handle of the first unused value free on every constraint
    /// or, after [`GREEDY_TRIES`] unused ones that are not, of the least
    /// occupied of those (the first such).
    #[inline]
    fn draw(
        &self,
        t: usize,
        rng: &mut Rng,
        need: &mut u32,
        mut candidate: impl FnMut(&mut Rng) -> (u32, u32, u64),
    ) -> u32 {
        const TRIES: usize = GREEDY_TRIES as usize;
        let offs: [usize; K] = array::from_fn(|k| self.offs[k].at(t));
        // Blocked candidates, scored only if no free one turns up.
        let mut blocked = [(0u32, 0u32); TRIES];
        let mut tries = 0;
        // The first batch is as large as recent variables needed.
        let mut size = (*need / 16 + 1).min(BATCH as u32) as usize;
        let mut drawn = 0;
        loop {
            let mut batch = [(0u32, 0u32); BATCH];
            let (mut usable, mut free) = (0u32, 0u32);
            for (b, slot) in batch.iter_mut().enumerate().take(size) {
                let (h, v, unused) = candidate(rng);
                *slot = (h, v);
                let mut ok = unused;
                for (o, &off) in self.occ.iter().zip(&offs) {
                    ok &= !u64::from(o.held.contains(v as usize + off));
                }
                usable |= (unused as u32) << b;
                free |= ((ok & 1) as u32) << b;
            }
            if free != 0 {
                let first = free.trailing_zeros();
                *need = *need - *need / 8 + 2 * (drawn + first + 1);
                return batch[first as usize].0;
            }
            drawn += size as u32;
            size = BATCH;
            while usable != 0 {
                blocked[tries] = batch[usable.trailing_zeros() as usize];
                usable &= usable - 1;
                tries += 1;
                if tries == TRIES {
                    *need = *need - *need / 8 + 2 * drawn;
                    let occupancy = |v: u32| -> u32 {
                        (0..K)
                            .map(|k| self.occ[k].count(v as usize + offs[k]))
                            .sum()
                    };
                    let least = blocked.iter().min_by_key(|&&(_, v)| occupancy(v));
                    return least.map_or(blocked[0].0, |&(h, _)| h);
                }
            }
        }
    }

    /// The change in violations if `v` and `j` swapped (made and undone).
    #[inline]
    fn swap_delta(&mut self, v: usize, j: usize) -> i64 {
        let before = self.total() as i64;
        self.swap(v, j);
        let d = self.total() as i64 - before;
        self.swap(v, j);
        d
    }

    /// Chooses the partner of `v`; see [`MinConflicts`] ("A step").
    fn choose_partner(
        &mut self,
        v: usize,
        rng: &mut Rng,
        tabu: &Tabu<u32>,
        step: u64,
        best: u64,
    ) -> Option<usize> {
        let total = self.total();
        let mut pick = Pick::stay();
        let mut consider = |e: &mut Self, rng: &mut Rng, j: usize| -> bool {
            let d = e.swap_delta(v, j);
            let allowed = pick.admits(d)
                && (aspires(total, d, best)
                    || (tabu.forbidden(v, step) != Some(e.q[j])
                        && tabu.forbidden(j, step) != Some(e.q[v])));
            if allowed {
                pick.offer(j, d, rng);
            }
            allowed && d < 0
        };
        if (self.n as u64) - 1 <= SCAN {
            for j in 0..self.n {
                if j != v {
                    consider(self, rng, j);
                }
            }
        } else {
            for _ in 0..SWAP_TRIES {
                let j = rng.index(self.n);
                if j != v && consider(self, rng, j) {
                    break;
                }
            }
        }
        pick.choice
    }
}

/// Runs the fused engine.
pub(crate) fn run(cfg: &MinConflicts<'_>, shape: &Shape, budget: &Budget) -> Raw {
    match shape.kept.len() {
        0 => solve::<0>(cfg, shape, budget),
        1 => solve::<1>(cfg, shape, budget),
        2 => solve::<2>(cfg, shape, budget),
        _ => solve::<MAX_KEPT>(cfg, shape, budget),
    }
}

fn solve<const K: usize>(cfg: &MinConflicts<'_>, shape: &Shape, budget: &Budget) -> Raw {
    let n = shape.n;
    let mut e: Engine<'_, K> = Engine::new(shape);
    let mut rng = Rng::new(cfg.seed);
    let init_start = Instant::now();
    let mut interrupted = e.initialize(cfg.init, &mut rng, budget);
    let init_time = init_start.elapsed();
    let mut best: Best<u32, Swapped> = Best::new(n);
    best.offer(e.total());
    let mut tabu: Tabu<u32> = Tabu::new(cfg.tabu);
    let plateau = cfg.plateau_steps();
    let (mut run_best, mut flat) = (e.total(), 0u64);
    let (mut steps, mut restarts) = (0u64, 0u64);
    let stopped = loop {
        if e.total() == 0 {
            break None;
        }
        if let Some(l) = interrupted.take().or_else(|| budget.check(steps)) {
            break Some(Outcome::LimitReached(l));
        }
        if e.list.is_empty() {
            debug_assert!(false, "the repair list lost a conflict");
            e.recount();
        }
        let at = rng.index(e.list.len());
        let v = e.list[at] as usize;
        if e.conflict(v) == 0 {
            e.delist_at(at);
            continue;
        }
        steps += 1;
        if let Some(j) = e.choose_partner(v, &mut rng, &tabu, steps, best.violations) {
            let (a, b) = (e.q[v], e.q[j]);
            e.swap(v, j);
            tabu.forbid(v, a, steps);
            tabu.forbid(j, b, steps);
            for i in [v, j] {
                if e.conflict(i) > 0 {
                    e.enlist(i);
                }
            }
            if !best.offer(e.total()) {
                best.record(
                    Swapped {
                        a: v as u32,
                        b: j as u32,
                    },
                    &e.q,
                );
            }
        }
        if e.total() < run_best {
            (run_best, flat) = (e.total(), 0);
        } else {
            flat += 1;
            if flat >= plateau && restarts < cfg.restarts {
                best.save(&e.q);
                interrupted = e.initialize(cfg.init, &mut rng, budget);
                restarts += 1;
                (run_best, flat) = (e.total(), 0);
                best.offer(run_best);
            }
        }
    };
    let current_is_best = best.is_current();
    let violations = best.violations;
    e.q = best.into_best(std::mem::take(&mut e.q));
    if !current_is_best {
        e.recount();
    }
    let violated_constraints = e.occ.iter().filter(|o| o.violations > 0).count();
    let lo = shape.lo as i64;
    let assignment = std::mem::take(&mut e.q)
        .into_iter()
        .map(|x| (lo + x as i64) as Value)
        .collect();
    Raw {
        stopped,
        assignment,
        violations,
        violated_constraints,
        steps,
        restarts,
        init_time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Domain;

    fn queens(n: usize, shuffle_scope: bool) -> Model {
        let mut m = Model::new();
        let q = m.new_vars(n, Domain::range(1, n as i32)).unwrap();
        let rows: Vec<i32> = (0..n as i32).collect();
        let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
        m.all_different(&q).unwrap();
        m.all_different_offset(&q, &rows).unwrap();
        if shuffle_scope {
            let rq: Vec<_> = q.iter().rev().copied().collect();
            let rneg: Vec<i32> = neg.iter().rev().copied().collect();
            m.all_different_offset(&rq, &rneg).unwrap();
        } else {
            m.all_different_offset(&q, &neg).unwrap();
        }
        m
    }

    #[test]
    fn detects_queens_with_any_scope_order() {
        for shuffled in [false, true] {
            let s = Shape::detect(&queens(10, shuffled)).unwrap();
            assert_eq!(s.kept.len(), 2);
            assert_eq!(s.spans, vec![19, 19]);
            assert!(matches!(s.kept[1], Offsets::Affine { step: -1, base: 9 }));
        }
        let mut m = queens(10, false);
        let x = m.new_var(Domain::range(0, 1)).unwrap();
        m.not_equal(x, x, 1).unwrap();
        assert!(Shape::detect(&m).is_none());
    }

    #[test]
    fn occupancy_counts_holders_beyond_the_first() {
        // 300 variables with offsets −i: the identity permutation puts all of
        // them on one id.
        let n = 300;
        let mut m = Model::new();
        let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
        let neg: Vec<i32> = (0..n as i32).map(|i| -i).collect();
        m.all_different_offset(&q, &neg).unwrap();
        let shape = Shape::detect(&m).unwrap();
        let mut e: Engine<'_, 1> = Engine::new(&shape);
        e.q = (0..n as u32).collect();
        e.recount();
        assert_eq!(e.total(), n as u64 - 1);
        assert_eq!(e.conflict(7), n as u32 - 1);
        e.swap(0, 1);
        assert_eq!(e.total(), n as u64 - 3);
        e.unplace(5);
        assert_eq!(e.total(), n as u64 - 4);
        assert_eq!(e.occ[0].count(n - 1), n as u32 - 3);
    }
}
