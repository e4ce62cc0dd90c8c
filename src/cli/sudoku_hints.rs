//! `csp sudoku --hint`, `--explain` and `--rate`: the next step, the whole
//! step-wise solution and the difficulty, in the words Sudoku players use
//! (`csp_sudoku::techniques`), as sentences or JSON Lines; and on a puzzle
//! with no solution, a minimal set of givens that cannot hold together and
//! why (`csp_core::hints::why_no_solution`).

use std::io::Write;
use std::process::ExitCode;

use csp_core::hints;
use csp_core::Literal;
use csp_sudoku::pencil::{self, cell_name, Candidates, Input};
use csp_sudoku::techniques::{self, Checker, End, Step, Technique};
use csp_sudoku::{model, render, Grid};

use super::minizinc::json_string as js;
use super::{CliError, Status};

pub(crate) mod page;
pub use page::explain_page;

/// What to print for each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The next step.
    Hint,
    /// Every step.
    Explain,
    /// The level and score.
    Rate,
}

/// The options of the hint modes.
#[derive(Clone, Debug)]
pub struct HintArgs {
    /// What to print.
    pub mode: Mode,
    /// `--technique`: look for this one only (with `--hint`).
    pub technique: Option<Technique>,
    /// `--format json`: JSON Lines.
    pub json: bool,
}

fn io_err(e: std::io::Error) -> CliError {
    e.to_string()
}

fn strings(v: &[String]) -> String {
    let items: Vec<String> = v.iter().map(|s| js(s)).collect();
    format!("[{}]", items.join(", "))
}

/// The JSON object of one step.
fn step_json(puzzle: usize, k: usize, pm: &Candidates, s: &Step) -> String {
    let n = pm.side();
    let constraints: Vec<String> = s.rules.iter().map(|r| r.show(n)).collect();
    format!(
        "{{\"puzzle\": {puzzle}, \"step\": {k}, \"technique\": {}, \"code\": {}, \"level\": {}, \"placements\": {}, \"eliminations\": {}, \"premises\": {}, \"constraints\": {}, \"text\": {}}}",
        js(s.technique.name()),
        js(s.technique.code()),
        js(&s.technique.level().to_string()),
        strings(&s.placement_names(n)),
        strings(&s.elimination_names(n)),
        strings(&s.premises(pm)),
        strings(&constraints),
        js(&s.sentence)
    )
}

/// The smallest case split left: the empty cell with the fewest candidates.
fn split(pm: &Candidates) -> Option<(usize, Vec<u8>)> {
    let n = pm.side();
    (0..n * n)
        .filter(|&c| pm.value(c) == 0)
        .min_by_key(|&c| pm.mask(c).count_ones())
        .map(|c| (c, pm.digits(c)))
}

/// The sentence for a state no technique here moves on.
fn stuck(n: usize, cell: usize, ds: &[u8]) -> String {
    format!(
        "No technique here applies: search is needed; the smallest case split is {} ({})",
        cell_name(n, cell),
        digits(ds)
    )
}

fn digits(ds: &[u8]) -> String {
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// Runs the hint modes over every puzzle of `text`: 81-character lines,
/// HoDoKu library lines, grids drawn over nine lines, or pencil-mark grids
/// ([`pencil::read_inputs`]).
pub fn run(text: &str, name: &str, a: &HintArgs) -> Result<ExitCode, CliError> {
    let mut out = super::output::stdout();
    let mut status = Status::Complete;
    let mut checkers: Vec<Option<Checker>> = (0..=csp_sudoku::MAX_BOX_SIDE).map(|_| None).collect();
    for (puzzle, input) in pencil::read_inputs(text) {
        // A library line names the digits its technique is about.
        let mut digits = Vec::new();
        let state = match input {
            Ok(Input::Library(c)) => {
                digits = c.digits;
                Ok(c.state)
            }
            Ok(Input::Marks(pm)) => Ok(pm),
            Ok(Input::Grid(g)) => match solvable(&g, puzzle, a, &mut out)? {
                true => Ok(Candidates::from_grid(&g)),
                false => continue,
            },
            Err(e) => Err(e),
        };
        let pm = match state {
            Ok(pm) => pm,
            Err(e) => {
                errln!("{name}: {e}");
                if a.json {
                    writeln!(out, "{{\"puzzle\": {puzzle}, \"error\": {}}}", js(&e))
                        .map_err(io_err)?;
                } else {
                    writeln!(out, "error").map_err(io_err)?;
                }
                status = status.max(Status::BadInput);
                continue;
            }
        };
        let checker = checkers[pm.box_side()].get_or_insert_with(|| Checker::new(pm.box_side()));
        match a.mode {
            Mode::Hint => hint(&pm, &digits, puzzle, a, checker, &mut out)?,
            Mode::Explain | Mode::Rate => explain(&pm, puzzle, a, checker, &mut out)?,
        }
    }
    out.flush().map_err(io_err)?;
    Ok(status.code())
}

/// Does the grid have exactly one solution? If not, says so (with the
/// conflicting givens when it has none) and returns false.
fn solvable(g: &Grid, puzzle: usize, a: &HintArgs, out: &mut impl Write) -> Result<bool, CliError> {
    match model::is_unique(g, &model::options()) {
        model::Uniqueness::Unique(_) => Ok(true),
        model::Uniqueness::None => {
            no_solution(g, puzzle, a.json, out)?;
            Ok(false)
        }
        model::Uniqueness::Multiple(x, y) => {
            if a.json {
                writeln!(
                    out,
                    "{{\"puzzle\": {puzzle}, \"solutions\": 2, \"examples\": [{}, {}]}}",
                    js(&render::line(&x)),
                    js(&render::line(&y))
                )
            } else {
                writeln!(
                    out,
                    "More than one solution, for example {} and {}",
                    render::line(&x),
                    render::line(&y)
                )
            }
            .map_err(io_err)?;
            Ok(false)
        }
        model::Uniqueness::Unknown(l) => Err(format!("line {puzzle}: stopped by the {l:?}")),
        model::Uniqueness::Invalid(c) => Err(format!(
            "engine error: a grid that violates constraint {c} was let through"
        )),
    }
}

/// A minimal set of the givens of `g` that cannot hold together, and the
/// explanation of their contradiction, or `None`.
pub fn conflict(g: &Grid) -> Option<(Vec<String>, Vec<String>)> {
    let n = g.side();
    conflict_givens(g).map(|(givens, lines)| {
        let names = givens
            .iter()
            .map(|&(c, d)| format!("{}={d}", cell_name(n, c)))
            .collect();
        (names, lines)
    })
}

/// Givens as `(cell, digit)`, and the lines of an explanation.
pub type Conflict = (Vec<(usize, u8)>, Vec<String>);

/// [`conflict`] with the givens as `(cell, digit)`.
pub fn conflict_givens(g: &Grid) -> Option<Conflict> {
    let n = g.side();
    let (m, cells) = model::model(&Grid::empty(g.box_side()).ok()?);
    let mut givens = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            let v = g.get(r, c);
            if v != 0 {
                givens.push(Literal::Eq(x, i32::from(v)));
            }
        }
    }
    let why = hints::why_no_solution(&m, &givens, &hints::Options::default()).ok()??;
    let givens = why
        .conflict
        .iter()
        .map(|l| (l.var().index(), u8::try_from(l.value()).unwrap_or(0)))
        .collect();
    // The model posts rows, then columns, then boxes: name them so.
    let houses: Vec<(String, String)> = (0..3 * n)
        .rev()
        .map(|k| {
            let (kind, i) = (["row", "column", "box"][k / n], k % n + 1);
            (format!("all-different (c{k})"), format!("{kind} {i}"))
        })
        .collect();
    let lines = why
        .explanation
        .map(|e| {
            e.to_string()
                .lines()
                .map(|l| {
                    houses
                        .iter()
                        .fold(l.to_string(), |l, (from, to)| l.replace(from, to))
                })
                .collect()
        })
        .unwrap_or_default();
    Some((givens, lines))
}

fn no_solution(g: &Grid, puzzle: usize, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    let found = conflict(g);
    if json {
        let (c, e) = found.unwrap_or_default();
        writeln!(
            out,
            "{{\"puzzle\": {puzzle}, \"solutions\": 0, \"conflict\": {}, \"explanation\": {}}}",
            strings(&c),
            strings(&e)
        )
    } else {
        match found {
            Some((c, e)) => {
                writeln!(
                    out,
                    "No solution: these givens cannot hold together: {}",
                    c.join(", ")
                )
                .map_err(io_err)?;
                for l in e {
                    writeln!(out, "  {l}").map_err(io_err)?;
                }
                Ok(())
            }
            None => writeln!(out, "No solution"),
        }
    }
    .map_err(io_err)
}

/// The next step (with `--technique`, the first instance of it, one on
/// `digits` first when a library line names them).
fn hint(
    pm: &Candidates,
    digits: &[u8],
    puzzle: usize,
    a: &HintArgs,
    checker: &Checker,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let n = pm.side();
    let step = match a.technique {
        Some(t) => {
            let steps = techniques::find_checked(pm, t, checker)?;
            let mut want = digits.to_vec();
            want.sort_unstable();
            let on_digits = steps.iter().position(|s| {
                let mut ds = s.digits.clone();
                ds.sort_unstable();
                ds == want
            });
            steps.into_iter().nth(on_digits.unwrap_or(0))
        }
        None => techniques::next_with(pm, checker)?,
    };
    let line = match (step, a.technique) {
        (Some(s), _) if a.json => step_json(puzzle, 1, pm, &s),
        // With --technique (the technique library's use) the sentence
        // alone; the plain hint shows the board too.
        (Some(s), Some(_)) => s.sentence,
        (Some(s), None) => format!("{}\n{}", s.sentence, marked_board(pm, &s)),
        (None, Some(t)) if a.json => format!(
            "{{\"puzzle\": {puzzle}, \"technique\": {}, \"code\": {}, \"applies\": false}}",
            js(t.name()),
            js(t.code())
        ),
        (None, Some(t)) => format!("{} ({}) does not apply", t.title(), t.code()),
        (None, None) => match split(pm) {
            None if a.json => format!("{{\"puzzle\": {puzzle}, \"solved\": true}}"),
            None => "Solved".to_string(),
            Some((c, ds)) if a.json => format!(
                "{{\"puzzle\": {puzzle}, \"step\": null, \"search\": {}, \"candidates\": {}}}",
                js(&cell_name(n, c)),
                strings(&ds.iter().map(|d| d.to_string()).collect::<Vec<_>>())
            ),
            Some((c, ds)) => stuck(n, c, &ds),
        },
    };
    writeln!(out, "{line}").map_err(io_err)
}

/// The board of a `--hint` step, the cells it involves marked: `(7)` the
/// digit placed in a cell, `<.>` a cell that loses candidates, `[.]` a cell
/// of the pattern; the others show their digit or `.`. A legend follows.
fn marked_board(pm: &Candidates, s: &Step) -> String {
    let (n, k) = (pm.side(), pm.box_side());
    let sym = |d: u8| csp_sudoku::symbol(d).unwrap_or('?');
    let mut out = String::new();
    let rule = vec!["-".repeat(3 * k); k].join("+");
    for r in 0..n {
        if r > 0 && r % k == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        let mut row = String::new();
        for c in 0..n {
            if c > 0 && c % k == 0 {
                row.push('|');
            }
            let cell = r * n + c;
            let shown = match pm.value(cell) {
                0 => '.',
                d => sym(d),
            };
            let placed = s.placements.iter().find(|&&(x, _)| x == cell);
            let cell_text = if let Some(&(_, d)) = placed {
                format!("({})", sym(d))
            } else if s.eliminations.iter().any(|&(x, _)| x == cell) {
                format!("<{shown}>")
            } else if s.cells.contains(&cell) {
                format!("[{shown}]")
            } else {
                format!(" {shown} ")
            };
            row.push_str(&cell_text);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    let mut legend = Vec::new();
    if !s.placements.is_empty() {
        legend.push("(d) placed here");
    }
    if !s.eliminations.is_empty() {
        legend.push("<.> loses candidates");
    }
    if !s.cells.is_empty() {
        legend.push("[.] the pattern's cells");
    }
    out.push_str(&legend.join(", "));
    out
}

fn explain(
    pm: &Candidates,
    puzzle: usize,
    a: &HintArgs,
    checker: &Checker,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let n = pm.side();
    let (steps, end) = techniques::solve_steps(pm, checker)?;
    let r = techniques::rate(&steps, &end);
    let hardest = steps
        .iter()
        .max_by_key(|s| (s.technique.level(), s.technique.score()))
        .map_or("none", |s| s.technique.name());
    if a.mode == Mode::Rate {
        return if a.json {
            writeln!(
                out,
                "{{\"puzzle\": {puzzle}, \"level\": {}, \"score\": {}, \"steps\": {}, \"hardest\": {}}}",
                js(&r.level.to_string()),
                r.score,
                r.steps,
                js(hardest)
            )
        } else {
            writeln!(
                out,
                "{}: score {}, {} steps, hardest: {hardest}",
                r.level, r.score, r.steps
            )
        }
        .map_err(io_err);
    }
    let mut state = pm.clone();
    for (k, s) in steps.iter().enumerate() {
        if a.json {
            writeln!(out, "{}", step_json(puzzle, k + 1, &state, s)).map_err(io_err)?;
        } else {
            writeln!(out, "{}. {}", k + 1, s.sentence).map_err(io_err)?;
        }
        techniques::apply(&mut state, s);
    }
    if end == End::Solved {
        csp_sudoku::check_solution(&pm.grid(), &state.grid()).map_err(|e| {
            format!("internal error: puzzle {puzzle}: the steps end in a wrong grid: {e}")
        })?;
    }
    let (word, detail) = match &end {
        End::Solved => (
            "solved".to_string(),
            format!("Solved ({}, score {})", r.level, r.score),
        ),
        End::Stuck => {
            let (c, ds) = split(&state).unwrap_or((0, Vec::new()));
            ("search needed".to_string(), stuck(n, c, &ds))
        }
        End::Broken(b) => ("contradiction".to_string(), format!("Contradiction: {b}")),
    };
    if a.json {
        writeln!(
            out,
            "{{\"puzzle\": {puzzle}, \"end\": {}, \"level\": {}, \"score\": {}}}",
            js(&word),
            js(&r.level.to_string()),
            r.score
        )
    } else {
        writeln!(out, "{detail}")
    }
    .map_err(io_err)
}
