//! `diffn_var`, `diffn_k` and their non-strict variants (issue 29): boxes
//! with variable sizes in k dimensions. Brute force at every inference
//! level with every reason audited, on random small packings (zero sizes,
//! variable sizes, holes, a variable repeated), in 1, 2 and 3 dimensions
//! and at the ends of `i32`; counts against MiniZinc's decomposition on
//! larger ones; the size pruning and its reason; typed errors.

use csp_core::{
    testing, Constraint, Domain, Explainer, Inference, Literal, Model, ModelError, Search, Value,
    VarId,
};

mod common;
use common::{domains, rng};

/// Origins and sizes, box by box, `k` each.
struct Instance {
    k: usize,
    origins: Vec<Domain>,
    sizes: Vec<Domain>,
}

impl Instance {
    fn domains(&self) -> Vec<Domain> {
        self.origins.iter().chain(&self.sizes).cloned().collect()
    }
}

/// Random sizes in 0..=3: fixed now and then, zero now and then.
fn sizes(next: &mut impl FnMut(u64) -> u64, count: usize) -> Vec<Domain> {
    (0..count)
        .map(|_| match next(5) {
            0 => Domain::singleton(next(4) as i32),
            1 => Domain::values([0, 1 + next(3) as i32]),
            _ => {
                let lo = next(3) as i32;
                Domain::range(lo, lo + 1)
            }
        })
        .collect()
}

fn instance(next: &mut impl FnMut(u64) -> u64, round: u64, k: usize, n: usize) -> Instance {
    let holes = round % 5 == 4;
    Instance {
        k,
        origins: domains(next, n * k, (-1, 4, 3), holes),
        sizes: sizes(next, n * k),
    }
}

/// The harness on one instance: strict or not, two-dimensional through
/// `diffn_var` or k-dimensional; with `repeat`, the last box's last
/// origin is the first box's first origin.
fn check(inst: &Instance, strict: bool, planar: bool, repeat: bool) {
    let k = inst.k;
    let doms = inst.domains();
    let half = inst.origins.len();
    testing::check_constraint(&doms, |m, v| {
        let (o, s) = v.split_at(half);
        let mut o = o.to_vec();
        if repeat {
            o[half - 1] = o[0];
        }
        let boxes: Vec<&[VarId]> = o.chunks(k).collect();
        let sizes: Vec<&[VarId]> = s.chunks(k).collect();
        if planar {
            let pick = |b: &[&[VarId]], d: usize| b.iter().map(|v| v[d]).collect::<Vec<_>>();
            let (x, y, dx, dy) = (
                pick(&boxes, 0),
                pick(&boxes, 1),
                pick(&sizes, 0),
                pick(&sizes, 1),
            );
            match strict {
                true => m.diffn_var(&x, &y, &dx, &dy),
                false => m.diffn_var_nonstrict(&x, &y, &dx, &dy),
            }
        } else {
            match strict {
                true => m.diffn_k(&boxes, &sizes),
                false => m.diffn_k_nonstrict(&boxes, &sizes),
            }
        }
        .map(|_| ())
    })
    .unwrap_or_else(|e| {
        panic!(
            "k {k} origins {:?} sizes {:?} strict {strict} planar {planar} repeat {repeat}: {e}",
            inst.origins, inst.sizes
        )
    });
}

#[test]
fn diffn_var_matches_brute_force() {
    let mut next = rng(0x6a09_e667_f3bc_c908);
    for round in 0..40 {
        let n = 2 + (round % 3 == 0) as usize;
        let inst = instance(&mut next, round, 2, n);
        check(&inst, round % 2 == 0, round % 4 < 2, round % 7 == 6);
    }
}

#[test]
fn diffn_k_in_one_and_three_dimensions_matches_brute_force() {
    let mut next = rng(0xbb67_ae85_84ca_a73b);
    for round in 0..40 {
        let (k, n) = match round % 3 {
            0 => (1, 3),
            1 => (3, 2),
            _ => (1, 4),
        };
        let inst = instance(&mut next, round, k, n);
        check(&inst, round % 2 == 0, false, round % 5 == 3);
    }
}

/// Tight boxes where the pairs are forced to overlap on all but one
/// dimension, and sizes that may be 0 (the non-strict variant's single
/// zero-able size).
#[test]
fn diffn_var_tight_boxes_match_brute_force() {
    let mut next = rng(0x3c6e_f372_fe94_f82b);
    for round in 0..50 {
        let n = 3;
        let origins = domains(&mut next, 2 * n, (0, 2, 2), false);
        let sizes: Vec<Domain> = (0..2 * n)
            .map(|_| match next(3) {
                0 => Domain::range(0, 2),
                1 => Domain::range(1, 3),
                _ => Domain::singleton(1 + next(2) as i32),
            })
            .collect();
        let inst = Instance {
            k: 2,
            origins,
            sizes,
        };
        check(&inst, round % 2 == 1, round % 3 == 0, false);
    }
}

#[test]
fn diffn_k_at_the_ends_of_i32() {
    let ends = [
        Domain::values([i32::MIN, i32::MIN + 1, i32::MIN + 3]),
        Domain::values([i32::MAX - 5, i32::MAX - 1, i32::MAX]),
        Domain::values([i32::MIN, -1, 0, i32::MAX]),
    ];
    let big = [
        Domain::values([0, i32::MAX]),
        Domain::values([1, i32::MAX - 1, i32::MAX]),
        Domain::values([0, 2, 5]),
    ];
    for round in 0..6 {
        let origins: Vec<Domain> = (0..4).map(|q| ends[(q + round) % 3].clone()).collect();
        let sizes: Vec<Domain> = (0..4)
            .map(|q| big[(q * 2 + round / 2) % 3].clone())
            .collect();
        let inst = Instance {
            k: 2,
            origins,
            sizes,
        };
        check(&inst, round % 2 == 0, round % 3 == 0, false);
    }
}

/// MiniZinc's decomposition (`fzn_diffn_k.mzn`, `fzn_diffn_nonstrict_k.mzn`
/// of its standard library) as a checker, written independently of the
/// constraint's own.
#[derive(Debug)]
struct Decomposition {
    scope: Vec<VarId>,
    k: usize,
    strict: bool,
}

impl Constraint for Decomposition {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let v: Vec<i64> = v.iter().map(|&a| a as i64).collect();
        let half = v.len() / 2;
        let n = half / self.k;
        let (o, s) = v.split_at(half);
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (0..self.k).any(|d| {
                    let (a, b) = (i * self.k + d, j * self.k + d);
                    (!self.strict && (s[a] == 0 || s[b] == 0))
                        || o[a] + s[a] <= o[b]
                        || o[b] + s[b] <= o[a]
                })
            })
        })
    }
}

/// Counting with the propagator agrees with counting with the
/// decomposition as a checker, at every inference level, on instances too
/// big for the harness.
#[test]
fn diffn_k_counts_like_the_decomposition() {
    let mut next = rng(0xa54f_f53a_5f1d_36f1);
    let mut packed = 0;
    for round in 0..24 {
        // Up to 250,000 assignments, which the decomposition enumerates.
        let k = 1 + (round % 3) as usize;
        let (n, ow, sw) = match k {
            1 => (5, 4, 3),
            2 => (3, 3, 2),
            _ => (3, 2, 2),
        };
        let origins: Vec<Domain> = (0..n * k)
            .map(|_| {
                let lo = next(3) as i32;
                Domain::range(lo, lo + next(ow) as i32)
            })
            .collect();
        let sizes: Vec<Domain> = (0..n * k)
            .map(|_| {
                let lo = next(3) as i32;
                Domain::range(lo, lo + next(sw) as i32)
            })
            .collect();
        let strict = round % 2 == 0;
        let count = |native: bool, inference| {
            let mut m = Model::new();
            let o = vars_of(&mut m, &origins);
            let s = vars_of(&mut m, &sizes);
            let boxes: Vec<&[VarId]> = o.chunks(k).collect();
            let dims: Vec<&[VarId]> = s.chunks(k).collect();
            match (native, strict) {
                (true, true) => m.diffn_k(&boxes, &dims).map(|_| ()),
                (true, false) => m.diffn_k_nonstrict(&boxes, &dims).map(|_| ()),
                (false, _) => m
                    .post(Decomposition {
                        scope: o.iter().chain(&s).copied().collect(),
                        k,
                        strict,
                    })
                    .map(|_| ()),
            }
            .unwrap();
            Search::new(&m).inference(inference).count().unwrap().count
        };
        let expected = count(false, Inference::None);
        packed += (expected > 0) as usize;
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            assert_eq!(
                count(true, inference),
                expected,
                "round {round}: k {k} {origins:?} {sizes:?} strict {strict} {inference:?}"
            );
        }
    }
    // Most rounds have packings to count.
    assert!(packed >= 12, "{packed} of 24 rounds with a packing");
}

/// A 3 × 2 rectangle fixed at the origin and a second one at x ≥ 1 whose
/// y range meets it: the first cannot come second, so the second starts
/// at x ≥ 3, and a first rectangle of variable width at x = 0 before one
/// at x ≤ 4 is at most 4 wide. Each at the root, with its reason.
#[test]
fn forced_order_caps_the_first_size() {
    let mut m = Model::new();
    let x = [
        m.new_var(Domain::range(0, 1)).unwrap(),
        m.new_var(Domain::range(2, 4)).unwrap(),
    ];
    let y = m.new_vars(2, Domain::range(0, 1)).unwrap();
    let w = [
        m.new_var(Domain::range(2, 9)).unwrap(),
        m.new_var(Domain::range(1, 9)).unwrap(),
    ];
    let h = m.new_vars(2, Domain::range(2, 3)).unwrap();
    m.diffn_var(&x, &y, &w, &h).unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    // Rectangle 1 cannot come first on x (it starts at 2 or later, 0
    // starts at 1 or earlier); 0 must end by max x₁ = 4.
    assert!(ex.holds(Literal::Le(w[0], 4)).unwrap());
    assert!(!ex.holds(Literal::Le(w[0], 3)).unwrap());
    // Deciding x₀ = 1 leaves w₀ ≤ 3 and x₁ ≥ 3.
    ex.decide(Literal::Eq(x[0], 1)).unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    assert!(ex.holds(Literal::Le(w[0], 3)).unwrap());
    assert!(ex.holds(Literal::Ge(x[1], 3)).unwrap());
    let why = ex.why(Literal::Ge(x[1], 3)).unwrap();
    assert_eq!(why.decisions(), vec![Literal::Eq(x[0], 1)], "{why}");
}

/// Non-strict: a pair forced to overlap everywhere while one size may
/// still be 0 makes that size 0 at the root; strict, it fails there.
#[test]
fn nonstrict_overlap_zeroes_the_only_free_size() {
    for strict in [false, true] {
        let mut m = Model::new();
        let x = [
            m.new_var(Domain::singleton(2)).unwrap(),
            m.new_var(Domain::range(0, 1)).unwrap(),
        ];
        let y = m.new_vars(2, Domain::range(0, 1)).unwrap();
        let w = [
            m.new_var(Domain::range(if strict { 3 } else { 0 }, 5))
                .unwrap(),
            m.new_var(Domain::range(3, 5)).unwrap(),
        ];
        let h = m.new_vars(2, Domain::range(3, 5)).unwrap();
        match strict {
            true => m.diffn_var(&x, &y, &w, &h),
            false => m.diffn_var_nonstrict(&x, &y, &w, &h),
        }
        .unwrap();
        let mut ex = Explainer::new(&m);
        let root = ex.propagate();
        ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
        if strict {
            assert!(root.is_err());
        } else {
            root.unwrap();
            assert!(ex.holds(Literal::Le(w[0], 0)).unwrap());
        }
    }
}

#[test]
fn diffn_k_bad_arguments_are_errors() {
    let mut m = Model::new();
    let o = m.new_vars(4, Domain::range(0, 5)).unwrap();
    let s = m.new_vars(4, Domain::range(0, 2)).unwrap();
    let neg = m.new_var(Domain::range(-1, 2)).unwrap();
    let e = m
        .diffn_var(&o[..2], &o[2..3], &s[..2], &s[2..])
        .unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m
        .diffn_var(&o[..2], &o[2..], &[s[0], neg], &s[2..])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("diffn: box 1 may have a negative size on dimension 0 (down to -1)"),
        "{e}"
    );
    let e = m
        .diffn_k(&[&o[..2], &o[2..3]], &[&s[..2], &s[2..]])
        .unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.diffn_k(&[&o[..2]], &[&s[..2], &s[2..]]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let none: [&[VarId]; 2] = [&[], &[]];
    let e = m.diffn_k_nonstrict(&none, &none).unwrap_err();
    assert!(
        e.to_string()
            .contains("diffn_nonstrict_k: the boxes have no dimension"),
        "{e}"
    );
    // No boxes at all: nothing to do.
    let empty: [&[VarId]; 0] = [];
    m.diffn_k(&empty, &empty).unwrap();
    assert!(Search::new(&m).solve().unwrap().solution.is_some());
}

/// `to_minizinc` writes MiniZinc's own globals, each from its file.
#[test]
fn diffn_k_to_minizinc() {
    let mut m = Model::new();
    let o = m.new_vars_named("o", [4], Domain::range(0, 3)).unwrap();
    let s = m.new_vars_named("s", [4], Domain::range(0, 3)).unwrap();
    let (o, s): (Vec<VarId>, Vec<VarId>) = (o.to_vec(), s.to_vec());
    m.diffn_var(&o[..2], &o[2..], &s[..2], &s[2..]).unwrap();
    m.diffn_k_nonstrict(&[&o[..2], &o[2..]], &[&s[..2], &s[2..]])
        .unwrap();
    // With order literals: the literals' definitions beside the global.
    let b = m
        .new_vars_named("b", [4], Domain::range(0, 1))
        .unwrap()
        .to_vec();
    m.diffn_var_ordered(&o[..2], &o[2..], &s[..2], &s[2..], &b)
        .unwrap();
    let mzn = m.to_minizinc().unwrap();
    assert!(
        mzn.contains(
            "constraint diffn([o_0, o_1], [o_2, o_3], [s_0, s_1], [s_2, s_3]) /\\ \
             b_0 = bool2int(o_0 + s_0 <= o_1) /\\ b_2 = bool2int(o_2 + s_2 <= o_3) /\\ \
             b_1 = bool2int(o_1 + s_1 <= o_0) /\\ b_3 = bool2int(o_3 + s_3 <= o_2);"
        ),
        "{mzn}"
    );
    assert!(mzn.contains("include \"diffn.mzn\";"), "{mzn}");
    assert!(mzn.contains("include \"diffn_nonstrict_k.mzn\";"), "{mzn}");
    assert!(
        mzn.contains("constraint diffn([o_0, o_1], [o_2, o_3], [s_0, s_1], [s_2, s_3]);"),
        "{mzn}"
    );
    assert!(
        mzn.contains(
            "constraint diffn_nonstrict_k(array2d(1..2, 1..2, [o_0, o_1, o_2, o_3]), \
             array2d(1..2, 1..2, [s_0, s_1, s_2, s_3]));"
        ),
        "{mzn}"
    );
}

/// Random domains for the order literals: open mostly, fixed now and then
/// (a literal fixed by the caller pushes the bounds).
fn order_domains(next: &mut impl FnMut(u64) -> u64, count: usize) -> Vec<Domain> {
    (0..count)
        .map(|_| match next(6) {
            0 => Domain::singleton(0),
            1 => Domain::singleton(1),
            _ => Domain::range(0, 1),
        })
        .collect()
}

/// The harness on `diffn_k_ordered` (or `diffn_var_ordered` when
/// `planar`): origins, sizes, then the order literals, or with
/// `literals_first` the literals first (the harness's searches decide
/// the variables in their order: deciding a literal pushes the bounds).
fn check_ordered(inst: &Instance, order: &[Domain], planar: bool, literals_first: bool) {
    let k = inst.k;
    let half = inst.origins.len();
    let doms: Vec<Domain> = match literals_first {
        true => order.iter().cloned().chain(inst.domains()).collect(),
        false => inst
            .domains()
            .into_iter()
            .chain(order.iter().cloned())
            .collect(),
    };
    testing::check_constraint(&doms, |m, v| {
        let (b, o, s) = match literals_first {
            true => {
                let (b, rest) = v.split_at(order.len());
                let (o, s) = rest.split_at(half);
                (b, o, s)
            }
            false => {
                let (o, rest) = v.split_at(half);
                let (s, b) = rest.split_at(half);
                (b, o, s)
            }
        };
        let boxes: Vec<&[VarId]> = o.chunks(k).collect();
        let sizes: Vec<&[VarId]> = s.chunks(k).collect();
        if planar {
            let pick = |b: &[&[VarId]], d: usize| b.iter().map(|v| v[d]).collect::<Vec<_>>();
            m.diffn_var_ordered(
                &pick(&boxes, 0),
                &pick(&boxes, 1),
                &pick(&sizes, 0),
                &pick(&sizes, 1),
                b,
            )
        } else {
            m.diffn_k_ordered(&boxes, &sizes, b)
        }
        .map(|_| ())
    })
    .unwrap_or_else(|e| {
        panic!(
            "ordered: k {k} origins {:?} sizes {:?} order {order:?} planar {planar}: {e}",
            inst.origins, inst.sizes
        )
    });
}

/// With order literals: brute force at every inference level, every
/// reason audited, in 1 and 2 dimensions, the literals open or fixed.
#[test]
fn diffn_ordered_matches_brute_force() {
    let mut next = rng(0x510e_527f_ade6_82d1);
    for round in 0..36 {
        let (k, n) = match round % 3 {
            0 => (2, 2),
            1 => (1, 3),
            _ => (1, 2),
        };
        let inst = instance(&mut next, round, k, n);
        let order = order_domains(&mut next, n * (n - 1) * k);
        check_ordered(&inst, &order, k == 2 && round % 2 == 0, round % 4 < 2);
    }
}

/// The literals are exact: in every solution each says whether its box
/// lies before the other, and the packings are those of `diffn_k`.
#[test]
fn order_literals_say_which_box_comes_first() {
    let mut next = rng(0x9b05_688c_2b3e_6c1f);
    let mut seen = 0;
    for round in 0..12 {
        let (k, n) = if round % 2 == 0 { (2, 3) } else { (1, 4) };
        let origins: Vec<Domain> = (0..n * k)
            .map(|_| Domain::range(0, 1 + next(3) as i32))
            .collect();
        let sizes: Vec<Domain> = (0..n * k)
            .map(|_| {
                let lo = next(3) as i32;
                Domain::range(lo, lo + next(2) as i32)
            })
            .collect();
        let build = |ordered: bool| {
            let mut m = Model::new();
            let o = vars_of(&mut m, &origins);
            let s = vars_of(&mut m, &sizes);
            let boxes: Vec<&[VarId]> = o.chunks(k).collect();
            let dims: Vec<&[VarId]> = s.chunks(k).collect();
            let b = match ordered {
                true => {
                    let b = m.new_vars(n * (n - 1) * k, Domain::range(0, 1)).unwrap();
                    m.diffn_k_ordered(&boxes, &dims, &b).unwrap();
                    b
                }
                false => {
                    m.diffn_k(&boxes, &dims).unwrap();
                    Vec::new()
                }
            };
            (m, o, s, b)
        };
        let (plain, ..) = build(false);
        let expected = Search::new(&plain).count().unwrap().count;
        let (m, o, s, b) = build(true);
        for inference in [Inference::ForwardChecking, Inference::Mac] {
            let sols: Vec<_> = Search::new(&m)
                .inference(inference)
                .solutions()
                .unwrap()
                .collect();
            assert_eq!(sols.len() as u128, expected, "round {round} {inference:?}");
            for sol in &sols {
                // The literals in the documented order.
                let mut at = 0;
                for i in 0..n {
                    for j in i + 1..n {
                        for d in 0..k {
                            for (f, g) in [(i, j), (j, i)] {
                                let before =
                                    sol[o[f * k + d]] + sol[s[f * k + d]] <= sol[o[g * k + d]];
                                assert_eq!(sol[b[at]], i32::from(before), "round {round}");
                                at += 1;
                            }
                        }
                    }
                }
            }
        }
        seen += (expected > 0) as usize;
    }
    assert!(seen >= 6, "only {seen} of 12 rounds have a packing");
}

/// Under the learning search, a small strip packing with order literals:
/// every nogood learned keeps every packing within the bound it was
/// learned under, and the optimum is brute force's. (Brute force runs
/// on the model without the literals, whose values each packing fixes.)
#[test]
fn ordered_strip_packing_under_learning() {
    use csp_core::testing::{brute_force, learned_nogoods};
    use csp_core::{LearningOrder, Relation, SearchOptions};
    let mut learned = 0;
    for (round, sides) in [[(2i32, 1i32), (1, 2), (2, 2)], [(3, 1), (2, 1), (1, 1)]]
        .iter()
        .enumerate()
    {
        let (w, top) = (3i32, 4i32);
        let n = sides.len();
        let build = |ordered: bool| {
            let mut m = Model::new();
            let h = m.new_var(Domain::range(1, top)).unwrap();
            let x = m.new_vars(n, Domain::range(0, w - 1)).unwrap();
            let y = m.new_vars(n, Domain::range(0, top - 1)).unwrap();
            let (mut dx, mut dy) = (Vec::new(), Vec::new());
            for &(a, b) in sides.iter() {
                // Lying flat or standing: dx + dy = a + b, dx ∈ {a, b}.
                let d = m.new_var(Domain::values([a, b])).unwrap();
                let e = m.new_var(Domain::values([a, b])).unwrap();
                m.linear(&[(1, d), (1, e)], Relation::Eq, i64::from(a + b))
                    .unwrap();
                dx.push(d);
                dy.push(e);
            }
            for i in 0..n {
                m.linear(&[(1, x[i]), (1, dx[i])], Relation::Le, i64::from(w))
                    .unwrap();
                m.linear(&[(1, y[i]), (1, dy[i]), (-1, h)], Relation::Le, 0)
                    .unwrap();
            }
            if ordered {
                let order = m.new_vars(n * (n - 1) * 2, Domain::range(0, 1)).unwrap();
                m.diffn_var_ordered(&x, &y, &dx, &dy, &order).unwrap();
            } else {
                m.diffn_var(&x, &y, &dx, &dy).unwrap();
            }
            (m, h, x, y, dx, dy)
        };
        let (plain, ..) = build(false);
        let (m, h, x, y, dx, dy) = build(true);
        // Each packing with its order literals, in the documented order.
        let sols: Vec<Vec<Value>> = brute_force(&plain)
            .expect("small enough to enumerate")
            .into_iter()
            .map(|mut s| {
                let v = |id: VarId| s[id.index()];
                let mut order = Vec::new();
                for i in 0..n {
                    for j in i + 1..n {
                        for (o, size) in [(&x, &dx), (&y, &dy)] {
                            for (f, g) in [(i, j), (j, i)] {
                                let before = v(o[f]) + v(size[f]) <= v(o[g]);
                                order.push(Value::from(before));
                            }
                        }
                    }
                }
                s.extend(order);
                s
            })
            .collect();
        let best = sols.iter().map(|s| s[h.index()]).min().expect("a packing");
        for order_kind in [LearningOrder::User, LearningOrder::Activity] {
            let o = SearchOptions {
                learning: true,
                learning_order: order_kind,
                inference: Inference::Mac,
                ..SearchOptions::default()
            };
            let ngs = learned_nogoods(&m, o.clone(), Some((h, true)), None);
            learned += ngs.len();
            for ng in &ngs {
                for s in sols
                    .iter()
                    .filter(|s| ng.bound.is_none_or(|b| s[h.index()] <= b))
                {
                    let holds = ng.clause.iter().any(|l| l.admits(s[l.var().index()]));
                    assert!(
                        holds,
                        "round {round}: nogood {:?} excludes {s:?}",
                        ng.clause
                    );
                }
            }
            let r = Search::new(&m).options(o).minimize(h).unwrap();
            assert!(r.is_optimal(), "round {round} {order_kind:?}");
            assert_eq!(r.objective, Some(best), "round {round} {order_kind:?}");
        }
    }
    assert!(learned > 0, "the search learned nothing");
}

#[test]
fn diffn_ordered_bad_arguments_are_errors() {
    let mut m = Model::new();
    let o = m.new_vars(4, Domain::range(0, 5)).unwrap();
    let s = m.new_vars(4, Domain::range(0, 2)).unwrap();
    let b = m.new_vars(4, Domain::range(0, 1)).unwrap();
    let wide = m.new_var(Domain::range(0, 2)).unwrap();
    let e = m
        .diffn_var_ordered(&o[..2], &o[2..], &s[..2], &s[2..], &b[..3])
        .unwrap_err();
    assert!(
        matches!(
            e,
            ModelError::LengthMismatch {
                expected: 4,
                found: 3,
                ..
            }
        ),
        "{e}"
    );
    let e = m
        .diffn_var_ordered(
            &o[..2],
            &o[2..],
            &s[..2],
            &s[2..],
            &[b[0], b[1], b[2], wide],
        )
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("diffn: order literal 3 is not a 0/1 variable"),
        "{e}"
    );
    m.diffn_var_ordered(&o[..2], &o[2..], &s[..2], &s[2..], &b)
        .unwrap();
}

/// The energetic check on the minimum sizes: 2 × 2 boxes at origins
/// 0..=2 lie in [0, 4) × [0, 4), which holds four of them. With five,
/// no pair is forced apart but the area overflows: the root fails, with
/// a reason the audit checks; with four it does not. Brute force (and
/// every reason audited) on both.
#[test]
fn energetic_check_on_the_minimum_sizes() {
    for (boxes, overloaded) in [(5, true), (4, false)] {
        let mut doms = vec![Domain::range(0, 2); 2 * boxes];
        doms.extend(vec![Domain::singleton(2); 2 * boxes]);
        let post = |m: &mut Model, v: &[VarId]| {
            let (o, s) = v.split_at(2 * boxes);
            let origins: Vec<&[VarId]> = o.chunks(2).collect();
            let sizes: Vec<&[VarId]> = s.chunks(2).collect();
            m.diffn_k(&origins, &sizes).map(|_| ())
        };
        let mut m = Model::new();
        let v = vars_of(&mut m, &doms);
        post(&mut m, &v).unwrap();
        let mut ex = Explainer::new(&m);
        let root = ex.propagate();
        assert_eq!(root.is_err(), overloaded, "{boxes} boxes");
        ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
        if overloaded {
            assert!(ex.conflict().is_some(), "the failure is explained");
        }
        testing::check_constraint(&doms, post).unwrap_or_else(|e| panic!("{boxes} boxes: {e}"));
    }
}

/// A new variable of `m` for each domain, in order.
fn vars_of(m: &mut Model, doms: &[Domain]) -> Vec<VarId> {
    doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect()
}
