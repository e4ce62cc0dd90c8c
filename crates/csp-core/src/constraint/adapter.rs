//! The checker path: a [`Constraint`] with no propagator of its own runs
//! through this adapter, which derives propagation from its methods at the
//! search's inference level.
//!
//! | inference | subscribes to | on an event | when scheduled |
//! |---|---|---|---|
//! | none | fixed | rejects a partial assignment the constraint refuses ([`Constraint::is_consistent_partial`]) | checks a fixed scope |
//! | forward checking | fixed | [`Constraint::forward_check`] from that position | [`Constraint::propagate`] (the root only) |
//! | arc consistency | any change | schedules | [`Constraint::propagate`] |

use smallvec::SmallVec;

use super::{Constraint, Pruner};
use crate::domain::Conflict;
use crate::ids::Value;
use crate::propagation::{Event, Events, Inference, Priority, Propagator, Setup};

/// A constraint propagated through its checker-path methods.
#[derive(Debug)]
pub(crate) struct CheckerPath<'a> {
    c: &'a dyn Constraint,
    inference: Inference,
    idempotent: bool,
    priority: Priority,
}

impl<'a> CheckerPath<'a> {
    pub(crate) fn new(c: &'a dyn Constraint, idempotent: bool, priority: Priority) -> Self {
        CheckerPath {
            c,
            inference: Inference::ForwardChecking,
            idempotent,
            priority,
        }
    }

    /// Is the partial assignment of the scope still extensible?
    fn partial_ok(&self, pruner: &Pruner<'_>) -> bool {
        let partial: SmallVec<[Option<Value>; 16]> =
            self.c.scope().iter().map(|&x| pruner.value(x)).collect();
        self.c.is_consistent_partial(&partial)
    }
}

impl Propagator for CheckerPath<'_> {
    fn setup(&mut self, setup: &mut Setup<'_>) {
        self.inference = setup.inference();
        let on = match self.inference {
            Inference::Mac => Events::DOMAIN,
            _ => Events::FIXED,
        };
        for (pos, &x) in self.c.scope().iter().enumerate() {
            setup.subscribe(x, pos, on);
        }
    }

    fn propagate(&mut self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        match self.inference {
            // The root: a constraint whose scope is fixed (or empty) is checked.
            Inference::None => {
                if self.partial_ok(pruner) {
                    Ok(())
                } else {
                    Err(Conflict)
                }
            }
            _ => self.c.propagate(pruner),
        }
    }

    fn notify(
        &mut self,
        pruner: &mut Pruner<'_>,
        pos: usize,
        _event: Event,
    ) -> Result<bool, Conflict> {
        match self.inference {
            Inference::None => {
                if self.partial_ok(pruner) {
                    Ok(false)
                } else {
                    Err(Conflict)
                }
            }
            Inference::ForwardChecking => self.c.forward_check(pruner, pos).map(|()| false),
            Inference::Mac => Ok(true),
        }
    }

    fn wants_notify(&self) -> bool {
        // Under arc consistency an event only schedules `propagate`.
        self.inference != Inference::Mac
    }

    fn priority(&self) -> Priority {
        self.priority
    }

    fn is_idempotent(&self) -> bool {
        self.idempotent
    }

    fn name(&self) -> &str {
        self.c.name()
    }

    fn explain(
        &mut self,
        code: u64,
        lit: crate::literal::Literal,
        history: &crate::propagation::History<'_>,
        out: &mut Vec<crate::literal::Literal>,
    ) -> bool {
        self.c.explain(code, lit, history, out)
    }
}
