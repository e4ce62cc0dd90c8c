//! `csp queens N --place c3,e1`: N-queens with queens already placed —
//! complete the board, or `--hint`, `--explain`, `--rate` it through the
//! generic hints (`csp_queens::placed`, [`super::puzzle_file`]);
//! `--explain --format html` writes the explanation page the other
//! puzzles write (`csp queens N --format html` without `--place` is the
//! search's replay, [`super::queens_trace`]).

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
    /// `--format`: text (or board), json, or html (with `--explain`).
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
    let format = match mode.format {
        None | Some("board") | Some("text") => "text",
        Some("json") if mode.hint || mode.explain || mode.rate => "json",
        Some("html") if mode.explain => "html",
        Some("html") => {
            return Err(
                "--place --format html writes the explanation page: use it with --explain \
                 (csp queens N --format html, without --place, replays the search)"
                    .into(),
            )
        }
        Some(f) => {
            return Err(format!(
                "--place prints a board; --format {f} is not one of board, text, json (with --hint, --explain or --rate), or html (with --explain)"
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
        let a = HintArgs::new(mode.hint, mode.explain, mode.rate, format);
        return file.run_hints(&hint_model, &a, &engine, &options);
    }
    file.run(&options, &engine)
}
