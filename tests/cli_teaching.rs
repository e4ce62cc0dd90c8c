//! `csp queens` with the teaching solvers (`--solver teach-*`), the search
//! views of `--trace` and the comparison over a range of n: every count
//! against the known sequence, every placement through an independent
//! checker written here.

use std::process::{Command, Output};

fn csp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .output()
        .expect("run csp")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// OEIS A000170 for n = 0..=10.
const COUNTS: [u128; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

const EXACT: [&str; 6] = [
    "teach-sets",
    "teach-stack",
    "teach-bits",
    "teach-nn",
    "teach-perm",
    "teach-fc",
];

/// No two queens of a placement (1-based columns) attack each other.
fn valid(cols: &[i64]) -> bool {
    let n = cols.len() as i64;
    cols.iter().all(|&c| (1..=n).contains(&c))
        && (0..cols.len()).all(|i| {
            (0..i).all(|k| cols[i] != cols[k] && (cols[i] - cols[k]).abs() != (i - k) as i64)
        })
}

fn columns(line: &str) -> Vec<i64> {
    line.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn teaching_solvers_count_like_oeis_for_n_up_to_10() {
    for solver in EXACT {
        for (n, &want) in COUNTS.iter().enumerate() {
            if solver == "teach-nn" && n > 8 {
                continue; // 9^9 and 10^10 placements: minutes
            }
            let ns = n.to_string();
            let o = csp(&["queens", &ns, "--count", "--solver", solver, "--stats"]);
            assert_eq!(o.status.code(), Some(0), "{solver} n={n}: {}", stderr(&o));
            assert_eq!(stdout(&o).trim(), want.to_string(), "{solver} n={n}");
            // The statistics say what a node is.
            assert!(stderr(&o).contains("nodes: "), "{}", stderr(&o));
            assert!(stderr(&o).contains(&format!("solutions: {want}")));
        }
    }
}

#[test]
fn teaching_lists_are_valid_and_lexicographic() {
    for solver in EXACT {
        let o = csp(&[
            "queens", "6", "--all", "--format", "columns", "--solver", solver,
        ]);
        assert_eq!(o.status.code(), Some(0));
        let lines: Vec<Vec<i64>> = stdout(&o).lines().map(columns).collect();
        assert_eq!(lines.len(), 4, "{solver}");
        assert!(lines.iter().all(|c| valid(c)), "{solver}");
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{solver}: order");
    }
}

#[test]
fn local_teaching_solvers_print_only_checked_solutions() {
    for solver in ["teach-min-conflicts", "teach-genetic"] {
        for n in 4..=10 {
            for seed in ["1", "2", "3"] {
                let ns = n.to_string();
                let o = csp(&[
                    "queens", &ns, "--solver", solver, "--format", "columns", "--seed", seed,
                ]);
                assert_eq!(o.status.code(), Some(0), "{solver} n={n}");
                let cols = columns(stdout(&o).trim());
                assert_eq!(cols.len(), n);
                assert!(valid(&cols), "{solver} n={n} seed {seed}: {cols:?}");
            }
        }
    }
}

#[test]
fn a_local_search_that_finds_nothing_exits_non_zero() {
    // n = 3 has no solution; a local search cannot show it, so it answers
    // `unknown` and exits 1 (not `no solution` with 0).
    for solver in ["teach-genetic", "teach-min-conflicts"] {
        let o = csp(&["queens", "3", "--solver", solver]);
        assert_eq!(o.status.code(), Some(1), "{solver}");
        assert_eq!(stdout(&o), "unknown\n");
        assert!(stderr(&o).contains("cannot show that there is no solution"));
    }
    // The engine's genetic search, out of time on 40 queens.
    let o = csp(&[
        "queens",
        "40",
        "--solver",
        "genetic",
        "--time-limit",
        "0.05",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "unknown\n");
    // Exact teaching solvers prove there is none.
    let o = csp(&["queens", "3", "--solver", "teach-sets"]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "no solution\n")
    );
}

#[test]
fn the_stack_solver_prints_the_classic_tree() {
    let ours = csp(&["queens", "5", "--trace", "--solver", "teach-stack"]);
    let engine = csp(&["queens", "5", "--trace", "--inference", "none"]);
    assert_eq!(ours.status.code(), Some(0));
    assert_eq!(stdout(&ours), stdout(&engine));
    assert!(stdout(&ours).ends_with("(1 3 5 2 4) solution\n"));
}

#[test]
fn trace_domains_shows_forward_checking() {
    let o = csp(&[
        "queens",
        "4",
        "--trace",
        "--domains",
        "--solver",
        "teach-fc",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("  (1 * * *) "));
    assert!(lines[1].ends_with("q2 {3 4}  q3 {2 4}  q4 {2 3}"), "{text}");
    // Row 3 wiped out, row 4 forced: refuted before row 3 is tried.
    assert!(lines[2].starts_with("    (1 3 * *) x "));
    assert!(lines[2].ends_with("q3 {}  q4 = 2 (forced)"), "{text}");
    assert_eq!(lines.last().unwrap().trim(), "(2 4 1 3) solution");
    // The engine's forward checking (the default): the removals it reports,
    // and the three rows it fixes after the first queen, marked forced.
    let o = csp(&["queens", "4", "--trace", "--domains"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("\n  (1 * * *)                     q2 {3 4}  q3 {2 4}  q4 {2 3}\n"),
        "{text}"
    );
    assert!(text.contains("    (1 3 * *) x                 propagation emptied a domain\n"));
    assert!(
        text.ends_with(
            "  (2 4 1 3) solution            q2 = 4 (forced)  q3 = 1 (forced)  q4 = 3 (forced)\n"
        ),
        "{text}"
    );
    // --domains belongs to --trace, and to the solvers that keep domains.
    assert_eq!(csp(&["queens", "4", "--domains"]).status.code(), Some(2));
    let o = csp(&[
        "queens",
        "4",
        "--trace",
        "--domains",
        "--solver",
        "bitboard",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("teach-fc"));
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("n,solver,exact,solutions,complete,nodes,seconds")
    );
    lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn compare_over_a_range_agrees_with_oeis() {
    let o = csp(&["queens", "--compare", "4..8", "--format", "csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = csv_rows(&stdout(&o));
    let mut seen = std::collections::BTreeSet::new();
    for r in &rows {
        let n: usize = r[0].parse().unwrap();
        assert!((4..=8).contains(&n));
        seen.insert(r[1].clone());
        assert_eq!(r[4], "true", "{r:?}");
        if r[2] == "true" {
            assert_eq!(r[3], COUNTS[n].to_string(), "{r:?}");
        } else {
            assert_eq!(r[3], "1", "{r:?}"); // one solution found
        }
    }
    for solver in EXACT
        .iter()
        .chain(&["teach-min-conflicts (one)", "teach-genetic (one)"])
    {
        assert!(seen.contains(*solver), "{solver} missing from {seen:?}");
    }
    // The table: one line of counts for the exact solvers that agree.
    let o = csp(&["queens", "--compare", "4..=8"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let agree = text.lines().find(|l| l.contains(" agree)")).unwrap();
    assert!(
        agree.ends_with("2       10        4       40       92"),
        "{text}"
    );
    assert!(!text.contains("DIFFERS"));
    assert!(text.contains("\nnodes ") && text.contains("\ntime (ms) "));
}

#[test]
fn compare_json_and_svg() {
    let o = csp(&["queens", "--compare", "5..6", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.starts_with("{\"time_limit_s\":10,\"rows\":["));
    assert!(text.contains("{\"n\":6,\"solver\":\"teach-bits\",\"exact\":true,\"solutions\":4,\"complete\":true,\"nodes\":152,"));
    assert!(text.trim_end().ends_with("]}"));
    let o = csp(&[
        "queens",
        "--compare",
        "4..7",
        "--format",
        "svg",
        "--solvers",
        "all",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let svg = stdout(&o);
    assert!(svg.starts_with("<?xml") && svg.ends_with("</svg>\n"));
    assert!(svg.contains("nodes (log scale)") && svg.contains("time (s) (log scale)"));
    // One line in each plot for a solver that counts nodes, one in the
    // time plot for the others, each named.
    assert_eq!(svg.matches("<title>teach-sets</title>").count(), 2);
    assert_eq!(svg.matches("<title>constellation</title>").count(), 1);
    assert_eq!(
        svg.matches("<polyline").count(),
        svg.matches("</polyline>").count()
    );
}

#[test]
fn bad_compare_ranges_are_bad_input() {
    for (range, says) in [
        ("14..4", "empty"),
        ("a..b", "range of board sizes"),
        ("4..100000", "up to n = 64"),
        ("-3..4", "range of board sizes"),
        ("4..", "range of board sizes"),
    ] {
        let o = csp(&["queens", "--compare", range]);
        assert_eq!(o.status.code(), Some(2), "{range}");
        assert!(stderr(&o).starts_with("error: "), "{range}");
        assert!(stderr(&o).contains(says), "{range}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let o = csp(&["queens", "8", "--compare", "4..6"]);
    assert_eq!(o.status.code(), Some(2));
    let o = csp(&["queens", "--compare", "4..6", "--format", "board"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("table, csv, json or svg"));
    let o = csp(&["queens", "201", "--solver", "teach-fc"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--trace --format json`: the tree as data. Every node's parent is one
/// level up, the solutions are the engine's, and DOT has the same nodes.
#[test]
fn trace_tree_as_json_and_dot() {
    let json = csp(&[
        "queens",
        "6",
        "--trace",
        "--all",
        "--format",
        "json",
        "--inference",
        "fc",
    ]);
    assert_eq!(json.status.code(), Some(0));
    let json = String::from_utf8(json.stdout).unwrap();
    // A small reader for the flat format: one object per node.
    let nodes: Vec<&str> = json
        .trim()
        .trim_start_matches("{\"nodes\":[")
        .trim_end_matches("]}")
        .split("},{")
        .collect();
    let field = |n: &str, key: &str| -> String {
        let at = n.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        n[at..]
            .split([',', '}'])
            .next()
            .unwrap()
            .trim_matches('"')
            .to_string()
    };
    let depths: Vec<usize> = nodes
        .iter()
        .map(|n| field(n, "depth").parse().unwrap())
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        match field(n, "parent").as_str() {
            "null" => assert_eq!(depths[i], 0),
            p => assert_eq!(
                depths[p.parse::<usize>().unwrap()] + 1,
                depths[i],
                "node {i}"
            ),
        }
    }
    let solutions = nodes
        .iter()
        .filter(|n| field(n, "kind") == "solution")
        .count();
    assert_eq!(solutions, 4); // 6-queens has 4 solutions
    let dot = csp(&[
        "queens",
        "6",
        "--trace",
        "--all",
        "--format",
        "dot",
        "--inference",
        "fc",
    ]);
    let dot = String::from_utf8(dot.stdout).unwrap();
    assert!(dot.starts_with("digraph search {"));
    assert_eq!(dot.matches(" [label=").count(), nodes.len());
    assert_eq!(dot.matches("shape=diamond").count(), 4);
    // dot without --trace, and --domains with a tree format, are errors.
    assert_eq!(
        csp(&["queens", "6", "--format", "dot"]).status.code(),
        Some(2)
    );
    assert_eq!(
        csp(&["queens", "6", "--trace", "--domains", "--format", "json"])
            .status
            .code(),
        Some(2)
    );
}

/// Flags that would be ignored or contradict each other are refused with
/// status 2 and a message naming the flag.
#[test]
fn conflicting_or_ignored_flags_are_errors_naming_the_flag() {
    for (args, flag) in [
        (&["queens", "8", "--count", "--all"][..], "--all"),
        (
            &["queens", "8", "--count", "--format", "json"],
            "--format json",
        ),
        (
            &["queens", "8", "--solver", "teach-fc", "--inference", "none"],
            "--inference",
        ),
        (
            &["queens", "8", "--solver", "bitboard", "--var-order", "mrv"],
            "--var-order",
        ),
        (&["queens", "4", "--trace", "--format", "a1"], "--format a1"),
        (
            &["queens", "--compare", "4..5", "--solver", "teach-fc"],
            "--solver",
        ),
    ] {
        let o = csp(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(
            e.starts_with("error: ") && e.contains(flag),
            "{args:?}: {e}"
        );
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    // The engine's settings alone choose the engine (not the constellation
    // counter, which would ignore them): its statistics line says so.
    let o = csp(&["queens", "8", "--count", "--inference", "none", "--stats"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "92\n");
    assert!(
        stderr(&o).contains("solver: backtracking"),
        "{}",
        stderr(&o)
    );
}

/// Without propagation a refuted node is explained by two queens that
/// attack each other (checked here), never by an emptied domain.
#[test]
fn domains_without_inference_name_the_attacking_queens() {
    let o = csp(&[
        "queens",
        "6",
        "--trace",
        "--domains",
        "--inference",
        "none",
        "--all",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(!out.contains("propagation"), "{out}");
    let mut refuted = 0;
    for line in out.lines().filter(|l| l.contains(") x ")) {
        refuted += 1;
        // `(1 3 2 * * *) x   q2 = 3 attacks q3 = 2`
        let why = line.split(") x").nth(1).unwrap().trim();
        let w: Vec<&str> = why.split_whitespace().collect();
        assert_eq!(w.len(), 7, "{line}");
        let row = |q: &str| q[1..].parse::<i64>().unwrap();
        let (r1, c1, r2, c2) = (
            row(w[0]),
            w[2].parse::<i64>().unwrap(),
            row(w[4]),
            w[6].parse::<i64>().unwrap(),
        );
        assert!(c1 == c2 || (c1 - c2).abs() == (r1 - r2).abs(), "{line}");
        // The two queens are those of the placement.
        let placement: Vec<&str> = line
            .trim_start()
            .trim_start_matches('(')
            .split(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(placement[r1 as usize - 1], w[2], "{line}");
        assert_eq!(placement[r2 as usize - 1], w[6], "{line}");
    }
    assert!(refuted > 100, "{refuted} refuted nodes");
}

/// `--solvers` chooses the rows of `--compare`; the chart shows the
/// teaching ladder unless told otherwise, each line in its own colour and
/// labelled at its end.
#[test]
fn compare_solvers_choose_the_rows_and_the_chart_shows_the_ladder() {
    let o = csp(&[
        "queens",
        "--compare",
        "4..5",
        "--solvers",
        "teach-sets,backtracking",
        "--format",
        "csv",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let solvers: Vec<String> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().to_string())
        .collect();
    let want: Vec<&str> = [
        "backtracking (none)",
        "backtracking (fc)",
        "backtracking (mac)",
        "teach-sets",
    ]
    .iter()
    .flat_map(|s| [*s, *s])
    .collect();
    assert_eq!(solvers, want);
    // The chart: the ladder by default.
    let o = csp(&["queens", "--compare", "4..6", "--format", "svg"]);
    assert_eq!(o.status.code(), Some(0));
    let svg = stdout(&o);
    let lines: Vec<(&str, &str)> = svg
        .lines()
        .filter(|l| l.contains("<polyline"))
        .map(|l| {
            let color = l
                .split("stroke=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let name = l
                .split("<title>")
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap();
            (name, color)
        })
        .collect();
    let mut names: Vec<&str> = lines.iter().map(|l| l.0).collect();
    names.sort_unstable();
    names.dedup();
    // The teaching solvers (the exact ones of EXACT, and the two local
    // searches), and the engine, symmetry and tuned-counter rungs.
    let mut ladder: Vec<&str> = EXACT.to_vec();
    ladder.extend([
        "teach-min-conflicts (one)",
        "teach-genetic (one)",
        "backtracking (fc)",
        "bitboard (8-fold symmetry)",
        "constellation",
    ]);
    ladder.sort_unstable();
    assert_eq!(names, ladder);
    // Every solver its own colour, the same in both plots.
    let mut colors: Vec<(&str, &str)> = lines.clone();
    colors.sort();
    colors.dedup();
    let mut distinct: Vec<&str> = colors.iter().map(|c| c.1).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(colors.len(), names.len());
    assert_eq!(distinct.len(), names.len());
    // A label at the end of every line.
    assert_eq!(svg.matches("class=\"end-label\"").count(), lines.len());
    // Every solver of the full chart in its own colour too.
    let all = stdout(&csp(&[
        "queens",
        "--compare",
        "4..5",
        "--format",
        "svg",
        "--solvers",
        "all",
    ]));
    let mut colors: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("<polyline"))
        .map(|l| {
            l.split("stroke=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    colors.sort();
    colors.dedup();
    assert_eq!(colors.len(), 21);
    // Unknown names and --solvers without --compare are bad input.
    for args in [
        &["queens", "--compare", "4..5", "--solvers", "nope"][..],
        &["queens", "8", "--solvers", "teach-sets"],
    ] {
        let o = csp(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("--solvers"), "{}", stderr(&o));
    }
}
