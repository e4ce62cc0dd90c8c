//! `csp nonogram FILE`: nonograms, the worked example of the regular
//! constraint (`examples/nonogram`, `docs/nonogram.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search, SearchOptions};

use super::puzzles::{read_input, EngineArgs};
use super::{CliError, Status};

/// Arguments of `csp nonogram`.
#[derive(clap::Args, Debug)]
pub struct NonogramArgs {
    /// Puzzle file: `rows`, one clue per line, `columns`, one clue per line;
    /// stdin if absent or `-`.
    file: Option<String>,
    /// Print the number of solutions instead of a solution.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp nonogram`.
pub fn run(a: NonogramArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(SearchOptions::default())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let p = csp_nonogram::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let (m, cells) = csp_nonogram::model(&p).map_err(|e| e.to_string())?;
    let search = Search::new(&m).options(options);
    let (outcome, stats) = if a.count {
        let r = search.count();
        outln!("{}", r.count);
        (r.outcome, r.stats)
    } else {
        let r = search.solve();
        match &r.solution {
            Some(s) => {
                let grid: Vec<bool> = cells.iter().map(|&x| s[x] == 1).collect();
                csp_nonogram::check(&p, &grid).map_err(|e| format!("internal error: {e}"))?;
                out!("{}", csp_nonogram::render(&p, &grid));
            }
            None if r.outcome.is_complete() => outln!("no solution"),
            None => outln!("unknown"),
        }
        (r.outcome, r.stats)
    };
    if let Outcome::LimitReached(l) = outcome {
        errln!("warning: incomplete: stopped by the {l}");
    }
    if a.engine.stats {
        errln!("{stats}");
    }
    Ok(Status::stopped_if(!outcome.is_complete()).code())
}
