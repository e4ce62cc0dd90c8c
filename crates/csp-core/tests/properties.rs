//! Property tests: random small CSPs solved under every inference level,
//! variable order and value order give exactly the brute-force solution set.

use csp_core::testing::check_model;
use csp_core::{Domain, Inference, Model, Relation, VarId};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Spec {
    Ne(usize, usize, i32),
    Eq(usize, usize, i32),
    AllDiff(Vec<usize>, Vec<i32>),
    Linear(Vec<(i64, usize)>, u8, i64),
    Count(Vec<usize>, i32, u8, i64),
    Table(Vec<usize>, Vec<Vec<i32>>),
}

fn rel(r: u8) -> Relation {
    [
        Relation::Eq,
        Relation::Ne,
        Relation::Le,
        Relation::Ge,
        Relation::Lt,
        Relation::Gt,
    ][r as usize % 6]
}

fn spec(nvars: usize) -> impl Strategy<Value = Spec> {
    let v = 0..nvars;
    prop_oneof![
        (v.clone(), v.clone(), -2..=2i32).prop_map(|(a, b, c)| Spec::Ne(a, b, c)),
        (v.clone(), v.clone(), -1..=1i32).prop_map(|(a, b, c)| Spec::Eq(a, b, c)),
        proptest::collection::vec((v.clone(), -2..=2i32), 2..4).prop_map(|t| Spec::AllDiff(
            t.iter().map(|x| x.0).collect(),
            t.iter().map(|x| x.1).collect()
        )),
        (
            proptest::collection::vec((-3..=3i64, v.clone()), 1..4),
            0..4u8,
            -4..=6i64
        )
            .prop_map(|(t, r, c)| Spec::Linear(t, r, c)),
        (
            proptest::collection::vec(v.clone(), 1..4),
            0..=3i32,
            0..4u8,
            0..=2i64
        )
            .prop_map(|(t, val, r, k)| Spec::Count(t, val, r, k)),
        (
            proptest::collection::vec(v, 2..3),
            proptest::collection::vec(proptest::collection::vec(-1..=3i32, 2), 0..6)
        )
            .prop_map(|(t, rows)| Spec::Table(t, rows)),
    ]
}

/// A model with one variable over `lo..=lo + w` per `(lo, w)`.
fn with_vars(doms: &[(i32, i32)]) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let xs = doms
        .iter()
        .map(|&(lo, w)| m.new_var(Domain::range(lo, lo + w)).unwrap())
        .collect();
    (m, xs)
}

fn build(doms: &[(i32, i32)], specs: &[Spec]) -> Model {
    let (mut m, xs) = with_vars(doms);
    for s in specs {
        match s {
            Spec::Ne(a, b, c) => {
                m.not_equal(xs[*a], xs[*b], *c).unwrap();
            }
            Spec::Eq(a, b, c) => {
                m.equal(xs[*a], xs[*b], *c).unwrap();
            }
            Spec::AllDiff(vs, offs) => {
                let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                m.all_different_offset(&vars, offs).unwrap();
            }
            Spec::Linear(t, r, c) => {
                let terms: Vec<(i64, VarId)> = t.iter().map(|&(a, i)| (a, xs[i])).collect();
                m.linear(&terms, rel(*r), *c).unwrap();
            }
            Spec::Count(vs, val, r, k) => {
                let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                m.count(&vars, *val, rel(*r), *k).unwrap();
            }
            Spec::Table(vs, rows) => {
                let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                m.table(&vars, rows.clone()).unwrap();
            }
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn every_configuration_matches_brute_force(
        doms in proptest::collection::vec((-1..=1i32, 1..=3i32), 3..=5),
        specs in proptest::collection::vec(spec(3), 1..=4),
    ) {
        let m = build(&doms, &specs);
        if let Err(e) = check_model(&m) {
            prop_assert!(false, "{e}\nmodel: {specs:?} over {doms:?}");
        }
    }
}

/// Two to four all-different constraints over one variable list (with
/// offsets, as N-queens' columns and diagonals), which forward checking runs
/// as one fused group, in waves; `extra` adds a constraint on two of the
/// variables, so the group is not the only one watching them. The list is
/// the variables rotated by `rotate`: in declaration order (0) the group is
/// checked eight positions at a time, otherwise one peer at a time.
fn fused(
    doms: &[(i32, i32)],
    offsets: &[Vec<i32>],
    extra: Option<(usize, usize, i32)>,
    rotate: usize,
) -> Model {
    let (mut m, mut xs) = with_vars(doms);
    let k = rotate % xs.len();
    xs.rotate_left(k);
    for offs in offsets {
        m.all_different_offset(&xs, &offs[..xs.len()]).unwrap();
    }
    if let Some((a, b, c)) = extra {
        m.not_equal(xs[a % xs.len()], xs[b % xs.len()], c).unwrap();
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn fused_all_different_groups_match_brute_force(
        doms in proptest::collection::vec((0..=1i32, 2..=5i32), 3..=6),
        offsets in proptest::collection::vec(proptest::collection::vec(-3..=3i32, 6), 2..=4),
        extra in proptest::option::of((0..6usize, 0..6usize, -1..=1i32)),
        rotate in prop_oneof![Just(0usize), 1..6usize],
    ) {
        let m = fused(&doms, &offsets, extra, rotate);
        if let Err(e) = check_model(&m) {
            prop_assert!(
                false,
                "{e}\noffsets {offsets:?} over {doms:?}, extra {extra:?}, rotate {rotate}"
            );
        }
    }
}

/// Caps `m`'s constraints at the levels `caps` names, in turn (0: no cap,
/// 1: none, 2: forward checking, 3: MAC).
fn cap(m: &mut Model, caps: &[u8]) {
    let ids: Vec<_> = m.constraints().map(|(c, _)| c).collect();
    for (c, &k) in ids.into_iter().zip(caps.iter().cycle()) {
        let level = match k % 4 {
            0 => continue,
            1 => Inference::None,
            2 => Inference::ForwardChecking,
            _ => Inference::Mac,
        };
        m.cap_inference(c, level).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// Per-constraint inference caps change pruning, never solutions.
    #[test]
    fn capped_constraints_match_brute_force(
        doms in proptest::collection::vec((-1..=1i32, 1..=3i32), 3..=5),
        specs in proptest::collection::vec(spec(3), 1..=4),
        caps in proptest::collection::vec(0..4u8, 1..=4),
    ) {
        let mut m = build(&doms, &specs);
        cap(&mut m, &caps);
        if let Err(e) = check_model(&m) {
            prop_assert!(false, "{e}\nmodel: {specs:?} over {doms:?}, caps {caps:?}");
        }
    }

    /// All-different groups capped at forward checking are fused under MAC
    /// too, beside an uncapped constraint on the same variables.
    #[test]
    fn capped_fused_groups_match_brute_force(
        doms in proptest::collection::vec((0..=1i32, 2..=5i32), 3..=6),
        offsets in proptest::collection::vec(proptest::collection::vec(-3..=3i32, 6), 2..=4),
        extra in proptest::option::of((0..6usize, 0..6usize, -1..=1i32)),
    ) {
        let mut m = fused(&doms, &offsets, extra, 0);
        let caps = vec![2u8; offsets.len()];
        cap(&mut m, &caps);
        if let Err(e) = check_model(&m) {
            prop_assert!(false, "{e}\noffsets {offsets:?} over {doms:?}, extra {extra:?}");
        }
    }
}

/// N-queens from 4 to 7 (one fused group of three): the counts the search
/// reports, and every solution it lists, checked against brute force.
#[test]
fn queens_groups_match_brute_force() {
    for n in 4..=7usize {
        let rows: Vec<i32> = (0..n as i32).collect();
        let neg: Vec<i32> = rows.iter().map(|r| -r).collect();
        let offsets = vec![vec![0; n], rows, neg];
        let m = fused(&vec![(0, n as i32 - 1); n], &offsets, None, 0);
        check_model(&m).unwrap();
    }
}

/// Declared domains of every shape the store represents: small ranges,
/// spans over 64 with few values (lists), values at the `i32` extremes.
fn shaped(kind: u8, lo: i32) -> Domain {
    match kind % 7 {
        0 => Domain::range(lo, lo + 2),
        1 => Domain::range(i32::MAX - 2, i32::MAX),
        2 => Domain::range(i32::MIN, i32::MIN + 2),
        3 => Domain::values([i32::MIN, 0, i32::MAX]),
        4 => Domain::values([-100_000, lo, 100_000]),
        5 => Domain::values([-70, 0, 1, 70]),
        _ => Domain::values([i32::MIN + 1, lo, i32::MAX - 1]),
    }
}

#[derive(Debug, Clone)]
enum Extra {
    /// A constraint over no variables, true or false.
    Empty(bool),
    /// A predicate whose scope repeats a variable.
    Repeated(usize),
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn extreme_and_holey_domains_match_brute_force(
        kinds in proptest::collection::vec((0..7u8, -1..=1i32), 3..=4),
        specs in proptest::collection::vec(spec(3), 1..=3),
        extra in proptest::option::of(prop_oneof![
            any::<bool>().prop_map(Extra::Empty),
            (0..3usize).prop_map(Extra::Repeated),
        ]),
    ) {
        let mut m = Model::new();
        let xs: Vec<VarId> = kinds
            .iter()
            .map(|&(k, lo)| m.new_var(shaped(k, lo)).unwrap())
            .collect();
        for s in &specs {
            // The same constraints as above; linear sums over the extremes
            // are refused by the model's range check, which is fine.
            let _ = match s {
                Spec::Ne(a, b, c) => m.not_equal(xs[*a], xs[*b], *c).map(|_| ()),
                Spec::Eq(a, b, c) => m.equal(xs[*a], xs[*b], *c).map(|_| ()),
                Spec::AllDiff(vs, offs) => {
                    let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                    m.all_different_offset(&vars, offs).map(|_| ())
                }
                Spec::Linear(t, r, c) => {
                    let terms: Vec<(i64, VarId)> = t.iter().map(|&(a, i)| (a, xs[i])).collect();
                    m.linear(&terms, rel(*r), *c).map(|_| ())
                }
                Spec::Count(vs, val, r, k) => {
                    let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                    m.count(&vars, *val, rel(*r), *k).map(|_| ())
                }
                Spec::Table(vs, rows) => {
                    let vars: Vec<VarId> = vs.iter().map(|&i| xs[i]).collect();
                    m.table(&vars, rows.clone()).map(|_| ())
                }
            };
        }
        match extra {
            Some(Extra::Empty(b)) => {
                m.predicate(&[], "constant", move |_| b).unwrap();
            }
            Some(Extra::Repeated(i)) => {
                let x = xs[i];
                m.predicate(&[x, xs[(i + 1) % xs.len()], x], "repeat", |v| v[0] != v[1] || v[2] > 0)
                    .unwrap();
            }
            None => {}
        }
        if let Err(e) = check_model(&m) {
            prop_assert!(false, "{e}\nmodel: {specs:?} over {kinds:?}, extra {extra:?}");
        }
    }
}

/// N-queens' three all-different constraints capped at forward checking
/// search the same tree under MAC as under forward checking, fused into
/// one propagator (one propagation per node, as under forward checking);
/// an unknown constraint is refused.
#[test]
fn capped_queens_run_fused_under_mac() {
    use csp_core::Search;
    let n = 8usize;
    let rows: Vec<i32> = (0..n as i32).collect();
    let neg: Vec<i32> = rows.iter().map(|r| -r).collect();
    let mut m = fused(
        &vec![(0, n as i32 - 1); n],
        &[vec![0; n], rows, neg],
        None,
        0,
    );
    let fc = Search::new(&m)
        .inference(Inference::ForwardChecking)
        .count()
        .unwrap();
    let mac = Search::new(&m).inference(Inference::Mac).count().unwrap();
    cap(&mut m, &[2]);
    let capped = Search::new(&m).inference(Inference::Mac).count().unwrap();
    assert_eq!((fc.count, mac.count, capped.count), (92, 92, 92));
    assert_eq!(capped.stats.nodes, fc.stats.nodes);
    assert_eq!(capped.stats.propagations, fc.stats.propagations);
    assert_ne!(mac.stats.propagations, fc.stats.propagations);
    let foreign = Model::new().cap_inference(
        m.constraints().next().unwrap().0,
        Inference::ForwardChecking,
    );
    assert!(foreign.is_err());
}
