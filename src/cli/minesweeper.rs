//! `csp minesweeper FILE`: Minesweeper, the worked example of booleans and
//! reification (`examples/minesweeper`, `docs/minesweeper.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search};

use super::puzzles::{read_input, EngineArgs};
use super::{CliError, Status};

/// Arguments of `csp minesweeper`.
#[derive(clap::Args, Debug)]
pub struct MinesweeperArgs {
    /// Board file (see docs/minesweeper.md for the format); stdin if absent or `-`.
    file: Option<String>,
    /// Print the number of mine layouts that fit the board instead.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp minesweeper`.
pub fn run(a: MinesweeperArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(csp_minesweeper::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let board = csp_minesweeper::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let (outcome, stats) = if a.count {
        let (m, _) = csp_minesweeper::model(&board).map_err(|e| e.to_string())?;
        let r = Search::new(&m)
            .options(options)
            .count()
            .map_err(|e| e.to_string())?;
        outln!("{}", r.count);
        (r.outcome, r.stats)
    } else {
        let d = csp_minesweeper::deduce(&board, &options).map_err(|e| e.to_string())?;
        if d.consistent {
            out!("{}", csp_minesweeper::render(&board, &d.cells));
            let n = |v: Option<bool>| {
                board
                    .cells
                    .iter()
                    .zip(&d.cells)
                    .filter(|&(&c, &k)| c == csp_minesweeper::Cell::Hidden && k == v)
                    .count()
            };
            outln!(
                "certain mines: {}, certain safe: {}, undecided: {}",
                n(Some(true)),
                n(Some(false)),
                n(None)
            );
        } else if d.outcome.is_complete() {
            outln!("no solution");
        } else {
            outln!("unknown");
        }
        if a.engine.stats {
            errln!("searches: {}", d.searches);
        }
        (d.outcome, d.stats)
    };
    if let Outcome::LimitReached(l) = outcome {
        errln!(
            "warning: incomplete: stopped by the {l}",
            l = super::Stop(l)
        );
    }
    if a.engine.stats {
        errln!("{stats}");
    }
    Ok(Status::stopped_if(!outcome.is_complete()).code())
}
