//! `csp nonogram FILE`: nonograms, the worked example of the regular
//! constraint (`examples/nonogram`, `docs/nonogram.md`).

use std::process::ExitCode;

use csp_core::SearchOptions;

use super::puzzle_file::{Conflict, HintArgs, HintModel, PuzzleFile};
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
    hints: HintArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The cells' values (1 = black) as booleans.
fn black(values: &[i32]) -> Vec<bool> {
    values.iter().map(|&v| v == 1).collect()
}

/// The hint model: cells `r1c1`… (1 = black), lines named `row 3 (2 1)`.
fn hint_model(p: &csp_nonogram::Puzzle) -> Result<HintModel, csp_core::ModelError> {
    let mut hm = HintModel::labelled(csp_nonogram::hint_model(p)?);
    hm.values = Some(["blank", "black"]);
    Ok(hm)
}

/// The node budget of each search behind the conflicting clues.
const CONFLICT_NODES: u64 = 100_000;

/// A minimal set of clues that cannot hold together, and how propagation
/// on those lines alone refutes them.
fn conflict(p: &csp_nonogram::Puzzle) -> Option<Conflict> {
    let lines = csp_nonogram::conflicting_lines(p, CONFLICT_NODES)?;
    let n = p.rows.len() + p.columns.len();
    let keep: Vec<bool> = (0..n).map(|i| lines.contains(&i)).collect();
    let mut hm = HintModel::labelled(csp_nonogram::hint_model_of(p, Some(&keep)).ok()?);
    hm.values = Some(["blank", "black"]);
    Some(Conflict {
        givens: lines
            .iter()
            .map(|&i| csp_nonogram::line_name(p, i))
            .collect(),
        shown: None,
        explanation: hm.contradiction().unwrap_or_default(),
    })
}

/// Runs `csp nonogram`.
pub fn run(a: NonogramArgs) -> Result<ExitCode, CliError> {
    let options = a.engine.apply(SearchOptions::default())?;
    let (text, name) = read_input(a.file.as_deref())?;
    let p = csp_nonogram::parse(&text).map_err(|e| format!("{name}:{e}"))?;
    let file = PuzzleFile {
        name: &name,
        puzzles: std::slice::from_ref(&p),
        count: a.count,
        line: |_| None,
        model: &csp_nonogram::model,
        check: |p, v| csp_nonogram::check(p, &black(v)),
        render: |p, v| csp_nonogram::render(p, &black(v)),
        conflict: &conflict,
        unique: true,
    };
    if a.hints.wanted() {
        return file.run_hints(&hint_model, &a.hints, &a.engine, &options);
    }
    file.run(&options, &a.engine)
}
