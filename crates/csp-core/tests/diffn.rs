//! `diffn` and `diffn_nonstrict` (issue 29): brute force at every
//! inference level, with every reason audited, on random small packings
//! (zero sizes, holes, negative origins, a variable repeated), on
//! `i32`-extreme origins; counts against the pairwise decomposition of
//! MiniZinc's library; pruning at the root; typed errors.

use csp_core::{
    testing, Constraint, Domain, Explainer, Inference, Literal, Model, ModelError, Search, Value,
    VarId, VarOrder,
};

mod common;
use common::{domains, rng};

/// x domains, y domains, widths, heights.
type Instance = (Vec<Domain>, Vec<Domain>, Vec<i32>, Vec<i32>);

fn instance(next: &mut impl FnMut(u64) -> u64, round: u64) -> Instance {
    let n = 2 + next(2) as usize;
    let holes = round % 4 == 3;
    let xs = domains(next, n, (-2, 5, 4), holes);
    let ys = domains(next, n, (-2, 5, 4), holes && round % 8 == 3);
    // Sizes 0 to 4, zero now and then.
    let size = |next: &mut dyn FnMut(u64) -> u64| match next(6) {
        0 => 0,
        k => k as i32 - 1 + next(2) as i32,
    };
    let dx: Vec<i32> = (0..n).map(|_| size(next)).collect();
    let dy: Vec<i32> = (0..n).map(|_| size(next)).collect();
    (xs, ys, dx, dy)
}

/// The harness on one instance, strict or not; with `repeat`, the last
/// rectangle's y origin is the first rectangle's x origin.
fn check(inst: &Instance, strict: bool, repeat: bool) {
    let (xs, ys, dx, dy) = inst;
    let n = xs.len();
    let doms: Vec<Domain> = xs.iter().chain(ys).cloned().collect();
    testing::check_constraint(&doms, |m, v| {
        let (x, y) = v.split_at(n);
        let mut y = y.to_vec();
        if repeat {
            y[n - 1] = x[0];
        }
        match strict {
            true => m.diffn(x, &y, dx, dy),
            false => m.diffn_nonstrict(x, &y, dx, dy),
        }
        .map(|_| ())
    })
    .unwrap_or_else(|e| panic!("{xs:?} {ys:?} dx {dx:?} dy {dy:?} strict {strict}: {e}"));
}

#[test]
fn diffn_matches_brute_force() {
    let mut next = rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..80 {
        let inst = instance(&mut next, round);
        check(&inst, round % 3 != 2, round % 10 == 9);
    }
}

/// Three rectangles on tight boxes, where the pairs are forced to overlap
/// on one axis and the areas fill the box.
#[test]
fn diffn_tight_boxes_match_brute_force() {
    let mut next = rng(0x51_7cc1_b727_220a);
    for round in 0..40 {
        let xs = domains(&mut next, 3, (0, 3, 3), false);
        let ys = domains(&mut next, 3, (0, 2, 2), false);
        let dx: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
        let dy: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
        check(&(xs, ys, dx, dy), round % 4 != 3, false);
    }
}

#[test]
fn diffn_at_the_ends_of_i32() {
    let ends = [
        Domain::values([i32::MIN, i32::MIN + 1, i32::MIN + 3]),
        Domain::values([i32::MAX - 5, i32::MAX - 1, i32::MAX]),
        Domain::values([i32::MIN, -1, 0, i32::MAX]),
    ];
    let cases: [([i32; 3], [i32; 3]); 4] = [
        ([2, 3, 1], [1, 1, 1]),
        ([i32::MAX, 0, 2], [2, i32::MAX, 0]),
        ([i32::MAX, i32::MAX, i32::MAX], [i32::MAX, 1, i32::MAX]),
        ([0, 0, 5], [3, i32::MAX, 0]),
    ];
    for (dx, dy) in cases {
        for strict in [true, false] {
            let ys = vec![ends[2].clone(), ends[0].clone(), ends[1].clone()];
            check(
                &(ends.to_vec(), ys, dx.to_vec(), dy.to_vec()),
                strict,
                false,
            );
        }
    }
}

/// MiniZinc's decomposition (`fzn_diffn.mzn`, `fzn_diffn_nonstrict.mzn`)
/// as a checker, written independently of the constraint's own.
#[derive(Debug)]
struct Decomposition {
    scope: Vec<VarId>,
    dx: Vec<i64>,
    dy: Vec<i64>,
    strict: bool,
}

impl Constraint for Decomposition {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let n = self.dx.len();
        let (x, y) = v.split_at(n);
        let (x, y): (Vec<i64>, Vec<i64>) = (
            x.iter().map(|&a| a as i64).collect(),
            y.iter().map(|&a| a as i64).collect(),
        );
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (!self.strict && [self.dx[i], self.dx[j], self.dy[i], self.dy[j]].contains(&0))
                    || x[i] + self.dx[i] <= x[j]
                    || y[i] + self.dy[i] <= y[j]
                    || x[j] + self.dx[j] <= x[i]
                    || y[j] + self.dy[j] <= y[i]
            })
        })
    }
}

/// Counting with the propagator agrees with counting with the
/// decomposition posted as a checker, at every inference level, on
/// instances too big for the harness.
#[test]
fn diffn_counts_like_the_decomposition() {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    for round in 0..24 {
        let n = 4 + next(2) as usize;
        let doms: Vec<Domain> = (0..2 * n)
            .map(|_| {
                let lo = next(3) as i32;
                Domain::range(lo, lo + 2 + next(3) as i32)
            })
            .collect();
        let dx: Vec<i32> = (0..n).map(|_| next(4) as i32).collect();
        let dy: Vec<i32> = (0..n).map(|_| next(4) as i32).collect();
        let strict = round % 2 == 0;
        let count = |native: bool, inference| {
            let mut m = Model::new();
            let v: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
            let (x, y) = v.split_at(n);
            match (native, strict) {
                (true, true) => m.diffn(x, y, &dx, &dy).map(|_| ()),
                (true, false) => m.diffn_nonstrict(x, y, &dx, &dy).map(|_| ()),
                (false, _) => m
                    .post(Decomposition {
                        scope: v.clone(),
                        dx: dx.iter().map(|&d| d as i64).collect(),
                        dy: dy.iter().map(|&d| d as i64).collect(),
                        strict,
                    })
                    .map(|_| ()),
            }
            .unwrap();
            Search::new(&m).inference(inference).count().unwrap().count
        };
        let expected = count(false, Inference::None);
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            assert_eq!(
                count(true, inference),
                expected,
                "round {round}: {doms:?} dx {dx:?} dy {dy:?} strict {strict} {inference:?}"
            );
        }
    }
}

/// A 3 × 2 rectangle fixed at the origin forces a 2 × 2 one whose y
/// range meets it to x ≥ 3 at the root, without a failure.
#[test]
fn compulsory_overlap_pushes_at_the_root() {
    let mut m = Model::new();
    let x = [
        m.new_var(Domain::singleton(0)).unwrap(),
        m.new_var(Domain::range(0, 10)).unwrap(),
    ];
    let y = [
        m.new_var(Domain::singleton(0)).unwrap(),
        m.new_var(Domain::range(0, 1)).unwrap(),
    ];
    m.diffn(&x, &y, &[3, 2], &[2, 2]).unwrap();
    let r = Search::new(&m)
        .inference(Inference::Mac)
        .var_order(VarOrder::Input)
        .solve()
        .unwrap();
    let sol = r.solution.expect("a packing");
    assert_eq!(sol.value(x[1]), 3);
    assert_eq!(r.stats.failures, 0);
}

/// Five 2 × 2 squares do not fit in a 4 × 4 box: the energetic check
/// fails at the root, where no pair is forced to overlap, and its reason
/// (the squares that overflow the window) is audited by brute force;
/// four fit.
#[test]
fn overload_fails_at_the_root() {
    for (squares, overloaded) in [(5, true), (4, false)] {
        let mut m = Model::new();
        let x = m.new_vars(squares, Domain::range(0, 2)).unwrap();
        let y = m.new_vars(squares, Domain::range(0, 2)).unwrap();
        m.diffn(&x, &y, &vec![2; squares], &vec![2; squares])
            .unwrap();
        let r = Search::new(&m).inference(Inference::Mac).solve().unwrap();
        assert_eq!(r.solution.is_none(), overloaded, "{squares} squares");
        let mut ex = Explainer::new(&m);
        assert_eq!(ex.propagate().is_err(), overloaded, "{squares} squares");
        ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
        if overloaded {
            assert_eq!(r.stats.nodes, 0);
            assert!(ex.conflict().is_some(), "the failure is explained");
        }
    }
    // In a 6 × 6 box decisions bring the five into the 4 × 4 corner: the
    // failure must name all five (with one left out, it could move away
    // and the other four fit).
    let mut m = Model::new();
    let x = m.new_vars(5, Domain::range(0, 4)).unwrap();
    let y = m.new_vars(5, Domain::range(0, 4)).unwrap();
    m.diffn(&x, &y, &[2; 5], &[2; 5]).unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    let caps: Vec<Literal> = (0..5)
        .flat_map(|i| [Literal::Le(x[i], 2), Literal::Le(y[i], 2)])
        .collect();
    let failed = caps.iter().position(|&d| ex.decide(d).is_err());
    assert_eq!(failed, Some(9), "fails with the last cap");
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
}

/// Four 2 × 1 rectangles at x = 5, 5, 5 and 6 with y in 1..=3 all cover
/// x = 6, so they need four rows where there are three: the time-table
/// check of the compulsory parts fails at the root, where no pair is
/// forced apart on y and every energetic window fits (the three at 5 and
/// the one at 6 take 8 of the 9 cells of `[5, 8) × [1, 4)`). Its reason is
/// audited by brute force. Three fit (FIR filter scheduling, issue 29:
/// three multipliers, the filters instances of the MiniZinc benchmarks).
#[test]
fn profile_overload_fails_at_the_root() {
    for (starts, overloaded) in [(&[5, 5, 5, 6][..], true), (&[5, 5, 6][..], false)] {
        let k = starts.len();
        let mut m = Model::new();
        let x: Vec<VarId> = starts
            .iter()
            .map(|&s| m.new_var(Domain::singleton(s)).unwrap())
            .collect();
        let y = m.new_vars(k, Domain::range(1, 3)).unwrap();
        m.diffn(&x, &y, &vec![2; k], &vec![1; k]).unwrap();
        let r = Search::new(&m).inference(Inference::Mac).solve().unwrap();
        assert_eq!(r.solution.is_none(), overloaded, "{starts:?}");
        let mut ex = Explainer::new(&m);
        assert_eq!(ex.propagate().is_err(), overloaded, "{starts:?}");
        ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
        if overloaded {
            assert_eq!(r.stats.nodes, 0, "fails without a decision");
        }
    }
    // With the x origins open, decisions bring the four onto x = 6: the
    // failure comes with the last of them, and names all four.
    let mut m = Model::new();
    let x = m.new_vars(4, Domain::range(4, 7)).unwrap();
    let y = m.new_vars(4, Domain::range(1, 3)).unwrap();
    m.diffn(&x, &y, &[2; 4], &[1; 4]).unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    let at: Vec<Literal> = [5, 5, 5, 6]
        .iter()
        .zip(&x)
        .map(|(&s, &v)| Literal::Eq(v, s))
        .collect();
    let failed = at.iter().position(|&d| ex.decide(d).is_err());
    assert_eq!(failed, Some(3), "fails with the fourth");
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
}

/// A push is explained by the rectangle in the way, not the one far away.
#[test]
fn push_is_explained_by_the_rectangle_in_the_way() {
    let mut m = Model::new();
    let x = m.new_vars(3, Domain::range(0, 10)).unwrap();
    let y = m.new_vars(3, Domain::range(0, 10)).unwrap();
    m.diffn(&x, &y, &[3, 2, 1], &[2, 2, 1]).unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    ex.decide(Literal::Ge(x[2], 9)).unwrap();
    ex.decide(Literal::Eq(x[0], 0)).unwrap();
    ex.decide(Literal::Eq(y[0], 0)).unwrap();
    ex.decide(Literal::Le(y[1], 1)).unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    // Rectangle 1 must meet rectangle 0 on y, and cannot come first on x.
    assert!(ex.holds(Literal::Ge(x[1], 3)).unwrap());
    let why = ex.why(Literal::Ge(x[1], 3)).unwrap();
    let mut found = why.decisions();
    found.sort();
    let mut expected = vec![
        Literal::Eq(x[0], 0),
        Literal::Eq(y[0], 0),
        Literal::Le(y[1], 1),
    ];
    expected.sort();
    assert_eq!(found, expected, "{why}");
}

#[test]
fn diffn_bad_arguments_are_errors() {
    let mut m = Model::new();
    let x = m.new_vars(2, Domain::range(0, 5)).unwrap();
    let y = m.new_vars(2, Domain::range(0, 5)).unwrap();
    let e = m.diffn(&x, &y[..1], &[1, 1], &[1, 1]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.diffn(&x, &y, &[1], &[1, 1]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.diffn_nonstrict(&x, &y, &[1, 1], &[1, 1, 1]).unwrap_err();
    assert!(e.to_string().starts_with("diffn_nonstrict"), "{e}");
    let e = m.diffn(&x, &y, &[1, -2], &[1, 1]).unwrap_err();
    assert!(
        e.to_string()
            .contains("diffn: rectangle 1 has a negative width (-2)"),
        "{e}"
    );
    let e = m.diffn(&x, &y, &[1, 2], &[-1, 1]).unwrap_err();
    assert!(
        e.to_string()
            .contains("rectangle 0 has a negative height (-1)"),
        "{e}"
    );
    // No rectangles at all: nothing to do.
    m.diffn(&[], &[], &[], &[]).unwrap();
    assert!(Search::new(&m).solve().unwrap().solution.is_some());
}

/// `to_minizinc` writes MiniZinc's own globals, each from its file.
#[test]
fn diffn_to_minizinc() {
    let mut m = Model::new();
    let x = m.new_vars_named("x", [2], Domain::range(0, 3)).unwrap();
    let y = m.new_vars_named("y", [2], Domain::range(0, 3)).unwrap();
    m.diffn(&x, &y, &[2, 0], &[1, 3]).unwrap();
    m.diffn_nonstrict(&y, &x, &[1, 1], &[0, 2]).unwrap();
    let mzn = m.to_minizinc().unwrap();
    assert!(mzn.contains("include \"diffn.mzn\";"), "{mzn}");
    assert!(mzn.contains("include \"diffn_nonstrict.mzn\";"), "{mzn}");
    assert!(
        mzn.contains("constraint diffn([x_0, x_1], [y_0, y_1], [2, 0], [1, 3]);"),
        "{mzn}"
    );
    assert!(
        mzn.contains("constraint diffn_nonstrict([y_0, y_1], [x_0, x_1], [1, 1], [0, 2]);"),
        "{mzn}"
    );
}
