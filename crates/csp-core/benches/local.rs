//! Min-conflicts on N-queens through the generic model, against the
//! hand-written C reference.
//!
//! The model is the one a user writes: n variables over `0..n`, an
//! all-different over `x_i`, one over `x_i + i` and one over `x_i − i`, solved
//! by `MinConflicts` with swap moves. Each size runs `REPS` times (default 3),
//! alternating with the reference program `/tmp/ref/nqueens_minconflicts`
//! when it exists (build it with `shared/reference/build.sh /tmp/ref`), and
//! the medians are compared as ratios measured in the same process on the
//! same machine.
//!
//! ```text
//! cargo bench -p csp-core --bench local               # n = 10^6 and 10^7
//! cargo bench -p csp-core --bench local -- 100000     # chosen sizes
//! ```
//!
//! Columns: `search` is the run without the final `Model::check` (the
//! reference's printed time likewise excludes its own verification),
//! `check` the check, `peak` the process's peak resident memory (VmHWM)
//! while building the model and solving, model included.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use csp_core::{Domain, MinConflicts, Model, Move, Outcome};

const REFERENCE: &str = "/tmp/ref/nqueens_minconflicts";

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    m.all_different(&q).unwrap();
    let rows: Vec<i32> = (0..n as i32).collect();
    m.all_different_offset(&q, &rows).unwrap();
    let neg: Vec<i32> = rows.iter().map(|i| -i).collect();
    drop(rows);
    m.all_different_offset(&q, &neg).unwrap();
    m
}

/// An O(n) check written for the benchmark: one queen per column and diagonal.
fn is_queens_solution(q: &[i32]) -> bool {
    let n = q.len();
    let mut col = vec![false; n];
    let mut d1 = vec![false; 2 * n];
    let mut d2 = vec![false; 2 * n];
    q.iter().enumerate().all(|(r, &c)| {
        if c < 0 || c as usize >= n {
            return false;
        }
        let (c, a, b) = (c as usize, r + c as usize, r + n - c as usize);
        let free = !col[c] && !d1[a] && !d2[b];
        (col[c], d1[a], d2[b]) = (true, true, true);
        free
    })
}

/// Peak resident memory of this process, in MiB.
fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Resets the peak to the current resident size (Linux; ignored elsewhere).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The reference's time (excluding its verification), its verification
/// time and its steps.
fn reference(n: usize) -> Option<(f64, f64, u64)> {
    if !Path::new(REFERENCE).exists() {
        return None;
    }
    let out = Command::new(REFERENCE).arg(n.to_string()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut f = stdout.split_whitespace().skip(1);
    let secs = f.next()?.parse().ok()?;
    let steps = f.next()?.parse().ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let verify = stderr
        .split_whitespace()
        .find_map(|w| w.strip_prefix("verify_s="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    Some((secs, verify, steps))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

struct Ours {
    build: f64,
    init: f64,
    search: f64,
    check: f64,
    steps: u64,
    peak: Option<f64>,
}

fn ours(n: usize, seed: u64) -> Ours {
    reset_peak();
    let t = Instant::now();
    let m = queens(n);
    let build = t.elapsed().as_secs_f64();
    let r = MinConflicts::new(&m)
        .moves(Move::Swap)
        .seed(seed)
        .time_limit(Duration::from_secs(600))
        .run()
        .expect("the queens model is a permutation");
    let peak = peak_mib();
    assert_eq!(r.outcome, Outcome::Solved, "n = {n}: {r}");
    assert!(is_queens_solution(&r.assignment), "n = {n}: not a solution");
    Ours {
        build,
        init: r.init_time.as_secs_f64(),
        search: (r.time - r.check_time).as_secs_f64(),
        check: r.check_time.as_secs_f64(),
        steps: r.steps,
        peak,
    }
}

fn main() {
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<f64>().ok())
        .map(|x| x as usize)
        .collect();
    if sizes.is_empty() {
        sizes = vec![1_000_000, 10_000_000];
    }
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    println!(
        "{:>10} {:>8} {:>8} {:>8} {:>8} {:>7} {:>9} {:>8} {:>8} {:>6} {:>8} {:>8}",
        "n",
        "model s",
        "init s",
        "search s",
        "check s",
        "steps",
        "peak MiB",
        "ref s",
        "ref vfy",
        "ref st",
        "search/r",
        "+check/r"
    );
    for n in sizes {
        let mut runs = Vec::new();
        let mut refs = Vec::new();
        for rep in 0..reps {
            if let Some(r) = reference(n) {
                refs.push(r);
            }
            runs.push(ours(n, rep as u64 + 1));
        }
        let med = |f: &dyn Fn(&Ours) -> f64| median(runs.iter().map(f).collect());
        let (search, check) = (med(&|o| o.search), med(&|o| o.check));
        let peak = runs.iter().filter_map(|o| o.peak).fold(0.0, f64::max);
        let steps = runs.iter().map(|o| o.steps).max().unwrap_or(0);
        let (ref_s, ref_v) = if refs.is_empty() {
            (f64::NAN, f64::NAN)
        } else {
            (
                median(refs.iter().map(|r| r.0).collect()),
                median(refs.iter().map(|r| r.1).collect()),
            )
        };
        let ref_steps = refs.iter().map(|r| r.2).max().unwrap_or(0);
        println!(
            "{:>10} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>7} {:>9.0} {:>8.3} {:>8.3} {:>6} {:>8.2} {:>8.2}",
            n,
            med(&|o| o.build),
            med(&|o| o.init),
            search,
            check,
            steps,
            peak,
            ref_s,
            ref_v,
            ref_steps,
            search / ref_s,
            (search + check) / (ref_s + ref_v)
        );
    }
}
