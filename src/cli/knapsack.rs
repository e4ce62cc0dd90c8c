//! `csp knapsack FILE`: the 0/1 knapsack, maximising the value taken under
//! the capacity (`examples/knapsack`, `docs/knapsack.md`).

use std::process::ExitCode;

use csp_core::Search;

use super::puzzles::{read_input, EngineArgs};
use super::CliError;

/// Arguments of `csp knapsack`.
#[derive(clap::Args, Debug)]
pub struct KnapsackArgs {
    /// Instance: a line `items capacity`, then `weight value` per item;
    /// stdin if absent or `-`.
    file: Option<String>,
    /// Print each better value as it is found.
    #[arg(long)]
    progress: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp knapsack`.
pub fn run(a: KnapsackArgs) -> Result<ExitCode, CliError> {
    let (text, name) = read_input(a.file.as_deref())?;
    let k = csp_knapsack::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let km = csp_knapsack::model(&k).map_err(|e| e.to_string())?;
    let options = a.engine.apply(csp_knapsack::options(&k, &km))?;
    let progress = a.progress;
    let spinner = super::Progress::unless(progress, &format!("knapsack of {name}"));
    let r = Search::new(&km.model)
        .options(options)
        .maximize_each(km.value, |_, v| {
            if progress {
                errln!("found value {v}");
            }
            spinner.say(format!("knapsack of {name}: value {v} found"));
            std::ops::ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
    drop(spinner);
    super::finish_optimum(&r, "choice", a.engine.stats, |best, proof| {
        let taken: Vec<bool> = km.take.iter().map(|&t| best[t] == 1).collect();
        let value = csp_knapsack::check(&k, &taken).map_err(|e| format!("internal error: {e}"))?;
        let items: Vec<String> = (1..=taken.len())
            .filter(|&i| taken[i - 1])
            .map(|i| i.to_string())
            .collect();
        let weight: i64 = k
            .items
            .iter()
            .zip(&taken)
            .filter(|(_, &t)| t)
            .map(|(&(w, _), _)| w)
            .sum();
        outln!("items: {}", items.join(" "));
        outln!("weight: {weight} of {}", k.capacity);
        outln!("value: {value} ({proof})");
        Ok(())
    })
}
