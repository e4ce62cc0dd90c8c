//! `csp nonogram FILE`: nonograms, the worked example of the regular
//! constraint (`examples/nonogram`, `docs/nonogram.md`).

use std::process::ExitCode;

use csp_core::SearchOptions;

use super::puzzle_file::PuzzleFile;
use super::puzzles::{read_input, EngineArgs};
use super::CliError;

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

/// The cells' values (1 = black) as booleans.
fn black(values: &[i32]) -> Vec<bool> {
    values.iter().map(|&v| v == 1).collect()
}

/// Runs `csp nonogram`.
pub fn run(a: NonogramArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(SearchOptions::default())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let p = csp_nonogram::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    PuzzleFile {
        name: &name,
        puzzles: std::slice::from_ref(&p),
        count: a.count,
        line: |_| None,
        model: &csp_nonogram::model,
        check: |p, v| csp_nonogram::check(p, &black(v)),
        render: |p, v| csp_nonogram::render(p, &black(v)),
    }
    .run(&options, &a.engine)
}
