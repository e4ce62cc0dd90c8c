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
use csp_queens::permutation::{Budget, Status};

use super::CliError;

/// The number of solutions of the `n`-queens problem for `n = 0..=27`
/// (OEIS A000170), to check merged totals against. Not used by any counter.
const A000170: [u128; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

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

/// One parsed `N D index count` line.
#[derive(Debug)]
struct Entry {
    n: usize,
    depth: usize,
    index: usize,
    count: u128,
    place: String,
}

/// Parses the fields of one line; errors name the column of the bad field.
fn parse_line(file: &str, lineno: usize, line: &str) -> Result<Option<Entry>, String> {
    let content = line.split('#').next().unwrap_or("");
    if content.trim().is_empty() {
        return Ok(None);
    }
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in content.char_indices().chain([(content.len(), ' ')]) {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                fields.push((s, &content[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let at = |col: usize| format!("{file}:{lineno}:{}", col + 1);
    if fields.len() != 4 {
        let col = fields.get(4).map_or(content.len(), |f| f.0);
        return Err(format!(
            "{}: expected 4 fields 'N D index count', found {}",
            at(col),
            fields.len()
        ));
    }
    let names = ["N", "depth D", "index", "count"];
    let mut values = [0u128; 4];
    for (k, &(col, text)) in fields.iter().enumerate() {
        values[k] = text.parse::<u128>().map_err(|_| {
            format!(
                "{}: {} must be a non-negative integer, got '{text}'",
                at(col),
                names[k]
            )
        })?;
    }
    let small = |k: usize| {
        usize::try_from(values[k])
            .map_err(|_| format!("{}: {} is too large", at(fields[k].0), names[k]))
    };
    Ok(Some(Entry {
        n: small(0)?,
        depth: small(1)?,
        index: small(2)?,
        count: values[3],
        place: format!("{file}:{lineno}"),
    }))
}

/// Describes a sorted list of indices as ranges: `3, 5..=9`.
fn ranges(indices: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        if i == j {
            parts.push(indices[i].to_string());
        } else {
            parts.push(format!("{}..={}", indices[i], indices[j]));
        }
        if parts.len() == 20 && j + 1 < indices.len() {
            parts.push("…".into());
            break;
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// `csp queens merge FILE...`.
pub fn merge(files: &[String]) -> Result<ExitCode, CliError> {
    if files.is_empty() {
        return Err("merge needs at least one file of --slice lines ('-' for stdin)".into());
    }
    let mut entries: Vec<Entry> = Vec::new();
    for file in files {
        let text = if file == "-" {
            io::read_to_string(io::stdin()).map_err(|e| format!("reading stdin: {e}"))?
        } else {
            std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?
        };
        for (i, line) in text.lines().enumerate() {
            if let Some(e) = parse_line(file, i + 1, line)? {
                entries.push(e);
            }
        }
    }
    let Some(first) = entries.first() else {
        return Err(format!(
            "no count lines in {} (nothing to add up; for n = 2 and 3 the list of \
             subproblems is empty and Q(n) = 0)",
            files.join(", ")
        ));
    };
    let (n, depth, first_place) = (first.n, first.depth, first.place.clone());
    if let Some(other) = entries.iter().find(|e| (e.n, e.depth) != (n, depth)) {
        return Err(format!(
            "{}: line for n = {}, depth {}, but {first_place} is for n = {n}, depth {depth}",
            other.place, other.n, other.depth
        ));
    }
    let split = Split::new(n, depth).map_err(|e| format!("{first_place}: {e}"))?;
    let len = split.len();
    let mut by_index: BTreeMap<usize, (u128, String)> = BTreeMap::new();
    let mut problems = Vec::new();
    for e in &entries {
        if e.index >= len {
            problems.push(format!(
                "{}: index {} is out of range: n = {n}, depth {depth} has {len} subproblems",
                e.place, e.index
            ));
            continue;
        }
        match by_index.get(&e.index) {
            Some((c, place)) if *c != e.count => problems.push(format!(
                "{}: subproblem {} counted {} here but {c} at {place}",
                e.place, e.index, e.count
            )),
            Some(_) => {}
            None => {
                by_index.insert(e.index, (e.count, e.place.clone()));
            }
        }
    }
    let missing: Vec<usize> = (0..len).filter(|i| !by_index.contains_key(i)).collect();
    if !missing.is_empty() {
        problems.push(format!(
            "missing {} of {len} subproblems: {}",
            missing.len(),
            ranges(&missing)
        ));
    }
    // The sum in index order, of the subproblems present.
    let total: u128 = by_index.values().map(|(c, _)| c).sum();
    outln!("{total}");
    for p in &problems {
        errln!("error: {p}");
    }
    if !problems.is_empty() {
        errln!("error: the total {total} is incomplete or inconsistent");
        return Ok(ExitCode::from(1));
    }
    match A000170.get(n) {
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
    fn lines_parse_with_positions() {
        let e = parse_line("f", 3, "12 1 7 100").unwrap().unwrap();
        assert_eq!((e.n, e.depth, e.index, e.count), (12, 1, 7, 100));
        assert!(parse_line("f", 1, "  # comment").unwrap().is_none());
        let err = parse_line("f", 4, "12 1 x 100").unwrap_err();
        assert!(err.starts_with("f:4:6: index"), "{err}");
        let err = parse_line("f", 5, "12 1 7").unwrap_err();
        assert!(err.starts_with("f:5:7: expected 4 fields"), "{err}");
        let err = parse_line("f", 6, "12 1 7 1 2").unwrap_err();
        assert!(err.starts_with("f:6:10: expected 4 fields"), "{err}");
    }

    #[test]
    fn index_ranges_are_compact() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1..=3, 7, 9..=10");
    }

    #[test]
    fn slice_ranges() {
        assert_eq!(parse_range("3..10", 5).unwrap(), 3..5);
        assert!(parse_range("6..10", 5).is_err());
        assert!(parse_range("4..2", 5).is_err());
        assert!(parse_range("4-2", 5).is_err());
    }
}
