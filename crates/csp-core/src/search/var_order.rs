//! Variable choice: which open variable the search branches on next
//! ([`VarOrder`]). Ties go to the lowest index, so the choice is
//! deterministic.
//!
//! | order | picks | cost per node |
//! |---|---|---|
//! | input | the first open variable after the last decision | O(1) amortised |
//! | smallest domain | the open variable with the fewest values | O(n) |
//! | dom/deg | the smallest domain size / number of constraints | O(n) |
//! | dom/wdeg | the smallest domain size / sum of its constraints' failure weights | O(n + watches) |
//!
//! With [`SearchOptions::decision_vars`](super::SearchOptions::decision_vars),
//! the order first chooses among those variables (input order meaning their
//! order in the list), and among the rest only when they are all fixed.

use super::engine::Engine;
use super::VarOrder;

impl Engine<'_> {
    /// The variable to branch on, or `None` when every variable is fixed.
    pub(super) fn select_var(&self) -> Option<usize> {
        if self.store.unfixed == 0 {
            return None;
        }
        if !self.opts.decision_vars.is_empty() {
            let n = self.store.len();
            let first = self
                .opts
                .decision_vars
                .iter()
                .map(|x| x.index())
                .filter(|&i| i < n);
            let pick = match self.opts.var_order {
                VarOrder::Input => first.clone().find(|&i| self.store.is_open(i)),
                _ => self.best_of(first),
            };
            if pick.is_some() {
                return pick;
            }
        }
        self.select_among_all()
    }

    /// The best open variable of `cands` by the dom-based orders (the
    /// smallest domain for input order too).
    fn best_of(&self, cands: impl Iterator<Item = usize>) -> Option<usize> {
        let s = &self.store;
        let wdeg = self.opts.var_order == VarOrder::DomWdeg;
        let by_degree = matches!(self.opts.var_order, VarOrder::DomDeg | VarOrder::DomWdeg);
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
            }
        }
        best
    }

    /// [`select_var`](Self::select_var) over every variable.
    fn select_among_all(&self) -> Option<usize> {
        let n = self.store.len();
        let s = &self.store;
        match self.opts.var_order {
            VarOrder::Input => {
                let from = self.frames.last().map_or(0, |f| f.var as usize + 1);
                // Variables before the last decision were fixed when it was made,
                // except in replayed subproblems where decisions may skip ahead.
                let from = if self.frames.is_empty() { 0 } else { from };
                (from..n)
                    .find(|&i| s.is_open(i))
                    .or_else(|| (0..from).find(|&i| s.is_open(i)))
            }
            VarOrder::Mrv => {
                let mut best = None;
                let mut best_size = u64::MAX;
                for i in 0..n {
                    let sz = s.size(i);
                    if sz > 1 && sz < best_size {
                        best_size = sz;
                        best = Some(i);
                        if sz == 2 {
                            break;
                        }
                    }
                }
                best
            }
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
        }
    }
}
