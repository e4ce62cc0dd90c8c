//! `cumulative` with variable durations, demands and capacity (issue 29):
//! brute force at every inference level and both strengths, with every
//! reason audited, on random small schedules (zero and negative values in
//! the amounts' domains, demands above the capacity, holes) and on
//! `i32`-extreme domains; counts against the constant constraint when the
//! amounts are fixed; the pruning of each amount rule at the root, with
//! its reason; typed errors.

use csp_core::constraint::CumulativeStrength;
use csp_core::{testing, Domain, Explainer, Inference, Literal, Model, ModelError, Search, VarId};

const STRENGTHS: [CumulativeStrength; 4] = [
    CumulativeStrength::TimeTable,
    CumulativeStrength::Energetic,
    CumulativeStrength::EnergeticReasoning,
    CumulativeStrength::TimeTableEdgeFinding,
];

mod common;
use common::{domains, rng};

/// Domains for the starts, durations, demands (one each per task) and
/// the capacity.
#[derive(Debug, Clone)]
struct Instance {
    starts: Vec<Domain>,
    durs: Vec<Domain>,
    dems: Vec<Domain>,
    cap: Domain,
}

/// Posts the constraint on `v`: the capacity, then the starts, durations
/// and demands (the capacity first, so that the search and the
/// explanation checks decide it before the tasks).
fn post(
    m: &mut Model,
    v: &[VarId],
    n: usize,
    strength: CumulativeStrength,
) -> Result<(), ModelError> {
    let t = &v[1..];
    m.cumulative_var_with(&t[..n], &t[n..2 * n], &t[2 * n..3 * n], v[0], strength)
        .map(|_| ())
}

fn check(inst: &Instance, strength: CumulativeStrength) {
    let n = inst.starts.len();
    let mut all = vec![inst.cap.clone()];
    all.extend(inst.starts.iter().cloned());
    all.extend(inst.durs.iter().cloned());
    all.extend(inst.dems.iter().cloned());
    testing::check_constraint(&all, |m, v| post(m, v, n, strength))
        .unwrap_or_else(|e| panic!("{inst:?} {strength:?}: {e}"));
}

/// A small random domain `lo..=lo + w` with `lo` in `base..base + spread`.
fn small(next: &mut impl FnMut(u64) -> u64, base: i32, spread: u64, width: u64) -> Domain {
    let lo = base + next(spread) as i32;
    Domain::range(lo, lo + next(width + 1) as i32)
}

fn instance(next: &mut impl FnMut(u64) -> u64, round: u64) -> Instance {
    let n = 2 + (round % 3 == 2) as usize;
    // Narrower domains for three tasks (the brute force multiplies them).
    let w = if n == 3 { 1 } else { 2 };
    let starts = domains(next, n, (-2, 5, w + 2), round % 4 == 3);
    // Durations and demands from -1 (pruned) to 4; some fixed.
    let durs = (0..n).map(|_| small(next, -1, 4, w)).collect();
    let dems = (0..n).map(|_| small(next, -1, 4, w)).collect();
    let cap = small(next, -1, 4, w);
    Instance {
        starts,
        durs,
        dems,
        cap,
    }
}

#[test]
fn cumulative_var_matches_brute_force() {
    let mut next = rng(0x0bad_5eed_cafe_f00d);
    for round in 0..90 {
        let inst = instance(&mut next, round);
        check(&inst, STRENGTHS[round as usize % 4]);
    }
}

/// Three tasks on tight windows with positive amounts: the profile, the
/// energy and the amount rules all have something to say.
#[test]
fn cumulative_var_tight_windows_match_brute_force() {
    let mut next = rng(0x7f4a_7c15_9e37_79b9);
    for round in 0..40 {
        let inst = Instance {
            starts: domains(&mut next, 3, (0, 3, 3), false),
            durs: (0..3).map(|_| small(&mut next, 1, 2, 1)).collect(),
            dems: (0..3).map(|_| small(&mut next, 1, 2, 1)).collect(),
            cap: small(&mut next, 1, 3, 1),
        };
        check(&inst, STRENGTHS[round % 4]);
    }
}

/// Sixty random instances, every other one on three tasks with starts
/// in 0..=3 and small amounts, checked at `strength`.
fn check_rounds(seed: u64, strength: CumulativeStrength) {
    let mut next = rng(seed);
    for round in 0..60 {
        let inst = match round % 2 {
            0 => instance(&mut next, round),
            _ => Instance {
                starts: domains(&mut next, 3, (0, 3, 3), false),
                durs: (0..3).map(|_| small(&mut next, 1, 2, 1)).collect(),
                dems: (0..3).map(|_| small(&mut next, 1, 2, 1)).collect(),
                cap: small(&mut next, 1, 3, 1),
            },
        };
        check(&inst, strength);
    }
}

/// Energetic reasoning on every round, variable amounts: it reasons on
/// the least durations and demands and the largest capacity.
#[test]
fn cumulative_var_energetic_reasoning_matches_brute_force() {
    check_rounds(
        0xa54f_f53a_5f1d_36f1,
        CumulativeStrength::EnergeticReasoning,
    );
}

/// Time-table edge finding on every round, variable amounts: the
/// profile and the free parts of the least durations and demands, on the
/// largest capacity.
#[test]
fn cumulative_var_time_table_edge_finding_matches_brute_force() {
    check_rounds(
        0x1f83_d9ab_fb41_bd6b,
        CumulativeStrength::TimeTableEdgeFinding,
    );
}

#[test]
fn cumulative_var_at_the_ends_of_i32() {
    let (min, max) = (i32::MIN, i32::MAX);
    let starts = [
        Domain::values([min, min + 1, min + 3]),
        Domain::values([max - 5, max - 1, max]),
    ];
    let amounts = [
        Domain::values([0, 1, max]),
        Domain::values([min, 2, max - 1, max]),
        Domain::values([max - 1, max]),
        Domain::values([min, -1, 0, 1]),
    ];
    for (k, a) in amounts.iter().enumerate() {
        for (l, b) in amounts.iter().enumerate() {
            let inst = Instance {
                starts: starts.to_vec(),
                durs: vec![a.clone(), b.clone()],
                dems: vec![b.clone(), amounts[(k + l) % 4].clone()],
                cap: amounts[(k + 2 * l + 1) % 4].clone(),
            };
            check(&inst, STRENGTHS[(k + l) % 4]);
        }
    }
}

/// The same variable as a start and a duration, and as two demands and
/// the capacity: the rules read each position's bounds, still sound.
#[test]
fn cumulative_var_with_shared_variables() {
    for strength in STRENGTHS {
        testing::check_constraint(
            &[
                Domain::range(0, 3),
                Domain::range(0, 3),
                Domain::range(1, 3),
            ],
            |m, v| {
                m.cumulative_var_with(&[v[0], v[1]], &[v[0], v[2]], &[v[2], v[2]], v[2], strength)
                    .map(|_| ())
            },
        )
        .unwrap();
    }
}

/// With every amount fixed, the variable constraint counts what the
/// constant one counts, at every inference level, on instances too big
/// for the harness.
#[test]
fn cumulative_var_counts_like_the_constant_constraint() {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    for round in 0..25 {
        let n = 5;
        let doms: Vec<Domain> = (0..n)
            .map(|_| {
                let lo = next(5) as i32;
                Domain::range(lo, lo + 3 + next(4) as i32)
            })
            .collect();
        let durs: Vec<i32> = (0..n).map(|_| next(4) as i32).collect();
        let dems: Vec<i32> = (0..n).map(|_| next(3) as i32).collect();
        let cap = 1 + next(3) as i32;
        let count = |var: bool, inference, st| {
            let mut m = Model::new();
            let s: Vec<VarId> = doms.iter().map(|d| m.new_var(d.clone()).unwrap()).collect();
            if var {
                let fixed = |m: &mut Model, k: i32| m.new_var(Domain::singleton(k)).unwrap();
                let d: Vec<VarId> = durs.iter().map(|&k| fixed(&mut m, k)).collect();
                let r: Vec<VarId> = dems.iter().map(|&k| fixed(&mut m, k)).collect();
                let c = fixed(&mut m, cap);
                m.cumulative_var_with(&s, &d, &r, c, st).unwrap();
            } else {
                m.cumulative_with(&s, &durs, &dems, cap, st).unwrap();
            }
            Search::new(&m).inference(inference).count().unwrap().count
        };
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            for st in STRENGTHS {
                assert_eq!(
                    count(true, inference, st),
                    count(false, inference, st),
                    "round {round}: {doms:?} d {durs:?} r {dems:?} c {cap} {st:?} {inference:?}"
                );
            }
        }
    }
}

/// A model with one fixed task of demand 2 on `[3, 6)` and the task under
/// test, propagated at the root with its reasons audited, then handed to
/// `check` with the task's start, duration and demand and the capacity.
fn root(
    j: (Domain, Domain, Domain),
    cap: Domain,
    check: impl FnOnce(&mut Explainer<'_>, [VarId; 3], VarId),
) {
    let mut m = Model::new();
    let big = m.new_var(Domain::singleton(3)).unwrap();
    let big_d = m.new_var(Domain::singleton(3)).unwrap();
    let big_r = m.new_var(Domain::singleton(2)).unwrap();
    let (s, d, r) = (
        m.new_var(j.0).unwrap(),
        m.new_var(j.1).unwrap(),
        m.new_var(j.2).unwrap(),
    );
    let c = m.new_var(cap).unwrap();
    m.cumulative_var_with(
        &[big, s],
        &[big_d, d],
        &[big_r, r],
        c,
        CumulativeStrength::TimeTable,
    )
    .unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    check(&mut ex, [s, d, r], c);
}

/// A task that must start by 1 cannot last into `[3, 6)`, where the fixed
/// task leaves no room: its duration drops to 3 (from its earliest start
/// 0), its start stays open; the reason names the start's bounds.
#[test]
fn duration_stops_before_the_profile() {
    root(
        (
            Domain::range(0, 1),
            Domain::range(1, 9),
            Domain::singleton(1),
        ),
        Domain::singleton(2),
        |ex, [s, d, _], _| {
            assert_eq!(ex.values(d).unwrap(), vec![1, 2, 3]);
            assert_eq!(ex.values(s).unwrap(), vec![0, 1]);
            let why = ex.why(Literal::Le(d, 3)).unwrap();
            assert!(why.to_string().contains(&format!("{s}")), "{why}");
        },
    );
}

/// A task whose compulsory part `[4, 6)` lies under the fixed task's
/// demand of 2, on a capacity of at most 3, demands at most 1.
#[test]
fn demand_fits_beside_the_profile() {
    root(
        (
            Domain::range(2, 4),
            Domain::singleton(4),
            Domain::range(0, 5),
        ),
        Domain::range(0, 3),
        |ex, [s, _, r], _| {
            assert_eq!(ex.values(r).unwrap(), vec![0, 1]);
            assert_eq!(ex.values(s).unwrap(), vec![2, 3, 4]);
        },
    );
}

/// The capacity rises to the peak of the profile: the fixed task's 2 plus
/// a compulsory part of demand at least 2 on `[4, 5)`.
#[test]
fn capacity_rises_to_the_peak() {
    root(
        (
            Domain::range(3, 4),
            Domain::range(2, 3),
            Domain::range(2, 3),
        ),
        Domain::range(0, 9),
        |ex, _, c| assert_eq!(ex.values(c).unwrap(), (4..=9).collect::<Vec<_>>()),
    );
}

/// A demand above the largest capacity makes the task last 0, and a
/// positive duration caps the demand: no failure, no search.
#[test]
fn amounts_meet_the_capacity() {
    let mut m = Model::new();
    let s = m.new_vars(2, Domain::range(0, 4)).unwrap();
    let d = [
        m.new_var(Domain::range(0, 3)).unwrap(),
        m.new_var(Domain::range(1, 3)).unwrap(),
    ];
    let r = [
        m.new_var(Domain::range(3, 5)).unwrap(),
        m.new_var(Domain::range(-2, 7)).unwrap(),
    ];
    let c = m.new_var(Domain::range(-5, 2)).unwrap();
    m.cumulative_var(&s, &d, &r, c).unwrap();
    let mut ex = Explainer::new(&m);
    ex.propagate().unwrap();
    ex.audit(testing::MAX_ASSIGNMENTS).unwrap();
    assert_eq!(ex.values(d[0]).unwrap(), vec![0]);
    assert_eq!(ex.values(r[1]).unwrap(), vec![0, 1, 2]);
    assert_eq!(ex.values(c).unwrap(), vec![0, 1, 2]);
}

#[test]
fn cumulative_var_bad_arguments_are_errors() {
    let mut m = Model::new();
    let x = m.new_vars(2, Domain::range(0, 5)).unwrap();
    let e = m.cumulative_var(&x, &x[..1], &x, x[0]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    let e = m.cumulative_var(&x, &x, &[], x[0]).unwrap_err();
    assert!(matches!(e, ModelError::LengthMismatch { .. }), "{e}");
    // A negative capacity only: no solution, no panic.
    let c = m.new_var(Domain::range(-3, -1)).unwrap();
    m.cumulative_var(&x, &x, &x, c).unwrap();
    assert!(Search::new(&m).solve().unwrap().solution.is_none());
}
