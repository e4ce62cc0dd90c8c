//! `x = y + c` (`Equal`) over domains wider than one word: the root
//! propagation leaves exactly the values with a partner on the other side
//! (domain consistency), whether the domains are intervals (pruned at the
//! bounds) or have holes (pruned value by value), checked against sets
//! kept by the test; after each later decision no supported value is lost
//! (an `Explainer` decision need not wake `Equal` at once). And the
//! solutions against brute force.

use std::collections::BTreeSet;

use csp_core::constraint::{Equal, NotEqual};
use csp_core::{testing, Domain, Explainer, Literal, Model, Value};

/// A small deterministic generator (no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn set(d: &Domain) -> BTreeSet<Value> {
    d.iter().collect()
}

/// `Literal` applied to a set of values.
fn apply(s: &mut BTreeSet<Value>, lit: Literal) {
    s.retain(|&v| match lit {
        Literal::Eq(_, w) => v == w,
        Literal::Ne(_, w) => v != w,
        Literal::Ge(_, w) => v >= w,
        Literal::Le(_, w) => v <= w,
    });
}

#[test]
fn equal_keeps_exactly_the_supported_values_after_every_decision() {
    let mut rng = Lcg(29);
    let mut checked = 0;
    for round in 0..300 {
        let (lx, ly) = (rng.next(40) as Value - 20, rng.next(40) as Value - 20);
        let dx = match round % 3 {
            // Intervals, and one side with holes from the start.
            2 => Domain::values((lx..lx + 100).filter(|v| v % 5 != 1)),
            _ => Domain::range(lx, lx + 70 + rng.next(60) as Value),
        };
        let dy = Domain::range(ly, ly + 70 + rng.next(60) as Value);
        let c = rng.next(41) as Value - 20;
        let mut m = Model::new();
        let x = m.new_var(dx.clone()).unwrap();
        let y = m.new_var(dy.clone()).unwrap();
        m.post(Equal::new(x, y, c)).unwrap();
        let (mut sx, mut sy) = (set(&dx), set(&dy));
        let mut ex = Explainer::new(&m);
        // Decisions: bounds (intervals stay intervals) and holes.
        let mut ok = ex.propagate().is_ok();
        let mut holes = false; // after the root: soundness only
        for step in 0..12 {
            // The fixpoint the test expects.
            sx.retain(|&v| sy.contains(&(v - c)));
            sy.retain(|&w| sx.contains(&(w + c)));
            // A failure only without a solution; at the root, always then.
            assert!(ok || sx.is_empty(), "round {round} step {step}");
            if !ok || sx.is_empty() {
                assert!(holes || !ok, "root, round {round}");
                break;
            }
            let got_x: BTreeSet<Value> = ex.values(x).unwrap().into_iter().collect();
            let got_y: BTreeSet<Value> = ex.values(y).unwrap().into_iter().collect();
            if holes {
                assert!(got_x.is_superset(&sx), "x, round {round} step {step}");
                assert!(got_y.is_superset(&sy), "y, round {round} step {step}");
                // Those left stay within the decisions.
                assert!(got_x.iter().all(|v| dx.contains(*v)));
                assert!(got_y.iter().all(|v| dy.contains(*v)));
            } else {
                assert_eq!(got_x, sx, "x, round {round} step {step}");
                assert_eq!(got_y, sy, "y, round {round} step {step}");
                checked += 1;
            }
            let (v, s) = if rng.next(2) == 0 { (x, &sx) } else { (y, &sy) };
            let vals: Vec<Value> = s.iter().copied().collect();
            let pick = vals[rng.next(vals.len() as u64) as usize];
            let lit = match rng.next(3) {
                0 => Literal::Ge(v, pick),
                1 => Literal::Le(v, pick),
                _ => Literal::Ne(v, pick),
            };
            holes = true;
            apply(if v == x { &mut sx } else { &mut sy }, lit);
            ok = ex.decide(lit).is_ok();
        }
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn equal_over_wide_domains_finds_exactly_the_brute_force_solutions() {
    // A third variable z ≠ x makes holes during the search.
    for (dx, dy, c) in [
        (Domain::range(0, 90), Domain::range(-20, 75), 17),
        (Domain::range(-10, 80), Domain::range(0, 100), -30),
        (
            Domain::values((0..90).filter(|v| v % 7 != 3)),
            Domain::range(-5, 85),
            0,
        ),
    ] {
        testing::check_constraint(&[dx, dy, Domain::range(0, 3)], |m, v| {
            m.post(Equal::new(v[0], v[1], c))?;
            m.post(NotEqual::new(v[0], v[2], 0)).map(|_| ())
        })
        .unwrap();
    }
}
