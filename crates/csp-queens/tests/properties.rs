//! Property tests of the checker, the `columns` format and the symmetries.

use proptest::prelude::*;

use csp_queens::render::{render, Format};
use csp_queens::symmetry::{self, Symmetry};
use csp_queens::verify::{self, Checker, Line};

/// Random placements of up to 12 rows, with some columns off the board.
fn placement() -> impl Strategy<Value = Vec<u32>> {
    (0usize..=12).prop_flat_map(|n| prop::collection::vec(0u32..(n as u32 + 2), n))
}

/// Random permutations of up to 16 columns.
fn permutation() -> impl Strategy<Value = Vec<u32>> {
    (0usize..=16).prop_flat_map(|n| Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle())
}

proptest! {
    #[test]
    fn check_lists_every_pair_sharing_a_line(cols in placement()) {
        let n = cols.len() as i64;
        let mut expected = Vec::new();
        for i in 0..cols.len() {
            for k in i + 1..cols.len() {
                let (xi, xk) = (i64::from(cols[i]), i64::from(cols[k]));
                if xi >= n || xk >= n {
                    continue;
                }
                let (yi, yk) = (i as i64, k as i64);
                if xi == xk {
                    expected.push((i, k, Line::Column));
                }
                if xi - yi == xk - yk {
                    expected.push((i, k, Line::Diagonal));
                }
                if xi + yi == xk + yk {
                    expected.push((i, k, Line::AntiDiagonal));
                }
            }
        }
        let verdict = verify::check(&cols);
        let got: Vec<_> = verdict.conflicts.iter().map(|c| (c.first, c.second, c.line)).collect();
        prop_assert_eq!(got, expected);
        prop_assert_eq!(verdict.is_solution(), Checker::new(cols.len()).is_solution(&cols));
    }

    #[test]
    fn columns_format_round_trips(cols in permutation()) {
        prop_assume!(!cols.is_empty());
        let text = render(&cols, Format::Columns);
        prop_assert_eq!(verify::parse_columns_line(&text).unwrap(), cols);
    }

    #[test]
    fn parse_errors_point_at_the_bad_token(
        good in prop::collection::vec(1u32..=3, 3..6),
        bad in "[a-z]{1,3}",
        at in 0usize..3,
    ) {
        let mut tokens: Vec<String> = good.iter().map(u32::to_string).collect();
        tokens.insert(at, bad.clone());
        let line = tokens.join("  ");
        let position = line.find(&bad).unwrap() + 1;
        prop_assert_eq!(
            verify::parse_columns_line(&line),
            Err(verify::ParseError::NotANumber { position, token: bad })
        );
    }

    #[test]
    fn symmetries_form_the_dihedral_group(cols in permutation()) {
        let canonical = symmetry::canonical(&cols).unwrap();
        let stabilizer = symmetry::stabilizer(&cols).unwrap();
        prop_assert_eq!(8 % stabilizer.len(), 0);
        let orbit = symmetry::orbit_size(&cols).unwrap();
        prop_assert_eq!(orbit as usize * stabilizer.len(), 8);
        let mut distinct = std::collections::BTreeSet::new();
        for sym in Symmetry::ALL {
            let image = sym.apply(&cols).unwrap();
            // Images are permutations with the same canonical form, and
            // symmetries keep solutions solutions.
            prop_assert_eq!(symmetry::canonical(&image).unwrap(), canonical.clone());
            prop_assert_eq!(
                verify::check(&image).is_solution(),
                verify::check(&cols).is_solution()
            );
            prop_assert!(canonical <= image);
            distinct.insert(image);
        }
        prop_assert_eq!(distinct.len(), orbit as usize);
    }
}
