//! Subcommands of the `csp` binary, and what they share: engine options from
//! the command line, progress display, output helpers.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use csp_core::{Inference, ValOrder, VarOrder};

#[macro_use]
pub mod output;
pub mod binpack;
pub mod futoshiki;
pub mod golomb;
pub mod jobshop;
pub mod kakuro;
pub mod knapsack;
pub mod magic;
pub mod minesweeper;
pub mod minizinc;
pub mod nonogram;
pub mod puzzle_file;
pub mod puzzles;
pub mod queens;
pub mod queens_compare;
pub mod queens_html;
pub mod queens_local;
pub mod queens_orbits;
pub mod queens_place;
pub mod queens_size;
pub mod queens_split;
pub mod queens_teach;
pub mod queens_trace;
pub mod rcpsp;
pub mod replay;
pub mod sudoku_hints;

/// An error for the user: one line, printed as `error: …`, exit status 2
/// ([`Status::BadInput`]).
pub type CliError = String;

/// How a run ended: the exit status, the same for every subcommand (see
/// `csp --help` and the README). When one run answers several questions (a
/// file of puzzles, lines to verify), the worst status wins:
/// `BadInput` over `Incomplete` over `NotASolution` over `Complete`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// 0: a complete answer: a solution, an exact count, every solution, two
    /// solutions of a puzzle that has several (`more than one solution`), or
    /// a proof that there is none (`no solution`, `none`, a count of 0).
    Complete,
    /// 3: `queens --verify` read a placement that is not a solution.
    NotASolution,
    /// 1: a limit (time, count, memory) stopped the search before the answer was
    /// complete; stderr says which, stdout holds what is known (`unknown`, a
    /// count so far, the solutions so far), never `no solution`.
    Incomplete,
    /// 2: bad input (options, numbers, files: with the line and column), a
    /// request too large to fit, or output that cannot be written.
    BadInput,
}

impl Status {
    /// `Complete`, or `Incomplete` when `stopped`.
    pub fn stopped_if(stopped: bool) -> Status {
        if stopped {
            Status::Incomplete
        } else {
            Status::Complete
        }
    }

    /// The process exit code.
    pub fn code(self) -> ExitCode {
        ExitCode::from(match self {
            Status::Complete => 0,
            Status::Incomplete => 1,
            Status::BadInput => 2,
            Status::NotASolution => 3,
        })
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        s.code()
    }
}

/// Parses `--inference`.
pub fn parse_inference(s: &str) -> Result<Inference, CliError> {
    match s {
        "none" => Ok(Inference::None),
        "fc" | "forward-checking" => Ok(Inference::ForwardChecking),
        "mac" | "ac" => Ok(Inference::Mac),
        _ => Err(format!(
            "unknown inference '{s}' (expected none, fc or mac)"
        )),
    }
}

/// Parses `--var-order`.
pub fn parse_var_order(s: &str) -> Result<VarOrder, CliError> {
    match s {
        "input" => Ok(VarOrder::Input),
        "mrv" => Ok(VarOrder::Mrv),
        "dom-deg" => Ok(VarOrder::DomDeg),
        "dom-wdeg" => Ok(VarOrder::DomWdeg),
        "smallest" => Ok(VarOrder::Smallest),
        "largest" => Ok(VarOrder::Largest),
        _ => Err(format!(
            "unknown variable order '{s}' (expected input, mrv, dom-deg, dom-wdeg, smallest or largest)"
        )),
    }
}

/// Parses `--val-order` (`random` uses `seed`).
pub fn parse_val_order(s: &str, seed: u64) -> Result<ValOrder, CliError> {
    match s {
        "asc" => Ok(ValOrder::Ascending),
        "desc" => Ok(ValOrder::Descending),
        "middle" => Ok(ValOrder::Middle),
        "random" => Ok(ValOrder::Random { seed }),
        "split" => Ok(ValOrder::Split),
        "reverse-split" => Ok(ValOrder::ReverseSplit),
        "binary-min" => Ok(ValOrder::BinaryMin),
        "binary-max" => Ok(ValOrder::BinaryMax),
        _ => Err(format!(
            "unknown value order '{s}' (expected asc, desc, middle, random, split, reverse-split, binary-min or binary-max)"
        )),
    }
}

/// How an optimisation ended, for the line with its value: `optimal,
/// proven` only when the search proved it.
pub fn proof_note(o: csp_core::Outcome) -> String {
    match o {
        csp_core::Outcome::Solved => "optimal, proven".to_string(),
        csp_core::Outcome::LimitReached(l) => {
            format!(
                "best found, not proven optimal: stopped by the {l}",
                l = Stop(l)
            )
        }
        o => format!("best found ({o})"),
    }
}

/// Ends an optimisation subcommand: `show` prints the best solution (it
/// checks it independently and gets the proof note for its last line);
/// without one, `unknown` and a warning naming `what` was not found. Then
/// the statistics with `--stats`, and the exit code (1 unless proven).
pub fn finish_optimum(
    r: &csp_core::Optimum,
    what: &str,
    stats: bool,
    show: impl FnOnce(&csp_core::Solution, &str) -> Result<(), CliError>,
) -> Result<ExitCode, CliError> {
    let status = match (&r.best, r.outcome) {
        (Some(best), o) => {
            show(best, &proof_note(o))?;
            Status::stopped_if(o != csp_core::Outcome::Solved)
        }
        (None, csp_core::Outcome::LimitReached(l)) => {
            outln!("unknown");
            errln!(
                "warning: incomplete: no {what} found before the {l}",
                l = Stop(l)
            );
            Status::Incomplete
        }
        (None, o) => return Err(format!("internal error: no {what} ({o})")),
    };
    if stats {
        errln!("{}", r.stats);
    }
    Ok(status.code())
}

/// Parses `--restarts`: `none`, `luby[:SCALE]`, `geometric[:BASE[:FACTOR]]`.
pub fn parse_restarts(s: &str) -> Result<csp_core::Restarts, CliError> {
    let bad =
        || format!("--restarts expects none, luby[:SCALE] or geometric[:BASE[:FACTOR]], got '{s}'");
    let parts: Vec<&str> = s.split(':').collect();
    let int = |t: &str| t.parse::<u64>().ok().filter(|&v| v >= 1).ok_or_else(bad);
    match parts.as_slice() {
        ["none"] => Ok(csp_core::Restarts::None),
        ["luby"] => Ok(csp_core::Restarts::Luby { scale: 100 }),
        ["luby", k] => Ok(csp_core::Restarts::Luby { scale: int(k)? }),
        ["geometric"] => Ok(csp_core::Restarts::Geometric {
            base: 100,
            factor: 1.5,
        }),
        ["geometric", b] => Ok(csp_core::Restarts::Geometric {
            base: int(b)?,
            factor: 1.5,
        }),
        ["geometric", b, f] => {
            let factor = f
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 1.0 && *v <= 100.0)
                .ok_or_else(bad)?;
            Ok(csp_core::Restarts::Geometric {
                base: int(b)?,
                factor,
            })
        }
        _ => Err(bad()),
    }
}

/// A limit as the command line names it: the memory limit adds the option
/// that raises it.
pub struct Stop(pub csp_core::Limit);

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            csp_core::Limit::Memory => write!(
                f,
                "memory limit (the search's store outgrew it; raise it with --memory-limit SIZE, \
                 default half the available memory)"
            ),
            csp_core::Limit::Iterations => write!(
                f,
                "LNS iteration budget (every neighbourhood searched; \
                 raise it with --lns ITERATIONS)"
            ),
            l => write!(f, "{l}"),
        }
    }
}

/// The search's memory budget in bytes: `--memory-limit` when given (a
/// size such as `512M` or `1.5G`, read as `fzn-csp` reads it:
/// [`csp_fzn::memory::parse_size`]), else half the memory available now
/// (`MemAvailable` in /proc/meminfo), or no budget when that cannot be
/// read.
pub fn memory_limit(asked: Option<&str>) -> Result<Option<u64>, CliError> {
    csp_fzn::memory::default_limit(asked)
}

/// Parses a time limit in seconds.
pub fn parse_seconds(s: &str) -> Result<Duration, CliError> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..1e9).contains(&x) => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!(
            "--time-limit expects a number of seconds, got '{s}'"
        )),
    }
}

/// The most worker threads `--threads` may ask for, per core: more only
/// adds switching (the output never depends on the thread count).
pub const THREADS_PER_CORE: usize = 4;

/// The worker threads for `--threads`: 0 (all cores) when absent; a number
/// above [`THREADS_PER_CORE`] times the cores is clamped to that, with a note
/// on stderr (before, `--threads 100000` started thousands of threads).
pub fn threads(asked: Option<usize>) -> usize {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    clamp_threads(asked.unwrap_or(0), cores)
}

fn clamp_threads(asked: usize, cores: usize) -> usize {
    let cap = THREADS_PER_CORE.saturating_mul(cores);
    if asked > cap {
        errln!(
            "note: --threads {asked} is more than {THREADS_PER_CORE} per core; using {cap} ({cores} cores)"
        );
        cap
    } else {
        asked
    }
}

/// `bytes` read from `name` as text; input that is not UTF-8 gets an error
/// naming the line and column of the first bad byte (`file: line 3, column 7:
/// not UTF-8 text (byte 0xff)`), as a parse error would.
pub fn decode(bytes: Vec<u8>, name: &str) -> Result<String, CliError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let good = e.utf8_error().valid_up_to();
        // The prefix is valid UTF-8, so this never falls back.
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "{name}: line {line}, column {column}: not UTF-8 text (byte {:#04x})",
            bytes[good]
        )
    })
}

/// The memory available for a new program in bytes, when known
/// (`MemAvailable` in `/proc/meminfo` on Linux; `MemTotal` on older kernels).
pub fn available_memory() -> Option<u128> {
    csp_fzn::memory::available_memory()
}

/// Refuses a request whose memory `need` (a lower bound in bytes; `None`
/// when the arithmetic overflowed) exceeds the available memory `have`,
/// before anything is allocated: the error names the size and `change`, the
/// option to change. Unknown available memory refuses only overflows.
pub fn check_memory(
    what: &str,
    need: Option<u128>,
    have: Option<u128>,
    change: &str,
) -> Result<(), CliError> {
    let gib = |b: u128| b as f64 / f64::from(1u32 << 30);
    match (need, have) {
        (None, _) => Err(format!(
            "{what} needs more memory than can be counted; {change}"
        )),
        (Some(need), Some(have)) if need > have => Err(format!(
            "{what} needs at least {:.1} GiB of memory, more than is available ({:.1} GiB); {change}",
            gib(need),
            gib(have)
        )),
        _ => Ok(()),
    }
}

/// Why a run whose memory floor `need` is above the memory limit
/// (`--memory-limit`, default half the available memory) cannot start:
/// the limit covers the model and the solver's arrays as well as the
/// search's store. `None` when it fits.
pub fn over_budget(need: Option<u128>, limit: Option<u64>) -> Option<String> {
    let mib = |b: u128| b as f64 / f64::from(1u32 << 20);
    match (need, limit) {
        (Some(need), Some(limit)) if need > u128::from(limit) => Some(format!(
            "memory limit (the model and the solver's arrays need at least {:.1} MiB, \
             the limit is {:.1} MiB; raise it with --memory-limit SIZE, \
             default half the available memory)",
            mib(need),
            mib(u128::from(limit))
        )),
        _ => None,
    }
}

/// A spinner on stderr that appears only if the work lasts more than a
/// second and stderr is a terminal (so tests, pipes and the docs' outputs
/// never see it). Its message can change as the work goes on (the best
/// value so far). Dropping it clears it.
pub struct Progress {
    done: Arc<AtomicBool>,
    message: Arc<Mutex<String>>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts the timer for a task described by `message`.
    pub fn start(message: &str) -> Progress {
        Progress::start_if(std::io::stderr().is_terminal(), message)
    }

    /// [`Progress::start`] unless `quiet` (say, when `--progress` prints
    /// its own lines on stderr).
    pub fn unless(quiet: bool, message: &str) -> Progress {
        Progress::start_if(!quiet && std::io::stderr().is_terminal(), message)
    }

    fn start_if(show: bool, message: &str) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let message = Arc::new(Mutex::new(message.to_string()));
        let handle = show.then(|| {
            let (d, msg) = (done.clone(), message.clone());
            thread::spawn(move || {
                for _ in 0..10 {
                    if d.load(Ordering::Relaxed) {
                        return;
                    }
                    thread::sleep(Duration::from_millis(100));
                }
                let bar = indicatif::ProgressBar::new_spinner();
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                while !d.load(Ordering::Relaxed) {
                    if let Ok(m) = msg.lock() {
                        bar.set_message(m.clone());
                    }
                    bar.tick();
                    thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            })
        });
        Progress {
            done,
            message,
            handle,
        }
    }

    /// Changes the message shown from now on.
    pub fn say(&self, message: String) {
        if let Ok(mut m) = self.message.lock() {
            *m = message;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_is_not_utf8_names_line_and_column() {
        assert_eq!(decode(b"1 2\n".to_vec(), "f").as_deref(), Ok("1 2\n"));
        assert_eq!(
            decode(b"ab\n\xc3\xa9x\xff".to_vec(), "f"),
            Err("f: line 2, column 3: not UTF-8 text (byte 0xff)".into())
        );
        assert_eq!(
            decode(vec![0x80], "<stdin>"),
            Err("<stdin>: line 1, column 1: not UTF-8 text (byte 0x80)".into())
        );
    }

    #[test]
    fn memory_requests_are_checked_before_allocating() {
        let gib = 1u128 << 30;
        assert_eq!(
            check_memory("x", Some(gib), Some(2 * gib), "use less"),
            Ok(())
        );
        assert_eq!(check_memory("x", Some(gib), None, "use less"), Ok(()));
        assert_eq!(
            check_memory("n = 7", Some(3 * gib), Some(2 * gib), "use a smaller N"),
            Err("n = 7 needs at least 3.0 GiB of memory, more than is available (2.0 GiB); use a smaller N".into())
        );
        assert!(check_memory("x", None, None, "use less").is_err());
        assert!(available_memory().is_none_or(|m| m > 1 << 20));
    }

    #[test]
    fn threads_are_capped_per_core() {
        assert_eq!(clamp_threads(0, 2), 0); // 0 = all cores
        assert_eq!(clamp_threads(3, 2), 3);
        assert_eq!(clamp_threads(8, 2), 8);
        assert_eq!(clamp_threads(9, 2), 8);
        assert_eq!(clamp_threads(usize::MAX, 64), 256);
    }
}
