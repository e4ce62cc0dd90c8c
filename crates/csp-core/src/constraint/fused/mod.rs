//! Fused all-different: two to four [`AllDifferent`](super::AllDifferent) constraints over the
//! same variables with one-word domains (N-queens' `x`, `x + i`, `x − i`),
//! forward-checked as one propagator.
//!
//! When the search runs forward checking (or the model caps these
//! constraints at it, [`Model::cap_inference`]), the kernel replaces such a
//! group by one [`FusedAllDifferent`] propagator (the constraints stay in the
//! model, and every solution is still checked against each of them). A
//! fixed position removes all its ids (value plus each member's offset)
//! from every *active* peer in one pass, one shift-and-mask per peer; the
//! peers a pass fixes are checked together in the next pass (a *wave*),
//! with a pairwise test among them, rather than one at a time through the
//! event list. The active positions are bits of reversible state words, so
//! backtracking restores them with the domains.
//!
//! When the group's variables were declared together (`x[0..n]`), its
//! offsets are laid out eight positions to a block, and on a machine with
//! AVX-512 a pass computes a block in one vector step (chosen at run time,
//! [`Simd`]). The fast passes need the store's plain updates (words saved
//! by a per-level copy, no observer recording removals) and a group that no
//! other propagator watches for more than fixed events; otherwise the
//! group removes ids peer by peer with the store's full bookkeeping.
//!
//! Cost: O(active peers) word operations per fixed position.

use std::sync::Arc;

use smallvec::SmallVec;

use super::Pruner;
use crate::domain::explained::{Cause, How};
mod passes;
mod vector;

use crate::domain::words::{set_bits, Simd};
use crate::domain::{Conflict, DomainStore};
use crate::ids::VarId;
use crate::literal::Literal;
use crate::model::{Model, Posted};
use crate::propagation::{Event, Events, Inference, Priority, Propagator, Ready, Setup};
use passes::{
    remove_ids_small, remove_ids_small_dense, remove_ids_small_logged, remove_ids_small_plain,
    DenseGroup, FusedPos, Ids,
};

/// A group of all-different constraints over one variable list (shared by
/// every search of a model; the per-search state is in the propagator).
#[derive(Debug)]
pub(crate) struct FusedGroup {
    /// The model's constraints in the group.
    pub(crate) members: SmallVec<[u32; 4]>,
    /// Per position: its variable and, for each member `t`, the member's
    /// offset there plus the variable's declared minimum (0 for unused
    /// members).
    pos: Vec<FusedPos>,
    g: usize,
    /// The offsets by chunks, when the group's variables are consecutive.
    dense: Option<DenseGroup>,
}

/// Finds the groups of a model: all-different constraints over one-word
/// domains with identical variable lists, up to four per group, among the
/// constraints `eligible` accepts (the forward-checked ones).
pub(crate) fn find_groups(model: &Model, eligible: impl Fn(usize) -> bool) -> Vec<FusedGroup> {
    let posted = model.posted();
    let mut by_vars: Vec<(&[u32], Vec<u32>)> = Vec::new();
    for (ci, c) in posted.iter().enumerate() {
        if !eligible(ci) {
            continue;
        }
        if let Posted::AllDifferent(a) = c {
            if let Some((vars, _)) = a.word_data() {
                match by_vars.iter_mut().find(|g| g.0 == vars) {
                    Some(g) => g.1.push(ci as u32),
                    None => by_vars.push((vars, vec![ci as u32])),
                }
            }
        }
    }
    let mut groups = Vec::new();
    for (vars, members) in by_vars {
        for chunk in members.chunks(4) {
            if chunk.len() < 2 {
                continue;
            }
            let mut pos: Vec<FusedPos> = vars
                .iter()
                .map(|&v| FusedPos {
                    adj: [0; 4],
                    var: v,
                })
                .collect();
            for (t, &ci) in chunk.iter().enumerate() {
                if let Posted::AllDifferent(a) = &posted[ci as usize] {
                    let (_, a_adj) = a.word_data().expect("word data");
                    for (p, &a) in pos.iter_mut().zip(a_adj) {
                        p.adj[t] = a;
                    }
                }
            }
            groups.push(FusedGroup {
                members: chunk.iter().copied().collect(),
                dense: DenseGroup::new(&pos),
                pos,
                g: chunk.len(),
            });
        }
    }
    groups
}

/// A propagator that several posted constraints share, found once per
/// model and built once per search engine (parallel engines share what
/// was found). The search builds these without knowing what they are;
/// today the only kind is the fused all-different group of forward
/// checking ([`combine`]).
pub(crate) trait Combined: Send + Sync + std::fmt::Debug {
    /// The model's constraints it stands for (their own propagators are
    /// not built).
    fn members(&self) -> &[u32];
    /// Its propagator for one search.
    fn build(self: Arc<Self>, simd: Simd) -> Box<dyn Propagator>;
    /// The inference level it runs at.
    fn level(&self) -> Inference;
}

impl Combined for FusedGroup {
    fn members(&self) -> &[u32] {
        &self.members
    }
    fn build(self: Arc<Self>, simd: Simd) -> Box<dyn Propagator> {
        Box::new(FusedAllDifferent::new(self, simd))
    }
    fn level(&self) -> Inference {
        Inference::ForwardChecking
    }
}

/// The combined propagators of a model, among the constraints `eligible`
/// accepts (those forward-checked): the fused all-different groups.
pub(crate) fn combine(model: &Model, eligible: impl Fn(usize) -> bool) -> Vec<Arc<dyn Combined>> {
    find_groups(model, eligible)
        .into_iter()
        .map(|g| Arc::new(g) as Arc<dyn Combined>)
        .collect()
}

/// The propagator of a [`FusedGroup`] for one search.
#[derive(Debug)]
pub(crate) struct FusedAllDifferent {
    group: Arc<FusedGroup>,
    /// First state word of the active-position bits.
    first_word: usize,
    /// The positions one pass fixes (a bit per position).
    newly_fixed: Vec<u64>,
    /// The ids of the positions of the current wave.
    batch_ids: Vec<[i64; 4]>,
    /// The active positions, listed (general path).
    peers: Vec<u32>,
    /// The fast passes apply (see the module documentation).
    plain: bool,
    /// The fast passes apply and the group is dense with at most 64
    /// positions: the AVX2 build runs the whole forward check in one
    /// function ([`vector::forward_check_word_avx2`]).
    one_word: bool,
    /// No other propagator watches the group's variables: the peers a wave
    /// fixes need no event.
    closed: bool,
    simd: Simd,
    /// The propagator's index in the search (for reasons).
    prop: u32,
}

impl FusedAllDifferent {
    pub(crate) fn new(group: Arc<FusedGroup>, simd: Simd) -> Self {
        let k = group.pos.len();
        FusedAllDifferent {
            group,
            first_word: 0,
            newly_fixed: vec![0; k.div_ceil(64)],
            batch_ids: vec![[0; 4]; k],
            peers: Vec::with_capacity(k),
            plain: false,
            one_word: false,
            closed: false,
            simd,
            prop: u32::MAX,
        }
    }

    /// Forward checking from position `pos` (just fixed).
    #[inline]
    fn forward_check(&mut self, store: &mut DomainStore, pos: usize) -> Result<(), Conflict> {
        match self.group.g {
            2 => self.dispatch::<2>(store, pos),
            3 => self.dispatch::<3>(store, pos),
            _ => self.dispatch::<4>(store, pos),
        }
    }

    /// Picks the build of the pass for this machine's vector unit.
    #[inline]
    fn dispatch<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        #[cfg(target_arch = "x86_64")]
        match self.simd {
            // SAFETY: `simd` comes from `Simd::detect`, which found the
            // features these builds enable.
            Simd::Avx512 => return unsafe { self.check_avx512::<G>(store, pos) },
            Simd::Avx2 => return unsafe { self.check_avx2::<G>(store, pos) },
            Simd::Portable => {}
        }
        self.check_portable::<G>(store, pos)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn check_avx512<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        self.check_body::<G, 2>(store, pos)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn check_avx2<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        if self.one_word {
            let d = self.group.dense.as_ref().expect("a dense group");
            // SAFETY: this build has the features the pass needs.
            return unsafe {
                vector::forward_check_word_avx2::<G>(
                    store,
                    d,
                    &self.group.pos,
                    self.first_word,
                    pos,
                    &mut self.batch_ids,
                    !self.closed,
                )
            };
        }
        self.check_body::<G, 1>(store, pos)
    }

    // Out of line: measured faster (the pass loop gets the registers to
    // itself) than inlined into the kernel's loop.
    #[inline(never)]
    fn check_portable<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        self.check_body::<G, 0>(store, pos)
    }

    /// The forward check; the positions not yet fixed-and-checked are the
    /// set bits of the state words, so fixed peers are not visited again.
    #[inline(always)]
    fn check_body<const G: usize, const VEC: u8>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        let w0 = self.first_word;
        let nw = self.group.pos.len().div_ceil(64);
        let (w, bit) = (w0 + pos / 64, 1u64 << (pos % 64));
        let word = store.word(w);
        if word & bit == 0 {
            // Checked already (at this level or above): its ids left every
            // peer then active, and the peers checked before it left their
            // ids out of its domain.
            return Ok(());
        }
        store.set_word(w, word & !bit);
        if store.explaining {
            if self.plain {
                return self.check_explained::<G>(store, pos);
            }
            let ids = self.ids::<G>(store, pos);
            return self.remove_explained::<G>(store, pos, ids);
        }
        let ids = self.ids::<G>(store, pos);
        if !self.plain {
            let peers = &mut self.peers;
            peers.clear();
            peers.extend(set_bits(store.state_words(w0..w0 + nw)).map(|j| j as u32));
            return remove_ids_small::<G>(store, &self.group.pos, peers, ids);
        }
        // Waves: the positions a pass fixes are checked together in the
        // next pass, rather than one pass each.
        let queue = !self.closed;
        let mut r = pass::<G, VEC>(
            &self.group,
            store,
            w0..w0 + nw,
            Ids::One(ids),
            &mut self.newly_fixed,
            queue,
        )?;
        while r != 0 {
            let mut last = [0i64; G];
            let mut b = 0;
            for wi in 0..nw {
                let mut a = self.newly_fixed[wi];
                store.set_word(w0 + wi, store.word(w0 + wi) & !a);
                while a != 0 {
                    let q = wi * 64 + a.trailing_zeros() as usize;
                    a &= a - 1;
                    let ids = self.ids::<G>(store, q);
                    // Positions fixed in the same wave have not seen each other.
                    for other in &self.batch_ids[..b] {
                        if (0..G).any(|t| other[t] == ids[t]) {
                            return Err(Conflict);
                        }
                    }
                    self.batch_ids[b][..G].copy_from_slice(&ids);
                    last = ids;
                    b += 1;
                }
            }
            // One position (the usual case): its ids go in registers.
            let ids = if r == 1 {
                Ids::One(last)
            } else {
                Ids::Many(&self.batch_ids[..r])
            };
            r = pass::<G, VEC>(
                &self.group,
                store,
                w0..w0 + nw,
                ids,
                &mut self.newly_fixed,
                queue,
            )?;
        }
        Ok(())
    }

    /// Explaining mode with the fast passes: the forward check of
    /// [`check_body`](Self::check_body), one fixed position a pass (a wave
    /// would mix the reasons), each pass followed by the trail entries of
    /// the values it removed, with the reason `x_q = v` of the position
    /// `q` whose ids they were (kept in the cause: no premise list). The
    /// fixpoint, and so the search tree, is the one waves reach. Inlined
    /// into the vector builds: their `popcnt` and `tzcnt` count the bits.
    #[inline(always)]
    fn check_explained<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        let w0 = self.first_word;
        let nw = self.group.pos.len().div_ceil(64);
        let queue = !self.closed;
        let mut todo = std::mem::take(&mut self.peers);
        todo.clear();
        todo.push(pos as u32);
        let mut r = Ok(());
        while let Some(q) = todo.pop() {
            let q = q as usize;
            let (w, bit) = (w0 + q / 64, 1u64 << (q % 64));
            store.set_word(w, store.word(w) & !bit);
            let ids = self.ids::<G>(store, q);
            let cause = self.placed(store, q);
            let pass = remove_ids_small_logged::<G>(
                store,
                &self.group.pos,
                w0..w0 + nw,
                ids,
                &mut self.newly_fixed,
                queue,
                cause,
            );
            if let Err(c) = pass {
                r = Err(c);
                break;
            }
            for (wi, &a) in self.newly_fixed.iter().enumerate() {
                let mut a = a;
                while a != 0 {
                    todo.push((wi * 64) as u32 + a.trailing_zeros());
                    a &= a - 1;
                }
            }
        }
        self.peers = todo;
        r
    }

    /// Explaining mode: removes the ids of the fixed position `pos` from
    /// every active peer, a word write per peer, each removal recorded with
    /// the reason `x_pos = v` (kept in the cause, no premise list); the
    /// peers it fixes come back as events.
    #[cold]
    fn remove_explained<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
        ids: [i64; G],
    ) -> Result<(), Conflict> {
        let w0 = self.first_word;
        let nw = self.group.pos.len().div_ceil(64);
        store.ex.cause = self.placed(store, pos);
        let peers = &mut self.peers;
        peers.clear();
        peers.extend(set_bits(store.state_words(w0..w0 + nw)).map(|j| j as u32));
        let r = remove_ids_small::<G>(store, &self.group.pos, peers, ids);
        store.ex.cause = Cause::UNEXPLAINED;
        r
    }

    /// The cause of the removals a fixed position `pos` makes: its
    /// variable's value, `x_pos = v`.
    fn placed(&self, store: &DomainStore, pos: usize) -> Cause {
        let x = self.group.pos[pos].var;
        let lit = Literal::Eq(VarId(x), store.min(x as usize));
        Cause::Propagated {
            prop: self.prop,
            how: How::One(lit),
        }
    }

    /// The ids (value plus offset, per member) of the fixed position `pos`.
    #[inline(always)]
    fn ids<const G: usize>(&self, store: &DomainStore, pos: usize) -> [i64; G] {
        let p = &self.group.pos[pos];
        let k = store.small_bits(p.var as usize).0.trailing_zeros() as i64;
        let mut ids = [0i64; G];
        for (id, adj) in ids.iter_mut().zip(&p.adj) {
            *id = k + adj;
        }
        ids
    }
}

/// One pass: removes `ids` from the active peers of `group`; the peers it
/// fixes are set in `fixed`. Returns how many.
#[inline(always)]
fn pass<const G: usize, const VEC: u8>(
    group: &FusedGroup,
    store: &mut DomainStore,
    active: std::ops::Range<usize>,
    ids: Ids<'_, G>,
    fixed: &mut [u64],
    queue: bool,
) -> Result<usize, Conflict> {
    match &group.dense {
        Some(d) => remove_ids_small_dense::<G, VEC>(store, d, active, ids, fixed, queue),
        None => remove_ids_small_plain::<G>(store, &group.pos, active, ids, fixed, queue),
    }
}

impl Propagator for FusedAllDifferent {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        self.prop = setup.prop;
        let k = self.group.pos.len();
        for w in 0..k.div_ceil(64) {
            let bits = (k - w * 64).min(64);
            let word = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
            let s = setup.new_words(1, word);
            if w == 0 {
                self.first_word = s.first;
            }
        }
        if let Some(d) = &self.group.dense {
            // The AVX2 one-word pass reads and rewrites whole blocks of
            // four words: the last block must lie inside the array.
            setup
                .store
                .pad_words(d.first as usize + d.len.next_multiple_of(4));
        }
        for (pos, p) in self.group.pos.iter().enumerate() {
            setup.subscribe(VarId(p.var), pos, Events::FIXED);
        }
    }

    fn ready(&mut self, ready: &Ready<'_>) {
        let group = Arc::clone(&self.group);
        let vars = || group.pos.iter().map(|p| VarId(p.var));
        self.closed = vars().all(|x| ready.alone_on(x));
        self.plain =
            ready.plain_small_updates() && vars().all(|x| Events::FIXED.contains(ready.others(x)));
        // The one-word pass writes no trail: not when explaining.
        self.one_word = self.plain
            && !ready.explaining()
            && self.group.dense.as_ref().is_some_and(|d| d.len <= 64);
    }

    fn notify(
        &mut self,
        pruner: &mut Pruner<'_>,
        pos: usize,
        _event: Event,
    ) -> Result<bool, Conflict> {
        self.forward_check(pruner.store, pos).map(|()| false)
    }

    fn propagate(&mut self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        // The root: every position fixed so far.
        for pos in 0..self.group.pos.len() {
            if !pruner.store.is_open(self.group.pos[pos].var as usize) {
                self.forward_check(pruner.store, pos)?;
            }
        }
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "fused all-different"
    }
}
