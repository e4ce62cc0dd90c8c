//! Pencil marks: a grid of placed digits and, in every empty cell, the
//! candidates still open; and HoDoKu's library line format.
//!
//! ```
//! use csp_sudoku::pencil::Candidates;
//! use csp_sudoku::Grid;
//! let g: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let pm = Candidates::from_grid(&g);
//! assert_eq!(pm.digits(1), vec![1, 6, 7, 9]); // r1c2: not 2 (r4c2), 3 (r2c2), 4, 5, 8 (row 1)
//! assert_eq!(pm.value(0), 4);
//! ```

use std::fmt;

use crate::Grid;

/// A house (unit): a row, a column or a box, 0-based inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum House {
    /// A row.
    Row(usize),
    /// A column.
    Col(usize),
    /// A box, numbered row-major.
    Box(usize),
}

impl House {
    /// The position of the house among the model's units: rows, then
    /// columns, then boxes.
    pub fn index(self, n: usize) -> usize {
        match self {
            House::Row(i) => i,
            House::Col(i) => n + i,
            House::Box(i) => 2 * n + i,
        }
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(i) => write!(f, "row {}", i + 1),
            House::Col(i) => write!(f, "column {}", i + 1),
            House::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// A cell's name in HoDoKu's notation, `r4c6` (1-based), from its index.
pub fn cell_name(n: usize, cell: usize) -> String {
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

/// A pencil-mark state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    k: usize,
    n: usize,
    value: Vec<u8>,
    given: Vec<bool>,
    cand: Vec<u32>,
    /// The cells of each house (shared: the grid's shape, not its state).
    houses: std::sync::Arc<Vec<Vec<usize>>>,
}

/// Bit of digit `d` in a candidate mask.
#[inline]
pub fn bit(d: u8) -> u32 {
    1 << d
}

/// The digits of a mask, ascending.
pub fn digits_of(mask: u32) -> Vec<u8> {
    (1..=25u8).filter(|&d| mask & bit(d) != 0).collect()
}

impl Candidates {
    /// The pencil marks of `grid`: its digits placed (as givens), and in
    /// every empty cell the digits none of its peers holds.
    pub fn from_grid(grid: &Grid) -> Candidates {
        let mut c = Candidates::empty(grid.box_side());
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                c.value[i] = v;
                c.given[i] = true;
            }
        }
        c.recompute();
        c
    }

    /// An empty grid of box side `k`: every candidate open.
    fn empty(k: usize) -> Candidates {
        let n = k * k;
        let all = ((1u64 << (n + 1)) - 2) as u32;
        let mut houses = Vec::with_capacity(3 * n);
        for r in 0..n {
            houses.push((0..n).map(|c| r * n + c).collect());
        }
        for c in 0..n {
            houses.push((0..n).map(|r| r * n + c).collect());
        }
        for b in 0..n {
            let (r0, c0) = (b / k * k, b % k * k);
            houses.push((0..n).map(|i| (r0 + i / k) * n + c0 + i % k).collect());
        }
        Candidates {
            k,
            n,
            value: vec![0; n * n],
            given: vec![false; n * n],
            cand: vec![all; n * n],
            houses: std::sync::Arc::new(houses),
        }
    }

    /// Sets every empty cell's candidates to the digits its peers lack.
    fn recompute(&mut self) {
        let all = ((1u64 << (self.n + 1)) - 2) as u32;
        for i in 0..self.n * self.n {
            if self.value[i] != 0 {
                self.cand[i] = 0;
                continue;
            }
            let mut m = all;
            for h in self.houses_of(i) {
                for &j in &self.houses[h.index(self.n)] {
                    if self.value[j] != 0 {
                        m &= !bit(self.value[j]);
                    }
                }
            }
            self.cand[i] = m;
        }
    }

    /// The side `n` of the grid.
    pub fn side(&self) -> usize {
        self.n
    }

    /// The side `k` of a box.
    pub fn box_side(&self) -> usize {
        self.k
    }

    /// The digit placed in `cell` (row-major index), 0 if empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// Was `cell`'s digit a given (not placed later)?
    pub fn is_given(&self, cell: usize) -> bool {
        self.given[cell]
    }

    /// The candidate mask of `cell` (bit `d` for digit `d`; 0 when placed).
    pub fn mask(&self, cell: usize) -> u32 {
        self.cand[cell]
    }

    /// The candidates of `cell`, ascending.
    pub fn digits(&self, cell: usize) -> Vec<u8> {
        digits_of(self.cand[cell])
    }

    /// Is `d` a candidate of `cell`?
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cand[cell] & bit(d) != 0
    }

    /// The cells of house `h`.
    pub fn cells(&self, h: House) -> &[usize] {
        &self.houses[h.index(self.n)]
    }

    /// Every house: rows, columns, boxes.
    pub fn houses(&self) -> Vec<House> {
        let n = self.n;
        (0..n)
            .map(House::Row)
            .chain((0..n).map(House::Col))
            .chain((0..n).map(House::Box))
            .collect()
    }

    /// The three houses of `cell`: its row, column and box.
    pub fn houses_of(&self, cell: usize) -> [House; 3] {
        let (r, c) = (cell / self.n, cell % self.n);
        [
            House::Row(r),
            House::Col(c),
            House::Box(r / self.k * self.k + c / self.k),
        ]
    }

    /// A house both cells are in (row, then column, then box), if any.
    pub fn common_house(&self, a: usize, b: usize) -> Option<House> {
        let (ha, hb) = (self.houses_of(a), self.houses_of(b));
        (0..3).find(|&i| ha[i] == hb[i]).map(|i| ha[i])
    }

    /// Do two different cells share a house?
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b && self.common_house(a, b).is_some()
    }

    /// The cells of house `h` that still have candidate `d`.
    pub fn cells_with(&self, h: House, d: u8) -> Vec<usize> {
        self.cells(h)
            .iter()
            .copied()
            .filter(|&c| self.has(c, d))
            .collect()
    }

    /// The cells of house `h` with no digit placed yet.
    pub fn open_cells(&self, h: House) -> Vec<usize> {
        self.cells(h)
            .iter()
            .copied()
            .filter(|&c| self.value(c) == 0)
            .collect()
    }

    /// Places `d` in `cell` and removes it from the peers' candidates.
    pub fn place(&mut self, cell: usize, d: u8) {
        self.value[cell] = d;
        self.cand[cell] = 0;
        for h in self.houses_of(cell) {
            for i in 0..self.n {
                let j = self.houses[h.index(self.n)][i];
                self.cand[j] &= !bit(d);
            }
        }
    }

    /// Removes candidate `d` from `cell`.
    pub fn eliminate(&mut self, cell: usize, d: u8) {
        self.cand[cell] &= !bit(d);
    }

    /// The placed digits as a [`Grid`].
    pub fn grid(&self) -> Grid {
        Grid::new(self.k, self.value.clone()).expect("digits in range")
    }

    /// Is every cell placed?
    pub fn is_solved(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }

    /// An empty cell without candidates, or two equal placed digits in a
    /// house: the state cannot be completed. `None` when neither is seen.
    pub fn broken(&self) -> Option<String> {
        for i in 0..self.n * self.n {
            if self.value[i] == 0 && self.cand[i] == 0 {
                return Some(format!("{} has no candidate left", cell_name(self.n, i)));
            }
        }
        None
    }

    /// Reads a HoDoKu library line (see [`LibraryCase`]); `line` is its line
    /// number, for errors.
    pub fn from_library_line(line: usize, text: &str) -> Result<LibraryCase, LibraryError> {
        LibraryCase::parse(line, text)
    }
}

impl fmt::Display for Candidates {
    /// The placed digits as one line (`.` for empty cells).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &v in &self.value {
            match crate::symbol(v) {
                Some(s) => write!(f, "{s}")?,
                None => write!(f, ".")?,
            }
        }
        Ok(())
    }
}

/// One case of HoDoKu's regression library:
/// `:<technique>:<candidates>:<givens>:<deleted candidates>:<eliminations>:<placements>:<extra>`,
/// givens with `+` before digits placed later, candidates as
/// `<digit><row><col>` separated by blanks.
#[derive(Clone, Debug)]
pub struct LibraryCase {
    /// The line number in the file (1-based).
    pub line: usize,
    /// The technique's code without the variant (`0300`).
    pub code: String,
    /// The variant after the dash, if any (`1`, or `x` for a fail case).
    pub variant: Option<String>,
    /// The digits of the `<candidates>` field.
    pub digits: Vec<u8>,
    /// The pencil-mark state.
    pub state: Candidates,
    /// The eliminations expected, `(cell, digit)`.
    pub eliminations: Vec<(usize, u8)>,
    /// The placements expected, `(cell, digit)`.
    pub placements: Vec<(usize, u8)>,
}

impl LibraryCase {
    /// A fail case: the technique must not be found.
    pub fn is_fail_case(&self) -> bool {
        self.variant.as_deref() == Some("x")
    }

    /// Parses one library line.
    ///
    /// ```
    /// use csp_sudoku::pencil::LibraryCase;
    /// let l = ":0000:1:+6+3+42+8+9...8+7531+6+2+9+42+91+7+5+4+6+38+349+16+58+7+2+5+8+79+42..+6+1+62+83+754+97+5+8+4+2+39+61+9.+6+5784+23+4+2+3+6+91...:::182:";
    /// let case = LibraryCase::parse(3, l).unwrap();
    /// assert_eq!(case.code, "0000");
    /// assert_eq!(case.placements, vec![(7 * 9 + 1, 1)]); // 1 in r8c2
    /// assert!(LibraryCase::parse(4, ":0000:1:123:::").is_err());
    /// ```
    pub fn parse(line: usize, text: &str) -> Result<LibraryCase, LibraryError> {
        let err = |field: &'static str, message: String| LibraryError {
            line,
            field,
            message,
        };
        let text = text.trim_end();
        let Some(rest) = text.strip_prefix(':') else {
            return Err(err("line", "a library line starts with ':'".into()));
        };
        let f: Vec<&str> = rest.split(':').collect();
        if f.len() < 6 {
            return Err(err(
                "line",
                format!("{} fields, expected at least 6 separated by ':'", f.len()),
            ));
        }
        let (code, variant) = match f[0].split_once('-') {
            Some((c, v)) => (c.to_string(), Some(v.to_string())),
            None => (f[0].to_string(), None),
        };
        if code.is_empty() || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(err(
                "technique",
                format!("'{}' is not a technique code", f[0]),
            ));
        }
        let mut digits = Vec::new();
        for ch in f[1].chars() {
            match ch.to_digit(10) {
                Some(d @ 1..=9) => digits.push(d as u8),
                _ => return Err(err("candidates", format!("'{ch}' is not a digit 1-9"))),
            }
        }
        // Givens: 81 cells, '+' before a placed (not given) digit.
        let mut values = Vec::with_capacity(81);
        let mut given = Vec::with_capacity(81);
        let mut plus = false;
        for (i, ch) in f[2].chars().enumerate() {
            match ch {
                '+' if !plus => plus = true,
                '1'..='9' => {
                    values.push(ch as u8 - b'0');
                    given.push(!plus);
                    plus = false;
                }
                '.' | '0' if !plus => {
                    values.push(0);
                    given.push(false);
                }
                _ => {
                    return Err(err(
                        "givens",
                        format!("unexpected '{ch}' at character {}", i + 1),
                    ))
                }
            }
        }
        if values.len() != 81 || plus {
            return Err(err(
                "givens",
                format!("{} cells, expected 81", values.len()),
            ));
        }
        let grid = Grid::new(3, values.clone()).map_err(|e| err("givens", e.to_string()))?;
        if let Some(c) = grid.first_conflict() {
            return Err(err(
                "givens",
                format!("two {}s in one {:?}", c.value, c.unit),
            ));
        }
        let mut state = Candidates::from_grid(&grid);
        state.given = given;
        for (cell, d) in cands(f[3]).map_err(|m| err("deleted candidates", m))? {
            state.eliminate(cell, d);
        }
        let eliminations = cands(f[4]).map_err(|m| err("eliminations", m))?;
        let placements = cands(f[5]).map_err(|m| err("placements", m))?;
        Ok(LibraryCase {
            line,
            code,
            variant,
            digits,
            state,
            eliminations,
            placements,
        })
    }
}

/// `<digit><row><col>` items separated by blanks.
fn cands(s: &str) -> Result<Vec<(usize, u8)>, String> {
    let mut out = Vec::new();
    for item in s.split_whitespace() {
        let b = item.as_bytes();
        let ok = b.len() == 3 && b.iter().all(|c| (b'1'..=b'9').contains(c));
        if !ok {
            return Err(format!("'{item}' is not <digit><row><col> with each 1-9"));
        }
        let (d, r, c) = (b[0] - b'0', (b[1] - b'1') as usize, (b[2] - b'1') as usize);
        out.push((r * 9 + c, d));
    }
    Ok(out)
}

/// A malformed library line: its number, the field and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryError {
    /// The line number (1-based).
    pub line: usize,
    /// The field: `line`, `technique`, `candidates`, `givens`, `deleted
    /// candidates`, `eliminations` or `placements`.
    pub field: &'static str,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for LibraryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.field, self.message)
    }
}

impl std::error::Error for LibraryError {}

/// One puzzle of an input file, as [`read_inputs`] finds it.
#[derive(Clone, Debug)]
pub enum Input {
    /// A grid of givens.
    Grid(crate::Grid),
    /// A HoDoKu library line: a pencil-mark state.
    Library(Box<LibraryCase>),
    /// A pencil-mark grid: nine rows of nine cells, each cell its
    /// candidates (`1239`), a single digit for a placed one.
    Marks(Candidates),
}

/// Is `t` a border line of a pencil-mark grid (`.-----.-----.`,
/// `:-----+-----:`, `'-----'-----'`)? It has a `-`, and nothing but
/// border characters.
fn marks_border(t: &str) -> bool {
    t.contains('-')
        && t.chars()
            .all(|c| matches!(c, '.' | '-' | ':' | '+' | '\'' | '|' | '=' | ' '))
}

/// The cells of a pencil-mark row: nine groups of digits 1-9 between
/// blanks, `|` and `:`; `None` for any other line.
fn marks_row(t: &str) -> Option<Vec<u32>> {
    let cells: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == '|' || c == ':')
        .filter(|w| !w.is_empty())
        .collect();
    if cells.len() != 9
        || !cells
            .iter()
            .all(|w| w.bytes().all(|b| (b'1'..=b'9').contains(&b)))
    {
        return None;
    }
    Some(
        cells
            .iter()
            .map(|w| w.bytes().fold(0, |m, b| m | bit(b - b'0')))
            .collect(),
    )
}

/// The state a pencil-mark grid's 81 masks describe: a cell of one digit
/// is placed, the others keep exactly the digits listed (and lose any a
/// placed peer holds).
fn marks_state(first: usize, masks: &[u32]) -> Result<Candidates, String> {
    let values: Vec<u8> = masks
        .iter()
        .map(|&m| {
            if m.count_ones() == 1 {
                m.trailing_zeros() as u8
            } else {
                0
            }
        })
        .collect();
    let grid = Grid::new(3, values).map_err(|e| format!("line {first}: {e}"))?;
    let mut state = Candidates::from_grid(&grid);
    for (cell, &m) in masks.iter().enumerate() {
        if m.count_ones() > 1 {
            for d in digits_of(state.mask(cell) & !m) {
                state.eliminate(cell, d);
            }
        }
    }
    Ok(state)
}

/// Is `c` a separator of a grid drawn over several lines?
fn separator(c: char) -> bool {
    matches!(c, '|' | '+' | '-' | ' ' | '\t')
}

/// Is `c` a cell of a grid drawn over several lines?
fn cell_char(c: char) -> bool {
    matches!(c, '1'..='9' | '.' | '0' | '_')
}

/// The puzzles of `text`, each with the number of its (first) line: lines
/// of 81, 256 or 625 characters (see [`crate::parse::parse_line`]), HoDoKu
/// library lines (starting with `:`), 9×9 grids drawn over several
/// lines — nine lines of nine cells with blanks, `|`, `+` and `-` as
/// separators and `.`, `0` or `_` for an empty cell, as `csp sudoku
/// --format grid` prints them — and pencil-mark grids ([`Input::Marks`]):
/// nine rows of nine cells written as their candidates (`1239`; one digit
/// for a placed cell) between blanks, `|` or `:`, as HoDoKu and most
/// Sudoku programs print them, with border lines of `.`, `-`, `:`, `+`
/// and `'`. `#` lines and blank lines are skipped; a blank line inside a
/// drawn grid is an error.
///
/// ```
/// use csp_sudoku::pencil::{read_inputs, Input};
/// let drawn = "\
/// +-------+-------+-------+
/// | 4 . . | . . . | 8 . 5 |
/// | . 3 . | . . . | . . . |
/// | . . . | 7 . . | . . . |
/// +-------+-------+-------+
/// | . 2 . | . . . | . 6 . |
/// | . . . | . 8 . | 4 . . |
/// | . . . | . 1 . | . . . |
/// +-------+-------+-------+
/// | . . . | 6 . 3 | . 7 . |
/// | 5 . . | 2 . . | . . . |
/// | 1 . 4 | . . . | . . . |
/// +-------+-------+-------+
/// ";
/// let inputs = read_inputs(drawn);
/// assert_eq!(inputs.len(), 1);
/// let (line, Ok(Input::Grid(g))) = &inputs[0] else { panic!() };
/// assert_eq!((*line, g.givens()), (1, 17));
/// assert!(read_inputs("4 . . | . . .\n\n").first().unwrap().1.is_err());
///
/// // The same puzzle's pencil marks after its first step (r6c2 = 4), as
/// // HoDoKu prints them: every candidate no placed peer rules out.
/// let marks = "\
/// .--------------------------.--------------------------.--------------------------.
/// | 4       1679    12679    | 139     2369    1269     | 8       1239    5        |
/// | 26789   3       1256789  | 14589   24569   1245689  | 12679   1249    124679   |
/// | 2689    15689   125689   | 7       234569  1245689  | 12369   12349   123469   |
/// :--------------------------+--------------------------+--------------------------:
/// | 3789    2       135789   | 3459    34579   4579     | 13579   6       13789    |
/// | 3679    15679   135679   | 359     8       25679    | 4       12359   12379    |
/// | 36789   4       356789   | 359     1       25679    | 23579   23589   23789    |
/// :--------------------------+--------------------------+--------------------------:
/// | 289     89      289      | 6       459     3        | 1259    7       12489    |
/// | 5       6789    36789    | 2       479     14789    | 1369    13489   134689   |
/// | 1       6789    4        | 589     579     5789     | 23569   23589   23689    |
/// '--------------------------'--------------------------'--------------------------'
/// ";
/// let (line, Ok(Input::Marks(pm))) = &read_inputs(marks)[0] else { panic!() };
/// assert_eq!((*line, pm.value(5 * 9 + 1), pm.digits(1)), (1, 4, vec![1, 6, 7, 9]));
/// ```
pub fn read_inputs(text: &str) -> Vec<(usize, Result<Input, String>)> {
    let mut out = Vec::new();
    // A drawn grid in progress: its first line and its cells so far.
    let mut block: Option<(usize, Vec<u8>)> = None;
    // A pencil-mark grid in progress: its first line and its cells' masks.
    let mut marks: Option<(usize, Vec<u32>)> = None;
    let unfinished_marks = |m: &(usize, Vec<u32>), last: usize| {
        (
            m.0,
            Err(format!(
                "lines {}-{last}: a pencil-mark grid of {} rows, expected 9",
                m.0,
                m.1.len() / 9
            )),
        )
    };
    // A line of separators only (a grid's top border) before any block.
    let mut border: Option<usize> = None;
    let unfinished = |b: &(usize, Vec<u8>), last: usize| {
        (
            b.0,
            Err(format!(
                "lines {}-{last}: a drawn grid of {} cells, expected 81",
                b.0,
                b.1.len()
            )),
        )
    };
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            if let Some(b) = block.take() {
                out.push(unfinished(&b, line - 1));
            }
            if let Some(m) = marks.take() {
                out.push(unfinished_marks(&m, line - 1));
            }
            border = None;
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        // Pencil marks: a row with a cell of several candidates starts a
        // grid; inside one, every row of nine digit groups belongs to it.
        if block.is_none() {
            if marks_border(t) && !t.chars().all(separator) {
                if marks.is_none() {
                    border.get_or_insert(line);
                }
                continue;
            }
            let row = marks_row(t);
            let starts = row
                .as_ref()
                .is_some_and(|r| r.iter().any(|m| m.count_ones() > 1));
            if let (Some(row), true) = (row, marks.is_some() || starts) {
                let first = border.take().unwrap_or(line);
                let m = marks.get_or_insert_with(|| (first, Vec::new()));
                m.1.extend(row);
                if m.1.len() == 81 {
                    let (first, masks) = marks.take().unwrap_or_default();
                    out.push((first, marks_state(first, &masks).map(Input::Marks)));
                }
                continue;
            }
            if let Some(m) = marks.take() {
                out.push(unfinished_marks(&m, line - 1));
            }
        }
        if t.chars().all(separator) {
            if block.is_none() {
                border.get_or_insert(line);
            }
            continue;
        }
        let first = border.take().unwrap_or(line);
        if block.is_none() && t.starts_with(':') {
            out.push((
                line,
                LibraryCase::parse(line, t)
                    .map(|c| Input::Library(Box::new(c)))
                    .map_err(|e| e.to_string()),
            ));
            continue;
        }
        let drawn = t.chars().any(separator) || t.chars().count() < 81;
        if block.is_none() && !drawn {
            match crate::parse::parse_line(line, raw) {
                Ok(Some(g)) => out.push((line, Ok(Input::Grid(g)))),
                Ok(None) => {}
                Err(e) => out.push((line, Err(e.to_string()))),
            }
            continue;
        }
        if !t.chars().all(|c| separator(c) || cell_char(c)) {
            if let Some(b) = block.take() {
                out.push(unfinished(&b, line - 1));
            }
            match crate::parse::parse_line(line, raw) {
                Ok(Some(g)) => out.push((line, Ok(Input::Grid(g)))),
                Ok(None) => {}
                Err(e) => out.push((line, Err(e.to_string()))),
            }
            continue;
        }
        let b = block.get_or_insert_with(|| (first, Vec::new()));
        b.1.extend(
            t.chars()
                .filter(|&c| cell_char(c))
                .map(|c| c.to_digit(10).map_or(0, |d| d as u8)),
        );
        if b.1.len() >= 81 {
            let (first, cells) = block.take().unwrap_or_default();
            if cells.len() > 81 {
                out.push((
                    first,
                    Err(format!(
                        "lines {first}-{line}: a drawn grid of {} cells, expected 81",
                        cells.len()
                    )),
                ));
            } else {
                out.push((
                    first,
                    crate::Grid::new(3, cells)
                        .map(Input::Grid)
                        .map_err(|e| format!("line {first}: {e}")),
                ));
            }
        }
    }
    if let Some(b) = block.take() {
        out.push(unfinished(&b, lines.len()));
    }
    if let Some(m) = marks.take() {
        out.push(unfinished_marks(&m, lines.len()));
    }
    out
}
