//! Global-constraint benchmarks: `cargo bench -p csp-core --bench globals`.
//!
//! Each model is searched to the end; the cost per propagator call is the
//! time divided by the `propagations` counter, which the bench prints once
//! per model (to stderr) beside criterion's time. Figures and commands are
//! recorded in `docs/benchmarks.md`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion};
use csp_core::constraint::{Automaton, Consistency};
use csp_core::{Domain, Inference, Model, Relation, Search, VarOrder};

/// A Latin square of order `n` with the first row given: rows and columns
/// all-different at `level` (order 5: 56 · 4! = 1344 completions).
fn latin(n: usize, level: Consistency) -> Model {
    let mut m = Model::new();
    let cells: Vec<Vec<_>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let d = if r == 0 {
                        Domain::singleton(c as i32)
                    } else {
                        Domain::range(0, n as i32 - 1)
                    };
                    m.new_var(d).unwrap()
                })
                .collect()
        })
        .collect();
    for (i, row) in cells.iter().enumerate() {
        let col: Vec<_> = cells.iter().map(|r| r[i]).collect();
        m.all_different_with(row, level).unwrap();
        m.all_different_with(&col, level).unwrap();
    }
    m
}

/// `n + 1` variables over the `n` even values `0, 2, …`: a pigeonhole with
/// holes in every domain.
fn pigeonhole(n: usize, level: Consistency) -> Model {
    let mut m = Model::new();
    let xs: Vec<_> = (0..=n)
        .map(|_| {
            let d = Domain::values((0..n as i32).map(|v| 2 * v));
            m.new_var(d).unwrap()
        })
        .collect();
    m.all_different_with(&xs, level).unwrap();
    m
}

/// `(a, b, c)` over `0..n` with `a + b + c ≡ 0 (mod 5)` as a positive or
/// negative table of `n³ / 5` tuples (25,000 for `n = 50`), and `a < b < c`.
fn table(n: i32, negative: bool) -> Model {
    let tuples: Vec<Vec<i32>> = (0..n)
        .flat_map(|a| (0..n).flat_map(move |b| (0..n).map(move |c| vec![a, b, c])))
        .filter(|t| t.iter().sum::<i32>() % 5 == 0)
        .collect();
    let mut m = Model::new();
    let x = m.new_vars(3, Domain::range(0, n - 1)).unwrap();
    if negative {
        m.negative_table(&x, tuples).unwrap();
    } else {
        m.table(&x, tuples).unwrap();
    }
    m.linear(&[(1, x[0]), (-1, x[1])], Relation::Le, -1)
        .unwrap();
    m.linear(&[(1, x[1]), (-1, x[2])], Relation::Le, -1)
        .unwrap();
    m
}

/// A nonogram line of `len` cells with `clue`, every filling counted.
fn nonogram_line(len: usize, clue: &[usize]) -> Model {
    let mut m = Model::new();
    let row = m.new_vars(len, Domain::range(0, 1)).unwrap();
    m.regular(&row, &Automaton::nonogram(clue)).unwrap();
    m
}

/// Models for the smaller globals, each counted to the end: the name, the
/// model.
fn others() -> Vec<(&'static str, Model)> {
    let mut out = Vec::new();
    // Among: 8 variables over 0..3, 3 or 4 of them in {1, 2}.
    let mut m = Model::new();
    let x = m.new_vars(8, Domain::range(0, 3)).unwrap();
    let n = m.new_var(Domain::range(3, 4)).unwrap();
    m.among(&x, &[1, 2], n).unwrap();
    out.push(("among-8", m));
    // Global cardinality: 8 variables over 0..3, each value used 1..3 times.
    let mut m = Model::new();
    let x = m.new_vars(8, Domain::range(0, 3)).unwrap();
    let k = m.new_vars(4, Domain::range(1, 3)).unwrap();
    m.global_cardinality(&x, &[0, 1, 2, 3], &k).unwrap();
    out.push(("gcc-8", m));
    // Nvalue: 7 variables over 0..4 with exactly 2 distinct values.
    let mut m = Model::new();
    let x = m.new_vars(7, Domain::range(0, 4)).unwrap();
    let n = m.new_var(Domain::singleton(2)).unwrap();
    m.nvalue(&x, n).unwrap();
    out.push(("nvalue-7", m));
    // Lex: two rows of 5 over 0..2, strictly ordered.
    let mut m = Model::new();
    let x = m.new_vars(5, Domain::range(0, 2)).unwrap();
    let y = m.new_vars(5, Domain::range(0, 2)).unwrap();
    m.lex_less(&x, &y).unwrap();
    out.push(("lex-5", m));
    // Increasing: 8 variables over 0..9.
    let mut m = Model::new();
    let x = m.new_vars(8, Domain::range(0, 9)).unwrap();
    m.increasing(&x).unwrap();
    out.push(("increasing-8", m));
    // Inverse: the 5040 permutations of 7 and their inverses.
    let mut m = Model::new();
    let f = m.new_vars(7, Domain::range(0, 6)).unwrap();
    let g = m.new_vars(7, Domain::range(0, 6)).unwrap();
    m.inverse(&f, &g).unwrap();
    out.push(("inverse-7", m));
    // Circuit: the 5040 tours of 8 nodes.
    let mut m = Model::new();
    let s = m.new_vars(8, Domain::range(0, 7)).unwrap();
    m.circuit(&s).unwrap();
    out.push(("circuit-8", m));
    out
}

fn run(m: &Model) -> (u128, u64) {
    run_mode(m, false)
}

/// The count, with explaining mode on or off (same tree either way).
fn run_mode(m: &Model, explain: bool) -> (u128, u64) {
    let r = Search::new(m)
        .inference(Inference::Mac)
        .var_order(VarOrder::Mrv)
        .explaining(explain)
        .count()
        .unwrap();
    (r.count, r.stats.propagations)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("alldiff");
    g.sample_size(10);
    for level in [Consistency::Value, Consistency::Bounds, Consistency::Domain] {
        let m = latin(5, level);
        let (count, calls) = run(&m);
        eprintln!("latin-5/{level}: {count} solutions, {calls} propagator calls");
        g.bench_function(format!("latin-5/{level}"), |b| b.iter(|| run(&m)));
        let m = pigeonhole(8, level);
        let (count, calls) = run(&m);
        eprintln!("pigeonhole-8/{level}: {count} solutions, {calls} propagator calls");
        g.bench_function(format!("pigeonhole-8/{level}"), |b| b.iter(|| run(&m)));
    }
    g.finish();
    let mut g = c.benchmark_group("table");
    g.sample_size(10);
    for negative in [false, true] {
        let m = table(50, negative);
        let (count, calls) = run(&m);
        let name = if negative { "negative" } else { "positive" };
        eprintln!("table-25000/{name}: {count} solutions, {calls} propagator calls");
        g.bench_function(format!("25000-tuples/{name}"), |b| b.iter(|| run(&m)));
    }
    g.finish();
    let mut g = c.benchmark_group("regular");
    g.sample_size(10);
    let m = nonogram_line(30, &[3, 2, 5, 1, 4]);
    let (count, calls) = run(&m);
    eprintln!("nonogram-30/[3,2,5,1,4]: {count} solutions, {calls} propagator calls");
    g.bench_function("nonogram-30", |b| b.iter(|| run(&m)));
    g.finish();
    let mut g = c.benchmark_group("others");
    g.sample_size(10);
    for (name, m) in others() {
        let (count, calls) = run(&m);
        eprintln!("{name}: {count} solutions, {calls} propagator calls");
        g.bench_function(name, |b| b.iter(|| run(&m)));
    }
    g.finish();
    // The same workloads with explaining mode on: the cost of each
    // propagator's reasons and of the trail (compare with the groups
    // above; the trees are the same).
    let mut g = c.benchmark_group("explaining");
    g.sample_size(10);
    let mut cases: Vec<(String, Model)> = Vec::new();
    for level in [Consistency::Value, Consistency::Bounds, Consistency::Domain] {
        cases.push((format!("latin-5/{level}"), latin(5, level)));
    }
    cases.push(("25000-tuples/positive".into(), table(50, false)));
    cases.push(("25000-tuples/negative".into(), table(50, true)));
    cases.push(("nonogram-30".into(), nonogram_line(30, &[3, 2, 5, 1, 4])));
    cases.extend(others().into_iter().map(|(n, m)| (n.to_string(), m)));
    for (name, m) in &cases {
        assert_eq!(
            run_mode(m, true),
            run(m),
            "{name}: explaining changed the search"
        );
        g.bench_function(name.as_str(), |b| b.iter(|| run_mode(m, true)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
