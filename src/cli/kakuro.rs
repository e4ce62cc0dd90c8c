//! `csp kakuro FILE`: Kakuro, the worked example of sums over distinct
//! digits (`examples/kakuro`, `docs/kakuro.md`).

use std::process::ExitCode;

use csp_core::constraint::Consistency;

use super::puzzle_file::{HintArgs, HintModel, PuzzleFile};
use super::puzzles::{read_input, EngineArgs};
use super::CliError;

/// Arguments of `csp kakuro`.
#[derive(clap::Args, Debug)]
pub struct KakuroArgs {
    /// Puzzle file (see docs/kakuro.md for the format); stdin if absent or `-`.
    file: Option<String>,
    /// Print the number of solutions of each puzzle instead of a solution.
    #[arg(long)]
    count: bool,
    /// All-different strength of every run: value (default), bounds or domain.
    #[arg(long, default_value = "value")]
    alldiff: String,
    #[command(flatten)]
    hints: HintArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp kakuro`.
pub fn run(a: KakuroArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(csp_kakuro::options())?;
    let strength: Consistency = a.alldiff.parse()?;
    let (text, name) = read_input(a.file.as_deref())?;
    let puzzles = csp_kakuro::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let file = PuzzleFile {
        name: &name,
        puzzles: &puzzles,
        count: a.count,
        line: |p| Some(p.line),
        model: &|p| csp_kakuro::model_with(p, strength),
        check: csp_kakuro::check,
        render: csp_kakuro::render,
        conflict: &|p| HintModel::labelled(csp_kakuro::hint_model(p).ok()?).conflict(),
        unique: true,
    };
    if a.hints.wanted() {
        return file.run_hints(
            &|p| csp_kakuro::hint_model(p).map(HintModel::labelled),
            &a.hints,
            &a.engine,
            &options,
        );
    }
    file.run(&options, &a.engine)
}
