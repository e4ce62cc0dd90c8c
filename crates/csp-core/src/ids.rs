//! Typed handles: [`VarId`], [`ConstraintId`] and the [`Value`] type.

use std::fmt;

/// The value type of every variable: a 32-bit signed integer.
pub type Value = i32;

/// A handle to a variable of a [`Model`](crate::Model).
///
/// A handle is the variable's index and the id of the model that created
/// it: eight bytes, cheap to copy. Equality, ordering and hashing look at
/// the index only. Posting a handle into another model, or passing it to
/// another model's search, is an error
/// ([`ModelError::ForeignVar`](crate::ModelError::ForeignVar),
/// [`SearchError::ForeignVar`](crate::SearchError::ForeignVar)), also when
/// that model happens to have a variable with the same index. Handles made
/// with [`VarId::from_index`] belong to no model in particular and are
/// checked by their index only.
///
/// ```
/// use csp_core::{Domain, Model, ModelError};
/// let mut a = Model::new();
/// let mut b = Model::new();
/// let x = a.new_var(Domain::range(0, 3)).unwrap();
/// let y = b.new_var(Domain::range(0, 3)).unwrap();
/// assert_eq!(x.index(), y.index()); // both are variable 0 ...
/// let e = b.not_equal(x, y, 0).unwrap_err(); // ... but `x` is `a`'s
/// assert!(matches!(e, ModelError::ForeignVar { .. }));
/// ```
#[derive(Clone, Copy)]
pub struct VarId {
    index: u32,
    /// The id of the model that created the handle; 0 for a handle of no
    /// model in particular ([`VarId::from_index`], the engine's own).
    model: u32,
}

/// The untagged handle of variable `index`: the engine's internal
/// constructor, spelled like the tuple struct `VarId` was so that kernel
/// code building handles from raw indices stays as it is.
#[allow(non_snake_case)]
#[inline]
pub(crate) const fn VarId(index: u32) -> VarId {
    VarId { index, model: 0 }
}

impl PartialEq for VarId {
    #[inline]
    fn eq(&self, other: &VarId) -> bool {
        self.index == other.index
    }
}

impl Eq for VarId {}

impl PartialOrd for VarId {
    #[inline]
    fn partial_cmp(&self, other: &VarId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VarId {
    #[inline]
    fn cmp(&self, other: &VarId) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}

impl std::hash::Hash for VarId {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl VarId {
    /// The variable's index in its model (`0..model.num_vars()`).
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The handle of variable `index` of model `model` (a [`ModelId`]).
    #[inline]
    pub(crate) const fn tagged(index: u32, model: ModelId) -> VarId {
        VarId {
            index,
            model: model.0,
        }
    }

    /// The model that created this handle, `None` for a handle made from
    /// an index ([`VarId::from_index`]).
    #[inline]
    pub fn model(self) -> Option<ModelId> {
        (self.model != 0).then_some(ModelId(self.model))
    }

    /// Can this handle stand for variable `self.index()` of the model
    /// `id`: made by it, or by no model in particular?
    #[inline]
    pub(crate) fn belongs_to(self, id: ModelId) -> bool {
        self.model == 0 || self.model == id.0
    }

    /// The handle of the variable with index `index`, of no model in
    /// particular (any model with that many variables accepts it).
    ///
    /// Mostly useful for tests and serialisation; posting a handle that its
    /// model does not have is reported as a [`ModelError`](crate::ModelError).
    ///
    /// # Panics
    /// When `index` does not fit the `u32` a handle holds (no model has that
    /// many variables); [`try_from_index`](VarId::try_from_index) returns
    /// `None` instead.
    #[inline]
    pub fn from_index(index: usize) -> VarId {
        match VarId::try_from_index(index) {
            Some(x) => x,
            None => panic!("variable index {index} does not fit a VarId (at most 2^32 - 1)"),
        }
    }

    /// The handle of the variable with index `index`, or `None` when the
    /// index does not fit a `u32`.
    #[inline]
    pub fn try_from_index(index: usize) -> Option<VarId> {
        u32::try_from(index)
            .ok()
            .filter(|&i| i != u32::MAX)
            .map(VarId)
    }
}

/// The identity of a [`Model`](crate::Model), stamped into the handles it
/// creates so that a handle of another model is caught (see [`VarId`]).
/// Every model made in one process gets a different id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelId(u32);

impl ModelId {
    /// A fresh id, never 0 (wraps after 2^32 − 1 models in one process,
    /// after which a clash is possible but harmless: the index check
    /// still applies).
    pub(crate) fn fresh() -> ModelId {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(1);
        loop {
            let id = NEXT.fetch_add(1, Ordering::Relaxed);
            if id != 0 {
                return ModelId(id);
            }
        }
    }
}

impl fmt::Display for ModelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model #{}", self.0)
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.index)
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.index)
    }
}

/// A handle to a constraint posted in a [`Model`](crate::Model).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ConstraintId(pub(crate) u32);

impl ConstraintId {
    /// The constraint's index in its model (`0..model.num_constraints()`).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}
