//! Proven optima against the published ones (`data/optima.csv`), every
//! packing checked independently, brute force on tiny random instances,
//! and positioned parse errors.

use csp_binpack::strip;
use csp_binpack::{check, first_fit_decreasing, lower_bound, model, parse, Instance, Options};
use csp_core::{Outcome, Search};

fn data(file: &str) -> String {
    std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The recorded optimum of `file`, from `data/optima.csv`.
fn known(file: &str) -> i32 {
    data("optima.csv")
        .lines()
        .skip(1)
        .find_map(|l| {
            let mut f = l.split(',');
            let (name, v) = (f.next()?, f.next()?);
            (name == file).then(|| v.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("{file} not in optima.csv"))
}

/// Minimises with a node limit, checks the packing; (bins, proven, nodes).
fn solve(inst: &Instance, options: Options, nodes: u64) -> (usize, bool, u64) {
    let m = model(inst, options).unwrap();
    let mut o = m.options();
    o.limits.nodes = Some(nodes);
    let r = Search::new(&m.model).options(o).minimize(m.used).unwrap();
    let bins = m.assignment(r.best.as_ref().expect("a packing"));
    let used = check(inst, &bins).unwrap();
    assert_eq!(Some(used as i32), r.objective);
    assert!(used >= lower_bound(inst));
    (used, r.is_optimal(), r.stats.nodes)
}

/// The instances the default search (no learning) proves within 20,000
/// nodes (`docs/packing.md`): of Scholl's, two where first fit decreasing
/// meets L2, four where the search must beat first fit decreasing, six
/// where it must prove L2 too low; and Falkenauer's u120_00 (120 items).
const SCHOLL: &[&str] = &[
    "N1C1W1_A.BPP",
    "N1C2W2_A.BPP",
    "N1C1W1_C.BPP",
    "N1C3W1_A.BPP",
    "N1C3W2_B.BPP",
    "N1C3W4_D.BPP",
    "N1C1W1_K.BPP",
    "N1C1W1_R.BPP",
    "N1C1W4_A.BPP",
    "N1C1W4_S.BPP",
    "N1C2W1_S.BPP",
    "N1C2W1_G.BPP",
    "Falkenauer_u120_00.txt",
];

#[test]
fn scholl_instances_reach_the_published_optima() {
    for file in SCHOLL {
        let inst = parse(&data(file)).unwrap();
        let (used, proven, _) = solve(&inst, Options::default(), 20_000);
        assert!(proven, "{file}: not proven");
        assert_eq!(used as i32, known(file), "{file}");
    }
}

#[test]
fn learning_proves_n1c1w2_a_which_plain_search_does_not() {
    // N1C1W2_A: plain branch and bound stops at 20,000 nodes with the
    // optimum unproven; learning proves it in about 1,100. (N1C1W1_N was
    // the example until the cardinality bound let plain search prove it
    // too, in about 10,000.)
    let file = "N1C1W2_A.BPP";
    let inst = parse(&data(file)).unwrap();
    let plain = solve(&inst, Options::default(), 20_000);
    assert!(!plain.1, "plain branch and bound proved {file}");
    assert!(plain.0 as i32 >= known(file));
    let learning = Options {
        learning: true,
        ..Options::default()
    };
    let (used, proven, _) = solve(&inst, learning, 20_000);
    assert!(proven);
    assert_eq!(used as i32, known(file));
}

#[test]
fn symmetry_breaking_saves_nodes() {
    // N1C1W1_R: proven in about 400 nodes with it, not in 20,000 without.
    let inst = parse(&data("N1C1W1_R.BPP")).unwrap();
    let with = solve(&inst, Options::default(), 20_000);
    let without = solve(
        &inst,
        Options {
            symmetry: false,
            ..Options::default()
        },
        20_000,
    );
    assert!(with.1 && !without.1);
    assert!(with.2 < without.2);
}

#[test]
fn a_stopped_search_is_not_optimal() {
    // N1C1W2_A: first fit decreasing finds the optimum 29, L2 says 28, and
    // neither search proves 28 impossible within these nodes.
    let file = "N1C1W2_A.BPP";
    let inst = parse(&data(file)).unwrap();
    let m = model(&inst, Options::default()).unwrap();
    let mut o = m.options();
    o.limits.nodes = Some(2_000);
    let r = Search::new(&m.model).options(o).minimize(m.used).unwrap();
    assert!(!r.is_optimal());
    assert!(matches!(r.outcome, Outcome::LimitReached(_)));
    let bins = m.assignment(r.best.as_ref().unwrap());
    assert_eq!(check(&inst, &bins), Ok(known(file) as usize));
}

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The fewest bins, by enumerating every packing as a restricted growth
/// string (item i in a bin used before or in the next new one).
fn brute_force(inst: &Instance) -> usize {
    fn go(inst: &Instance, i: usize, loads: &mut Vec<i64>, best: &mut usize) {
        if loads.len() >= *best {
            return;
        }
        if i == inst.sizes.len() {
            *best = loads.len();
            return;
        }
        let s = inst.sizes[i] as i64;
        for b in 0..loads.len() {
            if loads[b] + s <= inst.capacity as i64 {
                loads[b] += s;
                go(inst, i + 1, loads, best);
                loads[b] -= s;
            }
        }
        loads.push(s);
        go(inst, i + 1, loads, best);
        loads.pop();
    }
    let mut best = inst.sizes.len() + 1;
    go(inst, 0, &mut Vec::new(), &mut best);
    // Items of size 0 alone would still count as a bin here: they never
    // need one of their own, so the least is never above the item count.
    best.min(inst.sizes.len())
}

#[test]
fn tiny_random_instances_agree_with_brute_force() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..300 {
        let n = 1 + rng.next(8) as usize;
        let capacity = 1 + rng.next(12) as i32;
        let sizes = (0..n)
            .map(|_| rng.next(capacity as u64 + 1) as i32)
            .collect();
        let inst = Instance { capacity, sizes };
        let want = brute_force(&inst);
        assert!(
            lower_bound(&inst) <= want,
            "round {round}: L2 above the optimum"
        );
        let ffd = first_fit_decreasing(&inst);
        let ffd_bins: Vec<i32> = ffd.iter().map(|&b| b as i32).collect();
        assert!(check(&inst, &ffd_bins).unwrap() >= want);
        for symmetry in [true, false] {
            for learning in [false, true] {
                let (used, proven, _) = solve(&inst, Options { symmetry, learning }, 100_000);
                assert!(proven, "round {round} {inst:?}");
                assert_eq!(
                    used, want,
                    "round {round} {inst:?} sym {symmetry} learn {learning}"
                );
            }
        }
    }
}

#[test]
fn the_l2_bound_is_martello_and_toths() {
    // Martello and Toth's own illustration of L2 beating L1 kind of case:
    // three items of 6 in bins of 10 need 3 bins (L1 says 2).
    let i = Instance {
        capacity: 10,
        sizes: vec![6, 6, 6],
    };
    assert_eq!(lower_bound(&i), 3);
    // Items of 4 fill what the items of 6 leave: 6+4 three times.
    let i = Instance {
        capacity: 10,
        sizes: vec![6, 6, 6, 4, 4, 4],
    };
    assert_eq!(lower_bound(&i), 3);
    // With a 5 too, one more bin: L2 counts 3 + ⌈(12 + 5 − 12) / 10⌉.
    let i = Instance {
        capacity: 10,
        sizes: vec![6, 6, 6, 4, 4, 4, 5],
    };
    assert_eq!(lower_bound(&i), 4);
    assert_eq!(
        lower_bound(&Instance {
            capacity: 10,
            sizes: vec![]
        }),
        0
    );
    assert_eq!(
        lower_bound(&Instance {
            capacity: 10,
            sizes: vec![0, 0]
        }),
        0
    );
}

#[test]
fn the_checker_rejects_what_it_should() {
    let i = Instance {
        capacity: 10,
        sizes: vec![6, 5, 4],
    };
    assert_eq!(check(&i, &[0, 1, 0]), Ok(2));
    assert_eq!(check(&i, &[3, 7, 3]), Ok(2));
    assert!(check(&i, &[0, 0, 1])
        .unwrap_err()
        .contains("more than the capacity"));
    assert!(check(&i, &[0, -1, 1]).unwrap_err().contains("below 0"));
    assert!(check(&i, &[0, 1])
        .unwrap_err()
        .contains("2 bins for 3 items"));
}

#[test]
fn bad_files_name_line_and_column() {
    csp_text::check_errors(
        parse,
        &[
            ("", 1, 1, "empty input"),
            ("x\n", 1, 1, "the number of items"),
            ("0\n10\n", 1, 1, "from 1 to"),
            ("3\n", 1, 1, "before the capacity"),
            ("3 10\n", 1, 3, "only the number of items"),
            ("2\n10\n4\n", 3, 1, "after 1 of the 2 sizes"),
            ("2\n10\n4\n5\n6\n", 5, 1, "more sizes than the 2"),
            ("2\n10\n4\n-5\n", 4, 1, "a size must be from 0"),
            (
                "2\n10\n4\n11\n",
                4,
                1,
                "larger than the capacity 10: the instance is infeasible",
            ),
            ("2\n10\n4\n  five\n", 4, 3, "expected a size"),
            ("2\n10\n4 5\n", 3, 3, "only a size"),
            ("2\n-10\n4\n5\n", 2, 1, "the capacity must be"),
        ],
    )
    .unwrap();
    // Windows line ends and comments are fine.
    assert_eq!(
        parse("# two items\r\n2\r\n10\r\n4\r\n6\r\n"),
        Ok(Instance {
            capacity: 10,
            sizes: vec![4, 6]
        })
    );
}

#[test]
fn every_shipped_file_parses_and_has_a_recorded_optimum() {
    let csv = data("optima.csv");
    let rows: Vec<(&str, &str)> = csv
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((*f.first()?, *f.get(2)?))
        })
        .collect();
    assert_eq!(rows.len(), 21);
    let is_strip = |set: &str| set.starts_with("Hopper-Turton");
    for (file, _) in rows.iter().filter(|r| !is_strip(r.1)) {
        let inst = parse(&data(file)).unwrap();
        assert!(lower_bound(&inst) as i32 <= known(file), "{file}");
        let ffd: Vec<i32> = first_fit_decreasing(&inst)
            .iter()
            .map(|&b| b as i32)
            .collect();
        assert!(check(&inst, &ffd).unwrap() as i32 >= known(file), "{file}");
    }
    for (file, _) in rows.iter().filter(|r| is_strip(r.1)) {
        let s = strip::parse(&data(file)).unwrap();
        assert!(strip::lower_bound(&s) <= known(file), "{file}");
    }
}

#[test]
fn malformed_instances_are_errors_not_panics() {
    let bad = Instance {
        capacity: 5,
        sizes: vec![6],
    };
    assert!(model(&bad, Options::default()).is_err());
    let bad = Instance {
        capacity: 5,
        sizes: vec![-1],
    };
    assert!(model(&bad, Options::default()).is_err());
    let s = strip::Strip {
        width: 3,
        rects: vec![(4, 1)],
    };
    assert!(strip::model(&s, 5, strip::Options::default()).is_err());
    let s = strip::Strip {
        width: 3,
        rects: vec![(0, 1)],
    };
    assert!(strip::model(&s, 5, strip::Options::default()).is_err());
}

// Strip packing.

const STRIPS: &[&str] = &["C1_1.txt", "C1_2.txt", "C1_3.txt", "C3_2.txt", "C3_3.txt"];

#[test]
fn hopper_turton_c1_reach_the_published_optima() {
    for file in STRIPS {
        let s = strip::parse(&data(file)).unwrap();
        let r = strip::solve(&s, strip::Options::default(), Some(200_000), |_| {});
        assert!(r.proven, "{file}: not proven");
        let (h, at) = r.best.unwrap();
        assert_eq!(strip::check(&s, &at), Ok(h));
        assert_eq!(h, known(file), "{file}");
    }
}

/// The least height by brute force over the normal patterns
/// (Christofides and Whitlock, 1977; Herz, 1972): every packing can be
/// pushed left and down until each rectangle's x is a sum of the widths
/// of some other rectangles and its y a sum of their heights, so trying
/// only those corners, every rectangle in turn, is exhaustive.
fn strip_brute_force(s: &strip::Strip) -> i32 {
    fn sums(sides: &[i32], skip: usize, top: i32) -> Vec<i32> {
        let mut out = vec![0];
        for (j, &d) in sides.iter().enumerate() {
            if j != skip {
                let more: Vec<i32> = out.iter().map(|&v| v + d).filter(|&v| v <= top).collect();
                out.extend(more);
                out.sort_unstable();
                out.dedup();
            }
        }
        out
    }
    fn go(s: &strip::Strip, at: &mut Vec<(i32, i32)>, i: usize, height: i32) -> bool {
        if i == s.rects.len() {
            return true;
        }
        let ws: Vec<i32> = s.rects.iter().map(|r| r.0).collect();
        let hs: Vec<i32> = s.rects.iter().map(|r| r.1).collect();
        let (w, h) = s.rects[i];
        for x in sums(&ws, i, s.width - w) {
            for y in sums(&hs, i, height - h) {
                let free = (0..i).all(|j| {
                    let (a, b) = (at[j], s.rects[j]);
                    x + w <= a.0 || a.0 + b.0 <= x || y + h <= a.1 || a.1 + b.1 <= y
                });
                if free {
                    at[i] = (x, y);
                    if go(s, at, i + 1, height) {
                        return true;
                    }
                }
            }
        }
        false
    }
    let mut h = strip::lower_bound(s);
    loop {
        let mut at = vec![(0, 0); s.rects.len()];
        if go(s, &mut at, 0, h) {
            assert_eq!(strip::check(s, &at).map(|t| t <= h), Ok(true));
            return h;
        }
        h += 1;
    }
}

#[test]
fn tiny_random_strips_agree_with_brute_force() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut halved = 0;
    for round in 0..100 {
        let width = 2 + rng.next(7) as i32;
        let n = 1 + rng.next(6) as usize;
        let rects: Vec<(i32, i32)> = (0..n)
            .map(|_| (1 + rng.next(width as u64) as i32, 1 + rng.next(6) as i32))
            .collect();
        let s = strip::Strip { width, rects };
        let want = strip_brute_force(&s);
        let r = strip::solve(&s, strip::Options::default(), None, |_| {});
        let found = r.attempts.iter().position(|a| a.outcome == Outcome::Solved);
        if found.is_some_and(|k| k + 1 < r.attempts.len()) {
            halved += 1; // a packing found, then a lower height tried
        }
        for cumulative in [true, false] {
            for learning in [false, true] {
                let r = strip::solve(
                    &s,
                    strip::Options {
                        cumulative,
                        learning,
                    },
                    Some(100_000),
                    |_| {},
                );
                assert!(r.proven, "round {round} {s:?}");
                let (h, at) = r.best.unwrap();
                assert_eq!(strip::check(&s, &at), Ok(h));
                assert_eq!(
                    h, want,
                    "round {round} {s:?} cum {cumulative} learn {learning}"
                );
            }
        }
    }
    assert!(halved > 0, "no instance halved a gap");
}

#[test]
fn a_stopped_strip_search_says_so() {
    let s = strip::parse(&data("C1_2.txt")).unwrap();
    let r = strip::solve(&s, strip::Options::default(), Some(5), |_| {});
    assert!(!r.proven);
    let (h, at) = r.best.unwrap();
    assert_eq!(strip::check(&s, &at), Ok(h));
    assert!(h > r.bound || !r.proven);
}

#[test]
fn the_strip_checker_rejects_what_it_should() {
    let s = strip::Strip {
        width: 4,
        rects: vec![(2, 2), (2, 1)],
    };
    assert_eq!(strip::check(&s, &[(0, 0), (2, 0)]), Ok(2));
    assert_eq!(strip::check(&s, &[(0, 0), (0, 2)]), Ok(3));
    assert!(strip::check(&s, &[(0, 0), (1, 1)])
        .unwrap_err()
        .contains("overlap"));
    assert!(strip::check(&s, &[(3, 0), (0, 2)])
        .unwrap_err()
        .contains("sticks out"));
    assert!(strip::check(&s, &[(0, -1), (0, 2)])
        .unwrap_err()
        .contains("sticks out"));
}

#[test]
fn bad_strip_files_name_line_and_column() {
    csp_text::check_errors(
        strip::parse,
        &[
            ("", 1, 1, "empty input"),
            ("2\n", 1, 1, "before the strip's width"),
            ("2 3\n", 1, 3, "only the number of rectangles"),
            ("1\n5 5 5\n1 1\n", 2, 5, "expected 'width [height]'"),
            ("1\n0\n1 1\n", 2, 1, "the strip's width must be"),
            ("2\n5\n1 1\n", 3, 1, "after 1 of the 2 rectangles"),
            ("1\n5\n1 1\n2 2\n", 4, 1, "more rectangles than the 1"),
            ("1\n5\n1\n", 3, 2, "found 1 numbers"),
            ("1\n5\n1 1 1\n", 3, 5, "found 3 numbers"),
            ("1\n5\n-1 1\n", 3, 1, "a width must be"),
            ("1\n5\n1 0\n", 3, 3, "a height must be"),
            (
                "1\n5\n6 1\n",
                3,
                1,
                "wider than the strip (5): the instance is infeasible",
            ),
        ],
    )
    .unwrap();
}

#[test]
fn heights_gallop_up_then_halve_the_gap() {
    // Three 6 × 5 rectangles in a strip of width 10 stack: height 15, where
    // the area bound says 9. The heights tried: 9, then 11 (galloping),
    // then 14 (capped below the shelves' 15); each has no packing.
    let s = strip::Strip {
        width: 10,
        rects: vec![(6, 5); 3],
    };
    let mut tried = Vec::new();
    let r = strip::solve(&s, strip::Options::default(), None, |a| {
        tried.push((a.height, a.outcome))
    });
    assert!(r.proven);
    assert_eq!(r.best.as_ref().map(|b| b.0), Some(15));
    assert_eq!(r.bound, 15);
    let heights: Vec<i32> = tried.iter().map(|t| t.0).collect();
    assert_eq!(heights, [9, 11, 14]);
    assert!(tried.iter().all(|t| t.1 == Outcome::Unsatisfiable));
}

#[test]
fn large_strips_are_listed_not_drawn() {
    let s = strip::Strip {
        width: 1000,
        rects: vec![(600, 3), (400, 3)],
    };
    let text = strip::render(&s, &[(0, 0), (600, 0)], 3);
    assert_eq!(
        text,
        "rectangle 1 (600 × 3) at (0, 0)\nrectangle 2 (400 × 3) at (600, 0)\n"
    );
    let s = strip::Strip {
        width: 3,
        rects: vec![(2, 1), (1, 2)],
    };
    assert_eq!(strip::render(&s, &[(0, 0), (2, 0)], 2), "..B\nAAB\n");
}
