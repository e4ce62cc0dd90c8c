//! Backtracking over permutations, with search limits and an observer for
//! tracing the search tree.
//!
//! The placement is kept as a permutation of the columns. Filling row `r`
//! tries, in turn, each column still unused by swapping it into position `r`
//! (so rows and columns are distinct by construction) and checks only the two
//! diagonals, with occupancy arrays indexed by `x + y` and `x − y`. The
//! swaps make the order of solutions differ from lexicographic order after
//! the first row.
//!
//! Every column tried for a row is one **node** of the search, reported to the
//! [`Observer`] as [`Event::Assign`] if its diagonals are free and as
//! [`Event::Reject`] if not. A [`Budget`] can stop the search after a number
//! of nodes, at a deadline or when a shared flag is raised; the [`Report`]
//! says whether it completed.
//!
//! ```
//! use csp_queens::permutation::{count, first_solution, Budget, Status};
//!
//! let report = count(8, &Budget::unlimited()).unwrap();
//! assert_eq!(report.solutions, 92);
//! assert_eq!(report.status, Status::Completed);
//!
//! let (solution, report) = first_solution(8, &Budget::unlimited()).unwrap();
//! assert!(csp_queens::verify::check(&solution.unwrap()).is_solution());
//! assert_eq!(report.status, Status::Stopped);
//!
//! let limited = count(12, &Budget::unlimited().with_max_nodes(1000)).unwrap();
//! assert_eq!(limited.status, Status::NodeLimit);
//! assert_eq!(limited.nodes, 1000);
//! ```

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The largest board size accepted by the searches here (columns are `u32`).
pub const MAX_N: usize = u32::MAX as usize;

/// Limits on a search. The default has none.
///
/// The node limit is exact; the deadline and the cancel flag are looked at
/// every [`Budget::CHECK_INTERVAL`] nodes and once at the start.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget<'a> {
    /// Stop before exploring more than this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop once this flag is `true` (e.g. set by a Ctrl-C handler or another
    /// thread).
    pub cancel: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    /// How many nodes pass between two looks at the clock and the flag (a
    /// power of two).
    pub const CHECK_INTERVAL: u64 = 1024;

    /// No limits.
    pub fn unlimited() -> Budget<'a> {
        Budget::default()
    }

    /// The same budget with a node limit.
    pub fn with_max_nodes(self, max_nodes: u64) -> Budget<'a> {
        Budget {
            max_nodes: Some(max_nodes),
            ..self
        }
    }

    /// The same budget with a deadline.
    pub fn with_deadline(self, deadline: Instant) -> Budget<'a> {
        Budget {
            deadline: Some(deadline),
            ..self
        }
    }

    /// The same budget with a cancel flag.
    pub fn with_cancel(self, cancel: &'a AtomicBool) -> Budget<'a> {
        Budget {
            cancel: Some(cancel),
            ..self
        }
    }

    /// The reason to stop now, if any, given the nodes explored so far
    /// (checked before exploring one more).
    pub(crate) fn exhausted(&self, nodes: u64) -> Option<Status> {
        if self.max_nodes.is_some_and(|max| nodes >= max) {
            return Some(Status::NodeLimit);
        }
        // CHECK_INTERVAL is a power of two.
        if nodes & (Self::CHECK_INTERVAL - 1) == 0 {
            return self.interrupted();
        }
        None
    }

    /// Whether the cancel flag is up or the deadline has passed (looked at
    /// now, whatever the node count).
    pub fn interrupted(&self) -> Option<Status> {
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Some(Status::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Status::Deadline);
        }
        None
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The whole search space was explored.
    Completed,
    /// The solution callback asked to stop.
    Stopped,
    /// [`Budget::max_nodes`] was reached.
    NodeLimit,
    /// [`Budget::deadline`] passed.
    Deadline,
    /// [`Budget::cancel`] was raised.
    Cancelled,
}

impl Status {
    /// Whether the search explored everything.
    pub fn is_complete(self) -> bool {
        self == Status::Completed
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Completed => "completed",
            Status::Stopped => "stopped by the caller",
            Status::NodeLimit => "stopped at the node limit",
            Status::Deadline => "stopped at the deadline",
            Status::Cancelled => "cancelled",
        })
    }
}

/// What a permutation search did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Report {
    /// How the search ended.
    pub status: Status,
    /// Columns tried (accepted or rejected).
    pub nodes: u64,
    /// Columns rejected because a diagonal was taken.
    pub rejections: u64,
    /// Rows given up after trying all their columns.
    pub backtracks: u64,
    /// Solutions found.
    pub solutions: u128,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} solution(s), {} nodes, {} rejections, {} backtracks",
            self.status, self.solutions, self.nodes, self.rejections, self.backtracks
        )
    }
}

/// A step of the search, for tracing. Rows and columns are 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// A queen was placed: its diagonals were free.
    Assign {
        /// The row being filled.
        row: usize,
        /// The column placed there.
        col: u32,
    },
    /// A column was tried but shares a diagonal with a queen above.
    Reject {
        /// The row being filled.
        row: usize,
        /// The column tried.
        col: u32,
    },
    /// Every column of `row` has been tried; the queen of the row above (if
    /// any) is taken back and its next column tried.
    Backtrack {
        /// The exhausted row.
        row: usize,
    },
    /// All rows hold a queen.
    Solution,
}

/// Receives the [`Event`]s of a search in order.
///
/// Any `FnMut(Event)` closure is an observer; [`NoObserver`] ignores events.
pub trait Observer {
    /// Called for every event.
    fn on_event(&mut self, event: Event);
}

impl<F: FnMut(Event)> Observer for F {
    fn on_event(&mut self, event: Event) {
        self(event)
    }
}

/// An observer that ignores every event.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn on_event(&mut self, _event: Event) {}
}

/// The board size is too large for `u32` columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeError {
    /// The requested board size.
    pub n: usize,
    /// The largest accepted size.
    pub max: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n = {} is too large (at most {})", self.n, self.max)
    }
}

impl std::error::Error for SizeError {}

pub(crate) fn check_size(n: usize) -> Result<(), SizeError> {
    if n > MAX_N {
        Err(SizeError { n, max: MAX_N })
    } else {
        Ok(())
    }
}

/// Runs the search, calling `observer` with every event and `on_solution`
/// with every solution (0-based columns per row); `on_solution` may return
/// [`ControlFlow::Break`] to stop ([`Status::Stopped`]). For `n = 0` the
/// empty board is the one solution.
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`MAX_N`].
///
/// ```
/// use std::ops::ControlFlow;
/// use csp_queens::permutation::{search, Budget, Event};
///
/// let mut trace = Vec::new();
/// let report = search(
///     2,
///     &Budget::unlimited(),
///     &mut |e: Event| trace.push(e),
///     |_| ControlFlow::Continue(()),
/// )
/// .unwrap();
/// assert_eq!(report.solutions, 0);
/// assert_eq!(trace[0], Event::Assign { row: 0, col: 0 });
/// assert_eq!(trace[1], Event::Reject { row: 1, col: 1 });
/// assert_eq!(trace[2], Event::Backtrack { row: 1 });
/// ```
pub fn search<O, F>(
    n: usize,
    budget: &Budget<'_>,
    observer: &mut O,
    mut on_solution: F,
) -> Result<Report, SizeError>
where
    O: Observer + ?Sized,
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    check_size(n)?;
    let mut report = Report {
        status: Status::Completed,
        nodes: 0,
        rejections: 0,
        backtracks: 0,
        solutions: 0,
    };
    if n == 0 {
        observer.on_event(Event::Solution);
        report.solutions = 1;
        if on_solution(&[]).is_break() {
            report.status = Status::Stopped;
        }
        return Ok(report);
    }
    let mut perm: Vec<u32> = (0..n as u32).collect();
    // next[r]: the position in perm[r..] to try next for row r.
    let mut next = vec![0usize; n];
    let mut diag = vec![false; 2 * n - 1]; // x − y + n − 1
    let mut anti = vec![false; 2 * n - 1]; // x + y
    next[0] = 0;
    let mut row = 0usize;
    loop {
        if row == n {
            report.solutions += 1;
            observer.on_event(Event::Solution);
            if on_solution(&perm).is_break() {
                report.status = Status::Stopped;
                return Ok(report);
            }
            row -= 1;
            undo(row, n, &mut perm, &mut next, &mut diag, &mut anti);
            continue;
        }
        let offset = next[row];
        if row + offset == n {
            report.backtracks += 1;
            observer.on_event(Event::Backtrack { row });
            if row == 0 {
                return Ok(report);
            }
            row -= 1;
            undo(row, n, &mut perm, &mut next, &mut diag, &mut anti);
            continue;
        }
        if let Some(status) = budget.exhausted(report.nodes) {
            report.status = status;
            return Ok(report);
        }
        report.nodes += 1;
        perm.swap(row, row + offset);
        let x = perm[row] as usize;
        let d = x + n - 1 - row;
        let a = x + row;
        if diag[d] || anti[a] {
            report.rejections += 1;
            observer.on_event(Event::Reject {
                row,
                col: perm[row],
            });
            perm.swap(row, row + offset);
            next[row] += 1;
        } else {
            diag[d] = true;
            anti[a] = true;
            observer.on_event(Event::Assign {
                row,
                col: perm[row],
            });
            row += 1;
            if row < n {
                next[row] = 0;
            }
        }
    }
}

/// Takes back the queen of `row` and moves on to its next column.
fn undo(
    row: usize,
    n: usize,
    perm: &mut [u32],
    next: &mut [usize],
    diag: &mut [bool],
    anti: &mut [bool],
) {
    let x = perm[row] as usize;
    diag[x + n - 1 - row] = false;
    anti[x + row] = false;
    perm.swap(row, row + next[row]);
    next[row] += 1;
}

/// Calls `f` with every solution (in the search's order, see the module
/// docs) within `budget`; `f` may return [`ControlFlow::Break`] to stop.
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`MAX_N`].
pub fn for_each<F>(n: usize, budget: &Budget<'_>, f: F) -> Result<Report, SizeError>
where
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    search(n, budget, &mut NoObserver, f)
}

/// Counts the solutions within `budget` ([`Report::solutions`]; the count is
/// exact only when the status is [`Status::Completed`]).
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`MAX_N`].
pub fn count(n: usize, budget: &Budget<'_>) -> Result<Report, SizeError> {
    for_each(n, budget, |_| ControlFlow::Continue(()))
}

/// The first solution found within `budget`, if any, and the report (status
/// [`Status::Stopped`] when a solution was found, [`Status::Completed`] when
/// there is none).
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`MAX_N`].
pub fn first_solution(
    n: usize,
    budget: &Budget<'_>,
) -> Result<(Option<Vec<u32>>, Report), SizeError> {
    let mut found = None;
    let report = for_each(n, budget, |cols| {
        found = Some(cols.to_vec());
        ControlFlow::Break(())
    })?;
    Ok((found, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;
    use std::collections::BTreeSet;
    use std::time::Duration;

    #[test]
    fn finds_each_solution_once() {
        for n in 0..=9 {
            let mut seen = BTreeSet::new();
            let report = for_each(n, &Budget::unlimited(), |cols| {
                assert!(verify::check(cols).is_solution(), "{cols:?}");
                assert!(seen.insert(cols.to_vec()));
                ControlFlow::Continue(())
            })
            .unwrap();
            assert!(report.status.is_complete());
            assert_eq!(report.solutions, seen.len() as u128);
        }
    }

    #[test]
    fn events_are_consistent() {
        let mut depth = 0usize;
        let mut counts = [0u64; 4];
        let mut assigned: Vec<u32> = Vec::new();
        let report = search(
            6,
            &Budget::unlimited(),
            &mut |event: Event| match event {
                Event::Assign { row, col } => {
                    assert_eq!(row, depth);
                    assigned.push(col);
                    depth += 1;
                    counts[0] += 1;
                }
                Event::Reject { row, .. } => {
                    assert_eq!(row, depth);
                    counts[1] += 1;
                }
                Event::Backtrack { row } => {
                    assert_eq!(row, depth);
                    if row > 0 {
                        depth -= 1;
                        assigned.pop();
                    }
                    counts[2] += 1;
                }
                Event::Solution => {
                    assert_eq!(depth, 6);
                    assert!(verify::check(&assigned).is_solution());
                    depth -= 1;
                    assigned.pop();
                    counts[3] += 1;
                }
            },
            |_| ControlFlow::Continue(()),
        )
        .unwrap();
        assert_eq!(report.solutions, 4);
        assert_eq!(counts[3], 4);
        assert_eq!(counts[0] + counts[1], report.nodes);
        assert_eq!(counts[1], report.rejections);
        assert_eq!(counts[2], report.backtracks);
    }

    #[test]
    fn budgets_stop_the_search() {
        let report = count(10, &Budget::unlimited().with_max_nodes(0)).unwrap();
        assert_eq!(report.status, Status::NodeLimit);
        assert_eq!(report.nodes, 0);

        let full = count(8, &Budget::unlimited()).unwrap();
        let exact = count(8, &Budget::unlimited().with_max_nodes(full.nodes)).unwrap();
        assert_eq!(exact.status, Status::Completed);

        let flag = AtomicBool::new(true);
        let report = count(10, &Budget::unlimited().with_cancel(&flag)).unwrap();
        assert_eq!(report.status, Status::Cancelled);

        let past = Instant::now() - Duration::from_millis(1);
        let report = count(30, &Budget::unlimited().with_deadline(past)).unwrap();
        assert_eq!(report.status, Status::Deadline);

        let soon = Instant::now() + Duration::from_millis(20);
        let report = count(30, &Budget::unlimited().with_deadline(soon)).unwrap();
        assert_eq!(report.status, Status::Deadline);
        assert!(report.nodes > 0);
    }

    #[test]
    fn no_solution_boards() {
        for n in [2, 3] {
            let (sol, report) = first_solution(n, &Budget::unlimited()).unwrap();
            assert_eq!(sol, None);
            assert_eq!(report.status, Status::Completed);
        }
    }
}
