//! `csp futoshiki FILE`: Futoshiki, the worked example of inequalities
//! (`examples/futoshiki`, `docs/futoshiki.md`).

use std::process::ExitCode;

use super::puzzle_file::{HintArgs, HintModel, PuzzleFile};
use super::puzzles::{read_input, EngineArgs};
use super::CliError;

/// Arguments of `csp futoshiki`.
#[derive(clap::Args, Debug)]
pub struct FutoshikiArgs {
    /// Puzzle file (see docs/futoshiki.md for the format); stdin if absent or `-`.
    file: Option<String>,
    /// Print the number of solutions of each puzzle instead of a solution.
    #[arg(long)]
    count: bool,
    #[command(flatten)]
    hints: HintArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `csp futoshiki`.
pub fn run(a: FutoshikiArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(csp_futoshiki::options())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let puzzles = csp_futoshiki::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let file = PuzzleFile {
        name: &name,
        puzzles: &puzzles,
        count: a.count,
        line: |p| Some(p.line),
        model: &csp_futoshiki::model,
        check: csp_futoshiki::check,
        render: csp_futoshiki::render,
        conflict: &|p| HintModel::labelled(csp_futoshiki::hint_model(p).ok()?).conflict(),
        unique: true,
    };
    if a.hints.wanted() {
        return file.run_hints(
            &|p| csp_futoshiki::hint_model(p).map(HintModel::labelled),
            &a.hints,
            &a.engine,
            &options,
        );
    }
    file.run(&options, &a.engine)
}
