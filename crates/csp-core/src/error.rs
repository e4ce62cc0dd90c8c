//! Errors raised while building a model.

use std::fmt;

/// A mistake in building a [`Model`](crate::Model): the model is left as it
/// was before the failing call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable was declared with no value.
    EmptyDomain {
        /// The variable's name, if it was given one.
        name: Option<String>,
    },
    /// A domain with more values than supported (no longer produced: every
    /// `i32` range, up to 2^32 values, is supported).
    DomainTooLarge {
        /// Its size.
        size: u64,
    },
    /// A `VarId` that this model did not create: its index is past the
    /// model's variables, or another model created it.
    ForeignVar {
        /// The constraint being posted.
        constraint: &'static str,
        /// The offending index.
        index: usize,
        /// How many variables the model has.
        num_vars: usize,
    },
    /// A `ConstraintId` that this model did not create.
    ForeignConstraint {
        /// The offending index.
        index: usize,
        /// How many constraints the model has.
        num_constraints: usize,
    },
    /// Two lists that must have the same length do not.
    LengthMismatch {
        /// The constraint being posted.
        constraint: &'static str,
        /// What was being compared.
        what: &'static str,
        /// The expected length.
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// The extreme values of a linear sum do not fit in 64 bits.
    Overflow {
        /// The constraint being posted.
        constraint: &'static str,
    },
    /// More variables than a model can hold (at most 2^32 − 1).
    TooManyVariables {
        /// How many the model would have.
        requested: u128,
    },
    /// Memory for the request could not be reserved.
    OutOfMemory {
        /// What was being built.
        what: &'static str,
        /// The size asked for, in bytes.
        bytes: u128,
    },
    /// A constraint over no variables where one is needed: a sum
    /// without terms.
    EmptyScope {
        /// The constraint being posted.
        constraint: &'static str,
        /// What is empty.
        what: &'static str,
    },
    /// Any other invalid argument, described.
    Invalid {
        /// The constraint being posted.
        constraint: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// [`Model::to_minizinc`](crate::Model::to_minizinc) cannot write a
    /// constraint.
    NoMiniZinc {
        /// The constraint's index in the model.
        constraint: usize,
        /// Its kind ([`Constraint::name`](crate::Constraint::name)).
        name: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::EmptyDomain { name: Some(n) } => {
                write!(f, "variable `{n}` has an empty domain")
            }
            ModelError::EmptyDomain { name: None } => write!(f, "a variable has an empty domain"),
            ModelError::ForeignConstraint {
                index,
                num_constraints,
            } => write!(
                f,
                "constraint {index} does not belong to this model ({num_constraints} constraints)"
            ),
            ModelError::TooManyVariables { requested } => write!(
                f,
                "a model of {requested} variables is over the limit of 2^32 - 1"
            ),
            ModelError::OutOfMemory { what, bytes } => {
                write!(f, "could not reserve {bytes} bytes for {what}")
            }
            ModelError::DomainTooLarge { size } => {
                write!(f, "a domain of {size} values is larger than the 2^32 - 1 supported")
            }
            ModelError::ForeignVar {
                constraint,
                index,
                num_vars,
            } if index >= num_vars => write!(
                f,
                "{constraint}: variable v{index} does not belong to this model (it has {num_vars} variables)"
            ),
            ModelError::ForeignVar {
                constraint, index, ..
            } => write!(
                f,
                "{constraint}: variable v{index} was created by another model"
            ),
            ModelError::EmptyScope { constraint, what } => {
                write!(f, "{constraint}: {what} has no variables")
            }
            ModelError::LengthMismatch {
                constraint,
                what,
                expected,
                found,
            } => write!(f, "{constraint}: {what}: expected {expected} entries, found {found}"),
            ModelError::Overflow { constraint } => write!(
                f,
                "{constraint}: the sum's extreme values overflow 64-bit integers"
            ),
            ModelError::Invalid { constraint, reason } => write!(f, "{constraint}: {reason}"),
            ModelError::NoMiniZinc {
                constraint,
                name,
                reason,
            } => write!(f, "c{constraint} ({name}) cannot be written in MiniZinc: {reason}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// A mistake in what a search was asked to do, found before it starts:
/// a variable of another model among its arguments, or a constraint of
/// the model that can never hold because it has no variables. Returned by
/// the checked entry points ([`Search::solve`](crate::Search::solve),
/// [`Search::minimize`](crate::Search::minimize), ...) and by
/// [`Search::validate`](crate::Search::validate).
///
/// ```
/// use csp_core::{Domain, Model, Search, SearchError};
/// let mut a = Model::new();
/// let mut b = Model::new();
/// let x = a.new_var(Domain::range(0, 3)).unwrap();
/// let _ = b.new_var(Domain::range(0, 3)).unwrap();
/// let e = Search::new(&b).minimize(x).unwrap_err();
/// assert!(matches!(e, SearchError::ForeignVar { what: "objective", .. }));
/// assert_eq!(e.to_string(), "objective: variable v0 was created by another model");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// A variable that is not one of the searched model's: its index is
    /// past the model's variables, or another model created it.
    ForeignVar {
        /// The argument it was given as: `"objective"`, `"branch_on"`.
        what: &'static str,
        /// The variable.
        var: crate::VarId,
        /// How many variables the searched model has.
        num_vars: usize,
    },
    /// A constraint over no variables that does not hold: the model can
    /// have no solution, through no choice of values (an empty sum
    /// compared with a non-zero constant, a count over nothing, ...).
    EmptyScope {
        /// The constraint.
        constraint: crate::ConstraintId,
        /// Its name (as [`Constraint::name`](crate::Constraint::name) gives it).
        name: String,
    },
    /// Any other invalid argument or option, described.
    Invalid {
        /// The argument or option.
        what: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::ForeignVar {
                what,
                var,
                num_vars,
            } if var.index() >= *num_vars => write!(
                f,
                "{what}: variable {var} does not belong to this model (it has {num_vars} variables)"
            ),
            SearchError::ForeignVar { what, var, .. } => {
                write!(f, "{what}: variable {var} was created by another model")
            }
            SearchError::EmptyScope { constraint, name } => write!(
                f,
                "constraint {constraint} ({name}) has no variables and does not hold, so the model has no solution"
            ),
            SearchError::Invalid { what, reason } => write!(f, "{what}: {reason}"),
        }
    }
}

impl std::error::Error for SearchError {}
