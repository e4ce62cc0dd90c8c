//! The engine's limits (see [`crate::Limits`]): the node budget, shared
//! between the engines of a parallel search, the time and memory limits
//! and the cancel token, checked every 256 nodes by the search loop and
//! during root propagation and model preparation.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::engine::{Engine, Frame};
use crate::limits::Limit;
use crate::search::SearchOptions;

/// The bytes of the decision stack, counted after its next doubling when
/// more than half full (as the store counts its trail).
pub(super) fn frames_bytes(frames: &Vec<Frame>) -> u64 {
    (frames.capacity().max(2 * frames.len()) * std::mem::size_of::<Frame>()) as u64
}

/// Is the cancel, time or memory limit of `opts` reached (asked in that
/// order)? Records it in `hit`. `memory` is the search's memory in bytes
/// (asked only when there is a budget).
pub(super) fn check_running(
    opts: &SearchOptions,
    start: Instant,
    memory: impl FnOnce() -> u64,
    hit: &mut Option<Limit>,
) -> bool {
    if check_time(opts, start, hit) {
        return true;
    }
    if let Some(m) = opts.limits.memory {
        if memory() > m {
            *hit = Some(Limit::Memory);
            return true;
        }
    }
    false
}

/// Is the time or cancel limit of `opts` reached? Records it in `hit`.
pub(super) fn check_time(opts: &SearchOptions, start: Instant, hit: &mut Option<Limit>) -> bool {
    let l = &opts.limits;
    if let Some(t) = &l.cancel {
        if t.is_cancelled() {
            *hit = Some(Limit::Cancelled);
            return true;
        }
    }
    if let Some(t) = l.time {
        if start.elapsed() >= t {
            *hit = Some(Limit::Time);
            return true;
        }
    }
    false
}

impl Engine<'_> {
    /// The limits before any node: a parallel subproblem that starts
    /// after the budget is spent, the time is up or the search cancelled.
    pub(crate) fn check_limits_now(&mut self) -> Option<Limit> {
        if let (Some(n), Some(shared)) = (self.opts.limits.nodes, &self.shared_nodes) {
            if shared.load(Ordering::Relaxed) >= n {
                return Some(Limit::Nodes);
            }
        }
        self.running_limit()
    }

    #[inline(never)]
    pub(super) fn check_limits(&mut self) -> Option<Limit> {
        self.next_check = self.stats.nodes + 256;
        let l = &self.opts.limits;
        let nodes_now = if let Some(shared) = &self.shared_nodes {
            let delta = self.stats.nodes - self.flushed_nodes;
            self.flushed_nodes = self.stats.nodes;
            shared.fetch_add(delta, Ordering::Relaxed) + delta
        } else {
            self.stats.nodes
        };
        if let Some(n) = l.nodes {
            if nodes_now >= n {
                return Some(Limit::Nodes);
            }
            self.next_check = self.next_check.min(self.stats.nodes + (n - nodes_now));
        }
        self.running_limit()
    }

    /// The cancel, time or memory limit reached, if any (see
    /// [`check_running`]).
    fn running_limit(&self) -> Option<Limit> {
        let mut hit = None;
        check_running(
            &self.opts,
            self.start_time,
            || self.memory_bytes(),
            &mut hit,
        );
        hit
    }

    /// The bytes the search holds (see [`crate::Limits::memory`]): the store with
    /// its trail, and the decision stack.
    pub(crate) fn memory_bytes(&self) -> u64 {
        self.store.memory_bytes() + frames_bytes(&self.frames)
    }
}
