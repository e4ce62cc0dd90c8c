//! Finite domains: the declared [`Domain`] of a variable, and (crate
//! private) the search-time domain store.
//!
//! A declared [`Domain`] is either a range `lo..=hi` (two integers, whatever
//! its size, up to the whole `i32` range) or a sorted set of values. Models
//! share identical declared domains, so ten million variables over
//! `0..10_000_000` cost one domain, not ten million.
//!
//! The store (`store.rs`) holds every variable's current domain during
//! search, propagators' reversible state and the trail; `large.rs` the
//! representations of domains over more than 64 values; `words.rs` the
//! word-level primitives for propagators that write many one-word domains
//! in one pass (the fused all-different, the all-different window), whose
//! passes live with their constraints. Each file
//! opens with its representation, invariants and complexity.

pub(crate) mod explained;
mod large;
mod levels;
pub(crate) mod store;
#[cfg(test)]
mod tests;
pub(crate) mod words;

pub(crate) use store::DomainStore;

use std::fmt;
use std::sync::Arc;

use crate::ids::Value;

/// The declared domain of a variable: a finite, non-empty set of [`Value`]s.
///
/// ```
/// use csp_core::Domain;
/// let d = Domain::range(1, 9);
/// assert_eq!(d.size(), 9);
/// let s = Domain::values([5, 1, 3, 3]);
/// assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 3, 5]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Domain {
    repr: Repr,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Range(Value, Value),
    Set(Arc<[Value]>),
}

impl Domain {
    /// All values from `lo` to `hi`, both included. Empty when `lo > hi`
    /// (posting an empty domain is a [`ModelError`](crate::ModelError)).
    pub fn range(lo: Value, hi: Value) -> Domain {
        Domain {
            repr: Repr::Range(lo, hi),
        }
    }

    /// The given values (duplicates are ignored, order does not matter).
    pub fn values(values: impl IntoIterator<Item = Value>) -> Domain {
        let mut v: Vec<Value> = values.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        if let (Some(&lo), Some(&hi)) = (v.first(), v.last()) {
            if (hi as i64 - lo as i64 + 1) as usize == v.len() {
                return Domain::range(lo, hi);
            }
        }
        Domain {
            repr: Repr::Set(v.into()),
        }
    }

    /// The single value `v`.
    pub fn singleton(v: Value) -> Domain {
        Domain::range(v, v)
    }

    /// Number of values.
    pub fn size(&self) -> u64 {
        match &self.repr {
            Repr::Range(lo, hi) => {
                if lo > hi {
                    0
                } else {
                    (*hi as i64 - *lo as i64 + 1) as u64
                }
            }
            Repr::Set(v) => v.len() as u64,
        }
    }

    /// True when the domain has no value.
    pub fn is_empty(&self) -> bool {
        self.size() == 0
    }

    /// Smallest value, if any.
    pub fn min(&self) -> Option<Value> {
        match &self.repr {
            Repr::Range(lo, hi) => (lo <= hi).then_some(*lo),
            Repr::Set(v) => v.first().copied(),
        }
    }

    /// Largest value, if any.
    pub fn max(&self) -> Option<Value> {
        match &self.repr {
            Repr::Range(lo, hi) => (lo <= hi).then_some(*hi),
            Repr::Set(v) => v.last().copied(),
        }
    }

    /// True when `v` belongs to the domain.
    pub fn contains(&self, v: Value) -> bool {
        match &self.repr {
            Repr::Range(lo, hi) => *lo <= v && v <= *hi,
            Repr::Set(s) => s.binary_search(&v).is_ok(),
        }
    }

    /// The values in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        let (range, set) = match &self.repr {
            Repr::Range(lo, hi) => (Some(*lo..=*hi), None),
            Repr::Set(s) => (None, Some(s.iter().copied())),
        };
        range.into_iter().flatten().chain(set.into_iter().flatten())
    }

    /// The sorted values of a set domain (`None` for a range).
    pub(crate) fn as_list(&self) -> Option<&Arc<[Value]>> {
        match &self.repr {
            Repr::Range(..) => None,
            Repr::Set(s) => Some(s),
        }
    }

    /// True when the domain is a plain range (no holes).
    pub fn is_range(&self) -> bool {
        matches!(self.repr, Repr::Range(..))
    }

    /// The values in both `self` and `other` (possibly empty). O(1) for two
    /// ranges, else linear in the smaller set's size (times log n).
    ///
    /// ```
    /// use csp_core::Domain;
    /// let d = Domain::range(i32::MIN, i32::MAX).intersect(&Domain::values([3, 9, 12]));
    /// assert_eq!(d.iter().collect::<Vec<_>>(), vec![3, 9, 12]);
    /// assert_eq!(Domain::range(1, 5).intersect(&Domain::range(4, 9)), Domain::range(4, 5));
    /// assert!(Domain::range(1, 3).intersect(&Domain::range(5, 9)).is_empty());
    /// ```
    pub fn intersect(&self, other: &Domain) -> Domain {
        match (&self.repr, &other.repr) {
            (Repr::Range(a, b), Repr::Range(c, d)) => Domain::range(*a.max(c), *b.min(d)),
            (Repr::Range(..), Repr::Set(s)) => {
                Domain::values(s.iter().copied().filter(|&v| self.contains(v)))
            }
            (Repr::Set(s), _) => Domain::values(s.iter().copied().filter(|&v| other.contains(v))),
        }
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Range(lo, hi) => write!(f, "{lo}..={hi}"),
            Repr::Set(s) => f.debug_set().entries(s.iter()).finish(),
        }
    }
}

/// A domain wipe-out: some variable has no value left. It travels with `?`
/// out of propagation and makes the search backtrack; it is not an error of
/// the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict;
