//! The cost of `hints::why_no_solution_constraints` on library models of
//! 100 constraints (issue 27: "under 1 s").
//!
//! ```sh
//! cargo run --release -p csp-core --example why_not_bench [ROUNDS]
//! ```
//!
//! Two unsatisfiable models, each of 100 named constraints over 60
//! variables of domain 1..=6:
//!
//! * `timetable`: 94 satisfiable differences and sums among talks, and a
//!   chain of five precedences `a < b < c < d < e < f` hidden among them
//!   with `f ≤ 5`: propagation refutes it.
//! * `pigeons`: 90 satisfiable constraints, and 10 pairwise differences
//!   of 5 talks in 4 slots (domains 1..=4): propagation of not-equal
//!   alone does not refute them, search does.
//!
//! For each: the conflict's size, the checks and search nodes (counts,
//! which the machine's load does not change), the best of ROUNDS (default
//! 5) wall-clock times, and as a reference measured in the same run the
//! time of the plain search proving the whole model unsatisfiable.

use std::time::{Duration, Instant};

use csp_core::hints::{self, Diagnosis, Options, Refutation};
use csp_core::{Domain, Model, Search, VarId};

/// A deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// 100 named constraints: the planted conflict of `kind` over talks 0..6
/// at random positions among satisfiable fillers over talks 10..60.
fn model(kind: &str, seed: u64) -> Model {
    let mut m = Model::new();
    let t: Vec<VarId> = (0..60)
        .map(|i| {
            m.new_var_named(&format!("talk{i}"), Domain::range(1, 6))
                .unwrap()
        })
        .collect();
    let mut r = Rng(seed);
    // Planted: over t[0..6] (timetable) or t[0..5] (pigeons).
    let planted = match kind {
        "timetable" => 6,
        _ => 10,
    };
    let total = 100;
    // The positions of the planted constraints among the 100.
    let mut at: Vec<usize> = Vec::new();
    while at.len() < planted {
        let p = r.below(total);
        if !at.contains(&p) {
            at.push(p);
        }
    }
    at.sort_unstable();
    let mut k = 0;
    let mut pairs = (0..5).flat_map(|i| (i + 1..5).map(move |j| (i, j)));
    for pos in 0..total {
        let c = if at.contains(&pos) {
            k += 1;
            match kind {
                "timetable" if k <= 5 => m.post(t[k - 1].lt(t[k])).unwrap(),
                "timetable" => m.post(t[5].le(5)).unwrap(),
                _ => {
                    let (i, j) = pairs.next().unwrap();
                    if k == 1 {
                        for &x in &t[0..5] {
                            m.restrict(x, &Domain::range(1, 4)).unwrap();
                        }
                    }
                    m.not_equal(t[i], t[j], 0).unwrap()
                }
            }
        } else {
            // Satisfiable filler among talks 10..60, between talks at
            // most 5 apart: differences, and sums of two slots at most
            // 11; slot i mod 6 + 1 for talk i satisfies them all.
            let a = 10 + r.below(45);
            let b = a + 1 + r.below(5);
            if r.below(2) == 0 {
                m.not_equal(t[a], t[b], 0).unwrap()
            } else {
                m.post((t[a] + t[b]).le(11)).unwrap()
            }
        };
        m.name_constraint(c, &format!("rule {pos}")).unwrap();
    }
    m
}

fn best<T>(rounds: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..rounds {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (best, out.expect("at least one round"))
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5)
        .max(1);
    println!(
        "| model | constraints | conflict | minimal | refuted by | checks | why-not time | plain unsat proof | ratio |"
    );
    println!("|---|---:|---:|---|---|---:|---:|---:|---:|");
    for kind in ["timetable", "pigeons"] {
        let m = model(kind, 27);
        let (plain, r) = best(rounds, || Search::new(&m).solve().unwrap());
        assert!(r.solution.is_none(), "{kind}: the model has a solution");
        let (t, d) = best(rounds, || {
            hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap()
        });
        let Diagnosis::Conflict(c) = d else {
            panic!("{kind}: {d:?}")
        };
        let by = match c.refutation {
            Refutation::Propagation(_) => "propagation".to_string(),
            Refutation::Search { nodes } => format!("search, {nodes} nodes"),
            Refutation::Inferred => "inferred".to_string(),
        };
        println!(
            "| {kind} | {} | {} | {} | {by} | {} | {:.2} ms | {:.3} ms | {:.0} |",
            m.num_constraints(),
            c.constraints.len(),
            c.minimal,
            c.checks,
            t.as_secs_f64() * 1e3,
            plain.as_secs_f64() * 1e3,
            t.as_secs_f64() / plain.as_secs_f64()
        );
        eprintln!("{kind}: {}", c.labels().join(", "));
    }
}
