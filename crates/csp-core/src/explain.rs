//! Explanations: why a literal holds, and why there is no solution.
//!
//! An [`Explainer`] runs the search's propagation in explaining mode
//! ([`SearchOptions::explain`](crate::SearchOptions::explain)): every domain
//! change is recorded with its cause on the explanation trail
//! (`domain/explained.rs`). Givens and decisions are asserted through it;
//! [`Explainer::why`] then walks the causes back from a literal to the
//! givens, decisions and declared domains it rests on, and
//! [`Explainer::conflict`] does the same for a failure.
//!
//! ```
//! use csp_core::{Domain, Explainer, Literal, Model};
//! let mut m = Model::new();
//! let x = m.new_var_named("x", Domain::range(1, 3)).unwrap();
//! let y = m.new_var_named("y", Domain::range(1, 3)).unwrap();
//! m.not_equal(x, y, 0).unwrap();
//! let mut ex = Explainer::new(&m);
//! ex.propagate().unwrap();
//! ex.decide(Literal::Eq(x, 2)).unwrap();
//! let why = ex.why(Literal::Ne(y, 2)).unwrap();
//! assert_eq!(why.to_string(), "\
//! [1] x = 2  decision
//! [2] y ≠ 2  by not-equal (c0) from [1]
//! ");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use crate::domain::explained::{Cause, Failure, History, How};
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::model::Model;
use crate::propagation::kernel::Stop;
use crate::search::engine::{write_literal, Engine, Prepared};
use crate::search::SearchOptions;
use crate::Limit;

/// Propagation in explaining mode, one step at a time (see the [module
/// documentation](self)).
pub struct Explainer<'a> {
    engine: Engine<'a>,
    propagated: bool,
    failed: bool,
    /// Trail entries already checked by [`audit`](Explainer::audit).
    audited: usize,
}

impl fmt::Debug for Explainer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Explainer")
            .field("level", &self.engine.store.level())
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

/// Why a step of an [`Explanation`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum By {
    /// Asserted with [`Explainer::given`].
    Given,
    /// Asserted with [`Explainer::decide`] (or a search decision).
    Decision,
    /// The objective bound of branch and bound.
    Bound,
    /// Inferred by the propagator of these constraints from the steps
    /// listed in [`Step::from`].
    Constraints(Vec<ConstraintId>),
}

/// One step of an [`Explanation`]: a literal that became true, why, and the
/// earlier steps it used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What became true.
    pub lit: Literal,
    /// Why.
    pub by: By,
    /// The earlier steps it needed (indices into [`Explanation::steps`]).
    pub from: Vec<usize>,
    /// Premises that held in the declared domains (no step needed).
    pub declared: Vec<Literal>,
    /// The decision level it happened at.
    pub level: u32,
}

/// A chain of steps from givens, decisions and declared domains to a
/// literal or a contradiction. Prints one line per step, names in place of
/// indices.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The steps, in the order they happened.
    pub steps: Vec<Step>,
    /// For a contradiction: the constraints that failed and the steps they
    /// failed on (`None` for the explanation of a literal).
    pub contradiction: Option<(Vec<ConstraintId>, Vec<usize>)>,
    names: Vec<String>,
    constraint_names: BTreeMap<u32, String>,
}

impl Explanation {
    /// The givens the explanation rests on.
    pub fn givens(&self) -> Vec<Literal> {
        self.steps
            .iter()
            .filter(|s| s.by == By::Given)
            .map(|s| s.lit)
            .collect()
    }

    /// The decisions the explanation rests on.
    pub fn decisions(&self) -> Vec<Literal> {
        self.steps
            .iter()
            .filter(|s| s.by == By::Decision)
            .map(|s| s.lit)
            .collect()
    }

    /// The name of variable `x` as the explanation prints it.
    pub fn name(&self, x: VarId) -> &str {
        &self.names[x.index()]
    }

    fn lit(&self, l: Literal) -> impl fmt::Display + '_ {
        l.display_with(move |x| self.names[x.index()].clone())
    }

    fn constraints(&self, cs: &[ConstraintId]) -> String {
        cs.iter()
            .map(|c| match self.constraint_names.get(&c.0) {
                Some(s) => s.clone(),
                None => format!("constraint ({c})"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn refs(ks: &[usize]) -> String {
    ks.iter()
        .map(|k| format!("[{}]", k + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, s) in self.steps.iter().enumerate() {
            write!(f, "[{}] {}  ", k + 1, self.lit(s.lit))?;
            match &s.by {
                By::Given => write!(f, "given")?,
                By::Decision => write!(f, "decision")?,
                By::Bound => write!(f, "objective bound")?,
                By::Constraints(cs) => {
                    write!(f, "by {}", self.constraints(cs))?;
                    if !s.from.is_empty() {
                        write!(f, " from {}", refs(&s.from))?;
                    }
                }
            }
            if !s.declared.is_empty() {
                let d: Vec<String> = s
                    .declared
                    .iter()
                    .map(|&l| self.lit(l).to_string())
                    .collect();
                write!(f, " (declared: {})", d.join(", "))?;
            }
            writeln!(f)?;
        }
        if let Some((cs, from)) = &self.contradiction {
            write!(f, "contradiction: {}", self.constraints(cs))?;
            if !from.is_empty() {
                write!(f, " from {}", refs(from))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Why [`Explainer::propagate`], [`decide`](Explainer::decide) or
/// [`given`](Explainer::given) did not reach a fixpoint.
#[derive(Clone, Debug)]
pub enum Failed {
    /// The domains have no solution: the explanation of the contradiction.
    Conflict(Box<Explanation>),
    /// A limit (time, cancel, memory) stopped propagation; nothing is refuted.
    Limit(Limit),
    /// The call was wrong (nothing was changed): see [`ExplainError`].
    Invalid(ExplainError),
}

/// A call to an [`Explainer`] that cannot be answered; the explainer is left
/// as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplainError {
    /// The literal is over a variable the model does not have.
    UnknownVariable {
        /// The variable.
        var: VarId,
        /// How many variables the model has.
        vars: usize,
    },
    /// [`Explainer::given`] after the first propagation: givens are root
    /// facts and must all come first.
    GivenAfterPropagation {
        /// The given that came too late.
        lit: Literal,
    },
    /// [`Explainer::why`] of a literal that does not hold.
    DoesNotHold {
        /// The literal.
        lit: Literal,
    },
    /// [`Explainer::with_constraints`] of a constraint the model does not
    /// have.
    UnknownConstraint {
        /// The constraint.
        constraint: ConstraintId,
        /// How many constraints the model has.
        constraints: usize,
    },
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::UnknownVariable { var, vars } => {
                write!(f, "variable {var} is not in the model ({vars} variables)")
            }
            ExplainError::GivenAfterPropagation { lit } => write!(
                f,
                "given {lit} comes after the first propagation; givens must come first"
            ),
            ExplainError::DoesNotHold { lit } => {
                write!(f, "{lit} does not hold, so it has no explanation")
            }
            ExplainError::UnknownConstraint {
                constraint,
                constraints,
            } => write!(
                f,
                "constraint {constraint} is not in the model ({constraints} constraints)"
            ),
        }
    }
}

impl std::error::Error for ExplainError {}

impl From<ExplainError> for Failed {
    fn from(e: ExplainError) -> Failed {
        Failed::Invalid(e)
    }
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failed::Conflict(e) => write!(f, "no solution:\n{e}"),
            Failed::Limit(l) => write!(f, "stopped: {l}"),
            Failed::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl<'a> Explainer<'a> {
    /// An explainer for `model` with the default search options (maximal
    /// inference: arc consistency).
    pub fn new(model: &'a Model) -> Explainer<'a> {
        Explainer::with_options(model, SearchOptions::default())
    }

    /// An explainer running propagation at `options`' inference level
    /// (explaining mode is turned on; orders and restarts do not matter).
    pub fn with_options(model: &'a Model, options: SearchOptions) -> Explainer<'a> {
        Explainer::build(model, options, None)
    }

    /// An explainer for the constraints `constraints` of `model` only: the
    /// others are switched off, as if the model did not have them (their
    /// ids stay the model's). The variables and their declared domains are
    /// all the model's. This is how [`hints::why_no_solution_constraints`](crate::hints::why_no_solution_constraints)
    /// tries subsets of a model's constraints without copying them; a
    /// search (`Search`) always runs on every constraint.
    ///
    /// Fails with [`ExplainError::UnknownConstraint`] for an id the model
    /// does not have.
    ///
    /// ```
    /// use csp_core::{Domain, Explainer, Model, Relation};
    /// let mut m = Model::new();
    /// let x = m.new_var_named("x", Domain::range(0, 5)).unwrap();
    /// let small = m.linear(&[(1, x)], Relation::Le, 1).unwrap();
    /// let big = m.linear(&[(1, x)], Relation::Ge, 4).unwrap();
    /// // Both together fail; either alone does not.
    /// assert!(Explainer::new(&m).propagate().is_err());
    /// let opts = csp_core::SearchOptions::default();
    /// let mut ex = Explainer::with_constraints(&m, opts, &[big]).unwrap();
    /// ex.propagate().unwrap();
    /// assert_eq!(ex.values(x).unwrap(), vec![4, 5]);
    /// # let _ = small;
    /// ```
    pub fn with_constraints(
        model: &'a Model,
        options: SearchOptions,
        constraints: &[ConstraintId],
    ) -> Result<Explainer<'a>, ExplainError> {
        let n = model.num_constraints();
        let mut on = vec![false; n];
        for &c in constraints {
            if c.index() >= n {
                return Err(ExplainError::UnknownConstraint {
                    constraint: c,
                    constraints: n,
                });
            }
            on[c.index()] = true;
        }
        Ok(Explainer::build(model, options, Some(&on)))
    }

    fn build(model: &'a Model, mut options: SearchOptions, on: Option<&[bool]>) -> Explainer<'a> {
        options.explain = true;
        let prep = std::sync::Arc::new(Prepared::only(model, options.inference, on));
        let mut engine = Engine::new(model, prep, options, None);
        // Step by step, a failure's reason is worth its steps on the trail.
        engine.store.ex.detailed_failures = true;
        Explainer {
            engine,
            propagated: false,
            failed: false,
            audited: 0,
        }
    }

    /// Explains the failures of the fast passes as a search does: from
    /// the trail before the failing pass, not pass by pass (for tests of
    /// that path).
    #[cfg(test)]
    pub(crate) fn flat_failures(&mut self) {
        self.engine.store.ex.detailed_failures = false;
    }

    /// Asserts `lit` as a given (a clue): at the root, before the first
    /// propagation. Call it before [`propagate`](Self::propagate); after
    /// it, or over a variable not in the model, it fails with
    /// [`Failed::Invalid`] and changes nothing.
    pub fn given(&mut self, lit: Literal) -> Result<(), Failed> {
        if self.propagated {
            return Err(ExplainError::GivenAfterPropagation { lit }.into());
        }
        self.check_var(lit.var())?;
        if write_literal(&mut self.engine.store, Cause::Given, lit).is_err() {
            self.failed = true;
            return Err(self.failure());
        }
        self.engine.store.ex.chain();
        Ok(())
    }

    /// Propagates to a fixpoint (the root propagation on the first call).
    pub fn propagate(&mut self) -> Result<(), Failed> {
        if self.failed {
            return Err(self.failure());
        }
        let r = if self.propagated {
            self.engine.propagate()
        } else {
            self.propagated = true;
            self.engine.start()
        };
        self.finish(r)
    }

    /// Opens a level, asserts `lit` as a decision and propagates. A
    /// literal over a variable not in the model fails with
    /// [`Failed::Invalid`] and changes nothing.
    pub fn decide(&mut self, lit: Literal) -> Result<(), Failed> {
        self.check_var(lit.var())?;
        if !self.propagated {
            self.propagate()?;
        }
        if self.failed {
            return Err(self.failure());
        }
        self.engine.store.push_level();
        if self.engine.decision_write(lit).is_err() {
            self.engine.store.clear_events();
            self.failed = true;
            return Err(self.failure());
        }
        let r = self.engine.propagate();
        self.finish(r)
    }

    /// Undoes the last decision (and what followed from it). False at the root.
    pub fn backtrack(&mut self) -> bool {
        let level = self.engine.store.level();
        if level == 0 {
            return false;
        }
        self.engine.kernel.clear(&mut self.engine.store);
        self.engine.store.backtrack_to(level - 1);
        self.failed = false;
        self.audited = self.audited.min(self.engine.store.ex.entries.len());
        true
    }

    /// The current decision level.
    pub fn level(&self) -> usize {
        self.engine.store.level()
    }

    /// The values left in `x`'s domain (ascending).
    pub fn values(&self, x: VarId) -> Result<Vec<Value>, ExplainError> {
        self.check_var(x)?;
        let mut v = Vec::new();
        self.engine.store.values_into(x.index(), &mut v);
        Ok(v)
    }

    /// Does `lit` hold now?
    pub fn holds(&self, lit: Literal) -> Result<bool, ExplainError> {
        self.check_var(lit.var())?;
        Ok(self.history().holds(lit))
    }

    /// Every literal recorded so far, in order, with its decision level.
    pub fn trail(&self) -> Vec<(Literal, u32)> {
        self.engine
            .store
            .ex
            .entries
            .iter()
            .map(|e| (e.lit(), e.level()))
            .collect()
    }

    /// Why `lit` holds: the steps from givens, decisions and declared
    /// domains to it. A literal true in the declared domain has an empty
    /// explanation; one that does not hold is
    /// [`ExplainError::DoesNotHold`].
    pub fn why(&mut self, lit: Literal) -> Result<Explanation, ExplainError> {
        self.check_var(lit.var())?;
        let h = self.history();
        if h.since(lit).is_none() {
            return Err(ExplainError::DoesNotHold { lit });
        }
        let roots = h.supports(lit);
        Ok(self.chain(&roots, None))
    }

    /// The explanation of the last failure, while it stands (until the next
    /// [`backtrack`](Self::backtrack)).
    pub fn conflict(&mut self) -> Option<Explanation> {
        self.failed.then(|| self.explain_failure())
    }

    /// Checks every reason recorded so far, and the failure if there is
    /// one, by brute force over the scopes of the constraints involved
    /// (for the test harness, on small domains): each premise held before
    /// its literal, and the premises with the constraints imply the
    /// literal (or, for a failure, cannot all hold). Checks over more than
    /// `max_tuples` assignments are skipped. The first wrong reason is
    /// described in the error.
    #[doc(hidden)]
    pub fn audit(&mut self, max_tuples: u64) -> Result<(), String> {
        let len = self.engine.store.ex.entries.len();
        for k in self.audited.min(len)..len {
            let e = self.engine.store.ex.entries[k];
            let Cause::Propagated { prop, .. } = e.cause() else {
                continue;
            };
            if prop == u32::MAX {
                return Err(format!(
                    "{} was written without a reason (entry {k})",
                    e.lit()
                ));
            }
            let mut prem = Vec::new();
            entry_premises(&mut self.engine, k, &mut prem);
            let h = self.history().at(k);
            if let Some(p) = prem.iter().find(|&&p| !h.holds(p)) {
                return Err(format!(
                    "{}: premise {p} of {} did not hold yet (entry {k})",
                    self.prop_name(prop),
                    e.lit()
                ));
            }
            if !self.implies(prop, &prem, Some(e.lit()), max_tuples) {
                return Err(format!(
                    "{}: {:?} do not imply {} (entry {k})",
                    self.prop_name(prop),
                    prem,
                    e.lit()
                ));
            }
        }
        if self.failed {
            if let Some(f) = self.engine.store.ex.failure {
                if f.prop != u32::MAX {
                    let mut prem = Vec::new();
                    failure_premises(&mut self.engine, &f, len, &mut prem);
                    let h = self.history();
                    if let Some(p) = prem.iter().find(|&&p| !h.holds(p)) {
                        return Err(format!(
                            "{}: failure premise {p} does not hold",
                            self.prop_name(f.prop)
                        ));
                    }
                    if !self.implies(f.prop, &prem, None, max_tuples) {
                        return Err(format!(
                            "{}: the failure's premises {prem:?} are satisfiable",
                            self.prop_name(f.prop)
                        ));
                    }
                }
            }
        }
        self.audited = len;
        Ok(())
    }

    fn prop_name(&self, prop: u32) -> String {
        let cs = owners_of(&self.engine, prop);
        let names: Vec<String> = cs
            .iter()
            .map(|&c| format!("{} ({c})", self.engine.model.constraint(c).name()))
            .collect();
        names.join(", ")
    }

    /// Do the constraints of `prop` with `premises` imply `lit` (`None`:
    /// are they unsatisfiable)? Brute force over the declared domains of
    /// their scopes; `true` (unchecked) above `max_tuples` assignments.
    fn implies(
        &self,
        prop: u32,
        premises: &[Literal],
        lit: Option<Literal>,
        max_tuples: u64,
    ) -> bool {
        let model = self.engine.model;
        let cs = owners_of(&self.engine, prop);
        let mut vars: Vec<VarId> = Vec::new();
        for &c in &cs {
            vars.extend_from_slice(model.constraint(c).scope());
        }
        if let Some(l) = lit {
            vars.push(l.var());
        }
        vars.sort_unstable();
        vars.dedup();
        let root = self.engine.root.as_deref().expect("explaining");
        let mut doms: Vec<Vec<Value>> = Vec::new();
        let mut product: u64 = 1;
        for &x in &vars {
            let mut d = Vec::new();
            root.values_into(x.index(), &mut d);
            d.retain(|&v| premises.iter().all(|p| p.var() != x || p.admits(v)));
            if d.is_empty() {
                return true; // the premises alone are contradictory
            }
            product = product.saturating_mul(d.len() as u64);
            doms.push(d);
        }
        if product > max_tuples {
            return true;
        }
        let mut idx = vec![0usize; vars.len()];
        let mut values: Vec<Value> = Vec::new();
        loop {
            let val = |x: VarId| {
                let p = vars.binary_search(&x).expect("in scope");
                doms[p][idx[p]]
            };
            let sat = cs.iter().all(|&c| {
                let con = model.constraint(c);
                values.clear();
                values.extend(con.scope().iter().map(|&x| val(x)));
                con.is_satisfied(&values)
            });
            if sat {
                match lit {
                    None => return false,
                    Some(l) if !l.admits(val(l.var())) => return false,
                    _ => {}
                }
            }
            // Next assignment.
            let mut p = vars.len();
            loop {
                if p == 0 {
                    return true;
                }
                p -= 1;
                idx[p] += 1;
                if idx[p] < doms[p].len() {
                    break;
                }
                idx[p] = 0;
            }
        }
    }

    fn check_var(&self, x: VarId) -> Result<(), ExplainError> {
        let vars = self.engine.model.num_vars();
        if x.index() < vars {
            Ok(())
        } else {
            Err(ExplainError::UnknownVariable { var: x, vars })
        }
    }

    fn history(&self) -> History<'_> {
        let e = &self.engine;
        History {
            root: e.root.as_deref().expect("explaining mode keeps the root"),
            trail: &e.store.ex,
            at: e.store.ex.entries.len(),
        }
    }

    fn finish(&mut self, r: Result<(), Stop>) -> Result<(), Failed> {
        self.engine.store.ex.chain();
        match r {
            Ok(()) => Ok(()),
            Err(Stop::Limit) => Err(Failed::Limit(
                self.engine.limit_hit().unwrap_or(Limit::Cancelled),
            )),
            Err(Stop::Conflict) => {
                self.failed = true;
                Err(self.failure())
            }
        }
    }

    fn failure(&mut self) -> Failed {
        self.engine.store.ex.chain();
        Failed::Conflict(Box::new(self.explain_failure()))
    }

    fn explain_failure(&mut self) -> Explanation {
        let f = self.engine.store.ex.failure;
        let at = self.engine.store.ex.entries.len();
        let Some(f) = f else {
            // No record (cannot happen while explaining): an empty chain.
            return self.chain(&[], Some((Vec::new(), Vec::new())));
        };
        let mut prem = Vec::new();
        failure_premises(&mut self.engine, &f, at, &mut prem);
        let h = self.history();
        let mut roots = Vec::new();
        for &p in &prem {
            roots.extend(h.supports(p));
        }
        roots.sort_unstable();
        roots.dedup();
        let cs = owners_of(&self.engine, f.prop);
        self.chain(&roots, Some((cs, Vec::new())))
    }

    /// The steps behind trail entries `roots` (and everything they rest
    /// on), in trail order.
    fn chain(
        &mut self,
        roots: &[usize],
        contradiction: Option<(Vec<ConstraintId>, Vec<usize>)>,
    ) -> Explanation {
        // Collect the entries needed, depth first.
        let mut need: BTreeMap<usize, (Vec<usize>, Vec<Literal>)> = BTreeMap::new();
        let mut stack: Vec<usize> = roots.to_vec();
        while let Some(k) = stack.pop() {
            if need.contains_key(&k) {
                continue;
            }
            let mut prem = Vec::new();
            entry_premises(&mut self.engine, k, &mut prem);
            let h = self.history().at(k);
            let mut from = Vec::new();
            let mut declared = Vec::new();
            for p in prem {
                let s = h.supports(p);
                if s.is_empty() {
                    declared.push(p);
                }
                from.extend(s);
            }
            from.sort_unstable();
            from.dedup();
            declared.sort_unstable();
            declared.dedup();
            stack.extend(from.iter().copied());
            need.insert(k, (from, declared));
        }
        let index: BTreeMap<usize, usize> = need.keys().enumerate().map(|(i, &k)| (k, i)).collect();
        let ex = &self.engine.store.ex;
        let steps: Vec<Step> = need
            .iter()
            .map(|(&k, (from, declared))| {
                let e = ex.entries[k];
                Step {
                    lit: e.lit(),
                    by: match e.cause() {
                        Cause::Given => By::Given,
                        Cause::Decision => By::Decision,
                        Cause::Bound => By::Bound,
                        Cause::Propagated { prop, .. } => {
                            By::Constraints(owners_of(&self.engine, prop))
                        }
                    },
                    from: from.iter().map(|f| index[f]).collect(),
                    declared: declared.clone(),
                    level: e.level(),
                }
            })
            .collect();
        let contradiction = contradiction.map(|(cs, _)| {
            let from = roots.iter().filter_map(|k| index.get(k).copied()).collect();
            (cs, from)
        });
        let model = self.engine.model;
        let names = (0..model.num_vars())
            .map(|i| model.display_name(VarId(i as u32)))
            .collect();
        let mut constraint_names = BTreeMap::new();
        for s in &steps {
            if let By::Constraints(cs) = &s.by {
                for c in cs {
                    constraint_names.insert(c.0, shown(model, *c));
                }
            }
        }
        if let Some((cs, _)) = &contradiction {
            for c in cs {
                constraint_names.insert(c.0, shown(model, *c));
            }
        }
        Explanation {
            steps,
            contradiction,
            names,
            constraint_names,
        }
    }
}

/// How an explanation shows constraint `c`: its kind, then its label
/// (`all-different (c0 "row 1")`, see [`Model::constraint_label`]).
pub(crate) fn shown(model: &Model, c: ConstraintId) -> String {
    format!(
        "{} ({})",
        model.constraint(c).name(),
        model.constraint_label(c)
    )
}

/// The model's constraints that propagator `prop` enforces.
fn owners_of(engine: &Engine<'_>, prop: u32) -> Vec<ConstraintId> {
    if prop == u32::MAX {
        return Vec::new();
    }
    engine
        .kernel
        .owners(prop)
        .iter()
        .map(|&c| ConstraintId(c))
        .collect()
}

thread_local! {
    /// Test knob: drop the last premise of every expanded reason (see
    /// `testing::weaken_reasons`), to check that the checks can fail.
    pub(crate) static WEAKEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The premises of trail entry `k` (none for givens, decisions and the bound).
pub(crate) fn entry_premises(engine: &mut Engine<'_>, k: usize, out: &mut Vec<Literal>) {
    engine.store.ex.chain();
    let e = engine.store.ex.entries[k];
    if let Cause::Propagated { prop, how } = e.cause() {
        if prop == u32::MAX {
            return; // unexplained: the checks report it
        }
        let start = out.len();
        expand(engine, prop, how, Some(e.lit()), k, out);
        if WEAKEN.get() && out.len() > start {
            out.pop();
        }
    }
}

/// The premises of a failure recorded at trail length `at`: its cause's
/// premises and, for a failed write, the domain of the variable it would
/// have emptied.
pub(crate) fn failure_premises(
    engine: &mut Engine<'_>,
    f: &Failure,
    at: usize,
    out: &mut Vec<Literal>,
) {
    engine.store.ex.chain();
    if let Cause::Propagated { prop, how } = f.cause {
        let start = out.len();
        expand(engine, prop, how, None, at, out);
        if WEAKEN.get() && out.len() > start {
            out.pop();
        }
    }
    if let Some(x) = f.var {
        let root = engine.root.as_deref().expect("explaining");
        History {
            root,
            trail: &engine.store.ex,
            at,
        }
        .domain_literals(x, out);
    }
}

/// Expands a cause of propagator `prop` for `lit` (`None`: a failure) as of
/// trail position `at`.
fn expand(
    engine: &mut Engine<'_>,
    prop: u32,
    how: How,
    lit: Option<Literal>,
    at: usize,
    out: &mut Vec<Literal>,
) {
    match how {
        How::Eager { start, len } => {
            let (s, l) = (start as usize, len as usize);
            out.extend_from_slice(&engine.store.ex.premises[s..s + l]);
        }
        How::One(l) => out.push(l),
        How::Lazy(code) => {
            let Engine {
                root,
                store,
                kernel,
                ..
            } = engine;
            let h = History {
                root: root.as_deref().expect("explaining"),
                trail: &store.ex,
                at,
            };
            let lit = lit.unwrap_or(Literal::Ge(VarId(0), Value::MIN));
            if !kernel.propagator_mut(prop).explain(code, lit, &h, out) {
                scope_premises(engine, prop, at, out, false);
            }
        }
        How::Scope => scope_premises(engine, prop, at, out, false),
        How::Bounds => scope_premises(engine, prop, at, out, true),
    }
}

/// The fallback: the domains (or only the bounds) of the scopes of
/// `prop`'s constraints at `at`.
fn scope_premises(
    engine: &Engine<'_>,
    prop: u32,
    at: usize,
    out: &mut Vec<Literal>,
    bounds_only: bool,
) {
    let h = History {
        root: engine.root.as_deref().expect("explaining"),
        trail: &engine.store.ex,
        at,
    };
    let mut vars: Vec<VarId> = Vec::new();
    for &c in engine.kernel.owners(prop) {
        vars.extend_from_slice(engine.model.constraint(ConstraintId(c)).scope());
    }
    vars.sort_unstable();
    vars.dedup();
    for x in vars {
        if !bounds_only {
            h.domain_literals(x, out);
        } else if let Some((lo, hi)) = h.bounds(x) {
            if lo == hi {
                out.push(Literal::Eq(x, lo));
            } else {
                out.push(Literal::Ge(x, lo));
                out.push(Literal::Le(x, hi));
            }
        }
    }
}
