//! The constellation counter from the command line, and counting in pieces:
//! `csp queens N --count --split D [--slice A..B]` and `csp queens merge`.
//! Every total is checked against OEIS A000170 (tests/data/counts.tsv).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn csp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .output()
        .expect("run csp")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Q(n) from OEIS A000170 (tests/data/counts.tsv).
fn known(n: usize) -> u128 {
    include_str!("data/counts.tsv")
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == n.to_string())
        .map(|f| f[1].parse().unwrap())
        .expect("known count")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csp-split-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The number of subproblems `--split` announces on its first line.
fn split_len(n: usize, depth: usize) -> usize {
    let o = csp(&[
        "queens",
        &n.to_string(),
        "--count",
        "--split",
        &depth.to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    let len: usize = first
        .strip_prefix("# ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("first line: {first}"));
    // One line per subproblem after the two comment lines, numbered in order.
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), len);
    for (i, row) in rows.iter().enumerate() {
        assert!(row.starts_with(&format!("{i} ")), "{row}");
    }
    len
}

/// Counts `a..b` of the split into `file`.
fn slice(n: usize, depth: usize, a: usize, b: usize, file: &Path) {
    let o = csp(&[
        "queens",
        &n.to_string(),
        "--count",
        "--split",
        &depth.to_string(),
        "--slice",
        &format!("{a}..{b}"),
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(file, &o.stdout).unwrap();
}

fn merge(files: &[&Path]) -> Output {
    let mut args = vec!["queens".to_string(), "merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    csp(&args)
}

#[test]
fn the_default_counter_matches_oeis() {
    for n in 0..=15 {
        let o = csp(&["queens", &n.to_string(), "--count", "--threads", "1"]);
        assert!(o.status.success(), "n={n}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), known(n).to_string(), "n={n}");
    }
    for n in [8, 12, 14] {
        for threads in ["2", "3"] {
            let o = csp(&[
                "queens",
                &n.to_string(),
                "--count",
                "--solver",
                "constellation",
                "--threads",
                threads,
            ]);
            assert_eq!(stdout(&o).trim(), known(n).to_string(), "n={n}");
        }
    }
}

#[test]
fn slices_merge_to_the_known_totals() {
    let dir = scratch("totals");
    for n in 8..=14 {
        for depth in [0, 1, 2] {
            let len = split_len(n, depth);
            // Three uneven slices, the last one past the end (clamped).
            let cuts = [0, len / 3, len / 3 + len / 4, len + 5];
            let files: Vec<PathBuf> = (0..3)
                .map(|k| dir.join(format!("{n}-{depth}-{k}")))
                .collect();
            for k in 0..3 {
                slice(n, depth, cuts[k], cuts[k + 1], &files[k]);
            }
            let lines: usize = files
                .iter()
                .map(|f| std::fs::read_to_string(f).unwrap().lines().count())
                .sum();
            assert_eq!(lines, len, "n={n} D={depth}");
            let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            let o = merge(&refs);
            assert!(o.status.success(), "n={n} D={depth}: {}", stderr(&o));
            assert_eq!(stdout(&o).trim(), known(n).to_string(), "n={n} D={depth}");
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn slices_are_deterministic() {
    let run = |threads: &str| {
        stdout(&csp(&[
            "queens",
            "11",
            "--count",
            "--split",
            "1",
            "--slice",
            "0..400",
            "--threads",
            threads,
        ]))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one.lines().count(), 400);
    for (i, line) in one.lines().enumerate() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(&f[..3], &["11", "1", &i.to_string()[..]], "{line}");
    }
}

#[test]
fn merge_refuses_gaps_conflicts_and_bad_lines() {
    let dir = scratch("refuse");
    let all = dir.join("all");
    slice(10, 1, 0, 100_000, &all);
    let text = std::fs::read_to_string(&all).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    // Identical duplicates are fine.
    let dup = dir.join("dup");
    std::fs::write(&dup, format!("{}\n{}\n", lines[3], lines[7])).unwrap();
    let o = merge(&[&all, &dup]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "724");

    // A missing line is named.
    let gap = dir.join("gap");
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 5)
        .map(|(_, l)| *l)
        .collect();
    std::fs::write(&gap, kept.join("\n")).unwrap();
    let o = merge(&[&gap]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing 1 of"), "{}", stderr(&o));
    assert!(stderr(&o).contains(": 5\n"), "{}", stderr(&o));

    // A conflicting duplicate is named with both places.
    let conflict = dir.join("conflict");
    let f: Vec<&str> = lines[9].split(' ').collect();
    let other: u128 = f[3].parse::<u128>().unwrap() + 8;
    std::fs::write(&conflict, format!("10 1 9 {other}\n")).unwrap();
    let o = merge(&[&all, &conflict]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("subproblem 9 counted"), "{e}");
    assert!(e.contains("conflict:1"), "{e}");

    // A wrong count without a duplicate shows in the total.
    let wrong = dir.join("wrong");
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[9] = format!("10 1 9 {other}");
    std::fs::write(&wrong, changed.join("\n")).unwrap();
    let o = merge(&[&wrong]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("differs from Q(10) = 724"),
        "{}",
        stderr(&o)
    );

    // Malformed lines: file:line:column, exit status 2.
    let bad = dir.join("bad");
    std::fs::write(&bad, format!("{}\n10 1 x 4\n", lines[0])).unwrap();
    let o = merge(&[&bad]);
    assert_eq!(o.status.code(), Some(2));
    let want = format!("error: {}:2:6: index", bad.display());
    assert!(stderr(&o).starts_with(&want), "{}", stderr(&o));
    // Lines of another split, or past its end.
    let mixed = dir.join("mixed");
    std::fs::write(&mixed, format!("{}\n11 1 0 4\n", lines[0])).unwrap();
    assert_eq!(merge(&[&mixed]).status.code(), Some(2));
    let past = dir.join("past");
    std::fs::write(&past, format!("{}\n10 1 99999 4\n", text)).unwrap();
    let o = merge(&[&past]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("index 99999 is out of range"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Counts whose sum does not fit in 128 bits are an error, not a total
/// that wrapped around: two counts of 2^128 − 1 among the 45,578
/// subproblems of n = 28 printed 45574 and exited 0 (issue 32).
#[test]
fn merge_refuses_a_total_that_overflows() {
    let dir = scratch("overflow");
    let len = split_len(28, 0);
    let mut text = String::new();
    for i in 0..len {
        let count = if i == 7 || i == 9 { u128::MAX } else { 1 };
        text.push_str(&format!("28 0 {i} {count}\n"));
    }
    let file = dir.join("counts");
    std::fs::write(&file, text).unwrap();
    let o = merge(&[&file]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        format!(
            "error: {}:8: the counts add up to more than 2^128 - 1 here (the total overflows)\n",
            file.display()
        )
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_split_options_are_one_line_errors() {
    for args in [
        vec!["queens", "10", "--count", "--slice", "0..5"],
        vec!["queens", "10", "--count", "--split", "9"],
        vec!["queens", "10", "--count", "--split", "x"],
        vec!["queens", "10", "--split", "1"],
        vec!["queens", "10", "--count", "--split", "1", "--slice", "5..2"],
        vec![
            "queens",
            "10",
            "--count",
            "--split",
            "1",
            "--slice",
            "99999..100000",
        ],
        vec!["queens", "40", "--count", "--split", "0"],
        vec!["queens", "10", "extra"],
        vec!["queens", "merge"],
        vec!["queens", "merge", "/nonexistent/file"],
        vec![
            "queens",
            "12",
            "--count",
            "--unique",
            "--solver",
            "constellation",
        ],
        vec!["queens", "10", "--count", "--unique", "--split", "1"],
        vec![
            "queens", "10", "--count", "--solver", "bitboard", "--split", "1",
        ],
    ] {
        let o = csp(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.starts_with("error: "), "{args:?}: {e}");
    }
}

#[test]
fn time_limits_stop_counts_and_slices() {
    let o = csp(&["queens", "30", "--count", "--time-limit", "0.2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("incomplete count"), "{}", stderr(&o));
    let o = csp(&[
        "queens",
        "24",
        "--count",
        "--split",
        "0",
        "--slice",
        "0..10",
        "--time-limit",
        "0.2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("incomplete slice"), "{}", stderr(&o));
}

/// The Slurm scripts of scripts/slurm run their slice and merge commands
/// locally (no Slurm needed): queens-local.sh runs every array task of
/// queens-slice.sbatch, then queens-merge.sbatch.
#[test]
fn slurm_scripts_slice_and_merge_locally() {
    let dir = scratch("slurm");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = dir.join("q11");
    let o = Command::new("bash")
        .arg(root.join("scripts/slurm/queens-local.sh"))
        .args(["11", "1", "4"])
        .arg(&out)
        .env("CSP", env!("CARGO_BIN_EXE_csp"))
        .output()
        .expect("run bash");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "2680");
    assert_eq!(
        std::fs::read_to_string(out.join("total.txt"))
            .unwrap()
            .trim(),
        "2680"
    );
    let slices = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("slice-")
        })
        .count();
    assert_eq!(slices, 4);

    // queens-submit.sh with a stand-in `sbatch` that records its arguments:
    // an array of WORKERS tasks, then a merge that depends on it.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("sbatch.log");
    std::fs::write(
        bin.join("sbatch"),
        format!("#!/bin/sh\necho \"$*\" >> '{}'\necho 4242\n", log.display()),
    )
    .unwrap();
    Command::new("chmod")
        .arg("+x")
        .arg(bin.join("sbatch"))
        .status()
        .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o = Command::new("bash")
        .arg(root.join("scripts/slurm/queens-submit.sh"))
        .args(["11", "1", "4"])
        .arg(dir.join("q11-submit"))
        .env("CSP", env!("CARGO_BIN_EXE_csp"))
        .env("PATH", path)
        .output()
        .expect("run bash");
    assert!(o.status.success(), "{}", stderr(&o));
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(calls[0].contains("--array=0-3"), "{}", calls[0]);
    assert!(calls[0].contains("queens-slice.sbatch"), "{}", calls[0]);
    assert!(
        calls[1].contains("--dependency=afterok:4242"),
        "{}",
        calls[1]
    );
    assert!(calls[1].contains("queens-merge.sbatch"), "{}", calls[1]);
    std::fs::remove_dir_all(dir).ok();
}
