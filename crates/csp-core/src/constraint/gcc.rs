//! The flow-based propagator of the open global cardinality constraint
//! (Régin, "Generalized arc consistency for global cardinality
//! constraint", AAAI 1996), with the counts' bounds from the same flow.
//!
//! # The network
//! One node per variable, one per listed value, one *slack* node standing
//! for every value not listed (those are unconstrained, so one node of
//! capacity `n` serves them all) and a sink `t`. A variable has an edge to
//! each listed value in its domain and to the slack node when its domain
//! holds an unlisted value. Value `k` sends between `lo[k]` and `hi[k]`
//! units to `t`: the bounds of its count variable clamped to `0..=n`. A
//! solution is a flow that gives every variable exactly one unit. Fixed
//! variables stay out of the network: each lowers its value's bounds by
//! one, so deep in the search a call works on the unfixed variables only.
//! The variables and counts are distinct (a repeated variable sends the
//! constraint to the checker path, see [`Model::post`](crate::Model::post)).
//!
//! # The algorithm, per call
//! 1. Read the edges (O(n·m) `contains` tests for `m` listed values, or a
//!    scan of the domain when it is smaller than `m`).
//! 2. Repair the flow kept from the last call (a plain field: each kept
//!    assignment is dropped if its value left the domain or its value is
//!    over its new capacity): each unassigned variable is placed by a
//!    breadth-first augmenting path that ends at a value below `hi`
//!    ([`GccFlow::push_out`]); then each value below `lo` is raised by a
//!    path that takes a variable from a value above its `lo`
//!    ([`GccFlow::raise`]). No path: conflict.
//! 3. Tarjan's strongly connected components of the residual graph:
//!    variable → value for an edge not used, value → variable for one used,
//!    value → `t` below `hi`, `t` → value above `lo`.
//! 4. An unused edge lies in some feasible flow exactly when its ends are
//!    in one component: the others are removed (for the slack node: every
//!    unlisted value). Domain consistency on the variables, with respect to
//!    the counts' bounds.
//! 5. Each count's bounds become the least and greatest flow its value can
//!    carry (the achievable flows of one value form an interval, the flow
//!    polytope being integral). A value whose node is in another component
//!    than `t` can carry only its current flow; otherwise the flow is pushed
//!    up with [`GccFlow::raise`] and down with [`GccFlow::push_out`] on a
//!    copy, one unit per path, then restored. Bounds consistency on the
//!    counts, with respect to the variables' domains and the other counts'
//!    bounds.
//!
//! With `n` unfixed variables, `m` listed values and `e ≤ n·(m + 1)` edges, one
//! path search costs O(n·m + e); a call costs O(n·m + e) for steps 1, 3 and
//! 4, one path search per variable or unit of lower bound the repair needs
//! (none when nothing the flow uses was removed), and in step 5 up to one
//! path search per unit a count can move, so O(n·(n·m + e)) per count in
//! the worst case, only for the counts that are not already decided.
//! Only values are compared, never subtracted: domains anywhere in the `i32`
//! range are fine. Unlisted values are removed one by one only from
//! domains of at most 65,536 values; a larger domain is cut to the listed
//! values' range (bounds consistency, not domain consistency, on it).

use crate::constraint::{Pruner, Why};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::propagation::{Events, Priority, Propagator, Setup};

const NONE: u32 = u32::MAX;

/// The most values a large domain may hold for the unlisted ones to be
/// removed one by one.
const MAX_SCAN: u64 = 1 << 16;

/// The propagator of [`GlobalCardinality`](super::GlobalCardinality).
#[derive(Debug)]
pub(crate) struct GccFlow<'a> {
    vars: &'a [VarId],
    counts: &'a [VarId],
    values: &'a [Value],
    /// The listed values, sorted, each with its index.
    sorted: Vec<(Value, u32)>,
    /// Per value node (the listed values, then the slack node `m`): the
    /// bounds of its flow and its flow.
    lo: Vec<u32>,
    hi: Vec<u32>,
    flow: Vec<u32>,
    /// Per listed value, the fixed variables that take it.
    fixed: Vec<u32>,
    /// Per variable: its value node, or `NONE` (kept between calls).
    keep: Vec<u32>,
    /// The unfixed variables (the nodes of this call), their number, and
    /// per node its value node.
    act: Vec<u32>,
    na: usize,
    assign: Vec<u32>,
    /// Per variable, its value nodes: `adj[start[i]..start[i + 1]]`; and
    /// the same as a matrix, `edge[i·(m + 1) + k]`.
    start: Vec<u32>,
    adj: Vec<u32>,
    edge: Vec<bool>,
    /// Path search: per value node, whether reached, the variable that
    /// reached it and (for `raise`) the value that variable moves to.
    seen: Vec<bool>,
    pred: Vec<u32>,
    to: Vec<u32>,
    queue: Vec<u32>,
    seeds: Vec<u32>,
    /// The residual graph (variables, value nodes, `t`) and its components.
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    comp: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<u32>,
    on_stack: Vec<bool>,
    call: Vec<(u32, u32)>,
    /// A copy of `assign` and `flow` while a count's range is explored.
    saved_assign: Vec<u32>,
    saved_flow: Vec<u32>,
}

impl<'a> GccFlow<'a> {
    pub(crate) fn new(vars: &'a [VarId], counts: &'a [VarId], values: &'a [Value]) -> Self {
        let (n, m1) = (vars.len(), values.len() + 1);
        let mut sorted: Vec<(Value, u32)> = values
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, k as u32))
            .collect();
        sorted.sort_unstable();
        let nodes = n + m1 + 1;
        GccFlow {
            vars,
            counts,
            values,
            sorted,
            lo: vec![0; m1],
            hi: vec![0; m1],
            flow: vec![0; m1],
            fixed: vec![0; m1],
            keep: vec![NONE; n],
            act: Vec::with_capacity(n),
            na: 0,
            assign: vec![NONE; n],
            start: Vec::with_capacity(n + 1),
            adj: Vec::new(),
            edge: vec![false; n * m1],
            seen: vec![false; m1],
            pred: vec![NONE; m1],
            to: vec![NONE; m1],
            queue: Vec::with_capacity(m1),
            seeds: Vec::with_capacity(n),
            succ_start: Vec::with_capacity(nodes + 1),
            succ: Vec::new(),
            comp: vec![NONE; nodes],
            index: vec![NONE; nodes],
            low: vec![0; nodes],
            stack: Vec::with_capacity(nodes),
            on_stack: vec![false; nodes],
            call: Vec::with_capacity(nodes),
            saved_assign: vec![NONE; n],
            saved_flow: vec![0; m1],
        }
    }

    /// The index of listed value `v`.
    fn listed(&self, v: Value) -> Option<u32> {
        self.sorted
            .binary_search_by_key(&v, |e| e.0)
            .ok()
            .map(|j| self.sorted[j].1)
    }

    /// Step 1 and the first half of step 2: edges, capacities, the kept
    /// flow minus what no longer fits. `Err` when a count has no room.
    fn load(&mut self, p: &Pruner<'_>) -> Result<(), Conflict> {
        let m = self.values.len();
        let m1 = m + 1;
        self.start.clear();
        self.adj.clear();
        self.start.push(0);
        self.edge.fill(false);
        self.act.clear();
        // The fixed variables leave the network, their values' bounds
        // lowered by one each.
        self.fixed.fill(0);
        for (pos, &x) in self.vars.iter().enumerate() {
            if let Some(v) = p.value(x) {
                if let Some(k) = self.listed(v) {
                    self.fixed[k as usize] += 1;
                }
                continue;
            }
            let i = self.act.len();
            self.act.push(pos as u32);
            let size = p.size(x);
            let mut listed = 0u64;
            if size < m as u64 {
                for v in p.values(x) {
                    if let Some(k) = self.listed(v) {
                        self.edge[i * m1 + k as usize] = true;
                        listed += 1;
                    }
                }
            } else {
                for (k, &v) in self.values.iter().enumerate() {
                    if p.contains(x, v) {
                        self.edge[i * m1 + k] = true;
                        listed += 1;
                    }
                }
            }
            self.edge[i * m1 + m] = size > listed;
            for k in 0..m1 {
                if self.edge[i * m1 + k] {
                    self.adj.push(k as u32);
                }
            }
            self.start.push(self.adj.len() as u32);
            let a = self.keep[pos];
            self.assign[i] = if a != NONE && self.edge[i * m1 + a as usize] {
                a
            } else {
                NONE
            };
        }
        let n = self.act.len();
        self.na = n;
        let top = n as i64;
        for (k, &c) in self.counts.iter().enumerate() {
            let fixed = i64::from(self.fixed[k]);
            let (lo, hi) = (p.min(c) as i64 - fixed, p.max(c) as i64 - fixed);
            if hi < 0 || lo > top {
                return Err(Conflict);
            }
            self.lo[k] = lo.max(0) as u32;
            self.hi[k] = hi.min(top) as u32;
        }
        self.lo[m] = 0;
        self.hi[m] = n as u32;
        self.flow.fill(0);
        for a in self.assign[..n].iter_mut() {
            if *a != NONE {
                if self.flow[*a as usize] == self.hi[*a as usize] {
                    *a = NONE;
                } else {
                    self.flow[*a as usize] += 1;
                }
            }
        }
        Ok(())
    }

    /// Marks the value nodes of variable `z` not yet reached as reached
    /// from it.
    fn expand(&mut self, z: usize) {
        for e in self.start[z]..self.start[z + 1] {
            let c = self.adj[e as usize] as usize;
            if !self.seen[c] {
                self.seen[c] = true;
                self.pred[c] = z as u32;
                self.queue.push(c as u32);
            }
        }
    }

    /// Moves one of the variables in `seeds` (all unassigned, or all
    /// assigned to `from`) to another value, along a path of variables
    /// that each take the next one's value, ending at a value below its
    /// `hi`. `false` if there is no such path.
    fn push_out(&mut self, from: u32) -> bool {
        self.seen.fill(false);
        self.queue.clear();
        if from != NONE {
            self.seen[from as usize] = true;
        }
        let seeds = std::mem::take(&mut self.seeds);
        for &z in &seeds {
            self.expand(z as usize);
        }
        self.seeds = seeds;
        let mut head = 0;
        while head < self.queue.len() {
            let mut c = self.queue[head] as usize;
            head += 1;
            if self.flow[c] < self.hi[c] {
                self.flow[c] += 1;
                loop {
                    let z = self.pred[c] as usize;
                    let old = self.assign[z];
                    self.assign[z] = c as u32;
                    if old == from || old == NONE {
                        if old != NONE {
                            self.flow[old as usize] -= 1;
                        }
                        return true;
                    }
                    c = old as usize;
                }
            }
            for z in 0..self.na {
                if self.assign[z] == c as u32 {
                    self.expand(z);
                }
            }
        }
        false
    }

    /// Gives value `k` one more variable, taken along a path from a value
    /// above its `lo`. `false` if there is no such path.
    fn raise(&mut self, k: usize) -> bool {
        let m1 = self.values.len() + 1;
        self.seen.fill(false);
        self.queue.clear();
        self.seen[k] = true;
        self.queue.push(k as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head] as usize;
            head += 1;
            for z in 0..self.na {
                let d = self.assign[z] as usize;
                if !self.edge[z * m1 + c] || self.seen[d] {
                    continue;
                }
                self.seen[d] = true;
                self.pred[d] = z as u32;
                self.to[d] = c as u32;
                if self.flow[d] > self.lo[d] {
                    self.flow[d] -= 1;
                    let mut d = d;
                    loop {
                        let c = self.to[d] as usize;
                        self.assign[self.pred[d] as usize] = c as u32;
                        if c == k {
                            self.flow[k] += 1;
                            return true;
                        }
                        d = c;
                    }
                }
                self.queue.push(d as u32);
            }
        }
        false
    }

    /// The second half of step 2: a flow within every bound that gives each
    /// variable one unit.
    fn repair(&mut self) -> Result<(), Conflict> {
        for i in 0..self.na {
            if self.assign[i] == NONE {
                self.seeds.clear();
                self.seeds.push(i as u32);
                if !self.push_out(NONE) {
                    return Err(Conflict);
                }
            }
        }
        for k in 0..self.values.len() {
            while self.flow[k] < self.lo[k] {
                if !self.raise(k) {
                    return Err(Conflict);
                }
            }
        }
        for (i, &pos) in self.act.iter().enumerate() {
            self.keep[pos as usize] = self.assign[i];
        }
        Ok(())
    }

    /// Step 3: the residual graph and its strongly connected components
    /// (Tarjan's algorithm, iterative).
    fn components(&mut self) {
        let (n, m1) = (self.na, self.values.len() + 1);
        let t = n + m1;
        self.succ_start.clear();
        self.succ.clear();
        for i in 0..n {
            self.succ_start.push(self.succ.len() as u32);
            for e in self.start[i]..self.start[i + 1] {
                let c = self.adj[e as usize];
                if c != self.assign[i] {
                    self.succ.push((n + c as usize) as u32);
                }
            }
        }
        for c in 0..m1 {
            self.succ_start.push(self.succ.len() as u32);
            for z in 0..n {
                if self.assign[z] == c as u32 {
                    self.succ.push(z as u32);
                }
            }
            if self.flow[c] < self.hi[c] {
                self.succ.push(t as u32);
            }
        }
        self.succ_start.push(self.succ.len() as u32);
        for c in 0..m1 {
            if self.flow[c] > self.lo[c] {
                self.succ.push((n + c) as u32);
            }
        }
        self.succ_start.push(self.succ.len() as u32);
        self.index.fill(NONE);
        let mut counter = 0u32;
        let mut ncomp = 0u32;
        for root in 0..=t {
            if self.index[root] != NONE {
                continue;
            }
            self.open(root, &mut counter);
            while let Some(&(u, e)) = self.call.last() {
                let u = u as usize;
                if e < self.succ_start[u + 1] {
                    let top = self.call.len() - 1;
                    self.call[top].1 += 1;
                    let w = self.succ[e as usize] as usize;
                    if self.index[w] == NONE {
                        self.open(w, &mut counter);
                    } else if self.on_stack[w] {
                        self.low[u] = self.low[u].min(self.index[w]);
                    }
                    continue;
                }
                self.call.pop();
                if let Some(&(parent, _)) = self.call.last() {
                    let parent = parent as usize;
                    self.low[parent] = self.low[parent].min(self.low[u]);
                }
                if self.low[u] == self.index[u] {
                    loop {
                        let w = self.stack.pop().expect("u is on the stack") as usize;
                        self.on_stack[w] = false;
                        self.comp[w] = ncomp;
                        if w == u {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }

    fn open(&mut self, u: usize, counter: &mut u32) {
        self.index[u] = *counter;
        self.low[u] = *counter;
        *counter += 1;
        self.stack.push(u as u32);
        self.on_stack[u] = true;
        self.call.push((u as u32, self.succ_start[u]));
    }

    /// Step 4: removes the values whose edges lie in no feasible flow.
    fn prune_vars(&self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (n, m) = (self.na, self.values.len());
        for (i, &pos) in self.act.iter().enumerate() {
            let x = self.vars[pos as usize];
            for e in self.start[i]..self.start[i + 1] {
                let c = self.adj[e as usize];
                if c == self.assign[i] || self.comp[i] == self.comp[n + c as usize] {
                    continue;
                }
                if (c as usize) < m {
                    p.remove(x, self.values[c as usize], Why::Scope)?;
                } else {
                    self.drop_unlisted(p, x)?;
                }
            }
        }
        Ok(())
    }

    /// Removes the values not listed from `x` (whose flow goes to a listed
    /// value, so some listed value stays).
    fn drop_unlisted(&self, p: &mut Pruner<'_>, x: VarId) -> Result<(), Conflict> {
        if let Some((bits, base)) = p.word(x) {
            let mut keep = 0u64;
            let mut b = bits;
            while b != 0 {
                let k = b.trailing_zeros();
                if self.listed(base + k as Value).is_some() {
                    keep |= 1 << k;
                }
                b &= b - 1;
            }
            p.retain_word(x, keep, Why::Scope)?;
            return Ok(());
        }
        let first = self.sorted.iter().find(|e| p.contains(x, e.0));
        let last = self.sorted.iter().rev().find(|e| p.contains(x, e.0));
        let (Some(&(first, _)), Some(&(last, _))) = (first, last) else {
            return Err(Conflict);
        };
        p.set_min(x, first, Why::Scope)?;
        p.set_max(x, last, Why::Scope)?;
        if p.size(x) <= MAX_SCAN {
            p.retain(x, |v| self.listed(v).is_some(), Why::Scope)?;
        }
        Ok(())
    }

    /// Step 5: each count between the least and the greatest flow of its
    /// value.
    fn prune_counts(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (n, m) = (self.na, self.values.len());
        let t = n + m + 1;
        for k in 0..m {
            let (mut least, mut most) = (self.flow[k], self.flow[k]);
            if self.comp[n + k] == self.comp[t] {
                self.saved_assign.copy_from_slice(&self.assign);
                self.saved_flow.copy_from_slice(&self.flow);
                while self.flow[k] < self.hi[k] && self.raise(k) {}
                most = self.flow[k];
                self.assign.copy_from_slice(&self.saved_assign);
                self.flow.copy_from_slice(&self.saved_flow);
                while self.flow[k] > self.lo[k] {
                    self.seeds.clear();
                    for z in 0..n {
                        if self.assign[z] == k as u32 {
                            self.seeds.push(z as u32);
                        }
                    }
                    if !self.push_out(k as u32) {
                        break;
                    }
                }
                least = self.flow[k];
                self.assign.copy_from_slice(&self.saved_assign);
                self.flow.copy_from_slice(&self.saved_flow);
            }
            // At most n: fits a Value for any scope a model can hold.
            let clamp = |f: u32| Value::try_from(f + self.fixed[k]).unwrap_or(Value::MAX);
            p.set_min(self.counts[k], clamp(least), Why::Scope)?;
            p.set_max(self.counts[k], clamp(most), Why::Scope)?;
        }
        Ok(())
    }
}

impl Propagator for GccFlow<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        // Once per variable, however often it is repeated.
        let mut subs: Vec<(VarId, usize, Events)> = self
            .vars
            .iter()
            .map(|&x| (x, Events::DOMAIN))
            .chain(self.counts.iter().map(|&c| (c, Events::BOUNDS)))
            .enumerate()
            .map(|(pos, (x, e))| (x, pos, e))
            .collect();
        subs.sort_by_key(|s| (s.0, s.1));
        subs.dedup_by_key(|s| s.0);
        for (x, pos, e) in subs {
            setup.subscribe(x, pos, e);
        }
    }

    fn wants_notify(&self) -> bool {
        false
    }

    fn propagate(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        self.load(p)?;
        self.repair()?;
        self.components();
        self.prune_vars(p)?;
        self.prune_counts(p)
    }

    fn priority(&self) -> Priority {
        Priority::Quadratic
    }

    fn name(&self) -> &str {
        "global-cardinality"
    }
}
