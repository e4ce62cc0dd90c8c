//! `csp golomb N`: an optimal Golomb ruler with N marks, the worked example
//! of optimisation (`examples/golomb`, `docs/golomb.md`).

use std::process::ExitCode;

use csp_core::Search;

use super::puzzles::EngineArgs;
use super::CliError;

/// Arguments of `csp golomb`.
#[derive(clap::Args, Debug)]
pub struct GolombArgs {
    /// The number of marks.
    n: String,
    /// Print each shorter ruler as it is found.
    #[arg(long)]
    progress: bool,
    /// Search by subproblems on this many threads (0: all cores); the
    /// answer, optimal value and reported solution alike, is the same for
    /// any number. Without it: the sequential search, which shows
    /// --progress and may report another optimal solution.
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp golomb`.
pub fn run(a: GolombArgs) -> Result<ExitCode, CliError> {
    let n: usize =
        a.n.parse()
            .ok()
            .filter(|&n| (1..=csp_golomb::MAX_MARKS).contains(&n))
            .ok_or_else(|| {
                format!(
                    "N must be a number of marks from 1 to {}, got '{}'",
                    csp_golomb::MAX_MARKS,
                    a.n
                )
            })?;
    let options = a.engine.apply(csp_golomb::options())?;
    let g = csp_golomb::model(n).map_err(|e| e.to_string())?;
    let marks_of = |s: &csp_core::Solution| -> Vec<i32> { g.marks.iter().map(|&x| s[x]).collect() };
    let progress = a.progress;
    let spinner = super::Progress::unless(progress, &format!("Golomb ruler with {n} marks"));
    let r = if let Some(t) = a.threads {
        Search::new(&g.model)
            .options(options)
            .par_minimize(g.length, super::threads(Some(t)))
    } else {
        Search::new(&g.model)
            .options(options)
            .minimize_each(g.length, |s, len| {
                if progress {
                    errln!("found length {len}: {}", join(&marks_of(s)));
                }
                spinner.say(format!("Golomb ruler with {n} marks: length {len} found"));
                std::ops::ControlFlow::Continue(())
            })
    }
    .map_err(|e| e.to_string())?;
    drop(spinner);
    super::finish_optimum(&r, "ruler", a.engine.stats, |best, proof| {
        let marks = marks_of(best);
        csp_golomb::check(&marks).map_err(|e| format!("internal error: {e}"))?;
        outln!("marks: {}", join(&marks));
        outln!("length: {} ({proof})", marks[n - 1]);
        Ok(())
    })
}

fn join(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
}
