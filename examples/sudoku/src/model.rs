//! The model, and solving through the generic engine.
//!
//! ```
//! use csp_sudoku::{check_solution, model, Grid};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let solved = model::solve(&puzzle, &model::options());
//! let solution = solved.solution.unwrap();
//! assert_eq!(check_solution(&puzzle, &solution), Ok(()));
//! assert!(matches!(model::is_unique(&puzzle, &model::options()), model::Uniqueness::Unique(_)));
//! ```

use csp_core::constraint::Consistency;
use csp_core::{
    Domain, Inference, Limit, Model, Outcome, Report, Search, SearchOptions, Solution, Statistics,
    ValOrder, Value, VarId, VarOrder,
};

use crate::Grid;

/// Builds the model of `grid`: one variable per cell (`cells[row][col]`), and
/// one all-different constraint per row, column and box.
///
/// A blank cell's variable has domain `1..=n`; a given's variable has the single
/// value given. Variables are named `r1c1` ... `r9c9` (1-based) for traces.
///
/// ```
/// let grid = csp_sudoku::Grid::empty(3).unwrap();
/// let (model, cells) = csp_sudoku::model::model(&grid);
/// assert_eq!(model.num_vars(), 81);
/// assert_eq!(model.num_constraints(), 27);
/// assert_eq!(model.name(cells[8][0]), Some("r9c1"));
/// ```
pub fn model(grid: &Grid) -> (Model, Vec<Vec<VarId>>) {
    model_with(grid, Consistency::Value)
}

/// [`model`] with the all-different constraints propagated at `alldiff`
/// ([`Consistency::Value`] is [`model`]).
///
/// ```
/// use csp_core::constraint::Consistency;
/// let grid = csp_sudoku::Grid::empty(2).unwrap();
/// let (model, _) = csp_sudoku::model::model_with(&grid, Consistency::Domain);
/// assert_eq!(model.num_constraints(), 12);
/// ```
pub fn model_with(grid: &Grid, alldiff: Consistency) -> (Model, Vec<Vec<VarId>>) {
    let n = grid.side();
    let mut m = Model::new();
    let cells: Vec<Vec<VarId>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let domain = match grid.get(r, c) {
                        0 => Domain::range(1, n as Value),
                        given => Domain::singleton(Value::from(given)),
                    };
                    let name = format!("r{}c{}", r + 1, c + 1);
                    m.new_var_named(&name, domain)
                        .expect("a cell's domain is never empty")
                })
                .collect()
        })
        .collect();
    // The rules: every row, every column and every box holds different values.
    for (_unit, unit_cells) in grid.units() {
        let vars: Vec<VarId> = unit_cells.iter().map(|&(r, c)| cells[r][c]).collect();
        m.all_different_with(&vars, alldiff)
            .expect("the unit's variables belong to the model and hold at most 25 values");
    }
    (m, cells)
}

/// The search options recommended for Sudoku: maintained arc consistency (the
/// all-different propagator then finds naked and hidden singles in every unit),
/// smallest domain first, values in ascending order, no limits.
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

/// The grid a solution of [`model`] describes.
pub fn grid_of(grid: &Grid, cells: &[Vec<VarId>], solution: &Solution) -> Grid {
    let values = cells
        .iter()
        .flatten()
        .map(|&x| u8::try_from(solution[x]).expect("cell values are 1..=25"))
        .collect();
    Grid::new(grid.box_side(), values).expect("a solution has the grid's size and values")
}

/// The result of [`solve`].
#[derive(Debug, Clone)]
pub struct Solved {
    /// `Solved`, `Unsatisfiable` (no solution), or `LimitReached`.
    pub outcome: Outcome,
    /// The first solution found, when there is one.
    pub solution: Option<Grid>,
    /// The engine's counters.
    pub stats: Statistics,
}

/// Solves `grid` with the engine: the first solution, if any.
///
/// A grid with repeated givens has no solution (`Outcome::Unsatisfiable`).
pub fn solve(grid: &Grid, options: &SearchOptions) -> Solved {
    solve_with(grid, options, Consistency::Value)
}

/// [`solve`] with the all-different constraints at `alldiff`.
pub fn solve_with(grid: &Grid, options: &SearchOptions, alldiff: Consistency) -> Solved {
    let (m, cells) = model_with(grid, alldiff);
    let r = Search::new(&m)
        .options(options.for_another_model())
        .solve()
        .expect("no decision variables: nothing to reject");
    Solved {
        outcome: r.outcome,
        solution: r.solution.map(|s| grid_of(grid, &cells, &s)),
        stats: r.stats,
    }
}

/// Counts the solutions of `grid`, stopping at `k` (a count of `k` means "at
/// least `k`", with outcome `LimitReached`).
///
/// ```
/// use csp_sudoku::{model, Grid};
/// // The empty 4×4 grid has 288 solutions.
/// let report = model::count_up_to(&Grid::empty(2).unwrap(), 1000, &model::options());
/// assert_eq!(report.count, 288);
/// ```
pub fn count_up_to(grid: &Grid, k: u64, options: &SearchOptions) -> Report {
    count_up_to_with(grid, k, options, Consistency::Value)
}

/// [`count_up_to`] with the all-different constraints at `alldiff`.
pub fn count_up_to_with(
    grid: &Grid,
    k: u64,
    options: &SearchOptions,
    alldiff: Consistency,
) -> Report {
    let (m, _) = model_with(grid, alldiff);
    Search::new(&m)
        .options(options.for_another_model())
        .count_up_to(k)
        .expect("no decision variables: nothing to reject")
}

/// The answer of [`is_unique`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution: a proper puzzle.
    Unique(Grid),
    /// At least two solutions (the first two found).
    Multiple(Grid, Grid),
    /// A limit stopped the search before it could tell.
    Unknown(Limit),
    /// The engine let through a grid that violates this constraint (a
    /// propagator bug; see `csp_core::Outcome::Invalid`).
    Invalid(csp_core::ConstraintId),
}

/// Does `grid` have exactly one solution? The search stops at the second.
pub fn is_unique(grid: &Grid, options: &SearchOptions) -> Uniqueness {
    is_unique_with(grid, options, Consistency::Value)
}

/// [`is_unique`] with the all-different constraints at `alldiff`.
pub fn is_unique_with(grid: &Grid, options: &SearchOptions, alldiff: Consistency) -> Uniqueness {
    let (m, cells) = model_with(grid, alldiff);
    let to_grid = |s: &Solution| grid_of(grid, &cells, s);
    match Search::new(&m)
        .options(options.for_another_model())
        .is_unique()
        .expect("no decision variables: nothing to reject")
    {
        csp_core::Uniqueness::None => Uniqueness::None,
        csp_core::Uniqueness::Unique(s) => Uniqueness::Unique(to_grid(&s)),
        csp_core::Uniqueness::Multiple(a, b) => Uniqueness::Multiple(to_grid(&a), to_grid(&b)),
        csp_core::Uniqueness::Unknown(l) => Uniqueness::Unknown(l),
        csp_core::Uniqueness::Invalid(c) => Uniqueness::Invalid(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_givens_have_no_solution() {
        let grid: Grid = format!("55{}", ".".repeat(79)).parse().unwrap();
        assert!(grid.first_conflict().is_some());
        let r = solve(&grid, &options());
        assert_eq!(r.outcome, Outcome::Unsatisfiable);
        assert_eq!(is_unique(&grid, &options()), Uniqueness::None);
    }

    #[test]
    fn tiny_grids() {
        let one = Grid::empty(1).unwrap();
        assert_eq!(count_up_to(&one, 10, &options()).count, 1);
        let empty = Grid::empty(3).unwrap();
        assert!(matches!(
            is_unique(&empty, &options()),
            Uniqueness::Multiple(..)
        ));
    }
}
