//! `csp binpack` and `csp strippack` on the command line: proven optima
//! read back and checked independently, limits that say so, positioned
//! errors with exit status 2.

use std::process::Output;

mod common;
use common::{csp_stdin, text};

fn run(args: &[&str], stdin: &str) -> Output {
    csp_stdin(args, stdin)
}

fn data(file: &str) -> String {
    format!(
        "{}/examples/binpack/data/{file}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The bin of each item in `csp binpack`'s output (`bin B (…): i:size …`).
fn bins_in(out: &str, items: usize) -> Vec<i32> {
    let mut bins = vec![-1; items];
    for line in out.lines().filter(|l| l.starts_with("bin ")) {
        let b: i32 = line[4..].split('(').next().unwrap().trim().parse().unwrap();
        let list = line.split_once("): ").unwrap().1;
        for item in list.split(' ') {
            let i: usize = item.split(':').next().unwrap().parse().unwrap();
            bins[i - 1] = b;
        }
    }
    bins
}

#[test]
fn binpack_proves_scholl_optima_and_the_packing_checks() {
    // N1C3W1_A: first fit decreasing uses 17 bins, BPPLIB's optimum is 16
    // (examples/binpack/data/optima.csv).
    let file = data("N1C3W1_A.BPP");
    let inst = csp_binpack::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for args in [
        &[][..],
        &["--learning"],
        &["--no-symmetry"],
        &["--no-symmetry", "--learning"],
    ] {
        let o = run(&[&["binpack", file.as_str()][..], args].concat(), "");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        assert!(
            out.starts_with(
                "50 items, capacity 150: lower bound (L2) 16, first fit decreasing 17\n"
            ),
            "{out}"
        );
        assert!(out.ends_with("bins: 16 (optimal, proven)\n"), "{out}");
        assert_eq!(csp_binpack::check(&inst, &bins_in(&out, 50)), Ok(16));
    }
}

#[test]
fn a_binpack_limit_is_never_optimal() {
    let file = data("N1C1W2_A.BPP");
    let inst = csp_binpack::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let o = run(&["binpack", &file, "--node-limit", "500"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.ends_with("bins: 29 (best found, not proven optimal: stopped by the node limit)\n"),
        "{out}"
    );
    assert_eq!(csp_binpack::check(&inst, &bins_in(&out, 50)), Ok(29));
    // Stopped before the search's first packing: first fit decreasing's.
    let o = run(&["binpack", &file, "--node-limit", "1"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.ends_with(
        "bins: 29 (first fit decreasing, not proven optimal: stopped by the node limit)\n"
    ));
    assert_eq!(csp_binpack::check(&inst, &bins_in(&out, 50)), Ok(29));
    assert_eq!(
        text(&o.stderr),
        "warning: incomplete: the node limit stopped the search before its first packing\n"
    );
}

#[test]
fn binpack_bad_input_is_positioned_with_status_2() {
    for (input, message) in [
        ("3\n10\n4\n11\n5\n", "error: <stdin>:4:1: item 2 of size 11 is larger than the capacity 10: the instance is infeasible (no packing exists)\n"),
        ("3\n10\n4\n-1\n5\n", "error: <stdin>:4:1: a size must be from 0 to 1000000000, found -1\n"),
        ("3\n10\n4\n5\n", "error: <stdin>:4:1: the input ends after 2 of the 3 sizes\n"),
        ("2\n10\n4\n5\n6\n", "error: <stdin>:5:1: more sizes than the 2 items announced\n"),
        ("2\n10\n4\nfour\n", "error: <stdin>:4:1: expected a size (an integer), found 'four'\n"),
    ] {
        let o = run(&["binpack"], input);
        assert_eq!(o.status.code(), Some(2), "{input:?}");
        assert_eq!(text(&o.stderr), message);
        assert_eq!(text(&o.stdout), "");
    }
}

/// The corner of each rectangle in `csp strippack`'s drawing (top row
/// first; rectangle i drawn with the i-th of `A`–`Z`, `a`–`z`).
fn corners_in(out: &str, n: usize, width: usize) -> Vec<(i32, i32)> {
    const NAMES: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.len() == width && l.chars().all(|c| c == '.' || c.is_ascii_alphanumeric()))
        .collect();
    let h = rows.len();
    (0..n)
        .map(|i| {
            let c = NAMES.chars().nth(i).unwrap();
            let mut at = (i32::MAX, i32::MAX);
            for (r, row) in rows.iter().enumerate() {
                if let Some(x) = row.find(c) {
                    at = (at.0.min(x as i32), at.1.min((h - 1 - r) as i32));
                }
            }
            at
        })
        .collect()
}

#[test]
fn strippack_proves_hopper_turton_optima_and_the_packing_checks() {
    let file = data("C1_1.txt");
    let s = csp_binpack::strip::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for args in [&[][..], &["--learning"], &["--no-cumulative", "--learning"]] {
        let o = run(&[&["strippack", file.as_str()][..], args].concat(), "");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = text(&o.stdout);
        assert!(out.starts_with("16 rectangles, width 20: lower bound 20, shelves 25\n"));
        assert!(out.ends_with("height: 20 (optimal, proven)\n"), "{out}");
        let at = corners_in(&out, 16, 20);
        assert_eq!(csp_binpack::strip::check(&s, &at), Ok(20), "{out}");
    }
}

#[test]
fn a_strippack_limit_is_never_optimal() {
    let file = data("C1_2.txt");
    let o = run(&["strippack", &file, "--node-limit", "100"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.ends_with(
        "height: 32 (best found, not proven optimal: stopped by the node limit; \
         no packing is lower than 20)\n"
    ));
    assert!(text(&o.stderr).contains("the node limit stopped the search at height 20"));
}

#[test]
fn strippack_bad_input_is_positioned_with_status_2() {
    for (input, message) in [
        ("2\n5\n6 1\n1 1\n", "error: <stdin>:3:1: rectangle 1 of width 6 is wider than the strip (5): the instance is infeasible (no packing exists)\n"),
        ("2\n5\n1 1\n", "error: <stdin>:3:1: the input ends after 1 of the 2 rectangles\n"),
        ("1\n5\n1 x\n", "error: <stdin>:3:3: expected a height (an integer), found 'x'\n"),
    ] {
        let o = run(&["strippack"], input);
        assert_eq!(o.status.code(), Some(2), "{input:?}");
        assert_eq!(text(&o.stderr), message);
    }
}

/// Long runs show a spinner on a terminal only (as `tests/progress.rs`
/// checks for the other commands): each run here is stopped by its time
/// limit, longer than the second a spinner waits before it shows.
#[test]
fn long_runs_show_a_spinner_on_a_terminal_only() {
    let bins = data("N1C1W2_A.BPP");
    let strip = data("C2_3.txt");
    let cases: [(&[&str], String); 2] = [
        (
            &["binpack", &bins, "--time-limit", "1.5"],
            format!("bin packing of {bins}"),
        ),
        (
            &["strippack", &strip, "--time-limit", "1.5"],
            format!("strip packing of {strip}"),
        ),
    ];
    for (args, message) in &cases {
        let plain = common::csp(args);
        assert_eq!(plain.status.code(), Some(1), "{args:?}");
        assert!(!text(&plain.stderr).contains(message.as_str()), "{args:?}");
        let line = std::iter::once(env!("CARGO_BIN_EXE_csp"))
            .chain(args.iter().copied())
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let shown = match std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .output()
        {
            Ok(out) => text(&out.stdout),
            Err(_) if std::env::var("CSP_SKIP_TTY").as_deref() == Ok("1") => return,
            Err(e) => panic!("this test needs util-linux's `script` ({e}); or set CSP_SKIP_TTY=1"),
        };
        assert!(shown.contains(message.as_str()), "{args:?}: {shown}");
        let last = shown.rfind(message.as_str()).unwrap();
        assert!(
            shown[last..].contains("\u{1b}[2K"),
            "{args:?}: not cleared: {shown}"
        );
    }
}
