//! `fzn-csp` as MiniZinc runs it: flags, the output format of the FlatZinc
//! specification, errors with positions, and the time limit. Solutions are
//! read back from the printed text and checked here, independently of the
//! engine.

use std::process::{Command, Output};

fn fzn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fzn-csp")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The values of `name = array1d(1..n, [a, b, ...]);` lines, one per solution.
fn arrays(text: &str, name: &str) -> Vec<Vec<i64>> {
    let prefix = format!("{name} = array1d(");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|rest| {
            let inner = &rest[rest.find('[').unwrap() + 1..rest.rfind(']').unwrap()];
            inner.split(", ").map(|v| v.parse().unwrap()).collect()
        })
        .collect()
}

fn queens_ok(q: &[i64]) -> bool {
    (0..q.len())
        .all(|i| (i + 1..q.len()).all(|j| q[i] != q[j] && (q[i] - q[j]).abs() != (j - i) as i64))
}

#[test]
fn all_solutions_are_printed_checked_and_closed() {
    let o = fzn(&["-a", "tests/data/fzn/queens6.fzn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let sols = arrays(&text, "q");
    assert_eq!(sols.len(), 4, "{text}");
    assert!(sols.iter().all(|q| q.len() == 6 && queens_ok(q)), "{text}");
    let distinct: std::collections::BTreeSet<_> = sols.iter().collect();
    assert_eq!(distinct.len(), 4);
    assert_eq!(text.matches("----------\n").count(), 4);
    assert!(text.ends_with("----------\n==========\n"), "{text}");
}

#[test]
fn one_solution_by_default_and_n_solutions_with_n() {
    let text = stdout(&fzn(&["tests/data/fzn/queens6.fzn"]));
    let sols = arrays(&text, "q");
    assert_eq!(sols.len(), 1);
    assert!(queens_ok(&sols[0]));
    // One solution asked for: the search did not finish, so no "==========".
    assert!(text.ends_with("----------\n"), "{text}");
    let text = stdout(&fzn(&["-n", "2", "tests/data/fzn/queens6.fzn"]));
    assert_eq!(arrays(&text, "q").len(), 2);
    assert!(!text.contains("=========="), "{text}");
    // Asking for more than there are: all of them, and the search completed.
    let text = stdout(&fzn(&["-n", "9", "tests/data/fzn/queens6.fzn"]));
    assert_eq!(arrays(&text, "q").len(), 4);
    assert!(text.ends_with("==========\n"), "{text}");
}

#[test]
fn booleans_and_multi_dimensional_arrays_print_as_the_spec_says() {
    let text = stdout(&fzn(&["-a", "tests/data/fzn/grid.fzn"]));
    let blocks: Vec<&str> = text.split("----------\n").collect();
    assert_eq!(blocks.len(), 5, "{text}"); // 4 solutions, then "==========".
    for b in &blocks[..4] {
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines.len(), 3, "{b}");
        let a = lines[0].strip_prefix("a = ").unwrap().trim_end_matches(';');
        assert!(a == "true" || a == "false", "{b}");
        let g = lines[1]
            .strip_prefix("g = array2d(1..2, 1..2, [")
            .unwrap()
            .trim_end_matches("]);");
        let g: Vec<bool> = g.split(", ").map(|v| v == "true").collect();
        // Exactly one true cell per row; a is the top-left cell; n = bool2int(a).
        assert!(g[0] != g[1] && g[2] != g[3], "{b}");
        assert_eq!(a == "true", g[0], "{b}");
        assert_eq!(lines[2], if g[0] { "n = 1;" } else { "n = 0;" }, "{b}");
    }
    assert_eq!(blocks[4], "==========\n");
}

#[test]
fn optimisation_prints_improving_solutions_then_proves_the_optimum() {
    let text = stdout(&fzn(&["-a", "tests/data/fzn/knapsack.fzn"]));
    let mut last = i64::MIN;
    let mut n = 0;
    for block in text.split("----------\n").filter(|b| b.contains("value")) {
        let v: Vec<i64> = block
            .lines()
            .map(|l| {
                l.split(" = ")
                    .nth(1)
                    .unwrap()
                    .trim_end_matches(';')
                    .parse()
                    .unwrap()
            })
            .collect();
        let (x, y, z, value) = (v[0], v[1], v[2], v[3]);
        assert!(2 * x + 3 * y + z <= 5, "{block}");
        assert_eq!(value, 5 * x + 4 * y + 3 * z, "{block}");
        assert!(value > last, "not improving: {text}");
        last = value;
        n += 1;
    }
    assert!(n >= 1);
    // The optimum by enumeration.
    let best = (0..4)
        .flat_map(|x| (0..4).flat_map(move |y| (0..4).map(move |z| (x, y, z))))
        .filter(|&(x, y, z)| 2 * x + 3 * y + z <= 5)
        .map(|(x, y, z)| 5 * x + 4 * y + 3 * z)
        .max()
        .unwrap();
    assert_eq!(last, best);
    assert!(text.ends_with("==========\n"), "{text}");
    // Without -a: only the optimum.
    let text = stdout(&fzn(&["tests/data/fzn/knapsack.fzn"]));
    assert_eq!(text.matches("----------").count(), 1, "{text}");
    assert!(text.contains(&format!("value = {best};")), "{text}");
}

/// With `-s`, an optimisation reports `objectiveBound`: the objective
/// itself once proven (with and without learning); a run stopped by its
/// time limit (here at once) reports a bound no better solution can pass.
#[test]
fn statistics_report_the_objective_bound() {
    let stat = |text: &str, key: &str| -> Option<i64> {
        let p = format!("%%%mzn-stat: {key}=");
        text.lines()
            .find_map(|l| l.strip_prefix(p.as_str()))
            .map(|v| v.parse().unwrap())
    };
    // The default (learning with neighbourhoods), without them, and the
    // ordinary engine.
    for flags in [&[][..], &["--no-lns"], &["--no-learning"], &["--lns"]] {
        let mut args = vec!["-s", "tests/data/fzn/knapsack.fzn"];
        args.extend_from_slice(flags);
        let o = fzn(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("=========="), "{text}");
        let v = stat(&text, "objective").unwrap();
        assert_eq!(stat(&text, "objectiveBound"), Some(v), "{text}");
    }
}

/// `--trace-conflicts N` prints the learning search's first conflicts as
/// comment lines before the answer, which does not change.
#[test]
fn trace_conflicts_prints_comment_lines_before_the_answer() {
    let o = fzn(&["--trace-conflicts", "2", "docs/data/pigeons.fzn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let (trace, answer) = text.split_at(text.find("=====").unwrap());
    assert_eq!(answer, "=====UNSATISFIABLE=====\n", "{text}");
    assert!(trace.lines().all(|l| l.starts_with('%')), "{text}");
    assert_eq!(trace.matches("% conflict ").count(), 2, "{text}");
    assert_eq!(trace.matches("learned clause: ").count(), 2, "{text}");
    let o = fzn(&["--trace-conflicts", "x", "docs/data/pigeons.fzn"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn unsatisfiable_and_statistics() {
    let o = fzn(&["-s", "tests/data/fzn/unsat.fzn"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("=====UNSATISFIABLE=====\n"), "{text}");
    for key in ["nodes", "failures", "solutions", "solveTime", "initTime"] {
        assert!(
            text.contains(&format!("%%%mzn-stat: {key}=")),
            "{key}: {text}"
        );
    }
    assert!(text.ends_with("%%%mzn-stat-end\n"), "{text}");
}

#[test]
fn the_node_limit_is_kept_and_says_unknown() {
    // 1,000 nodes are far from enough to prove pigeons unsatisfiable,
    // with or without learning: the statistics show the limit reached
    // exactly, and the run says UNKNOWN, never UNSATISFIABLE.
    for learning in [false, true] {
        let mut args = vec!["-s", "--node-limit", "1000"];
        if !learning {
            args.push("--no-learning");
        }
        args.push("tests/data/fzn/pigeons.fzn");
        let o = fzn(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.starts_with("=====UNKNOWN=====\n"), "{text}");
        assert!(text.contains("%%%mzn-stat: nodes=1000\n"), "{text}");
    }
    let o = fzn(&["--node-limit", "x", "tests/data/fzn/pigeons.fzn"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("--node-limit: 'x' is not a valid number"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_time_limit_is_kept_and_says_unknown() {
    // Pigeons cannot finish in 300 ms: the limit ends it (how soon after
    // the limit depends on the machine's load, so it is not asserted).
    let o = fzn(&["-t", "300", "tests/data/fzn/pigeons.fzn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "=====UNKNOWN=====\n");
}

#[test]
fn bad_input_is_a_positioned_error_and_exit_2() {
    let o = fzn(&["tests/data/fzn/syntax_error.fzn"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "tests/data/fzn/syntax_error.fzn:3:1: expected ';', found 'solve'\n"
    );
    assert!(o.stdout.is_empty());
    let o = fzn(&["--frobnicate", "tests/data/fzn/unsat.fzn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("fzn-csp: unknown option '--frobnicate'"));
    let o = fzn(&["-n", "many", "tests/data/fzn/unsat.fzn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("-n: 'many' is not a valid number"),
        "{}",
        stderr(&o)
    );
    let o = fzn(&["--inference", "strong", "tests/data/fzn/unsat.fzn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--inference: expected fc, mac or none, found 'strong'"));
    let o = fzn(&["tests/data/fzn/missing.fzn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("fzn-csp: tests/data/fzn/missing.fzn: "));
    let o = fzn(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no model file"));
}

/// Sizes from the model's text that panicked or aborted (issue 32) are
/// positioned errors with status 2, and nothing is printed as a solution.
#[test]
fn sizes_that_cannot_fit_are_positioned_errors_and_exit_2() {
    for (file, want) in [
        (
            "tests/data/fzn/regular_overflow.fzn",
            "3:1: csp_regular: the transition table has 0 entries, \
             not Q·S = 4294967296·4294967296",
        ),
        (
            "tests/data/fzn/huge_array.fzn",
            "2:1: array 'xs' of 1000000000 variables takes the model past csp's limit \
             of 16777216 variables (0 before it)",
        ),
    ] {
        let o = fzn(&[file]);
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        assert_eq!(stderr(&o), format!("{file}:{want}\n"));
        assert!(o.stdout.is_empty(), "{file}: {}", stdout(&o));
    }
}

/// `-f` while enumerating every solution keeps the model's annotations
/// (the same tree, node for node), and still frees the search for one
/// solution (a different tree): packing.mzn -a -f ran past 120 s with
/// dom/wdeg (issue 32).
#[test]
fn free_search_keeps_the_annotations_when_enumerating() {
    let nodes = |args: &[&str]| {
        let o = fzn(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let line = out
            .lines()
            .find(|l| l.starts_with("%%%mzn-stat: nodes="))
            .unwrap_or_else(|| panic!("no node count in {out}"));
        line["%%%mzn-stat: nodes=".len()..].parse::<u64>().unwrap()
    };
    let q = "tests/data/fzn/queens6.fzn";
    assert_eq!(nodes(&["-a", "-s", "-f", q]), nodes(&["-a", "-s", q]));
    assert_eq!(
        nodes(&["-n", "3", "-s", "-f", q]),
        nodes(&["-n", "3", "-s", q])
    );
    assert_ne!(nodes(&["-s", "-f", q]), nodes(&["-s", q]));
}

/// `--memory-limit` covers building the model: a short file declaring 2²⁴
/// variables (a model of about 2.5 GB, built whole before the search's own
/// limit could apply) stops at the budget, says where, and answers
/// `=====UNKNOWN=====` with status 0, as a search stopped by a limit does
/// (issue 32). Within a budget the same flag lets a small model solve.
#[test]
fn the_memory_limit_covers_building_the_model() {
    let file = "tests/data/fzn/wide_model.fzn";
    let o = fzn(&["--memory-limit", "64M", file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "=====UNKNOWN=====\n");
    let e = stderr(&o);
    assert!(
        e.starts_with(&format!(
            "fzn-csp: {file}:3:1: memory limit: declaring array 'xs' took "
        )) && e.contains("the limit is 64.0 MiB; raise it with --memory-limit SIZE"),
        "{e}"
    );
    let o = fzn(&["--memory-limit", "64M", "tests/data/fzn/unsat.fzn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "=====UNSATISFIABLE=====\n");
    let o = fzn(&["--memory-limit", "lots", file]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--memory-limit expects a size such as 512M or 4G, got 'lots'"));
}

/// A set given as a huge range is not listed value by value (it aborted on
/// a 34 GB allocation, issue 32).
#[test]
fn huge_set_ranges_are_kept_as_ranges() {
    let o = fzn(&["-a", "tests/data/fzn/among_huge_range.fzn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "n = 4;\n----------\n==========\n");
}

#[test]
fn every_inference_finds_the_same_solutions() {
    let mut all = Vec::new();
    for inf in ["none", "fc", "mac"] {
        let text = stdout(&fzn(&[
            "-a",
            "--inference",
            inf,
            "tests/data/fzn/queens6.fzn",
        ]));
        let mut sols = arrays(&text, "q");
        sols.sort();
        all.push(sols);
    }
    assert_eq!(all[0].len(), 4);
    assert!(all.iter().all(|s| *s == all[0]));
}

#[test]
fn parallel_threads_give_the_same_answers() {
    let one = stdout(&fzn(&["-a", "tests/data/fzn/queens6.fzn"]));
    let two = stdout(&fzn(&["-a", "-p", "2", "tests/data/fzn/queens6.fzn"]));
    let mut a = arrays(&one, "q");
    let mut b = arrays(&two, "q");
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(two.ends_with("==========\n"));
    let text = stdout(&fzn(&["-p", "2", "tests/data/fzn/knapsack.fzn"]));
    assert!(
        text.contains("value = 14;") && text.ends_with("==========\n"),
        "{text}"
    );
}

/// `-p 2` on an optimisation: learning workers on the whole model (the
/// default; the probe off, so that they run), the known optimum proven
/// and the printed solution checked here; with `--no-learning`, the
/// split.
#[test]
fn parallel_learning_workers_prove_the_optimum() {
    for learning in [true, false] {
        let mut args = vec!["-p", "2", "-s", "-v"];
        if !learning {
            args.push("--no-learning");
        }
        args.push("tests/data/fzn/knapsack.fzn");
        let o = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
            .args(&args)
            .env("FZN_CSP_PROBE_NODES", "0")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run fzn-csp");
        assert!(o.status.success(), "{}", stderr(&o));
        let which = if learning {
            "learning workers on the whole model"
        } else {
            "workers on subproblems of a split tree"
        };
        assert!(stderr(&o).contains(which), "{}", stderr(&o));
        let text = stdout(&o);
        let get = |name: &str| -> i64 {
            let p = format!("{name} = ");
            let line = text.lines().find_map(|l| l.strip_prefix(p.as_str()));
            line.and_then(|v| v.trim_end_matches(';').parse().ok())
                .unwrap_or_else(|| panic!("{name}: {text}"))
        };
        let (x, y, z, value) = (get("x"), get("y"), get("z"), get("value"));
        // Maximise 5x + 4y + 3z with 2x + 3y + z <= 5 over 0..3, by
        // brute force.
        let best = (0..4i64)
            .flat_map(|x| (0..4i64).flat_map(move |y| (0..4i64).map(move |z| (x, y, z))))
            .filter(|&(x, y, z)| 2 * x + 3 * y + z <= 5)
            .map(|(x, y, z)| 5 * x + 4 * y + 3 * z)
            .max();
        assert!((0..=3).contains(&x) && (0..=3).contains(&y) && (0..=3).contains(&z));
        assert!(2 * x + 3 * y + z <= 5, "{text}");
        assert_eq!(value, 5 * x + 4 * y + 3 * z, "{text}");
        assert_eq!(Some(value), best, "{text}");
        assert!(text.contains("----------\n==========\n"), "{text}");
        let bound = format!("%%%mzn-stat: objectiveBound={value}\n");
        assert!(text.contains(&bound), "{text}");
    }
}

/// `-p 2` on a small model: the sequential probe finishes it and no
/// worker starts (issue 32, item 13: workers made small models 2 to 4
/// times slower). With the probe off, the workers give the same answers.
#[test]
fn small_models_are_not_split() {
    for (args, file) in [
        (&["-a"][..], "tests/data/fzn/queens6.fzn"),
        (&[][..], "tests/data/fzn/knapsack.fzn"),
    ] {
        let mut with: Vec<&str> = args.to_vec();
        with.extend(["-p", "2", "-v", file]);
        let o = fzn(&with);
        assert!(
            stderr(&o).contains("probe of 250000 nodes: finished, no workers started"),
            "{}",
            stderr(&o)
        );
        let off = Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
            .args(&with)
            .env("FZN_CSP_PROBE_NODES", "0")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run fzn-csp");
        assert!(!stderr(&off).contains("probe"), "{}", stderr(&off));
        let sorted = |o: &Output| {
            let mut lines: Vec<String> = stdout(o).lines().map(str::to_string).collect();
            lines.sort();
            lines
        };
        assert_eq!(sorted(&o), sorted(&off), "{file}");
    }
}

/// N-queens as FlatZinc with pairwise diagonal constraints (a model with
/// millions of solutions for `n = 16`).
fn queens_fzn(n: usize) -> String {
    let mut s = String::new();
    s.push_str("predicate fzn_all_different_int(array [int] of var int: x);\n");
    for i in 1..=n {
        s.push_str(&format!("var 1..{n}: q{i} :: output_var;\n"));
    }
    let qs: Vec<String> = (1..=n).map(|i| format!("q{i}")).collect();
    s.push_str(&format!(
        "array [1..{n}] of var int: q :: output_array([1..{n}]) = [{}];\n",
        qs.join(", ")
    ));
    s.push_str("constraint fzn_all_different_int(q);\n");
    for i in 1..=n {
        for j in i + 1..=n {
            let d = j - i;
            s.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{i}, q{j}], {d});\n"
            ));
            s.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{j}, q{i}], {d});\n"
            ));
        }
    }
    s.push_str("solve satisfy;\n");
    s
}

/// Solutions are written in batches (one system call per burst, not per
/// solution); a run stopped by the time limit still prints every solution
/// it found whole, each closed by its separator, and no `UNKNOWN`.
#[test]
fn a_stopped_run_prints_whole_solutions_only() {
    let dir = std::env::temp_dir().join(format!("csp-fzn-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("queens16.fzn");
    std::fs::write(&file, queens_fzn(16)).unwrap();
    let o = fzn(&["-a", "-t", "300", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(!text.contains("UNKNOWN") && !text.contains("=========="));
    let sols = arrays(&text, "q");
    assert!(sols.len() > 10, "{} solutions", sols.len());
    assert!(sols.iter().all(|q| q.len() == 16 && queens_ok(q)));
    // Every block is one whole solution: 16 `qi = v;` lines, the array
    // line, the separator; nothing after the last separator.
    assert!(
        text.ends_with("----------\n"),
        "{}",
        &text[text.len() - 200..]
    );
    for block in text.split_terminator("----------\n") {
        assert_eq!(block.lines().count(), 17, "{block}");
    }
}

/// Each `int_search` of a `seq_search` branches with its own orders: the
/// first solution takes x's largest value and y's smallest (with one
/// order for both phases it was x = 3, y = 3).
#[test]
fn seq_search_phases_keep_their_own_orders() {
    let dir = std::env::temp_dir().join(format!("csp-fzn-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("seq.fzn");
    std::fs::write(
        &file,
        "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n\
         var 1..3: z :: output_var;\n\
         constraint int_ne(x, z);\n\
         solve :: seq_search([int_search([x], input_order, indomain_max, complete), \
         int_search([y], input_order, indomain_min, complete), \
         int_search([z], input_order, indomain_split, complete)]) satisfy;\n",
    )
    .unwrap();
    let o = fzn(&[file.to_str().unwrap()]);
    let all = fzn(&["-a", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "x = 3;\ny = 1;\nz = 1;\n----------\n");
    // Enumeration still finds all 3 * 3 * 2 solutions, each once.
    let text = stdout(&all);
    assert_eq!(text.matches("----------").count(), 18, "{text}");
}

/// A value all-different whose variables another constraint prunes runs at
/// the search's level, not capped at forward checking: in MiniZinc's `sort`
/// test the elements shrink the index variables without fixing them, and
/// with the cap the search enumerated the sorted array's values for
/// minutes. Each printed array must be the input sorted.
#[test]
fn all_different_pruned_by_other_constraints_is_not_capped() {
    let o = fzn(&["-a", "-s", "-t", "20000", "tests/data/fzn/sort7.fzn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("==========\n"),
        "search did not finish: {text}"
    );
    let sols = arrays(&text, "sort_avi");
    let mut sorted = vec![3, 5, 1, 3, 5, 2, 8];
    sorted.sort_unstable();
    // Four index assignments (the two 3s and the two 5s swap), one array.
    assert_eq!(sols.len(), 4, "{text}");
    assert!(sols.iter().all(|s| *s == sorted), "{text}");
    let nodes: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: nodes="))
        .and_then(|v| v.parse().ok())
        .expect("a nodes statistic");
    assert!(nodes < 20_000, "{nodes} nodes");
}

/// The `% line N:` lines `--why-unsat` prints: the line numbers.
fn why_lines(text: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|l| l.strip_prefix("% line ")?.split(':').next()?.parse().ok())
        .collect()
}

/// The FlatZinc text `text` with only the constraint items on `keep`.
fn only_constraints(text: &str, keep: &[usize]) -> String {
    text.lines()
        .enumerate()
        .filter(|(i, l)| !l.starts_with("constraint ") || keep.contains(&(i + 1)))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

#[test]
fn why_unsat_names_a_minimal_set_checked_by_the_plain_engine() {
    // A 3×3 Latin square whose diagonals must both be distinct (MiniZinc
    // 2.6 output of why_unsat.mzn, with constraint names and paths).
    let file = "tests/data/fzn/why_unsat.fzn";
    let o = fzn(&["--why-unsat", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("=====UNSATISFIABLE=====\n% why-unsat: "),
        "{out}"
    );
    assert!(
        out.contains("(minimal: without any one of them there is a solution)"),
        "{out}"
    );
    // Named from MiniZinc's annotations, with the source position.
    assert!(
        out.contains("\"diagonal\" at why_unsat.mzn:7.12-7.46"),
        "{out}"
    );
    assert!(out.contains("\"anti-diagonal\""), "{out}");
    assert!(!out.contains("\"corner\""), "{out}");
    assert!(out.contains("search of"), "{out}");
    let lines = why_lines(&out);
    assert!(lines.len() >= 3, "{out}");
    // Independently, by the plain engine on FlatZinc text: the named items
    // alone have no solution, and without any one of them there is one.
    let text = std::fs::read_to_string(file).unwrap();
    let dir = std::env::temp_dir().join(format!("why_unsat_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |keep: &[usize]| -> String {
        let p = dir.join(format!("k{}.fzn", keep.len()));
        std::fs::write(&p, only_constraints(&text, keep)).unwrap();
        stdout(&fzn(&[p.to_str().unwrap()]))
    };
    assert_eq!(run(&lines), "=====UNSATISFIABLE=====\n");
    for i in 0..lines.len() {
        let mut less = lines.clone();
        less.remove(i);
        assert!(
            run(&less).contains("----------"),
            "without line {}",
            lines[i]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn why_unsat_on_a_satisfiable_model_prints_no_explanation_and_bad_flags_fail() {
    let o = fzn(&["--why-unsat", "tests/data/fzn/queens6.fzn"]);
    assert!(o.status.success());
    assert!(!stdout(&o).contains("why-unsat"));
    // Two items that contradict each other by propagation.
    let out = stdout(&fzn(&["--why-unsat", "tests/data/fzn/unsat.fzn"]));
    assert_eq!(why_lines(&out), vec![3, 4], "{out}");
    assert!(out.contains("propagation refutes them"), "{out}");
    // A budget too small to refute the Latin square says so.
    let out = stdout(&fzn(&[
        "--why-unsat",
        "--why-unsat-budget",
        "1",
        "tests/data/fzn/why_unsat.fzn",
    ]));
    assert!(out.contains("ran out of budget"), "{out}");
    for (args, msg) in [
        (
            &["--why-unsat-budget", "5", "tests/data/fzn/unsat.fzn"][..],
            "--why-unsat-budget needs --why-unsat",
        ),
        (
            &[
                "--why-unsat",
                "--why-unsat-budget",
                "0",
                "tests/data/fzn/unsat.fzn",
            ][..],
            "the budget must be at least 1",
        ),
        (
            &["--why-unsat", "--why-unsat-budget"][..],
            "--why-unsat-budget needs a value",
        ),
    ] {
        let o = fzn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(msg), "{args:?}: {}", stderr(&o));
    }
}

/// `tests/data/fzn/cumulative.fzn` by brute force: every start vector in
/// `0..=4` whose load stays within the capacity at every time.
fn cumulative_schedules() -> Vec<Vec<i64>> {
    let (d, r, cap) = ([3, 2, 2, 4, 1], [2, 1, 2, 1, 3], 3);
    let mut out = Vec::new();
    for code in 0..5i64.pow(5) {
        let s: Vec<i64> = (0..5).map(|i| code / 5i64.pow(i) % 5).collect();
        let fits = (0..9).all(|t| {
            let load: i64 = (0..5)
                .filter(|&i| s[i] <= t && t < s[i] + d[i])
                .map(|i| r[i])
                .sum();
            load <= cap
        });
        if fits {
            out.push(s);
        }
    }
    out.sort();
    out
}

#[test]
fn every_cumulative_strength_finds_exactly_the_schedules() {
    let expected = cumulative_schedules();
    assert!(!expected.is_empty() && expected.len() < 5usize.pow(5));
    for st in ["timetable", "energetic", "energetic-reasoning", "ttef"] {
        let o = fzn(&[
            "-a",
            "--cumulative-strength",
            st,
            "tests/data/fzn/cumulative.fzn",
        ]);
        assert!(o.status.success(), "{st}: {}", stderr(&o));
        let mut sols = arrays(&stdout(&o), "s");
        sols.sort();
        assert_eq!(sols, expected, "{st}");
    }
}

/// The value of a `%%%mzn-stat: key=value` line.
fn stat(text: &str, key: &str) -> u64 {
    let p = format!("%%%mzn-stat: {key}=");
    let v = text.lines().find_map(|l| l.strip_prefix(p.as_str()));
    v.unwrap_or_else(|| panic!("no {key} in {text}"))
        .parse()
        .unwrap()
}

#[test]
fn the_cumulative_strength_reaches_the_propagator() {
    // The energetic check fails the overloaded window at the root; time-
    // tabling alone sees no compulsory part and has to search.
    let nodes = |st: &str| {
        let o = fzn(&[
            "-s",
            "--cumulative-strength",
            st,
            "tests/data/fzn/cumulative_overload.fzn",
        ]);
        let text = stdout(&o);
        assert!(text.contains("=====UNSATISFIABLE====="), "{st}: {text}");
        stat(&text, "nodes")
    };
    assert!(nodes("timetable") > 0);
    for st in ["energetic", "energetic-reasoning", "ttef"] {
        assert_eq!(nodes(st), 0, "{st}");
    }
    // Without the flag: the default, energetic.
    let text = stdout(&fzn(&["-s", "tests/data/fzn/cumulative_overload.fzn"]));
    assert_eq!(stat(&text, "nodes"), 0);
}

#[test]
fn a_bad_cumulative_strength_is_an_error_and_exit_2() {
    let o = fzn(&[
        "--cumulative-strength",
        "strong",
        "tests/data/fzn/cumulative.fzn",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains(
        "--cumulative-strength: expected timetable, energetic, energetic-reasoning or ttef, found 'strong'"
    ));
    let o = fzn(&["--cumulative-strength"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("found nothing"), "{}", stderr(&o));
}

#[test]
fn the_all_different_strength_follows_the_engine_and_the_flag() {
    // A Hall interval ({a, b} on 1..2) leaves c and d two values, which
    // `c + d <= 6` cannot take: bounds and domain consistency fail at the
    // root, value consistency (forward checking) needs a search.
    let nodes = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-s", "tests/data/fzn/alldiff_pigeons.fzn"]);
        let o = fzn(&all);
        let text = stdout(&o);
        assert!(text.contains("=====UNSATISFIABLE====="), "{args:?}: {text}");
        stat(&text, "nodes")
    };
    // The learning search (the default for one solution) posts bounds.
    assert_eq!(nodes(&[]), 0);
    assert_eq!(nodes(&["--all-different-strength", "domain"]), 0);
    assert!(nodes(&["--all-different-strength", "value"]) > 0);
    // The ordinary engine and enumeration keep value consistency.
    assert!(nodes(&["--no-learning"]) > 0);
    assert!(nodes(&["-a"]) > 0);
    assert_eq!(
        nodes(&["--no-learning", "--all-different-strength", "bounds"]),
        0
    );
}

#[test]
fn a_bad_all_different_strength_is_an_error_and_exit_2() {
    let o = fzn(&[
        "--all-different-strength",
        "strong",
        "tests/data/fzn/alldiff_pigeons.fzn",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o)
        .contains("--all-different-strength: expected value, bounds or domain, found 'strong'"));
    let o = fzn(&["--all-different-strength"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("found nothing"), "{}", stderr(&o));
}

/// Every switch in `csp.msc`'s `extraFlags` (the file in
/// `share/minizinc/solvers/` and the one `csp minizinc-setup` writes) is
/// one `fzn-csp` accepts, and the two files list the same flags: MiniZinc
/// refuses a flag its configuration does not list (a `--lns` missing
/// there once stopped every run that passed it).
#[test]
fn the_solver_configurations_list_the_flags_fzn_csp_accepts() {
    let flags = |text: &str| -> Vec<(String, String)> {
        let v: serde_json::Value = serde_json::from_str(text).expect("csp.msc is JSON");
        v["extraFlags"]
            .as_array()
            .expect("extraFlags")
            .iter()
            .map(|f| {
                (
                    f[0].as_str().unwrap().to_string(),
                    f[2].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let shared = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("share/minizinc/solvers/csp.msc"),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("csp-msc-flags-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["minizinc-setup", "--dir"])
        .arg(&dir)
        .output()
        .expect("run csp minizinc-setup");
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(dir.join("csp.msc")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let (shared, written) = (flags(&shared), flags(&written));
    for f in &shared {
        assert!(written.contains(f), "{f:?} is in share/'s csp.msc only");
    }
    for must in ["--no-learning", "--learning", "--no-lns", "--lns"] {
        assert!(written.iter().any(|(n, _)| n == must), "{must} missing");
    }
    for (name, kind) in &written {
        let mut args = vec![name.as_str()];
        let value = match kind.as_str() {
            "bool" => None,
            "int" => Some("100000"),
            k if k.starts_with("opt:") => k.split(':').nth(1),
            k => panic!("{name}: kind {k} not handled by this test"),
        };
        args.extend(value);
        args.push("tests/data/fzn/knapsack.fzn");
        let o = fzn(&args);
        assert!(o.status.success(), "fzn-csp {args:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("----------"), "fzn-csp {args:?}");
    }
}
