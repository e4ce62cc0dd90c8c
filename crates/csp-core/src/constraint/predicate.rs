//! The escape hatch: a constraint given by a closure.

use std::fmt;
use std::sync::Arc;

use super::Constraint;
use crate::ids::{Value, VarId};

/// The closure type of a [`Predicate`].
pub type CheckFn = dyn Fn(&[Value]) -> bool + Send + Sync;

/// A constraint whose checker is a closure over the scope's values.
///
/// All pruning comes from the defaults: forward checking once one scope
/// variable is left unfixed, and support search under arc consistency (see
/// [`Constraint::propagate`]). Good for arbitrary rules of small arity; write a
/// [`Constraint`] for anything hot.
#[derive(Clone)]
pub struct Predicate {
    vars: Vec<VarId>,
    name: String,
    check: Arc<CheckFn>,
}

impl Predicate {
    /// A constraint named `name` over `vars`, satisfied when `check` says so.
    pub fn new(
        vars: Vec<VarId>,
        name: impl Into<String>,
        check: impl Fn(&[Value]) -> bool + Send + Sync + 'static,
    ) -> Predicate {
        Predicate {
            vars,
            name: name.into(),
            check: Arc::new(check),
        }
    }
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Predicate")
            .field("name", &self.name)
            .field("vars", &self.vars)
            .finish()
    }
}

impl Constraint for Predicate {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }
    fn is_satisfied(&self, values: &[Value]) -> bool {
        (self.check)(values)
    }
    fn name(&self) -> &str {
        &self.name
    }
}
