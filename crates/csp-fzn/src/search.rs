//! Search annotations: `int_search`, `bool_search`, `seq_search` and the
//! restart annotations, mapped onto [`SearchOptions`].
//!
//! csp branches with one variable order and one value order, on a list of
//! decision variables first and then on every other variable (so that
//! `-a` still enumerates every solution of the FlatZinc model). So:
//!
//! * the variables of every search annotation, in the order written,
//!   become [`SearchOptions::decision_vars`], one
//!   [phase](SearchOptions::phases) per annotation (`seq_search` searches
//!   them one after the other);
//! * each annotation's variable and value selection choose the orders of
//!   its phase ([`SearchOptions::phase_orders`]); the first annotation's
//!   also serve the variables no annotation names:
//!
//! | annotation | csp |
//! |---|---|
//! | `input_order` | [`VarOrder::Input`] |
//! | `first_fail` | [`VarOrder::Mrv`] |
//! | `dom_w_deg` | [`VarOrder::DomWdeg`] |
//! | `smallest` / `largest` | [`VarOrder::Smallest`] / [`VarOrder::Largest`] |
//! | `anti_first_fail`, `occurrence`, `most_constrained`, `max_regret` | the closest csp has: see [`var_order`] |
//! | `indomain_min` / `indomain_max` | [`ValOrder::BinaryMin`] / [`ValOrder::BinaryMax`]: `x = v`, then `x ≠ v` and the variable chosen again, as Gecode branches |
//! | `indomain_median`, `indomain_middle` | [`ValOrder::Middle`] |
//! | `indomain_random` | [`ValOrder::Random`] with the `-r` seed |
//! | `indomain_split` / `indomain_reverse_split` | [`ValOrder::Split`] / [`ValOrder::ReverseSplit`] (bisection) |
//!
//! * `restart_luby(s)`, `restart_geometric(b, f)`, `restart_constant(n)`
//!   and `restart_none` choose [`Restarts`].
//!
//! Without annotations, and with `-f` (free search), the engine's
//! defaults for FlatZinc are dom/wdeg over every variable; `-f` adds Luby
//! restarts (scale 100) for solving and optimising. `-f` while enumerating
//! every solution of a satisfaction model (`-a`, `-n N` with N > 1) keeps
//! the model's annotations: restarts cannot shorten a search that explores
//! the whole tree, and the modeller's order is usually the better one
//! there (see [`crate::run::solve`]).

use csp_core::{Restarts, SearchOptions, ValOrder, VarId, VarOrder};

use crate::ast::{Annotation, Expr};
use crate::build::{FznModel, Val};

/// What the solve item's annotations ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Strategy {
    /// Variables to branch on first, in order.
    pub decision_vars: Vec<VarId>,
    /// How many of them each search annotation gave (the phases of a
    /// `seq_search`, see [`SearchOptions::phases`]).
    pub phases: Vec<usize>,
    /// Per phase, its variable and value order (`None`: unknown, the
    /// default's).
    pub phase_orders: Vec<(Option<VarOrder>, Option<ValOrder>)>,
    /// The variable order of the first search annotation.
    pub var_order: Option<VarOrder>,
    /// The value order of the first search annotation.
    pub val_order: Option<ValOrder>,
    /// Restarts asked for.
    pub restarts: Option<Restarts>,
    /// Annotations that csp approximates or ignores (shown with `-v`).
    pub notes: Vec<String>,
}

/// The csp variable order closest to a FlatZinc variable selection.
pub fn var_order(name: &str) -> Option<VarOrder> {
    Some(match name {
        "input_order" => VarOrder::Input,
        "first_fail" | "anti_first_fail" | "most_constrained" | "max_regret" => VarOrder::Mrv,
        "occurrence" => VarOrder::DomDeg,
        "dom_w_deg" => VarOrder::DomWdeg,
        "smallest" => VarOrder::Smallest,
        "largest" => VarOrder::Largest,
        _ => return None,
    })
}

/// The csp value order closest to a FlatZinc value selection.
pub fn val_order(name: &str, seed: u64) -> Option<ValOrder> {
    Some(match name {
        "indomain_min" | "indomain" => ValOrder::BinaryMin,
        "indomain_max" => ValOrder::BinaryMax,
        "indomain_split" | "indomain_interval" => ValOrder::Split,
        "indomain_reverse_split" => ValOrder::ReverseSplit,
        "indomain_median" | "indomain_middle" => ValOrder::Middle,
        "indomain_random" => ValOrder::Random { seed },
        _ => return None,
    })
}

fn vars_of(fzn: &FznModel, e: &Expr, out: &mut Vec<VarId>) {
    match e {
        Expr::Ident(n, _) => match fzn.lookup(n) {
            Some(Val::Var(x) | Val::Offset(x, _)) => out.push(*x),
            Some(Val::Array(a)) => out.extend(a.iter().filter_map(|v| match v {
                Val::Var(x) | Val::Offset(x, _) => Some(*x),
                _ => None,
            })),
            _ => {}
        },
        Expr::Access(n, i, _) => {
            if let Some(Val::Array(a)) = fzn.lookup(n) {
                if let Some(Val::Var(x) | Val::Offset(x, _)) =
                    usize::try_from(*i - 1).ok().and_then(|k| a.get(k))
                {
                    out.push(*x);
                }
            }
        }
        Expr::Array(es) => es.iter().for_each(|e| vars_of(fzn, e, out)),
        _ => {}
    }
}

fn word(e: Option<&Expr>) -> &str {
    match e {
        Some(Expr::Ident(n, _)) => n,
        Some(Expr::Call(a)) => &a.name,
        _ => "",
    }
}

fn number(e: Option<&Expr>) -> Option<f64> {
    match e {
        Some(Expr::Int(v)) => Some(*v as f64),
        Some(Expr::Float(v)) => Some(*v),
        _ => None,
    }
}

fn visit(fzn: &FznModel, a: &Annotation, seed: u64, s: &mut Strategy) {
    match a.name.as_str() {
        "int_search" | "bool_search" => {
            if let Some(e) = a.args.first() {
                let before = s.decision_vars.len();
                vars_of(fzn, e, &mut s.decision_vars);
                s.phases.push(s.decision_vars.len() - before);
            }
            let (vs, vl) = (word(a.args.get(1)), word(a.args.get(2)));
            if !a.args.is_empty() {
                s.phase_orders.push((var_order(vs), val_order(vl, seed)));
            }
            match var_order(vs) {
                Some(o) => {
                    if s.var_order.is_none() {
                        s.var_order = Some(o);
                    }
                    if matches!(
                        vs,
                        "anti_first_fail" | "occurrence" | "most_constrained" | "max_regret"
                    ) {
                        s.notes.push(format!("{vs}: approximated by {o:?}"));
                    }
                }
                None => s
                    .notes
                    .push(format!("unknown variable selection '{vs}' ignored")),
            }
            match val_order(vl, seed) {
                Some(o) => {
                    if s.val_order.is_none() {
                        s.val_order = Some(o);
                    }
                }
                None => s
                    .notes
                    .push(format!("unknown value selection '{vl}' ignored")),
            }
        }
        "seq_search" | "warm_start_array" => {
            for e in &a.args {
                match e {
                    Expr::Array(es) => es.iter().for_each(|e| {
                        if let Expr::Call(b) = e {
                            visit(fzn, b, seed, s)
                        }
                    }),
                    Expr::Call(b) => visit(fzn, b, seed, s),
                    _ => {}
                }
            }
        }
        "restart_luby" => {
            let scale = number(a.args.first()).unwrap_or(100.0).max(1.0) as u64;
            s.restarts = Some(Restarts::Luby { scale });
        }
        "restart_geometric" => {
            let base = number(a.args.first()).unwrap_or(100.0).max(1.0) as u64;
            let factor = number(a.args.get(1)).unwrap_or(1.5);
            s.restarts = Some(Restarts::Geometric { base, factor });
        }
        "restart_constant" => {
            let base = number(a.args.first()).unwrap_or(100.0).max(1.0) as u64;
            s.restarts = Some(Restarts::Geometric { base, factor: 1.0 });
            s.notes
                .push("restart_constant: geometric with factor 1.01".into());
        }
        "restart_none" => s.restarts = Some(Restarts::None),
        other => s.notes.push(format!("annotation '{other}' ignored")),
    }
}

/// The strategy the solve item's annotations ask for.
pub fn strategy(fzn: &FznModel, seed: u64) -> Strategy {
    let mut s = Strategy::default();
    for a in &fzn.search {
        visit(fzn, a, seed, &mut s);
    }
    // A variable listed twice stays in its first phase: one pass keeps the
    // first occurrences and shortens each phase by the repeats it held.
    let mut seen = std::collections::HashSet::new();
    let all = std::mem::take(&mut s.decision_vars);
    let mut at = 0;
    for len in &mut s.phases {
        let group = &all[at..at + *len];
        at += *len;
        let before = s.decision_vars.len();
        s.decision_vars
            .extend(group.iter().copied().filter(|x| seen.insert(*x)));
        *len = s.decision_vars.len() - before;
    }
    s
}

/// Does the solve item carry search annotations (`int_search`,
/// `seq_search`, …) that name variables to branch on?
pub fn has_annotations(fzn: &FznModel) -> bool {
    !strategy(fzn, 0).decision_vars.is_empty()
}

/// The search options for `fzn`: the annotations' strategy, or with
/// `free` (`-f`) the engine's defaults for FlatZinc.
pub fn options(fzn: &FznModel, free: bool, seed: u64) -> (SearchOptions, Strategy) {
    let s = strategy(fzn, seed);
    let mut o = SearchOptions {
        inference: csp_core::Inference::Mac,
        var_order: VarOrder::DomWdeg,
        ..SearchOptions::default()
    };
    // The model's own variables first, those flattening introduced after.
    if fzn.decisions.len() < fzn.model.num_vars() {
        o.decision_vars = fzn.decisions.clone();
    }
    if free {
        o.restarts = Restarts::Luby { scale: 100 };
        return (o, s);
    }
    if let Some(v) = s.var_order {
        o.var_order = v;
    }
    if let Some(v) = s.val_order {
        o.val_order = v;
    }
    if let Some(r) = s.restarts {
        o.restarts = r;
    }
    if !s.decision_vars.is_empty() {
        o.decision_vars = s.decision_vars.clone();
        o.phases = s.phases.clone();
        if s.phase_orders.iter().any(|&(v, l)| {
            v.is_some_and(|v| v != o.var_order) || l.is_some_and(|l| l != o.val_order)
        }) {
            o.phase_orders = s
                .phase_orders
                .iter()
                .map(|&(v, l)| (v.unwrap_or(o.var_order), l.unwrap_or(o.val_order)))
                .collect();
        }
    }
    (o, s)
}
