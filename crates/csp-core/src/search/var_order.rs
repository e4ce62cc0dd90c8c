//! Variable choice: which open variable the search branches on next
//! ([`VarOrder`]). Ties go to the lowest index, so the choice is
//! deterministic.
//!
//! | order | picks | cost per node |
//! |---|---|---|
//! | input | the first open variable after the last decision | O(1) amortised |
//! | smallest domain | the open variable with the fewest values (the first with two) | O(n) |
//! | dom/deg | the smallest domain size / number of constraints | O(n) |
//! | dom/wdeg | the smallest domain size / sum of its constraints' failure weights | O(n + watches) |
//! | smallest / largest | the smallest minimum / the largest maximum value | O(n) |
//!
//! With [`SearchOptions::last_conflict`](super::SearchOptions::last_conflict),
//! the variable of the last failed decision comes first while it is open
//! (and, with decision variables, while it is one of them or they are all
//! fixed).
//! With [`SearchOptions::decision_vars`](super::SearchOptions::decision_vars),
//! the order first chooses among those variables (input order meaning their
//! order in the list), and among the rest only when they are all fixed;
//! [`SearchOptions::phases`](super::SearchOptions::phases) splits them into
//! groups searched one after the other. Over those lists, a prefix found
//! fixed is skipped at the next choices while its level is open
//! ([`SkipHint`]).

use super::engine::Engine;
use super::VarOrder;
use crate::domain::DomainStore;

/// A candidate list's prefix that holds only fixed variables: the first
/// `pos` candidates of list `key` (a phase of the decision variables by its
/// start, or [`USER_FIRST`]) were fixed at decision level `level`, opened
/// with `stamp`. Variables fixed at a level stay fixed while it is open,
/// so the next choice at that level or below it reads from `pos` on; a
/// level closed and opened again has another stamp. Every order skips
/// fixed variables, so starting past them changes no choice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SkipHint {
    key: u32,
    level: u32,
    stamp: u64,
    pos: u32,
}

/// The key of the caller's variables' list (`Prepared::user_first`).
const USER_FIRST: u32 = u32::MAX;

impl Engine<'_> {
    /// The variable to branch on, or `None` when every variable is fixed.
    #[inline]
    pub(super) fn select_var(&mut self) -> Option<usize> {
        if self.store.unfixed == 0 {
            return None;
        }
        if self.last_conflict.is_none() && self.opts.decision_vars.is_empty() {
            // The usual case: no last conflict, no decision variables.
            return self.select_rest();
        }
        self.select_with_conflict_or_phases()
    }

    /// [`select_among_all`](Self::select_among_all), except without
    /// inference and with hidden variables: the caller's variables
    /// first (`Prepared::user_first`).
    fn select_rest(&mut self) -> Option<usize> {
        if !self.prep.user_first.is_empty() {
            let list = &self.prep.user_first;
            let first = first_open(
                &mut self.skip_hints,
                &self.store,
                USER_FIRST,
                list.len(),
                |k| list[k] as usize,
            );
            let user = self.prep.user_first[first..].iter().map(|&i| i as usize);
            let x = match self.opts.var_order {
                VarOrder::Input => user.clone().find(|&i| self.store.is_open(i)),
                order => self.best_of(user, order),
            };
            if x.is_some() {
                return x;
            }
        }
        self.select_among_all()
    }

    /// [`select_var`](Self::select_var) with a last-conflict variable or
    /// decision variables.
    fn select_with_conflict_or_phases(&mut self) -> Option<usize> {
        if let Some(x) = self.last_conflict {
            let x = x as usize;
            if self.store.is_open(x) && self.conflict_allowed(x) {
                return Some(x);
            }
            // Fixed by propagation (or not a decision variable while some
            // are open): forgotten.
            self.last_conflict = None;
        }
        let nd = self.opts.decision_vars.len();
        let mut start = 0;
        // The phases of the decision variables, then what is left of them.
        for k in 0..=self.opts.phases.len() {
            let len = self.opts.phases.get(k).copied().unwrap_or(usize::MAX);
            if start >= nd {
                break;
            }
            let end = start.saturating_add(len).min(nd);
            let order = match self.opts.phase_orders.get(k) {
                Some(&(o, _)) if k < self.opts.phases.len() => o,
                _ => self.opts.var_order,
            };
            if let Some(x) = self.select_in(start, end, order) {
                return Some(x);
            }
            start = end;
        }
        self.select_rest()
    }

    /// The best open variable of `decision_vars[start..end]`.
    fn select_in(&mut self, start: usize, end: usize, order: VarOrder) -> Option<usize> {
        let n = self.store.len();
        let decision = &self.opts.decision_vars;
        let skip = first_open(
            &mut self.skip_hints,
            &self.store,
            start as u32,
            end - start,
            |k| decision[start + k].index(),
        );
        let group = self.opts.decision_vars[start + skip..end]
            .iter()
            .map(|x| x.index())
            .filter(|&i| i < n);
        match order {
            VarOrder::Input => group.clone().find(|&i| self.store.is_open(i)),
            VarOrder::Smallest | VarOrder::Largest if self.reorder_ties => {
                self.best_bound_reordered(start, end, order == VarOrder::Largest)
            }
            _ => self.best_of(group, order),
        }
    }

    /// [`best_bound`](Self::best_bound) over `decision_vars[start..end]`
    /// with ties broken by the first in the phase's [`TieOrder`], which
    /// the scan updates: each variable found fixed trades places with the
    /// first open one before it.
    fn best_bound_reordered(&mut self, start: usize, end: usize, largest: bool) -> Option<usize> {
        let n = self.store.len();
        let k = match self.tie_orders.iter().position(|t| t.start == start) {
            Some(k) => k,
            None => {
                let vars = self.opts.decision_vars[start..end]
                    .iter()
                    .map(|x| x.index())
                    .filter(|&i| i < n)
                    .collect();
                self.tie_orders.push(TieOrder { start, vars });
                self.tie_orders.len() - 1
            }
        };
        let s = &self.store;
        pick_reordered(
            &mut self.tie_orders[k].vars,
            |x| s.is_open(x),
            |x| bound_key(s, x, largest),
        )
    }

    /// May the last-conflict variable `x` go first? Always without
    /// decision variables; with them, when it is one or none is open.
    fn conflict_allowed(&self, x: usize) -> bool {
        let d = &self.opts.decision_vars;
        d.is_empty()
            || d.iter().any(|v| v.index() == x)
            || !d
                .iter()
                .any(|v| v.index() < self.store.len() && self.store.is_open(v.index()))
    }

    /// The best open variable of `cands` by the dom-based orders (the
    /// smallest domain for input order too) or by its bounds.
    fn best_of(&self, cands: impl Iterator<Item = usize>, order: VarOrder) -> Option<usize> {
        let s = &self.store;
        match order {
            VarOrder::Smallest => return self.best_bound(cands, false),
            VarOrder::Largest => return self.best_bound(cands, true),
            _ => {}
        }
        let wdeg = order == VarOrder::DomWdeg;
        let by_degree = matches!(order, VarOrder::DomDeg | VarOrder::DomWdeg);
        let mut best = None;
        let (mut bs, mut bd) = (1u64, 0u64);
        for i in cands {
            let sz = s.size(i);
            if sz <= 1 {
                continue;
            }
            let d = if !by_degree {
                1
            } else if wdeg {
                self.prep
                    .watches(i)
                    .iter()
                    .map(|&c| self.weights[c as usize] as u64)
                    .sum::<u64>()
                    .max(1)
            } else {
                (self.prep.degree(i) as u64).max(1)
            };
            if best.is_none() || sz * bd < bs * d {
                best = Some(i);
                bs = sz;
                bd = d;
                if sz == 2 && !by_degree {
                    // No open variable has fewer values: the first such
                    // wins (a Boolean first-fail order would otherwise
                    // read every variable at every decision).
                    break;
                }
            }
        }
        best
    }

    /// The open variable of `cands` with the smallest minimum, or with the
    /// largest maximum (`largest`); the first on ties.
    fn best_bound(&self, cands: impl Iterator<Item = usize>, largest: bool) -> Option<usize> {
        let s = &self.store;
        let mut best: Option<(usize, i64)> = None;
        for i in cands {
            if !s.is_open(i) {
                continue;
            }
            let key = bound_key(s, i, largest);
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((i, key));
            }
        }
        best.map(|b| b.0)
    }

    /// [`select_var`](Self::select_var) over every variable.
    fn select_among_all(&self) -> Option<usize> {
        let n = self.store.len();
        let s = &self.store;
        match self.opts.var_order {
            VarOrder::Input => {
                // Variables before the last decision were fixed when it was
                // made, except in replayed subproblems where decisions may
                // skip ahead and after a last-conflict choice (hence the
                // wrap-around). A split leaves its variable open: start there.
                let from = self.frames.last().map_or(0, |f| f.var as usize);
                s.first_open_from(from)
            }
            VarOrder::Mrv => s.smallest_open(),
            VarOrder::DomDeg | VarOrder::DomWdeg => {
                let wdeg = self.opts.var_order == VarOrder::DomWdeg;
                let mut best = None;
                let (mut bs, mut bd) = (1u64, 0u64);
                for i in 0..n {
                    let sz = s.size(i);
                    if sz <= 1 {
                        continue;
                    }
                    let d = if wdeg {
                        self.prep
                            .watches(i)
                            .iter()
                            .map(|&c| self.weights[c as usize] as u64)
                            .sum::<u64>()
                    } else {
                        self.prep.degree(i) as u64
                    }
                    .max(1);
                    // sz / d < bs / bd  <=>  sz * bd < bs * d
                    if best.is_none() || sz * bd < bs * d {
                        best = Some(i);
                        bs = sz;
                        bd = d;
                    }
                }
                best
            }
            VarOrder::Smallest => self.best_bound(0..n, false),
            VarOrder::Largest => self.best_bound(0..n, true),
        }
    }
}

/// The position of the first open candidate of list `key` (`len`
/// candidates, the `k`-th being variable `var(k)`; one outside the store
/// counts as fixed), or `len` if none: read from where a [`SkipHint`] says
/// the list's prefix is fixed, and noted as the new hint.
fn first_open(
    hints: &mut Vec<SkipHint>,
    store: &DomainStore,
    key: u32,
    len: usize,
    var: impl Fn(usize) -> usize,
) -> usize {
    let level = store.level();
    // Hints of levels closed since go first; the hints' levels do not
    // decrease, so those are on top.
    while let Some(h) = hints.last() {
        let l = h.level as usize;
        if l <= level && store.level_stamp(l) == h.stamp {
            break;
        }
        hints.pop();
    }
    let from = hints
        .iter()
        .rev()
        .find(|h| h.key == key)
        .map_or(0, |h| h.pos as usize);
    let mut k = from.min(len);
    while k < len && {
        let i = var(k);
        i >= store.len() || !store.is_open(i)
    } {
        k += 1;
    }
    let stamp = store.level_stamp(level);
    let here = hints
        .iter_mut()
        .rev()
        .take_while(|h| h.level as usize == level)
        .find(|h| h.key == key);
    match here {
        Some(h) => {
            h.pos = k as u32;
            h.stamp = stamp;
        }
        None => hints.push(SkipHint {
            key,
            level: level as u32,
            stamp,
            pos: k as u32,
        }),
    }
    k
}

/// The key `smallest` and `largest` maximise: `x`'s maximum for
/// `largest`, its negated minimum for `smallest`.
#[inline]
fn bound_key(s: &DomainStore, x: usize, largest: bool) -> i64 {
    if largest {
        s.max(x) as i64
    } else {
        -(s.min(x) as i64)
    }
}

/// The open variable of `vars` of largest `key`, ties to the first in
/// `vars`, which the scan reorders: each variable found fixed trades
/// places with the first open one before it (see [`TieOrder`]).
fn pick_reordered(
    vars: &mut [usize],
    open: impl Fn(usize) -> bool,
    key: impl Fn(usize) -> i64,
) -> Option<usize> {
    let mut first_open = 0;
    let mut best: Option<(usize, i64)> = None;
    for i in 0..vars.len() {
        let x = vars[i];
        if !open(x) {
            vars.swap(first_open, i);
            first_open += 1;
            continue;
        }
        let k = key(x);
        if best.is_none_or(|(_, b)| k > b) {
            best = Some((x, k));
        }
    }
    best.map(|b| b.0)
}

/// The order in which the learning search breaks ties of `smallest` and
/// `largest` within one phase of the decision variables, as Huub 100.1.0
/// does (`IntBrancher::decide`, `src/solver/branchers.rs`): the phase's
/// variables, permuted as the search goes, for every scan swaps each
/// variable it finds fixed with the first open one before it, and a tie
/// goes to the first in this order. The permutation is never undone. On
/// the multi-mode RCPSP j30_1_1 the first-in-the-array rule needed
/// 407,000 to 583,000 failures over four orders of the annotation's
/// arrays, this one 432,000 to 434,000 (`docs/benchmarks.md`, "Multi-mode
/// j30_1_1 against Huub", its twentieth-session part). The ordinary
/// engine keeps the first in the array, as Gecode does.
#[derive(Clone, Debug)]
pub(crate) struct TieOrder {
    /// The phase's first position in the decision variables.
    start: usize,
    /// The phase's variables (store indices), in the current order.
    vars: Vec<usize>,
}

#[cfg(test)]
mod tie_tests {
    use super::pick_reordered;

    #[test]
    fn ties_follow_the_order_the_scans_leave() {
        // Four tied variables. With 0 and 2 fixed, 1 is picked, and 2
        // trades places with 1 (the first open one before it): the order
        // becomes 0, 2, 1, 3.
        let mut vars = vec![0, 1, 2, 3];
        let key = |_| 0;
        assert_eq!(
            pick_reordered(&mut vars, |x| x != 0 && x != 2, key),
            Some(1)
        );
        assert_eq!(vars, [0, 2, 1, 3]);
        // After a backjump only 0 is fixed: the tie goes to 2, the first
        // open one in the new order (the array's order would give 1).
        assert_eq!(pick_reordered(&mut vars, |x| x != 0, key), Some(2));
        // A strictly better key wins whatever the order.
        assert_eq!(pick_reordered(&mut vars, |_| true, |x| x as i64), Some(3));
        // Nothing open: nothing picked.
        assert_eq!(pick_reordered(&mut vars, |_| false, key), None);
    }
}
