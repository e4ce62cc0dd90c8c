//! The master's bookkeeping (what is left, what is counted, the journal,
//! the progress line) and the protocol between the master and its workers,
//! over any transport: MPI in the `csp-mpi` binary, channels in the tests.
//!
//! # The protocol
//!
//! Every message from a worker is a *request*, answered by exactly one
//! batch of subproblem indices; an empty batch means "no more work". A
//! worker starts with [`PREFETCH`] empty requests, so that while it counts
//! one batch the next one is already on its way; after that, the counts of
//! each batch it finishes are its next request. A worker's failure report
//! (an engine count that did not complete) is not a request.
//!
//! The queue of the master only shrinks, so once a worker gets an empty
//! batch, every later answer to it is empty too: it takes the answers it is
//! still owed and stops. The master knows that a worker is done when it has
//! received `PREFETCH` plus one request per non-empty batch it sent.

use std::collections::{BTreeMap, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

use crate::job::Job;

/// Batches a worker asks for before it counts the first one.
pub const PREFETCH: usize = 2;

/// The most subproblems in one batch unless `--batch` says otherwise.
pub const MAX_BATCH: usize = 16;

/// What a run is asked to do besides counting.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Append a line per counted subproblem to this file.
    pub journal: Option<PathBuf>,
    /// Skip the subproblems this journal holds (and append to it unless
    /// `journal` names another file).
    pub resume: Option<PathBuf>,
    /// Hand out at most this many subproblems, then stop (exit status 1).
    pub stop_after: Option<usize>,
    /// Subproblems per batch (default: adaptive, at most [`MAX_BATCH`]).
    pub batch: Option<usize>,
    /// A progress line on stderr this often (none if `None`).
    pub progress: Option<Duration>,
    /// Rank 0 only hands out work; by default it also counts, in a thread
    /// of its own.
    pub dedicated_master: bool,
}

/// A message from a worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FromWorker {
    /// The counts of a batch, `(index, count)` (empty for the first
    /// requests): a request for the next batch.
    Counts(Vec<(usize, u128)>),
    /// Subproblem `index` could not be counted; not a request.
    Failed(usize, String),
}

/// The master's end of a transport.
pub trait Hub {
    /// The next message from any worker, without waiting: `(worker, message)`
    /// with workers numbered from 0.
    fn try_receive(&mut self) -> Option<(usize, FromWorker)>;
    /// Sends a batch of indices to a worker.
    fn send(&mut self, worker: usize, batch: &[usize]);
}

/// A worker's end of a transport.
pub trait Link {
    /// Sends a message to the master.
    fn send(&mut self, message: FromWorker);
    /// Waits for the next batch.
    fn receive(&mut self) -> Vec<usize>;
}

/// Why a run did not complete, with its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Trouble {
    /// The journal could not be written (exit status 2).
    Journal(String),
    /// A subproblem could not be counted (exit status 3).
    Failed(usize, String),
}

/// The state of rank 0.
#[derive(Debug)]
pub struct Master<'j> {
    job: &'j Job,
    queue: VecDeque<usize>,
    counts: BTreeMap<usize, u128>,
    resumed: usize,
    handed: usize,
    stop_after: Option<usize>,
    batch: Option<usize>,
    workers: usize,
    journal: Option<(File, PathBuf)>,
    progress: Option<Duration>,
    start: Instant,
    last_progress: Instant,
    trouble: Option<Trouble>,
}

impl<'j> Master<'j> {
    /// The master of `job` for `workers` workers: reads the journal to
    /// resume from and opens the journal to write.
    ///
    /// # Errors
    ///
    /// A journal that cannot be read or written, a malformed or foreign
    /// journal (with its place), or a journal file that already holds lines
    /// without `--resume` of that file.
    pub fn new(job: &'j Job, options: &RunOptions, workers: usize) -> Result<Master<'j>, String> {
        let mut counts = BTreeMap::new();
        let mut keep = None;
        if let Some(path) = &options.resume {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the journal '{}': {e}", path.display()))?;
            let complete = complete_lines(&text);
            if complete.len() < text.len() {
                eprintln!(
                    "warning: {}:{}: the last line has no newline (the run stopped while \
                     writing it): ignored",
                    path.display(),
                    text.lines().count()
                );
            }
            counts = job.read_journal(&path.display().to_string(), complete)?;
            keep = Some(complete.len() as u64);
        }
        let journal = match (&options.journal, &options.resume) {
            (None, None) => None,
            (Some(j), Some(r)) if !same_file(j, r) => Some((new_journal(job, j)?, j.clone())),
            (Some(j), None) => Some((new_journal(job, j)?, j.clone())),
            (_, Some(r)) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(r)
                    .map_err(|e| format!("cannot append to the journal '{}': {e}", r.display()))?;
                // Cut off an incomplete last line, then append.
                let keep = keep.unwrap_or(0);
                let mut file = file;
                file.set_len(keep)
                    .and_then(|()| io::Seek::seek(&mut file, io::SeekFrom::End(0)).map(|_| ()))
                    .map_err(|e| format!("cannot append to the journal '{}': {e}", r.display()))?;
                Some((file, r.clone()))
            }
        };
        let queue = (0..job.len()).filter(|i| !counts.contains_key(i)).collect();
        let now = Instant::now();
        Ok(Master {
            job,
            queue,
            resumed: counts.len(),
            counts,
            handed: 0,
            stop_after: options.stop_after,
            batch: options.batch,
            workers,
            journal,
            progress: options.progress,
            start: now,
            last_progress: now,
            trouble: None,
        })
    }

    /// A master with nothing to hand out, to stop the workers after an
    /// error of rank 0.
    pub fn idle(job: &'j Job, workers: usize) -> Master<'j> {
        let now = Instant::now();
        Master {
            job,
            queue: VecDeque::new(),
            counts: BTreeMap::new(),
            resumed: 0,
            handed: 0,
            stop_after: None,
            batch: None,
            workers,
            journal: None,
            progress: None,
            start: now,
            last_progress: now,
            trouble: None,
        }
    }

    /// The next batch of indices to count, empty when there is no more work
    /// to hand out (all handed out, `--stop-after` reached, or a failure).
    pub fn next_batch(&mut self) -> Vec<usize> {
        if self.trouble.is_some() {
            return Vec::new();
        }
        let budget = self
            .stop_after
            .map_or(usize::MAX, |k| k.saturating_sub(self.handed));
        let size = self
            .batch
            .unwrap_or_else(|| (self.queue.len() / (4 * self.workers.max(1))).clamp(1, MAX_BATCH))
            .min(budget)
            .min(self.queue.len());
        self.handed += size;
        self.queue.drain(..size).collect()
    }

    /// Records the count of a subproblem and journals it (one line, flushed).
    pub fn record(&mut self, index: usize, count: u128) {
        if index >= self.job.len() || self.counts.contains_key(&index) {
            self.trouble.get_or_insert(Trouble::Failed(
                index,
                "a worker sent a count of a subproblem out of range or counted before".into(),
            ));
            return;
        }
        self.counts.insert(index, count);
        if let Some((file, path)) = &mut self.journal {
            let line = self.job.line(index, count);
            if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                self.trouble.get_or_insert(Trouble::Journal(format!(
                    "cannot write the journal '{}': {e}",
                    path.display()
                )));
            }
        }
    }

    /// Records a subproblem that could not be counted; no more work is
    /// handed out.
    pub fn fail(&mut self, index: usize, why: String) {
        self.trouble.get_or_insert(Trouble::Failed(index, why));
    }

    /// Prints the progress line if one is due.
    pub fn tick(&mut self) {
        let Some(every) = self.progress else {
            return;
        };
        let now = Instant::now();
        if now.duration_since(self.last_progress) >= every {
            self.last_progress = now;
            eprintln!(
                "{}",
                progress_line(
                    self.counts.len(),
                    self.job.len(),
                    self.counts.len() - self.resumed,
                    now.duration_since(self.start)
                )
            );
        }
    }

    /// Serves `workers` workers until each is done.
    pub fn serve(&mut self, hub: &mut impl Hub) {
        let mut requests = vec![0usize; self.workers];
        let mut given = vec![0usize; self.workers];
        let done = |r: &[usize], g: &[usize]| (0..r.len()).all(|w| r[w] == PREFETCH + g[w]);
        let mut wait = MIN_WAIT;
        while !done(&requests, &given) {
            match hub.try_receive() {
                None => {
                    // No busy wait: rank 0 shares the cores with workers.
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(MAX_WAIT);
                }
                Some((_, FromWorker::Failed(i, why))) => self.fail(i, why),
                Some((w, FromWorker::Counts(counts))) => {
                    wait = MIN_WAIT;
                    for (i, c) in counts {
                        self.record(i, c);
                    }
                    requests[w] += 1;
                    let batch = self.next_batch();
                    if !batch.is_empty() {
                        given[w] += 1;
                    }
                    hub.send(w, &batch);
                }
            }
            self.tick();
        }
    }

    /// Prints the total (stdout) and what was checked (stderr); the exit
    /// status: 0 complete and as known, 1 stopped early or a total that
    /// differs from the known one, 2 the journal could not be written, 3 a
    /// subproblem could not be counted.
    pub fn finish(&self) -> u8 {
        let total: u128 = self.counts.values().sum();
        let len = self.job.len();
        let done = self.counts.len();
        println!("{total}");
        let from_journal = if self.resumed > 0 {
            format!(" ({} from the journal)", self.resumed)
        } else {
            String::new()
        };
        let took = format!(
            "; {:.2} s, {}",
            self.start.elapsed().as_secs_f64(),
            match self.workers {
                0 => "rank 0 alone".to_string(),
                1 => "1 worker".to_string(),
                w => format!("{w} workers"),
            }
        );
        let resume = match &self.journal {
            Some((_, p)) => format!("; resume with --resume {}", p.display()),
            None => String::new(),
        };
        match &self.trouble {
            Some(Trouble::Journal(e)) => {
                eprintln!("error: {e}");
                return 2;
            }
            Some(Trouble::Failed(i, why)) => {
                eprintln!("error: subproblem {i}: {why}");
                eprintln!(
                    "error: {done} of {len} subproblems counted, the total is incomplete{resume}"
                );
                return 3;
            }
            None => {}
        }
        if done < len {
            eprintln!(
                "warning: stopped by --stop-after: {done} of {len} subproblems counted{from_journal}, \
                 the total so far is a lower bound{resume}"
            );
            return 1;
        }
        match self.job.known() {
            Some((known, what)) if known != total => {
                eprintln!("error: the total {total} differs from {what} = {known}");
                1
            }
            Some((_, what)) => {
                eprintln!("{len} subproblems{from_journal}, total matches {what}{took}");
                0
            }
            None => {
                eprintln!("{len} subproblems{from_journal}{took}; no known total to check against");
                0
            }
        }
    }

    /// The counts so far, by index.
    pub fn counts(&self) -> &BTreeMap<usize, u128> {
        &self.counts
    }
}

/// The master's end of channels within one process (rank 0's own worker
/// thread, or the tests' workers).
#[derive(Debug)]
pub struct ChannelHub {
    rx: Receiver<(usize, FromWorker)>,
    txs: Vec<Sender<Vec<usize>>>,
}

/// A worker's end of channels within one process.
#[derive(Debug)]
pub struct ChannelLink {
    id: usize,
    tx: Sender<(usize, FromWorker)>,
    rx: Receiver<Vec<usize>>,
}

/// Channels for `workers` workers in this process: the hub and one link
/// per worker.
pub fn channels(workers: usize) -> (ChannelHub, Vec<ChannelLink>) {
    let (tx, rx) = channel();
    let mut txs = Vec::new();
    let mut links = Vec::new();
    for id in 0..workers {
        let (btx, brx) = channel();
        txs.push(btx);
        links.push(ChannelLink {
            id,
            tx: tx.clone(),
            rx: brx,
        });
    }
    (ChannelHub { rx, txs }, links)
}

impl Hub for ChannelHub {
    fn try_receive(&mut self) -> Option<(usize, FromWorker)> {
        self.rx.try_recv().ok()
    }

    fn send(&mut self, worker: usize, batch: &[usize]) {
        // A worker that is gone has nothing left to receive.
        let _ = self.txs[worker].send(batch.to_vec());
    }
}

impl Link for ChannelLink {
    fn send(&mut self, message: FromWorker) {
        let _ = self.tx.send((self.id, message));
    }

    fn receive(&mut self) -> Vec<usize> {
        // The master answers every request before it drops its end; an
        // empty batch stops the worker if it is gone all the same.
        self.rx.recv().unwrap_or_default()
    }
}

/// Two hubs as one: the workers of `first` (numbered `0..first_workers`),
/// then those of `second`.
#[derive(Debug)]
pub struct Joined<A, B> {
    /// The first hub.
    pub first: A,
    /// Its number of workers.
    pub first_workers: usize,
    /// The second hub.
    pub second: B,
}

impl<A: Hub, B: Hub> Hub for Joined<A, B> {
    fn try_receive(&mut self) -> Option<(usize, FromWorker)> {
        self.second
            .try_receive()
            .map(|(w, m)| (w + self.first_workers, m))
            .or_else(|| self.first.try_receive())
    }

    fn send(&mut self, worker: usize, batch: &[usize]) {
        match worker.checked_sub(self.first_workers) {
            Some(w) => self.second.send(w, batch),
            None => self.first.send(worker, batch),
        }
    }
}

const MIN_WAIT: Duration = Duration::from_micros(20);
const MAX_WAIT: Duration = Duration::from_micros(500);

/// A worker: counts the batches its link brings until an empty one.
pub fn work(job: &Job, link: &mut impl Link) {
    for _ in 0..PREFETCH {
        link.send(FromWorker::Counts(Vec::new()));
    }
    let mut owed = PREFETCH;
    loop {
        let batch = link.receive();
        owed -= 1;
        if batch.is_empty() {
            for _ in 0..owed {
                link.receive();
            }
            return;
        }
        let mut counts = Vec::with_capacity(batch.len());
        for i in batch {
            match job.count(i) {
                Ok(c) => counts.push((i, c)),
                Err(e) => link.send(FromWorker::Failed(i, e)),
            }
        }
        link.send(FromWorker::Counts(counts));
        owed += 1;
    }
}

/// `text` without an incomplete last line (one without its newline).
fn complete_lines(text: &str) -> &str {
    match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Creates a journal with its header; a file that already holds lines is
/// refused (appending to it is what `--resume` is for).
fn new_journal(job: &Job, path: &Path) -> Result<File, String> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "the journal '{}' already holds lines: continue it with --resume {0}, \
             or choose another file",
            path.display()
        ));
    }
    let mut file =
        File::create(path).map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
    writeln!(file, "{}", job.header())
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    Ok(file)
}

/// `csp-mpi: 1234/3206 subproblems (38.5 %), 412.3/s, about 5 s left`:
/// `done` of `len` counted, `new` of them by this run in `elapsed`.
pub fn progress_line(done: usize, len: usize, new: usize, elapsed: Duration) -> String {
    let pct = if len == 0 {
        100.0
    } else {
        100.0 * done as f64 / len as f64
    };
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { new as f64 / secs } else { 0.0 };
    let left = if rate > 0.0 {
        format!("about {} left", human((len - done) as f64 / rate))
    } else {
        "time left unknown".to_string()
    };
    format!("csp-mpi: {done}/{len} subproblems ({pct:.1} %), {rate:.1}/s, {left}")
}

fn human(secs: f64) -> String {
    if secs < 120.0 {
        format!("{secs:.0} s")
    } else if secs < 7200.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Records the batches a hub sends.
    struct Recording<H> {
        hub: H,
        sent: Vec<Vec<usize>>,
    }

    impl<H: Hub> Hub for Recording<H> {
        fn try_receive(&mut self) -> Option<(usize, FromWorker)> {
            self.hub.try_receive()
        }
        fn send(&mut self, worker: usize, batch: &[usize]) {
            self.sent.push(batch.to_vec());
            self.hub.send(worker, batch);
        }
    }

    /// Runs `job` with `workers` worker threads; the exit status, the
    /// counts and every batch sent.
    fn run(
        job: &Job,
        options: &RunOptions,
        workers: usize,
    ) -> (u8, BTreeMap<usize, u128>, Vec<Vec<usize>>) {
        let mut master = Master::new(job, options, workers).unwrap();
        let (hub, links) = channels(workers);
        let mut hub = Recording {
            hub,
            sent: Vec::new(),
        };
        std::thread::scope(|s| {
            for mut link in links {
                s.spawn(move || work(job, &mut link));
            }
            master.serve(&mut hub);
        });
        (master.finish(), master.counts().clone(), hub.sent)
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("csp-mpi-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn workers_count_every_subproblem_once() {
        let job = Job::queens(10, 1).unwrap();
        let dir = scratch("once");
        let journal = dir.join("j");
        let options = RunOptions {
            journal: Some(journal.clone()),
            ..Default::default()
        };
        let (code, counts, sent) = run(&job, &options, 3);
        assert_eq!(code, 0);
        assert_eq!(counts.len(), job.len());
        assert_eq!(counts.values().sum::<u128>(), 724);
        // Every index handed out once; batches of at most MAX_BATCH; three
        // workers each got PREFETCH empty answers at the end.
        let mut handed: Vec<usize> = sent.iter().flatten().copied().collect();
        handed.sort_unstable();
        assert_eq!(handed, (0..job.len()).collect::<Vec<_>>());
        assert!(sent.iter().all(|b| b.len() <= MAX_BATCH));
        assert_eq!(sent.iter().filter(|b| b.is_empty()).count(), 3 * PREFETCH);
        // The journal holds the same counts, under its header.
        let text = std::fs::read_to_string(&journal).unwrap();
        assert_eq!(text.lines().next().unwrap(), job.header());
        assert_eq!(job.read_journal("j", &text).unwrap(), counts);
        // A second run into the same journal is refused.
        let err = Master::new(&job, &options, 3).unwrap_err();
        assert!(err.contains("already holds lines"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn joined_hubs_serve_the_workers_of_both() {
        let job = Job::queens(9, 2).unwrap();
        let mut master = Master::new(&job, &RunOptions::default(), 3).unwrap();
        let (first, first_links) = channels(2);
        let (second, second_links) = channels(1);
        let mut hub = Joined {
            first,
            first_workers: 2,
            second,
        };
        std::thread::scope(|s| {
            for mut link in first_links.into_iter().chain(second_links) {
                let job = &job;
                s.spawn(move || work(job, &mut link));
            }
            master.serve(&mut hub);
        });
        assert_eq!(master.finish(), 0);
        assert_eq!(master.counts().len(), job.len());
        assert_eq!(master.counts().values().sum::<u128>(), 352);
    }

    #[test]
    fn a_stopped_run_resumes_to_the_same_total() {
        let job = Job::queens(11, 1).unwrap();
        let dir = scratch("resume");
        let journal = dir.join("j");
        let first = RunOptions {
            journal: Some(journal.clone()),
            stop_after: Some(70),
            batch: Some(4),
            ..Default::default()
        };
        let (code, counts, _) = run(&job, &first, 2);
        assert_eq!((code, counts.len()), (1, 70));
        // The run is stopped while writing a line: an incomplete last line.
        let mut text = std::fs::read_to_string(&journal).unwrap();
        let cut = text.lines().last().unwrap().to_string();
        text.push_str(&cut[..cut.len() - 1]);
        std::fs::write(&journal, &text).unwrap();
        let second = RunOptions {
            resume: Some(journal.clone()),
            ..Default::default()
        };
        let (code, counts, sent) = run(&job, &second, 2);
        assert_eq!(code, 0);
        assert_eq!(counts.values().sum::<u128>(), 2680);
        assert_eq!(sent.iter().flatten().count(), job.len() - 70);
        // The journal was continued, the incomplete line cut off.
        let text = std::fs::read_to_string(&journal).unwrap();
        assert!(text.ends_with('\n'));
        assert_eq!(job.read_journal("j", &text).unwrap(), counts);
        assert_eq!(text.lines().count(), 1 + job.len());
        // Resumed from a complete journal into another file: nothing left.
        let third = RunOptions {
            resume: Some(journal.clone()),
            journal: Some(dir.join("k")),
            ..Default::default()
        };
        let (code, counts, sent) = run(&job, &third, 1);
        assert_eq!((code, counts.len()), (0, job.len()));
        assert!(sent.iter().all(|b| b.is_empty()));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn one_worker_and_the_generic_engine() {
        let job = Job::latin(4, 6).unwrap();
        let (code, counts, _) = run(&job, &RunOptions::default(), 1);
        assert_eq!((code, counts.values().sum::<u128>()), (0, 576));
        let (code, counts, _) = run(&job, &RunOptions::default(), 2);
        assert_eq!((code, counts.values().sum::<u128>()), (0, 576));
        let job = Job::queens_generic(9, 40).unwrap();
        let (code, counts, _) = run(&job, &RunOptions::default(), 3);
        assert_eq!((code, counts.values().sum::<u128>()), (0, 352));
    }

    #[test]
    fn failures_and_bad_journals() {
        let job = Job::queens(8, 1).unwrap();
        let mut master = Master::new(&job, &RunOptions::default(), 1).unwrap();
        let first = master.next_batch();
        master.fail(first[0], "broken".into());
        assert!(master.next_batch().is_empty());
        assert_eq!(master.finish(), 3);
        // A count of a subproblem counted before is a failure too.
        let mut master = Master::idle(&job, 1);
        master.record(1, 4);
        master.record(1, 4);
        assert_eq!(master.finish(), 3);

        let dir = scratch("bad");
        let bad = dir.join("bad");
        std::fs::write(&bad, "8 1 0 4\n8 1 zz 4\n").unwrap();
        let options = RunOptions {
            resume: Some(bad.clone()),
            ..Default::default()
        };
        let err = Master::new(&job, &options, 1).unwrap_err();
        assert_eq!(
            err,
            format!(
                "{}:2:5: index must be a non-negative integer, got 'zz'",
                bad.display()
            )
        );
        let missing = RunOptions {
            resume: Some(dir.join("none")),
            ..Default::default()
        };
        assert!(Master::new(&job, &missing, 1)
            .unwrap_err()
            .starts_with("cannot read the journal"));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn progress_lines() {
        assert_eq!(
            progress_line(1234, 3206, 1000, Duration::from_secs(2)),
            "csp-mpi: 1234/3206 subproblems (38.5 %), 500.0/s, about 4 s left"
        );
        assert_eq!(
            progress_line(10, 100_000, 10, Duration::from_secs(1)),
            "csp-mpi: 10/100000 subproblems (0.0 %), 10.0/s, about 2.8 h left"
        );
        assert!(progress_line(0, 5, 0, Duration::ZERO).ends_with("time left unknown"));
    }
}
