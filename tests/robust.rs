//! Command-line edge cases (issue 16): closed pipes and full disks, the
//! exit-status convention, limits that stop a search, thread counts, sizes
//! that cannot fit, empty and binary input. Every run here is bounded in time.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_csp");

/// Waits for `child`, killing it (and failing the test) after `limit`.
fn wait_within(mut child: Child, what: &str, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait for csp").is_none() {
        if start.elapsed() > limit {
            child.kill().ok();
            panic!("csp {what} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().expect("csp output")
}

/// Runs `csp args` with `input` on stdin, within 30 seconds.
fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run csp");
    let mut stdin = child.stdin.take().unwrap();
    // csp may exit before it reads everything (bad input, options errors).
    let _ = stdin.write_all(input);
    drop(stdin);
    wait_within(child, &format!("{args:?}"), Duration::from_secs(30))
}

fn csp(args: &[&str]) -> Output {
    run(args, b"")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn data(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    p.to_str().unwrap().to_string()
}

/// One run of every subcommand that prints something, with its stdin.
fn printing_commands() -> Vec<(Vec<String>, &'static str)> {
    let myciel3 = data("examples/coloring/tests/data/myciel3.col");
    let mut v: Vec<(Vec<&str>, &'static str)> = vec![
        (vec![], ""),
        (vec!["queens", "8"], ""),
        (vec!["queens", "8", "--count"], ""),
        (
            vec!["queens", "8", "--count", "--solver", "backtracking"],
            "",
        ),
        (vec!["queens", "8", "--all", "--format", "columns"], ""),
        (vec!["queens", "6", "--compare", "--time-limit", "0.2"], ""),
        (vec!["queens", "4", "--trace"], ""),
        (vec!["queens", "--verify"], "2 4 1 3\n"),
        (vec!["queens", "20", "--solver", "min-conflicts"], ""),
        (
            vec!["sudoku"],
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        ),
        (
            vec!["sudoku", "--count"],
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        ),
        (vec!["color", "--map", "us", "--colors", "3", "--count"], ""),
        (vec!["color", "--map", "australia", "--colors", "3"], ""),
        (vec!["color", "--map", "australia"], ""),
        (vec!["cryptarithm", "SEND+MORE=MONEY"], ""),
        (vec!["zebra", "--table"], ""),
        (vec!["latin", "4", "--count"], ""),
        (vec!["latin", "-"], "1 . .\n. . .\n. . .\n"),
        (vec!["--help"], ""),
    ];
    v.push((vec!["color", &myciel3, "--colors", "4"], ""));
    v.into_iter()
        .map(|(a, i)| (a.into_iter().map(String::from).collect(), i))
        .collect()
}

/// A reader that closes the pipe at once ends csp quietly with status 0;
/// before, `println!` panicked (status 101).
#[test]
fn closed_stdout_ends_quietly() {
    for (args, input) in printing_commands() {
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run csp");
        drop(child.stdout.take()); // the reader is gone before csp writes
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input.as_bytes());
        drop(stdin);
        let o = wait_within(child, &format!("{args:?}"), Duration::from_secs(30));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
}

/// A full disk gets one line on stderr and status 2, whatever the subcommand.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_gets_one_line_error() {
    for (args, input) in printing_commands() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let mut child = Command::new(BIN)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .spawn()
            .expect("run csp");
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input.as_bytes());
        drop(stdin);
        let o = wait_within(child, &format!("{args:?}"), Duration::from_secs(30));
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let errors: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(
            errors,
            ["error: writing to standard output: No space left on device (os error 28)"],
            "{args:?}: {err}"
        );
    }
}
