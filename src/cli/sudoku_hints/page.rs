//! `csp sudoku --explain --format html`: the step-wise explanation as one
//! self-contained page. The board shows every open cell's candidates; one
//! step at a time, the cells it concludes, the candidates it removes and
//! the cells of its pattern are highlighted, with the step's sentence, its
//! technique and level beside the board. The states are computed here (the
//! page only draws them), with the same steps `--explain` prints.
//!
//! The page's positions: 0 the puzzle as read, `K` (1 to the number of
//! steps) the board *before* step `K` with step `K` marked, and one more
//! for the end (solved, search needed, or a contradiction). A puzzle with
//! no solution, or with several, has one position: the verdict.
//!
//! The page itself knows nothing of Sudoku: a [`Board`] of cells, each
//! with its possible values ("slots"), and [`Position`]s that say which
//! slots each cell still has. The other puzzles' pages
//! (`super::super::puzzle_file`) use it too.

use std::fmt::Write as _;

use csp_sudoku::pencil::{self, cell_name, Candidates, Input};
use csp_sudoku::techniques::{self, Checker, End, Step};
use csp_sudoku::{model, render, Grid};

use super::{conflict_givens, split, stuck};
use crate::cli::replay::{html_escape, json_str};
use crate::cli::CliError;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The board: its shape, its cells and the values each may take.
pub(crate) struct Board {
    /// Rows and columns.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Thick lines every `box_side` rows and columns (0: none).
    pub box_side: usize,
    /// Each position's cell name, `None` where the puzzle has no cell.
    pub names: Vec<Option<String>>,
    /// Each cell's values as shown, in order (empty where no cell); a
    /// position's masks and values count them from 1.
    pub slots: Vec<Vec<String>>,
    /// Was the cell's value given?
    pub givens: Vec<bool>,
}

/// The most values a cell of the page may have (one bit each in the
/// page's masks, which are 32-bit numbers in the script).
pub(crate) const MAX_SLOTS: usize = 30;

/// One position of the page: a board state and what to mark on it.
pub(crate) struct Position {
    /// `start`, `step`, `end` or `verdict`.
    pub kind: &'static str,
    /// The sentence (or, for a verdict, its lines).
    pub text: Vec<String>,
    /// The technique's name, code and level (steps only).
    pub technique: Option<(String, String, String)>,
    /// Each cell's value, as its slot from 1 (0 when open).
    pub values: Vec<u32>,
    /// Each open cell's candidates (bit `s` for slot `s`).
    pub cands: Vec<u32>,
    /// `(cell, slot)` the step places.
    pub placements: Vec<(usize, u32)>,
    /// `(cell, slot)` the step eliminates.
    pub eliminations: Vec<(usize, u32)>,
    /// The cells of the pattern (the premises' cells).
    pub cells: Vec<usize>,
    /// The slots of the pattern (in the pattern's cells, emphasised).
    pub digits: Vec<u32>,
}

impl Position {
    /// A position of `kind` showing `values` and `cands`, nothing marked.
    pub fn new(
        kind: &'static str,
        values: Vec<u32>,
        cands: Vec<u32>,
        text: Vec<String>,
    ) -> Position {
        Position {
            kind,
            text,
            technique: None,
            values,
            cands,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            digits: Vec::new(),
        }
    }

    fn of(kind: &'static str, pm: &Candidates, text: Vec<String>) -> Position {
        let n = pm.side();
        Position::new(
            kind,
            (0..n * n).map(|c| u32::from(pm.value(c))).collect(),
            (0..n * n).map(|c| pm.mask(c)).collect(),
            text,
        )
    }

    fn step(k: usize, pm: &Candidates, s: &Step) -> Position {
        let mut p = Position::of("step", pm, vec![format!("{k}. {}", s.sentence)]);
        p.technique = Some((
            s.technique.name().to_string(),
            s.technique.code().to_string(),
            s.technique.level().to_string(),
        ));
        let wide = |v: &[(usize, u8)]| v.iter().map(|&(c, d)| (c, u32::from(d))).collect();
        p.placements = wide(&s.placements);
        p.eliminations = wide(&s.eliminations);
        p.cells = s.cells.clone();
        p.digits = s.digits.iter().map(|&d| u32::from(d)).collect();
        p
    }
}

/// The board of a Sudoku state.
fn sudoku_board(pm: &Candidates) -> Board {
    let (n, k) = (pm.side(), pm.box_side());
    let symbols: Vec<String> = (1..=n as u8)
        .map(|d| csp_sudoku::symbol(d).unwrap_or('?').to_string())
        .collect();
    Board {
        rows: n,
        cols: n,
        box_side: k,
        names: (0..n * n).map(|c| Some(cell_name(n, c))).collect(),
        slots: vec![symbols; n * n],
        givens: (0..n * n).map(|c| pm.is_given(c)).collect(),
    }
}

fn json_list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    let v: Vec<String> = items.iter().map(f).collect();
    format!("[{}]", v.join(","))
}

fn pairs(v: &[(usize, u32)]) -> String {
    json_list(v, |&(c, d)| format!("[{c},{d}]"))
}

/// The page's data: the board's shape, the cells and the positions.
fn to_json(title: &str, board: &Board, summary: &str, positions: &[Position]) -> String {
    let names = json_list(&board.names, |n| {
        n.as_deref().map_or("null".to_string(), json_str)
    });
    let slots = json_list(&board.slots, |v| json_list(v, |x| json_str(x)));
    let mut s = format!(
        "{{\"title\": {}, \"rows\": {}, \"cols\": {}, \"box\": {}, \"summary\": {}, \"names\": {names}, \"slots\": {slots}, \"givens\": {},\n\"positions\": [",
        json_str(title),
        board.rows,
        board.cols,
        board.box_side,
        json_str(summary),
        json_list(&board.givens, |&g| u8::from(g).to_string()),
    );
    for (i, p) in positions.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let technique = match &p.technique {
            Some((name, code, level)) => format!(
                "{{\"name\": {}, \"code\": {}, \"level\": {}}}",
                json_str(name),
                json_str(code),
                json_str(level)
            ),
            None => "null".to_string(),
        };
        let _ = write!(
            s,
            "\n{{\"kind\": {}, \"text\": {}, \"technique\": {technique}, \"values\": {}, \"cands\": {}, \"placements\": {}, \"eliminations\": {}, \"cells\": {}, \"digits\": {}}}",
            json_str(p.kind),
            json_list(&p.text, |t| json_str(t)),
            json_list(&p.values, |v| v.to_string()),
            json_list(&p.cands, |m| m.to_string()),
            pairs(&p.placements),
            pairs(&p.eliminations),
            json_list(&p.cells, |c| c.to_string()),
            json_list(&p.digits, |d| d.to_string()),
        );
    }
    s.push_str("\n]}");
    s
}

/// The whole page: the template with the style, script and data inlined.
fn page(title: &str, board: &Board, summary: &str, positions: &[Position]) -> String {
    // The data last: nothing inserted before it is scanned for it.
    TEMPLATE
        .replace("{{TITLE}}", &html_escape(title))
        .replace("{{CSS}}", STYLE)
        .replace("{{JS}}", SCRIPT)
        .replace("{{DATA}}", &to_json(title, board, summary, positions))
}

/// Writes the page to stdout.
pub(crate) fn write_page(
    title: &str,
    board: &Board,
    summary: &str,
    positions: &[Position],
) -> Result<(), CliError> {
    use std::io::Write as _;
    let html = page(title, board, summary, positions);
    let mut out = crate::cli::output::stdout();
    out.write_all(html.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| format!("writing the page: {e}"))
}

/// The positions of a puzzle the techniques can work on: the start, each
/// step, and the end.
fn explained(pm: &Candidates, checker: &Checker) -> Result<(String, Vec<Position>), CliError> {
    let n = pm.side();
    let (steps, end) = techniques::solve_steps(pm, checker)?;
    let r = techniques::rate(&steps, &end);
    let open = (0..n * n).filter(|&c| pm.value(c) == 0).count();
    let mut positions = vec![Position::of(
        "start",
        pm,
        vec![format!(
            "The puzzle: {} cells filled, {open} open, each open cell showing its candidates. \
             Step through the {} steps with the buttons or the arrow keys.",
            n * n - open,
            steps.len()
        )],
    )];
    let mut state = pm.clone();
    for (k, s) in steps.iter().enumerate() {
        positions.push(Position::step(k + 1, &state, s));
        techniques::apply(&mut state, s);
    }
    if end == End::Solved {
        csp_sudoku::check_solution(&pm.grid(), &state.grid())
            .map_err(|e| format!("internal error: the steps end in a wrong grid: {e}"))?;
    }
    let (summary, text, cells) = match &end {
        End::Solved => (
            format!(
                "solved in {} steps ({}, score {})",
                steps.len(),
                r.level,
                r.score
            ),
            format!("Solved ({}, score {})", r.level, r.score),
            Vec::new(),
        ),
        End::Stuck => {
            let (c, ds) = split(&state).unwrap_or((0, Vec::new()));
            (
                format!(
                    "{} steps, then propagation stops here: search needed",
                    steps.len()
                ),
                stuck(n, c, &ds),
                vec![c],
            )
        }
        End::Broken(b) => (
            format!("{} steps, then a contradiction", steps.len()),
            format!("Contradiction: {b}"),
            Vec::new(),
        ),
    };
    let mut last = Position::of("end", &state, vec![text]);
    last.cells = cells;
    positions.push(last);
    Ok((summary, positions))
}

/// The one position of a puzzle with no solution: the givens of a
/// smallest conflict marked, and the account of their contradiction.
fn no_solution(g: &Grid, pm: &Candidates) -> (String, Vec<Position>) {
    let n = g.side();
    let (text, cells) = match conflict_givens(g) {
        Some((givens, lines)) => {
            let names: Vec<String> = givens
                .iter()
                .map(|&(c, d)| format!("{}={d}", cell_name(n, c)))
                .collect();
            let mut text = vec![format!(
                "No solution: these givens cannot hold together: {}",
                names.join(", ")
            )];
            text.extend(lines);
            (text, givens.iter().map(|&(c, _)| c).collect())
        }
        None => (vec!["No solution".to_string()], Vec::new()),
    };
    let mut p = Position::of("verdict", pm, text);
    p.cells = cells;
    ("no solution".to_string(), vec![p])
}

/// Writes the explanation page of the one puzzle in `text` (as
/// `--explain` reads it) to stdout.
pub fn explain_page(text: &str, name: &str) -> Result<(), CliError> {
    let inputs = pencil::read_inputs(text);
    let (line, input) = match inputs.as_slice() {
        [one] => one,
        [] => return Err(format!("{name}: no puzzle to explain")),
        many => {
            return Err(format!(
                "--explain --format html writes a page for one puzzle, and {name} holds {}: \
                 pick one (e.g. sed -n 2p FILE | csp sudoku --explain --format html)",
                many.len()
            ))
        }
    };
    let input = input.as_ref().map_err(|e| format!("{name}: {e}"))?;
    let (pm, grid) = match input {
        Input::Grid(g) => (Candidates::from_grid(g), Some(g)),
        Input::Library(c) => (c.state.clone(), None),
        Input::Marks(pm) => (pm.clone(), None),
    };
    let title = format!("Sudoku ({name}, line {line}), explained step by step");
    let (summary, positions) = match grid.map(|g| (g, model::is_unique(g, &model::options()))) {
        Some((g, model::Uniqueness::None)) => no_solution(g, &pm),
        Some((_, model::Uniqueness::Multiple(x, y))) => (
            "more than one solution".to_string(),
            vec![Position::of(
                "verdict",
                &pm,
                vec![format!(
                    "More than one solution, for example {} and {}: no step-wise \
                     explanation leads to one answer",
                    render::line(&x),
                    render::line(&y)
                )],
            )],
        ),
        Some((_, model::Uniqueness::Unknown(l))) => {
            return Err(format!("{name}: line {line}: stopped by the {l:?}"))
        }
        Some((_, model::Uniqueness::Invalid(c))) => {
            return Err(format!(
                "engine error: a grid that violates constraint {c} was let through"
            ))
        }
        Some((_, model::Uniqueness::Unique(_))) | None => {
            explained(&pm, &Checker::new(pm.box_side()))?
        }
    };
    write_page(&title, &sudoku_board(&pm), &summary, &positions)
}
