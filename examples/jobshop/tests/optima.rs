//! Proven optima from the engine against the published ones, schedules
//! checked independently, and positioned parse errors.

use csp_core::Search;
use csp_jobshop::{check, model, parse};

fn solve(file: &str) -> (i32, bool) {
    let shop = parse(
        &std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap(),
    )
    .unwrap();
    let js = model(&shop).unwrap();
    let r = Search::new(&js.model)
        .options(csp_jobshop::options())
        .minimize(js.makespan)
        .unwrap();
    let best = r.best.as_ref().unwrap();
    let starts: Vec<Vec<i32>> = js
        .starts
        .iter()
        .map(|row| row.iter().map(|&s| best[s]).collect())
        .collect();
    let makespan = check(&shop, &starts).unwrap();
    assert_eq!(Some(makespan), r.objective);
    (makespan, r.is_optimal())
}

#[test]
fn ft06_is_55() {
    // Fisher and Thompson (1963), 6 jobs × 6 machines.
    assert_eq!(solve("ft06.txt"), (55, true));
}

#[test]
fn la01_is_666() {
    // Lawrence (1984), 10 jobs × 5 machines.
    assert_eq!(solve("la01.txt"), (666, true));
}

#[test]
fn la03_la04_la05_are_597_590_593() {
    // Lawrence (1984), 10 jobs × 5 machines (data/SOURCES.md); each proven
    // in under a second with the machines' edge finding (docs/jobshop.md).
    assert_eq!(solve("la03.txt"), (597, true));
    assert_eq!(solve("la04.txt"), (590, true));
    assert_eq!(solve("la05.txt"), (593, true));
}

#[test]
fn bad_files_name_line_and_column() {
    let cases = [
        ("", 1, 1, "empty input"),
        ("2\n", 1, 2, "expected 'jobs machines', found 1 numbers"),
        (
            "2 2\n0 3 1\n1 2 0 4\n",
            2,
            6,
            "a machine without its duration",
        ),
        (
            "2 2\n0 3 2 2\n1 2 0 4\n",
            2,
            5,
            "a machine must be from 0 to 1, found 2",
        ),
        (
            "2 2\n0 3 1 x\n1 2 0 4\n",
            2,
            7,
            "expected a duration (an integer), found 'x'",
        ),
        (
            "2 2\n0 3 1 -4\n1 2 0 4\n",
            2,
            7,
            "a duration must be from 0",
        ),
        ("2 2\n0 3 1 2\n", 2, 1, "the input ends after 1 of 2 jobs"),
        (
            "1 1\n0 3\n0 4\n",
            3,
            1,
            "more lines than the 1 jobs announced",
        ),
        ("0 2\n", 1, 1, "the number of jobs must be from 1"),
    ];
    csp_text::check_errors(parse, &cases).unwrap();
}

#[test]
fn the_checker_rejects_bad_schedules() {
    let shop = parse("2 2\n0 3 1 2\n1 2 0 4\n").unwrap();
    assert_eq!(check(&shop, &[vec![0, 3], vec![0, 3]]), Ok(7));
    assert!(check(&shop, &[vec![0, 2], vec![0, 3]]).is_err()); // job order
    assert!(check(&shop, &[vec![0, 3], vec![0, 2]]).is_err()); // machine 0 overlap
}
