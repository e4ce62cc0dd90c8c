//! The propagation loop: subscriptions, the priority queue, event delivery,
//! entailment and failure weights.
//!
//! [`Kernel::propagate`] is the whole loop, in the spirit of MiniSat's
//! `propagate()`:
//! 1. deliver every pending event: for each subscriber of the changed
//!    variable whose kinds match and which is not entailed, call
//!    [`Propagator::notify`]; schedule it when it asks;
//! 2. take the scheduled propagator of the best [`Priority`] and run its
//!    [`Propagator::propagate`]; go to 1;
//! 3. stop when nothing is pending or scheduled (a fixpoint), or at the
//!    first [`Conflict`]: then everything pending is dropped, and the
//!    failing propagator's constraints gain weight (for dom/wdeg).

use std::collections::VecDeque;

use smallvec::SmallVec;

use super::{Event, Events, Propagator, Ready, Setup};
use crate::constraint::Pruner;
use crate::domain::{Conflict, DomainStore};
use crate::search::Inference;

/// One subscription: propagator `prop` wants events `mask` on a variable,
/// reported as scope position `pos`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sub {
    pub(crate) prop: u32,
    pub(crate) pos: u32,
    pub(crate) mask: u8,
}

const NO_PROP: u32 = u32::MAX;

/// Limits are also checked after this many values were removed since the
/// last check (a few milliseconds of work), so one propagator call over a
/// million variables does not run far past a time limit.
const REMOVALS_PER_CHECK: u64 = 1 << 20;

/// A propagator with the model's constraints it enforces (for weights) and
/// the inference level it runs at ([`Setup::inference`]).
pub(crate) type Owned<'a> = (Box<dyn Propagator + 'a>, SmallVec<[u32; 4]>, Inference);

/// The propagators of one search and their schedule.
pub(crate) struct Kernel<'a> {
    props: Vec<Box<dyn Propagator + 'a>>,
    /// Per propagator: the model's constraints it enforces (for weights).
    owners: Vec<SmallVec<[u32; 4]>>,
    idempotent: Vec<bool>,
    /// Per propagator: is `notify` called, or does an event only schedule?
    calls_notify: Vec<bool>,
    /// Per propagator: the event kinds `notify` is called for.
    notify_on: Vec<u8>,
    priority: Vec<u8>,
    /// CSR subscriptions by variable.
    start: Vec<u32>,
    subs: Vec<Sub>,
    queues: [VecDeque<u32>; 4],
    in_queue: Vec<bool>,
    /// First state word of the entailment bits (a bit per propagator).
    entailed_at: usize,
    /// Has any propagator declared itself entailed in this search? (Until
    /// one does, the bits need not be read.)
    any_entailed: bool,
    /// Per variable: its only subscriber and position, when a decision on
    /// it can be delivered directly (see [`Kernel::direct`]).
    direct: Vec<(u32, u32)>,
    /// Propagator and notify calls, for statistics.
    pub(crate) propagations: u64,
    /// Ask the limit closure every so many propagator calls (0: never).
    pub(crate) check_every: u64,
    /// Calls left until the next limit check.
    check_countdown: u64,
    /// The removal count at which the next limit check is due.
    check_removals: u64,
}

impl std::fmt::Debug for Kernel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("propagators", &self.props.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Kernel<'a> {
    /// Sets up `props` (with the constraints each enforces and its
    /// inference level) on `store`.
    pub(crate) fn new(store: &mut DomainStore, props: Vec<Owned<'a>>) -> Kernel<'a> {
        let n = store.len();
        let mut levels = Vec::with_capacity(props.len());
        let mut owners = Vec::with_capacity(props.len());
        let mut props: Vec<Box<dyn Propagator + 'a>> = props
            .into_iter()
            .map(|(p, o, l)| {
                owners.push(o);
                levels.push(l);
                p
            })
            .collect();
        let mut pairs: Vec<(u32, Sub)> = Vec::new();
        for (p, prop) in props.iter_mut().enumerate() {
            let mut setup = Setup {
                store,
                subs: &mut pairs,
                prop: p as u32,
                inference: levels[p],
            };
            prop.setup(&mut setup);
        }
        let entailed_at = store.len_state();
        for _ in 0..props.len().div_ceil(64) {
            store.add_word(0);
        }
        store.finish_setup();
        // CSR by variable, in subscription order.
        let mut start = vec![0u32; n + 1];
        for &(v, _) in &pairs {
            start[v as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut subs = vec![
            Sub {
                prop: 0,
                pos: 0,
                mask: 0
            };
            pairs.len()
        ];
        for &(v, s) in &pairs {
            subs[fill[v as usize] as usize] = s;
            fill[v as usize] += 1;
        }
        let plain = store.plain_small_updates();
        for (p, prop) in props.iter_mut().enumerate() {
            prop.ready(&Ready {
                prop: p as u32,
                start: &start,
                subs: &subs,
                plain,
            });
        }
        let mut direct = vec![(NO_PROP, 0); n];
        for (v, d) in direct.iter_mut().enumerate() {
            let s = &subs[start[v] as usize..start[v + 1] as usize];
            if let [only] = s {
                if only.mask & Events::FIXED.0 != 0 && store.is_small(v) {
                    *d = (only.prop, only.pos);
                }
            }
        }
        let np = props.len();
        Kernel {
            idempotent: props.iter().map(|p| p.is_idempotent()).collect(),
            calls_notify: props.iter().map(|p| p.wants_notify()).collect(),
            notify_on: props.iter().map(|p| p.notify_on().0).collect(),
            priority: props.iter().map(|p| p.priority() as u8).collect(),
            props,
            owners,
            start,
            subs,
            queues: Default::default(),
            in_queue: vec![false; np],
            entailed_at,
            any_entailed: false,
            direct,
            propagations: 0,
            check_every: 0,
            check_countdown: 0,
            check_removals: 0,
        }
    }

    /// Schedules every propagator (the root propagation).
    pub(crate) fn schedule_all(&mut self) {
        for p in 0..self.props.len() as u32 {
            self.schedule(p);
        }
    }

    #[inline]
    fn schedule(&mut self, p: u32) {
        if !self.in_queue[p as usize] {
            self.in_queue[p as usize] = true;
            self.queues[self.priority[p as usize] as usize].push_back(p);
        }
    }

    #[inline]
    fn is_entailed(&self, store: &DomainStore, p: u32) -> bool {
        self.any_entailed && store.word(self.entailed_at + p as usize / 64) >> (p % 64) & 1 == 1
    }

    fn set_entailed(&mut self, store: &mut DomainStore, p: u32) {
        self.any_entailed = true;
        let w = self.entailed_at + p as usize / 64;
        store.set_word(w, store.word(w) | 1 << (p % 64));
    }

    /// When a decision on `var` can skip the event list: its only
    /// subscriber and position.
    #[inline]
    pub(crate) fn direct(&self, var: usize) -> Option<(u32, u32)> {
        let d = self.direct[var];
        (d.0 != NO_PROP).then_some(d)
    }

    /// Delivers a fixed event on a variable fixed without recording it
    /// (see [`DomainStore::fix_small_quietly`]) to its only subscriber, then
    /// propagates whatever that caused.
    #[inline]
    pub(crate) fn decide_direct(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        (p, pos): (u32, u32),
        before: (u64, crate::Value),
        limit: &mut dyn FnMut(&DomainStore) -> bool,
    ) -> Result<(), Conflict> {
        self.propagations += 1;
        let event = Event {
            kinds: Events::FIXED | Events::BOUNDS | Events::DOMAIN,
            before: Some(before),
        };
        let mut pruner = Pruner::new(store, p);
        let r = self.props[p as usize].notify(&mut pruner, pos as usize, event);
        let entail = pruner.entailed;
        match r {
            Ok(schedule) => {
                if entail {
                    self.set_entailed(store, p);
                }
                if schedule {
                    self.schedule(p);
                }
            }
            Err(c) => return Err(self.fail(store, weights, p, c)),
        }
        if store.events.is_empty() && self.queues.iter().all(VecDeque::is_empty) {
            return Ok(());
        }
        self.propagate(store, weights, limit)
    }

    /// Runs the loop to a fixpoint (see the module documentation).
    /// `limit` is asked every [`check_every`](Self::check_every) calls
    /// whether a limit was reached; then the loop stops with a conflict the
    /// caller must not count as a failure.
    pub(crate) fn propagate(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        limit: &mut dyn FnMut(&DomainStore) -> bool,
    ) -> Result<(), Conflict> {
        loop {
            while let Some((x, kinds, old)) = store.pop_event() {
                let src = store.event_source(x as usize);
                let (a, b) = (self.start[x as usize], self.start[x as usize + 1]);
                for k in a..b {
                    let s = self.subs[k as usize];
                    if s.mask & kinds == 0 {
                        continue;
                    }
                    if !self.calls_notify[s.prop as usize]
                        || self.notify_on[s.prop as usize] & kinds == 0
                    {
                        // Scheduling only: the common case under arc consistency.
                        let skip = self.in_queue[s.prop as usize]
                            || (src == s.prop && self.idempotent[s.prop as usize])
                            || self.is_entailed(store, s.prop);
                        if !skip {
                            self.schedule(s.prop);
                        }
                        continue;
                    }
                    if self.is_entailed(store, s.prop) {
                        continue;
                    }
                    let before = store
                        .is_small(x as usize)
                        .then(|| (old, store.small_bits(x as usize).1));
                    self.propagations += 1;
                    if self.limit_due(store.removals) && limit(store) {
                        self.clear(store);
                        return Err(Conflict);
                    }
                    let event = Event {
                        kinds: Events(kinds),
                        before,
                    };
                    let mut pruner = Pruner::new(store, s.prop);
                    let r = self.props[s.prop as usize].notify(&mut pruner, s.pos as usize, event);
                    let entail = pruner.entailed;
                    match r {
                        Ok(schedule) => {
                            if entail {
                                self.set_entailed(store, s.prop);
                            } else if schedule
                                && !(src == s.prop && self.idempotent[s.prop as usize])
                            {
                                self.schedule(s.prop);
                            }
                        }
                        Err(c) => return Err(self.fail(store, weights, s.prop, c)),
                    }
                }
            }
            let Some(p) = self.queues.iter_mut().find_map(VecDeque::pop_front) else {
                return Ok(());
            };
            self.in_queue[p as usize] = false;
            if self.is_entailed(store, p) {
                continue;
            }
            self.propagations += 1;
            if self.limit_due(store.removals) && limit(store) {
                self.clear(store);
                return Err(Conflict);
            }
            store.set_source(p);
            let mut pruner = Pruner::new(store, p);
            let r = self.props[p as usize].propagate(&mut pruner);
            let entail = pruner.entailed;
            store.set_source(NO_PROP);
            match r {
                Ok(()) => {
                    if entail {
                        self.set_entailed(store, p);
                    }
                }
                Err(c) => return Err(self.fail(store, weights, p, c)),
            }
        }
    }

    /// Is a limit check due (every `check_every` calls)?
    #[inline]
    fn limit_due(&mut self, removals: u64) -> bool {
        if self.check_every == 0 {
            return false;
        }
        // Also after many removals: one call on a huge model can take long.
        if self.check_countdown == 0 || removals >= self.check_removals {
            self.check_countdown = self.check_every;
            self.check_removals = removals + REMOVALS_PER_CHECK;
            return true;
        }
        self.check_countdown -= 1;
        false
    }

    /// A wipe-out in propagator `p`: weights, and nothing left pending.
    fn fail(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        p: u32,
        c: Conflict,
    ) -> Conflict {
        for &ci in &self.owners[p as usize] {
            weights[ci as usize] += 1;
        }
        self.clear(store);
        c
    }

    /// Drops every pending event and scheduled propagator.
    pub(crate) fn clear(&mut self, store: &mut DomainStore) {
        if !store.events.is_empty() || !store.prunes.is_empty() {
            store.clear_events();
        }
        store.set_source(NO_PROP);
        for q in &mut self.queues {
            if q.is_empty() {
                continue;
            }
            for p in q.drain(..) {
                self.in_queue[p as usize] = false;
            }
        }
    }
}
