//! Solving a FlatZinc model and printing what the FlatZinc specification
//! asks: `name = value;` lines for the output variables and arrays, then
//! `----------` after each solution; `==========` when the search finished
//! (every solution printed, or the last one proven optimal);
//! `=====UNSATISFIABLE=====` or `=====UNKNOWN=====` otherwise; and with `-s`
//! statistics as `%%%mzn-stat: key=value` lines closed by `%%%mzn-stat-end`.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_core::{Limits, Outcome, Search, SearchOptions, Solution, Statistics};

use crate::build::{FznModel, Objective, Output, Val};
use crate::search;

/// The flags that change how `fzn-csp` searches and what it prints.
/// [`Config::default`] is `fzn-csp` without flags: one thread, the
/// learning search on.
#[derive(Clone, Debug)]
pub struct Config {
    /// `-a`: every solution (satisfaction) or every improving one (optimisation).
    pub all: bool,
    /// `-i`: every improving solution of an optimisation.
    pub intermediate: bool,
    /// `-n N`: stop after N solutions.
    pub solutions: Option<u64>,
    /// `-f`: ignore the search annotations.
    pub free: bool,
    /// `--inference fc|mac|none`: one inference level for every
    /// constraint. `None`: MAC, with the value all-different constraints
    /// forward-checked (see [`crate::FznModel`]); `Some(Mac)` also
    /// needs [`FznModel::full_value_all_different`](crate::FznModel::full_value_all_different).
    pub inference: Option<csp_core::Inference>,
    /// `--cumulative-strength`: how every `cumulative` propagates
    /// (applied when the model is built, [`crate::BuildOptions`]).
    pub cumulative: csp_core::constraint::CumulativeStrength,
    /// `--all-different-strength`: the strength of the `all_different`
    /// constraints the model does not annotate; `None`: bounds where the
    /// learning search runs, value elsewhere
    /// ([`crate::BuildOptions::all_different`]).
    pub all_different: Option<csp_core::constraint::Consistency>,
    /// `-p N`: threads.
    pub threads: usize,
    /// `-r SEED`.
    pub seed: u64,
    /// `-s`: print statistics.
    pub stats: bool,
    /// `-t MS`.
    pub time_limit: Option<Duration>,
    /// `-v`: progress and notes on standard error.
    pub verbose: bool,
    /// `--node-limit N`: stop after `N` search nodes (per search, as
    /// [`Limits::with_nodes`] counts them).
    pub node_limit: Option<u64>,
    /// `--memory-limit SIZE`: the heap's budget in bytes, for building the
    /// model and the search ([`crate::memory`]); `fzn-csp` sets half the
    /// available memory when the flag is absent. `None`: no budget.
    pub memory_limit: Option<u64>,
    /// The learning search (nogoods from conflicts,
    /// `csp_core::SearchOptions::learning`) for one solution and for
    /// optimisation: on by default, off with `--no-learning`;
    /// enumeration keeps the ordinary engine either way.
    pub learning: bool,
    /// Neighbourhoods around the incumbent inside the learning search's
    /// branch and bound (`csp_core::SearchOptions::lns`): on by default
    /// (measured in `docs/learning.md`), off with `--no-lns`.
    pub lns: bool,
    /// `--trace-conflicts N`: print the first N conflicts of the learning
    /// search, analysed step by step, as comment lines before solving
    /// (`csp_core::Search::trace_conflicts`).
    pub trace_conflicts: Option<usize>,
    /// `--why-unsat`: after `=====UNSATISFIABLE=====`, comment lines
    /// naming a minimal set of constraints that cannot hold together
    /// ([`crate::why`]).
    pub why_unsat: bool,
    /// `--why-unsat-budget N`: the node budget of each of its checks.
    pub why_unsat_budget: Option<u64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            all: false,
            intermediate: false,
            solutions: None,
            free: false,
            inference: None,
            cumulative: csp_core::constraint::CumulativeStrength::default(),
            all_different: None,
            threads: 1,
            seed: 0,
            stats: false,
            time_limit: None,
            verbose: false,
            node_limit: None,
            memory_limit: None,
            learning: true,
            lns: true,
            trace_conflicts: None,
            why_unsat: false,
            why_unsat_budget: None,
        }
    }
}

/// How a run ended (the exit status follows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// At least one solution: exit 0.
    Done,
    /// Unsatisfiability proven (`=====UNSATISFIABLE=====`): exit 0.
    Unsatisfiable,
    /// Stopped by a limit with nothing known: exit 0 (`=====UNKNOWN=====`).
    Unknown,
    /// A propagator broke its contract: exit 1 (`=====ERROR=====`).
    Error,
}

fn push_value(text: &mut String, v: &Val, s: &Solution, is_bool: bool) {
    let k = match v {
        Val::Var(x) => s[*x] as i64,
        Val::Offset(x, k) => s[*x] as i64 + k,
        Val::Int(k) => *k,
        Val::Bool(b) => *b as i64,
        _ => 0,
    };
    match (is_bool, k) {
        (true, 0) => text.push_str("false"),
        (true, _) => text.push_str("true"),
        _ => text.push_str(itoa::Buffer::new().format(k)),
    }
}

/// The `name = value;` lines of one solution.
pub fn format_solution(outputs: &[Output], s: &Solution) -> String {
    let mut text = String::new();
    push_solution(&mut text, outputs, s);
    text
}

/// Appends the `name = value;` lines of one solution to `text` (one buffer,
/// no allocation per value: `-a` prints every solution).
fn push_solution(text: &mut String, outputs: &[Output], s: &Solution) {
    for o in outputs {
        text.push_str(&o.name);
        text.push_str(" = ");
        if let Some(dims) = &o.dims {
            let _ = write!(text, "array{}d(", dims.len());
            for (lo, hi) in dims {
                let _ = write!(text, "{lo}..{hi}, ");
            }
            text.push('[');
        }
        for (i, v) in o.elems.iter().enumerate() {
            if i > 0 && o.dims.is_some() {
                text.push_str(", ");
            }
            push_value(text, v, s, o.is_bool);
        }
        if o.dims.is_some() {
            text.push_str("])");
        }
        text.push_str(";\n");
    }
}

fn print_stats(
    out: &mut impl Write,
    fzn: &FznModel,
    st: &Statistics,
    init: Duration,
    objective: Option<i32>,
    bound: Option<i32>,
) -> io::Result<()> {
    let m = &fzn.model;
    writeln!(out, "%%%mzn-stat: nodes={}", st.nodes)?;
    writeln!(out, "%%%mzn-stat: failures={}", st.failures)?;
    writeln!(out, "%%%mzn-stat: restarts={}", st.restarts)?;
    writeln!(out, "%%%mzn-stat: peakDepth={}", st.max_depth)?;
    writeln!(out, "%%%mzn-stat: solutions={}", st.solutions)?;
    writeln!(out, "%%%mzn-stat: propagations={}", st.propagations)?;
    writeln!(out, "%%%mzn-stat: variables={}", m.num_vars())?;
    writeln!(out, "%%%mzn-stat: propagators={}", m.num_constraints())?;
    if let Some(v) = objective {
        writeln!(out, "%%%mzn-stat: objective={v}")?;
    }
    // The best proven bound (MiniZinc's `objectiveBound`): the objective
    // itself when proven optimal, else what the search proved, so an
    // interrupted run says how far its best solution may be from optimal.
    if let Some(b) = bound {
        writeln!(out, "%%%mzn-stat: objectiveBound={b}")?;
    }
    writeln!(out, "%%%mzn-stat: initTime={:.6}", init.as_secs_f64())?;
    writeln!(out, "%%%mzn-stat: solveTime={:.6}", st.time.as_secs_f64())?;
    writeln!(out, "%%%mzn-stat-end")
}

const SEP: &str = "----------";

/// Solutions printed so far by this process (read by `fzn-csp`'s
/// watchdog, which must not print `=====UNKNOWN=====` after one).
pub static PRINTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Writes one solution and its separator with one write, then flushes, so
/// that a watchdog printing at the time limit never splits a solution.
fn emit(out: &mut impl Write, outputs: &[Output], s: &Solution) -> io::Result<()> {
    let mut text = String::with_capacity(64 * outputs.len());
    push_solution(&mut text, outputs, s);
    text.push_str(SEP);
    text.push('\n');
    out.write_all(text.as_bytes())?;
    out.flush()?;
    PRINTED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}
const DONE: &str = "==========";
const UNSAT: &str = "=====UNSATISFIABLE=====";
/// What a run that knows nothing prints.
pub const UNKNOWN: &str = "=====UNKNOWN=====";
const ERROR: &str = "=====ERROR=====";

/// Nodes a sequential search may take before `-p N` starts its workers.
pub const PROBE_NODES: u64 = 250_000;

/// What the sequential probe of a parallel run found.
struct Probe {
    /// Did it finish (every solution, or the optimum proven)?
    finished: bool,
    /// Satisfaction: the solutions and the report.
    solutions: Vec<Solution>,
    report: Option<csp_core::Report>,
    /// Optimisation: the result and every improving solution.
    optimum: Option<(csp_core::Optimum, Vec<Solution>)>,
}

/// A search the model rejected (a variable of another model in its
/// options, which the front end never builds) as an I/O error for the
/// caller to report.
fn checked<T>(r: Result<T, csp_core::SearchError>) -> io::Result<T> {
    r.map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))
}

/// The sequential search of `fzn` within `nodes` nodes ([`PROBE_NODES`]
/// unless the environment variable `FZN_CSP_PROBE_NODES` says otherwise;
/// 0 turns the probe off).
fn probe(fzn: &FznModel, cfg: &Config, opts: &csp_core::SearchOptions, nodes: u64) -> Probe {
    let mut o = opts.clone();
    o.limits.nodes = Some(o.limits.nodes.map_or(nodes, |n| n.min(nodes)));
    let search = Search::new(&fzn.model).options(o);
    let stopped_here = |outcome: Outcome| outcome == Outcome::LimitReached(csp_core::Limit::Nodes);
    match fzn.objective {
        Objective::Satisfy => {
            let max = cfg.solutions;
            let mut solutions = Vec::new();
            let mut search = search;
            let report = search.for_each_solution(|s| {
                solutions.push(s.clone());
                if max.is_some_and(|m| solutions.len() as u64 >= m) {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            // A rejected search is left to the main search, which reports it.
            let Ok(report) = report else {
                return Probe {
                    finished: false,
                    solutions: Vec::new(),
                    report: None,
                    optimum: None,
                };
            };
            Probe {
                finished: !stopped_here(report.outcome),
                solutions,
                report: Some(report),
                optimum: None,
            }
        }
        Objective::Minimize(x) | Objective::Maximize(x) => {
            let mut search = search;
            let mut improving = Vec::new();
            let f = |s: &Solution, _v| {
                improving.push(s.clone());
                ControlFlow::Continue(())
            };
            let r = if matches!(fzn.objective, Objective::Minimize(_)) {
                search.minimize_each(x, f)
            } else {
                search.maximize_each(x, f)
            };
            match r {
                Ok(r) if !stopped_here(r.outcome) => Probe {
                    finished: true,
                    solutions: Vec::new(),
                    report: None,
                    optimum: Some((r, improving)),
                },
                _ => Probe {
                    finished: false,
                    solutions: Vec::new(),
                    report: None,
                    optimum: None,
                },
            }
        }
    }
}

/// `--trace-conflicts N`: the first `n` conflicts of the learning search
/// (with the options of the run), step by step, as FlatZinc comment lines
/// (`% `) on `out`, before the run's own output.
fn trace_conflicts(
    fzn: &FznModel,
    opts: &SearchOptions,
    n: usize,
    out: &mut impl Write,
) -> io::Result<()> {
    let model = &fzn.model;
    match Search::new(model).options(opts.clone()).trace_conflicts(n) {
        Ok(traces) => {
            for t in &traces {
                for line in t.render(model).lines() {
                    writeln!(out, "% {line}")?;
                }
            }
            if traces.len() < n {
                writeln!(
                    out,
                    "% the learning search stopped after {} conflicts",
                    traces.len()
                )?;
            }
        }
        Err(e) => writeln!(out, "% --trace-conflicts: {e}")?,
    }
    Ok(())
}

/// The search's share of a time limit `t` that counts from the process's
/// start, when `init` has gone on reading and building the model: what
/// is left, less 50 ms to print what was found.
fn search_time(t: Duration, init: Duration) -> Duration {
    t.saturating_sub(init + Duration::from_millis(50))
}

/// Solves `fzn` as `cfg` says, printing to `out` as it goes; `init` is the
/// time spent reading and building the model (for `-s`).
pub fn solve(
    fzn: &FznModel,
    cfg: &Config,
    out: &mut impl Write,
    init: Duration,
) -> io::Result<Status> {
    // `-f` permits ignoring the annotations ("no need to follow the search
    // specification", as Gecode's help puts it); csp takes the permission
    // where its own strategy pays, finding one solution or optimising with
    // dom/wdeg and restarts. Enumerating every solution of a satisfaction
    // model explores the whole tree, where restarts cannot help: there the
    // modeller's annotations stay (packing.mzn -a -f: 18,138 nodes, 5 s,
    // with them; no answer within 120 s with dom/wdeg; Gecode also keeps them,
    // 18,139 nodes with and without -f).
    let enumerating =
        fzn.objective == Objective::Satisfy && (cfg.all || cfg.solutions.is_some_and(|n| n > 1));
    let free = cfg.free && !(enumerating && search::has_annotations(fzn));
    if cfg.verbose && cfg.free && !free {
        eprintln!("fzn-csp: -f: enumerating every solution, the model's search annotations kept");
    }
    let (mut opts, strategy) = search::options(fzn, free, cfg.seed);
    if let Some(i) = cfg.inference {
        opts.inference = i;
    }
    opts.learning = cfg.learning;
    opts.lns = cfg.lns;
    // The model's search annotations, followed by the learning search
    // (without `-f`); free search uses learning's own heuristics.
    opts.learning_order = if !free && !strategy.decision_vars.is_empty() {
        csp_core::LearningOrder::User
    } else {
        csp_core::LearningOrder::Activity
    };
    if cfg.verbose {
        for n in &strategy.notes {
            eprintln!("fzn-csp: {n}");
        }
        eprintln!(
            "fzn-csp: {} variables, {} constraints; {:?}, {:?}, {:?}, {} decision variables",
            fzn.model.num_vars(),
            fzn.model.num_constraints(),
            opts.inference,
            opts.var_order,
            opts.val_order,
            opts.decision_vars.len()
        );
    }
    if fzn.inconsistent {
        // A unary constraint emptied a domain while the model was built.
        writeln!(out, "{UNSAT}")?;
        if cfg.stats {
            print_stats(out, fzn, &Statistics::default(), init, None, None)?;
        }
        out.flush()?;
        return Ok(Status::Unsatisfiable);
    }
    let mut limits = Limits::none();
    if let Some(t) = cfg.time_limit {
        // The limit counts from the process's start (the watchdog's clock,
        // `cli::main`), and the search's clock starts now: take off the
        // time spent reading and building the model (seconds for a large
        // one), and leave a little to print what was found.
        limits = limits.with_time(search_time(t, init));
    }
    if let Some(n) = cfg.node_limit {
        limits = limits.with_nodes(n);
    }
    if let Some(bytes) = cfg.memory_limit {
        // The search counts its own store: it gets what the model left.
        limits = limits.with_memory(crate::memory::Budget::of(bytes).left());
    }
    opts.limits = limits;
    if let Some(n) = cfg.trace_conflicts {
        trace_conflicts(fzn, &opts, n, out)?;
    }
    let mut threads = cfg.threads.max(1);
    let started = Instant::now();
    // With `-p N`, a sequential probe first: small models (most of
    // MiniZinc's examples) finish within it, where starting workers and
    // splitting the tree cost more than the whole search (`-p 2` was 2 to
    // 4 times slower than `-p 1` on them). A model the probe does not
    // finish is searched again in parallel, with the time left.
    let mut probed: Option<Probe> = None;
    let one_solution =
        fzn.objective == Objective::Satisfy && !cfg.all && cfg.solutions.is_none_or(|n| n <= 1);
    let probe_nodes = std::env::var("FZN_CSP_PROBE_NODES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(PROBE_NODES);
    if threads > 1 && !one_solution && probe_nodes > 0 {
        let p = probe(fzn, cfg, &opts, probe_nodes);
        if cfg.verbose {
            eprintln!(
                "fzn-csp: sequential probe of {probe_nodes} nodes: {}",
                if p.finished {
                    "finished, no workers started"
                } else {
                    "not finished, starting the workers"
                }
            );
        }
        if p.finished {
            threads = 1;
            probed = Some(p);
        } else if let Some(t) = opts.limits.time {
            opts.limits.time = Some(t.saturating_sub(started.elapsed()));
        }
    }
    let mut search = Search::new(&fzn.model).options(opts);
    let (outcome, found, stats, objective, bound) = match fzn.objective {
        Objective::Satisfy if !cfg.all && cfg.solutions.is_none_or(|n| n <= 1) => {
            // One solution: the sequential search (the parallel one
            // splits the space to enumerate it).
            let r = checked(search.solve())?;
            let r = (r.outcome, r.solution, r.stats);
            if let Some(s) = &r.1 {
                emit(out, &fzn.outputs, s)?;
            }
            // One solution asked for: the search is not "complete".
            let outcome = match r.0 {
                Outcome::Solved => Outcome::LimitReached(csp_core::Limit::Solutions),
                o => o,
            };
            (outcome, r.1.is_some() as u64, r.2, None, None)
        }
        Objective::Satisfy => {
            let max = if cfg.all {
                cfg.solutions
            } else {
                cfg.solutions.or(Some(1))
            };
            let mut n = 0u64;
            let mut broke = false;
            let mut io_err = None;
            let report = if let Some(Probe {
                solutions,
                report: Some(rep),
                ..
            }) = probed.take()
            {
                // The probe finished: its solutions, in its order.
                for s in &solutions {
                    n += 1;
                    emit(out, &fzn.outputs, s)?;
                }
                broke = max.is_some_and(|m| n >= m)
                    && rep.outcome == Outcome::LimitReached(csp_core::Limit::Solutions);
                rep
            } else if threads > 1 {
                let (sols, rep) = checked(search.par_solutions(threads))?;
                for s in sols.iter().take(max.unwrap_or(u64::MAX) as usize) {
                    n += 1;
                    emit(out, &fzn.outputs, s)?;
                }
                broke = max.is_some_and(|m| (sols.len() as u64) > m);
                rep
            } else {
                checked(search.for_each_solution(|s| {
                    n += 1;
                    if let Err(e) = emit(out, &fzn.outputs, s) {
                        io_err = Some(e);
                        return ControlFlow::Break(());
                    }
                    if max.is_some_and(|m| n >= m) {
                        broke = true;
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                }))?
            };
            if let Some(e) = io_err {
                return Err(e);
            }
            let outcome = match report.outcome {
                Outcome::Solved if broke => Outcome::LimitReached(csp_core::Limit::Solutions),
                o => o,
            };
            (outcome, n, report.stats, None, None)
        }
        Objective::Minimize(x) | Objective::Maximize(x) => {
            let minimize = matches!(fzn.objective, Objective::Minimize(_));
            let every = cfg.all || cfg.intermediate;
            let r = if let Some(Probe {
                optimum: Some(o), ..
            }) = probed.take()
            {
                if every {
                    for s in &o.1 {
                        emit(out, &fzn.outputs, s)?;
                    }
                }
                Ok(o.0)
            } else if threads > 1 {
                if cfg.verbose {
                    eprintln!(
                        "fzn-csp: {}",
                        if cfg.learning {
                            "learning workers on the whole model, sharing the incumbent"
                        } else {
                            "workers on subproblems of a split tree, sharing the bound"
                        }
                    );
                }
                // With learning (the default), a portfolio of learning workers
                // (`csp_core::Search::par_minimize`); without, the split.
                if minimize {
                    search.par_minimize(x, threads)
                } else {
                    search.par_maximize(x, threads)
                }
            } else {
                let mut n = 0u64;
                let mut io_err = None;
                let f = |s: &Solution, _v| {
                    n += 1;
                    if every {
                        if let Err(e) = emit(out, &fzn.outputs, s) {
                            io_err = Some(e);
                            return ControlFlow::Break(());
                        }
                        let _ = out.flush();
                    }
                    if cfg.solutions.is_some_and(|m| n >= m) {
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                };
                let r = if minimize {
                    search.minimize_each(x, f)
                } else {
                    search.maximize_each(x, f)
                };
                if let Some(e) = io_err {
                    return Err(e);
                }
                r
            };
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    // The objective and the search annotation's variables
                    // are the model's own: an internal error.
                    eprintln!("fzn-csp: internal error: {e}");
                    writeln!(out, "{ERROR}")?;
                    return Ok(Status::Error);
                }
            };
            if let (Some(s), false) = (&r.best, every && threads == 1) {
                emit(out, &fzn.outputs, s)?;
            }
            (
                r.outcome,
                r.best.is_some() as u64,
                r.stats,
                r.objective,
                r.bound,
            )
        }
    };
    let status = match outcome {
        Outcome::Solved => {
            writeln!(out, "{DONE}")?;
            Status::Done
        }
        Outcome::Unsatisfiable => {
            writeln!(out, "{UNSAT}")?;
            Status::Unsatisfiable
        }
        Outcome::LimitReached(_) if found > 0 => Status::Done,
        Outcome::LimitReached(l) => {
            writeln!(out, "{UNKNOWN}")?;
            if l == csp_core::Limit::Memory {
                eprintln!(
                    "fzn-csp: stopped by the memory limit (the search's store outgrew what \
                     the model left of it; raise it with --memory-limit SIZE, default half \
                     the available memory)"
                );
            }
            Status::Unknown
        }
        Outcome::Invalid(c) => {
            eprintln!(
                "fzn-csp: internal error: the propagator of constraint {c:?} ({}) broke its contract",
                fzn.model.constraint(c).name()
            );
            writeln!(out, "{ERROR}")?;
            Status::Error
        }
    };
    if cfg.verbose {
        eprintln!(
            "fzn-csp: {} nodes, {} failures, {:.3} s",
            stats.nodes,
            stats.failures,
            started.elapsed().as_secs_f64()
        );
    }
    if cfg.stats {
        print_stats(out, fzn, &stats, init, objective, bound)?;
    }
    out.flush()?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_gets_the_time_the_model_left() {
        let ms = Duration::from_millis;
        // A model built in 2 s under a 10 s limit leaves the search 7.95 s
        // (the watchdog ends the process at 10.5 s whatever it does).
        assert_eq!(search_time(ms(10_000), ms(2_000)), ms(7_950));
        // Nothing left: the search stops at once and says so.
        assert_eq!(search_time(ms(1_000), ms(2_000)), Duration::ZERO);
    }
}
