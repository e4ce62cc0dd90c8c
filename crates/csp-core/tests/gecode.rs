//! Random library models against Gecode (issue 32): the differential
//! tester's generator (`generator/mod.rs`) with the global constraints
//! mixed in (`Mix::GECODE`: cardinality, ordering, circuits, scheduling,
//! packing, negative tables, over domains within Gecode's integers).
//! Each model is written with `Model::to_minizinc` and Gecode counts its
//! solutions (`minizinc --solver gecode -a`); that count, csp's `count()`
//! and brute force over each constraint's own statement of its meaning
//! must agree. Counted and skipped: a model that cannot be written
//! (`ModelError::NoMiniZinc`), a count stopped by csp's node limit on
//! wide domains, `bin_packing` and `nvalue` over wide domains (see
//! `compare`), and on wide domains only, a Gecode error or a Gecode run
//! past its time limit ([`GECODE_MS`]).
//!
//! The normal test run compares seeds 0..48 (46 models compared, the
//! others skipped as below; about 0.2 s of minizinc each, on two
//! threads). More:
//! `CSP_GECODE_MODELS=2000 cargo test --release -p csp-core --test gecode -- --nocapture`
//! (a count `N` for seeds `0..N`, or a range `A..B`); the run prints its
//! figures.
//!
//! Needs `minizinc` and Gecode (`.ci/run` installs them); without them the
//! test says so and fails, unless `CSP_SKIP_MINIZINC=1` is set.

mod generator;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use csp_core::{Limits, ModelError, Outcome, Search};
use generator::{brute, case, Mix};

/// Whether minizinc with Gecode is here to run the test; without it the
/// test fails with a message, unless `CSP_SKIP_MINIZINC` is set.
fn have_minizinc() -> bool {
    let here = Command::new("minizinc")
        .args(["--solver", "gecode", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !here {
        assert!(
            std::env::var_os("CSP_SKIP_MINIZINC").is_some(),
            "minizinc with Gecode is needed (apt-get install minizinc flatzinc), or set CSP_SKIP_MINIZINC=1"
        );
        eprintln!("skipped: no minizinc with Gecode");
    }
    here
}

/// The seeds to run: `CSP_GECODE_MODELS` (`N` or `A..B`), else a short range.
fn seeds() -> std::ops::Range<u64> {
    let default = 0..48;
    let Ok(s) = std::env::var("CSP_GECODE_MODELS") else {
        return default;
    };
    let parse = |t: &str| {
        t.trim()
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("CSP_GECODE_MODELS: '{s}'"))
    };
    match s.split_once("..") {
        Some((a, b)) => parse(a)..parse(b),
        None => 0..parse(&s),
    }
}

/// csp's search on a model is bounded by nodes, Gecode's by this: the
/// models have at most a few thousand assignments, which Gecode
/// enumerates in milliseconds, but MiniZinc's decompositions of some
/// globals loop over every value of a domain (`bin_packing` over bins
/// numbered up to 2³⁰), and such a run stops here, counted as unfinished.
const GECODE_MS: &str = "10000";
const NODES: u64 = 200_000;

/// What a run compared.
#[derive(Default)]
struct Tally {
    models: AtomicU64,
    agreed: AtomicU64,
    refused: AtomicU64,
    no_minizinc: AtomicU64,
    stopped: AtomicU64,
    with_globals: AtomicU64,
    unfinished: AtomicU64,
    per_value: AtomicU64,
    gecode_errors: AtomicU64,
}

/// Gecode's answer on a written model.
enum Gecode {
    Count(u128),
    Unfinished,
    /// Gecode stopped with an error (`=====ERROR=====`): on domains
    /// with values up to 2³⁰, its domain-consistent `all_different`
    /// exhausts its memory (seed 1556).
    Error(String),
}

/// Gecode's number of distinct solutions of the MiniZinc file `path`
/// (every variable is printed), or why there is none.
fn gecode_count(path: &Path) -> Result<Gecode, String> {
    let out = Command::new("minizinc")
        .args(["--solver", "gecode", "-a", "--time-limit", GECODE_MS])
        .arg(path)
        .output()
        .map_err(|e| format!("run minizinc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains("=====ERROR=====") {
        return Ok(Gecode::Error(format!(
            "{}{text}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    if !out.status.success() {
        return Err(format!(
            "minizinc failed: {}\n{text}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut solutions: HashSet<Vec<String>> = HashSet::new();
    let mut current = Vec::new();
    let mut complete = false;
    for line in text.lines() {
        match line.trim() {
            "----------" => {
                solutions.insert(std::mem::take(&mut current));
            }
            "==========" | "=====UNSATISFIABLE=====" => complete = true,
            l if !l.is_empty() => current.push(l.to_string()),
            _ => {}
        }
    }
    if !complete {
        return match text.contains("=====UNKNOWN=====") || text.trim().is_empty() {
            true => Ok(Gecode::Unfinished),
            false => Err(format!("Gecode did not finish:\n{text}")),
        };
    }
    Ok(Gecode::Count(solutions.len() as u128))
}

/// Compares model `seed`: `Err` describes a disagreement.
fn compare(seed: u64, dir: &Path, tally: &Tally) -> Result<(), String> {
    let c = case(seed, Mix::GECODE);
    if c.specs.is_empty() {
        tally.refused.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    tally.models.fetch_add(1, Ordering::Relaxed);
    let names: Vec<&str> = c.specs.iter().map(|(n, _)| n.as_str()).collect();
    let at = format!("seed {seed}: {names:?} over {:?}", c.domains);
    let truth = brute(&c).len() as u128;
    let csp = Search::new(&c.model)
        .limits(Limits::none().with_nodes(NODES))
        .count()
        .unwrap();
    match csp.outcome {
        Outcome::Solved | Outcome::Unsatisfiable if csp.count == truth => {}
        Outcome::LimitReached(_) if c.wide && csp.count <= truth => {
            tally.stopped.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        o => {
            return Err(format!(
                "{at}: csp counts {} ({o}), brute force {truth}",
                csp.count
            ))
        }
    }
    // MiniZinc decomposes these two per value between the least and the
    // greatest of the variables' values: 2³⁰ values take Gecode minutes.
    let per_value = |n: &&str| n.starts_with("bin_packing ") || n.starts_with("nvalue");
    if c.wide && names.iter().any(per_value) {
        tally.per_value.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let mzn = match c.model.to_minizinc() {
        Ok(t) => t,
        Err(ModelError::NoMiniZinc { .. }) => {
            tally.no_minizinc.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        Err(e) => return Err(format!("{at}: to_minizinc: {e}")),
    };
    let path = dir.join(format!("m{seed}.mzn"));
    std::fs::write(&path, &mzn).map_err(|e| e.to_string())?;
    let gecode = gecode_count(&path).map_err(|e| format!("{at}: {e}\n{mzn}"))?;
    let _ = std::fs::remove_file(&path);
    let gecode = match gecode {
        Gecode::Count(n) => n,
        Gecode::Unfinished if c.wide => {
            tally.unfinished.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        // A few variables of a few values each: milliseconds for Gecode.
        Gecode::Unfinished => return Err(format!("{at}: Gecode did not finish\n{mzn}")),
        Gecode::Error(_) if c.wide => {
            tally.gecode_errors.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        Gecode::Error(e) => return Err(format!("{at}: Gecode failed: {e}\n{mzn}")),
    };
    if gecode != truth {
        return Err(format!(
            "{at}: Gecode counts {gecode}, csp and brute force {truth}\n{mzn}"
        ));
    }
    tally.agreed.fetch_add(1, Ordering::Relaxed);
    if names.iter().any(|n| is_global(n)) {
        tally.with_globals.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// Whether a constraint's label (see `generator::post_global`) names one
/// of the global constraints.
fn is_global(label: &str) -> bool {
    [
        "all_different_except",
        "global_cardinality",
        "nvalue",
        "inverse",
        "lex",
        "circuit",
        "cumulative",
        "disjunctive",
        "bin_packing",
        "monotone",
        "negative_table",
    ]
    .iter()
    .any(|g| label.starts_with(g))
}

#[test]
fn random_models_count_the_same_in_gecode() {
    if !have_minizinc() {
        return;
    }
    let range = seeds();
    let dir: PathBuf = std::env::temp_dir().join(format!("csp-gecode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tally = Tally::default();
    let next = AtomicU64::new(range.start);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    // Two workers: most of a model's time is minizinc starting up.
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= range.end || failures.lock().unwrap().len() >= 5 {
                    break;
                }
                if let Err(e) = compare(seed, &dir, &tally) {
                    failures.lock().unwrap().push(e);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    println!(
        "gecode: seeds {range:?}: {} models ({} with every constraint refused); {} agree with Gecode ({} with a global constraint), {} with no MiniZinc form, {} stopped by csp's node limit (wide domains), {} not written (bin_packing or nvalue over wide domains), {} unfinished by Gecode in {GECODE_MS} ms and {} Gecode errors (wide domains)",
        get(&tally.models),
        get(&tally.refused),
        get(&tally.agreed),
        get(&tally.with_globals),
        get(&tally.no_minizinc),
        get(&tally.stopped),
        get(&tally.per_value),
        get(&tally.unfinished),
        get(&tally.gecode_errors)
    );
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
