//! A brute-force harness for checking constraints and search against their
//! checkers (the opt-in `testing` feature: `csp-core = { version =
//! "0.1", features = ["testing"] }`, usually as a dev-dependency).
//!
//! [`check_model`] enumerates every assignment of a small model's declared
//! domains, keeps those the model's checkers accept, and compares that set
//! with what the search finds at every inference level, variable order and
//! value order, and with what the counting and parallel paths report. This is
//! step 2 of the "how to add a constraint" checklist in [`crate::constraint`].
//!
//! ```
//! use csp_core::{testing, Domain, Relation};
//! // The built-in linear constraint against brute force on three small domains.
//! testing::check_constraint(&[Domain::range(-2, 2), Domain::range(0, 3), Domain::values([1, 4])], |m, v| {
//!     m.linear(&[(2, v[0]), (-1, v[1]), (3, v[2])], Relation::Le, 4).map(|_| ())
//! })
//! .unwrap();
//! ```

use std::collections::BTreeSet;
use std::fmt;

use crate::{
    Domain, Inference, Model, ModelError, Restarts, RootWeights, Search, SearchOptions, ValOrder,
    Value, VarId, VarOrder,
};

#[doc(hidden)]
pub use crate::search::learning::parallel::par_learning_optimize;
pub use crate::search::learning::{
    learned_nogoods, lns_counts, nogood_memory, LearnedNogood, LnsCounts, MemorySample,
};

/// The largest number of assignments [`brute_force`] will enumerate.
pub const MAX_ASSIGNMENTS: u64 = 2_000_000;

/// A difference between the search and brute force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Which configuration disagreed.
    pub config: String,
    /// What went wrong.
    pub detail: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.config, self.detail)
    }
}

impl std::error::Error for Mismatch {}

/// Every solution of `model`, by enumerating all assignments of its declared
/// domains in lexicographic order. `None` if there are more than
/// [`MAX_ASSIGNMENTS`].
pub fn brute_force(model: &Model) -> Option<Vec<Vec<Value>>> {
    let doms: Vec<Vec<Value>> = model
        .vars()
        .map(|x| model.domain(x).iter().collect())
        .collect();
    let mut total: u64 = 1;
    for d in &doms {
        total = total.checked_mul(d.len() as u64)?;
    }
    if total > MAX_ASSIGNMENTS {
        return None;
    }
    let n = doms.len();
    let mut idx = vec![0usize; n];
    let mut values: Vec<Value> = doms.iter().map(|d| d[0]).collect();
    let mut out = Vec::new();
    loop {
        if model.check(&values).is_ok() {
            out.push(values.clone());
        }
        let mut p = n;
        loop {
            if p == 0 {
                return Some(out);
            }
            p -= 1;
            idx[p] += 1;
            if idx[p] < doms[p].len() {
                values[p] = doms[p][idx[p]];
                break;
            }
            idx[p] = 0;
            values[p] = doms[p][0];
        }
    }
}

/// [`all_configurations`] fitted to `model`: the decision variables past
/// its size dropped (and the phases cut to those left), so that the
/// entry points, which reject a variable the model does not have
/// ([`Search::validate`](crate::Search::validate)), accept every one.
pub fn configurations_for(model: &Model, seed: u64) -> Vec<SearchOptions> {
    all_configurations(seed)
        .into_iter()
        .map(|o| fitted(model, o))
        .collect()
}

/// One configuration of [`all_configurations`] fitted to `model` (as
/// [`configurations_for`] fits them all).
///
/// Each phase keeps the variables of its own that the model has, and a
/// phase left with none stays as an empty phase, so the phases' own orders
/// ([`SearchOptions::phase_orders`]) still apply to the same phases: the
/// search is the one the unfitted configuration describes.
pub fn fitted(model: &Model, mut o: SearchOptions) -> SearchOptions {
    let n = model.num_vars();
    let mut start = 0usize;
    let phases: Vec<usize> = o
        .phases
        .iter()
        .map(|&p| {
            let end = start.saturating_add(p).min(o.decision_vars.len());
            let kept = o.decision_vars[start.min(end)..end]
                .iter()
                .filter(|x| x.index() < n)
                .count();
            start = end;
            kept
        })
        .collect();
    o.phases = phases;
    o.decision_vars.retain(|x| x.index() < n);
    o
}

/// All search configurations the harness tries.
pub fn all_configurations(seed: u64) -> Vec<SearchOptions> {
    let mut out = Vec::new();
    for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
        for var_order in [
            VarOrder::Input,
            VarOrder::Mrv,
            VarOrder::DomDeg,
            VarOrder::DomWdeg,
            VarOrder::Smallest,
            VarOrder::Largest,
        ] {
            for val_order in [
                ValOrder::Ascending,
                ValOrder::Descending,
                ValOrder::Middle,
                ValOrder::Random { seed },
                ValOrder::Split,
                ValOrder::ReverseSplit,
                ValOrder::BinaryMin,
                ValOrder::BinaryMax,
            ] {
                // Restarts after every failure or two where the order
                // learns from failures (solve and optimisation use them;
                // counting and enumeration ignore them).
                let restarts = match (var_order, val_order) {
                    (VarOrder::DomWdeg, ValOrder::Random { .. }) => Restarts::Luby { scale: 1 },
                    (VarOrder::DomWdeg, ValOrder::Middle)
                    | (VarOrder::Largest, ValOrder::Split) => Restarts::Geometric {
                        base: 1,
                        factor: 1.5,
                    },
                    (VarOrder::DomWdeg, ValOrder::Split) => Restarts::Luby { scale: 2 },
                    _ => Restarts::None,
                };
                // Branching on chosen variables first (those beyond a
                // model's size are ignored).
                let decision_vars = match (var_order, val_order) {
                    (VarOrder::Input, ValOrder::Descending)
                    | (VarOrder::DomDeg, ValOrder::Ascending)
                    | (VarOrder::Input, ValOrder::Split)
                    | (VarOrder::Smallest, ValOrder::ReverseSplit)
                    | (VarOrder::DomWdeg, ValOrder::ReverseSplit) => {
                        vec![VarId::from_index(2), VarId::from_index(0)]
                    }
                    (VarOrder::Smallest | VarOrder::Mrv, ValOrder::Descending) => vec![
                        VarId::from_index(3),
                        VarId::from_index(1),
                        VarId::from_index(0),
                    ],
                    _ => Vec::new(),
                };
                // Phases: one variable, then the others.
                let phases = if decision_vars.len() == 3 {
                    vec![1]
                } else {
                    Vec::new()
                };
                // Phases with their own orders (FlatZinc's seq_search):
                // a first phase that bisects or ascends, the rest descending.
                let phase_orders = match (var_order, phases.len()) {
                    (VarOrder::Smallest, 1) => vec![(VarOrder::Largest, ValOrder::Split)],
                    (VarOrder::Mrv, 1) => vec![(VarOrder::Input, ValOrder::Ascending)],
                    _ => Vec::new(),
                };
                // Last-conflict reasoning on a spread of orders, with and
                // without restarts and decision variables.
                let last_conflict = matches!(
                    (var_order, val_order),
                    (VarOrder::Mrv, ValOrder::Descending | ValOrder::Split)
                        | (
                            VarOrder::DomWdeg,
                            ValOrder::Ascending
                                | ValOrder::Random { .. }
                                | ValOrder::Split
                                | ValOrder::ReverseSplit
                        )
                        | (VarOrder::Input, ValOrder::Split | ValOrder::Middle)
                        | (VarOrder::Largest, ValOrder::Middle | ValOrder::Split)
                        | (VarOrder::Smallest, ValOrder::Ascending)
                );
                out.push(SearchOptions {
                    inference,
                    var_order,
                    val_order,
                    limits: Default::default(),
                    restarts,
                    decision_vars,
                    phases,
                    phase_orders,
                    last_conflict,
                    // Root weights halved or reset under dom/wdeg (with and
                    // without restarts and decision variables).
                    root_weights: match (var_order, val_order) {
                        (VarOrder::DomWdeg, ValOrder::Ascending) => RootWeights::Keep,
                        (VarOrder::DomWdeg, ValOrder::Descending | ValOrder::Split) => {
                            RootWeights::Halve
                        }
                        (VarOrder::DomWdeg, _) => RootWeights::Reset,
                        _ => RootWeights::Keep,
                    },
                    validate: true,
                    learning: false,
                    learning_order: Default::default(),
                    lns: false,
                    // Explaining mode on a spread of configurations: it
                    // must not change what the search finds.
                    explain: matches!(
                        (var_order, val_order),
                        (VarOrder::Input, ValOrder::Ascending)
                            | (VarOrder::Mrv, ValOrder::Split)
                            | (VarOrder::DomWdeg, ValOrder::Descending)
                    ),
                });
            }
        }
    }
    out
}

/// Compares the search with brute force on `model` under every configuration:
/// the same solution set (no solution lost, none invented, none twice), the
/// same count from `count()` and `par_count()`, and the right answer from
/// `solve()` and `is_unique()`.
pub fn check_model(model: &Model) -> Result<(), Mismatch> {
    let expected: BTreeSet<Vec<Value>> = brute_force(model)
        .ok_or_else(|| Mismatch {
            config: "brute force".into(),
            detail: format!("the model has more than {MAX_ASSIGNMENTS} assignments"),
        })?
        .into_iter()
        .collect();
    for (k, opts) in configurations_for(model, 0x5EED).into_iter().enumerate() {
        let config = format!(
            "{:?}/{:?}/{:?}{}",
            opts.inference,
            opts.var_order,
            opts.val_order,
            if opts.last_conflict {
                "/last-conflict"
            } else {
                ""
            }
        );
        let fail = |detail: String| Mismatch {
            config: config.clone(),
            detail,
        };
        if let Err(e) = Search::new(model).options(opts.clone()).validate() {
            // A constraint over nothing that fails: no solution, said
            // before the search starts.
            if matches!(e, crate::SearchError::EmptyScope { .. }) && expected.is_empty() {
                continue;
            }
            return Err(fail(format!("rejected: {e}")));
        }
        let found: Vec<Vec<Value>> = Search::new(model)
            .options(opts.clone())
            .solutions_unchecked()
            .map(|s| s.into_values())
            .collect();
        let set: BTreeSet<Vec<Value>> = found.iter().cloned().collect();
        if set.len() != found.len() {
            return Err(fail("a solution was reported twice".into()));
        }
        if let Some(lost) = expected.difference(&set).next() {
            return Err(fail(format!("solution {lost:?} was lost")));
        }
        if let Some(extra) = set.difference(&expected).next() {
            return Err(fail(format!("{extra:?} is not a solution")));
        }
        let count = Search::new(model)
            .options(opts.clone())
            .count_unchecked()
            .count;
        if count != expected.len() as u128 {
            return Err(fail(format!(
                "count() = {count}, expected {}",
                expected.len()
            )));
        }
        if k % 7 == 0 {
            // The same count for any number of threads.
            for threads in [1, 2, 4] {
                let par = Search::new(model)
                    .options(opts.clone())
                    .par_count_unchecked(threads)
                    .count;
                if par != expected.len() as u128 {
                    return Err(fail(format!(
                        "par_count({threads}) = {par}, expected {}",
                        expected.len()
                    )));
                }
            }
            // Under a node limit: a complete answer is exact, a stopped one
            // says so and never overcounts.
            for threads in [0, 2] {
                let mut o = opts.clone();
                o.limits.nodes = Some(3);
                let s = Search::new(model).options(o);
                let r = if threads == 0 {
                    s.count_unchecked()
                } else {
                    s.par_count_unchecked(threads)
                };
                let exact = r.count == expected.len() as u128;
                if (r.outcome.is_complete() && !exact) || r.count > expected.len() as u128 {
                    return Err(fail(format!(
                        "node limit 3 on {threads} threads: {} solutions, {}, expected {}",
                        r.count,
                        r.outcome,
                        expected.len()
                    )));
                }
            }
            let (sols, _) = Search::new(model)
                .options(opts.clone())
                .par_solutions_unchecked(2);
            let pset: BTreeSet<Vec<Value>> = sols.into_iter().map(|s| s.into_values()).collect();
            if pset != expected {
                return Err(fail("par_solutions() differs from brute force".into()));
            }
        }
        let first = Search::new(model)
            .options(opts.clone())
            .solve_unchecked()
            .solution;
        match (&first, expected.is_empty()) {
            (None, false) => return Err(fail("solve() found nothing".into())),
            (Some(s), true) => return Err(fail(format!("solve() invented {:?}", s.values()))),
            _ => {}
        }
    }
    Ok(())
}

/// Builds a model with one variable per domain in `domains`, lets `post` add
/// the constraint under test over them, and runs [`check_model`].
pub fn check_constraint(
    domains: &[Domain],
    post: impl FnOnce(&mut Model, &[VarId]) -> Result<(), ModelError>,
) -> Result<(), Mismatch> {
    let mut m = Model::new();
    let vars: Vec<VarId> = domains
        .iter()
        .map(|d| m.new_var(d.clone()))
        .collect::<Result<_, _>>()
        .map_err(|e| Mismatch {
            config: "model".into(),
            detail: e.to_string(),
        })?;
    post(&mut m, &vars).map_err(|e| Mismatch {
        config: "post".into(),
        detail: e.to_string(),
    })?;
    check_model(&m)?;
    check_explanations(&m)
}

/// A knob for testing the checks themselves: while on (in this thread),
/// every reason the explanation checks expand loses its last premise, so
/// [`check_explanations`] must fail on a constraint whose reasons are
/// minimal.
#[doc(hidden)]
pub fn weaken_reasons(on: bool) {
    crate::explain::WEAKEN.set(on);
}

/// Nodes [`check_explanations`] visits per inference level at most.
pub const EXPLAIN_NODES: usize = 3000;

/// Checks every reason the propagators give, by brute force: a depth-first
/// search in explaining mode ([`Explainer`](crate::Explainer)) at each
/// inference level, deciding `x = v` for the first open variable, and after
/// every propagation, for every literal recorded, that its premises held
/// before it and, with the constraints that gave it, imply it; for every
/// failure, that its premises cannot hold together with those constraints.
/// Visits at most [`EXPLAIN_NODES`] nodes per level.
pub fn check_explanations(model: &Model) -> Result<(), Mismatch> {
    for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
        let options = SearchOptions {
            inference,
            ..SearchOptions::default()
        };
        let mut ex = crate::Explainer::with_options(model, options);
        let config = format!("explanations at {inference:?}");
        let fail = |detail: String| Mismatch {
            config: config.clone(),
            detail,
        };
        let root = ex.propagate();
        ex.audit(MAX_ASSIGNMENTS).map_err(&fail)?;
        match &root {
            Err(crate::explain::Failed::Limit(l)) => {
                return Err(fail(format!("root stopped by {l}")))
            }
            Err(crate::explain::Failed::Invalid(e)) => return Err(fail(e.to_string())),
            _ => {}
        }
        if root.is_ok() {
            let mut nodes = 0;
            explain_dfs(model, &mut ex, &mut nodes).map_err(&fail)?;
        }
    }
    Ok(())
}

fn explain_dfs(
    model: &Model,
    ex: &mut crate::Explainer<'_>,
    nodes: &mut usize,
) -> Result<(), String> {
    let values = |x| ex.values(x).map_err(|e| e.to_string());
    let mut branch = None;
    for x in model.vars() {
        let vs = values(x)?;
        if vs.len() > 1 {
            branch = Some((x, vs));
            break;
        }
    }
    let Some((x, vs)) = branch else {
        return Ok(());
    };
    for v in vs {
        if *nodes >= EXPLAIN_NODES {
            return Ok(());
        }
        *nodes += 1;
        let r = ex.decide(crate::Literal::Eq(x, v));
        ex.audit(MAX_ASSIGNMENTS)
            .map_err(|e| format!("after {x} = {v}: {e}"))?;
        if r.is_ok() {
            explain_dfs(model, ex, nodes)?;
        }
        ex.backtrack();
    }
    Ok(())
}
