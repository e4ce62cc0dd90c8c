//! The model, and solving and counting through the generic engine.
//!
//! ```
//! use csp_latin::{check_solution, model, Square};
//!
//! let puzzle: Square = "1 . . .\n. . 3 .\n. 4 . .\n. . . 2".parse().unwrap();
//! let solved = model::complete(&puzzle, &model::options());
//! assert_eq!(check_solution(&puzzle, &solved.solution.unwrap()), Ok(()));
//! assert_eq!(model::count_latin_squares(4, model::Counting::All).unwrap().count, 576);
//! ```

use csp_core::constraint::{Constraint, Premises, Pruner};
use csp_core::propagation::low_level::PrunerWords;
use csp_core::Literal;
use csp_core::{
    Conflict, Domain, Inference, Model, Outcome, Report, Search, SearchOptions, Solution,
    Statistics, ValOrder, Value, VarId, VarOrder,
};
use smallvec::SmallVec;

use crate::{Square, SquareError};

/// Builds the model of `square`: one variable per cell (`cells[row][col]`,
/// named `r1c1` ...) with domain `1..=n`, or the given value; one
/// all-different per row and one per column.
///
/// ```
/// let (m, cells) = csp_latin::model::model(&csp_latin::Square::empty(3).unwrap());
/// assert_eq!((m.num_vars(), m.num_constraints()), (9, 6));
/// assert_eq!(m.name(cells[2][1]), Some("r3c2"));
/// ```
pub fn model(square: &Square) -> (Model, Vec<Vec<VarId>>) {
    let n = square.order();
    let mut m = Model::new();
    let cells: Vec<Vec<VarId>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let domain = match square.get(r, c) {
                        0 => Domain::range(1, n as Value),
                        given => Domain::singleton(Value::from(given)),
                    };
                    m.new_var_named(&format!("r{}c{}", r + 1, c + 1), domain)
                        .expect("a cell's domain is never empty")
                })
                .collect()
        })
        .collect();
    // Each value once in every row and every column.
    for (i, row) in cells.iter().enumerate() {
        let column: Vec<VarId> = cells.iter().map(|r| r[i]).collect();
        m.all_different(row)
            .expect("the row's variables are the model's");
        m.all_different(&column)
            .expect("the column's variables are the model's");
    }
    (m, cells)
}

/// The model for hints ([`csp_core::hints`]): the cells named `r1c1`…
/// over `1..=n`, one all-different per row and per column, the givens as
/// facts (`r1c1 = 3`) rather than domains, and each constraint's name for
/// people (`row 2`, `column 3`, indexed by constraint).
#[allow(clippy::type_complexity)]
pub fn hint_model(
    square: &Square,
) -> Result<(Model, Vec<Literal>, Vec<String>), csp_core::ModelError> {
    let n = square.order();
    let mut m = Model::new();
    let mut cells = Vec::with_capacity(n * n);
    let mut facts = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let x = m.new_var_named(
                &format!("r{}c{}", r + 1, c + 1),
                Domain::range(1, n as Value),
            )?;
            cells.push(x);
            if square.get(r, c) != 0 {
                facts.push(Literal::Eq(x, Value::from(square.get(r, c))));
            }
        }
    }
    let mut labels = Vec::new();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|c| cells[i * n + c]).collect();
        m.all_different(&row)?;
        labels.resize(m.num_constraints(), format!("row {}", i + 1));
        let column: Vec<VarId> = (0..n).map(|r| cells[r * n + i]).collect();
        m.all_different(&column)?;
        labels.resize(m.num_constraints(), format!("column {}", i + 1));
    }
    Ok((m, facts, labels))
}

/// The largest order whose values fit one 64-bit word, where the engine's
/// all-different finds hidden singles on that word. Above it (up to 256
/// values) it does so a word at a time over the domains' bitsets; the model
/// is the same for every order.
pub const HIDDEN_SINGLES_MAX_ORDER: usize = 64;

/// Each value `1..=n` exactly once among `n` variables (a row or a column):
/// redundant beside the all-different, it adds **hidden singles** (a value
/// only one variable can still take is fixed there) and the pigeonhole check
/// (a value no variable can take is a conflict), for any `n` up to 256.
/// Each call is one pass over the domains, a word of values at a time
/// ([`PrunerWords::bits`]). [`model`] no longer posts it: the engine's
/// all-different now does the same for up to 256 values; it stays as an
/// example of a global constraint written against the public trait.
#[derive(Debug, Clone)]
pub struct EachValueOnce {
    vars: Vec<VarId>,
}

impl EachValueOnce {
    /// Values `1..=n` once each among `vars` (`vars.len() == n <= 256`).
    pub fn new(vars: Vec<VarId>, n: usize) -> EachValueOnce {
        assert!(
            vars.len() == n && n <= 256,
            "EachValueOnce: n = {n}, {} variables",
            vars.len()
        );
        EachValueOnce { vars }
    }
}

impl Constraint for EachValueOnce {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[Value]) -> bool {
        let n = self.vars.len();
        let mut seen = [false; 256];
        values.iter().all(|&v| {
            (1..=n as Value).contains(&v) && !std::mem::replace(&mut seen[v as usize - 1], true)
        })
    }

    fn name(&self) -> &str {
        "each value once"
    }

    fn forward_check(&self, pruner: &mut Pruner<'_>, _changed: usize) -> Result<(), Conflict> {
        self.propagate(pruner)
    }

    fn propagate(&self, pruner: &mut Pruner<'_>) -> Result<(), Conflict> {
        let n = self.vars.len();
        let words = n.div_ceil(64);
        // Value `i + 1` is bit `i % 64` of word `i / 64`; `all` holds 1..=n.
        let mut all = [0u64; 4];
        for (w, a) in all.iter_mut().enumerate().take(words) {
            let bits = (n - 64 * w).min(64);
            *a = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        }
        // The values already placed (fixed variables), then, among the
        // values still wanted, those one open variable can take (`once`)
        // and those two or more can (`twice`), a word at a time (the
        // domains as bit sets: O(n²/64) a pass instead of O(n²) membership
        // tests, which made orders above 80 take minutes).
        let mut placed = [0u64; 4];
        let mut open: SmallVec<[(VarId, [u64; 4]); 64]> = SmallVec::new();
        for &x in &self.vars {
            match pruner.value(x) {
                Some(v) if (1..=n as Value).contains(&v) => {
                    let i = v as usize - 1;
                    placed[i / 64] |= 1 << (i % 64);
                }
                _ => {
                    let mut d = [0u64; 4];
                    pruner.bits(x, 1, &mut d[..words]);
                    open.push((x, d));
                }
            }
        }
        let (mut once, mut twice) = ([0u64; 4], [0u64; 4]);
        for (_, d) in &open {
            for w in 0..words {
                twice[w] |= once[w] & d[w];
                once[w] |= d[w];
            }
        }
        let mut single = [0u64; 4];
        for w in 0..words {
            let wanted = all[w] & !placed[w];
            if wanted & !once[w] != 0 {
                return Err(Conflict); // no variable can take this value
            }
            single[w] = wanted & !twice[w];
        }
        if single.iter().all(|&s| s == 0) {
            return Ok(());
        }
        // Each value only one variable can take is fixed there (two such
        // values on one variable make the second fix fail).
        for (x, d) in &open {
            for w in 0..words {
                let mut hit = d[w] & single[w];
                while hit != 0 {
                    let i = 64 * w + hit.trailing_zeros() as usize;
                    let v = i as Value + 1;
                    // Hidden single: every other variable has lost `v`,
                    // and the n variables need all n values.
                    let others = |r: &mut Premises| {
                        for &y in self.vars.iter().filter(|&y| y != x) {
                            r.push(Literal::Ne(y, v));
                        }
                    };
                    pruner.fix(*x, v, others)?;
                    hit &= hit - 1;
                }
            }
        }
        Ok(())
    }
}

/// The search options used: arc consistency (the all-different propagator
/// finds naked and hidden singles), smallest domain first.
pub fn options() -> SearchOptions {
    SearchOptions {
        inference: Inference::Mac,
        var_order: VarOrder::Mrv,
        val_order: ValOrder::Ascending,
        limits: Default::default(),
        learning: false, // measured with the ordinary engine
        ..Default::default()
    }
}

/// The square a solution of [`model`] describes.
pub fn square_of(cells: &[Vec<VarId>], solution: &Solution) -> Square {
    let n = cells.len();
    let values = cells
        .iter()
        .flatten()
        .map(|&x| u8::try_from(solution[x]).expect("values are 1..=n"))
        .collect();
    Square::new(n, values).expect("a solution has the square's shape")
}

/// The result of [`complete`].
#[derive(Debug, Clone)]
pub struct Solved {
    /// `Solved`, `Unsatisfiable` (no completion), or `LimitReached`.
    pub outcome: Outcome,
    /// A completion, when one was found.
    pub solution: Option<Square>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// Completes a partial Latin square (the first completion the search finds).
///
/// A square with a repeated given has no completion.
pub fn complete(square: &Square, options: &SearchOptions) -> Solved {
    let (m, cells) = model(square);
    let r = Search::new(&m)
        .options(options.for_another_model())
        .solve()
        .expect("no decision variables: nothing to reject");
    Solved {
        outcome: r.outcome,
        solution: r.solution.map(|s| square_of(&cells, &s)),
        stats: r.stats,
    }
}

/// Counts the completions of `square`, stopping at `k` (a count of `k` means
/// "at least `k`").
pub fn count_completions(square: &Square, k: u64, options: &SearchOptions) -> Report {
    let (m, _) = model(square);
    Search::new(&m)
        .options(options.for_another_model())
        .count_up_to(k)
        .expect("no decision variables: nothing to reject")
}

/// How [`count_latin_squares`] counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Counting {
    /// Enumerate every Latin square of order `n`.
    All,
    /// Count the *reduced* squares (first row and first column `1, 2, ..., n`) and
    /// multiply by `n!·(n−1)!`. Sound because every Latin square is turned into
    /// exactly one reduced square by renaming its symbols so that the first row
    /// reads `1..n` (`n!` renamings) and then ordering rows 2 to `n` by their
    /// first entry (`(n−1)!` orders). The default.
    #[default]
    Reduced,
}

/// The largest order [`count_latin_squares`] accepts: the number of Latin
/// squares of order 11 (about 7.8·10⁴⁷) does not fit in a `u128`.
pub const MAX_COUNT_ORDER: usize = 10;

/// The number of Latin squares of order `n` (OEIS A002860: 1, 2, 12, 576,
/// 161280, 812851200, ...), counted by the engine.
///
/// `count` is exact when `outcome` is not `LimitReached`; `stats` are those of
/// the engine's count (of reduced squares, for [`Counting::Reduced`]). The count
/// grows very fast: beyond order 6 expect to wait (order 7 has about 6.1·10¹³
/// squares, 16942080 of them reduced).
///
/// # Errors
/// [`SquareError::UnsupportedOrder`] when `n` is 0 or above [`MAX_COUNT_ORDER`].
pub fn count_latin_squares(n: usize, counting: Counting) -> Result<Report, SquareError> {
    count_latin_squares_with(n, counting, &options())
}

/// [`count_latin_squares`] with the search options (and limits) given: a
/// count stopped by a limit reports `LimitReached` and the squares found so
/// far (times `n!·(n−1)!` for [`Counting::Reduced`]).
///
/// # Errors
/// [`SquareError::UnsupportedOrder`] when `n` is 0 or above [`MAX_COUNT_ORDER`].
pub fn count_latin_squares_with(
    n: usize,
    counting: Counting,
    options: &SearchOptions,
) -> Result<Report, SquareError> {
    let (m, factor) = counting_model(n, counting)?;
    let mut report = Search::new(&m)
        .options(options.for_another_model())
        .count()
        .expect("no decision variables: nothing to reject");
    report.count *= factor;
    Ok(report)
}

/// The model [`count_latin_squares`] counts, and the factor its count is
/// multiplied by: the blank square and 1, or the reduced squares (first row
/// and column `1..n`) and `n!·(n−1)!`. For splitting the count into
/// subproblems ([`Search::subproblems`]) elsewhere.
///
/// ```
/// use csp_latin::model::{counting_model, Counting};
/// let (m, factor) = counting_model(4, Counting::Reduced).unwrap();
/// let reduced = csp_core::Search::new(&m).count().unwrap().count;
/// assert_eq!((reduced, factor), (4, 144));
/// ```
///
/// # Errors
/// [`SquareError::UnsupportedOrder`] when `n` is 0 or above [`MAX_COUNT_ORDER`].
pub fn counting_model(n: usize, counting: Counting) -> Result<(Model, u128), SquareError> {
    if n > MAX_COUNT_ORDER {
        return Err(SquareError::UnsupportedOrder(n));
    }
    let mut square = Square::empty(n)?;
    let mut factor = 1;
    if counting == Counting::Reduced {
        for i in 0..n {
            square.set(0, i, i as u8 + 1).expect("in range");
            square.set(i, 0, i as u8 + 1).expect("in range");
        }
        factor = (1..=n as u128).product::<u128>() * (1..n as u128).product::<u128>();
    }
    Ok((model(&square).0, factor))
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{testing, Limits};

    #[test]
    fn each_value_once_agrees_with_brute_force() {
        for n in 1..=4 {
            let full = vec![Domain::range(1, n as Value); n];
            testing::check_constraint(&full, |m, v| {
                m.post(EachValueOnce::new(v.to_vec(), n)).map(|_| ())
            })
            .unwrap();
        }
        // Holes, a value out of range, a value no variable can take.
        let doms = [
            Domain::values([1, 3]),
            Domain::values([1, 2, 5]),
            Domain::range(1, 3),
        ];
        testing::check_constraint(&doms, |m, v| {
            m.post(EachValueOnce::new(v.to_vec(), 3)).map(|_| ())
        })
        .unwrap();
        let doms = [
            Domain::values([1, 2]),
            Domain::values([1, 2]),
            Domain::range(1, 2),
        ];
        testing::check_constraint(&doms, |m, v| {
            m.post(EachValueOnce::new(v.to_vec(), 3)).map(|_| ())
        })
        .unwrap();
    }

    /// Above order 64 a blank square thrashed without hidden singles: order
    /// 65 had 5,917 failures in its first 14,336 nodes and no square after
    /// 10 s. With them the search needs about one node per cell, and each
    /// node's passes are a few words per cell (order 100 was unfinished after
    /// 20 s while membership was tested value by value).
    #[test]
    fn blank_squares_above_order_64_complete() {
        for n in [HIDDEN_SINGLES_MAX_ORDER + 1, 100] {
            let blank = Square::empty(n).unwrap();
            let mut options = options();
            // A node limit, not a time limit: the answer must not depend
            // on the machine's load (30 s ran out at load 20, issue 32).
            options.limits = Limits::none().with_nodes(2 * (n * n) as u64);
            let r = complete(&blank, &options);
            assert_eq!(r.outcome, Outcome::Solved, "order {n}: {}", r.stats);
            assert!(r.stats.failures < 100, "order {n}: {}", r.stats);
            crate::check_solution(&blank, &r.solution.unwrap()).unwrap();
        }
    }
}
