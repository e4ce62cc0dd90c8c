//! Learned nogoods on Golomb-ruler models, checked against every ruler
//! found by an independent enumeration (issue 28).
//!
//! The random models of `learning.rs` have domains of a few values, where
//! a bound rarely becomes true twice on one branch and all-different's
//! ids never span more than a word. A ruler's differences do both: `d ≥
//! 5` first holds when all-different removes 3 and 4 (after a bound `d ≥
//! 3`), and later a difference constraint raises the bound to `d ≥ 7`, an
//! entry that implies `d ≥ 5` alone (debug builds check that the analysis
//! is given the earliest support); and golomb's ids span 64 values and
//! more. A version of the analysis that made such literals first UIPs,
//! run with a wrong all-different reason over wide ids, proved golomb-9's
//! optimum to be 46 (it is 44); the second test below caught it. These
//! models are small enough to enumerate and large enough to learn from.
//!
//! Node limits only; no wall-clock assertion.

mod common;

use common::{check_nogoods, rng};

use csp_core::testing::learned_nogoods;
use csp_core::{
    Domain, Inference, LearningOrder, Model, Relation, Restarts, Search, SearchOptions, ValOrder,
    Value, VarId, VarOrder,
};

/// A ruler of `k` marks of length at most `len`: marks `m0 = 0 < m1 < …`,
/// a variable `d = mj − mi` per pair, all the differences distinct, the
/// first gap shorter than the last (the mirror image is the same ruler),
/// and, drawn with `seed`, a few differences each forbidden one value.
struct Ruler {
    model: Model,
    marks: Vec<VarId>,
    /// `(i, j, d)`: `d = marks[j] − marks[i]`.
    diffs: Vec<(usize, usize, VarId)>,
    /// The values forbidden: `(index in diffs, value)`.
    forbidden: Vec<(usize, Value)>,
    /// Per difference, the offset added to it before all-different
    /// compares (all 0 for a Golomb ruler).
    offsets: Vec<Value>,
}

fn ruler(k: usize, len: Value, seed: u64) -> Ruler {
    let mut next = rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut m = Model::new();
    let mut marks = vec![m.new_var(Domain::range(0, 0)).unwrap()];
    for _ in 1..k {
        marks.push(m.new_var(Domain::range(1, len)).unwrap());
    }
    let forbid = if seed == u64::MAX { 0 } else { next(4) };
    for w in marks.windows(2) {
        m.less_eq(w[0], w[1], -1).unwrap();
    }
    let mut diffs = Vec::new();
    for i in 0..k {
        for j in i + 1..k {
            let d = m.new_var(Domain::range(1, len)).unwrap();
            m.linear(&[(1, marks[j]), (-1, marks[i]), (-1, d)], Relation::Eq, 0)
                .unwrap();
            diffs.push((i, j, d));
        }
    }
    let ds: Vec<VarId> = diffs.iter().map(|&(.., d)| d).collect();
    // Odd seeds: a ruler-like model whose differences plus offsets of 0
    // or 64 must be distinct, so that all-different's ids span more than
    // 64 values with short rulers (its wide path).
    let offsets: Vec<Value> = ds
        .iter()
        .map(|_| {
            if seed % 2 == 1 && seed != u64::MAX {
                64 * next(2) as Value
            } else {
                0
            }
        })
        .collect();
    m.all_different_offset(&ds, &offsets).unwrap();
    // The first gap is shorter than the last.
    let (first, last) = (
        ds[0],
        diffs.iter().find(|&&(i, j, _)| i == k - 2 && j == k - 1),
    );
    m.less_eq(first, last.unwrap().2, -1).unwrap();
    let mut forbidden = Vec::new();
    for _ in 0..forbid {
        let at = next(ds.len() as u64) as usize;
        let v = 1 + next(len as u64) as Value;
        m.linear(&[(1, ds[at])], Relation::Ne, v as i64).unwrap();
        forbidden.push((at, v));
    }
    Ruler {
        model: m,
        marks,
        diffs,
        forbidden,
        offsets,
    }
}

/// Every solution of `r`, by enumerating the increasing mark sequences
/// and checking the differences directly (not through the model).
fn rulers(r: &Ruler, k: usize, len: Value) -> Vec<Vec<Value>> {
    fn extend(at: &mut Vec<Value>, k: usize, len: Value, out: &mut Vec<Vec<Value>>) {
        if at.len() == k {
            out.push(at.clone());
            return;
        }
        let from = at.last().map_or(0, |&v| v + 1);
        let to = if at.is_empty() { 0 } else { len };
        for v in from..=to {
            at.push(v);
            extend(at, k, len, out);
            at.pop();
        }
    }
    let mut seqs = Vec::new();
    extend(&mut Vec::new(), k, len, &mut seqs);
    let n = r.model.vars().count();
    seqs.into_iter()
        .filter_map(|ms| {
            let ds: Vec<Value> = r.diffs.iter().map(|&(i, j, _)| ms[j] - ms[i]).collect();
            let mut sorted: Vec<Value> = ds.iter().zip(&r.offsets).map(|(d, c)| d + c).collect();
            sorted.sort_unstable();
            sorted.dedup();
            let distinct = sorted.len() == ds.len();
            let mirror = ms[1] - ms[0] < ms[k - 1] - ms[k - 2];
            let allowed = r.forbidden.iter().all(|&(at, v)| ds[at] != v);
            (distinct && mirror && allowed).then(|| {
                let mut s = vec![0; n];
                for (x, &v) in r.marks.iter().zip(&ms) {
                    s[x.index()] = v;
                }
                for (&(.., d), &v) in r.diffs.iter().zip(&ds) {
                    s[d.index()] = v;
                }
                s
            })
        })
        .collect()
}

/// The searches the rulers are run with: learning's own order with
/// restarts, and the marks in order, smallest value first, without (as a
/// MiniZinc annotation would have it), each at both inference levels the
/// learning search uses.
fn configs(r: &Ruler) -> Vec<(String, SearchOptions)> {
    let mut out = Vec::new();
    for inference in [Inference::ForwardChecking, Inference::Mac] {
        let base = SearchOptions {
            inference,
            learning: true,
            ..SearchOptions::default()
        };
        let mut own = base.clone();
        own.learning_order = LearningOrder::Activity;
        own.restarts = Restarts::Luby { scale: 8 };
        out.push((format!("{inference:?}, activity"), own));
        let mut user = base;
        user.learning_order = LearningOrder::User;
        user.var_order = VarOrder::Input;
        user.decision_vars = r.marks.clone();
        out.push((format!("{inference:?}, the marks in order"), user));
    }
    for (_, o) in &mut out {
        o.limits.nodes = Some(200_000);
    }
    out
}

#[test]
fn nogoods_learned_on_rulers_exclude_no_better_ruler() {
    let mut learned = 0;
    for (k, len, seeds) in [(5, 13, 0..10u64), (6, 19, 0..6), (7, 26, 0..3)] {
        for seed in seeds {
            let r = ruler(k, len, seed);
            let sols = rulers(&r, k, len);
            let cost = r.marks[k - 1];
            let best = sols.iter().map(|s| s[cost.index()]).min();
            for (what, o) in configs(&r) {
                let what = format!("{k} marks, length {len}, seed {seed}, {what}");
                let ngs = learned_nogoods(&r.model, o.clone(), Some((cost, true)), Some(20));
                learned += ngs.len();
                check_nogoods(&r.model, &sols, &ngs, Some((cost, true)), &what);
                let found = Search::new(&r.model).options(o).minimize(cost).unwrap();
                assert!(found.proven, "{what}: not proven within the node limit");
                assert_eq!(found.objective, best, "{what}");
                if let Some(s) = &found.best {
                    r.model.check(s.values()).unwrap();
                }
            }
        }
    }
    eprintln!("{learned} nogoods learned");
    assert!(learned > 1_000, "only {learned} nogoods learned");
}

/// The Golomb rulers of `k` marks and length `len` whose first gap is
/// shorter than their last, by a depth-first search over the marks with
/// the differences used so far as a bit set (independent of the model).
fn optimal_rulers(k: usize, len: Value) -> Vec<Vec<Value>> {
    fn go(ms: &mut Vec<Value>, used: u128, k: usize, len: Value, out: &mut Vec<Vec<Value>>) {
        if ms.len() == k - 1 {
            let mut u = used;
            for &a in ms.iter() {
                let bit = 1u128 << (len - a);
                if u & bit != 0 {
                    return;
                }
                u |= bit;
            }
            if ms[1] < len - ms[k - 2] {
                let mut r = ms.clone();
                r.push(len);
                out.push(r);
            }
            return;
        }
        for v in ms.last().unwrap() + 1..len {
            let mut u = used;
            let ok = ms.iter().all(|&a| {
                let bit = 1u128 << (v - a);
                let fresh = u & bit == 0;
                u |= bit;
                fresh
            });
            if ok {
                ms.push(v);
                go(ms, u, k, len, out);
                ms.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut vec![0], 0, k, len, &mut out);
    out
}

/// Golomb-9 as MiniZinc's golomb.mzn has it (marks in `0..81`, the marks
/// in order, smallest value first by binary branching, no restarts): the
/// search that proved 46 when a wrong all-different reason met a first
/// UIP on composite literals. The optimum is 44; every nogood learned
/// under a bound of 44 or more admits every optimal ruler.
#[test]
fn golomb_9_under_its_minizinc_search_is_proven_44() {
    let (k, len) = (9, 81);
    let r = ruler(k, len, u64::MAX);
    let n = r.model.vars().count();
    let best: Vec<Vec<Value>> = optimal_rulers(k, 44)
        .into_iter()
        .map(|ms| {
            let mut s = vec![0; n];
            for (x, &v) in r.marks.iter().zip(&ms) {
                s[x.index()] = v;
            }
            for &(i, j, d) in &r.diffs {
                s[d.index()] = ms[j] - ms[i];
            }
            s
        })
        .collect();
    assert!(!best.is_empty(), "no Golomb ruler of 9 marks and length 44");
    let cost = r.marks[k - 1];
    let o = SearchOptions {
        inference: Inference::Mac,
        learning: true,
        learning_order: LearningOrder::User,
        var_order: VarOrder::Input,
        val_order: ValOrder::BinaryMin,
        decision_vars: r.marks.clone(),
        ..SearchOptions::default()
    };
    let ngs = learned_nogoods(&r.model, o.clone(), Some((cost, true)), None);
    check_nogoods(&r.model, &best, &ngs, Some((cost, true)), "golomb-9");
    let found = Search::new(&r.model).options(o).minimize(cost).unwrap();
    assert!(found.proven, "golomb-9: {found}");
    assert_eq!(found.objective, Some(44), "golomb-9");
}
