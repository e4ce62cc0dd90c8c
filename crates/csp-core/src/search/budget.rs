//! The engine's limits (see [`crate::Limits`]): the node budget, shared
//! between the engines of a parallel search, the time and memory limits
//! and the cancel token, checked by the search loop every
//! [`CHECK_EVERY`] nodes, or more often when its nodes are slow (see
//! [`next_interval`]), and during root propagation and model preparation.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::engine::{Engine, Frame};
use crate::limits::Limit;
use crate::search::SearchOptions;

/// The bytes of the decision stack, counted after its next doubling when
/// more than half full (as the store counts its trail).
pub(super) fn frames_bytes(frames: &Vec<Frame>) -> u64 {
    (frames.capacity().max(2 * frames.len()) * std::mem::size_of::<Frame>()) as u64
}

/// Nodes between two checks of the limits when nodes are fast.
pub(super) const CHECK_EVERY: u64 = 256;

/// The time the search aims to leave between two checks of its limits.
/// A node can cost milliseconds on a large model in the learning search
/// (a MiniZinc Challenge model of 31,000 propagators: about 1 ms of CPU),
/// so a fixed 256 nodes could overshoot a time limit by a second and
/// leave `fzn-csp`'s watchdog to end the process, without statistics.
const CHECK_GAP: Duration = Duration::from_millis(10);

/// The next interval, in nodes, between two checks of the limits, given
/// the current one and the time `gap` the last one took: halved while
/// the gap is over twice [`CHECK_GAP`], doubled (up to [`CHECK_EVERY`])
/// while it is under half of it.
pub(super) fn next_interval(every: u64, gap: Duration) -> u64 {
    if gap > 2 * CHECK_GAP {
        (every / 2).max(1)
    } else if gap < CHECK_GAP / 2 {
        (every * 2).min(CHECK_EVERY)
    } else {
        every
    }
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
        let l = &self.opts.limits;
        if l.time.is_some() || l.cancel.is_some() {
            let now = Instant::now();
            self.check_every = next_interval(self.check_every, now - self.last_check);
            self.last_check = now;
        }
        self.next_check = self.stats.nodes + self.check_every;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_nodes_are_checked_more_often_and_fast_ones_less() {
        let ms = Duration::from_millis;
        // Slow: halved down to every node, never zero.
        let mut every = CHECK_EVERY;
        for _ in 0..20 {
            every = next_interval(every, ms(100));
        }
        assert_eq!(every, 1);
        // Fast again: doubled back up to the cap, never past it.
        for _ in 0..20 {
            every = next_interval(every, ms(1));
        }
        assert_eq!(every, CHECK_EVERY);
        // Within the target band: unchanged.
        assert_eq!(next_interval(64, CHECK_GAP), 64);
        assert_eq!(next_interval(64, ms(100)), 32);
        assert_eq!(next_interval(64, ms(1)), 128);
    }
}
