//! `Model::to_minizinc` round trip: every model of the MiniZinc suite
//! (`../shared/data/minizinc/manifest.tsv`) is flattened for csp
//! (`minizinc -c`), read into a csp `Model` by the FlatZinc front end,
//! written back as MiniZinc by `to_minizinc_goal`, and solved by Gecode;
//! Gecode's answer on the written model must be the suite's known answer
//! (satisfiable or not, the number of distinct solutions over the model's
//! output variables) or, for an optimisation, the optimum that csp proves
//! on the FlatZinc it was written from. So the written models
//! mean what the library's models mean, checked by another solver.
//!
//! Needs `minizinc` and Gecode (`.ci/run` installs them); without them the
//! test says so and fails, unless `CSP_SKIP_MINIZINC=1` is set.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use csp_core::constraint::ValuePrecede;
use csp_core::minizinc::Goal;
use csp_core::{Limits, Search};
use csp_fzn::{Objective, Val};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/minizinc")
}

/// Whether minizinc with Gecode is here to run the tests; without it a
/// test fails with a message, unless `CSP_SKIP_MINIZINC` is set.
fn have_minizinc() -> bool {
    let here = Command::new("minizinc")
        .args(["--solver", "gecode", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !here {
        assert!(
            std::env::var_os("CSP_SKIP_MINIZINC").is_some(),
            "minizinc with Gecode is needed (apt-get install minizinc flatzinc), or set CSP_SKIP_MINIZINC=1"
        );
        eprintln!("skipped: no minizinc with Gecode");
    }
    here
}

/// A folder with csp's solver configuration, for `minizinc -c`.
fn solver_dir(tmp: &Path) -> PathBuf {
    let dir = tmp.join("solvers");
    let out = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["minizinc-setup", "--dir"])
        .arg(&dir)
        .output()
        .expect("run csp minizinc-setup");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// What Gecode printed for the written model: each solution's
/// `name = value;` pairs, and whether the search completed.
struct Run {
    solutions: Vec<Vec<(String, i64)>>,
    complete: bool,
    unsat: bool,
    timed_out: bool,
}

fn gecode(model: &Path, all: bool, optimize: bool) -> Run {
    let mut cmd = Command::new("minizinc");
    cmd.args(["--solver", "gecode", "--time-limit", "20000"]);
    if all {
        cmd.arg("-a");
    } else if optimize {
        cmd.arg("--intermediate-solutions");
    }
    let out = cmd.arg(model).output().expect("run minizinc");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: {}\n{}",
        model.display(),
        String::from_utf8_lossy(&out.stderr),
        text
    );
    let mut run = Run {
        solutions: Vec::new(),
        complete: false,
        unsat: false,
        timed_out: false,
    };
    let mut current = Vec::new();
    for line in text.lines() {
        match line.trim() {
            "----------" => run.solutions.push(std::mem::take(&mut current)),
            "==========" => run.complete = true,
            "=====UNSATISFIABLE=====" => run.unsat = true,
            l => {
                if let Some((name, value)) = l.strip_suffix(';').and_then(|l| l.split_once(" = ")) {
                    let v = value.trim().parse().expect("an integer value");
                    current.push((name.trim().to_string(), v));
                }
            }
        }
    }
    // A satisfaction run (neither -a nor an objective) ends at its first
    // solution without `==========`.
    run.timed_out = !run.complete && !run.unsat && (all || optimize || run.solutions.is_empty());
    run
}

#[test]
fn suite_models_round_trip_through_to_minizinc_and_gecode() {
    if !have_minizinc() {
        return;
    }
    let dir = suite_dir();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("the suite's manifest");
    let tmp = std::env::temp_dir().join(format!("csp-to-mzn-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let solvers = solver_dir(&tmp);
    let (mut compared, mut skipped) = (0, Vec::new());
    for line in manifest.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, model, data, kind, expected) = (f[0], f[1], f[2], f[3], f[5]);
        // Flatten for csp, as fzn-csp would be given the model.
        let fzn_path = tmp.join(format!("{id}.fzn"));
        let mut c = Command::new("minizinc");
        c.env("MZN_SOLVER_PATH", &solvers).current_dir(&dir).args([
            "--solver",
            "org.csp.csp",
            "-c",
            model,
        ]);
        if data != "-" {
            c.arg(data);
        }
        let out = c.arg("--fzn").arg(&fzn_path).output().expect("minizinc -c");
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&fzn_path).unwrap();
        let items = csp_fzn::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        let fzn = csp_fzn::build(&items).unwrap_or_else(|e| panic!("{id}: {e}"));
        if fzn.inconsistent {
            assert_eq!(
                expected, "unsat",
                "{id}: the front end found it inconsistent"
            );
            compared += 1;
            continue;
        }
        // Gecode's integers stop short of i32's ends (±2147483646).
        let gecode_range = (0..fzn.model.num_vars()).all(|i| {
            let d = fzn.model.domain(csp_core::VarId::from_index(i));
            d.min().is_some_and(|v| v > -2147483647) && d.max().is_some_and(|v| v < 2147483647)
        });
        if !gecode_range {
            skipped.push(format!("{id}: a domain beyond Gecode's integers"));
            continue;
        }
        let goal = match fzn.objective {
            Objective::Satisfy => Goal::Satisfy,
            Objective::Minimize(x) => Goal::Minimize(x),
            Objective::Maximize(x) => Goal::Maximize(x),
        };
        let mzn = match fzn.model.to_minizinc_goal(goal) {
            Ok(t) => t,
            Err(e) => {
                skipped.push(format!("{id}: {e}"));
                continue;
            }
        };
        let mzn_path = tmp.join(format!("{id}.mzn"));
        std::fs::write(&mzn_path, &mzn).unwrap();
        let names = csp_core::minizinc::identifiers(&fzn.model);
        let run = gecode(&mzn_path, kind == "count", kind == "optimize");
        if run.timed_out {
            skipped.push(format!("{id}: Gecode took more than 20 s"));
            continue;
        }
        match kind {
            "satisfy" => {
                assert_eq!(run.unsat, expected == "unsat", "{id}: satisfiability");
            }
            "optimize" => {
                // The suite's value is MiniZinc's `_objective`, which need
                // not be the flattened objective variable's value (radiation
                // scales by `ub(K)`, evaluated differently): compare with
                // the optimum csp proves on the same FlatZinc instead.
                let (Goal::Minimize(x) | Goal::Maximize(x)) = goal else {
                    panic!("{id}: an optimize row without an objective")
                };
                let (opts, _) = csp_fzn::search::options(&fzn, false, 0);
                let mut search = Search::new(&fzn.model)
                    .options(opts)
                    .limits(Limits::none().with_nodes(2_000_000));
                let csp = match goal {
                    Goal::Minimize(_) => search.minimize(x),
                    _ => search.maximize(x),
                }
                .unwrap_or_else(|e| panic!("{id}: {e}"));
                if !csp.proven {
                    skipped.push(format!("{id}: csp proves no optimum within the node limit"));
                    continue;
                }
                let last = run
                    .solutions
                    .last()
                    .unwrap_or_else(|| panic!("{id}: no solution"));
                let obj = &names[x.index()];
                let got = last.iter().find(|(n, _)| n == obj).map(|p| p.1);
                assert!(run.complete, "{id}: the optimum is not proven");
                assert_eq!(got, csp.objective.map(i64::from), "{id}: the optimum");
            }
            "count" => {
                // Distinct solutions over the output variables (the
                // variables flattening introduced may differ).
                let outputs: HashSet<&str> = fzn
                    .outputs
                    .iter()
                    .flat_map(|o| o.elems.iter())
                    .filter_map(|v| match v {
                        Val::Var(x) => Some(names[x.index()].as_str()),
                        _ => None,
                    })
                    .collect();
                let distinct: HashSet<Vec<i64>> = run
                    .solutions
                    .iter()
                    .map(|s| {
                        s.iter()
                            .filter(|(n, _)| outputs.contains(n.as_str()))
                            .map(|p| p.1)
                            .collect()
                    })
                    .collect();
                let want: usize = expected.parse().expect("a count");
                assert_eq!(distinct.len(), want, "{id}: the number of solutions");
            }
            _ => panic!("{id}: unknown kind {kind}"),
        }
        compared += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("{compared} models compared; not compared:");
    for s in &skipped {
        eprintln!("  {s}");
    }
    // Every model the front end reads is written and compared, but for
    // those Gecode cannot finish in 20 s and those with no proven answer.
    assert!(
        skipped.iter().all(|s| !s.contains("cannot be written")),
        "models that could not be written: {skipped:#?}"
    );
    assert!(
        compared >= 55,
        "only {compared} of the suite's models compared"
    );
}

/// The number of solutions Gecode finds on `m` written by `to_minizinc`
/// (every variable printed, so distinct solutions of the whole model).
fn gecode_count(m: &csp_core::Model, name: &str) -> usize {
    let mzn = m.to_minizinc().unwrap_or_else(|e| panic!("{name}: {e}"));
    let path = std::env::temp_dir().join(format!("csp-to-mzn-{}-{name}.mzn", std::process::id()));
    std::fs::write(&path, mzn).unwrap();
    let run = gecode(&path, true, false);
    let _ = std::fs::remove_file(&path);
    assert!(run.complete || run.unsat, "{name}: Gecode did not finish");
    let distinct: HashSet<Vec<(String, i64)>> = run.solutions.into_iter().collect();
    distinct.len()
}

/// Small models of the library's own constraints, the scheduling and
/// packing ones and those written as tables among them: Gecode counts
/// the written model's solutions, csp the model's; they must agree.
#[test]
fn library_models_count_the_same_in_gecode() {
    use csp_core::constraint::Automaton;
    use csp_core::{Domain, Model};
    if !have_minizinc() {
        return;
    }
    let mut models: Vec<(&str, Model)> = Vec::new();
    let mut m = Model::new();
    let s = m.new_vars_named("s", [4], Domain::range(0, 4)).unwrap();
    m.cumulative(&s, &[2, 1, 3, 0], &[2, 1, 1, 5], 2).unwrap();
    models.push(("cumulative", m));
    let mut m = Model::new();
    let s = m.new_vars_named("s", [3], Domain::range(0, 3)).unwrap();
    let d = m.new_vars_named("d", [3], Domain::range(0, 2)).unwrap();
    let r = m.new_vars_named("r", [3], Domain::range(1, 2)).unwrap();
    // Every demand fits the capacity: solvers differ on a task of duration 0
    // that demands more than the capacity.
    let c = m.new_var_named("c", Domain::range(2, 3)).unwrap();
    m.cumulative_var(&s, &d, &r, c).unwrap();
    models.push(("cumulative_var", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [3], Domain::range(0, 3)).unwrap();
    let y = m.new_vars_named("y", [3], Domain::range(0, 2)).unwrap();
    m.diffn(&x, &y, &[2, 0, 3], &[1, 2, 1]).unwrap();
    models.push(("diffn", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [3], Domain::range(0, 3)).unwrap();
    let y = m.new_vars_named("y", [3], Domain::range(0, 2)).unwrap();
    m.diffn_nonstrict(&x, &y, &[2, 0, 3], &[1, 2, 1]).unwrap();
    models.push(("diffn-nonstrict", m));
    let mut m = Model::new();
    let s = m.new_vars_named("s", [3], Domain::range(0, 5)).unwrap();
    m.disjunctive(&s, &[2, 0, 3]).unwrap();
    models.push(("disjunctive", m));
    // Only tasks of duration 0: once written `disjunctive([], [])`, which
    // MiniZinc rejects (found by tests/gecode.rs in csp-core).
    let mut m = Model::new();
    let s = m.new_vars_named("s", [2], Domain::range(0, 2)).unwrap();
    m.disjunctive(&s, &[0, 0]).unwrap();
    models.push(("disjunctive-empty", m));
    let mut m = Model::new();
    let bin = m.new_vars_named("bin", [4], Domain::range(1, 3)).unwrap();
    let load = m.new_vars_named("load", [3], Domain::range(0, 5)).unwrap();
    m.bin_packing_load_from(1, &load, &bin, &[2, 3, 1, 2])
        .unwrap();
    models.push(("bin-packing-load", m));
    let mut m = Model::new();
    let bin = m.new_vars_named("bin", [4], Domain::range(0, 2)).unwrap();
    m.bin_packing(4, &bin, &[2, 3, 1, 2]).unwrap();
    models.push(("bin-packing", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [4], Domain::range(0, 3)).unwrap();
    m.all_different_except(&x, 0).unwrap();
    models.push(("all-different-except", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [4], Domain::range(1, 3)).unwrap();
    let n = m.new_var_named("n", Domain::range(1, 4)).unwrap();
    m.nvalue(&x, n).unwrap(); // MiniZinc's nvalue
    models.push(("nvalue", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [7], Domain::range(0, 1)).unwrap();
    m.regular(&x, &Automaton::nonogram(&[2, 1])).unwrap();
    models.push(("regular", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [4], Domain::range(0, 3)).unwrap();
    let y = m.new_vars_named("y", [4], Domain::range(0, 3)).unwrap();
    m.inverse(&x, &y).unwrap();
    m.lex_less(&x, &y).unwrap(); // MiniZinc's lex_less
    models.push(("inverse-lex", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [3], Domain::range(0, 2)).unwrap();
    let y = m.new_vars_named("y", [3], Domain::range(0, 2)).unwrap();
    m.lex_lesseq(&x, &y).unwrap();
    m.lex_lesseq(&y, &x).unwrap(); // with the first: x = y
    models.push(("lex-lesseq", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [5], Domain::range(0, 3)).unwrap();
    m.post(ValuePrecede::new(x.to_vec(), 1, 3)).unwrap();
    m.post(ValuePrecede::new(x.to_vec(), 2, 0)).unwrap();
    models.push(("value-precede", m));
    let mut m = Model::new();
    let s = m.new_vars_named("s", [5], Domain::range(0, 4)).unwrap();
    m.subcircuit(&s).unwrap();
    models.push(("subcircuit", m));
    let mut m = Model::new();
    let x = m.new_vars_named("x", [5], Domain::range(1, 3)).unwrap();
    let c = m.new_vars_named("c", [2], Domain::range(0, 5)).unwrap();
    m.global_cardinality(&x, &[1, 2], &c).unwrap();
    let i = m.new_var_named("i", Domain::range(-1, 5)).unwrap();
    m.element(i, &x, c[[0]]).unwrap();
    models.push(("gcc-element", m));
    // Element counted from 1 (as fzn-csp posts MiniZinc's) and from −2,
    // with an index that reaches past the array on both sides.
    for (name, base) in [("element-base-1", 1), ("element-base-minus-2", -2)] {
        let mut m = Model::new();
        let x = m.new_vars_named("x", [4], Domain::range(0, 2)).unwrap();
        let i = m
            .new_var_named("i", Domain::range(base - 1, base + 4))
            .unwrap();
        let r = m.new_var_named("r", Domain::range(1, 2)).unwrap();
        m.element_offset(i, &x, r, base).unwrap();
        let j = m
            .new_var_named("j", Domain::range(base - 1, base + 3))
            .unwrap();
        m.element_const_offset(j, &[2, 0, 1, 2], r, base).unwrap();
        models.push((name, m));
    }
    let mut m = Model::new();
    let [x, y, z] = m.new_array(Domain::range(-3, 3)).unwrap();
    m.post((x * y).eq(z)).unwrap();
    m.post((2 * x - 3 * y).le(z + 1)).unwrap();
    m.post(x.ne(y)).unwrap();
    models.push(("arithmetic", m));
    // These are written as MiniZinc's own globals, not as tables.
    for (name, global) in [
        ("nvalue", "nvalue("),
        ("inverse-lex", "lex_less("),
        ("lex-lesseq", "lex_lesseq("),
        ("value-precede", "value_precede(1, 3, "),
    ] {
        let (_, m) = models.iter().find(|(n, _)| *n == name).unwrap();
        let text = m.to_minizinc().unwrap();
        assert!(text.contains(global), "{name}: {text}");
        assert!(!text.contains("table("), "{name}: {text}");
    }
    for (name, m) in &models {
        let csp = csp_core::Search::new(m).count().unwrap();
        assert_eq!(csp.outcome, csp_core::Outcome::Solved, "{name}");
        assert!(csp.count > 0, "{name}: a model with no solution tests less");
        assert_eq!(
            gecode_count(m, name) as u128,
            csp.count,
            "{name}: the number of solutions"
        );
    }
}

/// MiniZinc's `diffn` and `diffn_nonstrict` flattened for csp become the
/// natives `csp_diffn` and `csp_diffn_nonstrict` (sizes known) or
/// `csp_diffn_var` (a variable size, at least 0); csp counts the
/// flattened model's solutions as Gecode counts the model's. (A size that
/// may be negative keeps MiniZinc's decomposition, whose meaning for it
/// differs from Gecode's native `diffn`: not compared here.)
#[test]
fn diffn_is_native_in_flatzinc_and_counts_like_gecode() {
    if !have_minizinc() {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("csp-diffn-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let solvers = solver_dir(&tmp);
    let models = [
        (
            "strict",
            "constraint diffn(X, Y, [2, 0, 3], [1, 2, 0]);",
            Some("csp_diffn("),
        ),
        (
            "nonstrict",
            "constraint diffn_nonstrict(X, Y, [2, 0, 3], [1, 2, 2]);",
            Some("csp_diffn_nonstrict("),
        ),
        (
            "variable-size",
            "var 0..2: w;\nconstraint diffn(X, Y, [2, w, 3], [1, 2, 1]);",
            Some("csp_diffn_var("),
        ),
    ];
    for (name, constraint, native) in models {
        let mzn = format!(
            "include \"diffn.mzn\";\ninclude \"diffn_nonstrict.mzn\";\n\
             var 0..3: x1;\nvar 0..3: x2;\nvar 0..3: x3;\n\
             var 0..2: y1;\nvar 0..2: y2;\nvar 0..2: y3;\n\
             array[1..3] of var int: X = [x1, x2, x3];\n\
             array[1..3] of var int: Y = [y1, y2, y3];\n\
             {constraint}\nsolve satisfy;\n"
        );
        let path = tmp.join(format!("{name}.mzn"));
        std::fs::write(&path, mzn).unwrap();
        let fzn_path = tmp.join(format!("{name}.fzn"));
        let out = Command::new("minizinc")
            .env("MZN_SOLVER_PATH", &solvers)
            .args(["--solver", "org.csp.csp", "-c"])
            .arg(&path)
            .arg("--fzn")
            .arg(&fzn_path)
            .output()
            .expect("minizinc -c");
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&fzn_path).unwrap();
        let calls = text.lines().filter(|l| l.contains("constraint csp_diffn"));
        match native {
            Some(call) => assert!(
                text.lines()
                    .any(|l| l.starts_with(&format!("constraint {call}"))),
                "{name}: no {call} in\n{text}"
            ),
            None => assert_eq!(calls.count(), 0, "{name}: a native with a variable size"),
        }
        let items = csp_fzn::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let fzn = csp_fzn::build(&items).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Distinct solutions over the output variables (x, y and w).
        let outputs: Vec<&Val> = fzn.outputs.iter().flat_map(|o| &o.elems).collect();
        let mut csp = HashSet::new();
        for s in Search::new(&fzn.model).solutions().unwrap() {
            let value = |v: &Val| match *v {
                Val::Var(x) => s.value(x) as i64,
                Val::Offset(x, k) => s.value(x) as i64 + k,
                Val::Int(k) => k,
                _ => 0,
            };
            csp.insert(outputs.iter().map(|v| value(v)).collect::<Vec<_>>());
        }
        let run = gecode(&path, true, false);
        assert!(run.complete, "{name}: Gecode did not finish");
        let gecode: HashSet<Vec<(String, i64)>> = run.solutions.into_iter().collect();
        assert!(!csp.is_empty(), "{name}: no solution tests less");
        assert_eq!(csp.len(), gecode.len(), "{name}: the number of solutions");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
