//! `csp queens`: how much memory a board needs at least, checked before
//! anything is allocated (`csp queens 2147483647` grew to 24 GB).

/// What the memory floor depends on in a `csp queens` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeKind {
    /// `--compare`: every solver in turn, the genetic population and the
    /// pairwise model included.
    Compare,
    /// `--solver min-conflicts`.
    MinConflicts,
    /// `--solver genetic`.
    Genetic,
    /// `--solver pairwise`.
    Pairwise,
    /// `--solver backtracking`: the generic engine.
    Engine,
    /// Any other solver (the columns only).
    Other,
}

/// A lower bound on the memory `csp queens` needs, in bytes (`None` on
/// overflow), and the option to change when it cannot fit. Only what is
/// certain counts: the columns (4 bytes a row), the printed solution (its
/// column numbers, and 2 bytes a square for a `board`), the local searches'
/// arrays (measured 45-48 bytes a queen for min-conflicts at n = 10^6 and
/// 4·10^6; a genetic population of 100 boards), the generic engine's
/// model and search state (measured 290-310 bytes a queen for a count and
/// 1,250 for a first solution at n = 10^6 and 4·10^6; 200 are counted) and
/// the pairwise model's 3n(n-1)/2 constraints.
pub fn memory_floor(
    n: usize,
    kind: SizeKind,
    board: bool,
    count: bool,
) -> (Option<u128>, &'static str) {
    let n = n as u128;
    let compare = kind == SizeKind::Compare;
    let per_queen: u128 = match kind {
        SizeKind::Compare | SizeKind::Genetic => 400,
        SizeKind::MinConflicts => 32,
        SizeKind::Engine | SizeKind::Pairwise => 200,
        _ => 4,
    };
    let pairwise = matches!(kind, SizeKind::Pairwise | SizeKind::Compare);
    let printed = !count && !compare;
    let board = board && printed;
    let need = (|| {
        let mut total = n.checked_mul(per_queen)?;
        if printed {
            // The columns 1..=n once each, with a separator.
            total = total.checked_add(decimal_digits_up_to(n)?.checked_add(n)?)?;
        }
        if pairwise {
            // 3n(n-1)/2 constraints of at least 8 bytes each.
            total = total.checked_add(n.checked_mul(n.saturating_sub(1))?.checked_mul(12)?)?;
        }
        if board {
            total = total.checked_add(n.checked_mul(n)?.checked_mul(2)?)?;
        }
        Some(total)
    })();
    let change = if board {
        "use a smaller N, or --format columns"
    } else {
        "use a smaller N"
    };
    (need, change)
}

/// The number of decimal digits in 1, 2, ..., n together (`None` on
/// overflow).
fn decimal_digits_up_to(n: u128) -> Option<u128> {
    let (mut total, mut low, mut digits) = (0u128, 1u128, 1u128);
    while low <= n {
        let high = low.checked_mul(10)?.min(n + 1);
        total = total.checked_add((high - low).checked_mul(digits)?)?;
        low = high;
        digits += 1;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_floors() {
        assert_eq!(decimal_digits_up_to(0), Some(0));
        assert_eq!(decimal_digits_up_to(9), Some(9));
        assert_eq!(decimal_digits_up_to(10), Some(11));
        assert_eq!(decimal_digits_up_to(100), Some(9 + 180 + 3));
        // 8 queens printed as columns: 8 digits, 8 separators, 32 bytes of columns.
        assert_eq!(memory_floor(8, SizeKind::Other, false, false).0, Some(48));
        // A count prints no board.
        assert_eq!(memory_floor(8, SizeKind::Other, true, true).0, Some(32));
        let (need, change) = memory_floor(100_000, SizeKind::Other, true, false);
        assert!(need.unwrap() > 20_000_000_000);
        assert_eq!(change, "use a smaller N, or --format columns");
        assert_eq!(
            memory_floor(usize::MAX, SizeKind::Pairwise, false, true).0,
            None
        );
        // The generic engine's 2^32 rows: 800 GiB at least (a 64 GiB
        // allocation aborted past a floor of 16 GiB).
        assert_eq!(
            memory_floor(1 << 32, SizeKind::Engine, false, true).0,
            Some(200 << 32)
        );
    }
}
