//! Watching a search: the [`SearchObserver`] trait.

use crate::ids::{Value, VarId};

/// Receives the events of a backtracking search, in order. Every method has an
/// empty default, so an observer implements only what it needs.
///
/// Depth counts decisions: the first assignment is at depth 1. While an
/// observer is attached, [`Search::count`](crate::Search::count) builds every
/// solution instead of counting the last variable's values at once, so that
/// `on_solution` sees them all.
///
/// ```
/// use csp_core::{Domain, Model, Search, SearchObserver, Value, VarId};
///
/// #[derive(Default)]
/// struct Tally { assigns: u32, solutions: u32 }
/// impl SearchObserver for Tally {
///     fn on_assign(&mut self, _: VarId, _: Value, _: usize) { self.assigns += 1; }
///     fn on_solution(&mut self, _: &[Value]) { self.solutions += 1; }
/// }
///
/// let mut m = Model::new();
/// let xs = m.new_vars(3, Domain::range(1, 3)).unwrap();
/// m.all_different(&xs).unwrap();
/// let mut t = Tally::default();
/// let r = Search::new(&m).observer(&mut t).count();
/// assert_eq!((r.count, t.solutions), (6, 6));
/// ```
pub trait SearchObserver {
    /// The search tries `var = value` at depth `depth`.
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        let _ = (var, value, depth);
    }
    /// Propagation removed `value` from `var`'s domain.
    fn on_prune(&mut self, var: VarId, value: Value) {
        let _ = (var, value);
    }
    /// The assignment just announced failed (a domain was wiped out).
    fn on_fail(&mut self, var: VarId, value: Value, depth: usize) {
        let _ = (var, value, depth);
    }
    /// Every value of `var` (chosen at depth `depth`) has been tried; the
    /// search steps back.
    fn on_backtrack(&mut self, var: VarId, depth: usize) {
        let _ = (var, depth);
    }
    /// A solution: the value of every variable, by index.
    fn on_solution(&mut self, values: &[Value]) {
        let _ = values;
    }
    /// Should propagators record reasons for their removals (see
    /// [`Pruner::remove_because`](crate::Pruner::remove_because))? Asked
    /// once per search; recording costs nothing when no one asks.
    fn wants_reasons(&self) -> bool {
        false
    }
    /// A removal with its reason (only when [`wants_reasons`](Self::wants_reasons)).
    fn on_reason(&mut self, reason: &crate::propagation::Reason) {
        let _ = reason;
    }
}
