//! The fused all-different's passes over one-word domains (portable; the
//! vector forms are in [`super::vector`]): a fixed position's ids removed
//! from every active peer with one shift-and-mask each, written straight to
//! the store's words through its word primitives
//! ([`crate::domain::words`]), which keep the bookkeeping.

use crate::domain::explained::Cause;
use crate::domain::{Conflict, DomainStore};

use super::vector::dense_pass;

/// One position of a fused all-different group (see the search engine): its
/// variable and, for each member `t`, the member's offset there plus the
/// variable's declared minimum (0 for unused members), so bit `b` of the
/// variable's word stands for id `adj[t] + b`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FusedPos {
    pub(crate) adj: [i64; 4],
    pub(crate) var: u32,
}

/// The bits a fixed position's ids (`ids[t]` for member t) take out of the
/// word of a peer with offsets `adj`: bit `ids[t] − adj[t]` for each member.
#[inline(always)]
pub(super) fn id_mask(ids: &[i64], adj: &[i64; 4]) -> u64 {
    ids.iter()
        .zip(adj)
        .fold(0, |m, (id, adj)| m | bit_at(id - adj))
}

/// The ids a pass of [`remove_ids_small_plain`] removes: those
/// of one fixed position (`ids[t]` for member t), or of several (the first
/// `G` entries of each).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ids<'a, const G: usize> {
    One([i64; G]),
    Many(&'a [[i64; 4]]),
}

/// `1 << off` when `off` is a bit of a word, 0 otherwise.
#[inline(always)]
fn bit_at(off: i64) -> u64 {
    let off = off as u64;
    // Shift first, then select: a conditional move, no branch.
    let b = 1u64 << (off & 63);
    if off < 64 {
        b
    } else {
        0
    }
}

/// One pass of [`remove_ids_small_plain`]: for each peer `p`
/// (the set bits of `active`), `peer(p)` gives its word's index in `small`
/// and the bits to remove from it; sets in `fixed` (a word per word of
/// `active`) the peers it leaves with one value, and returns (how many,
/// values removed); `Err(values removed)` on a wipe-out.
#[inline(always)]
fn plain_pass(
    small: &mut [u64],
    active: &[u64],
    fixed: &mut [u64],
    peer: impl Fn(usize) -> (usize, u64),
) -> Result<(usize, u32), u32> {
    let mut removed = 0u32;
    let mut count = 0;
    for ((wi, &word), out) in active.iter().enumerate().zip(fixed.iter_mut()) {
        let mut a = word;
        let mut newly = 0u64;
        while a != 0 {
            let b = a.trailing_zeros();
            a &= a - 1;
            let (i, m) = peer(wi * 64 + b as usize);
            let bits = small[i];
            let new = bits & !m;
            if new == 0 {
                return Err(removed);
            }
            small[i] = new;
            let gone = bits ^ new;
            removed += gone.count_ones();
            // Newly fixed: something went and one value is left.
            let single = (gone != 0) & (new & (new - 1) == 0);
            newly |= u64::from(single) << b;
        }
        *out = newly;
        count += newly.count_ones() as usize;
    }
    Ok((count, removed))
}

/// A fused group whose position `p` is variable `first + p`, with its
/// offsets laid out by chunks of eight positions (`chunks[c][t][l]`: member
/// t's `adj` at position `8c + l`; past the last position, an offset that
/// puts every id outside the word).
#[derive(Clone, Debug)]
pub(crate) struct DenseGroup {
    pub(crate) first: u32,
    pub(crate) len: usize,
    pub(crate) chunks: Vec<[[i64; 8]; 4]>,
}

impl DenseGroup {
    /// The layout of `pos`, when its variables are consecutive.
    pub(crate) fn new(pos: &[FusedPos]) -> Option<DenseGroup> {
        let first = pos.first()?.var;
        if pos
            .iter()
            .enumerate()
            .any(|(p, fp)| fp.var as usize != first as usize + p)
        {
            return None;
        }
        let mut chunks = vec![[[i64::MIN / 2; 8]; 4]; pos.len().div_ceil(8)];
        for (p, fp) in pos.iter().enumerate() {
            for (member, &adj) in chunks[p / 8].iter_mut().zip(&fp.adj) {
                member[p % 8] = adj;
            }
        }
        Some(DenseGroup {
            first,
            len: pos.len(),
            chunks,
        })
    }
}

/// The pass of [`remove_ids_small_dense`] one active position
/// at a time, as [`plain_pass`] does (the vector pass is tested against it).
#[inline(always)]
pub(super) fn dense_pass_portable<const G: usize>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    let first = dense.first as usize;
    let small = &mut small[..first + dense.len];
    plain_pass(small, active, fixed, |p| {
        let ch = &dense.chunks[p / 8];
        let adj = |t: usize| ch[t][p % 8];
        let m = match ids {
            Ids::One(id) => (0..G).fold(0, |m, t| m | bit_at(id[t] - adj(t))),
            Ids::Many(b) => b
                .iter()
                .fold(0, |m, id| (0..G).fold(m, |m, t| m | bit_at(id[t] - adj(t)))),
        };
        (first + p, m)
    })
}

/// Fused forward checking for two to four all-different constraints over
/// the same variables (one-word domains), with the store's full
/// bookkeeping: for every position `j` listed in `peers`, removes at once
/// the values `ids[t] − pos[j].adj[t]` for each member `t < G`. One pass,
/// one mask per peer, instead of one pass per constraint.
#[inline(always)]
pub(crate) fn remove_ids_small<const G: usize>(
    store: &mut DomainStore,
    pos: &[FusedPos],
    peers: &[u32],
    ids: [i64; G],
) -> Result<(), Conflict> {
    let mut removed = 0u32;
    for &j in peers {
        let p = &pos[j as usize];
        let m = id_mask(&ids, &p.adj);
        let i = p.var as usize;
        let bits = store.small_word(i);
        let gone = bits & m;
        if gone == 0 {
            continue;
        }
        let new = bits & !m;
        if new == 0 {
            store.count_removals(removed);
            if store.explaining {
                store.note_failed_write(i, store.ex.cause);
            }
            return Err(Conflict);
        }
        removed += gone.count_ones();
        store.write_small_word(i, new);
    }
    store.count_removals(removed);
    Ok(())
}

/// [`remove_ids_small`] for a wave of fixed positions (`ids[b][t]`: member
/// t's id of wave member b) when
/// [`plain_small_updates`](DomainStore::plain_small_updates) holds: every
/// peer's new bits are stored whether or not they changed, and a peer that
/// becomes fixed is noted as a bit of a mask, so the loop has no
/// data-dependent branch but the wipe-out test. The peers it fixes are set
/// in `fixed` (a word per word of positions), their variables go to the
/// fixed queue when `queue` is set; returns how many.
#[inline(always)]
pub(crate) fn remove_ids_small_plain<const G: usize>(
    store: &mut DomainStore,
    pos: &[FusedPos],
    active: std::ops::Range<usize>,
    ids: Ids<'_, G>,
    fixed: &mut [u64],
    queue: bool,
) -> Result<usize, Conflict> {
    debug_assert!(store.plain_small_updates());
    let (small, words) = store.split_words();
    let active = &words[active];
    let r = match ids {
        Ids::One(id) => plain_pass(small, active, fixed, move |p| {
            let p = &pos[p];
            (p.var as usize, id_mask(&id, &p.adj))
        }),
        Ids::Many(ids) => plain_pass(small, active, fixed, |p| {
            let p = &pos[p];
            let m = ids.iter().fold(0, |m, b| m | id_mask(&b[..G], &p.adj));
            (p.var as usize, m)
        }),
    };
    store.account_pass(r, fixed, queue, |j| pos[j].var)
}

/// Explaining mode's pass: [`remove_ids_small_plain`] for the ids of one
/// fixed position, each value removed recorded on the explanation trail
/// with `cause`; a peer the ids would empty is left as it is and named as
/// the failure's variable. Inlined into the fused propagator's vector
/// builds (their `popcnt`).
#[inline(always)]
pub(crate) fn remove_ids_small_logged<const G: usize>(
    store: &mut DomainStore,
    pos: &[FusedPos],
    active: std::ops::Range<usize>,
    ids: [i64; G],
    fixed: &mut [u64],
    queue: bool,
    cause: Cause,
) -> Result<usize, Conflict> {
    let (mut removed, mut count) = (0u32, 0usize);
    let first = active.start;
    for (k, out) in active.zip(fixed.iter_mut()) {
        let mut a = store.word(k);
        let mut newly = 0u64;
        while a != 0 {
            let b = a.trailing_zeros();
            a &= a - 1;
            let p = &pos[(k - first) * 64 + b as usize];
            let i = p.var as usize;
            let bits = store.small_word(i);
            let gone = bits & id_mask(&ids, &p.adj);
            if gone == 0 {
                continue;
            }
            let new = bits & !gone;
            if new == 0 {
                store.count_removals(removed);
                store.note_failed_write(i, cause);
                return Err(Conflict);
            }
            store.write_small_logged(i, gone, cause);
            removed += gone.count_ones();
            newly |= u64::from(new & (new - 1) == 0) << b;
        }
        *out = newly;
        count += newly.count_ones() as usize;
    }
    store.account_pass(Ok((count, removed)), fixed, queue, |j| pos[j].var)
}

/// Removes the ids of one fixed position from the active peers of a
/// [`DenseGroup`] (position `p` is variable `dense.first + p`), computing
/// eight positions at a time; the peers it fixes are added to `fixed` (and
/// to the fixed queue when `queue` is set).
#[inline(always)]
pub(crate) fn remove_ids_small_dense<const G: usize, const VEC: u8>(
    store: &mut DomainStore,
    dense: &DenseGroup,
    active: std::ops::Range<usize>,
    ids: Ids<'_, G>,
    fixed: &mut [u64],
    queue: bool,
) -> Result<usize, Conflict> {
    debug_assert!(store.plain_small_updates());
    let (small, words) = store.split_words();
    let active = &words[active];
    let r = dense_pass::<G, VEC>(small, dense, active, fixed, ids);
    store.account_pass(r, fixed, queue, |j| dense.first + j as u32)
}
