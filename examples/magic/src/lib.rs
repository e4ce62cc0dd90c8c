//! Magic squares: a worked example of modelling with expressions.
//!
//! A magic square of order `n` holds the numbers `1..=n²` once each, and
//! every row, column and both diagonals sum to the magic constant
//! `n(n² + 1)/2`. The model states exactly that, one line per rule:
//!
//! ```
//! use csp_magic::{magic_constant, model};
//! use csp_core::Search;
//!
//! let (m, cells) = model(3).unwrap();
//! assert_eq!(magic_constant(3), 15);
//! assert_eq!(Search::new(&m).count().unwrap().count, 8); // one square, 8 symmetries
//! let s = Search::new(&m).solve().unwrap().solution.unwrap();
//! let square: Vec<i32> = cells.iter().map(|&x| s[x]).collect();
//! csp_magic::check(3, &square).unwrap();
//! ```

use csp_core::expr::sum;
use csp_core::{Domain, Model, ModelError, SearchOptions, VarId, VarOrder};

/// The largest order [`model`] accepts: `n²` must fit the value type
/// with room for the sums, and the model grows as n².
pub const MAX_ORDER: usize = 100;

/// The search the example uses by default: dom/wdeg variable order (the
/// sums fail often, and failure weights find the cells that matter; on
/// order 4 it visits 242 thousand nodes where smallest-domain-first visits
/// 559 thousand), forward checking.
pub fn options() -> SearchOptions {
    SearchOptions {
        var_order: VarOrder::DomWdeg,
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// `n(n² + 1)/2`, the sum of every line.
pub fn magic_constant(n: usize) -> i64 {
    let n = n as i64;
    n * (n * n + 1) / 2
}

/// The model: one variable per cell (row-major), values `1..=n²`.
pub fn model(n: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    if n == 0 || n > MAX_ORDER {
        return Err(ModelError::Invalid {
            constraint: "magic square",
            reason: format!("order {n} is outside 1..={MAX_ORDER}"),
        });
    }
    let mut m = Model::new();
    let cells = m.new_vars(n * n, Domain::range(1, (n * n) as i32))?;
    let cell = |r: usize, c: usize| cells[r * n + c];
    let total = magic_constant(n) as i32;

    // Every number once.
    m.all_different(&cells)?;
    // Rows and columns.
    for i in 0..n {
        m.post(sum((0..n).map(|j| cell(i, j))).eq(total))?;
        m.post(sum((0..n).map(|j| cell(j, i))).eq(total))?;
    }
    // The two diagonals.
    m.post(sum((0..n).map(|i| cell(i, i))).eq(total))?;
    m.post(sum((0..n).map(|i| cell(i, n - 1 - i))).eq(total))?;
    Ok((m, cells))
}

/// Why a square is not magic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotMagic {
    /// Not `n²` numbers.
    Size(usize),
    /// A number outside `1..=n²`, or one used twice.
    Number(i32),
    /// A line whose sum is not the magic constant.
    Line(String, i64),
}

impl std::fmt::Display for NotMagic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotMagic::Size(k) => write!(f, "{k} numbers is not a square of this order"),
            NotMagic::Number(v) => write!(f, "{v} is out of range or repeated"),
            NotMagic::Line(l, s) => write!(f, "{l} sums to {s}"),
        }
    }
}

/// An independent check of a row-major square (no engine involved).
pub fn check(n: usize, square: &[i32]) -> Result<(), NotMagic> {
    if square.len() != n * n {
        return Err(NotMagic::Size(square.len()));
    }
    let mut seen = vec![false; n * n + 1];
    for &v in square {
        let ok = v >= 1 && (v as usize) <= n * n && !seen[v as usize];
        if !ok {
            return Err(NotMagic::Number(v));
        }
        seen[v as usize] = true;
    }
    let at = |r: usize, c: usize| square[r * n + c] as i64;
    let want = magic_constant(n);
    let mut lines: Vec<(String, i64)> = Vec::new();
    for i in 0..n {
        lines.push((format!("row {}", i + 1), (0..n).map(|j| at(i, j)).sum()));
        lines.push((format!("column {}", i + 1), (0..n).map(|j| at(j, i)).sum()));
    }
    lines.push(("the diagonal".into(), (0..n).map(|i| at(i, i)).sum()));
    lines.push((
        "the anti-diagonal".into(),
        (0..n).map(|i| at(i, n - 1 - i)).sum(),
    ));
    match lines.into_iter().find(|l| l.1 != want) {
        Some((l, s)) => Err(NotMagic::Line(l, s)),
        None => Ok(()),
    }
}

/// The square as text, numbers right-aligned.
pub fn render(n: usize, square: &[i32]) -> String {
    let width = (n * n).to_string().len();
    let mut out = String::new();
    for r in 0..n {
        let row: Vec<String> = (0..n)
            .map(|c| format!("{:>width$}", square[r * n + c]))
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}
