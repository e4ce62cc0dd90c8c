//! All-different, optionally over offset expressions `x_i + c_i`.

use super::Why;
use smallvec::SmallVec;

use super::{Constraint, Premises, Pruner};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

/// All-different over offset expressions: the values `x_i + c_i` are pairwise
/// distinct. With every `c_i = 0` this is the plain all-different.
///
/// The N-queens diagonals are the classic use: with one variable `x_i` per row
/// `i` holding the column, `x_i + i` names the diagonal and `x_i − i` the
/// anti-diagonal, so three all-different constraints (offsets `0`, `i`, `−i`)
/// state the whole puzzle. The value `x_i + c_i` is the constraint's **id**.
///
/// # Pruning
/// * forward checking: when `x_i` is fixed to `v`, the id `v + c_i` is removed
///   from every peer (value `v + c_i − c_j` from `x_j`). O(k) for arity k.
/// * arc consistency: to a fixpoint, naked singles (as above, for every fixed
///   variable) and, when all ids fit one 64-bit window, hidden singles (an id
///   that only one variable can take is forced when the variables need every
///   available id) and the pigeonhole check (fewer available ids than
///   variables is a conflict). O(k) per pass with word domains.
/// * local search: violations are the number of pairs sharing an id beyond
///   the first, `Σ_id (count(id) − 1)⁺`.
#[derive(Debug, Clone)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<Value>,
    /// When every variable's declared domain fits one machine word: the
    /// variable indices and `offset + declared minimum` per position, for the
    /// word-level fast path.
    fast: Option<(Vec<u32>, Vec<i64>)>,
    /// The lowest id when the declared domains' ids all fit one 64-bit
    /// window (Sudoku, Latin squares), so propagation need not find it.
    window: Option<i64>,
}

impl AllDifferent {
    /// All-different over `x_i + offsets[i]` (`offsets.len() == vars.len()`,
    /// checked by [`Model::all_different_offset`](crate::Model::all_different_offset)).
    pub fn new(vars: Vec<VarId>, offsets: Vec<Value>) -> AllDifferent {
        debug_assert_eq!(vars.len(), offsets.len());
        AllDifferent {
            vars,
            offsets,
            fast: None,
            window: None,
        }
    }

    /// Enables the word-level fast path: `bounds[i]` are the declared minimum
    /// and maximum of `vars[i]`, whose declared domain must span at most 64
    /// values (the model checks this, as it knows the declared domains).
    pub(crate) fn with_word_domains(mut self, bounds: &[(Value, Value)]) -> AllDifferent {
        let idx = self.vars.iter().map(|x| x.index() as u32).collect();
        let adj: Vec<i64> = self
            .offsets
            .iter()
            .zip(bounds)
            .map(|(&c, &(lo, _))| c as i64 + lo as i64)
            .collect();
        let lo = adj.iter().copied().min().unwrap_or(0);
        let hi = adj
            .iter()
            .zip(bounds)
            .map(|(&a, &(l, h))| a + (h as i64 - l as i64))
            .max()
            .unwrap_or(0);
        self.window = (hi - lo < 64).then_some(lo);
        self.fast = Some((idx, adj));
        self
    }

    /// The variables.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The word-level data (`variable indices`, `offset + declared minimum`
    /// per position) when every declared domain fits one word.
    pub(crate) fn word_data(&self) -> Option<(&[u32], &[i64])> {
        self.fast.as_ref().map(|(v, a)| (&v[..], &a[..]))
    }

    /// The offsets `c_i`.
    pub fn offsets(&self) -> &[Value] {
        &self.offsets
    }

    /// Removes the id of the fixed position `pos` from every other position.
    #[inline]
    fn remove_id_of(&self, pruner: &mut Pruner<'_>, pos: usize) -> Result<(), Conflict> {
        let x = self.vars[pos];
        let id = pruner.min(x) as i64 + self.offsets[pos] as i64;
        if let Some((idx, adj)) = &self.fast {
            if !pruner.explaining() {
                return super::window::remove_id_small(pruner.store, idx, adj, pos, id);
            }
        }
        // The reason of each removal: the fixed position's value.
        let fixed = Literal::Eq(x, pruner.min(x));
        for (j, (&y, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
            if j != pos {
                let v = id - c as i64;
                if let Ok(v) = Value::try_from(v) {
                    pruner.remove(y, v, fixed)?;
                }
            }
        }
        Ok(())
    }

    /// Naked singles (the ids of fixed positions leave the others), then
    /// hidden singles and the pigeonhole check as in
    /// [`singles_in_window`](Self::singles_in_window), with the domains as
    /// bit sets over an id window of up to 256 values. `None` when the ids
    /// span more; `Some(true)` when a domain changed (call again).
    fn singles_wide(&self, pruner: &mut Pruner<'_>) -> Result<Option<bool>, Conflict> {
        let k = self.vars.len();
        // Per position: its domain over the id window, and whether it is fixed.
        // (Sixteen inline: a bigger inline array costs a copy of its whole
        // size on every call.)
        let mut doms: SmallVec<[([u64; 4], bool); 16]> = SmallVec::with_capacity(k);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            let (a, b) = (pruner.min(x), pruner.max(x));
            lo = lo.min(a as i64 + c as i64);
            hi = hi.max(b as i64 + c as i64);
            doms.push(([0; 4], a == b));
        }
        if k == 0 || hi - lo >= 256 {
            return Ok(None);
        }
        let words = ((hi - lo) / 64 + 1) as usize;
        let mut fixed = [0u64; 4];
        for ((&x, &c), (d, is_fixed)) in self.vars.iter().zip(&self.offsets).zip(&mut doms) {
            let Ok(base) = Value::try_from(lo - c as i64) else {
                return Ok(None);
            };
            pruner.bits(x, base, &mut d[..words]);
            if *is_fixed {
                if (0..words).any(|w| fixed[w] & d[w] != 0) {
                    return Err(Conflict);
                }
                (0..words).for_each(|w| fixed[w] |= d[w]);
            }
        }
        // Naked singles.
        let mut changed = false;
        for (j, (d, is_fixed)) in doms.iter_mut().enumerate() {
            if *is_fixed {
                continue;
            }
            for w in 0..words {
                let mut hit = d[w] & fixed[w];
                d[w] &= !fixed[w];
                while hit != 0 {
                    let id = lo + 64 * w as i64 + hit.trailing_zeros() as i64;
                    pruner.remove(
                        self.vars[j],
                        (id - self.offsets[j] as i64) as Value,
                        self.holder_of(id, j),
                    )?;
                    changed = true;
                    hit &= hit - 1;
                }
            }
        }
        if changed {
            return Ok(Some(true));
        }
        // Hidden singles and the pigeonhole check.
        let (mut once, mut twice) = ([0u64; 4], [0u64; 4]);
        for (d, _) in &doms {
            for w in 0..words {
                twice[w] |= once[w] & d[w];
                once[w] |= d[w];
            }
        }
        let avail: u32 = once.iter().map(|w| w.count_ones()).sum();
        if avail < k as u32 {
            return Err(pruner.fail(self.confined(None, once, lo)));
        }
        if avail > k as u32 {
            return Ok(Some(false));
        }
        // Every id is needed: an id only one position can take is forced.
        let single: [u64; 4] = std::array::from_fn(|w| once[w] & !twice[w]);
        if single.iter().all(|&w| w == 0) {
            return Ok(Some(false));
        }
        for (j, (d, is_fixed)) in doms.iter().enumerate() {
            let mut mine = (0..words)
                .map(|w| (w, d[w] & single[w]))
                .filter(|&(_, m)| m != 0);
            let Some((w, m)) = mine.next() else { continue };
            let second = if m.count_ones() > 1 {
                Some((w, m & (m - 1)))
            } else {
                mine.next()
            };
            if let Some((w2, m2)) = second {
                // Two ids only position j can take.
                let id1 = lo + 64 * w as i64 + m.trailing_zeros() as i64;
                let id2 = lo + 64 * w2 as i64 + m2.trailing_zeros() as i64;
                return Err(pruner.fail(self.clash(j, id1, id2, once, lo)));
            }
            if !is_fixed {
                let id = lo + 64 * w as i64 + m.trailing_zeros() as i64;
                pruner.fix(
                    self.vars[j],
                    (id - self.offsets[j] as i64) as Value,
                    self.confined(Some((j, id)), once, lo),
                )?;
                changed = true;
            }
        }
        Ok(Some(changed))
    }

    /// Naked and hidden singles and the pigeonhole check when every domain
    /// is one word and every id fits one 64-bit window (Sudoku, Latin
    /// squares up to order 64): the explaining twin of the store's window
    /// pass, with a reason on every write. `None` when it does not fit.
    fn singles_word(&self, pruner: &mut Pruner<'_>) -> Result<Option<bool>, Conflict> {
        let k = self.vars.len();
        if k == 0 || k > 64 {
            return Ok(None);
        }
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            let Some((bits, base)) = pruner.word(x).filter(|w| w.0 != 0) else {
                return Ok(None);
            };
            let b = base as i64 + c as i64;
            lo = lo.min(b + bits.trailing_zeros() as i64);
            hi = hi.max(b + 63 - bits.leading_zeros() as i64);
        }
        if hi - lo >= 64 {
            return Ok(None);
        }
        // Each position's ids, bit `i` standing for `lo + i` (a plain
        // array: a small vector would be copied whole when made).
        let mut all = [0u64; 64];
        let ids = &mut all[..k];
        for ((w, &x), &c) in ids.iter_mut().zip(&self.vars).zip(&self.offsets) {
            let (bits, base) = pruner.word(x).unwrap_or_default();
            *w = shift(bits, base as i64 + c as i64 - lo);
        }
        let mut changed = false;
        // Naked singles, to a fixpoint within the call; `holder[b]`: the
        // position fixed to id `lo + b`.
        let mut fixed = 0u64;
        let mut holder = [0u8; 64];
        loop {
            let mut newly = 0u64;
            for (j, &w) in ids.iter().enumerate() {
                if w & w.wrapping_sub(1) == 0 && fixed & w == 0 {
                    if newly & w != 0 {
                        let id = lo + w.trailing_zeros() as i64;
                        return Err(pruner.fail(self.holders_of(id)));
                    }
                    newly |= w;
                    holder[w.trailing_zeros() as usize] = j as u8;
                }
            }
            if newly == 0 {
                break;
            }
            fixed |= newly;
            for (j, w) in ids.iter_mut().enumerate() {
                let mut hit = *w & fixed;
                if *w & w.wrapping_sub(1) == 0 || hit == 0 {
                    continue;
                }
                *w &= !fixed;
                while hit != 0 {
                    let b = hit.trailing_zeros() as usize;
                    hit &= hit - 1;
                    let id = lo + b as i64;
                    let h = holder[b] as usize;
                    let held = Literal::Eq(self.vars[h], (id - self.offsets[h] as i64) as Value);
                    let v = (id - self.offsets[j] as i64) as Value;
                    pruner.remove(self.vars[j], v, held)?;
                }
                changed = true;
            }
        }
        // Hidden singles and the pigeonhole check.
        let (mut once, mut twice) = (0u64, 0u64);
        for &w in ids.iter() {
            twice |= once & w;
            once |= w;
        }
        let avail = once.count_ones();
        let window = [once, 0, 0, 0];
        if avail < k as u32 {
            return Err(pruner.fail(self.confined(None, window, lo)));
        }
        let single = once & !twice;
        if avail > k as u32 || single == 0 {
            return Ok(Some(changed));
        }
        for (j, &w) in ids.iter().enumerate() {
            let mine = w & single;
            if mine == 0 {
                continue;
            }
            if mine.count_ones() > 1 {
                // Two ids only position j can take.
                let id1 = lo + mine.trailing_zeros() as i64;
                let id2 = lo + (mine & (mine - 1)).trailing_zeros() as i64;
                return Err(pruner.fail(self.clash(j, id1, id2, window, lo)));
            }
            if w.count_ones() > 1 {
                let id = lo + mine.trailing_zeros() as i64;
                pruner.fix(
                    self.vars[j],
                    (id - self.offsets[j] as i64) as Value,
                    self.confined(Some((j, id)), window, lo),
                )?;
                changed = true;
            }
        }
        Ok(Some(changed))
    }

    /// The reason of a naked single at position `pruned`: the fixed
    /// position whose id is `id`, other than `pruned`. (The removals before
    /// this one may have fixed `pruned` itself to `id`: its domain was
    /// `{id, id'}` and `id'` went first. Named as its own reason, it would
    /// make the failure that follows read `x = id ∧ x = id`, a conflict
    /// that holds in no state and teaches the false nogood `x ≠ id`.)
    fn holder_of(&self, id: i64, pruned: usize) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| self.holders(r, id, Some(pruned))
    }

    /// The reason two fixed positions clash: both hold `id`.
    fn holders_of(&self, id: i64) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| self.holders(r, id, None)
    }

    /// Pushes `x = v` for the fixed positions whose id is `id`: with
    /// `first_but`, only the first one that is not at that position.
    fn holders(&self, r: &mut Premises<'_>, id: i64, first_but: Option<usize>) {
        for (j, (&x, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
            if first_but == Some(j) {
                continue;
            }
            let first = first_but.is_some();
            if let Some(v) = r.value(x) {
                if v as i64 + c as i64 == id {
                    r.push(Literal::Eq(x, v));
                    if first {
                        return;
                    }
                }
            }
        }
    }

    /// The reason of a hidden single `(j, id)` (or, with `None`, of the
    /// pigeonhole failure): every position's ids lie in `once` (the ids
    /// available, bit `k` of word `w` standing for `lo + 64·w + k`), as
    /// its bounds and the values between them whose id is not there; and
    /// for a hidden single, every other position has lost `id`.
    fn confined(
        &self,
        single: Option<(usize, i64)>,
        once: [u64; 4],
        lo: i64,
    ) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| self.confined_lits(single, once, lo, &mut |l| r.push(l))
    }

    /// The reason two ids `id1` and `id2` of the window `once` can only go
    /// to position `j` (a failure: every id is needed, and `j` takes one):
    /// every position's ids lie in the window, and every other position
    /// has lost both. Without the second id's losses the premises admit
    /// a solution (`tests/learning_globals.rs`, seed 15).
    fn clash(
        &self,
        j: usize,
        id1: i64,
        id2: i64,
        once: [u64; 4],
        lo: i64,
    ) -> impl FnOnce(&mut Premises<'_>) + '_ {
        move |r: &mut Premises<'_>| {
            self.confined_lits(Some((j, id1)), once, lo, &mut |l| r.push(l));
            for (i, (&x, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
                if i != j {
                    if let Ok(v) = Value::try_from(id2 - c as i64) {
                        r.push(Literal::Ne(x, v));
                    }
                }
            }
        }
    }

    /// The literals of [`confined`](Self::confined), each given to `push`.
    fn confined_lits(
        &self,
        single: Option<(usize, i64)>,
        once: [u64; 4],
        lo: i64,
        push: &mut dyn FnMut(Literal),
    ) {
        let available = |id: i64| {
            let k = id - lo;
            (0..256).contains(&k) && once[k as usize / 64] >> (k % 64) & 1 == 1
        };
        // The window of available ids, from its first to its last.
        let first = (0..4).find(|&w| once[w] != 0);
        let last = (0..4).rev().find(|&w| once[w] != 0);
        let (Some(fw), Some(lw)) = (first, last) else {
            return;
        };
        let first = lo + 64 * fw as i64 + once[fw].trailing_zeros() as i64;
        let last = lo + 64 * lw as i64 + 63 - once[lw].leading_zeros() as i64;
        for (i, (&x, &c)) in self.vars.iter().zip(&self.offsets).enumerate() {
            // x's ids lie in the window: its bounds there, and the ids
            // the window lacks (a value outside `i32` needs no literal).
            let c = c as i64;
            if let Ok(a) = Value::try_from(first - c) {
                push(Literal::Ge(x, a));
            }
            if let Ok(b) = Value::try_from(last - c) {
                push(Literal::Le(x, b));
            }
            for id in first + 1..last {
                if !available(id) {
                    if let Ok(v) = Value::try_from(id - c) {
                        push(Literal::Ne(x, v));
                    }
                }
            }
            if let Some((j, id)) = single {
                if i != j {
                    if let Ok(v) = Value::try_from(id - c) {
                        push(Literal::Ne(x, v));
                    }
                }
            }
        }
    }

    /// Hidden singles and pigeonhole when every id fits one 64-bit window.
    /// Returns whether a domain changed.
    fn singles_in_window(&self, pruner: &mut Pruner<'_>) -> Result<Option<bool>, Conflict> {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut words: SmallVec<[(u64, i64); 32]> = SmallVec::new();
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            let Some((bits, base)) = pruner.word(x) else {
                return Ok(None);
            };
            let b = base as i64 + c as i64;
            lo = lo.min(b + bits.trailing_zeros() as i64);
            hi = hi.max(b + 63 - bits.leading_zeros() as i64);
            words.push((bits, b));
        }
        if words.is_empty() || hi - lo >= 64 {
            return Ok(None);
        }
        let mut once = 0u64;
        let mut twice = 0u64;
        for &(bits, b) in &words {
            let shifted = shift(bits, b - lo);
            twice |= once & shifted;
            once |= shifted;
        }
        let k = self.vars.len() as u32;
        let avail = once.count_ones();
        if avail < k {
            return Err(Conflict);
        }
        if avail > k {
            return Ok(Some(false));
        }
        // Every id is needed: an id only one variable can take is forced.
        let single = once & !twice;
        let mut changed = false;
        if single != 0 {
            for (j, &(bits, b)) in words.iter().enumerate() {
                let mine = shift(bits, b - lo) & single;
                if mine != 0 {
                    if mine.count_ones() > 1 {
                        return Err(Conflict);
                    }
                    if bits.count_ones() > 1 {
                        let id = lo + mine.trailing_zeros() as i64;
                        pruner.fix(
                            self.vars[j],
                            (id - self.offsets[j] as i64) as Value,
                            Why::Scope,
                        )?;
                        changed = true;
                    }
                }
            }
        }
        Ok(Some(changed))
    }
}

/// `bits` moved so that bit 0 stands for id `lo + by` (`by` may be negative
/// only for bits that are zero).
#[inline]
fn shift(bits: u64, by: i64) -> u64 {
    if by >= 0 {
        bits << by
    } else {
        bits >> -by
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[Value]) -> bool {
        let ids = || {
            values
                .iter()
                .zip(&self.offsets)
                .map(|(&v, &c)| v as i64 + c as i64)
        };
        if values.len() <= 16 {
            let ids: SmallVec<[i64; 16]> = ids().collect();
            return (0..ids.len()).all(|a| (0..a).all(|b| ids[a] != ids[b]));
        }
        // Dense ids (N-queens: n values over about 2n ids): one bit per id,
        // O(n), and the ids are recomputed rather than stored.
        let (lo, hi) = ids().fold((i64::MAX, i64::MIN), |(l, h), x| (l.min(x), h.max(x)));
        let span = (hi - lo) as u64 + 1;
        if span <= 8 * values.len() as u64 {
            let mut seen = fixedbitset::FixedBitSet::with_capacity(span as usize);
            return ids().all(|x| !seen.put((x - lo) as usize));
        }
        let mut sorted: Vec<i64> = ids().collect();
        sorted.sort_unstable();
        sorted.windows(2).all(|w| w[0] != w[1])
    }

    fn name(&self) -> &str {
        "all-different"
    }
    fn to_minizinc(&self, vars: &[String]) -> Option<String> {
        let ids: Vec<String> = vars
            .iter()
            .zip(&self.offsets)
            .map(|(x, &c)| {
                if c == 0 {
                    x.clone()
                } else {
                    format!("({x} + {c})")
                }
            })
            .collect();
        Some(format!("all_different({})", crate::minizinc::list(&ids)))
    }

    /// The lazy reason of a hidden single found by the store's window pass
    /// (code: its position): the window reason of
    /// `confined`, from the domains at `history`.
    fn explain(
        &self,
        code: u64,
        lit: Literal,
        history: &crate::propagation::History<'_>,
        out: &mut Vec<Literal>,
    ) -> bool {
        let (j, Literal::Eq(_, v)) = (code as usize, lit) else {
            return false;
        };
        if j >= self.vars.len() {
            return false;
        }
        // The ids every position had then, from the lowest.
        let mut ids: SmallVec<[i64; 64]> = SmallVec::new();
        for (&x, &c) in self.vars.iter().zip(&self.offsets) {
            ids.extend(history.values(x, 256).iter().map(|&u| u as i64 + c as i64));
        }
        let Some(&lo) = ids.iter().min() else {
            return false;
        };
        let mut once = [0u64; 4];
        for id in ids {
            let k = id - lo;
            if k >= 256 {
                return false;
            }
            once[k as usize / 64] |= 1 << (k % 64);
        }
        let id = v as i64 + self.offsets[j] as i64;
        self.confined_lits(Some((j, id)), once, lo, &mut |l| out.push(l));
        true
    }

    fn is_consistent_partial(&self, values: &[Option<Value>]) -> bool {
        let ids: SmallVec<[i64; 32]> = values
            .iter()
            .zip(&self.offsets)
            .filter_map(|(v, &c)| v.map(|v| v as i64 + c as i64))
            .collect();
        let mut sorted = ids;
        sorted.sort_unstable();
        sorted.windows(2).all(|w| w[0] != w[1])
    }

    #[inline]
    fn forward_check(&self, pruner: &mut Pruner<'_>, changed: usize) -> Result<(), Conflict> {
        self.remove_id_of(pruner, changed)
    }

    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        if let Some((idx, adj)) = &self.fast {
            // The window pass gives no reasons: explaining mode takes its
            // logging twin below.
            if !pruner.explaining()
                && super::window::alldiff_window(pruner.store, idx, adj, self.window)?.is_some()
            {
                return Ok(());
            }
        }
        if pruner.explaining() {
            // The window pass, logging as it goes; on a failure
            // (or ids wider than a word) the pass below finds and explains it.
            if let Some((idx, adj)) = &self.fast {
                let prop = pruner.prop;
                if super::window::alldiff_window_logged(pruner.store, idx, adj, self.window, prop)
                    .is_some()
                {
                    return Ok(());
                }
            }
            loop {
                match self.singles_word(pruner)? {
                    Some(true) => continue,
                    Some(false) => return Ok(()),
                    None => break,
                }
            }
        }
        // Ids within 256 values (Latin squares up to order 256): naked and
        // hidden singles a word at a time. Without this, every call removed
        // the id of every fixed position from every other again: O(k²)
        // membership tests a call, which made blank Latin squares above
        // order 80 take minutes.
        loop {
            match self.singles_wide(pruner)? {
                Some(true) => continue,
                Some(false) => return Ok(()),
                None => break,
            }
        }
        let k = self.vars.len();
        let mut done: SmallVec<[bool; 32]> = SmallVec::from_elem(false, k);
        loop {
            // Naked singles to a fixpoint.
            let mut progress = true;
            while progress {
                progress = false;
                for p in 0..k {
                    if !done[p] && pruner.is_fixed(self.vars[p]) {
                        done[p] = true;
                        progress = true;
                        self.remove_id_of(pruner, p)?;
                    }
                }
            }
            match self.singles_in_window(pruner)? {
                Some(true) => continue,
                _ => return Ok(()),
            }
        }
    }

    fn violations(&self, values: &[Value]) -> u64 {
        let mut ids: SmallVec<[i64; 32]> = values
            .iter()
            .zip(&self.offsets)
            .map(|(&v, &c)| v as i64 + c as i64)
            .collect();
        ids.sort_unstable();
        ids.windows(2).filter(|w| w[0] == w[1]).count() as u64
    }

    fn delta(&self, values: &[Value], pos: usize, new: Value) -> i64 {
        let old_id = values[pos] as i64 + self.offsets[pos] as i64;
        let new_id = new as i64 + self.offsets[pos] as i64;
        if old_id == new_id {
            return 0;
        }
        let (mut with_old, mut with_new) = (0i64, 0i64);
        for (j, (&v, &c)) in values.iter().zip(&self.offsets).enumerate() {
            if j != pos {
                let id = v as i64 + c as i64;
                with_old += i64::from(id == old_id);
                with_new += i64::from(id == new_id);
            }
        }
        // Leaving a group of size g+1 lowers its excess by 1 when g >= 1;
        // joining a group of size g raises it by 1 when g >= 1.
        i64::from(with_new >= 1) - i64::from(with_old >= 1)
    }
}
