//! `csp minesweeper FILE`: Minesweeper, the worked example of booleans and
//! reification (`examples/minesweeper`, `docs/minesweeper.md`).

use std::process::ExitCode;

use csp_core::{Outcome, Search};
use csp_minesweeper::Board;

use super::puzzle_file::{HintArgs, HintModel, PuzzleFile};
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
    hints: HintArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The hint model: unrevealed cells `r1c1`… (1 = mine), the numbers as
/// facts.
fn hint_model(b: &Board) -> Result<HintModel, csp_core::ModelError> {
    let mut hm = HintModel::labelled(csp_minesweeper::hint_model(b)?);
    hm.values = Some(["safe", "mine"]);
    Ok(hm)
}

/// A layout (1 = mine) as a board: `*` mines, `.` safe cells.
fn layout(b: &Board, v: &[i32]) -> String {
    let known: Vec<Option<bool>> = v.iter().map(|&x| Some(x == 1)).collect();
    csp_minesweeper::render(b, &known)
}

/// Runs `csp minesweeper`.
pub fn run(a: MinesweeperArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(csp_minesweeper::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let board = csp_minesweeper::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let file = PuzzleFile {
        name: &name,
        puzzles: std::slice::from_ref(&board),
        count: a.count,
        line: |_| None,
        model: &csp_minesweeper::model,
        check: |b, v| {
            let mines: Vec<bool> = v.iter().map(|&x| x == 1).collect();
            csp_minesweeper::check(b, &mines)
        },
        render: layout,
        conflict: &|b| hint_model(b).ok()?.conflict(),
        unique: false,
    };
    if a.hints.wanted() {
        return file.run_hints(&hint_model, &a.hints, &a.engine, &options);
    }
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
            if n(None) > 0 {
                // Two layouts that differ, for the record.
                let (m, mine) = csp_minesweeper::model(&board).map_err(|e| e.to_string())?;
                let mut it = Search::new(&m)
                    .options(options.clone())
                    .solutions()
                    .map_err(|e| e.to_string())?;
                if let (Some(x), Some(y)) = (it.next(), it.next()) {
                    let v =
                        |s: &csp_core::Solution| mine.iter().map(|&c| s[c]).collect::<Vec<i32>>();
                    outln!("more than one mine layout fits; two of them:");
                    out!("{}", layout(&board, &v(&x)));
                    outln!();
                    out!("{}", layout(&board, &v(&y)));
                }
            }
        } else if d.outcome.is_complete() {
            super::puzzle_file::Conflict::print(
                hint_model(&board)
                    .ok()
                    .and_then(|hm| hm.conflict())
                    .as_ref(),
                1,
                false,
            );
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
