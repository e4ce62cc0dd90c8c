//! Typed handles: [`VarId`], [`ConstraintId`] and the [`Value`] type.

use std::fmt;

/// The value type of every variable: a 32-bit signed integer.
pub type Value = i32;

/// A handle to a variable of a [`Model`](crate::Model).
///
/// Handles are plain `u32` indices, cheap to copy; a handle is only meaningful
/// for the model that created it (posting it into another model gives a
/// [`ModelError::ForeignVar`](crate::ModelError::ForeignVar) when it is out of range).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The variable's index in its model (`0..model.num_vars()`).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The handle of the variable with index `index`.
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

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// A handle to a constraint posted in a [`Model`](crate::Model).
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
