//! The builder methods of [`Search`] that set one option each (the rest
//! are in `mod.rs`), and [`Search::validate`], which the checked entry
//! points run first.

use std::time::Duration;

use super::{Restarts, RootWeights, Search};
use crate::error::SearchError;
use crate::ids::VarId;
use crate::limits::CancelToken;
use crate::model::Model;

impl<'a> Search<'a> {
    /// Branches on `vars` first, in [`var_order`](Search::var_order) among
    /// them (input order is their order here), then on the other
    /// variables ([`SearchOptions::decision_vars`](super::SearchOptions::decision_vars)).
    /// The checked calls reject a variable of another model
    /// ([`SearchError::ForeignVar`] with `what: "branch_on"`).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, VarOrder};
    /// let mut m = Model::new();
    /// let [x, y] = m.new_array(Domain::range(0, 2))?;
    /// m.not_equal(x, y, 0)?;
    /// let s = Search::new(&m).branch_on(&[y, x]).var_order(VarOrder::Input).solve()?;
    /// let s = s.solution.unwrap();
    /// assert_eq!((s[x], s[y]), (1, 0)); // y = 0 was decided first
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn branch_on(mut self, vars: &[VarId]) -> Self {
        self.options.decision_vars = vars.to_vec();
        self
    }

    /// Stops the search after `limit` of wall-clock time, counting the
    /// preparation ([`Limits::time`](crate::Limits::time)); the result then
    /// says [`Outcome::LimitReached`](crate::Outcome::LimitReached).
    ///
    /// ```
    /// use std::time::Duration;
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m).time_limit(Duration::from_secs(60)).count()?;
    /// assert_eq!(r.count, 24); // well within the minute
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.options.limits.time = Some(limit);
        self
    }

    /// Stops the search after `nodes` search nodes
    /// ([`Limits::nodes`](crate::Limits::nodes)).
    ///
    /// ```
    /// use csp_core::{Domain, Limit, Model, Outcome, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(8, Domain::range(1, 8))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m).node_limit(100).count()?;
    /// assert_eq!(r.outcome, Outcome::LimitReached(Limit::Nodes));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node_limit(mut self, nodes: u64) -> Self {
        self.options.limits.nodes = Some(nodes);
        self
    }

    /// Stops after `solutions` solutions
    /// ([`Limits::solutions`](crate::Limits::solutions)).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).solution_limit(5).count()?.count, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solution_limit(mut self, solutions: u64) -> Self {
        self.options.limits.solutions = Some(solutions);
        self
    }

    /// Stops when the search's own memory would pass `bytes`
    /// ([`Limits::memory`](crate::Limits::memory)).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m).memory_limit(64 << 20).count()?;
    /// assert_eq!(r.count, 24);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.options.limits.memory = Some(bytes);
        self
    }

    /// Stops when `token` is cancelled, from any thread
    /// ([`Limits::cancel`](crate::Limits::cancel)).
    ///
    /// ```
    /// use csp_core::{CancelToken, Domain, Limit, Model, Outcome, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(10, Domain::range(1, 10))?;
    /// m.all_different(&xs)?;
    /// let token = CancelToken::new();
    /// token.cancel(); // as another thread would, later
    /// let r = Search::new(&m).cancel_with(token).count()?;
    /// assert_eq!(r.outcome, Outcome::LimitReached(Limit::Cancelled));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cancel_with(mut self, token: CancelToken) -> Self {
        self.options.limits.cancel = Some(token);
        self
    }

    /// Restarts [`solve`](Search::solve) and optimisation after a
    /// growing number of failures (see [`Restarts`]); counting never
    /// restarts.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Outcome, Restarts, Search, VarOrder};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(6, Domain::range(1, 6))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m)
    ///     .var_order(VarOrder::DomWdeg)
    ///     .restarts(Restarts::Luby { scale: 10 })
    ///     .solve()?;
    /// assert_eq!(r.outcome, Outcome::Solved);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restarts(mut self, restarts: Restarts) -> Self {
        self.options.restarts = restarts;
        self
    }

    /// What happens to the dom/wdeg weights at each new root decision (see
    /// [`RootWeights`]).
    ///
    /// ```
    /// use csp_core::{Domain, Model, RootWeights, Search, VarOrder};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(5, Domain::range(1, 5))?;
    /// m.all_different(&xs)?;
    /// let r = Search::new(&m)
    ///     .var_order(VarOrder::DomWdeg)
    ///     .root_weights(RootWeights::Halve)
    ///     .count()?;
    /// assert_eq!(r.count, 120); // the order changes, the answer does not
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn root_weights(mut self, weights: RootWeights) -> Self {
        self.options.root_weights = weights;
        self
    }

    /// Checks every counted solution against every constraint, as the
    /// calls that return solutions always do
    /// ([`SearchOptions::validate`](super::SearchOptions::validate)).
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search};
    /// let mut m = Model::new();
    /// let xs = m.new_vars(4, Domain::range(1, 4))?;
    /// m.all_different(&xs)?;
    /// assert_eq!(Search::new(&m).check_solutions(true).count()?.count, 24);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_solutions(mut self, on: bool) -> Self {
        self.options.validate = on;
        self
    }

    /// Checks the search's arguments against its model, as every checked
    /// entry point does before it starts: the variables of
    /// [`branch_on`](Search::branch_on) and the phases, and the model's
    /// constraints over no variables (one that does not hold makes the
    /// model unsatisfiable through no choice of values:
    /// [`SearchError::EmptyScope`] names it). O(constraints + decision
    /// variables); nothing is checked during the search itself.
    ///
    /// ```
    /// use csp_core::{Domain, Model, Search, SearchError};
    /// let mut a = Model::new();
    /// let xs = a.new_vars(3, Domain::range(0, 1))?;
    /// let mut b = Model::new();
    /// b.new_vars(3, Domain::range(0, 1))?;
    /// let e = Search::new(&b).branch_on(&xs).validate().unwrap_err();
    /// assert!(matches!(e, SearchError::ForeignVar { what: "branch_on", .. }));
    /// assert!(Search::new(&a).branch_on(&xs).validate().is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate(&self) -> Result<(), SearchError> {
        let m = self.model;
        let o = &self.options;
        for &x in &o.decision_vars {
            check_var(m, "branch_on", x)?;
        }
        let phased: usize = o.phases.iter().fold(0usize, |a, &b| a.saturating_add(b));
        if phased > o.decision_vars.len() {
            return Err(SearchError::Invalid {
                what: "phases",
                reason: format!(
                    "the phases cover {phased} variables, but {} are given to branch on",
                    o.decision_vars.len()
                ),
            });
        }
        let mut buf = Vec::new();
        for (id, c) in m.constraints() {
            if c.scope().is_empty() && !m.satisfies(id, &[], &mut buf) {
                return Err(SearchError::EmptyScope {
                    constraint: id,
                    name: c.name().to_string(),
                });
            }
        }
        Ok(())
    }

    /// This search with the same model, options and observer, borrowed for
    /// one run of a `&mut self` entry point.
    pub(super) fn rerun(&mut self) -> Search<'_> {
        Search {
            model: self.model,
            options: self.options.clone(),
            observer: match &mut self.observer {
                Some(o) => Some(&mut **o),
                None => None,
            },
            max_threads: self.max_threads,
        }
    }
}

/// Is `x` a variable of `m`? `what` names the argument in the error.
pub(super) fn check_var(m: &Model, what: &'static str, x: VarId) -> Result<(), SearchError> {
    if x.index() >= m.num_vars() || !x.belongs_to(m.id()) {
        return Err(SearchError::ForeignVar {
            what,
            var: x,
            num_vars: m.num_vars(),
        });
    }
    Ok(())
}
