//! `csp queens N --count` with the constellation counter, and its split into
//! subproblems: `--split D` (the list), `--split D --slice A..B` (counts of
//! a range) and `csp queens merge FILE...` (their sum, checked).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use csp_queens::constellation::{self, Split};
use csp_queens::journal::{self, Tally};
use csp_queens::permutation::{Budget, Status};

use super::CliError;

/// A progress bar on stderr (subproblems done, rate, time left) that
/// appears only if the work lasts more than a second and stderr is a
/// terminal, like [`super::Progress`]. Dropping it clears it.
struct Bar {
    done: Arc<AtomicUsize>,
    finished: Arc<AtomicBool>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Bar {
    fn start(message: String, total: usize) -> Bar {
        let done = Arc::new(AtomicUsize::new(0));
        let finished = Arc::new(AtomicBool::new(false));
        let handle = std::io::stderr().is_terminal().then(|| {
            let (d, f) = (done.clone(), finished.clone());
            thread::spawn(move || {
                for _ in 0..10 {
                    if f.load(Ordering::Relaxed) {
                        return;
                    }
                    thread::sleep(Duration::from_millis(100));
                }
                let bar = indicatif::ProgressBar::new(total as u64);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{msg} [{bar:30}] {pos}/{len} subproblems, {rate}, {eta} left",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.0}/s", state.per_sec());
                        },
                    )
                    .progress_chars("=> "),
                );
                bar.set_message(message);
                while !f.load(Ordering::Relaxed) {
                    bar.set_position(d.load(Ordering::Relaxed) as u64);
                    thread::sleep(Duration::from_millis(200));
                }
                bar.finish_and_clear();
            })
        });
        Bar {
            done,
            finished,
            handle,
        }
    }

    fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
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
    let bar = Bar::start(format!("{n}-queens"), split.len());
    let (counts, status) = split
        .count_range(0..split.len(), threads, &budget, &|_, _| bar.tick())
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
    let bar = Bar::start(format!("{n}-queens slice"), range.len());
    let (counts, status) = split
        .count_range(range.clone(), threads, &budget, &|index, count| {
            bar.tick();
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
}
