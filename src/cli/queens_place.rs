//! `csp queens N --place c3,e1`: N-queens with queens already placed —
//! complete the board, or `--hint`, `--explain`, `--rate` it through the
//! generic hints (`csp_queens::placed`, [`super::puzzle_file`]).

use std::process::ExitCode;

use csp_queens::placed::{self, Square};

use super::puzzle_file::{HintArgs, HintModel, PuzzleFile};
use super::puzzles::EngineArgs;
use super::CliError;

/// The largest board `--place` takes (one 0/1 variable per square).
const MAX_N: usize = 64;

/// What `csp queens --place` was asked.
pub struct Mode<'a> {
    /// `--hint`.
    pub hint: bool,
    /// `--explain`.
    pub explain: bool,
    /// `--rate`.
    pub rate: bool,
    /// `--format`: text (or board) or json.
    pub format: Option<&'a str>,
    /// `--stats`.
    pub stats: bool,
    /// A flag `--place` does not take (`--count`, `--all`, `--solver` …).
    pub other: bool,
}

/// A board with queens placed.
struct Board {
    n: usize,
    placed: Vec<Square>,
}

fn hint_model(b: &Board) -> Result<HintModel, csp_core::ModelError> {
    let mut hm = HintModel::labelled(placed::hint_model(b.n, &b.placed)?);
    hm.values = Some(["empty", "queen"]);
    Ok(hm)
}

/// Runs `csp queens N --place SQUARES`.
pub fn run(n: usize, squares: &str, mode: Mode<'_>) -> Result<ExitCode, CliError> {
    if mode.other {
        return Err(
            "--place completes one board: --count, --all, --unique, --orbits, --trace and --solver do not apply"
                .into(),
        );
    }
    if n == 0 || n > MAX_N {
        return Err(format!(
            "--place takes boards of 1 to {MAX_N} squares a side, not {n}"
        ));
    }
    let json = match mode.format {
        None | Some("board") | Some("text") => false,
        Some("json") if mode.hint || mode.explain || mode.rate => true,
        Some(f) => {
            return Err(format!(
                "--place prints a board; --format {f} is not one of board, text, or json (with --hint, --explain or --rate)"
            ))
        }
    };
    let board = Board {
        n,
        placed: placed::parse_squares(n, squares)?,
    };
    let file = PuzzleFile {
        name: "queens",
        puzzles: std::slice::from_ref(&board),
        count: false,
        line: |_| None,
        model: &|b: &Board| placed::board_model(b.n, &b.placed, true),
        check: |b, v| placed::check(b.n, &b.placed, v),
        render: |b, v| {
            placed::to_columns(b.n, v)
                .map(|cols| csp_queens::render::board(&cols))
                .unwrap_or_default()
        },
        conflict: &|b| hint_model(b).ok()?.conflict(),
        unique: true,
    };
    let engine = EngineArgs::with_stats(mode.stats);
    let options = csp_core::SearchOptions::default();
    if mode.hint || mode.explain || mode.rate {
        let a = HintArgs::new(mode.hint, mode.explain, mode.rate, json);
        return file.run_hints(&hint_model, &a, &engine, &options);
    }
    file.run(&options, &engine)
}
