//! The `fzn-csp` command line: csp as a FlatZinc solver for MiniZinc (the
//! executable is `src/bin/fzn-csp.rs` of the `csp` package, a call of
//! [`main`]).
//!
//! ```text
//! fzn-csp [-a] [-i] [-n N] [-f] [-p N] [-r SEED] [-s] [-t MS] [-v] [--node-limit N] [--no-learning] [--no-lns] [--cumulative-strength S] [--all-different-strength S] [--trace-conflicts N] [--memory-limit SIZE] [--why-unsat [--why-unsat-budget N]] model.fzn
//! ```
//!
//! Exit status: 0 when the run ended normally (including "unsatisfiable"
//! and "unknown"), 1 on an internal error, 2 on bad flags or a bad model.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::run::{self, Config, Status};

/// How long after `-t` the watchdog ends a run that has not stopped.
const WATCHDOG_GRACE_MS: u64 = 500;

const USAGE: &str =
    "usage: fzn-csp [-a] [-i] [-n N] [-f] [-p N] [-r SEED] [-s] [-t MS] [-v] [--node-limit N] [--no-learning] [--no-lns] [--cumulative-strength S] [--all-different-strength S] [--trace-conflicts N] [--memory-limit SIZE] [--why-unsat [--why-unsat-budget N]] FILE.fzn";

const HELP: &str = "fzn-csp: csp as a FlatZinc solver (MiniZinc: minizinc --solver csp model.mzn)

options:
  -a, --all-solutions        every solution (optimisation: every improving one)
  -i, --intermediate         every improving solution of an optimisation
  -n, --num-solutions N      stop after N solutions
  -f, --free-search          ignore search annotations (dom/wdeg with restarts)
  -p, --parallel N           threads
  -r, --random-seed SEED     seed for indomain_random
  -s, --statistics           print %%%mzn-stat lines
  -t, --time-limit MS        stop after MS milliseconds
  -v, --verbose              notes and progress on standard error
      --node-limit N         stop after N search nodes (as -t does, =====UNKNOWN=====
                             or the best solution found; for measurements that do
                             not depend on the machine's speed)
      --memory-limit SIZE    the heap's budget for building the model and the search
                             (512M, 4G; default half the available memory): past it,
                             =====UNKNOWN===== and a note saying where
      --no-learning          the ordinary engine (no nogoods) for one solution and for
                             optimisation; by default they use the learning search:
                             in the order of the model's search annotations, or with
                             -f (or none) by activity with restarts (enumeration and
                             counting always use the ordinary engine)
      --learning             the learning search (the default; kept for old scripts)
      --no-lns               optimisation with learning without its neighbourhoods: by
                             default every other restart first fixes a random share of
                             the variables to the best solution's values (large
                             neighbourhood search; learned nogoods kept)
      --lns                  the neighbourhoods (the default; for symmetry)
      --trace-conflicts N    print the first N conflicts of the learning search,
                             analysed step by step, as % comment lines; then solve
      --why-unsat            when the model has no solution, name a minimal set of its
                             constraints that cannot hold together (% comment lines
                             after =====UNSATISFIABLE=====: line, call, MiniZinc's
                             constraint name and path)
      --why-unsat-budget N   the node budget of each of its checks (default 100000)
      --cumulative-strength timetable|energetic|energetic-reasoning|ttef
                             how every cumulative propagates: time-tabling alone,
                             plus the energetic overload check (default), plus
                             energetic reasoning that pushes starts (O(n³) per call),
                             or plus time-table edge finding (O(n² log n))
      --all-different-strength value|bounds|domain
                             how every all_different without a consistency annotation
                             propagates: bounds (Hall intervals) where the learning
                             search runs, value (forward checking) where the ordinary
                             engine does; or Régin's domain consistency
      --inference fc|mac     one inference level for every constraint (default: mac,
                             with value all-different forward-checked as in Gecode;
                             mac adds hidden singles to it, fc forward-checks all)
      --version, --help";

fn number<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

/// The flags and the model file of a command line (without the program
/// name); `Ok(None)` after `--help` or `--version` (printed here).
///
/// ```
/// let (cfg, file) = csp_fzn::cli::parse_args(["-a", "-t", "500", "m.fzn"].map(String::from))
///     .unwrap()
///     .unwrap();
/// assert!(cfg.all);
/// assert_eq!(file, "m.fzn");
/// let e = csp_fzn::cli::parse_args(["--frobnicate", "m.fzn"].map(String::from)).unwrap_err();
/// assert!(e.starts_with("unknown option '--frobnicate'"));
/// ```
pub fn parse_args(
    args: impl IntoIterator<Item = String>,
) -> Result<Option<(Config, String)>, String> {
    let mut cfg = Config::default();
    let mut file = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-a" | "--all-solutions" | "--all" => cfg.all = true,
            "-i" | "--intermediate" | "--intermediate-solutions" => cfg.intermediate = true,
            "-f" | "--free-search" => cfg.free = true,
            "-s" | "--statistics" => cfg.stats = true,
            "-v" | "--verbose" | "--verbose-solving" => cfg.verbose = true,
            "-n" | "--num-solutions" => cfg.solutions = Some(number(&a, it.next())?),
            "-p" | "--parallel" => cfg.threads = number(&a, it.next())?,
            "-r" | "--random-seed" | "--seed" => cfg.seed = number(&a, it.next())?,
            "--inference" => {
                cfg.inference = Some(match it.next().as_deref() {
                    Some("fc") => csp_core::Inference::ForwardChecking,
                    Some("mac") => csp_core::Inference::Mac,
                    Some("none") => csp_core::Inference::None,
                    v => {
                        return Err(format!(
                            "--inference: expected fc, mac or none, found {}",
                            v.map_or("nothing".to_string(), |v| format!("'{v}'"))
                        ))
                    }
                })
            }
            "--all-different-strength" => {
                use csp_core::constraint::Consistency as C;
                cfg.all_different = Some(match it.next().as_deref() {
                    Some("value") => C::Value,
                    Some("bounds") => C::Bounds,
                    Some("domain") => C::Domain,
                    v => {
                        return Err(format!(
                            "--all-different-strength: expected value, bounds or domain, found {}",
                            v.map_or("nothing".to_string(), |v| format!("'{v}'"))
                        ))
                    }
                })
            }
            "--cumulative-strength" => {
                use csp_core::constraint::CumulativeStrength as S;
                cfg.cumulative = match it.next().as_deref() {
                    Some("timetable") => S::TimeTable,
                    Some("energetic") => S::Energetic,
                    Some("energetic-reasoning") => S::EnergeticReasoning,
                    Some("ttef") => S::TimeTableEdgeFinding,
                    v => {
                        return Err(format!(
                            "--cumulative-strength: expected timetable, energetic, \
                             energetic-reasoning or ttef, found {}",
                            v.map_or("nothing".to_string(), |v| format!("'{v}'"))
                        ))
                    }
                }
            }
            "-t" | "--time-limit" => {
                cfg.time_limit = Some(Duration::from_millis(number(&a, it.next())?))
            }
            "--node-limit" => cfg.node_limit = Some(number(&a, it.next())?),
            "--learning" => cfg.learning = true,
            "--no-learning" => cfg.learning = false,
            "--lns" => cfg.lns = true,
            "--no-lns" => cfg.lns = false,
            "--trace-conflicts" => cfg.trace_conflicts = Some(number(&a, it.next())?),
            "--why-unsat" => cfg.why_unsat = true,
            "--why-unsat-budget" => {
                let n: u64 = number(&a, it.next())?;
                if n == 0 {
                    return Err("--why-unsat-budget: the budget must be at least 1".to_string());
                }
                cfg.why_unsat_budget = Some(n);
            }
            "--memory-limit" => {
                let v = it.next().ok_or("--memory-limit needs a value")?;
                cfg.memory_limit = Some(crate::memory::parse_size(&v)?);
            }
            "--help" | "-h" => {
                println!("{HELP}");
                return Ok(None);
            }
            "--version" => {
                println!("fzn-csp {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(format!("unknown option '{f}'\n{USAGE}"))
            }
            f => {
                if let Some(prev) = &file {
                    return Err(format!("two model files: '{prev}' and '{f}'\n{USAGE}"));
                }
                file = Some(f.to_string());
            }
        }
    }
    if cfg.why_unsat_budget.is_some() && !cfg.why_unsat {
        return Err(format!("--why-unsat-budget needs --why-unsat\n{USAGE}"));
    }
    match file {
        Some(f) => Ok(Some((cfg, f))),
        None => Err(format!("no model file\n{USAGE}")),
    }
}

/// Runs `fzn-csp` with the process's arguments.
pub fn main() -> ExitCode {
    let start = Instant::now();
    let (mut cfg, file) = match parse_args(std::env::args().skip(1)) {
        Ok(Some(x)) => x,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fzn-csp: {e}");
            return ExitCode::from(2);
        }
    };
    // The watchdog: whatever the search or the model's setup does, the
    // process ends soon after the time limit, saying what it knows.
    if let Some(t) = cfg.time_limit {
        let deadline = start + t + Duration::from_millis(WATCHDOG_GRACE_MS);
        std::thread::spawn(move || {
            while Instant::now() < deadline {
                std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            }
            crate::spinner::wipe();
            // Solutions already printed may wait in the buffer: out first.
            let _ = crate::out::write_out();
            let mut out = io::stdout().lock();
            if run::PRINTED.load(Ordering::SeqCst) == 0 {
                let _ = writeln!(out, "{}", run::UNKNOWN);
            }
            let _ = out.flush();
            eprintln!("fzn-csp: stopped by the time limit");
            std::process::exit(0);
        });
    }
    let text = match std::fs::read(&file) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            eprintln!("fzn-csp: {file}: {e}");
            return ExitCode::from(2);
        }
    };
    if cfg.memory_limit.is_none() {
        cfg.memory_limit = crate::memory::default_limit(None).unwrap_or(None);
    }
    let budget = cfg.memory_limit.map(crate::memory::Budget::of);
    let built = crate::parse(&text)
        .map_err(crate::BuildError::Invalid)
        .and_then(|items| {
            // Only where the learning search runs: enumeration keeps the
            // ordinary engine, which has no use for order literals and
            // is faster with value all-different (Gecode's default).
            let learning = cfg.learning && !cfg.all && cfg.solutions.is_none_or(|n| n <= 1);
            let opts = crate::BuildOptions {
                budget,
                cumulative: cfg.cumulative,
                order_literals: learning,
                all_different: cfg
                    .all_different
                    .or(learning.then_some(csp_core::constraint::Consistency::Bounds)),
            };
            crate::build_with(&items, opts)
        });
    // --why-unsat shows the items by their text.
    let text = if cfg.why_unsat { text } else { String::new() };
    let mut fzn = match built {
        Ok(f) => f,
        Err(crate::BuildError::MemoryLimit(e)) => {
            // Stopped by a limit with nothing known, as a search would be.
            println!("{}", run::UNKNOWN);
            eprintln!("fzn-csp: {file}:{e}");
            return ExitCode::SUCCESS;
        }
        Err(crate::BuildError::Invalid(e)) => {
            eprintln!("{file}:{e}");
            return ExitCode::from(2);
        }
    };
    if cfg.inference == Some(csp_core::Inference::Mac) {
        fzn.full_value_all_different();
    }
    let mut out = crate::out::Batched;
    // With -s on a terminal, a spinner while the search runs.
    let spinner = cfg.stats.then(|| crate::spinner::start(&file));
    let solved = run::solve(&fzn, &cfg, &mut out, start.elapsed());
    let solved = solved.and_then(|status| {
        if status == Status::Unsatisfiable && cfg.why_unsat {
            let time = cfg.time_limit.map(|t| t.saturating_sub(start.elapsed()));
            let budget = cfg.why_unsat_budget.unwrap_or(crate::why::DEFAULT_BUDGET);
            crate::why::explain(&fzn, &text, budget, time, &mut out)?;
        }
        Ok(status)
    });
    drop(spinner);
    let written = crate::out::write_out();
    match written.and(solved) {
        Ok(Status::Done | Status::Unsatisfiable | Status::Unknown) => ExitCode::SUCCESS,
        Ok(Status::Error) => ExitCode::from(1),
        // A closed pipe (e.g. `| head`) is not an error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fzn-csp: writing the output: {e}");
            ExitCode::from(1)
        }
    }
}
