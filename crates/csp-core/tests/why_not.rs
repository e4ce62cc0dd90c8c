//! `hints::why_no_solution_constraints`, checked independently: the set
//! it names has no solution (brute force over every assignment of the
//! declared domains, by the constraints' checkers alone), and without any
//! one of its constraints the rest have one (minimality).

use csp_core::hints::{self, ConstraintConflict, Diagnosis, Options, Refutation};
use csp_core::{ConstraintId, Domain, Literal, Model, Relation, Value, VarId};

/// A solution of `givens` with the constraints `set` of `model` (and the
/// declared domains), by enumerating every assignment; only the
/// constraints' checkers (`is_satisfied`) are used.
fn brute_solution(model: &Model, set: &[ConstraintId], givens: &[Literal]) -> Option<Vec<Value>> {
    let doms: Vec<Vec<Value>> = model
        .vars()
        .map(|x| {
            model
                .domain(x)
                .iter()
                .filter(|&v| givens.iter().all(|g| g.var() != x || g.admits(v)))
                .collect()
        })
        .collect();
    if doms.iter().any(|d| d.is_empty()) {
        return None;
    }
    let n = doms.len();
    let mut idx = vec![0usize; n];
    let mut values: Vec<Value> = doms.iter().map(|d| d[0]).collect();
    let mut buf = Vec::new();
    loop {
        let ok = set.iter().all(|&c| {
            let k = model.constraint(c);
            buf.clear();
            buf.extend(k.scope().iter().map(|x| values[x.index()]));
            k.is_satisfied(&buf)
        });
        if ok {
            return Some(values);
        }
        let mut p = n;
        loop {
            if p == 0 {
                return None;
            }
            p -= 1;
            idx[p] += 1;
            if idx[p] < doms[p].len() {
                values[p] = doms[p][idx[p]];
                break;
            }
            idx[p] = 0;
            values[p] = doms[p][0];
        }
    }
}

/// Why `set` is not a minimal conflict of `model` with `givens`, or `Ok`.
fn check_minimal_conflict(
    model: &Model,
    set: &[ConstraintId],
    givens: &[Literal],
) -> Result<(), String> {
    if let Some(s) = brute_solution(model, set, givens) {
        return Err(format!("{set:?} has a solution: {s:?}"));
    }
    for i in 0..set.len() {
        let mut less = set.to_vec();
        less.remove(i);
        if brute_solution(model, &less, givens).is_none() {
            return Err(format!(
                "{set:?} is not minimal: without {} there is still no solution",
                set[i]
            ));
        }
    }
    Ok(())
}

fn conflict(d: Diagnosis) -> ConstraintConflict {
    match d {
        Diagnosis::Conflict(c) => c,
        other => panic!("expected a conflict, found {other:?}"),
    }
}

/// A small deterministic generator (SplitMix64).
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
    fn pick2(&mut self, n: usize) -> (usize, usize) {
        let a = self.below(n);
        let mut b = self.below(n - 1);
        if b >= a {
            b += 1;
        }
        (a, b)
    }
}

/// A random model: 3 to 5 variables over small domains, 3 to 9 constraints
/// of several kinds.
fn random_model(seed: u64) -> Model {
    let mut r = Rng(seed);
    let mut m = Model::new();
    let n = 3 + r.below(3);
    let x: Vec<VarId> = (0..n)
        .map(|i| {
            let lo = r.below(2) as i32;
            let hi = lo + 1 + r.below(3) as i32;
            m.new_var_named(&format!("x{i}"), Domain::range(lo, hi))
                .unwrap()
        })
        .collect();
    let k = 3 + r.below(7);
    for j in 0..k {
        let (a, b) = r.pick2(n);
        let c = match r.below(6) {
            0 => m.not_equal(x[a], x[b], r.below(3) as i32 - 1).unwrap(),
            1 => m.less_eq(x[a], x[b], r.below(3) as i64 - 2).unwrap(),
            2 => {
                let rel = [Relation::Eq, Relation::Le, Relation::Ge][r.below(3)];
                let ca = 1 + r.below(2) as i64;
                let cb = [1i64, -1][r.below(2)];
                m.linear(&[(ca, x[a]), (cb, x[b])], rel, r.below(5) as i64 - 1)
                    .unwrap()
            }
            3 => {
                let (_, c2) = r.pick2(n);
                let mut s = vec![x[a], x[b]];
                if c2 != a && c2 != b {
                    s.push(x[c2]);
                }
                m.all_different(&s).unwrap()
            }
            4 => {
                let tuples: Vec<Vec<Value>> = (0..3)
                    .map(|_| vec![r.below(4) as i32, r.below(4) as i32])
                    .collect();
                m.table(&[x[a], x[b]], tuples).unwrap()
            }
            _ => m.equal(x[a], x[b], r.below(3) as i32 - 1).unwrap(),
        };
        m.name_constraint(c, &format!("rule {j}")).unwrap();
    }
    m
}

#[test]
fn random_unsatisfiable_models_give_minimal_conflicts() {
    let mut unsat = 0;
    let mut sat = 0;
    let mut by_search = 0;
    for seed in 0..400 {
        let m = random_model(seed);
        let all: Vec<ConstraintId> = m.constraints().map(|(c, _)| c).collect();
        let d = hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap();
        match (d, brute_solution(&m, &all, &[])) {
            (Diagnosis::HasSolution(s), Some(_)) => {
                // The solution is checked by the model's own checkers.
                assert_eq!(m.check(&s), Ok(()), "seed {seed}");
                sat += 1;
            }
            (Diagnosis::Conflict(c), None) => {
                assert!(c.minimal, "seed {seed}");
                check_minimal_conflict(&m, &c.constraints, &[])
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{m}"));
                assert_eq!(c.labels().len(), c.constraints.len());
                for (l, &k) in c.labels().iter().zip(&c.constraints) {
                    assert!(l.contains(&format!("{k} \"rule ")), "{l}");
                }
                if matches!(c.refutation, Refutation::Search { .. }) {
                    by_search += 1;
                }
                unsat += 1;
            }
            (d, b) => panic!("seed {seed}: {d:?} but brute force found {b:?}\n{m}"),
        }
    }
    // The generator makes both kinds, and conflicts propagation alone
    // does not refute.
    assert!(unsat >= 40 && sat >= 40, "{unsat} unsat, {sat} sat");
    assert!(by_search >= 1, "{by_search}");
}

#[test]
fn givens_are_background() {
    // x, y, z in 1..=3, all different; x = 1 and y = 2 given; z ≠ 3 and
    // z ≥ 2 posted: with the givens, the all-different and z ≠ 3 clash.
    let mut m = Model::new();
    let v = m.new_vars_named("v", [3], Domain::range(1, 3)).unwrap();
    let ad = m.all_different(&v).unwrap();
    let ne = m.post(v[2].ne(3)).unwrap();
    let _ge = m.post(v[2].ge(2)).unwrap();
    let givens = [Literal::Eq(v[0], 1), Literal::Eq(v[1], 2)];
    let c = conflict(hints::why_no_solution_constraints(&m, &givens, &Options::default()).unwrap());
    check_minimal_conflict(&m, &c.constraints, &givens).unwrap();
    assert_eq!(c.constraints, vec![ad, ne]);
    // Givens that clash on their own: no constraint is needed.
    let clash = [Literal::Eq(v[0], 1), Literal::Ne(v[0], 1)];
    let c = conflict(hints::why_no_solution_constraints(&m, &clash, &Options::default()).unwrap());
    assert!(c.constraints.is_empty());
    // Without the givens the model has a solution.
    let d = hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap();
    let Diagnosis::HasSolution(s) = d else {
        panic!("{d:?}")
    };
    assert_eq!(m.check(&s), Ok(()));
}

/// A 3×3 Latin square, rows and columns named, with both diagonals
/// all-different: no 3×3 Latin square has two transversal diagonals.
fn latin_with_diagonals() -> (Model, Vec<ConstraintId>) {
    let mut m = Model::new();
    let g = m.new_vars_named("g", [3, 3], Domain::range(1, 3)).unwrap();
    let mut cs = Vec::new();
    for r in 0..3 {
        let c = m.all_different(g.row(r).unwrap()).unwrap();
        cs.push(m.name_constraint(c, &format!("row {}", r + 1)).unwrap());
    }
    for c in 0..3 {
        let col: Vec<VarId> = (0..3).map(|r| g[[r, c]]).collect();
        let id = m.all_different(&col).unwrap();
        cs.push(m.name_constraint(id, &format!("column {}", c + 1)).unwrap());
    }
    let diag: Vec<VarId> = (0..3).map(|i| g[[i, i]]).collect();
    let id = m.all_different(&diag).unwrap();
    cs.push(m.name_constraint(id, "diagonal").unwrap());
    let anti: Vec<VarId> = (0..3).map(|i| g[[i, 2 - i]]).collect();
    let id = m.all_different(&anti).unwrap();
    cs.push(m.name_constraint(id, "anti-diagonal").unwrap());
    (m, cs)
}

#[test]
fn a_latin_square_with_both_diagonals_needs_search() {
    let (m, cs) = latin_with_diagonals();
    let c = conflict(hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap());
    assert!(c.minimal);
    check_minimal_conflict(&m, &c.constraints, &[]).unwrap();
    // Both diagonals take part (each alone fits in a Latin square).
    assert!(c.constraints.contains(&cs[6]) && c.constraints.contains(&cs[7]));
    assert!(
        matches!(c.refutation, Refutation::Search { nodes } if nodes > 1),
        "{:?}",
        c.refutation
    );
    assert!(c.to_string().contains("all-different (c6 \"diagonal\")"));
}

/// Four talks in slots 1..=3: a and b share a speaker, b and c a room;
/// a comes before b, b before c, and c may not be last: a < b < c ≤ 2 is
/// impossible. Returns the model and those three constraints.
fn timetable() -> (Model, Vec<ConstraintId>) {
    let mut m = Model::new();
    let t = m.new_vars_named("talk", [4], Domain::range(1, 3)).unwrap();
    let named = |m: &mut Model, c: ConstraintId, name: &str| m.name_constraint(c, name).unwrap();
    let c = m.post(t[0].ne(t[1])).unwrap();
    named(&mut m, c, "a, b: same speaker");
    let c = m.post(t[1].ne(t[2])).unwrap();
    named(&mut m, c, "b, c: same room");
    let c = m.post(t[0].lt(t[1])).unwrap();
    let before = named(&mut m, c, "a before b");
    let c = m.post(t[1].lt(t[2])).unwrap();
    let after = named(&mut m, c, "b before c");
    let c = m.post(t[2].le(2)).unwrap();
    let early = named(&mut m, c, "c not last");
    let c = m.post(t[3].ne(t[0])).unwrap();
    named(&mut m, c, "d apart from a");
    (m, vec![before, after, early])
}

#[test]
fn a_timetable_clash_is_explained_by_propagation() {
    let (m, expected) = timetable();
    let d = conflict(hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap());
    check_minimal_conflict(&m, &d.constraints, &[]).unwrap();
    assert_eq!(d.constraints, expected);
    let Refutation::Propagation(e) = &d.refutation else {
        panic!("{:?}", d.refutation)
    };
    assert!(e.to_string().contains("contradiction"), "{e}");
    assert!(d.to_string().contains("less-eq (c3 \"b before c\")"), "{d}");
}

#[test]
fn the_checks_can_fail() {
    // The independent check rejects a set with one constraint too many
    // (not minimal) and one with one too few (has a solution).
    let (m, _) = latin_with_diagonals();
    let c = conflict(hints::why_no_solution_constraints(&m, &[], &Options::default()).unwrap());
    let all: Vec<ConstraintId> = m.constraints().map(|(c, _)| c).collect();
    let extra = all.iter().find(|k| !c.constraints.contains(k)).copied();
    if let Some(extra) = extra {
        let mut more = c.constraints.clone();
        more.push(extra);
        more.sort();
        assert!(check_minimal_conflict(&m, &more, &[]).is_err());
    }
    let fewer = &c.constraints[1..];
    assert!(check_minimal_conflict(&m, fewer, &[]).is_err());
}

#[test]
fn a_small_budget_says_not_minimal_and_stays_a_conflict() {
    let (m, _) = latin_with_diagonals();
    let opts = Options {
        search_budget: 3,
        ..Options::default()
    };
    // The whole model cannot be refuted in 3 nodes: unknown, not a guess.
    let d = hints::why_no_solution_constraints(&m, &[], &opts).unwrap();
    assert!(matches!(d, Diagnosis::Unknown), "{d:?}");
    // Budgets that refute the whole model: a conflict each time, checked.
    for budget in [20, 1000] {
        let opts = Options {
            search_budget: budget,
            ..Options::default()
        };
        let c = conflict(hints::why_no_solution_constraints(&m, &[], &opts).unwrap());
        assert!(c.minimal);
        check_minimal_conflict(&m, &c.constraints, &[]).unwrap();
    }
    // A total node budget of 1: propagation refutes the timetable, but the
    // subsets QuickXplain tries cannot be solved within it. The set given
    // still has no solution, and is not claimed minimal.
    let (m, _) = timetable();
    let mut opts = Options::default();
    opts.search.limits.nodes = Some(1);
    let c = conflict(hints::why_no_solution_constraints(&m, &[], &opts).unwrap());
    assert!(!c.minimal);
    assert!(brute_solution(&m, &c.constraints, &[]).is_none());
    assert!(c.to_string().contains("not proved minimal"), "{c}");
}

#[test]
fn a_fact_over_an_unknown_variable_is_a_typed_error() {
    let (m, _) = latin_with_diagonals();
    let mut other = Model::new();
    let far = other.new_vars(20, Domain::range(0, 1)).unwrap()[19];
    let e = hints::why_no_solution_constraints(&m, &[Literal::Eq(far, 1)], &Options::default())
        .unwrap_err();
    assert!(
        matches!(e, hints::HintError::UnknownVariable { index: 0, .. }),
        "{e:?}"
    );
}
