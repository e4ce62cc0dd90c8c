//! Kakuro: a worked example of sums over distinct digits.
//!
//! A Kakuro grid has black cells, clue cells and white cells. Each maximal
//! horizontal or vertical line of white cells (a *run*) starts after a clue
//! cell that gives its sum: the run's cells take digits `1..=9`, all
//! different, adding up to the clue. The model is the rules, two lines per
//! run: an all-different over the run's cells and a linear sum.
//!
//! ```
//! use csp_kakuro::{parse, model, check, render};
//! use csp_core::Search;
//!
//! // `#` black, `.` white, `D\A` a clue: down sum D below, across sum A to
//! // the right (either may be left out: `D\`, `\A`).
//! let text = "\
//! ##   4\\  3\\
//! \\3  .    .
//! \\4  .    .
//! ";
//! let p = &parse(text).unwrap()[0];
//! let (m, cells) = model(p).unwrap();
//! let s = Search::new(&m).solve().unwrap().solution.unwrap();
//! let digits: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
//! check(p, &digits).unwrap();
//! assert_eq!(digits, [1, 2, 3, 1]);
//! print!("{}", render(p, &digits));
//! ```

use csp_core::constraint::Consistency;
use csp_core::expr::sum;
use csp_core::{Domain, Literal, Model, ModelError, SearchOptions, VarId, VarOrder};

/// The largest clue: 1 + 2 + … + 9.
pub const MAX_SUM: i32 = 45;

/// One cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// A black cell without a clue (`#`).
    Black,
    /// A clue cell (`D\A`): the sum of the run below it and of the run to
    /// its right, when given.
    Clue {
        /// The down sum.
        down: Option<i32>,
        /// The across sum.
        across: Option<i32>,
    },
    /// A white cell: `0` when blank (`.`), else its given digit.
    White(i32),
}

impl Cell {
    /// The across (`true`) or down sum of a clue cell, if it has one.
    pub fn sum(self, across: bool) -> Option<i32> {
        match self {
            Cell::Clue { down, across: a } => {
                if across {
                    a
                } else {
                    down
                }
            }
            _ => None,
        }
    }

    /// Is it a white cell?
    pub fn is_white(self) -> bool {
        matches!(self, Cell::White(_))
    }
}

/// A run: white cells (indices into [`Puzzle::whites`]) that take
/// different digits adding up to `sum`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The clue.
    pub sum: i32,
    /// The run's cells, indices into [`Puzzle::whites`], in order.
    pub cells: Vec<usize>,
    /// Across (in a row) or down (in a column).
    pub across: bool,
}

/// A puzzle: the grid, its white cells and its runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width × height` cells, row-major.
    pub cells: Vec<Cell>,
    /// The grid index (row-major) of every white cell, in reading order.
    pub whites: Vec<usize>,
    /// Every run, across runs first.
    pub runs: Vec<Run>,
    /// The line the puzzle starts on in its file (1-based).
    pub line: usize,
}

impl Puzzle {
    /// The given digit of every white cell (0 for blank), in the order of
    /// [`Puzzle::whites`].
    pub fn givens(&self) -> Vec<i32> {
        self.whites
            .iter()
            .map(|&k| match self.cells[k] {
                Cell::White(d) => d,
                _ => 0,
            })
            .collect()
    }
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// A token of the input and where it stands.
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

/// Parses puzzles, one after another, separated by blank lines; lines
/// starting with `%` are comments.
///
/// A puzzle is one line per row of the grid, its cells separated by
/// spaces (any number, so columns may be aligned):
/// * `#` a black cell;
/// * `.` a white cell, or a digit `1`–`9` for a white cell already filled;
/// * `D\A` a clue cell: `D` the sum of the run of white cells below it,
///   `A` of the run to its right; either may be left out (`D\`, `\A`), not
///   both. Sums are 1 to 45.
///
/// Every row holds as many cells as the first. Two or more white cells in
/// a row (or column) must follow a clue with an across (down) sum; a clue's
/// sum must have a white cell after it, and a run holds at most 9 cells
/// with a sum that distinct digits can make.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut puzzles = Vec::new();
    let mut block: Vec<Vec<Token>> = Vec::new();
    let mut first = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('%') {
            continue;
        }
        let tokens = tokens(line, i + 1);
        if tokens.is_empty() {
            if !block.is_empty() {
                puzzles.push(parse_grid(&block, first)?);
                block.clear();
            }
            continue;
        }
        if block.is_empty() {
            first = i + 1;
        }
        block.push(tokens);
    }
    if !block.is_empty() {
        puzzles.push(parse_grid(&block, first)?);
    }
    Ok(puzzles)
}

/// The whitespace-separated tokens of a line, with their columns.
fn tokens(line: &str, no: usize) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    for (column, (byte, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((byte, column + 1)),
            (true, Some((b, c))) => {
                out.push(Token {
                    text: &line[b..byte],
                    line: no,
                    column: c,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((b, c)) = start {
        out.push(Token {
            text: &line[b..],
            line: no,
            column: c,
        });
    }
    out
}

/// A sum of a clue: 1 to 45.
fn clue_sum(part: &str, line: usize, column: usize) -> Result<Option<i32>, ParseError> {
    if part.is_empty() {
        return Ok(None);
    }
    match part.parse::<i32>() {
        Ok(v) if (1..=MAX_SUM).contains(&v) && part.bytes().all(|b| b.is_ascii_digit()) => {
            Ok(Some(v))
        }
        _ => Err(ParseError::new(
            line,
            column,
            format!("expected a sum from 1 to {MAX_SUM}, found '{part}'"),
        )),
    }
}

fn parse_cell(t: &Token) -> Result<Cell, ParseError> {
    if let Some((down, across)) = t.text.split_once('\\') {
        let across_column = t.column + down.chars().count() + 1;
        let cell = Cell::Clue {
            down: clue_sum(down, t.line, t.column)?,
            across: clue_sum(across, t.line, across_column)?,
        };
        if cell
            == (Cell::Clue {
                down: None,
                across: None,
            })
        {
            return Err(ParseError::new(
                t.line,
                t.column,
                "a clue needs a down sum, an across sum or both (use '#' for a plain black cell)",
            ));
        }
        return Ok(cell);
    }
    match t.text {
        "#" => Ok(Cell::Black),
        "." => Ok(Cell::White(0)),
        d if d.len() == 1 && matches!(d.as_bytes()[0], b'1'..=b'9') => {
            Ok(Cell::White(i32::from(d.as_bytes()[0] - b'0')))
        }
        other => Err(ParseError::new(
            t.line,
            t.column,
            format!("expected '#', '.', a digit 1-9 or a clue such as 12\\7, found '{other}'"),
        )),
    }
}

fn parse_grid(rows: &[Vec<Token>], first: usize) -> Result<Puzzle, ParseError> {
    let width = rows[0].len();
    let height = rows.len();
    let mut cells = Vec::with_capacity(width * height);
    for row in rows {
        if row.len() != width {
            let t = &row[row.len().min(width + 1) - 1];
            let column = if row.len() > width {
                t.column
            } else {
                t.column + t.text.chars().count()
            };
            return Err(ParseError::new(
                t.line,
                column,
                format!(
                    "a row of {} cells; the grid's first row (line {first}) has {width}",
                    row.len()
                ),
            ));
        }
        for t in row {
            cells.push(parse_cell(t)?);
        }
    }
    let mut whites = Vec::new();
    let mut index = vec![usize::MAX; cells.len()];
    for (k, c) in cells.iter().enumerate() {
        if let Cell::White(_) = c {
            index[k] = whites.len();
            whites.push(k);
        }
    }
    let token = |k: usize| &rows[k / width][k % width];
    let mut runs = Vec::new();
    for across in [true, false] {
        // The lines of the grid in this direction: (first cell, step, length).
        let lines: Vec<(usize, usize, usize)> = if across {
            (0..height).map(|r| (r * width, 1, width)).collect()
        } else {
            (0..width).map(|c| (c, width, height)).collect()
        };
        for (start, step, len) in lines {
            let mut i = 0;
            while i < len {
                let k = start + i * step;
                let sum = cells[k].sum(across);
                // The white cells from i + 1 on (when k is a clue) or from i.
                let from = if cells[k].is_white() { i } else { i + 1 };
                let mut to = from;
                while to < len && cells[start + to * step].is_white() {
                    to += 1;
                }
                let run: Vec<usize> = (from..to).map(|j| index[start + j * step]).collect();
                let word = if across { "an across" } else { "a down" };
                match sum {
                    Some(s) => {
                        let t = token(k);
                        let column = if across {
                            t.column + t.text.find('\\').map_or(0, |b| b + 1)
                        } else {
                            t.column
                        };
                        check_run(s, run.len(), word, t.line, column)?;
                        runs.push(Run {
                            sum: s,
                            cells: run,
                            across,
                        });
                    }
                    None if run.len() >= 2 => {
                        let t = token(start + from * step);
                        return Err(ParseError::new(
                            t.line,
                            t.column,
                            format!(
                                "{} white cells {}: a run needs a clue with {word} sum before it",
                                run.len(),
                                if across { "in a row" } else { "in a column" }
                            ),
                        ));
                    }
                    None => {}
                }
                i = to.max(i + 1);
            }
        }
    }
    Ok(Puzzle {
        width,
        height,
        cells,
        whites,
        runs,
        line: first,
    })
}

/// The least and greatest sum of `n` distinct digits.
pub fn sum_range(n: usize) -> (i32, i32) {
    let n = n.min(9) as i32;
    (n * (n + 1) / 2, n * (19 - n) / 2)
}

fn check_run(sum: i32, n: usize, word: &str, line: usize, column: usize) -> Result<(), ParseError> {
    let fail = |message: String| Err(ParseError::new(line, column, message));
    if n == 0 {
        return fail(format!("{word} sum needs a white cell after it"));
    }
    if n > 9 {
        return fail(format!(
            "a run of {n} cells cannot hold distinct digits 1-9"
        ));
    }
    let (lo, hi) = sum_range(n);
    if n == 1 && sum > hi {
        return fail(format!("one cell holds a digit from 1 to 9, not {sum}"));
    }
    if !(lo..=hi).contains(&sum) {
        return fail(format!(
            "{n} distinct digits add up to {lo} to {hi}, not {sum}"
        ));
    }
    Ok(())
}

/// The search the example uses: smallest domain first, forward checking.
pub fn options() -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::Mrv,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// The all-different strength [`model`] uses.
pub const DEFAULT_STRENGTH: Consistency = Consistency::Value;

/// [`model_with`] at the [`DEFAULT_STRENGTH`].
pub fn model(p: &Puzzle) -> Result<(Model, Vec<VarId>), ModelError> {
    model_with(p, DEFAULT_STRENGTH)
}

/// The model: one variable per white cell over `1..=9` (in the order of
/// [`Puzzle::whites`]); per run, its cells all different, propagated at
/// `strength`, and their sum equal to the clue.
pub fn model_with(p: &Puzzle, strength: Consistency) -> Result<(Model, Vec<VarId>), ModelError> {
    let (mut m, cells) = rules(p, strength, false)?;
    for (i, d) in p.givens().into_iter().enumerate() {
        if d != 0 {
            m.post(cells[i].eq(d))?;
        }
    }
    Ok((m, cells))
}

/// The runs alone (no givens); the white cells named `r1c2`… (by their
/// place in the grid) when `named`.
fn rules(
    p: &Puzzle,
    strength: Consistency,
    named: bool,
) -> Result<(Model, Vec<VarId>), ModelError> {
    rules_labelled(p, strength, named).map(|(m, cells, _)| (m, cells))
}

/// [`rules`], and each constraint's name for people (`the run across
/// from r2c2 (sum 4)`, `the run down from r1c3 (different digits)`).
#[allow(clippy::type_complexity)]
fn rules_labelled(
    p: &Puzzle,
    strength: Consistency,
    named: bool,
) -> Result<(Model, Vec<VarId>, Vec<String>), ModelError> {
    let mut labels = Vec::new();
    let mut m = Model::new();
    let cells = if named {
        let mut cells = Vec::with_capacity(p.whites.len());
        for &k in &p.whites {
            let name = format!("r{}c{}", k / p.width + 1, k % p.width + 1);
            cells.push(m.new_var_named(&name, Domain::range(1, 9))?);
        }
        cells
    } else {
        m.new_vars(p.whites.len(), Domain::range(1, 9))?
    };
    for run in &p.runs {
        let vars: Vec<VarId> = run.cells.iter().map(|&i| cells[i]).collect();
        let k = p.whites[run.cells[0]];
        let run_name = format!(
            "the run {} from r{}c{}",
            if run.across { "across" } else { "down" },
            k / p.width + 1,
            k % p.width + 1
        );
        m.all_different_with(&vars, strength)?;
        labels.resize(
            m.num_constraints(),
            format!("{run_name} (different digits)"),
        );
        m.post(sum(&vars).eq(run.sum))?;
        labels.resize(m.num_constraints(), format!("{run_name} (sum {})", run.sum));
    }
    Ok((m, cells, labels))
}

/// The model for hints ([`csp_core::hints`]): the runs with the white
/// cells named `r1c2`… (row and column in the grid), and the givens as
/// facts rather than constraints; and each constraint's name for people
/// (`the run across from r2c2 (sum 4)`, indexed by constraint).
#[allow(clippy::type_complexity)]
pub fn hint_model(p: &Puzzle) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    let (m, cells, labels) = rules_labelled(p, DEFAULT_STRENGTH, true)?;
    let facts = p
        .givens()
        .into_iter()
        .enumerate()
        .filter(|&(_, d)| d != 0)
        .map(|(i, d)| Literal::Eq(cells[i], d))
        .collect();
    Ok((m, facts, labels))
}

/// An independent check of the digits of the white cells (in the order of
/// [`Puzzle::whites`]) against the grid: every clue is recomputed by
/// walking the grid from the clue cell, not from [`Puzzle::runs`].
pub fn check(p: &Puzzle, digits: &[i32]) -> Result<(), String> {
    if digits.len() != p.whites.len() {
        return Err(format!(
            "{} digits for {} white cells",
            digits.len(),
            p.whites.len()
        ));
    }
    let mut grid = vec![0; p.cells.len()];
    for (&k, &d) in p.whites.iter().zip(digits) {
        if !(1..=9).contains(&d) {
            return Err(format!("cell {} holds {d}", k + 1));
        }
        if let Cell::White(g) = p.cells[k] {
            if g != 0 && g != d {
                return Err(format!("cell {} is given {g} but holds {d}", k + 1));
            }
        }
        grid[k] = d;
    }
    let (w, h) = (p.width, p.height);
    for (k, cell) in p.cells.iter().enumerate() {
        let Cell::Clue { down, across } = *cell else {
            continue;
        };
        let (r, c) = (k / w, k % w);
        let right: Vec<usize> = (c + 1..w).map(|j| r * w + j).collect();
        let below: Vec<usize> = (r + 1..h).map(|i| i * w + c).collect();
        for (clue, after, word) in [(across, right, "across"), (down, below, "down")] {
            let Some(want) = clue else { continue };
            let digits: Vec<i32> = after
                .into_iter()
                .take_while(|&j| grid[j] != 0)
                .map(|j| grid[j])
                .collect();
            let got: i32 = digits.iter().sum();
            if got != want {
                return Err(format!(
                    "the {word} run after cell {} adds up to {got}, not {want}",
                    k + 1
                ));
            }
            let mut seen = [false; 10];
            for &d in &digits {
                if std::mem::replace(&mut seen[d as usize], true) {
                    return Err(format!("the {word} run after cell {} repeats {d}", k + 1));
                }
            }
        }
    }
    Ok(())
}

/// The grid in the input format, the white cells holding `digits` (0 for
/// `.`), in columns aligned with spaces.
pub fn render(p: &Puzzle, digits: &[i32]) -> String {
    let mut text: Vec<String> = p
        .cells
        .iter()
        .map(|c| match *c {
            Cell::Black => "#".to_string(),
            Cell::White(_) => ".".to_string(),
            Cell::Clue { down, across } => {
                let s = |v: Option<i32>| v.map_or(String::new(), |v| v.to_string());
                format!("{}\\{}", s(down), s(across))
            }
        })
        .collect();
    for (&k, &d) in p.whites.iter().zip(digits) {
        if (1..=9).contains(&d) {
            text[k] = d.to_string();
        }
    }
    let widths: Vec<usize> = (0..p.width)
        .map(|c| {
            (0..p.height)
                .map(|r| text[r * p.width + c].len())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let mut out = String::new();
    for r in 0..p.height {
        let mut line = String::new();
        for (c, width) in widths.iter().enumerate() {
            line.push_str(&format!("{:width$} ", text[r * p.width + c]));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
