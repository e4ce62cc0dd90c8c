//! `csp jobshop FILE`: job-shop scheduling, minimising the makespan
//! (`examples/jobshop`, `docs/jobshop.md`).

use std::process::ExitCode;

use csp_core::Search;

use super::puzzles::{read_input, EngineArgs};
use super::CliError;

/// Arguments of `csp jobshop`.
#[derive(clap::Args, Debug)]
pub struct JobshopArgs {
    /// Instance in the OR-Library format (`jobs machines`, then per job its
    /// `machine duration` pairs); stdin if absent or `-`.
    file: Option<String>,
    /// Print each better makespan as it is found.
    #[arg(long)]
    progress: bool,
    /// Large neighbourhood search instead of complete branch and bound:
    /// ITERATIONS neighbourhoods with 30% of the variables freed, 1000
    /// nodes each, seeded by --seed (optimality is claimed only if proven).
    #[arg(long, value_name = "ITERATIONS")]
    lns: Option<u64>,
    /// Search by subproblems on this many threads (0: all cores); the
    /// answer, optimal value and reported solution alike, is the same for
    /// any number. Without it: the sequential search, which shows
    /// --progress and may report another optimal solution.
    #[arg(long)]
    threads: Option<usize>,
    /// Plain branch and bound instead of the learning search (nogoods from
    /// conflicts, in the same order: the default for the sequential
    /// search; --lns and --threads always search without learning).
    #[arg(long = "no-learning", conflicts_with = "learning")]
    no_learning: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp jobshop`.
pub fn run(a: JobshopArgs) -> Result<ExitCode, CliError> {
    let mut options = a.engine.apply(csp_jobshop::options())?;
    if !a.no_learning {
        // Measured on ft06 and la01–la05 (docs/jobshop.md, section 4): 1.0 s
        // in all against 5.7 s, la02 0.24 s against 4.85 s.
        options.learning = true;
        options.learning_order = csp_core::LearningOrder::User;
    }
    let (text, name) = read_input(a.file.as_deref())?;
    let shop = csp_jobshop::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let js = csp_jobshop::model(&shop).map_err(|e| e.to_string())?;
    if a.lns.is_some() {
        // Neighbourhoods free order decisions, not start times.
        options.decision_vars = js.orders.clone();
    }
    let progress = a.progress;
    let spinner = super::Progress::unless(progress, &format!("job shop {name}"));
    let r = match a.lns {
        Some(iterations) => {
            let r = Search::new(&js.model)
                .options(options)
                .minimize_lns(
                    js.makespan,
                    csp_core::Lns {
                        seed: a.engine.seed(),
                        iterations,
                        ..csp_core::Lns::default()
                    },
                )
                .map_err(|e| e.to_string())?;
            if progress {
                for i in &r.improvements {
                    errln!("found makespan {}", i.objective);
                }
            }
            r
        }
        None if a.threads.is_some() => Search::new(&js.model)
            .options(options)
            .par_minimize(js.makespan, super::threads(a.threads))
            .map_err(|e| e.to_string())?,
        None => Search::new(&js.model)
            .options(options)
            .minimize_each(js.makespan, |_, v| {
                if progress {
                    errln!("found makespan {v}");
                }
                spinner.say(format!("job shop {name}: makespan {v} found"));
                std::ops::ControlFlow::Continue(())
            })
            .map_err(|e| e.to_string())?,
    };
    drop(spinner);
    super::finish_optimum(&r, "schedule", a.engine.stats, |best, proof| {
        let starts: Vec<Vec<i32>> = js
            .starts
            .iter()
            .map(|row| row.iter().map(|&s| best[s]).collect())
            .collect();
        let makespan =
            csp_jobshop::check(&shop, &starts).map_err(|e| format!("internal error: {e}"))?;
        for (j, row) in starts.iter().enumerate() {
            let cells: Vec<String> = row
                .iter()
                .zip(&shop.jobs[j])
                .map(|(s, (mach, d))| format!("m{mach}@{s}+{d}"))
                .collect();
            outln!("job {}: {}", j + 1, cells.join(" "));
        }
        outln!("makespan: {makespan} ({proof})");
        Ok(())
    })
}
