//! Nonograms: a worked example of the regular constraint.
//!
//! A nonogram is a grid to blacken. Each row and each column has a clue,
//! the lengths of its runs of black cells in order (`3 1`: a run of three,
//! at least one blank, a run of one). A clue is a regular language over
//! the cells `0` (blank) and `1` (black), so each line is one
//! [`regular`](csp_core::Model::regular) constraint over the automaton
//! [`Automaton::nonogram`] builds from the clue — and regular is domain
//! consistent, so each line is solved as far as it can be alone, the way a
//! person solves one line at a time.
//!
//! ```
//! use csp_nonogram::{parse, model, check, render};
//! use csp_core::Search;
//!
//! let p = parse("rows\n1\n3\n1\ncolumns\n1\n3\n1\n").unwrap(); // a plus sign
//! let (m, cells) = model(&p).unwrap();
//! let s = Search::new(&m).solve().unwrap().solution.unwrap();
//! let grid: Vec<bool> = cells.iter().map(|&x| s[x] == 1).collect();
//! check(&p, &grid).unwrap();
//! assert_eq!(render(&p, &grid), ".#.\n###\n.#.\n");
//! ```

use csp_core::constraint::Automaton;
use csp_core::{Domain, Literal, Model, ModelError, Outcome, Search, SearchOptions, VarId};

/// The largest number of rows or columns.
pub const MAX_SIDE: usize = 200;

/// A puzzle: the clue of every row and column (an empty clue: no black).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Row clues, top to bottom.
    pub rows: Vec<Vec<usize>>,
    /// Column clues, left to right.
    pub columns: Vec<Vec<usize>>,
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// Parses a puzzle: a line `rows`, one clue per line (numbers separated by
/// spaces or commas; `0` for a line with no black), a line `columns`, and
/// the column clues. Blank lines and lines starting with `#` are skipped.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let err = |line: usize, column: usize, message: String| ParseError {
        line,
        column,
        message,
    };
    let mut section: Option<bool> = None; // Some(true): rows
    let (mut rows, mut columns) = (Vec::new(), Vec::new());
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        last = no;
        let line = raw.trim_end();
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match line.trim() {
            "rows" => {
                if section.is_some() {
                    return Err(err(no, 1, "'rows' must come first, once".into()));
                }
                section = Some(true);
                continue;
            }
            "columns" => {
                if section != Some(true) {
                    return Err(err(no, 1, "'columns' must follow the row clues".into()));
                }
                section = Some(false);
                continue;
            }
            _ => {}
        }
        let Some(in_rows) = section else {
            return Err(err(no, 1, "expected 'rows' before the first clue".into()));
        };
        let mut clue = Vec::new();
        let mut col = 0;
        for tok in line.split([' ', ',', '\t']) {
            col += 1;
            if tok.is_empty() {
                continue;
            }
            let at = col;
            col += tok.len();
            match tok.parse::<usize>() {
                Ok(0) => {}
                Ok(v) if v <= MAX_SIDE => clue.push(v),
                _ => {
                    return Err(err(
                        no,
                        at,
                        format!("expected a run length from 0 to {MAX_SIDE}, found '{tok}'"),
                    ))
                }
            }
        }
        if in_rows {
            rows.push((no, clue))
        } else {
            columns.push((no, clue))
        }
    }
    if section != Some(false) {
        return Err(err(
            last.max(1),
            1,
            "expected a 'rows' section and a 'columns' section".into(),
        ));
    }
    for (what, lines, other) in [
        ("row", &rows, columns.len()),
        ("column", &columns, rows.len()),
    ] {
        if lines.is_empty() || lines.len() > MAX_SIDE {
            return Err(err(
                last.max(1),
                1,
                format!("{} {what}s: expected 1 to {MAX_SIDE}", lines.len()),
            ));
        }
        for (k, (no, c)) in lines.iter().enumerate() {
            let need = c.iter().sum::<usize>() + c.len().saturating_sub(1);
            if need > other {
                return Err(err(
                    *no,
                    1,
                    format!("{what} {} needs {need} cells, the grid has {other}", k + 1),
                ));
            }
        }
    }
    let strip = |v: Vec<(usize, Vec<usize>)>| v.into_iter().map(|(_, c)| c).collect();
    Ok(Puzzle {
        rows: strip(rows),
        columns: strip(columns),
    })
}

/// The model: one boolean per cell (row-major, 1 = black), one regular
/// constraint per row and per column.
pub fn model(p: &Puzzle) -> Result<(Model, Vec<VarId>), ModelError> {
    let (h, w) = (p.rows.len(), p.columns.len());
    let mut m = Model::new();
    let cells = m.new_vars(h * w, Domain::range(0, 1))?;
    for (r, clue) in p.rows.iter().enumerate() {
        let row: Vec<VarId> = (0..w).map(|c| cells[r * w + c]).collect();
        m.regular(&row, &Automaton::nonogram(clue))?;
    }
    for (c, clue) in p.columns.iter().enumerate() {
        let col: Vec<VarId> = (0..h).map(|r| cells[r * w + c]).collect();
        m.regular(&col, &Automaton::nonogram(clue))?;
    }
    Ok((m, cells))
}

/// The name of line `i` for people: rows first (`row 3 (2 1)`), then
/// columns (`column 5 (0)`).
pub fn line_name(p: &Puzzle, i: usize) -> String {
    let (kind, k, clue) = if i < p.rows.len() {
        ("row", i, &p.rows[i])
    } else {
        ("column", i - p.rows.len(), &p.columns[i - p.rows.len()])
    };
    let numbers: Vec<String> = if clue.is_empty() {
        vec!["0".to_string()]
    } else {
        clue.iter().map(|n| n.to_string()).collect()
    };
    format!("{kind} {} ({})", k + 1, numbers.join(" "))
}

/// The model for hints ([`csp_core::hints`]) over the lines `keep` (rows
/// first, then columns; all lines for `None`): the cells named `r1c1`…
/// (1 = black), one regular constraint per line, and each constraint's
/// name for people ([`line_name`]). A nonogram has no given cells: its
/// givens are its clues, so the list of facts is empty.
#[allow(clippy::type_complexity)]
pub fn hint_model_of(
    p: &Puzzle,
    keep: Option<&[bool]>,
) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    let (h, w) = (p.rows.len(), p.columns.len());
    let mut m = Model::new();
    let mut cells = Vec::with_capacity(h * w);
    for k in 0..h * w {
        let name = format!("r{}c{}", k / w + 1, k % w + 1);
        cells.push(m.new_var_named(&name, Domain::range(0, 1))?);
    }
    let mut labels = Vec::new();
    for i in 0..h + w {
        if keep.is_some_and(|k| !k[i]) {
            continue;
        }
        let (line, clue): (Vec<VarId>, &Vec<usize>) = if i < h {
            ((0..w).map(|c| cells[i * w + c]).collect(), &p.rows[i])
        } else {
            let c = i - h;
            ((0..h).map(|r| cells[r * w + c]).collect(), &p.columns[c])
        };
        m.regular(&line, &Automaton::nonogram(clue))?;
        labels.resize(m.num_constraints(), line_name(p, i));
    }
    Ok((m, Vec::new(), labels))
}

/// The model for hints over every line ([`hint_model_of`]).
#[allow(clippy::type_complexity)]
pub fn hint_model(p: &Puzzle) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    hint_model_of(p, None)
}

/// Do the lines `keep` have no common solution? `None` when a search of
/// `nodes` nodes cannot tell.
fn refuted(p: &Puzzle, keep: &[bool], nodes: u64) -> Option<bool> {
    let (m, _, _) = hint_model_of(p, Some(keep)).ok()?;
    let mut o = SearchOptions::default();
    o.limits.nodes = Some(nodes);
    let r = Search::new(&m).options(o).solve().ok()?;
    match r.outcome {
        Outcome::Unsatisfiable => Some(true),
        Outcome::Solved => Some(false),
        _ => None,
    }
}

/// Why a puzzle has no solution: a minimal set of lines (indices, rows
/// first, then columns: see [`line_name`]) whose clues cannot hold
/// together, found by deletion (each line left out in turn, kept out if
/// the rest still have no solution). `None` if the puzzle has a solution
/// or a search of `nodes` nodes cannot tell.
pub fn conflicting_lines(p: &Puzzle, nodes: u64) -> Option<Vec<usize>> {
    let n = p.rows.len() + p.columns.len();
    let mut keep = vec![true; n];
    if refuted(p, &keep, nodes)? {
        for i in 0..n {
            keep[i] = false;
            if refuted(p, &keep, nodes) != Some(true) {
                keep[i] = true;
            }
        }
        Some((0..n).filter(|&i| keep[i]).collect())
    } else {
        None
    }
}

/// The runs of black cells of a line.
fn runs(line: impl Iterator<Item = bool>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for b in line {
        if b {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    if run > 0 {
        out.push(run);
    }
    out
}

/// An independent check: every line's runs equal its clue.
pub fn check(p: &Puzzle, grid: &[bool]) -> Result<(), String> {
    let (h, w) = (p.rows.len(), p.columns.len());
    if grid.len() != h * w {
        return Err(format!("{} cells for a {h}x{w} grid", grid.len()));
    }
    for (r, clue) in p.rows.iter().enumerate() {
        if &runs((0..w).map(|c| grid[r * w + c])) != clue {
            return Err(format!("row {} does not match its clue", r + 1));
        }
    }
    for (c, clue) in p.columns.iter().enumerate() {
        if &runs((0..h).map(|r| grid[r * w + c])) != clue {
            return Err(format!("column {} does not match its clue", c + 1));
        }
    }
    Ok(())
}

/// The grid as text, `#` black and `.` blank.
pub fn render(p: &Puzzle, grid: &[bool]) -> String {
    let w = p.columns.len();
    let mut out = String::new();
    for row in grid.chunks(w) {
        out.extend(row.iter().map(|&b| if b { '#' } else { '.' }));
        out.push('\n');
    }
    out
}
