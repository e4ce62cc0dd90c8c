//! Subcommands of the `csp` binary, and what they share: engine options from
//! the command line, progress display, output helpers.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use csp_core::{Inference, ValOrder, VarOrder};

pub mod puzzles;
pub mod queens;
pub mod queens_local;
pub mod queens_split;

/// An error for the user: one line, printed as `error: …`.
pub type CliError = String;

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
        _ => Err(format!(
            "unknown variable order '{s}' (expected input, mrv, dom-deg or dom-wdeg)"
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
        _ => Err(format!(
            "unknown value order '{s}' (expected asc, desc, middle or random)"
        )),
    }
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

/// A spinner on stderr that appears only if the work lasts more than a
/// second and stderr is a terminal. Dropping it clears it.
pub struct Progress {
    done: Arc<AtomicBool>,
    handle: Option<thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts the timer for a task described by `message`.
    pub fn start(message: &str) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let handle = if std::io::stderr().is_terminal() {
            let d = done.clone();
            let msg = message.to_string();
            Some(thread::spawn(move || {
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
                bar.set_message(msg);
                while !d.load(Ordering::Relaxed) {
                    bar.tick();
                    thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            }))
        } else {
            None
        };
        Progress { done, handle }
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
