//! `csp queens N --count` with the constellation counter, and its split into
//! subproblems: `--split D` (the list), `--split D --slice A..B` (counts of
//! a range) and `csp queens merge FILE...` (their sum, checked).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use csp_queens::constellation::{self, Split};
use csp_queens::journal::{self, Tally};
use csp_queens::permutation::{Budget, Status};

use super::CliError;

/// What a [`Bar`] measures the work done by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    /// The solutions counted, against Q(n) when it is known: the work of a
    /// subproblem grows with its solutions, and the many subproblems with
    /// none cost next to nothing (counted one a subproblem, the first
    /// update read `8110914/s, 0s left`).
    Solutions(u64),
    /// The subproblems done, of this many (Q(n) unknown, or a slice).
    Subproblems(usize),
}

impl Measure {
    /// Solutions when Q(`n`) is known (and not 0), else the `subproblems`.
    fn for_board(n: usize, subproblems: usize) -> Measure {
        match journal::A000170.get(n).map(|&q| u64::try_from(q)) {
            Some(Ok(q)) if q > 0 => Measure::Solutions(q),
            _ => Measure::Subproblems(subproblems),
        }
    }
}

/// A progress bar on stderr (work done, its rate, the time left) that
/// appears only if the work lasts more than a second and stderr is a
/// terminal, like [`super::Progress`]. Dropping it clears it.
struct Bar {
    measure: Measure,
    done: Arc<AtomicU64>,
    finished: Arc<AtomicBool>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Bar {
    fn start(message: String, measure: Measure) -> Bar {
        let done = Arc::new(AtomicU64::new(0));
        let finished = Arc::new(AtomicBool::new(false));
        let (total, unit) = match measure {
            Measure::Solutions(q) => (q, "solutions"),
            Measure::Subproblems(k) => (k as u64, "subproblems"),
        };
        // The clock of the rate: the work starts now, the bar a second later.
        let started = Instant::now();
        let handle = std::io::stderr().is_terminal().then(|| {
            let (d, f) = (done.clone(), finished.clone());
            thread::spawn(move || {
                for _ in 0..10 {
                    if f.load(Ordering::Relaxed) {
                        return;
                    }
                    thread::sleep(Duration::from_millis(100));
                }
                // Drawn once the work so far is in, not from 0.
                let bar = indicatif::ProgressBar::hidden();
                bar.set_length(total);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(&format!(
                        "{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{rate}}, {{left}} left"
                    ))
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    // The rate and the time left over the whole count so far,
                    // not over the last updates: one update may bring a
                    // subproblem of millions of solutions, the next none.
                    .with_key(
                        "rate",
                        move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{}", rate(state.pos(), started.elapsed()));
                        },
                    )
                    .with_key(
                        "left",
                        move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let left = time_left(state.pos(), state.len(), started.elapsed());
                            let _ = write!(w, "{left}");
                        },
                    )
                    .progress_chars("=> "),
                );
                bar.set_message(message);
                bar.set_position(d.load(Ordering::Relaxed));
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                while !f.load(Ordering::Relaxed) {
                    bar.set_position(d.load(Ordering::Relaxed));
                    thread::sleep(Duration::from_millis(200));
                }
                bar.finish_and_clear();
            })
        });
        Bar {
            measure,
            done,
            finished,
            handle,
        }
    }

    /// A subproblem done, with `solutions`.
    fn tick(&self, solutions: u128) {
        let work = match self.measure {
            Measure::Solutions(_) => u64::try_from(solutions).unwrap_or(u64::MAX),
            Measure::Subproblems(_) => 1,
        };
        self.done.fetch_add(work, Ordering::Relaxed);
    }
}

/// `1234/s`: the work done a second, over `elapsed`.
fn rate(done: u64, elapsed: Duration) -> String {
    match elapsed.as_secs_f64() {
        t if t > 0.0 => format!("{:.0}/s", done as f64 / t),
        _ => "?/s".to_string(),
    }
}

/// The time left if the work goes on at the rate so far: `1h 02m`,
/// `3m 05s`, `12s`, or `?` before any work is done.
fn time_left(done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let Some(total) = total.filter(|_| done > 0) else {
        return "?".to_string();
    };
    let secs = (elapsed.as_secs_f64() * total.saturating_sub(done) as f64 / done as f64) as u64;
    match secs {
        s if s >= 3600 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{}m {:02}s", s / 60, s % 60),
        s => format!("{s}s"),
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finished.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn budget(time_limit: Option<Duration>) -> Budget<'static> {
    match time_limit {
        Some(t) => Budget::unlimited().with_deadline(Instant::now() + t),
        None => Budget::unlimited(),
    }
}

/// `csp queens N --count` with the constellation counter: (total, note if
/// cut short, statistics line).
pub fn count(
    n: usize,
    threads: usize,
    time_limit: Option<Duration>,
) -> Result<(u128, Option<String>, String), CliError> {
    let budget = budget(time_limit);
    let split = Split::new(n, constellation::default_depth(n)).map_err(|e| e.to_string())?;
    let bar = Bar::start(format!("{n}-queens"), Measure::for_board(n, split.len()));
    let (counts, status) = split
        .count_range(0..split.len(), threads, &budget, &|_, c| bar.tick(c))
        .map_err(|e| e.to_string())?;
    drop(bar);
    let total = counts.iter().flatten().sum();
    let note = (status != Status::Completed).then(|| {
        let missing = counts.iter().filter(|c| c.is_none()).count();
        format!(
            "{status}: {missing} of {} subproblems not counted",
            counts.len()
        )
    });
    let line = format!(
        "solutions: {total} ({} representative constellations, {} subproblems)",
        split.constellations(),
        split.len()
    );
    Ok((total, note, line))
}

fn parse_depth(s: &str) -> Result<usize, CliError> {
    s.parse::<usize>()
        .ok()
        .filter(|&d| d <= constellation::MAX_DEPTH)
        .ok_or_else(|| {
            format!(
                "--split expects a depth from 0 to {}, got '{s}'",
                constellation::MAX_DEPTH
            )
        })
}

/// Parses `A..B` (B excluded); B is clamped to `len`.
fn parse_range(s: &str, len: usize) -> Result<std::ops::Range<usize>, CliError> {
    let bad = || format!("--slice expects A..B with whole numbers A <= B, got '{s}'");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    if a > len {
        return Err(format!(
            "--slice {s}: the split has only {len} subproblems (indices 0..{len})"
        ));
    }
    Ok(a..b.min(len))
}

/// `--split D` (list) or `--split D --slice A..B` (counts).
pub fn split_or_slice(
    n: usize,
    count: bool,
    split: Option<&str>,
    slice: Option<&str>,
    threads: usize,
    time_limit: Option<Duration>,
) -> Result<ExitCode, CliError> {
    if !count {
        return Err("--split and --slice go with --count".into());
    }
    let Some(depth) = split else {
        return Err("--slice needs --split D (the split depth)".into());
    };
    let depth = parse_depth(depth)?;
    let split = Split::new(n, depth).map_err(|e| e.to_string())?;
    match slice {
        None => print_split(&split).map_err(|e| e.to_string()),
        Some(range) => {
            let range = parse_range(range, split.len())?;
            slice_counts(&split, range, threads, time_limit)
        }
    }
}

/// Prints the list; a reader that stops early (`| head -n 1`) is not an
/// error.
fn print_split(split: &Split) -> io::Result<ExitCode> {
    match write_split(split) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => r.map(|()| ExitCode::SUCCESS),
    }
}

fn write_split(split: &Split) -> io::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    writeln!(
        out,
        "# {} subproblems for n = {}, split depth {} ({} representative constellations)",
        split.len(),
        split.n(),
        split.depth(),
        split.constellations()
    )?;
    writeln!(
        out,
        "# index, border queens (column in row 0, column in row n-1, row in column 0, \
         row in column n-1), orbit weight, queens of the next free rows (row:column), 0-based"
    )?;
    let mut line = String::new();
    for i in 0..split.len() {
        if split.n() == 0 {
            writeln!(out, "0 empty board 1")?;
            break;
        }
        let s = split.get(i);
        line.clear();
        let b = s.border;
        let _ = write!(
            line,
            "{i} {} {} {} {} {}",
            b.top, b.bottom, b.left, b.right, s.weight
        );
        for (r, c) in s.rows.iter().zip(s.prefix) {
            let _ = write!(line, " {r}:{c}");
        }
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// Counts `range` and prints `N D index count` lines in index order, each as
/// soon as it and every line before it are known.
fn slice_counts(
    split: &Split,
    range: std::ops::Range<usize>,
    threads: usize,
    time_limit: Option<Duration>,
) -> Result<ExitCode, CliError> {
    struct Pending {
        next: usize,
        waiting: BTreeMap<usize, u128>,
        error: Option<io::Error>,
    }
    let (n, depth) = (split.n(), split.depth());
    let budget = budget(time_limit);
    let pending = Mutex::new(Pending {
        next: range.start,
        waiting: BTreeMap::new(),
        error: None,
    });
    let bar = Bar::start(
        format!("{n}-queens slice"),
        Measure::Subproblems(range.len()),
    );
    let (counts, status) = split
        .count_range(range.clone(), threads, &budget, &|index, count| {
            bar.tick(count);
            let Ok(mut guard) = pending.lock() else {
                return;
            };
            let p = &mut *guard;
            p.waiting.insert(index, count);
            let mut out = io::stdout().lock();
            while let Some(c) = p.waiting.remove(&p.next) {
                let r = writeln!(out, "{n} {depth} {} {c}", p.next).and_then(|()| out.flush());
                if let Err(e) = r {
                    p.error.get_or_insert(e);
                }
                p.next += 1;
            }
        })
        .map_err(|e| e.to_string())?;
    drop(bar);
    let p = pending
        .into_inner()
        .map_err(|_| "internal error: lost output".to_string())?;
    if let Some(e) = p.error {
        if e.kind() != io::ErrorKind::BrokenPipe {
            return Err(format!("writing the counts: {e}"));
        }
    }
    if status != Status::Completed {
        let missing = counts.iter().filter(|c| c.is_none()).count();
        errln!(
            "warning: incomplete slice: {status}: {missing} of {} subproblems not counted \
             (printed: {}..{})",
            range.len(),
            range.start,
            p.next
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `csp queens merge FILE...`.
pub fn merge(files: &[String]) -> Result<ExitCode, CliError> {
    if files.is_empty() {
        return Err("merge needs at least one file of --slice lines ('-' for stdin)".into());
    }
    let mut entries = Vec::new();
    for file in files {
        let text = if file == "-" {
            io::read_to_string(io::stdin()).map_err(|e| format!("reading stdin: {e}"))?
        } else {
            std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?
        };
        entries.extend(journal::parse_text(file, &text).map_err(|e| e.to_string())?);
    }
    let Some(first) = entries.first() else {
        return Err(format!(
            "no count lines in {} (nothing to add up; for n = 2 and 3 the list of \
             subproblems is empty and Q(n) = 0)",
            files.join(", ")
        ));
    };
    let (n, depth, first_place) = (first.n, first.depth, first.place.clone());
    journal::same_split(&entries, None)?;
    let split = Split::new(n, depth).map_err(|e| format!("{first_place}: {e}"))?;
    let len = split.len();
    let tally = Tally::new(
        entries.into_iter().map(|e| (e.index, e.count, e.place)),
        len,
    );
    let mut problems: Vec<String> = tally.problems.iter().map(|p| p.to_string()).collect();
    if !tally.missing.is_empty() {
        problems.push(format!(
            "missing {} of {len} subproblems: {}",
            tally.missing.len(),
            journal::ranges(&tally.missing)
        ));
    }
    // The sum in index order, of the subproblems present; one that does
    // not fit is no total at all.
    let total = tally.total().map_err(|p| p.to_string())?;
    outln!("{total}");
    for p in &problems {
        errln!("error: {p}");
    }
    if !problems.is_empty() {
        errln!("error: the total {total} is incomplete or inconsistent");
        return Ok(ExitCode::from(1));
    }
    match journal::A000170.get(n) {
        Some(&known) if known != total => {
            errln!("error: the total {total} differs from Q({n}) = {known} (OEIS A000170)");
            Ok(ExitCode::from(1))
        }
        Some(_) => {
            errln!("{len} subproblems, total matches Q({n}) (OEIS A000170)");
            Ok(ExitCode::SUCCESS)
        }
        None => {
            errln!("{len} subproblems; Q({n}) is not known to check against");
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_ranges() {
        assert_eq!(parse_range("3..10", 5).unwrap(), 3..5);
        assert!(parse_range("6..10", 5).is_err());
        assert!(parse_range("4..2", 5).is_err());
        assert!(parse_range("4-2", 5).is_err());
    }

    #[test]
    fn the_bar_measures_solutions_when_the_total_is_known() {
        assert_eq!(Measure::for_board(18, 9), Measure::Solutions(666_090_624));
        assert_eq!(Measure::for_board(3, 9), Measure::Subproblems(9));
        assert_eq!(Measure::for_board(28, 9), Measure::Subproblems(9));
        let bar = Bar::start("test".into(), Measure::Solutions(100));
        bar.tick(40);
        bar.tick(0);
        assert_eq!(bar.done.load(Ordering::Relaxed), 40);
        let bar = Bar::start("test".into(), Measure::Subproblems(3));
        bar.tick(40);
        bar.tick(0);
        assert_eq!(bar.done.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn rate_and_time_left_from_the_work_so_far() {
        let s = Duration::from_secs;
        assert_eq!(rate(500, s(2)), "250/s");
        assert_eq!(rate(0, Duration::ZERO), "?/s");
        // A quarter done in 10 s: 30 s left.
        assert_eq!(time_left(25, Some(100), s(10)), "30s");
        assert_eq!(time_left(1, Some(100), s(10)), "16m 30s");
        assert_eq!(time_left(1, Some(1000), s(10)), "2h 46m");
        assert_eq!(time_left(0, Some(100), s(10)), "?");
        assert_eq!(time_left(5, None, s(10)), "?");
    }
}
