//! Engine benchmarks on a few fixed models: `cargo bench -p csp-core --bench engine`.
//!
//! Figures and the command that produced them are recorded in `docs/benchmarks.md`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use csp_core::{Domain, Inference, Model, Relation, Search, ValOrder, VarOrder};

fn queens(n: usize) -> Model {
    let mut m = Model::new();
    let q = m.new_vars(n, Domain::range(0, n as i32 - 1)).unwrap();
    let up: Vec<i32> = (0..n as i32).collect();
    let down: Vec<i32> = up.iter().map(|i| -i).collect();
    m.all_different(&q).unwrap();
    m.all_different_offset(&q, &up).unwrap();
    m.all_different_offset(&q, &down).unwrap();
    m
}

fn send_more_money() -> Model {
    let mut m = Model::new();
    let l: Vec<_> = (0..8)
        .map(|_| m.new_var(Domain::range(0, 9)).unwrap())
        .collect();
    let [s, e, n, d, mo, o, r, y] = [l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7]];
    m.all_different(&l).unwrap();
    m.linear(
        &[
            (1000, s),
            (100, e),
            (10, n),
            (1, d),
            (1000, mo),
            (100, o),
            (10, r),
            (1, e),
            (-10000, mo),
            (-1000, o),
            (-100, n),
            (-10, e),
            (-1, y),
        ],
        Relation::Eq,
        0,
    )
    .unwrap();
    m.linear(&[(1, s)], Relation::Ge, 1).unwrap();
    m.linear(&[(1, mo)], Relation::Ge, 1).unwrap();
    m
}

/// A fixed pseudo-random graph (seeded LCG), 3-colored: count colorings of a
/// sparse 30-vertex graph.
fn coloring() -> Model {
    let mut m = Model::new();
    let v = m.new_vars(30, Domain::range(1, 4)).unwrap();
    let mut s: u64 = 12345;
    for _ in 0..45 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = (s >> 33) as usize % 30;
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let b = (s >> 33) as usize % 30;
        if a != b {
            m.not_equal(v[a], v[b], 0).unwrap();
        }
    }
    m
}

fn bench(c: &mut Criterion) {
    let q10 = queens(10);
    let q12 = queens(12);
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.bench_function("queens10_count_fc", |b| {
        b.iter(|| {
            Search::new(&q10)
                .var_order(VarOrder::Input)
                .inference(Inference::ForwardChecking)
                .count()
                .unwrap()
                .count
        })
    });
    g.bench_function("queens10_count_mac", |b| {
        b.iter(|| {
            Search::new(&q10)
                .var_order(VarOrder::Input)
                .inference(Inference::Mac)
                .count()
                .unwrap()
                .count
        })
    });
    g.bench_function("queens12_count_fc", |b| {
        b.iter(|| {
            Search::new(&q12)
                .var_order(VarOrder::Input)
                .count()
                .unwrap()
                .count
        })
    });
    let q1000 = queens(1000);
    g.bench_function("queens1000_first_mrv_middle", |b| {
        b.iter(|| {
            Search::new(&q1000)
                .var_order(VarOrder::Mrv)
                .val_order(ValOrder::Middle)
                .solve()
                .unwrap()
                .stats
                .nodes
        })
    });
    let smm = send_more_money();
    g.bench_function("send_more_money_all_mac", |b| {
        b.iter(|| {
            Search::new(&smm)
                .inference(Inference::Mac)
                .count()
                .unwrap()
                .count
        })
    });
    let col = coloring();
    g.bench_function("coloring30_count_4colors", |b| {
        b.iter(|| {
            Search::new(&col)
                .var_order(VarOrder::DomWdeg)
                .count_up_to(100_000)
                .unwrap()
                .count
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
