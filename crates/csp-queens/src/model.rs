//! N-queens as a CSP for the generic engine.
//!
//! One variable per row `i`, its value the column `x_i` of the row's queen.
//! Two queens attack each other when they share a column or a diagonal, and
//! every diagonal has an **id**: squares on one "/" diagonal share `x + y`,
//! squares on one "\" diagonal share `x − y` (with `y` the row). So the whole
//! puzzle is three all-different constraints over offset expressions:
//!
//! ```text
//! all-different(x_i)        columns
//! all-different(x_i + i)    diagonals
//! all-different(x_i − i)    anti-diagonals
//! ```
//!
//! Checking a new queen against the board is then O(1) per constraint (is its
//! id taken?), instead of a loop over the queens already placed. The
//! [`ModelKind::Pairwise`] model states the same puzzle the textbook way,
//! with binary constraints `x_i ≠ x_k` and `|x_i − x_k| ≠ |i − k|` for every
//! pair of rows, for comparison.
//!
//! ```
//! use csp_queens::model::{queens_model, ModelKind};
//! use csp_core::{Search, VarOrder};
//!
//! let q = queens_model(8, ModelKind::AllDifferent).unwrap();
//! let first = Search::new(&q.model).var_order(VarOrder::Input).solve().unwrap().solution.unwrap();
//! assert_eq!(q.columns(&first), vec![0, 4, 7, 5, 2, 6, 1, 3]); // 1 5 8 6 3 7 2 4
//! ```

use std::time::Instant;

use csp_core::{
    Domain, Limit, Model, ModelError, Outcome, Report, Search, SearchOptions, Solution, Statistics,
    VarId,
};

/// Which CSP formulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// Three all-different constraints over the ids `x`, `x + y`, `x − y`.
    AllDifferent,
    /// `n(n−1)/2` pairs of binary constraints: column and diagonal per pair.
    Pairwise,
}

/// A queens model and its row variables.
#[derive(Debug)]
pub struct QueensModel {
    /// The model.
    pub model: Model,
    /// `rows[i]` holds the column of row `i`'s queen (0-based).
    pub rows: Vec<VarId>,
}

impl QueensModel {
    /// The 0-based columns of a solution, row by row.
    pub fn columns(&self, s: &Solution) -> Vec<u32> {
        self.rows.iter().map(|&x| s[x] as u32).collect()
    }
}

/// The model for `n` queens, every row's domain `0..n`.
pub fn queens_model(n: usize, kind: ModelKind) -> Result<QueensModel, ModelError> {
    let full = Domain::range(0, n.min(i32::MAX as usize) as i32 - 1);
    build(n, kind, &[], &full, None).map(|q| q.expect("no deadline"))
}

/// [`queens_model`], given up when `deadline` passes (`Ok(None)`): the
/// pairwise model has `3n(n−1)/2` constraints, seconds of work for a few
/// thousand rows, so a time limit must hold while it is built.
pub fn queens_model_until(
    n: usize,
    kind: ModelKind,
    deadline: Option<Instant>,
) -> Result<Option<QueensModel>, ModelError> {
    let full = Domain::range(0, n.min(i32::MAX as usize) as i32 - 1);
    build(n, kind, &[], &full, deadline)
}

/// The model for `n` queens with given row domains (used to break symmetry
/// by restricting the first rows); `domains.len()` must be `n`.
pub fn queens_model_with(
    n: usize,
    kind: ModelKind,
    domains: &[Domain],
) -> Result<QueensModel, ModelError> {
    queens_model_with_until(n, kind, domains, None).map(|q| q.expect("no deadline"))
}

/// [`queens_model_with`], given up when `deadline` passes (`Ok(None)`).
fn queens_model_with_until(
    n: usize,
    kind: ModelKind,
    domains: &[Domain],
    deadline: Option<Instant>,
) -> Result<Option<QueensModel>, ModelError> {
    if domains.len() != n {
        return Err(ModelError::LengthMismatch {
            constraint: "queens",
            what: "row domains",
            expected: n,
            found: domains.len(),
        });
    }
    match domains.last() {
        Some(last) => build(n, kind, domains, last, deadline),
        None => build(0, kind, &[], &Domain::range(0, 0), deadline),
    }
}

/// The error for a board whose columns do not fit csp's 32-bit values.
fn too_large(n: usize) -> ModelError {
    ModelError::Invalid {
        constraint: "queens",
        reason: format!("n = {n} is too large"),
    }
}

/// Builds the model: row `i` gets `first[i]`, or `rest` past the end of
/// `first` (so the plain model needs no vector of a million equal domains).
/// `None` when `deadline` passed (checked after each row's constraints).
fn build(
    n: usize,
    kind: ModelKind,
    first: &[Domain],
    rest: &Domain,
    deadline: Option<Instant>,
) -> Result<Option<QueensModel>, ModelError> {
    let n32 = i32::try_from(n).map_err(|_| too_large(n))?;
    let domain = |i: usize| first.get(i).unwrap_or(rest);
    let mut model = Model::new();
    let mut rows = Vec::with_capacity(n);
    // Rows sharing a domain are declared together (one stored domain);
    // names (`q1`, `q2`, ...) are given on boards small enough to trace.
    let mut i = 0;
    while i < n {
        let d = domain(i);
        let run = if i >= first.len() {
            n - i
        } else {
            (i..n).take_while(|&k| domain(k) == d).count()
        };
        if n <= 64 {
            for k in i..i + run {
                rows.push(model.new_var_named(&format!("q{}", k + 1), d.clone())?);
            }
        } else {
            rows.extend(model.new_vars(run, d.clone())?);
        }
        i += run;
    }
    match kind {
        ModelKind::AllDifferent => {
            // ANCHOR: ids
            let up: Vec<i32> = (0..n32).collect(); // offsets +y
            let down: Vec<i32> = up.iter().map(|i| -i).collect(); // offsets −y
            model.all_different(&rows)?; // x
            model.all_different_offset(&rows, &up)?; // x + y
            model.all_different_offset(&rows, &down)?; // x − y
                                                       // ANCHOR_END: ids
        }
        ModelKind::Pairwise => {
            for i in 0..n {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(None);
                }
                for k in i + 1..n {
                    let d = (k - i) as i32;
                    model.not_equal(rows[i], rows[k], 0)?;
                    model.not_equal(rows[i], rows[k], d)?;
                    model.not_equal(rows[i], rows[k], -d)?;
                }
            }
        }
    }
    Ok(Some(QueensModel { model, rows }))
}

/// Counts the solutions of `n` queens with the generic engine, using the
/// mirror symmetry of the board as symmetry-breaking domain restrictions:
/// solutions whose first queen is in the left half are counted and doubled;
/// for odd `n`, those with the first queen in the middle column are counted
/// with the second queen in the left half, and doubled. Each part is a
/// separate run of the engine's parallel count on `threads` threads (0
/// meaning all cores; the statistics do not depend on it). The time limit of
/// `options` covers building the models too.
pub fn count(
    n: usize,
    kind: ModelKind,
    options: &SearchOptions,
    threads: usize,
) -> Result<Report, ModelError> {
    if n <= 1 {
        let q = queens_model(n, kind)?;
        return run_count(&q, options, threads);
    }
    let start = Instant::now();
    let deadline = options.limits.time.map(|t| start + t);
    // Checked before anything of size n is made (n = 2^32 wrapped to a
    // domain 0..-1 and asked for a 64 GiB vector of row domains).
    let n32 = i32::try_from(n).map_err(|_| too_large(n))?;
    let full = Domain::range(0, n32 - 1);
    let half = n / 2;
    let mut total = 0u128;
    let mut stats = Statistics::default();
    let mut stop = None;
    let mut parts = vec![vec![Domain::range(0, half as i32 - 1)]];
    if n % 2 == 1 && n >= 3 {
        parts.push(vec![
            Domain::singleton(half as i32),
            Domain::range(0, half as i32 - 1),
        ]);
    }
    for first in parts {
        // The first rows' domains, then `full` for the others.
        let Some(q) = build(n, kind, &first, &full, deadline)? else {
            stop = Some(Limit::Time);
            break;
        };
        // The search gets what the building left of the time limit.
        let mut o = options.clone();
        o.limits.time = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let r = run_count(&q, &o, threads)?;
        total += 2 * r.count;
        let time = stats.time + r.stats.time;
        stats.merge(&r.stats);
        stats.time = time;
        if let Outcome::LimitReached(l) = r.outcome {
            stop = Some(l);
        }
    }
    stats.solutions = total;
    Ok(Report {
        outcome: match stop {
            Some(l) => Outcome::LimitReached(l),
            None if total > 0 => Outcome::Solved,
            None => Outcome::Unsatisfiable,
        },
        count: total,
        stats,
    })
}

/// Counts with the engine's parallel search even on one thread: it splits
/// the tree the same way whatever the number of threads, so the statistics
/// (all but the time) are the same for any `threads`. (The sequential
/// search counts fewer propagations and removals than the split, which
/// propagates its first decisions again in every subproblem.) The
/// caller's decision variables and phases are dropped: they can only name
/// variables of another model.
fn run_count(
    q: &QueensModel,
    options: &SearchOptions,
    threads: usize,
) -> Result<Report, ModelError> {
    Search::new(&q.model)
        .options(options.for_another_model())
        .par_count(threads)
        // Not expected once the options are fitted; passed on, not a panic.
        .map_err(|e| ModelError::Invalid {
            constraint: "queens count",
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::{Inference, VarOrder};

    const COUNTS: [u128; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

    #[test]
    fn symmetric_count_matches_oeis() {
        for kind in [ModelKind::AllDifferent, ModelKind::Pairwise] {
            for (n, &want) in COUNTS.iter().enumerate() {
                for inference in [Inference::ForwardChecking, Inference::Mac] {
                    let o = SearchOptions {
                        inference,
                        var_order: VarOrder::Input,
                        learning: false, // measured with the ordinary engine
                        ..Default::default()
                    };
                    assert_eq!(count(n, kind, &o, 1).unwrap().count, want, "n={n} {kind:?}");
                }
            }
        }
        let o = SearchOptions::default();
        assert_eq!(count(8, ModelKind::AllDifferent, &o, 2).unwrap().count, 92);
    }

    /// Decision variables of the caller's own model cannot name the
    /// count's model: they are dropped, and the count is still right (they
    /// ended in a panic once the search checked its options).
    #[test]
    fn foreign_decision_variables_are_dropped() {
        let mut other = csp_core::Model::new();
        let xs = other.new_vars(20, csp_core::Domain::range(0, 1)).unwrap();
        let o = SearchOptions {
            decision_vars: xs,
            learning: false, // measured with the ordinary engine
            ..Default::default()
        };
        let r = count(8, ModelKind::AllDifferent, &o, 1).unwrap();
        assert_eq!((r.count, r.outcome), (92, Outcome::Solved));
    }

    /// n = 2^32 asked for a vector of 2^32 row domains (64 GiB) before its
    /// size was checked, and aborted (issue 32).
    #[test]
    fn boards_past_32_bits_are_refused_before_allocating() {
        let o = SearchOptions::default();
        for n in [1usize << 32, usize::MAX] {
            for kind in [ModelKind::AllDifferent, ModelKind::Pairwise] {
                let e = count(n, kind, &o, 1).unwrap_err();
                assert!(matches!(e, ModelError::Invalid { .. }), "{e}");
                assert!(
                    e.to_string().contains(&format!("n = {n} is too large")),
                    "{e}"
                );
            }
        }
    }
}
