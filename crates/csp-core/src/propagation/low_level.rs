//! The low level, for propagator authors who want speed over clarity:
//! domains as 64-bit words, the values an event removed as a bit mask, and
//! what the other propagators subscribed to ([`Ready`]).
//!
//! Nothing here is needed to write a correct propagator: the [`Pruner`]'s
//! value methods (`min`, `contains`, `remove`, `retain`, ...) do everything
//! these do, one value at a time. The word-level reads and writes are
//! extension traits, so they appear only where a file imports them:
//!
//! * [`PrunerWords`]: a small domain as one word (`word`), keep the values
//!   of a mask (`retain_word`), and any range domain as words (`bits`);
//! * [`SetupWords`]: a small domain as one word while subscribing;
//! * [`EventWords`]: the values an event removed, as a mask.
//!
//! A *small* domain spans at most 64 values: bit `k` of its word stands for
//! `base + k`. The library's fused all-different and Latin-square
//! propagators are built on these.
//!
//! ```
//! use csp_core::propagation::low_level::PrunerWords;
//! use csp_core::constraint::Why;
//! use csp_core::{Conflict, Constraint, Domain, Model, Pruner, Search, Value, VarId};
//!
//! /// `x ≠ y`, pruned a word at a time.
//! #[derive(Debug)]
//! struct Differ([VarId; 2]);
//!
//! impl Constraint for Differ {
//!     fn scope(&self) -> &[VarId] { &self.0 }
//!     fn is_satisfied(&self, v: &[Value]) -> bool { v[0] != v[1] }
//!     fn forward_check(&self, p: &mut Pruner<'_>, changed: usize) -> Result<(), Conflict> {
//!         let (fixed, other) = (self.0[changed], self.0[1 - changed]);
//!         let Some(v) = p.value(fixed) else { return Ok(()) };
//!         match p.word(other) {
//!             // Small domain: clear bit `v - base` in one step.
//!             Some((_, base)) if (base..base + 64).contains(&v) => {
//!                 p.retain_word(other, !(1u64 << (v - base)), Why::Scope)?;
//!             }
//!             Some(_) => {}
//!             None => {
//!                 p.remove(other, v, Why::Scope)?;
//!             }
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let mut m = Model::new();
//! let x = m.new_var(Domain::range(1, 3)).unwrap();
//! let y = m.new_var(Domain::range(1, 3)).unwrap();
//! m.post(Differ([x, y])).unwrap();
//! assert_eq!(Search::new(&m).count().unwrap().count, 6);
//! ```

use std::fmt;

use super::{kernel, Event, Events, Pruner, Setup};
use crate::domain::Conflict;
use crate::ids::{Value, VarId};
use crate::propagation::pruner::Because;

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::propagation::Pruner<'_> {}
    impl Sealed for crate::propagation::Setup<'_> {}
    impl Sealed for crate::propagation::Event {}
}

/// Word-level reads and writes of the domains while propagating.
pub trait PrunerWords: sealed::Sealed {
    /// `x`'s domain as one machine word when it spans at most 64 values:
    /// `(bits, base)`, bit `k` standing for `base + k`. `None` for larger
    /// domains.
    fn word(&self, x: VarId) -> Option<(u64, Value)>;

    /// Keeps only the values whose bit is set in `mask` (over the `base` of
    /// [`word`](PrunerWords::word)), because of `because`; `Ok(true)` if any
    /// went. `x`'s domain must be small (`word` is `Some`).
    fn retain_word(&mut self, x: VarId, mask: u64, because: impl Because)
        -> Result<bool, Conflict>;

    /// The values of `x`'s domain in `base..base + 64·out.len()` as a bit
    /// set: bit `k % 64` of `out[k / 64]` says whether `base + k` is in it.
    /// `out` is overwritten. Whole words are copied when `x`'s domain is a
    /// bitset starting at `base` (a range domain over at most 65,536
    /// values), so a propagator over domains wider than one word can work
    /// a word at a time.
    fn bits(&self, x: VarId, base: Value, out: &mut [u64]);
}

impl PrunerWords for Pruner<'_> {
    #[inline]
    fn word(&self, x: VarId) -> Option<(u64, Value)> {
        Pruner::word(self, x)
    }
    #[inline(always)]
    fn retain_word(
        &mut self,
        x: VarId,
        mask: u64,
        because: impl Because,
    ) -> Result<bool, Conflict> {
        Pruner::retain_word(self, x, mask, because)
    }
    #[inline]
    fn bits(&self, x: VarId, base: Value, out: &mut [u64]) {
        Pruner::bits(self, x, base, out)
    }
}

/// Word-level reads of the domains while a propagator subscribes.
pub trait SetupWords: sealed::Sealed {
    /// `x`'s domain as `(bits, base)` when it spans at most 64 values
    /// (as [`PrunerWords::word`]).
    fn word(&self, x: VarId) -> Option<(u64, Value)>;
}

impl SetupWords for Setup<'_> {
    fn word(&self, x: VarId) -> Option<(u64, Value)> {
        Setup::word(self, x)
    }
}

/// The values an [`Event`] removed, as a bit mask.
pub trait EventWords: sealed::Sealed {
    /// For domains of at most 64 values: the values removed since the last
    /// notification, as a bit mask over `base..base + 64`, given the
    /// current bits `now` (from [`PrunerWords::word`]). `None` for larger
    /// domains.
    fn removed_bits(&self, now: u64) -> Option<u64>;
}

impl EventWords for Event {
    #[inline]
    fn removed_bits(&self, now: u64) -> Option<u64> {
        Event::removed_bits(self, now)
    }
}

/// What a propagator learns in [`Propagator::ready`](super::Propagator::ready): what the other
/// propagators subscribed to, so one alone on its variables may skip work.
pub struct Ready<'a> {
    pub(crate) prop: u32,
    pub(crate) start: &'a [u32],
    pub(crate) subs: &'a [kernel::Sub],
    pub(crate) plain: bool,
    pub(crate) explaining: bool,
}

impl fmt::Debug for Ready<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ready").finish_non_exhaustive()
    }
}

impl Ready<'_> {
    /// The events other propagators subscribed to on `x` (their union).
    pub fn others(&self, x: VarId) -> Events {
        let i = x.index();
        let subs = &self.subs[self.start[i] as usize..self.start[i + 1] as usize];
        Events(
            subs.iter()
                .filter(|s| s.prop != self.prop)
                .fold(0, |m, s| m | s.mask),
        )
    }

    /// Is no other propagator subscribed to any event on `x`?
    pub fn alone_on(&self, x: VarId) -> bool {
        self.others(x).0 == 0
    }

    /// True when small domains change with no bookkeeping but their bits:
    /// the store copies its words per level and no observer records
    /// removals (the fused all-different's fast passes need it).
    pub(crate) fn plain_small_updates(&self) -> bool {
        self.plain
    }

    /// Does the search record reasons (explaining mode)?
    pub(crate) fn explaining(&self) -> bool {
        self.explaining
    }
}
