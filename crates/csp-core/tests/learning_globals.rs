//! The learning search over the global constraints, against brute force.
//!
//! `learning.rs` audits the nogoods learned on models of the basic
//! constraints; each global's own tests audit its reasons one pruning at a
//! time. Here the two meet: small random models that combine two or three
//! globals of different families (counting, ordering, automata, graphs,
//! scheduling, packing, arithmetic, reification) on shared variables, so
//! that a conflict's analysis walks through the reasons of several of them
//! and of the nogoods learned before. For every model and every inference
//! level:
//! * every nogood learned, with frequent restarts and a small store that
//!   reduces often, excludes no solution (for optimisation: no solution
//!   within the bound in force when it was learned);
//! * the learning search agrees with brute force on satisfiability and on
//!   the optimum, and every solution it returns passes the model's
//!   checkers.
//!
//! Node limits only; no wall-clock assertion.

mod common;

use common::{assert_proven_optimum, best_value, check_nogoods, costed, optimise};

use csp_core::constraint::{
    Automaton, Consistency, CumulativeStrength, ValuePrecede, ValuePrecedeChain,
};
use csp_core::testing::{self, brute_force, learned_nogoods};
use csp_core::{
    Domain, Inference, Model, ModelError, Outcome, Relation, Restarts, Search, SearchOptions,
    Value, VarId,
};

/// The families of globals the models draw from.
const KINDS: usize = 32;

/// Posts global number `kind` over variables drawn from `pool` (the
/// model's first five variables) and a few small fresh ones.
fn post_global(
    m: &mut Model,
    kind: usize,
    next: &mut dyn FnMut(u64) -> u64,
    pool: &[VarId],
) -> Result<(), ModelError> {
    // `c` distinct variables of the pool; the counts, loads and lengths
    // the globals take are pool variables too, so that the globals and
    // the decisions on them meet in the conflicts.
    let v = common::distinct(next, pool, 5.min(pool.len()));
    match kind {
        0 => {
            // global_cardinality: the counts of values 0 and 1 among three
            // variables are two others.
            m.global_cardinality(&v[..3], &[0, 1], &v[3..5])?;
        }
        1 => {
            m.nvalue(&v[..3], v[3])?;
        }
        2 => {
            m.among(&v[..3], &[1, 3], v[3])?;
        }
        3 => {
            if next(2) == 0 {
                m.lex_less(&v[..2], &v[2..4])?;
            } else {
                m.lex_lesseq(&v[..2], &v[2..4])?;
            }
        }
        4 => {
            // Words with no two neighbours of 2 or more in a row.
            let mut t = Vec::new();
            for q in 0..2usize {
                for val in 0..5 {
                    let big = val >= 2;
                    if q == 1 && big {
                        continue;
                    }
                    t.push((q, val, usize::from(big)));
                }
            }
            let a = Automaton::new(2, 0, &[0, 1], &t).unwrap();
            m.regular(&v[..3], &a)?;
        }
        5 => {
            // A circuit or subcircuit on three fresh successors, tied to the pool.
            let succ = m.new_vars(3, Domain::range(0, 2))?;
            if next(2) == 0 {
                m.circuit(&succ)?;
            } else {
                m.subcircuit(&succ)?;
            }
            m.less_eq(succ[0], v[0], next(3) as i64 - 1)?;
            m.not_equal(succ[1], v[1], 0)?;
        }
        6 => {
            let f = m.new_vars(2, Domain::range(0, 1))?;
            let g = m.new_vars(2, Domain::range(0, 1))?;
            m.inverse(&f, &g)?;
            m.less_eq(v[0], f[next(2) as usize], 0)?;
        }
        7 => {
            let d: Vec<i32> = (0..3).map(|_| 1 + next(2) as i32).collect();
            m.disjunctive(&v[..3], &d)?;
        }
        8 => {
            let d: Vec<i32> = (0..3).map(|_| next(3) as i32).collect();
            let r: Vec<i32> = (0..3).map(|_| 1 + next(2) as i32).collect();
            let strength = [
                CumulativeStrength::TimeTable,
                CumulativeStrength::Energetic,
                CumulativeStrength::EnergeticReasoning,
                CumulativeStrength::TimeTableEdgeFinding,
            ][next(4) as usize];
            m.cumulative_with(&v[..3], &d, &r, 2, strength)?;
        }
        9 => {
            // Three fresh items into two bins whose loads are pool variables.
            let bins = m.new_vars(3, Domain::range(0, 1))?;
            let sizes: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
            m.bin_packing_load(&v[..2], &bins, &sizes)?;
            m.not_equal(bins[0], v[2], 0)?;
        }
        10 => {
            let dx = [1 + next(2) as i32, 1 + next(2) as i32];
            let dy = [1 + next(2) as i32, 1];
            m.diffn(&v[..2], &v[2..4], &dx, &dy)?;
        }
        11 => {
            // A rectangle whose width and height are a fresh variable, beside
            // one of the pool's width; with order literals when the coin says so.
            let w = m.new_var(Domain::range(1, 2))?;
            let one = m.new_var(Domain::range(1, 1))?;
            let (dx, dy) = ([w, v[4]], [one, w]);
            if next(2) == 0 {
                m.diffn_var(&v[..2], &v[2..4], &dx, &dy)?;
            } else {
                let order = m.new_vars(4, Domain::range(0, 1))?;
                m.diffn_var_ordered(&v[..2], &v[2..4], &dx, &dy, &order)?;
            }
        }
        12 => {
            // 0-based, or counted from 1 as MiniZinc's arrays.
            let base = next(2) as Value;
            let i = m.new_var(Domain::range(base, base + 1))?;
            m.element_offset(i, &v[..2], v[2], base)?;
        }
        13 => {
            match next(4) {
                0 => m.times(v[0], v[1], v[2]).unwrap(),
                1 => m.max(&v[..2], v[2]).unwrap(),
                2 => m.min(&v[..2], v[2]).unwrap(),
                _ => m.abs(v[0], v[1]).unwrap(),
            };
        }
        14 => {
            // A reified sum in a clause: x + y ≤ c or z = 1.
            let b = m.reify((v[0] + v[1]).le(next(5) as i32 + 1))?;
            let c = m.reify(v[2].eq(1))?;
            m.clause(&[b, c], &[])?;
        }
        15 => {
            let rel = [Relation::Le, Relation::Ge, Relation::Eq][next(3) as usize];
            m.count(&v[..3], next(3) as Value, rel, 1 + next(2) as i64)?;
        }
        16 => {
            let c =
                [Consistency::Value, Consistency::Bounds, Consistency::Domain][next(3) as usize];
            m.all_different_with(&v[..4], c)?;
        }
        17 => {
            m.all_different_except(&v[..4], 0)?;
        }
        18 => {
            let rows: Vec<Vec<Value>> = (0..3 + next(8))
                .map(|_| (0..3).map(|_| next(4) as Value).collect())
                .collect();
            if next(2) == 0 {
                m.table(&v[..3], rows)?;
            } else {
                m.negative_table(&v[..3], rows)?;
            }
        }
        19 => {
            if next(2) == 0 {
                m.increasing(&v[..3])?;
            } else {
                m.strictly_increasing(&v[..3])?;
            }
        }
        20 => {
            // x ≤ 1 xor y = z is b.
            let a = m.reify(v[0].le(1))?;
            let c = m.reify(v[1].eq(v[2]))?;
            let b = m.reify(v[3].ge(2))?;
            m.xor(&[a, c], b)?;
        }
        21 => {
            // Two tasks of variable duration and demand on a resource whose
            // capacity is a pool variable.
            let d = m.new_vars(2, Domain::range(0, 2))?;
            let r = m.new_vars(2, Domain::range(1, 2))?;
            m.cumulative_var(&v[..2], &d, &r, v[2])?;
        }
        22 => {
            // Two boxes in 2D by diffn_k, one of variable height.
            let one = m.new_var(Domain::range(1, 1))?;
            let two = m.new_var(Domain::range(2, 2))?;
            let origins = [[v[0], v[1]], [v[2], v[3]]];
            let sizes = [[two, one], [one, v[4]]];
            m.diffn_k(&origins, &sizes)?;
        }
        23 => {
            // Division and remainder with zero in the divisor's domain.
            if next(2) == 0 {
                m.div(v[0], v[1], v[2])?;
            } else {
                m.modulo(v[0], v[1], v[2])?;
            }
        }
        25 => {
            // Value precedence: a chain from 1, or one pair.
            if next(2) == 0 {
                m.post(ValuePrecedeChain::new(v[..4].to_vec(), 1))?;
            } else {
                m.post(ValuePrecede::new(v[..4].to_vec(), 1, 2))?;
            }
        }
        26 => {
            // A constant array indexed by a pool variable, counted from
            // −1, 0 or 1.
            let a: Vec<Value> = (0..5).map(|_| next(5) as Value).collect();
            m.element_const_offset(v[0], &a, v[1], next(3) as Value - 1)?;
        }
        27 => {
            m.all_different_offset(&v[..3], &[0, 1, 2])?;
        }
        28 => {
            // Three items of fixed size into bins numbered by the pool.
            let sizes: Vec<i32> = (0..3).map(|_| 1 + next(3) as i32).collect();
            m.bin_packing(3 + next(2) as i32, &v[..3], &sizes)?;
        }
        29 => {
            // Non-strict rectangles (zero sizes may touch anywhere).
            let dx = [next(3) as i32, 1 + next(2) as i32];
            let dy = [1 + next(2) as i32, next(2) as i32];
            m.diffn_nonstrict(&v[..2], &v[2..4], &dx, &dy)?;
        }
        30 => {
            // x² = y or x³ = y; half-reified: b → (z ≤ 1).
            m.pow(v[0], 2 + next(2) as u32, v[1])?;
            let b = m.new_bool()?;
            m.half_reify(v[2].le(1), b)?;
            let c = m.reify(v[3].ge(2))?;
            m.implies(b, c)?;
        }
        _ => {
            // x ∈ {1, 3} (or x ∈ 1..2) or y ≥ 3.
            let b = m.new_bool()?;
            let set = if next(2) == 0 {
                Domain::values([1, 3])
            } else {
                Domain::range(1, 2)
            };
            m.reify_in(v[0], set, b)?;
            let c = m.reify(v[1].ge(3))?;
            m.clause(&[b, c], &[])?;
        }
    }
    Ok(())
}

/// A random model: 5 variables over 0..3 or 0..4, three or four globals
/// on them (the first two of different kinds), two binary constraints
/// and a sum tying them; with `far` not empty, one or two of its values
/// (each variable its own draw) added to each of the 5 variables' domains: far values 64 to 255
/// above the others make the domains large (no one-word representation)
/// and the globals' id windows wide; farther ones, wider than 256 values
/// or near the ends of `i32`, take the general paths.
fn random_model_over(seed: u64, far: &[Value]) -> Option<(Model, Vec<VarId>, Vec<usize>)> {
    let mut next = common::rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut m = Model::new();
    let n = 5;
    let xs: Vec<VarId> = (0..n)
        .map(|_| {
            let top = 3 + next(2) as i32;
            if far.is_empty() {
                return m.new_var(Domain::range(0, top)).unwrap();
            }
            let mut vals: Vec<Value> = (0..=top).collect();
            for _ in 0..1 + next(2) {
                vals.push(far[next(far.len() as u64) as usize]);
            }
            m.new_var(Domain::values(vals)).unwrap()
        })
        .collect();
    let first = next(KINDS as u64) as usize;
    let mut kinds = vec![first, (first + 1 + next(KINDS as u64 - 1) as usize) % KINDS];
    for _ in 0..1 + next(2) {
        kinds.push(next(KINDS as u64) as usize);
    }
    for &k in &kinds {
        // Over far values, a global may refuse a pool variable as a size
        // or a capacity (negative values): no model then.
        post_global(&mut m, k, &mut next, &xs).ok()?;
    }
    for _ in 0..2 {
        let v = common::distinct(&mut next, &xs, 2);
        m.not_equal(v[0], v[1], next(3) as Value - 1).unwrap();
    }
    // A tight sum, so that the search meets conflicts.
    let v = common::distinct(&mut next, &xs, 3);
    let terms: Vec<(i64, VarId)> = v
        .iter()
        .map(|&x| ([-1, 1, 2][next(3) as usize], x))
        .collect();
    let rel = [Relation::Eq, Relation::Le, Relation::Ge][next(3) as usize];
    m.linear(&terms, rel, next(7) as i64).unwrap();
    Some((m, xs, kinds))
}

fn options(inference: Inference, nodes: u64) -> SearchOptions {
    let mut o = SearchOptions {
        inference,
        learning: true,
        ..SearchOptions::default()
    };
    o.limits.nodes = Some(nodes);
    o
}

const INFERENCES: [Inference; 2] = [Inference::ForwardChecking, Inference::Mac];

/// A seed, its model, the model's first variables, the kinds of globals
/// posted, and the model's solutions.
type Case = (u64, Model, Vec<VarId>, Vec<usize>, Vec<Vec<Value>>);

/// The models that brute force can enumerate quickly, with their
/// solutions: of seeds `0..600`, or of `0..N` with the environment's
/// `CSP_LEARN_SEEDS=N` (longer hunts by hand).
fn models() -> impl Iterator<Item = Case> {
    let seeds = std::env::var("CSP_LEARN_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600u64);
    models_over(0..seeds, &[])
}

/// The models of `seeds` over [`random_model_over`]`(seed, far)` that
/// brute force can enumerate quickly, with their solutions.
fn models_over(seeds: std::ops::Range<u64>, far: &'static [Value]) -> impl Iterator<Item = Case> {
    seeds.filter_map(move |seed| {
        let (m, xs, kinds) = random_model_over(seed, far)?;
        // Small enough to enumerate quickly.
        let space = m
            .vars()
            .try_fold(1u64, |p, x| p.checked_mul(m.domain(x).size()))?;
        if space > 300_000 {
            return None;
        }
        brute_force(&m).map(|sols| (seed, m, xs, kinds, sols))
    })
}

#[test]
fn nogoods_learned_over_globals_exclude_no_solution() {
    let (mut models_run, mut learned, mut kinds_seen) = (0, 0, [false; KINDS]);
    for (seed, m, xs, kinds, _) in models() {
        models_run += 1;
        let (m, cost) = costed(m, &xs);
        let Some(sols) = brute_force(&m) else {
            continue;
        };
        for k in kinds {
            kinds_seen[k] = true;
        }
        for inf in INFERENCES {
            let mut o = options(inf, 5_000);
            o.restarts = Restarts::Luby { scale: 2 };
            let ngs = learned_nogoods(&m, o.clone(), None, Some(4));
            learned += ngs.len();
            check_nogoods(&m, &sols, &ngs, None, &format!("seed {seed}, {inf:?}"));
            // Branch and bound goes on past the first solution, and
            // learns more.
            let x = Some((cost, seed % 2 == 0));
            let ngs = learned_nogoods(&m, o, x, Some(4));
            learned += ngs.len();
            check_nogoods(
                &m,
                &sols,
                &ngs,
                x,
                &format!("seed {seed}, {inf:?}, {x:?}: {m:?}"),
            );
        }
    }
    // The test must reach enough models and make them learn, or it checks
    // nothing.
    eprintln!("{models_run} models, {learned} nogoods learned");
    assert!(models_run > 200, "only {models_run} models enumerated");
    assert!(learned > 800, "only {learned} nogoods learned");
    assert!(
        kinds_seen.iter().all(|&k| k),
        "kinds never drawn: {kinds_seen:?}"
    );
}

#[test]
fn learning_over_globals_agrees_with_brute_force() {
    let (mut sat, mut unsat) = (0, 0);
    for (seed, m, _, _, sols) in models() {
        for inf in INFERENCES {
            let r = Search::new(&m)
                .options(options(inf, 100_000))
                .solve()
                .unwrap();
            let what = format!("seed {seed}, {inf:?}: {m:?}");
            match r.outcome {
                Outcome::Solved => {
                    m.check(r.solution.unwrap().values()).unwrap();
                    assert!(!sols.is_empty(), "{what}");
                    sat += 1;
                }
                Outcome::Unsatisfiable => {
                    assert!(sols.is_empty(), "{what}: {} solutions", sols.len());
                    unsat += 1;
                }
                o => panic!("{what}: {o:?}"),
            }
        }
    }
    // Both answers must be exercised.
    assert!(sat > 100 && unsat > 20, "{sat} satisfiable, {unsat} not");
}

#[test]
fn learning_over_globals_finds_the_optimum_and_its_nogoods_hold() {
    let mut proven = 0;
    for (seed, m, xs, ..) in models().filter(|(s, ..)| s % 2 == 0) {
        let (m, cost) = costed(m, &xs);
        let Some(sols) = brute_force(&m) else {
            continue;
        };
        let minimize = seed % 4 == 0;
        let best = best_value(&sols, cost, minimize);
        for inf in INFERENCES {
            let what = format!("seed {seed}, {inf:?}, minimize {minimize}: {m:?}");
            let r = optimise(
                Search::new(&m).options(options(inf, 100_000)),
                cost,
                minimize,
            );
            if assert_proven_optimum(&m, &r, best, &what) {
                proven += 1;
            }
            let mut o = options(inf, 5_000);
            o.restarts = Restarts::Luby { scale: 2 };
            let ngs = learned_nogoods(&m, o, Some((cost, minimize)), Some(4));
            check_nogoods(&m, &sols, &ngs, Some((cost, minimize)), &what);
        }
    }
    assert!(proven > 100, "only {proven} optima proven");
}

/// Every reason each global gives inside these models, audited by brute
/// force (`testing::check_explanations`): with other constraints pruning
/// the globals' variables first, a reason must also name the removals it
/// rests on, which one constraint alone never makes (the `among` and
/// `reify_in` defects of the sixteenth session).
#[test]
fn every_reason_inside_the_mixed_models_checks_out() {
    let mut audited = 0;
    for (seed, m, ..) in models() {
        testing::check_explanations(&m).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{m:?}"));
        audited += 1;
    }
    assert!(audited > 200, "only {audited} models audited");
}

/// Far values 64 to 255 above the others: large domains (no one-word
/// representation) and id windows of 64 to 255 values (all-different's
/// wide path).
const WINDOW: &[Value] = &[64, 65, 130, 200, 255];
/// Far values more than 256 apart, on both sides: the general paths.
const BEYOND: &[Value] = &[300, 1000, -1000];
/// The ends of `i32`.
const ENDS: &[Value] = &[Value::MIN, Value::MIN + 1, Value::MAX - 1, Value::MAX];

/// Seeds per set of far values in the tests over wide domains.
const WIDE_SEEDS: u64 = 250;

/// [`every_reason_inside_the_mixed_models_checks_out`] over wide domains
/// ([`random_model_over`] with `far`): the paths the globals choose by
/// domain size, id window or representation, which domains of five
/// values never reach.
fn reasons_over(far: &'static [Value]) {
    let mut audited = 0;
    for (seed, m, ..) in models_over(0..WIDE_SEEDS, far) {
        testing::check_explanations(&m)
            .unwrap_or_else(|e| panic!("far {far:?}, seed {seed}: {e}\n{m:?}"));
        audited += 1;
    }
    assert!(audited > 150, "far {far:?}: only {audited} models audited");
}

#[test]
fn every_reason_inside_mixed_models_over_wide_windows_checks_out() {
    reasons_over(WINDOW);
}

#[test]
fn every_reason_inside_mixed_models_wider_than_256_checks_out() {
    reasons_over(BEYOND);
}

#[test]
fn every_reason_inside_mixed_models_at_the_ends_of_i32_checks_out() {
    reasons_over(ENDS);
}

/// [`nogoods_learned_over_globals_exclude_no_solution`] over wide
/// domains: every nogood learned, solving and optimising, admits every
/// solution brute force finds.
#[test]
fn nogoods_learned_over_wide_globals_exclude_no_solution() {
    for far in [WINDOW, BEYOND] {
        let (mut models_run, mut learned) = (0, 0);
        for (seed, m, xs, _, sols) in models_over(0..WIDE_SEEDS, far) {
            // The cost's domain is too wide to enumerate: each solution
            // extended by its cost instead (checked by the model).
            let (m, cost) = costed(m, &xs);
            let sols: Vec<Vec<Value>> = sols
                .into_iter()
                .map(|mut s| {
                    let c: i64 = xs
                        .iter()
                        .enumerate()
                        .map(|(i, x)| (i as i64 % 3 + 1) * s[x.index()] as i64)
                        .sum();
                    s.push(c as Value);
                    m.check(&s).unwrap();
                    s
                })
                .collect();
            assert_eq!(m.num_vars(), cost.index() + 1);
            models_run += 1;
            for inf in INFERENCES {
                let mut o = options(inf, 5_000);
                o.restarts = Restarts::Luby { scale: 2 };
                let what = format!("far {far:?}, seed {seed}, {inf:?}");
                let ngs = learned_nogoods(&m, o.clone(), None, Some(4));
                learned += ngs.len();
                check_nogoods(&m, &sols, &ngs, None, &what);
                let x = Some((cost, seed % 2 == 0));
                let ngs = learned_nogoods(&m, o, x, Some(4));
                learned += ngs.len();
                check_nogoods(&m, &sols, &ngs, x, &format!("{what}, {x:?}"));
            }
        }
        eprintln!("far {far:?}: {models_run} models, {learned} nogoods learned");
        assert!(models_run > 100, "far {far:?}: only {models_run} models");
        assert!(learned > 400, "far {far:?}: only {learned} nogoods learned");
    }
}
