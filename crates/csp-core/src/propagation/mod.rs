//! Propagation: the [`Propagator`] trait, events, priorities, reversible
//! state and reasons — the kernel every constraint runs on.
//!
//! # The theory in five lines
//! A propagator removes values that cannot be part of a solution of its
//! constraint, given the current domains. The kernel keeps a queue of
//! propagators to run; a domain change is an *event* (the variable became
//! fixed, a bound moved, any value went), and each propagator *subscribes*
//! per variable to the kinds it cares about. Running the queue until it is
//! empty reaches a *fixpoint*: no propagator can remove anything more.
//! Search then decides (fixes a variable), propagates, and backtracks on a
//! wipe-out ([`Conflict`]).
//!
//! # How events reach a propagator
//! When a subscribed event happens, the kernel calls
//! [`Propagator::notify`] with the scope position and the [`Event`]. It may
//! prune right there (forward checking removes a fixed value from the peers)
//! and returns whether its [`propagate`](Propagator::propagate) should be
//! scheduled. Scheduled propagators run by [`Priority`], cheapest first, each
//! at most once per scheduling. A propagator that declares itself
//! [idempotent](Propagator::is_idempotent) is not woken by its own changes.
//!
//! # How to write a stateful propagator
//! 1. Write the constraint's checker first ([`Constraint`](crate::Constraint):
//!    `scope` and `is_satisfied`). The kernel checks every solution with it,
//!    so a propagator that prunes too little is caught, never trusted.
//! 2. Implement [`Propagator`]: in [`setup`](Propagator::setup), subscribe to
//!    the events you need ([`Setup::subscribe`]) and allocate reversible
//!    state ([`Setup::new_int`], [`Setup::new_words`]); keep the handles in
//!    your struct. Plain fields are fine for data that stays valid when
//!    domains grow back on backtrack (a cached matching, say).
//! 3. In [`propagate`](Propagator::propagate) (and optionally
//!    [`notify`](Propagator::notify)), read domains and prune through the
//!    [`Pruner`]; return `Err(Conflict)` (or let `?` do it) on a wipe-out.
//!    Read and write state with [`Pruner::get`] / [`Pruner::set`]: the kernel
//!    restores it on backtrack. Call [`Pruner::entail`] when the constraint
//!    can no longer be violated below this node.
//! 4. Return it from [`Constraint::propagator`](crate::Constraint::propagator).
//! 5. Test it with [`testing::check_constraint`](crate::testing::check_constraint)
//!    at every inference level, and with the events check of the same harness (which
//!    fails when a propagator misses an event it needed).
//!
//! `docs/writing-a-constraint.md` walks through a complete example, an
//! incremental `Σ xᵢ ≤ c` with a trailed partial sum.
//!
//! # Contract
//! * **Sound**: never remove a value that belongs to a solution of the
//!   constraint (given the other domains).
//! * **Checks fixed scopes**: when every scope variable is fixed, fail if
//!   the constraint is violated. With forward checking, also: when all but
//!   one are fixed, the last keeps only values the checker accepts.
//! * Prune only through the [`Pruner`]; never keep a reference to domains.

use std::fmt;

use crate::domain::store::{EV_BOUNDS, EV_DOMAIN, EV_FIXED};
use crate::domain::{Conflict, DomainStore};
use crate::ids::{Value, VarId};

pub(crate) mod kernel;
pub mod low_level;
pub(crate) mod pruner;

pub use crate::domain::explained::History;
pub use crate::literal::Literal;
pub use low_level::Ready;
pub(crate) use pruner::DomainReads;
pub use pruner::{Because, DomainValues, Premises, Pruner, Why};

/// How much propagation runs after each decision.
///
/// The levels are ordered `None < ForwardChecking < Mac` (see
/// [`Model::cap_inference`](crate::Model::cap_inference)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Inference {
    /// Check each constraint once all its variables are fixed; prune nothing.
    /// The variables that expressions introduce (the auxiliary of `x * y`,
    /// say) are the exception: without decision variables, the search
    /// branches on the others first, and the constraints defining the
    /// auxiliaries are forward checked, so each is computed once its
    /// arguments are fixed rather than tried value by value.
    None,
    /// Forward checking (the default): whenever a variable becomes fixed, each
    /// of its constraints prunes the other variables (see
    /// [`Constraint::forward_check`](crate::Constraint::forward_check)).
    #[default]
    ForwardChecking,
    /// Maintained arc consistency: every domain change re-runs the constraints
    /// on that variable (AC-3 style, a queue of constraints) to a fixpoint.
    Mac,
}

/// A stateful propagator: the search-time side of a constraint.
///
/// One is created per search (per thread in a parallel search) by
/// [`Constraint::propagator`](crate::Constraint::propagator); it may borrow
/// from its constraint. Only [`setup`](Propagator::setup) and
/// [`propagate`](Propagator::propagate) are required.
pub trait Propagator: fmt::Debug {
    /// Subscribes to events and allocates reversible state. Called once, at
    /// the root, before any propagation; domains may be read, not changed.
    fn setup(&mut self, setup: &mut Setup<'_>);

    /// Prunes (the coarse call): runs when the propagator was scheduled by
    /// an event (see [`notify`](Propagator::notify)) and once at the root.
    fn propagate(&mut self, pruner: &mut Pruner<'_>) -> Result<(), Conflict>;

    /// Called for each subscribed event, with the scope position given at
    /// subscription. May prune at once (fine-grained propagation). Returns
    /// whether [`propagate`](Propagator::propagate) should be scheduled.
    /// The default schedules it.
    fn notify(
        &mut self,
        pruner: &mut Pruner<'_>,
        pos: usize,
        event: Event,
    ) -> Result<bool, Conflict> {
        let _ = (pruner, pos, event);
        Ok(true)
    }

    /// Does [`notify`](Propagator::notify) do more than schedule? Return
    /// `false` (asked once, after [`setup`](Propagator::setup)) to let the
    /// kernel schedule the propagator on each event without calling it.
    /// Default `true`.
    fn wants_notify(&self) -> bool {
        true
    }

    /// The event kinds for which [`notify`](Propagator::notify) is called
    /// (asked once, after [`setup`](Propagator::setup)); an event with none
    /// of them only schedules [`propagate`](Propagator::propagate), as if
    /// `notify` had returned `Ok(true)`. Default: every kind. The bounds
    /// all-different, which subscribes to bounds for its Hall intervals but
    /// acts in `notify` only on fixed variables, returns [`Events::FIXED`].
    fn notify_on(&self) -> Events {
        Events::FIXED | Events::BOUNDS | Events::DOMAIN
    }

    /// Called once after every propagator's [`setup`](Propagator::setup),
    /// with what the others subscribed to (a propagator alone on its
    /// variables may skip work). Default: nothing.
    fn ready(&mut self, ready: &Ready<'_>) {
        let _ = ready;
    }

    /// When to run among the scheduled propagators (default `Linear`).
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// True when one [`propagate`](Propagator::propagate) call always
    /// reaches the propagator's own fixpoint: its own changes then do not
    /// schedule it again. Default `false` (always correct).
    fn is_idempotent(&self) -> bool {
        false
    }

    /// A short name for traces and errors.
    fn name(&self) -> &str {
        "propagator"
    }

    /// Expands a lazy reason ([`Why::Lazy`]`(code)`) given for `lit`: pushes
    /// onto `out` literals that held at `history` (just before `lit` was
    /// recorded) and, with the constraint, imply `lit`. Returns `false`
    /// when the propagator gives no lazy reasons (the default): the
    /// kernel then uses the scope fallback ([`Why::Scope`]).
    fn explain(
        &mut self,
        code: u64,
        lit: Literal,
        history: &History<'_>,
        out: &mut Vec<Literal>,
    ) -> bool {
        let _ = (code, lit, history, out);
        false
    }
}

/// Kinds of domain events, as a set (combine with `|`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Events(pub(crate) u8);

impl Events {
    /// No event.
    pub const NONE: Events = Events(0);
    /// The variable became fixed (one value left).
    pub const FIXED: Events = Events(EV_FIXED);
    /// The minimum or the maximum changed (includes becoming fixed).
    pub const BOUNDS: Events = Events(EV_BOUNDS);
    /// Any value was removed (includes the other two).
    pub const DOMAIN: Events = Events(EV_DOMAIN);

    /// Does this set share a kind with `other`?
    pub fn intersects(self, other: Events) -> bool {
        self.0 & other.0 != 0
    }
    /// Does this set hold every kind of `other`?
    pub fn contains(self, other: Events) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Events {
    type Output = Events;
    fn bitor(self, o: Events) -> Events {
        Events(self.0 | o.0)
    }
}

impl fmt::Debug for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = [
            (EV_FIXED, "fixed"),
            (EV_BOUNDS, "bounds"),
            (EV_DOMAIN, "domain"),
        ]
        .iter()
        .filter(|(b, _)| self.0 & b != 0)
        .map(|&(_, n)| n)
        .collect();
        write!(f, "Events({})", names.join("|"))
    }
}

/// What happened to one variable since the propagator was last told.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub(crate) kinds: Events,
    /// For a one-word domain: its bits before the change and bit 0's value.
    pub(crate) before: Option<(u64, Value)>,
}

impl Event {
    /// The kinds of change (several changes since the last notification are
    /// reported together).
    pub fn kinds(&self) -> Events {
        self.kinds
    }

    /// Did the variable become fixed?
    pub fn is_fixed(&self) -> bool {
        self.kinds.intersects(Events::FIXED)
    }

    /// See [`EventWords::removed_bits`](low_level::EventWords::removed_bits).
    #[inline]
    pub(crate) fn removed_bits(&self, now: u64) -> Option<u64> {
        self.before.map(|(old, _)| old & !now)
    }
}

/// The order in which scheduled propagators run: cheaper first (Gecode's
/// propagation cost classes, shortened).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Priority {
    /// Unary and binary constraints: O(1) or O(d) per call.
    Cheap = 0,
    /// Linear in the arity: sums, counts, element.
    #[default]
    Linear = 1,
    /// Quadratic or matching-based globals.
    Quadratic = 2,
    /// Anything dearer (table support search, generic arc consistency).
    Expensive = 3,
}

/// A reversible integer owned by a propagator (see [`Setup::new_int`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInt(pub(crate) usize);

/// A block of reversible 64-bit words (see [`Setup::new_words`]): a
/// reversible bitset, for example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateWords {
    pub(crate) first: usize,
    pub(crate) len: usize,
}

impl StateWords {
    /// Number of words.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when the block has no word.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What a propagator's [`setup`](Propagator::setup) can do: subscribe,
/// allocate state, read the root domains.
pub struct Setup<'a> {
    pub(crate) store: &'a mut DomainStore,
    pub(crate) subs: &'a mut Vec<(u32, kernel::Sub)>,
    pub(crate) prop: u32,
    pub(crate) inference: Inference,
}

impl fmt::Debug for Setup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setup")
            .field("inference", &self.inference)
            .finish_non_exhaustive()
    }
}

impl Setup<'_> {
    /// Asks to be notified of `events` on `x`, with `pos` passed back to
    /// [`Propagator::notify`] (usually `x`'s position in the scope).
    pub fn subscribe(&mut self, x: VarId, pos: usize, events: Events) {
        if events.0 == 0 {
            return;
        }
        self.store.subscribe(x.index(), events.0);
        self.subs.push((
            x.index() as u32,
            kernel::Sub::new(self.prop, pos as u32, events.0),
        ));
    }

    /// A reversible integer starting at `value`.
    pub fn new_int(&mut self, value: i64) -> StateInt {
        StateInt(self.store.add_word(value as u64))
    }

    /// `len` reversible words, each starting at `value`.
    pub fn new_words(&mut self, len: usize, value: u64) -> StateWords {
        let first = self.store.len_state();
        for _ in 0..len {
            self.store.add_word(value);
        }
        StateWords { first, len }
    }

    /// Sets word `k` of a block at the root (its starting value).
    pub fn set_word(&mut self, s: StateWords, k: usize, value: u64) {
        assert!(k < s.len, "word {k} of a block of {}", s.len);
        self.store.set_word(s.first + k, value);
    }

    /// The inference level of the search: propagators may do less under
    /// forward checking (see [`Inference`]).
    pub fn inference(&self) -> Inference {
        self.inference
    }

    /// Number of values left in `x`'s domain at the root.
    pub fn size(&self, x: VarId) -> u64 {
        self.store.size(x.index())
    }

    /// Smallest value of `x` at the root.
    pub fn min(&self, x: VarId) -> Value {
        self.store.min(x.index())
    }

    /// Largest value of `x` at the root.
    pub fn max(&self, x: VarId) -> Value {
        self.store.max(x.index())
    }

    /// See [`SetupWords::word`](low_level::SetupWords::word).
    pub(crate) fn word(&self, x: VarId) -> Option<(u64, Value)> {
        let i = x.index();
        self.store.is_small(i).then(|| self.store.small_bits(i))
    }
}
