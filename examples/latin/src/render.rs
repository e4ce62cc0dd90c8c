//! Writing squares as text.

use crate::{symbol, Square};

/// One line per row, cells separated by single spaces, `.` for a blank; values
/// written `1`-`9`, `A`-`Z` (decimal numbers beyond 35).
///
/// This is a form [`crate::parse`] reads, so rendering and parsing round-trip.
///
/// ```
/// let s: csp_latin::Square = "12.\n...\n..1".parse().unwrap();
/// assert_eq!(csp_latin::render::text(&s), "1 2 .\n. . .\n. . 1\n");
/// ```
pub fn text(square: &Square) -> String {
    let n = square.order();
    let mut out = String::new();
    for r in 0..n {
        let row: Vec<String> = (0..n).map(|c| symbol(square.get(r, c))).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// One line per row without spaces (orders up to 35 only, one character per cell).
///
/// Returns `None` for larger orders, whose values have no single-character symbol.
///
/// ```
/// let s: csp_latin::Square = "1 2\n2 1".parse().unwrap();
/// assert_eq!(csp_latin::render::compact(&s).unwrap(), "12\n21\n");
/// ```
pub fn compact(square: &Square) -> Option<String> {
    if square.order() > 35 {
        return None;
    }
    let n = square.order();
    let mut out = String::with_capacity(n * (n + 1));
    for r in 0..n {
        for c in 0..n {
            out.push_str(&symbol(square.get(r, c)));
        }
        out.push('\n');
    }
    Some(out)
}
