//! `csp-mpi` under `mpirun` (feature `mpi`): totals, the generic engine,
//! journals, resuming a stopped or killed run, bad journals.
//!
//! Run with `cargo test -p csp-mpi --features mpi`. These tests need
//! `mpirun` (Debian: `openmpi-bin`, and `libopenmpi-dev` to build): without
//! it they fail, saying so, unless `CSP_SKIP_MPI=1` is set, in which case
//! they pass without running anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use csp_queens::journal::{self, Tally};

/// `mpirun`, or `None` (skip) when it is absent and `CSP_SKIP_MPI=1`.
fn mpirun() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("mpirun"))
            .find(|p| p.is_file())
    });
    match found {
        Some(p) => Some(p),
        None if std::env::var("CSP_SKIP_MPI").as_deref() == Ok("1") => {
            eprintln!("mpirun not found and CSP_SKIP_MPI=1: skipping the MPI test");
            None
        }
        None => panic!(
            "mpirun is not on the PATH: install Open MPI (Debian: apt-get install \
             openmpi-bin libopenmpi-dev libclang-dev), or set CSP_SKIP_MPI=1 to skip \
             the MPI tests"
        ),
    }
}

/// Held by each test while it runs `mpirun`: one launch at a time. Several
/// Open MPI jobs started at once on a small machine compete for its cores,
/// and the killed-run test needs its job to be running when it stops it.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static MPI: Mutex<()> = Mutex::new(());
    MPI.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `mpirun --allow-run-as-root --oversubscribe -np <np> csp-mpi <args>`.
fn command(mpirun: &Path, np: usize, args: &[&str]) -> Command {
    let mut c = Command::new(mpirun);
    c.args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(np.to_string())
        .arg(env!("CARGO_BIN_EXE_csp-mpi"))
        .args(args)
        .stdin(Stdio::null());
    c
}

fn run(mpirun: &Path, np: usize, args: &[&str]) -> Output {
    command(mpirun, np, args).output().expect("mpirun runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csp-mpirun-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The journal's counts, read and checked by the library's reader: no
/// conflict, no index out of range, nothing missing; their sum.
fn journal_total(path: &Path, n: usize, depth: usize) -> u128 {
    let text = std::fs::read_to_string(path).unwrap();
    let entries = journal::parse_text("journal", &text).unwrap();
    journal::same_split(&entries, Some((n, depth))).unwrap();
    let len = csp_queens::constellation::Split::new(n, depth)
        .unwrap()
        .len();
    let t = Tally::new(
        entries.into_iter().map(|e| (e.index, e.count, e.place)),
        len,
    );
    assert!(t.problems.is_empty(), "{:?}", t.problems);
    assert!(
        t.missing.is_empty(),
        "missing {}",
        journal::ranges(&t.missing)
    );
    t.total().unwrap()
}

#[test]
fn queens_12_and_13_with_two_workers() {
    let Some(mpirun) = mpirun() else { return };
    let _one = one_at_a_time();
    // OEIS A000170.
    for (n, known) in [("12", "14200"), ("13", "73712")] {
        let o = run(&mpirun, 3, &["queens", n, "--count"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{known}\n"));
        assert!(
            stderr(&o).contains(&format!("total matches Q({n})")),
            "{}",
            stderr(&o)
        );
    }
    // Rank 0 alone counts by itself (in a thread of its own).
    let o = run(&mpirun, 1, &["queens", "10", "--count", "--split", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "724\n");
    assert!(stderr(&o).contains("1 worker"), "{}", stderr(&o));
    // A rank 0 that does not count: two ranks count.
    let o = run(
        &mpirun,
        3,
        &["queens", "11", "--count", "--dedicated-master"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "2680\n");
    assert!(stderr(&o).contains("2 workers"), "{}", stderr(&o));
    let o = run(
        &mpirun,
        1,
        &["queens", "11", "--count", "--dedicated-master"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing would count"), "{}", stderr(&o));
}

#[test]
fn generic_engine_jobs() {
    let Some(mpirun) = mpirun() else { return };
    let _one = one_at_a_time();
    // OEIS A002860 and A000170.
    let o = run(&mpirun, 3, &["latin", "5", "--count"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "161280\n");
    assert!(stderr(&o).contains("total matches L(5)"), "{}", stderr(&o));
    let o = run(
        &mpirun,
        3,
        &[
            "queens",
            "10",
            "--count",
            "--generic",
            "--subproblems",
            "60",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "724\n");
}

#[test]
fn a_stopped_run_resumes_from_its_journal() {
    let Some(mpirun) = mpirun() else { return };
    let _one = one_at_a_time();
    let dir = scratch("stop");
    let j = dir.join("journal");
    let js = j.to_str().unwrap();
    let o = run(
        &mpirun,
        3,
        &[
            "queens",
            "12",
            "--count",
            "--split",
            "2",
            "--journal",
            js,
            "--stop-after",
            "300",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("stopped by --stop-after: 300 of"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(&j).unwrap();
    assert_eq!(text.lines().count(), 1 + 300);
    let partial: u128 = stdout(&o).trim().parse().unwrap();
    assert!(partial < 14200);

    let o = run(
        &mpirun,
        3,
        &["queens", "12", "--count", "--split", "2", "--resume", js],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "14200\n");
    assert!(
        stderr(&o).contains("(300 from the journal)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(journal_total(&j, 12, 2), 14200);

    // The journal of a generic job resumes too.
    let g = dir.join("latin");
    let gs = g.to_str().unwrap();
    let o = run(
        &mpirun,
        2,
        &[
            "latin",
            "5",
            "--count",
            "--journal",
            gs,
            "--stop-after",
            "7",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = run(&mpirun, 2, &["latin", "5", "--count", "--resume", gs]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "161280\n");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_killed_run_resumes_from_its_journal() {
    let Some(mpirun) = mpirun() else { return };
    let _one = one_at_a_time();
    let dir = scratch("kill");
    let j = dir.join("journal");
    let js = j.to_str().unwrap();
    // N = 18 (60,256 subproblems, seconds of counting): long enough to be
    // killed part-way with the constellation counter's speed.
    let args = ["queens", "18", "--count", "--split", "1", "--batch", "1"];
    let err = dir.join("stderr");
    let mut child = command(&mpirun, 3, &args)
        .args(["--journal", js])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let lines = || std::fs::read_to_string(&j).map_or(0, |t| t.lines().count());
    while lines() < 200 && start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if let Some(status) = child.try_wait().unwrap() {
        panic!(
            "mpirun ended before the kill ({status}) with {} journal lines; its stderr:\n{}",
            lines(),
            std::fs::read_to_string(&err).unwrap_or_default()
        );
    }
    // SIGTERM: mpirun passes it on to the ranks and stops them all.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let kept = lines() - 1;
    assert!(kept >= 199, "{kept} lines before the kill");
    assert!(kept < 60256, "the run finished before the kill ({status})");

    let o = run(&mpirun, 3, &[&args[..], &["--resume", js]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "666090624\n");
    assert_eq!(journal_total(&j, 18, 1), 666090624);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_journals_and_arguments_are_errors() {
    let Some(mpirun) = mpirun() else { return };
    let _one = one_at_a_time();
    let dir = scratch("bad");
    let bad = dir.join("bad");
    std::fs::write(&bad, "12 1 0 4\n12 1 x 4\n").unwrap();
    let o = run(
        &mpirun,
        3,
        &["queens", "12", "--count", "--resume", bad.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let want = format!("error: {}:2:6: index must be", bad.display());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");

    // Two counts of one subproblem: both places named.
    let conflict = dir.join("conflict");
    std::fs::write(&conflict, "12 1 3 4\n12 1 3 5\n").unwrap();
    let o = run(
        &mpirun,
        2,
        &[
            "queens",
            "12",
            "--count",
            "--resume",
            conflict.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(":2: subproblem 3 counted 5 here but 4 at"),
        "{}",
        stderr(&o)
    );

    // A bad argument: one message, not one per rank.
    let o = run(&mpirun, 3, &["queens", "40", "--count"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).matches("too large").count(), 1, "{}", stderr(&o));
    std::fs::remove_dir_all(dir).ok();
}
