//! The learning search against the ordinary engine: nodes, failures and
//! time on a few models where remembering failures should pay.
//!
//! ```sh
//! cargo run --release -p csp-core --example learning_bench [NODE_LIMIT [FILTER]]
//! ```
//!
//! With `FILTER`, only the models whose name contains it run.
//!
//! ```sh
//! cargo run --release -p csp-core --example learning_bench -- memory [NODE_LIMIT]
//! ```
//!
//! measures the deletion policy instead: the nogood store's size (clauses
//! kept, their literals, literal ids made) over a long learning run on
//! `pigeons-11` and `binpack-18` (default 1,000,000 nodes), printed at
//! about twenty points, each the largest size seen since the previous one.
//!
//! ```sh
//! cargo run --release -p csp-core --example learning_bench -- par [NODE_LIMIT [FILTER]]
//! ```
//!
//! runs one learning worker against two (`par_minimize`) on the
//! optimisation models below, with CPU time beside wall-clock time.
//!
//! ```sh
//! cargo run --release -p csp-core --example learning_bench -- lns [NODE_LIMIT [FILTER]]
//! ```
//!
//! runs the learning search on the optimisation models below without
//! and with its neighbourhoods (`Search::lns`; the `learning` column then
//! says `lns`).
//!
//! Each model is run with learning off (the ordinary engine, its default
//! orders with the inference given) and on (`Search::learning(true)`,
//! same inference), under the same node limit (default 2,000,000); a run
//! stopped by the limit is marked `limit`. The models:
//! * `pigeons-N`: N pigeons in N − 1 holes, pairwise `≠` (unsatisfiable;
//!   the all-different's Hall reasoning would see it at the root, so the
//!   pairwise form is the test of the search);
//! * `binpack-N`: N items of random sizes (seeded) in bins of capacity
//!   10, minimising the bins used (`bin_packing` with symmetry left in);
//! * `jobshop-JxM`: a random (seeded) job shop of J jobs on M machines,
//!   minimising the makespan (`disjunctive` per machine);
//! * `roster-12x14`, `plainpack-18-S`: the models of
//!   `tests/defaults.rs` (`tests/plain/mod.rs`), a nurse roster and a bin
//!   packing written plainly, minimised with the default orders (the
//!   ordinary engine's and `LearningOrder::Auto`'s).

use std::time::Instant;

#[path = "../tests/plain/mod.rs"]
mod plain;

use csp_core::expr::max_of;
use csp_core::testing::{nogood_memory, MemorySample};
use csp_core::{Domain, Inference, Model, Outcome, Search, SearchOptions, VarId};

fn rng(mut s: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    }
}

fn pigeons(n: usize) -> Model {
    let mut m = Model::new();
    let xs = m.new_vars(n, Domain::range(1, n as i32 - 1)).unwrap();
    for i in 0..n {
        for j in i + 1..n {
            m.not_equal(xs[i], xs[j], 0).unwrap();
        }
    }
    m
}

/// `n` items, capacity 10, sizes 2..=7; the objective is the number of bins.
fn binpack(n: usize, seed: u64) -> (Model, VarId) {
    let mut next = rng(seed);
    let sizes: Vec<i32> = (0..n).map(|_| 2 + next(6) as i32).collect();
    let mut m = Model::new();
    let bins = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    m.bin_packing(10, &bins, &sizes).unwrap();
    let used = m.new_var(Domain::range(1, n as i32)).unwrap();
    for &b in &bins {
        m.less_eq(b, used, -1).unwrap(); // b ≤ used − 1
    }
    (m, used)
}

/// A random job shop: each job visits every machine once in a random
/// order, durations 1..=9; the objective is the makespan.
fn jobshop(jobs: usize, machines: usize, seed: u64) -> (Model, VarId) {
    let mut next = rng(seed);
    let horizon: i32 = 9 * (jobs * machines) as i32;
    let mut m = Model::new();
    let mut on: Vec<Vec<(VarId, i32)>> = vec![Vec::new(); machines];
    let mut ends = Vec::new();
    for _ in 0..jobs {
        let mut order: Vec<usize> = (0..machines).collect();
        for i in (1..machines).rev() {
            order.swap(i, next(i as u64 + 1) as usize);
        }
        let mut prev: Option<(VarId, i32)> = None;
        for &k in &order {
            let d = 1 + next(9) as i32;
            let s = m.new_var(Domain::range(0, horizon)).unwrap();
            if let Some((p, pd)) = prev {
                m.less_eq(p, s, -(pd as i64)).unwrap(); // p + pd ≤ s
            }
            on[k].push((s, d));
            prev = Some((s, d));
        }
        let (p, pd) = prev.unwrap();
        ends.push(p + pd);
    }
    for tasks in &on {
        let s: Vec<VarId> = tasks.iter().map(|t| t.0).collect();
        let d: Vec<i32> = tasks.iter().map(|t| t.1).collect();
        m.disjunctive(&s, &d).unwrap();
    }
    let makespan = m.define(max_of(ends)).unwrap();
    (m, makespan)
}

/// How an optimisation ended, in a few words.
fn optimum_text(r: &csp_core::Optimum) -> String {
    match (r.outcome, r.objective) {
        (Outcome::Solved, Some(v)) => format!("optimal {v}"),
        (Outcome::LimitReached(_), Some(v)) => format!("limit, best {v}"),
        (o, _) => o.to_string(),
    }
}

/// The learning search without and with neighbourhoods on the
/// optimisation models.
fn lns(limit: u64, filter: &str) {
    println!(
        "{:<14} {:<8} {:<24} {:>10} {:>10} {:>10}",
        "model", "learning", "outcome", "nodes", "failures", "ms"
    );
    for (name, m, x) in optimisation_runs().iter().filter(|r| r.0.contains(filter)) {
        for lns in [false, true] {
            let t = Instant::now();
            let r = Search::new(m)
                .inference(Inference::Mac)
                .learning(true)
                .lns(lns)
                .node_limit(limit)
                .minimize(*x)
                .unwrap();
            let o = optimum_text(&r);
            println!(
                "{name:<14} {:<8} {o:<24} {:>10} {:>10} {:>10.1}",
                if lns { "lns" } else { "on" },
                r.stats.nodes,
                r.stats.failures,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

fn show(name: &str, learning: bool, outcome: String, nodes: u64, failures: u64, t: f64) {
    println!(
        "{name:<14} {:<8} {outcome:<24} {nodes:>10} {failures:>10} {:>10.1}",
        if learning { "on" } else { "off" },
        t * 1e3
    );
}

/// Prints the store's size over a run, at about twenty points.
fn memory(
    name: &str,
    m: &Model,
    inference: Inference,
    objective: Option<(VarId, bool)>,
    limit: u64,
) {
    let mut o = SearchOptions {
        inference,
        ..Default::default()
    };
    o.limits.nodes = Some(limit);
    let t = Instant::now();
    let (samples, nodes) = nogood_memory(m, o, objective);
    println!(
        "{name}: {nodes} nodes, {} restarts, {:.1} s",
        samples.iter().filter(|s| !s.reduced).count(),
        t.elapsed().as_secs_f64()
    );
    println!(
        "{:>12} {:>10} {:>12} {:>12} {:>10}",
        "conflicts", "clauses", "literals", "literal ids", "reductions"
    );
    let last = samples.last().map_or(0, |s| s.conflicts);
    let step = (last / 20).max(1);
    let mut peak = MemorySample {
        conflicts: 0,
        clauses: 0,
        literals: 0,
        literal_ids: 0,
        reduced: false,
    };
    let (mut reductions, mut next) = (0, step);
    for s in &samples {
        reductions += usize::from(s.reduced);
        if s.literals > peak.literals {
            peak = *s;
        }
        if s.conflicts >= next || std::ptr::eq(s, samples.last().unwrap()) {
            println!(
                "{:>12} {:>10} {:>12} {:>12} {:>10}",
                s.conflicts, peak.clauses, peak.literals, s.literal_ids, reductions
            );
            peak.literals = 0;
            next = s.conflicts + step;
        }
    }
}

/// The optimisation models: `binpack-N`, `jobshop-JxM`, `roster-12x14`,
/// `plainpack-18-S`.
fn optimisation_runs() -> Vec<(String, Model, VarId)> {
    let mut runs: Vec<(String, Model, VarId)> = Vec::new();
    for (n, seed) in [(10usize, 3u64), (14, 5), (18, 7)] {
        let (m, x) = binpack(n, seed);
        runs.push((format!("binpack-{n}"), m, x));
    }
    for (j, k, seed) in [
        (4usize, 4usize, 11u64),
        (5, 5, 13),
        (6, 6, 17),
        (7, 7, 19),
        (8, 8, 23),
    ] {
        let (m, x) = jobshop(j, k, seed);
        runs.push((format!("jobshop-{j}x{k}"), m, x));
    }
    let roster = plain::Roster::new(12, 14, 3);
    let (m, _, x) = roster.model();
    runs.push(("roster-12x14".to_string(), m, x));
    for seed in [7u64, 12] {
        let (m, _, x, _) = plain::bin_packing(seed);
        runs.push((format!("plainpack-18-{seed}"), m, x));
    }
    runs
}

/// CPU time of this process so far (user + system, from
/// `/proc/self/stat`, in clock ticks of 10 ms), in seconds; 0 where
/// there is no `/proc`.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The fields after the command name (which is in parentheses): the
    // state, then 10 numbers, then utime and stime.
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) as f64 / 100.0
}

/// `par [NODE_LIMIT [FILTER]]`: learning with one worker (`minimize`, and
/// `par_minimize(1)`: the same search plus phase 2, the canonical
/// solution) against two workers (`par_minimize(2)`), on the
/// optimisation models: outcome, nodes and failures (of every worker),
/// wall-clock and CPU milliseconds.
fn par(limit: u64, filter: &str) {
    println!(
        "{:<16} {:<10} {:<18} {:>10} {:>10} {:>9} {:>9}",
        "model", "run", "outcome", "nodes", "failures", "wall ms", "cpu ms"
    );
    for (name, m, x) in optimisation_runs().iter().filter(|r| r.0.contains(filter)) {
        for run in ["minimize", "par 1", "par 2"] {
            let mut search = Search::new(m)
                .inference(Inference::Mac)
                .learning(true)
                .node_limit(limit);
            let (t, c) = (Instant::now(), cpu_seconds());
            let r = match run {
                "minimize" => search.minimize(*x),
                "par 1" => search.par_minimize(*x, 1),
                _ => search.par_minimize(*x, 2),
            }
            .unwrap();
            let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
            let o = optimum_text(&r);
            println!(
                "{name:<16} {run:<10} {o:<18} {:>10} {:>10} {:>9.0} {:>9.0}",
                r.stats.nodes,
                r.stats.failures,
                wall * 1e3,
                cpu * 1e3
            );
        }
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("memory") {
        let limit: u64 = std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(1_000_000);
        memory(
            "pigeons-11",
            &pigeons(11),
            Inference::ForwardChecking,
            None,
            limit,
        );
        let (m, x) = binpack(18, 7);
        memory("binpack-18", &m, Inference::Mac, Some((x, true)), limit);
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("lns") {
        let limit: u64 = std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(2_000_000);
        lns(limit, &std::env::args().nth(3).unwrap_or_default());
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("par") {
        let limit: u64 = std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(2_000_000);
        par(limit, &std::env::args().nth(3).unwrap_or_default());
        return;
    }
    let limit: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let filter = std::env::args().nth(2).unwrap_or_default();
    println!(
        "{:<14} {:<8} {:<24} {:>10} {:>10} {:>10}",
        "model", "learning", "outcome", "nodes", "failures", "ms"
    );
    for n in [8usize, 9, 10] {
        let name = format!("pigeons-{n}");
        if !name.contains(&filter) {
            continue;
        }
        let m = pigeons(n);
        for learning in [false, true] {
            let t = Instant::now();
            let r = Search::new(&m)
                .inference(Inference::ForwardChecking)
                .learning(learning)
                .node_limit(limit)
                .solve()
                .unwrap();
            let o = match r.outcome {
                Outcome::LimitReached(_) => "limit".to_string(),
                o => o.to_string(),
            };
            show(
                &name,
                learning,
                o,
                r.stats.nodes,
                r.stats.failures,
                t.elapsed().as_secs_f64(),
            );
        }
    }
    let runs = optimisation_runs();
    for (name, m, x) in runs.iter().filter(|r| r.0.contains(&filter)) {
        for learning in [false, true] {
            let t = Instant::now();
            let r = Search::new(m)
                .inference(Inference::Mac)
                .learning(learning)
                .node_limit(limit)
                .minimize(*x)
                .unwrap();
            let o = optimum_text(&r);
            show(
                name,
                learning,
                o,
                r.stats.nodes,
                r.stats.failures,
                t.elapsed().as_secs_f64(),
            );
        }
    }
}
