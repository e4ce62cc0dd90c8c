//! Packing items into bins: [`BinPacking`], items of constant sizes
//! placed in bins whose loads are variables or bounded by a capacity.

use super::{Constraint, Premises, Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Priority, Propagator, Setup};
use crate::{Model, ModelError};

/// Items `i` of size `sizes[i]` (a constant, at least 0) go into the bin
/// `bins[i]` (a variable), in one of two forms:
/// * **with loads** ([`Model::bin_packing_load`]): the bins are numbered
///   `first, first + 1, …` one per load variable, every item goes into
///   one of them, and the load of each bin is the total size of its
///   items;
/// * **with a capacity** ([`Model::bin_packing`]): any value is a bin,
///   and the items in each bin have a total size of at most the capacity.
///
/// # Pruning
/// The rules of Shaw, "A constraint for bin packing" (CP 2004), on
/// *required* items (fixed to a bin) and *candidates* (that may go in
/// it), without his subset-sum rule:
/// * **load bounds**: a load is at least the size of its required
///   items and at most that of its required items and candidates;
/// * **load sum**: the loads add up to the total size, so each is at
///   least the total less the others' maxima, at most the total less
///   their minima;
/// * **elimination**: an item leaves a bin where it no longer fits
///   (required size plus its own above the load's maximum, or the
///   capacity);
/// * **commitment**: an item goes into a bin whose load cannot be
///   reached without it;
/// * **the L2 bound** (Martello and Toth, 1990, as Shaw adapts it): with
///   `C` the largest load maximum, each bin gets one fixed item filling
///   what its required items use and its load cannot reach (`C − max(l) +
///   required`), so that all bins have capacity `C`; when the items left
///   and these need more than the number of bins by Martello and Toth's
///   L2 bound, there is no solution;
/// * **the cardinality bound** (after Pelsser, Schaus and Régin,
///   "Revisiting the cardinality reasoning for BinPacking constraint",
///   CP 2013): for the free items from each size up, a bin holds at most
///   as many of them as the smallest fit in its room (load maximum less
///   its fixed items); when the bins together hold fewer than there are,
///   there is no solution. It sees what volume and L2 miss when items
///   just too large to go three to a bin are many (18 items of 23 to 49
///   in seven bins of 100: volume 669, yet 15 items of 33 or more, at
///   most two to a bin).
///
/// With a capacity only the elimination applies, over the bins that
/// already hold an item (grouped by value), and an item larger than the
/// capacity fails at once.
///
/// # Reasons
/// A load's lower bound is explained by the items fixed to its bin, its
/// upper bound by the items that have lost the bin (`bin ≠ b`), the load
/// sum by the other loads' bounds; an elimination by as few of the
/// bin's items as overflow it (largest first) and the load's maximum; a
/// commitment by the items that have lost the bin and the load's minimum.
/// A failure of the L2 bound is explained by every load's maximum and the
/// items fixed to a bin; one of the cardinality bound by those the bound
/// needs: a deletion filter relaxes each maximum to the largest one and
/// frees each fixed item in turn, keeping each change while the bound
/// still fails.
///
/// Cost: O(Σ domain sizes + bins) per call with loads, plus O(n·k) for
/// the L2 bound over `n` items and bins with `k` distinct sizes of at most
/// half the capacity and O(n·m) for the cardinality bound over `m` bins;
/// a cardinality failure's reason runs the bound once per load and fixed
/// item (up to a budget, past which every premise is kept). O(n log n) with a
/// capacity; not idempotent, no entailment. The checker is exact.
#[derive(Debug, Clone)]
pub struct BinPacking {
    /// The items' bins, then the loads (with loads).
    scope: Vec<VarId>,
    items: usize,
    sizes: Vec<i64>,
    form: Form,
}

/// The two forms of [`BinPacking`].
#[derive(Debug, Clone, Copy)]
enum Form {
    /// Bins `first ..` one per load variable (after the items in the scope).
    Loads { first: i64 },
    /// Any bin, each holding at most this much.
    Capacity(i64),
}

impl BinPacking {
    /// The items' bin variables.
    pub fn bins(&self) -> &[VarId] {
        &self.scope[..self.items]
    }

    /// The load variables (empty for the capacity form).
    pub fn loads(&self) -> &[VarId] {
        &self.scope[self.items..]
    }

    /// The sizes, by item.
    pub fn sizes(&self) -> &[i64] {
        &self.sizes
    }

    /// The load of each bin under the assignment `v` (loads form), or
    /// `None` when an item is outside the bins.
    fn loads_of(&self, v: &[Value], first: i64) -> Option<Vec<i64>> {
        let m = self.scope.len() - self.items;
        let mut load = vec![0i64; m];
        for (&x, &w) in v[..self.items].iter().zip(&self.sizes) {
            let b = x as i64 - first;
            if !(0..m as i64).contains(&b) {
                return None;
            }
            load[b as usize] += w;
        }
        Some(load)
    }

    /// The items sorted by bin, as (bin, size) (capacity form).
    fn groups(&self, v: &[Value]) -> Vec<(Value, i64)> {
        let mut g: Vec<(Value, i64)> = (0..self.items).map(|i| (v[i], self.sizes[i])).collect();
        g.sort_unstable();
        g
    }
}

fn check_sizes(name: &'static str, bins: &[VarId], sizes: &[i32]) -> Result<(), ModelError> {
    if bins.len() != sizes.len() {
        return Err(ModelError::LengthMismatch {
            constraint: name,
            what: "sizes for the items",
            expected: bins.len(),
            found: sizes.len(),
        });
    }
    match sizes.iter().enumerate().find(|(_, &w)| w < 0) {
        Some((i, w)) => Err(ModelError::Invalid {
            constraint: name,
            reason: format!("item {i} has a negative size ({w})"),
        }),
        None => Ok(()),
    }
}

impl Model {
    /// Items of the given `sizes` go into the bins `bin`, numbered from 0,
    /// and `load[b]` is the total size of the items in bin `b` (see
    /// [`BinPacking`]). Fails with [`ModelError::LengthMismatch`] when
    /// `bin` and `size` differ in length and [`ModelError::Invalid`] for a
    /// negative size.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let bin = m.new_vars(3, Domain::range(0, 1)).unwrap();
    /// let load = m.new_vars(2, Domain::range(0, 5)).unwrap();
    /// m.bin_packing_load(&load, &bin, &[3, 2, 4]).unwrap();
    /// // 9 units in two bins of at most 5: {3, 2} and {4}.
    /// assert_eq!(Search::new(&m).count().unwrap().count, 2);
    /// ```
    pub fn bin_packing_load(
        &mut self,
        load: &[VarId],
        bin: &[VarId],
        size: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        self.bin_packing_load_from(0, load, bin, size)
    }

    /// [`bin_packing_load`](Model::bin_packing_load) with the bins
    /// numbered from `first` (MiniZinc numbers them by the index set of
    /// the loads, usually from 1).
    pub fn bin_packing_load_from(
        &mut self,
        first: i32,
        load: &[VarId],
        bin: &[VarId],
        size: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        check_sizes("bin packing", bin, size)?;
        self.post(BinPacking {
            scope: bin.iter().chain(load).copied().collect(),
            items: bin.len(),
            sizes: size.iter().map(|&w| w as i64).collect(),
            form: Form::Loads {
                first: first as i64,
            },
        })
    }

    /// Items of the given `sizes` go into the bins `bin` (any values),
    /// and the items in each bin have a total size of at most `capacity`
    /// (see [`BinPacking`]). Fails with [`ModelError::LengthMismatch`]
    /// when `bin` and `size` differ in length and [`ModelError::Invalid`]
    /// for a negative size or capacity.
    pub fn bin_packing(
        &mut self,
        capacity: i32,
        bin: &[VarId],
        size: &[i32],
    ) -> Result<ConstraintId, ModelError> {
        check_sizes("bin packing", bin, size)?;
        if capacity < 0 {
            return Err(ModelError::Invalid {
                constraint: "bin packing",
                reason: format!("the capacity is negative ({capacity})"),
            });
        }
        self.post(BinPacking {
            scope: bin.to_vec(),
            items: bin.len(),
            sizes: size.iter().map(|&w| w as i64).collect(),
            form: Form::Capacity(capacity as i64),
        })
    }
}

impl Constraint for BinPacking {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        self.violations(v) == 0
    }
    fn name(&self) -> &str {
        "bin packing"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let (bins, loads) = vars.split_at(self.items);
        let sizes = crate::minizinc::ints(&self.sizes);
        Some(match self.form {
            Form::Loads { first } => format!(
                "bin_packing_load(array1d({first}..{}, {}), {}, {sizes})",
                first + loads.len() as i64 - 1,
                crate::minizinc::list(loads),
                crate::minizinc::list(bins)
            ),
            Form::Capacity(c) => {
                format!("bin_packing({c}, {}, {sizes})", crate::minizinc::list(bins))
            }
        })
    }
    /// Loads form: the items outside the bins and the loads that differ
    /// from their bin's size; capacity form: the bins over capacity.
    fn violations(&self, v: &[Value]) -> u64 {
        match self.form {
            Form::Loads { first } => match self.loads_of(v, first) {
                None => 1 + self.loads().len() as u64,
                Some(load) => (0..load.len())
                    .filter(|&b| v[self.items + b] as i64 != load[b])
                    .count() as u64,
            },
            Form::Capacity(cap) => {
                let g = self.groups(v);
                g.chunk_by(|a, b| a.0 == b.0)
                    .filter(|c| c.iter().map(|e| e.1).sum::<i64>() > cap)
                    .count() as u64
            }
        }
    }
    fn propagator(&self) -> Option<Box<dyn Propagator + '_>> {
        let m = self.scope.len() - self.items;
        Some(Box::new(BinPackingProp {
            c: self,
            total: self.sizes.iter().sum(),
            req: vec![0; m],
            pos: vec![0; m],
            fixed: Vec::with_capacity(self.items),
            maxima: Vec::with_capacity(m),
            free: Vec::with_capacity(self.items),
            scratch: Scratch::default(),
        }))
    }
}

#[derive(Debug)]
struct BinPackingProp<'a> {
    c: &'a BinPacking,
    /// The total size.
    total: i64,
    /// Per bin (loads form): the size of the required items, and of the
    /// required items and candidates.
    req: Vec<i64>,
    pos: Vec<i64>,
    /// The fixed items of positive size as (bin, item), sorted.
    fixed: Vec<(Value, usize)>,
    /// Scratch for the lower bounds: the load maxima, the free items'
    /// sizes and the bounds' own workspace.
    maxima: Vec<i64>,
    free: Vec<i64>,
    scratch: Scratch,
}

/// Raises `x` to at least `v`, failing with the reason and `x ≤ max(x)`
/// when `v` is above its maximum (`v` may be beyond `i32`).
fn raise(
    p: &mut Pruner<'_>,
    x: VarId,
    v: i64,
    because: impl FnOnce(&mut Premises<'_>),
) -> Result<(), Conflict> {
    if v > p.max(x) as i64 {
        return Err(p.fail(|r: &mut Premises<'_>| {
            r.at_most(x);
            because(r);
        }));
    }
    if v > p.min(x) as i64 {
        p.set_min(x, v as Value, because)?;
    }
    Ok(())
}

/// Lowers `x` to at most `v` (see [`raise`]).
fn lower(
    p: &mut Pruner<'_>,
    x: VarId,
    v: i64,
    because: impl FnOnce(&mut Premises<'_>),
) -> Result<(), Conflict> {
    if v < p.min(x) as i64 {
        return Err(p.fail(|r: &mut Premises<'_>| {
            r.at_least(x);
            because(r);
        }));
    }
    if v < p.max(x) as i64 {
        p.set_max(x, v as Value, because)?;
    }
    Ok(())
}

impl BinPackingProp<'_> {
    /// The fixed items of positive size, sorted by bin.
    fn collect_fixed(&mut self, p: &Pruner<'_>) {
        let c = self.c;
        self.fixed.clear();
        for i in 0..c.items {
            if let Some(b) = p.value(c.scope[i]).filter(|_| c.sizes[i] > 0) {
                self.fixed.push((b, i));
            }
        }
        self.fixed.sort_unstable();
    }

    /// The fixed items in bin `b`.
    fn in_bin(&self, b: Value) -> &[(Value, usize)] {
        let lo = self.fixed.partition_point(|e| e.0 < b);
        let hi = self.fixed.partition_point(|e| e.0 <= b);
        &self.fixed[lo..hi]
    }

    /// Premises: `bin = b` for as few of the items in `group` (largest
    /// first) as have a total size above `limit`.
    fn overflowing(&self, r: &mut Premises<'_>, group: &[(Value, usize)], limit: i64) {
        let c = self.c;
        let mut items: Vec<usize> = group.iter().map(|e| e.1).collect();
        items.sort_unstable_by_key(|&i| std::cmp::Reverse(c.sizes[i]));
        let mut sum = 0;
        for i in items {
            if sum > limit {
                break;
            }
            sum += c.sizes[i];
            r.push(Literal::Eq(c.scope[i], group[0].0));
        }
    }

    /// Capacity form: fails on a bin over capacity, and takes each bin
    /// that holds items out of the domains of the items that no longer
    /// fit in it.
    fn capacity(&mut self, p: &mut Pruner<'_>, cap: i64) -> Result<(), Conflict> {
        let c = self.c;
        if c.sizes.iter().any(|&w| w > cap) {
            return Err(p.fail(Why::Constraint));
        }
        self.collect_fixed(p);
        let this = &*self;
        for group in this.fixed.chunk_by(|a, b| a.0 == b.0) {
            let (b, used) = (group[0].0, group.iter().map(|e| c.sizes[e.1]).sum::<i64>());
            if used > cap {
                return Err(p.fail(|r: &mut Premises<'_>| this.overflowing(r, group, cap)));
            }
            for i in 0..c.items {
                let x = c.scope[i];
                if used + c.sizes[i] > cap && !p.is_fixed(x) && p.contains(x, b) {
                    let room = cap - c.sizes[i];
                    p.remove(x, b, |r: &mut Premises<'_>| {
                        this.overflowing(r, group, room)
                    })?;
                }
            }
        }
        Ok(())
    }

    /// Loads form: keeps the items in the bins, then the load bounds,
    /// load sum, elimination and commitment rules.
    fn loads(&mut self, p: &mut Pruner<'_>, first: i64) -> Result<(), Conflict> {
        let c = self.c;
        let m = self.req.len();
        let last = first + m as i64 - 1;
        for i in 0..c.items {
            // The constraint alone keeps every item within the bins.
            raise(p, c.scope[i], first, |_: &mut Premises<'_>| {})?;
            lower(p, c.scope[i], last, |_: &mut Premises<'_>| {})?;
        }
        self.collect_fixed(p);
        self.req.iter_mut().for_each(|r| *r = 0);
        self.pos.iter_mut().for_each(|r| *r = 0);
        for i in 0..c.items {
            let x = c.scope[i];
            if c.sizes[i] == 0 {
                continue;
            }
            if let Some(b) = p.value(x) {
                self.req[(b as i64 - first) as usize] += c.sizes[i];
            }
            for b in p.values(x) {
                self.pos[(b as i64 - first) as usize] += c.sizes[i];
            }
        }
        let this = &*self;
        let loads = c.loads();
        let bin = |b: usize| (first + b as i64) as Value;
        // Load bounds.
        for (b, &l) in loads.iter().enumerate() {
            raise(p, l, this.req[b], |r: &mut Premises<'_>| {
                for e in this.in_bin(bin(b)) {
                    r.push(Literal::Eq(c.scope[e.1], e.0));
                }
            })?;
            lower(p, l, this.pos[b], |r: &mut Premises<'_>| {
                for i in (0..c.items).filter(|&i| c.sizes[i] > 0) {
                    if !r.contains(c.scope[i], bin(b)) {
                        r.push(Literal::Ne(c.scope[i], bin(b)));
                    }
                }
            })?;
        }
        // Load sum.
        let sum_min: i64 = loads.iter().map(|&l| p.min(l) as i64).sum();
        let sum_max: i64 = loads.iter().map(|&l| p.max(l) as i64).sum();
        for &l in loads {
            let others = |r: &mut Premises<'_>, upper: bool| {
                for &o in loads.iter().filter(|&&o| o != l) {
                    match upper {
                        true => r.at_most(o),
                        false => r.at_least(o),
                    }
                }
            };
            let (lo, hi) = (p.min(l) as i64, p.max(l) as i64);
            raise(p, l, this.total - (sum_max - hi), |r: &mut Premises<'_>| {
                others(r, true)
            })?;
            lower(p, l, this.total - (sum_min - lo), |r: &mut Premises<'_>| {
                others(r, false)
            })?;
        }
        // Elimination and commitment.
        for i in (0..c.items).filter(|&i| c.sizes[i] > 0) {
            let (x, w) = (c.scope[i], c.sizes[i]);
            if p.is_fixed(x) {
                continue;
            }
            for b in p.values(x) {
                let k = (b as i64 - first) as usize;
                let l = loads[k];
                if this.req[k] + w > p.max(l) as i64 {
                    let room = p.max(l) as i64 - w;
                    p.remove(x, b, |r: &mut Premises<'_>| {
                        r.at_most(l);
                        this.overflowing(r, this.in_bin(b), room);
                    })?;
                } else if this.pos[k] - w < p.min(l) as i64 {
                    p.fix(x, b, |r: &mut Premises<'_>| {
                        r.at_least(l);
                        for j in (0..c.items).filter(|&j| j != i && c.sizes[j] > 0) {
                            if !r.contains(c.scope[j], b) {
                                r.push(Literal::Ne(c.scope[j], b));
                            }
                        }
                    })?;
                    break;
                }
            }
        }
        self.bounds_check(p, first)
    }

    /// Fails when the items left cannot be packed by one of two lower
    /// bounds on a relaxation of the packing (see [`Relaxed`]): Martello
    /// and Toth's L2 bound ([`Bound::L2`]) and the cardinality bound
    /// ([`Bound::Cardinality`]).
    fn bounds_check(&mut self, p: &mut Pruner<'_>, first: i64) -> Result<(), Conflict> {
        let c = self.c;
        let loads = c.loads();
        if loads.is_empty() {
            return Ok(());
        }
        let mut maxima = std::mem::take(&mut self.maxima);
        maxima.clear();
        maxima.extend(loads.iter().map(|&l| p.max(l) as i64));
        let mut req = std::mem::take(&mut self.req);
        req.iter_mut().for_each(|r| *r = 0);
        let mut free = std::mem::take(&mut self.free);
        free.clear();
        for i in (0..c.items).filter(|&i| c.sizes[i] > 0) {
            match p.value(c.scope[i]) {
                Some(b) => req[(b as i64 - first) as usize] += c.sizes[i],
                None => free.push(c.sizes[i]),
            }
        }
        free.sort_unstable();
        let relaxed = Relaxed {
            maxima: &maxima,
            req: &req,
            free: &free,
        };
        let failed = [Bound::L2, Bound::Cardinality]
            .into_iter()
            .find(|&bound| relaxed.fails(bound, &mut self.scratch));
        let out = match failed {
            None => Ok(()),
            Some(bound) => Err(p.fail(|r: &mut Premises<'_>| self.bound_reason(r, first, bound))),
        };
        (self.maxima, self.req, self.free) = (maxima, req, free);
        out
    }

    /// The premises of a failure of `bound`: the load maxima and the items
    /// fixed to a bin. For the cardinality bound, less those it does not
    /// need: a deletion filter, one bound per candidate, relaxes each
    /// load's maximum in turn to the largest (premise `load ≤ largest`
    /// instead), then treats each fixed item in turn as free, and keeps
    /// the change while the bound still fails. What is left is a
    /// relaxation of every state where the premises hold, so the bound is
    /// still a proof, and a shorter one. Past [`FILTER_BUDGET`] the filter
    /// is skipped and every premise kept. L2's reasons are not filtered:
    /// on `csp binpack --learning` over its 15 shipped instances, filtering
    /// them too proved 13 within 20,000 nodes, filtering neither 14,
    /// filtering the cardinality reasons only 15 (docs/benchmarks.md,
    /// "Bin packing: the cardinality bound"); differences of a heuristic
    /// search, not a law, but no reason to pay for the filter.
    fn bound_reason(&self, r: &mut Premises<'_>, first: i64, bound: Bound) {
        let c = self.c;
        let loads = c.loads();
        let m = loads.len();
        let mut maxima: Vec<i64> = loads.iter().map(|&l| r.max(l) as i64).collect();
        let cap = maxima.iter().copied().max().unwrap_or(0);
        // (item, bin index) of the fixed items of positive size.
        let fixed: Vec<(usize, usize)> = (0..c.items)
            .filter(|&i| c.sizes[i] > 0)
            .filter_map(|i| {
                r.value(c.scope[i])
                    .map(|b| (i, (b as i64 - first) as usize))
            })
            .collect();
        let mut kept = vec![true; fixed.len()];
        let work = (m + fixed.len()) * (c.items + m) * m;
        if bound == Bound::Cardinality && work <= FILTER_BUDGET {
            let mut req = vec![0i64; m];
            let mut free: Vec<i64> = Vec::with_capacity(c.items);
            let mut scratch = Scratch::default();
            let mut fails = |maxima: &[i64], kept: &[bool]| {
                req.iter_mut().for_each(|x| *x = 0);
                free.clear();
                let mut k = 0;
                for i in (0..c.items).filter(|&i| c.sizes[i] > 0) {
                    match fixed.get(k).filter(|e| e.0 == i) {
                        Some(&(_, b)) => {
                            match kept[k] {
                                true => req[b] += c.sizes[i],
                                false => free.push(c.sizes[i]),
                            }
                            k += 1;
                        }
                        None => free.push(c.sizes[i]),
                    }
                }
                free.sort_unstable();
                let relaxed = Relaxed {
                    maxima,
                    req: &req,
                    free: &free,
                };
                relaxed.fails(bound, &mut scratch)
            };
            for b in 0..m {
                let was = maxima[b];
                if was < cap {
                    maxima[b] = cap;
                    if !fails(&maxima, &kept) {
                        maxima[b] = was;
                    }
                }
            }
            for k in 0..fixed.len() {
                kept[k] = false;
                if !fails(&maxima, &kept) {
                    kept[k] = true;
                }
            }
        }
        for (b, &l) in loads.iter().enumerate() {
            r.push(Literal::Le(l, maxima[b] as Value));
        }
        for (&(i, b), _) in fixed.iter().zip(&kept).filter(|e| *e.1) {
            r.push(Literal::Eq(c.scope[i], (first + b as i64) as Value));
        }
    }
}

/// The most work (candidates × items and bins × bins) the deletion filter
/// of [`BinPackingProp::bound_reason`] may take; larger packings keep
/// every premise.
const FILTER_BUDGET: usize = 4_000_000;

/// The lower bounds checked on a [`Relaxed`] packing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    /// Martello and Toth's L2 bound ([`l2`]) on the instance where every
    /// bin has the largest load maximum `C` as capacity and holds one
    /// fixed item of size `C − maximum + required` for what it cannot take.
    L2,
    /// The cardinality bound (after Pelsser, Schaus and Régin, "Revisiting
    /// the cardinality reasoning for BinPacking constraint", CP 2013): for
    /// any set `S` of free items, a bin holds at most as many of them as
    /// the smallest of `S` fit in its room (maximum less required); if
    /// the bins together hold fewer than `|S|`, there is no packing. `S`
    /// runs over the free items from each size up, the sets where it is
    /// strongest ([`cardinality_fails`]).
    Cardinality,
}

/// The lower bounds' workspace, kept by the propagator so that a call
/// allocates nothing: L2's sizes or the cardinality bound's prefix sums,
/// and the cardinality bound's pointers, one per bin.
#[derive(Debug, Default)]
struct Scratch {
    sizes: Vec<i64>,
    ends: Vec<usize>,
}

/// A relaxation of the packing: per bin its load's maximum and the size
/// of the items fixed to it, and the sizes of the free items (of positive
/// size, sorted). Every packing of the real items under these maxima is
/// one of the relaxation.
struct Relaxed<'a> {
    maxima: &'a [i64],
    req: &'a [i64],
    free: &'a [i64],
}

impl Relaxed<'_> {
    /// Does `bound` show that the relaxation has no packing?
    fn fails(&self, bound: Bound, scratch: &mut Scratch) -> bool {
        match bound {
            Bound::L2 => {
                let cap = self.maxima.iter().copied().max().unwrap_or(0);
                let sizes = &mut scratch.sizes;
                sizes.clear();
                sizes.extend_from_slice(self.free);
                for (&max, &req) in self.maxima.iter().zip(self.req) {
                    let filler = cap - max + req;
                    if filler > 0 {
                        sizes.push(filler);
                    }
                }
                l2(sizes, cap) > self.maxima.len() as i64
            }
            Bound::Cardinality => cardinality_fails(self.maxima, self.req, self.free, scratch),
        }
    }
}

/// The cardinality bound of [`Bound::Cardinality`]: for each start `s`
/// of the sorted free sizes, the set `free[s..]`; bin `b` holds at most
/// `k` of them, the most whose `k` smallest (`free[s..s + k]`) fit in its
/// room. Two pointers per bin (the end `s + k` never moves back as `s`
/// grows), so O((free items + 1) · bins). `scratch` holds the prefix sums
/// and the pointers.
fn cardinality_fails(maxima: &[i64], req: &[i64], free: &[i64], scratch: &mut Scratch) -> bool {
    let n = free.len();
    if n == 0 {
        return false;
    }
    let pre = &mut scratch.sizes;
    pre.clear();
    pre.push(0);
    for &w in free {
        let last = *pre.last().unwrap_or(&0);
        pre.push(last + w);
    }
    let end = &mut scratch.ends;
    end.clear();
    end.resize(maxima.len(), 0);
    for s in 0..n {
        let wanted = n - s;
        let mut held = 0;
        for (b, e) in end.iter_mut().enumerate() {
            let room = maxima[b] - req[b];
            *e = (*e).max(s);
            while *e < n && pre[*e + 1] - pre[s] <= room {
                *e += 1;
            }
            held += *e - s;
            if held >= wanted {
                break;
            }
        }
        if held < wanted {
            return true;
        }
    }
    false
}

/// Martello and Toth's L2 lower bound on the number of bins of capacity
/// `cap` that items of the given `sizes` need (Martello and Toth,
/// *Knapsack Problems*, 1990, §8.3.1): for a threshold `k ≤ cap / 2`, the
/// items above `cap − k` and those above `cap / 2` each need a bin of their
/// own, and the items from `k` to `cap / 2` need whatever room the second
/// group leaves, in whole bins. The best over `k = 0` and each size up to
/// `cap / 2`. Sorts `sizes`; `i64::MAX` when `cap ≤ 0` and an item has a
/// positive size.
fn l2(sizes: &mut [i64], cap: i64) -> i64 {
    if cap <= 0 {
        return match sizes.iter().any(|&w| w > 0) {
            true => i64::MAX,
            false => 0,
        };
    }
    sizes.sort_unstable();
    let mut best = 0;
    let small = sizes.partition_point(|&w| 2 * w <= cap);
    let thresholds = std::iter::once(0).chain(sizes[..small].iter().copied());
    for (n, k) in thresholds.enumerate() {
        if n > 1 && sizes[n - 2] == k {
            continue; // the same threshold as the size before
        }
        let (mut n12, mut s2, mut s3) = (0i64, 0i64, 0i64);
        for &w in sizes.iter() {
            if w > cap - k {
                n12 += 1;
            } else if 2 * w > cap {
                n12 += 1;
                s2 += cap - w;
            } else if w >= k {
                s3 += w;
            }
        }
        let extra = (s3 - s2).max(0);
        best = best.max(n12 + (extra + cap - 1) / cap);
    }
    best
}

impl Propagator for BinPackingProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        for (k, &x) in self.c.scope.iter().enumerate() {
            let events = match k < self.c.items {
                true => Events::DOMAIN,
                false => Events::BOUNDS,
            };
            setup.subscribe(x, k, events);
        }
    }
    fn wants_notify(&self) -> bool {
        false
    }
    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        match self.c.form {
            Form::Capacity(cap) => self.capacity(p, cap),
            Form::Loads { first } => self.loads(p, first),
        }
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn name(&self) -> &str {
        "bin packing"
    }
}

#[cfg(test)]
mod tests {
    use super::{cardinality_fails, l2, Scratch};

    /// Can the items go into bins with these rooms? Brute force over
    /// every assignment.
    fn packable(items: &[i64], rooms: &[i64]) -> bool {
        let m = rooms.len();
        let mut code = vec![0usize; items.len()];
        loop {
            let mut used = vec![0i64; m];
            for (&w, &b) in items.iter().zip(&code) {
                used[b] += w;
            }
            if used.iter().zip(rooms).all(|(u, r)| u <= r) {
                return true;
            }
            // Next assignment, as a number in base m.
            let mut k = 0;
            loop {
                if k == code.len() {
                    return false;
                }
                code[k] += 1;
                if code[k] < m {
                    break;
                }
                code[k] = 0;
                k += 1;
            }
        }
    }

    #[test]
    fn cardinality_bound() {
        // No three of 3, 4, 4, 4, 4 fit in 10: two bins hold four.
        let mut scratch = Scratch::default();
        assert!(cardinality_fails(
            &[10, 10],
            &[0, 0],
            &[3, 4, 4, 4, 4],
            &mut scratch
        ));
        // A 1 among them changes nothing (the set from 3 up still fails).
        assert!(cardinality_fails(
            &[10, 10],
            &[0, 0],
            &[1, 3, 4, 4, 4, 4],
            &mut scratch
        ));
        // With room 11 in one bin, 3 + 4 + 4 fits there: five fit.
        assert!(!cardinality_fails(
            &[11, 10],
            &[0, 0],
            &[3, 4, 4, 4, 4],
            &mut scratch
        ));
        // Fixed items take room: with 5 left bin 0 takes one 3, bin 1
        // three, and five do not fit though their volume does; with 6
        // left they fit.
        assert!(cardinality_fails(&[10, 10], &[5, 0], &[3; 5], &mut scratch));
        assert!(!cardinality_fails(
            &[10, 10],
            &[4, 0],
            &[3; 5],
            &mut scratch
        ));
        assert!(!cardinality_fails(&[], &[], &[], &mut scratch));
        assert!(cardinality_fails(&[], &[], &[1], &mut scratch));
    }

    /// The bound never fails where a packing exists (brute force), on
    /// random small instances; and it is reported where it finds one.
    #[test]
    fn cardinality_bound_is_sound() {
        let mut seed = 0x5eed_cafe_u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let (mut fails, mut scratch) = (0, Scratch::default());
        for _ in 0..3000 {
            let m = 1 + next(3) as usize;
            let n = 1 + next(6) as usize;
            let mut items: Vec<i64> = (0..n).map(|_| 1 + next(6) as i64).collect();
            items.sort_unstable();
            let maxima: Vec<i64> = (0..m).map(|_| next(12) as i64).collect();
            let req: Vec<i64> = maxima.iter().map(|&x| next(x as u64 + 1) as i64).collect();
            let rooms: Vec<i64> = maxima.iter().zip(&req).map(|(a, b)| a - b).collect();
            if cardinality_fails(&maxima, &req, &items, &mut scratch) {
                fails += 1;
                assert!(!packable(&items, &rooms), "{items:?} into {rooms:?}");
            }
        }
        assert!(fails > 300, "the bound failed only {fails} times");
    }

    #[test]
    fn l2_bound() {
        // Three items above half the capacity: three bins (volume: two).
        assert_eq!(l2(&mut [3, 3, 3], 5), 3);
        // The 6 leaves room 4 beside it; the small items (14) overflow it
        // by 10: one more bin. Exact: {6, 4}, {4, 3, 3}.
        assert_eq!(l2(&mut [6, 4, 4, 3, 3], 10), 2);
        // With k = 4 the 7s are above 10 − 4, so no 4 goes beside them,
        // and the 4s (12) need two more bins: 4, exact (volume says 3).
        assert_eq!(l2(&mut [7, 7, 4, 4, 4], 10), 4);
        // With k = 5 the 6s are alone and the 5s need a bin: 3, exact.
        assert_eq!(l2(&mut [6, 6, 5, 5], 10), 3);
        // 4, 4, 3, 3 pair up within 7: 2, as the volume says.
        assert_eq!(l2(&mut [4, 4, 3, 3], 7), 2);
        // Three 4s in bins of 7: no two together, L2 with k = 0 sees it.
        assert_eq!(l2(&mut [4, 4, 4], 7), 3);
        // No room at all.
        assert_eq!(l2(&mut [1], 0), i64::MAX);
        assert_eq!(l2(&mut [], 0), 0);
    }
}
