//! `cumulative` (issue 29): brute force at every inference level and
//! both strengths, with every reason audited, on random small schedules
//! (zero durations and demands, demands above the capacity, holes,
//! negative starts) and on `i32`-extreme starts; a count against an
//! independent time-indexed decomposition; pruning at the root; typed
//! errors for bad arguments.

use csp_core::constraint::CumulativeStrength;
use csp_core::{
    testing, Constraint, Domain, Explainer, Inference, Literal, Model, ModelError, Search, Value,
    VarId, VarOrder,
};

const STRENGTHS: [CumulativeStrength; 4] = [
    CumulativeStrength::TimeTable,
    CumulativeStrength::Energetic,
    CumulativeStrength::EnergeticReasoning,
    CumulativeStrength::TimeTableEdgeFinding,
];

mod common;
use common::{conflict_rests_on, domains, rng};

/// A random instance: domains, durations, demands, capacity.
type Instance = (Vec<Domain>, Vec<i32>, Vec<i32>, i32);

fn instance(next: &mut impl FnMut(u64) -> u64, round: u64) -> Instance {
    let n = 2 + next(3) as usize;
    let doms = domains(next, n, (-3, 7, 6), round % 4 == 3);
    let durs: Vec<i32> = (0..n).map(|_| next(5) as i32).collect();
    let cap = next(5) as i32;
    // Demands from 0 to cap + 1: some tasks never fit.
    let dems: Vec<i32> = (0..n)
        .map(|_| match next(9) {
            0 => cap + 1,
            k => (k as i32 - 1).min(cap.max(1)) * (next(2) as i32 + 1) / 2,
        })
        .collect();
    (doms, durs, dems, cap)
}

/// The harness on one instance at one strength.
fn check(inst: &Instance, strength: CumulativeStrength) {
    let (doms, durs, dems, cap) = inst;
    testing::check_constraint(doms, |m, v| {
        m.cumulative_with(v, durs, dems, *cap, strength).map(|_| ())
    })
    .unwrap_or_else(|e| panic!("{doms:?} d {durs:?} r {dems:?} c {cap} {strength:?}: {e}"));
}

#[test]
fn cumulative_matches_brute_force() {
    let mut next = rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..120 {
        let inst = instance(&mut next, round);
        check(&inst, STRENGTHS[round as usize % 4]);
    }
}

/// Four tasks on tight windows, where the profile and the energy reason
/// most (more tasks than the random rounds, fewer values each).
#[test]
fn cumulative_tight_windows_match_brute_force() {
    let mut next = rng(0x51_7cc1_b727_220a);
    for round in 0..40 {
        let doms = domains(&mut next, 4, (0, 4, 4), false);
        let durs: Vec<i32> = (0..4).map(|_| 1 + next(3) as i32).collect();
        let dems: Vec<i32> = (0..4).map(|_| 1 + next(2) as i32).collect();
        let cap = 2 + next(2) as i32;
        check(&(doms, durs, dems, cap), STRENGTHS[round % 4]);
    }
}

/// Energetic reasoning on every round: random instances (zero durations
/// and demands, demands above the capacity, holes) and tight windows,
/// each checked against brute force with every reason audited.
#[test]
fn energetic_reasoning_matches_brute_force() {
    let mut next = rng(0x3c6e_f372_fe94_f82b);
    for round in 0..80 {
        let inst = instance(&mut next, round);
        check(&inst, CumulativeStrength::EnergeticReasoning);
    }
    for _ in 0..30 {
        let doms = domains(&mut next, 4, (0, 4, 4), false);
        let durs: Vec<i32> = (0..4).map(|_| 1 + next(3) as i32).collect();
        let dems: Vec<i32> = (0..4).map(|_| 1 + next(2) as i32).collect();
        let cap = 2 + next(2) as i32;
        check(
            &(doms, durs, dems, cap),
            CumulativeStrength::EnergeticReasoning,
        );
    }
}

/// Time-table edge finding on every round, as energetic reasoning
/// above, plus five tasks on tight windows, where compulsory parts and
/// free parts meet in the windows.
#[test]
fn time_table_edge_finding_matches_brute_force() {
    let mut next = rng(0x6a09_e667_f3bc_c908);
    for round in 0..80 {
        let inst = instance(&mut next, round);
        check(&inst, CumulativeStrength::TimeTableEdgeFinding);
    }
    for round in 0..40 {
        let n = 4 + round % 2;
        let doms = domains(&mut next, n, (0, 4, 4), false);
        let durs: Vec<i32> = (0..n).map(|_| 1 + next(3) as i32).collect();
        let dems: Vec<i32> = (0..n).map(|_| 1 + next(2) as i32).collect();
        let cap = 2 + next(2) as i32;
        check(
            &(doms, durs, dems, cap),
            CumulativeStrength::TimeTableEdgeFinding,
        );
    }
}

#[test]
fn cumulative_at_the_ends_of_i32() {
    let extreme = [
        Domain::values([i32::MIN, i32::MIN + 1, i32::MIN + 3]),
        Domain::values([i32::MAX - 5, i32::MAX - 1, i32::MAX]),
        Domain::values([i32::MIN, -1, 0, i32::MAX]),
    ];
    let cases: [([i32; 3], [i32; 3], i32); 5] = [
        ([2, 3, 1], [1, 1, 1], 1),
        ([4, 0, 2], [2, 1, 2], 3),
        ([i32::MAX, 1, 1], [1, 1, 1], 1),
        (
            [i32::MAX, i32::MAX, i32::MAX],
            [i32::MAX, 1, i32::MAX],
            i32::MAX,
        ),
        ([3, 3, i32::MAX], [i32::MAX, i32::MAX, 1], i32::MAX),
    ];
    for (durs, dems, cap) in cases {
        for strength in STRENGTHS {
            check(
                &(extreme.to_vec(), durs.to_vec(), dems.to_vec(), cap),
                strength,
            );
        }
    }
}

/// The resource by time points: at every time some task covers, the
/// demands of the tasks running then fit. Written independently of the
/// constraint's own checker.
#[derive(Debug)]
struct TimeIndexed {
    starts: Vec<VarId>,
    durs: Vec<i32>,
    dems: Vec<i32>,
    cap: i32,
}

impl Constraint for TimeIndexed {
    fn scope(&self) -> &[VarId] {
        &self.starts
    }
    fn is_satisfied(&self, v: &[Value]) -> bool {
        let (lo, hi) = (v.iter().min().copied(), v.iter().max().copied());
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return true;
        };
        let top = hi as i64 + self.durs.iter().copied().max().unwrap_or(0) as i64;
        (lo as i64..top).all(|t| {
            let load: i64 = (0..v.len())
                .filter(|&i| v[i] as i64 <= t && t < v[i] as i64 + self.durs[i] as i64)
                .map(|i| self.dems[i] as i64)
                .sum();
            load <= self.cap as i64
        })
    }
}

/// Counting with the propagator agrees with counting with the
/// time-indexed decomposition posted as a checker, at every inference
/// level, on instances too big to brute-force through the harness.
#[test]
fn cumulative_counts_like_a_time_indexed_decomposition() {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    for round in 0..30 {
        let n = 5 + next(2) as usize;
        let doms: Vec<Domain> = (0..n)
            .map(|_| {
                let lo = next(5) as i32;
                Domain::range(lo, lo + 3 + next(4) as i32)
            })
            .collect();
        let durs: Vec<i32> = (0..n).map(|_| next(4) as i32).collect();
        let dems: Vec<i32> = (0..n).map(|_| next(3) as i32).collect();
        let cap = 2 + next(2) as i32;
        let count = |native: Option<CumulativeStrength>, inference| {
            let mut m = Model::new();
            let s: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
            match native {
                Some(st) => m.cumulative_with(&s, &durs, &dems, cap, st).map(|_| ()),
                None => m
                    .post(TimeIndexed {
                        starts: s,
                        durs: durs.clone(),
                        dems: dems.clone(),
                        cap,
                    })
                    .map(|_| ()),
            }
            .unwrap();
            Search::new(&m).inference(inference).count().unwrap().count
        };
        let expected = count(None, Inference::None);
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            for st in STRENGTHS {
                assert_eq!(
                    count(Some(st), inference),
                    expected,
                    "round {round}: {doms:?} d {durs:?} r {dems:?} c {cap} {st:?} {inference:?}"
                );
            }
        }
    }
}

/// Time-tabling at the root: a task of demand 2 fixed at [3, 6) on a
/// resource of 2 pushes a task of demand 1 that could start at 0 but
/// lasts 4 to 6, found without a failure.
#[test]
fn time_tabling_pushes_past_the_profile() {
    let mut m = Model::new();
    let big = m.new_var(Domain::singleton(3)).unwrap();
    let small = m.new_var(Domain::range(0, 10)).unwrap();
    m.cumulative_with(
        &[big, small],
        &[3, 4],
        &[2, 1],
        2,
        CumulativeStrength::TimeTable,
    )
    .unwrap();
    let r = Search::new(&m)
        .inference(Inference::Mac)
        .var_order(VarOrder::Input)
        .solve()
        .unwrap();
    let sol = r.solution.expect("a schedule");
    assert_eq!(sol.value(small), 6);
    assert_eq!(r.stats.failures, 0);
}

/// The energetic check sees what time-tabling cannot: three tasks of 2×2
/// on a resource of 2 within [0, 5) have energy 12 > 10, but no
/// compulsory part. Only the energetic strength fails at the root.
#[test]
fn energetic_overload_fails_at_the_root() {
    let nodes = |strength| {
        let mut m = Model::new();
        let s = m.new_vars(3, Domain::range(0, 3)).unwrap();
        m.cumulative_with(&s, &[2, 2, 2], &[2, 2, 2], 2, strength)
            .unwrap();
        // Not infeasible on its own: 0, 2, 4 would do with lct 6; the
        // window is [0, 5) because the latest start is 3.
        let r = Search::new(&m).inference(Inference::Mac).solve().unwrap();
        assert!(r.solution.is_none());
        r.stats.nodes
    };
    assert_eq!(nodes(CumulativeStrength::Energetic), 0);
    assert!(nodes(CumulativeStrength::TimeTable) > 0);
}

#[test]
fn cumulative_bad_arguments_are_errors() {
    let mut m = Model::new();
    let x = m.new_vars(2, Domain::range(0, 5)).unwrap();
    let e = m.cumulative(&x, &[1], &[1, 1], 1).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.cumulative(&x, &[1, 1], &[1, 1, 1], 1).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.cumulative(&x, &[1, -2], &[1, 1], 1).unwrap_err();
    assert!(
        e.to_string()
            .contains("task 1 has a negative duration (-2)"),
        "{e}"
    );
    let e = m.cumulative(&x, &[1, 2], &[-1, 1], 1).unwrap_err();
    assert!(
        e.to_string().contains("task 0 has a negative demand (-1)"),
        "{e}"
    );
    let e = m.cumulative(&x, &[1, 2], &[1, 1], -1).unwrap_err();
    assert!(e.to_string().contains("capacity is negative"), "{e}");
    // A task that demands more than the capacity: no solution, no panic.
    m.cumulative(&x, &[1, 2], &[1, 3], 2).unwrap();
    assert!(Search::new(&m).solve().unwrap().solution.is_none());
}

/// An energetic failure after decisions that cap the latest starts is
/// explained by those decisions alone (the task with a wide window is not
/// named), and every reason on the way passes the audit.
#[test]
fn energetic_failure_is_explained_by_the_window() {
    let mut m = Model::new();
    let s = m.new_vars(4, Domain::range(0, 10)).unwrap();
    m.cumulative_with(
        &s,
        &[2, 2, 2, 1],
        &[2, 2, 2, 1],
        2,
        CumulativeStrength::Energetic,
    )
    .unwrap();
    conflict_rests_on(
        &m,
        &[
            Literal::Le(s[0], 3),
            Literal::Le(s[1], 3),
            Literal::Le(s[2], 3),
        ],
    );
}

/// A time-table push is explained by the task whose compulsory part is in
/// the way, not by the task that runs elsewhere.
#[test]
fn time_table_push_is_explained_by_the_profile() {
    let mut m = Model::new();
    let big = m.new_var(Domain::range(0, 10)).unwrap();
    let small = m.new_var(Domain::range(0, 10)).unwrap();
    let far = m.new_var(Domain::range(0, 20)).unwrap();
    m.cumulative_with(
        &[big, small, far],
        &[3, 4, 2],
        &[2, 1, 1],
        2,
        CumulativeStrength::TimeTable,
    )
    .unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    ex.decide(Literal::Ge(far, 15)).unwrap();
    ex.decide(Literal::Eq(big, 3)).unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    // small cannot start in [0, 5] (it would overlap [3, 6)).
    assert!(ex.holds(Literal::Ge(small, 6)).unwrap());
    let why = ex.why(Literal::Ge(small, 6)).unwrap();
    assert_eq!(why.decisions(), vec![Literal::Eq(big, 3)], "{why}");
}

/// Energetic reasoning and time-table edge finding push where the other
/// strengths cannot: once X
/// and Y (2 × 1 each) must run inside `[0, 4)` on a resource of 1, they
/// fill it, so J (2 × 1, from 0) starts at 4 or later and K (2 × 1, up to
/// 2) ends by 0. Neither has a compulsory part nor overflows a window.
/// Each push rests on the two decisions alone.
#[test]
fn energetic_reasoning_pushes_out_of_a_full_window() {
    let pushed = |strength| {
        let mut m = Model::new();
        let x = m.new_var(Domain::range(0, 10)).unwrap();
        let y = m.new_var(Domain::range(0, 10)).unwrap();
        let j = m.new_var(Domain::range(0, 10)).unwrap();
        let k = m.new_var(Domain::range(-10, 2)).unwrap();
        m.cumulative_with(&[x, y, j, k], &[2; 4], &[1; 4], 1, strength)
            .unwrap();
        let mut ex = Explainer::new(&m);
        ex.propagate().unwrap();
        let decisions = [Literal::Le(x, 2), Literal::Le(y, 2)];
        for d in decisions {
            ex.decide(d).unwrap();
        }
        ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
        let (late, early) = (Literal::Ge(j, 4), Literal::Le(k, -2));
        let both = ex.holds(late).unwrap() && ex.holds(early).unwrap();
        if both {
            for lit in [late, early] {
                let why = ex.why(lit).unwrap();
                assert_eq!(why.decisions(), decisions.to_vec(), "{lit}: {why}");
            }
        }
        both
    };
    assert!(pushed(CumulativeStrength::EnergeticReasoning));
    assert!(pushed(CumulativeStrength::TimeTableEdgeFinding));
    assert!(!pushed(CumulativeStrength::Energetic));
    assert!(!pushed(CumulativeStrength::TimeTable));
}

/// A time-table edge-finding push names the pushed task by the lifted
/// bound it needs: X and Y (2 × 1 each, starting by 2) fill `[0, 4)` on a
/// resource of 1, so J (2 × 1), which would still run inside the window
/// from any start from −1 on, starts at 4 or later. The reason holds
/// `J ≥ −1`, the decision, not J's earlier bounds, and the audit over
/// the declared domains (J from −5) checks that it must.
#[test]
fn time_table_edge_finding_push_is_lifted() {
    let mut m = Model::new();
    let x = m.new_var(Domain::range(0, 10)).unwrap();
    let y = m.new_var(Domain::range(0, 10)).unwrap();
    let j = m.new_var(Domain::range(-5, 10)).unwrap();
    m.cumulative_with(
        &[x, y, j],
        &[2; 3],
        &[1; 3],
        1,
        CumulativeStrength::TimeTableEdgeFinding,
    )
    .unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    let decisions = [Literal::Le(x, 2), Literal::Le(y, 2), Literal::Ge(j, -1)];
    for d in decisions {
        ex.decide(d).unwrap();
    }
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    assert!(ex.holds(Literal::Ge(j, 4)).unwrap());
    let why = ex.why(Literal::Ge(j, 4)).unwrap();
    assert_eq!(why.decisions(), decisions.to_vec(), "{why}");
}
