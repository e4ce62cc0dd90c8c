//! The constraint library's propagators, one workload each:
//! `cargo bench -p csp-core --bench library`. Each benchmark counts the
//! solutions of a fixed model; `docs/benchmarks.md` records the times with
//! the number of propagator calls, which gives the cost per call quoted in
//! each propagator's rustdoc.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use csp_core::expr::sum;
use csp_core::{Domain, Model, Search, VarOrder};

/// Linear (bounds, incremental) and value all-different: magic squares of
/// order 4, the first 500.
fn magic4() -> Model {
    let n = 4;
    let mut m = Model::new();
    let c = m.new_vars(n * n, Domain::range(1, 16)).unwrap();
    m.all_different(&c).unwrap();
    for i in 0..n {
        m.post(sum((0..n).map(|j| c[i * n + j])).eq(34)).unwrap();
        m.post(sum((0..n).map(|j| c[j * n + i])).eq(34)).unwrap();
    }
    m.post(sum((0..n).map(|i| c[i * n + i])).eq(34)).unwrap();
    m.post(sum((0..n).map(|i| c[i * n + n - 1 - i])).eq(34))
        .unwrap();
    m
}

/// A long linear sum (the incremental case): 30 variables over 0..3 with
/// Σ = 45 and Σ 2ᵢ·xᵢ parity-free weights ≤ 200, first 2000 solutions.
fn long_sum() -> Model {
    let mut m = Model::new();
    let xs = m.new_vars(30, Domain::range(0, 3)).unwrap();
    m.post(sum(&xs).eq(45)).unwrap();
    let weighted = sum(xs.iter().enumerate().map(|(i, &x)| (i as i32 % 7 + 1) * x));
    m.post(weighted.le(160)).unwrap();
    m
}

/// Less-than chains: increasing sequences of 8 over 0..=19 (C(20, 8) =
/// 125,970 solutions).
fn chain() -> Model {
    let mut m = Model::new();
    let xs = m.new_vars(8, Domain::range(0, 19)).unwrap();
    for w in xs.windows(2) {
        m.post(w[0].lt(w[1])).unwrap();
    }
    m
}

/// Products: x·y = z with x, y in 1..=200 and z in 1..=2000.
fn products() -> Model {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(1, 200)).unwrap();
    let y = m.new_var(Domain::range(1, 200)).unwrap();
    let z = m.new_var(Domain::range(1, 2000)).unwrap();
    m.post((x * y).eq(z)).unwrap();
    m
}

/// Clauses: the pigeonhole principle, 7 pigeons in 6 holes (unsatisfiable,
/// a classic hard case for clause propagation).
fn pigeonhole() -> Model {
    let (p, h) = (7, 6);
    let mut m = Model::new();
    let b = m.new_bools(p * h).unwrap();
    for i in 0..p {
        m.clause(&b[i * h..(i + 1) * h], &[]).unwrap();
    }
    for j in 0..h {
        for i in 0..p {
            for k in i + 1..p {
                m.clause(&[], &[b[i * h + j], b[k * h + j]]).unwrap();
            }
        }
    }
    m
}

/// Reification: 12 variables over 0..9, bᵢ ⇔ xᵢ ≤ 4, exactly 5 of the bᵢ,
/// first 5000 solutions.
fn reified() -> Model {
    let mut m = Model::new();
    let xs = m.new_vars(12, Domain::range(0, 9)).unwrap();
    let bs: Vec<_> = xs.iter().map(|&x| m.reify(x.le(4)).unwrap()).collect();
    m.post(sum(&bs).eq(5)).unwrap();
    m
}

/// One machine: six tasks of 2, 3, 1, 4, 2, 3 units, all ending by 17 (two
/// units of slack): 6! orders times 28 ways to place the gaps = 20,160.
fn one_machine() -> Model {
    let mut m = Model::new();
    let durations = [2, 3, 1, 4, 2, 3];
    let starts = m.new_vars(6, Domain::range(0, 16)).unwrap();
    for (&s, &d) in starts.iter().zip(&durations) {
        m.post(s.le(17 - d)).unwrap();
    }
    m.disjunctive(&starts, &durations).unwrap();
    m
}

/// Three-term equality (`TernaryEq`): x − y = z with x, y in 0..=299 and
/// z in 0..=20, every solution (21 · 300 − 210 = 6090).
fn difference() -> Model {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 299)).unwrap();
    let y = m.new_var(Domain::range(0, 299)).unwrap();
    let z = m.new_var(Domain::range(0, 20)).unwrap();
    m.post((x - y).eq(z)).unwrap();
    m
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("library");
    g.sample_size(10);
    let cases: [(&str, Model, Option<u64>); 8] = [
        ("magic4_first500", magic4(), Some(500)),
        ("long_sum_first2000", long_sum(), Some(2000)),
        ("lt_chain_count", chain(), None),
        ("times_count", products(), None),
        ("pigeonhole_7_6", pigeonhole(), None),
        ("reified_first5000", reified(), Some(5000)),
        ("disjunctive_count", one_machine(), None),
        ("ternary_difference_count", difference(), None),
    ];
    for explain in [false, true] {
        if explain {
            // The same workloads with explaining mode on (same trees): the
            // cost of each propagator's reasons and of the trail.
            g.finish();
            g = c.benchmark_group("library_explaining");
            g.sample_size(10);
        }
        for (name, m, limit) in &cases {
            let search = || {
                Search::new(m)
                    .var_order(VarOrder::DomWdeg)
                    .explaining(explain)
            };
            let r = match limit {
                Some(k) => search().count_up_to(*k),
                None => search().count(),
            }
            .unwrap();
            eprintln!(
                "{name} (explaining {explain}): {} solutions, {}",
                r.count, r.stats
            );
            g.bench_function(*name, |b| {
                b.iter(|| match limit {
                    Some(k) => search().count_up_to(*k).unwrap().count,
                    None => search().count().unwrap().count,
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
