//! `csp queens`: the same numbers however the run is made, and the chess
//! notation (issue 14, item 5).

use std::process::Output;

mod common;
use common::{csp, csp_stdin};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The statistics line without the times, which vary from run to run.
fn without_times(stats: &str) -> String {
    let line = stats.lines().find(|l| l.starts_with("solver: ")).unwrap();
    let cut = line
        .find(", time: ")
        .or_else(|| line.find(" (wall"))
        .unwrap();
    line[..cut].to_string()
}

#[test]
fn stats_do_not_depend_on_the_thread_count() {
    for args in [
        vec!["queens", "10", "--count", "--solver", "backtracking"],
        vec![
            "queens",
            "9",
            "--count",
            "--solver",
            "pairwise",
            "--inference",
            "mac",
        ],
        vec!["queens", "10", "--count"],
        vec!["queens", "10", "--count", "--solver", "bitboard"],
        vec!["queens", "9", "--count", "--unique", "--solver", "bitboard"],
    ] {
        let lines: Vec<String> = ["1", "2", "3", "4"]
            .iter()
            .map(|t| {
                let mut a = args.clone();
                a.extend(["--stats", "--threads", t]);
                let o = csp(&a);
                assert_eq!(o.status.code(), Some(0), "{a:?}");
                without_times(&stderr(&o))
            })
            .collect();
        assert!(lines.iter().all(|l| *l == lines[0]), "{args:?}: {lines:#?}");
    }
}

#[test]
fn default_runs_print_no_zero_threads_and_no_zero_nodes() {
    let mut runs = vec![vec![]];
    for n in ["4", "8", "12"] {
        runs.push(vec!["queens", n, "--stats"]);
        runs.push(vec!["queens", n, "--count", "--stats"]);
        runs.push(vec!["queens", n, "--count", "--unique", "--stats"]);
        runs.push(vec!["queens", n, "--all", "--stats", "--format", "columns"]);
    }
    for args in runs {
        let o = csp(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains("solver: "), "{args:?}: {e}");
        assert!(!e.contains("0 threads"), "{args:?}: {e}");
        assert!(!e.contains("nodes: 0,"), "{args:?}: {e}");
        assert!(
            !e.contains(",  ("),
            "{args:?}: an empty statistics line: {e}"
        );
    }
}

/// Reads a board printed with coordinates: ranks from the top line down to
/// rank 1, files under them; returns the squares of the queens by rank.
fn squares_of_board(board: &str) -> Vec<String> {
    let lines: Vec<&str> = board.lines().collect();
    let (files, ranks) = lines.split_last().unwrap();
    let files: Vec<&str> = files.split_whitespace().collect();
    let mut squares = vec![String::new(); ranks.len()];
    for line in ranks {
        let mut cells = line.split_whitespace();
        let rank: usize = cells.next().unwrap().parse().unwrap();
        let file = cells.position(|c| c == "Q").unwrap();
        squares[rank - 1] = format!("{}{rank}", files[file]);
    }
    squares
}

#[test]
fn boards_are_chess_diagrams_that_agree_with_a1() {
    for n in ["4", "8", "12", "30"] {
        let board = stdout(&csp(&["queens", n, "--format", "board"]));
        let a1 = stdout(&csp(&["queens", n, "--format", "a1"]));
        assert_eq!(squares_of_board(&board).join(" "), a1.trim(), "n = {n}");
    }
    // a1 is White's bottom-left corner: the first 8-queens solution has a
    // queen there, and one on d8 at the top.
    let board = stdout(&csp(&["queens", "8"]));
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "8 . . . Q . . . .");
    assert_eq!(lines[7], "1 Q . . . . . . .");
    assert_eq!(lines[8], "  a b c d e f g h");
}

#[test]
fn verify_reads_columns_a1_and_json() {
    for format in ["columns", "a1", "json"] {
        let all = csp(&["queens", "7", "--all", "--format", format]);
        let text = stdout(&all);
        assert_eq!(text.lines().count(), 40);
        let o = csp_stdin(&["queens", "--verify"], &text);
        assert_eq!(o.status.code(), Some(0), "{format}: {}", stdout(&o));
        assert_eq!(stdout(&o).matches("valid: no two").count(), 40, "{format}");
    }
    // Not solutions: exit 3; not placements: exit 2, with the position.
    let o = csp_stdin(
        &["queens", "--verify"],
        "a1 b2\n{\"n\":2,\"columns\":[1,1]}\n",
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(stdout(&o).matches("not a solution").count(), 2);
    let o = csp_stdin(&["queens", "--verify"], "a1 e2 h3 f4 c5 g6 b7 d8\na1 a1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("line 2: error: at column 4: rank 1 has a second queen"));
}

#[test]
fn trace_picks_a_solver_and_honours_count_and_stats() {
    // --all alone would pick the bitboard, which cannot trace.
    let o = csp(&["queens", "6", "--trace", "--all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(" solution\n").count(), 4);
    let o = csp(&["queens", "6", "--trace", "--count", "--stats"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("4"));
    assert_eq!(text.matches(" solution\n").count(), 4);
    let e = stderr(&o);
    assert!(
        e.contains("solver: backtracking, n: 6, solutions: 4, nodes: "),
        "{e}"
    );
    // Without --stats, no statistics.
    assert!(stderr(&csp(&["queens", "6", "--trace"])).is_empty());
    // A solver that cannot trace is refused, naming those that can.
    let o = csp(&["queens", "6", "--trace", "--solver", "bitboard"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("permutation or a teach-* solver"));
}
