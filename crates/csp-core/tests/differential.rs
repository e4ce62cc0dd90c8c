//! Differential testing (issue 32): random models (`generator/mod.rs`) built
//! from many kinds of
//! constraint — linear sums, arithmetic, expression trees, reification,
//! element, counting, tables, Booleans, regular — over small domains,
//! domains at the ends of `i32` and sparse ones, with variables repeated
//! in scopes. Each constraint comes with an independent statement of its
//! meaning in `i128`; brute force over the caller's variables gives the
//! solutions, and every search entry point must agree with it in a few
//! random configurations: `solutions`, `count`, `count_up_to`, `solve`,
//! `is_unique`, `minimize` / `maximize`, `par_count`, `par_solutions`,
//! `par_minimize`, and large neighbourhood search.
//!
//! The variables that expressions and reification add are functions of
//! the caller's, so solutions are compared on the caller's variables and
//! counts are equal.
//!
//! Every search runs under a node limit. On models without wide domains a
//! limit is a failure (a runaway); with them it is allowed, but what a
//! stopped search reports must still be right (no count above the truth,
//! no invalid solution).
//!
//! The normal test run checks a small fixed seed range. More:
//! `CSP_DIFF_SEEDS=0..5000 cargo test --release -p csp-core --test differential -- --nocapture`
//! (`A..B` or a count `N` for `0..N`); the run prints its figures.

mod generator;

use std::collections::BTreeSet;

use csp_core::{testing, Limits, Lns, Outcome, Search, SearchOptions, Uniqueness, Value};
use generator::{brute, case, Mix, Rng};

const NODES: u64 = 4_000;

/// What a run checked.
#[derive(Default)]
struct Tally {
    models: u64,
    refused: u64,
    checks: u64,
    stopped: u64,
}

/// Checks every entry point on case `seed` in a few configurations.
fn check(seed: u64, tally: &mut Tally) -> Result<(), String> {
    let c = case(seed, Mix::BASE);
    if c.specs.is_empty() {
        tally.refused += 1;
        return Ok(());
    }
    tally.models += 1;
    let expected = brute(&c);
    let truth = expected.len() as u128;
    let m = &c.model;
    let project =
        |vals: &[Value]| -> Vec<i64> { c.vars.iter().map(|x| vals[x.index()] as i64).collect() };
    let mut r = Rng(seed ^ 0xC0F1);
    let configs = testing::configurations_for(m, seed);
    let what = |o: &SearchOptions| {
        let names: Vec<&str> = c.specs.iter().map(|(n, _)| n.as_str()).collect();
        format!(
            "seed {seed}: {names:?} over {:?}; {:?}/{:?}/{:?} decision {:?}",
            c.domains, o.inference, o.var_order, o.val_order, o.decision_vars
        )
    };
    // A limit is a runaway unless the model has wide domains.
    let stopped = |o: Outcome, tally: &mut Tally| -> Result<bool, String> {
        match o {
            Outcome::LimitReached(_) if c.wide => {
                tally.stopped += 1;
                Ok(true)
            }
            Outcome::LimitReached(l) => Err(format!("stopped by the {l} on a small model")),
            Outcome::Invalid(id) => Err(format!("invalid: constraint {id}")),
            _ => Ok(false),
        }
    };
    for _ in 0..3 {
        let mut o = configs[r.below(configs.len())].clone();
        o.limits = Limits::none().with_nodes(NODES);
        let at = what(&o);
        let search = || Search::new(m).options(o.clone());
        let fail = |d: String| format!("{at}: {d}; expected {truth} solutions {expected:?}");
        // A checked call refuses a model with a constraint over no
        // variables that does not hold (a sum whose terms cancel): a
        // typed error, right when the model has no solution.
        let refused = |r: Result<csp_core::Optimum, String>| match r {
            Ok(o) => Ok(Some(o)),
            Err(e) if truth == 0 && e.contains("has no variables") => Ok(None),
            Err(e) => Err(e),
        };
        // Every entry point refuses a model with a false constraint over
        // no variables (a sum whose terms cancel): right when it has no
        // solution, and the same error from each (checked once here).
        if let Err(e) = search().validate() {
            tally.checks += 1;
            if truth == 0 && e.to_string().contains("has no variables") {
                continue;
            }
            return Err(fail(format!("refused: {e}")));
        }
        // solutions()
        let sols: Vec<Vec<i64>> = search()
            .solutions()
            .unwrap()
            .map(|s| project(s.values()))
            .collect();
        let set: BTreeSet<Vec<i64>> = sols.iter().cloned().collect();
        tally.checks += 1;
        if !set.is_subset(&expected) {
            return Err(fail(format!(
                "solutions() invented {:?}",
                set.difference(&expected).next()
            )));
        }
        if set.len() != sols.len() {
            return Err(fail("solutions() repeated a solution".into()));
        }
        // count()
        let rc = search().count().unwrap();
        tally.checks += 1;
        if !stopped(rc.outcome, tally).map_err(&fail)? {
            if rc.count != truth {
                return Err(fail(format!("count() = {} ({})", rc.count, rc.outcome)));
            }
            if set != expected {
                return Err(fail(format!("solutions() gave {set:?}")));
            }
        } else if rc.count > truth {
            return Err(fail(format!("count() = {} under a limit", rc.count)));
        }
        // count_up_to(k)
        let k = r.int(0, 3) as u64;
        let ru = search().count_up_to(k).unwrap();
        tally.checks += 1;
        // Reaching k is the solution limit; then exactly k were counted.
        let reached_k = ru.outcome == Outcome::LimitReached(csp_core::Limit::Solutions)
            && ru.count == k as u128
            && truth >= k as u128;
        if !reached_k
            && !stopped(ru.outcome, tally).map_err(&fail)?
            && ru.count != truth.min(k as u128)
        {
            return Err(fail(format!(
                "count_up_to({k}) = {} ({})",
                ru.count, ru.outcome
            )));
        }
        // solve()
        let rs = search().solve().unwrap();
        tally.checks += 1;
        if !stopped(rs.outcome, tally).map_err(&fail)? {
            match (&rs.solution, truth) {
                (None, 0) => {}
                (Some(s), _) if expected.contains(&project(s.values())) => {
                    m.check(s.values())
                        .map_err(|e| fail(format!("solve(): {e}")))?;
                }
                (s, _) => {
                    return Err(fail(format!(
                        "solve() = {:?}",
                        s.as_ref().map(|s| project(s.values()))
                    )))
                }
            }
        }
        // is_unique()
        tally.checks += 1;
        match (search().is_unique().unwrap(), truth) {
            (Uniqueness::None, 0) | (Uniqueness::Multiple(..), 2..) => {}
            (Uniqueness::Unique(s), 1) if expected.contains(&project(s.values())) => {}
            (Uniqueness::Unknown(_), _) if c.wide => tally.stopped += 1,
            (u, _) => return Err(fail(format!("is_unique() = {u:?}"))),
        }
        // minimize / maximize a caller's variable.
        let obj_i = r.below(c.vars.len());
        let obj = c.vars[obj_i];
        let lo = expected.iter().map(|x| x[obj_i]).min();
        let hi = expected.iter().map(|x| x[obj_i]).max();
        for (minimize, best) in [(true, lo), (false, hi)] {
            let opt = if minimize {
                search().minimize(obj)
            } else {
                search().maximize(obj)
            }
            .map_err(|e| fail(format!("optimise: {e}")));
            let Some(opt) = refused(opt)? else {
                continue;
            };
            tally.checks += 1;
            if !stopped(opt.outcome, tally).map_err(&fail)? {
                if opt.objective.map(|v| v as i64) != best {
                    return Err(fail(format!(
                        "optimise (min {minimize}) = {:?}, want {best:?}",
                        opt.objective
                    )));
                }
            } else if let (Some(v), Some(b)) = (opt.objective, best) {
                if (minimize && (v as i64) < b) || (!minimize && (v as i64) > b) {
                    return Err(fail(format!("optimise beyond the optimum: {v}")));
                }
            }
            if let Some(s) = &opt.best {
                m.check(s.values())
                    .map_err(|e| fail(format!("optimum: {e}")))?;
            }
        }
        // The parallel entry points.
        let threads = 1 + r.below(3);
        let pc = search().par_count(threads).unwrap();
        tally.checks += 1;
        if !stopped(pc.outcome, tally).map_err(&fail)? && pc.count != truth {
            return Err(fail(format!("par_count({threads}) = {}", pc.count)));
        }
        let (ps, pr) = search().par_solutions(threads).unwrap();
        tally.checks += 1;
        let pset: BTreeSet<Vec<i64>> = ps.iter().map(|s| project(s.values())).collect();
        if !pset.is_subset(&expected)
            || (!stopped(pr.outcome, tally).map_err(&fail)? && pset != expected)
        {
            return Err(fail(format!("par_solutions({threads}) = {pset:?}")));
        }
        let pm = search()
            .par_minimize(obj, threads)
            .map_err(|e| fail(e.to_string()));
        let Some(pm) = refused(pm)? else {
            continue;
        };
        tally.checks += 1;
        if !stopped(pm.outcome, tally).map_err(&fail)? && pm.objective.map(|v| v as i64) != lo {
            return Err(fail(format!(
                "par_minimize = {:?}, want {lo:?}",
                pm.objective
            )));
        }
        // LNS: freeing everything with a large budget is complete; the
        // default neighbourhoods never beat the optimum.
        for (relax, iterations) in [(1.0, 1), (0.5, 5)] {
            let lns = Lns {
                seed,
                relax,
                nodes: NODES,
                iterations,
            };
            let rl = search()
                .maximize_lns(obj, lns)
                .map_err(|e| fail(format!("LNS: {e}")));
            let Some(rl) = refused(rl)? else {
                continue;
            };
            tally.checks += 1;
            if let Some(s) = &rl.best {
                m.check(s.values()).map_err(|e| fail(format!("LNS: {e}")))?;
            }
            match rl.outcome {
                Outcome::Solved if rl.objective.map(|v| v as i64) != hi => {
                    return Err(fail(format!("LNS proved {:?}, want {hi:?}", rl.objective)))
                }
                Outcome::Unsatisfiable if truth != 0 => {
                    return Err(fail("LNS: unsatisfiable".into()))
                }
                _ if rl.objective.map(|v| v as i64) > hi => {
                    return Err(fail(format!("LNS beyond the optimum: {:?}", rl.objective)))
                }
                _ => {}
            }
            if relax == 1.0
                && !stopped(rl.outcome, tally).map_err(&fail)?
                && truth > 0
                && rl.outcome != Outcome::Solved
            {
                return Err(fail(format!("LNS freeing everything: {}", rl.outcome)));
            }
        }
    }
    Ok(())
}

/// The seeds to run: `CSP_DIFF_SEEDS` (`A..B` or `N`), else a short range.
fn seeds() -> std::ops::Range<u64> {
    // About 0.3 s in either build (seeds 150..200 hold slow wide models).
    let default = 0..150;
    let Ok(s) = std::env::var("CSP_DIFF_SEEDS") else {
        return default;
    };
    let parse = |t: &str| {
        t.trim()
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("CSP_DIFF_SEEDS: '{s}'"))
    };
    match s.split_once("..") {
        Some((a, b)) => parse(a)..parse(b),
        None => 0..parse(&s),
    }
}

#[test]
fn random_models_agree_with_brute_force_at_every_entry_point() {
    let mut tally = Tally::default();
    let range = seeds();
    let mut failures = Vec::new();
    for seed in range.clone() {
        if let Err(e) = check(seed, &mut tally) {
            failures.push(e);
            if failures.len() >= 5 {
                break;
            }
        }
    }
    println!(
        "differential: seeds {range:?}: {} models ({} with every constraint refused), {} checks, {} stopped by a limit (wide domains)",
        tally.models, tally.refused, tally.checks, tally.stopped
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
