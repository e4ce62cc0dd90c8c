//! The domain-consistent all-different propagator (Régin, "A filtering
//! algorithm for constraints of difference in CSPs", AAAI 1994).
//!
//! # The idea
//! Variables on one side, values on the other, an edge where a value is in a
//! variable's domain: a solution is a matching that covers every variable.
//! A value can be removed from a variable exactly when its edge belongs to no
//! maximum matching. Berge's theorem tells which edges those are, given one
//! maximum matching `M`: orient matching edges variable → value and the
//! others value → variable; an edge outside `M` belongs to some maximum
//! matching iff it lies in a strongly connected component of that graph
//! (an alternating cycle) or on an alternating path that starts at a free
//! value (a value no variable is matched to).
//!
//! # The algorithm, per call
//! 1. Read the domains into one bit row per variable (over the values' dense
//!    indices) and the transposed rows (per value, the variables holding it).
//! 2. Repair the matching kept from the last call: an edge whose value left
//!    the domain is dropped, then each unmatched variable is rematched by a
//!    breadth-first augmenting-path search (Hopcroft and Karp's step, one
//!    path at a time). The matching is a plain field: after backtracking the
//!    domains only grew, so every kept edge is still an edge. No augmenting
//!    path for some variable: conflict.
//! 3. Mark what alternating paths from free values reach.
//! 4. Tarjan's strongly connected components over the other variables, each
//!    variable merged with its matched value (an edge `u → w` when `u`'s
//!    matched value is in `w`'s domain).
//! 5. Remove each value whose edge is neither matched, nor reached from a
//!    free value, nor inside one component.
//!
//! The one-word path ([`Small`], Sudoku-sized constraints) finds the
//! components of step 4 by forward and backward reachability on bit masks
//! instead of Tarjan's bookkeeping: on 9-variable units it runs 12 % fewer
//! instructions in all (callgrind, Sudoku).
//!
//! With `n` variables, `m` values and `e = Σ|D|` edges, one call costs
//! O(n·m/64) word operations to read the rows, O(e) for steps 3 to 5, and
//! O(k·e) for `k` variables that lost their matched value (each search is
//! O(e), usually far less).
//!
//! `except` (for `all_different_except`) gives each variable its own copy of
//! the exempt value, so any number of variables may take it.
//!
//! # Why one file
//! The general path (bit rows, Tarjan) and the one-word path ([`Small`])
//! run the same five steps over the same matching and value index; they
//! stay together (about 860 lines, an eighth of them comments) so that
//! the two can be read side by side.

use super::distinct::subscribe_all;
use super::hall::{hall_set, AtHistory};
use super::Why;
use crate::constraint::Pruner;
use crate::domain::{Conflict, Domain};
use crate::ids::{Value, VarId};
use crate::propagation::{Events, Premises, Priority, Propagator, Setup, StateInt};

const NONE: u32 = u32::MAX;

/// The most distinct values (over the declared domains) a domain-consistent
/// all-different accepts.
pub const MAX_DOMAIN_VALUES: u64 = 1 << 16;

/// The values of the declared domains, each given a dense index.
#[derive(Debug, Clone)]
pub(crate) enum ValueIndex {
    /// Index `v − lo` for `v` in `lo..lo + len` (a union with few holes).
    Dense { lo: i64, len: usize },
    /// Index by binary search in the sorted union.
    Sparse(Vec<Value>),
}

impl ValueIndex {
    /// The index of the union of `domains`, or an error message when it
    /// holds more than [`MAX_DOMAIN_VALUES`] values.
    pub(crate) fn of_domains<'d>(
        domains: impl Iterator<Item = &'d Domain> + Clone,
    ) -> Result<ValueIndex, String> {
        // Within one 64-value window: dense, whatever the holes.
        let lo = domains.clone().filter_map(|d| d.min()).min();
        let hi = domains.clone().filter_map(|d| d.max()).max();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let span = hi as i64 - lo as i64 + 1;
            if span <= 64 {
                return Ok(ValueIndex::Dense {
                    lo: lo as i64,
                    len: span as usize,
                });
            }
        }
        let total: u64 = domains.clone().map(|d| d.size()).sum();
        if total > MAX_DOMAIN_VALUES * 64 {
            return Err(format!(
                "the domains hold {total} values in all; domain consistency reads \
                 every value (use bounds consistency for domains this large)"
            ));
        }
        let mut all: Vec<Value> = domains.flat_map(|d| d.iter()).collect();
        all.sort_unstable();
        all.dedup();
        if all.len() as u64 > MAX_DOMAIN_VALUES {
            return Err(format!(
                "the domains hold {} distinct values, over the limit of {MAX_DOMAIN_VALUES} \
                 for domain consistency (use bounds consistency)",
                all.len()
            ));
        }
        let (Some(&first), Some(&last)) = (all.first(), all.last()) else {
            return Ok(ValueIndex::Dense { lo: 0, len: 0 });
        };
        let span = (last as i64 - first as i64 + 1) as usize;
        if span <= 64 || span <= 2 * all.len() {
            Ok(ValueIndex::Dense {
                lo: first as i64,
                len: span,
            })
        } else {
            Ok(ValueIndex::Sparse(all))
        }
    }

    fn len(&self) -> usize {
        match self {
            ValueIndex::Dense { len, .. } => *len,
            ValueIndex::Sparse(v) => v.len(),
        }
    }

    fn index(&self, v: Value) -> Option<usize> {
        match self {
            ValueIndex::Dense { lo, len } => {
                let k = v as i64 - lo;
                (0..*len as i64).contains(&k).then_some(k as usize)
            }
            ValueIndex::Sparse(all) => all.binary_search(&v).ok(),
        }
    }

    fn value(&self, k: usize) -> Value {
        match self {
            ValueIndex::Dense { lo, .. } => (lo + k as i64) as Value,
            ValueIndex::Sparse(all) => all[k],
        }
    }
}

/// Iterates the set bits of a row of words, as bit indices.
fn ones(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter().enumerate().flat_map(|(w, &word)| {
        let mut b = word;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let k = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + k
            })
        })
    })
}

#[inline]
fn test(row: &[u64], k: usize) -> bool {
    row[k / 64] >> (k % 64) & 1 != 0
}

#[inline]
fn set(row: &mut [u64], k: usize) {
    row[k / 64] |= 1 << (k % 64);
}

/// Domain-consistent all-different over distinct variables, optionally
/// with an exempt value (see the module documentation).
#[derive(Debug)]
pub(crate) struct DomainProp<'a> {
    vars: &'a [VarId],
    index: &'a ValueIndex,
    except: Option<Value>,
    /// Values with a real index (`m`); exempt copies are `m + i`.
    m: usize,
    /// Words per value row (over all value indices) and per variable row.
    vw: usize,
    hw: usize,
    /// At most 64 variables over at most 64 values and no exempt value: the
    /// one-word path's state ([`Small`]).
    small: Option<Box<Small>>,
    /// Reversible, for the one-word path: the variables known fixed and
    /// the values they took (bit masks), so later calls skip them.
    fixed: Option<(StateInt, StateInt)>,
    /// The matching, kept between calls.
    var_match: Vec<u32>,
    val_match: Vec<u32>,
    // Scratch, sized once.
    rows: Vec<u64>,
    holders: Vec<u64>,
    visited: Vec<u64>,
    parent: Vec<u32>,
    queue: Vec<u32>,
    reach_vals: Vec<u64>,
    reach_vars: Vec<u64>,
    order: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    on_stack: Vec<u64>,
    stack: Vec<u32>,
    frames: Vec<(u32, u32, u64)>,
}

impl<'a> DomainProp<'a> {
    pub(crate) fn new(
        vars: &'a [VarId],
        index: &'a ValueIndex,
        except: Option<Value>,
    ) -> DomainProp<'a> {
        let n = vars.len();
        let m = index.len();
        let total = m + if except.is_some() { n } else { 0 };
        let vw = total.div_ceil(64).max(1);
        let hw = n.div_ceil(64).max(1);
        DomainProp {
            vars,
            index,
            except,
            m,
            vw,
            hw,
            small: (except.is_none()
                && n <= 64
                && total <= 64
                && matches!(index, ValueIndex::Dense { .. }))
            .then(Small::new),
            fixed: None,
            var_match: Vec::new(),
            val_match: Vec::new(),
            rows: Vec::new(),
            holders: Vec::new(),
            visited: Vec::new(),
            parent: Vec::new(),
            queue: Vec::new(),
            reach_vals: Vec::new(),
            reach_vars: Vec::new(),
            order: Vec::new(),
            low: Vec::new(),
            comp: Vec::new(),
            on_stack: Vec::new(),
            stack: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// Sizes the general path's state on its first use (the one-word path
    /// never needs it).
    fn ensure_general(&mut self) {
        if !self.var_match.is_empty() {
            return;
        }
        let (n, vw, hw) = (self.vars.len(), self.vw, self.hw);
        let total = self.m + if self.except.is_some() { n } else { 0 };
        self.var_match = vec![NONE; n];
        self.val_match = vec![NONE; total];
        self.rows = vec![0; n * vw];
        self.holders = vec![0; total * hw];
        self.visited = vec![0; vw];
        self.parent = vec![NONE; total];
        self.queue = Vec::with_capacity(n);
        self.reach_vals = vec![0; vw];
        self.reach_vars = vec![0; hw];
        self.order = vec![NONE; n];
        self.low = vec![0; n];
        self.comp = vec![0; n];
        self.on_stack = vec![0; hw];
        self.stack = Vec::with_capacity(n);
        self.frames = Vec::with_capacity(n);
    }

    /// Step 1: the rows of the current domains and their transpose.
    fn load(&mut self, p: &Pruner<'_>) {
        let (vw, hw) = (self.vw, self.hw);
        self.rows.fill(0);
        self.holders.fill(0);
        for (i, &x) in self.vars.iter().enumerate() {
            let row = &mut self.rows[i * vw..(i + 1) * vw];
            match (p.word(x), self.index) {
                (Some((bits, base)), &ValueIndex::Dense { lo, .. }) => {
                    or_shifted(row, bits, base as i64 - lo);
                }
                _ => {
                    for v in p.values(x) {
                        if let Some(k) = self.index.index(v) {
                            set(row, k);
                        }
                    }
                }
            }
            if let Some(k) = self.except.and_then(|e| self.index.index(e)) {
                if test(row, k) {
                    row[k / 64] &= !(1 << (k % 64));
                    set(row, self.m + i);
                }
            }
            for k in ones(row) {
                self.holders[k * hw + i / 64] |= 1 << (i % 64);
            }
        }
    }

    fn row(&self, i: usize) -> &[u64] {
        &self.rows[i * self.vw..(i + 1) * self.vw]
    }

    /// Step 2: repairs the matching; false when it cannot cover every variable.
    fn repair_matching(&mut self) -> bool {
        for i in 0..self.vars.len() {
            let k = self.var_match[i];
            if k != NONE && !test(self.row(i), k as usize) {
                self.var_match[i] = NONE;
                self.val_match[k as usize] = NONE;
            }
        }
        (0..self.vars.len()).all(|i| self.var_match[i] != NONE || self.augment(i))
    }

    /// A breadth-first search for an augmenting path from variable `root`.
    fn augment(&mut self, root: usize) -> bool {
        let vw = self.vw;
        self.visited.fill(0);
        self.queue.clear();
        self.queue.push(root as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let u = self.queue[head] as usize;
            head += 1;
            for w in 0..vw {
                let cand = self.rows[u * vw + w] & !self.visited[w];
                self.visited[w] |= cand;
                let mut b = cand;
                while b != 0 {
                    let k = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    self.parent[k] = u as u32;
                    let owner = self.val_match[k];
                    if owner == NONE {
                        self.flip(root, k);
                        return true;
                    }
                    self.queue.push(owner);
                }
            }
        }
        false
    }

    /// Flips the augmenting path ending at free value `k`.
    fn flip(&mut self, root: usize, mut k: usize) {
        loop {
            let u = self.parent[k] as usize;
            let old = self.var_match[u];
            self.var_match[u] = k as u32;
            self.val_match[k] = u as u32;
            if u == root {
                return;
            }
            k = old as usize;
        }
    }

    /// Step 3: what alternating paths from the free values reach.
    fn reach_from_free(&mut self) {
        let (vw, hw) = (self.vw, self.hw);
        self.reach_vars.fill(0);
        self.reach_vals.fill(0);
        self.queue.clear();
        // Free values that some variable can take (`visited` as scratch).
        self.visited.fill(0);
        for i in 0..self.vars.len() {
            for w in 0..vw {
                self.visited[w] |= self.rows[i * vw + w];
            }
        }
        for w in 0..vw {
            let mut b = self.visited[w];
            while b != 0 {
                let k = w * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                if self.val_match[k] == NONE {
                    set(&mut self.reach_vals, k);
                    self.queue.push(k as u32);
                }
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let k = self.queue[head] as usize;
            head += 1;
            for w in 0..hw {
                let cand = self.holders[k * hw + w] & !self.reach_vars[w];
                self.reach_vars[w] |= cand;
                let mut b = cand;
                while b != 0 {
                    let u = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    let mk = self.var_match[u] as usize;
                    if !test(&self.reach_vals, mk) {
                        set(&mut self.reach_vals, mk);
                        self.queue.push(mk as u32);
                    }
                }
            }
        }
    }

    /// The successors of variable `u` in word `w`: the unreached variables
    /// holding `u`'s matched value, `u` excluded.
    #[inline]
    fn succ_word(&self, u: usize, w: usize) -> u64 {
        let k = self.var_match[u] as usize;
        let mut s = self.holders[k * self.hw + w] & !self.reach_vars[w];
        if u / 64 == w {
            s &= !(1 << (u % 64));
        }
        s
    }

    /// Step 4: Tarjan's components over the variables not reached in step 3
    /// (iterative; `comp[u]` names the component's root).
    fn components(&mut self) {
        let n = self.vars.len();
        self.order.fill(NONE);
        self.on_stack.fill(0);
        self.stack.clear();
        let mut counter = 0u32;
        for r in 0..n {
            if self.order[r] != NONE || test(&self.reach_vars, r) {
                continue;
            }
            self.open(r, &mut counter);
            while let Some(&(u, w, rem)) = self.frames.last() {
                let u = u as usize;
                if rem != 0 {
                    let t = w as usize * 64 + rem.trailing_zeros() as usize;
                    let top = self.frames.len() - 1;
                    self.frames[top].2 = rem & (rem - 1);
                    if self.order[t] == NONE {
                        self.open(t, &mut counter);
                    } else if test(&self.on_stack, t) {
                        self.low[u] = self.low[u].min(self.order[t]);
                    }
                } else if (w as usize) + 1 < self.hw {
                    let top = self.frames.len() - 1;
                    self.frames[top] = (u as u32, w + 1, self.succ_word(u, w as usize + 1));
                } else {
                    self.frames.pop();
                    if self.low[u] == self.order[u] {
                        loop {
                            let t = self.stack.pop().expect("u is on the stack") as usize;
                            self.on_stack[t / 64] &= !(1 << (t % 64));
                            self.comp[t] = u as u32;
                            if t == u {
                                break;
                            }
                        }
                    }
                    if let Some(&(parent, _, _)) = self.frames.last() {
                        let pu = parent as usize;
                        self.low[pu] = self.low[pu].min(self.low[u]);
                    }
                }
            }
        }
    }

    fn open(&mut self, u: usize, counter: &mut u32) {
        self.order[u] = *counter;
        self.low[u] = *counter;
        *counter += 1;
        self.stack.push(u as u32);
        set(&mut self.on_stack, u);
        self.frames.push((u as u32, 0, self.succ_word(u, 0)));
    }

    /// Step 5: removes the values of edges in no maximum matching.
    fn prune(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let vw = self.vw;
        for i in 0..self.vars.len() {
            let mine = self.var_match[i] as usize;
            let reached = test(&self.reach_vars, i);
            for w in 0..vw {
                let mut drop = self.rows[i * vw + w] & !self.reach_vals[w];
                if mine / 64 == w {
                    drop &= !(1 << (mine % 64));
                }
                while drop != 0 {
                    let k = w * 64 + drop.trailing_zeros() as usize;
                    drop &= drop - 1;
                    let owner = self.val_match[k] as usize;
                    // A matched value outside the reached part: keep it when
                    // its owner shares `i`'s component.
                    if !reached && self.comp[owner] == self.comp[i] {
                        continue;
                    }
                    let v = if k >= self.m {
                        self.except.expect("exempt copies exist only with except")
                    } else {
                        self.index.value(k)
                    };
                    // Lazy: the Hall set is searched for only when asked
                    // (a matching from scratch per removal otherwise).
                    p.remove(self.vars[i], v, Why::Lazy(i as u64))?;
                }
            }
        }
        Ok(())
    }
}

/// Bit `k` of `row` moved to bit `k + by` (`by` may be negative).
#[inline]
fn shifted(row: u64, by: i64) -> u64 {
    match by {
        0..=63 => row << by,
        -63..=-1 => row >> -by,
        _ => 0,
    }
}

const NO: u8 = u8::MAX;

/// The one-word path's state: at most 64 variables over at most 64 values,
/// one `u64` row per variable. Kept between calls (no clearing per call):
/// the matching (`var_match`, `val_match`) and scratch arrays.
#[derive(Debug)]
pub(crate) struct Small {
    rows: [u64; 64],
    orig: [u64; 64],
    /// Per variable: its word's bit 0 as a value index.
    base: [i64; 64],
    var_match: [u8; 64],
    val_match: [u8; 64],
    parent: [u8; 64],
    queue: [u8; 64],
}

impl Small {
    pub(crate) fn new() -> Box<Small> {
        Box::new(Small {
            rows: [0; 64],
            orig: [0; 64],
            base: [0; 64],
            var_match: [NO; 64],
            val_match: [NO; 64],
            parent: [NO; 64],
            queue: [0; 64],
        })
    }

    /// Régin's algorithm on the rows of `open` (the variables not known
    /// fixed; `taken` holds the others' values): fixed variables first
    /// leave the graph (their values are removed from the others, to a
    /// fixpoint), then the matching, the reachability from free values and
    /// the components run on the open variables with bit masks. Returns the
    /// open variables left and the values taken; the pruned rows are left
    /// in `rows` (also on a conflict).
    fn run(&mut self, mut open: u64, mut taken: u64) -> Result<(u64, u64), Conflict> {
        loop {
            let mut newly = 0u64;
            let mut b = open;
            while b != 0 {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                self.rows[i] &= !taken;
                let r = self.rows[i];
                if r & r.wrapping_sub(1) == 0 {
                    if r == 0 || (taken | newly) & r != 0 {
                        return Err(Conflict);
                    }
                    newly |= r;
                    open &= !(1 << i);
                }
            }
            if newly == 0 {
                break;
            }
            taken |= newly;
        }
        if open != 0 {
            self.open_part(open)?;
        }
        Ok((open, taken))
    }

    /// Steps 2 to 5 on the open variables `open`.
    fn open_part(&mut self, open: u64) -> Result<(), Conflict> {
        let mut union = 0u64;
        let mut b = open;
        while b != 0 {
            union |= self.rows[b.trailing_zeros() as usize];
            b &= b - 1;
        }
        let k = open.count_ones();
        if union.count_ones() < k {
            return Err(Conflict);
        }
        if k <= 2 {
            // A Hall set that prunes another open variable has two
            // variables at least (one is a fixed variable, gone above) and
            // leaves one out: it needs three open variables.
            return Ok(());
        }
        // 2. Repair the matching: keep the edges still there.
        let mut matched = 0u64;
        let mut b = open;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            let k = self.var_match[i];
            if k != NO && self.rows[i] >> k & 1 != 0 && matched >> k & 1 == 0 {
                matched |= 1 << k;
                self.val_match[k as usize] = i as u8;
            } else {
                self.var_match[i] = NO;
            }
        }
        let mut b = open;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            if self.var_match[i] == NO && !self.augment(i, &mut matched) {
                return Err(Conflict);
            }
        }
        // 3. Reachability from the free values.
        let mut reach_vals = union & !matched;
        let mut reach_vars = 0u64;
        if reach_vals != 0 {
            loop {
                let before = reach_vars;
                let mut b = open & !reach_vars;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    if self.rows[i] & reach_vals != 0 {
                        reach_vars |= 1 << i;
                        reach_vals |= 1 << self.var_match[i];
                    }
                }
                if reach_vars == before {
                    break;
                }
            }
            let mut b = reach_vars;
            while b != 0 {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                self.rows[i] &= reach_vals;
            }
        }
        // 4 and 5. Components of the others; each keeps its matched values.
        let rest = open & !reach_vars;
        if rest != 0 {
            self.forward_backward(rest);
        }
        Ok(())
    }

    /// An augmenting path from open variable `root` (breadth first).
    fn augment(&mut self, root: usize, matched: &mut u64) -> bool {
        let (mut head, mut tail) = (0, 1);
        self.queue[0] = root as u8;
        let mut seen = 0u64;
        while head < tail {
            let u = self.queue[head] as usize;
            head += 1;
            let mut cand = self.rows[u] & !seen;
            seen |= cand;
            while cand != 0 {
                let k = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                self.parent[k] = u as u8;
                if *matched >> k & 1 == 0 {
                    *matched |= 1 << k;
                    // Flip the path back to the root.
                    let mut k = k;
                    loop {
                        let u = self.parent[k] as usize;
                        let old = self.var_match[u];
                        self.var_match[u] = k as u8;
                        self.val_match[k] = u as u8;
                        if u == root {
                            return true;
                        }
                        k = old as usize;
                    }
                }
                self.queue[tail] = self.val_match[k];
                tail += 1;
            }
        }
        false
    }

    /// The components by forward and backward reachability on bit masks:
    /// the component of `u` is what `u` reaches and what reaches `u`; each
    /// keeps in its rows only its own matched values.
    fn forward_backward(&mut self, rest: u64) {
        let mut left = rest;
        while left != 0 {
            let u = left.trailing_zeros() as usize;
            // Forward: a variable is reached when its row holds a value
            // matched to a variable already reached.
            let mut fwd = 1u64 << u;
            let mut fvals = 1u64 << self.var_match[u];
            loop {
                let mut add = 0u64;
                let mut b = left & !fwd;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    if self.rows[i] & fvals != 0 {
                        add |= 1 << i;
                        fvals |= 1 << self.var_match[i];
                    }
                }
                if add == 0 {
                    break;
                }
                fwd |= add;
            }
            // Backward, within what `u` reaches: a variable reaches `u`
            // when its matched value is in the row of one that does.
            let mut bwd = 1u64 << u;
            let mut bvals = self.rows[u];
            loop {
                let mut add = 0u64;
                let mut b = fwd & !bwd;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    if bvals >> self.var_match[i] & 1 != 0 {
                        add |= 1 << i;
                        bvals |= self.rows[i];
                    }
                }
                if add == 0 {
                    break;
                }
                bwd |= add;
            }
            let scc = fwd & bwd;
            let mut vals = 0u64;
            let mut b = scc;
            while b != 0 {
                vals |= 1 << self.var_match[b.trailing_zeros() as usize];
                b &= b - 1;
            }
            let mut b = scc;
            while b != 0 {
                self.rows[b.trailing_zeros() as usize] &= vals;
                b &= b - 1;
            }
            left &= !scc;
        }
    }
}

impl DomainProp<'_> {
    /// The one-word path (see [`Small`]); `None` when a domain is not one
    /// word (the general path then runs).
    fn propagate_small(&mut self, p: &mut Pruner<'_>) -> Option<Result<(), Conflict>> {
        let ValueIndex::Dense { lo, .. } = *self.index else {
            return None;
        };
        let (fixed, taken) = self.fixed?;
        let sm = self.small.as_deref_mut()?;
        let n = self.vars.len();
        let all: u64 = if n == 64 { !0 } else { (1 << n) - 1 };
        let (fixed0, taken0) = (p.get(fixed) as u64, p.get(taken) as u64);
        let open0 = all & !fixed0;
        let mut b = open0;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            let (bits, base) = p.word(self.vars[i])?;
            sm.base[i] = base as i64 - lo;
            sm.rows[i] = shifted(bits, sm.base[i]);
            sm.orig[i] = sm.rows[i];
        }
        let result = sm.run(open0, taken0);
        // Write back every change, even before a conflict is reported.
        let vars = self.vars;
        let mut b = open0;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            if sm.rows[i] == sm.orig[i] {
                continue;
            }
            let written = if p.explaining() {
                // One write per value, each with its Hall set.
                let mut gone = sm.orig[i] & !sm.rows[i];
                let mut r = Ok(());
                while gone != 0 && r.is_ok() {
                    let v = (lo + gone.trailing_zeros() as i64) as Value;
                    gone &= gone - 1;
                    r = p.remove(vars[i], v, Why::Lazy(i as u64)).map(|_| ());
                }
                r
            } else {
                p.retain_word(vars[i], shifted(sm.rows[i], -sm.base[i]), Why::Scope)
                    .map(|_| ())
            };
            if let Err(c) = written {
                return Some(Err(c));
            }
        }
        if result.is_err() {
            return Some(Err(no_matching(p, vars, None)));
        }
        Some(result.map(|(open, now_taken)| {
            if open != open0 {
                p.set(fixed, (all & !open) as i64);
                p.set(taken, now_taken as i64);
            }
            if open == 0 {
                p.entail();
            }
        }))
    }
}

/// The failure when no matching covers the variables: a set of variables
/// with fewer values than variables.
#[cold]
fn no_matching(p: &mut Pruner<'_>, vars: &[VarId], except: Option<Value>) -> Conflict {
    p.fail(move |r: &mut Premises| hall_set(r, vars, except, None))
}

/// ORs `bits`, whose bit 0 stands for index `off`, into `row`.
fn or_shifted(row: &mut [u64], bits: u64, off: i64) {
    let (bits, off) = if off < 0 {
        (if off <= -64 { 0 } else { bits >> -off }, 0usize)
    } else {
        (bits, off as usize)
    };
    let (w, s) = (off / 64, off % 64);
    if w < row.len() {
        row[w] |= bits << s;
    }
    if s > 0 && w + 1 < row.len() {
        row[w + 1] |= bits >> (64 - s);
    }
}

impl Propagator for DomainProp<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        subscribe_all(setup, self.vars, Events::DOMAIN);
        if self.small.is_some() {
            self.fixed = Some((setup.new_int(0), setup.new_int(0)));
        }
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        if self.vars.is_empty() {
            return Ok(());
        }
        if self.small.is_some() {
            if let Some(r) = self.propagate_small(p) {
                return r;
            }
        }
        self.ensure_general();
        self.load(p);
        if !self.repair_matching() {
            return Err(no_matching(p, self.vars, self.except));
        }
        self.reach_from_free();
        self.components();
        self.prune(p)
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn is_idempotent(&self) -> bool {
        // Every edge left belongs to a maximum matching of the edges left.
        true
    }

    /// The lazy reason of a removal (code: the position): the Hall set,
    /// found from the domains at `history`.
    fn explain(
        &mut self,
        code: u64,
        lit: crate::literal::Literal,
        history: &crate::propagation::History<'_>,
        out: &mut Vec<crate::literal::Literal>,
    ) -> bool {
        let (i, crate::literal::Literal::Ne(_, v)) = (code as usize, lit) else {
            return false;
        };
        if i >= self.vars.len() {
            return false;
        }
        let mut at = AtHistory { h: history, out };
        hall_set(&mut at, self.vars, self.except, Some((i, v)));
        true
    }

    fn name(&self) -> &str {
        "all-different (domain)"
    }
}
