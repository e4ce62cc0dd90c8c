//! The backtracking engine: an iterative depth-first search over an explicit
//! stack of frames, one decision level per frame.
//!
//! One step of the loop (see [`Engine::step`]):
//! 1. *Descend*: after a consistent propagation, pick the next variable (the
//!    [`VarOrder`]). None left: the state is a solution. Counting, with one
//!    variable left whose every constraint has been checked: add its domain
//!    size instead of branching. Otherwise push a frame holding a snapshot of
//!    the values to try.
//! 2. *Branch*: return the store to the top frame's state with the level for
//!    its next value open (`DomainStore::reopen_level`: one snapshot copy per
//!    value), take its next value (the [`ValOrder`]), fix the variable,
//!    propagate (the [`Inference`] level). Success: descend. Wipe-out: count a
//!    failure and branch again. No value left: close the level and pop the
//!    frame (a backtrack).
//!
//! Forward checking runs two to four all-different constraints over the same
//! variables with one-word domains (N-queens' `x`, `x+i`, `x−i`) as one
//! *fused group*: a fixed position removes all its ids from every active peer
//! in one branch-free pass, and the peers that pass fixes are checked
//! together in the next pass (a *wave*) rather than one by one through the
//! queue. The active positions are bits of state words kept in the store
//! beside the domains, so a level's snapshot restores them too. When the
//! group's variables are consecutive (`x[0..n]`, as a model declares them),
//! its offsets are laid out eight positions to a block and a pass computes a
//! block at once: with AVX-512 in one vector operation per step (all eight
//! peers' masks, removals, wipe-out test and newly fixed peers), otherwise
//! peer by peer. A group no other constraint watches is *closed*: a
//! decision on one of its variables is forward-checked at once, with no
//! trip through the fixed queue and the propagation loop.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::constraint::Pruner;
use crate::domain::{set_bits, Conflict, DenseGroup, DomainStore, FusedPos, Ids};
use crate::ids::{Value, VarId};
use crate::limits::Limit;
use crate::model::{Model, Posted};
use crate::observer::SearchObserver;
use crate::search::{Inference, SearchOptions, ValOrder, VarOrder};
use crate::stats::Statistics;

/// Per-model data the search needs, computed once (shared by parallel parts).
#[derive(Debug)]
pub(crate) struct Prepared {
    /// CSR watch lists: for variable v, `watch[start[v]..start[v+1]]` are the
    /// (constraint, scope position) pairs it appears in.
    start: Vec<u32>,
    watch: Vec<(u32, u32)>,
    /// The watch lists for forward checking, where a group of all-different
    /// constraints over the same variables is one fused entry (index
    /// `num_constraints + group`).
    fc_start: Vec<u32>,
    fc_watch: Vec<(u32, u32)>,
    fused: Vec<FusedAllDiff>,
    /// Per variable: (group, position) when its only forward-checking watch
    /// is a closed fused group, else `NO_GROUP`.
    direct: Vec<(u32, u32)>,
}

const NO_GROUP: (u32, u32) = (u32::MAX, u32::MAX);

/// Two to four all-different constraints over the same variable list, all
/// with one-word domains: forward checking removes the ids of all of them in
/// one pass over the peers (N-queens' columns and both diagonals).
#[derive(Debug)]
struct FusedAllDiff {
    members: Vec<u32>,
    /// Per position: its variable and, for each member `t`, the member's
    /// offset at that position plus the variable's declared minimum (0 for
    /// unused members). One record per position keeps a peer's data on one
    /// cache line.
    pos: Vec<FusedPos>,
    g: usize,
    /// The offsets by chunks, when the group's variables are consecutive.
    dense: Option<DenseGroup>,
    /// No variable of the group has another forward-checking watch: a
    /// variable the group's waves fix needs no trip through the fixed queue.
    closed: bool,
}

impl FusedAllDiff {
    /// Forward checking from position `pos` (just fixed). The positions not
    /// yet fixed-and-checked are the set bits of the store's state words
    /// `state.first_word..` (restored on backtrack with the domains), so fixed
    /// peers are not visited again.
    #[inline]
    fn forward_check(
        &self,
        store: &mut DomainStore,
        state: &mut FusedState,
        pos: usize,
    ) -> Result<(), Conflict> {
        match self.g {
            2 => self.forward_check_g::<2>(store, state, pos),
            3 => self.forward_check_g::<3>(store, state, pos),
            _ => self.forward_check_g::<4>(store, state, pos),
        }
    }

    /// [`forward_check`](Self::forward_check), counting a wipe-out against
    /// the members' weights (for dom/wdeg).
    #[inline]
    fn check(
        &self,
        store: &mut DomainStore,
        state: &mut FusedState,
        weights: &mut [u32],
        pos: usize,
    ) -> Result<(), Conflict> {
        let r = self.forward_check(store, state, pos);
        if r.is_err() {
            for &m in &self.members {
                weights[m as usize] += 1;
            }
        }
        r
    }

    // Out of line: measured faster (the pass loop gets the registers to
    // itself) than inlined into `propagate`.
    #[inline(never)]
    fn forward_check_g<const G: usize>(
        &self,
        store: &mut DomainStore,
        state: &mut FusedState,
        pos: usize,
    ) -> Result<(), Conflict> {
        let w0 = state.first_word;
        let nw = self.pos.len().div_ceil(64);
        let (w, bit) = (w0 + pos / 64, 1u64 << (pos % 64));
        let word = store.word(w);
        if word & bit == 0 {
            // Checked already (at this level or above): its ids left every
            // peer then active, and the peers checked before it left their
            // ids out of its domain.
            return Ok(());
        }
        if !store.plain_small_updates() {
            store.set_word(w, word & !bit);
            let ids = self.ids::<G>(store, pos);
            let peers = &mut state.peers;
            peers.clear();
            peers.extend(set_bits(store.words(w0..w0 + nw)).map(|j| j as u32));
            return store.remove_ids_small::<G>(&self.pos, peers, ids);
        }
        // Waves: the positions a pass fixes are checked together in the
        // next pass, rather than one pass each.
        let FusedState {
            newly_fixed,
            batch_ids,
            ..
        } = state;
        let queue = !self.closed;
        store.set_word(w, word & !bit);
        let ids = self.ids::<G>(store, pos);
        let mut r = self.pass::<G>(store, w0..w0 + nw, Ids::One(ids), newly_fixed, queue)?;
        while r != 0 {
            let mut last = [0i64; G];
            let mut b = 0;
            for (wi, &fixed) in newly_fixed.iter().enumerate() {
                let mut a = fixed;
                store.set_word(w0 + wi, store.word(w0 + wi) & !a);
                while a != 0 {
                    let q = wi * 64 + a.trailing_zeros() as usize;
                    a &= a - 1;
                    let ids = self.ids::<G>(store, q);
                    // Positions fixed in the same wave have not seen each other.
                    for other in &batch_ids[..b] {
                        if (0..G).any(|t| other[t] == ids[t]) {
                            return Err(Conflict);
                        }
                    }
                    batch_ids[b][..G].copy_from_slice(&ids);
                    last = ids;
                    b += 1;
                }
            }
            // One position (the usual case): its ids go in registers.
            let ids = if r == 1 {
                Ids::One(last)
            } else {
                Ids::Many(&batch_ids[..r])
            };
            r = self.pass::<G>(store, w0..w0 + nw, ids, newly_fixed, queue)?;
        }
        Ok(())
    }

    /// One pass: removes `ids` from the active peers.
    #[inline(always)]
    fn pass<const G: usize>(
        &self,
        store: &mut DomainStore,
        active: std::ops::Range<usize>,
        ids: Ids<'_, G>,
        fixed: &mut [u64],
        queue: bool,
    ) -> Result<usize, Conflict> {
        match &self.dense {
            Some(d) => store.remove_ids_small_dense::<G>(d, active, ids, fixed, queue),
            None => store.remove_ids_small_plain::<G>(&self.pos, active, ids, fixed, queue),
        }
    }

    /// The ids (value plus offset, per member) of the fixed position `pos`.
    #[inline(always)]
    fn ids<const G: usize>(&self, store: &DomainStore, pos: usize) -> [i64; G] {
        let p = &self.pos[pos];
        let k = store.small_bits(p.var as usize).0.trailing_zeros() as i64;
        let mut ids = [0i64; G];
        for (id, adj) in ids.iter_mut().zip(&p.adj) {
            *id = k + adj;
        }
        ids
    }
}

/// Per-search state of a fused group: where its active-position words live
/// in the store, and scratch space for the waves.
#[derive(Clone, Debug)]
struct FusedState {
    first_word: usize,
    /// The positions one pass fixes (a bit per position).
    newly_fixed: Vec<u64>,
    /// The ids of the positions of the current wave.
    batch_ids: Vec<[i64; 4]>,
    /// The active positions, listed (for the general path).
    peers: Vec<u32>,
}

impl FusedState {
    /// Adds the group's words (every position active) to the store.
    fn new(k: usize, store: &mut DomainStore) -> FusedState {
        let mut first_word = None;
        for w in 0..k.div_ceil(64) {
            let bits = (k - w * 64).min(64);
            let word = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
            let at = store.add_word(word);
            first_word.get_or_insert(at);
        }
        FusedState {
            first_word: first_word.unwrap_or(0),
            newly_fixed: vec![0; k.div_ceil(64)],
            batch_ids: vec![[0; 4]; k],
            peers: Vec::with_capacity(k),
        }
    }
}

/// Builds CSR lists from (variable, entry) pairs.
fn csr(n: usize, entries: &[(usize, (u32, u32))]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut start = vec![0u32; n + 1];
    for &(v, _) in entries {
        start[v + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut list = vec![(0u32, 0u32); entries.len()];
    for &(v, e) in entries {
        list[fill[v] as usize] = e;
        fill[v] += 1;
    }
    (start, list)
}

impl Prepared {
    pub(crate) fn new(model: &Model, inference: Inference) -> Prepared {
        let n = model.num_vars();
        let posted = model.posted();
        let mut entries = Vec::new();
        for (ci, c) in posted.iter().enumerate() {
            for (pos, x) in c.scope().iter().enumerate() {
                entries.push((x.index(), (ci as u32, pos as u32)));
            }
        }
        let (start, watch) = csr(n, &entries);
        if inference != Inference::ForwardChecking {
            // The fused lists serve forward checking only.
            return Prepared {
                start,
                watch,
                fc_start: vec![0; n + 1],
                fc_watch: Vec::new(),
                fused: Vec::new(),
                direct: vec![NO_GROUP; n],
            };
        }

        // Group word-domain all-different constraints by their variable list.
        let mut groups: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        for (ci, c) in posted.iter().enumerate() {
            if let Posted::AllDifferent(a) = c {
                if let Some((vars, _)) = a.word_data() {
                    match groups.iter_mut().find(|g| g.0 == vars) {
                        Some(g) => g.1.push(ci as u32),
                        None => groups.push((vars.to_vec(), vec![ci as u32])),
                    }
                }
            }
        }
        let mut fused = Vec::new();
        let mut in_group = vec![false; posted.len()];
        for (vars, members) in groups {
            for chunk in members.chunks(4) {
                if chunk.len() < 2 {
                    continue;
                }
                let g = chunk.len();
                let mut pos: Vec<FusedPos> = vars
                    .iter()
                    .map(|&v| FusedPos {
                        adj: [0; 4],
                        var: v,
                    })
                    .collect();
                for (t, &ci) in chunk.iter().enumerate() {
                    in_group[ci as usize] = true;
                    if let Posted::AllDifferent(a) = &posted[ci as usize] {
                        let (_, a_adj) = a.word_data().expect("word data");
                        for (p, &a) in pos.iter_mut().zip(a_adj) {
                            p.adj[t] = a;
                        }
                    }
                }
                fused.push(FusedAllDiff {
                    members: chunk.to_vec(),
                    dense: DenseGroup::new(&pos),
                    pos,
                    g,
                    closed: false,
                });
            }
        }
        let mut fc_entries: Vec<(usize, (u32, u32))> = entries
            .iter()
            .filter(|(_, (ci, _))| !in_group[*ci as usize])
            .copied()
            .collect();
        for (gi, f) in fused.iter().enumerate() {
            for (pos, p) in f.pos.iter().enumerate() {
                fc_entries.push((p.var as usize, ((posted.len() + gi) as u32, pos as u32)));
            }
        }
        fc_entries.sort_by_key(|e| (e.0, e.1 .0));
        let (fc_start, fc_watch) = csr(n, &fc_entries);
        for f in &mut fused {
            f.closed = f.pos.iter().all(|p| {
                let v = p.var as usize;
                fc_start[v + 1] - fc_start[v] == 1
            });
        }
        let mut direct = vec![NO_GROUP; n];
        for (gi, f) in fused.iter().enumerate() {
            if f.closed {
                for (pos, p) in f.pos.iter().enumerate() {
                    direct[p.var as usize] = (gi as u32, pos as u32);
                }
            }
        }
        Prepared {
            start,
            watch,
            fc_start,
            fc_watch,
            fused,
            direct,
        }
    }

    #[inline]
    fn watches(&self, v: usize) -> &[(u32, u32)] {
        &self.watch[self.start[v] as usize..self.start[v + 1] as usize]
    }

    #[inline]
    fn fc_watches(&self, v: usize) -> &[(u32, u32)] {
        &self.fc_watch[self.fc_start[v] as usize..self.fc_start[v + 1] as usize]
    }

    fn degree(&self, v: usize) -> u32 {
        self.start[v + 1] - self.start[v]
    }
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    var: u32,
    level: u32,
    /// Values not yet tried (small domains), bit k = `base + k`.
    rem: u64,
    /// Cursors for large domains (meaning depends on the value order).
    a: Value,
    b: Value,
    started: bool,
    /// The value being tried.
    value: Value,
    /// The variable's closed fused group and position there, when its
    /// decisions are checked directly, else `NO_GROUP`.
    direct: (u32, u32),
}

/// What one call of [`Engine::step`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The store holds a solution.
    Solution,
    /// The space is exhausted.
    Done,
    /// A limit stopped the search.
    Limit(Limit),
}

/// A shared node budget for parallel searches.
pub(crate) type SharedNodes = Arc<AtomicU64>;

pub(crate) struct Engine<'a> {
    model: &'a Model,
    prep: Arc<Prepared>,
    pub(crate) store: DomainStore,
    opts: SearchOptions,
    frames: Vec<Frame>,
    pub(crate) stats: Statistics,
    weights: Vec<u32>,
    queue: std::collections::VecDeque<u32>,
    in_queue: Vec<bool>,
    changed: Vec<u32>,
    observer: Option<&'a mut dyn SearchObserver>,
    started: bool,
    finished: bool,
    descend: bool,
    /// Decisions replayed before the search proper (parallel subproblems).
    base_level: usize,
    start_time: Instant,
    rng: u64,
    next_check: u64,
    shared_nodes: Option<SharedNodes>,
    flushed_nodes: u64,
    scratch: Vec<Value>,
    /// `log` trace events are enabled (checked once per search).
    trace_enabled: bool,
    /// Per fused group: its search state (see `FusedAllDiff`).
    fused_sets: Vec<FusedState>,
    partial: Vec<Option<Value>>,
    /// Solutions found at or before the bottom shortcut (count mode).
    pub(crate) counted: u128,
    pub(crate) count_shortcut: bool,
    /// Decisions on variables of closed fused groups are forward-checked
    /// directly (forward checking with plain small-domain updates).
    direct: bool,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        model: &'a Model,
        prep: Arc<Prepared>,
        opts: SearchOptions,
        observer: Option<&'a mut dyn SearchObserver>,
    ) -> Engine<'a> {
        let (doms, var_dom) = model.declared();
        let mut store = DomainStore::new(doms, var_dom);
        let fused_sets = prep
            .fused
            .iter()
            .map(|f| FusedState::new(f.pos.len(), &mut store))
            .collect();
        store.track_changes = opts.inference == Inference::Mac;
        store.track_prunes = observer.is_some();
        let n = model.num_vars();
        let seed = match opts.val_order {
            ValOrder::Random { seed } => seed,
            _ => 0,
        };
        Engine {
            model,
            prep,
            store,
            frames: Vec::with_capacity(n.min(1 << 16)),
            stats: Statistics::default(),
            weights: vec![1; model.num_constraints()],
            queue: std::collections::VecDeque::with_capacity(model.num_constraints()),
            in_queue: vec![false; model.num_constraints()],
            changed: Vec::new(),
            count_shortcut: observer.is_none() && opts.inference != Inference::None,
            observer,
            started: false,
            finished: false,
            descend: false,
            base_level: 0,
            start_time: Instant::now(),
            rng: splitmix(seed ^ 0x9E37_79B9_7F4A_7C15),
            next_check: opts.limits.nodes.map_or(256, |n| n.clamp(1, 256)),
            shared_nodes: None,
            flushed_nodes: 0,
            scratch: Vec::new(),
            trace_enabled: false,
            fused_sets,
            partial: Vec::new(),
            counted: 0,
            direct: false,
            opts,
        }
    }

    pub(crate) fn set_shared_nodes(&mut self, s: SharedNodes) {
        self.shared_nodes = Some(s);
    }

    pub(crate) fn set_start_time(&mut self, t: Instant) {
        self.start_time = t;
    }

    /// The current values (valid when every variable is fixed).
    pub(crate) fn values(&self) -> Vec<Value> {
        (0..self.store.len()).map(|i| self.store.min(i)).collect()
    }

    pub(crate) fn elapsed_into_stats(&mut self) {
        self.stats.time = self.start_time.elapsed();
        self.stats.removals = self.store.removals;
        log::debug!("search statistics: {}", self.stats);
    }

    /// The decisions on the current path: (variable, value), root first.
    pub(crate) fn path(&self) -> Vec<(u32, Value)> {
        self.frames.iter().map(|f| (f.var, f.value)).collect()
    }

    pub(crate) fn depth(&self) -> usize {
        self.frames.len()
    }

    // ---- propagation -------------------------------------------------------

    /// Runs the root propagation. `Err` means the model has no solution.
    fn root(&mut self) -> Result<(), Conflict> {
        let posted = self.model.posted();
        match self.opts.inference {
            Inference::None => {
                // Check every constraint once against the declared singletons.
                self.store.fixed_queue.clear();
                for i in 0..self.store.len() {
                    if self.store.size(i) == 1 {
                        self.store.fixed_queue.push(i as u32);
                    }
                }
                self.propagate_none()?;
                for c in posted {
                    if c.scope().iter().all(|x| self.store.size(x.index()) == 1) {
                        self.check_fixed(c.as_dyn())?;
                    }
                }
                Ok(())
            }
            Inference::ForwardChecking => {
                for c in posted {
                    self.stats.propagations += 1;
                    c.propagate(&mut Pruner::new(&mut self.store))?;
                }
                // Every variable fixed so far (declared singletons included).
                self.store.fixed_queue.clear();
                for i in 0..self.store.len() {
                    if self.store.size(i) == 1 {
                        self.store.fixed_queue.push(i as u32);
                    }
                }
                self.propagate()
            }
            Inference::Mac => {
                for ci in 0..posted.len() {
                    self.enqueue(ci as u32);
                }
                self.store.fixed_queue.clear();
                self.propagate()
            }
        }
    }

    fn check_fixed(&mut self, c: &dyn crate::Constraint) -> Result<(), Conflict> {
        self.stats.propagations += 1;
        self.scratch.clear();
        for x in c.scope() {
            self.scratch.push(self.store.min(x.index()));
        }
        if c.is_satisfied(&self.scratch) {
            Ok(())
        } else {
            Err(Conflict)
        }
    }

    #[inline]
    fn enqueue(&mut self, c: u32) {
        if !self.in_queue[c as usize] {
            self.in_queue[c as usize] = true;
            self.queue.push_back(c);
        }
    }

    /// Propagates the pending events to a fixpoint of the inference level.
    fn propagate(&mut self) -> Result<(), Conflict> {
        let r = match self.opts.inference {
            Inference::None => self.propagate_none(),
            Inference::ForwardChecking => self.propagate_fc(),
            Inference::Mac => self.propagate_mac(),
        };
        if r.is_err() {
            self.store.clear_events();
            for &c in &self.queue {
                self.in_queue[c as usize] = false;
            }
            self.queue.clear();
        }
        self.flush_prunes();
        r
    }

    fn flush_prunes(&mut self) {
        if let Some(obs) = self.observer.as_deref_mut() {
            for &(x, v) in &self.store.prunes {
                obs.on_prune(VarId(x), v);
            }
        }
        self.store.prunes.clear();
    }

    fn propagate_none(&mut self) -> Result<(), Conflict> {
        let posted = self.model.posted();
        let prep = Arc::clone(&self.prep);
        let mut partial = std::mem::take(&mut self.partial);
        let mut result = Ok(());
        'outer: while let Some(x) = self.store.fixed_queue.pop() {
            for &(ci, _) in prep.watches(x as usize) {
                let c = posted[ci as usize].as_dyn();
                partial.clear();
                partial.extend(c.scope().iter().map(|y| {
                    let i = y.index();
                    (self.store.size(i) == 1).then(|| self.store.min(i))
                }));
                self.stats.propagations += 1;
                if !c.is_consistent_partial(&partial) {
                    self.weights[ci as usize] += 1;
                    result = Err(Conflict);
                    break 'outer;
                }
            }
        }
        self.partial = partial;
        result
    }

    #[inline]
    fn propagate_fc(&mut self) -> Result<(), Conflict> {
        let posted = self.model.posted();
        let prep = &*self.prep;
        while let Some(x) = self.store.fixed_queue.pop() {
            for &(ci, pos) in prep.fc_watches(x as usize) {
                self.stats.propagations += 1;
                let ci = ci as usize;
                if ci < posted.len() {
                    let r =
                        posted[ci].forward_check(&mut Pruner::new(&mut self.store), pos as usize);
                    if r.is_err() {
                        self.weights[ci] += 1;
                        return r;
                    }
                } else {
                    let g = ci - posted.len();
                    prep.fused[g].check(
                        &mut self.store,
                        &mut self.fused_sets[g],
                        &mut self.weights,
                        pos as usize,
                    )?;
                }
            }
        }
        Ok(())
    }

    fn propagate_mac(&mut self) -> Result<(), Conflict> {
        let posted = self.model.posted();
        let prep = &*self.prep;
        let mut changed = std::mem::take(&mut self.changed);
        let mut skip = u32::MAX;
        let result = (|| loop {
            self.store.take_changed(&mut changed);
            for &x in &changed {
                for &(ci, _) in prep.watches(x as usize) {
                    if ci != skip && !self.in_queue[ci as usize] {
                        self.in_queue[ci as usize] = true;
                        self.queue.push_back(ci);
                    }
                }
            }
            let Some(ci) = self.queue.pop_front() else {
                return Ok(());
            };
            self.in_queue[ci as usize] = false;
            self.stats.propagations += 1;
            let c = &posted[ci as usize];
            let r = c.propagate(&mut Pruner::new(&mut self.store));
            if r.is_err() {
                self.weights[ci as usize] += 1;
                return r;
            }
            // An idempotent propagator is at its own fixpoint: its own changes
            // need not wake it again.
            skip = if c.is_idempotent() { ci } else { u32::MAX };
        })();
        self.store.fixed_queue.clear();
        self.changed = changed;
        result
    }

    // ---- variable and value choice ----------------------------------------

    fn select_var(&self) -> Option<usize> {
        if self.store.unfixed == 0 {
            return None;
        }
        let n = self.store.len();
        let s = &self.store;
        match self.opts.var_order {
            VarOrder::Input => {
                let from = self.frames.last().map_or(0, |f| f.var as usize + 1);
                // Variables before the last decision were fixed when it was made,
                // except in replayed subproblems where decisions may skip ahead.
                let from = if self.frames.is_empty() { 0 } else { from };
                (from..n)
                    .find(|&i| s.is_open(i))
                    .or_else(|| (0..from).find(|&i| s.is_open(i)))
            }
            VarOrder::Mrv => {
                let mut best = None;
                let mut best_size = u32::MAX;
                for i in 0..n {
                    let sz = s.size(i);
                    if sz > 1 && sz < best_size {
                        best_size = sz;
                        best = Some(i);
                        if sz == 2 {
                            break;
                        }
                    }
                }
                best
            }
            VarOrder::DomDeg | VarOrder::DomWdeg => {
                let wdeg = self.opts.var_order == VarOrder::DomWdeg;
                let mut best = None;
                let (mut bs, mut bd) = (1u64, 0u64);
                for i in 0..n {
                    let sz = s.size(i) as u64;
                    if sz <= 1 {
                        continue;
                    }
                    let d = if wdeg {
                        self.prep
                            .watches(i)
                            .iter()
                            .map(|&(c, _)| self.weights[c as usize] as u64)
                            .sum::<u64>()
                    } else {
                        self.prep.degree(i) as u64
                    }
                    .max(1);
                    // sz / d < bs / bd  <=>  sz * bd < bs * d
                    if best.is_none() || sz * bd < bs * d {
                        best = Some(i);
                        bs = sz;
                        bd = d;
                    }
                }
                best
            }
        }
    }

    fn new_frame(&mut self, var: usize) -> Frame {
        let s = &self.store;
        let mut f = Frame {
            var: var as u32,
            level: s.level() as u32,
            rem: 0,
            a: 0,
            b: 0,
            started: false,
            value: 0,
            direct: if self.direct {
                self.prep.direct[var]
            } else {
                NO_GROUP
            },
        };
        if s.is_small(var) {
            f.rem = s.small_bits(var).0;
            if let ValOrder::Middle = self.opts.val_order {
                let (lo, hi) = (s.min(var), s.max(var));
                f.a = lo + (hi - lo) / 2 - s.small_bits(var).1;
            }
        } else {
            let (lo, hi) = (s.min(var), s.max(var));
            match self.opts.val_order {
                ValOrder::Ascending | ValOrder::Descending => {}
                ValOrder::Middle => {
                    let mid = lo + (hi - lo) / 2;
                    f.rem = mid as i64 as u64;
                    f.a = mid.saturating_add(1);
                    f.b = mid;
                }
                ValOrder::Random { .. } => {
                    let span = (hi as i64 - lo as i64 + 1) as u64;
                    self.rng = splitmix(self.rng);
                    f.b = (lo as i64 + (self.rng % span) as i64) as Value;
                }
            }
        }
        f
    }

    /// The next value of the frame's variable, or None when all were tried.
    fn next_value(&mut self, fi: usize) -> Option<Value> {
        let f = self.frames[fi];
        let var = f.var as usize;
        let order = self.opts.val_order;
        if self.store.is_small(var) {
            let base = self.store.small_bits(var).1;
            let rem = f.rem;
            if rem == 0 {
                return None;
            }
            let k = match order {
                ValOrder::Ascending => rem.trailing_zeros(),
                ValOrder::Descending => 63 - rem.leading_zeros(),
                ValOrder::Middle => {
                    let mid = f.a as u32;
                    let below = rem & (u64::MAX >> (63 - mid.min(63)));
                    let above = if mid >= 63 {
                        0
                    } else {
                        rem & (!0u64 << (mid + 1))
                    };
                    match (below != 0, above != 0) {
                        (true, false) => 63 - below.leading_zeros(),
                        (false, _) => above.trailing_zeros(),
                        (true, true) => {
                            let lo = 63 - below.leading_zeros();
                            let hi = above.trailing_zeros();
                            if mid - lo <= hi - mid {
                                lo
                            } else {
                                hi
                            }
                        }
                    }
                }
                ValOrder::Random { .. } => {
                    self.rng = splitmix(self.rng);
                    let mut r = (self.rng % rem.count_ones() as u64) as u32;
                    let mut bits = rem;
                    while r > 0 {
                        bits &= bits - 1;
                        r -= 1;
                    }
                    bits.trailing_zeros()
                }
            };
            self.frames[fi].rem = rem & !(1u64 << k);
            return Some(base + k as Value);
        }
        // Large domains: cursors over the (restored) current domain.
        let s = &self.store;
        let fr = &mut self.frames[fi];
        match order {
            ValOrder::Ascending => {
                let x = if fr.started {
                    s.next_above(var, fr.a)?
                } else {
                    s.min(var)
                };
                fr.started = true;
                fr.a = x;
                Some(x)
            }
            ValOrder::Descending => {
                let x = if fr.started {
                    s.next_below(var, fr.a)?
                } else {
                    s.max(var)
                };
                fr.started = true;
                fr.a = x;
                Some(x)
            }
            ValOrder::Middle => {
                // Down side: largest untried value below `a`; up side: smallest
                // untried value above `b`; the middle itself sits in `rem`.
                let mid = fr.rem as i64 as Value;
                let down = s.next_below(var, fr.a);
                let up = s.next_above(var, fr.b);
                let take_down = match (down, up) {
                    (None, None) => return None,
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (Some(x), Some(y)) => mid as i64 - x as i64 <= y as i64 - mid as i64,
                };
                if take_down {
                    fr.a = down.expect("down side");
                    Some(fr.a)
                } else {
                    fr.b = up.expect("up side");
                    Some(fr.b)
                }
            }
            ValOrder::Random { .. } => {
                // Ascending from a random start `b`, then from the minimum up to it.
                // `rem`: 0 = not started, 1 = upper part, 2 = lower part.
                let start = fr.b;
                if fr.rem == 0 {
                    fr.rem = 1;
                    if let Some(x) = s.next_above(var, start.saturating_sub(1)) {
                        fr.a = x;
                        return Some(x);
                    }
                }
                if fr.rem == 1 {
                    if let Some(x) = s.next_above(var, fr.a).filter(|_| fr.a >= start) {
                        fr.a = x;
                        return Some(x);
                    }
                    fr.rem = 2;
                    let x = s.min(var);
                    if x >= start {
                        return None;
                    }
                    fr.a = x;
                    return Some(x);
                }
                let x = s.next_above(var, fr.a).filter(|&x| x < start)?;
                fr.a = x;
                Some(x)
            }
        }
    }

    // ---- the loop ------------------------------------------------------------

    /// Replays decisions (a parallel subproblem). `Err` if they fail.
    pub(crate) fn replay(&mut self, path: &[(u32, Value)]) -> Result<(), Conflict> {
        self.start()?;
        for &(var, value) in path {
            self.store.push_level();
            self.store.fix(var as usize, value)?;
            self.propagate()?;
        }
        self.base_level = self.store.level();
        Ok(())
    }

    fn start(&mut self) -> Result<(), Conflict> {
        self.started = true;
        log::debug!(
            "search start: {} variables, {} constraints, {:?}",
            self.model.num_vars(),
            self.model.num_constraints(),
            self.opts
        );
        self.trace_enabled = log::log_enabled!(log::Level::Trace);
        self.direct =
            self.opts.inference == Inference::ForwardChecking && self.store.plain_small_updates();
        let r = self.root();
        if r.is_err() {
            log::debug!("root propagation failed: no solution");
        }
        if r.is_err() {
            self.finished = true;
            self.store.clear_events();
        } else {
            self.descend = true;
        }
        self.flush_prunes();
        r
    }

    /// Runs until the next solution, the end of the space, or a limit.
    /// With `max_depth`, nodes at that depth are reported as `Solution`s too
    /// (used to split the tree into subproblems).
    pub(crate) fn step(&mut self, max_depth: Option<usize>) -> Step {
        if !self.started && self.start().is_err() {
            return Step::Done;
        }
        if self.finished {
            return Step::Done;
        }
        loop {
            if self.descend {
                self.descend = false;
                if max_depth == Some(self.frames.len()) {
                    return Step::Solution;
                }
                match self.select_var() {
                    None => {
                        self.stats.solutions += 1;
                        return Step::Solution;
                    }
                    Some(x) => {
                        if self.count_shortcut
                            && max_depth.is_none()
                            && self.only_open(x)
                            && self.opts.limits.solutions.is_none()
                        {
                            let k = self.store.size(x) as u128;
                            if cfg!(debug_assertions) {
                                self.verify_last(x);
                            }
                            self.counted += k;
                            self.stats.solutions += k;
                            // fall through to branch on the parent frame
                        } else {
                            let f = self.new_frame(x);
                            self.frames.push(f);
                            let d = self.frames.len() as u64;
                            if d > self.stats.max_depth {
                                self.stats.max_depth = d;
                            }
                        }
                    }
                }
            }
            let Some(fi) = self.frames.len().checked_sub(1) else {
                self.finished = true;
                return Step::Done;
            };
            // The state at the frame's opening, with the level for its next
            // value open (one snapshot copy per value).
            let level = self.frames[fi].level as usize;
            self.store.reopen_level(level);
            match self.next_value(fi) {
                None => {
                    self.store.close_reopened_level(level);
                    let var = self.frames[fi].var;
                    self.frames.pop();
                    self.stats.backtracks += 1;
                    if let Some(obs) = self.observer.as_deref_mut() {
                        obs.on_backtrack(VarId(var), fi + 1);
                    }
                }
                Some(v) => {
                    self.stats.nodes += 1;
                    if self.stats.nodes >= self.next_check {
                        if let Some(l) = self.check_limits() {
                            self.finished = true;
                            return Step::Limit(l);
                        }
                    }
                    let var = self.frames[fi].var;
                    self.frames[fi].value = v;
                    if let Some(obs) = self.observer.as_deref_mut() {
                        obs.on_assign(VarId(var), v, fi + 1);
                    }
                    if self.trace_enabled {
                        log::trace!(
                            "depth {}: {} = {v}",
                            fi + 1,
                            self.model.display_name(VarId(var))
                        );
                    }
                    let ok = self.decide(var as usize, v, self.frames[fi].direct);
                    if ok {
                        self.descend = true;
                    } else {
                        self.stats.failures += 1;
                        if let Some(obs) = self.observer.as_deref_mut() {
                            obs.on_fail(VarId(var), v, fi + 1);
                        }
                    }
                }
            }
        }
    }

    /// Fixes `var` to `v` and propagates; whether that succeeded. `direct`
    /// is the frame's (group, position) when the variable's only
    /// forward-checking watch is a closed fused group: then the group
    /// checks the decision at once, with no trip through the fixed queue.
    #[inline]
    fn decide(&mut self, var: usize, v: Value, (g, pos): (u32, u32)) -> bool {
        if g == NO_GROUP.0 {
            return self.store.fix(var, v).is_ok() && self.propagate().is_ok();
        }
        if self.store.fix_small_unqueued(var, v).is_err() {
            return false;
        }
        self.stats.propagations += 1;
        self.prep.fused[g as usize]
            .check(
                &mut self.store,
                &mut self.fused_sets[g as usize],
                &mut self.weights,
                pos as usize,
            )
            .is_ok()
    }

    /// Is `x` the only variable with more than one value?
    #[inline]
    fn only_open(&self, x: usize) -> bool {
        debug_assert!(self.store.size(x) > 1);
        self.store.unfixed == 1
    }

    /// Debug check of the counting shortcut: every value of the last open
    /// variable completes a solution.
    fn verify_last(&mut self, x: usize) {
        let mut values = self.values();
        let mut dom = Vec::new();
        self.store.values_into(x, &mut dom);
        for v in dom {
            values[x] = v;
            if let Err(e) = self.model.check(&values) {
                panic!("engine bug: counted a non-solution ({e}); values {values:?}");
            }
        }
    }

    fn check_limits(&mut self) -> Option<Limit> {
        self.next_check = self.stats.nodes + 256;
        let l = &self.opts.limits;
        let nodes_now = if let Some(shared) = &self.shared_nodes {
            let delta = self.stats.nodes - self.flushed_nodes;
            self.flushed_nodes = self.stats.nodes;
            shared.fetch_add(delta, Ordering::Relaxed) + delta
        } else {
            self.stats.nodes
        };
        if let Some(n) = l.nodes {
            if nodes_now >= n {
                return Some(Limit::Nodes);
            }
            self.next_check = self.next_check.min(self.stats.nodes + (n - nodes_now));
        }
        if let Some(t) = &l.cancel {
            if t.is_cancelled() {
                return Some(Limit::Cancelled);
            }
        }
        if let Some(t) = l.time {
            if self.start_time.elapsed() >= t {
                return Some(Limit::Time);
            }
        }
        None
    }

    /// [`take_solution`](Self::take_solution) for counting: the values are
    /// only built when an observer or a debug build needs them.
    pub(crate) fn note_solution(&mut self) {
        if self.observer.is_some() || cfg!(debug_assertions) {
            self.take_solution();
        }
    }

    /// Reports a solution found by `step` to the observer and checks it in
    /// debug builds.
    pub(crate) fn take_solution(&mut self) -> Vec<Value> {
        let values = self.values();
        if cfg!(debug_assertions) {
            if let Err(e) = self.model.check(&values) {
                panic!("engine bug: a solution fails the model's checker: {e}");
            }
        }
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.on_solution(&values);
        }
        values
    }
}

/// SplitMix64: a small, fast, seedable generator step.
#[inline]
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
