//! Large neighbourhood search inside the learning search
//! ([`SearchOptions::lns`](crate::SearchOptions::lns)).
//!
//! Once there is an incumbent, every other restart run of branch and
//! bound begins with a *neighbourhood*: a random share of the variables
//! is fixed to the incumbent's values, and the run searches what is left
//! under the bound. The fixings are made as **assumptions**, decisions on
//! the first levels (one level each, as MiniSat makes its assumptions),
//! never as root facts, so every nogood learned inside a neighbourhood
//! is valid for the whole model and stays in the store: a neighbourhood
//! that fails teaches the search why, and a later neighbourhood or the
//! complete runs between them use it. This is how the learning solvers
//! mix the two (CP-SAT's LNS workers share their learned bounds; the
//! "solution-based phase saving" of Demirović, Chu and Stuckey, CP 2018,
//! steers a complete search towards the incumbent in the same spirit);
//! the code here is ours.
//!
//! A run with a neighbourhood ends like any run, at its restart cutoff,
//! or earlier: on a better solution (the bound tightens and the next
//! neighbourhood is drawn around it), or when an assumption turns false,
//! which means the neighbourhood holds nothing better (the rest of that
//! run searches the whole space). The share freed adapts as in CP-SAT:
//! an exhausted neighbourhood frees more next time, one cut off by the
//! restart frees less. The complete runs between neighbourhoods keep
//! the search complete: the proof of optimality is found as without
//! neighbourhoods (a conflict at level 0, which no assumption is).

use crate::domain::DomainStore;
use crate::ids::{Value, VarId};
use crate::literal::Literal;

use super::super::engine::splitmix;
use super::nogoods::{is_false, is_true};

/// The share of the variables freed by the first neighbourhood.
pub(crate) const FIRST_RELAX: f64 = 0.3;
/// The bounds of the share freed.
const RELAX_RANGE: (f64, f64) = (0.02, 0.9);
/// How the share moves after an exhausted (up) or cut-off (down)
/// neighbourhood.
const RELAX_STEP: f64 = 1.15;

/// What [`Neighbourhoods::next_assumption`] says.
pub(crate) enum Assume {
    /// Decide this literal (an open assumption).
    Decide(Literal),
    /// Every assumption holds (or there is no neighbourhood).
    Done,
    /// An assumption is false: the neighbourhood holds no better solution.
    Exhausted,
}

/// The state of the neighbourhoods of one learning search.
pub(crate) struct Neighbourhoods {
    rng: u64,
    /// The share of the pool freed.
    relax: f64,
    /// The variables a neighbourhood may fix.
    pool: Vec<u32>,
    /// The incumbent's values (empty before the first solution).
    incumbent: Vec<Value>,
    /// The current neighbourhood's assumptions (empty: a complete run).
    assume: Vec<Literal>,
    /// Every assumption before this index is true at the current node.
    cursor: usize,
    /// Neighbourhoods drawn, exhausted, and ended by a better solution.
    pub(crate) drawn: u64,
    pub(crate) exhausted: u64,
    pub(crate) improved: u64,
}

impl Neighbourhoods {
    /// Neighbourhoods over the variables of `pool` (the objective left
    /// out by the caller), seeded by `seed`.
    pub(crate) fn new(pool: Vec<u32>, seed: u64) -> Neighbourhoods {
        Neighbourhoods {
            rng: splitmix(seed ^ 0x4C4E_534C),
            relax: FIRST_RELAX,
            pool,
            incumbent: Vec::new(),
            assume: Vec::new(),
            cursor: 0,
            drawn: 0,
            exhausted: 0,
            improved: 0,
        }
    }

    /// Draws from another random sequence (worker `i` of a portfolio;
    /// worker 0 keeps the sequential search's).
    pub(crate) fn reseed(&mut self, i: u64) {
        if i > 0 {
            self.rng = splitmix(self.rng ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
    }

    /// Takes `x` (the objective) out of the pool.
    pub(crate) fn leave_out(&mut self, x: u32) {
        self.pool.retain(|&i| i != x);
    }

    /// Is a neighbourhood being searched?
    pub(crate) fn active(&self) -> bool {
        !self.assume.is_empty()
    }

    /// A better solution: the next neighbourhoods are drawn around it.
    pub(crate) fn incumbent(&mut self, values: &[Value]) {
        if self.active() {
            self.improved += 1;
        }
        self.assume.clear();
        self.incumbent = values.to_vec();
    }

    /// Draws a neighbourhood around the incumbent, at the root: the
    /// variables of the pool still open in `store` are kept at the
    /// incumbent's value with probability `1 − relax`. False (and no
    /// neighbourhood) before the first solution.
    pub(crate) fn draw(&mut self, store: &DomainStore) -> bool {
        self.assume.clear();
        self.cursor = 0;
        if self.incumbent.is_empty() {
            return false;
        }
        let keep_below = ((1.0 - self.relax) * (1u64 << 32) as f64) as u64;
        for &i in &self.pool {
            self.rng = splitmix(self.rng);
            let x = i as usize;
            if store.size(x) > 1 && (self.rng >> 32) < keep_below {
                self.assume.push(Literal::Eq(VarId(i), self.incumbent[x]));
            }
        }
        if self.assume.is_empty() {
            return false;
        }
        self.drawn += 1;
        true
    }

    /// The neighbourhood ends: `exhausted` (an assumption turned false)
    /// frees more of the pool next time, a cut-off one less.
    pub(crate) fn end(&mut self, exhausted: bool) {
        if !self.active() {
            return;
        }
        if exhausted {
            self.exhausted += 1;
            self.relax = (self.relax * RELAX_STEP).min(RELAX_RANGE.1);
        } else {
            self.relax = (self.relax / RELAX_STEP).max(RELAX_RANGE.0);
        }
        self.assume.clear();
        self.cursor = 0;
    }

    /// After a backjump: the assumptions are checked again from the first.
    pub(crate) fn backtracked(&mut self) {
        self.cursor = 0;
    }

    /// The next assumption to decide at a fixpoint of `store`.
    pub(crate) fn next_assumption(&mut self, store: &DomainStore) -> Assume {
        while let Some(&lit) = self.assume.get(self.cursor) {
            if is_true(store, lit) {
                self.cursor += 1;
                continue;
            }
            if is_false(store, lit) {
                return Assume::Exhausted;
            }
            return Assume::Decide(lit);
        }
        Assume::Done
    }
}
