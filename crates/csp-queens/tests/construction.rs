//! The explicit construction, checked by an O(n) test written here
//! independently of the crate.

use std::time::Instant;

use csp_queens::construction::{construct, ConstructionError};
use csp_queens::verify;

/// Whether `cols` has one queen per row and no two on a column, diagonal or
/// anti-diagonal, by marking lines in three tables.
fn independent_check(cols: &[u32]) -> bool {
    let n = cols.len();
    let mut column = vec![false; n];
    let mut down = vec![false; 2 * n];
    let mut up = vec![false; 2 * n];
    for (row, &col) in cols.iter().enumerate() {
        let col = col as usize;
        if col >= n {
            return false;
        }
        let d = n + col - row;
        let u = col + row;
        if column[col] || down[d] || up[u] {
            return false;
        }
        column[col] = true;
        down[d] = true;
        up[u] = true;
    }
    true
}

#[test]
fn every_size_up_to_2000() {
    for n in (0..=2000).filter(|&n| n != 2 && n != 3) {
        let cols = construct(n).unwrap();
        assert_eq!(cols.len(), n);
        assert!(independent_check(&cols), "n = {n}: {cols:?}");
    }
    // The crate's own checker agrees on a sample.
    for n in [4, 5, 8, 9, 14, 15, 100, 1001] {
        assert!(verify::check(&construct(n).unwrap()).is_solution());
    }
}

#[test]
fn no_solution_sizes() {
    for n in [2, 3] {
        assert_eq!(construct(n), Err(ConstructionError::NoSolution { n }));
    }
}

#[test]
fn large_boards_are_fast() {
    // One size for every residue modulo 6.
    for n in 1_000_002..1_000_008 {
        assert!(independent_check(&construct(n).unwrap()), "n = {n}");
    }
    let n = 10_000_000;
    let start = Instant::now();
    let cols = construct(n).unwrap();
    let elapsed = start.elapsed();
    assert_eq!(cols.len(), n);
    assert!(independent_check(&cols));
    assert!(
        elapsed.as_secs_f64() < 0.5,
        "construct({n}) took {elapsed:?}"
    );
}
