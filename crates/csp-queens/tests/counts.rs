//! Counts and enumerations of every algorithm against the known sequences
//! (OEIS A000170 and A002562) read from `tests/data/counts.tsv`.

use std::ops::ControlFlow;

use csp_queens::permutation::{Budget, Status};
use csp_queens::{bitboard, brute_force, permutation, symmetry, verify};

/// (n, total, unique) rows of the data file.
fn expected() -> Vec<(usize, u128, u128)> {
    let text = include_str!("data/counts.tsv");
    let mut rows = Vec::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "bad line {line:?}");
        rows.push((
            fields[0].parse().unwrap(),
            fields[1].parse().unwrap(),
            fields[2].parse().unwrap(),
        ));
    }
    assert!(rows.len() >= 17);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.0, i, "rows are n = 0, 1, 2, ...");
    }
    rows
}

fn expected_total(n: usize) -> u128 {
    expected()[n].1
}

#[test]
fn the_known_totals_are_the_data_file() {
    let totals: Vec<u128> = expected().iter().map(|r| r.1).collect();
    assert_eq!(totals, csp_queens::journal::A000170);
}

#[test]
fn data_file_matches_oeis_prefix() {
    let rows = expected();
    let totals: Vec<u128> = rows[1..=12].iter().map(|r| r.1).collect();
    assert_eq!(totals, [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]);
    let uniques: Vec<u128> = rows[1..=12].iter().map(|r| r.2).collect();
    assert_eq!(uniques, [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]);
}

#[test]
fn bitboard_counts() {
    for (n, total, unique) in expected().into_iter().take(14) {
        for threads in [1, 2, 3] {
            let counts = bitboard::count_both(n, threads).unwrap();
            assert_eq!(counts.total, total, "count n={n} threads={threads}");
            assert_eq!(counts.unique, unique, "unique n={n} threads={threads}");
        }
        assert_eq!(bitboard::count(n, 0).unwrap(), total);
        assert_eq!(bitboard::count_unique(n, 0).unwrap(), unique);
        assert_eq!(bitboard::count_mirror(n).unwrap(), total, "mirror n={n}");
        assert_eq!(bitboard::count_plain(n).unwrap(), total, "plain n={n}");
    }
}

#[test]
fn bitboard_larger_counts() {
    // Exercises many tasks and the rare tied rotations on bigger boards.
    let rows = expected();
    for n in [14, 15] {
        let counts = bitboard::count_both(n, 2).unwrap();
        assert_eq!(
            (counts.total, counts.unique),
            (rows[n].1, rows[n].2),
            "n={n}"
        );
    }
    assert_eq!(bitboard::count_mirror(14).unwrap(), rows[14].1);
}

#[test]
fn permutation_counts() {
    for (n, total, _) in expected().into_iter().take(13) {
        let report = permutation::count(n, &Budget::unlimited()).unwrap();
        assert_eq!(report.status, Status::Completed);
        assert_eq!(report.solutions, total, "permutation n={n}");
    }
}

#[test]
fn brute_force_counts() {
    // n^n arrangements: n = 8 is 16.7 million, the largest tested here.
    for (n, total, _) in expected().into_iter().take(9) {
        let report = brute_force::count(n, &Budget::unlimited()).unwrap();
        assert_eq!(report.status, Status::Completed);
        assert_eq!(report.solutions, total, "brute force n={n}");
        assert_eq!(Some(report.tried), brute_force::arrangements(n));
    }
}

fn all_solutions(n: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let flow = bitboard::for_each_solution(n, |cols| {
        out.push(cols.to_vec());
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(flow, ControlFlow::Continue(()));
    out
}

#[test]
fn enumeration_is_verified_and_lexicographic() {
    for n in 0..=10 {
        let sols = all_solutions(n);
        assert_eq!(sols.len() as u128, expected_total(n), "n={n}");
        for cols in &sols {
            assert_eq!(cols.len(), n);
            let verdict = verify::check(cols);
            assert!(verdict.is_solution(), "n={n} {cols:?}: {verdict}");
        }
        for pair in sols.windows(2) {
            assert!(pair[0] < pair[1], "n={n}: not strictly increasing");
        }
        // The parallel collection gives the same sequence for every pool.
        for threads in [1, 2, 3] {
            assert_eq!(bitboard::collect_solutions(n, threads).unwrap(), sols);
        }
        // Brute force enumerates in the same (lexicographic) order.
        if n <= 7 {
            let mut brute = Vec::new();
            brute_force::for_each(n, &Budget::unlimited(), |cols| {
                brute.push(cols.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(brute, sols, "brute force n={n}");
        }
        // The permutation search finds the same set, in its own order.
        let mut perm = Vec::new();
        permutation::for_each(n, &Budget::unlimited(), |cols| {
            perm.push(cols.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        perm.sort();
        assert_eq!(perm, sols, "permutation n={n}");
    }
}

#[test]
fn first_eight_queens_solution() {
    let sols = all_solutions(8);
    let one_based: Vec<u32> = sols[0].iter().map(|c| c + 1).collect();
    assert_eq!(one_based, [1, 5, 8, 6, 3, 7, 2, 4]);
    let (brute, _) = brute_force::first_solution(8, &Budget::unlimited()).unwrap();
    assert_eq!(brute.as_deref(), Some(&sols[0][..]));
    // Stopping early reports Break.
    let mut seen = 0;
    let flow = bitboard::for_each_solution(8, |_| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!((flow, seen), (ControlFlow::Break(()), 3));
}

#[test]
fn unique_representatives() {
    for (n, total, unique) in expected().into_iter().take(12) {
        let mut reps = Vec::new();
        let flow = bitboard::for_each_unique(n, |cols| {
            reps.push(cols.to_vec());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(flow, ControlFlow::Continue(()));
        assert_eq!(reps.len() as u128, unique, "n={n}");
        for pair in reps.windows(2) {
            assert!(pair[0] < pair[1]);
        }
        // Each representative is canonical, and the orbits partition all
        // solutions.
        let mut orbit_total = 0u128;
        for rep in &reps {
            assert!(verify::check(rep).is_solution());
            assert_eq!(&symmetry::canonical(rep).unwrap(), rep);
            let size = symmetry::orbit_size(rep).unwrap();
            if n >= 2 {
                assert!([2, 4, 8].contains(&size), "n={n} orbit {size}");
            }
            orbit_total += u128::from(size);
        }
        assert_eq!(orbit_total, total, "n={n}");
        // The same classes by brute force over all solutions.
        let mut canon: Vec<Vec<u32>> = all_solutions(n)
            .iter()
            .map(|s| symmetry::canonical(s).unwrap())
            .collect();
        canon.sort();
        canon.dedup();
        assert_eq!(canon, reps, "n={n}");
    }
}

#[test]
fn counts_do_not_depend_on_threads_for_bigger_boards() {
    let one = bitboard::count_both(13, 1).unwrap();
    for threads in [2, 3, 0] {
        assert_eq!(bitboard::count_both(13, threads).unwrap(), one);
    }
    let a = bitboard::collect_solutions(11, 1).unwrap();
    let b = bitboard::collect_solutions(11, 3).unwrap();
    assert_eq!(a, b);
}
