//! The nogood store: learned clauses over domain literals, propagated with
//! two watched literals.
//!
//! A nogood is stored as the clause that forbids it: `l₁ ∨ … ∨ lₙ`, where
//! each `lᵢ` is a domain literal (`x = v`, `x ≠ v`, `x ≥ v`, `x ≤ v`). A
//! literal is *false* when the domain admits none of its values, *true*
//! when every value left admits it. Two literals of each clause are
//! watched (positions 0 and 1): while neither is false the clause can
//! neither propagate nor fail, whatever the others do.
//!
//! Literals get integer ids lazily, when a clause first mentions them
//! (Chuffed's and Pumpkin's design: a domain of a million values costs
//! nothing until a nogood names one of its bounds). Each clause keeps the
//! id beside each literal, and the watches are a flat vector of lists
//! indexed by id, so moving a watch is a push, with no lookup. To find the
//! watches a change may have made false, each variable keeps its literals'
//! ids by kind, sorted by value: `x = v` is false once `v` is gone, `x ≠
//! v` once `x` is fixed to `v`, `x ≥ v` once the maximum is below `v`
//! (a suffix of the sorted list), `x ≤ v` once the minimum is above it (a
//! prefix). The variables to look at come from the explanation trail:
//! every domain change in explaining mode is a trail entry, so the entries
//! not yet seen (`qhead..`) are exactly the changes to propagate, as
//! MiniSat's propagation queue is its trail (Eén and Sörensson, "An
//! extensible SAT-solver", 2003).
//!
//! A literal the store infers is written with its clause as the reason:
//! eager premises (the negations of the clause's other literals, all true
//! then) under the reserved propagator index [`NOGOOD_PROP`], so conflict
//! analysis explains through learned nogoods as through any propagator.

use crate::domain::explained::{Cause, How};
use crate::domain::DomainStore;
use crate::ids::Value;
use crate::literal::Literal;
use crate::search::engine::write_literal;
use smallvec::SmallVec;

/// The propagator index of the causes the nogood store writes (no
/// propagator of the kernel has it: the kernel's indices are small).
pub(crate) const NOGOOD_PROP: u32 = u32::MAX - 1;

/// Is `l` false in `store` (does the domain admit none of its values)?
#[inline(always)]
pub(crate) fn is_false(store: &DomainStore, l: Literal) -> bool {
    match l {
        Literal::Eq(x, v) => !store.contains(x.index(), v),
        Literal::Ne(x, v) => {
            let i = x.index();
            store.min(i) == v && store.max(i) == v
        }
        Literal::Ge(x, v) => store.max(x.index()) < v,
        Literal::Le(x, v) => store.min(x.index()) > v,
    }
}

/// Is `l` true in `store` (does every value left admit it)?
#[inline(always)]
pub(crate) fn is_true(store: &DomainStore, l: Literal) -> bool {
    match l {
        Literal::Eq(x, v) => {
            let i = x.index();
            store.min(i) == v && store.max(i) == v
        }
        Literal::Ne(x, v) => !store.contains(x.index(), v),
        Literal::Ge(x, v) => store.min(x.index()) >= v,
        Literal::Le(x, v) => store.max(x.index()) <= v,
    }
}

/// A literal as the store tests it. For a variable of at most 64
/// declared values (one word of the domain store), `mask` holds the bits
/// of the values the literal admits, so that the literal is true when the
/// domain's word has no bit outside the mask and false when it has none
/// inside: one load and one `and`, whatever the kind (Chuffed tests its
/// literals against the domain the same way, with no literal variable to
/// assign). Other variables (`var` has [`LARGE`] set) keep the literal
/// itself, kind in `mask`'s high half and value in its low half, tested
/// through the domain store's bounds and membership.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Test {
    var: u32,
    mask: u64,
}

/// The flag of a [`Test`] on a variable of more than 64 values.
const LARGE: u32 = 1 << 31;

impl Test {
    fn new(store: &DomainStore, l: Literal) -> Test {
        let i = l.var().index();
        debug_assert!((i as u32) < LARGE);
        if !store.is_small(i) {
            let kind: u64 = match l {
                Literal::Eq(..) => 0,
                Literal::Ne(..) => 1,
                Literal::Ge(..) => 2,
                Literal::Le(..) => 3,
            };
            return Test {
                var: i as u32 | LARGE,
                mask: kind << 32 | u64::from(l.value() as u32),
            };
        }
        let off = l.value() as i64 - store.small_bits(i).1 as i64;
        let bit = if (0..64).contains(&off) {
            1u64 << off
        } else {
            0
        };
        let mask = match l {
            Literal::Eq(..) => bit,
            Literal::Ne(..) => !bit,
            Literal::Ge(..) if off <= 0 => !0,
            Literal::Ge(..) if off >= 64 => 0,
            Literal::Ge(..) => !0u64 << off,
            Literal::Le(..) if off < 0 => 0,
            Literal::Le(..) if off >= 63 => !0,
            Literal::Le(..) => (1u64 << (off + 1)) - 1,
        };
        Test {
            var: i as u32,
            mask,
        }
    }

    /// The literal of a test on a large variable.
    #[inline]
    fn large_lit(self) -> Literal {
        let x = crate::ids::VarId(self.var & !LARGE);
        let v = self.mask as u32 as Value;
        match self.mask >> 32 {
            0 => Literal::Eq(x, v),
            1 => Literal::Ne(x, v),
            2 => Literal::Ge(x, v),
            _ => Literal::Le(x, v),
        }
    }

    /// [`is_true`] of the literal.
    #[inline(always)]
    fn is_true(self, store: &DomainStore) -> bool {
        if self.var & LARGE == 0 {
            store.small_bits(self.var as usize).0 & !self.mask == 0
        } else {
            is_true(store, self.large_lit())
        }
    }

    /// [`is_false`] of the literal.
    #[inline(always)]
    fn is_false(self, store: &DomainStore) -> bool {
        if self.var & LARGE == 0 {
            store.small_bits(self.var as usize).0 & self.mask == 0
        } else {
            is_false(store, self.large_lit())
        }
    }
}

impl CLit {
    /// The literal's test, checked against the literal in debug builds.
    #[inline(always)]
    fn is_true(&self, store: &DomainStore) -> bool {
        let t = self.test.is_true(store);
        debug_assert_eq!(t, is_true(store, self.lit), "{:?}", self.lit);
        t
    }

    /// The literal's test, checked against the literal in debug builds.
    #[inline(always)]
    fn is_false(&self, store: &DomainStore) -> bool {
        let f = self.test.is_false(store);
        debug_assert_eq!(f, is_false(store, self.lit), "{:?}", self.lit);
        f
    }
}

/// A literal of a stored clause, with its id (the index of its watch
/// list) and its test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CLit {
    /// The literal.
    pub(crate) lit: Literal,
    /// Its id.
    id: u32,
    test: Test,
}

/// What visiting one clause found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Visit {
    /// Nothing to do (a watch holds, or two literals are still open).
    Quiet,
    /// Every literal but the first is false: the first was made true.
    Unit,
    /// Every literal is false.
    Conflict,
}

/// Clauses of at most this LBD ("glue" clauses, Audemard and Simon 2009)
/// are never deleted.
const GLUE_LBD: u32 = 2;

/// The clauses' literals, one after another in one vector (MiniSat's
/// clause arena): a clause is a range of it, so visiting a clause reads
/// one block of memory, not a vector header and then its heap block.
#[derive(Clone, Debug, Default)]
pub(crate) struct Clauses {
    lits: Vec<CLit>,
    /// Per clause: its first literal in `lits` and its length.
    ranges: Vec<(u32, u32)>,
}

impl Clauses {
    /// The number of clauses.
    pub(crate) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The literals of clause `c`.
    #[inline(always)]
    pub(crate) fn get(&self, c: u32) -> &[CLit] {
        let (s, n) = self.ranges[c as usize];
        &self.lits[s as usize..(s + n) as usize]
    }

    #[inline(always)]
    fn get_mut(&mut self, c: u32) -> &mut [CLit] {
        let (s, n) = self.ranges[c as usize];
        &mut self.lits[s as usize..(s + n) as usize]
    }

    /// Empties the arena, keeping its room.
    fn clear(&mut self) {
        self.lits.clear();
        self.ranges.clear();
    }

    /// Appends a clause; returns its index.
    fn push(&mut self, clause: impl IntoIterator<Item = CLit>) -> u32 {
        let start = self.lits.len() as u32;
        self.lits.extend(clause);
        let c = self.ranges.len() as u32;
        self.ranges.push((start, self.lits.len() as u32 - start));
        c
    }

    /// Keeps the literals of clause `c` that pass `keep`, in order (the
    /// clause shrinks in place; its block keeps its room).
    fn retain(&mut self, c: u32, mut keep: impl FnMut(&CLit) -> bool) {
        let (s, n) = self.ranges[c as usize];
        let mut w = s;
        for r in s..s + n {
            let l = self.lits[r as usize];
            if keep(&l) {
                self.lits[w as usize] = l;
                w += 1;
            }
        }
        self.ranges[c as usize].1 = w - s;
    }

    /// The number of literals in the clauses.
    pub(crate) fn num_literals(&self) -> usize {
        self.ranges.iter().map(|r| r.1 as usize).sum()
    }
}

/// A watch: the clause, and a *blocker*, another of its literals (the
/// other watch when filed): while the blocker is true the clause is
/// satisfied and is not looked at (MiniSat 2.2's blockers, which save
/// reading the clause).
type Watch = (u32, Test);

/// The ids of one variable's literals, by kind, each list sorted by value.
#[derive(Clone, Debug, Default)]
struct VarLits {
    eq: Vec<(Value, u32)>,
    ne: Vec<(Value, u32)>,
    ge: Vec<(Value, u32)>,
    le: Vec<(Value, u32)>,
}

/// The learned clauses and their watches.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nogoods {
    /// The clauses; literals 0 and 1 are the watched ones.
    pub(crate) clauses: Clauses,
    /// The arena the last reduction copied from, emptied, kept for the
    /// next one to copy into: long nogoods make the arena hundreds of
    /// megabytes, and a fresh one per reduction had every page faulted in
    /// and zeroed anew (a third of the run as system time on the
    /// MiniZinc Challenge's network_50_cstr toy_network_1000_m).
    spare: Clauses,
    /// Per clause: its literal block distance when learned (the number of
    /// decision levels among its literals; Audemard and Simon, "Predicting
    /// learnt clauses quality in modern SAT solvers", IJCAI 2009).
    lbd: Vec<u32>,
    /// The clauses of LBD at most 2 ("glue" clauses, never deleted).
    glue: usize,
    /// Per variable: the ids of its literals that clauses have mentioned.
    ids: Vec<VarLits>,
    /// Per literal id: the clauses watching it (possibly stale: a clause
    /// whose watch moved away is dropped when next met).
    watches: Vec<Vec<Watch>>,
    /// The first trail entry not yet propagated.
    pub(crate) qhead: usize,
    /// Per variable: the pass that last visited it (a variable changed
    /// several times is visited once per pass).
    visited: Vec<u64>,
    pass: u64,
    /// Literals written by the store (statistics).
    pub(crate) propagated: u64,
    /// Scratch: the literal ids whose watches a pass visits.
    due: Vec<u32>,
    /// Per trail position below `qhead`: a number no other entry that
    /// stood there has had (given when the store first reads the entry).
    serials: Vec<u64>,
    next_serial: u64,
    /// Per literal id: `(e, s)` when the pass that read the trail up to
    /// length `e` found the literal false and visited its watches, and
    /// `s` was the serial at position `e − 1` (see [`Nogoods::settled`]).
    settled: Vec<(u32, u64)>,
}

/// The id of `v` in `list` (sorted by value), if it has one.
#[inline]
fn find(list: &[(Value, u32)], v: Value) -> Option<u32> {
    list.binary_search_by_key(&v, |e| e.0)
        .ok()
        .map(|k| list[k].1)
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Nogoods {
        Nogoods {
            ids: vec![VarLits::default(); num_vars],
            visited: vec![0; num_vars],
            ..Nogoods::default()
        }
    }

    /// After backtracking: the trail is shorter, so the queue is too.
    pub(crate) fn backtracked(&mut self, trail_len: usize) {
        self.qhead = self.qhead.min(trail_len);
    }

    /// The number of literal ids made so far (they are never freed: one
    /// per distinct literal any clause has mentioned).
    pub(crate) fn num_literal_ids(&self) -> usize {
        self.watches.len()
    }

    /// The number of literals in the clauses kept.
    pub(crate) fn num_literals(&self) -> usize {
        self.clauses.num_literals()
    }

    /// `l` with its id, made if `l` has none yet.
    fn intern(&mut self, store: &DomainStore, l: Literal) -> CLit {
        let w = &mut self.ids[l.var().index()];
        let list = match l {
            Literal::Eq(..) => &mut w.eq,
            Literal::Ne(..) => &mut w.ne,
            Literal::Ge(..) => &mut w.ge,
            Literal::Le(..) => &mut w.le,
        };
        let v = l.value();
        let id = match list.binary_search_by_key(&v, |e| e.0) {
            Ok(k) => list[k].1,
            Err(k) => {
                let id = self.watches.len() as u32;
                list.insert(k, (v, id));
                self.watches.push(Vec::new());
                self.settled.push((0, 0));
                id
            }
        };
        CLit {
            lit: l,
            id,
            test: Test::new(store, l),
        }
    }

    /// Adds a clause of two or more literals, watching its first two (the
    /// caller puts the asserting literal first and, second, the false
    /// literal of the highest level). Returns its index.
    pub(crate) fn add(&mut self, store: &DomainStore, lits: &[Literal], lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let clause: SmallVec<[CLit; 16]> = lits.iter().map(|&l| self.intern(store, l)).collect();
        self.add_clause(&clause, lbd)
    }

    /// The clauses a reduction may delete (all but the glue clauses).
    pub(crate) fn num_deletable(&self) -> usize {
        self.clauses.len() - self.glue
    }

    fn add_clause(&mut self, clause: &[CLit], lbd: u32) -> u32 {
        self.lbd.push(lbd);
        self.glue += usize::from(lbd <= GLUE_LBD);
        let (a, b) = (clause[0], clause[1]);
        let c = self.clauses.push(clause.iter().copied());
        self.watches[a.id as usize].push((c, b.test));
        if b.id != a.id {
            self.watches[b.id as usize].push((c, a.test));
        }
        c
    }

    /// Forgets learned clauses, at a fixpoint: at the `root` (level 0)
    /// those a root fact satisfies, then, of the others, all but the
    /// `keep` of lowest LBD (the later learned first among equals);
    /// clauses of LBD at most 2 ("glue" clauses) are always kept. The
    /// watches are made anew, on the same literals (so that above the
    /// root they still watch literals that are not false, or the clause
    /// is satisfied or has propagated). Reasons are not affected: a
    /// nogood's premises were copied onto the trail when it propagated.
    /// `Err(c)` if a clause kept is false at the root (the problem has no
    /// solution).
    pub(crate) fn reduce(
        &mut self,
        store: &mut DomainStore,
        keep: usize,
        root: bool,
    ) -> Result<(), u32> {
        let n = self.clauses.len();
        let mut live: Vec<usize> = Vec::with_capacity(n);
        for c in 0..n {
            if root {
                if self.clauses.get(c as u32).iter().any(|l| l.is_true(store)) {
                    continue; // satisfied for good
                }
                // Literals false at the root are false for good: drop
                // them.
                self.clauses.retain(c as u32, |l| !l.is_false(store));
            }
            live.push(c);
        }
        let deletable = live.iter().filter(|&&c| self.lbd[c] > GLUE_LBD).count();
        let kept: Vec<usize> = if deletable <= keep {
            live // nothing to delete (a root simplification): no sort
        } else {
            let (glue, mut rest): (Vec<usize>, Vec<usize>) =
                live.into_iter().partition(|&c| self.lbd[c] <= GLUE_LBD);
            rest.sort_unstable_by_key(|&c| (self.lbd[c], std::cmp::Reverse(c)));
            rest.truncate(keep);
            let mut kept: Vec<usize> = glue.into_iter().chain(rest).collect();
            kept.sort_unstable();
            kept
        };
        let mut old = std::mem::replace(&mut self.clauses, std::mem::take(&mut self.spare));
        let old_lbd = std::mem::take(&mut self.lbd);
        for w in &mut self.watches {
            w.clear();
        }
        self.glue = 0;
        let mut short = Vec::new();
        for c in kept {
            let lits = old.get(c as u32);
            match lits.len() {
                0 => return Err(u32::MAX),
                1 => short.push(lits[0].lit),
                _ => {
                    self.add_clause(lits, old_lbd[c]);
                }
            }
        }
        old.clear();
        self.spare = old;
        // A clause left with one literal is a root fact now.
        for l in short {
            if !Nogoods::assert_root(store, l) {
                return Err(u32::MAX);
            }
        }
        self.qhead = self.qhead.min(store.ex.entries.len());
        Ok(())
    }

    /// Has literal `id` been false, with its watches visited, since a
    /// pass that nothing below it on the trail has been undone since? Then
    /// its watches need no visit: each clause filed there had its watches
    /// moved, or its other watch true, and no clause can have been filed
    /// there since but with its other watch true (a learned clause's second
    /// watch, under its asserted literal; watches move only onto literals
    /// that are not false). The trail's prefix up to the pass's end is
    /// unchanged when the entry at its last position has the serial it had
    /// then, since an undone position gets a new serial when refilled.
    #[inline]
    fn settled(&self, id: u32) -> bool {
        let (e, s) = self.settled[id as usize];
        e > 0 && (e as usize) <= self.serials.len() && self.serials[e as usize - 1] == s
    }

    /// Propagates the clauses watching the literals made false since the
    /// last call, until no clause is unit. `Ok(true)` if a literal was
    /// written; `Err(c)` when clause `c` has every literal false.
    ///
    /// The literals to look at are those of the variables changed since
    /// the last call that are false now, less those whose watches were
    /// visited while they were false already ([`Nogoods::settled`]): a
    /// variable losing one value otherwise has all its false literals
    /// visited again, on models where values go one at a time.
    pub(crate) fn propagate(&mut self, store: &mut DomainStore) -> Result<bool, u32> {
        let mut wrote = false;
        while self.qhead < store.ex.entries.len() {
            self.pass += 1;
            let end = store.ex.entries.len();
            self.serials.truncate(self.qhead);
            for _ in self.qhead..end {
                self.next_serial += 1;
                self.serials.push(self.next_serial);
            }
            let mut due = std::mem::take(&mut self.due);
            due.clear();
            for k in self.qhead..end {
                let i = store.ex.entries[k].var_index();
                if self.visited[i] == self.pass {
                    continue;
                }
                self.visited[i] = self.pass;
                let w = &self.ids[i];
                let (lo, hi) = (store.min(i), store.max(i));
                if lo == hi {
                    if let Some(id) = find(&w.ne, lo) {
                        due.push(id);
                    }
                }
                for &(v, id) in &w.eq {
                    if !store.contains(i, v) {
                        due.push(id);
                    }
                }
                // `x ≥ v` with `v > hi`: a suffix; `x ≤ v` with `v < lo`: a
                // prefix.
                let from = w.ge.partition_point(|e| e.0 <= hi);
                due.extend(w.ge[from..].iter().map(|e| e.1));
                let to = w.le.partition_point(|e| e.0 < lo);
                due.extend(w.le[..to].iter().map(|e| e.1));
            }
            self.qhead = end;
            let mark = (end as u32, self.serials[end - 1]);
            for &id in &due {
                if self.settled(id) {
                    continue;
                }
                if !self.watches[id as usize].is_empty() {
                    match self.visit_list(store, id) {
                        Ok(w) => wrote |= w,
                        Err(c) => {
                            self.due = due;
                            return Err(c);
                        }
                    }
                }
                self.settled[id as usize] = mark;
            }
            self.due = due;
        }
        Ok(wrote)
    }

    /// Visits the clauses watching literal `id` (false now).
    fn visit_list(&mut self, store: &mut DomainStore, id: u32) -> Result<bool, u32> {
        let mut list = std::mem::take(&mut self.watches[id as usize]);
        let mut wrote = false;
        let mut i = 0;
        let mut result = Ok(());
        while i < list.len() {
            let (c, blocker) = list[i];
            if blocker.is_true(store) {
                i += 1;
                continue;
            }
            let (b0, b1) = {
                let lits = self.clauses.get(c);
                (lits[0].id, lits[1].id)
            };
            if b0 != id && b1 != id {
                list.swap_remove(i); // stale
                continue;
            }
            let v = self.visit_false(store, c, id);
            let (a0, a1) = {
                let lits = self.clauses.get(c);
                (lits[0], lits[1])
            };
            if a0.id != b0 && a0.id != b1 {
                self.watches[a0.id as usize].push((c, a1.test));
            }
            if a1.id != a0.id && a1.id != b0 && a1.id != b1 {
                self.watches[a1.id as usize].push((c, a0.test));
            }
            if a0.id != id && a1.id != id {
                list.swap_remove(i);
            } else {
                list[i].1 = if a0.id == id { a1.test } else { a0.test };
                i += 1;
            }
            match v {
                Visit::Conflict => {
                    result = Err(c);
                    break;
                }
                Visit::Unit => wrote = true,
                Visit::Quiet => {}
            }
        }
        // Nothing else can have been filed under `id` meanwhile (a watch
        // moves to a literal that is not false), but keep any that was.
        let slot = &mut self.watches[id as usize];
        list.append(slot);
        *slot = list;
        result.map(|()| wrote)
    }

    /// [`visit`](Self::visit) when watched literal `id` of clause `c` is
    /// known to be false: the other watch is tried first, so a clause it
    /// satisfies costs one test (MiniSat's order).
    fn visit_false(&mut self, store: &mut DomainStore, c: u32, id: u32) -> Visit {
        let lits = self.clauses.get_mut(c);
        if lits[0].id == id {
            lits.swap(0, 1);
        }
        if lits[1].id != id {
            return self.visit(store, c);
        }
        if lits[0].is_true(store) {
            return Visit::Quiet;
        }
        if let Some(j) = (2..lits.len()).find(|&j| !lits[j].is_false(store)) {
            lits.swap(1, j);
            return Visit::Quiet;
        }
        self.visit(store, c)
    }

    /// Looks at clause `c`: moves its watches off false literals where it
    /// can, and makes its first literal true when it is the only one not
    /// false (with the others as the reason).
    pub(crate) fn visit(&mut self, store: &mut DomainStore, c: u32) -> Visit {
        let lits = self.clauses.get_mut(c);
        for w in 0..2 {
            if lits[w].is_false(store) {
                if let Some(j) = (2..lits.len()).find(|&j| !lits[j].is_false(store)) {
                    lits.swap(w, j);
                }
            }
        }
        let (f0, f1) = (lits[0].is_false(store), lits[1].is_false(store));
        if f0 && f1 {
            return Visit::Conflict;
        }
        if f0 {
            lits.swap(0, 1);
        } else if !f1 {
            return Visit::Quiet;
        }
        // lits[1] is false, and so is every literal after it.
        if lits[0].is_true(store) {
            return Visit::Quiet;
        }
        let start = store.ex.premises.len() as u32;
        for l in &lits[1..] {
            store.ex.premises.push(l.lit.negate());
        }
        let cause = Cause::Propagated {
            prop: NOGOOD_PROP,
            how: How::Eager {
                start,
                len: (lits.len() - 1) as u32,
            },
        };
        let lit = lits[0].lit;
        self.propagated += 1;
        // Not false, so the write cannot empty the domain.
        let r = write_literal(store, cause, lit);
        debug_assert!(r.is_ok());
        if r.is_err() {
            return Visit::Conflict;
        }
        Visit::Unit
    }

    /// Asserts the unit clause `[lit]` at the root (no watches needed: it
    /// holds from now on). False when `lit` is false already.
    pub(crate) fn assert_root(store: &mut DomainStore, lit: Literal) -> bool {
        if is_false(store, lit) {
            return false;
        }
        if is_true(store, lit) {
            return true;
        }
        let cause = Cause::Propagated {
            prop: NOGOOD_PROP,
            how: How::Eager {
                start: store.ex.premises.len() as u32,
                len: 0,
            },
        };
        write_literal(store, cause, lit).is_ok()
    }
}
