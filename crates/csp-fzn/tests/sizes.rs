//! Sizes that come from the FlatZinc text (issue 32): every one is checked
//! with arithmetic that cannot wrap and against a limit before anything of
//! that size is allocated, and a size that is too large is a positioned
//! error, never a panic or an abort.

use csp_core::Search;
use csp_fzn::{build, parse};

/// The error `text` builds to (`line:column: message`).
fn build_error(text: &str) -> String {
    let items = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    match build(&items) {
        Ok(_) => panic!("{text}: built"),
        Err(e) => e.to_string(),
    }
}

/// The number of solutions of `text`.
fn count(text: &str) -> u128 {
    let items = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let fzn = build(&items).unwrap_or_else(|e| panic!("{text}: {e}"));
    if fzn.inconsistent {
        return 0;
    }
    Search::new(&fzn.model).count().count
}

/// `Q·S` was multiplied in 64 bits: 2^32 · 2^32 wrapped to 0, the empty
/// table passed the check, and its first entry was read (index out of
/// bounds).
#[test]
fn regular_table_sizes_cannot_wrap() {
    let text = |q: &str, s: &str, d: &str| {
        format!(
            "array [1..2] of var 1..2: xs;\n\
             constraint csp_regular(xs, {q}, {s}, [{d}], 1, {{1}});\nsolve satisfy;\n"
        )
    };
    assert_eq!(
        build_error(&text("4294967296", "4294967296", "")),
        "2:1: csp_regular: the transition table has 0 entries, \
         not Q·S = 4294967296·4294967296"
    );
    assert_eq!(
        build_error(&text("9223372036854775807", "2", "1, 1")),
        "2:1: csp_regular: the transition table has 2 entries, \
         not Q·S = 9223372036854775807·2"
    );
    // With no letters the table is empty whatever Q: Q has its own limit.
    assert_eq!(
        build_error(&text("4294967296", "0", "")),
        "2:1: csp_regular: Q = 4294967296 states exceed csp's limit of 16777216"
    );
    assert_eq!(
        build_error(&text("0", "2", "")),
        "2:1: csp_regular: Q = 0 states and S = 2 letters: \
         Q must be at least 1, S at least 0"
    );
    // The accepting states as a huge range: clipped to 1..Q, not listed.
    // Words over {1, 2} without two 2s in a row: 1 1, 1 2, 2 1.
    let all = "array [1..2] of var 1..2: xs;\n\
               constraint csp_regular(xs, 2, 2, [1, 2, 1, 0], 1, -2147483648..2147483647);\n\
               solve satisfy;\n";
    assert_eq!(count(all), 3);
}
