//! Word-level primitives for all-different over one-word domains: the
//! passes of the fused all-different propagator
//! ([`crate::constraint::fused`]), one removal of an id from every peer, and
//! the naked/hidden-singles window. They work on the store's words directly
//! (one shift-and-mask per peer) and keep its bookkeeping: removals, events,
//! prunes for observers.
//!
//! The dense pass has vector forms for AVX2 and AVX-512, chosen at run time
//! ([`Simd::detect`]), in [`super::vector`]; the build targets the x86-64
//! baseline.

use super::store::{small_kinds, DomainStore};
use super::vector::dense_pass;
pub(crate) use super::vector::Simd;
use super::Conflict;

/// One position of a fused all-different group (see the search engine): its
/// variable and, for each member `t`, the member's offset there plus the
/// variable's declared minimum (0 for unused members), so bit `b` of the
/// variable's word stands for id `adj[t] + b`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FusedPos {
    pub(crate) adj: [i64; 4],
    pub(crate) var: u32,
}

/// The indices of the set bits of `words` (bit `b` of word `w` is `64w + b`),
/// in increasing order.
pub(crate) fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut a = word;
        std::iter::from_fn(move || {
            (a != 0).then(|| {
                let b = a.trailing_zeros() as usize;
                a &= a - 1;
                w * 64 + b
            })
        })
    })
}

/// The bits a fixed position's ids (`ids[t]` for member t) take out of the
/// word of a peer with offsets `adj`: bit `ids[t] − adj[t]` for each member.
#[inline(always)]
fn id_mask(ids: &[i64], adj: &[i64; 4]) -> u64 {
    ids.iter()
        .zip(adj)
        .fold(0, |m, (id, adj)| m | bit_at(id - adj))
}

/// The ids a pass of [`DomainStore::remove_ids_small_plain`] removes: those
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

/// One pass of [`DomainStore::remove_ids_small_plain`]: for each peer `p`
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

/// The pass of [`DomainStore::remove_ids_small_dense`] one active position
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

/// `bits` moved `by` places up (down when negative; `|by| < 64`): a
/// variable's word as ids from a window's lowest id, and back.
#[inline(always)]
fn shift_ids(bits: u64, by: i64) -> u64 {
    debug_assert!(by.abs() < 64);
    (bits << by.max(0)) >> (-by).max(0)
}

/// All ones when `m` has at most one bit set, else 0. Written as the borrow
/// of a 128-bit subtraction: as a comparison, the compiler turns the `&`
/// with it into a select, and then the select in a loop into a branch, one
/// the predictor cannot guess.
#[inline(always)]
fn single_mask(m: u64) -> u64 {
    let rest = m & m.wrapping_sub(1);
    (u128::from(rest).wrapping_sub(1) >> 64) as u64
}

/// What one pass of the all-different window learns from the id masks of
/// its variables: the ids of fixed variables, the ids held at least once and
/// at least twice, and the ids two fixed variables share (a conflict).
/// Adding a mask takes no branch: whether a variable is fixed is data the
/// predictor cannot guess.
#[derive(Clone, Copy, Default)]
struct WindowSummary {
    fixed: u64,
    once: u64,
    twice: u64,
    clash: u64,
}

impl WindowSummary {
    /// Adds one variable's id mask (never empty).
    #[inline(always)]
    fn add(&mut self, m: u64) {
        let f = m & single_mask(m);
        self.clash |= self.fixed & f;
        self.fixed |= f;
        self.twice |= self.once & m;
        self.once |= m;
    }
}

impl DomainStore {
    /// Fused forward checking for two to four all-different constraints over
    /// the same variables (one-word domains): for every position `j` listed
    /// in `peers`, removes at once the values `ids[t] − pos[j].adj[t]` for
    /// each member `t < G`. One pass, one mask per peer, instead of one pass
    /// per constraint.
    #[inline(always)]
    pub(crate) fn remove_ids_small<const G: usize>(
        &mut self,
        pos: &[FusedPos],
        peers: &[u32],
        ids: [i64; G],
    ) -> Result<(), Conflict> {
        let mut removed = 0u32;
        for &j in peers {
            let p = &pos[j as usize];
            let m = id_mask(&ids, &p.adj);
            let i = p.var as usize;
            let bits = self.words[i];
            let gone = bits & m;
            if gone == 0 {
                continue;
            }
            let new = bits & !m;
            if new == 0 {
                self.removals += u64::from(removed);
                if self.explaining {
                    self.note_failed_write(i, self.ex.cause);
                }
                return Err(Conflict);
            }
            if self.track_prunes {
                self.log_small_prunes(i, gone);
            }
            removed += gone.count_ones();
            self.save_word(i);
            self.words[i] = new;
            self.note_change(i, bits, small_kinds(bits, new));
        }
        self.removals += u64::from(removed);
        Ok(())
    }

    /// [`remove_ids_small`](Self::remove_ids_small) for a wave of fixed
    /// positions (`ids[b][t]`: member t's id of wave member b) when
    /// [`plain_small_updates`](Self::plain_small_updates) holds: every peer's
    /// new bits are stored whether or not they changed, and a peer that
    /// becomes fixed is noted as a bit of a mask, so the loop has no
    /// data-dependent branch but the wipe-out test. The peers it fixes are
    /// set in `fixed` (a word per word of positions), their variables go to
    /// the fixed queue when `queue` is set; returns how many.
    #[inline(always)]
    pub(crate) fn remove_ids_small_plain<const G: usize>(
        &mut self,
        pos: &[FusedPos],
        active: std::ops::Range<usize>,
        ids: Ids<'_, G>,
        fixed: &mut [u64],
        queue: bool,
    ) -> Result<usize, Conflict> {
        debug_assert!(self.plain_small_updates());
        let n = self.num_vars;
        let (small, words) = self.words.split_at_mut(n);
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
        self.account_pass(r, fixed, queue, |j| pos[j].var)
    }

    /// Explaining mode's pass: [`remove_ids_small_plain`](Self::remove_ids_small_plain)
    /// for the ids of one fixed position, each value removed recorded on
    /// the explanation trail with `cause`; a peer the ids would empty is
    /// left as it is and named as the failure's variable. Inlined into the
    /// fused propagator's vector builds (their `popcnt`).
    #[inline(always)]
    pub(crate) fn remove_ids_small_logged<const G: usize>(
        &mut self,
        pos: &[FusedPos],
        active: std::ops::Range<usize>,
        ids: [i64; G],
        fixed: &mut [u64],
        queue: bool,
        cause: super::explained::Cause,
    ) -> Result<usize, Conflict> {
        let (mut removed, mut count) = (0u32, 0usize);
        // State word `k` is `words[num_vars + k]` (see `remove_ids_small_plain`).
        let (first, n) = (active.start, self.num_vars);
        for (k, out) in active.zip(fixed.iter_mut()) {
            let mut a = self.words[n + k];
            let mut newly = 0u64;
            while a != 0 {
                let b = a.trailing_zeros();
                a &= a - 1;
                let p = &pos[(k - first) * 64 + b as usize];
                let i = p.var as usize;
                let bits = self.words[i];
                let gone = bits & id_mask(&ids, &p.adj);
                if gone == 0 {
                    continue;
                }
                let new = bits & !gone;
                if new == 0 {
                    self.removals += u64::from(removed);
                    self.note_failed_write(i, cause);
                    return Err(Conflict);
                }
                self.log_removed(i, gone, cause);
                self.words[i] = new;
                removed += gone.count_ones();
                newly |= u64::from(new & (new - 1) == 0) << b;
            }
            *out = newly;
            count += newly.count_ones() as usize;
        }
        self.account_pass(Ok((count, removed)), fixed, queue, |j| pos[j].var)
    }

    /// The bookkeeping after a pass `r` (peers fixed, values removed):
    /// counters, and the variables (`var(position)`) of the peers it fixed
    /// queued when `queue` is set.
    #[inline(always)]
    fn account_pass(
        &mut self,
        r: Result<(usize, u32), u32>,
        fixed: &[u64],
        queue: bool,
        var: impl Fn(usize) -> u32,
    ) -> Result<usize, Conflict> {
        let (count, removed) = r.map_err(|removed| {
            self.removals += u64::from(removed);
            Conflict
        })?;
        self.removals += u64::from(removed);
        self.unfixed -= count;
        if queue && count > 0 {
            for j in set_bits(fixed) {
                self.note_fixed_by_pass(var(j) as usize);
            }
        }
        Ok(count)
    }

    /// Removes the ids of one fixed position from the active peers of a
    /// [`DenseGroup`] (position `p` is variable `dense.first + p`), computing
    /// eight positions at a time; the peers it fixes are added to `fixed`
    /// (and to the fixed queue when `queue` is set).
    #[inline(always)]
    pub(crate) fn remove_ids_small_dense<const G: usize, const VEC: u8>(
        &mut self,
        dense: &DenseGroup,
        active: std::ops::Range<usize>,
        ids: Ids<'_, G>,
        fixed: &mut [u64],
        queue: bool,
    ) -> Result<usize, Conflict> {
        debug_assert!(self.plain_small_updates());
        let n = self.num_vars;
        let (small, words) = self.words.split_at_mut(n);
        let active = &words[active];
        let r = dense_pass::<G, VEC>(small, dense, active, fixed, ids);
        self.account_pass(r, fixed, queue, |j| dense.first + j as u32)
    }

    /// All-different propagation on one-word domains whose ids (`value +
    /// offset`, bit `b` of variable `vars[j]` standing for id `adj[j] + b`) all
    /// fit one 64-bit window: naked singles, hidden singles (when every
    /// available id is needed) and the pigeonhole test, to a fixpoint, with a
    /// few word operations per variable and pass. `window` is the lowest id
    /// when the caller knows that all ids fit the 64 from there. `None` when
    /// the ids do not fit one window; otherwise whether a domain changed.
    pub(crate) fn alldiff_window(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        window: Option<i64>,
    ) -> Result<Option<bool>, Conflict> {
        #[cfg(target_arch = "x86_64")]
        if self.simd != Simd::Portable {
            // SAFETY: `simd` is AVX2 or better only when `Simd::detect`
            // found popcnt, bmi1 and lzcnt on this machine.
            return unsafe { self.alldiff_window_v3(vars, adj, window) };
        }
        self.alldiff_window_body(vars, adj, window)
    }

    /// [`alldiff_window`](Self::alldiff_window) compiled for x86-64-v3
    /// (hardware popcount and bit scans).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn alldiff_window_v3(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        window: Option<i64>,
    ) -> Result<Option<bool>, Conflict> {
        self.alldiff_window_body(vars, adj, window)
    }

    #[inline(always)]
    fn alldiff_window_body(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        window: Option<i64>,
    ) -> Result<Option<bool>, Conflict> {
        let k = vars.len();
        if k == 0 {
            return Ok(Some(false));
        }
        if k > 64 {
            return Ok(None);
        }
        let adj = &adj[..k];
        match window {
            // Every `adj[j] − w` is in 0..64 (the window was found from the
            // declared domains): the words only move up.
            Some(w) => self.window_fixpoint::<true>(vars, adj, w),
            // `id_window` inline: calling it cost this pass 0.3 % more
            // instructions on Sudoku top95 (callgrind).
            None => {
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for (&v, &a) in vars.iter().zip(adj) {
                    let bits = self.words[v as usize];
                    lo = lo.min(a + bits.trailing_zeros() as i64);
                    hi = hi.max(a + 63 - bits.leading_zeros() as i64);
                }
                if hi - lo >= 64 {
                    return Ok(None);
                }
                self.window_fixpoint::<false>(vars, adj, lo)
            }
        }
    }

    /// The lowest id of the variables `vars` (bit `b` of `vars[j]` is id
    /// `adj[j] + b`) when all their ids fit one 64-bit window from it.
    #[inline(always)]
    fn id_window(&self, vars: &[u32], adj: &[i64]) -> Option<i64> {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (&v, &a) in vars.iter().zip(adj) {
            let bits = self.words[v as usize];
            lo = lo.min(a + bits.trailing_zeros() as i64);
            hi = hi.max(a + 63 - bits.leading_zeros() as i64);
        }
        (hi - lo < 64).then_some(lo)
    }

    /// The fixpoint of [`alldiff_window`](Self::alldiff_window) over ids
    /// from `lo`; `UP`: every `adj[j] − lo` is in `0..64`.
    #[inline(always)]
    fn window_fixpoint<const UP: bool>(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        lo: i64,
    ) -> Result<Option<bool>, Conflict> {
        let k = vars.len();
        let to_ids = |bits: u64, by: i64| if UP { bits << by } else { shift_ids(bits, by) };
        let to_bits = |ids: u64, by: i64| if UP { ids >> by } else { shift_ids(ids, -by) };
        // Work on a local copy of the id masks (no indirect loads per pass),
        // summarised as they are loaded, and write back only the variables
        // that changed, once each.
        let mut masks = [0u64; 64];
        let masks = &mut masks[..k];
        let mut sum = WindowSummary::default();
        for j in 0..k {
            let m = to_ids(self.words[vars[j] as usize], adj[j] - lo);
            masks[j] = m;
            sum.add(m);
        }
        let mut changed = 0u64;
        loop {
            if sum.clash != 0 {
                return Err(Conflict);
            }
            let avail = sum.once.count_ones() as usize;
            if avail < k {
                return Err(Conflict);
            }
            let hidden = if avail == k {
                sum.once & !sum.twice & !sum.fixed
            } else {
                0
            };
            // Nothing to do unless an open variable holds a fixed id (with
            // no clash, a fixed id held twice) or a hidden single. Then
            // some open variable changes: a hidden id is in one variable
            // only, and not a fixed one.
            if sum.twice & sum.fixed == 0 && hidden == 0 {
                break;
            }
            // One pass applies this summary and makes the next one, without
            // a branch per variable: a fixed variable keeps its id, an open
            // one loses the fixed ids and, holding a hidden single, becomes
            // it; a variable left empty or with two hidden singles fails.
            let (fixed, mut next) = (sum.fixed, WindowSummary::default());
            let mut bad = false;
            for (j, m) in masks.iter_mut().enumerate() {
                let old = *m;
                let kept = old & (!fixed | single_mask(old));
                // Hidden ids are in no fixed variable: 0 for those.
                let h = kept & hidden;
                bad |= h & h.wrapping_sub(1) != 0;
                let new = if h != 0 { h } else { kept };
                bad |= new == 0;
                changed |= u64::from(new != old) << j;
                *m = new;
                next.add(new);
            }
            if bad {
                return Err(Conflict);
            }
            sum = next;
        }
        let mut c = changed;
        while c != 0 {
            let j = c.trailing_zeros() as usize;
            c &= c - 1;
            self.set_small(vars[j] as usize, to_bits(masks[j], adj[j] - lo))?;
        }
        Ok(Some(changed != 0))
    }

    /// Explaining mode's [`alldiff_window`](Self::alldiff_window) for
    /// propagator `prop`: the same fixpoint, a round at a time, each change
    /// logged as it is written. A value a fixed position's id takes is
    /// explained by that position (`x_h = v`, kept in the cause); a hidden
    /// single `x_j = v` by the lazy code `j`, which the all-different turns
    /// into its window reason when asked. `None` when the ids do not fit
    /// one window or a round would fail: the caller's explaining pass then
    /// finds the failure and explains it.
    pub(crate) fn alldiff_window_logged(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        prop: u32,
    ) -> Option<bool> {
        #[cfg(target_arch = "x86_64")]
        if self.simd != Simd::Portable {
            // SAFETY: as in `alldiff_window`.
            return unsafe { self.alldiff_window_logged_v3(vars, adj, prop) };
        }
        self.alldiff_window_logged_body(vars, adj, prop)
    }

    /// [`alldiff_window_logged`](Self::alldiff_window_logged) compiled for
    /// x86-64-v3.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn alldiff_window_logged_v3(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        prop: u32,
    ) -> Option<bool> {
        self.alldiff_window_logged_body(vars, adj, prop)
    }

    #[inline(always)]
    fn alldiff_window_logged_body(&mut self, vars: &[u32], adj: &[i64], prop: u32) -> Option<bool> {
        use super::explained::{Cause, How};
        use crate::ids::VarId;
        use crate::literal::Literal;
        let k = vars.len();
        if k == 0 || k > 64 {
            return (k == 0).then_some(false);
        }
        let adj = &adj[..k];
        let lo = self.id_window(vars, adj)?;
        // The value of id `lo + b` at position `j`.
        let value = |s: &Self, j: usize, b: u32| {
            s.base[vars[j] as usize] + (lo + b as i64 - adj[j]) as crate::ids::Value
        };
        let mut masks = [0u64; 64];
        let masks = &mut masks[..k];
        let mut sum = WindowSummary::default();
        for j in 0..k {
            masks[j] = shift_ids(self.words[vars[j] as usize], adj[j] - lo);
            sum.add(masks[j]);
        }
        let (mut changed, mut holder, mut news) = (false, [0u8; 64], [0u64; 64]);
        let level = self.marks.len();
        loop {
            let avail = sum.once.count_ones() as usize;
            if sum.clash != 0 || avail < k {
                return None;
            }
            let hidden = if avail == k {
                sum.once & !sum.twice & !sum.fixed
            } else {
                0
            };
            if sum.twice & sum.fixed == 0 && hidden == 0 {
                break;
            }
            // The round, checked before anything is written.
            let (fixed, mut next, mut singles) = (sum.fixed, WindowSummary::default(), 0u64);
            for (j, &old) in masks.iter().enumerate() {
                if old & old.wrapping_sub(1) == 0 {
                    holder[old.trailing_zeros() as usize] = j as u8;
                }
                let kept = old & (!fixed | single_mask(old));
                let h = kept & hidden;
                let new = if h != 0 { h } else { kept };
                if h & h.wrapping_sub(1) != 0 || new == 0 {
                    return None;
                }
                singles |= u64::from(h != 0) << j;
                news[j] = new;
                next.add(new);
            }
            for j in 0..k {
                let (old, new) = (masks[j], news[j]);
                if old == new {
                    continue;
                }
                let x = VarId(vars[j]);
                if singles >> j & 1 == 1 {
                    let lit = Literal::Eq(x, value(self, j, new.trailing_zeros()));
                    let how = How::Lazy(j as u64);
                    self.ex.push_as(lit, Cause::Propagated { prop, how }, level);
                } else {
                    let mut gone = old & !new;
                    while gone != 0 {
                        let b = gone.trailing_zeros();
                        gone &= gone - 1;
                        let h = holder[b as usize] as usize;
                        let by = Literal::Eq(VarId(vars[h]), value(self, h, b));
                        let how = How::One(by);
                        let lit = Literal::Ne(x, value(self, j, b));
                        self.ex.push_as(lit, Cause::Propagated { prop, how }, level);
                    }
                }
                self.set_small_unlogged(vars[j] as usize, shift_ids(new, lo - adj[j]));
                masks[j] = new;
            }
            changed = true;
            sum = next;
        }
        Some(changed)
    }

    /// All-different forward checking on one-word domains: for every position
    /// `j ≠ skip`, removes the bit `id − adj[j]` from variable `vars[j]`, where
    /// `adj[j] = offset_j + declared_min_j`. All the variables must be small.
    /// This is the hot loop of N-queens-like models.
    #[inline]
    pub(crate) fn remove_id_small(
        &mut self,
        vars: &[u32],
        adj: &[i64],
        skip: usize,
        id: i64,
    ) -> Result<(), Conflict> {
        assert_eq!(vars.len(), adj.len());
        let small_len = self.num_vars;
        for (j, (&v, &a)) in vars.iter().zip(adj).enumerate() {
            let i = v as usize;
            let off = id - a;
            if (off as u64) >= 64 || j == skip {
                continue;
            }
            debug_assert!(self.is_small(i));
            // The model only creates constraints over its own variables.
            assert!(i < small_len);
            let bits = self.words[i];
            let bit = 1u64 << off;
            if bits & bit == 0 {
                continue;
            }
            let new = bits & !bit;
            if new == 0 {
                return Err(Conflict);
            }
            self.clear_small_bit(i, new, bit);
        }
        Ok(())
    }

    #[inline(always)]
    fn clear_small_bit(&mut self, i: usize, new: u64, bit: u64) {
        if self.track_prunes {
            self.log_small_prunes(i, bit);
        }
        self.removals += 1;
        let old = self.words[i];
        self.save_word(i);
        self.words[i] = new;
        self.note_change(i, old, small_kinds(old, new));
    }
}
