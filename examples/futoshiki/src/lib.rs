//! Futoshiki: a worked example of modelling with inequalities.
//!
//! An `n × n` grid takes the numbers `1..=n` once in every row and every
//! column (a Latin square); some cells are given, and some neighbours are
//! ordered by a `<` or `>` between them. The model is the rules, one line
//! each: all-different per row and column, `x.lt(y)` per sign, `x.eq(v)`
//! per given.
//!
//! ```
//! use csp_futoshiki::{parse, model, check, render};
//! use csp_core::Search;
//!
//! // `<`/`>` between cells of a row, `^`/`v` between cells of a column
//! // (the point is on the smaller side: `^` says the upper cell is less).
//! let text = "\
//! . . .<.
//!       v
//! . . . .
//!
//! .>. . .
//! ^
//! . . 1 .
//! ";
//! let puzzles = parse(text).unwrap();
//! let p = &puzzles[0];
//! let (m, cells) = model(p).unwrap();
//! let s = Search::new(&m).options(csp_futoshiki::options()).solve().unwrap().solution.unwrap();
//! let grid: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
//! check(p, &grid).unwrap();
//! print!("{}", render(p, &grid));
//! ```

use csp_core::{Domain, Literal, Model, ModelError, SearchOptions, VarId, VarOrder};

/// The largest order: one character per cell.
pub const MAX_ORDER: usize = 9;

/// An inequality between two cells (row-major indices): `less < greater`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Less {
    /// The smaller cell.
    pub less: usize,
    /// The greater cell.
    pub greater: usize,
}

/// A puzzle: order, givens (0 for blank, row-major) and inequalities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The order `n`.
    pub n: usize,
    /// `n²` cells, 0 where blank.
    pub givens: Vec<i32>,
    /// The inequalities.
    pub signs: Vec<Less>,
    /// The line the puzzle starts on in its file (1-based).
    pub line: usize,
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

fn err(line: usize, column: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        column,
        message: message.into(),
    }
}

/// Parses puzzles, one after another (blank lines and `#` comment lines
/// between them are skipped).
///
/// A puzzle of order `n` is `2n − 1` lines. Cell rows hold a digit or `.`
/// at every even column (0-based) and a space, `<` or `>` between cells;
/// the sign rows between them hold `^` (upper cell less), `v` (upper cell
/// greater) or a space under each cell, and may be blank. The first row's
/// length gives the order. Trailing spaces are ignored.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
    let mut puzzles = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.is_empty() || line.starts_with('#') {
            i += 1;
            continue;
        }
        let n = line.chars().count().div_ceil(2);
        let block: Vec<(usize, &str)> = (i..(i + 2 * n - 1).min(lines.len()))
            .map(|k| (k + 1, lines[k]))
            .collect();
        puzzles.push(parse_block(&block, lines.len())?);
        i += 2 * n - 1;
    }
    Ok(puzzles)
}

fn parse_block(lines: &[(usize, &str)], total: usize) -> Result<Puzzle, ParseError> {
    let (first_no, first) = lines[0];
    let width = first.trim_end().chars().count();
    let n = width.div_ceil(2);
    if n == 0 || n > MAX_ORDER || width % 2 == 0 {
        return Err(err(
            first_no,
            1,
            format!(
                "a row of {n} cells needs {} characters (order 1 to {MAX_ORDER}), found {width}",
                2 * n.max(1) - 1
            ),
        ));
    }
    if lines.len() != 2 * n - 1 {
        return Err(err(
            total + 1,
            1,
            format!(
                "the puzzle of order {n} starting on line {first_no} needs {} lines, the input ends after {}",
                2 * n - 1,
                lines.len()
            ),
        ));
    }
    let mut givens = vec![0; n * n];
    let mut signs = Vec::new();
    for (k, &(no, text)) in lines.iter().enumerate() {
        let chars: Vec<char> = text.trim_end().chars().collect();
        if chars.len() > 2 * n - 1 {
            return Err(err(no, 2 * n, "text past the last cell"));
        }
        let at = |c: usize| chars.get(c).copied().unwrap_or(' ');
        if k % 2 == 0 {
            let r = k / 2;
            for c in 0..n {
                let ch = at(2 * c);
                givens[r * n + c] = match ch {
                    '.' => 0,
                    '1'..='9' if (ch as usize - '0' as usize) <= n => ch as i32 - '0' as i32,
                    _ => {
                        return Err(err(
                            no,
                            2 * c + 1,
                            format!("expected a digit 1-{n} or '.', found '{ch}'"),
                        ))
                    }
                };
                if c + 1 < n {
                    let (a, b) = (r * n + c, r * n + c + 1);
                    match at(2 * c + 1) {
                        ' ' => {}
                        '<' => signs.push(Less {
                            less: a,
                            greater: b,
                        }),
                        '>' => signs.push(Less {
                            less: b,
                            greater: a,
                        }),
                        s => {
                            return Err(err(
                                no,
                                2 * c + 2,
                                format!("expected '<', '>' or a space between cells, found '{s}'"),
                            ))
                        }
                    }
                }
            }
        } else {
            let r = k / 2;
            for (col, &ch) in chars.iter().enumerate() {
                if col % 2 == 1 {
                    if ch != ' ' {
                        return Err(err(
                            no,
                            col + 1,
                            format!("expected a space between columns, found '{ch}'"),
                        ));
                    }
                    continue;
                }
                let (a, b) = (r * n + col / 2, (r + 1) * n + col / 2);
                match ch {
                    ' ' => {}
                    '^' => signs.push(Less {
                        less: a,
                        greater: b,
                    }),
                    'v' => signs.push(Less {
                        less: b,
                        greater: a,
                    }),
                    s => {
                        return Err(err(
                            no,
                            col + 1,
                            format!("expected '^', 'v' or a space under a cell, found '{s}'"),
                        ))
                    }
                }
            }
        }
    }
    Ok(Puzzle {
        n,
        givens,
        signs,
        line: first_no,
    })
}

/// The search the example uses: smallest domain first with forward checking.
pub fn options() -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::Mrv,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// The model: one variable per cell (row-major) over `1..=n`.
pub fn model(p: &Puzzle) -> Result<(Model, Vec<VarId>), ModelError> {
    let (mut m, cells) = rules(p, false)?;
    for (k, &v) in p.givens.iter().enumerate() {
        if v != 0 {
            m.post(cells[k].eq(v))?;
        }
    }
    Ok((m, cells))
}

/// The rules of the grid alone (no givens): rows and columns all
/// different, the inequalities; the cells named `r1c1`… when `named`.
fn rules(p: &Puzzle, named: bool) -> Result<(Model, Vec<VarId>), ModelError> {
    rules_labelled(p, named).map(|(m, cells, _)| (m, cells))
}

/// [`rules`], and each constraint's name for people (`row 2`, `column 3`,
/// `r1c2 < r1c3`).
#[allow(clippy::type_complexity)]
fn rules_labelled(p: &Puzzle, named: bool) -> Result<(Model, Vec<VarId>, Vec<String>), ModelError> {
    let n = p.n;
    let mut labels = Vec::new();
    let mut m = Model::new();
    let cells = if named {
        let mut cells = Vec::with_capacity(n * n);
        for k in 0..n * n {
            let name = format!("r{}c{}", k / n + 1, k % n + 1);
            cells.push(m.new_var_named(&name, Domain::range(1, n as i32))?);
        }
        cells
    } else {
        m.new_vars(n * n, Domain::range(1, n as i32))?
    };
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        m.all_different(&row)?;
        labels.resize(m.num_constraints(), format!("row {}", i + 1));
        m.all_different(&col)?;
        labels.resize(m.num_constraints(), format!("column {}", i + 1));
    }
    let name = |k: usize| format!("r{}c{}", k / n + 1, k % n + 1);
    for s in &p.signs {
        m.post(cells[s.less].lt(cells[s.greater]))?;
        labels.resize(
            m.num_constraints(),
            format!("{} < {}", name(s.less), name(s.greater)),
        );
    }
    Ok((m, cells, labels))
}

/// The model for hints ([`csp_core::hints`]): the rules with the cells
/// named `r1c1`…, and the givens as facts (`r1c1 = 3`) rather than
/// constraints, and each constraint's name for people (indexed by
/// constraint), so that a step reads "r2c3 ≠ 3 by column 3 from r1c3 = 3".
#[allow(clippy::type_complexity)]
pub fn hint_model(p: &Puzzle) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    let (m, cells, labels) = rules_labelled(p, true)?;
    let facts = p
        .givens
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(k, &v)| Literal::Eq(cells[k], v))
        .collect();
    Ok((m, facts, labels))
}

/// An independent check of a filled grid against the puzzle's rules.
pub fn check(p: &Puzzle, grid: &[i32]) -> Result<(), String> {
    let n = p.n;
    if grid.len() != n * n {
        return Err(format!("{} cells for order {n}", grid.len()));
    }
    for k in 0..n * n {
        let v = grid[k];
        if v < 1 || v > n as i32 {
            return Err(format!("cell {} holds {v}", k + 1));
        }
        if p.givens[k] != 0 && p.givens[k] != v {
            return Err(format!(
                "cell {} is given {} but holds {v}",
                k + 1,
                p.givens[k]
            ));
        }
        let (r, c) = (k / n, k % n);
        for j in 0..n {
            if j != c && grid[r * n + j] == v {
                return Err(format!("row {} repeats {v}", r + 1));
            }
            if j != r && grid[j * n + c] == v {
                return Err(format!("column {} repeats {v}", c + 1));
            }
        }
    }
    for s in &p.signs {
        if grid[s.less] >= grid[s.greater] {
            return Err(format!(
                "cells {} and {} break their sign",
                s.less + 1,
                s.greater + 1
            ));
        }
    }
    Ok(())
}

/// The grid in the input format, signs kept.
pub fn render(p: &Puzzle, grid: &[i32]) -> String {
    let n = p.n;
    let sign = |a: usize, b: usize| {
        p.signs.iter().find_map(|s| {
            if (s.less, s.greater) == (a, b) {
                Some(true)
            } else if (s.less, s.greater) == (b, a) {
                Some(false)
            } else {
                None
            }
        })
    };
    let mut out = String::new();
    for r in 0..n {
        let mut line = String::new();
        for c in 0..n {
            let v = grid[r * n + c];
            line.push(if v == 0 {
                '.'
            } else {
                char::from(b'0' + v as u8)
            });
            if c + 1 < n {
                line.push(match sign(r * n + c, r * n + c + 1) {
                    Some(true) => '<',
                    Some(false) => '>',
                    None => ' ',
                });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r + 1 < n {
            let mut line = String::new();
            for c in 0..n {
                line.push(match sign(r * n + c, (r + 1) * n + c) {
                    Some(true) => '^',
                    Some(false) => 'v',
                    None => ' ',
                });
                if c + 1 < n {
                    line.push(' ');
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}
