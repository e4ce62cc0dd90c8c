//! `csp queens --solver teach-*`: the teaching solvers of
//! `csp_queens::teaching`, each a short function written to be read.

use std::ops::ControlFlow;
use std::time::Instant;

use csp_queens::render::columns;
use csp_queens::teaching::{
    bits, brute_nn, brute_perm, forward, genetic, min_conflicts, sets, stack, Run, BITS_MAX_N,
};
use csp_queens::trace::TraceLine;

use super::CliError;

/// The teaching solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Teach {
    /// Recursive backtracking with three sets of ids.
    Sets,
    /// Iterative backtracking with an explicit stack (traces its tree).
    Stack,
    /// The minimal bitboard counter.
    Bits,
    /// Brute force over all nⁿ placements.
    Nn,
    /// Brute force over all n! permutations.
    Perm,
    /// Forward checking (traces its domains).
    Fc,
    /// Min-conflicts local search.
    MinConflicts,
    /// A genetic algorithm.
    Genetic,
}

/// Moves min-conflicts may make before it gives up.
pub const MIN_CONFLICTS_STEPS: u64 = 100_000;
/// Generations the genetic algorithm may breed before it gives up.
pub const GENETIC_GENERATIONS: u64 = 2_000;

impl Teach {
    /// Every teaching solver with its `--solver` name.
    pub const ALL: [(Teach, &'static str); 8] = [
        (Teach::Sets, "teach-sets"),
        (Teach::Stack, "teach-stack"),
        (Teach::Bits, "teach-bits"),
        (Teach::Nn, "teach-nn"),
        (Teach::Perm, "teach-perm"),
        (Teach::Fc, "teach-fc"),
        (Teach::MinConflicts, "teach-min-conflicts"),
        (Teach::Genetic, "teach-genetic"),
    ];

    /// The `--solver` name.
    pub fn name(self) -> &'static str {
        Teach::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("?", |(_, n)| n)
    }

    /// Whether it finds every solution (the local searches find one).
    pub fn exact(self) -> bool {
        !matches!(self, Teach::MinConflicts | Teach::Genetic)
    }

    /// What one node is, for the statistics line (see docs/queens.md).
    pub fn node(self) -> &'static str {
        match self {
            Teach::Sets | Teach::Stack | Teach::Bits => "queens put on free squares",
            Teach::Nn => "placements tested",
            Teach::Perm => "permutations tested",
            Teach::Fc => "queens tried",
            Teach::MinConflicts => "moves",
            Teach::Genetic => "individuals evaluated",
        }
    }

    /// The largest board it takes: the bitboard has one bit per column,
    /// forward checking copies every domain at every level (n³ columns),
    /// and the others are O(n²) a step at best.
    pub fn max_n(self) -> usize {
        match self {
            Teach::Bits => BITS_MAX_N,
            Teach::Fc => 200,
            _ => 2_000,
        }
    }

    /// An error when `n` is larger than [`Teach::max_n`].
    pub fn check_n(self, n: usize) -> Result<(), CliError> {
        if n > self.max_n() {
            return Err(format!(
                "--solver {} takes n up to {} (the teaching solvers are written to be read, not for large boards); got n = {n}",
                self.name(),
                self.max_n()
            ));
        }
        Ok(())
    }
}

/// How a teaching run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Nodes (see [`Teach::node`]).
    pub nodes: u64,
    /// Solutions handed over.
    pub solutions: u128,
    /// The deadline stopped it before it was done.
    pub timed_out: bool,
}

impl Tally {
    /// The tally of `run` so far.
    pub fn of(run: &Run) -> Tally {
        Tally {
            nodes: run.nodes(),
            solutions: run.solutions(),
            timed_out: run.timed_out(),
        }
    }

    /// Why a run of `t` that was after one solution has none to show
    /// (`None` when it found one, or when `t` is exact and ran to the end:
    /// then there is none). A local search that gives up has not shown
    /// that there is no solution.
    pub fn no_solution_note(&self, t: Teach, found: bool) -> Option<String> {
        match () {
            _ if found => None,
            _ if self.timed_out => Some("stopped by the time limit".to_string()),
            _ if t.exact() => None,
            _ => Some(format!(
                "{} gave up after {} {} (a local search cannot show that there is no solution)",
                t.name(),
                self.nodes,
                t.node()
            )),
        }
    }

    /// The statistics line: `solutions: S, nodes: N (what a node is)`.
    pub fn stats_line(&self, t: Teach) -> String {
        format!(
            "solutions: {}, nodes: {} ({})",
            self.solutions,
            self.nodes,
            t.node()
        )
    }
}

/// Runs `t` on `n` queens within `deadline`, handing every solution to
/// `on_solution` (which breaks to stop), and every node to `show` (the
/// tree of teach-sets, teach-stack, teach-nn and teach-perm) or
/// `show_domains` (forward checking's domains).
pub fn run(
    t: Teach,
    n: usize,
    seed: u64,
    deadline: Option<Instant>,
    on_solution: impl FnMut(&[u32]) -> ControlFlow<()>,
    show: Option<&mut dyn FnMut(&TraceLine)>,
    show_domains: Option<forward::Show>,
) -> Result<Tally, CliError> {
    t.check_n(n)?;
    let mut run = Run::new(deadline, on_solution);
    run_in(t, n, seed, &mut run, show, show_domains);
    Ok(Tally::of(&run))
}

/// [`run`] with the caller's [`Run`] (a node limit, say).
pub fn run_in(
    t: Teach,
    n: usize,
    seed: u64,
    run: &mut Run,
    show: Option<&mut dyn FnMut(&TraceLine)>,
    show_domains: Option<forward::Show>,
) {
    match t {
        Teach::Sets => sets::solve_watched(n, run, show),
        Teach::Stack => stack::solve(n, run, show),
        Teach::Bits => bits::solve(n, run),
        Teach::Nn => brute_nn::solve_watched(n, run, show),
        Teach::Perm => brute_perm::solve_watched(n, run, show),
        Teach::Fc => forward::solve(n, run, show_domains),
        Teach::MinConflicts => {
            min_conflicts::solve(n, seed, MIN_CONFLICTS_STEPS, run);
        }
        Teach::Genetic => {
            genetic::solve(n, seed, GENETIC_GENERATIONS, run);
        }
    }
}

/// Runs the local search `t` (min-conflicts or the genetic algorithm) on
/// `n` queens within `deadline`, writing one line per step to `emit`, in
/// the student's terms (rows and columns from 1): min-conflicts each start
/// and each move, with the attackers of every square of the row it moved
/// a queen in (its old square in brackets) and the attacking pairs left;
/// the genetic search each generation's best and mean number of attacking
/// pairs, with the best individual. Returns the tally, the solution and
/// the figures for a chart: min-conflicts' attacking pairs after each
/// start and move, the genetic search's best and mean a generation.
pub fn watch_local(
    t: Teach,
    n: usize,
    seed: u64,
    deadline: Option<Instant>,
    emit: &mut dyn FnMut(&str),
) -> Result<Watched, CliError> {
    t.check_n(n)?;
    let mut series: Vec<(&'static str, Vec<f64>)> = Vec::new();
    let mut found = None;
    let mut run = Run::new(deadline, |c: &[u32]| {
        found = Some(c.to_vec());
        ControlFlow::Break(())
    });
    match t {
        Teach::MinConflicts => {
            let mut moves = 0u64;
            let mut left = Vec::new();
            let mut watch = |s: min_conflicts::Step| match s {
                min_conflicts::Step::Start { cols, pairs: k } => {
                    left.push(k as f64);
                    emit(&start_line(cols, k));
                }
                min_conflicts::Step::Move {
                    row,
                    from,
                    to,
                    attackers,
                    pairs: k,
                } => {
                    moves += 1;
                    left.push(k as f64);
                    emit(&move_line(moves, row, from, to, attackers, k));
                }
            };
            min_conflicts::solve_watched(n, seed, MIN_CONFLICTS_STEPS, &mut run, Some(&mut watch));
            series.push(("attacking pairs", left));
        }
        Teach::Genetic => {
            let (mut best, mut mean) = (Vec::new(), Vec::new());
            let mut watch = |g: genetic::Generation| {
                best.push(g.best_pairs as f64);
                mean.push(g.mean_pairs);
                emit(&generation_line(&g));
            };
            genetic::solve_watched(n, seed, GENETIC_GENERATIONS, &mut run, Some(&mut watch));
            series.push(("best", best));
            series.push(("mean", mean));
        }
        _ => return Err(format!("'{}' is not a local search", t.name())),
    }
    let tally = Tally::of(&run);
    drop(run);
    if let Some(c) = &found {
        emit(&format!("solution: {}", one_line(c)));
    }
    Ok(Watched {
        tally,
        found,
        series,
    })
}

/// `3 attacking pairs`.
fn pairs(k: usize) -> String {
    match k {
        1 => "1 attacking pair".to_string(),
        _ => format!("{k} attacking pairs"),
    }
}

/// Min-conflicts' line for a random start: `start: 2 4 4 1 (3 attacking pairs)`.
pub fn start_line(cols: &[u32], pairs_left: usize) -> String {
    format!("start: {} ({})", one_line(cols), pairs(pairs_left))
}

/// Min-conflicts' line for move number `number`: the row, the columns
/// from and to (0-based in, shown from 1), the attackers of every square
/// of the row before the move (its old square in brackets), the
/// attacking pairs after it.
pub fn move_line(
    number: u64,
    row: usize,
    from: u32,
    to: u32,
    attackers: &[usize],
    pairs_left: usize,
) -> String {
    let counts: Vec<String> = attackers
        .iter()
        .enumerate()
        .map(|(x, a)| {
            if x as u32 == from {
                format!("[{a}]")
            } else {
                a.to_string()
            }
        })
        .collect();
    format!(
        "move {number}: row {} from column {} to {}; attackers by column: {}; {} left",
        row + 1,
        from + 1,
        to + 1,
        counts.join(" "),
        pairs(pairs_left)
    )
}

/// The genetic search's line for a generation: its best and mean.
pub fn generation_line(g: &genetic::Generation) -> String {
    format!(
        "generation {}: best {} ({}), mean {:.2}",
        g.number,
        pairs(g.best_pairs),
        one_line(g.best),
        g.mean_pairs
    )
}

/// What [`watch_local`] saw.
pub struct Watched {
    /// Nodes, solutions, whether the deadline stopped it.
    pub tally: Tally,
    /// The solution, if found.
    pub found: Option<Vec<u32>>,
    /// Named figures, one a step, for [`chart`].
    pub series: Vec<(&'static str, Vec<f64>)>,
}

/// A line chart of `series` (one value a step, steps along x from 1, the
/// values on a linear y axis from 0) as one SVG document, each line named
/// in a legend and carrying its figures in a `data-values` attribute.
pub fn chart(title: &str, x_label: &str, series: &[(&str, Vec<f64>)]) -> String {
    const W: f64 = 560.0; // plot width
    const H: f64 = 300.0; // plot height
    const ML: f64 = 50.0; // left margin
    const MT: f64 = 40.0; // top margin
    const COLORS: [&str; 3] = ["#0067a5", "#f38400", "#be0032"];
    let steps = series
        .iter()
        .map(|(_, v)| v.len())
        .max()
        .unwrap_or(0)
        .max(2);
    let top = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(1.0f64, f64::max)
        .ceil();
    let x_of = |i: usize| ML + W * i as f64 / (steps - 1) as f64;
    let y_of = |v: f64| MT + H * (1.0 - v / top);
    let (width, height) = (ML + W + 30.0, MT + H + 60.0 + 16.0 * series.len() as f64);
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n  <title>{title}</title>\n  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n  <text x=\"{:.1}\" y=\"22\" text-anchor=\"middle\" font-size=\"13\">{title}</text>\n  <rect x=\"{ML}\" y=\"{MT}\" width=\"{W}\" height=\"{H}\" fill=\"none\" stroke=\"#000000\"/>\n",
        ML + W / 2.0
    );
    for k in 0..=4 {
        let v = top * f64::from(k) / 4.0;
        let y = y_of(v);
        s.push_str(&format!(
            "  <line x1=\"{ML}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>\n  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>\n",
            ML + W,
            ML - 4.0,
            y + 4.0
        ));
    }
    s.push_str(&format!(
        "  <text x=\"{ML}\" y=\"{:.1}\">1</text>\n  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{steps}</text>\n  <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x_label}</text>\n",
        MT + H + 14.0,
        ML + W,
        MT + H + 14.0,
        ML + W / 2.0,
        MT + H + 28.0
    ));
    for (k, (name, values)) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let points: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("{:.1},{:.1}", x_of(i), y_of(v)))
            .collect();
        let figures: Vec<String> = values.iter().map(|v| format!("{v:.2}")).collect();
        s.push_str(&format!(
            "  <polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"{}\" data-values=\"{}\"><title>{name}</title></polyline>\n",
            points.join(" "),
            figures.join(" ")
        ));
        let y = MT + H + 50.0 + 16.0 * k as f64;
        s.push_str(&format!(
            "  <line x1=\"{ML}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{color}\" stroke-width=\"2\"/>\n  <text x=\"{:.1}\" y=\"{y:.1}\">{name}</text>\n",
            y - 4.0,
            ML + 24.0,
            y - 4.0,
            ML + 30.0
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// A placement as `--format columns` prints it, without the newline.
fn one_line(cols: &[u32]) -> String {
    columns(cols).trim_end().to_string()
}

/// Runs the teaching bitboard on `n` queens within `deadline`, handing
/// every solution to `on_solution` (which breaks to stop) and writing one
/// line per step to `emit`: at each row its three masks and the free
/// squares in binary (column a the lowest bit, on the right), each queen
/// with the bit `free & -free` that placed it, each solution.
pub fn watch_bits(
    n: usize,
    deadline: Option<Instant>,
    on_solution: impl FnMut(&[u32]) -> ControlFlow<()>,
    emit: &mut dyn FnMut(&str),
) -> Result<Tally, CliError> {
    Teach::Bits.check_n(n)?;
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let binary = |mask: u64| format!("{:0n$b}", mask & all);
    let indent = |row: usize| "  ".repeat(row);
    emit(
        "masks in binary, column a the lowest bit (on the right); a row down: \
         columns | bit, (left | bit) >> 1, (right | bit) << 1; free = all & !(columns | left | right)",
    );
    let mut placed: Vec<u32> = Vec::with_capacity(n);
    let mut watch = |step: bits::Step| match step {
        bits::Step::Row {
            row,
            columns,
            left,
            right,
            free,
        } => {
            placed.truncate(row);
            let end = if free == 0 { "  dead end" } else { "" };
            emit(&format!(
                "{}row {}: columns {}  left {}  right {}  free {}{end}",
                indent(row),
                row + 1,
                binary(columns),
                binary(left),
                binary(right),
                binary(free)
            ));
        }
        bits::Step::Place { row, bit } => {
            placed.truncate(row);
            placed.push(bit.trailing_zeros());
            emit(&format!(
                "{}row {}: queen on {}, bit {} = free & -free",
                indent(row),
                row + 1,
                csp_queens::render::square_name(row, bit.trailing_zeros()),
                binary(bit)
            ));
        }
        bits::Step::Solution => {
            emit(&format!(
                "{}solution: {}",
                indent(placed.len()),
                one_line(&placed)
            ));
        }
    };
    let mut run = Run::new(deadline, on_solution);
    bits::solve_watched(n, &mut run, Some(&mut watch));
    Ok(Tally::of(&run))
}
