//! Word-level primitives for all-different over one-word domains: the
//! passes of the fused all-different propagator
//! ([`crate::constraint::fused`]), one removal of an id from every peer, and
//! the naked/hidden-singles window. They work on the store's words directly
//! (one shift-and-mask per peer) and keep its bookkeeping: removals, events,
//! prunes for observers.
//!
//! The dense pass has vector forms for AVX2 and AVX-512, chosen at run time
//! ([`Simd::detect`]); the build targets the x86-64 baseline. (The file is
//! a little over 800 lines with its test: the three forms of the pass and
//! the test that holds them to each other belong together.)

use super::store::{small_kinds, DomainStore};
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

/// The vector unit the fused passes may use, detected once at run time (one
/// binary runs on any x86-64 machine and uses AVX-512 where there is one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simd {
    /// No vector code: the portable passes.
    Portable,
    /// AVX2 with popcnt, BMI1/2 and lzcnt (x86-64-v3): the portable passes,
    /// compiled for those instructions.
    Avx2,
    /// AVX-512F with VPOPCNTDQ: the vector pass, eight peers per step.
    Avx512,
}

impl Simd {
    /// The best level this machine supports, or a lower one named by the
    /// environment variable `CSP_SIMD` (`portable`, `avx2`), for
    /// benchmarks and tests.
    pub(crate) fn detect() -> Simd {
        let best = Simd::best();
        match std::env::var("CSP_SIMD").as_deref() {
            Ok("portable") => Simd::Portable,
            Ok("avx2") if best != Simd::Portable => Simd::Avx2,
            _ => best,
        }
    }

    fn best() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                return Simd::Avx2;
            }
        }
        Simd::Portable
    }
}

/// The pass of [`DomainStore::remove_ids_small_dense`]: with `VEC` 2 the
/// AVX-512 pass, with 1 the AVX2 pass (the caller runs with those features
/// enabled), else peer by peer.
#[inline(always)]
fn dense_pass<const G: usize, const VEC: u8>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    #[cfg(target_arch = "x86_64")]
    match VEC {
        // SAFETY: `VEC` 2 is only passed by callers compiled with avx512f
        // and avx512vpopcntdq, 1 by callers compiled with avx2, popcnt and
        // bmi1, which run only after `Simd::detect` found those on this machine.
        2 => return unsafe { dense_pass_avx512::<G>(small, dense, active, fixed, ids) },
        1 => return unsafe { dense_pass_avx2::<G>(small, dense, active, fixed, ids) },
        _ => {}
    }
    dense_pass_portable::<G>(small, dense, active, fixed, ids)
}

/// The pass of [`DomainStore::remove_ids_small_dense`], eight positions per
/// vector: (peers fixed, values removed), `Err(values removed)` on a wipe-out.
///
/// # Safety
/// The CPU must support avx512f and avx512vpopcntdq.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn dense_pass_avx512<const G: usize>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    use std::arch::x86_64::*;
    let first = dense.first as usize;
    // The masked loads and stores below touch only lanes of active
    // positions below `len`, all within `small[first..first + len]`.
    assert!(first + dense.len <= small.len());
    let words = small[first..].as_mut_ptr();
    let one = _mm512_set1_epi64(1);
    let mut gone_bits = _mm512_setzero_si512();
    let mut count = 0;
    // A loop, not `array::from_fn` (see `dense_pass_avx2`).
    let mut idv = [_mm512_setzero_si512(); G];
    let many: &[[i64; 4]] = match ids {
        Ids::One(id) => {
            for (v, &x) in idv.iter_mut().zip(&id) {
                *v = _mm512_set1_epi64(x);
            }
            &[]
        }
        Ids::Many(b) => b,
    };
    for (wi, (&word, out)) in active.iter().zip(fixed.iter_mut()).enumerate() {
        let mut newly_word = 0u64;
        let chunks = dense.chunks.iter().enumerate().skip(wi * 8).take(8);
        for (c, ch) in chunks {
            let lanes = (dense.len - c * 8).min(8);
            let act = (word >> (c % 8 * 8)) as __mmask8 & ((1u16 << lanes) - 1) as u8;
            if act == 0 {
                continue;
            }
            // SAFETY: lanes of `act` are active positions below `len`
            // (asserted in bounds above); the offsets are full chunks.
            let at = unsafe { words.add(c * 8) };
            let old = unsafe { _mm512_maskz_loadu_epi64(act, at.cast()) };
            // The removed ids' bits in each peer's word: bit `id − adj` of
            // every member; a shift outside 0..64 (an id outside the peer's
            // window) gives 0.
            let mut m = _mm512_setzero_si512();
            for t in 0..G {
                let adj = unsafe { _mm512_loadu_epi64(ch[t].as_ptr()) };
                if many.is_empty() {
                    let sh = _mm512_sub_epi64(idv[t], adj);
                    m = _mm512_or_si512(m, _mm512_sllv_epi64(one, sh));
                } else {
                    for b in many {
                        let sh = _mm512_sub_epi64(_mm512_set1_epi64(b[t]), adj);
                        m = _mm512_or_si512(m, _mm512_sllv_epi64(one, sh));
                    }
                }
            }
            let new = _mm512_andnot_si512(m, old);
            let gone = _mm512_xor_si512(old, new);
            gone_bits = _mm512_add_epi64(gone_bits, _mm512_popcnt_epi64(gone));
            // An active peer left with no value: a wipe-out.
            if _mm512_mask_testn_epi64_mask(act, new, new) != 0 {
                return Err(_mm512_reduce_add_epi64(gone_bits) as u32);
            }
            unsafe { _mm512_mask_storeu_epi64(at.cast(), act, new) };
            // Newly fixed: something went and `new & (new − 1)` is 0.
            let newly = _mm512_test_epi64_mask(gone, gone)
                & _mm512_testn_epi64_mask(new, _mm512_sub_epi64(new, one));
            newly_word |= u64::from(newly) << (c % 8 * 8);
        }
        *out = newly_word;
        count += newly_word.count_ones() as usize;
    }
    Ok((count, _mm512_reduce_add_epi64(gone_bits) as u32))
}

/// The pass of [`DomainStore::remove_ids_small_dense`] with AVX2: four
/// positions per vector. Only the blocks of four with an active position
/// are visited (found with a bit scan of the active word, so a board that
/// is mostly fixed costs little), and masked loads and stores touch the
/// active lanes only; the values removed are counted with a nibble lookup
/// (AVX2 has no vector popcount).
///
/// Not compiled with `#[target_feature]` itself but always inlined: in the
/// callers that are (the AVX2 build of the fused forward check) it joins
/// their code, so the pass loop of one forward check costs no call, and
/// its constants are set up once for all the waves.
///
/// # Safety
/// The CPU must support avx2, popcnt and bmi1.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn dense_pass_avx2<const G: usize>(
    small: &mut [u64],
    dense: &DenseGroup,
    active: &[u64],
    fixed: &mut [u64],
    ids: Ids<'_, G>,
) -> Result<(usize, u32), u32> {
    use std::arch::x86_64::*;
    let first = dense.first as usize;
    let len = dense.len;
    // Active lanes are positions below `len` (bits past it are masked off
    // below), all within `small[first..first + len]`.
    assert!(first + len <= small.len() && active.len() <= len.div_ceil(64));
    let words = small[first..].as_mut_ptr();
    let one = _mm256_set1_epi64x(1);
    let zero = _mm256_setzero_si256();
    // Nibble popcounts, for counting the removed values.
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low4 = _mm256_set1_epi8(0x0f);
    let mut gone_bytes = zero;
    let mut count = 0;
    // A loop, not `array::from_fn`: its closure is not compiled with AVX,
    // so the broadcast would be a call per member.
    let mut idv = [zero; G];
    let many: &[[i64; 4]] = match ids {
        Ids::One(id) => {
            for (v, &x) in idv.iter_mut().zip(&id) {
                *v = _mm256_set1_epi64x(x);
            }
            &[]
        }
        Ids::Many(b) => b,
    };
    for (wi, (&word, out)) in active.iter().zip(fixed.iter_mut()).enumerate() {
        let below = len - wi * 64;
        let mut left = if below >= 64 {
            word
        } else {
            word & ((1u64 << below) - 1)
        };
        let mut newly_word = 0u64;
        while left != 0 {
            // The next block of four positions with an active one.
            let shift = left.trailing_zeros() & !3;
            let act = (left >> shift) & 0xf;
            left &= !(0xf << shift);
            let p = wi * 64 + shift as usize;
            let ch = &dense.chunks[p / 8];
            let half = p % 8;
            let lane_mask = _mm256_loadu_si256(LANES[act as usize].as_ptr().cast());
            // SAFETY: lane `l` is position p + l, and active lanes are
            // positions below `len` (asserted above).
            let at = unsafe { words.add(p) };
            let old = unsafe { _mm256_maskload_epi64(at.cast(), lane_mask) };
            let mut m = zero;
            for t in 0..G {
                // SAFETY: a chunk holds eight offsets per member, `half`
                // is 0 or 4.
                let adj = unsafe { _mm256_loadu_si256(ch[t].as_ptr().add(half).cast()) };
                if many.is_empty() {
                    let sh = _mm256_sub_epi64(idv[t], adj);
                    m = _mm256_or_si256(m, _mm256_sllv_epi64(one, sh));
                } else {
                    for b in many {
                        let sh = _mm256_sub_epi64(_mm256_set1_epi64x(b[t]), adj);
                        m = _mm256_or_si256(m, _mm256_sllv_epi64(one, sh));
                    }
                }
            }
            let new = _mm256_andnot_si256(m, old);
            let gone = _mm256_xor_si256(old, new);
            let cnt = _mm256_add_epi8(
                _mm256_shuffle_epi8(nibbles, _mm256_and_si256(gone, low4)),
                _mm256_shuffle_epi8(
                    nibbles,
                    _mm256_and_si256(_mm256_srli_epi64::<4>(gone), low4),
                ),
            );
            gone_bytes = _mm256_add_epi64(gone_bytes, _mm256_sad_epu8(cnt, zero));
            // An active peer left with no value: a wipe-out.
            let empty = _mm256_and_si256(_mm256_cmpeq_epi64(new, zero), lane_mask);
            if _mm256_movemask_pd(_mm256_castsi256_pd(empty)) != 0 {
                return Err(sum_lanes(gone_bytes));
            }
            unsafe { _mm256_maskstore_epi64(at.cast(), lane_mask, new) };
            // Newly fixed: something went and `new & (new − 1)` is 0.
            let single =
                _mm256_cmpeq_epi64(_mm256_and_si256(new, _mm256_sub_epi64(new, one)), zero);
            let kept = _mm256_cmpeq_epi64(gone, zero);
            let newly = _mm256_and_si256(_mm256_andnot_si256(kept, single), lane_mask);
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(newly)) as u64;
            newly_word |= bits << shift;
        }
        *out = newly_word;
        count += newly_word.count_ones() as usize;
    }
    Ok((count, sum_lanes(gone_bytes)))
}

/// Per set of active lanes (bit `l`: lane `l`), the lane mask of AVX2's
/// masked loads and stores (all ones in the active lanes).
#[cfg(target_arch = "x86_64")]
const LANES: [[i64; 4]; 16] = {
    let mut t = [[0i64; 4]; 16];
    let mut a = 0;
    while a < 16 {
        let mut l = 0;
        while l < 4 {
            if a >> l & 1 == 1 {
                t[a][l] = -1;
            }
            l += 1;
        }
        a += 1;
    }
    t
};

/// The sum of the four 64-bit lanes of `v`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn sum_lanes(v: std::arch::x86_64::__m256i) -> u32 {
    use std::arch::x86_64::*;
    (_mm256_extract_epi64::<0>(v)
        + _mm256_extract_epi64::<1>(v)
        + _mm256_extract_epi64::<2>(v)
        + _mm256_extract_epi64::<3>(v)) as u32
}

/// The pass of [`DomainStore::remove_ids_small_dense`] one active position
/// at a time, as [`plain_pass`] does (the vector pass is tested against it).
#[inline(always)]
fn dense_pass_portable<const G: usize>(
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
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        if let Some(w) = window {
            lo = w;
        } else {
            for (&v, &a) in vars.iter().zip(adj) {
                let bits = self.words[v as usize];
                lo = lo.min(a + bits.trailing_zeros() as i64);
                hi = hi.max(a + 63 - bits.leading_zeros() as i64);
            }
            if hi - lo >= 64 {
                return Ok(None);
            }
        }
        #[inline(always)]
        fn to_ids(bits: u64, by: i64) -> u64 {
            if by >= 0 {
                bits << by
            } else {
                bits >> -by
            }
        }
        // Work on a local copy of the id masks (no indirect loads per pass),
        // and write back only the variables that changed, once each.
        let mut masks = [0u64; 64];
        for (m, (&v, &a)) in masks.iter_mut().zip(vars.iter().zip(adj)) {
            *m = to_ids(self.words[v as usize], a - lo);
        }
        self.window_fixpoint(&mut masks[..k], vars, adj, lo)
    }

    /// The fixpoint of [`alldiff_window`](Self::alldiff_window) on the id
    /// masks `masks` (one per variable, ids from `lo`).
    #[inline(always)]
    fn window_fixpoint(
        &mut self,
        masks: &mut [u64],
        vars: &[u32],
        adj: &[i64],
        lo: i64,
    ) -> Result<Option<bool>, Conflict> {
        #[inline(always)]
        fn to_ids(bits: u64, by: i64) -> u64 {
            if by >= 0 {
                bits << by
            } else {
                bits >> -by
            }
        }
        let k = vars.len();
        let mut changed_any = false;
        loop {
            let (mut fixed, mut multi, mut once, mut twice) = (0u64, 0u64, 0u64, 0u64);
            for &m in masks.iter() {
                if m & (m - 1) == 0 {
                    if fixed & m != 0 {
                        return Err(Conflict);
                    }
                    fixed |= m;
                } else {
                    multi |= m;
                }
                twice |= once & m;
                once |= m;
            }
            let avail = once.count_ones() as usize;
            if avail < k {
                return Err(Conflict);
            }
            let hidden = if avail == k {
                once & !twice & !fixed
            } else {
                0
            };
            // Nothing to do unless an open variable holds a fixed id or a
            // hidden single (hidden ids are never in fixed variables).
            if multi & fixed == 0 && hidden == 0 {
                break;
            }
            let mut changed = false;
            for m in masks.iter_mut() {
                let old = *m;
                if old & (old - 1) == 0 {
                    continue;
                }
                let mut new = old & !fixed;
                let h = new & hidden;
                if h != 0 {
                    if h & (h - 1) != 0 {
                        return Err(Conflict);
                    }
                    new = h;
                }
                if new != old {
                    if new == 0 {
                        return Err(Conflict);
                    }
                    *m = new;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            changed_any = true;
        }
        if changed_any {
            for (&m, (&v, &a)) in masks.iter().zip(vars.iter().zip(adj)) {
                let i = v as usize;
                let bits = self.words[i];
                let nb = to_ids(m, lo - a);
                if nb != bits {
                    self.set_small(i, nb)?;
                }
            }
        }
        Ok(Some(changed_any))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector passes of a dense fused group (AVX2, and AVX-512 where
    /// the machine has it) against the portable one, on
    /// random groups, domains, active sets and fixed ids.
    #[test]
    fn dense_pass_matches_portable_pass() {
        // The vector passes this machine can run (none: nothing to compare).
        let levels: Vec<u8> = match Simd::best() {
            Simd::Avx512 => vec![1, 2],
            Simd::Avx2 => vec![1],
            Simd::Portable => return,
        };
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut next = move |m: u64| {
            rng = crate::search::splitmix(rng);
            rng % m
        };
        let (mut fixing, mut wiped) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + next(70) as usize;
            let first = next(3) as usize;
            let width = 1 + next(12);
            let pos: Vec<FusedPos> = (0..len)
                .map(|p| FusedPos {
                    adj: std::array::from_fn(|_| next(9) as i64 - 4 + p as i64 % 3),
                    var: (first + p) as u32,
                })
                .collect();
            let dense = DenseGroup::new(&pos).expect("consecutive");
            let small: Vec<u64> = (0..first + len + next(3) as usize)
                .map(|_| (next(1 << width) | 1 << next(width)) & ((1 << width) - 1) | 1)
                .collect();
            let active: Vec<u64> = (0..len.div_ceil(64))
                .map(|w| {
                    let bits = (len - w * 64).min(64);
                    let all = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
                    (next(u64::MAX) ^ next(u64::MAX) << 20) & all
                })
                .collect();
            let ids: Vec<[i64; 4]> = (0..1 + next(3))
                .map(|_| std::array::from_fn(|_| next(16) as i64 - 3))
                .collect();
            let one: [i64; 3] = std::array::from_fn(|t| ids[0][t]);
            for (many, level) in [false, true]
                .into_iter()
                .flat_map(|m| levels.iter().map(move |&l| (m, l)))
            {
                let id = if many { Ids::Many(&ids) } else { Ids::One(one) };
                let (mut s1, mut s2) = (small.clone(), small.clone());
                let (mut f1, mut f2) = (vec![0; active.len()], vec![0; active.len()]);
                let r1 = match level {
                    2 => dense_pass::<3, 2>(&mut s1, &dense, &active, &mut f1, id),
                    _ => dense_pass::<3, 1>(&mut s1, &dense, &active, &mut f1, id),
                };
                let r2 = dense_pass_portable::<3>(&mut s2, &dense, &active, &mut f2, id);
                match (r1, r2) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a, b);
                        assert_eq!((s1, f1), (s2, f2));
                        fixing += usize::from(a.0 > 0);
                    }
                    // After a wipe-out the words are restored by the search,
                    // and the vector pass counts whole chunks.
                    (Err(_), Err(_)) => wiped += 1,
                    (a, b) => panic!("vector {a:?}, portable {b:?}"),
                }
            }
        }
        assert!(
            fixing > 1000 && wiped > 1000,
            "{fixing} passes fixed peers, {wiped} wiped out"
        );
    }
}
