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

use smallvec::SmallVec;

use super::{Event, Events, Inference, Propagator, Pruner, Ready, Setup};
use crate::domain::explained::{Cause, Failure, How};
use crate::domain::{Conflict, DomainStore};

/// One subscription: propagator `prop` wants events `mask` on a variable,
/// reported as scope position `pos`. The kernel copies in what the event
/// loop needs to know of the propagator, so that delivering an event reads
/// one record: the kinds it is notified of (the others only schedule it),
/// whether it is idempotent, and its priority.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sub {
    pub(crate) prop: u32,
    pub(crate) pos: u32,
    pub(crate) mask: u8,
    pub(crate) notify: u8,
    pub(crate) idempotent: bool,
    pub(crate) priority: u8,
}

impl Sub {
    /// A subscription as [`Setup::subscribe`] records it; [`Kernel::new`]
    /// fills in the rest.
    pub(crate) fn new(prop: u32, pos: u32, mask: u8) -> Sub {
        Sub {
            prop,
            pos,
            mask,
            notify: 0,
            idempotent: false,
            priority: 0,
        }
    }
}

/// The scheduled propagators: a FIFO ring per [`Priority`], each big enough
/// for every propagator (one is queued at most once), and a bit per
/// non-empty ring so that taking the best is one bit scan.
#[derive(Debug, Default)]
struct Queues {
    rings: [Vec<u32>; 4],
    head: [u32; 4],
    tail: [u32; 4],
    /// Ring length − 1 (a power of two minus one).
    mask: u32,
    nonempty: u8,
}

impl Queues {
    fn new(props: usize) -> Queues {
        // (`0usize.next_power_of_two()` is 1: a ring is never empty.)
        let cap = props.next_power_of_two();
        Queues {
            rings: std::array::from_fn(|_| vec![0; cap]),
            mask: cap as u32 - 1,
            ..Queues::default()
        }
    }

    #[inline]
    fn push(&mut self, priority: u8, p: u32) {
        let q = priority as usize & 3;
        let t = self.tail[q];
        self.rings[q][(t & self.mask) as usize] = p;
        self.tail[q] = t.wrapping_add(1);
        self.nonempty |= 1 << q;
    }

    /// The first propagator of the best non-empty priority.
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if self.nonempty == 0 {
            return None;
        }
        let q = self.nonempty.trailing_zeros() as usize & 3;
        let h = self.head[q];
        let p = self.rings[q][(h & self.mask) as usize];
        self.head[q] = h.wrapping_add(1);
        if self.head[q] == self.tail[q] {
            self.nonempty &= !(1 << q);
        }
        Some(p)
    }

    fn is_empty(&self) -> bool {
        self.nonempty == 0
    }
}

const NO_PROP: u32 = u32::MAX;

/// The bit of a [`Kernel::span`] start that says some subscription on the
/// variable is notified (subscription counts stay far below it).
const NOTIFIED: u32 = 1 << 31;

/// The bit of a [`Kernel::span`] start that says `seen` holds words of the
/// variable (its next delivery takes the careful loop).
const SEEN: u32 = 1 << 30;

/// Why propagation stopped before a fixpoint: a conflict (the domains have
/// no solution: backtrack), or a limit (time, cancel, memory: the search
/// stops, nothing is refuted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A domain was wiped out or a propagator failed.
    Conflict,
    /// A limit was reached inside propagation.
    Limit,
}

impl From<Conflict> for Stop {
    fn from(_: Conflict) -> Stop {
        Stop::Conflict
    }
}

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
    /// Per propagator: its [`Priority`](super::Priority), the ring it waits on.
    priority: Vec<u8>,
    /// Per variable: its subscriptions `subs[a..b]` as `(a, b)`, with
    /// [`NOTIFIED`] set in `a` when one of them asks for `notify` (else its
    /// events only schedule, and the word before is never read) and
    /// [`SEEN`] while `seen` holds words of it. One load per event for all.
    span: Vec<(u32, u32)>,
    subs: Vec<Sub>,
    queues: Queues,
    in_queue: Vec<bool>,
    /// First state word of the entailment bits (a bit per propagator).
    entailed_at: usize,
    /// Has any propagator declared itself entailed in this search? (Until
    /// one does, the bits need not be read.)
    any_entailed: bool,
    /// Per variable: its only subscriber and position, when a decision on
    /// it can be delivered directly (see [`Kernel::direct`]).
    direct: Vec<(u32, u32)>,
    /// Events attributed per subscriber: when a notify changes the variable
    /// being delivered, `x` goes back on the event list with its word
    /// before that change, which is what the subscribers told before it
    /// have seen; each one told after it has seen the word it was told
    /// with, kept here as `(variable, subscription, word)` until `x` is
    /// delivered again. (Else an incremental sum told after a notify that
    /// pruned would count that pruning twice.)
    seen: Vec<(u32, u32, u64)>,
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
        let idempotent: Vec<bool> = props.iter().map(|p| p.is_idempotent()).collect();
        let priority: Vec<u8> = props.iter().map(|p| p.priority() as u8).collect();
        // The kinds `notify` is called for (the others only schedule).
        let notify: Vec<u8> = props
            .iter()
            .map(|p| if p.wants_notify() { p.notify_on().0 } else { 0 })
            .collect();
        // Subscription indices leave the two top bits of a span free
        // (a billion subscriptions would need tens of GiB first).
        assert!(pairs.len() < SEEN as usize, "more than 2^30 subscriptions");
        let mut subs = vec![Sub::new(0, 0, 0); pairs.len()];
        for &(v, s) in &pairs {
            let p = s.prop as usize;
            subs[fill[v as usize] as usize] = Sub {
                notify: notify[p],
                idempotent: idempotent[p],
                priority: priority[p],
                ..s
            };
            fill[v as usize] += 1;
        }
        let plain = store.plain_small_updates();
        for (p, prop) in props.iter_mut().enumerate() {
            prop.ready(&Ready {
                prop: p as u32,
                start: &start,
                subs: &subs,
                plain,
                explaining: store.explaining,
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
        let span = start
            .windows(2)
            .map(|w| {
                let notified = subs[w[0] as usize..w[1] as usize]
                    .iter()
                    .any(|s| s.notify != 0);
                (w[0] | if notified { NOTIFIED } else { 0 }, w[1])
            })
            .collect();
        Kernel {
            priority,
            props,
            owners,
            span,
            subs,
            queues: Queues::new(np),
            in_queue: vec![false; np],
            entailed_at,
            any_entailed: false,
            direct,
            seen: Vec::new(),
            propagations: 0,
            check_every: 0,
            check_countdown: 0,
            check_removals: 0,
        }
    }

    /// The model's constraints propagator `p` enforces.
    pub(crate) fn owners(&self, p: u32) -> &[u32] {
        &self.owners[p as usize]
    }

    /// Propagator `p` (to expand its lazy reasons).
    pub(crate) fn propagator_mut(&mut self, p: u32) -> &mut (dyn Propagator + 'a) {
        &mut *self.props[p as usize]
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
            self.enqueue(p, self.priority[p as usize]);
        }
    }

    /// Queues `p`, not queued yet, on the ring of `priority` (its own).
    #[inline]
    fn enqueue(&mut self, p: u32, priority: u8) {
        self.in_queue[p as usize] = true;
        self.queues.push(priority, p);
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
    ) -> Result<(), Stop> {
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
        if store.events.is_empty() && self.queues.is_empty() {
            return Ok(());
        }
        self.propagate(store, weights, limit)
    }

    /// Runs the loop to a fixpoint (see the module documentation).
    /// `limit` is asked every [`check_every`](Self::check_every) calls
    /// whether a limit was reached; then the loop stops with
    /// [`Stop::Limit`], which refutes nothing.
    pub(crate) fn propagate(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        limit: &mut dyn FnMut(&DomainStore) -> bool,
    ) -> Result<(), Stop> {
        if store.explaining {
            store.ex.failure = None;
        }
        loop {
            while let Some((x, kinds, old, src)) = store.pop_event() {
                let (a, b) = self.span[x as usize];
                if a & SEEN != 0 {
                    // Some subscriber saw `x` change in its last delivery
                    // (see `seen`): the careful loop, out of line.
                    let a = a & !(NOTIFIED | SEEN);
                    self.deliver_tracked(store, weights, limit, (x, kinds, old, src), a, false)?;
                    continue;
                }
                let (a, notified) = (a & !NOTIFIED, a & NOTIFIED != 0);
                // The word before the change, for one-word domains, read
                // once per event where some subscriber is notified (the
                // others only schedule).
                let (small, before) = if notified {
                    let small = store.is_small(x as usize);
                    (small, small.then(|| (old, store.small_bits(x as usize).1)))
                } else {
                    (false, None)
                };
                for k in a..b {
                    let s = self.subs[k as usize];
                    if !self.notifies(store, s, kinds, src) {
                        continue;
                    }
                    self.notify_one(store, weights, limit, s, kinds, before, src)?;
                    // A notify that changed `x` itself (a new event pending
                    // on it, since this one was taken): the subscribers
                    // after it are told out of line.
                    if small && store.has_pending(x as usize) {
                        self.deliver_tracked(
                            store,
                            weights,
                            limit,
                            (x, kinds, old, src),
                            k + 1,
                            true,
                        )?;
                        break;
                    }
                }
            }
            let Some(p) = self.queues.pop() else {
                return Ok(());
            };
            self.in_queue[p as usize] = false;
            if self.is_entailed(store, p) {
                continue;
            }
            self.propagations += 1;
            if self.limit_due(store.removals) && limit(store) {
                self.clear(store);
                return Err(Stop::Limit);
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

    /// A wipe-out in propagator `p`: weights (when the search keeps them:
    /// `weights` is empty otherwise), the failure's explanation when
    /// explaining (the fallback when `p` recorded none), and nothing left
    /// pending.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, store: &mut DomainStore, weights: &mut [u32], p: u32, c: Conflict) -> Stop {
        let _ = c;
        if store.explaining && store.ex.failure.is_none_or(|f| f.prop != p) {
            store.ex.failure = Some(Failure {
                prop: p,
                var: None,
                cause: Cause::Propagated {
                    prop: p,
                    how: How::Scope,
                },
            });
        }
        if !weights.is_empty() {
            for &ci in &self.owners[p as usize] {
                weights[ci as usize] += 1;
            }
        }
        self.clear(store);
        Stop::Conflict
    }

    /// Should subscription `s` be notified of an event of `kinds` from
    /// `src`? Not when it did not subscribe to them, nor when its
    /// propagator is entailed; an event it subscribed to but is not
    /// notified of only schedules it (the common case under arc
    /// consistency), unless it is queued, idempotent and the event's
    /// source, or entailed. (A branch-free form measured slower: 17.5 ms
    /// against 16.9 ms for Sudoku top95.)
    #[inline(always)]
    fn notifies(&mut self, store: &DomainStore, s: Sub, kinds: u8, src: u32) -> bool {
        if s.mask & kinds == 0 {
            return false;
        }
        if s.notify & kinds == 0 {
            let skip = self.in_queue[s.prop as usize]
                || (src == s.prop && s.idempotent)
                || self.is_entailed(store, s.prop);
            if !skip {
                self.enqueue(s.prop, s.priority);
            }
            return false;
        }
        !self.is_entailed(store, s.prop)
    }

    /// Calls the `notify` of subscription `s` with the event (`kinds`,
    /// `before`), then entails or schedules its propagator.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn notify_one(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        limit: &mut dyn FnMut(&DomainStore) -> bool,
        s: Sub,
        kinds: u8,
        before: Option<(u64, crate::Value)>,
        src: u32,
    ) -> Result<(), Stop> {
        self.propagations += 1;
        if self.limit_due(store.removals) && limit(store) {
            self.clear(store);
            return Err(Stop::Limit);
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
                } else if schedule && !(src == s.prop && s.idempotent) {
                    self.schedule(s.prop);
                }
                Ok(())
            }
            Err(c) => Err(self.fail(store, weights, s.prop, c)),
        }
    }

    /// Delivers the event `(x, kinds, old, src)` to the subscriptions of `x`
    /// from `from` on, attributing what each saw: a subscriber told in a
    /// delivery where a notify had changed `x` keeps the word it was told
    /// with (`seen`), and gets it as `before` the next time; `changed` says
    /// that a notify of this delivery changed `x` already.
    #[cold]
    #[inline(never)]
    fn deliver_tracked(
        &mut self,
        store: &mut DomainStore,
        weights: &mut [u32],
        limit: &mut dyn FnMut(&DomainStore) -> bool,
        (x, kinds, old, src): (u32, u8, u64, u32),
        from: u32,
        mut changed: bool,
    ) -> Result<(), Stop> {
        let prior = self.take_seen(x);
        let b = self.span[x as usize].1;
        let small = store.is_small(x as usize);
        for k in from..b {
            let s = self.subs[k as usize];
            if !self.notifies(store, s, kinds, src) {
                continue;
            }
            let (word, base) = store.small_bits(x as usize);
            let seen = prior.iter().find(|&&(j, _)| j == k).map(|&(_, w)| w);
            let before = small.then(|| (seen.unwrap_or(old), base));
            self.notify_one(store, weights, limit, s, kinds, before, src)?;
            if small {
                if changed {
                    self.seen.push((x, k, word));
                    self.span[x as usize].0 |= SEEN;
                } else if store.has_pending(x as usize) {
                    changed = true;
                }
            }
        }
        Ok(())
    }

    /// The words the subscribers of `x` saw in its last delivery (see
    /// `seen`), by subscription, taken out of `seen`.
    #[cold]
    fn take_seen(&mut self, x: u32) -> SmallVec<[(u32, u64); 4]> {
        self.span[x as usize].0 &= !SEEN;
        let mut out = SmallVec::new();
        self.seen.retain(|&(v, k, w)| {
            if v == x {
                out.push((k, w));
            }
            v != x
        });
        out
    }

    /// Drops every pending event and scheduled propagator.
    pub(crate) fn clear(&mut self, store: &mut DomainStore) {
        for &(x, _, _) in &self.seen {
            self.span[x as usize].0 &= !SEEN;
        }
        self.seen.clear();
        if !store.events.is_empty() || !store.prunes.is_empty() {
            store.clear_events();
        }
        store.set_source(NO_PROP);
        while let Some(p) = self.queues.pop() {
            self.in_queue[p as usize] = false;
        }
    }
}
