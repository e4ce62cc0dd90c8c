//! `csp queens --compare`: every solver on one board size or on a range of
//! them (`--compare 4..14`), as a text table, CSV, JSON or an SVG plot.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use csp_core::{Inference, Limits, Outcome, Search, SearchOptions, ValOrder, VarOrder};
use csp_queens::model::{queens_model, ModelKind};
use csp_queens::{bitboard, brute_force, constellation, construction, permutation};

use super::queens_teach::{self, Teach};
use super::{CliError, Status};

/// The largest n of a `--compare A..B` range.
pub const MAX_RANGE_N: usize = 64;

/// How the comparison is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFormat {
    /// A table for people.
    Table,
    /// One line per solver and n.
    Csv,
    /// The same as JSON.
    Json,
    /// Nodes and time against n, log scale, per solver.
    Svg,
}

impl CompareFormat {
    /// Parses `--format` for `--compare`.
    pub fn parse(s: Option<&str>) -> Result<CompareFormat, CliError> {
        match s.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            None | Some("table") => Ok(CompareFormat::Table),
            Some("csv") => Ok(CompareFormat::Csv),
            Some("json") => Ok(CompareFormat::Json),
            Some("svg") => Ok(CompareFormat::Svg),
            Some(_) => Err(format!(
                "--compare prints table, csv, json or svg, not '{}'",
                s.unwrap_or_default()
            )),
        }
    }
}

/// Parses the value of `--compare`: `A..B` or `A..=B` (both ends included)
/// or a single `N`.
pub fn parse_range(s: &str) -> Result<(usize, usize), CliError> {
    let bad = || {
        format!(
            "--compare expects a range of board sizes A..B (both included, A ≤ B ≤ {MAX_RANGE_N}) or one N, got '{s}'"
        )
    };
    let number = |t: &str| -> Result<usize, CliError> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        t.parse::<usize>().map_err(|_| bad())
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let a = number(s)?;
            return Ok((a, a));
        }
    };
    if a > b {
        return Err(format!(
            "--compare {s}: the range is empty (the first size must not be larger than the last)"
        ));
    }
    if b > MAX_RANGE_N {
        return Err(format!(
            "--compare {s}: ranges go up to n = {MAX_RANGE_N} (every n runs every solver, each up to --time-limit); compare a single larger N with `csp queens N --compare`"
        ));
    }
    Ok((a, b))
}

/// A solver as the comparison runs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Which {
    Engine(ModelKind, Inference),
    Permutation,
    BruteForce,
    BitboardSymmetry,
    BitboardMirror,
    Constellation,
    MinConflicts,
    Genetic,
    Construction,
    Teach(Teach),
}

fn solvers() -> Vec<(Which, &'static str)> {
    use Inference::{ForwardChecking as Fc, Mac, None as No};
    use ModelKind::{AllDifferent as Ad, Pairwise as Pw};
    let mut v = vec![
        (Which::Engine(Ad, No), "backtracking (none)"),
        (Which::Engine(Ad, Fc), "backtracking (fc)"),
        (Which::Engine(Ad, Mac), "backtracking (mac)"),
        (Which::Engine(Pw, No), "pairwise (none)"),
        (Which::Engine(Pw, Fc), "pairwise (fc)"),
        (Which::Permutation, "permutation"),
        (Which::BruteForce, "brute-force"),
        (Which::BitboardSymmetry, "bitboard (8-fold symmetry)"),
        (Which::BitboardMirror, "bitboard (mirror)"),
        (Which::Constellation, "constellation"),
        (Which::MinConflicts, "min-conflicts (one)"),
        (Which::Genetic, "genetic (one)"),
        (Which::Construction, "construction (one)"),
    ];
    for (t, name) in Teach::ALL {
        let label = match t {
            Teach::MinConflicts => "teach-min-conflicts (one)",
            Teach::Genetic => "teach-genetic (one)",
            _ => name,
        };
        v.push((Which::Teach(t), label));
    }
    v
}

/// The rows of the teaching ladder (docs/queens.md): the teaching solvers,
/// then symmetry, the tuned counter and the engine.
fn on_the_ladder(which: Which) -> bool {
    matches!(
        which,
        Which::Teach(_)
            | Which::BitboardSymmetry
            | Which::Constellation
            | Which::Engine(ModelKind::AllDifferent, Inference::ForwardChecking)
    )
}

/// A compared solver: what runs, and its label.
pub(super) type Row = (Which, &'static str);

/// The solvers `--solvers` names (comma-separated: a `--solver` name
/// selects all its rows, `backtracking` the three inference levels; a full
/// label such as `backtracking (fc)` one row; `ladder` the teaching ladder;
/// `all` every solver), in the table's order. Without `--solvers`, the
/// ladder for the chart (`--format svg`) and every solver otherwise.
pub(super) fn select(names: Option<&str>, format: CompareFormat) -> Result<Vec<Row>, CliError> {
    let all = solvers();
    let Some(names) = names else {
        return Ok(if format == CompareFormat::Svg {
            all.into_iter().filter(|(w, _)| on_the_ladder(*w)).collect()
        } else {
            all
        });
    };
    let mut keep = vec![false; all.len()];
    for name in names.split(',').map(str::trim) {
        let hits: Vec<usize> = (0..all.len())
            .filter(|&i| {
                let (which, label) = all[i];
                match name {
                    "all" => true,
                    "ladder" => on_the_ladder(which),
                    _ => label == name || label.split(" (").next() == Some(name),
                }
            })
            .collect();
        if hits.is_empty() {
            let mut known: Vec<&str> = all
                .iter()
                .map(|(_, l)| l.split(" (").next().unwrap_or(l))
                .collect();
            known.dedup();
            return Err(format!(
                "--solvers: unknown solver '{name}' (expected ladder, all or some of: {})",
                known.join(", ")
            ));
        }
        for i in hits {
            keep[i] = true;
        }
    }
    Ok(all
        .into_iter()
        .zip(keep)
        .filter_map(|(row, k)| k.then_some(row))
        .collect())
}

impl Which {
    /// Whether it counts every solution.
    fn exact(self) -> bool {
        match self {
            Which::MinConflicts | Which::Genetic | Which::Construction => false,
            Which::Teach(t) => t.exact(),
            _ => true,
        }
    }

    /// Why it does not run on `n`, if it does not.
    fn skip(self, n: usize) -> Option<&'static str> {
        match self {
            Which::BruteForce | Which::Teach(Teach::Nn) if n > 9 => Some("n^n too large"),
            Which::BitboardSymmetry | Which::BitboardMirror if n > bitboard::MAX_N => {
                Some("n too large")
            }
            Which::Constellation if n > constellation::MAX_N => Some("n too large"),
            Which::Teach(t) if n > t.max_n() => Some("n too large"),
            _ => None,
        }
    }
}

/// One solver on one n.
#[derive(Clone, Copy, Debug)]
struct Cell {
    /// Solutions counted (found: 0 or 1 for the one-solution solvers).
    solutions: u128,
    /// Whether it ran to the end (a count stopped by the limit is a lower
    /// bound; a local search that found nothing has not shown there is none).
    complete: bool,
    /// Nodes, for the solvers that count them.
    nodes: Option<u64>,
    seconds: f64,
}

/// Runs `which` on `n` within `limit`.
fn measure(which: Which, n: usize, limit: Duration, seed: u64) -> Result<Cell, CliError> {
    let t = Instant::now();
    let deadline = t + limit;
    let budget = || permutation::Budget::unlimited().with_deadline(deadline);
    let (solutions, complete, nodes) = match which {
        Which::Engine(kind, inference) => {
            let q = queens_model(n, kind).map_err(|e| e.to_string())?;
            let options = SearchOptions {
                inference,
                var_order: VarOrder::Input,
                val_order: ValOrder::Ascending,
                limits: Limits::none().with_time(limit),
                learning: false, // measured with the ordinary engine
                ..Default::default()
            };
            let r = Search::new(&q.model)
                .options(options)
                .count()
                .map_err(|e| e.to_string())?;
            let complete = !matches!(r.outcome, Outcome::LimitReached(_));
            (r.count, complete, Some(r.stats.nodes))
        }
        Which::Permutation => {
            let r = permutation::count(n, &budget()).map_err(|e| e.to_string())?;
            (r.solutions, r.status.is_complete(), Some(r.nodes))
        }
        Which::BruteForce => {
            let r = brute_force::count(n, &budget()).map_err(|e| e.to_string())?;
            (
                r.solutions,
                r.status.is_complete(),
                u64::try_from(r.tried).ok(),
            )
        }
        Which::BitboardSymmetry => {
            let (c, status) = bitboard::count_within(n, 1, &budget()).map_err(|e| e.to_string())?;
            (c.total, status.is_complete(), None)
        }
        Which::BitboardMirror => {
            let (c, status) =
                bitboard::count_mirror_within(n, &budget()).map_err(|e| e.to_string())?;
            (c, status.is_complete(), None)
        }
        Which::Constellation => {
            let (c, status) = constellation::count_within(n, 1, &budget(), &|_, _| {})
                .map_err(|e| e.to_string())?;
            (c, status.is_complete(), None)
        }
        Which::MinConflicts | Which::Genetic => {
            let genetic = which == Which::Genetic;
            let (c, note, _) = super::queens_local::solve(n, genetic, seed, Some(limit))?;
            // Not found within the limit is not "no solution".
            (u128::from(c.is_some()), c.is_some() || note.is_none(), None)
        }
        Which::Construction => match construction::construct(n) {
            Ok(_) => (1, true, None),
            Err(construction::ConstructionError::NoSolution { .. }) => (0, true, None),
            Err(e) => return Err(e.to_string()),
        },
        Which::Teach(teach) => {
            let r = queens_teach::run(
                teach,
                n,
                seed,
                Some(deadline),
                |_| std::ops::ControlFlow::Continue(()),
                None,
                None,
            )?;
            let complete = !r.timed_out && (teach.exact() || r.solutions > 0);
            (r.solutions, complete, Some(r.nodes))
        }
    };
    Ok(Cell {
        solutions,
        complete,
        nodes,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// Every solver's cells over `sizes`: `None` where it was skipped (not
/// applicable, or stopped by the limit at a smaller n: the trees only grow).
struct Results {
    sizes: Vec<usize>,
    limit: Duration,
    rows: Vec<(Which, &'static str, Vec<Option<Cell>>)>,
}

impl Results {
    fn incomplete(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|(_, _, cells)| cells)
            .any(|c| c.is_some_and(|c| !c.complete))
    }
}

fn run_all(
    sizes: Vec<usize>,
    limit: Duration,
    seed: u64,
    chosen: Vec<Row>,
) -> Result<Results, CliError> {
    let mut rows = Vec::new();
    for (which, label) in chosen {
        let mut cells = Vec::with_capacity(sizes.len());
        let mut stopped = false;
        for &n in &sizes {
            if stopped || which.skip(n).is_some() {
                cells.push(None);
                continue;
            }
            let c = measure(which, n, limit, seed)?;
            // A search stopped by the limit would only stop again on a
            // larger board; a local search that missed may still find one.
            stopped = !c.complete && which.exact();
            cells.push(Some(c));
        }
        rows.push((which, label, cells));
    }
    Ok(Results { sizes, limit, rows })
}

/// Runs the comparison for `lo..=hi` and prints it; `single` keeps the
/// one-board table of `csp queens N --compare`.
pub(super) fn compare(
    lo: usize,
    hi: usize,
    single: bool,
    format: CompareFormat,
    time_limit: Option<Duration>,
    seed: u64,
    rows: Vec<Row>,
) -> Result<ExitCode, CliError> {
    let limit = time_limit.unwrap_or(Duration::from_secs(10));
    let r = run_all((lo..=hi).collect(), limit, seed, rows)?;
    let text = match format {
        CompareFormat::Table if single => single_table(&r),
        CompareFormat::Table => range_table(&r),
        CompareFormat::Csv => csv(&r),
        CompareFormat::Json => json(&r),
        CompareFormat::Svg => svg(&r),
    };
    out!("{text}");
    let incomplete = r.incomplete();
    if incomplete && format == CompareFormat::Table {
        errln!(
            "warning: incomplete: the entries marked >= stopped before the end (time limit {} s each; the local searches also have step limits)",
            limit.as_secs_f64()
        );
    } else if incomplete {
        errln!(
            "warning: incomplete: some entries stopped before the end (\"complete\": false; time limit {} s each)",
            limit.as_secs_f64()
        );
    }
    Ok(Status::stopped_if(incomplete).code())
}

fn solutions_text(c: &Cell) -> String {
    if c.complete {
        c.solutions.to_string()
    } else {
        format!(">={}", c.solutions)
    }
}

/// The table of `csp queens N --compare`.
fn single_table(r: &Results) -> String {
    let n = r.sizes[0];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{n}-queens, every solver (time limit {} s each)",
        r.limit.as_secs_f64()
    );
    let _ = writeln!(
        s,
        "{:<28} {:>14} {:>14} {:>10}",
        "solver", "solutions", "nodes", "time (s)"
    );
    for (which, label, cells) in &r.rows {
        match &cells[0] {
            Some(c) => {
                let nodes = c.nodes.map_or("-".to_string(), |k| k.to_string());
                let _ = writeln!(
                    s,
                    "{label:<28} {:>14} {nodes:>14} {:>10.4}",
                    solutions_text(c),
                    c.seconds
                );
            }
            None => {
                if let Some(why) = which.skip(n).filter(|w| w.starts_with("n^n")) {
                    let _ = writeln!(s, "{label:<28} {:>14}", format!("skipped ({why})"));
                }
            }
        }
    }
    s
}

/// `12345678` as `12.3M`: three significant digits from 10,000 on.
fn compact(k: u64) -> String {
    if k < 10_000 {
        return k.to_string();
    }
    let (v, unit) = match k {
        _ if k < 1_000_000 => (k as f64 / 1e3, "k"),
        _ if k < 1_000_000_000 => (k as f64 / 1e6, "M"),
        _ => (k as f64 / 1e9, "G"),
    };
    if v < 100.0 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.0}{unit}")
    }
}

/// Milliseconds with three significant digits (at least one decimal).
fn millis(seconds: f64) -> String {
    let ms = seconds * 1e3;
    match ms {
        _ if ms < 10.0 => format!("{ms:.2}"),
        _ if ms < 100.0 => format!("{ms:.1}"),
        _ => format!("{ms:.0}"),
    }
}

/// The table over a range of n: three sections (solutions, nodes, time),
/// one line per solver, one column per n.
fn range_table(r: &Results) -> String {
    const W: usize = 8;
    const L: usize = 28;
    let mut s = String::new();
    let (lo, hi) = (r.sizes[0], r.sizes[r.sizes.len() - 1]);
    let _ = writeln!(
        s,
        "n-queens for n = {lo}..{hi}, every solver (time limit {} s each; >= stopped by it, blank: skipped)",
        r.limit.as_secs_f64()
    );
    let header = |s: &mut String, title: &str| {
        let _ = write!(s, "\n{title:<L$}");
        for n in &r.sizes {
            let _ = write!(s, " {:>W$}", format!("n={n}"));
        }
        s.push('\n');
    };
    let line =
        |s: &mut String, label: &str, cells: &[Option<Cell>], f: &dyn Fn(&Cell) -> String| {
            let _ = write!(s, "{label:<L$}");
            for c in cells {
                let _ = write!(s, " {:>W$}", c.as_ref().map_or(String::new(), f));
            }
            let trimmed = s.trim_end().len();
            s.truncate(trimmed);
            s.push('\n');
        };
    // Solutions: the exact solvers that agree share one line.
    header(&mut s, "solutions");
    let exact: Vec<_> = r.rows.iter().filter(|(w, _, _)| w.exact()).collect();
    let reference: Vec<Option<u128>> = (0..r.sizes.len())
        .map(|i| {
            exact
                .iter()
                .find_map(|(_, _, cells)| cells[i].filter(|c| c.complete).map(|c| c.solutions))
        })
        .collect();
    let agrees = |cells: &[Option<Cell>]| {
        cells
            .iter()
            .zip(&reference)
            .all(|(c, want)| match (c, want) {
                (Some(c), Some(w)) if c.complete => c.solutions == *w,
                (Some(c), Some(w)) => c.solutions <= *w,
                _ => true,
            })
    };
    let (same, differ): (Vec<_>, Vec<_>) = exact
        .iter()
        .copied()
        .partition(|(_, _, cells)| agrees(cells));
    let ref_cells: Vec<Option<Cell>> = reference
        .iter()
        .map(|w| {
            w.map(|solutions| Cell {
                solutions,
                complete: true,
                nodes: None,
                seconds: 0.0,
            })
        })
        .collect();
    line(
        &mut s,
        &format!("exact solvers ({} agree)", same.len()),
        &ref_cells,
        &solutions_text,
    );
    for (_, label, cells) in differ {
        line(&mut s, &format!("{label} DIFFERS"), cells, &solutions_text);
    }
    for (_, label, cells) in r.rows.iter().filter(|(w, _, _)| !w.exact()) {
        line(&mut s, label, cells, &solutions_text);
    }
    header(&mut s, "nodes");
    let counts_nodes = |cells: &[Option<Cell>]| cells.iter().flatten().any(|c| c.nodes.is_some());
    for (_, label, cells) in r.rows.iter().filter(|(_, _, cells)| counts_nodes(cells)) {
        line(&mut s, label, cells, &|c: &Cell| match c.nodes {
            None => "-".into(),
            Some(k) if c.complete => compact(k),
            Some(k) => format!(">={}", compact(k)),
        });
    }
    header(&mut s, "time (ms)");
    for (_, label, cells) in &r.rows {
        line(&mut s, label, cells, &|c: &Cell| millis(c.seconds));
    }
    s
}

/// One line per solver and n: `n,solver,exact,solutions,complete,nodes,seconds`
/// (nodes empty where not counted; skipped entries left out).
fn csv(r: &Results) -> String {
    let mut s = String::from("n,solver,exact,solutions,complete,nodes,seconds\n");
    for (which, label, cells) in &r.rows {
        for (n, c) in r.sizes.iter().zip(cells) {
            if let Some(c) = c {
                let nodes = c.nodes.map_or(String::new(), |k| k.to_string());
                let _ = writeln!(
                    s,
                    "{n},{label},{},{},{},{nodes},{:.6}",
                    which.exact(),
                    c.solutions,
                    c.complete,
                    c.seconds
                );
            }
        }
    }
    s
}

/// `{"time_limit_s":…,"rows":[{"n":…,"solver":…,…}]}`, the fields of [`csv`]
/// (`nodes` null where not counted).
fn json(r: &Results) -> String {
    let mut s = format!("{{\"time_limit_s\":{},\"rows\":[", r.limit.as_secs_f64());
    let mut first = true;
    for (which, label, cells) in &r.rows {
        for (n, c) in r.sizes.iter().zip(cells) {
            if let Some(c) = c {
                if !first {
                    s.push(',');
                }
                first = false;
                let nodes = c.nodes.map_or("null".to_string(), |k| k.to_string());
                let _ = write!(
                    s,
                    "\n{{\"n\":{n},\"solver\":\"{label}\",\"exact\":{},\"solutions\":{},\"complete\":{},\"nodes\":{nodes},\"seconds\":{:.6}}}",
                    which.exact(),
                    c.solutions,
                    c.complete,
                    c.seconds
                );
            }
        }
    }
    s.push_str("\n]}\n");
    s
}

/// The line style of a solver: solid for the exact solvers, long dashes
/// for the exact teaching ones, short dashes for the one-solution solvers.
fn dash(which: Which) -> &'static str {
    match which {
        _ if !which.exact() => " stroke-dasharray=\"2 2\"",
        Which::Teach(_) => " stroke-dasharray=\"7 3\"",
        _ => "",
    }
}

/// What a plot shows of a cell.
type Metric<'a> = &'a dyn Fn(&Cell) -> Option<f64>;

/// Two log-scale plots against n, nodes on the left and time on the right,
/// one polyline per solver (styled by [`dash`]) and a
/// legend below. Hand-written SVG: a few dozen elements need no plotting
/// library, and the output is plain text that tests can read.
fn svg(r: &Results) -> String {
    const PW: f64 = 420.0; // plot width
    const PH: f64 = 300.0; // plot height
    const ML: f64 = 60.0; // left margin (axis labels)
    const MT: f64 = 40.0; // top margin (titles)
    const ML2: f64 = 120.0; // right of each plot: the labels at the lines' ends
                            // Kelly's colours of maximum contrast (white left out) and black: one
                            // for each of the 21 solvers, none repeated.
    const COLORS: [&str; 21] = [
        "#222222", "#f3c300", "#875692", "#f38400", "#a1caf1", "#be0032", "#c2b280", "#848482",
        "#008856", "#e68fac", "#0067a5", "#f99379", "#604e97", "#f6a600", "#b3446c", "#dcd300",
        "#882d17", "#8db600", "#654522", "#e25822", "#2b3d26",
    ];
    let (lo, hi) = (r.sizes[0], r.sizes[r.sizes.len() - 1]);
    let legend_rows = r.rows.len().div_ceil(3);
    let width = 2.0 * (ML + PW + ML2);
    let height = MT + PH + 50.0 + 18.0 * legend_rows as f64;
    let mut s = String::new();
    let _ = writeln!(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        s,
        "  <title>n-queens for n = {lo}..{hi}: nodes and time per solver (log scale)</title>"
    );
    let _ = writeln!(
        s,
        "  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
    );
    let x_of = |n: usize, left: f64| {
        if hi == lo {
            left + PW / 2.0
        } else {
            left + PW * (n - lo) as f64 / (hi - lo) as f64
        }
    };
    let panels: [(&str, Metric); 2] = [
        ("nodes", &|c: &Cell| c.nodes.map(|k| k as f64)),
        ("time (s)", &|c: &Cell| Some(c.seconds)),
    ];
    for (p, (title, value)) in panels.iter().enumerate() {
        let left = ML + p as f64 * (ML + PW + ML2);
        let values: Vec<f64> = r
            .rows
            .iter()
            .flat_map(|(_, _, cells)| cells.iter().flatten().filter_map(value))
            .filter(|v| *v > 0.0)
            .collect();
        let lo_exp = values
            .iter()
            .fold(f64::INFINITY, |m, v| m.min(v.log10()))
            .floor();
        let hi_exp = values
            .iter()
            .fold(f64::NEG_INFINITY, |m, v| m.max(v.log10()))
            .ceil();
        let (lo_exp, hi_exp) = if values.is_empty() {
            (0.0, 1.0)
        } else if hi_exp <= lo_exp {
            (lo_exp, lo_exp + 1.0)
        } else {
            (lo_exp, hi_exp)
        };
        let y_of = |v: f64| MT + PH * (1.0 - (v.log10() - lo_exp) / (hi_exp - lo_exp));
        let _ = writeln!(
            s,
            "  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\">{title} (log scale)</text>",
            left + PW / 2.0,
            MT - 15.0
        );
        let _ = writeln!(
            s,
            "  <rect x=\"{left:.1}\" y=\"{MT:.1}\" width=\"{PW:.1}\" height=\"{PH:.1}\" fill=\"none\" stroke=\"#000000\"/>"
        );
        let mut e = lo_exp;
        while e <= hi_exp {
            let y = y_of(10f64.powf(e));
            let _ = writeln!(
                s,
                "  <line x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>\n  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">1e{e}</text>",
                left + PW,
                left - 4.0,
                y + 4.0
            );
            e += 1.0;
        }
        for &n in &r.sizes {
            let _ = writeln!(
                s,
                "  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{n}</text>",
                x_of(n, left),
                MT + PH + 14.0
            );
        }
        let _ = writeln!(
            s,
            "  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n</text>",
            left + PW / 2.0,
            MT + PH + 28.0
        );
        for (i, (which, label, cells)) in r.rows.iter().enumerate() {
            let points: Vec<String> = r
                .sizes
                .iter()
                .zip(cells)
                .filter_map(|(&n, c)| {
                    let v = c.as_ref().and_then(value).filter(|v| *v > 0.0)?;
                    Some(format!("{:.1},{:.1}", x_of(n, left), y_of(v)))
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            let dash = dash(*which);
            let color = COLORS[i % COLORS.len()];
            let _ = writeln!(
                s,
                "  <polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\"{dash} points=\"{}\"><title>{label}</title></polyline>",
                points.join(" ")
            );
            // The label at the end of the line, where the eye follows it.
            let end = points[points.len() - 1]
                .split_once(',')
                .unwrap_or(("0", "0"));
            let _ = writeln!(
                s,
                "  <text class=\"end-label\" x=\"{}\" y=\"{}\" dx=\"4\" dy=\"3\" font-size=\"9\" fill=\"{color}\">{label}</text>",
                end.0, end.1
            );
        }
    }
    for (i, (which, label, _)) in r.rows.iter().enumerate() {
        let x = ML + (i % 3) as f64 * 300.0;
        let y = MT + PH + 50.0 + 18.0 * (i / 3) as f64;
        let dash = dash(*which);
        let _ = writeln!(
            s,
            "  <line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"2\"{dash}/>\n  <text x=\"{:.1}\" y=\"{y:.1}\">{label}</text>",
            y - 4.0,
            x + 24.0,
            y - 4.0,
            COLORS[i % COLORS.len()],
            x + 30.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("4..14"), Ok((4, 14)));
        assert_eq!(parse_range("4..=14"), Ok((4, 14)));
        assert_eq!(parse_range("7"), Ok((7, 7)));
        assert_eq!(parse_range("0..0"), Ok((0, 0)));
        for bad in [
            "14..4", "a..b", "4..", "..4", "4..65", "-1..3", "4...5", "", "1e3",
        ] {
            assert!(parse_range(bad).is_err(), "{bad}");
        }
        assert!(parse_range("14..4").unwrap_err().contains("empty"));
        assert!(parse_range("4..1000").unwrap_err().contains("up to n = 64"));
    }

    #[test]
    fn compact_numbers() {
        assert_eq!(compact(9_999), "9999");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(234_432), "234k");
        assert_eq!(compact(10_103_868), "10.1M");
        assert_eq!(compact(3_000_000_000), "3.0G");
        assert_eq!(millis(0.0001234), "0.12");
        assert_eq!(millis(3.0202), "3020");
    }
}
