//! Spinners: a run that lasts seconds shows one on stderr when stderr is a
//! terminal, and nothing when it is not (tests, pipes, the docs' outputs).
//!
//! The terminal is the pseudo-terminal of util-linux's `script`; a machine
//! without it fails these tests with a message, unless `CSP_SKIP_TTY=1`.
//! Every run here is stopped by its time limit (2 s or more), so it lasts
//! longer than the second a spinner waits before it shows.

use std::process::Command;

mod common;
use common::{csp, text};

/// The output of `csp args` run under `script`, stdout and stderr both on
/// the pseudo-terminal; `None` when `CSP_SKIP_TTY=1` and there is no
/// `script`.
fn on_a_terminal(args: &[&str]) -> Option<String> {
    run_on_a_terminal(env!("CARGO_BIN_EXE_csp"), args)
}

/// [`on_a_terminal`] for the binary `bin`.
fn run_on_a_terminal(bin: &str, args: &[&str]) -> Option<String> {
    let line = std::iter::once(bin)
        .chain(args.iter().copied())
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ");
    match Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .output()
    {
        Ok(out) => Some(text(&out.stdout)),
        Err(_) if std::env::var("CSP_SKIP_TTY").as_deref() == Ok("1") => None,
        Err(e) => panic!("these tests need util-linux's `script` ({e}); or set CSP_SKIP_TTY=1"),
    }
}

/// A scratch file holding `content`.
fn scratch(name: &str, content: &str) -> String {
    let path = std::env::temp_dir().join(format!("csp-progress-{}-{name}", std::process::id()));
    std::fs::write(&path, content).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn long_runs_show_a_spinner_on_a_terminal_only() {
    // A graph with no edge on 40 vertices: 3⁴⁰ colorings to count.
    let graph = scratch("empty.col", "p edge 40 0\n");
    // A strongly correlated knapsack (value = weight + 100) of 80 items.
    let weights: Vec<u64> = (0..80u64).map(|i| 1000 + i * 7919 % 1000).collect();
    let mut items = format!("80 {}\n", weights.iter().sum::<u64>() / 2);
    for w in &weights {
        items.push_str(&format!("{w} {}\n", w + 100));
    }
    let items = scratch("knapsack.txt", &items);
    let cases: &[(&[&str], &str)] = &[
        (
            &["magic", "6", "--count", "--time-limit", "2"],
            "magic square of order 6",
        ),
        (
            &["golomb", "14", "--time-limit", "2"],
            "Golomb ruler with 14 marks",
        ),
        (
            &[
                "jobshop",
                "examples/jobshop/data/la02.txt",
                // Plain branch and bound: learning proves la02 in 0.2 s,
                // before any spinner shows.
                "--no-learning",
                "--time-limit",
                "2",
            ],
            "job shop examples/jobshop/data/la02.txt",
        ),
        (
            &[
                "color",
                &graph,
                "--colors",
                "3",
                "--count",
                "--time-limit",
                "2",
            ],
            "counting the 3-colorings",
        ),
        (&["knapsack", &items, "--time-limit", "2"], "knapsack of"),
    ];
    for (args, message) in cases {
        let plain = csp(args);
        assert!(!text(&plain.stderr).contains(message), "{args:?}");
        let Some(shown) = on_a_terminal(args) else {
            return;
        };
        assert!(shown.contains(message), "{args:?}: {shown}");
        // The spinner is cleared before the answer is printed.
        let last = shown.rfind(message).unwrap();
        assert!(
            shown[last..].contains("\u{1b}[2K"),
            "{args:?}: the spinner is not cleared: {shown}"
        );
    }
    let _ = std::fs::remove_file(graph);
    let _ = std::fs::remove_file(items);
}

/// `fzn-csp -s` on a terminal shows a spinner while it searches, wiped
/// before the statistics; without `-s`, or off a terminal, none.
#[test]
fn fzn_csp_shows_a_spinner_with_statistics() {
    let fzn = env!("CARGO_BIN_EXE_fzn-csp");
    let model = "tests/data/fzn/pigeons.fzn"; // minutes to prove unsatisfiable
    let message = "fzn-csp: solving tests/data/fzn/pigeons.fzn";
    let plain = Command::new(fzn)
        .args(["-s", "-t", "2000", model])
        .output()
        .unwrap();
    assert!(!text(&plain.stderr).contains(message));
    assert!(text(&plain.stdout).contains("%%%mzn-stat-end"));
    let Some(shown) = run_on_a_terminal(fzn, &["-s", "-t", "2000", model]) else {
        return;
    };
    let spun = shown.find(message).expect("a spinner");
    let stats = shown.find("%%%mzn-stat:").expect("statistics");
    assert!(spun < stats, "{shown}");
    assert!(
        shown[shown.rfind(message).unwrap()..stats].contains("\u{1b}[2K"),
        "{shown}"
    );
    let quiet = run_on_a_terminal(fzn, &["-t", "2000", model]).unwrap();
    assert!(!quiet.contains(message), "{quiet}");
}
