//! All-different over one-word domains, word by word: the naked and hidden
//! singles window (every id of the variables in one 64-bit window, a few
//! word operations per variable and pass) and value forward checking of one
//! id. The hot loops of Sudoku- and N-queens-like models under the
//! [`AllDifferent`](super::AllDifferent) propagator; they write the store's
//! words through its word primitives ([`crate::domain::words`]), which keep
//! the bookkeeping, and in explaining mode log each change with its reason.

use crate::domain::explained::{Cause, How};
use crate::domain::words::Simd;
use crate::domain::{Conflict, DomainStore};
use crate::ids::VarId;
use crate::literal::Literal;

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

/// All-different propagation on one-word domains whose ids (`value +
/// offset`, bit `b` of variable `vars[j]` standing for id `adj[j] + b`) all
/// fit one 64-bit window: naked singles, hidden singles (when every
/// available id is needed) and the pigeonhole test, to a fixpoint, with a
/// few word operations per variable and pass. `window` is the lowest id
/// when the caller knows that all ids fit the 64 from there. `None` when
/// the ids do not fit one window; otherwise whether a domain changed.
pub(crate) fn alldiff_window(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    window: Option<i64>,
) -> Result<Option<bool>, Conflict> {
    #[cfg(target_arch = "x86_64")]
    if store.simd != Simd::Portable {
        // SAFETY: `simd` is AVX2 or better only when `Simd::detect`
        // found popcnt, bmi1 and lzcnt on this machine.
        return unsafe { alldiff_window_v3(store, vars, adj, window) };
    }
    alldiff_window_body(store, vars, adj, window)
}

/// [`alldiff_window`] compiled for x86-64-v3
/// (hardware popcount and bit scans).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn alldiff_window_v3(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    window: Option<i64>,
) -> Result<Option<bool>, Conflict> {
    alldiff_window_body(store, vars, adj, window)
}

#[inline(always)]
fn alldiff_window_body(
    store: &mut DomainStore,
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
        Some(w) => window_fixpoint::<true>(store, vars, adj, w),
        // `id_window` inline: calling it cost this pass 0.3 % more
        // instructions on Sudoku top95 (callgrind).
        None => {
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for (&v, &a) in vars.iter().zip(adj) {
                let bits = store.small_word(v as usize);
                lo = lo.min(a + bits.trailing_zeros() as i64);
                hi = hi.max(a + 63 - bits.leading_zeros() as i64);
            }
            if hi - lo >= 64 {
                return Ok(None);
            }
            window_fixpoint::<false>(store, vars, adj, lo)
        }
    }
}

/// The lowest id of the variables `vars` (bit `b` of `vars[j]` is id
/// `adj[j] + b`) when all their ids fit one 64-bit window from it.
#[inline(always)]
fn id_window(store: &DomainStore, vars: &[u32], adj: &[i64]) -> Option<i64> {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for (&v, &a) in vars.iter().zip(adj) {
        let bits = store.small_word(v as usize);
        lo = lo.min(a + bits.trailing_zeros() as i64);
        hi = hi.max(a + 63 - bits.leading_zeros() as i64);
    }
    (hi - lo < 64).then_some(lo)
}

/// The fixpoint of [`alldiff_window`] over ids
/// from `lo`; `UP`: every `adj[j] − lo` is in `0..64`.
#[inline(always)]
fn window_fixpoint<const UP: bool>(
    store: &mut DomainStore,
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
        let m = to_ids(store.small_word(vars[j] as usize), adj[j] - lo);
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
    // Outside explaining mode only (the caller's test): no trail entries
    // to write, so not the store's `set_small` and its explaining test.
    debug_assert!(!store.explaining);
    while c != 0 {
        let j = c.trailing_zeros() as usize;
        c &= c - 1;
        // Changed, and not empty (`bad` above).
        store.set_small_unlogged(vars[j] as usize, to_bits(masks[j], adj[j] - lo));
    }
    Ok(Some(changed != 0))
}

/// Explaining mode's [`alldiff_window`] for
/// propagator `prop`: the same fixpoint, a round at a time, each change
/// logged as it is written. A value a fixed position's id takes is
/// explained by that position (`x_h = v`, kept in the cause); a hidden
/// single `x_j = v` by the lazy code `j`, which the all-different turns
/// into its window reason when asked. `None` when the ids do not fit
/// one window or a round would fail: the caller's explaining pass then
/// finds the failure and explains it.
pub(crate) fn alldiff_window_logged(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    window: Option<i64>,
    prop: u32,
) -> Option<bool> {
    #[cfg(target_arch = "x86_64")]
    if store.simd != Simd::Portable {
        // SAFETY: as in `alldiff_window`.
        return unsafe { alldiff_window_logged_v3(store, vars, adj, window, prop) };
    }
    alldiff_window_logged_body(store, vars, adj, window, prop)
}

/// [`alldiff_window_logged`] compiled for
/// x86-64-v3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn alldiff_window_logged_v3(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    window: Option<i64>,
    prop: u32,
) -> Option<bool> {
    alldiff_window_logged_body(store, vars, adj, window, prop)
}

#[inline(always)]
fn alldiff_window_logged_body(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    window: Option<i64>,
    prop: u32,
) -> Option<bool> {
    let k = vars.len();
    if k == 0 || k > 64 {
        return (k == 0).then_some(false);
    }
    let adj = &adj[..k];
    match window {
        Some(w) => window_logged::<true>(store, vars, adj, w, prop),
        None => window_logged::<false>(store, vars, adj, id_window(store, vars, adj)?, prop),
    }
}

/// The fixpoint of [`alldiff_window_logged`] over ids from `lo`; `UP` as
/// in [`window_fixpoint`]. The rounds are logged as they are found and
/// the words written once at the end (or, when a round would fail, as
/// the last good round left them, matching the trail).
#[inline(always)]
fn window_logged<const UP: bool>(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    lo: i64,
    prop: u32,
) -> Option<bool> {
    let k = vars.len();
    let to_ids = |bits: u64, by: i64| if UP { bits << by } else { shift_ids(bits, by) };
    let to_bits = |ids: u64, by: i64| if UP { ids >> by } else { shift_ids(ids, -by) };
    // The value of id `lo + b` at position `j`.
    let value = |s: &DomainStore, j: usize, b: u32| {
        s.small_base(vars[j] as usize) + (lo + b as i64 - adj[j]) as crate::ids::Value
    };
    let mut masks = [0u64; 64];
    let masks = &mut masks[..k];
    let mut sum = WindowSummary::default();
    for j in 0..k {
        masks[j] = to_ids(store.small_word(vars[j] as usize), adj[j] - lo);
        sum.add(masks[j]);
    }
    let level = store.level();
    // `holder[b]`: the position fixed to id `lo + b` (slot 64 takes the
    // open positions' writes, so that recording one needs no branch).
    let (mut changed, mut holder, mut news) = (0u64, [0u8; 65], [0u64; 64]);
    let mut failed = false;
    loop {
        let avail = sum.once.count_ones() as usize;
        if sum.clash != 0 || avail < k {
            failed = true;
            break;
        }
        let hidden = if avail == k {
            sum.once & !sum.twice & !sum.fixed
        } else {
            0
        };
        if sum.twice & sum.fixed == 0 && hidden == 0 {
            break;
        }
        // The round, checked before anything is logged.
        let (fixed, mut next, mut singles) = (sum.fixed, WindowSummary::default(), 0u64);
        let mut round = 0u64;
        for (j, &old) in masks.iter().enumerate() {
            let single = old & old.wrapping_sub(1) == 0;
            holder[if single {
                old.trailing_zeros() as usize
            } else {
                64
            }] = j as u8;
            let kept = old & (!fixed | single_mask(old));
            let h = kept & hidden;
            let new = if h != 0 { h } else { kept };
            failed |= h & h.wrapping_sub(1) != 0 || new == 0;
            singles |= u64::from(h != 0) << j;
            round |= u64::from(new != old) << j;
            news[j] = new;
            next.add(new);
        }
        if failed {
            break;
        }
        // Only the positions the round changed (a loop over their bits,
        // not a test per position).
        let mut c = round;
        while c != 0 {
            let j = c.trailing_zeros() as usize;
            c &= c - 1;
            let (old, new) = (masks[j], news[j]);
            if singles >> j & 1 == 1 {
                let lit = Literal::Eq(VarId(vars[j]), value(store, j, new.trailing_zeros()));
                let how = How::Lazy(j as u64);
                store.log_literal(lit, Cause::Propagated { prop, how });
            } else {
                let mut gone = old & !new;
                while gone != 0 {
                    let b = gone.trailing_zeros();
                    gone &= gone - 1;
                    let h = holder[b as usize] as usize;
                    let (v, w) = (value(store, j, b), value(store, h, b));
                    store.ex.push_ne_by_eq(vars[j], v, prop, vars[h], w, level);
                }
            }
            masks[j] = new;
        }
        changed |= round;
        sum = next;
    }
    let mut c = changed;
    while c != 0 {
        let j = c.trailing_zeros() as usize;
        c &= c - 1;
        store.set_small_unlogged(vars[j] as usize, to_bits(masks[j], adj[j] - lo));
    }
    (!failed).then_some(changed != 0)
}

/// All-different forward checking on one-word domains: for every position
/// `j ≠ skip`, removes the bit `id − adj[j]` from variable `vars[j]`, where
/// `adj[j] = offset_j + declared_min_j`. All the variables must be small.
/// This is the hot loop of N-queens-like models.
#[inline]
pub(crate) fn remove_id_small(
    store: &mut DomainStore,
    vars: &[u32],
    adj: &[i64],
    skip: usize,
    id: i64,
) -> Result<(), Conflict> {
    assert_eq!(vars.len(), adj.len());
    let small_len = store.num_vars();
    for (j, (&v, &a)) in vars.iter().zip(adj).enumerate() {
        let i = v as usize;
        let off = id - a;
        if (off as u64) >= 64 || j == skip {
            continue;
        }
        debug_assert!(store.is_small(i));
        // The model only creates constraints over its own variables.
        assert!(i < small_len);
        let bits = store.small_word(i);
        let bit = 1u64 << off;
        if bits & bit == 0 {
            continue;
        }
        let new = bits & !bit;
        if new == 0 {
            return Err(Conflict);
        }
        store.count_removals(1);
        store.write_small_word(i, new);
    }
    Ok(())
}
