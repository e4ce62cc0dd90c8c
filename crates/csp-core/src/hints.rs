//! Hints: the next logical step, the step-wise explanation of a whole
//! solution, a difficulty, and why there is no solution — for any model.
//!
//! This follows the framework of Bogaerts, Gamba and Guns, "A framework for
//! step-wise explaining how to solve constraint satisfaction problems"
//! (Artificial Intelligence 300, 2021): from a *state* (the givens plus the
//! facts already derived, all as [`Literal`]s), a *step* is one new fact (a
//! value fixed or removed) together with the facts it needs (its
//! *premises*) and the constraints it uses. The next step is the cheapest
//! one. Where that paper calls a MUS solver for every candidate fact, this
//! module reads the explained kernel's reasons ([`Explainer`]): the state
//! is asserted as givens, propagation runs once in explaining mode, and
//! for every fact it derived, [`Explainer::why`] gives the chain back to
//! the state. The chain's constraints and the state facts it rests on are
//! the step's constraints and premises.
//!
//! ## Cost
//!
//! A step's [`Cost`] is compared in this order (fewest first), so that the
//! steps a person would take first come first:
//! 1. the number of constraints it uses,
//! 2. the number of premises (state facts) it needs,
//! 3. the sum of the constraints' kind weights ([`Weights`], by
//!    [`Constraint::name`](crate::Constraint::name); every kind weighs 1
//!    unless set otherwise).
//!
//! Ties go to the fact propagation derived first. The kernel finds a step
//! only along the chains it propagated: a fact that one constraint alone
//! could derive from the state may be reported with a longer chain when
//! the kernel reached it another way first. The step is still correct (it
//! is checked), only possibly not the cheapest there is.
//!
//! ## Checked
//!
//! Every step is checked before it is handed out, without the propagators:
//! [`check_step`] searches, over the scopes of the step's constraints with
//! their declared domains cut down by the premises, for an assignment that
//! satisfies the constraints' checkers ([`Constraint::is_satisfied`](crate::Constraint::is_satisfied))
//! and violates the deduction. There must be none.
//!
//! ```
//! use csp_core::hints::{self, Next};
//! use csp_core::{Domain, Literal, Model};
//! // Three cells that must differ, values 1..=3; x = 1 and y ≠ 3 are known.
//! let mut m = Model::new();
//! let x = m.new_var_named("x", Domain::range(1, 3)).unwrap();
//! let y = m.new_var_named("y", Domain::range(1, 3)).unwrap();
//! let z = m.new_var_named("z", Domain::range(1, 3)).unwrap();
//! m.all_different(&[x, y, z]).unwrap();
//! let facts = [Literal::Eq(x, 1), Literal::Ne(y, 3)];
//! let Next::Step(step) = hints::next_step(&m, &facts, &hints::Options::default()).unwrap() else {
//!     panic!("a step")
//! };
//! assert_eq!(step.to_string(), "y ≠ 1 by all-different (c0) from x = 1");
//! assert_eq!(step.cost.constraints, 1);
//!
//! // The whole sequence, each step checked:
//! let seq = hints::explain(&m, &facts, &hints::Options::default()).unwrap();
//! assert_eq!(seq.end, hints::End::Solved);
//! let d = seq.difficulty();
//! assert_eq!(d.steps, seq.steps.len());
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::explain::{By, Explanation, Failed};
use crate::ids::{ConstraintId, Value, VarId};
use crate::literal::Literal;
use crate::model::Model;
use crate::{Explainer, SearchOptions};

/// Weights of constraint kinds, by [`Constraint::name`](crate::Constraint::name)
/// (`"all-different"`, `"linear"`, ...), for the third part of a [`Cost`].
#[derive(Clone, Debug)]
pub struct Weights {
    /// The weight of a kind not listed.
    pub default: u32,
    /// Weights by kind name.
    pub by_name: BTreeMap<String, u32>,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            default: 1,
            by_name: BTreeMap::new(),
        }
    }
}

impl Weights {
    /// The weight of constraint `c` of `model`.
    pub fn of(&self, model: &Model, c: ConstraintId) -> u32 {
        let name = model.constraint(c).name();
        self.by_name.get(name).copied().unwrap_or(self.default)
    }
}

/// How hints are found.
#[derive(Clone, Debug)]
pub struct Options {
    /// The propagation the steps come from (explaining mode is turned on;
    /// the default is arc consistency).
    pub search: SearchOptions,
    /// Kind weights for the cost.
    pub weights: Weights,
    /// The checker's node budget per step ([`check_step`]); a step the
    /// checker cannot settle within it is not handed out.
    pub check_budget: u64,
    /// The most steps [`explain`] takes.
    pub max_steps: usize,
    /// The node budget of the bounded search behind [`why_no_solution`]
    /// when propagation alone finds no contradiction.
    pub search_budget: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            search: SearchOptions::default(),
            weights: Weights::default(),
            check_budget: 1_000_000,
            max_steps: 100_000,
            search_budget: 100_000,
        }
    }
}

/// The cost of a step: compared field by field, in this order (see the
/// [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost {
    /// How many constraints the step uses.
    pub constraints: usize,
    /// How many facts of the state it needs.
    pub premises: usize,
    /// The sum of its constraints' kind weights.
    pub weight: u64,
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} constraint{}, {} premise{}, weight {}",
            self.constraints,
            if self.constraints == 1 { "" } else { "s" },
            self.premises,
            if self.premises == 1 { "" } else { "s" },
            self.weight
        )
    }
}

/// One step: a new fact, the facts of the state it needs, the constraints
/// it uses, and its cost.
#[derive(Clone, Debug)]
pub struct Step {
    /// The new fact.
    pub deduction: Literal,
    /// The facts of the state it needs.
    pub premises: Vec<Literal>,
    /// The constraints it uses.
    pub constraints: Vec<ConstraintId>,
    /// Its cost.
    pub cost: Cost,
    names: Names,
}

/// Variable and constraint names, for printing.
#[derive(Clone, Debug)]
struct Names {
    vars: std::sync::Arc<Vec<String>>,
    constraints: BTreeMap<u32, String>,
}

impl Names {
    fn new(model: &Model, cs: &[ConstraintId], vars: &std::sync::Arc<Vec<String>>) -> Names {
        Names {
            vars: vars.clone(),
            constraints: cs
                .iter()
                .map(|&c| (c.0, crate::explain::shown(model, c)))
                .collect(),
        }
    }

    fn lit(&self, l: Literal) -> String {
        l.display_with(|x| self.vars[x.index()].clone()).to_string()
    }
}

fn var_names(model: &Model) -> std::sync::Arc<Vec<String>> {
    std::sync::Arc::new(
        (0..model.num_vars())
            .map(|i| model.display_name(VarId::from_index(i)))
            .collect(),
    )
}

impl Step {
    /// The name of variable `x` as the step prints it.
    pub fn name(&self, x: VarId) -> &str {
        &self.names.vars[x.index()]
    }

    /// A literal printed with the model's names.
    pub fn show(&self, l: Literal) -> String {
        self.names.lit(l)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cs: Vec<String> = self
            .constraints
            .iter()
            .map(|c| self.names.constraints[&c.0].clone())
            .collect();
        write!(f, "{} by {}", self.names.lit(self.deduction), cs.join(", "))?;
        if !self.premises.is_empty() {
            let p: Vec<String> = self.premises.iter().map(|&l| self.names.lit(l)).collect();
            write!(f, " from {}", p.join(", "))?;
        }
        Ok(())
    }
}

/// What comes next from a state.
#[derive(Clone, Debug)]
pub enum Next {
    /// The cheapest new fact.
    Step(Step),
    /// Every variable is fixed: the state is a solution.
    Solved,
    /// Propagation derives nothing new: search is needed. The smallest case
    /// split is on `var`, over `values`.
    SearchNeeded {
        /// A variable with the fewest values left (more than one).
        var: VarId,
        /// Its values.
        values: Vec<Value>,
    },
    /// The state itself cannot hold: the explanation of the contradiction.
    Contradiction(Box<Explanation>),
}

/// Why a hint could not be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintError {
    /// A fact is over a variable the model does not have.
    UnknownVariable {
        /// Its position in the list of facts.
        index: usize,
        /// The fact.
        lit: Literal,
    },
    /// A limit stopped propagation.
    Limit(String),
    /// The independent checker refuted a step (a wrong reason in the
    /// kernel): the step is described.
    Refuted(String),
    /// The independent checker could not settle the cheapest step within
    /// its budget.
    Unchecked(String),
}

impl fmt::Display for HintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HintError::UnknownVariable { index, lit } => write!(
                f,
                "fact {} ({lit}) is over a variable the model does not have",
                index + 1
            ),
            HintError::Limit(l) => write!(f, "stopped: {l}"),
            HintError::Refuted(s) => write!(f, "the checker refuted the step {s}"),
            HintError::Unchecked(s) => {
                write!(
                    f,
                    "the checker could not settle the step {s} within its budget"
                )
            }
        }
    }
}

impl std::error::Error for HintError {}

/// An explainer with `facts` asserted as givens (not yet propagated).
fn explainer<'a>(
    model: &'a Model,
    facts: &[Literal],
    options: &Options,
) -> Result<Result<Explainer<'a>, Box<Explanation>>, HintError> {
    let mut ex = Explainer::with_options(model, options.search.clone());
    for (index, &lit) in facts.iter().enumerate() {
        match ex.given(lit) {
            Ok(()) => {}
            Err(Failed::Conflict(e)) => return Ok(Err(e)),
            Err(Failed::Invalid(_)) => return Err(HintError::UnknownVariable { index, lit }),
            Err(Failed::Limit(l)) => return Err(HintError::Limit(l.to_string())),
        }
    }
    Ok(Ok(ex))
}

/// Every step propagation finds from `facts`, cheapest first (each not yet
/// checked); or what else comes next when there is none.
pub fn candidates(
    model: &Model,
    facts: &[Literal],
    options: &Options,
) -> Result<Result<Vec<Step>, Next>, HintError> {
    let mut ex = match explainer(model, facts, options)? {
        Ok(ex) => ex,
        Err(e) => return Ok(Err(Next::Contradiction(e))),
    };
    let start = ex.trail().len();
    match ex.propagate() {
        Ok(()) => {}
        Err(Failed::Conflict(e)) => {
            // The state is contradictory only if its facts alone are; a
            // conflict found by propagation is a contradiction derived
            // from them, which is what the caller needs to see.
            return Ok(Err(Next::Contradiction(e)));
        }
        Err(Failed::Invalid(e)) => return Err(HintError::Limit(e.to_string())),
        Err(Failed::Limit(l)) => return Err(HintError::Limit(l.to_string())),
    }
    let trail = ex.trail();
    if trail.len() == start {
        let mut best: Option<(usize, VarId, Vec<Value>)> = None;
        for x in model.vars() {
            let v = ex.values(x).unwrap_or_default();
            if v.len() > 1 && best.as_ref().is_none_or(|b| v.len() < b.0) {
                best = Some((v.len(), x, v));
            }
        }
        return Ok(Err(match best {
            None => Next::Solved,
            Some((_, var, values)) => Next::SearchNeeded { var, values },
        }));
    }
    let names = var_names(model);
    let mut out: Vec<(Cost, usize, Step)> = Vec::new();
    let mut seen: BTreeSet<Literal> = BTreeSet::new();
    for (k, &(lit, _)) in trail[start..].iter().enumerate() {
        if !seen.insert(lit) {
            continue;
        }
        let Ok(why) = ex.why(lit) else { continue };
        let mut cs: BTreeSet<ConstraintId> = BTreeSet::new();
        let mut premises: Vec<Literal> = Vec::new();
        for s in &why.steps {
            match &s.by {
                By::Given => premises.push(s.lit),
                By::Constraints(c) => cs.extend(c.iter().copied()),
                By::Decision | By::Bound => {}
            }
        }
        premises.sort_unstable();
        premises.dedup();
        let constraints: Vec<ConstraintId> = cs.into_iter().collect();
        let cost = Cost {
            constraints: constraints.len(),
            premises: premises.len(),
            weight: constraints
                .iter()
                .map(|&c| u64::from(options.weights.of(model, c)))
                .sum(),
        };
        let step = Step {
            deduction: lit,
            premises,
            names: Names::new(model, &constraints, &names),
            constraints,
            cost,
        };
        out.push((cost, k, step));
    }
    out.sort_by_key(|a| (a.0, a.1));
    Ok(Ok(out.into_iter().map(|(_, _, s)| s).collect()))
}

/// The next step from `facts`: the cheapest new fact propagation derives,
/// checked by [`check_step`]; or that the state is solved, needs search,
/// or is contradictory.
pub fn next_step(model: &Model, facts: &[Literal], options: &Options) -> Result<Next, HintError> {
    let steps = match candidates(model, facts, options)? {
        Ok(s) => s,
        Err(next) => return Ok(next),
    };
    let mut unchecked = None;
    for step in steps {
        match check_step(
            model,
            &step.premises,
            &step.constraints,
            step.deduction,
            options.check_budget,
        ) {
            Verdict::Implied => return Ok(Next::Step(step)),
            Verdict::Refuted => return Err(HintError::Refuted(step.to_string())),
            Verdict::Unknown => {
                unchecked.get_or_insert_with(|| step.to_string());
            }
        }
    }
    Err(HintError::Unchecked(unchecked.unwrap_or_default()))
}

/// How a step-wise explanation ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Every variable is fixed.
    Solved,
    /// Propagation stops: search is needed, the smallest case split is on
    /// `var` over `values`.
    SearchNeeded {
        /// The variable.
        var: VarId,
        /// Its values left.
        values: Vec<Value>,
    },
    /// The state is contradictory (see [`why_no_solution`]).
    Contradiction,
    /// [`Options::max_steps`] were taken.
    StepLimit,
}

/// A step-wise explanation: the steps in order, and how it ends.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// The steps, each checked.
    pub steps: Vec<Step>,
    /// How it ends.
    pub end: End,
}

/// The difficulty of a sequence: its hardest step, and the total.
///
/// Ordered by the hardest step's cost, then by the total weight, then by
/// the number of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Difficulty {
    /// The cost of the hardest step (`Cost::default()` for no step).
    pub hardest: Cost,
    /// The sum over all steps of (constraints × premises + weight).
    pub total: u64,
    /// The number of steps.
    pub steps: usize,
}

impl Sequence {
    /// The difficulty: the costliest step and a total that grows with
    /// every step's size.
    pub fn difficulty(&self) -> Difficulty {
        let hardest = self.steps.iter().map(|s| s.cost).max().unwrap_or(Cost {
            constraints: 0,
            premises: 0,
            weight: 0,
        });
        let total = self
            .steps
            .iter()
            .map(|s| (s.cost.constraints * s.cost.premises) as u64 + s.cost.weight)
            .sum();
        Difficulty {
            hardest,
            total,
            steps: self.steps.len(),
        }
    }
}

/// The step-wise explanation from `facts`: the next step, added to the
/// facts, again, until the state is solved, propagation stops (search is
/// needed) or it is contradictory.
pub fn explain(model: &Model, facts: &[Literal], options: &Options) -> Result<Sequence, HintError> {
    let mut state: Vec<Literal> = facts.to_vec();
    let mut steps = Vec::new();
    loop {
        if steps.len() >= options.max_steps {
            return Ok(Sequence {
                steps,
                end: End::StepLimit,
            });
        }
        let end = match next_step(model, &state, options)? {
            Next::Step(s) => {
                state.push(s.deduction);
                steps.push(s);
                continue;
            }
            Next::Solved => End::Solved,
            Next::SearchNeeded { var, values } => End::SearchNeeded { var, values },
            Next::Contradiction(_) => End::Contradiction,
        };
        return Ok(Sequence { steps, end });
    }
}

/// The answer of [`check_step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The premises and the constraints imply the deduction.
    Implied,
    /// There is an assignment of the constraints' scopes that satisfies the
    /// premises and the constraints and not the deduction.
    Refuted,
    /// The budget ran out first.
    Unknown,
}

/// The independent checker: do `premises` and `constraints` imply
/// `deduction`? A depth-first search with forward checking, by the
/// constraints' checkers only ([`Constraint::is_consistent_partial`](crate::Constraint::is_consistent_partial)
/// and [`Constraint::is_satisfied`](crate::Constraint::is_satisfied)), over
/// the variables of their scopes and the deduction's, with the declared
/// domains cut down by the premises, for an assignment that violates the
/// deduction; `budget` nodes at most.
///
/// ```
/// use csp_core::hints::{check_step, Verdict};
/// use csp_core::{Domain, Literal, Model};
/// let mut m = Model::new();
/// let x = m.new_vars(3, Domain::range(1, 3)).unwrap();
/// let c = m.all_different(&x).unwrap();
/// // x0 = 1 and x1 = 2 imply x2 = 3; x0 = 1 alone does not.
/// let prem = [Literal::Eq(x[0], 1), Literal::Eq(x[1], 2)];
/// assert_eq!(check_step(&m, &prem, &[c], Literal::Eq(x[2], 3), 1000), Verdict::Implied);
/// assert_eq!(check_step(&m, &prem[..1], &[c], Literal::Eq(x[2], 3), 1000), Verdict::Refuted);
/// ```
pub fn check_step(
    model: &Model,
    premises: &[Literal],
    constraints: &[ConstraintId],
    deduction: Literal,
    budget: u64,
) -> Verdict {
    match counterexample(model, premises, constraints, Some(deduction), budget) {
        Some(true) => Verdict::Refuted,
        Some(false) => Verdict::Implied,
        None => Verdict::Unknown,
    }
}

/// Can `premises` and `constraints` hold together (with `not` violated,
/// when given)? `None` when the budget ran out.
fn counterexample(
    model: &Model,
    premises: &[Literal],
    constraints: &[ConstraintId],
    not: Option<Literal>,
    budget: u64,
) -> Option<bool> {
    let mut vars: Vec<VarId> = Vec::new();
    for &c in constraints {
        if c.index() >= model.num_constraints() {
            return Some(true); // not a constraint: nothing is implied
        }
        vars.extend_from_slice(model.constraint(c).scope());
    }
    if let Some(l) = not {
        vars.push(l.var());
    }
    vars.sort_unstable();
    vars.dedup();
    let mut doms: Vec<Vec<Value>> = Vec::with_capacity(vars.len());
    for &x in &vars {
        if x.index() >= model.num_vars() {
            return Some(true);
        }
        let d: Vec<Value> = model
            .domain(x)
            .iter()
            .filter(|&v| {
                premises.iter().all(|p| p.var() != x || p.admits(v))
                    && not.is_none_or(|l| l.var() != x || !l.admits(v))
            })
            .collect();
        doms.push(d);
    }
    let pos = |x: VarId| vars.binary_search(&x).ok();
    // Each constraint's scope as positions in `vars`.
    let scopes: Vec<Vec<usize>> = constraints
        .iter()
        .map(|&c| {
            model
                .constraint(c)
                .scope()
                .iter()
                .map(|&x| pos(x).unwrap_or(0))
                .collect()
        })
        .collect();
    // Which constraints each variable is in.
    let mut watch: Vec<Vec<usize>> = vec![Vec::new(); vars.len()];
    for (i, s) in scopes.iter().enumerate() {
        for &p in s {
            if !watch[p].contains(&i) {
                watch[p].push(i);
            }
        }
    }
    let mut search = Dfs {
        model,
        constraints,
        scopes: &scopes,
        watch: &watch,
        assigned: vec![None; vars.len()],
        nodes: 0,
        budget,
        buf: Vec::new(),
    };
    search.run(doms)
}

struct Dfs<'a> {
    model: &'a Model,
    constraints: &'a [ConstraintId],
    scopes: &'a [Vec<usize>],
    watch: &'a [Vec<usize>],
    assigned: Vec<Option<Value>>,
    nodes: u64,
    budget: u64,
    buf: Vec<Option<Value>>,
}

impl Dfs<'_> {
    fn consistent(&mut self, ci: usize) -> bool {
        self.buf.clear();
        self.buf
            .extend(self.scopes[ci].iter().map(|&p| self.assigned[p]));
        self.model
            .constraint(self.constraints[ci])
            .is_consistent_partial(&self.buf)
    }

    /// Is there an assignment extending the current one within `doms`?
    fn run(&mut self, doms: Vec<Vec<Value>>) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        // The unassigned variable with the fewest values.
        let mut pick: Option<usize> = None;
        for (p, d) in doms.iter().enumerate() {
            if self.assigned[p].is_some() {
                continue;
            }
            if d.is_empty() {
                return Some(false);
            }
            if pick.is_none_or(|q| d.len() < doms[q].len()) {
                pick = Some(p);
            }
        }
        let Some(p) = pick else {
            return Some(true); // every variable assigned consistently
        };
        for &v in &doms[p] {
            self.assigned[p] = Some(v);
            let ok = (0..self.watch[p].len()).all(|i| {
                let ci = self.watch[p][i];
                self.consistent(ci)
            });
            if ok {
                // Forward checking: filter the other unassigned domains.
                let mut next = doms.clone();
                next[p] = vec![v];
                let mut wiped = false;
                for (q, d) in next.iter_mut().enumerate() {
                    if self.assigned[q].is_some() || wiped {
                        continue;
                    }
                    let shares = self.watch[q].iter().any(|c| self.watch[p].contains(c));
                    if !shares {
                        continue;
                    }
                    let mut keep = Vec::with_capacity(d.len());
                    for &w in d.iter() {
                        self.assigned[q] = Some(w);
                        let good = (0..self.watch[q].len()).all(|i| {
                            let ci = self.watch[q][i];
                            self.consistent(ci)
                        });
                        if good {
                            keep.push(w);
                        }
                    }
                    self.assigned[q] = None;
                    wiped = keep.is_empty();
                    *d = keep;
                }
                if !wiped {
                    match self.run(next) {
                        Some(false) => {}
                        other => {
                            self.assigned[p] = None;
                            return other;
                        }
                    }
                }
            }
            self.assigned[p] = None;
        }
        Some(false)
    }
}

/// Why there is no solution: a minimal set of `givens` that cannot hold
/// together, and the explanation of their contradiction.
#[derive(Clone, Debug)]
pub struct NoSolution {
    /// A minimal conflicting subset of the givens: without any one of them
    /// the rest are consistent as far as the check goes (propagation, and
    /// a bounded search when propagation alone does not refute them).
    pub conflict: Vec<Literal>,
    /// Propagation's explanation of the contradiction of `conflict`, when
    /// propagation alone refutes it (`None` when search was needed).
    pub explanation: Option<Box<Explanation>>,
}

/// Do `givens` refute the model? Propagation, then a depth-first search of
/// at most `budget` nodes. `None`: the budget ran out.
fn refuted(
    model: &Model,
    givens: &[Literal],
    options: &Options,
) -> Result<Option<bool>, HintError> {
    let mut ex = match explainer(model, givens, options)? {
        Ok(ex) => ex,
        Err(_) => return Ok(Some(true)),
    };
    match ex.propagate() {
        Ok(()) => {}
        Err(Failed::Conflict(_)) => return Ok(Some(true)),
        Err(Failed::Invalid(e)) => return Err(HintError::Limit(e.to_string())),
        Err(Failed::Limit(l)) => return Err(HintError::Limit(l.to_string())),
    }
    let mut nodes = 0u64;
    Ok(dfs_refutes(model, &mut ex, &mut nodes, options.search_budget).map(|sat| !sat))
}

/// Is there a solution below the explainer's current state? `None`: the
/// node budget ran out.
fn dfs_refutes(
    model: &Model,
    ex: &mut Explainer<'_>,
    nodes: &mut u64,
    budget: u64,
) -> Option<bool> {
    *nodes += 1;
    if *nodes > budget {
        return None;
    }
    let mut best: Option<(VarId, Vec<Value>)> = None;
    for x in model.vars() {
        let v = ex.values(x).unwrap_or_default();
        if v.len() > 1 && best.as_ref().is_none_or(|b| v.len() < b.1.len()) {
            best = Some((x, v));
        }
    }
    let Some((x, values)) = best else {
        return Some(true);
    };
    for v in values {
        let r = match ex.decide(Literal::Eq(x, v)) {
            Ok(()) => dfs_refutes(model, ex, nodes, budget),
            Err(Failed::Conflict(_)) => Some(false),
            Err(_) => None,
        };
        ex.backtrack();
        match r {
            Some(false) => {}
            other => return other,
        }
    }
    Some(false)
}

/// Why `givens` have no solution: a minimal subset of them that cannot
/// hold together (by deletion: start from the givens propagation's
/// contradiction rests on, or all of them, and drop each given whose
/// removal leaves the rest refuted), with the explanation of its
/// contradiction. `Ok(None)` when the givens are not refuted (within the
/// search budget).
///
/// ```
/// use csp_core::hints::{self, Options};
/// use csp_core::{Domain, Literal, Model};
/// let mut m = Model::new();
/// let x = m.new_vars(4, Domain::range(1, 4)).unwrap();
/// m.all_different(&x).unwrap();
/// let givens = [Literal::Eq(x[0], 1), Literal::Eq(x[1], 2), Literal::Eq(x[3], 1)];
/// let why = hints::why_no_solution(&m, &givens, &Options::default()).unwrap().unwrap();
/// assert_eq!(why.conflict, vec![Literal::Eq(x[0], 1), Literal::Eq(x[3], 1)]);
/// ```
pub fn why_no_solution(
    model: &Model,
    givens: &[Literal],
    options: &Options,
) -> Result<Option<NoSolution>, HintError> {
    // Start from what propagation's contradiction rests on, when it finds one.
    let mut set: Vec<Literal> = givens.to_vec();
    let first = match explainer(model, givens, options)? {
        Err(e) => Some(e),
        Ok(mut ex) => match ex.propagate() {
            Err(Failed::Conflict(e)) => Some(e),
            _ => None,
        },
    };
    if let Some(e) = first {
        let g = e.givens();
        if !g.is_empty() {
            set = g;
        }
    }
    if refuted(model, &set, options)? != Some(true) {
        set = givens.to_vec();
        if refuted(model, &set, options)? != Some(true) {
            return Ok(None);
        }
    }
    // Deletion.
    let mut i = 0;
    while i < set.len() {
        let mut without = set.clone();
        without.remove(i);
        if refuted(model, &without, options)? == Some(true) {
            set = without;
        } else {
            i += 1;
        }
    }
    // Keep the callers' order.
    let mut conflict: Vec<Literal> = givens.iter().copied().filter(|g| set.contains(g)).collect();
    conflict.dedup();
    let explanation = match explainer(model, &conflict, options)? {
        Err(e) => Some(e),
        Ok(mut ex) => match ex.propagate() {
            Err(Failed::Conflict(e)) => Some(e),
            _ => None,
        },
    };
    Ok(Some(NoSolution {
        conflict,
        explanation,
    }))
}

/// Is `conflict` unsatisfiable with `constraints` alone, by the
/// independent checker (over those constraints' scopes)? For checking a
/// [`NoSolution`] whose explanation names the constraints.
pub fn check_conflict(
    model: &Model,
    conflict: &[Literal],
    constraints: &[ConstraintId],
    budget: u64,
) -> Verdict {
    match counterexample(model, conflict, constraints, None, budget) {
        Some(true) => Verdict::Refuted,
        Some(false) => Verdict::Implied,
        None => Verdict::Unknown,
    }
}

/// Why a model has no solution, by its constraints: a set of them that
/// cannot hold together (see [`why_no_solution_constraints`]).
#[derive(Clone, Debug)]
pub struct ConstraintConflict {
    /// The constraints, ascending: with the variables' declared domains
    /// and the givens, they have no solution.
    pub constraints: Vec<ConstraintId>,
    /// True when every check behind the set was settled: then without any
    /// one of the constraints the rest have a solution (one was found). False
    /// when a check ran out of its budget (or the time limit passed):
    /// the set still has no solution, but may not be minimal.
    pub minimal: bool,
    /// How `constraints` alone are refuted.
    pub refutation: Refutation,
    /// The consistency checks made (each a propagation and, when that is
    /// not enough, a bounded search over a subset of the constraints).
    pub checks: u64,
    labels: Vec<String>,
}

/// How a [`ConstraintConflict`]'s constraints are refuted.
#[derive(Clone, Debug)]
pub enum Refutation {
    /// By propagation alone: the explanation of the contradiction.
    Propagation(Box<Explanation>),
    /// Propagation alone does not refute them: a search of this many nodes
    /// did.
    Search {
        /// The search's nodes.
        nodes: u64,
    },
    /// Refuted as part of the larger sets QuickXplain checked, but their
    /// own search ran out of its budget.
    Inferred,
}

impl ConstraintConflict {
    /// The constraints as explanations show them, kind then id and name
    /// (`all-different (c0 "row 1")`), in the order of `constraints`.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }
}

impl fmt::Display for ConstraintConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.constraints.len();
        writeln!(
            f,
            "{n} constraint{} cannot hold together{}:",
            if n == 1 { "" } else { "s" },
            if self.minimal {
                " (minimal: without any one of them there is a solution)"
            } else {
                " (not proved minimal: a check ran out of budget)"
            }
        )?;
        if n == 0 {
            writeln!(f, "  (none: the declared domains and the givens alone)")?;
        }
        for l in &self.labels {
            writeln!(f, "  {l}")?;
        }
        match &self.refutation {
            Refutation::Propagation(e) => write!(f, "propagation refutes them:\n{e}"),
            Refutation::Search { nodes } => writeln!(
                f,
                "propagation alone does not refute them: a search of {nodes} nodes did"
            ),
            Refutation::Inferred => writeln!(
                f,
                "refuted within larger sets; their own search ran out of budget"
            ),
        }
    }
}

/// What [`why_no_solution_constraints`] found.
#[derive(Clone, Debug)]
pub enum Diagnosis {
    /// The model has no solution: a set of its constraints that cannot
    /// hold together.
    Conflict(ConstraintConflict),
    /// The model has a solution (with the givens): one, a value per
    /// variable, checked against every constraint ([`Model::check`]).
    HasSolution(Vec<Value>),
    /// The budget ran out before the whole model was refuted or solved.
    Unknown,
}

/// The answer of one consistency check.
enum Check {
    /// No solution; propagation's explanation when it alone refutes, and
    /// the search nodes used.
    Refuted(Option<Box<Explanation>>, u64),
    /// A solution.
    Solution(Vec<Value>),
    /// The budget ran out.
    Unknown,
}

/// The state of one [`why_no_solution_constraints`] run: the model, the
/// givens, the budgets, and what the checks found.
struct Diagnoser<'a> {
    model: &'a Model,
    givens: &'a [Literal],
    options: &'a Options,
    start: std::time::Instant,
    checks: u64,
    nodes: u64,
    /// Some check could not be settled.
    unsettled: bool,
    /// The run's limits apply (off for the last check, which only
    /// explains a set already known to be refuted).
    limited: bool,
}

impl Diagnoser<'_> {
    /// Out of time (the search options' time limit) or cancelled, or the
    /// total node budget (the search options' node limit) is spent?
    fn out_of_budget(&self) -> bool {
        let l = &self.options.search.limits;
        l.time.is_some_and(|t| self.start.elapsed() >= t)
            || l.cancel.as_ref().is_some_and(|c| c.is_cancelled())
            || l.nodes.is_some_and(|n| self.nodes >= n)
    }

    /// Do the givens with `set` (and the declared domains) have a solution?
    fn check(&mut self, set: &[ConstraintId]) -> Result<Check, HintError> {
        if self.limited && self.out_of_budget() {
            self.unsettled = true;
            return Ok(Check::Unknown);
        }
        self.checks += 1;
        let mut search = self.options.search.clone();
        search.limits.nodes = None;
        search.limits.solutions = None;
        search.limits.time = match search.limits.time {
            Some(t) if self.limited => Some(t.saturating_sub(self.start.elapsed())),
            _ => None,
        };
        let mut ex = Explainer::with_constraints(self.model, search, set)
            .map_err(|e| HintError::Limit(e.to_string()))?;
        for (index, &lit) in self.givens.iter().enumerate() {
            match ex.given(lit) {
                Ok(()) => {}
                Err(Failed::Conflict(e)) => return Ok(Check::Refuted(Some(e), 0)),
                Err(Failed::Invalid(_)) => return Err(HintError::UnknownVariable { index, lit }),
                Err(Failed::Limit(_)) => {
                    self.unsettled = true;
                    return Ok(Check::Unknown);
                }
            }
        }
        match ex.propagate() {
            Ok(()) => {}
            Err(Failed::Conflict(e)) => return Ok(Check::Refuted(Some(e), 0)),
            Err(Failed::Invalid(e)) => return Err(HintError::Limit(e.to_string())),
            Err(Failed::Limit(_)) => {
                self.unsettled = true;
                return Ok(Check::Unknown);
            }
        }
        // Branch only on the variables the constraints or the givens
        // mention: any value of the others' declared domains will do.
        let mut vars: Vec<VarId> = set
            .iter()
            .flat_map(|&c| self.model.constraint(c).scope().iter().copied())
            .chain(self.givens.iter().map(|l| l.var()))
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let mut sub = SubSearch {
            model: self.model,
            set,
            vars: &vars,
            nodes: 0,
            budget: self.options.search_budget,
            buf: Vec::new(),
        };
        let found = sub.run(&mut ex);
        self.nodes += sub.nodes;
        Ok(match found {
            Some(Some(values)) => Check::Solution(values),
            Some(None) => Check::Refuted(None, sub.nodes),
            None => {
                self.unsettled = true;
                Check::Unknown
            }
        })
    }

    /// Is the set refuted? An unsettled check counts as not refuted:
    /// sound (the constraint in doubt is kept), not proved minimal.
    fn refuted(&mut self, set: &[ConstraintId]) -> Result<bool, HintError> {
        Ok(matches!(self.check(set)?, Check::Refuted(..)))
    }

    /// QuickXplain (Junker, AAAI 2004): with `background` refuted together
    /// with `c` (and `added` telling whether the last call added to the
    /// background), a subset of `c` that `background` needs to be refuted,
    /// minimal when every check is settled. Splitting `c` in halves costs
    /// O(k log(n/k)) checks for a conflict of k among n constraints,
    /// where deletion costs n.
    fn quickxplain(
        &mut self,
        background: &mut Vec<ConstraintId>,
        added: bool,
        c: &[ConstraintId],
    ) -> Result<Vec<ConstraintId>, HintError> {
        if added && self.refuted(background)? {
            return Ok(Vec::new());
        }
        if c.len() <= 1 {
            return Ok(c.to_vec());
        }
        let (c1, c2) = c.split_at(c.len() / 2);
        let len = background.len();
        background.extend_from_slice(c1);
        let d2 = self.quickxplain(background, !c1.is_empty(), c2)?;
        background.truncate(len);
        background.extend_from_slice(&d2);
        let d1 = self.quickxplain(background, !d2.is_empty(), c1)?;
        background.truncate(len);
        let mut d = d1;
        d.extend(d2);
        Ok(d)
    }
}

/// The constraints an explanation uses (its steps' and its contradiction's).
fn constraints_of(e: &Explanation) -> Vec<ConstraintId> {
    let mut cs: Vec<ConstraintId> = e
        .steps
        .iter()
        .flat_map(|s| match &s.by {
            By::Constraints(c) => c.clone(),
            _ => Vec::new(),
        })
        .chain(e.contradiction.iter().flat_map(|(c, _)| c.iter().copied()))
        .collect();
    cs.sort_unstable();
    cs.dedup();
    cs
}

/// A depth-first search of a check: branches on `vars`, smallest domain
/// first, and checks every leaf against the constraints of `set`.
struct SubSearch<'a> {
    model: &'a Model,
    set: &'a [ConstraintId],
    vars: &'a [VarId],
    nodes: u64,
    budget: u64,
    buf: Vec<Value>,
}

impl SubSearch<'_> {
    /// A solution below the explainer's state (`Some(None)`: none);
    /// `None` when the budget ran out.
    fn run(&mut self, ex: &mut Explainer<'_>) -> Option<Option<Vec<Value>>> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let mut best: Option<(VarId, Vec<Value>)> = None;
        for &x in self.vars {
            let v = ex.values(x).unwrap_or_default();
            if v.len() > 1 && best.as_ref().is_none_or(|b| v.len() < b.1.len()) {
                best = Some((x, v));
            }
        }
        let Some((x, values)) = best else {
            // Every variable in play is fixed: a solution if every
            // constraint's checker agrees (a caller's propagator may prune
            // too little), with the others at their first values.
            let values: Vec<Value> = self
                .model
                .vars()
                .map(|y| {
                    ex.values(y)
                        .ok()
                        .and_then(|v| v.first().copied())
                        .unwrap_or(0)
                })
                .collect();
            let ok = self.set.iter().all(|&c| {
                let k = self.model.constraint(c);
                self.buf.clear();
                self.buf.extend(k.scope().iter().map(|y| values[y.index()]));
                k.is_satisfied(&self.buf)
            });
            return Some(ok.then_some(values));
        };
        for v in values {
            let r = match ex.decide(Literal::Eq(x, v)) {
                Ok(()) => self.run(ex),
                Err(Failed::Conflict(_)) => Some(None),
                Err(_) => None,
            };
            ex.backtrack();
            match r {
                Some(None) => {}
                other => return other,
            }
        }
        Some(None)
    }
}

/// Why `model` has no solution, by its constraints: a minimal set of them
/// that cannot hold together, each shown by kind, id and name
/// ([`Model::name_constraint`]), with propagation's explanation of their
/// contradiction, or the fact that search was needed to refute them.
///
/// The variables' declared domains and the `givens` are the background:
/// they always hold, and the set is minimal among the constraints (without
/// any one of its constraints the rest, with the background, have a
/// solution). When the background alone has no solution the set is empty.
///
/// **How.** A consistency check of a subset runs the explained kernel
/// with the other constraints switched off ([`Explainer::with_constraints`]):
/// propagation, then a depth-first search of at most
/// [`Options::search_budget`] nodes. First the whole model is checked (a
/// solution is returned as [`Diagnosis::HasSolution`]); when propagation
/// refutes a set, the constraints its explanation uses are a smaller
/// refuted set, and that shrinks it at no cost. Then QuickXplain (Junker,
/// "QUICKXPLAIN: preferred explanations and relaxations for
/// over-constrained problems", AAAI 2004) minimises it with
/// O(k log(n/k)) checks for k constraints among n; deletion would need n,
/// each over up to n constraints.
///
/// **Limits.** A check that runs out of its node budget counts as "has a
/// solution", so the constraint in doubt is kept: the set still has no
/// solution, but is marked not [`minimal`](ConstraintConflict::minimal).
/// The search options' time, cancel and node limits
/// (`options.search.limits`) bound the whole run the same way. When the
/// whole model cannot be settled, the answer is [`Diagnosis::Unknown`].
///
/// ```
/// use csp_core::hints::{self, Diagnosis, Options};
/// use csp_core::{Domain, Model, Relation};
/// let mut m = Model::new();
/// let x = m.new_var_named("x", Domain::range(0, 9))?;
/// let y = m.new_var_named("y", Domain::range(0, 9))?;
/// let sum = m.linear(&[(1, x), (1, y)], Relation::Eq, 12)?;
/// m.name_constraint(sum, "x + y = 12")?;
/// let c = m.less_eq(x, y, 0)?; // x ≤ y
/// m.name_constraint(c, "x before y")?;
/// let c = m.linear(&[(1, y)], Relation::Le, 5)?;
/// m.name_constraint(c, "y small")?;
/// let c = m.not_equal(x, y, 0)?;
/// m.name_constraint(c, "x differs from y")?;
/// let Diagnosis::Conflict(why) = hints::why_no_solution_constraints(&m, &[], &Options::default())? else {
///     panic!("no solution")
/// };
/// // x + y = 12 and y ≤ 5 need x ≥ 7 > y: "x differs from y" plays no part.
/// assert!(why.minimal);
/// assert_eq!(
///     why.labels(),
///     ["linear (c0 \"x + y = 12\")", "less-eq (c1 \"x before y\")", "linear (c2 \"y small\")"]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn why_no_solution_constraints(
    model: &Model,
    givens: &[Literal],
    options: &Options,
) -> Result<Diagnosis, HintError> {
    let mut d = Diagnoser {
        model,
        givens,
        options,
        start: std::time::Instant::now(),
        checks: 0,
        nodes: 0,
        unsettled: false,
        limited: true,
    };
    let all: Vec<ConstraintId> = model.constraints().map(|(c, _)| c).collect();
    let mut set = match d.check(&all)? {
        Check::Solution(values) => {
            // Checked against every constraint, not just trusted.
            return Ok(match model.check(&values) {
                Ok(()) => Diagnosis::HasSolution(values),
                Err(e) => return Err(HintError::Refuted(format!("the solution found: {e}"))),
            });
        }
        Check::Unknown => return Ok(Diagnosis::Unknown),
        Check::Refuted(Some(e), _) => constraints_of(&e),
        Check::Refuted(None, _) => all.clone(),
    };
    // Shrink by the explanations while they name fewer constraints.
    loop {
        match d.check(&set)? {
            Check::Refuted(Some(e), _) => {
                let smaller = constraints_of(&e);
                if smaller.len() >= set.len() {
                    break;
                }
                set = smaller;
            }
            Check::Refuted(None, _) => break,
            // The explanation's constraints are not refuted without the
            // rest (a reason the checks cannot confirm): start over from all.
            Check::Solution(_) | Check::Unknown => {
                set = all;
                break;
            }
        }
    }
    let mut background = Vec::new();
    let mut conflict = if d.refuted(&[])? {
        Vec::new()
    } else {
        d.quickxplain(&mut background, false, &set)?
    };
    conflict.sort_unstable();
    let minimal = !d.unsettled;
    d.limited = false;
    let refutation = match d.check(&conflict)? {
        Check::Refuted(Some(e), _) => Refutation::Propagation(e),
        Check::Refuted(None, nodes) => Refutation::Search { nodes },
        Check::Unknown => Refutation::Inferred,
        // QuickXplain's answer is refuted by construction, from sound
        // refutations: a solution means a wrong one.
        Check::Solution(_) => {
            return Err(HintError::Refuted(
                "a conflict that has a solution".to_string(),
            ))
        }
    };
    let labels = conflict
        .iter()
        .map(|&c| crate::explain::shown(model, c))
        .collect();
    Ok(Diagnosis::Conflict(ConstraintConflict {
        constraints: conflict,
        minimal,
        refutation,
        checks: d.checks,
        labels,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Domain;

    fn latin(n: usize) -> (Model, Vec<Vec<VarId>>) {
        let mut m = Model::new();
        let x: Vec<Vec<VarId>> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        m.new_var_named(
                            &format!("r{}c{}", r + 1, c + 1),
                            Domain::range(1, n as i32),
                        )
                        .unwrap()
                    })
                    .collect()
            })
            .collect();
        for row in &x {
            m.all_different(row).unwrap();
        }
        for c in 0..n {
            let col: Vec<VarId> = x.iter().map(|row| row[c]).collect();
            m.all_different(&col).unwrap();
        }
        (m, x)
    }

    #[test]
    fn every_step_of_a_latin_square_is_checked_and_ends_solved() {
        let (m, x) = latin(4);
        let facts = vec![
            Literal::Eq(x[0][0], 1),
            Literal::Eq(x[0][1], 2),
            Literal::Eq(x[1][0], 2),
            Literal::Eq(x[2][1], 1),
            Literal::Eq(x[3][3], 2),
            Literal::Eq(x[2][0], 3),
        ];
        let seq = explain(&m, &facts, &Options::default()).unwrap();
        assert!(!seq.steps.is_empty(), "{:?}", seq.end);
        for s in &seq.steps {
            // Independently re-checked, and never a fact already known.
            assert_eq!(
                check_step(&m, &s.premises, &s.constraints, s.deduction, 1_000_000),
                Verdict::Implied,
                "{s}"
            );
            assert!(!facts.contains(&s.deduction));
        }
        // Costs never start with more than one constraint when a
        // one-constraint step exists: the first step uses one.
        assert_eq!(seq.steps[0].cost.constraints, 1);
        let d = seq.difficulty();
        assert_eq!(d.steps, seq.steps.len());
        assert!(matches!(seq.end, End::Solved | End::SearchNeeded { .. }));
    }

    #[test]
    fn search_needed_names_the_smallest_split() {
        let (m, _) = latin(3);
        match next_step(&m, &[], &Options::default()).unwrap() {
            Next::SearchNeeded { values, .. } => assert_eq!(values.len(), 3),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_checker_refutes_a_wrong_step() {
        let (m, x) = latin(3);
        // r1c1 = 1 does not imply r2c2 ≠ 1 by row 1 alone.
        let v = check_step(
            &m,
            &[Literal::Eq(x[0][0], 1)],
            &[ConstraintId(0)],
            Literal::Ne(x[1][1], 1),
            1000,
        );
        assert_eq!(v, Verdict::Refuted);
    }

    #[test]
    fn why_no_solution_is_minimal_and_checked() {
        let (m, x) = latin(4);
        // Row 1 holds 1, 2, 3 and column 4 holds a 4 below: r1c4 has no value.
        let givens = vec![
            Literal::Eq(x[0][0], 1),
            Literal::Eq(x[3][0], 4),
            Literal::Eq(x[0][1], 2),
            Literal::Eq(x[0][2], 3),
            Literal::Eq(x[2][3], 4),
        ];
        let why = why_no_solution(&m, &givens, &Options::default())
            .unwrap()
            .unwrap();
        assert_eq!(
            why.conflict,
            vec![
                Literal::Eq(x[0][0], 1),
                Literal::Eq(x[0][1], 2),
                Literal::Eq(x[0][2], 3),
                Literal::Eq(x[2][3], 4)
            ]
        );
        // Independently: row 1 and column 4 with these givens cannot hold.
        let col4 = ConstraintId(4 + 3);
        assert_eq!(
            check_conflict(&m, &why.conflict, &[ConstraintId(0), col4], 100_000),
            Verdict::Implied
        );
        // And minimal: without any one of them, the two are satisfiable.
        for i in 0..why.conflict.len() {
            let mut less = why.conflict.clone();
            less.remove(i);
            assert_eq!(
                check_conflict(&m, &less, &[ConstraintId(0), col4], 100_000),
                Verdict::Refuted
            );
        }
        assert!(why.explanation.is_some());
        // A consistent set of givens has no conflict.
        assert!(why_no_solution(&m, &givens[..2], &Options::default())
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_fact_over_an_unknown_variable_is_a_typed_error() {
        let (m, _) = latin(2);
        let bad = Literal::Eq(VarId::from_index(99), 1);
        assert_eq!(
            next_step(&m, &[bad], &Options::default()).unwrap_err(),
            HintError::UnknownVariable { index: 0, lit: bad }
        );
    }
}
