//! The vector forms of the fused all-different's passes (see
//! [`super::passes`] for the portable ones and the bookkeeping around them):
//! AVX2, four peers per step, and AVX-512, eight, chosen at run time
//! ([`Simd::detect`](crate::domain::words::Simd::detect)) so that one baseline x86-64 binary uses the vector
//! unit wherever there is one. Each form is tested against the portable
//! pass below.

#[cfg(target_arch = "x86_64")]
use super::passes::FusedPos;
use super::passes::{dense_pass_portable, DenseGroup, Ids};
#[cfg(target_arch = "x86_64")]
use crate::domain::{Conflict, DomainStore};

/// The pass of [`remove_ids_small_dense`](super::passes::remove_ids_small_dense): with `VEC` 2 the
/// AVX-512 pass, with 1 the AVX2 pass (the caller runs with those features
/// enabled), else peer by peer.
#[inline(always)]
pub(super) fn dense_pass<const G: usize, const VEC: u8>(
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

/// The pass of [`remove_ids_small_dense`](super::passes::remove_ids_small_dense), eight positions per
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

/// The pass of [`remove_ids_small_dense`](super::passes::remove_ids_small_dense) with AVX2: four
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
    let zero = _mm256_setzero_si256();
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
            let m = ids_mask_avx2::<G>(ch, half, &idv, many);
            let new = _mm256_andnot_si256(m, old);
            let gone = _mm256_xor_si256(old, new);
            gone_bytes = _mm256_add_epi64(gone_bytes, count_bits_avx2(gone));
            // An active peer left with no value: a wipe-out.
            let empty = _mm256_and_si256(_mm256_cmpeq_epi64(new, zero), lane_mask);
            if _mm256_movemask_pd(_mm256_castsi256_pd(empty)) != 0 {
                return Err(sum_lanes(gone_bytes));
            }
            unsafe { _mm256_maskstore_epi64(at.cast(), lane_mask, new) };
            let newly = _mm256_and_si256(newly_fixed_avx2(new, gone), lane_mask);
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(newly)) as u64;
            newly_word |= bits << shift;
        }
        *out = newly_word;
        count += newly_word.count_ones() as usize;
    }
    Ok((count, sum_lanes(gone_bytes)))
}

/// The bits of the ids to remove in four peers' words (positions `p..p +
/// 4`, `half` = `p % 8` within the chunk `ch`): for each member `t`, bit
/// `id − offset` of every id, the ids broadcast in `idv` or, when `many`
/// is not empty, each of `many`. A shift outside 0..64 gives no bit.
///
/// # Safety
/// The CPU must support avx2; `half` is 0 or 4.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn ids_mask_avx2<const G: usize>(
    ch: &[[i64; 8]; 4],
    half: usize,
    idv: &[std::arch::x86_64::__m256i; G],
    many: &[[i64; 4]],
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let one = _mm256_set1_epi64x(1);
    let mut m = _mm256_setzero_si256();
    for t in 0..G {
        // SAFETY: a chunk holds eight offsets per member, `half` is 0 or 4.
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
    m
}

/// Per lane, the number of set bits of `gone` (a nibble lookup: AVX2 has
/// no vector popcount), summed into one count per 64-bit lane.
///
/// # Safety
/// The CPU must support avx2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn count_bits_avx2(gone: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low4 = _mm256_set1_epi8(0x0f);
    let cnt = _mm256_add_epi8(
        _mm256_shuffle_epi8(nibbles, _mm256_and_si256(gone, low4)),
        _mm256_shuffle_epi8(
            nibbles,
            _mm256_and_si256(_mm256_srli_epi64::<4>(gone), low4),
        ),
    );
    _mm256_sad_epu8(cnt, _mm256_setzero_si256())
}

/// The lanes newly fixed: something went (`gone` not 0) and `new & (new −
/// 1)` is 0.
///
/// # Safety
/// The CPU must support avx2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn newly_fixed_avx2(
    new: std::arch::x86_64::__m256i,
    gone: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let single = _mm256_cmpeq_epi64(
        _mm256_and_si256(new, _mm256_sub_epi64(new, _mm256_set1_epi64x(1))),
        zero,
    );
    _mm256_andnot_si256(_mm256_cmpeq_epi64(gone, zero), single)
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

/// The words a one-word forward check reads and writes: the group's
/// length rounded up to whole blocks of four.
pub(crate) fn len_blocks(dense: &DenseGroup) -> usize {
    dense.len.next_multiple_of(4)
}

/// The whole forward check of a fused group whose positions fit one
/// word (a [`DenseGroup`] of at most 64 variables), with AVX2: the
/// removal of the ids of position `pos` (just fixed) from the active
/// peers, then wave after wave for the peers each pass fixes, with the
/// active positions, the ids and the constants in registers. The passes
/// are those of [`remove_ids_small_dense`](super::passes::remove_ids_small_dense)
/// (same removals, same order, same counts); only the bookkeeping
/// between them is lighter. With `queue`, the variables the waves fix
/// go on the fixed queue at the end, in position order (not pass by
/// pass). `state` is the group's state word (its active positions, as
/// [`word`](DomainStore::word) numbers it), `pos_ids` its positions' offsets,
/// `batch` room for the ids of one wave.
///
/// The active word is written once, on success: written before the
/// blocks are read, it sits in the last block of a group whose length
/// is not a multiple of four, and the block's wide load then waits for
/// the narrow store to reach the cache (a failed store-to-load forward;
/// measured 1-2 % of the whole count). On a conflict it keeps its old
/// value, as the other words keep what the passes left: the search
/// restores the level.
///
/// # Safety
/// The CPU must support avx2, popcnt, bmi1 and bmi2 (the caller is
/// compiled with them, after `Simd::detect` found them).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn forward_check_word_avx2<const G: usize, const LOG: bool>(
    store: &mut DomainStore,
    dense: &DenseGroup,
    pos_ids: &[FusedPos],
    state: usize,
    pos: usize,
    batch: &mut [[i64; 4]],
    queue: bool,
    gone_out: &mut [u64],
) -> Result<(), Conflict> {
    use std::arch::x86_64::*;
    debug_assert!(store.plain_small_updates());
    // With `LOG`, every block's removals are or-ed into `gone_out` (zeroed
    // by the caller, as long as the blocks).
    assert!(!LOG || gone_out.len() >= len_blocks(dense));
    let n = store.num_vars();
    let first = dense.first as usize;
    let len = dense.len;
    // Every position below 64; every block of four words read and
    // written back lies inside the array (the propagator pads it, see
    // `DomainStore::pad_words`). Only the lanes of active positions
    // (kept below `len`) change.
    assert!(len <= 64 && first + len <= n && pos < len);
    let words = store.words_mut();
    assert!(first + len.next_multiple_of(4) <= words.len());
    debug_assert!(pos_ids.len() == len && batch.len() >= len);
    let at_state = n + state;
    assert!(at_state < words.len());
    let all = if len == 64 { !0 } else { (1u64 << len) - 1 };
    // One raw pointer for every access below (the domains, the active
    // word), so that none invalidates another.
    let base = words.as_mut_ptr();
    let state_word = base.add(at_state);
    let mut active = *state_word & all;
    if active & (1u64 << pos) == 0 {
        // Checked already (see `FusedAllDifferent::check_body`).
        return Ok(());
    }
    active &= !(1u64 << pos);
    let doms = base.add(first);
    let id_of = |q: usize| -> [i64; 4] {
        // SAFETY: q < len (asserted above).
        let k = unsafe { *doms.add(q) }.trailing_zeros() as i64;
        let a = &pos_ids[q].adj;
        [k + a[0], k + a[1], k + a[2], k + a[3]]
    };
    let zero = _mm256_setzero_si256();
    // The wave's ids: one position broadcast in `idv`, or `batch[..r]`.
    let mut idv = [zero; G];
    let first_ids = id_of(pos);
    for (v, &x) in idv.iter_mut().zip(&first_ids) {
        *v = _mm256_set1_epi64x(x);
    }
    let mut r = 1usize;
    // The positions the waves fixed, queued at the end when `queue`.
    let mut fixed_all = 0u64;
    loop {
        let mut gone_bytes = zero;
        let mut newly = 0u64;
        let mut left = active;
        while left != 0 {
            // The next block of four positions with an active one.
            let shift = left.trailing_zeros() & !3;
            let act = (left >> shift) & 0xf;
            left &= !(0xf << shift);
            let p = shift as usize;
            let ch = &dense.chunks[p / 8];
            let half = p % 8;
            let lane_mask = _mm256_loadu_si256(LANES[act as usize].as_ptr().cast());
            // SAFETY: the block p..p + 4 lies inside the array (asserted
            // above). A plain load and store, not AVX2's masked ones
            // (a masked store is microcoded on AMD's Zen 2): the ids'
            // mask is zero in the lanes of inactive positions, so those
            // words are written back as they were.
            let at = doms.add(p);
            let old = _mm256_loadu_si256(at.cast());
            let many: &[[i64; 4]] = if r == 1 { &[] } else { &batch[..r] };
            let m = _mm256_and_si256(ids_mask_avx2::<G>(ch, half, &idv, many), lane_mask);
            let new = _mm256_andnot_si256(m, old);
            let gone = _mm256_and_si256(m, old);
            gone_bytes = _mm256_add_epi64(gone_bytes, count_bits_avx2(gone));
            if LOG {
                // SAFETY: p + 4 <= len_blocks(dense) <= gone_out.len().
                let out = gone_out.as_mut_ptr().add(p);
                let was = _mm256_loadu_si256(out.cast());
                _mm256_storeu_si256(out.cast(), _mm256_or_si256(was, gone));
            }
            let empty = _mm256_and_si256(_mm256_cmpeq_epi64(new, zero), lane_mask);
            if _mm256_movemask_pd(_mm256_castsi256_pd(empty)) != 0 {
                store.count_removals(sum_lanes(gone_bytes));
                return Err(Conflict);
            }
            _mm256_storeu_si256(at.cast(), new);
            let fixed = newly_fixed_avx2(new, gone);
            newly |= (_mm256_movemask_pd(_mm256_castsi256_pd(fixed)) as u64) << shift;
        }
        store.count_removals(sum_lanes(gone_bytes));
        if newly == 0 {
            *state_word = active;
            if queue {
                // Out of the loop, so that the vector registers need
                // not be saved around a call in every wave.
                store.queue_fixed(first, fixed_all);
            }
            return Ok(());
        }
        r = newly.count_ones() as usize;
        store.count_fixed(r);
        fixed_all |= newly;
        // The next wave: the positions this pass fixed, which have not
        // seen each other.
        active &= !newly;
        let mut a = newly;
        let mut b = 0;
        while a != 0 {
            let q = a.trailing_zeros() as usize;
            a &= a - 1;
            let ids = id_of(q);
            for other in &batch[..b] {
                if (0..G).any(|t| other[t] == ids[t]) {
                    return Err(Conflict);
                }
            }
            batch[b] = ids;
            b += 1;
        }
        if r == 1 {
            for (v, &x) in idv.iter_mut().zip(&batch[0]) {
                *v = _mm256_set1_epi64x(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::words::Simd;

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

    /// The one-word forward check (AVX2, all waves in registers) against
    /// pass-by-pass forward checking with the portable pass, on random
    /// groups of up to 64 positions, domains and active sets: the same
    /// outcome and, when it succeeds, the same domains, active positions,
    /// removal count and number of variables left open.
    #[test]
    fn word_forward_check_matches_pass_by_pass() {
        #[cfg(target_arch = "x86_64")]
        {
            if Simd::best() == Simd::Portable {
                return;
            }
            let mut rng = 0x0fed_cba9_8765_4321u64;
            let mut next = move |m: u64| {
                rng = crate::search::splitmix(rng);
                rng % m
            };
            let (mut waves, mut wiped, mut ok) = (0, 0, 0);
            for _ in 0..20_000 {
                let len = 1 + next(64) as usize;
                let first = next(3) as usize;
                let n = first + len + next(3) as usize;
                let width = 2 + next(11);
                let pos: Vec<FusedPos> = (0..len)
                    .map(|p| FusedPos {
                        adj: std::array::from_fn(|t| {
                            if t < 3 {
                                next(9) as i64 - 4 + p as i64 % 3
                            } else {
                                0
                            }
                        }),
                        var: (first + p) as u32,
                    })
                    .collect();
                let dense = DenseGroup::new(&pos).expect("consecutive");
                let doms = vec![crate::domain::Domain::range(0, width as i32 - 1)];
                let mut store = DomainStore::new(&doms, &vec![0; n]);
                let state = store.add_word(0);
                store.pad_words(first + len.next_multiple_of(4));
                store.finish_setup();
                for i in 0..n {
                    // Mostly wide domains, some singletons.
                    let w = if next(4) == 0 {
                        1 << next(width)
                    } else {
                        (next(1 << width) | 1 << next(width)) & ((1 << width) - 1)
                    };
                    store.split_words().0[i] = w;
                }
                store.unfixed = (0..n)
                    .filter(|&i| store.small_word(i).count_ones() > 1)
                    .count();
                let p0 = next(len as u64) as usize;
                store.split_words().0[first + p0] = 1 << next(width);
                let all = if len == 64 { !0 } else { (1u64 << len) - 1 };
                let active = (next(u64::MAX) | 1 << p0) & all;
                store.split_words().1[state] = active;
                // The reference: pass by pass with the portable pass.
                let mut small = store.split_words().0.to_vec();
                let mut act = active & !(1 << p0);
                let (mut removals, mut fixed) = (0u64, 0usize);
                let id_of = |small: &[u64], q: usize| -> [i64; 4] {
                    let k = small[first + q].trailing_zeros() as i64;
                    std::array::from_fn(|t| k + pos[q].adj[t])
                };
                let mut ids = vec![id_of(&small, p0)];
                let want = loop {
                    let one = [ids[0][0], ids[0][1], ids[0][2]];
                    let arg = if ids.len() == 1 {
                        Ids::One(one)
                    } else {
                        Ids::Many(&ids)
                    };
                    let mut f = [0u64];
                    match dense_pass_portable::<3>(&mut small, &dense, &[act], &mut f, arg) {
                        Err(_) => break Err(Conflict),
                        Ok((count, removed)) => {
                            removals += u64::from(removed);
                            fixed += count;
                            if count == 0 {
                                break Ok(());
                            }
                            waves += 1;
                            act &= !f[0];
                            let mut next_ids: Vec<[i64; 4]> = Vec::new();
                            let mut clash = false;
                            for q in (0..len).filter(|&q| f[0] >> q & 1 == 1) {
                                let i = id_of(&small, q);
                                clash |= next_ids.iter().any(|o| (0..3).any(|t| o[t] == i[t]));
                                next_ids.push(i);
                            }
                            if clash {
                                break Err(Conflict);
                            }
                            ids = next_ids;
                        }
                    }
                };
                let unfixed = store.unfixed;
                let mut batch = vec![[0i64; 4]; len];
                let before = store.split_words().0.to_vec();
                let mut gone = vec![0u64; len_blocks(&dense)];
                // SAFETY: `Simd::best` found AVX2 on this machine.
                let got = unsafe {
                    forward_check_word_avx2::<3, true>(
                        &mut store, &dense, &pos, state, p0, &mut batch, false, &mut gone,
                    )
                };
                assert_eq!(got, want, "len {len}, width {width}");
                if got.is_ok() {
                    ok += 1;
                    // The removals reported are those made.
                    for q in 0..len {
                        let now = store.small_word(first + q);
                        assert_eq!(gone[q], before[first + q] & !now, "position {q}");
                    }
                    assert_eq!(store.split_words().0[..], small[..]);
                    assert_eq!(store.word(state), act);
                    assert_eq!(store.removals, removals);
                    assert_eq!(store.unfixed, unfixed - fixed);
                } else {
                    wiped += 1;
                }
            }
            assert!(
                waves > 1000 && wiped > 1000 && ok > 1000,
                "{waves} waves, {wiped} wipe-outs, {ok} successes"
            );
        }
    }
}
