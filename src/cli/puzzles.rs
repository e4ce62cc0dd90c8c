//! The puzzle subcommands: `sudoku`, `color`, `cryptarithm`, `zebra`, `latin`.
//! Each reads its input, builds the example crate's model, solves it with the
//! generic engine, and re-checks every printed solution with the example's
//! independent checker.

use std::fs;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use csp_core::{Limits, Outcome, Report, SearchOptions, Statistics};

use super::puzzle_file::{HintModel, PuzzleFile};
use super::{parse_inference, parse_seconds, parse_val_order, parse_var_order, CliError, Status};

/// Reads FILE, or stdin when FILE is absent or `-`.
pub(crate) fn read_input(file: Option<&str>) -> Result<(String, String), CliError> {
    match file {
        None | Some("-") => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("reading stdin: {e}"))?;
            Ok((super::decode(bytes, "<stdin>")?, "<stdin>".into()))
        }
        Some(f) => {
            let bytes = fs::read(f).map_err(|e| format!("{f}: {e}"))?;
            Ok((super::decode(bytes, f)?, f.to_string()))
        }
    }
}

/// Engine options shared by the puzzle commands (each has its own defaults).
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Override the inference: none, fc or mac.
    #[arg(long)]
    inference: Option<String>,
    /// Override the variable order: input, mrv, dom-deg, dom-wdeg, smallest
    /// or largest.
    #[arg(long = "var-order")]
    var_order: Option<String>,
    /// Override the value order: asc, desc, middle, random, split,
    /// reverse-split, binary-min or binary-max.
    #[arg(long = "val-order")]
    val_order: Option<String>,
    /// Seed for random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop each search after this many seconds.
    #[arg(long = "time-limit")]
    time_limit: Option<String>,
    /// Stop a search whose store and trail outgrow SIZE (e.g. 512M, 4G;
    /// default: half the available memory).
    #[arg(long = "memory-limit", value_name = "SIZE")]
    memory_limit: Option<String>,
    /// Restarts for a first solution or an optimum: none, luby[:SCALE]
    /// (default scale 100 failures) or geometric[:BASE[:FACTOR]] (100, 1.5).
    #[arg(long)]
    restarts: Option<String>,
    /// Last-conflict reasoning: after a failed decision, branch on its
    /// variable again until a decision on it succeeds.
    #[arg(long = "last-conflict")]
    last_conflict: bool,
    /// Stop the search after this many nodes (a limit, never a proof).
    #[arg(long = "node-limit", value_name = "NODES")]
    node_limit: Option<u64>,
    /// The learning search (lazy clause generation: nogoods from
    /// conflicts, backjumping) for a first solution or an optimum;
    /// counting and enumeration keep the ordinary engine.
    #[arg(long)]
    learning: bool,
    /// Print statistics to stderr.
    #[arg(long)]
    pub(crate) stats: bool,
}

impl EngineArgs {
    /// The defaults, with `--stats` or not (for commands with their own
    /// engine flags, such as `csp queens --place`).
    pub(crate) fn with_stats(stats: bool) -> EngineArgs {
        EngineArgs {
            inference: None,
            var_order: None,
            val_order: None,
            seed: 1,
            time_limit: None,
            memory_limit: None,
            restarts: None,
            last_conflict: false,
            node_limit: None,
            learning: false,
            stats,
        }
    }

    pub(crate) fn apply(&self, mut o: SearchOptions) -> Result<SearchOptions, CliError> {
        if let Some(i) = &self.inference {
            o.inference = parse_inference(i)?;
        }
        if let Some(v) = &self.var_order {
            o.var_order = parse_var_order(v)?;
        }
        if let Some(v) = &self.val_order {
            o.val_order = parse_val_order(v, self.seed)?;
        }
        if let Some(t) = self.time_limit()? {
            o.limits.time = Some(t);
        }
        o.limits.memory = super::memory_limit(self.memory_limit.as_deref())?;
        if let Some(r) = &self.restarts {
            o.restarts = super::parse_restarts(r)?;
        }
        if self.last_conflict {
            o.last_conflict = true;
        }
        if let Some(n) = self.node_limit {
            o.limits.nodes = Some(n);
        }
        // The puzzle commands search without learning unless asked: each
        // command's default was measured (docs/benchmarks.md), whatever
        // the library's default; `--learning` decides by activity.
        o.learning = self.learning;
        if self.learning {
            o.learning_order = csp_core::LearningOrder::Activity;
        }
        Ok(o)
    }
    /// The engine settings as options: `--inference mac --var-order mrv
    /// --val-order asc`, each the one given or else the command's default
    /// from `defaults` (inference, variable order, value order).
    pub(crate) fn describe(&self, defaults: [&str; 3]) -> String {
        let [i, v, w] = defaults;
        format!(
            "--inference {} --var-order {} --val-order {}",
            self.inference.as_deref().unwrap_or(i),
            self.var_order.as_deref().unwrap_or(v),
            self.val_order.as_deref().unwrap_or(w)
        )
    }

    /// Was `--learning` given?
    pub(crate) fn learning(&self) -> bool {
        self.learning
    }

    /// The `--node-limit` value.
    pub(crate) fn node_limit(&self) -> Option<u64> {
        self.node_limit
    }

    /// The `--seed` value.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    fn time_limit(&self) -> Result<Option<Duration>, CliError> {
        self.time_limit.as_deref().map(parse_seconds).transpose()
    }
}

fn io_err(e: io::Error) -> CliError {
    e.to_string()
}

// ---- sudoku ----------------------------------------------------------------

/// Arguments of `csp sudoku`.
#[derive(clap::Args, Debug)]
pub struct SudokuArgs {
    /// Puzzle file (one puzzle per line; `#` and blank lines skipped); stdin if absent.
    file: Option<String>,
    /// Print the number of solutions instead of a solution.
    #[arg(long)]
    count: bool,
    /// With --count: stop counting at K.
    #[arg(long = "count-limit")]
    count_limit: Option<u64>,
    /// Print `unique`, `none` or `multiple` for each puzzle.
    #[arg(long)]
    unique: bool,
    /// line (default), grid (a boxed grid for people), or html (implies
    /// --trace): a page that replays the search on the grid, for one puzzle.
    /// With --hint, --explain or --rate: line or json; with --explain also
    /// html, a page that shows the steps one at a time on the board.
    #[arg(long, default_value = "line")]
    format: String,
    /// Trace the search: with --format html, the page that replays it
    /// (--format html alone does the same).
    #[arg(long)]
    trace: bool,
    /// All-different strength: value (default), bounds or domain.
    #[arg(long, default_value = "value")]
    alldiff: String,
    /// The next logical step, as one sentence (or, with --format json, one
    /// JSON object); input lines may also be HoDoKu library lines.
    #[arg(long, conflicts_with_all = ["explain", "rate", "count", "unique"])]
    hint: bool,
    /// The whole step-wise solution, one step a line (with --format html,
    /// a page that shows the steps on the board, for one puzzle).
    #[arg(long, conflicts_with_all = ["rate", "count", "unique"])]
    explain: bool,
    /// The difficulty of each puzzle: HoDoKu's level and a score, one line each.
    #[arg(long, conflicts_with_all = ["count", "unique"])]
    rate: bool,
    /// With --hint: look for this technique only, by HoDoKu code (0300) or
    /// name (x-wing).
    #[arg(long, value_name = "CODE|NAME", requires = "hint")]
    technique: Option<String>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp sudoku`.
pub fn sudoku(a: SudokuArgs) -> Result<ExitCode, CliError> {
    use csp_sudoku::{check_solution, model, parse, render};
    if a.hint || a.explain || a.rate {
        return sudoku_hints(&a);
    }
    let grid_format = match a.format.as_str() {
        "line" => false,
        "grid" => true,
        "html" => return sudoku_html(&a),
        f => {
            return Err(format!(
                "unknown format '{f}' (expected line, grid or html)"
            ))
        }
    };
    if a.trace {
        return Err(
            "csp sudoku --trace writes a page that replays the search: add --format html".into(),
        );
    }
    if a.count_limit == Some(0) {
        return Err("--count-limit must be at least 1".into());
    }
    let alldiff: csp_core::constraint::Consistency = a.alldiff.parse()?;
    let options = a.engine.apply(model::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let mut out = super::output::stdout();
    let mut status = Status::Complete;
    let mut total = Statistics::default();
    let start = Instant::now();
    let mut puzzles = 0;
    for entry in parse::entries(&text) {
        let grid = match entry.result {
            Ok(g) => g,
            Err(e) => {
                errln!("{name}: {e}");
                writeln!(out, "error").map_err(io_err)?;
                status = status.max(Status::BadInput);
                continue;
            }
        };
        puzzles += 1;
        let t = Instant::now();
        let stats;
        if a.unique {
            let u = model::is_unique_with(&grid, &options, alldiff);
            let word = match &u {
                model::Uniqueness::None => "none",
                model::Uniqueness::Unique(s) => {
                    check_solution(&grid, s).map_err(|e| format!("internal error: {e}"))?;
                    "unique"
                }
                model::Uniqueness::Multiple(..) => "multiple",
                model::Uniqueness::Unknown(l) => {
                    errln!(
                        "{name}: line {}: incomplete: stopped by the {l}",
                        entry.line,
                        l = super::Stop(*l)
                    );
                    status = status.max(Status::Incomplete);
                    "unknown"
                }
                model::Uniqueness::Invalid(c) => {
                    return Err(format!(
                        "engine error: a grid that violates constraint {c} was let through"
                    ))
                }
            };
            writeln!(out, "{word}").map_err(io_err)?;
            stats = None;
        } else if a.count {
            let r = match a.count_limit {
                Some(k) => model::count_up_to_with(&grid, k, &options, alldiff),
                None => {
                    let (m, _) = model::model_with(&grid, alldiff);
                    csp_core::Search::new(&m)
                        .options(options.clone())
                        .count()
                        .map_err(|e| e.to_string())?
                }
            };
            writeln!(out, "{}", r.count).map_err(io_err)?;
            if let Outcome::LimitReached(l) = r.outcome {
                errln!(
                    "{name}: line {}: incomplete count: at least {} solutions ({l})",
                    entry.line,
                    r.count
                );
                status = status.max(Status::Incomplete);
            }
            stats = Some(r.stats);
        } else {
            // Up to two solutions: a puzzle with several says so.
            let (m, cells) = model::model_with(&grid, alldiff);
            let mut it = csp_core::Search::new(&m)
                .options(options.for_another_model())
                .solutions()
                .map_err(|e| e.to_string())?;
            let first = it.next().map(|s| model::grid_of(&grid, &cells, &s));
            let second = match first {
                Some(_) => it.next().map(|s| model::grid_of(&grid, &cells, &s)),
                None => None,
            };
            let show = |g: &csp_sudoku::Grid| {
                if grid_format {
                    render::boxed(g)
                } else {
                    render::line(g)
                }
            };
            for s in first.iter().chain(&second) {
                check_solution(&grid, s).map_err(|e| format!("internal error: {e}"))?;
            }
            match (&first, &second, it.outcome()) {
                (_, _, Outcome::Invalid(c)) => {
                    return Err(format!(
                        "engine error: a grid that violates constraint {c} was let through"
                    ))
                }
                (Some(x), Some(y), _) if grid_format => {
                    writeln!(
                        out,
                        "more than one solution; two of them:\n{}\n\n{}",
                        show(x).trim_end(),
                        show(y).trim_end()
                    )
                    .map_err(io_err)?;
                }
                (Some(x), Some(y), _) => {
                    writeln!(
                        out,
                        "more than one solution, for example {} and {}",
                        show(x),
                        show(y)
                    )
                    .map_err(io_err)?;
                }
                (Some(x), None, Outcome::LimitReached(l)) => {
                    // What is known: a solution; whether it is the only
                    // one is not.
                    writeln!(out, "{}", show(x)).map_err(io_err)?;
                    errln!(
                        "{name}: line {}: incomplete: a solution, but stopped by the {l} \
                         before a second one was ruled out",
                        entry.line,
                        l = super::Stop(l)
                    );
                    status = status.max(Status::Incomplete);
                }
                (_, _, Outcome::LimitReached(l)) => {
                    writeln!(out, "unknown").map_err(io_err)?;
                    errln!(
                        "{name}: line {}: incomplete: stopped by the {l}",
                        entry.line,
                        l = super::Stop(l)
                    );
                    status = status.max(Status::Incomplete);
                }
                (Some(x), None, _) => writeln!(out, "{}", show(x)).map_err(io_err)?,
                (None, _, _) => {
                    writeln!(out, "no solution").map_err(io_err)?;
                    if let Some((givens, _)) = super::sudoku_hints::conflict(&grid) {
                        errln!(
                            "{name}: line {}: no solution: the givens {} cannot hold together \
                             (csp sudoku --hint explains why)",
                            entry.line,
                            givens.join(", ")
                        );
                    }
                }
            }
            stats = Some(it.stats());
        }
        if let Some(s) = stats {
            if a.engine.stats {
                errln!(
                    "line {}: {s} (wall {:.3} ms)",
                    entry.line,
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
            total.merge(&s);
            total.time = start.elapsed();
        }
    }
    out.flush().map_err(io_err)?;
    if a.engine.stats && !a.unique {
        total.time = start.elapsed();
        let s = if puzzles == 1 { "" } else { "s" };
        errln!("total ({puzzles} puzzle{s}): {total}");
    }
    Ok(status.code())
}

/// `csp sudoku --hint`, `--explain`, `--rate` (see [`super::sudoku_hints`]).
fn sudoku_hints(a: &SudokuArgs) -> Result<ExitCode, CliError> {
    use super::sudoku_hints::{run, HintArgs, Mode};
    let json = match a.format.as_str() {
        "line" => false,
        "json" => true,
        "html" if a.explain => {
            if a.trace {
                return Err("--trace replays the search (csp sudoku --format html); \
                            --explain --format html shows the logical steps: pick one"
                    .into());
            }
            let (text, name) = read_input(a.file.as_deref())?;
            super::sudoku_hints::explain_page(&text, &name)?;
            return Ok(ExitCode::SUCCESS);
        }
        "html" => {
            return Err(
                "--format html with a hint mode writes the explanation page: use --explain \
                 (--hint and --rate print line or json)"
                    .into(),
            )
        }
        f => {
            return Err(format!(
                "unknown format '{f}' for --hint, --explain or --rate (expected line, json, \
                 or html with --explain)"
            ))
        }
    };
    let technique = match &a.technique {
        None => None,
        Some(t) => Some(csp_sudoku::techniques::Technique::parse(t).ok_or_else(|| {
            let known: Vec<String> = csp_sudoku::techniques::LADDER
                .iter()
                .map(|t| format!("{} ({})", t.code(), t.name()))
                .collect();
            format!("unknown technique '{t}'; known: {}", known.join(", "))
        })?),
    };
    let mode = if a.hint {
        Mode::Hint
    } else if a.explain {
        Mode::Explain
    } else {
        Mode::Rate
    };
    let (text, name) = read_input(a.file.as_deref())?;
    run(
        &text,
        &name,
        &HintArgs {
            mode,
            technique,
            json,
        },
    )
}

/// `csp sudoku --format html`: the page that replays the engine's search on
/// the one puzzle of the input.
fn sudoku_html(a: &SudokuArgs) -> Result<ExitCode, CliError> {
    use csp_sudoku::{model, parse};
    if a.count || a.unique || a.count_limit.is_some() {
        return Err(
            "--format html writes a page, not a count: drop --count, --count-limit and --unique"
                .into(),
        );
    }
    let alldiff: csp_core::constraint::Consistency = a.alldiff.parse()?;
    let options = a.engine.apply(model::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let entries: Vec<parse::Entry> = parse::entries(&text).collect();
    let entry = match entries.as_slice() {
        [one] => one,
        [] => return Err(format!("{name}: no puzzle to replay")),
        many => {
            return Err(format!(
                "--format html replays one puzzle, and {name} holds {}: pick one line \
                 (e.g. sed -n 2p FILE | csp sudoku --format html)",
                many.len()
            ))
        }
    };
    let grid = entry.result.as_ref().map_err(|e| format!("{name}: {e}"))?;
    let t = Instant::now();
    let (m, cells) = model::model_with(grid, alldiff);
    let vars: Vec<csp_core::VarId> = cells.concat();
    let title = format!(
        "Sudoku ({name}, line {}), the engine's search ({})",
        entry.line,
        a.engine.describe(["mac", "mrv", "asc"])
    );
    let puzzle = super::replay::Puzzle::Sudoku {
        box_side: grid.box_side(),
        givens: grid.cells().to_vec(),
    };
    let r = super::replay::record(puzzle, &title, &m, &vars, options, false)?;
    if let Some(why) = &r.note {
        errln!(
            "{name}: line {}: warning: incomplete trace: {why}",
            entry.line
        );
    }
    if a.engine.stats {
        errln!(
            "line {}: {} (wall {:.3} ms)",
            entry.line,
            r.stats,
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(Status::stopped_if(r.note.is_some()).code())
}

// ---- color -------------------------------------------------------------------

/// Arguments of `csp color`.
#[derive(clap::Args, Debug)]
pub struct ColorArgs {
    /// A DIMACS graph file (`p edge V E`, `e u v`, `c` comments).
    file: Option<String>,
    /// A built-in map instead of a file: australia or us.
    #[arg(long)]
    map: Option<String>,
    /// Find a coloring with K colors (or prove there is none); without it,
    /// find the smallest K provable within the time limit.
    #[arg(long)]
    colors: Option<u32>,
    /// backtracking (default) or min-conflicts.
    #[arg(long, default_value = "backtracking")]
    solver: String,
    /// Count the K-colorings (all of them, renamings of colors included).
    #[arg(long)]
    count: bool,
    /// numbers (default) or names (one `region color` line per region, maps only).
    #[arg(long, default_value = "numbers")]
    format: String,
    /// Without --colors, how the chromatic number is found: minimize (one
    /// branch-and-bound search, the default) or loop (one search per K,
    /// the earlier method, kept for comparison).
    #[arg(long, default_value = "minimize")]
    method: String,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp color`.
pub fn color(a: ColorArgs) -> Result<ExitCode, CliError> {
    use csp_coloring::{check_coloring, dimacs, maps, model};
    let names = match a.format.as_str() {
        "numbers" => false,
        "names" => true,
        f => return Err(format!("unknown format '{f}' (expected numbers or names)")),
    };
    let (graph, map) = match (&a.map, &a.file) {
        (Some(_), Some(_)) => return Err("give either a FILE or --map, not both".into()),
        (None, None) => return Err("give a DIMACS FILE or --map australia|us".into()),
        (Some(m), None) => {
            let map = maps::builtin_map(m).map_err(|e| e.to_string())?;
            (map.graph(), Some(map))
        }
        (None, Some(f)) => {
            let (text, name) = read_input(Some(f))?;
            let d = dimacs::parse_dimacs(&text).map_err(|e| format!("{name}: {e}"))?;
            for w in &d.warnings {
                errln!("{name}: warning: {w}");
            }
            (d.graph, None)
        }
    };
    if names && map.is_none() {
        return Err("--format names needs a built-in --map".into());
    }
    let mut options = model::ColorOptions::default();
    options.search = a.engine.apply(options.search)?;
    let time_limit = a.engine.time_limit()?;
    let print = |colors: &[u32], k: u32| -> Result<(), CliError> {
        check_coloring(&graph, colors, k).map_err(|e| format!("internal error: {e}"))?;
        let used = colors.iter().map(|&c| c + 1).max().unwrap_or(0);
        let mut out = super::output::stdout();
        writeln!(out, "{used}").map_err(io_err)?;
        match (names, map) {
            (true, Some(m)) => {
                for (region, c) in m.regions.iter().zip(colors) {
                    writeln!(out, "{region} {}", c + 1).map_err(io_err)?;
                }
            }
            _ => {
                let line: Vec<String> = colors.iter().map(|c| (c + 1).to_string()).collect();
                writeln!(out, "{}", line.join(" ")).map_err(io_err)?;
            }
        }
        out.flush().map_err(io_err)
    };
    if a.colors == Some(0) && graph.vertices() > 0 {
        return Err("--colors must be at least 1".into());
    }
    let t = Instant::now();
    let what = format!("coloring {} vertices", graph.vertices());
    match (a.solver.as_str(), a.colors) {
        ("min-conflicts", None) => Err("--solver min-conflicts needs --colors K".into()),
        ("min-conflicts", Some(k)) => {
            if a.count {
                return Err("--count needs --solver backtracking".into());
            }
            let mut limits = Limits::none();
            limits.time = Some(time_limit.unwrap_or(Duration::from_secs(10)));
            let spinner = super::Progress::start(&what);
            let r = model::color_min_conflicts(&graph, k, a.engine.seed, &limits)
                .map_err(|e| e.to_string())?;
            drop(spinner);
            let solved = r.outcome == Outcome::Solved;
            if solved {
                print(&r.colors, k)?;
            } else {
                // Local search never proves that no coloring exists.
                outln!("unknown");
                errln!(
                    "warning: incomplete: no {k}-coloring found ({}, {} conflicts left)",
                    r.outcome,
                    r.conflicts
                );
            }
            if a.engine.stats {
                errln!(
                    "solver: min-conflicts, {} conflicts left, {} steps, {} restarts, {:.3} s",
                    r.conflicts,
                    r.steps,
                    r.restarts,
                    r.time.as_secs_f64()
                );
            }
            Ok(Status::stopped_if(!solved).code())
        }
        ("backtracking", Some(k)) if a.count => {
            // Colored in any order, each vertex has at least k - Δ colors its
            // neighbors leave free: the count is at least (k - Δ)^V. Beyond
            // u128 it cannot be printed, and the domains would be huge.
            let max_degree = graph.adjacency().iter().map(Vec::len).max().unwrap_or(0);
            let free = u128::from(k).saturating_sub(max_degree as u128);
            if free.checked_pow(graph.vertices()).is_none() {
                return Err(format!(
                    "the {k}-colorings of this graph number at least ({k} - {max_degree})^{} (k minus the largest degree, to the number of vertices), more than a count can hold (2^128); use a smaller --colors",
                    graph.vertices()
                ));
            }
            let (m, _) =
                model::model(&graph, k, model::Symmetry::None).map_err(|e| e.to_string())?;
            let spinner = super::Progress::start(&format!("counting the {k}-colorings"));
            let r: Report = csp_core::Search::new(&m)
                .options(options.search.clone())
                .count()
                .map_err(|e| e.to_string())?;
            drop(spinner);
            outln!("{}", r.count);
            if a.engine.stats {
                errln!("solver: backtracking, {}", r.stats);
            }
            if let Outcome::LimitReached(l) = r.outcome {
                errln!(
                    "warning: incomplete count: stopped by the {l}",
                    l = super::Stop(l)
                );
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
        ("backtracking", Some(k)) => {
            let spinner = super::Progress::start(&what);
            let r = model::color(&graph, k, &options).map_err(|e| e.to_string())?;
            drop(spinner);
            let stopped = r.colors.is_none() && matches!(r.outcome, Outcome::LimitReached(_));
            match (&r.colors, r.outcome) {
                (Some(c), _) => print(c, k)?,
                (None, Outcome::LimitReached(l)) => {
                    outln!("unknown");
                    errln!(
                        "warning: incomplete: stopped by the {l}",
                        l = super::Stop(l)
                    );
                }
                (None, _) => outln!("none"),
            }
            if a.engine.stats {
                errln!("solver: backtracking, {}", r.stats);
            }
            Ok(Status::stopped_if(stopped).code())
        }
        ("backtracking", None) => {
            if a.count {
                return Err("--count needs --colors K".into());
            }
            let limit = time_limit.or(Some(Duration::from_secs(60)));
            let spinner = super::Progress::start(&format!("{what} with as few colors as possible"));
            let c = match a.method.as_str() {
                "minimize" => model::chromatic_number(&graph, limit, &options),
                "loop" => model::chromatic_number_by_loop(&graph, limit, &options),
                m => return Err(format!("unknown method '{m}' (expected minimize or loop)")),
            }
            .map_err(|e| e.to_string())?;
            drop(spinner);
            // Without a proof of optimality the answer is incomplete.
            match (&c.coloring, c.upper) {
                (Some(col), Some(k)) => {
                    print(col, k)?;
                    match c.exact() {
                        Some(x) => errln!("chromatic number: {x} (proven optimal)"),
                        None => errln!(
                            "warning: incomplete: {k} colors suffice; not proven optimal (lower bound {}) within the time limit",
                            c.lower
                        ),
                    }
                }
                _ => {
                    outln!("unknown");
                    errln!("warning: incomplete: no coloring found within the time limit");
                }
            }
            if a.engine.stats {
                for (i, (k, o, s)) in c.attempts.iter().enumerate() {
                    if i > 0 && a.method == "minimize" {
                        // One branch-and-bound search over at most k colors.
                        errln!("minimize, k <= {k}: {o}; {s}");
                    } else {
                        errln!("k = {k}: {o}; {s}");
                    }
                }
                errln!("total {:.3} s", t.elapsed().as_secs_f64());
            }
            Ok(Status::stopped_if(c.exact().is_none()).code())
        }
        (s, _) => Err(format!(
            "unknown solver '{s}' (expected backtracking or min-conflicts)"
        )),
    }
}

// ---- cryptarithm -----------------------------------------------------------

/// Arguments of `csp cryptarithm`.
#[derive(clap::Args, Debug)]
pub struct CryptarithmArgs {
    /// The puzzle, e.g. "SEND+MORE=MONEY".
    puzzle: String,
    /// Print the number of solutions only.
    #[arg(long)]
    count: bool,
    /// Allow words of two or more letters to start with 0.
    #[arg(long = "allow-leading-zeros")]
    allow_leading_zeros: bool,
    /// columns (with carries, default) or linear (one equation).
    #[arg(long, default_value = "columns")]
    formulation: String,
    /// Print the solution in which WORD, read as a number, is largest
    /// (branch and bound), e.g. --maximize MONEY.
    #[arg(long, value_name = "WORD", conflicts_with_all = ["count", "minimize"])]
    maximize: Option<String>,
    /// Print the solution in which WORD is smallest.
    #[arg(long, value_name = "WORD", conflicts_with = "count")]
    minimize: Option<String>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp cryptarithm`.
pub fn cryptarithm(a: CryptarithmArgs) -> Result<ExitCode, CliError> {
    use csp_cryptarithm::{check_solution, model, render, Puzzle};
    let puzzle: Puzzle = a.puzzle.parse().map_err(|e| format!("{e}"))?;
    let mut o = model::Options {
        leading_zeros: a.allow_leading_zeros,
        ..model::Options::default()
    };
    o.formulation = match a.formulation.as_str() {
        "columns" => model::Formulation::Columns,
        "linear" => model::Formulation::Linear,
        f => {
            return Err(format!(
                "unknown formulation '{f}' (expected columns or linear)"
            ))
        }
    };
    o.search = a.engine.apply(o.search)?;
    if let Some((word, maximize)) = a
        .maximize
        .as_ref()
        .map(|w| (w, true))
        .or(a.minimize.as_ref().map(|w| (w, false)))
    {
        let r = model::optimize(&puzzle, &o, word, maximize).map_err(|e| e.to_string())?;
        let status = match (&r.digits, r.value, r.outcome) {
            (Some(d), Some(v), outcome) => {
                check_solution(&puzzle, d, a.allow_leading_zeros)
                    .map_err(|e| format!("internal error: {e}"))?;
                outln!("{}", render::equation(&puzzle, d));
                let what = if maximize { "maximum" } else { "minimum" };
                match outcome {
                    Outcome::Solved => outln!("{} = {v} ({what}, proven)", word.to_uppercase()),
                    Outcome::LimitReached(l) => outln!(
                        "{} = {v} (best found, not proven the {what}: stopped by the {l})",
                        word.to_uppercase(),
                        l = super::Stop(l)
                    ),
                    o => outln!("{} = {v} ({o})", word.to_uppercase()),
                }
                Status::stopped_if(outcome != Outcome::Solved)
            }
            (_, _, Outcome::LimitReached(l)) => {
                outln!("unknown");
                errln!(
                    "warning: incomplete: stopped by the {l}",
                    l = super::Stop(l)
                );
                Status::Incomplete
            }
            _ => {
                outln!("no solution");
                Status::Complete
            }
        };
        if a.engine.stats {
            errln!("{}", r.stats);
        }
        return Ok(status.code());
    }
    let r = model::solve_all(&puzzle, &o).map_err(|e| e.to_string())?;
    let mut out = super::output::stdout();
    for d in &r.solutions {
        check_solution(&puzzle, d, a.allow_leading_zeros)
            .map_err(|e| format!("internal error: {e}"))?;
    }
    let stopped = matches!(r.outcome, Outcome::LimitReached(_));
    if a.count {
        writeln!(out, "{}", r.solutions.len()).map_err(io_err)?;
    } else if r.solutions.is_empty() && stopped {
        writeln!(out, "unknown").map_err(io_err)?;
    } else if r.solutions.is_empty() {
        writeln!(out, "no solution").map_err(io_err)?;
    } else {
        for d in &r.solutions {
            writeln!(out, "{}", render::equation(&puzzle, d)).map_err(io_err)?;
        }
    }
    out.flush().map_err(io_err)?;
    if let Outcome::LimitReached(l) = r.outcome {
        errln!(
            "warning: incomplete: stopped by the {l}",
            l = super::Stop(l)
        );
    }
    if a.engine.stats {
        errln!("{}", r.stats);
    }
    Ok(if stopped {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

// ---- zebra -------------------------------------------------------------------

/// Arguments of `csp zebra`.
#[derive(clap::Args, Debug)]
pub struct ZebraArgs {
    /// Also print the full table of houses.
    #[arg(long)]
    table: bool,
    /// Print statistics to stderr.
    #[arg(long)]
    stats: bool,
}

/// Runs `csp zebra`.
pub fn zebra(a: ZebraArgs) -> Result<ExitCode, CliError> {
    use csp_zebra::{check_solution, model, render};
    let t = Instant::now();
    let answer = model::solve_unique().map_err(|e| e.to_string())?;
    let mut status = Status::Complete;
    match answer {
        model::Answer::Unique(s) => {
            check_solution(&s).map_err(|e| format!("internal error: {e}"))?;
            if let Some(text) = render::answers(&s) {
                out!("{text}");
            }
            if a.table {
                outln!("{}", render::table(&s));
            }
            outln!("The solution is unique.");
        }
        model::Answer::None => outln!("no solution"),
        model::Answer::Multiple(x, _) => {
            if let Some(text) = render::answers(&x) {
                out!("{text}");
            }
            outln!("The clues allow several solutions.");
        }
        model::Answer::Unknown(l) => {
            outln!("unknown");
            errln!(
                "warning: incomplete: stopped by the {l}",
                l = super::Stop(l)
            );
            status = Status::Incomplete;
        }
        model::Answer::Invalid(c) => {
            return Err(format!(
                "engine error: an assignment that violates constraint {c} was let through"
            ))
        }
    }
    if a.stats {
        errln!("time: {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(status.code())
}

// ---- latin -------------------------------------------------------------------

/// Arguments of `csp latin`.
#[derive(clap::Args, Debug)]
pub struct LatinArgs {
    /// An order N (with --count), or a file of partial squares to complete
    /// (one square per block of N lines, `.` for blanks; stdin with `-`).
    input: String,
    /// Count the Latin squares of order N.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    hints: super::puzzle_file::HintArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp latin`.
pub fn latin(a: LatinArgs) -> Result<ExitCode, CliError> {
    use csp_latin::{check_solution, model, parse, render};
    if a.count {
        let n: usize = a
            .input
            .parse()
            .map_err(|_| format!("N must be a positive integer, got '{}'", a.input))?;
        if n == 0 || n > model::MAX_COUNT_ORDER {
            return Err(format!(
                "cannot count Latin squares of order {n} (orders 1 to {} are supported)",
                model::MAX_COUNT_ORDER
            ));
        }
        let options = a.engine.apply(model::options())?;
        let r = model::count_latin_squares_with(n, model::Counting::Reduced, &options)
            .map_err(|e| e.to_string())?;
        outln!("{}", r.count);
        if a.engine.stats {
            errln!(
                "counted reduced squares (first row and column in order), multiplied by n!(n-1)!; engine: {}",
                r.stats
            );
        }
        if let Outcome::LimitReached(l) = r.outcome {
            errln!(
                "warning: incomplete count: stopped by the {l}",
                l = super::Stop(l)
            );
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let options = a.engine.apply(model::options())?;
    let (text, name) = read_input(Some(&a.input))?;
    let json = a.hints.json()?;
    super::puzzle_file::one_page(&a.hints, &name, parse::entries(&text).count())?;
    let file = PuzzleFile {
        name: &name,
        puzzles: &[],
        count: false,
        line: |p: &(usize, csp_latin::Square)| Some(p.0),
        model: &|p| {
            let (m, cells) = model::model(&p.1);
            Ok((m, cells.into_iter().flatten().collect()))
        },
        check: |p, v| {
            let n = p.1.order();
            let cells = v.iter().map(|&x| u8::try_from(x).unwrap_or(0)).collect();
            let s = csp_latin::Square::new(n, cells).map_err(|e| e.to_string())?;
            check_solution(&p.1, &s)
        },
        render: |p, v| {
            let cells = v.iter().map(|&x| u8::try_from(x).unwrap_or(0)).collect();
            csp_latin::Square::new(p.1.order(), cells)
                .map(|s| render::text(&s))
                .unwrap_or_default()
        },
        conflict: &|p| HintModel::labelled(model::hint_model(&p.1).ok()?).conflict(),
        unique: true,
    };
    let mut status = Status::Complete;
    let mut first = true;
    for entry in parse::entries(&text) {
        if !first && a.hints.blank_lines() {
            outln!();
        }
        first = false;
        let sq = match entry.result {
            Ok(s) => s,
            // A page has no place for an error line: the error alone.
            Err(e) if a.hints.html() => return Err(format!("{name}: {e}")),
            Err(e) => {
                errln!("{name}: {e}");
                if json {
                    outln!(
                        "{{\"puzzle\": {}, \"error\": {}}}",
                        entry.line,
                        super::minizinc::json_string(&e.to_string())
                    );
                } else {
                    outln!("error");
                }
                status = status.max(Status::BadInput);
                continue;
            }
        };
        let p = (entry.line, sq);
        status = status.max(if a.hints.wanted() {
            file.hint_one(
                &p,
                &|p| model::hint_model(&p.1).map(HintModel::labelled),
                &a.hints,
                &a.engine,
                &options,
            )?
        } else {
            file.solve_one(&p, &options, &a.engine)?
        });
    }
    Ok(status.code())
}
