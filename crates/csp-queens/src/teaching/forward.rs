//! Forward checking, showing the domains.
//!
//! Each row below the current one keeps a *domain*: the columns still free
//! for its queen. Putting a queen on square `(x, y)` strikes from every row
//! below the squares it attacks: column `x`, and the two diagonal squares
//! `x ± d` on the row `d` rows down. If some row is left with an empty
//! domain the queen is a dead end at once, before any queen is put on the
//! rows in between; a row left with one column has its queen *forced*.
//! The rows try only the columns left in their domain.
//!
//! `show`, when given, receives every node with the domains of the rows
//! still open, so the pruning can be watched ([`describe_domains`]).

use super::{trace_line, Run};
use crate::trace::{Mark, TraceLine};

/// What `show` receives: the node, and the domain (0-based columns) of each
/// open row, starting with row `line.depth`.
pub type Show<'a> = &'a mut dyn FnMut(&TraceLine, &[Vec<u32>]);

/// Finds the solutions of `n` queens in lexicographic order, handing each
/// to `run`, and every node with its domains to `show`.
pub fn solve(n: usize, run: &mut Run, mut show: Option<Show>) {
    let domains: Vec<Vec<u32>> = vec![(0..n as u32).collect(); n];
    if let Some(show) = show.as_mut() {
        show(&trace_line(n, &[], Mark::None), &domains);
    }
    search(n, &domains, &mut Vec::with_capacity(n), run, &mut show);
}

/// Row `cols.len()` tries each column of its domain; `domains[i]` is the
/// domain of row `cols.len() + i`. Returns `false` when the search must stop.
fn search(
    n: usize,
    domains: &[Vec<u32>],
    cols: &mut Vec<u32>,
    run: &mut Run,
    show: &mut Option<Show>,
) -> bool {
    let Some((here, below)) = domains.split_first() else {
        return run.solution(cols); // no open row left
    };
    // ANCHOR: forward_check
    for &x in here {
        if !run.node_costing((n * n) as u64) {
            return false;
        }
        // Forward check: strike what the queen on (x, row) attacks below.
        let below: Vec<Vec<u32>> = (1..)
            .zip(below)
            .map(|(d, dom)| {
                dom.iter()
                    .copied()
                    .filter(|&c| c != x && c.abs_diff(x) != d)
                    .collect()
            })
            .collect();
        let wiped_out = below.iter().any(Vec::is_empty);
        cols.push(x);
        let mark = match () {
            _ if wiped_out => Mark::Failed,
            _ if below.is_empty() => Mark::Solution,
            _ => Mark::None,
        };
        if let Some(show) = show.as_mut() {
            show(&trace_line(n, cols, mark), &below);
        }
        let go_on = wiped_out || search(n, &below, cols, run, show);
        cols.pop();
        if !go_on {
            return false;
        }
    }
    // ANCHOR_END: forward_check
    if let Some(show) = show.as_mut() {
        show(&trace_line(n, cols, Mark::Backtrack), domains);
    }
    true
}

/// The domains of the open rows `first_row + 1, …` (1-based), as printed
/// by `--trace --domains` (see [`crate::trace::describe_domains`]).
///
/// ```
/// use csp_queens::teaching::forward::describe_domains;
/// assert_eq!(describe_domains(2, &[vec![], vec![1]]), "q3 {}  q4 = 2 (forced)");
/// ```
pub fn describe_domains(first_row: usize, domains: &[Vec<u32>]) -> String {
    crate::trace::describe_domains((first_row..).zip(domains.iter().cloned()))
}
