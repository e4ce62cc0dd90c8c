//! `csp futoshiki FILE`: Futoshiki, the worked example of inequalities
//! (`examples/futoshiki`, `docs/futoshiki.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search};

use super::puzzles::{read_input, EngineArgs};
use super::{CliError, Status};

/// Arguments of `csp futoshiki`.
#[derive(clap::Args, Debug)]
pub struct FutoshikiArgs {
    /// Puzzle file (see docs/futoshiki.md for the format); stdin if absent or `-`.
    file: Option<String>,
    /// Print the number of solutions of each puzzle instead of a solution.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp futoshiki`.
pub fn run(a: FutoshikiArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(csp_futoshiki::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let puzzles = csp_futoshiki::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    if puzzles.is_empty() {
        return Err(format!("{name}: no puzzle found"));
    }
    let mut status = Status::Complete;
    for (k, p) in puzzles.iter().enumerate() {
        if k > 0 && !a.count {
            outln!();
        }
        let (m, cells) = csp_futoshiki::model(p).map_err(|e| e.to_string())?;
        let search = Search::new(&m).options(options.clone());
        let (outcome, stats) = if a.count {
            let r = search.count();
            outln!("{}", r.count);
            (r.outcome, r.stats)
        } else {
            let r = search.solve();
            match &r.solution {
                Some(s) => {
                    let grid: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
                    csp_futoshiki::check(p, &grid).map_err(|e| format!("internal error: {e}"))?;
                    out!("{}", csp_futoshiki::render(p, &grid));
                }
                None if r.outcome.is_complete() => outln!("no solution"),
                None => outln!("unknown"),
            }
            (r.outcome, r.stats)
        };
        if let Outcome::LimitReached(l) = outcome {
            errln!(
                "{name}: puzzle at line {}: incomplete: stopped by the {l}",
                p.line
            );
            status = status.max(Status::Incomplete);
        }
        if a.engine.stats {
            errln!("{stats}");
        }
    }
    Ok(status.code())
}
