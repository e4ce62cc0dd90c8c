//! Minesweeper: a worked example of booleans, sums and reification.
//!
//! A Minesweeper board is a grid of cells, some of them mines. A revealed
//! cell is safe and shows how many of its (up to eight) neighbours are
//! mines. Given a partly revealed board, which hidden cells are certainly
//! mines, and which are certainly safe?
//!
//! The model has one boolean per cell (1 = mine) and one sum per revealed
//! number. A hidden cell is *certainly a mine* when no mine layout that
//! fits the numbers leaves it safe, and certainly safe the other way
//! round; [`deduce`] finds those cells with a handful of searches, asking
//! each time, through reified booleans, for a layout that differs from the
//! ones found so far.
//!
//! ```
//! use csp_minesweeper::{parse, deduce, options, render};
//!
//! // `?` hidden, `0`-`8` revealed, `*` a known mine, `.` known safe.
//! let board = parse("1??\n1??\n").unwrap();
//! let d = deduce(&board, &options()).unwrap();
//! // The two 1s see the same two hidden cells, so the third column's
//! // cells are free: undecided.
//! assert_eq!(render(&board, &d.cells), "1??\n1??\n");
//! // The first 1 has one mine below it, so the second 1 has none to its
//! // right: two safe cells, and two cells undecided.
//! let board = parse("11?\n???\n").unwrap();
//! let d = deduce(&board, &options()).unwrap();
//! assert_eq!(render(&board, &d.cells), "11.\n??.\n");
//! // A corner 1 whose only hidden neighbour is certainly a mine.
//! let board = parse("1?\n11\n").unwrap();
//! let d = deduce(&board, &options()).unwrap();
//! assert_eq!(render(&board, &d.cells), "1*\n11\n");
//! ```

use csp_core::expr::sum;
use csp_core::{
    Domain, Literal, Model, ModelError, Outcome, Search, SearchOptions, Statistics, VarId, VarOrder,
};

/// The largest number of rows or columns.
pub const MAX_SIDE: usize = 100;

/// One cell of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Hidden: a mine or not (`?`).
    Hidden,
    /// Hidden, but known to be safe (`.`).
    Safe,
    /// Revealed: safe, with this many mines among its neighbours (`0`-`8`).
    Shows(i32),
    /// Known to be a mine (`*`).
    Mine,
}

/// A board: its cells and, when known, the total number of mines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width × height` cells, row-major.
    pub cells: Vec<Cell>,
    /// The number of mines on the whole board, when given.
    pub mines: Option<i32>,
}

impl Board {
    /// The neighbours of cell `k` (row-major): the up to eight cells that
    /// share a side or a corner with it.
    pub fn neighbours(&self, k: usize) -> Vec<usize> {
        let (r, c) = (k / self.width, k % self.width);
        let mut out = Vec::with_capacity(8);
        for i in r.saturating_sub(1)..(r + 2).min(self.height) {
            for j in c.saturating_sub(1)..(c + 2).min(self.width) {
                if (i, j) != (r, c) {
                    out.push(i * self.width + j);
                }
            }
        }
        out
    }
}

/// A parse error at a line and column (1-based); `Display` gives
/// `line:column: message`.
pub use csp_text::TextError as ParseError;

/// Parses a board: one line per row, one character per cell (`?` hidden,
/// `.` hidden but known safe, `0`-`8` revealed, `*` a known mine), every
/// row as long as the first. An optional first line `mines N` gives the
/// total number of mines. Lines starting with `%` are comments; blank lines
/// and trailing spaces are ignored.
pub fn parse(text: &str) -> Result<Board, ParseError> {
    let mut mines = None;
    let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
    let mut mines_at = (0, 0);
    let mut last = 1;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        last = no;
        let line = raw.trim_end();
        if line.is_empty() || line.trim_start().starts_with('%') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("mines") {
            if !rows.is_empty() || mines.is_some() {
                return Err(ParseError::new(
                    no,
                    1,
                    "'mines N' must come once, before the board",
                ));
            }
            let n = rest.trim_start();
            let column = line.len() - n.len() + 1;
            mines_at = (no, column);
            mines = Some(
                n.parse::<i32>()
                    .ok()
                    .filter(|&v| v >= 0 && n.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| {
                        ParseError::new(
                            no,
                            column,
                            format!("expected the number of mines, found '{n}'"),
                        )
                    })?,
            );
            continue;
        }
        rows.push((no, line.chars().collect()));
    }
    let Some((_, first)) = rows.first() else {
        return Err(ParseError::new(last, 1, "no board found"));
    };
    let width = first.len();
    let height = rows.len();
    if width > MAX_SIDE || height > MAX_SIDE {
        let (no, _) = rows[rows.len().min(MAX_SIDE + 1) - 1];
        return Err(ParseError::new(
            no,
            1,
            format!("a board of {height} rows of {width} cells; at most {MAX_SIDE} of each"),
        ));
    }
    let mut cells = Vec::with_capacity(width * height);
    for (no, row) in &rows {
        if row.len() != width {
            return Err(ParseError::new(
                *no,
                row.len().min(width) + 1,
                format!(
                    "a row of {} cells; the first row (line {}) has {width}",
                    row.len(),
                    rows[0].0
                ),
            ));
        }
        for (c, &ch) in row.iter().enumerate() {
            cells.push(match ch {
                '?' => Cell::Hidden,
                '.' => Cell::Safe,
                '*' => Cell::Mine,
                '0'..='8' => Cell::Shows(i32::from(ch as u8 - b'0')),
                _ => {
                    return Err(ParseError::new(
                        *no,
                        c + 1,
                        format!("expected '?', '.', '*' or a digit 0-8, found '{ch}'"),
                    ))
                }
            });
        }
    }
    let board = Board {
        width,
        height,
        cells,
        mines,
    };
    for (k, cell) in board.cells.iter().enumerate() {
        let around = board.neighbours(k).len();
        if let Cell::Shows(n) = *cell {
            if n as usize > around {
                return Err(ParseError::new(
                    rows[k / width].0,
                    k % width + 1,
                    format!("this cell has {around} neighbours, it cannot show {n}"),
                ));
            }
        }
    }
    if let Some(n) = mines {
        if n as usize > width * height {
            return Err(ParseError::new(
                mines_at.0,
                mines_at.1,
                format!("{n} mines on a board of {} cells", width * height),
            ));
        }
    }
    Ok(board)
}

/// The search the example uses: forward checking, branching first on the
/// cells of the numbers that failed most (dom/wdeg). All domains have two
/// values, so smallest-domain-first would be input order, and a conflict
/// between two far-apart numbers would then be undone cell by cell.
pub fn options() -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::DomWdeg,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// The model: one boolean per cell (row-major), 1 for a mine.
pub fn model(b: &Board) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut m = Model::new();
    let mine = m.new_bools(b.width * b.height)?;
    for (k, cell) in b.cells.iter().enumerate() {
        match *cell {
            Cell::Shows(n) => {
                let around: Vec<VarId> = b.neighbours(k).into_iter().map(|j| mine[j]).collect();
                m.post(mine[k].eq(0))?;
                if around.is_empty() {
                    // A board of one cell: its clue counts nothing, so
                    // only 0 fits (a sum of no variables is refused).
                    if n != 0 {
                        m.post(mine[k].eq(1))?;
                    }
                } else {
                    m.post(sum(&around).eq(n))?;
                }
            }
            Cell::Safe => {
                m.post(mine[k].eq(0))?;
            }
            Cell::Mine => {
                m.post(mine[k].eq(1))?;
            }
            Cell::Hidden => {}
        }
    }
    if let Some(total) = b.mines {
        m.post(sum(&mine).eq(total))?;
    }
    Ok((m, mine))
}

/// The name of cell `k` (row-major) for people: `r2c4`.
pub fn cell_name(b: &Board, k: usize) -> String {
    format!("r{}c{}", k / b.width + 1, k % b.width + 1)
}

/// The model for hints ([`csp_core::hints`]), with every given a fact:
/// one 0/1 variable per unrevealed cell (named `r1c1`…, 1 for a mine),
/// one variable per revealed number (named after its cell, `0..=8`) equal
/// to the mines around it, and `mines` equal to the total when the board
/// gives it. The facts are the numbers (`r2c4 = 3`), the known mines and
/// safe cells, and the total; the constraints are named for people (`the
/// number at r2c4`, `the mine count`, indexed by constraint).
#[allow(clippy::type_complexity)]
pub fn hint_model(b: &Board) -> Result<(Model, Vec<Literal>, Vec<String>), ModelError> {
    let mut m = Model::new();
    let mut facts = Vec::new();
    let mut labels = Vec::new();
    let mut mine: Vec<Option<VarId>> = vec![None; b.cells.len()];
    for (k, cell) in b.cells.iter().enumerate() {
        if let Cell::Shows(_) = cell {
            continue;
        }
        let x = m.new_var_named(&cell_name(b, k), Domain::range(0, 1))?;
        mine[k] = Some(x);
        match cell {
            Cell::Mine => facts.push(Literal::Eq(x, 1)),
            Cell::Safe => facts.push(Literal::Eq(x, 0)),
            _ => {}
        }
    }
    for (k, cell) in b.cells.iter().enumerate() {
        let Cell::Shows(n) = *cell else { continue };
        let shown = m.new_var_named(&cell_name(b, k), Domain::range(0, 8))?;
        facts.push(Literal::Eq(shown, n));
        let around: Vec<VarId> = b
            .neighbours(k)
            .into_iter()
            .filter_map(|j| mine[j])
            .collect();
        if around.is_empty() {
            m.post(shown.eq(0))?;
        } else {
            m.post(sum(&around).eq(shown))?;
        }
        labels.resize(
            m.num_constraints(),
            format!("the number at {}", cell_name(b, k)),
        );
    }
    if let Some(total) = b.mines {
        let all: Vec<VarId> = mine.iter().flatten().copied().collect();
        let count = m.new_var_named("mines", Domain::range(0, all.len() as i32))?;
        facts.push(Literal::Eq(count, total));
        if all.is_empty() {
            m.post(count.eq(0))?;
        } else {
            m.post(sum(&all).eq(count))?;
        }
        labels.resize(m.num_constraints(), "the mine count".to_string());
    }
    Ok((m, facts, labels))
}

/// What [`deduce`] found.
#[derive(Debug, Clone)]
pub struct Deduction {
    /// Per cell: `Some(true)` certainly a mine, `Some(false)` certainly
    /// safe, `None` either (or not decided before a limit stopped a search).
    /// `None` for every cell when no layout fits the board.
    pub cells: Vec<Option<bool>>,
    /// Is there a mine layout that fits the board?
    pub consistent: bool,
    /// `LimitReached` when a limit stopped a search: then the cells still
    /// `None` were not decided, and `consistent` is only known when true.
    pub outcome: Outcome,
    /// The searches' statistics, added up.
    pub stats: Statistics,
    /// The number of searches.
    pub searches: usize,
}

/// Which cells are certainly mines or certainly safe, by search.
///
/// First any layout that fits the board: every cell takes the value it has
/// there, or the other one in some other layout. Then, while cells are
/// open (seen with one value only), one search for a layout where at least
/// one open cell differs from the first layout: each open cell gets a
/// boolean `flip ⇔ mine ≠ first value` (reification), and the flips must
/// add up to one or more. A layout found settles every flipped cell as
/// undecided; no layout proves every open cell certain. Each search
/// settles at least one cell, so there are at most `hidden + 2` searches,
/// and usually far fewer.
pub fn deduce(b: &Board, options: &SearchOptions) -> Result<Deduction, ModelError> {
    let (m, mine) = model(b)?;
    let r = Search::new(&m)
        .options(options.for_another_model())
        .solve()
        .expect("no decision variables: nothing to reject");
    let mut d = Deduction {
        cells: vec![None; b.cells.len()],
        consistent: r.solution.is_some(),
        outcome: r.outcome,
        stats: r.stats,
        searches: 1,
    };
    let Some(first) = r.solution else {
        return Ok(d);
    };
    let layout: Vec<i32> = mine.iter().map(|&x| first[x]).collect();
    for (k, cell) in b.cells.iter().enumerate() {
        d.cells[k] = match cell {
            Cell::Hidden => None,
            Cell::Mine => Some(true),
            Cell::Safe | Cell::Shows(_) => Some(false),
        };
    }
    let mut open: Vec<usize> = (0..b.cells.len())
        .filter(|&k| b.cells[k] == Cell::Hidden)
        .collect();
    while !open.is_empty() {
        let (mut m, mine) = model(b)?;
        let mut flips = Vec::with_capacity(open.len());
        for &k in &open {
            flips.push(m.reify(mine[k].ne(layout[k]))?);
        }
        m.post(sum(&flips).ge(1))?;
        let r = Search::new(&m)
            .options(options.for_another_model())
            .solve()
            .expect("no decision variables: nothing to reject");
        d.stats.merge(&r.stats);
        d.searches += 1;
        match r.solution {
            Some(s) => open.retain(|&k| s[mine[k]] == layout[k]),
            None if r.outcome.is_complete() => break,
            None => {
                d.outcome = r.outcome;
                return Ok(d);
            }
        }
    }
    for k in open {
        d.cells[k] = Some(layout[k] == 1);
    }
    Ok(d)
}

/// An independent check of a mine layout (row-major, `true` for a mine)
/// against the board: known cells keep their state, every number counts
/// its neighbouring mines, and the total is right when given.
pub fn check(b: &Board, mines: &[bool]) -> Result<(), String> {
    if mines.len() != b.width * b.height {
        return Err(format!(
            "{} cells for a {}x{} board",
            mines.len(),
            b.height,
            b.width
        ));
    }
    let (w, h) = (b.width as isize, b.height as isize);
    for (k, cell) in b.cells.iter().enumerate() {
        let (r, c) = ((k / b.width) as isize, (k % b.width) as isize);
        let mut around = 0;
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (i, j) = (r + dr, c + dc);
                if (dr, dc) != (0, 0) && (0..h).contains(&i) && (0..w).contains(&j) {
                    around += i32::from(mines[(i * w + j) as usize]);
                }
            }
        }
        let ok = match *cell {
            Cell::Hidden => true,
            Cell::Safe => !mines[k],
            Cell::Mine => mines[k],
            Cell::Shows(n) => !mines[k] && around == n,
        };
        if !ok {
            return Err(format!(
                "row {}, column {} does not fit the board",
                r + 1,
                c + 1
            ));
        }
    }
    if let Some(total) = b.mines {
        let n = mines.iter().filter(|&&x| x).count();
        if n != total as usize {
            return Err(format!("{n} mines, the board says {total}"));
        }
    }
    Ok(())
}

/// The board with what is known of each hidden cell: `*` a mine (known or
/// deduced), `.` safe, `?` undecided; revealed numbers as they are. The
/// output is a board [`parse`] reads (without the `mines` line).
pub fn render(b: &Board, known: &[Option<bool>]) -> String {
    let mut out = String::new();
    for r in 0..b.height {
        for c in 0..b.width {
            let k = r * b.width + c;
            out.push(match (b.cells[k], known.get(k).copied().flatten()) {
                (Cell::Shows(n), _) => char::from(b'0' + n as u8),
                (Cell::Mine, _) | (_, Some(true)) => '*',
                (Cell::Safe, _) | (_, Some(false)) => '.',
                (Cell::Hidden, None) => '?',
            });
        }
        out.push('\n');
    }
    out
}
