//! Known answers through the engine, every coloring re-checked independently.

use std::time::Instant;

use csp_coloring::dimacs::parse_dimacs;
use csp_coloring::model::{self, ColorOptions, Symmetry};
use csp_coloring::{check_coloring, maps, Graph};
use csp_core::Outcome;

fn load(name: &str) -> Graph {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_dimacs(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .graph
}

/// Proves the chromatic number `chi`: a checked `chi`-coloring, and the engine
/// reports no `(chi − 1)`-coloring (whether or not the clique bound already says so).
fn prove_chromatic(name: &str, graph: &Graph, chi: u32) {
    let start = Instant::now();
    let options = ColorOptions::default();
    let c = model::chromatic_number(graph, None, &options).unwrap();
    assert_eq!(c.exact(), Some(chi), "{name}: {c:?}");
    check_coloring(graph, c.coloring.as_ref().unwrap(), chi).unwrap();
    // The earlier method, one search per k, agrees.
    let by_loop = model::chromatic_number_by_loop(graph, None, &options).unwrap();
    assert_eq!(by_loop.exact(), Some(chi), "{name}: {by_loop:?}");
    check_coloring(graph, by_loop.coloring.as_ref().unwrap(), chi).unwrap();
    let below = model::color(graph, chi - 1, &options).unwrap();
    assert_eq!(below.outcome, Outcome::Unsatisfiable, "{name}");
    let nodes: u64 = c.attempts.iter().map(|a| a.2.nodes).sum::<u64>() + below.stats.nodes;
    eprintln!(
        "{name}: chromatic number {chi} proved in {:.3} s, {nodes} nodes, clique bound {}",
        start.elapsed().as_secs_f64(),
        model::greedy_clique(graph).len()
    );
}

#[test]
fn australia_needs_three_colors_not_two() {
    let g = maps::AUSTRALIA.graph();
    let options = ColorOptions::default();
    assert_eq!(
        model::color(&g, 2, &options).unwrap().outcome,
        Outcome::Unsatisfiable
    );
    let three = model::color(&g, 3, &options).unwrap();
    check_coloring(&g, three.colors.as_ref().unwrap(), 3).unwrap();
    prove_chromatic("australia", &g, 3);
}

#[test]
fn the_us_needs_four_colors() {
    prove_chromatic("us", &maps::US.graph(), 4);
}

#[test]
fn mycielski_and_queen_graphs() {
    prove_chromatic("myciel3", &load("myciel3.col"), 4);
    prove_chromatic("myciel4", &load("myciel4.col"), 5);
    prove_chromatic("queen5_5", &load("queen5_5.col"), 5);
}

#[test]
fn book_graphs() {
    prove_chromatic("anna", &load("anna.col"), 11);
    prove_chromatic("homer", &load("homer.col"), 13);
}

#[test]
fn without_symmetry_breaking_too() {
    let options = ColorOptions {
        symmetry: Symmetry::None,
        ..ColorOptions::default()
    };
    let g = load("myciel3.col");
    assert_eq!(
        model::color(&g, 3, &options).unwrap().outcome,
        Outcome::Unsatisfiable
    );
    let four = model::color(&g, 4, &options).unwrap();
    check_coloring(&g, four.colors.as_ref().unwrap(), 4).unwrap();
}

/// A small seeded generator for random graphs (xorshift64).
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The number of k-colorings of a graph equals the sum, over the solutions with
/// value precedence, of the ways to name their j colors with k: k!/(k−j)!.
#[test]
fn precedence_keeps_exactly_one_coloring_per_renaming_class() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    for trial in 0..30 {
        let n = 4 + (trial % 5) as u32;
        let edges: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|_| next().is_multiple_of(3))
            .collect();
        let g = Graph::new(n, edges).unwrap();
        for k in 1..=4u32 {
            let (plain, _) = model::model(&g, k, Symmetry::None).unwrap();
            let all = csp_core::Search::new(&plain).count().unwrap().count;
            let (broken, vars) = model::model(&g, k, Symmetry::ValuePrecedence).unwrap();
            let mut total = 0u128;
            for s in csp_core::Search::new(&broken).solutions().unwrap() {
                let colors: Vec<u32> = vars.iter().map(|&x| s[x] as u32).collect();
                check_coloring(&g, &colors, k).unwrap();
                let j = colors.iter().max().map_or(0, |m| m + 1);
                total += (k - j + 1..=k).map(u128::from).product::<u128>();
            }
            assert_eq!(total, all, "trial {trial}, k = {k}, graph {:?}", g.edges());
        }
    }
}

/// DSJC125.1, a random graph: chromatic number 5, clique bound 4, so the
/// engine must refute 4 colors by search.
#[test]
fn dsjc125_1() {
    prove_chromatic("DSJC125.1", &load("DSJC125.1.col"), 5);
}

#[test]
fn min_conflicts_finds_colorings() {
    let limits = csp_core::Limits::none().with_nodes(200_000);
    for (name, g, k) in [
        ("australia", maps::AUSTRALIA.graph(), 3),
        ("us", maps::US.graph(), 4),
        ("myciel4", load("myciel4.col"), 5),
        ("queen5_5", load("queen5_5.col"), 5),
        ("anna", load("anna.col"), 11),
    ] {
        let r = model::color_min_conflicts(&g, k, 42, &limits).unwrap();
        assert_eq!(r.outcome, Outcome::Solved, "{name}: {r:?}");
        assert_eq!(r.conflicts, 0);
        check_coloring(&g, &r.colors, k).unwrap();
        eprintln!(
            "{name}: min-conflicts {k}-coloring in {} steps, {:.3} s",
            r.steps,
            r.time.as_secs_f64()
        );
    }
    // Below the chromatic number it can only give up, with conflicts left.
    let g = maps::AUSTRALIA.graph();
    let r =
        model::color_min_conflicts(&g, 2, 42, &csp_core::Limits::none().with_nodes(1000)).unwrap();
    assert!(matches!(r.outcome, Outcome::LimitReached(_)));
    assert!(r.conflicts > 0);
}

/// Small random graphs: the minimisation, the loop and brute force (the
/// smallest k for which a proper k-coloring exists, by enumeration) agree.
#[test]
fn chromatic_number_matches_brute_force() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let options = ColorOptions::default();
    for trial in 0..60 {
        let n = 1 + (trial % 8) as u32;
        let edges: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|_| next() % 100 < 30 + 10 * (trial % 6))
            .collect();
        let g = Graph::new(n, edges).unwrap();
        // Brute force: every assignment of k colors, k = 1, 2, ...
        let chi = (1..=n)
            .find(|&k| {
                let total = (k as u64).pow(n);
                (0..total).any(|code| {
                    let colors: Vec<u32> = (0..n)
                        .map(|i| (code / (k as u64).pow(i) % k as u64) as u32)
                        .collect();
                    g.edges()
                        .iter()
                        .all(|&(u, v)| colors[u as usize] != colors[v as usize])
                })
            })
            .unwrap();
        let c = model::chromatic_number(&g, None, &options).unwrap();
        assert_eq!(
            c.exact(),
            Some(chi),
            "trial {trial}, {:?}: {c:?}",
            g.edges()
        );
        check_coloring(&g, c.coloring.as_ref().unwrap(), chi).unwrap();
        let by_loop = model::chromatic_number_by_loop(&g, None, &options).unwrap();
        assert_eq!(by_loop.exact(), Some(chi), "trial {trial}");
    }
}

/// Under a time limit the minimisation keeps the bounds it proved: the
/// lower bound never passes the chromatic number, the upper bound is a
/// checked coloring's.
#[test]
fn chromatic_number_under_a_time_limit() {
    let g = load("myciel4.col");
    for ms in [0, 1, 3, 10] {
        let limit = Some(std::time::Duration::from_millis(ms));
        let c = model::chromatic_number(&g, limit, &ColorOptions::default()).unwrap();
        assert!(c.lower <= 5, "{ms} ms: {c:?}");
        if let (Some(col), Some(k)) = (&c.coloring, c.upper) {
            assert!(k >= 5);
            check_coloring(&g, col, k).unwrap();
        }
    }
}
