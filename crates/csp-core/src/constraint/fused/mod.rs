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
use crate::domain::explained::{Cause, Failure, How};
mod passes;
mod vector;

use crate::domain::explained::History;
use crate::domain::words::{set_bits, Simd};
use crate::domain::{Conflict, DomainStore};
use crate::ids::{Value, VarId};
use crate::literal::Literal;
use crate::model::{Model, Posted};
use crate::propagation::{Event, Events, Inference, Priority, Propagator, Ready, Setup};
use passes::{
    remove_ids_small, remove_ids_small_dense, remove_ids_small_logged, remove_ids_small_plain,
    DenseGroup, FusedPos, Ids,
};

/// The bit of a lazy code that marks a failure's reason (the rest is the
/// position whose forward check failed).
const FAILED: u64 = 1 << 63;

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
    /// Per position: its variable's declared minimum (the value of bit 0),
    /// so that a value's ids are `value − min + adj[t]`.
    mins: Vec<Value>,
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
                mins: vars
                    .iter()
                    // Declared domains are never empty.
                    .map(|&v| model.domain(VarId(v)).min().unwrap_or_default())
                    .collect(),
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
    /// The same in explaining mode ([`check_word_explained`](Self::check_word_explained)).
    one_word_logged: bool,
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
            one_word_logged: false,
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
            // SAFETY: this build has the features the pass needs.
            return unsafe { self.word_pass::<G, false>(store, pos, &mut []) };
        }
        if self.one_word_logged {
            // SAFETY: this build has the features the pass needs.
            return unsafe { self.check_word_explained::<G>(store, pos) };
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

    /// The one-word AVX2 forward check from position `pos` (see
    /// [`vector::forward_check_word_avx2`]); with `LOG`, the values it
    /// removes are or-ed into `gone`.
    ///
    /// # Safety
    /// As for [`check_word_explained`](Self::check_word_explained).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn word_pass<const G: usize, const LOG: bool>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
        gone: &mut [u64],
    ) -> Result<(), Conflict> {
        let d = self.group.dense.as_ref().expect("a dense group");
        // SAFETY: the caller's build has the features the pass needs.
        unsafe {
            vector::forward_check_word_avx2::<G, LOG>(
                store,
                d,
                &self.group.pos,
                self.first_word,
                pos,
                &mut self.batch_ids,
                !self.closed,
                gone,
            )
        }
    }

    /// Explaining mode on the one-word AVX2 pass: the pass runs as it does
    /// outside explaining mode, on a copy of the group's domains taken
    /// before; then the values it removed are logged in the order of its
    /// waves, each with the reason `x_q = v` of a position `q` it placed
    /// whose ids take it. The waves are replayed on the removals alone: the
    /// placed position's removals first; a position the pass fixed joins
    /// once all its own removals are logged (so its value is on the trail
    /// before it is used as a reason). On a failure the domains and
    /// counters are put back and the failure is recorded with a lazy
    /// reason: [`failure_reason`](Self::failure_reason) replays forward
    /// checking on the trail's domains when an explanation is asked for,
    /// so a search that asks for none (a count) pays nothing for it. An
    /// [`Explainer`](crate::Explainer), which shows how a failure came
    /// about, redoes the pass a position at a time instead
    /// ([`check_explained`](Self::check_explained)), each step logged.
    ///
    /// # Safety
    /// The CPU must support avx2, popcnt, bmi1 and bmi2 (the caller is
    /// compiled with them, after `Simd::detect` found them).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn check_word_explained<const G: usize>(
        &mut self,
        store: &mut DomainStore,
        pos: usize,
    ) -> Result<(), Conflict> {
        let d = self.group.dense.as_ref().expect("a dense group");
        let (first, len) = (d.first as usize, d.len);
        let active = store.word(self.first_word);
        if active & (1u64 << pos) == 0 {
            return Ok(());
        }
        let counts = (store.removals, store.unfixed);
        // The values the pass removes, per position.
        let mut gone = [0u64; 64];
        let blocks = vector::len_blocks(d);
        // SAFETY: as in `check_avx2`.
        let r = unsafe { self.word_pass::<G, true>(store, pos, &mut gone[..blocks]) };
        if r.is_err() {
            // Back to the domains the trail describes; the failure's
            // reason is found when asked (`explain`, code `FAILED | pos`).
            for (w, &g) in store.split_words().0[first..first + len]
                .iter_mut()
                .zip(&gone)
            {
                *w |= g;
            }
            (store.removals, store.unfixed) = counts;
            if store.ex.detailed_failures {
                // It takes `pos` out of the active positions itself.
                return self.check_explained::<G>(store, pos);
            }
            let cause = Cause::Propagated {
                prop: self.prop,
                how: How::Lazy(FAILED | pos as u64),
            };
            store.ex.failure = Some(Failure {
                prop: self.prop,
                var: None,
                cause,
            });
            return Err(Conflict);
        }
        // The positions with removals still to log.
        let mut changed = 0u64;
        for (j, &g) in gone[..len].iter().enumerate() {
            changed |= u64::from(g != 0) << j;
        }
        // The positions the waves fixed, not yet used as reasons.
        let mut fixed = active & !store.word(self.first_word) & !(1u64 << pos);
        if fixed == 0 {
            // One wave (the common case): `pos` removed everything.
            let cause = self.placed(store, pos);
            while changed != 0 {
                let j = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                // One wave: at most one value per member goes.
                store.log_removed_few::<G>(first + j, gone[j], cause);
            }
            return Ok(());
        }
        let mut frontier = 1u64 << pos;
        while frontier != 0 {
            let q = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let ids = self.ids::<G>(store, q);
            let cause = self.placed(store, q);
            let mut c = changed;
            while c != 0 {
                let j = c.trailing_zeros() as usize;
                c &= c - 1;
                // Without branches on what `q` took: a wave removes at
                // most one value per member from a word.
                let m = gone[j] & passes::id_mask(&ids, &self.group.pos[j].adj);
                store.log_removed_few::<G>(first + j, m, cause);
                gone[j] &= !m;
                changed &= !(u64::from(gone[j] == 0) << j);
            }
            // Fixed positions whose removals are all logged join.
            let ready = fixed & !changed;
            frontier |= ready;
            fixed &= !ready;
        }
        debug_assert!(changed == 0, "a removal the waves did not explain");
        Ok(())
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

    /// The reason of a failure of the forward check from position `pos`,
    /// as of `h` (the trail when it failed): forward checking is replayed
    /// on the domains there, from `pos` and then from every position it
    /// fixes, each removal noting the position whose ids took the value,
    /// until a position is left with none. The reason is that position's
    /// domain and, for each value it had, the literals that took it: the
    /// remover's `x_q = v` if it held on the trail, else (a position the
    /// replay fixed) its own domain and the removers of its other values,
    /// recursively. False (the scope fallback then applies) if the replay
    /// finds no failure, which a sound pass never leaves.
    fn failure_reason(&self, pos: usize, h: &History<'_>, out: &mut Vec<Literal>) -> bool {
        let group = &*self.group;
        let n = group.pos.len();
        let x = |j: usize| VarId(group.pos[j].var);
        // Per position: its values (bits over its declared minimum).
        let mut dom: Vec<u64> = (0..n)
            .map(|j| {
                h.values(x(j), 64)
                    .iter()
                    .fold(0, |m, &v| m | 1u64 << (v - group.mins[j]))
            })
            .collect();
        let start = dom.clone();
        // Per position and bit: the position whose ids removed it.
        let mut by: Vec<[u8; 64]> = vec![[u8::MAX; 64]; n];
        let mut done = vec![false; n];
        let mut todo = vec![pos];
        let ids = |j: usize, dom: &[u64]| -> [i64; 4] {
            let k = dom[j].trailing_zeros() as i64;
            std::array::from_fn(|t| k + group.pos[j].adj[t])
        };
        let mut wiped = None;
        'replay: while let Some(q) = todo.pop() {
            if done[q] {
                continue;
            }
            done[q] = true;
            let iq = ids(q, &dom);
            for j in (0..n).filter(|&j| j != q) {
                let m = passes::id_mask(&iq[..group.g], &group.pos[j].adj) & dom[j];
                if m == 0 {
                    continue;
                }
                let mut g = m;
                while g != 0 {
                    by[j][g.trailing_zeros() as usize] = q as u8;
                    g &= g - 1;
                }
                dom[j] &= !m;
                if dom[j] == 0 {
                    wiped = Some(j);
                    break 'replay;
                }
                if dom[j].count_ones() == 1 && !done[j] {
                    todo.push(j);
                }
            }
        }
        let Some(j) = wiped else {
            return false;
        };
        // Expand: a position whose value held on the trail gives `x = v`;
        // one the replay fixed gives its domain there and its removers.
        let mut seen = vec![false; n];
        let mut stack = vec![j];
        seen[j] = true;
        let mut lits = Vec::new();
        while let Some(p) = stack.pop() {
            // A value that held on the trail is a premise as it stands
            // (but the emptied position's values are all accounted for).
            if p != j && start[p].count_ones() == 1 {
                let v = group.mins[p] + start[p].trailing_zeros() as Value;
                lits.push(Literal::Eq(x(p), v));
                continue;
            }
            h.domain_literals(x(p), &mut lits);
            // The values the replay took (all of them but its value, for
            // a fixed position; all of them for the wiped one).
            let mut g = start[p] & !dom[p];
            while g != 0 {
                let q = by[p][g.trailing_zeros() as usize] as usize;
                g &= g - 1;
                if !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        lits.sort_unstable();
        lits.dedup();
        out.extend(lits);
        true
    }

    /// The cause of the removals a fixed position `pos` makes: its
    /// variable's value, `x_pos = v`.
    fn placed(&self, store: &DomainStore, pos: usize) -> Cause {
        let x = self.group.pos[pos].var as usize;
        let v = store.small_base(x) + store.small_word(x).trailing_zeros() as Value;
        let lit = Literal::Eq(VarId(x as u32), v);
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
        let one_word = self.plain && self.group.dense.as_ref().is_some_and(|d| d.len <= 64);
        // Two flags, so that the pass outside explaining mode tests one.
        self.one_word = one_word && !ready.explaining();
        self.one_word_logged = one_word && ready.explaining();
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

    fn explain(
        &mut self,
        code: u64,
        _lit: Literal,
        history: &History<'_>,
        out: &mut Vec<Literal>,
    ) -> bool {
        code & FAILED != 0 && self.failure_reason((code & !FAILED) as usize, history, out)
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

#[cfg(test)]
mod tests {
    use crate::explain::Failed;
    use crate::{Domain, Explainer, Inference, Literal, Model, SearchOptions, Value, VarId};

    fn queens(n: usize, givens: &[(usize, Value)]) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let q = m.new_vars(n, Domain::range(0, n as Value - 1)).unwrap();
        let up: Vec<Value> = (0..n as Value).collect();
        let down: Vec<Value> = up.iter().map(|i| -i).collect();
        m.all_different(&q).unwrap();
        m.all_different_offset(&q, &up).unwrap();
        m.all_different_offset(&q, &down).unwrap();
        for &(r, v) in givens {
            m.restrict(q[r], &Domain::singleton(v)).unwrap();
        }
        (m, q)
    }

    /// The lazy reason of a failed one-word pass (a search's path): for
    /// every pair of queens in the first two rows whose forward check
    /// fails, the failure's premises, replayed from the trail, are checked
    /// by brute force (they cannot hold with the constraints), they name
    /// fewer rows than the board (not the scope fallback) and the givens
    /// they rest on leave no solution, counted without explanations.
    #[test]
    fn lazy_failure_reasons_are_sound_and_sharp() {
        for n in [6usize, 7] {
            let (m, q) = queens(n, &[]);
            let mut failures = 0;
            for a in 0..n as Value {
                for b in 0..n as Value {
                    let options = SearchOptions {
                        inference: Inference::ForwardChecking,
                        ..Default::default()
                    };
                    let mut ex = Explainer::with_options(&m, options);
                    ex.flat_failures();
                    ex.given(Literal::Eq(q[0], a)).unwrap();
                    ex.given(Literal::Eq(q[1], b)).unwrap();
                    let Err(Failed::Conflict(why)) = ex.propagate() else {
                        continue;
                    };
                    failures += 1;
                    ex.audit(1 << 20).unwrap_or_else(|e| panic!("{a} {b}: {e}"));
                    let (_, on) = why.contradiction.clone().expect("a contradiction");
                    let mut rows: Vec<VarId> = on.iter().map(|&k| why.steps[k].lit.var()).collect();
                    rows.sort();
                    rows.dedup();
                    assert!(rows.len() < n, "{why}");
                    let givens: Vec<(usize, Value)> = why
                        .givens()
                        .iter()
                        .map(|g| match *g {
                            Literal::Eq(x, v) => (x.index(), v),
                            other => panic!("{other} is not a given"),
                        })
                        .collect();
                    let (m2, _) = queens(n, &givens);
                    let count = crate::Search::new(&m2)
                        .inference(Inference::None)
                        .count()
                        .unwrap();
                    assert_eq!(count.count, 0, "{why}");
                }
            }
            assert!(failures > 3, "{n}: only {failures} failing pairs");
        }
    }
}
