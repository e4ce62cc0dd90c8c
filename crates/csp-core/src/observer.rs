//! Watching a search: the [`SearchObserver`] trait.

use crate::ids::{Value, VarId};
use crate::search::Decision;

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
/// let r = Search::new(&m).observer(&mut t).count().unwrap();
/// assert_eq!((r.count, t.solutions), (6, 6));
/// ```
pub trait SearchObserver {
    /// The search tries `var = value` at depth `depth`.
    fn on_assign(&mut self, var: VarId, value: Value, depth: usize) {
        let _ = (var, value, depth);
    }
    /// The search tries `decision` on `var` at depth `depth`. The default
    /// passes an assignment on to [`on_assign`](Self::on_assign) and
    /// ignores the halves of a split domain ([`ValOrder::Split`](crate::ValOrder::Split)).
    fn on_decision(&mut self, var: VarId, decision: Decision, depth: usize) {
        if let Decision::Assign(v) = decision {
            self.on_assign(var, v, depth);
        }
    }
    /// The decision just announced failed. The default passes an
    /// assignment on to [`on_fail`](Self::on_fail).
    fn on_decision_failed(&mut self, var: VarId, decision: Decision, depth: usize) {
        if let Decision::Assign(v) = decision {
            self.on_fail(var, v, depth);
        }
    }
    /// Propagation removed `value` from `var`'s domain.
    fn on_prune(&mut self, var: VarId, value: Value) {
        let _ = (var, value);
    }
    /// The assignment just announced failed (a domain was wiped out).
    fn on_fail(&mut self, var: VarId, value: Value, depth: usize) {
        let _ = (var, value, depth);
    }
    /// Every value (or half) of `var` (chosen at depth `depth`) has been tried; the
    /// search steps back.
    fn on_backtrack(&mut self, var: VarId, depth: usize) {
        let _ = (var, depth);
    }
    /// A solution: the value of every variable, by index.
    fn on_solution(&mut self, values: &[Value]) {
        let _ = values;
    }
    /// Should the search report every removal to [`on_prune`](Self::on_prune)?
    /// Asked once per search; an observer that only follows decisions
    /// says no and spares the search the bookkeeping.
    fn wants_prunes(&self) -> bool {
        true
    }
}
