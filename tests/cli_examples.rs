//! The worked examples of the constraint library (issue 11) on the
//! command line: answers, exit statuses, and positioned errors.

use std::process::Output;

mod common;
use common::{csp_stdin, text};

fn run(args: &[&str], stdin: &str) -> Output {
    csp_stdin(args, stdin)
}

/// The start times of `csp jobshop`'s output (`job J: m<M>@<start>+<d> …`).
fn starts_in(out: &str) -> Vec<Vec<i32>> {
    out.lines()
        .filter(|l| l.starts_with("job "))
        .map(|l| {
            l.split(' ')
                .skip(2)
                .map(|t| t.split(['@', '+']).nth(1).unwrap().parse().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn magic_counts_and_squares() {
    let o = run(&["magic", "3", "--count"], "");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (Some(0), "8\n")
    );
    let o = run(&["magic", "3"], "");
    assert_eq!(o.status.code(), Some(0));
    let square: Vec<i32> = text(&o.stdout)
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    csp_magic::check(3, &square).unwrap();
    for bad in ["0", "x", "101", "99999999999999999999"] {
        let o = run(&["magic", bad], "");
        assert_eq!(o.status.code(), Some(2), "magic {bad}");
        assert!(
            text(&o.stderr).contains("N must be an integer from 1 to 100"),
            "{}",
            text(&o.stderr)
        );
    }
    assert_eq!(run(&["magic", "-1"], "").status.code(), Some(2));
    // A limit says so (exit 1), never "no solution".
    let o = run(&["magic", "4", "--count", "--time-limit", "0"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("incomplete"));
}

#[test]
fn futoshiki_solves_counts_and_reports_positions() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/futoshiki/data/puzzles.txt"
    );
    let o = run(&["futoshiki", file, "--count"], "");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (Some(0), "1\n1\n1\n")
    );
    let o = run(&["futoshiki", file], "");
    assert_eq!(o.status.code(), Some(0));
    let puzzles = csp_futoshiki::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let solved = csp_futoshiki::parse(&text(&o.stdout)).unwrap();
    assert_eq!(solved.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&solved) {
        csp_futoshiki::check(p, &s.givens).unwrap();
    }
    let o = run(&["futoshiki"], ". .\nx\n. .\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:2:1: expected '^', 'v' or a space under a cell, found 'x'\n"
    );
    // Contradictory signs: no solution, a complete answer.
    let o = run(&["futoshiki"], ".<.\n^ ^\n.<.\n");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (
            Some(0),
            "no solution: the rules alone cannot hold together\n  \
             [1] r1c2 ≥ 2  by r1c1 < r1c2\n  \
             [2] r2c2 ≠ 2  by column 2 from [1]\n  \
             contradiction: r1c2 < r2c2 from [1] [2]\n"
        )
    );
    let o = run(&["futoshiki"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn golomb_proves_optima_and_reports_best_found() {
    for (n, len) in [(4, 6), (6, 17), (7, 25)] {
        let o = run(&["golomb", &n.to_string()], "");
        assert_eq!(o.status.code(), Some(0), "golomb {n}");
        let out = text(&o.stdout);
        let marks: Vec<i32> = out
            .lines()
            .next()
            .unwrap()
            .trim_start_matches("marks: ")
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        csp_golomb::check(&marks).unwrap();
        assert_eq!(marks.len(), n);
        assert!(
            out.contains(&format!("length: {len} (optimal, proven)")),
            "{out}"
        );
    }
    // Stopped by a limit: exit 1, never "optimal".
    let o = run(&["golomb", "12", "--time-limit", "0.2"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(!out.contains("optimal, proven"), "{out}");
    for bad in ["0", "41", "ten"] {
        let o = run(&["golomb", bad], "");
        assert_eq!(o.status.code(), Some(2), "golomb {bad}");
        assert!(text(&o.stderr).contains("N must be a number of marks from 1 to 40"));
    }
}

#[test]
fn jobshop_proves_ft06_and_reports_bad_files() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/jobshop/data/ft06.txt"
    );
    let o = run(&["jobshop", file], "");
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(out.ends_with("makespan: 55 (optimal, proven)\n"), "{out}");
    // Read the schedule back and check it independently.
    let shop = csp_jobshop::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(csp_jobshop::check(&shop, &starts_in(&out)), Ok(55));
    let o = run(&["jobshop"], "2 2\n0 3 1\n1 2 0 4\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:2:6: job 1 needs 2 pairs 'machine duration', found 3 numbers (a machine without its duration)\n"
    );
    let o = run(&["jobshop"], "2 2\n0 3 5 2\n1 2 0 4\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("<stdin>:2:5: a machine must be from 0 to 1, found 5"));
    // A limit: best found or unknown, exit 1.
    let la01 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/jobshop/data/la01.txt"
    );
    let o = run(&["jobshop", la01, "--time-limit", "0.05"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(!text(&o.stdout).contains("optimal, proven"));
}

/// The start times of `csp rcpsp`'s output (`job J: start .. end  …`).
fn rcpsp_starts(out: &str) -> Vec<i32> {
    out.lines()
        .filter_map(|l| l.strip_prefix("job "))
        .map(|l| {
            let (_, rest) = l.split_once(':').unwrap();
            rest.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

#[test]
fn rcpsp_proves_j301_1_and_reports_bad_files() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rcpsp/data/j301_1.sm");
    let project = csp_rcpsp::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    for args in [
        &[][..],
        &["--strength", "energetic"],
        &["--no-learning"],
        &["--no-learning", "--strength", "energetic"],
        &["--strength", "energetic-reasoning"],
        &["--no-learning", "--strength", "energetic-reasoning"],
        &["--strength", "ttef"],
        &["--no-learning", "--strength", "ttef"],
    ] {
        let o = run(&[&["rcpsp", file][..], args].concat(), "");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        // PSPLIB's optimum for j301_1 (examples/rcpsp/data/optima.csv).
        assert!(out.ends_with("makespan: 43 (optimal, proven)\n"), "{out}");
        // Read the schedule back and check it independently.
        assert_eq!(csp_rcpsp::check(&project, &rcpsp_starts(&out)), Ok(43));
    }
    // A node limit: best found (never "optimal") or unknown, exit 1.
    let hard = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/rcpsp/data/j3013_1.sm"
    );
    let o = run(&["rcpsp", hard, "--node-limit", "100", "--no-learning"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.contains("best found, not proven optimal: stopped by the node limit"));
    let hard_project = csp_rcpsp::parse(&std::fs::read_to_string(hard).unwrap()).unwrap();
    assert!(csp_rcpsp::check(&hard_project, &rcpsp_starts(&out)).is_ok());
    let o = run(&["rcpsp", hard, "--node-limit", "1"], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "unknown\n");
    assert!(text(&o.stderr).contains("no schedule found before the node limit"));
    // Errors: positioned, exit 2.
    let o = run(&["rcpsp"], "jobs (incl. supersource/sink ): 2\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).starts_with("error: <stdin>:1:1: no section 'PRECEDENCE RELATIONS:'"));
    let o = run(&["rcpsp", file, "--strength", "strong"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr)
        .contains("--strength expects timetable, energetic, energetic-reasoning or ttef"));
    // The MiniZinc data export.
    let o = run(&["rcpsp", file, "--dzn"], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), project.to_dzn());
}

#[test]
fn cryptarithm_maximize_money() {
    let o = run(
        &["cryptarithm", "SEND+MOST=MONEY", "--maximize", "MONEY"],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert_eq!(out, "9782+1094=10876\nMONEY = 10876 (maximum, proven)\n");
    // The printed equation adds up, with distinct digits (checked here
    // without the engine).
    let eq = out.lines().next().unwrap();
    let (lhs, rhs) = eq.split_once('=').unwrap();
    let sum: u64 = lhs.split('+').map(|t| t.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, rhs.parse::<u64>().unwrap());
    let o = run(
        &["cryptarithm", "SEND+MOST=MONEY", "--minimize", "money"],
        "",
    );
    assert_eq!(
        text(&o.stdout),
        "9342+1095=10437\nMONEY = 10437 (minimum, proven)\n"
    );
    let o = run(
        &["cryptarithm", "SEND+MOST=MONEY", "--maximize", "MONKEY"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("'K' of MONKEY is not a letter of the puzzle"));
}

#[test]
fn restarts_on_the_command_line() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/jobshop/data/ft06.txt"
    );
    for r in ["luby", "luby:5", "geometric", "geometric:10:2", "none"] {
        let o = run(&["jobshop", file, "--restarts", r, "--stats"], "");
        assert_eq!(o.status.code(), Some(0), "--restarts {r}");
        assert!(
            text(&o.stdout).ends_with("makespan: 55 (optimal, proven)\n"),
            "--restarts {r}"
        );
    }
    for bad in [
        "foo",
        "luby:0",
        "luby:x",
        "geometric:10:0.5",
        "geometric:1:2:3",
    ] {
        let o = run(&["golomb", "5", "--restarts", bad], "");
        assert_eq!(o.status.code(), Some(2), "--restarts {bad}");
        assert!(text(&o.stderr).contains("--restarts expects none, luby[:SCALE] or geometric"));
    }
}

#[test]
fn jobshop_lns_is_seeded_and_never_claims_without_proof() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/jobshop/data/la01.txt"
    );
    let a = run(&["jobshop", file, "--lns", "100", "--seed", "3"], "");
    let b = run(&["jobshop", file, "--lns", "100", "--seed", "3"], "");
    assert_eq!(a.status.code(), Some(1)); // best found, not proven
    assert_eq!(text(&a.stdout), text(&b.stdout)); // the same seed, the same schedule
    let out = text(&a.stdout);
    assert!(out.contains("(best found, not proven optimal"), "{out}");
    // No node limit was given: the budget that ended it is the LNS one.
    assert!(
        out.contains("stopped by the LNS iteration budget") && !out.contains("node limit"),
        "{out}"
    );
    let shop = csp_jobshop::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let makespan = csp_jobshop::check(&shop, &starts_in(&out)).unwrap();
    assert!(makespan >= 666 && out.contains(&format!("makespan: {makespan} ")));
}

#[test]
fn parallel_optimisation_gives_the_same_answer_for_any_thread_count() {
    let ft06 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/jobshop/data/ft06.txt"
    );
    let outs: Vec<String> = ["1", "2", "4"]
        .iter()
        .map(|t| {
            let o = run(&["jobshop", ft06, "--threads", t], "");
            assert_eq!(o.status.code(), Some(0));
            text(&o.stdout)
        })
        .collect();
    assert!(outs[0].ends_with("makespan: 55 (optimal, proven)\n"));
    // --threads 1 runs the subproblems too: one schedule for every count.
    assert!(outs.windows(2).all(|w| w[0] == w[1]), "{outs:?}");
    let shop = csp_jobshop::parse(&std::fs::read_to_string(ft06).unwrap()).unwrap();
    assert_eq!(csp_jobshop::check(&shop, &starts_in(&outs[0])), Ok(55));
    let golomb: Vec<String> = ["1", "2", "3", "4"]
        .iter()
        .map(|t| text(&run(&["golomb", "8", "--threads", t], "").stdout))
        .collect();
    assert!(golomb[0].contains("length: 34 (optimal, proven)"));
    assert!(golomb.windows(2).all(|w| w[0] == w[1]), "{golomb:?}");
}

#[test]
fn nonogram_solves_and_reports_positions() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/nonogram/data/csp.txt"
    );
    let o = run(&["nonogram", file], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text(&o.stdout),
        "###.###.###\n#...#...#.#\n#...###.###\n#.....#.#..\n###.###.#..\n"
    );
    let o = run(&["nonogram", file, "--count"], "");
    assert_eq!(text(&o.stdout), "1\n");
    let o = run(&["nonogram"], "rows\n1 x\ncolumns\n1\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:2:3: expected a run length from 0 to 200, found 'x'\n"
    );
    let o = run(&["nonogram"], "rows\n1\n0\ncolumns\n0\n0\n");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (
            Some(0),
            "no solution: these givens cannot hold together: row 1 (1), column 1 (0), column 2 (0)\n  \
             [1] r1c1 = blank  by column 1 (0)\n  \
             [2] r1c2 = blank  by column 2 (0)\n  \
             contradiction: row 1 (1) from [1] [2]\n"
        )
    );
}

#[test]
fn kakuro_solves_counts_and_reports_positions() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/kakuro/data/small.txt"
    );
    for alldiff in ["value", "bounds", "domain"] {
        let o = run(&["kakuro", file, "--count", "--alldiff", alldiff], "");
        assert_eq!(
            (o.status.code(), text(&o.stdout).as_str()),
            (Some(0), "1\n1\n1\n"),
            "{alldiff}"
        );
    }
    let o = run(&["kakuro", file], "");
    assert_eq!(o.status.code(), Some(0));
    let puzzles = csp_kakuro::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let solved = csp_kakuro::parse(&text(&o.stdout)).unwrap();
    assert_eq!(solved.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&solved) {
        csp_kakuro::check(p, &s.givens()).unwrap();
    }
    let o = run(&["kakuro"], "#  3\\x\n#  .\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:1:6: expected a sum from 1 to 45, found 'x'\n"
    );
    let o = run(&["kakuro", "--alldiff", "strong"], "#  3\\\n#  .\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("expected value, bounds or domain"));
    // Clues that contradict each other: no solution, a complete answer.
    let o = run(&["kakuro"], "#  3\\\n\\4 .\n");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (
            Some(0),
            "no solution: the rules alone cannot hold together\n  \
             [1] r2c2 ≥ 4  by the run across from r2c2 (sum 4)\n  \
             contradiction: the run down from r2c2 (sum 3) from [1]\n"
        )
    );
    let o = run(&["kakuro"], "% nothing\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn minesweeper_deduces_counts_and_reports_positions() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/minesweeper/data/pattern.txt"
    );
    let o = run(&["minesweeper", file], "");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (
            Some(0),
            ".*.*.\n11211\n00000\ncertain mines: 2, certain safe: 3, undecided: 0\n"
        )
    );
    let o = run(&["minesweeper", "--count"], "1??\n1??\n");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (Some(0), "8\n")
    );
    let o = run(&["minesweeper", "--count"], "mines 1\n1??\n1??\n");
    assert_eq!(text(&o.stdout), "2\n");
    let o = run(&["minesweeper"], "1?\n?x\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:2:2: expected '?', '.', '*' or a digit 0-8, found 'x'\n"
    );
    // Numbers no layout fits: no solution, a complete answer.
    let o = run(&["minesweeper"], "1?\n?3\n");
    assert_eq!(
        (o.status.code(), text(&o.stdout).as_str()),
        (
            Some(0),
            "no solution: these givens cannot hold together: r2c2=3\n  \
             [1] r2c2 = 3  given\n  \
             contradiction: the number at r2c2 from [1]\n"
        )
    );
    // A limit says so (exit 1): the undecided cells are not claimed.
    let big = format!("mines 900\n{}", format!("{}\n", "?".repeat(40)).repeat(40));
    let o = run(&["minesweeper", "--count", "--time-limit", "0.2"], &big);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("incomplete"));
}

#[test]
fn knapsack_proves_optima_and_reports_bad_files() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/knapsack/data/p01.txt"
    );
    let o = run(&["knapsack", file], "");
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(out.ends_with("value: 309 (optimal, proven)\n"), "{out}");
    // Read the choice back and check it independently.
    let k = csp_knapsack::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let items: Vec<usize> = out
        .lines()
        .find_map(|l| l.strip_prefix("items: "))
        .unwrap()
        .split(' ')
        .map(|t| t.parse().unwrap())
        .collect();
    let taken: Vec<bool> = (1..=k.items.len()).map(|i| items.contains(&i)).collect();
    assert_eq!(csp_knapsack::check(&k, &taken), Ok(309));
    // Bisection reaches the same optimum.
    let o = run(&["knapsack", file, "--val-order", "split"], "");
    assert!(text(&o.stdout).ends_with("value: 309 (optimal, proven)\n"));
    // Positioned errors, exit 2; no panic on nonsense.
    let o = run(&["knapsack"], "2 10\n3 4\n5 x\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "error: <stdin>:3:3: expected a value (an integer), found 'x'\n"
    );
    for bad in [
        "",
        "1\n",
        "1 99999999999999999999\n",
        "\u{0}\u{ff}",
        "3 5\n1 1\n",
    ] {
        let o = run(&["knapsack"], bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}
