//! Branch and bound and restarts on top of the engine's loop: the
//! objective bound each decision enforces (the engine's own, tightened by
//! the one a parallel search shares), the frames it refutes at once, and
//! the restart cutoffs of [`Restarts`](crate::search::Restarts).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::engine::Engine;
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::search::RootWeights;

impl Engine<'_> {
    /// Makes this a branch-and-bound search on `x` (see [`Engine::bound`]):
    /// every decision also enforces the bound, so inference prunes with it.
    pub(crate) fn set_objective(&mut self, x: VarId, minimize: bool) {
        self.objective = Some((x.index(), minimize));
        self.direct = false;
        self.count_shortcut = false;
    }

    /// Shares the objective bound with other engines (parallel branch and
    /// bound): each decision enforces the tighter of it and the own bound.
    pub(crate) fn set_shared_bound(&mut self, b: Arc<std::sync::atomic::AtomicI32>) {
        self.shared_bound = Some(b);
    }

    /// Turns on the restarts of the options (see
    /// [`Restarts`](crate::search::Restarts)); callers that enumerate or
    /// count never do.
    pub(crate) fn enable_restarts(&mut self) {
        if self.opts.restarts != crate::search::Restarts::None {
            self.restart = Some((0, 0, self.opts.restarts.cutoff(0)));
        }
    }

    /// Halves or resets the failure weights (a new root decision).
    pub(super) fn update_root_weights(&mut self) {
        match self.opts.root_weights {
            RootWeights::Keep => {}
            RootWeights::Halve => self.weights.iter_mut().for_each(|w| *w = w.div_ceil(2)),
            RootWeights::Reset => self.weights.fill(1),
        }
    }

    /// After a failure: restart from the root when this run's cutoff is
    /// reached. The failure weights and the objective bound stay.
    #[inline]
    pub(super) fn maybe_restart(&mut self) {
        let Some((runs, fails, cutoff)) = self.restart.as_mut() else {
            return;
        };
        *fails += 1;
        if *fails < *cutoff {
            return;
        }
        *runs += 1;
        *fails = 0;
        *cutoff = self.opts.restarts.cutoff(*runs);
        if let Some(level) = self.frames.first().map(|f| f.level as usize) {
            self.store.reopen_level(level);
            self.store.close_reopened_level(level);
        }
        self.frames.clear();
        self.last_conflict = None;
        self.root_decided = false;
        self.descend = true;
        self.stats.restarts += 1;
        log::debug!(
            "restart {} after {} nodes",
            self.stats.restarts,
            self.stats.nodes
        );
    }

    /// The bound every decision enforces (the own one, tightened by the
    /// shared one in parallel branch and bound).
    #[inline]
    pub(super) fn effective_bound(&self) -> Option<Value> {
        let mut bound = self.bound;
        if let (Some(shared), Some((_, minimize))) = (&self.shared_bound, self.objective) {
            let g = shared.load(Ordering::Relaxed);
            bound = Some(match bound {
                Some(b) if minimize => b.min(g),
                Some(b) => b.max(g),
                None => g,
            });
        }
        bound
    }

    /// After an improving solution (or a tighter shared bound), the frames
    /// that were open when it came were opened without it. The first time
    /// the search comes back to such a frame `fi`, with the store at the
    /// frame's opening, this enforces the bound there and propagates: when
    /// that fails, every value left in the frame fails too, and the frame
    /// is dropped at the cost of one propagation instead of one refuted
    /// decision per value (Gecode 6.2's branch and bound does the same at
    /// the copy it recomputes from, `gecode/search/seq/path.hpp`, which is
    /// why its trees are smaller than ours were). When it holds, the
    /// changes stay in the
    /// frame's open level only: the next value's decision enforces the
    /// bound again, as every decision does. True when the bound fails here.
    pub(super) fn bound_fails_at_opening(&mut self, fi: usize) -> bool {
        let b = self.effective_bound();
        if b != self.probed_bound {
            self.probed_bound = b;
            self.probe_below = self.frames.len();
        }
        if b.is_none() || fi >= self.probe_below {
            return false;
        }
        self.probe_below = fi;
        if self.enforce_bound().is_err() {
            self.store.clear_events();
            return true;
        }
        self.propagate().is_err()
    }

    /// Does the objective's domain in the current state (a frame's opening)
    /// already miss the bound, so that every decision below fails?
    #[inline]
    pub(super) fn bound_refutes_frame(&self) -> bool {
        match (self.objective, self.effective_bound()) {
            (Some((x, true)), Some(b)) => self.store.min(x) > b,
            (Some((x, false)), Some(b)) => self.store.max(x) < b,
            _ => false,
        }
    }

    /// Enforces the objective bound (a domain change, undone on backtrack
    /// with the decision's level).
    #[inline]
    pub(super) fn enforce_bound(&mut self) -> Result<(), Conflict> {
        if let (Some((x, minimize)), Some(b)) = (self.objective, self.effective_bound()) {
            let v = crate::VarId(x as u32);
            let lit = if minimize {
                crate::Literal::Le(v, b)
            } else {
                crate::Literal::Ge(v, b)
            };
            super::engine::write_literal(
                &mut self.store,
                crate::domain::explained::Cause::Bound,
                lit,
            )?;
        }
        Ok(())
    }
}
