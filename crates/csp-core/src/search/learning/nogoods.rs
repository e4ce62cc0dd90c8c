//! The nogood store: learned clauses over domain literals, propagated with
//! two watched literals.
//!
//! A nogood is stored as the clause that forbids it: `l₁ ∨ … ∨ lₙ`, where
//! each `lᵢ` is a domain literal (`x = v`, `x ≠ v`, `x ≥ v`, `x ≤ v`). A
//! literal is *false* when the domain admits none of its values, *true*
//! when every value left admits it. Two literals of each clause are
//! watched (positions 0 and 1): while neither is false the clause can
//! neither propagate nor fail, whatever the others do. The watches are kept
//! per variable (a clause is on the list of each watched literal's
//! variable) and woken by the explanation trail: every domain change in
//! explaining mode is a trail entry, so the entries not yet seen
//! (`qhead..`) are exactly the variables to visit, as MiniSat's
//! propagation queue is its trail (Eén and Sörensson, "An extensible
//! SAT-solver", 2003). Chuffed and Pumpkin watch literals rather than
//! variables, with literals created lazily per bound; watching variables is
//! the simpler first form here (a clause is visited on every change of a
//! watched variable, and skipped at once when its watch still holds).
//!
//! A literal the store infers is written with its clause as the reason:
//! eager premises (the negations of the clause's other literals, all true
//! then) under the reserved propagator index [`NOGOOD_PROP`], so conflict
//! analysis explains through learned nogoods as through any propagator.

use crate::domain::explained::{Cause, How};
use crate::domain::DomainStore;
use crate::literal::Literal;
use crate::search::engine::write_literal;

/// The propagator index of the causes the nogood store writes (no
/// propagator of the kernel has it: the kernel's indices are small).
pub(crate) const NOGOOD_PROP: u32 = u32::MAX - 1;

/// Is `l` false in `store` (does the domain admit none of its values)?
#[inline]
pub(crate) fn is_false(store: &DomainStore, l: Literal) -> bool {
    let i = l.var().index();
    match l {
        Literal::Eq(_, v) => !store.contains(i, v),
        Literal::Ne(_, v) => store.min(i) == v && store.max(i) == v,
        Literal::Ge(_, v) => store.max(i) < v,
        Literal::Le(_, v) => store.min(i) > v,
    }
}

/// Is `l` true in `store` (does every value left admit it)?
#[inline]
pub(crate) fn is_true(store: &DomainStore, l: Literal) -> bool {
    let i = l.var().index();
    match l {
        Literal::Eq(_, v) => store.min(i) == v && store.max(i) == v,
        Literal::Ne(_, v) => !store.contains(i, v),
        Literal::Ge(_, v) => store.min(i) >= v,
        Literal::Le(_, v) => store.max(i) <= v,
    }
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

/// The learned clauses and their watches.
#[derive(Clone, Debug, Default)]
pub(crate) struct Nogoods {
    /// The clauses; literals 0 and 1 are the watched ones.
    pub(crate) clauses: Vec<Vec<Literal>>,
    /// Per variable: the clauses watching one of its literals (possibly
    /// stale: a clause whose watch moved away is dropped when next met).
    watches: Vec<Vec<u32>>,
    /// The first trail entry not yet propagated.
    pub(crate) qhead: usize,
    /// Literals written by the store (statistics).
    pub(crate) propagated: u64,
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Nogoods {
        Nogoods {
            watches: vec![Vec::new(); num_vars],
            ..Nogoods::default()
        }
    }

    /// After backtracking: the trail is shorter, so the queue is too.
    pub(crate) fn backtracked(&mut self, trail_len: usize) {
        self.qhead = self.qhead.min(trail_len);
    }

    /// Adds a clause of two or more literals, watching its first two (the
    /// caller puts the asserting literal first and, second, the false
    /// literal of the highest level). Returns its index.
    pub(crate) fn add(&mut self, lits: Vec<Literal>) -> u32 {
        debug_assert!(lits.len() >= 2);
        let c = self.clauses.len() as u32;
        let (a, b) = (lits[0].var().index(), lits[1].var().index());
        self.watches[a].push(c);
        if b != a {
            self.watches[b].push(c);
        }
        self.clauses.push(lits);
        c
    }

    /// Propagates the clauses watching the variables changed on the trail
    /// since the last call, until no clause is unit. `Ok(true)` if a
    /// literal was written; `Err(c)` when clause `c` has every literal
    /// false.
    pub(crate) fn propagate(&mut self, store: &mut DomainStore) -> Result<bool, u32> {
        let mut wrote = false;
        while self.qhead < store.ex.entries.len() {
            let x = store.ex.entries[self.qhead].lit.var().index();
            self.qhead += 1;
            let mut k = 0;
            while k < self.watches[x].len() {
                let c = self.watches[x][k];
                let lits = &self.clauses[c as usize];
                let (w0, w1) = (lits[0].var().index(), lits[1].var().index());
                if w0 != x && w1 != x {
                    // Stale: the watch moved away earlier.
                    self.watches[x].swap_remove(k);
                    continue;
                }
                match self.visit(store, c) {
                    Visit::Conflict => return Err(c),
                    Visit::Unit => wrote = true,
                    Visit::Quiet => {}
                }
                let lits = &self.clauses[c as usize];
                let (n0, n1) = (lits[0].var().index(), lits[1].var().index());
                // Watch lists of the variables the clause watches now
                // (those it watched keep their entries).
                if n0 != w0 && n0 != w1 {
                    self.watches[n0].push(c);
                }
                if n1 != n0 && n1 != w0 && n1 != w1 {
                    self.watches[n1].push(c);
                }
                if n0 != x && n1 != x {
                    self.watches[x].swap_remove(k);
                } else {
                    k += 1;
                }
            }
        }
        Ok(wrote)
    }

    /// Looks at clause `c`: moves its watches off false literals where it
    /// can, and makes its first literal true when it is the only one not
    /// false (with the others as the reason).
    pub(crate) fn visit(&mut self, store: &mut DomainStore, c: u32) -> Visit {
        let lits = &mut self.clauses[c as usize];
        for w in 0..2 {
            if is_false(store, lits[w]) {
                if let Some(j) = (2..lits.len()).find(|&j| !is_false(store, lits[j])) {
                    lits.swap(w, j);
                }
            }
        }
        let (f0, f1) = (is_false(store, lits[0]), is_false(store, lits[1]));
        if f0 && f1 {
            return Visit::Conflict;
        }
        if f0 {
            lits.swap(0, 1);
        } else if !f1 {
            return Visit::Quiet;
        }
        // lits[1] is false, and so is every literal after it.
        if is_true(store, lits[0]) {
            return Visit::Quiet;
        }
        let start = store.ex.premises.len() as u32;
        for &l in &lits[1..] {
            store.ex.premises.push(l.negate());
        }
        let cause = Cause::Propagated {
            prop: NOGOOD_PROP,
            how: How::Eager {
                start,
                len: (lits.len() - 1) as u32,
            },
        };
        let lit = lits[0];
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
