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
    Search::new(&fzn.model).count().unwrap().count
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

/// Array sizes: 2^63 − 1 elements panicked ("capacity overflow"), 10^9
/// aborted on a 32 GB allocation, and index ranges whose length overflowed
/// were read as an empty array (printed as `array1d(1..2, [])`).
#[test]
fn array_sizes_are_checked_before_allocating() {
    let past = |n: &str, before: usize| {
        format!(
            "array 'xs' of {n} variables takes the model past csp's limit of 16777216 \
             variables ({before} before it)"
        )
    };
    assert_eq!(
        build_error("array [1..9223372036854775807] of var 0..1: xs;\nsolve satisfy;\n"),
        format!("1:1: {}", past("9223372036854775807", 0))
    );
    assert_eq!(
        build_error("array [1..1000000000] of var 0..1: xs;\nsolve satisfy;\n"),
        format!("1:1: {}", past("1000000000", 0))
    );
    // The limit is on the model: what was declared before counts.
    assert_eq!(
        build_error("var 0..1: y;\narray [1..16777216] of var 0..1: xs;\nsolve satisfy;\n"),
        format!("2:1: {}", past("16777216", 1))
    );
    // 2^64 − 1 elements: more than 64-bit arithmetic holds, not empty.
    assert_eq!(
        build_error(
            "array [-9223372036854775807..9223372036854775807] of var 0..1: xs \
             :: output_array([1..2]);\nsolve satisfy;\n"
        ),
        format!("1:1: {}", past("18446744073709551615", 0))
    );
    assert_eq!(
        build_error(
            "array [-9223372036854775808..9223372036854775807] of var 0..1: xs;\n\
             solve satisfy;\n"
        ),
        "1:1: array 'xs' has more elements than can be counted \
         ([-9223372036854775808..9223372036854775807])"
    );
    assert_eq!(
        build_error("array [1..4294967296, 1..4294967296] of var 0..1: xs;\nsolve satisfy;\n"),
        "1:1: array 'xs' has more elements than can be counted \
         ([1..4294967296, 1..4294967296])"
    );
    // A declared size that is not the value's, or the output's.
    assert_eq!(
        build_error("array [1..9223372036854775807] of int: a = [1, 2];\nsolve satisfy;\n"),
        "1:1: array 'a' is declared with 9223372036854775807 elements but given 2"
    );
    assert_eq!(
        build_error("array [1..3] of var 0..1: xs :: output_array([1..2]);\nsolve satisfy;\n"),
        "1:1: output_array of 'xs' has index ranges for 2 elements, the array has 3"
    );
    assert_eq!(
        build_error(
            "array [1..2] of var 0..1: xs :: output_array([1..9223372036854775807, 0..9]);\n\
             solve satisfy;\n"
        ),
        "1:1: output_array of 'xs' has more elements than can be counted \
         ([1..9223372036854775807, 0..9])"
    );
    // Arrays within the limit, empty ones included, build as before.
    assert_eq!(
        count("array [1..3] of var 0..1: xs :: output_array([1..3]);\nsolve satisfy;\n"),
        8
    );
    assert_eq!(
        count("array [1..0] of var 0..1: xs :: output_array([1..0]);\nsolve satisfy;\n"),
        1
    );
}

/// `fzn_among` listed its set value by value: a set written as the range
/// -2147483648..2147483647 aborted on a 34 GB allocation.
#[test]
fn among_keeps_huge_ranges_as_ranges() {
    // Clipped to the variables' values: 4..7, all four counted.
    let text = "var 0..4: n :: output_var;\n\
                constraint fzn_among(n, [4, 5, 6, 7], -2147483648..2147483647);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 1);
    let text = "var 0..4: n :: output_var;\n\
                constraint fzn_among(n, [4, 5, 6, 7], \
                -9223372036854775808..9223372036854775807);\nconstraint int_eq(n, 4);\n\
                solve satisfy;\n";
    assert_eq!(count(text), 1);
    // Of x and y in {-2147483600, 0, 2147483600}, only 0 is in the set:
    // listed as the one value of the domains in the range...
    let sparse = "{-2147483600, 0, 2147483600}";
    let among = |n: &str, domain: &str| {
        format!(
            "var {n}: n :: output_var;\n\
             var {domain}: x :: output_var;\n\
             var {domain}: y :: output_var;\n\
             constraint fzn_among(n, [x, y], -2000000000..2000000000);\n\
             constraint set_in(x, {sparse});\nconstraint set_in(y, {sparse});\n\
             solve satisfy;\n"
        )
    };
    // ... and, with variables over most of int when among is posted (too
    // many values to list), stated through bounds: n = Σ (lo ≤ xᵢ ≤ hi).
    for domain in [sparse, "-2147483600..2147483600"] {
        assert_eq!(count(&among("0..2", domain)), 9, "{domain}");
        assert_eq!(count(&among("1..1", domain)), 4, "{domain}");
        assert_eq!(count(&among("2..2", domain)), 1, "{domain}");
        assert_eq!(count(&among("0..0", domain)), 4, "{domain}");
    }
    // No variables: nothing to count.
    let none = "var 0..3: n :: output_var;\n\
                constraint fzn_among(n, [], -2147483648..2147483647);\nsolve satisfy;\n";
    assert_eq!(count(none), 1);
}

/// A linear constant at the end of `i64` (found by `tests/fuzz_fzn.rs`,
/// a number of a corpus file replaced by -9223372036854775808): negated
/// in 64 bits inside the library's expressions, it overflowed (a panic in
/// a debug build, a wrapped constant, so a wrong constraint, otherwise).
/// Beyond ±2^62 it is now a positioned error; up to it, it is solved.
#[test]
fn linear_constants_at_the_ends_of_i64() {
    let text = |k: &str| {
        format!(
            "var 0..1: b :: output_var;\narray [1..2] of var 0..3: xs :: output_array([1..2]);\n\
             constraint int_lin_le_reif([1, 1], xs, {k}, b);\nsolve satisfy;\n"
        )
    };
    for k in [
        "-9223372036854775808",
        "9223372036854775807",
        "4611686018427387905",
    ] {
        assert_eq!(
            build_error(&text(k)),
            format!(
                "3:1: int_lin_le_reif: the constant {k} of a linear constraint \
                 is beyond csp's range (±2^62)"
            )
        );
    }
    // Within the range: b is 0 (b = 1 would need x + y ≤ −2^62).
    assert_eq!(count(&text("-4611686018427387904")), 16);
    assert_eq!(count(&text("4611686018427387904")), 16);
}
