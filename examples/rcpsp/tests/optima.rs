//! Proven optima against the published ones (`data/optima.csv`), every
//! schedule checked independently, brute force on tiny random projects,
//! and positioned parse errors.

use csp_core::{Search, SearchOptions};
use csp_rcpsp::{check, find_cycle, model, parse, Project, Strength};

fn data(file: &str) -> String {
    std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The recorded optimum of `file`, from `data/optima.csv`.
fn known(file: &str) -> i32 {
    data("optima.csv")
        .lines()
        .skip(1)
        .find_map(|l| {
            let (f, v) = l.split_once(',')?;
            (f == file).then(|| v.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("{file} not in optima.csv"))
}

/// Minimises, checks the schedule independently; (makespan, proven).
fn solve(p: &Project, strength: Strength, tune: impl Fn(&mut SearchOptions)) -> (i32, bool) {
    let m = model(p, strength).unwrap();
    let mut options = m.options();
    options.limits.nodes = Some(200_000);
    tune(&mut options);
    let r = Search::new(&m.model)
        .options(options)
        .minimize(m.makespan)
        .unwrap();
    let best = r.best.as_ref().expect("a schedule");
    let starts: Vec<i32> = m.starts.iter().map(|&s| best[s]).collect();
    let makespan = check(p, &starts).unwrap();
    assert_eq!(Some(makespan), r.objective);
    (makespan, r.is_optimal())
}

fn no_learning(o: &mut SearchOptions) {
    o.learning = false;
}

#[test]
fn j30_set_1_proves_the_published_optima() {
    for i in 1..=10 {
        let file = format!("j301_{i}.sm");
        let p = parse(&data(&file)).unwrap();
        assert_eq!(p.jobs(), 32);
        assert_eq!(p.capacities.len(), 4);
        for strength in [
            Strength::TimeTable,
            Strength::Energetic,
            Strength::EnergeticReasoning,
            Strength::TimeTableEdgeFinding,
        ] {
            assert_eq!(solve(&p, strength, |_| {}), (known(&file), true), "{file}");
        }
        // Plain branch and bound (dom/wdeg) proves set 1 too.
        assert_eq!(
            solve(&p, Strength::Energetic, no_learning),
            (known(&file), true),
            "{file}"
        );
    }
}

#[test]
fn harder_j30_instances_are_proven_by_learning() {
    // Those the learning search proves in a few hundred nodes
    // (docs/rcpsp.md); plain branch and bound needs 10⁴ to 10⁵ nodes on
    // j306_1, j3014_1 and j3017_1.
    for file in [
        "j306_1.sm",
        "j3014_1.sm",
        "j3017_1.sm",
        "j3037_1.sm",
        "j3041_1.sm",
    ] {
        let p = parse(&data(file)).unwrap();
        for strength in [Strength::Energetic, Strength::TimeTableEdgeFinding] {
            assert_eq!(
                solve(&p, strength, |_| {}),
                (known(file), true),
                "{file} {strength:?}"
            );
        }
    }
}

#[test]
fn a_stopped_search_is_not_optimal() {
    let p = parse(&data("j3013_1.sm")).unwrap();
    let (makespan, proven) = solve(&p, Strength::TimeTable, |o| {
        o.learning = false;
        o.limits.nodes = Some(100);
    });
    assert!(!proven);
    assert!(makespan >= known("j3013_1.sm"));
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// A random project: `n` jobs, durations up to `dmax`, one or two
/// resources, precedences from lower to higher jobs.
fn random_project(rng: &mut Rng, n: usize, dmax: u64) -> Project {
    let resources = 1 + rng.next(2) as usize;
    let capacities: Vec<i32> = (0..resources).map(|_| 1 + rng.next(4) as i32).collect();
    let durations = (0..n).map(|_| rng.next(dmax + 1) as i32).collect();
    let demands = (0..n)
        .map(|_| {
            capacities
                .iter()
                .map(|&c| rng.next(c as u64 + 1) as i32)
                .collect()
        })
        .collect();
    let successors = (0..n)
        .map(|i| (i + 1..n).filter(|_| rng.next(4) == 0).collect())
        .collect();
    Project {
        durations,
        demands,
        successors,
        capacities,
    }
}

/// The least makespan over every assignment of starts in `0..=H − d`.
fn brute_force(p: &Project) -> i32 {
    let h = p.horizon().unwrap();
    let n = p.jobs();
    let mut starts = vec![0; n];
    let mut best = i32::MAX;
    loop {
        if let Ok(m) = check(p, &starts) {
            best = best.min(m);
        }
        let mut k = 0;
        loop {
            if k == n {
                return best;
            }
            if starts[k] < h - p.durations[k] {
                starts[k] += 1;
                break;
            }
            starts[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn tiny_random_projects_agree_with_brute_force() {
    let mut rng = Rng(29);
    for case in 0..120 {
        let (n, dmax) = if case % 2 == 0 { (4, 3) } else { (5, 2) };
        let p = random_project(&mut rng, n, dmax);
        let expected = brute_force(&p);
        for strength in [
            Strength::TimeTable,
            Strength::Energetic,
            Strength::EnergeticReasoning,
            Strength::TimeTableEdgeFinding,
        ] {
            assert_eq!(solve(&p, strength, |_| {}), (expected, true), "{p:?}");
            assert_eq!(solve(&p, strength, no_learning), (expected, true), "{p:?}");
        }
    }
}

#[test]
fn the_checker_rejects_what_it_should() {
    let p = Project {
        durations: vec![2, 2, 1],
        demands: vec![vec![2], vec![2], vec![1]],
        successors: vec![vec![2], vec![], vec![]],
        capacities: vec![3],
    };
    assert_eq!(check(&p, &[0, 2, 2]), Ok(4));
    // Jobs 1 and 2 overlap: 4 units of 3.
    assert!(check(&p, &[0, 1, 3])
        .unwrap_err()
        .contains("overloaded at time 1"));
    // Job 3 starts before job 1 ends.
    assert!(check(&p, &[0, 2, 1])
        .unwrap_err()
        .contains("before its predecessor 1"));
    assert!(check(&p, &[0, 2]).is_err());
    assert!(check(&p, &[-1, 2, 2]).is_err());
    // Back to back is fine: a job ending at t frees its units at t.
    assert_eq!(check(&p, &[2, 0, 4]), Ok(5));
}

#[test]
fn cycles_are_found() {
    assert_eq!(find_cycle(&[vec![1], vec![2], vec![]]), None);
    assert_eq!(
        find_cycle(&[vec![1], vec![2], vec![1, 3], vec![]]),
        Some(vec![1, 2, 1])
    );
    assert_eq!(
        find_cycle(&[vec![3], vec![0], vec![], vec![1]]),
        Some(vec![0, 3, 1, 0])
    );
}

/// A valid four-job file (two real jobs between source and sink).
const SMALL: &str = "\
************************************************************************
projects                      :  1
jobs (incl. supersource/sink ):  4
horizon                       :  5
RESOURCES
  - renewable                 :  1   R
  - nonrenewable              :  0   N
  - doubly constrained        :  0   D
************************************************************************
PRECEDENCE RELATIONS:
jobnr.    #modes  #successors   successors
   1        1          2           2   3
   2        1          1           4
   3        1          1           4
   4        1          0
************************************************************************
REQUESTS/DURATIONS:
jobnr. mode duration  R 1
------------------------------------------------------------------------
  1      1     0       0
  2      1     3       2
  3      1     2       2
  4      1     0       0
************************************************************************
RESOURCEAVAILABILITIES:
  R 1
    3
************************************************************************
";

#[test]
fn small_file_parses_and_solves() {
    let p = parse(SMALL).unwrap();
    assert_eq!(p.durations, vec![0, 3, 2, 0]);
    assert_eq!(p.successors, vec![vec![1, 2], vec![3], vec![3], vec![]]);
    assert_eq!(p.capacities, vec![3]);
    assert_eq!(solve(&p, Strength::Energetic, |_| {}), (5, true));
    assert_eq!(
        p.to_dzn(),
        "n_res = 1;\nrc = [3];\nn_tasks = 4;\nd = [0, 3, 2, 0];\n\
         rr = [| 0, 2, 2, 0 |];\nsuc = [{2, 3}, {4}, {4}, {}];\n"
    );
}

#[test]
fn bad_files_name_line_and_column() {
    let edit = |from: &str, to: &str| {
        assert!(SMALL.contains(from), "{from}");
        SMALL.replacen(from, to, 1)
    };
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (String::new(), 1, 1, "no section 'PRECEDENCE RELATIONS:'"),
        (
            edit("RESOURCEAVAILABILITIES:", "AVAILABILITIES:"),
            28,
            1,
            "no section 'RESOURCEAVAILABILITIES:'",
        ),
        (
            edit(
                "jobs (incl. supersource/sink ):  4",
                "jobs (incl. supersource/sink ):  x",
            ),
            3,
            34,
            "expected the number of jobs (an integer), found 'x'",
        ),
        (
            edit(
                "jobs (incl. supersource/sink ):  4",
                "jobs (incl. supersource/sink ):  99999999999999999999",
            ),
            3,
            34,
            "expected the number of jobs (an integer)",
        ),
        (
            edit(
                "jobs (incl. supersource/sink ):  4",
                "jobs (incl. supersource/sink ):  0",
            ),
            3,
            34,
            "the number of jobs must be from 1 to 10000, found 0",
        ),
        (
            edit(
                "nonrenewable              :  0",
                "nonrenewable              :  2",
            ),
            7,
            32,
            "only renewable resources are supported",
        ),
        (
            edit(
                "   2        1          1           4",
                "   2        1          2           4",
            ),
            13,
            37,
            "job 2 announces 2 successors, found 1",
        ),
        (
            edit(
                "   2        1          1           4",
                "   2        1          1           5",
            ),
            13,
            36,
            "a successor must be from 1 to 4, found 5",
        ),
        (
            edit(
                "   2        1          1           4",
                "   2        1          1           2",
            ),
            13,
            36,
            "job 2 cannot succeed itself",
        ),
        (
            edit(
                "   4        1          0",
                "   4        1          1           2",
            ),
            13,
            36,
            "the precedences form a cycle: jobs 2 → 4 → 2",
        ),
        (
            edit(
                "   3        1          1           4",
                "   5        1          1           4",
            ),
            14,
            4,
            "a job number must be from 1 to 4, found 5",
        ),
        (
            edit(
                "   3        1          1           4",
                "   2        1          1           4",
            ),
            14,
            4,
            "expected job 3, found job 2",
        ),
        (
            edit(
                "   3        1          1           4",
                "   3        2          1           4",
            ),
            14,
            13,
            "only single-mode instances are supported",
        ),
        (
            edit("   4        1          0\n", ""),
            15,
            1,
            "the section PRECEDENCE RELATIONS ends after 3 of its 4 lines",
        ),
        (
            edit(
                "   4        1          0\n",
                "   4        1          0\n   5        1          0\n",
            ),
            16,
            1,
            "more lines in PRECEDENCE RELATIONS than the 4 announced",
        ),
        (
            edit("  2      1     3       2", "  2      1     3       2   1"),
            21,
            28,
            "expected 'jobnr mode duration' and 1 demands, found 5 numbers",
        ),
        (
            edit("  2      1     3       2", "  2      1     -3       2"),
            21,
            16,
            "a duration must be from 0 to 100000, found -3",
        ),
        (
            edit(
                "  2      1     3       2",
                "  2      1     3000000000       2",
            ),
            21,
            16,
            "a duration must be from 0 to 100000",
        ),
        (
            edit("  2      1     3       2", "  2      1     3       4"),
            21,
            24,
            "job 2 needs 4 of resource R 1, more than its capacity 3: the instance is infeasible",
        ),
        (
            edit("    3\n", "    3 1\n"),
            27,
            7,
            "expected 1 capacities, found 2 numbers",
        ),
        (
            edit("    3\n", "    three\n"),
            27,
            5,
            "expected a capacity (an integer), found 'three'",
        ),
        (
            edit("    3\n", ""),
            27,
            1,
            "the section RESOURCEAVAILABILITIES ends after 0 of its 1 lines",
        ),
    ];
    let borrowed: Vec<(&str, usize, usize, &str)> = cases
        .iter()
        .map(|(t, l, c, w)| (t.as_str(), *l, *c, *w))
        .collect();
    csp_text::check_errors(parse, &borrowed).unwrap();
    // A job of duration 0 may demand anything: it uses nothing.
    let free = edit("  1      1     0       0", "  1      1     0       9");
    assert!(parse(&free).is_ok());
}

#[test]
fn every_shipped_file_parses_and_has_a_recorded_optimum() {
    let dir = format!("{}/data", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".sm") {
            let p = parse(&data(&name)).unwrap();
            assert_eq!(p.jobs(), 32, "{name}");
            assert!(known(&name) > 0);
            count += 1;
        }
    }
    assert_eq!(count, 20);
}

#[test]
fn malformed_projects_are_errors_not_panics() {
    let p = Project {
        durations: vec![1, 1],
        demands: vec![vec![1], vec![]],
        successors: vec![vec![1], vec![5]],
        capacities: vec![1],
    };
    assert!(model(&p, Strength::default()).is_err());
    assert!(check(&p, &[0, 1]).is_err());
    let q = Project {
        durations: vec![1],
        demands: vec![vec![1]],
        successors: vec![vec![3]],
        capacities: vec![1],
    };
    assert!(model(&q, Strength::default()).is_err());
    assert!(check(&q, &[0]).unwrap_err().contains("successor beyond"));
}
