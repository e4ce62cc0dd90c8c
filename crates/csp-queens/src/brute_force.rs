//! Generate and test, for teaching: every one of the `n^n` ways to give each
//! row a column, in odometer order, each tested with
//! [`verify::Checker`](crate::verify::Checker).
//!
//! The arrangements are visited like the readings of an odometer whose last
//! row is the fastest wheel: `[0,0,…,0]`, `[0,0,…,1]`, …, `[n−1,…,n−1]`,
//! which is lexicographic order, so solutions come out in lexicographic
//! order too. The numbers grow quickly: 16 777 216 arrangements for `n = 8`
//! hold 92 solutions, and `n = 10` already has 10^10 arrangements; a
//! [`Budget`] (counting arrangements as nodes) keeps that in check, and the
//! [`Report`] says how far the search got.
//!
//! ```
//! use csp_queens::brute_force::count;
//! use csp_queens::permutation::{Budget, Status};
//!
//! let report = count(5, &Budget::unlimited()).unwrap();
//! assert_eq!(report.solutions, 10);
//! assert_eq!(report.tried, 3125);
//! assert_eq!(report.total, Some(3125));
//!
//! let partial = count(8, &Budget::unlimited().with_max_nodes(1_000_000)).unwrap();
//! assert_eq!(partial.status, Status::NodeLimit);
//! assert_eq!(partial.tried, 1_000_000);
//! assert!((partial.fraction() - 1e6 / 16_777_216.0).abs() < 1e-12);
//! ```

use std::fmt;
use std::ops::ControlFlow;

use crate::permutation::{check_size, Budget, SizeError, Status};
use crate::verify::Checker;

/// What a brute-force search did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// How the search ended.
    pub status: Status,
    /// Arrangements tested.
    pub tried: u128,
    /// Solutions among them.
    pub solutions: u128,
    /// `n^n`, the number of arrangements, if it fits in `u128` (up to
    /// `n = 26`).
    pub total: Option<u128>,
    /// `log10(n^n)`, usable for every `n` (0 for `n = 0`).
    pub total_log10: f64,
}

impl Report {
    /// The fraction of all arrangements tested, between 0 and 1 (it may
    /// underflow to 0 when `n^n` is astronomically large).
    pub fn fraction(&self) -> f64 {
        match self.total {
            Some(total) => self.tried as f64 / total as f64,
            None if self.tried == 0 => 0.0,
            None => 10f64.powf((self.tried as f64).log10() - self.total_log10),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} solution(s) in {} of ",
            self.status, self.solutions, self.tried
        )?;
        match self.total {
            Some(total) => write!(f, "{total}")?,
            None => write!(f, "about 10^{:.1}", self.total_log10)?,
        }
        write!(f, " arrangements ({:.3e} of all)", self.fraction())
    }
}

/// `n^n` if it fits in `u128`.
///
/// ```
/// use csp_queens::brute_force::arrangements;
/// assert_eq!(arrangements(0), Some(1));
/// assert_eq!(arrangements(8), Some(16_777_216));
/// assert!(arrangements(26).is_some());
/// assert_eq!(arrangements(27), None);
/// ```
pub fn arrangements(n: usize) -> Option<u128> {
    let base = u128::try_from(n).ok()?;
    let exp = u32::try_from(n).ok()?;
    base.checked_pow(exp)
}

/// Runs the search, calling `f` with every solution (0-based columns per
/// row) in lexicographic order; `f` may return [`ControlFlow::Break`] to stop
/// ([`Status::Stopped`]). The budget's node limit counts arrangements.
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`crate::permutation::MAX_N`].
pub fn for_each<F>(n: usize, budget: &Budget<'_>, mut f: F) -> Result<Report, SizeError>
where
    F: FnMut(&[u32]) -> ControlFlow<()>,
{
    check_size(n)?;
    let mut report = Report {
        status: Status::Completed,
        tried: 0,
        solutions: 0,
        total: arrangements(n),
        total_log10: if n == 0 {
            0.0
        } else {
            n as f64 * (n as f64).log10()
        },
    };
    let mut checker = Checker::new(n);
    let mut cols = vec![0u32; n];
    let top = n as u32; // one past the largest column
    let mut nodes: u64 = 0;
    loop {
        if let Some(status) = budget.exhausted(nodes) {
            report.status = status;
            return Ok(report);
        }
        nodes = nodes.saturating_add(1);
        report.tried += 1;
        if checker.is_solution(&cols) {
            report.solutions += 1;
            if f(&cols).is_break() {
                report.status = Status::Stopped;
                return Ok(report);
            }
        }
        // Advance the odometer; finished when every wheel wraps around.
        let mut wheel = n;
        loop {
            if wheel == 0 {
                return Ok(report);
            }
            wheel -= 1;
            cols[wheel] += 1;
            if cols[wheel] < top {
                break;
            }
            cols[wheel] = 0;
        }
    }
}

/// Counts the solutions within `budget` (exact when the status is
/// [`Status::Completed`]).
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`crate::permutation::MAX_N`].
pub fn count(n: usize, budget: &Budget<'_>) -> Result<Report, SizeError> {
    for_each(n, budget, |_| ControlFlow::Continue(()))
}

/// The lexicographically first solution, if one is found within `budget`.
///
/// # Errors
///
/// [`SizeError`] if `n` exceeds [`crate::permutation::MAX_N`].
///
/// ```
/// use csp_queens::brute_force::first_solution;
/// use csp_queens::permutation::Budget;
/// let (sol, _) = first_solution(6, &Budget::unlimited()).unwrap();
/// assert_eq!(sol, Some(vec![1, 3, 5, 0, 2, 4]));
/// ```
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

    #[test]
    fn tiny_boards() {
        let r = count(0, &Budget::unlimited()).unwrap();
        assert_eq!((r.tried, r.solutions, r.total), (1, 1, Some(1)));
        let r = count(1, &Budget::unlimited()).unwrap();
        assert_eq!((r.tried, r.solutions), (1, 1));
        let r = count(3, &Budget::unlimited()).unwrap();
        assert_eq!((r.tried, r.solutions, r.status), (27, 0, Status::Completed));
    }

    #[test]
    fn huge_boards_report_without_overflow() {
        let r = count(1000, &Budget::unlimited().with_max_nodes(10)).unwrap();
        assert_eq!(r.tried, 10);
        assert_eq!(r.total, None);
        assert!((r.total_log10 - 3000.0).abs() < 1e-9);
        assert_eq!(r.fraction(), 0.0);
        assert!(r.to_string().contains("10^3000.0"));
        let r = count(30, &Budget::unlimited().with_max_nodes(10)).unwrap();
        let expect = 10f64.powf(1.0 - 30.0 * 30f64.log10());
        assert!((r.fraction() / expect - 1.0).abs() < 1e-9);
    }

    #[test]
    fn odometer_order_is_lexicographic() {
        let mut previous: Option<Vec<u32>> = None;
        let r = for_each(6, &Budget::unlimited(), |cols| {
            if let Some(p) = &previous {
                assert!(p.as_slice() < cols);
            }
            previous = Some(cols.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(r.solutions, 4);
        assert_eq!(r.tried, 46_656);
    }
}
