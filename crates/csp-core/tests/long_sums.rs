//! Long linear sums (more than eight terms): their propagator prunes the
//! widest term alone while no other term can be pruned, and gives lazy
//! reasons. Checked against an independent bounds fixpoint after random
//! decisions and backtracks, and reason by reason by brute force.

mod common;

use common::rng;
use csp_core::explain::Failed;
use csp_core::{
    testing, Domain, Explainer, Inference, Literal, Model, Relation, SearchOptions, VarId,
};

/// A random long sum: `n` terms, mostly Booleans with small coefficients
/// and one or two wide terms (an objective's shape), and a relation.
struct Sum {
    terms: Vec<(i64, i64, i64)>, // (coefficient, declared min, declared max)
    rel: Relation,
    c: i64,
}

fn random_sum(next: &mut impl FnMut(u64) -> u64, n: usize) -> Sum {
    let wide = 1 + next(2) as usize;
    let mut terms = Vec::new();
    for k in 0..n {
        let a = [1, 1, 1, -1, 2, -2, 3][next(7) as usize];
        if k < wide {
            let lo = next(3) as i64;
            terms.push((
                a * if next(2) == 0 { 1 } else { -1 },
                lo,
                lo + 4 + next(8) as i64,
            ));
        } else {
            terms.push((a, 0, 1 + next(2) as i64));
        }
    }
    let rel = [Relation::Eq, Relation::Le, Relation::Ge][next(3) as usize];
    Sum {
        terms,
        rel,
        c: next(9) as i64 - 2,
    }
}

fn post(s: &Sum) -> (Model, Vec<VarId>) {
    let mut m = Model::new();
    let vars: Vec<VarId> = s
        .terms
        .iter()
        .map(|&(_, lo, hi)| m.new_var(Domain::range(lo as i32, hi as i32)).unwrap())
        .collect();
    let t: Vec<(i64, VarId)> = s.terms.iter().zip(&vars).map(|(t, &x)| (t.0, x)).collect();
    m.linear(&t, s.rel, s.c).unwrap();
    (m, vars)
}

fn floor_div(p: i64, q: i64) -> i64 {
    p.div_euclid(q) - if q < 0 && p.rem_euclid(q) != 0 { 1 } else { 0 }
}

/// The bounds fixpoint of the sum over intervals, by the textbook rule
/// applied until nothing moves (`None`: an empty interval). Written apart
/// from the library's propagator, in the plainest form.
fn fixpoint(s: &Sum, mut b: Vec<(i64, i64)>) -> Option<Vec<(i64, i64)>> {
    let le = matches!(s.rel, Relation::Eq | Relation::Le);
    let ge = matches!(s.rel, Relation::Eq | Relation::Ge);
    loop {
        let mut moved = false;
        for j in 0..b.len() {
            let a = s.terms[j].0;
            // The sum of the other terms' least and greatest values.
            let (mut lo, mut hi) = (0i64, 0i64);
            for (k, &(ak, _, _)) in s.terms.iter().enumerate() {
                if k != j {
                    let (p, q) = (ak * b[k].0, ak * b[k].1);
                    lo += p.min(q);
                    hi += p.max(q);
                }
            }
            // a·x ≤ c − lo (≤ side), a·x ≥ c − hi (≥ side).
            let (mut xl, mut xh) = b[j];
            for (on, bound, upper) in [(le, s.c - lo, true), (ge, s.c - hi, false)] {
                if !on {
                    continue;
                }
                // a·x ≤ bound or a·x ≥ bound, as a bound on x.
                let below = upper == (a > 0);
                let v = if below {
                    floor_div(bound, a)
                } else {
                    -floor_div(-bound, a)
                };
                if below {
                    xh = xh.min(v);
                } else {
                    xl = xl.max(v);
                }
            }
            if xl > xh {
                return None;
            }
            if (xl, xh) != b[j] {
                b[j] = (xl, xh);
                moved = true;
            }
        }
        if !moved {
            return Some(b);
        }
    }
}

/// After random decisions (bounds and values) and backtracks, the domains
/// the propagator leaves are exactly the independent fixpoint, and it
/// fails exactly when the fixpoint is empty.
#[test]
fn long_sums_reach_the_bounds_fixpoint_after_every_decision() {
    let mut checked = 0;
    for seed in 1..=300u64 {
        let mut next = rng(seed * 7919);
        let n = 9 + next(8) as usize;
        let s = random_sum(&mut next, n);
        let (m, vars) = post(&s);
        let opts = SearchOptions {
            inference: Inference::Mac,
            ..SearchOptions::default()
        };
        let mut ex = Explainer::with_options(&m, opts);
        let declared: Vec<(i64, i64)> = s.terms.iter().map(|t| (t.1, t.2)).collect();
        // The decisions in force, level by level.
        let mut stack: Vec<Literal> = Vec::new();
        let root = ex.propagate();
        let expect = fixpoint(&s, declared.clone());
        assert_eq!(root.is_ok(), expect.is_some(), "seed {seed}: the root");
        if root.is_err() {
            continue;
        }
        for _step in 0..40 {
            if !stack.is_empty() && next(4) == 0 {
                assert!(ex.backtrack());
                stack.pop();
            }
            // The intervals the decisions in force give, then their fixpoint.
            let mut b = declared.clone();
            for d in &stack {
                apply(&mut b, &vars, *d);
            }
            let now = fixpoint(&s, b).expect("consistent so far");
            for (j, &x) in vars.iter().enumerate() {
                let v = ex.values(x).unwrap();
                let (lo, hi) = (*v.first().unwrap() as i64, *v.last().unwrap() as i64);
                assert_eq!((lo, hi), now[j], "seed {seed}: term {j} after {stack:?}");
                assert_eq!(v.len() as i64, hi - lo + 1, "seed {seed}: bounds only");
            }
            // A new decision on a random open variable.
            let open: Vec<usize> = (0..vars.len()).filter(|&j| now[j].0 < now[j].1).collect();
            if open.is_empty() {
                if stack.is_empty() || !ex.backtrack() {
                    break;
                }
                stack.pop();
                continue;
            }
            let j = open[next(open.len() as u64) as usize];
            let (lo, hi) = now[j];
            let v = lo + next((hi - lo) as u64) as i64;
            let lit = match next(3) {
                0 => Literal::Le(vars[j], v as i32),
                1 => Literal::Ge(vars[j], (v + 1) as i32),
                _ => Literal::Eq(vars[j], v as i32),
            };
            let mut after = now.clone();
            apply(&mut after, &vars, lit);
            let expect = fixpoint(&s, after);
            match ex.decide(lit) {
                Ok(()) => {
                    assert!(expect.is_some(), "seed {seed}: {lit:?} should fail");
                    stack.push(lit);
                }
                Err(Failed::Conflict(_)) => {
                    assert!(expect.is_none(), "seed {seed}: {lit:?} failed");
                    // The failed decision is undone by the explainer's
                    // backtrack: its level holds only the failure.
                    assert!(ex.backtrack());
                }
                Err(e) => panic!("seed {seed}: {e:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} decisions checked");
}

fn apply(b: &mut [(i64, i64)], vars: &[VarId], lit: Literal) {
    let j = vars.iter().position(|&x| x == lit.var()).unwrap();
    match lit {
        Literal::Le(_, v) => b[j].1 = b[j].1.min(v as i64),
        Literal::Ge(_, v) => b[j].0 = b[j].0.max(v as i64),
        Literal::Eq(_, v) => b[j] = (b[j].0.max(v as i64), b[j].1.min(v as i64)),
        Literal::Ne(..) => unreachable!("no ≠ decisions here"),
    }
}

/// Every (lazy) reason a long sum gives checks out by brute force, on
/// random sums small enough to enumerate.
#[test]
fn long_sum_reasons_check_out_by_brute_force() {
    for seed in 1..=12u64 {
        let mut next = rng(seed * 104_729);
        let mut s = random_sum(&mut next, 9);
        // Narrow enough to enumerate: every domain at most 3 values.
        for t in &mut s.terms {
            t.2 = t.2.min(t.1 + 2);
        }
        let (m, _) = post(&s);
        testing::check_explanations(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// The check above can fail: with every expanded reason losing a premise,
/// a long sum's lazy reasons are caught.
#[test]
fn weakened_long_sum_reasons_are_caught() {
    let mut d = vec![Domain::range(0, 1); 9];
    d.push(Domain::range(1, 2));
    common::weakening_is_caught(&d, |m, v| {
        let mut t: Vec<(i64, VarId)> = v[..9].iter().map(|&x| (1, x)).collect();
        t.push((-1, v[9]));
        m.linear(&t, Relation::Eq, 0).map(|_| ())
    });
}
