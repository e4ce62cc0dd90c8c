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
//!
//! # Reasons
//! In explaining mode each change and failure is explained by a cut of
//! the network (see the `impl` block of the reasons below): a set of nodes
//! that no residual edge leaves, found by the same breadth-first searches,
//! and stated as the literals that make it a cut — the variables' missing
//! values and bounds, the counts' bounds and the fixed variables that use
//! part of them. Only the variables and counts of the cut are named, not
//! the whole scope. Outside explaining mode none of it runs.

use crate::constraint::Pruner;
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::propagation::{Events, Premises, Priority, Propagator, Setup};

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
    /// Per variable: its node in this call, or `NONE` when it was fixed.
    node: Vec<u32>,
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
    /// In explaining mode, the flows that give a count its least and its
    /// greatest value (the reasons of the counts' bounds read them).
    least_assign: Vec<u32>,
    least_flow: Vec<u32>,
    most_assign: Vec<u32>,
    most_flow: Vec<u32>,
}

/// Where the flow could not be completed (the failure's reason reads it).
#[derive(Clone, Copy, Debug)]
enum Stuck {
    /// Value `k`'s count is below its fixed variables (`true`) or above
    /// every variable not fixed to another value (`false`).
    Count(usize, bool),
    /// Variable node `i` has no augmenting path.
    Place(usize),
    /// Value `k` cannot be raised to its lower bound.
    Raise(usize),
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
            node: vec![NONE; n],
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
            least_assign: Vec::new(),
            least_flow: Vec::new(),
            most_assign: Vec::new(),
            most_flow: Vec::new(),
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
    fn load(&mut self, p: &Pruner<'_>) -> Result<(), Stuck> {
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
                self.node[pos] = NONE;
                continue;
            }
            let i = self.act.len();
            self.node[pos] = i as u32;
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
                return Err(Stuck::Count(k, hi < 0));
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
    fn repair(&mut self) -> Result<(), Stuck> {
        for i in 0..self.na {
            if self.assign[i] == NONE {
                self.seeds.clear();
                self.seeds.push(i as u32);
                if !self.push_out(NONE) {
                    return Err(Stuck::Place(i));
                }
            }
        }
        for k in 0..self.values.len() {
            while self.flow[k] < self.lo[k] {
                if !self.raise(k) {
                    return Err(Stuck::Raise(k));
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
                    let because = |r: &mut Premises<'_>| self.residual_cut(r, c as usize);
                    p.remove(x, self.values[c as usize], because)?;
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
        let slack = self.values.len();
        let cut = |r: &mut Premises<'_>| self.residual_cut(r, slack);
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
            p.retain_word(x, keep, cut)?;
            return Ok(());
        }
        let first = self.sorted.iter().find(|e| p.contains(x, e.0));
        let last = self.sorted.iter().rev().find(|e| p.contains(x, e.0));
        let (Some(&(first, _)), Some(&(last, _))) = (first, last) else {
            // Not reached (the value x's flow takes stays), but sound: the
            // cut leaves x the listed values, and it has none.
            let all = vec![true; slack];
            return Err(p.fail(|r: &mut Premises<'_>| {
                self.residual_cut(r, slack);
                self.exclude(r, x, &all);
            }));
        };
        // The cut leaves `x` the listed values; its bound and the listed
        // values it lacks leave it those from `first` (or up to `last`) on.
        p.set_min(x, first, |r: &mut Premises<'_>| {
            self.residual_cut(r, slack);
            let lo = r.min(x);
            r.push(Literal::Ge(x, lo));
            for &(w, _) in self.sorted.iter().take_while(|e| e.0 < first) {
                if w > lo {
                    r.push(Literal::Ne(x, w));
                }
            }
        })?;
        p.set_max(x, last, |r: &mut Premises<'_>| {
            self.residual_cut(r, slack);
            let hi = r.max(x);
            r.push(Literal::Le(x, hi));
            for &(w, _) in self.sorted.iter().rev().take_while(|e| e.0 > last) {
                if w < hi {
                    r.push(Literal::Ne(x, w));
                }
            }
        })?;
        if p.size(x) <= MAX_SCAN {
            p.retain(x, |v| self.listed(v).is_some(), cut)?;
        }
        Ok(())
    }

    /// Step 5: each count between the least and the greatest flow of its
    /// value.
    fn prune_counts(&mut self, p: &mut Pruner<'_>) -> Result<(), Conflict> {
        let (n, m) = (self.na, self.values.len());
        let t = n + m + 1;
        let explaining = p.explaining();
        for k in 0..m {
            let (mut least, mut most) = (self.flow[k], self.flow[k]);
            // The flows the reasons read: this one unless explored below.
            let mut extreme = false;
            if self.comp[n + k] == self.comp[t] {
                extreme = explaining;
                self.saved_assign.copy_from_slice(&self.assign);
                self.saved_flow.copy_from_slice(&self.flow);
                while self.flow[k] < self.hi[k] && self.raise(k) {}
                most = self.flow[k];
                if explaining {
                    self.most_assign.clone_from(&self.assign);
                    self.most_flow.clone_from(&self.flow);
                }
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
                if explaining {
                    self.least_assign.clone_from(&self.assign);
                    self.least_flow.clone_from(&self.flow);
                }
                self.assign.copy_from_slice(&self.saved_assign);
                self.flow.copy_from_slice(&self.saved_flow);
            }
            // At most n: fits a Value for any scope a model can hold.
            let clamp = |f: u32| Value::try_from(f + self.fixed[k]).unwrap_or(Value::MAX);
            let this = &*self;
            let (assign, flow) = match extreme {
                true => (&this.least_assign[..], &this.least_flow[..]),
                false => (&this.assign[..], &this.flow[..]),
            };
            p.set_min(this.counts[k], clamp(least), |r: &mut Premises<'_>| {
                let seeds: Vec<usize> = (0..n).filter(|&z| assign[z] == k as u32).collect();
                this.push_cut(r, &seeds, Some(k), assign, flow);
            })?;
            let (assign, flow) = match extreme {
                true => (&this.most_assign[..], &this.most_flow[..]),
                false => (&this.assign[..], &this.flow[..]),
            };
            p.set_max(this.counts[k], clamp(most), |r: &mut Premises<'_>| {
                this.raise_cut(r, k, false, assign, flow);
            })?;
        }
        Ok(())
    }
}

/// Reasons, computed only in explaining mode (each closure given to the
/// pruner runs only then), from the flow of the call and the domains just
/// before the write. Each is a cut of the network: a set of nodes no
/// residual edge leaves, stated as literals — the variables' domains
/// that keep them on their side (`x ≠ w` and bounds), the counts' bounds
/// that cap or fill its values (`[c ≤ u]`, `[c ≥ l]`) and the fixed
/// variables that take them. A Hall set with capacities, as `hall.rs`
/// finds for all-different; the literal form follows Katsirelos (PhD
/// thesis, Toronto 2009, §6) and the flow cuts of Downing, Feydy and
/// Stuckey ("Explaining flow-based propagation", CPAIOR 2012).
impl GccFlow<'_> {
    /// Pushes `x = v` for each variable that was fixed to listed value `k`
    /// when the call began (they use part of its count).
    fn fixed_at(&self, r: &mut Premises<'_>, k: usize) {
        if self.fixed[k] == 0 {
            return;
        }
        let v = self.values[k];
        for (pos, &x) in self.vars.iter().enumerate() {
            if self.node[pos] == NONE && r.value(x) == Some(v) {
                r.push(Literal::Eq(x, v));
            }
        }
    }

    /// Pushes why at most `hi[k]` variables of the network take value `k`:
    /// its count's maximum and the fixed variables that take it.
    fn cap(&self, r: &mut Premises<'_>, k: usize) {
        r.push(Literal::Le(self.counts[k], r.max(self.counts[k])));
        self.fixed_at(r, k);
    }

    /// Pushes why at least `lo[k] + fixed[k]` variables take value `k`:
    /// its count's minimum, or the fixed variables when they are more.
    fn need(&self, r: &mut Premises<'_>, k: usize) {
        let least = r.min(self.counts[k]);
        if least as i64 >= i64::from(self.fixed[k]) {
            if least > 0 {
                r.push(Literal::Ge(self.counts[k], least));
            }
        } else {
            self.fixed_at(r, k);
        }
    }

    /// Pushes why `y` takes a value of `inside` (per value node; the
    /// slack node stands for every unlisted value): its domain lies in it.
    fn within(&self, r: &mut Premises<'_>, y: VarId, inside: &[bool]) {
        let slack = inside[self.values.len()];
        r.domain_within(y, |u| match self.listed(u) {
            Some(k) => inside[k as usize],
            None => slack,
        });
    }

    /// Pushes why `y` takes no listed value of `set` (which its domain
    /// misses): each is below its minimum, above its maximum or missing
    /// between them.
    fn exclude(&self, r: &mut Premises<'_>, y: VarId, set: &[bool]) {
        let (lo, hi) = (r.min(y), r.max(y));
        let (mut below, mut above) = (false, false);
        for (k, &w) in self.values.iter().enumerate() {
            if !set[k] {
                continue;
            }
            if w < lo {
                below = true;
            } else if w > hi {
                above = true;
            } else {
                r.push(Literal::Ne(y, w));
            }
        }
        if below {
            r.push(Literal::Ge(y, lo));
        }
        if above {
            r.push(Literal::Le(y, hi));
        }
    }

    /// Pushes why the variables that can take a value of `set` (per
    /// listed value) are only the network's `able` ones and the variables
    /// fixed inside `set`: the others' domains miss it. `false`, pushing
    /// nothing, if one of the others still holds a value of `set` (the
    /// caller then falls back).
    fn others_miss(&self, r: &mut Premises<'_>, set: &[bool], able: &[bool]) -> bool {
        let unable = |pos: usize| {
            let i = self.node[pos];
            i != NONE && !able[i as usize]
        };
        let holds = |r: &Premises<'_>, y: VarId| {
            (self.values.iter().zip(set)).any(|(&w, &s)| s && r.contains(y, w))
        };
        if (0..self.vars.len()).any(|pos| unable(pos) && holds(r, self.vars[pos])) {
            return false;
        }
        for (pos, &y) in self.vars.iter().enumerate() {
            if self.node[pos] == NONE {
                let Some(v) = r.value(y) else { continue };
                if !self.listed(v).is_some_and(|k| set[k as usize]) {
                    r.push(Literal::Eq(y, v));
                }
            } else if unable(pos) {
                self.exclude(r, y, set);
            }
        }
        true
    }

    /// The last resort, should a cut not be found (it always is): every
    /// variable's and count's domain.
    fn whole_scope(&self, r: &mut Premises<'_>) {
        for &y in self.vars.iter().chain(self.counts) {
            r.domain(y);
        }
    }

    /// Why the edge from a variable to value node `c` lies in no feasible
    /// flow: the nodes `R` the residual graph reaches from `c` (the
    /// variable is not among them, or the edge would close a cycle). No
    /// residual edge leaves `R`, so either
    /// * `t ∉ R`: the values of `R` are full and its variables' domains lie
    ///   in them, as many variables as the values' capacity — their
    ///   domains and the counts' maxima (a Hall set with capacities); or
    /// * `t ∈ R`: the values outside `R` are at their lower bounds, filled
    ///   by the variables outside `R`, which then all must take them: the
    ///   counts' minima and why no one else can take those values.
    fn residual_cut(&self, r: &mut Premises<'_>, c: usize) {
        let (n, m) = (self.na, self.values.len());
        let t = n + m + 1;
        let mut reached = vec![false; t + 1];
        let mut queue = vec![n + c];
        reached[n + c] = true;
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let (a, b) = (self.succ_start[u], self.succ_start[u + 1]);
            for &w in &self.succ[a as usize..b as usize] {
                if !reached[w as usize] {
                    reached[w as usize] = true;
                    queue.push(w as usize);
                }
            }
        }
        let inside = &reached[n..n + m + 1];
        if !reached[t] {
            if inside[m] {
                return self.whole_scope(r);
            }
            for (i, &pos) in self.act.iter().enumerate() {
                if reached[i] {
                    self.within(r, self.vars[pos as usize], inside);
                }
            }
            for k in (0..m).filter(|&k| inside[k]) {
                self.cap(r, k);
            }
        } else {
            let outside: Vec<bool> = inside[..m].iter().map(|&b| !b).collect();
            let able: Vec<bool> = reached[..n].iter().map(|&b| !b).collect();
            if !self.others_miss(r, &outside, &able) {
                return self.whole_scope(r);
            }
            for k in (0..m).filter(|&k| outside[k]) {
                self.need(r, k);
            }
        }
    }

    /// Why the variables `seeds` (and, with `from`, the variables fixed
    /// to it) cannot all leave value `from`, or (without) cannot all be
    /// placed: the values a search from them reaches are full, and the
    /// variables it reaches have their domains inside those values and
    /// `from` — more variables than the reached values hold.
    fn push_cut(
        &self,
        r: &mut Premises<'_>,
        seeds: &[usize],
        from: Option<usize>,
        assign: &[u32],
        flow: &[u32],
    ) {
        let (n, m1) = (self.na, self.values.len() + 1);
        let mut reached = vec![false; m1];
        let mut member = vec![false; n];
        let mut queue: Vec<usize> = Vec::new();
        if let Some(k) = from {
            reached[k] = true;
        }
        let mut stack: Vec<usize> = seeds.to_vec();
        for &z in seeds {
            member[z] = true;
        }
        while let Some(z) = stack.pop() {
            for e in self.start[z]..self.start[z + 1] {
                let c = self.adj[e as usize] as usize;
                if reached[c] {
                    continue;
                }
                if flow[c] < self.hi[c] || c == m1 - 1 {
                    return self.whole_scope(r);
                }
                reached[c] = true;
                queue.push(c);
                for y in 0..n {
                    if assign[y] == c as u32 && !member[y] {
                        member[y] = true;
                        stack.push(y);
                    }
                }
            }
        }
        for (i, &pos) in self.act.iter().enumerate() {
            if member[i] {
                self.within(r, self.vars[pos as usize], &reached);
            }
        }
        for &c in &queue {
            self.cap(r, c);
        }
        if let Some(k) = from {
            self.fixed_at(r, k);
        }
    }

    /// Why value `k` cannot have more variables than it has (`with_k`
    /// false) or (`with_k`) as many as it needs: the values `D` from
    /// which a variable could be moved to `k` are at their lower bounds,
    /// and no variable but those taking `D` can take a value of `D`.
    fn raise_cut(
        &self,
        r: &mut Premises<'_>,
        k: usize,
        with_k: bool,
        assign: &[u32],
        flow: &[u32],
    ) {
        let (n, m1) = (self.na, self.values.len() + 1);
        let mut reached = vec![false; m1];
        reached[k] = true;
        let mut queue = vec![k];
        let mut head = 0;
        while let Some(&c) = queue.get(head) {
            head += 1;
            for (z, &a) in assign[..n].iter().enumerate() {
                if !self.edge[z * m1 + c] || a == c as u32 {
                    continue;
                }
                let d = a as usize;
                if d < m1 && reached[d] {
                    continue;
                }
                if d >= m1 || flow[d] > self.lo[d] || d == m1 - 1 {
                    return self.whole_scope(r);
                }
                reached[d] = true;
                queue.push(d);
            }
        }
        let able: Vec<bool> = assign[..n]
            .iter()
            .map(|&a| a != NONE && reached[a as usize])
            .collect();
        if !self.others_miss(r, &reached[..m1 - 1], &able) {
            return self.whole_scope(r);
        }
        for &d in &queue {
            if d != k || with_k {
                self.need(r, d);
            }
        }
    }

    /// Why the flow could not be completed.
    fn stuck_reason(&self, r: &mut Premises<'_>, stuck: Stuck) {
        match stuck {
            Stuck::Count(k, true) => self.cap(r, k),
            Stuck::Count(k, false) => {
                r.push(Literal::Ge(self.counts[k], r.min(self.counts[k])));
                let mut only = vec![false; self.values.len()];
                only[k] = true;
                let able = vec![true; self.na];
                if !self.others_miss(r, &only, &able) {
                    self.whole_scope(r);
                }
            }
            Stuck::Place(i) => self.push_cut(r, &[i], None, &self.assign, &self.flow),
            Stuck::Raise(k) => self.raise_cut(r, k, true, &self.assign, &self.flow),
        }
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
        if let Err(stuck) = self.load(p).and_then(|()| self.repair()) {
            let this = &*self;
            return Err(p.fail(|r: &mut Premises<'_>| this.stuck_reason(r, stuck)));
        }
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
