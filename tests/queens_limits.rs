//! `--time-limit` is honoured by every `csp queens` solver: each one runs on
//! a board it cannot finish (or can only just finish) within a short limit,
//! and must be back within twice the limit plus a generous slack for
//! starting the process and building the model on a busy machine (a run
//! past the bound is tried once more before it counts: CI machines are
//! shared, and a load of 20 on two cores stretches every start-up). This
//! is the one kind of timing check in the suite: an upper bound on a limit
//! being honoured, not a measure of speed; the bug it guards against ran
//! past a minute.

use std::process::Command;
use std::time::{Duration, Instant};

/// The limit given to every run.
const LIMIT: f64 = 1.0;
/// What the bound allows beyond twice the limit: 30 s, still half the
/// minute the guarded bug ran past, and three times the 10 s that a
/// loaded CI machine's start-ups came close to.
const SLACK: Duration = Duration::from_secs(30);

/// Every solver of `csp queens --solver`, with a run it cannot finish in
/// time: a count on a large board for the exact ones, one solution on a
/// large board for the others (min-conflicts and the construction may well
/// finish: the bound holds either way).
const RUNS: [(&str, &str); 17] = [
    ("backtracking", "40 --count"),
    ("pairwise", "40 --count"),
    ("permutation", "40 --count"),
    ("brute-force", "40 --count"),
    ("bitboard", "40 --count"),
    ("constellation", "30 --count"),
    ("min-conflicts", "1000000 --format columns"),
    ("genetic", "300"),
    ("construction", "1000000 --format columns"),
    ("teach-sets", "40 --count"),
    ("teach-stack", "40 --count"),
    ("teach-bits", "40 --count"),
    ("teach-nn", "40 --count"),
    ("teach-perm", "40 --count"),
    ("teach-fc", "40 --count"),
    // Before, 2000 queens ran past a minute: the clock was read every
    // 4096 moves of O(n²) each.
    ("teach-min-conflicts", "2000 --format columns"),
    ("teach-genetic", "2000 --format columns"),
];

#[test]
fn every_solver_stops_within_twice_its_time_limit() {
    let bound = Duration::from_secs_f64(2.0 * LIMIT) + SLACK;
    let mut late = Vec::new();
    for (solver, rest) in RUNS {
        let limit = LIMIT.to_string();
        let mut args = vec!["queens", "--solver", solver, "--time-limit", &limit];
        args.extend(rest.split_whitespace());
        let run = || {
            let start = Instant::now();
            let o = Command::new(env!("CARGO_BIN_EXE_csp"))
                .args(&args)
                .output()
                .expect("run csp");
            (o, start.elapsed())
        };
        let (mut o, mut took) = run();
        if took > bound {
            (o, took) = run();
        }
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        // Done (0) or stopped by the limit (1), never an error.
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {:?} {err}",
            o.status
        );
        if o.status.code() == Some(1) {
            assert!(err.contains("incomplete"), "{args:?}: {err}");
            // A count cut short prints a lower bound.
            if rest.contains("--count") {
                assert!(out.starts_with(">="), "{args:?}: {out}");
            }
        }
        if took > bound {
            late.push(format!("{solver} ({rest}): {took:?}"));
        }
    }
    assert!(
        late.is_empty(),
        "past {bound:?} with --time-limit {LIMIT}: {late:?}"
    );
}
