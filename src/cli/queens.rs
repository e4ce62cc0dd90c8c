//! `csp queens`: N-queens with every solver side by side.
//!
//! This file holds the arguments, the choice of solver and the jobs that
//! print solutions or counts (about 880 lines: the jobs share the `Job`
//! and its checks); tracing, comparison, teaching solvers, memory sizing
//! and local search live beside it in `queens_*.rs`.

use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use csp_core::{Limits, Outcome, Search, SearchOptions, Statistics};
use csp_queens::model::{self, ModelKind};
use csp_queens::render::{self, Format};
use csp_queens::{
    bitboard, brute_force, constellation, construction, permutation, symmetry, verify,
};

use super::queens_compare::{parse_range, CompareFormat};
use super::queens_size::{memory_floor, SizeKind};
use super::queens_teach::{self, Teach};
use super::queens_trace::{html_page, trace, TreeFormat};
use super::{
    parse_inference, parse_seconds, parse_val_order, parse_var_order, CliError, Progress, Status,
};

/// Arguments of `csp queens`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size (default 8), or `merge` followed by files of `--slice`
    /// lines to add up (`csp queens merge FILE...`).
    #[arg(allow_hyphen_values = true)]
    n: Option<String>,
    /// backtracking, pairwise, permutation, brute-force, bitboard,
    /// constellation (counts only), min-conflicts, genetic, construction, or
    /// a teaching solver: teach-sets, teach-stack, teach-bits, teach-nn,
    /// teach-perm, teach-fc, teach-min-conflicts, teach-genetic (default:
    /// the fastest that fits).
    #[arg(long)]
    solver: Option<String>,
    /// Print the number of solutions only.
    #[arg(long)]
    count: bool,
    /// Print every solution, one per line.
    #[arg(long)]
    all: bool,
    /// Count or list solutions up to the 8 rotations and reflections.
    #[arg(long)]
    unique: bool,
    /// List the classes of solutions under the 8 rotations and
    /// reflections: each representative with its eight images and the size
    /// of its class (--format columns, a1, json or svg).
    #[arg(long)]
    orbits: bool,
    /// board, a1, columns, json or svg (default: board up to n = 64, columns
    /// above); with --trace: dot or json (the tree), svg (the chart of
    /// teach-min-conflicts or teach-genetic); html (implies --trace): a page
    /// that replays the search; with --orbits: columns, a1, json or svg;
    /// with --compare: table, csv, json or svg; with --place: text or json,
    /// and with --place --explain also html, the page of the steps.
    #[arg(long)]
    format: Option<String>,
    /// Generic solvers: none, fc or mac (default fc; given alone, it
    /// selects --solver backtracking).
    #[arg(long)]
    inference: Option<String>,
    /// Generic solvers: input, mrv, dom-deg, dom-wdeg, smallest or largest
    /// (default: mrv for --count, input otherwise, so that solutions come
    /// in lexicographic order).
    #[arg(long = "var-order")]
    var_order: Option<String>,
    /// Generic solvers: asc, desc, middle, random, split, reverse-split,
    /// binary-min or binary-max (default asc).
    #[arg(long = "val-order")]
    val_order: Option<String>,
    /// Worker threads (default and 0: all cores; at most 4 per core, more is
    /// clamped with a note); output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Seed for random solvers and random value order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many seconds (a count or list cut short says so on
    /// stderr and exits with 1).
    #[arg(long = "time-limit")]
    time_limit: Option<String>,
    /// Generic solvers: stop a search whose store and trail outgrow SIZE
    /// (e.g. 512M, 4G; default: half the available memory; exits with 1).
    #[arg(long = "memory-limit", value_name = "SIZE")]
    memory_limit: Option<String>,
    /// Print statistics (solver, nodes, failures, time) to stderr.
    #[arg(long)]
    stats: bool,
    /// Print the search tree, one node per line, to the first solution
    /// (with --all or --count: to the end; --count then prints the number
    /// of solutions, --stats the statistics); for teach-bits the masks at
    /// each row, for teach-min-conflicts each move, for teach-genetic each
    /// generation.
    #[arg(long)]
    trace: bool,
    /// With --trace: show the domains of the open rows at every node, a
    /// row left with one column marked forced (generic engine or teach-fc).
    #[arg(long)]
    domains: bool,
    /// Run every solver on N, or on every n of a range A..B (both
    /// included, e.g. 4..14), and print a comparison.
    #[arg(long, value_name = "A..B", num_args = 0..=1, default_missing_value = "")]
    compare: Option<String>,
    /// With --compare: the solvers to run, by name, comma-separated
    /// (e.g. teach-sets,teach-fc,backtracking), or `ladder` (the teaching
    /// ladder, the default of --format svg) or `all` (the default else).
    #[arg(long, value_name = "A,B,...")]
    solvers: Option<String>,
    /// Read placements from stdin, one a line, in `columns`, `a1` or `json`
    /// format, and check each.
    #[arg(long)]
    verify: bool,
    /// With --count: print the list of subproblems of split depth D
    /// (constellation counter), or with --slice, the depth of the split.
    #[arg(long, value_name = "D")]
    split: Option<String>,
    /// With --count --split D: count subproblems A..B (B excluded) and print
    /// one line `N D index count` each.
    #[arg(long, value_name = "A..B")]
    slice: Option<String>,
    /// Queens already on the board, in chess notation (`c3,e1`): complete
    /// the board (two completions when there are several, the queens that
    /// cannot stand together when there is none), or with --hint,
    /// --explain, --rate the step-wise solution (--format text or json;
    /// --explain --format html: a page that shows the steps on the board).
    #[arg(long, value_name = "SQUARES")]
    place: Option<String>,
    /// With --place: the next logical step and its reason.
    #[arg(long, requires = "place", conflicts_with_all = ["explain", "rate"])]
    hint: bool,
    /// With --place: every step until the board is full or search is needed.
    #[arg(long, requires = "place", conflicts_with = "rate")]
    explain: bool,
    /// With --place: the difficulty of the completion.
    #[arg(long, requires = "place")]
    rate: bool,
    /// `csp queens merge FILE...`: the files of --slice lines to add up.
    #[arg(hide = true)]
    files: Vec<String>,
}

/// The solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Solver {
    Backtracking,
    Pairwise,
    Permutation,
    BruteForce,
    Bitboard,
    Constellation,
    MinConflicts,
    Genetic,
    Construction,
    Teach(Teach),
}

const SOLVERS: [(Solver, &str); 17] = [
    (Solver::Backtracking, "backtracking"),
    (Solver::Pairwise, "pairwise"),
    (Solver::Permutation, "permutation"),
    (Solver::BruteForce, "brute-force"),
    (Solver::Bitboard, "bitboard"),
    (Solver::Constellation, "constellation"),
    (Solver::MinConflicts, "min-conflicts"),
    (Solver::Genetic, "genetic"),
    (Solver::Construction, "construction"),
    (Solver::Teach(Teach::Sets), "teach-sets"),
    (Solver::Teach(Teach::Stack), "teach-stack"),
    (Solver::Teach(Teach::Bits), "teach-bits"),
    (Solver::Teach(Teach::Nn), "teach-nn"),
    (Solver::Teach(Teach::Perm), "teach-perm"),
    (Solver::Teach(Teach::Fc), "teach-fc"),
    (Solver::Teach(Teach::MinConflicts), "teach-min-conflicts"),
    (Solver::Teach(Teach::Genetic), "teach-genetic"),
];

impl Solver {
    fn parse(s: &str) -> Result<Solver, CliError> {
        SOLVERS
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(v, _)| *v)
            .ok_or_else(|| {
                let names: Vec<&str> = SOLVERS.iter().map(|(_, n)| *n).collect();
                format!(
                    "unknown solver '{s}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
    pub(super) fn name(self) -> &'static str {
        SOLVERS
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("?", |(_, n)| n)
    }
    fn can_enumerate(self) -> bool {
        match self {
            Solver::Teach(t) => t.exact(),
            _ => !matches!(
                self,
                Solver::MinConflicts | Solver::Genetic | Solver::Construction
            ),
        }
    }
    pub(super) fn can_trace(self) -> bool {
        matches!(
            self,
            Solver::Backtracking | Solver::Pairwise | Solver::Permutation | Solver::Teach(_)
        )
    }
    pub(super) fn kind(self) -> ModelKind {
        if self == Solver::Pairwise {
            ModelKind::Pairwise
        } else {
            ModelKind::AllDifferent
        }
    }
}

/// Everything `run` needs after parsing.
pub(super) struct Job {
    pub(super) n: usize,
    pub(super) solver: Solver,
    pub(super) format: Format,
    pub(super) options: SearchOptions,
    pub(super) threads: usize,
    pub(super) seed: u64,
    pub(super) time_limit: Option<Duration>,
    pub(super) stats: bool,
}

fn parse_n(s: Option<&str>) -> Result<usize, CliError> {
    let Some(s) = s else { return Ok(8) };
    if s.starts_with('-') {
        return Err(format!("N must be a non-negative integer, got '{s}'"));
    }
    s.parse::<usize>()
        .map_err(|_| format!("N must be a non-negative integer, got '{s}'"))
}

/// `csp` with no arguments: 8-queens with the generic engine, board and statistics.
pub fn run_default() -> Result<ExitCode, CliError> {
    run(Args {
        n: None,
        solver: Some("backtracking".into()),
        count: false,
        all: false,
        unique: false,
        orbits: false,
        format: None,
        inference: None,
        var_order: None,
        val_order: None,
        threads: None,
        seed: 1,
        time_limit: None,
        memory_limit: None,
        stats: true,
        trace: false,
        domains: false,
        compare: None,
        solvers: None,
        verify: false,
        split: None,
        slice: None,
        files: Vec::new(),
        place: None,
        hint: false,
        explain: false,
        rate: false,
    })
}

/// Runs `csp queens`.
pub fn run(a: Args) -> Result<ExitCode, CliError> {
    if a.verify {
        return verify_stdin();
    }
    if a.n.as_deref() == Some("merge") {
        return super::queens_split::merge(&a.files);
    }
    if let Some(extra) = a.files.first() {
        return Err(format!("unexpected argument '{extra}' after N"));
    }
    let time_limit = a.time_limit.as_deref().map(parse_seconds).transpose()?;
    if let Some(range) = a.compare.as_deref() {
        return compare(&a, range, time_limit);
    }
    if a.solvers.is_some() {
        return Err("--solvers chooses the solvers of --compare (--solver names one)".into());
    }
    let n = parse_n(a.n.as_deref())?;
    if let Some(squares) = &a.place {
        return super::queens_place::run(
            n,
            squares,
            super::queens_place::Mode {
                hint: a.hint,
                explain: a.explain,
                rate: a.rate,
                format: a.format.as_deref(),
                stats: a.stats,
                other: a.count || a.all || a.unique || a.orbits || a.trace || a.solver.is_some(),
            },
        );
    }
    let enumerate = a.count || a.all || a.unique || a.orbits;
    // `--format html` is a trace: a page that replays the search.
    let html = a.format.as_deref() == Some("html");
    if a.domains && !a.trace && !html {
        return Err("--domains shows the domains at every node of --trace".into());
    }
    if a.orbits {
        let other = [
            ("--count", a.count),
            ("--all", a.all),
            ("--unique", a.unique),
            ("--trace", a.trace || html),
        ];
        if let Some((flag, _)) = other.iter().find(|(_, given)| *given) {
            return Err(format!(
                "--orbits lists every class of solutions with its images; drop {flag}"
            ));
        }
    }
    if a.count && a.all && !a.trace && !html {
        return Err(
            "give --count (the number of solutions) or --all (every solution), not both".into(),
        );
    }
    // The settings of the generic engine, by the flag that gave them.
    let engine_flags: Vec<&str> = [
        ("--inference", a.inference.is_some()),
        ("--var-order", a.var_order.is_some()),
        ("--val-order", a.val_order.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, given)| given.then_some(flag))
    .collect();
    let solver = match &a.solver {
        Some(s) => Solver::parse(s)?,
        // A trace needs a solver that can show its tree, and the engine's
        // settings the engine.
        None if a.trace || html || !engine_flags.is_empty() => Solver::Backtracking,
        None if a.count && !a.unique && n <= constellation::MAX_N => Solver::Constellation,
        None if enumerate => {
            if n <= bitboard::MAX_N {
                Solver::Bitboard
            } else {
                Solver::Backtracking
            }
        }
        None if n <= 20 => Solver::Backtracking,
        None => Solver::MinConflicts,
    };
    if let Some(flag) = engine_flags.first() {
        if !matches!(solver, Solver::Backtracking | Solver::Pairwise) {
            return Err(format!(
                "{flag} sets the generic engine (--solver backtracking or pairwise); \
                 '{}' has no such setting",
                solver.name()
            ));
        }
    }
    // With --trace, `--format dot|json` is the tree's format.
    let tree = match (a.trace, a.format.as_deref()) {
        (true, Some("dot")) => Some(TreeFormat::Dot),
        (true, Some("json")) => Some(TreeFormat::Json),
        (true, Some("svg")) => Some(TreeFormat::Chart),
        (true, Some(f)) if f != "html" => {
            return Err(format!(
                "--trace prints its tree as text, or with --format dot or json \
                 (svg: the chart of a local search); --format {f} is a format for solutions"
            ))
        }
        (false, Some("dot")) => return Err("--format dot draws the tree of --trace".into()),
        _ => None,
    };
    if let (true, false, false, Some(f)) = (a.count, a.trace, html, a.format.as_deref()) {
        return Err(format!(
            "--count prints one number; --format {f} is a format for solutions \
             (drop one of them)"
        ));
    }
    let format = match &a.format {
        Some(_) if tree.is_some() || html => Format::Board,
        Some(f) => f.parse::<Format>().map_err(|e| e.to_string())?,
        None if n <= 64 => Format::Board,
        None => Format::Columns,
    };
    // Which row to branch on: a count prints no solution, so it takes the
    // order that visits fewest nodes (first-fail, the library's default);
    // anything that prints solutions or a tree goes row by row, so that
    // solutions come in lexicographic order.
    let var_order = a.var_order.clone().unwrap_or_else(|| {
        if a.count && !a.trace && !html {
            "mrv".into()
        } else {
            "input".into()
        }
    });
    let inference = a.inference.as_deref().unwrap_or("fc");
    let val_order = a.val_order.as_deref().unwrap_or("asc");
    let mut limits = Limits::none();
    limits.time = time_limit;
    limits.memory = super::memory_limit(a.memory_limit.as_deref())?;
    let options = SearchOptions {
        inference: parse_inference(inference)?,
        var_order: parse_var_order(&var_order)?,
        val_order: parse_val_order(val_order, a.seed)?,
        limits,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    };
    let job = Job {
        n,
        solver,
        format,
        options,
        threads: super::threads(a.threads),
        seed: a.seed,
        time_limit,
        stats: a.stats,
    };
    if !a.verify && !a.trace && !html {
        let kind = match solver {
            Solver::MinConflicts => SizeKind::MinConflicts,
            Solver::Genetic => SizeKind::Genetic,
            Solver::Pairwise => SizeKind::Pairwise,
            Solver::Backtracking => SizeKind::Engine,
            _ => SizeKind::Other,
        };
        let (need, change) = memory_floor(n, kind, format == Format::Board, a.count);
        let what = format!("n = {n} with --solver {}", solver.name());
        super::check_memory(&what, need, super::available_memory(), change)?;
        // Within the machine but past the memory limit: stopped by the
        // limit before the start, as a search whose store outgrows it.
        if let Some(why) = super::over_budget(need, job.options.limits.memory) {
            if a.count {
                outln!(">=0");
            } else if !enumerate {
                outln!("unknown");
            }
            errln!("warning: incomplete: stopped by the {why}");
            return Ok(ExitCode::from(1));
        }
    }
    if let Solver::Teach(t) = solver {
        t.check_n(n)?;
    }
    if enumerate && !solver.can_enumerate() {
        return Err(format!(
            "--count, --all and --unique need an exact solver; '{}' only finds one solution",
            solver.name()
        ));
    }
    if html {
        let settings = format!(
            "--inference {} --var-order {} --val-order {}",
            inference, var_order, val_order
        );
        return html_page(&job, a.all, a.count || a.unique, &settings);
    }
    if a.trace {
        return trace(&job, a.all || a.count, a.count, a.domains, tree);
    }
    if a.split.is_some() || a.slice.is_some() {
        if a.unique || (a.solver.is_some() && solver != Solver::Constellation) {
            return Err(
                "--split and --slice count all solutions with the constellation counter \
                 (no --unique, no other --solver)"
                    .into(),
            );
        }
        return super::queens_split::split_or_slice(
            n,
            a.count,
            a.split.as_deref(),
            a.slice.as_deref(),
            job.threads,
            job.time_limit,
        );
    }
    if a.orbits {
        let given = a.format.as_deref().map(|_| format);
        return super::queens_orbits::orbits(&job, given);
    }
    if a.count {
        return count(&job, a.unique);
    }
    if a.all || a.unique {
        return list(&job, a.unique);
    }
    first(&job)
}

pub(super) fn print_stats(job: &Job, solver: &str, line: &str) {
    if job.stats {
        errln!("solver: {solver}, n: {}, {line}", job.n);
    }
}

pub(super) fn engine_stats(s: &Statistics) -> String {
    s.to_string()
}

pub(super) fn deadline(job: &Job) -> Option<Instant> {
    job.time_limit.map(|t| Instant::now() + t)
}

pub(super) fn budget<'a>(job: &Job, cancel: Option<&'a AtomicBool>) -> permutation::Budget<'a> {
    let mut b = permutation::Budget::unlimited();
    if let Some(d) = deadline(job) {
        b = b.with_deadline(d);
    }
    if let Some(c) = cancel {
        b = b.with_cancel(c);
    }
    b
}

/// The note of a time limit that passed while the model was built.
const BUILD_STOPPED: &str = "stopped by the time limit (while building the model)";

/// The generic engine's model, built within the time limit (`None` when the
/// limit passed first: the pairwise model has `3n(n−1)/2` constraints), and
/// the options with what is left of the time limit for the search.
pub(super) fn engine_model(
    job: &Job,
) -> Result<Option<(model::QueensModel, SearchOptions)>, CliError> {
    let start = Instant::now();
    let deadline = job.time_limit.map(|t| start + t);
    let q =
        model::queens_model_until(job.n, job.solver.kind(), deadline).map_err(|e| e.to_string())?;
    Ok(q.map(|q| {
        let mut options = job.options.clone();
        options.limits.time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        (q, options)
    }))
}

pub(super) fn limit_note(outcome: Outcome) -> Option<String> {
    match outcome {
        Outcome::LimitReached(l) => Some(format!("stopped by the {l}", l = super::Stop(l))),
        _ => None,
    }
}

/// Prints one solution in the chosen format.
pub(super) fn emit(out: &mut impl Write, cols: &[u32], format: Format) -> io::Result<()> {
    let s = render::render(cols, format);
    out.write_all(s.as_bytes())?;
    if !s.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn first(job: &Job) -> Result<ExitCode, CliError> {
    let n = job.n;
    let t = Instant::now();
    let (cols, note, stat_line): (Option<Vec<u32>>, Option<String>, String) = match job.solver {
        Solver::Backtracking | Solver::Pairwise => match engine_model(job)? {
            Some((q, options)) => {
                let r = Search::new(&q.model)
                    .options(options)
                    .solve()
                    .map_err(|e| e.to_string())?;
                (
                    r.solution.as_ref().map(|s| q.columns(s)),
                    limit_note(r.outcome),
                    engine_stats(&r.stats),
                )
            }
            None => (None, Some(BUILD_STOPPED.into()), String::new()),
        },
        Solver::Permutation | Solver::BruteForce => {
            let b = budget(job, None);
            let (c, status, rep) = if job.solver == Solver::Permutation {
                let (c, r) = permutation::first_solution(n, &b).map_err(|e| e.to_string())?;
                (c, r.status, format!("{r}"))
            } else {
                let (c, r) = brute_force::first_solution(n, &b).map_err(|e| e.to_string())?;
                let note = if r.status.is_complete() {
                    String::new()
                } else {
                    format!(
                        ", stopped ({}) after {:.3e} arrangements",
                        r.status, r.tried as f64
                    )
                };
                (
                    c,
                    r.status,
                    format!("arrangements tried: {}{note}", r.tried),
                )
            };
            // `Stopped` is the search stopping at the solution it found;
            // a deadline without one has not shown that there is none.
            let stopped = c.is_none() && !status.is_complete();
            (c, stopped.then(|| status.to_string()), rep)
        }
        Solver::Bitboard => bitboard_first(n, job.time_limit)?,
        Solver::Construction => match construction::construct(n) {
            Ok(c) => (Some(c), None, String::new()),
            Err(construction::ConstructionError::NoSolution { .. }) => (None, None, String::new()),
            Err(e) => return Err(e.to_string()),
        },
        Solver::MinConflicts | Solver::Genetic => local_search(job)?,
        Solver::Teach(t) => {
            let mut found = None;
            let r = queens_teach::run(
                t,
                n,
                job.seed,
                deadline(job),
                |c| {
                    found = Some(c.to_vec());
                    ControlFlow::Break(())
                },
                None,
                None,
            )?;
            // An exact search that ran to the end without one has shown that
            // there is none; a local search has not.
            let note = r.no_solution_note(t, found.is_some());
            (found, note, r.stats_line(t))
        }
        Solver::Constellation => {
            return Err("the constellation solver only counts (use --count)".into())
        }
    };
    let mut out = super::output::stdout();
    match &cols {
        Some(c) => {
            // Every printed placement is re-checked independently.
            let v = verify::check(c);
            if !v.is_solution() {
                return Err(format!(
                    "internal error: solver returned an invalid placement: {v}"
                ));
            }
            emit(&mut out, c, job.format).map_err(|e| e.to_string())?
        }
        // A search stopped by a limit has not shown that there is none.
        None if note.is_some() => writeln!(out, "unknown").map_err(|e| e.to_string())?,
        None => writeln!(out, "no solution").map_err(|e| e.to_string())?,
    }
    out.flush().map_err(|e| e.to_string())?;
    // The solvers that report nothing else still say what they found.
    let stat_line = if stat_line.is_empty() {
        format!("solutions: {}", u8::from(cols.is_some()))
    } else {
        stat_line
    };
    if let (None, Some(why)) = (&cols, &note) {
        errln!("warning: incomplete: no solution found before the search stopped: {why}");
    }
    print_stats(
        job,
        job.solver.name(),
        &format!("{stat_line} (wall {:.3} s)", t.elapsed().as_secs_f64()),
    );
    Ok(Status::stopped_if(cols.is_none() && note.is_some()).code())
}

/// The bitboard solver's first solution, within the time limit.
fn bitboard_first(
    n: usize,
    time_limit: Option<Duration>,
) -> Result<crate::cli::queens_local::LocalOutcome, CliError> {
    let mut found = None;
    let note = bitboard_within(n, false, time_limit, |c| {
        found = Some(c.to_vec());
        ControlFlow::Break(())
    })?;
    Ok((found, note, String::new()))
}

/// The bitboard solver's solutions (the canonical ones when `unique`) in
/// order, passed to `f` until it breaks, within `time_limit`; returns a note
/// when the limit stopped them. The bitboard search looks at no clock, so
/// under a limit it runs on a thread of its own, handing solutions over a
/// channel, and is abandoned when the limit passes first (the process ends
/// soon after). Before, a first solution or a list for n = 40 ran on
/// whatever the limit.
fn bitboard_within(
    n: usize,
    unique: bool,
    time_limit: Option<Duration>,
    mut f: impl FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<Option<String>, CliError> {
    let run = move |g: &mut dyn FnMut(&[u32]) -> ControlFlow<()>| -> Result<(), CliError> {
        if unique {
            bitboard::for_each_unique(n, g)
        } else {
            bitboard::for_each_solution(n, g)
        }
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let Some(limit) = time_limit else {
        run(&mut f)?;
        return Ok(None);
    };
    let deadline = Instant::now() + limit;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u32>>(256);
    let worker = std::thread::spawn(move || {
        run(&mut |c: &[u32]| match tx.send(c.to_vec()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()), // the reader is done
        })
    });
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(c) => {
                if f(&c).is_break() {
                    return Ok(None);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                return Ok(Some("stopped by the time limit".into()))
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                let done = worker
                    .join()
                    .map_err(|_| "internal error: the bitboard search panicked")?;
                return done.map(|()| None);
            }
        }
    }
}

/// min-conflicts and genetic: the local searches on the generic model.
fn local_search(job: &Job) -> Result<crate::cli::queens_local::LocalOutcome, CliError> {
    crate::cli::queens_local::solve(
        job.n,
        job.solver == Solver::Genetic,
        job.seed,
        job.time_limit,
    )
}

fn count(job: &Job, unique: bool) -> Result<ExitCode, CliError> {
    let n = job.n;
    let t = Instant::now();
    let _p = (job.solver != Solver::Constellation)
        .then(|| Progress::start(&format!("counting {n}-queens solutions")));
    let (total, note, line) = match job.solver {
        Solver::Constellation if unique => {
            return Err(
                "the constellation solver counts all solutions, not classes: \
                        use --solver bitboard with --unique"
                    .into(),
            )
        }
        Solver::Constellation => super::queens_split::count(n, job.threads, job.time_limit)?,
        Solver::Bitboard => {
            let (counts, status) = bitboard::count_within(n, job.threads, &budget(job, None))
                .map_err(|e| e.to_string())?;
            let (c, what) = if unique {
                (counts.unique, "8-fold symmetry classes")
            } else {
                (counts.total, "8-fold symmetry")
            };
            (
                c,
                (!status.is_complete()).then(|| status.to_string()),
                format!("solutions: {c} ({what})"),
            )
        }
        Solver::Backtracking | Solver::Pairwise if !unique => {
            let r = model::count(n, job.solver.kind(), &job.options, job.threads)
                .map_err(|e| e.to_string())?;
            (r.count, limit_note(r.outcome), engine_stats(&r.stats))
        }
        _ => {
            let mut c = 0u128;
            let (note, line) = enumerate(job, unique, |_| {
                c += 1;
                ControlFlow::Continue(())
            })?;
            (c, note, line)
        }
    };
    drop(_p);
    // A count cut short is a lower bound, and says so (as --compare does).
    if note.is_some() {
        outln!(">={total}");
    } else {
        outln!("{total}");
    }
    if let Some(why) = &note {
        errln!("warning: incomplete count: {why}");
    }
    print_stats(
        job,
        job.solver.name(),
        &format!("{line} (wall {:.3} s)", t.elapsed().as_secs_f64()),
    );
    Ok(if note.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn list(job: &Job, unique: bool) -> Result<ExitCode, CliError> {
    let t = Instant::now();
    let mut out = super::output::stdout();
    let mut err = None;
    let mut k = 0u128;
    let format = job.format;
    // Several pictures make one SVG document, a grid of boards, written
    // once the list is done.
    let mut pictures: Vec<(Vec<u32>, String)> = Vec::new();
    let (note, line) = enumerate(job, unique, |c| {
        debug_assert!(verify::check(c).is_solution());
        k += 1;
        if format == Format::Svg {
            pictures.push((c.to_vec(), k.to_string()));
            return ControlFlow::Continue(());
        }
        let r = if format == Format::Board && k > 1 {
            out.write_all(b"\n").and_then(|_| emit(&mut out, c, format))
        } else {
            emit(&mut out, c, format)
        };
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                err = Some(e);
                ControlFlow::Break(())
            }
        }
    })?;
    if let Some(e) = err {
        if e.kind() != io::ErrorKind::BrokenPipe {
            return Err(e.to_string());
        }
        return Ok(ExitCode::SUCCESS);
    }
    // A search stopped by a limit has not shown that there is none.
    if k == 0 && note.is_none() {
        writeln!(out, "no solution").map_err(|e| e.to_string())?;
    } else if format == Format::Svg {
        let what = if unique {
            "unique solutions"
        } else {
            "solutions"
        };
        let title = format!("{}-queens: {k} {what}", job.n);
        let grid = render::svg_grid(&title, &pictures, 8);
        out.write_all(grid.as_bytes()).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    if let Some(why) = &note {
        errln!("warning: incomplete list: {why}");
    }
    print_stats(
        job,
        job.solver.name(),
        &if line.starts_with("solutions:") {
            format!("{line} (wall {:.3} s)", t.elapsed().as_secs_f64())
        } else if line.is_empty() {
            format!("solutions: {k} (wall {:.3} s)", t.elapsed().as_secs_f64())
        } else {
            format!(
                "solutions: {k}, {line} (wall {:.3} s)",
                t.elapsed().as_secs_f64()
            )
        },
    );
    Ok(if note.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Enumerates solutions (canonical representatives only when `unique`) in
/// the solver's order; returns a note when a limit stopped it, and a stats line.
pub(super) fn enumerate(
    job: &Job,
    unique: bool,
    mut f: impl FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<(Option<String>, String), CliError> {
    let n = job.n;
    let mut g = |c: &[u32]| {
        if unique && symmetry::canonical(c).map(|k| k != c).unwrap_or(false) {
            return ControlFlow::Continue(());
        }
        f(c)
    };
    match job.solver {
        Solver::Bitboard => {
            let note = bitboard_within(n, unique, job.time_limit, &mut f)?;
            Ok((note, String::new()))
        }
        Solver::Backtracking | Solver::Pairwise => {
            let Some((q, options)) = engine_model(job)? else {
                return Ok((Some(BUILD_STOPPED.into()), String::new()));
            };
            // A random value order draws per subproblem in the parallel
            // search (seeded by the subproblem's index): the sequential
            // search would give another order, so with it one thread
            // goes the parallel way too and the output is the same for
            // any --threads.
            let random = matches!(options.val_order, csp_core::ValOrder::Random { .. });
            if job.threads == 1 && !random {
                let r = Search::new(&q.model)
                    .options(options)
                    .for_each_solution(|s| g(&q.columns(s)))
                    .map_err(|e| e.to_string())?;
                Ok((limit_note(r.outcome), engine_stats(&r.stats)))
            } else {
                let (sols, r) = Search::new(&q.model)
                    .options(options)
                    .par_solutions(job.threads)
                    .map_err(|e| e.to_string())?;
                for s in &sols {
                    if g(&q.columns(s)).is_break() {
                        break;
                    }
                }
                Ok((limit_note(r.outcome), engine_stats(&r.stats)))
            }
        }
        Solver::Permutation => {
            let r =
                permutation::for_each(n, &budget(job, None), &mut g).map_err(|e| e.to_string())?;
            let note = (!r.status.is_complete()).then(|| r.status.to_string());
            Ok((note, r.to_string()))
        }
        Solver::BruteForce => {
            let r =
                brute_force::for_each(n, &budget(job, None), &mut g).map_err(|e| e.to_string())?;
            let note = (!r.status.is_complete()).then(|| {
                format!(
                    "{} after {} of {} arrangements ({:.2e} %)",
                    r.status,
                    r.tried,
                    r.total
                        .map_or_else(|| format!("10^{:.1}", r.total_log10), |t| t.to_string()),
                    100.0 * r.fraction()
                )
            });
            Ok((note, format!("arrangements tried: {}", r.tried)))
        }
        Solver::Teach(t) if t.exact() => {
            let r = queens_teach::run(t, n, job.seed, deadline(job), &mut g, None, None)?;
            let note = r.timed_out.then(|| "stopped by the time limit".to_string());
            Ok((note, r.stats_line(t)))
        }
        other => Err(format!("'{}' cannot enumerate solutions", other.name())),
    }
}

/// `--compare` on N (`range` empty) or on a range `A..B`.
fn compare(a: &Args, range: &str, time_limit: Option<Duration>) -> Result<ExitCode, CliError> {
    let (lo, hi, single) = if range.is_empty() {
        let n = parse_n(a.n.as_deref())?;
        (n, n, true)
    } else {
        if let Some(n) = &a.n {
            return Err(format!(
                "give N or --compare {range}, not both (got N = '{n}')"
            ));
        }
        let (lo, hi) = parse_range(range)?;
        (lo, hi, !range.contains(".."))
    };
    let ignored = [
        ("--solver", a.solver.is_some()),
        ("--count", a.count),
        ("--all", a.all),
        ("--unique", a.unique),
        ("--trace", a.trace),
        ("--inference", a.inference.is_some()),
        ("--var-order", a.var_order.is_some()),
        ("--val-order", a.val_order.is_some()),
    ];
    if let Some((flag, _)) = ignored.iter().find(|(_, given)| *given) {
        return Err(format!(
            "--compare runs every solver with its own settings and counts all solutions; drop {flag}"
        ));
    }
    let format = CompareFormat::parse(a.format.as_deref())?;
    let (need, change) = memory_floor(hi, SizeKind::Compare, false, true);
    super::check_memory(
        &format!("--compare for n = {hi}"),
        need,
        super::available_memory(),
        change,
    )?;
    let rows = super::queens_compare::select(a.solvers.as_deref(), format)?;
    super::queens_compare::compare(lo, hi, single, format, time_limit, a.seed, rows)
}

fn verify_stdin() -> Result<ExitCode, CliError> {
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading stdin: {e}"))?;
    let text = super::decode(bytes, "<stdin>")?;
    // Status 3 for a placement that is not a solution, 2 for a line that
    // is not a placement.
    let mut status = Status::Complete;
    let mut out = super::output::stdout();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let msg = match verify::parse_line(line) {
            Ok(cols) => {
                let v = verify::check(&cols);
                if !v.is_solution() {
                    status = status.max(Status::NotASolution);
                }
                v.to_string()
            }
            Err(e) => {
                status = status.max(Status::BadInput);
                format!("error: {e}")
            }
        };
        writeln!(out, "line {}: {}", i + 1, msg.replace('\n', "\n    "))
            .map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(status.code())
}
