//! Known optima and random instances, every answer checked against an
//! independent dynamic program (not the engine) and by `check`.

use csp_core::{testing, Search};
use csp_knapsack::{check, model, options, parse, Knapsack};

/// The best value by dynamic programming over the capacity: `best[c]` is
/// the most value within weight `c` using the items seen so far.
fn dp(k: &Knapsack) -> i64 {
    let cap = k.capacity as usize;
    let mut best = vec![0i64; cap + 1];
    for &(w, v) in &k.items {
        let w = w as usize;
        for c in (w..=cap).rev() {
            best[c] = best[c].max(best[c - w] + v);
        }
    }
    best[cap]
}

/// The optimum by the engine, checked; with the options of the example.
fn solve(k: &Knapsack) -> i64 {
    let km = model(k).unwrap();
    let r = Search::new(&km.model)
        .options(options(k, &km))
        .maximize(km.value)
        .unwrap();
    assert!(r.is_optimal(), "{r}");
    let best = r.best.unwrap();
    let taken: Vec<bool> = km.take.iter().map(|&t| best[t] == 1).collect();
    let v = check(k, &taken).unwrap();
    assert_eq!(Some(v as i32), r.objective);
    v
}

fn load(name: &str) -> Knapsack {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn known_optima() {
    for (name, optimum) in [("p01.txt", 309), ("p02.txt", 51)] {
        let k = load(name);
        assert_eq!(dp(&k), optimum, "{name}: the data");
        assert_eq!(solve(&k), optimum, "{name}");
    }
}

#[test]
fn random_instances_match_the_dynamic_program() {
    let mut state = 0x853c_49e6_748f_ea9b_u64;
    let mut next = move |n: i64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as i64
    };
    for trial in 0..40 {
        let n = 1 + next(25) as usize;
        let items: Vec<(i64, i64)> = (0..n).map(|_| (1 + next(60), next(100))).collect();
        let total: i64 = items.iter().map(|i| i.0).sum();
        let k = Knapsack {
            capacity: next(total + 1),
            items,
        };
        assert_eq!(solve(&k), dp(&k), "trial {trial}: {k:?}");
    }
}

/// Every search configuration of the brute-force harness (value orders
/// including bisection) finds the same optimum on small instances.
#[test]
fn every_search_configuration_agrees() {
    let k = parse("6 14\n3 4\n4 5\n5 7\n6 8\n2 1\n7 9\n").unwrap();
    let optimum = dp(&k);
    let km = model(&k).unwrap();
    for opts in testing::all_configurations(5) {
        let r = Search::new(&km.model)
            .options(opts.clone())
            .maximize(km.value)
            .unwrap();
        assert_eq!(r.objective, Some(optimum as i32), "{opts:?}");
    }
}

#[test]
fn parse_errors_say_where() {
    for (text, expected) in [
        ("", "1:1: empty input: expected a line 'items capacity'"),
        ("2\n", "1:2: expected 'items capacity', found 1 numbers"),
        (
            "2 10 3\n",
            "1:6: expected 'items capacity', found 3 numbers",
        ),
        (
            "x 10\n",
            "1:1: expected the number of items (an integer), found 'x'",
        ),
        (
            "0 10\n",
            "1:1: the number of items must be from 1 to 1000, found 0",
        ),
        (
            "1 -5\n",
            "1:3: the capacity must be from 0 to 1000000, found -5",
        ),
        ("2 10\n3 4\n", "2:1: the input ends after 1 of 2 items"),
        (
            "1 10\n# c\n  0 4\n",
            "3:3: a weight must be from 1 to 1000000, found 0",
        ),
        (
            "1 10\n3 four\n",
            "2:3: expected a value (an integer), found 'four'",
        ),
        (
            "1 10\n3 4\n5 6\n",
            "3:1: more lines than the 1 items announced",
        ),
        (
            "1 10\n3 4 5\n",
            "2:5: expected 'weight value', found 3 numbers",
        ),
    ] {
        let e = parse(text).expect_err(text);
        assert_eq!(e.to_string(), expected, "{text:?}");
    }
}
